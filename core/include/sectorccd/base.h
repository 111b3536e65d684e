/* sectorccd — base definitions: the real type, constants, the assert handler,
 * the allocator hooks and validity checks of plain numbers. Everything else
 * includes this. */
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

/// Largest sector size the sector tests take (R, |zlo|, |zhi|; a larger sector is refused): shapes of any size and place are tested exactly, those beyond it scaled first (docs/DESIGN.md "Validation and error reporting").
#define SCCD_RANGE_MAX 1e100

/// Most radial bands a sweep may hold (docs/DESIGN.md "Sweeps").
#define SCCD_MAX_BANDS 8

/// Signature of an assert handler: the failed condition, file and line.
typedef void sccd_assert_fn(const char *condition, const char *file, int line);

/// Replace the assert handler (NULL restores the default, which prints one
/// line to stderr and, in DEBUG=1 builds only, aborts). Returns the old one.
/// Threads: the handler and the allocator (below) are the library's only
/// process-wide state (every other state is per world or per call). The
/// handler is one atomic pointer, shared by all threads: set it before
/// starting threads that use the library; a
/// handler may be called from several threads at once, so it must be
/// thread-safe itself (the default is: one fprintf).
sccd_assert_fn *sccd_set_assert_handler(sccd_assert_fn *handler);

/// Report a failed check through the current handler (used by SCCD_ASSERT).
void sccd_assert_failed(const char *condition, const char *file, int line);

/* ---- memory ----
 * Every allocation of the core and of both adapters goes through these
 * hooks, so a game can route them to its own allocator (README.md
 * "Memory"). The shape is Box2D v3's b2SetAllocator (allocate, release)
 * with a user pointer and an optional reallocate: without one the library
 * grows a block by allocate, copy and release (each growing call knows the
 * bytes to keep), which any allocator can serve. The one block not made
 * here: the struct of sccd_cp_sap_new's index (sectorccd_chipmunk.h). */

/// Allocate size bytes (size >= 1), aligned for any type as malloc's are; NULL when out of memory.
typedef void *sccd_alloc_fn(size_t size, void *user);
/// Resize block ptr (never NULL) to size >= 1 bytes, keeping its content, as realloc does; NULL when out of memory (ptr untouched).
typedef void *sccd_realloc_fn(void *ptr, size_t size, void *user);
/// Release a block the hooks made (ptr never NULL).
typedef void sccd_free_fn(void *ptr, void *user);

/// An allocator: hooks and their user pointer (the fields avoid the names
/// malloc, realloc and free, which a game's debug allocator may define as macros).
typedef struct sccd_allocator {
    sccd_alloc_fn *allocate;     ///< required
    sccd_realloc_fn *reallocate; ///< may be NULL: the library allocates, copies and releases
    sccd_free_fn *release;       ///< required
    void *user;                  ///< passed to each hook
} sccd_allocator;

/// Route every allocation of the library through allocator (copied; NULL:
/// libc's malloc, realloc and free, the default). Set it once at start-up,
/// before creating anything and before starting threads that use the
/// library. A block goes back to the allocator that made it, so while any
/// block is live (sccd_allocated_blocks() > 0) nothing changes; nor for an
/// allocator without allocate or release: SCCD_ASSERT and false then.
/// Threads: the hooks are read through one atomic pointer; worlds stepped in
/// parallel threads call them at once, so they must then be thread-safe.
bool sccd_set_allocator(const sccd_allocator *allocator);

/// The allocator in use (libc's when none was set).
sccd_allocator sccd_get_allocator(void);

/// Blocks the library holds now (0 once every object is destroyed: a leak check).
size_t sccd_allocated_blocks(void);

/* The library's own allocation calls, through the hooks; exported because
 * the adapter libraries use them too. Memory handed to the library to free
 * (sccd_voxel_grid.cells filled by hand) must come from them. */

/// size bytes (0 asks for 1); NULL when out of memory.
void *sccd_alloc(size_t size);
/// count·size zeroed bytes; NULL when out of memory or when count·size overflows.
void *sccd_calloc(size_t count, size_t size);
/// ptr (NULL: a new block) resized to size bytes, its first `keep` bytes kept
/// (keep at most the block's size: what the allocate-copy-release path copies);
/// NULL when out of memory, ptr then untouched.
void *sccd_realloc(void *ptr, size_t keep, size_t size);
/// Release a block of sccd_alloc, sccd_calloc or sccd_realloc; NULL accepted.
void sccd_free(void *ptr);

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
