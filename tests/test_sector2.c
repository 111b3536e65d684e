/* 2D sectors: every pair test against a certified branch-and-bound oracle
 * (tests/oracles/truth2.c: best-first search over the sector's (ρ, φ) domain
 * with closed-form point–shape distances) on 100,000 random cases each, exact
 * touching configurations built by hand, argument order, the constructions,
 * the thesis' own tests, degenerate sectors and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "truth2.h"
#include "../core/src/unchecked.h"

#define N_RANDOM 100000
#define N_TOUCH 20000
#define BNB_NODES 20000

/* Half angles near the special values 0, π/2 and π, or anywhere. */
static sccd_real random_half_angle(sccd_rng *g)
{
    static const sccd_real special[] = {0.0, 1e-7, 0.5 * SCCD_PI - 1e-7, 0.5 * SCCD_PI, 0.5 * SCCD_PI + 1e-7,
                                        SCCD_PI - 1e-7, SCCD_PI};
    if (sccd_rng_int(g, 3) == 0)
        return special[sccd_rng_int(g, 7)];
    return sccd_rng_uniform(g, 0.0, SCCD_PI);
}

static sccd_sector2 random_sector(sccd_rng *g)
{
    sccd_sector2 s = {sccd_rng_v2(g, 5.0), sccd_rng_unit2(g), random_half_angle(g), 0.0,
                      sccd_rng_uniform(g, 0.5, 5.0)};
    int kind = sccd_rng_int(g, 10);
    s.r = kind < 3 ? 0.0 : (kind == 3 ? s.R : sccd_rng_uniform(g, 0.0, s.R));
    return s;
}

/* A centre near the sector: often overlapping, often not, sometimes at the pivot. */
static sccd_v2 random_centre_near(sccd_rng *g, const sccd_sector2 *s)
{
    if (sccd_rng_int(g, 10) == 0)
        return s->o;
    return sccd_v2_mad(s->o, sccd_rng_uniform(g, 0.0, s->R + 4.0), sccd_rng_unit2(g));
}

/* The scene size the tests document (sector2.h): R, the farthest core point, the radius. */
static sccd_real scene(const sccd_sector2 *s, const sccd_shape2 *x)
{
    sccd_v2 v[SCCD_POLY_MAX];
    sccd_real rad;
    int n = sccd_truth2_core(x, v, &rad);
    sccd_real L = sccd_max(s->R, rad);
    for (int i = 0; i < n; ++i)
        L = sccd_max(L, sccd_v2_dist(v[i], s->o));
    return L;
}

static sccd_real shape_distance(const void *ctx, sccd_v2 p) { return sccd_truth2_distance(ctx, p); }

static sccd_real sector_distance(const void *ctx, sccd_v2 p) { return sccd_truth2_sector_distance(ctx, p); }

static bool exact_test(const sccd_sector2 *s, const sccd_shape2 *x)
{
    switch (x->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_sector2_vs_circle(s, x->circle);
    case SCCD_SHAPE_CAPSULE: return sccd_sector2_vs_capsule(s, x->capsule);
    case SCCD_SHAPE_BOX: return sccd_sector2_vs_box(s, x->box);
    case SCCD_SHAPE_POLY: return sccd_sector2_vs_poly(s, &x->poly);
    }
    return false;
}

/* Decide with the oracle; count what it cannot decide. Returns the verdict. */
static sccd_truth2_verdict check_against_oracle(const sccd_sector2 *s, sccd_truth2_dist_fn *f, const void *ctx,
                                                sccd_real L, bool got)
{
    sccd_truth2_verdict v = sccd_truth2_sector_bnb(s, f, ctx, 0.5 * SCCD_EPS * L, 2.0 * SCCD_EPS * L, BNB_NODES);
    if (v == SCCD_TRUTH2_OVERLAP && !got)
        fail_msg("missed overlap: o=(%.17g,%.17g) a=(%.17g,%.17g) half=%.17g r=%.17g R=%.17g", s->o.x, s->o.y,
                 s->a.x, s->a.y, s->half_angle, s->r, s->R);
    if (v == SCCD_TRUTH2_SEPARATED && got)
        fail_msg("false overlap: o=(%.17g,%.17g) a=(%.17g,%.17g) half=%.17g r=%.17g R=%.17g", s->o.x, s->o.y,
                 s->a.x, s->a.y, s->half_angle, s->r, s->R);
    return v;
}

static void random_vs_shape(sccd_shape_type type, uint64_t seed)
{
    sccd_rng g = sccd_rng_make(seed);
    int ambiguous = 0, hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_shape2 x = sccd_truth2_random_shape(&g, type, random_centre_near(&g, &s), 3.0);
        bool got = exact_test(&s, &x);
        hits += got;
        ambiguous += check_against_oracle(&s, shape_distance, &x, scene(&s, &x), got) == SCCD_TRUTH2_AMBIGUOUS;
    }
    /* Both answers are common, and the oracle decides nearly every case. */
    assert_true(hits > N_RANDOM / 5 && hits < N_RANDOM * 4 / 5);
    assert_true(ambiguous < N_RANDOM / 1000);
}

