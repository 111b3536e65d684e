/* sectorccd — the catalogue of 3D collision and distance tests of seed 004
 * ("衝突判定" and "距離計算"): rays and segments against triangles, spheres,
 * boxes, cylinders and capsules; overlap tests of spheres, points, boxes,
 * cylinders, capsules, cones, triangles and planes; point, line, segment, ray
 * and triangle distances.
 *
 * Where the rest of the list lives: point–segment and segment–segment closest
 * points in sectorccd/geometry.h; sphere–sphere (sccd_sphere_vs_sphere) and
 * AABB–AABB (sccd_aabb3_vs_aabb3) in sectorccd/discrete.h.
 *
 * Names. Overlap tests are sccd_<a>_vs_<b> and return true when the two sets
 * share a point (touching counts); the lower-ranked shape comes first in the
 * order sphere < capsule3 < cylinder < cone < aabb3 < box3 < triangle < plane
 * < segment < ray < point (solids first, thinner sets later). Casts are
 * sccd_raycast_<shape> and sccd_segment_vs_<shape> and return an sccd_cast3.
 * Distances are sccd_distance_<a>_<b>, closest points sccd_closest_point_<shape>.
 *
 * Exactness. Every overlap test is exact up to a tolerance of SCCD_EPS (1e-9)
 * times the scene size (largest coordinate magnitude plus the shapes' sizes,
 * the rule of discrete.h): a pair is reported touching when its distance is
 * at most that tolerance, so rounding errors below it cannot turn a contact
 * into a miss. Casts are against the shape grown by the same tolerance, so a
 * grazing ray counts as a hit.
 *
 * Casts. A ray {o, d} covers o + t·d, t ≥ 0 (t in units of |d|, so the
 * distance travelled is t·|d|, seed 004 "距離計算 半直線と三角形"); a segment
 * {a, b} covers a + t·(b − a), t in [0, 1]. The result is the FIRST point of the
 * ray in the solid: t, the point, and the unit outward normal of the surface
 * there. A ray starting inside or on the surface of a solid hits at t = 0 with
 * normal −d/|d| (SCCD_FALLBACK_V3 when d = 0). A zero direction or zero-length
 * segment is a point: it hits (t = 0) exactly when it lies in the shape.
 *
 * Degenerate shapes. A zero radius is a segment (capsule, cylinder) or a point
 * (sphere). A cylinder or cone whose axis has zero length takes the axis
 * SCCD_FALLBACK_V3 (+x): it is the disc of radius r perpendicular to +x. A
 * degenerate (collinear or point) triangle is the segment between its two
 * farthest vertices (a point when all three coincide).
 *
 * Invalid input (NaN, infinity, negative radius, non-unit plane normal, box
 * rotation not unit): SCCD_ASSERT fires, then overlap tests return false,
 * casts return "no hit" (all fields zero), distances return +INFINITY and
 * closest points the zero vector. Never NaN. Coordinates and sizes are
 * meant to stay below ~1e150 (squares of larger ones overflow). */
#ifndef SECTORCCD_CATALOGUE_H
#define SECTORCCD_CATALOGUE_H

#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of a ray or segment cast: hit, parameter t (ray: ≥ 0 in units of |d|; segment: in [0, 1]), the hit point, the unit outward normal there, and for triangles the barycentrics u, v of the point ((1 − u − v)·a + u·b + v·c; 0 for other shapes).
typedef struct sccd_cast3 {
    bool hit;
    sccd_real t;
    sccd_v3 point, normal;
    sccd_real u, v;
} sccd_cast3;

/* ---- casts: first hit of a ray or segment ---- */

/// First hit of a ray on triangle tri by Möller–Trumbore / Cramer's rule (seed 004 "半直線と三角形"); normal ±(b − a)×(c − a) unit, facing the ray; a ray in the triangle's plane hits where it enters the triangle (normal +(b − a)×(c − a) unit).
sccd_cast3 sccd_raycast_triangle(sccd_ray3 ray, sccd_triangle tri);
/// First hit of segment seg on triangle tri, t in [0, 1] (seed 004 "線分と三角形", Möller–Trumbore / Cramer's rule).
sccd_cast3 sccd_segment_vs_triangle(sccd_segment3 seg, sccd_triangle tri);
/// First hit of a ray on solid sphere s (seed 004 "半直線と球").
sccd_cast3 sccd_raycast_sphere(sccd_ray3 ray, sccd_sphere s);
/// First hit of segment seg on solid sphere s, t in [0, 1] (seed 004 "線分と球").
sccd_cast3 sccd_segment_vs_sphere(sccd_segment3 seg, sccd_sphere s);
/// First hit of a ray on AABB box by the slab method (seed 004 "半直線と箱").
sccd_cast3 sccd_raycast_aabb3(sccd_ray3 ray, sccd_aabb3 box);
/// First hit of segment seg on AABB box by the slab method, t in [0, 1].
sccd_cast3 sccd_segment_vs_aabb3(sccd_segment3 seg, sccd_aabb3 box);
/// First hit of a ray on oriented box (slab method in the box's frame; seed 004 "半直線と箱").
sccd_cast3 sccd_raycast_box3(sccd_ray3 ray, sccd_box3 box);
/// First hit of segment seg on oriented box, t in [0, 1].
sccd_cast3 sccd_segment_vs_box3(sccd_segment3 seg, sccd_box3 box);
/// First hit of a ray on solid cylinder c, caps included (seed 004 "円柱と半直線").
sccd_cast3 sccd_raycast_cylinder(sccd_ray3 ray, sccd_cylinder c);
/// First hit of segment seg on solid cylinder c, t in [0, 1] (seed 004 "円柱と線分").
sccd_cast3 sccd_segment_vs_cylinder(sccd_segment3 seg, sccd_cylinder c);
/// First hit of a ray on capsule c: the earliest hit of its cylinder and two end spheres (seed 004 "球の軌跡と半直線").
sccd_cast3 sccd_raycast_capsule3(sccd_ray3 ray, sccd_capsule3 c);
/// First hit of segment seg on capsule c, t in [0, 1].
sccd_cast3 sccd_segment_vs_capsule3(sccd_segment3 seg, sccd_capsule3 c);

