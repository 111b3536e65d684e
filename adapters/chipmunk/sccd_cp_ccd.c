/* The CCD hook of the Chipmunk2D adapter (sectorccd_chipmunk.h, "CCD").
 *
 * How it rides on cpSpaceStep (Chipmunk 7.0: cpSpaceStep.c): the step calls
 * every awake non-static body's position_func in the order of
 * space->dynamicBodies, then updates the shapes' boxes and finds contacts
 * between overlapping shapes, then solves velocities. While positions are
 * integrated the shapes' boxes are still those of the previous step, i.e. of
 * the start poses.
 *
 * The first CCD body whose position_func runs in a step runs the whole CCD
 * phase: it integrates every CCD body (with the position function it had
 * before), so all CCD motions are known, and resolves their impacts against
 * everything else and against each other. Bodies after it in the array have
 * not moved yet ("pending"); bodies before it have. A post-step callback moves
 * the CCD bodies to the end of the array so that nearly every other body has
 * moved when the phase runs: then a target's end pose is exact and its start
 * pose is the end pose less its velocity times dt.
 *
 * Impact poses. Each pair's TOI runs on "cores": the CCD shape shrunk by a
 * skin (radius first, then a polygon's edges moved inwards) and the target
 * shrunk by what is left of it; the TOI target distance is the skin less the
 * wanted overlap. A hit then leaves the real shapes overlapping by `overlap`
 * (so Chipmunk makes its own contact). A pair that already overlaps at the
 * step start is Chipmunk's contact's, guarded by deeper cores (pair_toi): a
 * body is never put back at its start pose for a contact it is in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_ALLOW_PRIVATE_ACCESS 1
#include <chipmunk/chipmunk_private.h>

#include "sectorccd_chipmunk.h"
#include "../adapter_internal.h"
#include "sectorccd/toi.h"
#include "sectorccd/sweep2.h"

/* The skin is this many overlaps deep: the resting overlap of one step (one
 * overlap) plus room for the solver's residual approach. */
#define SKIN_OVERLAPS 3.0
/* The query margin as a fraction of the smallest CCD box (split_targets). */
#define SLOW_FRACTION 0.1
/* Most clash rounds between CCD bodies before all involved stop together. */
#define CLASH_ROUNDS_MAX 16

typedef struct cp_shape_entry {
    cpShape *shape;
    sccd_shape2 geom; /* body coordinates */
    sccd_sweep2 sweep; /* bound of what it covers this step */
    sccd_aabb2 box; /* what the candidate query uses */
} cp_shape_entry;

typedef struct cp_body_rec {
    cpBody *body;
    cpBodyPositionFunc orig; /* the position function before enable */
    sccd_v2 pivot;           /* body coordinates */
    cpTimestamp stamp;       /* step in which the phase integrated it */
    /* this step */
    bool active;
    sccd_motion2 motion;
    sccd_real t;       /* clamp time, 1 = free */
    sccd_v2 push;      /* translation added at the impact pose */
    cpBody *target;     /* the non-CCD body it hit first (NULL: none, static, or a CCD partner) */
    cpShape *target_shape; /* and the shape of it, hit by w->shapes[hit_shape] */
    int hit_shape;
    sccd_motion2 tmotion; /* that body's motion this step */
    int first, count;  /* its shapes in world->shapes */
    sccd_aabb2 box;    /* union of its shapes' boxes */
} cp_body_rec;

/* A non-CCD body placed at an impact: its final pose (origin, angle) and the impact time. */
typedef struct cp_hold { cpBody *body; sccd_real t; sccd_v2 origin; cpFloat angle; } cp_hold;

struct sccd_cp_world {
    cpSpace *space;
    sccd_ccd_options opt;
    sccd_cp_counters cnt;
    cp_body_rec *recs;
    int nrec, caprec;
    cpTimestamp stamp; /* step of the last phase */
    int nactive;
    cpBody **pending; /* non-CCD bodies not integrated yet when the phase runs */
    int npending, cappending;
    cp_shape_entry *shapes;
    int nshapes, capshapes;
    cp_hold *holds; /* targets held at an impact this step */
    int nholds, capholds;
    cpShape **cands;
    int ncands, capcands;
    sccd_real slow;   /* reach below which a body is found by the index query */
    cpBody **fast;    /* non-CCD bodies that may move farther */
    int nfast, capfast;
    const char *error;
    char message[96]; /* an error message made at run time (set_options) */
};

/* ---- small helpers ---- */

static sccd_v2 v2_of(cpVect v) { return (sccd_v2){v.x, v.y}; }
static cpVect cpv_of(sccd_v2 v) { return cpv(v.x, v.y); }

/* Check a precondition: on failure the assert handler gets the message (as
 * SCCD_ASSERT's condition text) and the world keeps it for
 * sccd_cp_last_error; the caller then returns its defined result. */
#define CP_CHECK(w, cond, msg) ((cond) ? true : (report((w), (msg), __FILE__, __LINE__), false))

static void report(sccd_cp_world *w, const char *msg, const char *file, int line)
{
    if (w != NULL) {
        w->error = msg;
        ++w->cnt.errors;
    }
    sccd_assert_failed(msg, file, line);
}

/* A space carries no field for us but its user data, which is the user's.
 * A collision handler for a pair of collision types no shape uses is ours:
 * cpSpaceAddCollisionHandler returns the same handler every time, and its
 * userData holds the world. */
static const char world_key_anchor = 0;
#define WORLD_KEY ((cpCollisionType)(uintptr_t)&world_key_anchor)

static cpCollisionHandler *world_slot(cpSpace *space) { return cpSpaceAddCollisionHandler(space, WORLD_KEY, WORLD_KEY); }

/* Look the slot up without creating it (the hash set compares the types). */
static sccd_cp_world *world_of(cpSpace *space)
{
    if (space == NULL)
        return NULL;
    cpCollisionHandler key = {WORLD_KEY, WORLD_KEY, NULL, NULL, NULL, NULL, NULL};
    const cpCollisionHandler *h = cpHashSetFind(space->collisionHandlers, CP_HASH_PAIR(WORLD_KEY, WORLD_KEY), &key);
    return h ? (sccd_cp_world *)h->userData : NULL;
}

static cp_body_rec *find_rec(const sccd_cp_world *w, const cpBody *body)
{
    for (int i = 0; i < w->nrec; ++i)
        if (w->recs[i].body == body)
            return &w->recs[i];
    return NULL;
}

static bool is_pending(const sccd_cp_world *w, const cpBody *body)
{
    for (int i = 0; i < w->npending; ++i)
        if (w->pending[i] == body)
            return true;
    return false;
}

/* ---- poses and motions ---- */

static sccd_xf2 body_xf(const cpBody *body)
{
    return (sccd_xf2){v2_of(cpBodyGetPosition(body)), sccd_rot2_make(cpBodyGetAngle(body))};
}

/* Body origin of the pose whose centre of gravity is at p and angle a. */
static sccd_v2 origin_for(const cpBody *body, sccd_v2 p, sccd_real a)
{
    return sccd_v2_sub(p, sccd_rot2_apply(sccd_rot2_make(a), v2_of(body->cog)));
}

/* The motion joining two poses about centre (body coords); the turn is the
 * difference of Chipmunk's unwrapped angles, so several turns survive. */
