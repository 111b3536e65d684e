/* Discrete overlap tests (seed 000 tables 3.2–3.3). The oriented-box tests
 * are the separating-axis theorem: two convex polytopes are disjoint iff
 * their projections are disjoint on some face normal or, in 3D, on some
 * cross product of an edge of each (Gottschalk et al. 1996, "OBBTree").
 *
 * Why none of them misses a contact: each is an exact criterion (distance
 * against the sum of radii; the full set of separating axes) whose only
 * deviations are rounding, of order 1e-16 of the scene, and every tolerance
 * is added on the "overlap" side (to the radii, to the projected extents),
 * where it can only turn a narrow "apart" into "overlap". The segment
 * distance behind the capsules is a distance between two actual points,
 * within rounding of the true minimum even for nearly parallel segments
 * (tests/test_geometry.c checks it against a search oracle). */
#include "sectorccd/discrete.h"
#include "sectorccd/geometry.h"
#include "tolerance.h"

bool sccd_circle_vs_circle(sccd_circle a, sccd_circle b)
{
    if (!sccd_is_valid_circle(a) || !sccd_is_valid_circle(b)) {
        SCCD_ASSERT(sccd_is_valid_circle(a) && sccd_is_valid_circle(b));
        return false;
    }
    sccd_real r = a.r + b.r;
    return sccd_v2_dist(a.c, b.c) <= r + sccd_touch_slack(sccd_mag2(a.c) + sccd_mag2(b.c) + r);
}

bool sccd_capsule2_vs_capsule2(sccd_capsule2 a, sccd_capsule2 b)
{
    if (!sccd_is_valid_capsule2(a) || !sccd_is_valid_capsule2(b)) {
        SCCD_ASSERT(sccd_is_valid_capsule2(a) && sccd_is_valid_capsule2(b));
        return false;
    }
    sccd_real r = a.r + b.r;
    sccd_real scene = sccd_mag2(a.a) + sccd_mag2(a.b) + sccd_mag2(b.a) + sccd_mag2(b.b) + r;
    return sccd_distance_segment_segment2(a.a, a.b, b.a, b.b) <= r + sccd_touch_slack(scene);
}

bool sccd_aabb2_vs_aabb2(sccd_aabb2 a, sccd_aabb2 b)
{
    if (!sccd_is_valid_aabb2(a) || !sccd_is_valid_aabb2(b)) {
        SCCD_ASSERT(sccd_is_valid_aabb2(a) && sccd_is_valid_aabb2(b));
        return false;
    }
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y;
}

bool sccd_box2_vs_box2(sccd_box2 a, sccd_box2 b)
{
    if (!sccd_is_valid_box2(a) || !sccd_is_valid_box2(b)) {
        SCCD_ASSERT(sccd_is_valid_box2(a) && sccd_is_valid_box2(b));
        return false;
    }
    /* Work in a's frame: r turns b's axes into it, t is b's centre in it.
     * b's axes there are (r.c, r.s) and (−r.s, r.c), so |r.c|, |r.s| give
     * the projected half widths. */
    sccd_rot2 r = sccd_rot2_inv_mul(a.q, b.q);
    sccd_v2 t = sccd_rot2_inv_apply(a.q, sccd_v2_sub(b.c, a.c));
    sccd_v2 tb = sccd_rot2_inv_apply(r, t);
    sccd_real ac = fabs(r.c), as = fabs(r.s);
    sccd_real slack = sccd_touch_slack(sccd_mag2(a.c) + sccd_mag2(b.c) + a.h.x + a.h.y + b.h.x + b.h.y);
    return fabs(t.x) <= a.h.x + ac * b.h.x + as * b.h.y + slack &&
           fabs(t.y) <= a.h.y + as * b.h.x + ac * b.h.y + slack &&
           fabs(tb.x) <= b.h.x + ac * a.h.x + as * a.h.y + slack &&
           fabs(tb.y) <= b.h.y + as * a.h.x + ac * a.h.y + slack;
}

bool sccd_sphere_vs_sphere(sccd_sphere a, sccd_sphere b)
{
    if (!sccd_is_valid_sphere(a) || !sccd_is_valid_sphere(b)) {
        SCCD_ASSERT(sccd_is_valid_sphere(a) && sccd_is_valid_sphere(b));
        return false;
    }
    sccd_real r = a.r + b.r;
    return sccd_v3_dist(a.c, b.c) <= r + sccd_touch_slack(sccd_mag3(a.c) + sccd_mag3(b.c) + r);
}

