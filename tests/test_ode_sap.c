/* sccd_ode_space_collide against ODE's own dSpaceCollide on a running
 * simulation: bodies with spheres, boxes and capsules falling on a plane
 * between static boxes, category/collide bits, disabled geoms and disabled
 * bodies, and a nested space. The same bodies carry one geom in a
 * dSimpleSpace and one in a dHashSpace; on every step the pair sets of ours
 * and ODE's must be equal for both spaces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sectorccd_ode.h"
#include "test_util.h"

enum { N_BODIES = 250, N_STATIC = 12, N_NESTED = 8, STEPS = 200, MAX_PAIRS = 1 << 16 };

typedef struct pairs {
    uint64_t v[MAX_PAIRS];
    int n;
    int wrong_order; /* pairs reported with g1 after g2 in the space (ours only) */
} pairs;

static uintptr_t id_of(dGeomID g) { return (uintptr_t)dGeomGetData(g); }

static void record(void *data, dGeomID a, dGeomID b)
{
    pairs *p = data;
    uintptr_t i = id_of(a), j = id_of(b);
    assert_true(p->n < MAX_PAIRS);
    assert_true(i != j);
    p->v[p->n++] = i < j ? ((uint64_t)i << 32 | j) : ((uint64_t)j << 32 | i);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void assert_same(pairs *got, pairs *want)
{
    qsort(got->v, (size_t)got->n, sizeof *got->v, cmp_u64);
    qsort(want->v, (size_t)want->n, sizeof *want->v, cmp_u64);
    for (int i = 0, j = 0; i < got->n || j < want->n;) { /* name the differing pairs first */
        bool mine = j >= want->n || (i < got->n && got->v[i] < want->v[j]);
        bool odes = !mine && (i >= got->n || want->v[j] < got->v[i]);
        uint64_t v = mine ? got->v[i] : want->v[j];
        if (mine || odes) {
            print_message("only %s: geoms %u, %u\n", mine ? "ours" : "ODE's", (unsigned)(v >> 32), (unsigned)v);
        }
        i += !odes;
        j += !mine;
    }
    assert_int_equal(got->n, want->n);
    assert_memory_equal(got->v, want->v, (size_t)got->n * sizeof *got->v);
}

typedef struct sim {
    dWorldID world;
    dSpaceID spaces[2]; /* simple, hash */
    dSpaceID nested;
    dJointGroupID contacts;
    dBodyID bodies[N_BODIES];
    uintptr_t next_id;
} sim;

static dGeomID make_geom(sim *s, dSpaceID space, int kind, double size, sccd_rng *g)
{
    dGeomID geom = kind == 0   ? dCreateSphere(space, size)
                   : kind == 1 ? dCreateBox(space, 2 * size, size, 1.5 * size)
                               : dCreateCapsule(space, 0.5 * size, 2 * size);
    dGeomSetData(geom, (void *)s->next_id++);
    /* categories 1..7; a few geoms collide with one category only */
    unsigned long cat = 1ul << sccd_rng_int(g, 3);
    dGeomSetCategoryBits(geom, cat);
    dGeomSetCollideBits(geom, sccd_rng_int(g, 5) == 0 ? (1ul << sccd_rng_int(g, 3)) : ~0ul);
    return geom;
}

/* Contacts from the simple space drive the simulation. */
static void near_contact(void *data, dGeomID a, dGeomID b)
{
    sim *s = data;
    if (dGeomIsSpace(a) || dGeomIsSpace(b)) {
        dSpaceCollide2(a, b, data, near_contact);
        return;
    }
    dContact c[4];
    memset(c, 0, sizeof c);
    int n = dCollide(a, b, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactBounce;
        c[i].surface.mu = 0.5;
        c[i].surface.bounce = 0.3;
        dJointID j = dJointCreateContact(s->world, s->contacts, &c[i]);
        dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
    }
}

static void sim_make(sim *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    sccd_rng g = sccd_rng_make(seed);
    s->next_id = 1;
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    s->spaces[0] = dSimpleSpaceCreate(NULL);
    s->spaces[1] = dHashSpaceCreate(NULL);
    s->contacts = dJointGroupCreate(0);
    for (int k = 0; k < 2; ++k) {
        dGeomSetData(dCreatePlane(s->spaces[k], 0, 0, 1, 0), (void *)s->next_id++);
    }
    for (int i = 0; i < N_STATIC; ++i) { /* static boxes, no body */
        double x = sccd_rng_uniform(&g, -8, 8), y = sccd_rng_uniform(&g, -8, 8);
        for (int k = 0; k < 2; ++k) {
            dGeomID b = make_geom(s, s->spaces[k], 1, 1.0, &g);
            dGeomSetPosition(b, x, y, 0.5);
        }
    }
    for (int i = 0; i < N_BODIES; ++i) {
        dBodyID b = dBodyCreate(s->world);
        dMass m;
        dMassSetSphere(&m, 1, 0.5);
        dBodySetMass(b, &m);
        dBodySetPosition(b, sccd_rng_uniform(&g, -8, 8), sccd_rng_uniform(&g, -8, 8), sccd_rng_uniform(&g, 0.5, 12));
        dBodySetLinearVel(b, sccd_rng_uniform(&g, -2, 2), sccd_rng_uniform(&g, -2, 2), 0);
        s->bodies[i] = b;
        int kind = sccd_rng_int(&g, 3);
        double size = sccd_rng_uniform(&g, 0.2, 0.6);
        for (int k = 0; k < 2; ++k) {
            dGeomID geom = make_geom(s, s->spaces[k], kind, size, &g);
            dGeomSetBody(geom, b);
            if (i % 10 == 0) { /* a second geom on the same body: never paired with the first */
                dGeomID extra = make_geom(s, s->spaces[k], 0, size, &g);
                dGeomSetBody(extra, b);
                dGeomSetOffsetPosition(extra, 0, 0, 0.2);
            }
            if (i % 17 == 0) {
                dGeomDisable(geom);
            }
        }
        if (i % 13 == 0) {
            dBodyDisable(b);
        }
    }
    /* a nested space in the simple space: one geom to the outer space */
    s->nested = dSimpleSpaceCreate(s->spaces[0]);
    dGeomSetData((dGeomID)s->nested, (void *)s->next_id++);
    for (int i = 0; i < N_NESTED; ++i) {
        dGeomID geom = make_geom(s, s->nested, 0, 0.4, &g);
        dGeomSetPosition(geom, sccd_rng_uniform(&g, -2, 2), sccd_rng_uniform(&g, -2, 2), 1);
    }
}

static void sim_free(sim *s)
{
    dJointGroupDestroy(s->contacts);
    dSpaceDestroy(s->spaces[0]); /* destroys its geoms and the nested space */
    dSpaceDestroy(s->spaces[1]);
    dWorldDestroy(s->world);
}

static void test_same_pairs_as_ode(void **state)
{
    (void)state;
    static sim s;
    static pairs ours, theirs;
    dInitODE2(0);
    sim_make(&s, 77);
    int64_t total[2] = {0, 0};
    for (int step = 0; step < STEPS; ++step) {
        for (int k = 0; k < 2; ++k) {
            ours.n = theirs.n = 0;
            dSpaceCollide(s.spaces[k], &theirs, record);
            sccd_ode_space_collide(s.spaces[k], &ours, record);
            assert_same(&ours, &theirs);
            total[k] += theirs.n;
        }
        dSpaceCollide(s.spaces[0], &s, near_contact);
        dWorldQuickStep(s.world, 0.01);
        dJointGroupEmpty(s.contacts);
    }
    print_message("pairs over %d steps: simple space %lld, hash space %lld, all identical\n", STEPS,
                  (long long)total[0], (long long)total[1]);
    assert_true(total[0] > 10000 && total[1] > 10000);
    sim_free(&s);
    dCloseODE();
}

/* g1 comes before g2 in the space's order, as dSimpleSpace reports them. */
static void check_order(void *data, dGeomID a, dGeomID b)
{
    dSpaceID space = data;
    int ia = -1, ib = -1;
    for (int i = 0; i < dSpaceGetNumGeoms(space); ++i) {
        dGeomID g = dSpaceGetGeom(space, i);
        ia = g == a ? i : ia;
        ib = g == b ? i : ib;
    }
    assert_true(ia >= 0 && ib >= 0 && ia < ib);
}

static void test_order_and_bad_input(void **state)
{
    (void)state;
    dInitODE2(0);
    dSpaceID space = dSimpleSpaceCreate(NULL);
    for (int i = 0; i < 30; ++i) {
        dGeomID g = dCreateSphere(space, 1);
        dGeomSetPosition(g, i * 0.5, 0, 0);
    }
    dCreatePlane(space, 0, 0, 1, 0);
    sccd_ode_space_collide(space, space, check_order);
    /* an empty space reports nothing; NULL arguments are refused */
    dSpaceID empty = dSimpleSpaceCreate(NULL);
    static pairs p;
    p.n = 0;
    sccd_ode_space_collide(empty, &p, record);
    assert_int_equal(p.n, 0);
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_ode_space_collide(NULL, &p, record);
    sccd_ode_space_collide(empty, &p, NULL);
    assert_int_equal(sccd_test_assert_count(), 2);
    sccd_set_assert_handler(NULL);
    dSpaceDestroy(empty);
    dSpaceDestroy(space);
    dCloseODE();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_pairs_as_ode),
        cmocka_unit_test(test_order_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
