/* Catalogue overlap tests (seed 004 "衝突判定") against independent oracles:
 * exact face enumeration (orc_qp_min) for the polytope pairs, certified
 * branch and bound over one shape's parameterisation for the round ones
 * (ambiguous only within 1e-9 of the scene), pairs built at a known signed
 * distance of ±1e-7 of the scene, degenerate shapes and invalid input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "catalogue_oracle.h"

#define N 10000
#define SCALE 10.0 /* coordinates and sizes of the random scenes are below this */
#define EVALS 400000

typedef struct tally {
    int yes, no, undecided;
} tally;

static void count(tally *t, int sign)
{
    t->yes += sign < 0;
    t->no += sign > 0;
    t->undecided += sign == 0;
}

/* Both answers occur often, the oracle leaves almost nothing undecided. */
static void expect_tally(tally t, int n)
{
    print_message("tally: %d yes, %d no, %d undecided\n", t.yes, t.no, t.undecided);
    assert_true(t.yes > n / 20 && t.no > n / 20);
    assert_true(t.undecided <= n / 100);
}

/* The library's answer against the oracle's sign (−1 overlap, +1 apart, 0 undecided). */
static void expect(bool got, int sign)
{
    if (sign != 0)
        assert_true(got == (sign < 0));
}

/* Sign of (value − thr) with an ambiguity band of 1e-9 of the scene. */
static int sign_of(double value, double thr)
{
    double gap = 1e-9 * SCALE;
    return value <= thr - gap ? -1 : (value > thr + gap ? 1 : 0);
}

/* ---- point tests: closed forms written apart ---- */

/* Signed margins: negative inside, positive outside, zero on the surface. */
static double margin_aabb(sccd_v3 p, sccd_aabb3 b)
{
    return fmax(fmax(fmax(b.lo.x - p.x, p.x - b.hi.x), fmax(b.lo.y - p.y, p.y - b.hi.y)),
                fmax(b.lo.z - p.z, p.z - b.hi.z));
}

static double margin_cylinder(sccd_v3 p, sccd_cylinder c)
{
    double out = orc_dist_cylinder(p, c);
    if (out > 0.0)
        return out;
    /* Inside: the nearest face of the three (seed-literal axial and radial parts). */
    sccd_v3 a = sccd_v3_sub(c.b, c.a), v = sccd_v3_sub(p, c.a);
    double len = sccd_v3_len(a), z = sccd_v3_dot(v, a) / len;
    double rho = sqrt(fmax(0.0, sccd_v3_dot(v, v) - z * z));
    return fmax(fmax(-z, z - len), rho - c.r);
}

static void test_point_tests(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(61);
    tally ts = {0}, ta = {0}, tc = {0};
    for (int i = 0; i < N; ++i) {
        sccd_sphere s = {sccd_rng_v3(&g, 3.0), sccd_rng_uniform(&g, 0.0, 4.0)};
        sccd_v3 p = sccd_v3_add(s.c, sccd_rng_v3(&g, 4.0));
        int sg = sign_of(sqrt(pow(p.x - s.c.x, 2) + pow(p.y - s.c.y, 2) + pow(p.z - s.c.z, 2)), s.r);
        count(&ts, sg);
        expect(sccd_sphere_vs_point(s, p), sg);
        sccd_v3 c = sccd_rng_v3(&g, 3.0), h = sccd_v3_abs(sccd_rng_v3(&g, 3.0));
        sccd_aabb3 b = {sccd_v3_sub(c, h), sccd_v3_add(c, h)};
        p = sccd_v3_add(c, sccd_rng_v3(&g, 3.0));
        sg = sign_of(margin_aabb(p, b), 0.0);
        count(&ta, sg);
        expect(sccd_aabb3_vs_point(b, p), sg);
        sccd_cylinder cy = orc_rand_cylinder(&g);
        p = sccd_v3_add(sccd_v3_lerp(cy.a, cy.b, 0.5), sccd_rng_v3(&g, 2.0));
        sg = sign_of(margin_cylinder(p, cy), 0.0);
        count(&tc, sg);
        expect(sccd_cylinder_vs_point(cy, p), sg);
        /* The cylinder is the same set from either end. */
        assert_true(sccd_cylinder_vs_point(cy, p) == sccd_cylinder_vs_point((sccd_cylinder){cy.b, cy.a, cy.r}, p));
    }
    expect_tally(ts, N);
    expect_tally(ta, N);
    expect_tally(tc, N);
}

