/* 3D sectors: every pair test against the branch-and-bound oracle
 * (tests/oracles/sector3_oracle.c) on random cases, exact touching
 * configurations built by hand (true) and the same moved apart by 1e-6 of the
 * scene (false), the thesis' construction (eqs 2.1–2.3), the thesis' capsule
 * approximation measured against the exact test, and bad input.
 * SCCD_SECTOR3_CASES overrides the number of random cases per pair. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cmocka.h>

#include "sector3_oracle.h"
#include "truth3.h"

static int cases(void)
{
    const char *e = getenv("SCCD_SECTOR3_CASES");
    return e ? atoi(e) : 100000;
}

/* ---- random pairs against the oracle ---- */

typedef struct pair_case {
    sccd_sector3 s;
    union { sccd_sphere sphere; sccd_capsule3 capsule; sccd_box3 box; sccd_triangle tri; sccd_sector3 other; };
} pair_case;

typedef void make_fn(sccd_rng *g, pair_case *c);
typedef bool prod_fn(const pair_case *c);

static void make_sphere(sccd_rng *g, pair_case *c)
{
    c->sphere = (sccd_sphere){sccd_oracle_near(&c->s, g), sccd_rng_int(g, 8) ? sccd_rng_uniform(g, 0.0, 3.0) : 0.0};
}

static void make_capsule(sccd_rng *g, pair_case *c)
{
    sccd_v3 a = sccd_oracle_near(&c->s, g);
    sccd_v3 d = sccd_rng_v3(g, 5.0);
    int k = sccd_rng_int(g, 6);
    if (k == 0) /* along the axis */
        d = sccd_v3_scale(c->s.u, sccd_rng_uniform(g, -5.0, 5.0));
    else if (k == 1) /* square to the axis */
        d = sccd_v3_mad(d, -sccd_v3_dot(d, c->s.u), c->s.u);
    else if (k == 2)
        d = (sccd_v3){0.0, 0.0, 0.0};
    c->capsule = (sccd_capsule3){a, sccd_v3_add(a, d), sccd_rng_int(g, 8) ? sccd_rng_uniform(g, 0.0, 2.0) : 0.0};
}

static sccd_real maybe_zero(sccd_rng *g, sccd_real hi) { return sccd_rng_int(g, 8) ? sccd_rng_uniform(g, 0.0, hi) : 0.0; }

static void make_box(sccd_rng *g, pair_case *c)
{
    c->box = (sccd_box3){sccd_oracle_near(&c->s, g), sccd_rng_quat(g),
                         {maybe_zero(g, 3.0), maybe_zero(g, 3.0), maybe_zero(g, 3.0)}};
}

static void make_triangle(sccd_rng *g, pair_case *c)
{
    c->tri = sccd_oracle_random_triangle(g, sccd_oracle_near(&c->s, g), 5.0);
}

static void make_sector(sccd_rng *g, pair_case *c)
{
    c->other = sccd_oracle_random_sector(g);
    c->other.o = sccd_oracle_near(&c->s, g);
}

static bool prod_sphere(const pair_case *c) { return sccd_sector3_vs_sphere(&c->s, c->sphere); }
static bool prod_capsule(const pair_case *c) { return sccd_sector3_vs_capsule(&c->s, c->capsule); }
static bool prod_box(const pair_case *c) { return sccd_sector3_vs_box(&c->s, c->box); }
static bool prod_triangle(const pair_case *c) { return sccd_sector3_vs_triangle(&c->s, c->tri); }
static bool prod_sector(const pair_case *c)
{
    bool ab = sccd_sector3_vs_sector3(&c->s, &c->other), ba = sccd_sector3_vs_sector3(&c->other, &c->s);
    assert_int_equal(ab, ba); /* argument order */
    return ab;
}

