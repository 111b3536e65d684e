/* Private to impact3.c: a bounding-box tree over each body's shapes, so
 * that the search of a body pair visits only the shape pairs whose motion
 * boxes may meet. A mesh body is many triangle shapes: testing every pair of
 * two meshes' triangles would cost n·m box tests a search, the trees cost
 * about the triangles near each other.
 *
 * The trees prune, they never decide: a node's box holds bound[0] of every
 * shape below it, so its motion box over the body's segment holds theirs
 * (sccd_shape3_motion_box grows with the shape: the box at every pose and
 * the core's farthest point both grow, a shape's core reaching no farther
 * than the shape and a node's box having no rounding), and a pair of
 * shapes whose motion boxes meet lies under a pair of nodes whose boxes
 * meet. The caller's visit still
 * applies its exact per-shape test, so the pairs it searches are those the
 * full double loop would search. Half-spaces (no box) are matched against
 * the other body's tree by the caller's reach test.
 *
 * The node pairs are taken earliest first (two small trees: in any order,
 * by their boxes alone): a node pair's time is a lower
 * bound of the first contact of anything under it (the TOI of the two node
 * boxes, toward a distance a little above the skin), and the walk stops at
 * the first node pair that cannot touch before the earliest event found. A
 * mesh bat swung through a mesh post in one step then searches the
 * triangles that meet first, not every pair its swept boxes let through. */
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
    int *root;   /* per body: its root node, -1 when it has only half-spaces or nothing, SCCD_TREE_LATER not made yet */
    int *planes; /* per body: how many half-spaces lead its range of order */
    struct node_pair *heap; /* a search's node pairs, earliest first (a binary heap) ... */
    int heap_cap;           /* ... room for this many: a search that needs more walks the rest unordered */
    sccd_aabb3 *local;      /* per shape: its box in its body's coordinates (while its tree is built) */
    int nodes;              /* nodes made */
    int shape_room, body_room; /* the shapes and bodies the arrays have room for */
} sccd_shape_trees3;

/* One side of a pair: a body, the segment it moves on and that segment's key. */
typedef struct sccd_tree_side3 {
    int body;
    sccd_motion3 m;     /* the body's whole current segment (node boxes are cached per segment) */
    unsigned segment;   /* changes whenever the segment does */
    sccd_motion3 part;  /* the part of it the search covers: from time tc to the step's end */
} sccd_tree_side3;

/* The root of a body of one convex shape, made at its first walk: most
 * such bodies are searched only against others like them, shape pair
 * against shape pair without a tree (impact3.c's single_pair), and making
 * their leaves at every solve's start was 1.7 % of the CCD's instructions
 * in ODE's debris rain (ccd_scale's 1,000 + 100). */
#define SCCD_TREE_LATER (-2)

/* Whether the half-space shape `plane` reaches box (world). */
typedef bool sccd_tree_reaches_fn(void *context, int plane, sccd_aabb3 box);
/* Search shapes sa (of the pair's first body) and sb (of its second);
 * returns the earliest event time of the body pair so far (INFINITY: none). */
typedef sccd_real sccd_tree_visit_fn(void *context, int sa, int sb);

/* Build the trees of bodies [from, body_count) (shapes grouped by body, as
 * the solver checked; theirs come after shape from_shape), with the room a
 * search orders its node pairs in, in the scratch block (a search allocates
 * nothing). From 0: every body's; later, bodies the solver took in mid-step
 * (the trees made before are kept, moved to a bigger block when needed).
 * False out of memory. */
bool sccd_shape_trees3_build(sccd_shape_trees3 *t, void **block, size_t *bytes, const sccd_impact_body3 *bodies, int from,
                             int body_count, const sccd_impact_shape3 *shapes, int from_shape, int shape_count);

/* What a search of a body pair brings. */
typedef struct sccd_tree_search3 {
    sccd_real tc;                  /* the search's start time in the step; the sides' parts cover [tc, 1] */
    sccd_real skin, tolerance;     /* the contact skin (options.overlap) and the TOI tolerance */
    sccd_tree_reaches_fn *reaches;
    sccd_tree_visit_fn *visit;
    void *context;
    long *tois;                    /* counts the node pairs' TOIs */
} sccd_tree_search3;

/* Search bodies a and b: each half-space of one with the shapes of the
 * other its reach test lets through, then the shape pairs under node pairs
 * whose motion boxes (grown by the skin) meet, earliest node pair first (two small trees: any order),
 * until none left can touch before the earliest event found (past the
 * heap's room: every pair under the node pairs that did not fit). */
void sccd_shape_trees3_pairs(sccd_shape_trees3 *t, const sccd_impact_body3 *bodies, const sccd_impact_shape3 *shapes,
                             sccd_tree_side3 a, sccd_tree_side3 b, const sccd_tree_search3 *search);

#endif
