#include "catalogue_oracle.h"

double orc_mag(sccd_v3 a) { return fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z))); }

static double pos(double x) { return x > 0.0 ? x : 0.0; }

double orc_dist_sphere(sccd_v3 p, sccd_sphere s)
{
    double dx = p.x - s.c.x, dy = p.y - s.c.y, dz = p.z - s.c.z;
    return pos(sqrt(dx * dx + dy * dy + dz * dz) - s.r);
}

double orc_dist_aabb(sccd_v3 p, sccd_aabb3 b)
{
    double ex = pos(fmax(b.lo.x - p.x, p.x - b.hi.x));
    double ey = pos(fmax(b.lo.y - p.y, p.y - b.hi.y));
    double ez = pos(fmax(b.lo.z - p.z, p.z - b.hi.z));
    return sqrt(ex * ex + ey * ey + ez * ez);
}

/* The box's axes as the columns of its rotation matrix. */
static void box_axes(sccd_quat q, sccd_v3 ax[3])
{
    double x = q.x, y = q.y, z = q.z, w = q.w;
    ax[0] = (sccd_v3){1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
    ax[1] = (sccd_v3){2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)};
    ax[2] = (sccd_v3){2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
}

double orc_dist_box(sccd_v3 p, sccd_box3 b)
{
    sccd_v3 ax[3];
    box_axes(b.q, ax);
    sccd_v3 w = sccd_v3_sub(p, b.c);
    double h[3] = {b.h.x, b.h.y, b.h.z}, s = 0.0;
    for (int i = 0; i < 3; ++i) {
        double e = pos(fabs(sccd_v3_dot(w, ax[i])) - h[i]);
        s += e * e;
    }
    return sqrt(s);
}

double orc_dist_cylinder(sccd_v3 p, sccd_cylinder c)
{
    /* seed 004 "円柱と点": a = b − a, v = p − a, v·a and v² − (v·a)²/a². */
    sccd_v3 a = sccd_v3_sub(c.b, c.a), v = sccd_v3_sub(p, c.a);
    double a2 = sccd_v3_dot(a, a);
    double len = sqrt(a2);
    double z = a2 > 0.0 ? sccd_v3_dot(v, a) / len : v.x; /* zero axis: +x */
    double rho = sqrt(pos(sccd_v3_dot(v, v) - z * z));
    double ez = z < 0.0 ? -z : pos(z - len), er = pos(rho - c.r);
    return sqrt(ez * ez + er * er);
}

double orc_dist_capsule(sccd_v3 p, sccd_capsule3 c)
{
    sccd_v3 d = sccd_v3_sub(c.b, c.a);
    double d2 = sccd_v3_dot(d, d);
    double t = d2 > 0.0 ? fmin(1.0, fmax(0.0, sccd_v3_dot(sccd_v3_sub(p, c.a), d) / d2)) : 0.0;
    sccd_v3 x = sccd_v3_mad(c.a, t, d);
    return pos(sccd_v3_len(sccd_v3_sub(p, x)) - c.r);
}

sccd_v3 orc_triangle_at(sccd_triangle t, double s, double w)
{
    sccd_v3 e1 = sccd_v3_sub(t.b, t.a), e2 = sccd_v3_sub(t.c, t.a);
    return sccd_v3_mad(t.a, s, sccd_v3_add(sccd_v3_scale(e1, 1.0 - w), sccd_v3_scale(e2, w)));
}

void orc_triangle_lip(sccd_triangle t, double lip[2])
{
    lip[0] = fmax(sccd_v3_dist(t.a, t.b), sccd_v3_dist(t.a, t.c));
    lip[1] = sccd_v3_dist(t.b, t.c);
}

/* A unit axis and a perpendicular pair, built by Gram–Schmidt from the
 * coordinate axis least aligned with u. */
static void frame(sccd_v3 d, sccd_v3 *u, sccd_v3 *e1, sccd_v3 *e2)
{
    double l = sccd_v3_len(d);
    *u = l > 0.0 ? sccd_v3_scale(d, 1.0 / l) : (sccd_v3){1.0, 0.0, 0.0};
    sccd_v3 t = fabs(u->x) < 0.6 ? (sccd_v3){1, 0, 0} : (fabs(u->y) < 0.6 ? (sccd_v3){0, 1, 0} : (sccd_v3){0, 0, 1});
    *e1 = sccd_v3_normalize(sccd_v3_mad(t, -sccd_v3_dot(t, *u), *u));
    *e2 = sccd_v3_cross(*u, *e1);
}

static sccd_v3 around(sccd_v3 e1, sccd_v3 e2, double phi) { return sccd_v3_add(sccd_v3_scale(e1, cos(phi)), sccd_v3_scale(e2, sin(phi))); }

sccd_v3 orc_cylinder_at(sccd_cylinder c, double s, double rho, double phi)
{
    sccd_v3 u, e1, e2;
    frame(sccd_v3_sub(c.b, c.a), &u, &e1, &e2);
    return sccd_v3_mad(sccd_v3_lerp(c.a, c.b, s), rho * c.r, around(e1, e2, phi));
}

void orc_cylinder_lip(sccd_cylinder c, double lip[3])
{
    lip[0] = sccd_v3_dist(c.a, c.b);
    lip[1] = c.r;
    lip[2] = c.r;
}

sccd_v3 orc_cone_at(sccd_cone c, double s, double rho, double phi)
{
    sccd_v3 u, e1, e2;
    frame(sccd_v3_sub(c.base, c.apex), &u, &e1, &e2);
    return sccd_v3_mad(sccd_v3_lerp(c.apex, c.base, s), s * rho * c.r, around(e1, e2, phi));
}

void orc_cone_lip(sccd_cone c, double lip[3])
{
    lip[0] = sccd_v3_dist(c.apex, c.base) + c.r;
    lip[1] = c.r;
    lip[2] = c.r;
}

sccd_triangle orc_rand_triangle(sccd_rng *g, double s)
{
    return (sccd_triangle){sccd_rng_v3(g, s), sccd_rng_v3(g, s), sccd_rng_v3(g, s)};
}

sccd_cylinder orc_rand_cylinder(sccd_rng *g)
{
    sccd_v3 a = sccd_rng_v3(g, 3.0);
    return (sccd_cylinder){a, sccd_v3_mad(a, sccd_rng_uniform(g, 0.05, 6.0), sccd_rng_unit3(g)),
                           sccd_rng_uniform(g, 0.05, 3.0)};
}

sccd_cone orc_rand_cone(sccd_rng *g)
{
    sccd_v3 a = sccd_rng_v3(g, 3.0);
    return (sccd_cone){a, sccd_v3_mad(a, sccd_rng_uniform(g, 0.05, 6.0), sccd_rng_unit3(g)), sccd_rng_uniform(g, 0.05, 4.0)};
}

sccd_capsule3 orc_rand_capsule(sccd_rng *g)
{
    sccd_v3 a = sccd_rng_v3(g, 3.0);
    return (sccd_capsule3){a, sccd_v3_mad(a, sccd_rng_uniform(g, 0.0, 6.0), sccd_rng_unit3(g)),
                           sccd_rng_uniform(g, 0.05, 3.0)};
}

sccd_box3 orc_rand_box(sccd_rng *g)
{
    return (sccd_box3){sccd_rng_v3(g, 3.0), sccd_rng_quat(g),
                       {sccd_rng_uniform(g, 0.05, 3.0), sccd_rng_uniform(g, 0.05, 3.0), sccd_rng_uniform(g, 0.05, 3.0)}};
}

sccd_v3 orc_perp(sccd_rng *g, sccd_v3 n)
{
    sccd_v3 u, e1, e2;
    frame(n, &u, &e1, &e2);
    return around(e1, e2, sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI));
}

