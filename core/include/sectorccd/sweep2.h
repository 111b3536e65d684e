/* sectorccd — conservative 2D sweeps: what a shape covers during one step's
 * motion (docs/DESIGN.md "Sweeps").
 *
 * A sweep is up to SCCD_MAX_BANDS sectors about the motion's centre at t = 0
 * (radial bands of the shape's distance range, each with the angular extent of
 * the shape's part in that band, widened by the turn: one sector per band, or
 * two where that part is seen in two separate directions, as the ends of a
 * long body turning about its middle), plus the translation dp. The set it
 * stands for is (union of the sectors) ⊕ segment[0, dp], which provably
 * holds every point the shape covers for t in [0, 1], for any centre (inside
 * the shape too), any turn (several turns too) and any translation; the
 * proof is in sweep2.c. Pair tests are exact against that set (1e-9
 * relative tolerance, as sector2.h), so they never miss a true contact.
 *
 * Invalid input (NaN, infinity, a bad shape or motion) fires SCCD_ASSERT and
 * builds the empty sweep (count 0, AABB at the origin), which hits nothing.
 * bands outside [1, SCCD_MAX_BANDS] fires SCCD_ASSERT and is clamped. */
#ifndef SECTORCCD_SWEEP2_H
#define SECTORCCD_SWEEP2_H

#include "sectorccd/motion.h"
#include "sectorccd/sector2.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A conservative 2D sweep: count (1…SCCD_MAX_BANDS) sectors about the centre's start position and the same prepared, translation dp (world), AABB of the whole set as built (for broadphase; the pair tests read only the prepared sectors and dp, so dp may be changed afterwards, e.g. to the motion relative to a moving target; a band set or changed by hand is prepared again at each test).
typedef struct sccd_sweep2 {
    int count;
    sccd_sector2 band[SCCD_MAX_BANDS];
    sccd_sector2_prepared prepared[SCCD_MAX_BANDS];
    sccd_v2 dp;
    sccd_aabb2 aabb;
} sccd_sweep2;

/// Sweep of the box of half extents half (centred on the body origin, body axes) under motion m, in up to bands radial bands (1…SCCD_MAX_BANDS; fewer bands with two sectors each when that encloses less).
void sccd_sweep2_box(sccd_sweep2 *out, sccd_v2 half, sccd_motion2 m, int bands);
/// Sweep of circle c (body coordinates) under motion m, in up to bands radial bands (as sccd_sweep2_box).
void sccd_sweep2_circle(sccd_sweep2 *out, sccd_circle c, sccd_motion2 m, int bands);
/// Sweep of capsule c (body coordinates) under motion m, in up to bands radial bands (as sccd_sweep2_box).
void sccd_sweep2_capsule(sccd_sweep2 *out, sccd_capsule2 c, sccd_motion2 m, int bands);
/// Sweep of the (rounded) convex polygon p (body coordinates) under motion m, in up to bands radial bands (as sccd_sweep2_box).
void sccd_sweep2_poly(sccd_sweep2 *out, const sccd_poly2 *p, sccd_motion2 m, int bands);

/// The sweep holds point p (world): p − s·dp lies in a sector for some s in [0, 1].
bool sccd_sweep2_vs_point(const sccd_sweep2 *w, sccd_v2 p);
/// The sweep meets circle c (world): a sector meets c swept by −dp (a capsule).
bool sccd_sweep2_vs_circle(const sccd_sweep2 *w, sccd_circle c);
/// The sweep meets box b (world): a sector meets b swept by −dp (a convex polygon).
bool sccd_sweep2_vs_box(const sccd_sweep2 *w, sccd_box2 b);
/// The sweep meets capsule c (world): a sector meets c swept by −dp (a rounded polygon).
bool sccd_sweep2_vs_capsule(const sccd_sweep2 *w, sccd_capsule2 c);
/// The sweep meets the (rounded) convex polygon p (world): a sector meets p swept by −dp.
bool sccd_sweep2_vs_poly(const sccd_sweep2 *w, const sccd_poly2 *p);

#ifdef __cplusplus
}
#endif

#endif
