/* GJK distance of two 2D proxies (distance.h). Simplex vertices are points
 * w = b − a of the Minkowski difference B − A of the cores; GJK walks the
 * simplex towards the origin. The closest point of a simplex to the origin
 * is found by Johnson's sub-algorithm in its enumerating form: the triangle's
 * interior by signed areas, then each edge, then each vertex; every face is
 * checked, so degenerate (flat or repeated) simplices need no special case. */
#include "sectorccd/distance.h"
#include "unchecked.h"

/* Enough for any pair of cores of SCCD_PROXY_MAX points: GJK on polytopes
 * ends after a few steps; the cap only guards against rounding cycles. */
#define GJK_MAX_ITERATIONS 64

/* A vertex keeps its core points as indices (the points are read back from
 * the proxies at the end), so the simplex stays small to update in place. */
typedef struct vertex2 { sccd_v2 w; sccd_real u; int ia, ib; } vertex2;
typedef struct simplex2 { vertex2 v[3]; int n; } simplex2;

static vertex2 make_vertex(const sccd_proxy2 *a, const sccd_proxy2 *b, int ia, int ib)
{
    return (vertex2){sccd_v2_sub(b->v[ib], a->v[ia]), 1.0, ia, ib};
}

static sccd_v2 simplex_point(const simplex2 *s)
{
    sccd_v2 p = {0.0, 0.0};
    for (int i = 0; i < s->n; ++i)
        p = sccd_v2_mad(p, s->v[i].u, s->v[i].w);
    return p;
}

/* Sets *out to the closest point of edge p–q to the origin as a sub-simplex
 * with weights; returns that point's squared length. */
static sccd_real closest_edge(simplex2 *out, vertex2 p, vertex2 q)
{
    sccd_v2 e = sccd_v2_sub(q.w, p.w);
    sccd_real ee = sccd_v2_len2(e);
    sccd_real t = ee > 0.0 ? -sccd_v2_dot(p.w, e) / ee : 0.0;
    if (t <= 0.0 || t >= 1.0) {
        out->v[0] = t <= 0.0 ? p : q;
        out->v[0].u = 1.0;
        out->n = 1;
    } else {
        p.u = 1.0 - t;
        q.u = t;
        out->v[0] = p;
        out->v[1] = q;
        out->n = 2;
    }
    return sccd_v2_len2(simplex_point(out));
}

/* Triangle: the origin inside (all signed sub-areas on the side of the whole
 * area) keeps all three vertices; otherwise the closest point is on an edge
 * (the first of equally close ones) whose line the origin lies strictly
 * beyond (a sub-area of the other sign: the origin's difference from the
 * closest point lies in the triangle's normal cone there; a flat triangle,
 * or sub-areas not numbers, tries every edge). */
static void closest_triangle(simplex2 *s)
{
    sccd_v2 a = s->v[0].w, b = s->v[1].w, c = s->v[2].w;
    sccd_v2 ab = sccd_v2_sub(b, a), ac = sccd_v2_sub(c, a);
    sccd_real area = sccd_v2_cross(ab, ac);
    sccd_real la = sccd_v2_cross(b, c), lb = sccd_v2_cross(c, a), lc = sccd_v2_cross(a, b);
    bool flat = area * area <= 1e-24 * sccd_v2_len2(ab) * sccd_v2_len2(ac); /* |area| ≤ 1e-12·|ab|·|ac|, squared */
    if (!flat && la * area >= 0.0 && lb * area >= 0.0 && lc * area >= 0.0) {
        sccd_real sum = la + lb + lc;
        s->v[0].u = la / sum;
        s->v[1].u = lb / sum;
        s->v[2].u = lc / sum;
        return;
    }
    const vertex2 from[3] = {s->v[0], s->v[1], s->v[2]}, to[3] = {s->v[1], s->v[2], s->v[0]};
    const sccd_real side[3] = {lc * area, la * area, lb * area}; /* edge i faces the vertex after its end */
    bool every = flat || !(side[0] < 0.0 || side[1] < 0.0 || side[2] < 0.0);
    simplex2 e;
    sccd_real best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        if (!every && !(side[i] < 0.0))
            continue;
        sccd_real d = closest_edge(&e, from[i], to[i]);
        if (d < best) {
            *s = e;
            best = d;
        }
    }
}

