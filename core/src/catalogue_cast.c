/* Casts of the catalogue (seed 004): the first point of o + t·d, t in
 * [0, tmax], inside a shape. Rays use tmax = ∞, segments tmax = 1 with
 * d = b − a.
 *
 * Every convex solid here is an intersection of simple constraints: slabs
 * (lo ≤ x·axis ≤ hi) and round tubes (|radial part| ≤ R). Each constraint
 * holds on one interval of t; the cast is the intersection of those intervals
 * with [0, tmax] (the slab method, which seed 004 "半直線と箱" does face by face),
 * and the first hit is its lower end, with the normal of the constraint that
 * set it. A lower end of 0 set by no constraint means the start is inside.
 * Each constraint is grown by the touching tolerance, so grazing counts. */
#include "catalogue_internal.h"

/* The parameter interval [t0, t1] still inside every constraint seen so far,
 * and the outward normal of the constraint that last raised t0. */
typedef struct clip {
    sccd_real t0, t1;
    sccd_v3 n;
    bool entered;
} clip;

static void clip_empty(clip *c)
{
    c->t0 = INFINITY;
    c->t1 = -INFINITY;
}

static void clip_range(clip *c, sccd_real tin, sccd_real tout, sccd_v3 n)
{
    if (tin > c->t0) {
        c->t0 = tin;
        c->n = n;
        c->entered = true;
    }
    if (tout < c->t1)
        c->t1 = tout;
}

/* lo ≤ x0 + t·dx ≤ hi, where x is the coordinate along unit axis. */
static void clip_slab(clip *c, sccd_real x0, sccd_real dx, sccd_real lo, sccd_real hi, sccd_v3 axis)
{
    if (dx == 0.0) {
        if (x0 < lo || x0 > hi)
            clip_empty(c);
        return;
    }
    sccd_real ta = (lo - x0) / dx, tb = (hi - x0) / dx;
    if (dx > 0.0)
        clip_range(c, ta, tb, sccd_v3_neg(axis));
    else
        clip_range(c, tb, ta, axis);
}

/* |w0 + t·wd| ≤ R: a ball (w = the full offset from a centre) or an infinite
 * round tube (w = the part perpendicular to its axis). Roots of
 * A·t² + 2B·t + C = 0 in the cancellation-free form (q / A, C / q). */
static void clip_round(clip *c, sccd_v3 w0, sccd_v3 wd, sccd_real R)
{
    sccd_real A = sccd_v3_dot(wd, wd), B = sccd_v3_dot(w0, wd), C = sccd_v3_dot(w0, w0) - R * R;
    if (A == 0.0) {
        if (C > 0.0)
            clip_empty(c);
        return;
    }
    sccd_real disc = B * B - A * C;
    if (disc < 0.0) {
        clip_empty(c);
        return;
    }
    sccd_real q = -(B + copysign(sqrt(disc), B));
    sccd_real ta = 0.0, tb = 0.0;
    if (q != 0.0) { /* q = 0 only when B = C = 0: a double root at 0 */
        ta = sccd_min(q / A, C / q);
        tb = sccd_max(q / A, C / q);
    }
    clip_range(c, ta, tb, sccd_v3_normalize(sccd_v3_mad(w0, ta, wd)));
}

static sccd_cast3 clip_result(const clip *c, sccd_v3 o, sccd_v3 d)
{
    /* A first hit at t = ∞ (a direction so small that the entry parameter
     * overflows) is no hit: the ray never gets there. */
    if (!(c->t0 <= c->t1) || !isfinite(c->t0))
        return sccd_cat_miss();
    sccd_v3 n = c->entered ? c->n : sccd_v3_normalize(sccd_v3_neg(d));
    return (sccd_cast3){true, c->t0, sccd_v3_mad(o, c->t0, d), n, 0.0, 0.0};
}

/* The tolerance scale of the cast itself: its start and, when bounded, its end. */
static sccd_real cast_mag(sccd_v3 o, sccd_v3 d, sccd_real tmax)
{
    sccd_real m = sccd_mag3(o);
    return isfinite(tmax) ? sccd_max(m, sccd_mag3(sccd_v3_mad(o, tmax, d))) : m;
}