static void test_circle_random(void **state) { (void)state; random_vs_shape(SCCD_SHAPE_CIRCLE, 101); }
static void test_box_random(void **state) { (void)state; random_vs_shape(SCCD_SHAPE_BOX, 102); }
static void test_capsule_random(void **state) { (void)state; random_vs_shape(SCCD_SHAPE_CAPSULE, 103); }
static void test_poly_random(void **state) { (void)state; random_vs_shape(SCCD_SHAPE_POLY, 104); }

/* The prepared test of shape x. */
static bool prepared_test(const sccd_sector2_prepared *p, const sccd_shape2 *x)
{
    switch (x->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_sector2_prepared_vs_circle(p, x->circle);
    case SCCD_SHAPE_CAPSULE: return sccd_sector2_prepared_vs_capsule(p, x->capsule);
    case SCCD_SHAPE_BOX: return sccd_sector2_prepared_vs_box(p, x->box);
    case SCCD_SHAPE_POLY: return sccd_sector2_prepared_vs_poly(p, &x->poly);
    }
    return false;
}

/* Scenes scaled by powers of 2 from 2^-900 to 2^300 (exactly: no number
 * becomes subnormal): every shape gets the answer it gets at unit scale,
 * one-shot and prepared, and so does a second sector. The segments'
 * closest points (capsules', polygons' edges) took a segment under 1e-15
 * long for a point whatever the scene's size, and their determinant, a
 * fourth power of the lengths, over- or underflowed: at 2^-60 and 2^300
 * 0.1–0.6 % of capsules and polygons got other answers, misses among
 * them. Scenes below 1e-160 were not scaled up: their squares underflowed,
 * and nearly every shape met the sector. */
static void test_scaled_scenes(void **state)
{
    (void)state;
    static const int powers[] = {-900, -550, -300, -60, 60, 300};
    static const sccd_shape_type types[] = {SCCD_SHAPE_CIRCLE, SCCD_SHAPE_BOX, SCCD_SHAPE_CAPSULE, SCCD_SHAPE_POLY};
    sccd_rng g = sccd_rng_make(109);
    int hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_shape2 x = sccd_truth2_random_shape(&g, types[i % 4], random_centre_near(&g, &s), 3.0);
        sccd_v2 p = random_centre_near(&g, &s);
        sccd_sector2 o = random_sector(&g);
        o.o = random_centre_near(&g, &s);
        bool want = exact_test(&s, &x), want_point = sccd_sector2_vs_point(&s, p);
        bool want_sector = sccd_sector2_vs_sector2(&s, &o);
        hits += want;
        for (int k = 0; k < 6; ++k) {
            sccd_real f = ldexp(1.0, powers[k]);
            sccd_sector2 t = {sccd_v2_scale(s.o, f), s.a, s.half_angle, f * s.r, f * s.R};
            sccd_sector2 u = {sccd_v2_scale(o.o, f), o.a, o.half_angle, f * o.r, f * o.R};
            sccd_shape2 y = sccd_shape2_scaled(x, f);
            sccd_sector2_prepared tp;
            assert_true(sccd_sector2_prepare(&tp, &t));
            if (exact_test(&t, &y) != want || prepared_test(&tp, &y) != want)
                fail_msg("case %d at 2^%d: shape %d (unit scale %d)", i, powers[k], (int)x.type, want);
            if (sccd_sector2_vs_point(&t, sccd_v2_scale(p, f)) != want_point ||
                sccd_sector2_prepared_vs_point(&tp, sccd_v2_scale(p, f)) != want_point)
                fail_msg("case %d at 2^%d: point (unit scale %d)", i, powers[k], want_point);
            if (sccd_sector2_vs_sector2(&t, &u) != want_sector)
                fail_msg("case %d at 2^%d: sector (unit scale %d)", i, powers[k], want_sector);
        }
    }
    assert_true(hits > N_RANDOM / 5 && hits < N_RANDOM * 4 / 5);
}

/* Capsules past the test's first early-outs: the disc about the middle that
 * holds the capsule meets the sector and neither end disc does, so its
 * exact path decides (the segment against the wedge's pieces and the
 * radial edges), with bare segments, long ones and every special angle. */
