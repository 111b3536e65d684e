/* The ODE CCD adapter (sectorccd_ode.h, "CCD") on real ODE worlds.
 *
 * Oracles: pass-throughs are judged by independent checks on ODE's own poses
 * (common/scenes/ode_scenes.c: which side of the plate, blade or other sword
 * a body is on, unwrapped over the steps; whether the ball left at the bat's
 * speed), never by the adapter's counters. Each scene also runs without CCD,
 * where the same check must see pass-throughs: the check can fail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ode_scenes.h"
#include "debris_rain.h"
#include "scene_fuzz.h"
#include "test_util.h"

enum { PHASES = 50 };

static int setup(void **state)
{
    (void)state;
    dInitODE2(0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dCloseODE();
    return 0;
}

/* A scene's trial function (ode_scenes.h). */
typedef ode_trial trial_fn(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user);

/* A scene of ode_scenes.h as ode_tally_run takes it. */
typedef struct plain_scene { trial_fn *fn; } plain_scene;

static ode_trial plain_trial(const void *scene, ode_ccd_mode mode, double speed, double phase)
{
    return ((const plain_scene *)scene)->fn(mode, 1, speed, phase, NULL, NULL);
}

/* Pass-throughs of a scene with and without CCD over speeds × phases. */
static ode_tally run_trials(trial_fn *trial, const char *what, const double *speeds, int nspeeds, int phases)
{
    plain_scene scene = {trial};
    return ode_tally_run(plain_trial, &scene, what, speeds, nspeeds, phases);
}

/* With CCD: no pass-through and ODE made the contact in every trial; without:
 * pass-throughs in most trials (so the check can see them). */
static void assert_holds(ode_tally t)
{
    assert_int_equal(t.with, 0);
    assert_int_equal(t.touched, t.n);
    assert_true(2 * t.without > t.n);
}

/* A blade on a hinge motor against a plate 1/50 of its length thick, swing
 * speeds 5–400 rad/s at 60 Hz, 50 phases each. */
static void test_blade_never_passes_plate(void **state)
{
    (void)state;
    const double speeds[] = {5, 10, 20, 50, 100, 200, 400};
    ode_tally t = run_trials(ode_trial_blade, "blade vs plate", speeds, 7, PHASES);
    assert_holds(t);
}

/* A kinematic bat hits a ball of 1/20 its length on every swing (a pass-through
 * here: the ball did not leave at the bat's speed). */
static void test_kinematic_bat_hits_every_swing(void **state)
{
    (void)state;
    const double speeds[] = {5, 20, 50, 100, 150};
    ode_tally t = run_trials(ode_trial_bat, "kinematic bat", speeds, 5, 20);
    assert_holds(t);
}

/* A rotor spinning at 200 rad/s never lets a falling sphere through a blade. */
static void test_rotor_never_lets_sphere_through(void **state)
{
    (void)state;
    int with = 0, without = 0;
    for (unsigned seed = 1; seed <= 5; ++seed) {
        int p_on = 0, p_off = 0;
        ode_trial_rotor(ODE_CCD_SECTOR, 1, 200.0, 20, seed, &p_on, NULL, NULL);
        ode_trial_rotor(ODE_CCD_OFF, 1, 200.0, 20, seed, &p_off, NULL, NULL);
        with += p_on;
        without += p_off;
    }
    print_message("rotor at 200 rad/s, 100 spheres: %d through a blade without CCD, %d with\n", without, with);
    assert_int_equal(with, 0);
    assert_true(without > 0);
}

/* Two swords on one hinge axis never pass through each other. */
static void test_swords_never_pass_each_other(void **state)
{
    (void)state;
    const double speeds[] = {10, 50, 100, 200, 400};
    ode_tally t = run_trials(ode_trial_swords, "sword clash", speeds, 5, 20);
    assert_holds(t);
}

/* ---- geom classes: a fast sphere (CCD, translation only) shot at thin targets ---- */

typedef enum target_kind { T_BOX, T_MESH, T_CYLINDER, T_PLANE, T_CAPSULE } target_kind;

/* Two triangles making the square |y|, |z| ≤ 0.5 at x = 0. */
static const float mesh_verts[4][3] = {{0, -0.5f, -0.5f}, {0, 0.5f, -0.5f}, {0, 0.5f, 0.5f}, {0, -0.5f, 0.5f}};
static const dTriIndex mesh_tris[6] = {0, 1, 2, 0, 2, 3};

/* Free world w and the trimesh data it used (NULL: none). */
static void free_world(ode_world *w, dTriMeshDataID mesh)
{
    ode_world_free(w);
    if (mesh != NULL)
        dGeomTriMeshDataDestroy(mesh);
}

/* The target across the x = 0 plane: thin walls, a thin disc (cylinder along
 * x), the plane x ≤ 0 (normal −x ... solid at x ≥ 0 is not ODE's: the plane's
 * solid is n·p ≤ d, so n = (−1, 0, 0), d = 0 makes the solid x ≥ 0). */
static dGeomID make_target(ode_world *w, target_kind k, dTriMeshDataID *mesh)
{
    dGeomID g = NULL;
    dMatrix3 r;
    switch (k) {
    case T_BOX:
        g = dCreateBox(w->space, 0.01, 1.0, 1.0);
        break;
    case T_MESH:
        *mesh = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildSingle(*mesh, mesh_verts, 3 * sizeof(float), 4, mesh_tris, 6, 3 * sizeof(dTriIndex));
        g = dCreateTriMesh(w->space, *mesh, NULL, NULL, NULL);
        break;
    case T_CYLINDER:
        g = dCreateCylinder(w->space, 0.5, 0.01);
        dRFromAxisAndAngle(r, 0.0, 1.0, 0.0, 0.5 * M_PI);
        dGeomSetRotation(g, r);
        break;
    case T_PLANE:
        g = dCreatePlane(w->space, -1.0, 0.0, 0.0, 0.0);
        break;
    case T_CAPSULE:
        g = dCreateCapsule(w->space, 0.01, 1.0); /* a thin rod along z at x = 0 */
        break;
    }
    return g;
}

/* A sphere of radius 0.02 from x = −0.3 at speed toward +x, hitting the
 * target within |y|, |z| < 0.3 (the rod: |y| < 0.005). Returns true when it
 * went through: it ends beyond the target (x > 0.02), or for the rod, its
 * centre crossed x = 0 within the rod's radius plus its own of the rod (an
 * impact sends it off sideways, rolling, and it may end beyond the rod
 * having gone round it). */
static bool shoot(target_kind k, ode_ccd_mode mode, double speed, sccd_rng *rng, bool filtered)
{
    ode_world w;
    ode_world_init(&w, mode, 1, 0.0);
    dTriMeshDataID mesh = NULL;
    dGeomID target = make_target(&w, k, &mesh);
    dGeomSetCategoryBits(target, 1);
    dGeomSetCollideBits(target, filtered ? ~2ul : ~0ul);
    dBodyID ball = dBodyCreate(w.world);
    dMass m;
    dMassSetSphereTotal(&m, 0.1, 0.02);
    dBodySetMass(ball, &m);
    dGeomID g = dCreateSphere(w.space, 0.02);
    dGeomSetBody(g, ball);
    dGeomSetCategoryBits(g, 2);
    dGeomSetCollideBits(g, filtered ? ~1ul : ~0ul);
    double y = k == T_CAPSULE ? sccd_rng_uniform(rng, -0.005, 0.005) : sccd_rng_uniform(rng, -0.3, 0.3);
    double z = k == T_CAPSULE ? sccd_rng_uniform(rng, -0.3, 0.3) : sccd_rng_uniform(rng, -0.3, 0.3);
    dBodySetPosition(ball, -0.3 - sccd_rng_uniform(rng, 0.0, speed / 60.0), y, z);
    dBodySetLinearVel(ball, speed, 0.0, 0.0);
    ode_world_ccd_body(&w, ball, 0.0, 0.0, 0.0);
    bool crossed = false;
    for (int s = 0; s < 4; ++s) {
        double x0 = dBodyGetPosition(ball)[0], y0 = dBodyGetPosition(ball)[1];
        ode_world_step(&w);
        const dReal *p = dBodyGetPosition(ball);
        if (x0 < 0.0 && p[0] >= 0.0) /* where the centre crossed x = 0 (linear within the step) */
            crossed |= fabs(y0 + (p[1] - y0) * x0 / (x0 - p[0])) < 0.01 + 0.02;
    }
    bool through = k == T_CAPSULE ? crossed : dBodyGetPosition(ball)[0] > 0.02;
    if (w.ccd != NULL)
        assert_int_equal(sccd_ode_get_counters(w.ccd).errors, 0);
    free_world(&w, mesh);
    return through;
}

