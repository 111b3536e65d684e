/* A certified minimiser for test oracles: branch and bound over a box of at
 * most 3 parameters for a function with known per-parameter Lipschitz
 * constants. A cell with centre c and half widths w cannot hold a value
 * below f(c) − Σ lip_i·w_i, so the bounds it returns are proven, not
 * sampled: lo ≤ min f ≤ hi. */
#ifndef SCCD_BNB_H
#define SCCD_BNB_H

#include <stdbool.h>

/// The function minimised: x holds k parameters.
typedef double sccd_bnb_fn(const double *x, const void *ctx);

/// Certified bounds lo ≤ min f ≤ hi, a point arg with f(arg) = hi, and the evaluations spent.
typedef struct sccd_bnb {
    double lo, hi;
    double arg[3];
    long evals;
} sccd_bnb;

/// Bounds on min f over the box [lo, hi] (k ≤ 3 parameters, f Lipschitz with constant lip[i] along parameter i), refined until hi − lo ≤ gap or evals ≥ max_evals.
sccd_bnb sccd_bnb_min(sccd_bnb_fn *f, const void *ctx, int k, const double *lo, const double *hi, const double *lip,
                      double gap, long max_evals);

/// Whether min f ≤ thr: −1 proven (a point with f ≤ thr found), +1 proven false (lower bound > thr), 0 undecided within gap or max_evals.
int sccd_bnb_sign(sccd_bnb_fn *f, const void *ctx, int k, const double *lo, const double *hi, const double *lip,
                  double thr, double gap, long max_evals);

#endif
