/* The 2D impact solver (impact.h) without an engine, against closed forms
 * and against geometry written here (segment distances, dense sampling):
 * - a still ball off a kinematic bat leaves at (1 + e) × the bat's normal
 *   surface speed at the impact pose, whatever the phase of the impact;
 * - a hinged rod off a wall rebounds at −e·ω and stays on its hinge;
 * - random scenes of free and hinged bodies: kinetic energy never grows;
 * - hinged rods and flyers against thin walls, 0.5–600 rad/s, stepped for
 *   many steps with the results fed back: the rod's angle never leaves the
 *   free interval it started in (found by dense sampling), a flyer's centre
 *   never crosses a long wall's line;
 * - a blade hinged at its middle batting a ball: the ball never crosses an arm;
 * - two balls whose boxes parted at one impact and met again at a later
 *   one: they do not pass through each other;
 * - a heavy blade or a kinematic rotor pushing into a cluster of balls:
 *   each fallback stop ends a chain (at most two a body in a solve), no
 *   ball crosses the blade;
 * - the hooks: begin may refuse a pair (it then passes) or change the
 *   restitution; post sees the impulse the ball took;
 * - bodies gathered mid-step: a solve that asks for the bodies an impact
 *   set moving may reach ends as the solve given them all at the start, bit
 *   for bit (a field of bodies struck again and again too, whose balls ask
 *   again about grown boxes); a bad body appended fails the solve with
 *   defined results;
 * - bad input: a defined result and the assert handler;
 * - built again as test_impact2_last (Makefile), the event loop's guard at
 *   two events a step: the tests that judge passes and energy hold when
 *   every busy step ends in the loop's last stops. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sectorccd/sectorccd.h"
#include "test_util.h"
#include "push_oracle.h"
#include "../core/src/unchecked.h"

#define DT (1.0 / 60.0)

static sccd_impact_scratch scratch;

static sccd_ccd_options options(double skin) { return sccd_ccd_options_default(skin); }

/* ---- independent geometry ---- */

static double clamp01(double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* Distance from p to segment ab. */
static double point_segment(sccd_v2 p, sccd_v2 a, sccd_v2 b)
{
    sccd_v2 ab = sccd_v2_sub(b, a);
    double l2 = sccd_v2_len2(ab);
    double u = l2 > 0.0 ? clamp01(sccd_v2_dot(sccd_v2_sub(p, a), ab) / l2) : 0.0;
    return sccd_v2_dist(p, sccd_v2_mad(a, u, ab));
}

static bool segments_cross(sccd_v2 a, sccd_v2 b, sccd_v2 c, sccd_v2 d)
{
    double d1 = sccd_v2_cross(sccd_v2_sub(b, a), sccd_v2_sub(c, a)), d2 = sccd_v2_cross(sccd_v2_sub(b, a), sccd_v2_sub(d, a));
    double d3 = sccd_v2_cross(sccd_v2_sub(d, c), sccd_v2_sub(a, c)), d4 = sccd_v2_cross(sccd_v2_sub(d, c), sccd_v2_sub(b, c));
    return d1 * d2 < 0.0 && d3 * d4 < 0.0;
}

/* Distance of two segments (0 when they cross). */
static double segment_segment(sccd_v2 a, sccd_v2 b, sccd_v2 c, sccd_v2 d)
{
    if (segments_cross(a, b, c, d))
        return 0.0;
    return fmin(fmin(point_segment(a, c, d), point_segment(b, c, d)), fmin(point_segment(c, a, b), point_segment(d, a, b)));
}

/* Signed gap of two capsules placed by xa, xb (negative: overlap depth). */
static double capsule_gap(sccd_capsule2 a, sccd_xf2 xa, sccd_capsule2 b, sccd_xf2 xb)
{
    return segment_segment(sccd_xf2_apply(xa, a.a), sccd_xf2_apply(xa, a.b), sccd_xf2_apply(xb, b.a), sccd_xf2_apply(xb, b.b)) -
           a.r - b.r;
}

/* ---- scene building ---- */

typedef struct scene {
    sccd_impact_body2 body[8];
    sccd_impact_shape2 shape[8];
    int n;
} scene;

/* Add a body with one shape; returns its index. */
static int add(scene *s, sccd_body_kind kind, sccd_shape2 geom, sccd_v2 at, double angle, double mass, double inertia)
{
    int i = s->n++;
    s->body[i] = (sccd_impact_body2){.kind = kind, .ccd = kind != SCCD_BODY_STATIC, .pose = {at, sccd_rot2_make(angle)},
                                     .angle = angle, .inv_mass = kind == SCCD_BODY_DYNAMIC ? 1.0 / mass : 0.0,
                                     .inv_inertia = kind == SCCD_BODY_DYNAMIC ? 1.0 / inertia : 0.0,
                                     .first_shape = i, .shape_count = 1};
    s->shape[i] = (sccd_impact_shape2){geom, i, 1.0, 0.0};
    return i;
}

static sccd_shape2 capsule(sccd_v2 a, sccd_v2 b, double r)
{
    return (sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = {a, b, r}};
}

static sccd_shape2 circle(double r) { return (sccd_shape2){.type = SCCD_SHAPE_CIRCLE, .circle = {{0.0, 0.0}, r}}; }

static void solve(scene *s, double skin, const sccd_impact_callbacks2 *cb)
{
    sccd_ccd_options o = options(skin);
    assert_true(sccd_impact2_solve(s->body, s->n, s->shape, s->n, DT, &o, cb, &scratch, NULL));
}

/* Feed the results back as the next step's start. */
static void advance(scene *s)
{
    for (int i = 0; i < s->n; ++i) {
        sccd_impact_body2 *b = &s->body[i];
        b->pose = b->end_pose;
        b->angle = b->end_angle;
        b->v = b->end_v;
        b->w = b->end_w;
    }
}

static double kinetic(const scene *s)
{
    double e = 0.0;
    for (int i = 0; i < s->n; ++i) {
        const sccd_impact_body2 *b = &s->body[i];
        if (b->kind == SCCD_BODY_DYNAMIC)
            e += 0.5 * sccd_v2_len2(b->end_v) / b->inv_mass + 0.5 * b->end_w * b->end_w / b->inv_inertia;
    }
    return e;
}

static double kinetic_start(const scene *s)
{
    double e = 0.0;
    for (int i = 0; i < s->n; ++i) {
        const sccd_impact_body2 *b = &s->body[i];
        if (b->kind == SCCD_BODY_DYNAMIC)
            e += 0.5 * sccd_v2_len2(b->v) / b->inv_mass + 0.5 * b->w * b->w / b->inv_inertia;
    }
    return e;
}

/* ---- closed forms ---- */

/* A kinematic capsule bat (pivot at its end) turning at w hits a still
 * ball at the fraction f of the step: the ball leaves along the bat's face
 * normal at (1 + e)·w·x, x the contact's distance along the bat. */
static void bat_case(double w, double e, double f, double *err)
{
    const double len = 1.0, hb = 0.03, r = 0.05, rho = 0.7, skin = 1e-4;
    scene s = {0};
    int bat = add(&s, SCCD_BODY_KINEMATIC, capsule((sccd_v2){0, 0}, (sccd_v2){len, 0}, hb), (sccd_v2){0, 0}, 0.0, 1, 1);
    double hit = f * w * DT, phi = hit + asin((hb + r) / rho);
    int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){rho * cos(phi), rho * sin(phi)}, 0.0, 1.0, 0.5 * r * r);
    s.body[bat].w = w;
    s.body[ball].ccd = false;
    s.shape[bat].elasticity = e;
    solve(&s, skin, NULL);
    double x = rho * cos(phi - hit);
    sccd_v2 n = {-sin(hit), cos(hit)}, want = sccd_v2_scale(n, (1.0 + e) * w * x);
    *err = sccd_v2_dist(s.body[ball].end_v, want) / sccd_v2_len(want);
    assert_int_equal(s.body[ball].impacts, 1);
    /* nothing passed: the ball ends outside the bat's end pose */
    sccd_capsule2 cb = s.shape[bat].geom.capsule, cball = {{0, 0}, {0, 0}, r};
    assert_true(capsule_gap(cb, s.body[bat].end_pose, cball, s.body[ball].end_pose) > -1e-9);
}

static void test_bat_exit_velocity(void **state)
{
    (void)state;
    const double speeds[] = {5, 20, 50, 100, 200, 400}, es[] = {0.3, 0.6, 0.9};
    double worst = 0.0;
    for (int k = 0; k < 6; ++k)
        for (int j = 0; j < 3; ++j)
            for (int p = 0; p < 16; ++p) {
                double err;
                bat_case(speeds[k], es[j], (p + 0.5) / 16.0, &err);
                worst = fmax(worst, err);
            }
    printf("impact2: bat vs still ball, 288 cases: worst exit velocity error %.2e\n", worst);
    assert_true(worst < 2e-3); /* the skin (1e-4) moves the impact a hair early */
}

/* A kinematic capsule bat (1 long, radius 0.03, turning at w about its
 * end) meets a still ball (r 0.05, mass 1, a disc) at 0.75 along it at the
 * fraction f of the first step, with restitution 0 and friction 0.3: it
 * pushes the ball, which slides out along its face and leaves past its
 * end; the bat stops once it has turned 1 rad past the meeting. The ball's
 * velocity two steps after the stop against push_oracle's brute force of
 * the same scene (its relative error); *deepest: the ball's deepest
 * overlap with the bat at a step's end. */
static double pushed_ball_error(double w, double f, double *deepest)
{
    const double len = 1.0, half = 0.03, r = 0.05, skin = 1e-4;
    scene s = {0};
    double angle = -f * w * DT;
    int bat = add(&s, SCCD_BODY_KINEMATIC, capsule((sccd_v2){0, 0}, (sccd_v2){len, 0}, half), (sccd_v2){0, 0}, angle, 1, 1);
    int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){0.75, half + r}, 0.0, 1.0, 0.5 * r * r);
    s.body[bat].w = w;
    s.shape[bat].elasticity = s.shape[ball].elasticity = 0.0;
    s.shape[bat].friction = 0.3;
    s.shape[ball].friction = 1.0;
    int steps = 0, stop = -1;
    *deepest = 0.0;
    for (; stop < 0 || steps < stop + 2; ++steps) {
        if (stop < 0 && s.body[bat].angle >= 1.0) {
            stop = steps;
            s.body[bat].w = 0.0;
        }
        solve(&s, skin, NULL);
        sccd_capsule2 cb = s.shape[bat].geom.capsule, cball = {{0, 0}, {0, 0}, r};
        *deepest = fmax(*deepest, -capsule_gap(cb, s.body[bat].end_pose, cball, s.body[ball].end_pose));
        advance(&s);
    }
    sccd_push_scene ps = {len, half, angle, w, stop * DT, r, 0.5 * r * r, 0.3, {0.75, half + r}, {0, 0}};
    sccd_v2 p, v;
    sccd_push_oracle(&ps, steps * DT, &p, &v);
    return sccd_v2_dist(s.body[ball].v, v) / sccd_v2_len(v);
}

/* The push followed in impulses (the pair not searched while it provably
 * cannot sink past its room share, then pushed again): the ball leaves as
 * the brute force says (measured: at most 1.9 % off over these 30 cases,
 * median 0.9 %) and never sinks past its room share.
 * Carried rigidly along with the bat instead (no pushes), it lost its
 * slide at every carry: median 61 % off, worst 100 %. */
static void test_pushed_ball_slides_off(void **state)
{
    (void)state;
    double median, worst, deepest;
    sccd_test_pushed_ball(pushed_ball_error, &median, &worst, &deepest);
    printf("impact2: pushed ball, 30 cases: exit velocity error median %.2f %%, worst %.2f %%; deepest overlap %.4f\n", 100.0 * median,
           100.0 * worst, deepest);
    assert_true(median < 0.035);
    assert_true(worst < 0.07);
    assert_true(deepest < 0.35 * (0.03 + 0.05)); /* the room share (impact_internal.h) of what both can shrink */
}

/* A rod hinged at its end spins at w into a thin wall at the fraction f of
 * the step: it rebounds at −e·w and its hinge stays where it was. */
