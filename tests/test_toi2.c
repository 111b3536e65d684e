/* 2D time of impact (toi.h) against a reference that is exact by proof:
 * a Lipschitz-certified search on the distance. The distance of the two
 * bodies cannot fall faster than L = |dpA − dpB| + |θA|·ρA + |θB|·ρB per unit
 * of t (ρ = farthest distance of a body from its motion centre, here from the
 * shape's own vertex list), so from a time where the distance is d the
 * interval of length (d − x)/L cannot reach distance x: the search skips
 * exactly those intervals and stops where the distance is within 1e-9 of x.
 * On a subset it also runs the literal grid: 10,000 samples per motion, then
 * bisection between the last sample above and the first below. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "shape_oracle.h"

#define N_CASES 100000
#define N_GRID_CASES 300
#define GRID 10000

typedef struct toi_case2 {
    sccd_shape2 a, b;
    sccd_motion2 ma, mb;
    double target, tol, lip;
} toi_case2;

/* The distance at t, not clamped at touching: GJK's witnesses along its
 * normal (negative when only the rounded parts overlap, 0 when the cores do). */
static double dist_at(const toi_case2 *c, double t)
{
    sccd_distance2 d = sccd_shape2_distance(&c->a, sccd_motion2_at(c->ma, t), &c->b, sccd_motion2_at(c->mb, t));
    return sccd_v2_dot(sccd_v2_sub(d.pb, d.pa), d.normal);
}

/* Farthest distance of a shape from p: vertices of its core plus its radius. */
static double reach2(const sccd_shape2 *s, sccd_v2 p)
{
    sccd_v2 v[SCCD_POLY_MAX];
    int n = 0;
    double r = 0.0;
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: v[n++] = s->circle.c, r = s->circle.r; break;
    case SCCD_SHAPE_CAPSULE: v[n++] = s->capsule.a, v[n++] = s->capsule.b, r = s->capsule.r; break;
    case SCCD_SHAPE_BOX: sccd_box2_corners(s->box, v), n = 4; break;
    case SCCD_SHAPE_POLY:
        for (n = 0; n < s->poly.n; ++n)
            v[n] = s->poly.v[n];
        r = s->poly.r;
        break;
    }
    double m = 0.0;
    for (int i = 0; i < n; ++i)
        m = fmax(m, hypot(v[i].x - p.x, v[i].y - p.y));
    return m + r;
}

/* Certified first time the distance is ≤ x (within 1e-12): every earlier time
 * is proven farther than x. Returns 2 when the whole step stays above x,
 * −1 when undecided after a million steps (a grazing case; counted). */
static double first_contact(const toi_case2 *c, double x, int *steps)
{
    double t = 0.0;
    for (*steps = 0; *steps < 1000000; ++*steps) {
        double d = dist_at(c, t);
        if (d <= x + 1e-12)
            return t;
        t += (d - x) / c->lip;
        if (t > 1.0)
            return 2.0;
    }
    return -1.0;
}

static sccd_motion2 random_motion(sccd_rng *g, const sccd_shape2 *s, sccd_v2 at)
{
    /* Centre inside the shape (its own centre region) or well outside it. */
    sccd_v2 centre = sccd_rng_int(g, 2) ? sccd_rng_v2(g, 0.3) : sccd_rng_v2(g, 2.0);
    (void)s;
    double spin = sccd_rng_uniform(g, 0.0, 4.0 * SCCD_PI) * (sccd_rng_int(g, 2) ? 1.0 : -1.0);
    if (sccd_rng_int(g, 8) == 0)
        spin = 0.0;
    sccd_xf2 start = {at, sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI))};
    return (sccd_motion2){start, centre, sccd_rng_v2(g, 3.0), spin};
}

