/* Exact queries on bounding trees (meshtree.h): descend while the node
 * spheres touch, then test the leaves' triangles; and the sampled outward
 * error.
 *
 * The spheres are grown by a slack above the catalogue's touching
 * tolerance (SCCD_EPS of the coordinates' size), so a pair of triangles the
 * triangle test calls touching is never culled by its leaves: the point
 * they share lies in both leaves (the leaves cover the surface), so those
 * spheres touch, up to rounding that the slack absorbs. */
#include "sectorccd/meshtree.h"
#include "sectorccd/catalogue.h"
#include "sectorccd/geometry.h"

/* Sphere s placed by xf, grown by twice the touching tolerance. */
static sccd_sphere place(sccd_sphere s, sccd_xf3 xf)
{
    s.c = sccd_xf3_apply(xf, s.c);
    s.r += 2.0 * SCCD_EPS * (s.r + fabs(s.c.x) + fabs(s.c.y) + fabs(s.c.z));
    return s;
}

static sccd_sphere placed(const sccd_spheretree_node *n, sccd_xf3 xf) { return place(n->bound, xf); }

static bool spheres_touch(sccd_sphere a, sccd_sphere b)
{
    sccd_real reach = a.r + b.r;
    return sccd_v3_len2(sccd_v3_sub(a.c, b.c)) <= reach * reach;
}

/* Triangle i of t placed by xf. */
static sccd_triangle world_triangle(const sccd_meshtree *t, int i, sccd_xf3 xf)
{
    sccd_triangle tri = sccd_mesh_triangle(&t->mesh, i);
    return (sccd_triangle){sccd_xf3_apply(xf, tri.a), sccd_xf3_apply(xf, tri.b), sccd_xf3_apply(xf, tri.c)};
}

typedef struct pair_query { const sccd_meshtree *a, *b; sccd_xf3 xa, xb; } pair_query;

/* The triangles of leaf la of a against those of leaf lb of b: a triangle
 * whose sphere misses the other leaf, or a pair whose spheres miss each
 * other, cannot meet (every sphere holds its triangle). */
static bool leaves_meet(const pair_query *q, int la, int lb)
{
    const sccd_meshtree *a = q->a, *b = q->b;
    sccd_sphere leaf_a = place(a->tree.leaves[la], q->xa), leaf_b = place(b->tree.leaves[lb], q->xb);
    for (int i = a->tri_first[la]; i < a->tri_first[la + 1]; ++i) {
        sccd_sphere sa = place(a->tri_bound[a->tris[i]], q->xa);
        if (!spheres_touch(sa, leaf_b))
            continue;
        sccd_triangle ta = world_triangle(a, a->tris[i], q->xa);
        for (int j = b->tri_first[lb]; j < b->tri_first[lb + 1]; ++j) {
            sccd_sphere sb = place(b->tri_bound[b->tris[j]], q->xb);
            if (spheres_touch(sb, sa) && spheres_touch(sb, leaf_a) &&
                sccd_triangle_vs_triangle(ta, world_triangle(b, b->tris[j], q->xb)))
                return true;
        }
    }
    return false;
}

/* True at the first pair of meeting triangles; the larger node is split first. */
static bool descend_pair(const pair_query *q, int ia, int ib)
{
    const sccd_spheretree_node *na = &q->a->tree.nodes[ia], *nb = &q->b->tree.nodes[ib];
    if (!spheres_touch(placed(na, q->xa), placed(nb, q->xb)))
        return false;
    if (na->count == 0 && nb->count == 0)
        return leaves_meet(q, na->leaf_first, nb->leaf_first);
    bool split_a = nb->count == 0 || (na->count > 0 && na->bound.r >= nb->bound.r);
    const sccd_spheretree_node *n = split_a ? na : nb;
    for (int i = 0; i < n->count; ++i)
        if (split_a ? descend_pair(q, n->first + i, ib) : descend_pair(q, ia, n->first + i))
            return true;
    return false;
}

static bool valid_tree(const sccd_meshtree *t) { return t != NULL && t->tree.node_count > 0 && t->tri_first != NULL; }

bool sccd_meshtree_vs_meshtree(const sccd_meshtree *a, sccd_xf3 xa, const sccd_meshtree *b, sccd_xf3 xb)
{
    bool ok = valid_tree(a) && valid_tree(b) && sccd_is_valid_xf3(xa) && sccd_is_valid_xf3(xb);
    SCCD_ASSERT(ok);
    pair_query q = {a, b, xa, xb};
    return ok && descend_pair(&q, 0, 0);
}

/* ---- against a primitive ---- */

bool sccd_shape3_vs_triangle(const sccd_shape3 *s, sccd_triangle tri)
{
    bool ok = s != NULL && s->type != SCCD_SHAPE_POLY;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_sphere_vs_triangle(s->sphere, tri);
    case SCCD_SHAPE_CAPSULE: return sccd_capsule3_vs_triangle(s->capsule, tri);
    default: return sccd_box3_vs_triangle(s->box, tri);
    }
}

