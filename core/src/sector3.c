/* The thick annular sector in 3D and its exact overlap tests (seed 000 §2.1,
 * §2.2, §2.5, §2.7, §4.1).
 *
 * Every test works in the sector's canonical frame (eq 2.3): pivot at the
 * origin, a = +x, K = u × a = +y, u = +z. Three facts carry all of them:
 *
 * 1. Distance from a point to the sector is closed form. A point at angle φ
 *    (|φ| ≤ π from +x), radius ρ, height z: the distance to a point of the
 *    half-plane at angle ψ grows with |φ − ψ| (for every radius and height),
 *    so the nearest half-plane of the wedge is the point's own (inside the
 *    wedge) or the nearer boundary one, at angle difference δ = |φ| − θ.
 *    Rotating that half-plane into the point's plane gives
 *        d² = (ρ·sin δ)² + dist((ρ·cos δ, z), [r, R] × [zlo, zhi])²
 *    (δ = 0 inside the wedge). This is what eqs 2.11–2.12 compute for a
 *    sphere, without eq 2.8's (r − rc)² flaw (a circle larger than the hole
 *    is not rejected).
 * 2. The distance to the axis, ρ, depends only on the projection onto the
 *    plane ⟂ u, and the wedge is a condition on that projection too. So a
 *    convex set C meets the sector iff, for one convex part W of the wedge
 *    (the wedge itself when θ ≤ π/2, its two halves when θ > π/2), the 2D
 *    convex set proj(C ∩ slab) ∩ W is non-empty and its range of ρ (an
 *    interval: ρ is continuous and the set connected) meets [r, R]. For a
 *    polytope the set is a polygon: the maximum of ρ is at a vertex, the
 *    minimum is 0 (origin inside) or on an edge.
 * 3. Along a segment the distance to the sector is the smallest of: the
 *    distance to the two flat side faces (rectangles, belong to the sector),
 *    and, on the parts of the segment inside the wedge, the distance to the
 *    full solid annulus (fact 1 with δ = 0). The latter splits into pieces
 *    where it is a sum of (ρ(t) − c)² and a linear term squared; each piece is
 *    convex except a middle part around the point nearest the axis, where it
 *    is concave (its minimum is then at the part's ends): a case analysis
 *    with a golden-section search on the convex parts, no sampling. */
#include "sectorccd/sector3.h"

#include <string.h>

#include "sectorccd/geometry.h"
#include "sector3_internal.h"
#include "shapes_valid.h"
#include "inline.h"
#include "range.h"
#include "trig.h"
#include "unchecked.h"

/* A checked sector in canonical form: frame vectors, cleaned numbers. */
typedef sccd_sector3_prepared sect;

/* sqrt(x² + y²) without hypot's overflow care (slow, and scenes are far
 * from 1e154). */
static sccd_real len2d(sccd_real x, sccd_real y) { return sqrt(x * x + y * y); }

/* ---- validation and the canonical frame ---- */

static bool finite_sector(const sccd_sector3 *s)
{
    return sccd_is_valid_v3(s->o) && sccd_is_valid_v3(s->u) && sccd_is_valid_v3(s->a) &&
           sccd_is_valid_real(s->half_angle) && sccd_is_valid_real(s->r) && sccd_is_valid_real(s->R) &&
           sccd_is_valid_real(s->zlo) && sccd_is_valid_real(s->zhi);
}

/* valid_sector3's checks, with zero 0 when o, R and the slab are finite
 * and NaN otherwise (the unit, ⟂ and range checks fail for a NaN or
 * infinite u, a, half angle or r: a NaN compares false, an infinite length
 * is not 1). Three comparisons, not one a check (valid input passes them
 * all): zero rides on the largest of the axes' errors |u|² − 1, |a|² − 1
 * and, last, u·a (a NaN in u or a makes u·a NaN, and sccd_max passes a NaN
 * second operand on). With R and the slab finite, r ∈ [0, R] and
 * zlo ≤ zhi are the least of zhi − zlo, r and R − r not negative (a
 * difference has the exact sign; a NaN r makes the last two NaN, which
 * sccd_min passes on as its second operand), and half_angle ∈ [0, π] is
 * half_angle·(π − half_angle) ≥ 0 (NaN or −∞ for a NaN or infinite one;
 * one factor is π/2 or more in size, so no product of nonzero factors
 * underflows to 0). The same answers as a comparison a check on 10⁸
 * sectors of special values (NaN, ±∞, ±0, subnormals, the bounds and
 * their neighbours). The range by the size scale = max(R, |zlo|, |zhi|),
 * which the one-shot tests have at hand. */
static inline bool sector3_checks(const sccd_sector3 *s, sccd_real zero, sccd_real scale)
{
    sccd_real axes = sccd_max(sccd_max(fabs(sccd_v3_len2(s->u) - 1.0), fabs(sccd_v3_len2(s->a) - 1.0)),
                              fabs(sccd_v3_dot(s->u, s->a)));
    sccd_real ranges = sccd_min(sccd_min(s->zhi - s->zlo, s->r), s->R - s->r);
    return (axes + zero < 1e-6) & (ranges >= 0.0) & (scale <= SCCD_RANGE_MAX) &
           (s->half_angle * (SCCD_PI - s->half_angle) >= 0.0);
}

/* sector3_checks as one comparison, for a zero that is NaN also when the
 * half angle is not finite: the largest of scale − RANGE_MAX, axes + zero
 * less the double below 1e-6 and −min(ranges, h) not above 0 (a
 * difference has the exact sign; sccd_max and sccd_min pass a NaN second
 * operand on, and the first operands are NaN only where zero is: r, R,
 * the slab or the half angle not finite). zz = zhi − zlo, Rr = R − r, as
 * the one-shot tests have them. Four comparisons and their ands cost the
 * one-shot point, sphere and box tests 4, 0 and 4 instructions a call. */
static inline bool sector3_checks_one(const sccd_sector3 *s, sccd_real zero, sccd_real scale, sccd_real zz,
                                      sccd_real Rr)
{
    sccd_real axes = sccd_max(sccd_max(fabs(sccd_v3_len2(s->u) - 1.0), fabs(sccd_v3_len2(s->a) - 1.0)),
                              fabs(sccd_v3_dot(s->u, s->a)));
    sccd_real ranges = sccd_min(sccd_min(zz, s->r), Rr), h = s->half_angle * (SCCD_PI - s->half_angle);
    sccd_real bad = sccd_max(scale - SCCD_RANGE_MAX, (axes + zero) - 0x1.0c6f7a0b5ed8cp-20);
    return sccd_max(-sccd_min(ranges, h), bad) <= 0.0;
}

/* sccd_is_valid_sector3, inline: sector3_checks, with the finiteness of o,
 * R and the slab as one sum (x − x is 0 for every finite x and NaN
 * otherwise, as in shapes.h's checks of boxes). */
static inline bool valid_sector3(const sccd_sector3 *s)
{
    if (!s)
        return false;
    sccd_real zero = (s->o.x - s->o.x) + (s->o.y - s->o.y) + (s->o.z - s->o.z) + (s->R - s->R) + (s->zlo - s->zlo) +
                     (s->zhi - s->zhi);
    return sector3_checks(s, zero, sccd_max(s->R, sccd_max(fabs(s->zlo), fabs(s->zhi))));
}

bool sccd_is_valid_sector3(const sccd_sector3 *s) { return valid_sector3(s); }

/* One convex part of the wedge: the n half-planes m·(x, y) ≥ 0 of the
 * canonical frame (n = 0: the whole plane). */
typedef struct wedge { int n; sccd_v2 nrm[3]; } wedge;

/* The wedge as convex parts of at most three half-planes, made on demand
 * (only the polytope and capsule tests clip): the whole plane (θ = π); left
 * of the lower edge, right of the upper and in front of the bisector (which
 * a zero-width wedge needs) for θ ≤ π/2; else the halves [−θ, 0] and
 * [0, θ] (cos, sin of θ/2 by the half-angle formulas: c < 0 there, and
 * 1 + c's rounding only tilts a bisector well inside its half). Returns the
 * count of parts. */
static int wedge_parts(const sect *S, wedge w[2])
{
    if (S->th >= SCCD_PI) {
        w[0].n = 0;
        return 1;
    }
    if (S->th <= 0.5 * SCCD_PI) {
        w[0] = (wedge){3, {{S->s, S->c}, {S->s, -S->c}, {1.0, 0.0}}};
        return 1;
    }
    sccd_real ch = sqrt(0.5 * (1.0 + S->c)), sh = sqrt(0.5 * (1.0 - S->c));
    w[0] = (wedge){3, {{S->s, S->c}, {0.0, -1.0}, {ch, -sh}}};
    w[1] = (wedge){3, {{0.0, 1.0}, {S->s, -S->c}, {ch, sh}}};
    return 2;
}

/* v / |v| for v unit within 3e-6: no scaling against underflow and no
 * check (sccd_v3_normalize's: its four divisions in a chain, twice, made
 * the one-shot box and triangle tests past their early-outs wait on
 * them), and no root or division either: 1/|v| by the series of
 * 1/√(1 + e), e = |v|² − 1, to e², whose rest (under 5|e|³/16, 8.4e-18)
 * is far below the rounding (with the root and the division, the one-shot
 * box, triangle and capsule tests took 1.54, 1.52 and 1.40 times their
 * prepared tests' time, 1.47, 1.42 and 1.34 so). */
static sccd_v3 near_unit_normalize(sccd_v3 v)
{
    sccd_real e = sccd_v3_len2(v) - 1.0;
    return sccd_v3_scale(v, 1.0 + e * (-0.5 + 0.375 * e));
}

/* The canonical form of s (checked, valid: valid_sector3 passed; or
 * flawed but repairable) but the half angle's cosine and sine. */
static void frame_of(sect *out, const sccd_sector3 *s, bool valid)
{
    /* Exactly unit and ⟂ (valid input is only so within 1e-6): a unit
     * axis, a ⟂ u, a fallback direction when a is parallel to u. Valid,
     * u and a less its part along u are unit within 3e-6. */
    sccd_v3 u = valid ? near_unit_normalize(s->u) : sccd_v3_normalize(s->u);
    sccd_v3 a = sccd_v3_mad(s->a, -sccd_v3_dot(s->a, u), u);
    if (valid) {
        a = near_unit_normalize(a);
    } else {
        if (sccd_v3_len2(a) < 1e-24) {
            sccd_v3 e2;
            sccd_v3_basis(u, &a, &e2);
        }
        a = sccd_v3_normalize(a);
    }
    out->o = s->o;
    out->u = u;
    out->a = a;
    out->k = sccd_v3_cross(u, a);
    out->th = sccd_clamp(s->half_angle, 0.0, SCCD_PI);
    out->r = sccd_max(s->r, 0.0);
    out->R = s->R;
    out->zlo = s->zlo;
    out->zhi = s->zhi;
    out->scale = sccd_max(out->R, sccd_max(fabs(out->zlo), fabs(out->zhi)));
}

/* Checks s and fills the canonical form but the half angle's cosine and
 * sine (out is not ready yet). False (after the check fired) when no
 * defined set exists (non-finite numbers, r > R, zlo > zhi) or it is
 * beyond the range (R, |zlo| or |zhi| above SCCD_RANGE_MAX). Fixable flaws
 * (axes not unit or not ⟂, half angle out of range, r < 0) are repaired. */
static bool prepare_frame(sect *out, const sccd_sector3 *s)
{
    out->ready = out->fast = false;
    bool valid = valid_sector3(s);
    SCCD_ASSERT(valid);
    if (!valid && (!s || !finite_sector(s) || s->R < 0.0 || s->r > s->R || s->zlo > s->zhi || s->R > SCCD_RANGE_MAX ||
                   s->zhi > SCCD_RANGE_MAX || s->zlo < -SCCD_RANGE_MAX))
        return false;
    frame_of(out, s, valid);
    return true;
}

/* The half angle's cosine and sine, after prepare_frame: ready; fast
 * unless smaller than SCCD_RANGE_MIN (a tiny scene's squares underflow:
 * its tests scale it up first; a sector that is a point, at the pivot of
 * a scene of any size, takes that path too). */
static void prepare_cos_sin(sect *out)
{
    sccd_rot2 v = sccd_cos_sin_half_turn(out->th);
    out->c = v.c;
    out->s = v.s;
    out->ready = true;
    out->fast = out->scale >= SCCD_RANGE_MIN;
}

/* The prepared form without its copy of the sector as given (which only
 * a sweep's check for a band changed by hand reads): the one-shot tests'. */
static bool prepare(const sccd_sector3 *s, sect *out)
{
    if (!prepare_frame(out, s))
        return false;
    prepare_cos_sin(out);
    return true;
}

/* prepare, not checked again for a sector that passed the check (checked:
 * a one-shot test's, past its raw early-outs). */
static bool prepare_checked(const sccd_sector3 *s, sect *out, bool checked)
{
    if (!checked)
        return prepare(s, out);
    frame_of(out, s, true);
    prepare_cos_sin(out);
    return true;
}

bool sccd_sector3_prepare(sccd_sector3_prepared *out, const sccd_sector3 *s)
{
    if (!out) {
        SCCD_ASSERT(out != NULL);
        return false;
    }
    if (!prepare(s, out))
        return false;
    out->source = *s;
    return true;
}

/* Seed 000 eq 2.3: the rows of the matrix are A, K, U. */
static inline sccd_v3 to_local(const sect *S, sccd_v3 p)
{
    sccd_v3 d = sccd_v3_sub(p, S->o);
    return (sccd_v3){sccd_v3_dot(S->a, d), sccd_v3_dot(S->k, d), sccd_v3_dot(S->u, d)};
}

static sccd_v3 from_local(const sect *S, sccd_v3 q)
{
    sccd_v3 p = sccd_v3_mad(S->o, q.x, S->a);
    p = sccd_v3_mad(p, q.y, S->k);
    return sccd_v3_mad(p, q.z, S->u);
}