static toi_case2 random_case(sccd_rng *g)
{
    toi_case2 c;
    c.a = sccd_rng_shape2(g, (sccd_shape_type)sccd_rng_int(g, 4), 1.0);
    c.b = sccd_rng_shape2(g, (sccd_shape_type)sccd_rng_int(g, 4), 1.0);
    c.ma = random_motion(g, &c.a, sccd_rng_v2(g, 1.0));
    c.mb = random_motion(g, &c.b, sccd_v2_mad(sccd_rng_v2(g, 1.0), sccd_rng_uniform(g, 1.0, 4.0), sccd_rng_unit2(g)));
    c.target = sccd_rng_int(g, 2) ? 0.0 : sccd_rng_uniform(g, 0.0, 0.05);
    c.tol = sccd_rng_int(g, 2) ? 1e-3 : 1e-6;
    c.lip = sccd_v2_len(sccd_v2_sub(c.ma.dp, c.mb.dp)) + fabs(c.ma.dtheta) * reach2(&c.a, c.ma.center) +
            fabs(c.mb.dtheta) * reach2(&c.b, c.mb.center);
    return c;
}

static int cmp_int(const void *x, const void *y) { return *(const int *)x - *(const int *)y; }

static void test_toi2_random(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(401);
    static int iters[N_CASES];
    int count[4] = {0}, strict_late = 0, undecided = 0;
    long ref_steps = 0;
    for (int i = 0; i < N_CASES; ++i) {
        toi_case2 c = random_case(&g);
        sccd_toi2 r = sccd_toi2_compute(&c.a, c.ma, &c.b, c.mb, c.target, c.tol);
        iters[i] = r.iterations;
        count[r.state]++;
        assert_true(sccd_is_valid_real(r.t) && r.t >= 0.0 && r.t <= 1.0);
        int steps;
        /* The first time the distance is below target − tol bounds the true
         * first contact (distance ≤ target) from above. */
        double late = first_contact(&c, fmax(0.0, c.target - 0.5 * c.tol), &steps);
        ref_steps += steps;
        undecided += late < 0.0;
        switch (r.state) {
        case SCCD_TOI_SEPARATED:
            assert_true(late > 1.0 || late < 0.0);
            break;
        case SCCD_TOI_OVERLAPPED:
            assert_true(dist_at(&c, 0.0) <= 1e-9);
            break;
        case SCCD_TOI_HIT:
            assert_true(dist_at(&c, r.t) <= c.target + c.tol + 1e-9);
            /* fall through: hit and failed times must both be safe */
        case SCCD_TOI_FAILED:
            if (late >= 0.0 && late <= 1.0 && r.t > late + 1e-9)
                fprintf(stderr, "case %d: toi %.17g late %.17g\n", i, r.t, late);
            assert_true(late < 0.0 || late > 1.0 || r.t <= late + 1e-9);
            {
                /* Stronger: not later than the first time the distance is ≤ target. */
                double strict = first_contact(&c, c.target, &steps);
                strict_late += strict >= 0.0 && strict <= 1.0 && r.t > strict + 1e-9;
            }
            break;
        }
    }
    qsort(iters, N_CASES, sizeof iters[0], cmp_int);
    printf("toi2: %d cases: %d separated, %d hit, %d overlapped, %d failed; iterations median %d, p90 %d, p99 %d, "
           "max %d; later than the strict first contact: %d; reference undecided %d, mean reference steps %.1f\n",
           N_CASES, count[0], count[1], count[2], count[3], iters[N_CASES / 2], iters[N_CASES * 9 / 10],
           iters[N_CASES * 99 / 100], iters[N_CASES - 1], strict_late, undecided, (double)ref_steps / N_CASES);
    assert_int_equal(undecided, 0);
    assert_int_equal(strict_late, 0);
    assert_true(iters[N_CASES / 2] <= 8);
}

/* The literal reference: the distance at GRID + 1 equally spaced times, then
 * bisection between the last sample above x and the first at or below it.
 * The result bounds the first time the distance is ≤ x from above. */
