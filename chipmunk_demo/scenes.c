/* The four scenes. Sizes: blades 100 units long (Chipmunk's usual pixel-like
 * units), 60 Hz steps. Each trial starts the swing at another phase of the
 * step (the fraction of a step's turn before the first contact), so a
 * scene's count does not hinge on one lucky alignment. */
#include <math.h>
#include <stdlib.h>

#include "demo.h"
#include "cp_support.h"

enum { TYPE_BLADE = 1, TYPE_TARGET = 2 };

/* Counts Chipmunk's begin callbacks between a blade and a target. */
static cpBool count_begin(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
    (void)arb;
    (void)space;
    ++*(int *)data;
    return cpTrue;
}

static void watch_hits(cpSpace *space, int *counter)
{
    cpCollisionHandler *h = cpSpaceAddCollisionHandler(space, TYPE_BLADE, TYPE_TARGET);
    h->beginFunc = count_begin;
    h->userData = counter;
}

/* A blade: a segment from 8 to 100 units along the body's x axis. */
static cpShape *add_blade(cpSpace *space, cpBody *body, cpFloat radius)
{
    cpSpaceAddBody(space, body);
    cpShape *s = cpSpaceAddShape(space, cpSegmentShapeNew(body, cpv(8, 0), cpv(100, 0), radius));
    cpShapeSetElasticity(s, 0.6);
    cpShapeSetFriction(s, 0.4);
    cpShapeSetCollisionType(s, TYPE_BLADE);
    return s;
}

/* A dynamic blade on a motorised hinge at pivot, turning at w (rad/s, CCW positive). */
static cpBody *add_hinged_blade(cpSpace *space, cpVect pivot, cpFloat angle, cpFloat w, cpFloat radius)
{
    cpBody *b = cpBodyNew(1.0, cpMomentForSegment(1.0, cpv(8, 0), cpv(100, 0), radius));
    cpBodySetPosition(b, pivot);
    cpBodySetAngle(b, angle);
    cpBodySetAngularVelocity(b, w);
    add_blade(space, b, radius);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpSpaceAddConstraint(space, cpPivotJointNew(ground, b, pivot));
    /* cpSimpleMotor drives w_b − w_a to −rate. */
    cpConstraint *motor = cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, b, -w));
    cpConstraintSetMaxForce(motor, 2e5);
    return b;
}

static double phase(const demo_ctx *c, int trial) { return (trial + 0.5) / c->cfg.trials; }

/* ---- sword vs thin wall ---- */

#define WALL_ANGLE (0.5 * SCCD_PI)

/* Independent check: the sword's angle (Chipmunk's, unwrapped) gets past the
 * wall's far face. The wall (2 units thick, 1/50 of the sword) stands on the
 * ray at 90° from r = 60 to 105; its far face is 0.042 rad past 90° at r = 60. */
static void sword_wall(demo_ctx *c)
{
    double w = c->cfg.speed, turn = w / 60.0;
    for (int trial = 0; trial < c->cfg.trials; ++trial) {
        demo_space_begin(c, cpvzero);
        int begins = 0;
        watch_hits(c->space, &begins);
        cpShape *wall = cpSpaceAddShape(c->space, cpBoxShapeNew2(cpSpaceGetStaticBody(c->space), cpBBNew(-1, 60, 1, 105), 0));
        cpShapeSetElasticity(wall, 0.3);
        cpShapeSetCollisionType(wall, TYPE_TARGET);
        double a0 = WALL_ANGLE - 0.1 - phase(c, trial) * turn;
        cpBody *sword = add_hinged_blade(c->space, cpvzero, a0, w, 1.5);
        demo_ccd_body(c, sword, cpvzero);
        int steps = (int)ceil((0.1 + turn) / turn) + 30;
        for (int s = 0; s < steps; ++s) {
            demo_step(c);
            if (cpBodyGetAngle(sword) > WALL_ANGLE + 0.1) {
                ++c->result->passes;
                demo_mark(c, cpv(0, 80));
                break;
            }
        }
        c->result->hits += begins > 0;
        ++c->result->trials;
        demo_space_end(c);
    }
}

/* ---- kinematic bat vs pitched ball ---- */

/* The bat (kinematic, 100 long) swings CCW from below about its handle at the
 * origin; the ball (radius 5, 1/20 of the bat) is pitched down along x = 80
 * into the swing. Independent check: the ball's velocity. A hit gives it
 * about the bat's surface speed (≥ 80·w); a ball that keeps its pitch
 * velocity was passed through. */
