/* Geometry primitives against independent oracles:
 *  - closest points and distances: nested golden-section search of the
 *    convex distance function (tests/oracles/geom_oracle.c), which never
 *    undercuts the true minimum; the returned points are substituted back
 *    (they must sit at their parameters and realise the returned distance);
 *  - segment–segment intersection: the oracle distance (apart beyond the
 *    band ⇒ NONE) and the classic straddle test with a margin (a clear
 *    crossing ⇒ ONE); points substituted back into both segments;
 *  - segment–circle and circle–circle: the number of points from distances
 *    alone (nearest and farthest point of the segment from the centre;
 *    centre distance against ra + rb and |ra − rb|); points substituted
 *    back into both sets;
 *  - point in box / quad: the triangle-area criterion (p inside a convex
 *    polygon iff the triangles p–edge add up to its area).
 * Cases within the band (1e-7 of the scene) of a decision are ambiguous
 * and counted (they must stay rare); constructed touching and near-touching
 * cases are checked strictly. Symmetric pairs are run in both orders. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "geom_oracle.h"
#include "test_util.h"

#define N 10000
#define BAND 1e-7 /* relative: ambiguity band and near-touching gap */
#define TOL 1e-8  /* relative: substituted points must be this close */

static double mag2(sccd_v2 v) { return fmax(fabs(v.x), fabs(v.y)); }

/* ---- closest points and distances ---- */

static void test_point_segment(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(201);
    for (int i = 0; i < N; ++i) {
        sccd_v2 p = sccd_rng_v2(&g, 5), a = sccd_rng_v2(&g, 5), b = i % 10 == 0 ? a : sccd_rng_v2(&g, 5);
        double want = sccd_oracle_point_segment_distance2(p, a, b), t;
        sccd_v2 x = sccd_closest_point_segment2(p, a, b, &t);
        assert_true(t >= 0.0 && t <= 1.0);
        assert_true(sccd_v2_dist(x, sccd_v2_lerp(a, b, t)) < 1e-12 * 10);
        assert_true(fabs(sccd_v2_dist(p, x) - want) < 1e-9);
        assert_true(fabs(sccd_distance_point_segment2(p, a, b) - want) < 1e-9);
        assert_true(fabs(sccd_distance_point_segment2(p, b, a) - want) < 1e-9); /* reversed segment */

        sccd_v3 p3 = sccd_rng_v3(&g, 5), a3 = sccd_rng_v3(&g, 5), b3 = i % 10 == 0 ? a3 : sccd_rng_v3(&g, 5);
        want = sccd_oracle_point_segment_distance3(p3, a3, b3);
        sccd_v3 x3 = sccd_closest_point_segment3(p3, a3, b3, &t);
        assert_true(t >= 0.0 && t <= 1.0);
        assert_true(sccd_v3_dist(x3, sccd_v3_lerp(a3, b3, t)) < 1e-12 * 10);
        assert_true(fabs(sccd_v3_dist(p3, x3) - want) < 1e-9);
        assert_true(fabs(sccd_distance_point_segment3(p3, a3, b3) - want) < 1e-9);
        assert_true(fabs(sccd_distance_point_segment3(p3, b3, a3) - want) < 1e-9);
    }
    /* NULL parameter pointer, a point on the segment, beyond each end. */
    sccd_v2 x = sccd_closest_point_segment2((sccd_v2){0.5, 1}, (sccd_v2){0, 0}, (sccd_v2){1, 0}, NULL);
    assert_true(x.x == 0.5 && x.y == 0.0);
    assert_true(sccd_distance_point_segment2((sccd_v2){3, 4}, (sccd_v2){-1, 0}, (sccd_v2){0, 0}) == 5.0);
    assert_true(sccd_distance_point_segment3((sccd_v3){0.5, 0, 0}, (sccd_v3){0, 0, 0}, (sccd_v3){1, 0, 0}) == 0.0);
}

/* ±10^u, u uniform in [−12, −3]: small angles and offsets. */
static double near_zero(sccd_rng *g) { return (sccd_rng_int(g, 2) ? 1 : -1) * pow(10.0, sccd_rng_uniform(g, -12, -3)); }

/* Segment pairs: random, parallel, collinear, zero-length, crossing or a
 * shared end, nearly parallel (5), nearly parallel and nearly touching (6).
 * Cases 5–6 caught a cancellation in an earlier version of the segment
 * distance (off by up to 9e-7). */
static void random_pair2(sccd_rng *g, int i, sccd_v2 *p1, sccd_v2 *q1, sccd_v2 *p2, sccd_v2 *q2)
{
    *p1 = sccd_rng_v2(g, 5), *q1 = sccd_rng_v2(g, 5), *p2 = sccd_rng_v2(g, 5), *q2 = sccd_rng_v2(g, 5);
    sccd_v2 d1 = sccd_v2_sub(*q1, *p1);
    switch (i % 10) {
    case 0: *q2 = sccd_v2_mad(*p2, sccd_rng_uniform(g, -1, 1), d1); break;           /* parallel */
    case 1: *p2 = sccd_v2_mad(*p1, sccd_rng_uniform(g, -1, 2), d1);                  /* collinear */
            *q2 = sccd_v2_mad(*p1, sccd_rng_uniform(g, -1, 2), d1); break;
    case 2: *q1 = *p1; break;                                                        /* a point */
    case 3: *q1 = *p1, *q2 = *p2; break;                                             /* two points */
    case 4: *p2 = *q1; break;                                                        /* shared end */
    default: break;
    }
    if (i % 10 == 6) /* start near the line of p1–q1 */
        *p2 = sccd_v2_mad(sccd_v2_lerp(*p1, *q1, sccd_rng_uniform(g, -0.5, 1.5)), near_zero(g), sccd_rng_unit2(g));
    if (i % 10 == 5 || i % 10 == 6) /* nearly parallel */
        *q2 = sccd_v2_add(*p2, sccd_rot2_apply(sccd_rot2_make(near_zero(g)), sccd_v2_scale(d1, sccd_rng_uniform(g, -1.5, 1.5))));
}

