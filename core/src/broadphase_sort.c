/* The pieces every sort-and-sweep method here shares: a stable merge sort of
 * keys, binary search, the spread of a set of boxes and the sweep kernel. */
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

sccd_bp_stats sccd_bp_sweep_sorted(const sccd_bp_entry *e, const int *ids, int n, sccd_bp_pair_fn *fn,
                                   void *context)
{
    sccd_bp_stats st = {0, 0};
    for (int i = 0; i < n; ++i) {
        const sccd_bp_entry a = e[i];
        /* Sorted by lo0, so the boxes whose interval meets a's on the sweep
         * axis and start after it are exactly the next ones with lo0 ≤ a.hi0
         * (≤: equal end points touch, 001 §3.3 step 4 warns of them). */
        for (int j = i + 1; j < n && e[j].lo0 <= a.hi0; ++j) {
            const sccd_bp_entry *b = &e[j];
            bool touch = (a.lo1 <= b->hi1) & (b->lo1 <= a.hi1) & (a.lo2 <= b->hi2) & (b->lo2 <= a.hi2);
            st.pair_tests++;
            if (touch) {
                int p = ids[i], q = ids[j];
                st.pairs++;
                fn(p < q ? p : q, p < q ? q : p, context);
            }
        }
    }
    return st;
}

sccd_real sccd_bp_window_low(sccd_real x, sccd_real extent)
{
    /* fl(hi − lo) may fall short of the true width by half an ulp of the
     * width, and fl(x − extent) may round up by half an ulp of the result:
     * widening by 2⁻⁴⁸ of their magnitudes covers both with room to spare. */
    sccd_real w = x - extent;
    return w - (fabs(w) + fabs(x) + extent) * 0x1p-48;
}
