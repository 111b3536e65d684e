/* Voxelisation and sphere fills. Oracles: closed-form inside tests (rotated
 * boxes, the square frame, an octahedron whose vertices and edges lie on the
 * rays), the generalised winding number (solid angles) for the curved
 * meshes, a brute-force distance transform, and brute force of every sphere
 * against every cell and against the exact distance to the mesh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fill_support.h"
#include "test_util.h"

/* Solid angle of triangle (a, b, c) seen from p (Van Oosterom & Strackee 1983). */
static double solid_angle(sccd_v3 p, sccd_triangle t)
{
    sccd_v3 a = sccd_v3_sub(t.a, p), b = sccd_v3_sub(t.b, p), c = sccd_v3_sub(t.c, p);
    double la = sccd_v3_len(a), lb = sccd_v3_len(b), lc = sccd_v3_len(c);
    double num = sccd_v3_dot(a, sccd_v3_cross(b, c));
    double den = la * lb * lc + sccd_v3_dot(a, b) * lc + sccd_v3_dot(a, c) * lb + sccd_v3_dot(b, c) * la;
    return 2.0 * atan2(num, den);
}

static double winding(const sccd_mesh *m, sccd_v3 p)
{
    double w = 0.0;
    for (int i = 0; i < m->nt; ++i)
        w += solid_angle(p, sccd_mesh_triangle(m, i));
    return w / (4.0 * SCCD_PI);
}

static bool cell_inside(const sccd_voxel_grid *g, int i, int j, int k)
{
    return g->cells[i + g->nx * (j + g->ny * k)] != 0;
}

/* Compare every cell with an inside oracle; cells within tol of the surface
 * (by the oracle's signed measure) are skipped. Returns cells compared. */
typedef double inside_fn(sccd_v3 p, const void *ctx); /* > 0 inside, < 0 outside */

static int compare_grid(const sccd_voxel_grid *g, inside_fn *f, const void *ctx, double tol)
{
    int compared = 0;
    for (int k = 0; k < g->nz; ++k)
        for (int j = 0; j < g->ny; ++j)
            for (int i = 0; i < g->nx; ++i) {
                double s = f(sccd_voxel_center(g, i, j, k), ctx);
                if (fabs(s) <= tol)
                    continue;
                if ((s > 0.0) != cell_inside(g, i, j, k))
                    fail_msg("cell %d %d %d: oracle %g, grid %d", i, j, k, s, cell_inside(g, i, j, k));
                ++compared;
            }
    return compared;
}

typedef struct box_ctx { sccd_xf3 xf; sccd_v3 h; } box_ctx;

static double box_inside(sccd_v3 p, const void *ctx)
{
    const box_ctx *b = ctx;
    sccd_v3 q = sccd_v3_abs(sccd_xf3_inv_apply(b->xf, p));
    return -fmax(q.x - b->h.x, fmax(q.y - b->h.y, q.z - b->h.z));
}

static void transform_mesh(sccd_mesh *m, sccd_xf3 xf)
{
    for (int i = 0; i < m->nv; ++i)
        m->v[i] = sccd_xf3_apply(xf, m->v[i]);
}

static void test_voxelize_boxes(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(41);
    sccd_mesh m;
    sccd_voxel_grid grid;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&grid);
    int compared = 0;
    for (int n = 0; n < 120; ++n) {
        box_ctx b = {{sccd_rng_v3(&g, 3.0), sccd_rng_quat(&g)},
                     {sccd_rng_uniform(&g, 0.2, 1.0), sccd_rng_uniform(&g, 0.2, 1.0), sccd_rng_uniform(&g, 0.2, 1.0)}};
        if (n % 4 == 0)
            b.xf.q = sccd_quat_identity(); /* faces on cell boundaries and rays along faces */
        sccd_mesh_box(&m, b.h);
        transform_mesh(&m, b.xf);
        /* Open: remove the last face (two triangles); the 3-ray vote must still be right. */
        bool open = n % 3 == 1;
        if (open)
            m.nt -= 2;
        assert_true(sccd_voxelize(&grid, &m, 12 + n % 13));
        assert_true(grid.closed == !open);
        compared += compare_grid(&grid, box_inside, &b, 1e-9);
    }
    assert_true(compared > 100000);
    sccd_mesh_destroy(&m);
    sccd_voxel_grid_destroy(&grid);
}

