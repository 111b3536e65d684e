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

#include <stdint.h>
#include <string.h>

#include "sectorccd/geometry.h"
#include "convex2.h"
#include "inline.h"
#include "range.h"
#include "tolerance.h"
#include "shapes_valid.h"
#include "trig.h"
#include "sector2_internal.h"

/* The clip output of a convex n-gon by one half-plane has at most n + 1
 * vertices (a line crosses a convex boundary twice); any polygon at most 2n.
 * Three clips of SCCD_SECTOR2_CONVEX_MAX points stay below this. */
#define CLIP_CAP (8 * SCCD_SECTOR2_CONVEX_MAX)

typedef sccd_sector2_prepared prepared;

static sccd_sector2 point_sector(sccd_v2 o)
{
    return (sccd_sector2){sccd_is_valid_v2(o) ? o : (sccd_v2){0.0, 0.0}, {1.0, 0.0}, 0.0, 0.0, 0.0};
}

/* sccd_is_valid_sector2, inline for the one-shot tests. The unit and range
 * checks fail for a NaN or infinite a, half angle, r or R (R at most
 * SCCD_RANGE_MAX: range.h): only o needs a finiteness check of its own,
 * one sum (x − x is 0 for every finite x, NaN otherwise; as
 * sccd_is_valid_v2). Bitwise: one branch, not nine. */
static inline bool valid_sector2(const sccd_sector2 *s)
{
    if (!s)
        return false;
    sccd_real zero = (s->o.x - s->o.x) + (s->o.y - s->o.y);
    return (zero == 0.0) & (fabs(sccd_v2_len2(s->a) - 1.0) < 1e-6) & (s->half_angle >= 0.0) &
           (s->half_angle <= SCCD_PI) & (s->r >= 0.0) & (s->r <= s->R) & (s->R <= SCCD_RANGE_MAX);
}

bool sccd_is_valid_sector2(const sccd_sector2 *s) { return valid_sector2(s); }

/* The wedge W as convex wedges of half-planes (canonical frame, nrm[k] the
 * three normals n of wedge k = {p : n·p ≥ 0}); returns their count: 0 for
 * θ = π (the plane), 1 for θ ≤ π/2 (cos θ ≥ 0: the two radial edges' sides
 * plus the bisector's side, which keeps a zero angle a ray), else 2: the
 * halves [−θ, 0] and [0, θ], each under π wide, whose bisectors are at ∓θ/2
 * (cos, sin of θ/2 from the half-angle formulas: c < 0 there, no
 * cancellation in 1 − c, and 1 + c only tilts a bisector well inside its
 * piece). Made on demand: only the tests that clip need them. */
static int wedge_normals(const prepared *p, sccd_v2 nrm[2][3])
{
    sccd_real c = p->edge.c, sn = p->edge.s;
    if (sn == 0.0 && c < 0.0)
        return 0;
    if (c >= 0.0) {
        nrm[0][0] = (sccd_v2){sn, c};
        nrm[0][1] = (sccd_v2){sn, -c};
        nrm[0][2] = (sccd_v2){1.0, 0.0};
        return 1;
    }
    sccd_real ch = sqrt(0.5 * (1.0 + c)), sh = sqrt(0.5 * (1.0 - c));
    nrm[0][0] = (sccd_v2){sn, c};
    nrm[0][1] = (sccd_v2){0.0, -1.0};
    nrm[0][2] = (sccd_v2){ch, -sh};
    nrm[1][0] = (sccd_v2){0.0, 1.0};
    nrm[1][1] = (sccd_v2){sn, -c};
    nrm[1][2] = (sccd_v2){ch, sh};
    return 2;
}

bool sccd_sector2_prepare(sccd_sector2_prepared *out, const sccd_sector2 *s)
{
    if (!out || !sccd_is_valid_sector2(s)) {
        SCCD_ASSERT(out != NULL && sccd_is_valid_sector2(s));
        if (out)
            *out = (prepared){.s = point_sector(s ? s->o : (sccd_v2){0.0, 0.0}), .edge = {1.0, 0.0}, .ready = false};
        return false;
    }
    sccd_sector2_prepare_unchecked(out, s);
    return true;
}

/* At θ = π the edge is (−1, 0) exactly (the sine would be 2.8e-17, which
 * would put the centre line's points outside the wedge by the cross
 * product test): the wedge is then the whole plane with no special case. */
static sccd_rot2 edge_of(sccd_real half) { return half >= SCCD_PI ? (sccd_rot2){-1.0, 0.0} : sccd_cos_sin_half_turn(half); }

/* Fast unless R is below SCCD_RANGE_MIN: a scene that may be tiny, whose
 * squares underflow (below about 1e-160 across nearly every shape was
 * met), tested scaled up; a sector that is a point, at the pivot of a
 * scene of any size, takes those paths too (they leave it near 1e50). */