void orc_surface_cylinder(sccd_rng *g, sccd_cylinder c, sccd_v3 *q, sccd_v3 *n)
{
    sccd_v3 u, e1, e2;
    frame(sccd_v3_sub(c.b, c.a), &u, &e1, &e2);
    sccd_v3 dir = around(e1, e2, sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI));
    int kind = sccd_rng_int(g, 3), top = sccd_rng_int(g, 2);
    sccd_v3 cap = top ? c.b : c.a, out = top ? u : sccd_v3_neg(u);
    if (kind == 0) { /* side */
        *q = sccd_v3_mad(sccd_v3_lerp(c.a, c.b, sccd_rng_uniform(g, 0.0, 1.0)), c.r, dir);
        *n = dir;
    } else if (kind == 1) { /* cap */
        *q = sccd_v3_mad(cap, c.r * sqrt(sccd_rng_uniform(g, 0.0, 1.0)), dir);
        *n = out;
    } else { /* rim: any mix of the cap and side normals */
        double a = sccd_rng_uniform(g, 0.0, 0.5 * SCCD_PI);
        *q = sccd_v3_mad(cap, c.r, dir);
        *n = sccd_v3_add(sccd_v3_scale(out, cos(a)), sccd_v3_scale(dir, sin(a)));
    }
}

