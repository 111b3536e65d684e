/* Motions: poses over time checked against the definition written out
 * independently (body point = c0 + t·dp + R(t·θ)·q0·(x − center), with the
 * rotation as a matrix), round trips of between/at, and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_util.h"

#define N 10000

static sccd_v3 rotmat(sccd_v3 axis, double angle, sccd_v3 v)
{
    double c = cos(angle), s = sin(angle), k = 1.0 - c;
    sccd_v3 a = axis;
    /* v cos + (a×v) sin + a (a·v)(1 − cos) */
    return sccd_v3_add(sccd_v3_add(sccd_v3_scale(v, c), sccd_v3_scale(sccd_v3_cross(a, v), s)),
                       sccd_v3_scale(a, sccd_v3_dot(a, v) * k));
}

static void test_motion2_definition(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(11);
    for (int i = 0; i < N; ++i) {
        double a0 = sccd_rng_uniform(&g, -4, 4);
        sccd_motion2 m = {{sccd_rng_v2(&g, 10), sccd_rot2_make(a0)}, sccd_rng_v2(&g, 3), sccd_rng_v2(&g, 5),
                          sccd_rng_uniform(&g, -4.0 * SCCD_PI, 4.0 * SCCD_PI)};
        double t = sccd_rng_uniform(&g, 0, 1);
        sccd_v2 x = sccd_rng_v2(&g, 4);
        sccd_xf2 xf = sccd_motion2_at(m, t);
        /* Oracle: angles add; the body point turns about the moved centre. */
        double ang = a0 + t * m.dtheta;
        sccd_v2 c0 = {m.start.p.x + cos(a0) * m.center.x - sin(a0) * m.center.y,
                      m.start.p.y + sin(a0) * m.center.x + cos(a0) * m.center.y};
        sccd_v2 d = sccd_v2_sub(x, m.center);
        sccd_v2 want = {c0.x + t * m.dp.x + cos(ang) * d.x - sin(ang) * d.y,
                        c0.y + t * m.dp.y + sin(ang) * d.x + cos(ang) * d.y};
        assert_true(sccd_v2_dist(sccd_xf2_apply(xf, x), want) < 1e-10);
        /* The centre itself only translates. */
        assert_true(sccd_v2_dist(sccd_xf2_apply(xf, m.center), sccd_motion2_center_at(m, t)) < 1e-10);
    }
}

static void test_motion3_definition(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(12);
    for (int i = 0; i < N; ++i) {
        sccd_motion3 m = {{sccd_rng_v3(&g, 10), sccd_rng_quat(&g)}, sccd_rng_v3(&g, 3), sccd_rng_v3(&g, 5),
                          sccd_rng_unit3(&g), sccd_rng_uniform(&g, -4.0 * SCCD_PI, 4.0 * SCCD_PI)};
        double t = sccd_rng_uniform(&g, 0, 1);
        sccd_v3 x = sccd_rng_v3(&g, 4);
        sccd_xf3 xf = sccd_motion3_at(m, t);
        sccd_v3 c0 = sccd_xf3_apply(m.start, m.center);
        sccd_v3 d = sccd_quat_apply(m.start.q, sccd_v3_sub(x, m.center));
        sccd_v3 want = sccd_v3_add(sccd_v3_mad(c0, t, m.dp), rotmat(m.axis, t * m.angle, d));
        assert_true(sccd_v3_dist(sccd_xf3_apply(xf, x), want) < 1e-10);
        assert_true(sccd_is_valid_quat(xf.q));
    }
}

static void test_from_velocity(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(13);
    for (int i = 0; i < N; ++i) {
        double dt = sccd_rng_uniform(&g, 0.001, 0.1);
        sccd_xf2 s = {sccd_rng_v2(&g, 10), sccd_rot2_make(sccd_rng_uniform(&g, -3, 3))};
        sccd_v2 c = sccd_rng_v2(&g, 2), v = sccd_rng_v2(&g, 50);
        double w = sccd_rng_uniform(&g, -400, 400);
        sccd_motion2 m = sccd_motion2_from_velocity(s, c, v, w, dt);
        sccd_xf2 e = sccd_motion2_at(m, 1.0);
        /* Engine integration: centre += v·dt, angle += w·dt. */
        sccd_v2 ce = sccd_v2_mad(sccd_xf2_apply(s, c), dt, v);
        assert_true(sccd_v2_dist(sccd_xf2_apply(e, c), ce) < 1e-9);
        assert_true(fabs(remainder(sccd_rot2_angle(e.q) - sccd_rot2_angle(s.q) - w * dt, 2 * SCCD_PI)) < 1e-9);

        sccd_xf3 s3 = {sccd_rng_v3(&g, 10), sccd_rng_quat(&g)};
        sccd_v3 c3 = sccd_rng_v3(&g, 2), v3 = sccd_rng_v3(&g, 50), w3 = sccd_rng_v3(&g, 300);
        sccd_motion3 m3 = sccd_motion3_from_velocity(s3, c3, v3, w3, dt);
        sccd_xf3 e3 = sccd_motion3_at(m3, 1.0);
        assert_true(sccd_v3_dist(sccd_xf3_apply(e3, c3), sccd_v3_mad(sccd_xf3_apply(s3, c3), dt, v3)) < 1e-9);
        sccd_v3 x = sccd_rng_v3(&g, 3);
        sccd_v3 d = sccd_v3_sub(sccd_xf3_apply(s3, x), sccd_xf3_apply(s3, c3));
        sccd_v3 want = sccd_v3_add(sccd_xf3_apply(e3, c3), rotmat(sccd_v3_normalize(w3), sccd_v3_len(w3) * dt, d));
        assert_true(sccd_v3_dist(sccd_xf3_apply(e3, x), want) < 1e-9);
    }
}

