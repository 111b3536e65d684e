/* ode_overhead: what sectorccd costs an ODE world — 1,000 ordinary bodies
 * (boxes, spheres, capsules) falling on a plane and piling up, plus 10 CCD
 * bodies (5 kinematic rotors at 80 rad/s and 5 blades on hinge motors at
 * 60 rad/s sweeping through them), stepped by dWorldQuickStep at 60 Hz in a
 * dHashSpace. The same scene runs without CCD as the baseline, in the same
 * process; each figure is the median of several repetitions.
 *
 *   ode_overhead [--quick] [--out DIR]
 *
 * Writes DIR/ode_overhead.csv and DIR/ode_overhead.md. Times on a shared
 * machine wander, so the full run also counts instructions (valgrind's
 * callgrind, scripts/deps.sh --bench): the first SCCD_BENCH_COUNT_REPS
 * repetitions of each scene without and with CCD, run again under callgrind
 * (`ode_overhead --count SCENE CCD REP`, in parallel), their timed steps
 * and, of those, the CCD's calls, each figure their median. What the CCD
 * does to the blades, judged on their poses: their mean spin over the timed
 * steps (from their hinge angles, as ODE turns them: ode_overhead_timed_steps)
 * without and with it, and, in the full
 * run, in the first REF_REPS rains without it sub-stepped 16 and 32 times a
 * step (the physics' answer: a blade's tip then moves under 4 cm a
 * sub-step, less than the bodies' least half size). --quick: fewer steps and
 * repetitions, no counts, no sub-stepped runs; checks that nothing went
 * NaN, that the CCD reported no error and did work, and exits non-zero
 * otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ode_scenes.h"
#include "bench_util.h"
#include "test_util.h"

enum { BODIES = 1000, ROTORS = 5, BLADES = 5, MAX_REPS = 9, REF_REPS = 3 };

/* One run: its step time, the CCD's share and counters, whether every body
 * stayed finite, and the blades' mean spin over the timed steps (rad/s). */
typedef struct run { double us_per_step, ccd_share; sccd_ode_counters ccd; bool finite; double spin; } run;

static void add_crowd(ode_world *w, sccd_rng *g, dBodyID *out)
{
    for (int i = 0; i < BODIES; ++i) {
        dBodyID b = dBodyCreate(w->world);
        dMass m;
        dGeomID geom;
        double s = sccd_rng_uniform(g, 0.08, 0.16);
        switch (i % 3) {
        case 0:
            geom = dCreateSphere(w->space, s);
            dMassSetSphereTotal(&m, 1.0, s);
            break;
        case 1:
            geom = dCreateBox(w->space, 2 * s, s, 1.5 * s);
            dMassSetBoxTotal(&m, 1.0, 2 * s, s, 1.5 * s);
            break;
        default:
            geom = dCreateCapsule(w->space, 0.5 * s, 2 * s);
            dMassSetCapsuleTotal(&m, 1.0, 3, 0.5 * s, 2 * s);
            break;
        }
        dBodySetMass(b, &m);
        dGeomSetBody(geom, b);
        dBodySetPosition(b, sccd_rng_uniform(g, -4.0, 4.0), sccd_rng_uniform(g, 0.2, 3.0), sccd_rng_uniform(g, -4.0, 4.0));
        out[i] = b;
    }
}

/* Spinners in the crowd: kinematic rotors and motor-driven blades (hinged at
 * the middle, their hinge joints written to hinges), all CCD bodies when the
 * world has CCD. */
static void add_spinners(ode_world *w, double height, dJointID hinges[BLADES])
{
    for (int i = 0; i < ROTORS + BLADES; ++i) {
        double x = -3.2 + 1.6 * (i % 5), z = i < ROTORS ? -1.5 : 1.5;
        dBodyID b = dBodyCreate(w->world);
        dGeomSetBody(dCreateBox(w->space, 1.2, 0.03, 0.12), b);
        dBodySetPosition(b, x, height, z);
        if (i < ROTORS) {
            dBodySetKinematic(b);
            dBodySetAngularVel(b, 0.0, 80.0, 0.0);
        } else {
            dMass m;
            dMassSetBoxTotal(&m, 2.0, 1.2, 0.03, 0.12);
            dBodySetMass(b, &m);
            dJointID j = dJointCreateHinge(w->world, 0);
            dJointAttach(j, b, 0);
            dJointSetHingeAnchor(j, x, height, z);
            dJointSetHingeAxis(j, 0.0, 1.0, 0.0);
            dJointSetHingeParam(j, dParamVel, 60.0);
            dJointSetHingeParam(j, dParamFMax, 500.0);
            hinges[i - ROTORS] = j;
        }
        ode_world_ccd_body(w, b, 0.0, 0.0, 0.0);
    }
}

