/* The debris rain (debris_rain.h). */
#include <math.h>
#include <stdlib.h>

#include "debris_rain.h"
#include "sectorccd_chipmunk.h"
#include "cp_support.h"
#include "ode_scenes.h"
#include "test_util.h"
#include "timing.h"

/* ---- Chipmunk: circles of radius 4–6 in an arena 2,200 wide, gravity 400 ---- */

#define CP_HALF_WIDTH 1100.0
#define CP_DEBRIS 4.0 /* the debris' side; the floor is 2 thick */

static void cp_fire(cpBody *b, sccd_rng *g, double half_width)
{
    cpBodySetPosition(b, cpv(sccd_rng_uniform(g, -half_width, half_width), sccd_rng_uniform(g, 800.0, 1100.0)));
    cpBodySetVelocity(b, cpv(sccd_rng_uniform(g, -300.0, 300.0), -sccd_rng_uniform(g, 900.0, 1500.0)));
    cpBodySetAngle(b, sccd_rng_uniform(g, 0.0, 6.28));
    cpBodySetAngularVelocity(b, sccd_rng_uniform(g, -80.0, 80.0));
}

static void cp_check_finite(cpBody *b, void *d)
{
    bool *ok = d;
    cpVect p = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
    *ok &= sccd_is_valid_real(p.x + p.y + v.x + v.y + cpBodyGetAngle(b));
}

sccd_rain_run sccd_rain_cp(sccd_rain sc, bool ccd, int warmup, int steps, unsigned seed)
{
    double half = CP_HALF_WIDTH * sqrt(sc.bodies / 10000.0);
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -400));
    cpSpaceSetIterations(space, 10);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(-half, 0), cpv(half, 0), 1.0));
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(-half, 0), cpv(-half, 3000), 1.0));
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(half, 0), cpv(half, 3000), 1.0));
    sccd_cp_world *w = ccd ? sccd_cp_attach(space) : NULL;
    sccd_rng g = sccd_rng_make(seed);
    int columns = (int)(2.0 * half / 11.0) - 1;
    for (int i = 0; i < sc.bodies; ++i) {
        double r = sccd_rng_uniform(&g, 4.0, 6.0);
        cpBody *b = cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0.0, r, cpvzero)));
        cpBodySetPosition(b, cpv(-half + 11.0 * (1 + i % columns), 10.0 + 12.0 * (i / columns)));
        cpShapeSetFriction(cpSpaceAddShape(space, cpCircleShapeNew(b, r, cpvzero)), 0.5);
    }
    cpBody **debris = malloc((size_t)sc.ccd * sizeof *debris);
    for (int i = 0; i < sc.ccd; ++i) {
        debris[i] = cpSpaceAddBody(space, cpBodyNew(0.5, cpMomentForBox(0.5, CP_DEBRIS, CP_DEBRIS)));
        cpShapeSetFriction(cpSpaceAddShape(space, cpBoxShapeNew(debris[i], CP_DEBRIS, CP_DEBRIS, 0.0)), 0.5);
        cp_fire(debris[i], &g, half);
        if (w != NULL)
            sccd_cp_body_enable(w, debris[i]);
    }
    sccd_rain_run out = {0.0, 0.0, 0.0, 0, 0, true};
    double total = 0.0;
    for (int s = 0; s < warmup + steps; ++s) {
        if (s == warmup) {
            total = 0.0;
            if (w != NULL)
                sccd_cp_reset_counters(w);
        }
        double t0 = sccd_cpu_seconds();
        cpSpaceStep(space, 1.0 / 60.0);
        total += sccd_cpu_seconds() - t0;
        for (int i = 0; i < sc.ccd; ++i) { /* under the floor: passed; at rest: fired again */
            cpVect p = cpBodyGetPosition(debris[i]);
            bool under = p.y < -1.0 && fabs(p.x) < half;
            out.passes += under;
            if (under || cpvlength(cpBodyGetVelocity(debris[i])) < 60.0 || p.y < -100.0)
                cp_fire(debris[i], &g, half);
        }
    }
    sccd_cp_counters k = sccd_cp_get_counters(w);
    out.step_ms = 1e3 * total / steps;
    out.ccd_ms = 1e3 * k.seconds / steps;
    out.solve_ms = 1e3 * k.solve_seconds / steps;
    out.tois = k.tois;
    cpSpaceEachBody(space, cp_check_finite, &out.finite);
    free(debris);
    sccd_cp_detach(w);
    sccd_cp_space_free_all(space);
    return out;
}

/* ---- ODE: spheres of radius 0.04–0.06 m on a 2 cm floor 4 m square, walls around ---- */

#define ODE_HALF_WIDTH 2.0
#define ODE_FLOOR 0.02
#define ODE_DEBRIS 0.04

