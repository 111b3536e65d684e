/* Sphere-tree queries (seed 003 §3.3): descend while node spheres touch the
 * other shape, down to the leaf spheres. Against another tree the node with
 * the larger sphere is split first (the seed splits both levels in turn;
 * the pairs reached are the same, in fewer tests). Node spheres are moved to
 * world coordinates as they are visited. */
#include "spheretree_internal.h"
#include "sectorccd/geometry.h"

/* Where results go: the first cap contacts are stored, all are counted;
 * first_only stops the descent at the first touching pair. */
typedef struct sink {
    sccd_spheretree_contact *out;
    int cap, count;
    bool first_only;
} sink;

/* The other shape of a tree–primitive query: sphere, capsule or box (in
 * shape), or a half-space. */
typedef struct prim {
    bool is_plane;
    sccd_shape3 shape;
    sccd_plane plane;
} prim;

/* Record c; false when the descent should stop. */
static bool record(sink *k, sccd_spheretree_contact c)
{
    if (k->count < k->cap)
        k->out[k->count] = c;
    k->count++;
    return !k->first_only;
}

/* Contact of sphere a with a sphere of radius rb at cb (normal a → b). */
static bool sphere_pair(sccd_sphere a, sccd_v3 cb, sccd_real rb, sccd_spheretree_contact *c)
{
    sccd_v3 d = sccd_v3_sub(cb, a.c);
    sccd_real dist2 = sccd_v3_len2(d), reach = a.r + rb;
    if (dist2 > reach * reach)
        return false;
    sccd_real dist = sqrt(dist2);
    c->normal = sccd_v3_normalize(d); /* coincident centres: SCCD_FALLBACK_V3 */
    c->depth = reach - dist;
    c->point = sccd_v3_mad(a.c, a.r - 0.5 * c->depth, c->normal);
    return true;
}

/* Sphere a against a solid box: from outside the normal points from a's
 * centre to the nearest box point; a centre inside the box is pushed out
 * through the nearest face (so b moves the other way). */
static bool sphere_box(sccd_sphere a, sccd_box3 b, sccd_spheretree_contact *c)
{
    sccd_v3 local = sccd_quat_inv_apply(b.q, sccd_v3_sub(a.c, b.c));
    sccd_v3 q = {sccd_clamp(local.x, -b.h.x, b.h.x), sccd_clamp(local.y, -b.h.y, b.h.y),
                 sccd_clamp(local.z, -b.h.z, b.h.z)};
    bool inside = q.x == local.x && q.y == local.y && q.z == local.z;
    if (!inside)
        return sphere_pair(a, sccd_v3_add(b.c, sccd_quat_apply(b.q, q)), 0.0, c);
    sccd_real gap[3] = {b.h.x - fabs(local.x), b.h.y - fabs(local.y), b.h.z - fabs(local.z)};
    sccd_real l[3] = {local.x, local.y, local.z};
    int axis = gap[0] <= gap[1] && gap[0] <= gap[2] ? 0 : (gap[1] <= gap[2] ? 1 : 2);
    sccd_v3 n = {0, 0, 0};
    (&n.x)[axis] = l[axis] >= 0.0 ? -1.0 : 1.0; /* b moves inwards from that face */
    c->normal = sccd_quat_apply(b.q, n);
    c->depth = a.r + gap[axis];
    c->point = a.c;
    return true;
}

/* Sphere a against the half-space n·x ≤ d: b moves along −n. */
static bool sphere_plane(sccd_sphere a, sccd_plane p, sccd_spheretree_contact *c)
{
    sccd_real height = sccd_v3_dot(p.n, a.c) - p.d;
    if (height - a.r > 0.0)
        return false;
    c->normal = sccd_v3_neg(p.n);
    c->depth = a.r - height;
    c->point = sccd_v3_mad(a.c, -(a.r - 0.5 * c->depth), p.n);
    return true;
}

/* Contact (or just the touch test, when c is a scratch) of sphere a with the primitive. */
static bool sphere_prim(sccd_sphere a, const prim *p, sccd_spheretree_contact *c)
{
    if (p->is_plane)
        return sphere_plane(a, p->plane, c);
    switch (p->shape.type) {
    case SCCD_SHAPE_CIRCLE: return sphere_pair(a, p->shape.sphere.c, p->shape.sphere.r, c);
    case SCCD_SHAPE_CAPSULE: {
        sccd_capsule3 k = p->shape.capsule;
        return sphere_pair(a, sccd_closest_point_segment3(a.c, k.a, k.b, NULL), k.r, c);
    }
    default: return sphere_box(a, p->shape.box, c);
    }
}

