/* The CCD pipeline (ccd.h): sweep pre-filter, then TOI.
 *
 * Why the pre-filter never rejects a true contact. A contact at time t means
 * a point x of A(t) within target of B(t). The sweeps' tests take a static
 * world shape, so the pair is reduced to "one body moving against a static
 * set" in a frame that translates with the other body:
 * - B does not turn: in the frame moving with B's translation, B stays at its
 *   start pose and A moves by the same turn about its centre with the
 *   relative translation dpA − dpB: x lies in the sweep of A under that
 *   motion, and within target of B's start pose. Rejected when the sweep
 *   misses B grown by target.
 * - A does not turn: the same with A and B exchanged.
 * - both turn: in the frame moving with B's centre, B(t) stays inside the
 *   disc (ball) of radius ρB about B's centre at t = 0 (ρB = the farthest
 *   distance of B from its centre, whatever B's turn); x lies in the sweep of
 *   A under the relative motion and within ρB + target of that centre.
 *   Rejected when either body's relative sweep misses the other's grown disc.
 * Each rejection is the contrapositive of a containment, so it is a proof. */
#include "sectorccd/ccd.h"
#include "sectorccd/support.h"
#include "trig.h"
#include "unchecked.h"

/* The box's own frame as the moving body: pose start·(c, q), centre in box
 * coordinates q⁻¹·(centre − c); the same turn and translation. */
static sccd_motion2 box_motion2(sccd_box2 b, sccd_motion2 m)
{
    sccd_xf2 local = {b.c, b.q};
    sccd_v2 centre = sccd_rot2_inv_apply(b.q, sccd_v2_sub(m.center, b.c));
    return (sccd_motion2){sccd_xf2_mul(m.start, local), centre, m.dp, m.dtheta};
}

static sccd_motion3 box_motion3(sccd_box3 b, sccd_motion3 m)
{
    sccd_xf3 local = {b.c, b.q};
    sccd_v3 centre = sccd_quat_inv_apply(b.q, sccd_v3_sub(m.center, b.c));
    return (sccd_motion3){sccd_xf3_mul(m.start, local), centre, m.dp, m.axis, m.angle};
}

void sccd_sweep2_shape(sccd_sweep2 *out, const sccd_shape2 *s, sccd_motion2 m, int bands)
{
    if (!sccd_is_valid_shape2(s)) {
        SCCD_ASSERT(sccd_is_valid_shape2(s));
        *out = (sccd_sweep2){0};
        return;
    }
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: sccd_sweep2_circle(out, s->circle, m, bands); break;
    case SCCD_SHAPE_CAPSULE: sccd_sweep2_capsule(out, s->capsule, m, bands); break;
    case SCCD_SHAPE_BOX: sccd_sweep2_box(out, s->box.h, box_motion2(s->box, m), bands); break;
    case SCCD_SHAPE_POLY: sccd_sweep2_poly(out, &s->poly, m, bands); break;
    }
}

void sccd_sweep3_shape(sccd_sweep3 *out, const sccd_shape3 *s, sccd_motion3 m, int bands)
{
    if (!sccd_is_valid_shape3(s)) {
        SCCD_ASSERT(sccd_is_valid_shape3(s));
        *out = (sccd_sweep3){.aabb = {{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}}};
        return;
    }
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: sccd_sweep3_sphere(out, s->sphere, m, bands); break;
    case SCCD_SHAPE_CAPSULE: sccd_sweep3_capsule(out, s->capsule, m, bands); break;
    default: sccd_sweep3_box(out, s->box.h, box_motion3(s->box, m), bands); break;
    }
}

/* How far a point's arc strays from its chord when it turns by phi at
 * distance ≤ rho from the centre: the sagitta rho·(1 − cos(phi/2)) for
 * |phi| ≤ π, else 2·rho (the whole circle about the moving centre, which
 * lies within rho of either end pose). The start and end boxes hold every
 * chord, so grown by this they hold every arc. From `half`, the cosine and
 * sine of phi/2 by the core's series (trig.h, within 4e-16), without
 * cancellation: 1 − cos x = sin²x / (1 + cos x), cos x ≥ 0 here; grown by
 * STRAY_PAD·rho for the end pose made from the same values, which stands
 * that little from sccd_motion*_at's (the series of the whole turn) at any
 * point within rho. */
#define STRAY_PAD 4e-15
static sccd_real arc_stray(sccd_real phi, sccd_rot2 half, sccd_real rho)
{
    if (!(fabs(phi) <= SCCD_PI))
        return 2.0 * rho;
    return rho * (half.s * half.s / (1.0 + half.c) + STRAY_PAD);
}

