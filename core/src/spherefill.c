/* Sphere fills of a voxel grid (seed 003 §3.1) and their check.
 *
 * Radii: a sphere centred on a cell centre covers the cells whose centres
 * lie within it. The seed's digital sphere of integer radius r spans 2r + 1
 * cells, so its world radius is (r + 1/2)·h. The greedy fill's sphere at a
 * cell whose nearest outside centre is at distance D (the EDT) has radius D:
 * the largest ball with no outside centre strictly inside.
 *
 * How far such a ball can reach outside the surface, the proof: let q be a
 * point of the ball at depth δ outside the mesh. The open ball of radius δ/2
 * centred δ/2 from q towards the centre lies inside the ball and outside the
 * mesh. Any open ball of radius > √3/2·h holds a cell centre, which would be
 * an outside centre strictly inside the sphere. So δ ≤ √3·h in the worst
 * case (an outside sliver thinner than a cell); on the generated meshes the
 * measured maximum is below one cell (tests/test_spherefill.c checks it
 * against the exact distance to the mesh). A radius D − a brings the bound
 * to (√3 − a)·h: a = 0.74 would prove one cell, at 3–5× more spheres. */
#include "sectorccd/spherefill.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void sccd_sphere_list_init(sccd_sphere_list *l)
{
    SCCD_ASSERT(l != NULL);
    if (l)
        *l = (sccd_sphere_list){0};
}

void sccd_sphere_list_destroy(sccd_sphere_list *l)
{
    if (!l)
        return;
    sccd_free(l->s);
    *l = (sccd_sphere_list){0};
}

static bool push_sphere(sccd_sphere_list *l, sccd_sphere s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        sccd_sphere *p =
            l->cap < INT32_MAX / 2 ? sccd_realloc(l->s, (size_t)l->cap * sizeof *p, (size_t)cap * sizeof *p) : NULL;
        if (!p)
            return false;
        l->s = p;
        l->cap = cap;
    }
    l->s[l->n++] = s;
    return true;
}

static size_t cell_count(const sccd_voxel_grid *g) { return (size_t)g->nx * g->ny * g->nz; }

static bool valid_grid(const sccd_voxel_grid *g)
{
    return g != NULL && g->cells != NULL && g->nx > 0 && g->ny > 0 && g->nz > 0 && g->h > 0.0;
}

/* Cell index → (i, j, k). */
static void cell_ijk(const sccd_voxel_grid *g, size_t idx, int *i, int *j, int *k)
{
    *i = (int)(idx % (size_t)g->nx);
    *j = (int)(idx / (size_t)g->nx % (size_t)g->ny);
    *k = (int)(idx / ((size_t)g->nx * g->ny));
}

/* Call visit on every run of cells (along x) whose centres lie within rho
 * (cells) of the centre of cell c, until it returns false; returns false if
 * it stopped. Each row's run is solved from the circle equation. */
typedef bool row_fn(size_t first, int n, void *ctx);

static bool for_ball(const sccd_voxel_grid *g, size_t c, sccd_real rho, row_fn *visit, void *ctx)
{
    int ci, cj, ck, r = (int)floor(rho);
    cell_ijk(g, c, &ci, &cj, &ck);
    sccd_real r2 = rho * rho + 1e-9; /* cells on the sphere count, whatever the rounding of rho */
    for (int k = sccd_max(0, ck - r); k <= sccd_min(g->nz - 1, ck + r); ++k)
        for (int j = sccd_max(0, cj - r); j <= sccd_min(g->ny - 1, cj + r); ++j) {
            sccd_real rest = r2 - ((sccd_real)(j - cj) * (j - cj) + (sccd_real)(k - ck) * (k - ck));
            if (rest < 0.0)
                continue;
            int w = (int)floor(sqrt(rest)), i0 = sccd_max(0, ci - w), i1 = sccd_min(g->nx - 1, ci + w);
            if (i0 <= i1 && !visit((size_t)i0 + (size_t)g->nx * ((size_t)j + (size_t)g->ny * k), i1 - i0 + 1, ctx))
                return false;
        }
    return true;
}

