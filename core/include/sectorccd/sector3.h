/* sectorccd — the thick annular sector ("fan") in 3D (seed 000 §2.1) and its
 * exact overlap tests against points, spheres, capsules, boxes, triangles and
 * other sectors.
 *
 * The set: points whose cylindrical coordinates about (o, u) have radius ρ in
 * [r, R], angle within half_angle of a, and height z = u·(p − o) in
 * [zlo, zhi]. half_angle = π is the full annulus, r = 0 the "piece of cake",
 * r > 0 the "baumkuchen"; half angles above π/2 (non-convex sectors) work.
 * Degenerate sectors (half_angle 0, r = R, zlo = zhi, R = 0) are valid: they
 * are rectangles, cylinder patches, flat sectors, segments.
 *
 * Exact: a test is true when the two sets touch or overlap, up to a relative
 * tolerance SCCD_EPS (1e-9) of the scene size (the largest coordinate, radius
 * or height involved; for a point or a sphere, the sector's R and heights and
 * its radius: one that near lies within them and its diameter).
 *
 * Bad input: the check fires (SCCD_ASSERT); a sector with a non-finite number,
 * r > R or zlo > zhi, and a non-finite or negative-size shape give false (no
 * overlap). A u or a that is not unit or not perpendicular is re-orthonormalised
 * (a falls back to a direction ⟂ u, SCCD_FALLBACK_V3 when possible); a
 * half_angle outside [0, π] is clamped; a negative r is taken as 0.
 *
 * Prepared sectors: many tests against one sector should prepare it once
 * (sccd_sector3_prepare checks and repairs it as above and keeps its frame,
 * cosine and sine) and call the sccd_sector3_prepared_vs_*
 * tests, which give the same answers as the one-shot tests without their
 * trigonometry and sector checks; the one-shot tests try the prepared tests'
 * first early-outs without the frame or the trigonometry, then prepare and
 * call them. */
#ifndef SECTORCCD_SECTOR3_H
#define SECTORCCD_SECTOR3_H

#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Thick annular sector: pivot o, unit axis u, unit centre direction a ⟂ u, half_angle in [0, π] (radians), radii 0 ≤ r ≤ R, slab zlo ≤ z ≤ zhi along u from o.
typedef struct sccd_sector3 { sccd_v3 o, u, a; sccd_real half_angle, r, R, zlo, zhi; } sccd_sector3;

/// A sector checked and put in canonical form once for many tests (as Box2D's b2ShapeProxy): an exactly orthonormal frame, the cosine and sine of the half angle; its tests need no trigonometry (what they read comes first, in 160 bytes). Made by sccd_sector3_prepare; read it, do not change it.
typedef struct sccd_sector3_prepared {
    sccd_v3 o, a, k, u;             /* pivot; frame: centre direction, u × a, axis */
    sccd_real c, s, r, R, zlo, zhi; /* cosine and sine of the half angle, radii, slab (cleaned) */
    sccd_real scale;                /* the sector's size for the tolerance: max(R, |zlo|, |zhi|) */
    bool ready;                     /* prepared from a usable sector (false, as zeroed: meets nothing) */
    bool fast;                      /* ready, and scale at least 1e-100: the tests' common path (else scaled up) */
    sccd_real th;                   /* the half angle (cleaned) */
    sccd_sector3 source;            /* the sector as given */
} sccd_sector3_prepared;

/// True when all numbers are finite, u and a unit (1e-6) and ⟂ (1e-6), 0 ≤ half_angle ≤ π, 0 ≤ r ≤ R, zlo ≤ zhi, and R, |zlo|, |zhi| ≤ SCCD_RANGE_MAX.
bool sccd_is_valid_sector3(const sccd_sector3 *s);

