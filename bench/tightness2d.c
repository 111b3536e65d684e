/* Tightness of the 2D sweeps: the fraction of the bound's area that the body
 * truly sweeps, for 1, 2, 4 and 8 bands, against the exact rotational ground
 * truth (tests/oracles/truth2.c), with the thesis' sector (seed 000 eq 2.1)
 * beside them. Monte Carlo: uniform points in the AABB of all the bounds.
 *
 * Scenarios:
 *   thesis  — seed 000 §3.1 in 2D: a box of sizes Wx, Wy in [0, 25] turning by
 *             α in [0, 2π] about a pivot on its local y axis at distance
 *             [12.5, 25] from its centre (the thesis' constraint).
 *   general — random boxes, polygons, capsules and circles (sizes up to 4),
 *             centre anywhere within 6 (inside the shape one time in three),
 *             turn in [−π, π].
 *   spin    — an elongated box or capsule turning by up to 1 rad about its
 *             own centre (an engine step about the centre of mass).
 *
 *   build/bin/tightness2d [--quick] [--out DIR]
 * writes DIR/tightness2d.csv and DIR/tightness2d.md; --quick runs fewer
 * trials and exits non-zero if any truly swept point is outside a sweep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "truth2.h"

#define METHODS 5 /* 1, 2, 4, 8 bands, the thesis' sector */

static const int band_counts[4] = {1, 2, 4, 8};
static const char *method_names[METHODS] = {"sweep 1 band", "sweep 2 bands", "sweep 4 bands", "sweep 8 bands",
                                            "thesis sector (eq 2.1)"};

typedef struct tally {
    long truth, bound, both, misses; /* point counts */
    double ratio_sum;                /* sum over trials of |truth ∩ bound| / |truth ∪ bound| */
    int trials;
} tally;

typedef struct trial {
    sccd_shape2 shape;
    sccd_motion2 m;
    bool thesis; /* the thesis' sector applies (box, pivot on its y axis) */
    sccd_sector2 sector;
} trial;

static trial thesis_trial(sccd_rng *g)
{
    trial t = {.thesis = true};
    sccd_v2 h = {sccd_rng_uniform(g, 0.0, 12.5), sccd_rng_uniform(g, 0.0, 12.5)};
    sccd_real d = sccd_rng_uniform(g, 12.5, 25.0), alpha = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    t.shape = (sccd_shape2){.type = SCCD_SHAPE_BOX, .box = {{0.0, 0.0}, {1.0, 0.0}, h}};
    sccd_xf2 start = {{0.0, d}, sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI))};
    start.p = sccd_rot2_apply(start.q, start.p); /* pivot at the world origin, box centre on its local +y */
    t.m = (sccd_motion2){start, {0.0, -d}, {0.0, 0.0}, alpha};
    sccd_box2 world = {start.p, start.q, h};
    t.sector = sccd_sector2_thesis(world, (sccd_v2){0.0, 0.0}, alpha);
    return t;
}

static trial general_trial(sccd_rng *g)
{
    trial t = {.thesis = false};
    t.shape = sccd_truth2_random_shape(g, (sccd_shape_type)sccd_rng_int(g, 4), (sccd_v2){0.0, 0.0}, 4.0);
    sccd_v2 centre = sccd_rng_int(g, 3) == 0 ? sccd_truth2_sample_shape(g, &t.shape) : sccd_rng_v2(g, 6.0);
    sccd_xf2 start = {sccd_rng_v2(g, 5.0), sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI))};
    t.m = (sccd_motion2){start, centre, {0.0, 0.0}, sccd_rng_uniform(g, -SCCD_PI, SCCD_PI)};
    return t;
}

/* An engine step: an elongated box or capsule turning about its own centre
 * (Chipmunk and ODE integrate about the centre of mass) by up to 1 rad. */
