/* sectorccd — plain shape structs (world or body coordinates, by value) and
 * their validity checks. The field names are public API. */
#ifndef SECTORCCD_SHAPES_H
#define SECTORCCD_SHAPES_H

#include "sectorccd/math_functions.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most vertices a convex polygon may have.
#define SCCD_POLY_MAX 8

/// Circle: centre c, radius r ≥ 0.
typedef struct sccd_circle { sccd_v2 c; sccd_real r; } sccd_circle;
/// 2D capsule: segment a–b thickened by radius r ≥ 0.
typedef struct sccd_capsule2 { sccd_v2 a, b; sccd_real r; } sccd_capsule2;
/// Oriented rectangle: centre c, rotation q, half extents h ≥ 0.
typedef struct sccd_box2 { sccd_v2 c; sccd_rot2 q; sccd_v2 h; } sccd_box2;
/// Convex polygon, n vertices counter-clockwise, rounded by radius r ≥ 0.
typedef struct sccd_poly2 { int n; sccd_v2 v[SCCD_POLY_MAX]; sccd_real r; } sccd_poly2;
/// 2D axis-aligned box lo ≤ hi.
typedef struct sccd_aabb2 { sccd_v2 lo, hi; } sccd_aabb2;

/// Sphere: centre c, radius r ≥ 0.
typedef struct sccd_sphere { sccd_v3 c; sccd_real r; } sccd_sphere;
/// 3D capsule: segment a–b thickened by radius r ≥ 0.
typedef struct sccd_capsule3 { sccd_v3 a, b; sccd_real r; } sccd_capsule3;
/// Oriented box: centre c, rotation q, half extents h ≥ 0.
typedef struct sccd_box3 { sccd_v3 c; sccd_quat q; sccd_v3 h; } sccd_box3;
/// 3D axis-aligned box lo ≤ hi.
typedef struct sccd_aabb3 { sccd_v3 lo, hi; } sccd_aabb3;
/// Triangle a, b, c (either winding).
typedef struct sccd_triangle { sccd_v3 a, b, c; } sccd_triangle;
/// Solid cylinder: axis segment a–b, radius r ≥ 0 (flat caps).
typedef struct sccd_cylinder { sccd_v3 a, b; sccd_real r; } sccd_cylinder;
/// Solid cone: apex, centre of the base disc, base radius r ≥ 0.
typedef struct sccd_cone { sccd_v3 apex, base; sccd_real r; } sccd_cone;
/// Ray: origin o, direction d (not necessarily unit); points o + t·d, t ≥ 0.
typedef struct sccd_ray3 { sccd_v3 o, d; } sccd_ray3;
/// Segment a–b; points a + t·(b − a), t in [0, 1].
typedef struct sccd_segment3 { sccd_v3 a, b; } sccd_segment3;
/// Plane n·x = d with unit normal n; n·x > d is the outside.
typedef struct sccd_plane { sccd_v3 n; sccd_real d; } sccd_plane;

/// Shape kinds of sccd_shape2 / sccd_shape3 (3D uses CIRCLE for a sphere).
typedef enum sccd_shape_type { SCCD_SHAPE_CIRCLE, SCCD_SHAPE_CAPSULE, SCCD_SHAPE_BOX, SCCD_SHAPE_POLY } sccd_shape_type;

/// A 2D convex shape in body coordinates, tagged by type.
typedef struct sccd_shape2 {
    sccd_shape_type type;
    union { sccd_circle circle; sccd_capsule2 capsule; sccd_box2 box; sccd_poly2 poly; };
} sccd_shape2;

/// A 3D convex shape in body coordinates, tagged by type (CIRCLE = sphere).
typedef struct sccd_shape3 {
    sccd_shape_type type;
    union { sccd_sphere sphere; sccd_capsule3 capsule; sccd_box3 box; };
} sccd_shape3;

