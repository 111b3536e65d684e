/* Misuse of the Chipmunk CCD adapter that games really make (issue 16):
 * each gets the behaviour sectorccd_chipmunk.h documents — a clear error
 * (the assert handler, sccd_cp_last_error, counters.errors) where it is a
 * misuse, and a defined result: no crash, no NaN, no state lost, no CCD
 * sweep across a teleport. Outcomes are judged on Chipmunk's own poses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <chipmunk/chipmunk_private.h> /* white-box: a body's position function, cpBodyInit on our memory */
#include "sectorccd_chipmunk.h"
#include "test_util.h"
#include "cp_support.h"

#define DT (1.0 / 60.0)

enum { TYPE_MOVER = 1, TYPE_WALL = 2 };

static cpBool count_begin(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
    (void)arb;
    (void)space;
    ++*(int *)data;
    return cpTrue;
}

typedef struct scene {
    cpSpace *space;
    sccd_cp_world *ccd;
    cpShape *wall;  /* static, 2 thick, x from 50 to 52 */
    int begins;     /* mover-wall begin calls */
} scene;

/* A space with a thin static wall across y -100..100 at x 50..52, a
 * counting begin handler for movers against it, CCD attached. */
static void scene_init(scene *s)
{
    memset(s, 0, sizeof *s);
    s->space = cpSpaceNew();
    s->wall = cpSpaceAddShape(s->space, cpBoxShapeNew2(cpSpaceGetStaticBody(s->space), cpBBNew(50, -100, 52, 100), 0));
    cpShapeSetCollisionType(s->wall, TYPE_WALL);
    cpCollisionHandler *h = cpSpaceAddCollisionHandler(s->space, TYPE_MOVER, TYPE_WALL);
    h->beginFunc = count_begin;
    h->userData = &s->begins;
    s->ccd = sccd_cp_attach(s->space);
}

static void scene_free(scene *s)
{
    sccd_cp_detach(s->ccd);
    sccd_cp_space_free_all(s->space);
}

/* A disc of radius 2 at (x, y) moving at vx, CCD enabled when ccd. */
static cpBody *add_bullet(scene *s, double x, double y, double vx, bool ccd)
{
    cpBody *b = cpSpaceAddBody(s->space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0, 2, cpvzero)));
    cpBodySetPosition(b, cpv(x, y));
    cpBodySetVelocity(b, cpv(vx, 0));
    cpShapeSetCollisionType(cpSpaceAddShape(s->space, cpCircleShapeNew(b, 2, cpvzero)), TYPE_MOVER);
    if (ccd)
        sccd_cp_body_enable(s->ccd, b);
    return b;
}

/* A kinematic spinner far away with CCD: keeps the CCD phase running. */
static cpBody *add_spinner(scene *s)
{
    cpBody *b = cpSpaceAddBody(s->space, cpBodyNewKinematic());
    cpBodySetPosition(b, cpv(-500, 0));
    cpBodySetAngularVelocity(b, 30);
    cpSpaceAddShape(s->space, cpSegmentShapeNew(b, cpv(0, 0), cpv(40, 0), 1));
    sccd_cp_body_enable(s->ccd, b);
    return b;
}

static bool finite_body(const cpBody *b)
{
    return sccd_is_valid_v2((sccd_v2){b->p.x, b->p.y}) && sccd_is_valid_real(b->a) &&
           sccd_is_valid_v2((sccd_v2){b->v.x, b->v.y}) && sccd_is_valid_real(b->w);
}

static void remove_body_and_shapes(cpSpace *space, cpBody *b)
{
    while (b->shapeList != NULL) {
        cpShape *sh = b->shapeList;
        cpSpaceRemoveShape(space, sh);
        cpShapeFree(sh);
    }
    cpSpaceRemoveBody(space, b);
}

/* ---- a CCD body removed from its space, or freed, without disable ---- */

