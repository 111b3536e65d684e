/* Benchmark protocol helpers (bench_util.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The instructions (PROGRAM TOTALS) `command` runs under callgrind inside
 * calls of the functions `toggles` (a NULL-terminated list, up to 16; each
 * a --toggle-collect, so none may run inside another: it would turn the
 * collection off). Negative when valgrind or callgrind_annotate is missing
 * or the command failed. */
static double callgrind_total(const char *command, const char *const *toggles)
{
    static int runs = 0;
    char out[256], flags[1024] = "", cmd[2048], line[2048];
    snprintf(out, sizeof out, "/tmp/sccd_bench_cg.%d.%d", (int)getpid(), runs++);
    size_t used = 0;
    for (int k = 0; toggles[k] != NULL && k < 16; ++k) {
        int w = snprintf(flags + used, sizeof flags - used, " --toggle-collect=%s", toggles[k]);
        if (w < 0 || (size_t)w >= sizeof flags - used)
            return -1.0;
        used += (size_t)w;
    }
    snprintf(cmd, sizeof cmd, "valgrind --tool=callgrind --callgrind-out-file=%s%s %s >/dev/null 2>&1", out, flags, command);
    double total = -1.0;
    if (system(cmd) == 0) {
        snprintf(cmd, sizeof cmd, "callgrind_annotate --threshold=100 --auto=no %s 2>/dev/null", out);
        FILE *p = popen(cmd, "r");
        while (p != NULL && fgets(line, sizeof line, p) != NULL)
            if (strstr(line, "PROGRAM TOTALS") != NULL)
                total = leading_count(line);
        if (p == NULL || pclose(p) != 0)
            total = -1.0;
    }
    remove(out);
    return total;
}

/* The parts are counted in a run of their own (collecting inside them
 * alone), not read off the first run's inclusive costs: callgrind_annotate
 * lists a function once per spelling of its file's path, and a function
 * called from two files (the Chipmunk CCD phase: from a CCD body's
 * position function and from a flying body's) had its cost split between
 * the spellings, so the largest of them, read as the whole, was two thirds
 * of it. */
bool sccd_bench_instructions(const char *command, const char *collect, const char *const *parts, double *total, double *in_parts)
{
    const char *const whole[] = {collect, NULL};
    *total = callgrind_total(command, whole);
    *in_parts = parts != NULL && parts[0] != NULL ? callgrind_total(command, parts) : 0.0;
    bool ok = *total > 0.0 && *in_parts >= 0.0;
    if (!ok)
        *total = *in_parts = 0.0;
    return ok;
}

sccd_bench_counts sccd_bench_count_scene(const char *self, int scene, const char *collect, const char *const *parts, int steps,
                                         int reps, sccd_bench_counts *each)
{
    double off[SCCD_BENCH_COUNT_REPS], on[SCCD_BENCH_COUNT_REPS], ccd[SCCD_BENCH_COUNT_REPS], none, per = 1e-6 / steps;
    bool ok = reps >= 1 && reps <= SCCD_BENCH_COUNT_REPS;
    for (int r = 0; ok && r < reps; ++r) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "%s --count %d 0 %d", self, scene, r);
        ok = sccd_bench_instructions(cmd, collect, NULL, &off[r], &none);
        snprintf(cmd, sizeof cmd, "%s --count %d 1 %d", self, scene, r);
        ok = ok && sccd_bench_instructions(cmd, collect, parts, &on[r], &ccd[r]);
        if (ok && each != NULL)
            each[r] = (sccd_bench_counts){off[r] * per, on[r] * per, ccd[r] * per};
    }
    if (!ok)
        return (sccd_bench_counts){0.0, 0.0, 0.0};
    return (sccd_bench_counts){sccd_median(off, reps) * per, sccd_median(on, reps) * per, sccd_median(ccd, reps) * per};
}

const char *sccd_bench_mega(char *buf, size_t n, double m)
{
    if (m > 0.0)
        snprintf(buf, n, "%.2f", m);
    else
        snprintf(buf, n, "—");
    return buf;
}
