/* Sphere trees: structure and bounds (every node holds its leaves; the seed
 * bound recomputed from its formula), and every query against brute force
 * over the leaves on thousands of random placements, with arguments swapped
 * where the pair is symmetric; coincident centres and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fill_support.h"
#include "test_util.h"

enum { PLACEMENTS = 3000 };

static void random_spheres(sccd_rng *g, sccd_sphere *s, int n, double spread)
{
    for (int i = 0; i < n; ++i)
        s[i] = (sccd_sphere){sccd_rng_v3(g, spread), sccd_rng_uniform(g, 0.02, 0.25)};
}

/* Leaves of a filled mesh (the bat at a small resolution). */
static int filled_bat(sccd_sphere_list *l)
{
    sccd_mesh m;
    sccd_mesh_init(&m);
    sccd_mesh_bat(&m, 12);
    assert_true(sccd_test_fill(&m, 48, SCCD_FILL_SEED, l));
    sccd_mesh_destroy(&m);
    return l->n;
}

/* Structure: children after parents, leaf ranges contiguous and nested,
 * one leaf per leaf node, every bound holding its leaves. */
static void check_tree(const sccd_spheretree *t, const sccd_sphere *src, int n, sccd_bound_method method)
{
    assert_int_equal(t->leaf_count, n);
    assert_true(t->node_count <= 2 * n - 1);
    assert_int_equal(t->nodes[0].leaf_count, n);
    int *seen = calloc((size_t)n, sizeof *seen);
    for (int i = 0; i < t->node_count; ++i) {
        const sccd_spheretree_node *nd = &t->nodes[i];
        for (int l = nd->leaf_first; l < nd->leaf_first + nd->leaf_count; ++l) {
            double out = sccd_v3_dist(nd->bound.c, t->leaves[l].c) + t->leaves[l].r - nd->bound.r;
            assert_true(out <= 1e-12 * (1.0 + nd->bound.r));
        }
        if (nd->count == 0) {
            assert_int_equal(nd->leaf_count, 1);
            assert_true(nd->bound.r == t->leaves[nd->leaf_first].r);
            seen[nd->leaf_first]++;
            continue;
        }
        assert_true(nd->count >= 2 && nd->first > i);
        int at = nd->leaf_first;
        sccd_v3 lo = t->nodes[nd->first].bound.c, hi = lo;
        for (int c = 0; c < nd->count; ++c) {
            const sccd_spheretree_node *ch = &t->nodes[nd->first + c];
            assert_int_equal(ch->leaf_first, at);
            assert_int_equal(ch->level, nd->level + 1);
            at += ch->leaf_count;
            lo = sccd_v3_min(lo, ch->bound.c);
            hi = sccd_v3_max(hi, ch->bound.c);
        }
        assert_int_equal(at, nd->leaf_first + nd->leaf_count);
        /* seed 003 §3.2: centre of the box around the children's centres, radius to the farthest child surface. */
        sccd_v3 c = sccd_v3_scale(sccd_v3_add(lo, hi), 0.5);
        double r = 0.0;
        for (int k = 0; k < nd->count; ++k)
            r = fmax(r, sccd_v3_dist(c, t->nodes[nd->first + k].bound.c) + t->nodes[nd->first + k].bound.r);
        if (method == SCCD_BOUND_SEED)
            assert_true(sccd_v3_dist(c, nd->bound.c) <= 1e-12 && fabs(r - nd->bound.r) <= 1e-12);
        else
            assert_true(nd->bound.r <= r + 1e-12);
    }
    /* Each leaf once, and the leaves are the input spheres (same multiset of radii and centres). */
    double sum_in = 0.0, sum_tree = 0.0;
    for (int l = 0; l < n; ++l) {
        assert_int_equal(seen[l], 1);
        sum_in += src[l].r + src[l].c.x + 3.0 * src[l].c.y + 7.0 * src[l].c.z;
        sum_tree += t->leaves[l].r + t->leaves[l].c.x + 3.0 * t->leaves[l].c.y + 7.0 * t->leaves[l].c.z;
    }
    assert_true(fabs(sum_in - sum_tree) < 1e-9 * (1.0 + fabs(sum_in)));
    free(seen);
}