static void test_capsule_exact_path(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(107);
    int cases = 0, hits = 0, ambiguous = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_v2 a = random_centre_near(&g, &s);
        sccd_real len = sccd_rng_uniform(&g, 0.1, 12.0);
        sccd_real rad = sccd_rng_int(&g, 4) ? sccd_rng_uniform(&g, 0.0, 1.0) : 0.0;
        sccd_capsule2 c = {a, sccd_v2_mad(a, len, sccd_rng_unit2(&g)), rad};
        bool ends = sccd_sector2_vs_circle(&s, (sccd_circle){c.a, c.r}) ||
                    sccd_sector2_vs_circle(&s, (sccd_circle){c.b, c.r});
        if (ends || !sccd_sector2_vs_circle(&s, (sccd_circle){sccd_v2_lerp(c.a, c.b, 0.5), 0.5 * len + c.r}))
            continue;
        sccd_shape2 x = {.type = SCCD_SHAPE_CAPSULE, .capsule = c};
        bool got = sccd_sector2_vs_capsule(&s, c);
        cases++;
        hits += got;
        ambiguous += check_against_oracle(&s, shape_distance, &x, scene(&s, &x), got) == SCCD_TRUTH2_AMBIGUOUS;
    }
    assert_true(cases > N_RANDOM / 5);
    assert_true(hits > cases / 5 && hits < cases * 4 / 5);
    assert_true(ambiguous < cases / 1000);
}

/* A box half size: often empty, a hair or thin, else up to 3. */
static sccd_real box_half_size(sccd_rng *g)
{
    switch (sccd_rng_int(g, 10)) {
    case 0: return 0.0;
    case 1: return sccd_rng_uniform(g, 0.0, 1e-9);
    case 2: return sccd_rng_uniform(g, 0.0, 1e-5);
    default: return sccd_rng_uniform(g, 0.0, 3.0);
    }
}

/* A point of S's boundary: on a radial edge (side), on an arc, at a corner
 * or the pivot; moved off it by nothing, by a fraction or a few of the
 * tolerance, by 1e-6 or by up to 0.5. */
static sccd_v2 boundary_point(sccd_rng *g, const sccd_sector2 *s, sccd_v2 edge)
{
    sccd_v2 p;
    sccd_real th = s->half_angle, tol = SCCD_EPS * (s->R + 10.0);
    switch (sccd_rng_int(g, 6)) {
    case 0: p = sccd_v2_mad(s->o, sccd_rng_uniform(g, s->r, s->R), edge); break;
    case 1: p = sccd_v2_mad(s->o, s->R, sccd_rot2_apply(sccd_rot2_make(sccd_rng_uniform(g, -th, th)), s->a)); break;
    case 2: p = sccd_v2_mad(s->o, s->r, sccd_rot2_apply(sccd_rot2_make(sccd_rng_uniform(g, -th, th)), s->a)); break;
    case 3: p = sccd_v2_mad(s->o, s->R, edge); break;
    case 4: p = sccd_v2_mad(s->o, s->r, edge); break;
    default: p = s->o; break;
    }
    static const sccd_real offsets[] = {0.0, 0.3, 3.0};
    int k = sccd_rng_int(g, 5);
    sccd_real off = k < 3 ? offsets[k] * tol : (k == 3 ? 1e-6 : sccd_rng_uniform(g, 0.0, 0.5));
    return sccd_v2_mad(p, off, sccd_rng_unit2(g));
}

/* Boxes past the test's discs (the disc about the centre that holds the
 * box meets the sector, the one it holds does not), so its exact path
 * decides: the radial edges against the grown box, the box's part in each
 * convex piece of the wedge. Built where that path is hard: a corner or a
 * side's point on S's boundary or a tolerance off it, aligned with an edge
 * or turned from it by up to 1e-6, long boxes lying along an edge's line,
 * the pivot at a corner, empty and thin boxes, every special angle. Many
 * lie within the band where either answer is right. */
static void test_box_exact_path(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(108);
    int cases = 0, hits = 0, ambiguous = 0;
    while (cases < N_TOUCH) {
        sccd_sector2 s = random_sector(&g);
        sccd_real side = sccd_rng_int(&g, 2) ? 1.0 : -1.0, ang = sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI);
        sccd_v2 edge = sccd_rot2_apply(sccd_rot2_make(side * s.half_angle), s.a), h = {box_half_size(&g), 0.0};
        sccd_real edge_ang = atan2(edge.y, edge.x), sa = sccd_rng_int(&g, 2) ? 1.0 : -1.0;
        h.y = box_half_size(&g);
        sccd_v2 at, off; /* a point of the box, and its offset from the centre in the box's axes */
        switch (sccd_rng_int(&g, 4)) {
        case 0: /* anywhere near */
            at = random_centre_near(&g, &s);
            off = (sccd_v2){0.0, 0.0};
            break;
        case 1: /* long, along an edge's line from a point of it, turned a little */
            at = sccd_v2_mad(s.o, sccd_rng_int(&g, 3) ? sccd_rng_uniform(&g, 0.0, 1.2 * s.R) : 0.0, edge);
            ang = edge_ang + sccd_rng_uniform(&g, -1.0, 1.0) * (sccd_rng_int(&g, 2) ? 0.3 : 1e-6);
            h.x = sccd_rng_uniform(&g, 0.0, s.R);
            off = (sccd_v2){-h.x, -sa * h.y};
            break;
        default: /* a corner or a side's point on S's boundary, aligned with the edge or at quarter turns */
            at = boundary_point(&g, &s, edge);
            if (sccd_rng_int(&g, 2))
                ang = (sccd_rng_int(&g, 2) ? edge_ang : 0.0) + sccd_rng_int(&g, 4) * 0.5 * SCCD_PI;
            off = (sccd_v2){(sccd_rng_int(&g, 3) ? sa : sccd_rng_uniform(&g, -1.0, 1.0)) * h.x,
                            (sccd_rng_int(&g, 2) ? 1.0 : -1.0) * h.y};
            break;
        }
        sccd_rot2 q = sccd_rot2_make(ang);
        sccd_box2 b = {sccd_v2_sub(at, sccd_rot2_apply(q, off)), q, h};
        bool inner = sccd_sector2_vs_circle(&s, (sccd_circle){b.c, 0.999 * sccd_min(h.x, h.y)});
        sccd_real outer = 1.001 * sccd_v2_len(h) + SCCD_EPS * (s.R + sccd_v2_len(h) + 10.0);
        if (inner || !sccd_sector2_vs_circle(&s, (sccd_circle){b.c, outer}))
            continue;
        sccd_shape2 x = {.type = SCCD_SHAPE_BOX, .box = b};
        sccd_sector2_prepared p;
        assert_true(sccd_sector2_prepare(&p, &s));
        bool got = sccd_sector2_vs_box(&s, b);
        assert_int_equal(got, sccd_sector2_prepared_vs_box(&p, b));
        cases++;
        hits += got;
        ambiguous += check_against_oracle(&s, shape_distance, &x, scene(&s, &x), got) == SCCD_TRUTH2_AMBIGUOUS;
    }
    assert_true(hits > cases / 5 && hits < cases * 4 / 5);
    assert_true(ambiguous < cases / 5);
}

