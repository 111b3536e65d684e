/* 2D sectors: construction (seed 000 §2.1, seed 002 §2.1), the canonical
 * frame (seed 000 eq 2.3) and exact pair tests.
 *
 * Every test works in the sector's canonical frame, where the sector is
 *     S = W ∩ A,  W = {p : |angle(p)| ≤ θ} (the wedge),  A = {p : r ≤ |p| ≤ R}.
 * The distance from a point q to S has a closed form: inside W the nearest
 * point of S is q's radial projection clamped to [r, R] (any point of S is at
 * least | |q| − |s| | away), so d = dist(|q|, [r, R]); outside W it is the
 * nearer of the two radial edge segments (a nearest point on an arc's interior
 * would put q on the arc's ray, i.e. inside W, or on the opposite ray, where
 * the inner end of an edge is at least as close).
 *
 * Hence the set of points within ρ of S is
 *     S ⊕ disc(ρ) = (W ∩ {r − ρ ≤ |p| ≤ R + ρ}) ∪ capsule(edge₁, ρ) ∪ capsule(edge₂, ρ),
 * which is exactly the decomposition of the thesis' capsule test (§2.6: the
 * t-interval in the widened annulus within the angle range, eqs 2.15–2.20,
 * else the distance to the two edges, §2.9.5), with eq 2.15's (r − rc)²
 * corrected to max(0, r − rc)². A convex set K rounded by ρ (point = circle,
 * segment = capsule, polygon, rounded polygon) meets S iff its core meets
 * S ⊕ disc(ρ): either the core is within ρ of an edge, or K ∩ W meets the
 * widened annulus. K ∩ W is computed by clipping: W is two half-planes (plus
 * the bisector's half-plane, which keeps a zero angle a ray) for θ ≤ π/2, the
 * union of two such wedges of half the angle for π/2 < θ < π, the plane for
 * θ = π. Distance to o is convex, so over each convex piece it takes every
 * value between its minimum and its largest vertex distance: the piece meets
 * the annulus iff that interval meets [r − ρ, R + ρ]. This replaces the
 * thesis' rectangle test (§2.3; its slowest, 294 ms per 100,000 in C#,
 * table 3.2), which point-tests every edge/edge and edge/circle crossing:
 * those points lie on the sector's boundary, where an exact point test is a
 * coin toss, and a zero-size rectangle passes its containment step (eq 2.40)
 * everywhere. The thesis' version is kept below (sccd_sector2_vs_box_thesis);
 * bench/sector2_speed measures both. */
#include "sectorccd/sector2.h"
#include "sectorccd/geometry.h"
#include "convex2.h"
#include "sector2_internal.h"

/* The clip output of a convex n-gon by one half-plane has at most n + 1
 * vertices (a line crosses a convex boundary twice); any polygon at most 2n.
 * Three clips of SCCD_SECTOR2_CONVEX_MAX points stay below this. */
#define CLIP_CAP (8 * SCCD_SECTOR2_CONVEX_MAX)

/* The sector in its canonical frame: half angle, its cosine and sine, radii. */
typedef struct local_sector { sccd_real half, c, s, r, R; } local_sector;

/* A convex wedge as three half-planes n·p ≥ 0. */
typedef struct wedge { sccd_v2 n[3]; } wedge;

static local_sector make_local(const sccd_sector2 *s)
{
    return (local_sector){s->half_angle, cos(s->half_angle), sin(s->half_angle), s->r, s->R};
}

static sccd_sector2 point_sector(sccd_v2 o)
{
    return (sccd_sector2){sccd_is_valid_v2(o) ? o : (sccd_v2){0.0, 0.0}, {1.0, 0.0}, 0.0, 0.0, 0.0};
}

bool sccd_is_valid_sector2(const sccd_sector2 *s)
{
    return s && sccd_is_valid_v2(s->o) && sccd_is_valid_v2(s->a) && fabs(sccd_v2_len2(s->a) - 1.0) < 1e-6 &&
           sccd_is_valid_real(s->half_angle) && s->half_angle >= 0.0 && s->half_angle <= SCCD_PI &&
           sccd_is_valid_real(s->R) && s->r >= 0.0 && s->r <= s->R;
}

