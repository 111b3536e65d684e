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
 * --quick: smaller scenes, one repetition; fails when a body goes
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

#include "sectorccd_chipmunk.h"
#include "cp_support.h"
#include "ode_scenes.h"
#include "bench_util.h"
#include "test_util.h"
#include "timing.h"

enum { MAX_REPS = 5, MAX_SCENES = 5 };

/* One run of a scene: per step, thread CPU time of the whole step and of
 * the CCD; debris found under the floor; whether every body stayed finite. */
typedef struct run { double step_ms, ccd_ms, solve_ms; long passes; uint64_t tois; bool finite; } run;

typedef struct scene { int bodies, ccd; } scene;

/* ---- Chipmunk: circles of radius 4–6 in an arena 2,200 wide, gravity 400 ---- */

#define CP_HALF_WIDTH 1100.0
#define CP_DEBRIS 4.0 /* the debris' side; the floor is 2 thick */

static void cp_fire(cpBody *b, sccd_rng *g, double half_width)
{
    cpBodySetPosition(b, cpv(sccd_rng_uniform(g, -half_width, half_width), sccd_rng_uniform(g, 800.0, 1100.0)));
    cpBodySetVelocity(b, cpv(sccd_rng_uniform(g, -300.0, 300.0), -sccd_rng_uniform(g, 900.0, 1500.0)));
    cpBodySetAngle(b, sccd_rng_uniform(g, 0.0, 6.28));
    cpBodySetAngularVelocity(b, sccd_rng_uniform(g, -80.0, 80.0));
}

static void cp_check_finite(cpBody *b, void *d)
{
    bool *ok = d;
    cpVect p = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
    *ok &= sccd_is_valid_real(p.x + p.y + v.x + v.y + cpBodyGetAngle(b));
}

static run cp_run(scene sc, bool ccd, int warmup, int steps, unsigned seed)
{
    double half = CP_HALF_WIDTH * sqrt(sc.bodies / 10000.0);
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -400));
    cpSpaceSetIterations(space, 10);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(-half, 0), cpv(half, 0), 1.0));
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(-half, 0), cpv(-half, 3000), 1.0));
    cpSpaceAddShape(space, cpSegmentShapeNew(ground, cpv(half, 0), cpv(half, 3000), 1.0));
    sccd_cp_world *w = ccd ? sccd_cp_attach(space) : NULL;
    sccd_rng g = sccd_rng_make(seed);
    int columns = (int)(2.0 * half / 11.0) - 1;
    for (int i = 0; i < sc.bodies; ++i) {
        double r = sccd_rng_uniform(&g, 4.0, 6.0);
        cpBody *b = cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0.0, r, cpvzero)));
        cpBodySetPosition(b, cpv(-half + 11.0 * (1 + i % columns), 10.0 + 12.0 * (i / columns)));
        cpShapeSetFriction(cpSpaceAddShape(space, cpCircleShapeNew(b, r, cpvzero)), 0.5);
    }
    cpBody **debris = malloc((size_t)sc.ccd * sizeof *debris);
    for (int i = 0; i < sc.ccd; ++i) {
        debris[i] = cpSpaceAddBody(space, cpBodyNew(0.5, cpMomentForBox(0.5, CP_DEBRIS, CP_DEBRIS)));
        cpShapeSetFriction(cpSpaceAddShape(space, cpBoxShapeNew(debris[i], CP_DEBRIS, CP_DEBRIS, 0.0)), 0.5);
        cp_fire(debris[i], &g, half);
        if (w != NULL)
            sccd_cp_body_enable(w, debris[i]);
    }
    run out = {0.0, 0.0, 0.0, 0, 0, true};
    double total = 0.0;
    for (int s = 0; s < warmup + steps; ++s) {
        if (s == warmup) {
            total = 0.0;
            if (w != NULL)
                sccd_cp_reset_counters(w);
        }
        double t0 = sccd_cpu_seconds();
        cpSpaceStep(space, 1.0 / 60.0);
        total += sccd_cpu_seconds() - t0;
        for (int i = 0; i < sc.ccd; ++i) { /* under the floor: passed; at rest: fired again */
            cpVect p = cpBodyGetPosition(debris[i]);
            bool under = p.y < -1.0 && fabs(p.x) < half;
            out.passes += under;
            if (under || cpvlength(cpBodyGetVelocity(debris[i])) < 60.0 || p.y < -100.0)
                cp_fire(debris[i], &g, half);
        }
    }
    sccd_cp_counters k = sccd_cp_get_counters(w);
    out.step_ms = 1e3 * total / steps;
    out.ccd_ms = 1e3 * k.seconds / steps;
    out.solve_ms = 1e3 * k.solve_seconds / steps;
    out.tois = k.tois;
    cpSpaceEachBody(space, cp_check_finite, &out.finite);
    free(debris);
    sccd_cp_detach(w);
    sccd_cp_space_free_all(space);
    return out;
}

