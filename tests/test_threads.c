/* Worlds stepped in parallel threads share nothing (issue 16). Each thread
 * runs its own Chipmunk space and its own ODE world, both with CCD bodies
 * (a motorised sword against a thin wall, bullets fired again and again at
 * a thin plate, a kinematic bat among loose balls; a hinged blade and fast
 * spheres in ODE), stepping them in turn for a few hundred steps while the
 * other threads do the same. Judged by
 *   - real outcomes, on the engines' own poses: no sword, blade, bullet or
 *     sphere ever gets past its wall, in any thread (and the same scenes
 *     without CCD do pass: the checks can fail);
 *   - determinism per world: every thread's final state (every body's pose
 *     and velocity, bit for bit) and counters equal those of the same scene
 *     run alone on the main thread first.
 * `make test-tsan` runs this program under ThreadSanitizer (no report
 * allowed); `make test` runs it as it is.
 *
 * ODE's rules for threads (ode/odeinit.h): dInitODE2 once before any
 * thread uses ODE, dAllocateODEDataForThread in every thread that calls ODE
 * (the main thread too), dCloseODE after they have all ended. The default
 * init flags release a thread's data when it exits. Each world gets its
 * own threading implementation (dThreadingAllocateSelfThreadedImplementation,
 * dWorldSetStepThreadingImplementation): without one, every world steps
 * through ODE's single default implementation, and two worlds stepping at
 * once break it (ODE INTERNAL ERROR in ReleaseAJob). The ODE worlds step
 * with dWorldStep: dWorldQuickStep reorders constraints with ODE's one
 * process-wide random sequence (dRandInt), so parallel QuickStep worlds
 * are not promised to repeat bit for bit (sectorccd_ode.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sectorccd_chipmunk.h"
#include "sectorccd_ode.h"
#include "test_util.h"
#include "cp_support.h"

#define THREADS 4
#define STEPS 300
#define DT (1.0 / 60.0)

/* ---- one thread's scenes ---- */

enum { CP_BULLETS = 3, CP_BALLS = 8, ODE_SPHERES = 3, REFIRE = 25 };
/* every body's pose and velocity: Chipmunk 6 numbers a body, ODE 13 */
#define CP_BODIES (2 + CP_BULLETS + CP_BALLS)
#define ODE_BODIES (1 + ODE_SPHERES)
#define STATE_LEN (6 * CP_BODIES + 13 * ODE_BODIES)

typedef struct run_result {
    double state[STATE_LEN];
    sccd_cp_counters cp;
    sccd_ode_counters ode;
    int sword_passes, bullet_passes, blade_passes, sphere_passes;
    int ode_impacts;  /* heard through the impact callback */
    bool finite;
    bool ode_ready;   /* dAllocateODEDataForThread succeeded */
    int tree_class;   /* sccd_ode_spheretree_class() as this thread saw it */
} run_result;

/* -- Chipmunk -- */

#define WALL_ANGLE (0.5 * SCCD_PI)

typedef struct cp_scene {
    cpSpace *space;
    sccd_cp_world *ccd;
    cpBody *body[CP_BODIES]; /* sword, bat, bullets, balls */
} cp_scene;

static cpBody *cp_dynamic(cpSpace *space, double m, double moment, cpVect p)
{
    cpBody *b = cpSpaceAddBody(space, cpBodyNew(m, moment));
    cpBodySetPosition(b, p);
    return b;
}

/* A 100-long sword on a motorised hinge at the origin turning at w toward a
 * wall 2 thick on the ray at 90°; bullets of radius 2 fired at 3000 (50 a
 * step) at a wall 2 thick at x = 400; a kinematic bat spinning at 40 rad/s
 * among balls (variant k: speeds and places differ). */
