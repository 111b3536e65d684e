/* Discrete overlap tests against independent oracles:
 *  - circles, spheres: the distance of the centres written out with hypot;
 *  - capsules: segment distance by nested golden-section search
 *    (tests/oracles/geom_oracle.c) against the sum of the radii;
 *  - AABBs: interval overlap per axis, written as max(lo) ≤ min(hi);
 *  - oriented boxes: the convex-polytope criterion "an edge of one meets the
 *    solid other" (every vertex of a non-empty intersection of two convex
 *    polytopes is a vertex of one inside the other or an edge of one crossing
 *    a face of the other), by slab clipping; no separating axes involved.
 * Random cases whose oracle margin is within 1e-7 of the scene size are
 * ambiguous and only counted; constructed near-touching cases at ±1e-7
 * relative are checked strictly. Every pair is checked in both orders. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "geom_oracle.h"
#include "test_util.h"

#define N 20000
#define NEAR 1e-7 /* relative gap of the near-touching cases and ambiguity band */

static double mag2(sccd_v2 v) { return fmax(fabs(v.x), fabs(v.y)); }
static double mag3(sccd_v3 v) { return fmax(fabs(v.x), fmax(fabs(v.y), fabs(v.z))); }

/* Checks a symmetric predicate in both orders: a true overlap (margin ≤ 0)
 * must be reported, a gap beyond the band must not. Returns 1 when the case
 * fell in the ambiguous band. */
static int check_pair(bool ab, bool ba, double margin, double band)
{
    if (margin <= 0.0) {
        assert_true(ab);
        assert_true(ba);
        return 0;
    }
    if (margin > band) {
        assert_false(ab);
        assert_false(ba);
        return 0;
    }
    return 1;
}

/* The two outcomes must both be common, and ambiguous cases rare, or the
 * random test checks little. */
static void check_mix(int hits, int ambiguous, int n)
{
    print_message("hits %d ambiguous %d of %d\n", hits, ambiguous, n);
    assert_true(hits > n / 10 && hits < n - n / 10);
    assert_true(ambiguous < n / 100);
}

static void test_circle_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(101);
    int hits = 0, amb = 0;
    for (int i = 0; i < N; ++i) {
        sccd_circle a = {sccd_rng_v2(&g, 5), sccd_rng_uniform(&g, 0, 3)};
        sccd_circle b = {sccd_rng_v2(&g, 5), sccd_rng_uniform(&g, 0, 3)};
        double margin = hypot(a.c.x - b.c.x, a.c.y - b.c.y) - a.r - b.r;
        bool ab = sccd_circle_vs_circle(a, b);
        hits += ab;
        amb += check_pair(ab, sccd_circle_vs_circle(b, a), margin, NEAR * 10);
    }
    check_mix(hits, amb, N);
}

static void test_sphere_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(102);
    int hits = 0, amb = 0;
    for (int i = 0; i < N; ++i) {
        sccd_sphere a = {sccd_rng_v3(&g, 5), sccd_rng_uniform(&g, 0, 4)};
        sccd_sphere b = {sccd_rng_v3(&g, 5), sccd_rng_uniform(&g, 0, 4)};
        double margin = hypot(hypot(a.c.x - b.c.x, a.c.y - b.c.y), a.c.z - b.c.z) - a.r - b.r;
        bool ab = sccd_sphere_vs_sphere(a, b);
        hits += ab;
        amb += check_pair(ab, sccd_sphere_vs_sphere(b, a), margin, NEAR * 10);
    }
    check_mix(hits, amb, N);
}

/* Circles and spheres placed at exactly r_a + r_b + gap along a random
 * direction: −gap and 0 must overlap, +gap must not. */
