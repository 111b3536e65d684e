/* sectorccd — small value types and inline vector math.
 * Conventions: angles in radians, counter-clockwise positive; sccd_rot2 and
 * sccd_quat rotate body coordinates into world coordinates; a transform maps
 * a body point x to world as p + q·x.
 * The inline functions build their results in named aggregates (or through
 * sccd_v2_make / sccd_v3_make), not compound literals: C++ includes this
 * header too and has none. */
#ifndef SECTORCCD_MATH_FUNCTIONS_H
#define SECTORCCD_MATH_FUNCTIONS_H

#include "sectorccd/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// 2D vector.
typedef struct sccd_v2 { sccd_real x, y; } sccd_v2;
/// 3D vector.
typedef struct sccd_v3 { sccd_real x, y, z; } sccd_v3;
/// 2D rotation as cosine and sine of the angle (unit: c² + s² = 1).
typedef struct sccd_rot2 { sccd_real c, s; } sccd_rot2;
/// Unit quaternion (x, y, z vector part, w scalar part).
typedef struct sccd_quat { sccd_real x, y, z, w; } sccd_quat;
/// 2D rigid transform: world = p + q·body.
typedef struct sccd_xf2 { sccd_v2 p; sccd_rot2 q; } sccd_xf2;
/// 3D rigid transform: world = p + q·body.
typedef struct sccd_xf3 { sccd_v3 p; sccd_quat q; } sccd_xf3;

/// The one fallback direction used wherever a normal or axis is undefined
/// (coincident points, zero-length vectors): +x in 2D. C++ has no compound
/// literals, so it gets the same value as a braced temporary (C++11).
#ifdef __cplusplus
#define SCCD_FALLBACK_V2 (sccd_v2{1.0, 0.0})
/// The 3D fallback direction: +x.
#define SCCD_FALLBACK_V3 (sccd_v3{1.0, 0.0, 0.0})
#else
#define SCCD_FALLBACK_V2 ((sccd_v2){1.0, 0.0})
#define SCCD_FALLBACK_V3 ((sccd_v3){1.0, 0.0, 0.0})
#endif

/* ---- 2D vectors ---- */

/// (x, y).
static inline sccd_v2 sccd_v2_make(sccd_real x, sccd_real y) { sccd_v2 r = {x, y}; return r; }
/// a + b.
static inline sccd_v2 sccd_v2_add(sccd_v2 a, sccd_v2 b) { return sccd_v2_make(a.x + b.x, a.y + b.y); }
/// a − b.
static inline sccd_v2 sccd_v2_sub(sccd_v2 a, sccd_v2 b) { return sccd_v2_make(a.x - b.x, a.y - b.y); }
/// s·a.
static inline sccd_v2 sccd_v2_scale(sccd_v2 a, sccd_real s) { return sccd_v2_make(s * a.x, s * a.y); }
/// a + s·b.
static inline sccd_v2 sccd_v2_mad(sccd_v2 a, sccd_real s, sccd_v2 b) { return sccd_v2_make(a.x + s * b.x, a.y + s * b.y); }
/// −a.
static inline sccd_v2 sccd_v2_neg(sccd_v2 a) { return sccd_v2_make(-a.x, -a.y); }
/// a · b.
static inline sccd_real sccd_v2_dot(sccd_v2 a, sccd_v2 b) { return a.x * b.x + a.y * b.y; }
/// z of a × b (positive when b is counter-clockwise of a).
static inline sccd_real sccd_v2_cross(sccd_v2 a, sccd_v2 b) { return a.x * b.y - a.y * b.x; }
/// a turned +90° (counter-clockwise).
static inline sccd_v2 sccd_v2_perp(sccd_v2 a) { return sccd_v2_make(-a.y, a.x); }
/// |a|².
static inline sccd_real sccd_v2_len2(sccd_v2 a) { return a.x * a.x + a.y * a.y; }
/// |a|.
static inline sccd_real sccd_v2_len(sccd_v2 a) { return sqrt(a.x * a.x + a.y * a.y); }
/// |a − b|.
static inline sccd_real sccd_v2_dist(sccd_v2 a, sccd_v2 b) { return sccd_v2_len(sccd_v2_sub(a, b)); }
/// a + t·(b − a).
static inline sccd_v2 sccd_v2_lerp(sccd_v2 a, sccd_v2 b, sccd_real t) { return sccd_v2_make(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)); }
/// Component-wise minimum.
static inline sccd_v2 sccd_v2_min(sccd_v2 a, sccd_v2 b) { return sccd_v2_make(sccd_min(a.x, b.x), sccd_min(a.y, b.y)); }
/// Component-wise maximum.
static inline sccd_v2 sccd_v2_max(sccd_v2 a, sccd_v2 b) { return sccd_v2_make(sccd_max(a.x, b.x), sccd_max(a.y, b.y)); }
/// Component-wise absolute value.
static inline sccd_v2 sccd_v2_abs(sccd_v2 a) { return sccd_v2_make(fabs(a.x), fabs(a.y)); }
/// a / |a|, or SCCD_FALLBACK_V2 when |a| is zero or not finite.
static inline sccd_v2 sccd_v2_normalize(sccd_v2 a)
{
    /* Scaled by its largest component first: a tiny or huge vector would
     * underflow or overflow in the squares. */
    sccd_real m = sccd_max(fabs(a.x), fabs(a.y));
    if (!(m > 0.0) || !isfinite(m) || !isfinite(a.x) || !isfinite(a.y))
        return SCCD_FALLBACK_V2;
    a = sccd_v2_make(a.x / m, a.y / m); /* divided: 1/m overflows for a subnormal m */
    return sccd_v2_scale(a, 1.0 / sccd_v2_len(a));
}
/// True when both components are finite.
static inline bool sccd_is_valid_v2(sccd_v2 a)
{
    /* x − x is 0 for a finite x and NaN otherwise: one comparison, where a
     * test of each component took a branch each (as shapes.h's box checks;
     * under -ffinite-math-only it cannot see ±∞ or NaN, like isfinite). */
    return (a.x - a.x) + (a.y - a.y) == 0.0;
}

