/* Bounding-box trees over each body's shapes for the 3D impact solver
 * (impact_tree3.h): built once a solve, top-down, each node split at the
 * median of its shapes' centres along its longest side (depth about
 * log2(n / LEAF_SHAPES), whatever the shapes' spacing). */
#include <string.h>

#include "impact_tree3.h"
#include "impact_internal.h"
#include "unchecked.h"

/* Room for node pairs in a search's heap: per shape of the step, and at
 * least. A pop queues at most two, and a search stops early, so this is
 * seldom reached; past it, pairs are walked unordered (still all of them). */
#define HEAP_PER_SHAPE 4
#define HEAP_MIN 64

/* Most shapes a leaf holds: below it, testing the shapes' own boxes costs
 * less than more nodes. */
#define LEAF_SHAPES 4

/* Most shape pairs under two roots walked without ordering (walk_in_order). */
#define UNORDERED_PAIRS 16

/* A node's box is grown by this share of its size (plus an absolute bit):
 * the node's motion box and its shapes' are computed apart, and rounding
 * must never let the node's be the smaller. */
#define NODE_GROW 1e-9

/* What a build works on: the trees, and each shape's box in its body's coordinates. */
typedef struct builder {
    sccd_shape_trees3 *t;
    sccd_aabb3 *local; /* per shape */
    int nodes;
} builder;

static sccd_real centre_along(const builder *b, int shape, int axis)
{
    sccd_aabb3 x = b->local[shape];
    return axis == 0 ? x.lo.x + x.hi.x : axis == 1 ? x.lo.y + x.hi.y : x.lo.z + x.hi.z;
}

static void swap_int(int *a, int *b)
{
    int x = *a;
    *a = *b;
    *b = x;
}

/* Order order[lo..hi) so that order[mid] has the median centre along axis,
 * the smaller before it and the larger after (quickselect). */
static void select_median(const builder *b, int *order, int lo, int hi, int mid, int axis)
{
    while (hi - lo > 1) {
        sccd_real pivot = centre_along(b, order[lo + (hi - lo) / 2], axis);
        int i = lo, j = hi - 1;
        while (i <= j) {
            while (centre_along(b, order[i], axis) < pivot)
                ++i;
            while (centre_along(b, order[j], axis) > pivot)
                --j;
            if (i <= j)
                swap_int(&order[i++], &order[j--]);
        }
        if (mid <= j)
            hi = j + 1;
        else if (mid >= i)
            lo = i;
        else
            return;
    }
}

/* Node k over order[first .. first + count). */
static void build_node(builder *b, int k, int first, int count)
{
    sccd_tree_node3 *n = &b->t->node[k];
    sccd_aabb3 box = b->local[b->t->order[first]];
    sccd_v3 c0 = sccd_v3_add(box.lo, box.hi);
    sccd_aabb3 centres = {c0, c0}; /* of the shapes' centres, doubled (as centre_along) */
    for (int i = first + 1; i < first + count; ++i) {
        sccd_aabb3 x = b->local[b->t->order[i]];
        sccd_v3 c = sccd_v3_add(x.lo, x.hi);
        box = sccd_aabb3_union(box, x);
        centres = (sccd_aabb3){sccd_v3_min(centres.lo, c), sccd_v3_max(centres.hi, c)};
    }
    sccd_v3 h = sccd_v3_scale(sccd_v3_sub(box.hi, box.lo), 0.5);
    sccd_real grow = NODE_GROW * (1.0 + sccd_v3_len(h));
    *n = (sccd_tree_node3){.box = {.type = SCCD_SHAPE_BOX,
                                   .box = {sccd_v3_scale(sccd_v3_add(box.lo, box.hi), 0.5), sccd_quat_identity(),
                                           sccd_v3_add(h, (sccd_v3){grow, grow, grow})}},
                           .child = -1, .first = first, .count = count};
    if (count <= LEAF_SHAPES)
        return;
    sccd_v3 span = sccd_v3_sub(centres.hi, centres.lo);
    int axis = span.x >= span.y && span.x >= span.z ? 0 : span.y >= span.z ? 1 : 2, half = count / 2;
    select_median(b, b->t->order, first, first + count, first + half, axis);
    n->child = b->nodes;
    b->nodes += 2;
    build_node(b, n->child, first, half);
    build_node(b, n->child + 1, first + half, count - half);
}

/* The block's parts, aligned for their types. */
static size_t part(size_t *at, size_t size)
{
    size_t start = (*at + 15u) & ~(size_t)15u;
    *at = start + size;
    return start;
}

/* A node pair and the earliest time anything under it may touch. */
typedef struct node_pair { sccd_real t; int ka, kb; } node_pair;