sccd_v3 sccd_sector3_to_local(const sccd_sector3 *s, sccd_v3 p)
{
    sect S;
    if (!prepare(s, &S) || !sccd_is_valid_v3(p)) {
        SCCD_ASSERT(sccd_is_valid_v3(p));
        return (sccd_v3){0.0, 0.0, 0.0};
    }
    return to_local(&S, p);
}

sccd_v3 sccd_sector3_from_local(const sccd_sector3 *s, sccd_v3 q)
{
    sect S;
    if (!prepare(s, &S) || !sccd_is_valid_v3(q)) {
        SCCD_ASSERT(sccd_is_valid_v3(q));
        return (sccd_v3){0.0, 0.0, 0.0};
    }
    return from_local(&S, q);
}

static sccd_real v3_maxabs(sccd_v3 v) { return sccd_max(fabs(v.x), sccd_max(fabs(v.y), fabs(v.z))); }

/* ---- the thesis' construction ---- */

sccd_sector3 sccd_sector3_thesis(sccd_box3 box, sccd_v3 pivot, sccd_real alpha)
{
    if (!sccd_is_valid_box3(box) || !sccd_is_valid_v3(pivot) || !sccd_is_valid_real(alpha)) {
        SCCD_ASSERT(sccd_is_valid_box3(box) && sccd_is_valid_v3(pivot) && sccd_is_valid_real(alpha));
        sccd_v3 o = sccd_is_valid_v3(pivot) ? pivot : (sccd_v3){0.0, 0.0, 0.0};
        return (sccd_sector3){o, {0.0, 0.0, 1.0}, {1.0, 0.0, 0.0}, 0.0, 0.0, 0.0, 0.0, 0.0};
    }
    sccd_v3 xl = sccd_quat_apply(box.q, (sccd_v3){1.0, 0.0, 0.0});
    sccd_v3 yl = sccd_quat_apply(box.q, (sccd_v3){0.0, 1.0, 0.0});
    sccd_v3 zl = sccd_quat_apply(box.q, (sccd_v3){0.0, 0.0, 1.0});
    sccd_v3 d = sccd_v3_sub(box.c, pivot);
    /* Constraint (§2.1): U = Z', (P − O) ∥ Y', pivot outside the box. */
    sccd_real tol = 1e-6 * (1.0 + sccd_v3_len(d) + v3_maxabs(box.h));
    SCCD_ASSERT(fabs(sccd_v3_dot(d, xl)) <= tol && fabs(sccd_v3_dot(d, zl)) <= tol &&
                fabs(sccd_v3_dot(d, yl)) >= box.h.y - tol);
    sccd_v3 u = alpha >= 0.0 ? zl : sccd_v3_neg(zl);
    sccd_real zc = sccd_v3_dot(d, u);
    sccd_v3 dp = sccd_v3_mad(d, -zc, u); /* the part of P − O ⟂ U */
    sccd_real dist = sccd_v3_len(dp);
    sccd_v3 y = dist > 0.0 ? sccd_v3_scale(dp, 1.0 / dist) : yl;
    sccd_real th = sccd_min(0.5 * fabs(alpha), SCCD_PI); /* eq 2.1 */
    /* eq 2.2 (Rodrigues): A = cos θ·Y' + (1 − cos θ)(Y'·U)U + (U × Y') sin θ */
    sccd_v3 a = sccd_v3_scale(y, cos(th));
    a = sccd_v3_mad(a, (1.0 - cos(th)) * sccd_v3_dot(y, u), u);
    a = sccd_v3_mad(a, sin(th), sccd_v3_cross(u, y));
    sccd_real r = sccd_max(0.0, dist - box.h.y), R = dist + box.h.y;
    return (sccd_sector3){pivot, u, sccd_v3_normalize(a), th, r, R, zc - box.h.z, zc + box.h.z};
}

/* ---- points and spheres ---- */

/* Distance in the (ρ, z) half-plane from (x, z) to [r, R] × [zlo, zhi]. */
static sccd_real rect_distance(const sect *S, sccd_real x, sccd_real z)
{
    sccd_real dx = x < S->r ? S->r - x : (x > S->R ? x - S->R : 0.0);
    sccd_real dz = z < S->zlo ? S->zlo - z : (z > S->zhi ? z - S->zhi : 0.0);
    return len2d(dx, dz);
}

/* (x, y), y ≥ 0, in the wedge (θ = π: the prepared sine is 2.8e-17, not 0, and
 * only the ray opposite a can fail, where the distance past the edge at
 * angle π is the same). */
static bool in_wedge(const sect *S, sccd_real x, sccd_real y) { return in_half_angle(x, y, S->c, S->s); }

/* Fact 1 of the file comment, in parts, rho = ρ = |(q.x, q.y)|. Folded
 * onto y ≥ 0 (the sector is symmetric about +x), at angle φ. Outside the
 * wedge, ρ·cos δ and ρ·sin δ (δ = φ − θ) are (x, y) turned by −θ: the
 * distance's square is w² + eo² + dz², with eo the gap of u = ρ·cos δ to
 * [r, R]; inside, δ = 0: ei² + dz², with ei the gap of ρ. All are made,
 * without a branch (the gaps as t less t clamped, by min and max). Returns
 * w = ρ·sin δ, which picks one: q is inside the wedge when w < 0. With φ
 * and θ in [0, π], sin δ < 0 exactly when φ < θ, but at δ = ±π (φ = 0 and
 * θ = π, inside; φ = π and θ = 0, outside), where the prepared sine,
 * 2.8e-17 and not 0 at θ = 0 and π, makes w = −x·s of the right sign. The
 * rounded w = y·c − x·s has the sign of the difference of its rounded
 * products, so w < 0 is in_half_angle but where w is 0 (its guard x ≥ 0
 * is implied: x·s > y·c ≥ 0 for c ≥ 0): q on a side's plane within
 * rounding (there u is ρ within rounding, u² + w² = ρ²) or on the axis
 * (u = ρ = 0), where the outside square is the distance's too. Inside the
 * wedge the inside square is at most the outside one (the side rectangle
 * is part of the full annulus). */
static inline sccd_real local_gaps(const sect *S, sccd_v3 q, sccd_real rho, sccd_real *ei, sccd_real *eo,
                                   sccd_real *dz)
{
    sccd_real x = q.x, y = fabs(q.y), u = x * S->c + y * S->s, w = y * S->c - x * S->s;
    *ei = rho - sccd_min(sccd_max(rho, S->r), S->R);
    *eo = u - sccd_min(sccd_max(u, S->r), S->R);
    *dz = q.z - sccd_min(sccd_max(q.z, S->zlo), S->zhi);
    return w;
}

/* local_gaps as the two squares: *in2 inside the wedge, *out2 outside. */
static inline sccd_real local_dist2_parts(const sect *S, sccd_v3 q, sccd_real rho, sccd_real *in2, sccd_real *out2)
{
    sccd_real ei, eo, dz, w = local_gaps(S, q, rho, &ei, &eo, &dz);
    *in2 = ei * ei + dz * dz;
    *out2 = w * w + eo * eo + dz * dz;
    return w;
}

static inline sccd_real local_dist2(const sect *S, sccd_v3 q, sccd_real rho)
{
    sccd_real in2, out2;
    return local_dist2_parts(S, q, rho, &in2, &out2) < 0.0 ? in2 : out2;
}

static sccd_real local_distance(const sect *S, sccd_v3 q) { return sqrt(local_dist2(S, q, len2d(q.x, q.y))); }

/* S with its pivot, radii, slab and scale scaled by f, a power of 2. */
static sect scaled_sect(const sect *S, sccd_real f)
{
    sect T = *S;
    T.o = sccd_v3_scale(S->o, f);
    T.r *= f;
    T.R *= f;
    T.zlo *= f;
    T.zhi *= f;
    T.scale *= f;
    return T;
}

/* The factor that scales S and a shape whose largest coordinate or size
 * is m into the range. */
static sccd_real scene_factor(const sect *S, sccd_real m)
{
    return sccd_range_factor(sccd_max(sccd_max(m, S->scale), v3_maxabs(S->o)));
}

sccd_real sccd_sector3_distance(const sccd_sector3 *s, sccd_v3 p)
{
    sect S;
    if (!prepare(s, &S) || !sccd_is_valid_v3(p)) {
        SCCD_ASSERT(sccd_is_valid_v3(p));
        return INFINITY;
    }
    sccd_v3 q = to_local(&S, p);
    sccd_real m = v3_maxabs(q);
    if (m <= SCCD_RANGE_MAX)
        return local_distance(&S, q);
    if (!(m <= DBL_MAX)) /* p's offset from the pivot beyond the doubles: its distance too */
        return INFINITY;
    /* Beyond the range its squares overflow (a point 1e200 off was ∞
     * away): the scene scaled, the distance scaled back. */
    sccd_real f = sccd_range_factor(sccd_max(m, S.scale));
    sect T = scaled_sect(&S, f);
    return local_distance(&T, sccd_v3_scale(q, f)) / f;
}

/* Is the canonical-frame point q beyond the slab, farther from the axis
 * than R or nearer than r, by more than reach? Exact early-outs without a
 * root or the half angle, or together with | rather than ||: one branch,
 * mostly taken, is better predicted than four. Every sector point is r or
 * more from the axis, so the distance is at least r − ρ; less 1e-12·r, so
 * that the distance's own rounding says no too. *rho2 = ρ². */
static inline bool ball_beyond(const sect *S, sccd_v3 q, sccd_real reach, sccd_real *rho2)
{
    sccd_real far = S->R + reach, near = S->r - reach - 1e-12 * S->r;
    *rho2 = q.x * q.x + q.y * q.y;
    return (q.z < S->zlo - reach) | (q.z > S->zhi + reach) | (*rho2 > far * far) |
           ((near > 0.0) & (*rho2 < near * near));
}

/* The canonical-frame point q within rad of the sector, tol the tolerance. */
static inline bool local_ball_meets(const sect *S, sccd_v3 q, sccd_real rad, sccd_real tol)
{
    sccd_real reach = rad + tol, rho2;
    return !ball_beyond(S, q, reach, &rho2) && local_dist2(S, q, sqrt(rho2)) <= reach * reach;
}

/* The ball about the canonical-frame point q of radius rad meets the
 * sector, with the tolerance of its scene, the sector's size and the
 * radius (seed 000 §2.5: eq 2.11's slab test, then eq 2.12's slice and
 * circle test, which is the distance of fact 1; a point is the ball of
 * radius 0). Not the point's coordinates too: a ball within reach lies
 * within scale + 2·rad of the pivot on every axis, where the distance's
 * rounding is some 1e-16 of that, and a farther one is far outside. In
 * one straight line, without ball_beyond's early-outs: over a mix of
 * spheres that branch mispredicts often, and each miss waits for the chain
 * of products before it resolves; with it the prepared sphere test took
 * 1.90 times the AABB test (speed), without 1.70. The distance's square
 * is the inside one inside the wedge, the outside one outside, and never
 * more than the outside one (local_gaps), so it is within reach when the
 * outside one is, or inside when the inside one is: one comparison fewer
 * than picking a part (the prepared sphere test took 147 instructions a
 * call, with the checks below 133).
 * Each against room = reach² − dz², not as a sum with dz², which waited on
 * the root (with the sums, and |q|∞ in the tolerance, the prepared sphere
 * and point tests took 1.58 and 1.51 times the AABB test, 1.39 and 1.32
 * so). *finite: room is finite, which a centre that is not finite
 * cannot give (its q.z, a sum of products with infinite or NaN terms, is
 * NaN or infinite; so then is dz, the clamp keeping NaN and ±∞ off the
 * slab) — the prepared tests' check of the centre, one comparison; dz²
 * overflows too for coordinates beyond 1e154, which the prepared tests
 * then check apart. */
static inline bool local_ball_within(const sect *S, sccd_v3 q, sccd_real rad, bool *finite)
{
    sccd_real reach = rad + SCCD_EPS * sccd_max(S->scale, rad), ei, eo, dz;
    sccd_real w = local_gaps(S, q, len2d(q.x, q.y), &ei, &eo, &dz), room = reach * reach - dz * dz;
    *finite = room >= -DBL_MAX;
    return (w * w + eo * eo <= room) | ((w < 0.0) & (ei * ei <= room));
}

/* local_ball_within of the world point c, which is finite (its callers
 * checked it), for a radius within the range (range.h). Where that is not
 * finite either, the squares overflowed (coordinates beyond 1e154): room
 * may be ∞ − ∞, a NaN; the distance's square as a sum then, ∞ beyond the
 * reach, whose square is finite. */
static bool ball_meets(const sect *S, sccd_v3 c, sccd_real rad)
{
    bool finite;
    sccd_v3 q = to_local(S, c);
    bool hit = local_ball_within(S, q, rad, &finite);
    if (finite)
        return hit;
    sccd_real reach = rad + SCCD_EPS * sccd_max(S->scale, rad);
    return local_dist2(S, q, len2d(q.x, q.y)) <= reach * reach;
}

/* ---- the one-shot tests' early-outs ---- */

/* The one-shot tests decide most input against the valid sector s as
 * given, without its canonical frame or the exact trigonometry, for a
 * convex set that holds the ball about c of radius in (none: −∞) and lies
 * in the one of radius out (in ≤ out; a point or sphere: in = out ≥ 0):
 * the prepared test's answer, or undecided. Valid, u and a are unit and ⟂
 * within 1e-6, so the raw frame (a, k = u × a, u) moves the canonical
 * coordinates q of c by under 5e-6·|d|, d = c − o (plus rounding), and
 * each distance below (1-Lipschitz in q) by no more; m = 1e-5·|d| +
 * 1e-12·(scale + out) bounds that and the rounding of these comparisons
 * against the exact test's (both by squares). The exact test's reach (the
 * radius with its tolerance) is at least in + EPS·max(scale, in) and at
 * most reach = out + EPS·max(scale, out). */

