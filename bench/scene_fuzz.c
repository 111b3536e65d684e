/* scene_fuzz: random scenes on the real engines, with the CCD and without,
 * judged for pass-throughs on poses only (common/scenes/scene_fuzz.h).
 *
 *   scene_fuzz [--quick] [--out DIR] [--scenes N] [--seed S] [--engine cp|ode] [--origin X] [--unit K] [--heavy]
 *              [--replay I] [--check]
 *
 * Runs N scenes per engine (100,000; --quick 5,000), each with the CCD and
 * without, prints the pass-throughs per engine and scene kind and the first
 * scenes that pass through with the CCD, and writes DIR/scene_fuzz.md (the
 * section of docs/RESULTS.md) and DIR/scene_fuzz.csv. Then the first tenth
 * of those scenes again at each of the engine's other PLACES: built far
 * from the world's origin (a large world, where the doubles hold fewer
 * digits of each place) and in other units (every length the engine sees
 * scaled, the slop or contact skin with it, as a game in those units would
 * set it). --origin X and --unit K build every scene about (X, X[, X]) in
 * units K instead, and --heavy with its balls' masses over 1e-3 to 1e3
 * times a CCD body's (each skips the other places). --replay I prints
 * scene I's description and its poses step by step, with and without CCD.
 * Exit code: 0 when it ran; with --check, 1 when any scene passed through
 * with the CCD; with --quick (CI), 1 when an engine's pass-throughs with the
 * CCD exceed its ceiling (QUICK_CEILING: what it measured when the ceiling
 * was set, rounded up — a regression guard while the goal, none, is not
 * met) or fewer than MIN_HARD of the scenes pass through without it (the
 * scenes would be too easy to mean anything). --calibrate runs the plain engine in fine sub-steps in place
 * of the CCD (SCCD_FZ_SUBSTEP, counted in the "with CCD" column; no files):
 * with no tunnelling left, what the judges still see there is the engines'
 * own doing or the judges' — a check of the judges, slow, for a few thousand
 * scenes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scene_fuzz.h"
#include "bench_util.h"

#define FULL_SCENES 100000
#define QUICK_SCENES 5000
#define SHOWN 10
/* --quick ceilings on pass-throughs with the CCD, % of scenes (measured at
 * seed 1 when set: none in either engine's 5,000; in the full 100,000,
 * Chipmunk none, ODE 10). Chipmunk's is the goal itself. */
static const double QUICK_CEILING[SCCD_FZ_ENGINES] = {0.0, 0.04};
/* Least share of scenes that must pass through without the CCD, %. */
#define MIN_HARD 20.0
/* The other places each engine's scenes are built at (sccd_fz_setup):
 * far out — Chipmunk's 1e6 units (about 10 km in the fuzzer's centimetres,
 * or a level a million pixels wide), ODE's 1e5 m (a 100 km world); ulp
 * there 1.2e-10 and 1.5e-11, against walls 0.3 and 0.003 thick — and in
 * other units: Chipmunk's scenes in metres (× 0.01) and millimetres
 * (× 10), ODE's in centimetres (× 100, as some game engines count) and
 * millimetres (× 1000). */
#define PLACE_COUNT 3
static const sccd_fz_setup PLACES[SCCD_FZ_ENGINES][PLACE_COUNT] = {{{1e6, 1.0}, {0.0, 0.01}, {0.0, 10.0}},
                                                                   {{1e5, 1.0}, {0.0, 100.0}, {0.0, 1000.0}}};
/* The other places' scenes: a tenth of the main run's. */
#define PLACE_SHARE 10

typedef struct options {
    bool quick, check, engine_given, calibrate;
    const char *out;
    long scenes, seed, replay;
    sccd_fz_setup setup; /* the main run's (--origin, --unit, --heavy; SCCD_FZ_HOME) */
    sccd_fz_engine engine;
} options;

/* Counts of one engine's run at one place: scenes and pass-throughs with and without CCD, per kind. */
typedef struct tally {
    sccd_fz_setup setup;
    long scenes[SCCD_FZ_KINDS], with[SCCD_FZ_KINDS], without[SCCD_FZ_KINDS];
    long first[SCCD_FZ_KINDS]; /* first scene index failing with CCD, -1 */
    long judged[SCCD_FZ_JUDGE_KINDS]; /* failures with CCD by the judge that saw them */
    long ambiguous, ambiguous_scenes;  /* with CCD: steps whose hinged turns were too large to tell their way, and their scenes */
    int shown;
    double seconds;
} tally;

