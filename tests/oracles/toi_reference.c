#include <stdlib.h>

#include <math.h>

#include "sectorccd/toi.h"
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

const char *sccd_ref_check_toi(sccd_distance_at_fn *f, const void *ctx, double lip, double target, double tol,
                               sccd_toi_report r, bool *strict_late, int *undecided)
{
    *strict_late = false;
    if (!isfinite(r.t) || r.t < 0.0 || r.t > 1.0)
        return "t outside [0, 1]";
    int steps;
    double late = sccd_ref_first_contact(f, ctx, lip, fmax(0.0, target - 0.5 * tol), &steps);
    *undecided += late < 0.0;
    bool contact = late >= 0.0 && late <= 1.0;
    switch ((sccd_toi_state)r.state) {
    case SCCD_TOI_SEPARATED:
        return contact ? "separated, but the reference finds contact" : (r.t == 1.0 ? NULL : "separated before 1");
    case SCCD_TOI_OVERLAPPED:
        return r.t == 0.0 && f(ctx, 0.0) <= 1e-9 ? NULL : "overlapped, but not touching at 0";
    case SCCD_TOI_HIT:
        if (f(ctx, r.t) > target + tol + 1e-9)
            return "hit farther than target + tolerance";
        break;
    case SCCD_TOI_FAILED:
        break;
    }
    if (contact && r.t > late + 1e-9)
        return "later than the first contact";
    double strict = sccd_ref_first_contact(f, ctx, lip, target, &steps);
    *strict_late = strict >= 0.0 && strict <= 1.0 && r.t > strict + 1e-9;
    return NULL;
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
