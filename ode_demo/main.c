/* ode_demo: runs the ODE scenes headless; see demo.h.
 *
 *   ode_demo [--ccd=off|sector|speculative|substep:N] [--scene NAME]
 *            [--speed RAD_S] [--trials N] [--out DIR]
 *            [--window [--frames N] [--screenshot PATH]]
 *
 * Without --ccd every scene runs without CCD and with sectorccd, and a table
 * compares them. With --ccd=MODE each scene runs without CCD and with MODE.
 * Per scene: DIR/ode_<scene>.png (strobe of the first trial, off left, MODE
 * right, pass-throughs ringed in red), DIR/ode_<scene>_<mode>.csv (per-step
 * counters of every trial) and a one-line verdict. Pass-throughs are judged
 * by the scenes' independent checks (common/scenes/ode_scenes.c). --window
 * replays the chosen scenes live instead (window.c); without SDL2 it says so
 * and runs headless. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demo_args.h"
#include "demo.h"
#include "demo_window.h"

typedef struct run_opts {
    mode_cfg mode;
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
        fprintf(o->csv, "%d,%ld,%.2f,%.2f,%llu,%llu,%llu\n", o->trial, w->steps, 1e6 * (w->step_seconds - o->last_seconds),
                1e6 * (c.seconds - o->last_ccd), (unsigned long long)c.candidates,
                (unsigned long long)c.tois, (unsigned long long)c.clamps);
    o->last_seconds = w->step_seconds;
    o->last_ccd = c.seconds;
    if (o->trial == 0)
        demo_strobe_capture(o->strobe, w);
}

/* Both demos' mode enums follow sccd_demo_ccd's order (off, sector,
 * speculative, substep), so the shared parser and names serve both. */
static const char *mode_name(mode_cfg m, char *buf, size_t n)
{
    return sccd_demo_ccd_name((sccd_demo_ccd)m.mode, m.substeps, buf, n);
}

/* One scene under one mode, every trial; writes its CSV and marks the strobe. */
static tally run_scene(const demo_scene *sc, const run_opts *opt, mode_cfg m, demo_strobe *strobe)
{
    char name[32], path[512];
    snprintf(path, sizeof path, "%s/ode_%s_%s.csv", opt->out, sc->name, mode_name(m, name, sizeof name));
    observer_ctx o = {fopen(path, "w"), strobe, 0, 0.0, 0.0};
    if (o.csv != NULL)
        fprintf(o.csv, "trial,step,step_us,ccd_us,candidates,tois,clamps\n");
    double speed = opt->speed > 0 ? opt->speed : sc->speed;
    tally r = {0};
    r.trials = opt->trials > 0 ? opt->trials : sc->trials;
    for (int k = 0; k < r.trials; ++k) {
        o.trial = k;
        int passes;
        ode_trial t = demo_run_trial(sc, m, speed, k, r.trials, on_step, &o, &passes);
        r.passes += passes;
        if (passes > 0)
            demo_strobe_mark(strobe, t.px, t.py, t.pz);
        r.steps += t.steps;
        r.seconds += t.seconds;
        r.ccd_seconds += t.ccd.seconds;
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

typedef struct row { const demo_scene *sc; double speed; tally off, on; } row;

static row compare(const demo_scene *sc, const run_opts *opt)
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

static const char *scene_name(int i) { return demo_scenes[i].name; }

/* main casts the shared parser's mode to the scenes' own enum. */
_Static_assert(ODE_CCD_OFF == (int)SCCD_DEMO_OFF && ODE_CCD_SECTOR == (int)SCCD_DEMO_SECTOR &&
                   ODE_CCD_SPECULATIVE == (int)SCCD_DEMO_SPECULATIVE && ODE_CCD_SUBSTEP == (int)SCCD_DEMO_SUBSTEP,
               "ode_ccd_mode follows sccd_demo_ccd");

int main(int argc, char **argv)
{
    sccd_demo_args a;
    if (!sccd_demo_parse_args(argc, argv, "ode_demo", &a))
        return 2;
    run_opts o = {{(ode_ccd_mode)a.ccd, a.substeps}, a.speed, a.trials, a.out};
    const demo_scene *chosen[16];
    int picked[16], n = sccd_demo_choose_scenes(a.scene, demo_scene_count, scene_name, picked, "ode_demo");
    if (n == 0)
        return 2;
    for (int s = 0; s < n; ++s) {
        chosen[s] = &demo_scenes[picked[s]];
        if (a.speed > chosen[s]->max_speed) {
            fprintf(stderr, "ode_demo: the %s scene animates --speed up to %.0f rad/s, not %g\n", chosen[s]->name,
                    chosen[s]->max_speed, a.speed);
            return 2;
        }
    }
    dInitODE2(0);
    int st = a.window ? demo_window_run(chosen, n, o.mode, a.speed, a.trials, a.frames, a.screenshot) : DW_NO_WINDOW;
    if (st != DW_NO_WINDOW) {
        dCloseODE();
        return st == DW_QUIT ? 0 : 1;
    }
    mkdir(o.out, 0755);
    row rows[16];
    for (int s = 0; s < n; ++s)
        rows[s] = compare(chosen[s], &o);
    dCloseODE();
    if (a.ccd_given)
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