static void test_round_near_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(103);
    for (int i = 0; i < N; ++i) {
        for (int k = -1; k <= 1; ++k) {
            sccd_circle a = {sccd_rng_v2(&g, 50), sccd_rng_uniform(&g, 0, 5)};
            double rb = sccd_rng_uniform(&g, 0, 5);
            double scene = 2.0 * mag2(a.c) + 2.0 * (a.r + rb) + 1.0;
            sccd_circle b = {sccd_v2_mad(a.c, a.r + rb + k * NEAR * scene, sccd_rng_unit2(&g)), rb};
            assert_true(sccd_circle_vs_circle(a, b) == (k <= 0));
            assert_true(sccd_circle_vs_circle(b, a) == (k <= 0));

            sccd_sphere s = {sccd_rng_v3(&g, 50), sccd_rng_uniform(&g, 0, 5)};
            scene = 2.0 * mag3(s.c) + 2.0 * (s.r + rb) + 1.0;
            sccd_sphere t = {sccd_v3_mad(s.c, s.r + rb + k * NEAR * scene, sccd_rng_unit3(&g)), rb};
            assert_true(sccd_sphere_vs_sphere(s, t) == (k <= 0));
            assert_true(sccd_sphere_vs_sphere(t, s) == (k <= 0));
        }
    }
}

static void test_capsule_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(104);
    int hits2 = 0, amb2 = 0, hits3 = 0, amb3 = 0;
    for (int i = 0; i < N; ++i) {
        sccd_capsule2 a = {sccd_rng_v2(&g, 5), sccd_rng_v2(&g, 5), sccd_rng_uniform(&g, 0, 1)};
        sccd_capsule2 b = {sccd_rng_v2(&g, 5), sccd_rng_v2(&g, 5), sccd_rng_uniform(&g, 0, 1)};
        if (i % 10 == 0) /* parallel segments */
            b.b = sccd_v2_add(b.a, sccd_v2_scale(sccd_v2_sub(a.b, a.a), sccd_rng_uniform(&g, -1, 1)));
        if (i % 10 == 1) /* a point capsule (circle) */
            a.b = a.a;
        if (i % 10 == 2) /* nearly parallel, b starting near a's segment */
            b.b = sccd_v2_add(b.a = sccd_v2_mad(a.a, sccd_rng_uniform(&g, -0.5, 1.5), sccd_v2_sub(a.b, a.a)),
                              sccd_rot2_apply(sccd_rot2_make(1e-8), sccd_v2_sub(a.b, a.a)));
        double margin = sccd_oracle_segment_distance2(a.a, a.b, b.a, b.b) - a.r - b.r;
        bool ab = sccd_capsule2_vs_capsule2(a, b);
        hits2 += ab;
        amb2 += check_pair(ab, sccd_capsule2_vs_capsule2(b, a), margin, NEAR * 10);

        sccd_capsule3 c = {sccd_rng_v3(&g, 5), sccd_rng_v3(&g, 5), sccd_rng_uniform(&g, 0, 2)};
        sccd_capsule3 d = {sccd_rng_v3(&g, 5), sccd_rng_v3(&g, 5), sccd_rng_uniform(&g, 0, 2)};
        if (i % 10 == 0)
            d.b = sccd_v3_add(d.a, sccd_v3_scale(sccd_v3_sub(c.b, c.a), sccd_rng_uniform(&g, -1, 1)));
        if (i % 10 == 1)
            c.b = c.a;
        if (i % 10 == 2)
            d.b = sccd_v3_add(d.a = sccd_v3_mad(c.a, sccd_rng_uniform(&g, -0.5, 1.5), sccd_v3_sub(c.b, c.a)),
                              sccd_quat_apply(sccd_quat_axis_angle(sccd_rng_unit3(&g), 1e-8), sccd_v3_sub(c.b, c.a)));
        margin = sccd_oracle_segment_distance3(c.a, c.b, d.a, d.b) - c.r - d.r;
        ab = sccd_capsule3_vs_capsule3(c, d);
        hits3 += ab;
        amb3 += check_pair(ab, sccd_capsule3_vs_capsule3(d, c), margin, NEAR * 10);
    }
    check_mix(hits2, amb2, N);
    check_mix(hits3, amb3, N);
}

/* Capsules at a known distance D = ra + rb + gap: a runs from pa into the
 * half-space n·x ≤ n·pa, b from pa + D·n into n·x ≥ n·pa + D, so the
 * segments are exactly D apart (pa and pa + D·n realise it). Some segments
 * are made exactly perpendicular to n, so parallel pairs occur. */
