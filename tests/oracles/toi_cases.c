#include "toi_cases.h"

/* The distance at t, not clamped at touching: GJK's witnesses along its
 * normal (negative when only the rounded parts overlap, 0 when the cores do). */
double sccd_toi_case2_distance(const void *ctx, double t)
{
    const toi_case2 *c = ctx;
    sccd_distance2 d = sccd_shape2_distance(&c->a, sccd_motion2_at(c->ma, t), &c->b, sccd_motion2_at(c->mb, t));
    return sccd_v2_dot(sccd_v2_sub(d.pb, d.pa), d.normal);
}

double sccd_toi_case3_distance(const void *ctx, double t)
{
    const toi_case3 *c = ctx;
    sccd_distance3 d = sccd_shape3_distance(&c->a, sccd_motion3_at(c->ma, t), &c->b, sccd_motion3_at(c->mb, t));
    return sccd_v3_dot(sccd_v3_sub(d.pb, d.pa), d.normal);
}

/* Farthest distance of a shape from p: vertices of its core plus its radius. */
static double reach2(const sccd_shape2 *s, sccd_v2 p)
{
    sccd_v2 v[SCCD_POLY_MAX];
    int n = 0;
    double r = 0.0;
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: v[n++] = s->circle.c, r = s->circle.r; break;
    case SCCD_SHAPE_CAPSULE: v[n++] = s->capsule.a, v[n++] = s->capsule.b, r = s->capsule.r; break;
    case SCCD_SHAPE_BOX: sccd_box2_corners(s->box, v), n = 4; break;
    case SCCD_SHAPE_POLY:
        for (n = 0; n < s->poly.n; ++n)
            v[n] = s->poly.v[n];
        r = s->poly.r;
        break;
    }
    double m = 0.0;
    for (int i = 0; i < n; ++i)
        m = fmax(m, hypot(v[i].x - p.x, v[i].y - p.y));
    return m + r;
}

static double reach3(const sccd_shape3 *s, sccd_v3 p)
{
    sccd_v3 v[8];
    int n = 0;
    double r = 0.0;
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE: v[n++] = s->sphere.c, r = s->sphere.r; break;
    case SCCD_SHAPE_CAPSULE: v[n++] = s->capsule.a, v[n++] = s->capsule.b, r = s->capsule.r; break;
    default: sccd_box3_corners(s->box, v), n = 8; break;
    }
    double m = 0.0;
    for (int i = 0; i < n; ++i)
        m = fmax(m, sccd_v3_dist(v[i], p));
    return m + r;
}

double sccd_toi_case2_lipschitz(const toi_case2 *c)
{
    return sccd_v2_len(sccd_v2_sub(c->ma.dp, c->mb.dp)) + fabs(c->ma.dtheta) * reach2(&c->a, c->ma.center) +
           fabs(c->mb.dtheta) * reach2(&c->b, c->mb.center);
}

double sccd_toi_case3_lipschitz(const toi_case3 *c)
{
    return sccd_v3_len(sccd_v3_sub(c->ma.dp, c->mb.dp)) + fabs(c->ma.angle) * reach3(&c->a, c->ma.center) +
           fabs(c->mb.angle) * reach3(&c->b, c->mb.center);
}

/* A turn of 0 one time in eight, else uniform in [−4π, 4π]. */
static double rng_spin(sccd_rng *g)
{
    return sccd_rng_int(g, 8) == 0 ? 0.0 : sccd_rng_uniform(g, -4.0 * SCCD_PI, 4.0 * SCCD_PI);
}

static sccd_motion2 random_motion2(sccd_rng *g, sccd_v2 at)
{
    /* Centre near the shape's middle (inside) or up to 2 sizes away. */
    sccd_v2 centre = sccd_rng_int(g, 2) ? sccd_rng_v2(g, 0.3) : sccd_rng_v2(g, 2.0);
    double spin = rng_spin(g);
    sccd_xf2 start = {at, sccd_rot2_make(sccd_rng_uniform(g, -SCCD_PI, SCCD_PI))};
    return (sccd_motion2){start, centre, sccd_rng_v2(g, 3.0), spin};
}

static sccd_motion3 random_motion3(sccd_rng *g, sccd_v3 at)
{
    sccd_v3 centre = sccd_rng_int(g, 2) ? sccd_rng_v3(g, 0.3) : sccd_rng_v3(g, 2.0);
    double spin = rng_spin(g);
    return (sccd_motion3){{at, sccd_rng_quat(g)}, centre, sccd_rng_v3(g, 3.0), sccd_rng_unit3(g), spin};
}

toi_case2 sccd_rng_toi_case2(sccd_rng *g)
{
    toi_case2 c;
    c.a = sccd_rng_shape2(g, (sccd_shape_type)sccd_rng_int(g, 4), 1.0);
    c.b = sccd_rng_shape2(g, (sccd_shape_type)sccd_rng_int(g, 4), 1.0);
    c.ma = random_motion2(g, sccd_rng_v2(g, 1.0));
    c.mb = random_motion2(g, sccd_v2_mad(sccd_rng_v2(g, 1.0), sccd_rng_uniform(g, 1.0, 4.0), sccd_rng_unit2(g)));
    c.target = sccd_rng_int(g, 2) ? 0.0 : sccd_rng_uniform(g, 0.0, 0.05);
    c.tol = sccd_rng_int(g, 2) ? 1e-3 : 1e-6;
    c.lip = sccd_toi_case2_lipschitz(&c);
    return c;
}

toi_case3 sccd_rng_toi_case3(sccd_rng *g)
{
    toi_case3 c;
    c.a = sccd_rng_shape3(g, (sccd_shape_type)sccd_rng_int(g, 3), 1.0);
    c.b = sccd_rng_shape3(g, (sccd_shape_type)sccd_rng_int(g, 3), 1.0);
    c.ma = random_motion3(g, sccd_rng_v3(g, 1.0));
    c.mb = random_motion3(g, sccd_v3_mad(sccd_rng_v3(g, 1.0), sccd_rng_uniform(g, 1.0, 4.0), sccd_rng_unit3(g)));
    c.target = sccd_rng_int(g, 2) ? 0.0 : sccd_rng_uniform(g, 0.0, 0.05);
    c.tol = sccd_rng_int(g, 2) ? 1e-3 : 1e-6;
    c.lip = sccd_toi_case3_lipschitz(&c);
    return c;
}