static void run_pairs(const char *name, uint64_t seed, int n, make_fn *make, prod_fn *prod, sccd_oracle_dist_fn *dist)
{
    sccd_rng g = sccd_rng_make(seed);
    sccd_test_count_asserts(); /* valid input: no check may fire */
    int hit = 0, sep = 0, unsure = 0;
    clock_t t0 = clock();
    for (int i = 0; i < n; ++i) {
        pair_case c;
        c.s = sccd_oracle_random_sector(&g);
        make(&g, &c);
        sccd_oracle_verdict v = sccd_oracle_sector3(&c.s, dist, &c.other, 20.0);
        bool got = prod(&c);
        if (v == SCCD_ORACLE_UNSURE) {
            unsure++;
            continue;
        }
        bool want = v == SCCD_ORACLE_HIT;
        if (got != want)
            fail_msg("%s case %d: got %d, oracle %d (th %.17g r %.17g R %.17g z %.17g %.17g)", name, i, got, want,
                     c.s.half_angle, c.s.r, c.s.R, c.s.zlo, c.s.zhi);
        hit += want;
        sep += !want;
    }
    printf("  %s: %d cases, %d overlap, %d separated, %d undecided by the oracle (skipped); %.2f s with the oracle\n", name,
           n, hit, sep, unsure, (double)(clock() - t0) / CLOCKS_PER_SEC);
    assert_true(unsure <= n / 100);
    assert_true(hit > n / 20 && sep > n / 20);
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

static void test_sphere_random(void **state)
{
    (void)state;
    run_pairs("sphere", 101, cases(), make_sphere, prod_sphere, sccd_oracle_dist_sphere);
}

static void test_capsule_random(void **state)
{
    (void)state;
    run_pairs("capsule", 102, cases(), make_capsule, prod_capsule, sccd_oracle_dist_capsule);
}

static void test_box_random(void **state)
{
    (void)state;
    run_pairs("box", 103, cases(), make_box, prod_box, sccd_oracle_dist_box);
}

static void test_triangle_random(void **state)
{
    (void)state;
    run_pairs("triangle", 104, cases(), make_triangle, prod_triangle, sccd_oracle_dist_triangle);
}

static void test_sector_random(void **state)
{
    (void)state;
    run_pairs("sector", 105, cases(), make_sector, prod_sector, sccd_oracle_dist_sector);
}

/* Sector s scaled by f, a power of 2 (exactly). */
static sccd_sector3 scaled_sector(sccd_sector3 s, sccd_real f)
{
    s.o = sccd_v3_scale(s.o, f);
    s.r *= f;
    s.R *= f;
    s.zlo *= f;
    s.zhi *= f;
    return s;
}

/* Case c of kind k (the make_* functions' order) scaled by f. */
static pair_case scaled_case(pair_case c, int k, sccd_real f)
{
    pair_case d = c;
    d.s = scaled_sector(c.s, f);
    if (k == 0)
        d.sphere = (sccd_sphere){sccd_v3_scale(c.sphere.c, f), f * c.sphere.r};
    else if (k == 1)
        d.capsule = (sccd_capsule3){sccd_v3_scale(c.capsule.a, f), sccd_v3_scale(c.capsule.b, f), f * c.capsule.r};
    else if (k == 2)
        d.box = (sccd_box3){sccd_v3_scale(c.box.c, f), c.box.q, sccd_v3_scale(c.box.h, f)};
    else if (k == 3)
        d.tri = (sccd_triangle){sccd_v3_scale(c.tri.a, f), sccd_v3_scale(c.tri.b, f), sccd_v3_scale(c.tri.c, f)};
    else
        d.other = scaled_sector(c.other, f);
    return d;
}

/* Scenes scaled by powers of 2 from 2^-900 to 2^300 (exactly: no number
 * becomes subnormal): every shape gets the answer it gets at unit scale.
 * The capsule's segment took one under 1e-15 long for a point whatever the
 * scene's size, and fourth and fifth powers of its lengths (its closest
 * points to the side rectangles' edges, the width of its distance's
 * concave part) over- or underflowed: from 2^-55 and 2^250 on, 0.2–0.8 %
 * of the capsules were missed. Scenes below 1e-160 were not scaled up:
 * their squares underflowed, 8 % of the capsules and (one-shot) 19 % of
 * the boxes were missed, and nearly every point, sphere and triangle,
 * and a quarter of the sectors, were met. */
static void test_scaled_scenes(void **state)
{
    (void)state;
    static const int powers[] = {-900, -550, -300, -60, 60, 300};
    static make_fn *const make[] = {make_sphere, make_capsule, make_box, make_triangle, make_sector};
    static prod_fn *const prod[] = {prod_sphere, prod_capsule, prod_box, prod_triangle, prod_sector};
    sccd_rng g = sccd_rng_make(110);
    int hits = 0, n = cases() / 5;
    for (int i = 0; i < n; ++i) {
        pair_case c;
        int k = i % 5;
        c.s = sccd_oracle_random_sector(&g);
        make[k](&g, &c);
        sccd_v3 p = sccd_oracle_near(&c.s, &g);
        bool want = prod[k](&c), want_point = sccd_sector3_vs_point(&c.s, p);
        hits += want;
        for (int j = 0; j < 6; ++j) {
            sccd_real f = ldexp(1.0, powers[j]);
            pair_case d = scaled_case(c, k, f);
            if (prod[k](&d) != want || sccd_sector3_vs_point(&d.s, sccd_v3_scale(p, f)) != want_point)
                fail_msg("case %d at 2^%d: kind %d (unit scale %d)", i, powers[j], k, want);
        }
    }
    assert_true(hits > n / 20 && hits < n * 4 / 5);
}

/* Points: eqs 2.4–2.7 and the closed-form distance against the oracle's
 * distance (written as wedge/side-rectangle cases). */
static void test_point_and_distance(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(106);
    int in = 0;
    for (int i = 0; i < cases(); ++i) {
        sccd_sector3 s = sccd_oracle_random_sector(&g);
        sccd_v3 p = sccd_oracle_near(&s, &g);
        sccd_real want = sccd_oracle_dist_sector(&s, p), got = sccd_sector3_distance(&s, p);
        assert_true(fabs(got - want) <= 1e-9 * (1.0 + want));
        if (want > 1e-8)
            assert_false(sccd_sector3_vs_point(&s, p));
        /* a point of the sector, from its parameters */
        sccd_real rho = sccd_rng_uniform(&g, s.r, s.R), phi = sccd_rng_uniform(&g, -s.half_angle, s.half_angle);
        sccd_real z = sccd_rng_uniform(&g, s.zlo, s.zhi);
        sccd_v3 q = sccd_sector3_from_local(&s, (sccd_v3){rho * cos(phi), rho * sin(phi), z});
        assert_true(sccd_sector3_vs_point(&s, q));
        assert_true(sccd_sector3_distance(&s, q) <= 1e-9 * 20.0);
        in++;
    }
    assert_int_equal(in, cases());
}

/* The AABB holds every sector point and is touched by the sector on every
 * side (dense sampling of the boundary: outer and inner arcs at both heights
 * and the ends). */
static void test_aabb(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(111);
    for (int i = 0; i < 2000; ++i) {
        sccd_sector3 s = sccd_oracle_random_sector(&g);
        sccd_aabb3 b = sccd_sector3_aabb(&s);
        sccd_v3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
        for (int k = 0; k <= 720; ++k) {
            sccd_real phi = -s.half_angle + 2.0 * s.half_angle * k / 720.0;
            for (int j = 0; j < 4; ++j) {
                sccd_real rho = (j & 1) ? s.R : s.r, z = (j & 2) ? s.zhi : s.zlo;
                sccd_v3 p = sccd_sector3_from_local(&s, (sccd_v3){rho * cos(phi), rho * sin(phi), z});
                assert_true(p.x >= b.lo.x - 1e-9 && p.y >= b.lo.y - 1e-9 && p.z >= b.lo.z - 1e-9);
                assert_true(p.x <= b.hi.x + 1e-9 && p.y <= b.hi.y + 1e-9 && p.z <= b.hi.z + 1e-9);
                lo = sccd_v3_min(lo, p);
                hi = sccd_v3_max(hi, p);
            }
        }
        /* sampling every 1/720 of the arc comes within R·(1 − cos(θ/720)) */
        sccd_real slack = s.R * (1.0 - cos(s.half_angle / 720.0)) + 1e-9;
        assert_true(lo.x - b.lo.x <= slack && lo.y - b.lo.y <= slack && lo.z - b.lo.z <= slack);
        assert_true(b.hi.x - hi.x <= slack && b.hi.y - hi.y <= slack && b.hi.z - hi.z <= slack);
    }
}

/* ---- exact touching ---- */

/* A point q on a face of s with outward normal n and tangent directions
 * t1, t2 such that the face's tangent half-space beyond q holds no sector
 * point (faces: outer cylinder, top, bottom, and the sides when θ ≤ π/2). */
typedef struct face_point { sccd_v3 q, n, t1, t2; } face_point;

static face_point random_face_point(const sccd_sector3 *s, sccd_rng *g)
{
    sccd_v3 k = sccd_v3_cross(s->u, s->a);
    int faces = s->half_angle <= 0.5 * SCCD_PI ? 5 : 3;
    int f = sccd_rng_int(g, faces);
    sccd_real rho = sccd_rng_uniform(g, s->r, s->R), phi = sccd_rng_uniform(g, -s->half_angle, s->half_angle);
    sccd_real z = sccd_rng_uniform(g, s->zlo, s->zhi);
    if (f == 0)
        rho = s->R;
    else if (f == 1 || f == 2)
        z = f == 1 ? s->zhi : s->zlo;
    else
        phi = f == 3 ? s->half_angle : -s->half_angle;
    sccd_v3 radial = sccd_v3_add(sccd_v3_scale(s->a, cos(phi)), sccd_v3_scale(k, sin(phi)));
    sccd_v3 tangent = sccd_v3_cross(s->u, radial);
    face_point fp;
    fp.q = sccd_v3_add(sccd_v3_add(s->o, sccd_v3_scale(radial, rho)), sccd_v3_scale(s->u, z));
    if (f == 0)
        fp = (face_point){fp.q, radial, tangent, s->u};
    else if (f == 1 || f == 2)
        fp = (face_point){fp.q, sccd_v3_scale(s->u, f == 1 ? 1.0 : -1.0), radial, tangent};
    else
        fp = (face_point){fp.q, sccd_v3_scale(tangent, f == 3 ? 1.0 : -1.0), radial, s->u};
    return fp;
}

/* A sector with R ≥ 1 so every face has room. */
static sccd_sector3 roomy_sector(sccd_rng *g)
{
    sccd_sector3 s = sccd_oracle_random_sector(g);
    s.R = sccd_max(s.R, 1.0);
    return s;
}

static void test_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(107);
    const sccd_real gap = 1e-6 * 20.0;
    for (int i = 0; i < cases() / 10; ++i) {
        sccd_sector3 s = roomy_sector(&g);
        face_point f = random_face_point(&s, &g);
        sccd_real rad = sccd_rng_uniform(&g, 0.2, 2.0);
        /* sphere */
        sccd_v3 c = sccd_v3_mad(f.q, rad, f.n);
        assert_true(sccd_sector3_vs_sphere(&s, (sccd_sphere){c, rad}));
        assert_false(sccd_sector3_vs_sphere(&s, (sccd_sphere){c, rad - gap}));
        /* capsule lying in the tangent plane moved out by its radius */
        sccd_v3 dir = sccd_v3_normalize(sccd_v3_add(sccd_v3_scale(f.t1, sccd_rng_uniform(&g, -1, 1)),
                                                    sccd_v3_scale(f.t2, sccd_rng_uniform(&g, -1, 1))));
        sccd_real l0 = sccd_rng_uniform(&g, 0.0, 3.0), l1 = sccd_rng_uniform(&g, 0.0, 3.0);
        sccd_capsule3 cap = {sccd_v3_mad(c, -l0, dir), sccd_v3_mad(c, l1, dir), rad};
        assert_true(sccd_sector3_vs_capsule(&s, cap));
        cap.r = rad - gap;
        assert_false(sccd_sector3_vs_capsule(&s, cap));
        /* box with a face in the tangent plane, q on that face */
        sccd_v3 h = {sccd_rng_uniform(&g, 0.0, 2.0), sccd_rng_uniform(&g, 0.1, 2.0), sccd_rng_uniform(&g, 0.1, 2.0)};
        sccd_v3 t2 = sccd_v3_cross(f.n, f.t1);
        sccd_real o1 = sccd_rng_uniform(&g, -h.y, h.y), o2 = sccd_rng_uniform(&g, -h.z, h.z);
        sccd_v3 bc = sccd_v3_mad(sccd_v3_mad(sccd_v3_mad(f.q, h.x, f.n), o1, f.t1), o2, t2);
        sccd_quat q = sccd_truth3_quat_from_axes(f.n, f.t1, t2); /* box x, y, z → n, t1, t2 */
        sccd_box3 box = {bc, q, h};
        assert_true(sccd_sector3_vs_box(&s, box));
        box.c = sccd_v3_mad(box.c, gap, f.n);
        assert_false(sccd_sector3_vs_box(&s, box));
        /* triangle in the tangent plane around q */
        sccd_v3 ta = sccd_v3_mad(f.q, 1.0, f.t1), tb = sccd_v3_mad(sccd_v3_mad(f.q, -1.0, f.t1), 1.0, t2);
        sccd_v3 tc = sccd_v3_mad(sccd_v3_mad(f.q, -1.0, f.t1), -1.0, t2);
        sccd_triangle tri = {ta, tb, tc};
        assert_true(sccd_sector3_vs_triangle(&s, tri));
        sccd_v3 sh = sccd_v3_scale(f.n, gap);
        tri = (sccd_triangle){sccd_v3_add(ta, sh), sccd_v3_add(tb, sh), sccd_v3_add(tc, sh)};
        assert_false(sccd_sector3_vs_triangle(&s, tri));
    }
}

