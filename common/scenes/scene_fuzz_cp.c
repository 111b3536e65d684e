/* Chipmunk2D scenes of the scene fuzzer (scene_fuzz.h).
 *
 * Units: CCD bodies are 30–150 long and 2–12 thick, walls have a radius
 * (half-thickness) of 0.3–3 — read 1 unit as 1 cm: millimetre-to-centimetre
 * walls against a metre-long blade. Every CCD body's origin is its pivot (the
 * hinge; a flyer's middle), and the adapter is told that pivot. A dynamic
 * body's centre of gravity is its shape's centroid, as a game's would be:
 * Chipmunk moves that centre on a line each step and the hinge pulls it
 * back, where the solver turns the body about its hinge (with the centre at
 * the hinge, the fuzzer missed an adapter that gathered by the line: a ball
 * by a fast rod's tip went unseen). A kinematic body turns about its pivot.
 *
 * Judges, after every step (scene_fuzz.h on inner shapes and cores):
 *  - a dynamic CCD body's inner shape meets a static target's core;
 *  - a hinged body's angle passed over an angle range in which its inner
 *    shape meets a static core (sampled once at the hinge, sccd_fz_arcs);
 *  - a flyer's centre of gravity crossed a wall's mid-line between two
 *    steps, and no path as long as its speed allows could have gone round
 *    the wall's end (an impact mid-step bends the path: sccd_fz_around_ends);
 *  - a ball's centre is inside a CCD body's inner shape;
 *  - two CCD bodies' inner shapes meet.
 * Kinematic bodies are not judged against static targets: Chipmunk never
 * collides the two. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sectorccd_chipmunk.h"
#include "cp_support.h"
#include "scene_fuzz.h"

#define MAX_BODIES 3
#define MAX_STATIC 4
#define MAX_BALLS 5
#define MAX_TRIES 40

typedef enum shape_kind { SHAPE_BOX, SHAPE_POLY, SHAPE_CAPSULE, SHAPE_CIRCLE, SHAPE_KINDS } shape_kind;
typedef enum pivot_kind { PIVOT_END, PIVOT_MIDDLE, PIVOT_INSIDE, PIVOT_OUTSIDE, PIVOT_KINDS } pivot_kind;

static const char *shape_names[SHAPE_KINDS] = {"box", "poly", "capsule", "circle"};
static const char *pivot_names[PIVOT_KINDS] = {"end", "middle", "inside", "outside"};

/* A CCD body: its shape in body coordinates (origin = pivot) and start state. */
typedef struct fz_body {
    sccd_fz_kind kind;
    shape_kind shape;
    pivot_kind pivot;
    sccd_fz_poly local, inner;   /* the shape and the judges' inner shape, body frame */
    double inset, speed, angle, reach;
    cpVect pos, vel;
    cpBody *body;
    sccd_fz_arcs *arcs;          /* per static target, hinged bodies only */
} fz_body;

/* A static target: a wall (segment with a radius or thin box, `half` its
 * half-thickness) or a ball. */
typedef struct fz_static { sccd_fz_poly shape, core; bool wall, box; double half; } fz_static;

typedef struct fz_ball { double r, mass; cpVect pos, vel; cpBody *body; } fz_ball;

typedef struct fz_scene {
    double unit; /* Chipmunk's length per scene unit (sccd_fz_setup; only build_space and read_poses see it) */
    bool heavy;  /* balls over 1e-3 to 1e3 times a CCD body's mass (sccd_fz_setup) */
    int hz, steps, iterations;
    double slop, elasticity, friction, gravity, motor_force;
    int nb, ns, nballs;
    fz_body b[MAX_BODIES];
    fz_static s[MAX_STATIC];
    fz_ball balls[MAX_BALLS];
    sccd_fz_arcs arcs[MAX_BODIES][MAX_STATIC];
} fz_scene;

static sccd_fz_v2 fv(cpVect v) { return (sccd_fz_v2){v.x, v.y}; }
static cpVect cv(sccd_fz_v2 v) { return cpv(v.x, v.y); }
/* A place or velocity of the scene in Chipmunk's units (× unit). */
static cpVect in_cp(const fz_scene *sc, cpVect v) { return cpvmult(v, sc->unit); }

/* ---- the CCD bodies' shapes ---- */

/* n points on an ellipse with semi-axes a, b, in order: always convex. */
static int ellipse_polygon(sccd_rng *g, double a, double b, sccd_fz_v2 *v)
{
    int n = 3 + sccd_rng_int(g, 6);
    double phase = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI), span = 2.0 * SCCD_PI / n;
    for (int i = 0; i < n; ++i) { /* jittered, so no two are close and every side is short of π */
        double t = phase + span * (i + sccd_rng_uniform(g, -0.3, 0.3));
        v[i] = (sccd_fz_v2){a * cos(t), b * sin(t)};
    }
    return n;
}

