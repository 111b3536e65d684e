#include "shape_oracle.h"
#include "geom_oracle.h"
#include "sectorccd/geometry.h"

/* ---- random shapes ---- */

/* A size in [0, s], exactly 0 one time in eight (degenerate shapes). */
static double rng_size(sccd_rng *g, double s) { return sccd_rng_int(g, 8) == 0 ? 0.0 : sccd_rng_uniform(g, 0.0, s); }

sccd_shape2 sccd_rng_shape2(sccd_rng *g, sccd_shape_type type, double s)
{
    sccd_shape2 sh = {.type = type};
    switch (type) {
    case SCCD_SHAPE_CIRCLE:
        sh.circle = (sccd_circle){sccd_rng_v2(g, 0.5 * s), rng_size(g, s)};
        break;
    case SCCD_SHAPE_CAPSULE: {
        sccd_v2 a = sccd_rng_v2(g, s);
        sccd_v2 b = sccd_rng_int(g, 8) == 0 ? a : sccd_rng_v2(g, s);
        sh.capsule = (sccd_capsule2){a, b, rng_size(g, 0.5 * s)};
        break;
    }
    case SCCD_SHAPE_BOX:
        sh.box = (sccd_box2){sccd_rng_v2(g, 0.5 * s), sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI)),
                             {rng_size(g, s), rng_size(g, s)}};
        break;
    case SCCD_SHAPE_POLY: {
        /* Points on an ellipse in angle order are convex and counter-clockwise. */
        int n = 1 + sccd_rng_int(g, SCCD_POLY_MAX);
        double ang[SCCD_POLY_MAX];
        for (int i = 0; i < n; ++i)
            ang[i] = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        for (int i = 1; i < n; ++i)
            for (int j = i; j > 0 && ang[j - 1] > ang[j]; --j) {
                double x = ang[j];
                ang[j] = ang[j - 1];
                ang[j - 1] = x;
            }
        double ex = sccd_rng_uniform(g, 0.05, 1.0) * s, ey = sccd_rng_uniform(g, 0.05, 1.0) * s;
        sccd_v2 c = sccd_rng_v2(g, 0.5 * s);
        sh.poly.n = n;
        for (int i = 0; i < n; ++i)
            sh.poly.v[i] = (sccd_v2){c.x + ex * cos(ang[i]), c.y + ey * sin(ang[i])};
        sh.poly.r = sccd_rng_int(g, 2) ? 0.0 : rng_size(g, 0.3 * s);
        break;
    }
    }
    return sh;
}

sccd_shape3 sccd_rng_shape3(sccd_rng *g, sccd_shape_type type, double s)
{
    sccd_shape3 sh = {.type = type};
    switch (type) {
    case SCCD_SHAPE_CIRCLE:
        sh.sphere = (sccd_sphere){sccd_rng_v3(g, 0.5 * s), rng_size(g, s)};
        break;
    case SCCD_SHAPE_CAPSULE: {
        sccd_v3 a = sccd_rng_v3(g, s);
        sccd_v3 b = sccd_rng_int(g, 8) == 0 ? a : sccd_rng_v3(g, s);
        sh.capsule = (sccd_capsule3){a, b, rng_size(g, 0.5 * s)};
        break;
    }
    default:
        sh.type = SCCD_SHAPE_BOX;
        sh.box = (sccd_box3){sccd_rng_v3(g, 0.5 * s), sccd_rng_quat(g), {rng_size(g, s), rng_size(g, s), rng_size(g, s)}};
        break;
    }
    return sh;
}

/* ---- 2D oracle: explicit vertex lists ---- */

typedef struct hull2 { sccd_v2 v[SCCD_POLY_MAX]; int n; double r; } hull2;

static sccd_v2 rot2(double c, double s, sccd_v2 p) { return (sccd_v2){c * p.x - s * p.y, s * p.x + c * p.y}; }

static sccd_v2 place2(sccd_xf2 xf, sccd_v2 p)
{
    sccd_v2 q = rot2(xf.q.c, xf.q.s, p);
    return (sccd_v2){xf.p.x + q.x, xf.p.y + q.y};
}

