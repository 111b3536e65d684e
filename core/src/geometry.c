/* Closest points and distances of points and segments (seed 000 §2.9).
 * The segment–segment solver follows the standard clamped two-parameter
 * minimisation (Ericson, Real-Time Collision Detection §5.1.9): minimise
 * |p1 + s·d1 − p2 − t·d2|² over [0,1]², clamping one parameter and then
 * re-solving the other, with the degenerate (point) cases handled first. */
#include "sectorccd/geometry.h"
#include "inline.h"
#include "range.h"
#include "tolerance.h"
#include "unchecked.h"

/* Below this squared length (relative to the squared coordinates involved)
 * a segment counts as a point: the division by its length is not safe.
 * Relative only: with 1e-30·(1 + scale2) every segment under 1e-15 long
 * was a point, and in a scene 1e-16 across the 3D sector test missed
 * capsules it met in the same scene at unit scale. */
static sccd_real degenerate_len2(sccd_real scale2) { return 1e-30 * scale2; }

static sccd_real segment_param(sccd_real num, sccd_real len2, sccd_real scale2)
{
    if (len2 <= degenerate_len2(scale2))
        return 0.0;
    return sccd_clamp(num / len2, 0.0, 1.0);
}

sccd_v2 sccd_closest_point_segment2_unchecked(sccd_v2 p, sccd_v2 a, sccd_v2 b)
{
    sccd_v2 d = sccd_v2_sub(b, a);
    return sccd_v2_mad(a, segment_param(sccd_v2_dot(sccd_v2_sub(p, a), d), sccd_v2_len2(d), sccd_v2_len2(a)), d);
}

sccd_v3 sccd_closest_point_segment3_unchecked(sccd_v3 p, sccd_v3 a, sccd_v3 b)
{
    sccd_v3 d = sccd_v3_sub(b, a);
    return sccd_v3_mad(a, segment_param(sccd_v3_dot(sccd_v3_sub(p, a), d), sccd_v3_len2(d), sccd_v3_len2(a)), d);
}

sccd_v2 sccd_closest_point_segment2(sccd_v2 p, sccd_v2 a, sccd_v2 b, sccd_real *t)
{
    if (!sccd_is_valid_v2(p) || !sccd_is_valid_v2(a) || !sccd_is_valid_v2(b)) {
        SCCD_ASSERT(sccd_is_valid_v2(p) && sccd_is_valid_v2(a) && sccd_is_valid_v2(b));
        if (t)
            *t = 0.0;
        return (sccd_v2){0.0, 0.0};
    }
    sccd_v2 d = sccd_v2_sub(b, a);
    sccd_real u = segment_param(sccd_v2_dot(sccd_v2_sub(p, a), d), sccd_v2_len2(d), sccd_v2_len2(a));
    if (t)
        *t = u;
    return sccd_v2_mad(a, u, d);
}

sccd_v3 sccd_closest_point_segment3(sccd_v3 p, sccd_v3 a, sccd_v3 b, sccd_real *t)
{
    if (!sccd_is_valid_v3(p) || !sccd_is_valid_v3(a) || !sccd_is_valid_v3(b)) {
        SCCD_ASSERT(sccd_is_valid_v3(p) && sccd_is_valid_v3(a) && sccd_is_valid_v3(b));
        if (t)
            *t = 0.0;
        return (sccd_v3){0.0, 0.0, 0.0};
    }
    sccd_v3 d = sccd_v3_sub(b, a);
    sccd_real u = segment_param(sccd_v3_dot(sccd_v3_sub(p, a), d), sccd_v3_len2(d), sccd_v3_len2(a));
    if (t)
        *t = u;
    return sccd_v3_mad(a, u, d);
}

sccd_real sccd_point_segment2_dist2_unchecked(sccd_v2 p, sccd_v2 a, sccd_v2 b)
{
    sccd_v2 d = sccd_v2_sub(b, a);
    sccd_real u = segment_param(sccd_v2_dot(sccd_v2_sub(p, a), d), sccd_v2_len2(d), sccd_v2_len2(a));
    return sccd_v2_len2(sccd_v2_sub(p, sccd_v2_mad(a, u, d)));
}

