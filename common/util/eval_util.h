/* Helpers shared by the evaluation benchmarks (bench/accuracy.c,
 * bench/accuracy2d.c, bench/speed.c): the bench protocol's command line
 * (--quick, --out DIR, --trials N, --threads N, --callgrind TEST), output
 * files in DIR, a monotonic clock, per-trial seeds that do not depend on the thread count. */
#ifndef SCCD_EVAL_UTIL_H
#define SCCD_EVAL_UTIL_H

#include <stdint.h>
#include <stdio.h>

#include "bench_util.h" /* sccd_median */
#include "test_util.h"

/// Parsed command line of a benchmark.
typedef struct sccd_eval_args {
    int quick;        ///< --quick: the CI run (seconds), self-checks only
    const char *out;  ///< --out DIR (default "build/bench")
    long trials;      ///< --trials N (0 = the program's default)
    int threads;      ///< --threads N (default 2)
    const char *only; ///< --callgrind NAME: run only the named test (speed.c)
} sccd_eval_args;

/// Parses argv; prints usage and exits 2 on an unknown option.
sccd_eval_args sccd_eval_parse(int argc, char **argv, const char *usage);
/// Opens DIR/name for writing (creating DIR); exits 1 with a message when it cannot.
FILE *sccd_eval_open(const sccd_eval_args *a, const char *name);
/// Monotonic time in nanoseconds (CLOCK_MONOTONIC).
double sccd_eval_now_ns(void);
/// A well-mixed 64-bit seed for trial i of a run seeded with base (splitmix64), so each trial's numbers do not depend on which thread runs it.
uint64_t sccd_eval_seed(uint64_t base, uint64_t i);

/// A box turning about a fixed axis through pivot: the motion of the thesis' protocol (seed 000 §3.1).
typedef struct sccd_eval_turn {
    sccd_box3 box;       ///< world pose at t = 0
    sccd_v3 pivot, axis; ///< pivot (the origin here) and unit axis
    sccd_real alpha;     ///< turn, radians, in [0, 2π]
} sccd_eval_turn;

/// Seed 000 §3.1's draw: random axis U = the box's local z, centre at 12.5–25 from the pivot (origin) along local y, sizes in [0, 25], α in [0, 2π].
sccd_eval_turn sccd_eval_thesis_turn(sccd_rng *g);
/// The same without the pose constraint: any box orientation and axis, centre within 25 of the pivot (the pivot may be inside the box).
sccd_eval_turn sccd_eval_free_turn(sccd_rng *g);
/// The box after turning by tau about the turn's axis through its pivot.
sccd_box3 sccd_eval_turned_box(const sccd_eval_turn *t, sccd_real tau);
/// The turn as a library motion (centre = the pivot in body coordinates, no translation).
sccd_motion3 sccd_eval_turn_motion(const sccd_eval_turn *t);

#endif