/* Reduces s to the sub-simplex holding its closest point to the origin. */
static void solve(simplex2 *s)
{
    if (s->n == 1)
        s->v[0].u = 1.0;
    else if (s->n == 2)
        closest_edge(s, s->v[0], s->v[1]);
    else
        closest_triangle(s);
}

static bool contains(const simplex2 *s, int ia, int ib)
{
    for (int i = 0; i < s->n; ++i)
        if (s->v[i].ia == ia && s->v[i].ib == ib)
            return true;
    return false;
}

static bool valid_proxy(const sccd_proxy2 *p)
{
    if (!p || p->n < 1 || p->n > SCCD_PROXY_MAX || !sccd_is_valid_real(p->r) || p->r < 0.0)
        return false;
    for (int i = 0; i < p->n; ++i)
        if (!sccd_is_valid_v2(p->v[i]))
            return false;
    return true;
}

/* Largest spread of points v[0..n) from the first, plus r: a core's size,
 * radius included, that the touching tolerance is relative to. */
static sccd_real points_size(const sccd_v2 *v, int n, sccd_real r)
{
    sccd_real s2 = 0.0; /* squared, one root at the end: the root is monotone, so the same result */
    for (int i = 1; i < n; ++i)
        s2 = sccd_max(s2, sccd_v2_len2(sccd_v2_sub(v[i], v[0])));
    return sqrt(s2) + r;
}

static sccd_real proxy_size(const sccd_proxy2 *p) { return points_size(p->v, p->n, p->r); }

/* Runs GJK from the cached simplex; sets *best to the final sub-simplex (3
 * vertices: the origin is inside the Minkowski difference) and returns the
 * iteration count. */
static int gjk(const sccd_proxy2 *a, const sccd_proxy2 *b, sccd_real tiny, const sccd_simplex_cache *cache,
               simplex2 *best)
{
    simplex2 s = {{make_vertex(a, b, 0, 0)}, 1};
    /* Cold: from each core's point farthest towards the other's middle
     * (the midpoint of its first and middle points: a box's centre, a
     * segment's), not from the first points: a box and a capsule resting
     * in a pile then took 4 iterations in 15 % of their cold queries, not
     * in 42 %. A cache's indices past a proxy's points (another shape's
     * simplex) read its first point instead. */
    if (cache->n == 0) {
        sccd_v2 d = sccd_v2_sub(sccd_v2_add(b->v[0], b->v[b->n / 2]), sccd_v2_add(a->v[0], a->v[a->n / 2]));
        s.v[0] = make_vertex(a, b, sccd_proxy2_support_inline(a, d), sccd_proxy2_support_inline(b, sccd_v2_neg(d)));
    }
    for (int i = 0; i < cache->n; ++i)
        s.v[i] = make_vertex(a, b, cache->ia[i] < a->n ? cache->ia[i] : 0, cache->ib[i] < b->n ? cache->ib[i] : 0);
    s.n = cache->n > 0 ? cache->n : 1;
    *best = s;
    sccd_real best_vv = INFINITY;
    int it = 0;
    while (it < GJK_MAX_ITERATIONS) {
        ++it;
        solve(&s);
        if (s.n == 3) {
            *best = s;
            break;
        }
        sccd_v2 v = simplex_point(&s);
        sccd_real vv = sccd_v2_len2(v);
        if (vv >= best_vv) /* no progress: rounding; keep the last good one */
            break;
        *best = s;
        best_vv = vv;
        if (vv <= tiny * tiny)
            break;
        int ia = sccd_proxy2_support_inline(a, v), ib = sccd_proxy2_support_inline(b, sccd_v2_neg(v));
        sccd_v2 w = sccd_v2_sub(b->v[ib], a->v[ia]);
        /* v·w/|v| is a lower bound of the distance, |v| an upper bound. */
        if (vv - sccd_v2_dot(v, w) <= 1e-13 * vv || contains(best, ia, ib))
            break;
        s.v[s.n++] = make_vertex(a, b, ia, ib);
    }
    return it;
}

