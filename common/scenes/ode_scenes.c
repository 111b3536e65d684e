/* ODE scenes with independent pass-through checks (ode_scenes.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ode_scenes.h"

#define MAX_TOUCH 256
#define MAX_CONTACTS 4

/* Body pairs that got a contact joint in the last step (per world). */
typedef struct touch_log { dBodyID a[MAX_TOUCH], b[MAX_TOUCH]; int n; } touch_log;

static touch_log g_touch; /* the scenes run one world at a time */

static void log_touch(dBodyID b1, dBodyID b2)
{
    if (g_touch.n < MAX_TOUCH) {
        g_touch.a[g_touch.n] = b1;
        g_touch.b[g_touch.n++] = b2;
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: steady on a shared machine */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The usual near callback: no contacts between jointed bodies, up to four
 * contacts per pair, a little bounce. */
static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    ode_world *w = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    dContact c[MAX_CONTACTS];
    int n = dCollide(g1, g2, MAX_CONTACTS, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactBounce;
        c[i].surface.mu = 0.5;
        c[i].surface.bounce = 0.2;
        c[i].surface.bounce_vel = 0.1;
        dJointID j = dJointCreateContact(w->world, w->contacts, &c[i]);
        dJointAttach(j, b1, b2);
    }
    if (n > 0)
        log_touch(b1, b2);
}

/* The CCD's impacts: the game hears them as it hears ODE's contacts. */
static int ccd_impact(void *user, dGeomID o1, dGeomID o2, const dContactGeom *contact, const dReal impulse[3])
{
    (void)user;
    (void)contact;
    (void)impulse;
    log_touch(dGeomGetBody(o1), dGeomGetBody(o2));
    return 1;
}

/* ODE's dWorldStep reports "LCP internal error" for the redundant systems of
 * two hinges on one axis pressed together by a contact; it then still
 * returns a solution. Count such messages instead of printing them. */
long ode_messages;

static void quiet_message(int num, const char *msg, va_list ap)
{
    (void)num;
    (void)msg;
    (void)ap;
    ++ode_messages;
}

void ode_world_init(ode_world *w, ode_ccd_mode mode, int substeps, double gravity_y)
{
    memset(w, 0, sizeof *w);
    dSetMessageHandler(quiet_message);
    w->world = dWorldCreate();
    w->space = dHashSpaceCreate(0);
    w->contacts = dJointGroupCreate(0);
    w->mode = mode;
    w->substeps = substeps < 1 ? 1 : substeps;
    w->dt = 1.0 / 60.0;
    dWorldSetGravity(w->world, 0.0, gravity_y, 0.0);
    if (mode == ODE_CCD_SECTOR || mode == ODE_CCD_SPECULATIVE) {
        w->ccd = sccd_ode_attach(w->world, w->space);
        sccd_ccd_options o = sccd_ode_get_options(w->ccd);
        o.candidates = mode == ODE_CCD_SECTOR ? SCCD_CANDIDATES_SWEEP : SCCD_CANDIDATES_START_END;
        sccd_ode_set_options(w->ccd, o);
        sccd_ode_set_impact_callback(w->ccd, ccd_impact, NULL);
    }
}

static void collide_and_step(ode_world *w, double dt)
{
    dSpaceCollide(w->space, w, near_callback);
    if (w->quick)
        dWorldQuickStep(w->world, dt);
    else
        dWorldStep(w->world, dt);
    dJointGroupEmpty(w->contacts);
}

void ode_world_step(ode_world *w)
{
    double t0 = now_seconds();
    g_touch.n = 0;
    if (w->ccd != NULL) {
        sccd_ode_set_step_length(w->ccd, w->dt); /* w->dt may change between steps */
        sccd_ode_before_step(w->ccd);
    }
    int n = w->mode == ODE_CCD_SUBSTEP ? w->substeps : 1;
    for (int i = 0; i < n; ++i)
        collide_and_step(w, w->dt / n);
    if (w->ccd != NULL)
        sccd_ode_after_step(w->ccd);
    w->step_seconds += now_seconds() - t0;
    ++w->steps;
}

void ode_world_free(ode_world *w)
{
    sccd_ode_detach(w->ccd);
    dJointGroupDestroy(w->contacts);
    dSpaceDestroy(w->space); /* destroys its geoms (cleanup mode on) */
    dWorldDestroy(w->world);  /* destroys its bodies and joints */
    memset(w, 0, sizeof *w);
}

void ode_world_ccd_body(ode_world *w, dBodyID body, double px, double py, double pz)
{
    if (w->ccd == NULL)
        return;
    sccd_ode_body_enable(w->ccd, body);
    dReal p[3] = {px, py, pz};
    sccd_ode_body_set_pivot(w->ccd, body, p);
}

bool ode_world_touched(const ode_world *w, dBodyID a, dBodyID b)
{
    (void)w;
    for (int i = 0; i < g_touch.n; ++i)
        if ((g_touch.a[i] == a && g_touch.b[i] == b) || (g_touch.a[i] == b && g_touch.b[i] == a))
            return true;
    return false;
}

/* ---- tallies ---- */

ode_tally ode_tally_run(ode_trial_at *trial, const void *scene, const char *what, const double *speeds, int nspeeds, int phases)
{
    ode_tally t = {0};
    for (int s = 0; s < nspeeds; ++s)
        for (int k = 0; k < phases; ++k) {
            ode_trial on = trial(scene, ODE_CCD_SECTOR, speeds[s], (double)k / phases);
            ode_trial off = trial(scene, ODE_CCD_OFF, speeds[s], (double)k / phases);
            if (on.passed)
                printf("%s: pass-through with CCD at %.0f rad/s, phase %d/%d\n", what, speeds[s], k, phases);
            t.with += on.passed;
            t.touched += on.touched;
            t.without += off.passed;
            ++t.n;
        }
    printf("%s: %d/%d pass-throughs without CCD, %d/%d with\n", what, t.without, t.n, t.with, t.n);
    return t;
}

/* ---- helpers ---- */

double ode_wrap_angle(double d)
{
    while (d > M_PI)
        d -= 2.0 * M_PI;
    while (d <= -M_PI)
        d += 2.0 * M_PI;
    return d;
}

/* Angle of the body's x axis about z (in the xy plane). */
double ode_body_angle_z(dBodyID b)
{
    const dReal *r = dBodyGetRotation(b);
    return atan2(r[4], r[0]);
}

/* Angle of the body's x axis about y. */
static double angle_y(dBodyID b)
{
    const dReal *r = dBodyGetRotation(b);
    return atan2(-r[8], r[0]);
}

/* ODE turns a body by 2·atan(|ω|·dt/2) per step (its default integration). */
double ode_step_turn(double speed, double dt) { return 2.0 * atan(0.5 * fabs(speed) * dt); }

/* A body of mass 1 with a box geom, posed at p with angle a about z. */
static dBodyID box_body(ode_world *w, double lx, double ly, double lz, double x, double y, double a)
{
    dBodyID b = dBodyCreate(w->world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, lx, ly, lz);
    dBodySetMass(b, &m);
    dGeomSetBody(dCreateBox(w->space, lx, ly, lz), b);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, a);
    dBodySetRotation(b, r);
    dBodySetPosition(b, x, y, 0.0);
    return b;
}

