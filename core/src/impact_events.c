/* The events of a step (impact_internal.h): the body pairs, each with its
 * next event, taken in time order. Dimension-free: impact2.c and impact3.c
 * give the search, the impact, the fallback and what a body is.
 *
 * A body is paired with the bodies whose boxes (of their segments) meet its
 * own; when an event changes its segment it is paired again. Only the pairs
 * whose motions an event changed are searched again: the segments of every
 * other body go on unchanged, so their events stand. The
 * loop ends: after SCCD_IMPACT_MAX_EVENTS impacts and pushes, and
 * SCCD_IMPACT_BODY_EVENTS more for each CCD body passed (or
 * SCCD_IMPACT_PAIR_EVENTS impacts between two bodies, more as they push)
 * every event is a stop, and a stop leaves a body still or riding along
 * with another, which only an impact or a push undoes; the stops an impact
 * sets off are budgeted with it (a ball pushed along, pressing another,
 * stops that one again after each push), and the last guard stops the loop
 * all the same (counted as failed). */
#include <string.h>

#include "impact_internal.h"

/* A body's flags: in the list of bodies the current event changed; scanned
 * one by one (its box changed since the sort, or it is too wide to sort). */
#define EVENTS_CHANGED 1u
#define EVENTS_LOOSE 2u

/* A body wider than this many times the mean width of the step's boxes is
 * kept out of the sorted order (a ground under a pile would reach every
 * query from its place and make each scan go down to it). */
#define WIDE_BODY 8.0

/* The bytes the per-body arrays of n bodies take. */
static size_t carve_bytes(size_t n)
{
    return n * (sizeof(sccd_aabb3) + sizeof(sccd_ranked) + sizeof(sccd_real) + 4 * sizeof(int) + 1);
}

/* Lay the per-body arrays of room for n bodies out in block p. */
static void lay_out(sccd_events *e, char *p, size_t n)
{
    e->capacity = (int)n; /* the widest members first: each array stays aligned */
    e->boxes = (sccd_aabb3 *)p;
    e->order = (sccd_ranked *)(p += n * sizeof *e->boxes);
    e->reach = (sccd_real *)(p += n * sizeof *e->order);
    e->first_pair = (int *)(p += n * sizeof *e->reach);
    e->loose = (int *)(p += n * sizeof(int));
    e->changed = (int *)(p += n * sizeof(int));
    e->partner = (int *)(p += n * sizeof(int));
    e->flags = (unsigned char *)(p + n * sizeof(int));
}

/* Carve the per-body arrays out of one block of the scratch. */
static bool carve(sccd_events *e, sccd_impact_scratch *scratch)
{
    size_t n = (size_t)e->bodies;
    if (!sccd_scratch_reserve(&scratch->events, &scratch->event_bytes, carve_bytes(n)))
        return false;
    lay_out(e, scratch->events, n);
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

static void make_loose(sccd_events *e, int i)
{
    if (!(e->flags[i] & EVENTS_LOOSE)) {
        e->flags[i] |= EVENTS_LOOSE;
        e->loose[e->loose_count++] = i;
    }
}

/* Sort the bodies by their boxes' low x, the wide ones (and any box not
 * finite) aside. */
static void sort_bodies(sccd_events *e)
{
    sccd_real sum = 0.0;
    int finite = 0;
    for (int i = 0; i < e->bodies; ++i) {
        sccd_real w = e->boxes[i].hi.x - e->boxes[i].lo.x;
        if (sccd_is_valid_real(w) && w >= 0.0) {
            sum += w;
            ++finite;
        }
    }
    sccd_real wide = finite > 0 ? WIDE_BODY * sum / finite : 0.0;
    for (int i = 0; i < e->bodies; ++i) {
        sccd_real w = e->boxes[i].hi.x - e->boxes[i].lo.x;
        if (!(sccd_is_valid_real(w) && w >= 0.0)) {
            if (w > 0.0) /* infinite: it may meet anything */
                make_loose(e, i);
            continue;      /* NaN or empty: it meets nothing */
        }
        if (w > wide && finite > 1)
            make_loose(e, i);
        else
            e->order[e->sorted++] = (sccd_ranked){e->boxes[i].lo.x, i};
    }
    sort_ranked(e->order, e->sorted);
    sccd_real reach = -INFINITY;
    for (int r = 0; r < e->sorted; ++r) {
        reach = sccd_max(reach, e->boxes[e->order[r].body].hi.x);
        e->reach[r] = reach;
    }
}

/* Bodies the loose list may hold before the order is made again: a body
 * the solver takes in mid-step starts loose, and every activation scans
 * the loose ones one by one. */
#define LOOSE_RESORT 32

/* Sort every body again by its current box (the loose ones too). */
static void resort(sccd_events *e)
{
    for (int k = 0; k < e->loose_count; ++k)
        e->flags[e->loose[k]] &= (unsigned char)~EVENTS_LOOSE;
    e->loose_count = 0;
    e->sorted = 0;
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
    memcpy(e->boxes, was.boxes, old * sizeof *e->boxes);
    memcpy(e->order, was.order, (size_t)was.sorted * sizeof *e->order);
    memcpy(e->reach, was.reach, (size_t)was.sorted * sizeof *e->reach);
    memcpy(e->first_pair, was.first_pair, old * sizeof(int));
    memcpy(e->loose, was.loose, (size_t)was.loose_count * sizeof(int));
    memcpy(e->changed, was.changed, (size_t)was.changed_count * sizeof(int));
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
        e->boxes[i] = e->ops->box(e->solver, i);
        e->first_pair[i] = -1;
        e->partner[i] = -1;
        e->flags[i] = 0;
        make_loose(e, i);
    }
    e->bodies = bodies;
    if (e->loose_count > LOOSE_RESORT && e->loose_count > e->sorted / 4)
        resort(e);
    return true;
}

