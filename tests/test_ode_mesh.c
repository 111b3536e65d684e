/* Mesh CCD bodies in ODE: a modelled bat and a modelled sword (the core's
 * generated meshes as ODE trimeshes) swung on a hinge into a thin plate, a
 * ball and a mesh post; and bad meshes.
 *
 * Oracles: pass-throughs are judged on ODE's own poses (ode_mesh_scenes.c:
 * the weapon's unwrapped angle past the target's mid-plane; for the ball,
 * the weapon clear past it while the ball stayed where it was), never by the
 * adapter's counters. The judge's premise, that angle 0 cannot be reached
 * without the triangles going through the target, is checked here by brute
 * force over the triangles at densely sampled angles. Each scene also runs
 * without CCD, where the same judge must see pass-throughs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "ode_mesh_scenes.h"
#include "test_util.h"

/* Swing speeds, log-spread over 5–180 rad/s, and phases per speed. */
static const double speeds[] = {5, 9, 16, 30, 54, 100, 180};
enum { NSPEEDS = 7, PHASES = 5 };

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

/* ---- the judge's premise, by brute force ---- */

static sccd_triangle placed(const sccd_mesh *m, int i, sccd_xf3 x)
{
    sccd_triangle t = sccd_mesh_triangle(m, i);
    return (sccd_triangle){sccd_xf3_apply(x, t.a), sccd_xf3_apply(x, t.b), sccd_xf3_apply(x, t.c)};
}

/* Whether weapon mesh w turned by angle a about z meets the target: the
 * plate box (post NULL) or every triangle pair with the post. */
static bool weapon_meets(const sccd_mesh *w, double a, const sccd_mesh *post)
{
    sccd_xf3 x = {{0, 0, 0}, sccd_quat_axis_angle((sccd_v3){0, 0, 1}, a)};
    sccd_shape3 plate = ode_mesh_plate();
    for (int i = 0; i < w->nt; ++i) {
        sccd_triangle t = placed(w, i, x);
        if (post == NULL && sccd_shape3_vs_triangle(&plate, t))
            return true;
        for (int j = 0; post != NULL && j < post->nt; ++j)
            if (sccd_triangle_vs_triangle(t, sccd_mesh_triangle(post, j)))
                return true;
    }
    return false;
}

/* Angles in [-0.5, 0.5] every 0.005 rad: the weapon meets the plate and the
 * post on one interval about 0 (symmetric within a sample), so past angle 0
 * it went through the target, and it starts clear (below -0.35). */
static void test_judge_premise(void **state)
{
    (void)state;
    sccd_mesh w, post;
    sccd_mesh_init(&w);
    sccd_mesh_init(&post);
    assert_true(ode_mesh_post_mesh(&post));
    for (int k = 0; k < 2; ++k) {
        assert_true(ode_mesh_weapon_mesh(&w, k == 0 ? ODE_MESH_BAT : ODE_MESH_SWORD));
        for (int target = 0; target < 2; ++target) {
            const sccd_mesh *p = target == 0 ? NULL : &post;
            double lo = INFINITY, hi = -INFINITY;
            for (int s = -100; s <= 100; ++s)
                if (weapon_meets(&w, 0.005 * s, p)) {
                    lo = fmin(lo, 0.005 * s);
                    hi = fmax(hi, 0.005 * s);
                }
            print_message("%s vs %s: meets over [%.3f, %.3f] rad\n", k == 0 ? "bat" : "sword", target == 0 ? "plate" : "post", lo, hi);
            assert_true(lo < 0.0 && hi > 0.0 && lo > -0.35);
            assert_true(fabs(lo + hi) <= 0.0051);
            for (double a = lo; a <= hi; a += 0.005)
                assert_true(weapon_meets(&w, a, p));
        }
    }
    sccd_mesh_destroy(&w);
    sccd_mesh_destroy(&post);
}

/* ---- the scenes ---- */

/* A weapon and a target, as ode_tally_run takes a scene. */
typedef struct mesh_scene { ode_mesh_weapon weapon; ode_mesh_target target; } mesh_scene;

