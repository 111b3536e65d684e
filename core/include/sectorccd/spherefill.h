/* sectorccd — filling a mesh's inside with spheres (seed 003 §3.1): a voxel
 * grid with an inside test, the seed's run-length + digital-sphere fill, and
 * a greedy fill from an exact Euclidean distance transform that needs far
 * fewer spheres for the same coverage.
 *
 * Contract of both fills (h = cell edge): every inside cell centre lies in
 * some sphere (coverage). The greedy fill also keeps every outside cell
 * centre out of the open spheres by construction (radius = distance to the
 * nearest outside centre), which bounds how far a sphere reaches outside the
 * surface by √3·h; the seed's spheres of (r + 1/2)·h may hold a few outside
 * centres. The bound this header states for both fills, as what the leaves
 * of an inner tree promise: centres inside, reach beyond the surface at most
 * one cell edge h — checked against the exact distance on every test mesh,
 * thin ones included (tests/test_spherefill.c: a 2 mm blade, a fork, a ring
 * of 2 mm wire, the bunny when present), proved only as √3·h for the greedy
 * fill. Trees whose leaves must bound the surface are meshtree.h's. */
#ifndef SECTORCCD_SPHEREFILL_H
#define SECTORCCD_SPHEREFILL_H

#include "sectorccd/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest resolution (voxels along the longest side) a grid may have.
#define SCCD_VOXEL_MAX_RES 512

/// A voxel grid: nx·ny·nz cubes of edge h from corner origin; cell (i, j, k)
/// at index i + nx·(j + ny·k) holds 1 when its centre is inside the mesh.
/// Caller-owned: sccd_voxel_grid_init before use, sccd_voxel_grid_destroy after.
typedef struct sccd_voxel_grid {
    int nx, ny, nz;        ///< cells per axis (one empty cell of padding on each side)
    sccd_v3 origin;        ///< corner of cell (0, 0, 0)
    sccd_real h;           ///< cell edge > 0
    unsigned char *cells;  ///< nx·ny·nz flags, 1 = inside (filled by hand: from sccd_alloc, as destroy frees it with sccd_free)
    int inside;            ///< number of inside cells
    bool closed;           ///< the mesh was closed: parity along x; else a vote of x, y and z rays (open reported here)
} sccd_voxel_grid;

/// Which fill (seed 003 §3.1, or the greedy distance-transform fill).
typedef enum sccd_fill_method { SCCD_FILL_SEED, SCCD_FILL_GREEDY } sccd_fill_method;

/// A growable list of spheres, caller-owned (init / destroy).
typedef struct sccd_sphere_list {
    sccd_sphere *s;  ///< spheres [n]
    int n, cap;      ///< count, capacity
} sccd_sphere_list;

/// What a fill did.
typedef struct sccd_fill_stats {
    int spheres;     ///< spheres produced
    int rounds;      ///< seed: run-length rounds; greedy: spheres before pruning
    sccd_real max_radius; ///< largest radius (world units)
} sccd_fill_stats;

/// How well spheres fill a grid (checked per sphere against the cells).
typedef struct sccd_fill_check {
    int inside;          ///< inside cells
    int covered;         ///< inside cells whose centre lies in a sphere
    int outside_hits;    ///< outside cells whose centre lies strictly inside a sphere (must be 0)
} sccd_fill_check;

/// Empty grid, no allocation.
void sccd_voxel_grid_init(sccd_voxel_grid *g);
/// Free the cells; NULL accepted.
void sccd_voxel_grid_destroy(sccd_voxel_grid *g);
/// Voxelise m with res cells (1..SCCD_VOXEL_MAX_RES) along its longest side; inside by ray parity along x
/// for a closed mesh, by a vote of x, y and z rays (rows with an odd crossing count abstain; ties settled by the
/// generalised winding number) otherwise.
/// False (assert) on bad input (no triangles, zero extent, res out of range) or out of memory: the grid is empty.
bool sccd_voxelize(sccd_voxel_grid *g, const sccd_mesh *m, int res);
/// Centre of cell (i, j, k) in world units.
sccd_v3 sccd_voxel_center(const sccd_voxel_grid *g, int i, int j, int k);

/// Empty list.
void sccd_sphere_list_init(sccd_sphere_list *l);
/// Free the list; NULL accepted.
void sccd_sphere_list_destroy(sccd_sphere_list *l);

/// Fill the grid's inside with spheres (world units) into out (replacing its content). SEED: seed 003 §3.1
/// (largest fitting run-length cross, Michener digital-sphere check, accept all, paint, repeat);
/// GREEDY: exact EDT, shallowest uncovered cell first, each covered by the largest empty ball reached by climbing
/// the distance field from it, then redundant spheres pruned smallest first. Out of memory: out empty, spheres 0.
sccd_fill_stats sccd_spherefill(sccd_sphere_list *out, const sccd_voxel_grid *g, sccd_fill_method method);
/// Coverage and containment of n spheres against the grid (see the contract above); all zero out of memory.
sccd_fill_check sccd_spherefill_check(const sccd_voxel_grid *g, const sccd_sphere *s, int n);

/// Squared Euclidean distance (in cells) from every cell centre to the nearest outside cell centre
/// (0 for outside cells), exact, separable (Felzenszwalb–Huttenlocher); out holds nx·ny·nz values.
/// False (assert) on an empty grid or out of memory.
bool sccd_voxel_edt(const sccd_voxel_grid *g, int *out);

#ifdef __cplusplus
}
#endif

#endif