sccd_sector2 sccd_sector2_thesis(sccd_box2 box, sccd_v2 pivot, sccd_real alpha)
{
    if (!sccd_is_valid_box2(box) || !sccd_is_valid_v2(pivot) || !sccd_is_valid_real(alpha)) {
        SCCD_ASSERT(sccd_is_valid_box2(box) && sccd_is_valid_v2(pivot) && sccd_is_valid_real(alpha));
        return point_sector(pivot);
    }
    sccd_v2 d = sccd_v2_sub(box.c, pivot);
    sccd_real dist = sccd_v2_len(d);
    /* Under the constraint P − O is along Y′; with P = O the box's Y′ is the
     * only direction there is. */
    sccd_v2 y = dist > 0.0 ? sccd_v2_scale(d, 1.0 / dist) : sccd_rot2_apply(box.q, (sccd_v2){0.0, 1.0});
    /* eq 2.1: θ = α/2, r = |P−O| − Wy/2, R = |P−O| + Wy/2; eq 2.2 (Rodrigues
     * about U = z) is the plane rotation of Y′ by θ, with α's sign. */
    sccd_v2 a = sccd_v2_normalize(sccd_rot2_apply(sccd_rot2_make(0.5 * alpha), y));
    sccd_real half = sccd_min(0.5 * fabs(alpha), SCCD_PI);
    return (sccd_sector2){pivot, a, half, sccd_max(0.0, dist - box.h.y), dist + box.h.y};
}

sccd_sector2 sccd_sector2_from_edges(sccd_v2 o, sccd_v2 a, sccd_v2 b, sccd_v2 a2, sccd_v2 b2)
{
    if (!sccd_is_valid_v2(o) || !sccd_is_valid_v2(a) || !sccd_is_valid_v2(b) || !sccd_is_valid_v2(a2) ||
        !sccd_is_valid_v2(b2)) {
        SCCD_ASSERT(sccd_is_valid_v2(o) && sccd_is_valid_v2(a) && sccd_is_valid_v2(b) && sccd_is_valid_v2(a2) &&
                    sccd_is_valid_v2(b2));
        return point_sector(o);
    }
    /* Directions from the outer ends: A may be O itself (piece of cake). */
    sccd_v2 u1 = sccd_v2_normalize(sccd_v2_sub(b, o)), u2 = sccd_v2_normalize(sccd_v2_sub(b2, o));
    sccd_real turn = atan2(sccd_v2_cross(u1, u2), sccd_v2_dot(u1, u2));
    if (turn < 0.0)
        turn += 2.0 * SCCD_PI; /* counter-clockwise from edge 1 to edge 2 (seed 002 eqs 2.2–2.3) */
    sccd_real ra = sccd_v2_dist(a, o), rb = sccd_v2_dist(b, o);
    sccd_v2 mid = sccd_v2_normalize(sccd_rot2_apply(sccd_rot2_make(0.5 * turn), u1));
    return (sccd_sector2){o, mid, 0.5 * turn, sccd_min(ra, rb), sccd_max(ra, rb)};
}

static sccd_v2 to_local(const sccd_sector2 *s, sccd_v2 p)
{
    /* eq 2.3 with U = z: rows A and K = U × A = perp(A). */
    sccd_v2 d = sccd_v2_sub(p, s->o);
    return (sccd_v2){sccd_v2_dot(s->a, d), sccd_v2_cross(s->a, d)};
}

sccd_v2 sccd_sector2_to_local(const sccd_sector2 *s, sccd_v2 p)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_v2(p));
        return (sccd_v2){0.0, 0.0};
    }
    return to_local(s, p);
}

/* The radial edge on side +1 (angle +θ) or −1, inner end p, outer end q. */
static void local_edge(const local_sector *ls, sccd_real side, sccd_v2 *p, sccd_v2 *q)
{
    sccd_v2 u = {ls->c, side * ls->s};
    *p = sccd_v2_scale(u, ls->r);
    *q = sccd_v2_scale(u, ls->R);
}

static bool in_wedge(const local_sector *ls, sccd_v2 q)
{
    return ls->half >= SCCD_PI || fabs(atan2(q.y, q.x)) <= ls->half;
}