static sccd_cast3 cast_sphere(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_sphere s)
{
    /* seed 004 "線分と球"/"半直線と球" decide hit or miss by the foot of the
     * perpendicular; the first hit parameter is the smaller root of
     * |o + t·d − c|² = r². */
    sccd_real tol = sccd_touch_slack(sccd_max(cast_mag(o, d, tmax), sccd_mag3(s.c) + s.r));
    clip c = {0.0, tmax, {0.0, 0.0, 0.0}, false};
    clip_round(&c, sccd_v3_sub(o, s.c), d, s.r + tol);
    return clip_result(&c, o, d);
}

/* The slab method on box [lo, hi] in the frame where o and d are given. */
static sccd_cast3 cast_aabb(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_v3 lo, sccd_v3 hi, sccd_real tol)
{
    clip c = {0.0, tmax, {0.0, 0.0, 0.0}, false};
    clip_slab(&c, o.x, d.x, lo.x - tol, hi.x + tol, (sccd_v3){1.0, 0.0, 0.0});
    clip_slab(&c, o.y, d.y, lo.y - tol, hi.y + tol, (sccd_v3){0.0, 1.0, 0.0});
    clip_slab(&c, o.z, d.z, lo.z - tol, hi.z + tol, (sccd_v3){0.0, 0.0, 1.0});
    return clip_result(&c, o, d);
}

static sccd_cast3 cast_aabb3(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_aabb3 box)
{
    sccd_real mag = sccd_max(cast_mag(o, d, tmax), sccd_max(sccd_mag3(box.lo), sccd_mag3(box.hi)));
    return cast_aabb(o, d, tmax, box.lo, box.hi, sccd_touch_slack(mag));
}

static sccd_cast3 cast_box3(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_box3 box)
{
    sccd_real mag = sccd_max(cast_mag(o, d, tmax), sccd_mag3(box.c) + box.h.x + box.h.y + box.h.z);
    sccd_v3 lo = sccd_quat_inv_apply(box.q, sccd_v3_sub(o, box.c)), ld = sccd_quat_inv_apply(box.q, d);
    sccd_cast3 r = cast_aabb(lo, ld, tmax, sccd_v3_neg(box.h), box.h, sccd_touch_slack(mag));
    if (r.hit) {
        /* Back to the world: the point straight from the world ray, so it
         * carries no rotation round-off. */
        r.point = sccd_v3_mad(o, r.t, d);
        r.normal = sccd_quat_apply(box.q, r.normal);
    }
    return r;
}

sccd_cast3 sccd_cat_cast_cylinder(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_cylinder cyl)
{
    /* seed 004 "円柱と半直線"/"円柱と線分" test the common perpendicular against
     * the radius, then the axial range; here the same two conditions are
     * intervals of t: the slab between the caps and the infinite tube. */
    sccd_real mag = sccd_max(cast_mag(o, d, tmax), sccd_max(sccd_mag3(cyl.a), sccd_mag3(cyl.b)) + cyl.r);
    sccd_real tol = sccd_touch_slack(mag);
    sccd_cat_axis ax = sccd_cat_axis_make(cyl.a, cyl.b);
    sccd_real z0, dz = sccd_v3_dot(d, ax.u);
    sccd_v3 w0 = sccd_cat_axis_split(ax, o, &z0);
    clip c = {0.0, tmax, {0.0, 0.0, 0.0}, false};
    clip_slab(&c, z0, dz, -tol, ax.h + tol, ax.u);
    clip_round(&c, w0, sccd_v3_mad(d, -dz, ax.u), cyl.r + tol);
    return clip_result(&c, o, d);
}

static sccd_cast3 earlier(sccd_cast3 x, sccd_cast3 y)
{
    if (!x.hit)
        return y;
    return y.hit && y.t < x.t ? y : x;
}

/* seed 004 "球の軌跡と半直線": a capsule is the union of its cylinder and
 * its two end spheres; the first hit of a union is the earliest of the
 * pieces' first hits. */
static sccd_cast3 cast_capsule3(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_capsule3 cap)
{
    sccd_cast3 r = sccd_cat_cast_cylinder(o, d, tmax, (sccd_cylinder){cap.a, cap.b, cap.r});
    r = earlier(r, cast_sphere(o, d, tmax, (sccd_sphere){cap.a, cap.r}));
    return earlier(r, cast_sphere(o, d, tmax, (sccd_sphere){cap.b, cap.r}));
}