static bool whole_number(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool real_number(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

static bool parse(int argc, char **argv, options *o)
{
    *o = (options){.out = "build/bench", .scenes = -1, .seed = 1, .replay = -1, .setup = SCCD_FZ_HOME};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "--quick") == 0)
            o->quick = true;
        else if (strcmp(a, "--check") == 0)
            o->check = true;
        else if (strcmp(a, "--calibrate") == 0)
            o->calibrate = true;
        else if (strcmp(a, "--heavy") == 0)
            o->setup.heavy = true;
        else if (v == NULL)
            ok = false;
        else if (strcmp(a, "--out") == 0)
            o->out = argv[++i];
        else if (strcmp(a, "--scenes") == 0)
            ok = whole_number(argv[++i], 1, 100000000, &o->scenes);
        else if (strcmp(a, "--seed") == 0)
            ok = whole_number(argv[++i], 0, 2147483647, &o->seed);
        else if (strcmp(a, "--origin") == 0)
            ok = real_number(argv[++i], -1e9, 1e9, &o->setup.origin);
        else if (strcmp(a, "--unit") == 0)
            ok = real_number(argv[++i], 1e-6, 1e6, &o->setup.unit);
        else if (strcmp(a, "--replay") == 0)
            ok = whole_number(argv[++i], 0, 2147483647, &o->replay);
        else if (strcmp(a, "--engine") == 0) {
            o->engine_given = ok = strcmp(v, "cp") == 0 || strcmp(v, "ode") == 0;
            o->engine = strcmp(argv[++i], "cp") == 0 ? SCCD_FZ_CP : SCCD_FZ_ODE;
        } else
            ok = false;
        if (!ok) {
            fprintf(stderr, "usage: scene_fuzz [--quick] [--out DIR] [--scenes N] [--seed S] [--engine cp|ode] [--origin X] [--unit K] [--heavy] [--replay I] [--check] [--calibrate]\n");
            return false;
        }
    }
    if (o->scenes < 0)
        o->scenes = o->quick ? QUICK_SCENES : FULL_SCENES;
    return true;
}

static void print_line(void *user, const char *line)
{
    (void)user;
    printf("  %s\n", line);
}

static void replay(const options *o, sccd_fz_engine e)
{
    for (int ccd = 1; ccd >= 0; --ccd) {
        printf("%s scene %ld, %s CCD:\n", sccd_fz_engine_name(e), o->replay, ccd ? "with" : "without");
        sccd_fz_result r = sccd_fz_run(e, (uint64_t)o->seed, (int)o->replay, o->setup, ccd ? SCCD_FZ_CCD : SCCD_FZ_OFF,
                                       print_line, NULL);
        printf("  scene: %s\n", r.scene);
        if (r.passed)
            printf("  verdict: PASS-THROUGH at step %d of %d: %s\n", r.step, r.steps, r.judge);
        else
            printf("  verdict: no pass-through in %d steps\n", r.steps);
        if (r.ambiguous > 0)
            printf("  %d steps turned a hinged body too far to tell its way (judged both ways)\n", r.ambiguous);
    }
}

/* Scenes 0 to scenes − 1 of engine e built with `setup`, into t. */
static void run_engine(const options *o, sccd_fz_engine e, sccd_fz_setup setup, long scenes, tally *t)
{
    memset(t, 0, sizeof *t);
    t->setup = setup;
    for (int k = 0; k < SCCD_FZ_KINDS; ++k)
        t->first[k] = -1;
    clock_t start = clock();
    for (long i = 0; i < scenes; ++i) {
        sccd_fz_mode mode = o->calibrate ? SCCD_FZ_SUBSTEP : SCCD_FZ_CCD;
        sccd_fz_result on = sccd_fz_run(e, (uint64_t)o->seed, (int)i, setup, mode, NULL, NULL);
        sccd_fz_result off = sccd_fz_run(e, (uint64_t)o->seed, (int)i, setup, SCCD_FZ_OFF, NULL, NULL);
        ++t->scenes[on.kind];
        t->without[on.kind] += off.passed;
        t->ambiguous += on.ambiguous;
        t->ambiguous_scenes += on.ambiguous > 0;
        if (!on.passed)
            continue;
        ++t->judged[on.judge_kind];
        if (t->with[on.kind]++ == 0)
            t->first[on.kind] = i;
        if (t->shown++ < SHOWN)
            printf("  %s scene %ld (origin %g, unit %g, step %d): %s\n      judge: %s\n", sccd_fz_engine_name(e), i,
                   setup.origin, setup.unit, on.step, on.scene, on.judge);
    }
    t->seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
}