static void test_hinged_rod_rebound(void **state)
{
    (void)state;
    const double len = 2.0, r = 0.02, wall_r = 0.005, m = 1.0, skin = 1e-4;
    const double speeds[] = {5, 20, 50, 200, 600};
    double worst = 0.0;
    for (int k = 0; k < 5; ++k)
        for (int p = 0; p < 16; ++p) {
            double w = speeds[k], e = 0.5, f = (p + 0.5) / 16.0;
            double block = 1.0 - asin((r + wall_r) / 0.4);          /* the rod's angle when it touches the wall */
            scene s = {0};
            int rod = add(&s, SCCD_BODY_DYNAMIC, capsule((sccd_v2){0, 0}, (sccd_v2){len, 0}, r), (sccd_v2){0, 0},
                          block - f * w * DT, m, m * len * len / 12.0);
            s.body[rod].cog = (sccd_v2){0.5 * len, 0.0};
            s.body[rod].hinged = true;
            s.body[rod].w = w;
            add(&s, SCCD_BODY_STATIC, capsule((sccd_v2){0.4 * cos(1.0), 0.4 * sin(1.0)}, (sccd_v2){3.0 * cos(1.0), 3.0 * sin(1.0)}, wall_r),
                (sccd_v2){0, 0}, 0.0, 1, 1);
            s.shape[rod].elasticity = e;
            solve(&s, skin, NULL);
            worst = fmax(worst, fabs(s.body[rod].end_w + e * w) / (e * w));
            assert_true(sccd_v2_len(sccd_xf2_apply(s.body[rod].end_pose, (sccd_v2){0, 0})) < 1e-12); /* on its hinge */
            assert_true(s.body[rod].end_angle < block + 1e-9);
            /* the hinged body's velocity is the turn about the hinge */
            assert_true(sccd_v2_dist(s.body[rod].end_v, sccd_v2_scale(sccd_v2_perp(sccd_rot2_apply(s.body[rod].end_pose.q, s.body[rod].cog)),
                                                                     s.body[rod].end_w)) < 1e-9 * w);
        }
    printf("impact2: hinged rod vs thin wall, 80 cases: worst rebound error %.2e\n", worst);
    assert_true(worst < 1e-9);
}

/* ---- random scenes ---- */

static double log_uniform(sccd_rng *g, double lo, double hi) { return lo * pow(hi / lo, sccd_rng_uniform(g, 0.0, 1.0)); }

static sccd_shape2 random_shape(sccd_rng *g, double size)
{
    sccd_shape2 s = {0};
    switch (sccd_rng_int(g, 4)) {
    case 0: return circle(size * sccd_rng_uniform(g, 0.1, 0.5));
    case 1: return capsule((sccd_v2){-size, 0}, (sccd_v2){size, 0}, size * sccd_rng_uniform(g, 0.01, 0.2));
    case 2:
        s.type = SCCD_SHAPE_BOX;
        s.box = (sccd_box2){{0, 0}, sccd_rot2_identity(), {size, size * sccd_rng_uniform(g, 0.02, 0.5)}};
        return s;
    default:
        s.type = SCCD_SHAPE_POLY;
        s.poly.n = 3 + sccd_rng_int(g, 5);
        for (int i = 0; i < s.poly.n; ++i) {
            double a = 2.0 * SCCD_PI * (i + sccd_rng_uniform(g, 0.0, 0.8)) / s.poly.n;
            s.poly.v[i] = (sccd_v2){size * cos(a), size * 0.6 * sin(a)};
        }
        s.poly.r = size * sccd_rng_uniform(g, 0.0, 0.05);
        return s;
    }
}

/* Whether box a holds box b (to rounding). */
static bool holds(sccd_aabb2 a, sccd_aabb2 b)
{
    const double e = 1e-9;
    return a.lo.x <= b.lo.x + e && a.lo.y <= b.lo.y + e && b.hi.x <= a.hi.x + e && b.hi.y <= a.hi.y + e;
}

/* Random dynamic bodies (free and hinged) and static walls, packed close:
 * energy (dynamic bodies only: nothing kinematic feeds it) never grows, and
 * each body's `swept` box holds its shape at the start and the end pose. */
/* 2 to 6 random bodies within a unit of the origin, free or hinged,
 * spinning at 0.5–600 rad/s, a static wall now and then. */
static scene random_scene(sccd_rng *g)
{
    scene s = {0};
    int n = 2 + sccd_rng_int(g, 5);
    for (int i = 0; i < n; ++i) {
        bool wall = i > 0 && sccd_rng_int(g, 4) == 0;
        double size = sccd_rng_uniform(g, 0.05, 0.6), m = sccd_rng_uniform(g, 0.2, 5.0);
        int b = add(&s, wall ? SCCD_BODY_STATIC : SCCD_BODY_DYNAMIC, random_shape(g, size), sccd_rng_v2(g, 1.0),
                    sccd_rng_uniform(g, -3, 3), m, m * size * size * sccd_rng_uniform(g, 0.1, 0.5));
        s.shape[b].elasticity = sccd_rng_uniform(g, 0.0, 1.0);
        s.shape[b].friction = sccd_rng_uniform(g, 0.0, 1.0);
        if (wall)
            continue;
        s.body[b].w = (sccd_rng_int(g, 2) ? 1 : -1) * log_uniform(g, 0.5, 600.0);
        s.body[b].cog = sccd_rng_v2(g, 0.5 * size);
        s.body[b].pivot = s.body[b].cog;
        if (sccd_rng_int(g, 2)) { /* hinged somewhere in or around it, velocity consistent */
            s.body[b].hinged = true;
            s.body[b].hinge = sccd_rng_v2(g, 1.5 * size);
            sccd_v2 arm = sccd_rot2_apply(s.body[b].pose.q, sccd_v2_sub(s.body[b].cog, s.body[b].hinge));
            s.body[b].v = sccd_v2_scale(sccd_v2_perp(arm), s.body[b].w);
        } else {
            s.body[b].v = sccd_v2_scale(sccd_rng_unit2(g), log_uniform(g, 0.01, 50.0));
        }
    }
    return s;
}

static void test_energy_never_grows(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(1313);
    int impacts = 0;
    double worst = 0.0;
    for (int trial = 0; trial < 3000; ++trial) {
        scene s = random_scene(&g);
        double before = kinetic_start(&s);
        solve(&s, 1e-3, NULL);
        double after = kinetic(&s);
        for (int i = 0; i < s.n; ++i) {
            impacts += s.body[i].impacts;
            assert_true(holds(s.body[i].swept, sccd_shape2_aabb(&s.shape[i].geom, s.body[i].pose)));
            assert_true(holds(s.body[i].swept, sccd_shape2_aabb(&s.shape[i].geom, s.body[i].end_pose)));
        }
        worst = fmax(worst, after / before - 1.0);
    }
    printf("impact2: 3000 random scenes, %d body impacts: largest energy change %+.2e\n", impacts, worst);
    assert_true(impacts > 1000);
    assert_true(worst < 1e-9);
}

/* Whether v·k is w, bit for bit. */
static bool same_scaled(sccd_v2 v, double k, sccd_v2 w)
{
    sccd_v2 x = sccd_v2_scale(v, k);
    return memcmp(&x, &w, sizeof x) == 0;
}

/* The same random scenes (test_energy_never_grows') in other units of
 * length, 2^-100 to 2^100 times the scene (every place, size, velocity
 * and the contact skin; inertia × k²): every body ends at the places and
 * velocities of the scene at unit scale times k, bit for bit, spins alike
 * (powers of 2 scale without rounding: any part of the solver that was not
 * in units of the scene would show; beyond the range, at 2^±300, scenes
 * end otherwise: squares of lengths near the doubles' limits). */
static void test_units_of_length(void **state)
{
    (void)state;
    static const int powers[] = {-100, -20, -6, 1, 10, 20, 100};
    sccd_rng g = sccd_rng_make(1314);
    int impacts = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        scene s = random_scene(&g);
        solve(&s, 1e-3, NULL);
        for (int i = 0; i < s.n; ++i)
            impacts += s.body[i].impacts;
        for (int p = 0; p < 7; ++p) {
            double k = ldexp(1.0, powers[p]);
            scene t = s;
            for (int i = 0; i < t.n; ++i) {
                sccd_impact_body2 *b = &t.body[i];
                b->pose.p = sccd_v2_scale(b->pose.p, k);
                b->cog = sccd_v2_scale(b->cog, k);
                b->pivot = sccd_v2_scale(b->pivot, k);
                b->hinge = sccd_v2_scale(b->hinge, k);
                b->v = sccd_v2_scale(b->v, k);
                b->inv_inertia /= k * k;
                t.shape[i].geom = sccd_shape2_scaled(t.shape[i].geom, k);
            }
            sccd_ccd_options o = options(1e-3);
            o.overlap *= k;
            o.toi_tolerance *= k;
            assert_true(sccd_impact2_solve(t.body, t.n, t.shape, t.n, DT, &o, NULL, &scratch, NULL));
            for (int i = 0; i < s.n; ++i) {
                const sccd_impact_body2 *a = &s.body[i], *b = &t.body[i];
                if (!same_scaled(a->end_pose.p, k, b->end_pose.p) || !same_scaled(a->end_v, k, b->end_v) ||
                    memcmp(&a->end_w, &b->end_w, sizeof a->end_w) != 0 || memcmp(&a->end_pose.q, &b->end_pose.q, sizeof a->end_pose.q) != 0)
                    fail_msg("scene %d at 2^%d: body %d ends at x %.17g, not %.17g (w %.17g, not %.17g)", trial, powers[p], i,
                             b->end_pose.p.x / k, a->end_pose.p.x, b->end_w, a->end_w);
            }
        }
    }
    printf("impact2: 3000 random scenes (%d body impacts) in units 2^-100, 2^-20, 2^-6, 2, 2^10, 2^20 and 2^100 of length: the same motion\n", impacts);
    assert_true(impacts > 1000);
}

/* The angles in [lo, hi) at which a rod (capsule rod, hinged at the origin
 * of its body) overlaps the wall, sampled every step: the free interval
 * about a0 is (blocked before a0, first blocked after a0). */
static void free_interval(sccd_capsule2 rod, sccd_capsule2 wall, double a0, double *lo, double *hi)
{
    const int samples = 20000;
    *lo = a0 - 2.0 * SCCD_PI;
    *hi = a0 + 2.0 * SCCD_PI;
    for (int k = 1; k <= samples; ++k) {
        double d = 2.0 * SCCD_PI * k / samples;
        sccd_xf2 wall_xf = sccd_xf2_identity();
        if (*hi > a0 + d && capsule_gap(rod, (sccd_xf2){{0, 0}, sccd_rot2_make(a0 + d)}, wall, wall_xf) < 0.0)
            *hi = a0 + d;
        if (*lo < a0 - d && capsule_gap(rod, (sccd_xf2){{0, 0}, sccd_rot2_make(a0 - d)}, wall, wall_xf) < 0.0)
            *lo = a0 - d;
    }
}

/* Hinged rods, free or at the end, against thin walls: stepped 30 times with
 * the results fed back (as an engine would, but with no contact of its
 * own), the rod's angle stays where its inner shape (0.4 of its radius in)
 * misses the wall's (the scene fuzzer's judge: a resting or settling pair
 * may sink by a skin, which an engine's contact then holds; a sampling
 * step of slack: the wall is at least that wide). */
