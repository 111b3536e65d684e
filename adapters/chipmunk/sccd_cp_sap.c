/* Our sort-and-sweep index as a Chipmunk cpSpatialIndexClass. Chipmunk hands
 * the index opaque objects with a hash id and asks for their boxes through
 * bbfunc; we keep a dense table of (object, hash id, proxy id) and an
 * open-addressing map from hash id to table slot, so insert, remove and
 * contains are O(1). Every class function below has Chipmunk's exact
 * signature: no function pointer is cast. */
#include <stdlib.h>

#include <chipmunk/chipmunk_private.h>

#include "sectorccd_chipmunk.h"

typedef struct sap_item {
    void *obj;
    cpHashValue hashid;
    int proxy;
} sap_item;

typedef struct sccd_cp_sap {
    cpSpatialIndex base; /* first: Chipmunk sees a cpSpatialIndex */
    sccd_bp2 bp;
    sap_item *items;
    int count, capacity;
    int *map; /* item slot + 1 per bucket, 0 empty; size map_size (power of 2) */
    int map_size;
} sccd_cp_sap;

static sccd_cp_sap *sap_of(cpSpatialIndex *index) { return (sccd_cp_sap *)index; }

static sccd_aabb2 aabb_of(cpBB bb) { return (sccd_aabb2){{bb.l, bb.b}, {bb.r, bb.t}}; }

/* ---- hash id → item slot (linear probing, deletion by backward shift) ---- */

static unsigned bucket_of(const sccd_cp_sap *s, cpHashValue h)
{
    uint64_t x = (uint64_t)h * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
    return (unsigned)(x >> 32) & (unsigned)(s->map_size - 1);
}

/* The bucket holding h, or the empty bucket where it would go. */
static unsigned find_bucket(const sccd_cp_sap *s, cpHashValue h)
{
    unsigned b = bucket_of(s, h);
    while (s->map[b] != 0 && s->items[s->map[b] - 1].hashid != h) {
        b = (b + 1) & (unsigned)(s->map_size - 1);
    }
    return b;
}

static int find_item(const sccd_cp_sap *s, cpHashValue h)
{
    return s->map_size == 0 ? -1 : s->map[find_bucket(s, h)] - 1;
}

static void map_remove(sccd_cp_sap *s, unsigned hole)
{
    unsigned mask = (unsigned)(s->map_size - 1), b = hole;
    s->map[hole] = 0;
    for (;;) {
        b = (b + 1) & mask;
        if (s->map[b] == 0) {
            return;
        }
        /* Move an entry back into the hole unless its home lies cyclically
         * in (hole, b]: then the hole does not break its probe chain. */
        unsigned home = bucket_of(s, s->items[s->map[b] - 1].hashid);
        bool stays = hole <= b ? (home > hole && home <= b) : (home > hole || home <= b);
        if (!stays) {
            s->map[hole] = s->map[b];
            s->map[b] = 0;
            hole = b;
        }
    }
}

static bool map_grow(sccd_cp_sap *s)
{
    int size = s->map_size > 0 ? 2 * s->map_size : 64;
    int *map = sccd_calloc((size_t)size, sizeof *map);
    if (map == NULL) {
        return false;
    }
    sccd_free(s->map);
    s->map = map;
    s->map_size = size;
    for (int i = 0; i < s->count; ++i) {
        s->map[find_bucket(s, s->items[i].hashid)] = i + 1;
    }
    return true;
}

/* ---- the class functions ---- */

static void sap_destroy(cpSpatialIndex *index)
{
    sccd_cp_sap *s = sap_of(index);
    sccd_bp2_destroy(&s->bp);
    sccd_free(s->items);
    sccd_free(s->map);
    s->items = NULL;
    s->map = NULL;
    s->count = s->capacity = s->map_size = 0;
}

static int sap_count(cpSpatialIndex *index) { return sap_of(index)->count; }

static void sap_each(cpSpatialIndex *index, cpSpatialIndexIteratorFunc func, void *data)
{
    sccd_cp_sap *s = sap_of(index);
    for (int i = 0; i < s->count; ++i) {
        func(s->items[i].obj, data);
    }
}

