/* The branch-and-bound oracle for 3D sector tests (see the header). */
#include "sector3_oracle.h"

#include "sectorccd/geometry.h"

#include <float.h>

typedef struct ocell { sccd_real r0, r1, p0, p1, z0, z1, d; } ocell;

static sccd_v3 sector_point(const sccd_sector3 *s, sccd_real rho, sccd_real phi, sccd_real z)
{
    sccd_v3 k = sccd_v3_cross(s->u, s->a);
    sccd_v3 p = sccd_v3_mad(s->o, rho * cos(phi), s->a);
    p = sccd_v3_mad(p, rho * sin(phi), k);
    return sccd_v3_mad(p, z, s->u);
}

static sccd_real cell_radius(const ocell *c)
{
    /* path: along z, then along ρ, then along the arc of radius ≤ r1 */
    return 0.5 * ((c->r1 - c->r0) + c->r1 * (c->p1 - c->p0) + (c->z1 - c->z0));
}

static void cell_eval(const sccd_sector3 *s, sccd_oracle_dist_fn *dist, const void *shape, ocell *c)
{
    c->d = dist(shape, sector_point(s, 0.5 * (c->r0 + c->r1), 0.5 * (c->p0 + c->p1), 0.5 * (c->z0 + c->z1)));
}

#define OSTACK 4096
#define OBUDGET 60000

sccd_oracle_verdict sccd_oracle_sector3(const sccd_sector3 *s, sccd_oracle_dist_fn *dist, const void *shape,
                                        sccd_real scale)
{
    static ocell st[OSTACK];
    int n = 0;
    bool unsure = false;
    st[n] = (ocell){s->r, s->R, -s->half_angle, s->half_angle, s->zlo, s->zhi, 0.0};
    cell_eval(s, dist, shape, &st[n++]);
    for (int budget = 0; n > 0; ++budget) {
        ocell c = st[--n];
        if (c.d <= 1e-11 * scale)
            return SCCD_ORACLE_HIT;
        sccd_real rad = cell_radius(&c);
        if (c.d - rad > 1e-8 * scale)
            continue;
        if (rad < 1e-10 * scale || budget > OBUDGET || n + 2 > OSTACK) {
            unsure = true;
            continue;
        }
        ocell a = c, b = c;
        sccd_real er = c.r1 - c.r0, ep = c.r1 * (c.p1 - c.p0), ez = c.z1 - c.z0;
        if (er >= ep && er >= ez)
            a.r1 = b.r0 = 0.5 * (c.r0 + c.r1);
        else if (ep >= ez)
            a.p1 = b.p0 = 0.5 * (c.p0 + c.p1);
        else
            a.z1 = b.z0 = 0.5 * (c.z0 + c.z1);
        cell_eval(s, dist, shape, &a);
        cell_eval(s, dist, shape, &b);
        st[n++] = a.d < b.d ? b : a;
        st[n++] = a.d < b.d ? a : b;
    }
    return unsure ? SCCD_ORACLE_UNSURE : SCCD_ORACLE_SEPARATED;
}

sccd_real sccd_oracle_dist_sphere(const void *sphere, sccd_v3 p)
{
    const sccd_sphere *s = sphere;
    return sccd_v3_dist(p, s->c) - s->r;
}

sccd_real sccd_oracle_dist_capsule(const void *capsule, sccd_v3 p)
{
    const sccd_capsule3 *c = capsule;
    return sccd_distance_point_segment3(p, c->a, c->b) - c->r;
}

sccd_real sccd_oracle_dist_box(const void *box, sccd_v3 p)
{
    const sccd_box3 *b = box;
    sccd_v3 q = sccd_v3_abs(sccd_quat_inv_apply(b->q, sccd_v3_sub(p, b->c)));
    sccd_v3 e = sccd_v3_sub(q, b->h);
    sccd_v3 out = sccd_v3_max(e, (sccd_v3){0.0, 0.0, 0.0});
    return sccd_v3_len(out) + sccd_min(0.0, sccd_max(e.x, sccd_max(e.y, e.z)));
}

/* Wider than a double for a sliver's face: long double where it has 64
 * bits or more (x86's, in hardware), else __float128 where the compiler
 * has it (in software: ten times slower); else a double, which then takes
 * slivers under 1e-5 thin for what their rounding makes them. */