static sccd_motion2 motion_joining(sccd_xf2 start, sccd_real a0, sccd_xf2 end, sccd_real a1, sccd_v2 center)
{
    sccd_v2 c0 = sccd_xf2_apply(start, center), c1 = sccd_xf2_apply(end, center);
    return (sccd_motion2){start, center, sccd_v2_sub(c1, c0), a1 - a0};
}

/* The part [t0, t1] of motion m, as a motion over [0, 1]. */
static sccd_motion2 motion_part(sccd_motion2 m, sccd_real t0, sccd_real t1)
{
    return (sccd_motion2){sccd_motion2_at(m, t0), m.center, sccd_v2_scale(m.dp, t1 - t0), m.dtheta * (t1 - t0)};
}

static sccd_motion2 motion_still(sccd_xf2 pose, sccd_v2 center) { return (sccd_motion2){pose, center, {0.0, 0.0}, 0.0}; }

/* A target's motion this step under Chipmunk's own integration (about its
 * centre of gravity). Pending bodies have not moved: predict from v + bias.
 * Moved bodies are at their end pose; the bias they used is gone, so their
 * start is reconstructed from v alone (off by the bias, a few slop units at most). */
static sccd_motion2 target_motion(const sccd_cp_world *w, cpBody *body, cpFloat dt)
{
    sccd_v2 cog = v2_of(body->cog);
    if (cpBodyGetType(body) == CP_BODY_TYPE_STATIC || cpBodyIsSleeping(body))
        return motion_still(body_xf(body), cog);
    if (is_pending(w, body)) {
        sccd_v2 v = v2_of(cpvadd(body->v, body->v_bias));
        return sccd_motion2_from_velocity(body_xf(body), cog, v, body->w + body->w_bias, dt);
    }
    sccd_real a0 = body->a - body->w * dt;
    sccd_v2 p0 = sccd_v2_sub(v2_of(body->p), sccd_v2_scale(v2_of(body->v), dt));
    sccd_xf2 start = {origin_for(body, p0, a0), sccd_rot2_make(a0)};
    return (sccd_motion2){start, cog, sccd_v2_scale(v2_of(body->v), dt), body->w * dt};
}

/* ---- shapes ---- */

/* Outward unit normal of edge a→b of a counter-clockwise polygon. */
static sccd_v2 edge_normal(sccd_v2 a, sccd_v2 b) { return sccd_v2_normalize((sccd_v2){b.y - a.y, a.x - b.x}); }

/* A polygon of more than SCCD_POLY_MAX vertices is replaced by the octagon of
 * its support lines in 8 directions (a superset: conservative for CCD). */
static sccd_poly2 octagon_around(const cpShape *shape, int n)
{
    sccd_poly2 out = {SCCD_POLY_MAX, {{0.0, 0.0}}, cpPolyShapeGetRadius(shape)};
    sccd_v2 dir[SCCD_POLY_MAX];
    sccd_real h[SCCD_POLY_MAX];
    for (int k = 0; k < SCCD_POLY_MAX; ++k) {
        dir[k] = (sccd_v2){cos(2.0 * SCCD_PI * k / SCCD_POLY_MAX), sin(2.0 * SCCD_PI * k / SCCD_POLY_MAX)};
        h[k] = -INFINITY;
        for (int i = 0; i < n; ++i)
            h[k] = sccd_max(h[k], sccd_v2_dot(dir[k], v2_of(cpPolyShapeGetVert(shape, i))));
    }
    /* Vertex k is where support lines k and k+1 meet (Cramer's rule). */
    for (int k = 0; k < SCCD_POLY_MAX; ++k) {
        sccd_v2 d0 = dir[k], d1 = dir[(k + 1) % SCCD_POLY_MAX];
        sccd_real det = sccd_v2_cross(d0, d1);
        out.v[k] = (sccd_v2){(h[k] * d1.y - h[(k + 1) % SCCD_POLY_MAX] * d0.y) / det,
                             (d0.x * h[(k + 1) % SCCD_POLY_MAX] - d1.x * h[k]) / det};
    }
    return out;
}

/* A Chipmunk shape as a sectorccd shape in body coordinates. */
static sccd_shape2 shape_of(const cpShape *shape)
{
    sccd_shape2 s;
    memset(&s, 0, sizeof s);
    switch (shape->klass->type) {
    case CP_CIRCLE_SHAPE:
        s.type = SCCD_SHAPE_CIRCLE;
        s.circle = (sccd_circle){v2_of(cpCircleShapeGetOffset(shape)), cpCircleShapeGetRadius(shape)};
        break;
    case CP_SEGMENT_SHAPE:
        s.type = SCCD_SHAPE_CAPSULE;
        s.capsule = (sccd_capsule2){v2_of(cpSegmentShapeGetA(shape)), v2_of(cpSegmentShapeGetB(shape)),
                                    cpSegmentShapeGetRadius(shape)};
        break;
    default: {
        int n = cpPolyShapeGetCount(shape);
        s.type = SCCD_SHAPE_POLY;
        if (n > SCCD_POLY_MAX) {
            s.poly = octagon_around(shape, n);
            break;
        }
        s.poly.n = n;
        s.poly.r = cpPolyShapeGetRadius(shape);
        for (int i = 0; i < n; ++i)
            s.poly.v[i] = v2_of(cpPolyShapeGetVert(shape, i));
        break;
    }
    }
    return s;
}

/* Move every edge of polygon p inwards by d (vertex i moves along the sum of
 * its two edge normals, scaled so both edges move by exactly d). False when
 * an edge is degenerate or the result is no longer convex and
 * counter-clockwise (d too large for the polygon). */
static bool poly_inset(sccd_poly2 *p, sccd_real d)
{
    if (p->n < 3)
        return false;
    sccd_poly2 q = *p;
    for (int i = 0; i < p->n; ++i) {
        sccd_v2 prev = p->v[(i + p->n - 1) % p->n], cur = p->v[i], next = p->v[(i + 1) % p->n];
        if (sccd_v2_dist(prev, cur) <= 0.0 || sccd_v2_dist(cur, next) <= 0.0)
            return false;
        sccd_v2 n0 = edge_normal(prev, cur), n1 = edge_normal(cur, next);
        sccd_real c = 1.0 + sccd_v2_dot(n0, n1);
        if (c < 0.5) /* sharper than 120°: the vertex would move more than 2d */
            return false;
        q.v[i] = sccd_v2_mad(cur, -d / c, sccd_v2_add(n0, n1));
    }
    if (!sccd_is_valid_poly2(&q))
        return false;
    for (int i = 0; i < q.n; ++i) { /* every edge keeps its direction (no flip) */
        sccd_v2 e0 = sccd_v2_sub(p->v[(i + 1) % p->n], p->v[i]), e1 = sccd_v2_sub(q.v[(i + 1) % q.n], q.v[i]);
        if (sccd_v2_dot(e0, e1) <= 0.0)
            return false;
    }
    *p = q;
    return true;
}

/* Shrink s by at most want (radius first, then polygon edges); returns how
 * much it shrank. The result is a subset of s whose boundary lies exactly
 * that far inside, so core distance = real distance + the amounts shrunk. */
