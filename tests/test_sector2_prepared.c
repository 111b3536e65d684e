/* Prepared 2D sectors (sccd_sector2_prepare and the sccd_sector2_prepared_vs_*
 * tests): on random and degenerate sectors and shapes the prepared answer
 * equals the one-shot answer and agrees with the certified branch-and-bound
 * oracle (tests/oracles/truth2.c), also for shapes placed just across the
 * radial edges and arcs; the polygon check equals its pairwise definition;
 * bad sectors are rejected when prepared and meet nothing; a sweep whose
 * bands were set by hand is still tested. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "truth2.h"
#include "../core/src/trig.h"

#define N_RANDOM 20000
#define BNB_NODES 20000

/* Sectors with half angles at and near 0, π/2 and π, r = 0, r = R, R = 0. */
static sccd_sector2 random_sector(sccd_rng *g)
{
    static const sccd_real special[] = {0.0, 1e-7, 0.5 * SCCD_PI - 1e-7, 0.5 * SCCD_PI, 0.5 * SCCD_PI + 1e-7,
                                        SCCD_PI - 1e-7, SCCD_PI};
    sccd_real half = sccd_rng_int(g, 3) == 0 ? special[sccd_rng_int(g, 7)] : sccd_rng_uniform(g, 0.0, SCCD_PI);
    sccd_sector2 s = {sccd_rng_v2(g, 5.0), sccd_rng_unit2(g), half, 0.0, sccd_rng_uniform(g, 0.5, 5.0)};
    int kind = sccd_rng_int(g, 10);
    s.r = kind < 3 ? 0.0 : (kind == 3 ? s.R : sccd_rng_uniform(g, 0.0, s.R));
    if (kind == 9)
        s.r = s.R = 0.0;
    if (sccd_rng_int(g, 5) == 0) /* axis-aligned: exact zeros in the canonical frame */
        s.a = sccd_rng_int(g, 2) ? (sccd_v2){1.0, 0.0} : (sccd_v2){0.0, -1.0};
    return s;
}

static sccd_v2 centre_near(sccd_rng *g, const sccd_sector2 *s)
{
    if (sccd_rng_int(g, 10) == 0)
        return s->o;
    return sccd_v2_mad(s->o, sccd_rng_uniform(g, 0.0, s->R + 4.0), sccd_rng_unit2(g));
}

static sccd_real shape_distance(const void *ctx, sccd_v2 p) { return sccd_truth2_distance(ctx, p); }

/* The oracle's verdict must not contradict got (its band of doubt is
 * 0.5 to 2 times the documented tolerance). */
static void check_oracle(const sccd_sector2 *s, const sccd_shape2 *x, bool got)
{
    sccd_v2 v[SCCD_POLY_MAX];
    sccd_real rad;
    int n = sccd_truth2_core(x, v, &rad);
    sccd_real L = sccd_max(s->R, rad);
    for (int i = 0; i < n; ++i)
        L = sccd_max(L, sccd_v2_dist(v[i], s->o));
    sccd_truth2_verdict t = sccd_truth2_sector_bnb(s, shape_distance, x, 0.5 * SCCD_EPS * L, 2.0 * SCCD_EPS * L,
                                                   BNB_NODES);
    if ((t == SCCD_TRUTH2_OVERLAP && !got) || (t == SCCD_TRUTH2_SEPARATED && got))
        fail_msg("%s: o=(%.17g,%.17g) a=(%.17g,%.17g) half=%.17g r=%.17g R=%.17g", got ? "false overlap" : "missed",
                 s->o.x, s->o.y, s->a.x, s->a.y, s->half_angle, s->r, s->R);
}

/* Prepared and one-shot answers for shape x; they must be equal. */
static bool both_answers(const sccd_sector2 *s, const sccd_sector2_prepared *p, const sccd_shape2 *x)
{
    bool one = false, pre = false;
    switch (x->type) {
    case SCCD_SHAPE_CIRCLE:
        one = sccd_sector2_vs_circle(s, x->circle);
        pre = sccd_sector2_prepared_vs_circle(p, x->circle);
        break;
    case SCCD_SHAPE_CAPSULE:
        one = sccd_sector2_vs_capsule(s, x->capsule);
        pre = sccd_sector2_prepared_vs_capsule(p, x->capsule);
        break;
    case SCCD_SHAPE_BOX:
        one = sccd_sector2_vs_box(s, x->box);
        pre = sccd_sector2_prepared_vs_box(p, x->box);
        break;
    case SCCD_SHAPE_POLY:
        one = sccd_sector2_vs_poly(s, &x->poly);
        pre = sccd_sector2_prepared_vs_poly(p, &x->poly);
        sccd_poly2_prepared q; /* the polygon prepared too */
        assert_true(sccd_poly2_prepare(&q, &x->poly));
        assert_true(sccd_sector2_prepared_vs_prepared_poly(p, &q) == pre);
        /* The same points unordered, as a hull. */
        sccd_v2 rev[SCCD_POLY_MAX];
        for (int i = 0; i < x->poly.n; ++i)
            rev[i] = x->poly.v[(3 * i) % x->poly.n];
        assert_true(sccd_sector2_prepared_vs_convex(p, rev, x->poly.n, x->poly.r) ==
                    sccd_sector2_vs_convex(s, rev, x->poly.n, x->poly.r));
        break;
    }
    assert_true(one == pre);
    return pre;
}

static void random_shapes(sccd_shape_type type, uint64_t seed)
{
    sccd_rng g = sccd_rng_make(seed);
    int hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_shape2 x = sccd_truth2_random_shape(&g, type, centre_near(&g, &s), 3.0);
        bool got = both_answers(&s, &p, &x);
        hits += got;
        check_oracle(&s, &x, got);
    }
    assert_true(hits > N_RANDOM / 5 && hits < N_RANDOM * 4 / 5);
}

static void test_circle(void **state) { (void)state; random_shapes(SCCD_SHAPE_CIRCLE, 201); }
static void test_box(void **state) { (void)state; random_shapes(SCCD_SHAPE_BOX, 202); }
static void test_capsule(void **state) { (void)state; random_shapes(SCCD_SHAPE_CAPSULE, 203); }
static void test_poly(void **state) { (void)state; random_shapes(SCCD_SHAPE_POLY, 204); }

/* Points against the closed-form polar distance of truth2 (independent of
 * the wedge's half-planes) and the one-shot test, and points placed on and
 * just off the radial edges and arcs, where the wedge side decides. */
static void test_point(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(205);
    int hits = 0;
    for (int i = 0; i < 5 * N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_v2 q = centre_near(&g, &s);
        if (i % 2) { /* on an edge or an arc, or 1e-6 off it */
            sccd_real phi = sccd_rng_int(&g, 2) ? s.half_angle : sccd_rng_uniform(&g, -s.half_angle, s.half_angle);
            phi = sccd_rng_int(&g, 2) ? phi : -phi;
            sccd_real rad = sccd_rng_int(&g, 2) ? sccd_rng_uniform(&g, s.r, s.R) : (sccd_rng_int(&g, 2) ? s.r : s.R);
            sccd_v2 u = sccd_rot2_apply(sccd_rot2_make(phi), s.a);
            q = sccd_v2_mad(sccd_v2_mad(s.o, rad, u), sccd_rng_int(&g, 2) ? 1e-6 : 0.0, sccd_rng_unit2(&g));
        }
        if (i % 4 == 2) /* on the ray opposite the centre direction */
            q = sccd_v2_mad(s.o, -sccd_rng_uniform(&g, s.r, s.R), s.a);
        bool got = sccd_sector2_prepared_vs_point(&p, q);
        assert_true(got == sccd_sector2_vs_point(&s, q));
        hits += got;
        sccd_real L = sccd_max(s.R, sccd_v2_dist(q, s.o)), d = sccd_truth2_sector_distance(&s, q);
        if (d <= 0.5 * SCCD_EPS * L)
            assert_true(got);
        if (d > 2.0 * SCCD_EPS * L)
            assert_false(got);
    }
    assert_true(hits > N_RANDOM / 2);
}

