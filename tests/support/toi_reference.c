#include <stdlib.h>

#include "toi_reference.h"

double sccd_ref_first_contact(sccd_distance_at_fn *f, const void *ctx, double lip, double x, int *steps)
{
    double t = 0.0;
    for (*steps = 0; *steps < 1000000; ++*steps) {
        double d = f(ctx, t);
        if (d <= x + 1e-12)
            return t;
        t += (d - x) / lip;
        if (t > 1.0)
            return 2.0;
    }
    return -1.0;
}

double sccd_ref_grid_contact(sccd_distance_at_fn *f, const void *ctx, double x, int samples)
{
    double prev = 0.0;
    for (int k = 0; k <= samples; ++k) {
        double t = (double)k / samples;
        if (f(ctx, t) > x) {
            prev = t;
            continue;
        }
        if (k == 0)
            return 0.0;
        double lo = prev, hi = t;
        for (int i = 0; i < 50; ++i) {
            double m = 0.5 * (lo + hi);
            if (f(ctx, m) <= x)
                hi = m;
            else
                lo = m;
        }
        return hi;
    }
    return 2.0;
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

int sccd_quantile_int(int *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof v[0], cmp_int);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i < 0 ? 0 : (i >= n ? n - 1 : i)];
}