static void test_geom_classes_stop_fast_sphere(void **state)
{
    (void)state;
    const target_kind kinds[] = {T_BOX, T_MESH, T_CYLINDER, T_PLANE, T_CAPSULE};
    const char *names[] = {"box", "trimesh", "cylinder", "plane", "capsule"};
    sccd_rng rng = sccd_rng_make(811);
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; ++i) {
        int with = 0, without = 0, filtered = 0;
        for (int k = 0; k < 40; ++k) {
            double speed = sccd_rng_uniform(&rng, 20.0, 300.0);
            with += shoot(kinds[i], ODE_CCD_SECTOR, speed, &rng, false);
            without += shoot(kinds[i], ODE_CCD_OFF, speed, &rng, false);
            filtered += shoot(kinds[i], ODE_CCD_SECTOR, speed, &rng, true); /* category and collide bits exclude the pair */
        }
        print_message("%-8s: %d/40 through without CCD, %d/40 with, %d/40 with the pair filtered out\n", names[i], without,
                      with, filtered);
        assert_int_equal(with, 0);
        assert_int_equal(filtered, 40); /* category bits respected: nothing stops it */
        if (kinds[i] != T_PLANE)         /* ODE's plane pushes a sphere behind it back out */
            assert_true(without > 20);
    }
}

/* Bounded targets must not hold a body short of the real surface: a sphere
 * dropped on a lying cylinder off its crest (where its box sticks out) and
 * beside a triangle (inside the triangle's rectangles' first one) ends
 * resting on the cylinder or gone past; a body held in the gap would hover
 * with a growing speed. */
static const float tri_verts[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
static const dTriIndex tri_index[3] = {0, 2, 1};

static void test_bounded_targets_do_not_hover(void **state)
{
    (void)state;
    const double offsets[] = {0.0, 0.12, 0.2, 0.27, 0.32};
    for (int k = 0; k < 6; ++k) {
        ode_world w;
        ode_world_init(&w, ODE_CCD_SECTOR, 1, -9.81);
        dTriMeshDataID mesh = NULL;
        double x = 0.0, z = 0.0;
        if (k < 5) {
            dGeomID c = dCreateCylinder(w.space, 0.3, 1.0);
            dMatrix3 r;
            dRFromAxisAndAngle(r, 0.0, 1.0, 0.0, 0.5 * M_PI); /* axis along x, crest at y = 0.3 */
            dGeomSetRotation(c, r);
            z = offsets[k];
        } else {
            mesh = dGeomTriMeshDataCreate();
            dGeomTriMeshDataBuildSingle(mesh, tri_verts, 3 * sizeof(float), 3, tri_index, 3, 3 * sizeof(dTriIndex));
            dCreateTriMesh(w.space, mesh, NULL, NULL, NULL);
            x = z = 0.7; /* beyond the hypotenuse, inside the smallest rectangle */
        }
        dBodyID b = dBodyCreate(w.world);
        dMass m;
        dMassSetSphereTotal(&m, 0.1, 0.05);
        dBodySetMass(b, &m);
        dGeomSetBody(dCreateSphere(w.space, 0.05), b);
        dBodySetPosition(b, x, 1.0, z);
        dBodySetLinearVel(b, 0.0, -6.0, 0.0);
        ode_world_ccd_body(&w, b, 0.0, 0.0, 0.0);
        for (int s = 0; s < 120; ++s)
            ode_world_step(&w);
        const dReal *p = dBodyGetPosition(b), *v = dBodyGetLinearVel(b);
        double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        bool resting = speed < 0.5 && p[1] > 0.0, gone = p[1] < -0.5;
        if (!(resting || gone))
            print_message("case %d: y %.3f, speed %.2f\n", k, p[1], speed);
        assert_true(resting || gone);
        if (k == 5)
            assert_true(gone); /* nothing under it */
        assert_int_equal(sccd_ode_get_counters(w.ccd).errors, 0);
        free_world(&w, mesh);
    }
}

/* ---- bodies in resting or grazing contact keep moving ---- */

/* Angle of body b about z (rad). */
static double turn_angle(dBodyID b)
{
    const dReal *r = dBodyGetRotation(b);
    return atan2(r[4], r[0]);
}

static double wrap_angle(double a) { return atan2(sin(a), cos(a)); }

/* Three steps of a sword of two boxes (a blade 2 × 0.04 × 0.04 from the
 * hinge, a guard 0.4 across at 0.3) on a hinge about z at the origin, its
 * mass centred at cog along the blade (ODE's body origin), turning at w (on
 * a motor or free; ODE's finite rotation mode or not), past a static sphere
 * of radius 0.02 at polar (rb, th): the sword's unwrapped turn. */
static double compound_sword_past_sphere(ode_ccd_mode mode, bool motor, bool finite, double cog, double w, double rb, double th)
{
    ode_world ow;
    ode_world_init(&ow, mode, 1, 0.0);
    dBodyID sword = dBodyCreate(ow.world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 2.0, 0.04, 0.04);
    dBodySetMass(sword, &m);
    dBodySetPosition(sword, cog, 0.0, 0.0);
    dGeomID blade = dCreateBox(ow.space, 2.0, 0.04, 0.04), guard = dCreateBox(ow.space, 0.04, 0.4, 0.04);
    dGeomSetBody(blade, sword);
    dGeomSetOffsetPosition(blade, 1.0 - cog, 0.0, 0.0);
    dGeomSetBody(guard, sword);
    dGeomSetOffsetPosition(guard, 0.3 - cog, 0.0, 0.0);
    dBodySetAngularVel(sword, 0.0, 0.0, w);
    dBodySetLinearVel(sword, 0.0, w * cog, 0.0);
    dBodySetFiniteRotationMode(sword, finite);
    dJointID j = dJointCreateHinge(ow.world, 0);
    dJointAttach(j, sword, 0);
    dJointSetHingeAnchor(j, 0.0, 0.0, 0.0);
    dJointSetHingeAxis(j, 0.0, 0.0, 1.0);
    if (motor) {
        dJointSetHingeParam(j, dParamVel, w);
        dJointSetHingeParam(j, dParamFMax, 1e4);
    }
    dGeomSetPosition(dCreateSphere(ow.space, 0.02), rb * cos(th), rb * sin(th), 0.0);
    ode_world_ccd_body(&ow, sword, 0.0, 0.0, 0.0);
    double turn = 0.0, last = 0.0;
    for (int s = 0; s < 3; ++s) {
        ode_world_step(&ow);
        double a = turn_angle(sword);
        turn += wrap_angle(a - last);
        last = a;
    }
    ode_world_free(&ow);
    return turn;
}

/* A compound sword whose mass is off its hinge (near it or near the tip),
 * from a slow swing to more than a turn a step, against small spheres at
 * six distances along its first three steps' path. Passed: its turn ends
 * beyond the sphere's far side (0.05 rad). */
static void test_compound_sword_reaches_small_spheres(void **state)
{
    (void)state;
    int trials = 0, on = 0, off = 0;
    const double spins[] = {10.0, 30.0, 90.0, 270.0}, cogs[] = {0.3, 1.5};
    for (int variant = 0; variant < 4; ++variant)
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < 4; ++k)
                for (double rb = 0.15; rb < 2.0; rb += 0.35)
                    for (double th = 0.1; th < fmin(3.0 * spins[k] / 60.0, 5.5); th += 0.1) {
                        bool motor = variant & 1, finite = variant & 2;
                        ++trials;
                        on += compound_sword_past_sphere(ODE_CCD_SECTOR, motor, finite, cogs[c], spins[k], rb, th) > th + 0.05;
                        off += compound_sword_past_sphere(ODE_CCD_OFF, motor, finite, cogs[c], spins[k], rb, th) > th + 0.05;
                    }
    print_message("compound sword vs small spheres: without CCD %d/%d pass, with CCD %d\n", off, trials, on);
    assert_int_equal(on, 0);
    assert_true(off > trials / 2);
}

/* One contact case: a bar (box 1 × 0.15 × 0.02, or a capsule bat of radius
 * 0.04) turning about z on a hinge motor at `speed` (its mass on the hinge),
 * and a sphere of radius 0.03 that already overlaps it by `depth` (< the
 * adapter's skin) at the start: on the bar's face (dragged along by
 * friction) or in front of its leading side (pushed), moving with the bar's
 * surface there. Both have CCD. The result: the bar's total turn over the
 * steps, the steps in which it turned less than 5 % of a free step's turn,
 * and whether the bar went through the sphere (independent check on ODE's
 * poses: the sphere's centre, within the bar's reach, got behind the
 * leading side's line or below the face's plane). */
