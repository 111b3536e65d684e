/* Broadphase: every method's pairs against brute force on every frame of
 * moving scenes (uniform, the seed's, clustered, mixed sizes, degenerate with
 * equal end points), with proxies created, moved and destroyed in between;
 * box and segment queries against brute force (segments against a separating
 * axis test, an independent method); bad input; 10⁶ proxies against a grid. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

/* ---- pair sets ---- */

typedef struct pairset {
    uint64_t *v;
    int n, cap;
} pairset;

static void ps_add(pairset *s, int a, int b)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
        assert_non_null(s->v);
    }
    assert_true(a < b);
    s->v[s->n++] = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
}

static void ps_collect(int a, int b, void *context) { ps_add(context, a, b); }

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void ps_sort(pairset *s)
{
    if (s->n > 1) {
        qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_u64);
    }
}

/* Equal as sets, and no pair reported twice. */
static void ps_assert_equal(pairset *got, pairset *want)
{
    ps_sort(got);
    ps_sort(want);
    assert_int_equal(got->n, want->n);
    for (int i = 0; i < got->n; ++i) {
        assert_true(got->v[i] == want->v[i]);
    }
}

static void ps_clear(pairset *s) { s->n = 0; }

/* ---- oracles, written out independently of the library ---- */

static bool boxes_touch(sccd_aabb3 a, sccd_aabb3 b)
{
    return !(a.hi.x < b.lo.x || b.hi.x < a.lo.x || a.hi.y < b.lo.y || b.hi.y < a.lo.y || a.hi.z < b.lo.z ||
             b.hi.z < a.lo.z);
}

static void brute_boxes(const sccd_aabb3 *box, const bool *alive, int n, pairset *out)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            if ((alive == NULL || (alive[i] && alive[j])) && boxes_touch(box[i], box[j])) {
                ps_add(out, i, j);
            }
        }
    }
}

static void brute_spheres(const sccd_sphere *s, int n, pairset *out)
{
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            double dx = s[i].c.x - s[j].c.x, dy = s[i].c.y - s[j].c.y, dz = s[i].c.z - s[j].c.z;
            double r = s[i].r + s[j].r;
            if (dx * dx + dy * dy + dz * dz <= r * r) {
                ps_add(out, i, j);
            }
        }
    }
}

/* ---- scenes ---- */

typedef enum scene_kind { UNIFORM, SEED, CLUSTERED, MIXED, ONE_POINT, LATTICE, FLAT2D } scene_kind;

typedef struct scene {
    int n;
    scene_kind kind;
    sccd_v3 *c, *v, *h; /* centre, velocity per frame, half size */
    double world;
} scene;

static sccd_v3 rand_in(sccd_rng *g, double lo, double hi)
{
    return (sccd_v3){sccd_rng_uniform(g, lo, hi), sccd_rng_uniform(g, lo, hi), sccd_rng_uniform(g, lo, hi)};
}

static void scene_spawn(scene *s, int i, sccd_rng *g)
{
    double r = 2;
    switch (s->kind) {
    case CLUSTERED: /* everything in 5 % of the box (§4.2's box, crowded) */
        s->c[i] = rand_in(g, 47.5, 52.5);
        break;
    case MIXED:
        r = sccd_rng_uniform(g, 0.5, 20);
        s->c[i] = rand_in(g, 0, 100);
        break;
    case ONE_POINT:
        r = sccd_rng_int(g, 3) == 0 ? 0 : 1; /* zero-size boxes too */
        s->c[i] = (sccd_v3){5, 5, 5};
        break;
    case LATTICE: /* integer end points: equal and touching ends everywhere */
        r = 0.5 * sccd_rng_int(g, 3);
        s->c[i] = (sccd_v3){sccd_rng_int(g, 8) + r, sccd_rng_int(g, 8) + r, sccd_rng_int(g, 8) + r};
        break;
    default:
        s->c[i] = rand_in(g, 2, 98);
        r = s->kind == UNIFORM ? sccd_rng_uniform(g, 0, 3) : 2;
        break;
    }
    s->h[i] = (sccd_v3){r, r, r};
    s->v[i] = rand_in(g, -0.5, 0.5);
    if (s->kind == LATTICE || s->kind == ONE_POINT) {
        s->v[i] = (sccd_v3){0, 0, 0};
    }
    if (s->kind == FLAT2D) {
        s->c[i].z = 0, s->v[i].z = 0, s->h[i].z = 0;
    }
}

static scene scene_make(scene_kind kind, int n, sccd_rng *g)
{
    scene s = {n, kind, calloc((size_t)n, sizeof(sccd_v3)), calloc((size_t)n, sizeof(sccd_v3)),
               calloc((size_t)n, sizeof(sccd_v3)), 100};
    assert_true(s.c && s.v && s.h);
    for (int i = 0; i < n; ++i) {
        scene_spawn(&s, i, g);
    }
    return s;
}

static void scene_free(scene *s)
{
    free(s->c);
    free(s->v);
    free(s->h);
}