static void test_removed_body_is_forgotten(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    add_spinner(&s);
    cpBody *b = add_bullet(&s, 0, 0, 60, true);
    cpShape *sh = b->shapeList;
    cpSpaceStep(s.space, DT);
    cpSpaceRemoveShape(s.space, sh); /* removed, kept by the game, no disable */
    cpSpaceRemoveBody(s.space, b);
    cpSpaceStep(s.space, DT);
    sccd_cp_counters c = sccd_cp_get_counters(s.ccd);
    assert_int_equal(c.forgotten, 1);
    assert_int_equal(c.errors, 1);
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_true(strstr(sccd_cp_last_error(s.ccd), "without sccd_cp_body_disable") != NULL);
    assert_false(sccd_cp_body_is_enabled(s.ccd, b));
    /* added back: it moves as Chipmunk integrates it (once a step), without CCD, and gets Chipmunk's function back */
    cpSpaceAddBody(s.space, b);
    cpSpaceAddShape(s.space, sh);
    cpVect p0 = cpBodyGetPosition(b);
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetPosition(b).x - (p0.x + 60 * DT)) < 1e-12);
    assert_true(b->position_func == cpBodyUpdatePosition);
    /* enabled again: CCD stops it at the wall */
    sccd_cp_body_enable(s.ccd, b);
    cpBodySetVelocity(b, cpv(6000, 0));
    for (int i = 0; i < 10; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(cpBodyGetPosition(b).x < 51.0);
    }
    assert_true(s.begins > 0);
    assert_int_equal(sccd_cp_get_counters(s.ccd).errors, 1);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* A CCD body freed without disable, and a new body made at its address
 * (our own memory, so the address surely repeats): the new body is not a
 * CCD body, moves once a step, and can be enabled. Both orders: the space
 * steps first (the step's check forgets the old record), or the game calls
 * the adapter first (the call forgets it). */
static void test_freed_body_address_reused(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    for (int order = 0; order < 2; ++order) {
        sccd_test_assert_reset();
        scene s;
        scene_init(&s);
        add_spinner(&s);
        cpBody *mem = cpBodyAlloc();
        cpBody *b = cpSpaceAddBody(s.space, cpBodyInit(mem, 1.0, cpMomentForCircle(1.0, 0, 2, cpvzero)));
        cpSpaceAddShape(s.space, cpCircleShapeNew(b, 2, cpvzero));
        sccd_cp_body_enable(s.ccd, b);
        cpSpaceStep(s.space, DT);
        remove_body_and_shapes(s.space, b); /* freed without disable */
        cpBodyDestroy(b);
        cpBody *n = cpSpaceAddBody(s.space, cpBodyInit(mem, 1.0, cpMomentForCircle(1.0, 0, 2, cpvzero)));
        assert_ptr_equal(n, b);
        cpShapeSetCollisionType(cpSpaceAddShape(s.space, cpCircleShapeNew(n, 2, cpvzero)), TYPE_MOVER);
        cpBodySetVelocity(n, cpv(60, 0));
        assert_false(sccd_cp_body_is_enabled(s.ccd, n));
        if (order == 0) {
            cpSpaceStep(s.space, DT);
            assert_true(fabs(cpBodyGetPosition(n).x - 60 * DT) < 1e-12); /* integrated once, not twice */
        }
        sccd_cp_body_enable(s.ccd, n); /* not "already enabled" */
        assert_true(sccd_cp_body_is_enabled(s.ccd, n));
        assert_int_equal(sccd_cp_get_counters(s.ccd).forgotten, 1);
        assert_int_equal(sccd_test_assert_count(), 1); /* the forgetting, nothing else */
        cpBodySetVelocity(n, cpv(6000, 0));
        for (int i = 0; i < 10; ++i) {
            cpSpaceStep(s.space, DT);
            assert_true(cpBodyGetPosition(n).x < 51.0);
        }
        assert_true(s.begins > 0);
        sccd_cp_body_disable(s.ccd, n);
        remove_body_and_shapes(s.space, n);
        cpBodyFree(n);
        scene_free(&s);
    }
    sccd_set_assert_handler(NULL);
}

/* Sleeping CCD bodies stay in the space: never forgotten (asleep by
 * itself or put to sleep by cpBodySleep, which Chipmunk refuses for a body
 * asleep already). */
static void test_sleeping_body_kept(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    cpSpaceSetGravity(s.space, cpv(0, -100));
    cpSpaceSetSleepTimeThreshold(s.space, 0.3);
    cpSpaceAddShape(s.space, cpSegmentShapeNew(cpSpaceGetStaticBody(s.space), cpv(-300, -200), cpv(-100, -200), 1));
    add_spinner(&s);
    cpBody *box = cpSpaceAddBody(s.space, cpBodyNew(1.0, cpMomentForBox(1.0, 10, 10)));
    cpBodySetPosition(box, cpv(-200, -194));
    cpSpaceAddShape(s.space, cpBoxShapeNew(box, 10, 10, 0));
    sccd_cp_body_enable(s.ccd, box);
    for (int i = 0; i < 30; ++i)
        cpSpaceStep(s.space, DT);
    if (!cpBodyIsSleeping(box))
        cpBodySleep(box);
    for (int i = 0; i < 30; ++i)
        cpSpaceStep(s.space, DT);
    assert_true(cpBodyIsSleeping(box));
    assert_true(sccd_cp_body_is_enabled(s.ccd, box));
    assert_int_equal(sccd_cp_get_counters(s.ccd).forgotten, 0);
    assert_int_equal(sccd_test_assert_count(), 0);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- shapes removed mid-game ---- */

/* Post-step: the wall breaks (removed and freed). */
static void break_wall(cpSpace *space, void *key, void *data)
{
    (void)data;
    cpSpaceRemoveShape(space, key);
    cpShapeFree(key);
}

static cpBool begin_breaks_wall(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
    CP_ARBITER_GET_SHAPES(arb, a, b);
    (void)a;
    ++*(int *)data;
    cpSpaceAddPostStepCallback(space, break_wall, b, NULL);
    return cpTrue;
}

static void test_shapes_removed_mid_game(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    /* a wall removed between steps: a bullet goes where it was */
    scene s;
    scene_init(&s);
    cpBody *b = add_bullet(&s, 0, 0, 1200, true);
    cpSpaceStep(s.space, DT);
    cpSpaceRemoveShape(s.space, s.wall);
    cpShapeFree(s.wall);
    for (int i = 0; i < 5; ++i)
        cpSpaceStep(s.space, DT);
    assert_true(cpBodyGetPosition(b).x > 100.0);
    assert_int_equal(s.begins, 0);
    /* a CCD body's only shape removed: it flies free; a new shape: CCD again */
    cpShape *wall2 = cpSpaceAddShape(s.space, cpBoxShapeNew2(cpSpaceGetStaticBody(s.space), cpBBNew(300, -100, 302, 100), 0));
    cpShapeSetCollisionType(wall2, TYPE_WALL);
    cpShape *own = b->shapeList;
    cpSpaceRemoveShape(s.space, own);
    cpShapeFree(own);
    cpBodySetPosition(b, cpv(200, 0));
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetPosition(b).x - (200 + 1200 * DT)) < 1e-9);
    cpShapeSetCollisionType(cpSpaceAddShape(s.space, cpCircleShapeNew(b, 2, cpvzero)), TYPE_MOVER);
    cpBodySetVelocity(b, cpv(6000, 0));
    for (int i = 0; i < 10; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(cpBodyGetPosition(b).x < 301.0);
    }
    assert_true(s.begins > 0);
    assert_true(finite_body(b));
    scene_free(&s);
    /* a breakable wall: the CCD impact's begin handler removes and frees it
     * in a post-step callback; the bullet stops on it, then goes on */
    scene_init(&s);
    cpCollisionHandler *h = cpSpaceAddCollisionHandler(s.space, TYPE_MOVER, TYPE_WALL);
    h->beginFunc = begin_breaks_wall;
    b = add_bullet(&s, 0, 0, 3000, true);
    cpSpaceStep(s.space, DT);
    int begins = s.begins; /* the CCD's begin, and Chipmunk's own for the contact it leaves */
    assert_true(begins >= 1);
    assert_true(cpBodyGetPosition(b).x < 51.0);
    cpBodySetVelocity(b, cpv(3000, 0));
    for (int i = 0; i < 5; ++i)
        cpSpaceStep(s.space, DT);
    assert_true(cpBodyGetPosition(b).x > 100.0);
    assert_int_equal(s.begins, begins); /* the wall is gone */
    assert_int_equal(sccd_cp_get_counters(s.ccd).errors, 0);
    s.wall = NULL;
    scene_free(&s);
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

/* ---- the world detached while bodies are enabled ---- */

static void test_detach_with_bodies_enabled(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    cpBody *in = add_bullet(&s, 0, 0, 60, true);
    cpBody *out = add_bullet(&s, 0, 50, 60, true);
    cpShape *out_shape = out->shapeList;
    cpSpaceStep(s.space, DT);
    cpSpaceRemoveShape(s.space, out_shape); /* out of the space at detach time */
    cpSpaceRemoveBody(s.space, out);
    sccd_cp_detach(s.ccd);
    s.ccd = NULL;
    assert_true(in->position_func == cpBodyUpdatePosition); /* given back */
    cpVect p0 = cpBodyGetPosition(in);
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetPosition(in).x - (p0.x + 60 * DT)) < 1e-12);
    /* the one that was out comes back: Chipmunk's integration, its function given back */
    cpSpaceAddBody(s.space, out);
    cpSpaceAddShape(s.space, out_shape);
    p0 = cpBodyGetPosition(out);
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetPosition(out).x - (p0.x + 60 * DT)) < 1e-12);
    assert_true(out->position_func == cpBodyUpdatePosition);
    /* a new world; a body still carrying the old world's function enabled at once (no endless recursion) */
    cpSpaceRemoveShape(s.space, out_shape);
    cpSpaceRemoveBody(s.space, out);
    s.ccd = sccd_cp_attach(s.space);
    sccd_cp_body_enable(s.ccd, out);  /* not in the space: reported */
    assert_int_equal(sccd_test_assert_count(), 1);
    sccd_cp_body_enable(s.ccd, in);
    sccd_cp_detach(s.ccd);            /* in: given back; now a body with our function, out of any world */
    s.ccd = sccd_cp_attach(s.space);
    cpBody *stale = add_bullet(&s, -100, 0, 60, true);
    cpShape *stale_shape = stale->shapeList;
    cpSpaceRemoveShape(s.space, stale_shape);
    cpSpaceRemoveBody(s.space, stale);
    sccd_cp_detach(s.ccd);            /* stale keeps our function: it was out */
    s.ccd = sccd_cp_attach(s.space);
    cpSpaceAddBody(s.space, stale);
    cpSpaceAddShape(s.space, stale_shape);
    sccd_cp_body_enable(s.ccd, stale);
    cpBodySetVelocity(stale, cpv(9000, 0));
    for (int i = 0; i < 5; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(cpBodyGetPosition(stale).x < 51.0);
    }
    assert_true(finite_body(stale));
    cpBodyFree(out);
    cpShapeFree(out_shape);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- the flying body that runs the next step's CCD ---- */

