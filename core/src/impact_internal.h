/* Private to impact2.c and impact3.c: what the two solvers share that does
 * not depend on the dimension. */
#ifndef SCCD_IMPACT_INTERNAL_H
#define SCCD_IMPACT_INTERNAL_H

#include <stdint.h>
#include <stdlib.h>

#include "sectorccd/impact.h"
#include "unchecked.h"

/* What a body pair's next event is. */
typedef enum impact_event {
    EVENT_NONE,   /* no contact before the step's end */
    EVENT_IMPACT, /* an approaching contact: an impulse */
    EVENT_STOP,   /* a safe time without a found contact (a TOI's cap): stop there */
    EVENT_PENDING /* not searched yet, none before t: searched from `from` once it comes first (sccd_events_run) */
} impact_event;

/* Grow a scratch buffer to hold `need` bytes (doubling, from 256); false
 * when out of memory, the buffer then unchanged. In bytes, so one scratch
 * serves the 2D and the 3D solver alike. */
static inline bool sccd_scratch_reserve(void **buf, size_t *bytes, size_t need)
{
    if (need <= *bytes)
        return true;
    size_t cap = *bytes > 0 ? *bytes : 256;
    while (cap < need)
        cap *= 2;
    void *p = sccd_realloc(*buf, *bytes, cap);
    if (p == NULL)
        return false;
    *buf = p;
    *bytes = cap;
    return true;
}

/* ---- the events of a step, dimension-free (impact_events.c) ---- */

/* How many shape pairs of a body pair keep their own overlap limit in a
 * step; more (a sword against a fifth wall at once) share the strictest. */
#define SCCD_PAIR_CAPS 4

/* The smallest overlap limit the searches of shapes sa, sb set so far this
 * step and the largest shrink of their cores (sa < 0: a free slot). */
typedef struct sccd_shape_cap { int sa, sb; sccd_real cap, shrink; } sccd_shape_cap;

/* Where a distance between two shapes was measured: the midpoint of their
 * closest points and the unit normal from the first to the second (2D:
 * z = 0). */
typedef struct sccd_witness { sccd_v3 point, normal; } sccd_witness;

/* A body pair and its next event (2D contacts have z = 0). */
typedef struct sccd_pair {
    int a, b;
    uint64_t key;          /* its bodies, the lesser first, as one number (the queue's order) */
    impact_event event;
    sccd_real t;
    sccd_real from;        /* EVENT_PENDING: the time its search starts from */
    int sa, sb;            /* the shapes of the event */
    sccd_v3 point, normal; /* the contact at t, normal from a to b */
    bool ignored;          /* begin said no: free for the rest of the step */
    int filter_sa, filter_sb; /* the last shape pair the caller's collide hook was asked about (-1: none) ... */
    bool filter_ok;        /* ... and its answer (sccd_pair_may_collide) */
    int impacts;           /* impulses between the two this step ... */
    sccd_real impact_t;    /* ... the last one's time ... */
    unsigned impact_a, impact_b; /* ... and the segments a and b took from it (sccd_pair_jammed) */
    int stops;             /* fallback stops between the two this step */
    sccd_real left;        /* its event's: how much deeper the pair may still sink while pushed (0: no push) ... */
    sccd_real sunk;        /* ... and how far past its limit it is (a pushed pair's impact lifts it back) */
    int pushes;            /* pushes between the two this step (sccd_event_ops.resolve) */
    sccd_real calm_until;  /* after a push: not searched before this time ... */
    unsigned calm_a, calm_b; /* ... while bodies a and b keep these segments */
    sccd_shape_cap caps[SCCD_PAIR_CAPS]; /* overlap limits of its shape pairs this step (sccd_pair_cap) */
    sccd_real depth_t;     /* when the start depth was measured (-1: never) ... */
    int depth_sa, depth_sb; /* ... for which shapes (sccd_pair_start_depth) */
    sccd_real depth;
    sccd_real apart;       /* the shapes' distance then (a lower bound; 0: they overlap) */
    sccd_real gap_s, gap;  /* the cores' distance at depth_t once shrunk by gap_s (sccd_pair_start_gap; -1: none) */
    sccd_witness gap_at;   /* where that distance was measured */
    sccd_simplex_cache simplex; /* GJK's last simplex of shapes depth_sa, depth_sb (2D), the next distance's start */
    sccd_real closing;     /* how fast (per unit of step time) the motions the search at depth_t saw could close `apart` ... */
    int depth_search;      /* ... and which of its searches that was (sccd_pair_keep_reach) */
    int searches;          /* how many times it was searched */
    int next_a, next_b;    /* the next pair of body a's and of body b's list (-1: none) */
    int searched;          /* the event after which it was last searched (sccd_events_run) */
    int queued;            /* its place in the queue of events (sccd_events; -1: none, -2: put off to the current instant) */
} sccd_pair;

/* Whether pair pr, meeting again at the instant of its last impulse, is
 * jammed: since that impulse an event of another pair moved one of the two
 * (seg_a, seg_b: their segments now), a third body that pressed them
 * together again (a ball between a blade and a pile: blade, ball and pile
 * would trade impulses at the one instant until the pair's cap, then stop
 * all the same). Its meeting is then a stop at once. The same two meeting
 * again with nothing in between (a box landing flat: one corner, then the
 * other) trade impulses as before, and so does a pair with a kinematic
 * body (`kinematic`): its impulses and pushes keep what it presses ahead
 * of it, where the carry a stop gives it let an ODE rotor take a ball
 * pressed into it inside (scene fuzzer, 1 scene in 100,000). */
static inline bool sccd_pair_jammed(const sccd_pair *pr, unsigned seg_a, unsigned seg_b, bool kinematic)
{
    return !kinematic && pr->impacts > 0 && pr->t == pr->impact_t && (seg_a != pr->impact_a || seg_b != pr->impact_b);
}

