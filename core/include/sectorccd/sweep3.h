/* sectorccd — conservative bounds of what a 3D shape covers during one step's
 * motion (docs/DESIGN.md "Sweeps").
 *
 * A sweep is a union of up to SCCD_MAX_BANDS thick annular sectors about the
 * motion's centre and axis at t = 0 (radial bands, and slabs along the axis
 * when the shape is tilted; each with the angle and height range of the
 * shape's part in it, the angles widened by the turn) plus the centre's
 * translation dp. Every point the shape covers for t in [0, 1] lies
 * in (union of the sectors) ⊕ segment[0, dp], wherever the centre is (inside
 * the shape too) and however far the body turns. The tests below are true when
 * that set touches the other shape: never a miss, possibly a false alarm.
 *
 * Bad input (invalid shape or motion): the check fires and the sweep holds
 * no sector (count 0) and an infinite AABB: every test then answers true
 * (conservative). bands outside [1, SCCD_MAX_BANDS]: the check fires and it is
 * clamped. A band whose part of the shape spans two separate angle ranges (the
 * centre inside the shape) may use one sector per range while the total stays
 * within SCCD_MAX_BANDS. */
#ifndef SECTORCCD_SWEEP3_H
#define SECTORCCD_SWEEP3_H

#include "sectorccd/motion.h"
#include "sectorccd/sector3.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A conservative sweep: count sectors (0 = invalid input: every test answers true) and the same prepared, the centre's translation dp (world), and a world AABB of the whole swept bound (a band set or changed by hand is prepared again at each test).
typedef struct sccd_sweep3 {
    int count;
    sccd_sector3 bands[SCCD_MAX_BANDS];
    sccd_sector3_prepared prepared[SCCD_MAX_BANDS];
    sccd_v3 dp;
    sccd_aabb3 aabb;
} sccd_sweep3;

/// Sweep of a box with half extents half (≥ 0) centred on the body origin, axes along the body axes, under motion m, in bands cells (1..SCCD_MAX_BANDS: radial bands, or bands × axial slabs, whichever is smaller).
void sccd_sweep3_box(sccd_sweep3 *out, sccd_v3 half, sccd_motion3 m, int bands);
/// Sweep of a sphere given in body coordinates under motion m, in bands cells.
void sccd_sweep3_sphere(sccd_sweep3 *out, sccd_sphere s, sccd_motion3 m, int bands);
/// Sweep of a capsule given in body coordinates under motion m, in bands cells.
void sccd_sweep3_capsule(sccd_sweep3 *out, sccd_capsule3 c, sccd_motion3 m, int bands);

/// World point p may be covered during the motion (conservative: never false when it is).
bool sccd_sweep3_vs_point(const sccd_sweep3 *w, sccd_v3 p);
/// A static world sphere may be touched during the motion (exact against the bound).
bool sccd_sweep3_vs_sphere(const sccd_sweep3 *w, sccd_sphere s);
/// A static world capsule may be touched during the motion (exact against the bound to the relative tolerance; a grazing case beyond the work budget answers true).
bool sccd_sweep3_vs_capsule(const sccd_sweep3 *w, sccd_capsule3 c);
/// A static world box may be touched during the motion (exact against the bound).
bool sccd_sweep3_vs_box(const sccd_sweep3 *w, sccd_box3 b);
/// A static world triangle may be touched during the motion (exact against the bound).
bool sccd_sweep3_vs_triangle(const sccd_sweep3 *w, sccd_triangle t);

#ifdef __cplusplus
}
#endif

#endif