/* A triangle grazing the top slab plane with one vertex, a rounding or
 * nothing inside the slab, its other two above the slab by the axis (so
 * its supports do not reject it): its part in the slab is that vertex, a
 * polygon of points a rounding apart. At a radius beyond R it lies far
 * from the sector; within [r, R] and the wedge it meets it. A polygon whose
 * edges were all short had counted the axis inside it: every grazing
 * triangle met the sector. */
static void test_triangle_grazing_slab(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(108);
    static const sccd_real inside[] = {0.0, 1e-15, 1e-13, 1e-12};
    for (int i = 0; i < cases() / 10; ++i) {
        sccd_sector3 s = roomy_sector(&g);
        sccd_v3 k = sccd_v3_cross(s.u, s.a), top = sccd_v3_mad(s.o, s.zhi, s.u);
        sccd_real phi = sccd_rng_uniform(&g, -s.half_angle, s.half_angle), dz = inside[sccd_rng_int(&g, 4)];
        sccd_v3 dir = sccd_v3_add(sccd_v3_scale(s.a, cos(phi)), sccd_v3_scale(k, sin(phi)));
        sccd_v3 b = sccd_v3_mad(top, sccd_rng_uniform(&g, 0.5, 2.0), s.u), c = sccd_v3_mad(b, 0.5, k);
        sccd_real far = s.R + sccd_rng_uniform(&g, 0.1, 1.0), mid = 0.5 * (s.r + s.R);
        sccd_v3 lift = sccd_v3_scale(s.u, -dz * sccd_max(1.0, fabs(s.zhi)));
        sccd_triangle off = {sccd_v3_add(sccd_v3_mad(top, far, dir), lift), b, c};
        sccd_triangle on = {sccd_v3_add(sccd_v3_mad(top, mid, dir), lift), b, c};
        sccd_sector3_prepared p;
        assert_true(sccd_sector3_prepare(&p, &s));
        assert_false(sccd_sector3_vs_triangle(&s, off));
        assert_false(sccd_sector3_prepared_vs_triangle(&p, off));
        assert_true(sccd_sector3_vs_triangle(&s, on));
        assert_true(sccd_sector3_prepared_vs_triangle(&p, on));
    }
}

