/* The events of a step (impact_internal.h): the body pairs, each with its
 * next event, taken in time order. Dimension-free: impact2.c and impact3.c
 * give the search, the impact, the fallback and what a body is.
 *
 * A body is paired with the bodies whose boxes (of their segments) meet its
 * own; when an event changes its segment beyond that box it is paired
 * again (rebox), once the instant of the event is over (repair). Only the pairs
 * whose motions an event changed are searched again: the segments of every
 * other body go on unchanged, so their events stand. The
 * loop ends: after SCCD_IMPACT_MAX_EVENTS impacts and pushes, and
 * SCCD_IMPACT_BODY_EVENTS more for each CCD body passed (or
 * SCCD_IMPACT_PAIR_EVENTS impacts between two bodies, more as they push)
 * every event is a stop, and a stop leaves a body still or riding along
 * with another, which only an impact or a push undoes; the stops an impact
 * sets off are budgeted with it (a ball pushed along, pressing another,
 * stops that one again after each push). Past the loop's guard every event
 * left is a last stop, which nothing undoes (last_stop): they end. Dropped
 * there instead, the events left let a rotor sweep on through the ball it
 * was pushing (scene fuzzer, ODE, 1 scene in 100,000). */
#include <stdint.h>
#include <string.h>

#include "impact_internal.h"

/* A body's flags: in the list of bodies the current event changed; its
 * box changed since the sort (its entries in the tiles are stale: it is
 * listed in the tiles' lists of moved bodies instead); scanned one by one
 * (too wide to sort, a box not finite, or too big a box to list in
 * tiles); being dealt into tiles (sort_bodies); to be activated again, its
 * new segment's box outgrowing the box it is paired by (rebox); activated
 * once at least; changed at the current instant, its repair to come
 * (repair). */
#define EVENTS_CHANGED 1u
#define EVENTS_MOVED 2u
#define EVENTS_LONE 4u
#define EVENTS_SORTED 8u
#define EVENTS_OUTGREW 16u
#define EVENTS_ACTIVE 32u
#define EVENTS_UNREPAIRED 64u

/* A body wider than this many times the mean width of the step's boxes is
 * kept out of the sorted order (a ground under a pile would reach every
 * query from its place and make each scan go down to it). */
#define WIDE_BODY 8.0

/* Tiles (sort_bodies): a tile is TILE_BOXES mean extents of the boxes wide
 * across y and z, a box in every tile it meets, at most TILE_COPIES
 * entries a body on average; a tile holds TILE_BODIES bodies on average at
 * least (fewer, and the tiles' bisections cost more than the walks they
 * save). */
#define TILE_BOXES 2.0
#define TILE_COPIES 3
#define TILE_BODIES 8

/* A moved body is listed in the tiles its new box meets if they are at
 * most MOVED_TILES; its listings count TILE_COPIES tiles a body in all
 * (past that, moved bodies are scanned one by one until the next sort). */
#define MOVED_TILES 4

/* In each of its tiles, a moved body is listed in the cells across x its
 * box meets (cells TILE_BOXES mean widths wide), or, if they are more than
 * MOVED_CELLS, in the tile's list of wide bodies; an activation walks the
 * lists of its own cells and the wide list of each of its tiles. A tile is
 * a band across the bodies' whole spread in x (its sorted entries are
 * bisected by x), and its one list of moved bodies was walked whole: around
 * swords buried in a pile, 54 entries an activation, 1.4 % of them met
 * (the CCD's instructions there 1,193.3 -> 1,177.7 M; ODE's rain, whose
 * lists are short, +0.12 %). */
#define MOVED_CELLS 2

/* The bytes the per-body arrays of n bodies take: two boxes, TILE_COPIES
 * entries and their reaches, MOVED_CELLS x TILE_COPIES moved-list entries
 * (2 ints), a span, 8 ints (first pair, lone, changed, unrepaired,
 * partner, a tile's start and two moved-list heads; one more start closes
 * the last tile)
 * and a flag. */
static size_t carve_bytes(size_t n)
{
    return n * (2 * sizeof(sccd_aabb3) + TILE_COPIES * (sizeof(sccd_ranked) + sizeof(sccd_real)) +
                MOVED_CELLS * TILE_COPIES * 2 * sizeof(int) + sizeof(sccd_span) + 8 * sizeof(int) + 1) +
           sizeof(int);
}

/* Lay the per-body arrays of room for n bodies out in block p. */
static void lay_out(sccd_events *e, char *p, size_t n)
{
    e->capacity = (int)n; /* the widest members first: each array stays aligned */
    e->now = (sccd_aabb3 *)p;
    e->boxes = (sccd_aabb3 *)(p += n * sizeof *e->now);
    e->order = (sccd_ranked *)(p += n * sizeof *e->boxes);
    e->reach = (sccd_real *)(p += TILE_COPIES * n * sizeof *e->order);
    e->span = (sccd_span *)(p += TILE_COPIES * n * sizeof *e->reach);
    e->moved_body = (int *)(p += n * sizeof *e->span);
    e->moved_next = (int *)(p += MOVED_CELLS * TILE_COPIES * n * sizeof(int));
    e->first_pair = (int *)(p += MOVED_CELLS * TILE_COPIES * n * sizeof(int));
    e->lone = (int *)(p += n * sizeof(int));
    e->changed = (int *)(p += n * sizeof(int));
    e->unrepaired = (int *)(p += n * sizeof(int));
    e->partner = (int *)(p += n * sizeof(int));
    e->moved_head = (int *)(p += n * sizeof(int));
    e->tile_start = (int *)(p += 2 * n * sizeof(int));
    e->flags = (unsigned char *)(p + (n + 1) * sizeof(int));
}

/* Carve the per-body arrays out of one block of the scratch, for as many
 * bodies as it has room for: the bodies a solve takes in (sccd_events_grow)
 * fit in the block an earlier step grew, not copied to a new one. */
static bool carve(sccd_events *e, sccd_impact_scratch *scratch)
{
    if (!sccd_scratch_reserve(&scratch->events, &scratch->event_bytes, carve_bytes((size_t)e->bodies)))
        return false;
    lay_out(e, scratch->events, (scratch->event_bytes - sizeof(int)) / (carve_bytes(1) - sizeof(int)));
    return true;
}

/* Whether a comes before b: by low x, then by body (a total order, so
 * the order and everything found from it depend on the input alone). */
static bool ranked_before(sccd_ranked a, sccd_ranked b) { return a.lo < b.lo || (a.lo == b.lo && a.body < b.body); }

/* Let r[k] sink to its place in the max-heap r[0 .. n). */
static void sift_down(sccd_ranked *r, int k, int n)
{
    sccd_ranked x = r[k];
    for (int c = 2 * k + 1; c < n; c = 2 * k + 1) {
        if (c + 1 < n && ranked_before(r[c], r[c + 1]))
            ++c;
        if (!ranked_before(x, r[c]))
            break;
        r[k] = r[c];
        k = c;
    }
    r[k] = x;
}

/* Heap sort: in place, n log n at worst, and no call per comparison (the
 * library's qsort took 6 % of a pile's solve). */
