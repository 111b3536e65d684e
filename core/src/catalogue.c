/* Overlap tests and distances of the catalogue (seed 004). The casts are in
 * catalogue_cast.c. Each test reduces to a distance compared with a radius
 * (plus the touching tolerance), or to casts of edges, so it is exact. */
#include "catalogue_internal.h"

/* ---- distances and closest points ---- */

sccd_real sccd_distance_point_point(sccd_v3 a, sccd_v3 b)
{
    if (!sccd_is_valid_v3(a) || !sccd_is_valid_v3(b)) {
        SCCD_ASSERT(sccd_is_valid_v3(a) && sccd_is_valid_v3(b));
        return INFINITY;
    }
    return sccd_v3_dist(a, b); /* seed 004 "点と点" */
}

sccd_real sccd_distance_point_line(sccd_v3 p, sccd_v3 q, sccd_v3 dir)
{
    if (!sccd_is_valid_v3(p) || !sccd_is_valid_v3(q) || !sccd_is_valid_v3(dir)) {
        SCCD_ASSERT(sccd_is_valid_v3(p) && sccd_is_valid_v3(q) && sccd_is_valid_v3(dir));
        return INFINITY;
    }
    /* seed 004 "点と直線": |w − (w·v)v| with v = dir / |dir|. */
    sccd_v3 w = sccd_v3_sub(p, q);
    sccd_real l2 = sccd_v3_len2(dir);
    if (l2 == 0.0)
        return sccd_v3_len(w);
    return sccd_v3_len(sccd_v3_mad(w, -sccd_v3_dot(w, dir) / l2, dir));
}

/* Closest point of a valid triangle. seed 004 "球と三角形" warns that sorting
 * the cases by the signs of u, v breaks down for obtuse triangles and
 * advises taking the minimum over all candidates: the projection on the
 * plane when it falls inside, else the nearest of the three edges (the
 * nearest point of a convex set to a point whose projection falls outside
 * lies on its boundary). Degenerate triangles have only the edges. */
static sccd_v3 closest_on_triangle(sccd_v3 p, sccd_triangle tri, sccd_real *u, sccd_real *v)
{
    if (!sccd_cat_tri_degenerate(tri)) {
        sccd_real bu, bv;
        sccd_cat_barycentric(p, tri, &bu, &bv);
        if (bu >= 0.0 && bv >= 0.0 && bu + bv <= 1.0) {
            *u = bu;
            *v = bv;
            return sccd_v3_add(tri.a, sccd_v3_add(sccd_v3_scale(sccd_v3_sub(tri.b, tri.a), bu),
                                                  sccd_v3_scale(sccd_v3_sub(tri.c, tri.a), bv)));
        }
    }
    sccd_v3 best = tri.a;
    sccd_real best_d2 = INFINITY;
    for (int i = 0; i < 3; ++i) {
        sccd_real s;
        sccd_v3 x = sccd_closest_point_segment3(p, sccd_cat_tri_corner(tri, i), sccd_cat_tri_corner(tri, (i + 1) % 3), &s);
        sccd_real d2 = sccd_v3_len2(sccd_v3_sub(x, p));
        if (d2 < best_d2) {
            best_d2 = d2;
            best = x;
            sccd_cat_edge_barycentric(i, s, u, v);
        }
    }
    return best;
}

sccd_v3 sccd_closest_point_triangle(sccd_v3 p, sccd_triangle tri, sccd_real *u, sccd_real *v)
{
    sccd_real bu = 0.0, bv = 0.0;
    sccd_v3 x = {0.0, 0.0, 0.0};
    if (sccd_is_valid_v3(p) && sccd_is_valid_triangle(tri))
        x = closest_on_triangle(p, tri, &bu, &bv);
    else
        SCCD_ASSERT(sccd_is_valid_v3(p) && sccd_is_valid_triangle(tri));
    if (u)
        *u = bu;
    if (v)
        *v = bv;
    return x;
}