static sccd_real shrink(sccd_shape2 *s, sccd_real want)
{
    sccd_real *r = s->type == SCCD_SHAPE_CIRCLE ? &s->circle.r : s->type == SCCD_SHAPE_CAPSULE ? &s->capsule.r
                 : s->type == SCCD_SHAPE_POLY   ? &s->poly.r   : NULL;
    if (r == NULL || want <= 0.0)
        return 0.0;
    sccd_real d = sccd_min(want, *r);
    *r -= d;
    if (s->type != SCCD_SHAPE_POLY || want - d <= 0.0)
        return d;
    for (sccd_real e = want - d; e > 1e-3 * want; e *= 0.5)
        if (poly_inset(&s->poly, e))
            return d + e;
    return d;
}

/* The AABB of shape s placed by xf. */
static sccd_aabb2 shape_box(const sccd_shape2 *s, sccd_xf2 xf) { return sccd_shape2_aabb(s, xf); }

static cpBB bb_of(sccd_aabb2 b, sccd_real margin)
{
    return cpBBNew(b.lo.x - margin, b.lo.y - margin, b.hi.x + margin, b.hi.y + margin);
}

static sccd_aabb2 aabb_of(cpBB bb, sccd_real margin)
{
    return (sccd_aabb2){{bb.l - margin, bb.b - margin}, {bb.r + margin, bb.t + margin}};
}

/* The intersection of two overlapping boxes. */
static sccd_aabb2 boxes_meet(sccd_aabb2 a, sccd_aabb2 b) { return (sccd_aabb2){sccd_v2_max(a.lo, b.lo), sccd_v2_min(a.hi, b.hi)}; }