static long sum(const long *v)
{
    long s = 0;
    for (int k = 0; k < SCCD_FZ_KINDS; ++k)
        s += v[k];
    return s;
}

static double percent(long a, long b) { return b > 0 ? 100.0 * (double)a / (double)b : 0.0; }

/* "deep 12, turned_through 3, ..." into buf. */
static const char *by_judge(const tally *t, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int j = 0; j < SCCD_FZ_JUDGE_KINDS; ++j)
        sccd_fz_append(buf, n, "%s%s %ld", j ? ", " : "", sccd_fz_judge_name((sccd_fz_judge_kind)j), t->judged[j]);
    return buf;
}

/* "cp", "cp@1e+06" (about another origin), "cp*0.01" (in other units), "cp+heavy", into buf. */
static const char *run_name(sccd_fz_engine e, const tally *t, char *buf, size_t n)
{
    buf[0] = '\0';
    sccd_fz_append(buf, n, "%s", sccd_fz_engine_name(e));
    if (t->setup.origin != 0.0)
        sccd_fz_append(buf, n, "@%g", t->setup.origin);
    if (t->setup.unit != 1.0)
        sccd_fz_append(buf, n, "*%g", t->setup.unit);
    if (t->setup.heavy)
        sccd_fz_append(buf, n, "+heavy");
    return buf;
}

static void print_tally(sccd_fz_engine e, const tally *t)
{
    char judged[256], name[32];
    run_name(e, t, name, sizeof name);
    for (int k = 0; k < SCCD_FZ_KINDS; ++k)
        printf("scene_fuzz %-3s %-12s: %6ld scenes, pass-throughs with CCD %5ld (%.2f %%), without %6ld (%.1f %%)\n",
               name, sccd_fz_kind_name((sccd_fz_kind)k), t->scenes[k], t->with[k],
               percent(t->with[k], t->scenes[k]), t->without[k], percent(t->without[k], t->scenes[k]));
    printf("scene_fuzz %-3s all         : %6ld scenes, pass-throughs with CCD %5ld (%.2f %%), without %6ld (%.1f %%); %.0f s\n",
           name, sum(t->scenes), sum(t->with), percent(sum(t->with), sum(t->scenes)), sum(t->without),
           percent(sum(t->without), sum(t->scenes)), t->seconds);
    printf("scene_fuzz %-3s with CCD, by judge: %s; turns too large to tell their way (judged both ways): %ld steps in %ld scenes\n",
           name, by_judge(t, judged, sizeof judged), t->ambiguous, t->ambiguous_scenes);
}

/* The runs made: each engine's main run (ran[e]) and its runs at the other PLACES (placed[e]). */
typedef struct runs {
    tally main[SCCD_FZ_ENGINES], other[SCCD_FZ_ENGINES][PLACE_COUNT];
    bool ran[SCCD_FZ_ENGINES], placed[SCCD_FZ_ENGINES];
} runs;

static void csv_rows(FILE *f, const options *o, sccd_fz_engine e, const tally *t)
{
    for (int k = 0; k < SCCD_FZ_KINDS; ++k)
        fprintf(f, "%s,%s,%ld,%ld,%ld,%ld,%ld,%.1f,%g,%g,%d\n", sccd_fz_engine_name(e), sccd_fz_kind_name((sccd_fz_kind)k),
                t->scenes[k], t->with[k], t->without[k], t->first[k], o->seed, t->seconds, t->setup.origin, t->setup.unit,
                (int)t->setup.heavy);
}

static void write_csv(const options *o, const runs *r)
{
    FILE *f = sccd_bench_open(o->out, "scene_fuzz", "csv");
    if (f == NULL)
        return;
    fprintf(f, "engine,kind,scenes,passes_with_ccd,passes_without_ccd,first_failing_scene_with_ccd,seed,seconds,origin,unit,heavy\n");
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e) {
        if (r->ran[e])
            csv_rows(f, o, (sccd_fz_engine)e, &r->main[e]);
        for (int p = 0; r->placed[e] && p < PLACE_COUNT; ++p)
            csv_rows(f, o, (sccd_fz_engine)e, &r->other[e][p]);
    }
    fclose(f);
}

