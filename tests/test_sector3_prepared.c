/* Prepared 3D sectors (sccd_sector3_prepare and the
 * sccd_sector3_prepared_vs_* tests): on random and degenerate sectors the
 * prepared answer equals the one-shot answer and the branch-and-bound oracle
 * (tests/oracles/sector3_oracle.c); points on and next to the wedge's sides
 * agree with the oracle's closed-form distance, and shapes placed just across
 * its boundary surfaces, and slivers whose thin part alone crosses them,
 * with the branch-and-bound oracle; unusable sectors
 * are refused when prepared and meet nothing; sweep bands set by hand are
 * still tested. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sector3_oracle.h"

#define N_RANDOM 10000

typedef enum kind { K_SPHERE, K_CAPSULE, K_BOX, K_TRIANGLE } kind;

/* The oracle's sectors, sometimes with the frame on the world axes (exact
 * zeros in the canonical frame, as on the ray opposite a). */
static sccd_sector3 random_sector(sccd_rng *g)
{
    sccd_sector3 s = sccd_oracle_random_sector(g);
    if (sccd_rng_int(g, 5) == 0) {
        s.u = (sccd_v3){0.0, 0.0, 1.0};
        s.a = (sccd_v3){1.0, 0.0, 0.0};
    }
    return s;
}

static sccd_real maybe_zero(sccd_rng *g, sccd_real hi) { return sccd_rng_int(g, 8) ? sccd_rng_uniform(g, 0.0, hi) : 0.0; }

/* A point just across a side rectangle's plane (angle ±θ), the slab's
 * faces or the arcs' cylinders, where the prepared tests' support and ball
 * early-outs decide; wide wedges (two convex halves) half the time. */
static sccd_v3 near_boundary(sccd_sector3 *s, sccd_rng *g, int i)
{
    if (i % 2)
        s->half_angle = sccd_rng_uniform(g, 0.5 * SCCD_PI, SCCD_PI);
    sccd_real side = sccd_rng_int(g, 2) ? 1.0 : -1.0;
    sccd_real phi = sccd_rng_int(g, 3) ? side * s->half_angle : sccd_rng_uniform(g, -s->half_angle, s->half_angle);
    sccd_real rho = sccd_rng_uniform(g, s->r - 0.5, s->R + 0.5), z = sccd_rng_uniform(g, s->zlo - 0.5, s->zhi + 0.5);
    sccd_v3 q = {rho * cos(phi), rho * sin(phi), z}, off = {-side * sin(phi), side * cos(phi), 0.0};
    if (sccd_rng_int(g, 3) == 0) /* radially or along u instead */
        off = sccd_rng_int(g, 2) ? (sccd_v3){cos(phi), sin(phi), 0.0} : (sccd_v3){0.0, 0.0, 1.0};
    return sccd_sector3_from_local(s, sccd_v3_mad(q, sccd_rng_uniform(g, -0.5, 1.5), off));
}

