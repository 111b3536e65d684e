/* Time of impact: distance evaluations and time per query of the library's
 * TOI (toi.h: tilted-support, chord and envelope bounds) against plain
 * conservative advancement as a baseline measured in the same run (the same
 * GJK, the plain bound |dpA − dpB| + |θA|·ρA + |θB|·ρB, the same target,
 * tolerance and cap), and the CCD pipeline (ccd.h, 1 and 4 bands) for its
 * pre-filter. Scenarios: the random 2D and 3D cases of the tests
 * (tests/oracles/toi_cases.c) and the 2D thin wall (a 2 m blade turning 26
 * times in one 60 Hz step).
 *
 *   build/bin/toi [--quick] [--out DIR]
 * writes DIR/toi.csv and DIR/toi.md; --quick runs fewer cases and exits
 * non-zero when the median iteration count exceeds 8 or the blade misses.
 * The full run also counts instructions per TOI query with valgrind's
 * callgrind: `toi --callgrind SCENARIO N` draws CG_CASES cases and runs the
 * TOI on the first N, under callgrind with a dump before and after each
 * call of the public TOI function, so each after-dump holds one query's
 * count: their median and mean are reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "toi_cases.h"

#define REPS 5
#define CG_CASES 2000 /* queries per scenario under callgrind */
#define SCENARIOS 3

typedef enum { M_TOI, M_PLAIN, M_CCD1, M_CCD4, METHODS } method;
static const char *method_names[METHODS] = {"sectorccd TOI", "plain CA (baseline)", "pipeline, 1 band", "pipeline, 4 bands"};
static const int method_bands[METHODS] = {0, 0, 1, 4};

typedef struct result { int iterations; int state; } result;

/* The baseline: advance by (d − target)/L on the GJK distance. */
static result plain_ca(sccd_distance_at_fn *f, const void *ctx, double target, double tol, double lip)
{
    double t = 0.0;
    for (int it = 1; it <= SCCD_TOI_MAX_ITERATIONS; ++it) {
        double d = f(ctx, t);
        if (d <= target + tol)
            return (result){it, SCCD_TOI_HIT};
        t += (d - target) / lip;
        if (t >= 1.0)
            return (result){it, SCCD_TOI_SEPARATED};
    }
    return (result){SCCD_TOI_MAX_ITERATIONS, SCCD_TOI_FAILED};
}

static result run2(method m, const toi_case2 *c)
{
    if (m == M_PLAIN)
        return plain_ca(sccd_toi_case2_distance, c, c->target, c->tol, c->lip);
    sccd_toi2 r = m == M_TOI ? sccd_toi2_compute(&c->a, c->ma, &c->b, c->mb, c->target, c->tol)
                             : sccd_ccd2(&c->a, c->ma, &c->b, c->mb, c->target, c->tol, method_bands[m], NULL);
    return (result){r.iterations, (int)r.state};
}

static result run3(method m, const toi_case3 *c)
{
    if (m == M_PLAIN)
        return plain_ca(sccd_toi_case3_distance, c, c->target, c->tol, c->lip);
    sccd_toi3 r = m == M_TOI ? sccd_toi3_compute(&c->a, c->ma, &c->b, c->mb, c->target, c->tol)
                             : sccd_ccd3(&c->a, c->ma, &c->b, c->mb, c->target, c->tol, method_bands[m], NULL);
    return (result){r.iterations, (int)r.state};
}

typedef struct row { int median, p90, p99, failed, hits; double us; } row;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Runs one method over n cases REPS times; iterations from the first run,
 * time per query the median of the repetitions. */
static row measure(method m, int dim, const void *cases, int n, int *iters)
{
    row r = {0};
    double times[REPS];
    for (int rep = 0; rep < REPS; ++rep) {
        double t0 = now();
        for (int i = 0; i < n; ++i) {
            result x = dim == 2 ? run2(m, &((const toi_case2 *)cases)[i]) : run3(m, &((const toi_case3 *)cases)[i]);
            if (rep == 0) {
                iters[i] = x.iterations;
                r.failed += x.state == SCCD_TOI_FAILED;
                r.hits += x.state == SCCD_TOI_HIT || x.state == SCCD_TOI_OVERLAPPED;
            }
        }
        times[rep] = (now() - t0) / n * 1e6;
    }
    qsort(times, REPS, sizeof times[0], cmp_double);
    r.us = times[REPS / 2];
    r.median = sccd_quantile_int(iters, n, 0.5);
    r.p90 = sccd_quantile_int(iters, n, 0.9);
    r.p99 = sccd_quantile_int(iters, n, 0.99);
    return r;
}

