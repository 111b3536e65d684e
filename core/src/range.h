/* Private: the range of the sector tests' fast paths. Their early-outs
 * compare squared distances with squared reaches, and past them the 3D
 * polytope tests take products of three coordinates. With every size (a
 * radius, a half size, a segment's span, a polygon's or triangle's extent;
 * a sector's R and slab bounds) at most SCCD_RANGE_MAX, a reach's square
 * is finite, so a distance that overflows is beyond it (a miss, as it
 * should be), and a shape that gets past the early-outs lies within a few
 * times SCCD_RANGE_MAX of the pivot, where those products stay finite
 * (SCCD_RANGE_MAX is public, in base.h). A sector larger is refused (its
 * check fails). A shape larger is tested in a copy of the scene, sector
 * and shape, scaled by a power of 2 (sccd_range_factor): exactly, as a
 * power of 2 scales every number exactly (only those below 1e-150 of the
 * largest may lose bits, far below the tolerance, EPS times the scene),
 * and the tests are the same at any scale. Unscaled, the squares of a ball of radius 1e155 1e300 off a
 * sector overflowed to ∞ on both sides, which read as a hit. */
#ifndef SCCD_RANGE_H
#define SCCD_RANGE_H

#include <math.h>

#include "sectorccd/base.h"

/* The power of 2 that brings largest (finite, above SCCD_RANGE_MAX) to
 * between 2^166 and 2^167, near 1e50: inside the range with room for the
 * offsets between the scene's points. */
static inline sccd_real sccd_range_factor(sccd_real largest) { return ldexp(1.0, 166 - ilogb(largest)); }

/* A radius' check and range: from 0 to SCCD_RANGE_MAX (NaN fails). */
static inline bool sccd_radius_in_range(sccd_real r) { return (r >= 0.0) & (r <= SCCD_RANGE_MAX); }

#endif
