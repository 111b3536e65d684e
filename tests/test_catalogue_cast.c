/* Catalogue casts (seed 004: rays and segments against triangles, spheres,
 * boxes, cylinders, capsules). Solids: every hit is substituted back (the
 * point is on the grown surface, the normal is outward: stepping ε along it
 * lands at distance ε), and the cast before the hit, or the whole cast for a
 * miss, is certified outside by branch and bound on an independent point
 * distance. Triangles: the plane crossing and edge signs, written apart. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "catalogue_oracle.h"

#define N 10000

typedef double dist_fn(sccd_v3 p, const void *shape);

static double d_sphere(sccd_v3 p, const void *s) { return orc_dist_sphere(p, *(const sccd_sphere *)s); }
static double d_aabb(sccd_v3 p, const void *s) { return orc_dist_aabb(p, *(const sccd_aabb3 *)s); }
static double d_box(sccd_v3 p, const void *s) { return orc_dist_box(p, *(const sccd_box3 *)s); }
static double d_cylinder(sccd_v3 p, const void *s) { return orc_dist_cylinder(p, *(const sccd_cylinder *)s); }
static double d_capsule(sccd_v3 p, const void *s) { return orc_dist_capsule(p, *(const sccd_capsule3 *)s); }

/* The distance from the point at parameter x[0] of the cast to the shape. */
typedef struct along {
    dist_fn *dist;
    const void *shape;
    sccd_v3 o, d;
} along;

static double along_f(const double *x, const void *ctx)
{
    const along *a = ctx;
    return a->dist(sccd_v3_mad(a->o, x[0], a->d), a->shape);
}

/* −1: the cast's points with t in [t0, t1] enter the shape; +1 proven not; 0 undecided. */
static int enters(const along *a, double t0, double t1, double scale)
{
    double lo[1] = {t0}, hi[1] = {t1}, lip[1] = {sccd_v3_len(a->d)};
    return sccd_bnb_sign(along_f, a, 1, lo, hi, lip, 0.0, 1e-13 * scale, 200000);
}

typedef struct tally {
    int hits, misses, undecided;
} tally;

/* Check one cast result against the shape's distance; bound_c, bound_r: a
 * ball holding the shape (a ray beyond it never comes back). */
static void check_cast(sccd_cast3 r, dist_fn *dist, const void *shape, sccd_v3 o, sccd_v3 d, double tmax,
                       sccd_v3 bound_c, double bound_r, double scale, tally *tl)
{
    along a = {dist, shape, o, d};
    double dl = sccd_v3_len(d);
    if (!isfinite(tmax)) /* past the bounding ball's far side the ray only recedes */
        tmax = dl > 0.0 ? fmax(0.0, (sccd_v3_dot(sccd_v3_sub(bound_c, o), d) + bound_r * dl) / (dl * dl)) : 0.0;
    if (!r.hit) {
        int s = enters(&a, 0.0, tmax, scale);
        assert_true(s != -1);
        tl->undecided += s == 0;
        ++tl->misses;
        return;
    }
    ++tl->hits;
    assert_true(r.t >= 0.0 && r.t <= tmax * (1 + 1e-12) + 1e-12);
    assert_true(sccd_v3_dist(r.point, sccd_v3_mad(o, r.t, d)) <= 1e-12 * scale);
    assert_true(dist(r.point, shape) <= 1e-8 * scale);
    assert_true(fabs(sccd_v3_len(r.normal) - 1.0) <= 1e-9);
    if (r.t == 0.0) {
        if (dl > 0.0)
            assert_true(sccd_v3_dist(r.normal, sccd_v3_scale(d, -1.0 / dl)) <= 1e-12);
        return;
    }
    /* First hit: nothing of the cast before t − 1e-7·scale / |d| is inside. */
    double t_before = r.t - 1e-7 * scale / dl;
    if (t_before > 0.0) {
        int s = enters(&a, 0.0, t_before, scale);
        assert_true(s != -1);
        tl->undecided += s == 0;
    }
    /* Outward normal: a step ε along it lands at distance ε from the shape. */
    double eps = 1e-3 * scale;
    assert_true(fabs(dist(sccd_v3_mad(r.point, eps, r.normal), shape) - eps) <= 1e-7 * scale);
    assert_true(sccd_v3_dot(r.normal, d) <= 1e-9 * dl);
}