static void test_build(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(51);
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    sccd_sphere s[1500];
    for (int trial = 0; trial < 40; ++trial) {
        int n = trial < 5 ? trial + 1 : 1 + sccd_rng_int(&g, 1500);
        random_spheres(&g, s, n, trial % 2 ? 1.0 : 100.0);
        if (trial % 7 == 3)
            for (int i = 0; i < n; ++i)
                s[i].c.z = 0.0; /* planar set */
        for (int m = 0; m < 2; ++m) {
            assert_true(sccd_spheretree_build(&t, s, n, (sccd_bound_method)m));
            check_tree(&t, s, n, (sccd_bound_method)m);
        }
    }
    /* Coincident centres become siblings; a tree from a real fill. */
    for (int i = 0; i < 10; ++i)
        s[i] = (sccd_sphere){{1, 2, 3}, 0.1 * (i + 1)};
    s[10] = (sccd_sphere){{1, 2, 4}, 0.5};
    assert_true(sccd_spheretree_build(&t, s, 11, SCCD_BOUND_TIGHT));
    check_tree(&t, s, 11, SCCD_BOUND_TIGHT);
    /* The minimal sphere has radius 1.25 (z from 2 to 4.5); the iteration gets within 1 %. */
    assert_true(t.nodes[0].bound.r >= 1.25 - 1e-12 && t.nodes[0].bound.r <= 1.25 * 1.01);
    for (int i = 0; i < 4; ++i)
        s[i] = (sccd_sphere){{0, 0, 0}, 1.0};
    assert_true(sccd_spheretree_build(&t, s, 4, SCCD_BOUND_SEED));
    check_tree(&t, s, 4, SCCD_BOUND_SEED);
    assert_int_equal(t.nodes[0].count, 4);
    sccd_sphere_list l;
    sccd_sphere_list_init(&l);
    int n = filled_bat(&l);
    assert_true(n > 50);
    double seed_vol[64], tight_vol[64];
    assert_true(sccd_spheretree_build(&t, l.s, n, SCCD_BOUND_SEED));
    check_tree(&t, l.s, n, SCCD_BOUND_SEED);
    int levels = sccd_spheretree_level_volume(&t, seed_vol, 64);
    assert_true(sccd_spheretree_build(&t, l.s, n, SCCD_BOUND_TIGHT));
    check_tree(&t, l.s, n, SCCD_BOUND_TIGHT);
    assert_int_equal(sccd_spheretree_level_volume(&t, tight_vol, 64), levels);
    assert_true(tight_vol[0] < seed_vol[0]);
    /* The leaf level is the same in both. */
    double leaf_vol = 0.0;
    for (int i = 0; i < n; ++i)
        leaf_vol += 4.0 / 3.0 * SCCD_PI * pow(l.s[i].r, 3.0);
    double all_seed = 0.0, all_tight = 0.0;
    for (int i = 0; i < levels; ++i)
        all_seed += seed_vol[i], all_tight += tight_vol[i];
    assert_true(all_tight < all_seed && all_tight > leaf_vol);
    sccd_sphere_list_destroy(&l);
    sccd_spheretree_destroy(&t);
}

static sccd_xf3 random_pose(sccd_rng *g, double spread)
{
    return (sccd_xf3){sccd_rng_v3(g, spread), sccd_rng_quat(g)};
}

static sccd_sphere leaf_world(const sccd_spheretree *t, sccd_xf3 xf, int i)
{
    return (sccd_sphere){sccd_xf3_apply(xf, t->leaves[i].c), t->leaves[i].r};
}

