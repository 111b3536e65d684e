/* Brute-force oracles for the geometry tests: segment–segment distance by
 * nested golden-section search of the convex function |P(s) − Q(t)| (point–segment: one level), and a
 * segment against a solid oriented box by slab clipping. Written without the
 * library's geometry functions so that they check them independently. */
#ifndef SCCD_GEOM_ORACLE_H
#define SCCD_GEOM_ORACLE_H

#include "sectorccd/sectorccd.h"

/// Distance between segments p1–q1 and p2–q2 by nested golden-section search; never below the true distance by more than rounding, above it by at most ~1e-10·(segment lengths).
double sccd_oracle_segment_distance2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2);
/// 3D version of sccd_oracle_segment_distance2.
double sccd_oracle_segment_distance3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2);
/// Distance from p to segment a–b by golden-section search (same guarantee).
double sccd_oracle_point_segment_distance2(sccd_v2 p, sccd_v2 a, sccd_v2 b);
/// 3D version of sccd_oracle_point_segment_distance2.
double sccd_oracle_point_segment_distance3(sccd_v3 p, sccd_v3 a, sccd_v3 b);
/// True when segment p–q (in box coordinates) meets the solid box |x_i| ≤ h[i], i < dim (slab clipping).
bool sccd_oracle_segment_meets_box(const double *p, const double *q, const double *h, int dim);

#endif
