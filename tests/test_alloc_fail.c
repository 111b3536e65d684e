/* Allocation failure (issue 16). Every allocation of the core and of both
 * adapters goes through the hooks of sccd_set_allocator (base.h). Here a
 * hook fails the k-th allocation, for k = 1, 2, … until a run meets no
 * failure, in each allocating entry point of the core and in a whole scene
 * in each engine. Each failure must give the documented error and a
 * defined result: no crash, no NaN, no leak (sccd_allocated_blocks here,
 * LeakSanitizer under make SANITIZE=1), in an engine a state that is one of
 * the step's two valid outcomes (the CCD's, or the engine's alone with the
 * CCD skipped), and the steps after it protected again. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <chipmunk/chipmunk_private.h> /* white-box: a body's pose and velocity fields */
#include "sectorccd_chipmunk.h"
#include "sectorccd_ode.h"
#include "test_util.h"
#include "cp_support.h"

#define DT (1.0 / 60.0)

/* ---- the failing allocator ---- */

typedef struct failing {
    long calls;    /* alloc and realloc calls so far */
    long fail_at;  /* the call that fails (0: none) */
    bool hit;      /* that call came */
    long reallocs; /* calls of the realloc hook */
} failing;

static failing fa;

static bool fails(failing *f)
{
    if (++f->calls != f->fail_at)
        return false;
    f->hit = true;
    return true;
}

static void *fa_alloc(size_t size, void *user) { return fails(user) ? NULL : malloc(size); }

static void *fa_realloc(void *ptr, size_t size, void *user)
{
    ++((failing *)user)->reallocs;
    return fails(user) ? NULL : realloc(ptr, size);
}

static void fa_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

/* Route the library's allocations to fa, failing call fail_at (0: none),
 * with a realloc hook or without one (the library then allocates, copies
 * and frees). */
static void fa_install(long fail_at, bool realloc_hook)
{
    fa = (failing){.fail_at = fail_at};
    sccd_allocator a = {fa_alloc, realloc_hook ? fa_realloc : NULL, fa_free, &fa};
    assert_true(sccd_set_allocator(&a));
}

/* Back to libc, once every block came back (a leak check of its own). */
static void fa_remove(void)
{
    assert_int_equal(sccd_allocated_blocks(), 0);
    assert_true(sccd_set_allocator(NULL));
}

/* Run `run` with no failure (fa.fail_at is 0: the run keeps its results as
 * the truth), counting its allocations; then with the k-th failing, for
 * each k, with a realloc hook and without; then once past the last, which
 * meets no failure. Every run must give every block back. */
static void sweep(void (*run)(void *), void *ctx)
{
    fa_install(0, true);
    run(ctx);
    long calls = fa.calls;
    fa_remove();
    for (long k = 1; k <= calls + 1; ++k)
        for (int hook = 0; hook < 2; ++hook) {
            fa_install(k, hook);
            run(ctx);
            assert_true(fa.hit == (k <= calls));
            fa_remove();
        }
}

/* ---- what was reported ---- */

static int reports, memory_reports;

static void record_report(const char *condition, const char *file, int line)
{
    (void)file;
    (void)line;
    ++reports;
    memory_reports += strstr(condition, "out of memory") != NULL;
}

static void listen_reports(void)
{
    reports = memory_reports = 0;
    sccd_set_assert_handler(record_report);
}

static bool same_real(double a, double b, double tol) { return fabs(a - b) <= tol * (1.0 + fabs(a) + fabs(b)); }

/* Move a block of the library's into memory of the test's own: the truth
 * outlives changes of the allocator, which wait for no live block. */
static void own(void *block, size_t bytes)
{
    void **p = block, *copy = malloc(bytes > 0 ? bytes : 1);
    memcpy(copy, *p, bytes);
    sccd_free(*p);
    *p = copy;
}

/* ---- the allocator itself ---- */

static void test_allocator_api(void **state)
{
    (void)state;
    listen_reports();
    /* incomplete hooks are refused */
    sccd_allocator half = {fa_alloc, NULL, NULL, &fa};
    assert_false(sccd_set_allocator(&half));
    assert_int_equal(reports, 1);
    assert_true(sccd_get_allocator().release != NULL);
    /* the realloc hook when given; alloc, copy and free without one */
    for (int with = 0; with < 2; ++with) {
        fa_install(0, with);
        assert_true(sccd_get_allocator().user == &fa);
        unsigned char *p = sccd_alloc(0); /* a real block even for 0 bytes */
        assert_non_null(p);
        p[0] = 7;
        p = sccd_realloc(p, 1, 1000);
        assert_non_null(p);
        assert_int_equal(p[0], 7);
        assert_int_equal(fa.reallocs, with);
        assert_int_equal(sccd_allocated_blocks(), 1);
        /* a block is live: the allocator may not change */
        assert_false(sccd_set_allocator(NULL));
        assert_int_equal(reports, 1 + 1 + with);
        sccd_free(p);
        sccd_free(NULL);
        int *z = sccd_calloc(8, sizeof *z);
        for (int i = 0; i < 8; ++i)
            assert_int_equal(z[i], 0);
        sccd_free(z);
        assert_null(sccd_calloc(SIZE_MAX / 2, 4)); /* count·size overflows */
        fa_remove();
    }
    /* a failed realloc leaves the block as it was */
    fa_install(2, false);
    char *q = sccd_alloc(4);
    memcpy(q, "abc", 4);
    assert_null(sccd_realloc(q, 4, 64));
    assert_string_equal(q, "abc");
    sccd_free(q);
    fa_remove();
    sccd_set_assert_handler(NULL);
}

/* ---- the core: impact solvers ---- */

typedef struct solve2 {
    sccd_impact_body2 body[12];
    sccd_impact_shape2 shape[12];
    int n;
} solve2;

static void add2(solve2 *s, sccd_body_kind kind, bool ccd, sccd_shape2 g, sccd_v2 at, sccd_v2 v, double w)
{
    int i = s->n++;
    bool dyn = kind == SCCD_BODY_DYNAMIC;
    s->body[i] = (sccd_impact_body2){.kind = kind, .ccd = ccd, .pose = {at, sccd_rot2_make(0.0)}, .v = v, .w = w,
                                     .inv_mass = dyn ? 1.0 : 0.0, .inv_inertia = dyn ? 0.05 : 0.0,
                                     .first_shape = i, .shape_count = 1};
    s->shape[i] = (sccd_impact_shape2){g, i, 0.5, 0.3};
}

/* A thin wall and a bullet fired at it; a kinematic bat swung into a row of
 * balls that knock on each other (many pairs: the pair list grows mid-step). */
static solve2 scene2(void)
{
    solve2 s = {.n = 0};
    sccd_v2 zero = {0.0, 0.0};
    add2(&s, SCCD_BODY_STATIC, false, (sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = {{51, -20}, {51, 20}, 1}},
         zero, zero, 0);
    add2(&s, SCCD_BODY_DYNAMIC, true, (sccd_shape2){.type = SCCD_SHAPE_CIRCLE, .circle = {{0, 0}, 2}}, zero,
         (sccd_v2){3000, 0}, 0);
    add2(&s, SCCD_BODY_KINEMATIC, true, (sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = {{0, 0}, {80, 0}, 2}},
         (sccd_v2){0, 100}, zero, 20.0);
    for (int i = 0; i < 8; ++i) {
        double a = 0.04 * (i + 1), r = 25.0 + 6.0 * i;
        add2(&s, SCCD_BODY_DYNAMIC, false, (sccd_shape2){.type = SCCD_SHAPE_CIRCLE, .circle = {{0, 0}, 3}},
             (sccd_v2){r * cos(a), 100 + r * sin(a)}, zero, 0);
    }
    return s;
}