static void random_kind_at(kind k, uint64_t seed, bool near)
{
    sccd_rng g = sccd_rng_make(seed);
    sccd_test_count_asserts(); /* usable input: no check may fire */
    int hit = 0, sep = 0, unsure = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_v3 a = near ? near_boundary(&s, &g, i) : sccd_oracle_near(&s, &g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        bool one = false, pre = false;
        sccd_oracle_verdict v = SCCD_ORACLE_UNSURE;
        if (k == K_SPHERE) {
            sccd_sphere x = {a, maybe_zero(&g, 3.0)};
            one = sccd_sector3_vs_sphere(&s, x);
            pre = sccd_sector3_prepared_vs_sphere(&p, x);
            v = sccd_oracle_sector3(&s, sccd_oracle_dist_sphere, &x, 20.0);
        } else if (k == K_CAPSULE) {
            sccd_v3 d = sccd_rng_int(&g, 6) ? sccd_rng_v3(&g, 5.0) : sccd_v3_scale(s.u, 3.0);
            sccd_capsule3 x = {a, sccd_v3_add(a, d), maybe_zero(&g, 2.0)};
            one = sccd_sector3_vs_capsule(&s, x);
            pre = sccd_sector3_prepared_vs_capsule(&p, x);
            v = sccd_oracle_sector3(&s, sccd_oracle_dist_capsule, &x, 20.0);
        } else if (k == K_BOX) {
            sccd_box3 x = {a, sccd_rng_quat(&g), {maybe_zero(&g, 3.0), maybe_zero(&g, 3.0), maybe_zero(&g, 3.0)}};
            one = sccd_sector3_vs_box(&s, x);
            pre = sccd_sector3_prepared_vs_box(&p, x);
            v = sccd_oracle_sector3(&s, sccd_oracle_dist_box, &x, 20.0);
        } else {
            sccd_triangle x = sccd_oracle_random_triangle(&g, a, 5.0);
            one = sccd_sector3_vs_triangle(&s, x);
            pre = sccd_sector3_prepared_vs_triangle(&p, x);
            v = sccd_oracle_sector3(&s, sccd_oracle_dist_triangle, &x, 20.0);
        }
        assert_true(one == pre);
        if (v == SCCD_ORACLE_UNSURE) {
            unsure++;
            continue;
        }
        if (pre != (v == SCCD_ORACLE_HIT))
            fail_msg("case %d: got %d (th %.17g r %.17g R %.17g z %.17g %.17g)", i, pre, s.half_angle, s.r, s.R,
                     s.zlo, s.zhi);
        hit += pre;
        sep += !pre;
    }
    /* Shapes placed at the boundary graze it more often: the oracle is then
     * more often unsure within its budget (those still compare one-shot and
     * prepared). */
    assert_true(unsure <= (near ? N_RANDOM / 25 : N_RANDOM / 100));
    assert_true(hit > N_RANDOM / 20 && sep > N_RANDOM / 20);
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

static void random_kind(kind k, uint64_t seed) { random_kind_at(k, seed, false); }

static void test_sphere(void **state) { (void)state; random_kind(K_SPHERE, 301); }
static void test_capsule(void **state) { (void)state; random_kind(K_CAPSULE, 302); }
static void test_box(void **state) { (void)state; random_kind(K_BOX, 303); }
static void test_triangle(void **state) { (void)state; random_kind(K_TRIANGLE, 304); }

/* Each shape just across the sector's boundary surfaces. */
static void test_near_boundary(void **state)
{
    (void)state;
    for (kind k = K_SPHERE; k <= K_TRIANGLE; ++k)
        random_kind_at(k, 306 + (uint64_t)k, true);
}

/* A point q on one of S's boundary surfaces (canonical frame), its
 * outward normal n and a direction t along the surface there: a side
 * plane (when the wedge has sides), the outer arc's cylinder or a slab
 * face. */
static void boundary_point(const sccd_sector3 *s, sccd_rng *g, sccd_v3 *q, sccd_v3 *n, sccd_v3 *t)
{
    int k = s->half_angle < SCCD_PI ? sccd_rng_int(g, 3) : 1 + sccd_rng_int(g, 2);
    sccd_real side = sccd_rng_int(g, 2) ? 1.0 : -1.0, rho = sccd_rng_uniform(g, s->r, s->R);
    sccd_real phi = k == 0 ? side * s->half_angle : sccd_rng_uniform(g, -s->half_angle, s->half_angle);
    sccd_real z = sccd_rng_uniform(g, s->zlo, s->zhi), w = sccd_rng_uniform(g, -1.0, 1.0);
    sccd_v3 radial = {cos(phi), sin(phi), 0.0}, around = {-sin(phi), cos(phi), 0.0}, up = {0.0, 0.0, 1.0};
    if (k == 0) { /* a side: outward across it, along it radially or along u */
        *q = (sccd_v3){rho * radial.x, rho * radial.y, z};
        *n = sccd_v3_scale(around, side);
        *t = sccd_v3_normalize(sccd_v3_add(sccd_v3_scale(radial, w), sccd_v3_scale(up, 1.0 - fabs(w))));
    } else if (k == 1) { /* the outer cylinder: outward radially, along it around or along u */
        *q = (sccd_v3){s->R * radial.x, s->R * radial.y, z};
        *n = radial;
        *t = sccd_v3_normalize(sccd_v3_add(sccd_v3_scale(around, w), sccd_v3_scale(up, 1.0 - fabs(w))));
    } else { /* a slab face: outward along ±u, along it radially or around */
        *q = (sccd_v3){rho * radial.x, rho * radial.y, side > 0.0 ? s->zhi : s->zlo};
        *n = sccd_v3_scale(up, side);
        *t = sccd_v3_normalize(sccd_v3_add(sccd_v3_scale(radial, w), sccd_v3_scale(around, 1.0 - fabs(w))));
    }
}

/* Slivers across the boundary: the long edge of a triangle 1e-5 to 1e-3
 * of its length thin along S's surface, just outside it, its third
 * corner across the surface by 0.4 to 0.9 of the thickness, or short of
 * it by as much (half the cases each): whether they meet is decided by the
 * sliver's thin part alone (a test that took a sliver for its longest
 * edge, or lost its third corner, misses it). One-shot, prepared and the
 * branch-and-bound oracle agree; both answers occur. The oracle leaves
 * a third undecided within its budget (a sector point within 2e-10 of a
 * strip some 1e-6 wide), each taking its whole budget: fewer cases than
 * the other random tests. */
#define N_SLIVERS 2000

static void test_sliver_across_boundary(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(318);
    sccd_test_count_asserts(); /* usable input: no check may fire */
    sccd_test_assert_reset();
    int hit = 0, sep = 0, unsure = 0;
    for (int i = 0; i < N_SLIVERS; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 q, n, t;
        boundary_point(&s, &g, &q, &n, &t);
        sccd_real len = sccd_rng_uniform(&g, 0.2, 2.0), wide = len * pow(10.0, -sccd_rng_uniform(&g, 3.0, 5.0));
        sccd_real out = wide * (sccd_rng_int(&g, 2) ? sccd_rng_uniform(&g, 0.1, 0.6) : sccd_rng_uniform(&g, 1.4, 1.9));
        sccd_real at = sccd_rng_uniform(&g, -0.5, 1.5);
        sccd_v3 a = sccd_v3_mad(sccd_v3_mad(q, out, n), -0.5 * len, t), b = sccd_v3_mad(a, len, t);
        sccd_v3 c = sccd_v3_mad(sccd_v3_mad(a, at * len, t), -wide, n);
        sccd_triangle x = {sccd_sector3_from_local(&s, a), sccd_sector3_from_local(&s, b),
                           sccd_sector3_from_local(&s, c)};
        bool one = sccd_sector3_vs_triangle(&s, x), pre = sccd_sector3_prepared_vs_triangle(&p, x);
        assert_true(one == pre);
        sccd_oracle_verdict v = sccd_oracle_sector3(&s, sccd_oracle_dist_triangle, &x, 20.0);
        if (v == SCCD_ORACLE_UNSURE) {
            unsure++;
            continue;
        }
        if (pre != (v == SCCD_ORACLE_HIT))
            fail_msg("case %d: got %d, oracle %d (out %.3g of %.3g)", i, pre, v == SCCD_ORACLE_HIT, out, wide);
        hit += pre;
        sep += !pre;
    }
    printf("  slivers across the boundary: %d met, %d apart, %d undecided by the oracle\n", hit, sep, unsure);
    assert_true(hit > N_SLIVERS / 10 && sep > N_SLIVERS / 10 && unsure <= N_SLIVERS / 3);
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* Points near the sector, on a side (angle ±θ), on the ray opposite a, and
 * 1e-6 off them: prepared == one-shot, and both agree with the oracle's
 * closed-form distance (wedge and side rectangles, no half-planes). */
static void test_point(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(305);
    for (int i = 0; i < 5 * N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 q = sccd_oracle_near(&s, &g);
        sccd_real rho = sccd_rng_uniform(&g, s.r, s.R), z = sccd_rng_uniform(&g, s.zlo, s.zhi);
        if (i % 3 == 1) { /* on a side, maybe nudged */
            sccd_real phi = sccd_rng_int(&g, 2) ? s.half_angle : -s.half_angle;
            q = sccd_sector3_from_local(&s, (sccd_v3){rho * cos(phi), rho * sin(phi), z});
        } else if (i % 3 == 2) { /* on the ray opposite a */
            q = sccd_sector3_from_local(&s, (sccd_v3){-rho, 0.0, z});
        }
        if (sccd_rng_int(&g, 2))
            q = sccd_v3_mad(q, 1e-6, sccd_rng_unit3(&g));
        bool got = sccd_sector3_prepared_vs_point(&p, q);
        assert_true(got == sccd_sector3_vs_point(&s, q));
        sccd_real d = sccd_oracle_dist_sector(&s, q);
        if (d > 1e-8)
            assert_false(got);
        if (d <= 1e-12)
            assert_true(got);
    }
}

/* Points just beside a side of a wedge of width 0 or nearly 2π: 1.2e-8 rad
 * past the side of a zero-width wedge at radius 5, and on the ray opposite
 * a when the half angle is π − 5e-9, 6e-8 and 2.5e-8 from the sector (more
 * than 4 times the tolerance, 6e-9): neither test meets them (both did,
 * by the thesis' in-test x ≥ ρ·cos θ, whose cosine cannot tell such angles
 * apart); the points on the sides are met. */
static void test_point_beside_thin_wedge(void **state)
{
    (void)state;
    const sccd_real th[2] = {0.0, SCCD_PI - 5e-9};
    const sccd_v3 beside[2] = {{5.0, 6e-8, 0.0}, {-5.0, 0.0, 0.0}};
    for (int k = 0; k < 2; ++k) {
        sccd_sector3 s = {{0.0, 0.0, 0.0}, {0.0, 0.0, 1.0}, {1.0, 0.0, 0.0}, th[k], 1.0, 6.0, -1.0, 1.0};
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        assert_false(sccd_sector3_prepared_vs_point(&p, beside[k]));
        assert_false(sccd_sector3_vs_point(&s, beside[k]));
        for (int side = -1; side <= 1; side += 2) {
            sccd_v3 on = {5.0 * cos(th[k]), side * 5.0 * sin(th[k]), 0.5};
            assert_true(sccd_sector3_prepared_vs_point(&p, on));
            assert_true(sccd_sector3_vs_point(&s, on));
        }
    }
}

/* A wedge of width 0 (half angle 0, the side level with the ray opposite
 * a, which only the sign of a sine of 2.8e-17 keeps outside): points
 * on that ray, inside the slab and between the radii, are ρ + r from the
 * sector (the oracle's closed form agrees); neither test meets them, nor a
 * sphere about them 1e-6 of the scene short of that, and both meet one
 * that far past it. */
static void test_ray_opposite_zero_wedge(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(310);
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        s.half_angle = 0.0;
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_real rho = sccd_rng_uniform(&g, s.r, s.R), z = sccd_rng_uniform(&g, s.zlo, s.zhi), d = rho + s.r;
        sccd_v3 q = sccd_sector3_from_local(&s, (sccd_v3){-rho, 0.0, z});
        sccd_real gap = 1e-6 * (s.R + fabs(s.zlo) + fabs(s.zhi) + rho); /* far above the tolerance */
        assert_true(fabs(sccd_oracle_dist_sector(&s, q) - d) <= 1e-3 * gap);
        if (d <= gap)
            continue;
        assert_false(sccd_sector3_prepared_vs_point(&p, q));
        assert_false(sccd_sector3_vs_point(&s, q));
        for (int k = -1; k <= 1; k += 2) {
            sccd_sphere sph = {q, d + k * gap};
            assert_true(sccd_sector3_prepared_vs_sphere(&p, sph) == (k > 0));
            assert_true(sccd_sector3_vs_sphere(&s, sph) == (k > 0));
        }
    }
}

/* s with axes unit and ⟂ only within 1e-6, as valid sectors may be: |u|²
 * and |a|² off 1, and u·a off 0, by up to 0.99e-6 each. */
static void skew_axes(sccd_sector3 *s, sccd_rng *g)
{
    sccd_real du = sccd_rng_uniform(g, -0.99e-6, 0.99e-6), da = sccd_rng_uniform(g, -0.98e-6, 0.98e-6);
    sccd_real lean = sccd_rng_uniform(g, -0.99e-6, 0.99e-6);
    sccd_v3 u = s->u;
    s->u = sccd_v3_scale(u, sqrt(1.0 + du));
    s->a = sccd_v3_mad(sccd_v3_scale(s->a, sqrt(1.0 + da)), lean, u);
}

/* The prepared frame is exact for axes unit and ⟂ only within 1e-6
 * (skew_axes): u, a and k unit and ⟂ within 2e-15 (some ulps), k = u × a,
 * u along the given axis and a in the plane of the given u and a, on the
 * given a's side. 1/|v| taken to first order only is 3.8e-13 off here,
 * not taken at all 5e-7. */
static void test_frame_exact_at_axes_limits(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(312);
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        skew_axes(&s, &g);
        assert_true(sccd_is_valid_sector3(&s));
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        const sccd_v3 f[3] = {p.u, p.a, p.k};
        for (int j = 0; j < 3; ++j) {
            assert_true(fabs(sccd_v3_len2(f[j]) - 1.0) <= 2e-15);
            assert_true(fabs(sccd_v3_dot(f[j], f[(j + 1) % 3])) <= 2e-15);
        }
        assert_true(sccd_v3_dot(sccd_v3_cross(p.u, p.a), p.k) >= 1.0 - 2e-15);
        assert_true(sccd_v3_len(sccd_v3_cross(p.u, s.u)) <= 2e-15 && sccd_v3_dot(p.u, s.u) > 0.0);
        assert_true(fabs(sccd_v3_dot(p.a, sccd_v3_normalize(sccd_v3_cross(s.u, s.a)))) <= 2e-15);
        assert_true(sccd_v3_dot(p.a, s.a) > 0.0);
    }
}

