/* Vector math, rotations, transforms and shape validity, checked against
 * independent formulas (rotation matrices, Rodrigues' formula) on random input. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_util.h"

#define N 10000

/* Rodrigues' rotation formula written out as a matrix: the oracle for quaternions. */
static sccd_v3 rodrigues(sccd_v3 axis, double angle, sccd_v3 v)
{
    double c = cos(angle), s = sin(angle), k = 1.0 - c;
    double x = axis.x, y = axis.y, z = axis.z;
    double m[3][3] = {{c + x * x * k, x * y * k - z * s, x * z * k + y * s},
                      {y * x * k + z * s, c + y * y * k, y * z * k - x * s},
                      {z * x * k - y * s, z * y * k + x * s, c + z * z * k}};
    return (sccd_v3){m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                     m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
}

static void assert_v3_near(sccd_v3 a, sccd_v3 b, double tol)
{
    assert_true(fabs(a.x - b.x) <= tol && fabs(a.y - b.y) <= tol && fabs(a.z - b.z) <= tol);
}

static void test_quat_matches_rodrigues(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1);
    for (int i = 0; i < N; ++i) {
        sccd_v3 axis = sccd_rng_unit3(&g), v = sccd_rng_v3(&g, 10.0);
        double angle = sccd_rng_uniform(&g, -4.0 * SCCD_PI, 4.0 * SCCD_PI);
        sccd_quat q = sccd_quat_axis_angle(axis, angle);
        assert_v3_near(sccd_quat_apply(q, v), rodrigues(axis, angle, v), 1e-11);
        assert_v3_near(sccd_quat_inv_apply(q, sccd_quat_apply(q, v)), v, 1e-11);
        /* Composition: rotating by b then a equals rotating by a·b. */
        sccd_quat b = sccd_rng_quat(&g);
        assert_v3_near(sccd_quat_apply(sccd_quat_mul(q, b), v), sccd_quat_apply(q, sccd_quat_apply(b, v)), 1e-11);
        assert_true(sccd_is_valid_quat(q));
    }
}

static void test_rot2_and_xf2(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(2);
    for (int i = 0; i < N; ++i) {
        double a = sccd_rng_uniform(&g, -10.0, 10.0), b = sccd_rng_uniform(&g, -10.0, 10.0);
        sccd_v2 v = sccd_rng_v2(&g, 10.0);
        sccd_rot2 qa = sccd_rot2_make(a), qb = sccd_rot2_make(b);
        /* Oracle: the rotation matrix written from the angle directly. */
        sccd_v2 r = sccd_rot2_apply(qa, v);
        assert_true(fabs(r.x - (cos(a) * v.x - sin(a) * v.y)) < 1e-12);
        assert_true(fabs(r.y - (sin(a) * v.x + cos(a) * v.y)) < 1e-12);
        sccd_rot2 ab = sccd_rot2_mul(qa, qb);
        assert_true(fabs(ab.c - cos(a + b)) < 1e-12 && fabs(ab.s - sin(a + b)) < 1e-12);
        sccd_rot2 inv = sccd_rot2_inv_mul(qa, qb);
        assert_true(fabs(inv.c - cos(b - a)) < 1e-12 && fabs(inv.s - sin(b - a)) < 1e-12);
        double ang = sccd_rot2_angle(qa);
        assert_true(ang > -SCCD_PI - 1e-15 && ang <= SCCD_PI + 1e-15);
        assert_true(fabs(remainder(ang - a, 2.0 * SCCD_PI)) < 1e-9);
        sccd_xf2 xa = {sccd_rng_v2(&g, 5.0), qa}, xb = {sccd_rng_v2(&g, 5.0), qb};
        sccd_v2 w = sccd_xf2_apply(sccd_xf2_mul(xa, xb), v);
        sccd_v2 w2 = sccd_xf2_apply(xa, sccd_xf2_apply(xb, v));
        assert_true(sccd_v2_dist(w, w2) < 1e-11);
        assert_true(sccd_v2_dist(sccd_xf2_inv_apply(xa, sccd_xf2_apply(xa, v)), v) < 1e-11);
        sccd_xf2 rel = sccd_xf2_inv_mul(xa, xb);
        assert_true(sccd_v2_dist(sccd_xf2_apply(xa, sccd_xf2_apply(rel, v)), sccd_xf2_apply(xb, v)) < 1e-11);
    }
}