/* Where the pivot sits relative to the shape's centre (shape along x, length len). */
static sccd_fz_v2 pivot_offset(sccd_rng *g, pivot_kind p, double len, double thick)
{
    switch (p) {
    case PIVOT_END:
        return (sccd_fz_v2){0.5 * len + sccd_rng_uniform(g, -0.5, 1.0) * thick, 0.0};
    case PIVOT_INSIDE:
        return (sccd_fz_v2){sccd_rng_uniform(g, -0.35, 0.35) * len, sccd_rng_uniform(g, -0.2, 0.2) * thick};
    case PIVOT_OUTSIDE:
        return (sccd_fz_v2){sccd_rng_uniform(g, 0.6, 1.3) * len, sccd_rng_uniform(g, -0.5, 0.5) * len};
    default:
        return (sccd_fz_v2){0.0, 0.0};
    }
}

/* A random shape, placed so that the body origin is the pivot. The judges'
 * inset is 40 % of the shape's half-thickness: never less than 0.4 units,
 * four times Chipmunk's default slop. */
static void make_shape(sccd_rng *g, fz_body *b, double len)
{
    double thick = sccd_rng_uniform(g, 2.0, 12.0);
    sccd_fz_poly *s = &b->local;
    s->r = 0.0;
    if (b->shape == SHAPE_CIRCLE) {
        len = thick = sccd_rng_uniform(g, 8.0, 40.0);
        s->n = 1;
        s->v[0] = (sccd_fz_v2){0.0, 0.0};
        s->r = 0.5 * len;
    } else if (b->shape == SHAPE_CAPSULE) {
        s->n = 2;
        s->r = 0.5 * thick;
        s->v[0] = (sccd_fz_v2){-0.5 * len + s->r, 0.0};
        s->v[1] = (sccd_fz_v2){0.5 * len - s->r, 0.0};
    } else if (b->shape == SHAPE_BOX) {
        s->n = 4;
        double hx = 0.5 * len, hy = 0.5 * thick;
        s->v[0] = (sccd_fz_v2){-hx, -hy};
        s->v[1] = (sccd_fz_v2){hx, -hy};
        s->v[2] = (sccd_fz_v2){hx, hy};
        s->v[3] = (sccd_fz_v2){-hx, hy};
    } else {
        thick = sccd_rng_uniform(g, 4.0, fmax(5.0, 0.5 * len));
        s->n = ellipse_polygon(g, 0.5 * len, 0.5 * thick, s->v);
    }
    sccd_fz_v2 off = pivot_offset(g, b->pivot, len, thick);
    for (int i = 0; i < s->n; ++i)
        s->v[i] = (sccd_fz_v2){s->v[i].x + off.x, s->v[i].y + off.y};
    sccd_fz_v2 mid;
    double bound = sccd_fz_poly_bound(s, &mid);
    b->reach = hypot(mid.x, mid.y) + bound;
    double half = 0.5 * thick;
    if (b->shape == SHAPE_POLY) { /* the inset scales the hull about its vertex mean: its distance to the nearest side */
        sccd_fz_poly centre = {1, {mid}, 0.0};
        half = INFINITY;
        for (int i = 0; i < s->n; ++i) {
            sccd_fz_poly side = {2, {s->v[i], s->v[(i + 1) % s->n]}, 0.0};
            half = fmin(half, sccd_fz_poly_gap(&centre, &side));
        }
    }
    b->inset = 0.4 * half;
    b->inner = sccd_fz_poly_inner(s, b->inset);
}

/* ---- building the Chipmunk space ---- */

static void set_material(cpShape *s, const fz_scene *sc)
{
    cpShapeSetElasticity(s, sc->elasticity);
    cpShapeSetFriction(s, sc->friction);
}

/* The shape's centroid (body frame): a free or hinged body's centre of
 * gravity, as a game's would be, so a hinged body turns about a hinge off
 * its centre of gravity (Chipmunk moves that centre on a line, the hinge
 * pulls it back the next step). */
static cpVect shape_centroid(const sccd_fz_poly *p)
{
    if (p->n <= 2)
        return cpvlerp(cv(p->v[0]), cv(p->v[p->n - 1]), 0.5);
    cpVect v[SCCD_FZ_POLY_MAX];
    for (int i = 0; i < p->n; ++i)
        v[i] = cv(p->v[i]);
    return cpCentroidForPoly(p->n, v);
}

/* The shape on body, its moment of inertia about c (the centre of gravity;
 * the shape and c in scene units, the moment in Chipmunk's). */
static cpShape *add_poly_shape(cpSpace *space, const fz_scene *sc, cpBody *body, const sccd_fz_poly *p, double mass,
                               cpVect c, double *moment)
{
    cpVect v[SCCD_FZ_POLY_MAX];
    for (int i = 0; i < p->n; ++i)
        v[i] = in_cp(sc, cv(p->v[i]));
    double r = p->r * sc->unit;
    c = in_cp(sc, c);
    if (p->n == 1) {
        *moment = cpMomentForCircle(mass, 0.0, r, cpvsub(v[0], c));
        return cpSpaceAddShape(space, cpCircleShapeNew(body, r, v[0]));
    }
    if (p->n == 2) {
        *moment = cpMomentForSegment(mass, cpvsub(v[0], c), cpvsub(v[1], c), r);
        return cpSpaceAddShape(space, cpSegmentShapeNew(body, v[0], v[1], r));
    }
    *moment = cpMomentForPoly(mass, p->n, v, cpvneg(c), r);
    return cpSpaceAddShape(space, cpPolyShapeNew(body, p->n, v, cpTransformIdentity, r));
}