static sccd_v2 away2(sccd_rng *g, sccd_v2 n, double sign, bool flat)
{
    sccd_v2 w = sccd_rng_v2(g, 4);
    double wn = sccd_v2_dot(w, n);
    if (flat)
        return sccd_v2_mad(w, -wn, n);
    return sign * wn >= 0.0 ? w : sccd_v2_mad(w, -2.0 * wn, n);
}

static sccd_v3 away3(sccd_rng *g, sccd_v3 n, double sign, bool flat)
{
    sccd_v3 w = sccd_rng_v3(g, 4);
    double wn = sccd_v3_dot(w, n);
    if (flat)
        return sccd_v3_mad(w, -wn, n);
    return sign * wn >= 0.0 ? w : sccd_v3_mad(w, -2.0 * wn, n);
}

static void test_capsule_near_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(105);
    for (int i = 0; i < N; ++i) {
        bool flat = i % 3 == 0;
        for (int k = -1; k <= 1; ++k) {
            sccd_v2 pa = sccd_rng_v2(&g, 20), n = sccd_rng_unit2(&g);
            double ra = sccd_rng_uniform(&g, 0, 2), rb = sccd_rng_uniform(&g, 0, 2);
            double scene = 2.0 * mag2(pa) + 20.0;
            sccd_v2 pb = sccd_v2_mad(pa, ra + rb + k * NEAR * scene, n);
            sccd_capsule2 a = {pa, sccd_v2_add(pa, away2(&g, n, -1.0, flat)), ra};
            sccd_capsule2 b = {sccd_v2_add(pb, away2(&g, n, 1.0, flat)), pb, rb};
            assert_true(sccd_capsule2_vs_capsule2(a, b) == (k <= 0));
            assert_true(sccd_capsule2_vs_capsule2(b, a) == (k <= 0));

            sccd_v3 qa = sccd_rng_v3(&g, 20), m = sccd_rng_unit3(&g);
            scene = 2.0 * mag3(qa) + 20.0;
            sccd_v3 qb = sccd_v3_mad(qa, ra + rb + k * NEAR * scene, m);
            sccd_capsule3 c = {sccd_v3_add(qa, away3(&g, m, -1.0, flat)), qa, ra};
            sccd_capsule3 d = {qb, sccd_v3_add(qb, away3(&g, m, 1.0, flat)), rb};
            assert_true(sccd_capsule3_vs_capsule3(c, d) == (k <= 0));
            assert_true(sccd_capsule3_vs_capsule3(d, c) == (k <= 0));
        }
    }
}

/* AABB oracle: the overlap interval max(lo)..min(hi) is non-empty per axis. */
static bool aabb_oracle(const double *alo, const double *ahi, const double *blo, const double *bhi, int dim)
{
    for (int i = 0; i < dim; ++i)
        if (fmax(alo[i], blo[i]) > fmin(ahi[i], bhi[i]))
            return false;
    return true;
}

