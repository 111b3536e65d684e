/* The pieces every sort-and-sweep method here shares: a stable merge sort of
 * keys, binary search, the spread of a set of boxes and the sweep kernel,
 * run over the whole sorted array or per grid cell. */
#include <string.h>

#include "broadphase_internal.h"

static void merge(const sccd_bp_key *src, sccd_bp_key *dst, int lo, int mid, int hi)
{
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        /* ≤ keeps equal keys in their order: the sort is stable. */
        dst[k++] = src[j].key < src[i].key ? src[j++] : src[i++];
    }
    while (i < mid) {
        dst[k++] = src[i++];
    }
    while (j < hi) {
        dst[k++] = src[j++];
    }
}

void sccd_bp_sort_keys(sccd_bp_key *keys, sccd_bp_key *tmp, int n)
{
    /* Bottom-up: runs of 16 by insertion sort, then merges of doubling width,
     * ping-ponging between the two buffers. No allocation. */
    const int run = 16;
    for (int lo = 0; lo < n; lo += run) {
        int hi = lo + run < n ? lo + run : n;
        for (int i = lo + 1; i < hi; ++i) {
            sccd_bp_key x = keys[i];
            int j = i;
            while (j > lo && keys[j - 1].key > x.key) {
                keys[j] = keys[j - 1];
                --j;
            }
            keys[j] = x;
        }
    }
    sccd_bp_key *src = keys, *dst = tmp;
    for (int width = run; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(src, dst, lo, mid, hi);
        }
        sccd_bp_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys) {
        memcpy(keys, src, (size_t)n * sizeof *keys);
    }
}

int sccd_bp_lower_bound(const sccd_real *sorted, size_t stride, int n, sccd_real x)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (*(const sccd_real *)((const char *)sorted + (size_t)mid * stride) < x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

sccd_bp_entry sccd_bp_make_entry(const sccd_real lo[3], const sccd_real hi[3], int axis)
{
    int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    return (sccd_bp_entry){lo[axis], hi[axis], lo[a1], hi[a1], lo[a2], hi[a2]};
}

void sccd_bp_spread(const sccd_bp_entry *e, int n, sccd_real var[3], sccd_real extent[3])
{
    sccd_real sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
        extent[k] = 0;
    }
    for (int i = 0; i < n; ++i) {
        const sccd_real *b = &e[i].lo0;
        for (int k = 0; k < 3; ++k) {
            sccd_real c = 0.5 * (b[2 * k] + b[2 * k + 1]);
            sum[k] += c;
            sum2[k] += c * c;
            extent[k] = sccd_max(extent[k], b[2 * k + 1] - b[2 * k]);
        }
    }
    for (int k = 0; k < 3; ++k) {
        sccd_real mean = n > 0 ? sum[k] / n : 0;
        var[k] = n > 0 ? sccd_max(sum2[k] / n - mean * mean, 0) : 0;
    }
}

sccd_real sccd_bp_window_low(sccd_real x, sccd_real extent)
{
    /* fl(hi − lo) may fall short of the true width by half an ulp of the
     * width, and fl(x − extent) may round up by half an ulp of the result:
     * widening by 2⁻⁴⁸ of their magnitudes covers both with room to spare. */
    sccd_real w = x - extent;
    return w - (fabs(w) + fabs(x) + extent) * 0x1p-48;
}

/* ---- the sweep per grid cell ----
 * One sorted axis leaves every box whose interval meets a box's on that axis
 * as a candidate: in a uniform scene a fraction w/L of all boxes. A coarse
 * grid over the other two axes cuts that to the boxes sharing a cell. The
 * global order is kept sorted by the index; a linear pass dealing the entries
 * out to their cells in that order leaves every cell sorted too, so each cell
 * is swept exactly like the whole array. A pair is reported only from the
 * cell holding (max lo1, max lo2), the corner where the two boxes' overlap
 * starts: both boxes cover that cell (cell_of is monotone and each lo ≤ that
 * corner ≤ each hi), and no other cell passes the check, so every touching
 * pair is reported exactly once. */