typedef struct contact_run { double turn; int frozen; bool passed; } contact_run;

static contact_run contact_case(ode_ccd_mode mode, bool capsule, bool side, double speed, double x, double depth,
                                int steps)
{
    const double r = 0.03, half_y = capsule ? 0.04 : 0.075, half_z = capsule ? 0.04 : 0.01;
    ode_world w;
    ode_world_init(&w, mode, 1, 0.0);
    dBodyID bar = dBodyCreate(w.world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 1.0, 0.15, 0.02);
    dBodySetMass(bar, &m);
    dGeomID g = capsule ? dCreateCapsule(w.space, 0.04, 0.92) : dCreateBox(w.space, 1.0, 0.15, 0.02);
    dGeomSetBody(g, bar);
    if (capsule) { /* ODE's capsule lies along z: turn it onto x */
        dMatrix3 off;
        dRFromAxisAndAngle(off, 0.0, 1.0, 0.0, 0.5 * M_PI);
        dGeomSetOffsetRotation(g, off);
    }
    dBodySetAngularVel(bar, 0.0, 0.0, speed);
    dJointID j = dJointCreateHinge(w.world, 0);
    dJointAttach(j, bar, 0);
    dJointSetHingeAnchor(j, 0.0, 0.0, 0.0);
    dJointSetHingeAxis(j, 0.0, 0.0, 1.0);
    dJointSetHingeParam(j, dParamVel, speed);
    dJointSetHingeParam(j, dParamFMax, 1000.0);
    ode_world_ccd_body(&w, bar, 0.0, 0.0, 0.0);
    dBodyID ball = dBodyCreate(w.world);
    dMassSetSphereTotal(&m, 0.05, r);
    dBodySetMass(ball, &m);
    dGeomSetBody(dCreateSphere(w.space, r), ball);
    if (side) /* ahead of the leading side (+y for speed > 0 at x > 0), in the bar's plane */
        dBodySetPosition(ball, x, half_y + r - depth, 0.0);
    else
        dBodySetPosition(ball, x, 0.0, half_z + r - depth);
    dBodySetLinearVel(ball, 0.0, speed * x, 0.0); /* with the bar's surface there */
    ode_world_ccd_body(&w, ball, 0.0, 0.0, 0.0);
    contact_run out = {0.0, 0, false};
    double free_turn = fabs(speed) * w.dt;
    for (int s = 0; s < steps; ++s) {
        double a0 = turn_angle(bar);
        ode_world_step(&w);
        double turn = wrap_angle(turn_angle(bar) - a0);
        out.turn += turn;
        out.frozen += fabs(turn) < 0.05 * free_turn;
        const dReal *p = dBodyGetPosition(ball);
        bool near = hypot(p[0], p[1]) <= 0.5;
        double ahead = wrap_angle(atan2(p[1], p[0]) - turn_angle(bar)); /* of the bar's centre line */
        out.passed |= near && (side ? ahead < 0.0 && ahead > -0.5 : p[2] < 0.0);
    }
    if (w.ccd != NULL)
        assert_int_equal(sccd_ode_get_counters(w.ccd).errors, 0);
    ode_world_free(&w);
    return out;
}

/* A sphere already touching a turning bar (overlap 0.1–2.9 mm, under the
 * skin) must not be rewound to its start pose with the bar: the oracle is
 * plain ODE on the same scene, where its contact moves the sphere along and
 * the bar turns on. Where plain ODE keeps the sphere in front of the bar
 * (in the other cases the bar turns through it: there the CCD must stop it,
 * and does, see below), the bar with CCD must never hang still for a step
 * where plain ODE's does not, and must turn at least 60 % as far over 20
 * steps (a pushed sphere flies off straight and the turning side catches it
 * again: each such new contact stops the bar at its time of impact; the
 * rewind this test guards against cost up to 99 %). With CCD the bar never
 * goes through the sphere. 300 random cases: box bar or capsule bat, sphere
 * on the face or pushed by the side, 5–60 rad/s (the hinge holds at these
 * speeds: the bar's mass is on its axis). */
static void test_touching_pairs_keep_moving(void **state)
{
    (void)state;
    sccd_rng rng = sccd_rng_make(2311);
    int worst_case = -1, frozen_with = 0, judged = 0, passed_with = 0;
    double worst = 1e9;
    for (int k = 0; k < 300; ++k) {
        bool capsule = sccd_rng_int(&rng, 2) == 1, side = sccd_rng_int(&rng, 2) == 1;
        double speed = sccd_rng_uniform(&rng, 5.0, 60.0), x = sccd_rng_uniform(&rng, 0.1, 0.45);
        double depth = sccd_rng_uniform(&rng, 0.0001, 0.0029);
        contact_run on = contact_case(ODE_CCD_SECTOR, capsule, side, speed, x, depth, 20);
        contact_run off = contact_case(ODE_CCD_OFF, capsule, side, speed, x, depth, 20);
        passed_with += on.passed;
        if (off.passed)
            continue;
        ++judged;
        double ratio = on.turn / off.turn;
        if (ratio < worst) {
            worst = ratio;
            worst_case = k;
        }
        frozen_with += on.frozen > off.frozen;
        if (ratio < 0.6 || on.frozen > off.frozen)
            print_message("case %d (%s, %s, %.1f rad/s, x %.3f, overlap %.2f mm): turned %.3f rad with CCD, %.3f without; "
                          "%d vs %d frozen steps\n",
                          k, capsule ? "bat" : "box", side ? "side" : "face", speed, x, 1000.0 * depth, on.turn, off.turn,
                          on.frozen, off.frozen);
    }
    print_message("touching pairs: %d/300 judged (plain ODE kept the sphere in front), worst turn ratio with/without CCD "
                  "%.3f (case %d), %d with extra frozen steps; %d pass-throughs with CCD\n",
                  judged, worst, worst_case, frozen_with, passed_with);
    assert_true(judged >= 150);
    assert_true(worst >= 0.6);
    assert_int_equal(frozen_with, 0);
    assert_int_equal(passed_with, 0);
}

/* A sphere resting on a static floor (box or the front of a trimesh), its
 * overlap under the skin, sliding at 2 m/s under gravity: the CCD must not
 * hold it where its contact is (oracle: plain ODE's slide over 30 steps;
 * with CCD at least 80 % of it). */
static const float floor_verts[4][3] = {{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}};
static const dTriIndex floor_tris[6] = {0, 2, 1, 0, 3, 2}; /* front (ODE's contact side): +y */

static double slide(ode_ccd_mode mode, bool mesh_floor, double depth)
{
    ode_world w;
    ode_world_init(&w, mode, 1, -9.81);
    dTriMeshDataID mesh = NULL;
    if (mesh_floor) {
        mesh = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildSingle(mesh, floor_verts, 3 * sizeof(float), 4, floor_tris, 6, 3 * sizeof(dTriIndex));
        dCreateTriMesh(w.space, mesh, NULL, NULL, NULL);
    } else {
        dGeomSetPosition(dCreateBox(w.space, 10.0, 0.1, 10.0), 0.0, -0.05, 0.0);
    }
    dBodyID b = dBodyCreate(w.world);
    dMass m;
    dMassSetSphereTotal(&m, 0.1, 0.05);
    dBodySetMass(b, &m);
    dGeomSetBody(dCreateSphere(w.space, 0.05), b);
    dBodySetPosition(b, 0.0, 0.05 - depth, 0.0);
    dBodySetLinearVel(b, 2.0, 0.0, 0.0);
    ode_world_ccd_body(&w, b, 0.0, 0.0, 0.0);
    for (int s = 0; s < 30; ++s)
        ode_world_step(&w);
    double x = dBodyGetPosition(b)[0];
    free_world(&w, mesh);
    return x;
}

static void test_resting_body_slides(void **state)
{
    (void)state;
    sccd_rng rng = sccd_rng_make(2312);
    for (int k = 0; k < 40; ++k) {
        bool mesh_floor = k % 2 == 1;
        double depth = sccd_rng_uniform(&rng, 0.0001, 0.0029);
        double on = slide(ODE_CCD_SECTOR, mesh_floor, depth), off = slide(ODE_CCD_OFF, mesh_floor, depth);
        if (!(on >= 0.8 * off))
            print_message("%s floor, overlap %.2f mm: slid %.3f m with CCD, %.3f without\n", mesh_floor ? "mesh" : "box",
                          1000.0 * depth, on, off);
        assert_true(off > 0.5); /* the oracle slides: 2 m/s for half a second, less friction */
        assert_true(on >= 0.8 * off);
    }
}

/* ---- auto-disable ---- */