static hull2 hull2_of(const sccd_shape2 *s, sccd_xf2 xf)
{
    hull2 h = {.n = 1};
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        h.v[0] = place2(xf, s->circle.c);
        h.r = s->circle.r;
        break;
    case SCCD_SHAPE_CAPSULE:
        h.v[0] = place2(xf, s->capsule.a);
        h.v[1] = place2(xf, s->capsule.b);
        h.n = 2;
        h.r = s->capsule.r;
        break;
    case SCCD_SHAPE_BOX: {
        static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
        for (int i = 0; i < 4; ++i) {
            sccd_v2 l = rot2(s->box.q.c, s->box.q.s, (sccd_v2){sx[i] * s->box.h.x, sy[i] * s->box.h.y});
            h.v[i] = place2(xf, (sccd_v2){s->box.c.x + l.x, s->box.c.y + l.y});
        }
        h.n = 4;
        break;
    }
    case SCCD_SHAPE_POLY:
        h.n = s->poly.n;
        for (int i = 0; i < h.n; ++i)
            h.v[i] = place2(xf, s->poly.v[i]);
        h.r = s->poly.r;
        break;
    }
    return h;
}

/* Inside a counter-clockwise convex hull of at least three points. */
static bool hull2_contains(const hull2 *h, sccd_v2 p)
{
    /* A flat hull (zero area) is its edges: no interior to be inside of. */
    double area = 0.0;
    for (int i = 0; i < h->n; ++i)
        area += h->v[i].x * h->v[(i + 1) % h->n].y - h->v[i].y * h->v[(i + 1) % h->n].x;
    if (h->n < 3 || !(area > 0.0))
        return false;
    for (int i = 0; i < h->n; ++i) {
        sccd_v2 a = h->v[i], b = h->v[(i + 1) % h->n];
        if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0.0)
            return false;
    }
    return true;
}

static int hull2_edges(const hull2 *h) { return h->n <= 2 ? 1 : h->n; }

double sccd_oracle_distance2(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb)
{
    hull2 ha = hull2_of(a, xa), hb = hull2_of(b, xb);
    for (int i = 0; i < hb.n; ++i)
        if (hull2_contains(&ha, hb.v[i]))
            return 0.0;
    for (int i = 0; i < ha.n; ++i)
        if (hull2_contains(&hb, ha.v[i]))
            return 0.0;
    double core = INFINITY;
    /* Points and segments by the golden-section search: the library's own
     * segment distance is what answers them (distance2.c), so it cannot
     * check itself. */
    if (ha.n <= 2 && hb.n <= 2)
        return fmax(0.0, sccd_oracle_segment_distance2(ha.v[0], ha.v[ha.n - 1], hb.v[0], hb.v[hb.n - 1]) - ha.r - hb.r);
    for (int i = 0; i < hull2_edges(&ha); ++i)
        for (int j = 0; j < hull2_edges(&hb); ++j)
            core = fmin(core, sccd_distance_segment_segment2(ha.v[i], ha.v[(i + 1) % ha.n], hb.v[j],
                                                            hb.v[(j + 1) % hb.n]));
    return fmax(0.0, core - ha.r - hb.r);
}

double sccd_oracle_farthest2(const sccd_shape2 *s, sccd_v2 p)
{
    hull2 h = hull2_of(s, sccd_xf2_identity());
    double best = 0.0;
    for (int i = 0; i < h.n; ++i)
        for (int k = 0; k < 256; ++k) {
            double ang = 2.0 * SCCD_PI * k / 256;
            sccd_v2 x = {h.v[i].x + h.r * cos(ang), h.v[i].y + h.r * sin(ang)};
            best = fmax(best, hypot(x.x - p.x, x.y - p.y));
        }
    return best;
}

/* ---- 3D oracle ---- */

typedef struct frame3 { sccd_v3 c, ax[3], h; } frame3; /* a placed box: centre, unit axes, half extents */

