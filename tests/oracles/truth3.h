/* Ground truth for 3D sweeps (docs/DESIGN.md "Tests, oracles and benchmarks"): exact
 * membership of a point in the sweep of a box or a sphere turning about a
 * fixed axis, and sampling of points of true sweeps with translation. Used by
 * the tests and the benchmarks; independent of core/src/sweep3.c. */
#ifndef SCCD_TRUTH3_H
#define SCCD_TRUTH3_H

#include "test_util.h"

/// Exact: is world point p covered while box (world pose at t = 0) turns by angle (radians, any sign and size) about the line through center along unit axis? *witness (may be NULL) gets a turn τ in the angle range with Rot(τ)·box ∋ p when true.
bool sccd_truth3_box_rot(sccd_box3 box, sccd_v3 center, sccd_v3 axis, sccd_real angle, sccd_v3 p, sccd_real *witness);
/// Exact: the same for a sphere (world, at t = 0).
bool sccd_truth3_sphere_rot(sccd_sphere s, sccd_v3 center, sccd_v3 axis, sccd_real angle, sccd_v3 p, sccd_real *witness);

/// World position at time t of body point x under motion m, written from the definition (rotation as a matrix).
sccd_v3 sccd_truth3_point_at(sccd_motion3 m, sccd_real t, sccd_v3 x);
/// A body point of shape (body coordinates): interior, face, edge or corner (boxes), interior or surface (spheres, capsules), chosen at random.
sccd_v3 sccd_truth3_shape_point(const sccd_shape3 *shape, sccd_rng *g);
/// A world point of the true sweep of shape under m: random t in [0, 1] (ends included now and then) and a random shape point.
sccd_v3 sccd_truth3_sample(const sccd_shape3 *shape, sccd_motion3 m, sccd_rng *g);

/// The rotation whose columns are the right-handed orthonormal axes x, y, z (Shepperd's method).
sccd_quat sccd_truth3_quat_from_axes(sccd_v3 x, sccd_v3 y, sccd_v3 z);

#endif