#if LDBL_MANT_DIG >= 64
typedef long double wide;
#elif defined(__SIZEOF_FLOAT128__)
typedef __float128 wide;
#else
typedef double wide;
#endif

/* The triple product (u × v)·w. */
static wide wide_triple(const wide u[3], const wide v[3], const wide w[3])
{
    return (u[1] * v[2] - u[2] * v[1]) * w[0] + (u[2] * v[0] - u[0] * v[2]) * w[1] + (u[0] * v[1] - u[1] * v[0]) * w[2];
}

/* The squared distance from p to the plane of a sliver's face when p
 * projects inside the face (in which case it returns true), in wide
 * arithmetic: a sliver's plane, the cross product of two nearly parallel
 * edges, tilts by about the rounding over its thinness (its angles'
 * sines), and the distance it gives a point a length away moves by as
 * much: in doubles a sliver 1e-7 of its length thin was called touching a
 * sector 5e-9 away, where the branch-and-bound claims a hit within 2e-10.
 * In 64 bits a sliver 1e-9 thin is off by under 6e-10 at ten lengths,
 * within the sector tests' tolerance (thinner ones are segments there).
 * The sides by triple products, ((b − a) × (p − a))·n ≥ 0 and its turns,
 * which need no projected point. */
static bool wide_face_dist2(const sccd_triangle *t, sccd_v3 p, sccd_real *d2)
{
    const sccd_v3 v[3] = {t->a, t->b, t->c};
    wide e[3][3], q[3][3], n[3];
    for (int k = 0; k < 3; ++k) {
        sccd_v3 from = v[k], to = v[(k + 1) % 3];
        e[k][0] = (wide)to.x - from.x, e[k][1] = (wide)to.y - from.y, e[k][2] = (wide)to.z - from.z;
        q[k][0] = (wide)p.x - from.x, q[k][1] = (wide)p.y - from.y, q[k][2] = (wide)p.z - from.z;
    }
    n[0] = e[0][1] * -e[2][2] + e[0][2] * e[2][1]; /* (b − a) × (c − a), c − a = −e[2] */
    n[1] = e[0][2] * -e[2][0] + e[0][0] * e[2][2];
    n[2] = e[0][0] * -e[2][1] + e[0][1] * e[2][0];
    wide n2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (!(n2 > 0) || wide_triple(e[0], q[0], n) < 0 || wide_triple(e[1], q[1], n) < 0 || wide_triple(e[2], q[2], n) < 0)
        return false;
    wide h = q[0][0] * n[0] + q[0][1] * n[1] + q[0][2] * n[2];
    *d2 = (sccd_real)(h * h / n2);
    return true;
}

sccd_real sccd_oracle_dist_triangle(const void *tri, sccd_v3 p)
{
    /* Closest point by Voronoi regions of the vertices, edges and face. */
    const sccd_triangle *t = tri;
    sccd_v3 a = t->a, b = t->b, c = t->c;
    sccd_v3 ab = sccd_v3_sub(b, a), ac = sccd_v3_sub(c, a), n = sccd_v3_cross(ab, ac);
    sccd_real n2 = sccd_v3_len2(n), d2;
    if (n2 < 1e-10 * sccd_v3_len2(ab) * sccd_v3_len2(ac)) { /* a sliver (a sine below 1e-5): 1e-11 off in doubles */
        if (wide_face_dist2(t, p, &d2))
            return sqrt(d2);
    } else {
        sccd_v3 ap = sccd_v3_sub(p, a);
        sccd_real h = sccd_v3_dot(ap, n) / n2;
        sccd_v3 f = sccd_v3_mad(p, -h, n); /* projection onto the plane */
        sccd_real w1 = sccd_v3_dot(sccd_v3_cross(ab, sccd_v3_sub(f, a)), n);
        sccd_real w2 = sccd_v3_dot(sccd_v3_cross(sccd_v3_sub(c, b), sccd_v3_sub(f, b)), n);
        sccd_real w3 = sccd_v3_dot(sccd_v3_cross(sccd_v3_sub(a, c), sccd_v3_sub(f, c)), n);
        if (w1 >= 0.0 && w2 >= 0.0 && w3 >= 0.0)
            return fabs(h) * sqrt(n2);
    }
    return sccd_min(sccd_distance_point_segment3(p, a, b),
                    sccd_min(sccd_distance_point_segment3(p, b, c), sccd_distance_point_segment3(p, c, a)));
}