/* Shapes just above the top face of a sector turned by a random rotation
 * Q (r 1, R 10, slab ±1, half angle 1: tolerance SCCD_EPS·R, the shapes'
 * coordinates below R): a sphere, a flat triangle and a flat box with
 * their lowest points g above the face, and a thin triangle apex down and
 * a cube corner down, their centres straight above that point (so their
 * bounding balls reach the face only g past their radii). g of half the
 * tolerance is met, three times it is not, by the prepared and the one-shot
 * tests. Fails with the ball early-out's outer reach cut to its radius or
 * its inner one grown a hundredfold. */
static void test_tolerance_band(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(313);
    const sccd_real tol = SCCD_EPS * 10.0, corner = 1.7320508075688772 * 0.5;
    const sccd_quat down = sccd_quat_axis_angle(sccd_v3_normalize((sccd_v3){-1.0, 1.0, 0.0}), acos(-1.0 / sqrt(3.0)));
    for (int i = 0; i < 2000; ++i) {
        sccd_quat Q = sccd_rng_quat(&g);
        sccd_v3 o = sccd_rng_v3(&g, 5.0);
        sccd_sector3 s = {o, sccd_quat_apply(Q, (sccd_v3){0.0, 0.0, 1.0}), sccd_quat_apply(Q, (sccd_v3){1.0, 0.0, 0.0}),
                          1.0, 1.0, 10.0, -1.0, 1.0};
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_real x = sccd_rng_uniform(&g, 3.0, 7.0), y = sccd_rng_uniform(&g, -1.0, 1.0);
        for (int k = 0; k < 2; ++k) {
            sccd_real gap = k == 0 ? 0.5 * tol : 3.0 * tol, z = 1.0 + gap;
            bool met = k == 0;
#define AT(lx, ly, lz) sccd_v3_add(o, sccd_quat_apply(Q, (sccd_v3){(lx), (ly), (lz)}))
            sccd_sphere sph = {AT(x, y, z + 0.4), 0.4};
            sccd_triangle flat = {AT(x, y, z), AT(x + 1.0, y + 0.2, z), AT(x + 0.5, y - 0.3, z)};
            sccd_triangle apex = {AT(x, y, z), AT(x - 0.2, y, z + 2.0), AT(x + 0.2, y, z + 2.0)};
            sccd_box3 slab = {AT(x, y, z + 0.3), Q, {0.5, 0.4, 0.3}};
            sccd_box3 cube = {AT(x, y, z + corner), sccd_quat_mul(Q, down), {0.5, 0.5, 0.5}};
#undef AT
            assert_true(sccd_sector3_prepared_vs_sphere(&p, sph) == met && sccd_sector3_vs_sphere(&s, sph) == met);
            assert_true(sccd_sector3_prepared_vs_triangle(&p, flat) == met);
            assert_true(sccd_sector3_vs_triangle(&s, flat) == met);
            assert_true(sccd_sector3_prepared_vs_triangle(&p, apex) == met);
            assert_true(sccd_sector3_vs_triangle(&s, apex) == met);
            assert_true(sccd_sector3_prepared_vs_box(&p, slab) == met && sccd_sector3_vs_box(&s, slab) == met);
            assert_true(sccd_sector3_prepared_vs_box(&p, cube) == met && sccd_sector3_vs_box(&s, cube) == met);
        }
    }
}

