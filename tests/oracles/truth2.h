/* Ground truth for the 2D sector and sweep code (docs/DESIGN.md "Tests,
 * oracles and benchmarks"), written independently of core/src/sector2.c and
 * sweep2.c: used by the tests and by the evaluation benchmarks.
 *
 * - Exact swept-point test for a pure rotation: the circle of p about the
 *   centre meets the shape in arcs, computed in closed form; p is swept iff
 *   an arc meets the range of angles the body turns through.
 * - Closed-form distances from a point to each 2D shape and to a sector.
 * - A certified sector–shape decision by branch and bound over the sector's
 *   (ρ, φ) parameter domain.
 * - Sampling of shape points (interior, boundary, vertices) and of points of a
 *   true sweep (with translation). */
#ifndef SCCD_TRUTH2_H
#define SCCD_TRUTH2_H

#include "test_util.h"

/// Exact: world point p is covered by shape (body coordinates) at some t in [0, 1] of motion m, ignoring m.dp (pure rotation about the centre).
bool sccd_truth2_swept(const sccd_shape2 *shape, sccd_motion2 m, sccd_v2 p);

/// Distance from world point p to shape (shape in world coordinates); 0 inside.
sccd_real sccd_truth2_distance(const sccd_shape2 *shape, sccd_v2 p);

/// Distance from p to sector s (polar form: in the angle range radial, else the nearer radial edge); 0 inside.
sccd_real sccd_truth2_sector_distance(const sccd_sector2 *s, sccd_v2 p);

/// Verdict of the branch and bound.
typedef enum sccd_truth2_verdict { SCCD_TRUTH2_SEPARATED, SCCD_TRUTH2_OVERLAP, SCCD_TRUTH2_AMBIGUOUS } sccd_truth2_verdict;

/// A 1-Lipschitz distance function to some set.
typedef sccd_real sccd_truth2_dist_fn(const void *ctx, sccd_v2 p);

/// Branch and bound over s's (ρ, φ) domain: OVERLAP once a point of s has f ≤ tol_in, SEPARATED once every cell's lower bound exceeds tol_out, AMBIGUOUS after max_nodes cells.
sccd_truth2_verdict sccd_truth2_sector_bnb(const sccd_sector2 *s, sccd_truth2_dist_fn *f, const void *ctx,
                                           sccd_real tol_in, sccd_real tol_out, int max_nodes);

/// A random point of shape (its own coordinates): vertices, boundary points and interior points, each often.
sccd_v2 sccd_truth2_sample_shape(sccd_rng *g, const sccd_shape2 *shape);

/// A random point of the true sweep of shape (body coordinates) under m: a shape point at a random t (t = 0 and 1 included), in world coordinates.
sccd_v2 sccd_truth2_sample_sweep(sccd_rng *g, const sccd_shape2 *shape, sccd_motion2 m);

/// A random shape of the given type about centre (own coordinates), size up to size: zero sizes, thin shapes and rounded polygons (3–8 vertices, hull of random points) included.
sccd_shape2 sccd_truth2_random_shape(sccd_rng *g, sccd_shape_type type, sccd_v2 centre, sccd_real size);

/// The shape's core points (circle: centre; capsule: ends; box: corners; polygon: vertices) into v (≥ SCCD_POLY_MAX), its rounding radius into *radius; returns the count.
int sccd_truth2_core(const sccd_shape2 *shape, sccd_v2 *v, sccd_real *radius);

#endif