bool sccd_cat_tri_degenerate(sccd_triangle t)
{
    sccd_v3 e1 = sccd_v3_sub(t.b, t.a), e2 = sccd_v3_sub(t.c, t.a), e3 = sccd_v3_sub(t.c, t.b);
    sccd_real l2 = sccd_max(sccd_v3_len2(e1), sccd_max(sccd_v3_len2(e2), sccd_v3_len2(e3)));
    /* |n| = |e1||e2| sin: degenerate when the sine is below ~1e-12. */
    return sccd_v3_len2(sccd_v3_cross(e1, e2)) <= 1e-24 * l2 * l2;
}

void sccd_cat_barycentric(sccd_v3 p, sccd_triangle t, sccd_real *u, sccd_real *v)
{
    /* Least squares p − a = u·e1 + v·e2 by Cramer's rule on the Gram matrix. */
    sccd_v3 e1 = sccd_v3_sub(t.b, t.a), e2 = sccd_v3_sub(t.c, t.a), w = sccd_v3_sub(p, t.a);
    sccd_real d11 = sccd_v3_dot(e1, e1), d12 = sccd_v3_dot(e1, e2), d22 = sccd_v3_dot(e2, e2);
    sccd_real w1 = sccd_v3_dot(w, e1), w2 = sccd_v3_dot(w, e2);
    sccd_real den = d11 * d22 - d12 * d12;
    *u = (d22 * w1 - d12 * w2) / den;
    *v = (d11 * w2 - d12 * w1) / den;
}

/* A degenerate triangle is the segment between its farthest corners: cast
 * against it as a capsule of radius 0 and express the point on that edge. */
static sccd_cast3 cast_degenerate_triangle(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_triangle tri)
{
    int best = 0;
    sccd_real best_len2 = -1.0;
    for (int i = 0; i < 3; ++i) {
        sccd_real l2 = sccd_v3_len2(sccd_v3_sub(sccd_cat_tri_corner(tri, (i + 1) % 3), sccd_cat_tri_corner(tri, i)));
        if (l2 > best_len2) {
            best = i;
            best_len2 = l2;
        }
    }
    sccd_v3 p = sccd_cat_tri_corner(tri, best), q = sccd_cat_tri_corner(tri, (best + 1) % 3);
    sccd_cast3 r = cast_capsule3(o, d, tmax, (sccd_capsule3){p, q, 0.0});
    if (r.hit) {
        sccd_real s;
        sccd_closest_point_segment3(r.point, p, q, &s);
        sccd_cat_edge_barycentric(best, s, &r.u, &r.v);
    }
    return r;
}

/* A ray in the triangle's plane (within the tolerance): clip it by the three
 * edge half-planes (Cyrus–Beck); inward edge normal m = n × edge. */
static sccd_cast3 cast_coplanar_triangle(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_triangle tri, sccd_v3 n,
                                         sccd_real tol)
{
    clip c = {0.0, tmax, {0.0, 0.0, 0.0}, false};
    for (int i = 0; i < 3; ++i) {
        sccd_v3 p = sccd_cat_tri_corner(tri, i), q = sccd_cat_tri_corner(tri, (i + 1) % 3);
        sccd_v3 m = sccd_v3_normalize(sccd_v3_cross(n, sccd_v3_sub(q, p)));
        clip_slab(&c, sccd_v3_dot(sccd_v3_sub(o, p), m), sccd_v3_dot(d, m), -tol, INFINITY, m);
    }
    sccd_cast3 r = clip_result(&c, o, d);
    if (r.hit) {
        r.normal = n;
        sccd_cat_barycentric(r.point, tri, &r.u, &r.v);
    }
    return r;
}