sccd_aabb2 sccd_shape2_motion_box(const sccd_shape2 *s, sccd_motion2 m)
{
    if (!sccd_is_valid_shape2(s) || !sccd_is_valid_motion2(m)) {
        SCCD_ASSERT(sccd_is_valid_shape2(s) && sccd_is_valid_motion2(m));
        return (sccd_aabb2){{-INFINITY, -INFINITY}, {INFINITY, INFINITY}};
    }
    return sccd_shape2_motion_box_unchecked(s, m);
}

/* The end pose is sccd_motion2_at's at t = 1, its turn by the double-angle
 * formulas from the half turn's cosine and sine, which the stray takes
 * too: one series evaluation (trig.h) for the turn and the sagitta. The
 * stray is the core's: a shape is its core grown by its rounding radius, a
 * disc about every core point that no turn changes, and the end boxes hold
 * that growth (a spinning circle's box is its path's, not grown by its
 * radius' sagitta). */
sccd_aabb2 sccd_shape2_motion_box_unchecked(const sccd_shape2 *s, sccd_motion2 m)
{
    sccd_rot2 half = sccd_cos_sin(0.5 * m.dtheta);
    sccd_rot2 turn = {half.c * half.c - half.s * half.s, 2.0 * half.c * half.s}, q1 = sccd_rot2_mul(turn, m.start.q);
    sccd_xf2 end = {sccd_v2_sub(sccd_motion2_center_at_inline(&m, 1.0), sccd_rot2_apply(q1, m.center)), q1};
    sccd_real core;
    sccd_aabb2 box = sccd_shape2_ends_aabb_unchecked(s, m.start, end, m.center, &core);
    sccd_real grow = arc_stray(m.dtheta, half, core);
    return (sccd_aabb2){sccd_v2_sub(box.lo, (sccd_v2){grow, grow}), sccd_v2_add(box.hi, (sccd_v2){grow, grow})};
}

sccd_aabb3 sccd_shape3_motion_box(const sccd_shape3 *s, sccd_motion3 m)
{
    if (!sccd_is_valid_shape3(s) || !sccd_is_valid_motion3(m)) {
        SCCD_ASSERT(sccd_is_valid_shape3(s) && sccd_is_valid_motion3(m));
        return (sccd_aabb3){{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}};
    }
    return sccd_shape3_motion_box_unchecked(s, m);
}

/* As in 2D: sccd_motion3_at's end pose, its turn (a quaternion: the half
 * turn's cosine and sine) by the core's series. */
sccd_aabb3 sccd_shape3_motion_box_unchecked(const sccd_shape3 *s, sccd_motion3 m)
{
    sccd_rot2 half = sccd_cos_sin(0.5 * m.angle);
    sccd_quat turn = {m.axis.x * half.s, m.axis.y * half.s, m.axis.z * half.s, half.c};
    sccd_quat q1 = sccd_quat_normalize(sccd_quat_mul(turn, m.start.q));
    sccd_xf3 end = {sccd_v3_sub(sccd_motion3_center_at_inline(&m, 1.0), sccd_quat_apply(q1, m.center)), q1};
    sccd_real core;
    sccd_aabb3 box = sccd_shape3_ends_aabb_unchecked(s, m.start, end, m.center, &core);
    sccd_real grow = arc_stray(m.angle, half, core);
    sccd_v3 g = {grow, grow, grow};
    return (sccd_aabb3){sccd_v3_sub(box.lo, g), sccd_v3_add(box.hi, g)};
}

/* ---- 2D ---- */

/* The sweep meets shape s placed by xf and grown by e ≥ 0 (a box grown by e
 * is a polygon rounded by e). */
bool sccd_sweep2_meets_shape(const sccd_sweep2 *w, const sccd_shape2 *s, sccd_xf2 xf, sccd_real e)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        return sccd_sweep2_vs_circle(w, (sccd_circle){sccd_xf2_apply(xf, s->circle.c), s->circle.r + e});
    case SCCD_SHAPE_CAPSULE:
        return sccd_sweep2_vs_capsule(w, (sccd_capsule2){sccd_xf2_apply(xf, s->capsule.a),
                                                         sccd_xf2_apply(xf, s->capsule.b), s->capsule.r + e});
    default: {
        sccd_proxy2 p = sccd_proxy2_make(s, xf);
        sccd_poly2 poly = {p.n, {{0.0, 0.0}}, p.r + e};
        for (int i = 0; i < p.n; ++i)
            poly.v[i] = p.v[i];
        return sccd_sweep2_vs_poly(w, &poly);
    }
    }
}

/* Body a under motion m relative to a frame translating by other_dp, against
 * a static shape: the sweep of a with dp − other_dp. */
