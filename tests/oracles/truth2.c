/* Ground truth for 2D sectors and sweeps; see truth2.h. Independent of the
 * core's sector and sweep code: shapes are handled as rounded convex polygons
 * (a union of convex pieces: the polygon, a slab on each edge, a disc on each
 * vertex), and on a circle about the centre each convex piece is cut out by
 * closed-form arcs, one per half-plane or disc. */
#include "truth2.h"

#define TWO_PI (2.0 * SCCD_PI)
#define SET_MAX 32
#define BNB_MAX 65536

/* A shape as a rounded convex polygon: n ≥ 1 counter-clockwise vertices, radius r. */
typedef struct rpoly { int n; sccd_v2 v[SCCD_POLY_MAX]; sccd_real r; } rpoly;

/* Closed intervals within [0, 2π] (angles). */
typedef struct aset { int n; sccd_real lo[SET_MAX], hi[SET_MAX]; } aset;

static rpoly shape_rpoly(const sccd_shape2 *s)
{
    rpoly k = {0};
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        k.n = 1;
        k.v[0] = s->circle.c;
        k.r = s->circle.r;
        break;
    case SCCD_SHAPE_CAPSULE:
        k.n = 2;
        k.v[0] = s->capsule.a;
        k.v[1] = s->capsule.b;
        k.r = s->capsule.r;
        break;
    case SCCD_SHAPE_BOX:
        k.n = 4;
        sccd_box2_corners(s->box, k.v);
        break;
    case SCCD_SHAPE_POLY:
        k.n = s->poly.n;
        for (int i = 0; i < k.n; ++i)
            k.v[i] = s->poly.v[i];
        k.r = s->poly.r;
        break;
    }
    return k;
}

static sccd_real rpoly_area2(const rpoly *k)
{
    sccd_real a = 0.0;
    for (int i = 0; i < k->n; ++i)
        a += sccd_v2_cross(k->v[i], k->v[(i + 1) % k->n]);
    return a;
}

static sccd_real rpoly_distance(const rpoly *k, sccd_v2 p)
{
    bool inside = k->n >= 3 && rpoly_area2(k) > 0.0;
    sccd_real d = sccd_v2_dist(p, k->v[0]);
    for (int i = 0; i < k->n; ++i) {
        sccd_v2 a = k->v[i], b = k->v[(i + 1) % k->n];
        inside = inside && sccd_v2_cross(sccd_v2_sub(b, a), sccd_v2_sub(p, a)) >= 0.0;
        d = sccd_min(d, sccd_distance_point_segment2(p, a, b));
    }
    return inside ? 0.0 : sccd_max(0.0, d - k->r);
}

sccd_real sccd_truth2_distance(const sccd_shape2 *shape, sccd_v2 p)
{
    rpoly k = shape_rpoly(shape);
    return rpoly_distance(&k, p);
}

sccd_real sccd_truth2_sector_distance(const sccd_sector2 *s, sccd_v2 p)
{
    sccd_v2 d = sccd_v2_sub(p, s->o);
    sccd_real rho = sccd_v2_len(d), phi = atan2(sccd_v2_cross(s->a, d), sccd_v2_dot(s->a, d));
    if (fabs(phi) <= s->half_angle)
        return sccd_max(0.0, sccd_max(s->r - rho, rho - s->R));
    sccd_real best = INFINITY;
    for (int side = -1; side <= 1; side += 2) {
        sccd_v2 e = sccd_rot2_apply(sccd_rot2_make(side * s->half_angle), s->a);
        best = sccd_min(best, sccd_distance_point_segment2(p, sccd_v2_mad(s->o, s->r, e), sccd_v2_mad(s->o, s->R, e)));
    }
    return best;
}

/* ---- arcs on a circle ---- */

static aset aset_full(void) { return (aset){1, {0.0}, {TWO_PI}}; }

static aset aset_empty(void) { return (aset){0, {0.0}, {0.0}}; }

/* The closed arc of directions within half of centre. */
static aset aset_arc(sccd_real centre, sccd_real half)
{
    if (half >= SCCD_PI)
        return aset_full();
    if (half < 0.0)
        return aset_empty();
    sccd_real lo = fmod(centre - half, TWO_PI);
    if (lo < 0.0)
        lo += TWO_PI;
    sccd_real hi = lo + 2.0 * half;
    if (hi <= TWO_PI)
        return (aset){1, {lo}, {hi}};
    return (aset){2, {lo, 0.0}, {TWO_PI, hi - TWO_PI}};
}

