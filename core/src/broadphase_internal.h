/* Private to the broadphase: the sort, the sweep kernel and the index shared
 * by the 2D and 3D front ends (boxes as three lower and three upper bounds; a
 * 2D index stores z = 0). */
#ifndef SCCD_BROADPHASE_INTERNAL_H
#define SCCD_BROADPHASE_INTERNAL_H

#include "sectorccd/broadphase.h"

/// Stable merge sort of keys by key, tmp of the same length as scratch.
void sccd_bp_sort_keys(sccd_bp_key *keys, sccd_bp_key *tmp, int n);

/// Index of the first key ≥ x in sorted keys (n when none).
int sccd_bp_lower_bound(const sccd_real *sorted, size_t stride, int n, sccd_real x);

/// The entry of box lo/hi with its axes permuted so that axis comes first.
sccd_bp_entry sccd_bp_make_entry(const sccd_real lo[3], const sccd_real hi[3], int axis);

/// Variance of the box centres and widest box per permuted entry axis.
void sccd_bp_spread(const sccd_bp_entry *e, int n, sccd_real var[3], sccd_real extent[3]);

/// Sweep entries sorted by lo0 and call fn(min id, max id) for every pair of
/// touching boxes, per cell of a grid over entry axes 1 and 2 sized from the boxes (falls back to the plain sweep when
/// a grid would not pay or scratch cannot grow). cells keeps its capacity.
sccd_bp_stats sccd_bp_sweep_cells(const sccd_bp_entry *e, const int *ids, int n, sccd_bp_cells *cells,
                                  sccd_bp_pair_fn *fn, void *context);

/// Free the scratch of sccd_bp_sweep_cells.
void sccd_bp_cells_free(sccd_bp_cells *cells);

/// The lowest lo0 a box may have and still reach x: x − extent, widened by a
/// few ulps so rounding of hi0 − lo0 can never exclude a touching box.
sccd_real sccd_bp_window_low(sccd_real x, sccd_real extent);

void sccd_bpi_init(sccd_bp_index *bp, int dim);
void sccd_bpi_destroy(sccd_bp_index *bp);
sccd_bp_status sccd_bpi_create(sccd_bp_index *bp, const sccd_real lo[3], const sccd_real hi[3], void *user_data,
                               int *proxy_id);
sccd_bp_status sccd_bpi_move(sccd_bp_index *bp, int proxy_id, const sccd_real lo[3], const sccd_real hi[3]);
sccd_bp_status sccd_bpi_remove(sccd_bp_index *bp, int proxy_id);
/// True for the id of a live proxy (SCCD_ASSERT otherwise).
bool sccd_bpi_check_id(const sccd_bp_index *bp, int proxy_id);
void sccd_bpi_each(sccd_bp_index *bp, sccd_bp_proxy_fn *fn, void *context);
sccd_bp_stats sccd_bpi_update_pairs(sccd_bp_index *bp, sccd_bp_pair_fn *fn, void *context);
const sccd_bp_pair *sccd_bpi_pairs(sccd_bp_index *bp, int *count, sccd_bp_stats *stats);
sccd_bp_stats sccd_bpi_query(sccd_bp_index *bp, const sccd_real lo[3], const sccd_real hi[3], sccd_bp_query_fn *fn,
                             void *context);
sccd_bp_stats sccd_bpi_ray(sccd_bp_index *bp, const sccd_real a[3], const sccd_real b[3], sccd_bp_ray_fn *fn,
                           void *context);

#endif