sccd_real sccd_distance_point_triangle(sccd_v3 p, sccd_triangle tri)
{
    if (!sccd_is_valid_v3(p) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_v3(p) && sccd_is_valid_triangle(tri));
        return INFINITY;
    }
    /* seed 004 "点と三角形" gives n·v, the distance to the triangle's plane,
     * which is too small whenever the foot falls outside the triangle; this
     * is the distance to the true closest point. */
    sccd_real u, v;
    return sccd_v3_dist(p, closest_on_triangle(p, tri, &u, &v));
}

/* Squared distance of a valid segment p–q and triangle: 0 when the segment
 * crosses the triangle (seed 004 "線分と三角形"); otherwise a closest pair
 * has a point on the boundary of one of them (if both were relative
 * interior points the segment would be parallel to the plane and could
 * slide to an end point), so the minimum over the two end points against the
 * triangle and the segment against the three edges is the distance. */
static sccd_real segment_triangle_d2(sccd_v3 p, sccd_v3 q, sccd_triangle tri)
{
    if (sccd_cat_cast_triangle(p, sccd_v3_sub(q, p), 1.0, tri).hit)
        return 0.0;
    sccd_real u, v;
    sccd_real d2 = sccd_min(sccd_v3_len2(sccd_v3_sub(p, closest_on_triangle(p, tri, &u, &v))),
                            sccd_v3_len2(sccd_v3_sub(q, closest_on_triangle(q, tri, &u, &v))));
    for (int i = 0; i < 3; ++i)
        d2 = sccd_min(d2, sccd_closest_segment_segment3(p, q, sccd_cat_tri_corner(tri, i),
                                                        sccd_cat_tri_corner(tri, (i + 1) % 3), NULL, NULL, NULL, NULL));
    return d2;
}

sccd_real sccd_distance_segment_triangle(sccd_segment3 seg, sccd_triangle tri)
{
    if (!sccd_is_valid_segment3(seg) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_segment3(seg) && sccd_is_valid_triangle(tri));
        return INFINITY;
    }
    return sqrt(segment_triangle_d2(seg.a, seg.b, tri));
}

sccd_real sccd_distance_ray_triangle(sccd_ray3 ray, sccd_triangle tri)
{
    if (!sccd_is_valid_ray3(ray) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_ray3(ray) && sccd_is_valid_triangle(tri));
        return INFINITY;
    }
    /* Beyond T = max over corners of (x − o)·d / |d|² every point of the ray
     * moves away from every point x of the triangle ((o + t·d − x)·d ≥ 0), so
     * the ray's distance is that of the segment o … o + T·d. */
    sccd_real l2 = sccd_v3_len2(ray.d), T = 0.0;
    for (int i = 0; l2 > 0.0 && i < 3; ++i)
        T = sccd_max(T, sccd_v3_dot(sccd_v3_sub(sccd_cat_tri_corner(tri, i), ray.o), ray.d) / l2);
    return sqrt(segment_triangle_d2(ray.o, sccd_v3_mad(ray.o, T, ray.d), tri));
}

/* ---- overlap tests ---- */

bool sccd_sphere_vs_point(sccd_sphere s, sccd_v3 p)
{
    if (!sccd_is_valid_sphere(s) || !sccd_is_valid_v3(p)) {
        SCCD_ASSERT(sccd_is_valid_sphere(s) && sccd_is_valid_v3(p));
        return false;
    }
    /* seed 004 "点と球" compares squares; the distance itself is compared
     * here so that a square overflowing to ∞ cannot equal an overflowed R². */
    return sccd_v3_dist(p, s.c) <= s.r + sccd_touch_slack(sccd_max(sccd_mag3(s.c) + s.r, sccd_mag3(p)));
}

bool sccd_aabb3_vs_point(sccd_aabb3 box, sccd_v3 p)
{
    if (!sccd_is_valid_aabb3(box) || !sccd_is_valid_v3(p)) {
        SCCD_ASSERT(sccd_is_valid_aabb3(box) && sccd_is_valid_v3(p));
        return false;
    }
    /* seed 004 "点と AABB": between both faces on every axis. */
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_mag3(p), sccd_max(sccd_mag3(box.lo), sccd_mag3(box.hi))));
    return p.x >= box.lo.x - tol && p.x <= box.hi.x + tol && p.y >= box.lo.y - tol && p.y <= box.hi.y + tol &&
           p.z >= box.lo.z - tol && p.z <= box.hi.z + tol;
}

