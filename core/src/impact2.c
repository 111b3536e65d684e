/* One step of moving bodies with their impacts resolved in time order
 * (impact.h), 2D. impact3.c is its twin.
 *
 * Time. Every body moves over the step on a segment: from its pose at time
 * t0 (a fraction of the step) to its end pose, the free motion of its
 * velocity over the rest of the step (a hinged body turns about its hinge).
 * The segment is a rigid motion about the body's centre (hinge or pivot):
 * the poses in between are the ones the motion boxes and the TOI see. An impact at
 * time t restarts there the segment of each of its two bodies whose
 * velocity it changed; every other body (a wall, a kinematic bat) keeps its
 * segment, so only the pairs of the restarted ones are searched again, and
 * events are taken in time order.
 *
 * Contact. An event is a time at which two shapes come within the skin
 * while approaching (the closest points' velocities close the gap). A pair
 * that touches but does not approach (resting, sliding, just bounced) is
 * skipped for as long as its gap provably cannot shrink (separating_span),
 * then searched with a lower target, so a sliding pair is not stopped and an
 * approaching one is. A pair overlapping at the search's start is searched
 * on cores shrunk below its overlap: an event is then the overlap growing
 * by a tolerance while approaching. Passing through needs the cores to
 * cross first, so it is never missed while the cores can shrink apart.
 *
 * Response. At an event the two bodies get the impulse of a point contact
 * (Newton restitution along the normal, then Coulomb friction along the
 * tangent, each clamped so it only removes relative velocity along its own
 * direction: kinetic energy cannot grow). A hinged body takes it turning
 * about its hinge (moment of inertia about the hinge; the hinge's reaction
 * does no work). */
#include <limits.h>
#include <string.h>

#include "convex2.h"
#include "impact_internal.h"
#include "shapes_valid.h"
#include "trig.h"
#include "unchecked.h"
#include "sectorccd/support.h"

/* A body's state during the solve. */
typedef struct body_state {
    sccd_real t0;       /* start of the current segment */
    sccd_motion2 m;     /* the segment as a motion over [t0, 1] */
    sccd_real angle0;   /* unwrapped angle at t0 */
    sccd_v2 v;          /* velocity the segment moves by (centre of mass) */
    sccd_real w;        /* its angular velocity */
    sccd_v2 out_v;      /* the velocity to report (a held body keeps the one it had) */
    sccd_real out_w;
    sccd_v2 hinge;      /* world hinge */
    bool hinged;        /* turns about the hinge (not when carried) */
    bool frozen;        /* held still: takes no impulse any more */
    int carrier;        /* the body it rides along with, -1: none (set_carrier) */
    int riders;         /* how many ride along with it (the searches for them skip a body with none) */
    bool boxed;         /* box holds what the current segment covers */
    sccd_aabb3 box;
    sccd_aabb3 covered; /* what its segments boxed so far cover (the result `swept`) */
    unsigned segment;   /* counts the segment's changes (the shape caches' key) */
    unsigned at_segment; /* the last pose asked for (pose_at): of this segment ... */
    sccd_real at_t;      /* ... at this time (-1: none) ... */
    sccd_xf2 at_pose;    /* ... is this: a pair's searches and impacts ask for one instant again and again */
    sccd_aabb3 asked;    /* what the gather hook was asked for it (gather) ... */
    sccd_real asked_reach; /* ... and for points moving how far (-1: nothing) ... */
    bool asked_fixed;      /* ... for static and kinematic bodies only (sccd_impact_reach2.fixed_only) */
} body_state;

/* A shape's motion box over its body's current segment, made on first use
 * (keyed by the segment it is of; 0: none). */
typedef struct shape_cache {
    unsigned boxed;
    sccd_aabb2 box;
    sccd_real room;  /* how far it can shrink (shape_shrinks; < 0: not measured yet) ... */
    sccd_real inset; /* ... and a polygon's poly_inset_limit */
    sccd_real half;  /* its half thickness (shape_half; < 0: not measured yet) */
    unsigned reached; /* the segment `farthest` is of (0: none) ... */
    sccd_real farthest; /* ... the shape's farthest point from its body's centre of turning */
    sccd_v2 corner[SCCD_POLY_MAX]; /* a polygon's with an inset limit: each vertex's two edge normals summed ... */
    sccd_real bend[SCCD_POLY_MAX]; /* ... and 1 + their dot (vertex_turn), what its insets move the vertex by */
} shape_cache;

typedef struct solver {
    sccd_impact_body2 *bodies;
    body_state *st;
    int n;
    const sccd_impact_shape2 *shapes;
    int ns;
    sccd_events events;
    shape_cache *cache; /* per shape */
    sccd_real dt;
    sccd_ccd_options opt;
    sccd_impact_callbacks2 cb;
    sccd_impact_stats *stats;
} solver;

static sccd_v2 v2_of(sccd_v3 v) { return (sccd_v2){v.x, v.y}; }
static sccd_v3 v3_of(sccd_v2 v) { return (sccd_v3){v.x, v.y, 0.0}; }

/* ---- segments ---- */

static sccd_real local_time(const body_state *s, sccd_real t)
{
    return s->t0 < 1.0 ? sccd_clamp((t - s->t0) / (1.0 - s->t0), 0.0, 1.0) : 0.0;
}

static sccd_xf2 pose_at(body_state *s, sccd_real t)
{
    if (s->at_t != t || s->at_segment != s->segment) {
        s->at_pose = sccd_motion2_at_unchecked(s->m, local_time(s, t));
        s->at_t = t;
        s->at_segment = s->segment;
    }
    return s->at_pose;
}

static sccd_v2 cog_at(const solver *sv, int i, sccd_real t) { return sccd_xf2_apply(pose_at(&sv->st[i], t), sv->bodies[i].cog); }

static sccd_real angle_at(const body_state *s, sccd_real t) { return s->angle0 + local_time(s, t) * s->m.dtheta; }

/* The motion m over [u, 1] of its own time, as a motion over [0, 1]; at is m's pose at u. */
static sccd_motion2 rest_from(sccd_motion2 m, sccd_real u, sccd_xf2 at)
{
    return (sccd_motion2){at, m.center, sccd_v2_scale(m.dp, 1.0 - u), m.dtheta * (1.0 - u)};
}

static sccd_motion2 motion_rest(sccd_motion2 m, sccd_real u)
{
    return u == 0.0 ? m : rest_from(m, u, sccd_motion2_at_unchecked(m, u)); /* most searches take the whole part */
}

/* The part of a body's segment from time t on, as a motion over [0, 1]. */
static sccd_motion2 part_from(body_state *s, sccd_real t) { return rest_from(s->m, local_time(s, t), pose_at(s, t)); }

/* Restart body b's segment s at time t with its current velocity: free
 * flight of the centre of mass, or a turn about the hinge. */
static void restart_state(const sccd_impact_body2 *b, body_state *s, sccd_real t, sccd_real dt)
{
    sccd_xf2 p0 = pose_at(s, t);
    sccd_real a0 = angle_at(s, t), da = s->w * (1.0 - t) * dt;
    sccd_rot2 turn = sccd_cos_sin(da);
    sccd_xf2 p1 = {p0.p, sccd_rot2_mul(turn, p0.q)};
    if (s->hinged) {
        p1.p = sccd_v2_add(s->hinge, sccd_rot2_apply(turn, sccd_v2_sub(p0.p, s->hinge)));
    } else {
        sccd_v2 c1 = sccd_v2_mad(sccd_xf2_apply(p0, b->cog), (1.0 - t) * dt, s->v);
        p1.p = sccd_v2_sub(c1, sccd_rot2_apply(p1.q, b->cog));
    }
    sccd_v2 centre = s->hinged ? sccd_xf2_inv_apply(p0, s->hinge) : b->pivot;
    s->m = (sccd_motion2){p0, centre, sccd_v2_sub(sccd_xf2_apply(p1, centre), sccd_xf2_apply(p0, centre)), da};
    s->t0 = t;
    s->boxed = false;
    ++s->segment;
    s->angle0 = a0;
    s->out_v = s->v;
    s->out_w = s->w;
}

static void carry(solver *sv, int i, int k, sccd_real t);

/* Body i rides along with k from now (-1: with none), counted in k's riders. */
static void set_carrier(solver *sv, int i, int k)
{
    if (sv->st[i].carrier >= 0)
        --sv->st[sv->st[i].carrier].riders;
    if (k >= 0)
        ++sv->st[k].riders;
    sv->st[i].carrier = k;
}

/* The velocity of body i riding along with its carrier, at t: the
 * carrier's point under its centre of mass then (its segment is the
 * carrier's rigid motion), no faster than it boarded with (s->v). The
 * velocity it boarded with was the point's at boarding: a ball a blade
 * carried through a third of a turn left a third of a turn off. */
static sccd_v2 riding_velocity(const solver *sv, int i, sccd_real t)
{
    body_state *s = &sv->st[i];
    sccd_real span = (1.0 - s->t0) * sv->dt;
    if (!(span > 0.0))
        return s->v;
    sccd_v2 arm = sccd_v2_sub(cog_at(sv, i, t), sccd_motion2_center_at_inline(&s->m, local_time(s, t)));
    sccd_v2 v = sccd_v2_scale(sccd_v2_add(s->m.dp, sccd_v2_scale(sccd_v2_perp(arm), s->m.dtheta)), 1.0 / span);
    sccd_real most = sccd_v2_len(s->v), now = sccd_v2_len(v);
    return now > most ? sccd_v2_scale(v, most / now) : v;
}

/* Restart body i's segment at t with its velocity (it leaves any carrier).
 * What rode along with it goes on alone with the velocity it has there
 * (riding_velocity): made to follow i's new motion it would gain energy
 * for nothing. */
static void restart(solver *sv, int i, sccd_real t)
{
    restart_state(&sv->bodies[i], &sv->st[i], t, sv->dt);
    set_carrier(sv, i, -1);
    sccd_events_changed(&sv->events, i);
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j)
        if (sv->st[j].carrier == i) {
            sv->st[j].v = riding_velocity(sv, j, t);
            restart_state(&sv->bodies[j], &sv->st[j], t, sv->dt);
            set_carrier(sv, j, -1);
            sccd_events_changed(&sv->events, j);
        }
}

/* Stop body i at time t for the rest of the step, and what rode along with it. */
static void hold(solver *sv, int i, sccd_real t)
{
    body_state *s = &sv->st[i];
    set_carrier(sv, i, -1);
    sccd_real a = angle_at(s, t);
    s->m = (sccd_motion2){pose_at(s, t), s->m.center, {0.0, 0.0}, 0.0};
    s->t0 = t;
    s->boxed = false;
    sccd_events_changed(&sv->events, i);
    ++s->segment;
    s->angle0 = a;
    s->v = (sccd_v2){0.0, 0.0}; /* still from here; out_v keeps what it had */
    s->w = 0.0;
    s->frozen = true;
    sv->bodies[i].held = true;
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j) /* what rode along with it stops too: left on i's old motion, it would go on through what stopped i */
        if (sv->st[j].carrier == i)
            hold(sv, j, t);
}

/* Body i rides along with body k from time t: the same rigid motion, about
 * k's centre, so the two do not move relative to each other; its velocity
 * is k's there. It rides with what k rides with; what rode with i now rides
 * with k too. A hinged body, or one that k rides along with, cannot: it
 * stops instead. */
