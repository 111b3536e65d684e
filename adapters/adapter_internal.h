/* Private to the engine adapters (adapters/chipmunk, adapters/ode): the
 * helpers both CCD hooks use in the same way; the demos' window grows its
 * buffers with the same one. Not installed, not API. */
#ifndef SCCD_ADAPTER_INTERNAL_H
#define SCCD_ADAPTER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
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
 * sorting the duplicates away). The table stays at most half full. */
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

/* A step's query boxes: what the CCD bodies' motions (later, the bodies an
 * impact set moving) may reach. The engine's objects that may move far in
 * a step are matched against them all in one pass: each object queries the
 * boxes with the box of what it may reach, in a sort-and-sweep index of the
 * core (2D boxes at z = 0). The cost grows with the objects plus the boxes,
 * not with their product, and the index holds only the step's few boxes:
 * nothing of the engine's is kept from step to step. A query box that is
 * not finite (a motion that overflowed) meets every object; an object
 * whose box is not finite meets none (it is nowhere to be met). */
typedef struct sccd_adapter_queries {
    sccd_bp3 bp;
    sccd_aabb3 *box; /* by box */
    int *proxy;      /* by box: its proxy, -1 for a box that is not finite */
    int *box_of;     /* by proxy: its box */
    int *wild;       /* the boxes that are not finite */
    sccd_aabb3 all;  /* the union of the finite boxes: most objects of a big world meet none, known at once */
    int count, nwild, capbox, capproxy, capbox_of, capwild;
} sccd_adapter_queries;