static sccd_real cylinder_mag(sccd_cylinder c) { return sccd_max(sccd_mag3(c.a), sccd_mag3(c.b)) + c.r; }

/* Distance from p to a valid solid cylinder. In the half-plane through the
 * axis and p (axial z, radial ρ) the cylinder is the rectangle
 * [0, h] × [0, r], and the distance is the distance to that rectangle. */
static sccd_real distance_point_cylinder(sccd_v3 p, sccd_cylinder c)
{
    sccd_cat_axis ax = sccd_cat_axis_make(c.a, c.b);
    sccd_real z;
    sccd_real rho = sccd_v3_len(sccd_cat_axis_split(ax, p, &z));
    sccd_real ez = sccd_max(0.0, sccd_max(-z, z - ax.h)), er = sccd_max(0.0, rho - c.r);
    return sqrt(ez * ez + er * er);
}

bool sccd_cylinder_vs_point(sccd_cylinder c, sccd_v3 p)
{
    if (!sccd_is_valid_cylinder(c) || !sccd_is_valid_v3(p)) {
        SCCD_ASSERT(sccd_is_valid_cylinder(c) && sccd_is_valid_v3(p));
        return false;
    }
    /* seed 004 "円柱と点": 0 ≤ v·a ≤ a² and the squared foot length within r². */
    return distance_point_cylinder(p, c) <= sccd_touch_slack(sccd_max(cylinder_mag(c), sccd_mag3(p)));
}

bool sccd_sphere_vs_cylinder(sccd_sphere s, sccd_cylinder c)
{
    if (!sccd_is_valid_sphere(s) || !sccd_is_valid_cylinder(c)) {
        SCCD_ASSERT(sccd_is_valid_sphere(s) && sccd_is_valid_cylinder(c));
        return false;
    }
    /* seed 004 "円柱と球" splits into three cases (beside the side, beyond a
     * cap, near a rim: the circle cut by the cap plane); all three are the
     * distance to the rectangle of distance_point_cylinder. */
    sccd_real tol = sccd_touch_slack(sccd_max(cylinder_mag(c), sccd_mag3(s.c) + s.r));
    return distance_point_cylinder(s.c, c) <= s.r + tol;
}

bool sccd_sphere_vs_cone(sccd_sphere s, sccd_cone c)
{
    if (!sccd_is_valid_sphere(s) || !sccd_is_valid_cone(c)) {
        SCCD_ASSERT(sccd_is_valid_sphere(s) && sccd_is_valid_cone(c));
        return false;
    }
    /* seed 004 "球と円錐" works in the plane through the centre and the axis:
     * there the cone's half is the triangle apex (0, 0), base centre (h, 0),
     * rim (h, R) in axial/radial coordinates (x, ρ), and the distance of the
     * centre to the cone is its distance to that triangle. The seed tests
     * only the slant side l; the base side (h, 0)–(h, R) is needed too, or a
     * sphere beyond the base on the axis would count as touching. The axis
     * side ρ = 0 never holds the closest point, as ρ ≥ 0. */
    sccd_cat_axis ax = sccd_cat_axis_make(c.apex, c.base);
    sccd_real x;
    sccd_real rho = sccd_v3_len(sccd_cat_axis_split(ax, s.c, &x));
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_max(sccd_mag3(c.apex), sccd_mag3(c.base)) + c.r,
                                          sccd_mag3(s.c) + s.r));
    if (x >= 0.0 && x <= ax.h && rho <= c.r && rho * ax.h <= x * c.r)
        return true;
    sccd_v2 q = {x, rho}, rim = {ax.h, c.r};
    sccd_real d = sccd_min(sccd_distance_point_segment2(q, (sccd_v2){0.0, 0.0}, rim),
                           sccd_distance_point_segment2(q, (sccd_v2){ax.h, 0.0}, rim));
    return d <= s.r + tol;
}