/* ---- 2D rotations and transforms ---- */

/// Rotation by angle (radians, counter-clockwise).
static inline sccd_rot2 sccd_rot2_make(sccd_real angle) { sccd_rot2 r = {cos(angle), sin(angle)}; return r; }
/// The identity rotation.
static inline sccd_rot2 sccd_rot2_identity(void) { sccd_rot2 r = {1.0, 0.0}; return r; }
/// The angle of q in (−π, π].
static inline sccd_real sccd_rot2_angle(sccd_rot2 q) { return atan2(q.s, q.c); }
/// q·v.
static inline sccd_v2 sccd_rot2_apply(sccd_rot2 q, sccd_v2 v) { return sccd_v2_make(q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y); }
/// q⁻¹·v.
static inline sccd_v2 sccd_rot2_inv_apply(sccd_rot2 q, sccd_v2 v) { return sccd_v2_make(q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y); }
/// a·b (rotate by b, then by a).
static inline sccd_rot2 sccd_rot2_mul(sccd_rot2 a, sccd_rot2 b) { sccd_rot2 r = {a.c * b.c - a.s * b.s, a.s * b.c + a.c * b.s}; return r; }
/// a⁻¹·b.
static inline sccd_rot2 sccd_rot2_inv_mul(sccd_rot2 a, sccd_rot2 b) { sccd_rot2 r = {a.c * b.c + a.s * b.s, a.c * b.s - a.s * b.c}; return r; }
/// True when finite and unit within 1e-6.
static inline bool sccd_is_valid_rot2(sccd_rot2 q)
{
    return sccd_is_valid_real(q.c) && sccd_is_valid_real(q.s) && fabs(q.c * q.c + q.s * q.s - 1.0) < 1e-6;
}
/// The identity transform.
static inline sccd_xf2 sccd_xf2_identity(void) { sccd_xf2 r = {{0.0, 0.0}, {1.0, 0.0}}; return r; }
/// p + q·v (body point to world).
static inline sccd_v2 sccd_xf2_apply(sccd_xf2 xf, sccd_v2 v) { return sccd_v2_add(xf.p, sccd_rot2_apply(xf.q, v)); }
/// q⁻¹·(v − p) (world point to body).
static inline sccd_v2 sccd_xf2_inv_apply(sccd_xf2 xf, sccd_v2 v) { return sccd_rot2_inv_apply(xf.q, sccd_v2_sub(v, xf.p)); }
/// a·b (apply b, then a).
static inline sccd_xf2 sccd_xf2_mul(sccd_xf2 a, sccd_xf2 b) { sccd_xf2 r = {sccd_xf2_apply(a, b.p), sccd_rot2_mul(a.q, b.q)}; return r; }
/// a⁻¹·b.
static inline sccd_xf2 sccd_xf2_inv_mul(sccd_xf2 a, sccd_xf2 b) { sccd_xf2 r = {sccd_xf2_inv_apply(a, b.p), sccd_rot2_inv_mul(a.q, b.q)}; return r; }
/// True when p is finite and q a valid rotation.
static inline bool sccd_is_valid_xf2(sccd_xf2 xf) { return sccd_is_valid_v2(xf.p) && sccd_is_valid_rot2(xf.q); }

