#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

bool sccd_bench_args(int argc, char **argv, bool *quick, const char **out)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            *quick = true;
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            *out = argv[++i];
        else
            return false;
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
