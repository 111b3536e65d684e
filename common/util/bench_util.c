/* Benchmark protocol helpers (bench_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