/* One frame of §4.2's motion: straight lines, bouncing off the walls. */
static void scene_step(scene *s, sccd_rng *g)
{
    for (int i = 0; i < s->n; ++i) {
        if (s->kind == LATTICE) { /* jump by whole units: end points stay equal */
            int axis = sccd_rng_int(g, 3), step = sccd_rng_int(g, 3) - 1;
            double *p = axis == 0 ? &s->c[i].x : (axis == 1 ? &s->c[i].y : &s->c[i].z);
            *p += step;
            continue;
        }
        s->c[i] = sccd_v3_add(s->c[i], s->v[i]);
        if (s->c[i].x < 0 || s->c[i].x > s->world) s->v[i].x = -s->v[i].x;
        if (s->c[i].y < 0 || s->c[i].y > s->world) s->v[i].y = -s->v[i].y;
        if (s->c[i].z < 0 || s->c[i].z > s->world) s->v[i].z = -s->v[i].z;
    }
}

static sccd_aabb3 scene_box(const scene *s, int i)
{
    return (sccd_aabb3){sccd_v3_sub(s->c[i], s->h[i]), sccd_v3_add(s->c[i], s->h[i])};
}

static sccd_aabb2 box2_of(sccd_aabb3 b) { return (sccd_aabb2){{b.lo.x, b.lo.y}, {b.hi.x, b.hi.y}}; }

/* ---- the seed's methods ---- */

typedef sccd_bp_stats seed_method(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context);

static sccd_bp_stats distance_from_centre(const sccd_sphere *s, int n, sccd_bp_pair_fn *fn, void *context)
{
    return sccd_bp_distance_sort(s, n, (sccd_v3){50, 50, 50}, fn, context);
}

static void test_seed_methods_match_brute(void **state)
{
    (void)state;
    seed_method *methods[] = {sccd_bp_brute, distance_from_centre, sccd_bp_xyz_sweep, sccd_bp_best_axis};
    scene_kind kinds[] = {UNIFORM, SEED, CLUSTERED, MIXED, ONE_POINT, LATTICE, FLAT2D};
    sccd_rng g = sccd_rng_make(101);
    pairset got = {0}, want = {0};
    int64_t checked = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; ++k) {
        int n = kinds[k] == CLUSTERED ? 150 : 400;
        scene s = scene_make(kinds[k], n, &g);
        sccd_sphere *sp = malloc((size_t)n * sizeof *sp);
        for (int frame = 0; frame < 12; ++frame) {
            for (int i = 0; i < n; ++i) {
                sp[i] = (sccd_sphere){s.c[i], s.h[i].x};
            }
            ps_clear(&want);
            brute_spheres(sp, n, &want);
            for (size_t m = 0; m < sizeof methods / sizeof *methods; ++m) {
                ps_clear(&got);
                sccd_bp_stats st = methods[m](sp, n, ps_collect, &got);
                assert_int_equal(st.pairs, want.n);
                assert_true(st.pair_tests >= st.pairs && st.pair_tests <= (int64_t)n * (n - 1) / 2);
                ps_assert_equal(&got, &want);
                checked += st.pair_tests;
            }
            scene_step(&s, &g);
        }
        free(sp);
        scene_free(&s);
    }
    assert_true(checked > 10000);
    free(got.v);
    free(want.v);
}

/* Exactly touching spheres (integer geometry: 3-4-5) count as touching. */
static void test_seed_methods_touching(void **state)
{
    (void)state;
    sccd_sphere s[3] = {{{0, 0, 0}, 2}, {{3, 4, 0}, 3}, {{3, 4, 10}, 1}};
    seed_method *methods[] = {sccd_bp_brute, distance_from_centre, sccd_bp_xyz_sweep, sccd_bp_best_axis};
    for (size_t m = 0; m < 4; ++m) {
        pairset got = {0};
        sccd_bp_stats st = methods[m](s, 3, ps_collect, &got);
        assert_int_equal(st.pairs, 1);
        assert_true(got.n == 1 && got.v[0] == ((uint64_t)0 << 32 | 1));
        free(got.v);
    }
}

/* ---- our index ---- */

typedef struct model {
    scene s;
    bool *alive;
    int *id_of;   /* scene object → proxy id */
    int *obj_of;  /* proxy id → scene object */
} model;

static void map_pairs(const model *m, const pairset *ids, pairset *objs)
{
    ps_clear(objs);
    for (int i = 0; i < ids->n; ++i) {
        int a = m->obj_of[ids->v[i] >> 32], b = m->obj_of[ids->v[i] & 0xffffffffu];
        ps_add(objs, a < b ? a : b, a < b ? b : a);
    }
}

/* Run frames of a scene through a 3D (or 2D) index with churn: each frame a
 * few objects are destroyed and re-created elsewhere, all move, and the pairs
 * must equal brute force's over the live boxes. */