static double frame_inside(sccd_v3 p, const void *ctx)
{
    (void)ctx;
    double t = 0.25 / sqrt(2.0) * 1.0; /* half thickness r/√2 with r = 0.25 */
    double ring = fmin(0.5 - fmax(fabs(p.x), fabs(p.y)), fmax(fabs(p.x), fabs(p.y)) - 0.25);
    return fmin(ring, t - fabs(p.z));
}

static double octahedron_inside(sccd_v3 p, const void *ctx)
{
    (void)ctx;
    return 1.0 - (fabs(p.x) + fabs(p.y) + fabs(p.z));
}

/* Rays through vertices and along edges: the fill convention must count
 * each crossing once. Odd resolutions put cell centres on the axes. */
static void test_voxelize_ties(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_voxel_grid grid;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&grid);
    const sccd_v2 diamond[3] = {{0.0, -1.0}, {1.0, 0.0}, {0.0, 1.0}};
    assert_true(sccd_mesh_revolve(&m, diamond, 3, 4)); /* vertices (±1,0,0), (0,±1,0), (0,0,±1) */
    int compared = 0;
    for (int res = 3; res <= 41; res += 2) {
        assert_true(sccd_voxelize(&grid, &m, res));
        compared += compare_grid(&grid, octahedron_inside, NULL, 1e-9);
        int mid = grid.nx / 2;
        assert_true(cell_inside(&grid, mid, mid, mid)); /* the centre, on every ray through vertices */
    }
    assert_true(sccd_mesh_holed(&m));
    for (int res = 4; res <= 48; res += 4) {
        assert_true(sccd_voxelize(&grid, &m, res));
        compared += compare_grid(&grid, frame_inside, NULL, 1e-9);
    }
    assert_true(compared > 50000);
    sccd_mesh_destroy(&m);
    sccd_voxel_grid_destroy(&grid);
}

static double winding_inside(sccd_v3 p, const void *ctx)
{
    const sccd_mesh *m = ctx;
    /* Skip points on the surface; elsewhere the winding number is 0 or 1. */
    if (sccd_mesh_distance(m, p) < 1e-9)
        return 0.0;
    return winding(m, p) - 0.5;
}

static void test_voxelize_curved(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_voxel_grid grid;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&grid);
    int compared = 0;
    for (int w = 0; w < 3; ++w) {
        bool ok = w == 0 ? sccd_mesh_bottle(&m, 16) : (w == 1 ? sccd_mesh_torus(&m, 1.0, 0.4, 16, 8) : sccd_mesh_sword(&m));
        assert_true(ok);
        assert_true(sccd_voxelize(&grid, &m, w == 2 ? 64 : 32)); /* the sword is thin */
        compared += compare_grid(&grid, winding_inside, &m, 1e-6);
        assert_true(grid.inside > 0 && grid.closed);
    }
    assert_true(compared > 10000);
    sccd_mesh_destroy(&m);
    sccd_voxel_grid_destroy(&grid);
}

