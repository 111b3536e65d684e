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

/* Solves of one step while bodies set moving by impacts reach shapes not
 * gathered yet (each round gathers what they may reach, then solves again). */
#define SCCD_ADAPTER_GATHER_ROUNDS 3

/* A begin answer the game gave this step, keyed by the two engine shapes and
 * the impact's time: the solves of one step are deterministic, so a later
 * solve meets the same impact at the same time and replays the answer
 * instead of asking again. */
typedef struct sccd_adapter_heard { const void *a, *b; sccd_real t; bool accepted; } sccd_adapter_heard;

static inline const sccd_adapter_heard *sccd_adapter_heard_find(const sccd_adapter_heard *h, int n, const void *a,
                                                                const void *b, sccd_real t)
{
    for (int i = 0; i < n; ++i)
        if (h[i].a == a && h[i].b == b && h[i].t == t)
            return &h[i];
    return NULL;
}

/* Keep an answer; out of memory: it is asked again if met again. */
static inline void sccd_adapter_heard_add(sccd_adapter_heard **h, int *n, int *cap, sccd_adapter_heard answer)
{
    if (sccd_adapter_reserve((void **)h, cap, *n + 1, sizeof **h))
        (*h)[(*n)++] = answer;
}

#endif
