/* Private to impact3.c: a bounding-box tree over each body's shapes, so
 * that the search of a body pair visits only the shape pairs whose motion
 * boxes may meet. A mesh body is many triangle shapes: testing every pair of
 * two meshes' triangles would cost n·m box tests a search, the trees cost
 * about the triangles near each other.
 *
 * The trees prune, they never decide: a node's box holds bound[0] of every
 * shape below it, so its motion box over the body's segment holds theirs
 * (sccd_shape3_motion_box grows with the shape: the box at every pose and
 * the farthest point both grow), and a pair of shapes whose motion boxes
 * meet lies under a pair of nodes whose boxes meet. The caller's visit still
 * applies its exact per-shape test, so the pairs it searches are those the
 * full double loop would search. Half-spaces (no box) are matched against
 * the other body's tree by the caller's reach test. */
#ifndef SCCD_IMPACT_TREE3_H
#define SCCD_IMPACT_TREE3_H

#include <stddef.h>

#include "sectorccd/impact.h"

/* A node: a box holding its shapes, in its body's coordinates. */
typedef struct sccd_tree_node3 {
    sccd_shape3 box;    /* a box shape holding bound[0] of every shape below */
    int child;          /* its first child (the second follows), -1: a leaf */
    int first, count;   /* its shapes: order[first .. first + count - 1] */
    unsigned boxed;     /* the body segment its motion box is of (0: none) */
    sccd_aabb3 motion;  /* its motion box over that segment, grown by the skin */
} sccd_tree_node3;

/* The trees of a step's bodies, in the solver's scratch. */
typedef struct sccd_shape_trees3 {
    sccd_tree_node3 *node;
    int *order;  /* shape indices, each body over its own range: its half-spaces first, then its other shapes by tree */
    int *root;   /* per body: its root node, -1 when it has only half-spaces or nothing */
    int *planes; /* per body: how many half-spaces lead its range of order */
} sccd_shape_trees3;

/* One side of a pair: a body, the segment it moves on and that segment's key. */
typedef struct sccd_tree_side3 {
    int body;
    sccd_motion3 m;     /* the body's whole current segment (node boxes are cached per segment) */
    unsigned segment;   /* changes whenever the segment does */
} sccd_tree_side3;

/* Whether the half-space shape `plane` reaches box (world). */
typedef bool sccd_tree_reaches_fn(void *context, int plane, sccd_aabb3 box);
/* A shape pair that may meet: sa of the pair's first body, sb of its second. */
typedef void sccd_tree_visit_fn(void *context, int sa, int sb);

/* Build every body's tree (shapes grouped by body, as the solver checked);
 * memory from the scratch block. False out of memory. */
bool sccd_shape_trees3_build(sccd_shape_trees3 *t, void **block, size_t *bytes, const sccd_impact_body3 *bodies, int body_count,
                             const sccd_impact_shape3 *shapes, int shape_count);

/* Visit every shape pair of bodies a and b whose nodes' motion boxes (grown
 * by skin) meet, and every half-space of one with the shapes of the other
 * its reach test lets through. */
void sccd_shape_trees3_pairs(sccd_shape_trees3 *t, const sccd_impact_body3 *bodies, sccd_tree_side3 a, sccd_tree_side3 b,
                             sccd_real skin, sccd_tree_reaches_fn *reaches, sccd_tree_visit_fn *visit, void *context);

#endif
