/* GJK distance of two 3D proxies (distance.h); the 2D twin is distance2.c.
 * Johnson's sub-algorithm in its enumerating form: the tetrahedron's interior
 * by signed volumes, else each face (interior by signed areas of the origin's
 * projection, else each edge, else each vertex). Every face is checked, so
 * flat or repeated simplices need no special case. */
#include "sectorccd/distance.h"
#include "unchecked.h"

#define GJK_MAX_ITERATIONS 64

/* Vertices keep their core points as indices, as in distance2.c. */
typedef struct vertex3 { sccd_v3 w; sccd_real u; int ia, ib; } vertex3;
typedef struct simplex3 { vertex3 v[4]; int n; } simplex3;

static vertex3 make_vertex(const sccd_proxy3 *a, const sccd_proxy3 *b, int ia, int ib)
{
    return (vertex3){sccd_v3_sub(b->v[ib], a->v[ia]), 1.0, ia, ib};
}

static sccd_v3 simplex_point(const simplex3 *s)
{
    sccd_v3 p = {0.0, 0.0, 0.0};
    for (int i = 0; i < s->n; ++i)
        p = sccd_v3_mad(p, s->v[i].u, s->v[i].w);
    return p;
}

/* Sets *out to the closest point of edge p–q as a sub-simplex; returns its
 * squared length. */
static sccd_real closest_edge(simplex3 *out, vertex3 p, vertex3 q)
{
    sccd_v3 e = sccd_v3_sub(q.w, p.w);
    sccd_real ee = sccd_v3_len2(e);
    sccd_real t = ee > 0.0 ? -sccd_v3_dot(p.w, e) / ee : 0.0;
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
    return sccd_v3_len2(simplex_point(out));
}

/* Triangle p, q, r: the projection of the origin on its plane has
 * barycentric coordinates n·(q × r), n·(r × p), n·(p × q) (over |n|²); inside
 * when all are ≥ 0, else the closest point is on an edge (the first of
 * equally close ones) whose line the projection lies strictly beyond
 * (negative coordinate of the vertex facing it: the difference from the
 * closest point lies in the triangle's normal cone there). A flat triangle (or
 * coordinates not numbers) tries every edge. Sets *out; returns the point's squared length. */
static sccd_real closest_triangle(simplex3 *out, vertex3 p, vertex3 q, vertex3 r)
{
    sccd_v3 a = p.w, b = q.w, c = r.w;
    sccd_v3 ab = sccd_v3_sub(b, a), ac = sccd_v3_sub(c, a);
    sccd_v3 n = sccd_v3_cross(ab, ac);
    sccd_real nn = sccd_v3_len2(n);
    sccd_real la = sccd_v3_dot(n, sccd_v3_cross(b, c));
    sccd_real lb = sccd_v3_dot(n, sccd_v3_cross(c, a));
    sccd_real lc = sccd_v3_dot(n, sccd_v3_cross(a, b));
    bool flat = nn <= 1e-24 * sccd_v3_len2(ab) * sccd_v3_len2(ac); /* |n| ≤ 1e-12·|ab|·|ac|, squared */
    if (!flat && la >= 0.0 && lb >= 0.0 && lc >= 0.0) {
        sccd_real sum = la + lb + lc;
        p.u = la / sum;
        q.u = lb / sum;
        r.u = lc / sum;
        *out = (simplex3){{p, q, r}, 3};
        return sccd_v3_len2(simplex_point(out));
    }
    const vertex3 from[3] = {p, q, r}, to[3] = {q, r, p};
    bool every = flat || !(la < 0.0 || lb < 0.0 || lc < 0.0); /* flat, or a coordinate not a number */
    const bool beyond[3] = {every || lc < 0.0, every || la < 0.0, every || lb < 0.0};
    simplex3 e;
    sccd_real best = INFINITY;
    for (int i = 0; i < 3; ++i) {
        if (!beyond[i])
            continue;
        sccd_real d = closest_edge(&e, from[i], to[i]);
        if (d < best) {
            *out = e;
            best = d;
        }
    }
    return best;
}

static sccd_real det3(sccd_v3 a, sccd_v3 b, sccd_v3 c) { return sccd_v3_dot(a, sccd_v3_cross(b, c)); }