/* A random cast near a shape centred near c: a ray (and the segment over
 * its first stretch), aimed at a point near c; sometimes of zero length. */
static void random_cast(sccd_rng *g, sccd_v3 c, sccd_v3 *o, sccd_v3 *d)
{
    *o = sccd_v3_add(c, sccd_rng_v3(g, 8.0));
    sccd_v3 target = sccd_v3_add(c, sccd_rng_v3(g, 4.0));
    *d = sccd_v3_scale(sccd_v3_sub(target, *o), sccd_rng_uniform(g, 0.2, 1.5));
    if (sccd_rng_int(g, 50) == 0)
        *d = (sccd_v3){0.0, 0.0, 0.0};
    else if (sccd_rng_int(g, 10) == 0) /* along a coordinate axis: parallel to AABB faces */
        *d = (sccd_v3){0.0, 0.0, d->z};
}

static void check_both(sccd_cast3 ray, sccd_cast3 seg, dist_fn *dist, const void *shape, sccd_v3 o, sccd_v3 d,
                       sccd_v3 bc, double br, tally *tl)
{
    double scale = fmax(orc_mag(o), fmax(orc_mag(sccd_v3_add(o, d)), orc_mag(bc) + br));
    check_cast(ray, dist, shape, o, d, INFINITY, bc, br, scale, tl);
    check_cast(seg, dist, shape, o, d, 1.0, bc, br, scale, tl);
    /* The segment is the ray's first stretch, and its tolerance (scaled by
     * both ends) is at least the ray's: it hits no later. */
    if (ray.hit && ray.t <= 1.0)
        assert_true(seg.hit && seg.t <= ray.t + 1e-12);
}

static void expect_tally(tally tl)
{
    /* Both outcomes are exercised, and the oracle decides nearly all cases. */
    assert_true(tl.hits > N / 5 && tl.misses > N / 5);
    assert_true(tl.undecided <= (tl.hits + tl.misses) / 200);
}

static void test_cast_sphere(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(51);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        sccd_sphere s = {sccd_rng_v3(&g, 3.0), i % 100 == 0 ? 0.0 : sccd_rng_uniform(&g, 0.05, 3.0)};
        sccd_v3 o, d;
        random_cast(&g, s.c, &o, &d);
        check_both(sccd_raycast_sphere((sccd_ray3){o, d}, s), sccd_segment_vs_sphere((sccd_segment3){o, sccd_v3_add(o, d)}, s),
                   d_sphere, &s, o, d, s.c, s.r, &tl);
    }
    expect_tally(tl);
}

static void test_cast_aabb(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(52);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        sccd_v3 c = sccd_rng_v3(&g, 3.0), h = sccd_v3_abs(sccd_rng_v3(&g, 3.0));
        if (i % 100 == 0)
            h.y = 0.0; /* flat box */
        sccd_aabb3 b = {sccd_v3_sub(c, h), sccd_v3_add(c, h)};
        sccd_v3 o, d;
        random_cast(&g, c, &o, &d);
        check_both(sccd_raycast_aabb3((sccd_ray3){o, d}, b), sccd_segment_vs_aabb3((sccd_segment3){o, sccd_v3_add(o, d)}, b),
                   d_aabb, &b, o, d, c, sccd_v3_len(h), &tl);
    }
    expect_tally(tl);
}

static void test_cast_box(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(53);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        sccd_box3 b = orc_rand_box(&g);
        sccd_v3 o, d;
        random_cast(&g, b.c, &o, &d);
        check_both(sccd_raycast_box3((sccd_ray3){o, d}, b), sccd_segment_vs_box3((sccd_segment3){o, sccd_v3_add(o, d)}, b),
                   d_box, &b, o, d, b.c, sccd_v3_len(b.h), &tl);
    }
    expect_tally(tl);
}