sccd_real sccd_distance_point_segment2(sccd_v2 p, sccd_v2 a, sccd_v2 b)
{
    if (!sccd_is_valid_v2(p) || !sccd_is_valid_v2(a) || !sccd_is_valid_v2(b)) {
        SCCD_ASSERT(sccd_is_valid_v2(p) && sccd_is_valid_v2(a) && sccd_is_valid_v2(b));
        return INFINITY;
    }
    return sqrt(sccd_point_segment2_dist2_unchecked(p, a, b));
}

sccd_real sccd_distance_point_segment3(sccd_v3 p, sccd_v3 a, sccd_v3 b)
{
    if (!sccd_is_valid_v3(p) || !sccd_is_valid_v3(a) || !sccd_is_valid_v3(b)) {
        SCCD_ASSERT(sccd_is_valid_v3(p) && sccd_is_valid_v3(a) && sccd_is_valid_v3(b));
        return INFINITY;
    }
    return sccd_v3_dist(p, sccd_closest_point_segment3(p, a, b, NULL));
}

/* The dimension-free core: the two parameters from the dot products of the
 * direction vectors d1, d2 and r = p1 − p2, and from cross = d1 × d2 the
 * determinant denom = |cross|² = a·e − b² and the numerator of the
 * unclamped s, num = cross·(d2 × r) = b·f − c·e (Lagrange's identity).
 * The callers form those two from cross products: as a·e − b² and b·f − c·e
 * they cancel catastrophically for nearly parallel segments (relative error
 * ~1e-16 / sin²θ), which put the distance off by up to ~1e-7 of the length.
 * scale2 sets the degeneracy threshold. */
static SCCD_ALWAYS_INLINE void segment_segment_params(sccd_real a, sccd_real e, sccd_real b, sccd_real c,
                                                      sccd_real f, sccd_real denom, sccd_real num, sccd_real scale2,
                                                      sccd_real *s_out, sccd_real *t_out)
{
    /* a = d1·d1, e = d2·d2, b = d1·d2, c = d1·r, f = d2·r */
    sccd_real eps = degenerate_len2(scale2);
    sccd_real s, t;
    if (a <= eps && e <= eps) {
        s = t = 0.0;
    } else if (a <= eps) {
        s = 0.0;
        t = sccd_clamp(f / e, 0.0, 1.0);
    } else if (e <= eps) {
        t = 0.0;
        s = sccd_clamp(-c / a, 0.0, 1.0);
    } else {
        /* Exactly parallel (denom 0): any s works; take s = 0 and solve for
         * t. Nearly parallel: s may be far off, but then the distance
         * changes along the segments only by |d1|·sin θ per unit of s. */
        s = denom > 0.0 ? sccd_clamp(num / denom, 0.0, 1.0) : 0.0;
        t = (b * s + f) / e;
        if (t < 0.0) {
            t = 0.0;
            s = sccd_clamp(-c / a, 0.0, 1.0);
        } else if (t > 1.0) {
            t = 1.0;
            s = sccd_clamp((b - c) / a, 0.0, 1.0);
        }
    }
    *s_out = s;
    *t_out = t;
}

/* The parameters of segments with directions d1, dd and offset r = p1 − p2
 * (segment_segment_params), scale2 the squared size of their places. */
static SCCD_ALWAYS_INLINE void params2(sccd_v2 d1, sccd_v2 dd, sccd_v2 r, sccd_real scale2, sccd_real *s, sccd_real *t)
{
    sccd_real cross = sccd_v2_cross(d1, dd);
    segment_segment_params(sccd_v2_len2(d1), sccd_v2_len2(dd), sccd_v2_dot(d1, dd), sccd_v2_dot(d1, r),
                           sccd_v2_dot(dd, r), cross * cross, cross * sccd_v2_cross(dd, r), scale2, s, t);
}

static SCCD_ALWAYS_INLINE void params3(sccd_v3 d1, sccd_v3 dd, sccd_v3 r, sccd_real scale2, sccd_real *s, sccd_real *t)
{
    sccd_v3 cross = sccd_v3_cross(d1, dd);
    segment_segment_params(sccd_v3_len2(d1), sccd_v3_len2(dd), sccd_v3_dot(d1, dd), sccd_v3_dot(d1, r),
                           sccd_v3_dot(dd, r), sccd_v3_len2(cross), sccd_v3_dot(cross, sccd_v3_cross(dd, r)), scale2, s,
                           t);
}