/* A flat box (a rectangle, no thickness) leaning 20° off the slab's top
 * plane, its point nearest the top end E of a sector that is a segment on
 * its axis (r = R = 0, the slab 20 high) 0.5 tolerances above E along its
 * normal, its centre 0.2 aside (no ball of it decides): its part in the
 * slab lies 1.5 tolerances from the axis, but the box is within half a
 * tolerance of E. Met by both routes; 3 tolerances above, by neither. The
 * polytope test had cut the box at the slab's planes themselves (the
 * wedge's and the radii widened by the tolerance, not the slab): missed. */
static void test_slab_rim(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(314);
    const sccd_real tol = SCCD_EPS * 10.0, alpha = 20.0 * SCCD_PI / 180.0;
    const sccd_quat lean = sccd_quat_axis_angle((sccd_v3){0.0, 1.0, 0.0}, alpha);
    const sccd_v3 n = {sin(alpha), 0.0, cos(alpha)}, top = {0.0, 0.0, 10.0};
    for (int i = 0; i < 2000; ++i) {
        sccd_quat Q = sccd_rng_quat(&g);
        sccd_v3 o = sccd_rng_v3(&g, 5.0);
        sccd_sector3 s = {o, sccd_quat_apply(Q, (sccd_v3){0.0, 0.0, 1.0}), sccd_quat_apply(Q, (sccd_v3){1.0, 0.0, 0.0}),
                          sccd_rng_uniform(&g, 0.0, SCCD_PI), 0.0, 0.0, -10.0, 10.0};
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        for (int k = 0; k < 2; ++k) {
            sccd_real gap = k == 0 ? 0.5 * tol : 3.0 * tol;
            sccd_v3 c = sccd_v3_add(sccd_v3_mad(top, gap, n), (sccd_v3){0.0, 0.2, 0.0});
            sccd_box3 b = {sccd_v3_add(o, sccd_quat_apply(Q, c)), sccd_quat_mul(Q, lean), {0.3, 0.3, 0.0}};
            assert_true(sccd_sector3_prepared_vs_box(&p, b) == (k == 0));
            assert_true(sccd_sector3_vs_box(&s, b) == (k == 0));
        }
    }
}

/* A point of s's wedge (away from its sides) off one of its slab faces or
 * cylinders by off along the outward normal. */
static sccd_v3 off_surface(const sccd_sector3 *s, sccd_rng *g, sccd_real off)
{
    sccd_real phi = 0.9 * sccd_rng_uniform(g, -s->half_angle, s->half_angle);
    sccd_real rho = sccd_rng_uniform(g, s->r, s->R), z = sccd_rng_uniform(g, s->zlo, s->zhi);
    int k = sccd_rng_int(g, 4);
    if (k < 2)
        z = k ? s->zhi + off : s->zlo - off;
    else
        rho = k == 3 ? s->R + off : sccd_max(s->r - off, 0.0);
    return sccd_sector3_from_local(s, (sccd_v3){rho * cos(phi), rho * sin(phi), z});
}

/* The one-shot tests decide most input by the raw axes and a rough cosine
 * and sine, with margins for their errors: on sectors whose axes are unit
 * and ⟂ only within 1e-6 (skew_axes), for points and shapes whose distance
 * to the sector is their reach give or take 0 to 5e-3 of their distance to
 * the pivot, and points that far off the slab's faces and the cylinders
 * (where the margins decide or leave it to the exact part), they
 * give the prepared tests' answers, with no check firing. So do they on a
 * valid sector too large for the one-shot tests' check of its sums (R and
 * the slab 1e308 across), which they leave to the exact part. */
