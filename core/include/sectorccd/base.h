/* sectorccd — base definitions: the real type, constants, the assert handler
 * and validity checks of plain numbers. Everything else includes this. */
#ifndef SECTORCCD_BASE_H
#define SECTORCCD_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>

/* C linkage for C++ callers; after the includes, which carry their own. */
#ifdef __cplusplus
extern "C" {
#endif

/// The scalar of the library: double, as both Debian engines build in double.
typedef double sccd_real;

/// π in sccd_real.
#define SCCD_PI 3.14159265358979323846

/// Relative tolerance of "exact" tests: touching within this fraction of the
/// scene size counts as overlap (docs/DESIGN.md "Sectors").
#define SCCD_EPS 1e-9

/// Most radial bands a sweep may hold (docs/DESIGN.md "Sweeps").
#define SCCD_MAX_BANDS 8

/// Signature of an assert handler: the failed condition, file and line.
typedef void sccd_assert_fn(const char *condition, const char *file, int line);

/// Replace the assert handler (NULL restores the default, which prints one
/// line to stderr and, in DEBUG=1 builds only, aborts). Returns the old one.
/// Threads: the handler is the library's only process-wide state (every
/// other state is per world or per call). It is one atomic pointer, shared
/// by all threads: set it before starting threads that use the library; a
/// handler may be called from several threads at once, so it must be
/// thread-safe itself (the default is: one fprintf).
sccd_assert_fn *sccd_set_assert_handler(sccd_assert_fn *handler);

/// Report a failed check through the current handler (used by SCCD_ASSERT).
void sccd_assert_failed(const char *condition, const char *file, int line);

/// Check a precondition at the public boundary. Release builds still check and
/// report, then the function returns its documented defined result: bad input
/// must never crash or leak NaN (docs/DESIGN.md "Validation and error reporting").
#define SCCD_ASSERT(cond) \
    ((cond) ? (void)0 : sccd_assert_failed(#cond, __FILE__, __LINE__))

/// True when x is finite (not NaN, not ±infinity).
static inline bool sccd_is_valid_real(sccd_real x) { return isfinite(x) != 0; }

/// Clamp x into [lo, hi].
static inline sccd_real sccd_clamp(sccd_real x, sccd_real lo, sccd_real hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/// The smaller of a and b.
static inline sccd_real sccd_min(sccd_real a, sccd_real b) { return a < b ? a : b; }

/// The larger of a and b.
static inline sccd_real sccd_max(sccd_real a, sccd_real b) { return a > b ? a : b; }

#ifdef __cplusplus
}
#endif

#endif
