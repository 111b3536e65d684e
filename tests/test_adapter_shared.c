/* The code both adapters share (adapters/adapter_internal.h): the pointer
 * map against a plain array searched one by one, over random adds, sets and
 * removes in tables small enough for long probe runs that wrap around (a
 * removal must move keys back into its hole); the query boxes against a
 * brute-force separating-axis test, fewer and more than the scan threshold,
 * points, wide boxes and boxes that are not finite, over rounds that reuse
 * the index; the sorted boxes (the solver's questions) against the same
 * test, with boxes and questions that are not finite, sets cut in tiles,
 * boxes and questions across many tiles, lows that share a sort key; all
 * under allocation failure (every k-th allocation fails: the call reports
 * it, the state still matches the oracle, and every block comes back).
 * And what the solver's questions keep (sccd_adapter_keeps) against every
 * thickness of a dense sweep: never more for a thicker shape, the bound
 * the Chipmunk adapter's keeps_shape leaves a shape unmeasured by. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"
#include "../adapters/adapter_internal.h"

enum { KEYS = 200 };

static char objects[KEYS]; /* the keys: addresses of distinct objects */

/* ---- a failing allocator ---- */

typedef struct failing { long calls, fail_at; } failing;

static void *fa_alloc(size_t size, void *user)
{
    failing *f = user;
    return ++f->calls == f->fail_at ? NULL : malloc(size);
}

static void *fa_realloc(void *ptr, size_t size, void *user)
{
    failing *f = user;
    return ++f->calls == f->fail_at ? NULL : realloc(ptr, size);
}

static void fa_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

static failing fa;

static void fail_every(long k)
{
    fa = (failing){0, k};
    sccd_allocator a = {fa_alloc, fa_realloc, fa_free, &fa};
    assert_true(sccd_set_allocator(&a));
}

/* Back to libc once every block came back. */
static void allocator_back(void)
{
    assert_int_equal(sccd_allocated_blocks(), 0);
    assert_true(sccd_set_allocator(NULL));
}

/* ---- the map ---- */

/* The oracle: which keys are in, with which value. */
typedef struct oracle { int value[KEYS]; bool in[KEYS]; } oracle;

static void check_map(const sccd_adapter_map *m, const oracle *o)
{
    int count = 0;
    for (int i = 0; i < KEYS; ++i) {
        assert_int_equal(sccd_adapter_map_get(m, &objects[i]), o->in[i] ? o->value[i] : -1);
        count += o->in[i];
    }
    assert_int_equal(m->count, count);
    assert_true(2 * m->count <= m->cap || m->cap == 0);
}

/* Random adds, places, sets and removes over `ops` operations, the k-th allocation
 * failing (0: none); the map must match the oracle after each. */
static void map_run(unsigned seed, int keys, int ops, long fail_at)
{
    fail_every(fail_at);
    sccd_rng g = sccd_rng_make(seed);
    sccd_adapter_map m = {0};
    oracle o = {0};
    for (int op = 0; op < ops; ++op) {
        int i = sccd_rng_int(&g, keys), v = sccd_rng_int(&g, 1000), what = sccd_rng_int(&g, 5);
        const void *p = &objects[i];
        if (what <= 1) {
            int added = sccd_adapter_map_add(&m, p, v);
            assert_int_equal(added, added < 0 ? -1 : o.in[i] ? 0 : 1);
            if (added == 1)
                o.in[i] = true, o.value[i] = v;
        } else if (what == 4) { /* place: the slot of the value kept, or of v added */
            int slot = sccd_adapter_map_place(&m, p, v);
            if (slot >= 0 && !o.in[i])
                o.in[i] = true, o.value[i] = v;
            assert_true(slot < 0 || (m.key[slot] == p && m.value[slot] == o.value[i]));
        } else if (what == 2 && o.in[i]) {
            sccd_adapter_map_set(&m, p, v);
            o.value[i] = v;
        } else {
            sccd_adapter_map_remove(&m, p);
            o.in[i] = false;
        }
        check_map(&m, &o);
    }
    sccd_adapter_map_clear(&m);
    memset(&o, 0, sizeof o);
    check_map(&m, &o);
    sccd_adapter_map_free(&m);
    allocator_back();
}

static void test_map_matches_array(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 30; ++seed) {
        map_run(seed, 40, 600, 0);   /* a table of 64 to 128 slots, nearly half full */
        map_run(seed, KEYS, 1500, 0); /* growth to 512 slots and back down by removes */
    }
}

static void test_map_out_of_memory(void **state)
{
    (void)state;
    for (long k = 1; k <= 12; ++k)
        map_run(7, KEYS, 800, k);
}

/* ---- the query boxes ---- */

/* Half the boxes on a grid of halves, where end points often coincide
 * (touching counts as meeting). */
