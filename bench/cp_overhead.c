/* cp_overhead: what the Chipmunk CCD adapter costs in a busy scene.
 *
 * 1,000 ordinary dynamic bodies (circles, boxes, rounded segments) rain into
 * an arena with 10 CCD swords spinning on motorised hinges, in two layouts:
 * "above" — the swords spin above the floor, bat the rain as it falls
 * through and then spin free over the pile; "buried" — the swords sit low
 * and end up buried in the pile, in contact nearly every step (the worst
 * case for the CCD). Each runs without CCD (baseline) and with it, several
 * repetitions, each a different rain (every body's start nudged by up to 2
 * units, seeded by the repetition: a pile is chaotic, and one rain's cost
 * swings with any change of rounding); figures are medians of
 * thread CPU time (the machine may be shared) and of TOIs. Reported: step time without and with CCD, their ratio, and the
 * CCD's own share of the step (its timer over the step time, same run).
 * What the CCD does to the swords, judged on their poses: their mean spin
 * over the last two thirds of the steps without and with it, and in the
 * same rain without it sub-stepped 16 and 32 times a step (the physics'
 * answer: a sword's tip moves under 2 units a sub-step, less than half
 * the thinnest body it meets).
 * Times on a shared machine wander by a third between runs, so the full run
 * also counts instructions (valgrind's callgrind, scripts/deps.sh --bench):
 * every rain of each layout without and with CCD, run again under callgrind
 * (`cp_overhead --count LAYOUT CCD REP`, in parallel), their steps and, of
 * those, the CCD's (its phase, sccd_cp_phase), each figure the median of the
 * rains (SCCD_BENCH_COUNT_REPS of them). --quick: fewer steps, one repetition, no counts; fails when the
 * swords get no CCD work or a body goes non-finite.
 *
 *   cp_overhead [--quick] [--out DIR]   → DIR/cp_overhead.csv, DIR/cp_overhead.md */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sectorccd_chipmunk.h"
#include "cp_support.h"
#include "timing.h"
#include "bench_util.h"
#include "test_util.h"

#define BODIES 1000
#define SWORDS 10

/* One run of a scene: its step time, the CCD's share and counters, whether
 * every body stayed finite, the bodies out of the arena, and the swords'
 * mean spin over the last two thirds of the steps (rad/s, from their poses:
 * how far each turned in a step), where the buried swords have settled in
 * the pile. */
typedef struct run { double step_us, ccd_share; sccd_cp_counters k; bool finite; int out; double spin; } run;

/* Steps a sword's spin is averaged over: the last two thirds of the run. */
static bool spin_counted(int step, int steps) { return 3 * step >= steps; }

/* Every body finite; a dynamic one out of the arena (below its floor or
 * past a wall, where it can only have gone through or over them) counted. */
static void check_body(cpBody *b, void *d)
{
    run *r = d;
    cpVect p = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
    r->finite &= sccd_is_valid_real(p.x + p.y + v.x + v.y + cpBodyGetAngle(b));
    r->out += cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC && (p.y < -2.0 || fabs(p.x) > 1002.0);
}

/* A run of `steps` steps of 1/60 s, each taken as `substeps` steps of
 * Chipmunk's (the reference the CCD's swords are held to: the same scene
 * sub-stepped without it). */