bool sccd_events_begin(sccd_events *e, const sccd_event_ops *ops, void *solver, int bodies, sccd_impact_scratch *scratch,
                       sccd_impact_stats *stats)
{
    *e = (sccd_events){.ops = ops, .solver = solver, .bodies = bodies, .pairs = scratch->pairs, .queue = scratch->queue,
                       .scratch = scratch, .stats = stats};
    if (!carve(e, scratch))
        return false;
    for (int i = 0; i < bodies; ++i) {
        e->boxes[i] = ops->box(solver, i);
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

/* ---- the queue of events: a binary heap of the pairs with one ---- */

/* Whether pair x's event comes before pair y's: by time, then by pair (the
 * order the events are taken in depends on the input alone). */
static bool queue_before(const sccd_events *e, int x, int y)
{
    sccd_real tx = e->pairs[x].t, ty = e->pairs[y].t;
    return tx < ty || (tx == ty && x < y);
}

static void queue_put(sccd_events *e, int at, int k)
{
    e->queue[at] = k;
    e->pairs[k].queued = at;
}

/* Let the pair at place `at` rise, then sink, to its place. */
static void queue_fix(sccd_events *e, int at)
{
    int k = e->queue[at];
    while (at > 0 && queue_before(e, k, e->queue[(at - 1) / 2])) {
        queue_put(e, at, e->queue[(at - 1) / 2]);
        at = (at - 1) / 2;
    }
    for (int c = 2 * at + 1; c < e->queue_count; c = 2 * at + 1) {
        if (c + 1 < e->queue_count && queue_before(e, e->queue[c + 1], e->queue[c]))
            ++c;
        if (!queue_before(e, e->queue[c], k))
            break;
        queue_put(e, at, e->queue[c]);
        at = c;
    }
    queue_put(e, at, k);
}

/* Pair pr's event changed: in the queue, out of it, or moved in it. */
static void requeue(sccd_events *e, sccd_pair *pr)
{
    int at = pr->queued;
    if (pr->event == EVENT_NONE) {
        if (at < 0)
            return;
        pr->queued = -1;
        if (at == --e->queue_count)
            return;
        e->queue[at] = e->queue[e->queue_count];
    } else if (at < 0) {
        at = e->queue_count++;
        e->queue[at] = (int)(pr - e->pairs);
    }
    queue_fix(e, at);
}

/* The pair whose event comes first (NULL: none left). */
static sccd_pair *earliest(const sccd_events *e) { return e->queue_count > 0 ? &e->pairs[e->queue[0]] : NULL; }

/* Search pair pr's next event from tc (counted: sccd_pair_kept_apart).
 * Bodies whose boxes (of their current segments) are apart have none: known
 * here at once, where the solver would test shape pair by shape pair (a
 * fast body struck in a pile has its pairs searched at each of its events,
 * most of them with neighbours it has left behind). When it may `wait`, the
 * solver may put the search off while the pair is known to have no event
 * (EVENT_PENDING): an event of either body before then searches it again,
 * and most of a busy body's pairs never come first. */
static void search(sccd_events *e, sccd_pair *pr, sccd_real tc, bool wait)
{
    ++pr->searches;
    if (boxes_meet(e->boxes[pr->a], e->boxes[pr->b])) {
        e->ops->search(e->solver, pr, tc, wait);
    } else {
        pr->event = EVENT_NONE;
        pr->t = INFINITY;
    }
    requeue(e, pr);
}

/* Pair bodies i and j, whose boxes meet and that are not paired yet (j's
 * partner mark is not i: sccd_events_activate checked both), if they may
 * collide, and search the new pair from tc. False when out of memory. */
static bool pair_with(sccd_events *e, int i, int j, sccd_real tc)
{
    if (j == i || !e->ops->possible(e->solver, i, j))
        return true;
    size_t n = (size_t)e->count + 1;
    if (!sccd_scratch_reserve(&e->scratch->pairs, &e->scratch->pair_bytes, n * sizeof *e->pairs) ||
        !sccd_scratch_reserve(&e->scratch->queue, &e->scratch->queue_bytes, n * sizeof *e->queue))
        return false;
    e->pairs = e->scratch->pairs;
    e->queue = e->scratch->queue;
    int k = e->count++;
    sccd_pair *pr = &e->pairs[k];
    *pr = (sccd_pair){.a = i, .b = j, .event = EVENT_NONE, .t = INFINITY, .sa = -1, .sb = -1, .depth_t = -1.0,
                      .depth_sa = -1, .depth_sb = -1, .gap_s = -1.0, .depth_search = -1, .filter_sa = -1, .filter_sb = -1,
                      .next_a = e->first_pair[i], .next_b = e->first_pair[j], .searched = e->round, .queued = -1};
    for (int c = 0; c < SCCD_PAIR_CAPS; ++c)
        pr->caps[c] = (sccd_shape_cap){-1, -1, INFINITY, 0.0};
    e->first_pair[i] = k;
    e->first_pair[j] = k;
    e->partner[j] = i;
    search(e, pr, tc, true);
    return true;
}

/* The last rank whose body starts at or before x, plus one. */
static int ranks_before(const sccd_events *e, sccd_real x)
{
    int lo = 0, hi = e->sorted;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (e->order[mid].lo <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool sccd_events_activate(sccd_events *e, int i, sccd_real tc)
{
    sccd_aabb3 box = e->boxes[i];
    for (int k = e->first_pair[i]; k >= 0; k = next_pair(e, k, i)) /* its partners, marked: a candidate is checked at once */
        e->partner[e->pairs[k].a == i ? e->pairs[k].b : e->pairs[k].a] = i;
    /* most of the bodies walked are apart or paired already: told here, without a call */
    for (int r = ranks_before(e, box.hi.x) - 1; r >= 0 && e->reach[r] >= box.lo.x; --r) {
        int j = e->order[r].body;
        if (e->partner[j] != i && !(e->flags[j] & EVENTS_LOOSE) && boxes_meet(box, e->boxes[j]) && !pair_with(e, i, j, tc))
            return false;
    }
    for (int k = 0; k < e->loose_count; ++k) {
        int j = e->loose[k];
        if (e->partner[j] != i && boxes_meet(box, e->boxes[j]) && !pair_with(e, i, j, tc))
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
 * with them, what a fallback released or stopped), each once. */
static void research(sccd_events *e, sccd_pair *event, sccd_real t)
{
    event->searched = e->round;
    search(e, event, t, true);
    for (int c = 0; c < e->changed_count; ++c) {
        int i = e->changed[c];
        for (int k = e->first_pair[i]; k >= 0; k = next_pair(e, k, i))
            if (e->pairs[k].searched != e->round) {
                e->pairs[k].searched = e->round;
                search(e, &e->pairs[k], t, true);
            }
    }
}

/* The changed bodies' new boxes (before their pairs are searched again). */
static void rebox(sccd_events *e)
{
    for (int c = 0; c < e->changed_count; ++c) {
        int i = e->changed[c];
        e->boxes[i] = e->ops->box(e->solver, i);
        make_loose(e, i); /* its place in the order is of its old box */
    }
}

/* The changed bodies' new pairs: their new motions may meet bodies they
 * were not paired with, some of them bodies the caller had not passed
 * (ops->gather asks for those). Then the list is empty again. False when
 * out of memory. */
static bool repair(sccd_events *e, sccd_real t)
{
    for (int c = 0; c < e->changed_count; ++c)
        if (!e->ops->gather(e->solver, e->changed[c]) || !sccd_events_activate(e, e->changed[c], t))
            return false;
    for (int c = 0; c < e->changed_count; ++c)
        e->flags[e->changed[c]] &= (unsigned char)~EVENTS_CHANGED;
    e->changed_count = 0;
    return true;
}

/* The earliest event, the searches put off until it searched: a pending
 * pair that comes first may have an event from its time on, so it is
 * searched then (from the time it was put off: its motions are those it
 * had then), and never put off again. */
static sccd_pair *earliest_event(sccd_events *e)
{
    for (;;) {
        sccd_pair *pr = earliest(e);
        if (pr == NULL || pr->event != EVENT_PENDING)
            return pr;
        search(e, pr, pr->from, false);
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
 * (one joined to a third, then met again) is jammed: both stop dead (at
 * rest: a velocity kept, an engine's contacts would push the jammed pair
 * harder every step), so such stops cannot go on without end. (A kinematic body goes
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
    if (again && !ka && !kb) { /* jammed: what the first stop set going met it again; both stop dead */
        if (ops->moves_freely(sv, a))
            ops->halt(sv, a, pr->t);
        if (ops->moves_freely(sv, b))
            ops->halt(sv, b, pr->t);
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

bool sccd_events_run(sccd_events *e)
{
    int impacts = 0, cap = SCCD_IMPACT_MAX_EVENTS; /* the bodies passed: those gathered later are none of them CCD bodies */
    for (int i = 0; i < e->bodies; ++i)
        cap += e->ops->ccd(e->solver, i) ? SCCD_IMPACT_BODY_EVENTS : 0;
    for (int guard = 0; guard < SCCD_IMPACT_MAX_EVENTS + 4 * (e->bodies + impacts) + 16; ++guard) {
        sccd_pair *pr = earliest_event(e);
        if (pr == NULL)
            return true;
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
        ++e->round;
        rebox(e);
        research(e, pr, t);
        if (!repair(e, t))
            return false;
    }
    ++e->stats->failed;
    return true;
}
