/* Random convex shapes and independent brute-force distance oracles for the
 * distance and TOI tests. The oracles do not use support.c or GJK: they list
 * each shape's vertices themselves (explicit cos/sin, quaternion as a matrix)
 * and take minimum distances over features with geometry.h. */
#ifndef SCCD_SHAPE_ORACLE_H
#define SCCD_SHAPE_ORACLE_H

#include "test_util.h"

/// A random 2D shape (body coordinates) of the given type with size about s; degenerate sizes now and then.
sccd_shape2 sccd_rng_shape2(sccd_rng *g, sccd_shape_type type, double s);
/// A random 3D shape (body coordinates) of the given type (not POLY) with size about s.
sccd_shape3 sccd_rng_shape3(sccd_rng *g, sccd_shape_type type, double s);

/// Brute-force distance of two placed 2D shapes (0 when they overlap): edge–edge segment distances plus containment; two points or segments (circles, capsules) by golden-section search (geom_oracle.h), not the library's segment distance.
double sccd_oracle_distance2(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb);
/// Brute-force distance of two placed 3D shapes (0 when they overlap): features plus a separating-axis overlap test; spheres and capsules by golden-section search (geom_oracle.h).
double sccd_oracle_distance3(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb);
/// Brute-force farthest distance of a 2D shape from point p (body coordinates).
double sccd_oracle_farthest2(const sccd_shape2 *s, sccd_v2 p);
/// Brute-force farthest distance of a 3D shape from point p (body coordinates).
double sccd_oracle_farthest3(const sccd_shape3 *s, sccd_v3 p);

#endif