static void test_cast_cylinder(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(54);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        sccd_cylinder c = orc_rand_cylinder(&g);
        if (i % 100 == 0)
            c.b = c.a; /* a disc perpendicular to +x */
        else if (i % 100 == 1)
            c.r = 0.0;
        sccd_v3 o, d, mid = sccd_v3_lerp(c.a, c.b, 0.5);
        random_cast(&g, mid, &o, &d);
        if (i % 10 == 2) /* parallel to the axis */
            d = sccd_v3_scale(sccd_v3_sub(c.b, c.a), sccd_rng_uniform(&g, -2, 2));
        check_both(sccd_raycast_cylinder((sccd_ray3){o, d}, c),
                   sccd_segment_vs_cylinder((sccd_segment3){o, sccd_v3_add(o, d)}, c), d_cylinder, &c, o, d, mid,
                   0.5 * sccd_v3_dist(c.a, c.b) + c.r, &tl);
    }
    expect_tally(tl);
}

static void test_cast_capsule(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(55);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        sccd_capsule3 c = orc_rand_capsule(&g);
        sccd_v3 o, d, mid = sccd_v3_lerp(c.a, c.b, 0.5);
        random_cast(&g, mid, &o, &d);
        check_both(sccd_raycast_capsule3((sccd_ray3){o, d}, c),
                   sccd_segment_vs_capsule3((sccd_segment3){o, sccd_v3_add(o, d)}, c), d_capsule, &c, o, d, mid,
                   0.5 * sccd_v3_dist(c.a, c.b) + c.r, &tl);
    }
    expect_tally(tl);
}

/* Grazing casts built at a known distance δ: a ray in the plane
 * n·(x − q) = δ, tangent at q + δ·n, misses for δ > 0 and hits for δ < 0. */
static void graze(sccd_rng *g, sccd_v3 q, sccd_v3 n, double scale, sccd_cast3 (*cast)(sccd_ray3, const void *),
                  const void *shape)
{
    for (int sign = -1; sign <= 1; sign += 2) {
        double delta = sign * 1e-7 * scale;
        sccd_v3 e = orc_perp(g, n), p = sccd_v3_mad(q, delta, n);
        double back = sccd_rng_uniform(g, 1.0, 10.0);
        sccd_ray3 ray = {sccd_v3_mad(p, -back, e), e};
        sccd_cast3 r = cast(ray, shape);
        assert_true(r.hit == (sign < 0));
        if (r.hit) /* it enters near the tangent point (within √(2·R·δ)) */
            assert_true(r.t <= back + 1e-2 * scale);
    }
}

static sccd_cast3 ray_cylinder(sccd_ray3 r, const void *s) { return sccd_raycast_cylinder(r, *(const sccd_cylinder *)s); }
static sccd_cast3 ray_capsule(sccd_ray3 r, const void *s) { return sccd_raycast_capsule3(r, *(const sccd_capsule3 *)s); }
static sccd_cast3 ray_box(sccd_ray3 r, const void *s) { return sccd_raycast_box3(r, *(const sccd_box3 *)s); }
static sccd_cast3 ray_sphere(sccd_ray3 r, const void *s) { return sccd_raycast_sphere(r, *(const sccd_sphere *)s); }

static void test_cast_grazing(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(56);
    for (int i = 0; i < N; ++i) {
        sccd_v3 q, n;
        sccd_cylinder c = orc_rand_cylinder(&g);
        orc_surface_cylinder(&g, c, &q, &n);
        graze(&g, q, n, 10.0, ray_cylinder, &c);
        sccd_capsule3 k = orc_rand_capsule(&g);
        orc_surface_capsule(&g, k, &q, &n);
        graze(&g, q, n, 10.0, ray_capsule, &k);
        sccd_box3 b = orc_rand_box(&g);
        orc_surface_box(&g, b, &q, &n);
        graze(&g, q, n, 10.0, ray_box, &b);
        sccd_sphere s = {sccd_rng_v3(&g, 3.0), sccd_rng_uniform(&g, 0.05, 3.0)};
        n = sccd_rng_unit3(&g);
        graze(&g, sccd_v3_mad(s.c, s.r, n), n, 10.0, ray_sphere, &s);
    }
}

/* ---- triangles ---- */

/* The oracle: where the line crosses the plane, and the signs of the three
 * edge functions n·((q − p) × (x − p)) there. Returns the crossing t and the
 * smallest edge function over |n|·edge length (a distance: negative outside). */