/* The prepared cosine and sine of the half angle (computed without libm)
 * agree with libm's to a few units in the last place, over [0, π] and at
 * its special points; so does the turn sccd_sector2_from_edges measures. */
static void test_cos_sin(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(207);
    for (int i = 0; i < 100 * N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        if (i % 3 == 0) /* multiples of π/4, where the reduction switches quadrant, and next to them */
            s.half_angle = sccd_min(SCCD_PI, sccd_rng_int(&g, 5) * (0.25 * SCCD_PI) * (1.0 + (sccd_rng_int(&g, 3) - 1) * 1e-16));
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        assert_true(fabs(p.edge.c - cos(s.half_angle)) <= 4e-16 && fabs(p.edge.s - sin(s.half_angle)) <= 4e-16);
        /* the rough and coarse ones the one-shot tests decide by, within their bounds */
        sccd_rot2 rough = sccd_cos_sin_half_turn_rough(s.half_angle);
        assert_true(fabs(rough.c - cos(s.half_angle)) <= 1.6e-4 && fabs(rough.s - sin(s.half_angle)) <= 2.5e-5);
        sccd_rot2 coarse = sccd_cos_sin_half_turn_coarse(s.half_angle);
        assert_true(fabs(coarse.c - cos(s.half_angle)) <= 6.8e-5 && fabs(coarse.s - sin(s.half_angle)) <= 6.0e-4 &&
                    hypot(coarse.c - cos(s.half_angle), coarse.s - sin(s.half_angle)) <= 6.1e-4);
    }
    /* The angle of a vector (also without libm): the turn between a sector's
     * edges, on random directions, at the octant boundaries and beside them,
     * and on the negative x axis, where the sign of a zero y matters. */
    for (int i = 0; i < 100 * N_RANDOM; ++i) {
        sccd_v2 u1 = sccd_rng_unit2(&g), u2 = sccd_rng_unit2(&g);
        if (i % 3 == 0) {
            sccd_real phi = sccd_rng_int(&g, 8) * (0.25 * SCCD_PI) + (sccd_rng_int(&g, 3) - 1) * 1e-15;
            u2 = sccd_rot2_apply(sccd_rot2_make(phi), u1);
        }
        if (i % 17 == 0)
            u1 = (sccd_v2){1.0, 0.0}, u2 = (sccd_v2){-1.0, sccd_rng_int(&g, 2) ? 0.0 : -0.0};
        sccd_sector2 s = sccd_sector2_from_edges((sccd_v2){0, 0}, u1, u1, u2, u2);
        sccd_v2 n1 = sccd_v2_normalize(u1), n2 = sccd_v2_normalize(u2); /* as from_edges takes them */
        sccd_real turn = atan2(sccd_v2_cross(n1, n2), sccd_v2_dot(n1, n2));
        /* on the circle: a turn of 0 and one of 2π are the same edges */
        assert_true(fabs(remainder(2.0 * s.half_angle - turn, 2.0 * SCCD_PI)) <= 1e-15);
    }
}

/* Shapes just across the radial edges' lines and the arcs of wide (two
 * convex halves) and narrow wedges, where the prepared tests' support and
 * disc early-outs decide: prepared == one-shot, and never against the
 * certified oracle. */
static void test_near_edges(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(208);
    static const sccd_shape_type types[] = {SCCD_SHAPE_CIRCLE, SCCD_SHAPE_BOX, SCCD_SHAPE_CAPSULE, SCCD_SHAPE_POLY};
    int hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        if (i % 2) /* wide: the wedge is the union of its edges' half-planes */
            s.half_angle = sccd_rng_uniform(&g, 0.5 * SCCD_PI, SCCD_PI);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        /* A point of an edge (or an arc), pushed off it along the edge's
         * normal or radially by a gap from far inside to well outside. */
        sccd_real side = sccd_rng_int(&g, 2) ? 1.0 : -1.0, size = sccd_rng_uniform(&g, 0.01, 1.5);
        sccd_real phi = sccd_rng_int(&g, 3) ? side * s.half_angle : sccd_rng_uniform(&g, -s.half_angle, s.half_angle);
        sccd_v2 u = sccd_rot2_apply(sccd_rot2_make(phi), s.a), n = sccd_v2_scale(sccd_v2_perp(u), side);
        sccd_real rad = sccd_rng_uniform(&g, s.r - 0.5, s.R + 0.5);
        sccd_v2 on = sccd_v2_mad(s.o, rad, u), dir = sccd_rng_int(&g, 2) ? n : u;
        sccd_real gap = size * sccd_rng_uniform(&g, -1.0, 2.0);
        sccd_shape2 x = sccd_truth2_random_shape(&g, types[i % 4], sccd_v2_mad(on, gap, dir), size);
        bool got = both_answers(&s, &p, &x);
        hits += got;
        check_oracle(&s, &x, got);
    }
    assert_true(hits > N_RANDOM / 5 && hits < N_RANDOM * 4 / 5);
}

/* The one-shot point, circle, box and capsule tests decide most inputs by
 * a coarse cosine and sine of the half angle, with margins (1e-3 of the
 * distance) above its error: points at angles 1e-7 to 3e-2 off an edge,
 * either side, and discs whose radius misses their true distance to the
 * sector (the closed-form polar one of truth2) by 1e-7 to 1e-2 of it,
 * either way, so every such margin is crossed: the answer is the prepared
 * test's, and the true one outside the tolerance's band. Boxes and
 * capsules whose discs are those discs: the prepared test's answer. */
static void test_rough_band(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(209);
    int hits = 0;
    for (int i = 0; i < 5 * N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_real off = pow(10.0, sccd_rng_uniform(&g, -7.0, -1.5)) * (sccd_rng_int(&g, 2) ? 1.0 : -1.0);
        sccd_real phi = (s.half_angle + off) * (sccd_rng_int(&g, 2) ? 1.0 : -1.0);
        sccd_v2 q = sccd_v2_mad(s.o, sccd_rng_uniform(&g, 0.5 * s.r, s.R + 0.5), sccd_rot2_apply(sccd_rot2_make(phi), s.a));
        bool at = sccd_sector2_vs_point(&s, q);
        assert_true(at == sccd_sector2_prepared_vs_point(&p, q));
        sccd_real L = sccd_max(s.R, sccd_v2_dist(q, s.o)), d = sccd_truth2_sector_distance(&s, q);
        if (d > 2.0 * SCCD_EPS * L)
            assert_false(at);
        if (d <= 0.5 * SCCD_EPS * L)
            assert_true(at);
        if (d <= 1e-6 * L)
            continue;
        sccd_real by = pow(10.0, sccd_rng_uniform(&g, -7.0, -2.0)), rho = d * (sccd_rng_int(&g, 2) ? 1.0 + by : 1.0 - by);
        bool got = sccd_sector2_vs_circle(&s, (sccd_circle){q, rho});
        assert_true(got == sccd_sector2_prepared_vs_circle(&p, (sccd_circle){q, rho}));
        if (fabs(rho - d) > 2.0 * SCCD_EPS * L) /* beyond the tolerance's band */
            assert_true(got == (rho > d));
        hits += got;
        /* Boxes and capsules about q whose inner or outer disc (the ones
         * the one-shot tests decide by) has that radius: the prepared answers. */
        sccd_rot2 turn = sccd_rot2_make(sccd_rng_uniform(&g, 0.0, 6.3));
        sccd_real f = sccd_rng_uniform(&g, 0.05, 0.95);
        sccd_box2 boxes[2] = {{q, turn, {rho, rho * sccd_rng_uniform(&g, 1.0, 3.0)}},
                              {q, turn, {rho * f, rho * sqrt(1.0 - f * f)}}};
        sccd_v2 u = sccd_rot2_apply(turn, (sccd_v2){1.0, 0.0});
        sccd_real half = rho * sccd_rng_uniform(&g, 0.1, 3.0);
        sccd_capsule2 caps[2] = {{sccd_v2_mad(q, -half, u), sccd_v2_mad(q, half, u), rho},
                                 {sccd_v2_mad(q, -(1.0 - f) * rho, u), sccd_v2_mad(q, (1.0 - f) * rho, u), f * rho}};
        for (int k = 0; k < 2; ++k) {
            assert_true(sccd_sector2_vs_box(&s, boxes[k]) == sccd_sector2_prepared_vs_box(&p, boxes[k]));
            assert_true(sccd_sector2_vs_capsule(&s, caps[k]) == sccd_sector2_prepared_vs_capsule(&p, caps[k]));
        }
    }
    assert_true(hits > N_RANDOM / 2 && hits < 2 * N_RANDOM);
}