static ode_trial mesh_trial(const void *scene, ode_ccd_mode mode, double speed, double phase)
{
    const mesh_scene *m = scene;
    return ode_trial_mesh(mode, 1, m->weapon, m->target, speed, phase, NULL, NULL);
}

/* Pass-throughs of one weapon and target over the speeds × phases. */
static ode_tally run_scene(ode_mesh_weapon weapon, ode_mesh_target target, const char *what)
{
    mesh_scene scene = {weapon, target};
    return ode_tally_run(mesh_trial, &scene, what, speeds, NSPEEDS, PHASES);
}

/* With CCD no pass-through, and the game heard the hit in every trial;
 * without, pass-throughs in many trials (the judge can see them). */
static void assert_holds(ode_tally t)
{
    assert_int_equal(t.with, 0);
    assert_int_equal(t.touched, t.n);
    assert_true(3 * t.without >= t.n);
}

static void test_mesh_bat(void **state)
{
    (void)state;
    assert_holds(run_scene(ODE_MESH_BAT, ODE_MESH_PLATE, "mesh bat vs plate"));
    assert_holds(run_scene(ODE_MESH_BAT, ODE_MESH_BALL, "mesh bat vs ball"));
    assert_holds(run_scene(ODE_MESH_BAT, ODE_MESH_POST, "mesh bat vs mesh post"));
}

static void test_mesh_sword(void **state)
{
    (void)state;
    assert_holds(run_scene(ODE_MESH_SWORD, ODE_MESH_PLATE, "mesh sword vs plate"));
    assert_holds(run_scene(ODE_MESH_SWORD, ODE_MESH_BALL, "mesh sword vs ball"));
    assert_holds(run_scene(ODE_MESH_SWORD, ODE_MESH_POST, "mesh sword vs mesh post"));
}

/* ---- bad meshes ---- */

/* A body with trimesh g, in world and space. */
static dBodyID mesh_body(dWorldID world, dGeomID g)
{
    dBodyID b = dBodyCreate(world);
    dGeomSetBody(g, b);
    dBodySetAngularVel(b, 0.0, 0.0, 50.0);
    return b;
}

/* ODE trimesh data of one triangle with a vertex not finite (ODE builds it as it is). */
static dTriMeshDataID nan_data(double v[9], dTriIndex idx[3])
{
    dTriMeshDataID d = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(d, v, 3 * sizeof(double), 3, idx, 3, 3 * sizeof(dTriIndex));
    return d;
}

/* One CCD step without ODE's collision (which itself cannot take a trimesh without data). */
static void bare_step(sccd_ode_world *w, dWorldID world)
{
    sccd_ode_before_step(w);
    dWorldStep(world, 1.0 / 60.0);
    sccd_ode_after_step(w);
}

/* Core meshes ODE cannot be given (none, empty, NaN vertex, index out of
 * range) are refused by sccd_ode_trimesh_init; trimeshes without data or
 * with a NaN vertex are refused at enable, skipped (reported) when they turn
 * bad later, and a static trimesh without data is passed over; poses stay
 * finite and nothing crashes. */
