/* sectorccd — the 2D sector ("fan"): an annular sector about a pivot, the
 * bounding volume of a rotating body (seed 000 §2.1, seed 002 §2.1), and its
 * exact pair tests (docs/DESIGN.md "Sectors").
 *
 * A sector is the closed set of points p with r ≤ |p − o| ≤ R whose direction
 * from o is within half_angle of a. half_angle = π is the full annulus; r = 0
 * is the thesis' "piece of cake", r > 0 its "baumkuchen"; half angles above
 * π/2 (non-convex sectors) are allowed. Degenerate sectors are valid sets:
 * half_angle = 0 is a radial segment, r = R an arc, R = 0 the point o.
 *
 * Exact tests return true exactly when the two sets touch or overlap, up to
 * SCCD_EPS (1e-9) times the scene size, where the scene size is the largest
 * distance from o to anything involved: R, the other shape's farthest core
 * point, its radius (for a point or a circle, R and its radius: one that
 * near lies within R + 2·radius of o). An invalid sector or shape (NaN,
 * infinity, a not unit, half_angle outside [0, π], r > R, negative sizes)
 * fires SCCD_ASSERT and the test returns false; a constructor returns the
 * sector {o, +x, 0, 0, 0} (the point o, or the origin when o is not finite).
 *
 * Prepared sectors: many tests against one sector should prepare it once
 * (sccd_sector2_prepare checks it and keeps its cosine and sine) and call
 * the sccd_sector2_prepared_vs_* tests, which give the same answers as the
 * one-shot tests without their trigonometry and sector checks; the one-shot
 * tests try the prepared tests' first early-outs before the trigonometry,
 * then prepare and call them (points and circles first decide by a coarse
 * cosine and sine of the half angle, within 6.1e-4, with margins above that
 * error: the exact ones only near an edge; the same answers).
 *
 * Prepared polygons: a polygon tested many times is checked once too
 * (sccd_poly2_prepare keeps the discs about its vertices' mean that it
 * holds and lies in, as Box2D's b2Polygon keeps its centroid and radius),
 * placed each step without a new check (sccd_poly2_prepared_transform), and
 * tested by sccd_sector2_prepared_vs_prepared_poly, which gives
 * sccd_sector2_prepared_vs_poly's answers. */
#ifndef SECTORCCD_SECTOR2_H
#define SECTORCCD_SECTOR2_H

#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Annular sector: pivot o, unit centre direction a, half angle in [0, π] (radians), radii 0 ≤ r ≤ R.
typedef struct sccd_sector2 { sccd_v2 o; sccd_v2 a; sccd_real half_angle, r, R; } sccd_sector2;

/// Most vertices of the convex point set taken by sccd_sector2_vs_convex.
#define SCCD_SECTOR2_CONVEX_MAX 16

/// A sector checked once and ready for many tests (as Box2D's b2ShapeProxy): the cosine and sine of its half angle, so its tests need no trigonometry (80 bytes: what a test reads fits in two cache lines). Made by sccd_sector2_prepare; read it, do not change it.
typedef struct sccd_sector2_prepared {
    sccd_sector2 s; /* the sector as given */
    sccd_rot2 edge; /* cos, sin of the half angle: the upper radial edge's direction in the canonical frame ((−1, 0) exactly at π) */
    bool ready;     /* prepared from a valid sector (false, as zeroed: meets nothing) */
    bool fast;      /* ready, and R at least 1e-100: the tests' common path (else the scene scaled up) */
} sccd_sector2_prepared;

/// A convex polygon checked once and ready for many sector tests (as Box2D's b2Polygon, made once with its centroid and radius): the discs about its vertices' mean that it holds and lies in, so its tests skip the polygon's check (the discs first: most tests read only its first 33 bytes). Made by sccd_poly2_prepare, placed by sccd_poly2_prepared_transform; read it, do not change it.
typedef struct sccd_poly2_prepared {
    sccd_v2 mean;     /* its vertices' mean */
    sccd_real inner;  /* the rounded polygon holds the disc of this radius about mean (its rounding radius at least) */
    sccd_real outer;  /* and lies in the one of this radius (the farthest vertex's distance plus the rounding) */
    bool ready;       /* prepared from a valid polygon (false, as zeroed: meets nothing) */
    sccd_poly2 poly;  /* the polygon as given, or as placed */
} sccd_poly2_prepared;

/// Finite o, unit a (within 1e-6), half_angle in [0, π], 0 ≤ r ≤ R ≤ SCCD_RANGE_MAX.
bool sccd_is_valid_sector2(const sccd_sector2 *s);

/// Checks s (sccd_is_valid_sector2) and prepares it into out; bad input fires SCCD_ASSERT, returns false and leaves out meeting nothing (every prepared test false).
bool sccd_sector2_prepare(sccd_sector2_prepared *out, const sccd_sector2 *s);

/// Checks poly (sccd_is_valid_poly2) and prepares it into out; bad input fires SCCD_ASSERT, returns false and leaves out meeting nothing (every test false).
bool sccd_poly2_prepare(sccd_poly2_prepared *out, const sccd_poly2 *poly);

/// The prepared polygon body with xf applied to its vertices (sccd_xf2_apply: a body's polygon placed in the world each step), its discs found again but not checked again: a rigid motion keeps it convex, and its rounding (some 1e-16 of the coordinates) stays far inside the tests' tolerance. out may be body. Not ready body: out not ready, false; bad xf (sccd_is_valid_xf2) or placed vertices beyond the doubles: SCCD_ASSERT, false, out meets nothing.
bool sccd_poly2_prepared_transform(sccd_poly2_prepared *out, const sccd_poly2_prepared *body, sccd_xf2 xf);

