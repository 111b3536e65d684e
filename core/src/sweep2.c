/* Conservative 2D sweeps (docs/DESIGN.md "Sweeps").
 *
 * Construction. Put the origin at the motion's centre at t = 0, c0, with
 * world axes. The shape is K ⊕ disc(ρ): a convex core K (a point for a circle,
 * a segment for a capsule, a polygon) rounded by ρ. Its points q have
 * |q| in [ρmin, ρmax] (ρmin = 0 when the centre is inside). Split that range
 * into bands [lo, hi]; for each, cover the set Φ of directions of the shape's
 * points with |q| in [lo, hi] (below) by the smallest one arc, or two arcs
 * when Φ has two separate parts, widen each by |dθ| on the side of the turn,
 * and make each a sector about c0 with radii lo, hi (half angle π once the
 * arc covers the circle). At most SCCD_MAX_BANDS sectors in all: over that,
 * a band's two arcs are joined where that costs the least area, or half as
 * many bands are used, whichever encloses less.
 *
 * Conservative, proof. A body point at t is c0 + t·dp + Rot(t·dθ)·q with q a
 * point of the shape at t = 0 (motion.h). Let q be in band [lo, hi]: then its
 * direction is in Φ, hence in one of the band's arcs; Rot(t·dθ)·q has the
 * same length and that direction turned by t·dθ, which the widened arc holds
 * for every t in [0, 1] (joining arcs only grows them); so
 * Rot(t·dθ)·q lies in one of the band's sectors S, and the body point lies in
 * S ⊕ segment[0, dp]. Every q is in some band (the bands cover [ρmin, ρmax]
 * and share their end radii), so the shape's whole path lies in
 * (∪ S_k) ⊕ segment[0, dp]. A target X meets that set iff some S_k meets
 * X ⊕ segment[0, −dp] (the relative-motion trick: X swept by −dp, which for a
 * convex X is the convex hull of X and X − dp, rounded alike); the pair tests
 * below are exactly that. Floating-point error is covered by widening every
 * arc by 1e-12 rad and every band by 1e-12 of ρmax, and by giving every band
 * an outer radius of at least 1e-6 of the world coordinates |c0| + |dp|: a
 * world point's rounding, about 1e-16 of them, is then within the tests'
 * 1e-9 tolerance (relative to that radius) of the band, in any direction,
 * even about a point-sized shape.
 *
 * The set Φ of one band. For the core K: the directions of points of K with
 * |q| in [a, b]. As the direction turns, the ray's chord through K changes
 * whether it meets [a, b] only where the chord's ends cross the circles |q| = a
 * or |q| = b, or where the ray leaves K (at a vertex on K's silhouette seen
 * from the centre: the others have neighbours on both sides of the ray, so
 * rays on both sides meet K there too). So the candidate directions —
 * silhouette vertices, crossings of edges with both circles, and the foot of
 * each edge's perpendicular (a tangency gives an isolated direction) — cut the
 * circle of directions into gaps that are wholly in Φ or wholly out; testing
 * the ray through each gap's middle tells which; the full gaps are Φ's
 * pieces, and dropping the widest one (or two) empty runs between them gives
 * the smallest one (or two) arcs holding Φ. The bands of one layout share
 * that work: the candidates of all their circles together cut the circle of
 * directions finer, on which every band's membership is still constant, so
 * the directions are sorted and each gap's ray clipped once per layout. A
 * circle at or below K's least distance, or at or beyond its largest, changes
 * no membership (every chord of K reaches past it, or starts within it) and
 * adds no candidates. (For a core with area, a candidate inside an empty run
 * is an isolated direction of Φ only where K touches a band's end circle at
 * a local extreme of its distance; that point then lies in the neighbouring
 * band too, whose Φ holds a neighbourhood of it.) A core without area (a
 * point; a segment: a capsule's, a box of zero width) can have isolated
 * directions anywhere — a segment on a line through the centre is seen in one
 * or two directions — so it is handled apart: its parameters inside the
 * annulus form at most two intervals, whose directions run monotonically
 * between their ends: those are Φ's pieces. For the rounded shape (ρ > 0): a
 * point q = k + e with k in K, |e| ≤ ρ and |q| in [lo, hi] has |k| in
 * [lo − ρ, hi + ρ], and its direction is within asin(ρ / max(|q|, |k|)) of
 * k's (the disc about k, or about q, of radius ρ is seen under that half
 * angle); so the arcs of K's Φ in [lo − ρ, hi + ρ], each widened by
 * asin(ρ / max(lo, dist(0, K))), hold it (the whole circle when that ratio
 * reaches 1). */
#include "sectorccd/sweep2.h"

#include <string.h>

#include "convex2.h"
#include "inline.h"
#include "range.h"
#include "tolerance.h"
#include "sector2_internal.h"
#include "trig.h"

/* Candidate directions of a layout: per edge a vertex, a foot and two
 * crossings with each band's two end circles. */
