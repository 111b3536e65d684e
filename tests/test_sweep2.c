/* 2D sweeps: the "never miss" property on 1,000,000 sampled points of exact
 * sweeps (boxes, polygons, capsules, circles; centres inside and outside;
 * turns up to ±4π; with translation), checked with sccd_sweep2_vs_point and
 * with shapes placed on the sampled points; the sweep against the exact
 * rotational ground truth (tests/oracles/truth2.c); that ground truth against
 * dense sampling of t; consistency of the shape tests with point sampling;
 * degenerate and bad input; the private helpers the builds rest on (which
 * polygon vertices are candidate directions, the direction inside a gap)
 * against brute force. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "truth2.h"
#include "../core/src/unchecked.h"
#include "../core/src/convex2.h"
#include "../core/src/trig.h"

#define N_CONFIGS 10000
#define N_POINTS 100 /* per configuration: 10⁶ in all */

/* A random body shape, a motion whose centre is inside it (sometimes) or
 * anywhere near, and a band count. */
typedef struct config { sccd_shape2 shape; sccd_motion2 m; int bands; } config;

static config random_config(sccd_rng *g, bool translate)
{
    config c;
    c.shape = sccd_truth2_random_shape(g, (sccd_shape_type)sccd_rng_int(g, 4), sccd_rng_v2(g, 2.0), 2.0);
    sccd_v2 centre = sccd_rng_int(g, 3) == 0 ? sccd_truth2_sample_shape(g, &c.shape) : sccd_rng_v2(g, 6.0);
    if (sccd_rng_int(g, 6) == 0) { /* exactly at a vertex of the core: a pivot at a sword's corner or end */
        sccd_v2 v[SCCD_POLY_MAX];
        sccd_real r;
        centre = v[sccd_rng_int(g, sccd_truth2_core(&c.shape, v, &r))];
    }
    static const sccd_real turns[] = {0.0, 1e-9, -1e-9, SCCD_PI, -SCCD_PI, 2.0 * SCCD_PI, 4.0 * SCCD_PI};
    sccd_real dtheta = sccd_rng_int(g, 4) == 0 ? turns[sccd_rng_int(g, 7)]
                                               : sccd_rng_uniform(g, -4.0 * SCCD_PI, 4.0 * SCCD_PI);
    if (sccd_rng_int(g, 3) == 0) /* a common small step */
        dtheta = sccd_rng_uniform(g, -0.5, 0.5);
    sccd_v2 dp = translate && sccd_rng_int(g, 4) != 0 ? sccd_rng_v2(g, 4.0) : (sccd_v2){0.0, 0.0};
    sccd_xf2 start = {sccd_rng_v2(g, 5.0), sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI))};
    c.m = (sccd_motion2){start, centre, dp, dtheta};
    c.bands = 1 + sccd_rng_int(g, SCCD_MAX_BANDS);
    return c;
}

static void build(sccd_sweep2 *w, const config *c)
{
    switch (c->shape.type) {
    case SCCD_SHAPE_CIRCLE: sccd_sweep2_circle(w, c->shape.circle, c->m, c->bands); break;
    case SCCD_SHAPE_CAPSULE: sccd_sweep2_capsule(w, c->shape.capsule, c->m, c->bands); break;
    case SCCD_SHAPE_BOX: {
        /* sweep2_box takes a box centred on the body origin: express the
         * shape's box that way by moving the motion's body frame. */
        sccd_box2 b = c->shape.box;
        sccd_xf2 bf = {b.c, b.q};
        sccd_motion2 m = c->m;
        m.start = sccd_xf2_mul(c->m.start, bf);
        m.center = sccd_xf2_inv_apply(bf, c->m.center);
        sccd_sweep2_box(w, b.h, m, c->bands);
        break;
    }
    case SCCD_SHAPE_POLY: sccd_sweep2_poly(w, &c->shape.poly, c->m, c->bands); break;
    }
}

/* A point uniform in box b. */
static sccd_v2 point_in(sccd_rng *g, sccd_aabb2 b)
{
    return (sccd_v2){sccd_rng_uniform(g, b.lo.x, b.hi.x), sccd_rng_uniform(g, b.lo.y, b.hi.y)};
}

static bool in_aabb(sccd_aabb2 b, sccd_v2 p, sccd_real tol)
{
    return p.x >= b.lo.x - tol && p.x <= b.hi.x + tol && p.y >= b.lo.y - tol && p.y <= b.hi.y + tol;
}