static toi_case2 blade_case(int k, int n)
{
    sccd_shape2 blade = {.type = SCCD_SHAPE_BOX, .box = {{1.0, 0.0}, {1.0, 0.0}, {1.0, 0.01}}};
    sccd_shape2 wall = {.type = SCCD_SHAPE_BOX, .box = {{0.0, 0.0}, {1.0, 0.0}, {0.005, 3.0}}};
    double phase = SCCD_PI / 2 + 0.05 + (SCCD_PI - 0.1) * k / (n - 1.0);
    toi_case2 c = {blade, wall, {{{0.0, 0.0}, sccd_rot2_make(phase)}, {0.0, 0.0}, {0.0, 0.0}, 10000.0 / 60.0},
                   {{{1.0, 0.0}, {1.0, 0.0}}, {0.0, 0.0}, {0.0, 0.0}, 0.0}, 0.0, 1e-4, 0.0};
    c.lip = sccd_toi_case2_lipschitz(&c);
    return c;
}

static const char *scen_keys[SCENARIOS] = {"2d", "3d", "blade"};
static const int dims[SCENARIOS] = {2, 3, 2};

/* The n cases of every scenario, drawn alike in every mode. */
static void draw_cases(int n, toi_case2 *c2, toi_case3 *c3, toi_case2 *blades)
{
    sccd_rng g = sccd_rng_make(20261121);
    for (int i = 0; i < n; ++i) {
        c2[i] = sccd_rng_toi_case2(&g);
        c3[i] = sccd_rng_toi_case3(&g);
        blades[i] = blade_case(i, n);
    }
}

/* `--callgrind KEY N`: the TOI on the first N of CG_CASES cases of scenario KEY. */
static int callgrind_child(const char *key, int calls)
{
    static toi_case2 c2[CG_CASES], blades[CG_CASES];
    static toi_case3 c3[CG_CASES];
    draw_cases(CG_CASES, c2, c3, blades);
    const void *sets[SCENARIOS] = {c2, c3, blades};
    for (int s = 0; s < SCENARIOS; ++s)
        if (strcmp(key, scen_keys[s]) == 0) {
            for (int i = 0; i < calls && i < CG_CASES; ++i)
                dims[s] == 2 ? (void)run2(M_TOI, &((const toi_case2 *)sets[s])[i])
                             : (void)run3(M_TOI, &((const toi_case3 *)sets[s])[i]);
            return 0;
        }
    return 2;
}

static int cmp_long(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

/* One query's instructions from a callgrind dump file: its summary when the
 * dump was taken after the TOI function returned; −1 otherwise. */
static long dump_after_count(const char *file)
{
    FILE *f = fopen(file, "r");
    char line[512];
    bool after = false;
    long ir = -1;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "desc: Trigger: --dump-after", 27) == 0)
            after = true;
        if (strncmp(line, "summary:", 8) == 0)
            ir = atol(line + 8);
    }
    if (f)
        fclose(f);
    return after ? ir : -1;
}

/* Median and mean instructions per TOI query (function fn) over the
 * CG_CASES cases of scenario key; false when valgrind fails. */
