/* The code both adapters share (adapters/adapter_internal.h): the pointer
 * map against a plain array searched one by one, over random adds, sets and
 * removes in tables small enough for long probe runs that wrap around (a
 * removal must move keys back into its hole); the reach index against brute
 * force over steps in which objects come, move, stay away, come back, and a
 * step fails half way; both under allocation failure (every k-th
 * allocation fails: the call reports it, the state still matches the
 * oracle, and every block comes back). */
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

/* Random adds, sets and removes over `ops` operations, the k-th allocation
 * failing (0: none); the map must match the oracle after each. */
static void map_run(unsigned seed, int keys, int ops, long fail_at)
{
    fail_every(fail_at);
    sccd_rng g = sccd_rng_make(seed);
    sccd_adapter_map m = {0};
    oracle o = {0};
    for (int op = 0; op < ops; ++op) {
        int i = sccd_rng_int(&g, keys), v = sccd_rng_int(&g, 1000), what = sccd_rng_int(&g, 4);
        const void *p = &objects[i];
        if (what <= 1) {
            int added = sccd_adapter_map_add(&m, p, v);
            assert_int_equal(added, added < 0 ? -1 : o.in[i] ? 0 : 1);
            if (added == 1)
                o.in[i] = true, o.value[i] = v;
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

/* ---- the reach index ---- */

/* The oracle's object i this step: put (with box and value) or not. */
typedef struct placed { bool put; sccd_aabb3 box; int value; } placed;

static sccd_aabb3 random_box(sccd_rng *g, bool flat)
{
    sccd_v3 c = sccd_rng_v3(g, 10.0), h = {sccd_rng_uniform(g, 0.0, 1.5), sccd_rng_uniform(g, 0.0, 1.5), sccd_rng_uniform(g, 0.0, 1.5)};
    if (sccd_rng_int(g, 20) == 0)
        h.x = 8.0; /* a few wide ones widen the index's query window */
    if (flat)
        c.z = h.z = 0.0;
    return (sccd_aabb3){sccd_v3_sub(c, h), sccd_v3_add(c, h)};
}

static bool meet(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

typedef struct found { int count[KEYS]; } found;

static bool collect(int value, void *context)
{
    found *f = context;
    assert_true(value >= 0 && value < KEYS);
    ++f->count[value];
    return true;
}

static bool refuse(int value, void *context)
{
    (void)value;
    ++*(int *)context;
    return false;
}

/* Queries of random boxes (and one not finite: everything put) against
 * brute force over the objects put this step; values are the objects'
 * indices, so each must come exactly once. */
static void check_queries(sccd_adapter_reach *r, const placed *pl, sccd_rng *g, bool flat)
{
    for (int q = 0; q < 20; ++q) {
        sccd_aabb3 box = q == 0 ? (sccd_aabb3){{NAN, 0, 0}, {1, 1, 1}} : random_box(g, flat);
        found f = {{0}};
        assert_true(sccd_adapter_reach_query(r, box, collect, &f));
        for (int i = 0; i < KEYS; ++i)
            assert_int_equal(f.count[i], pl[i].put && (q == 0 || meet(pl[i].box, box)) ? 1 : 0);
    }
    int calls = 0; /* a callback that fails stops the query, which says so */
    bool any = false;
    for (int i = 0; i < KEYS; ++i)
        any |= pl[i].put;
    assert_int_equal(sccd_adapter_reach_query(r, (sccd_aabb3){{-20, -20, -20}, {20, 20, 20}}, refuse, &calls), !any);
    assert_int_equal(calls, any ? 1 : 0);
}

/* Steps of the reach index: each object is put with probability 3/4 (its
 * box moved a little, sometimes far, sometimes not finite: left out), and
 * one step in five fails half way (it stops putting and never ends). The
 * k-th allocation fails (0: none): a put that fails stops that step. */
static void reach_run(unsigned seed, bool flat, long fail_at)
{
    fail_every(fail_at);
    sccd_rng g = sccd_rng_make(seed);
    sccd_adapter_reach r;
    sccd_adapter_reach_init(&r);
    placed pl[KEYS];
    sccd_aabb3 last[KEYS];
    for (int i = 0; i < KEYS; ++i)
        last[i] = random_box(&g, flat);
    for (int step = 0; step < 30; ++step) {
        sccd_adapter_reach_begin(&r);
        bool failed = sccd_rng_int(&g, 5) == 0, ok = true;
        int stop = failed ? sccd_rng_int(&g, KEYS) : KEYS;
        for (int i = 0; i < KEYS; ++i) {
            pl[i].put = false;
            if (i >= stop || !ok || sccd_rng_int(&g, 4) == 0)
                continue;
            sccd_v3 d = sccd_rng_v3(&g, sccd_rng_int(&g, 10) == 0 ? 8.0 : 0.3);
            if (flat)
                d.z = 0.0;
            last[i] = sccd_rng_int(&g, 30) == 0 ? random_box(&g, flat) : (sccd_aabb3){sccd_v3_add(last[i].lo, d), sccd_v3_add(last[i].hi, d)};
            sccd_aabb3 box = last[i];
            bool finite = sccd_rng_int(&g, 40) != 0;
            if (!finite)
                box.hi.y = INFINITY;
            ok = sccd_adapter_reach_put(&r, &objects[i], i, box);
            pl[i] = (placed){ok && finite, last[i], i};
        }
        check_queries(&r, pl, &g, flat);
        if (!failed && ok)
            sccd_adapter_reach_end(&r);
        else
            failed = true;
        if (!failed) /* every object left over from earlier steps is gone */
            for (int i = 0; i < KEYS; ++i)
                assert_int_equal(sccd_adapter_map_get(&r.proxy_of, &objects[i]) >= 0, pl[i].put);
    }
    sccd_adapter_reach_free(&r);
    allocator_back();
}

static void test_reach_matches_brute_force(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 12; ++seed) {
        reach_run(seed, false, 0);
        reach_run(seed, true, 0); /* 2D boxes, z = 0 */
    }
}

static void test_reach_out_of_memory(void **state)
{
    (void)state;
    for (long k = 1; k <= 40; ++k)
        reach_run(3, false, k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_matches_array),
        cmocka_unit_test(test_map_out_of_memory),
        cmocka_unit_test(test_reach_matches_brute_force),
        cmocka_unit_test(test_reach_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
