/* Private to the core: small helpers on convex polygons given as n ≥ 1
 * counter-clockwise vertices (a point, a segment, or a polygon, possibly with
 * repeated or collinear vertices), shared by the sector and sweep files. */
#ifndef SCCD_CONVEX2_H
#define SCCD_CONVEX2_H

#include "sectorccd/geometry.h"
#include "sectorccd/shapes.h"
#include "unchecked.h"

/* True when v (n ≥ 3) encloses area: twice its area exceeds 1e-12 of its
 * squared extent. Thinner sets are treated as segments: rounding could
 * otherwise make a point on a segment's line (but off the segment) look
 * inside the back-and-forth polygon. In the same pass, *left: p is on or
 * left of every edge (the edge into vertex i runs from the one before it,
 * without a wrapped index: no division, one loop exit). */
static inline bool convex_area_and_side(const sccd_v2 *v, int n, sccd_v2 p, bool *left)
{
    sccd_real area2 = 0.0, ext2 = 0.0;
    sccd_v2 prev = v[n - 1];
    bool all_left = true;
    for (int i = 0; i < n; ++i) {
        sccd_v2 a = v[i];
        area2 += sccd_v2_cross(sccd_v2_sub(prev, v[0]), sccd_v2_sub(a, v[0]));
        ext2 = sccd_max(ext2, sccd_v2_len2(sccd_v2_sub(a, v[0])));
        all_left &= !(sccd_v2_cross(sccd_v2_sub(a, prev), sccd_v2_sub(p, prev)) < 0.0);
        prev = a;
    }
    *left = all_left;
    return n >= 3 && area2 > 1e-12 * ext2;
}

static inline bool convex_has_area(const sccd_v2 *v, int n)
{
    bool left;
    return convex_area_and_side(v, n, v[0], &left);
}

/* p in the closed counter-clockwise convex polygon v. A set without area (a
 * point, a segment, a sliver) contains nothing here: callers fall back to
 * edge distances, which are exact for such sets. */
static inline bool convex_contains(const sccd_v2 *v, int n, sccd_v2 p)
{
    bool left;
    return convex_area_and_side(v, n, p, &left) & left;
}

/* 2D convex hull of n ≥ 1 points (counter-clockwise, collinear points
 * dropped, at least one point kept); pts is sorted in place; out must hold
 * 2n points (the chains' working space); returns the count (≤ n). Defined
 * in sector2.c. */
int sccd_hull2(sccd_v2 *pts, int n, sccd_v2 *out);

/* Is (x, y), y ≥ 0, within the half angle θ (cosine c, sine s) of +x? At
 * its angle φ in [0, π] that is sin(θ − φ) ≥ 0, x·s ≥ y·c, except for φ = π
 * at θ = 0 (where the sine vanishes too): x ≥ 0, which every point of a
 * wedge no wider than π/2 has, rules that out. A sector's tests fold a point
 * onto y ≥ 0 (the sector is symmetric about its centre line) and ask this
 * instead of comparing atan2 with θ. Bitwise, without a branch: over a
 * mix of points each comparison is a coin toss. */
static inline bool in_half_angle(sccd_real x, sccd_real y, sccd_real c, sccd_real s)
{
    return (x * s >= y * c) & ((c < 0.0) | (x >= 0.0));
}

/* in ? a : b for truth values, without a branch: the sectors' distance
 * tests compare both sides of the wedge and pick one (a select between
 * two distances compiles to a branch, a coin toss over mixed input). */
static inline bool pick(bool in, bool a, bool b) { return (in & a) | (!in & b); }

/* The least (*lo) and largest (*hi) values of (dx, dy)·p over the annular
 * sector of half angle θ (cosine c, sine s) about +x, radii r ≤ R: ±R·|d|
 * where ±d points into the wedge, else at an end of a radial edge (the
 * support of its convex hull, so of any θ). Both at once share the
 * products and the root (−d's values are d's negated, exactly). The
 * sectors' separating-plane early-outs. */
static inline void annular_sector_range(sccd_real c, sccd_real s, sccd_real r, sccd_real R, sccd_real dx, sccd_real dy,
                                        sccd_real *lo, sccd_real *hi)
{
    sccd_real e1 = dx * c + dy * s, e2 = dx * c - dy * s, arc = R * sqrt(dx * dx + dy * dy);
    sccd_real top = sccd_max(sccd_max(r * e1, R * e1), sccd_max(r * e2, R * e2));
    sccd_real bottom = sccd_min(sccd_min(r * e1, R * e1), sccd_min(r * e2, R * e2));
    *hi = in_half_angle(dx, fabs(dy), c, s) ? sccd_max(top, arc) : top;
    *lo = in_half_angle(-dx, fabs(dy), c, s) ? sccd_min(bottom, -arc) : bottom;
}

