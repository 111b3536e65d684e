/* chipmunk_demo: runs the scenes headless; see demo.h.
 *
 *   chipmunk_demo [--ccd=off|sector|speculative|substep:N] [--scene NAME]
 *                 [--speed RAD_S] [--trials N] [--out DIR]
 *                 [--window [--frames N] [--screenshot PATH]]
 *
 * Without --ccd every scene runs without CCD and with sectorccd, and a table
 * compares them. With --ccd=MODE each scene runs without CCD and with MODE.
 * Per scene: DIR/cp_<scene>.png (strobe, off left, MODE right),
 * DIR/cp_<scene>_<mode>.csv (per-step counters) and a one-line verdict.
 * --window replays the chosen scenes live instead (window.c); without SDL2
 * it says so and runs headless. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "demo_args.h"
#include "demo.h"
#include "demo_window.h"

typedef struct run_opts {
    demo_cfg mode;      /* the compared mode */
    double speed;       /* 0: the scene's default */
    int trials;         /* 0: the scene's default */
    const char *out;
} run_opts;

/* Both demos' mode enums follow sccd_demo_ccd's order (off, sector,
 * speculative, substep), so the shared parser and names serve both. */
_Static_assert(DEMO_OFF == (int)SCCD_DEMO_OFF && DEMO_SECTOR == (int)SCCD_DEMO_SECTOR &&
                   DEMO_SPECULATIVE == (int)SCCD_DEMO_SPECULATIVE && DEMO_SUBSTEP == (int)SCCD_DEMO_SUBSTEP,
               "demo_mode follows sccd_demo_ccd");
static const char *mode_name(demo_cfg m, char *buf, size_t n)
{
    return sccd_demo_ccd_name((sccd_demo_ccd)m.mode, m.substeps, buf, n);
}

/* One scene under one mode; writes its CSV. */
static demo_result run_scene(const demo_scene *sc, const run_opts *o, demo_cfg mode, demo_strobe *strobe)
{
    char name[32], path[512];
    demo_result r = {0};
    demo_ctx c = {0};
    c.cfg = mode;
    c.cfg.speed = o->speed > 0 ? o->speed : sc->speed;
    c.cfg.trials = o->trials > 0 ? o->trials : sc->trials;
    snprintf(path, sizeof path, "%s/cp_%s_%s.csv", o->out, sc->name, mode_name(mode, name, sizeof name));
    c.csv = fopen(path, "w");
    if (c.csv != NULL)
        fprintf(c.csv, "step,step_us,ccd_us,candidates,tois,clamps\n");
    c.strobe = strobe;
    c.result = &r;
    sc->run(&c);
    if (c.csv != NULL)
        fclose(c.csv);
    return r;
}

static double us_per_step(const demo_result *r) { return r->steps ? 1e6 * r->step_seconds / (double)r->steps : 0.0; }

typedef struct row { const char *scene; double speed; demo_result off, on; } row;

static row compare(const demo_scene *sc, const run_opts *o)
{
    char name[32], title[96], caption[256], path[512];
    double speed = o->speed > 0 ? o->speed : sc->speed;
    demo_cfg off = {DEMO_OFF, 1, 0, 0};
    demo_strobe *left = demo_strobe_new(sc->view, sc->frames, "no CCD");
    snprintf(title, sizeof title, "%s", mode_name(o->mode, name, sizeof name));
    demo_strobe *right = demo_strobe_new(sc->view, sc->frames, title);
    row out = {sc->name, speed, run_scene(sc, o, off, left), run_scene(sc, o, o->mode, right)};
    snprintf(caption, sizeof caption, "%s, %.0f rad/s at 60 Hz — pass-throughs (red): off %d/%d, %s %d/%d",
             sc->what, speed, out.off.passes, out.off.trials, name, out.on.passes, out.on.trials);
    snprintf(path, sizeof path, "%s/cp_%s.png", o->out, sc->name);
    if (!demo_strobe_write(left, right, caption, path))
        fprintf(stderr, "chipmunk_demo: cannot write %s\n", path);
    demo_strobe_free(left);
    demo_strobe_free(right);
    printf("%-14s %s: %d/%d pass through without CCD, %d/%d with %s (%d/%d touched; %llu TOIs, %llu stops, "
           "%llu capped) -> %s\n",
           sc->name, out.on.passes == 0 ? "HOLDS" : "LEAKS", out.off.passes, out.off.trials, out.on.passes,
           out.on.trials, name, out.on.hits, out.on.trials, (unsigned long long)out.on.ccd.tois,
           (unsigned long long)out.on.ccd.clamps, (unsigned long long)out.on.ccd.failed, path);
    return out;
}

static const char *scene_name(int i) { return demo_scenes[i].name; }

int main(int argc, char **argv)
{
    sccd_demo_args a;
    if (!sccd_demo_parse_args(argc, argv, "chipmunk_demo", &a))
        return 2;
    run_opts o = {{(demo_mode)a.ccd, a.substeps, 0, 0}, a.speed, a.trials, a.out};
    const demo_scene *chosen[16];
    int picked[16], n = sccd_demo_choose_scenes(a.scene, demo_scene_count, scene_name, picked, "chipmunk_demo");
    if (n == 0)
        return 2;
    for (int s = 0; s < n; ++s)
        chosen[s] = &demo_scenes[picked[s]];
    if (a.window) {
        int st = demo_window_run(chosen, n, o.mode, a.speed, a.trials, a.frames, a.screenshot);
        if (st != DW_NO_WINDOW)
            return st == DW_QUIT ? 0 : 1;
    }
    mkdir(o.out, 0755);
    row rows[16];
    for (int s = 0; s < n; ++s)
        rows[s] = compare(chosen[s], &o);
    if (a.ccd_given)
        return 0;
    printf("\n| scene | swing speed (rad/s) | pass-throughs without CCD | pass-throughs with sectorccd | "
           "µs/step without | µs/step with | CCD share of step |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; ++i) {
        const row *r = &rows[i];
        printf("| %s | %.0f | %d/%d | %d/%d | %.1f | %.1f | %.0f %% |\n", r->scene, r->speed, r->off.passes,
               r->off.trials, r->on.passes, r->on.trials, us_per_step(&r->off), us_per_step(&r->on),
               r->on.step_seconds > 0 ? 100.0 * r->on.ccd.seconds / r->on.step_seconds : 0.0);
    }
    return 0;
}