static int own_calls;

/* A game's own position function: counted, Chipmunk's integration. */
static void own_position(cpBody *body, cpFloat dt)
{
    ++own_calls;
    cpBodyUpdatePosition(body, dt);
}

/* A kinematic bat (CCD on) swung once into a ball with its own position
 * function, then taken out of the space: the ball flies on, and carries the
 * function that runs the next step's CCD (sectorccd_chipmunk.h). Left in,
 * still, the bat would stand in the flight of the next ball batted from the
 * same place, which would be pressed between the two bats. */
static cpBody *batted_ball(scene *s)
{
    sccd_test_flying c = {100.0, 0.5, 5.0, false, false, false};
    double a0;
    sccd_v2 at, mid, n;
    sccd_test_flying_setup(&c, 0.05, 0.1, 0.8, &a0, &at, &mid, &n);
    cpBody *bat = cpSpaceAddBody(s->space, cpBodyNewKinematic());
    cpBodySetAngle(bat, a0);
    cpBodySetAngularVelocity(bat, c.w);
    cpShape *bat_shape = cpSpaceAddShape(s->space, cpSegmentShapeNew(bat, cpvzero, cpv(2.0, 0.0), 0.05));
    cpBody *ball = cpSpaceAddBody(s->space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0.0, 0.1, cpvzero)));
    cpBodySetPosition(ball, cpv(at.x, at.y));
    cpBodySetPositionUpdateFunc(ball, own_position);
    cpSpaceAddShape(s->space, cpCircleShapeNew(ball, 0.1, cpvzero));
    sccd_cp_body_enable(s->ccd, bat);
    cpSpaceStep(s->space, DT);
    sccd_cp_body_disable(s->ccd, bat);
    cpSpaceRemoveShape(s->space, bat_shape);
    cpSpaceRemoveBody(s->space, bat);
    cpShapeFree(bat_shape);
    cpBodyFree(bat);
    assert_true(cpvlength(cpBodyGetVelocity(ball)) > 100.0); /* batted */
    own_calls = 0;
    return ball;
}