static sccd_real point_distance(const void *ctx, sccd_v2 p) { return sccd_v2_dist(*(const sccd_v2 *)ctx, p); }

static void test_point_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(105);
    int hits = 0, ambiguous = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_v2 p = random_centre_near(&g, &s);
        bool got = sccd_sector2_vs_point(&s, p);
        hits += got;
        sccd_real L = sccd_max(s.R, sccd_v2_dist(p, s.o));
        ambiguous += check_against_oracle(&s, point_distance, &p, L, got) == SCCD_TRUTH2_AMBIGUOUS;
        /* The distance agrees with truth2's polar form. */
        assert_true(fabs(sccd_sector2_distance(&s, p) - sccd_truth2_sector_distance(&s, p)) <= 1e-12 * L);
    }
    assert_true(hits > N_RANDOM / 10);
    assert_true(ambiguous < N_RANDOM / 1000);
}

static void test_sector_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(106);
    int ambiguous = 0, hits = 0;
    for (int i = 0; i < N_RANDOM; ++i) {
        sccd_sector2 s = random_sector(&g), t = random_sector(&g);
        t.o = random_centre_near(&g, &s);
        bool got = sccd_sector2_vs_sector2(&s, &t);
        assert_true(got == sccd_sector2_vs_sector2(&t, &s));
        hits += got;
        sccd_real L = sccd_max(s.R, sccd_v2_dist(s.o, t.o) + t.R);
        ambiguous += check_against_oracle(&s, sector_distance, &t, L, got) == SCCD_TRUTH2_AMBIGUOUS;
    }
    assert_true(hits > N_RANDOM / 5 && hits < N_RANDOM * 4 / 5);
    assert_true(ambiguous < N_RANDOM / 1000);
}

/* ---- exact touching, built by hand ---- */

static sccd_v2 dir_at(const sccd_sector2 *s, sccd_real phi) { return sccd_rot2_apply(sccd_rot2_make(phi), s->a); }