static void random_pair3(sccd_rng *g, int i, sccd_v3 *p1, sccd_v3 *q1, sccd_v3 *p2, sccd_v3 *q2)
{
    *p1 = sccd_rng_v3(g, 5), *q1 = sccd_rng_v3(g, 5), *p2 = sccd_rng_v3(g, 5), *q2 = sccd_rng_v3(g, 5);
    sccd_v3 d1 = sccd_v3_sub(*q1, *p1);
    switch (i % 10) {
    case 0: *q2 = sccd_v3_mad(*p2, sccd_rng_uniform(g, -1, 1), d1); break;
    case 1: *p2 = sccd_v3_mad(*p1, sccd_rng_uniform(g, -1, 2), d1);
            *q2 = sccd_v3_mad(*p1, sccd_rng_uniform(g, -1, 2), d1); break;
    case 2: *q1 = *p1; break;
    case 3: *q1 = *p1, *q2 = *p2; break;
    case 4: /* crossing: p2–q2 through a point of p1–q1 */
        *q2 = sccd_v3_mad(*p2, 2.0, sccd_v3_sub(sccd_v3_mad(*p1, sccd_rng_uniform(g, 0, 1), d1), *p2));
        break;
    default: break;
    }
    if (i % 10 == 6)
        *p2 = sccd_v3_mad(sccd_v3_lerp(*p1, *q1, sccd_rng_uniform(g, -0.5, 1.5)), near_zero(g), sccd_rng_unit3(g));
    if (i % 10 == 5 || i % 10 == 6)
        *q2 = sccd_v3_add(*p2, sccd_quat_apply(sccd_quat_axis_angle(sccd_rng_unit3(g), near_zero(g)),
                                               sccd_v3_scale(d1, sccd_rng_uniform(g, -1.5, 1.5))));
}

static void test_segment_segment2(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(202);
    for (int i = 0; i < N; ++i) {
        sccd_v2 p1, q1, p2, q2, c1, c2;
        random_pair2(&g, i, &p1, &q1, &p2, &q2);
        double want = sccd_oracle_segment_distance2(p1, q1, p2, q2), s, t;
        double d2 = sccd_closest_segment_segment2(p1, q1, p2, q2, &s, &t, &c1, &c2);
        assert_true(s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0);
        assert_true(sccd_v2_dist(c1, sccd_v2_lerp(p1, q1, s)) < 1e-12 * 10);
        assert_true(sccd_v2_dist(c2, sccd_v2_lerp(p2, q2, t)) < 1e-12 * 10);
        assert_true(fabs(sccd_v2_len2(sccd_v2_sub(c1, c2)) - d2) < 1e-12 * 100);
        assert_true(fabs(sqrt(d2) - want) < 1e-9);
        /* Both orders and both directions of each segment. */
        assert_true(fabs(sccd_distance_segment_segment2(p1, q1, p2, q2) - want) < 1e-9);
        assert_true(fabs(sccd_distance_segment_segment2(p2, q2, p1, q1) - want) < 1e-9);
        assert_true(fabs(sccd_distance_segment_segment2(q1, p1, q2, p2) - want) < 1e-9);
    }
}

static void test_segment_segment3(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(203);
    for (int i = 0; i < N; ++i) {
        sccd_v3 p1, q1, p2, q2, c1, c2;
        random_pair3(&g, i, &p1, &q1, &p2, &q2);
        double want = sccd_oracle_segment_distance3(p1, q1, p2, q2), s, t;
        double d2 = sccd_closest_segment_segment3(p1, q1, p2, q2, &s, &t, &c1, &c2);
        assert_true(s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0);
        assert_true(sccd_v3_dist(c1, sccd_v3_lerp(p1, q1, s)) < 1e-12 * 10);
        assert_true(sccd_v3_dist(c2, sccd_v3_lerp(p2, q2, t)) < 1e-12 * 10);
        assert_true(fabs(sccd_v3_len2(sccd_v3_sub(c1, c2)) - d2) < 1e-12 * 100);
        assert_true(fabs(sqrt(d2) - want) < 1e-9);
        assert_true(fabs(sccd_distance_segment_segment3(p1, q1, p2, q2) - want) < 1e-9);
        assert_true(fabs(sccd_distance_segment_segment3(p2, q2, p1, q1) - want) < 1e-9);
        assert_true(fabs(sccd_distance_segment_segment3(q1, p1, q2, p2) - want) < 1e-9);
    }
    /* NULL outputs; skew lines whose closest points are interior. */
    double d2 = sccd_closest_segment_segment3((sccd_v3){-1, 0, 0}, (sccd_v3){1, 0, 0}, (sccd_v3){0, -1, 2},
                                              (sccd_v3){0, 1, 2}, NULL, NULL, NULL, NULL);
    assert_true(fabs(d2 - 4.0) < 1e-15);
}

/* Segment pairs scaled by powers of 2 from 2^-400 to 2^400 (exactly): the
 * same parameters and the distance scaled, nearly parallel and short
 * pairs among them. The determinant and its numerator are fourth powers
 * of the lengths, which overflowed or underflowed beyond 2^±60 (the
 * parameters then came out 0 or NaN), and a segment under 1e-15 long was
 * a point whatever the scene's size. */
static void test_segment_segment_scaled(void **state)
{
    (void)state;
    static const int powers[] = {-400, -200, -60, 60, 200, 400};
    sccd_rng g = sccd_rng_make(204);
    for (int i = 0; i < N; ++i) {
        sccd_v3 p1, q1, p2, q2;
        random_pair3(&g, i, &p1, &q1, &p2, &q2);
        double s, t, d2 = sccd_closest_segment_segment3(p1, q1, p2, q2, &s, &t, NULL, NULL);
        sccd_v2 a1 = {p1.x, p1.y}, b1 = {q1.x, q1.y}, a2 = {p2.x, p2.y}, b2 = {q2.x, q2.y};
        double s2, t2, e2 = sccd_closest_segment_segment2(a1, b1, a2, b2, &s2, &t2, NULL, NULL);
        for (int k = 0; k < 6; ++k) {
            double f = ldexp(1.0, powers[k]), u, v, x, y;
            double d2f = sccd_closest_segment_segment3(sccd_v3_scale(p1, f), sccd_v3_scale(q1, f), sccd_v3_scale(p2, f),
                                                       sccd_v3_scale(q2, f), &u, &v, NULL, NULL);
            double e2f = sccd_closest_segment_segment2(sccd_v2_scale(a1, f), sccd_v2_scale(b1, f), sccd_v2_scale(a2, f),
                                                       sccd_v2_scale(b2, f), &x, &y, NULL, NULL);
            assert_true(u == s && v == t && x == s2 && y == t2);
            assert_true(fabs(sqrt(d2f) / f - sqrt(d2)) <= 1e-15 * (1.0 + sqrt(d2)));
            assert_true(fabs(sqrt(e2f) / f - sqrt(e2)) <= 1e-15 * (1.0 + sqrt(e2)));
        }
    }
}

