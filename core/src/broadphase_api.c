/* The typed front ends of the index (2D and 3D boxes to the shared index,
 * checked at the boundary) and the stateless one-shot sweep. */

#include "broadphase_internal.h"

static void from_aabb3(sccd_aabb3 b, sccd_real lo[3], sccd_real hi[3])
{
    lo[0] = b.lo.x, lo[1] = b.lo.y, lo[2] = b.lo.z;
    hi[0] = b.hi.x, hi[1] = b.hi.y, hi[2] = b.hi.z;
}

static void from_aabb2(sccd_aabb2 b, sccd_real lo[3], sccd_real hi[3])
{
    lo[0] = b.lo.x, lo[1] = b.lo.y, lo[2] = 0;
    hi[0] = b.hi.x, hi[1] = b.hi.y, hi[2] = 0;
}

static bool check_box3(sccd_aabb3 b)
{
    bool ok = sccd_is_valid_aabb3(b);
    SCCD_ASSERT(ok);
    return ok;
}

static bool check_box2(sccd_aabb2 b)
{
    bool ok = sccd_is_valid_aabb2(b);
    SCCD_ASSERT(ok);
    return ok;
}

/* ---- 3D ---- */

void sccd_bp3_init(sccd_bp3 *bp) { sccd_bpi_init(&bp->index, 3); }

void sccd_bp3_destroy(sccd_bp3 *bp)
{
    if (bp != NULL) {
        sccd_bpi_destroy(&bp->index);
    }
}

sccd_bp_status sccd_bp3_create_proxy(sccd_bp3 *bp, sccd_aabb3 box, void *user_data, int *proxy_id)
{
    sccd_real lo[3], hi[3];
    *proxy_id = -1;
    if (!check_box3(box)) {
        return SCCD_BP_BAD_BOX;
    }
    from_aabb3(box, lo, hi);
    return sccd_bpi_create(&bp->index, lo, hi, user_data, proxy_id);
}

sccd_bp_status sccd_bp3_move_proxy(sccd_bp3 *bp, int proxy_id, sccd_aabb3 box)
{
    sccd_real lo[3], hi[3];
    if (!check_box3(box)) {
        return SCCD_BP_BAD_BOX;
    }
    from_aabb3(box, lo, hi);
    return sccd_bpi_move(&bp->index, proxy_id, lo, hi);
}

sccd_bp_status sccd_bp3_destroy_proxy(sccd_bp3 *bp, int proxy_id) { return sccd_bpi_remove(&bp->index, proxy_id); }

void *sccd_bp3_user_data(const sccd_bp3 *bp, int proxy_id)
{
    return sccd_bpi_check_id(&bp->index, proxy_id) ? bp->index.proxies[proxy_id].user_data : NULL;
}

sccd_aabb3 sccd_bp3_box(const sccd_bp3 *bp, int proxy_id)
{
    if (!sccd_bpi_check_id(&bp->index, proxy_id)) {
        return (sccd_aabb3){{0, 0, 0}, {0, 0, 0}};
    }
    const sccd_bp_proxy *p = &bp->index.proxies[proxy_id];
    return (sccd_aabb3){{p->lo[0], p->lo[1], p->lo[2]}, {p->hi[0], p->hi[1], p->hi[2]}};
}

int sccd_bp3_count(const sccd_bp3 *bp) { return bp->index.live; }

void sccd_bp3_each(sccd_bp3 *bp, sccd_bp_proxy_fn *fn, void *context) { sccd_bpi_each(&bp->index, fn, context); }

sccd_bp_stats sccd_bp3_update_pairs(sccd_bp3 *bp, sccd_bp_pair_fn *fn, void *context)
{
    return sccd_bpi_update_pairs(&bp->index, fn, context);
}

const sccd_bp_pair *sccd_bp3_pairs(sccd_bp3 *bp, int *count, sccd_bp_stats *stats)
{
    return sccd_bpi_pairs(&bp->index, count, stats);
}

sccd_bp_stats sccd_bp3_query(sccd_bp3 *bp, sccd_aabb3 box, sccd_bp_query_fn *fn, void *context)
{
    sccd_real lo[3], hi[3];
    if (!check_box3(box)) {
        return (sccd_bp_stats){0, 0};
    }
    from_aabb3(box, lo, hi);
    return sccd_bpi_query(&bp->index, lo, hi, fn, context);
}

sccd_bp_stats sccd_bp3_ray_query(sccd_bp3 *bp, sccd_v3 a, sccd_v3 b, sccd_bp_ray_fn *fn, void *context)
{
    bool ok = sccd_is_valid_v3(a) && sccd_is_valid_v3(b);
    SCCD_ASSERT(ok);
    if (!ok) {
        return (sccd_bp_stats){0, 0};
    }
    sccd_real pa[3] = {a.x, a.y, a.z}, pb[3] = {b.x, b.y, b.z};
    return sccd_bpi_ray(&bp->index, pa, pb, fn, context);
}

int sccd_bp3_sweep_axis(const sccd_bp3 *bp) { return bp->index.axis; }

/* ---- 2D ---- */

void sccd_bp2_init(sccd_bp2 *bp) { sccd_bpi_init(&bp->index, 2); }

void sccd_bp2_destroy(sccd_bp2 *bp)
{
    if (bp != NULL) {
        sccd_bpi_destroy(&bp->index);
    }
}