/* A small shape of each kind that holds point p (on its boundary or inside). */
static bool shapes_at_point_hit(sccd_rng *g, const sccd_sweep2 *w, sccd_v2 p)
{
    sccd_real s = sccd_rng_uniform(g, 0.0, 0.3);
    sccd_v2 u = sccd_rng_unit2(g);
    sccd_circle c = {sccd_v2_mad(p, s, u), s};
    sccd_capsule2 k = {sccd_v2_mad(p, -s, sccd_v2_perp(u)), sccd_v2_mad(p, s, sccd_v2_perp(u)), 0.5 * s};
    sccd_box2 b = {sccd_v2_mad(p, s, u), {u.x, u.y}, {s, s}};
    sccd_poly2 t = {3, {p, sccd_v2_mad(p, s, u), sccd_v2_mad(p, s, sccd_v2_perp(u))}, 0.0};
    return sccd_sweep2_vs_circle(w, c) && sccd_sweep2_vs_capsule(w, k) && sccd_sweep2_vs_box(w, b) &&
           sccd_sweep2_vs_poly(w, &t);
}

/* The "Done when" property: zero sampled points of true sweeps outside the bounds. */
static void test_never_misses(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(201);
    long points = 0, misses = 0, shape_misses = 0;
    for (int i = 0; i < N_CONFIGS; ++i) {
        config c = random_config(&g, true);
        sccd_sweep2 w;
        build(&w, &c);
        assert_true(w.count >= 1 && w.count <= SCCD_MAX_BANDS);
        for (int k = 0; k < N_POINTS; ++k) {
            sccd_v2 p = sccd_truth2_sample_sweep(&g, &c.shape, c.m);
            ++points;
            if (!sccd_sweep2_vs_point(&w, p) || !in_aabb(w.aabb, p, 1e-9 * (1.0 + sccd_v2_len(p)))) {
                if (misses++ < 5)
                    print_message("miss: config %d type %d bands %d dtheta %.17g p=(%.17g, %.17g)\n", i,
                                  c.shape.type, c.bands, c.m.dtheta, p.x, p.y);
            }
            if (k % 10 == 0 && !shapes_at_point_hit(&g, &w, p))
                ++shape_misses;
        }
    }
    assert_true(points >= 1000000);
    assert_int_equal(misses, 0);
    assert_int_equal(shape_misses, 0);
}

/* Sweeps scaled by powers of 2 from 2^-900 to 2^300 (the body, the
 * motion's place, centre and translation, and the targets: exactly):
 * every point of the true sweep is met at every scale, and a target near
 * it gets the answer it gets at unit scale. The plan's areas and
 * crossings took products of up to five lengths, which over- or
 * underflowed (the band layout changed in a tenth of the builds some
 * 1e90 or 1e-90 across, and 0.1–0.2 % of the points such a sweep meets
 * at unit scale were missed; 14 % at 1e-160, where the target's circle
 * and hull underflowed too). */
static void test_scaled_sweeps(void **state)
{
    (void)state;
    static const int powers[] = {-900, -550, -300, -60, 60, 300};
    sccd_rng g = sccd_rng_make(212);
    int hits = 0, n = 0;
    for (int i = 0; i < N_CONFIGS / 5; ++i) {
        config c = random_config(&g, true);
        sccd_sweep2 w;
        build(&w, &c);
        sccd_v2 on = sccd_truth2_sample_sweep(&g, &c.shape, c.m), near = sccd_v2_add(on, sccd_rng_v2(&g, 1.0));
        sccd_circle disc = {sccd_v2_add(on, sccd_rng_v2(&g, 2.0)), sccd_rng_uniform(&g, 0.0, 0.5)};
        bool want_near = sccd_sweep2_vs_point(&w, near), want_disc = sccd_sweep2_vs_circle(&w, disc);
        hits += want_near;
        ++n;
        for (int k = 0; k < 6; ++k) {
            sccd_real f = ldexp(1.0, powers[k]);
            config d = c;
            d.shape = sccd_shape2_scaled(c.shape, f);
            d.m.start.p = sccd_v2_scale(c.m.start.p, f);
            d.m.center = sccd_v2_scale(c.m.center, f);
            d.m.dp = sccd_v2_scale(c.m.dp, f);
            sccd_sweep2 v;
            build(&v, &d);
            sccd_circle e = {sccd_v2_scale(disc.c, f), disc.r * f};
            bool got_near = sccd_sweep2_vs_point(&v, sccd_v2_scale(near, f));
            if (!sccd_sweep2_vs_point(&v, sccd_v2_scale(on, f)) || got_near != want_near ||
                sccd_sweep2_vs_circle(&v, e) != want_disc)
                fail_msg("config %d at 2^%d: type %d, bands %d (on %d, near %d of %d, disc %d of %d)", i, powers[k],
                         (int)c.shape.type, c.bands, sccd_sweep2_vs_point(&v, sccd_v2_scale(on, f)),
                         sccd_sweep2_vs_point(&v, sccd_v2_scale(near, f)), want_near, sccd_sweep2_vs_circle(&v, e),
                         want_disc);
        }
    }
    assert_true(hits > n / 10 && hits < n * 9 / 10);
}