static double tri_oracle(sccd_triangle t, sccd_v3 o, sccd_v3 d, double *margin)
{
    sccd_v3 n = sccd_v3_cross(sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a));
    double tc = sccd_v3_dot(n, sccd_v3_sub(t.a, o)) / sccd_v3_dot(n, d);
    sccd_v3 x = sccd_v3_mad(o, tc, d), p[3] = {t.a, t.b, t.c};
    *margin = INFINITY;
    for (int i = 0; i < 3; ++i) {
        sccd_v3 e = sccd_v3_sub(p[(i + 1) % 3], p[i]);
        double s = sccd_v3_dot(n, sccd_v3_cross(e, sccd_v3_sub(x, p[i]))) / (sccd_v3_len(n) * sccd_v3_len(e));
        *margin = fmin(*margin, s);
    }
    return tc;
}

static void check_triangle_hit(sccd_cast3 r, sccd_triangle t, sccd_v3 o, sccd_v3 d, double scale)
{
    sccd_v3 y = sccd_v3_add(sccd_v3_scale(t.a, 1.0 - r.u - r.v), sccd_v3_add(sccd_v3_scale(t.b, r.u), sccd_v3_scale(t.c, r.v)));
    assert_true(sccd_v3_dist(y, r.point) <= 1e-9 * scale);
    assert_true(sccd_v3_dist(r.point, sccd_v3_mad(o, r.t, d)) <= 1e-12 * scale);
    assert_true(fabs(sccd_v3_len(r.normal) - 1.0) <= 1e-9);
    assert_true(sccd_v3_dot(r.normal, d) <= 1e-12 * sccd_v3_len(d));
}

static void test_cast_triangle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(57);
    int hits = 0, misses = 0, skipped = 0;
    for (int i = 0; i < 2 * N; ++i) {
        sccd_triangle t = orc_rand_triangle(&g, 5.0);
        sccd_v3 o, d;
        random_cast(&g, orc_triangle_at(t, 0.5, 0.5), &o, &d);
        if (sccd_v3_len2(d) == 0.0)
            continue;
        double scale = fmax(orc_mag(o), fmax(orc_mag(sccd_v3_add(o, d)), 5.0)), margin;
        double tc = tri_oracle(t, o, d, &margin);
        /* Cases within 1e-7 of an edge or an end are the near-touching tests' job. */
        if (!isfinite(tc) || fabs(margin) < 1e-7 * scale || fabs(tc) * sccd_v3_len(d) < 1e-7 * scale ||
            fabs(tc - 1.0) * sccd_v3_len(d) < 1e-7 * scale) {
            ++skipped;
            continue;
        }
        sccd_cast3 ray = sccd_raycast_triangle((sccd_ray3){o, d}, t);
        sccd_cast3 seg = sccd_segment_vs_triangle((sccd_segment3){o, sccd_v3_add(o, d)}, t);
        bool want_ray = margin > 0.0 && tc > 0.0, want_seg = want_ray && tc < 1.0;
        assert_true(ray.hit == want_ray);
        assert_true(seg.hit == want_seg);
        if (ray.hit) {
            assert_true(fabs(ray.t - tc) <= 1e-9 * (1.0 + tc));
            check_triangle_hit(ray, t, o, d, scale);
        }
        if (seg.hit) {
            assert_true(fabs(seg.t - tc) <= 1e-9);
            check_triangle_hit(seg, t, o, d, scale);
        }
        hits += want_ray;
        misses += !want_ray;
    }
    assert_true(hits > N / 5 && misses > N / 5 && skipped < N / 100);
}