static void carry(solver *sv, int i, int k, sccd_real t)
{
    while (sv->st[k].carrier >= 0)
        k = sv->st[k].carrier;
    if (k == i || sv->st[i].hinged) {
        hold(sv, i, t);
        return;
    }
    body_state *s = &sv->st[i];
    body_state *c = &sv->st[k];
    sccd_motion2 mk = part_from(c, t);
    sccd_xf2 p0 = pose_at(s, t);
    sccd_real a = angle_at(s, t);
    sccd_v2 centre = sccd_xf2_inv_apply(p0, sccd_xf2_apply(mk.start, mk.center));
    s->m = (sccd_motion2){p0, centre, mk.dp, mk.dtheta};
    s->t0 = t;
    s->boxed = false;
    sccd_events_changed(&sv->events, i);
    ++s->segment;
    s->angle0 = a;
    s->w = c->w;
    s->v = sccd_v2_add(c->v, sccd_v2_scale(sccd_v2_perp(sccd_v2_sub(sccd_xf2_apply(p0, sv->bodies[i].cog),
                                                                       sccd_xf2_apply(pose_at(c, t), sv->bodies[k].cog))), c->w));
    s->out_v = s->v;
    s->out_w = s->w;
    s->hinged = false;
    s->frozen = false; /* it still takes impulses, as a part of k would (then it leaves k) */
    set_carrier(sv, i, k);
    sv->bodies[i].held = true;
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j)
        if (sv->st[j].carrier == i)
            carry(sv, j, k, t);
}

/* Whether body i's segment stands still. */
static bool still(const solver *sv, int i)
{
    const sccd_motion2 *m = &sv->st[i].m;
    return m->dtheta == 0.0 && m->dp.x == 0.0 && m->dp.y == 0.0;
}

/* Whether bodies a and b cannot move relative to each other: both still,
 * one riding along with the other, or both with a third. */
static bool move_together(const solver *sv, int a, int b)
{
    int ca = sv->st[a].carrier, cb = sv->st[b].carrier;
    return (still(sv, a) && still(sv, b)) || ca == b || cb == a || (ca >= 0 && ca == cb);
}

/* ---- velocities and impulses ---- */

static bool moves_freely(const solver *sv, int i)
{
    return sv->bodies[i].kind == SCCD_BODY_DYNAMIC && !sv->st[i].frozen;
}

/* Velocity (per second) of the world point p carried by body i at time t. */
static sccd_v2 velocity_at(const solver *sv, int i, sccd_real t, sccd_v2 p)
{
    const body_state *s = &sv->st[i];
    if (s->hinged)
        return sccd_v2_scale(sccd_v2_perp(sccd_v2_sub(p, s->hinge)), s->w);
    return sccd_v2_add(s->v, sccd_v2_scale(sccd_v2_perp(sccd_v2_sub(p, cog_at(sv, i, t))), s->w));
}

/* Approach speed of a and b at the contact (p, n from a to b): > 0 closing. */
static sccd_real approach(const solver *sv, int a, int b, sccd_real t, sccd_v2 p, sccd_v2 n)
{
    return sccd_v2_dot(sccd_v2_sub(velocity_at(sv, a, t, p), velocity_at(sv, b, t, p)), n);
}

/* How body i's velocity at the world point p along e changes per unit
 * impulse along d there (symmetric in d and e). */
static sccd_real inv_mass_between(const solver *sv, int i, sccd_real t, sccd_v2 p, sccd_v2 d, sccd_v2 e)
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    const body_state *s = &sv->st[i];
    if (b->kind != SCCD_BODY_DYNAMIC || s->frozen)
        return 0.0;
    if (s->hinged) {
        sccd_real d2 = sccd_v2_len2(sccd_v2_sub(cog_at(sv, i, t), s->hinge));
        sccd_v2 r = sccd_v2_sub(p, s->hinge);
        return sccd_hinge_inv_inertia(b->inv_mass, b->inv_inertia, d2) * sccd_v2_cross(r, d) * sccd_v2_cross(r, e);
    }
    sccd_v2 r = sccd_v2_sub(p, cog_at(sv, i, t));
    return b->inv_mass * sccd_v2_dot(d, e) + b->inv_inertia * sccd_v2_cross(r, d) * sccd_v2_cross(r, e);
}

/* Body i's inverse mass seen along direction n at the world point p. */
static sccd_real inv_mass_along(const solver *sv, int i, sccd_real t, sccd_v2 p, sccd_v2 n)
{
    return inv_mass_between(sv, i, t, p, n, n);
}

/* Apply impulse j at the world point p to body i at time t. */
static void apply_impulse(solver *sv, int i, sccd_real t, sccd_v2 p, sccd_v2 j)
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    body_state *s = &sv->st[i];
    if (b->kind != SCCD_BODY_DYNAMIC || s->frozen)
        return;
    sccd_v2 c = cog_at(sv, i, t);
    if (s->hinged) {
        sccd_real inv_i = sccd_hinge_inv_inertia(b->inv_mass, b->inv_inertia, sccd_v2_len2(sccd_v2_sub(c, s->hinge)));
        s->w += inv_i * sccd_v2_cross(sccd_v2_sub(p, s->hinge), j);
        s->v = sccd_v2_scale(sccd_v2_perp(sccd_v2_sub(c, s->hinge)), s->w);
        return;
    }
    s->v = sccd_v2_mad(s->v, b->inv_mass, j);
    s->w += b->inv_inertia * sccd_v2_cross(sccd_v2_sub(p, c), j);
}

/* Relative velocity of a and b at p along d (> 0: a moves into b along d). */
static sccd_real closing_along(const solver *sv, int a, int b, sccd_real t, sccd_v2 p, sccd_v2 d)
{
    return sccd_v2_dot(sccd_v2_sub(velocity_at(sv, a, t, p), velocity_at(sv, b, t, p)), d);
}

/* Body i's kinetic energy in a frame moving at frame_v (0 for bodies that
 * take no impulse: only what the impulse can change counts). */
static sccd_real energy(const solver *sv, int i, sccd_real t, sccd_v2 frame_v)
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    const body_state *s = &sv->st[i];
    if (b->kind != SCCD_BODY_DYNAMIC || s->frozen)
        return 0.0;
    if (s->hinged) {
        sccd_real ii = sccd_hinge_inv_inertia(b->inv_mass, b->inv_inertia, sccd_v2_len2(sccd_v2_sub(cog_at(sv, i, t), s->hinge)));
        return ii > 0.0 ? 0.5 * s->w * s->w / ii : 0.0;
    }
    sccd_real e = b->inv_mass > 0.0 ? 0.5 * sccd_v2_len2(sccd_v2_sub(s->v, frame_v)) / b->inv_mass : 0.0;
    return e + (b->inv_inertia > 0.0 ? 0.5 * s->w * s->w / b->inv_inertia : 0.0);
}

/* The pair's energy, in the frame of a partner that takes no impulse (a
 * kinematic bat: what the impact can give is relative to its surface). */
static sccd_real pair_energy(const solver *sv, int a, int b, sccd_real t, sccd_v2 p)
{
    sccd_v2 frame = {0.0, 0.0};
    if (!moves_freely(sv, a))
        frame = velocity_at(sv, a, t, p);
    else if (!moves_freely(sv, b))
        frame = velocity_at(sv, b, t, p);
    return energy(sv, a, t, frame) + energy(sv, b, t, frame);
}

/* The impulse j (on b; −j on a) at p. */
static void push(solver *sv, int a, int b, sccd_real t, sccd_v2 p, sccd_v2 j)
{
    apply_impulse(sv, a, t, p, sccd_v2_neg(j));
    apply_impulse(sv, b, t, p, j);
}

/* How a pair's closing speeds along the normal n and the tangent change
 * with the impulses along them: closing = c − K·(jn, jt) (the velocities
 * are linear in the impulses, so the pair's contact is solved on these
 * numbers alone, and its impulse applied once). */
typedef struct contact2 { sccd_real cn, ct, knn, knt, ktt; } contact2;

/* Normal and friction impulses found together by projected Gauss-Seidel on
 * accumulated impulses (normal ≥ 0 aiming at a separation of `bounce`,
 * |friction| ≤ μ·normal), as an engine's solver finds a contact's: the
 * friction and the spin it causes feed back into the normal speed. Returns
 * (jn, jt). */
static sccd_v2 coupled_impulse(const contact2 *k, sccd_real bounce, sccd_real mu)
{
    sccd_real jn = 0.0, jt = 0.0;
    for (int iter = 0; iter < SCCD_CONTACT_ITERATIONS; ++iter) {
        sccd_real cn = k->cn - k->knn * jn - k->knt * jt, ct = k->ct - k->knt * jn - k->ktt * jt;
        jn = sccd_max(jn + (cn + bounce) / k->knn, 0.0);
        if (k->ktt > 0.0)
            jt = sccd_clamp(jt + ct / k->ktt, -mu * jn, mu * jn);
    }
    return (sccd_v2){jn, jt};
}

/* Normal impulse first, then friction from the velocities it leaves: each
 * only removes relative velocity along its own direction (restitution ≤ 1,
 * friction at most stopping the slide), so energy cannot grow. */
static sccd_v2 sequential_impulse(solver *sv, int a, int b, sccd_real t, sccd_v2 p, sccd_v2 n, sccd_real kn, sccd_real kt,
                                  sccd_real bounce, sccd_real mu)
{
    sccd_v2 tg = sccd_v2_perp(n);
    sccd_real jn = sccd_max((closing_along(sv, a, b, t, p, n) + bounce) / kn, 0.0);
    push(sv, a, b, t, p, sccd_v2_scale(n, jn));
    sccd_real jt = kt > 0.0 ? sccd_clamp(closing_along(sv, a, b, t, p, tg) / kt, -mu * jn, mu * jn) : 0.0;
    push(sv, a, b, t, p, sccd_v2_scale(tg, jt));
    return sccd_v2_add(sccd_v2_scale(n, jn), sccd_v2_scale(tg, jt));
}

/* Resolve an impact of bodies a, b at time t: the coupled impulses an
 * engine's solver would find; where restitution and friction together
 * would add energy (Newton's restitution can, with friction coupling the
 * spin in), the sequential impulses instead; lift adds a speed of
 * separation to restitution's (a push taking its pair back up to its
 * limit). False when neither body can take an impulse. */
static bool collide(solver *sv, const sccd_pair *pr, sccd_impact_contact2 *c, sccd_real lift)
{
    int a = pr->a, b = pr->b;
    sccd_real t = pr->t;
    sccd_v2 p = v2_of(pr->point), n = v2_of(pr->normal), tg = sccd_v2_perp(n);
    sccd_real kn = inv_mass_along(sv, a, t, p, n) + inv_mass_along(sv, b, t, p, n);
    sccd_real kt = inv_mass_along(sv, a, t, p, tg) + inv_mass_along(sv, b, t, p, tg);
    if (kn <= 0.0)
        return false;
    contact2 k = {closing_along(sv, a, b, t, p, n), closing_along(sv, a, b, t, p, tg), kn,
                  inv_mass_between(sv, a, t, p, n, tg) + inv_mass_between(sv, b, t, p, n, tg), kt};
    body_state sa = sv->st[a], sb = sv->st[b];
    sccd_real before = pair_energy(sv, a, b, t, p), bounce = c->elasticity * c->approach + lift;
    sccd_v2 j = coupled_impulse(&k, bounce, c->friction);
    c->impulse = sccd_v2_add(sccd_v2_scale(n, j.x), sccd_v2_scale(tg, j.y));
    push(sv, a, b, t, p, c->impulse);
    if (pair_energy(sv, a, b, t, p) > before) {
        sv->st[a] = sa;
        sv->st[b] = sb;
        c->impulse = sequential_impulse(sv, a, b, t, p, n, kn, kt, bounce, c->friction);
    }
    return true;
}

/* ---- the search for one shape pair ---- */

/* An event found by a search: kind, time, contact. */
typedef struct shape_event { impact_event event; sccd_real t; sccd_v2 point, normal; sccd_real left, sunk; } shape_event;

/* Outward unit normal of edge a→b of a counter-clockwise polygon. */
static sccd_v2 edge_normal(sccd_v2 a, sccd_v2 b) { return sccd_v2_normalize((sccd_v2){b.y - a.y, a.x - b.x}); }