/* Sweeps far from the origin, as in a large world: the body's start place
 * moved 2^13, 2^20 and 2^24 units out (about 1e4 to 1.7e7; the shapes are
 * some units across) along a random direction. Every point sampled on the
 * true sweep at the origin, moved out the same way, is met (the moved
 * point and start place each rounded: beyond about 2^24 that rounding
 * exceeds the build's padding, and the test would measure the doubles). */
static void test_translated_sweeps(void **state)
{
    (void)state;
    static const int powers[] = {13, 20, 24};
    sccd_rng g = sccd_rng_make(213);
    for (int i = 0; i < N_CONFIGS / 5; ++i) {
        config c = random_config(&g, true);
        sccd_real a = sccd_rng_uniform(&g, -SCCD_PI, SCCD_PI);
        for (int k = 0; k < 3; ++k) {
            sccd_v2 t = sccd_v2_scale((sccd_v2){cos(a), sin(a)}, ldexp(1.0, powers[k]));
            config d = c; /* the centre is in body coordinates: it moves with the body */
            d.m.start.p = sccd_v2_add(c.m.start.p, t);
            sccd_sweep2 w;
            build(&w, &d);
            for (int j = 0; j < 20; ++j) {
                sccd_v2 on = sccd_v2_add(sccd_truth2_sample_sweep(&g, &c.shape, c.m), t);
                if (!sccd_sweep2_vs_point(&w, on))
                    fail_msg("config %d at 2^%d: type %d, bands %d, sample %d missed", i, powers[k], (int)c.shape.type,
                             c.bands, j);
            }
        }
    }
}

/* A pivot exactly on a box's corner or edge (a sword held at its end), placed
 * through rotated frames so that rounding puts it a hair inside or outside:
 * the case where the direction of the nearest part of the box is least stable. */
static void test_pivot_on_box_boundary(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(206);
    long misses = 0;
    for (int i = 0; i < 40000; ++i) {
        config c;
        c.shape = sccd_truth2_random_shape(&g, SCCD_SHAPE_BOX, sccd_rng_v2(&g, 2.0), 2.0);
        sccd_box2 b = c.shape.box;
        sccd_real fx = sccd_rng_int(&g, 2) ? 1.0 : -1.0, fy = sccd_rng_int(&g, 3) ? (sccd_rng_int(&g, 2) ? 1.0 : -1.0)
                                                                                : sccd_rng_uniform(&g, -1.0, 1.0);
        sccd_v2 centre = sccd_v2_add(b.c, sccd_rot2_apply(b.q, (sccd_v2){fx * b.h.x, fy * b.h.y}));
        sccd_xf2 start = {sccd_rng_v2(&g, 5.0), sccd_rot2_make(sccd_rng_uniform(&g, -SCCD_PI, SCCD_PI))};
        c.m = (sccd_motion2){start, centre, {0.0, 0.0}, sccd_rng_uniform(&g, -2.0 * SCCD_PI, 2.0 * SCCD_PI)};
        c.bands = 1 + sccd_rng_int(&g, SCCD_MAX_BANDS);
        sccd_sweep2 w;
        build(&w, &c);
        for (int k = 0; k < 25; ++k)
            misses += !sccd_sweep2_vs_point(&w, sccd_truth2_sample_sweep(&g, &c.shape, c.m));
    }
    assert_int_equal(misses, 0);
}

/* Pure rotation: every point the exact ground truth calls swept is in the
 * bound, over random points of the bound's AABB. */
