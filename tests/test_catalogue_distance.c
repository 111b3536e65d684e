/* Catalogue distances (seed 004 "距離計算") against an exact oracle written
 * differently: the convex quadratic programme over every face of the
 * parameter polytope (orc_qp_min), plus the cross-product form of the
 * point–line distance, on random, near-touching and degenerate input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "catalogue_oracle.h"

#define N 20000

/* A random triangle, sometimes degenerate (collinear or a point). */
static sccd_triangle any_triangle(sccd_rng *g)
{
    sccd_triangle t = orc_rand_triangle(g, 5.0);
    int kind = sccd_rng_int(g, 20);
    if (kind == 0)
        t.c = sccd_v3_lerp(t.a, t.b, sccd_rng_uniform(g, -1.0, 2.0));
    else if (kind == 1)
        t.b = t.c = t.a;
    else if (kind == 2)
        t.b = t.a;
    return t;
}

static double tri_scale(sccd_triangle t) { return fmax(orc_mag(t.a), fmax(orc_mag(t.b), orc_mag(t.c))); }

static void test_point_triangle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(41);
    for (int i = 0; i < N; ++i) {
        sccd_triangle t = any_triangle(&g);
        sccd_v3 p = sccd_rng_v3(&g, 8.0);
        if (i % 4 == 0) /* near the plane, where the seed's plane distance is most wrong */
            p = sccd_v3_mad(orc_triangle_at(t, sccd_rng_uniform(&g, -0.5, 1.5), sccd_rng_uniform(&g, 0, 1)),
                            sccd_rng_uniform(&g, -1e-3, 1e-3), sccd_rng_unit3(&g));
        double scale = fmax(tri_scale(t), orc_mag(p));
        double want = orc_dist_triangle(p, t), got = sccd_distance_point_triangle(p, t);
        assert_true(fabs(got - want) <= 1e-9 * scale);
        sccd_real u = -1, v = -1;
        sccd_v3 x = sccd_closest_point_triangle(p, t, &u, &v);
        /* The closest point is on the triangle, at the distance, and is the
         * point its barycentrics name. */
        assert_true(u >= -1e-12 && v >= -1e-12 && u + v <= 1.0 + 1e-12);
        sccd_v3 y = sccd_v3_add(sccd_v3_scale(t.a, 1.0 - u - v), sccd_v3_add(sccd_v3_scale(t.b, u), sccd_v3_scale(t.c, v)));
        assert_true(sccd_v3_dist(x, y) <= 1e-9 * scale);
        assert_true(fabs(sccd_v3_dist(p, x) - want) <= 1e-9 * scale);
    }
}

static void test_point_triangle_known(void **state)
{
    (void)state;
    /* An obtuse triangle (the corner c is nearest to (−3, −1, 0)), where sorting cases by the signs of u and v (seed
     * 004 "球と三角形") would pick the wrong feature. */
    sccd_triangle t = {{0, 0, 0}, {10, 0, 0}, {-1, 1, 0}};
    assert_true(fabs(sccd_distance_point_triangle((sccd_v3){-3, -1, 0}, t) - sqrt(8.0)) < 1e-12);
    assert_true(fabs(sccd_distance_point_triangle((sccd_v3){5, 0.1, 2}, t) - 2.0) < 1e-12);
    /* The seed's plane distance n·v would say 0 here; the truth is 5. */
    assert_true(fabs(sccd_distance_point_triangle((sccd_v3){15, 0, 0}, t) - 5.0) < 1e-12);
    /* A point triangle is a point; a collinear one its longest edge. */
    sccd_triangle pt = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}};
    assert_true(fabs(sccd_distance_point_triangle((sccd_v3){1, 2, 5}, pt) - 2.0) < 1e-12);
    sccd_triangle line = {{0, 0, 0}, {2, 0, 0}, {1, 0, 0}};
    assert_true(fabs(sccd_distance_point_triangle((sccd_v3){1.5, 3, 4}, line) - 5.0) < 1e-12);
    assert_true(fabs(sccd_distance_point_triangle((sccd_v3){-3, 0, 0}, line) - 3.0) < 1e-12);
}

static void test_segment_ray_triangle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(42);
    int crossing = 0;
    for (int i = 0; i < N; ++i) {
        sccd_triangle t = any_triangle(&g);
        sccd_v3 a = sccd_rng_v3(&g, 8.0), b = sccd_rng_v3(&g, 8.0);
        int kind = sccd_rng_int(&g, 10);
        if (kind == 0)
            b = a; /* zero length */
        else if (kind == 1) /* parallel to the triangle's plane */
            b = sccd_v3_add(a, sccd_v3_sub(t.b, t.a));
        else if (kind == 2) /* in the plane */
            a = orc_triangle_at(t, sccd_rng_uniform(&g, -1, 2), sccd_rng_uniform(&g, 0, 1)),
            b = orc_triangle_at(t, sccd_rng_uniform(&g, -1, 2), sccd_rng_uniform(&g, 0, 1));
        double scale = fmax(tri_scale(t), fmax(orc_mag(a), orc_mag(b)));
        double want = orc_dist_segment_triangle(a, b, false, t);
        double got = sccd_distance_segment_triangle((sccd_segment3){a, b}, t);
        assert_true(fabs(got - want) <= 1e-8 * scale);
        crossing += want == 0.0 || got == 0.0;
        /* The ray from a through b. */
        want = orc_dist_segment_triangle(a, b, true, t);
        got = sccd_distance_ray_triangle((sccd_ray3){a, sccd_v3_sub(b, a)}, t);
        assert_true(fabs(got - want) <= 1e-8 * scale);
    }
    assert_true(crossing > N / 50); /* the crossing branch is exercised */
}

