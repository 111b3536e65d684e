/* The seed's sort family (seed 001) over bounding spheres, the seed's
 * objects (§4.2). Each reports the sphere pairs that touch or overlap — the
 * same set as brute force, touching included — and counts its pair tests
 * (sphere tests) the way the seed's tables 2 and 6 do. */

#include "broadphase_internal.h"

static sccd_real comp(sccd_v3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

static bool spheres_touch(sccd_sphere a, sccd_sphere b)
{
    sccd_real r = a.r + b.r;
    return sccd_v3_len2(sccd_v3_sub(a.c, b.c)) <= r * r;
}

/* One full pair test: counted, and reported (lower index first) on contact. */
static void test_pair(const sccd_sphere *s, int i, int j, sccd_bp_pair_fn *fn, void *context, sccd_bp_stats *st)
{
    st->pair_tests++;
    if (spheres_touch(s[i], s[j])) {
        st->pairs++;
        fn(i < j ? i : j, i < j ? j : i, context);
    }
}

static bool check_spheres(const sccd_sphere *s, int n)
{
    bool ok = n <= 0 || s != NULL;
    for (int i = 0; ok && i < n; ++i) {
        ok = sccd_is_valid_sphere(s[i]);
    }
    SCCD_ASSERT(ok);
    return ok;
}

sccd_bp_stats sccd_bp_brute(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context)
{
    sccd_bp_stats st = {0, 0};
    if (!check_spheres(s, n)) {
        return st;
    }
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            test_pair(s, i, j, fn, context, &st);
        }
    }
    return st;
}

/* Keys (key, index) for objects live[0..m), sorted; false on no memory. */
static bool sorted_keys(sccd_bp_key *keys, int m, sccd_bp_key *tmp)
{
    if (keys == NULL || tmp == NULL) {
        SCCD_ASSERT(keys != NULL && tmp != NULL);
        return false;
    }
    sccd_bp_sort_keys(keys, tmp, m);
    return true;
}

sccd_bp_stats sccd_bp_distance_sort(const sccd_sphere *s, int n, sccd_v3 centre, sccd_bp_pair_fn *fn,
                                    void *context)
{
    sccd_bp_stats st = {0, 0};
    if (!check_spheres(s, n)) {
        return st;
    }
    bool ok = sccd_is_valid_v3(centre);
    SCCD_ASSERT(ok);
    if (!ok || n < 2) {
        return st;
    }
    sccd_bp_key *keys = sccd_alloc((size_t)n * sizeof *keys), *tmp = sccd_alloc((size_t)n * sizeof *tmp);
    sccd_real r_max = 0, d_max = 0;
    for (int i = 0; keys != NULL && i < n; ++i) {
        keys[i] = (sccd_bp_key){sccd_v3_len(sccd_v3_sub(s[i].c, centre)), i};
        r_max = sccd_max(r_max, s[i].r);
        d_max = sccd_max(d_max, keys[i].key);
    }
    if (sorted_keys(keys, n, tmp)) {
        /* §3.2: |Di − Dj| ≤ |ci − cj| (triangle inequality) and touching
         * needs |ci − cj| ≤ ri + rj ≤ 2·r_max, so pairs farther apart in D
         * cannot touch. The window is widened by SCCD_EPS of the scene so
         * the rounding of D never drops a touching pair. */
        sccd_real window = 2 * r_max + SCCD_EPS * (d_max + r_max);
        for (int a = 0; a < n; ++a) {
            for (int b = a + 1; b < n && keys[b].key - keys[a].key <= window; ++b) {
                test_pair(s, keys[a].index, keys[b].index, fn, context, &st);
            }
        }
    }
    sccd_free(keys);
    sccd_free(tmp);
    return st;
}

/* Sort live[0..m) by the lower end of their interval on axis into keys. */
static void axis_keys(const sccd_sphere *s, const int *live, int m, int axis, sccd_bp_key *keys, sccd_bp_key *tmp)
{
    for (int k = 0; k < m; ++k) {
        int i = live[k];
        keys[k] = (sccd_bp_key){comp(s[i].c, axis) - s[i].r, i};
    }
    sccd_bp_sort_keys(keys, tmp, m);
}

/* §3.3 steps 1–5: keep only the objects whose interval on axis meets
 * another's. After the sort one pass decides it: an interval meets an earlier
 * one when the largest upper end so far reaches it, a later one when the next
 * lower end is inside it. Returns the new count of live. */
static int drop_lonely(const sccd_sphere *s, int *live, int m, int axis, sccd_bp_key *keys, sccd_bp_key *tmp)
{
    axis_keys(s, live, m, axis, keys, tmp);
    int kept = 0;
    sccd_real reach = -INFINITY;
    for (int k = 0; k < m; ++k) {
        int i = keys[k].index;
        sccd_real hi = comp(s[i].c, axis) + s[i].r;
        bool meets = reach >= keys[k].key || (k + 1 < m && keys[k + 1].key <= hi);
        reach = sccd_max(reach, hi);
        if (meets) {
            live[kept++] = i;
        }
    }
    return kept;
}

