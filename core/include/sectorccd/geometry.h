/* sectorccd — the geometry the theses stand on (seed 000 §2.9, seed 002
 * §2.3–2.4): closest points, distances and intersection points of points,
 * segments and circles, in 2D and 3D.
 *
 * Degenerate input: a zero-length segment is its end point a (parameter 0).
 * Invalid input (NaN, infinity): the check fires, parameters are 0, points
 * are the zero vector, and a distance is +INFINITY; never NaN. */
#ifndef SECTORCCD_GEOMETRY_H
#define SECTORCCD_GEOMETRY_H

#include "sectorccd/shapes.h"

/// Closest point to p on segment a–b; *t (may be NULL) gets its parameter in [0, 1].
sccd_v2 sccd_closest_point_segment2(sccd_v2 p, sccd_v2 a, sccd_v2 b, sccd_real *t);
/// Closest point to p on segment a–b; *t (may be NULL) gets its parameter in [0, 1].
sccd_v3 sccd_closest_point_segment3(sccd_v3 p, sccd_v3 a, sccd_v3 b, sccd_real *t);
/// Distance from p to segment a–b (seed 000 §2.9).
sccd_real sccd_distance_point_segment2(sccd_v2 p, sccd_v2 a, sccd_v2 b);
/// Distance from p to segment a–b (seed 000 §2.9).
sccd_real sccd_distance_point_segment3(sccd_v3 p, sccd_v3 a, sccd_v3 b);

/// Closest points c1 on p1–q1 and c2 on p2–q2 with parameters s, t in [0, 1] (each pointer may be NULL); returns the squared distance. Parallel segments: one closest pair of the many.
sccd_real sccd_closest_segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_real *s, sccd_real *t,
                                        sccd_v2 *c1, sccd_v2 *c2);
/// Closest points c1 on p1–q1 and c2 on p2–q2 with parameters s, t in [0, 1] (each pointer may be NULL); returns the squared distance. Parallel segments: one closest pair of the many.
sccd_real sccd_closest_segment_segment3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_real *s, sccd_real *t,
                                        sccd_v3 *c1, sccd_v3 *c2);
/// Distance between segments p1–q1 and p2–q2 (seed 000 §2.9).
sccd_real sccd_distance_segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2);
/// Distance between segments p1–q1 and p2–q2 (seed 000 §2.9).
sccd_real sccd_distance_segment_segment3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2);

#endif