static bool descend_prim(const sccd_spheretree *t, sccd_xf3 xf, int node, const prim *p, sink *k)
{
    const sccd_spheretree_node *n = &t->nodes[node];
    sccd_spheretree_contact c;
    if (!sphere_prim(sccd_node_sphere(n, xf), p, &c))
        return true;
    if (n->count == 0) {
        c.leaf_a = n->leaf_first;
        c.leaf_b = -1;
        return record(k, c);
    }
    for (int i = 0; i < n->count; ++i)
        if (!descend_prim(t, xf, n->first + i, p, k))
            return false;
    return true;
}

static bool descend_pair(const sccd_spheretree *a, sccd_xf3 xa, int ia, const sccd_spheretree *b, sccd_xf3 xb, int ib,
                         sink *k)
{
    const sccd_spheretree_node *na = &a->nodes[ia], *nb = &b->nodes[ib];
    sccd_sphere sa = sccd_node_sphere(na, xa), sb = sccd_node_sphere(nb, xb);
    sccd_spheretree_contact c;
    if (!sphere_pair(sa, sb.c, sb.r, &c))
        return true;
    if (na->count == 0 && nb->count == 0) {
        c.leaf_a = na->leaf_first;
        c.leaf_b = nb->leaf_first;
        return record(k, c);
    }
    bool split_a = nb->count == 0 || (na->count > 0 && na->bound.r >= nb->bound.r);
    const sccd_spheretree_node *n = split_a ? na : nb;
    for (int i = 0; i < n->count; ++i) {
        bool go = split_a ? descend_pair(a, xa, n->first + i, b, xb, ib, k)
                          : descend_pair(a, xa, ia, b, xb, n->first + i, k);
        if (!go)
            return false;
    }
    return true;
}

static bool valid_tree(const sccd_spheretree *t) { return t != NULL && t->node_count > 0; }

static bool valid_sink(const sccd_spheretree_contact *out, int cap) { return cap >= 0 && (out != NULL || cap == 0); }

int sccd_spheretree_contacts(const sccd_spheretree *a, sccd_xf3 xa, const sccd_spheretree *b, sccd_xf3 xb,
                             sccd_spheretree_contact *out, int cap)
{
    bool ok = valid_tree(a) && valid_tree(b) && sccd_is_valid_xf3(xa) && sccd_is_valid_xf3(xb) && valid_sink(out, cap);
    SCCD_ASSERT(ok);
    sink k = {out, cap, 0, false};
    if (ok)
        descend_pair(a, xa, 0, b, xb, 0, &k);
    return k.count;
}

bool sccd_spheretree_vs_spheretree(const sccd_spheretree *a, sccd_xf3 xa, const sccd_spheretree *b, sccd_xf3 xb)
{
    bool ok = valid_tree(a) && valid_tree(b) && sccd_is_valid_xf3(xa) && sccd_is_valid_xf3(xb);
    SCCD_ASSERT(ok);
    sink k = {NULL, 0, 0, true};
    if (ok)
        descend_pair(a, xa, 0, b, xb, 0, &k);
    return k.count > 0;
}

/* Run a primitive query (valid inputs checked by the caller). */
static int query_prim(const sccd_spheretree *t, sccd_xf3 xf, const prim *p, sccd_spheretree_contact *out, int cap,
                      bool first_only)
{
    sink k = {out, cap, 0, first_only};
    descend_prim(t, xf, 0, p, &k);
    return k.count;
}

static bool valid_prim(const prim *p)
{
    return p->is_plane ? sccd_is_valid_plane(p->plane)
                       : p->shape.type != SCCD_SHAPE_POLY && sccd_is_valid_shape3(&p->shape);
}

/* The boundary check shared by every primitive query. */
static int prim_query(const sccd_spheretree *t, sccd_xf3 xf, const prim *p, sccd_spheretree_contact *out, int cap,
                      bool first_only)
{
    bool ok = valid_tree(t) && sccd_is_valid_xf3(xf) && valid_prim(p) && valid_sink(out, cap);
    SCCD_ASSERT(ok);
    return ok ? query_prim(t, xf, p, out, cap, first_only) : 0;
}

bool sccd_spheretree_vs_sphere(const sccd_spheretree *t, sccd_xf3 xf, sccd_sphere s)
{
    prim p = {false, {.type = SCCD_SHAPE_CIRCLE, .sphere = s}, {{0, 0, 1}, 0}};
    return prim_query(t, xf, &p, NULL, 0, true) > 0;
}