/* A thin box lying on a floor box, a cube on it (CCD on the thin box, or
 * none), both placed exactly touching, auto-disable on; then a small cube
 * dropped on the thin box's free end. asleep_at: the first step both boxes
 * are disabled (-1: never); woke: the thin box was enabled again by the
 * small cube; ball_low: its lowest centre above the thin box's top while
 * over it; asleep_again: both disabled at the end. */
typedef struct sleep_run { int asleep_at; bool woke, asleep_again; double ball_low; } sleep_run;

static sleep_run sleep_scene(ode_ccd_mode mode, double length, double thick, double drop_x)
{
    ode_world w;
    ode_world_init(&w, mode, 1, -9.81);
    dWorldSetAutoDisableFlag(w.world, 1);
    dGeomSetPosition(dCreateBox(w.space, 10.0, 0.1, 10.0), 0.0, -0.05, 0.0);
    dMass m;
    dBodyID low = dBodyCreate(w.world), top = dBodyCreate(w.world);
    dMassSetBoxTotal(&m, 1.0, length, thick, 0.1);
    dBodySetMass(low, &m);
    dGeomSetBody(dCreateBox(w.space, length, thick, 0.1), low);
    dBodySetPosition(low, 0.0, 0.5 * thick, 0.0);
    dMassSetBoxTotal(&m, 1.0, 0.08, 0.08, 0.08);
    dBodySetMass(top, &m);
    dGeomSetBody(dCreateBox(w.space, 0.08, 0.08, 0.08), top);
    dBodySetPosition(top, -0.25 * length, thick + 0.04, 0.0);
    ode_world_ccd_body(&w, low, 0.0, 0.0, 0.0);
    sleep_run out = {-1, false, false, INFINITY};
    for (int i = 0; i < 600 && out.asleep_at < 0; ++i) {
        ode_world_step(&w);
        if (!dBodyIsEnabled(low) && !dBodyIsEnabled(top))
            out.asleep_at = i;
    }
    dBodyID ball = dBodyCreate(w.world); /* a cube: it does not roll on */
    dMassSetBoxTotal(&m, 0.05, 0.04, 0.04, 0.04);
    dBodySetMass(ball, &m);
    dGeomSetBody(dCreateBox(w.space, 0.04, 0.04, 0.04), ball);
    dBodySetPosition(ball, drop_x, thick + 0.3, 0.0);
    dBodySetLinearVel(ball, 0.0, -3.0, 0.0);
    for (int i = 0; i < 600; ++i) {
        ode_world_step(&w);
        out.woke |= dBodyIsEnabled(low) != 0;
        const dReal *p = dBodyGetPosition(ball), *q = dBodyGetPosition(low);
        if (fabs(p[0] - q[0]) < 0.5 * length - 0.02 && fabs(p[2] - q[2]) < 0.05 - 0.02)
            out.ball_low = fmin(out.ball_low, p[1] - (q[1] + 0.5 * thick));
    }
    out.asleep_again = !dBodyIsEnabled(low) && !dBodyIsEnabled(top);
    ode_world_free(&w);
    return out;
}

/* A CCD body is disabled by ODE's auto-disable as a plain body is, with
 * what rests on it, enabled again when struck, and disabled again. (The CCD
 * met a resting pair with impulses at every step: the plank spun under the
 * cube until the fallback held it, at every step, and it never came to
 * rest.) The oracle: the same scene without CCD. */
static void test_ccd_bodies_auto_disable(void **state)
{
    (void)state;
    sccd_rng rng = sccd_rng_make(4105);
    for (int k = 0; k < 6; ++k) {
        double length = sccd_rng_uniform(&rng, 0.3, 0.8), thick = sccd_rng_uniform(&rng, 0.01, 0.05);
        double drop_x = sccd_rng_uniform(&rng, 0.05, 0.4) * length;
        sleep_run plain = sleep_scene(ODE_CCD_OFF, length, thick, drop_x), on = sleep_scene(ODE_CCD_SECTOR, length, thick, drop_x);
        if (on.asleep_at < 0 || on.asleep_at > plain.asleep_at + 60 || !on.woke || on.asleep_again < plain.asleep_again ||
            !(on.ball_low > -thick))
            print_message("box %.3f x %.3f, ball at %.3f: disabled at step %d (plain %d), woke %d, disabled again %d, "
                          "ball %.4f above its top (plain %.4f)\n", length, thick, drop_x, on.asleep_at, plain.asleep_at,
                          on.woke, on.asleep_again, on.ball_low, plain.ball_low);
        assert_true(plain.asleep_at >= 0 && plain.woke && plain.ball_low > -thick);
        assert_true(on.asleep_at >= 0 && on.asleep_at <= plain.asleep_at + 60); /* within a second of ODE's */
        assert_true(on.woke);
        assert_true(on.asleep_again >= plain.asleep_again); /* disabled again where ODE is */
        assert_true(on.ball_low > -thick); /* never through it (the small cube is no CCD body: it may sink in) */
    }
}

/* ---- long run ---- */

/* 10,000 steps of a busy scene with every CCD case: a kinematic rotor, a
 * dynamic blade on a hinge, spheres raining on a plane and a trimesh plate,
 * a cylinder; nothing may become NaN, and the adapter reports no error. */
static void test_long_run_no_nan(void **state)
{
    (void)state;
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, -9.81);
    w.quick = true;
    dBodyID rotor = dBodyCreate(w.world);
    dBodySetKinematic(rotor);
    dGeomSetBody(dCreateBox(w.space, 1.0, 0.02, 0.15), rotor);
    dBodySetAngularVel(rotor, 0.0, 200.0, 0.0);
    ode_world_ccd_body(&w, rotor, 0.0, 0.0, 0.0);
    dBodyID blade = dBodyCreate(w.world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 0.8, 0.02, 0.1);
    dBodySetMass(blade, &m);
    dGeomSetBody(dCreateBox(w.space, 0.8, 0.02, 0.1), blade);
    dBodySetPosition(blade, 0.0, -0.5, 0.0);
    dJointID j = dJointCreateHinge(w.world, 0);
    dJointAttach(j, blade, 0);
    dJointSetHingeAnchor(j, 0.0, -0.5, 0.0);
    dJointSetHingeAxis(j, 0.0, 1.0, 0.0);
    dJointSetHingeParam(j, dParamVel, -150.0);
    dJointSetHingeParam(j, dParamFMax, 100.0);
    ode_world_ccd_body(&w, blade, 0.0, 0.0, 0.0);
    dCreatePlane(w.space, 0.0, 1.0, 0.0, -1.0);
    dTriMeshDataID mesh = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildSingle(mesh, mesh_verts, 3 * sizeof(float), 4, mesh_tris, 6, 3 * sizeof(dTriIndex));
    dGeomID plate = dCreateTriMesh(w.space, mesh, NULL, NULL, NULL);
    dGeomSetPosition(plate, 0.8, -0.5, 0.0);
    dGeomID cyl = dCreateCylinder(w.space, 0.2, 0.05);
    dGeomSetPosition(cyl, -0.8, -0.9, 0.0);
    enum { N = 12 };
    dBodyID balls[N];
    sccd_rng rng = sccd_rng_make(99);
    for (int i = 0; i < N; ++i) {
        balls[i] = dBodyCreate(w.world);
        dMassSetSphereTotal(&m, 0.05, 0.03);
        dBodySetMass(balls[i], &m);
        dGeomSetBody(dCreateSphere(w.space, 0.03), balls[i]);
        dBodySetPosition(balls[i], sccd_rng_uniform(&rng, -0.9, 0.9), 0.5 + 0.1 * i, sccd_rng_uniform(&rng, -0.4, 0.4));
        if (i % 3 == 0)
            ode_world_ccd_body(&w, balls[i], 0.0, 0.0, 0.0);
    }
    for (int s = 0; s < 10000; ++s) {
        ode_world_step(&w);
        for (int i = 0; i < N; ++i) {
            const dReal *p = dBodyGetPosition(balls[i]);
            assert_true(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
            if (p[1] < -1.5 || fabs(p[0]) > 5.0 || fabs(p[2]) > 5.0 || s % 500 == 499) { /* respawn above */
                dBodySetPosition(balls[i], sccd_rng_uniform(&rng, -0.9, 0.9), 0.6, sccd_rng_uniform(&rng, -0.4, 0.4));
                dBodySetLinearVel(balls[i], 0.0, -3.0, 0.0);
                dBodySetAngularVel(balls[i], 0.0, 0.0, 0.0);
            }
        }
        const dReal *q = dBodyGetQuaternion(blade);
        assert_true(isfinite(q[0]) && isfinite(q[1]) && isfinite(q[2]) && isfinite(q[3]));
    }
    sccd_ode_counters c = sccd_ode_get_counters(w.ccd);
    print_message("10,000 steps: %llu candidates, %llu TOIs, %llu clamps, %llu overlapped, %llu capped\n",
                  (unsigned long long)c.candidates, (unsigned long long)c.tois,
                  (unsigned long long)c.clamps, (unsigned long long)c.overlapped, (unsigned long long)c.failed);
    assert_int_equal(c.errors, 0);
    assert_int_equal(c.steps, 10000);
    assert_true(c.clamps > 0);
    ode_world_free(&w);
    dGeomTriMeshDataDestroy(mesh);
}

