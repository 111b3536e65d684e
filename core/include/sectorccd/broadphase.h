/* sectorccd — broadphase: which pairs of objects may touch.
 *
 * Two tiers:
 *  - the seed's sort family as stateless functions over bounding spheres
 *    (seed 001: brute force §2.3, distance from a centre §3.2, x-then-y-then-z
 *    interval sweep §3.3, best axis per object §3.3.2), each counting its pair
 *    tests the way the seed's tables do;
 *  - our index: a caller-owned object (sccd_bp2 / sccd_bp3) holding boxes under
 *    integer proxy ids, with the lower end points on one axis kept sorted
 *    between frames by insertion sort (time coherence), the axis of largest
 *    spread, the sweep run per cell of a coarse grid over the other two axes
 *    (the sorted order splits into sorted cells in one linear pass), and a
 *    full box test before a pair is reported.
 * Touching counts as overlap everywhere (equal end points are reported). */
#ifndef SECTORCCD_BROADPHASE_H
#define SECTORCCD_BROADPHASE_H

#include <stdint.h>
#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Called once per reported pair; a < b are object indices (stateless
/// functions) or proxy ids (the index).
typedef void sccd_bp_pair_fn(int a, int b, void *context);

/// What one broadphase pass did: pair tests made (sphere or box tests, the
/// seed's 判定回数, seed 001 §4.5) and pairs reported.
typedef struct sccd_bp_stats {
    int64_t pair_tests; ///< candidate pairs tested in full
    int64_t pairs;      ///< pairs that passed the test and were reported
} sccd_bp_stats;

/// Brute force (seed 001 §2.3): all n(n−1)/2 sphere pairs; reports spheres that
/// touch or overlap. n ≤ 0 reports nothing. This and the three seed methods
/// below: s NULL with n > 0 or an invalid sphere (NaN, r < 0) → SCCD_ASSERT,
/// nothing reported.
sccd_bp_stats sccd_bp_brute(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context);

/// Distance sort (seed 001 §3.2): sort by distance D from centre, test only
/// pairs with |Di − Dj| ≤ 2·r_max (r_max the largest radius). Same pairs as
/// brute force. Allocates O(n) scratch per call; on allocation failure reports
/// none.
sccd_bp_stats sccd_bp_distance_sort(const sccd_sphere *s, int n, sccd_v3 centre, sccd_bp_pair_fn *fn,
                                    void *context);

/// Interval sweep x, then y, then z (seed 001 §3.3): objects whose x interval
/// meets no other are dropped, then likewise on y among the rest; pairs whose z
/// intervals meet are tested. Same pairs as brute force. Allocates O(n)
/// scratch.
sccd_bp_stats sccd_bp_xyz_sweep(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context);

/// Best axis per object (seed 001 §3.3.2): each object is tested against the
/// objects overlapping it on the axis where it has the fewest, a pair tested
/// once. Same pairs as brute force. Allocates O(n) scratch.
sccd_bp_stats sccd_bp_best_axis(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context);

/// Our sweep, stateless: sort lower end points on the axis of largest spread,
/// scan forward within the cells of a coarse grid over the other two axes,
/// full box test; reports every pair of touching or overlapping boxes once
/// (pair_tests counts a pair once per cell it is tested in). Any invalid box
/// (NaN, infinite, inverted): SCCD_ASSERT, nothing reported. Allocates O(n)
/// scratch per call.
sccd_bp_stats sccd_bp3_sweep(const sccd_aabb3 *boxes, int n, sccd_bp_pair_fn *fn, void *context);

/// Result of an index operation.
typedef enum sccd_bp_status {
    SCCD_BP_OK = 0,       ///< done
    SCCD_BP_BAD_BOX,      ///< NaN, infinite or inverted box: rejected, index unchanged
    SCCD_BP_BAD_PROXY,    ///< id out of range or already destroyed: index unchanged
    SCCD_BP_LOCKED,       ///< called from inside the index's own callback: refused
    SCCD_BP_NO_MEMORY,    ///< allocation failed: index unchanged
} sccd_bp_status;

/// One proxy slot of an index (private: use the functions).
typedef struct sccd_bp_proxy {
    sccd_real lo[3], hi[3];
    void *user_data;
    int slot; ///< position in the sorted arrays, −1 when the id is free
    int next_free;
} sccd_bp_proxy;