/* Underflow: M holds 1e-150 more, so that far² and A² (raw_ball_near)
 * are normal, and raw_ball_near's sure hit wants B ≥ 1e-140, B² normal:
 * with squares of subnormal size both ways (a sector and a point or ball
 * some 1e-190 across), the prepared test's room and these comparisons
 * rounded apart, and the one-shot test missed points and balls that the
 * prepared one met (9 points and a ball in 200,000 probe cases).
 *
 * The first early-outs: the ball beyond the slab or the cylinder R (as
 * ball_beyond's, but the hole: it alone rejected 1 % of the speed spheres,
 * which raw_ball_near's annulus rejects; with it the one-shot point,
 * sphere, box, capsule and triangle tests took 187, 220, 562, 432 and 391
 * instructions a call, 174, 209, 552, 417 and 382 without, the registers
 * it held spilled), without k or the trigonometry, by one margin M =
 * 2e-9·scale + 1.1e-5·|d|₁ + (1 + 2e-9)·out, at least reach + m (with its
 * own rounding; |d|₁ ≥ |d| is a sum, not a root, on the path to the branch
 * on these early-outs, which a mix of shapes mispredicts often: by the root
 * the one-shot sphere and point tests took 1.86 and 1.36 times their
 * prepared tests' time, 1.64 and 1.23 so); ρ² = |d|² − z² is within
 * 1e-5·|d|² of the exact one (the height's error), so 3e-5·|d|² with
 * rounding. *beyond: they reject, by the largest of the excesses beyond
 * the three surfaces (one comparison, not three).
 * Returns whether s passes sector3_checks (as sector3_checks_one) with a
 * finiteness check that is part of theirs: (R − r) + (zhi − zlo) + |d|² +
 * half_angle is finite (so are R, r, the slab, the half angle and d, hence
 * o and c: c's check too) for all valid input but that too large for the
 * sum (false for it: the exact path takes it). With
 * valid_sector3, its own sum of o, R and the slab, the one-shot sphere test
 * took 276 instructions a call, 256 so. Small and inline: for most points
 * the whole one-shot test. */
/* What raw_ball_beyond made that raw_ball_near takes on: d = c − o, the
 * raw height z, ρ² = |d|² − z² and the margin M. */
typedef struct raw_ball { sccd_v3 d; sccd_real z, rho2, M; } raw_ball;

static inline bool raw_ball_beyond(const sccd_sector3 *s, sccd_v3 c, sccd_real out, bool *beyond, raw_ball *b)
{
    if (!s)
        return false;
    sccd_v3 d = sccd_v3_sub(c, s->o);
    sccd_real d2 = sccd_v3_len2(d), z = sccd_v3_dot(s->u, d), rho2 = d2 - z * z, slack = 3e-5 * d2;
    sccd_real scale = sccd_max(s->R, sccd_max(fabs(s->zlo), fabs(s->zhi)));
    sccd_real M = ((1.0 + 2e-9) * out + 2e-9 * scale + 1e-150) + 1.1e-5 * (fabs(d.x) + fabs(d.y) + fabs(d.z));
    sccd_real far = s->R + M;
    sccd_real zz = s->zhi - s->zlo, Rr = s->R - s->r, sum = ((Rr + zz) + d2) + s->half_angle;
    *beyond = sccd_max(sccd_max(z - M - s->zhi, s->zlo - M - z), rho2 - slack - far * far) > 0.0;
    *b = (raw_ball){d, z, rho2, M};
    return sector3_checks_one(s, sum - sum, scale, zz, Rr);
}

/* Past raw_ball_beyond (b): the distance by the raw coordinates q and the
 * rough cosine and sine (sccd_cos_sin_half_turn_rough, within 1.6e-4 and
 * 2.5e-5), as local_dist2_parts: the full solid annulus' part in2 (no
 * angle) and the nearer side rectangle's, out2. The exact distance is the
 * former inside the wedge, the latter outside, and lies between them (the
 * rectangle is part of the sector, the sector part of the annulus). Only
 * x = a·d is new: ρ = √max(ρ², 0) and |y| = √max(ρ² − x², 0), not k = u × a
 * and y = k·d (the rough distance took 170 instructions where it ran,
 * 125 so). Against the exact frame's X, Y, Z (a = α·U + β·A with
 * |α| ≤ 1.0000005e-6, |β − 1| ≤ 5.1e-7; u = |u|·U): |x − X| ≤ 1.51e-6·|d|,
 * |z − Z| ≤ 5e-7·|d|, so ρ² is within 1.001e-6·|d|² of X² + Y², and
 * ρ² − x² within 4.03e-6·|d|² of Y²: ρ within 1.0005e-3·|d|, |y| within
 * 2.008e-3·|d| (|√s − √t| ≤ √|s − t|; the clamps only come nearer). The
 * rough pair turns (x, |y|) within 2.01e-3·|d| + 1.62e-4·ρ of the exact
 * turn of (X, |Y|), so out2's root and the side's w = |y|·c − x·s are
 * within 2.19e-3·|d| of the exact ones, in2's root within 1.001e-3·|d|;
 * l = ρ + |z| ≥ |d|·(1 − 1e-15). So by side = 2.2e-3·l, A = M + 2.3e-3·l
 * ≥ reach + m + 2.19e-3·|d| (M ≥ reach + m), and B = (1 − 1e-12)·in −
 * 2.3e-3·l (below the inner reach less those errors and the rounding of
 * the comparisons): the exact test says no when in2's root exceeds A
 * (whichever the side) or, surely outside (w > side), out2's does; yes
 * when, surely inside (w < −side), in2's root is below B, or out2's
 * (whichever the side) is. With centre (c is a point of the set), also yes
 * when, surely inside, c's ρ and z are in range by A (in2 is then 0: c is
 * in the sector), which B cannot say for a point. Margins ten times the
 * cross product's leave 0.3 % of the speed spheres to the exact part, not
 * 0.02 %; test_one_shot_axes_at_their_limits fails with them cut to 9e-4.
 * Returns whether they decide, *hit the answer then. No branch but the
 * caller's on the answer (the sure hit and the sure miss exclude each
 * other). Inline in the box and capsule tests, which then took 1.43 and
 * 1.30 times their prepared tests' time, 1.47 and 1.37 called. */
static inline bool raw_ball_near(const sccd_sector3 *s, const raw_ball *b, sccd_real in, bool centre, bool *hit)
{
    sect S; /* only what local_dist2_parts reads */
    S.r = s->r;
    S.R = s->R;
    S.zlo = s->zlo;
    S.zhi = s->zhi;
    sccd_rot2 e = sccd_cos_sin_half_turn_rough(s->half_angle);
    S.c = e.c;
    S.s = e.s;
    sccd_real x = sccd_v3_dot(s->a, b->d), rho = sqrt(sccd_max(b->rho2, 0.0));
    sccd_v3 q = {x, sqrt(sccd_max(b->rho2 - x * x, 0.0)), b->z};
    sccd_real in2, out2, w = local_dist2_parts(&S, q, rho, &in2, &out2);
    sccd_real l = rho + fabs(q.z), side = 2.2e-3 * l;
    sccd_real A = b->M + 2.3e-3 * l, B = (1.0 - 1e-12) * in - 2.3e-3 * l;
    bool inside = w < -side;
    bool miss = (in2 > A * A) | ((w > side) & (out2 > A * A));
    *hit = (B >= 1e-140) & ((inside & (in2 <= B * B)) | (out2 <= B * B));
    if (centre) /* the same at every call of a test: predicted */
        *hit |= inside & (q.z - A >= S.zlo) & (q.z + A <= S.zhi) & (rho - A >= S.r) & (rho + A <= S.R);
    return *hit | miss;
}

/* raw_ball_beyond, then raw_ball_near: whether they decide, *hit the
 * answer then; never for a sector that fails raw_ball_beyond's check or a
 * shape that fails its own but c's finiteness, which that takes (shape_ok
 * false; *checked false: the exact path checks them, its checks firing, or
 * repairs the sector). */
static inline bool raw_ball_decides(const sccd_sector3 *s, sccd_v3 c, sccd_real in, sccd_real out, bool centre,
                                    bool shape_ok, bool *hit, bool *checked)
{
    bool beyond;
    *hit = false;
    raw_ball b;
    *checked = raw_ball_beyond(s, c, out, &beyond, &b) & shape_ok;
    if (!*checked)
        return false;
    return beyond || raw_ball_near(s, &b, in, centre, hit);
}

/* ---- shapes beyond the range (range.h): the scene scaled ---- */

/* ball_meets at any radius: beyond the range, the scene scaled (out of
 * line: rare). */
SCCD_NOINLINE static bool ball_meets_scaled(const sect *S, sccd_v3 c, sccd_real rad)
{
    sccd_real f = scene_factor(S, sccd_max(v3_maxabs(c), rad));
    sect T = scaled_sect(S, f);
    return ball_meets(&T, sccd_v3_scale(c, f), rad * f);
}

static bool ball_meets_any(const sect *S, sccd_v3 c, sccd_real rad)
{
    return rad <= SCCD_RANGE_MAX && S->fast ? ball_meets(S, c, rad) : ball_meets_scaled(S, c, rad);
}

/* The one-shot point (rad 0) and sphere tests where the raw early-outs
 * did not decide, or could not (flawed input): the sector checked (its
 * check firing, or it repaired), then the shape (shape_ok, its check
 * firing as the prepared route's would); then the prepared test's exact
 * part. Out of line: rare. */
SCCD_NOINLINE static bool one_shot_ball_exact(const sccd_sector3 *s, sccd_v3 c, sccd_real rad, bool shape_ok)
{
    sect S;
    bool sector_ok = prepare(s, &S);
    if (!shape_ok) {
        SCCD_ASSERT(shape_ok);
        return false;
    }
    if (!sector_ok)
        return false;
    return ball_meets_any(&S, c, rad);
}

/* one_shot_ball_exact for a sphere (a point: radius 0) given by address:
 * by value, the public tests kept a copy of it on every call. */
SCCD_NOINLINE static bool one_shot_sphere_exact(const sccd_sector3 *s, const sccd_sphere *sphere)
{
    return one_shot_ball_exact(s, sphere->c, sphere->r, valid_sphere(*sphere));
}

SCCD_NOINLINE static bool one_shot_point_exact(const sccd_sector3 *s, const sccd_v3 *p)
{
    return one_shot_ball_exact(s, *p, 0.0, sccd_is_valid_v3(*p));
}

/* The prepared point (radius 0) and sphere tests where their one check
 * (local_ball_within's *finite, the radius', p's readiness) did not pass:
 * each apart, the sphere's check firing; out of line: rare. Not by the
 * thesis' in-test for a point, eqs 2.4–2.7 (x ≥ ρ·cos θ), but by the
 * distance: that cosine cannot tell angles apart below about 1e-8 rad from
 * 0 or π (cos is flat there), so it also took points that close to a side,
 * up to 1e-8·ρ away (test_point_beside_thin_wedge), far beyond the
 * tolerance. */
SCCD_NOINLINE static bool prepared_ball_refused(const sect *p, sccd_sphere sphere)
{
    bool ok = valid_sphere(sphere);
    if (!(ok & p->ready)) {
        SCCD_ASSERT(ok);
        return false;
    }
    return ball_meets_any(p, sphere.c, sphere.r);
}

bool sccd_sector3_prepared_vs_point(const sccd_sector3_prepared *p, sccd_v3 q)
{
    if (!p) {
        SCCD_ASSERT(p != NULL);
        return false;
    }
    bool finite, hit = local_ball_within(p, to_local(p, q), 0.0, &finite);
    if (finite & p->fast)
        return hit;
    return prepared_ball_refused(p, (sccd_sphere){q, 0.0});
}

bool sccd_sector3_prepared_vs_sphere(const sccd_sector3_prepared *p, sccd_sphere sphere)
{
    if (!p) {
        SCCD_ASSERT(p != NULL);
        return false;
    }
    bool finite, hit = local_ball_within(p, to_local(p, sphere.c), sphere.r, &finite);
    if (finite & sccd_radius_in_range(sphere.r) & p->fast)
        return hit;
    return prepared_ball_refused(p, sphere);
}

/* The one-shot point and sphere tests: the raw early-outs, where the
 * sector's check takes the centre's (with it apart, the sphere test took
 * 256 instructions a call, 236 so), else the exact part, which checks them
 * again (its checks firing). A branch on the check, then one on beyond:
 * with the two as one the sphere test took 2.55 times the AABB test, not
 * 2.33, for fewer instructions. */
/* The one-shot point (rad 0, centre) and sphere tests past raw_ball_beyond
 * (its check and the radius' passed, not beyond): raw_ball_near, else the
 * exact part. Out of line, raw_ball_beyond's values passed in registers:
 * inline (222 instructions a call, 2.25 times the AABB test), or with them
 * through memory (224), the common path spilled or stored them; 218 and
 * 2.19 so. */
SCCD_NOINLINE static bool one_shot_ball_near(const sccd_sector3 *s, const sccd_v3 *c, sccd_real rad, bool centre,
                                             sccd_real dx, sccd_real dy, sccd_real dz, sccd_real z, sccd_real rho2,
                                             sccd_real M)
{
    raw_ball b = {{dx, dy, dz}, z, rho2, M};
    bool hit;
    if (raw_ball_near(s, &b, rad, centre, &hit))
        return hit;
    return one_shot_ball_exact(s, *c, rad, true);
}

bool sccd_sector3_vs_point(const sccd_sector3 *s, sccd_v3 p)
{
    bool beyond;
    raw_ball b;
    if (!raw_ball_beyond(s, p, 0.0, &beyond, &b))
        return one_shot_point_exact(s, &p);
    if (beyond)
        return false;
    return one_shot_ball_near(s, &p, 0.0, true, b.d.x, b.d.y, b.d.z, b.z, b.rho2, b.M);
}