/* ---- bookkeeping ---- */

/* Bodies and geoms destroyed between steps without sccd_ode_body_disable
 * are forgotten (reported: a misuse), never touched. */
static void test_destroyed_bodies_forgotten(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, -9.81);
    dBodyID b[3];
    dGeomID g[3];
    for (int i = 0; i < 3; ++i) {
        b[i] = dBodyCreate(w.world);
        g[i] = dCreateSphere(w.space, 0.1);
        dGeomSetBody(g[i], b[i]);
        dBodySetPosition(b[i], i, 1.0, 0.0);
        sccd_ode_body_enable(w.ccd, b[i]);
    }
    dCreatePlane(w.space, 0.0, 1.0, 0.0, 0.0);
    ode_world_step(&w);
    dGeomDestroy(g[0]); /* geom and body gone */
    dBodyDestroy(b[0]);
    dBodyDestroy(b[1]); /* body gone, its geom left behind (static now) */
    for (int s = 0; s < 20; ++s)
        ode_world_step(&w);
    sccd_ode_counters c = sccd_ode_get_counters(w.ccd);
    assert_int_equal(c.forgotten, 2);
    assert_int_equal(c.errors, 2);
    assert_int_equal(sccd_test_assert_count(), 2);
    assert_true(strstr(sccd_ode_last_error(w.ccd), "without sccd_ode_body_disable") != NULL);
    assert_true(sccd_ode_body_is_enabled(w.ccd, b[2]));
    assert_false(sccd_ode_body_is_enabled(w.ccd, b[0]));
    ode_world_free(&w);
    sccd_set_assert_handler(NULL);
}

/* Geoms of one body never stop each other; disable forgets a body. */
static void test_same_body_and_disable(void **state)
{
    (void)state;
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, 0.0);
    dBodyID b = dBodyCreate(w.world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 1.0, 0.1, 0.1);
    dBodySetMass(b, &m);
    dGeomSetBody(dCreateBox(w.space, 1.0, 0.1, 0.1), b);
    dGeomID g2 = dCreateBox(w.space, 0.1, 1.0, 0.1); /* crosses the first */
    dGeomSetBody(g2, b);
    dBodySetAngularVel(b, 0.0, 0.0, 300.0);
    sccd_ode_body_enable(w.ccd, b);
    for (int s = 0; s < 30; ++s)
        ode_world_step(&w);
    sccd_ode_counters c = sccd_ode_get_counters(w.ccd);
    assert_int_equal(c.clamps, 0);
    assert_int_equal(c.tois, 0);
    assert_int_equal(c.candidates, 0);
    assert_int_equal(c.steps, 30);
    sccd_ode_body_disable(w.ccd, b);
    assert_false(sccd_ode_body_is_enabled(w.ccd, b));
    /* a disabled body takes no part: a static plate in its way stops nothing */
    dGeomID plate = dCreateBox(w.space, 0.02, 2.0, 2.0);
    dGeomSetPosition(plate, 0.3, 0.0, 0.0);
    ode_world_step(&w);
    assert_int_equal(sccd_ode_get_counters(w.ccd).candidates, 0);
    dBodySetPosition(b, 0.0, 0.0, 0.0); /* back in front of the plate, spinning */
    dBodySetLinearVel(b, 0.0, 0.0, 0.0);
    dBodySetAngularVel(b, 0.0, 0.0, 300.0);
    sccd_ode_body_enable(w.ccd, b);
    ode_world_step(&w); /* joins at the next before_step */
    ode_world_step(&w);
    assert_true(sccd_ode_get_counters(w.ccd).candidates > 0);
    ode_world_free(&w);
}

/* Many CCD bodies among many fast ones (debris_rain.h): 40 spinning debris
 * fired through 300 falling spheres at a 2 cm floor. More than the 16
 * regions up to which every geom is tested against each, so the gathering
 * asks the sorted index of the geoms' reach boxes. With CCD no debris ends under the
 * floor; without, many do. */
static void test_debris_rain(void **state)
{
    (void)state;
    sccd_rain sc = {300, 40};
    sccd_rain_run on = sccd_rain_ode(sc, true, 0, 60, 3), off = sccd_rain_ode(sc, false, 0, 60, 3);
    print_message("debris rain (ODE, 300 + 40, 60 steps): %ld under the floor with CCD, %ld without; %llu TOIs\n",
                  on.passes, off.passes, (unsigned long long)on.tois);
    assert_true(on.finite && off.finite);
    assert_int_equal(on.passes, 0);
    assert_true(off.passes > 0);
    assert_true(on.tois > 0);
}

/* Body b's pose in the core's terms (ODE's quaternions are w, x, y, z). */
static sccd_xf3 cube_pose(dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *q = dBodyGetQuaternion(b);
    return (sccd_xf3){{p[0], p[1], p[2]}, {q[1], q[2], q[3], q[0]}};
}

/* A CCD cube (half size 0.05) spinning about z, a body diagonal in the xy
 * plane (its corners then sweep out to the full bounding radius √3·0.05 =
 * 0.0866 from its centre), flown along +x at 36 m/s (0.6 m a step) past a
 * target whose near side is 0.076 from the cube's path: only the
 * diagonal's corners reach it, which the cube's half size (0.05) or the
 * corners' reach in any axis-aligned spin (√2·0.05 = 0.0707) does not. The
 * target: a static rod along z (radius 0.02), or a free ball (radius 0.1,
 * spinning at 50 rad/s about x, nothing else moving it) whose box only
 * its whole radius takes that close. The cube's poses without the target
 * (ODE's own integration) give, sampled densely along the motion the CCD
 * guards between them (sccd_motion3_between: about the centre of mass, the
 * short turn), how deep a corner goes into the target: the oracle. Returns
 * that depth, and in *hit whether the cube's velocity changed with the
 * target there (nothing else acts on it: no gravity, an isotropic
 * inertia). */
static double cube_past(ode_ccd_mode mode, bool ball, double phase, double spin, bool *hit)
{
    const double half = 0.05, v0 = 36.0, r = ball ? 0.1 : 0.02, cy = 0.076 + r;
    double depth = -INFINITY;
    for (int with_target = 0; with_target < 2; ++with_target) {
        ode_world w;
        ode_world_init(&w, with_target ? mode : ODE_CCD_OFF, 1, 0.0);
        if (with_target && ball) {
            dBodyID b = dBodyCreate(w.world);
            dMass bm;
            dMassSetSphereTotal(&bm, 1.0, r);
            dBodySetMass(b, &bm);
            dGeomSetBody(dCreateSphere(w.space, r), b);
            dBodySetPosition(b, 0.0, cy, 0.0);
            dBodySetAngularVel(b, 50.0, 0.0, 0.0);
        } else if (with_target) {
            dGeomSetPosition(dCreateCapsule(w.space, r, 1.0), 0.0, cy, 0.0);
        }
        dBodyID cube = dBodyCreate(w.world);
        dMass m;
        dMassSetBoxTotal(&m, 0.1, 2.0 * half, 2.0 * half, 2.0 * half);
        dBodySetMass(cube, &m);
        dGeomSetBody(dCreateBox(w.space, 2.0 * half, 2.0 * half, 2.0 * half), cube);
        /* (1, 1, 1) onto (cos phase, sin phase, 0): about z by phase after (1, 1, 1) onto x */
        sccd_v3 across = sccd_v3_normalize((sccd_v3){0.0, 1.0, -1.0});
        sccd_quat diagonal_on_x = sccd_quat_axis_angle(across, acos(1.0 / sqrt(3.0)));
        sccd_quat tilt = sccd_quat_mul(sccd_quat_axis_angle((sccd_v3){0.0, 0.0, 1.0}, phase), diagonal_on_x);
        dQuaternion q = {tilt.w, tilt.x, tilt.y, tilt.z};
        dBodySetQuaternion(cube, q);
        dBodySetPosition(cube, -0.9, 0.0, 0.0);
        dBodySetLinearVel(cube, v0, 0.0, 0.0);
        dBodySetAngularVel(cube, 0.0, 0.0, spin);
        ode_world_ccd_body(&w, cube, 0.0, 0.0, 0.0);
        for (int s = 0; s < 3; ++s) {
            sccd_xf3 x0 = cube_pose(cube);
            ode_world_step(&w);
            if (with_target)
                continue;
            sccd_motion3 mo = sccd_motion3_between(x0, cube_pose(cube), (sccd_v3){0.0, 0.0, 0.0});
            for (int i = 0; i <= 400; ++i) {
                sccd_xf3 x = sccd_motion3_at(mo, i / 400.0);
                for (int c = 0; c < 8; ++c) {
                    sccd_v3 corner = {c & 1 ? half : -half, c & 2 ? half : -half, c & 4 ? half : -half};
                    sccd_v3 p = sccd_xf3_apply(x, corner);
                    depth = fmax(depth, r - (ball ? sccd_v3_len((sccd_v3){p.x, p.y - cy, p.z}) : hypot(p.x, p.y - cy)));
                }
            }
        }
        const dReal *v = dBodyGetLinearVel(cube);
        if (with_target)
            *hit = fabs(v[0] - v0) + fabs(v[1]) + fabs(v[2]) > 0.1;
        ode_world_free(&w);
    }
    return depth;
}