static void test_basis_and_normalize(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(3);
    for (int i = 0; i < N; ++i) {
        sccd_v3 n = sccd_rng_unit3(&g);
        if (i == 0)
            n = (sccd_v3){0.0, 0.0, -1.0}; /* the branch point of the construction */
        sccd_v3 e1, e2;
        sccd_v3_basis(n, &e1, &e2);
        assert_true(fabs(sccd_v3_len(e1) - 1.0) < 1e-12 && fabs(sccd_v3_len(e2) - 1.0) < 1e-12);
        assert_true(fabs(sccd_v3_dot(e1, n)) < 1e-12 && fabs(sccd_v3_dot(e2, n)) < 1e-12);
        assert_v3_near(sccd_v3_cross(e1, e2), n, 1e-12);
        sccd_v3 v = sccd_rng_v3(&g, 100.0);
        sccd_v3 u = sccd_v3_normalize(v);
        assert_true(fabs(sccd_v3_len(u) - 1.0) < 1e-12 && sccd_v3_dot(u, v) > 0.0);
    }
    /* The documented fallback for zero, NaN and infinite vectors. */
    sccd_v3 bad3[] = {{0, 0, 0}, {NAN, 0, 0}, {INFINITY, 1, 0}};
    for (int i = 0; i < 3; ++i)
        assert_v3_near(sccd_v3_normalize(bad3[i]), SCCD_FALLBACK_V3, 0.0);
    sccd_v2 z2 = sccd_v2_normalize((sccd_v2){0.0, 0.0});
    assert_true(z2.x == 1.0 && z2.y == 0.0);
    z2 = sccd_v2_normalize((sccd_v2){NAN, 1.0});
    assert_true(z2.x == 1.0 && z2.y == 0.0);
    sccd_quat qi = sccd_quat_normalize((sccd_quat){0, 0, 0, 0});
    assert_true(qi.w == 1.0 && qi.x == 0.0);
    /* Tiny, subnormal and huge vectors (an angular velocity of 1e-160) keep unit length: no underflow or overflow. */
    const double scales[] = {1e-160, 1e-300, 1e200, -3.8e-309};
    for (int i = 0; i < 4; ++i) {
        sccd_v3 u = sccd_v3_normalize((sccd_v3){scales[i], 0.3 * scales[i], -0.1 * scales[i]});
        sccd_v2 u2 = sccd_v2_normalize((sccd_v2){scales[i], -0.7 * scales[i]});
        assert_true(fabs(sccd_v3_len(u) - 1.0) < 1e-12 && u.x * scales[i] > 0.0 && fabs(sccd_v2_len(u2) - 1.0) < 1e-12);
    }
}

static void test_validity(void **state)
{
    (void)state;
    assert_true(sccd_is_valid_real(1.0));
    assert_false(sccd_is_valid_real(NAN));
    assert_false(sccd_is_valid_real(INFINITY));
    assert_false(sccd_is_valid_real(-INFINITY));
    assert_false(sccd_is_valid_v2((sccd_v2){0.0, NAN}));
    assert_false(sccd_is_valid_v3((sccd_v3){0.0, 0.0, INFINITY}));
    assert_false(sccd_is_valid_rot2((sccd_rot2){2.0, 0.0}));
    assert_false(sccd_is_valid_quat((sccd_quat){0.0, 0.0, 0.0, 2.0}));
    assert_true(sccd_is_valid_circle((sccd_circle){{0, 0}, 0.0}));
    assert_false(sccd_is_valid_circle((sccd_circle){{0, 0}, -1.0}));
    assert_false(sccd_is_valid_sphere((sccd_sphere){{0, 0, 0}, NAN}));
    assert_false(sccd_is_valid_capsule2((sccd_capsule2){{0, 0}, {NAN, 0}, 1.0}));
    assert_false(sccd_is_valid_capsule3((sccd_capsule3){{0, 0, 0}, {0, 0, 0}, -0.5}));
    assert_true(sccd_is_valid_capsule3((sccd_capsule3){{0, 0, 0}, {0, 0, 0}, 0.0}));
    assert_false(sccd_is_valid_box2((sccd_box2){{0, 0}, {1, 0}, {-1, 1}}));
    assert_true(sccd_is_valid_box3((sccd_box3){{0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0}}));
    assert_false(sccd_is_valid_box3((sccd_box3){{0, 0, 0}, {0, 0, 0, 1}, {1, INFINITY, 0}}));
    assert_false(sccd_is_valid_aabb2((sccd_aabb2){{1, 0}, {0, 1}}));
    assert_false(sccd_is_valid_aabb3((sccd_aabb3){{0, 0, 0}, {1, 1, -1}}));
    assert_true(sccd_is_valid_aabb3((sccd_aabb3){{0, 0, 0}, {0, 0, 0}}));
    assert_false(sccd_is_valid_plane((sccd_plane){{0, 0, 2}, 0.0}));
    assert_true(sccd_is_valid_plane((sccd_plane){{0, 1, 0}, -3.0}));
    assert_false(sccd_is_valid_triangle((sccd_triangle){{0, 0, 0}, {1, 0, 0}, {0, NAN, 0}}));
    assert_false(sccd_is_valid_cylinder((sccd_cylinder){{0, 0, 0}, {1, 0, 0}, -1}));
    assert_false(sccd_is_valid_cone((sccd_cone){{0, 0, 0}, {1, 0, 0}, NAN}));
    assert_true(sccd_is_valid_ray3((sccd_ray3){{0, 0, 0}, {0, 0, 0}}));
    assert_false(sccd_is_valid_segment3((sccd_segment3){{0, 0, 0}, {0, -INFINITY, 0}}));
    sccd_shape2 s2 = {.type = SCCD_SHAPE_BOX, .box = {{0, 0}, {1, 0}, {1, 1}}};
    assert_true(sccd_is_valid_shape2(&s2));
    s2.type = (sccd_shape_type)99;
    assert_false(sccd_is_valid_shape2(&s2));
    assert_false(sccd_is_valid_shape2(NULL));
    sccd_shape3 s3 = {.type = SCCD_SHAPE_POLY};
    assert_false(sccd_is_valid_shape3(&s3));
    s3 = (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {{0, 0, 0}, 1.0}};
    assert_true(sccd_is_valid_shape3(&s3));
}