/* A kinematic body turns about its origin, the pivot (a handle); a dynamic
 * one has its centre of gravity at its shape's centroid and starts with
 * the velocity there (a hinged one's from its spin about the hinge). */
static void build_body(cpSpace *space, const fz_scene *sc, fz_body *b)
{
    double moment = 0.0;
    cpVect c = b->kind == SCCD_FZ_KINEMATIC ? cpvzero : shape_centroid(&b->local);
    if (b->kind == SCCD_FZ_KINEMATIC) {
        b->body = cpSpaceAddBody(space, cpBodyNewKinematic());
        set_material(add_poly_shape(space, sc, b->body, &b->local, 1.0, c, &moment), sc);
    } else {
        b->body = cpSpaceAddBody(space, cpBodyNew(1.0, 1.0));
        set_material(add_poly_shape(space, sc, b->body, &b->local, 1.0, c, &moment), sc);
        cpBodySetMoment(b->body, moment);
        cpBodySetCenterOfGravity(b->body, in_cp(sc, c));
    }
    cpBodySetAngle(b->body, b->angle); /* first: Chipmunk turns a body about its centre of gravity */
    cpBodySetPosition(b->body, in_cp(sc, b->pos));
    cpBodySetAngularVelocity(b->body, b->speed);
    cpVect arm = cpvrotate(c, cpvforangle(b->angle)); /* from the origin (the pivot) to the centre of gravity */
    bool hinged = b->kind == SCCD_FZ_HINGED_FREE || b->kind == SCCD_FZ_HINGED_MOTOR;
    cpBodySetVelocity(b->body, in_cp(sc, hinged ? cpvmult(cpvperp(arm), b->speed) : b->vel));
    if (hinged) {
        cpBody *ground = cpSpaceGetStaticBody(space);
        cpSpaceAddConstraint(space, cpPivotJointNew(ground, b->body, in_cp(sc, b->pos)));
        if (b->kind == SCCD_FZ_HINGED_MOTOR) /* Chipmunk's motor rate is the first body's spin minus the second's; a torque: × unit² */
            cpConstraintSetMaxForce(cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, b->body, -b->speed)),
                                    sc->motor_force * sc->unit * sc->unit);
    }
}

static void build_static(cpSpace *space, const fz_scene *sc, const fz_static *s)
{
    cpBody *ground = cpSpaceGetStaticBody(space);
    double unused;
    set_material(add_poly_shape(space, sc, ground, &s->shape, 1.0, cpvzero, &unused), sc);
}

static void build_ball(cpSpace *space, const fz_scene *sc, fz_ball *b)
{
    double r = b->r * sc->unit;
    b->body = cpSpaceAddBody(space, cpBodyNew(b->mass, cpMomentForCircle(b->mass, 0.0, r, cpvzero)));
    cpBodySetPosition(b->body, in_cp(sc, b->pos));
    cpBodySetVelocity(b->body, in_cp(sc, b->vel));
    set_material(cpSpaceAddShape(space, cpCircleShapeNew(b->body, r, cpvzero)), sc);
}

/* ---- generating a scene ---- */

static sccd_fz_poly body_at_start(const fz_body *b) { return sccd_fz_poly_place(&b->local, fv(b->pos), b->angle); }

/* Clear of everything already placed by `gap` at the start. */
static bool clear_of_all(const fz_scene *sc, const sccd_fz_poly *p, double gap)
{
    sccd_fz_poly q = *p;
    q.r += gap;
    for (int i = 0; i < sc->nb; ++i) {
        sccd_fz_poly o = body_at_start(&sc->b[i]);
        if (sccd_fz_poly_overlap(&q, &o))
            return false;
    }
    for (int i = 0; i < sc->ns; ++i)
        if (sccd_fz_poly_overlap(&q, &sc->s[i].shape))
            return false;
    for (int i = 0; i < sc->nballs; ++i) {
        sccd_fz_poly o = {1, {fv(sc->balls[i].pos)}, sc->balls[i].r};
        if (sccd_fz_poly_overlap(&q, &o))
            return false;
    }
    return true;
}

static sccd_fz_v2 polar(sccd_fz_v2 c, double r, double a) { return (sccd_fz_v2){c.x + r * cos(a), c.y + r * sin(a)}; }