static bool boxes_overlap(sccd_aabb2 a, sccd_aabb2 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

/* ---- which pairs Chipmunk would collide ---- */

static bool constraint_blocks(cpBody *a, cpBody *b)
{
    CP_BODY_FOREACH_CONSTRAINT(a, c)
    {
        if (!c->collideBodies && ((c->a == a && c->b == b) || (c->b == a && c->a == b)))
            return true;
    }
    return false;
}

/* A pair whose begin handler said no (cpArbiterIgnore) stays ignored in the
 * space's arbiter cache until the shapes separate: respect that. */
static bool arbiter_ignored(cpSpace *space, cpShape *a, cpShape *b)
{
    const cpShape *pair[] = {a, b};
    const cpArbiter *arb = cpHashSetFind(space->cachedArbiters, CP_HASH_PAIR((cpHashValue)a, (cpHashValue)b), pair);
    return arb != NULL && arb->state == CP_ARBITER_STATE_IGNORE;
}

/* The rules of Chipmunk's own pair rejection (cpSpaceStep.c QueryReject and
 * the body-type rule: one side must be dynamic), plus sensors, which never
 * get a contact to stop at. */
static bool pair_collides(cpSpace *space, cpShape *a, cpShape *b)
{
    cpBody *ba = a->body, *bb = b->body;
    if (ba == bb || a->sensor || b->sensor || cpShapeFilterReject(a->filter, b->filter))
        return false;
    if (cpBodyGetType(ba) != CP_BODY_TYPE_DYNAMIC && cpBodyGetType(bb) != CP_BODY_TYPE_DYNAMIC)
        return false;
    return !constraint_blocks(ba, bb) && !arbiter_ignored(space, a, b);
}

/* ---- the time of impact of one shape pair ---- */

/* An impact: time t, normal (A to B), the translation that makes the overlap. */
typedef struct pair_hit { bool hit; sccd_real t; sccd_v2 normal, push; } pair_hit;

/* Rate bound of the distance between the two (|dp| + |dθ|·extent, per unit t). */
static sccd_real approach_bound(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb)
{
    return sccd_v2_len(sccd_v2_sub(ma.dp, mb.dp)) + fabs(ma.dtheta) * sccd_shape2_farthest(a, ma.center) +
           fabs(mb.dtheta) * sccd_shape2_farthest(b, mb.center);
}

/* Velocity (per unit t) of the world point x carried by motion m at time t. */
static sccd_v2 point_velocity(sccd_motion2 m, sccd_real t, sccd_v2 x)
{
    sccd_v2 r = sccd_v2_sub(x, sccd_motion2_center_at(m, t));
    return sccd_v2_add(m.dp, sccd_v2_scale(sccd_v2_perp(r), m.dtheta));
}

/* How long after t a pair that touches with normal n (A to B) at t provably
 * stays at least as far apart, i.e. may be skipped. toi.c's bound on the gap
 * along a fixed n: g(t + Δ) ≥ g(t) − βΔ − ½κΔ², with β the approach rate of
 * the supporting points (translation along n plus σA + σB, the support
 * values of the shapes about their centres along n × ω) and κ = Σ ω²ρ. When
 * β < 0 the pair separates and g stays ≥ g(t) for Δ ≤ 2|β|/κ (forever when
 * nothing turns). Otherwise only the time to move one tolerance is safe. */
static sccd_real separating_span(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                 sccd_real t, sccd_v2 n, sccd_real tol, sccd_real rate)
{
    sccd_v2 ua = {ma.dtheta * n.y, -ma.dtheta * n.x}, ub = {-mb.dtheta * n.y, mb.dtheta * n.x};
    sccd_v2 ca = sccd_motion2_center_at(ma, t), cb = sccd_motion2_center_at(mb, t);
    sccd_real sa = sccd_v2_dot(sccd_v2_sub(sccd_shape2_support(a, sccd_motion2_at(ma, t), ua), ca), ua);
    sccd_real sb = sccd_v2_dot(sccd_v2_sub(sccd_shape2_support(b, sccd_motion2_at(mb, t), ub), cb), ub);
    sccd_real beta = sccd_v2_dot(n, sccd_v2_sub(ma.dp, mb.dp)) + sa + sb;
    sccd_real kappa = ma.dtheta * ma.dtheta * sccd_shape2_farthest(a, ma.center) +
                      mb.dtheta * mb.dtheta * sccd_shape2_farthest(b, mb.center);
    sccd_real crawl = sccd_max(tol / rate, 1e-9);
    if (beta >= 0.0)
        return crawl;
    return kappa > 0.0 ? sccd_max(2.0 * -beta / kappa, crawl) : 1.0;
}

/* Cores of a and b shrunk by s in all (a first, then b): how much they shrank. */
static sccd_real shrink_pair(sccd_shape2 *a, sccd_shape2 *b, sccd_real s)
{
    sccd_real shrunk = shrink(a, s);
    return shrunk + shrink(b, s - shrunk);
}

/* Distance between cores a and b at the start (0 when they overlap). */
static sccd_real start_distance(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb)
{
    sccd_distance2 d = sccd_shape2_distance(a, ma.start, b, mb.start);
    return d.overlap ? 0.0 : d.distance;
}

/* First impact of a and b under ma, mb on [0, 1], on cores shrunk by up to
 * `skin` and aimed at an overlap of `depth` of the real shapes. A pair
 * within the target distance at the start (the TOI's HIT at t = 0 or
 * OVERLAPPED), or, with `shapes_apart`, whose real shapes overlap there,
 * gets no impact here: *at_start says so and the caller decides. A touch
 * where the two are separating (a body leaving last step's impact) is no
 * impact: the search goes on from where they may approach again. */
static pair_hit cores_toi(sccd_cp_world *w, const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b,
                          sccd_motion2 mb, sccd_real skin, sccd_real depth, bool shapes_apart, bool *at_start)
{
    pair_hit out = {false, 1.0, {0.0, 0.0}, {0.0, 0.0}};
    sccd_real tol = w->opt.toi_tolerance;
    sccd_shape2 ca = *a, cb = *b;
    sccd_real shrunk = shrink_pair(&ca, &cb, skin);
    /* The grown cores lie inside the shapes: cores closer than the shrink
     * mean shapes that overlap. */
    *at_start = shapes_apart && start_distance(&ca, ma, &cb, mb) < shrunk;
    if (*at_start)
        return out;
    /* Core distance target − shrunk is the real distance at the hit: −depth
     * when the skin allows, else 0 (touching) and a push of depth. */
    sccd_real target = shrunk - depth, extra = 0.0;
    if (target < 2.0 * tol) {
        target = sccd_max(shrunk, 2.0 * tol);
        extra = target - shrunk + depth;
    }
    sccd_real rate = approach_bound(&ca, ma, &cb, mb);
    sccd_real t0 = 0.0;
    for (int round = 0; round < w->opt.toi_max_iterations && t0 < 1.0; ++round) {
        sccd_toi2 r = sccd_toi2_compute(&ca, motion_part(ma, t0, 1.0), &cb, motion_part(mb, t0, 1.0), target, tol);
        sccd_real t = t0 + r.t * (1.0 - t0);
        ++w->cnt.tois;
        if (r.state == SCCD_TOI_SEPARATED)
            return out;
        if (r.state == SCCD_TOI_OVERLAPPED || t <= 0.0) { /* within the target distance at the start */
            *at_start = t0 == 0.0;
            return out;
        }
        bool last = round + 1 == w->opt.toi_max_iterations;
        if (r.state == SCCD_TOI_FAILED && !last) {
            t0 = t; /* the TOI's own cap (SCCD_TOI_MAX_ITERATIONS): no contact before t, go on from there */
            continue;
        }
        sccd_real closing = sccd_v2_dot(sccd_v2_sub(point_velocity(ma, t, r.point), point_velocity(mb, t, r.point)),
                                        r.normal);
        bool deep = target <= 2.0 * tol;
        if (r.state == SCCD_TOI_FAILED || closing > 0.0 || rate <= 0.0 || deep) {
            w->cnt.failed += r.state == SCCD_TOI_FAILED; /* stopped at a safe time without contact */
            out = (pair_hit){true, t, r.normal, sccd_v2_scale(r.normal, extra)};
            return out;
        }
        /* Touching but not closing (sliding, leaving): Chipmunk's contact
         * handles that. The search goes on from where the pair may approach
         * again, and lets it sink to the skin's depth (core distance 2·tol)
         * before that counts as an impact; passing through needs the cores
         * to cross first. */
        t0 = t + separating_span(&ca, ma, &cb, mb, t, r.normal, tol, rate);
        target = 2.0 * tol;
        extra = 0.0;
    }
    if (t0 < 1.0) { /* out of rounds: stop where it is still known safe */
        ++w->cnt.failed;
        out = (pair_hit){true, t0, {0.0, 0.0}, {0.0, 0.0}};
    }
    return out;
}

/* A pair as sccd_adapter_start_depth sees it. */
typedef struct start_pair {
    const sccd_shape2 *a;
    const sccd_shape2 *b;
    sccd_motion2 ma, mb;
} start_pair;

/* sccd_adapter_shrink_fn over a start_pair: shrink copies, never the shapes. */
static sccd_real shrink_start_pair(const void *pair, sccd_real s, sccd_real *distance)
{
    const start_pair *p = pair;
    sccd_shape2 ca = *p->a;
    sccd_shape2 cb = *p->b;
    sccd_real shrunk = shrink_pair(&ca, &cb, s);
    if (distance != NULL)
        *distance = start_distance(&ca, p->ma, &cb, p->mb);
    return shrunk;
}

/* First impact of a (CCD shape) and b under ma, mb on [0, 1]. Only a first
 * contact that begins during the step stops a body: the shapes start apart
 * and their cores, shrunk by the skin, reach the target distance at t. A
 * pair that overlaps at the start by d (resting, sliding, pushed, or placed
 * there last step) is Chipmunk's: its arbiter, made from these poses, keeps
 * the two from closing in, and holding the body at t = 0 would freeze it
 * step after step. What is left to guard is a contact that does not hold:
 * cores shrunk by d + skin + g start a skin or more apart and stop the body
 * where the overlap has grown to d + g, a time after the start, so it still
 * moves. g lets the overlap reach half of what the pair can shrink in all
 * (the room) at once, then a skin a step: a body can get through only by
 * its cores crossing, and a pair pushed ever deeper is slowed before that.
 * A pair too deep for the cores to shrink further is Chipmunk's alone
 * (counted as overlapped). */
static pair_hit pair_toi(sccd_cp_world *w, const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b,
                         sccd_motion2 mb)
{
    sccd_real overlap = w->opt.overlap, skin = SKIN_OVERLAPS * overlap;
    bool at_start;
    pair_hit h = cores_toi(w, a, ma, b, mb, skin, overlap, true, &at_start);
    if (!at_start)
        return h;
    sccd_real d, room;
    sccd_adapter_start_depth(shrink_start_pair, &(start_pair){a, b, ma, mb}, skin, &d, &room);
    sccd_real grow = sccd_max(skin, 0.5 * room - d);
    h = cores_toi(w, a, ma, b, mb, d + skin + grow, d + grow, false, &at_start);
    h.push = (sccd_v2){0.0, 0.0}; /* the shapes overlap already: Chipmunk has the contact */
    w->cnt.overlapped += at_start;
    return h;
}

/* ---- the phase ---- */

/* Index of body in the dynamic body array, searched from the end (the CCD
 * bodies are kept there); -1 when absent. */
static int dynamic_index(cpSpace *space, const cpBody *body)
{
    cpArray *arr = space->dynamicBodies;
    for (int i = arr->num - 1; i >= 0; --i)
        if (arr->arr[i] == body)
            return i;
    return -1;
}

/* Mark the CCD bodies taking part (those in the array from `first` on) and
 * list the non-CCD bodies there, which have not moved yet. */
static bool collect(sccd_cp_world *w, const cpBody *first)
{
    cpArray *arr = w->space->dynamicBodies;
    int k = dynamic_index(w->space, first);
    w->npending = 0;
    w->nactive = 0;
    for (int i = 0; i < w->nrec; ++i)
        w->recs[i].active = false;
    for (int i = k < 0 ? arr->num : k; i < arr->num; ++i) {
        cpBody *b = arr->arr[i];
        cp_body_rec *r = find_rec(w, b);
        if (r != NULL) {
            r->active = true;
            ++w->nactive;
        } else {
            if (!sccd_adapter_reserve((void **)&w->pending, &w->cappending, w->npending + 1, sizeof *w->pending))
                return false;
            w->pending[w->npending++] = b;
        }
    }
    return true;
}

/* How far any point of body b may move this step: a point at distance ρ
 * from the centre of gravity moves at most |v|dt + |ω|dt·ρ, and ρ is at most
 * the farthest corner of its shapes' boxes (start poses) plus |v|dt. */
static sccd_real body_reach(const cpBody *b, cpFloat dt)
{
    sccd_real v = cpvlength(b->v) + cpvlength(b->v_bias), om = fabs(b->w) + fabs(b->w_bias);
    if (v == 0.0 && om == 0.0)
        return 0.0;
    sccd_real rho = 0.0;
    CP_BODY_FOREACH_SHAPE(b, s)
    {
        sccd_real dx = sccd_max(fabs(s->bb.l - b->p.x), fabs(s->bb.r - b->p.x));
        sccd_real dy = sccd_max(fabs(s->bb.b - b->p.y), fabs(s->bb.t - b->p.y));
        rho = sccd_max(rho, sqrt(dx * dx + dy * dy) + v * dt);
    }
    return (v + om * rho) * dt;
}

/* Split the non-CCD bodies by how far they may move this step. The shapes'
 * boxes are at the start poses, so a CCD body's candidate query is grown by
 * the slow bodies' largest reach (`slow`, a fraction of the smallest CCD
 * box); the few faster ones are listed and tested one by one. Every body is
 * in one of the two, so no candidate is lost. */
static bool split_targets(sccd_cp_world *w, cpFloat dt)
{
    sccd_real extent = INFINITY;
    for (int i = 0; i < w->nrec; ++i)
        if (w->recs[i].active && w->recs[i].count > 0)
            extent = sccd_min(extent, sccd_max(w->recs[i].box.hi.x - w->recs[i].box.lo.x,
                                               w->recs[i].box.hi.y - w->recs[i].box.lo.y));
    w->slow = SLOW_FRACTION * (sccd_is_valid_real(extent) ? extent : 0.0);
    w->nfast = 0;
    cpArray *arr = w->space->dynamicBodies;
    for (int i = 0; i < arr->num; ++i) {
        cpBody *b = arr->arr[i];
        if (body_reach(b, dt) <= w->slow || find_rec(w, b) != NULL) /* the look-up only when it matters */
            continue;
        if (!sccd_adapter_reserve((void **)&w->fast, &w->capfast, w->nfast + 1, sizeof *w->fast))
            return false;
        w->fast[w->nfast++] = b;
    }
    return true;
}

static void set_pose(cpBody *body, cpVect origin, cpFloat angle)
{
    cpBodySetAngle(body, angle);
    cpBodySetPosition(body, origin);
}

static bool velocity_ok(const cpBody *b)
{
    return sccd_is_valid_v2(v2_of(b->v)) && sccd_is_valid_real(b->w) && sccd_is_valid_v2(v2_of(b->v_bias)) &&
           sccd_is_valid_real(b->w_bias);
}

/* Integrate one CCD body with its own position function and record the
 * motion. NaN velocities: reported, zeroed (the body holds its pose). */
static void integrate(sccd_cp_world *w, cp_body_rec *r, cpFloat dt)
{
    cpBody *b = r->body;
    if (!CP_CHECK(w, velocity_ok(b), "sccd_cp: a CCD body has a NaN or infinite velocity; zeroed")) {
        b->v = b->v_bias = cpvzero;
        b->w = b->w_bias = 0.0;
    }
    cpFloat a0 = cpBodyGetAngle(b);
    sccd_xf2 start = body_xf(b);
    r->orig(b, dt);
    r->stamp = w->space->stamp;
    r->t = 1.0;
    r->push = (sccd_v2){0.0, 0.0};
    r->target = NULL;
    r->motion = motion_joining(start, a0, body_xf(b), cpBodyGetAngle(b), r->pivot);
    if (!CP_CHECK(w, sccd_is_valid_motion2(r->motion), "sccd_cp: a CCD body's pose is not finite; no CCD for it")) {
        r->active = false;
        r->motion = motion_still(sccd_xf2_identity(), r->pivot);
    }
}

/* Sweep bound of shape s (body coordinates) under m (sweep2.h). */
static void sweep_shape(sccd_sweep2 *out, const sccd_shape2 *s, sccd_motion2 m, int bands)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: sccd_sweep2_circle(out, s->circle, m, bands); break;
    case SCCD_SHAPE_CAPSULE: sccd_sweep2_capsule(out, s->capsule, m, bands); break;
    case SCCD_SHAPE_POLY: sccd_sweep2_poly(out, &s->poly, m, bands); break;
    default: sccd_sweep2_box(out, s->box.h, m, bands); break; /* never made from a Chipmunk shape */
    }
}

