/* Voxelisation (seed 003 §3.1: "inside black, outside white") by scanline
 * ray parity. For each row of cell centres along an axis, the crossings of
 * the ray with the triangles are collected and sorted; a centre is inside
 * when an odd number of crossings lies before it.
 *
 * Robustness: a ray through an edge or vertex shared by several triangles
 * must be counted exactly once. Each triangle is tested in the plane of the
 * other two axes with edge functions computed in one canonical vertex order
 * (so both triangles of an edge get bit-identical values), and a point on an
 * edge belongs only to the triangle for which that edge is a "top-left" edge,
 * the rasteriser's fill convention: of two triangles on opposite sides of an
 * edge exactly one owns it, and a fan around a vertex owns the vertex once.
 * At a silhouette the ray grazes two triangles that agree, adding 0 or 2.
 *
 * Open meshes: rays along x, y and z vote; a row with an odd number of
 * crossings went through a hole and abstains; a tie (all abstaining, or one
 * each way) is settled by the cell's generalised winding number. */
#include "sectorccd/spherefill.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct crossing { int row; sccd_real t; } crossing;

typedef struct crossing_list { crossing *c; size_t n, cap; } crossing_list;

void sccd_voxel_grid_init(sccd_voxel_grid *g)
{
    SCCD_ASSERT(g != NULL);
    if (g)
        *g = (sccd_voxel_grid){0};
}

void sccd_voxel_grid_destroy(sccd_voxel_grid *g)
{
    if (!g)
        return;
    sccd_free(g->cells);
    *g = (sccd_voxel_grid){0};
}

sccd_v3 sccd_voxel_center(const sccd_voxel_grid *g, int i, int j, int k)
{
    return (sccd_v3){g->origin.x + (i + 0.5) * g->h, g->origin.y + (j + 0.5) * g->h, g->origin.z + (k + 0.5) * g->h};
}

static sccd_real axis_of(sccd_v3 v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

static bool push_crossing(crossing_list *l, int row, sccd_real t)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        crossing *c = sccd_realloc(l->c, l->cap * sizeof *c, cap * sizeof *c);
        if (!c)
            return false;
        l->c = c;
        l->cap = cap;
    }
    l->c[l->n++] = (crossing){row, t};
    return true;
}

static bool less_point(const sccd_real *p, const sccd_real *q) { return p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]); }

/* Twice the signed area of (p, q, s), with p, q in canonical order so that
 * edge p–q gives the same value whichever triangle evaluates it. */
static sccd_real edge_fn(const sccd_real *p, const sccd_real *q, const sccd_real *s)
{
    if (less_point(q, p))
        return -edge_fn(q, p, s);
    return (q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0]);
}

/* Top-left rule on the edge p→q of a counter-clockwise triangle. */
static bool owns_edge(const sccd_real *p, const sccd_real *q)
{
    sccd_real du = q[0] - p[0], dv = q[1] - p[1];
    return dv < 0.0 || (dv == 0.0 && du > 0.0);
}

/* The rows (cell centres at integer u, v in grid units) inside the projected
 * triangle, each with its crossing parameter along the ray axis. */
static bool rasterise(crossing_list *l, const sccd_real uv[3][2], const sccd_real t[3], int nu, int nv)
{
    sccd_real area = edge_fn(uv[0], uv[1], uv[2]);
    if (area == 0.0)
        return true; /* parallel to the rays: its neighbours own the crossings */
    int o[3] = {0, 1, 2};
    if (area < 0.0)
        o[1] = 2, o[2] = 1; /* counter-clockwise order */
    sccd_real lo0 = fmin(uv[0][0], fmin(uv[1][0], uv[2][0])), hi0 = fmax(uv[0][0], fmax(uv[1][0], uv[2][0]));
    sccd_real lo1 = fmin(uv[0][1], fmin(uv[1][1], uv[2][1])), hi1 = fmax(uv[0][1], fmax(uv[1][1], uv[2][1]));
    int u0 = (int)fmax(0.0, ceil(lo0)), u1 = (int)fmin(nu - 1.0, floor(hi0));
    int v0 = (int)fmax(0.0, ceil(lo1)), v1 = (int)fmin(nv - 1.0, floor(hi1));
    for (int v = v0; v <= v1; ++v)
        for (int u = u0; u <= u1; ++u) {
            sccd_real s[2] = {u, v}, w[3];
            bool in = true;
            for (int e = 0; e < 3 && in; ++e) {
                const sccd_real *p = uv[o[(e + 1) % 3]], *q = uv[o[(e + 2) % 3]];
                w[e] = edge_fn(p, q, s);
                in = w[e] > 0.0 || (w[e] == 0.0 && owns_edge(p, q));
            }
            sccd_real sum = w[0] + w[1] + w[2];
            if (in && sum > 0.0 &&
                !push_crossing(l, u + nu * v, (w[0] * t[o[0]] + w[1] * t[o[1]] + w[2] * t[o[2]]) / sum))
                return false;
        }
    return true;
}

static int crossing_cmp(const void *pa, const void *pb)
{
    const crossing *a = pa, *b = pb;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return (a->t > b->t) - (a->t < b->t);
}

