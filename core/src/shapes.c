/* Validity checks and small helpers for the plain shape structs. */
#include "sectorccd/shapes.h"
#include "shapes_valid.h"

bool sccd_is_valid_circle(sccd_circle s) { return valid_circle(s); }

bool sccd_is_valid_capsule2(sccd_capsule2 s) { return valid_capsule2(s); }

bool sccd_is_valid_box2(sccd_box2 s) { return valid_box2(s); }

bool sccd_is_valid_poly2(const sccd_poly2 *s) { return valid_poly2(s); }

bool sccd_poly2_valid_pairwise(const sccd_poly2 *s)
{
    int n = s->n;
    sccd_real scale = 0.0;
    for (int i = 0; i < n; ++i) {
        if (!sccd_is_valid_v2(s->v[i]))
            return false;
        scale = sccd_max(scale, sccd_max(fabs(s->v[i].x), fabs(s->v[i].y)));
    }
    /* In units of the power of two e at or above the largest |coordinate|:
     * exact (ldexp reaches below DBL_MIN and past 2^1023 where a factor of
     * its own would not), every difference and cross product finite at
     * any size, and none lost below the doubles at tiny ones. */
    int e;
    frexp(scale, &e);
    sccd_v2 v[SCCD_POLY_MAX], lo = {INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        v[i] = (sccd_v2){ldexp(s->v[i].x, -e), ldexp(s->v[i].y, -e)};
        lo = sccd_v2_min(lo, v[i]);
        hi = sccd_v2_max(hi, v[i]);
    }
    sccd_real width = sccd_max(hi.x - lo.x, hi.y - lo.y);
    sccd_real tol = width * (1e-12 * width + 1e-13 * ldexp(scale, -e));
    for (int i = 0; i < n; ++i) {
        sccd_v2 a = v[i], ed = sccd_v2_sub(v[i + 1 < n ? i + 1 : 0], a);
        for (int k = 2, j = i + 2; k < n; ++k, ++j)
            if (sccd_v2_cross(ed, sccd_v2_sub(v[j < n ? j : j - n], a)) < -tol)
                return false;
    }
    return true;
}

bool sccd_is_valid_sphere(sccd_sphere s) { return valid_sphere(s); }

bool sccd_is_valid_capsule3(sccd_capsule3 s) { return valid_capsule3(s); }

bool sccd_is_valid_box3(sccd_box3 s) { return valid_box3(s); }

bool sccd_is_valid_triangle(sccd_triangle s)
{
    return sccd_is_valid_v3(s.a) && sccd_is_valid_v3(s.b) && sccd_is_valid_v3(s.c);
}

bool sccd_is_valid_cylinder(sccd_cylinder s)
{
    return sccd_is_valid_v3(s.a) && sccd_is_valid_v3(s.b) && valid_radius(s.r);
}

bool sccd_is_valid_cone(sccd_cone s)
{
    return sccd_is_valid_v3(s.apex) && sccd_is_valid_v3(s.base) && valid_radius(s.r);
}

bool sccd_is_valid_ray3(sccd_ray3 s) { return sccd_is_valid_v3(s.o) && sccd_is_valid_v3(s.d); }

bool sccd_is_valid_segment3(sccd_segment3 s) { return sccd_is_valid_v3(s.a) && sccd_is_valid_v3(s.b); }

bool sccd_is_valid_plane(sccd_plane s)
{
    return sccd_is_valid_v3(s.n) && sccd_is_valid_real(s.d) && fabs(sccd_v3_len2(s.n) - 1.0) < 1e-6;
}

bool sccd_is_valid_shape2(const sccd_shape2 *s)
{
    if (!s)
        return false;
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: return sccd_is_valid_circle(s->circle);
    case SCCD_SHAPE_CAPSULE: return sccd_is_valid_capsule2(s->capsule);
    case SCCD_SHAPE_BOX: return sccd_is_valid_box2(s->box);
    case SCCD_SHAPE_POLY: return sccd_is_valid_poly2(&s->poly);
    }
    return false;
}

bool sccd_is_valid_shape3(const sccd_shape3 *s) { return s != NULL && valid_shape3(s); }

void sccd_box2_corners(sccd_box2 b, sccd_v2 out[4])
{
    static const sccd_real sx[4] = {-1.0, 1.0, 1.0, -1.0};
    static const sccd_real sy[4] = {-1.0, -1.0, 1.0, 1.0};
    for (int i = 0; i < 4; ++i)
        out[i] = sccd_v2_add(b.c, sccd_rot2_apply(b.q, (sccd_v2){sx[i] * b.h.x, sy[i] * b.h.y}));
}