static void test_tree_vs_tree(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(52);
    sccd_spheretree a, b;
    sccd_spheretree_init(&a);
    sccd_spheretree_init(&b);
    sccd_sphere sa[120], sb[80];
    sccd_spheretree_contact out[64], back[64];
    int hits = 0;
    for (int p = 0; p < PLACEMENTS; ++p) {
        if (p % 300 == 0) {
            random_spheres(&g, sa, 120, 1.0);
            random_spheres(&g, sb, 80, 0.7);
            assert_true(sccd_spheretree_build(&a, sa, 120, (sccd_bound_method)(p / 300 % 2)));
            assert_true(sccd_spheretree_build(&b, sb, 80, (sccd_bound_method)(p / 600 % 2)));
        }
        sccd_xf3 xa = random_pose(&g, 0.5), xb = random_pose(&g, 2.5);
        int brute = 0;
        for (int i = 0; i < a.leaf_count; ++i)
            for (int j = 0; j < b.leaf_count; ++j) {
                sccd_sphere u = leaf_world(&a, xa, i), v = leaf_world(&b, xb, j);
                brute += sccd_v3_dist(u.c, v.c) <= u.r + v.r;
            }
        bool any = sccd_spheretree_vs_spheretree(&a, xa, &b, xb);
        assert_true(any == (brute > 0));
        assert_true(sccd_spheretree_vs_spheretree(&b, xb, &a, xa) == any);
        int n = sccd_spheretree_contacts(&a, xa, &b, xb, out, 64);
        assert_int_equal(n, brute);
        assert_int_equal(sccd_spheretree_contacts(&b, xb, &a, xa, back, 64), brute);
        assert_int_equal(sccd_spheretree_contacts(&a, xa, &b, xb, NULL, 0), brute);
        for (int c = 0; c < n && c < 64; ++c) {
            sccd_sphere u = leaf_world(&a, xa, out[c].leaf_a), v = leaf_world(&b, xb, out[c].leaf_b);
            double d = sccd_v3_dist(u.c, v.c);
            assert_true(fabs(out[c].depth - (u.r + v.r - d)) < 1e-12);
            assert_true(out[c].depth >= 0.0);
            /* normal a → b, point midway between the surfaces */
            assert_true(sccd_v3_dist(sccd_v3_mad(u.c, d, out[c].normal), v.c) < 1e-9);
            sccd_v3 mid = sccd_v3_scale(sccd_v3_add(sccd_v3_mad(u.c, u.r, out[c].normal), sccd_v3_mad(v.c, -v.r, out[c].normal)), 0.5);
            assert_true(sccd_v3_dist(mid, out[c].point) < 1e-9);
        }
        hits += any;
    }
    /* Both outcomes occur often enough for the comparison to mean something. */
    assert_true(hits > PLACEMENTS / 10 && hits < PLACEMENTS * 9 / 10);
    sccd_spheretree_destroy(&a);
    sccd_spheretree_destroy(&b);
}

/* Independent distances from a sphere centre to each primitive. */
static double box_distance(sccd_v3 p, sccd_box3 b)
{
    sccd_v3 q = sccd_v3_sub(sccd_v3_abs(sccd_quat_inv_apply(b.q, sccd_v3_sub(p, b.c))), b.h);
    return sccd_v3_len(sccd_v3_max(q, (sccd_v3){0, 0, 0}));
}

static double capsule_distance(sccd_v3 p, sccd_capsule3 c)
{
    /* projection parameter clamped, written out */
    sccd_v3 d = sccd_v3_sub(c.b, c.a);
    double len2 = sccd_v3_len2(d), t = len2 > 0.0 ? sccd_v3_dot(sccd_v3_sub(p, c.a), d) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    return sccd_v3_dist(p, sccd_v3_add(c.a, sccd_v3_scale(d, t))) - c.r;
}