static bool relative_sweep2_meets(const sccd_shape2 *a, sccd_motion2 m, sccd_v2 other_dp, int bands,
                                  const sccd_shape2 *s, sccd_xf2 xf, sccd_real e, sccd_ccd_stats *stats)
{
    sccd_sweep2 w;
    m.dp = sccd_v2_sub(m.dp, other_dp);
    sccd_sweep2_shape(&w, a, m, bands);
    ++stats->sweeps;
    return sccd_sweep2_meets_shape(&w, s, xf, e);
}

/* The disc of radius rho about the motion centre's start position. */
static sccd_shape2 centre_disc2(sccd_motion2 m, sccd_real rho)
{
    return (sccd_shape2){.type = SCCD_SHAPE_CIRCLE, .circle = {sccd_xf2_apply(m.start, m.center), rho}};
}

static bool rejects2(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb, sccd_real e,
                     int bands, sccd_ccd_stats *stats)
{
    if (mb.dtheta == 0.0)
        return !relative_sweep2_meets(a, ma, mb.dp, bands, b, mb.start, e, stats);
    if (ma.dtheta == 0.0)
        return !relative_sweep2_meets(b, mb, ma.dp, bands, a, ma.start, e, stats);
    sccd_shape2 disc_b = centre_disc2(mb, sccd_shape2_farthest(b, mb.center));
    sccd_shape2 disc_a = centre_disc2(ma, sccd_shape2_farthest(a, ma.center));
    sccd_xf2 id = sccd_xf2_identity();
    return !relative_sweep2_meets(a, ma, mb.dp, bands, &disc_b, id, e, stats) ||
           !relative_sweep2_meets(b, mb, ma.dp, bands, &disc_a, id, e, stats);
}

static bool valid_input2(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                         sccd_real target, sccd_real tolerance)
{
    return sccd_is_valid_shape2(a) && sccd_is_valid_shape2(b) && sccd_is_valid_motion2(ma) &&
           sccd_is_valid_motion2(mb) && sccd_is_valid_real(target) && target >= 0.0 &&
           sccd_is_valid_real(tolerance) && tolerance > 0.0;
}

/* sccd_ccd2 of a query solved in units of 1/k (sccd_toi2_query_factor):
 * its sweeps' pre-filter took a pair's extents by roots of squares, which
 * underflowed below 1e-160 and rejected about half of the pairs that touch. */
static sccd_toi2 ccd2_scaled(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                             sccd_real target, sccd_real tolerance, int bands, sccd_ccd_stats *stats, sccd_real k)
{
    sccd_shape2 ak = sccd_shape2_scaled(*a, k), bk = sccd_shape2_scaled(*b, k);
    sccd_toi2 r = sccd_ccd2(&ak, sccd_motion2_scaled(ma, k), &bk, sccd_motion2_scaled(mb, k), target * k, tolerance * k,
                            bands, stats);
    r.point = sccd_v2_scale(r.point, 1.0 / k);
    return r;
}

sccd_toi2 sccd_ccd2(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb, sccd_real target,
                    sccd_real tolerance, int bands, sccd_ccd_stats *stats)
{
    sccd_ccd_stats local = {0};
    stats = stats ? stats : &local;
    if (valid_input2(a, ma, b, mb, target, tolerance)) {
        sccd_real k = sccd_toi2_query_factor(a, ma, b, mb, target, tolerance);
        if (k != 1.0)
            return ccd2_scaled(a, ma, b, mb, target, tolerance, bands, stats, k);
    }
    ++stats->pairs;
    if (!valid_input2(a, ma, b, mb, target, tolerance)) {
        SCCD_ASSERT(valid_input2(a, ma, b, mb, target, tolerance));
        return (sccd_toi2){SCCD_TOI_FAILED, 0.0, {0.0, 0.0}, SCCD_FALLBACK_V2, 0};
    }
    if (rejects2(a, ma, b, mb, target, bands, stats)) {
        ++stats->rejected;
        return (sccd_toi2){SCCD_TOI_SEPARATED, 1.0, {0.0, 0.0}, SCCD_FALLBACK_V2, 0};
    }
    ++stats->tois;
    sccd_toi2 r = sccd_toi2_compute(a, ma, b, mb, target, tolerance);
    stats->hits += r.state == SCCD_TOI_HIT || r.state == SCCD_TOI_OVERLAPPED;
    return r;
}

/* ---- 3D ---- */

/* The sweep meets shape s placed by xf and grown by e ≥ 0 (a box grows to
 * the box with half extents h + e, which holds the rounded box). */