bool sccd_sphere_vs_triangle(sccd_sphere s, sccd_triangle tri)
{
    if (!sccd_is_valid_sphere(s) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_sphere(s) && sccd_is_valid_triangle(tri));
        return false;
    }
    /* seed 004 "球と三角形": the distance to the triangle's closest point. */
    sccd_real u, v;
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_cat_tri_mag(tri), sccd_mag3(s.c) + s.r));
    return sccd_v3_dist(s.c, closest_on_triangle(s.c, tri, &u, &v)) <= s.r + tol;
}

bool sccd_sphere_vs_capsule3(sccd_sphere s, sccd_capsule3 c)
{
    if (!sccd_is_valid_sphere(s) || !sccd_is_valid_capsule3(c)) {
        SCCD_ASSERT(sccd_is_valid_sphere(s) && sccd_is_valid_capsule3(c));
        return false;
    }
    /* seed 004 "球の軌跡と球": grow the sphere by the capsule's radius and
     * test it against the capsule's segment. */
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_max(sccd_mag3(c.a), sccd_mag3(c.b)) + c.r, sccd_mag3(s.c) + s.r));
    return sccd_distance_point_segment3(s.c, c.a, c.b) <= s.r + c.r + tol;
}

bool sccd_capsule3_vs_triangle(sccd_capsule3 c, sccd_triangle tri)
{
    if (!sccd_is_valid_capsule3(c) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_capsule3(c) && sccd_is_valid_triangle(tri));
        return false;
    }
    /* seed 004 "球の軌跡と三角形": the triangle grown by r against the
     * segment, i.e. the segment–triangle distance against r. */
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_max(sccd_mag3(c.a), sccd_mag3(c.b)) + c.r, sccd_cat_tri_mag(tri)));
    return sqrt(segment_triangle_d2(c.a, c.b, tri)) <= c.r + tol;
}

bool sccd_cylinder_vs_plane(sccd_cylinder c, sccd_plane p)
{
    if (!sccd_is_valid_cylinder(c) || !sccd_is_valid_plane(p)) {
        SCCD_ASSERT(sccd_is_valid_cylinder(c) && sccd_is_valid_plane(p));
        return false;
    }
    /* seed 004 "円柱と平面": the points of the cylinder nearest to and
     * farthest from the plane are on the rims, in the plane through the axis
     * and n, at ±r·(n − (n·u)u)/|…| from the cap centres. Their signed
     * distances span centre ± (|n·u|·h/2 + r·√(1 − (n·u)²)); the cylinder
     * meets the plane when that span holds 0. */
    sccd_cat_axis ax = sccd_cat_axis_make(c.a, c.b);
    sccd_real cu = sccd_v3_dot(p.n, ax.u);
    sccd_real reach = fabs(cu) * 0.5 * ax.h + c.r * sqrt(sccd_max(0.0, 1.0 - cu * cu));
    sccd_real mid = sccd_v3_dot(p.n, sccd_v3_mad(c.a, 0.5 * ax.h, ax.u)) - p.d;
    return fabs(mid) <= reach + sccd_touch_slack(sccd_max(cylinder_mag(c), fabs(p.d)));
}

/* A point where the solid cylinder meets the plane n·x = k (unit n), if any.
 * When the axis crosses the plane, the crossing. Otherwise the cylinder, the
 * convex hull of its two cap discs, meets the plane only if the nearer cap
 * disc does: then its rim point deepest towards the plane is on the other
 * side, and the chord from the cap centre to it crosses the plane. */
