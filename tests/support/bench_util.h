/* Helpers shared by the evaluation benchmarks (bench/accuracy.c,
 * bench/accuracy2d.c, bench/speed.c): the bench protocol's command line
 * (--quick, --out DIR, --trials N), output files in DIR, a monotonic clock,
 * medians, and per-trial seeds that do not depend on the thread count. */
#ifndef SCCD_BENCH_UTIL_H
#define SCCD_BENCH_UTIL_H

#include <stdint.h>
#include <stdio.h>

/// Parsed command line of a benchmark.
typedef struct sccd_bench_args {
    int quick;        ///< --quick: the CI run (seconds), self-checks only
    const char *out;  ///< --out DIR (default "build/bench")
    long trials;      ///< --trials N (0 = the program's default)
    int threads;      ///< --threads N (default 2)
    const char *only; ///< --callgrind NAME: run only the named test (speed.c)
} sccd_bench_args;

/// Parses argv; prints usage and exits 2 on an unknown option.
sccd_bench_args sccd_bench_parse(int argc, char **argv, const char *usage);
/// Opens DIR/name for writing (creating DIR); exits 1 with a message when it cannot.
FILE *sccd_bench_open(const sccd_bench_args *a, const char *name);
/// Monotonic time in nanoseconds (CLOCK_MONOTONIC).
double sccd_bench_now_ns(void);
/// Median of n values (sorts v in place); 0 when n = 0.
double sccd_bench_median(double *v, int n);
/// A well-mixed 64-bit seed for trial i of a run seeded with base (splitmix64), so each trial's numbers do not depend on which thread runs it.
uint64_t sccd_bench_seed(uint64_t base, uint64_t i);

#endif