static int hinged_rods(bool ccd, int *impacts)
{
    sccd_rng g = sccd_rng_make(777);
    int passes = 0;
    for (int trial = 0; trial < 600; ++trial) {
        double len = sccd_rng_uniform(&g, 0.3, 2.0), r = sccd_rng_uniform(&g, 0.001, 0.05);
        double wall_r = sccd_rng_uniform(&g, 0.001, 0.02), ang = sccd_rng_uniform(&g, -SCCD_PI, SCCD_PI);
        double near = sccd_rng_uniform(&g, 0.0, 0.8 * len);
        sccd_capsule2 rod = {{0, 0}, {len, 0}, r};
        sccd_capsule2 wall = {{near * cos(ang), near * sin(ang)}, {2.0 * len * cos(ang), 2.0 * len * sin(ang)}, wall_r};
        double a0 = ang - sccd_rng_uniform(&g, 0.01, 3.0), lo, hi;
        if (capsule_gap(rod, (sccd_xf2){{0, 0}, sccd_rot2_make(a0)}, wall, sccd_xf2_identity()) <= 0.0)
            continue;
        free_interval((sccd_capsule2){rod.a, rod.b, 0.6 * r}, (sccd_capsule2){wall.a, wall.b, 0.6 * wall_r}, a0, &lo, &hi);
        scene s = {0};
        double m = 1.0;
        int b = add(&s, SCCD_BODY_DYNAMIC, (sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = rod}, (sccd_v2){0, 0}, a0, m,
                    m * len * len / 12.0);
        s.body[b].cog = (sccd_v2){0.5 * len, 0};
        s.body[b].hinged = true;
        s.body[b].w = log_uniform(&g, 0.5, 600.0);
        s.body[b].ccd = ccd;
        int wb = add(&s, SCCD_BODY_STATIC, (sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = wall}, (sccd_v2){0, 0}, 0, 1, 1);
        s.shape[b].elasticity = sccd_rng_uniform(&g, 0.0, 0.9);
        s.shape[wb].friction = sccd_rng_uniform(&g, 0.0, 1.0);
        double skin = sccd_rng_uniform(&g, 1e-4, 0.5 * (r + wall_r));
        for (int step = 0; step < 30; ++step) {
            solve(&s, skin, NULL);
            *impacts += s.body[b].impacts;
            double slack = 2.0 * SCCD_PI / 20000 + 1e-9;
            if (s.body[b].end_angle < lo - slack || s.body[b].end_angle > hi + slack) {
                ++passes;
                break;
            }
            advance(&s);
        }
    }
    return passes;
}

static void test_hinged_rods_never_pass(void **state)
{
    (void)state;
    int impacts = 0, ignored = 0, passes = hinged_rods(true, &impacts), without = hinged_rods(false, &ignored);
    printf("impact2: hinged rods vs thin walls: %d impacts, %d passes (%d without CCD)\n", impacts, passes, without);
    assert_true(impacts > 300 && without > 200);
    assert_int_equal(passes, 0);
}

/* Spinning flyers (any shape) thrown at a long thin wall: the centre never
 * crosses the wall's line. */
static int flyers(bool ccd, int *impacts)
{
    sccd_rng g = sccd_rng_make(4242);
    int passes = 0;
    for (int trial = 0; trial < 1000; ++trial) {
        scene s = {0};
        double size = sccd_rng_uniform(&g, 0.02, 0.5), m = sccd_rng_uniform(&g, 0.2, 5.0);
        double speed = log_uniform(&g, 0.3, 80.0), y0 = sccd_rng_uniform(&g, size * 1.2, size * 1.2 + 2.0 * speed * DT);
        int b = add(&s, SCCD_BODY_DYNAMIC, random_shape(&g, size), (sccd_v2){0, y0}, sccd_rng_uniform(&g, -3, 3), m,
                    m * size * size * 0.3);
        if (sccd_shape2_distance(&s.shape[b].geom, s.body[b].pose, &(sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = {{-100, 0}, {100, 0}, 0.002}},
                                 sccd_xf2_identity()).overlap)
            continue;
        s.body[b].v = (sccd_v2){sccd_rng_uniform(&g, -1, 1) * speed, -speed};
        s.body[b].w = (sccd_rng_int(&g, 2) ? 1 : -1) * log_uniform(&g, 0.5, 600.0);
        s.body[b].ccd = ccd;
        int wb = add(&s, SCCD_BODY_STATIC, capsule((sccd_v2){-100, 0}, (sccd_v2){100, 0}, 0.002), (sccd_v2){0, 0}, 0, 1, 1);
        s.shape[b].elasticity = sccd_rng_uniform(&g, 0.0, 0.9);
        s.shape[wb].friction = sccd_rng_uniform(&g, 0.0, 1.0);
        for (int step = 0; step < 20; ++step) {
            solve(&s, 1e-3, NULL);
            *impacts += s.body[b].impacts;
            if (sccd_xf2_apply(s.body[b].end_pose, s.body[b].cog).y <= 0.0) {
                ++passes;
                break;
            }
            advance(&s);
        }
    }
    return passes;
}

static void test_flyers_never_pass(void **state)
{
    (void)state;
    int impacts = 0, ignored = 0, passes = flyers(true, &impacts), without = flyers(false, &ignored);
    printf("impact2: flyers vs a thin wall: %d impacts, %d passes (%d without CCD)\n", impacts, passes, without);
    assert_true(impacts > 500 && without > 500);
    assert_int_equal(passes, 0);
}

/* A heavy blade hinged at its middle spins into a free ball: a ball that
 * stays within the blade's reach never jumps across the blade's axis. */
static int blade_ball(bool ccd, int *impacts)
{
    sccd_rng g = sccd_rng_make(99);
    int passes = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const double half = 0.5, r = 0.05;
        scene s = {0};
        int blade = add(&s, SCCD_BODY_DYNAMIC, capsule((sccd_v2){-half, 0}, (sccd_v2){half, 0}, 0.02), (sccd_v2){0, 0}, 0.0,
                        20.0, 20.0 * 1.0 / 12.0);
        s.body[blade].hinged = true;
        s.body[blade].w = log_uniform(&g, 1.0, 300.0);
        s.body[blade].ccd = ccd;
        double rho = sccd_rng_uniform(&g, 0.15, 0.4), phi = sccd_rng_uniform(&g, 0.2, 3.0);
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){rho * cos(phi), rho * sin(phi)}, 0, 1.0, 0.5 * r * r);
        s.body[ball].ccd = ccd && sccd_rng_int(&g, 2);
        s.body[ball].v = sccd_v2_scale(sccd_rng_unit2(&g), sccd_rng_uniform(&g, 0.0, 5.0));
        s.shape[blade].elasticity = sccd_rng_uniform(&g, 0.0, 0.9);
        s.shape[ball].friction = sccd_rng_uniform(&g, 0.0, 0.5);
        for (int step = 0; step < 20; ++step) {
            sccd_v2 c0 = sccd_xf2_inv_apply(s.body[blade].pose, s.body[ball].pose.p);
            solve(&s, 1e-3, NULL);
            *impacts += s.body[ball].impacts;
            sccd_v2 c1 = sccd_xf2_inv_apply(s.body[blade].end_pose, s.body[ball].end_pose.p);
            /* in the blade's frame the ball's centre may not jump across the blade's axis within its reach */
            if (c0.y * c1.y < 0.0 && sccd_v2_len(c0) < half - r && sccd_v2_len(c1) < half - r) {
                ++passes;
                break;
            }
            advance(&s);
        }
    }
    return passes;
}

static void test_blade_bats_ball(void **state)
{
    (void)state;
    int impacts = 0, ignored = 0, passes = blade_ball(true, &impacts), without = blade_ball(false, &ignored);
    printf("impact2: blade bats a ball: %d impacts, %d passes (%d without CCD)\n", impacts, passes, without);
    assert_true(impacts > 100 && without > 50);
    assert_int_equal(passes, 0);
}

/* ---- a blade pushing into a pile ---- */

/* A heavy blade on a strong hinge (or in every third trial a kinematic
 * rotor) turning into a cluster of touching light balls: pushes that go on
 * exhaust the impact caps, and the fallback joins balls to the blade or
 * carries them on the rotor. Each fallback stop must end a chain: a join
 * that released the balls joined before was undone and redone until the
 * loop's guard, 100 stops and more, and balls crossed the blade; a rotor
 * that let its riders go at every push it gave carried them again at the
 * same instant, 258 stops in a solve. No ball may cross the blade's axis
 * within its reach. *held: the stops, *most: the most in one solve,
 * *capped: solves with a search stopped by a cap, *dead: steps a hinged
 * blade began turning and ended at rest. A jam of the blade and a ball
 * settles (impact_events.c's stop_pair): the blade keeps what the
 * inelastic impulse leaves it, at rest only against a ball that cannot
 * move (stopped dead at every jam, 216 of its 2,000 steps ended at rest;
 * so 102). Returns the crossings. */
static int blade_pile(long *held, long *most, int *capped, int *dead)
{
    sccd_rng g = sccd_rng_make(4242);
    int passes = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const double half = 0.5, r = 0.04;
        scene s = {0};
        bool rotor = trial % 3 == 2;
        int blade = add(&s, rotor ? SCCD_BODY_KINEMATIC : SCCD_BODY_DYNAMIC, capsule((sccd_v2){-half, 0}, (sccd_v2){half, 0}, 0.02),
                        (sccd_v2){0, 0}, 0.0, 50.0, 50.0 / 12.0);
        s.body[blade].hinged = !rotor;
        s.body[blade].w = log_uniform(&g, 5.0, 300.0);
        double phi = sccd_rng_uniform(&g, 0.05, 0.6); /* the cluster lies ahead of the blade's turn */
        for (int k = 0; k < 7; ++k) { /* a column of touching balls, some overlapping a little */
            double rho = 0.1 + (2.0 * r - sccd_rng_uniform(&g, 0.0, 0.004)) * (k % 4), a = phi + 0.12 * (k / 4);
            int b = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){rho * cos(a), rho * sin(a)}, 0, 1.0, 0.5 * r * r);
            s.body[b].ccd = false;
            s.body[b].v = sccd_v2_scale(sccd_rng_unit2(&g), sccd_rng_uniform(&g, 0.0, 0.5));
            s.shape[b].elasticity = sccd_rng_uniform(&g, 0.0, 0.3);
        }
        for (int step = 0; step < 10; ++step) {
            sccd_v2 c0[8];
            for (int i = 1; i < s.n; ++i)
                c0[i] = sccd_xf2_inv_apply(s.body[blade].pose, s.body[i].pose.p);
            sccd_impact_stats st = {0};
            sccd_ccd_options o = options(1e-3);
            assert_true(sccd_impact2_solve(s.body, s.n, s.shape, s.n, DT, &o, NULL, &scratch, &st));
            *dead += !rotor && s.body[blade].w != 0.0 && s.body[blade].end_w == 0.0;
            *capped += st.failed > 0;
            *held += st.held;
            *most = st.held > *most ? st.held : *most;
            for (int i = 1; i < s.n; ++i) {
                sccd_v2 c1 = sccd_xf2_inv_apply(s.body[blade].end_pose, s.body[i].end_pose.p);
                passes += c0[i].y * c1.y < 0.0 && sccd_v2_len(c0[i]) < half - r && sccd_v2_len(c1) < half - r;
            }
            advance(&s);
        }
    }
    return passes;
}

static void test_blade_pushes_pile(void **state)
{
    (void)state;
    long held = 0, most = 0;
    int capped = 0, dead = 0, passes = blade_pile(&held, &most, &capped, &dead);
    printf("impact2: blade into a pile, 3000 steps: %ld fallback stops (most in one solve %ld), %d solves with a cap "
           "reached, %d crossings, %d hinged blades stopped dead\n", held, most, capped, passes, dead);
    assert_true(held > 100);
    assert_true(most <= 16); /* two per body at most: each stop ends a chain */
    assert_int_equal(passes, 0);
#ifndef SCCD_TEST_LAST_STOPS /* there the last stops, which halt (at rest), end every busy step */
    assert_true(dead < 150); /* stopped dead at every jam: 216 of the 2,000 hinged steps */
#endif
}

/* A heavy blade hinged at its middle sweeps, within one step, through a
 * ring of still balls spread round it: every impact slows it and changes
 * its motion, so its pairs with the balls further on are searched again at
 * each, most of them put off until they come first (impact_events.c). In
 * every third trial the blade is a kinematic rotor instead, which each
 * ball it meets cannot slow. No ball within the blade's reach may change
 * sides of its axis in a step, judged on the poses in the blade's frame,
 * and no shape inset by 40 % of its half thickness may end meeting
 * another so inset (scene_fuzz's judge: a rotor pushes a ball as deep as
 * 0.35 of the pair's room, more than 40 % of the thinner one's half). Returns the failures; *busy counts the
 * steps with three events or more (impacts of the blade, and stops). */
