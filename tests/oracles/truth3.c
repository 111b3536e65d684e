/* Exact sweep membership by arcs of the point's circle (truth3.h). p's circle about the axis, X(ψ) = c + ρ(cos ψ·e1 +
 * sin ψ·e2) with X(0) = p, is in the sweep at ψ = −τ for a turn τ in the
 * angle range exactly when X(−τ) lies in the shape at t = 0. For a box each
 * slab condition |(X(ψ) − centre)·axis_k| ≤ h_k is C + M·cos(ψ − ψ0) in an
 * interval: one or two arcs in closed form; their intersection over the three
 * axes is every arc where the circle is inside (a circle can meet a box in
 * several arcs). A sphere is one such condition. */
#include "truth3.h"

#include <stdlib.h>

#define TWO_PI (2.0 * SCCD_PI)
#define MAX_ARCS 16

typedef struct arcs { int n; sccd_real lo[MAX_ARCS], hi[MAX_ARCS]; } arcs; /* in [0, 2π], sorted */

/* Adds [lo, hi] (any real numbers, hi − lo < 2π) split at 2π. */
static void arcs_add(arcs *a, sccd_real lo, sccd_real hi)
{
    sccd_real s = floor(lo / TWO_PI) * TWO_PI;
    lo -= s;
    hi -= s;
    if (hi > TWO_PI) {
        a->lo[a->n] = 0.0;
        a->hi[a->n++] = hi - TWO_PI;
        hi = TWO_PI;
    }
    a->lo[a->n] = lo;
    a->hi[a->n++] = hi;
}

static arcs arcs_full(void) { return (arcs){1, {0.0}, {TWO_PI}}; }

/* {ψ : lo ≤ C + M·cos(ψ − ψ0) ≤ hi}. */
static arcs arcs_cos(sccd_real C, sccd_real M, sccd_real psi0, sccd_real lo, sccd_real hi)
{
    arcs a = {0};
    if (M <= 0.0)
        return (C >= lo && C <= hi) ? arcs_full() : a;
    sccd_real cl = (lo - C) / M, ch = (hi - C) / M;
    if (cl > 1.0 || ch < -1.0)
        return a;
    sccd_real g1 = acos(sccd_min(ch, 1.0)), g2 = acos(sccd_max(cl, -1.0)); /* |ψ − ψ0| in [g1, g2] */
    if (g1 == 0.0 && g2 >= SCCD_PI)
        return arcs_full();
    if (g1 == 0.0) {
        arcs_add(&a, psi0 - g2, psi0 + g2);
    } else {
        arcs_add(&a, psi0 + g1, psi0 + g2);
        arcs_add(&a, psi0 - g2, psi0 - g1);
    }
    return a;
}

static arcs arcs_intersect(const arcs *a, const arcs *b)
{
    arcs o = {0};
    for (int i = 0; i < a->n; ++i)
        for (int j = 0; j < b->n; ++j) {
            sccd_real lo = sccd_max(a->lo[i], b->lo[j]), hi = sccd_min(a->hi[i], b->hi[j]);
            if (lo <= hi && o.n < MAX_ARCS) {
                o.lo[o.n] = lo;
                o.hi[o.n++] = hi;
            }
        }
    return o;
}

/* p's circle about the axis: centre, radius, e1 towards p, e2 = axis × e1. */
typedef struct circle3 { sccd_v3 c, e1, e2; sccd_real rho; } circle3;

static circle3 point_circle(sccd_v3 center, sccd_v3 axis, sccd_v3 p)
{
    circle3 k;
    sccd_v3 d = sccd_v3_sub(p, center);
    k.c = sccd_v3_mad(center, sccd_v3_dot(d, axis), axis);
    sccd_v3 radial = sccd_v3_sub(p, k.c);
    k.rho = sccd_v3_len(radial);
    k.e1 = k.rho > 0.0 ? sccd_v3_scale(radial, 1.0 / k.rho) : SCCD_FALLBACK_V3;
    k.e2 = sccd_v3_cross(axis, k.e1);
    return k;
}

