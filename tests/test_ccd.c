/* The CCD pipeline (ccd.h): the sweep pre-filter never rejects a pair that
 * the TOI (toi.h) or the Lipschitz-certified reference (toi_reference.h)
 * finds within the target; results equal the TOI's wherever the sweeps let a
 * pair through; the stage counters add up. Mixes of turning and non-turning
 * bodies exercise each relative-motion case. sccd_sweep2/3_shape is checked
 * to hold sampled points of the shape over the motion (boxes with their own
 * centre and rotation in body coordinates included), and so are the motion
 * boxes, which must also stand no farther out than the sagitta bound. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "toi_cases.h"
#include "shape_oracle.h"
#include "truth2.h"
#include "truth3.h"
#include "../core/src/unchecked.h"

#define N_CASES 20000

/* Stop one or both bodies from turning now and then: every pre-filter branch. */
static void vary_spins2(sccd_rng *g, toi_case2 *c)
{
    int k = sccd_rng_int(g, 4);
    if (k == 1)
        c->ma.dtheta = 0.0;
    if (k == 2)
        c->mb.dtheta = 0.0;
    c->lip = sccd_toi_case2_lipschitz(c);
}

static void vary_spins3(sccd_rng *g, toi_case3 *c)
{
    int k = sccd_rng_int(g, 4);
    if (k == 1)
        c->ma.angle = 0.0;
    if (k == 2)
        c->mb.angle = 0.0;
    c->lip = sccd_toi_case3_lipschitz(c);
}

static void test_ccd2_never_rejects_contact(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(701);
    sccd_ccd_stats st = {0};
    long ref_hits = 0;
    for (int i = 0; i < N_CASES; ++i) {
        toi_case2 c = sccd_rng_toi_case2(&g);
        vary_spins2(&g, &c);
        int bands = 1 + sccd_rng_int(&g, SCCD_MAX_BANDS);
        long before = st.rejected;
        sccd_toi2 r = sccd_ccd2(&c.a, c.ma, &c.b, c.mb, c.target, c.tol, bands, &st);
        sccd_toi2 ref = sccd_toi2_compute(&c.a, c.ma, &c.b, c.mb, c.target, c.tol);
        ref_hits += ref.state == SCCD_TOI_HIT || ref.state == SCCD_TOI_OVERLAPPED;
        if (st.rejected > before) {
            int steps;
            assert_int_equal(ref.state, SCCD_TOI_SEPARATED);
            assert_true(r.state == SCCD_TOI_SEPARATED && r.t == 1.0 && r.iterations == 0);
            assert_true(sccd_ref_first_contact(sccd_toi_case2_distance, &c, c.lip, c.target, &steps) > 1.0);
        } else {
            assert_int_equal(r.state, ref.state);
            assert_true(r.t == ref.t && r.iterations == ref.iterations);
        }
    }
    assert_true(st.pairs == N_CASES && st.tois + st.rejected == st.pairs && st.sweeps >= st.pairs);
    assert_true(st.rejected > 0 && st.hits == ref_hits);
    printf("ccd2: %ld pairs, %ld sweeps, %ld rejected by the sweeps, %ld TOIs, %ld hits\n", st.pairs, st.sweeps,
           st.rejected, st.tois, st.hits);
}

static void test_ccd3_never_rejects_contact(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(702);
    sccd_ccd_stats st = {0};
    long ref_hits = 0;
    for (int i = 0; i < N_CASES; ++i) {
        toi_case3 c = sccd_rng_toi_case3(&g);
        vary_spins3(&g, &c);
        int bands = 1 + sccd_rng_int(&g, SCCD_MAX_BANDS);
        long before = st.rejected;
        sccd_toi3 r = sccd_ccd3(&c.a, c.ma, &c.b, c.mb, c.target, c.tol, bands, &st);
        sccd_toi3 ref = sccd_toi3_compute(&c.a, c.ma, &c.b, c.mb, c.target, c.tol);
        ref_hits += ref.state == SCCD_TOI_HIT || ref.state == SCCD_TOI_OVERLAPPED;
        if (st.rejected > before) {
            int steps;
            assert_int_equal(ref.state, SCCD_TOI_SEPARATED);
            assert_true(r.state == SCCD_TOI_SEPARATED && r.t == 1.0 && r.iterations == 0);
            assert_true(sccd_ref_first_contact(sccd_toi_case3_distance, &c, c.lip, c.target, &steps) > 1.0);
        } else {
            assert_int_equal(r.state, ref.state);
            assert_true(r.t == ref.t && r.iterations == ref.iterations);
        }
    }
    assert_true(st.pairs == N_CASES && st.tois + st.rejected == st.pairs && st.sweeps >= st.pairs);
    assert_true(st.rejected > 0 && st.hits == ref_hits);
    printf("ccd3: %ld pairs, %ld sweeps, %ld rejected by the sweeps, %ld TOIs, %ld hits\n", st.pairs, st.sweeps,
           st.rejected, st.tois, st.hits);
}