/* Whether the sweep can meet target t (body coordinates) under motion m.
 * A moving target by the relative-motion trick (shared/DESIGN.md "Sweeps"):
 * at time t the target lies in the circle of its farthest extent ρ about its
 * moving centre c0 + t·dpB, and the CCD shape in bands + t·dpA, so a contact
 * needs (bands ⊕ [0, dpA − dpB]) to meet the circle (c0, ρ). A still target
 * is tested as it stands, placed by m.start. */
static bool sweep_meets(const sccd_sweep2 *w, const sccd_shape2 *t, sccd_motion2 m)
{
    if (m.dtheta != 0.0 || m.dp.x != 0.0 || m.dp.y != 0.0) {
        sccd_sweep2 rel = *w;
        rel.dp = sccd_v2_sub(w->dp, m.dp);
        return sccd_sweep2_vs_circle(&rel, (sccd_circle){sccd_xf2_apply(m.start, m.center), sccd_shape2_farthest(t, m.center)});
    }
    sccd_xf2 xf = m.start;
    switch (t->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_sweep2_vs_circle(w, (sccd_circle){sccd_xf2_apply(xf, t->circle.c), t->circle.r});
    case SCCD_SHAPE_CAPSULE:
        return sccd_sweep2_vs_capsule(
            w, (sccd_capsule2){sccd_xf2_apply(xf, t->capsule.a), sccd_xf2_apply(xf, t->capsule.b), t->capsule.r});
    case SCCD_SHAPE_POLY: {
        sccd_poly2 p = t->poly;
        for (int i = 0; i < p.n; ++i)
            p.v[i] = sccd_xf2_apply(xf, p.v[i]);
        return sccd_sweep2_vs_poly(w, &p);
    }
    default: return true; /* never made from a Chipmunk shape: no filter */
    }
}

/* A box holding everything shape s covers under motion m: the start and end
 * boxes (whose hull holds each point's chord) grown by how far a point's arc
 * strays from its chord, the sagitta ρ(1 − cos(φ/2)) for a turn |φ| ≤ π (ρ
 * the farthest distance from the centre), else 2ρ (the whole circle about
 * the moving centre, which lies within ρ of either box). */
static sccd_aabb2 motion_box(const sccd_shape2 *s, sccd_motion2 m)
{
    sccd_aabb2 box = sccd_aabb2_union(shape_box(s, m.start), shape_box(s, sccd_motion2_at(m, 1.0)));
    sccd_real phi = fabs(m.dtheta), rho = sccd_shape2_farthest(s, m.center);
    sccd_real grow = phi <= SCCD_PI ? rho * (1.0 - cos(0.5 * phi)) : 2.0 * rho;
    box.lo = sccd_v2_sub(box.lo, (sccd_v2){grow, grow});
    box.hi = sccd_v2_add(box.hi, (sccd_v2){grow, grow});
    return box;
}

/* Shapes and sweeps of an active CCD body; its query box. */
static bool build_shapes(sccd_cp_world *w, cp_body_rec *r)
{
    r->first = w->nshapes;
    r->count = 0;
    bool have = false;
    CP_BODY_FOREACH_SHAPE(r->body, s)
    {
        if (s->sensor)
            continue;
        if (!sccd_adapter_reserve((void **)&w->shapes, &w->capshapes, w->nshapes + 1, sizeof *w->shapes))
            return false;
        cp_shape_entry *e = &w->shapes[w->nshapes++];
        e->shape = s;
        e->geom = shape_of(s);
        sweep_shape(&e->sweep, &e->geom, r->motion, w->opt.bands);
        ++w->cnt.sweeps;
        if (w->opt.candidates == SCCD_CANDIDATES_SWEEP)
            e->box = boxes_meet(e->sweep.aabb, motion_box(&e->geom, r->motion)); /* both hold the sweep */
        else
            e->box = sccd_aabb2_union(shape_box(&e->geom, r->motion.start), shape_box(&e->geom, sccd_motion2_at(r->motion, 1.0)));
        r->box = have ? sccd_aabb2_union(r->box, e->box) : e->box;
        have = true;
        ++r->count;
    }
    return true;
}

