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
/// Instructions per step (millions) of a scene without CCD (off) and with it (on), and of those the CCD's (ccd); zeros: not counted.
typedef struct sccd_bench_counts { double off, on, ccd; } sccd_bench_counts;
/// Repetitions whose instructions the overhead benchmarks count (and the most sccd_bench_count_scene takes): a pile's cost swings by a quarter with its rain (callgrind, the CCD of swords buried in a pile: 1.91 to 2.50 G over seven rains), so a median of three could not tell a change of a few percent.
#define SCCD_BENCH_COUNT_REPS 7
/// Count `self --count SCENE 0 REP` and `self --count SCENE 1 REP` (a bench program's child mode: repetition REP of the scene without and with CCD) under valgrind's callgrind for REP = 0 .. reps − 1 (reps ≤ SCCD_BENCH_COUNT_REPS), collecting inside calls of the function `collect` (all it calls included) and, in a third run, inside calls of the functions `parts` (a NULL-terminated list of up to 16, none running inside another), from the call of the function `from` on when it is not NULL (a function called once, where the counted steps start: the counts are zeroed at each of its calls; what ran before, untimed steps, is not counted, though the parts run there too); the runs go in parallel, one per processor. Per step of `steps`: the medians of off, on and ccd (the parts) over them; each repetition's into each[REP] when each is not NULL. Zeros when one cannot be counted (valgrind or callgrind_annotate missing: scripts/deps.sh --bench; a run failed).
sccd_bench_counts sccd_bench_count_scene(const char *self, int scene, const char *collect, const char *const *parts, const char *from,
                                         int steps, int reps, sccd_bench_counts *each);
/// m millions as "12.34" in buf, or "—" when m is 0 (not counted); returns buf.
const char *sccd_bench_mega(char *buf, size_t n, double m);

#endif