/* Where each array lies in a block with room for ns shapes and nb bodies. */
typedef struct tree_layout { size_t node, local, order, root, planes, heap, heap_cap, bytes; } tree_layout;

static tree_layout layout_for(size_t ns, size_t nb)
{
    tree_layout l = {.heap_cap = HEAP_PER_SHAPE * ns + HEAP_MIN};
    size_t at = 0;
    l.node = part(&at, 2 * ns * sizeof(sccd_tree_node3)); /* a tree of m shapes has at most 2m - 1 nodes */
    l.local = part(&at, ns * sizeof(sccd_aabb3));
    l.order = part(&at, ns * sizeof(int));
    l.root = part(&at, nb * sizeof(int));
    l.planes = part(&at, nb * sizeof(int));
    l.heap = part(&at, l.heap_cap * sizeof(node_pair));
    l.bytes = at;
    return l;
}

/* Point the trees' arrays into block base laid out by l. */
static sccd_aabb3 *point_into(sccd_shape_trees3 *t, char *base, tree_layout l, int shape_room, int body_room)
{
    t->local = (sccd_aabb3 *)(void *)(base + l.local);
    t->node = (sccd_tree_node3 *)(void *)(base + l.node);
    t->order = (int *)(void *)(base + l.order);
    t->root = (int *)(void *)(base + l.root);
    t->planes = (int *)(void *)(base + l.planes);
    t->heap = (node_pair *)(void *)(base + l.heap);
    t->heap_cap = (int)l.heap_cap;
    t->shape_room = shape_room;
    t->body_room = body_room;
    return t->local;
}

/* Room for shape_count shapes and body_count bodies, the trees of the
 * first `bodies` bodies (over the first `shapes` shapes) kept: a new block
 * at least twice as big when they do not fit (the old one freed), else the
 * one there is. Returns the shapes' box array; NULL out of memory. */
static sccd_aabb3 *make_room(sccd_shape_trees3 *t, void **block, size_t *bytes, int bodies, int shapes, int body_count,
                             int shape_count)
{
    if (bodies == 0) {
        tree_layout l = layout_for((size_t)shape_count, (size_t)body_count);
        if (!sccd_scratch_reserve(block, bytes, l.bytes))
            return NULL;
        t->nodes = 0;
        return point_into(t, *block, l, shape_count, body_count);
    }
    if (shape_count <= t->shape_room && body_count <= t->body_room)
        return point_into(t, *block, layout_for((size_t)t->shape_room, (size_t)t->body_room), t->shape_room, t->body_room);
    int ns = sccd_max(shape_count, 2 * t->shape_room), nb = sccd_max(body_count, 2 * t->body_room);
    tree_layout l = layout_for((size_t)ns, (size_t)nb);
    char *base = sccd_realloc(NULL, 0, l.bytes);
    if (base == NULL)
        return NULL;
    sccd_shape_trees3 was = *t;
    sccd_aabb3 *local = point_into(t, base, l, ns, nb);
    memcpy(t->node, was.node, (size_t)was.nodes * sizeof *t->node);
    memcpy(t->order, was.order, (size_t)shapes * sizeof *t->order);
    memcpy(t->root, was.root, (size_t)bodies * sizeof *t->root);
    memcpy(t->planes, was.planes, (size_t)bodies * sizeof *t->planes);
    sccd_free(*block);
    *block = base;
    *bytes = l.bytes;
    return local;
}

bool sccd_shape_trees3_build(sccd_shape_trees3 *t, void **block, size_t *bytes, const sccd_impact_body3 *bodies, int from,
                             int body_count, const sccd_impact_shape3 *shapes, int from_shape, int shape_count)
{
    sccd_aabb3 *local = make_room(t, block, bytes, from, from_shape, body_count, shape_count);
    if (local == NULL)
        return false;
    builder b = {t, local, t->nodes};
    for (int i = from; i < body_count; ++i) {
        int first = bodies[i].first_shape, end = first + bodies[i].shape_count, lead = first;
        if (end - first == 1 && shapes[first].bounds > 0) { /* one leaf, made when first walked (made_root) */
            t->order[first] = first;
            t->planes[i] = 0;
            t->root[i] = SCCD_TREE_LATER;
            continue;
        }
        for (int k = first; k < end; ++k) /* half-spaces first, each shape once */
            t->order[k] = shapes[k].bounds == 0 ? k : -1;
        for (int k = first; k < end; ++k)
            if (t->order[k] >= 0)
                t->order[lead++] = k;
        for (int k = first, at_shape = lead; k < end; ++k)
            if (shapes[k].bounds > 0) {
                b.local[k] = sccd_shape3_aabb_unchecked(&shapes[k].bound[0], sccd_xf3_identity());
                t->order[at_shape++] = k;
            }
        t->planes[i] = lead - first;
        t->root[i] = lead < end ? b.nodes++ : -1;
        if (lead < end)
            build_node(&b, t->root[i], lead, end - lead);
    }
    t->nodes = b.nodes;
    return true;
}