static void bat_ball(demo_ctx *c)
{
    double w = c->cfg.speed, turn = w / 60.0;
    const cpVect pitch = cpv(0, -60);
    for (int trial = 0; trial < c->cfg.trials; ++trial) {
        demo_space_begin(c, cpvzero);
        int begins = 0;
        watch_hits(c->space, &begins);
        cpBody *bat = cpBodyNewKinematic();
        cpBodySetAngle(bat, -0.5 * SCCD_PI - phase(c, trial) * turn);
        cpBodySetAngularVelocity(bat, w);
        cpShapeSetElasticity(add_blade(c->space, bat, 3.0), 0.9);
        demo_ccd_body(c, bat, cpvzero);
        cpBody *ball = cpSpaceAddBody(c->space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0, 5, cpvzero)));
        cpBodySetPosition(ball, cpv(80, 20 + 20 * phase(c, trial)));
        cpBodySetVelocity(ball, pitch);
        cpShape *bs = cpSpaceAddShape(c->space, cpCircleShapeNew(ball, 5, cpvzero));
        cpShapeSetElasticity(bs, 0.9);
        cpShapeSetCollisionType(bs, TYPE_TARGET);
        int after = 0;
        for (int s = 0; s < 2000 && after < 15; ++s) {
            demo_step(c);
            if (cpBodyGetAngle(bat) >= SCCD_PI / 3.0) {
                cpBodySetAngularVelocity(bat, 0.0);
                ++after;
            }
        }
        if (cpvlength(cpvsub(cpBodyGetVelocity(ball), pitch)) < 0.3 * 80.0 * w) {
            ++c->result->passes;
            demo_mark(c, cpBodyGetPosition(ball));
        }
        c->result->hits += begins > 0;
        ++c->result->trials;
        demo_space_end(c);
    }
}

/* ---- spinning blade under falling pellets ---- */

typedef struct pellet { cpBody *body; cpShape *shape; bool alive, passed, hit; cpVect p0; } pellet;

/* Crossings of the blade's line (both arms, so modulo π) over a pellet's
 * direction from the hub during a step, from the unwrapped blade angles a0,
 * a1 and the pellet's positions; only while the pellet is within reach. */
static int blade_crossings(double a0, double a1, cpVect p0, cpVect p1, double reach)
{
    double r0 = cpvlength(p0), r1 = cpvlength(p1);
    if (r0 > reach || r1 > reach || r0 < 4.0 || r1 < 4.0)
        return 0;
    double psi0 = atan2(p0.y, p0.x), psi1 = psi0 + demo_wrap(atan2(p1.y, p1.x) - psi0);
    return (int)(floor((a1 - psi1) / SCCD_PI) - floor((a0 - psi0) / SCCD_PI));
}

/* A kinematic blade (120 × 4, rounded 0.5) spins at w about its centre; a
 * pellet (radius 2) drops every 4 steps. Independent check: the blade's line
 * sweeps over a pellet within reach in a step in which Chipmunk has no
 * contact between the two. */
static void blade_pellets(demo_ctx *c)
{
    const double reach = 62.0; /* the blade touches a pellet centre up to 60.05 + 0.5 + 2 from the hub */
    demo_space_begin(c, cpv(0, -400));
    int begins = 0;
    watch_hits(c->space, &begins);
    cpBody *blade = cpSpaceAddBody(c->space, cpBodyNewKinematic());
    cpBodySetAngularVelocity(blade, c->cfg.speed);
    cpShape *bs = cpSpaceAddShape(c->space, cpBoxShapeNew(blade, 120, 4, 0.5));
    cpShapeSetElasticity(bs, 0.6);
    cpShapeSetCollisionType(bs, TYPE_BLADE);
    demo_ccd_body(c, blade, cpvzero);
    pellet *pel = calloc((size_t)c->cfg.trials, sizeof *pel);
    int spawned = 0;
    for (int s = 0; s < 4 * c->cfg.trials + 60; ++s) {
        if (s % 4 == 0 && spawned < c->cfg.trials) {
            pellet *p = &pel[spawned];
            double x = -45.0 + 90.0 * fmod(spawned * 0.618034, 1.0);
            p->body = cpSpaceAddBody(c->space, cpBodyNew(0.05, cpMomentForCircle(0.05, 0, 2, cpvzero)));
            cpBodySetPosition(p->body, cpv(x, 90));
            cpBodySetVelocity(p->body, cpv(0, -150));
            p->shape = cpSpaceAddShape(c->space, cpCircleShapeNew(p->body, 2, cpvzero));
            cpShapeSetElasticity(p->shape, 0.6);
            cpShapeSetCollisionType(p->shape, TYPE_TARGET);
            p->alive = true;
            ++spawned;
        }
        double a0 = cpBodyGetAngle(blade);
        for (int i = 0; i < spawned; ++i)
            if (pel[i].alive)
                pel[i].p0 = cpBodyGetPosition(pel[i].body);
        demo_step(c);
        double a1 = cpBodyGetAngle(blade);
        for (int i = 0; i < spawned; ++i) {
            pellet *p = &pel[i];
            if (!p->alive)
                continue;
            cpVect p1 = cpBodyGetPosition(p->body);
            bool touching = demo_touching(p->body, blade);
            p->hit |= touching;
            if (!touching && !p->passed && blade_crossings(a0, a1, p->p0, p1, reach) != 0) {
                p->passed = true;
                demo_mark(c, p1);
            }
            if (p1.y < -150 || fabs(p1.x) > 400) { /* gone: removed between steps */
                cpSpaceRemoveShape(c->space, p->shape);
                cpShapeFree(p->shape);
                cpSpaceRemoveBody(c->space, p->body);
                cpBodyFree(p->body);
                p->alive = false;
            }
        }
    }
    for (int i = 0; i < spawned; ++i) {
        c->result->passes += pel[i].passed;
        c->result->hits += pel[i].hit;
    }
    c->result->trials += spawned;
    free(pel);
    demo_space_end(c);
}

