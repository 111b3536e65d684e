/* Support functions, farthest distances and AABBs of the convex shapes, all
 * through the shape's core points and rounding radius (support.h). */
#include "sectorccd/support.h"
#include "convex2.h"
#include "tolerance.h"
#include "unchecked.h"

/* A 2D shape's core points, in place (a box's corners, a capsule's ends
 * copied to `corners`): *n of them, *r the rounding radius. Read where
 * they are, not copied into a proxy first: the passes over them read each
 * once. */
static const sccd_v2 *core2_points(const sccd_shape2 *s, sccd_v2 corners[4], int *n, sccd_real *r)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: *n = 1; *r = s->circle.r; return &s->circle.c;
    case SCCD_SHAPE_CAPSULE:
        corners[0] = s->capsule.a;
        corners[1] = s->capsule.b;
        *n = 2;
        *r = s->capsule.r;
        return corners;
    case SCCD_SHAPE_BOX: sccd_box2_corners(s->box, corners); *n = 4; *r = 0.0; return corners;
    default: *n = s->poly.n; *r = s->poly.r; return s->poly.v;
    }
}

/* A sphere's or capsule's core points, in place as core2_points (a
 * capsule's ends copied to `ends`); a box's are its corners. */
static const sccd_v3 *round3_points(const sccd_shape3 *s, sccd_v3 ends[2], int *n, sccd_real *r)
{
    if (s->type == SCCD_SHAPE_CIRCLE) {
        *n = 1;
        *r = s->sphere.r;
        return &s->sphere.c;
    }
    ends[0] = s->capsule.a;
    ends[1] = s->capsule.b;
    *n = 2;
    *r = s->capsule.r;
    return ends;
}

sccd_proxy2 sccd_proxy2_make_unchecked(const sccd_shape2 *s, sccd_xf2 xf)
{
    sccd_proxy2 p; /* the points past n not written: every reader stops at n */
    sccd_v2 corners[4];
    const sccd_v2 *v = core2_points(s, corners, &p.n, &p.r);
    for (int i = 0; i < p.n; ++i)
        p.v[i] = sccd_xf2_apply(xf, v[i]);
    return p;
}

sccd_proxy2 sccd_proxy2_make(const sccd_shape2 *s, sccd_xf2 xf)
{
    if (!sccd_is_valid_shape2(s) || !sccd_is_valid_xf2(xf)) {
        SCCD_ASSERT(sccd_is_valid_shape2(s) && sccd_is_valid_xf2(xf));
        return (sccd_proxy2){.n = 1};
    }
    return sccd_proxy2_make_unchecked(s, xf);
}

/* Box b placed by xf: turned once, so its corners cost three rotations,
 * not eight (every TOI and distance of a box places its corners). */
static sccd_box3 placed_box(sccd_box3 b, sccd_xf3 xf) { return (sccd_box3){sccd_xf3_apply(xf, b.c), sccd_quat_mul(xf.q, b.q), b.h}; }

sccd_proxy3 sccd_proxy3_make_unchecked(const sccd_shape3 *s, sccd_xf3 xf)
{
    if (s->type == SCCD_SHAPE_BOX) {
        sccd_proxy3 b = {.n = 8};
        sccd_box3_corners(placed_box(s->box, xf), b.v);
        return b;
    }
    sccd_proxy3 p; /* the points past n not written: every reader stops at n */
    sccd_v3 ends[2];
    const sccd_v3 *v = round3_points(s, ends, &p.n, &p.r);
    for (int i = 0; i < p.n; ++i)
        p.v[i] = sccd_xf3_apply(xf, v[i]);
    return p;
}

sccd_proxy3 sccd_proxy3_make(const sccd_shape3 *s, sccd_xf3 xf)
{
    if (!sccd_is_valid_shape3(s) || !sccd_is_valid_xf3(xf)) {
        SCCD_ASSERT(sccd_is_valid_shape3(s) && sccd_is_valid_xf3(xf));
        return (sccd_proxy3){.n = 1};
    }
    return sccd_proxy3_make_unchecked(s, xf);
}

int sccd_proxy2_support(const sccd_proxy2 *p, sccd_v2 d) { return sccd_proxy2_support_inline(p, d); }

int sccd_proxy3_support(const sccd_proxy3 *p, sccd_v3 d) { return sccd_proxy3_support_inline(p, d); }

sccd_real sccd_proxy2_support_value(const sccd_proxy2 *p, sccd_v2 d)
{
    return sccd_v2_dot(p->v[sccd_proxy2_support(p, d)], d) + p->r * sccd_v2_len(d);
}