/* Note pair pr's impulse at its time, its bodies on segments seg_a and seg_b from it (sccd_pair_jammed). */
static inline void sccd_pair_note_impact(sccd_pair *pr, unsigned seg_a, unsigned seg_b)
{
    pr->impact_t = pr->t;
    pr->impact_a = seg_a;
    pr->impact_b = seg_b;
}

/* Whether box outer holds box inner (a 2D world's boxes lie at z = 0). */
static inline bool sccd_box_holds(sccd_aabb3 outer, sccd_aabb3 inner)
{
    return outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y && outer.lo.z <= inner.lo.z && inner.hi.x <= outer.hi.x &&
           inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}

/* Whether a body is followed only because it flies: passed struck (not a
 * CCD body), and no impact or stop of this step has met it yet. */
static inline bool sccd_only_flying(bool struck, bool ccd, int impacts, bool held) { return struck && !ccd && impacts == 0 && !held; }

/* Whether a body passed struck (impact.h: what an earlier step's impacts
 * left flying; `struck`, `ccd`, and what this step did to it: `impacts`,
 * `held`) is not followed against a body of kind `other` (`other_ccd`): an
 * ordinary dynamic body, while no impact of this step has met it. It is
 * followed against what does not move on its own (static and kinematic
 * bodies: walls, floors, animated platforms) and the CCD bodies; against
 * ordinary bodies it is the engine's, as it would be without the CCD
 * (Box2D's rule for bodies that are not bullets: followed against them all,
 * a sword batting a rain cost twice the CCD instructions, cp_overhead
 * "above", and the arena lost as many bodies). Once an impact meets it, it
 * is a body an impact set moving, followed against everything. */
static inline bool sccd_struck_passes(bool struck, bool ccd, int impacts, bool held, sccd_body_kind other, bool other_ccd)
{
    return sccd_only_flying(struck, ccd, impacts, held) && other == SCCD_BODY_DYNAMIC && !other_ccd;
}

/* Whether a discrete step of the engine catches two shapes of half
 * thicknesses ha and hb whose surfaces close at most `rate` in the step,
 * neither a CCD body's: neither surface moves half the thinner one's
 * thickness relative to the other (a pile a bat nudged; a ball's spin
 * moves no surface). For a body followed because it flies (`flying`:
 * sccd_only_flying), what the engine cannot lose: its centre cannot cross
 * the other's middle in one step while they close by less than ha + hb,
 * so the engine's contact pushes it back out on its own side (never a
 * half-space, hb infinite: a struck ball over a plane was searched at
 * every step of its flight, and ODE's pile cost up to twice the CCD
 * instructions). */
static inline bool sccd_engine_catches(sccd_real rate, sccd_real ha, sccd_real hb, bool flying)
{
    return rate < (flying ? ha + hb : 0.5 * sccd_min(ha, hb));
}

/* What the event loop asks of a solver (impact2.c, impact3.c). */
typedef struct sccd_event_ops {
    void (*search)(void *solver, sccd_pair *pair, sccd_real tc, bool wait); /* the pair's next event from time tc (wait: or EVENT_PENDING) */
    bool (*resolve)(void *solver, sccd_pair *pair, int pushed);  /* the contact of an impact (pushed < 0), or of body `pushed` at the pair's overlap limit against the kinematic body pushing it, which then rests while it provably cannot sink past half its slack (begin may set pair->ignored); false: no impulse possible */
    bool (*possible)(const void *solver, int a, int b);           /* whether the bodies may collide at all */
    sccd_aabb3 (*box)(void *solver, int i);                       /* what body i covers over its current segment (2D: z = 0) */
    sccd_body_kind (*kind)(const void *solver, int i);            /* the body's kind */
    bool (*ccd)(const void *solver, int i);                       /* whether body i is a CCD body */
    sccd_real (*inv_mass)(const void *solver, int i);             /* its inverse mass */
    bool (*moves_freely)(const void *solver, int i);              /* dynamic and not stopped */
    int (*carrier)(const void *solver, int i);                    /* the body it rides along with, -1: none */
    void (*hold)(void *solver, int i, sccd_real t, const sccd_pair *against); /* stop body i at t for the rest of the step (what of its velocity runs into against's contact, if any, dropped) */
    void (*halt)(void *solver, int i, sccd_real t);               /* stop body i at t, at rest (it reports no velocity) */
    bool (*settle)(void *solver, const sccd_pair *pair);          /* a jammed pair with a body on a joint: the perfectly inelastic, frictionless impulse at its contact, which its bodies then report; false (nothing done) for two free bodies */
    void (*carry)(void *solver, int i, int k, sccd_real t);       /* body i rides along with k from t */
    bool (*join)(void *solver, int light, int heavy, sccd_real t);/* light rides along with heavy after an inelastic impulse; false: it cannot */
    bool (*gather)(void *solver, int i);                          /* body i's segment changed (asked once an instant is over, about its last segment): take in the bodies the caller's hook appends for what it may reach (sccd_events_grow); false: the solve fails */
} sccd_event_ops;

/* A body in the order of its box's low x at the step start. */
typedef struct sccd_ranked { sccd_real lo; int body; } sccd_ranked;

/* Tiles across one axis: n of them from lo, `scale` tiles a unit (sccd_events). */
typedef struct sccd_tiling { sccd_real lo, scale; int n; } sccd_tiling;

/* The tiles a box meets: y0 .. y1 across y, z0 .. z1 across z (sccd_events). */
typedef struct sccd_span { int y0, y1, z0, z1; } sccd_span;

/* A pair in the queue of events, with what orders it (copied from the pair
 * when it is queued: a comparison then reads the entries alone, not the
 * pairs they name). */
typedef struct sccd_queued {
    sccd_real t;    /* the pair's event time */
    uint64_t order; /* at one time: pending (top bit) after found, then the pair's key */
    int pair;
} sccd_queued;

