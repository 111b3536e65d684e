/* libFuzzer target for the whole pipeline on whatever a loader accepts:
 * voxelise at a small resolution (the first byte), fill both ways, check
 * coverage, build both trees and query them. Build and run: make fuzz. */
#include <stdint.h>
#include <stdlib.h>

#include "sectorccd/sectorccd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void silent(const char *condition, const char *file, int line)
{
    (void)condition, (void)file, (void)line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 4096)
        return 0;
    sccd_set_assert_handler(silent); /* degenerate meshes are refused with a check */
    sccd_mesh m;
    sccd_voxel_grid g;
    sccd_sphere_list l;
    sccd_spheretree t;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&g);
    sccd_sphere_list_init(&l);
    sccd_spheretree_init(&t);
    sccd_mesh_report r;
    if (sccd_mesh_load_buffer(&m, data + 1, size - 1, SCCD_MESH_AUTO).state == SCCD_LOAD_OK &&
        (r = sccd_mesh_report_make(&m), r.triangles > 0 && r.triangles < 200) &&
        sccd_voxelize(&g, &m, 4 + data[0] % 13)) {
        for (int f = 0; f < 2; ++f) {
            sccd_spherefill(&l, &g, (sccd_fill_method)f);
            sccd_fill_check c = sccd_spherefill_check(&g, l.s, l.n);
            if (c.covered != c.inside || (f == 1 && c.outside_hits != 0))
                abort();
            if (l.n > 0 && sccd_spheretree_build(&t, l.s, l.n, (sccd_bound_method)f) &&
                !sccd_spheretree_vs_spheretree(&t, sccd_xf3_identity(), &t, sccd_xf3_identity()))
                abort(); /* a tree always touches itself */
        }
    }
    sccd_spheretree_destroy(&t);
    sccd_sphere_list_destroy(&l);
    sccd_voxel_grid_destroy(&g);
    sccd_mesh_destroy(&m);
    return 0;
}