/* How polygon p turns at vertex i: the sum of its two edge normals, 1 +
 * their dot (an inset by d moves the vertex by d / bend along the sum, each
 * edge by d) and their cross (sin φ, φ the turn). */
typedef struct vertex_turn { sccd_v2 sum; sccd_real bend, cross; } vertex_turn;

/* The turn at a vertex between the unit normals n0 of its edge in and n1
 * of its edge out; a corner sharper than 120° (bend < 0.5: the vertex
 * would move more than 2d) takes no inset. */
static vertex_turn turn_between(sccd_v2 n0, sccd_v2 n1)
{
    return (vertex_turn){sccd_v2_add(n0, n1), 1.0 + sccd_v2_dot(n0, n1), sccd_v2_cross(n0, n1)};
}

/* Vertex i's turn; false when an edge there is degenerate or the corner
 * too sharp. */
static bool turn_at(const sccd_poly2 *p, int i, vertex_turn *turn)
{
    sccd_v2 prev = p->v[(i + p->n - 1) % p->n], cur = p->v[i], next = p->v[(i + 1) % p->n];
    if (sccd_v2_dist(prev, cur) <= 0.0 || sccd_v2_dist(cur, next) <= 0.0)
        return false;
    *turn = turn_between(edge_normal(prev, cur), edge_normal(cur, next));
    return turn->bend >= 0.5;
}

/* The depth below which poly_inset moves polygon p's edges without
 * failing: an edge of length L between corners turning by φ0 and φ1 (its
 * vertices slide along it by d·tan(φ/2) each) keeps its direction while
 * d < L / (tan(φ0/2) + tan(φ1/2)); 0 when a corner is sharper than 120° or
 * an edge degenerate (poly_inset refuses any d). Known once, it spares the
 * insets that would fail: a shrink tried them halving from the wanted depth
 * (ten or more per shrink, a fifth of a busy pile's CCD). Each vertex's
 * turn goes into corner and bend (poly_inset's, for the shape's copies).
 * Each edge's length and normal are measured once (twice, at both its
 * vertices, they were half its instructions). */
static sccd_real poly_inset_limit(const sccd_poly2 *p, sccd_v2 *corner, sccd_real *bend)
{
    if (p->n < 3)
        return 0.0;
    sccd_v2 normal[SCCD_POLY_MAX]; /* edge i's, from vertex i to the next */
    sccd_real length[SCCD_POLY_MAX], half_turn[SCCD_POLY_MAX], limit = INFINITY; /* tan(φ/2) at each vertex */
    for (int i = 0; i < p->n; ++i) {
        sccd_v2 cur = p->v[i], next = p->v[(i + 1) % p->n];
        length[i] = sccd_v2_dist(cur, next);
        if (length[i] <= 0.0)
            return 0.0;
        normal[i] = edge_normal(cur, next);
    }
    for (int i = 0; i < p->n; ++i) {
        vertex_turn turn = turn_between(normal[(i + p->n - 1) % p->n], normal[i]);
        if (!(turn.bend >= 0.5))
            return 0.0;
        corner[i] = turn.sum;
        bend[i] = turn.bend;
        half_turn[i] = turn.cross / turn.bend;
    }
    for (int i = 0; i < p->n; ++i) {
        sccd_real slide = half_turn[i] + half_turn[(i + 1) % p->n];
        if (slide > 0.0)
            limit = sccd_min(limit, length[i] / slide);
    }
    return limit;
}

/* Move every edge of polygon p inwards by d (vertex i moves along the sum of
 * its two edge normals, scaled so both edges move by exactly d). False when
 * an edge is degenerate or the result is no longer convex with every edge
 * keeping its direction (d too large for the polygon). The vertices' turns
 * are corner and bend when p is the shape they were measured on (its copy
 * not inset yet: poly_inset_limit's; measured at each inset, they were most
 * of a shrink's instructions), else NULL: measured here. */
static bool poly_inset(sccd_poly2 *p, sccd_real d, const sccd_v2 *corner, const sccd_real *bend)
{
    if (p->n < 3)
        return false;
    sccd_poly2 q = *p;
    for (int i = 0; i < p->n; ++i) {
        vertex_turn turn = {corner != NULL ? corner[i] : (sccd_v2){0.0, 0.0}, corner != NULL ? bend[i] : 0.0, 0.0};
        if (corner == NULL && !turn_at(p, i, &turn))
            return false;
        q.v[i] = sccd_v2_mad(p->v[i], -d / turn.bend, turn.sum);
    }
    for (int i = 0; i < q.n; ++i) { /* every edge keeps its direction and turns left (convex) */
        sccd_v2 e0 = sccd_v2_sub(p->v[(i + 1) % p->n], p->v[i]), e1 = sccd_v2_sub(q.v[(i + 1) % q.n], q.v[i]);
        sccd_v2 f1 = sccd_v2_sub(q.v[(i + 2) % q.n], q.v[(i + 1) % q.n]);
        if (sccd_v2_dot(e0, e1) <= 0.0 || sccd_v2_cross(e1, f1) < 0.0)
            return false;
    }
    *p = q;
    return true;
}

/* The inset a polygon's shrink tries first: the first of rest, rest/2, ...
 * (above 1e-3·want) below its inset limit; 0: none. */
static sccd_real inset_try(sccd_real want, sccd_real rest, sccd_real inset)
{
    for (sccd_real e = rest; e > 1e-3 * want; e *= 0.5)
        if (e < inset)
            return e;
    return 0.0;
}

/* The rounding radius a shrink takes first (a box has none: its half sizes). */
static sccd_real rounding(const sccd_shape2 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return s->circle.r;
    case SCCD_SHAPE_CAPSULE: return s->capsule.r;
    case SCCD_SHAPE_POLY: return s->poly.r;
    default: return 0.0;
    }
}

/* What shrink(s, want, inset) takes, without moving anything: the radius
 * (or a box's half sizes), then a polygon's inset as if every inset below
 * its limit held (one at the limit may fail by rounding: shrink then takes
 * less). */
static sccd_real shrink_reach(const sccd_shape2 *s, sccd_real want, sccd_real inset)
{
    if (want <= 0.0)
        return 0.0;
    if (s->type == SCCD_SHAPE_BOX)
        return sccd_max(sccd_min(want, 0.999 * sccd_min(s->box.h.x, s->box.h.y)), 0.0);
    sccd_real d = sccd_min(want, rounding(s));
    return s->type == SCCD_SHAPE_POLY && want > d ? d + inset_try(want, want - d, inset) : d;
}

/* Shrink s by at most want (radius first, then a box's half sizes or a
 * polygon's edges, halving the inset until one holds; the insets at or
 * above the polygon's poly_inset_limit, in its cache k, skipped); returns
 * how much it shrank. The result lies inside s with its boundary that far
 * in, so core distance = shape distance + the amounts shrunk. *inset: s's
 * edges moved (by this call or an earlier one), so the cache's vertex turns
 * are no longer s's. */
static sccd_real shrink(sccd_shape2 *s, sccd_real want, const shape_cache *k, bool *inset)
{
    sccd_real d = shrink_reach(s, want, 0.0); /* no inset: the radius or the box's part */
    if (s->type == SCCD_SHAPE_BOX) {
        s->box.h = sccd_v2_sub(s->box.h, (sccd_v2){d, d});
        return d;
    }
    *(s->type == SCCD_SHAPE_CIRCLE ? &s->circle.r : s->type == SCCD_SHAPE_CAPSULE ? &s->capsule.r : &s->poly.r) -= d;
    if (s->type != SCCD_SHAPE_POLY || want - d <= 0.0)
        return d;
    for (sccd_real e = inset_try(want, want - d, k->inset); e > 0.0; e = inset_try(want, 0.5 * e, k->inset))
        if (poly_inset(&s->poly, e, *inset ? NULL : k->corner, k->bend)) {
            *inset = true;
            return d + e;
        }
    return d;
}

/* Cores of a and b (copies of shapes whose caches are ka, kb: shape_shrinks)
 * shrunk by s in all, each its share (sccd_shrink_share; what one cannot
 * give, the other): how much they shrank. */
static sccd_real shrink_pair(sccd_shape2 *a, sccd_shape2 *b, sccd_real s, const shape_cache *ka, const shape_cache *kb)
{
    bool inset_a = false, inset_b = false;
    sccd_real shrunk = shrink(a, sccd_shrink_share(s, ka->half, kb->half), ka, &inset_a);
    shrunk += shrink(b, s - shrunk, kb, &inset_b);
    return shrunk + shrink(a, s - shrunk, ka, &inset_a);
}

/* A shape's cache with nothing made (segments count from 1), field by
 * field: what a cache holds is read only once made (zeroed whole, the
 * polygons' vertex turns would cost a shape a dozen stores a solve). */
static void clear_cache(shape_cache *c)
{
    c->boxed = 0;
    c->room = -1.0;
    c->half = -1.0;
    c->reached = 0;
}

/* Shape k's half thickness (shape2_half_thickness), cached a solve: a
 * polygon's takes a root an edge, and the searches ask it at every shape
 * pair. */
static sccd_real shape_half(solver *sv, int k)
{
    shape_cache *c = &sv->cache[k];
    if (c->half < 0.0)
        c->half = shape2_half_thickness(&sv->shapes[k].geom);
    return c->half;
}

/* How far polygon s shrinks at most (with inset limit `inset`): the most
 * shrink_reach takes of skin, 2·skin, 4·skin, ... before it stops growing
 * (the insets halve down to the limit, so what a want takes need not grow
 * with it). */
static sccd_real poly_room(const sccd_shape2 *s, sccd_real skin, sccd_real inset)
{
    sccd_real last = -1.0;
    for (sccd_real want = skin;; want *= 2.0) {
        sccd_real got = shrink_reach(s, want, inset);
        if (got <= last)
            return last;
        last = got;
    }
}

/* Shape k's cache of what shrinking it takes, made once a solve: its half
 * thickness, its inset limit (a polygon's) and how far it can shrink (its
 * part of a pair's room): a polygon's found by doubling from the skin
 * (poly_room). A circle, capsule or box takes of a want all of it up to its
 * radius (0.999 of its smaller half size), then no more, so the doubling
 * stopped there: shrink_reach of an unbounded want gives it at once (the
 * same number, without the doubling's half a dozen rounds). Measured per
 * pair at every search, this was a fifth of a busy pile's CCD. */
static const shape_cache *shape_shrinks(solver *sv, int k, sccd_real skin)
{
    shape_cache *c = &sv->cache[k];
    if (c->room < 0.0) {
        shape_half(sv, k);
        const sccd_shape2 *s = &sv->shapes[k].geom;
        c->inset = s->type == SCCD_SHAPE_POLY ? poly_inset_limit(&s->poly, c->corner, c->bend) : 0.0;
        c->room = s->type == SCCD_SHAPE_POLY ? poly_room(s, skin, c->inset) : shrink_reach(s, INFINITY, 0.0);
    }
    return c;
}

/* A shape pair at the start of a search, with the solver whose caches
 * hold its shapes' (sa, sb: their inset limits and thicknesses, made only
 * once a shrink needs them: most pairs stand apart at the start) and the
 * skin sccd_start_depth's doubling starts from; what signed_gap measured,
 * for the shrinks that follow. */
typedef struct start_pair {
    const sccd_shape2 *a, *b;
    sccd_xf2 xa, xb;
    solver *sv;
    int sa, sb;
    sccd_real skin;
    bool cores_apart;         /* the shapes overlapped with their cores apart, ... */
    sccd_distance2 measured; /* ... as this query found them */
    sccd_simplex_cache *simplex; /* the pair's GJK simplex (sccd_pair): each query of the two shapes (the
                                  * start distance, the shrink's, the TOI's) starts from the last one's */
} start_pair;

/* Distance of shapes a and b placed by xa, xb (0 when they overlap), and
 * where it was measured (at, when not NULL). */