static void test_bad_meshes(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_ode_trimesh t = {0};
    sccd_mesh m;
    sccd_mesh_init(&m);
    assert_false(sccd_ode_trimesh_init(&t, NULL));
    assert_false(sccd_ode_trimesh_init(&t, &m)); /* no triangle */
    assert_false(sccd_ode_trimesh_init(NULL, &m));
    assert_true(sccd_mesh_box(&m, (sccd_v3){0.1, 0.1, 0.1}));
    m.v[3].y = NAN;
    assert_false(sccd_ode_trimesh_init(&t, &m));
    m.v[3].y = 0.1;
    m.t[2][1] = m.nv; /* out of range */
    assert_false(sccd_ode_trimesh_init(&t, &m));
    assert_null(t.data);
    assert_int_equal(sccd_test_assert_count(), 5);
    m.t[2][1] = 0;
    sccd_ode_trimesh_destroy(&t); /* empty: nothing */
    sccd_ode_trimesh_destroy(NULL);

    dWorldID world = dWorldCreate();
    dSpaceID space = dSimpleSpaceCreate(0);
    sccd_ode_world *w = sccd_ode_attach(world, space);
    dBodyID no_data = mesh_body(world, dCreateTriMesh(space, NULL, NULL, NULL, NULL));
    sccd_ode_body_enable(w, no_data);
    assert_false(sccd_ode_body_is_enabled(w, no_data));
    assert_non_null(strstr(sccd_ode_last_error(w), "no data"));
    double v[9] = {0, 0, 0, 0.1, 0, 0, NAN, 0.1, 0};
    dTriIndex idx[3] = {0, 1, 2};
    dTriMeshDataID bad = nan_data(v, idx);
    dBodyID nan_body = mesh_body(world, dCreateTriMesh(space, bad, NULL, NULL, NULL));
    sccd_ode_body_enable(w, nan_body);
    assert_false(sccd_ode_body_is_enabled(w, nan_body));
    assert_non_null(strstr(sccd_ode_last_error(w), "not finite"));

    /* A good mesh body; then its data turns bad: the step skips the mesh. */
    assert_true(sccd_ode_trimesh_init(&t, &m));
    dGeomID g = dCreateTriMesh(space, t.data, NULL, NULL, NULL);
    dBodyID good = mesh_body(world, g);
    sccd_ode_body_enable(w, good);
    assert_true(sccd_ode_body_is_enabled(w, good));
    sccd_ode_reset_counters(w);
    bare_step(w, world);
    assert_int_equal(sccd_ode_get_counters(w).errors, 0);
    dGeomTriMeshSetData(g, bad);
    bare_step(w, world);
    sccd_ode_counters c = sccd_ode_get_counters(w);
    assert_int_equal(c.errors, 1);
    assert_true(c.unsupported >= 1);
    const dReal *p = dBodyGetPosition(good);
    assert_true(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
    dGeomTriMeshSetData(g, t.data);
    bare_step(w, world); /* good again: the no-data trimesh near it (static now) is passed over */
    dGeomSetBody(dBodyGetFirstGeom(no_data), 0);
    bare_step(w, world);
    assert_int_equal(sccd_ode_get_counters(w).errors, 1);

    sccd_ode_detach(w);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dGeomTriMeshDataDestroy(bad);
    sccd_ode_trimesh_destroy(&t);
    sccd_mesh_destroy(&m);
    sccd_set_assert_handler(NULL);
}

/* ---- out of memory ---- */

/* An allocator that fails one allocation: the `fail`-th (from 0) since reset. */
typedef struct failing { long count, fail; } failing;

static void *failing_alloc(size_t size, void *user)
{
    failing *f = user;
    return f->count++ == f->fail ? NULL : malloc(size);
}

static void failing_free(void *block, void *user)
{
    (void)user;
    free(block);
}

/* A mesh sword swung into a ball (its trimesh data, the world, the mesh
 * gathering and the solver's shape trees allocate) with each allocation in
 * turn failing: no crash (the sanitizer build checks the accesses), nothing
 * leaked. */
static void test_out_of_memory(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    failing f = {0, -1};
    sccd_allocator a = {failing_alloc, NULL, failing_free, &f};
    assert_true(sccd_set_allocator(&a));
    ode_trial_mesh(ODE_CCD_SECTOR, 1, ODE_MESH_SWORD, ODE_MESH_BALL, 54.0, 0.0, NULL, NULL);
    long total = f.count;
    assert_true(total > 10);
    for (long k = 0; k < total; ++k) {
        f = (failing){0, k};
        ode_trial_mesh(ODE_CCD_SECTOR, 1, ODE_MESH_SWORD, ODE_MESH_BALL, 54.0, 0.0, NULL, NULL);
        assert_int_equal(sccd_allocated_blocks(), 0);
    }
    print_message("mesh sword vs ball: each of %ld allocations failed in turn, nothing leaked\n", total);
    assert_true(sccd_set_allocator(NULL));
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge_premise),
        cmocka_unit_test(test_mesh_bat),
        cmocka_unit_test(test_mesh_sword),
        cmocka_unit_test(test_bad_meshes),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
