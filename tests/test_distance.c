/* GJK distance (distance.h) and support functions (support.h) against
 * independent oracles: golden-section searches (geom_oracle.h) for
 * circle/capsule pairs (the library answers those in closed form with its
 * own segment distance, so its own function would not check it) and
 * box–point by clamping in the box frame; brute force over features for
 * the rest (polygon edge–edge segment distances + containment; 3D box–box
 * vertex–solid and edge–edge distances + a separating-axis overlap test).
 * Scenes are scaled from 1e-3 to 1e4; degenerate and invalid inputs too. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "geom_oracle.h"
#include "shape_oracle.h"

#define N_PAIRS 100000

static double log_scale(sccd_rng *g) { return pow(10.0, sccd_rng_uniform(g, -3.0, 4.0)); }

/* How far apart (in shape sizes) the two placements range: mostly near
 * contact, sometimes 10,000 sizes apart. */
static double spread(sccd_rng *g) { return sccd_rng_int(g, 16) == 0 ? 1e4 : sccd_rng_uniform(g, 0.3, 2.0); }

static sccd_shape2 scaled_shape2(sccd_rng *g, double s) { return sccd_rng_shape2(g, (sccd_shape_type)sccd_rng_int(g, 4), s); }

static sccd_shape3 scaled_shape3(sccd_rng *g, double s) { return sccd_rng_shape3(g, (sccd_shape_type)sccd_rng_int(g, 3), s); }

/* ---- 2D closed forms (circle, capsule and box pairs) ---- */

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

