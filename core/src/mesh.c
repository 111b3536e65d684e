/* The mesh container, its writers and its report (vertex and triangle
 * arrays grown by doubling; the report sorts the directed edges). */
#include "mesh_internal.h"
#include "sectorccd/catalogue.h"

#include <stdlib.h>
#include <string.h>
#include <stdint.h>

void sccd_mesh_init(sccd_mesh *m)
{
    SCCD_ASSERT(m != NULL);
    if (m)
        *m = (sccd_mesh){0};
}

void sccd_mesh_destroy(sccd_mesh *m)
{
    if (!m)
        return;
    sccd_free(m->v);
    sccd_free(m->t);
    *m = (sccd_mesh){0};
}

void sccd_mesh_clear(sccd_mesh *m)
{
    SCCD_ASSERT(m != NULL);
    if (m)
        m->nv = m->nt = 0;
}

/* Grow an array to hold at least need elements (doubling); false when out of memory. */
static bool grow(void **array, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap > 0 ? (size_t)*cap : 64;
    while (n < (size_t)need)
        n *= 2;
    if (n > (size_t)INT32_MAX)
        n = (size_t)INT32_MAX;
    if (n < (size_t)need || n > SIZE_MAX / elem)
        return false;
    void *p = sccd_realloc(*array, (size_t)*cap * elem, n * elem);
    if (!p)
        return false;
    *array = p;
    *cap = (int)n;
    return true;
}

bool sccd_mesh_push_vertex(sccd_mesh *m, sccd_v3 p)
{
    if (m->nv == INT32_MAX || !grow((void **)&m->v, &m->cap_v, m->nv + 1, sizeof *m->v))
        return false;
    m->v[m->nv++] = p;
    return true;
}

bool sccd_mesh_push_triangle(sccd_mesh *m, int a, int b, int c)
{
    if (m->nt == INT32_MAX || !grow((void **)&m->t, &m->cap_t, m->nt + 1, sizeof *m->t))
        return false;
    m->t[m->nt][0] = a;
    m->t[m->nt][1] = b;
    m->t[m->nt][2] = c;
    m->nt++;
    return true;
}

int sccd_mesh_add_vertex(sccd_mesh *m, sccd_v3 p)
{
    bool ok = m != NULL && sccd_is_valid_v3(p);
    SCCD_ASSERT(ok);
    if (!ok || !sccd_mesh_push_vertex(m, p))
        return -1;
    return m->nv - 1;
}

bool sccd_mesh_add_triangle(sccd_mesh *m, int a, int b, int c)
{
    bool ok = m != NULL && a >= 0 && b >= 0 && c >= 0 && a < m->nv && b < m->nv && c < m->nv;
    SCCD_ASSERT(ok);
    return ok && sccd_mesh_push_triangle(m, a, b, c);
}