static aset aset_intersect(const aset *a, const aset *b)
{
    aset out = aset_empty();
    for (int i = 0; i < a->n; ++i)
        for (int j = 0; j < b->n && out.n < SET_MAX; ++j) {
            sccd_real lo = sccd_max(a->lo[i], b->lo[j]), hi = sccd_min(a->hi[i], b->hi[j]);
            if (lo <= hi) {
                out.lo[out.n] = lo;
                out.hi[out.n++] = hi;
            }
        }
    return out;
}

/* Directions φ with n·(s·u(φ)) ≤ d. */
static aset halfplane_arcs(sccd_v2 n, sccd_real d, sccd_real s)
{
    sccd_real nl = sccd_v2_len(n);
    if (nl == 0.0)
        return d >= 0.0 ? aset_full() : aset_empty();
    sccd_real k = d / (s * nl); /* cos(φ − angle(n)) ≤ k */
    if (k >= 1.0)
        return aset_full();
    if (k < -1.0)
        return aset_empty();
    return aset_arc(atan2(n.y, n.x) + SCCD_PI, SCCD_PI - acos(k));
}

/* Directions φ with |s·u(φ) − c| ≤ rad. */
static aset disc_arcs(sccd_v2 c, sccd_real rad, sccd_real s)
{
    sccd_real cl = sccd_v2_len(c);
    if (cl == 0.0)
        return s <= rad ? aset_full() : aset_empty();
    sccd_real k = (s * s + cl * cl - rad * rad) / (2.0 * s * cl); /* cos(φ − angle(c)) ≥ k */
    if (k <= -1.0)
        return aset_full();
    if (k > 1.0)
        return aset_empty();
    return aset_arc(atan2(c.y, c.x), acos(k));
}

static void cut(aset *set, aset piece)
{
    *set = aset_intersect(set, &piece);
}

/* Does the circle of radius s about the origin meet the rounded polygon k
 * within the directions of range? One convex piece at a time. */
static bool circle_meets(const rpoly *k, sccd_real s, const aset *range)
{
    bool solid = k->n >= 3 && rpoly_area2(k) > 0.0;
    if (solid) {
        aset a = *range;
        for (int i = 0; i < k->n && a.n > 0; ++i) {
            sccd_v2 p = k->v[i], e = sccd_v2_sub(k->v[(i + 1) % k->n], p);
            sccd_v2 out = {e.y, -e.x};
            cut(&a, halfplane_arcs(out, sccd_v2_dot(out, p), s));
        }
        if (a.n > 0)
            return true;
    }
    if (solid && k->r == 0.0)
        return false;
    for (int i = 0; i < k->n; ++i) {
        aset a = disc_arcs(k->v[i], k->r, s);
        cut(&a, *range);
        if (a.n > 0)
            return true;
    }
    for (int i = 0; k->n >= 2 && i < k->n; ++i) {
        /* the slab on edge p→q's outer side, r thick (both sides for a segment) */
        sccd_v2 p = k->v[i], q = k->v[(i + 1) % k->n], e = sccd_v2_sub(q, p);
        sccd_real el = sccd_v2_len(e);
        if (el == 0.0)
            continue;
        sccd_v2 out = {e.y / el, -e.x / el}, dir = sccd_v2_scale(e, 1.0 / el);
        aset a = *range;
        cut(&a, halfplane_arcs(out, sccd_v2_dot(out, p) + k->r, s));
        cut(&a, halfplane_arcs(sccd_v2_neg(out), -sccd_v2_dot(out, p), s));
        cut(&a, halfplane_arcs(sccd_v2_neg(dir), -sccd_v2_dot(dir, p), s));
        cut(&a, halfplane_arcs(dir, sccd_v2_dot(dir, q), s));
        if (a.n > 0)
            return true;
    }
    return false;
}

bool sccd_truth2_swept(const sccd_shape2 *shape, sccd_motion2 m, sccd_v2 p)
{
    rpoly k = shape_rpoly(shape);
    for (int i = 0; i < k.n; ++i) /* into the centre's frame at t = 0 (world axes) */
        k.v[i] = sccd_rot2_apply(m.start.q, sccd_v2_sub(k.v[i], m.center));
    sccd_v2 d = sccd_v2_sub(p, sccd_xf2_apply(m.start, m.center));
    sccd_real s = sccd_v2_len(d);
    if (s == 0.0) /* the centre does not move under rotation */
        return rpoly_distance(&k, d) <= 0.0;
    /* At time t the body point that is at p was at d turned by −t·dθ. */
    aset range = aset_arc(atan2(d.y, d.x) - 0.5 * m.dtheta, 0.5 * fabs(m.dtheta));
    return circle_meets(&k, s, &range);
}