typedef struct grid {
    int s1, s2;             /* cells along entry axes 1 and 2 */
    sccd_real o1, o2, inv1, inv2;
} grid;

/* Monotone in x, clamped to [0, s − 1]. */
static int cell_of(sccd_real x, sccd_real o, sccd_real inv, int s)
{
    sccd_real t = (x - o) * inv;
    if (!(t > 0)) {
        return 0;
    }
    return t >= s ? s - 1 : (int)t;
}

/* Cells twice the mean box width (few boxes in more than two cells per
 * axis), at most about n cells in all. */
static grid plan_grid(const sccd_bp_entry *e, int n)
{
    grid g = {1, 1, 0, 0, 0, 0};
    sccd_real lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, width[2] = {0, 0};
    for (int i = 0; i < n; ++i) {
        lo[0] = sccd_min(lo[0], e[i].lo1), hi[0] = sccd_max(hi[0], e[i].hi1);
        lo[1] = sccd_min(lo[1], e[i].lo2), hi[1] = sccd_max(hi[1], e[i].hi2);
        width[0] += e[i].hi1 - e[i].lo1;
        width[1] += e[i].hi2 - e[i].lo2;
    }
    double cells[2];
    for (int k = 0; k < 2; ++k) {
        sccd_real range = hi[k] - lo[k], w = 2 * width[k] / (n > 0 ? n : 1);
        cells[k] = range > 0 && isfinite(range) ? (w > 0 ? range / w : (double)n) : 1;
        cells[k] = sccd_clamp(cells[k], 1, n);
    }
    double total = cells[0] * cells[1], cap = n > 64 ? n : 64;
    double shrink = total > cap ? sqrt(cap / total) : 1;
    g.s1 = (int)sccd_max(1, floor(cells[0] * shrink));
    g.s2 = (int)sccd_max(1, floor(cells[1] * shrink));
    g.o1 = lo[0], g.o2 = lo[1];
    g.inv1 = g.s1 / (hi[0] - lo[0]);
    g.inv2 = g.s2 / (hi[1] - lo[1]);
    if (!isfinite(g.inv1)) {
        g.s1 = 1, g.inv1 = 0;
    }
    if (!isfinite(g.inv2)) {
        g.s2 = 1, g.inv2 = 0;
    }
    return g;
}

static bool reserve(void **p, int *capacity, int need, size_t size)
{
    if (need <= *capacity) {
        return true;
    }
    int cap = *capacity > 0 ? *capacity : 64;
    while (cap < need) {
        cap *= 2;
    }
    void *q = sccd_realloc(*p, (size_t)*capacity * size, (size_t)cap * size);
    if (q == NULL) {
        return false;
    }
    *p = q;
    *capacity = cap;
    return true;
}

void sccd_bp_cells_free(sccd_bp_cells *cells)
{
    sccd_free(cells->start);
    sccd_free(cells->entries);
    sccd_free(cells->ids);
    memset(cells, 0, sizeof *cells);
}

/* Deal the entries out to their cells (counting sort keeps the lo0 order);
 * false when the grid would copy too much or scratch cannot grow. */