static void collect_candidate(cpShape *shape, void *data)
{
    sccd_cp_world *w = data;
    if (sccd_adapter_reserve((void **)&w->cands, &w->capcands, w->ncands + 1, sizeof *w->cands))
        w->cands[w->ncands++] = shape;
}

static void clamp(cp_body_rec *r, pair_hit h)
{
    if (h.hit && h.t < r->t) {
        r->t = h.t;
        r->push = h.push;
        r->target = NULL;
    }
}

/* Place non-CCD body b at (origin, angle) at the end of the step, for an
 * impact at time t; of several, the earliest wins. */
static void place_target(sccd_cp_world *w, cpBody *b, sccd_real t, sccd_v2 origin, cpFloat angle)
{
    cp_hold *h = NULL;
    for (int i = 0; i < w->nholds && h == NULL; ++i)
        if (w->holds[i].body == b)
            h = &w->holds[i];
    if (h == NULL) {
        if (!sccd_adapter_reserve((void **)&w->holds, &w->capholds, w->nholds + 1, sizeof *w->holds))
            return;
        h = &w->holds[w->nholds++];
        h->t = INFINITY;
    }
    if (t < h->t)
        *h = (cp_hold){b, t, origin, angle};
}

/* The angle of target b at time t of its motion m (Chipmunk's unwrapped angle). */
static cpFloat target_angle_at(const sccd_cp_world *w, const cpBody *b, sccd_motion2 m, sccd_real t)
{
    return (is_pending(w, b) ? b->a : b->a - m.dtheta) + t * m.dtheta;
}

/* Hold target b at its own pose at time t. */
static void hold_target(sccd_cp_world *w, cpBody *b, sccd_motion2 m, sccd_real t)
{
    place_target(w, b, t, sccd_motion2_at(m, t).p, target_angle_at(w, b, m, t));
}

/* A kinematic CCD body is never held back: it keeps its animation exactly.
 * What it hits at time t instead rides along with it for the rest of the
 * step, B(t)·(A(1)·A(t)⁻¹), so the pair touches (overlapping by `overlap`)
 * at the end, where Chipmunk makes the contact and gives the target the
 * body's surface velocity. Moving the target, not the body: an animated body
 * has infinite mass and would push it there anyway, and a body held back
 * would have to catch up later, faster than the target it just pushed. */
static void carry_target(sccd_cp_world *w, const cp_body_rec *r, cpBody *b, sccd_motion2 m, pair_hit h)
{
    sccd_xf2 at = sccd_motion2_at(m, h.t);
    at.p = sccd_v2_sub(at.p, h.push);
    sccd_xf2 carried = sccd_xf2_mul(sccd_motion2_at(r->motion, 1.0), sccd_xf2_inv_mul(sccd_motion2_at(r->motion, h.t), at));
    place_target(w, b, h.t, carried.p, target_angle_at(w, b, m, h.t) + (1.0 - h.t) * r->motion.dtheta);
    ++w->cnt.clamps;
}

/* Set the placed targets' poses. One not integrated yet gets the pose from
 * which its own integration (cpBodyUpdatePosition) lands on the placed one. */
static void apply_holds(sccd_cp_world *w, cpFloat dt)
{
    for (int i = 0; i < w->nholds; ++i) {
        cp_hold *h = &w->holds[i];
        cpBody *b = h->body;
        sccd_v2 origin = h->origin;
        cpFloat angle = h->angle;
        if (is_pending(w, b)) {
            sccd_v2 cog = sccd_v2_add(origin, sccd_rot2_apply(sccd_rot2_make(angle), v2_of(b->cog)));
            angle -= (b->w + b->w_bias) * dt;
            origin = origin_for(b, sccd_v2_sub(cog, v2_of(cpvmult(cpvadd(b->v, b->v_bias), dt))), angle);
        }
        set_pose(b, cpv_of(origin), angle);
    }
}

/* Impacts of CCD body r with one target shape whose body may move `reach`. */
static void resolve_target(sccd_cp_world *w, cp_body_rec *r, cpShape *target, sccd_real reach, cpFloat dt)
{
    /* first the cheap test: its start box grown by its own reach */
    if (!boxes_overlap(r->box, aabb_of(target->bb, reach)))
        return;
    cp_body_rec *other = find_rec(w, target->body);
    if (other != NULL && other->active)
        return; /* a clash: resolve_clashes */
    sccd_shape2 tg = shape_of(target);
    sccd_motion2 mt = target_motion(w, target->body, dt);
    sccd_aabb2 tbox = motion_box(&tg, mt);
    if (!boxes_overlap(r->box, tbox))
        return;
    for (int i = r->first; i < r->first + r->count; ++i) {
        cp_shape_entry *e = &w->shapes[i];
        if (!boxes_overlap(e->box, tbox) || !pair_collides(w->space, e->shape, target))
            continue;
        /* the sweep's bands; speculative candidates (start+end boxes) have no such test */
        if (w->opt.candidates == SCCD_CANDIDATES_SWEEP && !sweep_meets(&e->sweep, &tg, mt))
            continue;
        ++w->cnt.candidates;
        if (cpBodyGetType(r->body) == CP_BODY_TYPE_KINEMATIC) { /* only dynamic targets reach here */
            pair_hit h = pair_toi(w, &e->geom, r->motion, &tg, mt);
            if (h.hit)
                carry_target(w, r, target->body, mt, h);
            continue;
        }
        sccd_real t = r->t;
        clamp(r, pair_toi(w, &e->geom, r->motion, &tg, mt));
        if (r->t < t && cpBodyGetType(target->body) != CP_BODY_TYPE_STATIC && !cpBodyIsSleeping(target->body)) {
            r->target = target->body;
            r->target_shape = target;
            r->hit_shape = i;
            r->tmotion = mt;
        }
    }
}

/* Impacts of one CCD body with everything that is not a CCD body: the slow
 * bodies and static shapes through the space's index, the fast ones from
 * their list. */
static void resolve_targets(sccd_cp_world *w, cp_body_rec *r, cpFloat dt)
{
    w->ncands = 0;
    cpSpaceBBQuery(w->space, bb_of(r->box, w->slow), CP_SHAPE_FILTER_ALL, collect_candidate, w);
    for (int c = 0; c < w->ncands; ++c) {
        sccd_real reach = body_reach(w->cands[c]->body, dt);
        if (reach <= w->slow) /* the fast ones come below */
            resolve_target(w, r, w->cands[c], reach, dt);
    }
    for (int f = 0; f < w->nfast; ++f) {
        sccd_real reach = body_reach(w->fast[f], dt);
        CP_BODY_FOREACH_SHAPE(w->fast[f], s) resolve_target(w, r, s, reach, dt);
    }
}