static sccd_v3 turn(sccd_v3 v, sccd_v3 axis, sccd_real ang)
{
    return sccd_quat_apply(sccd_quat_axis_angle(axis, ang), v);
}

/* Sectors on one axis touching along the slab, a side or a cylinder. */
static void test_sector_touching(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(108);
    const sccd_real gap = 1e-6 * 20.0;
    for (int i = 0; i < cases() / 20; ++i) {
        sccd_sector3 a = roomy_sector(&g), b = a;
        int kind = sccd_rng_int(&g, 3);
        if (kind == 0) { /* stacked slabs */
            b.zlo = a.zhi;
            b.zhi = a.zhi + sccd_rng_uniform(&g, 0.0, 2.0);
            b.half_angle = sccd_rng_uniform(&g, 0.0, SCCD_PI);
            b.r = sccd_rng_uniform(&g, 0.0, a.R);
            b.R = sccd_max(b.r, a.r) + sccd_rng_uniform(&g, 0.0, 3.0);
        } else if (kind == 1) { /* side by side */
            a.half_angle = sccd_rng_uniform(&g, 0.0, 0.5 * SCCD_PI);
            b.half_angle = sccd_rng_uniform(&g, 0.0, SCCD_PI - a.half_angle);
            b.a = turn(a.a, a.u, a.half_angle + b.half_angle);
        } else { /* nested shells */
            b.r = a.R;
            b.R = a.R + sccd_rng_uniform(&g, 0.0, 2.0);
            b.a = turn(a.a, a.u, sccd_rng_uniform(&g, -a.half_angle, a.half_angle));
        }
        if (!sccd_sector3_vs_sector3(&a, &b))
            fail_msg("case %d kind %d: a th %.17g r %.17g R %.17g z %.17g %.17g; b th %.17g r %.17g R %.17g z %.17g %.17g", i,
                     kind, a.half_angle, a.r, a.R, a.zlo, a.zhi, b.half_angle, b.r, b.R, b.zlo, b.zhi);
        assert_true(sccd_sector3_vs_sector3(&b, &a));
        if (kind == 0) {
            b.zlo += gap;
            b.zhi += gap;
        } else if (kind == 1) {
            if (a.half_angle + b.half_angle + gap / a.R > SCCD_PI - 1e-6 || a.r < 0.1 * a.R)
                continue; /* would wrap round onto the other side, or still share the axis */
            b.a = turn(a.a, a.u, a.half_angle + b.half_angle + gap / a.R);
        } else {
            b.r += gap;
            b.R += gap;
        }
        if (sccd_sector3_vs_sector3(&a, &b))
            fail_msg("apart %d kind %d: a th %.17g r %.17g R %.17g z %.17g %.17g; b th %.17g r %.17g R %.17g z %.17g %.17g", i,
                     kind, a.half_angle, a.r, a.R, a.zlo, a.zhi, b.half_angle, b.r, b.R, b.zlo, b.zhi);
        assert_false(sccd_sector3_vs_sector3(&b, &a));
    }
}