/* The other places' table, when any ran. */
static void write_places_md(FILE *f, const runs *r)
{
    bool any = false;
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e)
        any |= r->placed[e];
    if (!any)
        return;
    fprintf(f, "\n**Far from the origin and in other units**: the first tenth of the same scenes built about a point "
               "far out along the diagonal (a large world, where the doubles hold fewer digits of every place: "
               "Chipmunk's 1e6 units out, 10 km in the fuzzer's centimetres or a level a million pixels wide; ODE's "
               "1e5 m), and with every length the engine sees scaled by the unit, the slop (Chipmunk) or contact "
               "skin (ODE) with it, as a game in those units would set them (Chipmunk's scenes in metres and "
               "millimetres, ODE's in centimetres and millimetres). "
               "`scene_fuzz --engine E --origin X --unit K --replay I` replays one.\n\n"
               "| engine | origin | unit | scenes | pass-throughs with CCD | without CCD |\n|---|---|---|---|---|---|\n");
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e)
        for (int p = 0; r->placed[e] && p < PLACE_COUNT; ++p) {
            const tally *t = &r->other[e][p];
            fprintf(f, "| %s | %g | %g | %ld | %ld (%.2f %%) | %ld (%.1f %%) |\n", sccd_fz_engine_name((sccd_fz_engine)e),
                    t->setup.origin, t->setup.unit, sum(t->scenes), sum(t->with), percent(sum(t->with), sum(t->scenes)),
                    sum(t->without), percent(sum(t->without), sum(t->scenes)));
        }
}

static void write_md(const options *o, const runs *r)
{
    FILE *f = sccd_bench_open(o->out, "scene_fuzz", "md");
    if (f == NULL)
        return;
    fprintf(f, "## Scene fuzzer on the real engines (scene_fuzz)\n\n"
               "Random Chipmunk2D and ODE scenes (seed %ld), each run for one simulated second with sectorccd and "
               "without: CCD bodies hinged and free, hinged on a motor, kinematic (spinning, sometimes moving) or "
               "free-flying; boxes, random convex polygons, capsules, circles/spheres, pivots at the end, the middle, "
               "inside and outside (a dynamic body's centre of gravity at its shape's centroid, as a game's); 0.5–600 rad/s log-uniform at 30/60/120 Hz; against thin static walls (3 mm–3 cm "
               "in body lengths of about a metre), ODE planes, static and dynamic balls, a free body in the sweep and a "
               "second hinged body; random elasticity, friction, Chipmunk slop and iterations, ODE step or quickstep "
               "and finite rotation. A scene is counted as a pass-through when, at the end of any step, a CCD body "
               "shrunk by 40 %% of its half-thickness reaches a static target's mid-line/mid-plane (or a ball's centre, "
               "or another CCD body shrunk likewise), when a hinged body's angle passes over an angle range where it "
               "would, or when a flyer's centre of gravity crosses a wall's mid-line inside the wall along a chord that no path its speed (or the farthest point's of a body it started or ended within reach of) allows could have bent round the wall's end — judged on the engine's "
               "poses with the fuzzer's own geometry, never on the adapter's counters. Kind = the scene's first CCD "
               "body. `build/bin/scene_fuzz --engine E --seed S --replay I` replays scene I.\n\n"
               "| engine | scene kind | scenes | pass-throughs with CCD | without CCD |\n|---|---|---|---|---|\n",
            o->seed);
    long with = 0, without = 0, scenes = 0;
    char judged[256];
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e) {
        const tally *t = &r->main[e];
        for (int k = 0; r->ran[e] && k < SCCD_FZ_KINDS; ++k)
            fprintf(f, "| %s | %s | %ld | %ld (%.2f %%) | %ld (%.1f %%) |\n", sccd_fz_engine_name((sccd_fz_engine)e),
                    sccd_fz_kind_name((sccd_fz_kind)k), t->scenes[k], t->with[k], percent(t->with[k], t->scenes[k]),
                    t->without[k], percent(t->without[k], t->scenes[k]));
        for (int p = -1; p < PLACE_COUNT; ++p) {
            const tally *u = p < 0 ? t : &r->other[e][p];
            if (p < 0 ? r->ran[e] : r->placed[e]) {
                with += sum(u->with);
                without += sum(u->without);
                scenes += sum(u->scenes);
            }
        }
    }
    write_places_md(f, r);
    fprintf(f, "\nWith CCD, by the judge that saw them:");
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e)
        if (r->ran[e])
            fprintf(f, " %s — %s.", sccd_fz_engine_name((sccd_fz_engine)e), by_judge(&r->main[e], judged, sizeof judged));
    fprintf(f, " A hinged body whose turn in a step is too large to tell its way (ODE keeps only the pose, and the CCD's "
               "impacts, or ODE's finite rotation after them, may turn a body more than π): more than 0.95π, or the other "
               "way round within what the energy within its reach could turn it, is judged to pass a blocked range only "
               "when it would both ways:");
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e)
        if (r->ran[e])
            fprintf(f, " %s %ld steps in %ld scenes.", sccd_fz_engine_name((sccd_fz_engine)e), r->main[e].ambiguous,
                    r->main[e].ambiguous_scenes);
    fprintf(f, "\n\nVerdict (both tables): %s — %ld of %ld scenes pass through with sectorccd (%.2f %%), %ld without (%.1f %%).\n",
            with == 0 ? "no pass-through with the CCD" : "the CCD lets scenes pass through", with, scenes,
            percent(with, scenes), without, percent(without, scenes));
    fclose(f);
}