/* Tetrahedron: the origin inside (the four signed sub-volumes on the side of
 * the whole volume) keeps all four vertices; else the closest face wins (the
 * first of equally close ones) among those the origin lies strictly beyond
 * (a sub-volume of the other sign: the normal cone at the closest point
 * holds the origin's difference from it; a flat one, or one whose volumes
 * are not numbers, tries all four). */
static void closest_tetrahedron(simplex3 *s)
{
    sccd_v3 a = s->v[0].w, b = s->v[1].w, c = s->v[2].w, d = s->v[3].w;
    sccd_v3 ab = sccd_v3_sub(b, a), ac = sccd_v3_sub(c, a), ad = sccd_v3_sub(d, a), o = sccd_v3_neg(a);
    sccd_real vol = det3(ab, ac, ad);
    /* l[i] = volume with vertex i replaced by the origin. */
    sccd_real l[4] = {det3(b, c, d), det3(o, ac, ad), det3(ab, o, ad), det3(ab, ac, o)};
    bool flat = fabs(vol) <= 1e-12 * sccd_v3_len(ab) * sccd_v3_len(ac) * sccd_v3_len(ad);
    if (!flat && l[0] * vol >= 0.0 && l[1] * vol >= 0.0 && l[2] * vol >= 0.0 && l[3] * vol >= 0.0) {
        sccd_real sum = l[0] + l[1] + l[2] + l[3];
        for (int i = 0; i < 4; ++i)
            s->v[i].u = l[i] / sum;
        return;
    }
    const vertex3 *v = s->v;
    simplex3 best = *s, e;
    sccd_real bd = INFINITY;
    static const int faces[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}; /* face f faces vertex f */
    bool every = flat || !(l[0] * vol < 0.0 || l[1] * vol < 0.0 || l[2] * vol < 0.0 || l[3] * vol < 0.0);
    for (int f = 0; f < 4; ++f) {
        if (!every && !(l[f] * vol < 0.0))
            continue;
        sccd_real fd = closest_triangle(&e, v[faces[f][0]], v[faces[f][1]], v[faces[f][2]]);
        if (fd < bd) {
            best = e;
            bd = fd;
        }
    }
    *s = best;
}

/* Reduces s to the sub-simplex holding its closest point to the origin. */
static void solve(simplex3 *s)
{
    switch (s->n) {
    case 1: s->v[0].u = 1.0; break;
    case 2: closest_edge(s, s->v[0], s->v[1]); break;
    case 3: closest_triangle(s, s->v[0], s->v[1], s->v[2]); break;
    default: closest_tetrahedron(s); break;
    }
}

static bool contains(const simplex3 *s, int ia, int ib)
{
    for (int i = 0; i < s->n; ++i)
        if (s->v[i].ia == ia && s->v[i].ib == ib)
            return true;
    return false;
}

static bool valid_proxy(const sccd_proxy3 *p)
{
    if (!p || p->n < 1 || p->n > SCCD_PROXY_MAX || !sccd_is_valid_real(p->r) || p->r < 0.0)
        return false;
    for (int i = 0; i < p->n; ++i)
        if (!sccd_is_valid_v3(p->v[i]))
            return false;
    return true;
}

static sccd_real proxy_size(const sccd_proxy3 *p)
{
    sccd_real s2 = 0.0; /* squared, one root at the end: the root is monotone, so the same result */
    for (int i = 1; i < p->n; ++i)
        s2 = sccd_max(s2, sccd_v3_len2(sccd_v3_sub(p->v[i], p->v[0])));
    return sqrt(s2) + p->r;
}

/* Two proxies and whether each is a box's (sccd_proxy3_support_as). */
typedef struct proxy_pair3 { const sccd_proxy3 *a, *b; bool a_box, b_box; } proxy_pair3;

/* Runs GJK from the cached simplex; sets *best to the final sub-simplex (4
 * vertices: the origin is inside) and returns the iteration count. */
