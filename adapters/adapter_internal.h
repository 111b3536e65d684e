/* Private to the engine adapters (adapters/chipmunk, adapters/ode): the
 * helpers both CCD hooks use in the same way; the demos' window grows its
 * buffers with the same one. Not installed, not API. */
#ifndef SCCD_ADAPTER_INTERNAL_H
#define SCCD_ADAPTER_INTERNAL_H

#include <float.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sectorccd/base.h"
#include "sectorccd/impact.h"

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

/* Empty the map (its memory is kept). An empty one is not swept: a map
 * grown once (the bodies moved before the first CCD body, when it came
 * last in the engine's array) kept costing a sweep of its whole table at
 * every clear, 1 % of the CCD of a debris rain. */
static inline void sccd_adapter_map_clear(sccd_adapter_map *m)
{
    if (m->count > 0)
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

/* The slot of p (not NULL), added with value v when it is not there (a
 * value there is kept): one probe where adding and then reading took two;
 * -1 out of memory (the map unchanged). */
static inline int sccd_adapter_map_place(sccd_adapter_map *m, const void *p, int v)
{
    if (!sccd_adapter_map_grow(m))
        return -1;
    int i = sccd_adapter_map_slot(m->key, m->cap, p);
    if (m->key[i] != p) {
        m->key[i] = p;
        m->value[i] = v;
        ++m->count;
    }
    return i;
}

/* Add p (not NULL) with value v: 1 when new, 0 when already there (its value
 * kept), -1 out of memory (the map unchanged). */
static inline int sccd_adapter_map_add(sccd_adapter_map *m, const void *p, int v)
{
    int count = m->count;
    return sccd_adapter_map_place(m, p, v) < 0 ? -1 : m->count > count;
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

/* The bodies the CCD's impacts left flying (impact.h: a discrete step may
 * carry them through a thin body): `now` the last solve's, which this
 * step's solve tests as struck, `next` what this one leaves flying (its
 * bodies' `flying` results). Keys are the engine's bodies, never read
 * through: a body is struck only when it is found among the engine's live
 * bodies (a freed one is simply not found, and dropped with the step). */
typedef struct sccd_adapter_flying { sccd_adapter_map now, next; } sccd_adapter_flying;

/* The step is done: what it left flying is what the next one tests. */
static inline void sccd_adapter_flying_step(sccd_adapter_flying *f)
{
    sccd_adapter_map done = f->now;
    f->now = f->next;
    f->next = done;
    sccd_adapter_map_clear(&f->next);
}

/* Forget every flying body (a failed step: its results are not the solve's). */
static inline void sccd_adapter_flying_clear(sccd_adapter_flying *f)
{
    sccd_adapter_map_clear(&f->now);
    sccd_adapter_map_clear(&f->next);
}

static inline void sccd_adapter_flying_free(sccd_adapter_flying *f)
{
    sccd_adapter_map_free(&f->now);
    sccd_adapter_map_free(&f->next);
}

/* An empty union (meets nothing). */
static inline sccd_aabb3 sccd_adapter_empty_box(void)
{
    return (sccd_aabb3){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
}

/* The whole space (meets everything). */
static inline sccd_aabb3 sccd_adapter_all_box(void)
{
    return (sccd_aabb3){{-INFINITY, -INFINITY, -INFINITY}, {INFINITY, INFINITY, INFINITY}};
}

static inline bool sccd_adapter_boxes_meet(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

/* Called with the index of each box an object's box meets; false stops
 * the match (out of memory). It does not change the set it is called from. */
typedef bool sccd_adapter_match_fn(int box, void *context);

/* Whether `inner` lies within `outer` (a question inside a box asked before
 * finds nothing the first did not). */
static inline bool sccd_adapter_box_holds(sccd_aabb3 outer, sccd_aabb3 inner)
{
    return outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y && outer.lo.z <= inner.lo.z && inner.hi.x <= outer.hi.x &&
           inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}

/* A step's objects by their boxes, for the impact solver's questions in the
 * middle of a solve (a few boxes, asked one at a time). Made in a few
 * linear passes, nothing kept from step to step: cheaper than the
 * incremental index of sccd_adapter_queries for a set made once and asked
 * many times.
 *
 * Tiles: a big set is cut in a grid of tiles across y and z, a box in
 * every tile it meets; each tile is sorted by low x, with the greatest
 * high x up to each entry. A question walks only the tiles its box meets:
 * in each it bisects to the last object starting at or before its high x
 * and walks back while that greatest high x still reaches its low x, and
 * it reports a box in the first tile they share (across each axis, the
 * later of their first tiles), so once. Under 10,000 spheres the x slab of
 * a question held a thousand boxes; in the ODE debris rain, whose falling
 * bodies' boxes are tall, bands across one axis walked 75 boxes a question
 * to report 6, 3 x 3 tiles walk 45. An axis is cut so that a tile is SCCD_ADAPTER_TILE_BOXES
 * mean extents wide (an axis the boxes do not spread along, a 2D world's
 * z, is not cut), fewer while the boxes would take more than
 * SCCD_ADAPTER_TILE_COPIES entries each or the tiles outnumber them.
 *
 * Boxes wider in x than SCCD_ADAPTER_WIDE times the mean are kept apart
 * and tested by every question: one floor under a pile would carry the
 * greatest high x past every object after it, and each question would walk
 * back to the floor (the whole set: 116 k instructions a question under
 * 10,000 spheres). Objects whose box is not finite (a plane; a motion that
 * overflowed) are met by every question; NaN boxes by none.
 *
 * The sort, by low x and ties by id, is a radix sort of 24-bit keys (each
 * low x's distance past the least one, rounded to a float, less the last
 * byte of its mantissa: 3 byte passes where the bits of the double took 8,
 * and the float's last byte a fourth, 0.4 % of the CCD of Chipmunk's
 * debris rains), then each run of lows sharing a key sorted on its own:
 * linear, where qsort of a big world's 10,000 geoms cost more than the
 * questions. Only lows closer than the key's precision (3e-5 of their
 * distance past the least: 15 bits of mantissa) share a key, so the runs
 * are a few entries, sorted by insertion; a long one (a crowd far past one
 * outlier low) by qsort, so the sort stays n log n. */
enum { SCCD_ADAPTER_WIDE = 4 };

/* A box in one tile. tag: while sorting, the key; then the box's first and
 * last tiles across y, then across z, a byte each (unused with one tile). */
typedef struct sccd_adapter_sorted_entry { sccd_real lo; int id; uint32_t tag; } sccd_adapter_sorted_entry;

/* An entry's extent across x, kept beside it for the scan (sccd_adapter_sorted_scan). */
typedef struct sccd_adapter_span { sccd_real lo, hi; } sccd_adapter_span;

/* The tiles across one axis: n of them from lo, `scale` tiles a unit. */
typedef struct sccd_adapter_tiling { sccd_real lo, scale; int n; } sccd_adapter_tiling;

/* Most tiles across an axis (a tile's index fits in a byte of the tag),
 * how many times the mean extent of the boxes across it a tile is wide at
 * least, and how many entries a box may take on average. */
enum { SCCD_ADAPTER_TILES = 64, SCCD_ADAPTER_TILE_BOXES = 4, SCCD_ADAPTER_TILE_COPIES = 2 };

typedef struct sccd_adapter_sorted {
    sccd_adapter_sorted_entry *entry; /* by tile (a box in each tile it meets), then by low x */
    sccd_real *reach;                 /* the greatest high x up to each entry, in its tile */
    sccd_aabb3 *box;                  /* by id */
    sccd_adapter_span *span;          /* the entries' x extents, in the order added (until sorted) */
    int *wild;                        /* ids met by every question */
    int *wide;                        /* ids of the wide boxes, tested by every question */
    sccd_adapter_sorted_entry *spare; /* the radix sort's and the cut's other buffer */
    int *counts;                      /* the radix sort's digit counts */
    int *tile_start;                  /* each tile's first entry; tile (i, j) is i + j * tiling[0].n */
    sccd_adapter_tiling tiling[2];    /* across y and z */
    sccd_real width;                  /* the finite boxes' x widths summed */
    int count, nwild, nwide, ids, capentry, capreach, capbox, capspan, capwild, capwide, capspare, capcounts, captiles;
    int asked, asked_before;          /* questions this step and the step before (sccd_adapter_sorted_ask) */
    bool sorted;                      /* built since the last clear */
} sccd_adapter_sorted;

static inline void sccd_adapter_sorted_free(sccd_adapter_sorted *x)
{
    sccd_free(x->entry);
    sccd_free(x->reach);
    sccd_free(x->box);
    sccd_free(x->span);
    sccd_free(x->wild);
    sccd_free(x->wide);
    sccd_free(x->spare);
    sccd_free(x->counts);
    sccd_free(x->tile_start);
    *x = (sccd_adapter_sorted){0};
}

/* Start a set (the memory is kept). */
static inline void sccd_adapter_sorted_clear(sccd_adapter_sorted *x)
{
    x->count = x->nwild = x->nwide = x->ids = 0;
    x->width = 0.0;
    x->sorted = false;
}

/* A new step: its questions are counted anew (sccd_adapter_sorted_ask). */
static inline void sccd_adapter_sorted_next_step(sccd_adapter_sorted *x)
{
    x->asked_before = x->asked;
    x->asked = 0;
}

/* Add an object's box: its id (from 0 after a clear), -1 out of memory. */
static inline int sccd_adapter_sorted_add(sccd_adapter_sorted *x, sccd_aabb3 box)
{
    int id = x->ids;
    if (!sccd_adapter_reserve((void **)&x->box, &x->capbox, id + 1, sizeof *x->box))
        return -1;
    bool finite = sccd_is_valid_aabb3(box);
    bool nan = !finite && !(box.lo.x <= box.hi.x && box.lo.y <= box.hi.y && box.lo.z <= box.hi.z);
    if (finite) {
        if (!sccd_adapter_reserve((void **)&x->entry, &x->capentry, x->count + 1, sizeof *x->entry) ||
            !sccd_adapter_reserve((void **)&x->span, &x->capspan, x->count + 1, sizeof *x->span))
            return -1;
        x->span[x->count] = (sccd_adapter_span){box.lo.x, box.hi.x};
        x->entry[x->count++] = (sccd_adapter_sorted_entry){box.lo.x, id, 0};
        x->width += box.hi.x - box.lo.x;
    } else if (!nan) {
        if (!sccd_adapter_reserve((void **)&x->wild, &x->capwild, x->nwild + 1, sizeof *x->wild))
            return -1;
        x->wild[x->nwild++] = id;
    }
    x->box[id] = box;
    return x->ids++;
}

/* A low x's sort key: its distance past the least low x of the set rounded
 * to a float, whose bits (a float ≥ 0) are in the same order, less the last
 * byte of its mantissa. Never out of order: neither the subtraction nor the
 * rounding nor dropping low bits reverses two values. */
static inline uint32_t sccd_adapter_sort_key(sccd_real lo, sccd_real least)
{
    float f = (float)sccd_min(lo - least, FLT_MAX);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u >> 8;
}

/* Along an axis, the boxes' least low, greatest high and summed extents. */
typedef struct sccd_adapter_spread { sccd_real lo, hi, sum; } sccd_adapter_spread;

static inline void sccd_adapter_spread_add(sccd_adapter_spread *s, sccd_real lo, sccd_real hi)
{
    s->lo = sccd_min(s->lo, lo);
    s->hi = sccd_max(s->hi, hi);
    s->sum += hi - lo;
}

/* Move the wide boxes out of the entries; the others' least low x and
 * their spreads across y and z. False out of memory. */
static inline bool sccd_adapter_sorted_split_wide(sccd_adapter_sorted *x, sccd_real *least, sccd_adapter_spread spread[2])
{
    sccd_real wide = SCCD_ADAPTER_WIDE * x->width / sccd_max(x->count, 1);
    int kept = 0;
    for (int k = 0; k < x->count; ++k) {
        sccd_adapter_sorted_entry e = x->entry[k];
        const sccd_aabb3 *b = &x->box[e.id];
        if (b->hi.x - b->lo.x > wide) {
            if (!sccd_adapter_reserve((void **)&x->wide, &x->capwide, x->nwide + 1, sizeof *x->wide))
                return false;
            x->wide[x->nwide++] = e.id;
            continue;
        }
        *least = sccd_min(*least, e.lo);
        sccd_adapter_spread_add(&spread[0], b->lo.y, b->hi.y);
        sccd_adapter_spread_add(&spread[1], b->lo.z, b->hi.z);
        x->entry[kept++] = e;
    }
    x->count = kept;
    return true;
}

/* The entries and the spare buffer swap places (a pass of the radix sort
 * or the cut wrote the spare one). */
static inline void sccd_adapter_sorted_swap(sccd_adapter_sorted *x)
{
    sccd_adapter_sorted_entry *t = x->entry;
    int cap = x->capentry;
    x->entry = x->spare;
    x->capentry = x->capspare;
    x->spare = t;
    x->capspare = cap;
}

enum { SCCD_ADAPTER_RADIX_BITS = 8, SCCD_ADAPTER_RADIX = 1 << SCCD_ADAPTER_RADIX_BITS, SCCD_ADAPTER_DIGITS = 3 };

/* A stable radix sort of the entries by their keys (from least, the
 * least low x), a byte a pass, every digit counted in the pass that keys
 * them; a digit all entries share (the high bits of a scene's distances)
 * costs no pass. False out of memory. */
static inline bool sccd_adapter_sorted_radix(sccd_adapter_sorted *x, sccd_real least)
{
    if (!sccd_adapter_reserve((void **)&x->spare, &x->capspare, x->count, sizeof *x->spare) ||
        !sccd_adapter_reserve((void **)&x->counts, &x->capcounts, SCCD_ADAPTER_DIGITS * SCCD_ADAPTER_RADIX, sizeof *x->counts))
        return false;
    memset(x->counts, 0, (size_t)SCCD_ADAPTER_DIGITS * SCCD_ADAPTER_RADIX * sizeof *x->counts);
    int count = x->count; /* in a local: the stores of counts and entries might alias x->count, read again each time */
    for (int k = 0; k < count; ++k) {
        uint32_t key = x->entry[k].tag = sccd_adapter_sort_key(x->entry[k].lo, least);
        for (int d = 0; d < SCCD_ADAPTER_DIGITS; ++d)
            ++x->counts[d * SCCD_ADAPTER_RADIX + (int)((key >> (d * SCCD_ADAPTER_RADIX_BITS)) & (SCCD_ADAPTER_RADIX - 1))];
    }
    for (int d = 0; d < SCCD_ADAPTER_DIGITS; ++d) {
        int *c = x->counts + d * SCCD_ADAPTER_RADIX, shift = d * SCCD_ADAPTER_RADIX_BITS;
        if (c[(x->entry[0].tag >> shift) & (SCCD_ADAPTER_RADIX - 1)] == count)
            continue; /* one value of this digit: the order stands */
        for (int b = 0, at = 0; b < SCCD_ADAPTER_RADIX; ++b) { /* counts to first places */
            int n = c[b];
            c[b] = at;
            at += n;
        }
        const sccd_adapter_sorted_entry *from = x->entry;
        sccd_adapter_sorted_entry *to = x->spare;
        for (int k = 0; k < count; ++k)
            to[c[(from[k].tag >> shift) & (SCCD_ADAPTER_RADIX - 1)]++] = from[k];
        sccd_adapter_sorted_swap(x);
    }
    return true;
}

/* Up to this many entries an insertion sort alone is cheaper than clearing
 * the radix sort's counts (and a set is not cut in tiles). */
enum { SCCD_ADAPTER_FEW = 64 };

/* Entries a before b: by low x, then by id. */
static inline bool sccd_adapter_sorted_before(sccd_adapter_sorted_entry a, sccd_adapter_sorted_entry b)
{
    return a.lo < b.lo || (a.lo == b.lo && a.id < b.id);
}

static inline int sccd_adapter_sorted_order(const void *p, const void *q)
{
    const sccd_adapter_sorted_entry *a = p, *b = q;
    return sccd_adapter_sorted_before(*a, *b) ? -1 : sccd_adapter_sorted_before(*b, *a) ? 1 : 0;
}

/* Entries e[0 .. n) by low x, ties by id: by insertion for a few; a run
 * longer than that, by qsort (a total order: the same result whatever the
 * order it starts in). */
static inline void sccd_adapter_sorted_run(sccd_adapter_sorted_entry *e, int n)
{
    if (n > SCCD_ADAPTER_FEW) {
        qsort(e, (size_t)n, sizeof *e, sccd_adapter_sorted_order);
        return;
    }
    for (int k = 1; k < n; ++k) {
        sccd_adapter_sorted_entry v = e[k];
        int j = k;
        for (; j > 0 && sccd_adapter_sorted_before(v, e[j - 1]); --j)
            e[j] = e[j - 1];
        e[j] = v;
    }
}

/* The entries by low x, ties by id: few by insertion, more by the radix
 * sort of their keys and then each run of a shared key on its own (in the
 * order they were added, by id). Runs are short: a key is shared only by
 * lows closer than its precision (3e-5) of their distance past the least,
 * but a crowd far past one outlier shares one, and insertion would take
 * quadratic time on it. False out of memory. */
static inline bool sccd_adapter_sorted_sort(sccd_adapter_sorted *x, sccd_real least)
{
    if (x->count <= SCCD_ADAPTER_FEW) {
        sccd_adapter_sorted_run(x->entry, x->count);
        return true;
    }
    if (!sccd_adapter_sorted_radix(x, least))
        return false;
    for (int k = 0, end; k < x->count; k = end) {
        for (end = k + 1; end < x->count && x->entry[end].tag == x->entry[k].tag; ++end) {
        }
        if (end - k > 1)
            sccd_adapter_sorted_run(x->entry + k, end - k);
    }
    return true;
}

/* The tiles across an axis along which `count` boxes spread as s: so many
 * that a tile is SCCD_ADAPTER_TILE_BOXES mean extents wide, at most
 * SCCD_ADAPTER_TILES; one for a set too small or too flat to gain. */
static inline sccd_adapter_tiling sccd_adapter_plan_tiles(sccd_adapter_spread s, int count)
{
    sccd_real n = (s.hi - s.lo) * count / (SCCD_ADAPTER_TILE_BOXES * s.sum); /* points: infinite */
    int tiles = n >= SCCD_ADAPTER_TILES ? SCCD_ADAPTER_TILES : n >= 2.0 ? (int)n : 1;
    sccd_real scale = tiles / (s.hi - s.lo);
    if (count <= SCCD_ADAPTER_FEW || tiles == 1 || !sccd_is_valid_real(scale) || scale <= 0.0)
        return (sccd_adapter_tiling){0.0, 0.0, 1};
    return (sccd_adapter_tiling){s.lo, scale, tiles};
}

/* The tile of coordinate v across a tiling: clamped to the first and the
 * last, it never falls as v grows, so a box and a question that meet
 * across the axis share a tile. With one tile the scale is 0 and v may be
 * infinite: the NaN goes to tile 0 too. */
static inline int sccd_adapter_tile(sccd_adapter_tiling t, sccd_real v)
{
    sccd_real u = (v - t.lo) * t.scale;
    return !(u >= 1.0) ? 0 : u >= t.n - 1 ? t.n - 1 : (int)u;
}

/* The first and last tiles of extent [lo, hi] across a tiling, a byte
 * each (an axis not cut, 2D z, costs nothing). */
static inline uint32_t sccd_adapter_tiles_of(sccd_adapter_tiling t, sccd_real lo, sccd_real hi)
{
    return t.n == 1 ? 0 : (uint32_t)sccd_adapter_tile(t, lo) | (uint32_t)sccd_adapter_tile(t, hi) << 8;
}

/* Each entry's tiles written in its tag (the key is no longer needed): the
 * entries they take in all. */
static inline int64_t sccd_adapter_sorted_mark(sccd_adapter_sorted *x)
{
    int64_t total = 0;
    for (int k = 0; k < x->count; ++k) {
        const sccd_aabb3 *b = &x->box[x->entry[k].id];
        uint32_t tag = sccd_adapter_tiles_of(x->tiling[0], b->lo.y, b->hi.y) | sccd_adapter_tiles_of(x->tiling[1], b->lo.z, b->hi.z) << 16;
        x->entry[k].tag = tag;
        total += (int64_t)((tag >> 8 & 0xff) - (tag & 0xff) + 1) * ((tag >> 24) - (tag >> 16 & 0xff) + 1);
    }
    return total;
}

/* Choose the tiles by the spreads of the boxes, then halve them across the
 * axis cut more while they outnumber the boxes or the boxes would take
 * more than SCCD_ADAPTER_TILE_COPIES entries each (a few boxes across the
 * whole set, each in every tile); the entries they take. */
static inline int64_t sccd_adapter_sorted_plan(sccd_adapter_sorted *x, const sccd_adapter_spread spread[2])
{
    x->tiling[0] = sccd_adapter_plan_tiles(spread[0], x->count);
    x->tiling[1] = sccd_adapter_plan_tiles(spread[1], x->count);
    for (;;) {
        int tiles = x->tiling[0].n * x->tiling[1].n;
        if (tiles == 1)
            return x->count;
        int64_t total = tiles <= x->count ? sccd_adapter_sorted_mark(x) : INT64_MAX;
        if (total <= (int64_t)SCCD_ADAPTER_TILE_COPIES * x->count)
            return total;
        sccd_adapter_tiling *t = &x->tiling[x->tiling[1].n > x->tiling[0].n];
        t->n = (t->n + 1) / 2;
        t->scale *= 0.5;
    }
}

/* Deal entry k to tile t: count it (at tile_start[t + 1]), or place it at
 * the tile's next place (tile_start[t], which moves on). */
static inline void sccd_adapter_sorted_deal_one(sccd_adapter_sorted *x, int k, int t, bool place)
{
    if (place)
        x->spare[x->tile_start[t]++] = x->entry[k];
    else
        ++x->tile_start[t + 1];
}

/* Deal each entry (sorted by low x, its tiles marked) to its tiles; most
 * boxes are in one. */
static inline void sccd_adapter_sorted_deal(sccd_adapter_sorted *x, bool place)
{
    int ni = x->tiling[0].n;
    for (int k = 0; k < x->count; ++k) {
        uint32_t tag = x->entry[k].tag;
        int i0 = (int)(tag & 0xff), j0 = (int)(tag >> 16 & 0xff);
        if (((tag ^ tag >> 8) & 0xff00ff) == 0) {
            sccd_adapter_sorted_deal_one(x, k, i0 + j0 * ni, place);
            continue;
        }
        for (int j = j0; j <= (int)(tag >> 24); ++j)
            for (int i = i0; i <= (int)(tag >> 8 & 0xff); ++i)
                sccd_adapter_sorted_deal_one(x, k, i + j * ni, place);
    }
}

/* Cut the entries (sorted by low x) into the tiles planned, `total` in
 * all, each tile in order: a stable counting sort. False out of memory. */
static inline bool sccd_adapter_sorted_cut(sccd_adapter_sorted *x, int64_t total)
{
    int tiles = x->tiling[0].n * x->tiling[1].n;
    if (total > INT_MAX || !sccd_adapter_reserve((void **)&x->tile_start, &x->captiles, tiles + 1, sizeof *x->tile_start))
        return false;
    x->tile_start[0] = 0;
    x->tile_start[1] = x->count;
    if (tiles == 1)
        return true;
    if (!sccd_adapter_reserve((void **)&x->spare, &x->capspare, (int)total, sizeof *x->spare))
        return false;
    memset(x->tile_start, 0, (size_t)(tiles + 1) * sizeof *x->tile_start);
    sccd_adapter_sorted_deal(x, false);
    for (int t = 1; t <= tiles; ++t) /* counts to first places */
        x->tile_start[t] += x->tile_start[t - 1];
    sccd_adapter_sorted_deal(x, true);
    memmove(x->tile_start + 1, x->tile_start, (size_t)tiles * sizeof *x->tile_start); /* each had moved to the next's first */
    x->tile_start[0] = 0;
    sccd_adapter_sorted_swap(x);
    x->count = (int)total;
    return true;
}

/* Sort the boxes added (before the first question); false out of memory. */
static inline bool sccd_adapter_sorted_build(sccd_adapter_sorted *x)
{
    sccd_real least = INFINITY;
    sccd_adapter_spread spread[2] = {{INFINITY, -INFINITY, 0.0}, {INFINITY, -INFINITY, 0.0}};
    if (!sccd_adapter_sorted_split_wide(x, &least, spread) || !sccd_adapter_sorted_sort(x, least) ||
        !sccd_adapter_sorted_cut(x, sccd_adapter_sorted_plan(x, spread)) ||
        !sccd_adapter_reserve((void **)&x->reach, &x->capreach, x->count, sizeof *x->reach))
        return false;
    for (int t = 0; t < x->tiling[0].n * x->tiling[1].n; ++t) {
        sccd_real reach = -INFINITY;
        for (int k = x->tile_start[t]; k < x->tile_start[t + 1]; ++k) {
            reach = sccd_max(reach, x->box[x->entry[k].id].hi.x);
            x->reach[k] = reach;
        }
    }
    x->sorted = true;
    return true;
}

/* A question being answered (sccd_adapter_sorted_match): its box, its
 * first tiles across y and z, and whom to call. */
typedef struct sccd_adapter_question { sccd_aabb3 box; int i0, j0; sccd_adapter_match_fn *fn; void *context; } sccd_adapter_question;

/* fn for every object of tile (i, j) whose box meets the question's and
 * for which it is the first tile they share: across each axis, the
 * question's first tile or the box's (with one tile, always); false when
 * fn was. */
static inline bool sccd_adapter_sorted_walk(const sccd_adapter_sorted *x, int i, int j, const sccd_adapter_question *q)
{
    int t = i + j * x->tiling[0].n, first = x->tile_start[t], lo = first, hi = x->tile_start[t + 1];
    /* the set and the question through locals (fn does not change them):
     * through the pointers, the call in the walk had them loaded again at
     * every entry */
    const sccd_adapter_sorted_entry *entry = x->entry;
    const sccd_real *reach = x->reach;
    const sccd_aabb3 *box = x->box, question = q->box;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (entry[mid].lo <= question.hi.x)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo - 1; k >= first && reach[k] >= question.lo.x; --k) {
        uint32_t tag = entry[k].tag;
        bool first_shared = (i == q->i0 || (int)(tag & 0xff) == i) && (j == q->j0 || (int)(tag >> 16 & 0xff) == j);
        if (first_shared && sccd_adapter_boxes_meet(box[entry[k].id], question) && !q->fn(entry[k].id, q->context))
            return false;
    }
    return true;
}

/* fn for every object whose box meets box; false when fn was. */
static inline bool sccd_adapter_sorted_match(const sccd_adapter_sorted *x, sccd_aabb3 box, sccd_adapter_match_fn *fn,
                                             void *context)
{
    if (!sccd_is_valid_aabb3(box)) /* a question without a finite box meets everything but NaN */
        box = sccd_adapter_all_box();
    sccd_adapter_question q = {box, sccd_adapter_tile(x->tiling[0], box.lo.y), sccd_adapter_tile(x->tiling[1], box.lo.z), fn, context};
    int i1 = sccd_adapter_tile(x->tiling[0], box.hi.y), j1 = sccd_adapter_tile(x->tiling[1], box.hi.z);
    for (int j = q.j0; j <= j1; ++j)
        for (int i = q.i0; i <= i1; ++i)
            if (!sccd_adapter_sorted_walk(x, i, j, &q))
                return false;
    for (int k = 0; k < x->nwide; ++k)
        if (sccd_adapter_boxes_meet(x->box[x->wide[k]], box) && !fn(x->wide[k], context))
            return false;
    for (int k = 0; k < x->nwild; ++k)
        if (!fn(x->wild[k], context))
            return false;
    return true;
}

/* Questions that scans of every box answer for about the cost of sorting
 * the set (callgrind: sorting and cutting about 300 instructions a box, a
 * box scanned about 10); a set of at most SCCD_ADAPTER_SCANNED boxes is
 * scanned whatever the questions (ODE's static and kinematic geoms about a
 * pile, asked by 200 flying bodies a step: a question to them sorted cost
 * 340 instructions). */
enum { SCCD_ADAPTER_SCANS = 32, SCCD_ADAPTER_SCANNED = 16 };

/* sccd_adapter_sorted_match on a set not sorted: every box added, by id. */
static inline bool sccd_adapter_sorted_scan(const sccd_adapter_sorted *x, sccd_aabb3 box, sccd_adapter_match_fn *fn,
                                            void *context)
{
    if (!sccd_is_valid_aabb3(box)) /* a question without a finite box meets everything but NaN */
        box = sccd_adapter_all_box();
    /* Across x first, from the extents beside the entries (16 bytes a box
     * read in order, not 48 through its id), in one test: most boxes miss
     * there, a coin toss for each bound. The extents are read through a
     * local (fn does not change the set): through x, the call in the loop
     * had them loaded again at every box. */
    const sccd_adapter_span *span = x->span;
    for (int k = 0, count = x->count; k < count; ++k) {
        if (!((span[k].lo <= box.hi.x) & (box.lo.x <= span[k].hi)))
            continue;
        const sccd_aabb3 *b = &x->box[x->entry[k].id];
        if (b->lo.y <= box.hi.y && box.lo.y <= b->hi.y && b->lo.z <= box.hi.z && box.lo.z <= b->hi.z &&
            !fn(x->entry[k].id, context))
            return false;
    }
    for (int k = 0; k < x->nwild; ++k)
        if (!fn(x->wild[k], context))
            return false;
    return true;
}

/* sccd_adapter_sorted_match for a set added since its clear, sorted first
 * if it is not yet (a set of at most SCCD_ADAPTER_SCANNED boxes never: it
 * is scanned). False when fn was, or out of memory. */
static inline bool sccd_adapter_sorted_find(sccd_adapter_sorted *x, sccd_aabb3 box, sccd_adapter_match_fn *fn, void *context)
{
    if (!x->sorted && x->count <= SCCD_ADAPTER_SCANNED)
        return sccd_adapter_sorted_scan(x, box, fn, context);
    return (x->sorted || sccd_adapter_sorted_build(x)) && sccd_adapter_sorted_match(x, box, fn, context);
}

/* sccd_adapter_sorted_find, sorted at a question only once the questions
 * pay for it: this step's, if the step before asked SCCD_ADAPTER_SCANS of
 * them, else past that many this step (a scan of every box answers each
 * until then; at worst twice the cost of knowing the count). A pile on a
 * plane asked about 20 questions a step, and sorting its thousand geoms
 * for them cost 9 % of its CCD. */
static inline bool sccd_adapter_sorted_ask(sccd_adapter_sorted *x, sccd_aabb3 box, sccd_adapter_match_fn *fn, void *context)
{
    ++x->asked;
    if (!x->sorted && x->asked_before < SCCD_ADAPTER_SCANS && x->asked <= SCCD_ADAPTER_SCANS)
        return sccd_adapter_sorted_scan(x, box, fn, context);
    return sccd_adapter_sorted_find(x, box, fn, context);
}

/* Up to this many boxes, an object tests each: cheaper than a question
 * to the sorted set. */
#define SCCD_ADAPTER_SCAN_BOXES 16

/* A step's query boxes: what the CCD bodies' motions (later, the bodies an
 * impact set moving) may reach, all added before the first match. The
 * engine's objects that may move far in a step are matched against them
 * all in one pass: each object asks the boxes, sorted once (sccd_adapter_
 * sorted), with the box of what it may reach (2D boxes at z = 0). The cost
 * grows with the objects plus the boxes, not with their product, and
 * nothing of the engine's is kept from step to step. (The core's
 * incremental broadphase, made and emptied each step, cost three times as
 * many instructions a question: it keeps its order for sets that move a
 * little each step.) A query box that is not finite (a motion that
 * overflowed) meets every object; an object whose box is not finite meets
 * none (it is nowhere to be met). */
typedef struct sccd_adapter_queries {
    sccd_adapter_sorted set; /* the boxes, box i its object i (not finite: the whole space) */
    sccd_aabb3 all;          /* the union of the finite boxes: most objects of a big world meet none, known at once */
    int count, nwild;
    bool scan;               /* scanned box by box until the next clear (few boxes, or no memory to sort them) */
} sccd_adapter_queries;

static inline void sccd_adapter_queries_init(sccd_adapter_queries *q)
{
    *q = (sccd_adapter_queries){.all = sccd_adapter_empty_box()};
}

static inline void sccd_adapter_queries_free(sccd_adapter_queries *q)
{
    sccd_adapter_sorted_free(&q->set);
    sccd_adapter_queries_init(q);
}

/* No boxes (the memory is kept). */
static inline void sccd_adapter_queries_clear(sccd_adapter_queries *q)
{
    sccd_adapter_sorted_clear(&q->set);
    q->count = q->nwild = 0;
    q->all = sccd_adapter_empty_box();
    q->scan = false;
}

/* Add a box (before the first match since the clear): its index (from 0
 * after a clear), -1 when out of memory (the boxes unchanged). */
static inline int sccd_adapter_queries_add(sccd_adapter_queries *q, sccd_aabb3 box)
{
    bool finite = sccd_is_valid_aabb3(box);
    if (sccd_adapter_sorted_add(&q->set, finite ? box : sccd_adapter_all_box()) < 0)
        return -1;
    if (finite)
        q->all = sccd_aabb3_union(q->all, box);
    else
        ++q->nwild;
    return q->count++;
}

/* Query box i (the whole space for one not finite). */
static inline sccd_aabb3 sccd_adapter_queries_box(const sccd_adapter_queries *q, int i) { return q->set.box[i]; }

/* fn for every query box that box meets; false when fn was. */
static inline bool sccd_adapter_queries_match(sccd_adapter_queries *q, sccd_aabb3 box, sccd_adapter_match_fn *fn,
                                              void *context)
{
    if ((q->nwild == 0 && !sccd_adapter_boxes_meet(q->all, box)) || !sccd_is_valid_aabb3(box)) /* a NaN box meets nothing */
        return true;
    /* Sorted at the first match; a sort that ran out of memory may have
     * left its entries half moved: the boxes by index stay whole. */
    q->scan |= q->count <= SCCD_ADAPTER_SCAN_BOXES || (!q->set.sorted && !sccd_adapter_sorted_build(&q->set));
    if (!q->scan)
        return sccd_adapter_sorted_match(&q->set, box, fn, context);
    for (int i = 0; i < q->count; ++i)
        if (sccd_adapter_boxes_meet(q->set.box[i], box) && !fn(i, context))
            return false;
    return true;
}

/* A search for a query box holding a box (sccd_adapter_queries_hold). */
typedef struct sccd_adapter_hold { const sccd_adapter_queries *q; sccd_aabb3 box; bool held; } sccd_adapter_hold;

static inline bool sccd_adapter_hold_met(int box, void *context)
{
    sccd_adapter_hold *h = context;
    h->held = sccd_adapter_box_holds(sccd_adapter_queries_box(h->q, box), h->box);
    return !h->held; /* found: the match stops */
}

/* Whether a query box holds box (a question without a finite box is held
 * by none; a query box not finite holds every finite one: it gathered
 * everything). Out of memory: false (the caller asks the engine). */
static inline bool sccd_adapter_queries_hold(sccd_adapter_queries *q, sccd_aabb3 box)
{
    sccd_adapter_hold h = {q, box, false};
    if (sccd_is_valid_aabb3(box) && sccd_adapter_box_holds(q->all, box))
        sccd_adapter_queries_match(q, box, sccd_adapter_hold_met, &h);
    return h.held;
}

/* A clock's time in seconds. */
static inline double sccd_adapter_clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the calling thread in seconds, for the counters: steady on a
 * shared machine, where wall time would charge other jobs to the CCD. */
static inline double sccd_adapter_cpu_seconds(void) { return sccd_adapter_clock_seconds(CLOCK_THREAD_CPUTIME_ID); }

/* The monotonic clock in seconds, for the short spans timed inside a phase
 * that sccd_adapter_cpu_seconds times (the solver's questions): read
 * without a system call (Linux's vDSO: 24 ns a read here), where the
 * thread's CPU clock makes one (220 ns: two a question were 5-9 % of the
 * CCD's time of Chipmunk's rains and buried swords). Over a few
 * microseconds the two agree unless the thread is descheduled between
 * the reads. */
static inline double sccd_adapter_lap_seconds(void) { return sccd_adapter_clock_seconds(CLOCK_MONOTONIC); }

/* The solver's own CPU time since t0 (sccd_adapter_cpu_seconds), its
 * questions' spans (`asked`, timed by sccd_adapter_lap_seconds) taken off:
 * never below nothing, as a question the thread was descheduled in would
 * take it. */
static inline double sccd_adapter_solve_seconds(double t0, double asked)
{
    double s = sccd_adapter_cpu_seconds() - t0 - asked;
    return s > 0.0 ? s : 0.0;
}

/* Add a solve's counts (sccd_impact_stats st) to an adapter's counters cnt:
 * sccd_cp_counters and sccd_ode_counters name these fields alike (a macro,
 * as the two are different types). */
#define SCCD_ADAPTER_ADD_SOLVE(cnt, st)                                                                                \
    ((cnt).candidates += (uint64_t)(st).candidates, (cnt).tois += (uint64_t)(st).tois,                                \
     (cnt).impacts += (uint64_t)(st).impacts, (cnt).held += (uint64_t)(st).held,                                      \
     (cnt).overlapped += (uint64_t)(st).overlapped, (cnt).failed += (uint64_t)(st).failed)

/* What a query gathers: shapes a body (its surface `reach` far this step,
 * `half` its half thickness) could pass through (sccd_adapter_keeps); a CCD
 * body's queries keep everything (half INFINITY); a flying body's only
 * static and kinematic bodies' (fixed_only). The impact solver asks for
 * what a body it set moving may reach with these (its
 * sccd_impact_reach2/3). */
typedef struct sccd_adapter_keep { sccd_real reach, half; bool fixed_only; } sccd_adapter_keep;

/* Whether a shape `half` thick (half thickness), whose points may move
 * `margin` this step, of a static or kinematic body (`fixed`) or not, must
 * join the solve of a query that keeps k: the solver leaves a pair to the
 * engine by sccd_impact_engine_catches, so a shape no faster can stay out
 * of the solve, and a flying body is not followed against ordinary ones. */
static inline bool sccd_adapter_keeps(sccd_adapter_keep k, sccd_real margin, sccd_real half, bool fixed)
{
    if (k.fixed_only)
        return fixed && !sccd_impact_engine_catches(k.reach + margin, k.half, half, true);
    return k.half == INFINITY || !sccd_impact_engine_catches(k.reach + margin, k.half, half, false);
}

#endif
