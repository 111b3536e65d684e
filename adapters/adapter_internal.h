/* Private to the engine adapters (adapters/chipmunk, adapters/ode): the
 * helpers both CCD hooks use in the same way; the demos' window grows its
 * buffers with the same one. Not installed, not API. */
#ifndef SCCD_ADAPTER_INTERNAL_H
#define SCCD_ADAPTER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
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
    void *p = sccd_realloc(*buf, (size_t)*cap * size, (size_t)cap2 * size);
    if (p == NULL)
        return false;
    *buf = p;
    *cap = cap2;
    return true;
}

/* A set of pointers (open addressing, linear probing): what a step gathered,
 * each once, without sorting the duplicates away. */
typedef struct sccd_adapter_set { const void **slot; int cap, count; } sccd_adapter_set;

/* Empty the set (its memory is kept). */
static inline void sccd_adapter_set_clear(sccd_adapter_set *s)
{
    if (s->slot != NULL)
        memset(s->slot, 0, (size_t)s->cap * sizeof *s->slot);
    s->count = 0;
}

/* Slot of p in a table of cap (a power of two) slots: where it is, or the
 * empty slot where it goes. */
static inline int sccd_adapter_set_slot(const void **slot, int cap, const void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15u; /* Fibonacci hashing: the high bits mix all */
    int i = (int)(h >> 40) & (cap - 1);
    while (slot[i] != NULL && slot[i] != p)
        i = (i + 1) & (cap - 1);
    return i;
}

/* Add p (not NULL): 1 when new, 0 when already there, -1 out of memory (the
 * set unchanged). The table stays at most half full. */
static inline int sccd_adapter_set_add(sccd_adapter_set *s, const void *p)
{
    if (2 * (s->count + 1) > s->cap) {
        int cap = s->cap > 0 ? 2 * s->cap : 64;
        const void **slot = sccd_calloc((size_t)cap, sizeof *slot);
        if (slot == NULL)
            return -1;
        for (int i = 0; i < s->cap; ++i)
            if (s->slot[i] != NULL)
                slot[sccd_adapter_set_slot(slot, cap, s->slot[i])] = s->slot[i];
        sccd_free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    int i = sccd_adapter_set_slot(s->slot, s->cap, p);
    if (s->slot[i] == p)
        return 0;
    s->slot[i] = p;
    ++s->count;
    return 1;
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