static sccd_real gap(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb, sccd_witness *at,
                     sccd_simplex_cache *simplex)
{
    sccd_distance2 d = sccd_shape2_distance_cached(a, xa, b, xb, simplex);
    if (at != NULL)
        *at = (sccd_witness){v3_of(sccd_v2_lerp(d.pa, d.pb, 0.5)), v3_of(d.normal)};
    return d.overlap ? 0.0 : d.distance;
}

/* Whether sccd_start_depth's doubling shrink, measuring the pair's
 * overlap o > 0, would find it exactly, as the distance query did at once
 * (where the cores stand apart, its closest points, each a radius out
 * along the normal joining the cores, stand the overlap apart). It does
 * when it takes the rounding radii alone: between circles and capsules
 * always; with a rounded polygon while its first shrink past o (the first
 * of skin, 2·skin, ... above o, where the cores come apart) leaves each
 * shape's share (shrink_pair's) within its radius — most resting contacts
 * of swords in a pile of rounded boxes, a shrink and a distance a doubling
 * each. Beyond, a polygon's inset or a box's half sizes recede farther
 * than the shrink at a corner, so the doubling gives a lower bound there,
 * and the targets are tuned to that bound: the exact overlap of a box and a
 * capsule let a motor press a wedged box through a thin wall (scene
 * fuzzer, ODE, 1 scene in 100,000). */
static bool doubling_exact(const start_pair *p, sccd_real o)
{
    const sccd_shape2 *a = p->a, *b = p->b;
    if (a->type == SCCD_SHAPE_POLY || b->type == SCCD_SHAPE_POLY) {
        sccd_real ra = rounding(a), rb = rounding(b), s = p->skin;
        if (!(s > 0.0) || !(o < ra + rb)) /* no doubling (it stops at once), or past the radii at any shrink */
            return false;
        while (s <= o)
            s *= 2.0;
        sccd_real share = sccd_shrink_share(s, shape_half(p->sv, p->sa), shape_half(p->sv, p->sb));
        return share <= ra && s - share <= rb;
    }
    return a->type != SCCD_SHAPE_BOX && b->type != SCCD_SHAPE_BOX;
}

/* Distance of the pair's shapes at the start; overlapping, minus the
 * overlap where the query measured it (the cores apart) and the doubling
 * shrink would find the same (doubling_exact), else 0. */
static sccd_real signed_gap(start_pair *p)
{
    sccd_distance2 d = sccd_shape2_distance_cached(p->a, p->xa, p->b, p->xb, p->simplex);
    if (!d.overlap)
        return d.distance;
    sccd_real o = sccd_v2_dot(sccd_v2_sub(d.pa, d.pb), d.normal);
    p->cores_apart = o > 0.0 && o < rounding(p->a) + rounding(p->b); /* the radii less the cores' distance */
    p->measured = d;
    return o > 0.0 && doubling_exact(p, o) ? -o : 0.0;
}

/* Whether copy c shrank by its rounding radius alone: a box shrinks its
 * half sizes, and a polygon moves its edges in only once its radius is
 * spent (none left: maybe moved). */
static bool shrank_by_radius(const sccd_shape2 *c) { return c->type != SCCD_SHAPE_BOX && (c->type != SCCD_SHAPE_POLY || c->poly.r > 0.0); }

/* The gap of copies ca, cb of the pair's shapes that shrank by their radii
 * alone, without a distance query when signed_gap measured the shapes with
 * their cores apart: the cores have not moved, so the closest points of
 * the copies lie on the same normal, each nearer its core by what its
 * radius lost (test_distance checks the witnesses this reads). A skin's
 * shrink of rounded shapes at rest is most of a buried sword's shrinks.
 * False when not known so. */
static bool radii_gap(const start_pair *p, const sccd_shape2 *ca, const sccd_shape2 *cb, sccd_real *distance, sccd_witness *at)
{
    if (!p->cores_apart || !shrank_by_radius(ca) || !shrank_by_radius(cb))
        return false;
    const sccd_distance2 *d = &p->measured;
    sccd_real da = rounding(p->a) - rounding(ca), db = rounding(p->b) - rounding(cb);
    sccd_v2 pa = sccd_v2_mad(d->pa, -da, d->normal), pb = sccd_v2_mad(d->pb, db, d->normal);
    *distance = sccd_max(sccd_v2_dot(sccd_v2_sub(pb, pa), d->normal), 0.0);
    if (at != NULL)
        *at = (sccd_witness){v3_of(sccd_v2_lerp(pa, pb, 0.5)), v3_of(d->normal)};
    return true;
}

/* sccd_shrink_fn over a start_pair: shrinks copies, never the shapes. */
static sccd_real shrink_start(void *pair, sccd_real s, sccd_real *distance, sccd_witness *at)
{
    start_pair *p = pair;
    if (s == 0.0 && distance != NULL) {
        *distance = signed_gap(p);
        return 0.0;
    }
    sccd_shape2 ca = *p->a, cb = *p->b;
    const shape_cache *ka = shape_shrinks(p->sv, p->sa, p->skin), *kb = shape_shrinks(p->sv, p->sb, p->skin);
    sccd_real shrunk = shrink_pair(&ca, &cb, s, ka, kb);
    if (distance != NULL && !radii_gap(p, &ca, &cb, distance, at))
        *distance = gap(&ca, p->xa, &cb, p->xb, at, p->simplex);
    return shrunk;
}

/* How far shape k of body i reaches from the centre its body's segment
 * turns about (cached per segment: every search of its pairs asks). A
 * shrunk core reaches no farther, so the bounds below hold for cores too. */
static sccd_real shape_farthest(solver *sv, int i, int k)
{
    shape_cache *c = &sv->cache[k];
    if (c->reached != sv->st[i].segment) {
        c->farthest = sccd_shape2_farthest_unchecked(&sv->shapes[k].geom, sv->st[i].m.center);
        c->reached = sv->st[i].segment;
    }
    return c->farthest;
}

/* How far the core of shape g (the shape less its rounding radius) reaches
 * from a centre the shape reaches `farthest` from: what the rate bounds
 * take. A turn moves a rounded shape's surface as it moves its core (the
 * rounding is a disc about each core point, the same at any angle), and a
 * gap between rounded shapes is their cores' less the radii: a spinning
 * circle closes no faster than its centre. */
static sccd_real turning_reach(const sccd_shape2 *g, sccd_real farthest) { return sccd_max(farthest - rounding(g), 0.0); }

/* turning_reach of shape k of body i about its centre of turning. */
static sccd_real core_reach(solver *sv, int i, int k) { return turning_reach(&sv->shapes[k].geom, shape_farthest(sv, i, k)); }

/* sccd_paths_apart for bodies moving by ma, mb whose shapes reach `reach`
 * from their centres in all. */
static bool paths_apart(sccd_motion2 ma, sccd_motion2 mb, sccd_real reach, sccd_real tol)
{
    sccd_v2 ca = sccd_motion2_center_at_inline(&ma, 0.0), cb = sccd_motion2_center_at_inline(&mb, 0.0);
    /* the ends: cb + dp is exactly sccd_motion2_center_at(mb, 1.0) (a + 1·b), read without a second pose */
    sccd_v2 d0 = sccd_v2_sub(cb, ca), d1 = sccd_v2_sub(sccd_v2_add(cb, mb.dp), sccd_v2_add(ca, ma.dp));
    return sccd_paths_apart((sccd_v3){d0.x, d0.y, 0.0}, (sccd_v3){d1.x, d1.y, 0.0}, reach, tol);
}

/* Rate bound of the distance between two shapes reaching fa and fb from
 * their centres of turning (|dp| + |dθ|·extent, per unit t). */
static sccd_real approach_bound(sccd_motion2 ma, sccd_real fa, sccd_motion2 mb, sccd_real fb)
{
    return sccd_v2_len(sccd_v2_sub(ma.dp, mb.dp)) + fabs(ma.dtheta) * fa + fabs(mb.dtheta) * fb;
}

/* How the gap of a pair that touches with normal n (a to b) at u can change
 * (sccd_gap_rate): β is the approach rate of the supporting points along n
 * (translation plus the support values of the shapes about their centres
 * along n × ω), κ = Σ ω²ρ. */
static sccd_gap_rate gap_rate(const sccd_shape2 *a, sccd_motion2 ma, sccd_real fa, const sccd_shape2 *b, sccd_motion2 mb,
                              sccd_real fb, sccd_real u, sccd_v2 n)
{
    sccd_v2 ua = {ma.dtheta * n.y, -ma.dtheta * n.x}, ub = {-mb.dtheta * n.y, mb.dtheta * n.x};
    sccd_v2 ca = sccd_motion2_center_at_inline(&ma, u), cb = sccd_motion2_center_at_inline(&mb, u);
    sccd_real sa = sccd_v2_dot(sccd_v2_sub(sccd_shape2_support_unchecked(a, sccd_motion2_at_unchecked(ma, u), ua), ca), ua);
    sccd_real sb = sccd_v2_dot(sccd_v2_sub(sccd_shape2_support_unchecked(b, sccd_motion2_at_unchecked(mb, u), ub), cb), ub);
    sccd_real beta = sccd_v2_dot(n, sccd_v2_sub(ma.dp, mb.dp)) + sa + sb;
    sccd_real kappa = ma.dtheta * ma.dtheta * fa + mb.dtheta * mb.dtheta * fb;
    return (sccd_gap_rate){beta, kappa};
}

/* A search put off: no event before `until` (INFINITY: none at all). */
static shape_event no_event_before(sccd_real until)
{
    return (shape_event){until < INFINITY ? EVENT_PENDING : EVENT_NONE, until < INFINITY ? until : 1.0, {0.0, 0.0}, {0.0, 0.0}, 0.0, 0.0};
}

/* An event of a pair `overlap` deep under its policy: how much deeper it
 * may sink while pushed, to half its slack (its room share is a bound on
 * the cores' overlap, and a box's corner sinks deeper than its shrunk core
 * tells: pushed to the whole share, a flyer box sank into a thin rotor
 * further than the scene fuzzer allows), and how far past its limit it is
 * (see resolve). */
static shape_event at_limit(impact_event kind, const sccd_target_policy *pol, sccd_real t, sccd_v2 point, sccd_v2 normal, sccd_real overlap)
{
    return (shape_event){kind, t, point, normal, sccd_policy_push_room(pol, overlap), sccd_max(overlap - pol->limit, 0.0)};
}

/* First event of shapes sa (body a) and sb (body b), moving by ma, mb (their
 * bodies' segments from time tc on), which reach fa and fb from their
 * centres of turning and approach at most at `rate` (approach_bound): the
 * cores (shrunk by the start overlap and the skin when the shapes overlap
 * at tc) reaching the target distance while the bodies approach. When the
 * search may `wait`, shapes known to be out of reach until some time have
 * EVENT_PENDING then instead (no TOI). */