/* Touching counts; a gap of 1e-6 of the scene does not; an overlap of 1e-6 does. */
static void test_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(107);
    for (int i = 0; i < N_TOUCH; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_real phi = sccd_rng_uniform(&g, -s.half_angle, s.half_angle);
        sccd_v2 u = dir_at(&s, phi);
        sccd_real L = s.R + 6.0, gap = 1e-6 * L;
        /* A point on the outer arc. */
        assert_true(sccd_sector2_vs_point(&s, sccd_v2_mad(s.o, s.R, u)));
        assert_false(sccd_sector2_vs_point(&s, sccd_v2_mad(s.o, s.R + gap, u)));
        /* A box outside the outer arc with one side tangent to it. */
        sccd_v2 h = {sccd_rng_uniform(&g, 0.0, 3.0), sccd_rng_uniform(&g, 0.0, 3.0)};
        sccd_rot2 q = {u.x, u.y};
        for (int k = -1; k <= 1; ++k) {
            sccd_box2 b = {sccd_v2_mad(s.o, s.R + h.x + k * gap, u), q, h};
            assert_true(sccd_sector2_vs_box(&s, b) == (k <= 0));
        }
        /* A capsule and a rounded polygon on the far side of the tangent at R + radius. */
        sccd_real rad = sccd_rng_uniform(&g, 0.0, 2.0);
        sccd_v2 t = sccd_v2_perp(u), base = sccd_v2_mad(s.o, s.R + rad, u);
        sccd_capsule2 c = {sccd_v2_mad(base, sccd_rng_uniform(&g, -3, 0), t),
                           sccd_v2_mad(base, sccd_rng_uniform(&g, 0, 3), t), rad};
        assert_true(sccd_sector2_vs_capsule(&s, c));
        c.a = sccd_v2_mad(c.a, gap, u);
        c.b = sccd_v2_mad(c.b, gap, u);
        assert_false(sccd_sector2_vs_capsule(&s, c));
        sccd_shape2 x = sccd_truth2_random_shape(&g, SCCD_SHAPE_POLY, (sccd_v2){0, 0}, 2.0);
        sccd_real lo = INFINITY;
        for (int j = 0; j < x.poly.n; ++j)
            lo = sccd_min(lo, sccd_v2_dot(x.poly.v[j], u));
        /* Shift so the lowest vertex along u sits on the tangent at R + r. */
        sccd_real ext = s.R + x.poly.r - lo;
        sccd_v2 at = sccd_v2_add(s.o, sccd_v2_scale(u, ext));
        sccd_real lat = 0.0;
        for (int j = 0; j < x.poly.n; ++j)
            if (sccd_v2_dot(x.poly.v[j], u) == lo)
                lat = sccd_v2_dot(x.poly.v[j], t);
        at = sccd_v2_mad(at, -lat, t);
        for (int j = 0; j < x.poly.n; ++j)
            x.poly.v[j] = sccd_v2_add(x.poly.v[j], at);
        assert_true(sccd_sector2_vs_poly(&s, &x.poly));
        for (int j = 0; j < x.poly.n; ++j)
            x.poly.v[j] = sccd_v2_mad(x.poly.v[j], gap, u);
        assert_false(sccd_sector2_vs_poly(&s, &x.poly));
        /* A circle inside the hole, tangent to the inner arc. */
        if (s.r > 0.0) {
            sccd_real rc = sccd_rng_uniform(&g, 0.0, s.r);
            assert_true(sccd_sector2_vs_circle(&s, (sccd_circle){sccd_v2_mad(s.o, s.r - rc, u), rc}));
            if (rc > 2.0 * gap)
                assert_false(sccd_sector2_vs_circle(&s, (sccd_circle){sccd_v2_mad(s.o, s.r - rc, u), rc - gap}));
        }
        /* A second sector whose outer arc touches this one's from outside. */
        sccd_sector2 o2 = random_sector(&g);
        o2.o = sccd_v2_mad(s.o, s.R + o2.R, u);
        o2.a = sccd_v2_neg(u);
        assert_true(sccd_sector2_vs_sector2(&s, &o2) && sccd_sector2_vs_sector2(&o2, &s));
        o2.o = sccd_v2_mad(o2.o, 2.0 * gap, u);
        assert_false(sccd_sector2_vs_sector2(&s, &o2) || sccd_sector2_vs_sector2(&o2, &s));
    }
}

/* A box lying flat against a radial edge from outside (half angle ≤ π/2). */
static void test_touching_edge(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(108);
    for (int i = 0; i < N_TOUCH; ++i) {
        sccd_sector2 s = random_sector(&g);
        s.half_angle = sccd_min(s.half_angle, 0.5 * SCCD_PI);
        sccd_real side = sccd_rng_int(&g, 2) ? 1.0 : -1.0, gap = 1e-6 * (s.R + 6.0);
        sccd_v2 e = dir_at(&s, side * s.half_angle), out = sccd_v2_scale(sccd_v2_perp(e), side);
        sccd_real along = sccd_rng_uniform(&g, s.r, s.R), hy = sccd_rng_uniform(&g, 0.0, 2.0);
        sccd_box2 b = {sccd_v2_add(sccd_v2_mad(s.o, along, e), sccd_v2_scale(out, hy)), {e.x, e.y},
                       {sccd_rng_uniform(&g, 0.0, 0.5 * (s.R - s.r)), hy}};
        assert_true(sccd_sector2_vs_box(&s, b));
        b.c = sccd_v2_mad(b.c, gap, out);
        assert_false(sccd_sector2_vs_box(&s, b));
        b.c = sccd_v2_mad(b.c, -2.0 * gap, out);
        assert_true(sccd_sector2_vs_box(&s, b));
    }
}

/* ---- constructions, frame, thesis tests ---- */

