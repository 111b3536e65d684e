/* Random TOI test cases (2D and 3D) shared by the TOI and pipeline tests:
 * the case, its distance as a function of time and its plain speed bound. */
#ifndef SCCD_TOI_CASES_H
#define SCCD_TOI_CASES_H

#include "shape_oracle.h"
#include "toi_reference.h"

/// A 2D case: shapes, motions, target, tolerance and the plain Lipschitz bound of the distance.
typedef struct toi_case2 { sccd_shape2 a, b; sccd_motion2 ma, mb; double target, tol, lip; } toi_case2;
/// A 3D case, as toi_case2.
typedef struct toi_case3 { sccd_shape3 a, b; sccd_motion3 ma, mb; double target, tol, lip; } toi_case3;

/// A random 2D case: any shapes, centres inside or outside, spins up to 4π, both bodies moving.
toi_case2 sccd_rng_toi_case2(sccd_rng *g);
/// A random 3D case, as sccd_rng_toi_case2.
toi_case3 sccd_rng_toi_case3(sccd_rng *g);
/// L = |dpA − dpB| + |θA|·ρA + |θB|·ρB, ρ from the shapes' own vertex lists.
double sccd_toi_case2_lipschitz(const toi_case2 *c);
/// L for a 3D case.
double sccd_toi_case3_lipschitz(const toi_case3 *c);
/// Distance of a toi_case2 at t (not clamped at touching; see toi_cases.c). ctx is a toi_case2.
double sccd_toi_case2_distance(const void *ctx, double t);
/// Distance of a toi_case3 at t. ctx is a toi_case3.
double sccd_toi_case3_distance(const void *ctx, double t);

#endif