/// sccd_sector2_vs_point on a prepared sector.
bool sccd_sector2_prepared_vs_point(const sccd_sector2_prepared *p, sccd_v2 q);
/// sccd_sector2_vs_circle on a prepared sector.
bool sccd_sector2_prepared_vs_circle(const sccd_sector2_prepared *p, sccd_circle c);
/// sccd_sector2_vs_box on a prepared sector.
bool sccd_sector2_prepared_vs_box(const sccd_sector2_prepared *p, sccd_box2 b);
/// sccd_sector2_vs_capsule on a prepared sector.
bool sccd_sector2_prepared_vs_capsule(const sccd_sector2_prepared *p, sccd_capsule2 c);
/// sccd_sector2_vs_poly on a prepared sector.
bool sccd_sector2_prepared_vs_poly(const sccd_sector2_prepared *p, const sccd_poly2 *poly);
/// sccd_sector2_prepared_vs_poly on a prepared polygon: the same answers without the polygon's check.
bool sccd_sector2_prepared_vs_prepared_poly(const sccd_sector2_prepared *p, const sccd_poly2_prepared *q);
/// sccd_sector2_vs_convex on a prepared sector.
bool sccd_sector2_prepared_vs_convex(const sccd_sector2_prepared *p, const sccd_v2 *v, int n, sccd_real radius);

/// Thesis eq 2.1–2.2 in 2D: the sector of box turned by alpha (radians, any sign; |alpha| ≥ 2π gives the full annulus) about pivot: half angle |alpha|/2, r = |P−O| − Wy/2 (clamped at 0), R = |P−O| + Wy/2, a = direction of P−O turned by alpha/2. Meant for the thesis' constraint (P−O along the box's local y, pivot outside the box); otherwise it bounds only the box's mid line along P−O, not the box (it under-covers, by design of eq 2.1).
sccd_sector2 sccd_sector2_thesis(sccd_box2 box, sccd_v2 pivot, sccd_real alpha);

/// Bachelor thesis §2.1: the sector about o whose first radial edge runs from a (inner) to b (outer) and whose second edge a2–b2 follows counter-clockwise (the turn, 0 to 2π; the thesis uses up to π; swap the edges for a clockwise turn); r, R = the smaller and larger of |a − o|, |b − o| (seed 002 eq 2.1). Edge 2's radii are not used: the thesis assumes they equal edge 1's.
sccd_sector2 sccd_sector2_from_edges(sccd_v2 o, sccd_v2 a, sccd_v2 b, sccd_v2 a2, sccd_v2 b2);

/// Thesis eq 2.3 in 2D: p in the sector's canonical frame (o at the origin, a = +x, counter-clockwise y).
sccd_v2 sccd_sector2_to_local(const sccd_sector2 *s, sccd_v2 p);

/// Distance from p to the sector (0 inside); invalid input: +INFINITY.
sccd_real sccd_sector2_distance(const sccd_sector2 *s, sccd_v2 p);

/// The smallest AABB holding the sector; invalid: the AABB of the point o (or the origin).
sccd_aabb2 sccd_sector2_aabb(const sccd_sector2 *s);

/// Point inside or on the sector (thesis §2.2: radial then angular test, with the 1e-9 tolerance).
bool sccd_sector2_vs_point(const sccd_sector2 *s, sccd_v2 p);

/// Exact sector–circle overlap (thesis §2.4, with eq 2.8 corrected: a circle bigger than the hole overlaps it).
bool sccd_sector2_vs_circle(const sccd_sector2 *s, sccd_circle c);

/// Exact sector–oriented box overlap (clip by the wedge, then the distance range; replaces thesis §2.3).
bool sccd_sector2_vs_box(const sccd_sector2 *s, sccd_box2 b);

/// Exact sector–capsule overlap (thesis §2.6: widened annulus ∩ wedge, or within the radius of an edge).
bool sccd_sector2_vs_capsule(const sccd_sector2 *s, sccd_capsule2 c);

/// Exact sector–convex polygon overlap, rounded polygons (p->r > 0) included.
bool sccd_sector2_vs_poly(const sccd_sector2 *s, const sccd_poly2 *p);

/// Exact sector–sector overlap (symmetric; thesis §4.5 future work).
bool sccd_sector2_vs_sector2(const sccd_sector2 *s, const sccd_sector2 *t);

/// Exact overlap of the sector with the convex hull of n points (1 ≤ n ≤ SCCD_SECTOR2_CONVEX_MAX, any order, world coords) rounded by radius ≥ 0.
bool sccd_sector2_vs_convex(const sccd_sector2 *s, const sccd_v2 *v, int n, sccd_real radius);

/// The thesis' circle test exactly as written (§2.4, eq 2.8 with (r − rc)²: misses circles bigger than the hole); kept to measure against.
bool sccd_sector2_vs_circle_thesis(const sccd_sector2 *s, sccd_circle c);

/// The thesis' rectangle test (§2.3: edge/edge and edge/circle intersection points, then containment); kept to measure its speed.
bool sccd_sector2_vs_box_thesis(const sccd_sector2 *s, sccd_box2 b);

#ifdef __cplusplus
}
#endif

#endif