sccd_triangle sccd_mesh_triangle(const sccd_mesh *m, int i)
{
    bool ok = m != NULL && i >= 0 && i < m->nt;
    SCCD_ASSERT(ok);
    if (!ok)
        return (sccd_triangle){{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    return (sccd_triangle){m->v[m->t[i][0]], m->v[m->t[i][1]], m->v[m->t[i][2]]};
}

/* ---- writers ---- */

static void put_u32(unsigned char *b, uint32_t x)
{
    for (int i = 0; i < 4; ++i)
        b[i] = (unsigned char)(x >> (8 * i));
}

static void put_f32(unsigned char *b, sccd_real x)
{
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(b, u);
}

static sccd_v3 triangle_normal(sccd_triangle t)
{
    return sccd_v3_normalize(sccd_v3_cross(sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a)));
}

static bool write_stl_binary(const sccd_mesh *m, FILE *out)
{
    unsigned char head[84] = "binary STL written by sectorccd";
    put_u32(head + 80, (uint32_t)m->nt);
    bool ok = fwrite(head, 1, 84, out) == 84;
    for (int i = 0; ok && i < m->nt; ++i) {
        sccd_triangle t = sccd_mesh_triangle(m, i);
        sccd_v3 p[4] = {triangle_normal(t), t.a, t.b, t.c};
        unsigned char rec[50] = {0};
        for (int k = 0; k < 4; ++k) {
            put_f32(rec + 12 * k, p[k].x);
            put_f32(rec + 12 * k + 4, p[k].y);
            put_f32(rec + 12 * k + 8, p[k].z);
        }
        ok = fwrite(rec, 1, 50, out) == 50;
    }
    return ok;
}

static bool write_stl_ascii(const sccd_mesh *m, FILE *out)
{
    bool ok = fprintf(out, "solid sectorccd\n") > 0;
    for (int i = 0; ok && i < m->nt; ++i) {
        sccd_triangle t = sccd_mesh_triangle(m, i);
        sccd_v3 n = triangle_normal(t), p[3] = {t.a, t.b, t.c};
        fprintf(out, "  facet normal %.9g %.9g %.9g\n    outer loop\n", n.x, n.y, n.z);
        for (int k = 0; k < 3; ++k)
            fprintf(out, "      vertex %.17g %.17g %.17g\n", p[k].x, p[k].y, p[k].z);
        ok = fprintf(out, "    endloop\n  endfacet\n") > 0;
    }
    return ok && fprintf(out, "endsolid sectorccd\n") > 0;
}

static bool write_indexed(const sccd_mesh *m, FILE *out, bool obj)
{
    bool ok = obj ? fprintf(out, "# written by sectorccd\n") > 0 : fprintf(out, "OFF\n%d %d 0\n", m->nv, m->nt) > 0;
    for (int i = 0; ok && i < m->nv; ++i)
        ok = fprintf(out, "%s%.17g %.17g %.17g\n", obj ? "v " : "", m->v[i].x, m->v[i].y, m->v[i].z) > 0;
    for (int i = 0; ok && i < m->nt; ++i) {
        const int *t = m->t[i];
        ok = obj ? fprintf(out, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1) > 0
                 : fprintf(out, "3 %d %d %d\n", t[0], t[1], t[2]) > 0;
    }
    return ok;
}

bool sccd_mesh_write(const sccd_mesh *m, FILE *out, sccd_mesh_format format)
{
    SCCD_ASSERT(m != NULL && out != NULL);
    if (!m || !out)
        return false;
    bool ok;
    switch (format) {
    case SCCD_MESH_STL: ok = write_stl_ascii(m, out); break;
    case SCCD_MESH_STL_BINARY: ok = write_stl_binary(m, out); break;
    case SCCD_MESH_OFF: ok = write_indexed(m, out, false); break;
    default: ok = write_indexed(m, out, true); break;
    }
    return ok && fflush(out) == 0 && !ferror(out);
}

sccd_mesh_format sccd_mesh_format_of_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    static const struct { const char *ext; sccd_mesh_format f; } known[] = {
        {".obj", SCCD_MESH_OBJ}, {".OBJ", SCCD_MESH_OBJ}, {".stl", SCCD_MESH_STL},
        {".STL", SCCD_MESH_STL}, {".off", SCCD_MESH_OFF}, {".OFF", SCCD_MESH_OFF}};
    for (size_t i = 0; dot && i < sizeof known / sizeof known[0]; ++i)
        if (strcmp(dot, known[i].ext) == 0)
            return known[i].f;
    return SCCD_MESH_AUTO;
}

bool sccd_mesh_save_file(const sccd_mesh *m, const char *path, sccd_mesh_format format)
{
    SCCD_ASSERT(m != NULL && path != NULL);
    if (!m || !path)
        return false;
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = sccd_mesh_write(m, f, format == SCCD_MESH_AUTO ? sccd_mesh_format_of_path(path) : format);
    return (fclose(f) == 0) && ok;
}

/* ---- distances ---- */

sccd_real sccd_mesh_distance(const sccd_mesh *m, sccd_v3 p)
{
    bool ok = m != NULL && sccd_is_valid_v3(p);
    SCCD_ASSERT(ok);
    sccd_real best = INFINITY;
    for (int i = 0; ok && i < m->nt; ++i)
        best = sccd_min(best, sccd_distance_point_triangle(p, sccd_mesh_triangle(m, i)));
    return best;
}