static shape_event shape_pair_event(solver *sv, sccd_pair *pr, int sa, int sb, sccd_real tc, sccd_motion2 ma,
                                    sccd_motion2 mb, sccd_real fa, sccd_real fb, sccd_real rate, bool wait)
{
    int a = pr->a, b = pr->b;
    shape_event none = {EVENT_NONE, 1.0, {0.0, 0.0}, {0.0, 0.0}, 0.0, 0.0};
    sccd_real tol = sv->opt.toi_tolerance, skin = SCCD_SKIN_OVERLAPS * sv->opt.overlap;
    sccd_real until = sccd_pair_apart_until(pr, sa, sb, tc, rate, tol, wait);
    if (until > tc)
        return no_event_before(until);
    if (paths_apart(ma, mb, fa + fb, tol))
        return none;
    sccd_real depth, apart;
    start_pair start = {&sv->shapes[sa].geom, &sv->shapes[sb].geom, ma.start, mb.start, sv, sa, sb, skin, .simplex = &pr->simplex};
    sccd_pair_start_depth(pr, sa, sb, tc, shrink_start, &start, skin, &depth, &apart);
    sccd_pair_keep_reach(pr, tc, rate);
    until = sccd_reach_time(apart, rate, tc, tol);
    if (until == INFINITY || (wait && until > tc))
        return no_event_before(until);
    /* Past the early-outs (60,000 of the 145,000 shape pairs of swords buried in a pile, rain 0): the cores. */
    sccd_shape2 ca = sv->shapes[sa].geom, cb = sv->shapes[sb].geom;
    const shape_cache *ka = shape_shrinks(sv, sa, skin), *kb = shape_shrinks(sv, sb, skin);
    sccd_real now, room = ka->room + kb->room;
    bool settle = sv->bodies[a].kind == SCCD_BODY_STATIC || sv->bodies[b].kind == SCCD_BODY_STATIC;
    bool guard = sv->bodies[a].ccd || sv->bodies[b].ccd;
    sccd_target_policy pol = sccd_policy_start(pr, sa, sb, guard, depth, room, skin, tol, shrink_start, &start, &now);
    sccd_real shrunk = shrink_pair(&ca, &cb, pol.shrink, ka, kb);
    if (!sccd_policy_targets(&pol, depth, shrunk, now, settle, sv->opt.overlap, tol)) {
        ++sv->stats->overlapped; /* the cores cannot come apart: the engine's contact alone */
        return none;
    }
    sccd_real u0 = 0.0;
    ++sv->stats->candidates;
    for (int round = 0; round < sv->opt.toi_max_iterations && u0 < 1.0; ++round) {
        sccd_toi2 r = {SCCD_TOI_HIT, 0.0, v2_of(pr->gap_at.point), v2_of(pr->gap_at.normal), 0};
        if (round > 0 || !sccd_touches_at_start(depth, now, pol.target, tol)) {
            r = sccd_toi2_compute_cached(&ca, motion_rest(ma, u0), &cb, motion_rest(mb, u0), pol.target, tol, &pr->simplex);
            ++sv->stats->tois;
        }
        if (r.state == SCCD_TOI_SEPARATED)
            return none;
        sccd_real u = u0 + r.t * (1.0 - u0), t = tc + u * (1.0 - tc);
        if (r.state == SCCD_TOI_OVERLAPPED) { /* the cores touch at u0 (a rounding case): the engine's */
            ++sv->stats->overlapped;
            return none;
        }
        if (r.state == SCCD_TOI_FAILED) {
            ++sv->stats->failed;
            if (round + 1 == sv->opt.toi_max_iterations)
                return (shape_event){EVENT_STOP, t, r.point, r.normal, 0.0, 0.0};
            u0 = u; /* no contact before u: go on from there */
            continue;
        }
        sccd_real closing = approach(sv, a, b, t, r.point, r.normal);
        if (r.state == SCCD_TOI_HIT && sccd_is_impact(closing, depth, &pol, sv->dt, sv->opt.overlap) &&
            !(pr->pushes > 0 && closing * sv->dt <= sv->opt.overlap))
            return at_limit(EVENT_IMPACT, &pol, t, r.point, r.normal, shrunk - sccd_policy_cores(&pol, depth, now));
        /* Touching but not approaching (or slowly): skip while the gap provably holds.
         * A pair that is leaving (its supporting points separate) keeps its
         * target; one resting or sliding may sink, and at its limit, where
         * it may not, it stops (unless it cannot cross this step). */
        sccd_gap_rate g = gap_rate(&ca, ma, fa, &cb, mb, fb, u, r.normal);
        sccd_real span = sccd_separating_span(g, tol, rate);
        bool leaving = span > sccd_max(tol / rate, 1e-9);
        if (!leaving && !sccd_policy_sink(&pol))
            return sccd_policy_safe(&pol, g, rate, u, tol) ? none
                                                      : at_limit(EVENT_STOP, &pol, t, r.point, r.normal, shrunk - sccd_policy_cores(&pol, depth, now));
        u0 = u + span;
    }
    if (u0 >= 1.0)
        return none;
    ++sv->stats->failed; /* out of rounds: stop where it is still known safe */
    return (shape_event){EVENT_STOP, tc + u0 * (1.0 - tc), {0.0, 0.0}, {0.0, 0.0}, 0.0, 0.0};
}

/* ---- body pairs ---- */

/* What the candidate test sees of shape s under motion m: the box of its
 * sweep (START_END candidates: of its start and end poses only, what
 * speculative CCD sees), grown by the skin. */
/* Whether s is a circle about the centre of turning `centre` (a ball of a
 * pile, about its centre of gravity): a turn moves none of its points. */
static bool circle_at_centre(const sccd_shape2 *s, sccd_v2 centre)
{
    return s->type == SCCD_SHAPE_CIRCLE && s->circle.c.x == centre.x && s->circle.c.y == centre.y;
}

/* The box of such a circle of radius r moving by m: at every time it is
 * the circle about the centre's place c0 + t·dp (sccd_motion2_center_at),
 * and the box of that segment's ends grown by r holds every such circle
 * (either candidate rule: the ends' boxes and the path's are one). The
 * general motion box turns the circle's centre with the body, to end where
 * this one does, for several times the instructions. */
static sccd_aabb2 circle_path_box(sccd_real r, sccd_motion2 m)
{
    sccd_v2 c0 = sccd_motion2_center_at_inline(&m, 0.0), c1 = sccd_motion2_center_at_inline(&m, 1.0), g = {r, r};
    return (sccd_aabb2){sccd_v2_sub(sccd_v2_min(c0, c1), g), sccd_v2_add(sccd_v2_max(c0, c1), g)};
}

static sccd_aabb2 motion_box_as(const solver *sv, const sccd_shape2 *s, sccd_motion2 m, sccd_candidates candidates)
{
    sccd_aabb2 box;
    if (circle_at_centre(s, m.center))
        box = circle_path_box(s->circle.r, m);
    else if (candidates == SCCD_CANDIDATES_START_END)
        box = sccd_aabb2_union(sccd_shape2_aabb_unchecked(s, m.start), sccd_shape2_aabb_unchecked(s, sccd_motion2_at_unchecked(m, 1.0)));
    else
        box = sccd_shape2_motion_box_unchecked(s, m);
    sccd_v2 skin = {sv->opt.overlap, sv->opt.overlap};
    return (sccd_aabb2){sccd_v2_sub(box.lo, skin), sccd_v2_add(box.hi, skin)};
}

static sccd_aabb2 motion_box(const solver *sv, const sccd_shape2 *s, sccd_motion2 m)
{
    return motion_box_as(sv, s, m, sv->opt.candidates);
}

/* The motion box of shape k (of body i) over body i's whole current
 * segment, cached: with SWEEP candidates it holds the segment's part from
 * any time on. */
static sccd_aabb2 shape_box(solver *sv, int i, int k)
{
    shape_cache *c = &sv->cache[k];
    if (c->boxed != sv->st[i].segment) {
        c->box = motion_box_as(sv, &sv->shapes[k].geom, sv->st[i].m, SCCD_CANDIDATES_SWEEP);
        c->boxed = sv->st[i].segment;
    }
    return c->box;
}

static bool boxes_overlap(sccd_aabb2 a, sccd_aabb2 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

/* Whether the engine's own contact is enough for shapes sa and sb of
 * bodies ba and bb approaching at most at `rate` (sccd_engine_catches). */
static bool engine_catches(solver *sv, int ba, int sa, int bb, int sb, sccd_real rate)
{
    const sccd_impact_body2 *a = &sv->bodies[ba], *b = &sv->bodies[bb];
    bool flying = sccd_only_flying(a->struck, a->ccd, a->impacts, a->held) || sccd_only_flying(b->struck, b->ccd, b->impacts, b->held);
    return !a->ccd && !b->ccd && sccd_engine_catches(rate, shape_half(sv, sa), shape_half(sv, sb), flying);
}

/* The earliest event of bodies a and b from time tc over their shape pairs. */
static void search_pair(solver *sv, sccd_pair *pr, sccd_real tc, bool wait)
{
    pr->event = EVENT_NONE;
    pr->t = INFINITY;
    pr->from = tc;
    if (pr->ignored || move_together(sv, pr->a, pr->b))
        return;
    if (tc < pr->calm_until && sv->st[pr->a].segment == pr->calm_a && sv->st[pr->b].segment == pr->calm_b) {
        pr->event = EVENT_PENDING; /* resting after a push (resolve) */
        pr->t = pr->from = pr->calm_until;
        return;
    }
    ++sv->stats->pairs;
    const sccd_impact_body2 *A = &sv->bodies[pr->a], *B = &sv->bodies[pr->b];
    wait &= A->shape_count == 1 && B->shape_count == 1; /* a later search from tc repeats one shape pair's only */
    bool sweep = sv->opt.candidates == SCCD_CANDIDATES_SWEEP;
    sccd_motion2 ma = {0}, mb = {0};
    bool parts = false; /* ma, mb made (on first need: most pairs end at the segments' boxes) */
    for (int i = A->first_shape; i < A->first_shape + A->shape_count; ++i) {
        for (int j = B->first_shape; j < B->first_shape + B->shape_count; ++j) {
            if ((sweep && !boxes_overlap(shape_box(sv, pr->a, i), shape_box(sv, pr->b, j))) || !sccd_pair_may_collide(pr, sv->cb.collide, sv->cb.user, i, j))
                continue;
            if (!parts) {
                ma = part_from(&sv->st[pr->a], tc);
                mb = part_from(&sv->st[pr->b], tc);
                parts = true;
            }
            if (!sweep &&
                !boxes_overlap(motion_box(sv, &sv->shapes[i].geom, ma), motion_box(sv, &sv->shapes[j].geom, mb)))
                continue;
            /* The reaches and the approach bound, made once for the engine's test and the search (made in
             * each, with each reach looked up again, they were 1.6 % of the CCD of swords buried in a pile). */
            sccd_real fa = shape_farthest(sv, pr->a, i), fb = shape_farthest(sv, pr->b, j);
            sccd_real rate = approach_bound(ma, turning_reach(&sv->shapes[i].geom, fa), mb,
                                            turning_reach(&sv->shapes[j].geom, fb));
            if (engine_catches(sv, pr->a, i, pr->b, j, rate))
                continue;
            shape_event e = shape_pair_event(sv, pr, i, j, tc, ma, mb, fa, fb, rate, wait);
            if (e.event != EVENT_NONE && e.t < pr->t)
            {
                pr->event = e.event;
                pr->t = e.t;
                pr->sa = i;
                pr->sb = j;
                pr->point = v3_of(e.point);
                pr->normal = v3_of(e.normal);
                pr->left = e.left;
                pr->sunk = e.sunk;
            }
        }
    }
}

/* Body i's box by the candidate rule (box) and its path's box (path) over
 * its current segment: the unions of its shapes' boxes. */
static void shapes_boxes(solver *sv, int i, sccd_aabb2 *box, sccd_aabb2 *path)
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    bool ends = sv->opt.candidates == SCCD_CANDIDATES_START_END;
    *box = *path = (sccd_aabb2){{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    for (int k = b->first_shape; k < b->first_shape + b->shape_count; ++k) {
        sccd_aabb2 pb = shape_box(sv, i, k); /* the path: a start-and-end box misses a turn's bulge */
        sccd_aabb2 sb = ends ? motion_box(sv, &sv->shapes[k].geom, sv->st[i].m) : pb;
        *box = (sccd_aabb2){sccd_v2_min(box->lo, sb.lo), sccd_v2_max(box->hi, sb.hi)};
        *path = (sccd_aabb2){sccd_v2_min(path->lo, pb.lo), sccd_v2_max(path->hi, pb.hi)};
    }
}

/* What body i covers over its current segment (cached until it changes).
 * A body of one shape under the sweep rule (every body of a pile) takes
 * that shape's box as both, the unions' result (the empty box's infinities
 * give way to any number, NaN too), without the loop (the loop's 0.5 % of
 * the CCD of swords buried in a pile). */
static sccd_aabb3 body_box(solver *sv, int i)
{
    body_state *s = &sv->st[i];
    if (!s->boxed) {
        const sccd_impact_body2 *b = &sv->bodies[i];
        sccd_aabb2 box, path;
        if (b->shape_count == 1 && sv->opt.candidates == SCCD_CANDIDATES_SWEEP)
            box = path = shape_box(sv, i, b->first_shape);
        else
            shapes_boxes(sv, i, &box, &path);
        s->box = (sccd_aabb3){v3_of(box.lo), v3_of(box.hi)};
        s->boxed = true;
        s->covered = (sccd_aabb3){sccd_v3_min(s->covered.lo, v3_of(path.lo)), sccd_v3_max(s->covered.hi, v3_of(path.hi))};
    }
    return s->box;
}

/* Whether bodies a and b can collide at all: different, one dynamic (a
 * struck body not against ordinary ones: sccd_struck_passes). */
static bool pair_possible(const solver *sv, int a, int b)
{
    const sccd_impact_body2 *x = &sv->bodies[a], *y = &sv->bodies[b];
    return a != b && (x->kind == SCCD_BODY_DYNAMIC || y->kind == SCCD_BODY_DYNAMIC) && x->shape_count > 0 && y->shape_count > 0 &&
           !sccd_struck_passes(x->struck, x->ccd, x->impacts, x->held, y->kind, y->ccd) &&
           !sccd_struck_passes(y->struck, y->ccd, y->impacts, y->held, x->kind, x->ccd);
}

/* ---- events ---- */

/* Body i's response to a generalized impulse (J at the world point p, and
 * an angular impulse L): the change of (velocity at p, angular velocity)
 * is m·(J, L), m symmetric 3×3 (row-major). */
static void response_matrix(const solver *sv, int i, sccd_real t, sccd_v2 p, sccd_real m[9])
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    const body_state *s = &sv->st[i];
    memset(m, 0, 9 * sizeof *m);
    if (b->kind != SCCD_BODY_DYNAMIC || s->frozen)
        return;
    sccd_v2 c = cog_at(sv, i, t), r = sccd_v2_sub(p, c);
    sccd_real lin = b->inv_mass, ang = b->inv_inertia;
    if (s->hinged) {
        r = sccd_v2_sub(p, s->hinge);
        ang = sccd_hinge_inv_inertia(b->inv_mass, b->inv_inertia, sccd_v2_len2(sccd_v2_sub(c, s->hinge)));
        lin = 0.0;
    }
    sccd_real g[3] = {-r.y, r.x, 1.0}; /* Δw = ang·(g·(J, L)); Δv(p) = lin·J + perp(r)·Δw */
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col)
            m[3 * row + col] = ang * g[row] * g[col] + (row == col && row < 2 ? lin : 0.0);
}