/* A blade of length len hinged at its middle (hx, hy), turning about z at
 * speed, kept at speed by a motor. Hinged at the middle, its centre of mass
 * does not move: a blade hinged at an end, integrated by ODE as p += v·dt at
 * these speeds, would leave its hinge by most of its length every step. */
static dBodyID hinged_blade(ode_world *w, double len, double thick, double width, double hx, double hy, double a,
                            double speed)
{
    dBodyID b = box_body(w, len, thick, width, hx, hy, a);
    ode_hinge_motor(w, b, hx, hy, speed, 1000.0);
    return b;
}

void ode_hinge_motor(ode_world *w, dBodyID b, double hx, double hy, double speed, double fmax)
{
    dBodySetAngularVel(b, 0.0, 0.0, speed);
    dJointID j = dJointCreateHinge(w->world, 0);
    dJointAttach(j, b, 0);
    dJointSetHingeAnchor(j, hx, hy, 0.0);
    dJointSetHingeAxis(j, 0.0, 0.0, 1.0);
    dJointSetHingeParam(j, dParamVel, speed);
    dJointSetHingeParam(j, dParamFMax, fmax);
    ode_world_ccd_body(w, b, 0.0, 0.0, 0.0);
}

/* Fill the trial's totals and free the world. */
void ode_trial_finish(ode_world *w, ode_trial *out)
{
    out->steps = w->steps;
    out->seconds = w->step_seconds;
    out->ccd = sccd_ode_get_counters(w->ccd);
    ode_world_free(w);
}