bool sccd_sector3_vs_sphere(const sccd_sector3 *s, sccd_sphere sphere)
{
    bool beyond;
    raw_ball b;
    if (!(raw_ball_beyond(s, sphere.c, sphere.r, &beyond, &b) & sccd_radius_in_range(sphere.r)))
        return one_shot_sphere_exact(s, &sphere);
    if (beyond)
        return false;
    return one_shot_ball_near(s, &sphere.c, sphere.r, false, b.d.x, b.d.y, b.d.z, b.z, b.rho2, b.M);
}

/* ---- polytopes (fact 2) ---- */

/* Sutherland–Hodgman against n·p ≥ −tol; returns the new count. Each
 * vertex's n·p + tol made once (for its edges on both sides) and the next
 * index without a remainder: the polytope part of the box test took 2,750
 * instructions a call over the speed inputs that reach it, 2,580 so. */
static int clip_polygon(const sccd_v2 *in, int n, sccd_v2 nrm, sccd_real tol, sccd_v2 *out)
{
    int m = 0;
    sccd_real d0 = sccd_v2_dot(nrm, in[0]) + tol, dp = d0;
    for (int i = 0; i < n; ++i) {
        bool last = i + 1 == n;
        sccd_v2 p = in[i], q = in[last ? 0 : i + 1];
        sccd_real dq = last ? d0 : sccd_v2_dot(nrm, q) + tol;
        if (dp >= 0.0)
            out[m++] = p;
        if ((dp >= 0.0) != (dq >= 0.0))
            out[m++] = sccd_v2_lerp(p, q, dp / (dp - dq));
        dp = dq;
    }
    return m;
}

/* Distance from the origin to segment a–b. */
static sccd_real origin_segment_distance(sccd_v2 a, sccd_v2 b)
{
    sccd_v2 d = sccd_v2_sub(b, a);
    sccd_real l2 = sccd_v2_len2(d);
    sccd_real t = l2 > 0.0 ? sccd_clamp(-sccd_v2_dot(a, d) / l2, 0.0, 1.0) : 0.0;
    return sccd_v2_len(sccd_v2_mad(a, t, d));
}

/* Range of |p| over a convex polygon (counter-clockwise, may be degenerate).
 * Near-coincident vertices (a box with an axis along u projects its corners
 * in pairs) leave tiny edges whose direction is rounding noise; a strict
 * sign test of their cross product with the origin said "outside" for a
 * polygon holding the axis, and lo > 0 then missed. Rounding the vertices by
 * δ (~1e-15 of the scale, ~1e-6·tol) moves an edge's product by about
 * δ·(|a| + |b|) whatever its length. So a short edge (< 1e-4·(|a| + |b|))
 * sees the origin inside unless its product is below −1e-4·tol·(|a| + |b|)
 * (far above the noise, far below a real short edge of the tol-wide
 * polygons a zero-angle wedge leaves). A longer edge keeps the strict test:
 * a wrong "outside" from noise puts the origin within δ·1e4 ≪ tol of its
 * line, hence of the boundary, so lo = mn is then within the band test's
 * tolerance; and a polygon on a line through the origin stays "outside". */
static void polygon_rho_range(const sccd_v2 *p, int n, sccd_real tol, sccd_real *lo, sccd_real *hi)
{
    sccd_real mx = 0.0, mn = INFINITY, perimeter = 0.0, l0 = sccd_v2_len(p[0]), la = l0; /* |a|: one root a vertex */
    bool inside = n >= 3;
    for (int i = 0; i < n; ++i) {
        bool last = i + 1 == n;
        sccd_v2 a = p[i], b = p[last ? 0 : i + 1], e = sccd_v2_sub(b, a);
        sccd_real lb = last ? l0 : sccd_v2_len(b), s = la + lb, c = sccd_v2_cross(e, sccd_v2_neg(a));
        sccd_real le = sccd_v2_len(e);
        mx = sccd_max(mx, la);
        mn = sccd_min(mn, origin_segment_distance(a, b));
        perimeter += le;
        inside = inside && (c > 0.0 || (le < 1e-4 * s && c >= -1e-4 * tol * s));
        la = lb;
    }
    /* A convex set is no wider than half its perimeter, so the origin inside
     * lies within that of every vertex. Without this, a polygon whose edges
     * are all short (a triangle grazing a slab plane at one vertex leaves
     * three points a rounding apart) passed every edge's test wherever it
     * lay, and one on a line through the axis could pass every edge's by
     * rounding alone: lo = 0, a hit from 0.55 away. Where the origin is
     * inside, the test holds (up to rounding, far below tol). */
    inside = inside && mx <= 0.5 * perimeter + tol;
    *lo = inside ? 0.0 : mn;
    *hi = mx;
}

/* A point of the slab scan: kept in out, or (out NULL) only its z taken
 * into the range z[0..1]. */
static inline void slab_take(sccd_v3 *out, sccd_real *z, int n, sccd_v3 q)
{
    if (out) {
        out[n] = q;
    } else {
        z[0] = sccd_min(z[0], q.z);
        z[1] = sccd_max(z[1], q.z);
    }
}

/* The scan of sccd_slab_points and sccd_slab_heights: one body, inlined in
 * each (out NULL there: the points' x and y are then never computed). */
static inline int slab_scan(const sccd_v3 *v, const sccd_polytope *p, sccd_v3 dir, sccd_real lo, sccd_real hi,
                            sccd_real tol, sccd_v3 *out, sccd_real *z)
{
    sccd_real d[2][SCCD_POLYTOPE_MAX_V]; /* each vertex's height over each plane, once for its edges too */
    int n = 0;
    for (int i = 0; i < p->nv; ++i) {
        sccd_real h = sccd_v3_dot(dir, v[i]);
        d[0][i] = h - lo;
        d[1][i] = h - hi;
        if (h >= lo - tol && h <= hi + tol)
            slab_take(out, z, n++, v[i]);
    }
    for (int i = 0; i < p->ne; ++i) {
        int ia = p->e[i][0], ib = p->e[i][1];
        for (int k = 0; k < 2; ++k) {
            sccd_real da = d[k][ia], db = d[k][ib];
            if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0))
                slab_take(out, z, n++, sccd_v3_lerp(v[ia], v[ib], da / (da - db)));
        }
    }
    return n;
}

int sccd_slab_points(const sccd_v3 *v, const sccd_polytope *p, sccd_v3 dir, sccd_real lo, sccd_real hi, sccd_real tol,
                     sccd_v3 *out)
{
    return slab_scan(v, p, dir, lo, hi, tol, out, NULL);
}

void sccd_slab_heights(const sccd_v3 *v, const sccd_polytope *p, sccd_v3 dir, sccd_real lo, sccd_real hi,
                       sccd_real tol, sccd_real z[2])
{
    z[0] = INFINITY;
    z[1] = -INFINITY;
    slab_scan(v, p, dir, lo, hi, tol, NULL, z);
}

/* Fact 2 for the convex polygon hull[0..n) (counter-clockwise, may be
 * degenerate, n ≥ 1): a set's part in the slab projected along u, with
 * the tolerance tol of its scene. Inline in the polytope and triangle
 * tests: called, it cost the sweep's box test 9 instructions a call in
 * 2,550, the prepared box test 1. */
static inline bool local_polygon_meets(const sect *S, const sccd_v2 *hull, int n, sccd_real tol)
{
    wedge w[2];
    int pieces = wedge_parts(S, w);
    for (int k = 0; k < pieces; ++k) {
        sccd_v2 buf[2][SCCD_SLAB_POINTS + 3];
        const sccd_v2 *cur = hull; /* the first clip reads the hull itself, not a copy */
        int m = n;
        for (int j = 0; j < w[k].n && m > 0; ++j) {
            m = clip_polygon(cur, m, w[k].nrm[j], tol, buf[j & 1]);
            cur = buf[j & 1];
        }
        if (m == 0)
            continue;
        sccd_real lo, hi;
        polygon_rho_range(cur, m, tol, &lo, &hi);
        if (lo <= S->R + tol && hi >= S->r - tol)
            return true;
    }
    return false;
}

/* Fact 2 for the polytope p whose vertices, in S's canonical frame, are v. */
static bool local_polytope_meets(const sect *S, const sccd_v3 *v, const sccd_polytope *p)
{
    sccd_real scale = S->scale;
    for (int i = 0; i < p->nv; ++i)
        scale = sccd_max(scale, v3_maxabs(v[i]));
    sccd_real tol = SCCD_EPS * scale;
    /* The vertices of (polytope ∩ slab widened by tol), projected along u:
     * the slab's planes moved out by tol, as the wedge's and the radii are.
     * Cut at the planes themselves (only vertices within tol of them
     * kept), a flat box crossing the top plane 2.6e-9 from a sector that
     * is a segment on the axis (tol 4.1e-9) was missed: its part in the
     * slab lay 4.6e-9 from the axis, its point nearest the segment's end
     * just above the plane. */
    sccd_v3 cut[SCCD_SLAB_POINTS];
    sccd_v2 pts[SCCD_SLAB_POINTS], hull[2 * SCCD_SLAB_POINTS];
    int n = sccd_slab_points(v, p, (sccd_v3){0.0, 0.0, 1.0}, S->zlo - tol, S->zhi + tol, 0.0, cut);
    if (n == 0)
        return false;
    for (int i = 0; i < n; ++i)
        pts[i] = (sccd_v2){cut[i].x, cut[i].y};
    n = sccd_hull2(pts, n, hull);
    return local_polygon_meets(S, hull, n, tol);
}

static bool polytope_vs_sect(const sect *S, const sccd_polytope *p)
{
    sccd_v3 v[SCCD_POLYTOPE_MAX_V];
    for (int i = 0; i < p->nv; ++i)
        v[i] = to_local(S, p->v[i]);
    return local_polytope_meets(S, v, p);
}

bool sccd_sector3_prepared_meets_polytope(const sccd_sector3_prepared *S, const sccd_polytope *p)
{
    return S->ready && polytope_vs_sect(S, p);
}

/* The 12 edges of 8 corners indexed by sign bits (bit 0: +x, 1: +y, 2: +z,
 * as sccd_box3_corners): the pairs of corners one bit apart. */
static void box_edges(sccd_polytope *p)
{
    static const unsigned char edges[12][2] = {{0, 1}, {0, 2}, {0, 4}, {1, 3}, {1, 5}, {2, 3},
                                               {2, 6}, {3, 7}, {4, 5}, {4, 6}, {5, 7}, {6, 7}};
    memcpy(p->e, edges, sizeof edges);
    p->ne = 12;
}

void sccd_polytope_box(sccd_polytope *p, sccd_box3 b)
{
    sccd_box3_corners(b, p->v);
    p->nv = 8;
    box_edges(p);
}

void sccd_polytope_triangle(sccd_polytope *p, sccd_triangle t)
{
    *p = (sccd_polytope){3, 3, {t.a, t.b, t.c}, {{0, 1}, {1, 2}, {2, 0}}};
}

void sccd_polytope_sweep(sccd_polytope *p, sccd_v3 d)
{
    int nv = p->nv, ne = p->ne;
    for (int i = 0; i < nv; ++i)
        p->v[nv + i] = sccd_v3_add(p->v[i], d);
    for (int i = 0; i < ne; ++i) {
        p->e[ne + i][0] = (unsigned char)(p->e[i][0] + nv);
        p->e[ne + i][1] = (unsigned char)(p->e[i][1] + nv);
    }
    for (int i = 0; i < nv; ++i) {
        p->e[2 * ne + i][0] = (unsigned char)i;
        p->e[2 * ne + i][1] = (unsigned char)(i + nv);
    }
    p->nv = 2 * nv;
    p->ne = 2 * ne + nv;
}

/* Exact early-outs for a convex set that holds the ball of radius in about
 * the canonical-frame point q and lies in the one of radius out: the outer
 * ball misses the sector, or the inner one meets it; one distance for both,
 * in one straight line, its parts against room = reach² − dz² as in
 * local_ball_within (no comparison waits on the sum after the root, nor
 * on picking a part: with them, the prepared box and triangle tests took
 * 3 % and 2 % longer, speed, AMD EPYC; where room is ∞ − ∞, reach and dz
 * beyond 1e154, a NaN that decides nothing). Returns 0 (miss), 1 (hit)
 * or −1 (undecided). Inline: called, it cost the prepared box test 11 of
 * its 493 instructions (the call and the spills around it), the triangle
 * test 16 of 320. The set's own tolerance is EPS·max(scale, M), M its
 * largest canonical coordinate, at most |q|∞ + out, and at least in (it
 * holds the ball) and scale's share: so the inner ball within in +
 * EPS·max(scale, in) meets the set's reach; the outer ball beyond
 * out + 4·EPS·max(scale, out) misses it, M being at most 4·max(scale, out)
 * when |q|∞ ≤ 3·max(scale, out), and the set, beyond that, more than
 * |q|∞ − out − scale ≥ |q|∞/3 off the sector (which lies within scale of
 * the pivot on every axis), far past EPS·(|q|∞ + out). Not by |q|∞
 * itself, a chain of maxima beside the distance (the prepared triangle
 * test took 4.26 and the box test 5.89 times the AABB test with it, 4.06
 * and 5.62 so). */
static inline int ball_early_out(const sect *S, sccd_v3 q, sccd_real in, sccd_real out)
{
    sccd_real ei, eo, dz, w = local_gaps(S, q, len2d(q.x, q.y), &ei, &eo, &dz);
    sccd_real reach_out = out + 4.0 * SCCD_EPS * sccd_max(S->scale, out);
    sccd_real reach_in = in + SCCD_EPS * sccd_max(S->scale, in);
    sccd_real side = w * w + eo * eo, inner = ei * ei, dz2 = dz * dz;
    sccd_real room_in = reach_in * reach_in - dz2, room_out = reach_out * reach_out - dz2;
    bool inside = w < 0.0, finite = room_in <= DBL_MAX; /* an overflowing reach's ∞ holds an overflowing distance's */
    bool hit = finite & ((side <= room_in) | (inside & (inner <= room_in)));
    bool miss = (side > room_out) & !(inside & (inner <= room_out));
    return (int)hit - (int)(!hit & !miss);
}

