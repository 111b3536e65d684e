/* Misuse of the ODE CCD adapter that games really make (issue 16): each
 * gets the behaviour sectorccd_ode.h documents — a clear error (the assert
 * handler, sccd_ode_last_error, counters.errors) where it is a misuse, and
 * a defined result: no crash, no NaN, no state lost, no CCD sweep across a
 * teleport. Outcomes are judged on ODE's own poses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sectorccd_ode.h"
#include "test_util.h"

#define DT (1.0 / 60.0)

typedef struct scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    sccd_ode_world *ccd;
    dGeomID plate; /* static, 0.02 thick, its mid-plane x = 1 */
    int heard;     /* impacts the game heard from the CCD (before the impulse) */
} scene;

static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    scene *s = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    dContact c[4];
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        memset(&c[i].surface, 0, sizeof c[i].surface);
        c[i].surface.mu = 0.5;
        dJointAttach(dJointCreateContact(s->world, s->contacts, &c[i]), b1, b2);
    }
}

static int hear(void *user, dGeomID o1, dGeomID o2, const dContactGeom *contact, const dReal impulse[3])
{
    (void)o1;
    (void)o2;
    (void)contact;
    if (impulse[0] == 0.0 && impulse[1] == 0.0 && impulse[2] == 0.0)
        ++((scene *)user)->heard;
    return 1;
}

static void scene_init(scene *s)
{
    memset(s, 0, sizeof *s);
    s->world = dWorldCreate();
    s->space = dSimpleSpaceCreate(0);
    s->contacts = dJointGroupCreate(0);
    s->plate = dCreateBox(s->space, 0.02, 2.0, 2.0);
    dGeomSetPosition(s->plate, 1.0, 0.0, 0.0);
    s->ccd = sccd_ode_attach(s->world, s->space);
    sccd_ode_set_impact_callback(s->ccd, hear, s);
}