/* What a CCD body's gathering asks for holds every point of it all step
 * long (sccd_ode_gather.c's gather_ccd_geom: its centre's path grown by its
 * geom's bounding radius), and so does what it finds of a ball (its first
 * reach: its centre's path grown by its radius, exact_reach): every cube
 * whose corner goes 5 mm or more into the target (past the 3 mm skin the
 * solver lets a pair sink by, the default overlap's three) is stopped or
 * turned with the CCD; without, ODE's step, which sees the cube 0.6 m
 * apart, misses most of them. A cube's region grown by less than 0.074
 * (the target's near side less twice the overlap), or a ball's reach by
 * less than 0.087 of its 0.1, would leave the target out, and the cubes
 * would pass. */
static void test_spinning_cube_corner_meets_rod_and_ball(void **state)
{
    (void)state;
    for (int ball = 0; ball < 2; ++ball) {
        sccd_rng rng = sccd_rng_make(77);
        int deep = 0, missed = 0, missed_without = 0;
        for (int k = 0; k < 300; ++k) {
            double phase = sccd_rng_uniform(&rng, -M_PI, M_PI), spin = sccd_rng_uniform(&rng, 20.0, 80.0);
            bool hit, hit_without;
            double depth = cube_past(ODE_CCD_SECTOR, ball, phase, spin, &hit);
            cube_past(ODE_CCD_OFF, ball, phase, spin, &hit_without);
            if (depth < 0.005)
                continue;
            ++deep;
            missed += !hit;
            missed_without += !hit_without;
        }
        print_message("cube corners 5 mm or more into the %s: %d of 300; passed with CCD %d, without %d\n",
                      ball ? "ball" : "rod", deep, missed, missed_without);
        assert_true(deep >= 20);
        assert_int_equal(missed, 0);
        assert_true(missed_without > deep / 2);
    }
}

/* Bad use: a clear error (the assert handler fires, last_error names it), and nothing breaks. */
/* A kinematic bat (a 1 × 0.06 × 0.06 box from its pivot at the origin) in
 * finite rotation mode turning at 400 rad/s about z — 6.7 rad a step, more
 * than a whole turn — from angle a0 < 0, and a still ball of radius 0.05
 * in front of its face at 0.75 m: one step with the CCD, the step length
 * told (dt) or read (0: nothing else moves, so the turn can be read only a
 * whole turn short), then bad lengths when `bad` (reported, each ignored).
 * Whether the ball was hit: it leaves the face at about the bat's speed
 * there (300 m/s), an independent check on ODE's state. */
static bool bat_hits_in_first_step(double a0, double dt, bool bad)
{
    dWorldID world = dWorldCreate();
    dSpaceID space = dSimpleSpaceCreate(0);
    sccd_ode_world *w = sccd_ode_attach(world, space);
    dBodyID bat = dBodyCreate(world), ball = dBodyCreate(world);
    dBodySetKinematic(bat);
    dGeomID g = dCreateBox(space, 1.0, 0.06, 0.06);
    dGeomSetBody(g, bat);
    dGeomSetOffsetPosition(g, 0.5, 0.0, 0.0);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, a0);
    dBodySetRotation(bat, r);
    dBodySetAngularVel(bat, 0.0, 0.0, 400.0);
    dBodySetFiniteRotationMode(bat, 1);
    dMass m;
    dMassSetSphereTotal(&m, 1.0, 0.05);
    dBodySetMass(ball, &m);
    dGeomSetBody(dCreateSphere(space, 0.05), ball);
    dBodySetPosition(ball, 0.75, 0.08, 0.0);
    sccd_ode_body_enable(w, bat);
    sccd_ode_set_step_length(w, dt);
    if (bad) {
        sccd_ode_set_step_length(w, NAN);
        sccd_ode_set_step_length(w, -0.01);
        sccd_ode_set_step_length(w, INFINITY);
        assert_string_equal(sccd_ode_last_error(w), "sccd_ode_set_step_length: the length must be finite and >= 0");
        assert_int_equal(sccd_ode_get_counters(w).errors, 3);
    }
    sccd_ode_before_step(w);
    dWorldStep(world, 1.0 / 60.0); /* no contacts: nothing touches at the start */
    sccd_ode_after_step(w);
    const dReal *v = dBodyGetLinearVel(ball);
    bool hit = hypot(v[0], v[1]) > 100.0;
    sccd_ode_detach(w);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    return hit;
}

/* A whole turn and more a step in finite rotation mode: told the step, the
 * CCD hits the ball at every phase of the first step; read from ODE's
 * integration with nothing moving, it misses (the documented limit: the
 * check can fail). Bad lengths are reported and change nothing. */
static void test_step_length_told(void **state)
{
    (void)state;
    int told = 0, read = 0, phases = 0;
    for (double a0 = -0.3; a0 > -6.2; a0 -= 0.37, ++phases) {
        told += bat_hits_in_first_step(a0, 1.0 / 60.0, false);
        read += bat_hits_in_first_step(a0, 0.0, false);
    }
    print_message("bat at 6.7 rad a step, first step: told the step %d of %d hit, read %d\n", told, phases, read);
    assert_int_equal(told, phases);
    assert_true(read < phases);
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    assert_true(bat_hits_in_first_step(-3.0, 1.0 / 60.0, true)); /* the told length kept */
    sccd_ode_set_step_length(NULL, 0.01);
    assert_int_equal(sccd_test_assert_count(), 4);
    sccd_set_assert_handler(NULL);
}