sccd_bp_status sccd_bp2_create_proxy(sccd_bp2 *bp, sccd_aabb2 box, void *user_data, int *proxy_id)
{
    sccd_real lo[3], hi[3];
    *proxy_id = -1;
    if (!check_box2(box)) {
        return SCCD_BP_BAD_BOX;
    }
    from_aabb2(box, lo, hi);
    return sccd_bpi_create(&bp->index, lo, hi, user_data, proxy_id);
}

sccd_bp_status sccd_bp2_move_proxy(sccd_bp2 *bp, int proxy_id, sccd_aabb2 box)
{
    sccd_real lo[3], hi[3];
    if (!check_box2(box)) {
        return SCCD_BP_BAD_BOX;
    }
    from_aabb2(box, lo, hi);
    return sccd_bpi_move(&bp->index, proxy_id, lo, hi);
}

sccd_bp_status sccd_bp2_destroy_proxy(sccd_bp2 *bp, int proxy_id) { return sccd_bpi_remove(&bp->index, proxy_id); }

void *sccd_bp2_user_data(const sccd_bp2 *bp, int proxy_id)
{
    return sccd_bpi_check_id(&bp->index, proxy_id) ? bp->index.proxies[proxy_id].user_data : NULL;
}

sccd_aabb2 sccd_bp2_box(const sccd_bp2 *bp, int proxy_id)
{
    if (!sccd_bpi_check_id(&bp->index, proxy_id)) {
        return (sccd_aabb2){{0, 0}, {0, 0}};
    }
    const sccd_bp_proxy *p = &bp->index.proxies[proxy_id];
    return (sccd_aabb2){{p->lo[0], p->lo[1]}, {p->hi[0], p->hi[1]}};
}

int sccd_bp2_count(const sccd_bp2 *bp) { return bp->index.live; }

void sccd_bp2_each(sccd_bp2 *bp, sccd_bp_proxy_fn *fn, void *context) { sccd_bpi_each(&bp->index, fn, context); }

sccd_bp_stats sccd_bp2_update_pairs(sccd_bp2 *bp, sccd_bp_pair_fn *fn, void *context)
{
    return sccd_bpi_update_pairs(&bp->index, fn, context);
}

const sccd_bp_pair *sccd_bp2_pairs(sccd_bp2 *bp, int *count, sccd_bp_stats *stats)
{
    return sccd_bpi_pairs(&bp->index, count, stats);
}

sccd_bp_stats sccd_bp2_query(sccd_bp2 *bp, sccd_aabb2 box, sccd_bp_query_fn *fn, void *context)
{
    sccd_real lo[3], hi[3];
    if (!check_box2(box)) {
        return (sccd_bp_stats){0, 0};
    }
    from_aabb2(box, lo, hi);
    return sccd_bpi_query(&bp->index, lo, hi, fn, context);
}

sccd_bp_stats sccd_bp2_ray_query(sccd_bp2 *bp, sccd_v2 a, sccd_v2 b, sccd_bp_ray_fn *fn, void *context)
{
    bool ok = sccd_is_valid_v2(a) && sccd_is_valid_v2(b);
    SCCD_ASSERT(ok);
    if (!ok) {
        return (sccd_bp_stats){0, 0};
    }
    sccd_real pa[3] = {a.x, a.y, 0}, pb[3] = {b.x, b.y, 0};
    return sccd_bpi_ray(&bp->index, pa, pb, fn, context);
}

int sccd_bp2_sweep_axis(const sccd_bp2 *bp) { return bp->index.axis; }

/* ---- stateless sweep ---- */

sccd_bp_stats sccd_bp3_sweep(const sccd_aabb3 *boxes, int n, sccd_bp_pair_fn *fn, void *context)
{
    sccd_bp_stats st = {0, 0};
    if (boxes == NULL || n < 2) {
        return st;
    }
    for (int i = 0; i < n; ++i) {
        if (!check_box3(boxes[i])) {
            return st;
        }
    }
    sccd_bp_entry *e = sccd_alloc((size_t)n * sizeof *e), *sorted = sccd_alloc((size_t)n * sizeof *sorted);
    sccd_bp_key *keys = sccd_alloc((size_t)n * sizeof *keys), *tmp = sccd_alloc((size_t)n * sizeof *tmp);
    int *ids = sccd_alloc((size_t)n * sizeof *ids);
    bool ok = e != NULL && sorted != NULL && keys != NULL && tmp != NULL && ids != NULL;
    SCCD_ASSERT(ok);
    if (ok) {
        sccd_real lo[3], hi[3], var[3], ext[3];
        for (int i = 0; i < n; ++i) {
            from_aabb3(boxes[i], lo, hi);
            e[i] = sccd_bp_make_entry(lo, hi, 0);
        }
        sccd_bp_spread(e, n, var, ext);
        int axis = var[1] > var[0] ? 1 : 0;
        axis = var[2] > var[axis] ? 2 : axis;
        for (int i = 0; i < n; ++i) {
            from_aabb3(boxes[i], lo, hi);
            e[i] = sccd_bp_make_entry(lo, hi, axis);
            keys[i] = (sccd_bp_key){e[i].lo0, i};
        }
        sccd_bp_sort_keys(keys, tmp, n);
        for (int k = 0; k < n; ++k) {
            sorted[k] = e[keys[k].index];
            ids[k] = keys[k].index;
        }
        sccd_bp_cells cells = {0};
        st = sccd_bp_sweep_cells(sorted, ids, n, &cells, fn, context);
        sccd_bp_cells_free(&cells);
    }
    sccd_free(e);
    sccd_free(sorted);
    sccd_free(keys);
    sccd_free(tmp);
    sccd_free(ids);
    return st;
}
