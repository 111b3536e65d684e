/* Bounding sphere trees of meshes (meshtree.h): the leaves cover the
 * surface (100,000 random surface points and every corner per mesh, each in
 * a leaf that lists the point's triangle), every node holds its children and
 * leaves, the proved outward bound holds on the sampled error, and the exact
 * queries equal brute force over every triangle (pair) on random and grazing
 * placements. The triangle tests themselves against GJK distances. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fill_support.h"
#include "test_util.h"

enum { SURFACE_POINTS = 100000, MESHES = 7 };

static bool generate(sccd_mesh *m, int which)
{
    switch (which) {
    case 0: return sccd_test_thin_sword(m);
    case 1: return sccd_mesh_bottle(m, 16);
    case 2: return sccd_mesh_bat(m, 12);
    case 3: return sccd_mesh_torus(m, 0.02, 0.001, 32, 8); /* a ring of 2 mm wire */
    case 4: return sccd_mesh_holed(m);
    case 5: return sccd_mesh_box(m, (sccd_v3){0.5, 0.002, 0.3}); /* a 4 mm plate */
    default: return sccd_mesh_fork(m);
    }
}

static void check_cover(const sccd_meshtree *t, const sccd_mesh *m, sccd_rng *g)
{
    assert_int_equal(sccd_test_uncovered(t, m, SURFACE_POINTS, g), 0);
}

/* Every node holds its children's spheres and its leaves' spheres. */
static void check_nodes(const sccd_spheretree *t)
{
    for (int i = 0; i < t->node_count; ++i) {
        const sccd_spheretree_node *n = &t->nodes[i];
        double slack = 1e-12 * (1.0 + n->bound.r);
        for (int c = 0; c < n->count; ++c) {
            sccd_sphere s = t->nodes[n->first + c].bound;
            assert_true(sccd_v3_dist(n->bound.c, s.c) + s.r <= n->bound.r + slack);
        }
        for (int l = n->leaf_first; l < n->leaf_first + n->leaf_count; ++l)
            assert_true(sccd_v3_dist(n->bound.c, t->leaves[l].c) + t->leaves[l].r <= n->bound.r + slack);
    }
}

static void test_cover(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(15);
    for (int w = 0; w < MESHES; ++w) {
        sccd_mesh m;
        sccd_meshtree t;
        sccd_mesh_init(&m);
        sccd_meshtree_init(&t);
        assert_true(generate(&m, w));
        for (int mode = 0; mode < 2; ++mode) {
            sccd_meshtree_options o = sccd_meshtree_default_options();
            o.res = 24;
            o.piece = 1.0 / 32.0;
            o.max_leaves = mode ? 48 : 0;
            o.error = 0.03;
            o.nodes = mode ? SCCD_BOUND_SEED : SCCD_BOUND_TIGHT;
            assert_true(sccd_meshtree_build(&t, &m, &o));
            assert_true(t.tree.leaf_count >= 1);
            if (mode)
                assert_true(t.tree.leaf_count <= 48);
            check_cover(&t, &m, &g);
            for (int l = 0; l < t.tree.leaf_count; ++l) /* every leaf covers some triangle */
                assert_true(t.tri_first[l + 1] > t.tri_first[l]);
            check_nodes(&t.tree);
            /* the proved bound holds on the sampled error, and the leaves' bounds make it */
            sccd_real worst = -1.0, mean = -1.0, top = 0.0;
            assert_true(sccd_meshtree_measure(&t, 64, &worst, &mean));
            for (int l = 0; l < t.tree.leaf_count; ++l)
                top = fmax(top, t.leaf_error[l]);
            assert_true(top == t.error_bound);
            assert_true(worst >= 0.0 && mean >= 0.0 && mean <= worst && worst <= t.error_bound);
            /* a leaf reaches outside by at least a hair: its sphere is not inside the mesh */
            assert_true(worst > 0.0);
        }
        sccd_meshtree_destroy(&t);
        sccd_mesh_destroy(&m);
    }
}

/* Every pair of triangles, no culling: the oracle. */
static bool all_pairs(const sccd_mesh *a, sccd_xf3 xa, const sccd_mesh *b, sccd_xf3 xb)
{
    for (int i = 0; i < a->nt; ++i) {
        sccd_triangle ta = sccd_mesh_triangle(a, i);
        ta = (sccd_triangle){sccd_xf3_apply(xa, ta.a), sccd_xf3_apply(xa, ta.b), sccd_xf3_apply(xa, ta.c)};
        for (int j = 0; j < b->nt; ++j) {
            sccd_triangle tb = sccd_mesh_triangle(b, j);
            tb = (sccd_triangle){sccd_xf3_apply(xb, tb.a), sccd_xf3_apply(xb, tb.b), sccd_xf3_apply(xb, tb.c)};
            if (sccd_triangle_vs_triangle(ta, tb))
                return true;
        }
    }
    return false;
}