/* ---- the thesis ---- */

static void test_thesis_construction(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(109);
    sccd_test_count_asserts();
    for (int i = 0; i < 10000; ++i) {
        sccd_box3 box = {sccd_rng_v3(&g, 10.0), sccd_rng_quat(&g),
                         {sccd_rng_uniform(&g, 0, 12.5), sccd_rng_uniform(&g, 0, 12.5), sccd_rng_uniform(&g, 0, 12.5)}};
        sccd_v3 yl = sccd_quat_apply(box.q, (sccd_v3){0, 1, 0}), zl = sccd_quat_apply(box.q, (sccd_v3){0, 0, 1});
        sccd_real dist = box.h.y + sccd_rng_uniform(&g, 0.0, 20.0);
        sccd_v3 pivot = sccd_v3_mad(box.c, -dist, yl);
        sccd_real alpha = sccd_rng_uniform(&g, -2.0 * SCCD_PI, 2.0 * SCCD_PI);
        sccd_sector3 s = sccd_sector3_thesis(box, pivot, alpha);
        /* eq 2.1 */
        assert_true(fabs(s.half_angle - 0.5 * fabs(alpha)) < 1e-12);
        assert_true(fabs(s.r - (dist - box.h.y)) < 1e-9 && fabs(s.R - (dist + box.h.y)) < 1e-9);
        assert_true(fabs(s.zlo + box.h.z) < 1e-9 && fabs(s.zhi - box.h.z) < 1e-9);
        assert_true(sccd_is_valid_sector3(&s));
        /* eq 2.2: a is Y' turned by α/2 about Z' */
        assert_true(sccd_v3_dist(s.a, turn(yl, zl, 0.5 * alpha)) < 1e-9);
        /* eq 2.3: a, K, u map to the axes */
        sccd_v3 q = sccd_sector3_to_local(&s, sccd_v3_add(pivot, s.a));
        assert_true(sccd_v3_dist(q, (sccd_v3){1, 0, 0}) < 1e-12);
        q = sccd_sector3_to_local(&s, sccd_v3_add(pivot, sccd_v3_cross(s.u, s.a)));
        assert_true(sccd_v3_dist(q, (sccd_v3){0, 1, 0}) < 1e-12);
        /* the box's middle strip, turned, lies in the sector */
        sccd_real t = sccd_rng_uniform(&g, 0, 1);
        sccd_v3 strip = sccd_v3_mad(sccd_v3_mad(box.c, sccd_rng_uniform(&g, -box.h.y, box.h.y), yl),
                                    sccd_rng_uniform(&g, -box.h.z, box.h.z), zl);
        sccd_v3 moved = sccd_v3_add(pivot, turn(sccd_v3_sub(strip, pivot), zl, t * alpha));
        assert_true(sccd_sector3_vs_point(&s, moved));
    }
    assert_int_equal(sccd_test_assert_count(), 0);
    /* Constraint broken: the check fires and the formulas still give a valid sector. */
    sccd_box3 box = {{0, 0, 0}, sccd_quat_identity(), {1, 1, 1}};
    sccd_sector3 s = sccd_sector3_thesis(box, (sccd_v3){3, 4, 0}, 1.0);
    assert_int_equal(sccd_test_assert_count(), 1);
    assert_true(sccd_is_valid_sector3(&s));
    assert_true(fabs(s.R - 6.0) < 1e-12 && fabs(s.r - 4.0) < 1e-12);
    s = sccd_sector3_thesis(box, (sccd_v3){0, 0.5, 0}, 1.0); /* pivot inside */
    assert_int_equal(sccd_test_assert_count(), 2);
    assert_true(s.r == 0.0 && sccd_is_valid_sector3(&s));
    s = sccd_sector3_thesis(box, (sccd_v3){NAN, 0, 0}, 1.0);
    assert_int_equal(sccd_test_assert_count(), 3);
    assert_true(sccd_is_valid_sector3(&s));
    sccd_test_assert_reset();
    sccd_set_assert_handler(NULL);
}