static bool deal(const sccd_bp_entry *e, const int *ids, int n, const grid *g, sccd_bp_cells *c)
{
    int ncell = g->s1 * g->s2;
    if (!reserve((void **)&c->start, &c->cell_capacity, ncell + 1, sizeof(int))) {
        return false;
    }
    memset(c->start, 0, (size_t)(ncell + 1) * sizeof(int));
    int64_t total = 0;
    for (int i = 0; i < n; ++i) {
        int a1 = cell_of(e[i].lo1, g->o1, g->inv1, g->s1), b1 = cell_of(e[i].hi1, g->o1, g->inv1, g->s1);
        int a2 = cell_of(e[i].lo2, g->o2, g->inv2, g->s2), b2 = cell_of(e[i].hi2, g->o2, g->inv2, g->s2);
        total += (int64_t)(b1 - a1 + 1) * (b2 - a2 + 1);
        if (total > 8 * (int64_t)n + 64) {
            return false; /* huge boxes in many cells: the plain sweep is cheaper */
        }
        for (int c1 = a1; c1 <= b1; ++c1) {
            for (int c2 = a2; c2 <= b2; ++c2) {
                c->start[c1 * g->s2 + c2 + 1]++;
            }
        }
    }
    int need = (int)total;
    if (!reserve((void **)&c->entries, &c->capacity, need, sizeof(sccd_bp_entry)) ||
        !reserve((void **)&c->ids, &c->ids_capacity, need, sizeof(int))) {
        return false;
    }
    for (int k = 0, begin = 0; k < ncell; ++k) { /* start[k + 1] = begin of cell k */
        int count = c->start[k + 1];
        c->start[k + 1] = begin;
        begin += count;
    }
    for (int i = 0; i < n; ++i) { /* afterwards start[k + 1] = end of cell k */
        int a1 = cell_of(e[i].lo1, g->o1, g->inv1, g->s1), b1 = cell_of(e[i].hi1, g->o1, g->inv1, g->s1);
        int a2 = cell_of(e[i].lo2, g->o2, g->inv2, g->s2), b2 = cell_of(e[i].hi2, g->o2, g->inv2, g->s2);
        for (int c1 = a1; c1 <= b1; ++c1) {
            for (int c2 = a2; c2 <= b2; ++c2) {
                int at = c->start[c1 * g->s2 + c2 + 1]++;
                c->entries[at] = e[i];
                c->ids[at] = ids[i];
            }
        }
    }
    return true;
}

/* Sweep entries [begin, end) sorted by lo0: the boxes whose interval meets
 * a's on the sweep axis and start after it are exactly the next ones with
 * lo0 ≤ a.hi0 (≤: equal end points touch, 001 §3.3 step 4 warns of them).
 * With a grid, a touching pair is reported only from its home cell. */
static void sweep_run(const sccd_bp_entry *e, const int *ids, int begin, int end, const grid *g, int c1, int c2,
                      sccd_bp_pair_fn *fn, void *context, sccd_bp_stats *st)
{
    for (int i = begin; i < end; ++i) {
        const sccd_bp_entry a = e[i];
        for (int j = i + 1; j < end && e[j].lo0 <= a.hi0; ++j) {
            const sccd_bp_entry *b = &e[j];
            bool touch = (a.lo1 <= b->hi1) & (b->lo1 <= a.hi1) & (a.lo2 <= b->hi2) & (b->lo2 <= a.hi2);
            st->pair_tests++;
            if (touch && (g == NULL || (cell_of(sccd_max(a.lo1, b->lo1), g->o1, g->inv1, g->s1) == c1 &&
                                        cell_of(sccd_max(a.lo2, b->lo2), g->o2, g->inv2, g->s2) == c2))) {
                int p = ids[i], q = ids[j];
                st->pairs++;
                fn(p < q ? p : q, p < q ? q : p, context);
            }
        }
    }
}

sccd_bp_stats sccd_bp_sweep_cells(const sccd_bp_entry *e, const int *ids, int n, sccd_bp_cells *cells,
                                  sccd_bp_pair_fn *fn, void *context)
{
    sccd_bp_stats st = {0, 0};
    grid g = plan_grid(e, n);
    if (g.s1 * g.s2 == 1 || !deal(e, ids, n, &g, cells)) {
        sweep_run(e, ids, 0, n, NULL, 0, 0, fn, context, &st);
        return st;
    }
    for (int c1 = 0; c1 < g.s1; ++c1) {
        for (int c2 = 0; c2 < g.s2; ++c2) {
            int cell = c1 * g.s2 + c2;
            sweep_run(cells->entries, cells->ids, cells->start[cell], cells->start[cell + 1], &g, c1, c2, fn, context,
                      &st);
        }
    }
    return st;
}