static void test_thesis_construction(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(109);
    for (int i = 0; i < 10000; ++i) {
        /* The thesis' constraint: pivot on the box's local y axis, outside the box. */
        sccd_box2 b = {sccd_rng_v2(&g, 5), sccd_rot2_make(sccd_rng_uniform(&g, -3, 3)),
                       {sccd_rng_uniform(&g, 0, 2), sccd_rng_uniform(&g, 0, 2)}};
        sccd_v2 y = sccd_rot2_apply(b.q, (sccd_v2){0, 1});
        sccd_real dist = b.h.y + sccd_rng_uniform(&g, 0, 5);
        sccd_v2 pivot = sccd_v2_mad(b.c, -dist, y);
        sccd_real alpha = sccd_rng_uniform(&g, -2.0 * SCCD_PI, 2.0 * SCCD_PI);
        sccd_sector2 s = sccd_sector2_thesis(b, pivot, alpha);
        assert_true(sccd_is_valid_sector2(&s));
        assert_true(fabs(s.half_angle - 0.5 * fabs(alpha)) < 1e-12 && fabs(s.r - (dist - b.h.y)) < 1e-9 &&
                    fabs(s.R - (dist + b.h.y)) < 1e-9);
        /* eq 2.1 bounds the box's mid line along y over the whole turn. */
        for (int k = 0; k <= 10; ++k) {
            sccd_real t = k / 10.0, w = sccd_rng_uniform(&g, -1, 1);
            sccd_v2 p = sccd_v2_mad(b.c, w * b.h.y, y);
            sccd_v2 turned = sccd_v2_add(pivot, sccd_rot2_apply(sccd_rot2_make(t * alpha), sccd_v2_sub(p, pivot)));
            assert_true(sccd_sector2_vs_point(&s, turned));
        }
    }
    /* P = O: the box's own y is the start direction. */
    sccd_box2 b = {{1, 2}, {0, 1}, {1, 1}};
    sccd_sector2 s = sccd_sector2_thesis(b, b.c, 0.0);
    assert_true(s.r == 0.0 && s.R == 1.0 && fabs(s.a.x + 1.0) < 1e-15);
}

static void test_from_edges(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(110);
    for (int i = 0; i < 10000; ++i) {
        sccd_v2 o = sccd_rng_v2(&g, 5), u1 = sccd_rng_unit2(&g);
        sccd_real turn = sccd_rng_uniform(&g, 0.0, 1.99 * SCCD_PI), r = sccd_rng_uniform(&g, 0, 2);
        sccd_real R = r + sccd_rng_uniform(&g, 0.01, 3);
        sccd_v2 u2 = sccd_rot2_apply(sccd_rot2_make(turn), u1);
        sccd_sector2 s = sccd_sector2_from_edges(o, sccd_v2_mad(o, r, u1), sccd_v2_mad(o, R, u1),
                                                 sccd_v2_mad(o, r, u2), sccd_v2_mad(o, R, u2));
        assert_true(fabs(s.half_angle - 0.5 * turn) < 1e-9 && fabs(s.r - r) < 1e-12 && fabs(s.R - R) < 1e-12);
        /* seed 002 eqs 2.1–2.3: points between the edges, counter-clockwise, are inside. */
        sccd_real f = sccd_rng_uniform(&g, 0, 1);
        sccd_v2 p = sccd_v2_mad(o, r + f * (R - r), sccd_rot2_apply(sccd_rot2_make(f * turn), u1));
        assert_true(sccd_sector2_vs_point(&s, p));
    }
}

static void test_to_local(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(111);
    for (int i = 0; i < 10000; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_v2 q = sccd_rng_v2(&g, 10);
        /* eq 2.3 as a 3×3 matrix with U = z, K = U × A. */
        double A[3] = {s.a.x, s.a.y, 0}, U[3] = {0, 0, 1};
        double K[3] = {U[1] * A[2] - U[2] * A[1], U[2] * A[0] - U[0] * A[2], U[0] * A[1] - U[1] * A[0]};
        double d[3] = {q.x - s.o.x, q.y - s.o.y, 0};
        sccd_v2 want = {A[0] * d[0] + A[1] * d[1] + A[2] * d[2], K[0] * d[0] + K[1] * d[1] + K[2] * d[2]};
        assert_true(sccd_v2_dist(sccd_sector2_to_local(&s, q), want) < 1e-12);
    }
}

static void test_aabb(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(112);
    for (int i = 0; i < 10000; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_aabb2 b = sccd_sector2_aabb(&s);
        /* Holds every point of the sector, and is touched by some on each side. */
        sccd_aabb2 seen = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
        for (int k = 0; k < 400; ++k) {
            sccd_real rho = k % 2 ? s.R : sccd_rng_uniform(&g, s.r, s.R);
            sccd_v2 p = sccd_v2_mad(s.o, rho, dir_at(&s, sccd_rng_uniform(&g, -s.half_angle, s.half_angle)));
            assert_true(p.x >= b.lo.x - 1e-12 && p.x <= b.hi.x + 1e-12 && p.y >= b.lo.y - 1e-12 && p.y <= b.hi.y + 1e-12);
            seen = sccd_aabb2_union(seen, (sccd_aabb2){p, p});
        }
        assert_true(seen.lo.x - b.lo.x < 0.1 * s.R && b.hi.x - seen.hi.x < 0.1 * s.R);
    }
}

/* The thesis' rectangle test (§2.3) agrees with the exact one on random cases;
 * its circle test (§2.4) too while the circle is no bigger than the hole, and
 * misses the circles bigger than the hole (eq 2.8's flaw). */