/* ---- branch and bound over a sector's (ρ, φ) ---- */

/* A cell of the (ρ, φ) domain. Order: cells that may hold an overlap
 * (lb ≤ 0) deepest first, so a thin overlap is reached by diving rather than
 * by refining everywhere; the others by lower bound. */
typedef struct cell { sccd_real r0, r1, p0, p1, lb, d, key; } cell;

static cell heap[BNB_MAX];

static void heap_push(int *n, cell c)
{
    int i = (*n)++;
    while (i > 0 && heap[(i - 1) / 2].key > c.key) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = c;
}

static cell heap_pop(int *n)
{
    cell top = heap[0], last = heap[--(*n)];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && heap[c + 1].key < heap[c].key)
            ++c;
        if (heap[c].key >= last.key)
            break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = last;
    return top;
}

/* A cell's centre value and lower bound: any point of the cell is within
 * Δρ/2 + ρ1·Δφ/2 of the centre (radially, then along the arc), and f is 1-Lipschitz. */
static cell make_cell(const sccd_sector2 *s, sccd_truth2_dist_fn *f, const void *ctx, sccd_real r0, sccd_real r1,
                      sccd_real p0, sccd_real p1)
{
    sccd_real rm = 0.5 * (r0 + r1), pm = 0.5 * (p0 + p1);
    sccd_v2 u = {s->a.x * cos(pm) - s->a.y * sin(pm), s->a.x * sin(pm) + s->a.y * cos(pm)};
    sccd_real d = f(ctx, sccd_v2_mad(s->o, rm, u));
    sccd_real h = 0.5 * (r1 - r0) + 0.5 * r1 * (p1 - p0);
    return (cell){r0, r1, p0, p1, d - h, d, d - h > 0.0 ? d - h : -1.0 / (1.0 + h)};
}

sccd_truth2_verdict sccd_truth2_sector_bnb(const sccd_sector2 *s, sccd_truth2_dist_fn *f, const void *ctx,
                                           sccd_real tol_in, sccd_real tol_out, int max_nodes)
{
    int n = 0, nodes = 0;
    cell root = make_cell(s, f, ctx, s->r, s->R, -s->half_angle, s->half_angle);
    if (root.d <= tol_in)
        return SCCD_TRUTH2_OVERLAP;
    if (root.lb <= tol_out)
        heap_push(&n, root);
    while (n > 0) {
        cell c = heap_pop(&n);
        if (c.key > tol_out) /* keys above 0 are lower bounds, and come last */
            return SCCD_TRUTH2_SEPARATED;
        if (++nodes > max_nodes || n + 2 > BNB_MAX)
            return SCCD_TRUTH2_AMBIGUOUS;
        bool split_r = (c.r1 - c.r0) >= c.r1 * (c.p1 - c.p0);
        sccd_real rm = 0.5 * (c.r0 + c.r1), pm = 0.5 * (c.p0 + c.p1);
        cell kids[2] = {split_r ? make_cell(s, f, ctx, c.r0, rm, c.p0, c.p1) : make_cell(s, f, ctx, c.r0, c.r1, c.p0, pm),
                        split_r ? make_cell(s, f, ctx, rm, c.r1, c.p0, c.p1) : make_cell(s, f, ctx, c.r0, c.r1, pm, c.p1)};
        for (int k = 0; k < 2; ++k) {
            if (kids[k].d <= tol_in)
                return SCCD_TRUTH2_OVERLAP;
            if (kids[k].lb <= tol_out)
                heap_push(&n, kids[k]);
        }
    }
    return SCCD_TRUTH2_SEPARATED;
}

/* ---- sampling ---- */

static sccd_v2 random_offset(sccd_rng *g, sccd_real r, bool on_boundary)
{
    sccd_real len = on_boundary ? r : r * sqrt(sccd_rng_uniform(g, 0.0, 1.0));
    return sccd_v2_scale(sccd_rng_unit2(g), len);
}