static void cp_scene_init(cp_scene *sc, int k, bool ccd)
{
    memset(sc, 0, sizeof *sc);
    cpSpace *space = sc->space = cpSpaceNew();
    cpSpaceSetIterations(space, 10);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(-1, 40, 1, 105), 0));
    cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(399, -60, 401, 60), 0));
    double w = 100.0 + 60.0 * k;
    cpBody *sword = sc->body[0] = cp_dynamic(space, 1.0, cpMomentForSegment(1.0, cpv(5, 0), cpv(100, 0), 0.5), cpvzero);
    cpBodySetAngle(sword, WALL_ANGLE - 0.2 - 0.1 * k);
    cpBodySetAngularVelocity(sword, w);
    cpShapeSetElasticity(cpSpaceAddShape(space, cpSegmentShapeNew(sword, cpv(5, 0), cpv(100, 0), 0.5)), 0.3);
    cpSpaceAddConstraint(space, cpPivotJointNew(ground, sword, cpvzero));
    cpConstraintSetMaxForce(cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, sword, -w)), 2e5);
    cpBody *bat = sc->body[1] = cpSpaceAddBody(space, cpBodyNewKinematic());
    cpBodySetPosition(bat, cpv(0, -400));
    cpBodySetAngularVelocity(bat, 40.0 + 5.0 * k);
    cpShapeSetElasticity(cpSpaceAddShape(space, cpSegmentShapeNew(bat, cpv(10, 0), cpv(120, 0), 3)), 0.8);
    for (int i = 0; i < CP_BULLETS; ++i) {
        cpBody *b = sc->body[2 + i] = cp_dynamic(space, 1.0, cpMomentForCircle(1.0, 0, 2, cpvzero), cpv(200, -30 + 30 * i));
        cpBodySetVelocity(b, cpv(3000 + 100 * k, 0));
        cpSpaceAddShape(space, cpCircleShapeNew(b, 2, cpvzero));
    }
    sccd_rng g = sccd_rng_make(100 + (uint64_t)k);
    for (int i = 0; i < CP_BALLS; ++i) {
        double a = sccd_rng_uniform(&g, 0.0, 2.0 * SCCD_PI), r = sccd_rng_uniform(&g, 30.0, 115.0);
        cpBody *b = sc->body[2 + CP_BULLETS + i] =
            cp_dynamic(space, 1.0, cpMomentForCircle(1.0, 0, 5, cpvzero), cpvadd(cpv(0, -400), cpvmult(cpvforangle(a), r)));
        cpShapeSetElasticity(cpSpaceAddShape(space, cpCircleShapeNew(b, 5, cpvzero)), 0.5);
    }
    if (!ccd)
        return;
    sc->ccd = sccd_cp_attach(space);
    for (int i = 0; i < 2 + CP_BULLETS; ++i)
        sccd_cp_body_enable(sc->ccd, sc->body[i]);
    sccd_cp_body_set_pivot(sc->ccd, sword, cpvzero);
    sccd_cp_body_set_pivot(sc->ccd, bat, cpvzero);
}

static void cp_scene_step(cp_scene *sc, int step, int k, run_result *out)
{
    if (step % REFIRE == 0 && step > 0) /* fire again: a teleport back, between steps */
        for (int i = 0; i < CP_BULLETS; ++i) {
            cpBodySetPosition(sc->body[2 + i], cpv(200, -30 + 30 * i));
            cpBodySetVelocity(sc->body[2 + i], cpv(3000 + 100 * k, 0));
        }
    cpSpaceStep(sc->space, DT);
    out->sword_passes += cpBodyGetAngle(sc->body[0]) > WALL_ANGLE + 0.1;
    for (int i = 0; i < CP_BULLETS; ++i)
        out->bullet_passes += cpBodyGetPosition(sc->body[2 + i]).x > 400.0;
}

static void cp_scene_finish(cp_scene *sc, run_result *out)
{
    for (int i = 0; i < CP_BODIES; ++i) {
        cpBody *b = sc->body[i];
        double v[6] = {cpBodyGetPosition(b).x, cpBodyGetPosition(b).y, cpBodyGetAngle(b),
                       cpBodyGetVelocity(b).x, cpBodyGetVelocity(b).y, cpBodyGetAngularVelocity(b)};
        for (int j = 0; j < 6; ++j)
            out->finite &= sccd_is_valid_real(v[j]);
        memcpy(&out->state[6 * i], v, sizeof v);
    }
    out->cp = sccd_cp_get_counters(sc->ccd);
    sccd_cp_detach(sc->ccd);
    sccd_cp_space_free_all(sc->space);
}

/* -- ODE -- */

typedef struct ode_scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dThreadingImplementationID threading;
    sccd_ode_world *ccd;
    dBodyID body[ODE_BODIES]; /* blade, spheres */
    double rel;               /* the blade's unwrapped angle from the plate's plane */
    sccd_spheretree probe;
    dGeomID tree;
    int impacts;
} ode_scene;

static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    ode_scene *sc = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    dContact c[4];
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactBounce;
        c[i].surface.mu = 0.5;
        c[i].surface.bounce = 0.2;
        c[i].surface.bounce_vel = 0.1;
        dJointAttach(dJointCreateContact(sc->world, sc->contacts, &c[i]), b1, b2);
    }
}

static int heard_impact(void *user, dGeomID o1, dGeomID o2, const dContactGeom *contact, const dReal impulse[3])
{
    (void)o1;
    (void)o2;
    (void)contact;
    (void)impulse;
    ++((ode_scene *)user)->impacts;
    return 1;
}