static void test_thesis_tests(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(113);
    int flaw = 0;
    for (int i = 0; i < N_RANDOM / 2; ++i) {
        sccd_sector2 s = random_sector(&g);
        sccd_shape2 x = sccd_truth2_random_shape(&g, SCCD_SHAPE_BOX, random_centre_near(&g, &s), 3.0);
        /* The thesis' containment step (eq 2.40) takes a zero-size rectangle for everything. */
        if (x.box.h.x > 1e-3 && x.box.h.y > 1e-3)
            assert_true(sccd_sector2_vs_box_thesis(&s, x.box) == sccd_sector2_vs_box(&s, x.box));
        sccd_circle c = {random_centre_near(&g, &s), sccd_rng_uniform(&g, 0, 3)};
        if (c.r <= s.r)
            assert_true(sccd_sector2_vs_circle_thesis(&s, c) == sccd_sector2_vs_circle(&s, c));
        if (s.r > 0.0) { /* centred in the hole and bigger than it */
            sccd_circle big = {s.o, sccd_rng_uniform(&g, 1.01 * s.r + 1e-3, 3.0 * s.r + 1e-3)};
            assert_true(sccd_sector2_vs_circle(&s, big));
            flaw += !sccd_sector2_vs_circle_thesis(&s, big);
        }
    }
    assert_true(flaw > 1000);
}

/* ---- degenerate sectors and bad input ---- */