/* Arcs of ψ where (X(ψ) − q)·n lies in [lo, hi]. */
static arcs circle_slab(const circle3 *k, sccd_v3 q, sccd_v3 n, sccd_real lo, sccd_real hi)
{
    sccd_real A = k->rho * sccd_v3_dot(k->e1, n), B = k->rho * sccd_v3_dot(k->e2, n);
    return arcs_cos(sccd_v3_dot(sccd_v3_sub(k->c, q), n), hypot(A, B), atan2(B, A), lo, hi);
}

/* Does ψ = −τ, τ in the turn's range, fall in the arcs? */
static bool window_meets(const arcs *in, sccd_real angle, sccd_real *witness)
{
    arcs w = {0};
    if (fabs(angle) >= TWO_PI)
        w = arcs_full();
    else
        arcs_add(&w, sccd_min(0.0, -angle), sccd_max(0.0, -angle));
    arcs x = arcs_intersect(in, &w);
    if (x.n == 0)
        return false;
    if (witness) {
        sccd_real psi = 0.5 * (x.lo[0] + x.hi[0]);
        /* τ = −ψ, moved by whole turns into the angle range */
        sccd_real tau = -psi;
        sccd_real lo = sccd_min(0.0, angle), hi = sccd_max(0.0, angle);
        while (tau < lo)
            tau += TWO_PI;
        while (tau > hi)
            tau -= TWO_PI;
        *witness = tau;
    }
    return true;
}

bool sccd_truth3_box_rot(sccd_box3 box, sccd_v3 center, sccd_v3 axis, sccd_real angle, sccd_v3 p, sccd_real *witness)
{
    circle3 k = point_circle(center, axis, p);
    const sccd_v3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const sccd_real h[3] = {box.h.x, box.h.y, box.h.z};
    arcs in = arcs_full();
    for (int i = 0; i < 3 && in.n > 0; ++i) {
        arcs s = circle_slab(&k, box.c, sccd_quat_apply(box.q, e[i]), -h[i], h[i]);
        in = arcs_intersect(&in, &s);
    }
    return window_meets(&in, angle, witness);
}

bool sccd_truth3_sphere_rot(sccd_sphere s, sccd_v3 center, sccd_v3 axis, sccd_real angle, sccd_v3 p, sccd_real *witness)
{
    /* |X − c_s|² = |k.c − c_s|² + ρ² + 2ρ·(cos ψ e1 + sin ψ e2)·(k.c − c_s) ≤ r² */
    circle3 k = point_circle(center, axis, p);
    sccd_v3 d = sccd_v3_sub(k.c, s.c);
    sccd_real A = 2.0 * k.rho * sccd_v3_dot(k.e1, d), B = 2.0 * k.rho * sccd_v3_dot(k.e2, d);
    arcs in = arcs_cos(sccd_v3_len2(d) + k.rho * k.rho, hypot(A, B), atan2(B, A), -INFINITY, s.r * s.r);
    return window_meets(&in, angle, witness);
}

/* Rodrigues as a matrix-free formula: v cos + (a × v) sin + a (a·v)(1 − cos). */
static sccd_v3 rotate(sccd_v3 a, sccd_real ang, sccd_v3 v)
{
    sccd_real c = cos(ang), s = sin(ang);
    sccd_v3 out = sccd_v3_scale(v, c);
    out = sccd_v3_mad(out, s, sccd_v3_cross(a, v));
    return sccd_v3_mad(out, sccd_v3_dot(a, v) * (1.0 - c), a);
}

sccd_v3 sccd_truth3_point_at(sccd_motion3 m, sccd_real t, sccd_v3 x)
{
    sccd_v3 c0 = sccd_xf3_apply(m.start, m.center);
    sccd_v3 arm = sccd_v3_sub(sccd_xf3_apply(m.start, x), c0);
    return sccd_v3_add(sccd_v3_mad(c0, t, m.dp), rotate(m.axis, t * m.angle, arm));
}