static int gjk(proxy_pair3 pp, sccd_real tiny, const sccd_simplex_cache *cache, simplex3 *best)
{
    const sccd_proxy3 *a = pp.a, *b = pp.b;
    simplex3 s = {{make_vertex(a, b, 0, 0)}, 1};
    for (int i = 0; i < cache->n; ++i)
        s.v[i] = make_vertex(a, b, cache->ia[i], cache->ib[i]);
    s.n = cache->n > 0 ? cache->n : 1;
    *best = s;
    sccd_real best_vv = INFINITY;
    int it = 0;
    while (it < GJK_MAX_ITERATIONS) {
        ++it;
        solve(&s);
        if (s.n == 4) {
            *best = s;
            break;
        }
        sccd_v3 v = simplex_point(&s);
        sccd_real vv = sccd_v3_len2(v);
        if (vv >= best_vv)
            break;
        *best = s;
        best_vv = vv;
        if (vv <= tiny * tiny)
            break;
        int ia = sccd_proxy3_support_as(a, pp.a_box, v), ib = sccd_proxy3_support_as(b, pp.b_box, sccd_v3_neg(v));
        sccd_v3 w = sccd_v3_sub(b->v[ib], a->v[ia]);
        if (vv - sccd_v3_dot(v, w) <= 1e-13 * vv || contains(best, ia, ib))
            break;
        s.v[s.n++] = make_vertex(a, b, ia, ib);
    }
    return it;
}

sccd_distance3 sccd_proxy3_distance(const sccd_proxy3 *a, const sccd_proxy3 *b)
{
    if (!valid_proxy(a) || !valid_proxy(b)) {
        SCCD_ASSERT(valid_proxy(a) && valid_proxy(b));
        return (sccd_distance3){INFINITY, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, false, 0};
    }
    return sccd_proxy3_distance_unchecked(a, b);
}

sccd_distance3 sccd_proxy3_distance_unchecked(const sccd_proxy3 *a, const sccd_proxy3 *b)
{
    sccd_simplex_cache cold = {0};
    return sccd_proxy3_distance_cached(a, b, &cold);
}

/* distance2.c's segments_nearest: two proxies of at most two points each
 * (spheres and capsules) in closed form. */
static void segments_nearest(const sccd_proxy3 *a, const sccd_proxy3 *b, sccd_simplex_cache *cache, sccd_v3 *pa,
                             sccd_v3 *pb)
{
    sccd_segment_segment3_closest_unchecked(a->v[0], a->v[a->n - 1], b->v[0], b->v[b->n - 1], pa, pb);
    *cache = (sccd_simplex_cache){1, {0}, {0}};
}

/* GJK from *cache, which then holds its simplex: the nearest core points
 * pa, pb, and whether the simplex enclosed the origin (the cores overlap). */
static bool gjk_nearest(proxy_pair3 pp, sccd_real tiny, sccd_simplex_cache *cache, sccd_v3 *pa, sccd_v3 *pb,
                        int *iterations)
{
    const sccd_proxy3 *a = pp.a, *b = pp.b;
    simplex3 s;
    *iterations = gjk(pp, tiny, cache, &s);
    cache->n = s.n;
    *pa = *pb = (sccd_v3){0.0, 0.0, 0.0};
    for (int i = 0; i < s.n; ++i) {
        cache->ia[i] = (unsigned char)s.v[i].ia;
        cache->ib[i] = (unsigned char)s.v[i].ib;
        *pa = sccd_v3_mad(*pa, s.v[i].u, a->v[s.v[i].ia]);
        *pb = sccd_v3_mad(*pb, s.v[i].u, b->v[s.v[i].ib]);
    }
    return s.n == 4;
}

/* The distance of proxies a and b from their nearest core points pa, pb
 * (inside: the cores enclose each other), with the rounding radii. */
static sccd_distance3 from_nearest(const sccd_proxy3 *a, const sccd_proxy3 *b, sccd_v3 pa, sccd_v3 pb, bool inside,
                                   sccd_real reach, sccd_real tiny, int iterations)
{
    sccd_distance3 out = {INFINITY, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, false, iterations};
    sccd_v3 v = sccd_v3_sub(pb, pa);
    sccd_real core = sccd_v3_len(v);
    if (inside || core <= tiny) {
        sccd_v3 m = sccd_v3_lerp(pa, pb, 0.5);
        out = (sccd_distance3){0.0, m, m, SCCD_FALLBACK_V3, true, out.iterations};
        return out;
    }
    out.normal = sccd_v3_scale(v, 1.0 / core);
    out.pa = sccd_v3_mad(pa, a->r, out.normal);
    out.pb = sccd_v3_mad(pb, -b->r, out.normal);
    sccd_real d = core - a->r - b->r;
    /* A core's spread from its first point is at most twice its reach (2.5
     * covers the rounding): a gap above that bound's slack is no overlap
     * whatever the sizes, which then need not be formed. */
    sccd_real size_bound = 2.5 * reach + sccd_max(a->r, b->r);
    out.overlap = d <= SCCD_EPS * size_bound && d <= SCCD_EPS * sccd_max(proxy_size(a), proxy_size(b));
    out.distance = out.overlap ? 0.0 : d;
    return out;
}