/* What the exact early-outs of a convex set need (canonical frame): its z
 * range, a lower bound of its distance from the axis (its least n·p along
 * a unit n of the plane ⟂ u), an upper bound of that distance, and its
 * supports along the wedge's edge normals and +x (wedge_missed). */
typedef struct supports { sccd_real zlo, zhi, near, far, lower, upper, ahead; } supports;

/* Does the set lie more than tol outside the slab, beyond R, inside r, or
 * beyond the wedge? Each is a plane or cylinder it is beyond. Inline:
 * called, with its supports through memory, it cost the prepared box test
 * 7 instructions a call in 409, the triangle tests 2. */
static inline bool supports_miss(const sect *S, const supports *h, sccd_real tol)
{
    return h->zhi < S->zlo - tol || h->zlo > S->zhi + tol || h->near > S->R + tol ||
           (S->r - tol > 0.0 && h->far < S->r - tol) || wedge_missed(S->c, S->s, h->lower, h->upper, h->ahead, tol);
}

/* The unit direction of q's projection on the plane ⟂ u (+x on the axis). */
static sccd_v2 plane_direction(sccd_v3 q)
{
    sccd_real l = len2d(q.x, q.y);
    return l > 0.0 ? (sccd_v2){q.x / l, q.y / l} : (sccd_v2){1.0, 0.0};
}

/* Exact early-out: is one of the points v[0..n) (canonical frame) within
 * tol of the sector? */
static bool any_point_in(const sect *S, const sccd_v3 *v, int n, sccd_real tol)
{
    for (int i = 0; i < n; ++i)
        if (local_ball_meets(S, v[i], 0.0, tol))
            return true;
    return false;
}

/* The supports of the box about c with half axes ax (canonical frame): the
 * support along n is n·c + Σ|n·ax_k|. */
static supports box_supports(const sect *S, sccd_v3 c, const sccd_v3 ax[3])
{
    sccd_v2 n = plane_direction(c), lower = {S->s, S->c}, upper = {S->s, -S->c};
    supports h = {c.z, c.z, n.x * c.x + n.y * c.y, len2d(c.x, c.y), lower.x * c.x + lower.y * c.y,
                  upper.x * c.x + upper.y * c.y, c.x};
    for (int k = 0; k < 3; ++k) {
        sccd_v3 e = ax[k];
        h.zlo -= fabs(e.z);
        h.zhi += fabs(e.z);
        h.near -= fabs(n.x * e.x + n.y * e.y);
        h.far += len2d(e.x, e.y);
        h.lower += fabs(lower.x * e.x + lower.y * e.y);
        h.upper += fabs(upper.x * e.x + upper.y * e.y);
        h.ahead += fabs(e.x);
    }
    return h;
}

/* The supports of the points v[0..n) (canonical frame), seen along n from
 * the axis. The farthest by its square, one root (the same number: the
 * root is correctly rounded and monotone). */
static supports point_supports(const sect *S, const sccd_v3 *v, int n, sccd_v2 dir)
{
    supports h = {INFINITY, -INFINITY, INFINITY, 0.0, -INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        sccd_v3 p = v[i];
        h.zlo = sccd_min(h.zlo, p.z);
        h.zhi = sccd_max(h.zhi, p.z);
        h.near = sccd_min(h.near, dir.x * p.x + dir.y * p.y);
        h.far = sccd_max(h.far, p.x * p.x + p.y * p.y);
        h.lower = sccd_max(h.lower, S->s * p.x + S->c * p.y);
        h.upper = sccd_max(h.upper, S->s * p.x - S->c * p.y);
        h.ahead = sccd_max(h.ahead, p.x);
    }
    h.far = sqrt(h.far);
    return h;
}

/* Least and largest values of d·(x, y) over the 2D annular sector (d in
 * local x, y). */
static void sector_range2(const sect *S, sccd_real dx, sccd_real dy, sccd_real *lo, sccd_real *hi)
{
    annular_sector_range(S->c, S->s, S->r, S->R, dx, dy, lo, hi);
}

/* The point of the sector nearest the canonical-frame point q (fact 1):
 * its radial projection clamped to [r, R] in q's own half-plane inside the
 * wedge, else in the nearer side's (along it, q turned onto it); its
 * height clamped to the slab. */
static sccd_v3 nearest_point(const sect *S, sccd_v3 q)
{
    sccd_real x = q.x, y = fabs(q.y), rho = len2d(x, y);
    bool in = in_wedge(S, x, y);
    sccd_v2 dir = in ? (rho > 0.0 ? (sccd_v2){x / rho, y / rho} : (sccd_v2){1.0, 0.0}) : (sccd_v2){S->c, S->s};
    sccd_real u = sccd_clamp(in ? rho : x * S->c + y * S->s, S->r, S->R);
    return (sccd_v3){u * dir.x, copysign(u * dir.y, q.y), sccd_clamp(q.z, S->zlo, S->zhi)};
}

/* Is the point at offset ±d from a box's centre inside the box of its
 * corners c ± ax[0] ± ax[1] ± ax[2]? Its coordinates along the axes are
 * d·(ax[k+1] × ax[k+2]) / det, det = ax[0]·(ax[1] × ax[2]), each within ±1:
 * exact for axes not quite ⟂ (a quaternion unit only within 1e-6 skews
 * them). A flat box (det 0, or underflowing) holds nothing here. */
static bool box_holds(const sccd_v3 ax[3], sccd_v3 d)
{
    sccd_v3 n[3] = {sccd_v3_cross(ax[1], ax[2]), sccd_v3_cross(ax[2], ax[0]), sccd_v3_cross(ax[0], ax[1])};
    sccd_real det = fabs(sccd_v3_dot(ax[0], n[0]));
    if (!(det > 0.0))
        return false;
    for (int k = 0; k < 3; ++k)
        if (fabs(sccd_v3_dot(d, n[k])) > det)
            return false;
    return true;
}

/* n, scaled by 2^600 (exactly) where its squares would underflow: a test
 * along n is the same for every positive multiple of it, and along the
 * axis of a box 1e-300 thin the outer arc's support R·|n| came out 0, so
 * the box seemed to lie beyond the sector (a miss). A branch not taken
 * but there: scaled to |n|∞ = 1 on every call (a division), the prepared
 * box test took 410 instructions a call and 6.0 times the AABB test,
 * against 403 and 5.6. */
static inline sccd_v3 v3_direction(sccd_v3 n)
{
    return v3_maxabs(n) < 0x1p-400 ? sccd_v3_scale(n, 0x1p600) : n;
}

/* Does a plane ⟂ n separate the box about c with half axes ax (canonical
 * frame) from the sector by more than margin·|n|? The box's extent along n
 * against the sector's: its annular sector's support (the outer arc's where
 * n points into the wedge, else an edge end's) plus the slab's. Inline:
 * called, it cost the prepared box test 7 instructions a call in 416. */
static inline bool box_separated_along(const sect *S, sccd_v3 c, const sccd_v3 ax[3], sccd_v3 n, sccd_real margin)
{
    n = v3_direction(n);
    sccd_real mid = sccd_v3_dot(n, c), ext = 0.0;
    for (int j = 0; j < 3; ++j)
        ext += fabs(sccd_v3_dot(n, ax[j]));
    sccd_real zhi = sccd_max(n.z * S->zlo, n.z * S->zhi), zlo = sccd_min(n.z * S->zlo, n.z * S->zhi);
    sccd_real t = margin * sccd_v3_len(n), lo, hi;
    sector_range2(S, n.x, n.y, &lo, &hi);
    return mid - ext > hi + zhi + t || mid + ext < zlo + lo - t;
}

/* Exact early-outs for a box (about c, half axes ax) that
 * the balls left undecided, the likeliest first: the sector's point
 * nearest the centre inside the box (a hit); the box beyond one of the
 * sector's planes or cylinders (supports_miss), or beyond a plane ⟂ the
 * offset of the centre from that point (as for a ball) or ⟂ a box axis
 * (beside an arc's end, say). Returns 0 (miss), 1 (hit) or −1. The
 * planes' margin is 4·tol: the polytope test widens the slab, the wedge's
 * planes and the radii by tol each, so it meets points up to √3·tol away,
 * and an early-out must not say less than it. */
static int box_early_out(const sect *S, sccd_v3 c, const sccd_v3 ax[3], sccd_real tol)
{
    sccd_v3 d = sccd_v3_sub(c, nearest_point(S, c));
    if (box_holds(ax, d))
        return 1;
    supports sup = box_supports(S, c, ax);
    if (supports_miss(S, &sup, tol) || box_separated_along(S, c, ax, d, 4.0 * tol))
        return 0;
    for (int k = 0; k < 3; ++k)
        if (box_separated_along(S, c, ax, ax[k], 4.0 * tol))
            return 0;
    return -1;
}

/* How deep box_pieces_early_out halves a box (its stack holds depth + 1
 * pieces): halves and quarters. Past the corners it decides 35 of the 123
 * boxes in 4,096 speed inputs that would reach the polytope test; the
 * prepared box test took 432 instructions a call without it, 420 with
 * depth 2 (432 with 1, 430 with 3). */
#define BOX_PIECE_DEPTH 2

/* A piece of a box about c with half axes ax: its centre, the fractions
 * (powers of 2, so exact) of the half axes it spans, and how many more
 * times box_pieces_early_out may halve it. */
typedef struct box_piece { sccd_v3 c, f; int depth; } box_piece;

/* The two halves of piece e along its longest axis (h: the box's half
 * extents, those of ax). */
static void box_piece_halves(box_piece e, const sccd_v3 ax[3], sccd_v3 h, box_piece half[2])
{
    sccd_v3 eh = {h.x * e.f.x, h.y * e.f.y, h.z * e.f.z};
    int k = eh.x >= eh.y && eh.x >= eh.z ? 0 : (eh.y >= eh.z ? 1 : 2);
    sccd_real fk = k == 0 ? e.f.x : (k == 1 ? e.f.y : e.f.z);
    sccd_v3 off = sccd_v3_scale(ax[k], 0.5 * fk), f = e.f;
    if (k == 0)
        f.x *= 0.5;
    else if (k == 1)
        f.y *= 0.5;
    else
        f.z *= 0.5;
    half[0] = (box_piece){sccd_v3_sub(e.c, off), f, e.depth - 1};
    half[1] = (box_piece){sccd_v3_add(e.c, off), f, e.depth - 1};
}

/* Exact early-outs by pieces of the box about c (half axes ax, half
 * extents h): its halves along its longest axis, theirs along theirs,
 * BOX_PIECE_DEPTH levels deep, each tested by its balls as the box by its
 * own (ball_early_out: a piece is a box, and holds and lies in the balls
 * of its centre and half extents as the box does; its points are the
 * box's, so its tolerance is no larger than the box's). The box meets the
 * sector when a piece's inner ball does, misses it when every piece's
 * outer ball misses (depth first: a leaf left undecided ends only the
 * hope of a miss). Halves of a box the whole one's balls and planes left
 * undecided are often decided: it straddles the slab's planes, or the
 * wedge's gap and the hole, where no plane separates. Returns 0 (miss),
 * 1 (hit) or −1. */
static int box_pieces_early_out(const sect *S, sccd_v3 c, const sccd_v3 ax[3], sccd_v3 h)
{
    box_piece stack[BOX_PIECE_DEPTH + 1];
    box_piece_halves((box_piece){c, {1.0, 1.0, 1.0}, BOX_PIECE_DEPTH}, ax, h, stack);
    int n = 2;
    bool undecided = false;
    while (n > 0) {
        box_piece e = stack[--n];
        sccd_v3 eh = {h.x * e.f.x, h.y * e.f.y, h.z * e.f.z};
        int early = ball_early_out(S, e.c, box_inner_radius(sccd_min(eh.x, sccd_min(eh.y, eh.z))),
                                   box_outer_radius(sccd_v3_len(eh)));
        if (early == 1)
            return 1;
        if (early == 0)
            continue;
        if (e.depth == 0) {
            undecided = true;
            continue;
        }
        box_piece_halves(e, ax, h, &stack[n]);
        n += 2;
    }
    return undecided ? -1 : 0;
}

/* The half axes of b in S's canonical frame: the columns of b.q's rotation
 * matrix (the expansion of sccd_quat_apply on a unit vector, so the same
 * map for a quaternion only near unit), times the half extents. The nine
 * products of the quaternion's parts are shared by the three columns: with
 * three sccd_quat_apply calls (and their products by zero) the prepared box
 * test took 482 instructions a call, with this 466. */
static void box_half_axes(const sect *S, sccd_box3 b, sccd_v3 ax[3])
{
    sccd_quat q = b.q;
    sccd_real x2 = 2.0 * q.x, y2 = 2.0 * q.y, z2 = 2.0 * q.z;
    sccd_real xx = x2 * q.x, yy = y2 * q.y, zz = z2 * q.z, xy = x2 * q.y, xz = x2 * q.z, yz = y2 * q.z;
    sccd_real wx = x2 * q.w, wy = y2 * q.w, wz = z2 * q.w;
    sccd_v3 col[3] = {{1.0 - (yy + zz), xy + wz, xz - wy}, {xy - wz, 1.0 - (xx + zz), yz + wx},
                      {xz + wy, yz - wx, 1.0 - (xx + yy)}};
    sccd_real h[3] = {b.h.x, b.h.y, b.h.z};
    for (int k = 0; k < 3; ++k) {
        sccd_v3 w = sccd_v3_scale(col[k], h[k]);
        ax[k] = (sccd_v3){sccd_v3_dot(S->a, w), sccd_v3_dot(S->k, w), sccd_v3_dot(S->u, w)};
    }
}

