/* Warm-started GJK (sccd_proxy2/3_distance_cached, core/src/unchecked.h: the
 * TOI's distance query, started from the previous iteration's simplex)
 * against the brute-force oracles of tests/oracles/shape_oracle.h: from a
 * cold cache, from the cache the same pair left at a nearby pose (as in the
 * TOI), and from random caches (any vertex indices, repeats and flat
 * simplices included, and indices past a proxy's points), and the shape
 * queries of shapes shrunk step by step, each from the last one's simplex.
 * Each answer must match the oracle's distance as
 * closely as a cold start must (tests/test_distance.c), with a unit normal,
 * witnesses on their shapes, and a cache left holding valid indices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "shape_oracle.h"
#include "../core/src/unchecked.h"

#define N_PAIRS 20000

static double log_scale(sccd_rng *g) { return pow(10.0, sccd_rng_uniform(g, -3.0, 3.0)); }

/* Mostly near contact, sometimes far apart. */
static double spread(sccd_rng *g) { return sccd_rng_int(g, 16) == 0 ? 1e3 : sccd_rng_uniform(g, 0.3, 2.0); }

static void random_cache(sccd_rng *g, int max, int na, int nb, sccd_simplex_cache *c)
{
    c->n = 1 + sccd_rng_int(g, max);
    for (int i = 0; i < c->n; ++i) {
        c->ia[i] = (unsigned char)sccd_rng_int(g, na);
        c->ib[i] = (unsigned char)sccd_rng_int(g, nb);
    }
}

static void check_cache(const sccd_simplex_cache *c, int max, int na, int nb)
{
    assert_true(c->n >= 1 && c->n <= max);
    for (int i = 0; i < c->n; ++i)
        assert_true(c->ia[i] < na && c->ib[i] < nb);
}

/* ---- 2D ---- */

static double point_to_shape2(sccd_v2 p, const sccd_shape2 *s, sccd_xf2 xf)
{
    sccd_shape2 pt = {.type = SCCD_SHAPE_CIRCLE, .circle = {p, 0.0}};
    return sccd_oracle_distance2(&pt, sccd_xf2_identity(), s, xf);
}

/* Answer d for shapes a, b placed by xa, xb against the oracle's distance
 * (check_answer3's twin). */
static void check_answer2(sccd_distance2 d, const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb, double s)
{
    double ref = sccd_oracle_distance2(a, xa, b, xb), tol = 1e-9 * s;
    if (fabs(d.distance - ref) > tol)
        fprintf(stderr, "2D: gjk %.17g ref %.17g (types %d %d, s %g)\n", d.distance, ref, a->type, b->type, s);
    assert_true(fabs(d.distance - ref) <= tol);
    assert_true(ref > 0.0 || d.overlap);
    assert_true(!d.overlap || ref <= tol);
    assert_true(fabs(sccd_v2_len(d.normal) - 1.0) < 1e-12);
    if (!d.overlap) {
        assert_true(point_to_shape2(d.pa, a, xa) <= tol && point_to_shape2(d.pb, b, xb) <= tol);
        assert_true(fabs(sccd_v2_dot(sccd_v2_sub(d.pb, d.pa), d.normal) - d.distance) <= tol);
    }
}

/* One query from *cache on the pair placed by xa, xb, checked against the oracle. */
static void check2(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb, double s,
                   sccd_simplex_cache *cache)
{
    sccd_proxy2 pa = sccd_proxy2_make(a, xa), pb = sccd_proxy2_make(b, xb);
    check_answer2(sccd_proxy2_distance_cached(&pa, &pb, cache), a, xa, b, xb, s);
    check_cache(cache, 3, pa.n, pb.n);
}

static sccd_xf2 nudge2(sccd_rng *g, sccd_xf2 xf, double s)
{
    return (sccd_xf2){sccd_v2_add(xf.p, sccd_rng_v2(g, 0.3 * s)),
                      sccd_rot2_mul(sccd_rot2_make(sccd_rng_uniform(g, -0.3, 0.3)), xf.q)};
}