/* Restart body i at t after a join, keeping what rode along with it:
 * released, a rider would meet i again at once and be joined again, undoing
 * the last join, without end (a blade pushing into a pile). A rider that
 * i's new motion would speed up stops instead: no energy from nothing. */
static void restart_keeping_riders(solver *sv, int i, sccd_real t)
{
    restart_state(&sv->bodies[i], &sv->st[i], t, sv->dt);
    sccd_events_changed(&sv->events, i);
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j)
        if (sv->st[j].carrier == i) {
            sccd_real before = energy(sv, j, t, (sccd_v2){0.0, 0.0});
            sccd_v2 out_v = sv->st[j].out_v;
            sccd_real out_w = sv->st[j].out_w;
            carry(sv, j, i, t);
            if (energy(sv, j, t, (sccd_v2){0.0, 0.0}) > before) { /* it stops, reporting the velocity it had */
                hold(sv, j, t);
                sv->st[j].out_v = out_v;
                sv->st[j].out_w = out_w;
            }
        }
}

/* Body `light` is to ride along with `heavy` from t: first the perfectly
 * inelastic impulse (linear at light's centre of mass, and angular) that
 * makes light move as a part of heavy, taken from heavy's momentum, so the
 * energy does not grow; heavy goes on with what is left. False when light
 * cannot be matched (infinite inertia). */
static bool join(solver *sv, int light, int heavy, sccd_real t)
{
    sccd_v2 p = cog_at(sv, light, t);
    sccd_real ml[9], mh[9], m[9], x[3];
    /* A hinged body cannot move as a part of heavy; one carrying riders would
     * take them along at heavy's motion, which the impulse (light's alone)
     * does not pay for (random piles gained 4 % of their energy): both stop. */
    if (sv->st[light].hinged || sv->st[light].riders > 0)
        return false;
    response_matrix(sv, light, t, p, ml);
    response_matrix(sv, heavy, t, p, mh);
    for (int k = 0; k < 9; ++k)
        m[k] = ml[k] + mh[k];
    sccd_v2 dv = sccd_v2_sub(velocity_at(sv, heavy, t, p), velocity_at(sv, light, t, p));
    sccd_real u[3] = {dv.x, dv.y, sv->st[heavy].w - sv->st[light].w};
    const sccd_impact_body2 *bl = &sv->bodies[light];
    if (!sccd_solve_response(3, 2, sccd_gyration_unit(bl->inv_mass, bl->inv_inertia), m, u, x))
        return false;
    sccd_v2 zero = {0.0, 0.0};
    sccd_real before = energy(sv, heavy, t, zero) + energy(sv, light, t, zero);
    body_state *h = &sv->st[heavy], kept_h = *h, kept_l = sv->st[light];
    sccd_v2 j = {x[0], x[1]};
    sccd_real dw = mh[6] * x[0] + mh[7] * x[1] + mh[8] * x[2]; /* heavy's spin change, from row 3 */
    sccd_v2 cog = cog_at(sv, heavy, t);
    if (h->hinged) {
        h->w -= dw;
        h->v = sccd_v2_scale(sccd_v2_perp(sccd_v2_sub(cog, h->hinge)), h->w);
    } else {
        h->v = sccd_v2_mad(h->v, -sv->bodies[heavy].inv_mass, j);
        h->w -= dw;
    }
    sv->st[light].v = velocity_at(sv, heavy, t, p); /* as a part of heavy, to weigh the energy */
    sv->st[light].w = h->w;
    bool gains = !(energy(sv, heavy, t, zero) + energy(sv, light, t, zero) <= before * (1.0 + 1e-9));
    sv->st[light] = kept_l;
    if (gains) { /* a near-singular response: no join */
        *h = kept_h;
        return false;
    }
    restart_keeping_riders(sv, heavy, t);
    carry(sv, light, heavy, t);
    return true;
}

/* Restart body i's segment at t after an impulse, if it changed the body's
 * velocity (v0, w0 before; a jointed body's v follows from w) or it is a
 * dynamic body carrying riders (a kinematic one keeps them: its motion does
 * not change, and let go at every push it gave, they were carried again
 * at the same instant until the solver's guard ran out: scene fuzzer,
 * ODE). Restarted, a body whose motion the impulse left as it was (a
 * static wall, a kinematic bat, a hinged body its motor holds, a held
 * body) had every pair of it searched again and its neighbourhood paired
 * anew, for nothing: its segment goes on as it was. It reports what a
 * restart would: the velocity it moves by (a held body struck again
 * reports rest; the velocity it kept from its stop let a motor press a
 * blade through a thin wall, one step after another: scene fuzzer,
 * Chipmunk). */
static void restart_if_moved(solver *sv, int i, sccd_real t, sccd_v2 v0, sccd_real w0)
{
    body_state *s = &sv->st[i];
    if (s->w != w0 || (!s->hinged && (s->v.x != v0.x || s->v.y != v0.y)) || (s->riders > 0 && sv->bodies[i].kind == SCCD_BODY_DYNAMIC)) {
        restart(sv, i, t);
        return;
    }
    s->out_v = s->v; /* what a restart reports */
    s->out_w = s->w;
}

/* The pair's calm after a push: not searched while it provably cannot sink
 * past what is left of its room (sccd_calm_span on the new motions),
 * unless either body's motion changes first. */
static void calm(solver *sv, sccd_pair *pr)
{
    int a = pr->a, b = pr->b;
    sccd_real t = pr->t;
    sccd_motion2 ma = part_from(&sv->st[a], t), mb = part_from(&sv->st[b], t);
    sccd_real fa = shape_farthest(sv, a, pr->sa), fb = shape_farthest(sv, b, pr->sb);
    sccd_gap_rate g = gap_rate(&sv->shapes[pr->sa].geom, ma, fa, &sv->shapes[pr->sb].geom, mb, fb, 0.0, v2_of(pr->normal));
    pr->calm_until = t + sccd_calm_span(g, approach_bound(ma, core_reach(sv, a, pr->sa), mb, core_reach(sv, b, pr->sb)), pr->left) * (1.0 - t);
    pr->calm_a = sv->st[a].segment;
    pr->calm_b = sv->st[b].segment;
}

/* The contact of pair pr's event: an impact (pushed < 0; restitution and
 * friction), or body `pushed` stopped at the pair's overlap limit against
 * the kinematic body pushing it. A push takes the contact's impulse
 * (restitution 0, Coulomb friction: what a contact the engine held would
 * give; a speed of separation that would take it back up to its limit
 * within a step), then the pair rests (calm). Searched again, it meets
 * again (an impact, lifted the same way) and is pushed again: the push is followed in impulses, as a sub-stepped engine follows
 * a held contact, and the body slides along its pusher's face as the
 * physics says. Not for bodies of several shapes: the rest would skip the
 * others. Either way the game hears it as any contact: begin before (false:
 * pr->ignored, the pair free for the rest of the step), post after. False
 * when there is no impulse to give. */
static bool resolve(solver *sv, sccd_pair *pr, int pushed)
{
    int a = pr->a, b = pr->b;
    bool kinematic = sv->bodies[a].kind == SCCD_BODY_KINEMATIC || sv->bodies[b].kind == SCCD_BODY_KINEMATIC;
    if (pushed >= 0 ? sv->bodies[a].shape_count != 1 || sv->bodies[b].shape_count != 1
                    : sccd_pair_jammed(pr, sv->st[a].segment, sv->st[b].segment, kinematic))
        return false;
    const sccd_impact_shape2 *sa = &sv->shapes[pr->sa], *sb = &sv->shapes[pr->sb];
    sccd_v2 p = v2_of(pr->point), n = v2_of(pr->normal);
    sccd_impact_contact2 c = {pr->sa, pr->sb, pr->t, p, n, approach(sv, a, b, pr->t, p, n),
                              sccd_mix_elasticity(sa->elasticity, sb->elasticity), sccd_mix_friction(sa->friction, sb->friction),
                              {0.0, 0.0}};
    if (sv->cb.begin != NULL && !sv->cb.begin(sv->cb.user, &c)) {
        pr->ignored = true;
        pr->event = EVENT_NONE;
        return true;
    }
    c.elasticity = pushed >= 0 ? 0.0 : sccd_clean_elasticity(c.elasticity);
    c.friction = sccd_clean_friction(c.friction);
    sccd_v2 va = sv->st[a].v, vb = sv->st[b].v;
    sccd_real wa = sv->st[a].w, wb = sv->st[b].w;
    bool pushing = pushed >= 0 || pr->pushes > 0;
    if (!collide(sv, pr, &c, pushing ? pr->sunk / sv->dt : 0.0))
        return false;
    ++sv->stats->impacts;
    ++sv->bodies[a].impacts;
    ++sv->bodies[b].impacts;
    restart_if_moved(sv, a, pr->t, va, wa);
    restart_if_moved(sv, b, pr->t, vb, wb);
    if (pushed >= 0)
        calm(sv, pr);
    else
        sccd_pair_note_impact(pr, sv->st[a].segment, sv->st[b].segment);
    if (sv->cb.post != NULL)
        sv->cb.post(sv->cb.user, &c);
    return true;
}