/* The box test past the balls' early-outs, c its centre in the canonical
 * frame: box_early_out's (with the tolerance of a scene at least as large
 * as its corners'), then a corner in the sector, then its pieces' balls;
 * then the polytope of its corners (a scene beyond 1e100 scaled first:
 * box_meets_scaled). A function of its own: inline in the
 * test, its registers were spilled around the balls' path too, which
 * decides 82 % of the speed inputs (466 instructions a call, 435 apart). */
static bool box_meets_scaled(const sect *S, sccd_box3 b, sccd_v3 c, sccd_real largest);

static bool box_meets_past_balls(const sect *S, sccd_box3 b, sccd_v3 c)
{
    sccd_real largest = sccd_max(sccd_max(v3_maxabs(c), v3_maxabs(b.h)), S->scale);
    if ((largest > SCCD_RANGE_MAX) | !sccd_is_valid_v3(c) | sccd_scene_tiny(largest))
        return box_meets_scaled(S, b, c, largest);
    sccd_v3 ax[3];
    box_half_axes(S, b, ax);
    sccd_real bound = v3_maxabs(c) + v3_maxabs(ax[0]) + v3_maxabs(ax[1]) + v3_maxabs(ax[2]);
    int early = box_early_out(S, c, ax, SCCD_EPS * sccd_max(S->scale, bound));
    if (early >= 0)
        return early == 1;
    /* The corners: corner i has bit k set for +axis k. */
    sccd_polytope p;
    sccd_v3 v[8];
    for (int i = 0; i < 8; ++i) {
        v[i] = c;
        for (int k = 0; k < 3; ++k)
            v[i] = (i >> k) & 1 ? sccd_v3_add(v[i], ax[k]) : sccd_v3_sub(v[i], ax[k]);
    }
    sccd_real scale = S->scale;
    for (int i = 0; i < 8; ++i)
        scale = sccd_max(scale, v3_maxabs(v[i]));
    if (any_point_in(S, v, 8, SCCD_EPS * scale))
        return true;
    early = box_pieces_early_out(S, c, ax, b.h);
    if (early >= 0)
        return early == 1;
    p.nv = 8;
    box_edges(&p);
    return local_polytope_meets(S, v, &p);
}

/* box_meets_past_balls for a scene whose largest number (the centre's
 * coordinates, the half sizes, the sector's size) passes 1e100, where its
 * squares and the box's determinant could overflow, or lies below 1e-100,
 * where they could underflow: the centre, the half sizes and the sector's
 * radii and heights scaled by the power of 2 that brings it near 1e50.
 * The test is the same at any scale, and a power of 2
 * scales exactly (only numbers below 1e-150 of the largest may lose bits,
 * far below the tolerance); unscaled, a box of half sizes 2e160 turned
 * about a point 1e160 off a sector was missed (test_huge_boxes). A centre
 * not finite here (its offset overflowed) is beyond the box's reach; taken
 * as it came, a box 2e308 off was met. Out of line: rare. */
SCCD_NOINLINE static bool box_meets_scaled(const sect *S, sccd_box3 b, sccd_v3 c, sccd_real largest)
{
    if (!sccd_is_valid_v3(c)) /* its offset from the pivot beyond every double (o and c near ∓1e308): far past its reach */
        return false;
    sccd_real f = sccd_range_factor(largest);
    sect T = scaled_sect(S, f);
    b.h = sccd_v3_scale(b.h, f);
    return box_meets_past_balls(&T, b, sccd_v3_scale(c, f));
}

/* In the canonical frame: exact early-outs by the balls about its centre
 * of radii |h| (holding it) and min(h) (held), as box_outer_radius and
 * box_inner_radius widen them for a rotation unit within 1e-6; then the rest. */
bool sccd_sector3_prepared_vs_box(const sccd_sector3_prepared *S, sccd_box3 b)
{
    if (!S || !valid_box3(b)) {
        SCCD_ASSERT(S != NULL && valid_box3(b));
        return false;
    }
    if (!S->fast) /* not ready: meets nothing; small: past the balls, which scales a tiny scene up */
        return S->ready && box_meets_past_balls(S, b, to_local(S, b.c));
    sccd_v3 c = to_local(S, b.c);
    int early = ball_early_out(S, c, box_inner_radius(sccd_min(b.h.x, sccd_min(b.h.y, b.h.z))),
                               box_outer_radius(sccd_v3_len(b.h)));
    return early >= 0 ? early == 1 : box_meets_past_balls(S, b, c);
}

/* The centroid *m of t and the radius *rad of the ball about it holding
 * t; false when t is not finite. The check rides on the centroid's sum:
 * a NaN or infinite coordinate makes it non-finite, so a finite sum proves
 * all nine finite; a sum overflowing from finite ones is settled by the
 * full check. */
static bool triangle_ball(const sccd_triangle *t, sccd_v3 *m, sccd_real *rad)
{
    sccd_v3 sum = sccd_v3_add(t->a, sccd_v3_add(t->b, t->c));
    if (!sccd_is_valid_real(sum.x + sum.y + sum.z) && !sccd_is_valid_triangle(*t)) {
        SCCD_ASSERT(sccd_is_valid_triangle(*t));
        return false;
    }
    *m = sccd_v3_scale(sum, 1.0 / 3.0);
    *rad = sqrt(sccd_max(sccd_v3_len2(sccd_v3_sub(t->a, *m)),
                         sccd_max(sccd_v3_len2(sccd_v3_sub(t->b, *m)), sccd_v3_len2(sccd_v3_sub(t->c, *m)))));
    return true;
}

/* The points sccd_slab_points cuts from the triangle v (canonical frame)
 * in the slab widened by tol (as local_polytope_meets), projected along u,
 * in the order of its boundary: edge by edge, a vertex in it, then the
 * edge's crossings of its planes in their order along it. The same points, each computed as there (the
 * edges 0–1, 1–2, 2–0 in that direction), so in convex position in the
 * order of the triangle's projection. Returns the count (at most 9). */
static int triangle_slab_points(const sect *S, const sccd_v3 v[3], sccd_real tol, sccd_v2 *out)
{
    int n = 0;
    sccd_real lo = S->zlo - tol, hi = S->zhi + tol;
    for (int i = 0; i < 3; ++i) {
        sccd_v3 a = v[i], b = v[i == 2 ? 0 : i + 1];
        if (a.z >= lo && a.z <= hi)
            out[n++] = (sccd_v2){a.x, a.y};
        sccd_real da[2] = {a.z - lo, a.z - hi}, db[2] = {b.z - lo, b.z - hi};
        for (int k = 0; k < 2; ++k) {
            int j = b.z > a.z ? k : 1 - k; /* rising: the lower plane first */
            if ((da[j] < 0.0 && db[j] > 0.0) || (da[j] > 0.0 && db[j] < 0.0))
                out[n++] = sccd_v2_lerp((sccd_v2){a.x, a.y}, (sccd_v2){b.x, b.y}, da[j] / (da[j] - db[j]));
        }
    }
    return n;
}

/* The turn of the closed polygon p[0..n), n ≥ 3: 1 where every corner
 * turns left (strictly convex, counter-clockwise), −1 where every one
 * turns right, else 0 (collinear or repeated points: a triangle seen edge
 * on, a slab of no thickness, rounding). */
static int polygon_turn(const sccd_v2 *p, int n)
{
    bool left = true, right = true;
    sccd_v2 e = sccd_v2_sub(p[0], p[n - 1]);
    for (int i = 0; i < n; ++i) {
        sccd_v2 f = sccd_v2_sub(p[i + 1 == n ? 0 : i + 1], p[i]);
        sccd_real c = sccd_v2_cross(e, f);
        left = left && c > 0.0;
        right = right && c < 0.0;
        e = f;
    }
    return (int)left - (int)right;
}

/* local_polytope_meets for the triangle v (canonical frame) without the
 * 2D hull's sort: its slab points come in the order of its boundary
 * (triangle_slab_points), which, where they turn strictly one way, is the
 * hull's (reversed where they turn right); else (seen edge on, a slab of
 * no thickness, points a rounding apart) the hull is made of them. The
 * polygon then has the hull's points in the hull's cyclic order, so the
 * wedge's clips and the range of ρ are the same. First the whole
 * polygon's range of ρ, which holds its parts' in the wedge: half the
 * speed triangles that reach here lie beyond R or inside r there, where
 * the supports of the whole triangle did not tell. As the polytope test,
 * this part took 1,270 instructions a call over the speed inputs that
 * reach it; 865 so. */
static bool triangle_polygon_meets(const sect *S, const sccd_v3 v[3], sccd_real tol)
{
    sccd_v2 pts[9], hull[18];
    const sccd_v2 *poly = pts;
    int n = triangle_slab_points(S, v, tol, pts);
    if (n == 0)
        return false;
    int turn = n < 3 ? 1 : polygon_turn(pts, n);
    if (turn == 0) {
        n = sccd_hull2(pts, n, hull);
        poly = hull;
    } else if (turn < 0) {
        for (int i = 0, j = n - 1; i < j; ++i, --j) {
            sccd_v2 x = pts[i];
            pts[i] = pts[j];
            pts[j] = x;
        }
    }
    sccd_real lo, hi;
    polygon_rho_range(poly, n, tol, &lo, &hi);
    return lo <= S->R + tol && hi >= S->r - tol && local_polygon_meets(S, poly, n, tol);
}

/* The exact test past the early-outs of the ball about t's centroid, ml
 * in the canonical frame: the supports, then a corner in the sector, then
 * the polygon of its part in the slab (ml only aims the supports). Out of
 * line: inline in triangle_meets, with the polygon's arrays, its prologue
 * and spills ran on every call (the prepared test took 331 instructions a
 * call, 268 so). */
SCCD_NOINLINE static bool triangle_meets_past_ball(const sect *S, const sccd_triangle *t, sccd_v3 ml)
{
    sccd_v3 v[3] = {to_local(S, t->a), to_local(S, t->b), to_local(S, t->c)};
    sccd_real scale = S->scale;
    for (int i = 0; i < 3; ++i)
        scale = sccd_max(scale, v3_maxabs(v[i]));
    sccd_real tol = SCCD_EPS * scale;
    supports h = point_supports(S, v, 3, plane_direction(ml));
    if (supports_miss(S, &h, tol))
        return false;
    if (any_point_in(S, v, 3, tol))
        return true;
    return triangle_polygon_meets(S, v, tol);
}

/* Exact early-outs by the ball about t's centroid m (of radius rad)
 * holding it, and by m itself, a point of it; then the rest. The triangle
 * by its address here and below: by value, its 72 bytes were copied on
 * every call for the rare calls that take it (the shape's check and the
 * path past the ball; the prepared test took 299 instructions a call, 278
 * so). */
static bool triangle_meets(const sect *S, const sccd_triangle *t, sccd_v3 m, sccd_real rad)
{
    sccd_v3 ml = to_local(S, m);
    int early = ball_early_out(S, ml, 0.0, rad);
    return early >= 0 ? early == 1 : triangle_meets_past_ball(S, t, ml);
}

/* triangle_meets at any size: a triangle beyond the range (rad above it,
 * or not finite: its centroid's sum overflowed) in the scene scaled, out
 * of line (rare; in triangle_meets, which it calls, the prepared test took
 * 16 % longer). */
SCCD_NOINLINE static bool triangle_meets_scaled(const sect *S, const sccd_triangle *t)
{
    sccd_real f = scene_factor(S, sccd_max(v3_maxabs(t->a), sccd_max(v3_maxabs(t->b), v3_maxabs(t->c))));
    sect T = scaled_sect(S, f);
    sccd_triangle u = {sccd_v3_scale(t->a, f), sccd_v3_scale(t->b, f), sccd_v3_scale(t->c, f)};
    sccd_v3 m;
    sccd_real rad;
    return triangle_ball(&u, &m, &rad) && triangle_meets(&T, &u, m, rad);
}

/* triangle_meets within the range and for a sector not smaller than
 * SCCD_RANGE_MIN, else triangle_meets_scaled. */
static bool triangle_meets_any(const sect *S, const sccd_triangle *t, sccd_v3 m, sccd_real rad)
{
    return rad <= SCCD_RANGE_MAX && S->fast ? triangle_meets(S, t, m, rad) : triangle_meets_scaled(S, t);
}

bool sccd_sector3_prepared_vs_triangle(const sccd_sector3_prepared *S, sccd_triangle t)
{
    sccd_v3 m;
    sccd_real rad;
    if (!S) {
        SCCD_ASSERT(S != NULL);
        return false;
    }
    if (!triangle_ball(&t, &m, &rad) || !S->ready)
        return false;
    return triangle_meets_any(S, &t, m, rad);
}

/* A one-shot test's shape refused (its check fired): the sector's check
 * too, as the prepared route's prepare makes it before the prepared test
 * checks the shape (a flawed sector and shape fired once, not twice).
 * Out of line: rare. */
SCCD_NOINLINE static bool one_shot_shape_refused(const sccd_sector3 *s)
{
    sect S;
    prepare(s, &S);
    return false;
}

SCCD_NOINLINE static bool one_shot_box_refused(const sccd_sector3 *s, const sccd_box3 *b)
{
    SCCD_ASSERT(valid_box3(*b));
    return one_shot_shape_refused(s);
}