/* The one-shot point test's annulus early-out takes the world offset d from
 * the pivot for the canonical point q, |q| = |a|·|d|, and a is unit only
 * within 1e-6; its coarse side decides points that are not too near the
 * pivot. Points on the arcs (about axis directions, where |d|₁ = |d|: the
 * margin's least) or off them by 0 to 1e-6 of |d| or by a fraction of the
 * tolerance, SCCD_EPS·R (on the inner arc of sectors with r down to
 * 1e-6·R, where that is the larger), for sectors whose |a|² is 1 ± 0.99e-6;
 * points 1e-8·R to 1e-4·R from the pivot, 1e-3 to 1e-2 rad outside an edge
 * (within the tolerance of the edge near 1e-7·R); and circles about them:
 * the one-shot answers are the prepared ones, with no check firing. So
 * they are on valid sectors beyond the one-shot check's scene (R 1e308,
 * and a hole 1e200 across, where the square of a distance along an edge
 * overflows), which it leaves to the exact part, and on ones so small
 * (1e-170 across, or a point) that the squares of distances underflow,
 * where its margins' floors leave points and circles to the exact part. */
static void test_one_shot_margins(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(210);
    static const sccd_v2 axes[4] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
    const sccd_real rel[] = {0.0, 1e-12, 1e-9, 1e-8, 1e-7, 3e-7, 5e-7, 7e-7, 1e-6};
    int hits = 0, n = 0;
    for (int i = 0; i < 5 * N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        if (s.R == 0.0)
            continue;
        if (i % 4 == 1) /* a small hole: the tolerance SCCD_EPS·R decides on its arc */
            s.r = s.R * pow(10.0, sccd_rng_uniform(&g, -6.0, -2.0));
        sccd_v2 dir = axes[sccd_rng_int(&g, 4)];
        sccd_real phi = s.half_angle * sccd_rng_uniform(&g, -0.9, 0.9);
        sccd_real k = sqrt(1.0 + sccd_rng_uniform(&g, -0.99e-6, 0.99e-6));
        s.a = sccd_v2_scale(sccd_rot2_apply(sccd_rot2_make(phi), dir), k); /* dir at −phi from a */
        assert_true(sccd_is_valid_sector2(&s));
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_real arc = sccd_rng_int(&g, 2) ? s.R : s.r, sign = sccd_rng_int(&g, 2) ? 1.0 : -1.0;
        sccd_real off = sccd_rng_int(&g, 2) ? rel[sccd_rng_int(&g, 9)] * arc
                                            : sccd_rng_uniform(&g, 0.0, 2.0) * SCCD_EPS * s.R;
        sccd_v2 q = sccd_v2_mad(s.o, (arc + sign * off) / k, dir); /* |q| in the canonical frame: arc ± off */
        if (i % 3 == 2) { /* near the pivot, just outside an edge */
            sccd_real ang = (s.half_angle + sccd_rng_uniform(&g, 1e-3, 1e-2)) * (sccd_rng_int(&g, 2) ? 1.0 : -1.0);
            sccd_real rho = s.R * pow(10.0, sccd_rng_uniform(&g, -8.0, -4.0));
            q = sccd_v2_mad(s.o, rho / k, sccd_rot2_apply(sccd_rot2_make(ang), sccd_v2_scale(s.a, 1.0 / k)));
        }
        bool pre = sccd_sector2_prepared_vs_point(&p, q), one = sccd_sector2_vs_point(&s, q);
        if (one != pre)
            fail_msg("case %d: one-shot %d, prepared %d (th %.17g r %.17g R %.17g)", i, one, pre, s.half_angle, s.r,
                     s.R);
        sccd_circle c = {q, off * sccd_rng_uniform(&g, 0.0, 2.0)};
        assert_true(sccd_sector2_vs_circle(&s, c) == sccd_sector2_prepared_vs_circle(&p, c));
        /* A box whose outer disc reaches the arc as q does (its centre |h|
         * farther along dir), a corner pointing at the pivot or away. */
        sccd_v2 h = {sccd_rng_uniform(&g, 0.1, 1.0), sccd_rng_uniform(&g, 0.1, 1.0)};
        h = sccd_v2_scale(h, arc * pow(10.0, sccd_rng_uniform(&g, -3.0, 0.0)) / sccd_v2_len(h));
        sccd_real turn = atan2(dir.y, dir.x) - atan2(h.y, h.x) + (sign > 0.0 ? SCCD_PI : 0.0);
        sccd_box2 b = {sccd_v2_mad(q, sign * sccd_v2_len(h) / k, dir), sccd_rot2_make(turn), h};
        assert_true(sccd_sector2_vs_box(&s, b) == sccd_sector2_prepared_vs_box(&p, b));
        hits += pre;
        n++;
    }
    assert_true(hits > n / 5 && hits < 4 * n / 5);
    /* At the range's limit, points, circles and boxes as large as 1e300 anywhere within 1e300: both routes agree. */
    const sccd_sector2 huge = {{1.0, 2.0}, {1.0, 0.0}, 1.0, 0.0, SCCD_RANGE_MAX};
    sccd_sector2_prepared p;
    assert_true(sccd_sector2_prepare(&p, &huge));
    for (int i = 0; i < 100; ++i) {
        sccd_v2 pt = sccd_rng_v2(&g, 1e300);
        sccd_circle c = {pt, sccd_rng_uniform(&g, 0.0, 1e300)};
        assert_true(sccd_sector2_vs_point(&huge, pt) == sccd_sector2_prepared_vs_point(&p, pt));
        assert_true(sccd_sector2_vs_circle(&huge, c) == sccd_sector2_prepared_vs_circle(&p, c));
        sccd_box2 b = {pt, sccd_rot2_make(sccd_rng_uniform(&g, 0.0, 6.3)), {sccd_rng_uniform(&g, 0.0, 1e300), sccd_rng_uniform(&g, 0.0, 1e300)}};
        assert_true(sccd_sector2_vs_box(&huge, b) == sccd_sector2_prepared_vs_box(&p, b));
    }
    /* Circles 1e-165 to 1e-155 from tiny sectors, of radius their distance
     * within 1e-2 of it, and their centres. */
    for (int i = 0; i < 20000; ++i) {
        sccd_real R = i % 2 ? 0.0 : 1e-170;
        sccd_sector2 tiny = {{0.0, 0.0}, sccd_rng_unit2(&g), sccd_rng_uniform(&g, 0.0, SCCD_PI), 0.0, R};
        assert_true(sccd_sector2_prepare(&p, &tiny));
        sccd_real far = pow(10.0, sccd_rng_uniform(&g, -165.0, -155.0));
        sccd_circle c = {sccd_v2_scale(sccd_rng_unit2(&g), far), 0.0};
        c.r = sccd_max(0.0, sccd_truth2_sector_distance(&tiny, c.c) * (1.0 + sccd_rng_uniform(&g, -1e-2, 1e-2)));
        assert_true(sccd_sector2_vs_point(&tiny, c.c) == sccd_sector2_prepared_vs_point(&p, c.c));
        assert_true(sccd_sector2_vs_circle(&tiny, c) == sccd_sector2_prepared_vs_circle(&p, c));
    }
    /* Points near the pivot of a vast hole and circles about them. */
    const sccd_sector2 vast = {{1.0, 2.0}, {0.6, 0.8}, 1.0, 0.5 * SCCD_RANGE_MAX, SCCD_RANGE_MAX};
    assert_true(sccd_sector2_prepare(&p, &vast));
    for (int i = 0; i < 1000; ++i) {
        sccd_v2 pt = sccd_rng_v2(&g, pow(10.0, sccd_rng_uniform(&g, 0.0, 50.0)));
        sccd_circle c = {pt, sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_RANGE_MAX)};
        assert_true(sccd_sector2_vs_point(&vast, c.c) == sccd_sector2_prepared_vs_point(&p, c.c));
        assert_true(sccd_sector2_vs_circle(&vast, c) == sccd_sector2_prepared_vs_circle(&p, c));
        sccd_box2 b = {pt, sccd_rot2_make(sccd_rng_uniform(&g, 0.0, 6.3)), {sccd_rng_uniform(&g, 0.0, 1.5 * SCCD_RANGE_MAX),
                                                                             sccd_rng_uniform(&g, 0.0, 1.5 * SCCD_RANGE_MAX)}};
        assert_true(sccd_sector2_vs_box(&vast, b) == sccd_sector2_prepared_vs_box(&p, b));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* The polygon check (sccd_is_valid_poly2, which the prepared polygon test
 * runs) against its definition, every vertex on or left of every edge
 * within w·(1e-12·w + 1e-13·m), w the width and m the largest |coordinate|, in
 * units of the power of two at or above m (exact), checked pair by pair
 * here: on convex polygons in both orders, with collinear, repeated and
 * nudged vertices, stars that wind twice (every turn left), axis-aligned
 * edges, tiny and huge scales, and small polygons far from the origin. */
static bool valid_by_definition(const sccd_poly2 *s)
{
    sccd_real scale = 0.0;
    for (int i = 0; i < s->n; ++i)
        scale = sccd_max(scale, sccd_max(fabs(s->v[i].x), fabs(s->v[i].y)));
    int e;
    frexp(scale, &e);
    sccd_v2 v[SCCD_POLY_MAX];
    sccd_real lox = INFINITY, hix = -INFINITY, loy = INFINITY, hiy = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        v[i] = (sccd_v2){ldexp(s->v[i].x, -e), ldexp(s->v[i].y, -e)};
        lox = fmin(lox, v[i].x), hix = fmax(hix, v[i].x), loy = fmin(loy, v[i].y), hiy = fmax(hiy, v[i].y);
    }
    sccd_real w = fmax(hix - lox, hiy - loy), tol = w * (1e-12 * w + 1e-13 * ldexp(scale, -e));
    for (int i = 0; i < s->n; ++i)
        for (int j = 0; j < s->n; ++j) {
            sccd_v2 a = v[i], b = v[(i + 1) % s->n];
            if (sccd_v2_cross(sccd_v2_sub(b, a), sccd_v2_sub(v[j], a)) < -tol)
                return false;
        }
    return true;
}