bool sccd_capsule3_vs_capsule3(sccd_capsule3 a, sccd_capsule3 b)
{
    if (!sccd_is_valid_capsule3(a) || !sccd_is_valid_capsule3(b)) {
        SCCD_ASSERT(sccd_is_valid_capsule3(a) && sccd_is_valid_capsule3(b));
        return false;
    }
    sccd_real r = a.r + b.r;
    sccd_real scene = sccd_mag3(a.a) + sccd_mag3(a.b) + sccd_mag3(b.a) + sccd_mag3(b.b) + r;
    return sccd_distance_segment_segment3(a.a, a.b, b.a, b.b) <= r + sccd_touch_slack(scene);
}

bool sccd_aabb3_vs_aabb3(sccd_aabb3 a, sccd_aabb3 b)
{
    if (!sccd_is_valid_aabb3(a) || !sccd_is_valid_aabb3(b)) {
        SCCD_ASSERT(sccd_is_valid_aabb3(a) && sccd_is_valid_aabb3(b));
        return false;
    }
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

/* The world directions of a box's local x, y, z axes. */
static void box3_axes(sccd_quat q, sccd_v3 out[3])
{
    out[0] = sccd_quat_apply(q, (sccd_v3){1.0, 0.0, 0.0});
    out[1] = sccd_quat_apply(q, (sccd_v3){0.0, 1.0, 0.0});
    out[2] = sccd_quat_apply(q, (sccd_v3){0.0, 0.0, 1.0});
}

bool sccd_box3_vs_box3(sccd_box3 a, sccd_box3 b)
{
    if (!sccd_is_valid_box3(a) || !sccd_is_valid_box3(b)) {
        SCCD_ASSERT(sccd_is_valid_box3(a) && sccd_is_valid_box3(b));
        return false;
    }
    sccd_v3 ax[3], bx[3];
    box3_axes(a.q, ax);
    box3_axes(b.q, bx);
    const sccd_real ha[3] = {a.h.x, a.h.y, a.h.z}, hb[3] = {b.h.x, b.h.y, b.h.z};
    sccd_v3 d = sccd_v3_sub(b.c, a.c);
    /* In a's frame: r[i][j] = a_i·b_j, t = b's centre. SCCD_EPS is added to
     * every |r[i][j]| because for (nearly) parallel edges a_i ∥ b_j the cross
     * axis a_i × b_j is (nearly) zero: both sides of its test are then
     * rounding noise and could report a false separation. The epsilon keeps
     * the right side above that noise; since the r entries are cosines
     * (scale 1), an absolute epsilon on them is a relative one. */
    sccd_real r[3][3], ar[3][3], t[3];
    for (int i = 0; i < 3; ++i) {
        t[i] = sccd_v3_dot(d, ax[i]);
        for (int j = 0; j < 3; ++j) {
            r[i][j] = sccd_v3_dot(ax[i], bx[j]);
            ar[i][j] = fabs(r[i][j]) + SCCD_EPS;
        }
    }
    sccd_real slack = sccd_touch_slack(sccd_mag3(a.c) + sccd_mag3(b.c) + ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]);
    for (int i = 0; i < 3; ++i) /* a's face normals */
        if (fabs(t[i]) > ha[i] + hb[0] * ar[i][0] + hb[1] * ar[i][1] + hb[2] * ar[i][2] + slack)
            return false;
    for (int j = 0; j < 3; ++j) { /* b's face normals */
        sccd_real tb = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        if (fabs(tb) > hb[j] + ha[0] * ar[0][j] + ha[1] * ar[1][j] + ha[2] * ar[2][j] + slack)
            return false;
    }
    /* Edge crosses L = a_i × b_j, unnormalised (|L| ≤ 1): in a's frame L has
     * components 0, −r[i2][j], r[i1][j] along a_i, a_i1, a_i2. The absolute
     * slack on an axis shorter than 1 only widens the tolerance. */
    for (int i = 0; i < 3; ++i) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; ++j) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            sccd_real ra = ha[i1] * ar[i2][j] + ha[i2] * ar[i1][j];
            sccd_real rb = hb[j1] * ar[i][j2] + hb[j2] * ar[i][j1];
            if (fabs(t[i2] * r[i1][j] - t[i1] * r[i2][j]) > ra + rb + slack)
                return false;
        }
    }
    return true;
}