/* Body i's root, its one leaf made now when it was left for later. */
static int made_root(sccd_shape_trees3 *t, const sccd_impact_body3 *bodies, const sccd_impact_shape3 *shapes, int i)
{
    if (t->root[i] != SCCD_TREE_LATER)
        return t->root[i];
    int k = bodies[i].first_shape;
    builder b = {t, t->local, t->nodes};
    b.local[k] = sccd_shape3_aabb_unchecked(&shapes[k].bound[0], sccd_xf3_identity());
    t->root[i] = b.nodes++;
    build_node(&b, t->root[i], k, 1);
    t->nodes = b.nodes;
    return t->root[i];
}

/* ---- pairs ---- */

/* What a traversal carries. */
typedef struct walk {
    sccd_shape_trees3 *t;
    sccd_tree_side3 side[2];
    const sccd_tree_search3 *q;
    sccd_real earliest; /* the body pair's earliest event so far */
    int queued;         /* node pairs in t->heap */
} walk;

/* Node k's motion box over side s's segment, cached per segment. */
static sccd_aabb3 node_box(walk *w, int s, int k)
{
    sccd_tree_node3 *n = &w->t->node[k];
    if (n->boxed != w->side[s].segment) {
        sccd_aabb3 box = sccd_shape3_motion_box_unchecked(&n->box, w->side[s].m);
        sccd_real skin = w->q->skin;
        n->motion = (sccd_aabb3){sccd_v3_sub(box.lo, (sccd_v3){skin, skin, skin}), sccd_v3_add(box.hi, (sccd_v3){skin, skin, skin})};
        n->boxed = w->side[s].segment;
    }
    return n->motion;
}

static bool meet(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z && b.lo.z <= a.hi.z;
}

static sccd_real extent(const sccd_tree_node3 *n) { return sccd_v3_len2(n->box.box.h); }

static bool is_leaf(const walk *w, int k) { return w->t->node[k].child < 0; }

/* Every shape pair under leaves ka and kb. */
static void visit_leaves(walk *w, int ka, int kb)
{
    const sccd_tree_node3 *a = &w->t->node[ka], *b = &w->t->node[kb];
    for (int i = a->first; i < a->first + a->count; ++i)
        for (int j = b->first; j < b->first + b->count; ++j)
            w->earliest = w->q->visit(w->q->context, w->t->order[i], w->t->order[j]);
}

/* Nodes ka (side 0) and kb (side 1), every pair under them that the boxes
 * let through, in no order (when the heap is full). */
static void walk_nodes(walk *w, int ka, int kb)
{
    if (!meet(node_box(w, 0, ka), node_box(w, 1, kb)))
        return;
    const sccd_tree_node3 *a = &w->t->node[ka], *b = &w->t->node[kb];
    if (a->child < 0 && b->child < 0) {
        visit_leaves(w, ka, kb);
        return;
    }
    if (b->child < 0 || (a->child >= 0 && extent(a) >= extent(b))) {
        walk_nodes(w, a->child, kb);
        walk_nodes(w, a->child + 1, kb);
    } else {
        walk_nodes(w, ka, b->child);
        walk_nodes(w, ka, b->child + 1);
    }
}

/* The earliest time (in the step) anything under nodes ka and kb may come
 * within the skin: their boxes' TOI over the search's parts, a lower bound
 * (never later than the first contact; INFINITY when they stay apart). Two
 * leaves keep `floor`, their parent pair's: their shapes' own searches
 * bound themselves. */
static sccd_real node_time(walk *w, int ka, int kb, sccd_real floor)
{
    if (is_leaf(w, ka) && is_leaf(w, kb))
        return floor;
    const sccd_tree_search3 *q = w->q;
    sccd_toi3 r = sccd_toi3_compute_unchecked(&w->t->node[ka].box, w->side[0].part, &w->t->node[kb].box, w->side[1].part,
                                              q->skin + 3.0 * q->tolerance, q->tolerance);
    ++*q->tois;
    if (r.state == SCCD_TOI_SEPARATED)
        return INFINITY;
    return sccd_max(q->tc + r.t * (1.0 - q->tc), floor);
}

static void swap_pairs(node_pair *a, node_pair *b)
{
    node_pair x = *a;
    *a = *b;
    *b = x;
}

/* Queue node pair p (a binary heap on t); false when there is no room. */
static bool push(walk *w, node_pair p)
{
    if (w->queued == w->t->heap_cap)
        return false;
    node_pair *h = w->t->heap;
    int i = w->queued++;
    h[i] = p;
    for (; i > 0 && h[(i - 1) / 2].t > h[i].t; i = (i - 1) / 2)
        swap_pairs(&h[(i - 1) / 2], &h[i]);
    return true;
}