static bool cylinder_plane_point(sccd_cylinder c, sccd_v3 n, sccd_real k, sccd_real tol, sccd_v3 *out)
{
    sccd_real sa = sccd_v3_dot(n, c.a) - k, sb = sccd_v3_dot(n, c.b) - k;
    if ((sa <= 0.0 && sb >= 0.0) || (sa >= 0.0 && sb <= 0.0)) {
        *out = sa == sb ? c.a : sccd_v3_lerp(c.a, c.b, sa / (sa - sb));
        return true;
    }
    sccd_v3 e = fabs(sa) < fabs(sb) ? c.a : c.b;
    sccd_real se = fabs(sa) < fabs(sb) ? sa : sb, sigma = se > 0.0 ? 1.0 : -1.0;
    sccd_cat_axis ax = sccd_cat_axis_make(c.a, c.b);
    sccd_v3 radial = sccd_v3_mad(n, -sccd_v3_dot(n, ax.u), ax.u);
    sccd_real rl = sccd_v3_len(radial);
    sccd_v3 deep = rl > 0.0 ? sccd_v3_mad(e, -sigma * c.r / rl, radial) : e;
    sccd_real sd = se - sigma * c.r * rl;
    if (sigma * sd > tol)
        return false;
    *out = sigma * sd >= 0.0 ? deep : sccd_v3_lerp(e, deep, se / (se - sd));
    return true;
}

bool sccd_cylinder_vs_triangle(sccd_cylinder c, sccd_triangle tri)
{
    if (!sccd_is_valid_cylinder(c) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_cylinder(c) && sccd_is_valid_triangle(tri));
        return false;
    }
    /* seed 004 "円柱と三角形" clips the triangle by the caps and solves a 2D
     * problem, with many cases. Exact and shorter: a solid cylinder C meets a
     * triangle T iff (1) an edge of T meets C, or (2) a point P of C ∩ plane(T)
     * lies in T. If C meets T but no edge, the convex (so connected) set
     * C ∩ plane meets T's interior and avoids its boundary, so it lies wholly
     * inside T: any P of it will do. A degenerate T is its edges. */
    if (!sccd_cat_tri_degenerate(tri)) {
        sccd_real tol = sccd_touch_slack(sccd_max(cylinder_mag(c), sccd_cat_tri_mag(tri)));
        sccd_v3 n = sccd_v3_normalize(sccd_v3_cross(sccd_v3_sub(tri.b, tri.a), sccd_v3_sub(tri.c, tri.a)));
        sccd_v3 p;
        if (!cylinder_plane_point(c, n, sccd_v3_dot(n, tri.a), tol, &p))
            return false;
        sccd_real u, v;
        sccd_cat_barycentric(p, tri, &u, &v);
        if (u >= 0.0 && v >= 0.0 && u + v <= 1.0)
            return true;
    }
    for (int i = 0; i < 3; ++i) {
        sccd_v3 p = sccd_cat_tri_corner(tri, i), q = sccd_cat_tri_corner(tri, (i + 1) % 3);
        if (sccd_cat_cast_cylinder(p, sccd_v3_sub(q, p), 1.0, c).hit)
            return true;
    }
    return false;
}

/* ---- separating axes ---- */

/* The span of the points p[0..n-1] projected on axis. */
static void project(const sccd_v3 *p, int n, sccd_v3 axis, sccd_real *lo, sccd_real *hi)
{
    *lo = *hi = sccd_v3_dot(axis, p[0]);
    for (int i = 1; i < n; ++i) {
        sccd_real d = sccd_v3_dot(axis, p[i]);
        *lo = sccd_min(*lo, d);
        *hi = sccd_max(*hi, d);
    }
}

/* True when some axis of the list separates the two point sets by more
 * than tol (a distance: the spans are compared along the unit axis). An
 * axis of (near) zero length is skipped: it is the cross product of
 * parallel directions, and the other axes decide those cases. */
static bool separated(const sccd_v3 *axes, int na, const sccd_v3 *p, int np, const sccd_v3 *q, int nq, sccd_real tol)
{
    for (int k = 0; k < na; ++k) {
        sccd_real len = sccd_v3_len(axes[k]);
        if (!(len > 1e-150))
            continue;
        sccd_real lp, hp, lq, hq;
        project(p, np, axes[k], &lp, &hp);
        project(q, nq, axes[k], &lq, &hq);
        if (hp + tol * len < lq || hq + tol * len < lp)
            return true;
    }
    return false;
}

