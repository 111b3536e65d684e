/* Support functions, farthest distances and AABBs of the convex shapes, all
 * through the shape's core points and rounding radius (support.h). */
#include "sectorccd/support.h"
#include "convex2.h"
#include "unchecked.h"

static sccd_proxy2 core2(const sccd_shape2 *s)
{
    sccd_proxy2 p = {.n = 1};
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        p.v[0] = s->circle.c;
        p.r = s->circle.r;
        break;
    case SCCD_SHAPE_CAPSULE:
        p.v[0] = s->capsule.a;
        p.v[1] = s->capsule.b;
        p.n = 2;
        p.r = s->capsule.r;
        break;
    case SCCD_SHAPE_BOX:
        sccd_box2_corners(s->box, p.v);
        p.n = 4;
        break;
    case SCCD_SHAPE_POLY:
        p = (sccd_proxy2){.n = s->poly.n, .r = s->poly.r};
        for (int i = 0; i < s->poly.n; ++i)
            p.v[i] = s->poly.v[i];
        break;
    }
    return p;
}

static sccd_proxy3 core3(const sccd_shape3 *s)
{
    sccd_proxy3 p = {.n = 1};
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        p.v[0] = s->sphere.c;
        p.r = s->sphere.r;
        break;
    case SCCD_SHAPE_CAPSULE:
        p.v[0] = s->capsule.a;
        p.v[1] = s->capsule.b;
        p.n = 2;
        p.r = s->capsule.r;
        break;
    case SCCD_SHAPE_BOX:
        sccd_box3_corners(s->box, p.v);
        p.n = 8;
        break;
    case SCCD_SHAPE_POLY: /* not a 3D shape: rejected by sccd_is_valid_shape3 */
        break;
    }
    return p;
}

sccd_proxy2 sccd_proxy2_make_unchecked(const sccd_shape2 *s, sccd_xf2 xf)
{
    sccd_proxy2 p = core2(s);
    for (int i = 0; i < p.n; ++i)
        p.v[i] = sccd_xf2_apply(xf, p.v[i]);
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
    sccd_proxy3 p = core3(s);
    for (int i = 0; i < p.n; ++i)
        p.v[i] = sccd_xf3_apply(xf, p.v[i]);
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

sccd_real sccd_shape2_farthest_unchecked(const sccd_shape2 *s, sccd_v2 p)
{
    sccd_proxy2 c = core2(s);
    sccd_real d = 0.0;
    for (int i = 0; i < c.n; ++i)
        d = sccd_max(d, sccd_v2_dist(c.v[i], p));
    return d + c.r;
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
    sccd_proxy3 c = core3(s);
    sccd_real d = 0.0;
    for (int i = 0; i < c.n; ++i)
        d = sccd_max(d, sccd_v3_dist(c.v[i], p));
    return d + c.r;
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
    sccd_proxy2 p = sccd_proxy2_make_unchecked(s, xf);
    sccd_aabb2 box = {p.v[0], p.v[0]};
    for (int i = 1; i < p.n; ++i)
        box = (sccd_aabb2){sccd_v2_min(box.lo, p.v[i]), sccd_v2_max(box.hi, p.v[i])};
    sccd_v2 r = {p.r, p.r};
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
    sccd_proxy3 p = sccd_proxy3_make_unchecked(s, xf);
    sccd_aabb3 box = {p.v[0], p.v[0]};
    for (int i = 1; i < p.n; ++i)
        box = (sccd_aabb3){sccd_v3_min(box.lo, p.v[i]), sccd_v3_max(box.hi, p.v[i])};
    sccd_v3 r = {p.r, p.r, p.r};
    return (sccd_aabb3){sccd_v3_sub(box.lo, r), sccd_v3_add(box.hi, r)};
}