/* ---- polytope pairs: exact face enumeration ---- */

static sccd_triangle permuted(sccd_triangle t, int k)
{
    sccd_v3 p[3] = {t.a, t.b, t.c};
    int i = k % 3, j = k / 3 % 2;
    return (sccd_triangle){p[i], p[(i + 1 + j) % 3], p[(i + 2 - j) % 3]};
}

static sccd_triangle maybe_degenerate(sccd_rng *g, sccd_triangle t)
{
    int kind = sccd_rng_int(g, 25);
    if (kind == 0)
        t.c = sccd_v3_lerp(t.a, t.b, sccd_rng_uniform(g, -0.5, 1.5));
    else if (kind == 1)
        t.b = t.c = t.a;
    return t;
}

static void test_sphere_capsule_triangle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(62);
    tally tst = {0}, tct = {0}, tsc = {0};
    for (int i = 0; i < N; ++i) {
        sccd_triangle t = maybe_degenerate(&g, orc_rand_triangle(&g, 4.0));
        sccd_triangle tp = permuted(t, sccd_rng_int(&g, 6));
        sccd_sphere s = {sccd_rng_v3(&g, 5.0), sccd_rng_uniform(&g, 0.0, 3.0)};
        int sg = sign_of(orc_dist_triangle(s.c, t), s.r);
        count(&tst, sg);
        expect(sccd_sphere_vs_triangle(s, t), sg);
        assert_true(sccd_sphere_vs_triangle(s, t) == sccd_sphere_vs_triangle(s, tp) || sg == 0);

        sccd_capsule3 c = {sccd_rng_v3(&g, 5.0), sccd_rng_v3(&g, 5.0), sccd_rng_uniform(&g, 0.0, 2.0)};
        if (i % 50 == 0)
            c.b = c.a;
        sg = sign_of(orc_dist_segment_triangle(c.a, c.b, false, t), c.r);
        count(&tct, sg);
        expect(sccd_capsule3_vs_triangle(c, t), sg);
        sccd_capsule3 rev = {c.b, c.a, c.r};
        assert_true(sccd_capsule3_vs_triangle(rev, tp) == sccd_capsule3_vs_triangle(c, t) || sg == 0);

        /* Sphere–capsule: the sphere's centre against the segment, k = 1. */
        sccd_v3 col[1] = {sccd_v3_sub(c.b, c.a)};
        double gq[2] = {-1, 1}, hq[2] = {0, 1};
        sg = sign_of(orc_qp_min(1, col, sccd_v3_sub(s.c, c.a), 2, gq, hq, NULL), s.r + c.r);
        count(&tsc, sg);
        expect(sccd_sphere_vs_capsule3(s, c), sg);
        assert_true(sccd_sphere_vs_capsule3(s, rev) == sccd_sphere_vs_capsule3(s, c) || sg == 0);
    }
    expect_tally(tst, N);
    expect_tally(tct, N);
    expect_tally(tsc, N);
}

/* ---- round pairs: certified branch and bound ---- */

typedef struct sphere_ctx {
    sccd_v3 c;
    sccd_cylinder cyl;
    sccd_cone cone;
} sphere_ctx;

static double f_sphere_cylinder(const double *x, const void *ctx)
{
    const sphere_ctx *s = ctx;
    return sccd_v3_dist(orc_cylinder_at(s->cyl, x[0], x[1], x[2]), s->c);
}

static double f_sphere_cone(const double *x, const void *ctx)
{
    const sphere_ctx *s = ctx;
    return sccd_v3_dist(orc_cone_at(s->cone, x[0], x[1], x[2]), s->c);
}

static const double LO3[3] = {0.0, 0.0, 0.0}, HI3[3] = {1.0, 1.0, 2.0 * SCCD_PI};