/* ---- two swords clashing ---- */


/* Independent check: the blades' centre lines cross at one of 64 poses
 * interpolated through the step (rotation about the hinges, Chipmunk's
 * unwrapped angles): one blade went through the other. */
static bool clash_crossed(cpVect pa, double a0, double a1, cpVect pb, double b0, double b1, cpVect *where)
{
    for (int k = 0; k <= 64; ++k) {
        double s = k / 64.0, a = a0 + s * (a1 - a0), b = b0 + s * (b1 - b0);
        cpVect p = sccd_cp_blade_point(pa, a, 8), q = sccd_cp_blade_point(pa, a, 100);
        cpVect u = sccd_cp_blade_point(pb, b, 8), v = sccd_cp_blade_point(pb, b, 100);
        if (sccd_cp_segments_cross(p, q, u, v)) {
            *where = cpvlerp(p, q, 0.5);
            return true;
        }
    }
    return false;
}

/* Two swords on motorised hinges at (∓55, 0) swing up from below towards
 * each other (mirror images, the right one a little behind). */
static void sword_clash(demo_ctx *c)
{
    double w = c->cfg.speed, turn = w / 60.0;
    const cpVect pa = cpv(-55, 0), pb = cpv(55, 0);
    for (int trial = 0; trial < c->cfg.trials; ++trial) {
        demo_space_begin(c, cpvzero);
        int begins = 0;
        cpCollisionHandler *h = cpSpaceAddCollisionHandler(c->space, TYPE_BLADE, TYPE_BLADE);
        h->beginFunc = count_begin;
        h->userData = &begins;
        double u = phase(c, trial);
        cpBody *a = add_hinged_blade(c->space, pa, -0.5 * SCCD_PI - 0.6 - u * turn, w, 2.0);
        cpBody *b = add_hinged_blade(c->space, pb, -0.5 * SCCD_PI + 0.6 + 0.3 * turn, -w, 2.0);
        demo_ccd_body(c, a, cpvzero); /* pivots in body coordinates: the hinges are the body origins */
        demo_ccd_body(c, b, cpvzero);
        int steps = (int)ceil(SCCD_PI / turn) + 30;
        for (int s = 0; s < steps; ++s) {
            double a0 = cpBodyGetAngle(a), b0 = cpBodyGetAngle(b);
            demo_step(c);
            cpVect where;
            if (clash_crossed(pa, a0, cpBodyGetAngle(a), pb, b0, cpBodyGetAngle(b), &where)) {
                ++c->result->passes;
                demo_mark(c, where);
                break;
            }
        }
        c->result->hits += begins > 0;
        ++c->result->trials;
        demo_space_end(c);
    }
}

const demo_scene demo_scenes[] = {
    {"sword_wall", "sword on a motorised hinge vs a wall 1/50 of its length thick", 60.0, 50, {-110, -30, 110, 130}, 25, sword_wall},
    {"bat_ball", "kinematic bat vs a pitched ball 1/20 of its length", 40.0, 50, {-40, -110, 140, 110}, 40, bat_ball},
    {"blade_pellets", "kinematic blade spinning under falling pellets", 150.0, 60, {-100, -90, 100, 110}, 90, blade_pellets, true},
    {"sword_clash", "two swords on motorised hinges swinging into each other", 50.0, 50, {-160, -110, 160, 110}, 6, sword_clash},
};
const int demo_scene_count = (int)(sizeof demo_scenes / sizeof demo_scenes[0]);