static void test_cached2_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1401);
    for (int i = 0; i < N_PAIRS; ++i) {
        double s = log_scale(&g);
        sccd_shape2 a = sccd_rng_shape2(&g, (sccd_shape_type)sccd_rng_int(&g, 4), s);
        sccd_shape2 b = sccd_rng_shape2(&g, (sccd_shape_type)sccd_rng_int(&g, 4), s);
        sccd_xf2 xa = {sccd_rng_v2(&g, spread(&g) * s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_xf2 xb = {sccd_rng_v2(&g, spread(&g) * s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_simplex_cache cache = {0};
        check2(&a, xa, &b, xb, s, &cache);                           /* cold */
        check2(&a, nudge2(&g, xa, s), &b, nudge2(&g, xb, s), s, &cache); /* warm, moved a little */
        sccd_proxy2 pa = sccd_proxy2_make(&a, xa), pb = sccd_proxy2_make(&b, xb);
        random_cache(&g, 3, pa.n, pb.n, &cache);
        check2(&a, xa, &b, xb, s, &cache); /* any start */
    }
}

/* ---- 3D ---- */

static double point_to_shape3(sccd_v3 p, const sccd_shape3 *s, sccd_xf3 xf)
{
    sccd_shape3 pt = {.type = SCCD_SHAPE_CIRCLE, .sphere = {p, 0.0}};
    return sccd_oracle_distance3(&pt, sccd_xf3_identity(), s, xf);
}

/* Answer d for shapes a, b placed by xa, xb against the oracle's distance
 * ref: within tol, overlap only when ref is, a unit normal, witnesses on
 * their shapes and their gap along the normal the distance. */
static void check_answer3(sccd_distance3 d, const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb,
                          double ref, double tol)
{
    if (fabs(d.distance - ref) > tol)
        fprintf(stderr, "3D: %.17g ref %.17g (types %d %d)\n", d.distance, ref, a->type, b->type);
    assert_true(fabs(d.distance - ref) <= tol);
    assert_true(ref > 0.0 || d.overlap);
    assert_true(!d.overlap || ref <= tol);
    assert_true(fabs(sccd_v3_len(d.normal) - 1.0) < 1e-12);
    if (!d.overlap) {
        assert_true(point_to_shape3(d.pa, a, xa) <= tol && point_to_shape3(d.pb, b, xb) <= tol);
        assert_true(fabs(sccd_v3_dot(sccd_v3_sub(d.pb, d.pa), d.normal) - d.distance) <= tol);
    }
}

static void check3(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb, double s,
                   sccd_simplex_cache *cache)
{
    sccd_proxy3 pa = sccd_proxy3_make(a, xa), pb = sccd_proxy3_make(b, xb);
    check_answer3(sccd_proxy3_distance_cached(&pa, &pb, cache), a, xa, b, xb, sccd_oracle_distance3(a, xa, b, xb), 1e-9 * s);
    check_cache(cache, 4, pa.n, pb.n);
}

static sccd_xf3 nudge3(sccd_rng *g, sccd_xf3 xf, double s)
{
    sccd_quat turn = sccd_quat_axis_angle(sccd_rng_unit3(g), sccd_rng_uniform(g, -0.3, 0.3));
    return (sccd_xf3){sccd_v3_add(xf.p, sccd_rng_v3(g, 0.3 * s)), sccd_quat_normalize(sccd_quat_mul(turn, xf.q))};
}

static void test_cached3_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1402);
    for (int i = 0; i < N_PAIRS; ++i) {
        double s = log_scale(&g);
        sccd_shape3 a = sccd_rng_shape3(&g, (sccd_shape_type)sccd_rng_int(&g, 3), s);
        sccd_shape3 b = sccd_rng_shape3(&g, (sccd_shape_type)sccd_rng_int(&g, 3), s);
        sccd_xf3 xa = {sccd_rng_v3(&g, spread(&g) * s), sccd_rng_quat(&g)};
        sccd_xf3 xb = {sccd_rng_v3(&g, spread(&g) * s), sccd_rng_quat(&g)};
        sccd_simplex_cache cache = {0};
        check3(&a, xa, &b, xb, s, &cache);
        check3(&a, nudge3(&g, xa, s), &b, nudge3(&g, xb, s), s, &cache);
        sccd_proxy3 pa = sccd_proxy3_make(&a, xa), pb = sccd_proxy3_make(&b, xb);
        random_cache(&g, 4, pa.n, pb.n, &cache);
        check3(&a, xa, &b, xb, s, &cache);
    }
}

/* The closed form of a box's proxy against a sphere's one point
 * (sccd_proxy3_distance_box_point, the TOI's) against the oracle, as check3
 * checks GJK: either order, boxes flat or a point, spheres of radius 0,
 * centres inside, on and near the boxes, the proxies placed by a rigid
 * motion of their points (as the TOI places its cores). */
static void test_box_point3_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1403);
    for (int i = 0; i < N_PAIRS; ++i) {
        double s = log_scale(&g);
        sccd_shape3 box = sccd_rng_shape3(&g, SCCD_SHAPE_BOX, s), ball = sccd_rng_shape3(&g, SCCD_SHAPE_CIRCLE, s);
        int k = sccd_rng_int(&g, 8);
        if (k == 0)
            box.box.h.z = 0.0; /* flat */
        else if (k == 1)
            box.box.h = (sccd_v3){0.0, 0.0, 0.0}; /* a point */
        if (sccd_rng_int(&g, 4) == 0)
            ball.sphere.r = 0.0;
        sccd_xf3 xa = {sccd_rng_v3(&g, s), sccd_rng_quat(&g)}, xb = {sccd_rng_v3(&g, spread(&g) * s), sccd_rng_quat(&g)};
        if (sccd_rng_int(&g, 4) == 0) /* the centre on a face of the box, or inside it */
            xb.p = sccd_xf3_apply(xa, sccd_v3_add(box.box.c, sccd_quat_apply(box.box.q, (sccd_v3){box.box.h.x, sccd_rng_uniform(&g, -1.0, 1.0) * box.box.h.y,
                                                                                                   sccd_rng_uniform(&g, -1.0, 1.0) * box.box.h.z})));
        if (sccd_rng_int(&g, 8) == 0)
            xb.p = sccd_xf3_apply(xa, box.box.c);
        xb.p = sccd_v3_sub(xb.p, sccd_quat_apply(xb.q, ball.sphere.c)); /* the sphere's centre where drawn */
        /* The proxies made, then moved by one rigid motion (the placed points, not the shapes). */
        sccd_proxy3 pa = sccd_proxy3_make(&box, xa), pb = sccd_proxy3_make(&ball, xb);
        sccd_xf3 m = {sccd_rng_v3(&g, 3.0 * s), sccd_rng_quat(&g)};
        for (int v = 0; v < pa.n; ++v)
            pa.v[v] = sccd_xf3_apply(m, pa.v[v]);
        pb.v[0] = sccd_xf3_apply(m, pb.v[0]);
        sccd_xf3 ya = sccd_xf3_mul(m, xa), yb = sccd_xf3_mul(m, xb);
        double ref = sccd_oracle_distance3(&box, ya, &ball, yb), tol = 1e-9 * s;
        check_answer3(sccd_proxy3_distance_box_point(&pa, &pb, true), &box, ya, &ball, yb, ref, tol);
        check_answer3(sccd_proxy3_distance_box_point(&pb, &pa, false), &ball, yb, &box, ya, ref, tol);
    }
}