sccd_real sccd_proxy3_support_value(const sccd_proxy3 *p, sccd_v3 d)
{
    return sccd_v3_dot(p->v[sccd_proxy3_support(p, d)], d) + p->r * sccd_v3_len(d);
}

sccd_v2 sccd_shape2_support_unchecked(const sccd_shape2 *s, sccd_xf2 xf, sccd_v2 d)
{
    sccd_proxy2 p = sccd_proxy2_make_unchecked(s, xf);
    sccd_v2 u = sccd_v2_normalize(d);
    return sccd_v2_mad(p.v[sccd_proxy2_support(&p, u)], p.r, u);
}

sccd_v2 sccd_shape2_support(const sccd_shape2 *s, sccd_xf2 xf, sccd_v2 d)
{
    sccd_proxy2 p = sccd_proxy2_make(s, xf);
    sccd_v2 u = sccd_is_valid_v2(d) ? sccd_v2_normalize(d) : SCCD_FALLBACK_V2;
    SCCD_ASSERT(sccd_is_valid_v2(d));
    return sccd_v2_mad(p.v[sccd_proxy2_support(&p, u)], p.r, u);
}

sccd_v3 sccd_shape3_support_unchecked(const sccd_shape3 *s, sccd_xf3 xf, sccd_v3 d)
{
    sccd_proxy3 p = sccd_proxy3_make_unchecked(s, xf);
    sccd_v3 u = sccd_v3_normalize(d);
    return sccd_v3_mad(p.v[sccd_proxy3_support(&p, u)], p.r, u);
}

sccd_v3 sccd_shape3_support(const sccd_shape3 *s, sccd_xf3 xf, sccd_v3 d)
{
    sccd_proxy3 p = sccd_proxy3_make(s, xf);
    sccd_v3 u = sccd_is_valid_v3(d) ? sccd_v3_normalize(d) : SCCD_FALLBACK_V3;
    SCCD_ASSERT(sccd_is_valid_v3(d));
    return sccd_v3_mad(p.v[sccd_proxy3_support(&p, u)], p.r, u);
}

/* The farthest point of a convex hull from any point is one of its vertices;
 * rounding moves every boundary point out by exactly r. */
sccd_real sccd_shape2_farthest(const sccd_shape2 *s, sccd_v2 p)
{
    if (!sccd_is_valid_shape2(s) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(sccd_is_valid_shape2(s) && sccd_is_valid_v2(p));
        return INFINITY;
    }
    return sccd_shape2_farthest_unchecked(s, p);
}

/* The farthest distance by squares, one root: the same as the root of each
 * (a correctly rounded root is monotone). */
sccd_real sccd_shape2_farthest_unchecked(const sccd_shape2 *s, sccd_v2 p)
{
    sccd_v2 corners[4];
    int n;
    sccd_real r, d2 = 0.0;
    const sccd_v2 *v = core2_points(s, corners, &n, &r);
    for (int i = 0; i < n; ++i)
        d2 = sccd_max(d2, sccd_v2_len2(sccd_v2_sub(v[i], p)));
    return sqrt(d2) + r;
}

sccd_aabb2 sccd_shape2_ends_aabb_unchecked(const sccd_shape2 *s, sccd_xf2 x0, sccd_xf2 x1, sccd_v2 c, sccd_real *core_reach)
{
    sccd_v2 corners[4], lo = {INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY};
    int n;
    sccd_real rad, d2 = 0.0;
    const sccd_v2 *v = core2_points(s, corners, &n, &rad);
    for (int i = 0; i < n; ++i) {
        sccd_v2 a = sccd_xf2_apply(x0, v[i]), b = sccd_xf2_apply(x1, v[i]);
        lo = sccd_v2_min(lo, sccd_v2_min(a, b));
        hi = sccd_v2_max(hi, sccd_v2_max(a, b));
        d2 = sccd_max(d2, sccd_v2_len2(sccd_v2_sub(v[i], c)));
    }
    *core_reach = sqrt(d2);
    sccd_v2 r = {rad, rad};
    return (sccd_aabb2){sccd_v2_sub(lo, r), sccd_v2_add(hi, r)};
}

sccd_real sccd_shape2_half_thickness(const sccd_shape2 *s)
{
    if (!sccd_is_valid_shape2(s)) {
        SCCD_ASSERT(sccd_is_valid_shape2(s));
        return 0.0;
    }
    return shape2_half_thickness(s);
}