static sccd_real interval_gap(sccd_real x, sccd_real lo, sccd_real hi)
{
    return x < lo ? lo - x : (x > hi ? x - hi : 0.0);
}

sccd_real sccd_oracle_dist_sector(const void *sector, sccd_v3 p)
{
    const sccd_sector3 *s = sector;
    sccd_v3 k = sccd_v3_cross(s->u, s->a);
    sccd_v3 d = sccd_v3_sub(p, s->o);
    sccd_real x = sccd_v3_dot(d, s->a), y = sccd_v3_dot(d, k), z = sccd_v3_dot(d, s->u);
    sccd_real rho = sqrt(x * x + y * y);
    /* The angle by atan2, not acos(x / ρ), which is flat near ±1: it took
     * angles up to 1e-8 rad from 0 or π for those angles themselves. */
    if (rho == 0.0 || atan2(fabs(y), x) <= s->half_angle)
        return hypot(interval_gap(rho, s->r, s->R), interval_gap(z, s->zlo, s->zhi));
    /* Outside the wedge: the nearer of the two side rectangles. */
    sccd_real best = INFINITY;
    for (int sg = -1; sg <= 1; sg += 2) {
        sccd_v3 gdir = sccd_v3_add(sccd_v3_scale(s->a, cos(s->half_angle)), sccd_v3_scale(k, sg * sin(s->half_angle)));
        sccd_real along = sccd_v3_dot(d, gdir);
        sccd_v3 off = sccd_v3_sub(sccd_v3_sub(d, sccd_v3_scale(gdir, along)), sccd_v3_scale(s->u, z));
        sccd_real e1 = interval_gap(along, s->r, s->R), e2 = interval_gap(z, s->zlo, s->zhi);
        best = sccd_min(best, sqrt(e1 * e1 + e2 * e2 + sccd_v3_len2(off)));
    }
    return best;
}

sccd_sector3 sccd_oracle_random_sector(sccd_rng *g)
{
    sccd_sector3 s;
    s.o = sccd_rng_v3(g, 3.0);
    s.u = sccd_rng_unit3(g);
    s.a = sccd_v3_normalize(sccd_v3_cross(s.u, sccd_rng_unit3(g)));
    int k = sccd_rng_int(g, 10);
    const sccd_real special[6] = {0.0, 1e-7, 0.5 * SCCD_PI - 1e-7, 0.5 * SCCD_PI, SCCD_PI - 1e-7, SCCD_PI};
    s.half_angle = k < 6 ? special[k] : sccd_rng_uniform(g, 0.0, SCCD_PI);
    s.R = sccd_rng_uniform(g, 0.5, 6.0);
    k = sccd_rng_int(g, 5);
    s.r = k == 0 ? 0.0 : (k == 1 ? s.R : sccd_rng_uniform(g, 0.0, s.R));
    s.zlo = sccd_rng_uniform(g, -3.0, 1.0);
    s.zhi = sccd_rng_int(g, 6) == 0 ? s.zlo : s.zlo + sccd_rng_uniform(g, 0.0, 4.0);
    return s;
}

sccd_v3 sccd_oracle_near(const sccd_sector3 *s, sccd_rng *g)
{
    if (sccd_rng_int(g, 4) == 0)
        return sccd_v3_add(s->o, sccd_rng_v3(g, 1.0));
    return sccd_v3_add(s->o, sccd_rng_v3(g, s->R + 3.0));
}

sccd_triangle sccd_oracle_random_triangle(sccd_rng *g, sccd_v3 a, sccd_real size)
{
    sccd_v3 b = sccd_v3_add(a, sccd_rng_v3(g, size));
    int k = sccd_rng_int(g, 10);
    if (k == 0)
        return (sccd_triangle){a, b, b};
    if (k > 2)
        return (sccd_triangle){a, b, sccd_v3_add(a, sccd_rng_v3(g, size))};
    sccd_v3 ab = sccd_v3_sub(b, a), off = sccd_v3_cross(ab, sccd_rng_unit3(g));
    sccd_real thin = pow(10.0, -sccd_rng_uniform(g, 3.0, 9.0)), len = sccd_v3_len(off);
    sccd_v3 on = sccd_v3_mad(a, sccd_rng_uniform(g, -0.5, 1.5), ab); /* a needle past a or b, or a cap between */
    return (sccd_triangle){a, b, len > 0.0 ? sccd_v3_mad(on, thin * sccd_v3_len(ab) / len, off) : on};
}
