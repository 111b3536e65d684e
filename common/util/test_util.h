/* Shared helpers for the test programs and benchmarks: a seeded random
 * generator (so every failure reproduces) and a counting assert handler. */
#ifndef SCCD_TEST_UTIL_H
#define SCCD_TEST_UTIL_H

#include <stdint.h>
#include "sectorccd/sectorccd.h"

/// A small, fast, seeded generator (xorshift64*).
typedef struct sccd_rng { uint64_t s; } sccd_rng;

/// A generator seeded with seed (0 is replaced by a fixed non-zero value).
sccd_rng sccd_rng_make(uint64_t seed);
/// The next 64 random bits.
uint64_t sccd_rng_next(sccd_rng *g);
/// Uniform in [lo, hi).
double sccd_rng_uniform(sccd_rng *g, double lo, double hi);
/// Uniform integer in [0, n).
int sccd_rng_int(sccd_rng *g, int n);
/// A uniformly distributed unit vector.
sccd_v2 sccd_rng_unit2(sccd_rng *g);
/// A uniformly distributed unit vector.
sccd_v3 sccd_rng_unit3(sccd_rng *g);
/// A uniformly distributed rotation.
sccd_quat sccd_rng_quat(sccd_rng *g);
/// A point uniform in the box [−s, s]².
sccd_v2 sccd_rng_v2(sccd_rng *g, double s);
/// A point uniform in the box [−s, s]³.
sccd_v3 sccd_rng_v3(sccd_rng *g, double s);

/// One run of a batted-ball scene: the ball's greatest y over its steps when the bat starts at phase a0, with the wall or without it.
typedef double sccd_test_batted_fn(double a0, bool wall);
/// A batted-ball scene over the bat's phases −0.6 … −0.05: *crossed_with and *crossed_without count the phases whose ball went past wall_y with the wall (each printed) and without it, *phases all of them.
void sccd_test_batted_ball(sccd_test_batted_fn *run, double wall_y, int *crossed_with, int *crossed_without, int *phases);

/// A flying-ball case in an engine: a kinematic bat (capsule or box 2 long, half thickness hb) starts turning at w about its end and meets an ordinary ball (radius r, not a CCD body) at polar angle φ = 0.6, distance 1.5, at the fraction f of the first step, then stops; a thin static wall lies across the ball's flight, `far` steps of it away. The case tells whether the ball's centre crossed the wall's line in some step (*crossed, judged on the engine's poses), whether it came back off the wall (*bounced), and whether the CCD followed it (*followed: its counters).
typedef struct sccd_test_flying { double w, f, far; bool crossed, bounced, followed; } sccd_test_flying;
/// One flying-ball case run in an engine (fills crossed, bounced, followed).
typedef void sccd_test_flying_fn(sccd_test_flying *c);
/// The flying-ball scene's geometry for case c: the bat's start angle, the ball's centre, the wall's middle and its unit normal n (the ball's flight direction), for a bat of half thickness hb, a ball of radius r, restitution e.
void sccd_test_flying_setup(const sccd_test_flying *c, double hb, double r, double e, double *bat_angle, sccd_v2 *ball, sccd_v2 *wall, sccd_v2 *n);
/// Run the flying-ball cases at 20, 50, 100, 200 rad/s, 8 phases, walls 2 and 5 steps away (64): how many crossed, bounced, were followed.
void sccd_test_flying_ball(sccd_test_flying_fn *run, int *crossed, int *bounced, int *followed, int *cases);

/// One pushed-ball case (the impact tests): a bat turning at w meets the ball at the fraction f of a step; returns the ball's exit velocity error, *deep its deepest overlap.
typedef double sccd_test_pushed_fn(double w, double f, double *deep);
/// Run the pushed-ball cases at 10, 20, 50, 100 and 200 rad/s and 6 phases each (30): the median and worst error, the deepest overlap.
void sccd_test_pushed_ball(sccd_test_pushed_fn *run, double *median, double *worst, double *deepest);

/// Install a handler that counts failed checks instead of printing.
void sccd_test_count_asserts(void);
/// Failed checks counted since the last reset.
int sccd_test_assert_count(void);
/// Reset the count to zero.
void sccd_test_assert_reset(void);

#endif