/* The largest value of (dx, dy)·p over that annular sector. */
static inline sccd_real annular_sector_support(sccd_real c, sccd_real s, sccd_real r, sccd_real R, sccd_real dx,
                                               sccd_real dy)
{
    sccd_real lo, hi;
    annular_sector_range(c, s, r, R, dx, dy, &lo, &hi);
    return hi;
}

/* Does a convex set miss the wedge of half angle θ (cosine c, sine s)
 * widened by reach, given its supports (largest n·p over the set) along the
 * unit normals of the lower and upper edges' lines pointing into the wedge,
 * (s, c) and (s, −c), hl and hu, and along +x, hx? A convex wedge (θ ≤ π/2)
 * is the intersection of those three half-planes, so the set misses it when
 * it lies more than reach beyond one of them; a wider wedge (θ < π) is the
 * union of the two edges' half-planes, so the set misses it when it lies
 * beyond both. The sectors' exact early-outs. */
static inline bool wedge_missed(sccd_real c, sccd_real s, sccd_real hl, sccd_real hu, sccd_real hx, sccd_real reach)
{
    if (c >= 0.0)
        return hl < -reach || hu < -reach || hx < -reach;
    return s > 0.0 && hl < -reach && hu < -reach;
}

/* Is vertex i of the convex polygon v (n ≥ 3) on its silhouette seen from
 * the origin, up to rounding? False only where its two neighbours lie
 * strictly on either side of the line through the origin and it (by a
 * relative 1e-9): rays from the origin on both sides of its direction meet
 * the polygon there (so none is on it when the origin is inside). The
 * sweeps' angle sets change only at silhouette directions and where the
 * polygon's boundary crosses a band's circle. */
static inline bool convex_silhouette_vertex(const sccd_v2 *v, int n, int i)
{
    sccd_v2 p = v[i], a = v[(i + n - 1) % n], b = v[(i + 1) % n];
    sccd_real ca = sccd_v2_cross(p, a), cb = sccd_v2_cross(p, b);
    sccd_real ea = 1e-9 * (sccd_v2_len2(p) + sccd_v2_len2(a)), eb = 1e-9 * (sccd_v2_len2(p) + sccd_v2_len2(b));
    return !((ca < -ea && cb > eb) || (ca > ea && cb < -eb));
}

/* Edges of a convex polygon: a segment (n = 2) has one, a point none. */
static inline int edge_count(int n) { return n > 2 ? n : n - 1; }

static inline sccd_real convex_point_distance(const sccd_v2 *v, int n, sccd_v2 p)
{
    if (convex_contains(v, n, p))
        return 0.0;
    sccd_real d = sccd_v2_dist(v[0], p);
    for (int i = 0; i < edge_count(n); ++i)
        d = sccd_min(d, sqrt(sccd_point_segment2_dist2_unchecked(p, v[i], v[(i + 1) % n])));
    return d;
}

/* Half the thickness of a valid shape s: how far it can sink into anything
 * before its middle is reached (a polygon's inradius about its vertices'
 * centre, plus its rounding). Unchecked: sccd_shape2_half_thickness is the
 * public form. */
static inline sccd_real shape2_half_thickness(const sccd_shape2 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return s->circle.r;
    case SCCD_SHAPE_CAPSULE: return s->capsule.r;
    case SCCD_SHAPE_BOX: return sccd_min(s->box.h.x, s->box.h.y);
    default: break;
    }
    const sccd_poly2 *p = &s->poly;
    sccd_v2 c = {0.0, 0.0};
    for (int i = 0; i < p->n; ++i)
        c = sccd_v2_mad(c, 1.0 / p->n, p->v[i]);
    sccd_real in = p->n >= 3 ? INFINITY : 0.0;
    for (int i = 0; i < p->n && p->n >= 3; ++i) {
        sccd_v2 e = sccd_v2_sub(p->v[(i + 1) % p->n], p->v[i]);
        sccd_v2 n = sccd_v2_normalize((sccd_v2){e.y, -e.x});
        in = sccd_min(in, sccd_v2_dot(sccd_v2_sub(p->v[i], c), n));
    }
    return p->r + sccd_max(in, 0.0);
}

#endif