static void test_sphere_cylinder_cone(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(63);
    tally tcy = {0}, tco = {0};
    for (int i = 0; i < N; ++i) {
        sphere_ctx ctx = {sccd_rng_v3(&g, 6.0), orc_rand_cylinder(&g), orc_rand_cone(&g)};
        double r = sccd_rng_uniform(&g, 0.0, 3.0), lip[3];
        orc_cylinder_lip(ctx.cyl, lip);
        int sg = sccd_bnb_sign(f_sphere_cylinder, &ctx, 3, LO3, HI3, lip, r, 1e-9 * SCALE, EVALS);
        count(&tcy, sg);
        sccd_sphere s = {ctx.c, r};
        expect(sccd_sphere_vs_cylinder(s, ctx.cyl), sg);
        orc_cone_lip(ctx.cone, lip);
        sg = sccd_bnb_sign(f_sphere_cone, &ctx, 3, LO3, HI3, lip, r, 1e-9 * SCALE, EVALS);
        count(&tco, sg);
        expect(sccd_sphere_vs_cone(s, ctx.cone), sg);
    }
    expect_tally(tcy, N);
    expect_tally(tco, N);
}

typedef struct cyl_tri_ctx {
    sccd_cylinder c;
    sccd_triangle t;
} cyl_tri_ctx;

static double f_cylinder_triangle(const double *x, const void *ctx)
{
    const cyl_tri_ctx *k = ctx;
    return orc_dist_cylinder(orc_triangle_at(k->t, x[0], x[1]), k->c);
}

static void test_cylinder_triangle(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(64);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        cyl_tri_ctx k = {orc_rand_cylinder(&g), maybe_degenerate(&g, orc_rand_triangle(&g, 5.0))};
        if (i % 100 == 0)
            k.c.r = 0.0; /* a segment */
        double lo[2] = {0, 0}, hi[2] = {1, 1}, lip[2];
        orc_triangle_lip(k.t, lip);
        int sg = sccd_bnb_sign(f_cylinder_triangle, &k, 2, lo, hi, lip, 0.0, 1e-9 * SCALE, EVALS);
        count(&tl, sg);
        expect(sccd_cylinder_vs_triangle(k.c, k.t), sg);
        sccd_cylinder rev = {k.c.b, k.c.a, k.c.r};
        if (sg != 0)
            assert_true(sccd_cylinder_vs_triangle(rev, permuted(k.t, sccd_rng_int(&g, 6))) == (sg < 0));
    }
    /* A zero-radius cylinder rarely meets a triangle, so the tally is looser there. */
    expect_tally(tl, N);
}

typedef struct plane_ctx {
    sccd_cylinder c;
    sccd_plane p;
    double sign;
} plane_ctx;

static double f_cylinder_plane(const double *x, const void *ctx)
{
    const plane_ctx *k = ctx;
    return k->sign * (sccd_v3_dot(k->p.n, orc_cylinder_at(k->c, x[0], x[1], x[2])) - k->p.d);
}

static void test_cylinder_plane(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(65);
    tally tl = {0};
    for (int i = 0; i < N; ++i) {
        plane_ctx k = {orc_rand_cylinder(&g), {sccd_rng_unit3(&g), sccd_rng_uniform(&g, -6.0, 6.0)}, 1.0};
        if (i % 10 == 0) /* axis parallel or perpendicular to the plane */
            k.p.n = sccd_v3_normalize(i % 20 == 0 ? sccd_v3_sub(k.c.b, k.c.a) : orc_perp(&g, sccd_v3_normalize(sccd_v3_sub(k.c.b, k.c.a))));
        double lip[3];
        orc_cylinder_lip(k.c, lip);
        /* The cylinder meets the plane iff min(n·x − d) ≤ 0 ≤ max(n·x − d). */
        int below = sccd_bnb_sign(f_cylinder_plane, &k, 3, LO3, HI3, lip, 0.0, 1e-9 * SCALE, EVALS);
        k.sign = -1.0;
        int above = sccd_bnb_sign(f_cylinder_plane, &k, 3, LO3, HI3, lip, 0.0, 1e-9 * SCALE, EVALS);
        int sg = below < 0 && above < 0 ? -1 : (below > 0 || above > 0 ? 1 : 0);
        count(&tl, sg);
        expect(sccd_cylinder_vs_plane(k.c, k.p), sg);
    }
    expect_tally(tl, N);
}