static void test_contains_exact_sweep(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(202);
    long swept = 0;
    for (int i = 0; i < 2000; ++i) {
        config c = random_config(&g, false);
        sccd_sweep2 w;
        build(&w, &c);
        for (int k = 0; k < 100; ++k) {
            sccd_v2 p = point_in(&g, w.aabb);
            if (sccd_truth2_swept(&c.shape, c.m, p)) {
                ++swept;
                assert_true(sccd_sweep2_vs_point(&w, p));
            }
        }
    }
    assert_true(swept > 20000);
}

/* The ground truth against dense sampling of t: a body point moves at most
 * s·|dθ|·Δt between samples, so the sampled distances bound the truth both ways. */
static void test_truth_vs_dense(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(203);
    enum { STEPS = 2000 };
    int agree_in = 0, agree_out = 0;
    for (int i = 0; i < 3000; ++i) {
        config c = random_config(&g, false);
        sccd_v2 c0 = sccd_xf2_apply(c.m.start, c.m.center);
        sccd_v2 p = sccd_rng_int(&g, 2) ? sccd_truth2_sample_sweep(&g, &c.shape, c.m)
                                        : sccd_v2_add(c0, sccd_rng_v2(&g, 8.0));
        /* p's body point at t: the inverse of the pose at t. */
        sccd_real best = INFINITY;
        for (int k = 0; k <= STEPS; ++k)
            best = sccd_min(best, sccd_truth2_distance(&c.shape, sccd_xf2_inv_apply(sccd_motion2_at(c.m, (double)k / STEPS), p)));
        sccd_real step = sccd_v2_dist(p, c0) * fabs(c.m.dtheta) / STEPS;
        bool truth = sccd_truth2_swept(&c.shape, c.m, p);
        if (best > 0.5 * step + 1e-9) {
            assert_false(truth);
            ++agree_out;
        } else if (best == 0.0 && truth) {
            ++agree_in;
        } else {
            assert_true(!truth || best <= 0.5 * step + 1e-9);
        }
    }
    assert_true(agree_in > 500 && agree_out > 500);
}

/* Shape tests are consistent with the point test: a shape holding a point of
 * the sweep is hit, and one that is missed holds none of its sampled points. */
static void test_shape_tests_consistent(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(204);
    int hits = 0;
    for (int i = 0; i < 3000; ++i) {
        config c = random_config(&g, true);
        sccd_sweep2 w;
        build(&w, &c);
        sccd_v2 near = sccd_rng_int(&g, 2) ? sccd_truth2_sample_sweep(&g, &c.shape, c.m) : sccd_rng_v2(&g, 12.0);
        sccd_shape2 x = sccd_truth2_random_shape(&g, (sccd_shape_type)sccd_rng_int(&g, 4), near, 1.5);
        bool got = false;
        switch (x.type) {
        case SCCD_SHAPE_CIRCLE: got = sccd_sweep2_vs_circle(&w, x.circle); break;
        case SCCD_SHAPE_CAPSULE: got = sccd_sweep2_vs_capsule(&w, x.capsule); break;
        case SCCD_SHAPE_BOX: got = sccd_sweep2_vs_box(&w, x.box); break;
        case SCCD_SHAPE_POLY: got = sccd_sweep2_vs_poly(&w, &x.poly); break;
        }
        hits += got;
        if (!got)
            for (int k = 0; k < 200; ++k)
                assert_false(sccd_sweep2_vs_point(&w, sccd_truth2_sample_shape(&g, &x)));
    }
    assert_true(hits > 600 && hits < 2400);
}

/* Targets beyond the range (SCCD_RANGE_MAX) against random sweeps, closed
 * forms: of size 1e155 1e300 off the body they are not met (the band
 * tests' squares overflowed to ∞ on both sides, which read as a hit); of
 * size 2e160 about a point 1e160 off they hold the sweep and are met. */