/* sccd_proxy3_distance_cached of the pair pp. */
static sccd_distance3 pair_distance(proxy_pair3 pp, sccd_simplex_cache *cache)
{
    const sccd_proxy3 *a = pp.a, *b = pp.b;
    /* Below this |v| the cores touch: the direction −v is rounding noise. */
    sccd_real reach = sccd_max(sccd_proxy3_reach(a), sccd_proxy3_reach(b)), tiny = 1e-14 * reach;
    sccd_v3 pa, pb;
    bool inside = false;
    int iterations = 1;
    if (a->n <= 2 && b->n <= 2)
        segments_nearest(a, b, cache, &pa, &pb);
    else
        inside = gjk_nearest(pp, tiny, cache, &pa, &pb, &iterations);
    return from_nearest(a, b, pa, pb, inside, reach, tiny, iterations);
}

sccd_distance3 sccd_proxy3_distance_cached(const sccd_proxy3 *a, const sccd_proxy3 *b, sccd_simplex_cache *cache)
{
    return pair_distance((proxy_pair3){a, b, false, false}, cache);
}

/* The point of box proxy b (corner i = c ± x (bit 0) ± y (bit 1) ± z
 * (bit 2), as sccd_box3_corners makes them) nearest p: p's offset from the
 * centre clamped along each half axis (they are ⟂; a zero one is skipped). */
static sccd_v3 box_proxy_nearest(const sccd_proxy3 *b, sccd_v3 p)
{
    sccd_v3 c = sccd_v3_lerp(b->v[0], b->v[7], 0.5), d = sccd_v3_sub(p, c), q = c;
    sccd_v3 axis[3] = {sccd_v3_scale(sccd_v3_sub(b->v[1], b->v[0]), 0.5), sccd_v3_scale(sccd_v3_sub(b->v[2], b->v[0]), 0.5),
                       sccd_v3_scale(sccd_v3_sub(b->v[4], b->v[0]), 0.5)};
    for (int k = 0; k < 3; ++k) {
        sccd_real e2 = sccd_v3_len2(axis[k]);
        if (e2 > 0.0)
            q = sccd_v3_mad(q, sccd_clamp(sccd_v3_dot(d, axis[k]) / e2, -1.0, 1.0), axis[k]);
    }
    return q;
}

sccd_distance3 sccd_proxy3_distance_box_point(const sccd_proxy3 *a, const sccd_proxy3 *b, bool a_box)
{
    sccd_real reach = sccd_max(sccd_proxy3_reach(a), sccd_proxy3_reach(b)), tiny = 1e-14 * reach;
    sccd_v3 pa = a_box ? box_proxy_nearest(a, b->v[0]) : a->v[0], pb = a_box ? b->v[0] : box_proxy_nearest(b, a->v[0]);
    return from_nearest(a, b, pa, pb, false, reach, tiny, 0);
}

/* The point of shape s's core (in its own frame) nearest to p. */
static sccd_v3 core_nearest(const sccd_shape3 *s, sccd_v3 p)
{
    if (s->type == SCCD_SHAPE_CAPSULE)
        return sccd_closest_point_segment3_unchecked(p, s->capsule.a, s->capsule.b);
    if (s->type == SCCD_SHAPE_BOX) {
        sccd_v3 l = sccd_quat_inv_apply(s->box.q, sccd_v3_sub(p, s->box.c)), h = s->box.h;
        l = (sccd_v3){sccd_clamp(l.x, -h.x, h.x), sccd_clamp(l.y, -h.y, h.y), sccd_clamp(l.z, -h.z, h.z)};
        return sccd_v3_add(s->box.c, sccd_quat_apply(s->box.q, l));
    }
    return s->sphere.c;
}

/* Shape s's rounding radius and its size as proxy_size measures it (the
 * core's spread plus the radius). */
static sccd_real core_radius(const sccd_shape3 *s)
{
    return s->type == SCCD_SHAPE_CIRCLE ? s->sphere.r : s->type == SCCD_SHAPE_CAPSULE ? s->capsule.r : 0.0;
}

