/* sectorccd for Chipmunk2D 7: the adapters (docs/DESIGN.md "The adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_CHIPMUNK_H
#define SECTORCCD_CHIPMUNK_H

#include <stdint.h>
#include <chipmunk/chipmunk.h>
#include "sectorccd/sectorccd.h"

/* C linkage for C++ callers; after the includes, which carry their own. */
#ifdef __cplusplus
extern "C" {
#endif

/* ==== Broadphase: sort-and-sweep spatial index (sccd_cp_sap.c) ==== */

/// A Chipmunk spatial index (cpSpatialIndexClass) backed by our sort-and-sweep
/// index (sectorccd/broadphase.h): like cpSweep1DNew, usable wherever Chipmunk
/// takes an index. bbfunc gives an object's box; static_index (may be NULL) is
/// collided against in reindexQuery. Free it with cpSpatialIndexFree. NULL on
/// no memory, and for a NULL bbfunc (SCCD_ASSERT). Memory: its arrays come
/// from sccd_set_allocator's hooks, the index struct itself from libc's calloc
/// (cpSpatialIndexFree releases it with libc's free). An insert out of memory
/// leaves the object out of the index (SCCD_ASSERT: Chipmunk's insert cannot
/// refuse); it then collides with nothing, and cpSpaceEachShape misses it.
cpSpatialIndex *sccd_cp_sap_new(cpSpatialIndexBBFunc bbfunc, cpSpatialIndex *static_index);

/// Replace a space's static and dynamic shape indexes by ours (as
/// cpSpaceUseSpatialHash does), moving the shapes already there. Must not be
/// called while the space is locked (inside a step or a query): SCCD_ASSERT
/// and no change. On no memory the space keeps its indexes.
void sccd_cp_space_use_sap(cpSpace *space);

/// Install a static and a dynamic index (the dynamic one created with the
/// static one as its static_index) in a space, moving its shapes into them
/// and freeing the old ones — how cpSpaceUseSpatialHash swaps, for any index
/// class (cpSweep1DNew, cpBBTreeNew, sccd_cp_sap_new). Space locked or NULL
/// argument: SCCD_ASSERT and no change.
void sccd_cp_space_swap_indexes(cpSpace *space, cpSpatialIndex *static_index, cpSpatialIndex *dynamic_index);

/// cpShapeGetBB with the exact signature of cpSpatialIndexBBFunc (pass it to
/// an index constructor instead of casting cpShapeGetBB).
cpBB sccd_cp_shape_bb(void *obj);

/* ==== end of the broadphase section ==== */

/* ===================================================================== CCD ==
 * The user keeps calling cpSpaceStep. Chipmunk integrates every body's pose
 * (position_func), then finds contacts between overlapping shapes, then solves
 * velocities. A CCD body gets a position_func of ours: once all velocities of
 * the step are known it hands the CCD bodies and everything their motions
 * may reach (sectors about their pivots) to the core's impact solver
 * (sectorccd/impact.h), which moves them through the step with their
 * impacts taken in time order: at each impact the impulse of restitution and
 * friction (Chipmunk's e and u, multiplied; masses and moments; a body on a
 * pivot joint to a static body turns about the pivot) and the rest of the
 * step with the new velocities. The adapter writes the poses and velocities
 * back; the pair leaves separating, so Chipmunk adds no bounce of its own.
 *
 * The game hears every CCD impact as a contact: the pair's begin, pre-solve,
 * post-solve and separate handlers are called in that step with an arbiter
 * made for it (cpArbiterTotalImpulse gives the impulse); begin or pre-solve
 * returning false lets the pair pass for the rest of the step, as in
 * Chipmunk. A pair that already overlaps at the step start (resting,
 * sliding) is Chipmunk's contact's; the solver acts only when it would sink
 * a skin (3 overlaps) deeper, or past half of what the two can shrink.
 *
 * Kinematic CCD bodies (animated swords, bats) keep their animation exactly:
 * what they hit leaves with the surface velocity the impulse gives it. A
 * body an impact sets moving is searched against what it may reach for the
 * rest of the step too, and in the steps after while it flies fast enough
 * to cross a thin body in one (counters.struck), against static, kinematic
 * and CCD bodies (ordinary ones are Chipmunk's, as without the CCD), with
 * or without a CCD body still awake: the CCD runs in the position function
 * of the first CCD body, or of a flying body that carries one for a step
 * (its own is called right after, and given back). When impacts would go
 * on without end (a push that lasts, 4 impacts between two bodies, or 64
 * in a step and 8 more for each CCD body) the solver falls back on
 * stopping a body where it is or letting it ride along with the one
 * pushing it; it never lets them pass.
 *
 * State lives in the sccd_cp_world (never in user-data fields). Call
 * sccd_cp_body_disable (or sccd_cp_detach) before freeing a CCD body.
 *
 * Misuse, and what it does (tests/test_cp_misuse.c); "reported" is the
 * assert handler, sccd_cp_last_error and counters.errors:
 * - A CCD body removed from the space, or freed, without sccd_cp_body_disable (or whose position function the game replaced): reported and forgotten (counters.forgotten) at the next step's check or the next call about it; a new body at a freed one's address is not taken for it; added back, it moves as cpBodyUpdatePosition moves it until enabled again.
 * - A shape removed mid-game (between steps, or in a post-step callback, Chipmunk's rule): nothing to do; the next step sees the shapes there are.
 * - sccd_cp_detach while bodies are enabled: each one in the space gets its position function back; one out of the space then gets Chipmunk's (cpBodyUpdatePosition) when it next steps. Detach before cpSpaceFree: it reads the space.
 * - cpSpaceStep with dt = 0: Chipmunk skips the step; dt < 0 or not finite: reported, the CCD bodies stay where they are that step (Chipmunk moves the others; its debug build aborts on the NaN a NaN dt gives a dynamic body).
 * - A flying body (see above) removed, freed, put to sleep, enabled or given a new position function between steps: nothing to do; the one carrying the next step's CCD gets its own function back at once when enabled or at sccd_cp_detach (if it is in the space), else when it next steps.
 * - cpBodySetPosition / cpBodySetAngle between steps (a teleport): the next step starts there; nothing between the old and new pose is swept or hit.
 * - Enabling twice, disabling or setting the pivot of a body without CCD, a body not in the space, NULL world or body: reported, nothing changes; queries (is_enabled, get_*, last_error) with NULL give their documented defaults.
 *
 * Threads: spaces may be stepped in parallel threads, one space per thread
 * at a time; an sccd_cp_world shares nothing with another (the assert
 * handler, sectorccd/base.h, is process-wide), and a space steps alike,
 * bit for bit, in any thread (the solver's order follows Chipmunk's shape
 * ids, not addresses). tests/test_threads.c runs four at once.
 *
 * Memory: through the hooks of sccd_set_allocator (sectorccd/base.h). A
 * world allocates at attach and enable and grows its buffers in its first
 * steps; later steps allocate nothing while the scene keeps its size. Out
 * of memory (tests/test_alloc_fail.c): attach returns NULL and enable does
 * nothing, both reported; in a step, reported ("sccd_cp: out of memory; CCD
 * skipped this step"), and that step is Chipmunk's alone, every CCD body
 * at its own integration's end (the handlers may already have heard an
 * impact of that step, which the skip undoes); the next step tries again. */
/* The options (sccd_ccd_options, SCCD_CANDIDATES_*) are the core's
 * (sectorccd/ccd_options.h), shared with the ODE adapter; lengths in the
 * space's units. */

/// Counters since attach or the last reset.
typedef struct sccd_cp_counters {
    uint64_t steps;       ///< steps in which the CCD ran
    uint64_t candidates;  ///< candidate shape pairs after filters
    uint64_t tois;        ///< time-of-impact computations
    uint64_t impacts;     ///< impulses applied (each heard by the collision handlers)
    uint64_t clamps;      ///< bodies whose motion an impact changed or the fallback stopped (per step)
    uint64_t held;        ///< fallback stops and carries (the event cap, or two infinite masses)
    uint64_t overlapped;  ///< shape pairs overlapping too deep for their cores to guard (left to Chipmunk alone)
    uint64_t failed;      ///< searches that hit an iteration cap (the bodies stopped at a safe time)
    uint64_t struck;      ///< bodies tested in a step because an earlier step's impact left them flying (a batted ball), summed over the steps
    uint64_t idle;        ///< CCD bodies that met nothing at a step's start and stayed out of its solve (their own integration stood), summed over the steps
    uint64_t joined;      ///< CCD bodies left out at a step's start that the solve took in once a body its impacts set moving might reach them, summed over the steps
    uint64_t forgotten;   ///< CCD bodies dropped because they left the space (or lost our position function) without sccd_cp_body_disable
    uint64_t errors;      ///< bad calls and bad states reported
    double seconds;       ///< CPU time (this thread) spent in the CCD
    double solve_seconds; ///< of seconds, the part in the core's impact solver (the handlers it calls included); the rest gathers and translates
} sccd_cp_counters;

/// The CCD state of one space.
typedef struct sccd_cp_world sccd_cp_world;

/// The default options: sccd_ccd_options_default(0.02), the contact skin of attach for Chipmunk's default collision slop 0.1 (attach takes 0.2·the space's slop when it is > 0).
sccd_ccd_options sccd_cp_options_default(void);
/// Attach CCD to a space (once per space, space unlocked). NULL space, a locked space, a second attach or out of memory: reported, NULL.
sccd_cp_world *sccd_cp_attach(cpSpace *space);
/// Enable CCD on a dynamic or kinematic body that is in the world's space (space unlocked). Bad use: reported, nothing changes.
void sccd_cp_body_enable(sccd_cp_world *w, cpBody *body);
/// Disable CCD on a body and restore its position function. Unknown body: reported, nothing changes.
void sccd_cp_body_disable(sccd_cp_world *w, cpBody *body);
/// Set the rotation centre of a CCD body (body coordinates, e.g. the hand or hinge; default the centre of gravity).
void sccd_cp_body_set_pivot(sccd_cp_world *w, cpBody *body, cpVect local_pivot);
/// True when body has CCD enabled in w.
bool sccd_cp_body_is_enabled(const sccd_cp_world *w, const cpBody *body);
/// Replace the options (each invalid field: reported as "sccd_cp_set_options: " + sccd_ccd_options_problem, and keeps its value).
void sccd_cp_set_options(sccd_cp_world *w, sccd_ccd_options options);
/// The current options (NULL world: the defaults).
sccd_ccd_options sccd_cp_get_options(const sccd_cp_world *w);
/// The counters (NULL world: zeros).
sccd_cp_counters sccd_cp_get_counters(const sccd_cp_world *w);
/// The message of the last bad call or bad state reported by w ("" when none).
const char *sccd_cp_last_error(const sccd_cp_world *w);
/// Zero the counters.
void sccd_cp_reset_counters(sccd_cp_world *w);
/// Detach from the space and free the world; every CCD body still in the space gets its position function back. Not while the space is stepping (reported, nothing happens). NULL: nothing.
void sccd_cp_detach(sccd_cp_world *w);
/* ================================================================= end CCD == */

#ifdef __cplusplus
}
#endif

#endif