static sccd_aabb3 random_box(sccd_rng *g, bool flat)
{
    sccd_v3 c = sccd_rng_v3(g, 10.0), h = {sccd_rng_uniform(g, 0.0, 1.5), sccd_rng_uniform(g, 0.0, 1.5), sccd_rng_uniform(g, 0.0, 1.5)};
    if (sccd_rng_int(g, 2) == 0) {
        c = (sccd_v3){sccd_rng_int(g, 9) - 4, sccd_rng_int(g, 9) - 4, sccd_rng_int(g, 9) - 4};
        h = (sccd_v3){0.5 * sccd_rng_int(g, 4), 0.5 * sccd_rng_int(g, 4), 0.5 * sccd_rng_int(g, 4)};
    }
    if (sccd_rng_int(g, 20) == 0)
        h.x = 8.0; /* a few wide ones widen the index's query window */
    if (sccd_rng_int(g, 40) == 0)
        h = (sccd_v3){0.0, 0.0, 0.0}; /* a point: touching counts */
    if (flat)
        c.z = h.z = 0.0;
    return (sccd_aabb3){sccd_v3_sub(c, h), sccd_v3_add(c, h)};
}

/* Now and then a box that is not finite. */
static sccd_aabb3 maybe_wild(sccd_rng *g, sccd_aabb3 b)
{
    int k = sccd_rng_int(g, 30);
    if (k == 0)
        b.hi.y = INFINITY;
    else if (k == 1)
        b.lo.x = NAN;
    return b;
}

/* The oracle's test, independent of the index: boxes meet when no axis
 * separates them; a query box that is not finite meets every finite box,
 * a box that is not finite meets nothing. */
static bool oracle_meets(sccd_aabb3 query, sccd_aabb3 object)
{
    if (!sccd_is_valid_aabb3(object))
        return false;
    if (!sccd_is_valid_aabb3(query))
        return true;
    return !(query.hi.x < object.lo.x || object.hi.x < query.lo.x || query.hi.y < object.lo.y ||
             object.hi.y < query.lo.y || query.hi.z < object.lo.z || object.hi.z < query.lo.z);
}

typedef struct found { int count[KEYS]; } found;

static bool collect(int box, void *context)
{
    found *f = context;
    assert_true(box >= 0 && box < KEYS);
    ++f->count[box];
    return true;
}

static bool refuse(int box, void *context)
{
    (void)box;
    ++*(int *)context;
    return false;
}

/* Rounds of n query boxes (n across the scan threshold), each matched by
 * objects against brute force, then cleared; the k-th allocation fails
 * (0: none): the add that fails adds nothing and the round goes on with the
 * boxes it has. */
static void queries_run(unsigned seed, bool flat, long fail_at)
{
    fail_every(fail_at);
    sccd_rng g = sccd_rng_make(seed);
    sccd_adapter_queries q;
    sccd_adapter_queries_init(&q);
    sccd_aabb3 boxes[KEYS];
    for (int round = 0; round < 24; ++round) {
        int want = sccd_rng_int(&g, round % 2 ? KEYS : SCCD_ADAPTER_SCAN_BOXES + 2), n = 0;
        for (int i = 0; i < want; ++i) {
            sccd_aabb3 b = maybe_wild(&g, random_box(&g, flat));
            int at = sccd_adapter_queries_add(&q, b);
            assert_int_equal(at, at < 0 ? -1 : n);
            if (at >= 0)
                boxes[n++] = b;
            assert_int_equal(q.count, n);
        }
        for (int o = 0; o < 60; ++o) {
            sccd_aabb3 object = maybe_wild(&g, random_box(&g, flat));
            found f = {{0}};
            assert_true(sccd_adapter_queries_match(&q, object, collect, &f));
            for (int i = 0; i < KEYS; ++i)
                assert_int_equal(f.count[i], i < n && oracle_meets(boxes[i], object) ? 1 : 0);
        }
        int calls = 0; /* a callback that fails stops the match, which says so */
        bool any = false;
        sccd_aabb3 all = {{-30, -30, -30}, {30, 30, 30}};
        for (int i = 0; i < n; ++i)
            any |= oracle_meets(boxes[i], all);
        assert_int_equal(sccd_adapter_queries_match(&q, all, refuse, &calls), !any);
        assert_int_equal(calls, any ? 1 : 0);
        sccd_adapter_queries_clear(&q);
        assert_int_equal(q.count, 0);
    }
    sccd_adapter_queries_free(&q);
    allocator_back();
}

static void test_queries_match_brute_force(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 12; ++seed) {
        queries_run(seed, false, 0);
        queries_run(seed, true, 0); /* 2D boxes, z = 0 */
    }
}