static sccd_poly2 random_polygon(sccd_rng *g, int kind)
{
    static const sccd_real scales[] = {1e-150, 1e-3, 1.0, 1e3, 1e150};
    sccd_real scale = scales[sccd_rng_int(g, 5)];
    sccd_poly2 p = {3 + sccd_rng_int(g, SCCD_POLY_MAX - 2), {{0}}, 0.0};
    sccd_v2 c = sccd_v2_scale(sccd_rng_v2(g, sccd_rng_int(g, 4) ? 3.0 : 3e6), scale); /* a quarter far away */
    sccd_real phase = sccd_rng_int(g, 4) ? sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI) : 0.25 * SCCD_PI;
    int step = kind == 1 && p.n >= 5 ? 2 : 1; /* a star: every other vertex, winding twice */
    if (step == 2 && p.n % 2 == 0)
        p.n--;
    for (int k = 0; k < p.n; ++k) {
        sccd_real t = phase + 2.0 * SCCD_PI * (k * step % p.n) / p.n;
        p.v[k] = sccd_v2_mad(c, scale, (sccd_v2){cos(t), sin(t)});
    }
    int j = sccd_rng_int(g, p.n), k = (j + 1) % p.n;
    static const sccd_real nudges[] = {1e-13, 1e-12, 1e-11, 0.3}; /* about the tolerance, and far beyond */
    if (kind == 2) /* a vertex pushed in or out */
        p.v[j] = sccd_v2_mad(c, 1.0 + sccd_rng_uniform(g, -1.0, 1.0) * nudges[sccd_rng_int(g, 4)],
                             sccd_v2_sub(p.v[j], c));
    if (kind == 3) /* a vertex moved onto its neighbour, or to the midpoint of its edge */
        p.v[j] = sccd_rng_int(g, 2) ? p.v[k] : sccd_v2_lerp(p.v[j], p.v[(j + 2) % p.n], 0.5);
    if (kind == 4) /* clockwise */
        for (int a = 0, b = p.n - 1; a < b; ++a, --b) {
            sccd_v2 t = p.v[a];
            p.v[a] = p.v[b];
            p.v[b] = t;
        }
    if (kind == 5) /* an axis-aligned square */
        p = (sccd_poly2){4, {{0, 0}, {scale, 0}, {scale, scale}, {0, scale}}, 0.0};
    return p;
}

static void test_poly_validity(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(209);
    int valid = 0;
    for (int i = 0; i < 20 * N_RANDOM; ++i) {
        sccd_poly2 p = random_polygon(&g, i % 6);
        bool want = valid_by_definition(&p);
        assert_true(sccd_is_valid_poly2(&p) == want);
        valid += want;
    }
    assert_true(valid > 2 * N_RANDOM && valid < 18 * N_RANDOM);
}

/* Prepared polygons (sccd_poly2_prepare) on the polygons of
 * test_poly_validity (collinear, repeated and nudged vertices, stars,
 * clockwise, tiny and huge scales), points and segments, and squares with
 * every edge's middle as a vertex, some rounded, against random sectors:
 * prepared exactly when the check accepts the polygon (the check firing
 * otherwise, once, and the prepared form meeting nothing), with the raw
 * polygon test's answers, and those agree with the oracle at moderate
 * scales. */
static void test_prepared_poly_degenerate(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(212);
    int expected = 0, valid = 0, hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        int kind = i % 8;
        sccd_poly2 poly = {1 + sccd_rng_int(&g, 2), {sccd_rng_v2(&g, 5.0), sccd_rng_v2(&g, 5.0)}, 0.0};
        if (kind < 6)
            poly = random_polygon(&g, kind);
        if (kind == 7) { /* a square with its edges' middles: every other vertex collinear */
            sccd_v2 c = sccd_rng_v2(&g, 5.0);
            sccd_rot2 q = sccd_rot2_make(sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI));
            sccd_real h = sccd_rng_uniform(&g, 0.01, 3.0);
            poly.n = 8;
            for (int k = 0; k < 8; ++k) {
                static const sccd_v2 at[8] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
                poly.v[k] = sccd_v2_add(c, sccd_rot2_apply(q, sccd_v2_scale(at[k], h)));
            }
        }
        if (sccd_rng_int(&g, 3) == 0)
            poly.r = sccd_rng_uniform(&g, 0.0, 1.0);
        sccd_sector2 s = random_sector(&g);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_poly2_prepared q;
        q.ready = true;
        bool ok = sccd_poly2_prepare(&q, &poly);
        assert_true(ok == sccd_is_valid_poly2(&poly));
        assert_true(q.ready == ok);
        bool raw = sccd_sector2_prepared_vs_poly(&p, &poly);
        expected += 2 * !ok; /* the prepare's check and the raw test's */
        assert_true(sccd_sector2_prepared_vs_prepared_poly(&p, &q) == raw);
        assert_int_equal(sccd_test_assert_count(), expected);
        valid += ok;
        hits += raw;
        sccd_real scale = 0.0;
        for (int k = 0; k < poly.n; ++k)
            scale = sccd_max(scale, sccd_max(fabs(poly.v[k].x), fabs(poly.v[k].y)));
        if (ok && scale < 1e4) {
            sccd_shape2 x = {.type = SCCD_SHAPE_POLY, .poly = poly};
            check_oracle(&s, &x, raw);
        }
    }
    assert_true(valid > N_RANDOM / 3 && valid < N_RANDOM * 9 / 10);
    assert_true(hits > N_RANDOM / 20 && hits < valid);
    sccd_set_assert_handler(NULL);
}

