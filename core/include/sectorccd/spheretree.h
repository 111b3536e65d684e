/* sectorccd — sphere trees (seed 003 §3.2–3.3): an octree over the centres
 * of filling spheres, split until one centre per cell, with a bounding
 * sphere per node; overlap and contact queries against another tree, a
 * sphere, a capsule, a box, a plane (a half-space), and ray casts.
 *
 * A tree lives in body coordinates; every query takes its pose (sccd_xf3)
 * and returns world results. Touching counts as overlap. Conservative by
 * construction: every node's sphere contains its children's spheres and the
 * leaf spheres below it (its radius is measured to the farthest of their
 * surfaces from its final centre), so pruning on node spheres never drops a
 * touching leaf pair. */
#ifndef SECTORCCD_SPHERETREE_H
#define SECTORCCD_SPHERETREE_H

#include "sectorccd/sweep3.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How node bounding spheres are made.
typedef enum sccd_bound_method {
    SCCD_BOUND_SEED,  ///< seed 003 §3.2: centre of the box around the children's centres, radius to the farthest child surface
    SCCD_BOUND_TIGHT  ///< near-minimal sphere around the leaf spheres below, grown to hold the children's (iterated, never larger than the seed's)
} sccd_bound_method;

/// A node: its bounding sphere (body coordinates), children first..first+count-1 (count 0: a leaf, whose
/// sphere is leaves[leaf_first]), the leaves below it leaf_first..leaf_first+leaf_count-1, and its depth.
typedef struct sccd_spheretree_node {
    sccd_sphere bound;
    int first, count;
    int leaf_first, leaf_count;
    int level;
} sccd_spheretree_node;

/// A sphere tree, caller-owned (init / build / destroy). nodes[0] is the root.
typedef struct sccd_spheretree {
    sccd_spheretree_node *nodes; ///< nodes [node_count]
    sccd_sphere *leaves;         ///< leaf spheres [leaf_count], in tree order (each subtree's leaves contiguous)
    int node_count, leaf_count;  ///< counts
    int depth;                   ///< deepest level (root = 0); -1 when empty
    int *leaf_source;            ///< leaf i is sphere leaf_source[i] of the array the tree was built from [leaf_count]
} sccd_spheretree;

/// A contact between a leaf sphere of tree a and the other shape b (world): unit normal from a to b
/// (moving b along it by depth separates them), depth ≥ 0, point midway between the two surfaces.
typedef struct sccd_spheretree_contact {
    sccd_v3 point, normal;
    sccd_real depth;
    int leaf_a, leaf_b; ///< leaf indices (leaf_b = -1 when b is not a tree)
} sccd_spheretree_contact;

/// First hit of a ray: t along o + t·d (0 when the origin is inside a leaf), world point and outward normal.
typedef struct sccd_spheretree_ray_result {
    bool hit;
    sccd_real t;
    sccd_v3 point, normal;
    int leaf;
} sccd_spheretree_ray_result;

/// Empty tree, no allocation.
void sccd_spheretree_init(sccd_spheretree *t);
/// Free the tree; NULL accepted.
void sccd_spheretree_destroy(sccd_spheretree *t);
/// Build over n ≥ 1 valid spheres (copied) with radius ≥ 0; replaces the content. False (assert) on bad input
/// or out of memory, leaving the tree empty. Coincident centres end up as siblings under one node.
bool sccd_spheretree_build(sccd_spheretree *t, const sccd_sphere *s, int n, sccd_bound_method method);
/// Sum of the node sphere volumes at each level (vol[L], L = 0..cap-1); returns the number of levels.
int sccd_spheretree_level_volume(const sccd_spheretree *t, sccd_real *vol, int cap);

/// True when some leaf of a (pose xa) touches some leaf of b (pose xb) (seed 003 §3.3).
bool sccd_spheretree_vs_spheretree(const sccd_spheretree *a, sccd_xf3 xa, const sccd_spheretree *b, sccd_xf3 xb);
/// All touching leaf pairs of a and b: returns how many, stores the first cap in out (may be NULL when cap is 0).
int sccd_spheretree_contacts(const sccd_spheretree *a, sccd_xf3 xa, const sccd_spheretree *b, sccd_xf3 xb,
                             sccd_spheretree_contact *out, int cap);

/// True when a leaf of t (pose xf) touches the sphere s (world).
bool sccd_spheretree_vs_sphere(const sccd_spheretree *t, sccd_xf3 xf, sccd_sphere s);
/// True when a leaf of t touches the capsule c (world).
bool sccd_spheretree_vs_capsule(const sccd_spheretree *t, sccd_xf3 xf, sccd_capsule3 c);
/// True when a leaf of t touches the solid box b (world).
bool sccd_spheretree_vs_box(const sccd_spheretree *t, sccd_xf3 xf, sccd_box3 b);
/// True when a leaf of t touches the half-space n·x ≤ d of plane p (world).
bool sccd_spheretree_vs_plane(const sccd_spheretree *t, sccd_xf3 xf, sccd_plane p);
/// Contacts of t's leaves with a sphere, capsule or box s (world); returns how many, stores the first cap.
int sccd_spheretree_contacts_shape(const sccd_spheretree *t, sccd_xf3 xf, const sccd_shape3 *s,
                                   sccd_spheretree_contact *out, int cap);
/// Contacts of t's leaves with the half-space of plane p (world); returns how many, stores the first cap.
int sccd_spheretree_contacts_plane(const sccd_spheretree *t, sccd_xf3 xf, sccd_plane p, sccd_spheretree_contact *out,
                                   int cap);
/// First leaf hit by the ray (world) with 0 ≤ t ≤ max_t.
sccd_spheretree_ray_result sccd_spheretree_raycast(const sccd_spheretree *t, sccd_xf3 xf, sccd_ray3 ray, sccd_real max_t);

/* Continuous queries with the conservative sweeps of sweep3.h. Never a miss:
 * a node sphere contains its leaves, so the sweep of a node's sphere contains
 * the sweeps of its leaves, and pruning on it drops nothing that touches.
 * Bad input: the check fires and the answer is true ("may touch"). */

/// True when the swept shape w may touch a leaf of the static tree t at pose xf.
bool sccd_spheretree_vs_sweep3(const sccd_spheretree *t, sccd_xf3 xf, const sccd_sweep3 *w);
/// The leaves of t (pose xf) that w may touch: returns how many, stores the first cap leaf indices.
int sccd_spheretree_sweep3_leaves(const sccd_spheretree *t, sccd_xf3 xf, const sccd_sweep3 *w, int *out, int cap);
/// True when tree t moving by motion m (pose m.start at t = 0; node spheres swept in bands 1..SCCD_MAX_BANDS bands)
/// may touch the static sphere, capsule or box s (world) — a swung mesh bat as the CCD body.
bool sccd_spheretree_swept_vs_shape(const sccd_spheretree *t, sccd_motion3 m, int bands, const sccd_shape3 *s);
/// True when tree t moving by m may touch a leaf of the static tree o at pose xo.
bool sccd_spheretree_swept_vs_spheretree(const sccd_spheretree *t, sccd_motion3 m, int bands, const sccd_spheretree *o,
                                         sccd_xf3 xo);

#ifdef __cplusplus
}
#endif

#endif