static bool same_body2(const sccd_impact_body2 *a, const sccd_impact_body2 *b)
{
    return a->end_pose.p.x == b->end_pose.p.x && a->end_pose.p.y == b->end_pose.p.y &&
           a->end_pose.q.c == b->end_pose.q.c && a->end_pose.q.s == b->end_pose.q.s && a->end_angle == b->end_angle &&
           a->end_v.x == b->end_v.x && a->end_v.y == b->end_v.y && a->end_w == b->end_w && a->impacts == b->impacts &&
           a->held == b->held;
}

/* After a failed solve every body has its free motion (impact.h). */
static void assert_free_motion2(const sccd_impact_body2 *b)
{
    sccd_xf2 end = b->pose;
    if (b->kind != SCCD_BODY_STATIC)
        end = sccd_motion2_at(sccd_motion2_from_velocity(b->pose, b->cog, b->v, b->w, DT), 1.0);
    assert_true(same_real(b->end_pose.p.x, end.p.x, 1e-12) && same_real(b->end_pose.p.y, end.p.y, 1e-12));
    assert_true(same_real(b->end_angle, b->angle + (b->kind == SCCD_BODY_STATIC ? 0.0 : b->w * DT), 1e-12));
    assert_true(b->impacts == 0 && !b->held);
}

/* One solve; past a failure, another on the same scratch: as with none. */
static void impact2_run(void *ctx)
{
    solve2 *want = ctx;
    sccd_ccd_options o = sccd_ccd_options_default(0.02);
    sccd_impact_scratch scratch = {0};
    solve2 got = scene2();
    bool ok = sccd_impact2_solve(got.body, got.n, got.shape, got.n, DT, &o, NULL, &scratch, NULL);
    assert_true(ok == !fa.hit);
    if (fa.fail_at == 0)
        *want = got;
    for (int i = 0; i < got.n; ++i) {
        if (ok)
            assert_true(same_body2(&got.body[i], &want->body[i]));
        else
            assert_free_motion2(&got.body[i]);
    }
    got = scene2();
    assert_true(sccd_impact2_solve(got.body, got.n, got.shape, got.n, DT, &o, NULL, &scratch, NULL));
    for (int i = 0; i < got.n; ++i)
        assert_true(same_body2(&got.body[i], &want->body[i]));
    sccd_impact_scratch_free(&scratch);
}

static void test_impact2(void **state)
{
    (void)state;
    solve2 want;
    sweep(impact2_run, &want);
    assert_true(want.body[1].impacts > 0 && want.body[1].end_pose.p.x < 49.0); /* the wall stopped the bullet */
}

typedef struct solve3 {
    sccd_impact_body3 body[12];
    sccd_impact_shape3 shape[16];
    int n, ns;
} solve3;

static int add3(solve3 *s, sccd_body_kind kind, bool ccd, sccd_v3 at, sccd_v3 v, sccd_v3 w)
{
    int i = s->n++;
    bool dyn = kind == SCCD_BODY_DYNAMIC;
    s->body[i] = (sccd_impact_body3){.kind = kind, .ccd = ccd, .pose = {at, {0, 0, 0, 1}}, .v = v, .w = w,
                                     .inv_mass = dyn ? 10.0 : 0.0, .first_shape = s->ns};
    for (int d = 0; dyn && d < 3; ++d)
        s->body[i].inv_inertia[4 * d] = 100.0;
    return i;
}

static void shape3(solve3 *s, sccd_impact_shape3 sh)
{
    sh.body = s->n - 1;
    sh.elasticity = 0.4;
    sh.friction = 0.5;
    s->shape[s->ns++] = sh;
    ++s->body[s->n - 1].shape_count;
}

static sccd_impact_shape3 convex3(sccd_shape3 g) { return (sccd_impact_shape3){.bounds = 1, .bound = {g}}; }

static sccd_shape3 box3(sccd_v3 c, sccd_v3 h)
{
    return (sccd_shape3){.type = SCCD_SHAPE_BOX, .box = {c, {0, 0, 0, 1}, h}};
}

static sccd_shape3 ball3(double r) { return (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {{0, 0, 0}, r}}; }

/* A floor (half-space), a thin plate and a triangle; a fast sphere at the
 * plate; a hinged blade into a cluster of balls; a falling cylinder. */
static solve3 scene3(void)
{
    solve3 s = {.n = 0};
    sccd_v3 zero = {0, 0, 0};
    add3(&s, SCCD_BODY_STATIC, false, zero, zero, zero);
    shape3(&s, (sccd_impact_shape3){.bounds = 0, .plane = {{0, 0, 1}, -1.0}});
    shape3(&s, convex3(box3((sccd_v3){1, 0, 0.5}, (sccd_v3){0.01, 1, 1})));
    shape3(&s, sccd_impact_shape3_triangle((sccd_triangle){{-2, -2, -0.9}, {-1, -2, -0.9}, {-2, -1, -0.9}}));
    add3(&s, SCCD_BODY_DYNAMIC, true, (sccd_v3){0.5, 0, 0.5}, (sccd_v3){120, 0, 0}, zero);
    shape3(&s, convex3(ball3(0.02)));
    int blade = add3(&s, SCCD_BODY_DYNAMIC, true, (sccd_v3){0, 3, 0.5}, zero, (sccd_v3){0, 0, 60});
    s.body[blade].joint = SCCD_JOINT_HINGE;
    s.body[blade].axis = (sccd_v3){0, 0, 1};
    shape3(&s, convex3(box3(zero, (sccd_v3){0.5, 0.01, 0.05})));
    for (int i = 0; i < 6; ++i) {
        double a = 0.1 * (i + 1), r = 0.2 + 0.05 * i;
        add3(&s, SCCD_BODY_DYNAMIC, false, (sccd_v3){r * cos(a), 3 + r * sin(a), 0.5}, zero, zero);
        shape3(&s, convex3(ball3(0.03)));
    }
    add3(&s, SCCD_BODY_DYNAMIC, true, (sccd_v3){-1.5, -1.5, -0.7}, (sccd_v3){0, 0, -30}, (sccd_v3){5, 0, 0});
    shape3(&s, sccd_impact_shape3_cylinder((sccd_cylinder){{-0.1, 0, 0}, {0.1, 0, 0}, 0.1}));
    return s;
}

static bool same_body3(const sccd_impact_body3 *a, const sccd_impact_body3 *b)
{
    const sccd_xf3 *x = &a->end_pose, *y = &b->end_pose;
    return x->p.x == y->p.x && x->p.y == y->p.y && x->p.z == y->p.z && x->q.x == y->q.x && x->q.y == y->q.y &&
           x->q.z == y->q.z && x->q.w == y->q.w && a->end_v.x == b->end_v.x && a->end_v.y == b->end_v.y &&
           a->end_v.z == b->end_v.z && a->end_w.x == b->end_w.x && a->end_w.y == b->end_w.y &&
           a->end_w.z == b->end_w.z && a->impacts == b->impacts && a->held == b->held;
}

/* A failed solve's result for every body: its free motion (a hinged body
 * turns about its hinge by the part of ω along the axis). */