static void test_aabb(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(106);
    int hits = 0;
    for (int i = 0; i < N; ++i) {
        double lo[2][3], hi[2][3], w[2][3];
        for (int s = 0; s < 2; ++s)
            for (int k = 0; k < 3; ++k) {
                lo[s][k] = sccd_rng_uniform(&g, -3, 3);
                w[s][k] = sccd_rng_uniform(&g, 0, 5);
            }
        /* Zero widths, and faces touching exactly, on some axes. */
        if (i % 5 == 0)
            w[0][(i + 1) % 3] = 0.0;
        for (int k = 0; k < 3; ++k)
            hi[0][k] = lo[0][k] + w[0][k];
        if (i % 4 == 0)
            lo[1][i % 3] = hi[0][i % 3];
        for (int k = 0; k < 3; ++k)
            hi[1][k] = lo[1][k] + w[1][k];
        sccd_aabb2 a2 = {{lo[0][0], lo[0][1]}, {hi[0][0], hi[0][1]}}, b2 = {{lo[1][0], lo[1][1]}, {hi[1][0], hi[1][1]}};
        sccd_aabb3 a3 = {{lo[0][0], lo[0][1], lo[0][2]}, {hi[0][0], hi[0][1], hi[0][2]}};
        sccd_aabb3 b3 = {{lo[1][0], lo[1][1], lo[1][2]}, {hi[1][0], hi[1][1], hi[1][2]}};
        bool want2 = aabb_oracle(lo[0], hi[0], lo[1], hi[1], 2), want3 = aabb_oracle(lo[0], hi[0], lo[1], hi[1], 3);
        assert_true(sccd_aabb2_vs_aabb2(a2, b2) == want2 && sccd_aabb2_vs_aabb2(b2, a2) == want2);
        assert_true(sccd_aabb3_vs_aabb3(a3, b3) == want3 && sccd_aabb3_vs_aabb3(b3, a3) == want3);
        hits += want3;
    }
    assert_true(hits > N / 10 && hits < N - N / 10);
    /* The smallest gap separates, touching does not. */
    sccd_aabb3 a = {{0, 0, 0}, {1, 1, 1}}, b = {{1, 0.5, 0.5}, {2, 2, 2}};
    assert_true(sccd_aabb3_vs_aabb3(a, b));
    b.lo.x = nextafter(1.0, 2.0);
    assert_false(sccd_aabb3_vs_aabb3(a, b));
    sccd_aabb2 p = {{1, 1}, {1, 1}}, q = {{0, 0}, {1, 1}};
    assert_true(sccd_aabb2_vs_aabb2(p, q) && sccd_aabb2_vs_aabb2(p, p));
}

/* ---- oriented boxes ---- */

static sccd_box2 grow2(sccd_box2 b, double d) { return (sccd_box2){b.c, b.q, {fmax(0, b.h.x + d), fmax(0, b.h.y + d)}}; }

static sccd_box3 grow3(sccd_box3 b, double d)
{
    return (sccd_box3){b.c, b.q, {fmax(0, b.h.x + d), fmax(0, b.h.y + d), fmax(0, b.h.z + d)}};
}

/* Some edge of a meets the solid b (in b's coordinates). */
static bool edges_meet2(sccd_box2 a, sccd_box2 b)
{
    sccd_v2 c[4];
    sccd_box2_corners(a, c);
    double h[2] = {b.h.x, b.h.y}, l[4][2];
    for (int i = 0; i < 4; ++i) {
        sccd_v2 x = sccd_rot2_inv_apply(b.q, sccd_v2_sub(c[i], b.c));
        l[i][0] = x.x, l[i][1] = x.y;
    }
    for (int i = 0; i < 4; ++i)
        if (sccd_oracle_segment_meets_box(l[i], l[(i + 1) % 4], h, 2))
            return true;
    return false;
}

static bool box2_oracle(sccd_box2 a, sccd_box2 b) { return edges_meet2(a, b) || edges_meet2(b, a); }

static bool edges_meet3(sccd_box3 a, sccd_box3 b)
{
    sccd_v3 c[8];
    sccd_box3_corners(a, c);
    double h[3] = {b.h.x, b.h.y, b.h.z}, l[8][3];
    for (int i = 0; i < 8; ++i) {
        sccd_v3 x = sccd_quat_inv_apply(b.q, sccd_v3_sub(c[i], b.c));
        l[i][0] = x.x, l[i][1] = x.y, l[i][2] = x.z;
    }
    for (int i = 0; i < 8; ++i)
        for (int bit = 1; bit < 8; bit <<= 1) /* the 12 edges: corners differing in one bit */
            if (!(i & bit) && sccd_oracle_segment_meets_box(l[i], l[i | bit], h, 3))
                return true;
    return false;
}

static bool box3_oracle(sccd_box3 a, sccd_box3 b) { return edges_meet3(a, b) || edges_meet3(b, a); }

static double box2_scene(sccd_box2 a, sccd_box2 b) { return mag2(a.c) + mag2(b.c) + a.h.x + a.h.y + b.h.x + b.h.y; }

static double box3_scene(sccd_box3 a, sccd_box3 b)
{
    return mag3(a.c) + mag3(b.c) + a.h.x + a.h.y + a.h.z + b.h.x + b.h.y + b.h.z;
}