/* The closed-form distance from q to S (see the top of the file). */
static sccd_real local_distance(const local_sector *ls, sccd_v2 q)
{
    if (in_wedge(ls, q)) {
        sccd_real d = sccd_v2_len(q);
        return sccd_max(sccd_max(ls->r - d, d - ls->R), 0.0);
    }
    sccd_v2 p0, q0, p1, q1;
    local_edge(ls, 1.0, &p0, &q0);
    local_edge(ls, -1.0, &p1, &q1);
    return sccd_min(sccd_distance_point_segment2(q, p0, q0), sccd_distance_point_segment2(q, p1, q1));
}

sccd_real sccd_sector2_distance(const sccd_sector2 *s, sccd_v2 p)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_v2(p));
        return INFINITY;
    }
    local_sector ls = make_local(s);
    return local_distance(&ls, to_local(s, p));
}

sccd_aabb2 sccd_sector2_aabb(const sccd_sector2 *s)
{
    if (!sccd_is_valid_sector2(s)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s));
        sccd_v2 o = point_sector(s ? s->o : (sccd_v2){0.0, 0.0}).o;
        return (sccd_aabb2){o, o};
    }
    /* The extremes are edge end points or outer-arc points facing an axis
     * (the inner arc is never beyond the outer one in the same direction). */
    sccd_real c = cos(s->half_angle), sn = sin(s->half_angle);
    sccd_v2 e1 = sccd_rot2_apply((sccd_rot2){c, sn}, s->a), e2 = sccd_rot2_apply((sccd_rot2){c, -sn}, s->a);
    sccd_v2 pts[4] = {sccd_v2_mad(s->o, s->r, e1), sccd_v2_mad(s->o, s->R, e1), sccd_v2_mad(s->o, s->r, e2),
                      sccd_v2_mad(s->o, s->R, e2)};
    sccd_aabb2 box = {pts[0], pts[0]};
    for (int i = 1; i < 4; ++i)
        box = sccd_aabb2_union(box, (sccd_aabb2){pts[i], pts[i]});
    static const sccd_v2 axes[4] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
    for (int i = 0; i < 4; ++i) {
        if (sccd_v2_dot(axes[i], s->a) >= c) {
            sccd_v2 p = sccd_v2_mad(s->o, s->R, axes[i]);
            box = sccd_aabb2_union(box, (sccd_aabb2){p, p});
        }
    }
    return box;
}

/* ---- convex sets: containment, distances, clipping, hull ---- */

static sccd_real convex_segment_distance(const sccd_v2 *v, int n, sccd_v2 a, sccd_v2 b)
{
    if (convex_contains(v, n, a))
        return 0.0;
    sccd_real d = sccd_distance_point_segment2(v[0], a, b);
    for (int i = 0; i < edge_count(n); ++i)
        d = sccd_min(d, sccd_distance_segment_segment2(v[i], v[(i + 1) % n], a, b));
    return d;
}

/* Sutherland–Hodgman against n·p ≥ 0. */
static int clip_halfplane(const sccd_v2 *in, int n, sccd_v2 nrm, sccd_v2 *out)
{
    int m = 0;
    for (int i = 0; i < n; ++i) {
        sccd_v2 p = in[i], q = in[(i + 1) % n];
        sccd_real fp = sccd_v2_dot(nrm, p), fq = sccd_v2_dot(nrm, q);
        if (fp >= 0.0)
            out[m++] = p;
        if (n > 1 && ((fp > 0.0 && fq < 0.0) || (fp < 0.0 && fq > 0.0)))
            out[m++] = sccd_v2_lerp(p, q, fp / (fp - fq));
    }
    return m;
}

/* The wedge of directions from angle lo to hi counter-clockwise, hi − lo ≤ π. */
static wedge make_wedge(sccd_real lo, sccd_real hi)
{
    sccd_v2 u0 = {cos(lo), sin(lo)}, u1 = {cos(hi), sin(hi)};
    sccd_real m = 0.5 * (lo + hi);
    return (wedge){{sccd_v2_perp(u0), sccd_v2_neg(sccd_v2_perp(u1)), {cos(m), sin(m)}}};
}

/* W as convex wedges; 0 means W is the whole plane. */
static int wedge_pieces(const local_sector *ls, wedge out[2])
{
    if (ls->half >= SCCD_PI)
        return 0;
    if (ls->half <= 0.5 * SCCD_PI) {
        out[0] = make_wedge(-ls->half, ls->half);
        return 1;
    }
    out[0] = make_wedge(-ls->half, 0.0);
    out[1] = make_wedge(0.0, ls->half);
    return 2;
}