/* An empty union (meets nothing). */
static inline sccd_aabb3 sccd_adapter_empty_box(void)
{
    return (sccd_aabb3){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
}

/* Up to this many boxes, an object tests each: cheaper than a query of the
 * index (the index pays from a few dozen on). */
#define SCCD_ADAPTER_SCAN_BOXES 16

static inline void sccd_adapter_queries_init(sccd_adapter_queries *q)
{
    *q = (sccd_adapter_queries){.all = sccd_adapter_empty_box()};
    sccd_bp3_init(&q->bp);
}

static inline void sccd_adapter_queries_free(sccd_adapter_queries *q)
{
    sccd_bp3_destroy(&q->bp);
    sccd_free(q->box);
    sccd_free(q->proxy);
    sccd_free(q->box_of);
    sccd_free(q->wild);
    sccd_adapter_queries_init(q);
}

/* No boxes (the memory is kept). */
static inline void sccd_adapter_queries_clear(sccd_adapter_queries *q)
{
    for (int i = 0; i < q->count; ++i)
        if (q->proxy[i] >= 0)
            sccd_bp3_destroy_proxy(&q->bp, q->proxy[i]);
    q->count = q->nwild = 0;
    q->all = sccd_adapter_empty_box();
}

/* Add a box: its index (from 0 after a clear), -1 when out of memory (the
 * boxes unchanged). */
static inline int sccd_adapter_queries_add(sccd_adapter_queries *q, sccd_aabb3 box)
{
    int id = -1;
    if (!sccd_adapter_reserve((void **)&q->box, &q->capbox, q->count + 1, sizeof *q->box) ||
        !sccd_adapter_reserve((void **)&q->proxy, &q->capproxy, q->count + 1, sizeof *q->proxy))
        return -1;
    if (!sccd_is_valid_aabb3(box)) {
        if (!sccd_adapter_reserve((void **)&q->wild, &q->capwild, q->nwild + 1, sizeof *q->wild))
            return -1;
        q->wild[q->nwild++] = q->count;
    } else if (sccd_bp3_create_proxy(&q->bp, box, NULL, &id) != SCCD_BP_OK) {
        return -1;
    } else if (!sccd_adapter_reserve((void **)&q->box_of, &q->capbox_of, id + 1, sizeof *q->box_of)) {
        sccd_bp3_destroy_proxy(&q->bp, id);
        return -1;
    } else {
        q->box_of[id] = q->count;
        q->all = sccd_aabb3_union(q->all, box);
    }
    q->box[q->count] = box;
    q->proxy[q->count] = id;
    return q->count++;
}

static inline bool sccd_adapter_boxes_meet(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

/* Called with the index of each query box an object's box meets; false
 * stops the match (out of memory). */
typedef bool sccd_adapter_match_fn(int box, void *context);

typedef struct sccd_adapter_match { const int *box_of; sccd_adapter_match_fn *fn; void *context; bool ok; } sccd_adapter_match;

static inline bool sccd_adapter_queries_hit(int proxy_id, void *user_data, void *context)
{
    (void)user_data;
    sccd_adapter_match *m = context;
    m->ok = m->fn(m->box_of[proxy_id], m->context);
    return m->ok;
}

/* fn for every query box that box meets; false when fn was. */
static inline bool sccd_adapter_queries_match(sccd_adapter_queries *q, sccd_aabb3 box, sccd_adapter_match_fn *fn,
                                              void *context)
{
    if ((q->nwild == 0 && !sccd_adapter_boxes_meet(q->all, box)) || !sccd_is_valid_aabb3(box)) /* a NaN box meets nothing */
        return true;
    sccd_adapter_match m = {q->box_of, fn, context, true};
    if (q->count <= SCCD_ADAPTER_SCAN_BOXES) {
        for (int i = 0; m.ok && i < q->count; ++i)
            if (q->proxy[i] < 0 || sccd_adapter_boxes_meet(q->box[i], box))
                m.ok = fn(i, context);
        return m.ok;
    }
    if (q->count > q->nwild)
        sccd_bp3_query(&q->bp, box, sccd_adapter_queries_hit, &m);
    for (int i = 0; m.ok && i < q->nwild; ++i)
        m.ok = fn(q->wild[i], context);
    return m.ok;
}

/* A step's objects by their boxes, for the impact solver's questions in the
 * middle of a solve (a few boxes, asked one at a time): sorted by low x
 * once, with the greatest high x up to each; a question bisects to the last
 * object starting at or before its high x and walks back while that
 * greatest high x still reaches its low x. A big set is first cut in bands
 * across the other axis along which it spreads most, a box in each band it
 * meets, each band sorted by low x on its own; a question walks only the
 * bands its box meets and reports a box in the first band they share:
 * under 10,000 spheres the x slab of a question held a thousand boxes.
 * Boxes wider in x than
 * SCCD_ADAPTER_WIDE times the mean are kept apart and tested by every
 * question: one floor under a pile would carry the greatest high x past
 * every object after it, and each question would walk back to the floor
 * (the whole set: 116 k instructions a question under 10,000 spheres).
 * Objects whose box is not finite (a plane; a motion that overflowed) are
 * met by every question; NaN boxes by none. Made in one sort, nothing kept
 * from step to step: cheaper than the incremental index of
 * sccd_adapter_queries for a set made once and asked many times. */
enum { SCCD_ADAPTER_WIDE = 4 };

typedef struct sccd_adapter_sorted_entry { sccd_real lo; int id; } sccd_adapter_sorted_entry;

/* Most bands a set is cut in, how many times the mean extent of its boxes
 * across them a band is wide at least, and how many entries a box may take
 * on average (a box is in every band it meets). */
enum { SCCD_ADAPTER_BANDS = 64, SCCD_ADAPTER_BAND_BOXES = 4, SCCD_ADAPTER_BAND_COPIES = 2 };

typedef struct sccd_adapter_sorted {
    sccd_adapter_sorted_entry *entry; /* by band (a box in each band it meets), then by low x */
    sccd_real *reach;                 /* the greatest high x up to each entry, in its band */
    sccd_aabb3 *box;                  /* by id */
    int *wild;                        /* ids met by every question */
    int *wide;                        /* ids of the wide boxes, tested by every question */
    sccd_adapter_sorted_entry *spare; /* the radix sort's other buffer */
    int *counts;                      /* its digit counts */
    int band_start[SCCD_ADAPTER_BANDS + 1]; /* each band's first entry */
    int bands, axis;                  /* how many, across which axis (1: y, 2: z) */
    sccd_real band_lo, band_w;        /* where band 0 starts, their width */
    int count, nwild, nwide, ids, capentry, capreach, capbox, capwild, capwide, capspare, capcounts;
} sccd_adapter_sorted;

static inline void sccd_adapter_sorted_free(sccd_adapter_sorted *x)
{
    sccd_free(x->entry);
    sccd_free(x->reach);
    sccd_free(x->box);
    sccd_free(x->wild);
    sccd_free(x->wide);
    sccd_free(x->spare);
    sccd_free(x->counts);
    *x = (sccd_adapter_sorted){0};
}

/* Start a set (the memory is kept). */
static inline void sccd_adapter_sorted_clear(sccd_adapter_sorted *x) { x->count = x->nwild = x->nwide = x->ids = 0; }

/* Add an object's box: its id (from 0 after a clear), -1 out of memory. */
static inline int sccd_adapter_sorted_add(sccd_adapter_sorted *x, sccd_aabb3 box)
{
    int id = x->ids;
    if (!sccd_adapter_reserve((void **)&x->box, &x->capbox, id + 1, sizeof *x->box))
        return -1;
    bool finite = sccd_is_valid_aabb3(box);
    bool nan = !finite && !(box.lo.x <= box.hi.x && box.lo.y <= box.hi.y && box.lo.z <= box.hi.z);
    if (finite) {
        if (!sccd_adapter_reserve((void **)&x->entry, &x->capentry, x->count + 1, sizeof *x->entry))
            return -1;
        x->entry[x->count++] = (sccd_adapter_sorted_entry){box.lo.x, id};
    } else if (!nan) {
        if (!sccd_adapter_reserve((void **)&x->wild, &x->capwild, x->nwild + 1, sizeof *x->wild))
            return -1;
        x->wild[x->nwild++] = id;
    }
    x->box[id] = box;
    return x->ids++;
}

/* A finite low x as an unsigned key in the same order: the sign bit set
 * for a positive value, every bit flipped for a negative one. */
static inline uint64_t sccd_adapter_sort_key(sccd_real x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u >> 63) != 0 ? ~u : u | (UINT64_C(1) << 63);
}

enum { SCCD_ADAPTER_RADIX_BITS = 8, SCCD_ADAPTER_RADIX = 1 << SCCD_ADAPTER_RADIX_BITS, SCCD_ADAPTER_DIGITS = 8 };

/* Up to this many entries an insertion sort is cheaper than clearing the
 * radix sort's counts. */
enum { SCCD_ADAPTER_FEW = 64 };

/* Entries a before b: by low x, then by id. */
static inline bool sccd_adapter_sorted_before(sccd_adapter_sorted_entry a, sccd_adapter_sorted_entry b)
{
    return a.lo < b.lo || (a.lo == b.lo && a.id < b.id);
}

/* The entries by low x, ties in the order they were added (by id): few by
 * insertion, more by a stable radix sort of the keys, a byte a pass,
 * counted for every digit in one pass; a digit all entries share (the high
 * bits of a scene's coordinates) costs no pass. Linear: qsort of a big
 * world's 10,000 geoms cost more than the questions. False out of memory. */
static inline bool sccd_adapter_sorted_sort(sccd_adapter_sorted *x)
{
    if (x->count <= SCCD_ADAPTER_FEW) {
        for (int k = 1; k < x->count; ++k) {
            sccd_adapter_sorted_entry e = x->entry[k];
            int j = k;
            for (; j > 0 && sccd_adapter_sorted_before(e, x->entry[j - 1]); --j)
                x->entry[j] = x->entry[j - 1];
            x->entry[j] = e;
        }
        return true;
    }
    if (!sccd_adapter_reserve((void **)&x->spare, &x->capspare, x->count, sizeof *x->spare) ||
        !sccd_adapter_reserve((void **)&x->counts, &x->capcounts, SCCD_ADAPTER_DIGITS * SCCD_ADAPTER_RADIX, sizeof *x->counts))
        return false;
    memset(x->counts, 0, (size_t)SCCD_ADAPTER_DIGITS * SCCD_ADAPTER_RADIX * sizeof *x->counts);
    for (int k = 0; k < x->count; ++k) {
        uint64_t key = sccd_adapter_sort_key(x->entry[k].lo);
        for (int d = 0; d < SCCD_ADAPTER_DIGITS; ++d)
            ++x->counts[d * SCCD_ADAPTER_RADIX + (int)((key >> (d * SCCD_ADAPTER_RADIX_BITS)) & (SCCD_ADAPTER_RADIX - 1))];
    }
    sccd_adapter_sorted_entry *from = x->entry, *to = x->spare;
    for (int d = 0; d < SCCD_ADAPTER_DIGITS; ++d) {
        int *c = x->counts + d * SCCD_ADAPTER_RADIX, shift = d * SCCD_ADAPTER_RADIX_BITS;
        if (c[(sccd_adapter_sort_key(from[0].lo) >> shift) & (SCCD_ADAPTER_RADIX - 1)] == x->count)
            continue; /* one value of this digit: the order stands */
        for (int b = 0, at = 0; b < SCCD_ADAPTER_RADIX; ++b) { /* counts to first places */
            int n = c[b];
            c[b] = at;
            at += n;
        }
        for (int k = 0; k < x->count; ++k)
            to[c[(sccd_adapter_sort_key(from[k].lo) >> shift) & (SCCD_ADAPTER_RADIX - 1)]++] = from[k];
        sccd_adapter_sorted_entry *t = from;
        from = to;
        to = t;
    }
    if (from != x->entry) { /* the sorted entries are in the spare buffer: swap the buffers */
        int cap = x->capentry;
        x->spare = x->entry;
        x->entry = from;
        x->capentry = x->capspare;
        x->capspare = cap;
    }
    return true;
}

/* Move the wide boxes out of the entries (sccd_adapter_sorted); false out of memory. */
static inline bool sccd_adapter_sorted_split_wide(sccd_adapter_sorted *x)
{
    sccd_real sum = 0.0;
    for (int k = 0; k < x->count; ++k)
        sum += x->box[x->entry[k].id].hi.x - x->box[x->entry[k].id].lo.x;
    sccd_real wide = SCCD_ADAPTER_WIDE * sum / sccd_max(x->count, 1);
    int kept = 0;
    for (int k = 0; k < x->count; ++k) {
        const sccd_aabb3 *b = &x->box[x->entry[k].id];
        if (b->hi.x - b->lo.x <= wide) {
            x->entry[kept++] = x->entry[k];
            continue;
        }
        if (!sccd_adapter_reserve((void **)&x->wide, &x->capwide, x->nwide + 1, sizeof *x->wide))
            return false;
        x->wide[x->nwide++] = x->entry[k].id;
    }
    x->count = kept;
    return true;
}

/* Coordinate `axis` (1: y, 2: z) of v. */
static inline sccd_real sccd_adapter_axis(sccd_v3 v, int axis) { return axis == 1 ? v.y : v.z; }

/* The band of coordinate v across the bands (clamped to the first and
 * last; it never falls as v grows). */
static inline int sccd_adapter_band(const sccd_adapter_sorted *x, sccd_real v)
{
    sccd_real b = (v - x->band_lo) / x->band_w;
    return b < 1.0 ? 0 : b >= x->bands - 1 ? x->bands - 1 : (int)b;
}

/* How many entries the bands take: each box is in every band its extent
 * across them meets. */
static inline int sccd_adapter_band_entries(const sccd_adapter_sorted *x)
{
    int total = 0;
    for (int k = 0; k < x->count; ++k) {
        const sccd_aabb3 *b = &x->box[x->entry[k].id];
        total += sccd_adapter_band(x, sccd_adapter_axis(b->hi, x->axis)) - sccd_adapter_band(x, sccd_adapter_axis(b->lo, x->axis)) + 1;
    }
    return total;
}

/* Choose the bands: across y or z, whichever holds more boxes' mean
 * extents, so many that a band is SCCD_ADAPTER_BAND_BOXES of them wide,
 * fewer while the boxes would take more than SCCD_ADAPTER_BAND_COPIES
 * entries each (one band: a set too small or too flat to gain). */
static inline void sccd_adapter_sorted_plan_bands(sccd_adapter_sorted *x)
{
    x->bands = 1;
    x->axis = 1;
    x->band_lo = 0.0;
    x->band_w = 1.0;
    if (x->count <= SCCD_ADAPTER_FEW)
        return;
    sccd_real best = 0.0, hi_best = 0.0;
    for (int axis = 1; axis <= 2; ++axis) {
        sccd_real lo = INFINITY, hi = -INFINITY, sum = 0.0;
        for (int k = 0; k < x->count; ++k) {
            const sccd_aabb3 *b = &x->box[x->entry[k].id];
            lo = sccd_min(lo, sccd_adapter_axis(b->lo, axis));
            hi = sccd_max(hi, sccd_adapter_axis(b->hi, axis));
            sum += sccd_adapter_axis(b->hi, axis) - sccd_adapter_axis(b->lo, axis);
        }
        sccd_real w = SCCD_ADAPTER_BAND_BOXES * sum / x->count, n = w > 0.0 ? (hi - lo) / w : 0.0;
        if (n > best && sccd_is_valid_real(n)) {
            best = n;
            hi_best = hi;
            x->axis = axis;
            x->band_lo = lo;
        }
    }
    for (int bands = best >= SCCD_ADAPTER_BANDS ? SCCD_ADAPTER_BANDS : (int)best; bands >= 2; bands /= 2) {
        x->bands = bands;
        x->band_w = (hi_best - x->band_lo) / bands;
        if (sccd_adapter_band_entries(x) <= SCCD_ADAPTER_BAND_COPIES * x->count)
            return;
    }
    x->bands = 1;
    x->band_w = 1.0;
}

/* Cut the entries (sorted by low x) into their bands, each in order (a
 * stable counting sort); false out of memory. */
static inline bool sccd_adapter_sorted_cut(sccd_adapter_sorted *x)
{
    sccd_adapter_sorted_plan_bands(x);
    x->band_start[0] = 0;
    x->band_start[1] = x->count;
    if (x->bands == 1)
        return true;
    int total = sccd_adapter_band_entries(x);
    if (!sccd_adapter_reserve((void **)&x->spare, &x->capspare, total, sizeof *x->spare))
        return false;
    int at[SCCD_ADAPTER_BANDS] = {0};
    for (int k = 0; k < x->count; ++k) {
        const sccd_aabb3 *b = &x->box[x->entry[k].id];
        int last = sccd_adapter_band(x, sccd_adapter_axis(b->hi, x->axis));
        for (int band = sccd_adapter_band(x, sccd_adapter_axis(b->lo, x->axis)); band <= last; ++band)
            ++at[band];
    }
    for (int b = 0, first = 0; b < x->bands; ++b) {
        x->band_start[b] = first;
        first += at[b];
        at[b] = x->band_start[b];
    }
    x->band_start[x->bands] = total;
    for (int k = 0; k < x->count; ++k) {
        const sccd_aabb3 *b = &x->box[x->entry[k].id];
        int last = sccd_adapter_band(x, sccd_adapter_axis(b->hi, x->axis));
        for (int band = sccd_adapter_band(x, sccd_adapter_axis(b->lo, x->axis)); band <= last; ++band)
            x->spare[at[band]++] = x->entry[k];
    }
    sccd_adapter_sorted_entry *t = x->entry;
    int cap = x->capentry;
    x->entry = x->spare;
    x->capentry = x->capspare;
    x->spare = t;
    x->capspare = cap;
    x->count = total;
    return true;
}

/* Sort the boxes added (before the first question); false out of memory. */
static inline bool sccd_adapter_sorted_build(sccd_adapter_sorted *x)
{
    if (!sccd_adapter_sorted_split_wide(x) || !sccd_adapter_sorted_sort(x) || !sccd_adapter_sorted_cut(x) ||
        !sccd_adapter_reserve((void **)&x->reach, &x->capreach, x->count, sizeof *x->reach))
        return false;
    for (int b = 0; b < x->bands; ++b) {
        sccd_real reach = -INFINITY;
        for (int k = x->band_start[b]; k < x->band_start[b + 1]; ++k) {
            reach = sccd_max(reach, x->box[x->entry[k].id].hi.x);
            x->reach[k] = reach;
        }
    }
    return true;
}

/* fn for every object of band b whose box meets box, and that the walk of
 * no earlier band among the question's (from band b0) has met: the first
 * band a box and the question share; false when fn was. */
static inline bool sccd_adapter_sorted_walk(const sccd_adapter_sorted *x, int b, int b0, sccd_aabb3 box,
                                            sccd_adapter_match_fn *fn, void *context)
{
    int first = x->band_start[b], lo = first, hi = x->band_start[b + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (x->entry[mid].lo <= box.hi.x)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo - 1; k >= first && x->reach[k] >= box.lo.x; --k) {
        const sccd_aabb3 *o = &x->box[x->entry[k].id];
        if (sccd_adapter_boxes_meet(*o, box) && (b == b0 || sccd_adapter_band(x, sccd_adapter_axis(o->lo, x->axis)) == b) &&
            !fn(x->entry[k].id, context))
            return false;
    }
    return true;
}

/* fn for every object whose box meets box; false when fn was. */
static inline bool sccd_adapter_sorted_match(const sccd_adapter_sorted *x, sccd_aabb3 box, sccd_adapter_match_fn *fn,
                                             void *context)
{
    if (!sccd_is_valid_aabb3(box)) /* a question without a finite box meets everything but NaN */
        box = (sccd_aabb3){{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}};
    int b0 = x->bands > 1 ? sccd_adapter_band(x, sccd_adapter_axis(box.lo, x->axis)) : 0;
    int b1 = x->bands > 1 ? sccd_adapter_band(x, sccd_adapter_axis(box.hi, x->axis)) : 0;
    for (int b = b0; b <= b1; ++b)
        if (!sccd_adapter_sorted_walk(x, b, b0, box, fn, context))
            return false;
    for (int k = 0; k < x->nwide; ++k)
        if (sccd_adapter_boxes_meet(x->box[x->wide[k]], box) && !fn(x->wide[k], context))
            return false;
    for (int k = 0; k < x->nwild; ++k)
        if (!fn(x->wild[k], context))
            return false;
    return true;
}

/* CPU time of the calling thread in seconds, for the counters: steady on a
 * shared machine, where wall time would charge other jobs to the CCD. */
static inline double sccd_adapter_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What a query gathers: shapes a body (its points `reach` far this step,
 * `half` its half thickness) could pass through (sccd_adapter_keeps); a CCD
 * body's queries keep everything (half INFINITY). The impact solver asks
 * for what a body it set moving may reach with these two (its
 * sccd_impact_reach2/3). */
typedef struct sccd_adapter_keep { sccd_real reach, half; } sccd_adapter_keep;

/* Whether a shape `half` thick (half thickness), whose points may move
 * `margin` this step, must join the solve of a query that keeps k: the
 * solver leaves a pair of ordinary bodies to the engine when neither point
 * moves half the thinner one's half thickness relative to the other (its
 * engine_catches), so a shape no faster can stay out of the solve. */
static inline bool sccd_adapter_keeps(sccd_adapter_keep k, sccd_real margin, sccd_real half)
{
    return k.half == INFINITY || k.reach + margin >= 0.5 * sccd_min(k.half, half);
}

#endif