/* What a game may do to that ball between steps: it keeps its own
 * position function, called once a step; nothing crashes (the sanitizer
 * build reads no freed body), nothing is reported. */
static void test_flying_trigger(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    cpBody *ball = batted_ball(&s); /* stepped on: followed, its function runs it */
    uint64_t struck = sccd_cp_get_counters(s.ccd).struck;
    for (int i = 0; i < 3; ++i)
        cpSpaceStep(s.space, DT);
    assert_int_equal(own_calls, 3);
    assert_true(sccd_cp_get_counters(s.ccd).struck >= struck + 3);
    assert_true(ball->position_func != own_position); /* it carries the next step's CCD */
    sccd_cp_detach(s.ccd); /* detached while it flies: its function back */
    s.ccd = NULL;
    assert_true(ball->position_func == own_position);
    scene_free(&s);

    scene_init(&s); /* enabled while it flies, then disabled: its own function back */
    ball = batted_ball(&s);
    assert_true(ball->position_func != own_position);
    sccd_cp_body_enable(s.ccd, ball);
    cpSpaceStep(s.space, DT);
    sccd_cp_body_disable(s.ccd, ball);
    assert_true(ball->position_func == own_position);
    assert_int_equal(own_calls, 1);
    scene_free(&s);

    scene_init(&s); /* removed and freed while it flies; then taken back out of the space and re-added */
    ball = batted_ball(&s);
    cpShape *shape = ball->shapeList;
    cpSpaceRemoveShape(s.space, shape);
    cpSpaceRemoveBody(s.space, ball);
    cpShapeFree(shape);
    cpBodyFree(ball);
    cpSpaceStep(s.space, DT);
    cpSpaceStep(s.space, DT);
    ball = batted_ball(&s);
    shape = ball->shapeList;
    cpSpaceRemoveShape(s.space, shape);
    cpSpaceRemoveBody(s.space, ball);
    cpSpaceStep(s.space, DT); /* let go while out: it keeps the trigger's function, which gives its own back when it runs */
    cpSpaceAddBody(s.space, ball);
    cpSpaceAddShape(s.space, shape);
    cpSpaceStep(s.space, DT);
    assert_true(finite_body(ball));
    assert_int_equal(sccd_test_assert_count(), 0);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- cpSpaceStep with dt = 0, < 0, NaN ---- */

/* dt = 0: Chipmunk skips the step. dt < 0: reported, the CCD bodies stay
 * where they are; Chipmunk runs its other bodies back. NaN or infinite dt:
 * reported, the CCD bodies stay; only kinematic bodies here, because
 * Debian's Chipmunk is built with its debug checks, which abort on the NaN
 * velocity its own integration gives a dynamic body (and the NaN pose it
 * gives a non-CCD one). Good steps after: CCD at once, nothing NaN. */
static void test_bad_dt(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    cpBody *b = add_bullet(&s, 40, 0, 6000, true);   /* 100 a step, 10 in front of the wall */
    cpBody *plain = add_bullet(&s, 0, 60, 60, false); /* not CCD, clear of the wall */
    cpSpaceStep(s.space, 0.0);
    assert_true(cpBodyGetPosition(b).x == 40.0 && cpBodyGetPosition(plain).x == 0.0);
    assert_int_equal(sccd_test_assert_count(), 0);
    cpSpaceStep(s.space, -DT);
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_true(strstr(sccd_cp_last_error(s.ccd), "dt < 0 or not finite") != NULL);
    assert_true(cpBodyGetPosition(b).x == 40.0 && cpBodyGetPosition(b).y == 0.0);
    assert_true(finite_body(b));
    assert_true(fabs(cpBodyGetPosition(plain).x + 60 * DT) < 1e-12); /* Chipmunk ran it back */
    cpBodySetVelocity(b, cpv(6000, 0));
    for (int i = 0; i < 5; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(finite_body(b));
        assert_true(cpBodyGetPosition(b).x < 51.0);
    }
    assert_true(s.begins > 0);
    assert_int_equal(sccd_test_assert_count(), 1);
    scene_free(&s);

    /* NaN and infinite dt: a kinematic CCD bat 10 short of the wall's face at 60 rad/s */
    sccd_test_assert_reset();
    scene_init(&s);
    cpBody *bat = cpSpaceAddBody(s.space, cpBodyNewKinematic());
    cpBodySetPosition(bat, cpv(51, -80));
    cpBodySetAngle(bat, 0.5 * SCCD_PI - 0.2);
    cpBodySetAngularVelocity(bat, -60);
    cpShapeSetCollisionType(cpSpaceAddShape(s.space, cpSegmentShapeNew(bat, cpv(0, 0), cpv(60, 0), 1)), TYPE_MOVER);
    sccd_cp_body_enable(s.ccd, bat);
    sccd_cp_body_set_pivot(s.ccd, bat, cpvzero);
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) {
        cpSpaceStep(s.space, bad[k]);
        assert_int_equal(sccd_test_assert_count(), k + 1);
        assert_true(cpBodyGetPosition(bat).x == 51.0 && cpBodyGetAngle(bat) == 0.5 * SCCD_PI - 0.2);
        assert_true(finite_body(bat));
    }
    for (int i = 0; i < 3; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(finite_body(bat));
    }
    assert_true(fabs(cpBodyGetAngle(bat) - (0.5 * SCCD_PI - 0.2 - 3 * 60 * DT)) < 1e-9); /* kinematic: its animation */
    assert_int_equal(sccd_test_assert_count(), 3);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- teleports between steps: no sweep across them ---- */

static void test_teleport_is_not_swept(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    cpBody *b = add_bullet(&s, 0, 0, 600, true); /* 10 a step */
    cpSpaceStep(s.space, DT);
    cpBodySetPosition(b, cpv(100, 0)); /* across the wall */
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetPosition(b).x - 110.0) < 1e-9); /* not stopped at the wall */
    assert_int_equal(s.begins, 0);
    assert_int_equal(sccd_cp_get_counters(s.ccd).clamps, 0);
    cpBodySetPosition(b, cpv(-100, 0)); /* back across it, still moving away from it */
    cpBodySetVelocity(b, cpv(-600, 0));
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetPosition(b).x + 110.0) < 1e-9);
    assert_int_equal(s.begins, 0);
    /* and CCD still works from the new place */
    cpBodySetVelocity(b, cpv(9000, 0));
    for (int i = 0; i < 5; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(cpBodyGetPosition(b).x < 51.0);
    }
    assert_true(s.begins > 0);
    /* a turn: a sword on the ray at 0 turned by the game to past a wall on the ray at 90° */
    cpBody *sword = cpSpaceAddBody(s.space, cpBodyNew(1.0, cpMomentForSegment(1.0, cpv(5, 0), cpv(100, 0), 1)));
    cpBodySetPosition(sword, cpv(0, 300));
    cpShapeSetCollisionType(cpSpaceAddShape(s.space, cpSegmentShapeNew(sword, cpv(5, 0), cpv(100, 0), 1)), TYPE_MOVER);
    cpShapeSetCollisionType(cpSpaceAddShape(s.space, cpBoxShapeNew2(cpSpaceGetStaticBody(s.space), cpBBNew(-1, 340, 1, 410), 0)),
                            TYPE_WALL);
    cpBodySetAngularVelocity(sword, 3.0);
    sccd_cp_body_enable(s.ccd, sword);
    sccd_cp_body_set_pivot(s.ccd, sword, cpvzero);
    cpSpaceStep(s.space, DT);
    int begins = s.begins;
    cpBodySetAngle(sword, 0.75 * SCCD_PI);
    cpSpaceStep(s.space, DT);
    assert_true(fabs(cpBodyGetAngle(sword) - (0.75 * SCCD_PI + 3.0 * DT)) < 1e-9);
    assert_int_equal(s.begins, begins);
    assert_int_equal(sccd_test_assert_count(), 0);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