static sccd_v3 mat_apply(const double m[3][3], sccd_v3 v)
{
    return (sccd_v3){m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                     m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
}

static void quat_matrix(sccd_quat q, double m[3][3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - z * w), m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w), m[2][1] = 2 * (y * z + x * w), m[2][2] = 1 - 2 * (x * x + y * y);
}

static sccd_v3 place3(sccd_xf3 xf, sccd_v3 p)
{
    double m[3][3];
    quat_matrix(xf.q, m);
    return sccd_v3_add(xf.p, mat_apply(m, p));
}

static frame3 frame_of(sccd_box3 b, sccd_xf3 xf)
{
    double mx[3][3], mb[3][3];
    quat_matrix(xf.q, mx);
    quat_matrix(b.q, mb);
    frame3 f = {place3(xf, b.c), {{0}}, b.h};
    for (int i = 0; i < 3; ++i) {
        sccd_v3 e = {mb[0][i], mb[1][i], mb[2][i]};
        f.ax[i] = mat_apply(mx, e);
    }
    return f;
}

static double comp(sccd_v3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }

static sccd_v3 frame_corner(const frame3 *f, int k)
{
    sccd_v3 p = f->c;
    for (int i = 0; i < 3; ++i)
        p = sccd_v3_mad(p, (k >> i & 1) ? comp(f->h, i) : -comp(f->h, i), f->ax[i]);
    return p;
}

/* Point to solid box: clamp the local coordinates. */
static double point_box(const frame3 *f, sccd_v3 p)
{
    sccd_v3 d = sccd_v3_sub(p, f->c);
    double s = 0.0;
    for (int i = 0; i < 3; ++i) {
        double l = sccd_v3_dot(d, f->ax[i]), h = comp(f->h, i);
        double e = l > h ? l - h : (l < -h ? -h - l : 0.0);
        s += e * e;
    }
    return sqrt(s);
}

/* Segment p0–p1 meets the solid box: Liang–Barsky clipping in the box frame. */
static bool segment_hits_box(const frame3 *f, sccd_v3 p0, sccd_v3 p1)
{
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 3; ++i) {
        double a = sccd_v3_dot(sccd_v3_sub(p0, f->c), f->ax[i]), d = sccd_v3_dot(sccd_v3_sub(p1, p0), f->ax[i]);
        double h = comp(f->h, i);
        if (fabs(d) < 1e-300) {
            if (fabs(a) > h)
                return false;
            continue;
        }
        double t0 = (-h - a) / d, t1 = (h - a) / d;
        if (t0 > t1) {
            double x = t0;
            t0 = t1;
            t1 = x;
        }
        lo = fmax(lo, t0);
        hi = fmin(hi, t1);
        if (lo > hi)
            return false;
    }
    return true;
}

static double segment_box(const frame3 *f, sccd_v3 p0, sccd_v3 p1)
{
    if (segment_hits_box(f, p0, p1))
        return 0.0;
    double d = fmin(point_box(f, p0), point_box(f, p1));
    for (int k = 0; k < 8; ++k)
        for (int i = 0; i < 3; ++i)
            if (!(k >> i & 1))
                d = fmin(d, sccd_distance_segment_segment3(p0, p1, frame_corner(f, k), frame_corner(f, k | 1 << i)));
    return d;
}

/* Separating-axis test of two boxes (15 axes; near-parallel cross axes skipped,
 * the face axes cover them). */
static bool boxes_overlap(const frame3 *a, const frame3 *b)
{
    sccd_v3 axes[15];
    int n = 0;
    for (int i = 0; i < 3; ++i) {
        axes[n++] = a->ax[i];
        axes[n++] = b->ax[i];
        for (int j = 0; j < 3; ++j) {
            sccd_v3 c = sccd_v3_cross(a->ax[i], b->ax[j]);
            if (sccd_v3_len2(c) > 1e-12)
                axes[n++] = sccd_v3_normalize(c);
        }
    }
    sccd_v3 d = sccd_v3_sub(b->c, a->c);
    for (int k = 0; k < n; ++k) {
        double ra = 0.0, rb = 0.0;
        for (int i = 0; i < 3; ++i) {
            ra += comp(a->h, i) * fabs(sccd_v3_dot(axes[k], a->ax[i]));
            rb += comp(b->h, i) * fabs(sccd_v3_dot(axes[k], b->ax[i]));
        }
        if (fabs(sccd_v3_dot(axes[k], d)) > ra + rb)
            return false;
    }
    return true;
}

