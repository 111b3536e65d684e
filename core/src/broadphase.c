/* Our sort-and-sweep index (broadphase.h): seed 001's §3.3 sweep made
 * persistent:
 *  - only the lower end points on the sweep axis are kept sorted; the upper
 *    one is the scan's stop condition, so the sort moves half the data of a
 *    two-end-point sweep and the scan needs no active list;
 *  - between frames objects move little, so an insertion sort repairs the
 *    order in O(n + swaps); when the swaps would cost more than a full sort
 *    (many new boxes, big jumps) it gives up and merge-sorts;
 *  - the axis is the one along which the box centres spread most (fewest
 *    boxes share an interval there); it is re-chosen only when another axis'
 *    spread exceeds the current one's by SWITCH_RATIO, so jitter does not
 *    cause full re-sorts;
 *  - the sweep runs per cell of a coarse grid over the other two axes
 *    (sccd_bp_sweep_cells), which cuts the candidates of dense scenes;
 *  - every candidate gets the full box test before it is reported (the seed
 *    passed axis candidates straight to the narrow phase, seed 001 §3.3,
 *    step 7). */
#include <string.h>

#include "broadphase_internal.h"

/* Another axis must spread this much more (variance ratio) to take over. */
#define SWITCH_RATIO 2.0

void sccd_bpi_init(sccd_bp_index *bp, int dim)
{
    memset(bp, 0, sizeof *bp);
    bp->dim = dim;
    bp->free_list = -1;
}

void sccd_bpi_destroy(sccd_bp_index *bp)
{
    sccd_free(bp->proxies);
    sccd_free(bp->entries);
    sccd_free(bp->ids);
    sccd_free(bp->keys);
    sccd_free(bp->keys_tmp);
    sccd_free(bp->entries_tmp);
    sccd_free(bp->ids_tmp);
    sccd_free(bp->pairs);
    sccd_bp_cells_free(&bp->cells);
    sccd_bpi_init(bp, bp->dim);
}

/* Grow *p from old to cap elements of size sz; false (and *p untouched) on failure. */
static bool grow(void **p, int old, int cap, size_t sz)
{
    void *q = sccd_realloc(*p, (size_t)old * sz, (size_t)cap * sz);
    if (q == NULL) {
        return false;
    }
    *p = q;
    return true;
}

static bool reserve_entries(sccd_bp_index *bp, int need)
{
    if (need <= bp->entry_capacity) {
        return true;
    }
    int cap = bp->entry_capacity > 0 ? bp->entry_capacity : 16;
    while (cap < need) {
        cap *= 2;
    }
    /* Capacity is recorded only once every array has it; a failure part way
     * leaves some arrays larger, which is harmless (the old capacity is still
     * what each holds, the bytes a later grow keeps). */
    int old = bp->entry_capacity;
    if (!grow((void **)&bp->entries, old, cap, sizeof(sccd_bp_entry)) ||
        !grow((void **)&bp->entries_tmp, old, cap, sizeof(sccd_bp_entry)) ||
        !grow((void **)&bp->ids, old, cap, sizeof(int)) || !grow((void **)&bp->ids_tmp, old, cap, sizeof(int)) ||
        !grow((void **)&bp->keys, old, cap, sizeof(sccd_bp_key)) ||
        !grow((void **)&bp->keys_tmp, old, cap, sizeof(sccd_bp_key))) {
        return false;
    }
    bp->entry_capacity = cap;
    return true;
}

static int alloc_id(sccd_bp_index *bp)
{
    if (bp->free_list >= 0) {
        int id = bp->free_list;
        bp->free_list = bp->proxies[id].next_free;
        return id;
    }
    if (bp->proxy_count == bp->proxy_capacity) {
        int cap = bp->proxy_capacity > 0 ? 2 * bp->proxy_capacity : 16;
        if (!grow((void **)&bp->proxies, bp->proxy_capacity, cap, sizeof(sccd_bp_proxy))) {
            return -1;
        }
        bp->proxy_capacity = cap;
    }
    return bp->proxy_count++;
}

/* Drop destroyed entries in one pass, keeping the order of the rest. */
static void compact(sccd_bp_index *bp)
{
    int w = 0;
    for (int r = 0; r < bp->entry_count; ++r) {
        if (bp->ids[r] >= 0) {
            bp->entries[w] = bp->entries[r];
            bp->ids[w] = bp->ids[r];
            bp->proxies[bp->ids[w]].slot = w;
            ++w;
        }
    }
    bp->entry_count = w;
    bp->dead = 0;
}