static sccd_xf3 random_pose(sccd_rng *g, sccd_v3 centre, double spread)
{
    sccd_quat q = sccd_rng_quat(g);
    return (sccd_xf3){sccd_v3_sub(sccd_rng_v3(g, spread), sccd_quat_apply(q, centre)), q};
}

/* Random placements of two copies, then grazing ones: b moved along a
 * random direction to the bisected boundary between touching and not. */
static void test_exact_pairs(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1515);
    int hits = 0, misses = 0, grazing = 0;
    for (int w = 0; w < MESHES; ++w) {
        sccd_mesh m;
        sccd_meshtree t;
        sccd_mesh_init(&m);
        sccd_meshtree_init(&t);
        assert_true(generate(&m, w));
        sccd_meshtree_options o = sccd_meshtree_default_options();
        o.res = 24;
        o.piece = 1.0 / 32.0;
        o.max_leaves = 32;
        assert_true(sccd_meshtree_build(&t, &m, &o));
        sccd_mesh_report r = sccd_mesh_report_make(&m);
        sccd_v3 centre = sccd_v3_scale(sccd_v3_add(r.bounds.lo, r.bounds.hi), 0.5);
        double diag = sccd_v3_dist(r.bounds.lo, r.bounds.hi);
        for (int p = 0; p < 60; ++p) {
            sccd_xf3 xa = random_pose(&g, centre, 0.0), xb = random_pose(&g, centre, 0.6 * diag);
            bool tree = sccd_meshtree_vs_meshtree(&t, xa, &t, xb), truth = all_pairs(&m, xa, &m, xb);
            assert_true(tree == truth);
            assert_true(sccd_meshtree_vs_meshtree(&t, xb, &t, xa) == truth);
            hits += truth;
            misses += !truth;
        }
        for (int p = 0; p < 3; ++p) {
            sccd_xf3 xa = random_pose(&g, centre, 0.0), xb = random_pose(&g, centre, 0.0);
            sccd_v3 dir = sccd_rng_unit3(&g), base = xb.p;
            double lo = 0.0, hi = 2.0 * diag; /* touching at lo, apart at hi */
            for (int k = 0; k < 40; ++k) {
                double mid = 0.5 * (lo + hi);
                xb.p = sccd_v3_mad(base, mid, dir);
                *(all_pairs(&m, xa, &m, xb) ? &lo : &hi) = mid;
            }
            for (int s = 0; s < 2; ++s) {
                xb.p = sccd_v3_mad(base, s ? hi : lo, dir);
                assert_true(sccd_meshtree_vs_meshtree(&t, xa, &t, xb) == all_pairs(&m, xa, &m, xb));
                grazing++;
            }
        }
        sccd_meshtree_destroy(&t);
        sccd_mesh_destroy(&m);
    }
    assert_true(hits > 50 && misses > 50 && grazing == 6 * MESHES);
}

static sccd_shape3 random_shape(sccd_rng *g, double spread, double size)
{
    sccd_shape3 s;
    switch (sccd_rng_int(g, 3)) {
    case 0:
        s.type = SCCD_SHAPE_CIRCLE;
        s.sphere = (sccd_sphere){sccd_rng_v3(g, spread), sccd_rng_uniform(g, 0.0, size)};
        break;
    case 1: {
        sccd_v3 a = sccd_rng_v3(g, spread);
        s.type = SCCD_SHAPE_CAPSULE;
        s.capsule = (sccd_capsule3){a, sccd_v3_add(a, sccd_rng_v3(g, size)), sccd_rng_uniform(g, 0.0, 0.3 * size)};
        break;
    }
    default:
        s.type = SCCD_SHAPE_BOX;
        s.box = (sccd_box3){sccd_rng_v3(g, spread), sccd_rng_quat(g),
                            {sccd_rng_uniform(g, 0.0, size), sccd_rng_uniform(g, 0.0, size), sccd_rng_uniform(g, 0.0, size)}};
    }
    return s;
}