static double angle_z(dBodyID b)
{
    const dReal *r = dBodyGetRotation(b);
    return atan2(r[4], r[0]);
}

static double wrap(double d)
{
    while (d > SCCD_PI)
        d -= 2.0 * SCCD_PI;
    while (d <= -SCCD_PI)
        d += 2.0 * SCCD_PI;
    return d;
}

static const double sphere_start_x = 0.77; /* 1.77, 2.77, ... without CCD: past the plate */

/* A blade of length 1 hinged at its middle on a motor turning it about z
 * into a plate 0.02 thick along +x; spheres of radius 0.02 fired at 60 m/s
 * (1 m a step) at a plate 0.02 thick at x = 2; a static sphere-tree geom
 * off to the side (its class registered by whichever thread comes first). */
static void ode_scene_init(ode_scene *sc, int k, bool ccd)
{
    memset(sc, 0, sizeof *sc);
    sc->world = dWorldCreate();
    sc->space = dHashSpaceCreate(0);
    sc->contacts = dJointGroupCreate(0);
    /* the world's own threading implementation: ODE's default one is a
     * single process-wide object, which two worlds stepping at once corrupt */
    sc->threading = dThreadingAllocateSelfThreadedImplementation();
    dWorldSetStepThreadingImplementation(sc->world, dThreadingImplementationGetFunctions(sc->threading), sc->threading);
    dWorldSetGravity(sc->world, 0.0, 0.0, 0.0);
    double speed = 60.0 + 30.0 * k, a0 = -0.3 - 0.05 * k;
    dBodyID blade = sc->body[0] = dBodyCreate(sc->world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 1.0, 0.02, 0.1);
    dBodySetMass(blade, &m);
    dGeomSetBody(dCreateBox(sc->space, 1.0, 0.02, 0.1), blade);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, a0);
    dBodySetRotation(blade, r);
    dBodySetAngularVel(blade, 0.0, 0.0, speed);
    dJointID j = dJointCreateHinge(sc->world, 0);
    dJointAttach(j, blade, 0);
    dJointSetHingeAnchor(j, 0.0, 0.0, 0.0);
    dJointSetHingeAxis(j, 0.0, 0.0, 1.0);
    dJointSetHingeParam(j, dParamVel, speed);
    dJointSetHingeParam(j, dParamFMax, 50.0);
    sc->rel = a0;
    dGeomID plate = dCreateBox(sc->space, 0.5, 0.02, 0.6);
    dGeomSetPosition(plate, 0.4, 0.0, 0.0);
    dGeomSetPosition(dCreateBox(sc->space, 0.02, 1.0, 1.0), 2.0, 0.0, 3.0);
    for (int i = 0; i < ODE_SPHERES; ++i) {
        dBodyID b = sc->body[1 + i] = dBodyCreate(sc->world);
        dMassSetSphereTotal(&m, 0.1, 0.02);
        dBodySetMass(b, &m);
        dGeomSetBody(dCreateSphere(sc->space, 0.02), b);
        dBodySetPosition(b, sphere_start_x, -0.3 + 0.3 * i, 3.0);
        dBodySetLinearVel(b, 60.0 + k, 0.0, 0.0);
    }
    /* a one-leaf sphere tree, static, where nothing reaches it */
    static const sccd_sphere leaf = {{0.0, 0.0, 0.0}, 0.1};
    sccd_spheretree_init(&sc->probe);
    sccd_spheretree_build(&sc->probe, &leaf, 1, SCCD_BOUND_SEED);
    sc->tree = sccd_ode_spheretree_create(sc->space, &sc->probe);
    dGeomSetPosition(sc->tree, -5.0, -5.0, -5.0);
    if (!ccd)
        return;
    sc->ccd = sccd_ode_attach(sc->world, sc->space);
    sccd_ode_set_impact_callback(sc->ccd, heard_impact, sc);
    for (int i = 0; i < ODE_BODIES; ++i)
        sccd_ode_body_enable(sc->ccd, sc->body[i]);
}