/* ---- overlap tests (touching counts) ---- */

/// Point p in solid sphere s (seed 004 "点と球").
bool sccd_sphere_vs_point(sccd_sphere s, sccd_v3 p);
/// Point p in AABB box (seed 004 "点と AABB").
bool sccd_aabb3_vs_point(sccd_aabb3 box, sccd_v3 p);
/// Point p in solid cylinder c (seed 004 "円柱と点").
bool sccd_cylinder_vs_point(sccd_cylinder c, sccd_v3 p);
/// Solid sphere s meets triangle tri (seed 004 "球と三角形", with the true closest point).
bool sccd_sphere_vs_triangle(sccd_sphere s, sccd_triangle tri);
/// Solid sphere s meets capsule c (seed 004 "球の軌跡と球").
bool sccd_sphere_vs_capsule3(sccd_sphere s, sccd_capsule3 c);
/// Solid sphere s meets solid cylinder c (seed 004 "円柱と球").
bool sccd_sphere_vs_cylinder(sccd_sphere s, sccd_cylinder c);
/// Solid sphere s meets solid cone c (seed 004 "球と円錐", base disc included).
bool sccd_sphere_vs_cone(sccd_sphere s, sccd_cone c);
/// Capsule c meets triangle tri (seed 004 "球の軌跡と三角形").
bool sccd_capsule3_vs_triangle(sccd_capsule3 c, sccd_triangle tri);
/// Solid cylinder c meets triangle tri (seed 004 "円柱と三角形"; exact: edges against the cylinder, then one point of the cylinder's cut by the plane).
bool sccd_cylinder_vs_triangle(sccd_cylinder c, sccd_triangle tri);
/// Triangles a and b meet, touching included (separating axes: the normals, the nine edge-pair cross products, the edges' normals in either plane, and the edges, which also settle coplanar and degenerate pairs).
bool sccd_triangle_vs_triangle(sccd_triangle a, sccd_triangle b);
/// Solid oriented box meets triangle tri (separating axes: the box's three, the triangle's normal and the nine cross products).
bool sccd_box3_vs_triangle(sccd_box3 box, sccd_triangle tri);
/// Solid cylinder c meets the plane surface n·x = d (seed 004 "円柱と平面").
bool sccd_cylinder_vs_plane(sccd_cylinder c, sccd_plane p);

/* ---- distances and closest points ---- */

/// |a − b| (seed 004 "点と点").
sccd_real sccd_distance_point_point(sccd_v3 a, sccd_v3 b);
/// Distance from p to the infinite line through q with direction dir (any length; zero: the point q) (seed 004 "点と直線").
sccd_real sccd_distance_point_line(sccd_v3 p, sccd_v3 q, sccd_v3 dir);
/// Closest point to p on triangle tri; *u, *v (each may be NULL) get its barycentrics (point = (1 − u − v)·a + u·b + v·c).
sccd_v3 sccd_closest_point_triangle(sccd_v3 p, sccd_triangle tri, sccd_real *u, sccd_real *v);
/// True distance from p to triangle tri (seed 004 "点と三角形" gives only the plane distance; this is the distance to the closest point).
sccd_real sccd_distance_point_triangle(sccd_v3 p, sccd_triangle tri);
/// Distance between segment seg and triangle tri; 0 when they meet (seed 004 "線分と三角形").
sccd_real sccd_distance_segment_triangle(sccd_segment3 seg, sccd_triangle tri);
/// Distance between a ray and triangle tri; 0 when they meet (seed 004 "半直線と三角形").
sccd_real sccd_distance_ray_triangle(sccd_ray3 ray, sccd_triangle tri);

#ifdef __cplusplus
}
#endif

#endif