/* ---- segment–segment intersection ---- */

static double dist_to_segment(sccd_v2 p, sccd_v2 a, sccd_v2 b) { return sccd_oracle_point_segment_distance2(p, a, b); }

/* Every reported point lies on both segments at its parameters. */
static void check_points_on_segments(sccd_intersection2 r, sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, double tol)
{
    assert_true(r.count == (r.state == SCCD_INTERSECT_NONE ? 0 : r.state == SCCD_INTERSECT_ONE ? 1 : 2));
    assert_true(r.state != SCCD_INTERSECT_TWO);
    for (int k = 0; k < r.count; ++k) {
        assert_true(r.s[k] >= 0.0 && r.s[k] <= 1.0 && r.t[k] >= 0.0 && r.t[k] <= 1.0);
        assert_true(sccd_v2_dist(r.p[k], sccd_v2_lerp(p1, q1, r.s[k])) <= tol);
        assert_true(sccd_v2_dist(r.p[k], sccd_v2_lerp(p2, q2, r.t[k])) <= tol);
        assert_true(dist_to_segment(r.p[k], p1, q1) <= tol && dist_to_segment(r.p[k], p2, q2) <= tol);
    }
    if (r.state == SCCD_INTERSECT_OVERLAP)
        assert_true(r.s[0] < r.s[1]);
}

/* Classic straddle oracle: 1 for a clear crossing (each segment's ends
 * beyond the margin on opposite sides of the other's line), 0 for a clear
 * miss by sides, −1 undecided. */
static int straddle_oracle(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, double margin)
{
    double a = sccd_v2_cross(sccd_v2_sub(q1, p1), sccd_v2_sub(p2, p1)) / fmax(1e-300, sccd_v2_dist(p1, q1));
    double b = sccd_v2_cross(sccd_v2_sub(q1, p1), sccd_v2_sub(q2, p1)) / fmax(1e-300, sccd_v2_dist(p1, q1));
    double c = sccd_v2_cross(sccd_v2_sub(q2, p2), sccd_v2_sub(p1, p2)) / fmax(1e-300, sccd_v2_dist(p2, q2));
    double d = sccd_v2_cross(sccd_v2_sub(q2, p2), sccd_v2_sub(q1, p2)) / fmax(1e-300, sccd_v2_dist(p2, q2));
    bool clear = fmin(fmin(fabs(a), fabs(b)), fmin(fabs(c), fabs(d))) > margin;
    if (!clear)
        return -1;
    return a * b < 0.0 && c * d < 0.0;
}

static int check_segment_intersection(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2)
{
    double scene = mag2(p1) + mag2(q1) + mag2(p2) + mag2(q2);
    sccd_intersection2 r = sccd_intersect_segment_segment2(p1, q1, p2, q2);
    sccd_intersection2 w = sccd_intersect_segment_segment2(p2, q2, p1, q1);
    check_points_on_segments(r, p1, q1, p2, q2, TOL * scene);
    check_points_on_segments(w, p2, q2, p1, q1, TOL * scene);
    double dist = sccd_oracle_segment_distance2(p1, q1, p2, q2);
    int cross = straddle_oracle(p1, q1, p2, q2, BAND * scene);
    if (dist > BAND * scene) {
        assert_true(r.state == SCCD_INTERSECT_NONE && w.state == SCCD_INTERSECT_NONE);
        return 0;
    }
    if (cross == 1) {
        assert_true(r.state == SCCD_INTERSECT_ONE && w.state == SCCD_INTERSECT_ONE);
        assert_true(sccd_v2_dist(r.p[0], w.p[0]) <= TOL * scene);
        assert_true(fabs(r.s[0] - w.t[0]) <= 1e-6 && fabs(r.t[0] - w.s[0]) <= 1e-6);
        return 0;
    }
    return 1;
}

static void test_intersect_segments_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(204);
    int amb = 0, hits = 0;
    for (int i = 0; i < N; ++i) {
        sccd_v2 p1, q1, p2, q2;
        random_pair2(&g, i, &p1, &q1, &p2, &q2);
        if (i % 10 >= 5 && i % 2) /* crossing by construction: p2–q2 through a point of p1–q1 */
            q2 = sccd_v2_mad(p2, sccd_rng_uniform(&g, 1.01, 3), sccd_v2_sub(sccd_v2_lerp(p1, q1, sccd_rng_uniform(&g, 0.01, 0.99)), p2));
        if (i % 10 == 1) /* collinear: checked below */
            continue;
        if (i % 10 == 4) { /* a shared end point: exactly one point, that one */
            sccd_intersection2 r = sccd_intersect_segment_segment2(p1, q1, p2, q2);
            assert_true(r.state == SCCD_INTERSECT_ONE && sccd_v2_dist(r.p[0], q1) <= 1e-12 * 10);
            assert_true(sccd_intersect_segment_segment2(q2, p2, q1, p1).state == SCCD_INTERSECT_ONE);
        }
        /* Cases 4 and 6 sit in the band on purpose; their points are still
         * checked on both segments. */
        amb += check_segment_intersection(p1, q1, p2, q2) && i % 10 != 4 && i % 10 != 6;
        hits += sccd_intersect_segment_segment2(p1, q1, p2, q2).state != SCCD_INTERSECT_NONE;
    }
    print_message("segment pairs: %d meet, %d ambiguous of %d\n", hits, amb, N);
    assert_true(hits > N / 5 && hits < N - N / 5);
    /* Shared end points and points are decided by construction, not ambiguous by chance. */
    assert_true(amb < N / 50);
}

/* Collinear segments p2 = p1 + a·d1, q2 = p1 + b·d1: the shared piece is
 * s in [max(0, min(a, b)), min(1, max(a, b))], rotated anywhere. */