static sccd_real pick(sccd_rng *g, sccd_real h, bool on_boundary)
{
    if (on_boundary)
        return sccd_rng_int(g, 2) ? h : -h;
    return sccd_rng_uniform(g, -h, h);
}

sccd_v3 sccd_truth3_shape_point(const sccd_shape3 *shape, sccd_rng *g)
{
    switch (shape->type) {
    case SCCD_SHAPE_BOX: {
        /* boundary dimensions: 0 interior, 1 face, 2 edge, 3 corner */
        int k = sccd_rng_int(g, 4), first = sccd_rng_int(g, 3);
        sccd_real h[3] = {shape->box.h.x, shape->box.h.y, shape->box.h.z}, q[3];
        for (int i = 0; i < 3; ++i)
            q[i] = pick(g, h[i], ((i - first + 3) % 3) < k);
        return sccd_v3_add(shape->box.c, sccd_quat_apply(shape->box.q, (sccd_v3){q[0], q[1], q[2]}));
    }
    case SCCD_SHAPE_CIRCLE:
    case SCCD_SHAPE_CAPSULE: {
        sccd_v3 a = shape->type == SCCD_SHAPE_CIRCLE ? shape->sphere.c : shape->capsule.a;
        sccd_v3 b = shape->type == SCCD_SHAPE_CIRCLE ? shape->sphere.c : shape->capsule.b;
        sccd_real r = shape->type == SCCD_SHAPE_CIRCLE ? shape->sphere.r : shape->capsule.r;
        sccd_real t = sccd_rng_int(g, 4) == 0 ? (sccd_real)sccd_rng_int(g, 2) : sccd_rng_uniform(g, 0.0, 1.0);
        sccd_real rad = sccd_rng_int(g, 2) ? r : r * cbrt(sccd_rng_uniform(g, 0.0, 1.0));
        return sccd_v3_mad(sccd_v3_lerp(a, b, t), rad, sccd_rng_unit3(g));
    }
    case SCCD_SHAPE_POLY: break;
    }
    return (sccd_v3){0.0, 0.0, 0.0};
}

sccd_v3 sccd_truth3_sample(const sccd_shape3 *shape, sccd_motion3 m, sccd_rng *g)
{
    int k = sccd_rng_int(g, 10);
    sccd_real t = k == 0 ? 0.0 : (k == 1 ? 1.0 : sccd_rng_uniform(g, 0.0, 1.0));
    return sccd_truth3_point_at(m, t, sccd_truth3_shape_point(shape, g));
}

sccd_quat sccd_truth3_quat_from_axes(sccd_v3 x, sccd_v3 y, sccd_v3 z)
{
    sccd_real m[3][3] = {{x.x, y.x, z.x}, {x.y, y.y, z.y}, {x.z, y.z, z.z}};
    sccd_real tr = m[0][0] + m[1][1] + m[2][2];
    if (tr > 0.0) {
        sccd_real w = 0.5 * sqrt(1.0 + tr);
        return sccd_quat_normalize((sccd_quat){(m[2][1] - m[1][2]) / (4 * w), (m[0][2] - m[2][0]) / (4 * w),
                                               (m[1][0] - m[0][1]) / (4 * w), w});
    }
    /* the largest diagonal term keeps the square root away from zero */
    int a = m[0][0] > m[1][1] ? (m[0][0] > m[2][2] ? 0 : 2) : (m[1][1] > m[2][2] ? 1 : 2);
    int b = (a + 1) % 3, c = (a + 2) % 3;
    sccd_real s = 0.5 * sqrt(1.0 + m[a][a] - m[b][b] - m[c][c]);
    sccd_real v[3];
    v[a] = s;
    v[b] = (m[b][a] + m[a][b]) / (4 * s);
    v[c] = (m[c][a] + m[a][c]) / (4 * s);
    return sccd_quat_normalize((sccd_quat){v[0], v[1], v[2], (m[c][b] - m[b][c]) / (4 * s)});
}