void ode_trial_observe(ode_observer *obs, void *user, const ode_world *w)
{
    if (obs != NULL)
        obs(user, w);
}

/* ---- blade vs thin plate ---- */

ode_trial ode_trial_blade(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user)
{
    const double len = 1.0, plate = len / 50.0;
    ode_world w;
    ode_world_init(&w, mode, substeps, 0.0);
    double turn = ode_step_turn(speed, w.dt), a0 = -(0.15 + phase * turn);
    dBodyID blade = hinged_blade(&w, len, 0.02, 0.1, 0.0, 0.0, a0, speed);
    dGeomID wall = dCreateBox(w.space, 0.5, plate, 0.6); /* static, radial along +x from r = 0.15 */
    dGeomSetPosition(wall, 0.4, 0.0, 0.0);
    ode_trial out = {0};
    int steps = (int)ceil(-a0 / turn) + 10;
    double rel = a0; /* unwrapped blade angle relative to the plate */
    for (int s = 0; s < steps; ++s) {
        double before = ode_body_angle_z(blade);
        ode_world_step(&w);
        rel += ode_wrap_angle(ode_body_angle_z(blade) - before);
        out.touched |= ode_world_touched(&w, blade, 0);
        ode_trial_observe(obs, user, &w);
        /* the blade's centre line past the plate's mid-plane: it went through */
        if (rel > 0.0 && !out.passed) {
            out.passed = true;
            out.px = 0.4;
        }
    }
    ode_trial_finish(&w, &out);
    return out;
}

/* ---- kinematic bat vs pitched ball ---- */