/// One box in sweep order with its axes permuted so the sweep axis comes first
/// (private).
typedef struct sccd_bp_entry {
    sccd_real lo0, hi0, lo1, hi1, lo2, hi2;
} sccd_bp_entry;

/// Key and position for the full sort (private).
typedef struct sccd_bp_key {
    sccd_real key;
    int index;
} sccd_bp_key;

/// Per-frame scratch of the cell sweep (private): entries grouped by grid
/// cell across the two non-sweep axes, each cell still sorted by lo0.
typedef struct sccd_bp_cells {
    int *start;              ///< cell c holds [start[c], start[c + 1])
    int cell_capacity;
    sccd_bp_entry *entries;
    int *ids;
    int capacity, ids_capacity;
} sccd_bp_cells;

/// A reported pair of proxy ids, a < b.
typedef struct sccd_bp_pair {
    int a, b;
} sccd_bp_pair;

/// The index shared by sccd_bp2 and sccd_bp3 (private: use the functions).
/// Every array keeps its capacity: steady frames allocate nothing.
typedef struct sccd_bp_index {
    int dim;                 ///< 2 or 3; a 2D index stores z = 0
    int axis;                ///< sweep axis (0 x, 1 y, 2 z)
    sccd_bp_proxy *proxies;  ///< by id
    int proxy_count, proxy_capacity, free_list, live;
    sccd_bp_entry *entries;  ///< sorted by lo0 after an update (new ones appended)
    int *ids;                ///< proxy id per entry, −1 for a destroyed one
    int entry_count, entry_capacity, dead;
    sccd_bp_key *keys, *keys_tmp; ///< full-sort scratch (entry_capacity each)
    sccd_bp_entry *entries_tmp;
    int *ids_tmp;
    sccd_bp_cells cells;     ///< cell-sweep scratch, rebuilt each update
    sccd_bp_pair *pairs;     ///< the list sccd_bp*_pairs fills
    int pair_count, pair_capacity;
    sccd_real max_extent0;   ///< widest box on the sweep axis (query window)
    bool dirty;              ///< boxes changed since the last sort
    bool locked;             ///< inside a callback of this index
    int64_t rebuilds;        ///< full sorts so far (axis change or big disorder)
} sccd_bp_index;

/// 2D index of axis-aligned boxes.
typedef struct sccd_bp2 { sccd_bp_index index; } sccd_bp2;
/// 3D index of axis-aligned boxes.
typedef struct sccd_bp3 { sccd_bp_index index; } sccd_bp3;

/// Called per proxy by a box query; return false to stop the query.
typedef bool sccd_bp_query_fn(int proxy_id, void *user_data, void *context);

/// Called per proxy whose box the segment a→b meets, t ∈ [0, 1] the fraction
/// where it enters the box (0 when a is inside). Return the new largest
/// fraction to look at (≤ the current one clips; 0 stops; 1 keeps all).
typedef sccd_real sccd_bp_ray_fn(int proxy_id, void *user_data, sccd_real t, void *context);

/// Called per live proxy by sccd_bp2_each / sccd_bp3_each.
typedef void sccd_bp_proxy_fn(int proxy_id, void *user_data, void *context);