/* A random pose: a turn (a rotation unit only within 1e-6 in a third of
 * them: the placed polygon is scaled by up to 5e-7) and a translation to
 * at. */
static sccd_xf2 random_pose(sccd_rng *g, sccd_v2 at)
{
    sccd_rot2 q = sccd_rot2_make(sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI));
    if (sccd_rng_int(g, 3) == 0) {
        sccd_real k = sqrt(1.0 + sccd_rng_uniform(g, -0.99e-6, 0.99e-6));
        q = (sccd_rot2){q.c * k, q.s * k};
    }
    return (sccd_xf2){at, q};
}

/* A polygon prepared in its body's frame (random, with collinear vertices
 * added: the middles of edges) and placed by random poses about random
 * sectors (sccd_poly2_prepared_transform, also in place): the answers
 * agree with the oracle on the placed vertices and equal the raw test's
 * on them wherever the check accepts them (all but a few whose collinear
 * vertices the placing's rounding bent beyond its tolerance). */
static void test_placed_poly(void **state)
{
    (void)state;
    sccd_test_count_asserts(); /* valid input: no check may fire */
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(213);
    int hits = 0, compared = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_poly2 body = sccd_truth2_random_shape(&g, SCCD_SHAPE_POLY, (sccd_v2){0.0, 0.0}, 3.0).poly;
        for (int k = 0; body.n < SCCD_POLY_MAX && k < body.n && sccd_rng_int(&g, 2); k += 2) { /* middles */
            for (int j = body.n; j > k + 1; --j)
                body.v[j] = body.v[j - 1];
            body.v[k + 1] = sccd_v2_lerp(body.v[k], body.v[(k + 2) % (body.n + 1)], 0.5);
            body.n++;
        }
        sccd_poly2_prepared b, w;
        assert_true(sccd_poly2_prepare(&b, &body));
        sccd_xf2 xf = random_pose(&g, centre_near(&g, &s));
        assert_true(sccd_poly2_prepared_transform(&w, &b, xf));
        sccd_poly2 placed = body;
        for (int k = 0; k < body.n; ++k)
            placed.v[k] = sccd_xf2_apply(xf, body.v[k]);
        assert_memory_equal(w.poly.v, placed.v, sizeof placed.v);
        bool got = sccd_sector2_prepared_vs_prepared_poly(&p, &w);
        sccd_shape2 x = {.type = SCCD_SHAPE_POLY, .poly = placed};
        check_oracle(&s, &x, got);
        if (sccd_is_valid_poly2(&placed)) {
            assert_true(sccd_sector2_prepared_vs_poly(&p, &placed) == got);
            compared++;
        }
        assert_true(sccd_poly2_prepared_transform(&b, &b, xf)); /* in place: the same */
        assert_true(b.mean.x == w.mean.x && b.mean.y == w.mean.y && b.inner == w.inner && b.outer == w.outer &&
                    b.ready && b.poly.n == w.poly.n && b.poly.r == w.poly.r);
        assert_memory_equal(b.poly.v, w.poly.v, sizeof w.poly.v);
        hits += got;
    }
    assert_true(hits > N_RANDOM / 5 && hits < N_RANDOM * 4 / 5);
    assert_true(compared > N_RANDOM * 99 / 100);
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* A polygon placed with its bottom edge flush against S from outside, δ
 * from S along a normal n of a line that holds S on its other side (so δ
 * is the distance, and the true answer is δ ≤ 0): tangent to the outer
 * arc, along the upper radial edge, or through their corner (half angles
 * up to π/2). The edge lies on the body's line y = 0, with one to three
 * more vertices on it (one at the contact point in half of them), in
 * body coordinates exactly collinear or nudged in by up to 1e-13 of its
 * least width (the convexity check's own tolerance is 1e-12 of the
 * width): the placing bends them by its rounding. Contact near the mean's
 * foot on the edge or far from it, or at the polygon's corner (there its
 * farthest vertex from the mean, in some), so the outer disc, the inner
 * disc and the exact path all decide: a hit when the polygon overlaps S
 * by 1e-12 of the scene, a miss when it is 1e-8 of it away. */
static void test_placed_poly_flush(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(214);
    int hits = 0;
    for (int i = 0; i < 30000; ++i) {
        int where = i / 2 % 3; /* arc, edge, corner */
        sccd_real r = sccd_rng_int(&g, 2) ? 0.0 : sccd_rng_uniform(&g, 0.0, 2.0);
        sccd_sector2 s = {sccd_rng_v2(&g, 5.0), sccd_rng_unit2(&g), sccd_rng_uniform(&g, 0.2, 0.5 * SCCD_PI), r,
                          r + sccd_rng_uniform(&g, 0.5, 3.0)};
        sccd_v2 u = sccd_rot2_apply(sccd_rot2_make(s.half_angle), s.a), away = sccd_v2_perp(u), n, c;
        if (where == 0) {
            n = sccd_rot2_apply(sccd_rot2_make(sccd_rng_uniform(&g, -0.9, 0.9) * s.half_angle), s.a);
            c = sccd_v2_mad(s.o, s.R, n);
        } else if (where == 1) {
            n = away;
            c = sccd_v2_mad(s.o, sccd_rng_uniform(&g, s.r + 0.1 * (s.R - s.r), s.R - 0.1 * (s.R - s.r)), u);
        } else {
            sccd_real beta = sccd_rng_uniform(&g, 0.1, 0.5 * SCCD_PI - 0.1);
            n = sccd_v2_add(sccd_v2_scale(u, cos(beta)), sccd_v2_scale(away, sin(beta)));
            c = sccd_v2_mad(s.o, s.R, u);
        }
        sccd_real size = (sccd_rng_int(&g, 2) ? 1.0 : 1e-3) * sccd_rng_uniform(&g, 0.05, 2.0);
        sccd_real a = sccd_rng_int(&g, 4) ? size * sccd_rng_uniform(&g, 0.01, 1.0) : 0.0; /* 0: at a corner */
        sccd_real b = size * sccd_rng_uniform(&g, 0.01, 1.0);
        sccd_poly2 body = {0, {{0}}, 0.0};
        body.v[body.n++] = (sccd_v2){-a, 0.0};
        int extra = 1 + sccd_rng_int(&g, 3);
        sccd_real x = -a;
        for (int k = 0; k < extra; ++k) { /* increasing along the edge, one at 0 in half of them */
            x = k == 0 && sccd_rng_int(&g, 2) ? 0.0 : sccd_rng_uniform(&g, x, b);
            sccd_real nudge = sccd_rng_int(&g, 2) ? 0.0 : sccd_rng_uniform(&g, 0.0, 1e-13) * 0.05 * size; /* width ≥ h ≥ that */
            body.v[body.n++] = (sccd_v2){x, nudge};
        }
        sccd_real h = size * sccd_rng_uniform(&g, 0.05, 1.0);
        body.v[body.n++] = (sccd_v2){b, 0.0};
        body.v[body.n++] = (sccd_v2){b, h};
        body.v[body.n++] = (sccd_v2){sccd_rng_int(&g, 2) ? -a : sccd_rng_uniform(&g, -a, b), h}; /* leaning or not */
        sccd_real L = s.R + sccd_v2_len(s.o) + 4.0 * size, delta = i % 2 ? -1e-12 * L : 1e-8 * L;
        /* The body's −y to −n, its origin to the point δ beyond c; a rotation unit only within 1e-6 in half of
         * them, which scales the polygon about that point (the contact): the same distance. */
        sccd_xf2 xf = {sccd_v2_mad(c, delta, n), sccd_rot2_make(atan2(-n.x, n.y))};
        sccd_real k = sccd_rng_int(&g, 2) ? 1.0 : sqrt(1.0 + sccd_rng_uniform(&g, -0.99e-6, 0.99e-6));
        xf.q = (sccd_rot2){xf.q.c * k, xf.q.s * k};
        sccd_poly2_prepared pb, pw;
        assert_true(sccd_poly2_prepare(&pb, &body));
        assert_true(sccd_poly2_prepared_transform(&pw, &pb, xf));
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        bool got = sccd_sector2_prepared_vs_prepared_poly(&p, &pw);
        assert_true(got == (delta < 0.0));
        if (sccd_is_valid_poly2(&pw.poly))
            assert_true(sccd_sector2_prepared_vs_poly(&p, &pw.poly) == got);
        hits += got;
    }
    assert_int_equal(hits, 15000);
}