/* A rectangle whose midpoint rounds (c ± h off its corners by an ulp) is
 * refused: the box must be the same point set, not nearly. NaN fails every
 * comparison, so the bounds' test refuses it too. */
bool sccd_poly2_as_box(const sccd_poly2 *p, sccd_box2 *out)
{
    if (p == NULL || out == NULL || p->n != 4 || p->r != 0.0)
        return false;
    sccd_v2 lo = p->v[0], hi = p->v[0];
    for (int i = 1; i < 4; ++i) {
        lo = sccd_v2_min(lo, p->v[i]);
        hi = sccd_v2_max(hi, p->v[i]);
    }
    sccd_v2 c = sccd_v2_scale(sccd_v2_add(lo, hi), 0.5), h = sccd_v2_sub(hi, c);
    if (!(h.x > 0.0 && h.y > 0.0 && h.x < INFINITY && h.y < INFINITY) || c.x - h.x != lo.x || c.y - h.y != lo.y ||
        c.x + h.x != hi.x || c.y + h.y != hi.y)
        return false;
    for (int i = 0; i < 4; ++i) { /* every vertex a corner, each edge along one axis, opposite corners apart */
        sccd_v2 v = p->v[i], next = p->v[(i + 1) % 4], across = p->v[(i + 2) % 4];
        if ((v.x != lo.x && v.x != hi.x) || (v.y != lo.y && v.y != hi.y) || (v.x == next.x) == (v.y == next.y) ||
            v.x == across.x || v.y == across.y)
            return false;
    }
    *out = (sccd_box2){c, {1.0, 0.0}, h};
    return true;
}

void sccd_box3_corners(sccd_box3 b, sccd_v3 out[8])
{
    /* The three half axes turned once, then summed with their signs: three
     * rotations, not eight (every TOI and distance of a box makes these). */
    sccd_v3 x = sccd_quat_apply(b.q, (sccd_v3){b.h.x, 0.0, 0.0}), y = sccd_quat_apply(b.q, (sccd_v3){0.0, b.h.y, 0.0});
    sccd_v3 z = sccd_quat_apply(b.q, (sccd_v3){0.0, 0.0, b.h.z});
    /* Corner i is c ± x (bit 0), then ± y (bit 1), then ± z (bit 2), summed
     * in that order; the shared partial sums made once. */
    sccd_v3 ax[2] = {sccd_v3_sub(b.c, x), sccd_v3_add(b.c, x)};
    sccd_v3 axy[4] = {sccd_v3_sub(ax[0], y), sccd_v3_sub(ax[1], y), sccd_v3_add(ax[0], y), sccd_v3_add(ax[1], y)};
    for (int i = 0; i < 4; ++i) {
        out[i] = sccd_v3_sub(axy[i], z);
        out[i + 4] = sccd_v3_add(axy[i], z);
    }
}

sccd_aabb2 sccd_box2_aabb(sccd_box2 b)
{
    /* Half extent along a world axis = |row of the rotation| · h. */
    sccd_v2 e = {fabs(b.q.c) * b.h.x + fabs(b.q.s) * b.h.y, fabs(b.q.s) * b.h.x + fabs(b.q.c) * b.h.y};
    return (sccd_aabb2){sccd_v2_sub(b.c, e), sccd_v2_add(b.c, e)};
}

sccd_aabb3 sccd_box3_aabb(sccd_box3 b)
{
    sccd_v3 ex = sccd_v3_abs(sccd_quat_apply(b.q, (sccd_v3){b.h.x, 0.0, 0.0}));
    sccd_v3 ey = sccd_v3_abs(sccd_quat_apply(b.q, (sccd_v3){0.0, b.h.y, 0.0}));
    sccd_v3 ez = sccd_v3_abs(sccd_quat_apply(b.q, (sccd_v3){0.0, 0.0, b.h.z}));
    sccd_v3 e = sccd_v3_add(sccd_v3_add(ex, ey), ez);
    return (sccd_aabb3){sccd_v3_sub(b.c, e), sccd_v3_add(b.c, e)};
}

sccd_aabb2 sccd_aabb2_union(sccd_aabb2 a, sccd_aabb2 b)
{
    return (sccd_aabb2){sccd_v2_min(a.lo, b.lo), sccd_v2_max(a.hi, b.hi)};
}

sccd_aabb3 sccd_aabb3_union(sccd_aabb3 a, sccd_aabb3 b)
{
    return (sccd_aabb3){sccd_v3_min(a.lo, b.lo), sccd_v3_max(a.hi, b.hi)};
}
