/* The scene fuzzer's shared helpers and judge geometry (scene_fuzz.h). The
 * geometry is deliberately plain and separate from the library's: it judges
 * the library, so it must not share its mistakes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scene_fuzz.h"

const char *sccd_fz_engine_name(sccd_fz_engine e) { return e == SCCD_FZ_CP ? "cp" : "ode"; }

const char *sccd_fz_kind_name(sccd_fz_kind k)
{
    static const char *names[SCCD_FZ_KINDS] = {"hinged_free", "hinged_motor", "kinematic", "flyer"};
    return k < SCCD_FZ_KINDS ? names[k] : "?";
}

const char *sccd_fz_judge_name(sccd_fz_judge_kind k)
{
    static const char *names[SCCD_FZ_JUDGE_KINDS] = {"deep", "turned_through", "centre_crossed", "ball_inside", "bodies_meet"};
    return k < SCCD_FZ_JUDGE_KINDS ? names[k] : "?";
}

sccd_fz_result sccd_fz_run(sccd_fz_engine e, uint64_t seed, int index, sccd_fz_setup setup, sccd_fz_mode mode,
                           sccd_fz_trace *trace, void *user)
{
    return e == SCCD_FZ_CP ? sccd_fz_run_cp(seed, index, setup, mode, trace, user)
                           : sccd_fz_run_ode(seed, index, setup, mode, trace, user);
}

/* ---- shared scene helpers ---- */

/* splitmix64: neighbouring (seed, index) pairs must give unrelated streams. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

sccd_rng sccd_fz_rng(sccd_fz_engine e, uint64_t seed, int index)
{
    return sccd_rng_make(mix64(mix64(seed * 2u + (uint64_t)e) ^ (uint64_t)(uint32_t)index));
}

double sccd_fz_log_uniform(sccd_rng *g, double lo, double hi) { return exp(sccd_rng_uniform(g, log(lo), log(hi))); }

int sccd_fz_pick(sccd_rng *g, int n, int bias)
{
    int k = sccd_rng_int(g, n + bias - 1);
    return k < bias ? 0 : k - bias + 1;
}

void sccd_fz_append(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

int sccd_fz_substeps(double travel, double feature)
{
    double n = ceil(travel / (0.5 * feature));
    return n < SCCD_FZ_MIN_SUBSTEPS ? SCCD_FZ_MIN_SUBSTEPS : n > SCCD_FZ_MAX_SUBSTEPS ? SCCD_FZ_MAX_SUBSTEPS : (int)n;
}

double sccd_fz_wrap(double a) { return a - 2.0 * SCCD_PI * floor((a + SCCD_PI) / (2.0 * SCCD_PI)); }

/* ---- 2D ---- */

static sccd_fz_v2 sub2(sccd_fz_v2 a, sccd_fz_v2 b) { return (sccd_fz_v2){a.x - b.x, a.y - b.y}; }
static double dot2(sccd_fz_v2 a, sccd_fz_v2 b) { return a.x * b.x + a.y * b.y; }
static double cross2(sccd_fz_v2 a, sccd_fz_v2 b) { return a.x * b.y - a.y * b.x; }

sccd_fz_v2 sccd_fz_v2_place(sccd_fz_v2 p, double angle, sccd_fz_v2 t)
{
    double c = cos(angle), s = sin(angle);
    return (sccd_fz_v2){t.x + c * p.x - s * p.y, t.y + s * p.x + c * p.y};
}

sccd_fz_poly sccd_fz_poly_place(const sccd_fz_poly *s, sccd_fz_v2 t, double angle)
{
    sccd_fz_poly out = *s;
    for (int i = 0; i < s->n; ++i)
        out.v[i] = sccd_fz_v2_place(s->v[i], angle, t);
    return out;
}

static sccd_fz_v2 vertex_mean(const sccd_fz_poly *s)
{
    sccd_fz_v2 c = {0.0, 0.0};
    for (int i = 0; i < s->n; ++i)
        c = (sccd_fz_v2){c.x + s->v[i].x / s->n, c.y + s->v[i].y / s->n};
    return c;
}

static double point_segment_distance(sccd_fz_v2 p, sccd_fz_v2 a, sccd_fz_v2 b)
{
    sccd_fz_v2 ab = sub2(b, a), ap = sub2(p, a);
    double len2 = dot2(ab, ab), t = len2 > 0.0 ? fmax(0.0, fmin(1.0, dot2(ap, ab) / len2)) : 0.0;
    sccd_fz_v2 d = {ap.x - t * ab.x, ap.y - t * ab.y};
    return sqrt(dot2(d, d));
}