/* A thin wall with core from a to b: a segment with a radius, or a box. */
static fz_static make_wall(sccd_rng *g, sccd_fz_v2 a, sccd_fz_v2 b)
{
    fz_static w = {.wall = true, .box = sccd_rng_int(g, 2) == 1, .half = sccd_fz_log_uniform(g, 0.3, 3.0)};
    double rw = w.half, len = hypot(b.x - a.x, b.y - a.y);
    w.core = (sccd_fz_poly){2, {a, b}, 0.0};
    if (!w.box) { /* the core ends rw inside the rounded ends */
        w.shape = (sccd_fz_poly){2, {a, b}, rw};
        return w;
    }
    sccd_fz_v2 d = {(b.x - a.x) / len * rw, (b.y - a.y) / len * rw}, n = {-d.y, d.x};
    w.shape = (sccd_fz_poly){4, {{a.x - n.x, a.y - n.y}, {b.x - n.x, b.y - n.y}, {b.x + n.x, b.y + n.y}, {a.x + n.x, a.y + n.y}}, 0.0};
    /* The core is the box's mid-line, stopping short of the square ends as far as the sides are apart:
     * reaching it takes min(rw, len / 2) of penetration from any side. A box shorter than it is thick
     * (len < 2·rw) has its mid-line across: taken along a to b, the core's ends crossed over and stuck
     * out of the box, and a body resting on its side was judged deep in it (scene fuzzer, Chipmunk,
     * seed 99, scene 88248, with a reordering of the solver's events). */
    if (len >= 2.0 * rw) {
        w.core = (sccd_fz_poly){2, {{a.x + d.x, a.y + d.y}, {b.x - d.x, b.y - d.y}}, 0.0};
    } else {
        double k = (rw - 0.5 * len) / rw; /* n scaled to the half-length of the core across */
        sccd_fz_v2 m = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y)};
        w.core = (sccd_fz_poly){2, {{m.x - k * n.x, m.y - k * n.y}, {m.x + k * n.x, m.y + k * n.y}}, 0.0};
    }
    return w;
}

static fz_static make_static_ball(sccd_fz_v2 c, double r)
{
    return (fz_static){{1, {c}, r}, {1, {c}, 0.0}, false, false};
}

/* A static target somewhere the body turning about its pivot reaches. */
static void add_target_in_reach(sccd_rng *g, fz_scene *sc, const fz_body *b)
{
    for (int t = 0; t < MAX_TRIES && sc->ns < MAX_STATIC; ++t) {
        double rho = sccd_rng_uniform(g, 0.15, 0.95) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        sccd_fz_v2 c = polar(fv(b->pos), rho, phi);
        fz_static s;
        if (sccd_rng_int(g, 4) == 0) {
            s = make_static_ball(c, sccd_rng_uniform(g, 1.0, 6.0));
        } else { /* near radial, so the body sweeps across it */
            double dir = phi + sccd_rng_uniform(g, -1.0, 1.0), half = sccd_rng_uniform(g, 0.1, 0.6) * b->reach;
            s = make_wall(g, polar(c, -half, dir), polar(c, half, dir));
        }
        if (clear_of_all(sc, &s.shape, 1.0)) {
            sc->s[sc->ns++] = s;
            return;
        }
    }
}

static void add_ball(sccd_rng *g, fz_scene *sc, sccd_fz_v2 c, cpVect vel)
{
    fz_ball ball = {sccd_rng_uniform(g, 2.0, 8.0), sc->heavy ? sccd_fz_log_uniform(g, 1e-3, 1e3) : sccd_fz_log_uniform(g, 0.05, 2.0),
                    cv(c), vel, NULL};
    sccd_fz_poly p = {1, {c}, ball.r};
    if (sc->nballs < MAX_BALLS && clear_of_all(sc, &p, 0.5))
        sc->balls[sc->nballs++] = ball;
}

/* A CCD body of the given kind at pos, its start angle clear of what is there. */
static bool add_body(sccd_rng *g, fz_scene *sc, sccd_fz_kind kind, cpVect pos, double len)
{
    fz_body *b = &sc->b[sc->nb];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->shape = (shape_kind)sccd_rng_int(g, SHAPE_KINDS);
    b->pivot = kind == SCCD_FZ_FLYER ? PIVOT_MIDDLE : (pivot_kind)sccd_rng_int(g, PIVOT_KINDS);
    if (b->shape == SHAPE_CIRCLE && b->pivot == PIVOT_MIDDLE && kind != SCCD_FZ_FLYER)
        b->pivot = PIVOT_OUTSIDE; /* a disc spinning about its centre sweeps nothing */
    make_shape(g, b, len);
    b->speed = (sccd_rng_int(g, 2) ? 1.0 : -1.0) * sccd_fz_log_uniform(g, 0.5, 600.0);
    b->pos = pos;
    for (int t = 0; t < MAX_TRIES; ++t) {
        b->angle = sccd_rng_uniform(g, -SCCD_PI, SCCD_PI);
        sccd_fz_poly p = body_at_start(b);
        if (clear_of_all(sc, &p, 1.0)) {
            ++sc->nb;
            return true;
        }
    }
    return false;
}

/* Hinged or kinematic: targets in reach, balls in reach, sometimes a free
 * box beside it (second and third impacts in one step) or a second hinged
 * body whose reach overlaps. Kinematic bodies get no static targets (Chipmunk
 * does not collide them) and may move. */
