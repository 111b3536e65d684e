/* sectorccd — the CCD pipeline for one pair of moving convex shapes
 * (docs/DESIGN.md "Time of impact"): a sweep pre-filter first (the
 * conservative sectors of the motions, sweep2.h / sweep3.h), then the time of
 * impact (toi.h) only for the pairs the sweeps cannot reject. The pre-filter
 * only ever rejects pairs that provably stay farther apart than the target,
 * so the result equals the TOI's wherever the TOI finds contact. */
#ifndef SECTORCCD_CCD_H
#define SECTORCCD_CCD_H

#include "sectorccd/sweep2.h"
#include "sectorccd/sweep3.h"
#include "sectorccd/toi.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Counters of the pipeline's stages, summed over calls: pairs asked, sweeps built, pairs rejected by the sweeps, TOIs run, TOIs that hit or overlapped (caller-owned; zero it to start).
typedef struct sccd_ccd_stats { long pairs, sweeps, rejected, tois, hits; } sccd_ccd_stats;

/// The sweep of shape s (body coordinates, any type) under motion m in bands radial bands. Invalid shape: the empty sweep (count 0, AABB at the origin), as sweep2.h.
void sccd_sweep2_shape(sccd_sweep2 *out, const sccd_shape2 *s, sccd_motion2 m, int bands);
/// The sweep of shape s (body coordinates; sphere, capsule or box) under motion m in bands radial bands. Invalid shape: count 0 and an infinite AABB (every test true), as sweep3.h.
void sccd_sweep3_shape(sccd_sweep3 *out, const sccd_shape3 *s, sccd_motion3 m, int bands);

/// Whether sweep w can meet shape s (body coordinates) placed by xf and grown by e ≥ 0 (false: provably apart by more than e). Shape valid, as from the pipeline.
bool sccd_sweep2_meets_shape(const sccd_sweep2 *w, const sccd_shape2 *s, sccd_xf2 xf, sccd_real e);
/// Whether sweep w can meet shape s (body coordinates; sphere, capsule or box) placed by xf and grown by e ≥ 0.
bool sccd_sweep3_meets_shape(const sccd_sweep3 *w, const sccd_shape3 *s, sccd_xf3 xf, sccd_real e);

/// A box holding everything shape s (body coordinates) covers under motion m: the start and end boxes grown by the arcs' sagitta. Invalid input: an infinite box.
sccd_aabb2 sccd_shape2_motion_box(const sccd_shape2 *s, sccd_motion2 m);
/// A box holding everything shape s (body coordinates) covers under motion m (see sccd_shape2_motion_box). Invalid input: an infinite box.
sccd_aabb3 sccd_shape3_motion_box(const sccd_shape3 *s, sccd_motion3 m);

/// First contact of a and b under their motions, as sccd_toi2_compute, after a sweep pre-filter with bands radial bands (1…SCCD_MAX_BANDS): SEPARATED at t = 1 with 0 iterations when the sweeps prove the distance stays above target. stats may be NULL. Invalid input: FAILED at t = 0.
sccd_toi2 sccd_ccd2(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb, sccd_real target,
                    sccd_real tolerance, int bands, sccd_ccd_stats *stats);
/// First contact of a and b under their motions, as sccd_toi3_compute, after a sweep pre-filter (see sccd_ccd2).
sccd_toi3 sccd_ccd3(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb, sccd_real target,
                    sccd_real tolerance, int bands, sccd_ccd_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
