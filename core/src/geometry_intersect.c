/* Intersection points of segments and circles, and points in rectangles
 * (seed 000 §2.9.1–2.9.3, seed 002 §2.3–2.4). Every decision compares a
 * distance with the touching slack of tolerance.h, so a touch survives
 * rounding, and swapping the arguments changes a decision only for a gap
 * within rounding of the slack. */
#include "sectorccd/geometry.h"
#include "tolerance.h"

static sccd_intersection2 no_intersection(void)
{
    return (sccd_intersection2){SCCD_INTERSECT_NONE, 0, {{0.0, 0.0}, {0.0, 0.0}}, {0.0, 0.0}, {0.0, 0.0}};
}

/* Appends a point; the state follows the count. */
static void add_point(sccd_intersection2 *r, sccd_v2 p, sccd_real s, sccd_real t)
{
    r->p[r->count] = p;
    r->s[r->count] = s;
    r->t[r->count] = t;
    r->count += 1;
    r->state = r->count == 1 ? SCCD_INTERSECT_ONE : SCCD_INTERSECT_TWO;
}

/* Parameter u of the point a + u·d of a line nearest to p; d ≠ 0. */
static sccd_real line_param(sccd_v2 p, sccd_v2 a, sccd_v2 d)
{
    return sccd_v2_dot(sccd_v2_sub(p, a), d) / sccd_v2_len2(d);
}

/* A segment no longer than the slack is its point p (parameter 0): it meets
 * segment a–b where it lies within the slack of it. */
static sccd_intersection2 point_vs_segment(sccd_v2 p, sccd_v2 a, sccd_v2 b, sccd_real slack, bool point_first)
{
    sccd_intersection2 r = no_intersection();
    sccd_real u;
    if (sccd_v2_dist(p, sccd_closest_point_segment2(p, a, b, &u)) <= slack)
        add_point(&r, p, point_first ? 0.0 : u, point_first ? u : 0.0);
    return r;
}

/* Collinear segments: the piece of p2–q2 on p1–q1, by the projections of
 * p2 and q2 on the line of p1–q1. */
static sccd_intersection2 collinear_overlap(sccd_v2 p1, sccd_v2 d1, sccd_v2 p2, sccd_v2 d2, sccd_real slack)
{
    sccd_intersection2 r = no_intersection();
    sccd_real u0 = line_param(p2, p1, d1), u1 = line_param(sccd_v2_add(p2, d2), p1, d1);
    sccd_real lo = sccd_max(0.0, sccd_min(u0, u1)), hi = sccd_min(1.0, sccd_max(u0, u1));
    sccd_real e = slack / sccd_v2_len(d1);
    if (lo > hi + e)
        return r;
    if (hi - lo <= e) { /* end to end: one point */
        sccd_real s = sccd_clamp(0.5 * (lo + hi), 0.0, 1.0);
        sccd_v2 x = sccd_v2_mad(p1, s, d1);
        add_point(&r, x, s, sccd_clamp(line_param(x, p2, d2), 0.0, 1.0));
        return r;
    }
    sccd_v2 a = sccd_v2_mad(p1, lo, d1), b = sccd_v2_mad(p1, hi, d1);
    add_point(&r, a, lo, sccd_clamp(line_param(a, p2, d2), 0.0, 1.0));
    add_point(&r, b, hi, sccd_clamp(line_param(b, p2, d2), 0.0, 1.0));
    r.state = SCCD_INTERSECT_OVERLAP;
    return r;
}

/* The same result seen from the other segment: s and t trade places, and
 * the points are reordered by the new s. */
static sccd_intersection2 swap_roles(sccd_intersection2 r)
{
    sccd_intersection2 w = r;
    for (int k = 0; k < r.count; ++k) {
        int j = r.count == 2 && r.t[0] > r.t[1] ? 1 - k : k;
        w.p[k] = r.p[j];
        w.s[k] = r.t[j];
        w.t[k] = r.s[j];
    }
    return w;
}

/* Both ends of segment p–p+d lie within the slack of the line a + u·v. */
static bool along_line(sccd_v2 p, sccd_v2 d, sccd_v2 a, sccd_v2 v, sccd_real slack)
{
    sccd_real tol = slack * sccd_v2_len(v);
    return fabs(sccd_v2_cross(v, sccd_v2_sub(p, a))) <= tol &&
           fabs(sccd_v2_cross(v, sccd_v2_sub(sccd_v2_add(p, d), a))) <= tol;
}

