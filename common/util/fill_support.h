/* Test helper: a mesh's fill in one call (voxelise, then fill). */
#ifndef SCCD_FILL_SUPPORT_H
#define SCCD_FILL_SUPPORT_H

#include "sectorccd/sectorccd.h"

/// Voxelise m at res cells along its longest side and fill it with method into out; false when m cannot be voxelised.
bool sccd_test_fill(const sccd_mesh *m, int res, sccd_fill_method method, sccd_sphere_list *out);

#endif