void sccd_sector2_prepare_unchecked(sccd_sector2_prepared *out, const sccd_sector2 *s)
{
    out->s = *s;
    out->edge = edge_of(s->half_angle);
    out->ready = true;
    out->fast = s->R >= SCCD_RANGE_MIN;
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
    sccd_real turn = sccd_atan2(sccd_v2_cross(u1, u2), sccd_v2_dot(u1, u2));
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
static void local_edge(const prepared *p, sccd_real side, sccd_v2 *in, sccd_v2 *out)
{
    sccd_v2 u = {p->edge.c, side * p->edge.s};
    *in = sccd_v2_scale(u, p->s.r);
    *out = sccd_v2_scale(u, p->s.R);
}

/* dist(t, [r, R]): t less t clamped, by min and max, without a branch. */
static inline sccd_real radial_gap(const sccd_sector2 *s, sccd_real t) { return t - sccd_min(sccd_max(t, s->r), s->R); }

/* The squared closed-form distance from q to S (see the top of the file)
 * outside W: S is symmetric about +x, so q folds onto y ≥ 0; outside W the
 * upper radial edge is then the nearer (its angle is nearer q's, and the
 * distance to a point at a given radius grows with the angle between), and
 * q turned by −θ gives its coordinate u along that edge and its offset w
 * from the edge's line: dist(u, [r, R])² + w². Inside W the distance is
 * dist(|q|, [r, R]) instead. *in: whether q is inside W, which picks one. */
static inline sccd_real local_edge_dist2(const prepared *p, sccd_v2 q, bool *in)
{
    sccd_real c = p->edge.c, sn = p->edge.s, x = q.x, y = fabs(q.y);
    sccd_real u = x * c + y * sn, w = y * c - x * sn, e = radial_gap(&p->s, u);
    *in = in_half_angle(x, y, c, sn);
    return e * e + w * w;
}

/* The squared distance from q to S, d = |q|. */
static inline sccd_real local_dist2(const prepared *p, sccd_v2 q, sccd_real d)
{
    bool in;
    sccd_real edge2 = local_edge_dist2(p, q, &in), a = radial_gap(&p->s, d);
    return in ? a * a : edge2;
}

/* Is |q| within [r − reach, R + reach] (|q|² = d2)? By squares, without a
 * root: rounding moves that by some 1e-16 of the scene, far less than any
 * tolerance here. */
static inline bool annulus_within(const sccd_sector2 *s, sccd_real d2, sccd_real reach)
{
    sccd_real lo = s->r - reach, hi = s->R + reach;
    return (d2 <= hi * hi) & ((lo <= 0.0) | (d2 >= lo * lo));
}

/* local_dist2 ≤ reach² (|q|² = d2), both parts compared (pick): no root
 * and no branch. Over a mix of inputs a branch on an early-out (beyond R,
 * surely inside) mispredicts often, and each miss waits for the whole
 * chain of products before it resolves: with those early-outs and a root
 * the prepared point and circle tests took 1.52 and 1.85 times the AABB
 * test (speed), in this straight line 1.31 and 1.50. */
static inline bool local_within(const prepared *p, sccd_v2 q, sccd_real d2, sccd_real reach)
{
    bool in;
    sccd_real edge2 = local_edge_dist2(p, q, &in);
    return pick(in, annulus_within(&p->s, d2, reach), edge2 <= reach * reach);
}

/* The distance from q to S. */
static sccd_real local_distance(const prepared *p, sccd_v2 q) { return sqrt(local_dist2(p, q, sccd_v2_len(q))); }

/* p with its pivot and radii scaled by f, a power of 2: fast if ready
 * (f brings the scene into the range). */
static prepared scaled_sector(const prepared *p, sccd_real f)
{
    prepared q = *p;
    q.s.o = sccd_v2_scale(p->s.o, f);
    q.s.r *= f;
    q.s.R *= f;
    q.fast = q.ready;
    return q;
}

/* The factor that scales p and a shape whose largest coordinate or size
 * is m into the range. */
static sccd_real scene_factor(const prepared *p, sccd_real m)
{
    return sccd_range_factor(sccd_max(sccd_max(m, p->s.R), sccd_mag2(p->s.o)));
}

sccd_real sccd_sector2_distance(const sccd_sector2 *s, sccd_v2 p)
{
    prepared pr;
    if (!sccd_sector2_prepare(&pr, s) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(sccd_is_valid_v2(p));
        return INFINITY;
    }
    sccd_v2 q = to_local(s, p);
    sccd_real m = sccd_mag2(q);
    if (m <= SCCD_RANGE_MAX)
        return local_distance(&pr, q);
    if (!(m <= DBL_MAX)) /* p's offset from the pivot beyond the doubles: its distance too */
        return INFINITY;
    /* Beyond the range its squares overflow (a point 1e200 off was ∞
     * away): the scene scaled, the distance scaled back. */
    sccd_real f = sccd_range_factor(sccd_max(m, pr.s.R));
    prepared t = scaled_sector(&pr, f);
    return local_distance(&t, sccd_v2_scale(q, f)) / f;
}

sccd_aabb2 sccd_sector2_aabb(const sccd_sector2 *s)
{
    prepared p;
    if (!sccd_sector2_prepare(&p, s))
        return (sccd_aabb2){p.s.o, p.s.o};
    return sccd_sector2_prepared_aabb(&p);
}

sccd_aabb2 sccd_sector2_prepared_aabb(const sccd_sector2_prepared *p)
{
    /* The extremes are edge end points or outer-arc points facing an axis
     * (the inner arc is never beyond the outer one in the same direction).
     * Offsets from o, added to o once: rounding is monotone, so that is the
     * box of the points o + offset. */
    const sccd_sector2 *s = &p->s;
    sccd_real c = p->edge.c, sn = p->edge.s;
    sccd_v2 e1 = sccd_rot2_apply((sccd_rot2){c, sn}, s->a), e2 = sccd_rot2_apply((sccd_rot2){c, -sn}, s->a);
    sccd_v2 lo = sccd_v2_min(sccd_v2_min(sccd_v2_scale(e1, s->r), sccd_v2_scale(e1, s->R)),
                             sccd_v2_min(sccd_v2_scale(e2, s->r), sccd_v2_scale(e2, s->R)));
    sccd_v2 hi = sccd_v2_max(sccd_v2_max(sccd_v2_scale(e1, s->r), sccd_v2_scale(e1, s->R)),
                             sccd_v2_max(sccd_v2_scale(e2, s->r), sccd_v2_scale(e2, s->R)));
    static const sccd_v2 axes[4] = {{1.0, 0.0}, {0.0, 1.0}, {-1.0, 0.0}, {0.0, -1.0}};
    for (int i = 0; i < 4; ++i) {
        if (sccd_v2_dot(axes[i], s->a) >= c) {
            sccd_v2 q = sccd_v2_scale(axes[i], s->R);
            lo = sccd_v2_min(lo, q);
            hi = sccd_v2_max(hi, q);
        }
    }
    return (sccd_aabb2){sccd_v2_add(s->o, lo), sccd_v2_add(s->o, hi)};
}

/* ---- convex sets: containment, distances, clipping, hull ---- */

static sccd_real convex_segment_dist2(const sccd_v2 *v, int n, sccd_v2 a, sccd_v2 b)
{
    if (convex_contains(v, n, a))
        return 0.0;
    sccd_real d2 = sccd_point_segment2_dist2_unchecked(v[0], a, b);
    for (int i = 0; i < edge_count(n); ++i)
        d2 = sccd_min(d2, sccd_segment_segment2_dist2_unchecked(v[i], v[(i + 1) % n], a, b));
    return d2;
}

/* Sutherland–Hodgman against n·p ≥ 0. */
static int clip_halfplane(const sccd_v2 *in, int n, sccd_v2 nrm, sccd_v2 *out)
{
    int m = 0;
    sccd_v2 p = in[n - 1];
    sccd_real fp = sccd_v2_dot(nrm, p);
    for (int i = 0; i < n; ++i) { /* edge p → q, q = in[i]: q kept, crossings added */
        sccd_v2 q = in[i];
        sccd_real fq = sccd_v2_dot(nrm, q);
        if (n > 1 && ((fp > 0.0 && fq < 0.0) || (fp < 0.0 && fq > 0.0)))
            out[m++] = sccd_v2_lerp(p, q, fp / (fp - fq));
        if (fq >= 0.0)
            out[m++] = q;
        p = q;
        fp = fq;
    }
    return m;
}

/* The distance to the origin over convex v takes every value in
 * [min, max vertex distance]: does that interval meet [lo, hi]? */
static bool range_meets(const sccd_v2 *v, int n, sccd_real lo, sccd_real hi)
{
    sccd_real dmax2 = 0.0;
    for (int i = 0; i < n; ++i)
        dmax2 = sccd_max(dmax2, sccd_v2_len2(v[i]));
    return (lo <= 0.0 || dmax2 >= lo * lo) && convex_point_distance(v, n, (sccd_v2){0.0, 0.0}) <= hi;
}

/* The unit normals of the lines of W's lower and upper radial edges,
 * pointing into W (see wedge_missed). */
static inline void edge_normals(const prepared *p, sccd_v2 *lower, sccd_v2 *upper)
{
    *lower = (sccd_v2){p->edge.s, p->edge.c};
    *upper = (sccd_v2){p->edge.s, -p->edge.c};
}

/* Does a convex set with those supports miss W widened by reach? */
static inline bool misses_wedge(const prepared *p, sccd_real hl, sccd_real hu, sccd_real hx, sccd_real reach)
{
    return wedge_missed(p->edge.c, p->edge.s, hl, hu, hx, reach);
}

/* The point of S nearest the canonical-frame point q, d = |q| (as
 * local_dist2): inside W its radial projection clamped to [r, R] (along +x
 * from the pivot), else on the nearer radial edge, clamped. */
static inline sccd_v2 local_nearest(const prepared *p, sccd_v2 q, sccd_real d)
{
    sccd_real c = p->edge.c, sn = p->edge.s, x = q.x, y = fabs(q.y);
    bool in = in_half_angle(x, y, c, sn);
    sccd_v2 dir = in ? (d > 0.0 ? (sccd_v2){x / d, y / d} : (sccd_v2){1.0, 0.0}) : (sccd_v2){c, sn};
    sccd_real u = sccd_clamp(in ? d : x * c + y * sn, p->s.r, p->s.R);
    return (sccd_v2){u * dir.x, copysign(u * dir.y, q.y)};
}

/* Exact early-out for the convex set v (canonical frame) rounded by rho
 * and the point near of S nearest a point m of it: a line ⟂ m − near (as
 * for a disc) with v's rounded extent more than 4·tol beyond S's support
 * (convex_meets, exact to tol, meets points up to √2·tol away). The
 * callers first ask whether near is in the set, a hit. */
static bool separated_along(const prepared *p, const sccd_v2 *v, int n, sccd_real rho, sccd_real tol, sccd_v2 m,
                            sccd_v2 near)
{
    sccd_v2 d = sccd_v2_sub(m, near);
    sccd_real low = INFINITY, len = sccd_v2_len(d);
    for (int i = 0; i < n; ++i)
        low = sccd_min(low, sccd_v2_dot(v[i], d));
    return low - rho * len > annular_sector_support(p->edge.c, p->edge.s, p->s.r, p->s.R, d.x, d.y) + 4.0 * tol * len;
}

/* range_meets for the segment from p to q: its distance to the pivot runs
 * from its nearest point's to its farther end's. */
static bool span_meets(sccd_v2 p, sccd_v2 q, sccd_real lo, sccd_real hi)
{
    sccd_real far2 = sccd_max(sccd_v2_len2(p), sccd_v2_len2(q));
    return (lo <= 0.0 || far2 >= lo * lo) && sccd_point_segment2_dist2_unchecked((sccd_v2){0.0, 0.0}, p, q) <= hi * hi;
}

/* span_meets for the segment from a to b clipped to the convex wedge of the
 * three normals nrm (wedge_normals): the parameter interval where every
 * n·(a + t·(b − a)) ≥ 0, as clip_halfplane would cut it. A piece that
 * rounding empties where the segment grazes an edge's line lies within
 * rounding of that edge, which the caller tests apart. */
static bool clipped_span_meets(const sccd_v2 nrm[3], sccd_v2 a, sccd_v2 b, sccd_real lo, sccd_real hi)
{
    sccd_real t0 = 0.0, t1 = 1.0;
    for (int j = 0; j < 3; ++j) {
        sccd_real fa = sccd_v2_dot(nrm[j], a), fb = sccd_v2_dot(nrm[j], b);
        if (fa < 0.0) {
            if (fb < 0.0)
                return false;
            t0 = sccd_max(t0, fa / (fa - fb));
        } else if (fb < 0.0) {
            t1 = sccd_min(t1, fa / (fa - fb));
        }
    }
    return t0 <= t1 && span_meets(sccd_v2_lerp(a, b, t0), sccd_v2_lerp(a, b, t1), lo, hi);
}

/* convex_meets for the segment from a to b rounded by rho (a capsule's
 * core), by its parameter instead of clipped polygons (the thesis'
 * t-interval, §2.6, above): some point of it inside W within
 * [r − reach, R + reach] of the pivot (there its distance to S is the
 * radial one), or within reach of a radial edge (outside W the nearer edge
 * holds its nearest point of S). Its ends need no test of their own: each
 * is in a piece or beside an edge. Out of line: rare, and inlined it made
 * the capsule test save more registers on every call. */
SCCD_NOINLINE static bool segment_meets(const prepared *p, sccd_v2 a, sccd_v2 b, sccd_real rho, sccd_real tol)
{
    sccd_real reach = rho + tol, lo = p->s.r - reach, hi = p->s.R + reach;
    sccd_v2 nrm[2][3];
    int pieces = wedge_normals(p, nrm);
    if (pieces == 0)
        return span_meets(a, b, lo, hi);
    for (int k = 0; k < pieces; ++k)
        if (clipped_span_meets(nrm[k], a, b, lo, hi))
            return true;
    for (sccd_real side = -1.0; side <= 1.0; side += 2.0) {
        sccd_v2 e0, e1;
        local_edge(p, side, &e0, &e1);
        if (sccd_segment_segment2_dist2_unchecked(a, b, e0, e1) <= reach * reach)
            return true;
    }
    return false;
}

/* The exact part of local_vs_convex, after its early-outs (or a caller's
 * own): a vertex within reach of S hits; then W's convex pieces clip v, and
 * the distance range of each piece meets the widened annulus or not; last,
 * the radial edges, which an edge of v can only come within reach of when
 * the disc about v[0] of radius ext (holding v) does. */
static bool convex_meets(const prepared *p, const sccd_v2 *v, int n, sccd_real rho, sccd_real tol, sccd_real ext)
{
    sccd_real reach = rho + tol, lo = p->s.r - reach, hi = p->s.R + reach;
    for (int i = 0; i < n; ++i)
        if (local_dist2(p, v[i], sccd_v2_len(v[i])) <= reach * reach)
            return true;
    sccd_v2 nrm[2][3];
    int pieces = wedge_normals(p, nrm);
    if (pieces == 0)
        return range_meets(v, n, lo, hi);
    for (int k = 0; k < pieces; ++k) {
        sccd_v2 a[CLIP_CAP], b[CLIP_CAP];
        int m = clip_halfplane(v, n, nrm[k][0], a);
        m = m > 0 ? clip_halfplane(a, m, nrm[k][1], b) : 0;
        m = m > 0 ? clip_halfplane(b, m, nrm[k][2], a) : 0;
        if (m > 0 && range_meets(a, m, lo, hi))
            return true;
    }
    for (sccd_real side = -1.0; side <= 1.0; side += 2.0) {
        sccd_v2 e0, e1;
        local_edge(p, side, &e0, &e1);
        sccd_real near = ext + reach;
        if (sccd_point_segment2_dist2_unchecked(v[0], e0, e1) <= near * near &&
            convex_segment_dist2(v, n, e0, e1) <= reach * reach)
            return true;
    }
    return false;
}

/* Is the convex set v (canonical frame, counter-clockwise) rounded by rho
 * within tol of S? Exact early-outs first. Misses: v lies in the disc about
 * v[0] of radius ext, so it misses the widened annulus when that disc lies
 * beyond R + reach or every vertex (hence, by convexity, all of v) lies
 * inside the circle r − reach; or v lies beyond W (misses_wedge). Then
 * from its vertices' mean m, a point of it: the point of S nearest m in v
 * hits, a line ⟂ their offset may separate them. Then convex_meets. */
static bool local_vs_convex(const prepared *p, const sccd_v2 *v, int n, sccd_real rho, sccd_real tol)
{
    sccd_real reach = rho + tol, lo = p->s.r - reach, hi = p->s.R + reach, ext2 = 0.0, dmax2 = 0.0;
    sccd_v2 lower, upper;
    edge_normals(p, &lower, &upper);
    sccd_real hl = -INFINITY, hu = -INFINITY, hx = -INFINITY; /* the supports, in the same pass */
    sccd_v2 m = {0.0, 0.0};
    for (int i = 0; i < n; ++i) {
        m = sccd_v2_add(m, v[i]);
        ext2 = sccd_max(ext2, sccd_v2_len2(sccd_v2_sub(v[i], v[0])));
        dmax2 = sccd_max(dmax2, sccd_v2_len2(v[i]));
        hl = sccd_max(hl, sccd_v2_dot(lower, v[i]));
        hu = sccd_max(hu, sccd_v2_dot(upper, v[i]));
        hx = sccd_max(hx, v[i].x);
    }
    sccd_real ext = sqrt(ext2);
    if ((lo > 0.0 && dmax2 < lo * lo) || sccd_v2_len(v[0]) - ext > hi || misses_wedge(p, hl, hu, hx, reach))
        return false;
    m = sccd_v2_scale(m, 1.0 / n);
    sccd_v2 near = local_nearest(p, m, sccd_v2_len(m));
    if (convex_contains(v, n, near))
        return true;
    if (separated_along(p, v, n, rho, tol, m, near))
        return false;
    return convex_meets(p, v, n, rho, tol, ext);
}

static bool v2_less(sccd_v2 a, sccd_v2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

int sccd_hull2(sccd_v2 *pts, int n, sccd_v2 *out)
{
    /* Andrew's monotone chain; insertion sort suits these few points. */
    for (int i = 1; i < n; ++i) {
        sccd_v2 x = pts[i];
        int j = i;
        for (; j > 0 && v2_less(x, pts[j - 1]); --j)
            pts[j] = pts[j - 1];
        pts[j] = x;
    }
    int k = 0;
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && sccd_v2_cross(sccd_v2_sub(out[k - 1], out[k - 2]), sccd_v2_sub(pts[i], out[k - 2])) <= 0.0)
            k--;
        out[k++] = pts[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; --i) {
        while (k >= lower && sccd_v2_cross(sccd_v2_sub(out[k - 1], out[k - 2]), sccd_v2_sub(pts[i], out[k - 2])) <= 0.0)
            k--;
        out[k++] = pts[i];
    }
    return k > 1 ? k - 1 : k;
}

/* The tolerance: SCCD_EPS times the scene size (R, rho, the farthest point, far2 its squared distance). */
static sccd_real tol_of(const prepared *p, sccd_real far2, sccd_real rho)
{
    return SCCD_EPS * sccd_max(sccd_max(p->s.R, rho), sqrt(far2));
}

/* The same of the points v, far2 the largest |v|². */
static sccd_real scene_tol(const prepared *p, const sccd_v2 *v, int n, sccd_real rho)
{
    sccd_real s2 = 0.0;
    for (int i = 0; i < n; ++i)
        s2 = sccd_max(s2, sccd_v2_len2(v[i]));
    return tol_of(p, s2, rho);
}

/* World points → canonical frame → (hull, unless v is known convex and
 * counter-clockwise) → test. n is within bounds. */
/* sccd_sector2_meets_points beyond the range, the scene scaled. Out of
 * line: rare. */
SCCD_NOINLINE static bool meets_points_scaled(const prepared *p, const sccd_v2 *v, int n, sccd_real rho, bool convex)
{
    sccd_real m = rho;
    for (int i = 0; i < n; ++i)
        m = sccd_max(m, sccd_mag2(v[i]));
    sccd_real f = scene_factor(p, m);
    prepared q = scaled_sector(p, f);
    sccd_v2 scaled[SCCD_SECTOR2_CONVEX_MAX];
    for (int i = 0; i < n; ++i)
        scaled[i] = sccd_v2_scale(v[i], f);
    return sccd_sector2_meets_points(&q, scaled, n, rho * f, convex);
}

/* Within the range (rho, and every point within SCCD_RANGE_MAX of the
 * pivot; a sweep's target 1e300 off its band with a radius of 1e155 was
 * met), as they are; else scaled. */
bool sccd_sector2_meets_points(const sccd_sector2_prepared *p, const sccd_v2 *v, int n, sccd_real rho, bool convex)
{
    if (!p->fast)
        return p->ready && meets_points_scaled(p, v, n, rho, convex);
    sccd_v2 loc[SCCD_SECTOR2_CONVEX_MAX], hull[2 * SCCD_SECTOR2_CONVEX_MAX];
    sccd_real far2 = 0.0;
    for (int i = 0; i < n; ++i) {
        loc[i] = to_local(&p->s, v[i]);
        far2 = sccd_max(far2, sccd_v2_len2(loc[i]));
    }
    if (!((far2 <= SCCD_RANGE_MAX * SCCD_RANGE_MAX) & (rho <= SCCD_RANGE_MAX)))
        return meets_points_scaled(p, v, n, rho, convex);
    sccd_real tol = tol_of(p, far2, rho);
    if (convex)
        return local_vs_convex(p, loc, n, rho, tol);
    int m = sccd_hull2(loc, n, hull);
    return local_vs_convex(p, hull, m, rho, tol);
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

/* The reach of a disc of radius rho: rho and the tolerance of its scene,
 * SCCD_EPS·max(R, rho). Not its centre's coordinates too: a disc within
 * reach has its centre within R + 2·rho of the pivot, where the distance's
 * rounding is some 1e-16 of that, and a farther one is far outside (with
 * |q|∞, the prepared circle and point tests took 1.56 and 1.32 times the
 * AABB test, 1.50 and 1.21 so). */
static inline sccd_real disc_reach(const sccd_sector2 *s, sccd_real rho)
{
    return rho + SCCD_EPS * sccd_max(s->R, rho);
}

/* The canonical-frame point q within rho of S, as the thesis' circle test
 * (§2.4): in the angle range (eq 2.7) the widened radial test (eq 2.8,
 * corrected), else the distance to the nearer edge (eqs 2.9–2.10,
 * §2.9.4), with the tolerance of its scene. By squares (local_within):
 * the point and circle tests' whole work. */
static inline bool local_disc_meets_squared(const prepared *p, sccd_v2 q, sccd_real rho)
{
    return local_within(p, q, sccd_v2_len2(q), disc_reach(&p->s, rho));
}

/* The same with d = |q| known (the shapes' early-outs): by the root. */
static inline bool local_disc_meets(const prepared *p, sccd_v2 q, sccd_real d, sccd_real rho)
{
    sccd_real reach = disc_reach(&p->s, rho);
    return local_dist2(p, q, d) <= reach * reach;
}

/* Exact early-outs for a convex set that holds the disc of radius in about
 * the canonical-frame point q and lies in the one of radius out ≥ in: the
 * outer disc missing S (a miss), the inner one meeting it (a hit), each
 * disc with its own scene's tolerance. Returns whether one decides, *hit
 * the answer then. They exclude each other (out ≥ in, so the outer reach
 * is at least the inner, rounding being monotone): one branch on whether
 * they differ, not one for each. Each by squares (local_within), not one
 * distance for both by its root, which takes fewer instructions but ended
 * the chain to the shapes' branch on the answer (with it the prepared
 * sector–prepared polygon test took 9.3 ns a call, the rectangle 14.6;
 * 8.3 and 14.4 so, speed, AMD EPYC). The polygons' test; the box and
 * capsule take one distance by the root in a small function of their own
 * (box_meets, capsule_meets), where it is faster. */
static inline bool disc_decides(const prepared *p, sccd_v2 q, sccd_real in, sccd_real out, bool *hit)
{
    *hit = local_disc_meets_squared(p, q, in);
    return !local_disc_meets_squared(p, q, out) != *hit;
}

/* disc_meets for a sector not fast: not ready, meets nothing; else the
 * scene scaled (out of line: rare). The centre by its coordinates: as a
 * vector the compiler packed it through memory on the common path (two
 * stores read back as one, which stalled: the prepared point test took
 * 4.4 times the AABB test, not 1.2). */
SCCD_NOINLINE static bool disc_meets_small(const prepared *p, sccd_real cx, sccd_real cy, sccd_real rho)
{
    if (!p->ready)
        return false;
    sccd_v2 c = {cx, cy};
    sccd_real f = scene_factor(p, sccd_max(sccd_mag2(c), rho));
    prepared q = scaled_sector(p, f);
    return local_disc_meets_squared(&q, to_local(&q.s, sccd_v2_scale(c, f)), rho * f);
}

/* The world point c within rho of S (false when p is not ready). */
static inline bool disc_meets(const prepared *p, sccd_v2 c, sccd_real rho)
{
    return p->fast ? local_disc_meets_squared(p, to_local(&p->s, c), rho) : disc_meets_small(p, c.x, c.y, rho);
}

/* The one-shot tests' check: the sector, then the shape (shape_ok), each
 * failed check firing as the prepared route's would (the prepare's, then
 * the prepared test's); one branch for both. */
static inline bool one_shot_valid(const sccd_sector2 *s, bool shape_ok)
{
    bool sector_ok = valid_sector2(s);
    if (!(sector_ok & shape_ok)) {
        SCCD_ASSERT(sector_ok);
        SCCD_ASSERT(shape_ok);
        return false;
    }
    return true;
}

/* The one-shot point and circle tests decide most input by a coarse cosine
 * and sine of the half angle (sccd_cos_sin_half_turn_coarse: the pair
 * within |δ| ≤ 6.1e-4 of the exact one) in the canonical frame, q = (x, y),
 * m = |q|∞ ≥ |q|/√2. The upper edge's coordinates u = x·c + |y|·s along it
 * and w = |y|·c − x·s across its line (outward) move by at most |q|·|δ| ≤
 * 8.7e-4·m together (the error pair turns and scales q), and so does the
 * edge part of the distance (1-Lipschitz in them). So with err =
 * 1e-3·m + 1e-8·R + 1e-150 (coarse_err): w < −err puts q surely inside W
 * (the exact w < 0 by more than 1.3e-4·m + 1e-8·R, far above the rounding
 * of in_half_angle's products; with c ≥ 0 that needs x > 0), where the
 * distance is the annulus part alone, which needs no angle; w > err surely
 * outside, where it is the edge part, known when that is err clear of the
 * reach. The 1e-8·R keeps that margin above the exact test's rounding
 * (some 1e-16 of R) and a point's reach (SCCD_EPS·R) for q near the
 * pivot, the 1e-150 above the rounding of squares that underflow
 * (the root of a square within 1e-323 of another is within 4e-162 of its).
 * Returns w; *e the coarse pair. */
static inline sccd_real coarse_side(const sccd_sector2 *s, sccd_v2 q, sccd_rot2 *e)
{
    *e = sccd_cos_sin_half_turn_coarse(s->half_angle);
    return fabs(q.y) * e->c - q.x * e->s;
}

/* The margin err of coarse_side. */
static inline sccd_real coarse_err(const sccd_sector2 *s, sccd_real m) { return 1e-3 * m + 1e-8 * s->R + 1e-150; }

/* Does a shape that holds the disc of radius `inner` about the
 * canonical-frame point q and lies in the one of radius `outer` meet S,
 * known by the coarse side (coarse_side)? A hit where the inner disc
 * surely meets S, a miss where the outer one surely misses it (as
 * local_disc_meets_squared would say of each): the answers box_meets and
 * capsule_meets take from those discs, so the one-shot tests answer as the
 * prepared ones; for a disc, inner = outer = its radius. Returns whether
 * it is known, *hit the answer then. The edge part by squares against
 * reach ± err (its root err clear of reach), not by its root: the root was
 * the end of the chain to the caller's branch (the one-shot circle test
 * took 1.62 times the prepared one's time by it, 1.42 so; by squares it
 * had taken 1.60, by the root 1.54, when the reach still took |q|∞, a
 * chain of its own); it is finite and its squares too (|q| and R below
 * 1e150: one_shot_checked; reach − err's square may underflow to 0, which
 * leaves the shape undecided). No branch: the caller's one on the answer
 * is mostly taken (shapes near an edge are rare). */
static inline bool coarse_discs_decide(const sccd_sector2 *s, sccd_v2 q, sccd_real inner, sccd_real outer, bool *hit)
{
    sccd_real d2 = sccd_v2_len2(q), m = sccd_max(fabs(q.x), fabs(q.y));
    sccd_real in_reach = disc_reach(s, inner), out_reach = disc_reach(s, outer), err = coarse_err(s, m);
    prepared p = {*s, {1.0, 0.0}, true};
    bool in;
    sccd_real w = coarse_side(s, q, &p.edge), e2 = local_edge_dist2(&p, q, &in), lo = in_reach - err, hi = out_reach + err;
    bool inside = w < 0.0, miss = pick(inside, !annulus_within(s, d2, out_reach), e2 > hi * hi);
    *hit = pick(inside, annulus_within(s, d2, in_reach), (lo > 0.0) & (e2 < lo * lo));
    return (fabs(w) > err) & (*hit | miss);
}

/* coarse_discs_decide for a point, cheaper: surely outside W it is more
 * than err − 8.7e-4·m from the edge's line, beyond its reach: a miss
 * without the edge part. */
static inline bool coarse_point_decides(const sccd_sector2 *s, sccd_v2 q, bool *hit)
{
    sccd_real d2 = sccd_v2_len2(q), m = sccd_max(fabs(q.x), fabs(q.y));
    sccd_rot2 e;
    sccd_real w = coarse_side(s, q, &e);
    *hit = (w < 0.0) & annulus_within(s, d2, disc_reach(s, 0.0));
    return fabs(w) > coarse_err(s, m);
}

/* The bits of x, which order as x does for x from +0 up (sign clear); a
 * negative x (−0 too) has the sign bit set, which puts it above all those
 * as an unsigned number, and every NaN is above +∞. */
static inline uint64_t real_bits(sccd_real x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

#define RANGE_BITS 0x54b249ad2594c37du /* SCCD_RANGE_MAX, 1e100 */
#define PI_BITS 0x400921fb54442d18u    /* SCCD_PI */

/* Is x from +0 (−0 not: stricter than valid_radius) up to SCCD_RANGE_MAX? */
static inline bool in_range(sccd_real x) { return real_bits(x) <= RANGE_BITS; }

/* sccd_is_valid_sector2 for the one-shot point and circle tests (s not
 * null), stricter: their early-outs decide only what it passes, the exact
 * path checks again (its checks firing; a −0 radius or half angle, a
 * centre beyond 1e150 or a circle beyond SCCD_RANGE_MAX passing). The
 * ranges by integer compares of the bits, which run beside the
 * floating-point work that bounds these tests' time (by sector2's own
 * checks, o's finiteness by a sum, the one-shot circle test took 1.54
 * times the prepared one's time, 1.44 so): R from +0 up to
 * SCCD_RANGE_MAX, r from +0 up to R, the half angle from +0 up to π. The
 * finiteness of o and the tested point c by d2 < 1e300, d2 = |c − o|² or
 * |q|² (q = c's canonical coordinates: a being unit, each coordinate of
 * c − o is in q's with a factor not 0, so q is finite only when c − o is,
 * and that only when o and c are). Those bounds keep the squares of the
 * early-outs finite (|q| below 1e150, R and the radius below 1e100). */
static inline bool one_shot_checked(const sccd_sector2 *s, sccd_real d2)
{
    uint64_t r = real_bits(s->r), R = real_bits(s->R);
    return (r <= R) & (R <= RANGE_BITS) & (real_bits(s->half_angle) <= PI_BITS) &
           (fabs(sccd_v2_len2(s->a) - 1.0) < 1e-6) & (d2 < 1e300);
}

/* The one-shot point and circle tests where their early-outs did not
 * decide, or could not: the sector and the shape checked (one_shot_valid,
 * its checks firing), then the exact cosine and sine and
 * local_disc_meets_squared (the prepared answer). Out of line: rare. */
static bool one_shot_exact(const sccd_sector2 *s, sccd_v2 c, sccd_real rho, bool shape_ok)
{
    if (!one_shot_valid(s, shape_ok))
        return false;
    prepared p;
    sccd_sector2_prepare_unchecked(&p, s);
    if (!(rho <= SCCD_RANGE_MAX)) /* a circle beyond the range: scaled */
        return sccd_sector2_prepared_vs_circle(&p, (sccd_circle){c, rho});
    return disc_meets(&p, c, rho);
}

/* ---- public pair tests: prepared, then one-shot ---- */

bool sccd_sector2_prepared_vs_point(const sccd_sector2_prepared *p, sccd_v2 q)
{
    if (!p || !sccd_is_valid_v2(q)) {
        SCCD_ASSERT(p != NULL && sccd_is_valid_v2(q));
        return false;
    }
    return disc_meets(p, q, 0.0);
}

/* ---- shapes beyond the range (range.h): the scene scaled ---- */

/* A circle's check and range: finite, radius from 0 to SCCD_RANGE_MAX. */
static inline bool circle_in_range(sccd_circle c)
{
    return sccd_is_valid_v2(c.c) & sccd_radius_in_range(c.r);
}

/* The circle test where circle_in_range fails: the check (firing), or the
 * scene scaled. Out of line: rare. */
SCCD_NOINLINE static bool circle_out_of_range(const prepared *p, sccd_circle c)
{
    if (!p || !valid_circle(c)) {
        SCCD_ASSERT(p != NULL && valid_circle(c));
        return false;
    }
    sccd_real f = scene_factor(p, sccd_max(sccd_mag2(c.c), c.r));
    prepared q = scaled_sector(p, f);
    return disc_meets(&q, sccd_v2_scale(c.c, f), c.r * f);
}

bool sccd_sector2_prepared_vs_circle(const sccd_sector2_prepared *p, sccd_circle c)
{
    if (!p || !circle_in_range(c))
        return circle_out_of_range(p, c);
    return disc_meets(p, c.c, c.r);
}

/* The support of the box about the origin with half-sizes h along u and w
 * (⟂ u) in direction n. */
static sccd_real box_support(sccd_v2 n, sccd_v2 u, sccd_v2 w, sccd_v2 h)
{
    return h.x * fabs(sccd_v2_dot(n, u)) + h.y * fabs(sccd_v2_dot(n, w));
}

/* A box in the canonical frame: centre c, axes u and w = perp(u), |u|² =
 * u2 (|q|², 1 within 1e-6), half sizes h. A point q is in it when its
 * coordinates (q − c)·u and (q − c)·w are within ±e = ±h·u2 (the corners
 * c ± h.x·u ± h.y·w); the pivot's are o = (−c·u, −c·w). */
typedef struct local_box {
    sccd_v2 c, u, w, h, e, o;
    sccd_real u2;
} local_box;

static local_box box_in_frame(const prepared *p, const sccd_box2 *b)
{
    sccd_v2 c = to_local(&p->s, b->c), ax = {b->q.c, b->q.s};
    sccd_v2 u = {sccd_v2_dot(p->s.a, ax), sccd_v2_cross(p->s.a, ax)}, w = sccd_v2_perp(u);
    sccd_real u2 = sccd_v2_len2(u);
    return (local_box){c, u, w, b->h, sccd_v2_scale(b->h, u2), {-sccd_v2_dot(c, u), -sccd_v2_dot(c, w)}, u2};
}

/* Narrows [*t0, *t1] to the t where |k·t + o| ≤ e (empty: *t0 > *t1). */
static inline void slab_clip(sccd_real k, sccd_real o, sccd_real e, sccd_real *t0, sccd_real *t1)
{
    if (k == 0.0) {
        if (fabs(o) > e)
            *t1 = -INFINITY;
        return;
    }
    sccd_real a = (-e - o) / k, b = (e - o) / k;
    *t0 = sccd_max(*t0, sccd_min(a, b));
    *t1 = sccd_min(*t1, sccd_max(a, b));
}

/* The span [*t0, *t1] of the t ≥ 0 where t·d lies in the box grown by g
 * (empty: *t0 > *t1). */
static inline void ray_span(const local_box *b, sccd_v2 d, sccd_real g, sccd_real *t0, sccd_real *t1)
{
    *t0 = 0.0;
    *t1 = INFINITY;
    slab_clip(sccd_v2_dot(d, b->u), b->o.x, b->e.x + g, t0, t1);
    slab_clip(sccd_v2_dot(d, b->w), b->o.y, b->e.y + g, t0, t1);
}

/* Adds bits (the pieces of W that a ray bounds) to *low when the span
 * [t0, t1] of the ray holds a t within hi, to *high when one beyond lo. */
static inline void span_bits(sccd_real t0, sccd_real t1, sccd_real lo, sccd_real hi, unsigned bits, unsigned *low,
                             unsigned *high)
{
    if (t0 <= t1) {
        *low |= t0 <= hi ? bits : 0u;
        *high |= t1 >= lo ? bits : 0u;
    }
}

/* The convex pieces of W that hold q, as bits: up to π/2 W itself (both
 * bits), else the lower half [−θ, 0] (bit 0) and the upper [0, θ] (bit 1). */
static inline unsigned pieces_of(const prepared *p, sccd_v2 q)
{
    unsigned sides = p->edge.c >= 0.0 ? 3u : (unsigned)(q.y <= 0.0) | (unsigned)(q.y >= 0.0) << 1;
    return in_half_angle(q.x, fabs(q.y), p->edge.c, p->edge.s) ? sides : 0u;
}

/* convex_meets for the box (world coordinates; its frame found again, which
 * costs less than box_meets passing it), by its own coordinates instead of
 * clipped polygons. Within tol of S, it comes within tol of a radial edge,
 * or it meets a convex piece K of W within [lo, hi] = [r − tol, R + tol]
 * of the pivot. The first: the edge meets the box grown by tol along its axes,
 * which holds every point within tol of the box and none beyond √2·tol
 * (as convex_meets). The second: over B ∩ K (convex) the distance to the
 * pivot takes every value between its least, at B's point nearest the pivot
 * when that is in K, else on a ray bounding K, and its largest, at a
 * corner in K or on such a ray; so B ∩ K meets the ring when one of those
 * least points lies within hi and one of those largest beyond lo. The
 * rays' spans there are of the box grown by tol/4: a point within rounding
 * of a ray, the apex too, may fall on either side of it, and the span then
 * holds it (the box met up to 1.36·tol away). */
SCCD_NOINLINE static bool rect_meets(const prepared *p, const sccd_box2 *world, sccd_real tol)
{
    local_box b = box_in_frame(p, world);
    sccd_real c = p->edge.c, sn = p->edge.s, lo = p->s.r - tol, hi = p->s.R + tol, lo0 = sccd_max(lo, 0.0);
    sccd_real nx = sccd_clamp(b.o.x, -b.e.x, b.e.x), ny = sccd_clamp(b.o.y, -b.e.y, b.e.y);
    sccd_v2 du = sccd_v2_scale(b.u, b.h.x), dw = sccd_v2_scale(b.w, b.h.y);
    sccd_v2 v[4] = {sccd_v2_sub(sccd_v2_sub(b.c, du), dw), sccd_v2_sub(sccd_v2_add(b.c, du), dw),
                    sccd_v2_add(sccd_v2_add(b.c, du), dw), sccd_v2_add(sccd_v2_sub(b.c, du), dw)};
    sccd_v2 nearest = sccd_v2_mad(b.c, 1.0 / b.u2, sccd_v2_add(sccd_v2_scale(b.u, nx), sccd_v2_scale(b.w, ny)));
    /* The pieces with a least point within hi (the nearest point is:
     * box_meets rejects the rest), with a largest beyond lo. */
    unsigned low = pieces_of(p, nearest), high = 0u;
    for (int i = 0; i < 4; ++i)
        high |= sccd_v2_len2(v[i]) >= lo0 * lo0 ? pieces_of(p, v[i]) : 0u;
    if (low & high)
        return true;
    /* The rays: the edges (up to π/2 both bound W, else each its half;
     * off the box grown by tol, off the one grown by tol/4 too), then,
     * above π/2, the +x axis between the halves. */
    sccd_real t0, t1;
    for (sccd_real side = -1.0; side <= 1.0; side += 2.0) {
        sccd_v2 d = {c, side * sn};
        ray_span(&b, d, tol, &t0, &t1);
        if (t0 > t1)
            continue;
        if (t0 <= p->s.R && t1 >= p->s.r)
            return true;
        ray_span(&b, d, 0.25 * tol, &t0, &t1);
        span_bits(t0, t1, lo, hi, c >= 0.0 ? 3u : side < 0.0 ? 1u : 2u, &low, &high);
    }
    if (c < 0.0) {
        ray_span(&b, (sccd_v2){1.0, 0.0}, 0.25 * tol, &t0, &t1);
        span_bits(t0, t1, lo, hi, 3u, &low, &high);
    }
    return (low & high) != 0u;
}

/* box_meets past its discs, the box's centre found again in the canonical
 * frame (c, axes u, w = perp(u)). Exact early-outs, the most telling
 * first: its nearest point to the pivot beyond R, its farthest inside r;
 * the point of S nearest c in it (before the next, which decides a
 * quarter as often); all of it beyond W (its supports). Then rect_meets.
 * Out of line, reached by a tail call with the box where the caller got
 * it: the discs decide most calls, and this part's values, held across
 * them, made box_meets keep a stack frame and spill on every call. */
SCCD_NOINLINE static bool box_past_discs(const prepared *p, sccd_box2 b)
{
    const sccd_sector2 *s = &p->s;
    sccd_v2 c = to_local(s, b.c), h = b.h;
    sccd_real d2 = sccd_v2_len2(c);
    sccd_v2 ax = {b.q.c, b.q.s}, u = {sccd_v2_dot(s->a, ax), sccd_v2_cross(s->a, ax)}, w = sccd_v2_perp(u);
    /* The pivot in the box's frame: its nearest and farthest box points.
     * |u| = |q| is 1 only within 5e-7: along u and w the box spans
     * ±h·|u|² and the pivot's coordinates are |u| times its distances, so
     * the squares are |u|² times the distances'. */
    sccd_real u2 = sccd_v2_len2(u), ex = h.x * u2, ey = h.y * u2;
    sccd_real ox = -sccd_v2_dot(c, u), oy = -sccd_v2_dot(c, w);
    sccd_real nx = ox - sccd_clamp(ox, -ex, ex), ny = oy - sccd_clamp(oy, -ey, ey);
    sccd_real fx = fabs(ox) + ex, fy = fabs(oy) + ey, far2 = (fx * fx + fy * fy) / u2;
    sccd_real tol = SCCD_EPS * sccd_max(s->R, sqrt(far2)), lo = s->r - tol, hi = s->R + tol;
    if (nx * nx + ny * ny > hi * hi * u2 || (lo > 0.0 && far2 < lo * lo))
        return false;
    /* The point of S nearest the centre in the box (by its coordinates
     * along u and w, as the pivot's) hits. */
    sccd_v2 near = local_nearest(p, c, sqrt(d2)), off = sccd_v2_sub(near, c);
    if (fabs(sccd_v2_dot(off, u)) <= ex && fabs(sccd_v2_dot(off, w)) <= ey)
        return true;
    sccd_v2 lower, upper;
    edge_normals(p, &lower, &upper);
    if (misses_wedge(p, sccd_v2_dot(lower, c) + box_support(lower, u, w, h),
                     sccd_v2_dot(upper, c) + box_support(upper, u, w, h),
                     c.x + box_support((sccd_v2){1.0, 0.0}, u, w, h), tol))
        return false;
    return rect_meets(p, &b, tol);
}

/* The box's first exact early-outs: the disc of radius |h| about its
 * centre c (which holds it) missing S, the one of radius min(h) (which it
 * holds) meeting S (both as box_outer_radius and box_inner_radius widen
 * them for a rotation unit within 1e-6), each with its own scene's
 * tolerance; then box_past_discs. One squared distance for both (by the
 * root of |c|², as local_disc_meets) and one branch: where the discs
 * agree (the inner one met, so the outer one too, its reach being the
 * larger: a hit; neither: a miss) that is the answer, else further. A NaN
 * distance meets neither: false, as before. By squares, each disc its own
 * annulus test (disc_decides), with the part past the discs inline, the
 * prepared test took 227 instructions a call; split, 223; by the root,
 * 187, and less time (the root on the way to the branch costs less than
 * the second annulus test and the picks). */
static bool box_meets(const prepared *p, sccd_box2 b)
{
    sccd_v2 c = to_local(&p->s, b.c), h = b.h;
    sccd_real d2 = local_dist2(p, c, sccd_v2_len(c));
    sccd_real in = disc_reach(&p->s, box_inner_radius(sccd_min(h.x, h.y)));
    sccd_real out = disc_reach(&p->s, box_outer_radius(sccd_v2_len(h)));
    bool hit = d2 <= in * in;
    if ((d2 <= out * out) == hit)
        return hit;
    return box_past_discs(p, b);
}

/* A box's check and range, bitwise (one branch, where valid_box2 takes one
 * a check): its centre finite (x − x is 0, else NaN, added to the
 * rotation's comparison, which a NaN fails: 4 instructions fewer than a
 * test of its own), its rotation unit within 1e-6 (which a NaN or
 * infinite part fails: no finiteness test of its own), its half sizes
 * from +0 to SCCD_RANGE_MAX by their bits (in_range: −0 not, which
 * valid_box2 passes and box_meets_scaled then takes, with the same
 * answer). In range, it is valid. */
static inline bool box_in_range(sccd_box2 b)
{
    sccd_real zero = (b.c.x - b.c.x) + (b.c.y - b.c.y);
    return (fabs(b.q.c * b.q.c + b.q.s * b.q.s - 1.0) + zero < 1e-6) & in_range(b.h.x) & in_range(b.h.y);
}

/* box_meets for a box beyond the range (valid), the scene scaled. Out of
 * line: rare. */
SCCD_NOINLINE static bool box_meets_scaled(const prepared *p, sccd_box2 b)
{
    sccd_real f = scene_factor(p, sccd_max(sccd_mag2(b.c), sccd_mag2(b.h)));
    prepared q = scaled_sector(p, f);
    return box_meets(&q, (sccd_box2){sccd_v2_scale(b.c, f), b.q, sccd_v2_scale(b.h, f)});
}

bool sccd_sector2_prepared_vs_box(const sccd_sector2_prepared *p, sccd_box2 b)
{
    if (!p || !box_in_range(b)) {
        if (!p || !valid_box2(b)) {
            SCCD_ASSERT(p != NULL && valid_box2(b));
            return false;
        }
        return p->ready && box_meets_scaled(p, b);
    }
    return p->fast ? box_meets(p, b) : p->ready && box_meets_scaled(p, b);
}

/* capsule_meets past its middle discs, the capsule's core found again in
 * the canonical frame (from a to b). Exact early-outs, the
 * most telling first: an end disc meeting S; its nearest point to the
 * pivot beyond R + rounding, both ends inside r − rounding, all of it
 * beyond W (its supports). Then the segment. Out of line, reached by a
 * tail call with the capsule where the caller got it: the middle discs
 * decide most calls (84 % of the speed bench's), and this part's values,
 * held across them, made capsule_meets keep a stack frame and spill on
 * every call (with the ends passed on in registers, not found again, the
 * prepared test took as many instructions a call). */
SCCD_NOINLINE static bool capsule_past_middle(const prepared *p, sccd_capsule2 c)
{
    const sccd_sector2 *s = &p->s;
    sccd_v2 a = to_local(s, c.a), b = to_local(s, c.b), e = sccd_v2_sub(b, a), m = sccd_v2_lerp(a, b, 0.5);
    sccd_real da = sccd_v2_len(a), db = sccd_v2_len(b), l2 = sccd_v2_len2(e);
    if (local_disc_meets(p, a, da, c.r) || local_disc_meets(p, b, db, c.r))
        return true;
    sccd_real tol = SCCD_EPS * sccd_max(sccd_max(s->R, c.r), sccd_max(da, db));
    sccd_real reach = c.r + tol, lo = s->r - reach, hi = s->R + reach;
    sccd_real t = l2 > 0.0 ? sccd_clamp(-sccd_v2_dot(a, e) / l2, 0.0, 1.0) : 0.0;
    if (sccd_v2_len2(sccd_v2_mad(a, t, e)) > hi * hi || (lo > 0.0 && sccd_max(da, db) < lo))
        return false;
    sccd_v2 lower, upper;
    edge_normals(p, &lower, &upper);
    if (misses_wedge(p, sccd_max(sccd_v2_dot(lower, a), sccd_v2_dot(lower, b)),
                     sccd_max(sccd_v2_dot(upper, a), sccd_v2_dot(upper, b)), sccd_max(a.x, b.x), reach))
        return false;
    /* The point of S nearest the middle within the capsule hits; a line ⟂
     * their offset may separate them. Then the segment. */
    sccd_v2 v[2] = {a, b}, near = local_nearest(p, m, sccd_v2_len(m));
    if (sccd_point_segment2_dist2_unchecked(near, a, b) <= c.r * c.r)
        return true;
    if (separated_along(p, v, 2, c.r, tol, m, near))
        return false;
    return segment_meets(p, a, b, c.r, tol);
}

/* Half a capsule's world length, grown for the frame: to_local scales by
 * |a|, which a valid sector has within 5e-7 of 1 (|a|² within 1e-6). */
#define CAPSULE_HALF_SLACK (0.5 * (1.0 + 2e-6))

/* The capsule's first exact early-outs, about its core's middle m: the
 * disc reaching its end discs (which holds it) missing S, the disc of its
 * radius (which it holds) meeting S, each with its own scene's tolerance;
 * then capsule_past_middle. One squared distance for both and one branch,
 * as box_meets. The middle is taken to the canonical frame alone, from
 * world coordinates, and the disc's radius from the world length (grown
 * by CAPSULE_HALF_SLACK): the ends' transforms wait for the 16 % of calls
 * that go further. The middle's own disc hits in 21 % of the speed
 * bench's calls, which took the end discs (and their roots) before. */
static bool capsule_meets(const prepared *p, sccd_capsule2 c)
{
    sccd_v2 e = sccd_v2_sub(c.b, c.a), m = to_local(&p->s, sccd_v2_mad(c.a, 0.5, e));
    sccd_real d2 = local_dist2(p, m, sccd_v2_len(m));
    sccd_real out = disc_reach(&p->s, CAPSULE_HALF_SLACK * sccd_v2_len(e) + c.r), in = disc_reach(&p->s, c.r);
    bool hit = d2 <= in * in;
    if ((d2 <= out * out) == hit)
        return hit;
    return capsule_past_middle(p, c);
}

/* A capsule's check and range: its span |b − a|₁ and radius from +0 to
 * SCCD_RANGE_MAX (the radius by its bits, in_range: −0 not, which
 * valid_capsule2 passes and capsule_meets_scaled then takes, with the same
 * answer). A finite span needs finite ends (a NaN or infinite coordinate
 * makes it NaN or infinite): no check of its own. By the sum, not
 * |b − a|∞ (sccd_mag2, whose sccd_max drops a NaN first argument: a
 * capsule with a NaN x passed unchecked, test_bad_input). */
static inline bool capsule_in_range(sccd_capsule2 c)
{
    sccd_v2 d = sccd_v2_sub(c.b, c.a);
    return (fabs(d.x) + fabs(d.y) <= SCCD_RANGE_MAX) & in_range(c.r);
}

/* capsule_meets for a capsule beyond the range (valid), the scene scaled.
 * Out of line: rare. */
SCCD_NOINLINE static bool capsule_meets_scaled(const prepared *p, sccd_capsule2 c)
{
    sccd_real f = scene_factor(p, sccd_max(sccd_max(sccd_mag2(c.a), sccd_mag2(c.b)), c.r));
    prepared q = scaled_sector(p, f);
    return capsule_meets(&q, (sccd_capsule2){sccd_v2_scale(c.a, f), sccd_v2_scale(c.b, f), c.r * f});
}

bool sccd_sector2_prepared_vs_capsule(const sccd_sector2_prepared *p, sccd_capsule2 c)
{
    if (!p || !capsule_in_range(c)) {
        if (!p || !valid_capsule2(c)) {
            SCCD_ASSERT(p != NULL && valid_capsule2(c));
            return false;
        }
        return p->ready && capsule_meets_scaled(p, c);
    }
    return p->fast ? capsule_meets(p, c) : p->ready && capsule_meets_scaled(p, c);
}

/* The radius of a disc about m (world coordinates, within rad of every
 * vertex) that the polygon holds, 0 if m is not inside it. The distance
 * from m to the line of the edge from a to b is cross(a − m, b − m)/|b − a|
 * (twice the area of the triangle m, a, b over its base); the least of the
 * crosses over the longest edge is at most the least distance. Positive
 * crosses put m left of every edge, so the polygon winds around m, and the
 * disc, which meets no edge, lies where it winds: in its vertices' hull.
 * The crosses' rounding, some 1e-15·rad² (the offsets are within rad),
 * over the longest edge (at least rad/4: the boundary goes around m
 * through a vertex rad away, at least 2·rad long, in at most 8 edges)
 * stays under the 1e-12·rad taken off. Like the other discs, it meets S
 * within the tolerance of its own scene (R, its radius, |m|∞), no larger
 * than the rounded polygon's. */
static sccd_real poly_inner_radius(const sccd_poly2 *poly, sccd_v2 m, sccd_real rad)
{
    int n = poly->n;
    sccd_real least = INFINITY, longest2 = 0.0;
    sccd_v2 prev = sccd_v2_sub(poly->v[n - 1], m);
    for (int i = 0; i < n; ++i) {
        sccd_v2 d = sccd_v2_sub(poly->v[i], m);
        least = sccd_min(least, sccd_v2_cross(prev, d));
        longest2 = sccd_max(longest2, sccd_v2_len2(sccd_v2_sub(d, prev)));
        prev = d;
    }
    return least > 0.0 ? sccd_max(0.0, least / sqrt(longest2) - 1e-12 * rad) : 0.0;
}

/* The exact path of the polygon tests, where their discs did not decide:
 * the polygon in the canonical frame (local_vs_convex). Inline in the raw
 * polygon test: out of line there it took 8 instructions a call fewer but
 * 4 % more time in the speed bench (both raw rows). */
static SCCD_ALWAYS_INLINE bool poly_exact(const prepared *p, const sccd_poly2 *poly)
{
    int n = poly->n;
    sccd_v2 v[SCCD_POLY_MAX];
    for (int i = 0; i < n; ++i)
        v[i] = to_local(&p->s, poly->v[i]);
    return local_vs_convex(p, v, n, poly->r, scene_tol(p, v, n, poly->r));
}

/* poly_exact out of line, for the prepared polygon test, whose discs
 * decide 96 % of the speed bench's polygons: inline its test took 166
 * instructions a call and 2.1 to 2.2 times the AABB test, so 159 and 2.0. */
SCCD_NOINLINE static bool poly_exact_far(const prepared *p, const sccd_poly2 *poly)
{
    return poly_exact(p, poly);
}

/* The prepared form of poly, known valid, whose vertices' mean is m and
 * farthest vertex rad from it (valid_poly2_disc's). */
static void poly_prepare_unchecked(sccd_poly2_prepared *out, const sccd_poly2 *poly, sccd_v2 m, sccd_real rad)
{
    *out = (sccd_poly2_prepared){m, poly_inner_radius(poly, m, rad) + poly->r, rad + poly->r, true, *poly};
}

/* Leaves out (if any) meeting nothing; false. */
static bool poly_unprepared(sccd_poly2_prepared *out)
{
    if (out)
        *out = (sccd_poly2_prepared){.ready = false};
    return false;
}

bool sccd_poly2_prepare(sccd_poly2_prepared *out, const sccd_poly2 *poly)
{
    sccd_v2 m;
    sccd_real rad;
    if (!out || !valid_poly2_disc(poly, &m, &rad)) {
        SCCD_ASSERT(out != NULL && valid_poly2(poly));
        return poly_unprepared(out);
    }
    poly_prepare_unchecked(out, poly, m, rad);
    return true;
}

/* Placing needs no check. A valid q (c² + s² = 1 + δ, |δ| < 1e-6) maps v
 * to √(1 + δ) times a rotation of v, a similarity: every cross product of
 * two edges scales by 1 + δ > 0, so the placed polygon is convex and
 * counter-clockwise exactly where the body's was, and only rounding moves
 * a vertex off that image: some 2e-16·(|q·v| + |p|) a coordinate, as the
 * caller's own placing of a raw polygon would, and as the test's own move
 * of every vertex to the sector's frame (to_local) does. It bends a nearly
 * straight corner inward by as much. The test sees the vertices' hull
 * exactly through its discs (found again below from the placed vertices),
 * supports and vertex distances; where it relies on convexity (whether a
 * point is left of every edge, the clipped pieces' distance to the pivot,
 * the inner disc's crosses, all positive about an inner point) such a bend
 * moves an answer's distance by as much, some 1e-16 of the coordinates,
 * seven orders below the tolerance (1e-9 of the scene). The discs by the
 * check's sums: the answers equal the raw test's on the placed polygon
 * wherever the check accepts it. A mean beyond the doubles (the sum of a
 * vertex that overflowed, or sums near DBL_MAX) is refused. */
bool sccd_poly2_prepared_transform(sccd_poly2_prepared *out, const sccd_poly2_prepared *body, sccd_xf2 xf)
{
    if (!out || !body || !sccd_is_valid_xf2(xf)) {
        SCCD_ASSERT(out != NULL && body != NULL && sccd_is_valid_xf2(xf));
        return poly_unprepared(out);
    }
    if (!body->ready)
        return poly_unprepared(out);
    sccd_poly2 placed = body->poly;
    for (int i = 0; i < placed.n; ++i)
        placed.v[i] = sccd_xf2_apply(xf, placed.v[i]);
    sccd_v2 m = poly2_mean(&placed);
    if (!sccd_is_valid_v2(m)) {
        SCCD_ASSERT(sccd_is_valid_v2(m));
        return poly_unprepared(out);
    }
    sccd_real far2 = 0.0;
    for (int i = 0; i < placed.n; ++i)
        far2 = sccd_max(far2, sccd_v2_len2(sccd_v2_sub(placed.v[i], m)));
    poly_prepare_unchecked(out, &placed, m, sqrt(far2));
    return true;
}

/* The polygon tests for a polygon beyond the range (valid: its extent
 * about its mean or its rounding beyond SCCD_RANGE_MAX, or its mean beyond
 * the doubles), the scene scaled. Out of line: rare. */
SCCD_NOINLINE static bool poly_scaled(const prepared *p, const sccd_poly2 *poly)
{
    sccd_real m = poly->r;
    for (int i = 0; i < poly->n; ++i)
        m = sccd_max(m, sccd_mag2(poly->v[i]));
    sccd_real f = scene_factor(p, m);
    prepared q = scaled_sector(p, f);
    sccd_poly2 scaled = *poly;
    for (int i = 0; i < poly->n; ++i)
        scaled.v[i] = sccd_v2_scale(poly->v[i], f);
    scaled.r *= f;
    return sccd_sector2_prepared_vs_poly(&q, &scaled);
}

bool sccd_sector2_prepared_vs_poly(const sccd_sector2_prepared *p, const sccd_poly2 *poly)
{
    sccd_v2 mw;
    sccd_real rad;
    if (!p || !valid_poly2_disc(poly, &mw, &rad)) {
        SCCD_ASSERT(p != NULL && valid_poly2(poly));
        return false;
    }
    if (!p->fast)
        return p->ready && poly_scaled(p, poly);
    if (!(sccd_max(rad, poly->r) <= SCCD_RANGE_MAX))
        return poly_scaled(p, poly);
    /* Exact early-outs: the polygon lies in the disc about its vertices'
     * mean reaching the farthest one (rad, from the check), grown by its
     * rounding, and holds the disc of its rounding about that mean (a
     * point of the convex polygon). Both in world coordinates, the mean
     * then taken to the canonical frame alone: the frame's rounding moves
     * distances by 1e-15 of the scene, far inside the tolerance. */
    sccd_v2 m = to_local(&p->s, mw);
    bool hit;
    if (disc_decides(p, m, poly->r, rad + poly->r, &hit))
        return hit;
    /* Most polygons left straddle S's boundary: the disc they hold about
     * m meets S (poly_inner_radius; a prepared polygon has it in its inner
     * disc). Then the exact path. */
    if (local_disc_meets(p, m, sccd_v2_len(m), poly_inner_radius(poly, mw, rad) + poly->r))
        return true;
    return poly_exact(p, poly);
}

/* A prepared polygon: both its discs at once (disc_decides; the inner
 * one's radius, from poly_inner_radius, is below rad, so they exclude each
 * other). The answers are sccd_sector2_prepared_vs_poly's: its outer disc
 * missing S is that test's miss; its inner disc meeting S is that test's
 * hit, in its first step (where the smaller disc of the rounding alone
 * meets S, the inner one does: the reach grows with the radius) or in its
 * second; the rest takes the same exact path. */
bool sccd_sector2_prepared_vs_prepared_poly(const sccd_sector2_prepared *p, const sccd_poly2_prepared *q)
{
    if (!p || !q) {
        SCCD_ASSERT(p != NULL && q != NULL);
        return false;
    }
    if (!(p->fast & q->ready))
        return p->ready && q->ready && poly_scaled(p, &q->poly);
    if (!(q->outer <= SCCD_RANGE_MAX))
        return poly_scaled(p, &q->poly);
    sccd_v2 m = to_local(&p->s, q->mean);
    bool hit;
    if (disc_decides(p, m, q->inner, q->outer, &hit))
        return hit;
    return poly_exact_far(p, &q->poly);
}

bool sccd_sector2_prepared_vs_convex(const sccd_sector2_prepared *p, const sccd_v2 *v, int n, sccd_real radius)
{
    if (!p || !valid_points(v, n) || !sccd_is_valid_real(radius) || radius < 0.0) {
        SCCD_ASSERT(p != NULL && valid_points(v, n) && sccd_is_valid_real(radius) && radius >= 0.0);
        return false;
    }
    return sccd_sector2_meets_points(p, v, n, radius, false);
}

/* The one-shot tests: checked once (one_shot_valid), then prepared; points,
 * circles, boxes and capsules decided first without the exact
 * trigonometry (the same answers), else by their exact paths, out of line.
 * Points and circles straight on to the coarse side, which decides those
 * beyond the annulus too: no branch on the data but the one on whether it
 * decides, nearly always taken. A branch first on a point beyond the
 * annulus (by its world offset; 70 % of the speed bench's points)
 * mispredicted on a third of the calls (callgrind's branch simulation:
 * 0.33 a call, the prepared test's none) for a few instructions spared:
 * the one-shot point test took 1.6 times the prepared one's time with it,
 * 1.2 so; for the circles (48 % beyond) it was a coin toss. Boxes and
 * capsules by the discs their prepared tests take first (coarse_discs_
 * decide): with that world-offset early-out for boxes off the annulus and
 * the exact path inline, the one-shot box and capsule tests took 1.63 and
 * 1.53 times their prepared tests' time, 1.39 and 1.37 so. */
bool sccd_sector2_vs_point(const sccd_sector2 *s, sccd_v2 p)
{
    bool hit = false;
    if (s) {
        sccd_v2 q = to_local(s, p);
        if (one_shot_checked(s, sccd_v2_len2(q)) & coarse_point_decides(s, q, &hit))
            return hit;
    }
    return one_shot_exact(s, p, 0.0, sccd_is_valid_v2(p));
}

bool sccd_sector2_vs_circle(const sccd_sector2 *s, sccd_circle c)
{
    bool hit;
    if (s) {
        sccd_v2 q = to_local(s, c.c);
        if (one_shot_checked(s, sccd_v2_len2(q)) & in_range(c.r) & coarse_discs_decide(s, q, c.r, c.r, &hit))
            return hit;
    }
    return one_shot_exact(s, c.c, c.r, valid_circle(c));
}

/* The one-shot box test where its discs did not decide, or could not
 * (flawed input): checked (one_shot_valid, its checks firing), prepared,
 * then the prepared test's path. Out of line: rare, and inline its frame
 * and trigonometry crowded the common path. */
SCCD_NOINLINE static bool one_shot_box_exact(const sccd_sector2 *s, const sccd_box2 *b, bool in_range)
{
    if (!one_shot_valid(s, in_range || valid_box2(*b)))
        return false;
    prepared pr;
    sccd_sector2_prepare_unchecked(&pr, s);
    return in_range & pr.fast ? box_meets(&pr, *b) : box_meets_scaled(&pr, *b);
}

bool sccd_sector2_vs_box(const sccd_sector2 *s, sccd_box2 b)
{
    bool in_range = box_in_range(b), hit; /* which only a valid box is */
    if (s) { /* most boxes decided by their discs without the exact trigonometry */
        sccd_v2 q = to_local(s, b.c);
        sccd_real inner = box_inner_radius(sccd_min(b.h.x, b.h.y)), outer = box_outer_radius(sccd_v2_len(b.h));
        if (one_shot_checked(s, sccd_v2_len2(q)) & in_range & coarse_discs_decide(s, q, inner, outer, &hit))
            return hit;
    }
    return one_shot_box_exact(s, &b, in_range);
}

/* The one-shot capsule test past its discs, as one_shot_box_exact. */
SCCD_NOINLINE static bool one_shot_capsule_exact(const sccd_sector2 *s, const sccd_capsule2 *c, bool in_range)
{
    if (!one_shot_valid(s, in_range || valid_capsule2(*c)))
        return false;
    prepared pr;
    sccd_sector2_prepare_unchecked(&pr, s);
    return in_range & pr.fast ? capsule_meets(&pr, *c) : capsule_meets_scaled(&pr, *c);
}

/* The one-shot capsule test: its discs about its middle (capsule_meets')
 * by the coarse side, else the exact path. */
bool sccd_sector2_vs_capsule(const sccd_sector2 *s, sccd_capsule2 c)
{
    bool in_range = capsule_in_range(c), hit; /* which only a valid capsule is */
    if (s) {
        sccd_v2 e = sccd_v2_sub(c.b, c.a), q = to_local(s, sccd_v2_mad(c.a, 0.5, e));
        if (one_shot_checked(s, sccd_v2_len2(q)) & in_range &
            coarse_discs_decide(s, q, c.r, CAPSULE_HALF_SLACK * sccd_v2_len(e) + c.r, &hit))
            return hit;
    }
    return one_shot_capsule_exact(s, &c, in_range);
}

bool sccd_sector2_vs_poly(const sccd_sector2 *s, const sccd_poly2 *p)
{
    prepared pr;
    sccd_sector2_prepare(&pr, s);
    return sccd_sector2_prepared_vs_poly(&pr, p);
}

bool sccd_sector2_vs_convex(const sccd_sector2 *s, const sccd_v2 *v, int n, sccd_real radius)
{
    prepared pr;
    sccd_sector2_prepare(&pr, s);
    return sccd_sector2_prepared_vs_convex(&pr, v, n, radius);
}

/* ---- sector–sector ---- */

/* Does an edge of t meet s? */
static bool edges_meet(const prepared *s, const prepared *t, sccd_real tol)
{
    for (sccd_real side = -1.0; side <= 1.0; side += 2.0) {
        sccd_v2 u = sccd_rot2_apply((sccd_rot2){t->edge.c, side * t->edge.s}, t->s.a);
        sccd_v2 seg[2] = {to_local(&s->s, sccd_v2_mad(t->s.o, t->s.r, u)),
                          to_local(&s->s, sccd_v2_mad(t->s.o, t->s.R, u))};
        if (local_vs_convex(s, seg, 2, 0.0, tol))
            return true;
    }
    return false;
}

/* Is a point of t (the inner point on its centre line) in s? */
static bool point_of_inside(const prepared *s, const prepared *t, sccd_real tol)
{
    return local_distance(s, to_local(&s->s, sccd_v2_mad(t->s.o, t->s.r, t->s.a))) <= tol;
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
    prepared ps, pt;
    bool ok_s = sccd_sector2_prepare(&ps, s), ok_t = sccd_sector2_prepare(&pt, t);
    if (!ok_s || !ok_t)
        return false;
    sccd_real largest = sccd_max(sccd_max(s->R, t->R), sccd_max(sccd_mag2(s->o), sccd_mag2(t->o)));
    if (sccd_scene_tiny(largest)) { /* its squares underflow: scaled up (SCCD_RANGE_MIN) */
        sccd_real f = sccd_range_factor(largest);
        ps = scaled_sector(&ps, f);
        pt = scaled_sector(&pt, f);
        s = &ps.s;
        t = &pt.s;
    }
    /* If the sets meet, then one holds the other, or t's boundary meets s:
     * an edge of t meets s, or an arc of t does without lying inside s (its
     * ends are edge ends), so it crosses s's boundary: an edge of s (which
     * then meets t) or an arc of s. Both orders, so the answer is symmetric. */
    sccd_real d = sccd_v2_dist(s->o, t->o), tol = SCCD_EPS * (d + sccd_max(s->R, t->R)); /* symmetric in s, t */
    /* Each lies within its R of its pivot, so they meet only with
     * d ≤ Rs + Rt + tol, which (tol ≤ EPS·(d + Rs + Rt)) needs d below
     * twice Rs + Rt: pivots farther apart do not meet (nor do pivots 1e155
     * apart, whose squares overflowed in the tests below and met). */
    if (!(d <= 2.0 * (s->R + t->R)))
        return false;
    return edges_meet(&ps, &pt, tol) || edges_meet(&pt, &ps, tol) || point_of_inside(&ps, &pt, tol) ||
           point_of_inside(&pt, &ps, tol) || arcs_meet(s, t, tol);
}

/* ---- the thesis' own tests, kept to compare against ---- */

/* Thesis §2.2, eqs 2.5–2.7 (eq 2.6 multiplied out so |P| = 0 divides by
 * nothing), with the library's 1e-9 tolerance: §2.3 feeds it crossing points
 * that lie on the sector's boundary, where the exact test is a coin toss. */
static bool thesis_point_inside(const prepared *p, sccd_v2 q)
{
    sccd_real d = sccd_v2_len(q), tol = SCCD_EPS * sccd_max(p->s.R, d);
    return p->s.r - tol <= d && d <= p->s.R + tol && q.x >= p->edge.c * d - tol;
}

bool sccd_sector2_vs_circle_thesis(const sccd_sector2 *s, sccd_circle c)
{
    prepared ls;
    if (!sccd_sector2_prepare(&ls, s) || !sccd_is_valid_circle(c)) {
        SCCD_ASSERT(sccd_is_valid_circle(c));
        return false;
    }
    sccd_v2 p = to_local(s, c.c);
    sccd_real d2 = sccd_v2_len2(p);
    if (p.x >= ls.edge.c * sqrt(d2)) /* eq 2.7 */
        return (s->r - c.r) * (s->r - c.r) <= d2 && d2 <= (s->R + c.r) * (s->R + c.r); /* eq 2.8 as written */
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
    prepared ls;
    if (!sccd_sector2_prepare(&ls, s) || !sccd_is_valid_box2(b)) {
        SCCD_ASSERT(sccd_is_valid_box2(b));
        return false;
    }
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
            int n = thesis_circle_crossings(e, f, k ? s->R : s->r, x);
            for (int j = 0; j < n; ++j)
                if (thesis_point_inside(&ls, x[j]))
                    return true;
        }
    }
    /* No crossing: one holds the other (§2.3, last paragraph; §2.9.3 with
     * eq 2.40's cross products for the rectangle). */
    if (thesis_point_inside(&ls, v[0]))
        return true;
    sccd_v2 p = {0.5 * (s->r + s->R), 0.0};
    int pos = 0, neg = 0;
    for (int i = 0; i < 4; ++i) {
        sccd_real c = sccd_v2_cross(sccd_v2_sub(v[(i + 1) % 4], v[i]), sccd_v2_sub(p, v[i]));
        pos += c >= 0.0;
        neg += c <= 0.0;
    }
    return pos == 4 || neg == 4;
}