static void run_index_frames(scene_kind kind, int n, int frames, bool two_d, uint64_t seed)
{
    sccd_rng g = sccd_rng_make(seed);
    model m = {scene_make(kind, n, &g), calloc((size_t)n, 1), calloc((size_t)n, sizeof(int)),
               calloc((size_t)n, sizeof(int))};
    sccd_bp3 bp3;
    sccd_bp2 bp2;
    sccd_bp3_init(&bp3);
    sccd_bp2_init(&bp2);
    pairset got = {0}, ids = {0}, want = {0};
    for (int i = 0; i < n; ++i) {
        int id;
        sccd_aabb3 b = scene_box(&m.s, i);
        sccd_bp_status st = two_d ? sccd_bp2_create_proxy(&bp2, box2_of(b), &m.s.c[i], &id)
                                  : sccd_bp3_create_proxy(&bp3, b, &m.s.c[i], &id);
        assert_int_equal(st, SCCD_BP_OK);
        m.alive[i] = true, m.id_of[i] = id, m.obj_of[id] = i;
    }
    sccd_aabb3 *boxes = malloc((size_t)n * sizeof *boxes);
    for (int frame = 0; frame < frames; ++frame) {
        for (int c = 0; c < n / 20 + 1; ++c) { /* churn */
            int i = sccd_rng_int(&g, n);
            if (m.alive[i]) {
                assert_int_equal(two_d ? sccd_bp2_destroy_proxy(&bp2, m.id_of[i])
                                       : sccd_bp3_destroy_proxy(&bp3, m.id_of[i]),
                                 SCCD_BP_OK);
                m.alive[i] = false;
            } else {
                scene_spawn(&m.s, i, &g);
                int id;
                sccd_aabb3 b = scene_box(&m.s, i);
                assert_int_equal(two_d ? sccd_bp2_create_proxy(&bp2, box2_of(b), &m.s.c[i], &id)
                                       : sccd_bp3_create_proxy(&bp3, b, &m.s.c[i], &id),
                                 SCCD_BP_OK);
                m.alive[i] = true, m.id_of[i] = id, m.obj_of[id] = i;
            }
        }
        scene_step(&m.s, &g);
        for (int i = 0; i < n; ++i) {
            boxes[i] = scene_box(&m.s, i);
            if (two_d) {
                boxes[i].lo.z = boxes[i].hi.z = 0;
            }
            if (m.alive[i]) {
                assert_int_equal(two_d ? sccd_bp2_move_proxy(&bp2, m.id_of[i], box2_of(boxes[i]))
                                       : sccd_bp3_move_proxy(&bp3, m.id_of[i], boxes[i]),
                                 SCCD_BP_OK);
            }
        }
        ps_clear(&ids);
        sccd_bp_stats st = two_d ? sccd_bp2_update_pairs(&bp2, ps_collect, &ids)
                                 : sccd_bp3_update_pairs(&bp3, ps_collect, &ids);
        map_pairs(&m, &ids, &got);
        ps_clear(&want);
        brute_boxes(boxes, m.alive, n, &want);
        assert_int_equal(st.pairs, want.n);
        ps_assert_equal(&got, &want);
        int live = 0;
        for (int i = 0; i < n; ++i) {
            live += m.alive[i];
        }
        assert_int_equal(two_d ? sccd_bp2_count(&bp2) : sccd_bp3_count(&bp3), live);
    }
    free(boxes);
    free(got.v);
    free(ids.v);
    free(want.v);
    free(m.alive);
    free(m.id_of);
    free(m.obj_of);
    scene_free(&m.s);
    sccd_bp3_destroy(&bp3);
    sccd_bp2_destroy(&bp2);
}

static void test_index_uniform(void **state)
{
    (void)state;
    run_index_frames(UNIFORM, 500, 60, false, 201);
    run_index_frames(UNIFORM, 500, 60, true, 202);
}

static void test_index_seed_scene(void **state)
{
    (void)state;
    run_index_frames(SEED, 1000, 30, false, 203);
}

static void test_index_clustered_and_mixed(void **state)
{
    (void)state;
    run_index_frames(CLUSTERED, 300, 30, false, 204);
    run_index_frames(MIXED, 400, 30, false, 205);
    run_index_frames(MIXED, 400, 30, true, 206);
}

static void test_index_degenerate(void **state)
{
    (void)state;
    run_index_frames(ONE_POINT, 200, 5, false, 207); /* every pair: 19,900 */
    run_index_frames(LATTICE, 400, 40, false, 208);  /* equal end points */
    run_index_frames(LATTICE, 400, 40, true, 209);
    run_index_frames(FLAT2D, 400, 20, false, 210);   /* zero thickness in z */
}

static bool collect_id(int proxy_id, void *user_data, void *context)
{
    (void)user_data;
    ps_add(context, proxy_id, proxy_id + 1);
    return true;
}

