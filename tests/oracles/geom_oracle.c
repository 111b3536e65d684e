#include "geom_oracle.h"

/* Golden-section search for the minimum of a convex f on [0, 1]; the end
 * points are evaluated too, so a minimum at a bound is found exactly. Every
 * value returned is f at some parameter: the result never undercuts the true
 * minimum (beyond rounding in f). 60 steps shrink the bracket to 0.618⁶⁰ ≈
 * 3e-13. */
typedef double oracle_fn(double u, const void *ctx);

static double golden_min(oracle_fn *f, const void *ctx)
{
    const double k = 0.6180339887498949;
    double lo = 0.0, hi = 1.0;
    double x1 = hi - k * (hi - lo), x2 = lo + k * (hi - lo);
    double f1 = f(x1, ctx), f2 = f(x2, ctx);
    for (int i = 0; i < 60; ++i) {
        if (f1 <= f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - k * (hi - lo), f1 = f(x1, ctx);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + k * (hi - lo), f2 = f(x2, ctx);
        }
    }
    double best = f1 < f2 ? f1 : f2;
    double e0 = f(0.0, ctx), e1 = f(1.0, ctx);
    best = e0 < best ? e0 : best;
    return e1 < best ? e1 : best;
}

/* The segments as coordinate arrays; dim 2 or 3. */
typedef struct seg_pair { double p1[3], q1[3], p2[3], q2[3]; int dim; double s; } seg_pair;

static double point_dist(const seg_pair *g, double s, double t)
{
    double sum = 0.0;
    for (int i = 0; i < g->dim; ++i) {
        double a = g->p1[i] + s * (g->q1[i] - g->p1[i]);
        double b = g->p2[i] + t * (g->q2[i] - g->p2[i]);
        sum += (a - b) * (a - b);
    }
    return sqrt(sum);
}

static double inner(double t, const void *ctx)
{
    const seg_pair *g = ctx;
    return point_dist(g, g->s, t);
}

/* min over t of the distance: convex in s, as the partial minimum of a
 * jointly convex function. */
static double outer(double s, const void *ctx)
{
    seg_pair g = *(const seg_pair *)ctx;
    g.s = s;
    return golden_min(inner, &g);
}

double sccd_oracle_segment_distance2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2)
{
    seg_pair g = {{p1.x, p1.y}, {q1.x, q1.y}, {p2.x, p2.y}, {q2.x, q2.y}, 2, 0.0};
    return golden_min(outer, &g);
}

double sccd_oracle_segment_distance3(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2)
{
    seg_pair g = {{p1.x, p1.y, p1.z}, {q1.x, q1.y, q1.z}, {p2.x, p2.y, p2.z}, {q2.x, q2.y, q2.z}, 3, 0.0};
    return golden_min(outer, &g);
}

double sccd_oracle_point_segment_distance2(sccd_v2 p, sccd_v2 a, sccd_v2 b)
{
    seg_pair g = {{p.x, p.y}, {p.x, p.y}, {a.x, a.y}, {b.x, b.y}, 2, 0.0};
    return golden_min(inner, &g);
}

double sccd_oracle_point_segment_distance3(sccd_v3 p, sccd_v3 a, sccd_v3 b)
{
    seg_pair g = {{p.x, p.y, p.z}, {p.x, p.y, p.z}, {a.x, a.y, a.z}, {b.x, b.y, b.z}, 3, 0.0};
    return golden_min(inner, &g);
}

bool sccd_oracle_segment_meets_box(const double *p, const double *q, const double *h, int dim)
{
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < dim; ++i) {
        double d = q[i] - p[i];
        if (d == 0.0) {
            if (fabs(p[i]) > h[i])
                return false;
            continue;
        }
        double t1 = (-h[i] - p[i]) / d, t2 = (h[i] - p[i]) / d;
        if (t1 > t2) {
            double x = t1;
            t1 = t2, t2 = x;
        }
        lo = t1 > lo ? t1 : lo;
        hi = t2 < hi ? t2 : hi;
        if (lo > hi)
            return false;
    }
    return true;
}