static void ode_scene_step(ode_scene *sc, int step, int k, run_result *out)
{
    if (step % REFIRE == 0 && step > 0) /* fire again: a teleport back, between after_step and before_step */
        for (int i = 0; i < ODE_SPHERES; ++i) {
            dBodySetPosition(sc->body[1 + i], sphere_start_x, -0.3 + 0.3 * i, 3.0);
            dBodySetLinearVel(sc->body[1 + i], 60.0 + k, 0.0, 0.0);
            dBodySetAngularVel(sc->body[1 + i], 0.0, 0.0, 0.0);
        }
    double before = angle_z(sc->body[0]);
    if (sc->ccd)
        sccd_ode_before_step(sc->ccd);
    dSpaceCollide(sc->space, sc, near_callback);
    dWorldStep(sc->world, DT);
    dJointGroupEmpty(sc->contacts);
    if (sc->ccd)
        sccd_ode_after_step(sc->ccd);
    sc->rel += wrap(angle_z(sc->body[0]) - before);
    out->blade_passes += sc->rel > 0.0; /* its centre line past the plate's mid-plane */
    for (int i = 0; i < ODE_SPHERES; ++i)
        out->sphere_passes += dBodyGetPosition(sc->body[1 + i])[0] > 2.0;
}

static void ode_scene_finish(ode_scene *sc, run_result *out)
{
    double *s = &out->state[6 * CP_BODIES];
    for (int i = 0; i < ODE_BODIES; ++i, s += 13) {
        dBodyID b = sc->body[i];
        const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b), *v = dBodyGetLinearVel(b),
                    *w = dBodyGetAngularVel(b);
        double x[13] = {p[0], p[1], p[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]};
        for (int j = 0; j < 13; ++j)
            out->finite &= sccd_is_valid_real(x[j]);
        memcpy(s, x, sizeof x);
    }
    out->ode = sccd_ode_get_counters(sc->ccd);
    out->ode_impacts = sc->impacts;
    sccd_ode_detach(sc->ccd);
    dJointGroupDestroy(sc->contacts);
    dSpaceDestroy(sc->space);
    dWorldSetStepThreadingImplementation(sc->world, NULL, NULL);
    dThreadingFreeImplementation(sc->threading);
    dWorldDestroy(sc->world);
    sccd_spheretree_destroy(&sc->probe);
}

/* Creating and destroying ODE geoms is done under this lock, stepping is
 * not. ODE keeps one spare geom position record for the whole process and
 * hands it between threads with an atomic exchange (dAllocPosr/dFreePosr);
 * Debian's ODE is not instrumented, so ThreadSanitizer cannot see that
 * exchange and reports the record's next owner as racing with its last
 * one. The lock makes the hand-over visible. No geom is created or
 * destroyed while the worlds step (contacts are joints), so the stepping,
 * the part under test, runs in parallel unguarded. */
static pthread_mutex_t geoms_lock = PTHREAD_MUTEX_INITIALIZER;

/* Variant k's scenes, stepped in turn; the caller has ODE's thread data. */
static void run_scenes(int k, bool ccd, run_result *out)
{
    cp_scene cp;
    ode_scene ode;
    out->finite = true;
    cp_scene_init(&cp, k, ccd);
    pthread_mutex_lock(&geoms_lock);
    out->tree_class = sccd_ode_spheretree_class(); /* probes with geoms of its own */
    ode_scene_init(&ode, k, ccd);
    pthread_mutex_unlock(&geoms_lock);
    for (int s = 0; s < STEPS; ++s) {
        cp_scene_step(&cp, s, k, out);
        ode_scene_step(&ode, s, k, out);
    }
    cp_scene_finish(&cp, out);
    pthread_mutex_lock(&geoms_lock);
    ode_scene_finish(&ode, out);
    pthread_mutex_unlock(&geoms_lock);
}

/* ---- threads ---- */

typedef struct job { int k; pthread_barrier_t *start; run_result out; } job;

static void *thread_main(void *arg)
{
    job *j = arg;
    j->out.ode_ready = dAllocateODEDataForThread(dAllocateMaskAll) != 0;
    pthread_barrier_wait(j->start); /* all begin together: the most overlap */
    if (j->out.ode_ready)
        run_scenes(j->k, true, &j->out);
    return NULL; /* ODE releases this thread's data as it exits (dInitODE2(0)) */
}

static int setup(void **state)
{
    (void)state;
    dInitODE2(0);
    return dAllocateODEDataForThread(dAllocateMaskAll) ? 0 : -1; /* the main thread runs scenes too */
}

static int teardown(void **state)
{
    (void)state;
    dCloseODE(); /* every other thread has ended */
    return 0;
}

static void assert_holds(const run_result *r)
{
    assert_true(r->finite);
    assert_int_equal(r->sword_passes, 0);
    assert_int_equal(r->bullet_passes, 0);
    assert_int_equal(r->blade_passes, 0);
    assert_int_equal(r->sphere_passes, 0);
    assert_int_equal(r->cp.errors, 0);
    assert_int_equal(r->ode.errors, 0);
    assert_true(r->cp.clamps > 0);   /* the CCD acted: impacts in Chipmunk */
    assert_true(r->ode.impacts > 0); /* and in ODE */
    assert_true(r->ode_impacts > 0); /* and the game heard them */
}