/* ---- the sorted boxes (the solver's questions) ---- */

/* The oracle: an object whose box is NaN (or empty) meets no question, one
 * that is otherwise not finite meets every question; a question that is not
 * finite meets every other object; else no axis separates the boxes. */
static bool sorted_meets(sccd_aabb3 object, sccd_aabb3 question)
{
    bool empty = !(object.lo.x <= object.hi.x && object.lo.y <= object.hi.y && object.lo.z <= object.hi.z);
    if (empty)
        return false;
    if (!sccd_is_valid_aabb3(object) || !sccd_is_valid_aabb3(question))
        return true;
    return !(question.hi.x < object.lo.x || object.hi.x < question.lo.x || question.hi.y < object.lo.y ||
             object.hi.y < question.lo.y || question.hi.z < object.lo.z || object.hi.z < question.lo.z);
}

/* Box b shrunk about its centre to a tenth (a set of small boxes is cut in
 * many tiles, sccd_adapter_sorted_build); the wide ones stay wide. */
static sccd_aabb3 small_box(sccd_aabb3 b)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(b.lo, b.hi), 0.5), h = sccd_v3_scale(sccd_v3_sub(b.hi, b.lo), 0.05);
    h.x = h.x > 0.5 ? 10.0 * h.x : h.x;
    return sccd_is_valid_aabb3(b) ? (sccd_aabb3){sccd_v3_sub(c, h), sccd_v3_add(c, h)} : b;
}

/* The sets asked: boxes as drawn; a tenth of the size (many tiles); as
 * small, one in six stretched across y, z or both (a box in many tiles,
 * or in every one: fewer tiles); as small, with lows a float's precision
 * apart or equal (they share a sort key, the insertion pass orders them);
 * as small, one in fifty moved far to −x (every other low then shares one
 * key: a long run, sorted by qsort). */
typedef enum sorted_set { AS_DRAWN, SMALL, SPANNING, CROWDED, OUTLIER } sorted_set;

/* Box b stretched across the whole set along y, z or both (y when flat),
 * one in every `one_in`. */
static sccd_aabb3 maybe_spanning(sccd_rng *g, sccd_aabb3 b, bool flat, int one_in)
{
    int k = sccd_rng_int(g, 3 * one_in);
    k = flat && k <= 2 ? 0 : k;
    if (k == 0 || k == 2) {
        b.lo.y = sccd_min(b.lo.y, -11.0);
        b.hi.y = sccd_max(b.hi.y, 11.0);
    }
    if (k == 1 || k == 2) {
        b.lo.z = sccd_min(b.lo.z, -11.0);
        b.hi.z = sccd_max(b.hi.z, 11.0);
    }
    return b;
}

/* Box b (a small one) moved to low x 3 + k 1e-12 for k < 6. */
static sccd_aabb3 crowded(sccd_rng *g, sccd_aabb3 b)
{
    sccd_real w = b.hi.x - b.lo.x;
    b.lo.x = 3.0 + 1e-12 * sccd_rng_int(g, 6);
    b.hi.x = b.lo.x + w;
    return b;
}

/* An object or a question of a set: question boxes of a spanning set span
 * the tiles too, a crowded one's objects are crowded. */
static sccd_aabb3 sorted_box(sccd_rng *g, sccd_aabb3 b, sorted_set set, bool flat, bool object)
{
    if (set == AS_DRAWN || !sccd_is_valid_aabb3(b))
        return b;
    b = small_box(b);
    if (set == SPANNING)
        return maybe_spanning(g, b, flat, object ? 6 : 3);
    if (set == OUTLIER && object && sccd_rng_int(g, 50) == 0) {
        b.hi.x -= 1e12;
        b.lo.x -= 1e12;
    }
    return set == CROWDED && object && sccd_rng_int(g, 2) == 0 ? crowded(g, b) : b;
}

/* Sets of objects (sorted once), each asked 60 questions against brute
 * force; the k-th allocation fails (0: none): the add or the build that
 * fails says so, and the set is started again. How many sets were cut
 * across both y and z. */