static void test_bad_use(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    dWorldID world = dWorldCreate(), other = dWorldCreate();
    dSpaceID space = dSimpleSpaceCreate(0), elsewhere = dSimpleSpaceCreate(0);
    sccd_test_assert_reset();
    assert_null(sccd_ode_attach(NULL, space));
    assert_null(sccd_ode_attach(world, NULL)); /* a world without the space */
    assert_int_equal(sccd_test_assert_count(), 2);
    sccd_ode_world *w = sccd_ode_attach(world, space);
    assert_non_null(w);
    assert_string_equal(sccd_ode_last_error(w), "");

    dBodyID bare = dBodyCreate(world);
    sccd_ode_body_enable(w, bare); /* a body without geoms */
    assert_false(sccd_ode_body_is_enabled(w, bare));
    dBodyID foreign = dBodyCreate(other);
    dGeomSetBody(dCreateSphere(space, 0.1), foreign);
    sccd_ode_body_enable(w, foreign); /* another world's body */
    dBodyID away = dBodyCreate(world);
    dGeomSetBody(dCreateSphere(elsewhere, 0.1), away);
    sccd_ode_body_enable(w, away); /* geoms in another space */
    sccd_ode_body_enable(w, NULL);
    sccd_ode_body_enable(NULL, bare);
    dBodyID ok = dBodyCreate(world);
    dGeomSetBody(dCreateSphere(space, 0.1), ok);
    sccd_ode_body_enable(w, ok);
    sccd_ode_body_enable(w, ok); /* twice */
    sccd_ode_body_disable(w, bare); /* not enabled */
    dReal nan_pivot[3] = {NAN, 0.0, 0.0};
    sccd_ode_body_set_pivot(w, ok, nan_pivot);
    sccd_ode_body_set_pivot(w, ok, NULL);
    sccd_ccd_options o = sccd_ode_get_options(w);
    sccd_ccd_options bad = {-1.0, NAN, 0, (sccd_candidates)7};
    sccd_ode_set_options(w, bad); /* four bad fields, each reported, each kept */
    sccd_ccd_options kept = sccd_ode_get_options(w);
    assert_true(kept.overlap == o.overlap && kept.toi_tolerance == o.toi_tolerance);
    assert_int_equal(kept.toi_max_iterations, o.toi_max_iterations);
    assert_int_equal(kept.candidates, o.candidates);
    assert_string_equal(sccd_ode_last_error(w), "sccd_ode_set_options: candidates is not a sccd_candidates value");
    sccd_ode_after_step(w); /* before_step not called */
    sccd_ode_before_step(NULL);
    sccd_ode_after_step(NULL);
    sccd_ode_reset_counters(NULL);
    sccd_ode_set_options(NULL, o);
    assert_true(sccd_ode_body_is_enabled(w, ok));
    /* 1 no geom + foreign + away + 2 NULL + twice + disable unknown + 2 pivots + 4 options + after + 5 NULL worlds */
    assert_int_equal(sccd_ode_get_counters(w).errors, 1 + 1 + 1 + 1 + 1 + 1 + 2 + 4 + 1);
    assert_int_equal(sccd_test_assert_count(), 2 + 1 + 1 + 1 + 2 + 1 + 1 + 2 + 4 + 1 + 4);
    assert_true(strlen(sccd_ode_last_error(w)) > 0);

    /* The materials: NaN, negative, NULL geom and NULL world are reported and change nothing. */
    sccd_ode_reset_counters(w);
    sccd_test_assert_reset();
    dGeomID ball_geom = dBodyGetFirstGeom(ok);
    sccd_ode_geom_set_material(w, ball_geom, NAN, 0.5);
    sccd_ode_geom_set_material(w, ball_geom, 0.5, -1.0);
    sccd_ode_geom_set_material(w, NULL, 0.5, 0.5);
    sccd_ode_geom_set_material(NULL, ball_geom, 0.5, 0.5);
    sccd_ode_set_impact_callback(NULL, NULL, NULL);
    assert_int_equal(sccd_ode_get_counters(w).errors, 3);
    assert_int_equal(sccd_test_assert_count(), 5);
    sccd_ode_geom_set_material(w, ball_geom, 0.5, 0.5); /* a valid one is taken silently */
    assert_int_equal(sccd_test_assert_count(), 5);

    /* NaN velocity: reported and zeroed before the step, so the step stays finite. */
    sccd_ode_reset_counters(w);
    dBodySetLinearVel(ok, NAN, 0.0, 0.0);
    sccd_ode_before_step(w);
    dWorldStep(world, 1.0 / 60.0);
    sccd_ode_after_step(w);
    assert_int_equal(sccd_ode_get_counters(w).errors, 1);
    const dReal *p = dBodyGetPosition(ok);
    assert_true(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));

    /* A NaN pose after the step: put back at its start, at rest. */
    sccd_ode_before_step(w);
    dWorldStep(world, 1.0 / 60.0);
    dBodySetPosition(ok, NAN, 0.0, 0.0);
    sccd_ode_after_step(w);
    assert_int_equal(sccd_ode_get_counters(w).errors, 2);
    p = dBodyGetPosition(ok);
    assert_true(isfinite(p[0]));

    sccd_ode_counters zero = sccd_ode_get_counters(NULL);
    assert_int_equal(zero.steps, 0);
    sccd_ode_detach(w);
    sccd_ode_detach(NULL);
    dSpaceDestroy(space);
    dSpaceDestroy(elsewhere);
    dWorldDestroy(world);
    dWorldDestroy(other);
    sccd_set_assert_handler(NULL);
}

/* A kinematic bat turning 100 rad/s strikes a ball (CCD on too, as a
 * projectile's would be) at phase a0 of the first step; everything is
 * elastic (e = 1), so the ball flies off at some 125 m/s. With `wall`, a
 * thin static wall stands at y = WALL_Y, beyond what the bat's motion and
 * the ball's (at rest) reach in that step: only the solver's question
 * about the struck ball (what it may reach in the rest of the step) brings
 * the wall into that step's solve. The ball's greatest y over three steps. */
#define WALL_Y 1.5
static double batted_ball_y(double a0, bool wall)
{
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, 0.0);
    dBodyID bat = dBodyCreate(w.world), ball = dBodyCreate(w.world);
    dBodySetKinematic(bat);
    dGeomID g = dCreateBox(w.space, 1.0, 0.06, 0.06), gb = dCreateSphere(w.space, 0.05);
    dGeomSetBody(g, bat);
    dGeomSetOffsetPosition(g, 0.5, 0.0, 0.0);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, a0);
    dBodySetRotation(bat, r);
    dBodySetAngularVel(bat, 0.0, 0.0, 100.0);
    dMass m;
    dMassSetSphereTotal(&m, 1.0, 0.05);
    dBodySetMass(ball, &m);
    dGeomSetBody(gb, ball);
    dBodySetPosition(ball, 0.75, 0.08, 0.0);
    ode_world_ccd_body(&w, bat, 0.0, 0.0, 0.0);
    ode_world_ccd_body(&w, ball, 0.0, 0.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, g, 1.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, gb, 1.0, 0.0);
    if (wall) {
        dGeomID wg = dCreateBox(w.space, 4.0, 0.01, 0.4);
        dGeomSetPosition(wg, 0.0, WALL_Y, 0.0);
        sccd_ode_geom_set_material(w.ccd, wg, 1.0, 0.0);
    }
    double most = -INFINITY;
    for (int i = 0; i < 3; ++i) {
        ode_world_step(&w);
        most = fmax(most, dBodyGetPosition(ball)[1]);
    }
    ode_world_free(&w);
    return most;
}

/* The struck ball never crosses the wall (judged on ODE's poses); with the
 * wall gone it crosses that line within three steps at every phase, and in
 * the very step it was struck at the later ones (the ones a solve without
 * the question lets through), so the judge can fail. */
static void test_batted_ball_meets_wall_beyond_bat(void **state)
{
    (void)state;
    int with, without, phases;
    sccd_test_batted_ball(batted_ball_y, WALL_Y, &with, &without, &phases);
    assert_int_equal(with, 0);
    assert_int_equal(without, phases);
}

/* test_cp_ccd.c's flying ball in ODE: a kinematic box bat sends an
 * ordinary sphere (no CCD of its own) flying at a thin slab (2 cm) two or
 * five steps of its flight away; ODE alone would carry it through, the CCD
 * follows it while it flies: it bounces off the slab and never crosses its
 * plane (judged on ODE's poses, step by step). */
static void flying_ball_ode(sccd_test_flying *c)
{
    const double hb = 0.05, r = 0.1, e = 0.8;
    double a0;
    sccd_v2 at, mid, n;
    sccd_test_flying_setup(c, hb, r, e, &a0, &at, &mid, &n);
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, 0.0);
    dBodyID bat = dBodyCreate(w.world), ball = dBodyCreate(w.world);
    dBodySetKinematic(bat);
    dBodySetFiniteRotationMode(bat, 1); /* turns by w·dt, as the setup takes it */
    dGeomID g = dCreateBox(w.space, 2.0, 2.0 * hb, 2.0 * hb), gb = dCreateSphere(w.space, r);
    dGeomSetBody(g, bat);
    dGeomSetOffsetPosition(g, 1.0, 0.0, 0.0);
    dMatrix3 rot;
    dRFromAxisAndAngle(rot, 0.0, 0.0, 1.0, a0);
    dBodySetRotation(bat, rot);
    dBodySetAngularVel(bat, 0.0, 0.0, c->w);
    dMass m;
    dMassSetSphereTotal(&m, 1.0, r);
    dBodySetMass(ball, &m);
    dGeomSetBody(gb, ball);
    dBodySetPosition(ball, at.x, at.y, 0.0);
    dGeomID wall = dCreateBox(w.space, 0.02, 2000.0, 1.0);
    dGeomSetPosition(wall, mid.x, mid.y, 0.0);
    dRFromAxisAndAngle(rot, 0.0, 0.0, 1.0, atan2(n.y, n.x));
    dGeomSetRotation(wall, rot);
    ode_world_ccd_body(&w, bat, 0.0, 0.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, g, 1.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, gb, e, 0.0);
    sccd_ode_geom_set_material(w.ccd, wall, 1.0, 0.0);
    double side = sccd_v2_dot(sccd_v2_sub(at, mid), n); /* < 0: the ball's side */
    bool flew = false;
    for (int step = 0; step < 12; ++step) {
        ode_world_step(&w);
        dBodySetAngularVel(bat, 0.0, 0.0, 0.0); /* one swing */
        const dReal *p = dBodyGetPosition(ball), *v = dBodyGetLinearVel(ball);
        double now = sccd_v2_dot(sccd_v2_sub((sccd_v2){p[0], p[1]}, mid), n), vn = v[0] * n.x + v[1] * n.y;
        c->crossed |= (side < 0.0) != (now < 0.0);
        side = now;
        flew |= vn > 0.0;
        c->bounced |= flew && vn < 0.0;
    }
    c->followed = sccd_ode_get_counters(w.ccd).struck > 0;
    ode_world_free(&w);
}