static void test_cast_triangle_near_edges(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(58);
    for (int i = 0; i < N; ++i) {
        sccd_triangle t = orc_rand_triangle(&g, 5.0);
        sccd_v3 nt = sccd_v3_cross(sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a));
        if (sccd_v3_len(nt) < 0.5)
            continue;
        /* Aim through q + δ·m, q on an edge or corner, m its in-plane
         * outward direction: outside for δ > 0, inside for δ < 0. */
        sccd_v3 q, n;
        orc_surface_triangle(&g, t, &q, &n);
        sccd_v3 nh = sccd_v3_normalize(nt);
        sccd_v3 m = sccd_v3_mad(n, -sccd_v3_dot(n, nh), nh);
        if (sccd_v3_len(m) < 0.1)
            continue; /* a face point: no in-plane direction */
        m = sccd_v3_normalize(m);
        double delta = (i % 2 ? 1e-7 : -1e-7) * 10.0;
        sccd_v3 x = sccd_v3_mad(q, delta, m);
        sccd_v3 d = sccd_v3_normalize(sccd_v3_add(nh, sccd_v3_scale(sccd_rng_unit3(&g), 0.7)));
        if (fabs(sccd_v3_dot(d, nh)) < 0.2)
            continue;
        sccd_v3 o = sccd_v3_mad(x, -sccd_rng_uniform(&g, 0.5, 5.0), d);
        sccd_cast3 r = sccd_raycast_triangle((sccd_ray3){o, d}, t);
        assert_true(r.hit == (delta < 0.0));
    }
}

static void test_cast_triangle_parallel(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(59);
    for (int i = 0; i < N; ++i) {
        /* The unit right triangle, moved rigidly; rays in its plane. */
        sccd_quat q = sccd_rng_quat(&g);
        sccd_v3 c = sccd_rng_v3(&g, 3.0);
        sccd_xf3 xf = {c, q};
        sccd_triangle t = {sccd_xf3_apply(xf, (sccd_v3){0, 0, 0}), sccd_xf3_apply(xf, (sccd_v3){2, 0, 0}),
                           sccd_xf3_apply(xf, (sccd_v3){0, 2, 0})};
        double x = sccd_rng_uniform(&g, 0.1, 1.5), y0 = sccd_rng_uniform(&g, -3.0, -0.5);
        double speed = sccd_rng_uniform(&g, 0.2, 3.0);
        /* Local ray (x, y0) + s·(0, speed): enters through the edge y = 0 at s = −y0 / speed. */
        sccd_ray3 ray = {sccd_xf3_apply(xf, (sccd_v3){x, y0, 0}), sccd_quat_apply(q, (sccd_v3){0, speed, 0})};
        sccd_cast3 r = sccd_raycast_triangle(ray, t);
        assert_true(r.hit);
        assert_true(fabs(r.t - (-y0 / speed)) * speed <= 1e-8 * 5.0); /* the edge grown by the tolerance */
        check_triangle_hit(r, t, ray.o, ray.d, 5.0);
        /* Starting inside: t = 0. Going away: miss. Lifted off the plane: miss. */
        sccd_ray3 in = {sccd_xf3_apply(xf, (sccd_v3){0.5, 0.5, 0}), ray.d};
        assert_true(sccd_raycast_triangle(in, t).hit && sccd_raycast_triangle(in, t).t == 0.0);
        sccd_ray3 away = {ray.o, sccd_v3_neg(ray.d)};
        assert_false(sccd_raycast_triangle(away, t).hit);
        sccd_ray3 lifted = {sccd_xf3_apply(xf, (sccd_v3){x, y0, 1e-6}), ray.d};
        assert_false(sccd_raycast_triangle(lifted, t).hit);
        /* The same as a segment: too short, then long enough. */
        sccd_segment3 s = {ray.o, sccd_v3_mad(ray.o, 0.9 * (-y0 / speed), ray.d)};
        assert_false(sccd_segment_vs_triangle(s, t).hit);
        s.b = sccd_v3_mad(ray.o, 1.1 * (-y0 / speed), ray.d);
        assert_true(sccd_segment_vs_triangle(s, t).hit);
    }
}