static void fill_turning(sccd_rng *g, fz_scene *sc)
{
    fz_body *b = &sc->b[0];
    bool kinematic = b->kind == SCCD_FZ_KINEMATIC;
    if (kinematic && sccd_rng_int(g, 2) == 0)
        b->vel = cpvmult(cpvforangle(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI)), sccd_rng_uniform(g, 0.0, 1.0) * b->reach);
    for (int n = kinematic ? 0 : 1 + sccd_rng_int(g, 3); n > 0; --n)
        add_target_in_reach(g, sc, b);
    for (int n = sccd_rng_int(g, kinematic ? 5 : 3) + kinematic; n > 0; --n) {
        double rho = sccd_rng_uniform(g, 0.2, 1.0) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        add_ball(g, sc, polar(fv(b->pos), rho, phi), cpvmult(cv((sccd_fz_v2){cos(phi), sin(phi)}), sccd_rng_uniform(g, -50, 50)));
    }
    int extra = sccd_rng_int(g, 10);
    if (extra < 3) { /* a free box or shape lying in the sweep */
        double rho = sccd_rng_uniform(g, 0.3, 0.9) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        if (add_body(g, sc, SCCD_FZ_FLYER, cv(polar(fv(b->pos), rho, phi)), sccd_rng_uniform(g, 8.0, 40.0))) {
            sc->b[sc->nb - 1].vel = cpvzero;
            sc->b[sc->nb - 1].speed *= 0.01;
        }
    } else if (extra < 5 && !kinematic) { /* a second hinged body: blades clash */
        double d = sccd_rng_uniform(g, 0.5, 1.6) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        sccd_fz_kind k = sccd_rng_int(g, 2) ? SCCD_FZ_HINGED_MOTOR : SCCD_FZ_HINGED_FREE;
        add_body(g, sc, k, cv(polar(fv(b->pos), d, phi)), sccd_rng_uniform(g, 30.0, 150.0));
    }
}

/* A flyer shot at long thin walls across its path (and balls on the way),
 * sometimes with a second flyer coming the other way. */
static void fill_flyer(sccd_rng *g, fz_scene *sc)
{
    fz_body *b = &sc->b[0];
    double v = sccd_fz_log_uniform(g, 30.0, 3000.0), dir = sccd_rng_uniform(g, -SCCD_PI, SCCD_PI);
    b->vel = cpv(v * cos(dir), v * sin(dir));
    double dist = fmax(b->reach + 5.0, fmin(600.0, sccd_rng_uniform(g, 0.1, 0.8) * v));
    for (int n = 1 + sccd_rng_int(g, 2); n > 0; --n, dist *= 1.5) {
        sccd_fz_v2 hit = polar(fv(b->pos), dist, dir);
        double tilt = dir + 0.5 * SCCD_PI + sccd_rng_uniform(g, -0.8, 0.8), half = 2.0 * b->reach + sccd_rng_uniform(g, 20.0, 200.0);
        sccd_fz_v2 c = polar(hit, sccd_rng_uniform(g, -0.3, 0.3) * half, tilt);
        fz_static w = make_wall(g, polar(c, -half, tilt), polar(c, half, tilt));
        if (clear_of_all(sc, &w.shape, 1.0) && sc->ns < MAX_STATIC)
            sc->s[sc->ns++] = w;
    }
    if (sccd_rng_int(g, 3) == 0)
        add_ball(g, sc, polar(fv(b->pos), sccd_rng_uniform(g, 0.3, 0.9) * dist, dir), cpvzero);
    if (sccd_rng_int(g, 4) == 0 && sc->ns < MAX_STATIC) {
        fz_static s = make_static_ball(polar(fv(b->pos), sccd_rng_uniform(g, 0.3, 0.9) * dist, dir + sccd_rng_uniform(g, -0.1, 0.1)),
                                       sccd_rng_uniform(g, 1.0, 6.0));
        if (clear_of_all(sc, &s.shape, 1.0))
            sc->s[sc->ns++] = s;
    }
    if (sccd_rng_int(g, 4) == 0 && add_body(g, sc, SCCD_FZ_FLYER, cv(polar(fv(b->pos), 0.5 * dist, dir)), sccd_rng_uniform(g, 10.0, 80.0)))
        sc->b[sc->nb - 1].vel = cpvmult(b->vel, -sccd_rng_uniform(g, 0.2, 1.0));
}

/* Scene generation: everything is placed about the first CCD body, at (origin, origin). */
static void generate(sccd_rng *g, fz_scene *sc, sccd_fz_setup setup)
{
    static const int hz[] = {30, 60, 120};
    static const double slops[] = {0.1, 0.05, 0.02, 0.005};
    static const int iterations[] = {5, 10, 20, 40};
    memset(sc, 0, sizeof *sc);
    sc->heavy = setup.heavy;
    sc->hz = hz[sccd_fz_pick(g, 3, 2) == 0 ? 1 : sccd_rng_int(g, 3)];
    sc->steps = sc->hz; /* one simulated second */
    sc->slop = slops[sccd_fz_pick(g, 4, 2)];
    sc->iterations = iterations[sccd_rng_int(g, 4)];
    sc->elasticity = sccd_rng_uniform(g, 0.0, 0.9);
    sc->friction = sccd_rng_uniform(g, 0.0, 1.0);
    sc->gravity = sccd_rng_int(g, 2) ? 0.0 : -sccd_rng_uniform(g, 50.0, 1000.0);
    sc->motor_force = sccd_fz_log_uniform(g, 1e3, 1e6);
    sccd_fz_kind kind = (sccd_fz_kind)sccd_rng_int(g, SCCD_FZ_KINDS);
    add_body(g, sc, kind, cpv(setup.origin, setup.origin), sccd_rng_uniform(g, 30.0, 150.0));
    if (kind == SCCD_FZ_FLYER)
        fill_flyer(g, sc);
    else
        fill_turning(g, sc);
}

