/* chipmunk_demo: runs the scenes headless; see demo.h.
 *
 *   chipmunk_demo [--ccd=off|sector|speculative|substep:N] [--scene NAME]
 *                 [--speed RAD_S] [--trials N] [--out DIR] [--window]
 *
 * Without --ccd every scene runs without CCD and with sectorccd, and a table
 * compares them. With --ccd=MODE each scene runs without CCD and with MODE.
 * Per scene: DIR/cp_<scene>.png (strobe, off left, MODE right),
 * DIR/cp_<scene>_<mode>.csv (per-step counters) and a one-line verdict. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_util.h"
#include "demo.h"

typedef struct run_opts {
    demo_cfg mode;      /* the compared mode */
    const char *scene;  /* NULL: all */
    double speed;       /* 0: the scene's default */
    int trials;         /* 0: the scene's default */
    const char *out;
} run_opts;

/* Both demos' mode enums follow sccd_demo_ccd's order (off, sector,
 * speculative, substep), so the shared --ccd parser and names serve both. */
static const char *mode_name(demo_cfg m, char *buf, size_t n)
{
    return sccd_demo_ccd_name((sccd_demo_ccd)m.mode, m.substeps, buf, n);
}

static bool parse_mode(const char *s, demo_cfg *m)
{
    sccd_demo_ccd mode;
    if (!sccd_demo_parse_ccd(s, &mode, &m->substeps))
        return false;
    m->mode = (demo_mode)mode;
    return true;
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
        fprintf(c.csv, "step,step_us,ccd_us,sweeps,candidates,tois,clamps\n");
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

static void usage(void)
{
    fprintf(stderr, "usage: chipmunk_demo [--ccd=off|sector|speculative|substep:N] [--scene NAME] [--speed RAD_S]\n"
                    "                     [--trials N] [--out DIR] [--window]\n");
}

int main(int argc, char **argv)
{
    run_opts o = {{DEMO_SECTOR, 1, 0, 0}, NULL, 0.0, 0, "build/demo"};
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
        else if (strcmp(a, "--window") == 0) {
            fprintf(stderr, "chipmunk_demo: --window needs SDL2, which this build does not have; running headless\n");
        } else {
            usage();
            return 2;
        }
    }
    mkdir(o.out, 0755);
    row rows[16];
    int n = 0;
    for (int s = 0; s < demo_scene_count; ++s)
        if (o.scene == NULL || strcmp(o.scene, demo_scenes[s].name) == 0)
            rows[n++] = compare(&demo_scenes[s], &o);
    if (n == 0) {
        fprintf(stderr, "chipmunk_demo: no scene named %s\n", o.scene);
        return 2;
    }
    if (!table)
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