/* The timed steps: a function of their own, the one callgrind counts in
 * (--toggle-collect) and from whose call the CCD's calls are counted
 * (--zero-before: the rain's untimed steps run the CCD too). Returns the
 * sum over the steps and blades of the spin each step's turn shows: ODE
 * turns a body spinning at ω by 2·atan(ω·h/2) in a step of h (its rotation
 * is not finite: 55.6 rad/s of turn at 60), so a step's turn φ, from the
 * hinge angles (taken in (−π, π]), made of n sub-steps of h = dt/n, is the
 * spin (2n/dt)·tan(|φ|/2n): the figures of runs with and without
 * sub-steps compare as spins, not as ODE's turns (16 sub-steps turn a blade
 * at 60 rad/s by 59.96 rad/s of turn). */
__attribute__((noinline)) double ode_overhead_timed_steps(ode_world *w, int steps, const dJointID hinges[BLADES])
{
    int n = w->mode == ODE_CCD_SUBSTEP ? w->substeps : 1;
    double spins = 0.0;
    for (int s = 0; s < steps; ++s) {
        double before[BLADES];
        for (int k = 0; k < BLADES; ++k)
            before[k] = dJointGetHingeAngle(hinges[k]);
        ode_world_step(w);
        for (int k = 0; k < BLADES; ++k) {
            double phi = fabs(remainder(dJointGetHingeAngle(hinges[k]) - before[k], 2.0 * SCCD_PI));
            spins += 2.0 * n / w->dt * tan(phi / (2.0 * n));
        }
    }
    return spins;
}

/* A run of the scene under mode (ODE_CCD_SUBSTEP: each step taken as
 * `substeps` steps of ODE's). */
static run run_once(ode_ccd_mode mode, int substeps, int warmup, int steps, unsigned seed, double height)
{
    ode_world w;
    ode_world_init(&w, mode, substeps, -9.81);
    w.quick = true;
    dWorldSetQuickStepNumIterations(w.world, 10);
    dCreatePlane(w.space, 0.0, 1.0, 0.0, 0.0);
    sccd_rng g = sccd_rng_make(seed);
    static dBodyID crowd[BODIES];
    dJointID hinges[BLADES];
    add_crowd(&w, &g, crowd);
    add_spinners(&w, height, hinges);
    for (int s = 0; s < warmup; ++s) /* the rain settles; not timed */
        ode_world_step(&w);
    w.step_seconds = 0.0;
    if (w.ccd != NULL)
        sccd_ode_reset_counters(w.ccd);
    double spins = ode_overhead_timed_steps(&w, steps, hinges);
    run r = {1e6 * w.step_seconds / steps, 0.0, sccd_ode_get_counters(w.ccd), true, spins / (steps * BLADES)};
    r.ccd_share = w.step_seconds > 0.0 ? r.ccd.seconds / w.step_seconds : 0.0;
    for (int i = 0; i < BODIES; ++i) {
        const dReal *p = dBodyGetPosition(crowd[i]);
        r.finite &= isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
    }
    ode_world_free(&w);
    return r;
}

/* The spinners at 1.0 m: they cut through the bodies raining down in the
 * first second, then spin above the settled pile (a scene with a few fast
 * things among many ordinary ones). At 0.25 m: they grind through the pile
 * every step (the worst case: a hit nearly every step). */
static const struct { const char *name; double height; } scenes[] = {{"above", 1.0}, {"in the pile", 0.25}};

enum { FULL_WARMUP = 180, FULL_STEPS = 600 };

/* The reference runs' sub-steps a step: two, to show the spin converged. */
static const int reference_substeps[2] = {16, 32};

