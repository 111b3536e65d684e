/* ODE scenes of modelled weapons (ode_mesh_scenes.h). */
#include <math.h>
#include "ode_mesh_scenes.h"

/* Where the hinge sits along the weapon: 0.1 from its end, in the grip. */
#define GRIP 0.1
/* Radius of the ball and the post's axis, from the hinge. */
#define TARGET_R 0.55
#define BALL_RADIUS 0.04
/* Segments of the generated bats' revolved sections. */
#define BAT_SEGMENTS 16

/* An ODE trimesh made from a core mesh, with its data. */
typedef struct mesh_geom { sccd_ode_trimesh mesh; dGeomID geom; } mesh_geom;

static bool make_mesh_geom(mesh_geom *g, dSpaceID space, const sccd_mesh *m)
{
    g->geom = sccd_ode_trimesh_init(&g->mesh, m) ? dCreateTriMesh(space, g->mesh.data, NULL, NULL, NULL) : 0;
    return g->geom != 0;
}

sccd_shape3 ode_mesh_plate(void)
{
    return (sccd_shape3){.type = SCCD_SHAPE_BOX, .box = {{0.525, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}, {0.325, 0.01, 0.15}}};
}

bool ode_mesh_weapon_mesh(sccd_mesh *m, ode_mesh_weapon weapon)
{
    if (!(weapon == ODE_MESH_BAT ? sccd_mesh_bat(m, BAT_SEGMENTS) : sccd_mesh_sword(m)))
        return false;
    for (int i = 0; i < m->nv; ++i) { /* the generated axis z becomes x, the width x becomes y */
        sccd_v3 p = m->v[i];
        m->v[i] = (sccd_v3){p.z - GRIP, p.x, p.y};
    }
    return true;
}

bool ode_mesh_post_mesh(sccd_mesh *m)
{
    if (!sccd_mesh_bat(m, BAT_SEGMENTS))
        return false;
    for (int i = 0; i < m->nv; ++i)
        m->v[i] = sccd_v3_add(m->v[i], (sccd_v3){TARGET_R, 0.0, -0.425});
    return true;
}

/* The weapon on a hinge about z at the origin, kept turning at speed by a
 * motor. Its body's origin is the hinge: ODE integrates a body's origin by
 * p += v·dt, which a body hinged off its origin would follow off the hinge
 * at these speeds; its mass is a rod's, with the inertia about the hinge. */
static dBodyID weapon_body(ode_world *w, dGeomID geom, double length, double a, double speed)
{
    dBodyID b = dBodyCreate(w->world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, length, 0.06, 0.06);
    dMassTranslate(&m, 0.5 * length - GRIP, 0.0, 0.0);
    m.c[0] = m.c[1] = m.c[2] = 0.0; /* the inertia stays the one about the hinge */
    dBodySetMass(b, &m);
    dGeomSetBody(geom, b);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, a);
    dBodySetRotation(b, r);
    ode_hinge_motor(w, b, 0.0, 0.0, speed, 100.0);
    return b;
}

/* The target: its geom (a static one) or its body (the ball). */
static dBodyID make_target(ode_world *w, ode_mesh_target target, mesh_geom *post, bool *ok)
{
    if (target == ODE_MESH_PLATE) {
        sccd_box3 b = ode_mesh_plate().box;
        dGeomSetPosition(dCreateBox(w->space, 2.0 * b.h.x, 2.0 * b.h.y, 2.0 * b.h.z), b.c.x, b.c.y, b.c.z);
        return 0;
    }
    if (target == ODE_MESH_POST) {
        sccd_mesh m;
        sccd_mesh_init(&m);
        *ok = ode_mesh_post_mesh(&m) && make_mesh_geom(post, w->space, &m);
        sccd_mesh_destroy(&m);
        return 0;
    }
    dBodyID ball = dBodyCreate(w->world);
    dMass m;
    dMassSetSphereTotal(&m, 0.145, BALL_RADIUS);
    dBodySetMass(ball, &m);
    dGeomSetBody(dCreateSphere(w->space, BALL_RADIUS), ball);
    dBodySetPosition(ball, TARGET_R, 0.0, 0.0);
    return ball;
}

/* The ball judge: the weapon's centre line is this far past the ball's
 * start (its angle there), clear of the ball had it stayed (ball and
 * weapon half-width over the radius, and a margin). */
static double clear_angle(ode_mesh_weapon weapon)
{
    double half_width = weapon == ODE_MESH_BAT ? 0.033 : 0.03;
    return (BALL_RADIUS + half_width) / TARGET_R + 0.05;
}

ode_trial ode_trial_mesh(ode_ccd_mode mode, int substeps, ode_mesh_weapon weapon, ode_mesh_target target, double speed,
                         double phase, ode_observer *obs, void *user)
{
    ode_trial out = {0};
    ode_world w;
    ode_world_init(&w, mode, substeps, 0.0);
    double turn = ode_step_turn(speed, w.dt), a0 = -(0.35 + phase * turn);
    sccd_mesh m;
    sccd_mesh_init(&m);
    mesh_geom weapon_geom = {0}, post = {0};
    bool ok = ode_mesh_weapon_mesh(&m, weapon) && make_mesh_geom(&weapon_geom, w.space, &m);
    double length = weapon == ODE_MESH_BAT ? 0.85 : 1.0;
    sccd_mesh_destroy(&m);
    dBodyID ball = make_target(&w, target, &post, &ok);
    dBodyID body = ok ? weapon_body(&w, weapon_geom.geom, length, a0, speed) : 0;
    int steps = ok ? (int)ceil((-a0 + 1.0) / turn) + 10 : 0;
    double rel = a0; /* the weapon's unwrapped angle */
    for (int s = 0; s < steps && !out.passed; ++s) {
        double before = ode_body_angle_z(body);
        ode_world_step(&w);
        rel += ode_wrap_angle(ode_body_angle_z(body) - before);
        out.touched |= ode_world_touched(&w, body, ball);
        ode_trial_observe(obs, user, &w);
        if (ball == 0) {
            out.passed = rel > 0.0;
        } else if (rel > clear_angle(weapon)) {
            const dReal *p = dBodyGetPosition(ball);
            out.passed = hypot(hypot(p[0] - TARGET_R, p[1]), p[2]) < BALL_RADIUS;
            break;
        }
    }
    out.px = TARGET_R;
    ode_trial_finish(&w, &out);
    sccd_ode_trimesh_destroy(&weapon_geom.mesh);
    sccd_ode_trimesh_destroy(&post.mesh);
    out.passed |= !ok; /* a scene that could not be made proves nothing */
    return out;
}