bool sccd_sector3_vs_box(const sccd_sector3 *s, sccd_box3 b)
{
    if (!valid_box3(b)) /* the shape first, as before preparing */
        return one_shot_box_refused(s, &b);
    /* The prepared test's balls first, without the frame; undecided, the
     * frame's balls would rarely decide more (the raw ones' margins are
     * 2.3e-3 of the distance): the rest of the prepared test, which is exact
     * on its own (with the prepared test's entry, its checks and balls
     * again, this test took 643 instructions a call, 613 without). */
    sect S;
    sccd_real out = box_outer_radius(sccd_v3_len(b.h));
    if (!(out <= SCCD_RANGE_MAX)) /* beyond the range: the prepared test past its balls, which scales it */
        return prepare(s, &S) && box_meets_past_balls(&S, b, to_local(&S, b.c));
    bool hit, checked;
    if (raw_ball_decides(s, b.c, box_inner_radius(sccd_min(b.h.x, sccd_min(b.h.y, b.h.z))), out, true, true, &hit,
                         &checked))
        return hit;
    return prepare_checked(s, &S, checked) && box_meets_past_balls(&S, b, to_local(&S, b.c));
}

bool sccd_sector3_vs_triangle(const sccd_sector3 *s, sccd_triangle t)
{
    sccd_v3 m;
    sccd_real rad;
    if (!triangle_ball(&t, &m, &rad)) /* the shape first, as before preparing */
        return one_shot_shape_refused(s);
    /* The ball's slab and cylinder early-outs first, without the frame;
     * then the prepared test, ball and all. Not the rough distance
     * (raw_ball_near) between: a triangle holds no ball, so that says only
     * no, to 11 % of the speed inputs of the 27 % that reach it, as the
     * frame's exact ball does (with it, the test took 1.53 times the
     * prepared test's time, 1.43 without). */
    raw_ball b;
    bool beyond, checked = raw_ball_beyond(s, m, rad, &beyond, &b) & (rad <= SCCD_RANGE_MAX);
    if (checked && beyond)
        return false;
    sect S;
    if (!prepare_checked(s, &S, checked))
        return false;
    return triangle_meets_any(&S, &t, m, rad);
}

/* ---- capsules (fact 3) ---- */

/* Is segment p0–p1 within thr of the side rectangle at angle side·θ (side ±1)? */
static bool segment_near_side(const sect *S, sccd_v3 p0, sccd_v3 p1, sccd_real side, sccd_real thr)
{
    /* Coordinates in the rectangle's frame: x along the side, y its normal. */
    sccd_real c = S->c, s = side * S->s;
    sccd_v3 a = {c * p0.x + s * p0.y, -s * p0.x + c * p0.y, p0.z};
    sccd_v3 b = {c * p1.x + s * p1.y, -s * p1.x + c * p1.y, p1.z};
    /* Exact early-out: the rectangle lies in the plane y = 0, which the
     * segment stays more than thr away from on one side. */
    if ((a.y > thr && b.y > thr) || (a.y < -thr && b.y < -thr))
        return false;
    if ((a.y <= 0.0 && b.y >= 0.0) || (a.y >= 0.0 && b.y <= 0.0)) {
        sccd_real t = a.y != b.y ? a.y / (a.y - b.y) : 0.0;
        sccd_v3 x = sccd_v3_lerp(a, b, t);
        if (rect_distance(S, x.x, x.z) <= thr)
            return true;
    }
    if (len2d(a.y, rect_distance(S, a.x, a.z)) <= thr || len2d(b.y, rect_distance(S, b.x, b.z)) <= thr)
        return true;
    const sccd_v3 corner[4] = {{S->r, 0.0, S->zlo}, {S->R, 0.0, S->zlo}, {S->R, 0.0, S->zhi}, {S->r, 0.0, S->zhi}};
    for (int i = 0; i < 4; ++i)
        if (sccd_segment_segment3_dist2_unchecked(a, b, corner[i], corner[(i + 1) % 4]) <= thr * thr)
            return true;
    return false;
}

/* The segment p(t) = p0 + t·d in local coordinates, seen from the axis. */
typedef struct seg_local {
    sccd_v3 p0, d;
    sccd_real A, tm, b; /* ρ(t)² = A·(t − tm)² + b² */
} seg_local;

/* Squared distance from p(t) to the full solid annulus (fact 1, δ = 0). */
static sccd_real annulus_d2(const sect *S, const seg_local *g, sccd_real t)
{
    sccd_v3 p = sccd_v3_mad(g->p0, t, g->d);
    sccd_real d = rect_distance(S, len2d(p.x, p.y), p.z);
    return d * d;
}

static void add_break(sccd_real *t, int *n, sccd_real x, sccd_real lo, sccd_real hi)
{
    if (x > lo && x < hi)
        t[(*n)++] = x;
}

/* Golden-section search of a convex piece; true once a value ≤ thr2 shows,
 * false once the Lipschitz bound (the distance changes by at most |d| per
 * unit of t) puts the whole remaining bracket above sqrt(thr2). */