/* ---- repeated and unknown calls, NULL arguments ---- */

static void test_repeats_unknown_and_null(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    scene s;
    scene_init(&s);
    cpBody *b = add_bullet(&s, 0, 0, 60, true);
    cpBody *other = add_bullet(&s, 0, 20, 60, false);
    int expected = 0;
    sccd_cp_body_enable(s.ccd, b); /* twice */
    ++expected;
    assert_string_equal(sccd_cp_last_error(s.ccd), "sccd_cp_body_enable: CCD is already enabled on the body");
    sccd_cp_body_disable(s.ccd, other); /* unknown */
    ++expected;
    assert_string_equal(sccd_cp_last_error(s.ccd), "sccd_cp_body_disable: CCD is not enabled on the body");
    sccd_cp_body_disable(s.ccd, b);
    sccd_cp_body_disable(s.ccd, b); /* twice */
    ++expected;
    assert_true(b->position_func == cpBodyUpdatePosition);
    assert_int_equal(sccd_test_assert_count(), expected);
    /* NULL everywhere: reported where it is a call to act, the documented result where it is a question */
    sccd_cp_body_enable(NULL, b);
    sccd_cp_body_enable(s.ccd, NULL);
    sccd_cp_body_disable(NULL, b);
    sccd_cp_body_disable(s.ccd, NULL);
    sccd_cp_body_set_pivot(NULL, b, cpvzero);
    sccd_cp_body_set_pivot(s.ccd, NULL, cpvzero);
    sccd_cp_set_options(NULL, sccd_cp_options_default());
    sccd_cp_reset_counters(NULL);
    assert_null(sccd_cp_attach(NULL));
    sccd_cp_space_use_sap(NULL);
    sccd_cp_space_swap_indexes(NULL, NULL, NULL);
    assert_null(sccd_cp_sap_new(NULL, NULL));
    expected += 12;
    assert_int_equal(sccd_test_assert_count(), expected);
    assert_false(sccd_cp_body_is_enabled(NULL, b));
    assert_false(sccd_cp_body_is_enabled(s.ccd, NULL));
    assert_string_equal(sccd_cp_last_error(NULL), "");
    sccd_cp_counters zero = sccd_cp_get_counters(NULL);
    assert_int_equal(zero.steps + zero.errors, 0);
    assert_true(sccd_cp_get_options(NULL).overlap == sccd_cp_options_default().overlap);
    sccd_cp_detach(NULL);
    assert_int_equal(sccd_test_assert_count(), expected);
    /* the world kept working: enabled again, it stops at the wall */
    sccd_cp_body_enable(s.ccd, b);
    cpBodySetVelocity(b, cpv(9000, 0));
    for (int i = 0; i < 5; ++i) {
        cpSpaceStep(s.space, DT);
        assert_true(cpBodyGetPosition(b).x < 51.0);
    }
    assert_int_equal(sccd_test_assert_count(), expected);
    scene_free(&s);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_removed_body_is_forgotten),
        cmocka_unit_test(test_freed_body_address_reused),
        cmocka_unit_test(test_sleeping_body_kept),
        cmocka_unit_test(test_shapes_removed_mid_game),
        cmocka_unit_test(test_detach_with_bodies_enabled),
        cmocka_unit_test(test_flying_trigger),
        cmocka_unit_test(test_bad_dt),
        cmocka_unit_test(test_teleport_is_not_swept),
        cmocka_unit_test(test_repeats_unknown_and_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