/* Boxes the size of the world among small ones, and all identical boxes. */
static void test_index_world_boxes(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(211);
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    enum { N = 300 };
    sccd_aabb3 boxes[N];
    pairset got = {0}, want = {0};
    for (int i = 0; i < N; ++i) {
        sccd_v3 c = rand_in(&g, 0, 100);
        boxes[i] = i % 50 == 0 ? (sccd_aabb3){{-1e6, -1e6, -1e6}, {1e6, 1e6, 1e6}}
                               : (sccd_aabb3){sccd_v3_sub(c, (sccd_v3){1, 1, 1}), sccd_v3_add(c, (sccd_v3){1, 1, 1})};
        int id;
        assert_int_equal(sccd_bp3_create_proxy(&bp, boxes[i], NULL, &id), SCCD_BP_OK);
        assert_int_equal(id, i);
    }
    sccd_bp3_update_pairs(&bp, ps_collect, &got);
    brute_boxes(boxes, NULL, N, &want);
    ps_assert_equal(&got, &want);
    /* A world box meets everything: a query from far away still finds it. */
    ps_clear(&got);
    sccd_bp_stats st = sccd_bp3_query(&bp, (sccd_aabb3){{5e5, 5e5, 5e5}, {5e5, 5e5, 5e5}}, collect_id, &got);
    assert_int_equal(st.pairs, N / 50);
    assert_int_equal(got.n, N / 50);
    free(got.v);
    free(want.v);
    sccd_bp3_destroy(&bp);
}

/* The sweep axis follows the spread, and pairs stay right across the switch. */
static void test_axis_switch(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(212);
    enum { N = 400 };
    sccd_aabb3 boxes[N];
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    pairset got = {0}, want = {0};
    for (int phase = 0; phase < 3; ++phase) {
        /* spread along x, then y, then z */
        for (int i = 0; i < N; ++i) {
            double u = sccd_rng_uniform(&g, 0, 1000), a = sccd_rng_uniform(&g, 0, 10), b = sccd_rng_uniform(&g, 0, 10);
            sccd_v3 c = phase == 0 ? (sccd_v3){u, a, b} : (phase == 1 ? (sccd_v3){a, u, b} : (sccd_v3){a, b, u});
            boxes[i] = (sccd_aabb3){sccd_v3_sub(c, (sccd_v3){1, 1, 1}), sccd_v3_add(c, (sccd_v3){1, 1, 1})};
            int id;
            if (phase == 0) {
                assert_int_equal(sccd_bp3_create_proxy(&bp, boxes[i], NULL, &id), SCCD_BP_OK);
            } else {
                assert_int_equal(sccd_bp3_move_proxy(&bp, i, boxes[i]), SCCD_BP_OK);
            }
        }
        ps_clear(&got);
        ps_clear(&want);
        sccd_bp_stats st = sccd_bp3_update_pairs(&bp, ps_collect, &got);
        brute_boxes(boxes, NULL, N, &want);
        ps_assert_equal(&got, &want);
        assert_int_equal(sccd_bp3_sweep_axis(&bp), phase);
        /* Along the spread axis few boxes share an interval. */
        assert_true(st.pair_tests < 4 * N);
    }
    free(got.v);
    free(want.v);
    sccd_bp3_destroy(&bp);
}

/* The list form equals the callback form; steady frames allocate nothing. */
static void test_pair_list_and_capacity(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(213);
    scene s = scene_make(SEED, 800, &g);
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    for (int i = 0; i < s.n; ++i) {
        int id;
        assert_int_equal(sccd_bp3_create_proxy(&bp, scene_box(&s, i), NULL, &id), SCCD_BP_OK);
    }
    int count, cap_entries = 0, cap_pairs = 0;
    for (int frame = 0; frame < 30; ++frame) {
        scene_step(&s, &g);
        for (int i = 0; i < s.n; ++i) {
            sccd_bp3_move_proxy(&bp, i, scene_box(&s, i));
        }
        pairset cb = {0}, list = {0};
        sccd_bp_stats st;
        const sccd_bp_pair *p = sccd_bp3_pairs(&bp, &count, &st);
        for (int k = 0; k < count; ++k) {
            ps_add(&list, p[k].a, p[k].b);
        }
        sccd_bp3_update_pairs(&bp, ps_collect, &cb);
        assert_int_equal(st.pairs, count);
        ps_assert_equal(&list, &cb);
        free(cb.v);
        free(list.v);
        if (frame == 10) {
            cap_entries = bp.index.entry_capacity;
            cap_pairs = bp.index.pair_capacity;
        }
        if (frame > 10) {
            assert_int_equal(bp.index.entry_capacity, cap_entries);
            assert_true(bp.index.pair_capacity <= 2 * cap_pairs);
        }
    }
    /* Time coherence: small moves never needed a full re-sort after the first. */
    assert_true(bp.index.rebuilds <= 2);
    sccd_bp3_destroy(&bp);
    scene_free(&s);
}

/* ---- queries ---- */

/* Separating axis test of segment a→b against a box (Ericson's form): the
 * signed largest separation, divided by each axis' length. */