static void test_targets_beyond_range(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(207);
    for (int i = 0; i < 1000; ++i) {
        config c = random_config(&g, true);
        sccd_sweep2 w;
        build(&w, &c);
        sccd_v2 dir = sccd_rng_unit2(&g), p = c.m.start.p;
        for (int over = 0; over < 2; ++over) {
            sccd_real off = over ? 1e160 : 1e300, size = over ? 2e160 : 1e155;
            sccd_v2 q = sccd_v2_mad(p, off, dir), e = sccd_v2_scale(sccd_rng_unit2(&g), size);
            sccd_circle ci = {q, size};
            sccd_box2 b = {q, sccd_rot2_make(sccd_rng_uniform(&g, 0.0, 6.3)), {size, 1.3 * size}};
            sccd_capsule2 cap = {sccd_v2_add(q, e), sccd_v2_sub(q, e), size};
            sccd_poly2 tri = {3, {{q.x + 3.0 * size, q.y}, {q.x - 1.5 * size, q.y + 2.6 * size},
                                  {q.x - 1.5 * size, q.y - 2.6 * size}}, 0.0};
            bool want = over;
            assert_true(sccd_sweep2_vs_circle(&w, ci) == want);
            assert_true(sccd_sweep2_vs_box(&w, b) == want);
            assert_true(sccd_sweep2_vs_capsule(&w, cap) == want);
            assert_true(sccd_sweep2_vs_poly(&w, &tri) == want);
        }
    }
}

/* More bands are tighter on average (area of the bound by Monte Carlo). */
static void test_bands_tighten(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(205);
    long in1 = 0, in8 = 0;
    for (int i = 0; i < 300; ++i) {
        config c = random_config(&g, false);
        sccd_sweep2 w1, w8;
        c.bands = 1;
        build(&w1, &c);
        c.bands = 8;
        build(&w8, &c);
        for (int k = 0; k < 200; ++k) {
            sccd_v2 p = point_in(&g, w1.aabb);
            in1 += sccd_sweep2_vs_point(&w1, p);
            in8 += sccd_sweep2_vs_point(&w8, p);
        }
    }
    assert_true(in8 < in1);
}

