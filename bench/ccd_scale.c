/* ccd_scale: how the CCD's cost grows with the number of CCD bodies in a big
 * world, in each engine.
 *
 * A rain of ordinary bodies (circles in Chipmunk, spheres in ODE; a grid
 * about 50 rows high in Chipmunk, 12 layers in ODE) falls under gravity and
 * piles up on a thin floor between walls, while small fast-spinning CCD
 * boxes (debris, projectiles) are fired down into it: each is fired again
 * from above once it has come to rest, so the CCD bodies stay fast for the
 * whole run. The timed steps start while the rain falls: every ordinary
 * body then moves farther in a step than the CCD's query margin, the case
 * that made the adapters quadratic (issue 14). Scenes: 10,000 ordinary
 * bodies with 10, 100, 300 and 1,000 CCD bodies, and 1,000 with 100. Each
 * runs with the CCD and without it (the same bodies, none CCD) in the same
 * process; figures are medians of several repetitions of thread CPU time
 * per step. Reported: the step without and with the CCD, their ratio, the
 * CCD's share of the step (its own timer over the step, same run), the CCD
 * time per step and the part of it in the core's impact solver, how each
 * grows from the fewest to the most CCD bodies (the exponent p of
 * time ∝ n^p), and the debris found under the floor (an independent check
 * on the engine's poses).
 *
 * Times on a shared machine wander, so the full run also counts
 * instructions where the targets are: the 1,000 + 100 scene's first
 * three repetitions (all 130 steps) and the 10,000 + 1,000 scene's first
 * (its first 50 steps), without and with CCD, run again under valgrind's
 * callgrind (`ccd_scale --count SCENE CCD REP`, SCENE = engine + 2 × counted
 * scene): the steps' instructions and, of those, the CCD's calls, each
 * figure the median of its repetitions. The big scene's CCD share of the
 * step is told by them: its time share has read 13 % to 29 % for the same
 * code, as Chipmunk's own step took 22 to 72 ms with the machine's load.
 *
 * --quick: smaller scenes, one repetition, no counts; fails when a body goes
 * non-finite, a debris passes the floor with the CCD on, the CCD did no
 * work, or the adapter's own part of the CCD time (the CCD less the
 * core's impact solver, both from the adapter's counters) grows from the
 * fewest to the most CCD bodies by more than 40 % of the square of their
 * ratio (a quadratic cost).
 *
 *   ccd_scale [--quick] [--out DIR]   → DIR/ccd_scale.csv, DIR/ccd_scale.md */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ode/ode.h>

#include "debris_rain.h"
#include "bench_util.h"

enum { MAX_REPS = 5, MAX_SCENES = 5 };

/* ---- the protocol ---- */

typedef struct engine {
    const char *name, *bodies; /* what the ordinary bodies are */
    sccd_rain_run (*run)(sccd_rain, bool, int, int, unsigned);
    const char *step, *ccd[3]; /* the engine's step call (callgrind counts in it) and the CCD's calls */
} engine;

static const engine engines[] = {
    {"chipmunk", "circles", sccd_rain_cp, "cpSpaceStep", {"sccd_cp_phase", NULL, NULL}},
    {"ode", "spheres", sccd_rain_ode, "ode_world_step", {"sccd_ode_before_step", "sccd_ode_after_step", NULL}}};

enum { WARMUP = 10, FULL_STEPS = 120 };
/* The scenes whose instructions are counted, over their first repetitions
 * and steps (ODE's take minutes each under callgrind; the big one's whole
 * run would take twenty). */
static const sccd_rain counted[] = {{1000, 100}, {10000, 1000}};
static const int count_reps[] = {3, 1}, count_steps[] = {FULL_STEPS, 40};
enum { COUNTED = sizeof counted / sizeof counted[0] };

typedef struct result { sccd_rain sc; double off_ms, on_ms, ccd_ms, solve_ms, share; long passes_off, passes_on; } result;

/* Medians of reps runs of scene sc without and with the CCD; *ok falls on a
 * non-finite body, a pass-through with the CCD, or no CCD work. */
