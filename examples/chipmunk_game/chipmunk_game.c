/* A small Chipmunk2D game loop with sectorccd's CCD: a knight swings a sword
 * (a body held at the hand by a pivot joint, driven by a motor at 30 rad/s)
 * into a thin shield. At 60 Hz the blade turns half a radian a step, its tip
 * moves 50 units while the shield is 4 thick, so Chipmunk alone never sees
 * the two overlap and the sword goes through. The round is played twice,
 * without and with the CCD; the CCD is the three calls marked "sectorccd".
 *
 * Build against an installed sectorccd: `make` (pkg-config) or CMake; see
 * README.md. The same file compiles as C11 and as C++11. Exit status 0 when
 * the shield stopped the sword with the CCD on. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include <chipmunk/chipmunk.h>
#include <sectorccd_chipmunk.h>

#define PI 3.14159265358979323846
#define DT (1.0 / 60.0)

enum { SWORD = 1, SHIELD = 2 };

/* The sword along its body's x axis from the hand (-50, 0) to the tip
 * (50, 0); its centre of gravity in the middle. */
static const cpVect HAND = {-50.0, 0.0};

typedef struct round_result {
    int crossed_step; /* the step in which the sword got past the shield, 0: never */
    int clashes;      /* begin callbacks of sword against shield: what the game hears */
    double angle;     /* the sword's final angle (radians; the shield is at pi/2) */
} round_result;

static cpBool on_clash(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
    (void)arb;
    (void)space;
    ++((round_result *)data)->clashes; /* a game would play a sound, spark, score here */
    return cpTrue;
}

/* The angle of the sword about the hand, from the hand to its middle. */
static double sword_angle(cpBody *sword)
{
    cpVect hand = cpBodyLocalToWorld(sword, HAND);
    cpVect mid = cpBodyGetPosition(sword);
    return atan2(mid.y - hand.y, mid.x - hand.x);
}

static round_result play_round(bool use_ccd)
{
    round_result r = {0, 0, 0.0};
    cpSpace *space = cpSpaceNew();
    cpBody *ground = cpSpaceGetStaticBody(space);

    /* The shield: a static box 4 thick on the +y axis, 40 to 110 from the hand at the origin. */
    cpShape *shield = cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(-2.0, 40.0, 2.0, 110.0), 0.0));
    cpShapeSetCollisionType(shield, SHIELD);
    cpShapeSetElasticity(shield, 0.2);
    cpShapeSetFriction(shield, 0.5);
    cpCollisionHandler *handler = cpSpaceAddCollisionHandler(space, SWORD, SHIELD);
    handler->beginFunc = on_clash;
    handler->userData = &r;

    /* The sword: 100 long, starting 0.2 rad below the +x axis, swung
     * counter-clockwise about the hand at 30 rad/s. Its middle moves with the
     * hand's turn (w x r), so the pivot joint starts satisfied. */
    const double w = 30.0, a0 = -0.2;
    cpBody *sword = cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForSegment(1.0, cpv(-50, 0), cpv(50, 0), 2.0)));
    cpBodySetAngle(sword, a0);
    cpBodySetPosition(sword, cpv(50.0 * cos(a0), 50.0 * sin(a0)));
    cpBodySetAngularVelocity(sword, w);
    cpBodySetVelocity(sword, cpv(-50.0 * w * sin(a0), 50.0 * w * cos(a0)));
    cpShape *blade = cpSpaceAddShape(space, cpSegmentShapeNew(sword, cpv(-50, 0), cpv(50, 0), 2.0));
    cpShapeSetCollisionType(blade, SWORD);
    cpShapeSetElasticity(blade, 0.2);
    cpShapeSetFriction(blade, 0.5);
    cpConstraint *grip = cpSpaceAddConstraint(space, cpPivotJointNew(ground, sword, cpvzero));
    cpConstraint *arm = cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, sword, -w));
    cpConstraintSetMaxForce(arm, 1e6);

    /* sectorccd: attach once per space; enable the fast body, say where the hand is. */
    sccd_cp_world *ccd = sccd_cp_attach(space);          /* once per space */
    if (use_ccd) {
        sccd_cp_body_enable(ccd, sword);                 /* dynamic or kinematic */
        sccd_cp_body_set_pivot(ccd, sword, HAND);        /* optional: the hand */
    }

    /* The game loop, unchanged by the CCD: one second at 60 Hz. */
    double last = sword_angle(sword), turned = 0.0;
    for (int step = 1; step <= 60; ++step) {
        cpSpaceStep(space, DT);
        /* Unwrapped: how far the sword has turned since the start. */
        double now = sword_angle(sword), d = now - last;
        d -= 2.0 * PI * floor((d + PI) / (2.0 * PI));
        turned += d;
        last = now;
        /* Past the shield's far face (about 0.1 rad past pi/2 at 40 from the hand). */
        if (r.crossed_step == 0 && a0 + turned > 0.5 * PI + 0.15)
            r.crossed_step = step;
    }
    r.angle = a0 + turned;

    /* Chipmunk frees none of a space's objects with it; detach the CCD first. */
    sccd_cp_detach(ccd);
    cpSpaceRemoveConstraint(space, arm);
    cpSpaceRemoveConstraint(space, grip);
    cpSpaceRemoveShape(space, blade);
    cpSpaceRemoveShape(space, shield);
    cpSpaceRemoveBody(space, sword);
    cpConstraintFree(arm);
    cpConstraintFree(grip);
    cpShapeFree(blade);
    cpShapeFree(shield);
    cpBodyFree(sword);
    cpSpaceFree(space);
    return r;
}

static void report(const char *what, round_result r)
{
    if (r.crossed_step > 0)
        printf("%s the sword went through the shield in step %d (%d clash%s heard, final angle %.2f rad)\n", what,
               r.crossed_step, r.clashes, r.clashes == 1 ? "" : "es", r.angle);
    else
        printf("%s the shield stopped the sword (%d clash%s heard, final angle %.2f rad, shield at %.2f)\n", what,
               r.clashes, r.clashes == 1 ? "" : "es", r.angle, 0.5 * PI);
}

int main(void)
{
    round_result off = play_round(false), on = play_round(true);
    report("without sectorccd:", off);
    report("with sectorccd:   ", on);
    return on.crossed_step == 0 && on.clashes > 0 ? 0 : 1;
}