static cpBool sap_contains(cpSpatialIndex *index, void *obj, cpHashValue hashid)
{
    (void)obj;
    return find_item(sap_of(index), hashid) >= 0;
}

static void sap_insert(cpSpatialIndex *index, void *obj, cpHashValue hashid)
{
    sccd_cp_sap *s = sap_of(index);
    if (s->count == s->capacity) {
        int cap = s->capacity > 0 ? 2 * s->capacity : 32;
        sap_item *items = sccd_realloc(s->items, (size_t)s->capacity * sizeof *items, (size_t)cap * sizeof *items);
        SCCD_ASSERT(items != NULL && "sccd_cp_sap: out of memory; the object stays out of the index");
        if (items == NULL) {
            return;
        }
        s->items = items;
        s->capacity = cap;
    }
    if (2 * (s->count + 1) > s->map_size && !map_grow(s)) {
        SCCD_ASSERT(false && "sccd_cp_sap: out of memory; the object stays out of the index");
        return;
    }
    int proxy;
    sccd_bp_status st = sccd_bp2_create_proxy(&s->bp, aabb_of(index->bbfunc(obj)), obj, &proxy);
    if (st != SCCD_BP_OK) { /* a bad box the core reported; no memory, here */
        SCCD_ASSERT(st != SCCD_BP_NO_MEMORY && "sccd_cp_sap: out of memory; the object stays out of the index");
        return;
    }
    s->items[s->count] = (sap_item){obj, hashid, proxy};
    s->map[find_bucket(s, hashid)] = ++s->count;
}

static void sap_remove(cpSpatialIndex *index, void *obj, cpHashValue hashid)
{
    (void)obj;
    sccd_cp_sap *s = sap_of(index);
    if (s->map_size == 0) {
        return;
    }
    unsigned b = find_bucket(s, hashid);
    int slot = s->map[b] - 1;
    if (slot < 0) {
        return; /* Chipmunk removes from both indexes; absent is fine */
    }
    sccd_bp2_destroy_proxy(&s->bp, s->items[slot].proxy);
    map_remove(s, b);
    int last = --s->count;
    if (slot != last) { /* keep the table dense: move the last item down */
        s->items[slot] = s->items[last];
        s->map[find_bucket(s, s->items[slot].hashid)] = slot + 1;
    }
}

static void refresh(sccd_cp_sap *s, int slot)
{
    sccd_bp2_move_proxy(&s->bp, s->items[slot].proxy, aabb_of(s->base.bbfunc(s->items[slot].obj)));
}

static void sap_reindex(cpSpatialIndex *index)
{
    sccd_cp_sap *s = sap_of(index);
    for (int i = 0; i < s->count; ++i) {
        refresh(s, i);
    }
}

static void sap_reindex_object(cpSpatialIndex *index, void *obj, cpHashValue hashid)
{
    (void)obj;
    sccd_cp_sap *s = sap_of(index);
    int slot = find_item(s, hashid);
    if (slot >= 0) {
        refresh(s, slot);
    }
}

typedef struct query_context {
    sccd_cp_sap *s;
    void *obj;
    cpSpatialIndexQueryFunc func;
    cpSpatialIndexSegmentQueryFunc seg_func;
    void *data;
    cpFloat t0, t_exit;
} query_context;

static void pair_to_chipmunk(int a, int b, void *context)
{
    query_context *q = context;
    q->func(sccd_bp2_user_data(&q->s->bp, a), sccd_bp2_user_data(&q->s->bp, b), 0, q->data);
}

static void sap_reindex_query(cpSpatialIndex *index, cpSpatialIndexQueryFunc func, void *data)
{
    sccd_cp_sap *s = sap_of(index);
    sap_reindex(index);
    query_context q = {s, NULL, func, NULL, data, 0, 0};
    sccd_bp2_update_pairs(&s->bp, pair_to_chipmunk, &q);
    cpSpatialIndexCollideStatic(index, index->staticIndex, func, data);
}

static bool box_to_chipmunk(int proxy_id, void *user_data, void *context)
{
    (void)proxy_id;
    query_context *q = context;
    q->func(q->obj, user_data, 0, q->data);
    return true;
}