ode_trial ode_trial_bat(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user)
{
    const double len = 1.0, radius = 0.04, ball_r = len / 40.0, ball_x = 0.75;
    ode_world w;
    ode_world_init(&w, mode, substeps, 0.0);
    double step_turn = speed * w.dt, a = -(0.4 + phase * step_turn);
    /* The bat: a capsule along the body's x (geom offset turns ODE's z axis to x). */
    dBodyID bat = dBodyCreate(w.world);
    dBodySetKinematic(bat);
    dGeomID cap = dCreateCapsule(w.space, radius, len - 2.0 * radius);
    dGeomSetBody(cap, bat);
    dMatrix3 off;
    dRFromAxisAndAngle(off, 0.0, 1.0, 0.0, 0.5 * M_PI);
    dGeomSetOffsetRotation(cap, off);
    ode_world_ccd_body(&w, bat, -0.5 * len, 0.0, 0.0);
    dBodyID ball = dBodyCreate(w.world);
    dMass m;
    dMassSetSphereTotal(&m, 0.145, ball_r);
    dBodySetMass(ball, &m);
    dGeomSetBody(dCreateSphere(w.space, ball_r), ball);
    dBodySetPosition(ball, ball_x, 0.05, 0.0);
    dBodySetLinearVel(ball, 0.0, -1.0, 0.0);
    ode_trial out = {0};
    int swing = (int)ceil((1.2 - a) / step_turn) + 2; /* with follow-through: the contact acts a step later */
    for (int s = 0; s < swing + 3; ++s) {
        /* Animate: ODE turns by 2·atan(|ω|dt/2) per step, so ask for the ω
         * that turns exactly speed·dt, and move the centre along the chord;
         * after the swing the bat rests. */
        double a1 = s < swing ? a + step_turn : a;
        dRFromAxisAndAngle(off, 0.0, 0.0, 1.0, a);
        dBodySetRotation(bat, off);
        dBodySetPosition(bat, 0.5 * len * cos(a), 0.5 * len * sin(a), 0.0);
        dBodySetAngularVel(bat, 0.0, 0.0, 2.0 * tan(0.5 * (a1 - a)) / w.dt);
        dBodySetLinearVel(bat, 0.5 * len * (cos(a1) - cos(a)) / w.dt, 0.5 * len * (sin(a1) - sin(a)) / w.dt, 0.0);
        ode_world_step(&w);
        a = a1;
        out.touched |= ode_world_touched(&w, bat, ball);
        ode_trial_observe(obs, user, &w);
    }
    /* Independent check: a hit ball leaves at about the bat's surface speed
     * there (speed × 0.75); one the bat went through keeps its pitch (1 m/s). */
    const dReal *v = dBodyGetLinearVel(ball);
    if (!(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) > 0.25 * speed * ball_x)) {
        out.passed = true;
        out.px = ball_x;
    }
    ode_trial_finish(&w, &out);
    return out;
}

/* ---- kinematic rotor under falling spheres ---- */

typedef struct dropped { dBodyID body; double x, y, z; } dropped;

ode_trial ode_trial_rotor(ode_ccd_mode mode, int substeps, double speed, int spheres, unsigned seed, int *passes,
                          ode_observer *obs, void *user)
{
    const double len = 1.0, thick = 0.02, width = 0.15, r = 0.03;
    ode_world w;
    ode_world_init(&w, mode, substeps, -9.81);
    w.quick = true; /* many resting contacts: the iterative solver */
    dBodyID rotor = dBodyCreate(w.world);
    dBodySetKinematic(rotor);
    dGeomID blade = dCreateBox(w.space, len, thick, width);
    dGeomSetBody(blade, rotor);
    dGeomSetCategoryBits(blade, 1);
    dBodySetAngularVel(rotor, 0.0, speed, 0.0);
    ode_world_ccd_body(&w, rotor, 0.0, 0.0, 0.0);
    dGeomID ground = dCreatePlane(w.space, 0.0, 1.0, 0.0, -1.0);
    dGeomSetCategoryBits(ground, 1);
    dropped *d = calloc((size_t)spheres, sizeof *d);
    unsigned state = seed * 2654435761u + 1u;
    ode_trial out = {0};
    int count = 0, made = 0;
    int steps = 3 * spheres + 60;
    for (int s = 0; s < steps; ++s) {
        if (s % 3 == 0 && made < spheres) { /* drop a sphere over the blade's disc */
            state = state * 1664525u + 1013904223u;
            double ang = 2.0 * M_PI * (state >> 8) / 16777216.0;
            state = state * 1664525u + 1013904223u;
            double rad = 0.08 + 0.35 * (state >> 8) / 16777216.0;
            dBodyID b = dBodyCreate(w.world);
            dMass m;
            dMassSetSphereTotal(&m, 0.05, r);
            dBodySetMass(b, &m);
            dGeomID g = dCreateSphere(w.space, r);
            dGeomSetBody(g, b);
            dGeomSetCategoryBits(g, 2);
            dGeomSetCollideBits(g, 1); /* spheres ignore each other */
            dBodySetPosition(b, rad * cos(ang), 0.25, rad * sin(ang));
            dBodySetLinearVel(b, 0.0, -4.0, 0.0);
            d[made++] = (dropped){b, rad * cos(ang), 0.25, rad * sin(ang)};
        }
        double a0 = angle_y(rotor);
        ode_world_step(&w);
        double turn = ode_wrap_angle(angle_y(rotor) - a0);
        ode_trial_observe(obs, user, &w);
        /* Independent check: a sphere whose centre crossed the blade plane
         * (y = 0) inside the blade's footprint went through the blade. The
         * crossing time s is where its y passes 0 (linear within the step),
         * the rotor's angle then a0 + s·turn. */
        for (int i = 0; i < made; ++i) {
            const dReal *p = dBodyGetPosition(d[i].body);
            dropped was = d[i];
            d[i] = (dropped){was.body, p[0], p[1], p[2]};
            if (!(was.y > 0.0 && p[1] <= 0.0))
                continue;
            double sc = was.y / (was.y - p[1]);
            double x = was.x + sc * (p[0] - was.x), z = was.z + sc * (p[2] - was.z);
            double a = a0 + sc * turn;
            double lx = cos(a) * x - sin(a) * z, lz = sin(a) * x + cos(a) * z;
            if (fabs(lx) <= 0.5 * len && fabs(lz) <= 0.5 * width) {
                ++count;
                out.passed = true;
                out.px = x;
                out.py = 0.0;
                out.pz = z;
            }
        }
        for (int i = 0; i < made && !out.touched; ++i)
            out.touched |= ode_world_touched(&w, rotor, d[i].body);
    }
    if (passes != NULL)
        *passes = count;
    free(d);
    ode_trial_finish(&w, &out);
    return out;
}

