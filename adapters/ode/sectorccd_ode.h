/* sectorccd for ODE 0.16: the adapters (shared/DESIGN.md "Adapters").
 * Engine headers are included here, never in the core. */
#ifndef SECTORCCD_ODE_H
#define SECTORCCD_ODE_H

#include <ode/ode.h>
#include "sectorccd/sectorccd.h"

/* ==== Sphere trees: a custom geom class (sccd_ode_spheretree.c) ==== */

/// A placeable geom for the sphere tree t (caller-owned, must outlive the
/// geom; the tree's coordinates are the geom's body coordinates), added to
/// space (0: none). It collides with spheres, boxes, capsules, planes and
/// other sphere-tree geoms: one contact per touching leaf, the deepest first
/// when ODE asks for fewer, normals and depths in ODE's convention. The class
/// is registered on first use (ODE has only 4 user classes: this takes one).
/// NULL or an empty tree: the check fires and 0 is returned.
dGeomID sccd_ode_spheretree_create(dSpaceID space, const sccd_spheretree *t);
/// The tree of a sphere-tree geom, or NULL when g is not one.
const sccd_spheretree *sccd_ode_spheretree_tree(dGeomID g);
/// ODE's class number of sphere-tree geoms (registers the class when ODE does not know it).
int sccd_ode_spheretree_class(void);

/* ==== end of the sphere-tree section ==== */

#endif