/* ---- description ---- */

static void describe_poly(char *d, const sccd_fz_poly *p)
{
    for (int i = 0; i < p->n; ++i)
        sccd_fz_append(d, SCCD_FZ_TEXT, "%s(%.2f,%.2f)", i ? "," : "[", p->v[i].x, p->v[i].y);
    sccd_fz_append(d, SCCD_FZ_TEXT, "] r=%.2f", p->r);
}

static void describe(const fz_scene *sc, int index, char *d)
{
    d[0] = '\0';
    sccd_fz_append(d, SCCD_FZ_TEXT, "cp#%d %dHz slop=%g it=%d e=%.2f f=%.2f g=%.0f motorF=%.3g |", index, sc->hz, sc->slop,
                   sc->iterations, sc->elasticity, sc->friction, sc->gravity, sc->motor_force);
    for (int i = 0; i < sc->nb; ++i) {
        const fz_body *b = &sc->b[i];
        sccd_fz_append(d, SCCD_FZ_TEXT, " B%d %s %s pivot=%s w=%.3g at (%.1f,%.1f) a=%.3f v=(%.0f,%.0f) ", i,
                       sccd_fz_kind_name(b->kind), shape_names[b->shape], pivot_names[b->pivot], b->speed, b->pos.x,
                       b->pos.y, b->angle, b->vel.x, b->vel.y);
        describe_poly(d, &b->local);
        sccd_fz_append(d, SCCD_FZ_TEXT, " |");
    }
    for (int i = 0; i < sc->ns; ++i) {
        sccd_fz_append(d, SCCD_FZ_TEXT, " S%d %s ", i, sc->s[i].wall ? (sc->s[i].box ? "wall-box" : "wall-seg") : "ball");
        describe_poly(d, &sc->s[i].shape);
        if (sc->s[i].box)
            sccd_fz_append(d, SCCD_FZ_TEXT, " (core [(%.2f,%.2f),(%.2f,%.2f)])", sc->s[i].core.v[0].x, sc->s[i].core.v[0].y,
                           sc->s[i].core.v[1].x, sc->s[i].core.v[1].y);
        sccd_fz_append(d, SCCD_FZ_TEXT, " |");
    }
    for (int i = 0; i < sc->nballs; ++i)
        sccd_fz_append(d, SCCD_FZ_TEXT, " ball%d r=%.1f m=%.2f (%.1f,%.1f) v=(%.0f,%.0f) |", i, sc->balls[i].r,
                       sc->balls[i].mass, sc->balls[i].pos.x, sc->balls[i].pos.y, sc->balls[i].vel.x, sc->balls[i].vel.y);
}

/* ---- judges ---- */

static bool is_hinged(const fz_body *b) { return b->kind == SCCD_FZ_HINGED_FREE || b->kind == SCCD_FZ_HINGED_MOTOR; }

/* The angles at which hinged body b, at its hinge, meets static target s's core. */
static void sample_arcs(const fz_body *b, const fz_static *s, sccd_fz_arcs *arcs)
{
    sccd_fz_v2 cb, cs;
    double rb = sccd_fz_poly_bound(&b->inner, &cb), rs = sccd_fz_poly_bound(&s->core, &cs);
    arcs->any = false;
    for (int k = 0; k < SCCD_FZ_ANGLES; ++k) {
        double a = sccd_fz_arcs_angle(k);
        sccd_fz_v2 c = sccd_fz_v2_place(cb, a, fv(b->pos));
        arcs->in[k] = 0;
        if (hypot(c.x - cs.x, c.y - cs.y) > rb + rs)
            continue;
        sccd_fz_poly p = sccd_fz_poly_place(&b->inner, fv(b->pos), a);
        arcs->in[k] = sccd_fz_poly_overlap(&p, &s->core);
        arcs->any |= arcs->in[k] != 0;
    }
}

/* Poses at a step's start or end. */
/* Each body's origin (its pivot), centre of gravity (inside its shape: the
 * origin may lie outside it), velocity and angle; the balls' centres. */
typedef struct poses { cpVect p[MAX_BODIES], c[MAX_BODIES], v[MAX_BODIES]; double a[MAX_BODIES], w[MAX_BODIES]; cpVect ball[MAX_BALLS]; } poses;

/* The poses in scene units (Chipmunk's ÷ unit). */
static poses read_poses(const fz_scene *sc)
{
    poses q;
    double k = 1.0 / sc->unit;
    for (int i = 0; i < sc->nb; ++i) {
        q.p[i] = cpvmult(cpBodyGetPosition(sc->b[i].body), k);
        q.c[i] = cpvmult(cpBodyLocalToWorld(sc->b[i].body, cpBodyGetCenterOfGravity(sc->b[i].body)), k);
        q.v[i] = cpvmult(cpBodyGetVelocity(sc->b[i].body), k);
        q.w[i] = cpBodyGetAngularVelocity(sc->b[i].body);
        q.a[i] = cpBodyGetAngle(sc->b[i].body);
    }
    for (int i = 0; i < sc->nballs; ++i)
        q.ball[i] = cpvmult(cpBodyGetPosition(sc->balls[i].body), k);
    return q;
}