/* Earliest impact between the shapes of two CCD bodies moving by ma, mb. */
static pair_hit bodies_toi(sccd_cp_world *w, const cp_body_rec *a, sccd_motion2 ma, const cp_body_rec *b,
                           sccd_motion2 mb)
{
    pair_hit best = {false, 1.0, {0.0, 0.0}, {0.0, 0.0}};
    for (int i = a->first; i < a->first + a->count; ++i)
        for (int j = b->first; j < b->first + b->count; ++j) {
            if (!pair_collides(w->space, w->shapes[i].shape, w->shapes[j].shape))
                continue;
            ++w->cnt.candidates;
            pair_hit h = pair_toi(w, &w->shapes[i].geom, ma, &w->shapes[j].geom, mb);
            if (h.hit && h.t < best.t)
                best = h;
        }
    return best;
}

/* Two CCD bodies meet at h.t: both stop there; one that is kinematic
 * keeps going and the other rides along with it. Returns whether a stop time
 * changed. */
static bool clash_stop(cp_body_rec *a, cp_body_rec *b, pair_hit h)
{
    bool ka = cpBodyGetType(a->body) == CP_BODY_TYPE_KINEMATIC, kb = cpBodyGetType(b->body) == CP_BODY_TYPE_KINEMATIC;
    bool changed = (!ka && h.t < a->t) || (!kb && h.t < b->t);
    if (!ka)
        clamp(a, h);
    if (!kb)
        clamp(b, (pair_hit){true, h.t, sccd_v2_neg(h.normal), sccd_v2_neg(h.push)});
    if (ka && a->t >= 1.0 && b->t == h.t) {
        b->target = a->body;
        b->tmotion = a->motion;
    }
    if (kb && b->t >= 1.0 && a->t == h.t) {
        a->target = b->body;
        a->tmotion = b->motion;
    }
    return changed;
}

/* One round over the CCD pairs. Both bodies of a pair run until the earlier of
 * their stop times; the later one then moves on alone against the other held
 * still, which may stop it sooner. Returns whether any stop time changed. */
static bool clash_round(sccd_cp_world *w)
{
    bool changed = false;
    for (int i = 0; i < w->nrec; ++i)
        for (int j = i + 1; j < w->nrec; ++j) {
            cp_body_rec *a = &w->recs[i], *b = &w->recs[j];
            if (!a->active || !b->active || a->count == 0 || b->count == 0 || !boxes_overlap(a->box, b->box))
                continue;
            sccd_real t = sccd_min(a->t, b->t);
            pair_hit h = bodies_toi(w, a, motion_part(a->motion, 0.0, t), b, motion_part(b->motion, 0.0, t));
            if (h.hit) {
                h.t *= t;
                changed |= clash_stop(a, b, h);
                continue;
            }
            if (a->t == b->t)
                continue;
            cp_body_rec *late = a->t > b->t ? a : b, *held = late == a ? b : a;
            if (cpBodyGetType(late->body) == CP_BODY_TYPE_KINEMATIC)
                continue; /* never held; the other rides along with it */
            sccd_motion2 still = motion_still(sccd_motion2_at(held->motion, held->t), held->motion.center);
            h = bodies_toi(w, late, motion_part(late->motion, held->t, late->t), held, still);
            if (h.hit) {
                h.t = held->t + h.t * (late->t - held->t);
                changed |= h.t < late->t;
                clamp(late, h);
            }
        }
    return changed;
}

static void resolve_clashes(sccd_cp_world *w)
{
    if (w->nactive < 2)
        return;
    for (int round = 0; round < CLASH_ROUNDS_MAX; ++round)
        if (!clash_round(w))
            return;
    /* Not settled: every CCD body in a clash stops at the earliest time. */
    sccd_real t = 1.0;
    for (int i = 0; i < w->nrec; ++i)
        if (w->recs[i].active)
            t = sccd_min(t, w->recs[i].t);
    for (int i = 0; i < w->nrec; ++i)
        if (w->recs[i].active && w->recs[i].t < 1.0)
            w->recs[i].t = t;
}

/* A dynamic target that would run on into the body held at its impact pose
 * (the TOI of the rest of its step against that pose) is held where it
 * meets it. One moving off (a ball riding a paddle) keeps its step: holding
 * it too would freeze the two in contact. */
static void hold_coming_target(sccd_cp_world *w, const cp_body_rec *r, sccd_xf2 held)
{
    sccd_shape2 tg = shape_of(r->target_shape);
    sccd_motion2 rest = motion_part(r->tmotion, r->t, 1.0);
    pair_hit h = pair_toi(w, &w->shapes[r->hit_shape].geom, motion_still(held, r->motion.center), &tg, rest);
    if (h.hit)
        hold_target(w, r->target, r->tmotion, r->t + h.t * (1.0 - r->t));
}

/* Place a stopped body at its impact pose, so Chipmunk finds the pair
 * touching at the end of the step. What it hit must not pass through that
 * pose in the rest of the step: a dynamic target is held where it meets it
 * (as a TOI sub-step would stop both; the solver decides what follows); a
 * kinematic target cannot be held, so the body rides along with it for the
 * rest of the step: pose = B(1)·B(t)⁻¹·A(t) (a kinematic CCD partner too). */
static void apply(sccd_cp_world *w, cp_body_rec *r)
{
    if (!r->active || r->t >= 1.0)
        return;
    cpBody *b = r->body;
    sccd_xf2 pose = sccd_motion2_at(r->motion, r->t);
    pose.p = sccd_v2_add(pose.p, r->push);
    cpFloat angle = cpBodyGetAngle(b) - (1.0 - r->t) * r->motion.dtheta;
    bool rides = r->target != NULL && cpBodyGetType(r->target) == CP_BODY_TYPE_KINEMATIC;
    if (rides) {
        pose = sccd_xf2_mul(sccd_motion2_at(r->tmotion, 1.0), sccd_xf2_inv_mul(sccd_motion2_at(r->tmotion, r->t), pose));
        angle += (1.0 - r->t) * r->tmotion.dtheta;
    }
    set_pose(b, cpv_of(pose.p), angle);
    if (r->target != NULL && !rides)
        hold_coming_target(w, r, pose);
    ++w->cnt.clamps;
}

/* Post-step: keep the CCD bodies at the end of the dynamic body array (see
 * the top of the file). Looks the world up again: it may be gone. */
static void keep_ccd_last(cpSpace *space, void *key, void *data)
{
    (void)key;
    (void)data;
    sccd_cp_world *w = world_of(space);
    if (w == NULL)
        return;
    cpArray *arr = space->dynamicBodies;
    int tail = 0;
    while (tail < arr->num && find_rec(w, arr->arr[arr->num - 1 - tail]) != NULL)
        ++tail;
    if (tail == w->nactive)
        return;
    int end = arr->num; /* stable partition: non-CCD first, then CCD */
    for (int i = arr->num - 1; i >= 0; --i)
        if (find_rec(w, arr->arr[i]) != NULL) {
            void *body = arr->arr[i];
            memmove(&arr->arr[i], &arr->arr[i + 1], (size_t)(end - i - 1) * sizeof(void *));
            arr->arr[--end] = body;
        }
}