static node_pair pop(walk *w)
{
    node_pair *h = w->t->heap, top = h[0];
    h[0] = h[--w->queued];
    for (int i = 0;;) {
        int c = 2 * i + 1;
        if (c >= w->queued)
            break;
        if (c + 1 < w->queued && h[c + 1].t < h[c].t)
            ++c;
        if (h[i].t <= h[c].t)
            break;
        swap_pairs(&h[i], &h[c]);
        i = c;
    }
    return top;
}

/* Node pair (ka, kb) under a pair of time floor: queued with its time when
 * its boxes meet and it may touch, or walked whole when the heap is full. */
static void offer(walk *w, int ka, int kb, sccd_real floor)
{
    if (!meet(node_box(w, 0, ka), node_box(w, 1, kb)))
        return;
    sccd_real t = node_time(w, ka, kb, floor);
    if (t < INFINITY && !push(w, (node_pair){t, ka, kb}))
        walk_nodes(w, ka, kb);
}

/* Earliest node pair first: leaves are searched, other pairs split the
 * larger node; none left that could touch before the earliest event. Two
 * bodies whose trees are single leaves (most bodies: one shape or a few)
 * have their shape pairs searched at once: the node boxes would only prune
 * what the search's own per-shape test rejects, at the cost of a motion box
 * per node and segment. Two small trees (a few walls of a static body, a
 * compound of a handful of boxes) are walked by their boxes alone: the
 * order's TOI per node pair costs more than the few shape pairs it could
 * skip (a ball by a floor and four walls: three box TOIs a search). The
 * earliest event is the same either way; what differs is which shape pairs
 * a search reaches, and so which take the pair's overlap limits first
 * (sccd_pair_cap: past SCCD_PAIR_CAPS of them the strictest stands for the
 * rest, stricter, never looser). */
static void walk_in_order(walk *w, int ra, int rb)
{
    if (is_leaf(w, ra) && is_leaf(w, rb)) {
        visit_leaves(w, ra, rb);
        return;
    }
    int na = w->t->node[ra].count, nb = w->t->node[rb].count;
    if (na <= UNORDERED_PAIRS && nb <= UNORDERED_PAIRS && na * nb <= UNORDERED_PAIRS) {
        walk_nodes(w, ra, rb);
        return;
    }
    offer(w, ra, rb, w->q->tc);
    while (w->queued > 0) {
        node_pair p = pop(w);
        if (p.t > w->earliest)
            break;
        const sccd_tree_node3 *a = &w->t->node[p.ka], *b = &w->t->node[p.kb];
        if (a->child < 0 && b->child < 0) {
            visit_leaves(w, p.ka, p.kb);
        } else if (b->child < 0 || (a->child >= 0 && extent(a) >= extent(b))) {
            offer(w, a->child, p.kb, p.t);
            offer(w, a->child + 1, p.kb, p.t);
        } else {
            offer(w, p.ka, b->child, p.t);
            offer(w, p.ka, b->child + 1, p.t);
        }
    }
    w->queued = 0;
}

/* Half-space `plane` (of the side other than s) against side s's node k. */
static void walk_plane(walk *w, int plane, int s, int k)
{
    if (!w->q->reaches(w->q->context, plane, node_box(w, s, k)))
        return;
    const sccd_tree_node3 *n = &w->t->node[k];
    if (n->child >= 0) {
        walk_plane(w, plane, s, n->child);
        walk_plane(w, plane, s, n->child + 1);
        return;
    }
    for (int i = n->first; i < n->first + n->count; ++i) {
        int x = w->t->order[i];
        w->earliest = s == 0 ? w->q->visit(w->q->context, x, plane) : w->q->visit(w->q->context, plane, x);
    }
}

void sccd_shape_trees3_pairs(sccd_shape_trees3 *t, const sccd_impact_body3 *bodies, const sccd_impact_shape3 *shapes,
                             sccd_tree_side3 a, sccd_tree_side3 b, const sccd_tree_search3 *search)
{
    walk w = {t, {a, b}, search, INFINITY, 0};
    int ra = made_root(t, bodies, shapes, a.body), rb = made_root(t, bodies, shapes, b.body);
    for (int s = 0; s < 2; ++s) { /* each side's half-spaces against the other's tree */
        int first = bodies[w.side[s].body].first_shape, other = s == 0 ? rb : ra;
        for (int k = first; other >= 0 && k < first + t->planes[w.side[s].body]; ++k)
            walk_plane(&w, t->order[k], 1 - s, other);
    }
    if (ra >= 0 && rb >= 0)
        walk_in_order(&w, ra, rb);
}