static void test_flying_ball_followed(void **state)
{
    (void)state;
    int crossed, bounced, followed, cases;
    sccd_test_flying_ball(flying_ball_ode, &crossed, &bounced, &followed, &cases);
    printf("ode_ccd: flying balls, %d cases: %d crossed the slab, %d bounced off it, %d followed\n", cases, crossed, bounced, followed);
    assert_int_equal(crossed, 0);
    assert_int_equal(bounced, cases);
    assert_int_equal(followed, cases);
}

/* A CCD plate at rest whose region meets nothing at the step's start is
 * left out of the solve (idle, sccd_ode_gather.c's leave_idle) until a
 * question meets it: a kinematic CCD bat at 60 m/s strikes a ball (no CCD
 * of its own) at rest, which leaves at up to 120 m/s and reaches the plate
 * in the same step, beyond the bat's reach. Judged on ODE's poses: the
 * ball never gets past the plate's far face. Without the CCD the bat
 * passes through the ball, which stays (the check cannot fail there, so it
 * runs with the CCD only; the plate joining the solve is what it tests:
 * without that join the ball went through the plate in every case). */
static bool ball_passes_idle_plate(double gap, double speed, double off)
{
    const double r = 0.1, hb = 0.1, ht = 0.01;
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, 0.0);
    dBodyID bat = dBodyCreate(w.world), ball = dBodyCreate(w.world), plate = dBodyCreate(w.world);
    dBodySetKinematic(bat);
    dGeomID gbat = dCreateBox(w.space, 2.0 * hb, 2.0 * hb, 2.0 * hb), gball = dCreateSphere(w.space, r);
    dGeomID gplate = dCreateBox(w.space, 2.0 * ht, 1.0, 1.0);
    dGeomSetBody(gbat, bat);
    dGeomSetBody(gball, ball);
    dGeomSetBody(gplate, plate);
    dMass m;
    dMassSetSphereTotal(&m, 1.0, r);
    dBodySetMass(ball, &m);
    dMassSetBoxTotal(&m, 1.0, 2.0 * ht, 1.0, 1.0);
    dBodySetMass(plate, &m);
    dBodySetPosition(bat, -r - hb - gap, off, 0.0);
    dBodySetLinearVel(bat, speed, 0.0, 0.0);
    double px = speed / 60.0 + 0.3 + 0.2 * gap; /* past the bat's reach (its box's corners and its move) */
    dBodySetPosition(plate, px, 0.0, 0.0);
    ode_world_ccd_body(&w, bat, 0.0, 0.0, 0.0);
    ode_world_ccd_body(&w, plate, 0.0, 0.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, gbat, 1.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, gball, 1.0, 0.0);
    sccd_ode_geom_set_material(w.ccd, gplate, 1.0, 0.0);
    bool passed = false, joined = false;
    for (int step = 0; step < 6; ++step) {
        ode_world_step(&w);
        dBodySetLinearVel(bat, 0.0, 0.0, 0.0); /* one swing */
        passed |= dBodyGetPosition(ball)[0] > dBodyGetPosition(plate)[0];
        joined |= step == 0 && sccd_ode_get_counters(w.ccd).joined == 1; /* the plate, in the swing's step */
    }
    bool struck = dBodyGetLinearVel(ball)[0] != 0.0 || dBodyGetPosition(ball)[0] != 0.0;
    ode_world_free(&w);
    return passed || !struck || !joined;
}

static void test_idle_body_joins_when_met(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(7u);
    for (int i = 0; i < 40; ++i) {
        double gap = sccd_rng_uniform(&g, 0.02, 0.1), speed = sccd_rng_uniform(&g, 40.0, 80.0);
        double off = sccd_rng_uniform(&g, -0.05, 0.05);
        if (ball_passes_idle_plate(gap, speed, off))
            fail_msg("case %d (gap %g, speed %g, offset %g): the ball passed the plate, was never struck, or the plate "
                     "was not counted as joined", i, gap,
                     speed, off);
    }
    /* a spinning CCD cube alone, nothing near it: idle every step, never joined */
    ode_world w;
    ode_world_init(&w, ODE_CCD_SECTOR, 1, 0.0);
    dBodyID cube = dBodyCreate(w.world);
    dGeomSetBody(dCreateBox(w.space, 0.1, 0.1, 0.1), cube);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 0.1, 0.1, 0.1);
    dBodySetMass(cube, &m);
    dBodySetAngularVel(cube, 0.0, 30.0, 0.0);
    ode_world_ccd_body(&w, cube, 0.0, 0.0, 0.0);
    for (int step = 0; step < 3; ++step)
        ode_world_step(&w);
    sccd_ode_counters k = sccd_ode_get_counters(w.ccd);
    assert_int_equal(k.idle, 3);
    assert_int_equal(k.joined, 0);
    ode_world_free(&w);
}

/* Scenes the scene fuzzer found passing through with the CCD (judged by
 * its own geometry on ODE's poses): each must hold now, and pass without
 * the CCD. Seed 1, scenes 512, 588 and 1732: two CCD bodies (a kinematic
 * blade and a flyer) whose pair, past its overlap limit, was held to "no
 * deeper than it stands": they passed through each other (the floor now
 * applies against static bodies only, test_cp_ccd's test_fuzzer_scenes).
 * Scene 72826: a thin box on a slow motor pressing into a plane, allowed a
 * tolerance deeper than it stood at each step, went through it. Scene
 * 53474: a crowd riding a thin kinematic rotor; every push the rotor gave
 * a ball restarted the rotor for its riders, which let go of it and were
 * carried again at the same instant, until the solver's guard ran out and
 * the rotor swept on through the ball it was pushing (a kinematic body
 * now keeps its riders: its motion does not change). Seeds 71 and 81,
 * scenes 27552 and 89741: no pass-through but the judge's own: a hinged
 * body a fast blade spun up turned more than π in a step (the CCD's
 * impacts, or ODE's own finite rotation after them), away from what
 * blocks it, and was read as the shorter turn the other way, through it;
 * the judge now bounds a hinged body's turn by the energy within its
 * reach. Scene 89741 does not pass without the CCD. */
static void test_fuzzer_scenes(void **state)
{
    (void)state;
    static const struct { uint64_t seed; int index; bool hard; } found[] = {{1, 512, true},    {1, 588, true},   {1, 1732, true},
                                                                             {1, 72826, true},  {1, 53474, true}, {71, 27552, true},
                                                                             {81, 89741, false}};
    for (size_t i = 0; i < sizeof found / sizeof found[0]; ++i) {
        sccd_fz_result with = sccd_fz_run_ode(found[i].seed, found[i].index, SCCD_FZ_HOME, SCCD_FZ_CCD, NULL, NULL);
        sccd_fz_result without = sccd_fz_run_ode(found[i].seed, found[i].index, SCCD_FZ_HOME, SCCD_FZ_OFF, NULL, NULL);
        if (with.passed)
            printf("ode: fuzzer scene %d of seed %llu passes: %s\n", found[i].index, (unsigned long long)found[i].seed, with.judge);
        assert_false(with.passed);
        assert_true(without.passed || !found[i].hard);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blade_never_passes_plate),
        cmocka_unit_test(test_kinematic_bat_hits_every_swing),
        cmocka_unit_test(test_rotor_never_lets_sphere_through),
        cmocka_unit_test(test_swords_never_pass_each_other),
        cmocka_unit_test(test_geom_classes_stop_fast_sphere),
        cmocka_unit_test(test_bounded_targets_do_not_hover),
        cmocka_unit_test(test_touching_pairs_keep_moving),
        cmocka_unit_test(test_compound_sword_reaches_small_spheres),
        cmocka_unit_test(test_resting_body_slides),
        cmocka_unit_test(test_ccd_bodies_auto_disable),
        cmocka_unit_test(test_long_run_no_nan),
        cmocka_unit_test(test_destroyed_bodies_forgotten),
        cmocka_unit_test(test_same_body_and_disable),
        cmocka_unit_test(test_debris_rain),
        cmocka_unit_test(test_spinning_cube_corner_meets_rod_and_ball),
        cmocka_unit_test(test_step_length_told),
        cmocka_unit_test(test_batted_ball_meets_wall_beyond_bat),
        cmocka_unit_test(test_flying_ball_followed),
        cmocka_unit_test(test_idle_body_joins_when_met),
        cmocka_unit_test(test_bad_use),
        cmocka_unit_test(test_fuzzer_scenes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
