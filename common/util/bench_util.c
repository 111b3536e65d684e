/* Benchmark protocol helpers (bench_util.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

bool sccd_bench_args(int argc, char **argv, const char *name, bool *quick, const char **out)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            *quick = true;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            *out = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quick] [--out DIR]\n", name);
            return false;
        }
    }
    return true;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sccd_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

FILE *sccd_bench_open(const char *dir, const char *name, const char *ext)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: cannot write %s\n", name, path);
    return f;
}

/* The count at the start of a callgrind_annotate line ("1,234,567 (…)  file:function [binary]"). */
static double leading_count(const char *line)
{
    double n = 0.0;
    bool digits = false;
    for (const char *c = line; *c != '\0'; ++c) {
        if (*c >= '0' && *c <= '9') {
            n = 10.0 * n + (*c - '0');
            digits = true;
        } else if (*c != ',' && (digits || *c != ' ')) {
            break;
        }
    }
    return digits ? n : -1.0;
}

/* One run of a command under callgrind, started in the background: its
 * output file and process. */
typedef struct callgrind_run { char out[256]; pid_t pid; } callgrind_run;

/* Start `command` under callgrind, collecting inside calls of the functions
 * `toggles` (a NULL-terminated list, up to 16; each a --toggle-collect, so
 * none may run inside another: it would turn the collection off), the
 * costs zeroed at each call of `from` (NULL: never). False when it cannot
 * start. */
static bool callgrind_start(callgrind_run *r, const char *command, const char *const *toggles, const char *from)
{
    static int runs = 0;
    char flags[1024] = "", cmd[2048];
    snprintf(r->out, sizeof r->out, "/tmp/sccd_bench_cg.%d.%d", (int)getpid(), runs++);
    r->pid = -1;
    size_t used = from != NULL ? (size_t)snprintf(flags, sizeof flags, " --zero-before=%s", from) : 0;
    if (used >= sizeof flags)
        return false;
    for (int k = 0; toggles[k] != NULL && k < 16; ++k) {
        int w = snprintf(flags + used, sizeof flags - used, " --toggle-collect=%s", toggles[k]);
        if (w < 0 || (size_t)w >= sizeof flags - used)
            return false;
        used += (size_t)w;
    }
    snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --callgrind-out-file=%s%s %s >/dev/null 2>&1", r->out, flags, command);
    fflush(NULL); /* nothing buffered is written twice */
    r->pid = fork();
    if (r->pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return r->pid > 0;
}

/* Wait for run r: the instructions it collected (PROGRAM TOTALS), negative
 * when valgrind or callgrind_annotate is missing or the command failed. */
static double callgrind_finish(callgrind_run *r)
{
    int status = 0;
    double total = -1.0;
    if (r->pid > 0 && waitpid(r->pid, &status, 0) == r->pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        char cmd[512], line[2048];
        snprintf(cmd, sizeof cmd, "callgrind_annotate --threshold=100 --auto=no %.255s 2>/dev/null", r->out);
        FILE *p = popen(cmd, "r");
        while (p != NULL && fgets(line, sizeof line, p) != NULL)
            if (strstr(line, "PROGRAM TOTALS") != NULL)
                total = leading_count(line);
        if (p == NULL || pclose(p) != 0)
            total = -1.0;
    }
    remove(r->out);
    return total;
}

/* Runs at once: one per processor (instruction counts do not depend on
 * what else runs), at most 8. */
static int callgrind_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

/* Each repetition takes three runs: without CCD, with it, and with it
 * collecting inside the CCD's calls alone. The parts are counted in a run
 * of their own, not read off the second run's inclusive costs:
 * callgrind_annotate lists a function once per spelling of its file's path,
 * and a function called from two files (the Chipmunk CCD phase: from a CCD
 * body's position function and from a flying body's) had its cost split
 * between the spellings, so the largest of them, read as the whole, was two
 * thirds of it. The runs go in parallel, finished in order. */
sccd_bench_counts sccd_bench_count_scene(const char *self, int scene, const char *collect, const char *const *parts, const char *from,
                                         int steps, int reps, sccd_bench_counts *each)
{
    enum { OFF, ON, PARTS, KINDS };
    if (reps < 1 || reps > SCCD_BENCH_COUNT_REPS)
        return (sccd_bench_counts){0.0, 0.0, 0.0};
    const char *const whole[] = {collect, NULL};
    bool counted_parts = parts != NULL && parts[0] != NULL;
    double v[KINDS][SCCD_BENCH_COUNT_REPS], per = 1e-6 / steps;
    callgrind_run run[KINDS * SCCD_BENCH_COUNT_REPS];
    int tasks = KINDS * reps, workers = callgrind_workers();
    bool ok = true;
    for (int started = 0, done = 0; done < tasks; ++done) {
        for (; started < tasks && started - done < workers; ++started) {
            int kind = started % KINDS, r = started / KINDS;
            char cmd[1024];
            snprintf(cmd, sizeof cmd, "%s --count %d %d %d", self, scene, kind != OFF, r);
            run[started].pid = -1;
            if (kind != PARTS || counted_parts)
                ok &= callgrind_start(&run[started], cmd, kind == PARTS ? parts : whole, from);
        }
        int kind = done % KINDS;
        double n = kind == PARTS && !counted_parts ? 0.0 : callgrind_finish(&run[done]);
        ok &= kind == PARTS ? n >= 0.0 : n > 0.0;
        v[kind][done / KINDS] = n * per;
    }
    if (!ok)
        return (sccd_bench_counts){0.0, 0.0, 0.0};
    for (int r = 0; each != NULL && r < reps; ++r)
        each[r] = (sccd_bench_counts){v[OFF][r], v[ON][r], v[PARTS][r]};
    return (sccd_bench_counts){sccd_median(v[OFF], reps), sccd_median(v[ON], reps), sccd_median(v[PARTS], reps)};
}

const char *sccd_bench_mega(char *buf, size_t n, double m)
{
    if (m > 0.0)
        snprintf(buf, n, "%.2f", m);
    else
        snprintf(buf, n, "—");
    return buf;
}
