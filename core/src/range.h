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

/* The smallest scene the 3D capsule and box tests take as it is: one
 * whose every size and offset from the pivot is below it is tested scaled
 * up (sccd_range_factor), as one beyond SCCD_RANGE_MAX is scaled down.
 * Their squares and products underflowed in scenes some 1e-160 across,
 * and 8 % of the capsules and (one-shot) 19 % of the boxes such a scene
 * met at unit scale were missed. */
#define SCCD_RANGE_MIN 1e-100

/* The power of 2 that brings largest (finite, above SCCD_RANGE_MAX or
 * below SCCD_RANGE_MIN) to between 2^166 and 2^167, near 1e50: inside the
 * range with room for the offsets between the scene's points; at most
 * 2^1000 (a double), which brings the least scene, of subnormal numbers,
 * above 2^-74; 1 for 0 (a scene of one point). */
static inline sccd_real sccd_range_factor(sccd_real largest)
{
    int e = 166 - ilogb(largest);
    return largest > 0.0 ? ldexp(1.0, e < 1000 ? e : 1000) : 1.0;
}

/* The power of 2 that brings m (a scene's largest number) into [1, 2)
 * where it lies outside [lo, hi], else 1 (also for 0, ∞ and NaN):
 * working in units of 1/f is exact, and ordinary scenes keep their bits. */
static inline sccd_real sccd_unit_factor(sccd_real m, sccd_real lo, sccd_real hi)
{
    return (m > hi || m < lo) && m > 0.0 && m < INFINITY ? ldexp(1.0, -ilogb(m)) : 1.0;
}

/* Is a scene whose largest number is largest below SCCD_RANGE_MIN (and
 * not a single point)? */
static inline bool sccd_scene_tiny(sccd_real largest) { return (largest < SCCD_RANGE_MIN) & (largest > 0.0); }

/* A radius' check and range: from 0 to SCCD_RANGE_MAX (NaN fails). */
static inline bool sccd_radius_in_range(sccd_real r) { return (r >= 0.0) & (r <= SCCD_RANGE_MAX); }

#endif