/* ---- two swords clashing ---- */

/* A one-sided sword: a box from r = 0.1 to 0.6 along the body's x (a geom
 * offset), on a hinge at the origin about z, turning at speed; its mass sits
 * at the hinge, so the body's centre does not move. */
static dBodyID sword(ode_world *w, double a, double speed)
{
    const double len = 0.5;
    dBodyID b = dBodyCreate(w->world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, len, 0.03, 0.1);
    dBodySetMass(b, &m);
    dGeomID g = dCreateBox(w->space, len, 0.03, 0.1);
    dGeomSetBody(g, b);
    dGeomSetOffsetPosition(g, 0.1 + 0.5 * len, 0.0, 0.0);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, a);
    dBodySetRotation(b, r);
    ode_hinge_motor(w, b, 0.0, 0.0, speed, 1000.0);
    return b;
}

ode_trial ode_trial_swords(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user)
{
    ode_world w;
    ode_world_init(&w, mode, substeps, 0.0);
    double turn = ode_step_turn(speed, w.dt), open = 0.1 + phase * turn;
    dBodyID a = sword(&w, open, -speed), b = sword(&w, -open, speed);
    double rel = 2.0 * open; /* unwrapped angle of a ahead of b */
    ode_trial out = {0};
    int steps = (int)ceil(open / turn) + 12;
    for (int s = 0; s < steps; ++s) {
        double a0 = ode_body_angle_z(a), b0 = ode_body_angle_z(b);
        ode_world_step(&w);
        rel += ode_wrap_angle(ode_body_angle_z(a) - a0) - ode_wrap_angle(ode_body_angle_z(b) - b0);
        out.touched |= ode_world_touched(&w, a, b);
        ode_trial_observe(obs, user, &w);
        /* The swords share one hinge axis and turn in one plane: a can get
         * from one side of b to the other only through it. */
        if (rel < 0.0 && !out.passed) {
            out.passed = true;
            out.px = 0.35 * cos(ode_body_angle_z(a));
            out.py = 0.35 * sin(ode_body_angle_z(a));
        }
    }
    ode_trial_finish(&w, &out);
    return out;
}
