/* Small helpers of the benchmark protocol (helpers/BRIEF.md "The build"):
 * the command line every bench program takes and the median of repetitions. */
#ifndef SCCD_BENCH_UTIL_H
#define SCCD_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// Parse `[--quick] [--out DIR]` (out keeps its value unless given); prints a usage line naming `name` and returns false on anything else.
bool sccd_bench_args(int argc, char **argv, const char *name, bool *quick, const char **out);
/// The median of v[0..n) (n ≥ 1; sorts v in place).
double sccd_median(double *v, int n);
/// The demos' `--ccd` modes, in the order both demos' mode enums follow.
typedef enum sccd_demo_ccd { SCCD_DEMO_OFF, SCCD_DEMO_SECTOR, SCCD_DEMO_SPECULATIVE, SCCD_DEMO_SUBSTEP } sccd_demo_ccd;
/// Parse off|sector|speculative|substep:N into *mode and *substeps (1 unless substep); false on anything else.
bool sccd_demo_parse_ccd(const char *s, sccd_demo_ccd *mode, int *substeps);
/// The mode's file-name form ("off", "substep4", ...) written into buf; returns buf.
const char *sccd_demo_ccd_name(sccd_demo_ccd mode, int substeps, char *buf, size_t n);
/// Open DIR/NAME.EXT for writing; NULL (with a message on stderr) when it cannot.
FILE *sccd_bench_open(const char *dir, const char *name, const char *ext);

#endif