/* A pair put off to the current instant, with its order there (sccd_events). */
typedef struct sccd_keyed {
    uint64_t order;
    int pair;
} sccd_keyed;

/* The pairs of a step and the loop over their events. Which bodies a box
 * meets is found by sort and sweep along x within tiles across y and z:
 * in each tile, the bodies whose boxes meet it in the order of their
 * boxes' low x at the start, with the running greatest high x, so a query
 * scans down from the last body starting before its box ends and stops
 * where nothing earlier reaches its start, in each tile its box meets (one
 * slab of x alone held the bodies of a whole column of a big pile: 800 a
 * query under 10,000 spheres). A body whose box changed since (an event
 * set it moving) is listed in the tiles its new box meets, in each in the
 * cells across x it meets, scanned by the queries of those cells; a body
 * far wider than the rest (a ground that
 * would reach every query) is scanned by every query. */
typedef struct sccd_events {
    const sccd_event_ops *ops;
    void *solver;
    int bodies;
    sccd_pair *pairs;
    int count;
    sccd_keyed *instant_queue; /* the pairs put off to the current instant, a binary heap by pair (impact_events.c) ... */
    int instant_count;     /* ... how many ... */
    sccd_real instant;     /* ... and that instant */
    sccd_queued *queue;    /* the other pairs with an event (or pending), a binary heap by time, then pair: the earliest first ... */
    int queue_count;       /* ... and how many */
    int round;             /* events taken so far */
    sccd_aabb3 *now;       /* per body: ops->box of its current segment, kept as segments change */
    sccd_aabb3 *boxes;     /* per body: the box it is paired by, holding `now` (its box when last activated or sorted) */
    int *first_pair;       /* per body: the first pair of its list (-1: none) */
    unsigned char *flags;  /* per body: the EVENTS_* flags of impact_events.c */
    sccd_ranked *order;    /* the sorted bodies by tile, in each by low x (`entries` of them; a body in each tile its box meets) ... */
    sccd_real *reach;      /* ... and the greatest high x of the boxes up to each, in its tile */
    int *tile_start;       /* each tile's first entry (one more: the end); tile (y, z) is y + z * tiling[0].n */
    sccd_tiling tiling[2]; /* the tiles across y and across z */
    sccd_span *span;       /* per body: the tiles of its box, while the bodies are sorted */
    int sorted, entries;   /* bodies in the order, and their entries */
    int capacity;          /* bodies the arrays have room for */
    sccd_tiling cells;     /* the cells across x of the moved lists */
    int *moved_head;       /* per tile, per cell and one more (wide bodies): its list of moved bodies (the first entry, -1: none) ... */
    int *moved_body, *moved_next; /* ... each entry's body and the next entry (-1: none) ... */
    int moved_entries;     /* ... the entries so far ... */
    int moved_count;       /* ... and the tiles listed in since the sort (each move's, counted against TILE_COPIES a body) */
    int *lone;             /* the bodies scanned one by one (`lone_count`) */
    int lone_count;
    long scanned;          /* lone bodies the activations scanned since the last sort */
    int *partner;          /* per body: the last activation that took it (its partner, or a body it met: sccd_events_activate) ... */
    int activation;        /* ... and the activations so far */
    int *changed;          /* the bodies whose segments the current event changed (`changed_count`) */
    int changed_count;
    int *unrepaired;       /* the bodies the events of the current instant changed, to be paired and asked about once it is over (`unrepaired_count`) ... */
    int unrepaired_count;
    sccd_real repair_t;    /* ... and that instant */
    sccd_impact_scratch *scratch;
    sccd_impact_stats *stats;
} sccd_events;

/* Start a step's events over `bodies` bodies, in the scratch's memory. False when out of memory. */
bool sccd_events_begin(sccd_events *e, const sccd_event_ops *ops, void *solver, int bodies, sccd_impact_scratch *scratch,
                       sccd_impact_stats *stats);
/* The solver took in bodies up to `bodies` (ops->box works for them): they join the events, unpaired. False when out of memory (the events unchanged). */
bool sccd_events_grow(sccd_events *e, int bodies);
/* Body i becomes active (a CCD body at the start, or set moving; again when its motion outgrows its box): paired with every body whose box meets its box. */
bool sccd_events_activate(sccd_events *e, int i, sccd_real tc);
/* Body i's segment changed (the solver calls it at each change an event makes): its pairs are searched again, its box made anew. */
void sccd_events_changed(sccd_events *e, int i);
/* Take the events in time order until none is left. False when out of memory. */
bool sccd_events_run(sccd_events *e);

/* The cores of a pair shrunk by s (s ≥ 0): how much they shrank in all and,
 * when distance is not NULL, the cores' distance at the start (0: overlap)
 * and, when `at` is not NULL, where it was measured. With s = 0, overlapping
 * shapes read minus their overlap where the distance query measured it
 * (sccd_start_depth). The pair may keep what it measured, for later calls
 * at the same poses. */
typedef sccd_real sccd_shrink_fn(void *pair, sccd_real s, sccd_real *distance, sccd_witness *at);

/* How deep a pair overlaps at the start, at least. The shapes themselves
 * are measured first (*apart: their distance, a lower bound; 0: they
 * overlap): apart, they overlap by nothing, and the cores inside them need
 * no shrinking (the most common case, by far). Rounded shapes whose cores
 * stand apart overlap by both radii less the cores' distance, exactly,
 * and that query measured it (a pile's resting contacts: one distance
 * where the shrinking took three and a half on average). Otherwise cores
 * shrunk by skin, 2·skin, 4·skin, ... until they are apart or cannot
 * shrink further: cores a distance d apart after shrinking by s mean
 * shapes overlapping by at least s − d (the grown cores lie inside the
 * shapes). */
