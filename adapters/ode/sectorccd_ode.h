/* sectorccd for ODE 0.16: the adapters (shared/DESIGN.md "Adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_ODE_H
#define SECTORCCD_ODE_H

#include <ode/ode.h>
#include "sectorccd/sectorccd.h"

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