sccd_real sccd_shape3_half_thickness(const sccd_shape3 *s)
{
    if (!sccd_is_valid_shape3(s)) {
        SCCD_ASSERT(sccd_is_valid_shape3(s));
        return 0.0;
    }
    return sccd_shape3_half_thickness_unchecked(s);
}

sccd_real sccd_shape3_farthest(const sccd_shape3 *s, sccd_v3 p)
{
    if (!sccd_is_valid_shape3(s) || !sccd_is_valid_v3(p)) {
        SCCD_ASSERT(sccd_is_valid_shape3(s) && sccd_is_valid_v3(p));
        return INFINITY;
    }
    return sccd_shape3_farthest_unchecked(s, p);
}

/* A box's farthest point from p is its corner on the far side of p along
 * each of its axes: |(|l| + h)| for p at l in the box's frame (one
 * rotation, where the corners take three and eight lengths; the TOI's
 * bounds and the solver's reaches ask for it at every search). */
static sccd_real box3_farthest(sccd_box3 b, sccd_v3 p)
{
    return sccd_v3_len(sccd_v3_add(sccd_v3_abs(sccd_quat_inv_apply(b.q, sccd_v3_sub(p, b.c))), b.h));
}

sccd_real sccd_shape3_farthest_unchecked(const sccd_shape3 *s, sccd_v3 p)
{
    if (s->type == SCCD_SHAPE_BOX)
        return box3_farthest(s->box, p);
    sccd_v3 ends[2];
    int n;
    sccd_real r, d2 = 0.0;
    const sccd_v3 *v = round3_points(s, ends, &n, &r);
    for (int i = 0; i < n; ++i) /* by squares, one root, as sccd_shape2_farthest_unchecked */
        d2 = sccd_max(d2, sccd_v3_len2(sccd_v3_sub(v[i], p)));
    return sqrt(d2) + r;
}

sccd_aabb3 sccd_shape3_ends_aabb_unchecked(const sccd_shape3 *s, sccd_xf3 x0, sccd_xf3 x1, sccd_v3 c, sccd_real *core_reach)
{
    if (s->type == SCCD_SHAPE_BOX) {
        *core_reach = box3_farthest(s->box, c);
        return sccd_aabb3_union(sccd_box3_aabb(placed_box(s->box, x0)), sccd_box3_aabb(placed_box(s->box, x1)));
    }
    sccd_v3 ends[2], lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    int n;
    sccd_real rad, d2 = 0.0;
    const sccd_v3 *v = round3_points(s, ends, &n, &rad);
    for (int i = 0; i < n; ++i) {
        sccd_v3 a = sccd_xf3_apply(x0, v[i]), b = sccd_xf3_apply(x1, v[i]);
        lo = sccd_v3_min(lo, sccd_v3_min(a, b));
        hi = sccd_v3_max(hi, sccd_v3_max(a, b));
        d2 = sccd_max(d2, sccd_v3_len2(sccd_v3_sub(v[i], c)));
    }
    *core_reach = sqrt(d2);
    sccd_v3 r = {rad, rad, rad};
    return (sccd_aabb3){sccd_v3_sub(lo, r), sccd_v3_add(hi, r)};
}

/* The AABB of a hull is the AABB of its vertices; rounding widens it by r. */
sccd_aabb2 sccd_shape2_aabb(const sccd_shape2 *s, sccd_xf2 xf)
{
    if (!sccd_is_valid_shape2(s) || !sccd_is_valid_xf2(xf)) {
        SCCD_ASSERT(sccd_is_valid_shape2(s) && sccd_is_valid_xf2(xf));
        sccd_v2 o = sccd_is_valid_v2(xf.p) ? xf.p : (sccd_v2){0.0, 0.0};
        return (sccd_aabb2){o, o};
    }
    return sccd_shape2_aabb_unchecked(s, xf);
}

sccd_aabb2 sccd_shape2_aabb_unchecked(const sccd_shape2 *s, sccd_xf2 xf)
{
    sccd_v2 corners[4];
    int n;
    sccd_real rad;
    const sccd_v2 *v = core2_points(s, corners, &n, &rad);
    sccd_v2 p = sccd_xf2_apply(xf, v[0]);
    sccd_aabb2 box = {p, p};
    for (int i = 1; i < n; ++i) {
        p = sccd_xf2_apply(xf, v[i]);
        box = (sccd_aabb2){sccd_v2_min(box.lo, p), sccd_v2_max(box.hi, p)};
    }
    sccd_v2 r = {rad, rad};
    return (sccd_aabb2){sccd_v2_sub(box.lo, r), sccd_v2_add(box.hi, r)};
}