/* How far body i's centre may have gone in the step: as fast as it moved
 * at either end, or, within reach of another body at either end, as fast as
 * that body's farthest point: one ending there may have carried it round
 * (a bat's rider), one starting there may have batted it. Batted, a body
 * may be fastest between the ends: a flyer a blade struck four times in a
 * step, off a wall and round its end, left the step slower than it went
 * round and was judged to have crossed (Chipmunk, seed 31, scene 74993;
 * sampled along the solver's motions, it passes 1.8 units clear of the
 * wall). */
static double travel(const fz_scene *sc, int i, const poses *q0, const poses *q1)
{
    double speed = fmax(cpvlength(q0->v[i]), cpvlength(q1->v[i]));
    for (int j = 0; j < sc->nb; ++j) {
        double reach = sc->b[j].reach + sc->b[i].reach;
        if (j == i || (cpvdist(q1->p[i], q1->p[j]) > reach && cpvdist(q0->p[i], q0->p[j]) > reach))
            continue;
        double v = fmax(cpvlength(q0->v[j]), cpvlength(q1->v[j])), w = fmax(fabs(q0->w[j]), fabs(q1->w[j]));
        speed = fmax(speed, v + w * reach);
    }
    return speed / sc->hz;
}

/* Body i against the static targets; true (with the verdict in out) on a pass-through. */
/* Record which judge fired. */
static bool fire(sccd_fz_result *out, sccd_fz_judge_kind kind)
{
    out->judge_kind = kind;
    return true;
}

static bool judge_static(const fz_scene *sc, int i, const poses *q0, const poses *q1, sccd_fz_result *out)
{
    const fz_body *b = &sc->b[i];
    if (b->kind == SCCD_FZ_KINEMATIC)
        return false;
    sccd_fz_poly inner = sccd_fz_poly_place(&b->inner, fv(q1->p[i]), q1->a[i]);
    /* a hinge that gave way turns the body about another point: the angle sets hold only at the hinge */
    bool at_hinge = is_hinged(b) && cpvdist(q0->p[i], b->pos) < 0.25 * b->inset && cpvdist(q1->p[i], b->pos) < 0.25 * b->inset;
    for (int k = 0; k < sc->ns; ++k) {
        const fz_static *s = &sc->s[k];
        if (sccd_fz_poly_overlap(&inner, &s->core)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d deep in S%d: inner shape (inset %.2f) meets its core at (%.2f,%.2f) a=%.4f", i, k,
                     b->inset, q1->p[i].x, q1->p[i].y, q1->a[i]);
            return fire(out, SCCD_FZ_JUDGE_DEEP);
        }
        if (at_hinge && sccd_fz_arcs_crossed(&sc->arcs[i][k], q0->a[i], q1->a[i])) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d turned through S%d: angle %.4f -> %.4f passes a blocked range", i, k, q0->a[i],
                     q1->a[i]);
            return fire(out, SCCD_FZ_JUDGE_TURNED);
        }
        /* the centre of gravity, inside the shape: the origin (a pivot "in the middle" of a thin triangle's
         * box) lay outside one resting on a thin wall, and crossed the wall's mid-line with the triangle
         * still above it (seed 3, scene 18104) */
        if (b->kind == SCCD_FZ_FLYER && s->wall &&
            sccd_fz_segments_cross(fv(q0->c[i]), fv(q1->c[i]), s->core.v[0], s->core.v[1]) &&
            !sccd_fz_around_ends(fv(q0->c[i]), fv(q1->c[i]), s->core.v[0], s->core.v[1], travel(sc, i, q0, q1))) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d centre crossed wall S%d: (%.2f,%.2f) -> (%.2f,%.2f)", i, k, q0->c[i].x, q0->c[i].y,
                     q1->c[i].x, q1->c[i].y);
            return fire(out, SCCD_FZ_JUDGE_CROSSED);
        }
    }
    return false;
}

/* Body i against balls and later CCD bodies. */
static bool judge_moving(const fz_scene *sc, int i, const poses *q1, sccd_fz_result *out)
{
    const fz_body *b = &sc->b[i];
    sccd_fz_poly inner = sccd_fz_poly_place(&b->inner, fv(q1->p[i]), q1->a[i]);
    for (int k = 0; k < sc->nballs; ++k) {
        sccd_fz_poly c = {1, {fv(q1->ball[k])}, 0.0};
        if (sccd_fz_poly_overlap(&inner, &c)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "ball%d centre (%.2f,%.2f) inside B%d (inset %.2f) at (%.2f,%.2f) a=%.4f", k,
                     q1->ball[k].x, q1->ball[k].y, i, b->inset, q1->p[i].x, q1->p[i].y, q1->a[i]);
            return fire(out, SCCD_FZ_JUDGE_BALL);
        }
    }
    for (int j = i + 1; j < sc->nb; ++j) {
        if (b->kind == SCCD_FZ_KINEMATIC && sc->b[j].kind == SCCD_FZ_KINEMATIC)
            continue;
        sccd_fz_poly other = sccd_fz_poly_place(&sc->b[j].inner, fv(q1->p[j]), q1->a[j]);
        if (sccd_fz_poly_overlap(&inner, &other)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d and B%d inner shapes meet: B%d (%.2f,%.2f) a=%.4f, B%d (%.2f,%.2f) a=%.4f", i, j, i,
                     q1->p[i].x, q1->p[i].y, q1->a[i], j, q1->p[j].x, q1->p[j].y, q1->a[j]);
            return fire(out, SCCD_FZ_JUDGE_BODIES);
        }
    }
    return false;
}