static void ode_fire(dBodyID b, sccd_rng *g, double half)
{
    dBodySetPosition(b, sccd_rng_uniform(g, -half, half), sccd_rng_uniform(g, 2.0, 3.0), sccd_rng_uniform(g, -half, half));
    dBodySetLinearVel(b, sccd_rng_uniform(g, -2.0, 2.0), -sccd_rng_uniform(g, 15.0, 25.0), sccd_rng_uniform(g, -2.0, 2.0));
    sccd_v3 axis = sccd_rng_unit3(g);
    double spin = sccd_rng_uniform(g, 40.0, 80.0);
    dBodySetAngularVel(b, spin * axis.x, spin * axis.y, spin * axis.z);
}

static void ode_static_box(dSpaceID space, double x, double y, double z, double lx, double ly, double lz)
{
    dGeomSetPosition(dCreateBox(space, lx, ly, lz), x, y, z);
}

static bool ode_finite(dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *v = dBodyGetLinearVel(b);
    return isfinite(p[0] + p[1] + p[2] + v[0] + v[1] + v[2]);
}

sccd_rain_run sccd_rain_ode(sccd_rain sc, bool ccd, int warmup, int steps, unsigned seed)
{
    double half = ODE_HALF_WIDTH * sqrt(sc.bodies / 10000.0), wall = 1.0;
    ode_world w;
    ode_world_init(&w, ccd ? ODE_CCD_SECTOR : ODE_CCD_OFF, 1, -9.81);
    w.quick = true;
    dWorldSetQuickStepNumIterations(w.world, 10);
    ode_static_box(w.space, 0.0, -0.5 * ODE_FLOOR, 0.0, 2.0 * half + 0.2, ODE_FLOOR, 2.0 * half + 0.2);
    ode_static_box(w.space, -half - 0.05, 0.5 * wall, 0.0, 0.1, wall, 2.0 * half);
    ode_static_box(w.space, half + 0.05, 0.5 * wall, 0.0, 0.1, wall, 2.0 * half);
    ode_static_box(w.space, 0.0, 0.5 * wall, -half - 0.05, 2.0 * half, wall, 0.1);
    ode_static_box(w.space, 0.0, 0.5 * wall, half + 0.05, 2.0 * half, wall, 0.1);
    sccd_rng g = sccd_rng_make(seed);
    int side = (int)(2.0 * half / 0.13);
    dBodyID *all = malloc((size_t)(sc.bodies + sc.ccd) * sizeof *all);
    for (int i = 0; i < sc.bodies; ++i) {
        double r = sccd_rng_uniform(&g, 0.04, 0.06);
        dBodyID b = all[i] = dBodyCreate(w.world);
        dMass m;
        dMassSetSphereTotal(&m, 1.0, r);
        dBodySetMass(b, &m);
        dGeomSetBody(dCreateSphere(w.space, r), b);
        int layer = i / (side * side), cell = i % (side * side);
        dBodySetPosition(b, -half + 0.13 * (0.5 + cell % side), 0.1 + 0.13 * layer, -half + 0.13 * (0.5 + cell / side));
    }
    dBodyID *debris = all + sc.bodies;
    for (int i = 0; i < sc.ccd; ++i) {
        dBodyID b = debris[i] = dBodyCreate(w.world);
        dMass m;
        dMassSetBoxTotal(&m, 0.05, ODE_DEBRIS, ODE_DEBRIS, ODE_DEBRIS);
        dBodySetMass(b, &m);
        dGeomSetBody(dCreateBox(w.space, ODE_DEBRIS, ODE_DEBRIS, ODE_DEBRIS), b);
        ode_fire(b, &g, half);
        ode_world_ccd_body(&w, b, 0.0, 0.0, 0.0);
    }
    sccd_rain_run out = {0.0, 0.0, 0.0, 0, 0, true};
    for (int s = 0; s < warmup + steps; ++s) {
        if (s == warmup) {
            w.step_seconds = 0.0;
            if (w.ccd != NULL)
                sccd_ode_reset_counters(w.ccd);
        }
        ode_world_step(&w);
        for (int i = 0; i < sc.ccd; ++i) { /* under the floor: passed; at rest: fired again */
            const dReal *p = dBodyGetPosition(debris[i]), *v = dBodyGetLinearVel(debris[i]);
            bool under = p[1] < -ODE_FLOOR && fabs(p[0]) < half && fabs(p[2]) < half;
            out.passes += under;
            if (under || sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) < 0.5 || p[1] < -1.0)
                ode_fire(debris[i], &g, half);
        }
    }
    sccd_ode_counters k = sccd_ode_get_counters(w.ccd);
    out.step_ms = 1e3 * w.step_seconds / steps;
    out.ccd_ms = 1e3 * k.seconds / steps;
    out.solve_ms = 1e3 * k.solve_seconds / steps;
    out.tois = k.tois;
    for (int i = 0; i < sc.bodies + sc.ccd; ++i)
        out.finite &= ode_finite(all[i]);
    free(all);
    ode_world_free(&w);
    return out;
}
