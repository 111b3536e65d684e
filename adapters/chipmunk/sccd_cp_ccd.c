/* The CCD hook of the Chipmunk2D adapter (sectorccd_chipmunk.h, "CCD"): it
 * translates between Chipmunk and the core's impact solver (impact.h),
 * which owns every decision about impacts.
 *
 * How it rides on cpSpaceStep (Chipmunk 7.0: cpSpaceStep.c): the step calls
 * every awake non-static body's position_func in the order of
 * space->dynamicBodies, then updates the shapes' boxes and finds contacts
 * between overlapping shapes, then solves velocities. While positions are
 * integrated the shapes' boxes are still those of the previous step, i.e. of
 * the start poses.
 *
 * The first CCD body whose position_func runs in a step runs the whole CCD
 * phase: it integrates every CCD body with the position function it had
 * before (so a custom one is respected: the core gets the velocities that
 * reproduce its result), gathers what their motions may reach from the
 * space's index, hands the lot to sccd_impact2_solve and writes the poses
 * and velocities back. Bodies after it in the array have not moved yet
 * ("pending": they get the pose from which their own integration lands on
 * the solver's); bodies before it have (their start is their end pose less
 * their velocity times dt). A post-step callback moves the CCD bodies to the
 * end of the array so that nearly every other body has moved by then.
 *
 * Every impact the solver resolves reaches the game as a Chipmunk contact
 * does: an arbiter made for it calls the pair's begin, pre-solve, post-solve
 * and separate handlers in that step (begin or pre-solve returning false:
 * the pair passes, as in Chipmunk). The pair leaves the impact separating,
 * so Chipmunk adds no bounce of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_ALLOW_PRIVATE_ACCESS 1
#include <chipmunk/chipmunk_private.h>

#include "sectorccd_chipmunk.h"
#include "../adapter_internal.h"

/* The query margin as a fraction of the smallest CCD box (split_targets). */
#define SLOW_FRACTION 0.1
/* Solves of one step while targets set moving reach shapes not yet gathered. */
#define GATHER_ROUNDS 3

typedef struct cp_body_rec {
    cpBody *body;
    cpBodyPositionFunc orig; /* the position function before enable */
    sccd_v2 pivot;           /* body coordinates */
    cpTimestamp stamp;       /* step in which the phase integrated it */
    /* this step */
    bool active;             /* taking part in this step's phase */
    bool usable;             /* has solid shapes and a finite motion */
    sccd_impact_body2 start; /* as the solver sees it at the step start */
    sccd_v2 bias_v;          /* the bias velocity it moved by */
    sccd_real bias_w;
    sccd_v2 end;             /* its own integration's end: origin and angle */
    cpFloat end_angle;
    sccd_aabb2 box;          /* what its motion may reach */
} cp_body_rec;

/* A solver body's Chipmunk body and the bias velocity it moved by (taken
 * out again after an impact). */
typedef struct cp_solver_ref { cpBody *body; sccd_v2 bias_v; sccd_real bias_w; } cp_solver_ref;

/* One begin answer given this step, replayed when the step is solved again. */
typedef struct cp_heard { const cpShape *a, *b; sccd_real t; bool accepted; } cp_heard;