static bool clear_flags(size_t first, int n, void *flags)
{
    memset((unsigned char *)flags + first, 0, (size_t)n);
    return true;
}

static bool set_flags(size_t first, int n, void *flags)
{
    memset((unsigned char *)flags + first, 1, (size_t)n);
    return true;
}

static sccd_sphere cell_sphere(const sccd_voxel_grid *g, size_t c, sccd_real rho)
{
    int i, j, k;
    cell_ijk(g, c, &i, &j, &k);
    return (sccd_sphere){sccd_voxel_center(g, i, j, k), rho * g->h};
}

/* The cell holding the centre of a sphere made by cell_sphere. */
static size_t sphere_cell(const sccd_voxel_grid *g, sccd_sphere s)
{
    size_t i = (size_t)floor((s.c.x - g->origin.x) / g->h), j = (size_t)floor((s.c.y - g->origin.y) / g->h),
           k = (size_t)floor((s.c.z - g->origin.z) / g->h);
    return i + (size_t)g->nx * (j + (size_t)g->ny * k);
}

/* ---- the seed's fill (seed 003 §3.1) ---- */

/* Arm of the largest "cross" that fits at each black cell (§3.1.1): the
 * shortest of the six runs of black cells leaving it along the axes, from
 * run lengths computed forwards and backwards along every row. */
static int cross_arms(const sccd_voxel_grid *g, const unsigned char *black, int16_t *arm)
{
    size_t n = cell_count(g);
    for (size_t i = 0; i < n; ++i)
        arm[i] = black[i] ? INT16_MAX : -1;
    int dims[3] = {g->nx, g->ny, g->nz}, stride[3] = {1, g->nx, g->nx * g->ny}, best = -1;
    for (int a = 0; a < 3; ++a) {
        int b = (a + 1) % 3, c = (a + 2) % 3;
        for (int v = 0; v < dims[c]; ++v)
            for (int u = 0; u < dims[b]; ++u) {
                size_t base = (size_t)u * stride[b] + (size_t)v * stride[c];
                for (int dir = 0; dir < 2; ++dir) {
                    int run = -1; /* black cells passed since the last white one */
                    for (int s = 0; s < dims[a]; ++s) {
                        size_t idx = base + (size_t)(dir ? dims[a] - 1 - s : s) * stride[a];
                        run = black[idx] ? run + 1 : -1;
                        if (black[idx] && run < arm[idx])
                            arm[idx] = (int16_t)run;
                    }
                }
            }
    }
    for (size_t i = 0; i < n; ++i)
        best = arm[i] > best ? arm[i] : best;
    return best;
}

/* Michener's midpoint circle of radius r (seed 003 §3.1.2, fig 3): the
 * octant from (0, r), mirrored eight ways; visit(x, y) for each pixel. */
static void michener_circle(int r, void (*visit)(int x, int y, void *ctx), void *ctx)
{
    int x = 0, y = r, d = 3 - 2 * r;
    while (x <= y) {
        const int p[8][2] = {{x, y}, {y, x}, {-x, y}, {-y, x}, {x, -y}, {y, -x}, {-x, -y}, {-y, -x}};
        for (int i = 0; i < 8; ++i)
            visit(p[i][0], p[i][1], ctx);
        if (d < 0) {
            d += 4 * x + 6;
        } else {
            d += 4 * (x - y) + 10;
            --y;
        }
        ++x;
    }
}

/* The digital sphere surface as offsets: a circle in the xy plane, and for
 * each of its pixels (x, y) a circle of radius |y| in the plane at that x
 * (seed 003 §3.1.2, fig 4). A circle has at most 8(r + 1) pixels, so the
 * surface at most 64(r + 1)² before duplicates are removed. */
typedef struct sphere_offsets { int n, cap, plane_x; int (*d)[3]; } sphere_offsets;