static result measure(const engine *e, sccd_rain sc, int warmup, int steps, int reps, FILE *csv, bool *ok)
{
    double off[MAX_REPS], on[MAX_REPS], ccd[MAX_REPS], solve[MAX_REPS], share[MAX_REPS];
    result r = {sc, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < reps; ++k) {
        unsigned seed = 1400u + (unsigned)k;
        sccd_rain_run a = e->run(sc, false, warmup, steps, seed), b = e->run(sc, true, warmup, steps, seed);
        off[k] = a.step_ms;
        on[k] = b.step_ms;
        ccd[k] = b.ccd_ms;
        solve[k] = b.solve_ms;
        share[k] = b.step_ms > 0.0 ? b.ccd_ms / b.step_ms : 0.0;
        r.passes_off += a.passes;
        r.passes_on += b.passes;
        *ok &= a.finite && b.finite && b.passes == 0 && b.tois > 0;
        if (csv != NULL)
            fprintf(csv, "%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.4f,%ld,%ld,%llu\n", e->name, sc.bodies, sc.ccd, k, a.step_ms,
                    b.step_ms, b.ccd_ms, b.solve_ms, share[k], a.passes, b.passes, (unsigned long long)b.tois);
    }
    r.off_ms = sccd_median(off, reps);
    r.on_ms = sccd_median(on, reps);
    r.ccd_ms = sccd_median(ccd, reps);
    r.solve_ms = sccd_median(solve, reps);
    r.share = sccd_median(share, reps);
    printf("ccd_scale %-8s %5d bodies + %4d CCD: %8.2f ms/step without CCD, %8.2f with (x%.2f), CCD %7.2f ms/step "
           "(%.1f %% of the step; solver %.2f ms); debris under the floor %ld without, %ld with\n",
           e->name, sc.bodies, sc.ccd, r.off_ms, r.on_ms, r.on_ms / r.off_ms, r.ccd_ms, 100.0 * r.share, r.solve_ms,
           r.passes_off, r.passes_on);
    fflush(stdout);
    return r;
}

/* The exponent p of a time ∝ n^p between the scenes with the fewest and the
 * most CCD bodies among the first `n` (same ordinary bodies): of the whole
 * CCD, and of the adapter's own part (the CCD less the solver). */
static double growth(double t0, double t1, const result *r, int n) { return log(t1 / t0) / log((double)r[n - 1].sc.ccd / r[0].sc.ccd); }

static double adapter_ms(const result *r) { return r->ccd_ms - r->solve_ms; }

/* Engine e's counted scene k, its first repetitions, under callgrind: the
 * instructions per step without and with CCD, and the CCD's (M; medians)
 * into md; false when callgrind cannot count them. */