/* Brute-force squared distance from each cell centre to the nearest outside centre. */
static void test_edt_brute_force(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(43);
    sccd_voxel_grid grid;
    sccd_voxel_grid_init(&grid);
    int compared = 0;
    for (int n = 0; n < 60; ++n) {
        grid.nx = 3 + sccd_rng_int(&g, 12), grid.ny = 3 + sccd_rng_int(&g, 12), grid.nz = 3 + sccd_rng_int(&g, 12);
        grid.h = 1.0;
        size_t cells = (size_t)grid.nx * grid.ny * grid.nz;
        grid.cells = sccd_alloc(cells); /* the library frees it (sccd_voxel_grid_destroy) */
        double fill = sccd_rng_uniform(&g, 0.5, 0.99);
        for (size_t i = 0; i < cells; ++i)
            grid.cells[i] = sccd_rng_uniform(&g, 0.0, 1.0) < fill;
        grid.cells[sccd_rng_int(&g, (int)cells)] = 0; /* at least one outside cell */
        int *d2 = malloc(cells * sizeof *d2);
        assert_true(sccd_voxel_edt(&grid, d2));
        for (size_t c = 0; c < cells; ++c) {
            int ci = (int)(c % grid.nx), cj = (int)(c / grid.nx % grid.ny), ck = (int)(c / ((size_t)grid.nx * grid.ny));
            int best = INT32_MAX;
            for (size_t o = 0; o < cells; ++o)
                if (!grid.cells[o]) {
                    int di = (int)(o % grid.nx) - ci, dj = (int)(o / grid.nx % grid.ny) - cj,
                        dk = (int)(o / ((size_t)grid.nx * grid.ny)) - ck;
                    if (di * di + dj * dj + dk * dk < best)
                        best = di * di + dj * dj + dk * dk;
                }
            assert_int_equal(d2[c], best);
            ++compared;
        }
        free(d2);
        sccd_voxel_grid_destroy(&grid);
    }
    assert_true(compared > 10000);
}

static bool generate(sccd_mesh *m, int which)
{
    switch (which) {
    case 0: return sccd_mesh_bottle(m, 24);
    case 1: return sccd_mesh_bat(m, 16);
    case 2: return sccd_mesh_sword(m);
    case 3: return sccd_mesh_box(m, (sccd_v3){0.3, 0.5, 1.0});
    case 4: return sccd_mesh_torus(m, 1.0, 0.35, 24, 12);
    default: return sccd_mesh_holed(m);
    }
}

/* Every sphere against every cell (coverage; no outside centre strictly
 * inside for the greedy fill) and against the mesh (centre inside, reaching
 * at most one cell beyond the surface). */
static void check_fill(const sccd_mesh *m, const sccd_voxel_grid *g, const sccd_sphere_list *l, bool strict)
{
    int covered = 0, outside_hits = 0;
    for (int k = 0; k < g->nz; ++k)
        for (int j = 0; j < g->ny; ++j)
            for (int i = 0; i < g->nx; ++i) {
                sccd_v3 p = sccd_voxel_center(g, i, j, k);
                bool in = false, strictly = false;
                for (int s = 0; s < l->n && !(in && strictly); ++s) {
                    double d = sccd_v3_dist(p, l->s[s].c) - l->s[s].r;
                    in = in || d <= 1e-9 * g->h;
                    strictly = strictly || d < -1e-9 * g->h;
                }
                covered += in && cell_inside(g, i, j, k);
                outside_hits += strictly && !cell_inside(g, i, j, k);
            }
    assert_int_equal(covered, g->inside);
    if (strict)
        assert_int_equal(outside_hits, 0);
    sccd_fill_check c = sccd_spherefill_check(g, l->s, l->n);
    assert_int_equal(c.covered, covered);
    assert_int_equal(c.inside, g->inside);
    assert_int_equal(c.outside_hits, outside_hits);
    for (int s = 0; s < l->n; ++s) {
        assert_true(winding(m, l->s[s].c) > 0.5);
        assert_true(l->s[s].r - sccd_mesh_distance(m, l->s[s].c) <= g->h * (1.0 + 1e-9));
        assert_true(l->s[s].r >= 0.5 * g->h * (1.0 - 1e-12));
    }
}