bool sccd_sweep3_meets_shape(const sccd_sweep3 *w, const sccd_shape3 *s, sccd_xf3 xf, sccd_real e)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        return sccd_sweep3_vs_sphere(w, (sccd_sphere){sccd_xf3_apply(xf, s->sphere.c), s->sphere.r + e});
    case SCCD_SHAPE_CAPSULE:
        return sccd_sweep3_vs_capsule(w, (sccd_capsule3){sccd_xf3_apply(xf, s->capsule.a),
                                                         sccd_xf3_apply(xf, s->capsule.b), s->capsule.r + e});
    default: {
        sccd_v3 h = sccd_v3_add(s->box.h, (sccd_v3){e, e, e});
        sccd_quat q = sccd_quat_normalize(sccd_quat_mul(xf.q, s->box.q));
        return sccd_sweep3_vs_box(w, (sccd_box3){sccd_xf3_apply(xf, s->box.c), q, h});
    }
    }
}

static bool relative_sweep3_meets(const sccd_shape3 *a, sccd_motion3 m, sccd_v3 other_dp, int bands,
                                  const sccd_shape3 *s, sccd_xf3 xf, sccd_real e, sccd_ccd_stats *stats)
{
    sccd_sweep3 w;
    m.dp = sccd_v3_sub(m.dp, other_dp);
    sccd_sweep3_shape(&w, a, m, bands);
    ++stats->sweeps;
    return sccd_sweep3_meets_shape(&w, s, xf, e);
}

static sccd_shape3 centre_ball3(sccd_motion3 m, sccd_real rho)
{
    return (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {sccd_xf3_apply(m.start, m.center), rho}};
}

static bool rejects3(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb, sccd_real e,
                     int bands, sccd_ccd_stats *stats)
{
    if (mb.angle == 0.0)
        return !relative_sweep3_meets(a, ma, mb.dp, bands, b, mb.start, e, stats);
    if (ma.angle == 0.0)
        return !relative_sweep3_meets(b, mb, ma.dp, bands, a, ma.start, e, stats);
    sccd_shape3 ball_b = centre_ball3(mb, sccd_shape3_farthest(b, mb.center));
    sccd_shape3 ball_a = centre_ball3(ma, sccd_shape3_farthest(a, ma.center));
    sccd_xf3 id = sccd_xf3_identity();
    return !relative_sweep3_meets(a, ma, mb.dp, bands, &ball_b, id, e, stats) ||
           !relative_sweep3_meets(b, mb, ma.dp, bands, &ball_a, id, e, stats);
}

static bool valid_input3(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                         sccd_real target, sccd_real tolerance)
{
    return sccd_is_valid_shape3(a) && sccd_is_valid_shape3(b) && sccd_is_valid_motion3(ma) &&
           sccd_is_valid_motion3(mb) && sccd_is_valid_real(target) && target >= 0.0 &&
           sccd_is_valid_real(tolerance) && tolerance > 0.0;
}

/* sccd_ccd3 of a query solved in units of 1/k (as ccd2_scaled). */
static sccd_toi3 ccd3_scaled(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                             sccd_real target, sccd_real tolerance, int bands, sccd_ccd_stats *stats, sccd_real k)
{
    sccd_shape3 ak = sccd_shape3_scaled(*a, k), bk = sccd_shape3_scaled(*b, k);
    sccd_toi3 r = sccd_ccd3(&ak, sccd_motion3_scaled(ma, k), &bk, sccd_motion3_scaled(mb, k), target * k, tolerance * k,
                            bands, stats);
    r.point = sccd_v3_scale(r.point, 1.0 / k);
    return r;
}

sccd_toi3 sccd_ccd3(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb, sccd_real target,
                    sccd_real tolerance, int bands, sccd_ccd_stats *stats)
{
    sccd_ccd_stats local = {0};
    stats = stats ? stats : &local;
    if (valid_input3(a, ma, b, mb, target, tolerance)) {
        sccd_real k = sccd_toi3_query_factor(a, ma, b, mb, target, tolerance);
        if (k != 1.0)
            return ccd3_scaled(a, ma, b, mb, target, tolerance, bands, stats, k);
    }
    ++stats->pairs;
    if (!valid_input3(a, ma, b, mb, target, tolerance)) {
        SCCD_ASSERT(valid_input3(a, ma, b, mb, target, tolerance));
        return (sccd_toi3){SCCD_TOI_FAILED, 0.0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    }
    if (rejects3(a, ma, b, mb, target, bands, stats)) {
        ++stats->rejected;
        return (sccd_toi3){SCCD_TOI_SEPARATED, 1.0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    }
    ++stats->tois;
    sccd_toi3 r = sccd_toi3_compute(a, ma, b, mb, target, tolerance);
    stats->hits += r.state == SCCD_TOI_HIT || r.state == SCCD_TOI_OVERLAPPED;
    return r;
}