sccd_distance2 sccd_proxy2_distance(const sccd_proxy2 *a, const sccd_proxy2 *b)
{
    if (!valid_proxy(a) || !valid_proxy(b)) {
        SCCD_ASSERT(valid_proxy(a) && valid_proxy(b));
        return (sccd_distance2){INFINITY, {0.0, 0.0}, {0.0, 0.0}, SCCD_FALLBACK_V2, false, 0};
    }
    return sccd_proxy2_distance_unchecked(a, b);
}

sccd_distance2 sccd_proxy2_distance_unchecked(const sccd_proxy2 *a, const sccd_proxy2 *b)
{
    sccd_simplex_cache cold = {0};
    return sccd_proxy2_distance_cached(a, b, &cold);
}

/* The nearest core points pa, pb of two proxies of at most two points each
 * (points and segments: circles and capsules), in closed form: GJK's
 * answer without its iterations, for two segments about a fifth of its
 * cost (callgrind: 120 instructions where GJK took 670). The cache is left
 * as one vertex, valid for both. */
static void segments_nearest(const sccd_proxy2 *a, const sccd_proxy2 *b, sccd_simplex_cache *cache, sccd_v2 *pa,
                             sccd_v2 *pb)
{
    sccd_segment_segment2_closest_unchecked(a->v[0], a->v[a->n - 1], b->v[0], b->v[b->n - 1], pa, pb);
    *cache = (sccd_simplex_cache){1, {0}, {0}};
}

/* GJK from *cache, which then holds its simplex: the nearest core points
 * pa, pb, and whether the simplex enclosed the origin (the cores overlap). */
static bool gjk_nearest(const sccd_proxy2 *a, const sccd_proxy2 *b, sccd_real tiny, sccd_simplex_cache *cache,
                        sccd_v2 *pa, sccd_v2 *pb, int *iterations)
{
    simplex2 s;
    *iterations = gjk(a, b, tiny, cache, &s);
    cache->n = s.n;
    *pa = *pb = (sccd_v2){0.0, 0.0};
    for (int i = 0; i < s.n; ++i) {
        cache->ia[i] = (unsigned char)s.v[i].ia;
        cache->ib[i] = (unsigned char)s.v[i].ib;
        *pa = sccd_v2_mad(*pa, s.v[i].u, a->v[s.v[i].ia]);
        *pb = sccd_v2_mad(*pb, s.v[i].u, b->v[s.v[i].ib]);
    }
    return s.n == 3;
}