static void test_intersect_segments_collinear(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(205);
    int kinds[3] = {0, 0, 0};
    for (int i = 0; i < N; ++i) {
        sccd_v2 p1 = sccd_rng_v2(&g, 5), d1 = sccd_v2_scale(sccd_rng_unit2(&g), sccd_rng_uniform(&g, 0.1, 5));
        double a = sccd_rng_uniform(&g, -1.5, 2.5), b = sccd_rng_uniform(&g, -1.5, 2.5);
        if (i % 4 == 0) /* end to end, exactly or nearly */
            a = (i % 8 == 0 ? 1.0 : 0.0) + (sccd_rng_int(&g, 3) - 1) * BAND * 10;
        sccd_v2 q1 = sccd_v2_add(p1, d1), p2 = sccd_v2_mad(p1, a, d1), q2 = sccd_v2_mad(p1, b, d1);
        double scene = mag2(p1) + mag2(q1) + mag2(p2) + mag2(q2);
        double lo = fmax(0.0, fmin(a, b)), hi = fmin(1.0, fmax(a, b)), len = sccd_v2_len(d1);
        sccd_intersection2 r = sccd_intersect_segment_segment2(p1, q1, p2, q2);
        sccd_intersection2 w = sccd_intersect_segment_segment2(q2, p2, q1, p1);
        check_points_on_segments(r, p1, q1, p2, q2, TOL * scene);
        check_points_on_segments(w, q2, p2, q1, p1, TOL * scene);
        if ((hi - lo) * len > BAND * scene) {
            assert_true(r.state == SCCD_INTERSECT_OVERLAP && w.state == SCCD_INTERSECT_OVERLAP);
            assert_true(fabs(r.s[0] - lo) * len <= TOL * scene && fabs(r.s[1] - hi) * len <= TOL * scene);
            kinds[2]++;
        } else if ((lo - hi) * len > BAND * scene) {
            assert_true(r.state == SCCD_INTERSECT_NONE && w.state == SCCD_INTERSECT_NONE);
            kinds[0]++;
        } else if (fabs(hi - lo) * len < 1e-12 * scene) {
            assert_true(r.state == SCCD_INTERSECT_ONE && w.state == SCCD_INTERSECT_ONE); /* touching ends */
            kinds[1]++;
        }
    }
    print_message("collinear: %d apart, %d end to end, %d overlapping\n", kinds[0], kinds[1], kinds[2]);
    assert_true(kinds[0] > N / 10 && kinds[1] > N / 50 && kinds[2] > N / 10);
}

static void test_intersect_segments_degenerate(void **state)
{
    (void)state;
    sccd_v2 o = {0, 0}, x = {1, 0}, y = {0, 1};
    /* Proper crossing, T-junction, L-corner, parallel apart, a point on / off a segment, two points. */
    sccd_intersection2 r = sccd_intersect_segment_segment2((sccd_v2){-1, -1}, (sccd_v2){1, 1}, (sccd_v2){-1, 1}, (sccd_v2){1, -1});
    assert_true(r.state == SCCD_INTERSECT_ONE && sccd_v2_len(r.p[0]) < 1e-15 && r.s[0] == 0.5 && r.t[0] == 0.5);
    r = sccd_intersect_segment_segment2((sccd_v2){-1, 0}, x, (sccd_v2){0.25, 0}, (sccd_v2){0.25, 3});
    assert_true(r.state == SCCD_INTERSECT_ONE && r.p[0].x == 0.25 && r.p[0].y == 0.0 && r.t[0] == 0.0);
    r = sccd_intersect_segment_segment2(o, x, o, y);
    assert_true(r.state == SCCD_INTERSECT_ONE && sccd_v2_len(r.p[0]) == 0.0);
    r = sccd_intersect_segment_segment2(o, x, y, (sccd_v2){1, 1});
    assert_true(r.state == SCCD_INTERSECT_NONE && r.count == 0);
    r = sccd_intersect_segment_segment2((sccd_v2){0.5, 0}, (sccd_v2){0.5, 0}, o, x);
    assert_true(r.state == SCCD_INTERSECT_ONE && r.s[0] == 0.0 && r.t[0] == 0.5);
    r = sccd_intersect_segment_segment2(o, x, (sccd_v2){0.5, 1e-6}, (sccd_v2){0.5, 1e-6});
    assert_true(r.state == SCCD_INTERSECT_NONE);
    r = sccd_intersect_segment_segment2(y, y, y, y);
    assert_true(r.state == SCCD_INTERSECT_ONE && r.p[0].y == 1.0);
    r = sccd_intersect_segment_segment2(o, o, y, y);
    assert_true(r.state == SCCD_INTERSECT_NONE);
    /* Near-parallel crossing (angle 1e-9): still one point, on both. */
    sccd_v2 p2 = {-1, -1e-9}, q2 = {2, 2e-9};
    r = sccd_intersect_segment_segment2(o, x, p2, q2);
    assert_true(r.state != SCCD_INTERSECT_NONE);
    check_points_on_segments(r, o, x, p2, q2, 1e-8);
    /* A short segment along a long one, tilted so that it lies within the
     * slack of the long one's line but not the other way round: overlap. */
    r = sccd_intersect_segment_segment2((sccd_v2){-100, 0}, (sccd_v2){100, 0}, o, (sccd_v2){1, 1e-7});
    assert_true(r.state == SCCD_INTERSECT_OVERLAP && fabs(r.s[0] - 0.5) < 1e-12 && fabs(r.s[1] - 0.505) < 1e-12);
    sccd_intersection2 w = sccd_intersect_segment_segment2(o, (sccd_v2){1, 1e-7}, (sccd_v2){100, 0}, (sccd_v2){-100, 0});
    assert_true(w.state == SCCD_INTERSECT_OVERLAP && w.s[0] == 0.0 && fabs(w.s[1] - 1.0) < 1e-12 && fabs(w.t[0] - 0.5) < 1e-12);
    /* Large coordinates: a crossing far from the origin. */
    sccd_v2 big = {1e6, -3e6};
    r = sccd_intersect_segment_segment2(sccd_v2_sub(big, x), sccd_v2_add(big, x), sccd_v2_sub(big, y), sccd_v2_add(big, y));
    assert_true(r.state == SCCD_INTERSECT_ONE && sccd_v2_dist(r.p[0], big) < 1e-9);
}

/* ---- segment–circle intersection ---- */