static inline sccd_real sccd_start_depth(sccd_shrink_fn *shrink, void *pair, sccd_real skin, sccd_real *apart)
{
    *apart = 0.0;
    shrink(pair, 0.0, apart, NULL);
    if (*apart > 0.0)
        return 0.0;
    if (*apart < 0.0) {
        sccd_real depth = -*apart;
        *apart = 0.0;
        return depth;
    }
    sccd_real last = -1.0;
    for (sccd_real s = skin;; s *= 2.0) {
        sccd_real d = 0.0;
        sccd_real shrunk = shrink(pair, s, &d, NULL);
        if (d > 0.0 || shrunk <= last)
            return sccd_max(shrunk - d, 0.0);
        last = shrunk;
    }
}

/* The start depth of shapes sa, sb of the pair at time tc (and *apart,
 * sccd_start_depth's), measured once: the poses at tc do not change with
 * the events at tc (an event restarts a segment from the pose it had then),
 * and events come in time order, so a pair searched again at the same time
 * (a pile's events at one instant) keeps its start depth. */
static inline void sccd_pair_start_depth(sccd_pair *pr, int sa, int sb, sccd_real tc, sccd_shrink_fn *shrink,
                                         void *pair, sccd_real skin, sccd_real *depth, sccd_real *apart)
{
    if (pr->depth_t == tc && pr->depth_sa == sa && pr->depth_sb == sb) {
        *depth = pr->depth;
        *apart = pr->apart;
        return;
    }
    if (pr->depth_sa != sa || pr->depth_sb != sb)
        pr->simplex.n = 0;
    *depth = sccd_start_depth(shrink, pair, skin, apart);
    pr->apart = *apart;
    pr->gap_s = -1.0;
    pr->depth_t = tc;
    pr->depth_sa = sa;
    pr->depth_sb = sb;
    pr->depth = *depth;
}

/* Whether shapes `apart` at the start of a search (sccd_start_depth) stay
 * too far apart for any event in it: their distance cannot fall faster than
 * `rate` (per unit of search time), and the cores, inside the shapes, come
 * within a target of their own shrink only when the shapes come within two
 * tolerances (a third for the search's own). No TOI needed. */
static inline bool sccd_out_of_reach(sccd_real apart, sccd_real rate, sccd_real tol) { return apart > rate + 3.0 * tol; }

/* Whether two shapes stay out of reach (sccd_out_of_reach's margin) over a
 * search whose motions turn each body about a centre moving on a straight
 * line: every point of a shape stays within its `reach` (farthest, in all)
 * of its centre, and d0, d1 are the second centre less the first at the
 * search's start and end, so the centres' least distance (the segment
 * d0–d1's from the origin, in closed form) bounds the shapes' from below.
 * The approach bound counts a fast turn at the speed of the farthest core
 * point everywhere (a blade's tip, a box's corner); this does not: around
 * spinning debris in a pile of spheres, 40 % of the shape pairs that bound
 * left to the TOI (measured while it counted the spheres' spin too). */
static inline bool sccd_paths_apart(sccd_v3 d0, sccd_v3 d1, sccd_real reach, sccd_real tol)
{
    sccd_v3 e = sccd_v3_sub(d1, d0);
    sccd_real ee = sccd_v3_len2(e), u = ee > 0.0 ? sccd_clamp(-sccd_v3_dot(d0, e) / ee, 0.0, 1.0) : 0.0;
    return sccd_v3_len(sccd_v3_mad(d0, u, e)) > reach + 3.0 * tol;
}

/* Shapes sa, sb of the pair, searched from tc with an approach bound
 * `rate` (per unit of the search's time, [tc, 1]): keep what their reach
 * was, for the next search. */
static inline void sccd_pair_keep_reach(sccd_pair *pr, sccd_real tc, sccd_real rate)
{
    pr->closing = tc < 1.0 ? rate / (1.0 - tc) : INFINITY;
    pr->depth_search = pr->searches;
}

/* How far apart shapes sa, sb of the pair are at tc at least, known without
 * a distance: the previous search of the pair measured them `apart` at
 * depth_t, and since then they moved by the motions it saw (a pair is
 * searched again at every change of either body's segment), so they are
 * still at least apart − closing·(tc − depth_t) apart. 0: not known. */
static inline sccd_real sccd_pair_kept_apart(const sccd_pair *pr, int sa, int sb, sccd_real tc)
{
    if (pr->depth_sa != sa || pr->depth_sb != sb || pr->depth_search != pr->searches - 1 || !(pr->apart > 0.0) ||
        tc < pr->depth_t)
        return 0.0;
    return tc > pr->depth_t ? pr->apart - pr->closing * (tc - pr->depth_t) : pr->apart;
}

/* Keep `apart` (a bound of the kept distance's) as the pair's distance at
 * tc, for the search from tc, whose approach bound is `rate`. */
static inline void sccd_pair_keep_apart(sccd_pair *pr, sccd_real tc, sccd_real apart, sccd_real rate)
{
    pr->apart = apart;
    pr->depth = 0.0;
    pr->depth_t = tc;
    pr->gap_s = -1.0;
    sccd_pair_keep_reach(pr, tc, rate);
}

/* The time from tc before which shapes `apart` at tc, whose distance falls
 * no faster than `rate` over the rest [tc, 1], stay out of reach
 * (sccd_out_of_reach's margin): tc when not even then; INFINITY when
 * for the whole rest. A rate of 0 (a ball spinning in place beside a wall)
 * gives INFINITY while apart, tc otherwise (0/0 is NaN: no share). */
static inline sccd_real sccd_reach_time(sccd_real apart, sccd_real rate, sccd_real tc, sccd_real tol)
{
    sccd_real share = (apart - 3.0 * tol) / rate;
    return share > 1.0 ? INFINITY : share > 0.0 ? tc + share * (1.0 - tc) : tc;
}