/* The distance to the origin over convex v takes every value in
 * [min, max vertex distance]: does that interval meet [lo, hi]? */
static bool range_meets(const sccd_v2 *v, int n, sccd_real lo, sccd_real hi)
{
    sccd_real dmax = 0.0;
    for (int i = 0; i < n; ++i)
        dmax = sccd_max(dmax, sccd_v2_len(v[i]));
    return dmax >= lo && convex_point_distance(v, n, (sccd_v2){0.0, 0.0}) <= hi;
}

/* Does the convex set v (canonical frame, counter-clockwise) rounded by rho
 * meet S, with tolerance tol? Cheap rejections first: v lies in the disc
 * about v[0] of radius ext, so it misses the widened annulus when that disc
 * lies beyond R + reach or every vertex (hence, by convexity, all of v) lies
 * inside the circle r − reach; and an edge can only be within reach when
 * that disc comes within reach of it. */
static bool local_vs_convex(const local_sector *ls, const sccd_v2 *v, int n, sccd_real rho, sccd_real tol)
{
    sccd_real reach = rho + tol, lo = ls->r - reach, hi = ls->R + reach, ext2 = 0.0, dmax2 = 0.0;
    for (int i = 0; i < n; ++i) {
        ext2 = sccd_max(ext2, sccd_v2_len2(sccd_v2_sub(v[i], v[0])));
        dmax2 = sccd_max(dmax2, sccd_v2_len2(v[i]));
    }
    sccd_real ext = sqrt(ext2);
    if ((lo > 0.0 && dmax2 < lo * lo) || sccd_v2_len(v[0]) - ext > hi)
        return false;
    wedge w[2];
    int pieces = wedge_pieces(ls, w);
    if (pieces == 0 && range_meets(v, n, lo, hi))
        return true;
    for (int k = 0; k < pieces; ++k) {
        sccd_v2 a[CLIP_CAP], b[CLIP_CAP];
        int m = clip_halfplane(v, n, w[k].n[0], a);
        m = clip_halfplane(a, m, w[k].n[1], b);
        m = clip_halfplane(b, m, w[k].n[2], a);
        if (m > 0 && range_meets(a, m, lo, hi))
            return true;
    }
    for (sccd_real side = -1.0; side <= 1.0; side += 2.0) {
        sccd_v2 p, q;
        local_edge(ls, side, &p, &q);
        if (sccd_distance_point_segment2(v[0], p, q) <= ext + reach && convex_segment_distance(v, n, p, q) <= reach)
            return true;
    }
    return false;
}

/* Andrew's monotone chain: the counter-clockwise hull of n points, collinear
 * points dropped; a point gives 1 vertex, collinear input 2. */