static void test_exact_shapes(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(151515);
    int hits = 0, misses = 0;
    for (int w = 0; w < MESHES; ++w) {
        sccd_mesh m;
        sccd_meshtree t;
        sccd_mesh_init(&m);
        sccd_meshtree_init(&t);
        assert_true(generate(&m, w));
        sccd_meshtree_options o = sccd_meshtree_default_options();
        o.res = 0; /* inward-ray candidates only */
        o.piece = 1.0 / 24.0;
        o.error = 0.05;
        assert_true(sccd_meshtree_build(&t, &m, &o));
        sccd_mesh_report r = sccd_mesh_report_make(&m);
        sccd_v3 centre = sccd_v3_scale(sccd_v3_add(r.bounds.lo, r.bounds.hi), 0.5);
        double diag = sccd_v3_dist(r.bounds.lo, r.bounds.hi);
        for (int p = 0; p < 400; ++p) {
            sccd_xf3 xf = random_pose(&g, centre, 0.1 * diag);
            sccd_shape3 s = random_shape(&g, 0.6 * diag, 0.2 * diag);
            bool truth = false;
            for (int i = 0; i < m.nt && !truth; ++i) {
                sccd_triangle tri = sccd_mesh_triangle(&m, i);
                truth = sccd_shape3_vs_triangle(&s, (sccd_triangle){sccd_xf3_apply(xf, tri.a), sccd_xf3_apply(xf, tri.b),
                                                                     sccd_xf3_apply(xf, tri.c)});
            }
            assert_true(sccd_meshtree_vs_shape(&t, xf, &s) == truth);
            hits += truth;
            misses += !truth;
        }
        sccd_meshtree_destroy(&t);
        sccd_mesh_destroy(&m);
    }
    assert_true(hits > 200 && misses > 200);
}

/* Whether two point sets' hulls meet by GJK (distance.h), the oracle of
 * the separating-axis tests: 1 overlap, 0 apart by more than 1e-6, −1 too
 * close to call. */
static int hulls_meet(const sccd_v3 *a, int na, const sccd_v3 *b, int nb)
{
    sccd_proxy3 pa = {.n = na, .r = 0.0}, pb = {.n = nb, .r = 0.0};
    memcpy(pa.v, a, (size_t)na * sizeof *a);
    memcpy(pb.v, b, (size_t)nb * sizeof *b);
    sccd_distance3 d = sccd_proxy3_distance(&pa, &pb);
    return d.overlap ? 1 : d.distance > 1e-6 ? 0 : -1;
}

static sccd_triangle random_triangle(sccd_rng *g, sccd_v3 at, double size, bool degenerate)
{
    sccd_v3 a = sccd_v3_add(at, sccd_rng_v3(g, size)), b = sccd_v3_add(at, sccd_rng_v3(g, size));
    sccd_v3 c = degenerate ? sccd_v3_add(a, sccd_v3_scale(sccd_v3_sub(b, a), sccd_rng_uniform(g, -1.0, 2.0)))
                           : sccd_v3_add(at, sccd_rng_v3(g, size));
    return (sccd_triangle){a, b, c};
}