/* Every point lies on the segment at its parameter and on the circle. */
static void check_points_on_circle(sccd_intersection2 r, sccd_v2 a, sccd_v2 b, sccd_circle c, double tol)
{
    assert_true(r.count == (r.state == SCCD_INTERSECT_NONE ? 0 : r.state == SCCD_INTERSECT_ONE ? 1 : 2));
    assert_true(r.state != SCCD_INTERSECT_OVERLAP);
    for (int k = 0; k < r.count; ++k) {
        assert_true(r.s[k] >= 0.0 && r.s[k] <= 1.0 && r.t[k] == 0.0);
        assert_true(sccd_v2_dist(r.p[k], sccd_v2_lerp(a, b, r.s[k])) <= tol);
        assert_true(fabs(hypot(r.p[k].x - c.c.x, r.p[k].y - c.c.y) - c.r) <= tol);
    }
    if (r.count == 2)
        assert_true(r.s[0] < r.s[1]);
}

/* The count from distances alone: the distance from the centre along the
 * segment is convex, its minimum m from the oracle, its maximum at an end.
 * The circle is crossed once per end outside (distance > r) when m < r.
 * Returns the count, or −1 inside the band. */
static int circle_count_oracle(sccd_v2 a, sccd_v2 b, sccd_circle c, double band)
{
    double m = sccd_oracle_point_segment_distance2(c.c, a, b);
    double da = hypot(a.x - c.c.x, a.y - c.c.y) - c.r, db = hypot(b.x - c.c.x, b.y - c.c.y) - c.r;
    if (m - c.r > band)
        return 0;
    if (fabs(m - c.r) <= band || fabs(da) <= band || fabs(db) <= band)
        return -1;
    return (da > 0) + (db > 0);
}

static void test_intersect_segment_circle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(206);
    int counts[3] = {0, 0, 0}, amb = 0;
    for (int i = 0; i < N; ++i) {
        sccd_v2 a = sccd_rng_v2(&g, 5), b = i % 10 == 0 ? a : sccd_rng_v2(&g, 5);
        sccd_circle c = {sccd_rng_v2(&g, 3), i % 10 == 1 ? 0.0 : sccd_rng_uniform(&g, 0, 4)};
        double scene = mag2(a) + mag2(b) + mag2(c.c) + c.r;
        sccd_intersection2 r = sccd_intersect_segment_circle2(a, b, c), w = sccd_intersect_segment_circle2(b, a, c);
        check_points_on_circle(r, a, b, c, TOL * scene);
        check_points_on_circle(w, b, a, c, TOL * scene);
        int want = circle_count_oracle(a, b, c, BAND * scene);
        if (want < 0) {
            amb++;
            continue;
        }
        assert_int_equal(r.count, want);
        assert_int_equal(w.count, want); /* the reversed segment: same points, s mirrored */
        for (int k = 0; k < want; ++k)
            assert_true(sccd_v2_dist(r.p[k], w.p[want - 1 - k]) <= TOL * scene && fabs(r.s[k] + w.s[want - 1 - k] - 1) < 1e-6);
        counts[want]++;
    }
    print_message("segment-circle: %d / %d / %d with 0 / 1 / 2 points, %d ambiguous\n", counts[0], counts[1], counts[2], amb);
    assert_true(counts[0] > N / 10 && counts[1] > N / 10 && counts[2] > N / 10 && amb < N / 100);
}

/* Tangent lines at distance r + gap from the centre: gap 0 is one point
 * (the foot), −gap two close points, +gap none. End points on the circle. */
static void test_segment_circle_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(207);
    for (int i = 0; i < N; ++i) {
        sccd_circle c = {sccd_rng_v2(&g, 20), sccd_rng_uniform(&g, 0.5, 5)};
        sccd_v2 n = sccd_rng_unit2(&g), along = sccd_v2_perp(n);
        double scene = 2 * mag2(c.c) + 3 * c.r + 20;
        for (int k = -1; k <= 1; ++k) {
            sccd_v2 foot = sccd_v2_mad(c.c, c.r + k * BAND * scene, n);
            sccd_v2 a = sccd_v2_mad(foot, -sccd_rng_uniform(&g, 0.1, 5), along), b = sccd_v2_mad(foot, sccd_rng_uniform(&g, 0.1, 5), along);
            sccd_intersection2 r = sccd_intersect_segment_circle2(a, b, c);
            check_points_on_circle(r, a, b, c, 1e-3 * sqrt(scene)); /* near tangent: along the line, error ~ sqrt */
            assert_int_equal(r.count, k < 0 ? 2 : k == 0 ? 1 : 0);
            if (k == 0)
                assert_true(sccd_v2_dist(r.p[0], foot) <= TOL * scene);
        }
        /* A chord from a point of the circle to the outside: its end is a point. */
        sccd_v2 on = sccd_v2_mad(c.c, c.r, n), out = sccd_v2_mad(c.c, c.r + sccd_rng_uniform(&g, 0.1, 5), sccd_rng_unit2(&g));
        if (sccd_v2_dot(sccd_v2_sub(out, on), n) > 0.1) { /* the chord leaves outward: only its end */
            sccd_intersection2 r = sccd_intersect_segment_circle2(on, out, c);
            assert_true(r.count == 1 && r.s[0] < 1e-12 && sccd_v2_dist(r.p[0], on) <= TOL * scene);
        }
    }
    /* Degenerate: a point on / off the circle, radius zero, segment inside. */
    sccd_circle unit = {{0, 0}, 1};
    assert_int_equal(sccd_intersect_segment_circle2((sccd_v2){0, 1}, (sccd_v2){0, 1}, unit).count, 1);
    assert_int_equal(sccd_intersect_segment_circle2((sccd_v2){0, 0.5}, (sccd_v2){0, 0.5}, unit).count, 0);
    assert_int_equal(sccd_intersect_segment_circle2((sccd_v2){-0.5, 0}, (sccd_v2){0.5, 0}, unit).count, 0);
    sccd_circle dot = {{1, 1}, 0};
    sccd_intersection2 r = sccd_intersect_segment_circle2((sccd_v2){0, 0}, (sccd_v2){2, 2}, dot);
    assert_true(r.count == 1 && fabs(r.s[0] - 0.5) < 1e-15 && sccd_v2_dist(r.p[0], dot.c) < 1e-15);
    assert_int_equal(sccd_intersect_segment_circle2((sccd_v2){0, 0}, (sccd_v2){2, 2.01}, dot).count, 0);
    r = sccd_intersect_segment_circle2((sccd_v2){-2, 0}, (sccd_v2){2, 0}, unit);
    assert_true(r.state == SCCD_INTERSECT_TWO && r.p[0].x == -1.0 && r.p[1].x == 1.0 && r.s[0] == 0.25 && r.s[1] == 0.75);
}