static bool locked(const sccd_bp_index *bp)
{
    SCCD_ASSERT(!bp->locked);
    return bp->locked;
}

sccd_bp_status sccd_bpi_create(sccd_bp_index *bp, const sccd_real lo[3], const sccd_real hi[3], void *user_data,
                               int *proxy_id)
{
    *proxy_id = -1;
    if (locked(bp)) {
        return SCCD_BP_LOCKED;
    }
    /* Many destroys without an update would grow the entries without bound. */
    if (bp->dead > 16 && 2 * bp->dead > bp->entry_count) {
        compact(bp);
    }
    if (!reserve_entries(bp, bp->entry_count + 1)) {
        return SCCD_BP_NO_MEMORY;
    }
    int id = alloc_id(bp);
    if (id < 0) {
        return SCCD_BP_NO_MEMORY;
    }
    sccd_bp_proxy *p = &bp->proxies[id];
    memcpy(p->lo, lo, sizeof p->lo);
    memcpy(p->hi, hi, sizeof p->hi);
    p->user_data = user_data;
    p->next_free = -1;
    /* New boxes go to the end; the next update sorts them in. */
    p->slot = bp->entry_count++;
    bp->entries[p->slot] = sccd_bp_make_entry(lo, hi, bp->axis);
    bp->ids[p->slot] = id;
    bp->live++;
    bp->dirty = true;
    *proxy_id = id;
    return SCCD_BP_OK;
}

bool sccd_bpi_check_id(const sccd_bp_index *bp, int proxy_id)
{
    bool ok = proxy_id >= 0 && proxy_id < bp->proxy_count && bp->proxies[proxy_id].slot >= 0;
    SCCD_ASSERT(ok);
    return ok;
}

sccd_bp_status sccd_bpi_move(sccd_bp_index *bp, int proxy_id, const sccd_real lo[3], const sccd_real hi[3])
{
    if (locked(bp)) {
        return SCCD_BP_LOCKED;
    }
    if (!sccd_bpi_check_id(bp, proxy_id)) {
        return SCCD_BP_BAD_PROXY;
    }
    sccd_bp_proxy *p = &bp->proxies[proxy_id];
    memcpy(p->lo, lo, sizeof p->lo);
    memcpy(p->hi, hi, sizeof p->hi);
    bp->entries[p->slot] = sccd_bp_make_entry(lo, hi, bp->axis);
    bp->dirty = true;
    return SCCD_BP_OK;
}

sccd_bp_status sccd_bpi_remove(sccd_bp_index *bp, int proxy_id)
{
    if (locked(bp)) {
        return SCCD_BP_LOCKED;
    }
    if (!sccd_bpi_check_id(bp, proxy_id)) {
        return SCCD_BP_BAD_PROXY;
    }
    sccd_bp_proxy *p = &bp->proxies[proxy_id];
    bp->ids[p->slot] = -1;
    bp->dead++;
    p->slot = -1;
    p->user_data = NULL;
    p->next_free = bp->free_list;
    bp->free_list = proxy_id;
    bp->live--;
    bp->dirty = true;
    return SCCD_BP_OK;
}

static void set_entry(sccd_bp_index *bp, int slot, sccd_bp_entry e, int id)
{
    bp->entries[slot] = e;
    bp->ids[slot] = id;
    bp->proxies[id].slot = slot;
}

/* Insertion sort on lo0 that gives up (array still consistent, partly
 * sorted) once it has made budget moves. */
static bool insertion_sort(sccd_bp_index *bp, int64_t budget)
{
    sccd_bp_entry *e = bp->entries;
    int *ids = bp->ids;
    for (int i = 1; i < bp->entry_count; ++i) {
        if (e[i - 1].lo0 <= e[i].lo0) {
            continue;
        }
        sccd_bp_entry x = e[i];
        int id = ids[i], j = i;
        while (j > 0 && e[j - 1].lo0 > x.lo0) {
            set_entry(bp, j, e[j - 1], ids[j - 1]);
            --j;
            --budget;
        }
        set_entry(bp, j, x, id);
        if (budget < 0) {
            return false;
        }
    }
    return true;
}

