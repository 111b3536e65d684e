/* Private to the core: the cosine and sine of one angle together, for the
 * paths that need many (preparing sectors, building sweeps). After reducing
 * x by multiples of π/2 to |y| ≤ π/4 (Cody–Waite, π/2 in two parts, the
 * first of 33 bits so that k·PIO2_HI is exact for |k| < 2²⁰), the Taylor
 * series to y¹⁵ and y¹⁶ are within 5e-17 of sin y and cos y; with rounding
 * the result is within 4e-16 of libm's, about three times cheaper. Every
 * user pads its angles by 1e-12 rad or more. Beyond |x| = 1e6, libm. */
#ifndef SCCD_TRIG_H
#define SCCD_TRIG_H

#include "sectorccd/math_functions.h"

static inline sccd_rot2 sccd_cos_sin(sccd_real x)
{
    if (!(fabs(x) <= 1e6))
        return (sccd_rot2){cos(x), sin(x)};
    const sccd_real pio2_hi = 1.57079632673412561417e+00, pio2_lo = 6.07710050650619224932e-11;
    long k = (long)(x * 0.63661977236758134308 + (x >= 0.0 ? 0.5 : -0.5)); /* nearest integer to x / (π/2) */
    sccd_real y = (x - (sccd_real)k * pio2_hi) - (sccd_real)k * pio2_lo, z = y * y;
    sccd_real s = y + y * z * (-1.0 / 6.0 + z * (1.0 / 120.0 + z * (-1.0 / 5040.0 + z * (1.0 / 362880.0 +
                  z * (-1.0 / 39916800.0 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0)))))));
    sccd_real c = 1.0 - 0.5 * z + z * z * (1.0 / 24.0 + z * (-1.0 / 720.0 + z * (1.0 / 40320.0 +
                  z * (-1.0 / 3628800.0 + z * (1.0 / 479001600.0 + z * (-1.0 / 87178291200.0 +
                  z * (1.0 / 20922789888000.0)))))));
    switch (k & 3) { /* the quadrant (two's complement: k & 3 is k mod 4 for negative k too) */
    case 0: return (sccd_rot2){c, s};
    case 1: return (sccd_rot2){-s, c};
    case 2: return (sccd_rot2){-c, -s};
    default: return (sccd_rot2){s, -c};
    }
}

#endif
