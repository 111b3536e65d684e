/* A small ODE simulation with sectorccd's CCD: a fan blade 1 m long, hinged
 * at its middle and driven by a motor at 60 rad/s, turns into a plate 2 cm
 * thick. At 60 Hz ODE turns the blade by about 0.93 rad a step, so its
 * collision pass never sees the blade inside the plate and the blade cuts
 * through. The run is made twice, without and with the CCD; the CCD is the
 * calls marked "sectorccd" (attach, enable, and two around the step).
 *
 * Build against an installed sectorccd: `make` (pkg-config) or CMake; see
 * README.md. The same file compiles as C11 and as C++11. Exit status 0 when
 * the plate stopped the blade with the CCD on. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include <ode/ode.h>
#include <sectorccd_ode.h>

#define PI 3.14159265358979323846

typedef struct sim {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
} sim;

typedef struct run_result {
    int crossed_step; /* the step in which the blade got past the plate, 0: never */
    int impacts;      /* impacts the CCD resolved, as the game hears them */
    double angle;     /* the blade's final angle (radians; the plate is at 0) */
} run_result;

/* The usual near callback: no contacts between jointed bodies, up to four
 * contacts a pair. dContactApprox1 makes ODE read mu as a Coulomb coefficient,
 * as the CCD does. */
static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    sim *s = (sim *)data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    dContact c[4];
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactApprox1 | dContactBounce;
        c[i].surface.mu = 0.5;
        c[i].surface.bounce = 0.2;
        c[i].surface.bounce_vel = 0.1;
        dJointAttach(dJointCreateContact(s->world, s->contacts, &c[i]), b1, b2);
    }
}

/* The CCD's impacts: called before the impulse (return nonzero to collide)
 * and after it. A game would play a sound here. */
static int on_impact(void *user, dGeomID o1, dGeomID o2, const dContactGeom *contact, const dReal impulse[3])
{
    (void)o1;
    (void)o2;
    (void)contact;
    if (impulse[0] != 0.0 || impulse[1] != 0.0 || impulse[2] != 0.0)
        ++((run_result *)user)->impacts; /* count each impact once: after its impulse */
    return 1;
}

static run_result simulate(bool use_ccd)
{
    run_result r = {0, 0, 0.0};
    const dReal dt = 1.0 / 60.0, speed = 60.0, a0 = -0.5;
    sim s;
    s.world = dWorldCreate();
    s.space = dHashSpaceCreate(0);
    s.contacts = dJointGroupCreate(0);
    dWorldID world = s.world;
    dSpaceID space = s.space;

    /* The plate: static, 2 cm thick, along +x from 0.15 m to 0.65 m. */
    dGeomID plate = dCreateBox(space, 0.5, 0.02, 0.6);
    dGeomSetPosition(plate, 0.4, 0.0, 0.0);

    /* The blade: 1 m x 2 cm x 10 cm, 1 kg, hinged at its middle (the origin)
     * about z, 0.5 rad below the plate, turning toward it. */
    dBodyID blade = dBodyCreate(world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 1.0, 0.02, 0.1);
    dBodySetMass(blade, &m);
    dGeomID blade_geom = dCreateBox(space, 1.0, 0.02, 0.1);
    dGeomSetBody(blade_geom, blade);
    dMatrix3 rot;
    dRFromAxisAndAngle(rot, 0.0, 0.0, 1.0, a0);
    dBodySetRotation(blade, rot);
    dBodySetAngularVel(blade, 0.0, 0.0, speed);
    dJointID hinge = dJointCreateHinge(world, 0);
    dJointAttach(hinge, blade, 0);
    dJointSetHingeAnchor(hinge, 0.0, 0.0, 0.0);
    dJointSetHingeAxis(hinge, 0.0, 0.0, 1.0);
    dJointSetHingeParam(hinge, dParamVel, speed);
    dJointSetHingeParam(hinge, dParamFMax, 100.0);

    /* sectorccd: attach to the world and its space, tell it the step,
     * enable the fast body, give the CCD the materials the near callback
     * uses (the product of the pair's: the blade's 1 is neutral, the
     * plate's are the pair's). */
    sccd_ode_world *ccd = sccd_ode_attach(world, space);
    sccd_ode_set_step_length(ccd, dt);
    if (use_ccd)
        sccd_ode_body_enable(ccd, blade);
    sccd_ode_geom_set_material(ccd, plate, 0.2, 0.5);
    sccd_ode_geom_set_material(ccd, blade_geom, 1.0, 1.0);
    sccd_ode_set_impact_callback(ccd, on_impact, &r);

    /* Half a second at 60 Hz. */
    double last = a0, turned = 0.0;
    for (int step = 1; step <= 30; ++step) {
        sccd_ode_before_step(ccd);                 /* added */
        dSpaceCollide(space, &s, near_callback);   /* your loop, unchanged */
        dWorldStep(world, dt);
        dJointGroupEmpty(s.contacts);
        sccd_ode_after_step(ccd);                  /* added */
        /* Unwrapped: how far the blade has turned since the start. */
        const dReal *R = dBodyGetRotation(blade);
        double now = atan2(R[4], R[0]), d = now - last;
        d -= 2.0 * PI * floor((d + PI) / (2.0 * PI));
        turned += d;
        last = now;
        /* The blade's centre line past the plate's mid-plane: it went through. */
        if (r.crossed_step == 0 && a0 + turned > 0.0)
            r.crossed_step = step;
    }
    r.angle = a0 + turned;

    sccd_ode_detach(ccd);
    dJointGroupDestroy(s.contacts);
    dSpaceDestroy(space); /* and its geoms */
    dWorldDestroy(world); /* and its bodies and joints */
    return r;
}

static void report(const char *what, run_result r)
{
    if (r.crossed_step > 0)
        printf("%s the blade cut through the plate in step %d (%d CCD impacts, final angle %.2f rad)\n", what,
               r.crossed_step, r.impacts, r.angle);
    else
        printf("%s the plate stopped the blade (%d CCD impact%s, final angle %.2f rad, plate at 0)\n", what,
               r.impacts, r.impacts == 1 ? "" : "s", r.angle);
}

int main(void)
{
    dInitODE2(0);
    run_result off = simulate(false), on = simulate(true);
    dCloseODE();
    report("without sectorccd:", off);
    report("with sectorccd:   ", on);
    return on.crossed_step == 0 && on.impacts > 0 ? 0 : 1;
}