/* The --quick guard on one run: its pass-throughs with the CCD at most the
 * engine's ceiling, and enough without. */
static bool quick_guard(sccd_fz_engine e, const tally *t)
{
    char name[32];
    double pw = percent(sum(t->with), sum(t->scenes)), pwo = percent(sum(t->without), sum(t->scenes));
    if (pw <= QUICK_CEILING[e] && pwo >= MIN_HARD)
        return true;
    fprintf(stderr, "scene_fuzz: FAILED (--quick) %s: %.2f %% pass through with the CCD (ceiling %.2f %%), %.1f %% without (at least %.0f %%)\n",
            run_name(e, t, name, sizeof name), pw, QUICK_CEILING[e], pwo, MIN_HARD);
    return false;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o))
        return 2;
    if (o.replay >= 0) {
        for (int e = 0; e < SCCD_FZ_ENGINES; ++e)
            if (!o.engine_given || o.engine == (sccd_fz_engine)e)
                replay(&o, (sccd_fz_engine)e);
        return 0;
    }
    static runs r; /* zeroed: nothing ran yet */
    bool elsewhere = o.setup.origin == 0.0 && o.setup.unit == 1.0 && !o.setup.heavy && !o.calibrate;
    long with = 0;
    for (int e = 0; e < SCCD_FZ_ENGINES; ++e) {
        if (o.engine_given && o.engine != (sccd_fz_engine)e)
            continue;
        printf("scene_fuzz %s: %ld scenes (seed %ld, origin %g, unit %g), each with and without CCD; first failures with CCD:\n",
               sccd_fz_engine_name((sccd_fz_engine)e), o.scenes, o.seed, o.setup.origin, o.setup.unit);
        if (o.setup.heavy)
            printf("scene_fuzz %s: heavy balls (1e-3 to 1e3 times a CCD body's mass)\n", sccd_fz_engine_name((sccd_fz_engine)e));
        run_engine(&o, (sccd_fz_engine)e, o.setup, o.scenes, &r.main[e]);
        print_tally((sccd_fz_engine)e, &r.main[e]);
        r.ran[e] = true;
        with += sum(r.main[e].with);
        for (int p = 0; elsewhere && p < PLACE_COUNT; ++p) {
            sccd_fz_setup at = PLACES[e][p];
            long n = (o.scenes + PLACE_SHARE - 1) / PLACE_SHARE;
            printf("scene_fuzz %s: %ld scenes at origin %g, unit %g; first failures with CCD:\n",
                   sccd_fz_engine_name((sccd_fz_engine)e), n, at.origin, at.unit);
            run_engine(&o, (sccd_fz_engine)e, at, n, &r.other[e][p]);
            print_tally((sccd_fz_engine)e, &r.other[e][p]);
            with += sum(r.other[e][p].with);
        }
        r.placed[e] = elsewhere;
    }
    if (o.calibrate) {
        printf("scene_fuzz: --calibrate: the \"with CCD\" counts above are plain runs in %d-%d sub-steps per step\n",
               SCCD_FZ_MIN_SUBSTEPS, SCCD_FZ_MAX_SUBSTEPS);
        return 0;
    }
    write_csv(&o, &r);
    write_md(&o, &r);
    bool guard_ok = true;
    for (int e = 0; o.quick && e < SCCD_FZ_ENGINES; ++e) {
        if (r.ran[e])
            guard_ok &= quick_guard((sccd_fz_engine)e, &r.main[e]);
        for (int p = 0; r.placed[e] && p < PLACE_COUNT; ++p)
            guard_ok &= quick_guard((sccd_fz_engine)e, &r.other[e][p]);
    }
    if (!guard_ok)
        return 1;
    if (o.check && with > 0) {
        fprintf(stderr, "scene_fuzz: FAILED (--check): %ld scenes pass through with the CCD\n", with);
        return 1;
    }
    return 0;
}