sccd_cast3 sccd_cat_cast_triangle(sccd_v3 o, sccd_v3 d, sccd_real tmax, sccd_triangle tri)
{
    if (sccd_cat_tri_degenerate(tri))
        return cast_degenerate_triangle(o, d, tmax, tri);
    sccd_real tol = sccd_touch_slack(sccd_max(cast_mag(o, d, tmax), sccd_cat_tri_mag(tri)));
    sccd_v3 e1 = sccd_v3_sub(tri.b, tri.a), e2 = sccd_v3_sub(tri.c, tri.a);
    sccd_v3 n = sccd_v3_cross(e1, e2);
    sccd_real nlen = sccd_v3_len(n);
    sccd_v3 nhat = sccd_v3_scale(n, 1.0 / nlen);
    /* seed 004 "線分と三角形": solve [−d, e1, e2]·(t, u, v) = o − a by
     * Cramer's rule (Möller–Trumbore). det = e1·(d × e2) = −d·n. */
    sccd_v3 pvec = sccd_v3_cross(d, e2);
    sccd_real det = sccd_v3_dot(e1, pvec);
    if (fabs(det) <= 1e-12 * sccd_v3_len(d) * nlen) {
        /* Parallel to the plane (or d = 0): a hit only from within the plane. */
        if (fabs(sccd_v3_dot(sccd_v3_sub(o, tri.a), nhat)) > tol)
            return sccd_cat_miss();
        return cast_coplanar_triangle(o, d, tmax, tri, nhat, tol);
    }
    sccd_v3 tvec = sccd_v3_sub(o, tri.a), qvec = sccd_v3_cross(tvec, e1);
    sccd_real u = sccd_v3_dot(tvec, pvec) / det, v = sccd_v3_dot(d, qvec) / det;
    sccd_real t = sccd_v3_dot(e2, qvec) / det;
    /* Barycentric slack equal to moving each edge out by tol: u changes by
     * 1 per altitude |n| / |e2| of b, and so on. */
    sccd_real su = tol * sccd_v3_len(e2) / nlen, sv = tol * sccd_v3_len(e1) / nlen;
    sccd_real sw = tol * sccd_v3_dist(tri.c, tri.b) / nlen;
    if (!(t >= 0.0 && t <= tmax) || !isfinite(t) || u < -su || v < -sv || u + v > 1.0 + sw)
        return sccd_cat_miss();
    sccd_v3 normal = sccd_v3_dot(n, d) > 0.0 ? sccd_v3_neg(nhat) : nhat;
    return (sccd_cast3){true, t, sccd_v3_mad(o, t, d), normal, u, v};
}

/* Each public cast pair validates its input and calls the core on a ray
 * (tmax = ∞) or a segment (d = b − a, tmax = 1); one macro so the twelve
 * wrappers cannot drift apart. */
#define SCCD_CAT_CASTS(shape, shape_type, is_valid, core)                                           \
    sccd_cast3 sccd_raycast_##shape(sccd_ray3 ray, shape_type s)                                    \
    {                                                                                               \
        if (!sccd_is_valid_ray3(ray) || !is_valid(s)) {                                             \
            SCCD_ASSERT(sccd_is_valid_ray3(ray) && is_valid(s));                                    \
            return sccd_cat_miss();                                                                 \
        }                                                                                           \
        return core(ray.o, ray.d, INFINITY, s);                                                     \
    }                                                                                               \
    sccd_cast3 sccd_segment_vs_##shape(sccd_segment3 seg, shape_type s)                             \
    {                                                                                               \
        if (!sccd_is_valid_segment3(seg) || !is_valid(s)) {                                         \
            SCCD_ASSERT(sccd_is_valid_segment3(seg) && is_valid(s));                                \
            return sccd_cat_miss();                                                                 \
        }                                                                                           \
        return core(seg.a, sccd_v3_sub(seg.b, seg.a), 1.0, s);                                      \
    }

SCCD_CAT_CASTS(triangle, sccd_triangle, sccd_is_valid_triangle, sccd_cat_cast_triangle)
SCCD_CAT_CASTS(sphere, sccd_sphere, sccd_is_valid_sphere, cast_sphere)
SCCD_CAT_CASTS(aabb3, sccd_aabb3, sccd_is_valid_aabb3, cast_aabb3)
SCCD_CAT_CASTS(box3, sccd_box3, sccd_is_valid_box3, cast_box3)
SCCD_CAT_CASTS(cylinder, sccd_cylinder, sccd_is_valid_cylinder, sccd_cat_cast_cylinder)
SCCD_CAT_CASTS(capsule3, sccd_capsule3, sccd_is_valid_capsule3, cast_capsule3)