static void test_degenerate(void **state)
{
    (void)state;
    /* Zero half angle: a radial segment from (1, 0) to (2, 0). */
    sccd_sector2 seg = {{0, 0}, {1, 0}, 0.0, 1.0, 2.0};
    assert_true(sccd_sector2_vs_point(&seg, (sccd_v2){1.5, 0}));
    assert_false(sccd_sector2_vs_point(&seg, (sccd_v2){1.5, 1e-6}));
    assert_false(sccd_sector2_vs_point(&seg, (sccd_v2){-1.5, 0}));
    assert_true(sccd_sector2_vs_circle(&seg, (sccd_circle){{1.5, 0.5}, 0.5}));
    assert_false(sccd_sector2_vs_circle(&seg, (sccd_circle){{-1.5, 0.0}, 0.4}));
    sccd_box2 across = {{1.5, 0}, {1, 0}, {0.1, 0.1}}, behind = {{-1.5, 0}, {1, 0}, {0.4, 0.4}};
    assert_true(sccd_sector2_vs_box(&seg, across));
    assert_false(sccd_sector2_vs_box(&seg, behind));
    /* r = R: an arc. */
    sccd_sector2 arc = {{0, 0}, {0, 1}, 0.5, 2.0, 2.0};
    assert_true(sccd_sector2_vs_point(&arc, (sccd_v2){0, 2}));
    assert_false(sccd_sector2_vs_point(&arc, (sccd_v2){0, 1.9}));
    assert_false(sccd_sector2_vs_box(&arc, (sccd_box2){{0, 0}, {1, 0}, {1, 1}}));
    assert_true(sccd_sector2_vs_box(&arc, (sccd_box2){{0, 0}, {1, 0}, {1, 2}}));
    /* R = 0: the point o. */
    sccd_sector2 pt = {{1, 1}, {1, 0}, 1.0, 0.0, 0.0};
    assert_true(sccd_sector2_vs_point(&pt, (sccd_v2){1, 1}));
    assert_true(sccd_sector2_vs_sector2(&pt, &pt));
    assert_false(sccd_sector2_vs_circle(&pt, (sccd_circle){{2, 1}, 0.99}));
    assert_true(sccd_sector2_vs_capsule(&pt, (sccd_capsule2){{0, 0}, {2, 2}, 0.0}));
    /* Zero-size shapes. */
    sccd_sector2 s = {{0, 0}, {1, 0}, 1.0, 1.0, 2.0};
    assert_true(sccd_sector2_vs_box(&s, (sccd_box2){{1.5, 0}, {1, 0}, {0, 0}}));
    assert_false(sccd_sector2_vs_box(&s, (sccd_box2){{0.5, 0}, {1, 0}, {0, 0}}));
    assert_true(sccd_sector2_vs_capsule(&s, (sccd_capsule2){{1.5, 0}, {1.5, 0}, 0}));
    sccd_poly2 one = {1, {{1.5, 0.1}}, 0.0};
    assert_true(sccd_sector2_vs_poly(&s, &one));
    /* The full annulus and its hole. */
    sccd_sector2 ring = {{0, 0}, {1, 0}, SCCD_PI, 1.0, 2.0};
    assert_true(sccd_sector2_vs_point(&ring, (sccd_v2){-1.5, 0}));
    assert_false(sccd_sector2_vs_circle(&ring, (sccd_circle){{0, 0}, 0.9}));
    assert_true(sccd_sector2_vs_circle(&ring, (sccd_circle){{0, 0}, 1.1}));
    assert_false(sccd_sector2_vs_box(&ring, (sccd_box2){{0, 0}, {1, 0}, {0.5, 0.5}}));
    /* The convex-hull entry takes points in any order. */
    sccd_v2 cw[4] = {{1.4, 0.1}, {1.6, 0.1}, {1.6, -0.1}, {1.4, -0.1}};
    assert_true(sccd_sector2_vs_convex(&s, cw, 4, 0.0));
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_sector2 good = {{0, 0}, {1, 0}, 1.0, 0.0, 2.0};
    sccd_sector2 bad[] = {{{NAN, 0}, {1, 0}, 1.0, 0.0, 2.0}, {{0, 0}, {2, 0}, 1.0, 0.0, 2.0},
                          {{0, 0}, {1, 0}, 4.0, 0.0, 2.0},   {{0, 0}, {1, 0}, -0.1, 0.0, 2.0},
                          {{0, 0}, {1, 0}, 1.0, 3.0, 2.0},   {{0, 0}, {1, 0}, 1.0, 0.0, INFINITY}};
    int expected = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_false(sccd_is_valid_sector2(&bad[i]));
        assert_false(sccd_sector2_vs_point(&bad[i], (sccd_v2){0.5, 0}));
        assert_false(sccd_sector2_vs_circle(&bad[i], (sccd_circle){{0.5, 0}, 1}));
        assert_false(sccd_sector2_vs_sector2(&bad[i], &good));
        assert_false(sccd_sector2_vs_sector2(&good, &bad[i]));
        assert_true(isinf(sccd_sector2_distance(&bad[i], (sccd_v2){0, 0})));
        sccd_aabb2 b = sccd_sector2_aabb(&bad[i]);
        assert_true(sccd_is_valid_aabb2(b));
        sccd_v2 l = sccd_sector2_to_local(&bad[i], (sccd_v2){1, 1});
        assert_true(l.x == 0.0 && l.y == 0.0);
        expected += 7;
    }
    assert_int_equal(sccd_test_assert_count(), expected);
    assert_false(sccd_sector2_vs_circle(&good, (sccd_circle){{0.5, 0}, -1}));
    assert_false(sccd_sector2_vs_box(&good, (sccd_box2){{0.5, 0}, {1, 0}, {NAN, 1}}));
    assert_false(sccd_sector2_vs_capsule(&good, (sccd_capsule2){{0.5, 0}, {INFINITY, 0}, 0}));
    sccd_poly2 concave = {4, {{0, 0}, {1, 0}, {0.2, 0.2}, {0, 1}}, 0.0};
    assert_false(sccd_sector2_vs_poly(&good, &concave));
    assert_false(sccd_sector2_vs_convex(&good, NULL, 1, 0.0));
    sccd_v2 many[SCCD_SECTOR2_CONVEX_MAX + 1] = {{0, 0}};
    assert_false(sccd_sector2_vs_convex(&good, many, SCCD_SECTOR2_CONVEX_MAX + 1, 0.0));
    assert_false(sccd_sector2_vs_box_thesis(&good, (sccd_box2){{0.5, 0}, {2, 0}, {1, 1}}));
    assert_false(sccd_sector2_vs_circle_thesis(&good, (sccd_circle){{NAN, 0}, 1}));
    expected += 8;
    /* Constructors: a defined point sector. */
    sccd_sector2 s = sccd_sector2_thesis((sccd_box2){{0, 0}, {1, 0}, {1, -1}}, (sccd_v2){1, 2}, 1.0);
    assert_true(sccd_is_valid_sector2(&s) && s.R == 0.0 && s.o.x == 1.0);
    s = sccd_sector2_thesis((sccd_box2){{0, 0}, {1, 0}, {1, 1}}, (sccd_v2){NAN, 2}, 1.0);
    assert_true(sccd_is_valid_sector2(&s) && s.R == 0.0);
    s = sccd_sector2_from_edges((sccd_v2){0, 0}, (sccd_v2){1, 0}, (sccd_v2){NAN, 0}, (sccd_v2){0, 1},
                                (sccd_v2){0, 2});
    assert_true(sccd_is_valid_sector2(&s) && s.R == 0.0);
    expected += 3;
    assert_int_equal(sccd_test_assert_count(), expected);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_random),        cmocka_unit_test(test_circle_random),
        cmocka_unit_test(test_box_random),          cmocka_unit_test(test_capsule_random),
        cmocka_unit_test(test_poly_random),         cmocka_unit_test(test_capsule_exact_path),
        cmocka_unit_test(test_box_exact_path),      cmocka_unit_test(test_sector_random),
        cmocka_unit_test(test_touching),            cmocka_unit_test(test_touching_edge),
        cmocka_unit_test(test_thesis_construction), cmocka_unit_test(test_from_edges),
        cmocka_unit_test(test_to_local),            cmocka_unit_test(test_aabb),
        cmocka_unit_test(test_thesis_tests),        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_bad_input),           cmocka_unit_test(test_scaled_scenes),
    };
    return cmocka_run_group_tests_name("sector2", tests, NULL, NULL);
}