static double segment_box_separation(sccd_v3 a, sccd_v3 b, sccd_aabb3 box, bool flat)
{
    sccd_v3 e = sccd_v3_scale(sccd_v3_sub(box.hi, box.lo), 0.5), c = sccd_v3_scale(sccd_v3_add(box.hi, box.lo), 0.5);
    sccd_v3 m = sccd_v3_sub(sccd_v3_scale(sccd_v3_add(a, b), 0.5), c), h = sccd_v3_scale(sccd_v3_sub(b, a), 0.5);
    double mm[3] = {m.x, m.y, m.z}, hh[3] = {h.x, h.y, h.z}, ee[3] = {e.x, e.y, e.z};
    int dims = flat ? 2 : 3;
    double sep = -INFINITY;
    for (int k = 0; k < dims; ++k) {
        sep = fmax(sep, fabs(mm[k]) - ee[k] - fabs(hh[k]));
    }
    for (int k = 0; k < 3; ++k) { /* axis e_k × h */
        int i = (k + 1) % 3, j = (k + 2) % 3;
        if (flat && k != 2) {
            continue; /* in 2D only the segment's normal (z × h) is an axis */
        }
        double len = sqrt(hh[i] * hh[i] + hh[j] * hh[j]);
        if (len > 0) {
            double d = fabs(mm[i] * hh[j] - mm[j] * hh[i]) - (ee[i] * fabs(hh[j]) + ee[j] * fabs(hh[i]));
            sep = fmax(sep, d / len);
        }
    }
    return sep;
}

typedef struct ray_log {
    pairset hits;
    double t_min;
    bool clip;
} ray_log;

static sccd_real log_ray(int proxy_id, void *user_data, sccd_real t, void *context)
{
    (void)user_data;
    ray_log *log = context;
    assert_true(t >= 0 && t <= 1);
    ps_add(&log->hits, proxy_id, proxy_id + 1);
    log->t_min = fmin(log->t_min, t);
    return log->clip ? t : 1;
}

static void run_queries(bool two_d, uint64_t seed)
{
    sccd_rng g = sccd_rng_make(seed);
    scene s = scene_make(two_d ? FLAT2D : MIXED, 600, &g);
    sccd_bp3 bp3;
    sccd_bp2 bp2;
    sccd_bp3_init(&bp3);
    sccd_bp2_init(&bp2);
    sccd_aabb3 *boxes = malloc((size_t)s.n * sizeof *boxes);
    for (int i = 0; i < s.n; ++i) {
        boxes[i] = scene_box(&s, i);
        int id;
        if (two_d) {
            sccd_bp2_create_proxy(&bp2, box2_of(boxes[i]), NULL, &id);
        } else {
            sccd_bp3_create_proxy(&bp3, boxes[i], NULL, &id);
        }
    }
    pairset got = {0}, want = {0};
    int64_t compared = 0;
    for (int q = 0; q < 5000; ++q) {
        if (q % 100 == 0) { /* queries between moves see the new boxes */
            scene_step(&s, &g);
            for (int i = 0; i < s.n; ++i) {
                boxes[i] = scene_box(&s, i);
                if (two_d) {
                    sccd_bp2_move_proxy(&bp2, i, box2_of(boxes[i]));
                } else {
                    sccd_bp3_move_proxy(&bp3, i, boxes[i]);
                }
            }
        }
        /* box query */
        sccd_v3 c = rand_in(&g, -10, 110), h = rand_in(&g, 0, q % 2 ? 15 : 0.5);
        if (two_d) {
            c.z = h.z = 0;
        }
        sccd_aabb3 qb = {sccd_v3_sub(c, h), sccd_v3_add(c, h)};
        ps_clear(&got);
        ps_clear(&want);
        if (two_d) {
            sccd_bp2_query(&bp2, box2_of(qb), collect_id, &got);
        } else {
            sccd_bp3_query(&bp3, qb, collect_id, &got);
        }
        for (int i = 0; i < s.n; ++i) {
            if (boxes_touch(qb, boxes[i])) {
                ps_add(&want, i, i + 1);
            }
        }
        ps_assert_equal(&got, &want);
        /* segment query, also a point (a = b) now and then */
        sccd_v3 a = rand_in(&g, -10, 110), b = q % 10 == 0 ? a : rand_in(&g, -10, 110);
        if (two_d) {
            a.z = b.z = 0;
        }
        ray_log log = {{0}, INFINITY, false};
        if (two_d) {
            sccd_bp2_ray_query(&bp2, (sccd_v2){a.x, a.y}, (sccd_v2){b.x, b.y}, log_ray, &log);
        } else {
            sccd_bp3_ray_query(&bp3, a, b, log_ray, &log);
        }
        ps_sort(&log.hits);
        int k = 0;
        for (int i = 0; i < s.n; ++i) {
            double sep = segment_box_separation(a, b, boxes[i], two_d);
            bool found = k < log.hits.n && (int)(log.hits.v[k] >> 32) == i;
            k += found;
            if (fabs(sep) > 1e-9) { /* near-tangent cases are left to rounding */
                assert_true(found == (sep < 0));
                compared++;
            }
        }
        assert_int_equal(k, log.hits.n);
        /* clipping to each hit leaves the nearest one last */
        if (log.hits.n > 0) {
            ray_log clip = {{0}, INFINITY, true};
            if (two_d) {
                sccd_bp2_ray_query(&bp2, (sccd_v2){a.x, a.y}, (sccd_v2){b.x, b.y}, log_ray, &clip);
            } else {
                sccd_bp3_ray_query(&bp3, a, b, log_ray, &clip);
            }
            assert_true(clip.t_min == log.t_min);
            free(clip.hits.v);
        }
        free(log.hits.v);
    }
    assert_true(compared > 10000);
    free(got.v);
    free(want.v);
    free(boxes);
    scene_free(&s);
    sccd_bp3_destroy(&bp3);
    sccd_bp2_destroy(&bp2);
}