/* The pipeline on queries scaled by powers of 2 from 2^-900 to 2^300
 * (shapes, motions' places, target and tolerance: exactly) gives the
 * unit-scale answer, state and time bit for bit, and counts each pair
 * once. Below 1e-160 its pre-filter took the pair's extents by roots of
 * squares, which underflowed, and rejected about half of the pairs
 * that touch. */
static void test_ccd_scaled(void **state)
{
    (void)state;
    static const int powers[] = {-900, -550, -300, -60, 60, 300};
    sccd_rng g = sccd_rng_make(433);
    int hits = 0;
    for (int i = 0; i < 1000; ++i) {
        toi_case2 c = sccd_rng_toi_case2(&g);
        toi_case3 d = sccd_rng_toi_case3(&g);
        sccd_toi2 r = sccd_ccd2(&c.a, c.ma, &c.b, c.mb, c.target, c.tol, 4, NULL);
        sccd_toi3 r3 = sccd_ccd3(&d.a, d.ma, &d.b, d.mb, d.target, d.tol, 4, NULL);
        hits += (r.state == SCCD_TOI_HIT) + (r3.state == SCCD_TOI_HIT);
        for (int k = 0; k < 6; ++k) {
            sccd_real f = ldexp(1.0, powers[k]);
            sccd_ccd_stats stats = {0};
            sccd_shape2 a = sccd_shape2_scaled(c.a, f), b = sccd_shape2_scaled(c.b, f);
            sccd_toi2 s = sccd_ccd2(&a, sccd_motion2_scaled(c.ma, f), &b, sccd_motion2_scaled(c.mb, f), c.target * f,
                                    c.tol * f, 4, &stats);
            sccd_shape3 a3 = sccd_shape3_scaled(d.a, f), b3 = sccd_shape3_scaled(d.b, f);
            sccd_toi3 s3 = sccd_ccd3(&a3, sccd_motion3_scaled(d.ma, f), &b3, sccd_motion3_scaled(d.mb, f), d.target * f,
                                     d.tol * f, 4, &stats);
            if (s.state != r.state || s.t != r.t || s3.state != r3.state || s3.t != r3.t || stats.pairs != 2)
                fail_msg("case %d at 2^%d: 2D %d %.17g (unit %d %.17g), 3D %d %.17g (unit %d %.17g)", i, powers[k],
                         s.state, s.t, r.state, r.t, s3.state, s3.t, r3.state, r3.t);
        }
    }
    assert_true(hits > 100);
}

/* Every sampled point of the shape at every sampled time lies in its sweep. */
static void test_sweep_shape_holds_motion(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(703);
    for (int i = 0; i < 2000; ++i) {
        toi_case2 c = sccd_rng_toi_case2(&g);
        toi_case3 d = sccd_rng_toi_case3(&g);
        sccd_sweep2 w2;
        sccd_sweep3 w3;
        int bands = 1 + sccd_rng_int(&g, SCCD_MAX_BANDS);
        sccd_sweep2_shape(&w2, &c.a, c.ma, bands);
        sccd_sweep3_shape(&w3, &d.a, d.ma, bands);
        for (int k = 0; k < 20; ++k) {
            double t = sccd_rng_uniform(&g, 0.0, 1.0);
            sccd_v2 p2 = sccd_shape2_support(&c.a, sccd_motion2_at(c.ma, t), sccd_rng_unit2(&g));
            sccd_v3 p3 = sccd_shape3_support(&d.a, sccd_motion3_at(d.ma, t), sccd_rng_unit3(&g));
            assert_true(sccd_sweep2_vs_point(&w2, p2));
            assert_true(sccd_sweep3_vs_point(&w3, p3));
        }
    }
}