static void test_fills(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_voxel_grid g;
    sccd_sphere_list seed, greedy;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&g);
    sccd_sphere_list_init(&seed);
    sccd_sphere_list_init(&greedy);
    for (int w = 0; w < 6; ++w)
        for (int res = 16; res <= 32; res += 16) {
            assert_true(generate(&m, w));
            assert_true(sccd_voxelize(&g, &m, res));
            sccd_fill_stats a = sccd_spherefill(&seed, &g, SCCD_FILL_SEED);
            sccd_fill_stats b = sccd_spherefill(&greedy, &g, SCCD_FILL_GREEDY);
            assert_int_equal(a.spheres, seed.n);
            assert_int_equal(b.spheres, greedy.n);
            assert_true(a.rounds >= (g.inside > 0) && b.rounds >= b.spheres);
            check_fill(&m, &g, &seed, false);
            check_fill(&m, &g, &greedy, true);
            assert_true(greedy.n <= seed.n);
            double rmax = 0.0;
            for (int s = 0; s < greedy.n; ++s)
                rmax = fmax(rmax, greedy.s[s].r);
            assert_true(b.max_radius == rmax);
        }
    sccd_mesh_destroy(&m);
    sccd_voxel_grid_destroy(&g);
    sccd_sphere_list_destroy(&seed);
    sccd_sphere_list_destroy(&greedy);
}

/* The seed's fill on a ball: its first round places the one sphere of the
 * largest cross at the centre (seed 003 §3.1.1–3.1.2). */
static void test_seed_fill_ball(void **state)
{
    (void)state;
    sccd_voxel_grid g;
    sccd_voxel_grid_init(&g);
    g.nx = g.ny = g.nz = 21;
    g.h = 1.0;
    g.cells = sccd_calloc(21 * 21 * 21, 1);
    for (int k = 0; k < 21; ++k)
        for (int j = 0; j < 21; ++j)
            for (int i = 0; i < 21; ++i)
                g.cells[i + 21 * (j + 21 * k)] = (i - 10) * (i - 10) + (j - 10) * (j - 10) + (k - 10) * (k - 10) <= 64;
    sccd_sphere_list l;
    sccd_sphere_list_init(&l);
    sccd_fill_stats st = sccd_spherefill(&l, &g, SCCD_FILL_SEED);
    assert_true(st.spheres > 1);
    /* The largest sphere is the cross of arm 8 − 1 = 7 ... or less if its digital surface leaves the ball. */
    int big = 0;
    for (int s = 0; s < l.n; ++s)
        if (l.s[s].r > l.s[big].r)
            big = s;
    assert_true(l.s[big].c.x == 10.5 && l.s[big].c.y == 10.5 && l.s[big].c.z == 10.5);
    assert_true(l.s[big].r >= 6.5 && l.s[big].r <= 8.5);
    sccd_fill_check c = sccd_spherefill_check(&g, l.s, l.n);
    assert_int_equal(c.covered, c.inside);
    /* Greedy: one sphere of radius √65 (the nearest outside centre, (8, 1, 0) away) covers it all. */
    st = sccd_spherefill(&l, &g, SCCD_FILL_GREEDY);
    assert_int_equal(st.spheres, 1);
    assert_true(fabs(l.s[0].r - sqrt(65.0)) < 1e-12);
    sccd_sphere_list_destroy(&l);
    sccd_voxel_grid_destroy(&g);
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_mesh m;
    sccd_voxel_grid g;
    sccd_sphere_list l;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&g);
    sccd_sphere_list_init(&l);
    assert_false(sccd_voxelize(&g, &m, 32)); /* no triangles */
    sccd_mesh_box(&m, (sccd_v3){1, 1, 1});
    assert_false(sccd_voxelize(&g, &m, 0));
    assert_false(sccd_voxelize(&g, &m, SCCD_VOXEL_MAX_RES + 1));
    assert_false(sccd_voxelize(NULL, &m, 8));
    assert_false(sccd_voxelize(&g, NULL, 8));
    for (int i = 0; i < m.nv; ++i)
        m.v[i] = (sccd_v3){1, 2, 3}; /* zero extent */
    assert_false(sccd_voxelize(&g, &m, 8));
    assert_null(g.cells);
    sccd_fill_stats st = sccd_spherefill(&l, &g, SCCD_FILL_GREEDY);
    assert_int_equal(st.spheres, 0);
    st = sccd_spherefill(NULL, &g, SCCD_FILL_SEED);
    assert_int_equal(st.spheres, 0);
    sccd_mesh_box(&m, (sccd_v3){1, 1, 1});
    assert_true(sccd_voxelize(&g, &m, 8));
    st = sccd_spherefill(&l, &g, (sccd_fill_method)7);
    assert_int_equal(st.spheres, 0);
    sccd_fill_check c = sccd_spherefill_check(&g, NULL, 3);
    assert_int_equal(c.inside, 0);
    assert_false(sccd_voxel_edt(&g, NULL));
    sccd_voxel_grid_init(NULL);
    sccd_sphere_list_init(NULL);
    assert_int_equal(sccd_test_assert_count(), 13);
    sccd_voxel_grid_destroy(NULL);
    sccd_sphere_list_destroy(NULL);
    sccd_mesh_destroy(&m);
    sccd_voxel_grid_destroy(&g);
    sccd_sphere_list_destroy(&l);
    sccd_set_assert_handler(NULL);
}