static bool count_instructions(const char *self, int e, int k, FILE *md)
{
    sccd_rain sc = counted[k];
    int reps = count_reps[k];
    int steps = WARMUP + count_steps[k];
    sccd_bench_counts c = sccd_bench_count_scene(self, e + 2 * k, engines[e].step, engines[e].ccd, NULL, steps, reps, NULL);
    if (!(c.on > 0.0))
        return false;
    printf("ccd_scale %-8s %d bodies + %d CCD, instructions per step (median of repetitions 1-%d): %.2f M without "
           "CCD, %.2f M with (x%.2f), of which the CCD %.2f M (%.1f %% of the step, %.1f %% over the engine's)\n",
           engines[e].name, sc.bodies, sc.ccd, reps, c.off, c.on, c.on / c.off, c.ccd, 100.0 * c.ccd / c.on,
           100.0 * c.ccd / (c.on - c.ccd));
    if (md != NULL)
        fprintf(md, "\n%s, %d + %d, instructions (valgrind's callgrind, the first %d repetition%s run again over "
                    "their first %d steps, each figure its own median): %.2f M per step without CCD, %.2f M with "
                    "(×%.2f); the CCD's %.2f M, %.1f %% of the step, %.1f %% over the engine's own work in those "
                    "runs.\n",
                engines[e].name, sc.bodies, sc.ccd, reps, reps > 1 ? "s" : "", steps, c.off, c.on,
                c.on / c.off, c.ccd, 100.0 * c.ccd / c.on, 100.0 * c.ccd / (c.on - c.ccd));
    return true;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--count") == 0) { /* one run, under callgrind */
        int scene = atoi(argv[2]), e = scene % 2, k = scene / 2;
        if (scene < 0 || k >= COUNTED)
            return 2;
        if (e == 1)
            dInitODE2(0);
        sccd_rain_run r =
            engines[e].run(counted[k], atoi(argv[3]) != 0, WARMUP, count_steps[k], 1400u + (unsigned)atoi(argv[4]));
        if (e == 1)
            dCloseODE();
        return r.finite ? 0 : 1;
    }
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "ccd_scale", &quick, &out))
        return 2;
    mkdir(out, 0755);
    dInitODE2(0);
    /* The growth series first (same ordinary bodies), then the small world. */
    const sccd_rain full[] = {{10000, 10}, {10000, 100}, {10000, 300}, {10000, 1000}, {1000, 100}};
    const sccd_rain small[] = {{2000, 10}, {2000, 100}, {500, 30}};
    const sccd_rain *scenes = quick ? small : full;
    int nscenes = quick ? 3 : 5, series = nscenes - 1;
    int warmup = WARMUP, steps = quick ? 30 : FULL_STEPS, reps = quick ? 1 : 3;
    FILE *csv = sccd_bench_open(out, "ccd_scale", "csv"), *md = sccd_bench_open(out, "ccd_scale", "md");
    if (csv != NULL)
        fprintf(csv, "engine,bodies,ccd_bodies,rep,step_ms_without,step_ms_with,ccd_ms,solver_ms,ccd_share,"
                     "passes_without,passes_with,tois\n");
    if (md != NULL)
        fprintf(md, "## CCD at scale (ccd_scale)\n\n"
                    "A rain of ordinary bodies falling under gravity and piling up on a thin floor between walls "
                    "(Chipmunk: circles of radius 4–6, 50 rows in an arena 2,200 wide for 10,000 bodies, gravity 400; "
                    "ODE: spheres of radius 4–6 cm, 12 layers over a 2 cm floor 4 m square, dWorldQuickStep with 10 "
                    "iterations in a dHashSpace), with small fast-spinning CCD boxes (debris) fired down into it at "
                    "4–10 of their sizes a step and fired again once at rest. 60 Hz, %d steps timed after %d (the rain "
                    "still falls), median of %d repetition(s) of thread CPU time "
                    "per step; without CCD is the same scene with the debris as ordinary bodies, in the same run. "
                    "CCD: the adapter's own timer (`seconds` of its counters); of which the solver: the part in the "
                    "core's impact solver (`solve_seconds`), the rest is the adapter's gathering and translation. "
                    "CCD share: CCD over the step (its time wanders with the machine's load, the engine's step more "
                    "than the CCD: the instruction counts below give the shares steadily). Growth: the exponent p of "
                    "time ∝ n^p from %d to %d CCD bodies (1 is linear, 2 quadratic). Under the floor: debris found "
                    "below the floor after a step, all "
                    "repetitions (the CCD must find none). Before issue 14 (the issue's own measurement on main, "
                    "before the reach index of e0ee53c; thread CPU time, one run), Chipmunk's rain of 10,000 circles "
                    "took ×4.0 the step without CCD with 100 CCD bodies, ×9.3 with 300 and ×28 with 1,000, the CCD "
                    "96 %% of that step.\n",
                steps, warmup, reps, scenes[0].ccd, scenes[series - 1].ccd);
    bool ok = true;
    for (int e = 0; e < 2; ++e) {
        result r[MAX_SCENES];
        if (md != NULL)
            fprintf(md, "\n| %s: ordinary bodies | CCD bodies | step without CCD (ms) | step with CCD (ms) | ratio | "
                        "CCD (ms/step) | of which the solver | CCD share | under the floor without / with CCD |\n"
                        "|---|---|---|---|---|---|---|---|---|\n",
                    engines[e].name);
        for (int s = 0; s < nscenes; ++s) {
            r[s] = measure(&engines[e], scenes[s], warmup, steps, reps, csv, &ok);
            if (md != NULL)
                fprintf(md, "| %d %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f %% | %ld / %ld |\n",
                        r[s].sc.bodies, engines[e].bodies, r[s].sc.ccd, r[s].off_ms, r[s].on_ms,
                        r[s].on_ms / r[s].off_ms, r[s].ccd_ms, r[s].solve_ms, 100.0 * r[s].share, r[s].passes_off,
                        r[s].passes_on);
        }
        const result *lo = &r[0], *hi = &r[series - 1];
        double n_ratio = (double)hi->sc.ccd / lo->sc.ccd, own = adapter_ms(hi) / adapter_ms(lo);
        double p = growth(lo->ccd_ms, hi->ccd_ms, r, series), p_own = growth(adapter_ms(lo), adapter_ms(hi), r, series);
        printf("ccd_scale %-8s from %d to %d CCD bodies: CCD time x%.1f (exponent %.2f), its adapter part x%.1f "
               "(exponent %.2f)\n", engines[e].name, lo->sc.ccd, hi->sc.ccd, hi->ccd_ms / lo->ccd_ms, p, own, p_own);
        if (md != NULL)
            fprintf(md, "\n%s, from %d to %d CCD bodies: CCD time ×%.1f (growth exponent %.2f); its adapter part (CCD "
                        "less solver) ×%.1f (exponent %.2f).\n",
                    engines[e].name, lo->sc.ccd, hi->sc.ccd, hi->ccd_ms / lo->ccd_ms, p, own, p_own);
        /* The adapters' gathering must not be quadratic; the solver's own growth is reported. */
        ok &= own < 0.4 * n_ratio * n_ratio;
        for (int k = 0; !quick && k < COUNTED; ++k)
            if (!count_instructions(argv[0], e, k, md))
                printf("ccd_scale %-8s %d + %d: no instruction counts (valgrind's callgrind missing or failed)\n",
                       engines[e].name, counted[k].bodies, counted[k].ccd);
    }
    if (md != NULL)
        fprintf(md, "\n");
    if (csv != NULL)
        fclose(csv);
    if (md != NULL)
        fclose(md);
    dCloseODE();
    if (!ok)
        fprintf(stderr, "ccd_scale: FAILED (a non-finite body, debris under the floor with CCD, no CCD work, or "
                        "the adapter's CCD time growing quadratically)\n");
    return ok ? 0 : 1;
}
