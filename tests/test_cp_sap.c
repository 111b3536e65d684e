/* The sort-and-sweep spatial index inside real Chipmunk spaces: a scene of
 * bouncing circles and boxes between static segments runs once with
 * Chipmunk's default tree (cpBBTree) and once with ours; the touching pairs
 * must be the same on every step. Space queries (point, box, segment, first
 * hit, shape) are checked against brute force over every shape, and
 * reindexing, removal and swapping the index mid-run are exercised. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <chipmunk/chipmunk_private.h>

#include "sectorccd_chipmunk.h"
#include "test_util.h"

enum { N_CIRCLES = 140, N_BOXES = 60, N_SEGS = 6, STEPS = 400 };

typedef struct world {
    cpSpace *space;
    cpBody *bodies[N_CIRCLES + N_BOXES];
    cpShape *shapes[N_CIRCLES + N_BOXES + N_SEGS];
    int n_shapes;
    cpBody *mover; /* a static body with a segment, moved and reindexed */
    /* touching pairs of the current step, as shape indices a < b */
    uint32_t pairs[8192];
    int n_pairs;
} world;

static uintptr_t index_of(cpShape *s) { return (uintptr_t)cpShapeGetUserData(s); }

static cpBool log_contact(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
    (void)space;
    world *w = data;
    cpShape *a, *b;
    cpArbiterGetShapes(arb, &a, &b);
    uint32_t i = (uint32_t)index_of(a), j = (uint32_t)index_of(b);
    assert_true(w->n_pairs < 8192);
    w->pairs[w->n_pairs++] = i < j ? (i << 16 | j) : (j << 16 | i);
    return cpTrue;
}

static void add_shape(world *w, cpShape *s, cpShapeFilter filter)
{
    cpShapeSetFilter(s, filter);
    cpShapeSetUserData(s, (cpDataPointer)(uintptr_t)w->n_shapes);
    cpShapeSetElasticity(s, 0.8);
    cpShapeSetFriction(s, 0.4);
    w->shapes[w->n_shapes++] = cpSpaceAddShape(w->space, s);
}

/* Dynamic shapes collide with each other unless `apart`: then Chipmunk's
 * filter rejects those pairs (the broadphase still reports them) and bodies
 * only touch the static segments, which lie far from each other. */