/* The CCD's calls, for the instruction counts. */
static const char *const ccd_calls[] = {"sccd_ode_before_step", "sccd_ode_after_step", NULL};

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--count") == 0) { /* one repetition, under callgrind */
        dInitODE2(0);
        run r = run_once(atoi(argv[3]) != 0 ? ODE_CCD_SECTOR : ODE_CCD_OFF, 1, FULL_WARMUP, FULL_STEPS,
                         100u + (unsigned)atoi(argv[4]), scenes[atoi(argv[2]) != 0].height);
        dCloseODE();
        return r.finite ? 0 : 1;
    }
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "ode_overhead", &quick, &out))
        return 2;
    mkdir(out, 0755);
    int warmup = quick ? 90 : FULL_WARMUP, steps = quick ? 120 : FULL_STEPS, reps = quick ? 3 : 7;
    sccd_bench_counts c[2] = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    for (int sc = 0; sc < 2 && !quick; ++sc) /* the timed steps of the first repetitions */
        c[sc] = sccd_bench_count_scene(argv[0], sc, "ode_overhead_timed_steps", ccd_calls, "ode_overhead_timed_steps",
                                       FULL_STEPS, SCCD_BENCH_COUNT_REPS, NULL);
    dInitODE2(0);
    double m_off[2], m_on[2], m_share[2], m_tois[2], m_clamps[2]; /* medians; TOIs and placements per step */
    double m_spin_off[2], m_spin_on[2], m_spin_ref[2][2] = {{0.0, 0.0}, {0.0, 0.0}}; /* the blades' spin (rad/s) */
    bool ok = true;
    char path[512];
    snprintf(path, sizeof path, "%s/ode_overhead.csv", out);
    FILE *csv = fopen(path, "w");
    if (csv != NULL)
        fprintf(csv, "scene,rep,us_per_step_off,us_per_step_ccd,ccd_share,tois,clamps,spin_off,spin_ccd\n");
    for (int sc = 0; sc < 2; ++sc) {
        double off[MAX_REPS], on[MAX_REPS], share[MAX_REPS], tois[MAX_REPS], clamps[MAX_REPS], spin_off[MAX_REPS], spin_on[MAX_REPS];
        for (int k = 0; k < reps; ++k) {
            run a = run_once(ODE_CCD_OFF, 1, warmup, steps, 100u + (unsigned)k, scenes[sc].height);
            run b = run_once(ODE_CCD_SECTOR, 1, warmup, steps, 100u + (unsigned)k, scenes[sc].height);
            spin_off[k] = a.spin;
            spin_on[k] = b.spin;
            off[k] = a.us_per_step;
            on[k] = b.us_per_step;
            share[k] = b.ccd_share;
            tois[k] = (double)b.ccd.tois / steps;
            clamps[k] = (double)b.ccd.clamps / steps;
            /* Above the settled pile nothing may be hit once warm-up is over;
             * grinding through the pile must make the CCD work. */
            ok &= a.finite && b.finite && b.ccd.errors == 0 && (sc == 0 || b.ccd.tois > 0);
            if (csv != NULL)
                fprintf(csv, "%s,%d,%.1f,%.1f,%.4f,%llu,%llu,%.2f,%.2f\n", scenes[sc].name, k, a.us_per_step, b.us_per_step,
                        b.ccd_share, (unsigned long long)b.ccd.tois, (unsigned long long)b.ccd.clamps, a.spin, b.spin);
        }
        m_spin_off[sc] = sccd_median(spin_off, reps);
        m_spin_on[sc] = sccd_median(spin_on, reps);
        for (int r = 0; r < 2 && !quick; ++r) { /* the physics' answer, after the timed runs */
            double ref[REF_REPS];
            for (int k = 0; k < REF_REPS; ++k)
                ref[k] = run_once(ODE_CCD_SUBSTEP, reference_substeps[r], warmup, steps, 100u + (unsigned)k, scenes[sc].height).spin;
            m_spin_ref[sc][r] = sccd_median(ref, REF_REPS);
        }
        m_off[sc] = sccd_median(off, reps);
        m_on[sc] = sccd_median(on, reps);
        m_share[sc] = sccd_median(share, reps);
        m_tois[sc] = sccd_median(tois, reps); /* a pile's repetitions differ by 5 times: not the last one's */
        m_clamps[sc] = sccd_median(clamps, reps);
        printf("ode_overhead (%s): %d bodies + %d CCD bodies, %d steps x %d reps: %.0f us/step without CCD, %.0f "
               "with (x%.3f); CCD share of the step %.1f %%, %.1f TOIs and %.2f placements per step (medians)\n",
               scenes[sc].name, BODIES, ROTORS + BLADES, steps, reps, m_off[sc], m_on[sc], m_on[sc] / m_off[sc],
               100.0 * m_share[sc], m_tois[sc], m_clamps[sc]);
        printf("ode_overhead (%s): the blades' mean spin over the timed steps %.1f rad/s without CCD, %.1f with, "
               "%.1f / %.1f sub-stepped %dx / %dx without (medians; 0: not run)\n", scenes[sc].name, m_spin_off[sc],
               m_spin_on[sc], m_spin_ref[sc][0], m_spin_ref[sc][1], reference_substeps[0], reference_substeps[1]);
        if (c[sc].on > 0.0)
            printf("ode_overhead (%s): instructions per timed step (median of repetitions 1-%d) %.2f M without CCD, "
                   "%.2f M with (x%.3f), of which the CCD %.2f M (%.1f %% over ODE's)\n", scenes[sc].name,
                   SCCD_BENCH_COUNT_REPS, c[sc].off, c[sc].on,
                   c[sc].on / c[sc].off, c[sc].ccd, 100.0 * c[sc].ccd / (c[sc].on - c[sc].ccd));
    }
    if (csv != NULL)
        fclose(csv);
    dCloseODE();
    snprintf(path, sizeof path, "%s/ode_overhead.md", out);
    FILE *md = fopen(path, "w");
    if (md != NULL) {
        fprintf(md, "## ODE: CCD overhead (`bench/ode_overhead.c`)\n\n"
                    "%d ordinary bodies (boxes, spheres, capsules) dropped on a plane, plus %d CCD bodies "
                    "(%d kinematic rotors at 80 rad/s, %d blades on hinge motors at 60 rad/s); dWorldQuickStep "
                    "(10 iterations) at 60 Hz in a dHashSpace; %d steps timed after %d untimed ones (the rain settles), median of %d repetitions (each figure its own median, TOIs and placements too); thread CPU time. The baseline is "
                    "the same scene without CCD, in the same run (the bodies then fall through the spinners, so the "
                    "two runs do not simulate the same motion). CCD share: time in `sccd_ode_before_step` + "
                    "`sccd_ode_after_step` over the whole loop (it includes the geom boxes and poses ODE would "
                    "otherwise update in its next collide). Instructions (valgrind's callgrind, millions per timed "
                    "step): the first %d repetitions of each scene run again under callgrind without and with CCD, "
                    "each figure its own median (one pile's count swings with its rain); "
                    "*CCD over ODE*: the CCD's instructions over the rest of the step's (ODE's own work in those "
                    "runs) — steady where the times wander. *Blade spin*: how fast the hinged blades turn over the "
                    "timed steps (rad/s, from their hinge angles: their poses; a step's turn φ of n sub-steps read as "
                    "the spin (2n/dt)·tan(φ/2n) that ODE, whose rotation is not finite, turns by φ), medians of the repetitions, without / "
                    "with CCD; *sub-stepped*: the same rains without CCD, each step taken as %d and as %d steps of ODE's "
                    "(the first %d repetitions): how fast the physics turns them. Where the CCD's blades turn slower, its fallback held them (a body a "
                    "blade pressed met it again in the step: the two stop where they are).\n\n"
                    "| spinners | µs/step, ODE alone | µs/step, ODE + sectorccd | ratio | CCD share | TOIs/step | "
                    "placements/step | instructions/step without / with CCD (M) | ratio | CCD's (M) | CCD over ODE | "
                    "blade spin without / with CCD (rad/s) | sub-stepped %d× / %d× (rad/s) |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
                BODIES, ROTORS + BLADES, ROTORS, BLADES, steps, warmup, reps, SCCD_BENCH_COUNT_REPS,
                reference_substeps[0], reference_substeps[1], REF_REPS, reference_substeps[0], reference_substeps[1]);
        for (int sc = 0; sc < 2; ++sc) {
            char m1[32], m2[32], m3[32], ratio[32] = "—", over[32] = "—", ref[64] = "— / —";
            if (m_spin_ref[sc][0] > 0.0)
                snprintf(ref, sizeof ref, "%.1f / %.1f", m_spin_ref[sc][0], m_spin_ref[sc][1]);
            if (c[sc].on > 0.0) {
                snprintf(ratio, sizeof ratio, "%.3f", c[sc].on / c[sc].off);
                snprintf(over, sizeof over, "%.1f %%", 100.0 * c[sc].ccd / (c[sc].on - c[sc].ccd));
            }
            fprintf(md, "| %s | %.0f | %.0f | %.3f | %.1f %% | %.1f | %.2f | %s / %s | %s | %s | %s | %.1f / %.1f | %s |\n",
                    scenes[sc].name, m_off[sc], m_on[sc], m_on[sc] / m_off[sc], 100.0 * m_share[sc], m_tois[sc],
                    m_clamps[sc], sccd_bench_mega(m1, sizeof m1, c[sc].off), sccd_bench_mega(m2, sizeof m2, c[sc].on),
                    ratio, sccd_bench_mega(m3, sizeof m3, c[sc].ccd), over, m_spin_off[sc], m_spin_on[sc], ref);
        }
        fclose(md);
    }
    if (!ok)
        fprintf(stderr, "ode_overhead: FAILED (NaN, an adapter error, or no CCD work)\n");
    return ok ? 0 : 1;
}