static int sorted_run(unsigned seed, bool flat, sorted_set set, long fail_at)
{
    int tiled = 0;
    fail_every(fail_at);
    sccd_rng g = sccd_rng_make(seed);
    sccd_adapter_sorted x = {0};
    sccd_aabb3 boxes[KEYS];
    for (int round = 0; round < 24; ++round) {
        sccd_adapter_sorted_clear(&x);
        int want = sccd_rng_int(&g, KEYS), n = 0;
        bool ok = true;
        for (int i = 0; ok && i < want; ++i) {
            boxes[n] = sorted_box(&g, maybe_wild(&g, random_box(&g, flat)), set, flat, true);
            int id = sccd_adapter_sorted_add(&x, boxes[n]);
            ok = id >= 0;
            assert_int_equal(id, ok ? n : -1);
            n += ok;
        }
        if (!ok)
            continue; /* out of memory: nothing asked of a set not made */
        /* as after a step without questions: the first SCCD_ADAPTER_SCANS
         * are answered by scans, the set is sorted at the next (a set of
         * SCCD_ADAPTER_SCANNED boxes or fewer never) */
        sccd_adapter_sorted_next_step(&x);
        sccd_adapter_sorted_next_step(&x);
        int finite = x.count; /* the boxes to sort (before the wide ones are set apart) */
        for (int o = 0; o < 60; ++o) {
            sccd_aabb3 question = sorted_box(&g, random_box(&g, flat), set, flat, false);
            if (sccd_rng_int(&g, 30) == 0)
                question.hi.y = INFINITY;
            found f = {{0}};
            bool asked = sccd_adapter_sorted_ask(&x, question, collect, &f);
            assert_true(asked || fail_at > 0);
            assert_int_equal(x.sorted, o >= SCCD_ADAPTER_SCANS && asked && finite > SCCD_ADAPTER_SCANNED);
            if (!asked)
                break; /* out of memory sorting it: nothing more asked of it */
            for (int i = 0; i < KEYS; ++i)
                assert_int_equal(f.count[i], i < n && sorted_meets(boxes[i], question) ? 1 : 0);
        }
        tiled += x.sorted && x.tiling[0].n > 1 && x.tiling[1].n > 1;
    }
    sccd_adapter_sorted_free(&x);
    allocator_back();
    return tiled;
}

static void test_sorted_match_brute_force(void **state)
{
    (void)state;
    int tiled[OUTLIER + 1] = {0};
    for (unsigned seed = 1; seed <= 12; ++seed) {
        for (sorted_set set = AS_DRAWN; set <= OUTLIER; ++set) {
            tiled[set] += sorted_run(seed, false, set, 0);
            assert_int_equal(sorted_run(seed, true, set, 0), 0); /* 2D: z is not cut */
        }
    }
    assert_true(tiled[SMALL] > 0 && tiled[SPANNING] > 0 && tiled[CROWDED] > 0);
}

static void test_sorted_out_of_memory(void **state)
{
    (void)state;
    for (long k = 1; k <= 40; ++k) {
        sorted_run(5, false, SMALL, k);
        sorted_run(5, false, SPANNING, k);
    }
}

static void test_queries_out_of_memory(void **state)
{
    (void)state;
    for (long k = 1; k <= 40; ++k)
        queries_run(3, false, k);
}

/* ---- what a question keeps ---- */

/* A question keeping k, a shape moving `margin` of a fixed body or not:
 * kept at every thickness of a dense sweep (and at 0, the thickness of a
 * shape that is not valid) whenever it is kept infinitely thick, and
 * whatever keeps it keeps every thinner one. Random questions and margins,
 * NaN and infinite reaches among them; both outcomes of the infinitely
 * thick test must occur, or the sweep proves nothing. */
static void test_keeps_thinner_shapes(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(13);
    int kept_thick = 0, left_thick = 0;
    for (int n = 0; n < 4000; ++n) {
        int r = sccd_rng_int(&g, 20), h = sccd_rng_int(&g, 8);
        sccd_real reach = r == 0 ? NAN : r == 1 ? INFINITY : sccd_rng_uniform(&g, 0.0, 12.0);
        sccd_real half = h == 0 ? INFINITY : h == 1 ? 0.0 : sccd_rng_uniform(&g, 0.0, 10.0);
        sccd_adapter_keep k = {reach, half, sccd_rng_int(&g, 3) == 0};
        sccd_real margin = sccd_rng_int(&g, 4) == 0 ? 0.0 : sccd_rng_uniform(&g, 0.0, 6.0);
        bool fixed = sccd_rng_int(&g, 2) == 0, thick = sccd_adapter_keeps(k, margin, INFINITY, fixed);
        kept_thick += thick;
        left_thick += !thick;
        bool thicker_kept = thick;
        for (int i = 400; i >= 0; --i) { /* from thick to thin */
            bool kept = sccd_adapter_keeps(k, margin, 0.05 * i, fixed);
            assert_true(kept || !thicker_kept);
            thicker_kept = kept;
        }
    }
    assert_true(kept_thick > 100 && left_thick > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_matches_array),
        cmocka_unit_test(test_map_out_of_memory),
        cmocka_unit_test(test_queries_match_brute_force),
        cmocka_unit_test(test_queries_out_of_memory),
        cmocka_unit_test(test_sorted_match_brute_force),
        cmocka_unit_test(test_sorted_out_of_memory),
        cmocka_unit_test(test_keeps_thinner_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
