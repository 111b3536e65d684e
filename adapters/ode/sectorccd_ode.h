/* sectorccd for ODE 0.16: the adapters (docs/DESIGN.md "The adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_ODE_H
#define SECTORCCD_ODE_H

#include <stdint.h>
#include <ode/ode.h>
#include "sectorccd/sectorccd.h"

/* C linkage for C++ callers; after the includes, which carry their own. */
#ifdef __cplusplus
extern "C" {
#endif

/* ==== Sphere trees: a custom geom class (sccd_ode_spheretree.c) ==== */

/// A placeable geom for the sphere tree t (caller-owned, must outlive the
/// geom; the tree's coordinates are the geom's body coordinates), added to
/// space (0: none). It collides with spheres, boxes, capsules, planes and
/// other sphere-tree geoms: one contact per touching leaf, the deepest first
/// when ODE asks for fewer, normals and depths in ODE's convention (a pair
/// touching in more than 32 leaves allocates; out of memory it reports, and
/// the deepest of the first 32 found are given). The class
/// is registered on first use, once for the process, from any thread (ODE has only 4 user classes: this takes one).
/// NULL or an empty tree: the check fires and 0 is returned.
dGeomID sccd_ode_spheretree_create(dSpaceID space, const sccd_spheretree *t);
/// The tree of a sphere-tree geom, or NULL when g is not one.
const sccd_spheretree *sccd_ode_spheretree_tree(dGeomID g);
/// ODE's class number of sphere-tree geoms (registers the class when ODE does not know it).
int sccd_ode_spheretree_class(void);

/* ==== end of the sphere-tree section ==== */
/* ==== Trimeshes from core meshes (sccd_ode_mesh.c) ==== */

/// ODE trimesh data made from a core mesh (sectorccd/mesh.h: loaded or generated), with the arrays ODE reads from (ODE does not copy them).
typedef struct sccd_ode_trimesh {
    dTriMeshDataID data; ///< pass to dCreateTriMesh; valid until sccd_ode_trimesh_destroy
    double *vertices;    ///< 3 per vertex
    dTriIndex *indices;  ///< 3 per triangle
} sccd_ode_trimesh;

/// Build t from mesh m, its coordinates as they are (the geom's). NULL, a mesh with no triangle, a vertex not finite,
/// an index out of range, or no memory: the check fires, t is left empty (data NULL) and false is returned.
bool sccd_ode_trimesh_init(sccd_ode_trimesh *t, const sccd_mesh *m);
/// Free t's data and arrays (destroy the geoms that use it first). NULL or empty: nothing.
void sccd_ode_trimesh_destroy(sccd_ode_trimesh *t);

/* ==== end of the trimesh section ==== */
/* ==== Broadphase: sort-and-sweep space collide (sccd_ode_sap.c) ==== */

/// Drop-in for dSpaceCollide(space, data, callback): calls callback(data, g1,
/// g2) once for every pair of the space's direct children that dSpaceCollide
/// would report — enabled geoms only, geoms of one body skipped, category and
/// collide bits respected, AABBs touching or overlapping — found by our sort
/// and sweep over dGeomGetAABB boxes. A nested space is one geom with its
/// children's box, exactly as dSpaceCollide treats it (call dSpaceCollide2 or
/// this function on it from the callback). g1 precedes g2 in the space's
/// order. Differences from ODE: a custom geom class's AABB test (which ODE
/// may use to drop a pair) is not consulted, so such pairs are still
/// reported; a geom with a NaN box is skipped with SCCD_ASSERT. The callback
/// must not add or remove geoms of this space. Allocates O(n) scratch per
/// call; out of memory: SCCD_ASSERT, and no pair is reported that call.
void sccd_ode_space_collide(dSpaceID space, void *data, dNearCallback *callback);

/* ==== end of the broadphase section ==== */

/* ===================================================================== CCD ==
 * Rotation-aware continuous collision for ODE (sccd_ode_ccd.c). The user's
 * loop stays theirs; two calls bracket it:
 *
 *     sccd_ode_before_step(ccd);               // records the poses
 *     dSpaceCollide(space, data, near_cb);     // or sccd_ode_space_collide
 *     dWorldQuickStep(world, dt);              // or dWorldStep
 *     dJointGroupEmpty(contacts);
 *     sccd_ode_after_step(ccd);                // resolves the impacts ODE missed
 *
 * Once, sccd_ode_set_step_length(ccd, dt) tells it the step (otherwise
 * read from ODE's integration: see Limits).
 *
 * ODE has already moved every body by its velocity when after_step runs.
 * after_step replays that step in the core's impact solver (impact.h,
 * sccd_impact3_solve): each body from its recorded pose with the velocity
 * that reproduces ODE's move (finite rotation mode: ODE's turn |ω|·dt, π or
 * more too; by default 2·atan(|ω|·dt/2)); a CCD body swept (sectors about
 * its pivot) against everything its motion may reach. At the first time two
 * bodies meet while approaching it applies the impulse of restitution and
 * Coulomb friction between them (masses and inertia tensors; a hinge or ball
 * joint to the world turns the body about it; kinematic bodies and geoms
 * without a body have infinite mass), tells the game, and goes on from there
 * with the new velocities, in time order, up to SCCD_IMPACT_MAX_EVENTS a
 * step and SCCD_IMPACT_BODY_EVENTS more for each CCD body. What is hit
 * leaves from the pose it was hit in with the velocity the impact gives
 * it; the rest of the step is not lost. Bodies the solver
 * changed get their end pose and the velocity the impact gave (the real
 * spin, not one inflated so that ODE's default step would turn by the
 * core's turn: the game and ODE's contacts read the speed the physics
 * says; ODE then turns it by 2·atan(|ω|·dt/2) a step, as without the CCD);
 * CCD bodies get their end pose (a
 * jointed one stays on its joint, where ODE's p += v·dt leaves its hinge);
 * everything else keeps ODE's result. Nothing passes through: where the
 * solver cannot resolve an impact (two infinite masses, the event cap) the
 * fallback stops a dynamic body there or carries it with the kinematic body
 * it met. ODE's own contacts do the rest in the next step (resting,
 * sliding, stacking). A body an impact sent flying is followed in the steps
 * after too, while it moves fast enough to cross a thin body in one step
 * (counters.struck), against static, kinematic and CCD bodies (ordinary
 * ones are ODE's, as without the CCD).
 *
 * The game hears every impact through sccd_ode_set_impact_callback (ODE's
 * near callback never sees these: the bodies never overlapped in a
 * collision pass). Materials: sccd_ode_geom_set_material per geom, combined
 * as the product of the pair's (restitution clamped to 0..1), as in the
 * Chipmunk adapter; unset geoms have SCCD_ODE_ELASTICITY_DEFAULT and
 * SCCD_ODE_FRICTION_DEFAULT. The friction is a Coulomb coefficient: ODE's
 * contacts match it only with dContactApprox1 (without it ODE takes
 * surface.mu as a force limit, next to no friction in a short impact).
 *
 * Pairs follow dSpaceCollide's rules (enabled geoms, category and collide
 * bits, geoms of one body skipped) plus the usual near-callback rule: bodies
 * joined by a non-contact joint do not collide, and a pair needs an enabled
 * dynamic body. Shapes: spheres, boxes and capsules exactly (geom offsets
 * included); cylinders as their box ∩ their capsule; trimesh triangles near
 * a moving body (two-sided, though ODE's colliders are one-sided); static
 * planes as half-spaces; other classes (sphere-tree geoms among them) are
 * ignored (counted in `unsupported`). A trimesh on a CCD body (a modelled
 * bat or sword) is swept whole, triangle by triangle, and stops at its
 * surface; the core's shape trees keep each search to the triangles near
 * the other body's. A trimesh without data, or with a vertex not finite, is
 * refused at enable (reported, not enabled) and skipped in a step if its
 * data turns so later (reported, counted in `unsupported`); a static one
 * without data is passed over. sccd_ode_trimesh_init makes ODE's data from
 * a core mesh (loaded or generated).
 *
 * State lives in the sccd_ode_world (never in dGeomSetData/dBodySetData).
 * ODE gives no callback when a body or geom is destroyed: before_step scans
 * the space and forgets CCD bodies that no longer have a geom in it, and the
 * materials of geoms no longer in it. Do not destroy bodies or geoms between
 * before_step and after_step.
 *
 * Misuse, and what it does (tests/test_ode_misuse.c); "reported" is the
 * assert handler, sccd_ode_last_error and counters.errors:
 * - A CCD body destroyed (dBodyDestroy), or left with no geom in the space, without sccd_ode_body_disable: reported and forgotten (counters.forgotten) at the next before_step; a new body ODE makes at the destroyed one's address before then is taken for it (disable first to be sure).
 * - A geom destroyed or removed between after_step and before_step: nothing to do (its material is forgotten); between before_step and after_step it is a use after free (not allowed, above).
 * - sccd_ode_detach while bodies are enabled: nothing else changes (ODE's objects are untouched); the loop goes on without CCD.
 * - A step of dt <= 0 or NaN: ODE's dWorldStep / dWorldQuickStep abort on it themselves ("stepsize must be > 0"); before_step and after_step with no step between change nothing; after_step without before_step: reported, nothing changes.
 * - dBodySetPosition / dBodySetQuaternion between after_step and the next before_step (a teleport): the next step starts there, nothing between old and new pose is swept or hit; a pose set between before_step and after_step is taken as that step's motion.
 * - Enabling twice, disabling a body without CCD, NULL world, body, geom or callback: reported, nothing changes; queries (is_enabled, get_*, last_error, spheretree_tree) with NULL give their documented defaults.
 *
 * Threads. Worlds may be stepped in parallel threads, one world per thread
 * at a time: an sccd_ode_world shares nothing with another (the assert
 * handler, sectorccd/base.h, is process-wide). ODE's own rules apply:
 * dInitODE2 once before the threads, dAllocateODEDataForThread
 * (dAllocateMaskAll) in each thread before its first ODE call, dCloseODE
 * after they end; and give each world its own threading implementation
 * (dWorldSetStepThreadingImplementation with
 * dThreadingAllocateSelfThreadedImplementation): ODE's default one is a
 * single object for the process, which two worlds stepping at once corrupt
 * (ODE INTERNAL ERROR). Each world then steps as it would alone, bit for
 * bit (tested with dWorldStep; dWorldQuickStep draws its constraint order
 * from ODE's one process-wide random sequence, dRandInt, so parallel
 * QuickStep worlds may not repeat bit for bit). The sphere-tree class is registered once for the
 * process, whichever thread comes first. tests/test_threads.c does all this.
 *
 * Memory: through the hooks of sccd_set_allocator (sectorccd/base.h). A
 * world allocates at attach, enable and set_material and grows its buffers
 * in its first steps; later steps allocate nothing while the scene keeps
 * its size. Out of memory (tests/test_alloc_fail.c): attach returns NULL,
 * enable and set_material do nothing, all reported; in before_step or
 * after_step, reported ("sccd_ode: out of memory; CCD skipped this step"),
 * and that step is ODE's alone (the impact callback may already have heard
 * an impact of that step, which the skip undoes); the next step tries
 * again. A failure in before_step makes that step's after_step report
 * too, as if before_step had not been called.
 *
 * Limits. ODE keeps no step length: unless told it
 * (sccd_ode_set_step_length), after_step reads it from ODE's integration
 * (the body that moved farthest: p += v·dt; when none moved, the one that
 * turned farthest, a finite-mode turn up to whole turns taken nearest the
 * last step's), so call before_step and after_step around one step, and
 * damping on that body (applied after ODE moves it) skews it by the
 * damping; in the first step of a world where nothing moves but a body in
 * finite rotation mode turning a whole turn or more a step, the turn, and
 * so the step, is read a whole number of turns short, and the CCD misses.
 * The solver knows only joints to the world: bodies jointed to each other
 * take impulses as if free. A hinge's motor is not in the solver
 * unless its force is unbounded (dParamFMax = dInfinity: the body then has
 * infinite inertia, as with an unbounded angular motor); ODE's motor acts
 * again in the next step. ODE's default integration cannot turn a body by π
 * a step: a faster spin an impact gives is written as 0.9π a step. A pair
 * that already overlaps at the step start is ODE's contact's while it does
 * not sink deeper than half of what the two can shrink; a pair too deep for
 * that is left to ODE (counted in `overlapped`). */

/* The options (sccd_ccd_options, SCCD_CANDIDATES_*) are the core's
 * (sectorccd/ccd_options.h), shared with the Chipmunk adapter; lengths in the
 * world's units (metres in the demos); options.overlap is the contact skin. */

/// Restitution of a geom without sccd_ode_geom_set_material: 0, ODE's contact without dContactBounce.
#define SCCD_ODE_ELASTICITY_DEFAULT 0.0
/// Friction of a geom without sccd_ode_geom_set_material: 1, neutral under the product rule (a value set on the other geom is the pair's).
#define SCCD_ODE_FRICTION_DEFAULT 1.0

/// Counters since attach or the last reset.
typedef struct sccd_ode_counters {
    uint64_t steps;       ///< after_step calls that ran the CCD
    uint64_t candidates;  ///< geom pairs (or triangles) that passed the box and sweep filters
    uint64_t tois;        ///< time-of-impact computations
    uint64_t impacts;     ///< impulses applied (each told to the impact callback)
    uint64_t clamps;      ///< dynamic bodies whose motion an impact changed or the fallback stopped or carried
    uint64_t overlapped;  ///< pairs overlapping at the start too deep for the cores to guard (left to ODE alone)
    uint64_t held;        ///< fallback stops and carries (the event cap, or two infinite masses)
    uint64_t failed;      ///< TOI searches stopped at a safe time without contact (iteration caps)
    uint64_t unsupported; ///< geoms of classes the CCD ignores, seen in the candidate search
    uint64_t struck;      ///< bodies tested in a step because an earlier step's impact left them flying (a batted ball), summed over the steps
    uint64_t idle;        ///< CCD bodies that met nothing at a step's start and stayed out of its solve (ODE's integration stood), summed over the steps
    uint64_t joined;      ///< CCD bodies left out at a step's start that the solve took in once a body its impacts set moving might reach them, summed over the steps
    uint64_t forgotten;   ///< CCD bodies dropped because they left the space or were destroyed
    uint64_t errors;      ///< bad calls and bad states reported
    double seconds;       ///< CPU time (this thread's) spent in before_step and after_step
    double solve_seconds; ///< of seconds, the part in the core's impact solver (the impact callback included); the rest gathers and translates
} sccd_ode_counters;

/// The CCD state of one world and space.
typedef struct sccd_ode_world sccd_ode_world;

/// The game's impact hook. Called twice for every impact the CCD resolves:
/// before the impulse with impulse all zero — return 0 to let the pair pass
/// freely for the rest of the step, nonzero to collide — and, when it
/// collides, after the impulse with the impulse applied to o1's body (N·s,
/// world; o2's body gets its negative; the return value is then ignored).
/// contact is ODE's convention: pos, normal pointing from o2 into o1 (the
/// impulse's normal part is along it), depth 0 (they touch), g1 = o1,
/// g2 = o2, side1/side2 the mesh triangle or -1. Called from inside
/// sccd_ode_after_step: it must not add, remove or move bodies or geoms.
typedef int sccd_ode_impact_fn(void *user, dGeomID o1, dGeomID o2, const dContactGeom *contact, const dReal impulse[3]);

/// The default options: sccd_ccd_options_default(0.001), a millimetre in metres.
sccd_ccd_options sccd_ode_options_default(void);
/// Attach CCD to a world and the space holding its geoms. NULL world or space, or out of memory: reported, NULL.
sccd_ode_world *sccd_ode_attach(dWorldID world, dSpaceID space);
/// Enable CCD on a dynamic or kinematic body of the world with at least one geom in the space. Bad use: reported, nothing changes.
void sccd_ode_body_enable(sccd_ode_world *w, dBodyID body);
/// Disable CCD on a body. Unknown body: reported, nothing changes.
void sccd_ode_body_disable(sccd_ode_world *w, dBodyID body);
/// Check a CCD body's rotation centre (body coordinates, finite). Kept for compatibility: the sweeps follow ODE's own integration, which turns a body about its centre of mass (a joint to the world: about the joint), so no other centre is used.
void sccd_ode_body_set_pivot(sccd_ode_world *w, dBodyID body, const dReal local_pivot[3]);
/// True when body has CCD enabled in w.
bool sccd_ode_body_is_enabled(const sccd_ode_world *w, dBodyID body);
/// Set the restitution (≥ 0) and friction (≥ 0) of geom g for the CCD's impacts; combined as the product of the pair's. Bad values: reported, nothing changes.
void sccd_ode_geom_set_material(sccd_ode_world *w, dGeomID g, dReal elasticity, dReal friction);
/// Tell fn of every impact (see sccd_ode_impact_fn; NULL: none, every pair collides); user is passed to it.
void sccd_ode_set_impact_callback(sccd_ode_world *w, sccd_ode_impact_fn *fn, void *user);
/// Tell the length of every coming step (s, what dWorldStep / dWorldQuickStep is given): after_step takes it instead of reading it from ODE's integration (see Limits); 0 reads it again (the default). Not finite or negative: reported, nothing changes.
void sccd_ode_set_step_length(sccd_ode_world *w, dReal dt);
/// Replace the options (each invalid field: reported as "sccd_ode_set_options: " + sccd_ccd_options_problem, and keeps its value).
void sccd_ode_set_options(sccd_ode_world *w, sccd_ccd_options options);
/// The current options (NULL world: the defaults).
sccd_ccd_options sccd_ode_get_options(const sccd_ode_world *w);
/// The counters (NULL world: zeros).
sccd_ode_counters sccd_ode_get_counters(const sccd_ode_world *w);
/// Zero the counters.
void sccd_ode_reset_counters(sccd_ode_world *w);
/// The message of the last bad call or bad state reported by w ("" when none).
const char *sccd_ode_last_error(const sccd_ode_world *w);
/// Record the poses before the step (call before the user's dSpaceCollide); forgets destroyed CCD bodies; NaN velocities of CCD bodies are reported and zeroed.
void sccd_ode_before_step(sccd_ode_world *w);
/// Resolve the step's impacts (call after dWorldStep / dWorldQuickStep; see the top of this section); a CCD body with a NaN pose is reported and put back at its start pose, at rest.
void sccd_ode_after_step(sccd_ode_world *w);
/// Free the world (ODE objects are untouched). NULL: nothing.
void sccd_ode_detach(sccd_ode_world *w);
/* ================================================================= end CCD == */

#ifdef __cplusplus
}
#endif

#endif