static void test_tree_vs_primitives(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(53);
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    sccd_sphere_list l;
    sccd_sphere_list_init(&l);
    int n = filled_bat(&l);
    sccd_sphere rs[200];
    sccd_spheretree_contact out[512];
    int hits[4] = {0};
    for (int p = 0; p < PLACEMENTS; ++p) {
        bool use_bat = p % 2 == 0;
        if (p % 500 == 0 || p % 500 == 1) {
            random_spheres(&g, rs, 200, 0.4);
            assert_true(use_bat ? sccd_spheretree_build(&t, l.s, n, (sccd_bound_method)(p / 500 % 2))
                                : sccd_spheretree_build(&t, rs, 200, (sccd_bound_method)(p / 500 % 2)));
        }
        sccd_xf3 xf = random_pose(&g, 0.3);
        sccd_shape3 shapes[3];
        shapes[0] = (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {sccd_rng_v3(&g, 0.9), sccd_rng_uniform(&g, 0.0, 0.2)}};
        shapes[1] = (sccd_shape3){.type = SCCD_SHAPE_CAPSULE,
                                  .capsule = {sccd_rng_v3(&g, 0.9), sccd_rng_v3(&g, 0.9), sccd_rng_uniform(&g, 0.0, 0.1)}};
        if (p % 97 == 0)
            shapes[1].capsule.b = shapes[1].capsule.a; /* zero-length capsule */
        shapes[2] = (sccd_shape3){.type = SCCD_SHAPE_BOX,
                                  .box = {sccd_rng_v3(&g, 0.9), sccd_rng_quat(&g),
                                          {sccd_rng_uniform(&g, 0.0, 0.3), sccd_rng_uniform(&g, 0.0, 0.3),
                                           sccd_rng_uniform(&g, 0.0, 0.3)}}};
        sccd_v3 pn = sccd_rng_unit3(&g);
        sccd_plane plane = {pn, sccd_v3_dot(pn, xf.p) + sccd_rng_uniform(&g, -1.0, 0.2)};
        for (int k = 0; k < 4; ++k) {
            int brute = 0;
            double deepest = -1.0;
            for (int i = 0; i < t.leaf_count; ++i) {
                sccd_sphere s = leaf_world(&t, xf, i);
                double gap = k == 0 ? sccd_v3_dist(s.c, shapes[0].sphere.c) - shapes[0].sphere.r - s.r
                             : k == 1 ? capsule_distance(s.c, shapes[1].capsule) - s.r
                             : k == 2 ? box_distance(s.c, shapes[2].box) - s.r
                                      : sccd_v3_dot(plane.n, s.c) - plane.d - s.r;
                brute += gap <= 0.0;
                if (gap <= 0.0 && k == 3)
                    deepest = fmax(deepest, -gap);
            }
            bool any = k == 0 ? sccd_spheretree_vs_sphere(&t, xf, shapes[0].sphere)
                       : k == 1 ? sccd_spheretree_vs_capsule(&t, xf, shapes[1].capsule)
                       : k == 2 ? sccd_spheretree_vs_box(&t, xf, shapes[2].box)
                                : sccd_spheretree_vs_plane(&t, xf, plane);
            assert_true(any == (brute > 0));
            int c = k < 3 ? sccd_spheretree_contacts_shape(&t, xf, &shapes[k], out, 512)
                          : sccd_spheretree_contacts_plane(&t, xf, plane, out, 512);
            assert_int_equal(c, brute);
            for (int q = 0; q < c && q < 512; ++q) {
                assert_true(out[q].depth >= 0.0 && fabs(sccd_v3_len(out[q].normal) - 1.0) < 1e-9);
                assert_int_equal(out[q].leaf_b, -1);
                /* Moving the primitive by depth along the normal (plus a hair) separates this leaf from it. */
                sccd_sphere s = leaf_world(&t, xf, out[q].leaf_a);
                sccd_v3 shift = sccd_v3_scale(out[q].normal, out[q].depth + 1e-9);
                double gap = k == 0 ? sccd_v3_dist(s.c, sccd_v3_add(shapes[0].sphere.c, shift)) - shapes[0].sphere.r - s.r
                             : k == 1 ? capsule_distance(s.c, (sccd_capsule3){sccd_v3_add(shapes[1].capsule.a, shift),
                                                                              sccd_v3_add(shapes[1].capsule.b, shift),
                                                                              shapes[1].capsule.r}) - s.r
                             : k == 2 ? box_distance(s.c, (sccd_box3){sccd_v3_add(shapes[2].box.c, shift), shapes[2].box.q,
                                                                      shapes[2].box.h}) - s.r
                                      : sccd_v3_dot(plane.n, s.c) - (plane.d + sccd_v3_dot(plane.n, shift)) - s.r;
                if (k != 2 || box_distance(s.c, shapes[2].box) > 0.0)
                    assert_true(gap >= -1e-9);
                if (k == 3)
                    assert_true(out[q].depth <= deepest + 1e-12);
            }
            hits[k] += any;
        }
    }
    for (int k = 0; k < 4; ++k)
        assert_true(hits[k] > PLACEMENTS / 20 && hits[k] < PLACEMENTS * 19 / 20);
    sccd_sphere_list_destroy(&l);
    sccd_spheretree_destroy(&t);
}