static void sort_ranked(sccd_ranked *r, int n)
{
    for (int k = n / 2 - 1; k >= 0; --k)
        sift_down(r, k, n);
    for (int end = n - 1; end > 0; --end) {
        sccd_ranked top = r[0];
        r[0] = r[end];
        r[end] = top;
        sift_down(r, 0, end);
    }
}

/* Body i is scanned one by one until the next sort. */
static void make_lone(sccd_events *e, int i)
{
    if (!(e->flags[i] & EVENTS_LONE)) {
        e->flags[i] |= EVENTS_LONE;
        e->lone[e->lone_count++] = i;
    }
}

/* The tile of coordinate v across t, clamped: a box past the bodies'
 * spread falls in an edge tile, so two boxes that meet share a tile (NaN:
 * the first, met by nothing). */
static int tile_of(sccd_tiling t, sccd_real v)
{
    sccd_real u = (v - t.lo) * t.scale;
    return u > 0.0 ? (u < (sccd_real)t.n ? (int)u : t.n - 1) : 0;
}

/* Up to `most` tiles across [lo, hi], each TILE_BOXES mean extents wide. */
static sccd_tiling tiling_over(sccd_real lo, sccd_real hi, sccd_real mean, int most)
{
    sccd_real cells = (hi - lo) / (TILE_BOXES * mean); /* NaN for a flat axis (2D's z) */
    int n = cells >= 2.0 ? (int)sccd_min(cells, (sccd_real)most) : 1;
    return (sccd_tiling){lo, n > 1 ? n / (hi - lo) : 0.0, n};
}

/* Half as many tiles across the same span (at least one). */
static sccd_tiling halved(sccd_tiling t)
{
    int n = t.n > 3 ? t.n / 2 : 1;
    return (sccd_tiling){t.lo, t.scale * n / t.n, n};
}

/* The tiles box b meets (inline: the compiler kept it out of line, and its
 * calls from the activations and rebox cost 1.5 M instructions more around
 * swords buried in a pile). */
static inline sccd_span span_of(const sccd_events *e, sccd_aabb3 b)
{
    return (sccd_span){tile_of(e->tiling[0], b.lo.y), tile_of(e->tiling[0], b.hi.y), tile_of(e->tiling[1], b.lo.z),
                       tile_of(e->tiling[1], b.hi.z)};
}

/* The entries a box takes (one in each tile of span s). */
static int span_tiles(sccd_span s) { return (s.y1 - s.y0 + 1) * (s.z1 - s.z0 + 1); }

/* Whether body i's box can be sorted: finite, not empty across y and z
 * (its width across x is checked apart). The others are scanned one by
 * one, by boxes_meet, as they are. */
static bool box_sortable(sccd_aabb3 b)
{
    return b.lo.y <= b.hi.y && b.lo.z <= b.hi.z && sccd_is_valid_real(b.lo.y) && sccd_is_valid_real(b.hi.y) &&
           sccd_is_valid_real(b.lo.z) && sccd_is_valid_real(b.hi.z);
}

/* Each tile t of span s. */
#define FOR_SPAN(e, s, t)                                                                                               \
    for (int z_ = (s).z0; z_ <= (s).z1; ++z_)                                                                           \
        for (int y_ = (s).y0, t = y_ + z_ * (e)->tiling[0].n; y_ <= (s).y1; t = ++y_ + z_ * (e)->tiling[0].n)

/* The moved list of cell x of tile t (x = cells.n: the tile's wide list). */
static int moved_list(const sccd_events *e, int t, int x) { return t * (e->cells.n + 1) + x; }

/* Every moved list empty. */
static void clear_moved(sccd_events *e)
{
    int lists = e->tiling[0].n * e->tiling[1].n * (e->cells.n + 1);
    for (int k = 0; k < lists; ++k)
        e->moved_head[k] = -1;
    e->moved_entries = 0;
}

/* The moved lists' entries past which list_moved lists every moved body
 * anew, for room for n bodies: MOVED_CELLS x TILE_COPIES a body, which the
 * entries of the current boxes never pass (relist_moved). A test build
 * sets it lower, so that the lists are made anew again and again
 * (test_impact2_last, test_impact3_last). */
#ifndef SCCD_MOVED_ROOM
#define SCCD_MOVED_ROOM(n) (MOVED_CELLS * TILE_COPIES * (n))
#endif

/* The moved lists a sortable box goes in: in each tile of span s, those of
 * cells x0 .. x1 (the wide list's, x0 = x1 = cells.n, past MOVED_CELLS). */
typedef struct sccd_lists {
    sccd_span s;
    int x0, x1;
} sccd_lists;

/* The tiles and cells box b meets, the cells across x low to high (an
 * empty box meets boxes across its ends). Inline, with lists_of: out of
 * line, the calls cost 1.7 M instructions more around swords buried in a
 * pile. */
static inline sccd_lists cells_met(const sccd_events *e, sccd_aabb3 b)
{
    int lo = tile_of(e->cells, b.lo.x), hi = tile_of(e->cells, b.hi.x);
    return (sccd_lists){span_of(e, b), lo < hi ? lo : hi, lo < hi ? hi : lo};
}

/* The moved lists of box b. */
static inline sccd_lists lists_of(const sccd_events *e, sccd_aabb3 b)
{
    sccd_lists l = cells_met(e, b);
    if (l.x1 - l.x0 >= MOVED_CELLS)
        l.x0 = l.x1 = e->cells.n;
    return l;
}

/* Entries for moved body i in lists l. */
static void add_moved(sccd_events *e, int i, sccd_lists l)
{
    FOR_SPAN(e, l.s, t)
    for (int x = l.x0; x <= l.x1; ++x) {
        int list = moved_list(e, t, x);
        e->moved_body[e->moved_entries] = i;
        e->moved_next[e->moved_entries] = e->moved_head[list];
        e->moved_head[list] = e->moved_entries++;
    }
}

/* Every moved body listed anew by its current box, the stale entries of
 * its earlier boxes dropped. Those of the current boxes fit the arrays:
 * each box meets tiles among those of a listing counted in moved_count
 * (TILE_COPIES a body at most), and takes at most MOVED_CELLS entries in
 * each. */
static void relist_moved(sccd_events *e)
{
    clear_moved(e);
    for (int j = 0; j < e->bodies; ++j)
        if ((e->flags[j] & (EVENTS_MOVED | EVENTS_LONE)) == EVENTS_MOVED)
            add_moved(e, j, lists_of(e, e->boxes[j]));
}

/* List moved body i (not lone) in lists l, its box's (an entry of an
 * earlier box may stay in another list: a walk tests the current box);
 * past the room, every moved body anew. */
static void list_moved(sccd_events *e, int i, sccd_lists l)
{
    if (e->moved_entries + span_tiles(l.s) * (l.x1 - l.x0 + 1) > SCCD_MOVED_ROOM(e->capacity))
        relist_moved(e);
    else
        add_moved(e, i, l);
}

/* Moved body i listed in lists l, its box's: its tiles counted against the
 * listings' TILE_COPIES a body; with too many tiles, or the listings past
 * their count, scanned one by one. */