static int blade_ring(int *busy)
{
    const double half = 0.5, hb = 0.02, r = 0.04, skin = 1e-3;
    sccd_rng g = sccd_rng_make(1207);
    int passes = 0;
    for (int trial = 0; trial < 300; ++trial) {
        scene s = {0};
        bool rotor = trial % 3 == 2;
        int blade = add(&s, rotor ? SCCD_BODY_KINEMATIC : SCCD_BODY_DYNAMIC, capsule((sccd_v2){-half, 0}, (sccd_v2){half, 0}, hb),
                        (sccd_v2){0, 0}, 0.0, 50.0, 50.0 / 12.0);
        s.body[blade].hinged = !rotor;
        s.body[blade].w = log_uniform(&g, 30.0, 400.0) * (sccd_rng_int(&g, 2) ? 1.0 : -1.0);
        s.shape[blade].elasticity = sccd_rng_uniform(&g, 0.0, 0.9);
        while (s.n < 7) { /* clear of the blade and of each other */
            double rho = sccd_rng_uniform(&g, 0.12, half - r), phi = sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI);
            sccd_v2 c = {rho * cos(phi), rho * sin(phi)};
            bool clear = fabs(c.y) > hb + r + 0.01;
            for (int j = 1; j < s.n; ++j)
                clear &= sccd_v2_dist(c, s.body[j].pose.p) > 2.0 * r + 0.01;
            if (!clear)
                continue;
            int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), c, 0.0, 1.0, 0.5 * r * r);
            s.body[ball].ccd = sccd_rng_int(&g, 2);
            s.shape[ball].friction = sccd_rng_uniform(&g, 0.0, 0.5);
        }
        sccd_v2 c0[8];
        for (int i = 1; i < s.n; ++i)
            c0[i] = sccd_xf2_inv_apply(s.body[blade].pose, s.body[i].pose.p);
        sccd_impact_stats st = {0};
        sccd_ccd_options o = options(skin);
        assert_true(sccd_impact2_solve(s.body, s.n, s.shape, s.n, DT, &o, NULL, &scratch, &st));
        *busy += s.body[blade].impacts + st.held >= 3;
        sccd_capsule2 cb = s.shape[blade].geom.capsule, cball = {{0, 0}, {0, 0}, r};
        for (int i = 1; i < s.n; ++i) {
            sccd_v2 c1 = sccd_xf2_inv_apply(s.body[blade].end_pose, s.body[i].end_pose.p);
            bool crossed = c0[i].y * c1.y < 0.0 && sccd_v2_len(c0[i]) < half - r && sccd_v2_len(c1) < half - r;
            bool deep = capsule_gap(cb, s.body[blade].end_pose, cball, s.body[i].end_pose) < -0.4 * (hb + r);
            for (int j = 1; j < i; ++j)
                deep |= sccd_v2_dist(s.body[i].end_pose.p, s.body[j].end_pose.p) < 2.0 * r - 0.8 * r;
            passes += crossed || deep;
        }
    }
    return passes;
}

static void test_blade_sweeps_ring(void **state)
{
    (void)state;
    int busy = 0, passes = blade_ring(&busy);
    printf("impact2: blade through a ring of balls, 300 steps: %d with 3 events or more, %d crossings\n", busy, passes);
    assert_true(busy > 100);
    assert_int_equal(passes, 0);
}

/* A row pressed together at one instant: a heavy CCD disc driven into
 * ball b, which touches ball c, which touches a static wall. The disc's
 * impulse sends b into c and c into the wall, all at the start of the
 * step; sent back, b may meet the disc again at that same instant: jammed
 * (c moved b since), the pair stops at once (b rides along) instead of
 * trading impulses up to the pair's cap. Random directions, speeds (a
 * twentieth of a radius to ten radii a step), elasticities and frictions:
 * no centre passes another or the wall along the row, the disc and b end
 * no deeper than 40 % of a radius (scene_fuzz's judge; c, an ordinary body,
 * may sink into b or the wall as far as the engine catches it), energy
 * never grows, and the disc and b never trade two impulses at one instant
 * (told by the post-impulse hook). Returns the failures; *jams counts the
 * trials that ended with b held (riding along or stopped) after the disc's
 * one impulse. */
typedef struct jam_log { int disc, ball, impulses; double last; bool twice; } jam_log;

static void jam_post(void *user, const sccd_impact_contact2 *c)
{
    jam_log *l = user;
    if ((c->shape_a == l->disc && c->shape_b == l->ball) || (c->shape_a == l->ball && c->shape_b == l->disc)) {
        l->twice |= l->impulses > 0 && c->t == l->last;
        l->last = c->t;
        ++l->impulses;
    }
}

/* The row: bodies 0 to 3 are the wall (a capsule of radius JAM_RW), c, b
 * and the disc a (discs of radius JAM_R), a driven at b along u (from the
 * wall along the row, returned) and turning at a random rate when it
 * `spins`. */
enum { JAM_C = 1, JAM_B = 2, JAM_A = 3 };
#define JAM_R 0.1
#define JAM_RW 0.05

static sccd_v2 jam_scene(scene *s, sccd_rng *g, bool spins)
{
    const double r = JAM_R, rw = JAM_RW;
    double phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    sccd_v2 u = {cos(phi), sin(phi)}, across = {-u.y, u.x};
    add(s, SCCD_BODY_STATIC, capsule(sccd_v2_neg(across), across, rw), (sccd_v2){0.0, 0.0}, 0.0, 1.0, 1.0);
    for (int i = JAM_C; i <= JAM_A; ++i) {
        double m = i == JAM_A ? 5.0 : 1.0;
        add(s, SCCD_BODY_DYNAMIC, circle(r), sccd_v2_scale(u, rw + (2 * i - 1) * r), 0.0, m, 0.5 * m * r * r);
    }
    s->body[JAM_B].ccd = s->body[JAM_C].ccd = false;
    s->body[JAM_A].v = sccd_v2_scale(u, -log_uniform(g, 0.05, 10.0) * r / DT);
    if (spins)
        s->body[JAM_A].w = (sccd_rng_int(g, 2) ? 1.0 : -1.0) * log_uniform(g, 0.05, 1.0) / DT;
    for (int i = 0; i < s->n; ++i) {
        s->shape[i].elasticity = sccd_rng_uniform(g, 0.0, 0.9);
        s->shape[i].friction = sccd_rng_uniform(g, 0.0, 0.5);
    }
    return u;
}

static int jam_row(int trials, int *jams)
{
    const double r = JAM_R, rw = JAM_RW;
    const int a = JAM_A, b = JAM_B, c = JAM_C;
    sccd_rng g = sccd_rng_make(4242);
    int failures = 0;
    for (int trial = 0; trial < trials; ++trial) {
        scene s = {0};
        sccd_v2 u = jam_scene(&s, &g, false);
        double before = kinetic_start(&s);
        jam_log log = {a, b, 0, -1.0, false};
        sccd_impact_callbacks2 cb = {.post = jam_post, .user = &log};
        solve(&s, 1e-3, &cb);
        double x[4];
        for (int i = 0; i < 4; ++i)
            x[i] = sccd_v2_dot(s.body[i].end_pose.p, u);
        bool crossed = !(x[c] > rw && x[c] < x[b] && x[b] < x[a]);
        bool deep = sccd_v2_dist(s.body[b].end_pose.p, s.body[a].end_pose.p) < 2.0 * r - 0.4 * r;
        bool gained = kinetic(&s) > before * (1.0 + 1e-9) + 1e-12;
        failures += crossed || deep || gained || log.twice;
        *jams += log.impulses == 1 && s.body[b].held;
    }
    return failures;
}

static void test_jam_at_one_instant(void **state)
{
    (void)state;
    int jams = 0, failures = jam_row(200, &jams);
    printf("impact2: a disc driven into a row of two balls against a wall, 200 trials: %d stopped at one impulse, "
           "%d crossings, deep overlaps, energy gains or impulses traded twice at one instant\n", jams, failures);
    assert_int_equal(failures, 0);
    assert_true(jams > 20);
}

/* A ball the jam above left riding along with a spinning disc leaves the
 * step as the disc's point under its centre then moves (no faster than it
 * boarded): along that point's velocity. Reported as it boarded, it left
 * a spinning carrier off by as much of a turn as the carrier made since.
 * Returns the failures; *riders counts the balls that rode. */
static int spun_jam_row(int trials, int *riders)
{
    const double r = JAM_R;
    sccd_rng g = sccd_rng_make(4343);
    int failures = 0;
    for (int trial = 0; trial < trials; ++trial) {
        scene s = {0};
        jam_scene(&s, &g, true);
        solve(&s, 1e-3, NULL);
        const sccd_impact_body2 *ba = &s.body[JAM_A], *bb = &s.body[JAM_B];
        sccd_v2 arm = sccd_v2_sub(bb->end_pose.p, ba->end_pose.p);
        bool rode = bb->held && fabs(bb->end_w - ba->end_w) < 1e-9 * fabs(ba->end_w) && fabs(sccd_v2_len(arm) - 2.0 * r) < 0.4 * r;
        if (!rode)
            continue;
        ++*riders;
        sccd_v2 point = sccd_v2_add(ba->end_v, sccd_v2_scale(sccd_v2_perp(arm), ba->end_w));
        double speed = sccd_v2_len(bb->end_v), most = sccd_v2_len(point);
        bool along = fabs(sccd_v2_cross(bb->end_v, point)) <= 1e-9 * most * most + 1e-12 && sccd_v2_dot(bb->end_v, point) >= 0.0;
        failures += !along || speed > most * (1.0 + 1e-9) + 1e-12;
    }
    return failures;
}

static void test_rider_leaves_as_carried(void **state)
{
    (void)state;
    int riders = 0, failures = spun_jam_row(1000, &riders);
    printf("impact2: a spinning disc driven into a row of two balls, 1000 trials: %d balls rode along, %d left off their carrier's point velocity\n",
           riders, failures);
    assert_int_equal(failures, 0);
    assert_true(riders > 20);
}

/* A pair whose boxes parted is looked at again when they meet again: ball
 * B flies past ball C at rest (C in a corner of B's box, far from its
 * path) and glances off ball D, its new box apart from C's; later ball X
 * strikes C head on, sending C at where B will be at time t3 (their boxes
 * meet again), and without their impact the two pass through each other.
 * Oracle, the order along C's approach: C's centre stays on its own side of
 * B's along the line it closes on (it ends past B when the impact is
 * missed). Judged over random deflections, speeds and times. A put_off
 * that left a pair it found apart so for the rest of the step failed 140
 * of the 200 trials. Returns the failures. */
static int parted_and_met(int trials)
{
    const double r = 0.1;
    sccd_rng g = sccd_rng_make(5151);
    int failures = 0;
    for (int trial = 0; trial < trials; ++trial) {
        scene s = {0};
        double len = sccd_rng_uniform(&g, 3.0, 4.0), phi = sccd_rng_uniform(&g, 0.45, 0.6);
        double gamma = sccd_rng_uniform(&g, 0.9, 1.2); /* D's side of B's path */
        double t1 = 0.2, t2 = sccd_rng_uniform(&g, 0.4, 0.6), t3 = t2 + sccd_rng_uniform(&g, 0.2, 0.35);
        sccd_v2 u = {len * cos(phi), len * sin(phi)}, n1 = {cos(phi + gamma), sin(phi + gamma)}; /* per step */
        sccd_v2 p1 = sccd_v2_scale(u, t1), vb = sccd_v2_mad(u, -sccd_v2_dot(u, n1), n1); /* B at D and off it */
        sccd_v2 c0 = {0.8 * u.x, 0.0}, meet = sccd_v2_mad(p1, t3 - t1, vb);
        sccd_v2 vc = sccd_v2_scale(sccd_v2_sub(meet, c0), 1.0 / (t3 - t2)); /* C's velocity after X's strike */
        sccd_v2 strike = sccd_v2_scale(sccd_v2_normalize(vc), 2.0 * r);
        int b = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){0, 0}, 0.0, 1.0, 0.5 * r * r);
        int c = add(&s, SCCD_BODY_DYNAMIC, circle(r), c0, 0.0, 1.0, 0.5 * r * r);
        add(&s, SCCD_BODY_DYNAMIC, circle(r), sccd_v2_mad(p1, 2.0 * r, n1), 0.0, 1.0, 0.5 * r * r);
        sccd_v2 x0 = sccd_v2_sub(sccd_v2_sub(c0, strike), sccd_v2_scale(vc, t2)); /* X reaches C at t2 */
        int x = add(&s, SCCD_BODY_DYNAMIC, circle(r), x0, 0.0, 1.0, 0.5 * r * r);
        s.body[b].v = sccd_v2_scale(u, 1.0 / DT);
        s.body[x].v = sccd_v2_scale(vc, 1.0 / DT);
        for (int i = 0; i < s.n; ++i)
            s.shape[i].elasticity = 1.0;
        solve(&s, 1e-3, NULL);
        sccd_v2 closing = sccd_v2_normalize(sccd_v2_sub(vc, vb)); /* C's velocity relative to B's */
        failures += !(sccd_v2_dot(sccd_v2_sub(s.body[c].end_pose.p, s.body[b].end_pose.p), closing) < 0.0);
    }
    return failures;
}