/* ---- circle–circle intersection ---- */

static void check_points_on_circles(sccd_intersection2 r, sccd_circle a, sccd_circle b, double tol)
{
    assert_true(r.count == (r.state == SCCD_INTERSECT_ONE ? 1 : r.state == SCCD_INTERSECT_TWO ? 2 : 0));
    for (int k = 0; k < r.count; ++k) {
        assert_true(fabs(sccd_v2_dist(r.p[k], a.c) - a.r) <= tol && fabs(sccd_v2_dist(r.p[k], b.c) - b.r) <= tol);
        assert_true(r.s[k] == 0.0 && r.t[k] == 0.0);
    }
    if (r.count == 2) /* p[0] left of a.c → b.c, p[1] right */
        assert_true(sccd_v2_cross(sccd_v2_sub(b.c, a.c), sccd_v2_sub(r.p[0], a.c)) > 0.0 &&
                    sccd_v2_cross(sccd_v2_sub(b.c, a.c), sccd_v2_sub(r.p[1], a.c)) < 0.0);
}

static void test_intersect_circles(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(208);
    int counts[3] = {0, 0, 0}, amb = 0;
    for (int i = 0; i < N; ++i) {
        sccd_circle a = {sccd_rng_v2(&g, 4), sccd_rng_uniform(&g, 0, 4)}, b = {sccd_rng_v2(&g, 4), sccd_rng_uniform(&g, 0, 4)};
        if (i % 10 == 0)
            b.r = 0.0;
        double scene = mag2(a.c) + mag2(b.c) + a.r + b.r, band = BAND * scene;
        sccd_intersection2 r = sccd_intersect_circle_circle2(a, b), w = sccd_intersect_circle_circle2(b, a);
        check_points_on_circles(r, a, b, TOL * scene);
        check_points_on_circles(w, b, a, TOL * scene);
        /* Two points iff |ra − rb| < d < ra + rb; none outside that range. */
        double d = hypot(a.c.x - b.c.x, a.c.y - b.c.y), lo = fabs(a.r - b.r), hi = a.r + b.r;
        int want = d > hi + band || d < lo - band ? 0 : d > lo + band && d < hi - band ? 2 : -1;
        if (want < 0) {
            amb++;
            continue;
        }
        assert_int_equal(r.count, want);
        assert_int_equal(w.count, want);
        if (want == 2) /* swapped: the left point becomes the right one */
            assert_true(sccd_v2_dist(r.p[0], w.p[1]) <= TOL * scene && sccd_v2_dist(r.p[1], w.p[0]) <= TOL * scene);
        counts[want]++;
    }
    print_message("circle-circle: %d / %d with 0 / 2 points, %d ambiguous\n", counts[0], counts[2], amb);
    assert_true(counts[0] > N / 10 && counts[2] > N / 10 && amb < N / 100);
}

/* Tangent circles, outside and inside, at gap 0 and ±band; concentric. */
static void test_circles_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(209);
    for (int i = 0; i < N; ++i) {
        sccd_circle a = {sccd_rng_v2(&g, 20), sccd_rng_uniform(&g, 0.5, 5)};
        double rb = i % 10 == 0 ? 0.0 : sccd_rng_uniform(&g, 0.1, 0.45);
        bool inside = i % 2;
        sccd_v2 u = sccd_rng_unit2(&g);
        double scene = 2 * mag2(a.c) + 2 * a.r + 20;
        for (int k = -1; k <= 1; ++k) {
            /* Outside: centres ra + rb (+gap) apart; inside: ra − rb (−gap). */
            double d = inside ? a.r - rb - k * BAND * scene : a.r + rb + k * BAND * scene;
            sccd_circle b = {sccd_v2_mad(a.c, d, u), rb};
            sccd_intersection2 r = sccd_intersect_circle_circle2(a, b), w = sccd_intersect_circle_circle2(b, a);
            int want = k < 0 ? (rb == 0.0 ? -1 : 2) : k == 0 ? 1 : 0;
            check_points_on_circles(r, a, b, 1e-3 * sqrt(scene));
            if (want >= 0) {
                assert_int_equal(r.count, want);
                assert_int_equal(w.count, want);
            }
            if (k == 0)
                assert_true(sccd_v2_dist(r.p[0], sccd_v2_mad(a.c, a.r, u)) <= TOL * scene &&
                            sccd_v2_dist(w.p[0], r.p[0]) <= TOL * scene);
        }
    }
    sccd_circle c = {{1, 2}, 3}, z = {{1, 2}, 0};
    assert_true(sccd_intersect_circle_circle2(c, c).state == SCCD_INTERSECT_OVERLAP && sccd_intersect_circle_circle2(c, c).count == 0);
    assert_true(sccd_intersect_circle_circle2(z, z).state == SCCD_INTERSECT_OVERLAP);
    assert_true(sccd_intersect_circle_circle2(c, z).state == SCCD_INTERSECT_NONE); /* concentric */
    sccd_circle e = {{1, 2}, 2.5};
    assert_true(sccd_intersect_circle_circle2(c, e).state == SCCD_INTERSECT_NONE);
    sccd_circle f = {{4, 2}, 0};
    sccd_intersection2 r = sccd_intersect_circle_circle2(c, f);
    assert_true(r.state == SCCD_INTERSECT_ONE && r.p[0].x == 4.0 && r.p[0].y == 2.0);
    /* The seed's special case A_y = B_y: centres level, two points. */
    r = sccd_intersect_circle_circle2((sccd_circle){{0, 0}, 5}, (sccd_circle){{6, 0}, 5});
    assert_true(r.state == SCCD_INTERSECT_TWO && r.p[0].x == 3.0 && r.p[0].y == 4.0 && r.p[1].y == -4.0);
}

/* ---- points in rectangles ---- */

/* Triangle-area oracle: p is in the convex polygon c iff the areas of the
 * triangles p, c[i], c[i+1] add up to the polygon's area. Returns the
 * relative excess (0 inside, > 0 outside). */
