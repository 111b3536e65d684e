/* sectorccd for ODE 0.16: the adapters (shared/DESIGN.md "Adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_ODE_H
#define SECTORCCD_ODE_H

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

#endif
