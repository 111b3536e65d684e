/* Chipmunk's side of an impact (sccd_cp_internal.h): its shapes as the
 * core's, its rules for which pairs collide, and its collision handlers
 * called for each impact the core resolves, with an arbiter made for it. */
#include "sccd_cp_internal.h"

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

void sccd_cp_shape_of(sccd_shape2 *s, const cpShape *shape)
{
    switch (shape->klass->type) {
    case CP_CIRCLE_SHAPE:
        s->type = SCCD_SHAPE_CIRCLE;
        s->circle = (sccd_circle){v2_of(cpCircleShapeGetOffset(shape)), cpCircleShapeGetRadius(shape)};
        break;
    case CP_SEGMENT_SHAPE:
        s->type = SCCD_SHAPE_CAPSULE;
        s->capsule = (sccd_capsule2){v2_of(cpSegmentShapeGetA(shape)), v2_of(cpSegmentShapeGetB(shape)),
                                     cpSegmentShapeGetRadius(shape)};
        break;
    default: {
        const cpPolyShape *poly = (const cpPolyShape *)shape;
        int n = poly->count;
        s->type = SCCD_SHAPE_POLY;
        if (n > SCCD_POLY_MAX) {
            s->poly = octagon_around(shape, n);
            break;
        }
        s->poly.n = n;
        s->poly.r = poly->r;
        /* the vertices in body coordinates, read as cpPolyShapeGetVert does
         * (after the world's planes), without its checks: the shapes of
         * every solve and question come through here */
        for (int i = 0; i < n; ++i)
            s->poly.v[i] = v2_of(poly->planes[n + i].v0);
        /* cpBoxShapeNew's rectangle as the core's box, the same shape: a box
         * shrinks by its half sizes and meets a circle by a clamp, where a
         * polygon's inset and nearest edge take loops (the debris rain of
         * 1,000 + 100: 3 % of the CCD's instructions) */
        sccd_box2 b;
        if (sccd_poly2_as_box(&s->poly, &b)) {
            s->type = SCCD_SHAPE_BOX;
            s->box = b;
        }
        break;
    }
    }
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

bool sccd_cp_hook_collide(void *user, int sa, int sb)
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

/* Before the impulse: begin (first contact) and pre-solve, as Chipmunk calls
 * them; false from either lets the pair pass. Restitution and friction are
 * the arbiter's after them (a handler may set them). */
bool sccd_cp_hook_begin(void *user, sccd_impact_contact2 *c)
{
    sccd_cp_world *w = user;
    cpArbiter *arb = make_arbiter(w, w->cands[c->shape_a], w->cands[c->shape_b], cpv_of(c->point), cpv_of(c->normal));
    cpCollisionHandler *h = arb->handler;
    bool ok = h->beginFunc(arb, w->space, h->userData) && h->preSolveFunc(arb, w->space, h->userData);
    c->elasticity = arb->e;
    c->friction = arb->u;
    if (!ok)
        h->separateFunc(arb, w->space, h->userData);
    return ok;
}

/* After the impulse: post-solve with the impulse in the arbiter (what
 * cpArbiterTotalImpulse reports), then separate: the pair leaves apart. */
void sccd_cp_hook_post(void *user, const sccd_impact_contact2 *c)
{
    sccd_cp_world *w = user;
    cpVect n = w->arb.n, j = cpv_of(c->impulse);
    /* The arbiter's impulse is on a (cpArbiterTotalImpulse negates it unless swapped). */
    w->contact.jnAcc = cpvdot(j, n);
    w->contact.jtAcc = cpvdot(j, cpvperp(n));
    cpCollisionHandler *h = w->arb.handler;
    h->postSolveFunc(&w->arb, w->space, h->userData);
    h->separateFunc(&w->arb, w->space, h->userData);
    w->arb.a = NULL;
}
