/* Test helpers: a mesh's fill in one call (voxelise, then fill); the
 * coverage check of bounding trees. */
#ifndef SCCD_FILL_SUPPORT_H
#define SCCD_FILL_SUPPORT_H

#include "sectorccd/sectorccd.h"
#include "test_util.h"

/// Voxelise m at res cells along its longest side and fill it with method into out; false when m cannot be voxelised.
bool sccd_test_fill(const sccd_mesh *m, int res, sccd_fill_method method, sccd_sphere_list *out);

/// The generated sword flattened to a blade 2 mm thick at its widest (sccd_mesh_sword's is 1 cm); false when it fails.
bool sccd_test_thin_sword(sccd_mesh *m);
/// Points of the surface of m missed by the bounding tree t: n area-weighted random points and every triangle corner,
/// each counted unless it lies in a leaf sphere that lists its triangle (brute force over the leaves).
int sccd_test_uncovered(const sccd_meshtree *t, const sccd_mesh *m, int n, sccd_rng *g);

#endif