/* Distance from p to the shape (0 inside), for culling. */
static sccd_real shape_distance(const sccd_shape3 *s, sccd_v3 p)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_max(0.0, sccd_v3_dist(p, s->sphere.c) - s->sphere.r);
    case SCCD_SHAPE_CAPSULE: {
        sccd_capsule3 k = s->capsule;
        return sccd_max(0.0, sccd_v3_dist(p, sccd_closest_point_segment3(p, k.a, k.b, NULL)) - k.r);
    }
    default: {
        sccd_box3 b = s->box;
        sccd_v3 l = sccd_quat_inv_apply(b.q, sccd_v3_sub(p, b.c));
        sccd_v3 q = {sccd_clamp(l.x, -b.h.x, b.h.x), sccd_clamp(l.y, -b.h.y, b.h.y), sccd_clamp(l.z, -b.h.z, b.h.z)};
        return sccd_v3_dist(l, q);
    }
    }
}

typedef struct shape_query { const sccd_meshtree *t; sccd_xf3 xf; const sccd_shape3 *s; sccd_real slack; } shape_query;

static bool descend_shape(const shape_query *q, int node)
{
    const sccd_spheretree_node *n = &q->t->tree.nodes[node];
    sccd_sphere s = placed(n, q->xf);
    if (shape_distance(q->s, s.c) > s.r + q->slack)
        return false;
    if (n->count == 0) {
        for (int i = q->t->tri_first[n->leaf_first]; i < q->t->tri_first[n->leaf_first + 1]; ++i) {
            sccd_sphere b = place(q->t->tri_bound[q->t->tris[i]], q->xf);
            if (shape_distance(q->s, b.c) <= b.r + q->slack &&
                sccd_shape3_vs_triangle(q->s, world_triangle(q->t, q->t->tris[i], q->xf)))
                return true;
        }
        return false;
    }
    for (int i = 0; i < n->count; ++i)
        if (descend_shape(q, n->first + i))
            return true;
    return false;
}

bool sccd_meshtree_vs_shape(const sccd_meshtree *t, sccd_xf3 xf, const sccd_shape3 *s)
{
    bool ok = valid_tree(t) && sccd_is_valid_xf3(xf) && s != NULL && s->type != SCCD_SHAPE_POLY && sccd_is_valid_shape3(s);
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    /* the shape's own size enters the catalogue's tolerance too */
    sccd_real mag = s->type == SCCD_SHAPE_CIRCLE    ? sccd_v3_len(s->sphere.c) + s->sphere.r
                    : s->type == SCCD_SHAPE_CAPSULE ? sccd_max(sccd_v3_len(s->capsule.a), sccd_v3_len(s->capsule.b)) + s->capsule.r
                                                    : sccd_v3_len(s->box.c) + sccd_v3_len(s->box.h);
    shape_query q = {t, xf, s, 2.0 * SCCD_EPS * mag};
    return descend_shape(&q, 0);
}

/* ---- the sampled outward error ---- */

/* Point k of n spread evenly over the unit sphere (a Fibonacci lattice). */
static sccd_v3 fibonacci(int k, int n)
{
    sccd_real z = 1.0 - (2.0 * k + 1.0) / n, rho = sqrt(sccd_max(0.0, 1.0 - z * z));
    sccd_real phi = k * SCCD_PI * (3.0 - sqrt(5.0));
    return (sccd_v3){rho * cos(phi), rho * sin(phi), z};
}

/* The farthest sample of leaf i outside the mesh. An outside point of the
 * leaf is within the leaf's proved bound e of the surface, so its nearest
 * triangle lies within r + e of the centre: the distance over those
 * triangles (tris) is exact for it, and a sample farther than e from them
 * is inside. Only the nearer ones need the (costly) inside test. */
static sccd_real leaf_reach(const sccd_meshtree *t, int i, int n, int *tris)
{
    sccd_sphere s = t->tree.leaves[i];
    sccd_real e = t->leaf_error[i] * (1.0 + 1e-9), worst = 0.0;
    int near = 0;
    for (int k = 0; k < t->mesh.nt; ++k)
        if (sccd_distance_point_triangle(s.c, sccd_mesh_triangle(&t->mesh, k)) <= s.r + e)
            tris[near++] = k;
    for (int k = 0; k < n; ++k) {
        sccd_v3 p = sccd_v3_mad(s.c, s.r, fibonacci(k, n));
        sccd_real d = INFINITY;
        for (int q = 0; q < near; ++q)
            d = sccd_min(d, sccd_distance_point_triangle(p, sccd_mesh_triangle(&t->mesh, tris[q])));
        if (d > worst && d <= e && sccd_mesh_winding_number(&t->mesh, p) < 0.5)
            worst = d;
    }
    return worst;
}

bool sccd_meshtree_measure(const sccd_meshtree *t, int n, sccd_real *worst, sccd_real *mean)
{
    bool ok = valid_tree(t) && n >= 1;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    int *tris = sccd_alloc((size_t)t->mesh.nt * sizeof *tris);
    if (!tris)
        return false;
    sccd_real w = 0.0, sum = 0.0;
    for (int i = 0; i < t->tree.leaf_count; ++i) {
        sccd_real r = leaf_reach(t, i, n, tris);
        w = sccd_max(w, r);
        sum += r;
    }
    sccd_free(tris);
    if (worst)
        *worst = w;
    if (mean)
        *mean = sum / t->tree.leaf_count;
    return true;
}