sccd_fz_poly sccd_fz_poly_inner(const sccd_fz_poly *s, double inset)
{
    sccd_fz_poly out = *s;
    out.r = s->r - inset;
    if (out.r >= 0.0 || s->n < 3) {
        out.r = fmax(out.r, 0.0);
        return out;
    }
    /* Scaling about the vertex mean by k moves every edge in by (1 − k)·its
     * distance from the mean, at least (1 − k)·the smallest one. */
    double rest = -out.r, nearest = INFINITY;
    sccd_fz_v2 c = vertex_mean(s);
    for (int i = 0; i < s->n; ++i)
        nearest = fmin(nearest, point_segment_distance(c, s->v[i], s->v[(i + 1) % s->n]));
    double k = fmax(0.0, 1.0 - rest / nearest);
    for (int i = 0; i < s->n; ++i)
        out.v[i] = (sccd_fz_v2){c.x + k * (s->v[i].x - c.x), c.y + k * (s->v[i].y - c.y)};
    out.r = 0.0;
    return out;
}

/* The axes that separate a hull from others: edge normals, and for a segment
 * its direction too (two collinear segments are separated only along it). */
static int hull_axes(const sccd_fz_poly *s, sccd_fz_v2 *axes)
{
    if (s->n == 2) {
        sccd_fz_v2 d = sub2(s->v[1], s->v[0]);
        axes[0] = d;
        axes[1] = (sccd_fz_v2){-d.y, d.x};
        return 2;
    }
    int n = 0;
    for (int i = 0; s->n >= 3 && i < s->n; ++i) {
        sccd_fz_v2 d = sub2(s->v[(i + 1) % s->n], s->v[i]);
        axes[n++] = (sccd_fz_v2){-d.y, d.x};
    }
    return n;
}

static void project(const sccd_fz_poly *s, sccd_fz_v2 axis, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int i = 0; i < s->n; ++i) {
        double p = dot2(s->v[i], axis);
        *lo = fmin(*lo, p);
        *hi = fmax(*hi, p);
    }
}

static bool hulls_intersect(const sccd_fz_poly *a, const sccd_fz_poly *b)
{
    sccd_fz_v2 axes[2 * SCCD_FZ_POLY_MAX];
    int n = hull_axes(a, axes);
    n += hull_axes(b, axes + n);
    if (n == 0) /* two points */
        return a->v[0].x == b->v[0].x && a->v[0].y == b->v[0].y;
    for (int i = 0; i < n; ++i) {
        double alo, ahi, blo, bhi;
        project(a, axes[i], &alo, &ahi);
        project(b, axes[i], &blo, &bhi);
        if (ahi < blo || bhi < alo)
            return false;
    }
    return true;
}

/* Edge i of a hull (a point is its own degenerate edge, a segment has one). */
static int edge_count(const sccd_fz_poly *s) { return s->n <= 2 ? 1 : s->n; }
static void edge(const sccd_fz_poly *s, int i, sccd_fz_v2 *a, sccd_fz_v2 *b)
{
    *a = s->v[i];
    *b = s->v[s->n == 1 ? 0 : (i + 1) % s->n];
}

/* Disjoint convex hulls are closest at a vertex of one of them. */
static double hull_distance(const sccd_fz_poly *a, const sccd_fz_poly *b)
{
    double best = INFINITY;
    for (int side = 0; side < 2; ++side) {
        const sccd_fz_poly *p = side ? b : a, *q = side ? a : b;
        for (int i = 0; i < p->n; ++i)
            for (int j = 0; j < edge_count(q); ++j) {
                sccd_fz_v2 e0, e1;
                edge(q, j, &e0, &e1);
                best = fmin(best, point_segment_distance(p->v[i], e0, e1));
            }
    }
    return best;
}

bool sccd_fz_poly_overlap(const sccd_fz_poly *a, const sccd_fz_poly *b)
{
    return hulls_intersect(a, b) || hull_distance(a, b) < a->r + b->r;
}

double sccd_fz_poly_gap(const sccd_fz_poly *a, const sccd_fz_poly *b)
{
    return hulls_intersect(a, b) ? 0.0 : fmax(0.0, hull_distance(a, b) - a->r - b->r);
}

