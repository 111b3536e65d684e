/* The debris rain, shared by bench/ccd_scale and the engine tests: a rain
 * of ordinary bodies (circles in Chipmunk, spheres in ODE) falls under
 * gravity and piles up on a thin floor between walls, while small
 * fast-spinning CCD boxes (debris) are fired down into it, each fired again
 * from above once it has come to rest. The ordinary bodies fall faster
 * than the CCD's query margin, so the CCD bodies' gathering meets them all
 * (issue 14). A debris found below the floor after a step has passed
 * through it: an independent check on the engine's poses. */
#ifndef SCCD_DEBRIS_RAIN_H
#define SCCD_DEBRIS_RAIN_H

#include <stdbool.h>
#include <stdint.h>

/// A scene: how many ordinary bodies (the arena grows with them: 10,000 fill
/// 50 rows in Chipmunk, 12 layers in ODE) and how many debris.
typedef struct sccd_rain { int bodies, ccd; } sccd_rain;

/// One run: per step, thread CPU time of the whole step, of the CCD and of
/// its solver (ms; 0 without CCD); debris found under the floor after a
/// step; TOIs the CCD computed; whether every body stayed finite.
typedef struct sccd_rain_run { double step_ms, ccd_ms, solve_ms; long passes; uint64_t tois; bool finite; } sccd_rain_run;

/// Run the scene in Chipmunk with CCD on the debris or none, `steps` timed
/// after `warmup`, the bodies drawn from `seed`.
sccd_rain_run sccd_rain_cp(sccd_rain sc, bool ccd, int warmup, int steps, unsigned seed);
/// The same in ODE (dWorldQuickStep, 10 iterations, a dHashSpace); the
/// caller has initialised ODE (dInitODE2).
sccd_rain_run sccd_rain_ode(sccd_rain sc, bool ccd, int warmup, int steps, unsigned seed);

#endif
