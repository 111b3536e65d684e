/* The public headers from C++: this file is compiled as C++11 with
 * -pedantic-errors (Makefile, CXXFLAGS_TEST), which rejects the C-only
 * constructs a header could hide in its inline functions and macros
 * (compound literals, designated initializers, implicit void* conversions).
 * It includes every public header on its own and calls the core and both
 * adapters through them, so a missing extern "C" shows as a link error and
 * a C-only inline function as a compile error. The scenes are small but
 * real: a fast rod and a fast ball against thin walls, which pass through
 * without the CCD and must not with it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmath>
#include <cstdint>
/* Debian's cmocka.h (1.1) has no extern "C" of its own. */
extern "C" {
#include <cmocka.h>
}

/* Every public header, each one first in no particular company. */
#include "sectorccd/base.h"
#include "sectorccd/broadphase.h"
#include "sectorccd/catalogue.h"
#include "sectorccd/ccd.h"
#include "sectorccd/ccd_options.h"
#include "sectorccd/discrete.h"
#include "sectorccd/distance.h"
#include "sectorccd/geometry.h"
#include "sectorccd/impact.h"
#include "sectorccd/math_functions.h"
#include "sectorccd/mesh.h"
#include "sectorccd/motion.h"
#include "sectorccd/sector2.h"
#include "sectorccd/sector3.h"
#include "sectorccd/sectorccd.h"
#include "sectorccd/shapes.h"
#include "sectorccd/spherefill.h"
#include "sectorccd/spheretree.h"
#include "sectorccd/support.h"
#include "sectorccd/sweep2.h"
#include "sectorccd/sweep3.h"
#include "sectorccd/toi.h"
#include "sectorccd_chipmunk.h"
#include "sectorccd_ode.h"

static const double DT = 1.0 / 60.0;

/* ---- the core ---- */

/* The inline math and the macros, as C++ sees them. */
static void test_inline_math(void **state)
{
    (void)state;
    sccd_v2 a = sccd_v2_make(3.0, 4.0);
    assert_true(std::fabs(sccd_v2_len(a) - 5.0) < 1e-12);
    sccd_v2 n = sccd_v2_normalize(sccd_v2_make(0.0, 0.0));
    sccd_v2 fb = SCCD_FALLBACK_V2;
    assert_true(n.x == fb.x && n.y == fb.y);
    sccd_v2 r = sccd_rot2_apply(sccd_rot2_make(0.5 * SCCD_PI), sccd_v2_make(1.0, 0.0));
    assert_true(std::fabs(r.x) < 1e-12 && std::fabs(r.y - 1.0) < 1e-12);
    sccd_quat q = sccd_quat_axis_angle(sccd_v3_make(0.0, 0.0, 1.0), 0.5 * SCCD_PI);
    sccd_v3 v = sccd_xf3_apply(sccd_xf3_identity(), sccd_quat_apply(sccd_quat_mul(q, sccd_quat_conj(q)), SCCD_FALLBACK_V3));
    assert_true(std::fabs(v.x - 1.0) < 1e-12 && std::fabs(v.y) < 1e-12 && std::fabs(v.z) < 1e-12);
    sccd_ccd_options o = sccd_ccd_options_default(0.001);
    assert_int_equal(sccd_ccd_options_merge(&o, sccd_ccd_options_default(0.002)), 0);
    assert_null(sccd_ccd_options_problem(0));
}

/* README's core example: a 2 m blade turning at 600 rad/s about its end hits
 * a wall 1.2 m out 6 % into the step. */
static void test_toi_of_fast_blade(void **state)
{
    (void)state;
    sccd_shape2 blade, wall;
    blade.type = SCCD_SHAPE_BOX;
    blade.box.c = sccd_v2_make(0.0, 0.0);
    blade.box.q = sccd_rot2_identity();
    blade.box.h = sccd_v2_make(1.0, 0.01);
    wall.type = SCCD_SHAPE_BOX;
    wall.box.c = sccd_v2_make(0.0, 0.0);
    wall.box.q = sccd_rot2_identity();
    wall.box.h = sccd_v2_make(0.005, 0.5);
    sccd_xf2 pose = sccd_xf2_identity(), wall_pose = sccd_xf2_identity();
    wall_pose.p = sccd_v2_make(0.0, 1.2);
    sccd_motion2 swing = sccd_motion2_from_velocity(pose, sccd_v2_make(-1.0, 0.0), sccd_v2_make(0.0, 0.0), 600.0, DT);
    sccd_motion2 still = sccd_motion2_from_velocity(wall_pose, sccd_v2_make(0.0, 0.0), sccd_v2_make(0.0, 0.0), 0.0, DT);
    sccd_toi2 hit = sccd_toi2_compute(&blade, swing, &wall, still, 0.0, 1e-4);
    assert_int_equal(hit.state, SCCD_TOI_HIT);
    assert_true(hit.t > 0.05 && hit.t < 0.07);
}