static void test_parted_and_met(void **state)
{
    (void)state;
    int failures = parted_and_met(200);
    printf("impact2: boxes parted, then met again, 200 trials: %d crossings\n", failures);
    assert_int_equal(failures, 0);
}

/* ---- struck bodies flying on ---- */

/* The solve marks what it struck that moves fast enough to cross a thin
 * body in the engine's next step (flying), by the closed form for a disc:
 * |v|·dt ≥ r at its end velocity (its spin moves no part of its surface).
 * A kinematic bat meets a ball spinning in place at 100 rad/s (its rim
 * 1.7 radii a step) at 0.1–100 rad/s: the slow hits leave it landed, the
 * fast ones flying; the bat itself (a CCD body) never is. */
static void test_flying_marks(void **state)
{
    (void)state;
    int flying = 0, landed = 0;
    for (int k = 0; k < 40; ++k) {
        const double r = 0.05, w = 0.1 * pow(1000.0, k / 39.0), phi = 0.5 * w * DT + asin((0.03 + r) / 0.7);
        scene s = {0};
        int bat = add(&s, SCCD_BODY_KINEMATIC, capsule((sccd_v2){0, 0}, (sccd_v2){1, 0}, 0.03), (sccd_v2){0, 0}, 0.0, 1, 1);
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){0.7 * cos(phi), 0.7 * sin(phi)}, 0.0, 1.0, 0.5 * r * r);
        s.body[bat].w = w;
        s.body[ball].w = 100.0;
        s.body[ball].ccd = false;
        solve(&s, 1e-4, NULL);
        const sccd_impact_body2 *b = &s.body[ball];
        bool want = b->impacts > 0 && sccd_v2_len(b->end_v) * DT >= r;
        assert_int_equal(b->flying, want);
        assert_false(s.body[bat].flying);
        flying += want;
        landed += b->impacts > 0 && !want;
    }
    printf("impact2: batted balls, %d flying, %d landed\n", flying, landed);
    assert_true(flying > 5 && landed > 5);
}

/* A ball's spin moves no part of its surface: a CCD ball closing on a
 * thin wall by half its gap in the step, spinning at 0–10,000 rad/s (its
 * rim up to 8 units, 170 radii, a step), is out of reach by its centre's
 * speed alone. The wall runs diagonally, so the boxes of the two meet and
 * the rate bound decides. The ball ends where its motion takes it,
 * untouched, and no TOI is run (with its radius in the rate bound, the
 * faster spins took one each). */
static void test_spinning_ball_out_of_reach(void **state)
{
    (void)state;
    const double r = 0.05, rw = 0.005, gap = 0.02;
    const sccd_v2 n = {sqrt(0.5), -sqrt(0.5)}; /* the wall along y = x; the ball on its side n */
    const sccd_v2 c0 = sccd_v2_scale(n, rw + r + gap), c1 = sccd_v2_scale(n, rw + r + 0.5 * gap);
    for (int k = 0; k <= 8; ++k) {
        scene s = {0};
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), c0, 0.0, 1.0, 0.5 * r * r);
        add(&s, SCCD_BODY_STATIC, capsule((sccd_v2){-1, -1}, (sccd_v2){1, 1}, rw), (sccd_v2){0, 0}, 0.0, 1, 1);
        s.body[ball].v = sccd_v2_scale(sccd_v2_sub(c1, c0), 1.0 / DT);
        s.body[ball].w = k == 0 ? 0.0 : pow(10.0, 0.5 * k);
        sccd_ccd_options o = options(1e-4);
        sccd_impact_stats st = {0};
        assert_true(sccd_impact2_solve(s.body, s.n, s.shape, s.n, DT, &o, NULL, &scratch, &st));
        assert_int_equal(s.body[ball].impacts, 0);
        assert_true(sccd_v2_dist(s.body[ball].end_pose.p, c1) < 1e-12);
        assert_int_equal(st.tois, 0);
    }
}

/* A ball spinning about its centre (none up to 10^4 rad/s: many turns a
 * step) flies along x under a static box whose bottom face dips d = 0.01
 * into its path: the ball's box reaches the block's only by the ball's
 * radius (impact2.c's circle_path_box; cut by more than d plus the skins,
 * the pair is never searched). Closed form: the path passes r − d from
 * the box's lower corner, so the ball strikes it, at the corner with
 * normal (−0.6, −0.8), and glances off downward (without the impact it
 * would end at y = 0). */
static void test_spinning_ball_grazes_corner(void **state)
{
    (void)state;
    const double r = 0.05, d = 0.01, h = 0.1;
    for (int k = 0; k <= 8; ++k) {
        scene s = {0};
        sccd_shape2 block = {.type = SCCD_SHAPE_BOX, .box = {{0, 0}, sccd_rot2_identity(), {h, h}}};
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){0, 0}, 0.0, 1.0, 0.5 * r * r);
        add(&s, SCCD_BODY_STATIC, block, (sccd_v2){0.5, h + r - d}, 0.0, 1, 1);
        s.body[ball].v = (sccd_v2){1.0 / DT, 0};
        s.body[ball].w = k == 0 ? 0.0 : pow(10.0, 0.5 * k);
        solve(&s, 1e-4, NULL);
        assert_int_equal(s.body[ball].impacts, 1);
        assert_true(s.body[ball].end_pose.p.y < -0.1); /* v' = (16.8, -57.6) from about t = 0.37 */
    }
}

/* A ball passed `struck` is tested from the start of the step: flying at a
 * thin static wall (a capsule of radius 0.005) that it would cross within
 * the step, it bounces off it at −e·v (head on, closed form) and ends on
 * its own side; passed as an ordinary body, the solve leaves it alone and
 * it crosses. Speeds 1–20 units a step, the wall met at any phase. */
static void test_struck_ball_tested(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(11);
    for (int k = 0; k < 64; ++k) {
        const double r = 0.05, e = sccd_rng_uniform(&g, 0.0, 0.9);
        double v = sccd_rng_uniform(&g, 1.0, 20.0) / DT, f = sccd_rng_uniform(&g, 0.05, 0.95);
        double x0 = -(r + 0.005) - f * v * DT; /* meets the wall at x = 0 at the fraction f */
        for (int struck = 0; struck < 2; ++struck) {
            scene s = {0};
            int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){x0, 0.1}, 0.0, 1.0, 0.5 * r * r);
            add(&s, SCCD_BODY_STATIC, capsule((sccd_v2){0, -1}, (sccd_v2){0, 1}, 0.005), (sccd_v2){0, 0}, 0.0, 1, 1);
            s.body[ball].ccd = false;
            s.body[ball].struck = struck;
            s.body[ball].v = (sccd_v2){v, 0.0};
            s.shape[ball].elasticity = e;
            solve(&s, 1e-4, NULL);
            const sccd_impact_body2 *b = &s.body[ball];
            if (!struck) {
                assert_true(b->impacts == 0 && b->end_pose.p.x > 0.0); /* crossed */
                continue;
            }
            assert_int_equal(b->impacts, 1);
            assert_true(b->end_pose.p.x < 0.0);
            assert_true(fabs(b->end_v.x + e * v) < 1e-9 * v && fabs(b->end_v.y) < 1e-9 * v);
            assert_int_equal(b->flying, (e * v * DT >= r));
        }
    }
}

/* Many impacts in one solve, far apart: 100 CCD balls, each meeting its
 * own thin wall once within the step (at a fraction of it drawn at
 * random), all bounce off at −e·v. The cap on a step's impacts grows with
 * the CCD bodies (SCCD_IMPACT_BODY_EVENTS): with one cap for the whole
 * solve (64), the balls met after it were held at their walls, bouncing
 * or not by how many impacts others had taken first. */
static void test_many_bodies_bounce(void **state)
{
    (void)state;
    enum { BALLS = 100 };
    static sccd_impact_body2 body[2 * BALLS];
    static sccd_impact_shape2 shape[2 * BALLS];
    sccd_rng g = sccd_rng_make(17);
    const double r = 0.05, e = 0.5;
    double v[BALLS];
    for (int k = 0; k < BALLS; ++k) {
        double y = 10.0 * k, f = sccd_rng_uniform(&g, 0.05, 0.95);
        v[k] = sccd_rng_uniform(&g, 1.0, 20.0) / DT;
        int i = 2 * k, j = i + 1;
        body[i] = (sccd_impact_body2){.kind = SCCD_BODY_DYNAMIC, .ccd = true, .pose = {{-(r + 0.005) - f * v[k] * DT, y}, {1.0, 0.0}},
                                      .v = {v[k], 0.0}, .inv_mass = 1.0, .inv_inertia = 2.0 / (r * r), .first_shape = i, .shape_count = 1};
        body[j] = (sccd_impact_body2){.kind = SCCD_BODY_STATIC, .pose = {{0.0, y}, {1.0, 0.0}}, .first_shape = j, .shape_count = 1};
        shape[i] = (sccd_impact_shape2){circle(r), i, e, 0.0};
        shape[j] = (sccd_impact_shape2){capsule((sccd_v2){0, -1}, (sccd_v2){0, 1}, 0.005), j, 1.0, 0.0};
    }
    sccd_ccd_options o = options(1e-4);
    assert_true(sccd_impact2_solve(body, 2 * BALLS, shape, 2 * BALLS, DT, &o, NULL, &scratch, NULL));
    for (int k = 0; k < BALLS; ++k) {
        const sccd_impact_body2 *b = &body[2 * k];
        assert_int_equal(b->impacts, 1);
        assert_false(b->held);
        assert_true(b->end_pose.p.x < 0.0);
        assert_true(fabs(b->end_v.x + e * v[k]) < 1e-9 * v[k] && fabs(b->end_v.y) < 1e-9 * v[k]);
    }
}

/* A struck ball is followed against what does not move on its own and the
 * CCD bodies: flying at a still ordinary ball it is the engine's (no
 * impact, as without the CCD), at the same ball made a CCD body or
 * kinematic it bounces off it; bounced off a wall first within the step
 * (an impact met it), it is followed against the ordinary ball too. */
static void test_struck_ball_partners(void **state)
{
    (void)state;
    const double r = 0.05, v = 6.0 / DT;
    for (int kind = 0; kind < 4; ++kind) {
        scene s = {0};
        bool first_wall = kind == 3;
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){first_wall ? 2.0 : 0.0, 0.0}, 0.0, 1.0, 0.5 * r * r);
        int other = add(&s, kind == 2 ? SCCD_BODY_KINEMATIC : SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){first_wall ? 0.5 : 3.0, 0.0}, 0.0, 1.0,
                        0.5 * r * r);
        if (first_wall) /* a wall beyond the ball: it bounces back towards the other ball */
            add(&s, SCCD_BODY_STATIC, capsule((sccd_v2){3.0, -1}, (sccd_v2){3.0, 1}, 0.005), (sccd_v2){0, 0}, 0.0, 1, 1);
        s.body[ball].ccd = false;
        s.body[ball].struck = true;
        s.body[ball].v = (sccd_v2){v, 0.0};
        s.body[other].ccd = kind == 1 || kind == 2;
        solve(&s, 1e-4, NULL);
        int want = kind == 0 ? 0 : kind == 3 ? 2 : 1;
        assert_int_equal(s.body[ball].impacts, want);
        assert_int_equal(s.body[other].impacts, kind == 0 ? 0 : 1);
    }
}