static double grid_contact(const toi_case2 *c, double x)
{
    double prev = 0.0;
    for (int k = 0; k <= GRID; ++k) {
        double t = (double)k / GRID;
        if (dist_at(c, t) <= x) {
            if (k == 0)
                return 0.0;
            double lo = prev, hi = t;
            for (int i = 0; i < 50; ++i) {
                double m = 0.5 * (lo + hi);
                if (dist_at(c, m) <= x)
                    hi = m;
                else
                    lo = m;
            }
            return hi;
        }
        prev = t;
    }
    return 2.0;
}

static int grid_cases(void)
{
    const char *e = getenv("SCCD_TOI_GRID_CASES");
    return e ? atoi(e) : N_GRID_CASES;
}

static void test_toi2_grid(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(402);
    int n = grid_cases(), hits = 0;
    for (int i = 0; i < n; ++i) {
        toi_case2 c = random_case(&g);
        sccd_toi2 r = sccd_toi2_compute(&c.a, c.ma, &c.b, c.mb, c.target, c.tol);
        double grid = grid_contact(&c, fmax(0.0, c.target - 0.5 * c.tol));
        hits += r.state == SCCD_TOI_HIT;
        if (grid <= 1.0) /* the grid saw contact: never separated, never later */
            assert_true(r.state != SCCD_TOI_SEPARATED && r.t <= grid + 1e-9);
        if (r.state == SCCD_TOI_HIT)
            assert_true(dist_at(&c, r.t) <= c.target + c.tol + 1e-9);
    }
    printf("toi2 grid: %d cases x %d samples, %d hits\n", n, GRID + 1, hits);
}

/* A 2 m x 2 cm blade turning about its end at 10,000 rad/s for a 60 Hz step
 * (26.5 turns) against a 1 cm wall: it must hit, at the first contact, from
 * every starting phase and in both directions. */
static void test_toi2_thin_wall(void **state)
{
    (void)state;
    sccd_shape2 blade = {.type = SCCD_SHAPE_BOX, .box = {{1.0, 0.0}, {1.0, 0.0}, {1.0, 0.01}}};
    sccd_shape2 wall = {.type = SCCD_SHAPE_BOX, .box = {{0.0, 0.0}, {1.0, 0.0}, {0.005, 3.0}}};
    static const double wall_x[3] = {1.0, 1.99, 2.03}; /* mid-blade, at the tip, out of reach */
    static int iters[3 * 2 * 1000];
    int n = 0;
    for (int w = 0; w < 3; ++w)
        for (int dir = -1; dir <= 1; dir += 2)
            for (int k = 0; k < 1000; ++k) {
                double phase = SCCD_PI / 2 + 0.05 + (SCCD_PI - 0.1) * k / 999.0;
                toi_case2 c = {blade, wall, {{{0.0, 0.0}, sccd_rot2_make(phase)}, {0.0, 0.0}, {0.0, 0.0}, dir * 10000.0 / 60.0},
                               {{{wall_x[w], 0.0}, {1.0, 0.0}}, {0.0, 0.0}, {0.0, 0.0}, 0.0}, 0.0, 1e-4, 0.0};
                c.lip = 10000.0 / 60.0 * reach2(&blade, (sccd_v2){0.0, 0.0});
                sccd_toi2 r = sccd_toi2_compute(&c.a, c.ma, &c.b, c.mb, c.target, c.tol);
                iters[n++] = r.iterations;
                int steps;
                double first = first_contact(&c, 0.0, &steps);
                if (w < 2) {
                    assert_int_equal(r.state, SCCD_TOI_HIT);
                    assert_true(first <= 1.0 && r.t <= first + 1e-9);
                    double d = dist_at(&c, r.t);
                    assert_true(d >= -1e-9 && d <= c.tol + 1e-9);
                } else {
                    assert_true(first > 1.0);
                    assert_int_equal(r.state, SCCD_TOI_SEPARATED);
                }
            }
    qsort(iters, (size_t)n, sizeof iters[0], cmp_int);
    printf("thin wall: %d phases, iterations median %d, max %d\n", n, iters[n / 2], iters[n - 1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toi2_random),
        cmocka_unit_test(test_toi2_grid),
        cmocka_unit_test(test_toi2_thin_wall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