/* §2.7 against the exact test: rates printed, not asserted; where the
 * capsule stays inside the slab the pseudo-capsule is a true 2D capsule and
 * the thesis is exact (its own claim), which is asserted. */
static void test_capsule_thesis_rates(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(110);
    int n = cases(), fp = 0, fn = 0, pos = 0, neg = 0, inside = 0;
    for (int i = 0; i < n; ++i) {
        pair_case c;
        c.s = sccd_oracle_random_sector(&g);
        make_capsule(&g, &c);
        bool exact = sccd_sector3_vs_capsule(&c.s, c.capsule);
        bool thesis = sccd_sector3_vs_capsule_thesis(&c.s, c.capsule);
        pos += exact;
        neg += !exact;
        fp += thesis && !exact;
        fn += !thesis && exact;
        sccd_real za = sccd_v3_dot(sccd_v3_sub(c.capsule.a, c.s.o), c.s.u);
        sccd_real zb = sccd_v3_dot(sccd_v3_sub(c.capsule.b, c.s.o), c.s.u);
        if (sccd_min(za, zb) - c.capsule.r >= c.s.zlo && sccd_max(za, zb) + c.capsule.r <= c.s.zhi) {
            inside++;
            assert_int_equal(thesis, exact);
        }
    }
    printf("  thesis §2.7 capsule vs exact: %d cases (%d overlap): false positives %d (%.2f %% of separated), "
           "false negatives %d (%.2f %% of overlapping); %d inside the slab agree\n",
           n, pos, fp, 100.0 * fp / sccd_max(neg, 1), fn, 100.0 * fn / sccd_max(pos, 1), inside);
    assert_true(inside > 0);
}