static double area_excess(const sccd_v2 c[4], sccd_v2 p)
{
    double area = 0.0, sum = 0.0;
    for (int i = 0; i < 4; ++i) {
        sccd_v2 a = c[i], b = c[(i + 1) % 4];
        area += 0.5 * (a.x * b.y - a.y * b.x);
        sum += 0.5 * fabs((a.x - p.x) * (b.y - p.y) - (a.y - p.y) * (b.x - p.x));
    }
    return sum - fabs(area);
}

static double boundary_distance(const sccd_v2 c[4], sccd_v2 p)
{
    double d = INFINITY;
    for (int i = 0; i < 4; ++i)
        d = fmin(d, dist_to_segment(p, c[i], c[(i + 1) % 4]));
    return d;
}

/* Whether the box's corners are the polygon's vertices, as sets, bit for bit. */
static bool same_corners(sccd_box2 b, const sccd_poly2 *p)
{
    sccd_v2 c[4];
    sccd_box2_corners(b, c);
    for (int i = 0; i < 4; ++i) {
        bool found = false;
        for (int k = 0; k < 4; ++k)
            found |= c[i].x == p->v[k].x && c[i].y == p->v[k].y;
        if (!found)
            return false;
    }
    return true;
}

/* sccd_poly2_as_box: a rectangle along the axes, its vertices in any
 * counter-clockwise start, becomes the box whose corners are exactly its
 * vertices (always when it is centred on the origin, where c ± h is exact;
 * off it, only then); anything else stays a polygon: turned, rounded, other
 * counts, a corner repeated, flat, NaN, NULL. */
static void test_poly2_as_box(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(211);
    int converted_off = 0;
    for (int i = 0; i < N; ++i) {
        double hx = sccd_rng_uniform(&g, 1e-3, 10.0), hy = sccd_rng_uniform(&g, 1e-3, 10.0);
        sccd_v2 off = i % 2 ? sccd_rng_v2(&g, 100.0) : (sccd_v2){0.0, 0.0};
        const sccd_v2 ccw[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
        sccd_poly2 p = {4, {{0.0, 0.0}}, 0.0};
        int start = sccd_rng_int(&g, 4);
        for (int k = 0; k < 4; ++k)
            p.v[k] = sccd_v2_add(ccw[(start + k) % 4], off);
        sccd_box2 b = {{NAN, NAN}, {NAN, NAN}, {NAN, NAN}};
        bool as_box = sccd_poly2_as_box(&p, &b);
        assert_true(as_box || i % 2 == 1);
        if (as_box) {
            assert_true(same_corners(b, &p) && sccd_is_valid_box2(b));
            converted_off += i % 2;
        }
        sccd_poly2 turned = p, rounded = p, repeated = p, flat = p;
        sccd_rot2 q = sccd_rot2_make(sccd_rng_uniform(&g, 0.01, 1.5));
        for (int k = 0; k < 4; ++k)
            turned.v[k] = sccd_rot2_apply(q, p.v[k]);
        rounded.r = sccd_rng_uniform(&g, 1e-6, 1.0);
        repeated.v[3] = repeated.v[2]; /* a triangle with a corner twice */
        flat.v[1] = flat.v[0];
        flat.v[2] = flat.v[3]; /* a segment: a corner per end, twice */
        assert_false(sccd_poly2_as_box(&turned, &b) && !same_corners(b, &turned));
        assert_false(sccd_poly2_as_box(&rounded, &b));
        assert_false(sccd_poly2_as_box(&repeated, &b));
        assert_false(sccd_poly2_as_box(&flat, &b));
        sccd_poly2 three = p;
        three.n = 3;
        assert_false(sccd_poly2_as_box(&three, &b));
    }
    assert_true(converted_off > N / 4); /* most offsets are exact as well */
    sccd_poly2 nan = {4, {{0.0, 0.0}, {1.0, 0.0}, {1.0, NAN}, {0.0, 1.0}}, 0.0};
    sccd_box2 b;
    assert_false(sccd_poly2_as_box(&nan, &b));
    assert_false(sccd_poly2_as_box(NULL, &b));
    assert_false(sccd_poly2_as_box(&nan, NULL));
}

static void test_point_in_rectangle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(210);
    int inside = 0, amb = 0;
    for (int i = 0; i < N; ++i) {
        sccd_box2 b = {sccd_rng_v2(&g, 5), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4)), sccd_v2_abs(sccd_rng_v2(&g, 3))};
        sccd_v2 c[4], cw[4], p = sccd_v2_add(b.c, sccd_rng_v2(&g, 4));
        sccd_box2_corners(b, c);
        for (int k = 0; k < 4; ++k)
            cw[k] = c[3 - k]; /* clockwise */
        double scene = mag2(b.c) + mag2(p) + b.h.x + b.h.y;
        bool got = sccd_point_in_box2(b, p);
        assert_true(sccd_point_in_quad2(c, p) == got && sccd_point_in_quad2(cw, p) == got);
        if (boundary_distance(c, p) <= BAND * scene) {
            amb++;
            continue;
        }
        bool want = area_excess(c, p) <= 1e-9 * scene * scene;
        assert_true(got == want);
        inside += want;
        /* The boundary: a corner and an edge point are inside, the corner
         * pushed out by the band along its diagonal is not. */
        int k = sccd_rng_int(&g, 4);
        sccd_v2 diag = sccd_v2_normalize(sccd_v2_sub(c[k], b.c)), edge = sccd_v2_lerp(c[k], c[(k + 1) % 4], sccd_rng_uniform(&g, 0, 1));
        scene = 2 * mag2(b.c) + 2 * (b.h.x + b.h.y) + 8;
        assert_true(sccd_point_in_box2(b, c[k]) && sccd_point_in_box2(b, edge) && sccd_point_in_quad2(c, edge));
        assert_false(sccd_point_in_box2(b, sccd_v2_mad(c[k], BAND * scene, diag)) || sccd_point_in_quad2(c, sccd_v2_mad(c[k], BAND * scene, diag)));
    }
    print_message("point in rectangle: %d inside, %d ambiguous of %d\n", inside, amb, N);
    assert_true(inside > N / 10 && inside < N - N / 10 && amb < N / 100);
}

/* General convex quads (corners at increasing angles on an ellipse), the
 * boundary exactly and at ±band, and degenerate quads. */