/* Entry parameter by the textbook quadratic: the smaller root if ≥ 0, 0 inside. */
static double ray_entry(sccd_v3 o, sccd_v3 d, sccd_sphere s)
{
    sccd_v3 m = sccd_v3_sub(o, s.c);
    if (sccd_v3_len(m) <= s.r)
        return 0.0;
    double a = sccd_v3_dot(d, d), b = 2.0 * sccd_v3_dot(m, d), c = sccd_v3_dot(m, m) - s.r * s.r;
    double disc = b * b - 4.0 * a * c;
    if (a == 0.0 || disc < 0.0)
        return INFINITY;
    double t = (-b - sqrt(disc)) / (2.0 * a);
    return t >= 0.0 ? t : INFINITY;
}

static void test_raycast(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(54);
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    sccd_sphere s[300];
    int hits = 0;
    for (int p = 0; p < PLACEMENTS; ++p) {
        if (p % 500 == 0) {
            random_spheres(&g, s, 300, 1.0);
            assert_true(sccd_spheretree_build(&t, s, 300, (sccd_bound_method)(p / 500 % 2)));
        }
        sccd_xf3 xf = random_pose(&g, 0.5);
        sccd_ray3 ray = {sccd_rng_v3(&g, 3.0), sccd_v3_scale(sccd_rng_unit3(&g), sccd_rng_uniform(&g, 0.5, 2.0))};
        if (p % 3 == 0)
            ray.d = sccd_v3_scale(sccd_v3_sub(xf.p, ray.o), sccd_rng_uniform(&g, 0.2, 1.0)); /* aimed at the tree */
        double max_t = p % 5 == 0 ? sccd_rng_uniform(&g, 0.0, 2.0) : INFINITY;
        double best = INFINITY;
        for (int i = 0; i < t.leaf_count; ++i)
            best = fmin(best, ray_entry(ray.o, ray.d, leaf_world(&t, xf, i)));
        sccd_spheretree_ray_result r = sccd_spheretree_raycast(&t, xf, ray, max_t);
        bool want = isfinite(best) && best <= max_t;
        assert_true(r.hit == want);
        if (!r.hit)
            continue;
        ++hits;
        assert_true(fabs(r.t - best) <= 1e-9 * (1.0 + best));
        sccd_sphere leaf = leaf_world(&t, xf, r.leaf);
        assert_true(fabs(ray_entry(ray.o, ray.d, leaf) - best) <= 1e-9 * (1.0 + best));
        if (r.t > 0.0) {
            assert_true(fabs(sccd_v3_dist(r.point, leaf.c) - leaf.r) < 1e-9);
            assert_true(sccd_v3_dist(r.normal, sccd_v3_scale(sccd_v3_sub(r.point, leaf.c), 1.0 / leaf.r)) < 1e-9);
        }
    }
    assert_true(hits > PLACEMENTS / 5 && hits < PLACEMENTS * 4 / 5);
    /* A point ray (zero direction) hits only from inside. */
    sccd_spheretree_ray_result r = sccd_spheretree_raycast(&t, sccd_xf3_identity(), (sccd_ray3){t.leaves[0].c, {0, 0, 0}}, 1.0);
    assert_true(r.hit && r.t == 0.0);
    r = sccd_spheretree_raycast(&t, sccd_xf3_identity(), (sccd_ray3){{50, 0, 0}, {0, 0, 0}}, 1.0);
    assert_false(r.hit);
    sccd_spheretree_destroy(&t);
}


static sccd_motion3 random_motion(sccd_rng *g)
{
    sccd_motion3 m = {random_pose(g, 0.5), sccd_rng_v3(g, 0.6), sccd_rng_v3(g, 0.8), sccd_rng_unit3(g),
                      sccd_rng_uniform(g, -7.0, 7.0)};
    if (sccd_rng_int(g, 4) == 0)
        m.dp = (sccd_v3){0, 0, 0};
    return m;
}

