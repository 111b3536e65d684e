/* Helpers for benchmark programs (the bench protocol of the brief). */
#ifndef SCCD_BENCH_UTIL_H
#define SCCD_BENCH_UTIL_H

#include <stdbool.h>

/// Parse the protocol's arguments: --quick sets *quick, --out DIR sets *out; false on anything else.
bool sccd_bench_args(int argc, char **argv, bool *quick, const char **out);
/// The median of v[0..n) (n ≥ 1); sorts v.
double sccd_median(double *v, int n);

#endif
