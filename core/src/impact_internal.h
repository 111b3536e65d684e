/* Private to impact2.c and impact3.c: what the two solvers share that does
 * not depend on the dimension. */
#ifndef SCCD_IMPACT_INTERNAL_H
#define SCCD_IMPACT_INTERNAL_H

#include <stdlib.h>

#include "sectorccd/impact.h"

/* What a body pair's next event is. */
typedef enum impact_event {
    EVENT_NONE,   /* no contact before the step's end */
    EVENT_IMPACT, /* an approaching contact: an impulse */
    EVENT_STOP,   /* a safe time without a found contact (a TOI's cap): stop there */
} impact_event;

/* Grow a buffer of `size`-byte elements to hold `need` (doubling, from 16);
 * false when out of memory, the buffer then unchanged. */
static inline bool sccd_impact_reserve(void **buf, int *cap, int need, size_t size)
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

/* The cores of a pair shrunk by s (s > 0): how much they shrank in all and,
 * when distance is not NULL, the cores' distance at the start (0: overlap). */
typedef sccd_real sccd_shrink_fn(const void *pair, sccd_real s, sccd_real *distance);

/* How deep a pair overlaps at the start, at least (*depth), and the most it
 * can shrink (*room): cores shrunk by skin, 2·skin, 4·skin, ... until they are
 * apart or cannot shrink further. Cores a distance d apart after shrinking by
 * s mean shapes overlapping by at least s − d (the grown cores lie inside the
 * shapes). The distances, the costly part, stop once the depth is known. */
static inline void sccd_start_depth(sccd_shrink_fn *shrink, const void *pair, sccd_real skin, sccd_real *depth,
                                    sccd_real *room)
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

/* The inverse moment of inertia about a hinge at distance² d2 from the centre
 * of mass (parallel axes: I + m·d²); 0 when it is infinite. */
static inline sccd_real sccd_hinge_inv_inertia(sccd_real inv_mass, sccd_real inv_inertia, sccd_real d2)
{
    if (inv_inertia <= 0.0)
        return 0.0;
    if (inv_mass <= 0.0)
        return d2 > 0.0 ? 0.0 : inv_inertia;
    return inv_inertia * inv_mass / (inv_mass + inv_inertia * d2);
}

/* The combined restitution and friction of a pair (the product of the
 * shapes', Chipmunk's rule), restitution within 0..1. */
static inline sccd_real sccd_mix_elasticity(sccd_real a, sccd_real b) { return sccd_clamp(a * b, 0.0, 1.0); }
static inline sccd_real sccd_mix_friction(sccd_real a, sccd_real b) { return sccd_max(a * b, 0.0); }

#endif