/// Checks s and prepares it into out (fixable flaws repaired as the one-shot tests do, the check firing); false (out meets nothing) when no set is defined: non-finite numbers, r > R, zlo > zhi, or a null pointer; or when it is beyond SCCD_RANGE_MAX.
bool sccd_sector3_prepare(sccd_sector3_prepared *out, const sccd_sector3 *s);
/// sccd_sector3_vs_point on a prepared sector.
bool sccd_sector3_prepared_vs_point(const sccd_sector3_prepared *p, sccd_v3 q);
/// sccd_sector3_vs_sphere on a prepared sector.
bool sccd_sector3_prepared_vs_sphere(const sccd_sector3_prepared *p, sccd_sphere sphere);
/// sccd_sector3_vs_capsule on a prepared sector.
bool sccd_sector3_prepared_vs_capsule(const sccd_sector3_prepared *p, sccd_capsule3 c);
/// sccd_sector3_vs_box on a prepared sector.
bool sccd_sector3_prepared_vs_box(const sccd_sector3_prepared *p, sccd_box3 b);
/// sccd_sector3_vs_triangle on a prepared sector.
bool sccd_sector3_prepared_vs_triangle(const sccd_sector3_prepared *p, sccd_triangle t);

/// The thesis' sector of a box turning by alpha (radians) about pivot (seed 000 §2.1, eqs 2.1–2.2): θ = |α|/2, r, R = |P − O| ∓ Wy/2, zlo, zhi = ∓Wz/2, u = box local z (sign of α folded in), a = local y turned by α/2. Constraint: pivot on the box's local y line through the centre, outside the box; otherwise the check fires and the same formulas are applied to the component of P − O ⟂ local z (r clamped at 0, the box's offset along local z folded into zlo, zhi), which then does not bound the sweep.
sccd_sector3 sccd_sector3_thesis(sccd_box3 box, sccd_v3 pivot, sccd_real alpha);

/// World point p in the sector's canonical frame (seed 000 eq 2.3): o → origin, a → +x, K = u × a → +y, u → +z.
sccd_v3 sccd_sector3_to_local(const sccd_sector3 *s, sccd_v3 p);
/// The inverse of sccd_sector3_to_local: a canonical-frame point back to world.
sccd_v3 sccd_sector3_from_local(const sccd_sector3 *s, sccd_v3 q);

/// Euclidean distance from world point p to the sector (0 inside), closed form; invalid input: +INFINITY.
sccd_real sccd_sector3_distance(const sccd_sector3 *s, sccd_v3 p);
/// The smallest world AABB holding the sector; invalid sector: the AABB of the pivot.
sccd_aabb3 sccd_sector3_aabb(const sccd_sector3 *s);

/// Point inside or on the sector (seed 000 §2.2, eqs 2.4–2.7), by its distance within the tolerance (the thesis' cosine test cannot tell angles within 1e-8 rad of 0 or π apart).
bool sccd_sector3_vs_point(const sccd_sector3 *s, sccd_v3 p);
/// Sphere touches or overlaps the sector (seed 000 §2.5, eq 2.11 then the exact distance; eq 2.8's flaw fixed).
bool sccd_sector3_vs_sphere(const sccd_sector3 *s, sccd_sphere sphere);
/// Capsule touches or overlaps the sector: exact (seed 000 §4.1's programme, done by a case analysis of the distance along the segment).
bool sccd_sector3_vs_capsule(const sccd_sector3 *s, sccd_capsule3 c);
/// The thesis' approximate capsule test (seed 000 §2.7, eqs 2.21–2.31): has false positives; kept to measure against.
bool sccd_sector3_vs_capsule_thesis(const sccd_sector3 *s, sccd_capsule3 c);
/// Oriented box touches or overlaps the sector: exact (clip by slab and wedge, then the range of distance to the axis).
bool sccd_sector3_vs_box(const sccd_sector3 *s, sccd_box3 b);
/// Triangle touches or overlaps the sector: exact (same method as the box).
bool sccd_sector3_vs_triangle(const sccd_sector3 *s, sccd_triangle t);
/// Two sectors touch or overlap: exact to the tolerance (branch and bound over one sector's angle, each piece held by a prism tested exactly against the other; symmetric in its arguments; a grazing case beyond 10⁵ pieces answers true).
bool sccd_sector3_vs_sector3(const sccd_sector3 *s, const sccd_sector3 *other);

#ifdef __cplusplus
}
#endif

#endif