/* An oracle of one dimension's search or a closed form when one exists, else the brute-force oracle; *closed says which. */
static double reference2(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb, bool *closed)
{
    *closed = true;
    sccd_shape_type ta = a->type, tb = b->type;
    if (ta == SCCD_SHAPE_CIRCLE && tb == SCCD_SHAPE_CIRCLE)
        return fmax(0.0, sccd_v2_dist(world2(xa, a->circle.c), world2(xb, b->circle.c)) - a->circle.r - b->circle.r);
    if (ta == SCCD_SHAPE_CIRCLE && tb == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_oracle_point_segment_distance2(world2(xa, a->circle.c), world2(xb, b->capsule.a),
                                                      world2(xb, b->capsule.b)) - a->circle.r - b->capsule.r);
    if (ta == SCCD_SHAPE_CAPSULE && tb == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_oracle_segment_distance2(world2(xa, a->capsule.a), world2(xa, a->capsule.b),
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

/* A random circle, capsule or polygon of size about s rounded by 5-50 % of
 * s, and its core (the same, radius 0). */
static sccd_shape2 rounded_shape2(sccd_rng *g, double s, sccd_shape2 *core)
{
    static const sccd_shape_type types[3] = {SCCD_SHAPE_CIRCLE, SCCD_SHAPE_CAPSULE, SCCD_SHAPE_POLY};
    sccd_shape2 x = sccd_rng_shape2(g, types[sccd_rng_int(g, 3)], s);
    double r = sccd_rng_uniform(g, 0.05, 0.5) * s;
    *core = x;
    double *rx = x.type == SCCD_SHAPE_CIRCLE ? &x.circle.r : x.type == SCCD_SHAPE_CAPSULE ? &x.capsule.r : &x.poly.r;
    double *rc = x.type == SCCD_SHAPE_CIRCLE ? &core->circle.r : x.type == SCCD_SHAPE_CAPSULE ? &core->capsule.r : &core->poly.r;
    *rx = r;
    *rc = 0.0;
    return x;
}

/* Rounded shapes that overlap while their cores stand apart: the query's
 * points lie a radius out from the cores' closest points, along its
 * normal, so they overlap along it by the radii less the cores' distance.
 * The impact solver reads a pair's start depth from that, and the distance
 * of the pair with its radii shrunk (impact2.c's radii_gap). Oracle: the
 * cores' brute-force distance. */
static void test_distance2_overlap_witness(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(207);
    int checked = 0;
    for (int i = 0; i < N_PAIRS && checked < 20000; ++i) {
        double s = log_scale(&g);
        sccd_shape2 ka, kb, a = rounded_shape2(&g, s, &ka), b = rounded_shape2(&g, s, &kb);
        sccd_xf2 xa = {sccd_rng_v2(&g, s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_xf2 xb = {sccd_rng_v2(&g, s), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        double ra = a.type == SCCD_SHAPE_CIRCLE ? a.circle.r : a.type == SCCD_SHAPE_CAPSULE ? a.capsule.r : a.poly.r;
        double rb = b.type == SCCD_SHAPE_CIRCLE ? b.circle.r : b.type == SCCD_SHAPE_CAPSULE ? b.capsule.r : b.poly.r;
        double core = sccd_oracle_distance2(&ka, xa, &kb, xb), tol = 1e-9 * s;
        if (!(core > 1e-3 * s) || !(core < ra + rb - 1e-3 * s)) /* cores apart, shapes overlapping, both beyond doubt */
            continue;
        sccd_distance2 d = sccd_shape2_distance(&a, xa, &b, xb);
        assert_true(d.overlap);
        assert_true(fabs(sccd_v2_len(d.normal) - 1.0) < 1e-12);
        double o = sccd_v2_dot(sccd_v2_sub(d.pa, d.pb), d.normal);
        sccd_v2 qa = sccd_v2_mad(d.pa, -ra, d.normal), qb = sccd_v2_mad(d.pb, rb, d.normal);
        if (fabs(o - (ra + rb - core)) > tol)
            fprintf(stderr, "case %d: overlap %.17g, radii less the cores' distance %.17g (types %d %d, s %g)\n", i, o,
                    ra + rb - core, a.type, b.type, s);
        assert_true(fabs(o - (ra + rb - core)) <= tol);
        assert_true(point_to_shape2(qa, &ka, xa) <= tol);
        assert_true(point_to_shape2(qb, &kb, xb) <= tol);
        assert_true(fabs(sccd_v2_dist(qa, qb) - core) <= tol);
        ++checked;
    }
    printf("distance2, overlapping with cores apart: %d pairs\n", checked);
    assert_true(checked >= 10000);
}

/* ---- 3D ---- */

static double reference3(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb, bool *closed)
{
    *closed = a->type != SCCD_SHAPE_BOX || b->type != SCCD_SHAPE_BOX;
    sccd_v3 (*w)(sccd_xf3, sccd_v3) = sccd_xf3_apply;
    if (a->type == SCCD_SHAPE_CIRCLE && b->type == SCCD_SHAPE_CIRCLE)
        return fmax(0.0, sccd_v3_dist(w(xa, a->sphere.c), w(xb, b->sphere.c)) - a->sphere.r - b->sphere.r);
    if (a->type == SCCD_SHAPE_CIRCLE && b->type == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_oracle_point_segment_distance3(w(xa, a->sphere.c), w(xb, b->capsule.a), w(xb, b->capsule.b)) -
                             a->sphere.r - b->capsule.r);
    if (a->type == SCCD_SHAPE_CAPSULE && b->type == SCCD_SHAPE_CAPSULE)
        return fmax(0.0, sccd_oracle_segment_distance3(w(xa, a->capsule.a), w(xa, a->capsule.b), w(xb, b->capsule.a),
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


/* ---- hand-made degenerate cases ---- */

static sccd_shape2 circle2(double x, double y, double r) { return (sccd_shape2){.type = SCCD_SHAPE_CIRCLE, .circle = {{x, y}, r}}; }

static void test_distance2_degenerate(void **state)
{
    (void)state;
    sccd_xf2 id = sccd_xf2_identity();
    /* Two points at one place: overlap, a defined normal, distance 0. */
    sccd_shape2 p = circle2(0, 0, 0), q = circle2(0, 0, 0);
    sccd_distance2 d = sccd_shape2_distance(&p, id, &q, id);
    assert_true(d.overlap && d.distance == 0.0 && d.normal.x == 1.0 && d.normal.y == 0.0);
    /* Exactly touching circles count as overlapping. */
    sccd_shape2 c1 = circle2(0, 0, 1), c2 = circle2(2, 0, 1);
    d = sccd_shape2_distance(&c1, id, &c2, id);
    assert_true(d.overlap && d.distance == 0.0 && fabs(d.normal.x - 1.0) < 1e-12);
    /* Only the rounded parts overlap: normal and deepest points from the cores. */
    sccd_shape2 c3 = circle2(1.5, 0, 1);
    d = sccd_shape2_distance(&c1, id, &c3, id);
    assert_true(d.overlap && fabs(d.pa.x - 1.0) < 1e-12 && fabs(d.pb.x - 0.5) < 1e-12);
    /* Zero-size box, zero-length capsule, single- and two-vertex polygons. */
    sccd_shape2 zbox = {.type = SCCD_SHAPE_BOX, .box = {{0, 0}, {1, 0}, {0, 0}}};
    sccd_shape2 zcap = {.type = SCCD_SHAPE_CAPSULE, .capsule = {{3, 4}, {3, 4}, 0.5}};
    sccd_shape2 poly1 = {.type = SCCD_SHAPE_POLY, .poly = {1, {{0, 10}}, 0.0}};
    sccd_shape2 poly2 = {.type = SCCD_SHAPE_POLY, .poly = {2, {{-1, 5}, {1, 5}}, 1.0}};
    assert_true(fabs(sccd_shape2_distance(&zbox, id, &zcap, id).distance - 4.5) < 1e-12);
    assert_true(fabs(sccd_shape2_distance(&poly1, id, &poly2, id).distance - 4.0) < 1e-12);
    assert_true(fabs(sccd_shape2_distance(&zbox, id, &poly2, id).distance - 4.0) < 1e-12);
    /* Repeated and collinear vertices; a box deep inside a polygon. */
    sccd_shape2 sq = {.type = SCCD_SHAPE_POLY, .poly = {6, {{-2, -2}, {0, -2}, {2, -2}, {2, -2}, {2, 2}, {-2, 2}}, 0.0}};
    sccd_shape2 box = {.type = SCCD_SHAPE_BOX, .box = {{0, 0}, {1, 0}, {0.5, 0.5}}};
    d = sccd_shape2_distance(&sq, id, &box, id);
    assert_true(d.overlap && d.distance == 0.0 && sccd_is_valid_v2(d.pa));
    /* A circle against polygons with no inside (all vertices on one line,
     * or at one point: valid) and against a triangle with one, from points
     * along the line past its ends and inside: the brute-force oracle's
     * distance, both ways round. */
    sccd_shape2 flat = {.type = SCCD_SHAPE_POLY, .poly = {3, {{0, 0}, {1, 0}, {2, 0}}, 0.25}};
    sccd_shape2 dot = {.type = SCCD_SHAPE_POLY, .poly = {3, {{1, 1}, {1, 1}, {1, 1}}, 0.0}};
    sccd_shape2 tri = {.type = SCCD_SHAPE_POLY, .poly = {3, {{0, 0}, {2, 0}, {1, 1e-3}}, 0.0}};
    const sccd_shape2 *polys[3] = {&flat, &dot, &tri};
    const sccd_v2 at[4] = {{5, 0}, {-3, 0}, {1, 0.0004}, {1, -2}};
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 4; ++i) {
            sccd_shape2 ball = circle2(at[i].x, at[i].y, 0.1);
            double ref = sccd_oracle_distance2(&ball, id, polys[k], id);
            assert_true(fabs(sccd_shape2_distance(&ball, id, polys[k], id).distance - ref) < 1e-9);
            assert_true(fabs(sccd_shape2_distance(polys[k], id, &ball, id).distance - ref) < 1e-9);
        }
    /* Face-to-face boxes one unit apart, far from the origin and tiny. */
    sccd_xf2 far = {{1e4, -1e4}, sccd_rot2_make(0.3)};
    sccd_shape2 tiny = {.type = SCCD_SHAPE_BOX, .box = {{0, 0}, {1, 0}, {1e-3, 1e-3}}};
    sccd_xf2 next = {sccd_v2_add(far.p, sccd_rot2_apply(far.q, (sccd_v2){3e-3, 0})), far.q};
    d = sccd_shape2_distance(&tiny, far, &tiny, next);
    assert_true(fabs(d.distance - 1e-3) < 1e-12);
    /* Invalid input: a check fires, INFINITY, no NaN. */
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_shape2 nan_circle = circle2(NAN, 0, 1);
    sccd_shape2 bad_poly = {.type = SCCD_SHAPE_POLY, .poly = {0}};
    sccd_xf2 bad_xf = {{0, 0}, {2, 0}};
    sccd_distance2 outs[4] = {sccd_shape2_distance(&nan_circle, id, &c1, id), sccd_shape2_distance(&bad_poly, id, &c1, id),
                              sccd_shape2_distance(&c1, bad_xf, &c1, id), sccd_shape2_distance(NULL, id, &c1, id)};
    for (int i = 0; i < 4; ++i)
        assert_true(outs[i].distance == INFINITY && !outs[i].overlap && sccd_is_valid_v2(outs[i].pa) &&
                    sccd_is_valid_v2(outs[i].normal));
    sccd_proxy2 bad = {.n = 0}, nanp = {.v = {{NAN, 0}}, .n = 1}, ok = {.n = 1}, negr = {.n = 1, .r = -1.0};
    assert_true(sccd_proxy2_distance(&bad, &ok).distance == INFINITY);
    assert_true(sccd_proxy2_distance(&ok, &nanp).distance == INFINITY);
    assert_true(sccd_proxy2_distance(&negr, &ok).distance == INFINITY);
    assert_true(sccd_proxy2_distance(NULL, &ok).distance == INFINITY);
    assert_int_equal(sccd_test_assert_count(), 8);
    sccd_set_assert_handler(NULL);
}

static sccd_shape3 box3(double hx, double hy, double hz)
{
    return (sccd_shape3){.type = SCCD_SHAPE_BOX, .box = {{0, 0, 0}, {0, 0, 0, 1}, {hx, hy, hz}}};
}

static void test_distance3_degenerate(void **state)
{
    (void)state;
    sccd_xf3 id = sccd_xf3_identity();
    sccd_xf3 at = {{3, 0, 0}, {0, 0, 0, 1}};
    /* Coincident zero-size boxes; a point box 3 away from a zero box. */
    sccd_shape3 z = box3(0, 0, 0);
    sccd_distance3 d = sccd_shape3_distance(&z, id, &z, id);
    assert_true(d.overlap && d.distance == 0.0 && d.normal.x == 1.0);
    assert_true(fabs(sccd_shape3_distance(&z, id, &z, at).distance - 3.0) < 1e-12);
    /* Face-to-face unit boxes touching exactly: overlap; one unit apart: 1. */
    sccd_shape3 u = box3(1, 1, 1);
    sccd_xf3 touch = {{2, 0.3, -0.2}, {0, 0, 0, 1}};
    assert_true(sccd_shape3_distance(&u, id, &u, touch).overlap);
    d = sccd_shape3_distance(&u, id, &u, at);
    assert_true(!d.overlap && fabs(d.distance - 1.0) < 1e-12 && fabs(d.normal.x - 1.0) < 1e-12);
    /* A sphere inside a box; zero-length capsules; a flat box (a square). */
    sccd_shape3 s = {.type = SCCD_SHAPE_CIRCLE, .sphere = {{0.1, 0, 0}, 0.2}};
    assert_true(sccd_shape3_distance(&u, id, &s, id).overlap);
    sccd_shape3 zc = {.type = SCCD_SHAPE_CAPSULE, .capsule = {{0, 5, 0}, {0, 5, 0}, 1.0}};
    sccd_shape3 flat = box3(1, 1, 0);
    assert_true(fabs(sccd_shape3_distance(&flat, id, &zc, id).distance - 3.0) < 1e-12);
    /* Edge against edge of crossed boxes, far from the origin and tiny. */
    sccd_xf3 far = {{1e4, 1e4, -1e4}, sccd_quat_axis_angle((sccd_v3){0, 0, 1}, 0.7)};
    sccd_shape3 t = box3(1e-3, 1e-3, 1e-3);
    sccd_xf3 next = {sccd_v3_add(far.p, sccd_quat_apply(far.q, (sccd_v3){0, 0, 3e-3})), far.q};
    assert_true(fabs(sccd_shape3_distance(&t, far, &t, next).distance - 1e-3) < 1e-12);
    /* Invalid input. */
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_shape3 poly = {.type = SCCD_SHAPE_POLY};
    sccd_shape3 nan_sphere = {.type = SCCD_SHAPE_CIRCLE, .sphere = {{0, NAN, 0}, 1}};
    sccd_xf3 bad_xf = {{0, 0, 0}, {0, 0, 0, 0}};
    sccd_distance3 outs[4] = {sccd_shape3_distance(&poly, id, &u, id), sccd_shape3_distance(&nan_sphere, id, &u, id),
                              sccd_shape3_distance(&u, id, &u, bad_xf), sccd_shape3_distance(&u, id, NULL, id)};
    for (int i = 0; i < 4; ++i)
        assert_true(outs[i].distance == INFINITY && sccd_is_valid_v3(outs[i].pb) && sccd_is_valid_v3(outs[i].normal));
    sccd_proxy3 bad = {.n = SCCD_PROXY_MAX + 1}, ok = {.n = 1};
    assert_true(sccd_proxy3_distance(&bad, &ok).distance == INFINITY);
    assert_int_equal(sccd_test_assert_count(), 5);
    sccd_set_assert_handler(NULL);
}

/* ---- support functions against sampled boundaries ---- */

static void test_support2(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(601);
    for (int i = 0; i < 10000; ++i) {
        sccd_shape2 s = sccd_rng_shape2(&g, (sccd_shape_type)sccd_rng_int(&g, 4), 1.0);
        sccd_xf2 xf = {sccd_rng_v2(&g, 5.0), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4))};
        sccd_v2 dir = sccd_v2_scale(sccd_rng_unit2(&g), sccd_rng_uniform(&g, 0.1, 10.0));
        sccd_v2 u = sccd_v2_normalize(dir);
        /* The support point lies on the shape, and no sampled point of the shape is farther along dir. */
        sccd_v2 x = sccd_shape2_support(&s, xf, dir);
        assert_true(point_to_shape2(x, &s, xf) <= 1e-9);
        sccd_aabb2 box = sccd_shape2_aabb(&s, xf);
        for (int k = 0; k < 64; ++k) {
            sccd_v2 y = sccd_shape2_support(&s, xf, sccd_rng_unit2(&g));
            assert_true(sccd_v2_dot(y, u) <= sccd_v2_dot(x, u) + 1e-9);
            assert_true(y.x >= box.lo.x - 1e-9 && y.x <= box.hi.x + 1e-9 && y.y >= box.lo.y - 1e-9 && y.y <= box.hi.y + 1e-9);
        }
        /* The AABB is tight: each side is reached by the support in its direction. */
        assert_true(fabs(sccd_shape2_support(&s, xf, (sccd_v2){1, 0}).x - box.hi.x) < 1e-12);
        assert_true(fabs(sccd_shape2_support(&s, xf, (sccd_v2){0, -1}).y - box.lo.y) < 1e-12);
        /* Farthest distance against dense sampling of the rounded boundary. */
        sccd_v2 p = sccd_rng_v2(&g, 2.0);
        double f = sccd_shape2_farthest(&s, p), o = sccd_oracle_farthest2(&s, p);
        assert_true(f >= o - 1e-12 && f <= o + 1e-3 * (1.0 + f));
        /* Half thickness: a disc that wide about the shape's middle lies in the shape (sampled); closed forms. */
        double h = sccd_shape2_half_thickness(&s);
        sccd_v2 mid = s.type == SCCD_SHAPE_CIRCLE ? s.circle.c : s.type == SCCD_SHAPE_CAPSULE ? sccd_v2_lerp(s.capsule.a, s.capsule.b, 0.5)
                    : s.type == SCCD_SHAPE_BOX ? s.box.c : (sccd_v2){0, 0};
        for (int k = 0; s.type == SCCD_SHAPE_POLY && k < s.poly.n; ++k)
            mid = sccd_v2_mad(mid, 1.0 / s.poly.n, s.poly.v[k]);
        for (int k = 0; k < 32; ++k)
            assert_true(point_to_shape2(sccd_xf2_apply(xf, sccd_v2_mad(mid, h, sccd_rng_unit2(&g))), &s, xf) <= 1e-9);
        if (s.type == SCCD_SHAPE_CIRCLE)
            assert_true(h == s.circle.r);
        if (s.type == SCCD_SHAPE_CAPSULE)
            assert_true(h == s.capsule.r);
        if (s.type == SCCD_SHAPE_BOX)
            assert_true(h == fmin(s.box.h.x, s.box.h.y));
    }
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_shape2 bad = {.type = SCCD_SHAPE_CIRCLE, .circle = {{0, 0}, -1}};
    assert_true(sccd_shape2_farthest(&bad, (sccd_v2){0, 0}) == INFINITY);
    sccd_aabb2 b = sccd_shape2_aabb(&bad, (sccd_xf2){{1, 2}, {1, 0}});
    assert_true(b.lo.x == 1.0 && b.hi.y == 2.0);
    sccd_shape2 ok = {.type = SCCD_SHAPE_CIRCLE, .circle = {{0, 0}, 1}};
    assert_true(sccd_is_valid_v2(sccd_shape2_support(&ok, sccd_xf2_identity(), (sccd_v2){NAN, 0})));
    assert_true(sccd_shape2_half_thickness(&bad) == 0.0);
    assert_int_equal(sccd_test_assert_count(), 4);
    sccd_set_assert_handler(NULL);
}

static void test_support3(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(602);
    for (int i = 0; i < 10000; ++i) {
        sccd_shape3 s = sccd_rng_shape3(&g, (sccd_shape_type)sccd_rng_int(&g, 3), 1.0);
        sccd_xf3 xf = {sccd_rng_v3(&g, 5.0), sccd_rng_quat(&g)};
        sccd_v3 dir = sccd_v3_scale(sccd_rng_unit3(&g), sccd_rng_uniform(&g, 0.1, 10.0));
        sccd_v3 u = sccd_v3_normalize(dir);
        sccd_v3 x = sccd_shape3_support(&s, xf, dir);
        assert_true(point_to_shape3(x, &s, xf) <= 1e-9);
        sccd_aabb3 box = sccd_shape3_aabb(&s, xf);
        for (int k = 0; k < 64; ++k) {
            sccd_v3 y = sccd_shape3_support(&s, xf, sccd_rng_unit3(&g));
            assert_true(sccd_v3_dot(y, u) <= sccd_v3_dot(x, u) + 1e-9);
            assert_true(y.x >= box.lo.x - 1e-9 && y.y <= box.hi.y + 1e-9 && y.z >= box.lo.z - 1e-9);
        }
        assert_true(fabs(sccd_shape3_support(&s, xf, (sccd_v3){0, 0, 1}).z - box.hi.z) < 1e-12);
        sccd_v3 p = sccd_rng_v3(&g, 2.0);
        double f = sccd_shape3_farthest(&s, p), o = sccd_oracle_farthest3(&s, p);
        assert_true(f >= o - 1e-12 && f <= o + 1e-2 * (1.0 + f));
        /* Half thickness: a ball that wide about the shape's middle lies in the shape (sampled); closed forms. */
        double h = sccd_shape3_half_thickness(&s);
        sccd_v3 mid = s.type == SCCD_SHAPE_CIRCLE    ? s.sphere.c
                    : s.type == SCCD_SHAPE_CAPSULE ? sccd_v3_scale(sccd_v3_add(s.capsule.a, s.capsule.b), 0.5)
                                                   : s.box.c;
        for (int k = 0; k < 32; ++k)
            assert_true(point_to_shape3(sccd_xf3_apply(xf, sccd_v3_mad(mid, h, sccd_rng_unit3(&g))), &s, xf) <= 1e-9);
        if (s.type == SCCD_SHAPE_CIRCLE)
            assert_true(h == s.sphere.r);
        if (s.type == SCCD_SHAPE_CAPSULE)
            assert_true(h == s.capsule.r);
        if (s.type == SCCD_SHAPE_BOX)
            assert_true(h == fmin(s.box.h.x, fmin(s.box.h.y, s.box.h.z)));
    }
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_shape3 bad = {.type = SCCD_SHAPE_POLY};
    assert_true(sccd_shape3_farthest(&bad, (sccd_v3){0, 0, 0}) == INFINITY);
    sccd_aabb3 b = sccd_shape3_aabb(&bad, (sccd_xf3){{1, 2, 3}, {0, 0, 0, 1}});
    assert_true(b.lo.z == 3.0 && b.hi.x == 1.0);
    sccd_shape3 ok = box3(1, 1, 1);
    assert_true(sccd_is_valid_v3(sccd_shape3_support(&ok, sccd_xf3_identity(), (sccd_v3){0, INFINITY, 0})));
    assert_true(sccd_shape3_half_thickness(&bad) == 0.0);
    assert_int_equal(sccd_test_assert_count(), 4);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance2_random),
        cmocka_unit_test(test_distance2_overlap_witness),
        cmocka_unit_test(test_distance3_random),
        cmocka_unit_test(test_distance2_degenerate),
        cmocka_unit_test(test_distance3_degenerate),
        cmocka_unit_test(test_support2),
        cmocka_unit_test(test_support3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