/* A hit of the oracle must be reported; a miss of the oracle on both boxes
 * grown by the band must not. Returns 1 for the ambiguous rest. */
static int check_box2(sccd_box2 a, sccd_box2 b)
{
    double d = NEAR * box2_scene(a, b);
    bool ab = sccd_box2_vs_box2(a, b), ba = sccd_box2_vs_box2(b, a);
    if (box2_oracle(a, b)) {
        assert_true(ab && ba);
        return 0;
    }
    if (!box2_oracle(grow2(a, d), grow2(b, d))) {
        assert_false(ab || ba);
        return 0;
    }
    return 1;
}

static int check_box3(sccd_box3 a, sccd_box3 b)
{
    double d = NEAR * box3_scene(a, b);
    bool ab = sccd_box3_vs_box3(a, b), ba = sccd_box3_vs_box3(b, a);
    if (box3_oracle(a, b)) {
        assert_true(ab && ba);
        return 0;
    }
    if (!box3_oracle(grow3(a, d), grow3(b, d))) {
        assert_false(ab || ba);
        return 0;
    }
    return 1;
}

static void test_box_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(107);
    int hits2 = 0, amb2 = 0, hits3 = 0, amb3 = 0;
    for (int i = 0; i < N; ++i) {
        sccd_box2 a = {sccd_rng_v2(&g, 4), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4)), sccd_rng_v2(&g, 2)};
        sccd_box2 b = {sccd_rng_v2(&g, 4), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4)), sccd_rng_v2(&g, 2)};
        a.h = sccd_v2_abs(a.h), b.h = sccd_v2_abs(b.h);
        if (i % 8 == 0) /* parallel or perpendicular edges */
            b.q = sccd_rot2_mul(a.q, sccd_rot2_make(0.5 * SCCD_PI * sccd_rng_int(&g, 4)));
        if (i % 8 == 1) /* a segment or point box */
            a.h.x = 0.0, a.h.y *= i % 16 == 1;
        amb2 += check_box2(a, b);
        hits2 += sccd_box2_vs_box2(a, b);

        sccd_box3 c = {sccd_rng_v3(&g, 3), sccd_rng_quat(&g), sccd_v3_abs(sccd_rng_v3(&g, 2))};
        sccd_box3 d = {sccd_rng_v3(&g, 3), sccd_rng_quat(&g), sccd_v3_abs(sccd_rng_v3(&g, 2))};
        if (i % 8 == 0) { /* parallel edges: d turned by multiples of 90° about c's axes */
            sccd_v3 ax[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
            d.q = sccd_quat_mul(c.q, sccd_quat_axis_angle(ax[sccd_rng_int(&g, 3)], 0.5 * SCCD_PI * sccd_rng_int(&g, 4)));
        }
        if (i % 8 == 1)
            c.h.x = 0.0, c.h.y *= i % 16 == 1;
        amb3 += check_box3(c, d);
        hits3 += sccd_box3_vs_box3(c, d);
    }
    check_mix(hits2, amb2, N);
    check_mix(hits3, amb3, N);
}

/* The corner of b farthest along n. */
static sccd_v2 corner2(sccd_box2 b, sccd_v2 n)
{
    sccd_v2 l = sccd_rot2_inv_apply(b.q, n);
    return sccd_v2_add(b.c, sccd_rot2_apply(b.q, (sccd_v2){l.x >= 0 ? b.h.x : -b.h.x, l.y >= 0 ? b.h.y : -b.h.y}));
}

static sccd_v3 corner3(sccd_box3 b, sccd_v3 n)
{
    sccd_v3 l = sccd_quat_inv_apply(b.q, n);
    sccd_v3 s = {l.x >= 0 ? b.h.x : -b.h.x, l.y >= 0 ? b.h.y : -b.h.y, l.z >= 0 ? b.h.z : -b.h.z};
    return sccd_v3_add(b.c, sccd_quat_apply(b.q, s));
}

/* Near-touching boxes: b is moved so that its corner farthest along −n sits
 * at a's corner farthest along n, plus gap·n. At gap ≤ 0 that corner lies in
 * a (moving a box corner against a direction of its normal cone enters the
 * box), so they overlap. At gap > 0 the plane ⟂ n separates them by gap;
 * when n is a face normal or an edge cross, a separating axis sees that gap,
 * so the test must say "apart". */