sccd_v2 sccd_truth2_sample_shape(sccd_rng *g, const sccd_shape2 *shape)
{
    rpoly k = shape_rpoly(shape);
    int i = sccd_rng_int(g, k.n);
    switch (sccd_rng_int(g, 4)) {
    case 0: /* a vertex, or a point of its rounding */
        return sccd_v2_add(k.v[i], random_offset(g, k.r, sccd_rng_int(g, 2) == 0));
    case 1: { /* a boundary point on an edge, pushed out by the rounding */
        sccd_v2 a = k.v[i], b = k.v[(i + 1) % k.n], e = sccd_v2_sub(b, a);
        sccd_v2 out = sccd_v2_normalize((sccd_v2){e.y, -e.x});
        return sccd_v2_mad(sccd_v2_lerp(a, b, sccd_rng_uniform(g, 0.0, 1.0)), k.r, out);
    }
    case 2: { /* an interior point: a random convex combination, plus an offset */
        sccd_v2 p = {0.0, 0.0};
        sccd_real sum = 0.0;
        for (int j = 0; j < k.n; ++j) {
            sccd_real w = sccd_rng_uniform(g, 0.0, 1.0);
            p = sccd_v2_mad(p, w, k.v[j]);
            sum += w;
        }
        return sccd_v2_add(sccd_v2_scale(p, sum > 0.0 ? 1.0 / sum : 0.0), random_offset(g, k.r, false));
    }
    default: /* the rounding's rim about a vertex, any direction */
        return sccd_v2_add(k.v[i], random_offset(g, k.r, true));
    }
}

sccd_v2 sccd_truth2_sample_sweep(sccd_rng *g, const sccd_shape2 *shape, sccd_motion2 m)
{
    int mode = sccd_rng_int(g, 10);
    sccd_real t = mode == 0 ? 0.0 : (mode == 1 ? 1.0 : sccd_rng_uniform(g, 0.0, 1.0));
    return sccd_xf2_apply(sccd_motion2_at(m, t), sccd_truth2_sample_shape(g, shape));
}

/* ---- random shapes ---- */

/* A size that is sometimes exactly zero. */
static sccd_real random_size(sccd_rng *g, sccd_real size)
{
    return sccd_rng_int(g, 12) == 0 ? 0.0 : sccd_rng_uniform(g, 0.0, size);
}

/* Gift wrapping of up to SCCD_POLY_MAX points into a counter-clockwise hull. */
static sccd_poly2 hull_poly(const sccd_v2 *p, int n, sccd_real r)
{
    sccd_poly2 out = {0};
    out.r = r;
    int start = 0;
    for (int i = 1; i < n; ++i)
        if (p[i].x < p[start].x || (p[i].x == p[start].x && p[i].y < p[start].y))
            start = i;
    int cur = start;
    do {
        out.v[out.n++] = p[cur];
        int next = (cur + 1) % n;
        for (int i = 0; i < n; ++i) {
            sccd_real c = sccd_v2_cross(sccd_v2_sub(p[next], p[cur]), sccd_v2_sub(p[i], p[cur]));
            if (c < 0.0 || (c == 0.0 && sccd_v2_dist(p[cur], p[i]) > sccd_v2_dist(p[cur], p[next])))
                next = i;
        }
        cur = next;
    } while (cur != start && out.n < SCCD_POLY_MAX);
    return out;
}

sccd_shape2 sccd_truth2_random_shape(sccd_rng *g, sccd_shape_type type, sccd_v2 centre, sccd_real size)
{
    sccd_shape2 s = {.type = type};
    switch (type) {
    case SCCD_SHAPE_CIRCLE:
        s.circle = (sccd_circle){centre, random_size(g, size)};
        break;
    case SCCD_SHAPE_CAPSULE: {
        sccd_v2 h = sccd_v2_scale(sccd_rng_unit2(g), random_size(g, size));
        s.capsule = (sccd_capsule2){sccd_v2_add(centre, h), sccd_v2_sub(centre, h), random_size(g, 0.5 * size)};
        break;
    }
    case SCCD_SHAPE_BOX:
        s.box = (sccd_box2){centre, sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI)),
                            {random_size(g, size), random_size(g, size)}};
        break;
    case SCCD_SHAPE_POLY: {
        sccd_v2 p[SCCD_POLY_MAX];
        int n = 3 + sccd_rng_int(g, SCCD_POLY_MAX - 2);
        for (int i = 0; i < n; ++i)
            p[i] = sccd_v2_add(centre, sccd_rng_v2(g, size));
        s.poly = hull_poly(p, n, sccd_rng_int(g, 2) ? 0.0 : random_size(g, 0.5 * size));
        break;
    }
    }
    return s;
}

int sccd_truth2_core(const sccd_shape2 *shape, sccd_v2 *v, sccd_real *radius)
{
    rpoly k = shape_rpoly(shape);
    for (int i = 0; i < k.n; ++i)
        v[i] = k.v[i];
    *radius = k.r;
    return k.n;
}
