/* Timing shared by the benchmarks and the demos: the calling thread's CPU
 * time, which jobs sharing the machine do not inflate. */
#ifndef SCCD_TIMING_H
#define SCCD_TIMING_H

/// CPU time of the calling thread in seconds (steady under a shared machine).
double sccd_cpu_seconds(void);

#endif