/* Turns that test the motion box's cases: none, a hair, exactly ±π (the
 * sagitta's limit), past it, several turns, or as drawn. */
static double box_turn(sccd_rng *g, double drawn)
{
    static const double turns[] = {0.0, 1e-9, SCCD_PI, -SCCD_PI, 3.5, -9.0};
    int k = sccd_rng_int(g, 10);
    return k < 6 ? turns[k] : drawn;
}

/* How far past the box a sampled extreme may fall short of its side: the
 * growth the bound allows (the sagitta of the core's farthest distance,
 * rho at least that, or twice it past π: the rounding turns with no
 * growth), plus rounding at the scene's scale. */
static double box_slack(double phi, double rho, double scale)
{
    double grow = fabs(phi) <= SCCD_PI ? rho * (1.0 - cos(0.5 * phi)) : 2.0 * rho;
    return grow + 1e-12 * (1.0 + scale);
}

/* A shape's rounding radius (a box has none). */
static double radius2(const sccd_shape2 *s)
{
    return s->type == SCCD_SHAPE_CIRCLE ? s->circle.r : s->type == SCCD_SHAPE_CAPSULE ? s->capsule.r : s->type == SCCD_SHAPE_POLY ? s->poly.r : 0.0;
}

static double radius3(const sccd_shape3 *s)
{
    return s->type == SCCD_SHAPE_CIRCLE ? s->sphere.r : s->type == SCCD_SHAPE_CAPSULE ? s->capsule.r : 0.0;
}

/* sccd_shape2/3_motion_box hold the shape's support points along the axes
 * (its box's extremes) at 101 times over the motion and random points of
 * the true sweep (truth2/3, from the definition); every side stands
 * within box_slack of the extremes sampled. */
static void test_motion_box_holds_motion(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(709);
    for (int i = 0; i < 3000; ++i) {
        toi_case2 c = sccd_rng_toi_case2(&g);
        toi_case3 d = sccd_rng_toi_case3(&g);
        c.ma.dtheta = box_turn(&g, c.ma.dtheta);
        d.ma.angle = fabs(box_turn(&g, d.ma.angle));
        sccd_aabb2 b2 = sccd_shape2_motion_box(&c.a, c.ma);
        sccd_aabb3 b3 = sccd_shape3_motion_box(&d.a, d.ma);
        sccd_aabb2 s2 = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
        sccd_aabb3 s3 = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
        for (int k = 0; k <= 100; ++k) {
            double t = k / 100.0;
            for (int a = 0; a < 6; ++a) {
                double sign = a & 1 ? -1.0 : 1.0;
                sccd_v3 dir = {a / 2 == 0 ? sign : 0.0, a / 2 == 1 ? sign : 0.0, a / 2 == 2 ? sign : 0.0};
                sccd_v3 p3 = sccd_shape3_support(&d.a, sccd_motion3_at(d.ma, t), dir);
                s3 = (sccd_aabb3){sccd_v3_min(s3.lo, p3), sccd_v3_max(s3.hi, p3)};
                if (a < 4) {
                    sccd_v2 p2 = sccd_shape2_support(&c.a, sccd_motion2_at(c.ma, t), (sccd_v2){dir.x, dir.y});
                    s2 = (sccd_aabb2){sccd_v2_min(s2.lo, p2), sccd_v2_max(s2.hi, p2)};
                }
            }
        }
        for (int k = 0; k < 20; ++k) {
            sccd_v2 p2 = sccd_truth2_sample_sweep(&g, &c.a, c.ma);
            sccd_v3 p3 = sccd_truth3_sample(&d.a, d.ma, &g);
            s2 = (sccd_aabb2){sccd_v2_min(s2.lo, p2), sccd_v2_max(s2.hi, p2)};
            s3 = (sccd_aabb3){sccd_v3_min(s3.lo, p3), sccd_v3_max(s3.hi, p3)};
        }
        double scale2 = fmax(sccd_v2_len(s2.lo), sccd_v2_len(s2.hi)), scale3 = fmax(sccd_v3_len(s3.lo), sccd_v3_len(s3.hi));
        /* the oracles' farthest distances sample the rounding circle at steps of
         * π/128 (short by under 1e-4 of it) and the sphere at steps of π/32
         * (under 3e-3) */
        double core2 = fmax(sccd_oracle_farthest2(&c.a, c.ma.center) * (1.0 + 1e-4) - radius2(&c.a), 0.0);
        double core3 = fmax(sccd_oracle_farthest3(&d.a, d.ma.center) * (1.0 + 3e-3) - radius3(&d.a), 0.0);
        double slack2 = box_slack(c.ma.dtheta, core2, scale2), slack3 = box_slack(d.ma.angle, core3, scale3);
        assert_true(b2.lo.x <= s2.lo.x && b2.lo.y <= s2.lo.y && s2.hi.x <= b2.hi.x && s2.hi.y <= b2.hi.y);
        assert_true(b3.lo.x <= s3.lo.x && b3.lo.y <= s3.lo.y && b3.lo.z <= s3.lo.z);
        assert_true(s3.hi.x <= b3.hi.x && s3.hi.y <= b3.hi.y && s3.hi.z <= b3.hi.z);
        assert_true(s2.lo.x - b2.lo.x <= slack2 && s2.lo.y - b2.lo.y <= slack2);
        assert_true(b2.hi.x - s2.hi.x <= slack2 && b2.hi.y - s2.hi.y <= slack2);
        assert_true(s3.lo.x - b3.lo.x <= slack3 && s3.lo.y - b3.lo.y <= slack3 && s3.lo.z - b3.lo.z <= slack3);
        assert_true(b3.hi.x - s3.hi.x <= slack3 && b3.hi.y - s3.hi.y <= slack3 && b3.hi.z - s3.hi.z <= slack3);
    }
}

