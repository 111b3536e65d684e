/* sectorccd for ODE 0.16: the adapters (shared/DESIGN.md "Adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_ODE_H
#define SECTORCCD_ODE_H

#include <stdint.h>
#include <ode/ode.h>
#include "sectorccd/sectorccd.h"

/* ==== Sphere trees: a custom geom class (sccd_ode_spheretree.c) ==== */

/// A placeable geom for the sphere tree t (caller-owned, must outlive the
/// geom; the tree's coordinates are the geom's body coordinates), added to
/// space (0: none). It collides with spheres, boxes, capsules, planes and
/// other sphere-tree geoms: one contact per touching leaf, the deepest first
/// when ODE asks for fewer, normals and depths in ODE's convention. The class
/// is registered on first use (ODE has only 4 user classes: this takes one).
/// NULL or an empty tree: the check fires and 0 is returned.
dGeomID sccd_ode_spheretree_create(dSpaceID space, const sccd_spheretree *t);
/// The tree of a sphere-tree geom, or NULL when g is not one.
const sccd_spheretree *sccd_ode_spheretree_tree(dGeomID g);
/// ODE's class number of sphere-tree geoms (registers the class when ODE does not know it).
int sccd_ode_spheretree_class(void);

/* ==== end of the sphere-tree section ==== */
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
/// must not add or remove geoms of this space. Allocates O(n) scratch per call.
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
 *     sccd_ode_after_step(ccd);                // stops what passed through
 *
 * ODE moves bodies only inside the step and clamps negative contact depth to
 * zero, so a contact with a gap would be a wall, not a speculative contact.
 * after_step therefore bounds what each CCD body swept from its pose before
 * the step to its pose after it (sectors about its pivot), finds the first
 * time of impact with every geom that sweep may touch, and places the body at
 * that impact pose with a small overlap: the next collision pass makes the
 * real contact and ODE's solver does the rest (bounce, friction, joints).
 *
 * Kinematic CCD bodies keep their motion exactly (no lag, the animation's
 * timing is the user's): what they hit is carried with them from the impact
 * to the end of the step, overlapping them, so the next contact gives it the
 * kinematic body's surface velocity. A dynamic target a dynamic CCD body hits
 * is held at its own pose at the impact time, as a sub-step would.
 *
 * Pairs follow dSpaceCollide's rules (enabled geoms, category and collide
 * bits, geoms of one body skipped) plus the usual near-callback rule: bodies
 * joined by a non-contact joint do not collide. Targets: spheres, boxes and
 * capsules exactly; a cylinder as its box ∩ its capsule and a mesh triangle
 * as the ∩ of its three edge-aligned rectangles (conservative advancement
 * against each bound in turn); static planes; other classes are ignored
 * (counted in `unsupported`). A CCD body's own cylinder is bounded by its box.
 *
 * State lives in the sccd_ode_world (never in dGeomSetData/dBodySetData).
 * ODE gives no callback when a body or geom is destroyed: before_step scans
 * the space and forgets CCD bodies that no longer have a geom in it. Do not
 * destroy bodies or geoms between before_step and after_step.
 *
 * Limits. A body's motion over a step is taken as the short turn from its
 * pose before to its pose after (ODE's default integration turns less than π
 * per step; a body in finite rotation mode turning more than π is seen
 * turning the short way). A pair that already overlaps at the step start
 * (resting, sliding, pushed) is left to ODE's contact and only stopped when
 * its overlap grows past half of what the two can shrink (then by more than
 * 3 overlaps a step); deeper pairs are left to ODE alone. A body pressing
 * into the back of a trimesh (where ODE makes no contact) is held at its
 * start pose. Against a cylinder or triangle the placement
 * overlap may be shallower than `overlap` (touching every bound at once is
 * near, not at, touching the target); a CCD body's own cylinder may stop up
 * to (√2 − 1)·r short of a target. */

/* The options (sccd_ccd_options, SCCD_CANDIDATES_*) are the core's
 * (sectorccd/ccd_options.h), shared with the Chipmunk adapter; lengths in the
 * world's units (metres in the demos). */

/// Counters since attach or the last reset.
typedef struct sccd_ode_counters {
    uint64_t steps;       ///< after_step calls that ran the CCD
    uint64_t sweeps;      ///< geom sweeps built
    uint64_t candidates;  ///< geom pairs (or triangles) that passed the box and sweep filters
    uint64_t tois;        ///< time-of-impact computations
    uint64_t clamps;      ///< bodies placed at an impact pose (CCD bodies stopped, targets held or carried)
    uint64_t overlapped;  ///< pairs overlapping at the start too deep for the cores to guard (left to ODE alone)
    uint64_t held;        ///< bodies pressing into a mesh triangle from behind (no ODE contact there): kept at their start pose
    uint64_t failed;      ///< TOIs that hit the iteration cap (stopped at their safe time)
    uint64_t unsupported; ///< geoms of classes the CCD ignores, seen in the candidate search
    uint64_t forgotten;   ///< CCD bodies dropped because they left the space or were destroyed
    uint64_t errors;      ///< bad calls and bad states reported
    double seconds;       ///< CPU time (this thread's) spent in before_step and after_step
} sccd_ode_counters;

/// The CCD state of one world and space.
typedef struct sccd_ode_world sccd_ode_world;

/// The default options: sccd_ccd_options_default(0.001), a millimetre in metres.
sccd_ccd_options sccd_ode_options_default(void);
/// Attach CCD to a world and the space holding its geoms. NULL world or space: reported, NULL.
sccd_ode_world *sccd_ode_attach(dWorldID world, dSpaceID space);
/// Enable CCD on a dynamic or kinematic body of the world with at least one geom in the space. Bad use: reported, nothing changes.
void sccd_ode_body_enable(sccd_ode_world *w, dBodyID body);
/// Disable CCD on a body. Unknown body: reported, nothing changes.
void sccd_ode_body_disable(sccd_ode_world *w, dBodyID body);
/// Set the rotation centre of a CCD body (body coordinates, e.g. the hand or hinge; default the centre of mass).
void sccd_ode_body_set_pivot(sccd_ode_world *w, dBodyID body, const dReal local_pivot[3]);
/// True when body has CCD enabled in w.
bool sccd_ode_body_is_enabled(const sccd_ode_world *w, dBodyID body);
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
/// Resolve the step's impacts (call after dWorldStep / dWorldQuickStep); a NaN pose is reported and the body put back at its start pose, at rest.
void sccd_ode_after_step(sccd_ode_world *w);
/// Free the world (ODE objects are untouched). NULL: nothing.
void sccd_ode_detach(sccd_ode_world *w);
/* ================================================================= end CCD == */

#endif