#define CIRCLE_MAX (2 * SCCD_MAX_BANDS)
#define CAND_MAX (SCCD_POLY_MAX * (2 + 2 * CIRCLE_MAX))
/* Outward rounding of arcs (radians) and bands (relative to ρmax). */
#define ARC_PAD 1e-12
#define BAND_PAD 1e-12
/* Smallest outer radius of a band relative to the world coordinates (see sweep_build). */
#define WORLD_PAD 1e-6

/* Directions from lo counter-clockwise over span (span ≥ 2π: all). */
typedef struct arc { sccd_real lo, span; } arc;

static const arc full_arc = {0.0, 2.0 * SCCD_PI};

/* Appends the direction of x (not the origin) to the candidates. */
static void add_cand(sccd_dir *out, int *m, sccd_v2 x) { out[(*m)++] = sccd_dir_of(x); }

/* The core K in the centre's frame and what every band's Φ reuses: its
 * edges and their cross products with the vertices (the ray test's
 * constants), and the candidate directions no band changes (vertices, and
 * the feet of the edges' perpendiculars); only the circle crossings depend
 * on the band. */
typedef struct core {
    const sccd_v2 *v;
    int n;
    bool area; /* convex_has_area(v, n) */
    sccd_v2 e[SCCD_POLY_MAX];
    sccd_real b[SCCD_POLY_MAX];
    sccd_dir fixed[2 * SCCD_POLY_MAX];
    int nfixed;
} core;

/* The distances [t0, t1] at which the ray from the origin along u meets K
 * (with area, counter-clockwise); t0 = ∞ when it misses. The ray's
 * parameters inside K, clipped edge by edge (Cyrus–Beck): robust when the
 * origin is on K's boundary or a vertex, where the edges through it leave
 * the interval starting at about 0. */
static void ray_chord(const core *k, sccd_v2 u, sccd_real *t0, sccd_real *t1)
{
    *t0 = 0.0;
    *t1 = INFINITY;
    for (int i = 0; i < k->n; ++i) {
        /* inside edge i: cross(e, t·u − v_i) ≥ 0, i.e. t·a ≥ b */
        sccd_real a = sccd_v2_cross(k->e[i], u), b = k->b[i];
        if (a > 0.0)
            *t0 = sccd_max(*t0, b / a);
        else if (a < 0.0)
            *t1 = sccd_min(*t1, b / a);
        else if (b > 0.0)
            *t0 = INFINITY;
    }
    if (!(*t0 <= *t1))
        *t0 = INFINITY;
}

/* Directions of the points where segment p–p+e meets the circles of radii
 * rad[0..nrad) (seed 000 §2.9.2, eq 2.39). */
static void edge_candidates(sccd_v2 p, sccd_v2 e, const sccd_real *rad, int nrad, sccd_dir *out, int *m)
{
    sccd_real a = sccd_v2_len2(e), b = sccd_v2_dot(e, p);
    if (!(a > 0.0))
        return;
    for (int k = 0; k < nrad; ++k) {
        sccd_real disc = b * b - a * (sccd_v2_len2(p) - rad[k] * rad[k]);
        if (disc < 0.0)
            continue;
        for (sccd_real sign = -1.0; sign <= 1.0; sign += 2.0) {
            sccd_real s = (-b + sign * sqrt(disc)) / a;
            sccd_v2 x = sccd_v2_mad(p, s, e);
            if (s >= 0.0 && s <= 1.0 && sccd_v2_len2(x) > 0.0)
                add_cand(out, m, x);
        }
    }
}

/* K's edges, their ray-test constants and its fixed candidates: the
 * vertices' directions and the feet of the edges' perpendiculars (a
 * tangency gives an isolated direction). */
static void make_core(core *k, const sccd_v2 *v, int n)
{
    k->v = v;
    k->n = n;
    k->area = convex_has_area(v, n);
    k->nfixed = 0;
    for (int i = 0; i < n; ++i) {
        k->e[i] = sccd_v2_sub(v[(i + 1) % n], v[i]);
        k->b[i] = sccd_v2_cross(k->e[i], v[i]);
        if (sccd_v2_len2(v[i]) > 0.0 && (!k->area || convex_silhouette_vertex(v, n, i))) /* the others bound nothing */
            add_cand(k->fixed, &k->nfixed, v[i]);
    }
    for (int i = 0; i < n; ++i) {
        sccd_real a = sccd_v2_len2(k->e[i]), b = sccd_v2_dot(k->e[i], v[i]);
        if (!(a > 0.0))
            continue;
        sccd_real s = -b / a; /* a foot clamped to an end is a vertex, a candidate already */
        sccd_v2 foot = sccd_v2_mad(v[i], s, k->e[i]);
        if (s > 0.0 && s < 1.0 && sccd_v2_len2(foot) > 0.0)
            add_cand(k->fixed, &k->nfixed, foot);
    }
}

/* Width of gap j, from candidate j to the next one round the circle. */
static sccd_real gap_width(const sccd_dir *c, int m, int j)
{
    return j + 1 < m ? c[j + 1].angle - c[j].angle : c[0].angle + 2.0 * SCCD_PI - c[j].angle;
}