/* sccd_reach_time of shapes sa, sb of the pair from tc, known without a
 * distance (sccd_pair_kept_apart), when it is INFINITY (no event: in a busy
 * pile half the shape pairs past the boxes are out of reach, most of them
 * again at each event of a body near them) or, when the search may `wait`,
 * any time past tc (sccd_events_run puts the search off until then: around
 * a sword in a pile most pairs are some way off, and each of its events
 * would search them all again); tc otherwise. A later time keeps the bound
 * as the pair's distance at tc, for the search from tc that may come. */
static inline sccd_real sccd_pair_apart_until(sccd_pair *pr, int sa, int sb, sccd_real tc, sccd_real rate, sccd_real tol,
                                              bool wait)
{
    sccd_real apart = sccd_pair_kept_apart(pr, sa, sb, tc), until = sccd_reach_time(apart, rate, tc, tol);
    if (until == tc || (!wait && until < INFINITY))
        return tc;
    sccd_pair_keep_apart(pr, tc, apart, rate);
    return until;
}

/* Whether shapes sa, sb of the pair may collide by the caller's hook
 * (NULL: all may), asked once a solve for the shape pair last asked about:
 * for most body pairs their only one. Asked at every search, it was a
 * fortieth of the CCD of swords buried in a pile. */
static inline bool sccd_pair_may_collide(sccd_pair *pr, bool (*collide)(void *, int, int), void *user, int sa, int sb)
{
    if (collide == NULL)
        return true;
    if (pr->filter_sa != sa || pr->filter_sb != sb) {
        pr->filter_sa = sa;
        pr->filter_sb = sb;
        pr->filter_ok = collide(user, sa, sb);
    }
    return pr->filter_ok;
}

/* The overlap limit shapes sa, sb of the pair set so far this step
 * (INFINITY: none yet), and the slot that keeps it: a limit is the shape
 * pair's own (another pair of the two bodies' shapes, apart, would allow a
 * resting one no depth); with every slot taken, the strictest of them
 * stands for it. */
static inline sccd_shape_cap *sccd_pair_cap(sccd_pair *pr, int sa, int sb)
{
    sccd_shape_cap *strictest = &pr->caps[0];
    for (int k = 0; k < SCCD_PAIR_CAPS; ++k) {
        sccd_shape_cap *c = &pr->caps[k];
        if ((c->sa == sa && c->sb == sb) || c->sa < 0) {
            *c = c->sa < 0 ? (sccd_shape_cap){sa, sb, INFINITY, 0.0} : *c;
            return c;
        }
        strictest = c->cap < strictest->cap ? c : strictest;
    }
    return strictest;
}

/* The cores' distance at the start of the pair's search once shrunk by s
 * (call after sccd_pair_start_depth, whose poses it shares; kept with it). */
static inline sccd_real sccd_pair_start_gap(sccd_pair *pr, sccd_real s, sccd_shrink_fn *shrink, void *pair)
{
    if (pr->gap_s != s) {
        shrink(pair, s, &pr->gap, &pr->gap_at);
        pr->gap_s = s;
    }
    return pr->gap;
}

/* Whether a search's first TOI is known without running it: a pair that
 * overlaps at the start (depth > 0) and whose shrunk cores stand `now`
 * apart, within its target and tolerance, touches at once where its start
 * gap was measured (pr->gap_at): that query is the TOI's first, of the same
 * shrunk cores at the same poses. A quarter of the TOIs around swords
 * buried in a pile were these. Cores that overlap (now = 0) go to the TOI,
 * which tells an overlap at the start apart. */
static inline bool sccd_touches_at_start(sccd_real depth, sccd_real now, sccd_real target, sccd_real tol)
{
    return depth > 0.0 && now > 0.0 && now <= target + tol;
}

/* a's part of a shrink s of two shapes that can give up about cap_a and
 * cap_b (their half-thicknesses): in proportion, so each core keeps the
 * same share of its own thickness. Taken from one first, a thin blade's
 * core would vanish while a thick ball kept all of its own, and the whole
 * overlap a pair may reach (SCCD_ROOM_SHARE of what both can give) could lie
 * in the blade. */
static inline sccd_real sccd_shrink_share(sccd_real s, sccd_real cap_a, sccd_real cap_b)
{
    sccd_real total = cap_a + cap_b;
    return total > 0.0 ? s * (cap_a / total) : 0.0;
}

/* The inverse moment of inertia about a hinge at distance² d2 from the centre
 * of mass (parallel axes: I + m·d²); 0 when it is infinite. */
static inline sccd_real sccd_hinge_inv_inertia(sccd_real inv_mass, sccd_real inv_inertia, sccd_real d2)
{
    if (inv_inertia <= 0.0)
        return 0.0;
    if (inv_mass <= 0.0)
        return d2 > 0.0 ? 0.0 : inv_inertia;
    return inv_inertia * inv_mass / (inv_mass + inv_inertia * d2);
}

/* The combined restitution and friction of a pair (the product of the
 * shapes', Chipmunk's rule), restitution within 0..1. */
static inline sccd_real sccd_mix_elasticity(sccd_real a, sccd_real b) { return sccd_clamp(a * b, 0.0, 1.0); }
static inline sccd_real sccd_mix_friction(sccd_real a, sccd_real b) { return sccd_max(a * b, 0.0); }

/* ---- the start-overlap and target policy, shared by the 2D and 3D searches ---- */

/* The cores of a pair are this many overlaps smaller than its shapes: room
 * for the resting overlap of a step plus the solver's residual approach. */
#define SCCD_SKIN_OVERLAPS 3.0

/* How much of a pair's room (how far it can shrink) it may overlap: the
 * scene fuzzer's ODE pass-throughs fell from 2.5 % at a half to 0.3 % here;
 * a quarter failed the core's hinged-rod pass-through test once. */
#define SCCD_ROOM_SHARE 0.35

/* Gauss-Seidel passes over one contact's normal and friction impulses. */
#define SCCD_CONTACT_ITERATIONS 12