static trial spin_trial(sccd_rng *g)
{
    trial t = {.thesis = false};
    sccd_real len = sccd_rng_uniform(g, 1.0, 12.5), thick = sccd_rng_uniform(g, 0.1, 2.0);
    if (sccd_rng_int(g, 2))
        t.shape = (sccd_shape2){.type = SCCD_SHAPE_BOX, .box = {{0.0, 0.0}, {1.0, 0.0}, {len, thick}}};
    else
        t.shape = (sccd_shape2){.type = SCCD_SHAPE_CAPSULE, .capsule = {{-len, 0.0}, {len, 0.0}, thick}};
    sccd_xf2 start = {sccd_rng_v2(g, 5.0), sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI))};
    t.m = (sccd_motion2){start, {0.0, 0.0}, {0.0, 0.0}, sccd_rng_uniform(g, -1.0, 1.0)};
    return t;
}

static void build(sccd_sweep2 *w, const trial *t, int bands)
{
    switch (t->shape.type) {
    case SCCD_SHAPE_CIRCLE: sccd_sweep2_circle(w, t->shape.circle, t->m, bands); break;
    case SCCD_SHAPE_CAPSULE: sccd_sweep2_capsule(w, t->shape.capsule, t->m, bands); break;
    case SCCD_SHAPE_BOX: {
        /* sweep2_box takes a box on the body origin and axes: move the body frame onto the box. */
        sccd_xf2 bf = {t->shape.box.c, t->shape.box.q};
        sccd_motion2 m = {sccd_xf2_mul(t->m.start, bf), sccd_xf2_inv_apply(bf, t->m.center), t->m.dp, t->m.dtheta};
        sccd_sweep2_box(w, t->shape.box.h, m, bands);
        break;
    }
    case SCCD_SHAPE_POLY: sccd_sweep2_poly(w, &t->shape.poly, t->m, bands); break;
    }
}

static void run_trial(sccd_rng *g, const trial *t, int points, tally *out)
{
    sccd_sweep2 w[4];
    sccd_aabb2 box = {{0.0, 0.0}, {0.0, 0.0}};
    for (int k = 0; k < 4; ++k) {
        build(&w[k], t, band_counts[k]);
        box = k == 0 ? w[k].aabb : sccd_aabb2_union(box, w[k].aabb);
    }
    long truth = 0, bound[METHODS] = {0}, both[METHODS] = {0};
    for (int i = 0; i < points; ++i) {
        sccd_v2 p = {sccd_rng_uniform(g, box.lo.x, box.hi.x), sccd_rng_uniform(g, box.lo.y, box.hi.y)};
        bool in = sccd_truth2_swept(&t->shape, t->m, p);
        truth += in;
        for (int k = 0; k < METHODS; ++k) {
            if (k == 4 && !t->thesis)
                continue;
            bool b = k < 4 ? sccd_sweep2_vs_point(&w[k], p) : sccd_sector2_vs_point(&t->sector, p);
            bound[k] += b;
            both[k] += b && in;
            out[k].misses += in && !b;
        }
    }
    for (int k = 0; k < METHODS; ++k) {
        if (k == 4 && !t->thesis)
            continue;
        long uni = truth + bound[k] - both[k];
        out[k].truth += truth;
        out[k].bound += bound[k];
        out[k].both += both[k];
        out[k].ratio_sum += uni > 0 ? (double)both[k] / uni : 1.0;
        out[k].trials += 1;
    }
}