/* Whether the determinant of segments of squared lengths a, e, at most
 * a·e (a fourth power of the lengths), and its numerator are safe from
 * overflow and underflow: a·e within 1e±280, or a segment a point. Beyond
 * that (lengths past about 1e±70) they over- or underflowed, the
 * parameters came out 0 or NaN, and in scenes some 1e90 or 1e-90 across
 * the 3D sector test missed capsules that it met at unit scale. */
static bool params_tame(sccd_real a, sccd_real e)
{
    sccd_real ae = a * e;
    return (ae >= 1e-280 && ae <= 1e280) || a == 0.0 || e == 0.0;
}

/* The closest points of two valid segments: parameters, points, squared
 * distance; the parameters found with the offsets scaled by k (1: as
 * they are). */
static SCCD_ALWAYS_INLINE sccd_real closest2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_real k, sccd_real *s,
                                             sccd_real *t, sccd_v2 *x1, sccd_v2 *x2)
{
    sccd_v2 d1 = sccd_v2_sub(q1, p1), dd = sccd_v2_sub(q2, p2), r = sccd_v2_sub(p1, p2);
    sccd_real scale2 = sccd_max(sccd_v2_len2(p1), sccd_v2_len2(p2));
    params2(sccd_v2_scale(d1, k), sccd_v2_scale(dd, k), sccd_v2_scale(r, k), k * k * scale2, s, t);
    *x1 = sccd_v2_mad(p1, *s, d1);
    *x2 = sccd_v2_mad(p2, *t, dd);
    return sccd_v2_len2(sccd_v2_sub(*x1, *x2));
}

static SCCD_ALWAYS_INLINE sccd_real closest3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_real k, sccd_real *s,
                                             sccd_real *t, sccd_v3 *x1, sccd_v3 *x2)
{
    sccd_v3 d1 = sccd_v3_sub(q1, p1), dd = sccd_v3_sub(q2, p2), r = sccd_v3_sub(p1, p2);
    sccd_real scale2 = sccd_max(sccd_v3_len2(p1), sccd_v3_len2(p2));
    params3(sccd_v3_scale(d1, k), sccd_v3_scale(dd, k), sccd_v3_scale(r, k), k * k * scale2, s, t);
    *x1 = sccd_v3_mad(p1, *s, d1);
    *x2 = sccd_v3_mad(p2, *t, dd);
    return sccd_v3_len2(sccd_v3_sub(*x1, *x2));
}

/* closest2 and closest3 in units of a power of 2 near the offsets'
 * largest coordinate (the parameters do not change with the scale; out
 * of line: rare, and the common path keeps nothing across a call). */
SCCD_NOINLINE static sccd_real closest2_scaled(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_real *s,
                                               sccd_real *t, sccd_v2 *x1, sccd_v2 *x2)
{
    sccd_v2 d1 = sccd_v2_sub(q1, p1), dd = sccd_v2_sub(q2, p2), r = sccd_v2_sub(p1, p2);
    sccd_real k = sccd_unit_factor(sccd_max(sccd_mag2(d1), sccd_max(sccd_mag2(dd), sccd_mag2(r))), 1.0, 1.0);
    return closest2(p1, q1, p2, q2, k, s, t, x1, x2);
}

SCCD_NOINLINE static sccd_real closest3_scaled(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_real *s,
                                               sccd_real *t, sccd_v3 *x1, sccd_v3 *x2)
{
    sccd_v3 d1 = sccd_v3_sub(q1, p1), dd = sccd_v3_sub(q2, p2), r = sccd_v3_sub(p1, p2);
    sccd_real k = sccd_unit_factor(sccd_max(sccd_mag3(d1), sccd_max(sccd_mag3(dd), sccd_mag3(r))), 1.0, 1.0);
    return closest3(p1, q1, p2, q2, k, s, t, x1, x2);
}