static int convex_hull(const sccd_v2 *in, int n, sccd_v2 *out)
{
    sccd_v2 p[SCCD_SECTOR2_CONVEX_MAX];
    for (int i = 0; i < n; ++i) { /* insertion sort by x, then y */
        int j = i;
        for (; j > 0 && (p[j - 1].x > in[i].x || (p[j - 1].x == in[i].x && p[j - 1].y > in[i].y)); --j)
            p[j] = p[j - 1];
        p[j] = in[i];
    }
    int k = 0;
    for (int i = 0; i < n; ++i) { /* lower chain */
        while (k >= 2 && sccd_v2_cross(sccd_v2_sub(out[k - 1], out[k - 2]), sccd_v2_sub(p[i], out[k - 2])) <= 0.0)
            --k;
        out[k++] = p[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; --i) { /* upper chain */
        while (k >= lower && sccd_v2_cross(sccd_v2_sub(out[k - 1], out[k - 2]), sccd_v2_sub(p[i], out[k - 2])) <= 0.0)
            --k;
        out[k++] = p[i];
    }
    return k > 1 ? k - 1 : 1; /* the upper chain ends where the lower began */
}

static sccd_real scene_scale(const local_sector *ls, const sccd_v2 *v, int n, sccd_real rho)
{
    sccd_real s2 = 0.0;
    for (int i = 0; i < n; ++i)
        s2 = sccd_max(s2, sccd_v2_len2(v[i]));
    return sccd_max(sccd_max(ls->R, rho), sqrt(s2));
}

/* World points → canonical frame → (hull, unless v is known convex and
 * counter-clockwise) → test. n is within bounds. */
bool sccd_sector2_meets_points(const sccd_sector2 *s, const sccd_v2 *v, int n, sccd_real rho, bool convex)
{
    sccd_v2 loc[SCCD_SECTOR2_CONVEX_MAX], hull[2 * SCCD_SECTOR2_CONVEX_MAX];
    for (int i = 0; i < n; ++i)
        loc[i] = to_local(s, v[i]);
    local_sector ls = make_local(s);
    sccd_real tol = SCCD_EPS * scene_scale(&ls, loc, n, rho);
    if (convex)
        return local_vs_convex(&ls, loc, n, rho, tol);
    int m = convex_hull(loc, n, hull);
    return local_vs_convex(&ls, hull, m, rho, tol);
}

static bool valid_points(const sccd_v2 *v, int n)
{
    if (!v || n < 1 || n > SCCD_SECTOR2_CONVEX_MAX)
        return false;
    for (int i = 0; i < n; ++i)
        if (!sccd_is_valid_v2(v[i]))
            return false;
    return true;
}

/* ---- public pair tests ---- */

bool sccd_sector2_vs_convex(const sccd_sector2 *s, const sccd_v2 *v, int n, sccd_real radius)
{
    if (!sccd_is_valid_sector2(s) || !valid_points(v, n) || !sccd_is_valid_real(radius) || radius < 0.0) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && valid_points(v, n) && sccd_is_valid_real(radius) && radius >= 0.0);
        return false;
    }
    return sccd_sector2_meets_points(s, v, n, radius, false);
}

/* A point within rho of S, as the thesis' circle test (§2.4): in the angle
 * range (eq 2.7) the widened radial test (eq 2.8, corrected), else the
 * distance to the two edges (eqs 2.9–2.10, §2.9.4). */
static bool sector_vs_disc(const sccd_sector2 *s, sccd_v2 c, sccd_real rho)
{
    local_sector ls = make_local(s);
    sccd_v2 q = to_local(s, c);
    sccd_real tol = SCCD_EPS * scene_scale(&ls, &q, 1, rho);
    return local_distance(&ls, q) <= rho + tol;
}

bool sccd_sector2_vs_point(const sccd_sector2 *s, sccd_v2 p)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_v2(p));
        return false;
    }
    return sector_vs_disc(s, p, 0.0);
}

bool sccd_sector2_vs_circle(const sccd_sector2 *s, sccd_circle c)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_circle(c)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_circle(c));
        return false;
    }
    return sector_vs_disc(s, c.c, c.r);
}

bool sccd_sector2_vs_box(const sccd_sector2 *s, sccd_box2 b)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_box2(b)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_box2(b));
        return false;
    }
    sccd_v2 v[4];
    sccd_box2_corners(b, v);
    return sccd_sector2_meets_points(s, v, 4, 0.0, true);
}

bool sccd_sector2_vs_capsule(const sccd_sector2 *s, sccd_capsule2 c)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_capsule2(c)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_capsule2(c));
        return false;
    }
    sccd_v2 v[2] = {c.a, c.b};
    return sccd_sector2_meets_points(s, v, 2, c.r, true);
}

bool sccd_sector2_vs_poly(const sccd_sector2 *s, const sccd_poly2 *p)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_poly2(p)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_poly2(p));
        return false;
    }
    return sccd_sector2_meets_points(s, p->v, p->n, p->r, true);
}

/* ---- sector–sector ---- */

/* Does an edge of t meet s? */
static bool edges_meet(const sccd_sector2 *s, const sccd_sector2 *t, sccd_real tol)
{
    local_sector ls = make_local(s);
    sccd_real c = cos(t->half_angle), sn = sin(t->half_angle);
    for (sccd_real side = -1.0; side <= 1.0; side += 2.0) {
        sccd_v2 u = sccd_rot2_apply((sccd_rot2){c, side * sn}, t->a);
        sccd_v2 seg[2] = {to_local(s, sccd_v2_mad(t->o, t->r, u)), to_local(s, sccd_v2_mad(t->o, t->R, u))};
        if (local_vs_convex(&ls, seg, 2, 0.0, tol))
            return true;
    }
    return false;
}