double sccd_fz_poly_bound(const sccd_fz_poly *s, sccd_fz_v2 *centre)
{
    *centre = vertex_mean(s);
    double r = 0.0;
    for (int i = 0; i < s->n; ++i) {
        sccd_fz_v2 d = sub2(s->v[i], *centre);
        r = fmax(r, sqrt(dot2(d, d)));
    }
    return r + s->r;
}

bool sccd_fz_segments_cross(sccd_fz_v2 a, sccd_fz_v2 b, sccd_fz_v2 c, sccd_fz_v2 d)
{
    double d1 = cross2(sub2(b, a), sub2(c, a)), d2 = cross2(sub2(b, a), sub2(d, a));
    double d3 = cross2(sub2(d, c), sub2(a, c)), d4 = cross2(sub2(d, c), sub2(b, c));
    return d1 * d2 < 0.0 && d3 * d4 < 0.0;
}

bool sccd_fz_around_ends(sccd_fz_v2 p0, sccd_fz_v2 p1, sccd_fz_v2 a, sccd_fz_v2 b, double reach)
{
    double via_a = hypot(a.x - p0.x, a.y - p0.y) + hypot(p1.x - a.x, p1.y - a.y);
    double via_b = hypot(b.x - p0.x, b.y - p0.y) + hypot(p1.x - b.x, p1.y - b.y);
    return fmin(via_a, via_b) <= reach;
}

/* ---- 3D ---- */