static void full_sort(sccd_bp_index *bp)
{
    int n = bp->entry_count;
    for (int i = 0; i < n; ++i) {
        bp->keys[i] = (sccd_bp_key){bp->entries[i].lo0, i};
    }
    sccd_bp_sort_keys(bp->keys, bp->keys_tmp, n);
    for (int k = 0; k < n; ++k) {
        bp->entries_tmp[k] = bp->entries[bp->keys[k].index];
        bp->ids_tmp[k] = bp->ids[bp->keys[k].index];
        bp->proxies[bp->ids_tmp[k]].slot = k;
    }
    sccd_bp_entry *te = bp->entries;
    bp->entries = bp->entries_tmp;
    bp->entries_tmp = te;
    int *ti = bp->ids;
    bp->ids = bp->ids_tmp;
    bp->ids_tmp = ti;
    bp->rebuilds++;
}

/* Pick the sweep axis by spread; re-lay every entry when it changes. The
 * first sort takes the widest axis outright; later a new axis must spread
 * SWITCH_RATIO times more than the current one. */
static void choose_axis(sccd_bp_index *bp)
{
    sccd_real var[3], ext[3], world[3];
    sccd_bp_spread(bp->entries, bp->entry_count, var, ext);
    for (int k = 0; k < 3; ++k) {
        world[(bp->axis + k) % 3] = var[k]; /* entry axis k is world axis (axis + k) % 3 */
    }
    int best = bp->axis;
    for (int w = 0; w < bp->dim; ++w) {
        if (world[w] > world[best]) {
            best = w;
        }
    }
    sccd_real ratio = bp->rebuilds == 0 ? 1.0 : SWITCH_RATIO;
    if (best == bp->axis || world[best] <= ratio * world[bp->axis]) {
        bp->max_extent0 = ext[0];
        return;
    }
    bp->max_extent0 = ext[(best - bp->axis + 3) % 3];
    bp->axis = best;
    for (int i = 0; i < bp->entry_count; ++i) {
        const sccd_bp_proxy *p = &bp->proxies[bp->ids[i]];
        bp->entries[i] = sccd_bp_make_entry(p->lo, p->hi, bp->axis);
    }
    full_sort(bp);
}

/* Bring the sorted arrays up to date with every create, move and destroy. */
static void update(sccd_bp_index *bp)
{
    if (!bp->dirty) {
        return;
    }
    if (bp->dead > 0) {
        compact(bp);
    }
    int64_t before = bp->rebuilds;
    choose_axis(bp);
    if (bp->rebuilds == before) {
        /* A full sort costs about n·log2(n) moves: stop insertion sorting
         * beyond a few times that. */
        int64_t n = bp->entry_count, lg = 1;
        while ((1LL << lg) < n) {
            ++lg;
        }
        if (!insertion_sort(bp, 4 * n * lg + 64)) {
            full_sort(bp);
        }
    }
    bp->dirty = false;
}

void sccd_bpi_each(sccd_bp_index *bp, sccd_bp_proxy_fn *fn, void *context)
{
    if (locked(bp)) {
        return;
    }
    bp->locked = true;
    for (int id = 0; id < bp->proxy_count; ++id) {
        if (bp->proxies[id].slot >= 0) {
            fn(id, bp->proxies[id].user_data, context);
        }
    }
    bp->locked = false;
}

sccd_bp_stats sccd_bpi_update_pairs(sccd_bp_index *bp, sccd_bp_pair_fn *fn, void *context)
{
    if (locked(bp)) {
        return (sccd_bp_stats){0, 0};
    }
    update(bp);
    bp->locked = true;
    sccd_bp_stats st = sccd_bp_sweep_cells(bp->entries, bp->ids, bp->entry_count, &bp->cells, fn, context);
    bp->locked = false;
    return st;
}

static void push_pair(int a, int b, void *context)
{
    sccd_bp_index *bp = context;
    if (bp->pair_count < 0) {
        return; /* out of memory earlier in this pass */
    }
    if (bp->pair_count == bp->pair_capacity) {
        int cap = bp->pair_capacity > 0 ? 2 * bp->pair_capacity : 64;
        if (!grow((void **)&bp->pairs, bp->pair_capacity, cap, sizeof(sccd_bp_pair))) {
            bp->pair_count = -1;
            return;
        }
        bp->pair_capacity = cap;
    }
    bp->pairs[bp->pair_count++] = (sccd_bp_pair){a, b};
}