static void test_queries_3d(void **state)
{
    (void)state;
    run_queries(false, 301);
}

static void test_queries_2d(void **state)
{
    (void)state;
    run_queries(true, 302);
}

static bool stop_at_first(int proxy_id, void *user_data, void *context)
{
    (void)proxy_id;
    (void)user_data;
    ++*(int *)context;
    return false;
}

static void test_query_stop_and_user_data(void **state)
{
    (void)state;
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    int tags[5], id;
    for (int i = 0; i < 5; ++i) {
        assert_int_equal(sccd_bp3_create_proxy(&bp, (sccd_aabb3){{0, 0, 0}, {1, 1, 1}}, &tags[i], &id), SCCD_BP_OK);
        assert_ptr_equal(sccd_bp3_user_data(&bp, id), &tags[i]);
    }
    int calls = 0;
    sccd_bp3_query(&bp, (sccd_aabb3){{0, 0, 0}, {2, 2, 2}}, stop_at_first, &calls);
    assert_int_equal(calls, 1);
    /* ids of destroyed proxies come back */
    assert_int_equal(sccd_bp3_destroy_proxy(&bp, 2), SCCD_BP_OK);
    assert_int_equal(sccd_bp3_create_proxy(&bp, (sccd_aabb3){{3, 3, 3}, {4, 4, 4}}, NULL, &id), SCCD_BP_OK);
    assert_int_equal(id, 2);
    sccd_aabb3 b = sccd_bp3_box(&bp, 2);
    assert_true(b.lo.x == 3 && b.hi.z == 4);
    sccd_bp3_destroy(&bp);
    sccd_bp3_destroy(NULL);
    sccd_bp2_destroy(NULL);
}

static void count_proxy(int proxy_id, void *user_data, void *context)
{
    assert_ptr_equal(user_data, NULL);
    ((int *)context)[proxy_id]++;
}

/* The 2D accessors, each, and the pair list, on a tiny hand-made scene:
 * three boxes, two touching at an edge (equal end points), one apart. */
static void test_2d_accessors(void **state)
{
    (void)state;
    sccd_bp2 bp;
    sccd_bp2_init(&bp);
    sccd_aabb2 boxes[3] = {{{0, 0}, {1, 1}}, {{1, 0.5}, {2, 3}}, {{5, 5}, {6, 6}}};
    int id, seen[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(sccd_bp2_create_proxy(&bp, boxes[i], NULL, &id), SCCD_BP_OK);
    }
    assert_int_equal(sccd_bp2_count(&bp), 3);
    sccd_bp2_each(&bp, count_proxy, seen);
    assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
    int count;
    sccd_bp_stats st;
    const sccd_bp_pair *p = sccd_bp2_pairs(&bp, &count, &st);
    assert_int_equal(count, 1);
    assert_true(p[0].a == 0 && p[0].b == 1 && st.pairs == 1);
    sccd_aabb2 b = sccd_bp2_box(&bp, 1);
    assert_true(b.lo.x == 1 && b.hi.y == 3);
    assert_null(sccd_bp2_user_data(&bp, 2));
    assert_true(sccd_bp2_sweep_axis(&bp) == 0 || sccd_bp2_sweep_axis(&bp) == 1);
    assert_int_equal(sccd_bp2_destroy_proxy(&bp, 0), SCCD_BP_OK);
    p = sccd_bp2_pairs(&bp, &count, NULL);
    assert_int_equal(count, 0);
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    b = sccd_bp2_box(&bp, 0); /* destroyed */
    assert_true(b.lo.x == 0 && b.hi.x == 0);
    assert_int_equal(sccd_bp2_move_proxy(&bp, 0, boxes[0]), SCCD_BP_BAD_PROXY);
    assert_int_equal(sccd_bp2_move_proxy(&bp, 1, (sccd_aabb2){{1, 1}, {0, 0}}), SCCD_BP_BAD_BOX);
    assert_int_equal(sccd_test_assert_count(), 3);
    sccd_set_assert_handler(NULL);
    (void)p;
    sccd_bp2_destroy(&bp);
}

/* ---- bad input ---- */

typedef struct reenter {
    sccd_bp3 *bp;
    int refused;
} reenter;

