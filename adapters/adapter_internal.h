/* Private to the engine adapters (adapters/chipmunk, adapters/ode): the
 * helpers both CCD hooks use in the same way; the demos' window grows its
 * buffers with the same one. Not installed, not API. */
#ifndef SCCD_ADAPTER_INTERNAL_H
#define SCCD_ADAPTER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "sectorccd/base.h"
#include "sectorccd/broadphase.h"

/* Grow a buffer of elements of size `size` to hold `need` (doubling, from
 * 16); false when out of memory, the buffer then unchanged. */
static inline bool sccd_adapter_reserve(void **buf, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return true;
    int cap2 = *cap > 0 ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *p = sccd_realloc(*buf, (size_t)*cap * size, (size_t)cap2 * size);
    if (p == NULL)
        return false;
    *buf = p;
    *cap = cap2;
    return true;
}

/* A map of pointers to ints (open addressing, linear probing): the CCD
 * bodies' records by engine body, what a step gathered (each once, without
 * sorting the duplicates away), the proxies of the reach index below. The
 * table stays at most half full. */
typedef struct sccd_adapter_map { const void **key; int *value; int cap, count; } sccd_adapter_map;

/* Empty the map (its memory is kept). */
static inline void sccd_adapter_map_clear(sccd_adapter_map *m)
{
    if (m->key != NULL)
        memset(m->key, 0, (size_t)m->cap * sizeof *m->key);
    m->count = 0;
}

static inline void sccd_adapter_map_free(sccd_adapter_map *m)
{
    sccd_free(m->key);
    sccd_free(m->value);
    *m = (sccd_adapter_map){0};
}

/* The slot where p's probe starts in a table of cap (a power of two) slots. */
static inline int sccd_adapter_map_home(const void *p, int cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15u; /* Fibonacci hashing: the high bits mix all */
    return (int)(h >> 40) & (cap - 1);
}

/* Slot of p: where it is, or the empty slot where it goes (cap > 0). */
static inline int sccd_adapter_map_slot(const void *const *key, int cap, const void *p)
{
    int i = sccd_adapter_map_home(p, cap);
    while (key[i] != NULL && key[i] != p)
        i = (i + 1) & (cap - 1);
    return i;
}

/* p's value, -1 when p is not in the map. */
static inline int sccd_adapter_map_get(const sccd_adapter_map *m, const void *p)
{
    if (m->count == 0)
        return -1;
    int i = sccd_adapter_map_slot(m->key, m->cap, p);
    return m->key[i] == p ? m->value[i] : -1;
}

/* Room for one more key; false when out of memory (the map unchanged). */
static inline bool sccd_adapter_map_grow(sccd_adapter_map *m)
{
    if (2 * (m->count + 1) <= m->cap)
        return true;
    int cap = m->cap > 0 ? 2 * m->cap : 64;
    const void **key = sccd_calloc((size_t)cap, sizeof *key);
    int *value = sccd_alloc((size_t)cap * sizeof *value);
    if (key == NULL || value == NULL) {
        sccd_free(key);
        sccd_free(value);
        return false;
    }
    for (int i = 0; i < m->cap; ++i)
        if (m->key[i] != NULL) {
            int k = sccd_adapter_map_slot(key, cap, m->key[i]);
            key[k] = m->key[i];
            value[k] = m->value[i];
        }
    sccd_free(m->key);
    sccd_free(m->value);
    m->key = key;
    m->value = value;
    m->cap = cap;
    return true;
}

/* Add p (not NULL) with value v: 1 when new, 0 when already there (its value
 * kept), -1 out of memory (the map unchanged). */
static inline int sccd_adapter_map_add(sccd_adapter_map *m, const void *p, int v)
{
    if (!sccd_adapter_map_grow(m))
        return -1;
    int i = sccd_adapter_map_slot(m->key, m->cap, p);
    if (m->key[i] == p)
        return 0;
    m->key[i] = p;
    m->value[i] = v;
    ++m->count;
    return 1;
}

/* Give p, which is in the map, the value v. */
static inline void sccd_adapter_map_set(sccd_adapter_map *m, const void *p, int v)
{
    m->value[sccd_adapter_map_slot(m->key, m->cap, p)] = v;
}

/* Remove p when it is there. Each key after it in its run of full slots
 * whose probe would not pass the hole moves back into it, so every key
 * stays reachable from its home (no tombstones). */
static inline void sccd_adapter_map_remove(sccd_adapter_map *m, const void *p)
{
    if (m->count == 0)
        return;
    int mask = m->cap - 1, hole = sccd_adapter_map_slot(m->key, m->cap, p);
    if (m->key[hole] != p)
        return;
    --m->count;
    for (int j = (hole + 1) & mask; m->key[j] != NULL; j = (j + 1) & mask) {
        int home = sccd_adapter_map_home(m->key[j], m->cap);
        if (((j - home) & mask) < ((j - hole) & mask))
            continue; /* its probe starts after the hole */
        m->key[hole] = m->key[j];
        m->value[hole] = m->value[j];
        hole = j;
    }
    m->key[hole] = NULL;
}

/* The reach index: the boxes that the engine objects which may move far in
 * a step may reach, in a sort-and-sweep index (broadphase.h), so that each
 * CCD body finds what may meet it by a box query instead of testing every
 * such object: the cost grows with the CCD bodies plus the objects, not
 * with their product. Each object keeps its proxy from step to step, so the
 * index's sort stays nearly in order (an insertion sort repairs it).
 *
 * A step begins, puts every object it wants in with its box and a value (the
 * caller's index of it this step), queries, and ends: the objects not put
 * since the beginning leave. A query skips them too, so a step that failed
 * half way leaves no object that may be gone (its pointer is only
 * compared). 2D boxes go in with z = 0. */