static void test_degenerate(void **state)
{
    (void)state;
    sccd_sweep2 w;
    sccd_xf2 start = {{1, 2}, {1, 0}};
    /* No motion: the bound is the shape itself (a point shape: a point). */
    sccd_sweep2_box(&w, (sccd_v2){1, 0.5}, (sccd_motion2){start, {0, 0}, {0, 0}, 0.0}, 4);
    assert_true(sccd_sweep2_vs_point(&w, (sccd_v2){2, 2.5}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){2.01, 2.5}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){1, 3.2}));
    sccd_sweep2_circle(&w, (sccd_circle){{0, 0}, 0.0}, (sccd_motion2){start, {0, 0}, {0, 0}, 3.0}, 2);
    assert_true(sccd_sweep2_vs_point(&w, (sccd_v2){1, 2}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){1, 2.001}));
    /* A point at the centre of a spinning circle: the circle's own disc. */
    sccd_sweep2_circle(&w, (sccd_circle){{0, 0}, 1.0}, (sccd_motion2){start, {0, 0}, {0, 0}, 100.0}, 3);
    assert_true(sccd_sweep2_vs_point(&w, (sccd_v2){2, 2}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){2.01, 2}));
    /* A huge turn: the full annulus. */
    sccd_sweep2_capsule(&w, (sccd_capsule2){{2, 0}, {3, 0}, 0.0}, (sccd_motion2){start, {0, 0}, {0, 0}, 1e6}, 1);
    assert_true(w.band[0].half_angle == SCCD_PI);
    assert_true(sccd_sweep2_vs_point(&w, (sccd_v2){1, -0.5}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){1, 2}));
    /* Zero-size box translating: a segment. */
    sccd_sweep2_box(&w, (sccd_v2){0, 0}, (sccd_motion2){start, {0, 0}, {3, 0}, 0.0}, 1);
    assert_true(sccd_sweep2_vs_point(&w, (sccd_v2){2.5, 2}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){4.5, 2}));
    assert_true(sccd_sweep2_vs_box(&w, (sccd_box2){{3, 2.5}, {1, 0}, {0.5, 0.5}}));
    assert_false(sccd_sweep2_vs_box(&w, (sccd_box2){{3, 2.6}, {1, 0}, {0.5, 0.5}}));
    /* dp changed after building (a moving target's relative motion): the
     * tests follow the new dp, not the stale box. */
    sccd_sweep2_circle(&w, (sccd_circle){{0, 0}, 0.5}, (sccd_motion2){start, {0, 0}, {0, 0}, 1.0}, 2);
    w.dp = (sccd_v2){10.0, 0.0};
    assert_true(sccd_sweep2_vs_point(&w, (sccd_v2){11.4, 2}));
    assert_true(sccd_sweep2_vs_circle(&w, (sccd_circle){{12.0, 2}, 0.6}));
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){12.0, 2}));
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_sweep2 w;
    sccd_motion2 good = {{{0, 0}, {1, 0}}, {0, 0}, {1, 0}, 1.0}, bad = good;
    bad.dtheta = NAN;
    sccd_sweep2_box(&w, (sccd_v2){1, 1}, bad, 2);
    assert_int_equal(w.count, 0);
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){0, 0}));
    sccd_sweep2_box(&w, (sccd_v2){-1, 1}, good, 2);
    assert_int_equal(w.count, 0);
    sccd_sweep2_circle(&w, (sccd_circle){{0, 0}, NAN}, good, 2);
    assert_int_equal(w.count, 0);
    sccd_sweep2_capsule(&w, (sccd_capsule2){{0, 0}, {INFINITY, 0}, 1}, good, 2);
    assert_int_equal(w.count, 0);
    sccd_poly2 concave = {4, {{0, 0}, {1, 0}, {0.2, 0.2}, {0, 1}}, 0.0};
    sccd_sweep2_poly(&w, &concave, good, 2);
    assert_int_equal(w.count, 0);
    assert_int_equal(sccd_test_assert_count(), 5);
    /* Band counts out of range are clamped. */
    sccd_sweep2_box(&w, (sccd_v2){1, 1}, good, 0);
    assert_int_equal(w.count, 1);
    sccd_sweep2_box(&w, (sccd_v2){1, 1}, good, 99);
    assert_int_equal(w.count, SCCD_MAX_BANDS);
    assert_int_equal(sccd_test_assert_count(), 7);
    /* Bad targets and a NULL sweep. */
    assert_false(sccd_sweep2_vs_point(&w, (sccd_v2){NAN, 0}));
    assert_false(sccd_sweep2_vs_circle(&w, (sccd_circle){{0, 0}, -1}));
    assert_false(sccd_sweep2_vs_box(&w, (sccd_box2){{0, 0}, {2, 0}, {1, 1}}));
    assert_false(sccd_sweep2_vs_capsule(&w, (sccd_capsule2){{NAN, 0}, {0, 0}, 1}));
    assert_false(sccd_sweep2_vs_poly(&w, &concave));
    assert_false(sccd_sweep2_vs_point(NULL, (sccd_v2){0, 0}));
    sccd_sweep2_box(NULL, (sccd_v2){1, 1}, good, 1);
    sccd_sweep2_circle(NULL, (sccd_circle){{0, 0}, 1}, good, 1);
    sccd_sweep2_capsule(NULL, (sccd_capsule2){{0, 0}, {1, 0}, 1}, good, 1);
    sccd_sweep2_poly(NULL, &concave, good, 1);
    assert_int_equal(sccd_test_assert_count(), 17);
    sccd_set_assert_handler(NULL);
}

/* Brute force for convex_silhouette_vertex: the sines of the angles from
 * vertex i's direction to every other vertex; both signs beyond margin
 * means the polygon lies on both sides of the line through the origin and
 * the vertex (not on its silhouette), all of one sign beyond it means on it. */
static void side_sines(const sccd_v2 *v, int n, int i, sccd_real *lo, sccd_real *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int j = 0; j < n; ++j) {
        sccd_real d = sccd_v2_len(v[i]) * sccd_v2_len(v[j]);
        if (j == i || !(d > 0.0))
            continue;
        sccd_real sn = sccd_v2_cross(v[i], v[j]) / d;
        *lo = sccd_min(*lo, sn);
        *hi = sccd_max(*hi, sn);
    }
}