static void scene_free(scene *s)
{
    sccd_ode_detach(s->ccd);
    dJointGroupDestroy(s->contacts);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

/* The user's loop: the CCD calls around collide and step. */
static void step(scene *s)
{
    sccd_ode_before_step(s->ccd);
    dSpaceCollide(s->space, s, near_callback);
    dWorldStep(s->world, DT);
    dJointGroupEmpty(s->contacts);
    sccd_ode_after_step(s->ccd);
}

/* A sphere of radius 0.02 at (x, y, 0) moving at vx, CCD enabled when ccd. */
static dBodyID add_sphere(scene *s, double x, double y, double vx, bool ccd)
{
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    dMassSetSphereTotal(&m, 0.1, 0.02);
    dBodySetMass(b, &m);
    dGeomSetBody(dCreateSphere(s->space, 0.02), b);
    dBodySetPosition(b, x, y, 0.0);
    dBodySetLinearVel(b, vx, 0.0, 0.0);
    if (ccd)
        sccd_ode_body_enable(s->ccd, b);
    return b;
}

static double x_of(dBodyID b) { return dBodyGetPosition(b)[0]; }

static bool finite_body(dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    for (int i = 0; i < 3; ++i)
        if (!isfinite(p[i]) || !isfinite(v[i]) || !isfinite(w[i]) || !isfinite(q[i]) || !isfinite(q[3]))
            return false;
    return true;
}

/* Fired fast (2 m a step) at the plate from x = 0.5: stopped in front of it. */
static void assert_stops(scene *s, dBodyID b)
{
    dBodySetPosition(b, 0.5, dBodyGetPosition(b)[1], 0.0);
    dBodySetLinearVel(b, 120.0, 0.0, 0.0);
    int heard = s->heard;
    for (int i = 0; i < 5; ++i) {
        step(s);
        assert_true(x_of(b) < 1.0);
        assert_true(finite_body(b));
    }
    assert_true(s->heard > heard);
}

/* ---- a CCD body destroyed, or taken out of the space, without disable ---- */

static void test_gone_bodies_forgotten(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    dBodyID destroyed = add_sphere(&s, 0.0, -0.5, 0.0, true);
    dBodyID moved = add_sphere(&s, 0.0, 0.0, 0.0, true);
    dBodyID stripped = add_sphere(&s, 0.0, 0.5, 0.0, true);
    step(&s);
    dBodyDestroy(destroyed); /* its geom stays, static now */
    dGeomID mg = dBodyGetFirstGeom(moved);
    dSpaceRemove(s.space, mg); /* the body lives on, its geom out of the space */
    dGeomDestroy(dBodyGetFirstGeom(stripped));
    step(&s);
    sccd_ode_counters c = sccd_ode_get_counters(s.ccd);
    assert_int_equal(c.forgotten, 3);
    assert_int_equal(c.errors, 3);
    assert_int_equal(sccd_test_assert_count(), 3);
    assert_true(strstr(sccd_ode_last_error(s.ccd), "without sccd_ode_body_disable") != NULL);
    assert_false(sccd_ode_body_is_enabled(s.ccd, moved));
    assert_false(sccd_ode_body_is_enabled(s.ccd, stripped));
    /* back in the space and enabled again: CCD again */
    dSpaceAdd(s.space, mg);
    sccd_ode_body_enable(s.ccd, moved);
    assert_stops(&s, moved);
    assert_int_equal(sccd_test_assert_count(), 3);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- geoms removed mid-game ---- */

static void test_geoms_removed_mid_game(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    dBodyID b = add_sphere(&s, 0.0, 0.0, 0.0, true);
    sccd_ode_geom_set_material(s.ccd, s.plate, 0.5, 0.5);
    assert_stops(&s, b);
    /* the plate broken by the game after the step that hit it: the sphere goes on */
    dGeomDestroy(s.plate);
    dBodySetLinearVel(b, 120.0, 0.0, 0.0);
    for (int i = 0; i < 3; ++i)
        step(&s);
    assert_true(x_of(b) > 2.0);
    assert_true(finite_body(b));
    /* a new plate (perhaps at the old one's address): no material left over, CCD as usual */
    s.plate = dCreateBox(s.space, 0.02, 2.0, 2.0);
    dGeomSetPosition(s.plate, 1.0, 0.0, 0.0);
    assert_stops(&s, b);
    assert_int_equal(sccd_ode_get_counters(s.ccd).errors, 0);
    assert_int_equal(sccd_test_assert_count(), 0);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- detached while bodies are enabled ---- */

static void test_detach_with_bodies_enabled(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    dBodyID b = add_sphere(&s, 0.0, 0.0, 0.0, true);
    step(&s);
    sccd_ode_detach(s.ccd); /* ODE's objects untouched */
    s.ccd = NULL;
    dBodySetPosition(b, 0.5, 0.0, 0.0);
    dBodySetLinearVel(b, 120.0, 0.0, 0.0);
    for (int i = 0; i < 3; ++i) { /* the user's loop without the CCD: plain ODE, it passes */
        dSpaceCollide(s.space, &s, near_callback);
        dWorldStep(s.world, DT);
        dJointGroupEmpty(s.contacts);
    }
    assert_true(x_of(b) > 1.0);
    assert_true(finite_body(b));
    s.ccd = sccd_ode_attach(s.world, s.space);
    sccd_ode_set_impact_callback(s.ccd, hear, &s);
    sccd_ode_body_enable(s.ccd, b);
    dBodySetPosition(b, 0.0, 0.0, 0.0);
    assert_stops(&s, b);
    assert_int_equal(sccd_test_assert_count(), 0);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- steps of no length; before/after out of order ---- */

/* ODE's own dWorldStep and dWorldQuickStep abort on a step <= 0 or NaN
 * ("stepsize must be > 0"), so the adapter never sees one; what it can see
 * is before/after with no step between (nothing moved: nothing changes, no
 * report), after_step twice (reported, nothing changes) and before_step
 * twice (the second one counts). */
static void test_empty_and_repeated_steps(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    dBodyID b = add_sphere(&s, 0.9, 0.0, 60.0, true); /* a step from the plate */
    dBodyID spin = add_sphere(&s, 0.0, 0.5, 0.0, true);
    dBodySetAngularVel(spin, 0.0, 0.0, 50.0);
    for (int k = 0; k < 2; ++k) { /* first with no step yet, then after one */
        if (k == 1) {
            dBodySetPosition(b, 0.5, 0.0, 0.0);
            step(&s);
        }
        dReal p0[3], v0[3];
        memcpy(p0, dBodyGetPosition(b), sizeof p0);
        memcpy(v0, dBodyGetLinearVel(b), sizeof v0);
        sccd_ode_before_step(s.ccd);
        sccd_ode_after_step(s.ccd);
        assert_memory_equal(p0, dBodyGetPosition(b), sizeof p0);
        assert_memory_equal(v0, dBodyGetLinearVel(b), sizeof v0);
        assert_int_equal(sccd_test_assert_count(), 0);
    }
    sccd_ode_after_step(s.ccd); /* twice */
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_string_equal(sccd_ode_last_error(s.ccd), "sccd_ode_after_step: call sccd_ode_before_step before the step");
    sccd_ode_before_step(s.ccd); /* twice */
    assert_stops(&s, b);
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_true(finite_body(spin));
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- teleports between steps: no sweep across them ---- */

static double angle_z(dBodyID b)
{
    const dReal *r = dBodyGetRotation(b);
    return atan2(r[4], r[0]);
}

static void test_teleport_is_not_swept(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    dBodyID b = add_sphere(&s, 0.0, 0.0, 0.6, true); /* 0.01 a step */
    step(&s);
    dBodySetPosition(b, 2.0, 0.0, 0.0); /* across the plate, between after_step and before_step */
    step(&s);
    assert_true(fabs(x_of(b) - 2.01) < 1e-12);
    assert_int_equal(s.heard, 0);
    assert_int_equal(sccd_ode_get_counters(s.ccd).clamps, 0);
    dBodySetPosition(b, 0.0, 0.0, 0.0); /* back across it, moving away */
    dBodySetLinearVel(b, -0.6, 0.0, 0.0);
    step(&s);
    assert_true(fabs(x_of(b) + 0.01) < 1e-12);
    assert_int_equal(s.heard, 0);
    assert_stops(&s, b); /* CCD from the new place */
    /* a turn: a free blade turned by the game to past a plate on the ray at 0 */
    scene_free(&s);
    scene_init(&s);
    dGeomDestroy(s.plate);
    s.plate = dCreateBox(s.space, 0.5, 0.02, 0.6);
    dGeomSetPosition(s.plate, 0.4, 0.0, 0.0);
    dBodyID blade = dBodyCreate(s.world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 1.0, 0.02, 0.1);
    dBodySetMass(blade, &m);
    dGeomSetBody(dCreateBox(s.space, 1.0, 0.02, 0.1), blade);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, -0.5);
    dBodySetRotation(blade, r);
    dBodySetAngularVel(blade, 0.0, 0.0, 3.0);
    sccd_ode_body_enable(s.ccd, blade);
    step(&s);
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, 0.6);
    dBodySetRotation(blade, r);
    step(&s);
    assert_true(fabs(angle_z(blade) - (0.6 + 2.0 * atan(0.5 * 3.0 * DT))) < 1e-9); /* ODE's turn, not stopped */
    assert_int_equal(s.heard, 0);
    assert_int_equal(sccd_test_assert_count(), 0);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- repeated and unknown calls, NULL arguments ---- */

static void near_nothing(void *data, dGeomID g1, dGeomID g2)
{
    (void)data;
    (void)g1;
    (void)g2;
}

static void test_repeats_unknown_and_null(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    dBodyID b = add_sphere(&s, 0.0, 0.0, 0.0, true);
    dBodyID other = add_sphere(&s, 0.0, 0.5, 0.0, false);
    int expected = 0;
    sccd_ode_body_enable(s.ccd, b); /* twice */
    ++expected;
    assert_string_equal(sccd_ode_last_error(s.ccd), "sccd_ode_body_enable: CCD is already enabled on the body");
    sccd_ode_body_disable(s.ccd, other); /* unknown */
    ++expected;
    assert_string_equal(sccd_ode_last_error(s.ccd), "sccd_ode_body_disable: CCD is not enabled on the body");
    sccd_ode_body_disable(s.ccd, b);
    sccd_ode_body_disable(s.ccd, b); /* twice */
    ++expected;
    assert_int_equal(sccd_test_assert_count(), expected);
    /* NULL: reported where it is a call to act */
    sccd_ode_body_enable(NULL, b);
    sccd_ode_body_enable(s.ccd, NULL);
    sccd_ode_body_disable(NULL, b);
    sccd_ode_body_disable(s.ccd, NULL);
    sccd_ode_body_set_pivot(s.ccd, b, NULL);
    sccd_ode_geom_set_material(NULL, s.plate, 0.5, 0.5);
    sccd_ode_geom_set_material(s.ccd, NULL, 0.5, 0.5);
    sccd_ode_set_impact_callback(NULL, hear, &s);
    sccd_ode_set_options(NULL, sccd_ode_options_default());
    sccd_ode_reset_counters(NULL);
    sccd_ode_before_step(NULL);
    sccd_ode_after_step(NULL);
    assert_null(sccd_ode_attach(NULL, NULL));
    assert_true(sccd_ode_spheretree_create(s.space, NULL) == 0);
    sccd_ode_space_collide(NULL, NULL, near_nothing);
    sccd_ode_space_collide(s.space, NULL, NULL);
    expected += 16;
    assert_int_equal(sccd_test_assert_count(), expected);
    /* and the documented defaults where it is a question */
    assert_false(sccd_ode_body_is_enabled(NULL, b));
    assert_false(sccd_ode_body_is_enabled(s.ccd, NULL));
    assert_string_equal(sccd_ode_last_error(NULL), "");
    sccd_ode_counters zero = sccd_ode_get_counters(NULL);
    assert_int_equal(zero.steps + zero.errors, 0);
    assert_true(sccd_ode_get_options(NULL).overlap == sccd_ode_options_default().overlap);
    assert_null(sccd_ode_spheretree_tree(NULL));
    sccd_ode_detach(NULL);
    assert_int_equal(sccd_test_assert_count(), expected);
    /* the world kept working */
    sccd_ode_body_enable(s.ccd, b);
    assert_stops(&s, b);
    assert_int_equal(sccd_test_assert_count(), expected);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

static int setup(void **state)
{
    (void)state;
    dInitODE2(0);
    return dAllocateODEDataForThread(dAllocateMaskAll) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    dCloseODE();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gone_bodies_forgotten),
        cmocka_unit_test(test_geoms_removed_mid_game),
        cmocka_unit_test(test_detach_with_bodies_enabled),
        cmocka_unit_test(test_empty_and_repeated_steps),
        cmocka_unit_test(test_teleport_is_not_swept),
        cmocka_unit_test(test_repeats_unknown_and_null),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
