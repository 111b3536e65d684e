/* Sphere trees against sweeps (docs/DESIGN.md "Sweeps"): a static tree
 * against what a swept shape covers, and a tree moving by a rigid motion
 * (each visited node sphere swept by sweep3) against a static shape or tree.
 * Pruning is by containment, so the answer is exactly "some leaf's sweep
 * bound touches", and since the sweep bounds are conservative, no contact
 * during the motion is ever missed. */
#include "spheretree_internal.h"

typedef struct leaf_sink { int *out, cap, count; bool first_only; } leaf_sink;

/* Record a leaf; false when the descent should stop. */
static bool add_leaf(leaf_sink *k, int leaf)
{
    if (k->count < k->cap)
        k->out[k->count] = leaf;
    k->count++;
    return !k->first_only;
}

static bool static_vs_sweep(const sccd_spheretree *t, sccd_xf3 xf, int node, const sccd_sweep3 *w, leaf_sink *k)
{
    const sccd_spheretree_node *n = &t->nodes[node];
    if (!sccd_sweep3_vs_sphere(w, sccd_node_sphere(n, xf)))
        return true;
    if (n->count == 0)
        return add_leaf(k, n->leaf_first);
    for (int i = 0; i < n->count; ++i)
        if (!static_vs_sweep(t, xf, n->first + i, w, k))
            return false;
    return true;
}

static bool valid_tree(const sccd_spheretree *t) { return t != NULL && t->node_count > 0; }

int sccd_spheretree_sweep3_leaves(const sccd_spheretree *t, sccd_xf3 xf, const sccd_sweep3 *w, int *out, int cap)
{
    bool ok = valid_tree(t) && sccd_is_valid_xf3(xf) && w != NULL && cap >= 0 && (out != NULL || cap == 0);
    SCCD_ASSERT(ok);
    leaf_sink k = {out, ok ? cap : 0, 0, false};
    if (ok)
        static_vs_sweep(t, xf, 0, w, &k);
    return k.count;
}

bool sccd_spheretree_vs_sweep3(const sccd_spheretree *t, sccd_xf3 xf, const sccd_sweep3 *w)
{
    bool ok = valid_tree(t) && sccd_is_valid_xf3(xf) && w != NULL;
    SCCD_ASSERT(ok);
    if (!ok)
        return true;
    leaf_sink k = {NULL, 0, 0, true};
    static_vs_sweep(t, xf, 0, w, &k);
    return k.count > 0;
}

/* The moving side: a query carries the motion and the band count. */
typedef struct swept { const sccd_spheretree *t; sccd_motion3 m; int bands; } swept;

static void sweep_node(const swept *s, int node, sccd_sweep3 *w)
{
    sccd_sweep3_sphere(w, sccd_node_sphere(&s->t->nodes[node], sccd_xf3_identity()), s->m, s->bands);
}

static bool sweep_vs_shape(const sccd_sweep3 *w, const sccd_shape3 *shape)
{
    switch (shape->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_sweep3_vs_sphere(w, shape->sphere);
    case SCCD_SHAPE_CAPSULE: return sccd_sweep3_vs_capsule(w, shape->capsule);
    default: return sccd_sweep3_vs_box(w, shape->box);
    }
}

static bool swept_shape(const swept *s, int node, const sccd_shape3 *shape)
{
    sccd_sweep3 w;
    sweep_node(s, node, &w);
    if (!sweep_vs_shape(&w, shape))
        return false;
    const sccd_spheretree_node *n = &s->t->nodes[node];
    for (int i = 0; i < n->count; ++i)
        if (swept_shape(s, n->first + i, shape))
            return true;
    return n->count == 0;
}

static bool valid_motion(sccd_motion3 m, int bands)
{
    return sccd_is_valid_motion3(m) && bands >= 1 && bands <= SCCD_MAX_BANDS;
}

bool sccd_spheretree_swept_vs_shape(const sccd_spheretree *t, sccd_motion3 m, int bands, const sccd_shape3 *s)
{
    bool ok = valid_tree(t) && valid_motion(m, bands) && s != NULL && s->type != SCCD_SHAPE_POLY &&
              sccd_is_valid_shape3(s);
    SCCD_ASSERT(ok);
    if (!ok)
        return true;
    swept q = {t, m, bands};
    return swept_shape(&q, 0, s);
}

/* Node a of the moving tree (its sweep w already built) against node b of
 * the static tree; the larger sphere is split, and a's sweep is reused while
 * b's side is split. */
static bool swept_pair(const swept *s, int a, const sccd_sweep3 *w, const sccd_spheretree *o, sccd_xf3 xo, int b)
{
    const sccd_spheretree_node *na = &s->t->nodes[a], *nb = &o->nodes[b];
    if (!sccd_sweep3_vs_sphere(w, sccd_node_sphere(nb, xo)))
        return false;
    if (na->count == 0 && nb->count == 0)
        return true;
    if (nb->count > 0 && (na->count == 0 || nb->bound.r > na->bound.r)) {
        for (int i = 0; i < nb->count; ++i)
            if (swept_pair(s, a, w, o, xo, nb->first + i))
                return true;
        return false;
    }
    for (int i = 0; i < na->count; ++i) {
        sccd_sweep3 wc;
        sweep_node(s, na->first + i, &wc);
        if (swept_pair(s, na->first + i, &wc, o, xo, b))
            return true;
    }
    return false;
}

bool sccd_spheretree_swept_vs_spheretree(const sccd_spheretree *t, sccd_motion3 m, int bands, const sccd_spheretree *o,
                                         sccd_xf3 xo)
{
    bool ok = valid_tree(t) && valid_motion(m, bands) && valid_tree(o) && sccd_is_valid_xf3(xo);
    SCCD_ASSERT(ok);
    if (!ok)
        return true;
    swept q = {t, m, bands};
    sccd_sweep3 w;
    sweep_node(&q, 0, &w);
    return swept_pair(&q, 0, &w, o, xo, 0);
}
