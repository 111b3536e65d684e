/* References for the TOI tests, exact by proof or by brute force, written
 * for any distance function of time (2D or 3D). */
#ifndef SCCD_TOI_REFERENCE_H
#define SCCD_TOI_REFERENCE_H

#include <stdbool.h>

/// The distance of a test case's two bodies at time t (may be slightly negative when rounded parts overlap).
typedef double sccd_distance_at_fn(const void *ctx, double t);

/// Lipschitz-certified first time in [0, 1] the distance is ≤ x (within 1e-12): from a time where it is d, no time
/// before (d − x)/lip later can reach x, so the search skips exactly those intervals. Returns 2 when none, −1 when
/// undecided after a million steps; *steps gets the number of distance evaluations.
double sccd_ref_first_contact(sccd_distance_at_fn *f, const void *ctx, double lip, double x, int *steps);

/// The literal grid: the distance at samples + 1 equally spaced times, then bisection between the last sample above x
/// and the first at or below it; an upper bound of the first time the distance is ≤ x (2 when no sample is).
double sccd_ref_grid_contact(sccd_distance_at_fn *f, const void *ctx, double x, int samples);

/// What a TOI reported, for sccd_ref_check_toi.
typedef struct sccd_toi_report { int state; double t; } sccd_toi_report;

/// Checks a TOI result (state: a sccd_toi_state) against the certified search: NULL when it keeps every guarantee
/// (separated: no distance ≤ target − tol/2 on [0, 1]; overlapped: touching at 0; hit: distance ≤ target + tol at t;
/// hit or failed: t not later than the first distance ≤ target − tol/2), else the broken one. *strict_late is set when
/// t is later than the first distance ≤ target (+1e-9 in t); *undecided counts undecided searches.
const char *sccd_ref_check_toi(sccd_distance_at_fn *f, const void *ctx, double lip, double target, double tol,
                               sccd_toi_report r, bool *strict_late, int *undecided);

/// The value at quantile q in [0, 1] of n integers (sorts v in place).
int sccd_quantile_int(int *v, int n, double q);

#endif