const sccd_bp_pair *sccd_bpi_pairs(sccd_bp_index *bp, int *count, sccd_bp_stats *stats)
{
    bp->pair_count = 0;
    sccd_bp_stats st = sccd_bpi_update_pairs(bp, push_pair, bp);
    if (stats != NULL) {
        *stats = st;
    }
    SCCD_ASSERT(bp->pair_count >= 0);
    if (bp->pair_count < 0) {
        bp->pair_count = 0;
        *count = 0;
        return NULL;
    }
    *count = bp->pair_count;
    return bp->pairs;
}

/* First entry whose box may reach lo0 = x on the sweep axis. */
static int window_start(const sccd_bp_index *bp, sccd_real x)
{
    sccd_real from = sccd_bp_window_low(x, bp->max_extent0);
    return sccd_bp_lower_bound(&bp->entries[0].lo0, sizeof(sccd_bp_entry), bp->entry_count, from);
}

sccd_bp_stats sccd_bpi_query(sccd_bp_index *bp, const sccd_real lo[3], const sccd_real hi[3], sccd_bp_query_fn *fn,
                             void *context)
{
    sccd_bp_stats st = {0, 0};
    if (locked(bp)) {
        return st;
    }
    update(bp);
    sccd_bp_entry q = sccd_bp_make_entry(lo, hi, bp->axis);
    bp->locked = true;
    for (int i = window_start(bp, q.lo0); i < bp->entry_count && bp->entries[i].lo0 <= q.hi0; ++i) {
        const sccd_bp_entry *b = &bp->entries[i];
        st.pair_tests++;
        if (b->hi0 >= q.lo0 && b->lo1 <= q.hi1 && q.lo1 <= b->hi1 && b->lo2 <= q.hi2 && q.lo2 <= b->hi2) {
            st.pairs++;
            int id = bp->ids[i];
            if (!fn(id, bp->proxies[id].user_data, context)) {
                break;
            }
        }
    }
    bp->locked = false;
    return st;
}

/* Slab test of the segment a + t·d, t ∈ [0, tmax], against a box; touching
 * counts. *t_enter gets the first t inside. */
static bool segment_hits(const sccd_real a[3], const sccd_real d[3], const sccd_bp_proxy *p, sccd_real tmax,
                         sccd_real *t_enter)
{
    sccd_real t0 = 0, t1 = tmax;
    for (int k = 0; k < 3; ++k) {
        if (d[k] == 0) {
            if (a[k] < p->lo[k] || a[k] > p->hi[k]) {
                return false;
            }
            continue;
        }
        sccd_real ta = (p->lo[k] - a[k]) / d[k], tb = (p->hi[k] - a[k]) / d[k];
        t0 = sccd_max(t0, sccd_min(ta, tb));
        t1 = sccd_min(t1, sccd_max(ta, tb));
        if (t0 > t1) {
            return false;
        }
    }
    *t_enter = t0;
    return true;
}

sccd_bp_stats sccd_bpi_ray(sccd_bp_index *bp, const sccd_real a[3], const sccd_real b[3], sccd_bp_ray_fn *fn,
                           void *context)
{
    sccd_bp_stats st = {0, 0};
    if (locked(bp)) {
        return st;
    }
    update(bp);
    sccd_real d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    int ax = bp->axis;
    sccd_real tmax = 1;
    sccd_real reach = sccd_max(a[ax], b[ax]);
    bp->locked = true;
    for (int i = window_start(bp, sccd_min(a[ax], b[ax])); i < bp->entry_count && bp->entries[i].lo0 <= reach;
         ++i) {
        int id = bp->ids[i];
        sccd_real t;
        st.pair_tests++;
        if (!segment_hits(a, d, &bp->proxies[id], tmax, &t)) {
            continue;
        }
        st.pairs++;
        tmax = sccd_min(tmax, fn(id, bp->proxies[id].user_data, t, context));
        if (!(tmax > 0)) {
            break;
        }
        /* The clipped segment reaches less far along the sweep axis (widened
         * by a few ulps so rounding never drops a box entered at tmax). */
        sccd_real end = a[ax] + tmax * d[ax];
        reach = sccd_max(a[ax], end) + (fabs(a[ax]) + fabs(end)) * 0x1p-48;
    }
    bp->locked = false;
    return st;
}