/* The scenes without CCD: the checks see pass-throughs (they can fail). */
static void test_scenes_pass_without_ccd(void **state)
{
    (void)state;
    run_result r;
    memset(&r, 0, sizeof r);
    run_scenes(0, false, &r);
    print_message("without CCD: sword %d, bullets %d, blade %d, spheres %d steps past their walls\n", r.sword_passes,
                  r.bullet_passes, r.blade_passes, r.sphere_passes);
    assert_true(r.sword_passes > 0);
    assert_true(r.bullet_passes > 0);
    assert_true(r.blade_passes > 0);
    assert_true(r.sphere_passes > 0);
}

/* THREADS threads at once, each its own space and world; each result holds
 * and equals, bit for bit, its scene run alone on the main thread. */
static void test_parallel_worlds_match_single_thread(void **state)
{
    (void)state;
    static run_result alone[THREADS];
    static job jobs[THREADS];
    memset(alone, 0, sizeof alone);
    for (int k = 0; k < THREADS; ++k) {
        run_scenes(k, true, &alone[k]);
        assert_holds(&alone[k]);
    }
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, THREADS), 0);
    pthread_t tid[THREADS];
    for (int k = 0; k < THREADS; ++k) {
        memset(&jobs[k], 0, sizeof jobs[k]);
        jobs[k].k = k;
        jobs[k].start = &start;
        assert_int_equal(pthread_create(&tid[k], NULL, thread_main, &jobs[k]), 0);
    }
    for (int k = 0; k < THREADS; ++k)
        assert_int_equal(pthread_join(tid[k], NULL), 0);
    pthread_barrier_destroy(&start);
    for (int k = 0; k < THREADS; ++k) {
        const run_result *a = &alone[k], *t = &jobs[k].out;
        assert_true(t->ode_ready);
        assert_holds(t);
        assert_int_equal(t->tree_class, alone[0].tree_class); /* one class, registered once */
        int differ = 0;
        for (int i = 0; i < STATE_LEN; ++i)
            differ += memcmp(&a->state[i], &t->state[i], sizeof a->state[i]) != 0;
        if (differ > 0) {
            print_message("thread %d: %d of %d numbers differ from the single-threaded run\n", k, differ, STATE_LEN);
            for (int i = 0, shown = 0; i < STATE_LEN && shown < 8; ++i)
                if (memcmp(&a->state[i], &t->state[i], sizeof a->state[i]) != 0)
                    print_message("  number %d: %.17g alone, %.17g in the thread\n", i, a->state[i], t->state[i]), ++shown;
        }
        assert_int_equal(differ, 0);
        assert_true(a->cp.tois == t->cp.tois && a->cp.clamps == t->cp.clamps && a->cp.candidates == t->cp.candidates);
        assert_true(a->ode.tois == t->ode.tois && a->ode.impacts == t->ode.impacts &&
                    a->ode.candidates == t->ode.candidates);
        assert_int_equal(a->ode_impacts, t->ode_impacts);
    }
    print_message("%d threads: Chipmunk %llu stops, ODE %llu impacts each on average; all equal to the single-threaded runs\n",
                  THREADS, (unsigned long long)jobs[0].out.cp.clamps, (unsigned long long)jobs[0].out.ode.impacts);
}

/* The assert handler is process-wide: replaced by one thread while others
 * report through it (atomic: no race, every report reaches a handler). */
static atomic_int reported;

static void count_report(const char *condition, const char *file, int line)
{
    (void)condition;
    (void)file;
    (void)line;
    atomic_fetch_add(&reported, 1);
}

static void *report_many(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; ++i)
        sccd_cp_body_enable(NULL, NULL); /* reported through the handler */
    return NULL;
}

static void test_assert_handler_shared(void **state)
{
    (void)state;
    sccd_set_assert_handler(count_report);
    pthread_t tid[2];
    for (int k = 0; k < 2; ++k)
        assert_int_equal(pthread_create(&tid[k], NULL, report_many, NULL), 0);
    for (int i = 0; i < 200; ++i) /* swapped while they report: always a counting handler */
        sccd_set_assert_handler(count_report);
    for (int k = 0; k < 2; ++k)
        assert_int_equal(pthread_join(tid[k], NULL), 0);
    assert_int_equal(atomic_load(&reported), 4000);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scenes_pass_without_ccd),
        cmocka_unit_test(test_parallel_worlds_match_single_thread),
        cmocka_unit_test(test_assert_handler_shared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
