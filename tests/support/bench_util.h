/* Shared by the benchmark programs in bench/: the command line of the
 * bench protocol and the output files. */
#ifndef SCCD_BENCH_UTIL_H
#define SCCD_BENCH_UTIL_H

#include <stdbool.h>
#include <stdio.h>

/// Parse `[--quick] [--out DIR]`: *quick and *out (default "build/bench") are set from argv.
void sccd_bench_args(int argc, char **argv, bool *quick, const char **out);

/// Open DIR/NAME.EXT for writing; NULL (with a message on stderr) when it cannot.
FILE *sccd_bench_open(const char *dir, const char *name, const char *ext);

#endif