static void test_triangle_tests(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(7);
    int decided = 0, overlaps = 0, box_decided = 0, box_overlaps = 0;
    for (int k = 0; k < 20000; ++k) {
        bool degenerate = k % 10 == 0;
        sccd_triangle a = random_triangle(&g, (sccd_v3){0, 0, 0}, 1.0, degenerate);
        sccd_triangle b = random_triangle(&g, sccd_rng_v3(&g, 1.0), 1.0, k % 20 == 0);
        if (k % 7 == 0) /* coplanar pairs */
            a.c.z = a.b.z = a.a.z = b.a.z = b.b.z = b.c.z = 0.25;
        sccd_v3 pa[3] = {a.a, a.b, a.c}, pb[3] = {b.a, b.b, b.c};
        int meet = hulls_meet(pa, 3, pb, 3);
        if (meet >= 0) {
            decided++;
            overlaps += meet;
            assert_true(sccd_triangle_vs_triangle(a, b) == meet);
            assert_true(sccd_triangle_vs_triangle(b, a) == meet);
        }
        /* a box against a triangle */
        sccd_box3 box = {sccd_rng_v3(&g, 1.0), sccd_rng_quat(&g),
                         {sccd_rng_uniform(&g, 0.0, 0.6), sccd_rng_uniform(&g, 0.0, 0.6), sccd_rng_uniform(&g, 0.0, 0.6)}};
        sccd_v3 corners[8];
        for (int i = 0; i < 8; ++i)
            corners[i] = sccd_v3_add(box.c, sccd_quat_apply(box.q, (sccd_v3){i & 1 ? box.h.x : -box.h.x,
                                                                             i & 2 ? box.h.y : -box.h.y,
                                                                             i & 4 ? box.h.z : -box.h.z}));
        meet = hulls_meet(corners, 8, pa, 3);
        if (meet >= 0) {
            box_decided++;
            box_overlaps += meet;
            assert_true(sccd_box3_vs_triangle(box, a) == meet);
        }
    }
    assert_true(decided > 15000 && overlaps > 1000 && decided - overlaps > 1000);
    assert_true(box_decided > 15000 && box_overlaps > 1000 && box_decided - box_overlaps > 1000);
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_mesh m, empty, dot;
    sccd_meshtree t;
    sccd_mesh_init(&m);
    sccd_mesh_init(&empty);
    sccd_mesh_init(&dot);
    sccd_meshtree_init(&t);
    assert_true(sccd_mesh_sword(&m));
    sccd_meshtree_options o = sccd_meshtree_default_options();
    o.res = 16;
    o.piece = 0.1;
    assert_false(sccd_meshtree_build(NULL, &m, &o));
    assert_false(sccd_meshtree_build(&t, NULL, &o));
    assert_false(sccd_meshtree_build(&t, &empty, &o));
    sccd_meshtree_options bad = o;
    bad.error = NAN;
    assert_false(sccd_meshtree_build(&t, &m, &bad));
    bad = o, bad.max_leaves = -1;
    assert_false(sccd_meshtree_build(&t, &m, &bad));
    bad = o, bad.res = 2;
    assert_false(sccd_meshtree_build(&t, &m, &bad));
    bad = o, bad.piece = 0.0;
    assert_false(sccd_meshtree_build(&t, &m, &bad));
    bad = o, bad.nodes = (sccd_bound_method)7;
    assert_false(sccd_meshtree_build(&t, &m, &bad));
    /* a mesh of one point: a zero box */
    sccd_mesh_add_vertex(&dot, (sccd_v3){1, 2, 3});
    sccd_mesh_add_triangle(&dot, 0, 0, 0);
    assert_false(sccd_meshtree_build(&t, &dot, &o));
    assert_int_equal(t.tree.node_count, 0);
    assert_int_equal(sccd_test_assert_count(), 9);
    /* queries on an empty tree, bad poses and shapes: false */
    sccd_xf3 id = sccd_xf3_identity(), nan_pose = {{NAN, 0, 0}, {0, 0, 0, 1}};
    sccd_shape3 s = {.type = SCCD_SHAPE_CIRCLE, .sphere = {{0, 0, 0}, 1.0}}, poly = {.type = SCCD_SHAPE_POLY};
    assert_false(sccd_meshtree_vs_meshtree(&t, id, &t, id));
    assert_false(sccd_meshtree_vs_shape(&t, id, &s));
    assert_false(sccd_meshtree_measure(&t, 8, NULL, NULL));
    assert_true(sccd_meshtree_build(&t, &m, &o));
    assert_false(sccd_meshtree_vs_meshtree(&t, nan_pose, &t, id));
    assert_false(sccd_meshtree_vs_shape(&t, id, &poly));
    assert_false(sccd_meshtree_vs_shape(&t, id, NULL));
    s.sphere.r = -1.0;
    assert_false(sccd_meshtree_vs_shape(&t, id, &s));
    assert_false(sccd_meshtree_measure(&t, 0, NULL, NULL));
    assert_int_equal(sccd_test_assert_count(), 9 + 8);
    /* the triangle tests and the extruder on bad input */
    sccd_triangle tri = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, nan_tri = {{NAN, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    assert_false(sccd_triangle_vs_triangle(tri, nan_tri));
    assert_false(sccd_box3_vs_triangle((sccd_box3){{0, 0, 0}, {0, 0, 0, 1}, {-1, 1, 1}}, tri));
    sccd_v2 bow[4] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}}, cw[3] = {{0, 0}, {0, 1}, {1, 0}};
    assert_false(sccd_mesh_extrude(&empty, bow, 4, 0.1));
    assert_false(sccd_mesh_extrude(&empty, cw, 3, 0.1));
    assert_false(sccd_mesh_extrude(&empty, bow, 4, 0.0));
    assert_int_equal(sccd_test_assert_count(), 9 + 8 + 5);
    assert_int_equal(empty.nt, 0);
    sccd_set_assert_handler(NULL);
    sccd_meshtree_destroy(&t);
    sccd_meshtree_destroy(NULL);
    sccd_mesh_destroy(&dot);
    sccd_mesh_destroy(&empty);
    sccd_mesh_destroy(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_tests), cmocka_unit_test(test_cover),    cmocka_unit_test(test_exact_pairs),
        cmocka_unit_test(test_exact_shapes),   cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
