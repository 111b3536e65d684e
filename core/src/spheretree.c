/* Building sphere trees (seed 003 §3.2): an octree over the leaf centres,
 * split until each cell holds one centre (cells whose centres all fall in
 * one octant are not kept as nodes, so every inner node has 2..8 children),
 * then bounding spheres bottom-up. Leaves are stored in tree order, so each
 * node's leaves are one contiguous range; at most 2n − 1 nodes. */
#include "sectorccd/spheretree.h"

#include <float.h>
#include <string.h>

/* A cell smaller than this fraction of the root cell cannot separate its
 * centres (they coincide to rounding): they become siblings of one node. */
#define MIN_CELL_FRACTION 1e-12

typedef struct builder {
    sccd_spheretree *t;
    const sccd_sphere *src;
    int *order, *scratch; /* leaf permutation being partitioned, and room for it */
    sccd_real min_cell;
    sccd_bound_method method;
} builder;

void sccd_spheretree_init(sccd_spheretree *t)
{
    SCCD_ASSERT(t != NULL);
    if (t)
        *t = (sccd_spheretree){NULL, NULL, 0, 0, -1, NULL};
}

void sccd_spheretree_destroy(sccd_spheretree *t)
{
    if (!t)
        return;
    sccd_free(t->nodes);
    sccd_free(t->leaves);
    sccd_free(t->leaf_source);
    *t = (sccd_spheretree){NULL, NULL, 0, 0, -1, NULL};
}

/* Radius around c reaching the farthest surface of spheres s[0..n-1]. */
static sccd_real reach(sccd_v3 c, const sccd_sphere *s, int n)
{
    sccd_real r = 0.0;
    for (int i = 0; i < n; ++i)
        r = sccd_max(r, sccd_v3_dist(c, s[i].c) + s[i].r);
    return r;
}

/* seed 003 §3.2 (fig 8): centre of the box around the children's centres,
 * radius to the farthest point of a child sphere. */
static sccd_sphere seed_bound(const sccd_spheretree *t, const sccd_spheretree_node *n)
{
    sccd_v3 lo = t->nodes[n->first].bound.c, hi = lo;
    for (int i = 1; i < n->count; ++i) {
        lo = sccd_v3_min(lo, t->nodes[n->first + i].bound.c);
        hi = sccd_v3_max(hi, t->nodes[n->first + i].bound.c);
    }
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(lo, hi), 0.5);
    sccd_real r = 0.0;
    for (int i = 0; i < n->count; ++i)
        r = sccd_max(r, sccd_v3_dist(c, t->nodes[n->first + i].bound.c) + t->nodes[n->first + i].bound.r);
    return (sccd_sphere){c, r};
}

/* Near-minimal sphere around the leaf spheres below: Bădoiu–Clarkson
 * iterations (step 1/(k+1) towards the farthest leaf surface point) from the
 * seed's centre, keeping the best centre; the radius is then measured
 * exactly to the leaves and the children, so the sphere always contains
 * both. Never worse than the seed's own sphere, which is the starting
 * candidate. */
static sccd_sphere tight_bound(const sccd_spheretree *t, const sccd_spheretree_node *n, sccd_sphere start)
{
    const sccd_sphere *s = t->leaves + n->leaf_first;
    int m = n->leaf_count;
    sccd_sphere best = {start.c, reach(start.c, s, m)};
    sccd_v3 c = start.c;
    for (int k = 1; k <= 64; ++k) {
        int far = 0;
        sccd_real r = -1.0;
        for (int i = 0; i < m; ++i) {
            sccd_real d = sccd_v3_dist(c, s[i].c) + s[i].r;
            if (d > r)
                r = d, far = i;
        }
        if (r < best.r)
            best = (sccd_sphere){c, r};
        sccd_v3 out = sccd_v3_normalize(sccd_v3_sub(s[far].c, c));
        sccd_v3 p = sccd_v3_mad(s[far].c, s[far].r, out);
        c = sccd_v3_add(c, sccd_v3_scale(sccd_v3_sub(p, c), 1.0 / (k + 1)));
    }
    /* Exact for the kept centre, and holding the children's spheres too (a
     * parent that holds its children is a bound at every level, not only at
     * the leaves); the seed's sphere already does, so it stays the fallback. */
    best.r = sccd_max(best.r, reach(best.c, s, m));
    for (int i = 0; i < n->count; ++i) {
        sccd_sphere k = t->nodes[n->first + i].bound;
        best.r = sccd_max(best.r, sccd_v3_dist(best.c, k.c) + k.r);
    }
    return best.r <= start.r ? best : start;
}