/* ---- Φ as pieces, and its cover by one or two arcs ---- */

/* Φ of one band as at most two arcs (two when it is seen in two separate
 * directions, as the far parts of a long body turning about its middle). */
typedef struct cover { int n; arc a[2]; } cover;

/* x in [0, 2π). Angles here are nearly always within one turn of that
 * range, where one step gives fmod's result bit for bit (x − 2π is exact for
 * x in [2π, 4π), by Sterbenz, as fmod is); the rest take fmod. */
static sccd_real wrap_angle(sccd_real x)
{
    if (x >= 2.0 * SCCD_PI && x < 4.0 * SCCD_PI)
        return x - 2.0 * SCCD_PI;
    if (!(x >= -2.0 * SCCD_PI && x < 2.0 * SCCD_PI))
        x = fmod(x, 2.0 * SCCD_PI);
    return x < 0.0 ? x + 2.0 * SCCD_PI : x;
}

/* Gap from the end of arc a counter-clockwise to the start of arc b. */
static sccd_real gap_between(arc a, arc b) { return wrap_angle(b.lo - (a.lo + a.span)); }

/* One arc holding the disjoint arcs a and b: the complement of the larger gap between them. */
static arc join(arc a, arc b)
{
    sccd_real ab = gap_between(a, b), ba = gap_between(b, a);
    return ab >= ba ? (arc){b.lo, 2.0 * SCCD_PI - ab} : (arc){a.lo, 2.0 * SCCD_PI - ba};
}

/* The smallest cover of pieces p[0..k) (k ≥ 1) by at most two arcs: merge
 * them in angular order into disjoint arcs, then drop the two widest gaps
 * between those. */
static cover cover_pieces(arc *p, int k)
{
    for (int i = 0; i < k; ++i) {
        if (p[i].span >= 2.0 * SCCD_PI)
            return (cover){1, {full_arc}};
        p[i].lo = wrap_angle(p[i].lo);
    }
    for (int i = 1; i < k; ++i) { /* insertion sort by start */
        arc v = p[i];
        int j = i;
        for (; j > 0 && p[j - 1].lo > v.lo; --j)
            p[j] = p[j - 1];
        p[j] = v;
    }
    int m = 0; /* merge in place */
    for (int i = 0; i < k; ++i) {
        if (m > 0 && p[i].lo <= p[m - 1].lo + p[m - 1].span)
            p[m - 1].span = sccd_max(p[m - 1].span, p[i].lo + p[i].span - p[m - 1].lo);
        else
            p[m++] = p[i];
    }
    if (m > 1 && p[m - 1].lo + p[m - 1].span >= p[0].lo + 2.0 * SCCD_PI) { /* the last wraps onto the first */
        sccd_real end = sccd_max(p[m - 1].lo + p[m - 1].span, p[0].lo + p[0].span + 2.0 * SCCD_PI);
        p[0] = (arc){p[m - 1].lo, end - p[m - 1].lo};
        --m;
    }
    if (m == 1)
        return (cover){1, {p[0].span >= 2.0 * SCCD_PI ? full_arc : p[0]}};
    int g1 = -1, g2 = -1; /* the two widest gaps, gap i following arc i */
    for (int i = 0; i < m; ++i) {
        sccd_real g = gap_between(p[i], p[(i + 1) % m]);
        if (g1 < 0 || g > gap_between(p[g1], p[(g1 + 1) % m])) {
            g2 = g1;
            g1 = i;
        } else if (g2 < 0 || g > gap_between(p[g2], p[(g2 + 1) % m])) {
            g2 = i;
        }
    }
    /* Between the two gaps: arcs g1+1 … g2 and g2+1 … g1, round the circle. */
    arc a = {p[(g1 + 1) % m].lo, 0.0}, b = {p[(g2 + 1) % m].lo, 0.0};
    a.span = wrap_angle(p[g2].lo + p[g2].span - a.lo);
    b.span = wrap_angle(p[g1].lo + p[g1].span - b.lo);
    return (cover){2, {a, b}};
}

/* Directions of the points of segment x–y, which lies on a line through the
 * origin when through is set: then only its end directions (the origin
 * itself, having none, is left to the band's inner radius 0). */
static int piece_arcs(sccd_v2 x, sccd_v2 y, bool through, arc *out)
{
    if (!through) {
        sccd_real span = sccd_atan2(sccd_v2_cross(x, y), sccd_v2_dot(x, y));
        out[0] = span >= 0.0 ? (arc){sccd_atan2(x.y, x.x), span} : (arc){sccd_atan2(y.y, y.x), -span};
        return 1;
    }
    int k = 0;
    if (sccd_v2_len2(x) > 0.0)
        out[k++] = (arc){sccd_atan2(x.y, x.x), 0.0};
    if (sccd_v2_len2(y) > 0.0)
        out[k++] = (arc){sccd_atan2(y.y, y.x), 0.0};
    return k;
}

