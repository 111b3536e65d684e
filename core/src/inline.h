/* Private to the core: inlining hints for hot paths, measured where used.
 * Compilers without GCC's attributes get plain functions, with the same
 * results. */
#ifndef SECTORCCD_INLINE_H
#define SECTORCCD_INLINE_H

#if defined(__GNUC__)
/* Out of line whatever the compiler's estimate of the gain: a rare path
 * inlined into a hot one makes the hot one's registers spill. */
#define SCCD_NOINLINE __attribute__((noinline))
/* Inline whatever the compiler's estimate: a path whose call costs more
 * than its body where it is hot. */
#define SCCD_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define SCCD_NOINLINE
#define SCCD_ALWAYS_INLINE inline
#endif

#endif