static void make_bound(builder *b, int node)
{
    sccd_spheretree *t = b->t;
    sccd_spheretree_node *n = &t->nodes[node];
    if (n->count == 0)
        return; /* a leaf's sphere is its leaf */
    sccd_sphere s = seed_bound(t, n);
    if (b->method == SCCD_BOUND_TIGHT)
        s = tight_bound(t, n, s);
    n->bound = s;
}

static int octant(sccd_v3 p, sccd_v3 mid) { return (p.x >= mid.x) | (p.y >= mid.y) << 1 | (p.z >= mid.z) << 2; }

static void build_node(builder *b, int node, int lo, int n, sccd_v3 cell_lo, sccd_real size, int level);

/* Children of node: one per non-empty octant, or one per centre when the
 * cell can no longer separate them. Counting sort of order[lo..lo+n) by octant. */
static void split(builder *b, int node, int lo, int n, sccd_v3 cell_lo, sccd_real size, int level)
{
    sccd_spheretree *t = b->t;
    int count[8] = {0}, start[8];
    sccd_real half = 0.5 * size;
    sccd_v3 mid = sccd_v3_add(cell_lo, (sccd_v3){half, half, half});
    for (;;) {
        memset(count, 0, sizeof count);
        for (int i = 0; i < n; ++i)
            count[octant(b->src[b->order[lo + i]].c, mid)]++;
        int used = 0;
        for (int o = 0; o < 8; ++o)
            used += count[o] > 0;
        if (used > 1 || half < b->min_cell)
            break;
        /* all in one octant: shrink the cell without making a node */
        int o = octant(b->src[b->order[lo]].c, mid);
        cell_lo = (sccd_v3){o & 1 ? mid.x : cell_lo.x, o & 2 ? mid.y : cell_lo.y, o & 4 ? mid.z : cell_lo.z};
        half *= 0.5;
        mid = sccd_v3_add(cell_lo, (sccd_v3){half, half, half});
    }
    bool coincide = half < b->min_cell;
    start[0] = 0;
    for (int o = 1; o < 8; ++o)
        start[o] = start[o - 1] + count[o - 1];
    for (int i = 0; i < n; ++i) {
        int o = coincide ? 0 : octant(b->src[b->order[lo + i]].c, mid);
        b->scratch[start[o]++] = b->order[lo + i];
    }
    memcpy(b->order + lo, b->scratch, (size_t)n * sizeof *b->order);
    int first = t->node_count, kids = coincide ? n : 0;
    for (int o = 0; o < 8 && !coincide; ++o)
        kids += count[o] > 0;
    t->node_count += kids;
    t->nodes[node].first = first;
    t->nodes[node].count = kids;
    int at = lo, k = 0;
    for (int o = 0; o < 8; ++o) {
        int c = coincide ? (o == 0 ? n : 0) : count[o];
        sccd_v3 sub = {o & 1 ? mid.x : cell_lo.x, o & 2 ? mid.y : cell_lo.y, o & 4 ? mid.z : cell_lo.z};
        for (int i = 0; i < (coincide ? c : (c > 0)); ++i)
            build_node(b, first + k++, coincide ? at + i : at, coincide ? 1 : c, sub, half, level + 1);
        at += c;
    }
}