static void test_ccd_invalid(void **state)
{
    (void)state;
    sccd_shape2 c2 = {.type = SCCD_SHAPE_CIRCLE, .circle = {{0, 0}, 1}};
    sccd_shape3 c3 = {.type = SCCD_SHAPE_CIRCLE, .sphere = {{0, 0, 0}, 1}};
    sccd_motion2 m2 = {{{0, 0}, {1, 0}}, {0, 0}, {0, 0}, 0};
    sccd_motion3 m3 = {{{0, 0, 0}, {0, 0, 0, 1}}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}, 0};
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_ccd_stats st = {0};
    sccd_motion2 bad2 = m2;
    bad2.dp.x = NAN;
    sccd_toi2 r2 = sccd_ccd2(&c2, bad2, &c2, m2, 0.0, 1e-6, 2, &st);
    assert_true(r2.state == SCCD_TOI_FAILED && r2.t == 0.0 && st.pairs == 1 && st.tois == 0);
    sccd_toi3 r3 = sccd_ccd3(&c3, m3, &c3, m3, 0.0, 0.0, 2, NULL);
    assert_true(r3.state == SCCD_TOI_FAILED && r3.t == 0.0);
    sccd_shape2 bad_shape2 = {.type = SCCD_SHAPE_POLY, .poly = {0}};
    sccd_shape3 bad_shape3 = {.type = SCCD_SHAPE_POLY};
    sccd_sweep2 w2;
    sccd_sweep3 w3;
    sccd_sweep2_shape(&w2, &bad_shape2, m2, 2);
    sccd_sweep3_shape(&w3, &bad_shape3, m3, 2);
    assert_true(w2.count == 0 && !sccd_sweep2_vs_point(&w2, (sccd_v2){0, 0}));
    assert_true(w3.count == 0 && sccd_sweep3_vs_point(&w3, (sccd_v3){0, 0, 0}));
    assert_int_equal(sccd_test_assert_count(), 4);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ccd2_never_rejects_contact),
        cmocka_unit_test(test_ccd3_never_rejects_contact),
        cmocka_unit_test(test_ccd_scaled),
        cmocka_unit_test(test_sweep_shape_holds_motion),
        cmocka_unit_test(test_motion_box_holds_motion),
        cmocka_unit_test(test_ccd_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
