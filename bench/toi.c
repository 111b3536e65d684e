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
 * TOI on the first N; (Ir(CG_CASES) − Ir(0)) / CG_CASES is the mean count
 * per query with the set-up cancelled. */
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

/* Total instructions (Ir) of `self --callgrind key calls` under callgrind; < 0 on failure. */
static double callgrind_ir(const char *self, const char *key, int calls)
{
    char file[256], cmd[1024], line[512];
    snprintf(file, sizeof file, "/tmp/sccd_toi_cg.%d.%s.%d", (int)getpid(), key, calls);
    snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --callgrind-out-file=%s %s --callgrind %s %d >/dev/null 2>&1",
             file, self, key, calls);
    if (system(cmd) != 0)
        return -1.0;
    FILE *f = fopen(file, "r");
    double ir = -1.0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "summary:", 8) == 0 || strncmp(line, "totals:", 7) == 0)
            ir = atof(line + (line[0] == 's' ? 8 : 7));
    if (f)
        fclose(f);
    remove(file);
    return ir;
}

/* Mean instructions per TOI query of one scenario; < 0 when valgrind fails. */
static double instructions_per_query(const char *self, const char *key)
{
    double a = callgrind_ir(self, key, 0), b = callgrind_ir(self, key, CG_CASES);
    return a >= 0.0 && b >= 0.0 ? (b - a) / CG_CASES : -1.0;
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
                 "time_ratio_to_baseline,instructions_per_query\n");
    fprintf(md, "## Time of impact (`bench/toi.c`)\n\n");
    fprintf(md, "Distance evaluations per query and CPU time per query (median of %d runs) of the library's TOI, "
                "plain conservative advancement (same GJK, plain speed bound; the baseline) and the pipeline "
                "(sweep pre-filter with 1 or 4 bands, then the TOI; its iteration count is 0 for a rejected pair). %d cases per scenario; iteration cap %d. "
                "*random 2D / 3D*: the test cases of tests/oracles/toi_cases.c (spins up to 4π, both bodies "
                "moving); *thin wall*: a 2 m × 2 cm blade turning about its end at 10,000 rad/s for a 60 Hz step "
                "against a 1 cm wall, over the starting phases. *instructions / query*: the library's TOI under "
                "valgrind's callgrind, mean over the first %d cases (set-up cancelled; full runs only); before "
                "issue 14's lean TOI and GJK (commit c42a224) the random cases took 51.8k (2D) and 78.6k (3D).\n\n",
            REPS, n, SCCD_TOI_MAX_ITERATIONS, CG_CASES);
    fprintf(md, "| scenario | method | median it. | p90 | p99 | failed | hits | µs/query | time / baseline | "
                "instructions / query |\n");
    fprintf(md, "|---|---|---|---|---|---|---|---|---|---|\n");
    const char *scen[SCENARIOS] = {"random 2D", "random 3D", "thin wall 2D"};
    const void *sets[SCENARIOS] = {c2, c3, blades};
    int status = 0;
    for (int s = 0; s < SCENARIOS; ++s) {
        row rows[METHODS];
        for (int m = 0; m < METHODS; ++m)
            rows[m] = measure((method)m, dims[s], sets[s], n, iters);
        double instr = quick ? -1.0 : instructions_per_query(argv[0], scen_keys[s]);
        for (int m = 0; m < METHODS; ++m) {
            double ratio = rows[m].us / rows[M_PLAIN].us;
            char ir[32] = "–";
            if (m == M_TOI && instr >= 0.0)
                snprintf(ir, sizeof ir, "%.1fk", instr / 1000.0);
            fprintf(csv, "%s,%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.0f\n", scen[s], method_names[m], n, rows[m].median,
                    rows[m].p90, rows[m].p99, rows[m].failed, rows[m].hits, rows[m].us, ratio,
                    m == M_TOI ? instr : -1.0);
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
