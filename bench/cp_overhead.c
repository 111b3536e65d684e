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

typedef struct run { double step_us, ccd_share; sccd_cp_counters k; bool finite; int out; } run;

/* Every body finite; a dynamic one out of the arena (below its floor or
 * past a wall, where it can only have gone through or over them) counted. */
static void check_body(cpBody *b, void *d)
{
    run *r = d;
    cpVect p = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
    r->finite &= sccd_is_valid_real(p.x + p.y + v.x + v.y + cpBodyGetAngle(b));
    r->out += cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC && (p.y < -2.0 || fabs(p.x) > 1002.0);
}

static run run_scene(bool ccd, int steps, double sword_y, unsigned seed)
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
    for (int i = 0; i < SWORDS; ++i) {
        cpVect pivot = cpv(-900 + 200 * i, sword_y);
        cpBody *b = cpSpaceAddBody(space, cpBodyNew(2.0, cpMomentForSegment(2.0, cpv(-60, 0), cpv(60, 0), 2)));
        cpBodySetPosition(b, pivot);
        cpBodySetAngularVelocity(b, 30.0);
        cpSpaceAddShape(space, cpSegmentShapeNew(b, cpv(-60, 0), cpv(60, 0), 2));
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
    double total = 0.0;
    for (int s = 0; s < steps; ++s) {
        double t0 = sccd_cpu_seconds();
        cpSpaceStep(space, 1.0 / 60.0);
        total += sccd_cpu_seconds() - t0;
    }
    run r = {1e6 * total / steps, 0.0, sccd_cp_get_counters(w), true, 0};
    r.ccd_share = total > 0.0 ? r.k.seconds / total : 0.0;
    cpSpaceEachBody(space, check_body, &r);
    sccd_cp_detach(w);
    sccd_cp_space_free_all(space);
    return r;
}

typedef struct layout { const char *name; double sword_y; } layout;

static const layout layouts[] = {{"above", 400.0}, {"buried", 120.0}};

enum { FULL_STEPS = 600 };

/* The CCD's calls, for the instruction counts. */
static const char *const ccd_calls[] = {"sccd_cp_phase", NULL};

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--count") == 0) { /* one rain, under callgrind */
        int l = atoi(argv[2]) != 0;
        return run_scene(atoi(argv[3]) != 0, FULL_STEPS, layouts[l].sword_y, 1u + (unsigned)atoi(argv[4])).finite ? 0 : 1;
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
        fprintf(csv, "layout,rep,step_us_without,step_us_with,ccd_share,candidates,tois,clamps,minstr_without,minstr_with,minstr_ccd\n");
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
                    "discrete contacts let through the 4-unit floor).\n\n"
                    "| layout | step without CCD (µs) | step with CCD (µs) | ratio | CCD share of the step | TOIs/step "
                    "| instructions/step without / with CCD (M) | ratio | CCD's (M) | CCD over Chipmunk | out of the arena |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|\n",
                BODIES, SWORDS, steps, reps, SCCD_BENCH_COUNT_REPS);
    for (int l = 0; l < 2; ++l) {
        double off[SCCD_BENCH_COUNT_REPS], on[SCCD_BENCH_COUNT_REPS], share[SCCD_BENCH_COUNT_REPS], tois[SCCD_BENCH_COUNT_REPS],
            stops[SCCD_BENCH_COUNT_REPS], out_off[SCCD_BENCH_COUNT_REPS], out_on[SCCD_BENCH_COUNT_REPS];
        sccd_bench_counts c = {0.0, 0.0, 0.0}, each[SCCD_BENCH_COUNT_REPS] = {{0.0, 0.0, 0.0}};
        if (!quick)
            c = sccd_bench_count_scene(argv[0], l, "cpSpaceStep", ccd_calls, NULL, FULL_STEPS, SCCD_BENCH_COUNT_REPS, each);
        for (int r = 0; r < reps; ++r) {
            unsigned seed = 1u + (unsigned)r; /* both runs of a repetition: the same rain */
            run a = run_scene(false, steps, layouts[l].sword_y, seed), b = run_scene(true, steps, layouts[l].sword_y, seed);
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
                fprintf(csv, "%s,%d,%.2f,%.2f,%.4f,%llu,%llu,%llu,%.3f,%.3f,%.3f\n", layouts[l].name, r, a.step_us, b.step_us,
                        b.ccd_share, (unsigned long long)b.k.candidates, (unsigned long long)b.k.tois,
                        (unsigned long long)b.k.clamps, n.off, n.on, n.ccd);
        }
        double m_off = sccd_median(off, reps), m_on = sccd_median(on, reps), m_share = sccd_median(share, reps);
        double m_tois = sccd_median(tois, reps), m_stops = sccd_median(stops, reps);
        double m_out_off = sccd_median(out_off, reps), m_out_on = sccd_median(out_on, reps);
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
            fprintf(md, "| %s | %.1f | %.1f | %.2f | %.1f %% | %.1f | %s / %s | %s | %s | %s | %.0f / %.0f |\n", layouts[l].name, m_off,
                    m_on, m_on / m_off, 100.0 * m_share, m_tois, sccd_bench_mega(m1, sizeof m1, c.off), sccd_bench_mega(m2, sizeof m2, c.on),
                    ratio, sccd_bench_mega(m3, sizeof m3, c.ccd), over, m_out_off, m_out_on);
    }
    if (csv != NULL)
        fclose(csv);
    if (md != NULL)
        fclose(md);
    if (!ok)
        fprintf(stderr, "cp_overhead: FAILED (no CCD work or a non-finite body)\n");
    return ok ? 0 : 1;
}