static void list_counted(sccd_events *e, int i, sccd_lists l)
{
    int tiles = span_tiles(l.s);
    if (tiles > MOVED_TILES || e->moved_count + tiles > TILE_COPIES * e->capacity) {
        make_lone(e, i);
        return;
    }
    e->moved_count += tiles;
    list_moved(e, i, l);
}

/* Body i's box changed, or it was taken in: its entries in the tiles (if
 * any) are stale; it is listed in the moved lists its box meets now, or,
 * with a box not finite, scanned one by one. */
static void make_moved(sccd_events *e, int i)
{
    e->flags[i] |= EVENTS_MOVED;
    if (e->flags[i] & EVENTS_LONE)
        return;
    if (!box_sortable(e->boxes[i]))
        make_lone(e, i);
    else
        list_counted(e, i, lists_of(e, e->boxes[i]));
}

/* Moved body i (not lone), listed by box `listed`, took its box now:
 * listed again (list_counted) if that meets tiles `listed` does not, in the
 * lists of its cells if it meets other cells only. Each entry names the
 * body, and a walk tests its current box, so a body moved again within the
 * same tiles is found there as it is, each of its lists walked once for it,
 * not once for each move (around swords buried in a pile a quarter of the
 * entries the activations walked). */
static void move_listed(sccd_events *e, int i, sccd_aabb3 listed)
{
    if (!box_sortable(e->boxes[i])) {
        make_lone(e, i);
        return;
    }
    sccd_lists was = lists_of(e, listed), now = lists_of(e, e->boxes[i]);
    if (!(was.s.y0 <= now.s.y0 && now.s.y1 <= was.s.y1 && was.s.z0 <= now.s.z0 && now.s.z1 <= was.s.z1))
        list_counted(e, i, now);
    else if (was.x0 != e->cells.n && !(was.x0 <= now.x0 && now.x1 <= was.x1)) /* listed wide: walked from every cell */
        list_moved(e, i, now);
}
/* Set aside (make_lone) the bodies that cannot be sorted or are wide, mark
 * the others EVENTS_SORTED and count them; their spread and summed
 * extents into lo, hi and sum. */
static void pick_sorted(sccd_events *e, sccd_v3 *lo, sccd_v3 *hi, sccd_v3 *sum)
{
    sccd_real width = 0.0;
    int finite = 0;
    for (int i = 0; i < e->bodies; ++i) {
        sccd_real w = e->boxes[i].hi.x - e->boxes[i].lo.x;
        if (sccd_is_valid_real(w) && w >= 0.0) {
            width += w;
            ++finite;
        }
    }
    sccd_real wide = finite > 0 ? WIDE_BODY * width / finite : 0.0;
    for (int i = 0; i < e->bodies; ++i) {
        sccd_aabb3 b = e->boxes[i];
        sccd_real w = b.hi.x - b.lo.x;
        if (!(sccd_is_valid_real(w) && w >= 0.0)) {
            if (w > 0.0) /* infinite: it may meet anything */
                make_lone(e, i);
            continue;      /* NaN or empty: it meets nothing */
        }
        if ((w > wide && finite > 1) || !box_sortable(b)) {
            make_lone(e, i);
            continue;
        }
        e->flags[i] |= EVENTS_SORTED;
        ++e->sorted;
        *lo = sccd_v3_min(*lo, b.lo);
        *hi = sccd_v3_max(*hi, b.hi);
        *sum = sccd_v3_add(*sum, sccd_v3_sub(b.hi, b.lo));
    }
}

/* Cut the tiles across y and z for the sorted bodies: TILE_BOXES mean
 * extents wide, then halved across the axis with more of them while the
 * bodies would take more than TILE_COPIES entries each (tall boxes, or a
 * pile of many sizes). Each body's span, made to count its entries, is
 * kept for deal_tiles: made again at each of the deal's two passes, the
 * tiles of a box were 0.9 % of the CCD of swords buried in a pile. */
static void plan_tiles(sccd_events *e, sccd_v3 lo, sccd_v3 hi, sccd_v3 sum)
{
    int most = e->sorted > 2 * TILE_BODIES ? e->sorted / TILE_BODIES : 1;
    e->tiling[0] = tiling_over(lo.y, hi.y, sum.y / e->sorted, most);
    e->tiling[1] = tiling_over(lo.z, hi.z, sum.z / e->sorted, most / e->tiling[0].n);
    for (;;) {
        long entries = 0;
        for (int i = 0; i < e->bodies; ++i)
            if (e->flags[i] & EVENTS_SORTED) {
                e->span[i] = span_of(e, e->boxes[i]);
                entries += span_tiles(e->span[i]);
            }
        if (entries <= (long)TILE_COPIES * e->sorted)
            break;
        if (e->tiling[0].n >= e->tiling[1].n) /* more than one tile across it: the entries exceed the bodies */
            e->tiling[0] = halved(e->tiling[0]);
        else
            e->tiling[1] = halved(e->tiling[1]);
    }
    int tiles = e->tiling[0].n * e->tiling[1].n; /* the moved lists' heads fit in 2 capacity ints */
    e->cells = tiling_over(lo.x, hi.x, sum.x / e->sorted, 2 * (e->capacity / tiles) - 1);
}

/* Deal the sorted bodies into their tiles (a counting sort: each tile's
 * count, its start, then its entries), each tile sorted by low x, with the
 * running greatest high x. */
static void deal_tiles(sccd_events *e)
{
    int tiles = e->tiling[0].n * e->tiling[1].n;
    memset(e->tile_start, 0, (size_t)(tiles + 1) * sizeof(int));
    clear_moved(e);
    e->moved_count = 0;
    for (int i = 0; i < e->bodies; ++i)
        if (e->flags[i] & EVENTS_SORTED)
            FOR_SPAN(e, e->span[i], t) ++e->tile_start[t + 1];
    for (int t = 0; t < tiles; ++t)
        e->tile_start[t + 1] += e->tile_start[t];
    for (int i = 0; i < e->bodies; ++i) /* each tile's start moves on to its end */
        if (e->flags[i] & EVENTS_SORTED) {
            e->flags[i] &= (unsigned char)~EVENTS_SORTED;
            FOR_SPAN(e, e->span[i], t) e->order[e->tile_start[t]++] = (sccd_ranked){e->boxes[i].lo.x, i};
        }
    memmove(e->tile_start + 1, e->tile_start, (size_t)tiles * sizeof(int));
    e->tile_start[0] = 0;
    e->entries = e->tile_start[tiles];
    for (int t = 0; t < tiles; ++t) {
        int first = e->tile_start[t], n = e->tile_start[t + 1] - first;
        sort_ranked(e->order + first, n);
        sccd_real reach = -INFINITY;
        for (int r = first; r < first + n; ++r) {
            reach = sccd_max(reach, e->boxes[e->order[r].body].hi.x);
            e->reach[r] = reach;
        }
    }
}

/* Sort the bodies into tiles by their boxes, the wide ones (and any box
 * not finite) aside. */
