/* The CCD pipeline (ccd.h): the sweep pre-filter never rejects a pair that
 * the TOI (toi.h) or the Lipschitz-certified reference (toi_reference.h)
 * finds within the target; results equal the TOI's wherever the sweeps let a
 * pair through; the stage counters add up. Mixes of turning and non-turning
 * bodies exercise each relative-motion case. sccd_sweep2/3_shape is checked
 * to hold sampled points of the shape over the motion (boxes with their own
 * centre and rotation in body coordinates included). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "toi_cases.h"

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
        cmocka_unit_test(test_sweep_shape_holds_motion),
        cmocka_unit_test(test_ccd_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