static void test_segment_triangle_near_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(43);
    for (int i = 0; i < N; ++i) {
        sccd_triangle t = orc_rand_triangle(&g, 5.0);
        if (sccd_v3_len(sccd_v3_cross(sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a))) < 0.5)
            continue;
        /* A segment in the supporting plane n·(x − q) = δ through q + δ·n:
         * its distance to the triangle is exactly δ (δ ≥ 0). */
        sccd_v3 q, n;
        orc_surface_triangle(&g, t, &q, &n);
        double scale = fmax(tri_scale(t), 1.0), delta = (i % 2 ? 1e-7 : 1e-3) * scale;
        sccd_v3 e = orc_perp(&g, n), p = sccd_v3_mad(q, delta, n);
        sccd_segment3 s = {sccd_v3_mad(p, -sccd_rng_uniform(&g, 0, 3), e), sccd_v3_mad(p, sccd_rng_uniform(&g, 0, 3), e)};
        assert_true(fabs(sccd_distance_segment_triangle(s, t) - delta) <= 2e-9 * scale);
        assert_true(fabs(sccd_distance_ray_triangle((sccd_ray3){s.a, sccd_v3_sub(s.b, s.a)}, t) - delta) <= 2e-9 * scale);
        /* Pushed through by δ the segment crosses: distance 0. */
        sccd_v3 through = sccd_v3_mad(q, -delta, n);
        sccd_segment3 c = {sccd_v3_mad(through, -1.0, n), sccd_v3_mad(through, 1.0, n)};
        if (sccd_v3_dot(n, sccd_v3_cross(sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a))) != 0.0 &&
            orc_dist_segment_triangle(c.a, c.b, false, t) == 0.0)
            assert_true(sccd_distance_segment_triangle(c, t) == 0.0);
    }
}

static void test_point_line_point(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(44);
    for (int i = 0; i < N; ++i) {
        sccd_v3 p = sccd_rng_v3(&g, 10), q = sccd_rng_v3(&g, 10), d = sccd_rng_v3(&g, 3);
        /* |w × d| / |d|: the area form, not the projection of the library. */
        double want = sccd_v3_len(sccd_v3_cross(sccd_v3_sub(p, q), d)) / sccd_v3_len(d);
        assert_true(fabs(sccd_distance_point_line(p, q, d) - want) <= 1e-11 * 20);
        assert_true(fabs(sccd_distance_point_line(p, q, sccd_v3_scale(d, -7.5)) - want) <= 1e-11 * 20);
        double dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
        assert_true(fabs(sccd_distance_point_point(p, q) - sqrt(dx * dx + dy * dy + dz * dz)) <= 1e-14 * 40);
        assert_true(sccd_distance_point_point(p, q) == sccd_distance_point_point(q, p));
    }
    /* Zero direction: the line is the point q. */
    assert_true(sccd_distance_point_line((sccd_v3){3, 4, 0}, (sccd_v3){0, 0, 0}, (sccd_v3){0, 0, 0}) == 5.0);
}

static void test_invalid_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_v3 nanv = {NAN, 0, 0}, infv = {0, INFINITY, 0}, o = {0, 0, 0};
    sccd_triangle t = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, bad = {{0, 0, 0}, {NAN, 0, 0}, {0, 1, 0}};
    assert_true(isinf(sccd_distance_point_point(nanv, o)));
    assert_true(isinf(sccd_distance_point_line(o, infv, o)));
    assert_true(isinf(sccd_distance_point_triangle(nanv, t)));
    assert_true(isinf(sccd_distance_point_triangle(o, bad)));
    assert_true(isinf(sccd_distance_segment_triangle((sccd_segment3){o, nanv}, t)));
    assert_true(isinf(sccd_distance_ray_triangle((sccd_ray3){o, infv}, t)));
    sccd_real u = 5, v = 5;
    sccd_v3 x = sccd_closest_point_triangle(o, bad, &u, &v);
    assert_true(x.x == 0 && x.y == 0 && x.z == 0 && u == 0 && v == 0);
    assert_int_equal(sccd_test_assert_count(), 7);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_triangle),
        cmocka_unit_test(test_point_triangle_known),
        cmocka_unit_test(test_segment_ray_triangle),
        cmocka_unit_test(test_segment_triangle_near_touching),
        cmocka_unit_test(test_point_line_point),
        cmocka_unit_test(test_invalid_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