/* Grid units along axis a: cell centres at integers. */
static sccd_real to_grid(const sccd_voxel_grid *g, sccd_v3 p, int a)
{
    return (axis_of(p, a) - axis_of(g->origin, a)) / g->h - 0.5;
}

/* One ray direction (axis a): votes[cell] += 1 when inside; rows with an odd
 * number of crossings went through a hole and abstain (+= 4); the rest of
 * the cells voted outside. */
static bool cast_rows(const sccd_voxel_grid *g, const sccd_mesh *m, int a, unsigned char *votes)
{
    int dims[3] = {g->nx, g->ny, g->nz}, b = (a + 1) % 3, c = (a + 2) % 3;
    crossing_list l = {0};
    bool ok = true;
    for (int i = 0; ok && i < m->nt; ++i) {
        sccd_real uv[3][2], t[3];
        for (int k = 0; k < 3; ++k) {
            sccd_v3 p = m->v[m->t[i][k]];
            uv[k][0] = to_grid(g, p, b);
            uv[k][1] = to_grid(g, p, c);
            t[k] = to_grid(g, p, a);
        }
        ok = rasterise(&l, uv, t, dims[b], dims[c]);
    }
    if (ok && l.n > 0)
        qsort(l.c, l.n, sizeof *l.c, crossing_cmp);
    int stride[3] = {1, g->nx, g->nx * g->ny};
    for (size_t s = 0; ok && s < l.n;) {
        size_t e = s;
        while (e < l.n && l.c[e].row == l.c[s].row)
            ++e;
        int row = l.c[s].row, base = (row % dims[b]) * stride[b] + (row / dims[b]) * stride[c];
        if ((e - s) % 2 != 0)
            for (int i = 0; i < dims[a]; ++i)
                votes[base + i * stride[a]] += 4;
        else
            for (size_t x = s; x < e; x += 2) {
                int i0 = (int)fmax(0.0, floor(l.c[x].t) + 1.0), i1 = (int)fmin(dims[a] - 1.0, floor(l.c[x + 1].t));
                for (int i = i0; i <= i1; ++i)
                    votes[base + i * stride[a]] += 1;
            }
        s = e;
    }
    sccd_free(l.c);
    return ok;
}

/* Generalised winding number of the centre of cell idx. */
static sccd_real winding_number(const sccd_voxel_grid *g, const sccd_mesh *m, size_t idx)
{
    int i = (int)(idx % (size_t)g->nx), j = (int)(idx / (size_t)g->nx % (size_t)g->ny),
        k = (int)(idx / ((size_t)g->nx * g->ny));
    return sccd_mesh_winding_number(m, sccd_voxel_center(g, i, j, k));
}

/* Shape of the grid: res cells along the longest side plus one of padding
 * each side, centred on the mesh's box. */
static bool size_grid(sccd_voxel_grid *g, sccd_aabb3 box, int res)
{
    sccd_v3 ext = sccd_v3_sub(box.hi, box.lo);
    sccd_real longest = sccd_max(ext.x, sccd_max(ext.y, ext.z));
    if (!(longest > 0.0) || !sccd_is_valid_real(longest))
        return false;
    g->h = longest / res;
    sccd_real e[3] = {ext.x, ext.y, ext.z}, lo[3] = {box.lo.x, box.lo.y, box.lo.z}, o[3];
    int n[3];
    for (int a = 0; a < 3; ++a) {
        n[a] = (int)fmin(res, ceil(e[a] / g->h)) + 2;
        o[a] = lo[a] + 0.5 * e[a] - 0.5 * n[a] * g->h;
    }
    g->nx = n[0], g->ny = n[1], g->nz = n[2];
    g->origin = (sccd_v3){o[0], o[1], o[2]};
    return true;
}

bool sccd_voxelize(sccd_voxel_grid *g, const sccd_mesh *m, int res)
{
    bool ok = g != NULL && m != NULL && m->nt > 0 && res >= 1 && res <= SCCD_VOXEL_MAX_RES;
    sccd_mesh_report r = ok ? sccd_mesh_report_make(m) : (sccd_mesh_report){0};
    if (g) {
        sccd_voxel_grid_destroy(g);
        ok = ok && size_grid(g, r.bounds, res);
    }
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    size_t n = (size_t)g->nx * g->ny * g->nz;
    g->cells = sccd_calloc(n, 1);
    g->closed = r.closed;
    ok = g->cells != NULL;
    int axes = g->closed ? 1 : 3;
    for (int a = 0; ok && a < axes; ++a)
        ok = cast_rows(g, m, a, g->cells);
    for (size_t i = 0; ok && i < n; ++i) {
        /* inside when more rays say inside than outside (closed: the one ray
         * decides); a tie of an open mesh is settled by the winding number */
        int in = g->cells[i] & 3, abstain = g->cells[i] >> 2, out = axes - in - abstain;
        g->cells[i] = in > out || (!g->closed && in == out && winding_number(g, m, i) > 0.5);
        g->inside += g->cells[i];
    }
    if (!ok)
        sccd_voxel_grid_destroy(g);
    return ok;
}