/* The parameters s (of the whole line) where |p + s·e| ≤ rad are [s0, s1]
 * (eq 2.39); false when there are none. */
static bool within_circle(sccd_v2 p, sccd_v2 e, sccd_real rad, sccd_real *s0, sccd_real *s1)
{
    sccd_real a = sccd_v2_len2(e), b = sccd_v2_dot(e, p), disc = b * b - a * (sccd_v2_len2(p) - rad * rad);
    if (disc < 0.0)
        return false;
    *s0 = (-b - sqrt(disc)) / a;
    *s1 = (-b + sqrt(disc)) / a;
    return true;
}

/* Φ's pieces for a core without area: its longest chord p–q (a segment, or
 * a point). The segment's parameters inside the annulus are one or two
 * intervals (inside circle hi, minus the open inside of circle lo), each a
 * piece whose directions run monotonically from one end to the other.
 * Returns the count; 0 means every direction. */
static int segment_pieces(sccd_v2 p, sccd_v2 q, sccd_real lo, sccd_real hi, arc *out)
{
    sccd_v2 e = sccd_v2_sub(q, p);
    if (!(sccd_v2_len2(e) > 0.0)) { /* a point: the caller keeps lo ≤ |p| ≤ hi */
        out[0] = (arc){sccd_atan2(p.y, p.x), 0.0};
        return sccd_v2_len2(p) > 0.0 ? 1 : 0;
    }
    sccd_real a0, a1, c0, c1;
    if (!within_circle(p, e, hi, &a0, &a1))
        return 0; /* only by rounding (the band meets K): stay conservative */
    a0 = sccd_max(a0, 0.0);
    a1 = sccd_min(a1, 1.0);
    sccd_real cuts[2][2] = {{a0, a1}, {1.0, 0.0}};
    if (lo > 0.0 && within_circle(p, e, lo, &c0, &c1)) {
        cuts[0][1] = sccd_min(a1, c0);
        cuts[1][0] = sccd_max(a0, c1);
        cuts[1][1] = a1;
    }
    bool through = fabs(sccd_v2_cross(p, e)) <= 1e-15 * sccd_v2_len(e) * (sccd_v2_len(p) + sccd_v2_len(q));
    int k = 0;
    for (int i = 0; i < 2; ++i)
        if (cuts[i][0] <= cuts[i][1])
            k += piece_arcs(sccd_v2_mad(p, cuts[i][0], e), sccd_v2_mad(p, cuts[i][1], e), through, out + k);
    return k;
}

/* The two points of v farthest apart: the extent of a set without area. */
static void longest_chord(const sccd_v2 *v, int n, sccd_v2 *p, sccd_v2 *q)
{
    *p = *q = v[0];
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (sccd_v2_len2(sccd_v2_sub(v[i], v[j])) > sccd_v2_len2(sccd_v2_sub(*p, *q))) {
                *p = v[i];
                *q = v[j];
            }
}

/* K's chord along each gap between consecutive candidate directions, for
 * every band of a layout at once. The candidates are K's fixed ones and the
 * crossings of its edges with all the layout's circles: that cuts the circle
 * of directions finer than one band's own candidates would, and each band's
 * membership stays constant on every finer gap, so one sort and one ray clip
 * per gap serve all the bands. Gap j runs from c[j] to c[j + 1], round the
 * circle. */
typedef struct gap_table {
    int m;
    sccd_dir c[CAND_MAX]; /* sorted by angle */
    sccd_real width[CAND_MAX], t0[CAND_MAX], t1[CAND_MAX];
} gap_table;

static void make_gaps(gap_table *g, const core *K, const sccd_real *rad, int nrad)
{
    g->m = K->nfixed;
    memcpy(g->c, K->fixed, (size_t)K->nfixed * sizeof *g->c);
    for (int i = 0; i < K->n; ++i)
        edge_candidates(K->v[i], K->e[i], rad, nrad, g->c, &g->m);
    sccd_sort_dirs(g->c, g->m);
    for (int j = 0; j < g->m; ++j) {
        g->width[j] = gap_width(g->c, g->m, j);
        ray_chord(K, sccd_gap_direction(g->c[j].v, g->c[(j + 1) % g->m].v, g->width[j]), &g->t0[j], &g->t1[j]);
    }
}

/* Φ's pieces for a core with area at distances [lo, hi]: the runs of gaps
 * whose chord meets [lo, hi] (or, when none does, the candidate directions
 * themselves). Returns the count; 0 means every direction. */
static int polygon_pieces(const gap_table *g, sccd_real lo, sccd_real hi, arc *out)
{
    int k = 0;
    bool prev = false; /* gap j − 1 was in */
    for (int j = 0; j < g->m; ++j) {
        bool in = g->t0[j] <= hi && g->t1[j] >= lo;
        if (in && prev) /* the run goes on: to the end of gap j */
            out[k - 1].span = (j + 1 < g->m ? g->c[j + 1].angle : g->c[0].angle + 2.0 * SCCD_PI) - out[k - 1].lo;
        else if (in)
            out[k++] = (arc){g->c[j].angle, g->width[j]};
        prev = in;
    }
    for (int j = 0; k == 0 && j < g->m; ++j)
        out[j] = (arc){g->c[j].angle, 0.0};
    return k > 0 ? k : g->m;
}