/* A coordinate for the validity checks' oracles: a third of the time one of
 * the edge values (finite values of every size: the largest doubles, whose
 * sums overflow, and subnormals; ±∞ and NaN of both signs), else an
 * ordinary one. */
static double edge_value(sccd_rng *g)
{
    static const double v[] = {0.0, -0.0, 1.0, -2.5, DBL_MAX, -DBL_MAX, 4.9e-324, -1e300, INFINITY, -INFINITY, NAN, -NAN};
    return sccd_rng_int(g, 3) == 0 ? v[sccd_rng_int(g, (int)(sizeof v / sizeof v[0]))] : sccd_rng_uniform(g, -10.0, 10.0);
}

/* The box checks against a per-bound oracle (each bound finite by
 * isfinite, each lo ≤ hi), over boxes whose bounds are drawn from finite
 * values of every size (the largest doubles, whose sums overflow, and
 * subnormals), ±∞ and NaN of both signs: every one of them decides. */
static void test_aabb_validity(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(31);
    for (int i = 0; i < 20000; ++i) {
        double b[6];
        bool finite = true;
        for (int k = 0; k < 6; ++k) {
            b[k] = edge_value(&g);
            finite &= isfinite(b[k]) != 0;
        }
        sccd_aabb3 a3 = {{b[0], b[1], b[2]}, {b[3], b[4], b[5]}};
        sccd_aabb2 a2 = {{b[0], b[1]}, {b[3], b[4]}};
        bool finite2 = isfinite(b[0]) && isfinite(b[1]) && isfinite(b[3]) && isfinite(b[4]);
        assert_int_equal(sccd_is_valid_aabb3(a3), finite && b[0] <= b[3] && b[1] <= b[4] && b[2] <= b[5]);
        assert_int_equal(sccd_is_valid_aabb2(a2), finite2 && b[0] <= b[3] && b[1] <= b[4]);
    }
}

/* The point, circle and sphere checks (one comparison of x − x sums, no
 * branch per component) against isfinite of each component and r ≥ 0, over
 * the same values as the box checks: every finite size, ±∞, NaN. */
static void test_point_validity(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(37);
    for (int i = 0; i < 20000; ++i) {
        double b[4];
        for (int k = 0; k < 4; ++k)
            b[k] = edge_value(&g);
        bool f2 = isfinite(b[0]) && isfinite(b[1]), f3 = f2 && isfinite(b[2]);
        assert_int_equal(sccd_is_valid_v2((sccd_v2){b[0], b[1]}), f2);
        assert_int_equal(sccd_is_valid_v3((sccd_v3){b[0], b[1], b[2]}), f3);
        assert_int_equal(sccd_is_valid_circle((sccd_circle){{b[0], b[1]}, b[3]}), f2 && isfinite(b[3]) && b[3] >= 0.0);
        assert_int_equal(sccd_is_valid_sphere((sccd_sphere){{b[0], b[1], b[2]}, b[3]}), f3 && isfinite(b[3]) && b[3] >= 0.0);
    }
}

