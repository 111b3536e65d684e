/* sectorccd — bounding sphere trees of a triangle mesh ("outer" trees) and
 * exact queries on them.
 *
 * The leaves cover every point of the mesh surface, by construction: the
 * triangles are cut into pieces and each piece goes to a leaf that holds its
 * three corners; a sphere is convex, so it holds the whole piece. Every node
 * sphere holds the leaf spheres below it (spheretree.h). So node spheres
 * that are apart prove the surfaces apart, and a leaf that is reached keeps
 * the list of triangles it covers pieces of: queries cull with the spheres
 * and decide with triangle tests, and answer exactly what testing every
 * triangle would.
 *
 * Choosing the leaves: candidate centres are points c inside the mesh at a
 * known distance D(c) from the surface (the centres of the greedy inner
 * fill, spherefill.h, and per piece the midpoint of its inward ray to the
 * opposite wall; the piece's centroid, D = 0, where that fails). The ball of
 * radius D(c) about c lies inside the mesh, and every point of a sphere of
 * radius r about c lies within r − D(c) of it: r − D(c) bounds, by proof,
 * how far the leaf reaches beyond the surface. For a bound ε, c may take a
 * piece whose corners lie within D(c) + ε; a greedy set cover picks centres
 * (most uncovered pieces first), then each piece goes to the picked centre
 * that needs the smallest excess and every leaf shrinks to its pieces. With
 * a leaf budget, ε is bisected to the smallest that fits.
 *
 * Outward error, as the issue and Bradshaw measure it: how far the union of
 * the leaves reaches beyond the surface. sccd_meshtree_measure samples it;
 * error_bound is the proof. Inside means a generalised winding number above
 * 1/2 (exact parity for a closed mesh). */
#ifndef SECTORCCD_MESHTREE_H
#define SECTORCCD_MESHTREE_H

#include "sectorccd/mesh.h"
#include "sectorccd/spheretree.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How a bounding tree is built (sccd_meshtree_default_options, then change what you need).
typedef struct sccd_meshtree_options {
    int max_leaves;          ///< > 0: at most this many leaves, at the smallest error bound found by bisection; 0: meet error
    sccd_real error;         ///< with max_leaves 0: the outward error bound to meet, as a share of the box diagonal (> 0)
    int res;                 ///< resolution of the inner greedy fill whose centres are candidates (0: none; else 4..SCCD_VOXEL_MAX_RES)
    sccd_real piece;         ///< longest edge of a triangle piece, as a share of the box diagonal (> 0)
    sccd_bound_method nodes; ///< how node spheres are made
} sccd_meshtree_options;

/// A bounding tree with the triangles at its leaves, caller-owned (init / build / destroy).
typedef struct sccd_meshtree {
    sccd_spheretree tree;   ///< the leaves cover the surface; body coordinates
    sccd_mesh mesh;         ///< a copy of the mesh
    int *tri_first;         ///< leaf i (tree order) covers pieces of triangles tris[tri_first[i] .. tri_first[i + 1] − 1] [leaf_count + 1]
    int *tris;              ///< triangle indices, ascending per leaf
    sccd_sphere *tri_bound; ///< per triangle of the mesh, a sphere around it (centroid, farthest corner): the cull inside a leaf [mesh.nt]
    sccd_real *leaf_error;  ///< per leaf, the proved bound r − D(c) on its reach beyond the surface [leaf_count]
    sccd_real error_bound;  ///< the largest leaf_error (world units)
    sccd_real diagonal;     ///< the mesh's box diagonal
    int pieces, candidates; ///< triangle pieces covered, candidate centres considered
} sccd_meshtree;

/// Defaults: no leaf budget, error bound 2 % of the diagonal, inner fill at resolution 48, pieces of 1/64 of the diagonal, tight node spheres.
sccd_meshtree_options sccd_meshtree_default_options(void);
/// Empty tree, no allocation.
void sccd_meshtree_init(sccd_meshtree *t);
/// Free the tree; NULL accepted.
void sccd_meshtree_destroy(sccd_meshtree *t);
/// Build over mesh m (copied; at least one triangle, finite, non-zero box) with options o (NULL: defaults); replaces the
/// content. False (assert) on bad input, false out of memory; either leaves the tree empty.
bool sccd_meshtree_build(sccd_meshtree *t, const sccd_mesh *m, const sccd_meshtree_options *o);

/// Sampled outward error: per leaf, the farthest of n ≥ 1 points spread over its sphere that lies outside the mesh,
/// measured to the surface; *worst and *mean (either may be NULL) over the leaves, world units. False (assert) on bad input.
bool sccd_meshtree_measure(const sccd_meshtree *t, int n, sccd_real *worst, sccd_real *mean);

/// True when some triangle of a (pose xa) meets some triangle of b (pose xb): sccd_triangle_vs_triangle on the world
/// triangles, exactly the answer of testing every pair.
bool sccd_meshtree_vs_meshtree(const sccd_meshtree *a, sccd_xf3 xa, const sccd_meshtree *b, sccd_xf3 xb);
/// True when some triangle of t (pose xf) meets the sphere, capsule or box s (world), with the catalogue's tests.
bool sccd_meshtree_vs_shape(const sccd_meshtree *t, sccd_xf3 xf, const sccd_shape3 *s);
/// The triangle test behind sccd_meshtree_vs_shape: triangle tri meets the sphere, capsule or box s.
bool sccd_shape3_vs_triangle(const sccd_shape3 *s, sccd_triangle tri);

#ifdef __cplusplus
}
#endif

#endif