/* ---- hooks ---- */

typedef struct hook_log { int begins, posts; bool refuse; double elasticity; sccd_v2 impulse; } hook_log;

static bool on_begin(void *user, sccd_impact_contact2 *c)
{
    hook_log *log = user;
    ++log->begins;
    assert_true(c->approach > 0.0 && c->t >= 0.0 && c->t <= 1.0);
    c->elasticity = log->elasticity;
    return !log->refuse;
}

static void on_post(void *user, const sccd_impact_contact2 *c)
{
    hook_log *log = user;
    ++log->posts;
    log->impulse = c->impulse;
}

static void test_hooks(void **state)
{
    (void)state;
    for (int refuse = 0; refuse < 2; ++refuse) {
        scene s = {0};
        int bat = add(&s, SCCD_BODY_KINEMATIC, capsule((sccd_v2){0, 0}, (sccd_v2){1, 0}, 0.03), (sccd_v2){0, 0}, 0.0, 1, 1);
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(0.05), (sccd_v2){0.6, 0.2}, 0.0, 2.0, 0.01);
        s.body[bat].w = 50.0;
        hook_log log = {0, 0, refuse, 0.5, {0, 0}};
        sccd_impact_callbacks2 cb = {NULL, on_begin, on_post, NULL, &log};
        solve(&s, 1e-4, &cb);
        assert_int_equal(log.begins, 1);
        assert_int_equal(log.posts, refuse ? 0 : 1);
        if (refuse) { /* the ball was left alone */
            assert_true(s.body[ball].impacts == 0 && s.body[ball].end_v.x == 0.0 && s.body[ball].end_v.y == 0.0);
            continue;
        }
        /* the impulse is m·Δv; restitution 0.5 from begin (the shapes say 1) */
        assert_true(sccd_v2_dist(sccd_v2_scale(log.impulse, 0.5), s.body[ball].end_v) < 1e-12);
        s.shape[bat].elasticity = 0.5;
        s.body[ball].ccd = false;
        scene plain = s;
        solve(&plain, 1e-4, NULL);
        assert_true(sccd_v2_dist(plain.body[ball].end_v, s.body[ball].end_v) < 1e-12);
    }
}

/* Every impulse the solver gives reaches the hooks, the pushes' too: a
 * kinematic bat pushing a ball along its face (pushed_ball_error's scene,
 * restitution 0) gives it an impact, then pushes at its overlap limit:
 * post reports every impulse the solver gave, and they add up to the
 * ball's change of momentum at every step (no gravity; measured: 17 posts
 * in the busiest step; with the pushes unheard, 9).
 * Refused by begin, the ball is left alone for the step. */
typedef struct ball_log { int ball, begins, posts; bool refuse; sccd_v2 impulse; } ball_log;

static bool ball_begin(void *user, sccd_impact_contact2 *c)
{
    (void)c;
    ball_log *log = user;
    ++log->begins;
    return !log->refuse;
}

static void ball_post(void *user, const sccd_impact_contact2 *c)
{
    ball_log *log = user;
    ++log->posts;
    log->impulse = sccd_v2_add(log->impulse, c->shape_b == log->ball ? c->impulse : sccd_v2_neg(c->impulse));
}

static void test_push_hooks(void **state)
{
    (void)state;
    const double half = 0.03, r = 0.05, m = 1.0;
    for (int refuse = 0; refuse < 2; ++refuse) {
        scene s = {0};
        int bat = add(&s, SCCD_BODY_KINEMATIC, capsule((sccd_v2){0, 0}, (sccd_v2){1, 0}, half), (sccd_v2){0, 0}, -0.5 * 20.0 * DT, 1, 1);
        int ball = add(&s, SCCD_BODY_DYNAMIC, circle(r), (sccd_v2){0.75, half + r}, 0.0, m, 0.5 * m * r * r);
        s.body[bat].w = 20.0;
        s.shape[bat].elasticity = s.shape[ball].elasticity = 0.0;
        s.shape[bat].friction = 0.3;
        s.shape[ball].friction = 1.0;
        int busiest = 0;
        for (int step = 0; step < 6; ++step) {
            ball_log log = {ball, 0, 0, refuse, {0, 0}};
            sccd_impact_callbacks2 cb = {NULL, ball_begin, ball_post, NULL, &log};
            sccd_v2 v0 = s.body[ball].v;
            sccd_ccd_options o = options(1e-4);
            sccd_impact_stats st = {0};
            assert_true(sccd_impact2_solve(s.body, s.n, s.shape, s.n, DT, &o, &cb, &scratch, &st));
            busiest = log.posts > busiest ? log.posts : busiest;
            if (refuse) { /* for the step (the caller's collide hook keeps a refusal: adapters ask their engine) */
                assert_int_equal(log.begins, 1);
                assert_int_equal(log.posts, 0);
                assert_true(s.body[ball].end_v.x == 0.0 && s.body[ball].end_v.y == 0.0);
                break;
            } else {
                assert_int_equal(log.begins, log.posts);
                assert_int_equal(log.posts, st.impacts); /* every impulse given */
                assert_true(sccd_v2_dist(sccd_v2_scale(log.impulse, 1.0 / m), sccd_v2_sub(s.body[ball].end_v, v0)) < 1e-9);
            }
            advance(&s);
        }
        if (!refuse) {
            printf("impact2: pushed ball, most posts in a step %d\n", busiest);
            assert_true(busiest > SCCD_IMPACT_PAIR_EVENTS); /* pushes, not impacts alone */
        }
    }
}

/* ---- bodies gathered mid-step ---- */

/* A pool of bodies the gather hook hands out: a CCD blade hinged at its
 * middle starts with what its motion may reach; every other body joins
 * when the solver asks for a box its conservative box (the start, grown by
 * how far its free motion goes) meets. The arrays grow by realloc, one body
 * at a time: they move under the solver. */
enum { POOL_MAX = 160 };

typedef struct pool {
    sccd_impact_body2 body[POOL_MAX];
    sccd_impact_shape2 shape[POOL_MAX];
    sccd_aabb2 box[POOL_MAX]; /* conservative box of its free motion */
    int m;
    sccd_impact_body2 *sb;     /* the solve's arrays */
    sccd_impact_shape2 *ss;
    int n, of[POOL_MAX];       /* of[k]: the pool body the solve's body k is */
    bool in[POOL_MAX];
    int asked, bad, fail;      /* the hook's calls; bad: append a NaN body at this call, fail: fail this call, its arrays moved (0: never) */
} pool;

static bool take(pool *p, int i)
{
    sccd_impact_body2 *b = realloc(p->sb, (size_t)(p->n + 1) * sizeof *b);
    if (b != NULL)
        p->sb = b;
    sccd_impact_shape2 *sh = realloc(p->ss, (size_t)(p->n + 1) * sizeof *sh);
    if (sh != NULL)
        p->ss = sh;
    if (b == NULL || sh == NULL)
        return false;
    p->sb[p->n] = p->body[i];
    p->sb[p->n].first_shape = p->n;
    p->ss[p->n] = p->shape[i];
    p->ss[p->n].body = p->n;
    p->of[p->n++] = i;
    p->in[i] = true;
    return true;
}

static bool pool_gather(void *user, const sccd_impact_reach2 *r, sccd_impact_set2 *set)
{
    pool *p = user;
    assert_true(set->bodies == p->sb && set->body_count == p->n && set->shape_count == p->n);
    assert_true(r->body >= 0 && r->body < p->n && r->reach >= 0.0 && r->half > 0.0);
    if (++p->asked == p->bad) {
        assert_true(take(p, 0));
        p->sb[p->n - 1].v.x = NAN;
    }
    if (p->asked == p->fail) { /* out of memory after the arrays moved: the solver must write its results there */
        assert_true(take(p, 0));
        --p->n;
        *set = (sccd_impact_set2){p->sb, p->n, p->ss, p->n};
        return false;
    }
    for (int i = 0; i < p->m; ++i)
        if (!p->in[i] && p->box[i].lo.x <= r->box.hi.x && r->box.lo.x <= p->box[i].hi.x && p->box[i].lo.y <= r->box.hi.y &&
            r->box.lo.y <= p->box[i].hi.y && !take(p, i))
            return false;
    *set = (sccd_impact_set2){p->sb, p->n, p->ss, p->n};
    return true;
}

/* A blade hinged at its middle, spinning into a ring of balls, with more
 * balls and static posts beyond that the struck balls may fly to: `count`
 * bodies in all, the others' centres from 0.3 to `outer` from the hinge. */
static void make_pool(pool *p, sccd_rng *g, int count, double outer)
{
    *p = (pool){0};
    scene s = {0};
    add(&s, SCCD_BODY_DYNAMIC, capsule((sccd_v2){-0.5, 0}, (sccd_v2){0.5, 0}, 0.02), (sccd_v2){0, 0}, sccd_rng_uniform(g, 0, 6.3),
        20.0, 20.0 / 12.0);
    p->body[0] = s.body[0];
    p->body[0].hinged = true;
    p->body[0].w = log_uniform(g, 20.0, 400.0) * (sccd_rng_int(g, 2) ? 1.0 : -1.0);
    p->shape[0] = s.shape[0];
    p->box[0] = (sccd_aabb2){{-0.6, -0.6}, {0.6, 0.6}};
    for (p->m = 1; p->m < count; ++p->m) {
        int i = p->m;
        bool post = sccd_rng_int(g, 5) == 0;
        double r = post ? sccd_rng_uniform(g, 0.02, 0.1) : sccd_rng_uniform(g, 0.02, 0.06);
        double rho = sccd_rng_uniform(g, 0.3, outer), a = sccd_rng_uniform(g, 0.0, 6.3);
        sccd_v2 c = {rho * cos(a), rho * sin(a)};
        scene t = {0};
        add(&t, post ? SCCD_BODY_STATIC : SCCD_BODY_DYNAMIC, circle(r), c, 0.0, 1.0, 0.5 * r * r);
        p->body[i] = t.body[0];
        p->body[i].ccd = false;
        p->body[i].v = post ? (sccd_v2){0, 0} : sccd_v2_scale(sccd_rng_unit2(g), sccd_rng_uniform(g, 0.0, 1.0));
        p->shape[i] = t.shape[0];
        p->shape[i].elasticity = sccd_rng_uniform(g, 0.3, 1.0);
        double grow = r + sccd_v2_len(p->body[i].v) * DT + 1e-9;
        p->box[i] = (sccd_aabb2){sccd_v2_sub(c, (sccd_v2){grow, grow}), sccd_v2_add(c, (sccd_v2){grow, grow})};
    }
}

/* Solve the pool's step starting from the blade and what meets its box; the
 * hook hands out the rest. */
static bool solve_gathering(pool *p, sccd_impact_stats *st)
{
    p->n = 0;
    memset(p->in, 0, sizeof p->in);
    for (int i = 0; i < p->m; ++i)
        if (i == 0 || (p->box[i].lo.x <= p->box[0].hi.x && p->box[0].lo.x <= p->box[i].hi.x &&
                       p->box[i].lo.y <= p->box[0].hi.y && p->box[0].lo.y <= p->box[i].hi.y))
            assert_true(take(p, i));
    sccd_impact_callbacks2 cb = {NULL, NULL, NULL, pool_gather, p};
    sccd_ccd_options o = options(1e-3);
    return sccd_impact2_solve(p->sb, p->n, p->ss, p->n, DT, &o, &cb, &scratch, st);
}

/* The oracle of a solve that gathered mid-step (solve_gathering): the same
 * step with every body passed at the start (in the order the solve ended
 * with, the bodies never taken in after them) ends the same, bit for bit,
 * and the bodies never taken in are never met. */
