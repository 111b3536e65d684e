/* Private to the core: the cosine and sine of one angle together, the
 * angle of a vector, and directions kept as angle and unit vector, for the
 * paths that need many (preparing sectors, building sweeps, placing moving
 * bodies: sccd_motion2/3_at, the TOI, the impact solver). Cosine and
 * sine: after reducing x by multiples of π/2 to |y| ≤ π/4 (Cody–Waite, π/2
 * in two parts, the first of 33 bits so that k·PIO2_HI is exact for
 * |k| < 2²⁰), the Taylor
 * series to y¹⁵ and y¹⁶ are within 5e-17 of sin y and cos y; with rounding
 * the result is within 4e-16 of libm's, about three times cheaper. The
 * sectors and sweeps pad their angles by 1e-12 rad or more; a motion's
 * poses are these (the TOI and the solver place bodies by the same turns),
 * and the motion boxes pad for them. Beyond |x| = 1e6, libm. */
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

/* The turn by angle about the unit axis as a quaternion (sccd_quat_axis_angle
 * with sccd_cos_sin of the half angle). */
static inline sccd_quat sccd_quat_turn(sccd_v3 axis, sccd_real angle)
{
    sccd_rot2 h = sccd_cos_sin(0.5 * angle);
    return (sccd_quat){axis.x * h.s, axis.y * h.s, axis.z * h.s, h.c};
}

/* The cosine and sine of x in [0, π] (a sector's half angle) without
 * sccd_cos_sin's branch on the quadrant, a coin toss over random sectors:
 * t = x − π/2 (π/2 in the same two parts), |t| ≤ π/2, where the series to
 * t²¹ and t²² are within 2e-18 of sin t and cos t; cos x = −sin t, sin x =
 * cos t. The series in z = t² by Estrin's scheme (pairs of terms, then
 * pairs of pairs, by z², z⁴, z⁸), not Horner's: the same products in a
 * tree four deep, not a chain of ten, and a one-shot sector test waits on
 * them (its prepare's latency was most of its cost over the prepared test). */
static inline sccd_rot2 sccd_cos_sin_half_turn(sccd_real x)
{
    const sccd_real pio2_hi = 1.57079632673412561417e+00, pio2_lo = 6.07710050650619224932e-11;
    sccd_real t = (x - pio2_hi) - pio2_lo, z = t * t, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    sccd_real ps = (-1.0 / 6.0 + z * (1.0 / 120.0)) + z2 * (-1.0 / 5040.0 + z * (1.0 / 362880.0)) +
                   z4 * ((-1.0 / 39916800.0 + z * (1.0 / 6227020800.0)) +
                         z2 * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0))) +
                   z8 * (-1.0 / 121645100408832000.0 + z * (1.0 / 51090942171709440000.0));
    sccd_real pc = (1.0 / 24.0 + z * (-1.0 / 720.0)) + z2 * (1.0 / 40320.0 + z * (-1.0 / 3628800.0)) +
                   z4 * ((1.0 / 479001600.0 + z * (-1.0 / 87178291200.0)) +
                         z2 * (1.0 / 20922789888000.0 + z * (-1.0 / 6402373705728000.0))) +
                   z8 * (1.0 / 2432902008176640000.0 + z * (-1.0 / 1124000727777607680000.0));
    sccd_real s = t + t * z * ps, c = 1.0 - 0.5 * z + z2 * pc;
    return (sccd_rot2){-s, c};
}

/* The cosine and sine of x in [0, π] within 1.6e-4 and 2.5e-5 (the
 * series of sccd_cos_sin_half_turn to t⁷ and t⁸; 1.57e-4 and 2.47e-5
 * measured at 10⁸ points), for early-outs that decide by a margin above
 * that error: under half its chain. */
static inline sccd_rot2 sccd_cos_sin_half_turn_rough(sccd_real x)
{
    sccd_real t = x - 1.57079632679489662, z = t * t;
    sccd_real s = t + t * z * (-1.0 / 6.0 + z * (1.0 / 120.0 - z * (1.0 / 5040.0)));
    sccd_real c = 1.0 + z * (-0.5 + z * (1.0 / 24.0 + z * (-1.0 / 720.0 + z * (1.0 / 40320.0))));
    return (sccd_rot2){-s, c};
}