/* What a pair's search aims at, from how deep it overlaps at its start
 * (depth) and how much it can shrink (room); see impact2.c's
 * shape_pair_event. A pair may sink a skin deeper than it is (the engine's
 * contact holds a resting or sliding pair; an approach deeper than that is
 * an impact), but never past about a third of its room (a thin rod in a
 * thin wall: little; deeper, a game sees one body sunk in the other, and the
 * cores come near crossing where the next search could not guard them)
 * unless it is that deep already. */
typedef struct sccd_target_policy {
    sccd_real limit;  /* the deepest overlap allowed */
    sccd_real shrink; /* how much to shrink the cores by */
    sccd_real floor;  /* the cores' closest allowed distance (once shrunk) */
    sccd_real target; /* the first search's target distance */
    sccd_real sink;   /* the target after a touch that does not approach */
    sccd_real slack;  /* how much deeper than limit the engine may take the pair (sccd_policy_safe) */
} sccd_target_policy;

/* The policy's limit and shrink from depth and room (call before shrinking).
 * cap: the limit the pair's earlier searches this step allowed (INFINITY at
 * first). Searched again later in the step, a pair finds itself deeper (it
 * may sink while it provably cannot pass, sccd_policy_safe); measured anew,
 * each search would allow a skin more, and the pair would sink step by
 * step through a thin wall within one engine step. Found deeper than the
 * cap (a box's corner reaches past the bound its shrunk core gives), the
 * pair keeps the cap: the deeper overlap is no new allowance. */
static inline sccd_target_policy sccd_policy_begin(sccd_real depth, sccd_real room, sccd_real skin, sccd_real tol,
                                                   sccd_real cap)
{
    sccd_real allowed = sccd_min(sccd_min(SCCD_ROOM_SHARE * room, depth + skin), cap);
    sccd_real limit = cap < INFINITY ? sccd_min(cap, sccd_max(depth, allowed)) : sccd_max(depth, allowed);
    sccd_real slack = sccd_max(SCCD_ROOM_SHARE * room - limit, 0.0);
    return (sccd_target_policy){limit, depth + skin + sccd_max(tol, limit - depth), 0.0, 0.0, 0.0, slack};
}

/* The policy of shapes sa, sb of the pair from the start depth, and the
 * cores' distance *now at its shrink (`guard`: a pair with a CCD body, see
 * below). The shrink never shrinks within a step: the start depth is a
 * lower bound, measured anew at each search, and a search at the time of
 * the pair's own impact read it smaller, so its cores, bigger, overlapped
 * where the last search had left them at its target; the TOI found them
 * overlapping and the pair went to the engine, which let a kinematic rotor
 * through a box it had just struck (scene fuzzer, Chipmunk, 1 scene in
 * 100,000). */
static inline sccd_target_policy sccd_policy_start(sccd_pair *pr, int sa, int sb, bool guard, sccd_real depth,
                                                   sccd_real room, sccd_real skin, sccd_real tol, sccd_shrink_fn *shrink,
                                                   void *pair, sccd_real *now)
{
    sccd_shape_cap *cap = sccd_pair_cap(pr, sa, sb);
    sccd_target_policy pol = sccd_policy_begin(depth, room, skin, tol, cap->cap);
    cap->cap = sccd_min(cap->cap, pol.limit);
    bool own = cap->sa == sa && cap->sb == sb; /* a shared slot holds another shape pair's shrink */
    if (own)
        pol.shrink = sccd_max(pol.shrink, cap->shrink);
    *now = depth > 0.0 ? sccd_pair_start_gap(pr, pol.shrink, shrink, pair) : 0.0;
    /* Cores of a pair with a CCD body that overlap at the shrink the depth's lower bound gives (a box's
     * corner sunk deeper than its shrunk core tells) shrink further, doubling, while they can: overlapping,
     * they were left to the engine, and a kinematic rotor went on through a box it carried (scene fuzzer,
     * Chipmunk). Two ordinary bodies so deep in each other (a pile struck into) stay the engine's: searched,
     * they cost swords batting a rain (cp_overhead's "above") a fifth more CCD instructions. */
    for (sccd_real last = -1.0; guard && depth > 0.0 && *now <= 0.0 && pol.shrink > last && pol.shrink < room;) {
        last = pol.shrink;
        pol.shrink = sccd_min(2.0 * pol.shrink, room);
        *now = sccd_pair_start_gap(pr, pol.shrink, shrink, pair);
    }
    if (own)
        cap->shrink = pol.shrink;
    return pol;
}

/* The targets once the cores shrank by `shrunk` and stand `now` apart at
 * the start (used only when the shapes overlap). False when the pair
 * overlaps and its cores cannot come apart (the engine's contact alone).
 * The event: the shapes touching (apart at the start; a hair apart when the
 * cores cannot shrink), or an overlapping pair sinking to the limit (a push
 * the engine's contact holds is no impact). After a touch that does not
 * approach (sliding, resting) the target sinks: the engine's contact may
 * form, `overlap` deep, then down to the limit.
 * An overlapping pair also sinks no more than limit − depth from where it
 * stands: the start depth is a lower bound measured at a smaller shrink
 * than this search's, and a box's corner sunk in a capsule reads deeper the
 * smaller the shrink (the shrunk box's corner recedes by √3 of it). Held
 * only to `shrunk − limit`, a motor blade crushing a wedged body would sink
 * by that difference in every step, each step measuring its start depth
 * anew, until it cut through (scene fuzzer, ODE). A pair whose cores stand
 * nearer than the limit would put them is past it already (the start depth
 * is a lower bound: a box's corner sunk in a capsule reads deeper the more
 * of the shrink the box takes): it may sink no further than it stands.
 * Its target was farther than the cores, the TOI found them overlapping at
 * once, and the pair was left to the engine, which a motor pressing a box
 * into a thin wall then pushed through (scene fuzzer, Chipmunk, 1 scene in
 * 20,000). Not even a tolerance: allowed one, a slow motor pressed a thin
 * box a tolerance deeper into a plane every step, each step measuring from
 * where it stood, until it went through (scene fuzzer, ODE, 1 in 100,000).
 * Only against a static body and where `now` is the cores' distance
 * (`settle`): to a target that is an intersection of bounds (3D)
 * it is the greatest of the distances to the bounds, a lower bound, and a
 * floor below it let a flyer through a thin cylinder in the core's tests;
 * between two moving bodies (a kinematic blade and a flyer, two CCD
 * bodies) the scene fuzzer found pass-throughs with it (4 in 10,000). */