bool sccd_spheretree_vs_capsule(const sccd_spheretree *t, sccd_xf3 xf, sccd_capsule3 c)
{
    prim p = {false, {.type = SCCD_SHAPE_CAPSULE, .capsule = c}, {{0, 0, 1}, 0}};
    return prim_query(t, xf, &p, NULL, 0, true) > 0;
}

bool sccd_spheretree_vs_box(const sccd_spheretree *t, sccd_xf3 xf, sccd_box3 b)
{
    prim p = {false, {.type = SCCD_SHAPE_BOX, .box = b}, {{0, 0, 1}, 0}};
    return prim_query(t, xf, &p, NULL, 0, true) > 0;
}

bool sccd_spheretree_vs_plane(const sccd_spheretree *t, sccd_xf3 xf, sccd_plane pl)
{
    prim p = {true, {.type = SCCD_SHAPE_CIRCLE}, pl};
    return prim_query(t, xf, &p, NULL, 0, true) > 0;
}

int sccd_spheretree_contacts_shape(const sccd_spheretree *t, sccd_xf3 xf, const sccd_shape3 *s,
                                   sccd_spheretree_contact *out, int cap)
{
    SCCD_ASSERT(s != NULL);
    if (!s)
        return 0;
    prim p = {false, *s, {{0, 0, 1}, 0}};
    return prim_query(t, xf, &p, out, cap, false);
}

int sccd_spheretree_contacts_plane(const sccd_spheretree *t, sccd_xf3 xf, sccd_plane pl, sccd_spheretree_contact *out,
                                   int cap)
{
    prim p = {true, {.type = SCCD_SHAPE_CIRCLE}, pl};
    return prim_query(t, xf, &p, out, cap, false);
}

/* ---- ray casts ---- */

/* Entry parameter of the ray o + t·d into sphere s: 0 when o is inside,
 * +INFINITY on a miss. */
static sccd_real ray_sphere(sccd_v3 o, sccd_v3 d, sccd_sphere s)
{
    sccd_v3 m = sccd_v3_sub(o, s.c);
    sccd_real c = sccd_v3_len2(m) - s.r * s.r;
    if (c <= 0.0)
        return 0.0;
    sccd_real a = sccd_v3_len2(d), b = sccd_v3_dot(m, d), disc = b * b - a * c;
    if (b >= 0.0 || disc < 0.0 || a == 0.0)
        return INFINITY; /* pointing away, passing by, or a point ray outside */
    /* The root −b − √disc over a, written as c / (−b + √disc) to avoid cancellation. */
    return c / (-b + sqrt(disc));
}

static void descend_ray(const sccd_spheretree *t, int node, sccd_v3 o, sccd_v3 d, sccd_spheretree_ray_result *best)
{
    const sccd_spheretree_node *n = &t->nodes[node];
    sccd_real te = ray_sphere(o, d, sccd_node_sphere(n, sccd_xf3_identity()));
    if (te == INFINITY || te > best->t)
        return;
    if (n->count == 0) {
        best->hit = true;
        best->t = te;
        best->leaf = n->leaf_first;
        return;
    }
    for (int i = 0; i < n->count; ++i)
        descend_ray(t, n->first + i, o, d, best);
}

sccd_spheretree_ray_result sccd_spheretree_raycast(const sccd_spheretree *t, sccd_xf3 xf, sccd_ray3 ray, sccd_real max_t)
{
    sccd_spheretree_ray_result r = {false, 0.0, {0, 0, 0}, {0, 0, 0}, -1};
    bool ok = valid_tree(t) && sccd_is_valid_xf3(xf) && sccd_is_valid_ray3(ray) && !isnan(max_t) && max_t >= 0.0;
    SCCD_ASSERT(ok);
    if (!ok)
        return r;
    /* In body coordinates: the same t, as the transform is rigid. */
    sccd_v3 o = sccd_xf3_inv_apply(xf, ray.o), d = sccd_quat_inv_apply(xf.q, ray.d);
    r.t = max_t;
    descend_ray(t, 0, o, d, &r);
    if (!r.hit) {
        r.t = 0.0;
        return r;
    }
    sccd_sphere leaf = {sccd_xf3_apply(xf, t->leaves[r.leaf].c), t->leaves[r.leaf].r};
    r.point = sccd_v3_mad(ray.o, r.t, ray.d);
    /* Outward normal at the hit; from inside, away from the centre. */
    r.normal = sccd_v3_normalize(sccd_v3_sub(r.point, leaf.c));
    return r;
}