/* Polygon convexity against a brute-force oracle: a polygon made from points
 * on a circle in angle order is convex and CCW; reversing it is not CCW;
 * pushing one vertex inside the chord of its neighbours makes it non-convex. */
static void test_poly_validity(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(4);
    for (int i = 0; i < N; ++i) {
        int n = 3 + sccd_rng_int(&g, SCCD_POLY_MAX - 2);
        double ang[SCCD_POLY_MAX];
        for (int k = 0; k < n; ++k)
            ang[k] = (k + sccd_rng_uniform(&g, 0.1, 0.9)) * 2.0 * SCCD_PI / n;
        sccd_poly2 p = {.n = n, .r = 0.0};
        sccd_v2 c = sccd_rng_v2(&g, 50.0);
        double rad = sccd_rng_uniform(&g, 0.1, 10.0);
        for (int k = 0; k < n; ++k)
            p.v[k] = sccd_v2_add(c, (sccd_v2){rad * cos(ang[k]), rad * sin(ang[k])});
        assert_true(sccd_is_valid_poly2(&p));
        sccd_poly2 rev = p;
        for (int k = 0; k < n; ++k)
            rev.v[k] = p.v[n - 1 - k];
        assert_false(sccd_is_valid_poly2(&rev));
        if (n >= 4) {
            /* Push one vertex past the chord of its neighbours: a reflex vertex. */
            sccd_poly2 dent = p;
            int k = sccd_rng_int(&g, n);
            sccd_v2 mid = sccd_v2_lerp(p.v[(k + n - 1) % n], p.v[(k + 1) % n], 0.5);
            dent.v[k] = sccd_v2_mad(mid, 0.5, sccd_v2_sub(mid, p.v[k]));
            assert_false(sccd_is_valid_poly2(&dent));
        }
    }
    /* A NaN or infinite coordinate anywhere, at any size of polygon. */
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int n = 1; n <= SCCD_POLY_MAX; ++n)
        for (int k = 0; k < 2 * n; ++k)
            for (int b = 0; b < 3; ++b) {
                sccd_poly2 p = {.n = n, .r = 0.0};
                for (int j = 0; j < n; ++j)
                    p.v[j] = (sccd_v2){cos(2.0 * SCCD_PI * j / n), sin(2.0 * SCCD_PI * j / n)};
                if (k % 2)
                    p.v[k / 2].y = bad[b];
                else
                    p.v[k / 2].x = bad[b];
                assert_false(sccd_is_valid_poly2(&p));
            }
    sccd_poly2 one = {.n = 1, .v = {{1, 2}}, .r = 0.5};
    assert_true(sccd_is_valid_poly2(&one));
    sccd_poly2 none = {.n = 0};
    assert_false(sccd_is_valid_poly2(&none));
    sccd_poly2 many = {.n = SCCD_POLY_MAX + 1};
    assert_false(sccd_is_valid_poly2(&many));
    assert_false(sccd_is_valid_poly2(NULL));
}

/* A regular octagon of circumradius r about c, turned by phi, with vertex k
 * at distance rk from c instead (r: convex; r·cos(π/4): on its neighbours'
 * chord; less: a reflex vertex). */
static sccd_poly2 octagon(sccd_v2 c, sccd_real r, sccd_real phi, int k, sccd_real rk)
{
    sccd_poly2 p = {.n = 8, .r = 0.0};
    for (int j = 0; j < 8; ++j) {
        sccd_real t = phi + 2.0 * SCCD_PI * j / 8, rj = j == k ? rk : r;
        p.v[j] = sccd_v2_add(c, (sccd_v2){rj * cos(t), rj * sin(t)});
    }
    return p;
}

/* The convexity tolerance follows the polygon, not where it lies or its
 * units: a vertex 1e-4 of the polygon's size inside its neighbours' chord
 * is refused at every size from subnormal to near DBL_MAX and 1e6 and 1e8 sizes
 * from the origin (the tolerance 1e-12·(1 + scale²) accepted every such
 * dent at 1e-150, far from the origin and near DBL_MAX, where it grew
 * infinite), while convex ones, ones with a vertex on the chord, and ones
 * with collinear vertices placed there by a rotation and a translation
 * (rounded), pass. */
