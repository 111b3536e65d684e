/* Private helpers shared by the catalogue sources (catalogue_cast.c,
 * catalogue.c): the cast cores on a parameter interval
 * [0, tmax], and the frames of cylinders and cones. */
#ifndef SCCD_CATALOGUE_INTERNAL_H
#define SCCD_CATALOGUE_INTERNAL_H

#include "sectorccd/catalogue.h"
#include "sectorccd/geometry.h"
#include "tolerance.h"

/// Largest absolute coordinate of a triangle's corners.
static inline sccd_real sccd_cat_tri_mag(sccd_triangle t)
{
    return sccd_max(sccd_mag3(t.a), sccd_max(sccd_mag3(t.b), sccd_mag3(t.c)));
}

/// The "no hit" result (all fields zero).
static inline sccd_cast3 sccd_cat_miss(void) { return (sccd_cast3){0}; }

/// An axis segment a–b as unit direction u (SCCD_FALLBACK_V3 when a = b) and length h.
typedef struct sccd_cat_axis { sccd_v3 a, u; sccd_real h; } sccd_cat_axis;

/// The axis from a to b.
static inline sccd_cat_axis sccd_cat_axis_make(sccd_v3 a, sccd_v3 b)
{
    sccd_v3 d = sccd_v3_sub(b, a);
    return (sccd_cat_axis){a, sccd_v3_normalize(d), sccd_v3_len(d)};
}

/// Coordinates of p about an axis: *z along u from a, and the radial vector (returned).
static inline sccd_v3 sccd_cat_axis_split(sccd_cat_axis ax, sccd_v3 p, sccd_real *z)
{
    sccd_v3 w = sccd_v3_sub(p, ax.a);
    *z = sccd_v3_dot(w, ax.u);
    return sccd_v3_mad(w, -*z, ax.u);
}

/// Corner i (0: a, 1: b, 2: c) of t.
static inline sccd_v3 sccd_cat_tri_corner(sccd_triangle t, int i) { return i == 0 ? t.a : (i == 1 ? t.b : t.c); }

/// Barycentrics (*u of b, *v of c) of the point at parameter s on edge i (corner i to corner i + 1 mod 3).
static inline void sccd_cat_edge_barycentric(int i, sccd_real s, sccd_real *u, sccd_real *v)
{
    *u = i == 0 ? s : (i == 1 ? 1.0 - s : 0.0);
    *v = i == 0 ? 0.0 : (i == 1 ? s : 1.0 - s);
}

/// Barycentrics (u of b, v of c) of the projection of p on the plane of non-degenerate triangle t.
void sccd_cat_barycentric(sccd_v3 p, sccd_triangle t, sccd_real *u, sccd_real *v);
/// True when triangle t has (numerically) zero area.
bool sccd_cat_tri_degenerate(sccd_triangle t);

/// First hit of o + t·d, t in [0, tmax], on the triangle (inputs valid).
sccd_cast3 sccd_cat_cast_triangle(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_triangle tri);
/// First hit of o + t·d, t in [0, tmax], on the solid cylinder (inputs valid).
sccd_cast3 sccd_cat_cast_cylinder(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_cylinder c);

#endif