/* The cover of Φ for the core K at distances in [lo, hi] (g: K's gaps when it has area). */
static cover core_cover(const core *K, const gap_table *g, sccd_real lo, sccd_real hi)
{
    arc pieces[CAND_MAX];
    int k;
    if (K->area) {
        k = polygon_pieces(g, lo, hi, pieces);
    } else {
        sccd_v2 p, q;
        longest_chord(K->v, K->n, &p, &q);
        k = segment_pieces(p, q, lo, hi, pieces);
    }
    return k > 0 ? cover_pieces(pieces, k) : (cover){1, {full_arc}};
}

/* Arc a widened by w on both sides, by the turn on its side (turning by
 * t·dθ, t in [0, 1], sweeps it over |dθ| more), and by the rounding pad. */
static arc widen(arc a, sccd_real w, sccd_real dtheta)
{
    if (a.span >= 2.0 * SCCD_PI)
        return full_arc;
    return (arc){a.lo - w + sccd_min(0.0, dtheta) - ARC_PAD, a.span + 2.0 * w + fabs(dtheta) + 2.0 * ARC_PAD};
}

/* The band's cover for the core rounded by rho, turned by dθ (see the top of the file). */
static cover band_cover(const core *K, const gap_table *g, sccd_real rho, sccd_real dmin, sccd_real lo, sccd_real hi,
                        sccd_real dtheta)
{
    cover c = core_cover(K, g, sccd_max(0.0, lo - rho), hi + rho);
    sccd_real seen = sccd_max(lo, dmin), w = 0.0;
    if (rho > 0.0)
        w = seen > rho ? asin(rho / seen) : SCCD_PI;
    for (int i = 0; i < c.n; ++i)
        c.a[i] = widen(c.a[i], w, dtheta);
    return cover_pieces(c.a, c.n); /* widened arcs may now overlap: merge them */
}

static sccd_sector2 arc_sector(sccd_v2 c0, arc a, sccd_real lo, sccd_real hi)
{
    sccd_real half = sccd_min(0.5 * a.span, SCCD_PI), mid = a.lo + 0.5 * a.span;
    sccd_rot2 dir = sccd_cos_sin(mid);
    return (sccd_sector2){c0, {dir.c, dir.s}, half, lo, hi};
}

static void empty_sweep(sccd_sweep2 *out)
{
    *out = (sccd_sweep2){0};
    out->aabb = (sccd_aabb2){{0.0, 0.0}, {0.0, 0.0}};
}

static int checked_bands(int bands)
{
    SCCD_ASSERT(bands >= 1 && bands <= SCCD_MAX_BANDS);
    return bands < 1 ? 1 : (bands > SCCD_MAX_BANDS ? SCCD_MAX_BANDS : bands);
}

/* A layout of the sweep: radial bands and the cover of each. */
typedef struct plan {
    int bands, joined; /* joined: two-arc covers joined to fit the budget */
    sccd_real lo[SCCD_MAX_BANDS], hi[SCCD_MAX_BANDS], area;
    cover c[SCCD_MAX_BANDS];
} plan;

/* What shapes one plan: the core in the centre's frame and the motion's turn. */
typedef struct plan_input { const core *k; sccd_real rho, dmin, dmax, rmin, rmax, dtheta; } plan_input;

static sccd_real cover_area(cover c, sccd_real lo, sccd_real hi)
{
    sccd_real span = 0.0;
    for (int i = 0; i < c.n; ++i)
        span += sccd_min(c.a[i].span, 2.0 * SCCD_PI);
    return 0.5 * span * (hi * hi - lo * lo);
}

/* Bands with two arcs take two sectors; over the budget, join the band's
 * pair whose joining adds the least area, until the sectors fit. */
static void fit_budget(plan *p)
{
    int total = 0;
    for (int k = 0; k < p->bands; ++k)
        total += p->c[k].n;
    for (; total > SCCD_MAX_BANDS; --total, ++p->joined) {
        int best = -1;
        sccd_real best_cost = INFINITY;
        for (int k = 0; k < p->bands; ++k) {
            if (p->c[k].n < 2)
                continue;
            cover joined = {1, {join(p->c[k].a[0], p->c[k].a[1])}};
            sccd_real cost = cover_area(joined, p->lo[k], p->hi[k]) - cover_area(p->c[k], p->lo[k], p->hi[k]);
            if (best < 0 || cost < best_cost) {
                best = k;
                best_cost = cost;
            }
        }
        p->c[best] = (cover){1, {join(p->c[best].a[0], p->c[best].a[1])}};
    }
}

