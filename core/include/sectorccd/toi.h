/* sectorccd — time of impact of two convex shapes under rigid motions that
 * may turn without limit (docs/DESIGN.md "Time of impact").
 *
 * Conservative advancement: at time t the GJK normal n gives a separating
 * gap along n; proven bounds on how fast that gap can shrink say how far t
 * may advance before the distance could reach the target: the plain speed
 * bound (translation along n plus, per body, turn rate × its core's
 * farthest distance from its motion centre: a rounding turns in place), a
 * second-order bound through support values in tilted directions (with n
 * fixed in the world or turning with either body),
 * a chord bound (a turning point moves at most a diameter) and an envelope
 * bound (each body stays in a disc about its centre). The derivations are in
 * toi.c. Hence the reported t is never later than the first time the
 * distance falls to target. No cap on spin: any dtheta / angle. */
#ifndef SECTORCCD_TOI_H
#define SECTORCCD_TOI_H

#include "sectorccd/distance.h"
#include "sectorccd/motion.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most distance evaluations of one TOI query before it gives up (FAILED).
#define SCCD_TOI_MAX_ITERATIONS 64

/// Outcome of a TOI query.
typedef enum {
    SCCD_TOI_SEPARATED,  ///< distance does not fall below target before t = 1; t = 1
    SCCD_TOI_HIT,        ///< distance reaches target (within tolerance) at t
    SCCD_TOI_OVERLAPPED, ///< the shapes overlap at t = 0; t = 0
    SCCD_TOI_FAILED      ///< iteration cap, no provable progress (GJK at its precision) or invalid input; t is still safe (no contact before it)
} sccd_toi_state;

/// 2D TOI result: state, time t in [0, 1], contact point (world) and unit normal from A to B at t, distance evaluations.
typedef struct sccd_toi2 { sccd_toi_state state; sccd_real t; sccd_v2 point, normal; int iterations; } sccd_toi2;
/// 3D TOI result: state, time t in [0, 1], contact point (world) and unit normal from A to B at t, distance evaluations.
typedef struct sccd_toi3 { sccd_toi_state state; sccd_real t; sccd_v3 point, normal; int iterations; } sccd_toi3;

/// First t in [0, 1] at which the distance of a (moving by ma) and b (by mb) falls to target ≥ 0; HIT when within tolerance > 0 above it (both in length units). Invalid input: FAILED at t = 0.
sccd_toi2 sccd_toi2_compute(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                            sccd_real target, sccd_real tolerance);
/// First t in [0, 1] at which the distance of a (moving by ma) and b (by mb) falls to target ≥ 0; HIT when within tolerance > 0 above it. Invalid input: FAILED at t = 0.
sccd_toi3 sccd_toi3_compute(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                            sccd_real target, sccd_real tolerance);

#ifdef __cplusplus
}
#endif

#endif