static void world_make(world *w, bool ours, uint64_t seed, bool apart)
{
    memset(w, 0, sizeof *w);
    w->space = cpSpaceNew();
    if (ours) {
        sccd_cp_space_use_sap(w->space);
    }
    cpSpaceSetGravity(w->space, cpv(0, -200));
    cpSpaceSetSleepTimeThreshold(w->space, apart ? 0.5 : INFINITY);
    cpCollisionHandler *h = cpSpaceAddDefaultCollisionHandler(w->space);
    h->preSolveFunc = log_contact;
    h->userData = w;
    cpShapeFilter stat = CP_SHAPE_FILTER_ALL;
    cpShapeFilter dyn = apart ? cpShapeFilterNew(CP_NO_GROUP, 1, 2) : CP_SHAPE_FILTER_ALL;
    if (apart) {
        stat = cpShapeFilterNew(CP_NO_GROUP, 2, CP_ALL_CATEGORIES);
    }
    cpBody *ground = cpSpaceGetStaticBody(w->space);
    cpVect boxed[N_SEGS - 1][2] = {{{-300, 0}, {300, 0}},     {{-300, 0}, {-300, 600}}, {{300, 0}, {300, 600}},
                                   {{-300, 200}, {-100, 150}}, {{300, 300}, {100, 250}}};
    cpVect open[N_SEGS - 1][2] = {{{-3000, 0}, {3000, 0}},   {{-900, 300}, {-700, 250}}, {{700, 250}, {900, 300}},
                                  {{-250, 300}, {-50, 250}}, {{250, 500}, {50, 450}}};
    for (int k = 0; k < N_SEGS - 1; ++k) {
        cpVect *seg = apart ? open[k] : boxed[k];
        add_shape(w, cpSegmentShapeNew(ground, seg[0], seg[1], 2), stat);
    }
    w->mover = cpSpaceAddBody(w->space, cpBodyNewStatic());
    add_shape(w, cpSegmentShapeNew(w->mover, cpv(-50, 700), cpv(50, 720), 3), stat);
    sccd_rng g = sccd_rng_make(seed);
    for (int i = 0; i < N_CIRCLES + N_BOXES; ++i) {
        cpVect p = cpv(sccd_rng_uniform(&g, -280, 280), sccd_rng_uniform(&g, 20, 1200));
        cpFloat size = sccd_rng_uniform(&g, 4, 12);
        bool circle = i < N_CIRCLES;
        cpFloat moment = circle ? cpMomentForCircle(1, 0, size, cpvzero) : cpMomentForBox(1, 2 * size, size);
        cpBody *b = cpSpaceAddBody(w->space, cpBodyNew(1, moment));
        cpBodySetPosition(b, p);
        cpBodySetVelocity(b, cpv(sccd_rng_uniform(&g, -100, 100), sccd_rng_uniform(&g, -100, 100)));
        w->bodies[i] = b;
        add_shape(w, circle ? cpCircleShapeNew(b, size, cpvzero) : cpBoxShapeNew(b, 2 * size, size, 0.5), dyn);
    }
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void world_step(world *w)
{
    w->n_pairs = 0;
    cpSpaceStep(w->space, 1.0 / 60);
    qsort(w->pairs, (size_t)w->n_pairs, sizeof *w->pairs, cmp_u32);
}

static void free_all(world *w)
{
    for (int i = 0; i < w->n_shapes; ++i) {
        if (w->shapes[i] != NULL) {
            if (cpSpaceContainsShape(w->space, w->shapes[i])) {
                cpSpaceRemoveShape(w->space, w->shapes[i]);
            }
            cpShapeFree(w->shapes[i]);
        }
    }
    for (int i = 0; i < N_CIRCLES + N_BOXES; ++i) {
        cpSpaceRemoveBody(w->space, w->bodies[i]);
        cpBodyFree(w->bodies[i]);
    }
    cpSpaceRemoveBody(w->space, w->mover);
    cpBodyFree(w->mover);
    cpSpaceFree(w->space); /* frees neither bodies nor shapes: done above */
}

/* Copy every body's state exactly, bias velocities included. */
static void copy_state(world *to, const world *from)
{
    for (int i = 0; i < N_CIRCLES + N_BOXES; ++i) {
        cpBody *a = from->bodies[i], *b = to->bodies[i];
        cpBodySetPosition(b, cpBodyGetPosition(a));
        cpBodySetAngle(b, cpBodyGetAngle(a));
        cpBodySetVelocity(b, cpBodyGetVelocity(a));
        cpBodySetAngularVelocity(b, cpBodyGetAngularVelocity(a));
        /* the solver's position correction, applied in the next step */
        b->v_bias = a->v_bias;
        b->w_bias = a->w_bias;
    }
}

static double max_position_difference(const world *a, const world *b)
{
    double d = 0;
    for (int i = 0; i < N_CIRCLES + N_BOXES; ++i) {
        d = fmax(d, cpvdist(cpBodyGetPosition(a->bodies[i]), cpBodyGetPosition(b->bodies[i])));
        d = fmax(d, fabs(cpBodyGetAngle(a->bodies[i]) - cpBodyGetAngle(b->bodies[i])));
    }
    return d;
}

/* Equal pair lists; on failure the differing pairs are printed first. */
static void assert_same_pairs(const world *a, const world *b)
{
    int i = 0, j = 0;
    while (i < a->n_pairs || j < b->n_pairs) {
        if (j >= b->n_pairs || (i < a->n_pairs && a->pairs[i] < b->pairs[j])) {
            print_message("only with ours: shapes %u, %u\n", a->pairs[i] >> 16, a->pairs[i] & 0xffff), ++i;
        } else if (i >= a->n_pairs || b->pairs[j] < a->pairs[i]) {
            print_message("only with the tree: shapes %u, %u\n", b->pairs[j] >> 16, b->pairs[j] & 0xffff), ++j;
        } else {
            ++i, ++j;
        }
    }
    assert_int_equal(a->n_pairs, b->n_pairs);
    assert_memory_equal(a->pairs, b->pairs, (size_t)a->n_pairs * sizeof *a->pairs);
}

/* The full scene (everything collides, stacks form): Chipmunk's solver visits
 * arbiters in the order the broadphase found them, so the two runs drift
 * apart by rounding from the first multi-contact step on. To compare the
 * broadphases themselves, the tree's space gets our space's body state
 * before every step: both then detect contacts on identical poses, and the
 * touching pairs (preSolve calls) must be identical on every step. */
static void test_same_contacts_as_default_tree(void **state)
{
    (void)state;
    static world ref, sap;
    world_make(&ref, false, 7, false);
    world_make(&sap, true, 7, false);
    int64_t total = 0;
    for (int step = 0; step < STEPS; ++step) {
        copy_state(&ref, &sap);
        world_step(&ref);
        world_step(&sap);
        assert_same_pairs(&sap, &ref);
        total += ref.n_pairs;
    }
    print_message("full scene: %lld touching pairs over %d steps, all identical\n", (long long)total, STEPS);
    assert_true(total > 5000);
    free_all(&ref);
    free_all(&sap);
}

/* A scene where the solver order cannot matter: bodies touch only static
 * segments far apart (Chipmunk's filter rejects dynamic pairs after the
 * broadphase reported them), so no body is in two contacts at once and every
 * contact pairs shapes of different types (cpCollide orders them by type).
 * Then the two runs must agree to the last bit without any resync. */
static void test_same_motion_as_default_tree(void **state)
{
    (void)state;
    static world ref, sap;
    world_make(&ref, false, 8, true);
    world_make(&sap, true, 8, true);
    int64_t total = 0;
    for (int step = 0; step < STEPS; ++step) {
        world_step(&ref);
        world_step(&sap);
        assert_same_pairs(&sap, &ref);
        total += ref.n_pairs;
    }
    double diff = max_position_difference(&ref, &sap);
    print_message("apart scene: %lld contacts over %d steps; max position/angle difference %g\n", (long long)total,
                  STEPS, diff);
    assert_true(total > 1000);
    assert_true(diff <= 1e-9);
    free_all(&ref);
    free_all(&sap);
}

/* ---- queries against brute force ---- */

typedef struct hits {
    uint8_t found[N_CIRCLES + N_BOXES + N_SEGS + 8];
} hits;

static void point_hit(cpShape *s, cpVect p, cpFloat d, cpVect g, void *data)
{
    (void)p, (void)d, (void)g;
    ((hits *)data)->found[index_of(s)]++;
}

static void bb_hit(cpShape *s, void *data) { ((hits *)data)->found[index_of(s)]++; }

static void seg_hit(cpShape *s, cpVect p, cpVect n, cpFloat alpha, void *data)
{
    (void)p, (void)n, (void)alpha;
    ((hits *)data)->found[index_of(s)]++;
}

static void shape_hit(cpShape *s, cpContactPointSet *points, void *data)
{
    (void)points;
    ((hits *)data)->found[index_of(s)]++;
}

static void check_queries(world *w, sccd_rng *g, int rounds)
{
    cpShapeFilter all = CP_SHAPE_FILTER_ALL;
    int nonempty = 0;
    for (int q = 0; q < rounds; ++q) {
        cpVect p = cpv(sccd_rng_uniform(g, -320, 320), sccd_rng_uniform(g, -20, 700));
        cpVect p2 = cpv(sccd_rng_uniform(g, -320, 320), sccd_rng_uniform(g, -20, 700));
        cpFloat r = sccd_rng_uniform(g, 0, 20);
        cpBB bb = cpBBNewForCircle(p, r);
        hits hp = {{0}}, hb = {{0}}, hs = {{0}};
        cpSpacePointQuery(w->space, p, r, all, point_hit, &hp);
        cpSpaceBBQuery(w->space, bb, all, bb_hit, &hb);
        cpSpaceSegmentQuery(w->space, p, p2, 0, all, seg_hit, &hs);
        cpSegmentQueryInfo first;
        cpShape *got_first = cpSpaceSegmentQueryFirst(w->space, p, p2, 0, all, &first);
        cpFloat best = INFINITY;
        for (int i = 0; i < w->n_shapes; ++i) {
            cpShape *s = w->shapes[i];
            if (s == NULL || !cpSpaceContainsShape(w->space, s)) {
                continue;
            }
            cpPointQueryInfo pi;
            cpSegmentQueryInfo si;
            bool want_p = cpShapePointQuery(s, p, &pi) <= r;
            bool want_b = cpBBIntersects(bb, cpShapeGetBB(s));
            bool want_s = cpShapeSegmentQuery(s, p, p2, 0, &si);
            assert_int_equal(hp.found[i], want_p);
            assert_int_equal(hb.found[i], want_b);
            assert_int_equal(hs.found[i], want_s);
            nonempty += want_p + want_b + want_s;
            if (cpShapeSegmentQuery(s, p, p2, 0, &si)) {
                best = fmin(best, si.alpha);
            }
        }
        assert_true(got_first ? first.alpha == best : isinf(best));
        /* shape query: a circle probe against every shape it collides with */
        cpBody *probe_body = cpBodyNewKinematic();
        cpBodySetPosition(probe_body, p);
        cpShape *probe = cpCircleShapeNew(probe_body, r + 1, cpvzero);
        cpShapeUpdate(probe, cpTransformTranslate(p));
        hits hq = {{0}};
        cpSpaceShapeQuery(w->space, probe, shape_hit, &hq);
        for (int i = 0; i < w->n_shapes; ++i) {
            cpShape *s = w->shapes[i];
            if (s != NULL && cpSpaceContainsShape(w->space, s)) {
                cpContactPointSet set = cpShapesCollide(probe, s);
                assert_int_equal(hq.found[i], set.count > 0);
            }
        }
        cpShapeFree(probe);
        cpBodyFree(probe_body);
    }
    assert_true(nonempty > rounds / 2);
}

static void test_queries_match_brute_force(void **state)
{
    (void)state;
    static world w;
    world_make(&w, true, 11, false);
    sccd_rng g = sccd_rng_make(12);
    check_queries(&w, &g, 300);
    for (int step = 0; step < 150; ++step) {
        world_step(&w);
    }
    check_queries(&w, &g, 300);
    free_all(&w);
}

/* Reindexing a moved static body, removing shapes, swapping the index of a
 * running space (to ours, to cpSweep1D and back): the queries still agree
 * with brute force. */
static void test_reindex_remove_and_swap(void **state)
{
    (void)state;
    static world w;
    world_make(&w, false, 21, false); /* starts on the default tree */
    sccd_rng g = sccd_rng_make(22);
    for (int step = 0; step < 60; ++step) {
        world_step(&w);
    }
    int before_static = cpSpatialIndexCount(w.space->staticShapes);
    int before_dynamic = cpSpatialIndexCount(w.space->dynamicShapes);
    sccd_cp_space_use_sap(w.space);
    assert_int_equal(cpSpatialIndexCount(w.space->staticShapes), before_static);
    assert_int_equal(cpSpatialIndexCount(w.space->dynamicShapes), before_dynamic);
    check_queries(&w, &g, 100);
    /* move the static segment and reindex */
    cpBodySetPosition(w.mover, cpv(0, -540)); /* segment now through (0, 170) */
    cpSpaceReindexStatic(w.space);
    cpShape *seg = w.shapes[N_SEGS - 1];
    hits h = {{0}};
    cpSpacePointQuery(w.space, cpv(0, 170), 1, CP_SHAPE_FILTER_ALL, point_hit, &h);
    assert_int_equal(h.found[index_of(seg)], 1);
    cpBodySetPosition(w.mover, cpv(0, -300));
    cpSpaceReindexShapesForBody(w.space, w.mover);
    check_queries(&w, &g, 50);
    /* remove a third of the shapes, keep stepping */
    for (int i = N_SEGS; i < w.n_shapes; i += 3) {
        cpSpaceRemoveShape(w.space, w.shapes[i]);
        cpShapeFree(w.shapes[i]);
        w.shapes[i] = NULL;
    }
    for (int step = 0; step < 60; ++step) {
        world_step(&w);
    }
    check_queries(&w, &g, 100);
    /* any index class can be swapped in and out again */
    int shapes = cpSpatialIndexCount(w.space->dynamicShapes);
    cpSpatialIndex *stat = cpSweep1DNew(sccd_cp_shape_bb, NULL);
    sccd_cp_space_swap_indexes(w.space, stat, cpSweep1DNew(sccd_cp_shape_bb, stat));
    assert_int_equal(cpSpatialIndexCount(w.space->dynamicShapes), shapes);
    sccd_cp_space_use_sap(w.space);
    assert_int_equal(cpSpatialIndexCount(w.space->dynamicShapes), shapes);
    check_queries(&w, &g, 50);
    /* missing space or index: refused */
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_cp_space_use_sap(NULL);
    sccd_cp_space_swap_indexes(w.space, NULL, NULL);
    assert_int_equal(sccd_test_assert_count(), 2);
    sccd_set_assert_handler(NULL);
    free_all(&w);
}

/* The index alone, through Chipmunk's class table: count, contains, each. */
static cpBB bb_of_point(void *obj)
{
    cpVect *p = obj;
    return cpBBNewForCircle(*p, 1);
}

static void count_each(void *obj, void *data)
{
    (void)obj;
    ++*(int *)data;
}

static void test_index_contract(void **state)
{
    (void)state;
    cpVect pts[500];
    cpSpatialIndex *index = sccd_cp_sap_new(bb_of_point, NULL);
    assert_non_null(index);
    sccd_rng g = sccd_rng_make(31);
    for (int i = 0; i < 500; ++i) {
        pts[i] = cpv(sccd_rng_uniform(&g, 0, 100), sccd_rng_uniform(&g, 0, 100));
        cpSpatialIndexInsert(index, &pts[i], (cpHashValue)(i * 7919 + 1));
    }
    for (int i = 0; i < 500; i += 2) {
        cpSpatialIndexRemove(index, &pts[i], (cpHashValue)(i * 7919 + 1));
    }
    cpSpatialIndexRemove(index, &pts[0], 123456789); /* absent: ignored */
    assert_int_equal(cpSpatialIndexCount(index), 250);
    for (int i = 0; i < 500; ++i) {
        assert_int_equal(cpSpatialIndexContains(index, &pts[i], (cpHashValue)(i * 7919 + 1)), i % 2 == 1);
    }
    int n = 0;
    cpSpatialIndexEach(index, count_each, &n);
    assert_int_equal(n, 250);
    cpSpatialIndexFree(index);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_contacts_as_default_tree),
        cmocka_unit_test(test_same_motion_as_default_tree),
        cmocka_unit_test(test_queries_match_brute_force),
        cmocka_unit_test(test_reindex_remove_and_swap),
        cmocka_unit_test(test_index_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