sccd_aabb3 sccd_shape3_aabb(const sccd_shape3 *s, sccd_xf3 xf)
{
    if (!sccd_is_valid_shape3(s) || !sccd_is_valid_xf3(xf)) {
        SCCD_ASSERT(sccd_is_valid_shape3(s) && sccd_is_valid_xf3(xf));
        sccd_v3 o = sccd_is_valid_v3(xf.p) ? xf.p : (sccd_v3){0.0, 0.0, 0.0};
        return (sccd_aabb3){o, o};
    }
    return sccd_shape3_aabb_unchecked(s, xf);
}

sccd_aabb3 sccd_shape3_aabb_unchecked(const sccd_shape3 *s, sccd_xf3 xf)
{
    if (s->type == SCCD_SHAPE_BOX) /* its extents from its axes, no corners */
        return sccd_box3_aabb(placed_box(s->box, xf));
    sccd_v3 ends[2];
    int n;
    sccd_real rad;
    const sccd_v3 *v = round3_points(s, ends, &n, &rad);
    sccd_v3 p = sccd_xf3_apply(xf, v[0]);
    sccd_aabb3 box = {p, p};
    for (int i = 1; i < n; ++i) {
        p = sccd_xf3_apply(xf, v[i]);
        box = (sccd_aabb3){sccd_v3_min(box.lo, p), sccd_v3_max(box.hi, p)};
    }
    sccd_v3 r = {rad, rad, rad};
    return (sccd_aabb3){sccd_v3_sub(box.lo, r), sccd_v3_add(box.hi, r)};
}

sccd_shape2 sccd_shape2_scaled(sccd_shape2 s, sccd_real f)
{
    switch (s.type) {
    case SCCD_SHAPE_CIRCLE: s.circle = (sccd_circle){sccd_v2_scale(s.circle.c, f), s.circle.r * f}; break;
    case SCCD_SHAPE_CAPSULE:
        s.capsule = (sccd_capsule2){sccd_v2_scale(s.capsule.a, f), sccd_v2_scale(s.capsule.b, f), s.capsule.r * f};
        break;
    case SCCD_SHAPE_BOX: s.box = (sccd_box2){sccd_v2_scale(s.box.c, f), s.box.q, sccd_v2_scale(s.box.h, f)}; break;
    case SCCD_SHAPE_POLY:
        for (int i = 0; i < s.poly.n; ++i)
            s.poly.v[i] = sccd_v2_scale(s.poly.v[i], f);
        s.poly.r *= f;
        break;
    }
    return s;
}

sccd_shape3 sccd_shape3_scaled(sccd_shape3 s, sccd_real f)
{
    switch (s.type) {
    case SCCD_SHAPE_CIRCLE: s.sphere = (sccd_sphere){sccd_v3_scale(s.sphere.c, f), s.sphere.r * f}; break;
    case SCCD_SHAPE_CAPSULE:
        s.capsule = (sccd_capsule3){sccd_v3_scale(s.capsule.a, f), sccd_v3_scale(s.capsule.b, f), s.capsule.r * f};
        break;
    case SCCD_SHAPE_BOX: s.box = (sccd_box3){sccd_v3_scale(s.box.c, f), s.box.q, sccd_v3_scale(s.box.h, f)}; break;
    case SCCD_SHAPE_POLY: break; /* no 3D polygon */
    }
    return s;
}

sccd_real sccd_shape2_magnitude(const sccd_shape2 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_mag2(s->circle.c) + s->circle.r;
    case SCCD_SHAPE_CAPSULE: return sccd_max(sccd_mag2(s->capsule.a), sccd_mag2(s->capsule.b)) + s->capsule.r;
    case SCCD_SHAPE_BOX: return sccd_mag2(s->box.c) + s->box.h.x + s->box.h.y;
    case SCCD_SHAPE_POLY: break;
    }
    sccd_real m = 0.0;
    for (int i = 0; i < s->poly.n; ++i)
        m = sccd_max(m, sccd_mag2(s->poly.v[i]));
    return m + s->poly.r;
}

sccd_real sccd_shape3_magnitude(const sccd_shape3 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_mag3(s->sphere.c) + s->sphere.r;
    case SCCD_SHAPE_CAPSULE: return sccd_max(sccd_mag3(s->capsule.a), sccd_mag3(s->capsule.b)) + s->capsule.r;
    case SCCD_SHAPE_BOX: return sccd_mag3(s->box.c) + s->box.h.x + s->box.h.y + s->box.h.z;
    case SCCD_SHAPE_POLY: break; /* no 3D polygon */
    }
    return 0.0;
}