static void test_silhouette_vertex(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(141);
    int dropped = 0, kept = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        sccd_v2 pts[SCCD_POLY_MAX], v[2 * SCCD_POLY_MAX];
        int np = 3 + sccd_rng_int(&g, SCCD_POLY_MAX - 2);
        sccd_v2 c = sccd_rng_v2(&g, 3.0);
        for (int k = 0; k < np; ++k)
            pts[k] = sccd_v2_add(c, sccd_rng_v2(&g, 2.0));
        int n = sccd_hull2(pts, np, v);
        if (n < 3)
            continue;
        switch (sccd_rng_int(&g, 4)) { /* the origin at a vertex, on an edge, at the centroid, or anywhere */
        case 0: c = v[sccd_rng_int(&g, n)]; break;
        case 1: c = sccd_v2_lerp(v[0], v[1], sccd_rng_uniform(&g, 0.0, 1.0)); break;
        case 2: c = sccd_v2_scale(sccd_v2_add(sccd_v2_add(v[0], v[1]), v[2]), 1.0 / 3.0); break;
        default: c = (sccd_v2){0.0, 0.0};
        }
        for (int k = 0; k < n; ++k)
            v[k] = sccd_v2_sub(v[k], c);
        for (int i = 0; i < n; ++i) {
            sccd_real lo, hi;
            side_sines(v, n, i, &lo, &hi);
            bool on = convex_silhouette_vertex(v, n, i);
            if (!on) /* dropped: the polygon is truly on both sides */
                assert_true(lo < -1e-10 && hi > 1e-10);
            if (lo > -1e-12 || hi < 1e-12) /* on one side: it must be kept */
                assert_true(on);
            dropped += !on;
            kept += on;
        }
    }
    assert_true(dropped > 1000 && kept > 1000);
    /* The origin inside a square: no vertex; at a corner or an edge's middle: the neighbours. */
    sccd_v2 sq[4] = {{1.0, -1.0}, {1.0, 1.0}, {-1.0, 1.0}, {-1.0, -1.0}};
    for (int i = 0; i < 4; ++i)
        assert_false(convex_silhouette_vertex(sq, 4, i));
    sccd_v2 corner[4] = {{0.0, 0.0}, {2.0, 0.0}, {2.0, 2.0}, {0.0, 2.0}};
    assert_true(convex_silhouette_vertex(corner, 4, 1) && convex_silhouette_vertex(corner, 4, 3));
    assert_false(convex_silhouette_vertex(corner, 4, 2));
    sccd_v2 edge[4] = {{-1.0, 0.0}, {1.0, 0.0}, {1.0, 2.0}, {-1.0, 2.0}};
    assert_true(convex_silhouette_vertex(edge, 4, 0) && convex_silhouette_vertex(edge, 4, 1));
}

/* sccd_gap_direction: a unit vector whose angle from u, counter-clockwise,
 * lies inside the gap (the middle half of it, or within rounding of a tiny
 * one), over random, tiny, near-π and near-2π gaps. */
static void test_gap_direction(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(142);
    static const sccd_real special[] = {0.0, 1e-300, 1e-12, 1e-6, 0.9 * SCCD_PI, SCCD_PI - 1e-9, SCCD_PI,
                                        SCCD_PI + 1e-9, 1.1 * SCCD_PI, 2.0 * SCCD_PI - 1e-9};
    for (int trial = 0; trial < 200000; ++trial) {
        sccd_real w = trial < 10000 ? special[trial % 10] : sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI);
        sccd_real a = sccd_rng_uniform(&g, -SCCD_PI, SCCD_PI);
        sccd_dir u = sccd_dir_of((sccd_v2){cos(a), sin(a)}), v = sccd_dir_of((sccd_v2){cos(a + w), sin(a + w)});
        assert_true(fabs(u.angle - atan2(u.v.y, u.v.x)) <= 1e-15);
        sccd_v2 d = sccd_gap_direction(u.v, v.v, w);
        assert_true(fabs(sccd_v2_len(d) - 1.0) <= 1e-15);
        sccd_real at = atan2(sccd_v2_cross(u.v, d), sccd_v2_dot(u.v, d));
        if (at < -1e-9)
            at += 2.0 * SCCD_PI;
        assert_true(at >= sccd_min(0.25 * w, w - 1e-12) - 1e-12 && at <= sccd_max(0.75 * w, 1e-12) + 1e-12);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_never_misses),      cmocka_unit_test(test_pivot_on_box_boundary),
        cmocka_unit_test(test_contains_exact_sweep),
        cmocka_unit_test(test_truth_vs_dense),    cmocka_unit_test(test_shape_tests_consistent),
        cmocka_unit_test(test_bands_tighten),     cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_bad_input),         cmocka_unit_test(test_silhouette_vertex),
        cmocka_unit_test(test_gap_direction),     cmocka_unit_test(test_targets_beyond_range),
        cmocka_unit_test(test_scaled_sweeps), cmocka_unit_test(test_translated_sweeps),
    };
    return cmocka_run_group_tests_name("sweep2", tests, NULL, NULL);
}