static bool shape_touches_sphere(const sccd_shape3 *s, sccd_sphere b)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_v3_dist(s->sphere.c, b.c) <= s->sphere.r + b.r;
    case SCCD_SHAPE_CAPSULE: return capsule_distance(b.c, s->capsule) <= b.r;
    default: return box_distance(b.c, s->box) <= b.r;
    }
}

static bool sweep_touches_shape(const sccd_sweep3 *w, const sccd_shape3 *s)
{
    return s->type == SCCD_SHAPE_CIRCLE ? sccd_sweep3_vs_sphere(w, s->sphere)
           : s->type == SCCD_SHAPE_CAPSULE ? sccd_sweep3_vs_capsule(w, s->capsule)
                                           : sccd_sweep3_vs_box(w, s->box);
}

/* A moving tree (a swung body) against static shapes and a static tree: the
 * answer equals brute force over the leaves' own sweeps, and never misses a
 * contact found by sampling the motion at 65 times. */
static void test_swept_tree(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(55);
    sccd_spheretree t, o;
    sccd_spheretree_init(&t);
    sccd_spheretree_init(&o);
    sccd_sphere s[40], so[25];
    int hits = 0, sampled_hits = 0;
    for (int p = 0; p < 1500; ++p) {
        if (p % 100 == 0) {
            random_spheres(&g, s, 40, 0.5);
            random_spheres(&g, so, 25, 0.3);
            assert_true(sccd_spheretree_build(&t, s, 40, (sccd_bound_method)(p / 100 % 2)));
            assert_true(sccd_spheretree_build(&o, so, 25, SCCD_BOUND_TIGHT));
        }
        sccd_motion3 m = random_motion(&g);
        int bands = 1 + sccd_rng_int(&g, SCCD_MAX_BANDS);
        sccd_shape3 shape;
        int kind = p % 4;
        if (kind == 0)
            shape = (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {sccd_rng_v3(&g, 2.0), sccd_rng_uniform(&g, 0.0, 0.3)}};
        else if (kind == 1)
            shape = (sccd_shape3){.type = SCCD_SHAPE_CAPSULE,
                                  .capsule = {sccd_rng_v3(&g, 2.0), sccd_rng_v3(&g, 2.0), sccd_rng_uniform(&g, 0.0, 0.2)}};
        else
            shape = (sccd_shape3){.type = SCCD_SHAPE_BOX,
                                  .box = {sccd_rng_v3(&g, 2.0), sccd_rng_quat(&g),
                                          {sccd_rng_uniform(&g, 0.0, 0.4), sccd_rng_uniform(&g, 0.0, 0.4), sccd_rng_uniform(&g, 0.0, 0.4)}}};
        sccd_xf3 xo = random_pose(&g, 2.0);
        bool brute = false, brute_tree = false, sampled = false, sampled_tree = false;
        for (int i = 0; i < t.leaf_count; ++i) {
            sccd_sweep3 w;
            sccd_sweep3_sphere(&w, t.leaves[i], m, bands);
            brute = brute || sweep_touches_shape(&w, &shape);
            for (int j = 0; j < o.leaf_count && kind == 3; ++j)
                brute_tree = brute_tree || sccd_sweep3_vs_sphere(&w, leaf_world(&o, xo, j));
            for (int k = 0; k <= 64; ++k) {
                sccd_sphere b = leaf_world(&t, sccd_motion3_at(m, k / 64.0), i);
                sampled = sampled || shape_touches_sphere(&shape, b);
                for (int j = 0; j < o.leaf_count && kind == 3; ++j) {
                    sccd_sphere c = leaf_world(&o, xo, j);
                    sampled_tree = sampled_tree || sccd_v3_dist(b.c, c.c) <= b.r + c.r;
                }
            }
        }
        bool got = sccd_spheretree_swept_vs_shape(&t, m, bands, &shape);
        assert_true(got == brute);
        assert_true(got || !sampled); /* never a miss */
        if (kind == 3) {
            bool got_tree = sccd_spheretree_swept_vs_spheretree(&t, m, bands, &o, xo);
            assert_true(got_tree == brute_tree);
            assert_true(got_tree || !sampled_tree);
        }
        hits += got;
        sampled_hits += sampled;
    }
    assert_true(hits > 100 && hits < 1400 && sampled_hits > 50);
    sccd_spheretree_destroy(&t);
    sccd_spheretree_destroy(&o);
}