/* The inner fills keep their meaning on meshes with thin parts (a blade
 * 2 mm thick, a fork with 3 mm tines 2 mm thick, a ring of 2 mm wire): every
 * centre inside (winding number) and no sphere reaching more than one cell
 * edge beyond the surface (the exact distance to the mesh), the bound
 * spherefill.h states. The bunny too when scripts/fetch_meshes.sh fetched it
 * ($BUILD/meshes, as the benchmarks find it). */
static void test_inner_bound_thin(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_voxel_grid g;
    sccd_sphere_list l;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&g);
    sccd_sphere_list_init(&l);
    int checked = 0;
    const char *build = getenv("BUILD");
    char bunny[512];
    snprintf(bunny, sizeof bunny, "%s/meshes/bunny.obj", build && *build ? build : "build");
    for (int w = 0; w < 4; ++w) {
        bool ok = w == 0   ? sccd_test_thin_sword(&m)
                  : w == 1 ? sccd_mesh_fork(&m)
                  : w == 2 ? sccd_mesh_torus(&m, 0.02, 0.001, 32, 8)
                           : sccd_mesh_load_file(&m, bunny, SCCD_MESH_AUTO).state == SCCD_LOAD_OK;
        if (!ok) {
            assert_int_equal(w, 3); /* only the bunny may be absent */
            continue;
        }
        for (int res = 16; res <= (w == 3 ? 32 : 64); res *= 2) {
            assert_true(sccd_voxelize(&g, &m, res));
            for (int f = 0; f < 2; ++f) {
                sccd_spherefill(&l, &g, (sccd_fill_method)f);
                for (int s = 0; s < l.n; ++s) {
                    assert_true(winding(&m, l.s[s].c) > 0.5);
                    assert_true(l.s[s].r - sccd_mesh_distance(&m, l.s[s].c) <= g.h * (1.0 + 1e-9));
                }
                checked += l.n;
            }
        }
    }
    assert_true(checked > 1000);
    sccd_mesh_destroy(&m);
    sccd_voxel_grid_destroy(&g);
    sccd_sphere_list_destroy(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_voxelize_boxes), cmocka_unit_test(test_voxelize_ties),
        cmocka_unit_test(test_voxelize_curved), cmocka_unit_test(test_edt_brute_force),
        cmocka_unit_test(test_fills),          cmocka_unit_test(test_seed_fill_ball),
        cmocka_unit_test(test_bad_input),      cmocka_unit_test(test_inner_bound_thin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