/* The event loop's view of the solver (impact_events.c). */
static void op_search(void *sv, sccd_pair *pr, sccd_real tc, bool wait) { search_pair(sv, pr, tc, wait); }
static bool op_resolve(void *sv, sccd_pair *pr, int pushed) { return resolve(sv, pr, pushed); }
static bool op_possible(const void *sv, int a, int b) { return pair_possible(sv, a, b); }
static sccd_aabb3 op_box(void *sv, int i) { return body_box(sv, i); }
static bool op_moves_freely(const void *sv, int i) { return moves_freely(sv, i); }
static int op_carrier(const void *sv, int i) { return ((const solver *)sv)->st[i].carrier; }
static sccd_body_kind op_kind(const void *sv, int i) { return ((const solver *)sv)->bodies[i].kind; }
static bool op_ccd(const void *sv, int i) { return ((const solver *)sv)->bodies[i].ccd; }
static sccd_real op_inv_mass(const void *sv, int i) { return ((const solver *)sv)->bodies[i].inv_mass; }
/* Drop what of body i's velocity runs into the contact of pair pr (an
 * inelastic, frictionless impulse against an immovable partner). */
static void rest_against(solver *sv, int i, const sccd_pair *pr)
{
    sccd_v2 p = v2_of(pr->point), n = v2_of(i == pr->a ? pr->normal : sccd_v3_neg(pr->normal));
    sccd_real u = sccd_v2_dot(velocity_at(sv, i, pr->t, p), n), k = inv_mass_along(sv, i, pr->t, p, n);
    if (u <= 0.0 || k <= 0.0)
        return;
    body_state *s = &sv->st[i];
    apply_impulse(sv, i, pr->t, p, sccd_v2_scale(n, -u / k));
    s->out_v = s->v;
    s->out_w = s->w;
}

static void op_hold(void *sv, int i, sccd_real t, const sccd_pair *against)
{
    if (against != NULL && moves_freely(sv, i))
        rest_against(sv, i, against);
    hold(sv, i, t);
}
static void op_halt(void *sv, int i, sccd_real t)
{
    solver *s = sv;
    hold(s, i, t);
    s->st[i].out_v = (sccd_v2){0.0, 0.0};
    s->st[i].out_w = 0.0;
}
/* A jam's impulse (sccd_event_ops.settle; impact_events.c's stop_pair). */
static bool op_settle(void *sv, const sccd_pair *pr)
{
    solver *s = sv;
    if (!(s->st[pr->a].hinged || s->st[pr->b].hinged))
        return false;
    sccd_v2 p = v2_of(pr->point), n = v2_of(pr->normal);
    sccd_real u = approach(s, pr->a, pr->b, pr->t, p, n);
    sccd_real k = inv_mass_along(s, pr->a, pr->t, p, n) + inv_mass_along(s, pr->b, pr->t, p, n);
    if (u > 0.0 && k > 0.0)
        push(s, pr->a, pr->b, pr->t, p, sccd_v2_scale(n, u / k));
    int ends[2] = {pr->a, pr->b};
    for (int m = 0; m < 2; ++m)
        if (moves_freely(s, ends[m])) {
            s->st[ends[m]].out_v = s->st[ends[m]].v;
            s->st[ends[m]].out_w = s->st[ends[m]].w;
        }
    return true;
}
static void op_carry(void *sv, int i, int k, sccd_real t) { carry(sv, i, k, t); }
static bool op_join(void *sv, int light, int heavy, sccd_real t) { return join(sv, light, heavy, t); }
static bool op_gather(void *sv, int i);
static const sccd_event_ops event_ops = {op_search, op_resolve, op_possible, op_box,    op_kind,   op_ccd, op_inv_mass, op_moves_freely,
                                         op_carrier, op_hold, op_halt, op_settle, op_carry, op_join, op_gather};

/* ---- set-up and results ---- */

static bool valid_body(const sccd_impact_body2 *b, int shape_count)
{
    bool kind = b->kind == SCCD_BODY_STATIC || b->kind == SCCD_BODY_KINEMATIC || b->kind == SCCD_BODY_DYNAMIC;
    return kind && sccd_is_valid_xf2(b->pose) && sccd_is_valid_real(b->angle) && sccd_is_valid_v2(b->cog) &&
           sccd_is_valid_v2(b->v) && sccd_is_valid_real(b->w) && sccd_is_valid_real(b->inv_mass) && b->inv_mass >= 0.0 &&
           sccd_is_valid_real(b->inv_inertia) && b->inv_inertia >= 0.0 && sccd_is_valid_v2(b->hinge) &&
           sccd_is_valid_v2(b->pivot) && b->first_shape >= 0 && b->shape_count >= 0 &&
           b->first_shape <= shape_count - b->shape_count;
}

static bool valid_shape(const sccd_impact_shape2 *s, int body, int body_count)
{
    return sccd_is_valid_shape2(&s->geom) && s->body == body && body < body_count && sccd_is_valid_real(s->elasticity) &&
           s->elasticity >= 0.0 && sccd_is_valid_real(s->friction) && s->friction >= 0.0;
}

static bool valid_input(const sccd_impact_body2 *bodies, int n, const sccd_impact_shape2 *shapes, int shape_count,
                        sccd_real dt, const sccd_ccd_options *o)
{
    if (bodies == NULL || n < 0 || (shapes == NULL && shape_count > 0) || shape_count < 0 || o == NULL ||
        !sccd_is_valid_real(dt) || dt < 0.0)
        return false;
    sccd_ccd_options check = *o;
    if (sccd_ccd_options_merge(&check, *o) != 0)
        return false;
    for (int i = 0; i < n; ++i) {
        if (!valid_body(&bodies[i], shape_count))
            return false;
        for (int k = bodies[i].first_shape; k < bodies[i].first_shape + bodies[i].shape_count; ++k)
            if (!valid_shape(&shapes[k], i, n))
                return false;
    }
    return true;
}

/* Body b's state at the step start and its free segment. */
static void start_state(const sccd_impact_body2 *b, body_state *s, sccd_real dt)
{
    bool moves = b->kind != SCCD_BODY_STATIC;
    sccd_aabb3 empty = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    /* Field by field, as impact3.c's: the caches (the pose, the box) are
     * read only once made (at_t, boxed say when), so they are not zeroed. */
    s->t0 = 0.0;
    s->m = (sccd_motion2){b->pose, b->pivot, {0.0, 0.0}, 0.0};
    s->angle0 = b->angle;
    s->v = moves ? b->v : (sccd_v2){0.0, 0.0};
    s->w = moves ? b->w : 0.0;
    s->hinge = sccd_xf2_apply(b->pose, b->hinge);
    s->hinged = b->hinged && b->kind == SCCD_BODY_DYNAMIC;
    s->frozen = false;
    s->carrier = -1;
    s->riders = 0;
    s->covered = empty;
    s->segment = 0;
    s->at_t = -1.0;
    s->asked = empty;
    s->asked_reach = -1.0;
    s->asked_fixed = false;
    restart_state(b, s, 0.0, dt);
}

/* start_state, and body b's counts of this step reset. */
static void begin_state(sccd_impact_body2 *b, body_state *s, sccd_real dt)
{
    b->impacts = 0;
    b->held = false;
    start_state(b, s, dt);
}

/* Write body b's results: its pose at the step's end and its velocity. */
static void end_state(sccd_impact_body2 *b, body_state *s)
{
    b->end_pose = pose_at(s, 1.0);
    b->end_angle = angle_at(s, 1.0);
    b->end_v = s->out_v;
    b->end_w = s->out_w;
    b->swept = (sccd_aabb2){{s->covered.lo.x, s->covered.lo.y}, {s->covered.hi.x, s->covered.hi.y}};
    if (s->hinged && !s->frozen) /* the turn about the hinge, at the end pose */
        b->end_v = sccd_v2_scale(sccd_v2_perp(sccd_v2_sub(sccd_xf2_apply(b->end_pose, b->cog), s->hinge)), s->out_w);
}

/* Whether body i, not a CCD body, struck in this solve (or passed struck),
 * may cross a thin body in the engine's next step, moving on at its end
 * velocity: one of its shapes' surfaces (its core's points: a rounding
 * turns in place) moves that shape's half thickness
 * (sccd_engine_catches' rule for a flying body, against the thinnest
 * partner there is: none). */
static bool flying(const solver *sv, int i)
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    if (b->kind != SCCD_BODY_DYNAMIC || b->ccd || !(b->impacts > 0 || b->held || b->struck))
        return false;
    sccd_real speed = sccd_v2_len(b->end_v) * sv->dt, turn = fabs(b->end_w) * sv->dt;
    for (int k = b->first_shape; k < b->first_shape + b->shape_count; ++k) {
        const sccd_shape2 *g = &sv->shapes[k].geom;
        if (!sccd_engine_catches(speed + turn * turning_reach(g, sccd_shape2_farthest_unchecked(g, b->cog)), shape2_half_thickness(g), 0.0, true))
            return true;
    }
    return false;
}