sccd_real sccd_mesh_winding_number(const sccd_mesh *m, sccd_v3 p)
{
    bool ok = m != NULL && sccd_is_valid_v3(p);
    SCCD_ASSERT(ok);
    sccd_real w = 0.0;
    for (int t = 0; ok && t < m->nt; ++t) {
        sccd_v3 a = sccd_v3_sub(m->v[m->t[t][0]], p), b = sccd_v3_sub(m->v[m->t[t][1]], p),
                c = sccd_v3_sub(m->v[m->t[t][2]], p);
        sccd_real la = sccd_v3_len(a), lb = sccd_v3_len(b), lc = sccd_v3_len(c);
        w += 2.0 * atan2(sccd_v3_dot(a, sccd_v3_cross(b, c)),
                         la * lb * lc + sccd_v3_dot(a, b) * lc + sccd_v3_dot(a, c) * lb + sccd_v3_dot(b, c) * la);
    }
    return w / (4.0 * SCCD_PI);
}

/* ---- report ---- */

/* A directed edge a→b stored under its undirected key (lo, hi) with the
 * direction as a flag, so sorting groups the uses of each edge. */
typedef struct edge_use { int lo, hi, forward; } edge_use;

static int edge_cmp(const void *pa, const void *pb)
{
    const edge_use *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return a->forward - b->forward;
}

/* Classify one run of uses of the same undirected edge. */
static void count_edge(sccd_mesh_report *r, const edge_use *e, int uses)
{
    if (uses == 1)
        r->boundary_edges++;
    else if (uses > 2)
        r->nonmanifold_edges++;
    else if (e[0].forward == e[1].forward)
        r->misoriented_edges++;
}

static void report_edges(const sccd_mesh *m, sccd_mesh_report *r)
{
    if (m->nt <= 0)
        return;
    size_t n = 3 * (size_t)m->nt;
    edge_use *e = sccd_alloc(n * sizeof *e);
    if (!e) {
        r->boundary_edges = -1; /* unknown: out of memory */
        return;
    }
    for (int i = 0; i < m->nt; ++i)
        for (int k = 0; k < 3; ++k) {
            int a = m->t[i][k], b = m->t[i][(k + 1) % 3];
            e[3 * (size_t)i + k] = (edge_use){a < b ? a : b, a < b ? b : a, a < b};
        }
    qsort(e, n, sizeof *e, edge_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && e[j].lo == e[i].lo && e[j].hi == e[i].hi)
            ++j;
        count_edge(r, e + i, (int)(j - i));
        i = j;
    }
    sccd_free(e);
}

/* Degenerate: a repeated index, or an area below 1e-12 of the squared longest
 * edge (a sliver no normal can be trusted on). */
static bool is_degenerate(const sccd_mesh *m, int i, sccd_real *area)
{
    const int *t = m->t[i];
    sccd_triangle tr = sccd_mesh_triangle(m, i);
    sccd_v3 ab = sccd_v3_sub(tr.b, tr.a), ac = sccd_v3_sub(tr.c, tr.a), bc = sccd_v3_sub(tr.c, tr.b);
    sccd_real a2 = sccd_v3_len2(sccd_v3_cross(ab, ac));
    sccd_real e2 = sccd_max(sccd_v3_len2(ab), sccd_max(sccd_v3_len2(ac), sccd_v3_len2(bc)));
    *area = 0.5 * sqrt(a2);
    return t[0] == t[1] || t[1] == t[2] || t[0] == t[2] || a2 <= 1e-24 * e2 * e2;
}

sccd_mesh_report sccd_mesh_report_make(const sccd_mesh *m)
{
    sccd_mesh_report r = {0};
    SCCD_ASSERT(m != NULL);
    if (!m)
        return r;
    r.vertices = m->nv;
    r.triangles = m->nt;
    for (int i = 0; i < m->nv; ++i) {
        r.bounds.lo = i ? sccd_v3_min(r.bounds.lo, m->v[i]) : m->v[i];
        r.bounds.hi = i ? sccd_v3_max(r.bounds.hi, m->v[i]) : m->v[i];
    }
    for (int i = 0; i < m->nt; ++i) {
        sccd_real a;
        r.degenerate_triangles += is_degenerate(m, i, &a);
        r.area += a;
        sccd_triangle t = sccd_mesh_triangle(m, i);
        /* Divergence theorem: the volume is the sum of signed tetrahedra to the origin. */
        r.volume += sccd_v3_dot(t.a, sccd_v3_cross(t.b, t.c)) / 6.0;
    }
    report_edges(m, &r);
    r.closed = m->nt > 0 && r.boundary_edges == 0 && r.nonmanifold_edges == 0;
    r.oriented = r.closed && r.misoriented_edges == 0;
    return r;
}