static void assert_free_motion3(const sccd_impact_body3 *b)
{
    sccd_xf3 end = b->pose;
    if (b->kind != SCCD_BODY_STATIC && b->joint == SCCD_JOINT_NONE)
        end = sccd_motion3_at(sccd_motion3_from_velocity(b->pose, b->cog, b->v, b->w, DT), 1.0);
    if (b->joint == SCCD_JOINT_HINGE)
        end = sccd_motion3_at(sccd_motion3_from_velocity(b->pose, b->hinge, (sccd_v3){0, 0, 0}, b->w, DT), 1.0);
    assert_true(same_real(b->end_pose.p.x, end.p.x, 1e-12) && same_real(b->end_pose.p.y, end.p.y, 1e-12) &&
                same_real(b->end_pose.p.z, end.p.z, 1e-12));
    sccd_quat p = b->end_pose.q, q = end.q;
    assert_true(fabs(fabs(p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w) - 1.0) < 1e-12);
    assert_true(b->impacts == 0 && !b->held);
}

static void impact3_run(void *ctx)
{
    solve3 *want = ctx;
    sccd_ccd_options o = sccd_ccd_options_default(0.001);
    sccd_impact_scratch scratch = {0};
    solve3 got = scene3();
    bool ok = sccd_impact3_solve(got.body, got.n, got.shape, got.ns, DT, &o, NULL, &scratch, NULL);
    assert_true(ok == !fa.hit);
    if (fa.fail_at == 0)
        *want = got;
    for (int i = 0; i < got.n; ++i) {
        if (ok)
            assert_true(same_body3(&got.body[i], &want->body[i]));
        else
            assert_free_motion3(&got.body[i]);
    }
    got = scene3();
    assert_true(sccd_impact3_solve(got.body, got.n, got.shape, got.ns, DT, &o, NULL, &scratch, NULL));
    for (int i = 0; i < got.n; ++i)
        assert_true(same_body3(&got.body[i], &want->body[i]));
    sccd_impact_scratch_free(&scratch);
}

static void test_impact3(void **state)
{
    (void)state;
    solve3 want;
    sweep(impact3_run, &want);
    assert_true(want.body[1].impacts > 0 && want.body[1].end_pose.p.x < 1.0); /* the plate stopped the sphere */
}

/* ---- the core: broadphase ---- */

#define BP_N 48
#define PAIR_MAX (BP_N * BP_N)

typedef struct pair_list { int n; int a[PAIR_MAX], b[PAIR_MAX]; } pair_list;

static void collect_pair(int a, int b, void *context)
{
    pair_list *l = context;
    assert_true(l->n < PAIR_MAX);
    l->a[l->n] = a < b ? a : b;
    l->b[l->n++] = a < b ? b : a;
}

static int pair_cmp(const void *x, const void *y)
{
    const long *p = x, *q = y;
    return (*p > *q) - (*p < *q);
}

/* The list as sorted keys a·BP_N + b, for comparing sets. */
static void pair_keys(const pair_list *l, long *keys)
{
    for (int i = 0; i < l->n; ++i)
        keys[i] = (long)l->a[i] * BP_N + l->b[i];
    qsort(keys, (size_t)l->n, sizeof *keys, pair_cmp);
}

static bool same_pairs(const pair_list *x, const pair_list *y)
{
    static long kx[PAIR_MAX], ky[PAIR_MAX];
    if (x->n != y->n)
        return false;
    pair_keys(x, kx);
    pair_keys(y, ky);
    return memcmp(kx, ky, (size_t)x->n * sizeof *kx) == 0;
}

static sccd_aabb3 bp_boxes[BP_N];
static sccd_sphere bp_spheres[BP_N];
static pair_list box_truth, sphere_truth;

static void bp_scene(void)
{
    sccd_rng g = sccd_rng_make(1616);
    box_truth.n = sphere_truth.n = 0;
    for (int i = 0; i < BP_N; ++i) {
        sccd_v3 c = sccd_rng_v3(&g, 8.0);
        sccd_v3 h = {sccd_rng_uniform(&g, 0.3, 1.5), sccd_rng_uniform(&g, 0.3, 1.5), sccd_rng_uniform(&g, 0.3, 1.5)};
        bp_boxes[i] = (sccd_aabb3){sccd_v3_sub(c, h), sccd_v3_add(c, h)};
        bp_spheres[i] = (sccd_sphere){c, h.x};
    }
    for (int i = 0; i < BP_N; ++i)
        for (int j = i + 1; j < BP_N; ++j) {
            const sccd_aabb3 *p = &bp_boxes[i], *q = &bp_boxes[j];
            if (p->lo.x <= q->hi.x && q->lo.x <= p->hi.x && p->lo.y <= q->hi.y && q->lo.y <= p->hi.y &&
                p->lo.z <= q->hi.z && q->lo.z <= p->hi.z)
                collect_pair(i, j, &box_truth);
            if (sccd_v3_dist(bp_spheres[i].c, bp_spheres[j].c) <= bp_spheres[i].r + bp_spheres[j].r)
                collect_pair(i, j, &sphere_truth);
        }
}

/* A stateless broadphase's answer under a possible failure: every pair, or
 * (the failure hit its scratch) none. A failure in the cell grid's scratch
 * still gives every pair: the plain sweep. */
static void assert_all_or_none(const pair_list *got, const pair_list *truth, bool failed_here)
{
    assert_true(same_pairs(got, truth) || (failed_here && got->n == 0));
}

/* One run of everything that allocates in the broadphase. */
static void bp_run(void *ctx)
{
    (void)ctx;
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    for (int i = 0; i < BP_N; ++i) {
        int id;
        sccd_bp_status st = sccd_bp3_create_proxy(&bp, bp_boxes[i], NULL, &id);
        if (st == SCCD_BP_NO_MEMORY) { /* index unchanged: the game tries again */
            assert_int_equal(sccd_bp3_count(&bp), i);
            st = sccd_bp3_create_proxy(&bp, bp_boxes[i], NULL, &id);
        }
        assert_int_equal(st, SCCD_BP_OK);
        assert_int_equal(id, i);
    }
    int count;
    const sccd_bp_pair *pairs = sccd_bp3_pairs(&bp, &count, NULL);
    if (pairs == NULL) {
        assert_int_equal(count, 0);
        pairs = sccd_bp3_pairs(&bp, &count, NULL);
    }
    pair_list got = {0};
    for (int i = 0; i < count; ++i)
        collect_pair(pairs[i].a, pairs[i].b, &got);
    assert_true(same_pairs(&got, &box_truth));
    /* moved together: the same pairs, through the callback */
    for (int i = 0; i < BP_N; ++i) {
        sccd_v3 d = {0.25, -0.5, 0.125};
        sccd_aabb3 moved = {sccd_v3_add(bp_boxes[i].lo, d), sccd_v3_add(bp_boxes[i].hi, d)};
        assert_int_equal(sccd_bp3_move_proxy(&bp, i, moved), SCCD_BP_OK);
    }
    got.n = 0;
    sccd_bp3_update_pairs(&bp, collect_pair, &got);
    assert_true(same_pairs(&got, &box_truth));
    sccd_bp3_destroy(&bp);

    sccd_bp2 bp2;
    sccd_bp2_init(&bp2);
    for (int i = 0; i < 20; ++i) {
        int id;
        sccd_aabb2 b = {{bp_boxes[i].lo.x, bp_boxes[i].lo.y}, {bp_boxes[i].hi.x, bp_boxes[i].hi.y}};
        if (sccd_bp2_create_proxy(&bp2, b, NULL, &id) == SCCD_BP_NO_MEMORY)
            assert_int_equal(sccd_bp2_create_proxy(&bp2, b, NULL, &id), SCCD_BP_OK);
    }
    assert_int_equal(sccd_bp2_count(&bp2), 20);
    sccd_bp2_destroy(&bp2);

    /* the stateless ones: all pairs, or none when the failure hit them */
    bool before = fa.hit;
    got.n = 0;
    sccd_bp3_sweep(bp_boxes, BP_N, collect_pair, &got);
    assert_all_or_none(&got, &box_truth, fa.hit != before);
    before = fa.hit;
    got.n = 0;
    sccd_bp_distance_sort(bp_spheres, BP_N, (sccd_v3){0, 0, 0}, collect_pair, &got);
    assert_all_or_none(&got, &sphere_truth, fa.hit != before);
    before = fa.hit;
    got.n = 0;
    sccd_bp_xyz_sweep(bp_spheres, BP_N, collect_pair, &got);
    assert_all_or_none(&got, &sphere_truth, fa.hit != before);
    before = fa.hit;
    got.n = 0;
    sccd_bp_best_axis(bp_spheres, BP_N, collect_pair, &got);
    assert_all_or_none(&got, &sphere_truth, fa.hit != before);
}

