/* The bench protocol's command line and output files (bench/NAME.c takes
 * [--quick] [--out DIR] and writes DIR/NAME.csv and DIR/NAME.md). */
#ifndef SCCD_BENCH_FILES_H
#define SCCD_BENCH_FILES_H

#include <stdbool.h>
#include <stdio.h>

/// Defaults (not quick, out "build/bench"), then sccd_bench_args; false after printing the usage of name.
bool sccd_bench_start(int argc, char **argv, const char *name, bool *quick, const char **out);

/// Open DIR/NAME.EXT for writing; NULL (with a message on stderr) when it cannot.
FILE *sccd_bench_open(const char *dir, const char *name, const char *ext);

#endif