static run run_scene(bool ccd, int steps, int substeps, double sword_y, unsigned seed)
{
    sccd_rng g = sccd_rng_make(seed);
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -400));
    cpSpaceSetIterations(space, 10);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(-1000, 0), cpv(1000, 0), 2));
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(-1000, 0), cpv(-1000, 2000), 2));
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(1000, 0), cpv(1000, 2000), 2));
    sccd_cp_world *w = ccd ? sccd_cp_attach(space) : NULL;
    cpBody *swords[SWORDS];
    for (int i = 0; i < SWORDS; ++i) {
        cpVect pivot = cpv(-900 + 200 * i, sword_y);
        cpBody *b = cpSpaceAddBody(space, cpBodyNew(2.0, cpMomentForSegment(2.0, cpv(-60, 0), cpv(60, 0), 2)));
        cpBodySetPosition(b, pivot);
        cpBodySetAngularVelocity(b, 30.0);
        cpSpaceAddShape(space, cpSegmentShapeNew(b, cpv(-60, 0), cpv(60, 0), 2));
        swords[i] = b;
        cpSpaceAddConstraint(space, cpPivotJointNew(ground, b, pivot));
        cpConstraint *motor = cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, b, -30.0));
        cpConstraintSetMaxForce(motor, 1e6);
        if (w != NULL) {
            sccd_cp_body_enable(w, b);
            sccd_cp_body_set_pivot(w, b, cpvzero);
        }
    }
    for (int i = 0; i < BODIES; ++i) {
        cpBody *b = cpSpaceAddBody(space, cpBodyNew(1.0, 40.0));
        cpBodySetPosition(b, cpv(-950 + 19 * (i % 100) + sccd_rng_uniform(&g, -2.0, 2.0),
                                 300 + 22 * (i / 100) + sccd_rng_uniform(&g, -2.0, 2.0)));
        cpShape *s = i % 3 == 0 ? cpCircleShapeNew(b, 6, cpvzero)
                   : i % 3 == 1 ? cpBoxShapeNew(b, 11, 11, 0.5)
                                : cpSegmentShapeNew(b, cpv(-5, 0), cpv(5, 0), 3);
        cpShapeSetFriction(s, 0.5);
        cpSpaceAddShape(space, s);
    }
    double total = 0.0, turned = 0.0;
    int counted = 0;
    for (int s = 0; s < steps; ++s) {
        double before[SWORDS];
        for (int i = 0; i < SWORDS; ++i)
            before[i] = cpBodyGetAngle(swords[i]);
        double t0 = sccd_cpu_seconds();
        for (int k = 0; k < substeps; ++k)
            cpSpaceStep(space, 1.0 / 60.0 / substeps);
        total += sccd_cpu_seconds() - t0;
        for (int i = 0; i < SWORDS && spin_counted(s, steps); ++i, ++counted)
            turned += fabs(cpBodyGetAngle(swords[i]) - before[i]);
    }
    run r = {1e6 * total / steps, 0.0, sccd_cp_get_counters(w), true, 0, counted > 0 ? 60.0 * turned / counted : 0.0};
    r.ccd_share = total > 0.0 ? r.k.seconds / total : 0.0;
    cpSpaceEachBody(space, check_body, &r);
    sccd_cp_detach(w);
    sccd_cp_space_free_all(space);
    return r;
}

typedef struct layout { const char *name; double sword_y; } layout;

static const layout layouts[] = {{"above", 400.0}, {"buried", 120.0}};

/* The reference runs' sub-steps a step: two, to show the spin converged. */
static const int reference_substeps[2] = {16, 32};

enum { FULL_STEPS = 600 };