static void add_offset(int y, int z, void *ctx)
{
    sphere_offsets *o = ctx;
    if (o->n < o->cap) {
        o->d[o->n][0] = o->plane_x, o->d[o->n][1] = y, o->d[o->n][2] = z;
        o->n++;
    }
}

static void add_latitude(int x, int y, void *ctx)
{
    sphere_offsets *o = ctx;
    o->plane_x = x;
    michener_circle(abs(y), add_offset, o);
}

static int offset_cmp(const void *pa, const void *pb) { return memcmp(pa, pb, 3 * sizeof(int)); }

static bool sphere_surface(sphere_offsets *o, int r)
{
    o->n = 0;
    o->cap = 64 * (r + 1) * (r + 1);
    o->d = sccd_alloc((size_t)o->cap * sizeof *o->d);
    if (!o->d)
        return false;
    michener_circle(r, add_latitude, o);
    qsort(o->d, (size_t)o->n, sizeof *o->d, offset_cmp);
    int u = 0;
    for (int i = 0; i < o->n; ++i)
        if (u == 0 || offset_cmp(o->d[i], o->d[u - 1]) != 0)
            memcpy(o->d[u++], o->d[i], sizeof *o->d);
    o->n = u;
    return true;
}

/* One round at cross arm r: every candidate whose digital sphere lies in
 * the black cells is accepted (overlaps allowed, §3.1.2), then all accepted
 * spheres are painted white (§3.1.3). */
static bool seed_round(const sccd_voxel_grid *g, unsigned char *black, const int16_t *arm, int r,
                       sccd_sphere_list *out)
{
    sphere_offsets o = {0};
    if (!sphere_surface(&o, r))
        return false;
    int first = out->n;
    size_t n = cell_count(g);
    bool ok = true;
    for (size_t idx = 0; ok && idx < n; ++idx) {
        if (arm[idx] < r)
            continue;
        int i, j, k;
        cell_ijk(g, idx, &i, &j, &k);
        bool fits = true;
        for (int e = 0; e < o.n && fits; ++e)
            fits = black[(size_t)(i + o.d[e][0]) + (size_t)g->nx * ((size_t)(j + o.d[e][1]) +
                                                                      (size_t)g->ny * (size_t)(k + o.d[e][2]))];
        if (fits)
            ok = push_sphere(out, cell_sphere(g, idx, r + 0.5));
    }
    sccd_free(o.d);
    for (int s = first; ok && s < out->n; ++s)
        for_ball(g, sphere_cell(g, out->s[s]), r + 0.5, clear_flags, black);
    return ok;
}

static bool fill_seed(const sccd_voxel_grid *g, sccd_sphere_list *out, sccd_fill_stats *st)
{
    size_t n = cell_count(g);
    unsigned char *black = sccd_alloc(n);
    int16_t *arm = sccd_alloc(n * sizeof *arm);
    bool ok = black && arm;
    for (size_t i = 0; ok && i < n; ++i)
        black[i] = g->cells[i] != 0;
    /* The cross shrinks by one when nothing of its size fits (§3.1.1); painting
     * only removes black, so a size that was tried never fits again. */
    for (int r = ok ? cross_arms(g, black, arm) : -1; ok && r >= 0; --r) {
        ok = seed_round(g, black, arm, r, out);
        st->rounds++;
        int best = cross_arms(g, black, arm);
        r = best < r ? best + 1 : r;
    }
    sccd_free(black);
    sccd_free(arm);
    return ok;
}

/* ---- exact Euclidean distance transform (Felzenszwalb & Huttenlocher 2012) ---- */

/* Where the parabolas rooted at p < q cross. */
static double parabola_cut(const double *f, int p, int q)
{
    return ((f[q] + (double)q * q) - (f[p] + (double)p * p)) / (2.0 * (q - p));
}

/* Lower envelope of the parabolas (q − p)² + f[p] along one row of n values,
 * in place; v, z are scratch of n and n + 1 entries. */