/* ---- near-touching pairs built at a known signed distance ---- */

static void test_near_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(66);
    for (int i = 0; i < N; ++i) {
        double delta = (i % 2 ? 1e-7 : -1e-7) * SCALE;
        bool want = delta < 0.0;
        sccd_v3 q, n;
        double r = sccd_rng_uniform(&g, 0.0, 3.0);

        sccd_cylinder cy = orc_rand_cylinder(&g);
        orc_surface_cylinder(&g, cy, &q, &n);
        assert_true(sccd_sphere_vs_cylinder((sccd_sphere){sccd_v3_mad(q, r + delta, n), r}, cy) == want);
        assert_true(sccd_cylinder_vs_point(cy, sccd_v3_mad(q, delta, n)) == want);
        assert_true(sccd_cylinder_vs_plane(cy, (sccd_plane){n, sccd_v3_dot(n, q) + delta}) == want);
        /* A triangle holding p0 = q + δ·n as an inner point (in the
         * supporting plane n·(x − q) = δ), an edge point or a corner (the
         * rest leaning away, into n·(x − q) ≥ δ): at distance δ exactly. */
        sccd_v3 p0 = sccd_v3_mad(q, delta, n), e = orc_perp(&g, n), f = sccd_v3_cross(n, e);
        double lean = sccd_rng_int(&g, 2) ? sccd_rng_uniform(&g, 0.0, 3.0) : 0.0;
        sccd_v3 spoke[3];
        for (int k = 0; k < 3; ++k) {
            double a = 2.0 * SCCD_PI * k / 3.0 + sccd_rng_uniform(&g, -0.5, 0.5);
            spoke[k] = sccd_v3_scale(sccd_v3_add(sccd_v3_scale(e, cos(a)), sccd_v3_scale(f, sin(a))),
                                     sccd_rng_uniform(&g, 0.1, 3.0));
        }
        int where = sccd_rng_int(&g, 3);
        sccd_triangle t = {sccd_v3_add(p0, spoke[0]), sccd_v3_add(p0, spoke[1]), sccd_v3_add(p0, spoke[2])};
        if (where == 1) { /* p0 on the edge v0–v1 */
            t.a = sccd_v3_mad(p0, sccd_rng_uniform(&g, 0.1, 3.0), e);
            t.b = sccd_v3_mad(p0, -sccd_rng_uniform(&g, 0.1, 3.0), e);
            t.c = sccd_v3_mad(t.c, lean, n);
        } else if (where == 2) { /* p0 a corner */
            t.a = p0;
            t.b = sccd_v3_mad(t.b, lean * sccd_rng_uniform(&g, 0, 1), n);
            t.c = sccd_v3_mad(t.c, lean, n);
        }
        assert_true(sccd_cylinder_vs_triangle(cy, t) == want);

        sccd_cone co = orc_rand_cone(&g);
        orc_surface_cone(&g, co, &q, &n);
        assert_true(sccd_sphere_vs_cone((sccd_sphere){sccd_v3_mad(q, r + delta, n), r}, co) == want);

        sccd_capsule3 ca = orc_rand_capsule(&g);
        orc_surface_capsule(&g, ca, &q, &n);
        assert_true(sccd_sphere_vs_capsule3((sccd_sphere){sccd_v3_mad(q, r + delta, n), r}, ca) == want);

        sccd_triangle tr = orc_rand_triangle(&g, 5.0);
        if (sccd_v3_len(sccd_v3_cross(sccd_v3_sub(tr.b, tr.a), sccd_v3_sub(tr.c, tr.a))) > 0.5) {
            orc_surface_triangle(&g, tr, &q, &n);
            assert_true(sccd_sphere_vs_triangle((sccd_sphere){sccd_v3_mad(q, r + delta, n), r}, tr) == want);
            sccd_v3 mid = sccd_v3_mad(q, r + delta, n), d = orc_perp(&g, n);
            sccd_capsule3 k = {sccd_v3_mad(mid, -sccd_rng_uniform(&g, 0, 3), d), sccd_v3_mad(mid, sccd_rng_uniform(&g, 0, 3), d), r};
            assert_true(sccd_capsule3_vs_triangle(k, tr) == want);
        }

        sccd_sphere sp = {sccd_rng_v3(&g, 3.0), sccd_rng_uniform(&g, 0.1, 3.0)};
        n = sccd_rng_unit3(&g);
        assert_true(sccd_sphere_vs_point(sp, sccd_v3_mad(sp.c, sp.r + delta, n)) == want);
        sccd_box3 bx = orc_rand_box(&g);
        bx.q = sccd_quat_identity();
        orc_surface_box(&g, bx, &q, &n);
        sccd_aabb3 ab = {sccd_v3_sub(bx.c, bx.h), sccd_v3_add(bx.c, bx.h)};
        assert_true(sccd_aabb3_vs_point(ab, sccd_v3_mad(q, delta, n)) == want);
    }
}