/* Bad input: the body stays where it was (a valid pose, else the origin), at rest. */
static void keep_still(sccd_impact_body2 *b)
{
    bool ok = sccd_is_valid_xf2(b->pose) && sccd_is_valid_real(b->angle);
    b->end_pose = ok ? b->pose : sccd_xf2_identity();
    b->end_angle = ok ? b->angle : 0.0;
    b->end_v = (sccd_v2){0.0, 0.0};
    b->end_w = 0.0;
    b->swept = (sccd_aabb2){{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    b->impacts = 0;
    b->held = false;
    b->flying = false;
}

/* ---- bodies taken in mid-step ---- */

/* Take in what the gather hook appended: bodies [n, set->body_count) with
 * their shapes, each checked as the solve's input. Bad ones: SCCD_ASSERT,
 * kept still, and the solve fails. */
static bool take_in(solver *sv, const sccd_impact_set2 *set)
{
    int n0 = sv->n, ns0 = sv->ns, n = set->body_count, ns = set->shape_count;
    bool valid = set->bodies != NULL && n >= n0 && ns >= ns0 && (set->shapes != NULL || ns == 0);
    for (int i = n0; valid && i < n; ++i) {
        const sccd_impact_body2 *b = &set->bodies[i];
        valid = valid_body(b, ns) && b->first_shape >= ns0;
        for (int k = b->first_shape; valid && k < b->first_shape + b->shape_count; ++k)
            valid = valid_shape(&set->shapes[k], i, n);
    }
    SCCD_ASSERT(valid);
    if (!valid) {
        for (int i = n0; set->bodies != NULL && i < n; ++i)
            keep_still(&set->bodies[i]);
        return false;
    }
    sv->n = n; /* from here a failure gives every body its free motion */
    sv->ns = ns;
    sccd_impact_scratch *scratch = sv->events.scratch;
    if (!sccd_scratch_reserve(&scratch->bodies, &scratch->body_bytes, (size_t)n * sizeof(body_state)) ||
        !sccd_scratch_reserve(&scratch->shapes, &scratch->shape_bytes, (size_t)ns * sizeof(shape_cache)))
        return false;
    sv->st = scratch->bodies;
    sv->cache = scratch->shapes;
    for (int k = ns0; k < ns; ++k)
        clear_cache(&sv->cache[k]);
    for (int i = n0; i < n; ++i)
        begin_state(&sv->bodies[i], &sv->st[i], sv->dt);
    sv->stats->gathered += n - n0;
    return sccd_events_grow(&sv->events, n);
}

/* What body i's current segment may reach (sccd_impact_reach2). */
static sccd_impact_reach2 reach_of(solver *sv, int i)
{
    const sccd_impact_body2 *b = &sv->bodies[i];
    const sccd_motion2 *m = &sv->st[i].m;
    sccd_aabb3 box = body_box(sv, i);
    sccd_impact_reach2 r = {i, {{box.lo.x, box.lo.y}, {box.hi.x, box.hi.y}}, 0.0, b->ccd ? INFINITY : 0.0};
    sccd_real half = INFINITY;
    for (int k = b->first_shape; k < b->first_shape + b->shape_count; ++k) {
        r.reach = sccd_max(r.reach, sccd_v2_len(m->dp) + fabs(m->dtheta) * core_reach(sv, i, k));
        half = sccd_min(half, shape_half(sv, k));
    }
    r.half = b->ccd ? INFINITY : half;
    r.fixed_only = sccd_only_flying(b->struck, b->ccd, b->impacts, b->held);
    return r;
}

/* How much an ordinary body asking again grows its box, a fraction of its
 * reach (op_gather). A pile's ball struck twice mostly asks a third time
 * within that: in the 1,000 + 100 debris rain 1,562 of its 1,880 questions
 * asked again lay within a quarter of the reach of the one before (rain 0:
 * CCD -0.8 %). Growing every first question instead gathered more than it
 * saved around swords buried in a pile (cp_overhead: +0.9 % to +3 %, and
 * a course changed by the bodies taken in), a CCD body's questions too (a
 * blade's reach is its tip's: +7.5 %). */
#define REASK_GROWTH 0.15

/* The box to ask about for body i, whose segment's box is `box` and whose
 * points move up to `reach` on it: grown by REASK_GROWTH of its reach when
 * an ordinary body asks again (its motion changed once more). Any box
 * holding the segment's is a valid question: the caller gathers what may
 * lie within it. */
static sccd_aabb3 question_box(const solver *sv, int i, sccd_aabb3 box, sccd_real reach)
{
    sccd_real g = REASK_GROWTH * reach;
    if (sv->bodies[i].ccd || sv->st[i].asked_reach < 0.0 || !(g > 0.0))
        return box;
    return (sccd_aabb3){{box.lo.x - g, box.lo.y - g, box.lo.z}, {box.hi.x + g, box.hi.y + g, box.hi.z}};
}

/* Body i's segment changed: ask the caller for what it may now reach
 * (callbacks.gather), unless an earlier question covered it (its box
 * holding this one, for points moving as far: the caller's answer holds
 * everything of the box that such points could pass through, and so
 * everything the new question wants), and take the answer in. The box
 * asked about is the one recorded (question_box). Only a body that moves
 * on its own asks: a stopped one reaches nothing new. */
static bool op_gather(void *solver_, int i)
{
    solver *sv = solver_;
    if (sv->cb.gather == NULL || !moves_freely(sv, i))
        return true;
    body_state *s = &sv->st[i];
    sccd_impact_reach2 r = reach_of(sv, i);
    sccd_aabb3 box = body_box(sv, i);
    if (r.reach <= s->asked_reach && sccd_box_holds(s->asked, box) && (r.fixed_only || !s->asked_fixed))
        return true;
    box = question_box(sv, i, box, r.reach);
    r.box = (sccd_aabb2){{box.lo.x, box.lo.y}, {box.hi.x, box.hi.y}};
    s->asked = box;
    s->asked_reach = r.reach;
    s->asked_fixed = r.fixed_only;
    sccd_impact_set2 set = {sv->bodies, sv->n, sv->shapes, sv->ns};
    ++sv->stats->gathers;
    bool answered = sv->cb.gather(sv->cb.user, &r, &set);
    if (set.bodies != NULL) /* the arrays may have moved, answered or not: the results go there */
        sv->bodies = set.bodies;
    if (set.shapes != NULL)
        sv->shapes = set.shapes;
    return answered && take_in(sv, &set);
}

sccd_motion2 sccd_impact2_free_motion(const sccd_impact_body2 *b, sccd_real dt)
{
    if (b == NULL || !valid_body(b, INT_MAX) || !sccd_is_valid_real(dt) || dt < 0.0) {
        SCCD_ASSERT(b != NULL && valid_body(b, INT_MAX) && sccd_is_valid_real(dt) && dt >= 0.0);
        return (sccd_motion2){sccd_xf2_identity(), {0.0, 0.0}, {0.0, 0.0}, 0.0};
    }
    body_state s;
    start_state(b, &s, dt);
    return s.m;
}

/* The area of shape g: a rounded polygon's core, the band along its edges
 * and the disc of its corners (Chipmunk's area for its shapes). The
 * polygon's cross products are taken from its first vertex, so a shape
 * far from its body's origin loses no digits. */
static sccd_real shape_area(const sccd_shape2 *g)
{
    switch (g->type) {
    case SCCD_SHAPE_CIRCLE:
        return SCCD_PI * g->circle.r * g->circle.r;
    case SCCD_SHAPE_CAPSULE:
        return g->capsule.r * (SCCD_PI * g->capsule.r + 2.0 * sccd_v2_dist(g->capsule.a, g->capsule.b));
    case SCCD_SHAPE_BOX:
        return 4.0 * g->box.h.x * g->box.h.y;
    default: {
        const sccd_poly2 *p = &g->poly;
        sccd_real twice = 0.0, edges = 0.0;
        for (int i = 1; i + 1 < p->n; ++i)
            twice += sccd_v2_cross(sccd_v2_sub(p->v[i], p->v[0]), sccd_v2_sub(p->v[i + 1], p->v[0]));
        for (int i = 0, j = p->n - 1; i < p->n && p->r > 0.0; j = i++)
            edges += sccd_v2_dist(p->v[j], p->v[i]);
        return 0.5 * twice + p->r * (SCCD_PI * p->r + edges);
    }
    }
}

/* Whether sccd_impact2_centre_box may read b, g and dt: what it reads
 * finite, sizes ≥ 0. A polygon need not be convex: its farthest vertex
 * bounds its hull, and one wound clockwise has a negative area (not
 * compact: the caller's motion box checks it). */
static bool centre_box_input(const sccd_impact_body2 *b, const sccd_shape2 *g, sccd_real dt)
{
    return sccd_is_valid_xf2(b->pose) && sccd_is_valid_v2(b->cog) && sccd_is_valid_v2(b->v) &&
           sccd_is_valid_v2(b->pivot) && valid_shape2_numbers(g) && sccd_is_valid_real(dt) && dt >= 0.0;
}

/* The solver turns a body that is not hinged about its pivot, which, when
 * it is the centre of mass, runs on the segment from c0 to c0 + v·dt
 * (restart_state): every point of g stays within ρ, its farthest distance
 * from that centre, of the segment all step, so the segment's box grown by
 * ρ holds every pose. A valid rotation stretches by up to BOX_ROTATION_SLACK,
 * and the solver turns the pose's as given (ρ is measured in body
 * coordinates, a box's own rotation applied), so ρ is grown by that share,
 * twice for rounding's room; the
 * SCCD_EPS share of the magnitudes covers the rounding between this and
 * the solver's poses (a few units of 1e-16 of them). A compact shape's turn sweeps most of the disc of radius ρ,
 * and the box is then about as tight as its motion box, for a few hundred
 * instructions where the free motion and its motion box take 1,200: one
 * whose area is at least ρ², a third of that disc (a square's is 2ρ², a
 * 3:1 rectangle's 1.2ρ²). A blade turning a little sweeps a thin sector,
 * which only its motion box follows. */
bool sccd_impact2_centre_box(const sccd_impact_body2 *b, const sccd_shape2 *g, sccd_real dt, sccd_aabb2 *box)
{
    if (b == NULL || g == NULL || box == NULL || !centre_box_input(b, g, dt)) {
        SCCD_ASSERT(b != NULL && g != NULL && box != NULL && centre_box_input(b, g, dt));
        return false;
    }
    if ((b->hinged && b->kind == SCCD_BODY_DYNAMIC) || b->pivot.x != b->cog.x || b->pivot.y != b->cog.y)
        return false;
    sccd_real rho = sccd_shape2_farthest_unchecked(g, b->cog);
    if (!(rho * rho <= shape_area(g)))
        return false;
    sccd_v2 c0 = sccd_xf2_apply(b->pose, b->cog), c1 = b->kind == SCCD_BODY_STATIC ? c0 : sccd_v2_mad(c0, dt, b->v);
    sccd_v2 lo = sccd_v2_min(c0, c1), hi = sccd_v2_max(c0, c1);
    sccd_v2 far = sccd_v2_max(sccd_v2_abs(lo), sccd_v2_abs(hi));
    sccd_real magnitude = sccd_max(far.x, far.y) + rho + fabs(b->cog.x) + fabs(b->cog.y);
    if (!sccd_is_valid_real(magnitude)) /* past the doubles: the box would be NaN (inf - inf) */
        return false;
    sccd_real grow = rho * (1.0 + 2.0 * BOX_ROTATION_SLACK) + SCCD_EPS * magnitude;
    *box = (sccd_aabb2){{lo.x - grow, lo.y - grow}, {hi.x + grow, hi.y + grow}};
    return true;
}

bool sccd_impact2_solve(sccd_impact_body2 *bodies, int body_count, const sccd_impact_shape2 *shapes, int shape_count,
                        sccd_real dt, const sccd_ccd_options *options, const sccd_impact_callbacks2 *callbacks,
                        sccd_impact_scratch *scratch, sccd_impact_stats *stats)
{
    bool valid = valid_input(bodies, body_count, shapes, shape_count, dt, options) && scratch != NULL;
    SCCD_ASSERT(valid);
    if (!valid) {
        for (int i = 0; bodies != NULL && i < body_count; ++i)
            keep_still(&bodies[i]);
        return false;
    }
    sccd_impact_stats local = {0};
    sccd_impact_callbacks2 none = {0};
    solver sv = {bodies, NULL, body_count, shapes, shape_count, {0}, NULL, dt, *options, callbacks ? *callbacks : none, stats ? stats : &local};
    bool ok = sccd_scratch_reserve(&scratch->bodies, &scratch->body_bytes, (size_t)body_count * sizeof(body_state)) &&
              sccd_scratch_reserve(&scratch->shapes, &scratch->shape_bytes, (size_t)shape_count * sizeof(shape_cache));
    sv.st = scratch->bodies;
    sv.cache = scratch->shapes;
    for (int k = 0; ok && k < shape_count; ++k)
        clear_cache(&sv.cache[k]);
    for (int i = 0; ok && i < body_count; ++i)
        begin_state(&bodies[i], &sv.st[i], dt);
    ok = ok && sccd_events_begin(&sv.events, &event_ops, &sv, body_count, scratch, sv.stats);
    for (int i = 0; ok && i < body_count; ++i) /* sv.bodies: the gather hook may move the arrays */
        if (sv.bodies[i].ccd && sv.bodies[i].kind != SCCD_BODY_STATIC)
            ok = sccd_events_activate(&sv.events, i, 0.0);
        else if (sv.bodies[i].struck && sv.bodies[i].kind == SCCD_BODY_DYNAMIC)
            ok = op_gather(&sv, i) && sccd_events_activate(&sv.events, i, 0.0);
    ok = ok && sccd_events_run(&sv.events);
    for (int i = 0; i < sv.n; ++i) { /* the bodies taken in mid-step too (sv.bodies: where the hook put them) */
        body_state free_motion, *s = ok ? &sv.st[i] : &free_motion; /* no memory: the free motions */
        if (!ok)
            begin_state(&sv.bodies[i], s, dt);
        else
            body_box(&sv, i); /* its last segment counts in `swept` */
        if (s->carrier >= 0)
            s->out_v = riding_velocity(&sv, i, 1.0);
        end_state(&sv.bodies[i], s);
        sv.bodies[i].flying = flying(&sv, i);
    }
    return ok;
}

void sccd_impact_scratch_free(sccd_impact_scratch *scratch)
{
    if (scratch == NULL)
        return;
    sccd_free(scratch->bodies);
    sccd_free(scratch->pairs);
    sccd_free(scratch->shapes);
    sccd_free(scratch->events);
    sccd_free(scratch->trees);
    sccd_free(scratch->queue);
    *scratch = (sccd_impact_scratch){0};
}