sccd_intersection2 sccd_intersect_segment_segment2(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2)
{
    if (!sccd_is_valid_v2(p1) || !sccd_is_valid_v2(q1) || !sccd_is_valid_v2(p2) || !sccd_is_valid_v2(q2)) {
        SCCD_ASSERT(sccd_is_valid_v2(p1) && sccd_is_valid_v2(q1) && sccd_is_valid_v2(p2) && sccd_is_valid_v2(q2));
        return no_intersection();
    }
    sccd_real slack = sccd_touch_slack(sccd_mag2(p1) + sccd_mag2(q1) + sccd_mag2(p2) + sccd_mag2(q2));
    sccd_v2 d1 = sccd_v2_sub(q1, p1), d2 = sccd_v2_sub(q2, p2);
    if (sccd_v2_len(d1) <= slack)
        return point_vs_segment(p1, p2, q2, slack, true);
    if (sccd_v2_len(d2) <= slack)
        return point_vs_segment(p2, p1, q1, slack, false);
    /* Thesis eq 2.34 is Cramer's rule for P = p1 + s·d1 = p2 + t·d2 (eq
     * 2.32); it has no answer for parallel segments, and for nearly parallel
     * ones a crossing of the lines says little about the segments. So: a
     * segment lying along the other's line is an overlap on that line;
     * otherwise the closest points (whose unclamped solution is eq 2.34,
     * computed without cancellation) are the crossing when they are within
     * the slack, which is eq 2.35 with a tolerance. */
    if (along_line(p2, d2, p1, d1, slack))
        return collinear_overlap(p1, d1, p2, d2, slack);
    if (along_line(p1, d1, p2, d2, slack))
        return swap_roles(collinear_overlap(p2, d2, p1, d1, slack));
    sccd_intersection2 r = no_intersection();
    sccd_real s, t;
    sccd_v2 c1, c2;
    if (sccd_closest_segment_segment2(p1, q1, p2, q2, &s, &t, &c1, &c2) <= slack * slack)
        add_point(&r, c1, s, t);
    return r;
}

sccd_intersection2 sccd_intersect_segment_circle2(sccd_v2 a, sccd_v2 b, sccd_circle c)
{
    if (!sccd_is_valid_v2(a) || !sccd_is_valid_v2(b) || !sccd_is_valid_circle(c)) {
        SCCD_ASSERT(sccd_is_valid_v2(a) && sccd_is_valid_v2(b) && sccd_is_valid_circle(c));
        return no_intersection();
    }
    sccd_intersection2 r = no_intersection();
    sccd_real slack = sccd_touch_slack(sccd_mag2(a) + sccd_mag2(b) + sccd_mag2(c.c) + c.r);
    sccd_v2 v = sccd_v2_sub(b, a), w = sccd_v2_sub(a, c.c);
    sccd_real len = sccd_v2_len(v);
    if (len <= slack) { /* a point: on the circle or not */
        if (fabs(sccd_v2_len(w) - c.r) <= slack)
            add_point(&r, a, 0.0, 0.0);
        return r;
    }
    /* Thesis eq 2.39: |v|² s² + 2 (v·w) s + |w|² − r² = 0, with V = v, W = w
     * (eq 2.38). Its discriminant over |v|² is r² − h², h = |v × w| / |v| the
     * distance of the centre from the line; the roots are the foot u0 of the
     * centre ± the half chord sqrt(r² − h²) / |v|. Written that way the
     * discriminant does not cancel. "D = 0" becomes "h within the slack of
     * r": a tangent is one point, the foot. (The half chord itself is no
     * test: near a tangent it magnifies a rounding of h to its square root.) */
    sccd_real h = fabs(sccd_v2_cross(v, w)) / len;
    if (h > c.r + slack)
        return r;
    sccd_real u0 = -sccd_v2_dot(v, w) / (len * len), e = slack / len;
    sccd_real du = h >= c.r - slack ? 0.0 : sqrt((c.r - h) * (c.r + h)) / len;
    sccd_real roots[2] = {u0 - du, u0 + du};
    for (int i = 0; i < (du > 0.0 ? 2 : 1); ++i) {
        if (roots[i] < -e || roots[i] > 1.0 + e)
            continue;
        sccd_real s = sccd_clamp(roots[i], 0.0, 1.0);
        add_point(&r, sccd_v2_mad(a, s, v), s, 0.0);
    }
    return r;
}

