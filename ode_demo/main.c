/* ode_demo: runs the ODE scenes headless; see demo.h.
 *
 *   ode_demo [--ccd=off|sector|speculative|substep:N] [--scene NAME]
 *            [--speed RAD_S] [--trials N] [--out DIR] [--window]
 *
 * Without --ccd every scene runs without CCD and with sectorccd, and a table
 * compares them. With --ccd=MODE each scene runs without CCD and with MODE.
 * Per scene: DIR/ode_<scene>.png (strobe of the first trial, off left, MODE
 * right, pass-throughs ringed in red), DIR/ode_<scene>_<mode>.csv (per-step
 * counters of every trial) and a one-line verdict. Pass-throughs are judged
 * by the scenes' independent checks (tests/support/ode_scenes.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_util.h"
#include "demo.h"

typedef struct mode_cfg { ode_ccd_mode mode; int substeps; } mode_cfg;

typedef enum scene_id { SCENE_BLADE, SCENE_BAT, SCENE_ROTOR, SCENE_SWORDS } scene_id;

typedef struct scene {
    scene_id id;
    const char *name, *what;
    double speed; /* default, rad/s */
    int trials;   /* phases (rotor: runs of 20 spheres) */
    demo_view view;
    int frames;   /* steps drawn */
} scene;

static const scene scenes[] = {
    {SCENE_BLADE, "blade", "blade on a hinge motor vs a plate 1/50 of its length thick", 200.0, 50,
     {0.25, 0.3, 0.1, 0.0, 0.0, 0.7}, 12},
    {SCENE_BAT, "bat", "kinematic bat vs a pitched ball 1/20 of its length", 120.0, 50, {0.15, 0.2, 0.3, 0.2, 0.0, 1.0}, 8},
    {SCENE_ROTOR, "rotor", "kinematic rotor under falling spheres", 200.0, 5, {0.5, 0.55, 0.0, -0.3, 0.0, 1.0}, 8},
    {SCENE_SWORDS, "swords", "two swords on one hinge axis swung at each other", 200.0, 50,
     {0.2, 0.25, 0.0, 0.0, 0.0, 0.7}, 12},
};
enum { SCENES = sizeof scenes / sizeof *scenes, ROTOR_SPHERES = 20 };

typedef struct run_opts {
    mode_cfg mode;
    const char *scene; /* NULL: all */
    double speed;      /* 0: the scene's default */
    int trials;        /* 0: the scene's default */
    const char *out;
} run_opts;

/* What one scene measured under one mode. */
typedef struct tally {
    int trials, passes;
    long steps;
    double seconds, ccd_seconds;
    sccd_ode_counters ccd;
} tally;

/* Per-step observer: CSV row, strobe frame (first trial only). */
typedef struct observer_ctx {
    FILE *csv;
    demo_strobe *strobe;
    int trial;
    double last_seconds, last_ccd;
} observer_ctx;

static void on_step(void *user, const ode_world *w)
{
    observer_ctx *o = user;
    if (w->steps == 1)
        o->last_seconds = o->last_ccd = 0.0;
    sccd_ode_counters c = sccd_ode_get_counters(w->ccd);
    if (o->csv != NULL)
        fprintf(o->csv, "%d,%ld,%.2f,%.2f,%llu,%llu,%llu,%llu\n", o->trial, w->steps, 1e6 * (w->step_seconds - o->last_seconds),
                1e6 * (c.seconds - o->last_ccd), (unsigned long long)c.sweeps, (unsigned long long)c.candidates,
                (unsigned long long)c.tois, (unsigned long long)c.clamps);
    o->last_seconds = w->step_seconds;
    o->last_ccd = c.seconds;
    if (o->trial == 0)
        demo_strobe_capture(o->strobe, w);
}

/* Both demos' mode enums follow sccd_demo_ccd's order (off, sector,
 * speculative, substep), so the shared --ccd parser and names serve both. */
static const char *mode_name(mode_cfg m, char *buf, size_t n)
{
    return sccd_demo_ccd_name((sccd_demo_ccd)m.mode, m.substeps, buf, n);
}

static bool parse_mode(const char *s, mode_cfg *m)
{
    sccd_demo_ccd mode;
    if (!sccd_demo_parse_ccd(s, &mode, &m->substeps))
        return false;
    m->mode = (ode_ccd_mode)mode;
    return true;
}

static ode_trial run_trial(const scene *sc, mode_cfg m, double speed, int k, int trials, observer_ctx *o, int *passes)
{
    double phase = (double)k / trials;
    *passes = 0;
    ode_trial t = {0};
    switch (sc->id) {
    case SCENE_BLADE:
        t = ode_trial_blade(m.mode, m.substeps, speed, phase, on_step, o);
        break;
    case SCENE_BAT:
        t = ode_trial_bat(m.mode, m.substeps, speed, phase, on_step, o);
        break;
    case SCENE_ROTOR:
        t = ode_trial_rotor(m.mode, m.substeps, speed, ROTOR_SPHERES, (unsigned)k + 1u, passes, on_step, o);
        return t;
    case SCENE_SWORDS:
        t = ode_trial_swords(m.mode, m.substeps, speed, phase, on_step, o);
        break;
    }
    *passes = t.passed;
    return t;
}