static void run_phase(sccd_cp_world *w, cpBody *first, cpFloat dt)
{
    double t_start = sccd_adapter_cpu_seconds();
    w->stamp = w->space->stamp;
    w->nshapes = 0;
    w->nholds = 0;
    bool ok = collect(w, first);
    for (int i = 0; i < w->nrec; ++i)
        if (w->recs[i].active)
            integrate(w, &w->recs[i], dt);
    for (int i = 0; ok && i < w->nrec; ++i)
        if (w->recs[i].active)
            ok = build_shapes(w, &w->recs[i]);
    ok = ok && split_targets(w, dt);
    CP_CHECK(w, ok, "sccd_cp: out of memory; CCD skipped this step");
    for (int i = 0; ok && i < w->nrec; ++i)
        if (w->recs[i].active && w->recs[i].count > 0) /* no solid shape: nothing to stop it */
            resolve_targets(w, &w->recs[i], dt);
    if (ok)
        resolve_clashes(w);
    for (int i = 0; ok && i < w->nrec; ++i)
        apply(w, &w->recs[i]);
    apply_holds(w, dt);
    cpSpaceAddPostStepCallback(w->space, keep_ccd_last, w, NULL);
    ++w->cnt.steps;
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

/* The position function of every CCD body. */
static void position_hook(cpBody *body, cpFloat dt)
{
    sccd_cp_world *w = world_of(cpBodyGetSpace(body));
    cp_body_rec *r = w ? find_rec(w, body) : NULL;
    if (r == NULL) { /* a stray hook (the world is gone): behave like Chipmunk */
        cpBodyUpdatePosition(body, dt);
        return;
    }
    if (w->stamp != w->space->stamp)
        run_phase(w, body, dt);
    r = find_rec(w, body);
    if (r->stamp != w->space->stamp) { /* not seen by the phase (cannot happen while the array is consistent) */
        r->orig(body, dt);
        r->stamp = w->space->stamp;
    }
}

/* ---- public API ---- */

sccd_ccd_options sccd_cp_options_default(void) { return sccd_ccd_options_default(0.02); }

sccd_cp_world *sccd_cp_attach(cpSpace *space)
{
    if (!CP_CHECK(NULL, space != NULL, "sccd_cp_attach: NULL space") ||
        !CP_CHECK(NULL, !cpSpaceIsLocked(space), "sccd_cp_attach: the space is stepping") ||
        !CP_CHECK(NULL, world_of(space) == NULL, "sccd_cp_attach: CCD is already attached to this space"))
        return NULL;
    sccd_cp_world *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->space = space;
    /* Chipmunk lets shapes overlap by the collision slop; the impact overlap
     * is a fifth of it (a space with no finite slop > 0 gets the default). */
    cpFloat slop = cpSpaceGetCollisionSlop(space);
    w->opt = sccd_is_valid_real(slop) && slop > 0.0 ? sccd_ccd_options_default(0.2 * slop) : sccd_cp_options_default();
    w->stamp = space->stamp;
    world_slot(space)->userData = w;
    return w;
}

static bool usable(sccd_cp_world *w, const cpBody *body, const char *msg)
{
    return CP_CHECK(w, w != NULL && body != NULL, msg);
}

void sccd_cp_body_enable(sccd_cp_world *w, cpBody *body)
{
    if (!usable(w, body, "sccd_cp_body_enable: NULL world or body") ||
        !CP_CHECK(w, cpBodyGetSpace(body) == w->space, "sccd_cp_body_enable: the body is not in the world's space") ||
        !CP_CHECK(w, cpBodyGetType(body) != CP_BODY_TYPE_STATIC, "sccd_cp_body_enable: static bodies do not move") ||
        !CP_CHECK(w, find_rec(w, body) == NULL, "sccd_cp_body_enable: CCD is already enabled on the body"))
        return;
    if (!CP_CHECK(w, sccd_adapter_reserve((void **)&w->recs, &w->caprec, w->nrec + 1, sizeof *w->recs),
                  "sccd_cp: out of memory"))
        return;
    cp_body_rec *r = &w->recs[w->nrec++];
    memset(r, 0, sizeof *r);
    r->body = body;
    r->orig = body->position_func;
    r->pivot = v2_of(cpBodyGetCenterOfGravity(body));
    r->stamp = w->space->stamp;
    r->t = 1.0;
    cpBodySetPositionUpdateFunc(body, position_hook);
}

void sccd_cp_body_disable(sccd_cp_world *w, cpBody *body)
{
    if (!usable(w, body, "sccd_cp_body_disable: NULL world or body"))
        return;
    cp_body_rec *r = find_rec(w, body);
    if (!CP_CHECK(w, r != NULL, "sccd_cp_body_disable: CCD is not enabled on the body"))
        return;
    cpBodySetPositionUpdateFunc(body, r->orig);
    *r = w->recs[--w->nrec];
}

void sccd_cp_body_set_pivot(sccd_cp_world *w, cpBody *body, cpVect local_pivot)
{
    if (!usable(w, body, "sccd_cp_body_set_pivot: NULL world or body"))
        return;
    cp_body_rec *r = find_rec(w, body);
    if (!CP_CHECK(w, r != NULL, "sccd_cp_body_set_pivot: CCD is not enabled on the body") ||
        !CP_CHECK(w, sccd_is_valid_v2(v2_of(local_pivot)), "sccd_cp_body_set_pivot: pivot not finite"))
        return;
    r->pivot = v2_of(local_pivot);
}

bool sccd_cp_body_is_enabled(const sccd_cp_world *w, const cpBody *body)
{
    return w != NULL && body != NULL && find_rec(w, body) != NULL;
}

void sccd_cp_set_options(sccd_cp_world *w, sccd_ccd_options o)
{
    if (!CP_CHECK(w, w != NULL, "sccd_cp_set_options: NULL world"))
        return;
    for (unsigned bad = sccd_ccd_options_merge(&w->opt, o); bad != 0; bad &= bad - 1) {
        snprintf(w->message, sizeof w->message, "sccd_cp_set_options: %s", sccd_ccd_options_problem(bad));
        report(w, w->message, __FILE__, __LINE__);
    }
}

sccd_ccd_options sccd_cp_get_options(const sccd_cp_world *w) { return w ? w->opt : sccd_cp_options_default(); }

sccd_cp_counters sccd_cp_get_counters(const sccd_cp_world *w)
{
    sccd_cp_counters zero = {0};
    return w ? w->cnt : zero;
}

void sccd_cp_reset_counters(sccd_cp_world *w)
{
    if (CP_CHECK(w, w != NULL, "sccd_cp_reset_counters: NULL world"))
        memset(&w->cnt, 0, sizeof w->cnt);
}

const char *sccd_cp_last_error(const sccd_cp_world *w) { return w && w->error ? w->error : ""; }

/* Give a body found in the space its position function back. */
static void restore_body(cpBody *body, void *data)
{
    sccd_cp_world *w = data;
    cp_body_rec *r = find_rec(w, body);
    if (r != NULL)
        cpBodySetPositionUpdateFunc(body, r->orig);
}

void sccd_cp_detach(sccd_cp_world *w)
{
    if (w == NULL)
        return;
    if (!CP_CHECK(w, !cpSpaceIsLocked(w->space), "sccd_cp_detach: the space is stepping; detach after cpSpaceStep"))
        return;
    /* Only bodies still in the space are touched: a record's body may have
     * been removed and freed since. */
    cpSpaceEachBody(w->space, restore_body, w);
    world_slot(w->space)->userData = NULL;
    free(w->recs);
    free(w->pending);
    free(w->shapes);
    free(w->cands);
    free(w->holds);
    free(w->fast);
    free(w);
}
