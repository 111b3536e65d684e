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

#ifdef __cplusplus
extern "C" {
#endif

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

/* ---- intersection points and containment (2D) ----
 * Touching counts: a point within SCCD_EPS times the scene size (largest
 * coordinate magnitude plus the sizes involved) of both sets is a common
 * point. Invalid input (NaN, infinity, negative radius): the check fires and
 * the result is SCCD_INTERSECT_NONE with no points, or false. */

/// What two sets have in common.
typedef enum sccd_intersect_state {
    SCCD_INTERSECT_NONE,    ///< nothing
    SCCD_INTERSECT_ONE,     ///< one point p[0] (a crossing or a touch)
    SCCD_INTERSECT_TWO,     ///< two points p[0], p[1]
    SCCD_INTERSECT_OVERLAP, ///< infinitely many: collinear segments sharing p[0]–p[1], or coincident circles (no points)
} sccd_intersect_state;

/// Intersection points: count (0–2) points p[i] with their parameters s[i] on the first segment and t[i] on the second (0 where the set is a circle).
typedef struct sccd_intersection2 {
    sccd_intersect_state state;
    int count;
    sccd_v2 p[2];
    sccd_real s[2], t[2];
} sccd_intersection2;

/// Segments p1–q1 and p2–q2 (seed 000 §2.9.1, eq 2.32–2.35; seed 002 §2.3.1): ONE crossing point, OVERLAP (collinear; p[0]–p[1] the shared piece, ordered by s) or NONE. A zero-length segment is a point.
sccd_intersection2 sccd_intersect_segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2);
/// Segment a–b against the circle (the curve, not the disc) (seed 000 §2.9.2, eq 2.36–2.39; seed 002 §2.3.2): NONE, ONE (a tangent or one crossing) or TWO points, ordered by s; a segment inside the disc has none. Radius 0 is a point.
sccd_intersection2 sccd_intersect_segment_circle2(sccd_v2 a, sccd_v2 b, sccd_circle c);
/// Circles a and b (seed 002 §2.4.1): NONE, ONE (tangent, inside or outside), TWO (p[0] left of the line from a.c to b.c, p[1] right) or OVERLAP (the same circle, no points).
sccd_intersection2 sccd_intersect_circle_circle2(sccd_circle a, sccd_circle b);
/// True when p lies in the oriented rectangle b, boundary included.
bool sccd_point_in_box2(sccd_box2 b, sccd_v2 p);
/// True when p lies in the convex quadrilateral with corners c[0..3] in order, either winding, boundary included (seed 000 §2.9.3, eq 2.40). A zero-area quad is the union of its edges.
bool sccd_point_in_quad2(const sccd_v2 c[4], sccd_v2 p);

#ifdef __cplusplus
}
#endif

#endif