/* One scene under one mode, every trial; writes its CSV and marks the strobe. */
static tally run_scene(const scene *sc, const run_opts *opt, mode_cfg m, demo_strobe *strobe)
{
    char name[32], path[512];
    snprintf(path, sizeof path, "%s/ode_%s_%s.csv", opt->out, sc->name, mode_name(m, name, sizeof name));
    observer_ctx o = {fopen(path, "w"), strobe, 0, 0.0, 0.0};
    if (o.csv != NULL)
        fprintf(o.csv, "trial,step,step_us,ccd_us,sweeps,candidates,tois,clamps\n");
    double speed = opt->speed > 0 ? opt->speed : sc->speed;
    tally r = {0};
    r.trials = opt->trials > 0 ? opt->trials : sc->trials;
    for (int k = 0; k < r.trials; ++k) {
        o.trial = k;
        int passes;
        ode_trial t = run_trial(sc, m, speed, k, r.trials, &o, &passes);
        r.passes += passes;
        if (passes > 0)
            demo_strobe_mark(strobe, t.px, t.py, t.pz);
        r.steps += t.steps;
        r.seconds += t.seconds;
        r.ccd_seconds += t.ccd.seconds;
        r.ccd.sweeps += t.ccd.sweeps;
        r.ccd.candidates += t.ccd.candidates;
        r.ccd.tois += t.ccd.tois;
        r.ccd.clamps += t.ccd.clamps;
        r.ccd.failed += t.ccd.failed;
    }
    if (sc->id == SCENE_ROTOR)
        r.trials *= ROTOR_SPHERES;
    if (o.csv != NULL)
        fclose(o.csv);
    return r;
}

static double us_per_step(const tally *t) { return t->steps ? 1e6 * t->seconds / (double)t->steps : 0.0; }

typedef struct row { const scene *sc; double speed; tally off, on; } row;

static row compare(const scene *sc, const run_opts *opt)
{
    char name[32], caption[320], path[512];
    mode_cfg off = {ODE_CCD_OFF, 1};
    mode_name(opt->mode, name, sizeof name);
    demo_strobe *left = demo_strobe_new(sc->view, sc->frames, "no CCD");
    demo_strobe *right = demo_strobe_new(sc->view, sc->frames, name);
    row out = {sc, opt->speed > 0 ? opt->speed : sc->speed, run_scene(sc, opt, off, left), run_scene(sc, opt, opt->mode, right)};
    snprintf(caption, sizeof caption, "%s, %.0f rad/s at 60 Hz; pass-throughs (red): off %d/%d, %s %d/%d", sc->what,
             out.speed, out.off.passes, out.off.trials, name, out.on.passes, out.on.trials);
    snprintf(path, sizeof path, "%s/ode_%s.png", opt->out, sc->name);
    if (!demo_strobe_write(left, right, caption, path))
        fprintf(stderr, "ode_demo: cannot write %s\n", path);
    demo_strobe_free(left);
    demo_strobe_free(right);
    printf("%-7s %s: %d/%d pass through without CCD, %d/%d with %s (%llu TOIs, %llu stops, %llu capped) -> %s\n",
           sc->name, out.on.passes == 0 ? "HOLDS" : "LEAKS", out.off.passes, out.off.trials, out.on.passes,
           out.on.trials, name, (unsigned long long)out.on.ccd.tois, (unsigned long long)out.on.ccd.clamps,
           (unsigned long long)out.on.ccd.failed, path);
    return out;
}

static void usage(void)
{
    fprintf(stderr, "usage: ode_demo [--ccd=off|sector|speculative|substep:N] [--scene NAME] [--speed RAD_S]\n"
                    "                [--trials N] [--out DIR] [--window]\n");
}

int main(int argc, char **argv)
{
    run_opts o = {{ODE_CCD_SECTOR, 1}, NULL, 0.0, 0, "build/demo"};
    bool table = true;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (strncmp(a, "--ccd=", 6) == 0) {
            if (!parse_mode(a + 6, &o.mode)) {
                usage();
                return 2;
            }
            table = false;
        } else if (strcmp(a, "--scene") == 0 && i + 1 < argc)
            o.scene = argv[++i];
        else if (strcmp(a, "--speed") == 0 && i + 1 < argc)
            o.speed = atof(argv[++i]);
        else if (strcmp(a, "--trials") == 0 && i + 1 < argc)
            o.trials = atoi(argv[++i]);
        else if (strcmp(a, "--out") == 0 && i + 1 < argc)
            o.out = argv[++i];
        else if (strcmp(a, "--window") == 0)
            fprintf(stderr, "ode_demo: --window needs SDL2, which this build does not have; running headless\n");
        else {
            usage();
            return 2;
        }
    }
    mkdir(o.out, 0755);
    dInitODE2(0);
    row rows[SCENES];
    int n = 0;
    for (int s = 0; s < SCENES; ++s)
        if (o.scene == NULL || strcmp(o.scene, scenes[s].name) == 0)
            rows[n++] = compare(&scenes[s], &o);
    dCloseODE();
    if (n == 0) {
        fprintf(stderr, "ode_demo: no scene named %s\n", o.scene);
        return 2;
    }
    if (!table)
        return 0;
    printf("\n| scene | swing speed (rad/s) | pass-throughs without CCD | pass-throughs with sectorccd | "
           "µs/step without | µs/step with | CCD share of step |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; ++i) {
        const row *r = &rows[i];
        printf("| %s | %.0f | %d/%d | %d/%d | %.1f | %.1f | %.0f %% |\n", r->sc->name, r->speed, r->off.passes,
               r->off.trials, r->on.passes, r->on.trials, us_per_step(&r->off), us_per_step(&r->on),
               r->on.seconds > 0.0 ? 100.0 * r->on.ccd_seconds / r->on.seconds : 0.0);
    }
    return 0;
}