typedef struct sccd_adapter_reach_item { const void *obj; int value; unsigned stamp; } sccd_adapter_reach_item;

typedef struct sccd_adapter_reach {
    sccd_bp3 bp;
    sccd_adapter_map proxy_of;     /* object -> proxy id */
    sccd_adapter_reach_item *item; /* by proxy id; obj NULL for a free id */
    int nitem, capitem;
    unsigned stamp;                /* the current step's */
} sccd_adapter_reach;

static inline void sccd_adapter_reach_init(sccd_adapter_reach *r)
{
    *r = (sccd_adapter_reach){0};
    sccd_bp3_init(&r->bp);
}

static inline void sccd_adapter_reach_free(sccd_adapter_reach *r)
{
    sccd_bp3_destroy(&r->bp);
    sccd_adapter_map_free(&r->proxy_of);
    sccd_free(r->item);
    sccd_adapter_reach_init(r);
}

static inline void sccd_adapter_reach_begin(sccd_adapter_reach *r) { ++r->stamp; }

/* Put obj in with box and value for this step; false when out of memory.
 * A box that is not finite is left out (no query can meet it). */
static inline bool sccd_adapter_reach_put(sccd_adapter_reach *r, const void *obj, int value, sccd_aabb3 box)
{
    if (!sccd_is_valid_aabb3(box))
        return true;
    int id = sccd_adapter_map_get(&r->proxy_of, obj);
    if (id >= 0) {
        sccd_bp3_move_proxy(&r->bp, id, box);
    } else {
        if (sccd_bp3_create_proxy(&r->bp, box, NULL, &id) != SCCD_BP_OK)
            return false;
        if (!sccd_adapter_reserve((void **)&r->item, &r->capitem, id + 1, sizeof *r->item) ||
            sccd_adapter_map_add(&r->proxy_of, obj, id) < 0) {
            sccd_bp3_destroy_proxy(&r->bp, id);
            return false;
        }
        for (; r->nitem <= id; ++r->nitem)
            r->item[r->nitem].obj = NULL;
    }
    r->item[id] = (sccd_adapter_reach_item){obj, value, r->stamp};
    return true;
}

/* Drop the objects not put since the step began. */
static inline void sccd_adapter_reach_end(sccd_adapter_reach *r)
{
    for (int id = 0; id < r->nitem; ++id) {
        sccd_adapter_reach_item *it = &r->item[id];
        if (it->obj == NULL || it->stamp == r->stamp)
            continue;
        sccd_bp3_destroy_proxy(&r->bp, id);
        sccd_adapter_map_remove(&r->proxy_of, it->obj);
        it->obj = NULL;
    }
}

/* Called with the value of each object put this step whose box meets the
 * query's; false stops the query (out of memory). */
typedef bool sccd_adapter_reach_fn(int value, void *context);

typedef struct sccd_adapter_reach_query_ctx {
    const sccd_adapter_reach *r;
    sccd_adapter_reach_fn *fn;
    void *context;
    bool ok;
} sccd_adapter_reach_query_ctx;

static inline bool sccd_adapter_reach_hit(int proxy_id, void *user_data, void *context)
{
    (void)user_data;
    sccd_adapter_reach_query_ctx *q = context;
    const sccd_adapter_reach_item *it = &q->r->item[proxy_id];
    if (it->stamp == q->r->stamp)
        q->ok = q->fn(it->value, q->context);
    return q->ok;
}

/* fn for every object put this step whose box meets box (every one when box
 * is not finite: a motion that overflowed may reach anything); false when
 * fn was. */
static inline bool sccd_adapter_reach_query(sccd_adapter_reach *r, sccd_aabb3 box, sccd_adapter_reach_fn *fn, void *context)
{
    sccd_adapter_reach_query_ctx q = {r, fn, context, true};
    if (r->proxy_of.count > 0 && sccd_is_valid_aabb3(box))
        sccd_bp3_query(&r->bp, box, sccd_adapter_reach_hit, &q);
    for (int id = 0; !sccd_is_valid_aabb3(box) && q.ok && id < r->nitem; ++id)
        if (r->item[id].obj != NULL)
            sccd_adapter_reach_hit(id, NULL, &q);
    return q.ok;
}

/* CPU time of the calling thread in seconds, for the counters: steady on a
 * shared machine, where wall time would charge other jobs to the CCD. */
static inline double sccd_adapter_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Solves of one step while bodies set moving by impacts reach shapes not
 * gathered yet (each round gathers what they may reach, then solves again). */
#define SCCD_ADAPTER_GATHER_ROUNDS 3

/* A begin answer the game gave this step, keyed by the two engine shapes and
 * the impact's time: the solves of one step are deterministic, so a later
 * solve meets the same impact at the same time and replays the answer
 * instead of asking again. */
typedef struct sccd_adapter_heard { const void *a, *b; sccd_real t; bool accepted; } sccd_adapter_heard;

static inline const sccd_adapter_heard *sccd_adapter_heard_find(const sccd_adapter_heard *h, int n, const void *a,
                                                                const void *b, sccd_real t)
{
    for (int i = 0; i < n; ++i)
        if (h[i].a == a && h[i].b == b && h[i].t == t)
            return &h[i];
    return NULL;
}

/* Keep an answer; out of memory: it is asked again if met again. */
static inline void sccd_adapter_heard_add(sccd_adapter_heard **h, int *n, int *cap, sccd_adapter_heard answer)
{
    if (sccd_adapter_reserve((void **)h, cap, *n + 1, sizeof **h))
        (*h)[(*n)++] = answer;
}

#endif