/* Is a point of t (the inner point on its centre line) in s? */
static bool point_of_inside(const sccd_sector2 *s, const sccd_sector2 *t, sccd_real tol)
{
    local_sector ls = make_local(s);
    return local_distance(&ls, to_local(s, sccd_v2_mad(t->o, t->r, t->a))) <= tol;
}

/* Do the arc of radius r1 of s (canonical frame: centre 0, angles |φ| ≤ θs)
 * and the arc of radius r2 of t (centre c, angles within ht of phi) cross? */
static bool arcs_cross(sccd_real r1, sccd_real hs, sccd_v2 c, sccd_real r2, sccd_real phi, sccd_real ht,
                       sccd_real tol)
{
    sccd_real d = sccd_v2_len(c);
    /* Concentric arcs: where they share points, an end of one lies on the
     * other, and that end is an edge end: the edge tests have it. */
    if (!(d > tol) || d > r1 + r2 + tol || d < fabs(r1 - r2) - tol)
        return false;
    sccd_v2 e = sccd_v2_scale(c, 1.0 / d);
    sccd_real x = (d * d + r1 * r1 - r2 * r2) / (2.0 * d);
    sccd_real h = sqrt(sccd_max(0.0, r1 * r1 - x * x));
    for (sccd_real sign = -1.0; sign <= 1.0; sign += 2.0) {
        sccd_v2 p = sccd_v2_mad(sccd_v2_scale(e, x), sign * h, sccd_v2_perp(e));
        sccd_v2 q = sccd_v2_sub(p, c);
        if (fabs(atan2(p.y, p.x)) <= hs && fabs(remainder(atan2(q.y, q.x) - phi, 2.0 * SCCD_PI)) <= ht)
            return true;
    }
    return false;
}

static bool arcs_meet(const sccd_sector2 *s, const sccd_sector2 *t, sccd_real tol)
{
    sccd_v2 c = to_local(s, t->o);
    sccd_real phi = atan2(sccd_v2_cross(s->a, t->a), sccd_v2_dot(s->a, t->a));
    sccd_real rs[2] = {s->r, s->R}, rt[2] = {t->r, t->R};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            if (rs[i] > 0.0 && rt[j] > 0.0 && arcs_cross(rs[i], s->half_angle, c, rt[j], phi, t->half_angle, tol))
                return true;
    return false;
}

bool sccd_sector2_vs_sector2(const sccd_sector2 *s, const sccd_sector2 *t)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_sector2(t)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_sector2(t));
        return false;
    }
    /* If the sets meet, then one holds the other, or t's boundary meets s:
     * an edge of t meets s, or an arc of t does without lying inside s (its
     * ends are edge ends), so it crosses s's boundary: an edge of s (which
     * then meets t) or an arc of s. Both orders, so the answer is symmetric. */
    sccd_real tol = SCCD_EPS * (sccd_v2_dist(s->o, t->o) + sccd_max(s->R, t->R)); /* symmetric in s, t */
    return edges_meet(s, t, tol) || edges_meet(t, s, tol) || point_of_inside(s, t, tol) ||
           point_of_inside(t, s, tol) || arcs_meet(s, t, tol);
}

/* ---- the thesis' own tests, kept to compare against ---- */

/* Thesis §2.2, eqs 2.5–2.7 (eq 2.6 multiplied out so |P| = 0 divides by
 * nothing), with the library's 1e-9 tolerance: §2.3 feeds it crossing points
 * that lie on the sector's boundary, where the exact test is a coin toss. */
static bool thesis_point_inside(const local_sector *ls, sccd_v2 p)
{
    sccd_real d = sccd_v2_len(p), tol = SCCD_EPS * sccd_max(ls->R, d);
    return ls->r - tol <= d && d <= ls->R + tol && p.x >= ls->c * d - tol;
}

