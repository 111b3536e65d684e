/* The events of a step (impact_internal.h): the body pairs, each with its
 * next event, taken in time order. Dimension-free: impact2.c and impact3.c
 * give the search, the impact, the fallback and what a body is.
 *
 * A body is paired with the bodies whose boxes (of their segments) meet its
 * own; when an event changes its segment it is paired again. Only the pairs
 * whose motions an event changed are searched again: the segments of every
 * other body go on unchanged, so their events stand. The
 * loop ends: after SCCD_IMPACT_MAX_EVENTS impacts (or SCCD_IMPACT_PAIR_EVENTS
 * between two bodies) every event is a stop, and a stop leaves a body still
 * or riding along with another, which no later event undoes for long; the
 * last guard stops the loop all the same (counted as failed). */
#include <string.h>

#include "impact_internal.h"

/* Up to this many bodies a bit table says which pairs exist; beyond, the
 * pairs are searched (its size grows with the square). */
#define PAIR_BITS_MAX_BODIES 4096

bool sccd_events_begin(sccd_events *e, const sccd_event_ops *ops, void *solver, int bodies, sccd_impact_scratch *scratch,
                       sccd_impact_stats *stats)
{
    *e = (sccd_events){ops, solver, bodies, scratch->pairs, 0, NULL, NULL, scratch, stats};
    if (!sccd_scratch_reserve(&scratch->boxes, &scratch->box_bytes, (size_t)bodies * sizeof *e->boxes))
        return false;
    e->boxes = scratch->boxes;
    for (int i = 0; i < bodies; ++i)
        e->boxes[i] = ops->box(solver, i);
    size_t bits = bodies <= PAIR_BITS_MAX_BODIES ? ((size_t)bodies * (size_t)bodies + 7) / 8 : 0;
    if (bits > 0 && !sccd_scratch_reserve(&scratch->bits, &scratch->bit_bytes, bits))
        return false;
    if (bits > 0) {
        e->paired = scratch->bits;
        memset(e->paired, 0, bits);
    }
    return true;
}

static size_t pair_bit(const sccd_events *e, int a, int b)
{
    return a < b ? (size_t)a * (size_t)e->bodies + (size_t)b : (size_t)b * (size_t)e->bodies + (size_t)a;
}

static bool paired(const sccd_events *e, int a, int b)
{
    if (e->paired != NULL)
        return (e->paired[pair_bit(e, a, b) / 8] >> (pair_bit(e, a, b) % 8)) & 1;
    for (int k = 0; k < e->count; ++k)
        if ((e->pairs[k].a == a && e->pairs[k].b == b) || (e->pairs[k].a == b && e->pairs[k].b == a))
            return true;
    return false;
}

static bool boxes_meet(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

bool sccd_events_activate(sccd_events *e, int i, sccd_real tc)
{
    sccd_aabb3 box = e->boxes[i];
    for (int j = 0; j < e->bodies; ++j) {
        if (!boxes_meet(box, e->boxes[j]) || paired(e, i, j) || !e->ops->possible(e->solver, i, j))
            continue;
        if (!sccd_scratch_reserve(&e->scratch->pairs, &e->scratch->pair_bytes, (size_t)(e->count + 1) * sizeof *e->pairs))
            return false;
        e->pairs = e->scratch->pairs;
        if (e->paired != NULL)
            e->paired[pair_bit(e, i, j) / 8] |= (unsigned char)(1u << (pair_bit(e, i, j) % 8));
        sccd_pair *pr = &e->pairs[e->count++];
        *pr = (sccd_pair){i, j, EVENT_NONE, INFINITY, -1, -1, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, false, 0, 0, {{-1, -1, INFINITY}},
                          -1.0, -1, -1, 0.0, -1, -1, 0.0, -1.0, 0.0};
        for (int k = 1; k < SCCD_PAIR_CAPS; ++k)
            pr->caps[k] = pr->caps[0];
        e->ops->search(e->solver, pr, tc);
    }
    return true;
}

/* Search again, from t, the pair of the last event and every pair one of
 * whose bodies' segments that event changed (the pair, what rode along
 * with them, what a fallback released or stopped). */
static void research(sccd_events *e, const sccd_pair *event, sccd_real t)
{
    for (int k = 0; k < e->count; ++k) {
        sccd_pair *pr = &e->pairs[k];
        if (pr == event || e->ops->changed(e->solver, pr->a) || e->ops->changed(e->solver, pr->b))
            e->ops->search(e->solver, pr, t);
    }
}

static sccd_pair *earliest(sccd_events *e)
{
    sccd_pair *best = NULL;
    for (int k = 0; k < e->count; ++k)
        if (e->pairs[k].event != EVENT_NONE && (best == NULL || e->pairs[k].t < best->t))
            best = &e->pairs[k];
    return best;
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

bool sccd_events_run(sccd_events *e)
{
    int impacts = 0;
    e->ops->settle(e->solver); /* the start's segments are searched already */
    for (int guard = 0; guard < SCCD_IMPACT_MAX_EVENTS + 4 * e->bodies + 16; ++guard) {
        sccd_pair *pr = earliest(e);
        if (pr == NULL)
            return true;
        int a = pr->a, b = pr->b;
        sccd_real t = pr->t;
        bool can = pr->event == EVENT_IMPACT && impacts < SCCD_IMPACT_MAX_EVENTS && pr->impacts < pair_impacts(e, a, b) &&
                   (e->ops->moves_freely(e->solver, a) || e->ops->moves_freely(e->solver, b));
        if (can && e->ops->impact(e->solver, pr)) {
            if (pr->ignored)
                continue; /* nothing moved */
            ++impacts;
            ++pr->impacts;
        } else {
            stop_pair(e, pr);
        }
        research(e, pr, t);
        for (int k = 0; k < e->bodies; ++k)
            if (e->ops->changed(e->solver, k))
                e->boxes[k] = e->ops->box(e->solver, k);
        for (int k = 0; k < e->bodies; ++k) /* their new motions may meet bodies they were not paired with */
            if (e->ops->changed(e->solver, k) && !sccd_events_activate(e, k, t))
                return false;
        e->ops->settle(e->solver);
    }
    ++e->stats->failed;
    return true;
}