/* Misuse of prepared polygons: a bad polygon (NaN or infinite vertex,
 * concave, clockwise, n out of range, a bad radius, none) is refused when
 * prepared (the check fires once, as the raw test's does) and leaves a
 * form that, like a zeroed one, meets nothing and places to nothing
 * without firing again; a bad pose, a missing argument or a placed
 * polygon beyond the doubles fires and meets nothing. */
static void test_prepared_poly_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    const sccd_sector2 all = {{0, 0}, {1, 0}, SCCD_PI, 0.0, 1e3}; /* holds every polygon below */
    sccd_sector2_prepared p;
    assert_true(sccd_sector2_prepare(&p, &all));
    const sccd_poly2 bad[] = {
        {3, {{NAN, 0}, {1, 0}, {0, 1}}, 0.0},  {3, {{0, 0}, {1, 0}, {0, INFINITY}}, 0.0},
        {4, {{0, 0}, {1, 0}, {0.2, 0.2}, {0, 1}}, 0.0}, {3, {{0, 0}, {0, 1}, {1, 0}}, 0.0},
        {0, {{0, 0}}, 0.0}, {-1, {{0, 0}}, 0.0}, {SCCD_POLY_MAX + 1, {{0, 0}}, 0.0},
        {3, {{0, 0}, {1, 0}, {0, 1}}, -1.0}, {3, {{0, 0}, {1, 0}, {0, 1}}, NAN},
    };
    const sccd_xf2 still = sccd_xf2_identity();
    int expected = 0;
    for (size_t i = 0; i <= sizeof bad / sizeof bad[0]; ++i) {
        const sccd_poly2 *poly = i < sizeof bad / sizeof bad[0] ? &bad[i] : NULL;
        sccd_poly2_prepared q, w;
        q.ready = true;
        assert_false(sccd_poly2_prepare(&q, poly));
        assert_false(q.ready);
        assert_false(sccd_sector2_prepared_vs_poly(&p, poly));
        expected += 2;
        assert_int_equal(sccd_test_assert_count(), expected);
        assert_false(sccd_sector2_prepared_vs_prepared_poly(&p, &q));
        w.ready = true;
        assert_false(sccd_poly2_prepared_transform(&w, &q, still));
        assert_false(w.ready);
        assert_false(sccd_sector2_prepared_vs_prepared_poly(&p, &w));
        assert_int_equal(sccd_test_assert_count(), expected); /* refused once: no further check */
    }
    sccd_poly2_prepared zero = {0}, good, w;
    assert_false(sccd_sector2_prepared_vs_prepared_poly(&p, &zero));
    const sccd_poly2 tri = {3, {{0, 0}, {1, 0}, {0, 1}}, 0.0};
    assert_true(sccd_poly2_prepare(&good, &tri));
    assert_true(sccd_sector2_prepared_vs_prepared_poly(&p, &good));
    assert_false(sccd_sector2_prepared_vs_prepared_poly(&(sccd_sector2_prepared){0}, &good));
    assert_int_equal(sccd_test_assert_count(), expected);
    const sccd_xf2 poses[] = {{{NAN, 0}, {1, 0}}, {{0, INFINITY}, {1, 0}}, {{0, 0}, {2, 0}}, {{0, 0}, {NAN, 0}},
                              {{1e308, 0}, {1, 0}}}; /* the last: fine, but the placed polygon overflows */
    const sccd_poly2 huge = {3, {{0, 0}, {1e308, 0}, {0, 1e308}}, 0.0};
    sccd_poly2_prepared big;
    assert_true(sccd_poly2_prepare(&big, &huge));
    for (size_t i = 0; i < sizeof poses / sizeof poses[0]; ++i) {
        const sccd_poly2_prepared *body = i + 1 < sizeof poses / sizeof poses[0] ? &good : &big;
        w.ready = true;
        assert_false(sccd_poly2_prepared_transform(&w, body, poses[i]));
        assert_false(w.ready);
        assert_false(sccd_sector2_prepared_vs_prepared_poly(&p, &w));
    }
    expected += (int)(sizeof poses / sizeof poses[0]);
    assert_int_equal(sccd_test_assert_count(), expected);
    assert_false(sccd_poly2_prepare(NULL, &tri));
    assert_false(sccd_poly2_prepared_transform(NULL, &good, still));
    assert_false(sccd_poly2_prepared_transform(&w, NULL, still));
    assert_false(sccd_sector2_prepared_vs_prepared_poly(NULL, &good));
    assert_false(sccd_sector2_prepared_vs_prepared_poly(&p, NULL));
    expected += 5;
    assert_int_equal(sccd_test_assert_count(), expected);
    sccd_set_assert_handler(NULL);
}

/* A regular polygon with an edge flush against S from outside, the edge's
 * middle δ from S: beyond the outer arc (square to the radius at angle φ
 * within the wedge) or beyond the upper radial edge (along it, its middle
 * at radius t; half angles up to π/2, so that nothing of S lies beyond
 * that edge's line). Its vertices' mean is outside S, but the disc it holds
 * about the mean (the prepared test's inner disc) reaches S when δ ≤ 0:
 * a hit when the polygon overlaps S by 1e-12 of the scene, a miss when it
 * is 1e-8 of it away; polygons of inradius 0.05 to 2 and a thousandth of
 * that; raw, prepared, and prepared about the origin then placed. */
static void test_poly_flush(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(208);
    for (int i = 0; i < 20000; ++i) {
        bool arc = sccd_rng_int(&g, 2);
        sccd_real r = sccd_rng_int(&g, 2) ? 0.0 : sccd_rng_uniform(&g, 0.0, 2.0);
        sccd_real half = arc ? sccd_rng_uniform(&g, 0.2, SCCD_PI - 0.2) : sccd_rng_uniform(&g, 0.2, 0.5 * SCCD_PI);
        sccd_sector2 s = {sccd_rng_v2(&g, 5.0), sccd_rng_unit2(&g), half, r, r + sccd_rng_uniform(&g, 0.5, 3.0)};
        int n = 3 + sccd_rng_int(&g, SCCD_POLY_MAX - 2);
        sccd_real inner = (sccd_rng_int(&g, 2) ? 1.0 : 1e-3) * sccd_rng_uniform(&g, 0.05, 2.0);
        sccd_real L = s.R + sccd_v2_len(s.o) + 4.0 * inner, delta = i % 2 ? -1e-12 * L : 1e-8 * L;
        sccd_v2 out, mid; /* the edge's normal away from S, its middle */
        if (arc) {
            out = sccd_rot2_apply(sccd_rot2_make(sccd_rng_uniform(&g, -0.9, 0.9) * half), s.a);
            mid = sccd_v2_mad(s.o, s.R + delta, out);
        } else {
            sccd_v2 edge = sccd_rot2_apply(sccd_rot2_make(half), s.a);
            sccd_real t = sccd_rng_uniform(&g, s.r + 0.1 * (s.R - s.r), s.R - 0.1 * (s.R - s.r));
            out = sccd_v2_perp(edge); /* left of the upper edge: away from the wedge */
            mid = sccd_v2_mad(sccd_v2_mad(s.o, t, edge), delta, out);
        }
        /* Counter-clockwise from the edge 0 → 1, which faces −out. */
        sccd_v2 c = sccd_v2_mad(mid, inner, out), in = sccd_v2_neg(out), side = sccd_v2_perp(in);
        sccd_real step = 2.0 * SCCD_PI / n, circ = inner / cos(0.5 * step);
        sccd_poly2 poly = {n, {{0}}, 0.0}, body = poly;
        for (int k = 0; k < n; ++k) {
            sccd_real t = (k - 0.5) * step;
            poly.v[k] = sccd_v2_mad(sccd_v2_mad(c, circ * cos(t), in), circ * sin(t), side);
            body.v[k] = (sccd_v2){circ * cos(t), circ * sin(t)};
        }
        assert_true(sccd_is_valid_poly2(&poly));
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        assert_true(sccd_sector2_prepared_vs_poly(&p, &poly) == (delta < 0.0));
        assert_true(sccd_sector2_vs_poly(&s, &poly) == (delta < 0.0));
        /* Prepared, and prepared about the origin then placed (in, side: the body's x, y). */
        sccd_poly2_prepared q, placed;
        assert_true(sccd_poly2_prepare(&q, &poly));
        assert_true(sccd_sector2_prepared_vs_prepared_poly(&p, &q) == (delta < 0.0));
        assert_true(sccd_poly2_prepare(&q, &body));
        assert_true(sccd_poly2_prepared_transform(&placed, &q, (sccd_xf2){c, {in.x, in.y}}));
        assert_true(sccd_sector2_prepared_vs_prepared_poly(&p, &placed) == (delta < 0.0));
    }
}