static bool instructions_per_query(const char *self, const char *key, const char *fn, double *median, double *mean)
{
    char dir[] = "/tmp/sccd_toi_cg.XXXXXX", cmd[1024], file[512];
    if (!mkdtemp(dir))
        return false;
    snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --callgrind-out-file=%s/cg --dump-before=%s --dump-after=%s "
                              "%s --callgrind %s %d >/dev/null 2>&1", dir, fn, fn, self, key, CG_CASES);
    bool ok = system(cmd) == 0;
    static long counts[CG_CASES];
    int n = 0;
    /* Dumps go to cg.1, cg.2, ... (one before and one after each call), the final one to cg. */
    for (int k = 1; k <= 2 * CG_CASES + 1; ++k) {
        snprintf(file, sizeof file, "%s/cg.%d", dir, k);
        long ir = dump_after_count(file);
        if (ir >= 0 && n < CG_CASES)
            counts[n++] = ir;
        remove(file);
    }
    snprintf(file, sizeof file, "%s/cg", dir);
    remove(file);
    rmdir(dir);
    if (!ok || n != CG_CASES)
        return false;
    qsort(counts, n, sizeof counts[0], cmp_long);
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        sum += counts[i];
    *median = 0.5 * (counts[(n - 1) / 2] + counts[n / 2]);
    *mean = sum / n;
    return true;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--callgrind") == 0)
        return callgrind_child(argv[2], atoi(argv[3]));
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "toi", &quick, &out))
        return 2;
    int n = quick ? 2000 : 20000;
    toi_case2 *c2 = malloc(sizeof *c2 * n), *blades = malloc(sizeof *blades * n);
    toi_case3 *c3 = malloc(sizeof *c3 * n);
    int *iters = malloc(sizeof *iters * n);
    if (!c2 || !c3 || !blades || !iters)
        return 1;
    draw_cases(n, c2, c3, blades);
    FILE *csv = sccd_bench_open(out, "toi", "csv"), *md = sccd_bench_open(out, "toi", "md");
    if (!csv || !md)
        return 1;
    fprintf(csv, "scenario,method,cases,median_iterations,p90_iterations,p99_iterations,failed,hits,us_per_query,"
                 "time_ratio_to_baseline,median_instructions,mean_instructions\n");
    fprintf(md, "## Time of impact (`bench/toi.c`)\n\n");
    fprintf(md, "Distance evaluations per query and CPU time per query (median of %d runs) of the library's TOI, "
                "plain conservative advancement (same GJK, plain speed bound; the baseline) and the pipeline "
                "(sweep pre-filter with 1 or 4 bands, then the TOI; its iteration count is 0 for a rejected pair). %d cases per scenario; iteration cap %d. "
                "*random 2D / 3D*: the test cases of tests/oracles/toi_cases.c (spins up to 4π, both bodies "
                "moving); *thin wall*: a 2 m × 2 cm blade turning about its end at 10,000 rad/s for a 60 Hz step "
                "against a 1 cm wall, over the starting phases. *instructions / query*: the library's TOI "
                "(public entry, validation included) under valgrind's callgrind, median and mean over the first "
                "%d cases, one count per query (full runs only); before issue 14's lean TOI and GJK (commit "
                "c42a224, measured alike) they were 32.8k (47.1k) in random 2D, 48.9k (73.7k) in random 3D and "
                "67.1k (67.2k) on the thin wall.\n\n",
            REPS, n, SCCD_TOI_MAX_ITERATIONS, CG_CASES);
    fprintf(md, "| scenario | method | median it. | p90 | p99 | failed | hits | µs/query | time / baseline | "
                "instructions / query, median (mean) |\n");
    fprintf(md, "|---|---|---|---|---|---|---|---|---|---|\n");
    const char *scen[SCENARIOS] = {"random 2D", "random 3D", "thin wall 2D"};
    const void *sets[SCENARIOS] = {c2, c3, blades};
    int status = 0;
    for (int s = 0; s < SCENARIOS; ++s) {
        row rows[METHODS];
        for (int m = 0; m < METHODS; ++m)
            rows[m] = measure((method)m, dims[s], sets[s], n, iters);
        double instr = -1.0, instr_mean = -1.0;
        if (!quick && !instructions_per_query(argv[0], scen_keys[s], dims[s] == 2 ? "sccd_toi2_compute" : "sccd_toi3_compute",
                                              &instr, &instr_mean))
            instr = instr_mean = -1.0;
        for (int m = 0; m < METHODS; ++m) {
            double ratio = rows[m].us / rows[M_PLAIN].us;
            char ir[48] = "–";
            if (m == M_TOI && instr >= 0.0)
                snprintf(ir, sizeof ir, "%.1fk (%.1fk)", instr / 1000.0, instr_mean / 1000.0);
            fprintf(csv, "%s,%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.0f,%.0f\n", scen[s], method_names[m], n, rows[m].median,
                    rows[m].p90, rows[m].p99, rows[m].failed, rows[m].hits, rows[m].us, ratio,
                    m == M_TOI ? instr : -1.0, m == M_TOI ? instr_mean : -1.0);
            fprintf(md, "| %s | %s | %d | %d | %d | %d | %d | %.2f | %.2f | %s |\n", scen[s], method_names[m],
                    rows[m].median, rows[m].p90, rows[m].p99, rows[m].failed, rows[m].hits, rows[m].us, ratio, ir);
            printf("%-13s %-20s median %2d p90 %2d p99 %2d failed %5d hits %5d  %.2f us (x%.2f) %s instr\n",
                   scen[s], method_names[m], rows[m].median, rows[m].p90, rows[m].p99, rows[m].failed, rows[m].hits,
                   rows[m].us, ratio, ir);
        }
        if (rows[M_TOI].median > 8)
            status = 1;
        if (s == 2 && rows[M_TOI].hits != n)
            status = 1;
    }
    fclose(csv);
    fclose(md);
    free(c2);
    free(c3);
    free(blades);
    free(iters);
    if (status)
        fprintf(stderr, "toi: median iterations above 8 or a blade that missed the wall\n");
    return status;
}