sccd_bp_stats sccd_bp_xyz_sweep(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context)
{
    sccd_bp_stats st = {0, 0};
    if (!check_spheres(s, n) || n < 2) {
        return st;
    }
    sccd_bp_key *keys = sccd_alloc((size_t)n * sizeof *keys), *tmp = sccd_alloc((size_t)n * sizeof *tmp);
    int *live = sccd_alloc((size_t)n * sizeof *live);
    bool ok = keys != NULL && tmp != NULL && live != NULL;
    SCCD_ASSERT(ok);
    if (ok) {
        for (int i = 0; i < n; ++i) {
            live[i] = i;
        }
        int m = drop_lonely(s, live, n, 0, keys, tmp);
        m = drop_lonely(s, live, m, 1, keys, tmp);
        /* §3.3 steps 6–7: sort the rest on z, test each object against the
         * ones that start inside its interval. */
        axis_keys(s, live, m, 2, keys, tmp);
        for (int a = 0; a < m; ++a) {
            int i = keys[a].index;
            sccd_real hi = s[i].c.z + s[i].r;
            for (int b = a + 1; b < m && keys[b].key <= hi; ++b) {
                test_pair(s, i, keys[b].index, fn, context, &st);
            }
        }
    }
    sccd_free(keys);
    sccd_free(tmp);
    sccd_free(live);
    return st;
}

/* Number of sorted values ≤ x (or < x when strict). */
static int count_below(const sccd_real *v, int n, sccd_real x, bool strict)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid] < x || (!strict && v[mid] == x)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Per-axis sorted lower ends (keys) and sorted upper ends (plain values). */
typedef struct axis_sort {
    sccd_bp_key *lo;
    sccd_real *lo_v, *hi_v;
    sccd_real extent;
} axis_sort;

static void sort_axis(const sccd_sphere *s, int n, int axis, axis_sort *ax, sccd_bp_key *tmp)
{
    ax->extent = 0;
    for (int i = 0; i < n; ++i) {
        ax->lo[i] = (sccd_bp_key){comp(s[i].c, axis) + s[i].r, i};
        ax->extent = sccd_max(ax->extent, 2 * s[i].r);
    }
    sccd_bp_sort_keys(ax->lo, tmp, n); /* upper ends, sorted */
    for (int i = 0; i < n; ++i) {
        ax->hi_v[i] = ax->lo[i].key;
    }
    for (int i = 0; i < n; ++i) {
        ax->lo[i] = (sccd_bp_key){comp(s[i].c, axis) - s[i].r, i};
    }
    sccd_bp_sort_keys(ax->lo, tmp, n);
    for (int i = 0; i < n; ++i) {
        ax->lo_v[i] = ax->lo[i].key;
    }
}

/* Objects whose interval on this axis meets i's: those starting at or before
 * i's upper end minus those ending before i's lower end, minus i itself. */
static int axis_candidates(const sccd_sphere *s, int i, int axis, const axis_sort *ax, int n)
{
    sccd_real lo = comp(s[i].c, axis) - s[i].r, hi = comp(s[i].c, axis) + s[i].r;
    return count_below(ax->lo_v, n, hi, false) - count_below(ax->hi_v, n, lo, true) - 1;
}

sccd_bp_stats sccd_bp_best_axis(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context)
{
    sccd_bp_stats st = {0, 0};
    if (!check_spheres(s, n) || n < 2) {
        return st;
    }
    axis_sort ax[3];
    sccd_bp_key *tmp = sccd_alloc((size_t)n * sizeof *tmp);
    unsigned char *best = sccd_alloc((size_t)n);
    bool ok = tmp != NULL && best != NULL;
    for (int a = 0; a < 3; ++a) {
        ax[a].lo = sccd_alloc((size_t)n * sizeof *ax[a].lo);
        ax[a].lo_v = sccd_alloc((size_t)n * sizeof *ax[a].lo_v);
        ax[a].hi_v = sccd_alloc((size_t)n * sizeof *ax[a].hi_v);
        ok = ok && ax[a].lo != NULL && ax[a].lo_v != NULL && ax[a].hi_v != NULL;
    }
    SCCD_ASSERT(ok);
    if (ok) {
        for (int a = 0; a < 3; ++a) {
            sort_axis(s, n, a, &ax[a], tmp);
        }
        /* §3.3.2: each object's axis with the fewest candidates. */
        for (int i = 0; i < n; ++i) {
            int c0 = axis_candidates(s, i, 0, &ax[0], n), c1 = axis_candidates(s, i, 1, &ax[1], n);
            int c2 = axis_candidates(s, i, 2, &ax[2], n);
            best[i] = (unsigned char)(c0 <= c1 ? (c0 <= c2 ? 0 : 2) : (c1 <= c2 ? 1 : 2));
        }
        /* Object i tests its candidates j > i on its best axis. A touching
         * pair overlaps on every axis, so the lower index always has the
         * other among its candidates: each touching pair is tested once. */
        for (int i = 0; i < n; ++i) {
            const axis_sort *x = &ax[best[i]];
            sccd_real lo = comp(s[i].c, best[i]) - s[i].r, hi = comp(s[i].c, best[i]) + s[i].r;
            int k = sccd_bp_lower_bound(x->lo_v, sizeof(sccd_real), n, sccd_bp_window_low(lo, x->extent));
            for (; k < n && x->lo_v[k] <= hi; ++k) {
                int j = x->lo[k].index;
                if (j > i && comp(s[j].c, best[i]) + s[j].r >= lo) {
                    test_pair(s, i, j, fn, context, &st);
                }
            }
        }
    }
    sccd_free(tmp);
    sccd_free(best);
    for (int a = 0; a < 3; ++a) {
        sccd_free(ax[a].lo);
        sccd_free(ax[a].lo_v);
        sccd_free(ax[a].hi_v);
    }
    return st;
}