/* A valid rotation is unit only within 1e-6 (c² + s² − 1), and
 * sccd_rot2_apply then stretches a box by up to 5e-7 of |h|: a box whose
 * one corner lies 1e-8 inside the outer arc, its diagonal along the
 * outward normal (so that its centre is |h|·√(1 + δ) away), is met by the
 * prepared and the one-shot test (a disc of radius |h| about the centre
 * misses the sector by some 4e-7). */
static void test_box_rotation_not_quite_unit(void **state)
{
    (void)state;
    sccd_test_count_asserts(); /* valid input: no check may fire */
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(207);
    for (int i = 0; i < 10000; ++i) {
        sccd_v2 a = sccd_rng_unit2(&g);
        sccd_real r = sccd_rng_uniform(&g, 0.0, 1.0);
        sccd_sector2 s = {sccd_rng_v2(&g, 5.0), a, sccd_rng_uniform(&g, 0.2, SCCD_PI), r, r + sccd_rng_uniform(&g, 0.5, 3.0)};
        sccd_v2 w = {sccd_rng_uniform(&g, 0.5, 1.0), sccd_rng_uniform(&g, 0.5, 1.0)};
        sccd_v2 corner = {sccd_rng_int(&g, 2) ? w.x : -w.x, sccd_rng_int(&g, 2) ? w.y : -w.y};
        /* The rotation taking the corner's direction to −a, scaled to c² + s² = 1 ± 0.99e-6. */
        sccd_v2 to = sccd_v2_neg(a);
        sccd_rot2 q = sccd_rot2_make(atan2(sccd_v2_cross(corner, to), sccd_v2_dot(corner, to)));
        sccd_real k = sqrt(1.0 + (i % 2 ? 0.99e-6 : -0.99e-6));
        q = (sccd_rot2){q.c * k, q.s * k};
        sccd_v2 tip = sccd_v2_mad(s.o, s.R - 1e-8, a); /* inside the sector */
        sccd_box2 b = {sccd_v2_sub(tip, sccd_rot2_apply(q, corner)), q, w};
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        assert_true(sccd_sector2_prepared_vs_box(&p, b));
        assert_true(sccd_sector2_vs_box(&s, b));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* Misuse: a bad sector is refused when prepared (the check fires once), and
 * the prepared form it leaves, like a zeroed one, meets nothing; bad shapes
 * on a good prepared sector are refused too. */
static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_sector2 bad[] = {{{NAN, 0}, {1, 0}, 1.0, 0.0, 2.0}, {{0, 0}, {2, 0}, 1.0, 0.0, 2.0},
                          {{0, 0}, {1, 0}, 4.0, 0.0, 2.0},   {{0, 0}, {1, 0}, -0.1, 0.0, 2.0},
                          {{0, 0}, {1, 0}, 1.0, 3.0, 2.0},   {{0, 0}, {1, 0}, 1.0, 0.0, INFINITY},
                          {{0, 0}, {1, 0}, NAN, 0.0, 2.0},   {{0, 0}, {1, 0}, 1.0, -1.0, 2.0}};
    sccd_sector2_prepared zero = {0};
    sccd_box2 box = {{0.5, 0}, {1, 0}, {1, 1}};
    sccd_capsule2 cap = {{0, 0}, {1, 0}, 1.0};
    sccd_poly2 tri = {3, {{-1, -1}, {1, -1}, {0, 1}}, 0.5};
    int expected = 0;
    for (size_t i = 0; i <= sizeof bad / sizeof bad[0]; ++i) {
        sccd_sector2_prepared p;
        if (i < sizeof bad / sizeof bad[0]) {
            assert_false(sccd_sector2_prepare(&p, &bad[i]));
            expected += 1;
        } else {
            p = zero;
        }
        assert_int_equal(sccd_test_assert_count(), expected);
        assert_false(sccd_sector2_prepared_vs_point(&p, (sccd_v2){0, 0}));
        assert_false(sccd_sector2_prepared_vs_circle(&p, (sccd_circle){{0, 0}, 10}));
        assert_false(sccd_sector2_prepared_vs_box(&p, box));
        assert_false(sccd_sector2_prepared_vs_capsule(&p, cap));
        assert_false(sccd_sector2_prepared_vs_poly(&p, &tri));
        assert_false(sccd_sector2_prepared_vs_convex(&p, tri.v, 3, 1.0));
        assert_int_equal(sccd_test_assert_count(), expected); /* the shapes are good: no further check */
    }
    assert_false(sccd_sector2_prepare(&zero, NULL));
    assert_false(sccd_sector2_prepare(NULL, &bad[0]));
    expected += 2;
    sccd_sector2 good = {{0, 0}, {1, 0}, 1.0, 0.0, 2.0};
    sccd_sector2_prepared p;
    assert_true(sccd_sector2_prepare(&p, &good));
    assert_true(sccd_sector2_prepared_vs_point(&p, (sccd_v2){1, 0}));
    assert_false(sccd_sector2_prepared_vs_point(&p, (sccd_v2){NAN, 0}));
    assert_false(sccd_sector2_prepared_vs_circle(&p, (sccd_circle){{1, 0}, -1}));
    assert_false(sccd_sector2_prepared_vs_box(&p, (sccd_box2){{1, 0}, {1, 0}, {NAN, 1}}));
    assert_false(sccd_sector2_prepared_vs_capsule(&p, (sccd_capsule2){{1, 0}, {INFINITY, 0}, 0}));
    /* A NaN in the span's first coordinate: its |b − a|∞ by sccd_max dropped the NaN and passed. */
    assert_false(sccd_sector2_prepared_vs_capsule(&p, (sccd_capsule2){{NAN, 0.5}, {1, 0}, 0}));
    sccd_poly2 concave = {4, {{0, 0}, {1, 0}, {0.2, 0.2}, {0, 1}}, 0.0};
    assert_false(sccd_sector2_prepared_vs_poly(&p, &concave));
    sccd_poly2 unbounded = {3, {{1, 0}, {2, 0}, {1, INFINITY}}, 0.0};
    assert_false(sccd_sector2_prepared_vs_poly(&p, &unbounded));
    assert_false(sccd_sector2_prepared_vs_convex(&p, NULL, 1, 0.0));
    assert_false(sccd_sector2_prepared_vs_convex(&p, tri.v, 3, -1.0));
    assert_false(sccd_sector2_prepared_vs_point(NULL, (sccd_v2){1, 0}));
    expected += 10;
    assert_int_equal(sccd_test_assert_count(), expected);
    sccd_set_assert_handler(NULL);
}

/* A sweep whose band was set by hand (no prepared copy) or changed after
 * building is tested against its band as it is now, never a stale copy. */
static void test_sweep_band_by_hand(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(206);
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_sweep2 w = {.count = 1, .band = {s}};
        sccd_motion2 m = {{sccd_rng_v2(&g, 5.0), sccd_rot2_make(1.0)}, {0, 0}, {0, 0}, 0.5};
        sccd_sweep2 built;
        sccd_sweep2_circle(&built, (sccd_circle){{1, 0}, 0.5}, m, 1);
        built.band[0] = s; /* changed after building */
        built.count = 1;
        sccd_v2 q = centre_near(&g, &s);
        bool want = sccd_sector2_vs_point(&s, q);
        assert_true(sccd_sweep2_vs_point(&w, q) == want);
        assert_true(sccd_sweep2_vs_point(&built, q) == want);
    }
}