static void edt_row(double *f, int n, int *v, double *z, double *d)
{
    int k = 0;
    v[0] = 0;
    z[0] = -HUGE_VAL;
    z[1] = HUGE_VAL;
    for (int q = 1; q < n; ++q) {
        /* Pop the parabolas the new one hides; z[0] = −∞ stops the loop. */
        double s = parabola_cut(f, v[k], q);
        while (s <= z[k])
            s = parabola_cut(f, v[--k], q);
        ++k;
        v[k] = q;
        z[k] = s;
        z[k + 1] = HUGE_VAL;
    }
    k = 0;
    for (int q = 0; q < n; ++q) {
        while (z[k + 1] < q)
            ++k;
        d[q] = (double)(q - v[k]) * (q - v[k]) + f[v[k]];
    }
    memcpy(f, d, (size_t)n * sizeof *f);
}

bool sccd_voxel_edt(const sccd_voxel_grid *g, int *out)
{
    bool ok = valid_grid(g) && out != NULL;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    size_t n = cell_count(g);
    int dims[3] = {g->nx, g->ny, g->nz}, stride[3] = {1, g->nx, g->nx * g->ny};
    int m = sccd_max(g->nx, sccd_max(g->ny, g->nz));
    double *f = sccd_alloc(n * sizeof *f), *row = sccd_alloc((size_t)m * sizeof *row),
           *z = sccd_alloc((size_t)(m + 1) * sizeof *z), *d = sccd_alloc((size_t)m * sizeof *d);
    int *v = sccd_alloc((size_t)m * sizeof *v);
    ok = f && row && z && d && v;
    /* Squared distances are integers below 3·SCCD_VOXEL_MAX_RES², exact in double;
     * "infinite" is any value above that. */
    for (size_t i = 0; ok && i < n; ++i)
        f[i] = g->cells[i] ? 1e12 : 0.0;
    for (int a = 0; ok && a < 3; ++a) {
        int b = (a + 1) % 3, c = (a + 2) % 3;
        for (int w = 0; w < dims[c]; ++w)
            for (int u = 0; u < dims[b]; ++u) {
                size_t base = (size_t)u * stride[b] + (size_t)w * stride[c];
                for (int s = 0; s < dims[a]; ++s)
                    row[s] = f[base + (size_t)s * stride[a]];
                edt_row(row, dims[a], v, z, d);
                for (int s = 0; s < dims[a]; ++s)
                    f[base + (size_t)s * stride[a]] = row[s];
            }
    }
    for (size_t i = 0; ok && i < n; ++i)
        out[i] = f[i] >= 1e12 ? INT32_MAX : (int)f[i];
    sccd_free(f);
    sccd_free(row);
    sccd_free(z);
    sccd_free(d);
    sccd_free(v);
    return ok;
}

/* ---- the greedy fill ---- */

/* Largest ρ = √D − 1/2 reachable by climbing from cell c through neighbours
 * whose ball still holds the target cell t (a maximal inscribed ball that
 * covers t). */
static size_t climb(const sccd_voxel_grid *g, const int *d2, size_t t)
{
    int ti, tj, tk;
    cell_ijk(g, t, &ti, &tj, &tk);
    size_t c = t;
    for (;;) {
        int ci, cj, ck;
        cell_ijk(g, c, &ci, &cj, &ck);
        size_t best = c;
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int i = ci + dx, j = cj + dy, k = ck + dz;
                    if (i < 0 || j < 0 || k < 0 || i >= g->nx || j >= g->ny || k >= g->nz)
                        continue;
                    size_t idx = (size_t)i + (size_t)g->nx * ((size_t)j + (size_t)g->ny * k);
                    double rho = sqrt((double)d2[idx]);
                    double dist2 = (double)(i - ti) * (i - ti) + (double)(j - tj) * (j - tj) + (double)(k - tk) * (k - tk);
                    if (d2[idx] > d2[best] && dist2 <= rho * rho)
                        best = idx;
                }
        if (best == c)
            return c;
        c = best;
    }
}

