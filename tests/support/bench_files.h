/* Output files of the bench protocol (bench/NAME.c writes DIR/NAME.csv and DIR/NAME.md). */
#ifndef SCCD_BENCH_FILES_H
#define SCCD_BENCH_FILES_H

#include <stdio.h>

/// Open DIR/NAME.EXT for writing; NULL (with a message on stderr) when it cannot.
FILE *sccd_bench_open(const char *dir, const char *name, const char *ext);

#endif