bool sccd_sector2_vs_circle_thesis(const sccd_sector2 *s, sccd_circle c)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_circle(c)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_circle(c));
        return false;
    }
    local_sector ls = make_local(s);
    sccd_v2 p = to_local(s, c.c);
    sccd_real d2 = sccd_v2_len2(p);
    if (p.x >= ls.c * sqrt(d2)) /* eq 2.7 */
        return (ls.r - c.r) * (ls.r - c.r) <= d2 && d2 <= (ls.R + c.r) * (ls.R + c.r); /* eq 2.8 as written */
    sccd_v2 g0, g1, h0, h1; /* eqs 2.9–2.10 */
    local_edge(&ls, 1.0, &g0, &g1);
    local_edge(&ls, -1.0, &h0, &h1);
    return sccd_min(sccd_distance_point_segment2(p, g0, g1), sccd_distance_point_segment2(p, h0, h1)) <= c.r;
}

/* §2.9.1, eq 2.34: the crossing point of segments e–f and g–h, if any. */
static bool thesis_segment_crossing(sccd_v2 e, sccd_v2 f, sccd_v2 g, sccd_v2 h, sccd_v2 *x)
{
    sccd_v2 ef = sccd_v2_sub(f, e), gh = sccd_v2_sub(h, g);
    sccd_real den = sccd_v2_cross(ef, gh);
    if (den == 0.0)
        return false;
    sccd_v2 eg = sccd_v2_sub(g, e);
    sccd_real s = sccd_v2_cross(eg, gh) / den, t = sccd_v2_cross(eg, ef) / den;
    if (s < 0.0 || s > 1.0 || t < 0.0 || t > 1.0) /* eq 2.35 */
        return false;
    *x = sccd_v2_mad(e, s, ef);
    return true;
}

/* §2.9.2, eq 2.39: points where segment e–f crosses the circle of radius rad about the origin. */
static int thesis_circle_crossings(sccd_v2 e, sccd_v2 f, sccd_real rad, sccd_v2 x[2])
{
    sccd_v2 v = sccd_v2_sub(f, e);
    sccd_real a = sccd_v2_len2(v), b = sccd_v2_dot(v, e), c = sccd_v2_len2(e) - rad * rad;
    sccd_real disc = b * b - a * c;
    if (a == 0.0 || disc < 0.0)
        return 0;
    int n = 0;
    sccd_real root = sqrt(disc);
    for (sccd_real sign = -1.0; sign <= 1.0; sign += 2.0) {
        sccd_real s = (-b + sign * root) / a;
        if (s >= 0.0 && s <= 1.0)
            x[n++] = sccd_v2_mad(e, s, v);
    }
    return n;
}

bool sccd_sector2_vs_box_thesis(const sccd_sector2 *s, sccd_box2 b)
{
    if (!sccd_is_valid_sector2(s) || !sccd_is_valid_box2(b)) {
        SCCD_ASSERT(sccd_is_valid_sector2(s) && sccd_is_valid_box2(b));
        return false;
    }
    local_sector ls = make_local(s);
    sccd_v2 v[4];
    sccd_box2_corners(b, v);
    for (int i = 0; i < 4; ++i)
        v[i] = to_local(s, v[i]);
    sccd_v2 g0, g1, h0, h1, x[2];
    local_edge(&ls, 1.0, &g0, &g1);
    local_edge(&ls, -1.0, &h0, &h1);
    /* §2.3: every crossing of a rectangle edge with a sector edge or circle,
     * then the point test (§2.2) on it. */
    for (int i = 0; i < 4; ++i) {
        sccd_v2 e = v[i], f = v[(i + 1) % 4];
        if ((thesis_segment_crossing(e, f, g0, g1, x) && thesis_point_inside(&ls, x[0])) ||
            (thesis_segment_crossing(e, f, h0, h1, x) && thesis_point_inside(&ls, x[0])))
            return true;
        for (int k = 0; k < 2; ++k) {
            int n = thesis_circle_crossings(e, f, k ? ls.R : ls.r, x);
            for (int j = 0; j < n; ++j)
                if (thesis_point_inside(&ls, x[j]))
                    return true;
        }
    }
    /* No crossing: one holds the other (§2.3, last paragraph; §2.9.3 with
     * eq 2.40's cross products for the rectangle). */
    if (thesis_point_inside(&ls, v[0]))
        return true;
    sccd_v2 p = {0.5 * (ls.r + ls.R), 0.0};
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; ++i) {
        sccd_real c = sccd_v2_cross(sccd_v2_sub(v[(i + 1) % 4], v[i]), sccd_v2_sub(p, v[i]));
        pos += c >= 0.0;
        neg += c <= 0.0;
    }
    return pos == 4 || neg == 4;
}