static void test_broadphase(void **state)
{
    (void)state;
    listen_reports();
    bp_scene();
    sweep(bp_run, NULL);
    sccd_set_assert_handler(NULL);
}

/* ---- the core: meshes, fills, trees ---- */

static bool same_mesh(const sccd_mesh *a, const sccd_mesh *b)
{
    return a->nv == b->nv && a->nt == b->nt && memcmp(a->v, b->v, (size_t)a->nv * sizeof *a->v) == 0 &&
           memcmp(a->t, b->t, (size_t)a->nt * sizeof *a->t) == 0;
}

static bool empty_mesh(const sccd_mesh *m) { return m->nv == 0 && m->nt == 0; }

static bool same_report(const sccd_mesh_report *a, const sccd_mesh_report *b)
{
    return a->vertices == b->vertices && a->triangles == b->triangles && a->boundary_edges == b->boundary_edges &&
           a->nonmanifold_edges == b->nonmanifold_edges && a->misoriented_edges == b->misoriented_edges &&
           a->degenerate_triangles == b->degenerate_triangles && a->closed == b->closed && a->oriented == b->oriented &&
           a->area == b->area && a->volume == b->volume;
}

typedef struct mesh_files {
    sccd_mesh torus, bottle;
    char *text[4];
    size_t size[4];
    char path[64];
    int loaded_nv[4], loaded_nt[4];
    sccd_mesh_report report;
    sccd_voxel_grid grid;
    sccd_sphere_list fill[2];
    sccd_spheretree tree;
    int *edt;
    int meshtree_leaves; /* of the bounding tree of the bottle (mesh_tree_options) */
    sccd_real meshtree_error;
} mesh_files;

/* A small bounding tree of the bottle: few allocations to fail in turn. */
static sccd_meshtree_options mesh_tree_options(void)
{
    sccd_meshtree_options o = sccd_meshtree_default_options();
    o.res = 8;
    o.piece = 0.25;
    o.error = 0.1;
    return o;
}

static const sccd_mesh_format formats[4] = {SCCD_MESH_OBJ, SCCD_MESH_STL, SCCD_MESH_STL_BINARY, SCCD_MESH_OFF};

/* What a run should give: made with no failure (libc's allocator). */
static void mesh_truth(mesh_files *f)
{
    sccd_mesh_init(&f->torus);
    sccd_mesh_init(&f->bottle);
    assert_true(sccd_mesh_torus(&f->torus, 1.0, 0.3, 12, 8));
    assert_true(sccd_mesh_bottle(&f->bottle, 12));
    for (int i = 0; i < 4; ++i) {
        FILE *out = open_memstream(&f->text[i], &f->size[i]);
        assert_true(sccd_mesh_write(&f->torus, out, formats[i]));
        fclose(out);
    }
    sccd_mesh m;
    sccd_mesh_init(&m);
    for (int i = 0; i < 4; ++i) {
        assert_int_equal(sccd_mesh_load_buffer(&m, f->text[i], f->size[i], formats[i]).state, SCCD_LOAD_OK);
        f->loaded_nv[i] = m.nv;
        f->loaded_nt[i] = m.nt;
    }
    sccd_mesh_destroy(&m);
    strcpy(f->path, "/tmp/sccd_alloc_fail_XXXXXX");
    int fd = mkstemp(f->path);
    assert_true(fd >= 0);
    assert_true(write(fd, f->text[0], f->size[0]) == (ssize_t)f->size[0]);
    close(fd);
    f->report = sccd_mesh_report_make(&f->torus);
    sccd_voxel_grid_init(&f->grid);
    assert_true(sccd_voxelize(&f->grid, &f->bottle, 16));
    for (int k = 0; k < 2; ++k) {
        sccd_sphere_list_init(&f->fill[k]);
        assert_true(sccd_spherefill(&f->fill[k], &f->grid, k ? SCCD_FILL_GREEDY : SCCD_FILL_SEED).spheres > 0);
    }
    sccd_spheretree_init(&f->tree);
    assert_true(sccd_spheretree_build(&f->tree, f->fill[1].s, f->fill[1].n, SCCD_BOUND_TIGHT));
    size_t cells = (size_t)f->grid.nx * f->grid.ny * f->grid.nz;
    f->edt = malloc(cells * sizeof *f->edt);
    assert_true(sccd_voxel_edt(&f->grid, f->edt));
    sccd_mesh *meshes[2] = {&f->torus, &f->bottle};
    for (int i = 0; i < 2; ++i) {
        own(&meshes[i]->v, (size_t)meshes[i]->nv * sizeof *meshes[i]->v);
        own(&meshes[i]->t, (size_t)meshes[i]->nt * sizeof *meshes[i]->t);
    }
    own(&f->grid.cells, cells);
    own(&f->fill[0].s, (size_t)f->fill[0].n * sizeof *f->fill[0].s);
    own(&f->fill[1].s, (size_t)f->fill[1].n * sizeof *f->fill[1].s);
    own(&f->tree.nodes, (size_t)f->tree.node_count * sizeof *f->tree.nodes);
    own(&f->tree.leaves, (size_t)f->tree.leaf_count * sizeof *f->tree.leaves);
    own(&f->tree.leaf_source, (size_t)f->tree.leaf_count * sizeof *f->tree.leaf_source);
    sccd_meshtree mt;
    sccd_meshtree_init(&mt);
    sccd_meshtree_options o = mesh_tree_options();
    assert_true(sccd_meshtree_build(&mt, &f->bottle, &o));
    f->meshtree_leaves = mt.tree.leaf_count;
    f->meshtree_error = mt.error_bound;
    sccd_meshtree_destroy(&mt);
    assert_int_equal(sccd_allocated_blocks(), 0);
}

static void mesh_truth_free(mesh_files *f)
{
    void *own_blocks[] = {f->torus.v, f->torus.t, f->bottle.v, f->bottle.t, f->grid.cells, f->fill[0].s, f->fill[1].s,
                          f->tree.nodes, f->tree.leaves, f->tree.leaf_source, f->edt, f->text[0], f->text[1], f->text[2], f->text[3]};
    for (size_t i = 0; i < sizeof own_blocks / sizeof *own_blocks; ++i)
        free(own_blocks[i]);
    unlink(f->path);
}

/* One run of every allocating mesh, fill and tree call, each from the
 * truth's input: the result is the truth's, or the documented failure. */