static bool convex_piece_reaches(const sect *S, const seg_local *g, sccd_real lo, sccd_real hi, sccd_real thr2)
{
    const sccd_real k = 0.3819660112501051;
    sccd_real lip = sccd_v3_len(g->d), thr = sqrt(thr2);
    sccd_real x1 = lo + k * (hi - lo), x2 = hi - k * (hi - lo);
    sccd_real f1 = annulus_d2(S, g, x1), f2 = annulus_d2(S, g, x2);
    for (int it = 0; it < 80 && hi - lo > 1e-15; ++it) {
        if (f1 <= thr2 || f2 <= thr2)
            return true;
        if (sqrt(sccd_min(f1, f2)) - lip * (hi - lo) > thr)
            return false;
        if (f1 < f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = lo + k * (hi - lo);
            f1 = annulus_d2(S, g, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = hi - k * (hi - lo);
            f2 = annulus_d2(S, g, x2);
        }
    }
    return f1 <= thr2 || f2 <= thr2;
}

/* Half-width of the concave part about tm of (ρ − c)² + (α·t + β)²: its
 * second derivative is 2(A + α²) − 2c·A·b²/ρ³, negative only for ρ below
 * ρ* = (c·b²·A / (A + α²))^(1/3). A / (A + α²) first, a ratio in [0, 1]:
 * c·A·b², a fifth power of the scene's size, overflowed in scenes some
 * 1e62 across (the concave part then took the whole piece, which was
 * tested at its ends alone, and capsules the sector met were missed). */
static sccd_real concave_halfwidth(const seg_local *g, sccd_real c, sccd_real alpha)
{
    if (g->A <= 0.0 || g->b <= 0.0 || c <= 0.0)
        return 0.0;
    sccd_real rs = cbrt(c * g->b * g->b * (g->A / (g->A + alpha * alpha)));
    return rs > g->b ? sqrt((rs * rs - g->b * g->b) / g->A) : 0.0;
}

/* Fact 3's case analysis on [ta, tb] (inside the wedge): does the distance to
 * the solid annulus fall to sqrt(thr2)? */
static bool annulus_reaches(const sect *S, const seg_local *g, sccd_real ta, sccd_real tb, sccd_real thr2)
{
    sccd_real t[16];
    int n = 0;
    t[n++] = ta;
    t[n++] = tb;
    if (g->d.z != 0.0) {
        add_break(t, &n, (S->zlo - g->p0.z) / g->d.z, ta, tb);
        add_break(t, &n, (S->zhi - g->p0.z) / g->d.z, ta, tb);
    }
    if (g->A > 0.0) {
        add_break(t, &n, g->tm, ta, tb);
        const sccd_real radii[2] = {S->r, S->R};
        for (int i = 0; i < 2; ++i)
            if (radii[i] > g->b) {
                sccd_real h = sqrt((radii[i] - g->b) * (radii[i] + g->b) / g->A);
                add_break(t, &n, g->tm - h, ta, tb);
                add_break(t, &n, g->tm + h, ta, tb);
            }
    }
    sccd_sort_small(t, n);
    for (int i = 0; i < n; ++i)
        if (annulus_d2(S, g, t[i]) <= thr2)
            return true;
    for (int i = 0; i + 1 < n; ++i) {
        sccd_real lo = t[i], hi = t[i + 1];
        if (!(hi > lo))
            continue;
        /* Which terms are active on this piece (from its middle). */
        sccd_v3 pm = sccd_v3_mad(g->p0, 0.5 * (lo + hi), g->d);
        sccd_real rho = len2d(pm.x, pm.y);
        sccd_real c = rho > S->R ? S->R : (rho < S->r ? S->r : -1.0);
        sccd_real alpha = (pm.z > S->zhi || pm.z < S->zlo) ? g->d.z : 0.0;
        sccd_real w = c >= 0.0 ? concave_halfwidth(g, c, alpha) : 0.0;
        /* Split at the concave part's ends; its own minimum is at those ends. */
        sccd_real cut[4] = {lo, sccd_clamp(g->tm - w, lo, hi), sccd_clamp(g->tm + w, lo, hi), hi};
        for (int j = 0; j < 3; ++j) {
            bool concave = w > 0.0 && j == 1;
            if (cut[j + 1] > cut[j] && !concave && convex_piece_reaches(S, g, cut[j], cut[j + 1], thr2))
                return true;
            if (concave && (annulus_d2(S, g, cut[1]) <= thr2 || annulus_d2(S, g, cut[2]) <= thr2))
                return true;
        }
    }
    return false;
}

/* Parameter interval of the segment's projection inside a convex wedge. */
static bool wedge_interval(const wedge *w, const seg_local *g, sccd_real *ta, sccd_real *tb)
{
    sccd_real lo = 0.0, hi = 1.0;
    for (int j = 0; j < w->n; ++j) {
        sccd_real f0 = w->nrm[j].x * g->p0.x + w->nrm[j].y * g->p0.y;
        sccd_real fd = w->nrm[j].x * g->d.x + w->nrm[j].y * g->d.y;
        if (!sccd_clip_param(f0, fd, &lo, &hi))
            return false;
    }
    *ta = lo;
    *tb = hi;
    return true;
}

static bool capsule_local(const sect *S, sccd_v3 p0, sccd_v3 p1, sccd_real rc)
{
    sccd_real scale = sccd_max(S->scale, sccd_max(v3_maxabs(p0), v3_maxabs(p1)) + rc);
    sccd_real thr = rc + SCCD_EPS * scale;
    if (local_distance(S, p0) <= thr || local_distance(S, p1) <= thr)
        return true;
    if (sccd_min(p0.z, p1.z) > S->zhi + thr || sccd_max(p0.z, p1.z) < S->zlo - thr)
        return false;
    if (S->th < SCCD_PI && (segment_near_side(S, p0, p1, 1.0, thr) || segment_near_side(S, p0, p1, -1.0, thr)))
        return true;
    seg_local g = {p0, sccd_v3_sub(p1, p0), 0.0, 0.0, 0.0};
    g.A = g.d.x * g.d.x + g.d.y * g.d.y;
    if (g.A > 0.0) {
        g.tm = -(p0.x * g.d.x + p0.y * g.d.y) / g.A;
        g.b = fabs(p0.x * g.d.y - p0.y * g.d.x) / sqrt(g.A);
    } else {
        g.b = len2d(p0.x, p0.y);
    }
    wedge w[2];
    int pieces = wedge_parts(S, w);
    for (int k = 0; k < pieces; ++k) {
        sccd_real ta, tb;
        if (wedge_interval(&w[k], &g, &ta, &tb) && annulus_reaches(S, &g, ta, tb, thr * thr))
            return true;
    }
    return false;
}

/* The exact test of the capsule with core a–b (canonical frame, m its
 * middle) and radius r past the early-out of the ball about m holding it:
 * beyond the slab, the cylinder R or the wedge when its core's supports,
 * grown by r, are; it holds its end balls; then the segment. */
static bool capsule_meets_past_ball(const sect *S, sccd_v3 a, sccd_v3 b, sccd_v3 m, sccd_real r)
{
    sccd_v3 ends[2] = {a, b};
    supports h = point_supports(S, ends, 2, plane_direction(m));
    sccd_real tol = SCCD_EPS * sccd_max(S->scale, sccd_max(v3_maxabs(a), v3_maxabs(b)) + r);
    if (supports_miss(S, &h, r + tol)) /* each support grown by r: the reach is r + tol */
        return false;
    if (local_ball_meets(S, a, r, SCCD_EPS * sccd_max(S->scale, v3_maxabs(a) + r)) ||
        local_ball_meets(S, b, r, SCCD_EPS * sccd_max(S->scale, v3_maxabs(b) + r)))
        return true;
    return capsule_local(S, a, b, r);
}

/* The capsule with core a–b (canonical frame) and radius r within the
 * range, rm = |b − a|/2 + r. Exact early-out: it lies in the ball of
 * radius rm about its middle. */
static SCCD_ALWAYS_INLINE bool capsule_local_meets(const sect *S, sccd_v3 a, sccd_v3 b, sccd_real r, sccd_real rm)
{
    sccd_v3 m = sccd_v3_lerp(a, b, 0.5);
    return local_ball_meets(S, m, rm, SCCD_EPS * sccd_max(S->scale, v3_maxabs(m) + rm)) &&
           capsule_meets_past_ball(S, a, b, m, r);
}

/* The capsule test for a capsule beyond the range (its bounding ball's
 * radius above it, or not finite), the scene scaled. Out of line: rare. */
SCCD_NOINLINE static bool capsule_meets_scaled(const sect *S, sccd_capsule3 c)
{
    sccd_real f = scene_factor(S, sccd_max(sccd_max(v3_maxabs(c.a), v3_maxabs(c.b)), c.r));
    sect T = scaled_sect(S, f);
    sccd_v3 a = to_local(&T, sccd_v3_scale(c.a, f)), b = to_local(&T, sccd_v3_scale(c.b, f));
    return capsule_local_meets(&T, a, b, c.r * f, 0.5 * sccd_v3_dist(a, b) + c.r * f);
}

/* The capsule test (valid capsule): in the canonical frame once, within
 * the range as it is, else scaled: a capsule beyond it, or any capsule
 * against a sector below SCCD_RANGE_MIN (not fast: a scene that may be
 * tiny; the scaling is by the whole scene's largest number, so it brings
 * a tiny one up and another near 1e50, exactly). */
bool sccd_sector3_prepared_meets_capsule(const sccd_sector3_prepared *S, sccd_capsule3 c)
{
    if (!S->ready)
        return false;
    sccd_v3 a = to_local(S, c.a), b = to_local(S, c.b);
    sccd_real rm = 0.5 * sccd_v3_dist(a, b) + c.r;
    if (!(rm <= SCCD_RANGE_MAX) | !S->fast)
        return capsule_meets_scaled(S, c);
    return capsule_local_meets(S, a, b, c.r, rm);
}

bool sccd_sector3_prepared_vs_capsule(const sccd_sector3_prepared *S, sccd_capsule3 c)
{
    if (!S || !valid_capsule3(c)) {
        SCCD_ASSERT(S != NULL && valid_capsule3(c));
        return false;
    }
    return sccd_sector3_prepared_meets_capsule(S, c);
}

bool sccd_sector3_vs_capsule(const sccd_sector3 *s, sccd_capsule3 c)
{
    if (!sccd_is_valid_capsule3(c)) {
        SCCD_ASSERT(sccd_is_valid_capsule3(c));
        return one_shot_shape_refused(s);
    }
    /* The prepared test's bounding ball first, without the frame; its
     * radius, there from the canonical frame's ends, is within rounding of
     * this one grown by 1e-12. Undecided, the frame's ball test would
     * rarely decide more: the rest of the test, exact on its own, follows.
     * Beyond the range, the prepared test, which scales it. */
    sect S;
    sccd_real out = 0.5 * sccd_v3_dist(c.a, c.b) * (1.0 + 1e-12) + c.r;
    if (!(out <= SCCD_RANGE_MAX) | (s && !(sccd_max(s->R, sccd_max(fabs(s->zlo), fabs(s->zhi))) >= SCCD_RANGE_MIN)))
        return prepare(s, &S) && capsule_meets_scaled(&S, c);
    bool hit, checked;
    if (raw_ball_decides(s, sccd_v3_lerp(c.a, c.b, 0.5), c.r, out, true, true, &hit, &checked))
        return hit;
    if (!prepare_checked(s, &S, checked))
        return false;
    sccd_v3 a = to_local(&S, c.a), b = to_local(&S, c.b);
    return capsule_meets_past_ball(&S, a, b, sccd_v3_lerp(a, b, 0.5), c.r);
}

/* ---- the thesis' capsule approximation (§2.7) ---- */

/* Eq 2.12: radius of a sphere's slice inside the slab ±h (0 when it misses). */
static sccd_real slice_radius(sccd_real z, sccd_real h, sccd_real rc)
{
    sccd_real out = fabs(z) - h;
    if (out <= 0.0)
        return rc;
    return out < rc ? sqrt(rc * rc - out * out) : 0.0;
}

bool sccd_sector3_vs_capsule_thesis(const sccd_sector3 *s, sccd_capsule3 cap)
{
    sect S;
    if (!sccd_is_valid_capsule3(cap)) {
        SCCD_ASSERT(sccd_is_valid_capsule3(cap));
        return false;
    }
    if (!prepare(s, &S))
        return false;
    /* The thesis' slab is ±h about 0: shift z by the slab's middle. */
    sccd_real mid = 0.5 * (S.zlo + S.zhi), h = 0.5 * (S.zhi - S.zlo), rc = cap.r;
    sccd_v3 P = to_local(&S, cap.a), Q = to_local(&S, cap.b);
    P.z -= mid;
    Q.z -= mid;
    if (P.z < Q.z) { /* the thesis orders Sz ≥ Ez */
        sccd_v3 t = P;
        P = Q;
        Q = t;
    }
    sccd_v3 Sp = P, E = Q;
    if (Sp.z + rc < -h || E.z - rc > h) /* eq 2.21 */
        return false;
    sccd_v3 V = sccd_v3_sub(E, Sp);
    sccd_real vxy = len2d(V.x, V.y);
    /* eq 2.22 */
    sccd_real rcp = (Sp.z >= -h && E.z <= h) ? rc : sccd_max(slice_radius(Sp.z, h, rc), slice_radius(E.z, h, rc));
    sccd_v3 s2 = Sp, e2 = E;
    if (V.z != 0.0 && vxy > 0.0) {
        /* eqs 2.23–2.31: the 2D capsule C' around the pseudo-capsule. */
        sccd_v3 Qh = sccd_v3_mad(Sp, (h - Sp.z) / V.z, V);      /* eq 2.23 */
        sccd_real w = rc / -V.z * vxy;                           /* eq 2.26 */
        sccd_real sp = rc > 0.0 ? w / sqrt(w * w + rc * rc) : 1.0; /* eq 2.28 (rc = 0: L(s) = s·w) */
        sccd_real Gz = Qh.z + sp * rc, Hz = -Gz;                 /* eq 2.29 */
        sccd_v3 S2 = sccd_v3_mad(Sp, (sccd_min(Sp.z, Gz) - Sp.z) / V.z, V); /* eq 2.30 */
        sccd_v3 E2 = sccd_v3_mad(Sp, (sccd_max(E.z, Hz) - Sp.z) / V.z, V);
        sccd_real ra = slice_radius(S2.z, h, rc), rb = slice_radius(E2.z, h, rc);
        s2 = sccd_v3_mad(S2, (rcp - ra) / vxy, V); /* eq 2.31 */
        e2 = sccd_v3_mad(E2, -(rcp - rb) / vxy, V);
    } else if (V.z == 0.0) {
        rcp = slice_radius(Sp.z, h, rc); /* a horizontal capsule: its slice is a 2D capsule */
    }
    /* C' lies in the slab's middle plane: the exact test there is the exact
     * 2D capsule test of §2.6 (whose eq 2.15 shares eq 2.8's flaw). */
    s2.z = mid;
    e2.z = mid;
    return capsule_local(&S, s2, e2, rcp);
}

/* ---- sector against sector ---- */

/* Outer tangent segments of a piece's prism. */
#define PIECE_TANGENTS 5

/* A convex prism holding A's piece of angles [p0, p1] (p1 − p0 ≤ π/2): its
 * section is the inner chord at radius r, the two sides, and PIECE_TANGENTS
 * tangents to the outer circle (corners at R / cos(Δ / 2k)); heights zlo, zhi.
 * It reaches beyond the piece by at most piece_excess(). */
static void piece_prism(const sect *A, sccd_real p0, sccd_real p1, sccd_polytope *P)
{
    const int ring = PIECE_TANGENTS + 3;
    sccd_real step = (p1 - p0) / PIECE_TANGENTS, ro = A->R / cos(0.5 * step);
    sccd_v2 sec[PIECE_TANGENTS + 3];
    sec[0] = (sccd_v2){A->r * cos(p0), A->r * sin(p0)};
    for (int j = 0; j <= PIECE_TANGENTS; ++j)
        sec[j + 1] = (sccd_v2){ro * cos(p0 + j * step), ro * sin(p0 + j * step)};
    sec[ring - 1] = (sccd_v2){A->r * cos(p1), A->r * sin(p1)};
    P->nv = 2 * ring;
    P->ne = 0;
    for (int i = 0; i < ring; ++i) {
        P->v[i] = from_local(A, (sccd_v3){sec[i].x, sec[i].y, A->zlo});
        P->v[ring + i] = from_local(A, (sccd_v3){sec[i].x, sec[i].y, A->zhi});
        const int e[3][2] = {{i, (i + 1) % ring}, {ring + i, ring + (i + 1) % ring}, {i, ring + i}};
        for (int k = 0; k < 3; ++k) {
            P->e[P->ne][0] = (unsigned char)e[k][0];
            P->e[P->ne++][1] = (unsigned char)e[k][1];
        }
    }
}

/* How far piece_prism reaches beyond the piece: past the outer arc
 * R·(1/cos(Δ/2k) − 1), inside the inner arc up to r·(1 − cos(Δ/2)). */
static sccd_real piece_excess(const sect *A, sccd_real p0, sccd_real p1)
{
    sccd_real h = 0.5 * (p1 - p0);
    return sccd_max(A->R * (1.0 / cos(h / PIECE_TANGENTS) - 1.0), A->r * (1.0 - cos(h)));
}

/* Distance from the centre point of A's piece [p0, p1] to B, and the radius
 * of a ball about that point holding the piece: the farthest piece point is
 * a corner, |corner − centre|² = (rm − ρ)² + 4·rm·ρ·sin²(Δφ/4) + (Δz/2)²
 * (no cancellation for small Δφ). */
static void piece_ball(const sect *A, const sect *B, sccd_real p0, sccd_real p1, sccd_real *d, sccd_real *rad)
{
    sccd_real rm = 0.5 * (A->r + A->R), pm = 0.5 * (p0 + p1), zm = 0.5 * (A->zlo + A->zhi);
    *d = local_distance(B, to_local(B, from_local(A, (sccd_v3){rm * cos(pm), rm * sin(pm), zm})));
    sccd_real sh = sin(0.25 * (p1 - p0)), hr = 0.5 * (A->R - A->r), hz = 0.5 * (A->zhi - A->zlo);
    *rad = sqrt(hr * hr + 4.0 * rm * A->R * sh * sh + hz * hz);
}

#define PIECE_STACK 128
#define PIECE_BUDGET 100000

/* Branch-and-bound over A's angle: a piece whose prism misses B is dropped
 * (exact polytope test); a piece whose prism is within tol of the piece
 * itself and meets B decides "touching". Depth first. */
static bool sector_bnb(const sect *A, const sect *B, sccd_real tol)
{
    sccd_real stack[PIECE_STACK][2];
    int n = 0;
    int k = (int)ceil(2.0 * A->th / (0.5 * SCCD_PI));
    k = k < 1 ? 1 : k;
    for (int i = 0; i < k; ++i) {
        stack[n][0] = -A->th + 2.0 * A->th * i / k;
        stack[n++][1] = -A->th + 2.0 * A->th * (i + 1) / k;
    }
    for (int budget = 0; n > 0; ++budget) {
        sccd_real p0 = stack[n - 1][0], p1 = stack[n - 1][1];
        n--;
        /* Cheap first: the piece's centre point and a radius holding it. */
        sccd_real d, rad;
        piece_ball(A, B, p0, p1, &d, &rad);
        if (d <= tol)
            return true;
        if (d - rad > tol)
            continue;
        sccd_polytope P;
        piece_prism(A, p0, p1, &P);
        if (!polytope_vs_sect(B, &P))
            continue;
        if (piece_excess(A, p0, p1) <= tol)
            return true;
        if (budget >= PIECE_BUDGET || n + 2 > PIECE_STACK)
            return true; /* undecided within the budget: answer conservatively */
        sccd_push_halves(stack, &n, p0, p1);
    }
    return false;
}

static sccd_real sector_diameter(const sect *S) { return len2d(2.0 * S->R, S->zhi - S->zlo); }

bool sccd_sector3_vs_sector3(const sccd_sector3 *s, const sccd_sector3 *other)
{
    sect A, B;
    bool okA = prepare(s, &A), okB = prepare(other, &B);
    if (!okA || !okB)
        return false;
    sccd_real scale = sccd_max(sccd_max(A.scale, B.scale), sccd_max(v3_maxabs(A.o), v3_maxabs(B.o)));
    if (sccd_scene_tiny(scale)) { /* squares underflow (tiny sectors met at 27 % of pairs apart): scaled up */
        sccd_real f = sccd_range_factor(scale);
        A = scaled_sect(&A, f);
        B = scaled_sect(&B, f);
        scale *= f;
    }
    /* Subdivide the sector of smaller diameter (fewer pieces); a fixed order
     * keeps the answer symmetric. */
    sccd_real da = sector_diameter(&A), db = sector_diameter(&B);
    if (db < da || (db == da && memcmp(s, other, sizeof *s) > 0)) {
        sect t = A;
        A = B;
        B = t;
    }
    sccd_real tol = SCCD_EPS * scale;
    sccd_aabb3 ba = sccd_sector3_prepared_aabb(&A), bb = sccd_sector3_prepared_aabb(&B);
    if (ba.lo.x > bb.hi.x + tol || bb.lo.x > ba.hi.x + tol || ba.lo.y > bb.hi.y + tol || bb.lo.y > ba.hi.y + tol ||
        ba.lo.z > bb.hi.z + tol || bb.lo.z > ba.hi.z + tol)
        return false;
    return sector_bnb(&A, &B, tol);
}

/* ---- bounding box ---- */

sccd_aabb3 sccd_sector3_prepared_aabb(const sccd_sector3_prepared *S)
{
    sccd_real lo[3], hi[3];
    for (int i = 0; i < 3; ++i) {
        sccd_real ax = i == 0 ? S->a.x : (i == 1 ? S->a.y : S->a.z);
        sccd_real kx = i == 0 ? S->k.x : (i == 1 ? S->k.y : S->k.z);
        sccd_real ux = i == 0 ? S->u.x : (i == 1 ? S->u.y : S->u.z);
        sccd_real o = i == 0 ? S->o.x : (i == 1 ? S->o.y : S->o.z);
        sccd_real zmax = sccd_max(ux * S->zlo, ux * S->zhi), zmin = sccd_min(ux * S->zlo, ux * S->zhi);
        sector_range2(S, ax, kx, &lo[i], &hi[i]);
        hi[i] = o + hi[i] + zmax;
        lo[i] = o + lo[i] + zmin;
    }
    return (sccd_aabb3){{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
}

sccd_aabb3 sccd_sector3_aabb(const sccd_sector3 *s)
{
    sect S;
    if (!prepare(s, &S)) {
        sccd_v3 o = s && sccd_is_valid_v3(s->o) ? s->o : (sccd_v3){0.0, 0.0, 0.0};
        return (sccd_aabb3){o, o};
    }
    return sccd_sector3_prepared_aabb(&S);
}