static void sap_query(cpSpatialIndex *index, void *obj, cpBB bb, cpSpatialIndexQueryFunc func, void *data)
{
    query_context q = {sap_of(index), obj, func, NULL, data, 0, 0};
    sccd_bp2_query(&q.s->bp, aabb_of(bb), box_to_chipmunk, &q);
}

/* Chipmunk's t_exit is a fraction of a→b; ours of a→(a + t0·(b − a)). */
static sccd_real segment_to_chipmunk(int proxy_id, void *user_data, sccd_real t, void *context)
{
    (void)proxy_id;
    (void)t;
    query_context *q = context;
    q->t_exit = cpfmin(q->t_exit, q->seg_func(q->obj, user_data, q->data));
    return q->t_exit / q->t0;
}

static void sap_segment_query(cpSpatialIndex *index, void *obj, cpVect a, cpVect b, cpFloat t_exit,
                              cpSpatialIndexSegmentQueryFunc func, void *data)
{
    if (!(t_exit > 0) || !isfinite(t_exit)) {
        return;
    }
    query_context q = {sap_of(index), obj, NULL, func, data, t_exit, t_exit};
    cpVect end = cpvlerp(a, b, t_exit);
    sccd_bp2_ray_query(&q.s->bp, (sccd_v2){a.x, a.y}, (sccd_v2){end.x, end.y}, segment_to_chipmunk, &q);
}

static cpSpatialIndexClass sap_class = {
    sap_destroy, sap_count,          sap_each,          sap_contains, sap_insert,       sap_remove,
    sap_reindex, sap_reindex_object, sap_reindex_query, sap_query,    sap_segment_query,
};

cpSpatialIndex *sccd_cp_sap_new(cpSpatialIndexBBFunc bbfunc, cpSpatialIndex *static_index)
{
    SCCD_ASSERT(bbfunc != NULL);
    if (bbfunc == NULL)
        return NULL;
    /* libc's calloc, not the hooks: cpSpatialIndexFree releases the index
     * itself with libc's free (Chipmunk's cpfree). Its arrays are ours. */
    sccd_cp_sap *s = calloc(1, sizeof *s);
    SCCD_ASSERT(s != NULL);
    if (s == NULL) {
        return NULL;
    }
    sccd_bp2_init(&s->bp);
    return cpSpatialIndexInit(&s->base, &sap_class, bbfunc, static_index);
}

/* ---- swapping a space's indexes ---- */

cpBB sccd_cp_shape_bb(void *obj) { return cpShapeGetBB(obj); }

static void copy_shape(void *obj, void *data)
{
    cpShape *shape = obj;
    cpSpatialIndexInsert(data, shape, shape->hashid);
}

void sccd_cp_space_swap_indexes(cpSpace *space, cpSpatialIndex *static_index, cpSpatialIndex *dynamic_index)
{
    bool ok = space != NULL && !cpSpaceIsLocked(space) && static_index != NULL && dynamic_index != NULL;
    SCCD_ASSERT(ok);
    if (!ok) {
        return;
    }
    cpSpatialIndexEach(space->staticShapes, copy_shape, static_index);
    cpSpatialIndexEach(space->dynamicShapes, copy_shape, dynamic_index);
    cpSpatialIndexFree(space->staticShapes);
    space->staticShapes = static_index;
    cpSpatialIndexFree(space->dynamicShapes);
    space->dynamicShapes = dynamic_index;
}

void sccd_cp_space_use_sap(cpSpace *space)
{
    bool ok = space != NULL && !cpSpaceIsLocked(space);
    SCCD_ASSERT(ok);
    if (!ok) {
        return;
    }
    cpSpatialIndex *stat = sccd_cp_sap_new(sccd_cp_shape_bb, NULL);
    cpSpatialIndex *dyn = stat != NULL ? sccd_cp_sap_new(sccd_cp_shape_bb, stat) : NULL;
    if (dyn == NULL) {
        if (stat != NULL) {
            cpSpatialIndexFree(stat);
        }
        return;
    }
    sccd_cp_space_swap_indexes(space, stat, dyn);
}