static void test_cast_degenerate(void **state)
{
    (void)state;
    /* A collinear triangle is its longest edge; a point triangle a point. */
    sccd_triangle line = {{0, 0, 0}, {2, 0, 0}, {1, 0, 0}};
    sccd_cast3 r = sccd_raycast_triangle((sccd_ray3){{1.5, -3, 0}, {0, 1, 0}}, line);
    assert_true(r.hit && fabs(r.t - 3.0) < 1e-9 && fabs(r.point.x - 1.5) < 1e-9);
    assert_true(fabs((1 - r.u - r.v) * 0 + r.u * 2 + r.v * 1 - 1.5) < 1e-9);
    assert_false(sccd_raycast_triangle((sccd_ray3){{2.5, -3, 0}, {0, 1, 0}}, line).hit);
    assert_false(sccd_raycast_triangle((sccd_ray3){{1.5, -3, 1e-3}, {0, 1, 0}}, line).hit);
    sccd_triangle pt = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    r = sccd_raycast_triangle((sccd_ray3){{1, 1, -4}, {0, 0, 2}}, pt);
    assert_true(r.hit && fabs(r.t - 2.5) < 1e-9);
    assert_false(sccd_raycast_triangle((sccd_ray3){{1, 1.001, -4}, {0, 0, 2}}, pt).hit);
    /* Zero-length casts are points: a hit at t = 0 exactly when inside. */
    sccd_sphere s = {{0, 0, 0}, 1};
    r = sccd_segment_vs_sphere((sccd_segment3){{0.5, 0, 0}, {0.5, 0, 0}}, s);
    assert_true(r.hit && r.t == 0.0 && r.normal.x == 1.0); /* the fallback normal */
    assert_false(sccd_raycast_sphere((sccd_ray3){{1.5, 0, 0}, {0, 0, 0}}, s).hit);
    /* A zero-radius sphere is a point; a zero-radius capsule a segment. */
    r = sccd_raycast_sphere((sccd_ray3){{-2, 0, 0}, {1, 0, 0}}, (sccd_sphere){{0, 0, 0}, 0});
    assert_true(r.hit && fabs(r.t - 2.0) < 1e-9);
    r = sccd_raycast_capsule3((sccd_ray3){{0.5, -2, 0}, {0, 1, 0}}, (sccd_capsule3){{0, 0, 0}, {1, 0, 0}, 0});
    assert_true(r.hit && fabs(r.t - 2.0) < 1e-9);
    /* A zero-length cylinder is the disc perpendicular to +x. */
    sccd_cylinder disc = {{0, 0, 0}, {0, 0, 0}, 1};
    r = sccd_raycast_cylinder((sccd_ray3){{-3, 0.5, 0.5}, {1, 0, 0}}, disc);
    assert_true(r.hit && fabs(r.t - 3.0) < 1e-8 && r.normal.x == -1.0);
    assert_false(sccd_raycast_cylinder((sccd_ray3){{-3, 0.8, 0.8}, {1, 0, 0}}, disc).hit);
    /* A ray along a box face's plane, just inside and just outside. */
    sccd_aabb3 b = {{0, 0, 0}, {1, 1, 1}};
    assert_true(sccd_raycast_aabb3((sccd_ray3){{-1, 1, 0.5}, {1, 0, 0}}, b).hit);
    assert_false(sccd_raycast_aabb3((sccd_ray3){{-1, 1 + 1e-6, 0.5}, {1, 0, 0}}, b).hit);
    /* Starting inside: t = 0, normal against the ray. */
    r = sccd_raycast_box3((sccd_ray3){{0, 0, 0}, {0, 2, 0}}, (sccd_box3){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}});
    assert_true(r.hit && r.t == 0.0 && r.normal.y == -1.0);
    /* A capsule's first hit is its nearer end sphere. */
    r = sccd_raycast_capsule3((sccd_ray3){{-5, 0, 0}, {1, 0, 0}}, (sccd_capsule3){{0, 0, 0}, {2, 0, 0}, 1});
    assert_true(r.hit && fabs(r.t - 4.0) < 1e-8 && fabs(r.normal.x + 1.0) < 1e-12);
}

static bool finite_cast(sccd_cast3 r)
{
    return isfinite(r.t) && sccd_is_valid_v3(r.point) && sccd_is_valid_v3(r.normal) && isfinite(r.u) && isfinite(r.v);
}

/* Valid but extreme input: tiny and huge directions, far shapes. No NaN or
 * infinity comes out, and a cast that cannot reach the shape misses. */