static void assert_gathered_as_all(const pool *p)
{
    sccd_impact_body2 all[POOL_MAX];
    sccd_impact_shape2 shapes[POOL_MAX];
    int n = 0, of[POOL_MAX];
    for (int k = 0; k < p->n; ++k)
        of[n++] = p->of[k];
    for (int i = 0; i < p->m; ++i)
        if (!p->in[i])
            of[n++] = i;
    for (int k = 0; k < n; ++k) {
        all[k] = p->body[of[k]];
        all[k].first_shape = k;
        shapes[k] = p->shape[of[k]];
        shapes[k].body = k;
    }
    sccd_ccd_options o = options(1e-3);
    assert_true(sccd_impact2_solve(all, n, shapes, n, DT, &o, NULL, &scratch, NULL));
    for (int k = 0; k < n; ++k) {
        const sccd_impact_body2 *a = &all[k];
        if (k >= p->n) { /* never taken in: never met */
            assert_true(a->impacts == 0 && !a->held);
            continue;
        }
        const sccd_impact_body2 *b = &p->sb[k];
        assert_true(a->end_pose.p.x == b->end_pose.p.x && a->end_pose.p.y == b->end_pose.p.y);
        assert_true(a->end_angle == b->end_angle);
        assert_true(a->end_v.x == b->end_v.x && a->end_v.y == b->end_v.y && a->end_w == b->end_w);
        assert_true(a->impacts == b->impacts && a->held == b->held);
    }
}

/* The solver asks the caller for what a body an impact set moving may reach
 * and goes on with what it appends (oracle: assert_gathered_as_all). */
static void test_gather_mid_step(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(2024);
    long gathered = 0, asked = 0, impacts = 0;
    for (int trial = 0; trial < 200; ++trial) {
        pool p;
        make_pool(&p, &g, 48, 2.0);
        sccd_impact_stats st = {0};
        assert_true(solve_gathering(&p, &st));
        gathered += st.gathered;
        asked += st.gathers;
        impacts += st.impacts;
        assert_int_equal(st.gathers, p.asked);
        assert_gathered_as_all(&p);
        free(p.sb);
        free(p.ss);
    }
    printf("impact2: gathering mid-step, 200 steps: %ld impacts, %ld questions, %ld bodies taken in\n", impacts, asked, gathered);
    assert_true(gathered > 100 && asked > 200);
}

/* A field of balls and posts about the blade, 160 bodies within 1.5 of
 * its hinge, the struck balls striking others again and again: a ball
 * asking again asks about a grown box (impact2.c, REASK_GROWTH), and a
 * later question within it is not asked. Oracle: assert_gathered_as_all;
 * it fails (seed 77) when the box recorded as asked is the grown one but
 * the box asked about is not. */
static void test_gather_asked_again(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(77);
    long asked = 0, gathered = 0;
    for (int trial = 0; trial < 400; ++trial) {
        pool p;
        make_pool(&p, &g, POOL_MAX, 1.5);
        sccd_impact_stats st = {0};
        assert_true(solve_gathering(&p, &st));
        asked += st.gathers;
        gathered += st.gathered;
        assert_gathered_as_all(&p);
        free(p.sb);
        free(p.ss);
    }
    printf("impact2: a field struck again and again, 400 steps: %ld questions, %ld bodies taken in\n", asked, gathered);
    assert_true(asked > 400);
}

/* A hook that fails (out of memory, its arrays moved): the solve fails and
 * every body gets its free motion, written where the arrays are now (the
 * sanitizer build checks the accesses). */
static void test_gather_fails(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(98);
    int failed = 0;
    for (int trial = 0; trial < 50; ++trial) {
        pool p;
        make_pool(&p, &g, 48, 2.0);
        p.fail = 1 + trial % 3;
        bool ok = solve_gathering(&p, NULL);
        if (p.asked >= p.fail) {
            ++failed;
            assert_false(ok);
            for (int k = 0; k < p.n; ++k) {
                const sccd_impact_body2 *b = &p.sb[k];
                double turn = b->w * DT;
                assert_true(b->impacts == 0 && !b->held);
                assert_true(fabs(b->end_angle - (b->angle + turn)) < 1e-12 && b->end_w == b->w);
            }
        }
        free(p.sb);
        free(p.ss);
    }
    assert_true(failed > 10);
}

/* A hook that appends a bad body: SCCD_ASSERT, the solve fails, the bad
 * body is kept still and the others get their free motions. */
static void test_gather_bad_body(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_rng g = sccd_rng_make(99);
    int failed = 0;
    for (int trial = 0; trial < 50; ++trial) {
        pool p;
        make_pool(&p, &g, 48, 2.0);
        p.bad = 1;
        sccd_test_assert_reset();
        bool ok = solve_gathering(&p, NULL);
        if (p.asked > 0) {
            ++failed;
            assert_false(ok);
            assert_int_equal(sccd_test_assert_count(), 1);
            for (int k = 0; k < p.n; ++k) {
                const sccd_impact_body2 *b = &p.sb[k];
                assert_true(sccd_is_valid_xf2(b->end_pose) && sccd_is_valid_v2(b->end_v) && sccd_is_valid_real(b->end_w));
                if (sccd_is_valid_v2(b->v))
                    assert_true(b->impacts == 0 && !b->held);
                else
                    assert_true(b->end_pose.p.x == b->pose.p.x && b->end_v.x == 0.0);
            }
        }
        free(p.sb);
        free(p.ss);
    }
    assert_true(failed > 10);
}

/* ---- bad input ---- */

/* ---- the free motion a caller gathers by ---- */

/* The closed form of body b's free pose at u: a hinged dynamic body turned
 * about its world hinge by u·w·dt; a free or kinematic one turned as much
 * about its pivot, which moves on the line from its start to where the
 * centre of mass moving by v·dt puts it; a static one still. */
static sccd_xf2 free_pose(const sccd_impact_body2 *b, double u)
{
    sccd_rot2 q = sccd_rot2_make(b->angle + u * b->w * DT);
    if (b->kind == SCCD_BODY_STATIC)
        return b->pose;
    if (b->hinged && b->kind == SCCD_BODY_DYNAMIC) {
        sccd_v2 h = sccd_xf2_apply(b->pose, b->hinge);
        return (sccd_xf2){sccd_v2_sub(h, sccd_rot2_apply(q, b->hinge)), q};
    }
    sccd_rot2 q1 = sccd_rot2_make(b->angle + b->w * DT);
    sccd_v2 cog1 = sccd_v2_mad(sccd_xf2_apply(b->pose, b->cog), DT, b->v);
    sccd_v2 p0 = sccd_xf2_apply(b->pose, b->pivot), p1 = sccd_v2_add(cog1, sccd_rot2_apply(q1, sccd_v2_sub(b->pivot, b->cog)));
    return (sccd_xf2){sccd_v2_sub(sccd_v2_lerp(p0, p1, u), sccd_rot2_apply(q, b->pivot)), q};
}

/* sccd_impact2_free_motion against the closed form over random bodies of
 * every kind (hinges and pivots off the centre of mass), and against the
 * solve's own end pose of the body alone; bad input asserts and stands still. */
static void test_free_motion(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(2026);
    const sccd_body_kind kinds[] = {SCCD_BODY_DYNAMIC, SCCD_BODY_KINEMATIC, SCCD_BODY_STATIC};
    sccd_ccd_options o = options(1e-3);
    double worst = 0.0;
    for (int trial = 0; trial < 2000; ++trial) {
        scene s = {0};
        double angle = sccd_rng_uniform(&g, -4.0, 4.0);
        add(&s, kinds[trial % 3], random_shape(&g, 1.0), (sccd_v2){sccd_rng_uniform(&g, -5, 5), sccd_rng_uniform(&g, -5, 5)}, angle,
            1.0, 0.3);
        sccd_impact_body2 *b = &s.body[0];
        b->v = (sccd_v2){sccd_rng_uniform(&g, -20, 20), sccd_rng_uniform(&g, -20, 20)};
        b->w = (sccd_rng_int(&g, 2) ? 1.0 : -1.0) * log_uniform(&g, 0.1, 600.0);
        b->cog = (sccd_v2){sccd_rng_uniform(&g, -0.5, 0.5), sccd_rng_uniform(&g, -0.5, 0.5)};
        b->pivot = (sccd_v2){sccd_rng_uniform(&g, -1, 1), sccd_rng_uniform(&g, -1, 1)};
        b->hinged = sccd_rng_int(&g, 2);
        b->hinge = (sccd_v2){sccd_rng_uniform(&g, -1.5, 1.5), sccd_rng_uniform(&g, -1.5, 1.5)};
        sccd_motion2 m = sccd_impact2_free_motion(b, DT);
        for (double u = 0.0; u <= 1.0; u += 0.125) {
            sccd_xf2 got = sccd_motion2_at(m, u), want = free_pose(b, u);
            worst = fmax(worst, sccd_v2_dist(got.p, want.p) + fabs(sccd_rot2_angle(sccd_rot2_inv_mul(want.q, got.q))));
        }
        assert_true(sccd_impact2_solve(s.body, s.n, s.shape, s.n, DT, &o, NULL, &scratch, NULL));
        sccd_xf2 end = sccd_motion2_at(m, 1.0);
        assert_true(sccd_v2_dist(end.p, s.body[0].end_pose.p) < 1e-9);
    }
    print_message("free motion vs closed form: worst pose error %.2e\n", worst);
    assert_true(worst < 1e-9);
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_motion2 m = sccd_impact2_free_motion(NULL, DT);
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_true(m.dtheta == 0.0 && m.dp.x == 0.0 && m.start.p.x == 0.0);
    scene s = {0};
    add(&s, SCCD_BODY_DYNAMIC, circle(0.1), (sccd_v2){1, 2}, 0.0, 1, 1);
    s.body[0].w = NAN;
    m = sccd_impact2_free_motion(&s.body[0], DT);
    assert_int_equal(sccd_test_assert_count(), 2);
    assert_true(m.dtheta == 0.0 && m.dp.y == 0.0);
    s.body[0].w = 1.0;
    sccd_impact2_free_motion(&s.body[0], -DT);
    assert_int_equal(sccd_test_assert_count(), 3);
}

/* Whether p lies in box (exactly: the box's growth must hold it). */
static bool box_holds(sccd_aabb2 box, sccd_v2 p) { return box.lo.x <= p.x && p.x <= box.hi.x && box.lo.y <= p.y && p.y <= box.hi.y; }

/* The most any support point of g along 64 directions, at 65 times of the
 * motion given by pose_of (the solver's free motion, or the closed form),
 * lies outside box (≤ 0: all inside); ends at the first outside. */
static double outside_by(sccd_aabb2 box, const sccd_shape2 *g, const sccd_impact_body2 *b, sccd_motion2 m, bool closed)
{
    double worst = -INFINITY;
    for (int k = 0; k <= 64; ++k) {
        sccd_xf2 x = closed ? free_pose(b, k / 64.0) : sccd_motion2_at(m, k / 64.0);
        for (int d = 0; d < 64; ++d) {
            sccd_v2 p = sccd_shape2_support(g, x, (sccd_v2){cos(2.0 * SCCD_PI * d / 64.0), sin(2.0 * SCCD_PI * d / 64.0)});
            double out = fmax(fmax(box.lo.x - p.x, p.x - box.hi.x), fmax(box.lo.y - p.y, p.y - box.hi.y));
            worst = fmax(worst, out);
        }
    }
    return worst;
}

/* sccd_impact2_centre_box: given only for a body turning about its centre
 * of mass (not a dynamic hinged one, its pivot that centre), and then it
 * holds every point of the shape over the free motion, the solver's and
 * the closed form's, by dense sampling: random bodies of every kind, spins
 * of 0.1 to 600 rad/s (past a whole turn a step, where the corners sweep
 * the full disc: the box is then within a few 1e-3 of the samples, so a
 * growth cut by 1 % fails). A square about its centre is compact, a 10:1
 * bar and a polygon wound clockwise are not; a rotation a little off unit
 * (valid within 1e-6) stretches the shape, which the growth covers (with ρ
 * alone the square's corner is 7e-7 outside). Bad input asserts, false. */