/* ---- Chipmunk2D ---- */

static cpBool count_begin(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
    (void)arb;
    (void)space;
    ++*static_cast<int *>(data);
    return cpTrue;
}

/* A rod 100 long on a motorised pivot at the origin, turning at w toward a
 * wall 2 thick on the ray at 90°. Returns whether the rod got past the wall;
 * *begins counts the begin callbacks the game heard. */
static bool cp_rod_passes(bool ccd, double w, double phase, int *begins)
{
    cpSpace *space = cpSpaceNew();
    cpCollisionHandler *h = cpSpaceAddCollisionHandler(space, 1, 2);
    h->beginFunc = count_begin;
    h->userData = begins;
    cpShape *wall = cpSpaceAddShape(space, cpBoxShapeNew2(cpSpaceGetStaticBody(space), cpBBNew(-1, 40, 1, 105), 0));
    cpShapeSetCollisionType(wall, 2);
    cpBody *rod = cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForSegment(1.0, cpv(5, 0), cpv(100, 0), 0.5)));
    cpBodySetAngle(rod, 0.5 * SCCD_PI - 0.1 - phase * w * DT);
    cpBodySetAngularVelocity(rod, w);
    cpShape *seg = cpSpaceAddShape(space, cpSegmentShapeNew(rod, cpv(5, 0), cpv(100, 0), 0.5));
    cpShapeSetCollisionType(seg, 1);
    cpConstraint *pivot = cpSpaceAddConstraint(space, cpPivotJointNew(cpSpaceGetStaticBody(space), rod, cpvzero));
    cpConstraint *motor = cpSpaceAddConstraint(space, cpSimpleMotorNew(cpSpaceGetStaticBody(space), rod, -w));
    cpConstraintSetMaxForce(motor, 2e5);
    sccd_cp_world *cw = NULL;
    if (ccd) {
        cw = sccd_cp_attach(space);
        assert_non_null(cw);
        sccd_cp_body_enable(cw, rod);
        sccd_cp_body_set_pivot(cw, rod, cpvzero);
        assert_true(sccd_cp_body_is_enabled(cw, rod));
    }
    bool passed = false;
    for (int s = 0; s < 30 && !passed; ++s) {
        cpSpaceStep(space, DT);
        passed = cpBodyGetAngle(rod) > 0.5 * SCCD_PI + 0.1;
    }
    if (ccd) {
        sccd_cp_counters k = sccd_cp_get_counters(cw);
        assert_true(k.steps > 0);
        assert_string_equal(sccd_cp_last_error(cw), "");
        sccd_cp_detach(cw);
    }
    /* Chipmunk frees none of a space's objects with it. */
    cpSpaceRemoveConstraint(space, motor);
    cpSpaceRemoveConstraint(space, pivot);
    cpSpaceRemoveShape(space, seg);
    cpSpaceRemoveShape(space, wall);
    cpSpaceRemoveBody(space, rod);
    cpConstraintFree(motor);
    cpConstraintFree(pivot);
    cpShapeFree(seg);
    cpShapeFree(wall);
    cpBodyFree(rod);
    cpSpaceFree(space);
    return passed;
}

static void test_chipmunk_rod_vs_wall(void **state)
{
    (void)state;
    int with = 0, without = 0, begins = 0, ignored = 0;
    for (int p = 0; p < 10; ++p) {
        double phase = (p + 0.5) / 10.0;
        with += cp_rod_passes(true, 200.0, phase, &begins);
        without += cp_rod_passes(false, 200.0, phase, &ignored);
    }
    print_message("C++: Chipmunk rod at 200 rad/s: %d/10 through the wall without CCD, %d/10 with (%d begins)\n",
                  without, with, begins);
    assert_int_equal(with, 0);
    assert_true(without > 5);
    assert_true(begins >= 10); /* the game heard every hit */
}