static bool judge(const fz_scene *sc, const poses *q0, const poses *q1, sccd_fz_result *out)
{
    for (int i = 0; i < sc->nb; ++i)
        if (judge_static(sc, i, q0, q1, out) || judge_moving(sc, i, q1, out))
            return true;
    return false;
}

static void trace_step(const fz_scene *sc, int step, const poses *q, sccd_fz_trace *trace, void *user)
{
    char line[SCCD_FZ_TEXT] = "";
    sccd_fz_append(line, sizeof line, "step %d:", step);
    for (int i = 0; i < sc->nb; ++i)
        sccd_fz_append(line, sizeof line, " B%d (%.4f,%.4f) a=%.5f;", i, q->p[i].x, q->p[i].y, q->a[i]);
    for (int i = 0; i < sc->nballs; ++i)
        sccd_fz_append(line, sizeof line, " ball%d (%.4f,%.4f);", i, q->ball[i].x, q->ball[i].y);
    trace(user, line);
}

/* ---- running ---- */

/* The calibration's sub-steps: the fastest CCD body's travel per step against
 * the thinnest inset or wall. */
static int substeps(const fz_scene *sc)
{
    double travel = 0.0, feature = INFINITY;
    for (int i = 0; i < sc->nb; ++i) {
        travel = fmax(travel, (fabs(sc->b[i].speed) * sc->b[i].reach + cpvlength(sc->b[i].vel)) / sc->hz);
        feature = fmin(feature, sc->b[i].inset);
    }
    for (int i = 0; i < sc->ns; ++i)
        if (sc->s[i].wall)
            feature = fmin(feature, sc->s[i].half);
    return sccd_fz_substeps(travel, feature);
}

static cpSpace *build_space(fz_scene *sc, bool ccd, sccd_cp_world **cw)
{
    cpSpace *space = cpSpaceNew();
    cpSpaceSetIterations(space, sc->iterations);
    cpSpaceSetCollisionSlop(space, sc->slop * sc->unit); /* before attach: the adapter's overlap follows it */
    cpSpaceSetGravity(space, cpv(0.0, sc->gravity * sc->unit));
    for (int i = 0; i < sc->ns; ++i)
        build_static(space, sc, &sc->s[i]);
    for (int i = 0; i < sc->nb; ++i)
        build_body(space, sc, &sc->b[i]);
    for (int i = 0; i < sc->nballs; ++i)
        build_ball(space, sc, &sc->balls[i]);
    *cw = ccd ? sccd_cp_attach(space) : NULL;
    for (int i = 0; ccd && i < sc->nb; ++i) {
        sccd_cp_body_enable(*cw, sc->b[i].body);
        sccd_cp_body_set_pivot(*cw, sc->b[i].body, cpvzero);
    }
    return space;
}

sccd_fz_result sccd_fz_run_cp(uint64_t seed, int index, sccd_fz_setup setup, sccd_fz_mode mode, sccd_fz_trace *trace,
                              void *user)
{
    static fz_scene sc; /* large (the angle sets); one scene at a time */
    sccd_rng g = sccd_fz_rng(SCCD_FZ_CP, seed, index);
    generate(&g, &sc, setup);
    sc.unit = setup.unit;
    sccd_fz_result out = {.kind = sc.b[0].kind, .step = -1, .steps = sc.steps};
    describe(&sc, index, out.scene);
    for (int i = 0; i < sc.nb; ++i)
        for (int k = 0; k < sc.ns && is_hinged(&sc.b[i]); ++k)
            sample_arcs(&sc.b[i], &sc.s[k], &sc.arcs[i][k]);
    sccd_cp_world *cw;
    cpSpace *space = build_space(&sc, mode == SCCD_FZ_CCD, &cw);
    int sub = mode == SCCD_FZ_SUBSTEP ? substeps(&sc) : 1;
    poses q0 = read_poses(&sc);
    for (int s = 0; s < sc.steps && !out.passed; ++s) {
        for (int k = 0; k < sub; ++k)
            cpSpaceStep(space, 1.0 / (sc.hz * sub));
        poses q1 = read_poses(&sc);
        if (trace != NULL)
            trace_step(&sc, s, &q1, trace, user);
        if (judge(&sc, &q0, &q1, &out)) {
            out.passed = true;
            out.step = s;
        }
        q0 = q1;
    }
    sccd_cp_detach(cw);
    sccd_cp_space_free_all(space);
    return out;
}