/* Shape s shrunk by `by`: a radius, or every half extent of a box, none below 0. */
static sccd_shape3 shrunk3(sccd_shape3 s, double by)
{
    if (s.type == SCCD_SHAPE_BOX)
        s.box.h = (sccd_v3){fmax(s.box.h.x - by, 0.0), fmax(s.box.h.y - by, 0.0), fmax(s.box.h.z - by, 0.0)};
    else if (s.type == SCCD_SHAPE_CAPSULE)
        s.capsule.r = fmax(s.capsule.r - by, 0.0);
    else
        s.sphere.r = fmax(s.sphere.r - by, 0.0);
    return s;
}

/* Shape pairs shrunk at one pose, a step at a time, down to flat and
 * point boxes and bare cores, each query warm-started from the simplex the
 * one before left (sccd_shape3_distance_cached, the impact solver's start
 * depth: a shrink keeps the proxies' vertex order), against the oracle's
 * distance of the shrunk shapes. */
static void test_shape3_cached_shrinking(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1404);
    for (int i = 0; i < N_PAIRS / 10; ++i) {
        double s = log_scale(&g);
        sccd_shape3 a = sccd_rng_shape3(&g, (sccd_shape_type)sccd_rng_int(&g, 3), s);
        sccd_shape3 b = sccd_rng_shape3(&g, (sccd_shape_type)sccd_rng_int(&g, 3), s);
        sccd_xf3 xa = {sccd_rng_v3(&g, 0.5 * s), sccd_rng_quat(&g)}, xb = {sccd_rng_v3(&g, 0.5 * s), sccd_rng_quat(&g)};
        sccd_simplex_cache cache = {0};
        for (double shrink = 0.0; shrink < 4.0 * s; shrink = shrink > 0.0 ? 2.0 * shrink : 0.01 * s) {
            sccd_shape3 sa = shrunk3(a, shrink), sb = shrunk3(b, shrink);
            sccd_distance3 d = sccd_shape3_distance_cached(&sa, xa, &sb, xb, &cache);
            check_answer3(d, &sa, xa, &sb, xb, sccd_oracle_distance3(&sa, xa, &sb, xb), 1e-9 * s);
            if (sa.type != SCCD_SHAPE_CIRCLE && sb.type != SCCD_SHAPE_CIRCLE) /* a sphere's closed form leaves it be */
                check_cache(&cache, 4, sccd_proxy3_make(&sa, xa).n, sccd_proxy3_make(&sb, xb).n);
        }
    }
}