static void write_results(FILE *csv, FILE *md, const char *scenario, const tally *t, int methods)
{
    fprintf(md, "\n| %s: method | truly swept / bound area | mean Jaccard per trial | truly swept points missed |\n",
            scenario);
    fprintf(md, "|---|---:|---:|---:|\n");
    for (int k = 0; k < methods; ++k) {
        double area = t[k].bound > 0 ? (double)t[k].both / t[k].bound : 0.0;
        double jac = t[k].trials > 0 ? t[k].ratio_sum / t[k].trials : 0.0;
        double miss = t[k].truth > 0 ? (double)t[k].misses / t[k].truth : 0.0;
        fprintf(csv, "%s,%s,%d,%d,%ld,%ld,%ld,%ld,%.6f,%.6f,%.6f\n", scenario, method_names[k], k < 4 ? band_counts[k] : 0,
                t[k].trials, t[k].truth,
                t[k].bound, t[k].both, t[k].misses, area, jac, miss);
        fprintf(md, "| %s | %.1f %% | %.1f %% | %ld (%.2f %%) |\n", method_names[k], 100.0 * area, 100.0 * jac,
                t[k].misses, 100.0 * miss);
    }
}

int main(int argc, char **argv)
{
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "tightness2d", &quick, &out))
        return 2;
    int trials = quick ? 150 : 2000, points = quick ? 1000 : 4000;
    tally thesis[METHODS] = {{0}}, general[METHODS] = {{0}}, spin[METHODS] = {{0}};
    sccd_rng g = sccd_rng_make(20261121);
    for (int i = 0; i < trials; ++i) {
        trial a = thesis_trial(&g), b = general_trial(&g), c = spin_trial(&g);
        run_trial(&g, &a, points, thesis);
        run_trial(&g, &b, points, general);
        run_trial(&g, &c, points, spin);
    }
    FILE *csv = sccd_bench_open(out, "tightness2d", "csv"), *md = sccd_bench_open(out, "tightness2d", "md");
    if (!csv || !md)
        return 1;
    fprintf(csv, "scenario,method,bands,trials,truth_points,bound_points,both_points,missed_points,area_ratio,"
                 "mean_jaccard,miss_rate\n");
    fprintf(md, "## 2D sweep tightness (`bench/tightness2d.c`)\n\n");
    fprintf(md, "Fraction of each bound's area that the body truly sweeps (pure rotation, exact ground truth by "
                "closed-form arcs), %d trials per scenario, %d uniform points per trial in the AABB of the bounds. "
                "*thesis*: a box (sizes 0–25) turning by 0–2π about a pivot on its local y axis at 12.5–25 "
                "(seed 000 §3.1 in 2D); *general*: boxes, polygons, capsules and circles, centre anywhere (inside "
                "one time in three), turn within ±π; *spin*: an elongated box or capsule (half length 1–12.5, "
                "half thickness 0.1–2) turning by up to 1 rad about its own centre, as an engine step about the "
                "centre of mass. A sweep must miss nothing; the thesis' sector misses the parts of the box off its "
                "mid line.\n",
            trials, points);
    write_results(csv, md, "thesis", thesis, METHODS);
    write_results(csv, md, "general", general, 4);
    write_results(csv, md, "spin", spin, 4);
    fprintf(md, "\n![tightness against bands](img/tightness2d_area.png)\n");
    fclose(csv);
    fclose(md);
    long misses = 0;
    for (int k = 0; k < 4; ++k)
        misses += thesis[k].misses + general[k].misses + spin[k].misses;
    for (int k = 0; k < METHODS; ++k)
        printf("thesis  %-24s area %.4f  misses %ld\n", method_names[k],
               thesis[k].bound ? (double)thesis[k].both / thesis[k].bound : 0.0, thesis[k].misses);
    for (int k = 0; k < 4; ++k)
        printf("general %-24s area %.4f  misses %ld\n", method_names[k],
               general[k].bound ? (double)general[k].both / general[k].bound : 0.0, general[k].misses);
    for (int k = 0; k < 4; ++k)
        printf("spin    %-24s area %.4f  misses %ld\n", method_names[k],
               spin[k].bound ? (double)spin[k].both / spin[k].bound : 0.0, spin[k].misses);
    if (misses > 0) {
        fprintf(stderr, "tightness2d: %ld truly swept points outside a sweep\n", misses);
        return 1;
    }
    return 0;
}