/// Finite centre, finite radius ≥ 0.
bool sccd_is_valid_circle(sccd_circle s);
/// Finite end points, finite radius ≥ 0.
bool sccd_is_valid_capsule2(sccd_capsule2 s);
/// Finite centre, unit rotation, finite half extents ≥ 0.
bool sccd_is_valid_box2(sccd_box2 s);
/// 1 ≤ n ≤ SCCD_POLY_MAX finite vertices, convex and counter-clockwise up to rounding (collinear, repeated allowed), r ≥ 0.
bool sccd_is_valid_poly2(const sccd_poly2 *s);
/// Finite centre, finite radius ≥ 0.
bool sccd_is_valid_sphere(sccd_sphere s);
/// Finite end points, finite radius ≥ 0.
bool sccd_is_valid_capsule3(sccd_capsule3 s);
/// Finite centre, unit quaternion, finite half extents ≥ 0.
bool sccd_is_valid_box3(sccd_box3 s);
/// Finite corners (degenerate triangles are valid: they are segments or points).
bool sccd_is_valid_triangle(sccd_triangle s);
/// Finite end points, finite radius ≥ 0.
bool sccd_is_valid_cylinder(sccd_cylinder s);
/// Finite apex and base, finite radius ≥ 0.
bool sccd_is_valid_cone(sccd_cone s);
/// Finite origin and direction (a zero direction is valid: the ray is a point).
bool sccd_is_valid_ray3(sccd_ray3 s);
/// Finite end points.
bool sccd_is_valid_segment3(sccd_segment3 s);
/// Unit normal (within 1e-6), finite offset.
bool sccd_is_valid_plane(sccd_plane s);
/// The member selected by type is valid.
bool sccd_is_valid_shape2(const sccd_shape2 *s);
/// The member selected by type is valid (POLY is not a 3D shape).
bool sccd_is_valid_shape3(const sccd_shape3 *s);

/// The corners of box b, counter-clockwise from (−h.x, −h.y) in box coordinates.
void sccd_box2_corners(sccd_box2 b, sccd_v2 out[4]);
/// Whether p is an unrounded rectangle along the axes whose corners are exactly c ± h: then *out is that box (identity rotation). NULL or other polygons: false.
bool sccd_poly2_as_box(const sccd_poly2 *p, sccd_box2 *out);
/// The corners of box b; corner i has local signs (bit0: x, bit1: y, bit2: z; set = +h).
void sccd_box3_corners(sccd_box3 b, sccd_v3 out[8]);
/// The smallest AABB holding box b.
sccd_aabb2 sccd_box2_aabb(sccd_box2 b);
/// The smallest AABB holding box b.
sccd_aabb3 sccd_box3_aabb(sccd_box3 b);
/// The smallest AABB holding a and b.
sccd_aabb2 sccd_aabb2_union(sccd_aabb2 a, sccd_aabb2 b);
/// The smallest AABB holding a and b.
sccd_aabb3 sccd_aabb3_union(sccd_aabb3 a, sccd_aabb3 b);

/* The boxes' checks run on the adapters' paths once per body or geom and
 * step, so inline and without a branch: x − x is 0 for every finite x and
 * NaN for ±∞ and NaN, so one sum is 0 exactly when every bound is finite
 * (and a NaN bound also fails its comparison). Inline, they compile with
 * the caller's flags: under -ffinite-math-only (-ffast-math), like any
 * finiteness test there, they cannot see ±∞ or NaN; the library's own
 * checks compile without it. */

/// Finite corners with lo ≤ hi.
static inline bool sccd_is_valid_aabb2(sccd_aabb2 s)
{
    sccd_real zero = (s.lo.x - s.lo.x) + (s.lo.y - s.lo.y) + (s.hi.x - s.hi.x) + (s.hi.y - s.hi.y);
    return (zero == 0.0) & (s.lo.x <= s.hi.x) & (s.lo.y <= s.hi.y);
}

/// Finite corners with lo ≤ hi.
static inline bool sccd_is_valid_aabb3(sccd_aabb3 s)
{
    sccd_real zero = (s.lo.x - s.lo.x) + (s.lo.y - s.lo.y) + (s.lo.z - s.lo.z) + (s.hi.x - s.hi.x) + (s.hi.y - s.hi.y) +
                     (s.hi.z - s.hi.z);
    return (zero == 0.0) & (s.lo.x <= s.hi.x) & (s.lo.y <= s.hi.y) & (s.lo.z <= s.hi.z);
}

#ifdef __cplusplus
}
#endif

#endif