/* ---- bad and degenerate input ---- */

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_sector3 good = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, 0.5, 1.0, 2.0, -1.0, 1.0};
    sccd_sphere sp = {{1.5, 0, 0}, 0.1};
    assert_true(sccd_sector3_vs_sphere(&good, sp));
    assert_int_equal(sccd_test_assert_count(), 0);

    sccd_sector3 bad = good;
    bad.R = NAN;
    assert_false(sccd_sector3_vs_sphere(&bad, sp));
    assert_false(sccd_sector3_vs_point(&bad, sp.c));
    assert_false(sccd_sector3_vs_capsule(&bad, (sccd_capsule3){sp.c, sp.c, 0.1}));
    assert_false(sccd_sector3_vs_capsule_thesis(&bad, (sccd_capsule3){sp.c, sp.c, 0.1}));
    assert_false(sccd_sector3_vs_box(&bad, (sccd_box3){sp.c, sccd_quat_identity(), {1, 1, 1}}));
    assert_false(sccd_sector3_vs_triangle(&bad, (sccd_triangle){sp.c, sp.c, sp.c}));
    assert_false(sccd_sector3_vs_sector3(&bad, &good));
    assert_false(sccd_sector3_vs_sector3(&good, &bad));
    assert_true(isinf(sccd_sector3_distance(&bad, sp.c)));
    sccd_aabb3 bb = sccd_sector3_aabb(&bad);
    assert_true(sccd_is_valid_aabb3(bb));
    sccd_v3 l = sccd_sector3_to_local(&bad, sp.c);
    assert_true(sccd_is_valid_v3(l));
    l = sccd_sector3_from_local(&bad, sp.c);
    assert_true(sccd_is_valid_v3(l));
    assert_true(sccd_test_assert_count() >= 12);
    assert_false(sccd_is_valid_sector3(NULL));

    sccd_test_assert_reset();
    bad = good;
    bad.r = 3.0; /* r > R */
    assert_false(sccd_sector3_vs_sphere(&bad, sp));
    bad = good;
    bad.zlo = 2.0; /* zlo > zhi */
    assert_false(sccd_sector3_vs_sphere(&bad, sp));
    assert_int_equal(sccd_test_assert_count(), 2);

    /* repaired: axes not unit, half angle beyond π, r < 0 */
    sccd_test_assert_reset();
    bad = good;
    bad.u = (sccd_v3){0, 0, 3};
    bad.a = (sccd_v3){2, 0, 1};
    assert_true(sccd_sector3_vs_sphere(&bad, sp));
    assert_false(sccd_sector3_vs_sphere(&bad, (sccd_sphere){{-1.5, 0, 0}, 0.1}));
    bad = good;
    bad.a = (sccd_v3){0, 0, 1}; /* parallel to u: falls back to a direction ⟂ u */
    assert_true(sccd_sector3_vs_point(&bad, (sccd_v3){0, 0, 0}) == false);
    bad = good;
    bad.half_angle = 7.0;
    assert_true(sccd_sector3_vs_sphere(&bad, (sccd_sphere){{-1.5, 0, 0}, 0.1}));
    bad = good;
    bad.r = -1.0;
    assert_true(sccd_sector3_vs_point(&bad, (sccd_v3){0, 0, 0}));
    assert_int_equal(sccd_test_assert_count(), 5);

    /* bad shapes */
    sccd_test_assert_reset();
    assert_false(sccd_sector3_vs_point(&good, (sccd_v3){NAN, 0, 0}));
    assert_false(sccd_sector3_vs_sphere(&good, (sccd_sphere){{1.5, 0, 0}, -1.0}));
    assert_false(sccd_sector3_vs_capsule(&good, (sccd_capsule3){{1.5, 0, 0}, {INFINITY, 0, 0}, 1.0}));
    assert_false(sccd_sector3_vs_capsule_thesis(&good, (sccd_capsule3){{1.5, 0, 0}, {1, 0, 0}, NAN}));
    assert_false(sccd_sector3_vs_box(&good, (sccd_box3){{1.5, 0, 0}, {0, 0, 0, 2}, {1, 1, 1}}));
    assert_false(sccd_sector3_vs_triangle(&good, (sccd_triangle){{1.5, 0, 0}, {NAN, 0, 0}, {0, 0, 0}}));
    assert_true(isinf(sccd_sector3_distance(&good, (sccd_v3){0, NAN, 0})));
    /* infinities of both signs (their sum is NaN) */
    sccd_triangle inf2 = {{INFINITY, 0, 0}, {-INFINITY, 0, 0}, {1.5, 0, 0}};
    assert_false(sccd_sector3_vs_triangle(&good, inf2));
    sccd_sector3_prepared pg;
    assert_true(sccd_sector3_prepare(&pg, &good));
    assert_false(sccd_sector3_prepared_vs_triangle(&pg, inf2));
    assert_int_equal(sccd_test_assert_count(), 9);
    /* finite coordinates whose sum overflows are valid: a huge triangle
     * holding the sector hits, one far off misses */
    sccd_triangle huge = {{-1e308, -1e308, 0}, {1e308, -1e308, 0}, {0, 1e308, 0}};
    sccd_triangle far = {{1e308, 1e308, 0}, {1e308, 1.5e308, 0}, {1.5e308, 1e308, 0}};
    assert_true(sccd_sector3_vs_triangle(&good, huge));
    assert_true(sccd_sector3_prepared_vs_triangle(&pg, huge));
    assert_false(sccd_sector3_vs_triangle(&good, far));
    assert_false(sccd_sector3_prepared_vs_triangle(&pg, far));
    assert_int_equal(sccd_test_assert_count(), 9);
    sccd_test_assert_reset();
    sccd_set_assert_handler(NULL);
}