static void test_between_round_trip(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(14);
    for (int i = 0; i < N; ++i) {
        sccd_xf2 a = {sccd_rng_v2(&g, 10), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_xf2 b = {sccd_rng_v2(&g, 10), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_v2 c = sccd_rng_v2(&g, 3), x = sccd_rng_v2(&g, 3);
        sccd_motion2 m = sccd_motion2_between(a, b, c);
        assert_true(m.dtheta > -SCCD_PI - 1e-12 && m.dtheta <= SCCD_PI + 1e-12);
        assert_true(sccd_v2_dist(sccd_xf2_apply(sccd_motion2_at(m, 1.0), x), sccd_xf2_apply(b, x)) < 1e-9);
        assert_true(sccd_v2_dist(sccd_xf2_apply(sccd_motion2_at(m, 0.0), x), sccd_xf2_apply(a, x)) < 1e-9);

        sccd_xf3 a3 = {sccd_rng_v3(&g, 10), sccd_rng_quat(&g)}, b3 = {sccd_rng_v3(&g, 10), sccd_rng_quat(&g)};
        sccd_v3 c3 = sccd_rng_v3(&g, 3), x3 = sccd_rng_v3(&g, 3);
        sccd_motion3 m3 = sccd_motion3_between(a3, b3, c3);
        assert_true(m3.angle >= 0.0 && m3.angle <= SCCD_PI + 1e-12);
        assert_true(sccd_v3_dist(sccd_xf3_apply(sccd_motion3_at(m3, 1.0), x3), sccd_xf3_apply(b3, x3)) < 1e-9);
    }
    /* Identical poses: zero turn, the fallback axis, no NaN. */
    sccd_xf3 a = {{1, 2, 3}, {0, 0, 0, 1}};
    sccd_motion3 m = sccd_motion3_between(a, a, (sccd_v3){0, 0, 0});
    assert_true(m.angle == 0.0 && sccd_is_valid_motion3(m));
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_xf2 s = {{1, 2}, {1, 0}};
    sccd_motion2 m = sccd_motion2_from_velocity(s, (sccd_v2){0, 0}, (sccd_v2){NAN, 0}, 1.0, 0.1);
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_true(sccd_is_valid_motion2(m) && m.dtheta == 0.0 && m.dp.x == 0.0);
    sccd_xf2 p = sccd_motion2_at(m, NAN);
    assert_true(sccd_is_valid_xf2(p) && p.p.x == 1.0);
    m.dtheta = INFINITY;
    p = sccd_motion2_at(m, 0.5);
    assert_true(sccd_is_valid_xf2(p));
    sccd_xf3 s3 = {{0, 0, 0}, {0, 0, 0, 2}}; /* not unit */
    sccd_motion3 m3 = sccd_motion3_from_velocity(s3, (sccd_v3){0, 0, 0}, (sccd_v3){1, 0, 0}, (sccd_v3){0, 0, 1}, 0.1);
    assert_true(sccd_is_valid_motion3(m3));
    sccd_xf3 p3 = sccd_motion3_at(m3, 0.3);
    assert_true(sccd_is_valid_xf3(p3));
    m3 = sccd_motion3_from_velocity(sccd_xf3_identity(), (sccd_v3){0, 0, 0}, (sccd_v3){1, 0, 0},
                                    (sccd_v3){0, 0, 0}, 0.1); /* no spin: valid, fallback axis */
    assert_true(sccd_is_valid_motion3(m3) && m3.angle == 0.0);
    sccd_motion2 mb = sccd_motion2_between(s, (sccd_xf2){{NAN, 0}, {1, 0}}, (sccd_v2){0, 0});
    assert_true(sccd_is_valid_motion2(mb));
    sccd_motion3 mb3 = sccd_motion3_between(sccd_xf3_identity(), s3, (sccd_v3){0, 0, 0});
    assert_true(sccd_is_valid_motion3(mb3));
    assert_true(sccd_test_assert_count() >= 5);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_motion2_definition), cmocka_unit_test(test_motion3_definition),
        cmocka_unit_test(test_from_velocity),      cmocka_unit_test(test_between_round_trip),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("motion", tests, NULL, NULL);
}
