/* sectorccd — support functions of the convex shapes.
 *
 * A shape is split, as Box2D does, into a core (a point set whose convex hull
 * is the unrounded shape: a circle's centre, a capsule's segment, a box's
 * corners, a polygon's vertices) and a rounding radius r ≥ 0; the shape is the
 * core's hull grown by r. GJK works on the cores and adds the radii after. */
#ifndef SECTORCCD_SUPPORT_H
#define SECTORCCD_SUPPORT_H

#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most core points of any shape (a 3D box's eight corners; SCCD_POLY_MAX for polygons).
#define SCCD_PROXY_MAX 8

/// A 2D shape as core points v[0..n) (world or any chosen frame) and a rounding radius r ≥ 0.
typedef struct sccd_proxy2 { sccd_v2 v[SCCD_PROXY_MAX]; int n; sccd_real r; } sccd_proxy2;
/// A 3D shape as core points v[0..n) and a rounding radius r ≥ 0.
typedef struct sccd_proxy3 { sccd_v3 v[SCCD_PROXY_MAX]; int n; sccd_real r; } sccd_proxy3;

/// The core of shape s (body coordinates) placed by xf. Invalid input: one point at the origin, r = 0.
sccd_proxy2 sccd_proxy2_make(const sccd_shape2 *s, sccd_xf2 xf);
/// The core of shape s (body coordinates) placed by xf. Invalid input: one point at the origin, r = 0.
sccd_proxy3 sccd_proxy3_make(const sccd_shape3 *s, sccd_xf3 xf);
/// Index of the core point farthest along d (any length; the first of equals).
int sccd_proxy2_support(const sccd_proxy2 *p, sccd_v2 d);
/// Index of the core point farthest along d (any length; the first of equals).
int sccd_proxy3_support(const sccd_proxy3 *p, sccd_v3 d);
/// Support value h(d) = max over the rounded shape of x·d (d any length, h(0) = 0).
sccd_real sccd_proxy2_support_value(const sccd_proxy2 *p, sccd_v2 d);
/// Support value h(d) = max over the rounded shape of x·d (d any length, h(0) = 0).
sccd_real sccd_proxy3_support_value(const sccd_proxy3 *p, sccd_v3 d);

/// The point of shape s placed by xf farthest along d, radius included (zero d: the fallback direction). Invalid input: the origin.
sccd_v2 sccd_shape2_support(const sccd_shape2 *s, sccd_xf2 xf, sccd_v2 d);
/// The point of shape s placed by xf farthest along d, radius included (zero d: the fallback direction). Invalid input: the origin.
sccd_v3 sccd_shape3_support(const sccd_shape3 *s, sccd_xf3 xf, sccd_v3 d);
/// Largest distance of shape s from point p, both in body coordinates (the radius of the motion bound). Invalid input: +INFINITY.
sccd_real sccd_shape2_farthest(const sccd_shape2 *s, sccd_v2 p);
/// Half the thickness of shape s: how deep it can sink into anything before its middle is reached (radius; a box's smaller half size; a polygon's inradius about its vertices' centre plus its rounding). Invalid input: 0.
sccd_real sccd_shape2_half_thickness(const sccd_shape2 *s);
/// Half the thickness of shape s (3D): how deep it can sink into anything before its middle is reached (a ball's or capsule's radius, a box's smallest half size). Invalid input: 0.
sccd_real sccd_shape3_half_thickness(const sccd_shape3 *s);
/// Largest distance of shape s from point p, both in body coordinates. Invalid input: +INFINITY.
sccd_real sccd_shape3_farthest(const sccd_shape3 *s, sccd_v3 p);
/// The smallest AABB of shape s placed by xf. Invalid input: the empty box at xf.p (or the origin).
sccd_aabb2 sccd_shape2_aabb(const sccd_shape2 *s, sccd_xf2 xf);
/// The smallest AABB of shape s placed by xf. Invalid input: the empty box at xf.p (or the origin).
sccd_aabb3 sccd_shape3_aabb(const sccd_shape3 *s, sccd_xf3 xf);

#ifdef __cplusplus
}
#endif

#endif