/// An empty 3D index (allocates nothing until the first proxy).
void sccd_bp3_init(sccd_bp3 *bp);
/// Free all memory of a 3D index; NULL is accepted.
void sccd_bp3_destroy(sccd_bp3 *bp);
/// Add a box with user data; *proxy_id gets its id (reused after destroy).
sccd_bp_status sccd_bp3_create_proxy(sccd_bp3 *bp, sccd_aabb3 box, void *user_data, int *proxy_id);
/// Give a proxy a new box (cheap: the order is repaired at the next update).
sccd_bp_status sccd_bp3_move_proxy(sccd_bp3 *bp, int proxy_id, sccd_aabb3 box);
/// Remove a proxy; its id may be handed out again.
sccd_bp_status sccd_bp3_destroy_proxy(sccd_bp3 *bp, int proxy_id);
/// The user data of a live proxy (NULL for a bad id, with SCCD_ASSERT).
void *sccd_bp3_user_data(const sccd_bp3 *bp, int proxy_id);
/// The box of a live proxy (a zero box for a bad id, with SCCD_ASSERT).
sccd_aabb3 sccd_bp3_box(const sccd_bp3 *bp, int proxy_id);
/// Number of live proxies.
int sccd_bp3_count(const sccd_bp3 *bp);
/// Call fn for every live proxy, in id order.
void sccd_bp3_each(sccd_bp3 *bp, sccd_bp_proxy_fn *fn, void *context);
/// Re-sort (insertion sort, or a full sort after an axis change) and call fn
/// for every pair of touching or overlapping boxes.
sccd_bp_stats sccd_bp3_update_pairs(sccd_bp3 *bp, sccd_bp_pair_fn *fn, void *context);
/// Like sccd_bp3_update_pairs, into a list owned by the index (valid until
/// the next call); *count gets the number of pairs (0 and NULL on no memory).
const sccd_bp_pair *sccd_bp3_pairs(sccd_bp3 *bp, int *count, sccd_bp_stats *stats);
/// Call fn for every proxy whose box touches box; stats count box tests.
sccd_bp_stats sccd_bp3_query(sccd_bp3 *bp, sccd_aabb3 box, sccd_bp_query_fn *fn, void *context);
/// Call fn for every proxy whose box the segment a→b touches (clipped as fn
/// returns); a = b queries a point.
sccd_bp_stats sccd_bp3_ray_query(sccd_bp3 *bp, sccd_v3 a, sccd_v3 b, sccd_bp_ray_fn *fn, void *context);
/// The current sweep axis (0 x, 1 y, 2 z).
int sccd_bp3_sweep_axis(const sccd_bp3 *bp);

/// An empty 2D index (allocates nothing until the first proxy).
void sccd_bp2_init(sccd_bp2 *bp);
/// Free all memory of a 2D index; NULL is accepted.
void sccd_bp2_destroy(sccd_bp2 *bp);
/// Add a box with user data; *proxy_id gets its id (reused after destroy).
sccd_bp_status sccd_bp2_create_proxy(sccd_bp2 *bp, sccd_aabb2 box, void *user_data, int *proxy_id);
/// Give a proxy a new box (cheap: the order is repaired at the next update).
sccd_bp_status sccd_bp2_move_proxy(sccd_bp2 *bp, int proxy_id, sccd_aabb2 box);
/// Remove a proxy; its id may be handed out again.
sccd_bp_status sccd_bp2_destroy_proxy(sccd_bp2 *bp, int proxy_id);
/// The user data of a live proxy (NULL for a bad id, with SCCD_ASSERT).
void *sccd_bp2_user_data(const sccd_bp2 *bp, int proxy_id);
/// The box of a live proxy (a zero box for a bad id, with SCCD_ASSERT).
sccd_aabb2 sccd_bp2_box(const sccd_bp2 *bp, int proxy_id);
/// Number of live proxies.
int sccd_bp2_count(const sccd_bp2 *bp);
/// Call fn for every live proxy, in id order.
void sccd_bp2_each(sccd_bp2 *bp, sccd_bp_proxy_fn *fn, void *context);
/// Re-sort and call fn for every pair of touching or overlapping boxes.
sccd_bp_stats sccd_bp2_update_pairs(sccd_bp2 *bp, sccd_bp_pair_fn *fn, void *context);
/// Like sccd_bp2_update_pairs, into a list owned by the index (valid until
/// the next call).
const sccd_bp_pair *sccd_bp2_pairs(sccd_bp2 *bp, int *count, sccd_bp_stats *stats);
/// Call fn for every proxy whose box touches box.
sccd_bp_stats sccd_bp2_query(sccd_bp2 *bp, sccd_aabb2 box, sccd_bp_query_fn *fn, void *context);
/// Call fn for every proxy whose box the segment a→b touches (clipped as fn
/// returns); a = b queries a point.
sccd_bp_stats sccd_bp2_ray_query(sccd_bp2 *bp, sccd_v2 a, sccd_v2 b, sccd_bp_ray_fn *fn, void *context);
/// The current sweep axis (0 x, 1 y).
int sccd_bp2_sweep_axis(const sccd_bp2 *bp);

#ifdef __cplusplus
}
#endif

#endif