/* Inside cells by decreasing distance (a counting sort on the squared distance). */
static size_t *order_by_depth(const sccd_voxel_grid *g, const int *d2, size_t *count_out)
{
    size_t n = cell_count(g), inside = 0;
    int top = 0;
    for (size_t i = 0; i < n; ++i) {
        top = g->cells[i] && d2[i] > top ? d2[i] : top;
        inside += g->cells[i] != 0;
    }
    *count_out = inside;
    size_t *count = sccd_calloc((size_t)top + 2, sizeof *count), *order = sccd_alloc((inside + 1) * sizeof *order);
    if (count && order) {
        for (size_t i = 0; i < n; ++i)
            count[g->cells[i] ? top - d2[i] + 1 : 0] += g->cells[i] != 0;
        for (int b = 1; b <= top + 1; ++b)
            count[b] += count[b - 1];
        for (size_t i = 0; i < n; ++i)
            if (g->cells[i])
                order[count[top - d2[i]]++] = i;
    }
    sccd_free(count);
    if (!count) {
        sccd_free(order);
        return NULL;
    }
    return order;
}

/* Coverage multiplicity of the cells, for pruning. */
static bool count_up(size_t first, int n, void *count)
{
    for (int i = 0; i < n; ++i)
        ((int *)count)[first + (size_t)i]++;
    return true;
}

static bool count_down(size_t first, int n, void *count)
{
    for (int i = 0; i < n; ++i)
        ((int *)count)[first + (size_t)i]--;
    return true;
}

typedef struct prune_ctx { const unsigned char *inside; const int *count; } prune_ctx;

/* True while every inside cell is covered by another sphere too. */
static bool covered_twice(size_t first, int n, void *ctx)
{
    const prune_ctx *p = ctx;
    for (size_t i = first; i < first + (size_t)n; ++i)
        if (p->inside[i] && p->count[i] < 2)
            return false;
    return true;
}

/* A sphere's index with its radius, so that the sort needs no state
 * outside the call (the library keeps none: threads). */
typedef struct by_r { sccd_real r; int index; } by_r;

/* Smallest first; equal radii in index order (what a stable sort of the
 * indices by radius gives). */
static int by_radius(const void *pa, const void *pb)
{
    const by_r *a = pa, *b = pb;
    if (a->r != b->r)
        return (a->r > b->r) - (a->r < b->r);
    return (a->index > b->index) - (a->index < b->index);
}

/* Drop spheres, smallest first, whose inside cells all lie in other spheres
 * (a greedy cover keeps some that later, larger ones made redundant). */
static bool prune(const sccd_voxel_grid *g, sccd_sphere_list *out)
{
    int *count = sccd_calloc(cell_count(g), sizeof *count);
    by_r *order = sccd_alloc(((size_t)out->n + 1) * sizeof *order);
    bool ok = count && order;
    for (int s = 0; ok && s < out->n; ++s) {
        for_ball(g, sphere_cell(g, out->s[s]), out->s[s].r / g->h, count_up, count);
        order[s] = (by_r){out->s[s].r, s};
    }
    if (ok)
        qsort(order, (size_t)out->n, sizeof *order, by_radius);
    prune_ctx ctx = {g->cells, count};
    for (int q = 0; ok && q < out->n; ++q) {
        sccd_sphere *s = &out->s[order[q].index];
        size_t c = sphere_cell(g, *s);
        if (for_ball(g, c, s->r / g->h, covered_twice, &ctx)) {
            for_ball(g, c, s->r / g->h, count_down, count);
            s->r = -1.0; /* removed */
        }
    }
    int n = 0;
    for (int s = 0; ok && s < out->n; ++s)
        if (out->s[s].r >= 0.0)
            out->s[n++] = out->s[s];
    out->n = ok ? n : out->n;
    sccd_free(count);
    sccd_free(order);
    return ok;
}

/* Shallowest uncovered cell first: the cells next to the surface are the
 * hard ones to cover, and the largest inscribed ball reaching each of them
 * covers the depths behind it on the way. */