/* Index of the longest of three edges. */
static int longest_edge(const sccd_v3 *e)
{
    sccd_real l0 = sccd_v3_len2(e[0]), l1 = sccd_v3_len2(e[1]), l2 = sccd_v3_len2(e[2]);
    return l0 >= l1 && l0 >= l2 ? 0 : (l1 >= l2 ? 1 : 2);
}

bool sccd_triangle_vs_triangle(sccd_triangle a, sccd_triangle b)
{
    if (!sccd_is_valid_triangle(a) || !sccd_is_valid_triangle(b)) {
        SCCD_ASSERT(sccd_is_valid_triangle(a) && sccd_is_valid_triangle(b));
        return false;
    }
    /* Two convex polygons in space are apart iff one of these separates
     * them: the normals, the edge-pair cross products, and the in-plane
     * normals of each edge in either triangle's plane (coplanar pairs, and
     * a segment-like triangle in the other's plane). Two segment-like
     * triangles in one plane take the plane from their longest edges. Any
     * axis that separates is a proof, so extra ones are safe. */
    sccd_v3 p[3] = {a.a, a.b, a.c}, q[3] = {b.a, b.b, b.c}, ea[3], eb[3], axes[32];
    for (int i = 0; i < 3; ++i) {
        ea[i] = sccd_v3_sub(p[(i + 1) % 3], p[i]);
        eb[i] = sccd_v3_sub(q[(i + 1) % 3], q[i]);
    }
    sccd_v3 na = sccd_v3_cross(ea[0], ea[1]), nb = sccd_v3_cross(eb[0], eb[1]);
    sccd_v3 la = ea[longest_edge(ea)], lb = eb[longest_edge(eb)], nab = sccd_v3_cross(la, lb);
    int n = 0;
    axes[n++] = na;
    axes[n++] = nb;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j)
            axes[n++] = sccd_v3_cross(ea[i], eb[j]);
        axes[n++] = sccd_v3_cross(na, ea[i]);
        axes[n++] = sccd_v3_cross(nb, eb[i]);
        axes[n++] = sccd_v3_cross(nb, ea[i]);
        axes[n++] = sccd_v3_cross(na, eb[i]);
        axes[n++] = ea[i]; /* collinear pairs: along their line */
        axes[n++] = eb[i];
    }
    axes[n++] = sccd_v3_cross(nab, la);
    axes[n++] = sccd_v3_cross(nab, lb);
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_cat_tri_mag(a), sccd_cat_tri_mag(b)));
    return !separated(axes, n, p, 3, q, 3, tol);
}

bool sccd_box3_vs_triangle(sccd_box3 box, sccd_triangle tri)
{
    if (!sccd_is_valid_box3(box) || !sccd_is_valid_triangle(tri)) {
        SCCD_ASSERT(sccd_is_valid_box3(box) && sccd_is_valid_triangle(tri));
        return false;
    }
    /* In the box's frame the box is [−h, h]; its corners are projected like
     * the triangle's, which keeps one routine for every axis. */
    sccd_v3 t[3] = {sccd_quat_inv_apply(box.q, sccd_v3_sub(tri.a, box.c)),
                    sccd_quat_inv_apply(box.q, sccd_v3_sub(tri.b, box.c)),
                    sccd_quat_inv_apply(box.q, sccd_v3_sub(tri.c, box.c))};
    sccd_v3 corners[8], axes[13], e[3], u[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 8; ++i)
        corners[i] = (sccd_v3){i & 1 ? box.h.x : -box.h.x, i & 2 ? box.h.y : -box.h.y, i & 4 ? box.h.z : -box.h.z};
    for (int i = 0; i < 3; ++i)
        e[i] = sccd_v3_sub(t[(i + 1) % 3], t[i]);
    int n = 0;
    for (int i = 0; i < 3; ++i)
        axes[n++] = u[i];
    axes[n++] = sccd_v3_cross(e[0], e[1]);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            axes[n++] = sccd_v3_cross(u[i], e[j]);
    sccd_real tol = sccd_touch_slack(sccd_max(sccd_mag3(box.c) + sccd_v3_len(box.h), sccd_cat_tri_mag(tri)));
    return !separated(axes, n, corners, 8, t, 3, tol);
}