static void mesh_run(void *ctx)
{
    const mesh_files *f = ctx;
    sccd_mesh m;
    sccd_mesh_init(&m);
    bool ok = sccd_mesh_torus(&m, 1.0, 0.3, 12, 8);
    assert_true(ok ? same_mesh(&m, &f->torus) : empty_mesh(&m));
    ok = sccd_mesh_bottle(&m, 12);
    assert_true(ok ? same_mesh(&m, &f->bottle) : empty_mesh(&m));
    sccd_mesh_report r = sccd_mesh_report_make(&f->torus);
    assert_true(r.boundary_edges == -1 ? !r.closed && !r.oriented : same_report(&r, &f->report));
    for (int i = 0; i < 4; ++i) {
        sccd_load_status st = sccd_mesh_load_buffer(&m, f->text[i], f->size[i], formats[i]);
        assert_true(st.state == SCCD_LOAD_OK ? m.nv == f->loaded_nv[i] && m.nt == f->loaded_nt[i]
                                             : st.state == SCCD_LOAD_NO_MEMORY && empty_mesh(&m));
    }
    sccd_load_status st = sccd_mesh_load_file(&m, f->path, SCCD_MESH_OBJ);
    assert_true(st.state == SCCD_LOAD_OK ? m.nt == f->torus.nt : st.state == SCCD_LOAD_NO_MEMORY && empty_mesh(&m));
    sccd_mesh_destroy(&m);

    sccd_voxel_grid g;
    sccd_voxel_grid_init(&g);
    size_t cells = (size_t)f->grid.nx * f->grid.ny * f->grid.nz;
    if (sccd_voxelize(&g, &f->bottle, 16))
        assert_true(g.nx == f->grid.nx && g.inside == f->grid.inside && memcmp(g.cells, f->grid.cells, cells) == 0);
    else
        assert_true(g.cells == NULL && g.inside == 0);
    sccd_voxel_grid_destroy(&g);
    for (int k = 0; k < 2; ++k) {
        sccd_sphere_list l;
        sccd_sphere_list_init(&l);
        sccd_fill_stats fs = sccd_spherefill(&l, &f->grid, k ? SCCD_FILL_GREEDY : SCCD_FILL_SEED);
        assert_true(fs.spheres == l.n);
        assert_true(l.n == 0 || (l.n == f->fill[k].n && memcmp(l.s, f->fill[k].s, (size_t)l.n * sizeof *l.s) == 0));
        sccd_sphere_list_destroy(&l);
    }
    sccd_fill_check c = sccd_spherefill_check(&f->grid, f->fill[1].s, f->fill[1].n);
    assert_true(c.inside == 0 || (c.inside == f->grid.inside && c.covered == c.inside));
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    if (sccd_spheretree_build(&t, f->fill[1].s, f->fill[1].n, SCCD_BOUND_TIGHT))
        assert_true(t.node_count == f->tree.node_count &&
                    memcmp(t.nodes, f->tree.nodes, (size_t)t.node_count * sizeof *t.nodes) == 0);
    else
        assert_true(t.nodes == NULL && t.node_count == 0);
    sccd_spheretree_destroy(&t);
    sccd_meshtree mt;
    sccd_meshtree_init(&mt);
    sccd_meshtree_options o = mesh_tree_options();
    sccd_real worst = -1.0;
    if (sccd_meshtree_build(&mt, &f->bottle, &o)) {
        assert_true(mt.tree.leaf_count == f->meshtree_leaves && mt.error_bound == f->meshtree_error);
        assert_true(sccd_meshtree_measure(&mt, 4, &worst, NULL) ? worst >= 0.0 && worst <= mt.error_bound : worst == -1.0);
    } else {
        assert_true(mt.tree.node_count == 0 && mt.tri_first == NULL && mt.mesh.nt == 0);
    }
    sccd_meshtree_destroy(&mt);
    int *d2 = malloc(cells * sizeof *d2);
    if (sccd_voxel_edt(&f->grid, d2))
        assert_memory_equal(d2, f->edt, cells * sizeof *d2);
    free(d2);
}

static void test_mesh_fill_tree(void **state)
{
    (void)state;
    listen_reports();
    mesh_files f;
    mesh_truth(&f);
    assert_true(f.fill[0].n > 0 && f.report.closed);
    sweep(mesh_run, &f);
    mesh_truth_free(&f);
    sccd_set_assert_handler(NULL);
}

/* ---- Chipmunk: a whole scene ---- */

#define STEPS 60
#define CP_BODIES 8
#define CP_WALL_ANGLE (0.5 * SCCD_PI)

typedef struct cp_scene {
    cpSpace *space;
    sccd_cp_world *ccd;
    cpBody *body[CP_BODIES]; /* sword, bat, two bullets, four balls */
    int retries;             /* setup calls repeated after a reported failure */
} cp_scene;

typedef struct cp_state { double x, y, a, vx, vy, w; } cp_state;
typedef struct cp_frame { cp_state b[CP_BODIES]; } cp_frame;

static cp_frame cp_capture(const cp_scene *s)
{
    cp_frame f;
    for (int i = 0; i < CP_BODIES; ++i) {
        const cpBody *b = s->body[i];
        f.b[i] = (cp_state){b->p.x, b->p.y, b->a, b->v.x, b->v.y, b->w};
    }
    return f;
}

static bool cp_same(const cp_frame *a, const cp_frame *b, double tol)
{
    for (int i = 0; i < CP_BODIES; ++i) {
        const cp_state *p = &a->b[i], *q = &b->b[i];
        if (!same_real(p->x, q->x, tol) || !same_real(p->y, q->y, tol) || !same_real(p->a, q->a, tol) ||
            !same_real(p->vx, q->vx, tol) || !same_real(p->vy, q->vy, tol) || !same_real(p->w, q->w, tol))
            return false;
    }
    return true;
}

static bool cp_finite(const cp_frame *f)
{
    for (int i = 0; i < CP_BODIES; ++i) {
        const cp_state *p = &f->b[i];
        if (!isfinite(p->x) || !isfinite(p->y) || !isfinite(p->a) || !isfinite(p->vx) || !isfinite(p->vy) ||
            !isfinite(p->w))
            return false;
    }
    return true;
}

/* The game's answer to a reported failure of a setup call: the call again
 * (the failure was the k-th allocation only, so it works now). */
static void cp_enable(cp_scene *s, cpBody *b, cpVect pivot)
{
    sccd_cp_body_enable(s->ccd, b);
    if (!sccd_cp_body_is_enabled(s->ccd, b)) {
        assert_true(fa.hit && strstr(sccd_cp_last_error(s->ccd), "out of memory") != NULL);
        ++s->retries;
        sccd_cp_body_enable(s->ccd, b);
    }
    assert_true(sccd_cp_body_is_enabled(s->ccd, b));
    sccd_cp_body_set_pivot(s->ccd, b, pivot);
}

static cpBody *cp_ball(cpSpace *space, cpVect at, cpFloat r)
{
    cpBody *b = cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0, r, cpvzero)));
    cpBodySetPosition(b, at);
    cpShape *sh = cpSpaceAddShape(space, cpCircleShapeNew(b, r, cpvzero));
    cpShapeSetElasticity(sh, 0.5);
    return b;
}

/* A sword on a motorised hinge swung into a thin wall (chipmunk_demo's
 * sword_wall); a kinematic bat swung through four balls; two bullets fired
 * at a thin wall every 10 steps. */
