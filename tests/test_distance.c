/* GJK distance (distance.h) and support functions (support.h) against
 * independent oracles: closed forms from geometry.h for circle/capsule pairs
 * and box–point by clamping in the box frame; brute force over features for
 * the rest (polygon edge–edge segment distances + containment; 3D box–box
 * vertex–solid and edge–edge distances + a separating-axis overlap test).
 * Scenes are scaled from 1e-3 to 1e4; degenerate and invalid inputs too. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "shape_oracle.h"

#define N_PAIRS 100000

static double log_scale(sccd_rng *g) { return pow(10.0, sccd_rng_uniform(g, -3.0, 4.0)); }

/* How far apart (in shape sizes) the two placements range: mostly near
 * contact, sometimes 10,000 sizes apart. */
static double spread(sccd_rng *g) { return sccd_rng_int(g, 16) == 0 ? 1e4 : sccd_rng_uniform(g, 0.3, 2.0); }

static sccd_shape2 scaled_shape2(sccd_rng *g, double s) { return sccd_rng_shape2(g, (sccd_shape_type)sccd_rng_int(g, 4), s); }

static sccd_shape3 scaled_shape3(sccd_rng *g, double s) { return sccd_rng_shape3(g, (sccd_shape_type)sccd_rng_int(g, 3), s); }

/* ---- 2D closed forms (the pairs the brief names) ---- */

static sccd_v2 world2(sccd_xf2 xf, sccd_v2 p) { return sccd_xf2_apply(xf, p); }

/* Distance from world point p to box b placed by xf: clamp in the box frame. */
static double point_box2(sccd_box2 b, sccd_xf2 xf, sccd_v2 p)
{
    sccd_v2 c = world2(xf, b.c);
    sccd_rot2 q = sccd_rot2_mul(xf.q, b.q);
    sccd_v2 l = sccd_rot2_inv_apply(q, sccd_v2_sub(p, c));
    sccd_v2 e = {fmax(0.0, fabs(l.x) - b.h.x), fmax(0.0, fabs(l.y) - b.h.y)};
    return sccd_v2_len(e);
}

/* Closed form when one exists, else the brute-force oracle; *closed says which. */
static double reference2(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb, bool *closed)
{
    *closed = true;
    sccd_shape_type ta = a->type, tb = b->type;
    if (ta == SCCD_SHAPE_CIRCLE && tb == SCCD_SHAPE_CIRCLE)
        return fmax(0.0, sccd_v2_dist(world2(xa, a->circle.c), world2(xb, b->circle.c)) - a->circle.r - b->circle.r);
    if (ta == SCCD_SHAPE_CIRCLE && tb == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_distance_point_segment2(world2(xa, a->circle.c), world2(xb, b->capsule.a),
                                                      world2(xb, b->capsule.b)) - a->circle.r - b->capsule.r);
    if (ta == SCCD_SHAPE_CAPSULE && tb == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_distance_segment_segment2(world2(xa, a->capsule.a), world2(xa, a->capsule.b),
                                                        world2(xb, b->capsule.a), world2(xb, b->capsule.b)) -
                             a->capsule.r - b->capsule.r);
    if (ta == SCCD_SHAPE_BOX && tb == SCCD_SHAPE_CIRCLE)
        return fmax(0.0, point_box2(a->box, xa, world2(xb, b->circle.c)) - b->circle.r);
    *closed = false;
    return sccd_oracle_distance2(a, xa, b, xb);
}

static double point_to_shape2(sccd_v2 p, const sccd_shape2 *s, sccd_xf2 xf)
{
    sccd_shape2 pt = {.type = SCCD_SHAPE_CIRCLE, .circle = {p, 0.0}};
    return sccd_oracle_distance2(&pt, sccd_xf2_identity(), s, xf);
}

