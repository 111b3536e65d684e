/* An independent oracle for 3D sector tests: certified branch-and-bound over
 * the sector's parameter box (ρ, φ, z) with a closed-form point→shape
 * distance, plus the random sectors and shapes the tests draw from. */
#ifndef SCCD_SECTOR3_ORACLE_H
#define SCCD_SECTOR3_ORACLE_H

#include "test_util.h"

/// Verdict of the oracle: separated by more than 1e-8·scale, overlapping (a sector point within 1e-11·scale of the shape), or undecided.
typedef enum sccd_oracle_verdict { SCCD_ORACLE_SEPARATED, SCCD_ORACLE_HIT, SCCD_ORACLE_UNSURE } sccd_oracle_verdict;

/// A point→shape distance (≤ 0 inside).
typedef sccd_real sccd_oracle_dist_fn(const void *shape, sccd_v3 p);

/// Branch-and-bound over the sector's cells: a cell's points are within 0.5·(Δρ + ρmax·Δφ + Δz) of its centre.
sccd_oracle_verdict sccd_oracle_sector3(const sccd_sector3 *s, sccd_oracle_dist_fn *dist, const void *shape, sccd_real scale);

/// Point→shape distances written for the oracle (independent of core/src/sector3.c).
sccd_real sccd_oracle_dist_sphere(const void *sphere, sccd_v3 p);
/// Capsule (sccd_capsule3).
sccd_real sccd_oracle_dist_capsule(const void *capsule, sccd_v3 p);
/// Oriented box (sccd_box3), negative inside.
sccd_real sccd_oracle_dist_box(const void *box, sccd_v3 p);
/// Triangle (sccd_triangle): distance to its closest point.
sccd_real sccd_oracle_dist_triangle(const void *tri, sccd_v3 p);
/// Sector (sccd_sector3), written as wedge/side-rectangle cases.
sccd_real sccd_oracle_dist_sector(const void *sector, sccd_v3 p);

/// A random sector near the origin: half angles 0, tiny, near π/2, near π, π or uniform; r = 0, r = R or between; zlo = zhi sometimes.
sccd_sector3 sccd_oracle_random_sector(sccd_rng *g);
/// A random point near sector s (pivot region half the time).
sccd_v3 sccd_oracle_near(const sccd_sector3 *s, sccd_rng *g);

/// A random triangle with corner a, the others within size of it on each axis: one in ten a segment (two corners the same), one in five a sliver (its third corner 1e-3 to 1e-9 of its edge a–b off that edge's line, as a mesh's thin faces).
sccd_triangle sccd_oracle_random_triangle(sccd_rng *g, sccd_v3 a, sccd_real size);

#endif