static bool fill_greedy(const sccd_voxel_grid *g, sccd_sphere_list *out, sccd_fill_stats *st)
{
    size_t n = cell_count(g);
    int *d2 = sccd_alloc(n * sizeof *d2);
    unsigned char *covered = sccd_calloc(n, 1);
    size_t *order = NULL, inside = 0;
    bool ok = d2 && covered && sccd_voxel_edt(g, d2) && (order = order_by_depth(g, d2, &inside)) != NULL;
    for (size_t o = inside; ok && o-- > 0;) {
        if (covered[order[o]])
            continue; /* already inside an accepted sphere */
        st->rounds++;
        size_t c = climb(g, d2, order[o]);
        sccd_real rho = sqrt((sccd_real)d2[c]);
        for_ball(g, c, rho, set_flags, covered);
        ok = push_sphere(out, cell_sphere(g, c, rho));
    }
    sccd_free(d2);
    sccd_free(covered);
    sccd_free(order);
    return ok && prune(g, out);
}

sccd_fill_stats sccd_spherefill(sccd_sphere_list *out, const sccd_voxel_grid *g, sccd_fill_method method)
{
    sccd_fill_stats st = {0};
    bool ok = out != NULL && valid_grid(g) && (method == SCCD_FILL_SEED || method == SCCD_FILL_GREEDY);
    SCCD_ASSERT(ok);
    if (!ok)
        return st;
    out->n = 0;
    ok = method == SCCD_FILL_SEED ? fill_seed(g, out, &st) : fill_greedy(g, out, &st);
    if (!ok)
        out->n = 0;
    st.spheres = out->n;
    for (int i = 0; i < out->n; ++i)
        st.max_radius = sccd_max(st.max_radius, out->s[i].r);
    return st;
}

sccd_fill_check sccd_spherefill_check(const sccd_voxel_grid *g, const sccd_sphere *s, int n)
{
    sccd_fill_check c = {0};
    bool ok = valid_grid(g) && (s != NULL || n == 0) && n >= 0;
    SCCD_ASSERT(ok);
    size_t cells = ok ? cell_count(g) : 0;
    unsigned char *mark = ok ? sccd_calloc(cells, 1) : NULL;
    if (!mark)
        return c;
    for (int q = 0; q < n; ++q) {
        /* In cell units about the cell holding the centre; the ball test uses
         * the exact offset of the centre, so a centre off the lattice works too. */
        sccd_v3 p = sccd_v3_scale(sccd_v3_sub(s[q].c, g->origin), 1.0 / g->h);
        sccd_real rho = s[q].r / g->h;
        int lo[3], hi[3];
        sccd_real pc[3] = {p.x - 0.5, p.y - 0.5, p.z - 0.5};
        int dims[3] = {g->nx, g->ny, g->nz};
        for (int a = 0; a < 3; ++a) {
            lo[a] = (int)sccd_max(0.0, floor(pc[a] - rho));
            hi[a] = (int)sccd_min(dims[a] - 1.0, ceil(pc[a] + rho));
        }
        for (int k = lo[2]; k <= hi[2]; ++k)
            for (int j = lo[1]; j <= hi[1]; ++j)
                for (int i = lo[0]; i <= hi[0]; ++i) {
                    sccd_real d2 = (i - pc[0]) * (i - pc[0]) + (j - pc[1]) * (j - pc[1]) + (k - pc[2]) * (k - pc[2]);
                    size_t idx = (size_t)i + (size_t)g->nx * ((size_t)j + (size_t)g->ny * k);
                    /* 1e-9 cell of slack for the rounding of world coordinates */
                    if (d2 <= (rho + 1e-9) * (rho + 1e-9))
                        mark[idx] |= 1;
                    if (d2 < (rho - 1e-9) * (rho - 1e-9))
                        mark[idx] |= 2;
                }
    }
    for (size_t i = 0; i < cells; ++i) {
        c.inside += g->cells[i] != 0;
        c.covered += g->cells[i] && (mark[i] & 1);
        c.outside_hits += !g->cells[i] && (mark[i] & 2);
    }
    sccd_free(mark);
    return c;
}