static void test_poly_validity_scale(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(41);
    static const sccd_real sizes[] = {1e-310, 1e-200, 1e-150, 1e-3, 1.0, 1e3, 1e150, 1e300, 8e307};
    for (int i = 0; i < N; ++i) {
        sccd_real r = sizes[i % 9];
        static const sccd_real offsets[] = {1e6, 1e8}; /* sizes from the origin */
        sccd_real far = sccd_rng_int(&g, 2) ? offsets[sccd_rng_int(&g, 2)] * r : sccd_rng_uniform(&g, 0.0, 3.0) * r;
        if (r > 1e307) /* edges up to 1.6e308: near DBL_MAX by the octagon's own size */
            far = 0.0;
        sccd_v2 c = sccd_v2_scale(sccd_rng_unit2(&g), far);
        sccd_real phi = sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI);
        int k = sccd_rng_int(&g, 8);
        sccd_poly2 convex = octagon(c, r, phi, k, r), flat = octagon(c, r, phi, k, r * cos(SCCD_PI / 4));
        assert_true(sccd_is_valid_poly2(&convex));
        assert_true(sccd_is_valid_poly2(&flat));
        sccd_poly2 dented = octagon(c, r, phi, k, r * (cos(SCCD_PI / 4) - sccd_rng_uniform(&g, 1e-4, 0.5)));
        assert_false(sccd_is_valid_poly2(&dented));
        /* A square with its edges' middles, in its own frame, then placed. */
        static const sccd_v2 at[8] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
        sccd_xf2 xf = {c, sccd_rot2_make(phi)};
        sccd_poly2 square = {.n = 8, .r = 0.0};
        for (int j = 0; j < 8; ++j)
            square.v[j] = sccd_xf2_apply(xf, sccd_v2_scale(at[j], 0.5 * r));
        assert_true(sccd_is_valid_poly2(&square));
    }
}

/* Box corners and AABBs: every corner inside the AABB, and the AABB touched
 * on each side by some corner (so it is the smallest). */
static void test_box_corners_aabb(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(5);
    for (int i = 0; i < N; ++i) {
        sccd_box3 b = {sccd_rng_v3(&g, 10.0), sccd_rng_quat(&g),
                       {sccd_rng_uniform(&g, 0, 3), sccd_rng_uniform(&g, 0, 3), sccd_rng_uniform(&g, 0, 3)}};
        sccd_v3 c[8];
        sccd_box3_corners(b, c);
        sccd_aabb3 a = sccd_box3_aabb(b);
        sccd_v3 lo = c[0], hi = c[0];
        for (int k = 1; k < 8; ++k) {
            lo = sccd_v3_min(lo, c[k]);
            hi = sccd_v3_max(hi, c[k]);
        }
        assert_v3_near(a.lo, lo, 1e-12);
        assert_v3_near(a.hi, hi, 1e-12);
        sccd_box2 b2 = {sccd_rng_v2(&g, 10.0), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4)),
                        {sccd_rng_uniform(&g, 0, 3), sccd_rng_uniform(&g, 0, 3)}};
        sccd_v2 c2[4];
        sccd_box2_corners(b2, c2);
        sccd_aabb2 a2 = sccd_box2_aabb(b2);
        sccd_v2 lo2 = c2[0], hi2 = c2[0];
        for (int k = 1; k < 4; ++k) {
            lo2 = sccd_v2_min(lo2, c2[k]);
            hi2 = sccd_v2_max(hi2, c2[k]);
            /* consecutive corners are one edge apart: lengths 2h.x, 2h.y */
        }
        assert_true(sccd_v2_dist(a2.lo, lo2) < 1e-12 && sccd_v2_dist(a2.hi, hi2) < 1e-12);
        assert_true(fabs(sccd_v2_dist(c2[0], c2[1]) - 2.0 * b2.h.x) < 1e-12);
        assert_true(fabs(sccd_v2_dist(c2[1], c2[2]) - 2.0 * b2.h.y) < 1e-12);
        sccd_aabb2 u = sccd_aabb2_union(a2, (sccd_aabb2){lo2, hi2});
        assert_true(sccd_v2_dist(u.lo, a2.lo) < 1e-12);
        sccd_aabb3 u3 = sccd_aabb3_union(a, (sccd_aabb3){{-100, 0, 0}, {0, 0, 100}});
        assert_true(u3.lo.x == -100 && u3.hi.z == 100);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quat_matches_rodrigues), cmocka_unit_test(test_rot2_and_xf2),
        cmocka_unit_test(test_basis_and_normalize),   cmocka_unit_test(test_validity),
        cmocka_unit_test(test_aabb_validity),         cmocka_unit_test(test_point_validity),
        cmocka_unit_test(test_poly_validity),
        cmocka_unit_test(test_poly_validity_scale),
        cmocka_unit_test(test_box_corners_aabb),
    };
    return cmocka_run_group_tests_name("math", tests, NULL, NULL);
}