/* The cosine and sine of x in [0, π] within 6.8e-5 and 6.0e-4, the pair
 * within 6.1e-4 (6.77e-5, 5.97e-4 and 6.01e-4 measured at 10⁸ points),
 * for the 2D one-shot point and circle tests, whose margins are that much
 * wider: in t = x − π/2 the odd polynomial of degree 5 nearest sin t and
 * the even one of degree 4 nearest cos t on [−π/2, π/2] (minimax, by
 * Remez's exchange). Seven products and five sums, the rough pair's nine
 * and eight: those tests' time is their floating-point work (with the
 * rough pair the one-shot circle test took 1.71 times the prepared one's
 * time, 1.61 so). By Estrin's scheme (z², then the pairs of terms beside
 * it), not Horner's: a chain of three products and sums, not four, on the
 * one-shot point test's path to its branch (1.53 times the prepared one's
 * time by Horner's, 1.50 so; the rough pair so gained nothing). */
static inline sccd_rot2 sccd_cos_sin_half_turn_coarse(sccd_real x)
{
    sccd_real t = x - 1.57079632679489662, z = t * t;
    sccd_real z2 = z * z;
    sccd_real s = t * ((0.9996967731418156 + z * -0.1656730793268051) + z2 * 0.007514377180223135);
    sccd_real c = (0.9994032294741122 + z * -0.4955808492217052) + z2 * 0.03679168279964731;
    return (sccd_rot2){-s, c};
}

/* atan2(y, x) within 4e-16 of libm's, about three times cheaper: t, the
 * smaller of |x|, |y| over the larger, in [0, 1]; above tan(π/12) the
 * identity atan t = π/6 + atan((√3·t − 1)/(t + √3)) brings it to
 * |t| ≤ tan(π/12) = 0.268, where the odd series to t²⁹ is within 1e-18;
 * then the octant from the signs and the order of |x| and |y|. atan2(0, 0)
 * and a zero y take libm's conventions; NaN in, NaN out. */
static inline sccd_real sccd_atan2(sccd_real y, sccd_real x)
{
    sccd_real ax = fabs(x), ay = fabs(y);
    bool swap = ay > ax;
    sccd_real hi = swap ? ay : ax, lo = swap ? ax : ay;
    if (!(hi > 0.0) || !(hi < INFINITY))
        return atan2(y, x); /* zero, infinite or NaN: libm's conventions */
    sccd_real t = lo / hi, base = 0.0;
    if (t > 0.26794919243112270) { /* tan(π/12) */
        t = (1.73205080756887729 * t - 1.0) / (t + 1.73205080756887729);
        base = 0.52359877559829887; /* π/6 */
    }
    sccd_real z = t * t;
    sccd_real p = 1.0 + z * (-1.0 / 3.0 + z * (1.0 / 5.0 + z * (-1.0 / 7.0 + z * (1.0 / 9.0 + z * (-1.0 / 11.0 +
                  z * (1.0 / 13.0 + z * (-1.0 / 15.0 + z * (1.0 / 17.0 + z * (-1.0 / 19.0 + z * (1.0 / 21.0 +
                  z * (-1.0 / 23.0 + z * (1.0 / 25.0 + z * (-1.0 / 27.0 + z * (1.0 / 29.0))))))))))))));
    sccd_real a = base + t * p;
    if (swap)
        a = 0.5 * SCCD_PI - a;
    if (x < 0.0)
        a = SCCD_PI - a;
    return signbit(y) ? -a : a; /* as libm, the sign of a zero y too */
}

/* A direction: its angle and its unit vector (the candidate directions of
 * the sweeps' angle sets). */
typedef struct sccd_dir { sccd_real angle; sccd_v2 v; } sccd_dir;

/* The direction of x (not zero): atan2's angle, in [−π, π]. */
static inline sccd_dir sccd_dir_of(sccd_v2 x)
{
    return (sccd_dir){sccd_atan2(x.y, x.x), sccd_v2_scale(x, 1.0 / sccd_v2_len(x))};
}

/* Insertion sort by angle: a band's few dozen candidates, nearly in order. */
static inline void sccd_sort_dirs(sccd_dir *x, int n)
{
    for (int i = 1; i < n; ++i) {
        sccd_dir v = x[i];
        int j = i;
        for (; j > 0 && x[j - 1].angle > v.angle; --j)
            x[j] = x[j - 1];
        x[j] = v;
    }
}

/* A unit direction inside the gap of width w from unit u to unit v
 * (counter-clockwise), without trigonometry: the sweeps' angle sets are
 * the same all through a gap, so only the side matters. The bisector is
 * ±(u + v) normalised; near w = π, where u + v vanishes, u turned by π/2
 * lies well inside. */
static inline sccd_v2 sccd_gap_direction(sccd_v2 u, sccd_v2 v, sccd_real w)
{
    if (w > 0.9 * SCCD_PI && w < 1.1 * SCCD_PI)
        return sccd_v2_perp(u);
    sccd_v2 h = sccd_v2_normalize(sccd_v2_add(u, v));
    return w < SCCD_PI ? h : sccd_v2_neg(h);
}

#endif