static void sort_bodies(sccd_events *e)
{
    sccd_v3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY}, sum = {0.0, 0.0, 0.0};
    e->sorted = 0;
    pick_sorted(e, &lo, &hi, &sum);
    e->tiling[0] = e->tiling[1] = e->cells = (sccd_tiling){0.0, 0.0, 1};
    if (e->sorted > 0)
        plan_tiles(e, lo, hi, sum);
    deal_tiles(e);
}

/* Bodies the lone list may hold before the order is made again: every
 * activation scans them one by one. */
#define LONE_RESORT 32

/* How many lone bodies the activations may scan, per body, before the
 * order is made again: a sort costs about as much a body as scanning this
 * many (a busy step's events left a thousand bodies out of the order
 * under 10,000 spheres, when they were all scanned one by one: a tenth of
 * the solve). */
#define SCAN_RESORT 16

/* Sort every body again by its current box (the moved and lone ones too):
 * each is paired by that box from now on. Smaller than the one it was
 * paired by, it meets no body that it was not paired with. */
static void resort(sccd_events *e)
{
    for (int i = 0; i < e->bodies; ++i) {
        e->flags[i] &= (unsigned char)~(EVENTS_MOVED | EVENTS_LONE);
        e->boxes[i] = e->now[i];
    }
    e->lone_count = 0;
    e->scanned = 0;
    sort_bodies(e);
}

/* Room for `bodies`: a new block twice as big, the old arrays copied in
 * (the scratch's block kept for the next step). */
static bool make_room(sccd_events *e, int bodies)
{
    if (bodies <= e->capacity)
        return true;
    size_t n = (size_t)sccd_max(bodies, 2 * e->capacity), old = (size_t)e->bodies;
    size_t bytes = carve_bytes(n);
    char *p = sccd_realloc(NULL, 0, bytes);
    if (p == NULL)
        return false;
    sccd_events was = *e;
    lay_out(e, p, n);
    memcpy(e->now, was.now, old * sizeof *e->now);
    memcpy(e->boxes, was.boxes, old * sizeof *e->boxes);
    memcpy(e->order, was.order, (size_t)was.entries * sizeof *e->order);
    memcpy(e->reach, was.reach, (size_t)was.entries * sizeof *e->reach);
    memcpy(e->tile_start, was.tile_start, (size_t)(was.tiling[0].n * was.tiling[1].n + 1) * sizeof(int));
    memcpy(e->moved_body, was.moved_body, (size_t)was.moved_entries * sizeof(int));
    memcpy(e->moved_next, was.moved_next, (size_t)was.moved_entries * sizeof(int));
    memcpy(e->moved_head, was.moved_head, (size_t)(was.tiling[0].n * was.tiling[1].n * (was.cells.n + 1)) * sizeof(int));
    memcpy(e->first_pair, was.first_pair, old * sizeof(int));
    memcpy(e->lone, was.lone, (size_t)was.lone_count * sizeof(int));
    memcpy(e->changed, was.changed, (size_t)was.changed_count * sizeof(int));
    memcpy(e->unrepaired, was.unrepaired, (size_t)was.unrepaired_count * sizeof(int));
    memcpy(e->partner, was.partner, old * sizeof(int));
    memcpy(e->flags, was.flags, old);
    sccd_free(e->scratch->events);
    e->scratch->events = p;
    e->scratch->event_bytes = bytes;
    return true;
}

bool sccd_events_grow(sccd_events *e, int bodies)
{
    if (!make_room(e, bodies))
        return false;
    for (int i = e->bodies; i < bodies; ++i) {
        e->boxes[i] = e->now[i] = e->ops->box(e->solver, i);
        e->first_pair[i] = -1;
        e->partner[i] = -1;
        e->flags[i] = 0;
        e->bodies = i + 1; /* one of the bodies before make_moved (relist_moved walks them) */
        make_moved(e, i);
    }
    return true;
}

bool sccd_events_begin(sccd_events *e, const sccd_event_ops *ops, void *solver, int bodies, sccd_impact_scratch *scratch,
                       sccd_impact_stats *stats)
{
    *e = (sccd_events){.ops = ops, .solver = solver, .bodies = bodies, .pairs = scratch->pairs,
                       .scratch = scratch, .stats = stats};
    if (!carve(e, scratch))
        return false;
    for (int i = 0; i < bodies; ++i) {
        e->boxes[i] = e->now[i] = ops->box(solver, i);
        e->first_pair[i] = -1;
        e->partner[i] = -1;
        e->flags[i] = 0;
    }
    sort_bodies(e);
    return true;
}

/* The pair after k in body i's list. */
static int next_pair(const sccd_events *e, int k, int i) { return e->pairs[k].a == i ? e->pairs[k].next_a : e->pairs[k].next_b; }