static inline bool sccd_policy_targets(sccd_target_policy *p, sccd_real depth, sccd_real shrunk, sccd_real now, bool settle,
                                       sccd_real overlap, sccd_real tol)
{
    p->floor = sccd_max(shrunk - p->limit, 2.0 * tol);
    if (depth > 0.0 && shrunk - depth < 2.0 * tol)
        return false;
    if (depth > 0.0)
        p->floor = sccd_max(p->floor, now - sccd_max(p->limit - depth, 0.0));
    if (depth > 0.0 && settle) /* past its limit already (the cores nearer than the limit puts them): no deeper than it stands */
        p->floor = sccd_min(p->floor, sccd_max(now, 2.0 * tol));
    p->target = depth > 0.0 ? p->floor : sccd_max(shrunk, 2.0 * tol);
    p->sink = depth > 0.0 ? p->floor : sccd_max(shrunk - sccd_min(overlap, p->limit), p->floor);
    return true;
}

/* The next target after a touch that did not approach; false when the
 * pair is at its limit already (it may not sink: the search stops there). */
static inline bool sccd_policy_sink(sccd_target_policy *p)
{
    if (p->target <= p->floor)
        return false;
    p->target = p->target > p->sink ? p->sink : p->floor;
    return true;
}

/* Whether a pair touching at the closing speed `approach` (per second) meets
 * in an impact: when it would sink more than a contact skin (overlap)
 * within a step, or it is at its limit already (a motor pressing a blade
 * into a thin wall the engine's contact cannot hold). Slower, a body is
 * resting or settling on the other: it may sink by a skin (sccd_policy_
 * targets' sink, then its limit), and the engine's contact takes it next
 * step. Answered with impulses, a resting pair was kept exactly touching,
 * so the engine never made its contact and the solver met it again every
 * step: impulses at one point of a plank lying on a floor under a box spun
 * it until the pair's impulse cap held it, at every step, for good; and a
 * resting body never fell asleep. */
static inline bool sccd_is_impact(sccd_real approach, sccd_real depth, const sccd_target_policy *p, sccd_real dt,
                                  sccd_real overlap)
{
    return approach > 0.0 && (depth >= p->limit || approach * dt > overlap);
}

/* How the gap of a touching pair can change along its contact normal n
 * (toi.c's bound g(u + Δ) ≥ g(u) − βΔ − ½κΔ², per unit of search time): β
 * the approach rate of the supporting points along n, κ a bound of its
 * growth from the turns. */
typedef struct sccd_gap_rate { sccd_real beta, kappa; } sccd_gap_rate;

/* Whether a pair resting at its limit at time u (of its search) can be left
 * to the engine's contact for the rest of the step: its cores, `floor`
 * apart (a tolerance less at worst), cannot cross, by the pair's rate bound
 * or by the gap bound along the contact normal, so it cannot pass through.
 * The normal's bound keeps a body resting on a platform that turns under
 * it (a rotor about the contact normal) with the engine: the rate bound
 * sees the platform's speed, the normal none of it. Otherwise the pair
 * must stop there (it may not sink further). Left to the engine, the pair
 * may sink no deeper than SCCD_ROOM_SHARE of its room (its slack): by the
 * cores' margin alone, a motor pressing a body wedged against a wall would
 * sink it a skin deeper every step. (The slack alone, without the cores'
 * margin, let a motor press a ball into a static box: scene fuzzer,
 * Chipmunk seed 99; at a thin skin a pushed pair is followed by pushes
 * instead, sccd_event_ops.resolve.) */
static inline bool sccd_policy_safe(const sccd_target_policy *p, sccd_gap_rate g, sccd_real rate, sccd_real u,
                                    sccd_real tol)
{
    sccd_real rest = 1.0 - u, margin = sccd_min(p->floor - tol, p->slack);
    return rate * rest < margin || sccd_max(g.beta, 0.0) * rest + 0.5 * g.kappa * rest * rest < margin;
}

/* Where the cores (shrunk by the policy's shrink) of a pair stopped at
 * its limit stand: at the target (the search found them there) or,
 * overlapping at the start, where they stood if nearer (a pair past its
 * limit: taken at the limit, a pair pushed again and again sank a slack
 * deeper at every push, through a kinematic rotor: scene fuzzer,
 * Chipmunk). */
static inline sccd_real sccd_policy_cores(const sccd_target_policy *p, sccd_real depth, sccd_real now)
{
    return depth > 0.0 ? sccd_min(p->target, now) : p->target;
}

/* How much deeper a pair overlapping by `overlap` may sink while pushed:
 * to half its slack past its limit (its room share bounds the cores'
 * overlap, and a box's corner sinks deeper than its shrunk core tells:
 * pushed to the whole share, a flyer box sank into a thin rotor further
 * than the scene fuzzer allows). A pair apart has no more room for that:
 * its negative overlap counted as room, a pair with none to shrink was
 * pushed, its cores met, it was left to the engine, and a rotor went
 * through a flyer (scene fuzzer, Chipmunk seeds 5 and 11). */
static inline sccd_real sccd_policy_push_room(const sccd_target_policy *p, sccd_real overlap)
{
    return sccd_max(p->limit + 0.5 * p->slack - sccd_max(overlap, 0.0), 0.0);
}

