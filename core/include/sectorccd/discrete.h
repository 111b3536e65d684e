/* sectorccd — discrete (single-pose) overlap tests: the baselines the thesis
 * times its sector tests against (seed 000 §3.4, tables 3.2 and 3.3).
 *
 * Touching counts as overlap. Tests that compute a distance or a projection
 * accept a gap up to SCCD_EPS times the scene size (the largest coordinate
 * magnitudes plus the shapes' sizes), so exact contact survives rounding:
 * they may report overlap for a gap of that size, never a miss. The AABB
 * tests compare coordinates exactly (no rounding, so no tolerance).
 * Zero sizes are valid (a circle of radius 0 is a point, a box of zero
 * extent a segment or point). Invalid input (NaN, infinity, negative sizes,
 * non-unit rotations, lo > hi): the check fires and the result is false, as
 * the distance functions of geometry.h return +INFINITY. */
#ifndef SECTORCCD_DISCRETE_H
#define SECTORCCD_DISCRETE_H

#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// True when circles a and b overlap or touch: |ca − cb| ≤ ra + rb (seed 000 table 3.2 "circle").
bool sccd_circle_vs_circle(sccd_circle a, sccd_circle b);
/// True when 2D capsules a and b overlap or touch: segment distance ≤ ra + rb (seed 000 table 3.2 "capsule").
bool sccd_capsule2_vs_capsule2(sccd_capsule2 a, sccd_capsule2 b);
/// True when 2D AABBs a and b overlap or touch (exact comparisons; seed 000 table 3.2 "AABB").
bool sccd_aabb2_vs_aabb2(sccd_aabb2 a, sccd_aabb2 b);
/// True when oriented rectangles a and b overlap or touch: no separating axis among the 4 edge normals (seed 000 table 3.2 "OBB").
bool sccd_box2_vs_box2(sccd_box2 a, sccd_box2 b);
/// True when spheres a and b overlap or touch: |ca − cb| ≤ ra + rb (seed 000 table 3.3, seed 004 sphere–sphere).
bool sccd_sphere_vs_sphere(sccd_sphere a, sccd_sphere b);
/// True when 3D capsules a and b overlap or touch: segment distance ≤ ra + rb (seed 000 table 3.3 "capsule").
bool sccd_capsule3_vs_capsule3(sccd_capsule3 a, sccd_capsule3 b);
/// True when 3D AABBs a and b overlap or touch (exact comparisons; seed 000 table 3.3, seed 004 AABB–AABB).
bool sccd_aabb3_vs_aabb3(sccd_aabb3 a, sccd_aabb3 b);
/// True when oriented boxes a and b overlap or touch: no separating axis among the 15 (3 + 3 face normals, 9 edge crosses; seed 000 table 3.3 "OBB").
bool sccd_box3_vs_box3(sccd_box3 a, sccd_box3 b);

#ifdef __cplusplus
}
#endif

#endif
