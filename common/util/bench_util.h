/* Small helpers of the benchmark protocol: the command line every bench
 * program takes, the median of repetitions and the output files. */
#ifndef SCCD_BENCH_UTIL_H
#define SCCD_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// Parse `[--quick] [--out DIR]` (out keeps its value unless given); prints a usage line naming `name` and returns false on anything else.
bool sccd_bench_args(int argc, char **argv, const char *name, bool *quick, const char **out);
/// The median of v[0..n) (n ≥ 1; sorts v in place).
double sccd_median(double *v, int n);
/// Open DIR/NAME.EXT for writing; NULL (with a message on stderr) when it cannot.
FILE *sccd_bench_open(const char *dir, const char *name, const char *ext);

#endif