static sccd_fz_v3 sub3(sccd_fz_v3 a, sccd_fz_v3 b) { return (sccd_fz_v3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static double dot3(sccd_fz_v3 a, sccd_fz_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static sccd_fz_v3 cross3(sccd_fz_v3 a, sccd_fz_v3 b)
{
    return (sccd_fz_v3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static sccd_fz_v3 axpy3(sccd_fz_v3 p, double t, sccd_fz_v3 d) { return (sccd_fz_v3){p.x + t * d.x, p.y + t * d.y, p.z + t * d.z}; }

/* Distance from p to s's box (its radius left out). */
static double point_box_distance(sccd_fz_v3 p, const sccd_fz_solid *s)
{
    sccd_fz_v3 d = sub3(p, s->c);
    double sum = 0.0;
    for (int i = 0; i < 3; ++i) {
        double q = dot3(d, s->a[i]), out = fmax(0.0, fabs(q) - s->h[i]);
        sum += out * out;
    }
    return sqrt(sum);
}

static bool is_segment(const sccd_fz_solid *s) { return s->h[1] == 0.0 && s->h[2] == 0.0; }

/* Distance from segment (or point) s to t's box: the distance of a point
 * moving along a line to a convex set is convex, so a ternary search finds it. */
static double segment_box_distance(const sccd_fz_solid *s, const sccd_fz_solid *t)
{
    double lo = -s->h[0], hi = s->h[0];
    for (int it = 0; it < 60 && hi - lo > 1e-9 * (1.0 + s->h[0]); ++it) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (point_box_distance(axpy3(s->c, m1, s->a[0]), t) <= point_box_distance(axpy3(s->c, m2, s->a[0]), t))
            hi = m2;
        else
            lo = m1;
    }
    return point_box_distance(axpy3(s->c, 0.5 * (lo + hi), s->a[0]), t);
}

/* Half the extent of s's box along axis l. */
static double box_radius(const sccd_fz_solid *s, sccd_fz_v3 l)
{
    return s->h[0] * fabs(dot3(s->a[0], l)) + s->h[1] * fabs(dot3(s->a[1], l)) + s->h[2] * fabs(dot3(s->a[2], l));
}

/* Separating axes of two boxes (rectangles are boxes of zero thickness): the
 * 3 + 3 face normals and the 9 edge cross products. */
static bool boxes_intersect(const sccd_fz_solid *a, const sccd_fz_solid *b)
{
    sccd_fz_v3 axes[15], t = sub3(b->c, a->c);
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        axes[n++] = a->a[i];
        axes[n++] = b->a[i];
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            sccd_fz_v3 c = cross3(a->a[i], b->a[j]);
            if (dot3(c, c) > 1e-12)
                axes[n++] = c;
        }
    for (int i = 0; i < n; ++i)
        if (fabs(dot3(t, axes[i])) > box_radius(a, axes[i]) + box_radius(b, axes[i]) + (a->r + b->r) * sqrt(dot3(axes[i], axes[i])))
            return false;
    return true;
}

bool sccd_fz_solid_overlap(const sccd_fz_solid *a, const sccd_fz_solid *b)
{
    if (is_segment(a)) {
        double d = segment_box_distance(a, b);
        return d < a->r + b->r || d == 0.0;
    }
    if (is_segment(b))
        return sccd_fz_solid_overlap(b, a);
    return boxes_intersect(a, b); /* two boxes: never rounded in the scenes */
}

double sccd_fz_solid_plane_depth(const sccd_fz_solid *s, sccd_fz_v3 n, double d)
{
    return dot3(n, s->c) - d - box_radius(s, n) - s->r;
}

sccd_fz_solid sccd_fz_solid_inner(const sccd_fz_solid *s, double inset)
{
    sccd_fz_solid out = *s;
    out.r = s->r - inset;
    if (out.r >= 0.0)
        return out;
    for (int i = 0; i < 3; ++i)
        if (out.h[i] > 0.0)
            out.h[i] = fmax(0.0, out.h[i] + out.r);
    out.r = 0.0;
    return out;
}

/* ---- angle sets ---- */

double sccd_fz_arcs_angle(int k) { return 2.0 * SCCD_PI * k / SCCD_FZ_ANGLES; }

bool sccd_fz_arcs_crossed(const sccd_fz_arcs *s, double a0, double a1)
{
    if (!s->any)
        return false;
    double lo = fmin(a0, a1), hi = fmax(a0, a1), step = 2.0 * SCCD_PI / SCCD_FZ_ANGLES;
    if (hi - lo >= 2.0 * SCCD_PI + 2.0 * step)
        return true; /* a whole turn and more passes over every run */
    /* Samples strictly inside (lo, hi): an outside one, then inside ones, then outside again. */
    long k0 = (long)floor(lo / step) + 1, k1 = (long)ceil(hi / step) - 1;
    int phase = 0; /* 0: no outside sample yet, 1: outside seen, 2: then inside */
    for (long k = k0; k <= k1; ++k) {
        long i = ((k % SCCD_FZ_ANGLES) + SCCD_FZ_ANGLES) % SCCD_FZ_ANGLES;
        bool in = s->in[i] != 0;
        if (!in && phase == 2)
            return true;
        phase = in ? (phase >= 1 ? 2 : 0) : 1;
    }
    return false;
}

/* The shortest path from p0 to p1 through a point of segment ab: the sum of
 * the two distances is convex along the segment, so a golden-section search
 * finds its least value. */
static double via_segment(sccd_fz_v3 p0, sccd_fz_v3 p1, sccd_fz_v3 a, sccd_fz_v3 b)
{
    sccd_fz_v3 d = sub3(b, a);
    double lo = 0.0, hi = 1.0, best = INFINITY;
    for (int k = 0; k < 60; ++k) {
        double m1 = hi - 0.618033988749895 * (hi - lo), m2 = lo + 0.618033988749895 * (hi - lo), f[2];
        for (int s = 0; s < 2; ++s) {
            double m = s == 0 ? m1 : m2;
            sccd_fz_v3 e = {a.x + m * d.x, a.y + m * d.y, a.z + m * d.z};
            f[s] = sqrt(dot3(sub3(e, p0), sub3(e, p0))) + sqrt(dot3(sub3(p1, e), sub3(p1, e)));
        }
        best = fmin(best, fmin(f[0], f[1]));
        if (f[0] < f[1])
            hi = m2;
        else
            lo = m1;
    }
    return best;
}

bool sccd_fz_around_rim(sccd_fz_v3 p0, sccd_fz_v3 p1, sccd_fz_v3 c, sccd_fz_v3 u, double hu, sccd_fz_v3 w, double hw, double reach)
{
    static const double su[4] = {-1.0, 1.0, 1.0, -1.0}, sw[4] = {-1.0, -1.0, 1.0, 1.0}; /* the corners in turn */
    sccd_fz_v3 corner[4];
    for (int k = 0; k < 4; ++k)
        corner[k] = (sccd_fz_v3){c.x + su[k] * hu * u.x + sw[k] * hw * w.x, c.y + su[k] * hu * u.y + sw[k] * hw * w.y,
                                 c.z + su[k] * hu * u.z + sw[k] * hw * w.z};
    double best = INFINITY;
    for (int k = 0; k < 4; ++k)
        best = fmin(best, via_segment(p0, p1, corner[k], corner[(k + 1) % 4]));
    return best <= reach;
}
