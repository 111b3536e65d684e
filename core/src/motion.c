/* Rigid motions of one step about a chosen centre (docs/DESIGN.md "Motion"). */
#include "sectorccd/motion.h"
#include "trig.h"
#include "unchecked.h"

bool sccd_is_valid_motion2(sccd_motion2 m)
{
    return sccd_is_valid_xf2(m.start) && sccd_is_valid_v2(m.center) && sccd_is_valid_v2(m.dp) &&
           sccd_is_valid_real(m.dtheta);
}

bool sccd_is_valid_motion3(sccd_motion3 m)
{
    return sccd_is_valid_xf3(m.start) && sccd_is_valid_v3(m.center) && sccd_is_valid_v3(m.dp) &&
           sccd_is_valid_v3(m.axis) && fabs(sccd_v3_len2(m.axis) - 1.0) < 1e-6 && sccd_is_valid_real(m.angle);
}

sccd_v2 sccd_motion2_center_at(sccd_motion2 m, sccd_real t) { return sccd_motion2_center_at_inline(&m, t); }

sccd_v3 sccd_motion3_center_at(sccd_motion3 m, sccd_real t) { return sccd_motion3_center_at_inline(&m, t); }

sccd_xf2 sccd_motion2_at(sccd_motion2 m, sccd_real t)
{
    if (!sccd_is_valid_motion2(m) || !sccd_is_valid_real(t)) {
        SCCD_ASSERT(sccd_is_valid_motion2(m) && sccd_is_valid_real(t));
        return sccd_is_valid_xf2(m.start) ? m.start : sccd_xf2_identity();
    }
    return sccd_motion2_at_unchecked(m, t);
}

sccd_xf2 sccd_motion2_at_unchecked(sccd_motion2 m, sccd_real t)
{
    if (t == 0.0) /* the start as given (no turn to make; the solvers ask at every segment's start) */
        return m.start;
    sccd_rot2 q = sccd_rot2_mul(sccd_cos_sin(t * m.dtheta), m.start.q); /* the core's series: the solvers ask often */
    /* The centre is fixed in the body: p = c(t) − q·center. */
    sccd_v2 p = sccd_v2_sub(sccd_motion2_center_at_inline(&m, t), sccd_rot2_apply(q, m.center));
    return (sccd_xf2){p, q};
}

sccd_xf3 sccd_motion3_at(sccd_motion3 m, sccd_real t)
{
    if (!sccd_is_valid_motion3(m) || !sccd_is_valid_real(t)) {
        SCCD_ASSERT(sccd_is_valid_motion3(m) && sccd_is_valid_real(t));
        return sccd_is_valid_xf3(m.start) ? m.start : sccd_xf3_identity();
    }
    return sccd_motion3_at_unchecked(m, t);
}

sccd_xf3 sccd_motion3_at_unchecked(sccd_motion3 m, sccd_real t)
{
    if (t == 0.0) /* as sccd_motion2_at_unchecked, normalised as every other time's */
        return (sccd_xf3){m.start.p, sccd_quat_normalize(m.start.q)};
    sccd_quat q = sccd_quat_normalize(sccd_quat_mul(sccd_quat_turn(m.axis, t * m.angle), m.start.q));
    sccd_v3 p = sccd_v3_sub(sccd_motion3_center_at_inline(&m, t), sccd_quat_apply(q, m.center));
    return (sccd_xf3){p, q};
}

sccd_motion2 sccd_motion2_from_velocity(sccd_xf2 start, sccd_v2 center, sccd_v2 v, sccd_real w, sccd_real dt)
{
    sccd_motion2 m = {start, center, sccd_v2_scale(v, dt), w * dt};
    if (!sccd_is_valid_motion2(m)) {
        SCCD_ASSERT(sccd_is_valid_motion2(m));
        sccd_xf2 s = sccd_is_valid_xf2(start) ? start : sccd_xf2_identity();
        sccd_v2 c = sccd_is_valid_v2(center) ? center : (sccd_v2){0.0, 0.0};
        return (sccd_motion2){s, c, {0.0, 0.0}, 0.0};
    }
    return m;
}

sccd_motion3 sccd_motion3_from_velocity(sccd_xf3 start, sccd_v3 center, sccd_v3 v, sccd_v3 w, sccd_real dt)
{
    sccd_real wl = sccd_v3_len(w);
    sccd_motion3 m = {start, center, sccd_v3_scale(v, dt), sccd_v3_normalize(w), wl * dt};
    if (!sccd_is_valid_motion3(m)) {
        SCCD_ASSERT(sccd_is_valid_motion3(m));
        sccd_xf3 s = sccd_is_valid_xf3(start) ? start : sccd_xf3_identity();
        sccd_v3 c = sccd_is_valid_v3(center) ? center : (sccd_v3){0.0, 0.0, 0.0};
        return (sccd_motion3){s, c, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0.0};
    }
    return m;
}

sccd_motion2 sccd_motion2_between(sccd_xf2 a, sccd_xf2 b, sccd_v2 center)
{
    if (!sccd_is_valid_xf2(a) || !sccd_is_valid_xf2(b) || !sccd_is_valid_v2(center)) {
        SCCD_ASSERT(sccd_is_valid_xf2(a) && sccd_is_valid_xf2(b) && sccd_is_valid_v2(center));
        sccd_xf2 s = sccd_is_valid_xf2(a) ? a : sccd_xf2_identity();
        return (sccd_motion2){s, {0.0, 0.0}, {0.0, 0.0}, 0.0};
    }
    sccd_v2 dp = sccd_v2_sub(sccd_xf2_apply(b, center), sccd_xf2_apply(a, center));
    /* b.q = R(dθ)·a.q, so R(dθ) = b.q·a.q⁻¹; atan2 gives (−π, π]. */
    sccd_rot2 d = sccd_rot2_mul(b.q, (sccd_rot2){a.q.c, -a.q.s});
    return (sccd_motion2){a, center, dp, sccd_rot2_angle(d)};
}

sccd_motion3 sccd_motion3_between(sccd_xf3 a, sccd_xf3 b, sccd_v3 center)
{
    if (!sccd_is_valid_xf3(a) || !sccd_is_valid_xf3(b) || !sccd_is_valid_v3(center)) {
        SCCD_ASSERT(sccd_is_valid_xf3(a) && sccd_is_valid_xf3(b) && sccd_is_valid_v3(center));
        sccd_xf3 s = sccd_is_valid_xf3(a) ? a : sccd_xf3_identity();
        return (sccd_motion3){s, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0.0};
    }
    sccd_v3 dp = sccd_v3_sub(sccd_xf3_apply(b, center), sccd_xf3_apply(a, center));
    sccd_quat d = sccd_quat_mul(b.q, sccd_quat_conj(a.q));
    if (d.w < 0.0) /* q and −q are one rotation: take the short way */
        d = (sccd_quat){-d.x, -d.y, -d.z, -d.w};
    sccd_v3 v = {d.x, d.y, d.z};
    sccd_real s = sccd_v3_len(v);
    /* atan2 keeps precision for tiny angles where acos(w) would not. */
    sccd_real angle = 2.0 * atan2(s, d.w);
    sccd_v3 axis = s > 0.0 ? sccd_v3_scale(v, 1.0 / s) : SCCD_FALLBACK_V3;
    return (sccd_motion3){a, center, dp, axis, angle};
}