/* Most pushes between two bodies in a step (sccd_event_ops.resolve); then the
 * pushed body rides along with its pusher. */
#define SCCD_PAIR_PUSHES 32

/* How long (in the search's time, at most 1) a pair with `left` to sink
 * provably cannot sink that far, by the pair's rate bound or by the gap
 * bound along its contact normal: the longer of the two spans (each alone
 * suffices), a hair short of it. */
static inline sccd_real sccd_calm_span(sccd_gap_rate g, sccd_real rate, sccd_real left)
{
    sccd_real beta = sccd_max(g.beta, 0.0);
    sccd_real by_rate = rate > 0.0 ? left / rate : 1.0;
    sccd_real by_gap = g.kappa > 0.0 ? 2.0 * left / (beta + sqrt(beta * beta + 2.0 * g.kappa * left)) : beta > 0.0 ? left / beta : 1.0;
    return sccd_min(0.99 * sccd_max(by_rate, by_gap), 1.0);
}

/* How long (in the search's time) a touching pair provably keeps its gap,
 * from toi.c's bound g(u + Δ) ≥ g(u) − βΔ − ½κΔ²: when β < 0 the gap stays
 * for Δ ≤ 2|β|/κ (forever when nothing turns); otherwise only the time to
 * move one tolerance at the pair's rate bound. */
static inline sccd_real sccd_separating_span(sccd_gap_rate g, sccd_real tol, sccd_real rate)
{
    sccd_real crawl = sccd_max(tol / rate, 1e-9);
    if (g.beta >= 0.0)
        return crawl;
    return g.kappa > 0.0 ? sccd_max(2.0 * -g.beta / g.kappa, crawl) : 1.0;
}

/* The impulse along a direction that changes the approach speed along it
 * from `speed` to −restitution·speed, for pair inverse mass k. */
static inline sccd_real sccd_impulse_along(sccd_real speed, sccd_real restitution, sccd_real k)
{
    return (1.0 + restitution) * speed / k;
}

/* What a begin hook left in the contact's restitution and friction, made
 * usable: restitution within 0..1, friction ≥ 0, NaN as 0. */
static inline sccd_real sccd_clean_elasticity(sccd_real e) { return sccd_is_valid_real(e) ? sccd_clamp(e, 0.0, 1.0) : 0.0; }
static inline sccd_real sccd_clean_friction(sccd_real f) { return sccd_is_valid_real(f) ? sccd_max(f, 0.0) : 0.0; }

/* Solve m·x = u for an n×n m (row-major, n ≤ 6) by Gaussian elimination
 * with partial pivoting; false when m is singular (a pivot below 1e-12 of
 * the largest entry). */
static inline bool sccd_solve_linear(int n, const sccd_real *m, const sccd_real *u, sccd_real *x)
{
    sccd_real a[6][7], scale = 0.0;
    if (n < 1 || n > 6)
        return false;
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            a[r][c] = m[n * r + c];
            scale = sccd_max(scale, fabs(a[r][c]));
        }
        a[r][n] = u[r];
    }
    for (int c = 0; c < n; ++c) {
        int best = c;
        for (int r = c + 1; r < n; ++r)
            best = fabs(a[r][c]) > fabs(a[best][c]) ? r : best;
        if (!(fabs(a[best][c]) > 1e-12 * scale))
            return false;
        for (int k = 0; k <= n; ++k) {
            sccd_real tmp = a[c][k];
            a[c][k] = a[best][k];
            a[best][k] = tmp;
        }
        for (int r = c + 1; r < n; ++r) {
            sccd_real f = a[r][c] / a[c][c];
            for (int k = c; k <= n; ++k)
                a[r][k] -= f * a[c][k];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        sccd_real s = a[r][n];
        for (int k = r + 1; k < n; ++k)
            s -= a[r][k] * x[k];
        x[r] = s / a[r][r];
    }
    return true;
}

/* A power of 2 within a factor 2 of a body's radius of gyration, √(inv_mass
 * / inv_inertia) (1 where that is not a positive finite number): scaled
 * with the scene by a power of 2, it scales by the same power exactly. */
static inline sccd_real sccd_gyration_unit(sccd_real inv_mass, sccd_real inv_inertia)
{
    sccd_real g2 = inv_mass / inv_inertia;
    if (!(g2 > 0.0 && g2 < INFINITY))
        return 1.0;
    int e = ilogb(g2);
    return ldexp(1.0, e >= 0 ? e / 2 : -((1 - e) / 2)); /* 2^⌊e/2⌋ */
}

/* sccd_solve_linear for a body response m·(J, L) = (Δv, Δω): the first lin
 * rows and columns linear (impulse, velocity), the rest angular (angular
 * impulse, spin), solved with the angular ones in units of the length ell
 * (L = ell·L', Δω' = ell·Δω: every entry of m then has the one unit of an
 * inverse mass). Mixed, the pivots and the singular test compared entries
 * of different units, and a scene in other units of length pivoted
 * otherwise (a result apart in its last digits; in units far enough off,
 * a join refused as singular). */
static inline bool sccd_solve_response(int n, int lin, sccd_real ell, const sccd_real *m, const sccd_real *u, sccd_real *x)
{
    sccd_real mm[36], uu[6], d[6];
    if (n < 1 || n > 6)
        return false;
    for (int r = 0; r < n; ++r)
        d[r] = r < lin ? 1.0 : ell;
    for (int r = 0; r < n; ++r) {
        uu[r] = u[r] * d[r];
        for (int c = 0; c < n; ++c)
            mm[n * r + c] = m[n * r + c] * d[r] * d[c];
    }
    if (!sccd_solve_linear(n, mm, uu, x))
        return false;
    for (int r = 0; r < n; ++r)
        x[r] *= d[r];
    return true;
}

#endif