/* Disjoint boxes: the closest pair is vertex–solid or edge–edge. */
static double box_box(const frame3 *a, const frame3 *b)
{
    if (boxes_overlap(a, b))
        return 0.0;
    double d = INFINITY;
    for (int k = 0; k < 8; ++k) {
        d = fmin(d, point_box(b, frame_corner(a, k)));
        d = fmin(d, point_box(a, frame_corner(b, k)));
    }
    for (int k = 0; k < 8; ++k)
        for (int i = 0; i < 3; ++i) {
            if (k >> i & 1)
                continue;
            for (int m = 0; m < 8; ++m)
                for (int j = 0; j < 3; ++j)
                    if (!(m >> j & 1))
                        d = fmin(d, sccd_distance_segment_segment3(frame_corner(a, k), frame_corner(a, k | 1 << i),
                                                                  frame_corner(b, m), frame_corner(b, m | 1 << j)));
        }
    return d;
}

/* A sphere or capsule as a segment (a point is a zero-length one) and radius. */
static void segment_of(const sccd_shape3 *s, sccd_xf3 xf, sccd_v3 *p0, sccd_v3 *p1, double *r)
{
    if (s->type == SCCD_SHAPE_CIRCLE) {
        *p0 = *p1 = place3(xf, s->sphere.c);
        *r = s->sphere.r;
    } else {
        *p0 = place3(xf, s->capsule.a);
        *p1 = place3(xf, s->capsule.b);
        *r = s->capsule.r;
    }
}

double sccd_oracle_distance3(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb)
{
    if (a->type == SCCD_SHAPE_BOX && b->type == SCCD_SHAPE_BOX) {
        frame3 fa = frame_of(a->box, xa), fb = frame_of(b->box, xb);
        return box_box(&fa, &fb);
    }
    if (a->type == SCCD_SHAPE_BOX || b->type == SCCD_SHAPE_BOX) {
        const sccd_shape3 *box = a->type == SCCD_SHAPE_BOX ? a : b, *other = box == a ? b : a;
        frame3 f = frame_of(box->box, box == a ? xa : xb);
        sccd_v3 p0, p1;
        double r;
        segment_of(other, other == a ? xa : xb, &p0, &p1, &r);
        return fmax(0.0, segment_box(&f, p0, p1) - r);
    }
    sccd_v3 a0, a1, b0, b1;
    double ra, rb;
    segment_of(a, xa, &a0, &a1, &ra);
    segment_of(b, xb, &b0, &b1, &rb);
    return fmax(0.0, sccd_oracle_segment_distance3(a0, a1, b0, b1) - ra - rb); /* not the library's: see 2D */
}

double sccd_oracle_farthest3(const sccd_shape3 *s, sccd_v3 p)
{
    sccd_v3 pts[8];
    int n;
    double r = 0.0;
    if (s->type == SCCD_SHAPE_BOX) {
        frame3 f = frame_of(s->box, sccd_xf3_identity());
        for (int k = 0; k < 8; ++k)
            pts[k] = frame_corner(&f, k);
        n = 8;
    } else {
        segment_of(s, sccd_xf3_identity(), &pts[0], &pts[1], &r);
        n = 2;
    }
    /* Dense directions over the sphere of radius r around each core point. */
    double best = 0.0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 64; ++k)
            for (int m = 0; m <= 32; ++m) {
                double th = SCCD_PI * m / 32, ph = 2.0 * SCCD_PI * k / 64;
                sccd_v3 u = {sin(th) * cos(ph), sin(th) * sin(ph), cos(th)};
                best = fmax(best, sccd_v3_dist(sccd_v3_mad(pts[i], r, u), p));
            }
    return best;
}