/* A static tree against a swept box (a sword swung at a sphere-tree target). */
static void test_tree_vs_swept_box(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(56);
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    sccd_sphere s[150];
    int leaves[150], hits = 0;
    for (int p = 0; p < 1500; ++p) {
        if (p % 150 == 0) {
            random_spheres(&g, s, 150, 1.0);
            assert_true(sccd_spheretree_build(&t, s, 150, (sccd_bound_method)(p / 150 % 2)));
        }
        sccd_xf3 xf = random_pose(&g, 0.5);
        sccd_motion3 m = random_motion(&g);
        m.start.p = sccd_v3_add(m.start.p, sccd_rng_v3(&g, 1.5));
        sccd_v3 half = {sccd_rng_uniform(&g, 0.0, 0.1), sccd_rng_uniform(&g, 0.05, 0.6), sccd_rng_uniform(&g, 0.0, 0.1)};
        sccd_sweep3 w;
        sccd_sweep3_box(&w, half, m, 1 + p % SCCD_MAX_BANDS);
        int n = sccd_spheretree_sweep3_leaves(&t, xf, &w, leaves, 150);
        int brute = 0;
        bool sampled = false;
        for (int i = 0; i < t.leaf_count; ++i) {
            bool in = sccd_sweep3_vs_sphere(&w, leaf_world(&t, xf, i));
            brute += in;
            bool listed = false;
            for (int k = 0; k < n && k < 150; ++k)
                listed = listed || leaves[k] == i;
            assert_true(listed == in);
            for (int k = 0; k <= 64; ++k) {
                sccd_xf3 pose = sccd_motion3_at(m, k / 64.0);
                sccd_box3 box = {pose.p, pose.q, half};
                bool touch = box_distance(leaf_world(&t, xf, i).c, box) <= t.leaves[i].r;
                sampled = sampled || touch;
                assert_true(!touch || in); /* never a miss */
            }
        }
        assert_int_equal(n, brute);
        bool any = sccd_spheretree_vs_sweep3(&t, xf, &w);
        assert_true(any == (brute > 0));
        assert_true(any || !sampled);
        hits += any;
    }
    assert_true(hits > 100 && hits < 1400);
    /* Bad input answers "may touch". */
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_sweep3 w;
    sccd_sweep3_sphere(&w, (sccd_sphere){{0, 0, 0}, 1}, (sccd_motion3){sccd_xf3_identity(), {0, 0, 0}, {0, 0, 0}, {0, 0, 1}, 1.0}, 2);
    sccd_spheretree empty;
    sccd_spheretree_init(&empty);
    sccd_shape3 sphere = {.type = SCCD_SHAPE_CIRCLE, .sphere = {{0, 0, 0}, 1}}, poly = {.type = SCCD_SHAPE_POLY};
    sccd_motion3 bad = {sccd_xf3_identity(), {0, 0, 0}, {0, 0, 0}, {0, 0, 2}, 1.0}, good = bad;
    good.axis = (sccd_v3){0, 0, 1};
    assert_true(sccd_spheretree_vs_sweep3(&empty, sccd_xf3_identity(), &w));
    assert_true(sccd_spheretree_vs_sweep3(&t, sccd_xf3_identity(), NULL));
    assert_int_equal(sccd_spheretree_sweep3_leaves(&t, sccd_xf3_identity(), &w, NULL, 3), 0);
    assert_true(sccd_spheretree_swept_vs_shape(&t, bad, 2, &sphere));
    assert_true(sccd_spheretree_swept_vs_shape(&t, good, 0, &sphere));
    assert_true(sccd_spheretree_swept_vs_shape(&t, good, 2, &poly));
    assert_true(sccd_spheretree_swept_vs_shape(&t, good, 2, NULL));
    assert_true(sccd_spheretree_swept_vs_spheretree(&t, good, 2, &empty, sccd_xf3_identity()));
    assert_int_equal(sccd_test_assert_count(), 8);
    sccd_set_assert_handler(NULL);
    sccd_spheretree_destroy(&t);
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_spheretree t, empty;
    sccd_spheretree_init(&t);
    sccd_spheretree_init(&empty);
    sccd_sphere s[3] = {{{0, 0, 0}, 1}, {{1, 0, 0}, 1}, {{NAN, 0, 0}, 1}};
    assert_false(sccd_spheretree_build(&t, s, 3, SCCD_BOUND_SEED));
    s[2] = (sccd_sphere){{2, 0, 0}, -1};
    assert_false(sccd_spheretree_build(&t, s, 3, SCCD_BOUND_SEED));
    assert_false(sccd_spheretree_build(&t, s, 0, SCCD_BOUND_SEED));
    assert_false(sccd_spheretree_build(&t, NULL, 2, SCCD_BOUND_SEED));
    assert_false(sccd_spheretree_build(&t, s, 2, (sccd_bound_method)9));
    assert_false(sccd_spheretree_build(NULL, s, 2, SCCD_BOUND_SEED));
    assert_int_equal(t.node_count, 0);
    assert_int_equal(sccd_test_assert_count(), 6);
    assert_true(sccd_spheretree_build(&t, s, 2, SCCD_BOUND_SEED));
    sccd_xf3 id = sccd_xf3_identity(), bad = {{0, 0, 0}, {0, 0, 0, 2}};
    sccd_spheretree_contact c[4];
    assert_false(sccd_spheretree_vs_spheretree(&t, id, &empty, id));
    assert_false(sccd_spheretree_vs_spheretree(&t, bad, &t, id));
    assert_int_equal(sccd_spheretree_contacts(&t, id, &t, id, NULL, 4), 0);
    assert_int_equal(sccd_spheretree_contacts(&t, id, &t, id, c, -1), 0);
    assert_false(sccd_spheretree_vs_sphere(&t, id, (sccd_sphere){{0, 0, 0}, NAN}));
    assert_false(sccd_spheretree_vs_capsule(&t, id, (sccd_capsule3){{0, 0, 0}, {1, 0, 0}, -1}));
    assert_false(sccd_spheretree_vs_box(&t, bad, (sccd_box3){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}));
    assert_false(sccd_spheretree_vs_plane(&t, id, (sccd_plane){{0, 0, 2}, 0}));
    sccd_shape3 poly = {.type = SCCD_SHAPE_POLY};
    assert_int_equal(sccd_spheretree_contacts_shape(&t, id, &poly, c, 4), 0);
    assert_int_equal(sccd_spheretree_contacts_shape(&t, id, NULL, c, 4), 0);
    assert_int_equal(sccd_spheretree_contacts_plane(NULL, id, (sccd_plane){{0, 0, 1}, 0}, c, 4), 0);
    sccd_spheretree_ray_result r = sccd_spheretree_raycast(&t, id, (sccd_ray3){{5, 0, 0}, {-1, 0, 0}}, NAN);
    assert_false(r.hit);
    r = sccd_spheretree_raycast(&t, id, (sccd_ray3){{5, 0, 0}, {INFINITY, 0, 0}}, 1.0);
    assert_false(r.hit);
    double vol[2];
    assert_int_equal(sccd_spheretree_level_volume(&t, NULL, 2), 0);
    assert_int_equal(sccd_test_assert_count(), 6 + 14);
    /* The valid queries still answer: the two unit spheres touch the origin ball, capped output. */
    assert_int_equal(sccd_spheretree_contacts(&t, id, &t, id, c, 1), 4);
    assert_int_equal(sccd_spheretree_level_volume(&t, vol, 2), 2);
    assert_true(fabs(vol[1] - 2.0 * 4.0 / 3.0 * SCCD_PI) < 1e-12);
    sccd_spheretree_init(NULL);
    sccd_spheretree_destroy(NULL);
    sccd_spheretree_destroy(&t);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build),           cmocka_unit_test(test_tree_vs_tree),
        cmocka_unit_test(test_tree_vs_primitives), cmocka_unit_test(test_raycast),
        cmocka_unit_test(test_swept_tree),      cmocka_unit_test(test_tree_vs_swept_box),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