void orc_surface_cone(sccd_rng *g, sccd_cone c, sccd_v3 *q, sccd_v3 *n)
{
    sccd_v3 u, e1, e2;
    frame(sccd_v3_sub(c.base, c.apex), &u, &e1, &e2);
    double h = sccd_v3_dist(c.apex, c.base), L = sqrt(h * h + c.r * c.r);
    sccd_v3 dir = around(e1, e2, sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI));
    /* The slant's outward normal in the (u, dir) plane: (−r·u + h·dir) / L. */
    sccd_v3 slant = sccd_v3_scale(sccd_v3_add(sccd_v3_scale(u, -c.r), sccd_v3_scale(dir, h)), 1.0 / L);
    int kind = sccd_rng_int(g, 4);
    if (kind == 0) {
        double s = sccd_rng_uniform(g, 0.0, 1.0);
        *q = sccd_v3_mad(sccd_v3_lerp(c.apex, c.base, s), s * c.r, dir);
        *n = slant;
    } else if (kind == 1) {
        *q = sccd_v3_mad(c.base, c.r * sqrt(sccd_rng_uniform(g, 0.0, 1.0)), dir);
        *n = u;
    } else if (kind == 2) { /* rim: between the base normal u and the slant normal */
        double a = sccd_rng_uniform(g, 0.0, 1.0);
        *q = sccd_v3_mad(c.base, c.r, dir);
        *n = sccd_v3_normalize(sccd_v3_add(sccd_v3_scale(u, a), sccd_v3_scale(slant, 1.0 - a)));
    } else { /* apex: −u tilted towards dir by at most atan(h / r) */
        double b = sccd_rng_uniform(g, 0.0, atan2(h, c.r));
        *q = c.apex;
        *n = sccd_v3_add(sccd_v3_scale(u, -cos(b)), sccd_v3_scale(dir, sin(b)));
    }
}

void orc_surface_triangle(sccd_rng *g, sccd_triangle t, sccd_v3 *q, sccd_v3 *n)
{
    sccd_v3 p[3] = {t.a, t.b, t.c};
    sccd_v3 nh = sccd_v3_normalize(sccd_v3_cross(sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a)));
    if (sccd_rng_int(g, 2))
        nh = sccd_v3_neg(nh);
    int kind = sccd_rng_int(g, 3), i = sccd_rng_int(g, 3);
    sccd_v3 a = p[i], b = p[(i + 1) % 3], c = p[(i + 2) % 3];
    double tilt = sccd_rng_uniform(g, 0.0, 0.5 * SCCD_PI);
    if (kind == 0) { /* face */
        double s = sccd_rng_uniform(g, 0.0, 1.0), w = sccd_rng_uniform(g, 0.0, 1.0);
        *q = orc_triangle_at(t, s, w);
        *n = nh;
    } else if (kind == 1) { /* edge a–b: out of the triangle in its plane, tilted towards ±n */
        sccd_v3 e = sccd_v3_normalize(sccd_v3_sub(b, a));
        sccd_v3 m = sccd_v3_normalize(sccd_v3_mad(sccd_v3_sub(a, c), -sccd_v3_dot(sccd_v3_sub(a, c), e), e));
        *q = sccd_v3_lerp(a, b, sccd_rng_uniform(g, 0.0, 1.0));
        *n = sccd_v3_add(sccd_v3_scale(m, cos(tilt)), sccd_v3_scale(nh, sin(tilt)));
    } else { /* corner a: away from both edges (their bisector, reversed) */
        sccd_v3 m = sccd_v3_normalize(
            sccd_v3_neg(sccd_v3_add(sccd_v3_normalize(sccd_v3_sub(b, a)), sccd_v3_normalize(sccd_v3_sub(c, a)))));
        *q = a;
        *n = sccd_v3_add(sccd_v3_scale(m, cos(tilt)), sccd_v3_scale(nh, sin(tilt)));
    }
}

void orc_surface_capsule(sccd_rng *g, sccd_capsule3 c, sccd_v3 *q, sccd_v3 *n)
{
    sccd_v3 axis = sccd_v3_sub(c.b, c.a);
    if (sccd_rng_int(g, 2) || sccd_v3_len2(axis) == 0.0) { /* an end sphere, outer hemisphere */
        int top = sccd_rng_int(g, 2);
        sccd_v3 d = sccd_rng_unit3(g);
        if (sccd_v3_dot(d, axis) * (top ? 1.0 : -1.0) < 0.0)
            d = sccd_v3_mad(d, -2.0 * sccd_v3_dot(d, axis) / sccd_v3_len2(axis), axis);
        *n = d;
        *q = sccd_v3_mad(top ? c.b : c.a, c.r, d);
    } else {
        *n = orc_perp(g, sccd_v3_normalize(axis));
        *q = sccd_v3_mad(sccd_v3_lerp(c.a, c.b, sccd_rng_uniform(g, 0.0, 1.0)), c.r, *n);
    }
}

