/* Test helper: a mesh's fill in one call. */
#include "fill_support.h"

bool sccd_test_fill(const sccd_mesh *m, int res, sccd_fill_method method, sccd_sphere_list *out)
{
    sccd_voxel_grid g;
    sccd_voxel_grid_init(&g);
    bool ok = sccd_voxelize(&g, m, res);
    if (ok)
        sccd_spherefill(out, &g, method);
    sccd_voxel_grid_destroy(&g);
    return ok;
}