static plan make_plan(const plan_input *in, int bands)
{
    plan p = {.bands = bands};
    sccd_real w = in->rmax - in->rmin;
    sccd_real rad[CIRCLE_MAX];
    int nrad = 0;
    for (int k = 0; k < bands; ++k) {
        p.lo[k] = k == 0 ? in->rmin : in->rmin + w * k / bands;
        p.hi[k] = k == bands - 1 ? in->rmax : in->rmin + w * (k + 1) / bands;
        /* The circles core_cover cuts at (unrounded, a band starts where the
         * last ends, bit for bit). One at or below K's least distance, or at
         * or beyond its largest, bounds nothing (every chord of K reaches past
         * it, or starts within it): its crossings are no candidates. */
        sccd_real cut[2] = {sccd_max(0.0, p.lo[k] - in->rho), p.hi[k] + in->rho};
        for (int i = 0; i < 2; ++i)
            if (cut[i] > in->dmin && cut[i] < in->dmax && (nrad == 0 || cut[i] != rad[nrad - 1]))
                rad[nrad++] = cut[i];
    }
    gap_table g;
    if (in->k->area)
        make_gaps(&g, in->k, rad, nrad);
    for (int k = 0; k < bands; ++k)
        p.c[k] = band_cover(in->k, &g, in->rho, in->dmin, p.lo[k], p.hi[k], in->dtheta);
    fit_budget(&p);
    for (int k = 0; k < bands; ++k)
        p.area += cover_area(p.c[k], p.lo[k], p.hi[k]);
    return p;
}

/* The power of 2 that brings a body's extent about its centre near 1
 * where it lies beyond 1e±30, else 1: the plan's areas and crossings take
 * products of up to five lengths, which over- or underflowed (the band
 * layout changed in a tenth of the builds of bodies some 1e90 or 1e-90
 * across, and the sweep missed 0.1–0.2 % of the points it meets at unit
 * scale; 14 % at 1e-160). The plan is in the body's frame about its
 * centre, so it scales exactly; the world position only places it. */
static sccd_real plan_factor(sccd_real extent) { return sccd_unit_factor(extent, 1e-30, 1e30); }

/* The sweep of the core body[0..n) (body coordinates, counter-clockwise)
 * rounded by rho. When two-arc bands had to be joined to fit the sector
 * budget, half as many bands with both arcs may enclose less: the smaller
 * of the two layouts is kept (both are conservative). */
static void sweep_build(sccd_sweep2 *out, const sccd_v2 *body, int n, sccd_real rho, sccd_motion2 m, int bands)
{
    sccd_v2 c0 = sccd_xf2_apply(m.start, m.center), q[SCCD_POLY_MAX];
    sccd_real extent = rho, dmax = 0.0;
    for (int i = 0; i < n; ++i) {
        q[i] = sccd_rot2_apply(m.start.q, sccd_v2_sub(body[i], m.center));
        extent = sccd_max(extent, sccd_mag2(q[i])); /* no square yet: it could underflow */
    }
    sccd_real f = plan_factor(extent), unit = 1.0 / f; /* the plan in units of 1/f */
    for (int i = 0; i < n; ++i) {
        q[i] = sccd_v2_scale(q[i], f);
        dmax = sccd_max(dmax, sccd_v2_len(q[i]));
    }
    rho *= f;
    sccd_real dmin = convex_point_distance(q, n, (sccd_v2){0.0, 0.0});
    core K;
    make_core(&K, q, n);
    plan_input in = {&K, rho, dmin, dmax, sccd_max(0.0, dmin - rho), dmax + rho, m.dtheta};
    plan p = make_plan(&in, bands);
    if (p.joined > 0) {
        plan half = make_plan(&in, (bands + 1) / 2);
        if (half.area < p.area)
            p = half;
    }
    /* A world point carries rounding of about 1e-16 of the world coordinates;
     * with an outer radius of at least 1e-6 of them the tests' 1e-9
     * tolerance (relative to that radius) absorbs it, whatever its direction. */
    /* The world's lengths in units of 1/wk too (their squares underflowed
     * for a body some 1e-270 off the origin: a point turning about itself
     * was swept to the point alone, and missed itself a rounding away). */
    sccd_real wk = plan_factor(sccd_max(sccd_mag2(c0), sccd_mag2(m.dp)));
    sccd_real world = (sccd_v2_len(sccd_v2_scale(c0, wk)) + sccd_v2_len(sccd_v2_scale(m.dp, wk))) / wk;
    sccd_real pad = BAND_PAD * (dmax + rho) * unit, min_outer = WORLD_PAD * world;
    out->count = 0;
    out->dp = m.dp;
    for (int k = 0; k < p.bands; ++k) {
        sccd_real lo = p.lo[k] * unit, hi = p.hi[k] * unit;
        for (int i = 0; i < p.c[k].n; ++i) {
            sccd_sector2 s = arc_sector(c0, p.c[k].a[i], sccd_max(0.0, lo - pad), sccd_max(hi + pad, min_outer));
            sccd_sector2_prepare_unchecked(&out->prepared[out->count], &s); /* valid by construction */
            sccd_aabb2 box = sccd_sector2_prepared_aabb(&out->prepared[out->count]);
            out->aabb = out->count == 0 ? box : (sccd_aabb2){sccd_v2_min(out->aabb.lo, box.lo),
                                                             sccd_v2_max(out->aabb.hi, box.hi)};
            out->band[out->count++] = s;
        }
    }
    sccd_v2 lo = sccd_v2_add(out->aabb.lo, m.dp), hi = sccd_v2_add(out->aabb.hi, m.dp);
    out->aabb = (sccd_aabb2){sccd_v2_min(out->aabb.lo, lo), sccd_v2_max(out->aabb.hi, hi)};
}

