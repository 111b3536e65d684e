/* sectorccd — distance and closest points of two convex shapes by GJK
 * (Gilbert, Johnson, Keerthi 1988; the exact convex test the thesis names as
 * the narrow phase its sectors filter for, seed 000 §1.1) on the shapes'
 * cores, radii added after (support.h). The sub-simplex search is Johnson's: the closest point of a
 * simplex to the origin lies in the relative interior of exactly one of its
 * faces; each face is tried from the largest down with barycentric (signed
 * area / volume) coordinates.
 *
 * Overlap (touching included, within SCCD_EPS of the shapes' size): overlap is
 * true and distance is 0. When only the rounded parts overlap the normal and
 * points still come from the cores (pa, pb are then the deepest points along
 * the normal); when the cores overlap the normal is SCCD_FALLBACK_V2/V3 and
 * pa = pb. Invalid input: distance +INFINITY, overlap false, zero points,
 * fallback normal; never NaN. */
#ifndef SECTORCCD_DISTANCE_H
#define SECTORCCD_DISTANCE_H

#include "sectorccd/support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of a 2D distance query: distance ≥ 0, closest points pa on A and pb on B, unit normal from A to B, overlap flag, GJK iterations (1 when both have at most two points: answered in closed form).
typedef struct sccd_distance2 { sccd_real distance; sccd_v2 pa, pb, normal; bool overlap; int iterations; } sccd_distance2;
/// Result of a 3D distance query: distance ≥ 0, closest points pa on A and pb on B, unit normal from A to B, overlap flag, GJK iterations (1 when both have at most two points: answered in closed form).
typedef struct sccd_distance3 { sccd_real distance; sccd_v3 pa, pb, normal; bool overlap; int iterations; } sccd_distance3;

/// Distance between two proxies given in one frame.
sccd_distance2 sccd_proxy2_distance(const sccd_proxy2 *a, const sccd_proxy2 *b);
/// Distance between two proxies given in one frame.
sccd_distance3 sccd_proxy3_distance(const sccd_proxy3 *a, const sccd_proxy3 *b);
/// Distance between shape a placed by xa and shape b placed by xb (world results; computed in a's frame for precision).
sccd_distance2 sccd_shape2_distance(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb);
/// Distance between shape a placed by xa and shape b placed by xb (world results; computed in a's frame for precision).
sccd_distance3 sccd_shape3_distance(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb);

#ifdef __cplusplus
}
#endif

#endif
