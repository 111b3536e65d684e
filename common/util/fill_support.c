/* Test helpers: a mesh's fill in one call; the coverage check of bounding trees. */
#include "fill_support.h"

#include <stdlib.h>

bool sccd_test_fill(const sccd_mesh *m, int res, sccd_fill_method method, sccd_sphere_list *out)
{
    sccd_voxel_grid g;
    sccd_voxel_grid_init(&g);
    bool ok = sccd_voxelize(&g, m, res);
    if (ok)
        sccd_spherefill(out, &g, method);
    sccd_voxel_grid_destroy(&g);
    return ok;
}

/* A uniformly random point of the surface and its triangle: a triangle by
 * its share of the area (cum: running sums), then a uniform point of it. */
static sccd_v3 surface_point(sccd_rng *g, const sccd_mesh *m, const double *cum, int *tri)
{
    double u = sccd_rng_uniform(g, 0.0, cum[m->nt - 1]);
    int lo = 0, hi = m->nt - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cum[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    sccd_triangle t = sccd_mesh_triangle(m, lo);
    double a = sqrt(sccd_rng_uniform(g, 0.0, 1.0)), b = sccd_rng_uniform(g, 0.0, 1.0);
    *tri = lo;
    return sccd_v3_add(sccd_v3_scale(t.a, 1.0 - a),
                       sccd_v3_add(sccd_v3_scale(t.b, a * (1.0 - b)), sccd_v3_scale(t.c, a * b)));
}

static bool lists(const sccd_meshtree *t, int leaf, int tri)
{
    for (int i = t->tri_first[leaf]; i < t->tri_first[leaf + 1]; ++i)
        if (t->tris[i] == tri)
            return true;
    return false;
}

/* p (on triangle tri) lies in a leaf sphere that lists tri. */
static bool covered(const sccd_meshtree *t, sccd_v3 p, int tri)
{
    for (int l = 0; l < t->tree.leaf_count; ++l)
        if (sccd_v3_dist(p, t->tree.leaves[l].c) <= t->tree.leaves[l].r && lists(t, l, tri))
            return true;
    return false;
}

int sccd_test_uncovered(const sccd_meshtree *t, const sccd_mesh *m, int n, sccd_rng *g)
{
    double *cum = malloc((size_t)m->nt * sizeof *cum), area = 0.0;
    for (int i = 0; i < m->nt; ++i) {
        sccd_triangle tri = sccd_mesh_triangle(m, i);
        area += 0.5 * sccd_v3_len(sccd_v3_cross(sccd_v3_sub(tri.b, tri.a), sccd_v3_sub(tri.c, tri.a)));
        cum[i] = area;
    }
    int missed = 0;
    for (int i = 0; i < m->nt; ++i) {
        sccd_triangle tri = sccd_mesh_triangle(m, i);
        missed += !covered(t, tri.a, i) + !covered(t, tri.b, i) + !covered(t, tri.c, i);
    }
    for (int k = 0; k < n; ++k) {
        int tri;
        sccd_v3 p = surface_point(g, m, cum, &tri);
        missed += !covered(t, p, tri);
    }
    free(cum);
    return missed;
}

bool sccd_test_thin_sword(sccd_mesh *m)
{
    bool ok = sccd_mesh_sword(m);
    for (int i = 0; ok && i < m->nv; ++i)
        m->v[i].y *= 0.2;
    return ok;
}