static bool boxes_meet(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

/* ---- the queue of events: binary heaps of the pairs with one ---- */

/* Bodies i and j, the lesser first, as one number (sccd_pair.key). */
static uint64_t bodies_key(int i, int j)
{
    return i < j ? (uint64_t)i << 32 | (uint64_t)j : (uint64_t)j << 32 | (uint64_t)i;
}

/* Pair pr as the queue orders it: by time, at one time the events found
 * before the searches put off (each event there may change bodies of a
 * pair put off, to be put off again unsearched), then by their bodies (the
 * order the events are taken in depends on the input alone, not on the
 * order the pairs were found in). A key holds two body indices below
 * 2^31, so its top bit is free for the pending flag. */
static sccd_queued queued_of(const sccd_events *e, const sccd_pair *pr)
{
    return (sccd_queued){pr->t, (uint64_t)(pr->event == EVENT_PENDING) << 63 | pr->key, (int)(pr - e->pairs)};
}

static bool queue_before(sccd_queued x, sccd_queued y) { return x.t < y.t || (x.t == y.t && x.order < y.order); }

static void queue_put(sccd_events *e, int at, sccd_queued q)
{
    e->queue[at] = q;
    e->pairs[q.pair].queued = at;
}

/* Let entry q, for place `at`, rise, then sink, to its place. */
static void queue_fix(sccd_events *e, int at, sccd_queued q)
{
    while (at > 0 && queue_before(q, e->queue[(at - 1) / 2])) {
        queue_put(e, at, e->queue[(at - 1) / 2]);
        at = (at - 1) / 2;
    }
    for (int c = 2 * at + 1; c < e->queue_count; c = 2 * at + 1) {
        if (c + 1 < e->queue_count && queue_before(e->queue[c + 1], e->queue[c]))
            ++c;
        if (!queue_before(e->queue[c], q))
            break;
        queue_put(e, at, e->queue[c]);
        at = c;
    }
    queue_put(e, at, q);
}

/* Take pair pr out of the heap of events (pr->queued >= 0). */
static void queue_take(sccd_events *e, sccd_pair *pr)
{
    int at = pr->queued;
    pr->queued = -1;
    if (at != --e->queue_count)
        queue_fix(e, at, e->queue[e->queue_count]);
}

/* Pair pr's event changed: in the heap of events, out of it, or moved in
 * it (pr not in the instant's heap). */
static void requeue(sccd_events *e, sccd_pair *pr)
{
    if (pr->event == EVENT_NONE) {
        if (pr->queued >= 0)
            queue_take(e, pr);
        return;
    }
    queue_fix(e, pr->queued >= 0 ? pr->queued : e->queue_count++, queued_of(e, pr));
}

/* The searches put off to the current instant (put_off) are a heap of
 * their own, by key alone (they have one time, and all of them are
 * pending), whose entries' places are not kept: such a pair leaves it
 * only from its top, to be searched (its event then goes into the other
 * heap). The first event is the earlier of the two heaps' firsts, in the
 * one order, so the events are taken as from one heap. In one heap, they
 * made two in three of its fixes around swords buried in a pile (each put
 * off, then taken out again), each move comparing times and writing the
 * pair's place: the CCD's instructions there 1,197.4 -> 1,193.3 M. Its
 * entries hold a pair's order and index alone (sccd_keyed: the instant is
 * kept once), 16 bytes moved at each level, not 24: 1,177.7 -> 1,174.5 M
 * there, ODE's rain -0.19 %. */
#define QUEUED_INSTANT (-2) /* sccd_pair.queued: in the instant's heap */

/* Let entry q, for place `at` of the instant's heap, rise, then sink, to
 * its place. */
static void instant_fix(sccd_events *e, int at, sccd_keyed q)
{
    sccd_keyed *h = e->instant_queue;
    while (at > 0 && q.order < h[(at - 1) / 2].order) {
        h[at] = h[(at - 1) / 2];
        at = (at - 1) / 2;
    }
    for (int c = 2 * at + 1; c < e->instant_count; c = 2 * at + 1) {
        if (c + 1 < e->instant_count && h[c + 1].order < h[c].order)
            ++c;
        if (!(h[c].order < q.order))
            break;
        h[at] = h[c];
        at = c;
    }
    h[at] = q;
}

/* Pending pair pr, put off to pr->t, into the instant's heap. One put off
 * to another time than the pairs there (before theirs, the events' time
 * gone back, which the searches do not give) first moves them into the
 * other heap, each with its time, so the order holds whatever the times. */
static void instant_push(sccd_events *e, sccd_pair *pr)
{
    if (e->instant_count > 0 && e->instant != pr->t)
        while (e->instant_count > 0) {
            sccd_pair *was = &e->pairs[e->instant_queue[--e->instant_count].pair];
            was->queued = -1;
            requeue(e, was);
        }
    if (pr->queued >= 0)
        queue_take(e, pr);
    e->instant = pr->t;
    pr->queued = QUEUED_INSTANT;
    instant_fix(e, e->instant_count++, (sccd_keyed){queued_of(e, pr).order, (int)(pr - e->pairs)});
}

/* The pair whose event comes first (NULL: none left): the earlier of the
 * two heaps' firsts. */
static sccd_pair *earliest(const sccd_events *e)
{
    if (e->instant_count > 0 &&
        (e->queue_count == 0 || queue_before((sccd_queued){e->instant, e->instant_queue[0].order, 0}, e->queue[0])))
        return &e->pairs[e->instant_queue[0].pair];
    return e->queue_count > 0 ? &e->pairs[e->queue[0].pair] : NULL;
}

/* Pair pr, first, out of the instant's heap (if in it), to be searched. */
static void instant_pop(sccd_events *e, sccd_pair *pr)
{
    if (pr->queued != QUEUED_INSTANT)
        return;
    pr->queued = -1;
    if (--e->instant_count > 0)
        instant_fix(e, 0, e->instant_queue[e->instant_count]);
}

/* Room in the queue for n pairs: one block, the heap at its start, the
 * instant's heap from its middle (moved there as the block grows). */
static bool queue_room(sccd_events *e, size_t n)
{
    sccd_impact_scratch *s = e->scratch;
    size_t half = s->queue_bytes / (2 * sizeof(sccd_queued));
    if (!sccd_scratch_reserve(&s->queue, &s->queue_bytes, 2 * n * sizeof(sccd_queued)))
        return false;
    e->queue = s->queue;
    e->instant_queue = (sccd_keyed *)(e->queue + s->queue_bytes / (2 * sizeof(sccd_queued)));
    if (e->instant_count > 0 && e->instant_queue != (sccd_keyed *)(e->queue + half))
        memmove(e->instant_queue, e->queue + half, (size_t)e->instant_count * sizeof(sccd_keyed));
    return true;
}

/* Whether pair pr's bodies have boxes (of their current segments) apart:
 * then it has no event, set here at once, where the solver would test shape
 * pair by shape pair (a fast body struck in a pile has its pairs searched
 * at each of its events, most of them with neighbours it has left behind). */
static bool apart_now(const sccd_events *e, sccd_pair *pr)
{
    if (boxes_meet(e->now[pr->a], e->now[pr->b]))
        return false;
    pr->event = EVENT_NONE;
    pr->t = INFINITY;
    return true;
}

/* Search pair pr's next event from tc (counted: sccd_pair_kept_apart).
 * When it may `wait`, the solver may put the search off while the pair is
 * known to have no event (EVENT_PENDING): an event of either body before
 * then searches it again, and most of a busy body's pairs never come
 * first. */
static void search(sccd_events *e, sccd_pair *pr, sccd_real tc, bool wait)
{
    ++pr->searches;
    if (!apart_now(e, pr))
        e->ops->search(e->solver, pr, tc, wait);
    requeue(e, pr);
}

/* Pair pr is to be searched again from t, when it comes first: its search
 * put off to then (EVENT_PENDING at t itself). An event at the same
 * instant that changes one of its bodies again puts it off again, unsearched:
 * swords buried in a pile took two events in three at the instant of the
 * one before (most at the step's start, pressed into what rests on them),
 * and each searched every pair of the bodies it changed. A pair out of
 * the queue whose bodies' boxes are apart is searched at once (apart_now),
 * as it would be when it came first: a body's box changes only with its
 * segment, which puts its pairs off again (research), each looked at anew
 * (one put off to t already is searched then, its boxes looked at then).
 * In the queue, each such pair rose to its top and fell out again. One in
 * the queue is put off as before: taken out at once, it went back in when
 * its boxes met again at the same instant (swords buried in a pile). */
static void put_off(sccd_events *e, sccd_pair *pr, sccd_real t)
{
    if (pr->event == EVENT_PENDING && pr->t == t && pr->from == t && pr->queued != -1)
        return; /* put off to then already: its place in the queue holds */
    pr->from = t;
    if (pr->queued == -1 && apart_now(e, pr)) {
        ++pr->searches;
        return;
    }
    pr->event = EVENT_PENDING;
    pr->t = t;
    instant_push(e, pr);
}

/* Pair bodies i and j, whose boxes meet and that are not paired yet (j
 * not marked by this activation of i: sccd_events_activate checked both),
 * if they may collide, the new pair searched from tc when it comes first
 * (put_off); j is marked either way (met again in another tile, or listed
 * again as it moved, it is passed at once). False when out of memory. */
static bool pair_with(sccd_events *e, int i, int j, sccd_real tc)
{
    e->partner[j] = e->activation;
    if (!e->ops->possible(e->solver, i, j))
        return true;
    size_t n = (size_t)e->count + 1;
    if (!sccd_scratch_reserve(&e->scratch->pairs, &e->scratch->pair_bytes, n * sizeof *e->pairs) || !queue_room(e, n))
        return false;
    e->pairs = e->scratch->pairs;
    int k = e->count++;
    sccd_pair *pr = &e->pairs[k];
    *pr = (sccd_pair){.a = i, .b = j, .key = bodies_key(i, j), .event = EVENT_NONE, .t = INFINITY, .sa = -1, .sb = -1, .depth_t = -1.0,
                      .depth_sa = -1, .depth_sb = -1, .gap_s = -1.0, .depth_search = -1, .filter_sa = -1, .filter_sb = -1,
                      .next_a = e->first_pair[i], .next_b = e->first_pair[j], .searched = e->round, .queued = -1};
    for (int c = 0; c < SCCD_PAIR_CAPS; ++c)
        pr->caps[c] = (sccd_shape_cap){-1, -1, INFINITY, 0.0};
    e->first_pair[i] = k;
    e->first_pair[j] = k;
    put_off(e, pr, tc);
    return true;
}

/* The last entry of tile t whose body starts at or before x, plus one. */
static int ranks_before(const sccd_events *e, int t, sccd_real x)
{
    int lo = e->tile_start[t], hi = e->tile_start[t + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (e->order[mid].lo <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Pair body i (its box: box) with the bodies of moved list `list` whose
 * boxes meet box. A moved body is marked at its first look whether its box
 * meets or not: each of its entries holds that one box (marked only when
 * they met, a body moved again and again was tested at each of its
 * entries: 5 % of the activations' instructions around swords buried in a
 * pile). */
static bool walk_moved(sccd_events *e, int i, sccd_aabb3 box, int list, sccd_real tc)
{
    for (int k = e->moved_head[list]; k >= 0; k = e->moved_next[k]) {
        int j = e->moved_body[k];
        if (e->partner[j] == e->activation)
            continue;
        e->partner[j] = e->activation;
        if (boxes_meet(box, e->boxes[j]) && !pair_with(e, i, j, tc))
            return false;
    }
    return true;
}

/* Pair body i (its box: box, meeting cells l) with the bodies of tile t
 * whose boxes meet box: its sorted entries, then the moved bodies of its
 * cells and its wide ones. Most of those walked are apart or paired
 * already: told here, without a call. A body in several tiles or cells (or
 * listed again as it moved) is taken at the first: the activation's mark
 * tells the others. */
static bool walk_tile(sccd_events *e, int i, sccd_aabb3 box, int t, sccd_lists l, sccd_real tc)
{
    for (int r = ranks_before(e, t, box.hi.x) - 1; r >= e->tile_start[t] && e->reach[r] >= box.lo.x; --r) {
        int j = e->order[r].body;
        if (e->partner[j] != e->activation && !(e->flags[j] & EVENTS_MOVED) && boxes_meet(box, e->boxes[j]) && !pair_with(e, i, j, tc))
            return false;
    }
    for (int x = l.x0; x <= l.x1; ++x)
        if (!walk_moved(e, i, box, moved_list(e, t, x), tc))
            return false;
    return walk_moved(e, i, box, moved_list(e, t, e->cells.n), tc);
}

bool sccd_events_activate(sccd_events *e, int i, sccd_real tc)
{
    e->scanned += e->lone_count;
    if (e->lone_count > LONE_RESORT && e->scanned > SCAN_RESORT * (long)e->bodies)
        resort(e);
    sccd_aabb3 box = e->boxes[i];
    e->flags[i] |= EVENTS_ACTIVE;
    int mark = ++e->activation;
    e->partner[i] = mark;
    for (int k = e->first_pair[i]; k >= 0; k = next_pair(e, k, i)) /* its partners, marked: a candidate is checked at once */
        e->partner[e->pairs[k].a == i ? e->pairs[k].b : e->pairs[k].a] = mark;
    sccd_lists l = cells_met(e, box);
    FOR_SPAN(e, l.s, t)
    if (!walk_tile(e, i, box, t, l, tc))
        return false;
    for (int k = 0; k < e->lone_count; ++k) {
        int j = e->lone[k];
        if (e->partner[j] != e->activation && boxes_meet(box, e->boxes[j]) && !pair_with(e, i, j, tc))
            return false;
    }
    return true;
}

void sccd_events_changed(sccd_events *e, int i)
{
    if (!(e->flags[i] & EVENTS_CHANGED)) {
        e->flags[i] |= EVENTS_CHANGED;
        e->changed[e->changed_count++] = i;
    }
}

/* Search again, from t, the pair of the last event and every pair one of
 * whose bodies' segments that event changed (the pair, what rode along
 * with them, what a fallback released or stopped), each once: put off
 * until they come first (put_off). */
static void research(sccd_events *e, sccd_pair *event, sccd_real t)
{
    event->searched = e->round;
    put_off(e, event, t);
    for (int c = 0; c < e->changed_count; ++c) {
        int i = e->changed[c];
        for (int k = e->first_pair[i]; k >= 0; k = next_pair(e, k, i))
            if (e->pairs[k].searched != e->round) {
                e->pairs[k].searched = e->round;
                put_off(e, &e->pairs[k], t);
            }
    }
}

/* The changed bodies' new boxes (before their pairs are searched again).
 * A body is paired by a box holding its segment's (the one it had when
 * last activated or sorted; only bodies whose segments' boxes meet are
 * searched), so that an active body is paired with every body whose
 * pairing box meets its own: its activation paired it with each, and a
 * pairing box grows only at an activation (a sort shrinks it). A new
 * segment's box that the pairing box of an active body still holds (a
 * blade slowed by what it struck turns through less of the same arc)
 * meets no body it is not paired with: no activation, no entries. One
 * that outgrew it, or the first change of a body never activated, takes
 * it as its pairing box, listed in its tiles, and is activated with it
 * once the instant is over (repair). */
static void rebox(sccd_events *e)
{
    for (int c = 0; c < e->changed_count; ++c) {
        int i = e->changed[c];
        e->now[i] = e->ops->box(e->solver, i);
        if (!(e->flags[i] & EVENTS_ACTIVE) || !sccd_box_holds(e->boxes[i], e->now[i])) {
            sccd_aabb3 listed = e->boxes[i];
            e->boxes[i] = e->now[i];
            e->flags[i] |= EVENTS_OUTGREW;
            if (!(e->flags[i] & EVENTS_MOVED))
                make_moved(e, i); /* its place in the order is of its old box */
            else if (!(e->flags[i] & EVENTS_LONE))
                move_listed(e, i, listed);
        }
    }
}

/* The bodies the current event changed, to be repaired once the instant
 * is over (repair); the event's list empty again. */
static void defer_repairs(sccd_events *e, sccd_real t)
{
    for (int c = 0; c < e->changed_count; ++c) {
        int i = e->changed[c];
        e->flags[i] &= (unsigned char)~EVENTS_CHANGED;
        if (!(e->flags[i] & EVENTS_UNREPAIRED)) {
            e->flags[i] |= EVENTS_UNREPAIRED;
            e->unrepaired[e->unrepaired_count++] = i;
        }
    }
    e->changed_count = 0;
    e->repair_t = t;
}

/* The new pairs of the bodies the events of an instant changed, once it is
 * over: their new motions may meet bodies they were not paired with
 * (rebox), some of them bodies the caller had not passed (ops->gather asks
 * for those: a body it took in is paired with the one that asked). Each
 * new pair is searched from that instant (put off to it: it comes first),
 * so what it finds there is taken there all the same, after the instant's
 * other events; time moves past the instant only after them. Once an
 * instant, not once an event: the events of one instant are most of a
 * pile's (a blade pressing into it, what its impulses press on: 58 % of
 * them at the instant of the one before around swords buried in a pile),
 * and a body an instant's events change again and again asked about each
 * of its motions in turn (callgrind, the medians of rains 0-6 of the
 * CCD's instructions, each rain's course changed: swords buried in a
 * pile 1,182.0 -> 1,166.1 M, the 1,000 + 100 debris rain 193.7 -> 189.0
 * M). Then the list is empty again. False when out of memory. */
static bool repair(sccd_events *e)
{
    for (int c = 0; c < e->unrepaired_count; ++c) {
        int i = e->unrepaired[c], known = e->bodies;
        if (!e->ops->gather(e->solver, i))
            return false;
        if (((e->flags[i] & EVENTS_OUTGREW) || e->bodies > known) && !sccd_events_activate(e, i, e->repair_t))
            return false;
    }
    for (int c = 0; c < e->unrepaired_count; ++c)
        e->flags[e->unrepaired[c]] &= (unsigned char)~(EVENTS_UNREPAIRED | EVENTS_OUTGREW);
    e->unrepaired_count = 0;
    return true;
}

/* The earliest event, the searches put off until it searched: a pending
 * pair that comes first may have an event from its time on, so it is
 * searched then (from the time it was put off: its motions are those it
 * had then). One put off while known to have none before its time is
 * never put off again; one put off unsearched (put_off: its time is the
 * one it is searched from) may be, to a later time. */
static sccd_pair *earliest_found(sccd_events *e)
{
    for (;;) {
        sccd_pair *pr = earliest(e);
        if (pr == NULL || pr->event != EVENT_PENDING)
            return pr;
        instant_pop(e, pr);
        search(e, pr, pr->from, pr->t == pr->from);
    }
}

/* The earliest event (NULL: none left; *failed when out of memory), the
 * repairs of the instant before it done first (repair). */
static sccd_pair *earliest_event(sccd_events *e, bool *failed)
{
    for (;;) {
        sccd_pair *pr = earliest_found(e);
        if (e->unrepaired_count == 0 || (pr != NULL && pr->t <= e->repair_t))
            return pr;
        if (!repair(e)) {
            *failed = true;
            return NULL;
        }
    }
}

/* The body that moves body i: what it rides along with, else itself. */
static int mover(const sccd_events *e, int i)
{
    int c = e->ops->carrier(e->solver, i);
    return c >= 0 ? c : i;
}

/* The fallback that never lets the pair pass. A dynamic body meeting a
 * kinematic one (or a body riding along with one) rides along with it; of
 * two free dynamic bodies the lighter rides along with the heavier (a blade
 * pushing a ball: a push that goes on would take endless impacts), or
 * stops when it cannot or rides along with a third already (a ball crushed
 * between two blades); a dynamic body meeting a static or stopped one
 * stops. A stopped body takes no impulse any more (what hits it bounces
 * off), so none of this adds energy but a kinematic push, and every stop
 * ends a chain of events. A body stopped against a contact reports its
 * velocity less what ran into the contact (an inelastic push off an
 * immovable wall: it only takes energy away); kept whole, a body stopped at
 * the same pose step after step (a stack placed exactly touching, so the
 * engine never sees a contact) gathered speed from gravity without end.
 * A pair of dynamic bodies that stops a second time
 * (one joined to a third, then met again) is jammed: both stop, so such
 * stops cannot go on without end. Two free bodies stop dead (at rest: a
 * velocity kept, an engine's contacts would push the jammed pair harder
 * every step; with the inelastic impulse below, the debris of ccd_scale's
 * 1,000 + 100 rain met at the next step what they had jammed against: its
 * TOIs +48 %). A pair with a body on a joint keeps what the perfectly
 * inelastic impulse at its contact leaves it (settle): stopped dead, a
 * motorised sword lost its whole spin at every jam in a pile, for its
 * motor to give back from rest (cp_overhead, buried: the swords turned at
 * 11.0 rad/s over the pile's steps, sub-stepped 16; so 13.9). (A kinematic body goes
 * on carrying what it meets again: held, it would pass through it.) A pair
 * both of whose movers are fixed in their motion (kinematic or static) and
 * that stops a second time is a body crushed between an animation and what
 * cannot yield (a static wall, a body another kinematic body carries): the
 * animations win and the pair is left to the engine for the rest of the
 * step. Otherwise carry and stop would take turns at the same instant until
 * the solver's guard, in a pile about kinematic rotors at every step. */
static void stop_pair(sccd_events *e, sccd_pair *pr)
{
    const sccd_event_ops *ops = e->ops;
    void *sv = e->solver;
    int a = pr->a, b = pr->b, ma = mover(e, a), mb = mover(e, b);
    ++e->stats->held;
    bool da = ops->kind(sv, a) == SCCD_BODY_DYNAMIC, db = ops->kind(sv, b) == SCCD_BODY_DYNAMIC;
    bool ka = ops->kind(sv, ma) == SCCD_BODY_KINEMATIC, kb = ops->kind(sv, mb) == SCCD_BODY_KINEMATIC;
    bool again = pr->stops++ > 0;
    if (again && !ka && !kb) { /* jammed: what the first stop set going met it again; both stop */
        bool settled = ops->settle(sv, pr);
        for (int k = 0; k < 2; ++k) {
            int i = k == 0 ? a : b;
            if (!ops->moves_freely(sv, i))
                continue;
            if (settled)
                ops->hold(sv, i, pr->t, NULL);
            else
                ops->halt(sv, i, pr->t);
        }
        return;
    }
    bool fixed_a = ops->kind(sv, ma) != SCCD_BODY_DYNAMIC, fixed_b = ops->kind(sv, mb) != SCCD_BODY_DYNAMIC;
    if (again && fixed_a && fixed_b) { /* crushed: the animations win */
        pr->ignored = true;
        return;
    }
    if (da && !ka && kb) {
        ops->carry(sv, a, mb, pr->t);
    } else if (db && !kb && ka) {
        ops->carry(sv, b, ma, pr->t);
    } else if (da && db && !ka && !kb && ops->moves_freely(sv, a) && ops->moves_freely(sv, b)) {
        bool ra = ma != a, rb = mb != b;
        int light = ra != rb ? (ra ? a : b) : ops->inv_mass(sv, a) > ops->inv_mass(sv, b) ? a : b;
        if (ra || rb || !ops->join(sv, light, light == a ? b : a, pr->t))
            ops->hold(sv, light, pr->t, pr);
    } else {
        if (da && ops->moves_freely(sv, a))
            ops->hold(sv, a, pr->t, pr);
        if (db && ops->moves_freely(sv, b))
            ops->hold(sv, b, pr->t, pr);
    }
}

/* How many impulses bodies a and b may exchange in a step. Two dynamic
 * bodies neither of which is a CCD body (a pile a blade struck into) get
 * one: struck bodies pressed together meet again and again, each impulse
 * smaller (the inelastic collapse of a row of balls), so the second meeting
 * joins them instead. */
static int pair_impacts(const sccd_events *e, int a, int b)
{
    const sccd_event_ops *ops = e->ops;
    bool loose = !ops->ccd(e->solver, a) && !ops->ccd(e->solver, b) && ops->kind(e->solver, a) == SCCD_BODY_DYNAMIC &&
                 ops->kind(e->solver, b) == SCCD_BODY_DYNAMIC;
    return loose ? 1 : SCCD_IMPACT_PAIR_EVENTS;
}

/* The body a kinematic body pushes at the pair's overlap limit (-1: none):
 * dynamic, moving freely, riding along with nothing, its partner kinematic
 * and not riding along either, while the pair may still sink (pr->left)
 * and has pushes left this step. A push, not a carry: carried along with
 * the pusher, a ball a bat pushed lost its slide out along the face. */
static int pushed_body(const sccd_events *e, const sccd_pair *pr)
{
    const sccd_event_ops *ops = e->ops;
    if (!(pr->left > 0.0) || pr->pushes >= SCCD_PAIR_PUSHES)
        return -1;
    for (int k = 0; k < 2; ++k) {
        int i = k == 0 ? pr->a : pr->b, j = k == 0 ? pr->b : pr->a;
        if (ops->moves_freely(e->solver, i) && ops->carrier(e->solver, i) < 0 && ops->kind(e->solver, j) == SCCD_BODY_KINEMATIC &&
            ops->carrier(e->solver, j) < 0)
            return i;
    }
    return -1;
}

bool sccd_impact_engine_catches(sccd_real rate, sccd_real ha, sccd_real hb, bool flying)
{
    return sccd_engine_catches(rate, ha, hb, flying);
}

/* The last stop of pair pr, after the guard (sccd_events_run): no impulse,
 * no join, nothing set moving again, so every one of them raises a body
 * for good from moving to stopped (at rest) or riding along with a
 * kinematic body, or from stopped to riding, or leaves the pair to the
 * engine: the last stops end after at most two a body and one a pair. A
 * dynamic body (its mover) meeting a kinematic one rides along with it;
 * one meeting a static body, and two dynamic movers, stop; a pair both of
 * whose movers are fixed in their motion (two animations, or an animation
 * and a wall, with what one carries between) is the engine's, as a
 * crushed pair is in stop_pair, and so is a pair no stop can change (a
 * hinged body a kinematic one meets, which cannot ride along). */
static void last_stop(sccd_events *e, sccd_pair *pr)
{
    const sccd_event_ops *ops = e->ops;
    void *sv = e->solver;
    int ma = mover(e, pr->a), mb = mover(e, pr->b);
    bool fa = ops->kind(sv, ma) != SCCD_BODY_DYNAMIC, fb = ops->kind(sv, mb) != SCCD_BODY_DYNAMIC;
    ++e->stats->held;
    if (fa != fb && ops->kind(sv, fa ? ma : mb) == SCCD_BODY_KINEMATIC) {
        int i = fa ? pr->b : pr->a, k = fa ? ma : mb;
        ops->carry(sv, i, k, pr->t);
        pr->ignored = mover(e, i) != k;
        return;
    }
    bool stopped = false;
    for (int m = 0; m < 2 && !(fa && fb); ++m) {
        int i = m == 0 ? ma : mb;
        if (ops->kind(sv, i) == SCCD_BODY_DYNAMIC && ops->moves_freely(sv, i)) {
            ops->halt(sv, i, pr->t);
            stopped = true;
        }
    }
    pr->ignored = !stopped;
}

/* After event pr at t: the changed bodies' boxes, their pairs searched
 * again, their new pairs once the instant is over (repair). */
static void follow(sccd_events *e, sccd_pair *pr, sccd_real t)
{
    ++e->round;
    rebox(e);
    research(e, pr, t);
    defer_repairs(e, t);
}

/* The events left after the guard, each a last stop, until none is left.
 * They end (last_stop); past a bound they cannot reach, the rest are
 * dropped all the same (counted as failed). False when out of memory. */
static bool last_stops(sccd_events *e)
{
    for (long k = 0;; ++k) {
        bool failed = false;
        sccd_pair *pr = earliest_event(e, &failed);
        if (pr == NULL)
            return !failed;
        if (k > 2L * e->bodies + e->count + 16) {
            ++e->stats->failed;
            return true;
        }
        last_stop(e, pr);
        follow(e, pr, pr->t);
    }
}

/* The events a step takes in time order before the rest are last stops:
 * the impacts and pushes within the caps, and the stops they set off. A
 * test build sets it lower, so that every busy step ends in last stops
 * (tests/test_impact2.c, built again as test_impact2_last). */
#ifndef SCCD_EVENTS_GUARD
#define SCCD_EVENTS_GUARD(bodies, impacts) (SCCD_IMPACT_MAX_EVENTS + 4 * ((bodies) + (impacts)) + 16)
#endif

bool sccd_events_run(sccd_events *e)
{
    int impacts = 0, cap = SCCD_IMPACT_MAX_EVENTS, counted = 0;
    for (int guard = 0; guard < SCCD_EVENTS_GUARD(e->bodies, impacts); ++guard) {
        bool failed = false;
        sccd_pair *pr = earliest_event(e, &failed);
        if (pr == NULL)
            return !failed;
        /* each CCD body's share: the bodies passed, and those taken in
         * since (an adapter may leave a CCD body out until something set
         * moving may reach it), counted once the repairs before this
         * event took them in */
        for (; counted < e->bodies; ++counted)
            cap += e->ops->ccd(e->solver, counted) ? SCCD_IMPACT_BODY_EVENTS : 0;
        int a = pr->a, b = pr->b;
        sccd_real t = pr->t;
        bool can = pr->event == EVENT_IMPACT && impacts < cap && pr->impacts < pair_impacts(e, a, b) + pr->pushes &&
                   (e->ops->moves_freely(e->solver, a) || e->ops->moves_freely(e->solver, b));
        int pushed = pr->event == EVENT_STOP && impacts < cap ? pushed_body(e, pr) : -1;
        if ((can || pushed >= 0) && e->ops->resolve(e->solver, pr, can ? -1 : pushed)) {
            if (pr->ignored) {
                requeue(e, pr); /* nothing moved */
                continue;
            }
            ++impacts;
            if (can)
                ++pr->impacts;
            else
                ++pr->pushes;
        } else {
            stop_pair(e, pr);
        }
        follow(e, pr, t);
    }
    return last_stops(e);
}