/* ---- ODE: spheres of radius 0.04–0.06 m on a 2 cm floor 4 m square, walls around ---- */

#define ODE_HALF_WIDTH 2.0
#define ODE_FLOOR 0.02
#define ODE_DEBRIS 0.04

static void ode_fire(dBodyID b, sccd_rng *g, double half)
{
    dBodySetPosition(b, sccd_rng_uniform(g, -half, half), sccd_rng_uniform(g, 2.0, 3.0), sccd_rng_uniform(g, -half, half));
    dBodySetLinearVel(b, sccd_rng_uniform(g, -2.0, 2.0), -sccd_rng_uniform(g, 15.0, 25.0), sccd_rng_uniform(g, -2.0, 2.0));
    sccd_v3 axis = sccd_rng_unit3(g);
    double spin = sccd_rng_uniform(g, 40.0, 80.0);
    dBodySetAngularVel(b, spin * axis.x, spin * axis.y, spin * axis.z);
}

static void ode_static_box(dSpaceID space, double x, double y, double z, double lx, double ly, double lz)
{
    dGeomSetPosition(dCreateBox(space, lx, ly, lz), x, y, z);
}

static bool ode_finite(dBodyID b)
{
    const dReal *p = dBodyGetPosition(b), *v = dBodyGetLinearVel(b);
    return isfinite(p[0] + p[1] + p[2] + v[0] + v[1] + v[2]);
}

