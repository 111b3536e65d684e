/* Oracles for the catalogue tests, written independently of
 * core/src/catalogue*.c: point distances to solids in closed form, shape
 * parameterisations with Lipschitz constants for sccd_bnb, random shapes,
 * and surface points with an outward normal from the normal cone (for
 * near-touching pairs built at a known distance: for a convex set X, a point
 * q of X and n in X's normal cone at q, X lies in n·(x − q) ≤ 0, so
 * q + s·n is at distance exactly s from X). */
#ifndef SCCD_CATALOGUE_ORACLE_H
#define SCCD_CATALOGUE_ORACLE_H

#include "test_util.h"
#include "bnb.h"

/// Distance from p to a solid sphere (0 inside).
double orc_dist_sphere(sccd_v3 p, sccd_sphere s);
/// Distance from p to an AABB (0 inside).
double orc_dist_aabb(sccd_v3 p, sccd_aabb3 b);
/// Distance from p to an oriented box (0 inside).
double orc_dist_box(sccd_v3 p, sccd_box3 b);
/// Distance from p to a solid cylinder, seed-literal projections on the unnormalised axis (0 inside).
double orc_dist_cylinder(sccd_v3 p, sccd_cylinder c);
/// Distance from p to a capsule (0 inside).
double orc_dist_capsule(sccd_v3 p, sccd_capsule3 c);

/// A point of triangle t from (s, w) in [0, 1]²; lip gets the Lipschitz constants.
sccd_v3 orc_triangle_at(sccd_triangle t, double s, double w);
/// Lipschitz constants of orc_triangle_at in s and w.
void orc_triangle_lip(sccd_triangle t, double lip[2]);
/// A point of the solid cylinder from (s, ρ, φ) in [0, 1]² × [0, 2π].
sccd_v3 orc_cylinder_at(sccd_cylinder c, double s, double rho, double phi);
/// Lipschitz constants of orc_cylinder_at.
void orc_cylinder_lip(sccd_cylinder c, double lip[3]);
/// A point of the solid cone from (s, ρ, φ) in [0, 1]² × [0, 2π].
sccd_v3 orc_cone_at(sccd_cone c, double s, double rho, double phi);
/// Lipschitz constants of orc_cone_at.
void orc_cone_lip(sccd_cone c, double lip[3]);

/// Exact min over x in R^k (k ≤ 3) of |Σ x_i·col[i] − q| subject to g[j]·x ≤ h[j] (m ≤ 6 rows of k
/// numbers in g): every face of the polytope is tried (equality-constrained least squares by the KKT
/// system), the feasible solutions compared; the minimiser x goes to arg (may be NULL).
double orc_qp_min(int k, const sccd_v3 *col, sccd_v3 q, int m, const double *g, const double *h, double *arg);
/// Distance from p to triangle t by orc_qp_min.
double orc_dist_triangle(sccd_v3 p, sccd_triangle t);
/// Distance between segment a–b (ray when ray is true: a + t·(b − a), t ≥ 0) and triangle t by orc_qp_min.
double orc_dist_segment_triangle(sccd_v3 a, sccd_v3 b, bool ray, sccd_triangle t);

/// Largest absolute coordinate of a vector.
double orc_mag(sccd_v3 a);

/// Random triangle with corners in [−s, s]³.
sccd_triangle orc_rand_triangle(sccd_rng *g, double s);
/// Random cylinder near the origin (axis 0.05…6, radius 0.05…3).
sccd_cylinder orc_rand_cylinder(sccd_rng *g);
/// Random cone near the origin.
sccd_cone orc_rand_cone(sccd_rng *g);
/// Random capsule near the origin.
sccd_capsule3 orc_rand_capsule(sccd_rng *g);
/// Random oriented box near the origin.
sccd_box3 orc_rand_box(sccd_rng *g);

/// A surface point q of the solid cylinder with an outward normal n in its normal cone (side, cap, rim).
void orc_surface_cylinder(sccd_rng *g, sccd_cylinder c, sccd_v3 *q, sccd_v3 *n);
/// A surface point q of the solid cone with n in its normal cone (slant, base, rim, apex).
void orc_surface_cone(sccd_rng *g, sccd_cone c, sccd_v3 *q, sccd_v3 *n);
/// A point q of a non-degenerate triangle with n in its normal cone (face, edge, corner).
void orc_surface_triangle(sccd_rng *g, sccd_triangle t, sccd_v3 *q, sccd_v3 *n);
/// A surface point of the capsule with its outward normal.
void orc_surface_capsule(sccd_rng *g, sccd_capsule3 c, sccd_v3 *q, sccd_v3 *n);
/// A surface point of the oriented box with n in its normal cone (face, edge, corner).
void orc_surface_box(sccd_rng *g, sccd_box3 b, sccd_v3 *q, sccd_v3 *n);
/// A unit vector perpendicular to unit n, uniformly at random.
sccd_v3 orc_perp(sccd_rng *g, sccd_v3 n);

#endif