/* The public boundary of the builders: false (and out emptied when there is
 * one) on bad input. */
static bool start_sweep(sccd_sweep2 *out, bool shape_ok, sccd_motion2 m)
{
    bool ok = out != NULL && shape_ok && sccd_is_valid_motion2(m);
    SCCD_ASSERT(ok);
    if (!ok && out)
        empty_sweep(out);
    return ok;
}

void sccd_sweep2_box(sccd_sweep2 *out, sccd_v2 half, sccd_motion2 m, int bands)
{
    sccd_box2 b = {{0.0, 0.0}, {1.0, 0.0}, half};
    if (start_sweep(out, sccd_is_valid_box2(b), m)) {
        sccd_v2 v[4];
        sccd_box2_corners(b, v);
        sweep_build(out, v, 4, 0.0, m, checked_bands(bands));
    }
}

void sccd_sweep2_circle(sccd_sweep2 *out, sccd_circle c, sccd_motion2 m, int bands)
{
    if (start_sweep(out, sccd_is_valid_circle(c), m))
        sweep_build(out, &c.c, 1, c.r, m, checked_bands(bands));
}

void sccd_sweep2_capsule(sccd_sweep2 *out, sccd_capsule2 c, sccd_motion2 m, int bands)
{
    sccd_v2 v[2] = {c.a, c.b};
    if (start_sweep(out, sccd_is_valid_capsule2(c), m))
        sweep_build(out, v, 2, c.r, m, checked_bands(bands));
}

void sccd_sweep2_poly(sccd_sweep2 *out, const sccd_poly2 *p, sccd_motion2 m, int bands)
{
    if (start_sweep(out, sccd_is_valid_poly2(p), m))
        sweep_build(out, p->v, p->n, p->r, m, checked_bands(bands));
}

/* ---- pair tests: a band meets the target swept by −dp ---- */

static bool valid_sweep(const sccd_sweep2 *w) { return w && w->count >= 0 && w->count <= SCCD_MAX_BANDS; }

/* The convex core v[0..n) (world) swept by −dp, rounded by rho, against every band. */
/* Whether the disc (c, rad) lies wholly outside band k's annulus, by more
 * than the sector test's tolerance (so the exact test would say no too). */
static bool disc_misses_band(const sccd_sector2 *band, sccd_v2 c, sccd_real rad)
{
    sccd_real d = sccd_v2_dist(c, band->o), slack = 4.0 * SCCD_EPS * (d + band->R + rad);
    return d - rad > band->R + slack || d + rad < band->r - slack;
}

/* Band k prepared: as built, unless the band was set or changed by hand
 * since (then prepared now: a stale or missing copy must not miss). */
static const sccd_sector2_prepared *band_prepared(const sccd_sweep2 *w, int k, sccd_sector2_prepared *scratch)
{
    const sccd_sector2_prepared *p = &w->prepared[k];
    if (p->ready && memcmp(&p->s, &w->band[k], sizeof w->band[k]) == 0)
        return p;
    sccd_sector2_prepare(scratch, &w->band[k]);
    return scratch;
}

static bool sweep_vs_core_scaled(const sccd_sweep2 *w, const sccd_v2 *v, int n, sccd_real rho);

/* The sweep against the convex polygon v (counter-clockwise; or one or two
 * points) grown by rho, swept by −dp: the hull of v and v − dp, built once
 * (without a translation, as a hinged body's turn about a fixed point, v
 * itself). Each band is first tested against a circle around the set. A
 * set beyond the range (range.h: that circle's radius above
 * SCCD_RANGE_MAX, or not finite), or one that with that circle's centre
 * lies within SCCD_RANGE_MIN of the origin (a scene that may be tiny:
 * the circle's distances and the hull's cross products underflowed in
 * one some 1e-160 across, and 14 % of the points such a sweep met at unit
 * scale were missed), is scaled first (unless it was: may_scale). */
