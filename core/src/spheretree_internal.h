/* Private to the sphere-tree sources. */
#ifndef SCCD_SPHERETREE_INTERNAL_H
#define SCCD_SPHERETREE_INTERNAL_H

#include "sectorccd/spheretree.h"

/* Node n's sphere placed by xf. An inner node's radius grows by 1e-12 of
 * its size and distance from the origin, so that rounding in its bound and
 * in the transform can never prune a leaf that touches (never a miss);
 * a leaf is placed as it is, so leaf answers stay exact. */
static inline sccd_sphere sccd_node_sphere(const sccd_spheretree_node *n, sccd_xf3 xf)
{
    sccd_sphere s = {sccd_xf3_apply(xf, n->bound.c), n->bound.r};
    if (n->count > 0)
        s.r += 1e-12 * (s.r + fabs(s.c.x) + fabs(s.c.y) + fabs(s.c.z));
    return s;
}

#endif
