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

/* ==== end of the broadphase section ==== */

#endif