sccd_distance2 sccd_proxy2_distance_cached(const sccd_proxy2 *a, const sccd_proxy2 *b, sccd_simplex_cache *cache)
{
    sccd_distance2 out = {INFINITY, {0.0, 0.0}, {0.0, 0.0}, SCCD_FALLBACK_V2, false, 1};
    /* Below this |v| the cores touch: the direction −v is rounding noise. */
    sccd_real reach = sccd_max(sccd_proxy2_reach(a), sccd_proxy2_reach(b)), tiny = 1e-14 * reach;
    sccd_v2 pa, pb;
    bool inside = false;
    if (a->n <= 2 && b->n <= 2)
        segments_nearest(a, b, cache, &pa, &pb);
    else
        inside = gjk_nearest(a, b, tiny, cache, &pa, &pb, &out.iterations);
    sccd_v2 v = sccd_v2_sub(pb, pa);
    sccd_real core = sccd_v2_len(v);
    if (inside || core <= tiny) {
        /* The cores overlap: no direction is defined. */
        sccd_v2 m = sccd_v2_lerp(pa, pb, 0.5);
        out = (sccd_distance2){0.0, m, m, SCCD_FALLBACK_V2, true, out.iterations};
        return out;
    }
    out.normal = sccd_v2_scale(v, 1.0 / core);
    out.pa = sccd_v2_mad(pa, a->r, out.normal);
    out.pb = sccd_v2_mad(pb, -b->r, out.normal);
    sccd_real d = core - a->r - b->r;
    /* A core's spread from its first point is at most twice its reach (2.5
     * covers the rounding): a gap above that bound's slack is no overlap
     * whatever the sizes, which then need not be formed. */
    sccd_real size_bound = 2.5 * reach + sccd_max(a->r, b->r);
    out.overlap = d <= SCCD_EPS * size_bound && d <= SCCD_EPS * sccd_max(proxy_size(a), proxy_size(b));
    out.distance = out.overlap ? 0.0 : d;
    return out;
}

sccd_distance2 sccd_shape2_distance(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb)
{
    if (!sccd_is_valid_shape2(a) || !sccd_is_valid_shape2(b) || !sccd_is_valid_xf2(xa) || !sccd_is_valid_xf2(xb)) {
        SCCD_ASSERT(sccd_is_valid_shape2(a) && sccd_is_valid_shape2(b) && sccd_is_valid_xf2(xa) &&
                    sccd_is_valid_xf2(xb));
        return (sccd_distance2){INFINITY, {0.0, 0.0}, {0.0, 0.0}, SCCD_FALLBACK_V2, false, 0};
    }
    return sccd_shape2_distance_unchecked(a, xa, b, xb);
}

/* The point of polygon core v[0..n) nearest to p: p itself inside it (the
 * cores meet), else the nearest of its edges' nearest points. Inside is
 * left of every edge: a valid polygon turns counter-clockwise. One whose
 * area is nothing beside its longest edge squared (fewer than 3 points,
 * all on a line, all at one point: valid too) has no inside: a point on
 * its line far past its ends is left of no edge and right of none. A
 * point inside a sliver under that bound is measured to its nearest edge,
 * about 1e-9 of the longest edge away at most. */
static sccd_v2 poly_nearest(const sccd_poly2 *s, sccd_v2 p)
{
    sccd_v2 best = s->v[0];
    sccd_real best2 = INFINITY, area2 = 0.0, edge2 = 0.0;
    bool left = true;
    for (int i = 0, j = s->n - 1; i < s->n; j = i++) {
        sccd_v2 a = s->v[j], b = s->v[i], e = sccd_v2_sub(b, a), q = sccd_closest_point_segment2_unchecked(p, a, b);
        sccd_real d2 = sccd_v2_len2(sccd_v2_sub(q, p));
        left &= sccd_v2_cross(e, sccd_v2_sub(p, a)) >= 0.0;
        area2 += sccd_v2_cross(a, b);
        edge2 = sccd_max(edge2, sccd_v2_len2(e));
        if (d2 < best2) {
            best2 = d2;
            best = q;
        }
    }
    return left && area2 > 1e-9 * edge2 ? p : best;
}

/* The point of shape s's core (in its own frame) nearest to p (distance3.c's
 * twin). */
static sccd_v2 core_nearest(const sccd_shape2 *s, sccd_v2 p)
{
    if (s->type == SCCD_SHAPE_POLY)
        return poly_nearest(&s->poly, p);
    if (s->type == SCCD_SHAPE_CAPSULE)
        return sccd_closest_point_segment2_unchecked(p, s->capsule.a, s->capsule.b);
    if (s->type == SCCD_SHAPE_BOX) {
        sccd_v2 l = sccd_rot2_inv_apply(s->box.q, sccd_v2_sub(p, s->box.c)), h = s->box.h;
        l = (sccd_v2){sccd_clamp(l.x, -h.x, h.x), sccd_clamp(l.y, -h.y, h.y)};
        return sccd_v2_add(s->box.c, sccd_rot2_apply(s->box.q, l));
    }
    return s->circle.c;
}