sccd_intersection2 sccd_intersect_circle_circle2(sccd_circle a, sccd_circle b)
{
    if (!sccd_is_valid_circle(a) || !sccd_is_valid_circle(b)) {
        SCCD_ASSERT(sccd_is_valid_circle(a) && sccd_is_valid_circle(b));
        return no_intersection();
    }
    sccd_intersection2 r = no_intersection();
    sccd_real slack = sccd_touch_slack(sccd_mag2(a.c) + sccd_mag2(b.c) + a.r + b.r);
    sccd_v2 ab = sccd_v2_sub(b.c, a.c);
    sccd_real d = sccd_v2_len(ab);
    if (d <= slack) { /* concentric: the same circle or none */
        if (fabs(a.r - b.r) <= slack)
            r.state = SCCD_INTERSECT_OVERLAP;
        return r;
    }
    /* Gaps of the outer and the inner tangency: beyond the slack nothing,
     * within it one point (decided on distances, as for segments). */
    sccd_real outer = d - (a.r + b.r), inner = fabs(a.r - b.r) - d;
    if (outer > slack || inner > slack)
        return r;
    /* Seed 002 eq 2.11–2.13 subtract the circle equations to get the common
     * chord's line, then solve for y, which divides by A_y − B_y and needs a
     * special case. In the frame of the centre line the same subtraction
     * gives the chord at distance x = (d² + ra² − rb²) / (2d) from a.c along
     * u = ab/d, and half chord sqrt(ra² − x²): no special case. */
    sccd_v2 u = sccd_v2_scale(ab, 1.0 / d);
    sccd_real x = sccd_clamp((d * d + a.r * a.r - b.r * b.r) / (2.0 * d), -a.r, a.r);
    sccd_v2 foot = sccd_v2_mad(a.c, x, u);
    if (fabs(outer) <= slack || fabs(inner) <= slack) {
        add_point(&r, foot, 0.0, 0.0);
        return r;
    }
    sccd_real half = sqrt((a.r - x) * (a.r + x));
    add_point(&r, sccd_v2_mad(foot, half, sccd_v2_perp(u)), 0.0, 0.0);
    add_point(&r, sccd_v2_mad(foot, -half, sccd_v2_perp(u)), 0.0, 0.0);
    return r;
}

bool sccd_point_in_box2(sccd_box2 b, sccd_v2 p)
{
    if (!sccd_is_valid_box2(b) || !sccd_is_valid_v2(p)) {
        SCCD_ASSERT(sccd_is_valid_box2(b) && sccd_is_valid_v2(p));
        return false;
    }
    sccd_real slack = sccd_touch_slack(sccd_mag2(b.c) + sccd_mag2(p) + b.h.x + b.h.y);
    sccd_v2 l = sccd_rot2_inv_apply(b.q, sccd_v2_sub(p, b.c));
    return fabs(l.x) <= b.h.x + slack && fabs(l.y) <= b.h.y + slack;
}

bool sccd_point_in_quad2(const sccd_v2 c[4], sccd_v2 p)
{
    bool valid = sccd_is_valid_v2(p);
    sccd_real scene = sccd_mag2(p);
    for (int i = 0; i < 4; ++i) {
        valid = valid && sccd_is_valid_v2(c[i]);
        scene += sccd_mag2(c[i]);
    }
    if (!valid) {
        SCCD_ASSERT(valid);
        return false;
    }
    sccd_real slack = sccd_touch_slack(scene);
    /* A quad thinner than the slack (twice its area over its longer
     * diagonal) passes the sign test for every point on its line: it is the
     * union of its edges. */
    sccd_v2 e = sccd_v2_sub(c[2], c[0]), f = sccd_v2_sub(c[3], c[1]);
    if (fabs(sccd_v2_cross(e, f)) <= slack * sccd_max(sccd_v2_len(e), sccd_v2_len(f))) {
        for (int i = 0; i < 4; ++i)
            if (sccd_distance_point_segment2(p, c[i], c[(i + 1) % 4]) <= slack)
                return true;
        return false;
    }
    /* Thesis eq 2.40: C_i = (c[i+1] − c[i]) × (p − c[i]) all ≥ 0 or all ≤ 0;
     * each C_i is |edge| times the signed distance of p from the edge. */
    bool all_left = true, all_right = true;
    for (int i = 0; i < 4; ++i) {
        sccd_v2 edge = sccd_v2_sub(c[(i + 1) % 4], c[i]);
        sccd_real ci = sccd_v2_cross(edge, sccd_v2_sub(p, c[i])), tol = slack * sccd_v2_len(edge);
        all_left = all_left && ci >= -tol;
        all_right = all_right && ci <= tol;
    }
    return all_left || all_right;
}