static void create_inside(int a, int b, void *context)
{
    (void)a;
    (void)b;
    reenter *r = context;
    int id;
    r->refused += sccd_bp3_create_proxy(r->bp, (sccd_aabb3){{0, 0, 0}, {1, 1, 1}}, NULL, &id) == SCCD_BP_LOCKED;
    r->refused += sccd_bp3_destroy_proxy(r->bp, 0) == SCCD_BP_LOCKED;
    r->refused += sccd_bp3_update_pairs(r->bp, ps_collect, NULL).pairs == 0;
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    int id;
    const double nan = NAN, inf = INFINITY;
    sccd_aabb3 good = {{0, 0, 0}, {1, 1, 1}};
    sccd_aabb3 bad[] = {{{nan, 0, 0}, {1, 1, 1}}, {{0, 0, 0}, {1, nan, 1}}, {{2, 0, 0}, {1, 1, 1}},
                        {{0, 0, -inf}, {1, 1, 1}}, {{0, 0, 0}, {1, 1, inf}}};
    assert_int_equal(sccd_bp3_create_proxy(&bp, good, NULL, &id), SCCD_BP_OK);
    assert_int_equal(sccd_bp3_create_proxy(&bp, (sccd_aabb3){{0.5, 0.5, 0.5}, {2, 2, 2}}, NULL, &id), SCCD_BP_OK);
    int expected = 0;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        assert_int_equal(sccd_bp3_create_proxy(&bp, bad[i], NULL, &id), SCCD_BP_BAD_BOX);
        assert_int_equal(id, -1);
        assert_int_equal(sccd_bp3_move_proxy(&bp, 0, bad[i]), SCCD_BP_BAD_BOX);
        assert_int_equal(sccd_bp3_query(&bp, bad[i], collect_id, NULL).pairs, 0);
        expected += 3;
        assert_int_equal(sccd_test_assert_count(), expected);
    }
    assert_int_equal(sccd_bp3_count(&bp), 2);
    assert_true(sccd_bp3_box(&bp, 0).hi.x == 1); /* unharmed */
    int bad_ids[] = {-1, 2, 1000};
    for (size_t i = 0; i < 3; ++i) {
        assert_int_equal(sccd_bp3_move_proxy(&bp, bad_ids[i], good), SCCD_BP_BAD_PROXY);
        assert_int_equal(sccd_bp3_destroy_proxy(&bp, bad_ids[i]), SCCD_BP_BAD_PROXY);
        assert_null(sccd_bp3_user_data(&bp, bad_ids[i]));
        sccd_aabb3 z = sccd_bp3_box(&bp, bad_ids[i]);
        assert_true(z.lo.x == 0 && z.hi.x == 0);
        expected += 4;
    }
    assert_int_equal(sccd_test_assert_count(), expected);
    /* a destroyed id is bad until handed out again */
    assert_int_equal(sccd_bp3_destroy_proxy(&bp, 1), SCCD_BP_OK);
    assert_int_equal(sccd_bp3_destroy_proxy(&bp, 1), SCCD_BP_BAD_PROXY);
    expected += 1;
    assert_int_equal(sccd_bp3_create_proxy(&bp, (sccd_aabb3){{0.5, 0.5, 0.5}, {2, 2, 2}}, NULL, &id), SCCD_BP_OK);
    /* NaN segments */
    assert_int_equal(sccd_bp3_ray_query(&bp, (sccd_v3){nan, 0, 0}, (sccd_v3){1, 1, 1}, log_ray, NULL).pairs, 0);
    sccd_bp2 bp2;
    sccd_bp2_init(&bp2);
    assert_int_equal(sccd_bp2_create_proxy(&bp2, (sccd_aabb2){{0, nan}, {1, 1}}, NULL, &id), SCCD_BP_BAD_BOX);
    assert_int_equal(sccd_bp2_ray_query(&bp2, (sccd_v2){0, 0}, (sccd_v2){inf, 1}, log_ray, NULL).pairs, 0);
    assert_int_equal(sccd_bp2_query(&bp2, (sccd_aabb2){{1, 0}, {0, 1}}, collect_id, NULL).pairs, 0);
    expected += 4;
    assert_int_equal(sccd_test_assert_count(), expected);
    /* changing the index from inside its own callback is refused */
    reenter r = {&bp, 0};
    sccd_bp_stats st = sccd_bp3_update_pairs(&bp, create_inside, &r);
    assert_int_equal(st.pairs, 1);
    assert_int_equal(r.refused, 3);
    expected += 3;
    assert_int_equal(sccd_test_assert_count(), expected);
    /* still answers right */
    pairset got = {0};
    sccd_bp3_update_pairs(&bp, ps_collect, &got);
    assert_true(got.n == 1 && got.v[0] == ((uint64_t)0 << 32 | 1));
    /* stateless functions refuse the whole input */
    sccd_sphere sp[2] = {{{0, 0, 0}, 1}, {{0, 0, 0}, -1}};
    seed_method *methods[] = {sccd_bp_brute, distance_from_centre, sccd_bp_xyz_sweep, sccd_bp_best_axis};
    for (size_t m = 0; m < 4; ++m) {
        assert_int_equal(methods[m](sp, 2, ps_collect, &got).pairs, 0);
    }
    sp[1].r = 1, sp[1].c.y = nan;
    assert_int_equal(sccd_bp_brute(sp, 2, ps_collect, &got).pairs, 0);
    sccd_aabb3 two[2] = {good, bad[2]};
    assert_int_equal(sccd_bp3_sweep(two, 2, ps_collect, &got).pairs, 0);
    expected += 6;
    assert_int_equal(sccd_test_assert_count(), expected);
    free(got.v);
    sccd_bp3_destroy(&bp);
    sccd_bp2_destroy(&bp2);
    sccd_set_assert_handler(NULL);
}