static void build_node(builder *b, int node, int lo, int n, sccd_v3 cell_lo, sccd_real size, int level)
{
    sccd_spheretree *t = b->t;
    t->nodes[node] = (sccd_spheretree_node){{{0, 0, 0}, 0}, -1, 0, lo, n, level};
    t->depth = level > t->depth ? level : t->depth;
    if (n == 1) {
        t->nodes[node].first = lo;
        t->nodes[node].bound = b->src[b->order[lo]];
        return;
    }
    split(b, node, lo, n, cell_lo, size, level);
}

/* Leaves in tree order, then bounds from the deepest nodes up (children are
 * always stored after their parent, so a reverse sweep is bottom-up). */
static void finish(builder *b)
{
    sccd_spheretree *t = b->t;
    for (int i = 0; i < t->leaf_count; ++i) {
        t->leaves[i] = b->src[b->order[i]];
        t->leaf_source[i] = b->order[i];
    }
    for (int i = t->node_count - 1; i >= 0; --i)
        make_bound(b, i);
}

static bool valid_spheres(const sccd_sphere *s, int n)
{
    if (!s || n < 1)
        return false;
    for (int i = 0; i < n; ++i)
        if (!sccd_is_valid_sphere(s[i]))
            return false;
    return true;
}

bool sccd_spheretree_build(sccd_spheretree *t, const sccd_sphere *s, int n, sccd_bound_method method)
{
    bool ok = t != NULL && n <= (1 << 29) && valid_spheres(s, n) &&
              (method == SCCD_BOUND_SEED || method == SCCD_BOUND_TIGHT);
    SCCD_ASSERT(ok);
    if (t)
        sccd_spheretree_destroy(t);
    if (!ok)
        return false;
    builder b = {t, s, sccd_alloc((size_t)n * sizeof(int)), sccd_alloc((size_t)n * sizeof(int)), 0.0, method};
    t->nodes = sccd_alloc((size_t)(2 * n) * sizeof *t->nodes);
    t->leaves = sccd_alloc((size_t)n * sizeof *t->leaves);
    t->leaf_source = sccd_alloc((size_t)n * sizeof *t->leaf_source);
    ok = b.order && b.scratch && t->nodes && t->leaves && t->leaf_source;
    if (ok) {
        /* The root cell: the cube around the centres' box. */
        sccd_v3 lo = s[0].c, hi = s[0].c;
        for (int i = 0; i < n; ++i) {
            lo = sccd_v3_min(lo, s[i].c);
            hi = sccd_v3_max(hi, s[i].c);
            b.order[i] = i;
        }
        sccd_v3 e = sccd_v3_sub(hi, lo);
        sccd_real size = sccd_max(e.x, sccd_max(e.y, e.z));
        b.min_cell = sccd_max(DBL_MIN, MIN_CELL_FRACTION * sccd_max(size, sccd_max(sccd_v3_len(lo), sccd_v3_len(hi))));
        t->leaf_count = n;
        t->node_count = 1;
        build_node(&b, 0, 0, n, lo, sccd_max(size, b.min_cell * 4.0), 0);
        finish(&b);
    }
    sccd_free(b.order);
    sccd_free(b.scratch);
    if (!ok)
        sccd_spheretree_destroy(t);
    return ok;
}

int sccd_spheretree_level_volume(const sccd_spheretree *t, sccd_real *vol, int cap)
{
    bool ok = t != NULL && (vol != NULL || cap == 0) && cap >= 0;
    SCCD_ASSERT(ok);
    if (!ok)
        return 0;
    for (int l = 0; l < cap; ++l)
        vol[l] = 0.0;
    for (int i = 0; i < t->node_count; ++i) {
        sccd_real r = t->nodes[i].bound.r;
        if (t->nodes[i].level < cap)
            vol[t->nodes[i].level] += 4.0 / 3.0 * SCCD_PI * r * r * r;
    }
    return t->depth + 1;
}