/* ---- 3D vectors ---- */

/// (x, y, z).
static inline sccd_v3 sccd_v3_make(sccd_real x, sccd_real y, sccd_real z) { sccd_v3 r = {x, y, z}; return r; }
/// a + b.
static inline sccd_v3 sccd_v3_add(sccd_v3 a, sccd_v3 b) { return sccd_v3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
/// a − b.
static inline sccd_v3 sccd_v3_sub(sccd_v3 a, sccd_v3 b) { return sccd_v3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
/// s·a.
static inline sccd_v3 sccd_v3_scale(sccd_v3 a, sccd_real s) { return sccd_v3_make(s * a.x, s * a.y, s * a.z); }
/// a + s·b.
static inline sccd_v3 sccd_v3_mad(sccd_v3 a, sccd_real s, sccd_v3 b) { return sccd_v3_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
/// −a.
static inline sccd_v3 sccd_v3_neg(sccd_v3 a) { return sccd_v3_make(-a.x, -a.y, -a.z); }
/// a · b.
static inline sccd_real sccd_v3_dot(sccd_v3 a, sccd_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// a × b.
static inline sccd_v3 sccd_v3_cross(sccd_v3 a, sccd_v3 b)
{
    return sccd_v3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
/// |a|².
static inline sccd_real sccd_v3_len2(sccd_v3 a) { return sccd_v3_dot(a, a); }
/// |a|.
static inline sccd_real sccd_v3_len(sccd_v3 a) { return sqrt(sccd_v3_dot(a, a)); }
/// |a − b|.
static inline sccd_real sccd_v3_dist(sccd_v3 a, sccd_v3 b) { return sccd_v3_len(sccd_v3_sub(a, b)); }
/// a + t·(b − a).
static inline sccd_v3 sccd_v3_lerp(sccd_v3 a, sccd_v3 b, sccd_real t) { return sccd_v3_mad(a, t, sccd_v3_sub(b, a)); }
/// Component-wise minimum.
static inline sccd_v3 sccd_v3_min(sccd_v3 a, sccd_v3 b) { return sccd_v3_make(sccd_min(a.x, b.x), sccd_min(a.y, b.y), sccd_min(a.z, b.z)); }
/// Component-wise maximum.
static inline sccd_v3 sccd_v3_max(sccd_v3 a, sccd_v3 b) { return sccd_v3_make(sccd_max(a.x, b.x), sccd_max(a.y, b.y), sccd_max(a.z, b.z)); }
/// Component-wise absolute value.
static inline sccd_v3 sccd_v3_abs(sccd_v3 a) { return sccd_v3_make(fabs(a.x), fabs(a.y), fabs(a.z)); }
/// a / |a|, or SCCD_FALLBACK_V3 when |a| is zero or not finite.
static inline sccd_v3 sccd_v3_normalize(sccd_v3 a)
{
    /* Scaled by its largest component first: a tiny vector (an angular
     * velocity of 1e-160) would underflow in the squares and come out of
     * unit length. */
    sccd_real m = sccd_max(fabs(a.x), sccd_max(fabs(a.y), fabs(a.z)));
    if (!(m > 0.0) || !isfinite(m) || !isfinite(a.x) || !isfinite(a.y) || !isfinite(a.z))
        return SCCD_FALLBACK_V3;
    a = sccd_v3_make(a.x / m, a.y / m, a.z / m); /* divided: 1/m overflows for a subnormal m */
    return sccd_v3_scale(a, 1.0 / sccd_v3_len(a));
}
/// True when all components are finite.
static inline bool sccd_is_valid_v3(sccd_v3 a)
{
    return (a.x - a.x) + (a.y - a.y) + (a.z - a.z) == 0.0; /* as sccd_is_valid_v2 */
}
/// Two unit vectors e1, e2 completing unit n to a right-handed basis (e1 × e2 = n).
static inline void sccd_v3_basis(sccd_v3 n, sccd_v3 *e1, sccd_v3 *e2)
{
    /* Duff et al. 2017, "Building an orthonormal basis, revisited". */
    sccd_real sign = n.z >= 0.0 ? 1.0 : -1.0;
    sccd_real a = -1.0 / (sign + n.z);
    sccd_real b = n.x * n.y * a;
    *e1 = sccd_v3_make(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
    *e2 = sccd_v3_make(b, sign + n.y * n.y * a, -n.y);
}

/* ---- quaternions and 3D transforms ---- */

/// The identity rotation.
static inline sccd_quat sccd_quat_identity(void) { sccd_quat r = {0.0, 0.0, 0.0, 1.0}; return r; }
/// Rotation by angle (radians, right-handed) about unit axis.
static inline sccd_quat sccd_quat_axis_angle(sccd_v3 axis, sccd_real angle)
{
    sccd_real s = sin(0.5 * angle);
    sccd_quat r = {axis.x * s, axis.y * s, axis.z * s, cos(0.5 * angle)}; return r;
}
/// a·b (rotate by b, then by a).
static inline sccd_quat sccd_quat_mul(sccd_quat a, sccd_quat b)
{
    sccd_quat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                   a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
/// The inverse of a unit quaternion.
static inline sccd_quat sccd_quat_conj(sccd_quat q) { sccd_quat r = {-q.x, -q.y, -q.z, q.w}; return r; }
/// q / |q|, or the identity when |q| is zero or not finite.
static inline sccd_quat sccd_quat_normalize(sccd_quat q)
{
    sccd_real l = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(l > 0.0) || !isfinite(l))
        return sccd_quat_identity();
    sccd_quat r = {q.x / l, q.y / l, q.z / l, q.w / l}; return r;
}
/// q·v·q⁻¹ for unit q.
static inline sccd_v3 sccd_quat_apply(sccd_quat q, sccd_v3 v)
{
    sccd_v3 u = {q.x, q.y, q.z};
    sccd_v3 t = sccd_v3_scale(sccd_v3_cross(u, v), 2.0);
    return sccd_v3_add(sccd_v3_add(v, sccd_v3_scale(t, q.w)), sccd_v3_cross(u, t));
}
/// q⁻¹·v for unit q.
static inline sccd_v3 sccd_quat_inv_apply(sccd_quat q, sccd_v3 v) { return sccd_quat_apply(sccd_quat_conj(q), v); }
/// True when finite and unit within 1e-6.
static inline bool sccd_is_valid_quat(sccd_quat q)
{
    if (!(sccd_is_valid_real(q.x) && sccd_is_valid_real(q.y) && sccd_is_valid_real(q.z) && sccd_is_valid_real(q.w)))
        return false;
    return fabs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0) < 1e-6;
}
/// The identity transform.
static inline sccd_xf3 sccd_xf3_identity(void) { sccd_xf3 r = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}}; return r; }
/// p + q·v (body point to world).
static inline sccd_v3 sccd_xf3_apply(sccd_xf3 xf, sccd_v3 v) { return sccd_v3_add(xf.p, sccd_quat_apply(xf.q, v)); }
/// q⁻¹·(v − p) (world point to body).
static inline sccd_v3 sccd_xf3_inv_apply(sccd_xf3 xf, sccd_v3 v) { return sccd_quat_inv_apply(xf.q, sccd_v3_sub(v, xf.p)); }
/// a·b (apply b, then a).
static inline sccd_xf3 sccd_xf3_mul(sccd_xf3 a, sccd_xf3 b) { sccd_xf3 r = {sccd_xf3_apply(a, b.p), sccd_quat_mul(a.q, b.q)}; return r; }
/// True when p is finite and q a valid unit quaternion.
static inline bool sccd_is_valid_xf3(sccd_xf3 xf) { return sccd_is_valid_v3(xf.p) && sccd_is_valid_quat(xf.q); }

#ifdef __cplusplus
}
#endif

#endif