struct sccd_cp_world {
    cpSpace *space;
    sccd_ccd_options opt;
    sccd_cp_counters cnt;
    cp_body_rec *recs;
    int nrec, caprec;
    cpTimestamp stamp; /* step of the last phase */
    cpBody **pending;  /* non-CCD bodies not integrated yet when the phase runs */
    int npending, cappending;
    cpShape **cands; /* gathered shapes, grouped by body before the solve */
    int ncands, capcands;
    cpBody **fast; /* non-CCD bodies that may move farther than the query margin */
    int nfast, capfast;
    sccd_real slow;
    /* the solver's input, index for index with the Chipmunk objects */
    sccd_impact_body2 *ib;
    cp_solver_ref *ref;
    int nib, capib, capref;
    sccd_impact_shape2 *is;
    int capis;
    sccd_impact_scratch scratch;
    /* the hooks of the current solve */
    cp_heard *heard;
    int nheard, capheard;
    cpArbiter arb;        /* the arbiter of the impact being told */
    struct cpContact contact;
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

static bool boxes_overlap(sccd_aabb2 a, sccd_aabb2 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

static cpBB bb_of(sccd_aabb2 b, sccd_real margin)
{
    return cpBBNew(b.lo.x - margin, b.lo.y - margin, b.hi.x + margin, b.hi.y + margin);
}

/* ---- shapes ---- */

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

/* ---- the game hears the impacts ---- */

static bool hook_collide(void *user, int sa, int sb)
{
    sccd_cp_world *w = user;
    return pair_collides(w->space, w->cands[sa], w->cands[sb]);
}

/* Fill the world's arbiter for an impact of shapes a, b at point p with
 * normal n (a to b): what a Chipmunk narrow phase would have produced, with
 * the handlers of the pair's collision types. */
static cpArbiter *make_arbiter(sccd_cp_world *w, cpShape *a, cpShape *b, cpVect p, cpVect n)
{
    cpArbiterInit(&w->arb, a, b);
    w->contact = (struct cpContact){.r1 = cpvsub(p, a->body->p), .r2 = cpvsub(p, b->body->p), .hash = 1};
    struct cpCollisionInfo info = {a, b, 0, n, 1, &w->contact};
    cpArbiterUpdate(&w->arb, &info, w->space);
    return &w->arb;
}

/* Whether this impact was answered in an earlier solve of the step (the
 * solves are deterministic: the same impact has the same time). */
static cp_heard *heard_before(sccd_cp_world *w, const sccd_impact_contact2 *c)
{
    for (int i = 0; i < w->nheard; ++i)
        if (w->heard[i].a == w->cands[c->shape_a] && w->heard[i].b == w->cands[c->shape_b] && w->heard[i].t == c->t)
            return &w->heard[i];
    return NULL;
}

/* Before the impulse: begin (first contact) and pre-solve, as Chipmunk calls
 * them; false from either lets the pair pass. Restitution and friction are
 * the arbiter's after them (a handler may set them). */
static bool hook_begin(void *user, sccd_impact_contact2 *c)
{
    sccd_cp_world *w = user;
    cp_heard *old = heard_before(w, c);
    if (old != NULL)
        return old->accepted;
    cpArbiter *arb = make_arbiter(w, w->cands[c->shape_a], w->cands[c->shape_b], cpv_of(c->point), cpv_of(c->normal));
    cpCollisionHandler *h = arb->handler;
    bool ok = h->beginFunc(arb, w->space, h->userData) && h->preSolveFunc(arb, w->space, h->userData);
    c->elasticity = arb->e;
    c->friction = arb->u;
    if (sccd_adapter_reserve((void **)&w->heard, &w->capheard, w->nheard + 1, sizeof *w->heard))
        w->heard[w->nheard++] = (cp_heard){arb->a, arb->b, c->t, ok};
    if (!ok)
        h->separateFunc(arb, w->space, h->userData);
    return ok;
}

/* After the impulse: post-solve with the impulse in the arbiter (what
 * cpArbiterTotalImpulse reports), then separate: the pair leaves apart. */
static void hook_post(void *user, const sccd_impact_contact2 *c)
{
    sccd_cp_world *w = user;
    if (w->arb.a != w->cands[c->shape_a] || w->arb.b != w->cands[c->shape_b])
        return; /* answered in an earlier solve of the step */
    cpVect n = w->arb.n, j = cpv_of(c->impulse);
    /* The arbiter's impulse is on a (cpArbiterTotalImpulse negates it unless swapped). */
    w->contact.jnAcc = cpvdot(j, n);
    w->contact.jtAcc = cpvdot(j, cpvperp(n));
    cpCollisionHandler *h = w->arb.handler;
    h->postSolveFunc(&w->arb, w->space, h->userData);
    h->separateFunc(&w->arb, w->space, h->userData);
    w->arb.a = NULL;
}

/* ---- gathering what the CCD bodies may reach ---- */

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
    for (int i = 0; i < w->nrec; ++i)
        w->recs[i].active = false;
    for (int i = k < 0 ? arr->num : k; i < arr->num; ++i) {
        cpBody *b = arr->arr[i];
        cp_body_rec *r = find_rec(w, b);
        if (r != NULL) {
            r->active = true;
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

static bool gathered(const sccd_cp_world *w, const cpShape *s)
{
    for (int i = 0; i < w->ncands; ++i)
        if (w->cands[i] == s)
            return true;
    return false;
}

static bool gather(sccd_cp_world *w, cpShape *s)
{
    if (s->sensor || gathered(w, s))
        return true;
    if (!sccd_adapter_reserve((void **)&w->cands, &w->capcands, w->ncands + 1, sizeof *w->cands))
        return false;
    w->cands[w->ncands++] = s;
    return true;
}

static void gather_query(cpShape *shape, void *data) { gather(data, shape); }

/* Every shape within box (grown by the slow bodies' reach), and the shapes
 * of the fast bodies whose reach meets it. */
static bool gather_box(sccd_cp_world *w, sccd_aabb2 box, cpFloat dt)
{
    cpSpaceBBQuery(w->space, bb_of(box, w->slow), CP_SHAPE_FILTER_ALL, gather_query, w);
    bool ok = true;
    for (int f = 0; ok && f < w->nfast; ++f) {
        sccd_real reach = body_reach(w->fast[f], dt);
        CP_BODY_FOREACH_SHAPE(w->fast[f], s)
        {
            sccd_aabb2 sb = {{s->bb.l - reach, s->bb.b - reach}, {s->bb.r + reach, s->bb.t + reach}};
            if (ok && boxes_overlap(box, sb))
                ok = gather(w, s);
        }
    }
    return ok;
}

/* Split the non-CCD bodies by how far they may move this step. The shapes'
 * boxes are at the start poses, so a query is grown by the slow bodies'
 * largest reach (`slow`, a fraction of the smallest CCD box); the few faster
 * ones are listed and tested one by one. Every body is in one of the two,
 * so no candidate is lost. */
static bool split_targets(sccd_cp_world *w, sccd_real smallest, cpFloat dt)
{
    w->slow = SLOW_FRACTION * (sccd_is_valid_real(smallest) ? smallest : 0.0);
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

/* ---- the solver's bodies ---- */

static void set_pose(cpBody *body, sccd_v2 origin, cpFloat angle)
{
    cpBodySetAngle(body, angle);
    cpBodySetPosition(body, cpv_of(origin));
}

static sccd_xf2 body_xf(const cpBody *body)
{
    return (sccd_xf2){v2_of(cpBodyGetPosition(body)), sccd_rot2_make(cpBodyGetAngle(body))};
}

/* Body origin of the pose whose centre of gravity is at p and angle a. */
static sccd_v2 origin_for(const cpBody *body, sccd_v2 p, sccd_real a)
{
    return sccd_v2_sub(p, sccd_rot2_apply(sccd_rot2_make(a), v2_of(body->cog)));
}

/* A hinge: a pivot joint to a static body. A simple motor to a static body
 * with unbounded force holds the turn (the hinged body then takes no
 * impulse: infinite inertia). */
static void find_hinge(cpBody *b, sccd_impact_body2 *out)
{
    CP_BODY_FOREACH_CONSTRAINT(b, c)
    {
        cpBody *other = c->a == b ? c->b : c->a;
        if (cpBodyGetType(other) != CP_BODY_TYPE_STATIC)
            continue;
        if (cpConstraintIsPivotJoint(c)) {
            out->hinged = true;
            out->hinge = v2_of(c->a == b ? cpPivotJointGetAnchorA(c) : cpPivotJointGetAnchorB(c));
        } else if (cpConstraintIsSimpleMotor(c) && cpConstraintGetMaxForce(c) == INFINITY) {
            out->inv_inertia = 0.0;
        }
    }
}

/* Body b as the solver sees it, from its pose and velocity at the start. */
static sccd_impact_body2 solver_body(cpBody *b, sccd_xf2 start, sccd_real angle, sccd_v2 v, sccd_real om)
{
    cpBodyType type = cpBodyGetType(b);
    sccd_impact_body2 out = {
        .kind = type == CP_BODY_TYPE_STATIC ? SCCD_BODY_STATIC : type == CP_BODY_TYPE_KINEMATIC ? SCCD_BODY_KINEMATIC : SCCD_BODY_DYNAMIC,
        .pose = start, .angle = angle, .cog = v2_of(b->cog), .v = v, .w = om, .pivot = v2_of(b->cog)};
    if (out.kind == SCCD_BODY_DYNAMIC) {
        out.inv_mass = sccd_is_valid_real(b->m_inv) ? b->m_inv : 0.0;
        out.inv_inertia = sccd_is_valid_real(b->i_inv) ? b->i_inv : 0.0;
        find_hinge(b, &out);
    }
    return out;
}

/* A target's start as Chipmunk integrates it (about its centre of gravity).
 * Pending bodies have not moved: they start here with v + bias. Moved
 * bodies are at their end pose; the bias they used is gone, so their start
 * is reconstructed from v alone (off by the bias, a few slop units at most).
 * Sleeping bodies stand still. */
static sccd_impact_body2 target_body(const sccd_cp_world *w, cpBody *b, cpFloat dt, sccd_v2 *bias_v, sccd_real *bias_w)
{
    *bias_v = (sccd_v2){0.0, 0.0};
    *bias_w = 0.0;
    if (cpBodyGetType(b) == CP_BODY_TYPE_STATIC || cpBodyIsSleeping(b))
        return solver_body(b, body_xf(b), cpBodyGetAngle(b), (sccd_v2){0.0, 0.0}, 0.0);
    if (is_pending(w, b)) {
        *bias_v = v2_of(b->v_bias);
        *bias_w = b->w_bias;
        return solver_body(b, body_xf(b), b->a, v2_of(cpvadd(b->v, b->v_bias)), b->w + b->w_bias);
    }
    sccd_real a0 = b->a - b->w * dt;
    sccd_v2 p0 = sccd_v2_sub(v2_of(b->p), sccd_v2_scale(v2_of(b->v), dt));
    return solver_body(b, (sccd_xf2){origin_for(b, p0, a0), sccd_rot2_make(a0)}, a0, v2_of(b->v), b->w);
}

static bool velocity_ok(const cpBody *b)
{
    return sccd_is_valid_v2(v2_of(b->v)) && sccd_is_valid_real(b->w) && sccd_is_valid_v2(v2_of(b->v_bias)) &&
           sccd_is_valid_real(b->w_bias);
}

/* Integrate a CCD body with its own position function (once: it spends
 * the bias) and keep it at its start: the solver gets the velocity that
 * reproduces that integration (of its centre of gravity); the record keeps
 * the end and the box of what its motion may reach. */
static void integrate_ccd(sccd_cp_world *w, cp_body_rec *r, cpFloat dt)
{
    cpBody *b = r->body;
    if (!CP_CHECK(w, velocity_ok(b), "sccd_cp: a CCD body has a NaN or infinite velocity; zeroed")) {
        b->v = b->v_bias = cpvzero;
        b->w = b->w_bias = 0.0;
    }
    r->bias_v = v2_of(b->v_bias);
    r->bias_w = b->w_bias;
    sccd_xf2 start = body_xf(b);
    cpFloat a0 = b->a;
    cpVect p0 = b->p;
    r->orig(b, dt);
    r->stamp = w->space->stamp;
    r->end = v2_of(cpBodyGetPosition(b));
    r->end_angle = b->a;
    sccd_v2 v = v2_of(dt > 0.0 ? cpvmult(cpvsub(b->p, p0), 1.0 / dt) : cpvzero);
    r->start = solver_body(b, start, a0, v, dt > 0.0 ? (b->a - a0) / dt : 0.0);
    r->start.ccd = true;
    r->start.pivot = r->pivot;
    set_pose(b, start.p, a0);
    r->usable = CP_CHECK(w, sccd_is_valid_v2(v) && sccd_is_valid_real(r->start.w) && sccd_is_valid_xf2(start),
                         "sccd_cp: a CCD body's pose is not finite; no CCD for it");
    if (!r->usable)
        return;
    sccd_motion2 m = sccd_motion2_from_velocity(start, r->start.cog, v, r->start.w, dt);
    r->usable = false;
    CP_BODY_FOREACH_SHAPE(b, s)
    {
        if (s->sensor)
            continue;
        sccd_shape2 g = shape_of(s);
        sccd_aabb2 sb = sccd_shape2_motion_box(&g, m);
        r->box = r->usable ? sccd_aabb2_union(r->box, sb) : sb;
        r->usable = true;
    }
}

static int body_order(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)(*(cpShape *const *)x)->body, b = (uintptr_t)(*(cpShape *const *)y)->body;
    return (a > b) - (a < b);
}

static bool reserve_solver(sccd_cp_world *w, int n)
{
    return sccd_adapter_reserve((void **)&w->ib, &w->capib, n, sizeof *w->ib) &&
           sccd_adapter_reserve((void **)&w->ref, &w->capref, n, sizeof *w->ref) &&
           sccd_adapter_reserve((void **)&w->is, &w->capis, n, sizeof *w->is);
}

/* The solver's bodies and shapes: the gathered shapes grouped by body (the
 * CCD bodies' own among them), each body once. */
static bool build_solver(sccd_cp_world *w, cpFloat dt)
{
    qsort(w->cands, (size_t)w->ncands, sizeof *w->cands, body_order);
    w->nib = 0;
    if (!reserve_solver(w, w->ncands))
        return false;
    for (int i = 0; i < w->ncands; ++i) {
        cpShape *s = w->cands[i];
        if (w->nib == 0 || w->ref[w->nib - 1].body != s->body) {
            int k = w->nib++;
            cp_solver_ref *ref = &w->ref[k];
            ref->body = s->body;
            cp_body_rec *r = find_rec(w, s->body);
            if (r != NULL && r->active && r->usable) {
                w->ib[k] = r->start;
                ref->bias_v = r->bias_v;
                ref->bias_w = r->bias_w;
            } else {
                w->ib[k] = target_body(w, s->body, dt, &ref->bias_v, &ref->bias_w);
            }
            w->ib[k].first_shape = i;
            w->ib[k].shape_count = 0;
        }
        ++w->ib[w->nib - 1].shape_count;
        w->is[i] = (sccd_impact_shape2){shape_of(s), w->nib - 1, s->e, s->u};
    }
    return true;
}

/* After a solve: the region a body set moving by an impact may reach (its
 * start and end boxes grown by its extent, which hold its path from the
 * impact pose inside the hitter's box); gathers what lies there. Returns
 * whether anything new was found. */
static bool gather_escapes(sccd_cp_world *w, cpFloat dt, bool *grew)
{
    int before = w->ncands;
    for (int k = 0; k < w->nib; ++k) {
        const sccd_impact_body2 *b = &w->ib[k];
        if (b->impacts == 0 || b->kind != SCCD_BODY_DYNAMIC)
            continue;
        for (int i = b->first_shape; i < b->first_shape + b->shape_count; ++i) {
            const sccd_shape2 *g = &w->is[i].geom;
            sccd_real rho = sccd_shape2_farthest(g, b->cog);
            sccd_aabb2 box = sccd_aabb2_union(sccd_shape2_aabb(g, b->pose), sccd_shape2_aabb(g, b->end_pose));
            box.lo = sccd_v2_sub(box.lo, (sccd_v2){rho, rho});
            box.hi = sccd_v2_add(box.hi, (sccd_v2){rho, rho});
            if (!gather_box(w, box, dt))
                return false;
        }
    }
    *grew = w->ncands > before;
    return true;
}

/* ---- writing the results back ---- */

/* Body k's results into Chipmunk. A pending body gets the pose from which
 * its own integration (cpBodyUpdatePosition, bias included) lands on the
 * solver's end pose. Velocities change only where an impact changed them
 * (less the bias the body moved by) or a hinge turned the body. */
static void write_back(sccd_cp_world *w, int k, cpFloat dt)
{
    const sccd_impact_body2 *b = &w->ib[k];
    cpBody *body = w->ref[k].body;
    bool ccd = b->ccd;
    if (b->kind == SCCD_BODY_STATIC || (!ccd && b->impacts == 0 && !b->held))
        return;
    if (b->kind == SCCD_BODY_DYNAMIC && (b->impacts > 0 || b->held || b->hinged)) {
        if (cpBodyIsSleeping(body))
            cpBodyActivate(body);
        body->v = cpv_of(sccd_v2_sub(b->end_v, w->ref[k].bias_v));
        body->w = b->end_w - w->ref[k].bias_w;
    }
    sccd_v2 origin = b->end_pose.p;
    cpFloat angle = b->end_angle;
    if (!ccd && is_pending(w, body)) {
        sccd_v2 cog = sccd_xf2_apply(b->end_pose, b->cog);
        angle -= (body->w + body->w_bias) * dt;
        origin = origin_for(body, sccd_v2_sub(cog, v2_of(cpvmult(cpvadd(body->v, body->v_bias), dt))), angle);
    }
    set_pose(body, origin, angle);
    w->cnt.clamps += b->impacts > 0 || b->held;
}

/* ---- the phase ---- */

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
    int end = arr->num; /* stable partition: non-CCD first, then CCD */
    for (int i = arr->num - 1; i >= 0; --i)
        if (find_rec(w, arr->arr[i]) != NULL) {
            void *body = arr->arr[i];
            memmove(&arr->arr[i], &arr->arr[i + 1], (size_t)(end - i - 1) * sizeof(void *));
            arr->arr[--end] = body;
        }
}

/* Integrate the active CCD bodies (kept at their start poses), gather their
 * own shapes and what their motions may reach. */
static bool gather_all(sccd_cp_world *w, cpFloat dt)
{
    sccd_real smallest = INFINITY;
    for (int i = 0; i < w->nrec; ++i) {
        cp_body_rec *r = &w->recs[i];
        if (!r->active)
            continue;
        integrate_ccd(w, r, dt);
        if (r->usable)
            smallest = sccd_min(smallest, sccd_min(r->box.hi.x - r->box.lo.x, r->box.hi.y - r->box.lo.y));
    }
    if (!split_targets(w, smallest, dt))
        return false;
    for (int i = 0; i < w->nrec; ++i) {
        cp_body_rec *r = &w->recs[i];
        if (!r->active || !r->usable)
            continue;
        CP_BODY_FOREACH_SHAPE(r->body, s)
        if (!gather(w, s))
            return false;
        if (!gather_box(w, r->box, dt))
            return false;
    }
    return true;
}

/* Solve the step; while bodies set moving reach shapes not gathered yet,
 * gather them and solve again (the game's hooks answered once: replayed). */
static bool solve(sccd_cp_world *w, cpFloat dt)
{
    sccd_impact_callbacks2 cb = {hook_collide, hook_begin, hook_post, w};
    w->nheard = 0;
    for (int round = 0; round < GATHER_ROUNDS; ++round) {
        if (!build_solver(w, dt))
            return false;
        sccd_impact_stats st = {0};
        if (!sccd_impact2_solve(w->ib, w->nib, w->is, w->ncands, dt, &w->opt, &cb, &w->scratch, &st))
            return CP_CHECK(w, false, "sccd_cp: the impact solver refused this step's bodies; CCD skipped");
        w->cnt.sweeps += (uint64_t)st.sweeps;
        w->cnt.candidates += (uint64_t)st.candidates;
        w->cnt.tois += (uint64_t)st.tois;
        w->cnt.overlapped += (uint64_t)st.overlapped;
        w->cnt.failed += (uint64_t)st.failed;
        bool grew = false;
        if (!gather_escapes(w, dt, &grew))
            return false;
        if (!grew)
            return true;
    }
    return true;
}

static void run_phase(sccd_cp_world *w, cpBody *first, cpFloat dt)
{
    double t_start = sccd_adapter_cpu_seconds();
    w->stamp = w->space->stamp;
    w->ncands = 0;
    w->nib = 0;
    bool ok = collect(w, first) && gather_all(w, dt) && solve(w, dt);
    CP_CHECK(w, ok, "sccd_cp: out of memory; CCD skipped this step");
    for (int k = 0; ok && k < w->nib; ++k)
        write_back(w, k, dt);
    for (int i = 0; i < w->nrec; ++i) { /* a CCD body the solve did not place: its own integration's end */
        cp_body_rec *r = &w->recs[i];
        if (r->active && (!ok || !r->usable))
            set_pose(r->body, r->end, r->end_angle);
    }
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
    free(w->cands);
    free(w->fast);
    free(w->ib);
    free(w->ref);
    free(w->is);
    free(w->heard);
    sccd_impact_scratch_free(&w->scratch);
    free(w);
}