static sccd_real core_size(const sccd_shape3 *s)
{
    if (s->type == SCCD_SHAPE_CAPSULE)
        return sccd_v3_dist(s->capsule.a, s->capsule.b) + s->capsule.r;
    return s->type == SCCD_SHAPE_BOX ? 2.0 * sccd_v3_len(s->box.h) : s->sphere.r;
}

/* The distance between sphere s and shape o, from s to o (from o to s when
 * flip): s's core is a point, and the nearest point of o's core to it has
 * a closed form (a clamp into a box or onto a segment), where GJK would
 * iterate over a box's eight corners. In o's frame, where the coordinates
 * stay as small as the shapes; the overlap rule is
 * sccd_proxy3_distance_cached's, at the exact nearest points. */
static sccd_distance3 sphere_distance(const sccd_shape3 *s, sccd_xf3 xs, const sccd_shape3 *o, sccd_xf3 xo, bool flip)
{
    sccd_v3 p = sccd_xf3_inv_apply(xo, sccd_xf3_apply(xs, s->sphere.c)), q = core_nearest(o, p), v = sccd_v3_sub(q, p);
    sccd_real core = sccd_v3_len(v), rs = s->sphere.r, ro = core_radius(o), size = sccd_max(rs, core_size(o));
    if (!(core > 1e-14 * size)) { /* the centre on o's core: no direction */
        sccd_v3 m = sccd_xf3_apply(xo, sccd_v3_lerp(p, q, 0.5));
        return (sccd_distance3){0.0, m, m, SCCD_FALLBACK_V3, true, 0};
    }
    sccd_v3 n = sccd_v3_scale(v, 1.0 / core);
    sccd_v3 ps = sccd_xf3_apply(xo, sccd_v3_mad(p, rs, n)), po = sccd_xf3_apply(xo, sccd_v3_mad(q, -ro, n));
    sccd_v3 normal = sccd_quat_apply(xo.q, flip ? sccd_v3_neg(n) : n);
    sccd_real d = core - rs - ro;
    bool overlap = d <= SCCD_EPS * size;
    return (sccd_distance3){overlap ? 0.0 : d, flip ? po : ps, flip ? ps : po, normal, overlap, 0};
}

sccd_distance3 sccd_shape3_distance_cached(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb,
                                           sccd_simplex_cache *cache)
{
    if (a->type == SCCD_SHAPE_CIRCLE)
        return sphere_distance(a, xa, b, xb, false);
    if (b->type == SCCD_SHAPE_CIRCLE)
        return sphere_distance(b, xb, a, xa, true);
    /* In a's body frame the coordinates stay as small as the shapes. */
    sccd_xf3 rel = {sccd_quat_inv_apply(xa.q, sccd_v3_sub(xb.p, xa.p)),
                   sccd_quat_normalize(sccd_quat_mul(sccd_quat_conj(xa.q), xb.q))};
    sccd_proxy3 pa = sccd_proxy3_make_unchecked(a, sccd_xf3_identity());
    sccd_proxy3 pb = sccd_proxy3_make_unchecked(b, rel);
    proxy_pair3 pp = {&pa, &pb, a->type == SCCD_SHAPE_BOX, b->type == SCCD_SHAPE_BOX}; /* made as the boxes' corners */
    sccd_distance3 d = pair_distance(pp, cache);
    d.pa = sccd_xf3_apply(xa, d.pa);
    d.pb = sccd_xf3_apply(xa, d.pb);
    d.normal = sccd_quat_apply(xa.q, d.normal);
    return d;
}

sccd_distance3 sccd_shape3_distance_unchecked(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb)
{
    sccd_simplex_cache cold = {0};
    return sccd_shape3_distance_cached(a, xa, b, xb, &cold);
}

sccd_distance3 sccd_shape3_distance(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb)
{
    if (!sccd_is_valid_shape3(a) || !sccd_is_valid_shape3(b) || !sccd_is_valid_xf3(xa) || !sccd_is_valid_xf3(xb)) {
        SCCD_ASSERT(sccd_is_valid_shape3(a) && sccd_is_valid_shape3(b) && sccd_is_valid_xf3(xa) &&
                    sccd_is_valid_xf3(xb));
        return (sccd_distance3){INFINITY, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, false, 0};
    }
    return sccd_shape3_distance_unchecked(a, xa, b, xb);
}
