/* sectorccd for Chipmunk2D 7: the adapters (shared/DESIGN.md "Adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_CHIPMUNK_H
#define SECTORCCD_CHIPMUNK_H

#include <chipmunk/chipmunk.h>
#include "sectorccd/sectorccd.h"

/* ==== Broadphase: sort-and-sweep spatial index (sccd_cp_sap.c) ==== */

/// A Chipmunk spatial index (cpSpatialIndexClass) backed by our sort-and-sweep
/// index (sectorccd/broadphase.h): like cpSweep1DNew, usable wherever Chipmunk
/// takes an index. bbfunc gives an object's box; static_index (may be NULL) is
/// collided against in reindexQuery. Free it with cpSpatialIndexFree. NULL on
/// no memory.
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

#endif