static void cp_scene_make(cp_scene *s)
{
    memset(s, 0, sizeof *s);
    cpSpace *space = s->space = cpSpaceNew();
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpShape *wall = cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(-1, 60, 1, 105), 0));
    cpShapeSetElasticity(wall, 0.3);
    cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(50, -400, 52, -200), 0));
    s->ccd = sccd_cp_attach(space);
    if (s->ccd == NULL) {
        assert_true(fa.hit && memory_reports > 0);
        ++s->retries;
        s->ccd = sccd_cp_attach(space);
    }
    assert_non_null(s->ccd);

    cpBody *sword = s->body[0] =
        cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForSegment(1.0, cpv(8, 0), cpv(100, 0), 1.5)));
    cpBodySetAngle(sword, CP_WALL_ANGLE - 0.35);
    cpBodySetAngularVelocity(sword, 60.0);
    cpShapeSetElasticity(cpSpaceAddShape(space, cpSegmentShapeNew(sword, cpv(8, 0), cpv(100, 0), 1.5)), 0.6);
    cpSpaceAddConstraint(space, cpPivotJointNew(ground, sword, cpvzero));
    cpConstraintSetMaxForce(cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, sword, -60.0)), 2e5);

    cpBody *bat = s->body[1] = cpSpaceAddBody(space, cpBodyNewKinematic());
    cpBodySetPosition(bat, cpv(300, 0));
    cpBodySetAngularVelocity(bat, 20.0);
    cpSpaceAddShape(space, cpSegmentShapeNew(bat, cpv(0, 0), cpv(80, 0), 2));
    for (int i = 0; i < 2; ++i)
        s->body[2 + i] = cp_ball(space, cpv(0, -300 + 40 * i), 2);
    for (int i = 0; i < 4; ++i) {
        double a = 0.3 + 0.25 * i, r = 30 + 12 * i;
        s->body[4 + i] = cp_ball(space, cpv(300 + r * cos(a), r * sin(a)), 4);
    }
    cp_enable(s, sword, cpvzero);
    cp_enable(s, bat, cpvzero);
    cp_enable(s, s->body[2], cpvzero);
    cp_enable(s, s->body[3], cpvzero);
}

static void cp_scene_free(cp_scene *s)
{
    sccd_cp_detach(s->ccd);
    sccd_cp_space_free_all(s->space);
}

/* Before every 10th step (1-based) the bullets are fired again from x = 20
 * at 50 units a step (a teleport: not swept); without CCD a step carries
 * them past the wall. */
static void cp_scene_fire(cp_scene *s, int step)
{
    if (step % 10 == 1)
        for (int i = 0; i < 2; ++i) {
            cpBodySetPosition(s->body[2 + i], cpv(20, -300 + 40 * i));
            cpBodySetVelocity(s->body[2 + i], cpv(3000, 0));
        }
}

static void cp_scene_step(cp_scene *s, int step)
{
    cp_scene_fire(s, step);
    cpSpaceStep(s->space, DT);
}

/* Whether the move from a to b went through a wall: the sword's unwrapped
 * angle past the wall's ray (±0.05 rad: its far face and the blade's
 * radius), a bullet's centre from before the bullet wall to behind it. */
static bool cp_crossed(const cp_frame *a, const cp_frame *b)
{
    double lo = fmin(a->b[0].a, b->b[0].a), hi = fmax(a->b[0].a, b->b[0].a);
    for (int n = -4; n <= 4; ++n) {
        double wall = CP_WALL_ANGLE + 2.0 * SCCD_PI * n;
        if (lo < wall - 0.05 && hi > wall + 0.05)
            return true;
    }
    for (int i = 2; i < 4; ++i)
        if ((a->b[i].x < 50.0 && b->b[i].x > 52.0) || (a->b[i].x > 52.0 && b->b[i].x < 50.0))
            return true;
    return false;
}

static cp_frame cp_truth[STEPS + 1]; /* every step of a run with no failure */
static int cp_skips, cp_tunnels;     /* steps whose CCD a failure skipped; of them, those Chipmunk let through a wall */
static cp_frame cp_skip[STEPS + 1];  /* [s]: step s without CCD after s - 1 steps with it */
static bool cp_skip_made[STEPS + 1];

/* The step's other valid outcome: the same s - 1 steps, then step s with
 * the CCD detached (Chipmunk alone: neither the CCD bodies nor what the
 * last step left flying followed), as a skipped CCD leaves it. */
static const cp_frame *cp_skipped(int s)
{
    if (!cp_skip_made[s]) {
        cp_scene sc;
        cp_scene_make(&sc);
        for (int i = 1; i < s; ++i)
            cp_scene_step(&sc, i);
        sccd_cp_detach(sc.ccd);
        sc.ccd = NULL;
        cp_scene_step(&sc, s);
        cp_skip[s] = cp_capture(&sc);
        cp_skip_made[s] = true;
        cp_scene_free(&sc);
    }
    return &cp_skip[s];
}

/* One run of the scene under the installed allocator, checked step by step. */
static void cp_run(void *ctx)
{
    (void)ctx;
    bool truth = fa.fail_at == 0;
    cp_scene s;
    cp_scene_make(&s);
    int failed_step = fa.hit ? 0 : -1; /* 0: in the setup */
    for (int step = 1; step <= STEPS; ++step) {
        sccd_cp_counters c0 = sccd_cp_get_counters(s.ccd);
        int memory0 = memory_reports;
        cp_scene_fire(&s, step);
        cp_frame before = cp_capture(&s);
        cpSpaceStep(s.space, DT);
        cp_frame now = cp_capture(&s);
        assert_true(cp_finite(&now));
        if (truth)
            cp_truth[step] = now;
        if (failed_step < 0 && fa.hit)
            failed_step = step;
        /* no failure yet, or one in the setup that the game repeated: as with none */
        if (failed_step <= 0)
            assert_true(cp_same(&now, &cp_truth[step], 0.0));
        if (failed_step == step && !cp_same(&now, &cp_truth[step], 0.0)) {
            /* the CCD skipped this step: reported, counted, Chipmunk's own result */
            sccd_cp_counters c1 = sccd_cp_get_counters(s.ccd);
            assert_true(c1.errors > c0.errors && memory_reports > memory0);
            assert_non_null(strstr(sccd_cp_last_error(s.ccd), "out of memory"));
            assert_true(cp_same(&now, cp_skipped(step), 1e-9));
            ++cp_skips;
            cp_tunnels += cp_crossed(&before, &now);
        } else {
            /* the CCD's step: no wall crossed (after a failure too: it protects again) */
            assert_false(cp_crossed(&before, &now));
        }
        if (step == 11 && failed_step != 11) /* fired again, after any failure: stopped at the wall */
            assert_true(now.b[2].x < 50.0 && now.b[3].x < 50.0);
    }
    cp_scene_free(&s);
}

static void test_chipmunk_scene(void **state)
{
    (void)state;
    listen_reports();
    sweep(cp_run, NULL);
    assert_true(cp_truth[STEPS].b[0].a < CP_WALL_ANGLE); /* the sword is held by the wall */
    assert_true(cp_skips > 0 && cp_tunnels > 0);
    sccd_set_assert_handler(NULL);
}

/* Our Chipmunk spatial index: an insert that runs out of memory leaves the
 * shape out of the index, reported (Chipmunk's insert cannot refuse).
 * cpSpaceEachShape walks the indexes, so the game frees its shapes itself. */
#define SAP_BALLS 40

static void cp_sap_run(void *ctx)
{
    (void)ctx;
    int memory0 = memory_reports;
    cpSpace *space = cpSpaceNew();
    sccd_cp_space_use_sap(space);
    cpBody *balls[SAP_BALLS];
    for (int i = 0; i < SAP_BALLS; ++i) {
        balls[i] = cp_ball(space, cpv(10 * (i % 8), 10 * (i / 8)), 3);
        cpBodySetVelocity(balls[i], cpv(i % 3 - 1, i % 5 - 2));
    }
    for (int i = 0; i < 10; ++i)
        cpSpaceStep(space, DT);
    int indexed = cpSpatialIndexCount(space->dynamicShapes), lost = memory_reports - memory0;
    assert_true(lost <= 1 && indexed == SAP_BALLS - lost);
    for (int i = 0; i < SAP_BALLS; ++i) {
        cpShape *sh = balls[i]->shapeList;
        cpSpaceRemoveShape(space, sh);
        cpShapeFree(sh);
        cpSpaceRemoveBody(space, balls[i]);
        cpBodyFree(balls[i]);
    }
    cpSpaceFree(space);
}

