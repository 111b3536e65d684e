#include "bnb.h"

#include <math.h>
#include <stdlib.h>

typedef struct cell {
    double c[3], w[3];
    double f, bound;
} cell;

typedef struct heap {
    cell *v;
    long n, cap;
} heap;

static void heap_push(heap *h, cell x)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 256;
        h->v = realloc(h->v, (size_t)h->cap * sizeof(cell));
    }
    long i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2].bound > x.bound) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static cell heap_pop(heap *h)
{
    cell top = h->v[0], last = h->v[--h->n];
    long i = 0;
    for (;;) {
        long m = 2 * i + 1;
        if (m >= h->n)
            break;
        if (m + 1 < h->n && h->v[m + 1].bound < h->v[m].bound)
            ++m;
        if (h->v[m].bound >= last.bound)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (h->n > 0)
        h->v[i] = last;
    return top;
}

typedef struct search {
    sccd_bnb_fn *f;
    const void *ctx;
    int k;
    const double *lip;
    sccd_bnb r;
    heap h;
} search;

static void visit(search *s, cell x)
{
    x.f = s->f(x.c, s->ctx);
    ++s->r.evals;
    x.bound = x.f;
    for (int i = 0; i < s->k; ++i)
        x.bound -= s->lip[i] * x.w[i];
    if (x.f < s->r.hi) {
        s->r.hi = x.f;
        for (int i = 0; i < s->k; ++i)
            s->r.arg[i] = x.c[i];
    }
    /* A cell that cannot beat the best value found holds nothing new. */
    if (x.bound < s->r.hi)
        heap_push(&s->h, x);
}

/* Refine until the gap closes, the budget ends, or the early stops hold:
 * hi ≤ stop_hi (a low enough point found) or lo > stop_lo (proven above). */
static sccd_bnb run(sccd_bnb_fn *f, const void *ctx, int k, const double *lo, const double *hi, const double *lip,
                    double gap, long max_evals, double stop_hi, double stop_lo)
{
    search s = {f, ctx, k, lip, {INFINITY, INFINITY, {0.0, 0.0, 0.0}, 0}, {NULL, 0, 0}};
    cell root = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, 0.0};
    for (int i = 0; i < k; ++i) {
        root.c[i] = 0.5 * (lo[i] + hi[i]);
        root.w[i] = 0.5 * (hi[i] - lo[i]);
    }
    visit(&s, root);
    for (;;) {
        double lower = s.h.n > 0 ? fmin(s.h.v[0].bound, s.r.hi) : s.r.hi;
        s.r.lo = lower;
        if (s.r.hi - lower <= gap || s.r.evals >= max_evals || s.r.hi <= stop_hi || lower > stop_lo)
            break;
        cell x = heap_pop(&s.h);
        int a = 0;
        for (int i = 1; i < k; ++i)
            if (lip[i] * x.w[i] > lip[a] * x.w[a])
                a = i;
        x.w[a] *= 0.5;
        cell l = x, r = x;
        l.c[a] -= x.w[a];
        r.c[a] += x.w[a];
        visit(&s, l);
        visit(&s, r);
    }
    free(s.h.v);
    return s.r;
}

sccd_bnb sccd_bnb_min(sccd_bnb_fn *f, const void *ctx, int k, const double *lo, const double *hi, const double *lip,
                      double gap, long max_evals)
{
    return run(f, ctx, k, lo, hi, lip, gap, max_evals, -INFINITY, INFINITY);
}

int sccd_bnb_sign(sccd_bnb_fn *f, const void *ctx, int k, const double *lo, const double *hi, const double *lip,
                  double thr, double gap, long max_evals)
{
    sccd_bnb r = run(f, ctx, k, lo, hi, lip, gap, max_evals, thr, thr);
    if (r.hi <= thr)
        return -1;
    return r.lo > thr ? 1 : 0;
}