void orc_surface_box(sccd_rng *g, sccd_box3 b, sccd_v3 *q, sccd_v3 *n)
{
    sccd_v3 ax[3];
    box_axes(b.q, ax);
    double h[3] = {b.h.x, b.h.y, b.h.z};
    int pinned = 1 + sccd_rng_int(g, 3); /* 1 face, 2 edge, 3 corner */
    int first = sccd_rng_int(g, 3);
    sccd_v3 p = b.c, nn = {0.0, 0.0, 0.0};
    for (int k = 0; k < 3; ++k) {
        int i = (first + k) % 3;
        if (k < pinned) {
            double s = sccd_rng_int(g, 2) ? 1.0 : -1.0;
            p = sccd_v3_mad(p, s * h[i], ax[i]);
            nn = sccd_v3_mad(nn, s * sccd_rng_uniform(g, 0.05, 1.0), ax[i]);
        } else {
            p = sccd_v3_mad(p, sccd_rng_uniform(g, -h[i], h[i]), ax[i]);
        }
    }
    *q = p;
    *n = sccd_v3_normalize(nn);
}

/* Solve the n×n system a·x = b in place by Gaussian elimination with partial
 * pivoting; false when a pivot is negligible (the face's problem is singular). */
static bool solve(int n, double a[6][6], double b[6], double x[6])
{
    double big = 0.0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            big = fmax(big, fabs(a[i][j]));
    for (int c = 0; c < n; ++c) {
        int p = c;
        for (int r = c + 1; r < n; ++r)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        if (fabs(a[p][c]) <= 1e-13 * big)
            return false;
        for (int j = 0; j < n; ++j) {
            double t = a[c][j];
            a[c][j] = a[p][j];
            a[p][j] = t;
        }
        double t = b[c];
        b[c] = b[p];
        b[p] = t;
        for (int r = c + 1; r < n; ++r) {
            double f = a[r][c] / a[c][c];
            for (int j = c; j < n; ++j)
                a[r][j] -= f * a[c][j];
            b[r] -= f * b[c];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int j = r + 1; j < n; ++j)
            s -= a[r][j] * x[j];
        x[r] = s / a[r][r];
    }
    return true;
}

double orc_qp_min(int k, const sccd_v3 *col, sccd_v3 q, int m, const double *g, const double *h, double *arg)
{
    double best = INFINITY;
    for (int mask = 0; mask < (1 << m); ++mask) {
        int act[6], na = 0;
        for (int j = 0; j < m; ++j)
            if (mask & (1 << j))
                act[na++] = j;
        if (na > k)
            continue;
        /* KKT: [MᵀM Gᵀ; G 0]·(x, λ) = (Mᵀq, h) on the active rows. */
        double a[6][6] = {{0}}, b[6] = {0}, x[6] = {0};
        for (int i = 0; i < k; ++i) {
            for (int j = 0; j < k; ++j)
                a[i][j] = sccd_v3_dot(col[i], col[j]);
            b[i] = sccd_v3_dot(col[i], q);
        }
        for (int r = 0; r < na; ++r) {
            for (int i = 0; i < k; ++i)
                a[k + r][i] = a[i][k + r] = g[act[r] * k + i];
            b[k + r] = h[act[r]];
        }
        if (!solve(k + na, a, b, x))
            continue;
        bool feasible = true;
        for (int j = 0; j < m; ++j) {
            double s = 0.0;
            for (int i = 0; i < k; ++i)
                s += g[j * k + i] * x[i];
            feasible = feasible && s <= h[j] + 1e-10 * (1.0 + fabs(h[j]));
        }
        if (!feasible)
            continue;
        sccd_v3 y = sccd_v3_neg(q);
        for (int i = 0; i < k; ++i)
            y = sccd_v3_mad(y, x[i], col[i]);
        double d = sccd_v3_len(y);
        if (d < best) {
            best = d;
            for (int i = 0; arg && i < k; ++i)
                arg[i] = x[i];
        }
    }
    return best;
}

double orc_dist_triangle(sccd_v3 p, sccd_triangle t)
{
    /* a + u·e1 + v·e2 − p over u ≥ 0, v ≥ 0, u + v ≤ 1. */
    sccd_v3 col[2] = {sccd_v3_sub(t.b, t.a), sccd_v3_sub(t.c, t.a)};
    double g[6] = {-1, 0, 0, -1, 1, 1}, h[3] = {0, 0, 1};
    return orc_qp_min(2, col, sccd_v3_sub(p, t.a), 3, g, h, NULL);
}

double orc_dist_segment_triangle(sccd_v3 a, sccd_v3 b, bool ray, sccd_triangle t)
{
    /* (a + s·(b − a)) − (t.a + u·e1 + v·e2): variables (s, u, v). */
    sccd_v3 col[3] = {sccd_v3_sub(b, a), sccd_v3_sub(t.a, t.b), sccd_v3_sub(t.a, t.c)};
    double g[15] = {0, -1, 0, 0, 0, -1, 0, 1, 1, -1, 0, 0, 1, 0, 0}, h[5] = {0, 0, 1, 0, 1};
    return orc_qp_min(3, col, sccd_v3_sub(t.a, a), ray ? 4 : 5, g, h, NULL);
}