static void test_distance2_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(201);
    int closed = 0, brute = 0, overlaps = 0, max_it = 0;
    for (int i = 0; i < N_PAIRS; ++i) {
        double s = log_scale(&g);
        sccd_shape2 a = scaled_shape2(&g, s), b = scaled_shape2(&g, s);
        sccd_xf2 xa = {sccd_rng_v2(&g, spread(&g) * s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_xf2 xb = {sccd_rng_v2(&g, spread(&g) * s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        bool is_closed;
        double ref = reference2(&a, xa, &b, xb, &is_closed);
        closed += is_closed;
        brute += !is_closed;
        double tol = 1e-9 * s;
        sccd_distance2 d = sccd_shape2_distance(&a, xa, &b, xb);
        sccd_distance2 e = sccd_shape2_distance(&b, xb, &a, xa);
        max_it = d.iterations > max_it ? d.iterations : max_it;
        if (fabs(d.distance - ref) > tol)
            fprintf(stderr, "case %d: gjk %.17g ref %.17g (types %d %d, s %g)\n", i, d.distance, ref, a.type, b.type, s);
        assert_true(fabs(d.distance - ref) <= tol);
        assert_true(fabs(e.distance - ref) <= tol);
        assert_true(ref > 0.0 || d.overlap);
        assert_true(!d.overlap || ref <= tol);
        overlaps += d.overlap;
        assert_true(sccd_is_valid_v2(d.pa) && sccd_is_valid_v2(d.pb) && fabs(sccd_v2_len(d.normal) - 1.0) < 1e-12);
        if (!d.overlap) {
            /* The witnesses lie on their shapes and are `distance` apart along the normal. */
            assert_true(point_to_shape2(d.pa, &a, xa) <= tol);
            assert_true(point_to_shape2(d.pb, &b, xb) <= tol);
            assert_true(fabs(sccd_v2_dist(d.pa, d.pb) - d.distance) <= tol);
            assert_true(fabs(sccd_v2_dot(sccd_v2_sub(d.pb, d.pa), d.normal) - d.distance) <= tol);
            assert_true(sccd_v2_dot(d.normal, e.normal) < -1.0 + 1e-6);
        }
    }
    printf("distance2: %d pairs (%d closed-form, %d brute-force), %d overlapping, max GJK iterations %d\n",
           N_PAIRS, closed, brute, overlaps, max_it);
}

/* ---- 3D ---- */

static double reference3(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb, bool *closed)
{
    *closed = a->type != SCCD_SHAPE_BOX || b->type != SCCD_SHAPE_BOX;
    sccd_v3 (*w)(sccd_xf3, sccd_v3) = sccd_xf3_apply;
    if (a->type == SCCD_SHAPE_CIRCLE && b->type == SCCD_SHAPE_CIRCLE)
        return fmax(0.0, sccd_v3_dist(w(xa, a->sphere.c), w(xb, b->sphere.c)) - a->sphere.r - b->sphere.r);
    if (a->type == SCCD_SHAPE_CIRCLE && b->type == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_distance_point_segment3(w(xa, a->sphere.c), w(xb, b->capsule.a), w(xb, b->capsule.b)) -
                             a->sphere.r - b->capsule.r);
    if (a->type == SCCD_SHAPE_CAPSULE && b->type == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_distance_segment_segment3(w(xa, a->capsule.a), w(xa, a->capsule.b), w(xb, b->capsule.a),
                                                        w(xb, b->capsule.b)) -
                             a->capsule.r - b->capsule.r);
    return sccd_oracle_distance3(a, xa, b, xb);
}

static double point_to_shape3(sccd_v3 p, const sccd_shape3 *s, sccd_xf3 xf)
{
    sccd_shape3 pt = {.type = SCCD_SHAPE_CIRCLE, .sphere = {p, 0.0}};
    return sccd_oracle_distance3(&pt, sccd_xf3_identity(), s, xf);
}

static void test_distance3_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(301);
    int boxbox = 0, overlaps = 0, max_it = 0;
    for (int i = 0; i < N_PAIRS; ++i) {
        double s = log_scale(&g);
        sccd_shape3 a = scaled_shape3(&g, s), b = scaled_shape3(&g, s);
        sccd_xf3 xa = {sccd_rng_v3(&g, spread(&g) * s), sccd_rng_quat(&g)};
        sccd_xf3 xb = {sccd_rng_v3(&g, spread(&g) * s), sccd_rng_quat(&g)};
        bool is_closed;
        double ref = reference3(&a, xa, &b, xb, &is_closed);
        boxbox += !is_closed;
        double tol = 1e-9 * s;
        sccd_distance3 d = sccd_shape3_distance(&a, xa, &b, xb);
        sccd_distance3 e = sccd_shape3_distance(&b, xb, &a, xa);
        max_it = d.iterations > max_it ? d.iterations : max_it;
        if (fabs(d.distance - ref) > tol)
            fprintf(stderr, "case %d: gjk %.17g ref %.17g (types %d %d, s %g)\n", i, d.distance, ref, a.type, b.type, s);
        assert_true(fabs(d.distance - ref) <= tol);
        assert_true(fabs(e.distance - ref) <= tol);
        assert_true(ref > 0.0 || d.overlap);
        assert_true(!d.overlap || ref <= tol);
        overlaps += d.overlap;
        assert_true(sccd_is_valid_v3(d.pa) && sccd_is_valid_v3(d.pb) && fabs(sccd_v3_len(d.normal) - 1.0) < 1e-12);
        if (!d.overlap) {
            assert_true(point_to_shape3(d.pa, &a, xa) <= tol);
            assert_true(point_to_shape3(d.pb, &b, xb) <= tol);
            assert_true(fabs(sccd_v3_dist(d.pa, d.pb) - d.distance) <= tol);
            assert_true(fabs(sccd_v3_dot(sccd_v3_sub(d.pb, d.pa), d.normal) - d.distance) <= tol);
        }
    }
    printf("distance3: %d pairs (%d box-box by brute force), %d overlapping, max GJK iterations %d\n", N_PAIRS,
           boxbox, overlaps, max_it);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance2_random),
        cmocka_unit_test(test_distance3_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