static void test_chipmunk_sap(void **state)
{
    (void)state;
    listen_reports();
    sweep(cp_sap_run, NULL);
    sccd_set_assert_handler(NULL);
}

/* ---- ODE: a whole scene ---- */

#define ODE_BODIES 5

typedef struct ode_scene {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    sccd_ode_world *ccd;
    dBodyID body[ODE_BODIES]; /* blade, two spheres, tree, a loose ball */
    sccd_spheretree tree;
    int retries;
} ode_scene;

typedef struct ode_frame { double b[ODE_BODIES][13]; } ode_frame;

static ode_frame ode_capture(const ode_scene *s)
{
    ode_frame f;
    for (int i = 0; i < ODE_BODIES; ++i) {
        const dReal *p = dBodyGetPosition(s->body[i]), *q = dBodyGetQuaternion(s->body[i]);
        const dReal *v = dBodyGetLinearVel(s->body[i]), *w = dBodyGetAngularVel(s->body[i]);
        double *o = f.b[i];
        for (int k = 0; k < 3; ++k)
            o[k] = p[k], o[7 + k] = v[k], o[10 + k] = w[k];
        for (int k = 0; k < 4; ++k)
            o[3 + k] = q[k];
    }
    return f;
}

static bool ode_same(const ode_frame *a, const ode_frame *b) { return memcmp(a, b, sizeof *a) == 0; }

static bool ode_finite(const ode_frame *f)
{
    for (int i = 0; i < ODE_BODIES; ++i)
        for (int k = 0; k < 13; ++k)
            if (!isfinite(f->b[i][k]))
                return false;
    return true;
}

static void ode_near(void *data, dGeomID g1, dGeomID g2)
{
    ode_scene *s = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    dContact c[4];
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        memset(&c[i].surface, 0, sizeof c[i].surface);
        c[i].surface.mode = dContactApprox1;
        c[i].surface.mu = 0.5;
        dJointAttach(dJointCreateContact(s->world, s->contacts, &c[i]), b1, b2);
    }
}

static void ode_enable(ode_scene *s, dBodyID b)
{
    sccd_ode_body_enable(s->ccd, b);
    if (!sccd_ode_body_is_enabled(s->ccd, b)) {
        assert_true(fa.hit && strstr(sccd_ode_last_error(s->ccd), "out of memory") != NULL);
        ++s->retries;
        sccd_ode_body_enable(s->ccd, b);
    }
    assert_true(sccd_ode_body_is_enabled(s->ccd, b));
}

static dBodyID ode_sphere(ode_scene *s, double x, double y, double r)
{
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    dMassSetSphereTotal(&m, 0.1, r);
    dBodySetMass(b, &m);
    dGeomSetBody(dCreateSphere(s->space, r), b);
    dBodySetPosition(b, x, y, 0.0);
    return b;
}

/* The blade of ode_scenes' blade scene (1 long, hinged at its middle, a
 * motor at 60 rad/s) against a plate 0.02 thick; two spheres fired at a
 * thin plate every 10 steps; a sphere-tree body pushed into a box with a
 * ball beside it. */
static void ode_scene_make(ode_scene *s)
{
    memset(s, 0, sizeof *s);
    s->world = dWorldCreate();
    s->space = dSimpleSpaceCreate(0);
    s->contacts = dJointGroupCreate(0);
    s->ccd = sccd_ode_attach(s->world, s->space);
    if (s->ccd == NULL) {
        assert_true(fa.hit && memory_reports > 0);
        ++s->retries;
        s->ccd = sccd_ode_attach(s->world, s->space);
    }
    assert_non_null(s->ccd);
    dGeomID plate = dCreateBox(s->space, 0.5, 0.02, 0.6);
    dGeomSetPosition(plate, 0.4, 0.0, 0.0);
    sccd_ode_geom_set_material(s->ccd, plate, 0.3, 0.5);
    if (strstr(sccd_ode_last_error(s->ccd), "out of memory") != NULL) {
        ++s->retries;
        sccd_ode_geom_set_material(s->ccd, plate, 0.3, 0.5);
    }
    dGeomSetPosition(dCreateBox(s->space, 0.02, 2.0, 2.0), 1.0, 3.0, 0.0);
    dGeomSetPosition(dCreateBox(s->space, 0.2, 0.2, 0.2), 0.6, -3.0, 0.0);

    dBodyID blade = s->body[0] = dBodyCreate(s->world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, 1.0, 0.02, 0.1);
    dBodySetMass(blade, &m);
    dGeomSetBody(dCreateBox(s->space, 1.0, 0.02, 0.1), blade);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0, 0, 1, -0.4);
    dBodySetRotation(blade, r);
    dBodySetAngularVel(blade, 0, 0, 60.0);
    dJointID hinge = dJointCreateHinge(s->world, 0);
    dJointAttach(hinge, blade, 0);
    dJointSetHingeAnchor(hinge, 0, 0, 0);
    dJointSetHingeAxis(hinge, 0, 0, 1);
    dJointSetHingeParam(hinge, dParamVel, 60.0);
    dJointSetHingeParam(hinge, dParamFMax, 1000.0);
    for (int i = 0; i < 2; ++i)
        s->body[1 + i] = ode_sphere(s, 0.5, 2.7 + 0.6 * i, 0.02);

    sccd_sphere leaves[6];
    for (int i = 0; i < 6; ++i)
        leaves[i] = (sccd_sphere){{0.05 * (i % 3) - 0.05, 0.05 * (i / 3), 0.0}, 0.04};
    sccd_spheretree_init(&s->tree);
    if (!sccd_spheretree_build(&s->tree, leaves, 6, SCCD_BOUND_TIGHT)) {
        assert_true(fa.hit);
        ++s->retries;
        assert_true(sccd_spheretree_build(&s->tree, leaves, 6, SCCD_BOUND_TIGHT));
    }
    dBodyID holder = s->body[3] = dBodyCreate(s->world);
    dMassSetSphereTotal(&m, 0.5, 0.1);
    dBodySetMass(holder, &m);
    dGeomSetBody(sccd_ode_spheretree_create(s->space, &s->tree), holder);
    dBodySetPosition(holder, 0.0, -3.0, 0.0);
    dBodySetLinearVel(holder, 3.0, 0.0, 0.0);
    s->body[4] = ode_sphere(s, 0.0, -2.8, 0.05);

    ode_enable(s, blade);
    ode_enable(s, s->body[1]);
    ode_enable(s, s->body[2]);
}

static void ode_scene_free(ode_scene *s)
{
    sccd_ode_detach(s->ccd);
    dJointGroupDestroy(s->contacts);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
    sccd_spheretree_destroy(&s->tree);
}

/* Before every 10th step (1-based) the spheres are fired again from
 * x = 0.5 at 2 m a step (a teleport: not swept). */
static void ode_scene_fire(ode_scene *s, int step)
{
    if (step % 10 == 1)
        for (int i = 0; i < 2; ++i) {
            dBodySetPosition(s->body[1 + i], 0.5, 2.7 + 0.6 * i, 0.0);
            dBodySetLinearVel(s->body[1 + i], 120.0, 0.0, 0.0);
        }
}

/* The user's loop; without after_step: ODE's step alone. */
static void ode_scene_step(ode_scene *s, bool ccd)
{
    sccd_ode_before_step(s->ccd);
    dSpaceCollide(s->space, s, ode_near);
    dWorldStep(s->world, DT);
    dJointGroupEmpty(s->contacts);
    if (ccd)
        sccd_ode_after_step(s->ccd);
}