/* Degenerate but valid sectors are the lower-dimensional sets they describe. */
static void test_degenerate_sectors(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    /* half_angle 0, zlo = zhi: the segment from (1,0,0) to (2,0,0) */
    sccd_sector3 seg = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, 0.0, 1.0, 2.0, 0.0, 0.0};
    assert_true(sccd_sector3_vs_point(&seg, (sccd_v3){1.5, 0, 0}));
    assert_false(sccd_sector3_vs_point(&seg, (sccd_v3){1.5, 1e-6, 0}));
    assert_false(sccd_sector3_vs_point(&seg, (sccd_v3){-1.5, 0, 0}));
    assert_true(sccd_sector3_vs_sphere(&seg, (sccd_sphere){{1.5, 0.5, 0}, 0.5}));
    assert_false(sccd_sector3_vs_sphere(&seg, (sccd_sphere){{1.5, 0.5, 0}, 0.4999}));
    assert_true(sccd_sector3_vs_box(&seg, (sccd_box3){{1.5, 0.5, 0}, sccd_quat_identity(), {0.1, 0.5, 0.1}}));
    assert_false(sccd_sector3_vs_box(&seg, (sccd_box3){{1.5, 0.5, 0}, sccd_quat_identity(), {0.1, 0.4999, 0.1}}));
    /* a triangle crossing it */
    assert_true(sccd_sector3_vs_triangle(&seg, (sccd_triangle){{1.5, -1, -1}, {1.5, 1, -1}, {1.5, 0, 1}}));
    /* R = 0: a segment on the axis */
    sccd_sector3 axis = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, 1.0, 0.0, 0.0, -1.0, 1.0};
    assert_true(sccd_sector3_vs_capsule(&axis, (sccd_capsule3){{-1, 0, 0.5}, {1, 0, 0.5}, 0.0}));
    assert_false(sccd_sector3_vs_capsule(&axis, (sccd_capsule3){{-1, 0.001, 0.5}, {1, 0.001, 0.5}, 0.0}));
    assert_false(sccd_sector3_vs_sector3(&axis, &seg));
    seg.r = 0.0; /* now it starts on the axis */
    assert_true(sccd_sector3_vs_sector3(&axis, &seg));
    /* r = R: a cylinder patch; a sphere inside the hole does not touch it */
    sccd_sector3 shell = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, SCCD_PI, 2.0, 2.0, -1.0, 1.0};
    assert_false(sccd_sector3_vs_sphere(&shell, (sccd_sphere){{0, 0, 0}, 1.9}));
    assert_true(sccd_sector3_vs_sphere(&shell, (sccd_sphere){{0, 0, 0}, 2.0}));
    /* eq 2.8's flaw: a sphere larger than the hole, centred on the axis */
    sccd_sector3 ring = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, 0.3, 1.0, 2.0, -1.0, 1.0};
    assert_true(sccd_sector3_vs_sphere(&ring, (sccd_sphere){{0, 0, 0}, 1.5}));
    assert_true(sccd_sector3_vs_capsule(&ring, (sccd_capsule3){{0, 0, -5}, {0, 0, 5}, 1.5}));
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point_and_distance),  cmocka_unit_test(test_sphere_random),
        cmocka_unit_test(test_capsule_random),      cmocka_unit_test(test_box_random),
        cmocka_unit_test(test_triangle_random),     cmocka_unit_test(test_sector_random),
        cmocka_unit_test(test_touching),            cmocka_unit_test(test_sector_touching),
        cmocka_unit_test(test_thesis_construction), cmocka_unit_test(test_capsule_thesis_rates),
        cmocka_unit_test(test_bad_input),           cmocka_unit_test(test_degenerate_sectors),
        cmocka_unit_test(test_aabb),                cmocka_unit_test(test_triangle_grazing_slab),
        cmocka_unit_test(test_scaled_scenes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
