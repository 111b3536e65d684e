/* sectorccd — one step's rigid motion of a body about a chosen centre
 * (docs/DESIGN.md "Motion").
 *
 * At time t in [0, 1] the centre (body coordinates) has moved by t·dp and the
 * body has turned by t·dtheta about it (any sign, any size: several turns are
 * allowed). A body point x is at
 *     start·center + t·dp + Rot(t)·start.q·(x − center).
 * With the centre at the centre of mass this is how Chipmunk and ODE integrate
 * a step (p += v·dt, θ += ω·dt); with the centre at a hand or a hinge it is the
 * thesis' rotation about a pivot (seed 000 §2.1). */
#ifndef SECTORCCD_MOTION_H
#define SECTORCCD_MOTION_H

#include "sectorccd/math_functions.h"

#ifdef __cplusplus
extern "C" {
#endif

/// 2D motion: start pose, centre (body coords), centre displacement dp (world), turn dtheta (radians, CCW).
typedef struct sccd_motion2 { sccd_xf2 start; sccd_v2 center; sccd_v2 dp; sccd_real dtheta; } sccd_motion2;
/// 3D motion: start pose, centre (body coords), dp (world), unit world axis, turn angle (radians, right-handed, any size).
typedef struct sccd_motion3 { sccd_xf3 start; sccd_v3 center; sccd_v3 dp; sccd_v3 axis; sccd_real angle; } sccd_motion3;

/// The body pose at time t (t outside [0, 1] extrapolates). Invalid motion: the start pose.
sccd_xf2 sccd_motion2_at(sccd_motion2 m, sccd_real t);
/// The body pose at time t (t outside [0, 1] extrapolates). Invalid motion: the start pose.
sccd_xf3 sccd_motion3_at(sccd_motion3 m, sccd_real t);
/// The centre's world position at time t.
sccd_v2 sccd_motion2_center_at(sccd_motion2 m, sccd_real t);
/// The centre's world position at time t.
sccd_v3 sccd_motion3_center_at(sccd_motion3 m, sccd_real t);

/// An engine step: centre velocity v (world), angular velocity w (rad/s), time step dt (s). Invalid input: a motion that stays at start.
sccd_motion2 sccd_motion2_from_velocity(sccd_xf2 start, sccd_v2 center, sccd_v2 v, sccd_real w, sccd_real dt);
/// An engine step in 3D: angular velocity vector w (world, rad/s). Invalid input: a motion that stays at start.
sccd_motion3 sccd_motion3_from_velocity(sccd_xf3 start, sccd_v3 center, sccd_v3 v, sccd_v3 w, sccd_real dt);
/// The motion joining pose a to pose b about centre (body coords), turning the short way: dtheta in (−π, π].
sccd_motion2 sccd_motion2_between(sccd_xf2 a, sccd_xf2 b, sccd_v2 center);
/// The motion joining pose a to pose b about centre (body coords), turning the short way: angle in [0, π].
sccd_motion3 sccd_motion3_between(sccd_xf3 a, sccd_xf3 b, sccd_v3 center);

/// Valid start pose, finite centre, dp and angle.
bool sccd_is_valid_motion2(sccd_motion2 m);
/// Valid start pose, finite centre, dp and angle, unit axis (within 1e-6).
bool sccd_is_valid_motion3(sccd_motion3 m);

#ifdef __cplusplus
}
#endif

#endif