static void test_box2_near_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(108);
    int separated = 0;
    for (int i = 0; i < N; ++i) {
        sccd_box2 a = {sccd_rng_v2(&g, 20), sccd_rot2_make(sccd_rng_uniform(&g, -4, 4)), {0, 0}};
        sccd_box2 b = {{0, 0}, sccd_rot2_make(sccd_rng_uniform(&g, -4, 4)), {0, 0}};
        if (i % 4 == 0)
            b.q = sccd_rot2_mul(a.q, sccd_rot2_make(0.5 * SCCD_PI * sccd_rng_int(&g, 4)));
        a.h = (sccd_v2){sccd_rng_uniform(&g, 0.1, 2), sccd_rng_uniform(&g, 0.1, 2)};
        b.h = (sccd_v2){sccd_rng_uniform(&g, 0.1, 2), sccd_rng_uniform(&g, 0.1, 2)};
        int kind = sccd_rng_int(&g, 3); /* 0: a's face normal, 1: b's, 2: any direction */
        sccd_v2 face = sccd_rot2_apply(kind == 0 ? a.q : b.q, sccd_rng_int(&g, 2) ? (sccd_v2){1, 0} : (sccd_v2){0, 1});
        sccd_v2 n = kind == 2 ? sccd_rng_unit2(&g) : sccd_v2_scale(face, sccd_rng_int(&g, 2) ? 1.0 : -1.0);
        for (int k = -1; k <= 1; ++k) {
            double gap = k * NEAR * (2.0 * mag2(a.c) + 20.0);
            b.c = (sccd_v2){0, 0};
            b.c = sccd_v2_sub(sccd_v2_mad(corner2(a, n), gap, n), corner2(b, sccd_v2_neg(n)));
            bool ab = sccd_box2_vs_box2(a, b), ba = sccd_box2_vs_box2(b, a);
            if (k <= 0)
                assert_true(ab && ba);
            else if (kind < 2)
                assert_false(ab || ba), ++separated;
            check_box2(a, b);
        }
    }
    assert_true(separated > N / 2);
}

static void test_box3_near_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(109);
    int separated = 0;
    for (int i = 0; i < N; ++i) {
        sccd_box3 a = {sccd_rng_v3(&g, 20), sccd_rng_quat(&g), {0, 0, 0}};
        sccd_box3 b = {{0, 0, 0}, sccd_rng_quat(&g), {0, 0, 0}};
        if (i % 4 == 0)
            b.q = sccd_quat_mul(a.q, sccd_quat_axis_angle((sccd_v3){0, 0, 1}, 0.5 * SCCD_PI * sccd_rng_int(&g, 4)));
        a.h = (sccd_v3){sccd_rng_uniform(&g, 0.1, 2), sccd_rng_uniform(&g, 0.1, 2), sccd_rng_uniform(&g, 0.1, 2)};
        b.h = (sccd_v3){sccd_rng_uniform(&g, 0.1, 2), sccd_rng_uniform(&g, 0.1, 2), sccd_rng_uniform(&g, 0.1, 2)};
        sccd_v3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        sccd_v3 ea = sccd_quat_apply(a.q, e[sccd_rng_int(&g, 3)]), eb = sccd_quat_apply(b.q, e[sccd_rng_int(&g, 3)]);
        sccd_v3 cross = sccd_v3_cross(ea, eb);
        int kind = sccd_rng_int(&g, 4); /* a's face, b's face, edge cross, any direction */
        sccd_v3 n = kind == 0 ? ea : kind == 1 ? eb : kind == 2 ? sccd_v3_normalize(cross) : sccd_rng_unit3(&g);
        n = sccd_v3_scale(n, sccd_rng_int(&g, 2) ? 1.0 : -1.0);
        /* A short cross axis (nearly parallel edges) hides most of the gap. */
        bool strict = kind < 2 || (kind == 2 && sccd_v3_len(cross) > 0.1);
        for (int k = -1; k <= 1; ++k) {
            double gap = k * NEAR * (2.0 * mag3(a.c) + 30.0);
            b.c = (sccd_v3){0, 0, 0};
            b.c = sccd_v3_sub(sccd_v3_mad(corner3(a, n), gap, n), corner3(b, sccd_v3_neg(n)));
            bool ab = sccd_box3_vs_box3(a, b), ba = sccd_box3_vs_box3(b, a);
            if (k <= 0)
                assert_true(ab && ba);
            else if (strict)
                assert_false(ab || ba), ++separated;
            check_box3(a, b);
        }
    }
    assert_true(separated > N / 2);
}

