#include <stdlib.h>

#include "cp_support.h"

typedef struct ptr_list { void **p; int n, cap; } ptr_list;

static void push(void *obj, void *data)
{
    ptr_list *l = data;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->p = realloc(l->p, (size_t)l->cap * sizeof *l->p);
    }
    l->p[l->n++] = obj;
}

static void push_shape(cpShape *s, void *d) { push(s, d); }
static void push_body(cpBody *b, void *d) { push(b, d); }
static void push_constraint(cpConstraint *c, void *d) { push(c, d); }

void sccd_cp_space_free_all(cpSpace *space)
{
    if (space == NULL)
        return;
    /* Collected first: a space must not change while it is iterated. */
    ptr_list shapes = {0}, bodies = {0}, constraints = {0};
    cpSpaceEachShape(space, push_shape, &shapes);
    cpSpaceEachConstraint(space, push_constraint, &constraints);
    cpSpaceEachBody(space, push_body, &bodies);
    for (int i = 0; i < shapes.n; ++i) {
        cpSpaceRemoveShape(space, shapes.p[i]);
        cpShapeFree(shapes.p[i]);
    }
    for (int i = 0; i < constraints.n; ++i) {
        cpSpaceRemoveConstraint(space, constraints.p[i]);
        cpConstraintFree(constraints.p[i]);
    }
    for (int i = 0; i < bodies.n; ++i) {
        cpSpaceRemoveBody(space, bodies.p[i]);
        cpBodyFree(bodies.p[i]);
    }
    free(shapes.p);
    free(bodies.p);
    free(constraints.p);
    cpSpaceFree(space);
}

cpVect sccd_cp_blade_point(cpVect pivot, double angle, double r) { return cpvadd(pivot, cpvmult(cpvforangle(angle), r)); }

bool sccd_cp_segments_cross(cpVect a, cpVect b, cpVect c, cpVect d)
{
    double d1 = cpvcross(cpvsub(b, a), cpvsub(c, a)), d2 = cpvcross(cpvsub(b, a), cpvsub(d, a));
    double d3 = cpvcross(cpvsub(d, c), cpvsub(a, c)), d4 = cpvcross(cpvsub(d, c), cpvsub(b, c));
    return d1 * d2 < 0.0 && d3 * d4 < 0.0;
}