static run ode_run(scene sc, bool ccd, int warmup, int steps, unsigned seed)
{
    double half = ODE_HALF_WIDTH * sqrt(sc.bodies / 10000.0), wall = 1.0;
    ode_world w;
    ode_world_init(&w, ccd ? ODE_CCD_SECTOR : ODE_CCD_OFF, 1, -9.81);
    w.quick = true;
    dWorldSetQuickStepNumIterations(w.world, 10);
    ode_static_box(w.space, 0.0, -0.5 * ODE_FLOOR, 0.0, 2.0 * half + 0.2, ODE_FLOOR, 2.0 * half + 0.2);
    ode_static_box(w.space, -half - 0.05, 0.5 * wall, 0.0, 0.1, wall, 2.0 * half);
    ode_static_box(w.space, half + 0.05, 0.5 * wall, 0.0, 0.1, wall, 2.0 * half);
    ode_static_box(w.space, 0.0, 0.5 * wall, -half - 0.05, 2.0 * half, wall, 0.1);
    ode_static_box(w.space, 0.0, 0.5 * wall, half + 0.05, 2.0 * half, wall, 0.1);
    sccd_rng g = sccd_rng_make(seed);
    int side = (int)(2.0 * half / 0.13);
    dBodyID *all = malloc((size_t)(sc.bodies + sc.ccd) * sizeof *all);
    for (int i = 0; i < sc.bodies; ++i) {
        double r = sccd_rng_uniform(&g, 0.04, 0.06);
        dBodyID b = all[i] = dBodyCreate(w.world);
        dMass m;
        dMassSetSphereTotal(&m, 1.0, r);
        dBodySetMass(b, &m);
        dGeomSetBody(dCreateSphere(w.space, r), b);
        int layer = i / (side * side), cell = i % (side * side);
        dBodySetPosition(b, -half + 0.13 * (0.5 + cell % side), 0.1 + 0.13 * layer, -half + 0.13 * (0.5 + cell / side));
    }
    dBodyID *debris = all + sc.bodies;
    for (int i = 0; i < sc.ccd; ++i) {
        dBodyID b = debris[i] = dBodyCreate(w.world);
        dMass m;
        dMassSetBoxTotal(&m, 0.05, ODE_DEBRIS, ODE_DEBRIS, ODE_DEBRIS);
        dBodySetMass(b, &m);
        dGeomSetBody(dCreateBox(w.space, ODE_DEBRIS, ODE_DEBRIS, ODE_DEBRIS), b);
        ode_fire(b, &g, half);
        ode_world_ccd_body(&w, b, 0.0, 0.0, 0.0);
    }
    run out = {0.0, 0.0, 0.0, 0, 0, true};
    for (int s = 0; s < warmup + steps; ++s) {
        if (s == warmup) {
            w.step_seconds = 0.0;
            if (w.ccd != NULL)
                sccd_ode_reset_counters(w.ccd);
        }
        ode_world_step(&w);
        for (int i = 0; i < sc.ccd; ++i) { /* under the floor: passed; at rest: fired again */
            const dReal *p = dBodyGetPosition(debris[i]), *v = dBodyGetLinearVel(debris[i]);
            bool under = p[1] < -ODE_FLOOR && fabs(p[0]) < half && fabs(p[2]) < half;
            out.passes += under;
            if (under || sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) < 0.5 || p[1] < -1.0)
                ode_fire(debris[i], &g, half);
        }
    }
    sccd_ode_counters k = sccd_ode_get_counters(w.ccd);
    out.step_ms = 1e3 * w.step_seconds / steps;
    out.ccd_ms = 1e3 * k.seconds / steps;
    out.solve_ms = 1e3 * k.solve_seconds / steps;
    out.tois = k.tois;
    for (int i = 0; i < sc.bodies + sc.ccd; ++i)
        out.finite &= ode_finite(all[i]);
    free(all);
    ode_world_free(&w);
    return out;
}

/* ---- the protocol ---- */

typedef struct engine {
    const char *name, *bodies; /* what the ordinary bodies are */
    run (*run)(scene, bool, int, int, unsigned);
} engine;

typedef struct result { scene sc; double off_ms, on_ms, ccd_ms, solve_ms, share; long passes_off, passes_on; } result;

/* Medians of reps runs of scene sc without and with the CCD; *ok falls on a
 * non-finite body, a pass-through with the CCD, or no CCD work. */
static result measure(const engine *e, scene sc, int warmup, int steps, int reps, FILE *csv, bool *ok)
{
    double off[MAX_REPS], on[MAX_REPS], ccd[MAX_REPS], solve[MAX_REPS], share[MAX_REPS];
    result r = {sc, 0, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < reps; ++k) {
        unsigned seed = 1400u + (unsigned)k;
        run a = e->run(sc, false, warmup, steps, seed), b = e->run(sc, true, warmup, steps, seed);
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

int main(int argc, char **argv)
{
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "ccd_scale", &quick, &out))
        return 2;
    mkdir(out, 0755);
    dInitODE2(0);
    const engine engines[] = {{"chipmunk", "circles", cp_run}, {"ode", "spheres", ode_run}};
    /* The growth series first (same ordinary bodies), then the small world. */
    const scene full[] = {{10000, 10}, {10000, 100}, {10000, 300}, {10000, 1000}, {1000, 100}};
    const scene small[] = {{2000, 10}, {2000, 100}, {500, 30}};
    const scene *scenes = quick ? small : full;
    int nscenes = quick ? 3 : 5, series = nscenes - 1;
    int warmup = 10, steps = quick ? 30 : 120, reps = quick ? 1 : 3;
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
                    "CCD share: CCD over the step. Growth: the exponent p of time ∝ n^p from %d to %d CCD bodies (1 "
                    "is linear, 2 quadratic). Under the floor: debris found below the floor after a step, all "
                    "repetitions (the CCD must find none).\n",
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