static void test_cast_extreme(void **state)
{
    (void)state;
    sccd_v3 tiny = {1e-305, 0, 0}, huge = {1e150, 1e150, 0}; /* 1e6 / 1e-305 overflows */
    sccd_v3 far = {-1e6, 0.5, 0.5};
    sccd_aabb3 b = {{0, 0, 0}, {1, 1, 1}};
    sccd_cast3 r = sccd_raycast_aabb3((sccd_ray3){far, tiny}, b);
    assert_true(finite_cast(r));
    r = sccd_raycast_aabb3((sccd_ray3){far, huge}, b);
    assert_true(finite_cast(r));
    sccd_triangle t = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    r = sccd_raycast_triangle((sccd_ray3){{0.2, 0.2, -1e6}, {0, 0, 1e-300}}, t);
    assert_true(finite_cast(r));
    r = sccd_raycast_triangle((sccd_ray3){{0.2, 0.2, 1}, {1e-200, 1e-200, -1e-300}}, t);
    assert_true(finite_cast(r));
    sccd_cylinder c = {{0, 0, 0}, {0, 0, 1}, 1};
    assert_true(finite_cast(sccd_raycast_cylinder((sccd_ray3){far, tiny}, c)));
    assert_true(finite_cast(sccd_raycast_capsule3((sccd_ray3){far, tiny}, (sccd_capsule3){c.a, c.b, c.r})));
    assert_true(finite_cast(sccd_raycast_sphere((sccd_ray3){far, tiny}, (sccd_sphere){c.a, 1})));
    assert_true(finite_cast(sccd_raycast_box3((sccd_ray3){far, tiny}, (sccd_box3){c.a, {0, 0, 0, 1}, {1, 1, 1}})));
    /* The same far-away scene reached with an ordinary direction hits. */
    r = sccd_raycast_aabb3((sccd_ray3){far, {1, 0, 0}}, b);
    assert_true(r.hit && fabs(r.t - 1e6) <= 1e-2 && r.normal.x == -1.0);
}

static void test_cast_invalid(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_ray3 ok = {{0, 0, 0}, {1, 0, 0}}, nan_ray = {{NAN, 0, 0}, {1, 0, 0}};
    sccd_segment3 inf_seg = {{0, 0, 0}, {INFINITY, 0, 0}};
    sccd_cast3 r[] = {
        sccd_raycast_triangle(nan_ray, (sccd_triangle){{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}),
        sccd_segment_vs_triangle(inf_seg, (sccd_triangle){{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}),
        sccd_raycast_sphere(ok, (sccd_sphere){{0, 0, 0}, -1}),
        sccd_segment_vs_sphere(inf_seg, (sccd_sphere){{0, 0, 0}, 1}),
        sccd_raycast_aabb3(ok, (sccd_aabb3){{1, 0, 0}, {0, 1, 1}}),
        sccd_segment_vs_aabb3(inf_seg, (sccd_aabb3){{0, 0, 0}, {1, 1, 1}}),
        sccd_raycast_box3(ok, (sccd_box3){{0, 0, 0}, {0, 0, 0, 2}, {1, 1, 1}}),
        sccd_segment_vs_box3(inf_seg, (sccd_box3){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}),
        sccd_raycast_cylinder(ok, (sccd_cylinder){{0, 0, 0}, {1, 0, 0}, NAN}),
        sccd_segment_vs_cylinder(inf_seg, (sccd_cylinder){{0, 0, 0}, {1, 0, 0}, 1}),
        sccd_raycast_capsule3(nan_ray, (sccd_capsule3){{0, 0, 0}, {1, 0, 0}, 1}),
        sccd_segment_vs_capsule3((sccd_segment3){{0, 0, 0}, {1, 0, 0}}, (sccd_capsule3){{0, 0, 0}, {1, 0, 0}, -2}),
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; ++i)
        assert_true(!r[i].hit && r[i].t == 0.0 && r[i].point.x == 0.0 && r[i].normal.x == 0.0);
    assert_int_equal(sccd_test_assert_count(), 12);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cast_sphere),          cmocka_unit_test(test_cast_aabb),
        cmocka_unit_test(test_cast_box),             cmocka_unit_test(test_cast_cylinder),
        cmocka_unit_test(test_cast_capsule),         cmocka_unit_test(test_cast_grazing),
        cmocka_unit_test(test_cast_triangle),        cmocka_unit_test(test_cast_triangle_near_edges),
        cmocka_unit_test(test_cast_triangle_parallel), cmocka_unit_test(test_cast_degenerate),
        cmocka_unit_test(test_cast_extreme),         cmocka_unit_test(test_cast_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