static sccd_real segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_real *s, sccd_real *t,
                                  sccd_v2 *x1, sccd_v2 *x2)
{
    if (!params_tame(sccd_v2_len2(sccd_v2_sub(q1, p1)), sccd_v2_len2(sccd_v2_sub(q2, p2))))
        return closest2_scaled(p1, q1, p2, q2, s, t, x1, x2);
    return closest2(p1, q1, p2, q2, 1.0, s, t, x1, x2);
}

static sccd_real segment_segment3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_real *s, sccd_real *t,
                                  sccd_v3 *x1, sccd_v3 *x2)
{
    if (!params_tame(sccd_v3_len2(sccd_v3_sub(q1, p1)), sccd_v3_len2(sccd_v3_sub(q2, p2))))
        return closest3_scaled(p1, q1, p2, q2, s, t, x1, x2);
    return closest3(p1, q1, p2, q2, 1.0, s, t, x1, x2);
}

sccd_real sccd_segment_segment2_closest_unchecked(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_v2 *x1, sccd_v2 *x2)
{
    sccd_real s, t;
    return segment_segment2(p1, q1, p2, q2, &s, &t, x1, x2);
}

sccd_real sccd_segment_segment3_closest_unchecked(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_v3 *x1, sccd_v3 *x2)
{
    sccd_real s, t;
    return segment_segment3(p1, q1, p2, q2, &s, &t, x1, x2);
}

sccd_real sccd_segment_segment2_dist2_unchecked(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2)
{
    sccd_v2 x1, x2;
    return sccd_segment_segment2_closest_unchecked(p1, q1, p2, q2, &x1, &x2);
}

sccd_real sccd_segment_segment3_dist2_unchecked(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2)
{
    sccd_v3 x1, x2;
    return sccd_segment_segment3_closest_unchecked(p1, q1, p2, q2, &x1, &x2);
}

sccd_real sccd_closest_segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_real *s, sccd_real *t,
                                        sccd_v2 *c1, sccd_v2 *c2)
{
    sccd_real ss = 0.0, tt = 0.0, d2 = INFINITY;
    sccd_v2 x1 = {0.0, 0.0}, x2 = {0.0, 0.0};
    if (sccd_is_valid_v2(p1) && sccd_is_valid_v2(q1) && sccd_is_valid_v2(p2) && sccd_is_valid_v2(q2)) {
        d2 = segment_segment2(p1, q1, p2, q2, &ss, &tt, &x1, &x2);
    } else {
        SCCD_ASSERT(sccd_is_valid_v2(p1) && sccd_is_valid_v2(q1) && sccd_is_valid_v2(p2) && sccd_is_valid_v2(q2));
    }
    if (s)
        *s = ss;
    if (t)
        *t = tt;
    if (c1)
        *c1 = x1;
    if (c2)
        *c2 = x2;
    return d2;
}

sccd_real sccd_closest_segment_segment3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_real *s, sccd_real *t,
                                        sccd_v3 *c1, sccd_v3 *c2)
{
    sccd_real ss = 0.0, tt = 0.0, d2 = INFINITY;
    sccd_v3 x1 = {0.0, 0.0, 0.0}, x2 = {0.0, 0.0, 0.0};
    if (sccd_is_valid_v3(p1) && sccd_is_valid_v3(q1) && sccd_is_valid_v3(p2) && sccd_is_valid_v3(q2)) {
        d2 = segment_segment3(p1, q1, p2, q2, &ss, &tt, &x1, &x2);
    } else {
        SCCD_ASSERT(sccd_is_valid_v3(p1) && sccd_is_valid_v3(q1) && sccd_is_valid_v3(p2) && sccd_is_valid_v3(q2));
    }
    if (s)
        *s = ss;
    if (t)
        *t = tt;
    if (c1)
        *c1 = x1;
    if (c2)
        *c2 = x2;
    return d2;
}

sccd_real sccd_distance_segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2)
{
    return sqrt(sccd_closest_segment_segment2(p1, q1, p2, q2, NULL, NULL, NULL, NULL));
}

sccd_real sccd_distance_segment_segment3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2)
{
    return sqrt(sccd_closest_segment_segment3(p1, q1, p2, q2, NULL, NULL, NULL, NULL));
}