/* The one-shot sweep equals brute force on the scenes above. */
static void test_stateless_sweep(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(401);
    scene_kind kinds[] = {UNIFORM, CLUSTERED, MIXED, ONE_POINT, LATTICE, FLAT2D};
    for (size_t k = 0; k < 6; ++k) {
        scene s = scene_make(kinds[k], 300, &g);
        sccd_aabb3 *boxes = malloc(300 * sizeof *boxes);
        for (int i = 0; i < 300; ++i) {
            boxes[i] = scene_box(&s, i);
        }
        pairset got = {0}, want = {0};
        sccd_bp3_sweep(boxes, 300, ps_collect, &got);
        brute_boxes(boxes, NULL, 300, &want);
        ps_assert_equal(&got, &want);
        free(got.v);
        free(want.v);
        free(boxes);
        scene_free(&s);
    }
}

/* ---- 10⁶ proxies ---- */

/* Oracle: bins of width 2 along x (no box is wider), pairs checked within a
 * bin and between neighbouring bins. */
static void grid_pairs(const sccd_aabb3 *b, int n, double x0, pairset *out)
{
    int bins = 0;
    for (int i = 0; i < n; ++i) {
        bins = (int)fmax(bins, floor((b[i].lo.x - x0) / 2) + 2);
    }
    int *head = malloc((size_t)bins * sizeof *head), *next = malloc((size_t)n * sizeof *next);
    for (int k = 0; k < bins; ++k) {
        head[k] = -1;
    }
    for (int i = 0; i < n; ++i) {
        int k = (int)floor((b[i].lo.x - x0) / 2);
        next[i] = head[k];
        head[k] = i;
    }
    for (int k = 0; k + 1 < bins; ++k) {
        for (int i = head[k]; i >= 0; i = next[i]) {
            for (int j = next[i]; j >= 0; j = next[j]) {
                if (boxes_touch(b[i], b[j])) ps_add(out, i < j ? i : j, i < j ? j : i);
            }
            for (int j = head[k + 1]; j >= 0; j = next[j]) {
                if (boxes_touch(b[i], b[j])) ps_add(out, i < j ? i : j, i < j ? j : i);
            }
        }
    }
    free(head);
    free(next);
}

static void test_million_proxies(void **state)
{
    (void)state;
    const char *env = getenv("SCCD_BP_MILLION");
    int n = env ? atoi(env) : 1000000;
    sccd_rng g = sccd_rng_make(501);
    sccd_aabb3 *b = malloc((size_t)n * sizeof *b);
    sccd_bp3 bp;
    sccd_bp3_init(&bp);
    /* A long corridor (x up to 2n, y and z up to 10): the geometry where one
     * sweep axis separates well; widths up to 1.5. */
    for (int i = 0; i < n; ++i) {
        sccd_v3 lo = {sccd_rng_uniform(&g, 0, 2.0 * n), sccd_rng_uniform(&g, 0, 10), sccd_rng_uniform(&g, 0, 10)};
        b[i] = (sccd_aabb3){lo, sccd_v3_add(lo, rand_in(&g, 0, 1.5))};
        int id;
        assert_int_equal(sccd_bp3_create_proxy(&bp, b[i], NULL, &id), SCCD_BP_OK);
    }
    pairset got = {0}, want = {0};
    for (int round = 0; round < 2; ++round) {
        if (round == 1) { /* everyone moves a little: insertion sort, no rebuild */
            for (int i = 0; i < n; ++i) {
                sccd_v3 d = rand_in(&g, -0.5, 0.5);
                b[i] = (sccd_aabb3){sccd_v3_add(b[i].lo, d), sccd_v3_add(b[i].hi, d)};
                assert_int_equal(sccd_bp3_move_proxy(&bp, i, b[i]), SCCD_BP_OK);
            }
        }
        int64_t rebuilds = bp.index.rebuilds;
        ps_clear(&got);
        ps_clear(&want);
        sccd_bp_stats st = sccd_bp3_update_pairs(&bp, ps_collect, &got);
        grid_pairs(b, n, -1.0, &want);
        ps_assert_equal(&got, &want);
        assert_true(st.pair_tests < 4LL * n);
        assert_int_equal(sccd_bp3_sweep_axis(&bp), 0);
        if (round == 1) {
            assert_true(bp.index.rebuilds == rebuilds);
        }
    }
    assert_int_equal(sccd_bp3_count(&bp), n);
    free(got.v);
    free(want.v);
    free(b);
    sccd_bp3_destroy(&bp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_methods_match_brute),
        cmocka_unit_test(test_seed_methods_touching),
        cmocka_unit_test(test_index_uniform),
        cmocka_unit_test(test_index_seed_scene),
        cmocka_unit_test(test_index_clustered_and_mixed),
        cmocka_unit_test(test_index_degenerate),
        cmocka_unit_test(test_index_world_boxes),
        cmocka_unit_test(test_axis_switch),
        cmocka_unit_test(test_pair_list_and_capacity),
        cmocka_unit_test(test_queries_3d),
        cmocka_unit_test(test_queries_2d),
        cmocka_unit_test(test_query_stop_and_user_data),
        cmocka_unit_test(test_2d_accessors),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_stateless_sweep),
        cmocka_unit_test(test_million_proxies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