/* ---- ODE ---- */

struct ode_scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
};

static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    ode_scene *sc = static_cast<ode_scene *>(data);
    dContact c[4];
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = 0.5;
        dJointID j = dJointCreateContact(sc->world, sc->contacts, &c[i]);
        dJointAttach(j, dGeomGetBody(g1), dGeomGetBody(g2));
    }
}

static int count_impact(void *user, dGeomID o1, dGeomID o2, const dContactGeom *contact, const dReal impulse[3])
{
    (void)o1;
    (void)o2;
    (void)contact;
    (void)impulse;
    ++*static_cast<int *>(user);
    return 1;
}

/* A ball of radius 0.05 at 120 m/s toward a plate 1 cm thick at x = 1
 * (2 m a step). Returns whether the ball got past the plate. */
static bool ode_ball_passes(bool ccd, double y, int *impacts)
{
    ode_scene sc;
    sc.world = dWorldCreate();
    sc.space = dHashSpaceCreate(0);
    sc.contacts = dJointGroupCreate(0);
    dGeomID plate = dCreateBox(sc.space, 0.01, 1.0, 1.0);
    dGeomSetPosition(plate, 1.0, 0.0, 0.0);
    dBodyID ball = dBodyCreate(sc.world);
    dMass m;
    dMassSetSphereTotal(&m, 0.2, 0.05);
    dBodySetMass(ball, &m);
    dGeomSetBody(dCreateSphere(sc.space, 0.05), ball);
    dBodySetPosition(ball, 0.0, y, 0.0);
    dBodySetLinearVel(ball, 120.0, 0.0, 0.0);
    sccd_ode_world *ccdw = NULL;
    if (ccd) {
        ccdw = sccd_ode_attach(sc.world, sc.space);
        assert_non_null(ccdw);
        sccd_ode_body_enable(ccdw, ball);
        sccd_ode_geom_set_material(ccdw, plate, 0.5, 0.5);
        sccd_ode_set_impact_callback(ccdw, count_impact, impacts);
        assert_true(sccd_ode_body_is_enabled(ccdw, ball));
    }
    bool passed = false;
    for (int s = 0; s < 10 && !passed; ++s) {
        if (ccdw != NULL)
            sccd_ode_before_step(ccdw);
        dSpaceCollide(sc.space, &sc, near_callback);
        dWorldStep(sc.world, DT);
        dJointGroupEmpty(sc.contacts);
        if (ccdw != NULL)
            sccd_ode_after_step(ccdw);
        passed = dBodyGetPosition(ball)[0] > 1.0;
    }
    if (ccd) {
        sccd_ode_counters k = sccd_ode_get_counters(ccdw);
        assert_true(k.impacts > 0);
        assert_string_equal(sccd_ode_last_error(ccdw), "");
        sccd_ode_detach(ccdw);
    }
    dJointGroupDestroy(sc.contacts);
    dSpaceDestroy(sc.space);
    dWorldDestroy(sc.world);
    return passed;
}

static void test_ode_ball_vs_plate(void **state)
{
    (void)state;
    int with = 0, without = 0, impacts = 0, ignored = 0;
    for (int i = 0; i < 5; ++i) {
        double y = -0.4 + 0.2 * i;
        with += ode_ball_passes(true, y, &impacts);
        without += ode_ball_passes(false, y, &ignored);
    }
    print_message("C++: ODE ball at 120 m/s: %d/5 through the plate without CCD, %d/5 with (%d impacts heard)\n",
                  without, with, impacts);
    assert_int_equal(with, 0);
    assert_int_equal(without, 5);
    assert_true(impacts >= 10); /* before and after the impulse, each hit */
}

static int ode_setup(void **state)
{
    (void)state;
    dInitODE2(0);
    return 0;
}

static int ode_teardown(void **state)
{
    (void)state;
    dCloseODE();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_math),
        cmocka_unit_test(test_toi_of_fast_blade),
        cmocka_unit_test(test_chipmunk_rod_vs_wall),
        cmocka_unit_test(test_ode_ball_vs_plate),
    };
    return cmocka_run_group_tests(tests, ode_setup, ode_teardown);
}