static void test_point_in_quad(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(211);
    for (int i = 0; i < N; ++i) {
        sccd_v2 o = sccd_rng_v2(&g, 5), c[4];
        double rx = sccd_rng_uniform(&g, 0.2, 3), ry = sccd_rng_uniform(&g, 0.2, 3), a0 = sccd_rng_uniform(&g, 0, 6.3);
        for (int k = 0; k < 4; ++k) {
            double ang = a0 + k * SCCD_PI / 2 + sccd_rng_uniform(&g, -0.6, 0.6);
            c[k] = (sccd_v2){o.x + rx * cos(ang), o.y + ry * sin(ang)};
        }
        double scene = mag2(c[0]) + mag2(c[1]) + mag2(c[2]) + mag2(c[3]) + 8;
        sccd_v2 p = sccd_rng_v2(&g, 8);
        if (boundary_distance(c, p) > BAND * scene)
            assert_true(sccd_point_in_quad2(c, p) == (area_excess(c, p) <= 1e-9 * scene * scene));
        /* On an edge, and just off it along its outward normal. */
        int k = sccd_rng_int(&g, 4);
        sccd_v2 e = sccd_v2_sub(c[(k + 1) % 4], c[k]);
        sccd_v2 on = sccd_v2_mad(c[k], sccd_rng_uniform(&g, 0, 1), e);
        sccd_v2 out = sccd_v2_normalize((sccd_v2){e.y, -e.x}); /* corners go counter-clockwise */
        assert_true(sccd_point_in_quad2(c, on));
        assert_true(sccd_point_in_quad2(c, sccd_v2_mad(on, -BAND * scene, out)));
        assert_true(!sccd_point_in_quad2(c, sccd_v2_mad(on, BAND * scene, out)));
    }
    /* Zero-area quads: a segment (two corners doubled) and a point. */
    sccd_v2 seg[4] = {{0, 0}, {0, 0}, {2, 0}, {2, 0}}, pt[4] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    assert_true(sccd_point_in_quad2(seg, (sccd_v2){1, 0}) && sccd_point_in_quad2(seg, (sccd_v2){2, 0}));
    assert_false(sccd_point_in_quad2(seg, (sccd_v2){3, 0}) || sccd_point_in_quad2(seg, (sccd_v2){1, 1e-6}));
    assert_true(sccd_point_in_quad2(pt, (sccd_v2){1, 1}) && !sccd_point_in_quad2(pt, (sccd_v2){1, 1.001}));
    sccd_box2 flat = {{0, 0}, sccd_rot2_make(0.5), {1, 0}};
    assert_true(sccd_point_in_box2(flat, sccd_rot2_apply(flat.q, (sccd_v2){0.5, 0})));
    assert_false(sccd_point_in_box2(flat, sccd_rot2_apply(flat.q, (sccd_v2){1.01, 0})));
}

/* ---- bad input ---- */

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_v2 o = {0, 0}, x = {1, 0}, bad = {NAN, 0};
    sccd_v3 o3 = {0, 0, 0}, x3 = {1, 0, 0}, bad3 = {0, INFINITY, 0};
    double t = 7.0, s = 7.0;
    sccd_v2 c = sccd_closest_point_segment2(bad, o, x, &t);
    assert_true(c.x == 0.0 && c.y == 0.0 && t == 0.0);
    sccd_v3 c3 = sccd_closest_point_segment3(o3, bad3, x3, &t);
    assert_true(c3.x == 0.0 && c3.y == 0.0 && c3.z == 0.0 && t == 0.0);
    assert_true(sccd_distance_point_segment2(o, o, bad) == INFINITY);
    assert_true(sccd_distance_point_segment3(bad3, o3, x3) == INFINITY);
    sccd_v2 c1 = x, c2 = x;
    assert_true(sccd_closest_segment_segment2(o, x, bad, o, &s, &t, &c1, &c2) == INFINITY);
    assert_true(s == 0.0 && t == 0.0 && c1.x == 0.0 && c2.x == 0.0);
    assert_true(sccd_distance_segment_segment3(o3, x3, o3, bad3) == INFINITY);
    assert_true(sccd_distance_segment_segment2(bad, x, o, x) == INFINITY);
    assert_int_equal(sccd_test_assert_count(), 7);

    sccd_intersection2 r = sccd_intersect_segment_segment2(o, x, o, bad);
    assert_true(r.state == SCCD_INTERSECT_NONE && r.count == 0);
    r = sccd_intersect_segment_circle2(o, x, (sccd_circle){{0, 0}, -1});
    assert_true(r.state == SCCD_INTERSECT_NONE && r.count == 0);
    r = sccd_intersect_segment_circle2(o, bad, (sccd_circle){{0, 0}, 1});
    assert_true(r.state == SCCD_INTERSECT_NONE);
    r = sccd_intersect_circle_circle2((sccd_circle){{0, 0}, 1}, (sccd_circle){{0, 0}, NAN});
    assert_true(r.state == SCCD_INTERSECT_NONE && r.count == 0);
    assert_false(sccd_point_in_box2((sccd_box2){{0, 0}, {1, 0}, {1, 1}}, bad));
    assert_false(sccd_point_in_box2((sccd_box2){{0, 0}, {2, 0}, {1, 1}}, o)); /* non-unit rotation */
    sccd_v2 q[4] = {{0, 0}, {1, 0}, {1, INFINITY}, {0, 1}};
    assert_false(sccd_point_in_quad2(q, o));
    assert_int_equal(sccd_test_assert_count(), 14);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_segment),
        cmocka_unit_test(test_segment_segment2),
        cmocka_unit_test(test_segment_segment3),
        cmocka_unit_test(test_segment_segment_scaled),
        cmocka_unit_test(test_intersect_segments_random),
        cmocka_unit_test(test_intersect_segments_collinear),
        cmocka_unit_test(test_intersect_segments_degenerate),
        cmocka_unit_test(test_intersect_segment_circle),
        cmocka_unit_test(test_segment_circle_touching),
        cmocka_unit_test(test_intersect_circles),
        cmocka_unit_test(test_circles_touching),
        cmocka_unit_test(test_poly2_as_box),
        cmocka_unit_test(test_point_in_rectangle),
        cmocka_unit_test(test_point_in_quad),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("geometry", tests, NULL, NULL);
}