/* The blade's angle about z (its body x axis). */
static double blade_angle(const ode_frame *f)
{
    const double *q = &f->b[0][3]; /* w, x, y, z */
    return atan2(2.0 * (q[0] * q[3] + q[1] * q[2]), 1.0 - 2.0 * (q[2] * q[2] + q[3] * q[3]));
}

/* Whether the move from a to b went through a plate: the blade (either
 * end: it is symmetric) through the plate on the +x axis, turning less
 * than π a step; a sphere's centre from before the sphere plate to behind it. */
static bool ode_crossed(const ode_frame *a, const ode_frame *b)
{
    double a0 = blade_angle(a), turn = remainder(blade_angle(b) - a0, 2.0 * SCCD_PI);
    for (int n = -2; n <= 2; ++n) {
        double plate = SCCD_PI * n;
        if ((turn > 0 && a0 < plate - 0.05 && a0 + turn > plate + 0.05) ||
            (turn < 0 && a0 > plate + 0.05 && a0 + turn < plate - 0.05))
            return true;
    }
    for (int i = 1; i < 3; ++i)
        if ((a->b[i][0] < 0.99 && b->b[i][0] > 1.01) || (a->b[i][0] > 1.01 && b->b[i][0] < 0.99))
            return true;
    return false;
}

static ode_frame ode_truth[STEPS + 1];
static int ode_skips, ode_tunnels;
static ode_frame ode_skip[STEPS + 1];
static bool ode_skip_made[STEPS + 1];

/* The step's other valid outcome: s - 1 steps with CCD, then step s without after_step. */
static const ode_frame *ode_skipped(int s)
{
    if (!ode_skip_made[s]) {
        ode_scene sc;
        ode_scene_make(&sc);
        for (int i = 1; i <= s; ++i) {
            ode_scene_fire(&sc, i);
            ode_scene_step(&sc, i < s);
        }
        ode_skip[s] = ode_capture(&sc);
        ode_skip_made[s] = true;
        ode_scene_free(&sc);
    }
    return &ode_skip[s];
}

static void ode_run(void *ctx)
{
    (void)ctx;
    bool truth = fa.fail_at == 0;
    ode_scene s;
    ode_scene_make(&s);
    int failed_step = fa.hit ? 0 : -1; /* 0: in the setup */
    for (int step = 1; step <= STEPS; ++step) {
        sccd_ode_counters c0 = sccd_ode_get_counters(s.ccd);
        int memory0 = memory_reports;
        ode_scene_fire(&s, step);
        ode_frame before = ode_capture(&s);
        ode_scene_step(&s, true);
        ode_frame now = ode_capture(&s);
        assert_true(ode_finite(&now));
        if (truth)
            ode_truth[step] = now;
        if (failed_step < 0 && fa.hit)
            failed_step = step;
        if (failed_step <= 0)
            assert_true(ode_same(&now, &ode_truth[step]));
        if (failed_step == step && !ode_same(&now, &ode_truth[step])) {
            /* the CCD skipped this step: reported, counted, ODE's own result */
            sccd_ode_counters c1 = sccd_ode_get_counters(s.ccd);
            assert_true(c1.errors > c0.errors && memory_reports > memory0);
            assert_true(ode_same(&now, ode_skipped(step)));
            ++ode_skips;
            ode_tunnels += ode_crossed(&before, &now);
        } else {
            assert_false(ode_crossed(&before, &now));
        }
        if (step == 11 && failed_step != 11) /* fired again, after any failure: stopped at the plate */
            assert_true(now.b[1][0] < 0.99 && now.b[2][0] < 0.99);
    }
    ode_scene_free(&s);
}

static void test_ode_scene(void **state)
{
    (void)state;
    listen_reports();
    sweep(ode_run, NULL);
    assert_true(ode_skips > 0 && ode_tunnels > 0);
    sccd_set_assert_handler(NULL);
}

/* sccd_ode_space_collide: out of memory it reports no pair (and says so);
 * its cell grid's scratch failing, every pair (the plain sweep). */
static int ode_pairs, ode_pair_truth;

static void count_pair(void *data, dGeomID g1, dGeomID g2)
{
    (void)data;
    (void)g1;
    (void)g2;
    ++ode_pairs;
}

static void space_collide_run(void *space)
{
    ode_pairs = 0;
    int reported = reports;
    sccd_ode_space_collide(space, NULL, count_pair);
    assert_true(ode_pairs == ode_pair_truth || (fa.hit && ode_pairs == 0 && reports > reported));
}

static void test_ode_space_collide(void **state)
{
    (void)state;
    listen_reports();
    dSpaceID space = dSimpleSpaceCreate(0);
    for (int i = 0; i < 30; ++i)
        dGeomSetPosition(dCreateSphere(space, 0.3), 0.5 * (i % 6), 0.5 * (i / 6), 0.0);
    dSpaceCollide(space, NULL, count_pair);
    ode_pair_truth = ode_pairs;
    assert_true(ode_pair_truth > 0);
    sweep(space_collide_run, space);
    dSpaceDestroy(space);
    sccd_set_assert_handler(NULL);
}

/* A sphere-tree geom touching in more than 32 leaves allocates (fewer use
 * the stack); out of memory it reports and gives the deepest of the first
 * 32 it found. Creating one allocates nothing: its class check collides a
 * probe, and a failure there would register the class again (ODE has four
 * user classes). */
static dGeomID tree_geom, tree_plane;

static void tree_collide_run(void *ctx)
{
    (void)ctx;
    int memory0 = memory_reports;
    dContactGeom c[4];
    assert_int_equal(dCollide(tree_geom, tree_plane, 4, c, sizeof c[0]), 4);
    assert_int_equal(memory_reports, memory0 + fa.hit);
    for (int i = 0; i < 4; ++i)
        assert_true(c[i].depth > 0.0 && c[i].depth < 0.2);
}

static void test_ode_spheretree_contacts(void **state)
{
    (void)state;
    listen_reports();
    sccd_sphere leaves[40];
    for (int i = 0; i < 40; ++i)
        leaves[i] = (sccd_sphere){{0.05 * i, 0.0, -0.001 * i}, 0.1};
    sccd_spheretree tree;
    sccd_spheretree_init(&tree);
    assert_true(sccd_spheretree_build(&tree, leaves, 40, SCCD_BOUND_TIGHT));
    own(&tree.nodes, (size_t)tree.node_count * sizeof *tree.nodes);
    own(&tree.leaves, (size_t)tree.leaf_count * sizeof *tree.leaves);
    own(&tree.leaf_source, (size_t)tree.leaf_count * sizeof *tree.leaf_source);
    fa_install(0, true);
    tree_geom = sccd_ode_spheretree_create(0, &tree);
    assert_int_equal(fa.calls, 0);
    fa_remove();
    tree_plane = dCreatePlane(0, 0.0, 0.0, 1.0, 0.0);
    sweep(tree_collide_run, NULL);
    dGeomDestroy(tree_geom);
    dGeomDestroy(tree_plane);
    free(tree.nodes);
    free(tree.leaves);
    free(tree.leaf_source);
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
        cmocka_unit_test(test_allocator_api),   cmocka_unit_test(test_impact2),
        cmocka_unit_test(test_impact3),         cmocka_unit_test(test_broadphase),
        cmocka_unit_test(test_mesh_fill_tree),  cmocka_unit_test(test_chipmunk_scene),
        cmocka_unit_test(test_chipmunk_sap),    cmocka_unit_test(test_ode_scene),
        cmocka_unit_test(test_ode_space_collide), cmocka_unit_test(test_ode_spheretree_contacts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