static void test_centre_box(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(4242);
    const sccd_body_kind kinds[] = {SCCD_BODY_DYNAMIC, SCCD_BODY_KINEMATIC, SCCD_BODY_STATIC};
    int given = 0, fast = 0;
    double tightest = INFINITY;
    for (int trial = 0; trial < 3000; ++trial) {
        scene s = {0};
        double angle = sccd_rng_uniform(&g, -4.0, 4.0);
        add(&s, kinds[trial % 3], random_shape(&g, 1.0), (sccd_v2){sccd_rng_uniform(&g, -50, 50), sccd_rng_uniform(&g, -50, 50)},
            angle, 1.0, 0.3);
        sccd_impact_body2 *b = &s.body[0];
        b->v = (sccd_v2){sccd_rng_uniform(&g, -20, 20), sccd_rng_uniform(&g, -20, 20)};
        b->w = (sccd_rng_int(&g, 2) ? 1.0 : -1.0) * log_uniform(&g, 0.1, 600.0);
        b->cog = (sccd_v2){sccd_rng_uniform(&g, -0.3, 0.3), sccd_rng_uniform(&g, -0.3, 0.3)};
        b->pivot = sccd_rng_int(&g, 4) == 0 ? (sccd_v2){sccd_rng_uniform(&g, -1, 1), sccd_rng_uniform(&g, -1, 1)} : b->cog;
        b->hinged = sccd_rng_int(&g, 5) == 0;
        b->hinge = (sccd_v2){sccd_rng_uniform(&g, -1.5, 1.5), sccd_rng_uniform(&g, -1.5, 1.5)};
        sccd_aabb2 box;
        bool got = sccd_impact2_centre_box(b, &s.shape[0].geom, DT, &box);
        bool turns_about_centre = !(b->hinged && b->kind == SCCD_BODY_DYNAMIC) && b->pivot.x == b->cog.x && b->pivot.y == b->cog.y;
        assert_true(!got || turns_about_centre);
        if (s.shape[0].geom.type == SCCD_SHAPE_CIRCLE && s.shape[0].geom.circle.r >= 0.3 * sqrt(2.0) * 1.2)
            assert_true(got == turns_about_centre); /* a disc about the centre of mass, nearly: compact */
        if (!got)
            continue;
        ++given;
        sccd_motion2 m = sccd_impact2_free_motion(b, DT);
        double out = fmax(outside_by(box, &s.shape[0].geom, b, m, false), outside_by(box, &s.shape[0].geom, b, m, true));
        assert_true(out <= 0.0);
        if (b->kind != SCCD_BODY_STATIC && fabs(b->w) * DT > 2.0 * SCCD_PI) { /* its corners sweep every direction */
            ++fast;
            tightest = fmin(tightest, -out);
        }
    }
    print_message("centre box: given for %d of 3000 bodies; %d turn wholly, their closest sample %.2e inside\n", given, fast, tightest);
    assert_true(given > 600 && fast > 15);
    assert_true(tightest < 0.01); /* some fast body's samples come within 1 % of its box: a cut growth fails */

    /* compactness: a square yes, a 10:1 bar no, a clockwise polygon no (no assert) */
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s = {0};
    sccd_shape2 square = {.type = SCCD_SHAPE_BOX, .box = {{0, 0}, sccd_rot2_identity(), {1, 1}}};
    add(&s, SCCD_BODY_DYNAMIC, square, (sccd_v2){0, 0}, 0.0, 1, 1);
    sccd_aabb2 box;
    assert_true(sccd_impact2_centre_box(&s.body[0], &square, DT, &box));
    sccd_shape2 bar = square;
    bar.box.h.y = 0.1;
    assert_false(sccd_impact2_centre_box(&s.body[0], &bar, DT, &box));
    sccd_shape2 cw = {.type = SCCD_SHAPE_POLY, .poly = {4, {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}}, 0.0}};
    assert_false(sccd_impact2_centre_box(&s.body[0], &cw, DT, &box));
    assert_int_equal(sccd_test_assert_count(), 0);
    /* a rotation 4e-7 off unit, the square's diagonal along y: its corner at √2·(1 + 2e-7) */
    double k = sqrt(1.0 + 4e-7);
    s.body[0].pose.q = (sccd_rot2){k * cos(SCCD_PI / 4.0), k * sin(SCCD_PI / 4.0)};
    assert_true(sccd_is_valid_rot2(s.body[0].pose.q));
    assert_true(sccd_impact2_centre_box(&s.body[0], &square, DT, &box));
    assert_true(box_holds(box, sccd_xf2_apply(s.body[0].pose, (sccd_v2){1, 1})));
    /* a disc about a centre of mass 100 from the body's origin, the rotation 4.5e-7 off unit, still and spinning */
    scene far = {0};
    sccd_shape2 disc = {.type = SCCD_SHAPE_CIRCLE, .circle = {{100, 0}, 0.5}};
    add(&far, SCCD_BODY_DYNAMIC, disc, (sccd_v2){1, 2}, SCCD_PI / 2.0, 1, 1);
    far.body[0].pose.q = (sccd_rot2){0.0, sqrt(1.0 + 9e-7)};
    far.body[0].cog = far.body[0].pivot = (sccd_v2){100, 0};
    for (int moving = 0; moving < 2; ++moving) {
        far.body[0].v = (sccd_v2){moving * 3.0, -moving * 2.0};
        far.body[0].w = moving * 40.0;
        assert_true(sccd_impact2_centre_box(&far.body[0], &disc, DT, &box));
        sccd_motion2 m = sccd_impact2_free_motion(&far.body[0], DT);
        assert_true(outside_by(box, &disc, &far.body[0], m, false) <= 0.0);
    }
    /* past the doubles: no box (inf - inf would make it NaN), no assert; a polygon of finite vertices whose sum
     * overflows is valid input */
    far.body[0].pose = (sccd_xf2){{1.7e308, 0}, sccd_rot2_identity()};
    far.body[0].cog = far.body[0].pivot = (sccd_v2){1e308, 0};
    disc.circle.c = far.body[0].cog;
    assert_false(sccd_impact2_centre_box(&far.body[0], &disc, DT, &box));
    sccd_shape2 huge = {.type = SCCD_SHAPE_POLY, .poly = {3, {{1e308, 0}, {1.5e308, 1e308}, {1e308, 1.7e308}}, 0.0}};
    sccd_impact2_centre_box(&s.body[0], &huge, DT, &box);
    assert_int_equal(sccd_test_assert_count(), 0);
    /* bad input */
    sccd_impact_body2 bad = s.body[0];
    bad.v.x = NAN;
    assert_false(sccd_impact2_centre_box(&bad, &square, DT, &box));
    assert_int_equal(sccd_test_assert_count(), 1);
    sccd_shape2 nan_square = square;
    nan_square.box.h.x = INFINITY;
    assert_false(sccd_impact2_centre_box(&s.body[0], &nan_square, DT, &box));
    assert_false(sccd_impact2_centre_box(&s.body[0], &square, -DT, &box));
    assert_false(sccd_impact2_centre_box(NULL, &square, DT, &box));
    assert_int_equal(sccd_test_assert_count(), 4);
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    scene s = {0};
    add(&s, SCCD_BODY_DYNAMIC, circle(0.1), (sccd_v2){1, 2}, 0.5, 1, 1);
    add(&s, SCCD_BODY_STATIC, circle(0.1), (sccd_v2){0, 0}, 0.0, 1, 1);
    sccd_ccd_options o = options(1e-3);
    const double bad[] = {NAN, INFINITY};
    for (int k = 0; k < 2; ++k) {
        scene t = s;
        t.body[0].w = 3.0;
        t.body[0].v = (sccd_v2){bad[k], 0.0};
        sccd_test_assert_reset();
        assert_false(sccd_impact2_solve(t.body, t.n, t.shape, t.n, DT, &o, NULL, &scratch, NULL));
        assert_int_equal(sccd_test_assert_count(), 1);
        /* kept still at its start pose */
            assert_true(t.body[0].end_pose.p.x == 1.0 && t.body[0].end_v.x == 0.0 && t.body[0].end_w == 0.0);
    }
    scene t = s;
    t.body[0].inv_mass = -1.0; /* a negative mass */
    sccd_test_assert_reset();
    assert_false(sccd_impact2_solve(t.body, t.n, t.shape, t.n, DT, &o, NULL, &scratch, NULL));
    assert_int_equal(sccd_test_assert_count(), 1);
    t = s;
    t.shape[1].body = 0; /* a shape listed under the wrong body */
    assert_false(sccd_impact2_solve(t.body, t.n, t.shape, t.n, DT, &o, NULL, &scratch, NULL));
    t = s;
    t.shape[0].geom.circle.r = NAN;
    assert_false(sccd_impact2_solve(t.body, t.n, t.shape, t.n, DT, &o, NULL, &scratch, NULL));
    sccd_ccd_options bad_o = o;
    bad_o.toi_max_iterations = 0;
    assert_false(sccd_impact2_solve(s.body, s.n, s.shape, s.n, DT, &bad_o, NULL, &scratch, NULL));
    assert_false(sccd_impact2_solve(s.body, s.n, s.shape, s.n, NAN, &o, NULL, &scratch, NULL));
    assert_false(sccd_impact2_solve(NULL, 1, s.shape, s.n, DT, &o, NULL, &scratch, NULL));
    /* an empty step and a zero dt are fine */
    assert_true(sccd_impact2_solve(s.body, 0, NULL, 0, DT, &o, NULL, &scratch, NULL));
    assert_true(sccd_impact2_solve(s.body, s.n, s.shape, s.n, 0.0, &o, NULL, &scratch, NULL));
    assert_true(s.body[0].end_pose.p.x == 1.0 && s.body[0].end_pose.p.y == 2.0);
}

static int teardown(void **state)
{
    (void)state;
    sccd_impact_scratch_free(&scratch);
    return 0;
}

int main(void)
{
#ifdef SCCD_TEST_LAST_STOPS
    /* test_impact2_last (Makefile): the solver's event loop built to take two
     * events a step before its last stops (impact_events.c), so that every
     * busy step of these scenes ends in them: they must let nothing pass and
     * add no energy either. */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_energy_never_grows), cmocka_unit_test(test_hinged_rods_never_pass),
        cmocka_unit_test(test_flyers_never_pass),  cmocka_unit_test(test_blade_bats_ball),
        cmocka_unit_test(test_blade_pushes_pile),  cmocka_unit_test(test_blade_sweeps_ring),
        cmocka_unit_test(test_jam_at_one_instant),
    };
#else
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bat_exit_velocity),   cmocka_unit_test(test_pushed_ball_slides_off),
        cmocka_unit_test(test_hinged_rod_rebound),
        cmocka_unit_test(test_energy_never_grows),  cmocka_unit_test(test_units_of_length),
        cmocka_unit_test(test_hinged_rods_never_pass),
        cmocka_unit_test(test_flyers_never_pass),   cmocka_unit_test(test_blade_bats_ball),
        cmocka_unit_test(test_blade_pushes_pile),   cmocka_unit_test(test_blade_sweeps_ring), cmocka_unit_test(test_jam_at_one_instant), cmocka_unit_test(test_rider_leaves_as_carried),
        cmocka_unit_test(test_parted_and_met),
        cmocka_unit_test(test_spinning_ball_out_of_reach),
        cmocka_unit_test(test_spinning_ball_grazes_corner),
        cmocka_unit_test(test_flying_marks),        cmocka_unit_test(test_struck_ball_tested),
        cmocka_unit_test(test_struck_ball_partners),
        cmocka_unit_test(test_many_bodies_bounce),
        cmocka_unit_test(test_hooks),               cmocka_unit_test(test_push_hooks),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_gather_mid_step),     cmocka_unit_test(test_gather_asked_again),
        cmocka_unit_test(test_gather_bad_body),
        cmocka_unit_test(test_gather_fails),        cmocka_unit_test(test_free_motion),
        cmocka_unit_test(test_centre_box),
    };
#endif
    return cmocka_run_group_tests(tests, NULL, teardown);
}