static void test_one_shot_margins(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(308);
    const sccd_real rel[] = {0.0, 1e-12, 1e-9, 1e-6, 1e-5, 5e-5, 2e-4, 4e-4, 1e-3, 2.5e-3, 5e-3};
    int hit = 0, n = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_v3 q = i % 2 ? near_boundary(&s, &g, i) : sccd_oracle_near(&s, &g);
        skew_axes(&s, &g);
        assert_true(sccd_is_valid_sector3(&s));
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_real dist = sccd_sector3_distance(&s, q), far = sccd_v3_dist(q, s.o);
        sccd_real off = (sccd_rng_int(&g, 2) ? 1.0 : -1.0) * rel[sccd_rng_int(&g, 11)] * far;
        sccd_v3 pt = i % 3 ? off_surface(&s, &g, off) : sccd_v3_mad(q, off, sccd_rng_unit3(&g));
        sccd_sphere sph = {q, sccd_max(dist + off, 0.0)};
        sccd_real h = sccd_max(dist + off, 0.0) / sqrt(3.0) * sccd_rng_uniform(&g, 1.0, 1.5);
        sccd_box3 box = {q, sccd_rng_quat(&g), {h, h * sccd_rng_uniform(&g, 1.0, 1.5), h * sccd_rng_uniform(&g, 1.0, 1.5)}};
        sccd_v3 e = sccd_rng_unit3(&g);
        sccd_capsule3 cap = {sccd_v3_mad(q, -0.5 * dist, e), sccd_v3_mad(q, 0.5 * dist, e), sccd_max(dist + off, 0.0)};
        sccd_v3 t1 = sccd_v3_mad(q, sccd_max(dist + off, 0.0), sccd_rng_unit3(&g));
        sccd_triangle tri = {t1, sccd_v3_mad(q, dist, sccd_rng_unit3(&g)), sccd_v3_mad(q, dist, sccd_rng_unit3(&g))};
        bool pre[5] = {sccd_sector3_prepared_vs_point(&p, pt), sccd_sector3_prepared_vs_sphere(&p, sph),
                       sccd_sector3_prepared_vs_box(&p, box), sccd_sector3_prepared_vs_capsule(&p, cap),
                       sccd_sector3_prepared_vs_triangle(&p, tri)};
        bool one[5] = {sccd_sector3_vs_point(&s, pt), sccd_sector3_vs_sphere(&s, sph), sccd_sector3_vs_box(&s, box),
                       sccd_sector3_vs_capsule(&s, cap), sccd_sector3_vs_triangle(&s, tri)};
        for (int k = 0; k < 5; ++k) {
            if (one[k] != pre[k])
                fail_msg("case %d, shape %d: one-shot %d, prepared %d (th %.17g r %.17g R %.17g)", i, k, one[k],
                         pre[k], s.half_angle, s.r, s.R);
            hit += pre[k];
            n++;
        }
    }
    assert_true(hit > n / 5 && hit < 4 * n / 5);
    /* At the range's limit, points and spheres as large as 1e300 anywhere within 1e300: both routes agree. */
    const sccd_sector3 huge = {{1.0, 2.0, 3.0}, {0.0, 0.0, 1.0}, {1.0, 0.0, 0.0}, 1.0, 0.0, SCCD_RANGE_MAX,
                               -SCCD_RANGE_MAX, SCCD_RANGE_MAX};
    sccd_sector3_prepared p;
    assert_true(sccd_sector3_prepare(&p, &huge));
    for (int i = 0; i < 100; ++i) {
        sccd_v3 pt = sccd_rng_v3(&g, 1e300);
        sccd_sphere sph = {pt, sccd_rng_uniform(&g, 0.0, 1e300)};
        assert_true(sccd_sector3_vs_point(&huge, pt) == sccd_sector3_prepared_vs_point(&p, pt));
        assert_true(sccd_sector3_vs_sphere(&huge, sph) == sccd_sector3_prepared_vs_sphere(&p, sph));
    }
    /* Scenes some 1e-190 across, whose squares are subnormal: both routes
     * agree (the one-shot tests had missed points and spheres the prepared
     * ones met, their early-outs' squares rounding apart). */
    const sccd_real tiny = 0x1p-630;
    for (int i = 0; i < N_RANDOM / 10; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_v3 q = i % 2 ? near_boundary(&s, &g, i) : sccd_oracle_near(&s, &g);
        s.o = sccd_v3_scale(s.o, tiny);
        s.r *= tiny;
        s.R *= tiny;
        s.zlo *= tiny;
        s.zhi *= tiny;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 pt = sccd_v3_scale(q, tiny);
        sccd_sphere sph = {pt, tiny * maybe_zero(&g, 1.0)};
        assert_true(sccd_sector3_vs_point(&s, pt) == sccd_sector3_prepared_vs_point(&p, pt));
        assert_true(sccd_sector3_vs_sphere(&s, sph) == sccd_sector3_prepared_vs_sphere(&p, sph));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* The one-shot tests' rough distance takes |y| and ρ from |d|² less the
 * squares of the raw x and z, which axes unit and ⟂ only within 1e-6 make
 * up to 1e-3·ρ + |z| off where the exact y or ρ is 0 (a shorter than 1 and
 * leaning off u, u shorter than 1): a point of a zero-width wedge, along
 * a and up the axis, is met by both point tests and as a sphere of radius
 * 0; the axis of a full annulus with a hole, a sphere about it of radius r
 * less 1e-7·r, is met by neither sphere test, one 1e-7·r past r by both;
 * the axis as a sector (r = R = 0) meets its points; a point 1e-6·ρ past
 * the side of a wedge 2e-3 wide, with a longer than 1, is not met. With
 * the rough distance's margins cut to 9e-4 of ρ + |z|, the one-shot tests
 * fail: its side, or A alone, or B with it. */
static void test_one_shot_axes_at_their_limits(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(311);
    const sccd_real k = sqrt(1.0 - 0.99e-6), lean = 0.99e-6;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_v3 u = sccd_rng_unit3(&g), e1, e2;
        sccd_v3_basis(u, &e1, &e2);
        sccd_real phi = sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI), len = sccd_rng_uniform(&g, 1.0, 10.0);
        sccd_v3 a = sccd_v3_add(sccd_v3_scale(e1, cos(phi)), sccd_v3_scale(e2, sin(phi)));
        sccd_real alpha = sccd_rng_uniform(&g, 0.0, 1.0), rho = len * cos(alpha), z = len * sin(alpha);
        sccd_v3 o = sccd_rng_v3(&g, 5.0);
        sccd_sector3 s = {o, sccd_v3_scale(u, k), sccd_v3_mad(sccd_v3_scale(a, k), -lean, u), 0.0, 0.0, 2.0 * len,
                          -2.0 * len, 2.0 * len};
        assert_true(sccd_is_valid_sector3(&s));
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 q = sccd_v3_mad(sccd_v3_mad(o, rho, a), z, u);
        assert_true(sccd_sector3_vs_point(&s, q) && sccd_sector3_prepared_vs_point(&p, q));
        assert_true(sccd_sector3_vs_sphere(&s, (sccd_sphere){q, 0.0}));
        s.half_angle = SCCD_PI;
        s.r = sccd_rng_uniform(&g, 0.2, 1.0) * len;
        assert_true(sccd_sector3_prepare(&p, &s));
        q = sccd_v3_mad(o, z, u);
        for (int side = -1; side <= 1; side += 2) {
            sccd_sphere sph = {q, s.r * (1.0 + side * 1e-7)};
            assert_true(sccd_sector3_vs_sphere(&s, sph) == (side > 0));
            assert_true(sccd_sector3_prepared_vs_sphere(&p, sph) == (side > 0));
        }
        s.r = s.R = 0.0; /* the axis itself: ρ only overestimated */
        assert_true(sccd_sector3_vs_point(&s, q));
        /* a thin wedge, a longer than 1: a point 1e-6·ρ past its side is
         * not met (|y| underestimated, the side's w could say inside) */
        s = (sccd_sector3){o, u, sccd_v3_scale(a, 1.0 / k), 1e-3, 0.0, 2.0 * len, -2.0 * len, 2.0 * len};
        sccd_v3 k_dir = sccd_v3_cross(u, a);
        sccd_real beyond = s.half_angle + 1e-6;
        q = sccd_v3_mad(sccd_v3_mad(sccd_v3_mad(o, rho * cos(beyond), a), rho * sin(beyond), k_dir), z, u);
        assert_false(sccd_sector3_vs_point(&s, q));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* A valid rotation is unit only within 1e-6 (|q|² − 1), and the map that
 * places a box's corners, sccd_quat_apply's, then stretches them by up to
 * 2e-6 of |h|: a box whose one corner lies 1e-8 inside the outer arc, its
 * diagonal along the outward normal (so that its centre is |h|·(1 + δ)
 * away), is met, by the prepared and the one-shot test (a ball of radius
 * |h| about the centre misses the sector by some 1e-6). */
static void test_box_rotation_not_quite_unit(void **state)
{
    (void)state;
    sccd_test_count_asserts(); /* valid input: no check may fire */
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(307);
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_v3 u = sccd_rng_unit3(&g), e1, e2;
        sccd_v3_basis(u, &e1, &e2);
        sccd_real phi = sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI), r = sccd_rng_uniform(&g, 0.0, 1.0);
        sccd_v3 a = sccd_v3_add(sccd_v3_scale(e1, cos(phi)), sccd_v3_scale(e2, sin(phi)));
        sccd_sector3 s = {sccd_rng_v3(&g, 5.0), u, a, sccd_rng_uniform(&g, 0.2, SCCD_PI), r,
                          r + sccd_rng_uniform(&g, 0.5, 3.0), -sccd_rng_uniform(&g, 0.1, 1.0), sccd_rng_uniform(&g, 0.1, 1.0)};
        sccd_v3 w = {sccd_rng_uniform(&g, 0.5, 1.0), sccd_rng_uniform(&g, 0.5, 1.0), sccd_rng_uniform(&g, 0.5, 1.0)};
        sccd_v3 corner = {sccd_rng_int(&g, 2) ? w.x : -w.x, sccd_rng_int(&g, 2) ? w.y : -w.y, sccd_rng_int(&g, 2) ? w.z : -w.z};
        /* The unit rotation taking the corner's direction to −a, then scaled to |q|² = 1 ± 0.99e-6. */
        sccd_v3 dir = sccd_v3_normalize(corner), to = sccd_v3_neg(a), axis = sccd_v3_cross(dir, to);
        sccd_real angle = atan2(sccd_v3_len(axis), sccd_v3_dot(dir, to));
        sccd_quat q = sccd_v3_len(axis) > 1e-9 ? sccd_quat_axis_angle(sccd_v3_normalize(axis), angle) : sccd_quat_identity();
        sccd_real k = sqrt(1.0 + (i % 2 ? 0.99e-6 : -0.99e-6));
        q = (sccd_quat){q.x * k, q.y * k, q.z * k, q.w * k};
        sccd_v3 tip = sccd_v3_mad(s.o, s.R - 1e-8, a); /* inside the sector */
        sccd_box3 b = {sccd_v3_sub(tip, sccd_quat_apply(q, corner)), q, w};
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        assert_true(sccd_sector3_prepared_vs_box(&p, b));
        assert_true(sccd_sector3_vs_box(&s, b));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* Misuse: a sector with no defined set is refused when prepared (the check
 * fires once) and the result, like a zeroed prepared sector, meets nothing;
 * bad shapes on a good prepared sector are refused. */
static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    const sccd_v3 o = {0, 0, 0}, z = {0, 0, 1}, x = {1, 0, 0};
    sccd_sector3 bad[] = {{{NAN, 0, 0}, z, x, 1.0, 0.0, 2.0, -1.0, 1.0}, {o, z, x, 1.0, 3.0, 2.0, -1.0, 1.0},
                          {o, z, x, 1.0, 0.0, 2.0, 1.0, -1.0},          {o, z, x, 1.0, 0.0, INFINITY, -1.0, 1.0},
                          {o, z, x, NAN, 0.0, 2.0, -1.0, 1.0},          {o, {0, 0, NAN}, x, 1.0, 0.0, 2.0, -1.0, 1.0}};
    sccd_sector3_prepared zero = {0};
    sccd_sphere ball = {{1, 0, 0}, 10};
    sccd_capsule3 cap = {{0, 0, 0}, {1, 0, 0}, 1};
    sccd_box3 box = {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    sccd_triangle tri = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    int expected = 0;
    for (size_t i = 0; i <= sizeof bad / sizeof bad[0]; ++i) {
        sccd_sector3_prepared p;
        if (i < sizeof bad / sizeof bad[0]) {
            assert_false(sccd_sector3_prepare(&p, &bad[i]));
            expected++;
        } else {
            p = zero;
        }
        assert_int_equal(sccd_test_assert_count(), expected);
        assert_false(sccd_sector3_prepared_vs_point(&p, (sccd_v3){0, 0, 0}));
        assert_false(sccd_sector3_prepared_vs_sphere(&p, ball));
        assert_false(sccd_sector3_prepared_vs_capsule(&p, cap));
        assert_false(sccd_sector3_prepared_vs_box(&p, box));
        assert_false(sccd_sector3_prepared_vs_triangle(&p, tri));
        assert_int_equal(sccd_test_assert_count(), expected);
    }
    assert_false(sccd_sector3_prepare(NULL, &bad[0]));
    assert_false(sccd_sector3_prepare(&zero, NULL));
    expected += 2;
    /* Fixable flaws are repaired (the check fires) and prepared. */
    sccd_sector3 fix = {o, {0, 0, 2}, {1, 0, 0.5}, 4.0, -1.0, 2.0, -1.0, 1.0};
    sccd_sector3_prepared p;
    assert_true(sccd_sector3_prepare(&p, &fix));
    expected++;
    assert_true(p.th == SCCD_PI && p.r == 0.0 && fabs(sccd_v3_len(p.u) - 1.0) < 1e-15);
    assert_true(sccd_sector3_prepared_vs_point(&p, (sccd_v3){-1, 0, 0}));
    assert_false(sccd_sector3_prepared_vs_point(&p, (sccd_v3){NAN, 0, 0}));
    assert_false(sccd_sector3_prepared_vs_sphere(&p, (sccd_sphere){{1, 0, 0}, -1}));
    assert_false(sccd_sector3_prepared_vs_capsule(&p, (sccd_capsule3){{1, 0, 0}, {INFINITY, 0, 0}, 0}));
    assert_false(sccd_sector3_prepared_vs_box(&p, (sccd_box3){{1, 0, 0}, {0, 0, 0, 1}, {-1, 1, 1}}));
    assert_false(sccd_sector3_prepared_vs_triangle(&p, (sccd_triangle){{NAN, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
    assert_false(sccd_sector3_prepared_vs_point(NULL, (sccd_v3){0, 0, 0}));
    expected += 6;
    assert_int_equal(sccd_test_assert_count(), expected);
    /* A flawed sector and a flawed shape: the one-shot tests fire both
     * checks, as preparing and then the prepared test do. */
    const sccd_sphere bad_ball = {{1, 0, 0}, -1};
    const sccd_capsule3 bad_cap = {{1, 0, 0}, {INFINITY, 0, 0}, 0};
    const sccd_box3 bad_box = {{1, 0, 0}, {0, 0, 0, 1}, {-1, 1, 1}};
    const sccd_triangle bad_tri = {{NAN, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    assert_false(sccd_sector3_vs_point(&bad[1], (sccd_v3){NAN, 0, 0}));
    assert_false(sccd_sector3_vs_sphere(&bad[1], bad_ball));
    assert_false(sccd_sector3_vs_capsule(&bad[1], bad_cap));
    assert_false(sccd_sector3_vs_box(&bad[1], bad_box));
    assert_false(sccd_sector3_vs_triangle(&bad[1], bad_tri));
    expected += 10;
    assert_int_equal(sccd_test_assert_count(), expected);
    sccd_set_assert_handler(NULL);
}

/* Boxes thinner than the doubles' squares (a half size 1e-300 or the least
 * subnormal) are met wherever the same box of no thickness is: the
 * separating planes along their axes had lost the outer arc's support (its
 * length's square underflowed) and missed 17 % of the flat boxes crossing
 * a sector. */
static void test_thin_boxes(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(311);
    static const sccd_real thin[] = {1e-300, 0x1p-1074, 1e-200};
    int hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_box3 flat = {sccd_oracle_near(&s, &g), sccd_rng_quat(&g), {0.0, sccd_rng_uniform(&g, 0.1, 3.0),
                                                                        sccd_rng_uniform(&g, 0.1, 3.0)}};
        if (i % 2)
            flat.h.z = 0.0; /* a stick */
        sccd_box3 b = flat;
        b.h.x = thin[sccd_rng_int(&g, 3)];
        if (i % 2)
            b.h.z = b.h.x;
        bool want = sccd_sector3_prepared_vs_box(&p, flat);
        hits += want;
        if (want && !(sccd_sector3_prepared_vs_box(&p, b) && sccd_sector3_vs_box(&s, b)))
            fail_msg("case %d: a box %g thin missed where it is flat", i, b.h.x);
    }
    assert_true(hits > N_RANDOM / 10);
}

/* Balls whose squares overflow (radius or centre beyond 1e154), over and
 * beside random sectors: radius 1e200 about a point 1e160 off holds the
 * sector, radius 1e150 about it is 1e160 away; a point there is not met
 * either. Closed form: the distance is the offset less the sector's size,
 * give or take it. The prepared and one-shot tests agree, no check firing. */
static void test_huge_balls(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(314);
    for (int i = 0; i < 300; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 dir = i % 2 ? s.u : s.a, c = sccd_v3_mad(s.o, 1e160, dir);
        const sccd_sphere big = {c, 1e200}, small = {c, 1e150};
        assert_true(sccd_sector3_prepared_vs_sphere(&p, big) && sccd_sector3_vs_sphere(&s, big));
        assert_false(sccd_sector3_prepared_vs_sphere(&p, small) || sccd_sector3_vs_sphere(&s, small));
        assert_false(sccd_sector3_prepared_vs_point(&p, c) || sccd_sector3_vs_point(&s, c));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* Boxes whose squares overflow (half sizes 1e155, 1e160 off random
 * sectors, along the axis u or the centre direction a, turned at random):
 * beyond the sector by about the offset less the box's half diagonal, they
 * are not met; grown along the offset to 2e160 they reach over it and are.
 * Closed form, as for the balls above. Both wrong answers this used to
 * give fail it: a hit of the ball early-out, which took an overflowing
 * distance within an overflowing reach, and a miss of the turned boxes
 * over the sector, whose squares and determinant overflowed past the
 * balls (box_meets_scaled). */
static void test_huge_boxes(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(2718);
    for (int i = 0; i < 300; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 dir = i % 2 ? s.u : s.a, c = sccd_v3_mad(s.o, 1e160, dir);
        sccd_quat q = sccd_rng_quat(&g);
        sccd_box3 beyond = {c, q, {1e155, 1e155, 1e155}}, over = {c, q, {2e160, 2e160, 2e160}};
        assert_false(sccd_sector3_prepared_vs_box(&p, beyond) || sccd_sector3_vs_box(&s, beyond));
        assert_true(sccd_sector3_prepared_vs_box(&p, over) && sccd_sector3_vs_box(&s, over));
    }
    /* A centre whose offset from the pivot is no double (o and c near ∓1e308): met before (its canonical coordinates NaN). */
    sccd_sector3 s = {{-1e308, 0, 0}, {0, 0, 1}, {1, 0, 0}, 0.5, 0.0, 1.0, -0.1, 0.1};
    sccd_sector3_prepared p;
    assert_true(sccd_sector3_prepare(&p, &s));
    sccd_box3 off = {{1e308, 0, 0}, sccd_quat_identity(), {1e150, 1e150, 1e150}};
    assert_false(sccd_sector3_prepared_vs_box(&p, off) || sccd_sector3_vs_box(&s, off));
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* A centre with an infinite or NaN coordinate, put in place of one of a
 * point's inside the sector (on the world axes half the time, where u·d
 * meets ∞·0): the prepared point and sphere tests refuse it, their check
 * firing, for radii up to 1e300 (whose reach, squared, is infinite, so
 * that every finite distance is within it), as do the one-shot tests. */
static void test_centre_not_finite(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(309);
    const sccd_real bad[] = {INFINITY, -INFINITY, NAN};
    const sccd_real rad[] = {0.0, 1.0, 1e300};
    int expected = 0;
    for (int i = 0; i < 300; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 q = sccd_sector3_from_local(&s, (sccd_v3){0.5 * (s.r + s.R), 0.0, 0.5 * (s.zlo + s.zhi)});
        assert_true(sccd_sector3_prepared_vs_point(&p, q));
        sccd_real *c = i % 3 == 0 ? &q.x : (i % 3 == 1 ? &q.y : &q.z);
        *c = bad[sccd_rng_int(&g, 3)];
        sccd_sphere sph = {q, rad[sccd_rng_int(&g, 3)]};
        assert_false(sccd_sector3_prepared_vs_point(&p, q));
        assert_false(sccd_sector3_prepared_vs_sphere(&p, sph));
        assert_false(sccd_sector3_vs_point(&s, q));
        assert_false(sccd_sector3_vs_sphere(&s, sph));
        expected += 4;
        assert_int_equal(sccd_test_assert_count(), expected);
    }
    sccd_set_assert_handler(NULL);
}

/* A sweep band set by hand (no prepared copy) or changed after building is
 * tested as it is now. */
static void test_sweep_band_by_hand(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(306);
    sccd_motion3 m = {{{0, 0, 0}, {0, 0, 0, 1}}, {0, 0, 0}, {0, 0, 0}, {0, 0, 1}, 0.5};
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sweep3 w = {.count = 1, .bands = {s}};
        sccd_sweep3 built;
        sccd_sweep3_sphere(&built, (sccd_sphere){{1, 0, 0}, 0.5}, m, 1);
        built.count = 1;
        built.bands[0] = s;
        built.aabb = w.aabb = (sccd_aabb3){{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}};
        sccd_sphere x = {sccd_oracle_near(&s, &g), sccd_rng_uniform(&g, 0.0, 1.0)};
        bool want = sccd_sector3_vs_capsule(&s, (sccd_capsule3){x.c, x.c, x.r}); /* what a still sweep tests */
        assert_true(sccd_sweep3_vs_sphere(&w, x) == want);
        assert_true(sccd_sweep3_vs_sphere(&built, x) == want);
    }
}

/* Every route of the shape tests against one closed-form answer: a ball,
 * a capsule along e, a box turned by q and a triangle in the plane of e
 * and f (unit, ⟂), each of size (radius, half size, inscribed radius)
 * about c. */
static void expect_shapes(const sccd_sector3 *s, const sccd_sector3_prepared *p, sccd_v3 c, sccd_real size, sccd_v3 e,
                          sccd_v3 f, sccd_quat q, bool want)
{
    sccd_sphere sph = {c, size};
    sccd_capsule3 cap = {sccd_v3_mad(c, size, e), sccd_v3_mad(c, -size, e), size};
    sccd_box3 b = {c, q, {size, 1.2 * size, 0.9 * size}};
    sccd_triangle t = {sccd_v3_mad(c, 2.0 * size, e), sccd_v3_mad(sccd_v3_mad(c, -size, e), 1.7321 * size, f),
                       sccd_v3_mad(sccd_v3_mad(c, -size, e), -1.7321 * size, f)};
    assert_true(sccd_sector3_prepared_vs_sphere(p, sph) == want && sccd_sector3_vs_sphere(s, sph) == want);
    assert_true(sccd_sector3_prepared_vs_capsule(p, cap) == want && sccd_sector3_vs_capsule(s, cap) == want);
    assert_true(sccd_sector3_prepared_vs_box(p, b) == want && sccd_sector3_vs_box(s, b) == want);
    assert_true(sccd_sector3_prepared_vs_triangle(p, t) == want && sccd_sector3_vs_triangle(s, t) == want);
}

/* Shapes beyond the range (SCCD_RANGE_MAX) about random sectors, every
 * route, closed forms: sizes 1e155 1e300 off are not met (the ball and
 * capsule tests' squares overflowed to ∞ on both sides of a comparison,
 * which read as a hit); grown to 2e160 about a point 1e160 off along the
 * centre direction (the triangle in the sector's plane z = 0) they hold
 * the sector and are met (the triangle was missed); shapes near +1e308
 * and a pivot near −1e308 (their offset beyond the doubles) are not met.
 * A point 1e200 off lies 1e200 away give or take the sector's size (it
 * was ∞ away), and sectors 1e155 apart do not meet. A sector beyond the
 * range is refused, its check firing. */
static void test_beyond_range(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_rng g = sccd_rng_make(4243);
    for (int i = 0; i < 300; ++i) {
        sccd_sector3 s = random_sector(&g);
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        sccd_v3 dir = sccd_rng_unit3(&g), k = sccd_v3_cross(p.u, p.a);
        sccd_quat q = sccd_rng_quat(&g);
        sccd_v3 e, f;
        sccd_v3_basis(dir, &e, &f);
        expect_shapes(&s, &p, sccd_v3_mad(s.o, 1e300, dir), 1e155, e, f, q, false);
        expect_shapes(&s, &p, sccd_v3_mad(s.o, 1e160, p.a), 2e160, p.a, k, q, true);
        sccd_real d = sccd_sector3_distance(&s, sccd_v3_mad(s.o, 1e200, dir));
        assert_true(fabs(d - 1e200) <= 1e190);
        sccd_sector3 t = random_sector(&g);
        t.o = sccd_v3_mad(s.o, 1e155, dir);
        assert_false(sccd_sector3_vs_sector3(&s, &t) || sccd_sector3_vs_sector3(&t, &s));
        sccd_sector3 w = s;
        w.o = (sccd_v3){-1e308, 1e308 * sccd_rng_uniform(&g, -1.0, 1.0), 0.0};
        assert_true(sccd_sector3_prepare(&p, &w));
        sccd_v3 far = {1e308, 1e308 * sccd_rng_uniform(&g, -1.0, 1.0), 1e308 * sccd_rng_uniform(&g, -1.0, 1.0)};
        expect_shapes(&w, &p, far, sccd_rng_uniform(&g, 0.0, 1e150), e, f, q, false);
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    const sccd_sector3 vast = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, 1.0, 0.0, 1.0, -2.0 * SCCD_RANGE_MAX, 0.0};
    sccd_sector3_prepared p;
    assert_false(sccd_sector3_prepare(&p, &vast));
    assert_false(sccd_sector3_vs_point(&vast, (sccd_v3){0.5, 0.0, -0.5}));
    assert_int_equal(sccd_test_assert_count(), 2);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point),   cmocka_unit_test(test_sphere),    cmocka_unit_test(test_capsule),
        cmocka_unit_test(test_box),     cmocka_unit_test(test_triangle), cmocka_unit_test(test_near_boundary),
        cmocka_unit_test(test_bad_input), cmocka_unit_test(test_sweep_band_by_hand),
        cmocka_unit_test(test_box_rotation_not_quite_unit), cmocka_unit_test(test_point_beside_thin_wedge),
        cmocka_unit_test(test_one_shot_margins), cmocka_unit_test(test_centre_not_finite),
        cmocka_unit_test(test_huge_balls), cmocka_unit_test(test_huge_boxes),
        cmocka_unit_test(test_ray_opposite_zero_wedge), cmocka_unit_test(test_one_shot_axes_at_their_limits),
        cmocka_unit_test(test_frame_exact_at_axes_limits), cmocka_unit_test(test_tolerance_band),
        cmocka_unit_test(test_beyond_range),        cmocka_unit_test(test_thin_boxes),
        cmocka_unit_test(test_slab_rim),          cmocka_unit_test(test_sliver_across_boundary),
    };
    return cmocka_run_group_tests_name("sector3_prepared", tests, NULL, NULL);
}