/* Shapes just beyond the outer arc of a sector (r 1, R 10, half angle 1:
 * tolerance SCCD_EPS·R), on a ray within the wedge: a point, a circle, and
 * a square with a corner pointing at the pivot, their nearest points g
 * past R (the square's bounding disc reaches the arc only g past its
 * radius). g of half the tolerance is met, three times it is not, by the
 * prepared and the one-shot tests. Fails with the discs' reach cut to
 * their radius or grown tenfold. */
static void test_tolerance_band(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(213);
    const sccd_real tol = SCCD_EPS * 10.0, h = 0.5;
    for (int i = 0; i < 2000; ++i) {
        sccd_real phi = sccd_rng_uniform(&g, -SCCD_PI, SCCD_PI), off = sccd_rng_uniform(&g, -0.8, 0.8);
        sccd_v2 o = {sccd_rng_uniform(&g, -5.0, 5.0), sccd_rng_uniform(&g, -5.0, 5.0)}, a = {cos(phi), sin(phi)};
        sccd_sector2 s = {o, a, 1.0, 1.0, 10.0};
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_v2 dir = {cos(phi + off), sin(phi + off)};
        for (int k = 0; k < 2; ++k) {
            sccd_real d = 10.0 + (k == 0 ? 0.5 * tol : 3.0 * tol);
            bool met = k == 0;
            sccd_v2 pt = sccd_v2_mad(o, d, dir);
            sccd_circle c = {sccd_v2_mad(o, d + 0.4, dir), 0.4};
            sccd_real turn = phi + off + 0.25 * SCCD_PI; /* a corner toward the pivot */
            sccd_box2 b = {sccd_v2_mad(o, d + h * sqrt(2.0), dir), {cos(turn), sin(turn)}, {h, h}};
            assert_true(sccd_sector2_prepared_vs_point(&p, pt) == met && sccd_sector2_vs_point(&s, pt) == met);
            assert_true(sccd_sector2_prepared_vs_circle(&p, c) == met && sccd_sector2_vs_circle(&s, c) == met);
            assert_true(sccd_sector2_prepared_vs_box(&p, b) == met && sccd_sector2_vs_box(&s, b) == met);
        }
    }
}

/* Every route of the shape tests against one closed-form answer. */
static void expect_shapes(const sccd_sector2 *s, const sccd_sector2_prepared *p, sccd_v2 c, sccd_real size,
                          sccd_rot2 q, bool want)
{
    sccd_circle ci = {c, size};
    sccd_box2 b = {c, q, {size, 1.3 * size}};
    sccd_v2 e = sccd_rot2_apply(q, (sccd_v2){size, 0.0});
    sccd_capsule2 cap = {sccd_v2_add(c, e), sccd_v2_sub(c, e), size};
    sccd_poly2 tri = {3, {{c.x + 3.0 * size, c.y}, {c.x - 1.5 * size, c.y + 2.6 * size}, {c.x - 1.5 * size, c.y - 2.6 * size}},
                      0.0};
    sccd_poly2_prepared pp;
    assert_true(sccd_poly2_prepare(&pp, &tri));
    assert_true(sccd_sector2_prepared_vs_circle(p, ci) == want && sccd_sector2_vs_circle(s, ci) == want);
    assert_true(sccd_sector2_prepared_vs_box(p, b) == want && sccd_sector2_vs_box(s, b) == want);
    assert_true(sccd_sector2_prepared_vs_capsule(p, cap) == want && sccd_sector2_vs_capsule(s, cap) == want);
    assert_true(sccd_sector2_prepared_vs_poly(p, &tri) == want && sccd_sector2_vs_poly(s, &tri) == want);
    assert_true(sccd_sector2_prepared_vs_prepared_poly(p, &pp) == want);
    assert_true(sccd_sector2_prepared_vs_convex(p, tri.v, 3, 0.0) == want);
    assert_true(sccd_sector2_vs_convex(s, tri.v, 3, 0.0) == want);
}

/* Shapes beyond the range (SCCD_RANGE_MAX) about random sectors, every
 * route, closed forms: sizes 1e155 1e300 off are not met (their squares
 * overflowed to ∞ on both sides of a comparison, which read as a hit);
 * grown to 2e160 about a point 1e160 off they hold the sector and are
 * met; shapes near +1e308 and a pivot near −1e308 (their offset beyond
 * the doubles) are not met. A point 1e200 off lies 1e200 away give or take
 * R (it was ∞ away), and sectors 1e155 apart do not meet (they did). A
 * sector beyond the range is refused, its check firing. */
static void test_beyond_range(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(4242);
    for (int i = 0; i < 300; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        sccd_v2 dir = sccd_rng_unit2(&g);
        sccd_rot2 q = sccd_rot2_make(sccd_rng_uniform(&g, 0.0, 6.3));
        expect_shapes(&s, &p, sccd_v2_mad(s.o, 1e300, dir), 1e155, q, false);
        expect_shapes(&s, &p, sccd_v2_mad(s.o, 1e160, dir), 2e160, q, true);
        sccd_real d = sccd_sector2_distance(&s, sccd_v2_mad(s.o, 1e200, dir));
        assert_true(fabs(d - 1e200) <= 1e190);
        sccd_sector2 t = random_sector(&g);
        t.o = sccd_v2_mad(s.o, 1e155, dir);
        assert_false(sccd_sector2_vs_sector2(&s, &t) || sccd_sector2_vs_sector2(&t, &s));
        sccd_sector2 w = s;
        w.o = (sccd_v2){-1e308, 1e308 * sccd_rng_uniform(&g, -1.0, 1.0)};
        assert_true(sccd_sector2_prepare(&p, &w));
        sccd_v2 far = {1e308, 1e308 * sccd_rng_uniform(&g, -1.0, 1.0)};
        expect_shapes(&w, &p, far, sccd_rng_uniform(&g, 0.0, 1e150), q, false);
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    const sccd_sector2 vast = {{0.0, 0.0}, {1.0, 0.0}, 1.0, 0.0, 2.0 * SCCD_RANGE_MAX};
    sccd_sector2_prepared p;
    assert_false(sccd_sector2_prepare(&p, &vast));
    assert_false(sccd_sector2_vs_point(&vast, (sccd_v2){1.0, 0.0}));
    assert_int_equal(sccd_test_assert_count(), 2);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point),   cmocka_unit_test(test_circle),    cmocka_unit_test(test_box),
        cmocka_unit_test(test_capsule), cmocka_unit_test(test_poly),      cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_sweep_band_by_hand), cmocka_unit_test(test_cos_sin),
        cmocka_unit_test(test_near_edges), cmocka_unit_test(test_rough_band), cmocka_unit_test(test_one_shot_margins),
        cmocka_unit_test(test_poly_validity), cmocka_unit_test(test_tolerance_band),
        cmocka_unit_test(test_beyond_range),
        cmocka_unit_test(test_box_rotation_not_quite_unit), cmocka_unit_test(test_poly_flush),
        cmocka_unit_test(test_prepared_poly_degenerate), cmocka_unit_test(test_placed_poly),
        cmocka_unit_test(test_placed_poly_flush), cmocka_unit_test(test_prepared_poly_bad_input),
    };
    return cmocka_run_group_tests_name("sector2_prepared", tests, NULL, NULL);
}
