/* Private to the engine adapters (adapters/chipmunk, adapters/ode): the
 * helpers both CCD hooks use in the same way; the demos' window grows its
 * buffers with the same one. Not installed, not API. */
#ifndef SCCD_ADAPTER_INTERNAL_H
#define SCCD_ADAPTER_INTERNAL_H

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "sectorccd/base.h"

/* Grow a buffer of elements of size `size` to hold `need` (doubling, from
 * 16); false when out of memory, the buffer then unchanged. */
static inline bool sccd_adapter_reserve(void **buf, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return true;
    int cap2 = *cap > 0 ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(*buf, (size_t)cap2 * size);
    if (p == NULL)
        return false;
    *buf = p;
    *cap = cap2;
    return true;
}

/* CPU time of the calling thread in seconds, for the counters: steady on a
 * shared machine, where wall time would charge other jobs to the CCD. */
static inline double sccd_adapter_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The cores of a pair shrunk by s (s > 0): returns how much they shrank in
 * all, and when distance is not NULL also the cores' distance at the start. */
typedef sccd_real sccd_adapter_shrink_fn(const void *pair, sccd_real s, sccd_real *distance);

/* How deep a pair overlaps at the start, at least (*depth, 0 when apart),
 * and the most it can shrink (*room): cores shrunk by skin, 2·skin, 4·skin,
 * ... until they are apart or cannot shrink further; a core distance d after
 * shrinking by s means the shapes overlap by at least s − d (the grown cores
 * lie inside them). The distances, the costly part, stop once the depth is
 * known. */
static inline void sccd_adapter_start_depth(sccd_adapter_shrink_fn *shrink, const void *pair, sccd_real skin,
                                            sccd_real *depth, sccd_real *room)
{
    *depth = -1.0;
    sccd_real last = -1.0;
    for (sccd_real s = skin;; s *= 2.0) {
        sccd_real d = 0.0;
        sccd_real shrunk = shrink(pair, s, *depth < 0.0 ? &d : NULL);
        if (*depth < 0.0 && (d > 0.0 || shrunk <= last))
            *depth = sccd_max(shrunk - d, 0.0);
        if (shrunk <= last) {
            *room = shrunk;
            return;
        }
        last = shrunk;
    }
}

#endif