/* Shape s shrunk by `by`: a radius, or both half sizes of a box, none below 0. */
static sccd_shape2 shrunk2(sccd_shape2 s, double by)
{
    if (s.type == SCCD_SHAPE_BOX)
        s.box.h = (sccd_v2){fmax(s.box.h.x - by, 0.0), fmax(s.box.h.y - by, 0.0)};
    else if (s.type == SCCD_SHAPE_CAPSULE)
        s.capsule.r = fmax(s.capsule.r - by, 0.0);
    else if (s.type == SCCD_SHAPE_POLY)
        s.poly.r = fmax(s.poly.r - by, 0.0);
    else
        s.circle.r = fmax(s.circle.r - by, 0.0);
    return s;
}

/* test_shape3_cached_shrinking's twin (sccd_shape2_distance_cached, the
 * 2D solver's start distances, whose simplex a pair keeps from one search
 * to the next), each pair also queried once from another pair's simplex
 * (indices past its proxies' points read their first: a stale cache gives
 * the cold answer's distance). */
static void test_shape2_cached_shrinking(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1405);
    sccd_simplex_cache stale = {3, {7, 5, 3}, {6, 2, 7}};
    for (int i = 0; i < N_PAIRS / 10; ++i) {
        double s = log_scale(&g);
        sccd_shape2 a = sccd_rng_shape2(&g, (sccd_shape_type)sccd_rng_int(&g, 4), s);
        sccd_shape2 b = sccd_rng_shape2(&g, (sccd_shape_type)sccd_rng_int(&g, 4), s);
        sccd_xf2 xa = {sccd_rng_v2(&g, 0.5 * s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_xf2 xb = {sccd_rng_v2(&g, 0.5 * s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_simplex_cache other = stale;
        check_answer2(sccd_shape2_distance_cached(&a, xa, &b, xb, &other), &a, xa, &b, xb, s);
        sccd_simplex_cache cache = {0};
        for (double shrink = 0.0; shrink < 4.0 * s; shrink = shrink > 0.0 ? 2.0 * shrink : 0.01 * s) {
            sccd_shape2 sa = shrunk2(a, shrink), sb = shrunk2(b, shrink);
            check_answer2(sccd_shape2_distance_cached(&sa, xa, &sb, xb, &cache), &sa, xa, &sb, xb, s);
            if (sa.type != SCCD_SHAPE_CIRCLE && sb.type != SCCD_SHAPE_CIRCLE) /* a circle's closed form leaves it be */
                check_cache(&cache, 3, sccd_proxy2_make(&sa, xa).n, sccd_proxy2_make(&sb, xb).n);
        }
    }
}

/* Degenerate starts: every cached vertex the same pair, and a point pair
 * (one core point each) from a cache naming it three times. */
static void test_cached_degenerate(void **state)
{
    (void)state;
    sccd_shape2 box = {.type = SCCD_SHAPE_BOX, .box = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 0.5}}};
    sccd_shape2 dot = {.type = SCCD_SHAPE_CIRCLE, .circle = {{0.0, 0.0}, 0.0}};
    sccd_xf2 xa = sccd_xf2_identity(), xb = {{3.0, 0.25}, {1.0, 0.0}};
    sccd_simplex_cache same = {3, {2, 2, 2}, {0, 0, 0}};
    check2(&box, xa, &dot, xb, 1.0, &same);
    sccd_simplex_cache point = {3, {0, 0, 0}, {0, 0, 0}};
    check2(&dot, xa, &dot, xb, 1.0, &point);
    assert_int_equal(point.n, 1);
    sccd_shape3 cube = {.type = SCCD_SHAPE_BOX, .box = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}, {1.0, 1.0, 1.0}}};
    sccd_shape3 ball = {.type = SCCD_SHAPE_CIRCLE, .sphere = {{0.0, 0.0, 0.0}, 0.5}};
    sccd_xf3 ya = sccd_xf3_identity(), yb = {{0.5, 0.2, 0.1}, {0.0, 0.0, 0.0, 1.0}}; /* overlapping */
    sccd_simplex_cache flat = {4, {0, 1, 3, 2}, {0, 0, 0, 0}};                       /* a face: flat */
    check3(&cube, ya, &ball, yb, 1.0, &flat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached2_random),
        cmocka_unit_test(test_cached3_random),
        cmocka_unit_test(test_box_point3_random),
        cmocka_unit_test(test_shape2_cached_shrinking),
        cmocka_unit_test(test_shape3_cached_shrinking),
        cmocka_unit_test(test_cached_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