/* Hand-made degenerate cases: parallel faces and edges touching exactly,
 * point boxes, coincident shapes, large coordinates. */
static void test_degenerate(void **state)
{
    (void)state;
    sccd_quat q = sccd_quat_axis_angle(sccd_v3_normalize((sccd_v3){1, 2, 3}), 0.7);
    sccd_v3 ex = sccd_quat_apply(q, (sccd_v3){1, 0, 0}), ey = sccd_quat_apply(q, (sccd_v3){0, 1, 0});
    for (int big = 0; big < 2; ++big) {
        sccd_v3 o = big ? (sccd_v3){1e6, -2e6, 3e5} : (sccd_v3){0.5, -1, 2};
        sccd_box3 a = {o, q, {1, 2, 3}}, b = a;
        double eps = NEAR * (2 * mag3(o) + 12);
        assert_true(sccd_box3_vs_box3(a, b)); /* identical: every cross axis is degenerate */
        b.c = sccd_v3_mad(o, 2.0, ex);        /* face to face, touching */
        assert_true(sccd_box3_vs_box3(a, b) && sccd_box3_vs_box3(b, a));
        b.c = sccd_v3_mad(o, 2.0 + eps, ex);
        assert_false(sccd_box3_vs_box3(a, b) || sccd_box3_vs_box3(b, a));
        b.c = sccd_v3_mad(sccd_v3_mad(o, 2.0, ex), 4.0, ey); /* parallel edges touching */
        assert_true(sccd_box3_vs_box3(a, b) && sccd_box3_vs_box3(b, a));
        b.c = sccd_v3_mad(sccd_v3_mad(o, 2.0 + eps, ex), 4.0 + eps, ey);
        assert_false(sccd_box3_vs_box3(a, b) || sccd_box3_vs_box3(b, a));
        sccd_box3 p = {sccd_v3_mad(o, 1.0, ex), q, {0, 0, 0}}; /* a point on a's face */
        assert_true(sccd_box3_vs_box3(a, p) && sccd_box3_vs_box3(p, a) && sccd_box3_vs_box3(p, p));
        p.c = sccd_v3_mad(o, 1.0 + eps, ex);
        assert_false(sccd_box3_vs_box3(a, p) || sccd_box3_vs_box3(p, a));

        sccd_v2 o2 = {o.x, o.y};
        sccd_rot2 r = sccd_rot2_make(0.3);
        sccd_v2 fx = sccd_rot2_apply(r, (sccd_v2){1, 0}), fy = sccd_rot2_apply(r, (sccd_v2){0, 1});
        sccd_box2 a2 = {o2, r, {1, 2}}, b2 = {sccd_v2_mad(sccd_v2_mad(o2, 2.0, fx), 4.0, fy), r, {1, 2}};
        assert_true(sccd_box2_vs_box2(a2, b2) && sccd_box2_vs_box2(b2, a2)); /* corner to corner */
        b2.c = sccd_v2_mad(b2.c, eps, fy);
        assert_false(sccd_box2_vs_box2(a2, b2) || sccd_box2_vs_box2(b2, a2));
        sccd_box2 p2 = {o2, sccd_rot2_identity(), {0, 0}};
        assert_true(sccd_box2_vs_box2(a2, p2) && sccd_box2_vs_box2(p2, p2));

        sccd_circle c = {o2, 0.0};
        assert_true(sccd_circle_vs_circle(c, c)); /* two points, coincident */
        sccd_circle d = {sccd_v2_mad(o2, eps, fx), 0.0};
        assert_false(sccd_circle_vs_circle(c, d));
        sccd_sphere s = {o, 0.0}, t = {sccd_v3_mad(o, eps, ex), 0.0};
        assert_true(sccd_sphere_vs_sphere(s, s));
        assert_false(sccd_sphere_vs_sphere(s, t));
        sccd_capsule3 k = {o, o, 0.0}, m = {sccd_v3_mad(o, -1, ey), sccd_v3_mad(o, 1, ey), 0.0};
        assert_true(sccd_capsule3_vs_capsule3(k, m) && sccd_capsule3_vs_capsule3(m, k)); /* point on a segment */
        k.a = k.b = sccd_v3_mad(o, eps, ex);
        assert_false(sccd_capsule3_vs_capsule3(k, m));
        sccd_capsule2 k2 = {o2, sccd_v2_mad(o2, 3, fx), 0.5}, m2 = {sccd_v2_mad(o2, 1, fy), sccd_v2_mad(o2, 1, fy), 0.5};
        assert_true(sccd_capsule2_vs_capsule2(k2, m2) && sccd_capsule2_vs_capsule2(m2, k2));
    }
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_circle c = {{0, 0}, 1}, cn = {{NAN, 0}, 1};
    sccd_capsule2 k = {{0, 0}, {1, 0}, 1}, kn = {{0, 0}, {1, 0}, -1};
    sccd_aabb2 a = {{0, 0}, {1, 1}}, an = {{1, 0}, {0, 1}};
    sccd_box2 b = {{0, 0}, {1, 0}, {1, 1}}, bn = {{0, 0}, {2, 0}, {1, 1}};
    sccd_sphere s = {{0, 0, 0}, 1}, sn = {{0, 0, INFINITY}, 1};
    sccd_capsule3 l = {{0, 0, 0}, {1, 0, 0}, 1}, ln = {{0, 0, 0}, {NAN, 0, 0}, 1};
    sccd_aabb3 a3 = {{0, 0, 0}, {1, 1, 1}}, a3n = {{0, 0, NAN}, {1, 1, 1}};
    sccd_box3 b3 = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}, b3n = {{0, 0, 0}, {0, 0, 0, 1}, {1, -1, 1}};
    /* Every invalid pair: one check, result false (as a +INFINITY distance). */
    assert_false(sccd_circle_vs_circle(c, cn) || sccd_circle_vs_circle(cn, c));
    assert_false(sccd_capsule2_vs_capsule2(k, kn) || sccd_capsule2_vs_capsule2(kn, k));
    assert_false(sccd_aabb2_vs_aabb2(a, an) || sccd_aabb2_vs_aabb2(an, a));
    assert_false(sccd_box2_vs_box2(b, bn) || sccd_box2_vs_box2(bn, b));
    assert_false(sccd_sphere_vs_sphere(s, sn) || sccd_sphere_vs_sphere(sn, s));
    assert_false(sccd_capsule3_vs_capsule3(l, ln) || sccd_capsule3_vs_capsule3(ln, l));
    assert_false(sccd_aabb3_vs_aabb3(a3, a3n) || sccd_aabb3_vs_aabb3(a3n, a3));
    assert_false(sccd_box3_vs_box3(b3, b3n) || sccd_box3_vs_box3(b3n, b3));
    assert_int_equal(sccd_test_assert_count(), 16);
    /* The valid ones still work afterwards, without a check firing. */
    assert_true(sccd_circle_vs_circle(c, c) && sccd_box3_vs_box3(b3, b3) && sccd_aabb2_vs_aabb2(a, a));
    assert_int_equal(sccd_test_assert_count(), 16);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_circle_random),      cmocka_unit_test(test_sphere_random),
        cmocka_unit_test(test_round_near_touching), cmocka_unit_test(test_capsule_random),
        cmocka_unit_test(test_capsule_near_touching), cmocka_unit_test(test_aabb),
        cmocka_unit_test(test_box_random),         cmocka_unit_test(test_box2_near_touching),
        cmocka_unit_test(test_box3_near_touching), cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("discrete", tests, NULL, NULL);
}