/* ---- hand-made and degenerate cases ---- */

static void test_degenerate(void **state)
{
    (void)state;
    /* A zero-length cylinder or cone is a disc perpendicular to +x. */
    sccd_cylinder disc = {{0, 0, 0}, {0, 0, 0}, 1};
    assert_true(sccd_sphere_vs_cylinder((sccd_sphere){{0.5, 0.9, 0}, 0.6}, disc));
    assert_false(sccd_sphere_vs_cylinder((sccd_sphere){{0.5, 0.9, 0}, 0.4}, disc));
    assert_true(sccd_cylinder_vs_point(disc, (sccd_v3){0, 0.7, 0.7}));
    assert_false(sccd_cylinder_vs_point(disc, (sccd_v3){1e-6, 0, 0}));
    sccd_cone flat = {{0, 0, 0}, {0, 0, 0}, 1};
    assert_true(sccd_sphere_vs_cone((sccd_sphere){{0.5, 0.9, 0}, 0.6}, flat));
    assert_false(sccd_sphere_vs_cone((sccd_sphere){{0.5, 0.9, 0}, 0.4}, flat));
    assert_false(sccd_sphere_vs_cone((sccd_sphere){{0.0, 1.5, 0}, 0.4}, flat));
    /* Beyond the base on the axis: the seed's slant-only test would say yes. */
    sccd_cone cone = {{0, 0, 0}, {1, 0, 0}, 1};
    assert_false(sccd_sphere_vs_cone((sccd_sphere){{2.5, 0, 0}, 1}, cone));
    assert_true(sccd_sphere_vs_cone((sccd_sphere){{2.0, 0, 0}, 1}, cone));
    assert_true(sccd_sphere_vs_cone((sccd_sphere){{0.5, 0.2, 0}, 0}, cone)); /* a point inside */
    /* A zero-length capsule is a sphere; zero radii are points and segments. */
    sccd_capsule3 ball = {{1, 1, 1}, {1, 1, 1}, 1};
    assert_true(sccd_sphere_vs_capsule3((sccd_sphere){{1, 1, 3}, 1}, ball));
    assert_false(sccd_sphere_vs_capsule3((sccd_sphere){{1, 1, 3.001}, 1}, ball));
    /* A collinear triangle is a segment; a cylinder of radius 0 a segment. */
    sccd_triangle seg = {{-1, 0, 0}, {1, 0, 0}, {0, 0, 0}};
    assert_true(sccd_cylinder_vs_triangle((sccd_cylinder){{0, -1, 0}, {0, 1, 0}, 0}, seg));
    assert_false(sccd_cylinder_vs_triangle((sccd_cylinder){{0, -1, 0.01}, {0, 1, 0.01}, 0}, seg));
    assert_true(sccd_capsule3_vs_triangle((sccd_capsule3){{0, -1, 0.01}, {0, 1, 0.01}, 0.01}, seg));
    /* A triangle wholly inside a cylinder, far from its edges: only the
     * "point of the cut" branch can see it... */
    sccd_cylinder big = {{0, 0, -1}, {0, 0, 1}, 5};
    assert_true(sccd_cylinder_vs_triangle(big, (sccd_triangle){{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}));
    /* ... and a cylinder poking through a big triangle's interior, likewise. */
    sccd_triangle wide = {{-10, -10, 0}, {10, -10, 0}, {0, 10, 0}};
    assert_true(sccd_cylinder_vs_triangle((sccd_cylinder){{0, 0, -1}, {0, 0, 1}, 0.5}, wide));
    assert_true(sccd_cylinder_vs_triangle((sccd_cylinder){{0, 0, 0.5}, {0, 0, 1}, 0.5}, wide) == false);
    assert_true(sccd_cylinder_vs_triangle((sccd_cylinder){{-1, 0, 0.5}, {1, 0, 0.5}, 0.5}, wide)); /* lying on it */
    assert_true(sccd_cylinder_vs_triangle((sccd_cylinder){{0, 0, 0.3}, {1, 0, 1}, 0.5}, wide)); /* tilted, rim first */
    /* Cylinder and plane: lying on it, standing on it, hovering. */
    sccd_plane ground = {{0, 0, 1}, 0};
    assert_true(sccd_cylinder_vs_plane((sccd_cylinder){{-1, 0, 0.5}, {1, 0, 0.5}, 0.5}, ground));
    assert_true(sccd_cylinder_vs_plane((sccd_cylinder){{0, 0, 0}, {0, 0, 1}, 0.5}, ground));
    assert_false(sccd_cylinder_vs_plane((sccd_cylinder){{0, 0, 0.01}, {0, 0, 1}, 0.5}, ground));
}

/* Valid but far: no false contact from squares overflowing to ∞. */
static void test_extreme(void **state)
{
    (void)state;
    sccd_v3 far = {1e160, 0, 0};
    sccd_sphere s = {{0, 0, 0}, 1};
    assert_false(sccd_sphere_vs_point(s, far));
    assert_false(sccd_capsule3_vs_triangle((sccd_capsule3){far, far, 1}, (sccd_triangle){{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
    assert_false(sccd_sphere_vs_capsule3(s, (sccd_capsule3){far, far, 1}));
    assert_false(sccd_sphere_vs_cylinder(s, (sccd_cylinder){far, far, 1}));
    assert_false(sccd_sphere_vs_cone(s, (sccd_cone){far, far, 1}));
    assert_false(sccd_sphere_vs_triangle(s, (sccd_triangle){far, far, far}));
}

static void test_invalid(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_v3 o = {0, 0, 0}, nanv = {NAN, 0, 0};
    sccd_sphere s = {o, 1}, bad_s = {o, -1};
    sccd_triangle t = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    sccd_cylinder c = {o, {1, 0, 0}, 1}, bad_c = {o, {INFINITY, 0, 0}, 1};
    assert_false(sccd_sphere_vs_point(s, nanv));
    assert_false(sccd_aabb3_vs_point((sccd_aabb3){{1, 1, 1}, {0, 0, 0}}, o));
    assert_false(sccd_cylinder_vs_point(bad_c, o));
    assert_false(sccd_sphere_vs_triangle(bad_s, t));
    assert_false(sccd_sphere_vs_capsule3(s, (sccd_capsule3){o, nanv, 1}));
    assert_false(sccd_sphere_vs_cylinder(s, bad_c));
    assert_false(sccd_sphere_vs_cone(s, (sccd_cone){o, o, NAN}));
    assert_false(sccd_capsule3_vs_triangle((sccd_capsule3){o, o, 1}, (sccd_triangle){o, nanv, o}));
    assert_false(sccd_cylinder_vs_triangle(bad_c, t));
    assert_false(sccd_cylinder_vs_plane(c, (sccd_plane){{0, 0, 2}, 0}));
    assert_int_equal(sccd_test_assert_count(), 10);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_tests),       cmocka_unit_test(test_sphere_capsule_triangle),
        cmocka_unit_test(test_sphere_cylinder_cone), cmocka_unit_test(test_cylinder_triangle),
        cmocka_unit_test(test_cylinder_plane),    cmocka_unit_test(test_near_touching),
        cmocka_unit_test(test_degenerate),        cmocka_unit_test(test_extreme),
        cmocka_unit_test(test_invalid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