/* Shape s's rounding radius and its size as proxy_size measures it. */
static sccd_real core_radius(const sccd_shape2 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return s->circle.r;
    case SCCD_SHAPE_CAPSULE: return s->capsule.r;
    case SCCD_SHAPE_POLY: return s->poly.r;
    default: return 0.0;
    }
}

static sccd_real core_size(const sccd_shape2 *s)
{
    if (s->type == SCCD_SHAPE_POLY)
        return points_size(s->poly.v, s->poly.n, s->poly.r);
    if (s->type == SCCD_SHAPE_CAPSULE)
        return sccd_v2_dist(s->capsule.a, s->capsule.b) + s->capsule.r;
    return s->type == SCCD_SHAPE_BOX ? 2.0 * sccd_v2_len(s->box.h) : s->circle.r;
}

/* The distance between circle s and shape o, from s to o (from o to s when
 * flip): distance3.c's sphere_distance. Against a polygon it takes about
 * two thirds of GJK's instructions (a circle and a Chipmunk box, random
 * poses: 730 a query where GJK took 1,060, callgrind). */
static sccd_distance2 circle_distance(const sccd_shape2 *s, sccd_xf2 xs, const sccd_shape2 *o, sccd_xf2 xo, bool flip)
{
    sccd_v2 p = sccd_xf2_inv_apply(xo, sccd_xf2_apply(xs, s->circle.c)), q = core_nearest(o, p), v = sccd_v2_sub(q, p);
    sccd_real core = sccd_v2_len(v), rs = s->circle.r, ro = core_radius(o), size = sccd_max(rs, core_size(o));
    if (!(core > 1e-14 * size)) { /* the centre on o's core: no direction */
        sccd_v2 m = sccd_xf2_apply(xo, sccd_v2_lerp(p, q, 0.5));
        return (sccd_distance2){0.0, m, m, SCCD_FALLBACK_V2, true, 0};
    }
    sccd_v2 n = sccd_v2_scale(v, 1.0 / core);
    sccd_v2 ps = sccd_xf2_apply(xo, sccd_v2_mad(p, rs, n)), po = sccd_xf2_apply(xo, sccd_v2_mad(q, -ro, n));
    sccd_v2 normal = sccd_rot2_apply(xo.q, flip ? sccd_v2_neg(n) : n);
    sccd_real d = core - rs - ro;
    bool overlap = d <= SCCD_EPS * size;
    return (sccd_distance2){overlap ? 0.0 : d, flip ? po : ps, flip ? ps : po, normal, overlap, 0};
}

sccd_distance2 sccd_shape2_distance_cached(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb,
                                           sccd_simplex_cache *cache)
{
    if (a->type == SCCD_SHAPE_CIRCLE)
        return circle_distance(a, xa, b, xb, false);
    if (b->type == SCCD_SHAPE_CIRCLE)
        return circle_distance(b, xb, a, xa, true);
    /* In a's body frame the coordinates stay as small as the shapes. */
    sccd_proxy2 pa = sccd_proxy2_make_unchecked(a, sccd_xf2_identity());
    sccd_proxy2 pb = sccd_proxy2_make_unchecked(b, sccd_xf2_inv_mul(xa, xb));
    sccd_distance2 d = sccd_proxy2_distance_cached(&pa, &pb, cache);
    d.pa = sccd_xf2_apply(xa, d.pa);
    d.pb = sccd_xf2_apply(xa, d.pb);
    d.normal = sccd_rot2_apply(xa.q, d.normal);
    return d;
}

sccd_distance2 sccd_shape2_distance_unchecked(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb)
{
    sccd_simplex_cache cold = {0};
    return sccd_shape2_distance_cached(a, xa, b, xb, &cold);
}
