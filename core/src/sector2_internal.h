/* Private to sector2.c and sweep2.c: the 2D sector test without the public
 * entry's validation, for callers that validated their input once. */
#ifndef SECTORCCD_SECTOR2_INTERNAL_H
#define SECTORCCD_SECTOR2_INTERNAL_H

#include "sectorccd/sector2.h"

/* Whether the convex hull of the n points v (1..SCCD_SECTOR2_CONVEX_MAX,
 * finite), grown by rho ≥ 0, meets the prepared sector p (as
 * sccd_sector2_prepared_vs_convex; false when p is not prepared). convex: v
 * is already a convex polygon in counter-clockwise order (or one or two
 * points), so no hull is built. */
bool sccd_sector2_meets_points(const sccd_sector2_prepared *p, const sccd_v2 *v, int n, sccd_real rho, bool convex);

/* sccd_sector2_prepare of a sector known to be valid (sccd_is_valid_sector2), without the check. */
void sccd_sector2_prepare_unchecked(sccd_sector2_prepared *out, const sccd_sector2 *s);

/* sccd_sector2_aabb of a prepared (ready) sector. */
sccd_aabb2 sccd_sector2_prepared_aabb(const sccd_sector2_prepared *p);

#endif