/* The CCD's calls, for the instruction counts. */
static const char *const ccd_calls[] = {"sccd_cp_phase", NULL};

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--count") == 0) { /* one rain, under callgrind */
        int l = atoi(argv[2]) != 0;
        return run_scene(atoi(argv[3]) != 0, FULL_STEPS, 1, layouts[l].sword_y, 1u + (unsigned)atoi(argv[4])).finite ? 0 : 1;
    }
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "cp_overhead", &quick, &out))
        return 2;
    int reps = quick ? 1 : SCCD_BENCH_COUNT_REPS, steps = quick ? 120 : FULL_STEPS;
    bool ok = true;
    char path[512];
    snprintf(path, sizeof path, "%s/cp_overhead.csv", out);
    FILE *csv = fopen(path, "w");
    snprintf(path, sizeof path, "%s/cp_overhead.md", out);
    FILE *md = fopen(path, "w");
    if (csv != NULL)
        fprintf(csv, "layout,rep,step_us_without,step_us_with,ccd_share,candidates,tois,clamps,minstr_without,minstr_with,minstr_ccd,"
                     "spin_without,spin_with,spin_sub_a,spin_sub_b\n");
    if (md != NULL)
        fprintf(md, "## Chipmunk CCD overhead (cp_overhead)\n\n"
                    "%d ordinary dynamic bodies raining into an arena with %d CCD swords spinning at 30 rad/s on "
                    "motorised hinges, 60 Hz, %d steps, median of %d repetitions, each a different rain (every body's start "
                    "nudged by up to 2 units: a pile is chaotic, and one rain's cost swings with any change of rounding), "
                    "thread CPU time; TOIs per step are the median repetition's too. *above*: the "
                    "swords bat the rain, then spin over the pile; *buried*: the swords end up inside the pile, "
                    "in contact nearly every step. Instructions (valgrind's callgrind, millions per step): the "
                    "same %d rains run again under callgrind without and with CCD, each figure "
                    "its own median (one pile's count swings by a quarter with its rain); *CCD over "
                    "Chipmunk*: the CCD's instructions over the rest of the step's (Chipmunk's own work in those "
                    "runs) — steady where the times wander (by a third between runs on this machine). *Out of the "
                    "arena*: bodies below its floor or past its walls after the last step (through them, or flown "
                    "over the walls), without / with CCD, medians of the repetitions: a pose check on the engine; "
                    "the CCD follows what its impacts send flying, the rest is the pile's own (rain Chipmunk's "
                    "discrete contacts let through the 4-unit floor). *Sword spin*: how fast the swords turn over the "
                    "last two thirds of the steps (rad/s, from their poses, medians of the repetitions), without / with "
                    "CCD; without it they cut through what they meet. *Sub-stepped*: the same rain without CCD, each step "
                    "taken as %d and as %d steps of Chipmunk's (a sword's tip then moves under 2 units a sub-step at 30 rad/s; "
                    "the sword is 4 thick, the pile's bodies 6 to 12): how fast the physics says a sword turns in the pile. "
                    "Where the CCD's swords turn slower, its fallback held them (a body a sword pressed met it again in the "
                    "step: the two stop dead).\n\n"
                    "| layout | step without CCD (µs) | step with CCD (µs) | ratio | CCD share of the step | TOIs/step "
                    "| instructions/step without / with CCD (M) | ratio | CCD's (M) | CCD over Chipmunk | out of the arena "
                    "| sword spin without / with CCD (rad/s) | sub-stepped %d× / %d× (rad/s) |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
                BODIES, SWORDS, steps, reps, SCCD_BENCH_COUNT_REPS, reference_substeps[0], reference_substeps[1],
                reference_substeps[0], reference_substeps[1]);
    for (int l = 0; l < 2; ++l) {
        double off[SCCD_BENCH_COUNT_REPS], on[SCCD_BENCH_COUNT_REPS], share[SCCD_BENCH_COUNT_REPS], tois[SCCD_BENCH_COUNT_REPS],
            stops[SCCD_BENCH_COUNT_REPS], out_off[SCCD_BENCH_COUNT_REPS], out_on[SCCD_BENCH_COUNT_REPS];
        double spin_off[SCCD_BENCH_COUNT_REPS], spin_on[SCCD_BENCH_COUNT_REPS], spin_ref[2][SCCD_BENCH_COUNT_REPS];
        sccd_bench_counts c = {0.0, 0.0, 0.0}, each[SCCD_BENCH_COUNT_REPS] = {{0.0, 0.0, 0.0}};
        if (!quick)
            c = sccd_bench_count_scene(argv[0], l, "cpSpaceStep", ccd_calls, NULL, FULL_STEPS, SCCD_BENCH_COUNT_REPS, each);
        for (int r = 0; r < reps; ++r) {
            unsigned seed = 1u + (unsigned)r; /* both runs of a repetition: the same rain */
            run a = run_scene(false, steps, 1, layouts[l].sword_y, seed), b = run_scene(true, steps, 1, layouts[l].sword_y, seed);
            for (int k = 0; k < 2; ++k)
                spin_ref[k][r] = run_scene(false, steps, reference_substeps[k], layouts[l].sword_y, seed).spin;
            spin_off[r] = a.spin;
            spin_on[r] = b.spin;
            off[r] = a.step_us;
            on[r] = b.step_us;
            share[r] = b.ccd_share;
            tois[r] = (double)b.k.tois / steps;
            stops[r] = (double)b.k.clamps;
            out_off[r] = a.out;
            out_on[r] = b.out;
            ok &= a.finite && b.finite && b.k.tois > 0;
            sccd_bench_counts n = each[r];
            if (csv != NULL) /* each rain's counts on its row */
                fprintf(csv, "%s,%d,%.2f,%.2f,%.4f,%llu,%llu,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", layouts[l].name, r, a.step_us,
                        b.step_us, b.ccd_share, (unsigned long long)b.k.candidates, (unsigned long long)b.k.tois,
                        (unsigned long long)b.k.clamps, n.off, n.on, n.ccd, a.spin, b.spin,
                        spin_ref[0][r], spin_ref[1][r]);
        }
        double m_off = sccd_median(off, reps), m_on = sccd_median(on, reps), m_share = sccd_median(share, reps);
        double m_tois = sccd_median(tois, reps), m_stops = sccd_median(stops, reps);
        double m_out_off = sccd_median(out_off, reps), m_out_on = sccd_median(out_on, reps);
        double m_spin_off = sccd_median(spin_off, reps), m_spin_on = sccd_median(spin_on, reps);
        double m_spin_a = sccd_median(spin_ref[0], reps), m_spin_b = sccd_median(spin_ref[1], reps);
        printf("cp_overhead %-6s: the swords' mean spin over the last two thirds of the steps %.1f rad/s without CCD, %.1f with, "
               "%.1f / %.1f sub-stepped %dx / %dx without (medians)\n",
               layouts[l].name, m_spin_off, m_spin_on, m_spin_a, m_spin_b, reference_substeps[0], reference_substeps[1]);
        printf("cp_overhead %-6s: %d bodies + %d CCD swords, %d steps x %d reps: %.1f us/step without CCD, %.1f with "
               "(x%.2f); CCD share of the step %.1f %%; %.1f TOIs/step, %.0f stops; out of the arena %.0f without CCD, %.0f with "
               "(medians)\n",
               layouts[l].name, BODIES, SWORDS, steps, reps, m_off, m_on, m_on / m_off, 100.0 * m_share, m_tois,
               m_stops, m_out_off, m_out_on);
        if (c.on > 0.0)
            printf("cp_overhead %-6s: instructions per step (median of rains 1-%d) %.2f M without CCD, %.2f M with (x%.2f), of "
                   "which the CCD %.2f M (%.1f %% over Chipmunk's)\n", layouts[l].name, SCCD_BENCH_COUNT_REPS, c.off, c.on, c.on / c.off, c.ccd,
                   100.0 * c.ccd / (c.on - c.ccd));
        char m1[32], m2[32], m3[32], ratio[32] = "—", over[32] = "—";
        if (c.on > 0.0) {
            snprintf(ratio, sizeof ratio, "%.2f", c.on / c.off);
            snprintf(over, sizeof over, "%.1f %%", 100.0 * c.ccd / (c.on - c.ccd));
        }
        if (md != NULL)
            fprintf(md, "| %s | %.1f | %.1f | %.2f | %.1f %% | %.1f | %s / %s | %s | %s | %s | %.0f / %.0f | %.1f / %.1f "
                        "| %.1f / %.1f |\n",
                    layouts[l].name, m_off, m_on, m_on / m_off, 100.0 * m_share, m_tois, sccd_bench_mega(m1, sizeof m1, c.off),
                    sccd_bench_mega(m2, sizeof m2, c.on), ratio, sccd_bench_mega(m3, sizeof m3, c.ccd), over, m_out_off, m_out_on,
                    m_spin_off, m_spin_on, m_spin_a, m_spin_b);
    }
    if (csv != NULL)
        fclose(csv);
    if (md != NULL)
        fclose(md);
    if (!ok)
        fprintf(stderr, "cp_overhead: FAILED (no CCD work or a non-finite body)\n");
    return ok ? 0 : 1;
}