static SCCD_ALWAYS_INLINE bool sweep_vs_core(const sccd_sweep2 *w, const sccd_v2 *v, int n, sccd_real rho,
                                            bool may_scale)
{
    /* No rejection by w->aabb here: callers may change dp after building
     * (a target's own motion, by the relative-motion trick), which leaves the
     * box stale. */
    bool still = w->dp.x == 0.0 && w->dp.y == 0.0;
    int m = still ? n : 2 * n;
    sccd_v2 pts[2 * SCCD_POLY_MAX], hull[4 * SCCD_POLY_MAX], c = {0.0, 0.0};
    for (int i = 0; i < n; ++i) {
        pts[i] = v[i];
        pts[n + i] = sccd_v2_sub(v[i], w->dp);
    }
    for (int i = 0; i < m; ++i)
        c = sccd_v2_add(c, pts[i]);
    c = sccd_v2_scale(c, 1.0 / m);
    sccd_real rad2 = 0.0;
    for (int i = 0; i < m; ++i)
        rad2 = sccd_max(rad2, sccd_v2_len2(sccd_v2_sub(pts[i], c)));
    sccd_real rad = sqrt(rad2) + rho;
    if (may_scale & (!(rad <= SCCD_RANGE_MAX) | !(sccd_max(rad, sccd_mag2(c)) >= SCCD_RANGE_MIN)))
        return sweep_vs_core_scaled(w, v, n, rho); /* the hull's cross products could overflow or underflow */
    const sccd_v2 *set = pts;
    int count = m;
    if (!still) { /* the swept set's hull, once for every band */
        sccd_v2 sorted[2 * SCCD_POLY_MAX];
        for (int i = 0; i < m; ++i)
            sorted[i] = pts[i];
        count = sccd_hull2(sorted, m, hull);
        set = hull;
    }
    sccd_sector2_prepared scratch;
    for (int k = 0; k < w->count; ++k)
        if (!disc_misses_band(&w->band[k], c, rad) &&
            sccd_sector2_meets_points(band_prepared(w, k, &scratch), set, count, rho, true))
            return true;
    return false;
}

/* sweep_vs_core with the sweep (its bands, prepared or not, and its
 * translation) and the target scaled by a power of 2 into the range: the
 * same test (range.h), where the hull's cross products of a target 2e160
 * wide overflowed and dropped points (and those of a tiny one
 * underflowed). Out of line: rare. */
SCCD_NOINLINE static bool sweep_vs_core_scaled(const sccd_sweep2 *w, const sccd_v2 *v, int n, sccd_real rho)
{
    sccd_real largest = sccd_max(rho, sccd_mag2(w->dp));
    for (int i = 0; i < n; ++i)
        largest = sccd_max(largest, sccd_mag2(v[i]));
    for (int k = 0; k < w->count; ++k)
        largest = sccd_max(largest, sccd_max(sccd_mag2(w->band[k].o), w->band[k].R));
    sccd_real f = sccd_range_factor(largest);
    sccd_sweep2 s = *w;
    for (int k = 0; k < w->count; ++k) {
        sccd_sector2 *b[2] = {&s.band[k], &s.prepared[k].s}; /* both alike: a band changed by hand stays so */
        for (int j = 0; j < 2; ++j) {
            b[j]->o = sccd_v2_scale(b[j]->o, f);
            b[j]->r *= f;
            b[j]->R *= f;
        }
    }
    s.dp = sccd_v2_scale(w->dp, f);
    sccd_v2 scaled[SCCD_POLY_MAX];
    for (int i = 0; i < n; ++i)
        scaled[i] = sccd_v2_scale(v[i], f);
    return sweep_vs_core(&s, scaled, n, rho * f, false);
}

bool sccd_sweep2_vs_point(const sccd_sweep2 *w, sccd_v2 p)
{
    if (!valid_sweep(w) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(valid_sweep(w) && sccd_is_valid_v2(p));
        return false;
    }
    return sweep_vs_core(w, &p, 1, 0.0, true);
}

bool sccd_sweep2_vs_circle(const sccd_sweep2 *w, sccd_circle c)
{
    if (!valid_sweep(w) || !sccd_is_valid_circle(c)) {
        SCCD_ASSERT(valid_sweep(w) && sccd_is_valid_circle(c));
        return false;
    }
    return sweep_vs_core(w, &c.c, 1, c.r, true);
}

bool sccd_sweep2_vs_box(const sccd_sweep2 *w, sccd_box2 b)
{
    if (!valid_sweep(w) || !sccd_is_valid_box2(b)) {
        SCCD_ASSERT(valid_sweep(w) && sccd_is_valid_box2(b));
        return false;
    }
    sccd_v2 v[4];
    sccd_box2_corners(b, v);
    return sweep_vs_core(w, v, 4, 0.0, true);
}

bool sccd_sweep2_vs_capsule(const sccd_sweep2 *w, sccd_capsule2 c)
{
    if (!valid_sweep(w) || !sccd_is_valid_capsule2(c)) {
        SCCD_ASSERT(valid_sweep(w) && sccd_is_valid_capsule2(c));
        return false;
    }
    sccd_v2 v[2] = {c.a, c.b};
    return sweep_vs_core(w, v, 2, c.r, true);
}

bool sccd_sweep2_vs_poly(const sccd_sweep2 *w, const sccd_poly2 *p)
{
    if (!valid_sweep(w) || !sccd_is_valid_poly2(p)) {
        SCCD_ASSERT(valid_sweep(w) && sccd_is_valid_poly2(p));
        return false;
    }
    return sweep_vs_core(w, p->v, p->n, p->r, true);
}
