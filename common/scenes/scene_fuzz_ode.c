/* ODE scenes of the scene fuzzer (scene_fuzz.h).
 *
 * Units: metres. CCD bodies (boxes, capsules, spheres) are 0.3–1.5 long and
 * 1.5–8 cm thick; walls are thin static boxes 3 mm–3 cm thick, static
 * planes (judged as a wall 3 mm–3 cm under their surface), static and
 * dynamic spheres. Every CCD body's shape and judges are given in its pivot
 * frame (origin at the hinge; a flyer's middle). A dynamic body's mass sits
 * at its shape's centre, as a game's would (ODE's body origin is there; the
 * pivot frame is read back from it): ODE moves that centre on a line each
 * step and the joint pulls it back, where the solver turns the body about
 * its hinge (with the mass at the hinge, the fuzzer missed an adapter that
 * gathered by the line). A kinematic body turns about its pivot. Hinges
 * turn about z.
 *
 * Judges, after every step (scene_fuzz.h on inner shapes and cores), as in
 * scene_fuzz_cp.c: a dynamic CCD body deep in a static target; a hinged
 * body's angle passing a blocked range; a flyer's centre crossing a wall's
 * mid-plane inside the wall where no path its speed allows goes round the
 * wall's rim (sccd_fz_around_rim); a ball's centre inside a CCD body; two CCD
 * bodies' inner shapes meeting. Kinematic bodies are not judged against
 * static targets (ODE's contact between them moves neither). Angles are
 * unwrapped step by step: ODE turns a body by less than π per step (under
 * 0.94π at the fuzzer's 600 rad/s and 30 Hz), and a body in finite
 * rotation mode is given less than π per step here. The CCD's impacts can
 * turn one further within a step (a blade at 400 rad/s batting a hinged
 * ball round its hinge), and then the poses cannot tell which way it went:
 * a turn of more than 0.95π between two poses, or one whose other way
 * round lies within what the energy within the body's reach could turn it
 * (ambiguous_turn), is judged to pass a blocked range only when it would
 * both ways (seed 779, scene 94541: a ball batted 3.27 rad clockwise onto
 * a wall was read as 3.01 rad the other way, through it). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sectorccd_ode.h"
#include "scene_fuzz.h"

#define MAX_BODIES 3
#define MAX_STATIC 4
#define MAX_BALLS 5
#define MAX_TRIES 40
#define MAX_CONTACTS 4

typedef enum shape_kind { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_SPHERE, SHAPE_KINDS } shape_kind;
typedef enum pivot_kind { PIVOT_END, PIVOT_MIDDLE, PIVOT_INSIDE, PIVOT_OUTSIDE, PIVOT_KINDS } pivot_kind;
typedef enum static_kind { STATIC_WALL, STATIC_PLANE, STATIC_BALL } static_kind;

static const char *shape_names[SHAPE_KINDS] = {"box", "capsule", "sphere"};
static const char *pivot_names[PIVOT_KINDS] = {"end", "middle", "inside", "outside"};
static const char *static_names[] = {"wall", "plane", "ball"};

typedef struct fz_body {
    sccd_fz_kind kind;
    shape_kind shape;
    pivot_kind pivot;
    sccd_fz_solid local, inner;  /* body frame: origin = pivot = centre of mass */
    double inset, speed, angle, reach;
    sccd_fz_v3 pos, vel, spin_axis;
    bool finite;                 /* finite rotation mode */
    dBodyID body;
} fz_body;

/* Walls: `shape` is the box, `core` its mid-plane rectangle (stopping the
 * half-thickness short of the box's faces). Planes: n·p = d
 * bounds the solid n·p < d, the core is d − depth. Balls: shape and centre. */
typedef struct fz_static {
    static_kind kind;
    sccd_fz_solid shape, core;
    sccd_fz_v3 n;
    double d, depth;
} fz_static;

typedef struct fz_ball { double r, mass; sccd_fz_v3 pos, vel; dBodyID body; } fz_ball;

typedef struct fz_scene {
    double unit; /* ODE's length per scene unit (sccd_fz_setup; only the world's building and reading see it) */
    bool heavy;  /* balls over 1e-3 to 1e3 times a CCD body's mass (sccd_fz_setup) */
    int hz, steps, iterations;
    bool quick;
    double elasticity, friction, gravity, motor_force;
    int nb, ns, nballs;
    fz_body b[MAX_BODIES];
    fz_static s[MAX_STATIC];
    fz_ball balls[MAX_BALLS];
    sccd_fz_arcs arcs[MAX_BODIES][MAX_STATIC];
    dWorldID world;
    dJointGroupID contacts;
} fz_scene;

static sccd_fz_v3 v3(double x, double y, double z) { return (sccd_fz_v3){x, y, z}; }
static sccd_fz_v3 add3(sccd_fz_v3 a, sccd_fz_v3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static sccd_fz_v3 scale3(sccd_fz_v3 a, double s) { return v3(s * a.x, s * a.y, s * a.z); }
static double dot3(sccd_fz_v3 a, sccd_fz_v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double norm3(sccd_fz_v3 a) { return sqrt(dot3(a, a)); }
static double dist3(sccd_fz_v3 a, sccd_fz_v3 b) { return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)); }
static sccd_fz_v3 polar3(sccd_fz_v3 c, double r, double a) { return v3(c.x + r * cos(a), c.y + r * sin(a), c.z); }
static sccd_fz_v3 cross3(sccd_fz_v3 a, sccd_fz_v3 b) { return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }

/* ---- poses ---- */

/* A body pose: position and rotation matrix (rows). */
typedef struct pose { sccd_fz_v3 p; double m[3][3]; } pose;

static pose pose_z(sccd_fz_v3 p, double angle)
{
    double c = cos(angle), s = sin(angle);
    return (pose){p, {{c, -s, 0.0}, {s, c, 0.0}, {0.0, 0.0, 1.0}}};
}

/* Body b's pose, its place in scene units (ODE's ÷ unit). */
static pose body_pose(dBodyID b, double unit)
{
    const dReal *p = dBodyGetPosition(b), *r = dBodyGetRotation(b);
    pose q = {v3(p[0] / unit, p[1] / unit, p[2] / unit), {{0}}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            q.m[i][j] = r[4 * i + j];
    return q;
}

static sccd_fz_v3 rotate(const pose *q, sccd_fz_v3 v)
{
    return v3(q->m[0][0] * v.x + q->m[0][1] * v.y + q->m[0][2] * v.z, q->m[1][0] * v.x + q->m[1][1] * v.y + q->m[1][2] * v.z,
              q->m[2][0] * v.x + q->m[2][1] * v.y + q->m[2][2] * v.z);
}

static sccd_fz_solid place(const sccd_fz_solid *s, const pose *q)
{
    sccd_fz_solid out = *s;
    out.c = add3(q->p, rotate(q, s->c));
    for (int i = 0; i < 3; ++i)
        out.a[i] = rotate(q, s->a[i]);
    return out;
}

/* The angle of a body's x axis about z. */
static double angle_z(const pose *q) { return atan2(q->m[1][0], q->m[0][0]); }

/* ---- shapes ---- */

static sccd_fz_solid solid(sccd_fz_v3 c, double hx, double hy, double hz, double r)
{
    return (sccd_fz_solid){c, {v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)}, {hx, hy, hz}, r};
}

static sccd_fz_v3 pivot_offset(sccd_rng *g, pivot_kind p, double len, double thick)
{
    switch (p) {
    case PIVOT_END:
        return v3(0.5 * len + sccd_rng_uniform(g, -0.5, 1.0) * thick, 0.0, 0.0);
    case PIVOT_INSIDE:
        return v3(sccd_rng_uniform(g, -0.35, 0.35) * len, sccd_rng_uniform(g, -0.2, 0.2) * thick, 0.0);
    case PIVOT_OUTSIDE:
        return v3(sccd_rng_uniform(g, 0.6, 1.3) * len, sccd_rng_uniform(g, -0.5, 0.5) * len, 0.0);
    default:
        return v3(0.0, 0.0, 0.0);
    }
}

/* A random shape with the pivot at the body origin; the judges' inset is
 * 40 % of its half-thickness (at least 3 mm: three times the adapter's
 * overlap and more than ODE's contact softness lets bodies sink). */
static void make_shape(sccd_rng *g, fz_body *b, double len)
{
    double thick = sccd_rng_uniform(g, 0.015, 0.08), depth = sccd_rng_uniform(g, 0.02, 0.2), half;
    if (b->shape == SHAPE_SPHERE) {
        len = thick = sccd_rng_uniform(g, 0.05, 0.3);
        b->local = solid(v3(0, 0, 0), 0.0, 0.0, 0.0, 0.5 * len);
        half = 0.5 * len;
    } else if (b->shape == SHAPE_CAPSULE) {
        b->local = solid(v3(0, 0, 0), 0.5 * (len - thick), 0.0, 0.0, 0.5 * thick);
        half = 0.5 * thick;
    } else {
        b->local = solid(v3(0, 0, 0), 0.5 * len, 0.5 * thick, 0.5 * depth, 0.0);
        half = 0.5 * fmin(thick, depth);
    }
    b->local.c = pivot_offset(g, b->pivot, len, thick);
    b->inset = 0.4 * half;
    b->inner = sccd_fz_solid_inner(&b->local, b->inset);
    b->reach = sqrt(dot3(b->local.c, b->local.c)) + 0.5 * len + b->local.r;
}

/* ---- generating a scene ---- */

static sccd_fz_solid body_at_start(const fz_body *b)
{
    pose q = pose_z(b->pos, b->angle);
    return place(&b->local, &q);
}

static bool clear_of(const sccd_fz_solid *p, const sccd_fz_solid *o, double gap)
{
    sccd_fz_solid q = *p;
    q.r += gap;
    if (q.h[1] > 0.0 && q.h[2] > 0.0 && q.r > 0.0) { /* a box: grow it instead of rounding it */
        for (int i = 0; i < 3; ++i)
            q.h[i] += q.r;
        q.r = 0.0;
    }
    return !sccd_fz_solid_overlap(&q, o);
}

static bool clear_of_all(const fz_scene *sc, const sccd_fz_solid *p, double gap)
{
    for (int i = 0; i < sc->nb; ++i) {
        sccd_fz_solid o = body_at_start(&sc->b[i]);
        if (!clear_of(p, &o, gap))
            return false;
    }
    for (int i = 0; i < sc->ns; ++i) {
        if (sc->s[i].kind == STATIC_PLANE ? sccd_fz_solid_plane_depth(p, sc->s[i].n, sc->s[i].d) < gap
                                          : !clear_of(p, &sc->s[i].shape, gap))
            return false;
    }
    for (int i = 0; i < sc->nballs; ++i) {
        sccd_fz_solid o = solid(sc->balls[i].pos, 0, 0, 0, sc->balls[i].r);
        if (!clear_of(p, &o, gap))
            return false;
    }
    return true;
}

/* A thin vertical wall with its mid-plane centred at c, along direction dir. */
static fz_static make_wall(sccd_rng *g, sccd_fz_v3 c, double dir, double half_len, double half_height)
{
    double hw = 0.5 * sccd_fz_log_uniform(g, 0.003, 0.03);
    fz_static w = {.kind = STATIC_WALL};
    w.shape = (sccd_fz_solid){c, {v3(cos(dir), sin(dir), 0), v3(-sin(dir), cos(dir), 0), v3(0, 0, 1)}, {half_len, hw, half_height}, 0.0};
    /* the core stops hw inside every face: reaching it takes hw of penetration from any side */
    w.core = w.shape;
    w.core.h[0] -= hw;
    w.core.h[1] = 0.0;
    w.core.h[2] -= hw;
    return w;
}

/* A vertical plane through c facing from (toward the pivot at) dir + π; solid beyond. */
static fz_static make_plane(sccd_rng *g, sccd_fz_v3 c, double dir)
{
    fz_static p = {.kind = STATIC_PLANE, .n = v3(-cos(dir), -sin(dir), 0.0)};
    p.d = dot3(p.n, c);
    p.depth = sccd_fz_log_uniform(g, 0.003, 0.03);
    return p;
}

static fz_static make_static_ball(sccd_fz_v3 c, double r)
{
    return (fz_static){.kind = STATIC_BALL, .shape = solid(c, 0, 0, 0, r), .core = solid(c, 0, 0, 0, 0.0)};
}

static bool static_clear(const fz_scene *sc, const fz_static *s)
{
    if (s->kind != STATIC_PLANE)
        return clear_of_all(sc, &s->shape, 0.01);
    for (int i = 0; i < sc->nb; ++i) { /* bodies outside the plane's solid; balls are placed later */
        sccd_fz_solid o = body_at_start(&sc->b[i]);
        if (sccd_fz_solid_plane_depth(&o, s->n, s->d) < 0.01 || dot3(s->n, sc->b[i].pos) < s->d + 0.01)
            return false;
    }
    return true;
}

static void add_static(fz_scene *sc, const fz_static *s)
{
    if (sc->ns < MAX_STATIC && static_clear(sc, s))
        sc->s[sc->ns++] = *s;
}

static void add_target_in_reach(sccd_rng *g, fz_scene *sc, const fz_body *b)
{
    for (int t = 0; t < MAX_TRIES; ++t) {
        int before = sc->ns;
        double rho = sccd_rng_uniform(g, 0.15, 0.95) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        sccd_fz_v3 c = polar3(b->pos, rho, phi);
        int k = sccd_rng_int(g, 6);
        fz_static s;
        if (k == 0)
            s = make_static_ball(c, sccd_rng_uniform(g, 0.01, 0.06));
        else if (k == 1)
            s = make_plane(g, c, phi);
        else
            s = make_wall(g, c, phi + sccd_rng_uniform(g, -1.0, 1.0), sccd_rng_uniform(g, 0.1, 0.6) * b->reach, 0.5);
        add_static(sc, &s);
        if (sc->ns > before)
            return;
    }
}

static void add_ball(sccd_rng *g, fz_scene *sc, sccd_fz_v3 c, sccd_fz_v3 vel)
{
    fz_ball ball = {sccd_rng_uniform(g, 0.01, 0.06), sc->heavy ? sccd_fz_log_uniform(g, 1e-3, 1e3) : sccd_fz_log_uniform(g, 0.01, 1.0),
                    c, vel, NULL};
    sccd_fz_solid p = solid(c, 0, 0, 0, ball.r);
    if (sc->nballs < MAX_BALLS && clear_of_all(sc, &p, 0.005))
        sc->balls[sc->nballs++] = ball;
}

static bool add_body(sccd_rng *g, fz_scene *sc, sccd_fz_kind kind, sccd_fz_v3 pos, double len)
{
    fz_body *b = &sc->b[sc->nb];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->shape = (shape_kind)sccd_rng_int(g, SHAPE_KINDS);
    b->pivot = kind == SCCD_FZ_FLYER ? PIVOT_MIDDLE : (pivot_kind)sccd_rng_int(g, PIVOT_KINDS);
    if (b->shape == SHAPE_SPHERE && b->pivot == PIVOT_MIDDLE && kind != SCCD_FZ_FLYER)
        b->pivot = PIVOT_OUTSIDE;
    make_shape(g, b, len);
    b->speed = (sccd_rng_int(g, 2) ? 1.0 : -1.0) * sccd_fz_log_uniform(g, 0.5, 600.0);
    b->spin_axis = v3(0, 0, 1);
    b->finite = sccd_rng_int(g, 4) == 0;
    if (b->finite) /* less than π per step, or the unwrapped angles would be ambiguous */
        b->speed = copysign(fmin(fabs(b->speed), 0.9 * SCCD_PI * sc->hz), b->speed);
    b->pos = pos;
    for (int t = 0; t < MAX_TRIES; ++t) {
        b->angle = sccd_rng_uniform(g, -SCCD_PI, SCCD_PI);
        sccd_fz_solid p = body_at_start(b);
        if (clear_of_all(sc, &p, 0.01)) {
            ++sc->nb;
            return true;
        }
    }
    return false;
}

static void fill_turning(sccd_rng *g, fz_scene *sc)
{
    fz_body *b = &sc->b[0];
    bool kinematic = b->kind == SCCD_FZ_KINEMATIC;
    if (kinematic && sccd_rng_int(g, 2) == 0) {
        double a = sccd_rng_uniform(g, -SCCD_PI, SCCD_PI);
        b->vel = v3(cos(a), sin(a), 0.0);
        b->vel = scale3(b->vel, sccd_rng_uniform(g, 0.0, 1.0) * b->reach);
    }
    for (int n = kinematic ? 0 : 1 + sccd_rng_int(g, 3); n > 0; --n)
        add_target_in_reach(g, sc, b);
    for (int n = sccd_rng_int(g, kinematic ? 5 : 3) + kinematic; n > 0; --n) {
        double rho = sccd_rng_uniform(g, 0.2, 1.0) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        add_ball(g, sc, polar3(b->pos, rho, phi), v3(sccd_rng_uniform(g, -0.5, 0.5), sccd_rng_uniform(g, -0.5, 0.5), 0.0));
    }
    int extra = sccd_rng_int(g, 10);
    if (extra < 3) { /* a free box, capsule or sphere lying in the sweep */
        double rho = sccd_rng_uniform(g, 0.3, 0.9) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        if (add_body(g, sc, SCCD_FZ_FLYER, polar3(b->pos, rho, phi), sccd_rng_uniform(g, 0.08, 0.4)))
            sc->b[sc->nb - 1].speed *= 0.01;
    } else if (extra < 5 && !kinematic) { /* a second hinged body: blades clash */
        double d = sccd_rng_uniform(g, 0.5, 1.6) * b->reach, phi = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
        sccd_fz_kind k = sccd_rng_int(g, 2) ? SCCD_FZ_HINGED_MOTOR : SCCD_FZ_HINGED_FREE;
        add_body(g, sc, k, polar3(b->pos, d, phi), sccd_rng_uniform(g, 0.3, 1.5));
    }
}

static void fill_flyer(sccd_rng *g, fz_scene *sc)
{
    fz_body *b = &sc->b[0];
    double v = sccd_fz_log_uniform(g, 0.3, 30.0), dir = sccd_rng_uniform(g, -SCCD_PI, SCCD_PI);
    b->vel = v3(v * cos(dir), v * sin(dir), 0.0);
    b->spin_axis = sccd_rng_int(g, 2) ? v3(0, 0, 1) : v3(sccd_rng_uniform(g, -1, 1), sccd_rng_uniform(g, -1, 1), 1.0);
    b->spin_axis = scale3(b->spin_axis, 1.0 / sqrt(dot3(b->spin_axis, b->spin_axis)));
    double dist = fmax(b->reach + 0.05, fmin(6.0, sccd_rng_uniform(g, 0.1, 0.8) * v));
    for (int n = 1 + sccd_rng_int(g, 2); n > 0; --n, dist *= 1.5) {
        sccd_fz_v3 hit = polar3(b->pos, dist, dir);
        double tilt = dir + 0.5 * SCCD_PI + sccd_rng_uniform(g, -0.8, 0.8), half = 2.0 * b->reach + sccd_rng_uniform(g, 0.2, 2.0);
        fz_static s = sccd_rng_int(g, 4) == 0 ? make_plane(g, hit, dir)
                                              : make_wall(g, polar3(hit, sccd_rng_uniform(g, -0.3, 0.3) * half, tilt), tilt, half, half);
        add_static(sc, &s);
    }
    if (sccd_rng_int(g, 3) == 0)
        add_ball(g, sc, polar3(b->pos, sccd_rng_uniform(g, 0.3, 0.9) * dist, dir), v3(0, 0, 0));
    if (sccd_rng_int(g, 4) == 0) {
        fz_static s = make_static_ball(polar3(b->pos, sccd_rng_uniform(g, 0.3, 0.9) * dist, dir + sccd_rng_uniform(g, -0.1, 0.1)),
                                       sccd_rng_uniform(g, 0.01, 0.06));
        add_static(sc, &s);
    }
    if (sccd_rng_int(g, 4) == 0 && add_body(g, sc, SCCD_FZ_FLYER, polar3(b->pos, 0.5 * dist, dir), sccd_rng_uniform(g, 0.1, 0.8)))
        sc->b[sc->nb - 1].vel = scale3(b->vel, -sccd_rng_uniform(g, 0.2, 1.0));
}

/* Scene generation: everything is placed about the first CCD body, at (origin, origin, origin). */
static void generate(sccd_rng *g, fz_scene *sc, sccd_fz_setup setup)
{
    static const int hz[] = {30, 60, 120};
    static const int iterations[] = {10, 20, 40};
    memset(sc, 0, sizeof *sc);
    sc->heavy = setup.heavy;
    sc->hz = hz[sccd_fz_pick(g, 3, 2) == 0 ? 1 : sccd_rng_int(g, 3)];
    sc->steps = sc->hz;
    sc->quick = sccd_rng_int(g, 3) != 0;
    sc->iterations = iterations[sccd_rng_int(g, 3)];
    sc->elasticity = sccd_rng_uniform(g, 0.0, 0.9);
    sc->friction = sccd_rng_uniform(g, 0.0, 1.0);
    sc->gravity = sccd_rng_int(g, 2) ? 0.0 : -9.81;
    sc->motor_force = sccd_fz_log_uniform(g, 1.0, 500.0);
    sccd_fz_kind kind = (sccd_fz_kind)sccd_rng_int(g, SCCD_FZ_KINDS);
    add_body(g, sc, kind, v3(setup.origin, setup.origin, setup.origin), sccd_rng_uniform(g, 0.3, 1.5));
    if (kind == SCCD_FZ_FLYER)
        fill_flyer(g, sc);
    else
        fill_turning(g, sc);
}

/* ---- description ---- */

static void describe_solid(char *d, const sccd_fz_solid *s)
{
    sccd_fz_append(d, SCCD_FZ_TEXT, "c=(%.3f,%.3f,%.3f) h=(%.3f,%.3f,%.3f) r=%.4f", s->c.x, s->c.y, s->c.z, s->h[0], s->h[1],
                   s->h[2], s->r);
}

static void describe(const fz_scene *sc, int index, char *d)
{
    d[0] = '\0';
    sccd_fz_append(d, SCCD_FZ_TEXT, "ode#%d %dHz %s it=%d e=%.2f f=%.2f g=%.2f motorF=%.3g |", index, sc->hz,
                   sc->quick ? "quickstep" : "step", sc->iterations, sc->elasticity, sc->friction, sc->gravity, sc->motor_force);
    for (int i = 0; i < sc->nb; ++i) {
        const fz_body *b = &sc->b[i];
        sccd_fz_append(d, SCCD_FZ_TEXT, " B%d %s %s pivot=%s%s w=%.3g axis=(%.2f,%.2f,%.2f) at (%.3f,%.3f) a=%.3f v=(%.2f,%.2f) ", i,
                       sccd_fz_kind_name(b->kind), shape_names[b->shape], pivot_names[b->pivot], b->finite ? " finite" : "",
                       b->speed, b->spin_axis.x, b->spin_axis.y, b->spin_axis.z, b->pos.x, b->pos.y, b->angle, b->vel.x, b->vel.y);
        describe_solid(d, &b->local);
        sccd_fz_append(d, SCCD_FZ_TEXT, " |");
    }
    for (int i = 0; i < sc->ns; ++i) {
        const fz_static *s = &sc->s[i];
        sccd_fz_append(d, SCCD_FZ_TEXT, " S%d %s ", i, static_names[s->kind]);
        if (s->kind == STATIC_PLANE)
            sccd_fz_append(d, SCCD_FZ_TEXT, "n=(%.3f,%.3f,%.3f) d=%.4f core depth %.4f", s->n.x, s->n.y, s->n.z, s->d, s->depth);
        else
            describe_solid(d, &s->shape);
        if (s->kind == STATIC_WALL)
            sccd_fz_append(d, SCCD_FZ_TEXT, " along=(%.3f,%.3f)", s->shape.a[0].x, s->shape.a[0].y);
        sccd_fz_append(d, SCCD_FZ_TEXT, " |");
    }
    for (int i = 0; i < sc->nballs; ++i)
        sccd_fz_append(d, SCCD_FZ_TEXT, " ball%d r=%.3f m=%.3f (%.3f,%.3f) v=(%.2f,%.2f) |", i, sc->balls[i].r, sc->balls[i].mass,
                       sc->balls[i].pos.x, sc->balls[i].pos.y, sc->balls[i].vel.x, sc->balls[i].vel.y);
}

/* ---- building the world ---- */

static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    fz_scene *sc = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    bool dyn1 = b1 && !dBodyIsKinematic(b1), dyn2 = b2 && !dBodyIsKinematic(b2);
    if (!dyn1 && !dyn2)
        return; /* static or kinematic on both sides: nothing to solve */
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    dContact c[MAX_CONTACTS];
    int n = dCollide(g1, g2, MAX_CONTACTS, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactBounce;
        c[i].surface.mu = sc->friction;
        c[i].surface.bounce = sc->elasticity;
        c[i].surface.bounce_vel = 0.05 * sc->unit;
        dJointAttach(dJointCreateContact(sc->world, sc->contacts, &c[i]), b1, b2);
    }
}

/* Body's pose: p in scene units (ODE's × unit), turned by angle about z. */
static void set_pose(dBodyID body, sccd_fz_v3 p, double unit, double angle)
{
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, angle);
    dBodySetRotation(body, r);
    dBodySetPosition(body, p.x * unit, p.y * unit, p.z * unit);
}

/* Where body b's centre of mass sits in its pivot frame (the frame its
 * shape, judges and hinge are given in): a dynamic body's at its shape's
 * centre, as a game's would be, so a hinged body turns about a hinge off its
 * centre of mass (ODE moves that centre on a line, the joint pulls it back);
 * a kinematic body turns about its pivot (a handle). */
static sccd_fz_v3 mass_centre(const fz_body *b) { return b->kind == SCCD_FZ_KINEMATIC ? v3(0.0, 0.0, 0.0) : b->local.c; }

/* Body b's pivot frame from ODE's body (its origin is the centre of mass), in scene units. */
static pose pivot_frame(const fz_body *b, double unit)
{
    pose q = body_pose(b->body, unit);
    sccd_fz_v3 c = rotate(&q, mass_centre(b));
    q.p = v3(q.p.x - c.x, q.p.y - c.y, q.p.z - c.z);
    return q;
}

static void build_body(fz_scene *sc, dSpaceID space, fz_body *b)
{
    const sccd_fz_solid *s = &b->local;
    double k = sc->unit, r = s->r * k, h[3] = {2.0 * s->h[0] * k, 2.0 * s->h[1] * k, 2.0 * s->h[2] * k};
    b->body = dBodyCreate(sc->world);
    dMass m;
    dGeomID g;
    if (b->shape == SHAPE_SPHERE) {
        g = dCreateSphere(space, r);
        dMassSetSphereTotal(&m, 1.0, r);
    } else if (b->shape == SHAPE_CAPSULE) {
        g = dCreateCapsule(space, r, h[0]);
        dMassSetCapsuleTotal(&m, 1.0, 1, r, h[0]);
    } else {
        g = dCreateBox(space, h[0], h[1], h[2]);
        dMassSetBoxTotal(&m, 1.0, h[0], h[1], h[2]);
    }
    dBodySetMass(b->body, &m); /* centred on the body's origin: the centre of mass */
    sccd_fz_v3 c = mass_centre(b);
    dGeomSetBody(g, b->body);
    dGeomSetOffsetPosition(g, (s->c.x - c.x) * k, (s->c.y - c.y) * k, (s->c.z - c.z) * k);
    if (b->shape == SHAPE_CAPSULE) { /* ODE's capsule lies along z: turn it onto x */
        dMatrix3 off;
        dRFromAxisAndAngle(off, 0.0, 1.0, 0.0, 0.5 * SCCD_PI);
        dGeomSetOffsetRotation(g, off);
    }
    if (b->kind == SCCD_FZ_KINEMATIC)
        dBodySetKinematic(b->body);
    pose frame = pose_z(b->pos, b->angle);
    set_pose(b->body, add3(b->pos, rotate(&frame, c)), k, b->angle);
    sccd_fz_v3 w = scale3(b->spin_axis, b->speed), v = add3(b->vel, cross3(w, rotate(&frame, c))); /* the pivot frame's origin moves at vel */
    dBodySetLinearVel(b->body, v.x * k, v.y * k, v.z * k);
    dBodySetAngularVel(b->body, w.x, w.y, w.z);
    dBodySetFiniteRotationMode(b->body, b->finite);
    dBodySetGravityMode(b->body, b->kind == SCCD_FZ_FLYER);
    if (b->kind == SCCD_FZ_HINGED_FREE || b->kind == SCCD_FZ_HINGED_MOTOR) {
        dJointID j = dJointCreateHinge(sc->world, 0);
        dJointAttach(j, b->body, 0);
        dJointSetHingeAnchor(j, b->pos.x * k, b->pos.y * k, b->pos.z * k);
        dJointSetHingeAxis(j, 0.0, 0.0, 1.0);
        if (b->kind == SCCD_FZ_HINGED_MOTOR) {
            dJointSetHingeParam(j, dParamVel, b->speed);
            dJointSetHingeParam(j, dParamFMax, sc->motor_force * k * k); /* a torque */
        }
    }
}

static void build_static(dSpaceID space, const fz_static *s, double k)
{
    if (s->kind == STATIC_PLANE) {
        dCreatePlane(space, s->n.x, s->n.y, s->n.z, s->d * k);
        return;
    }
    sccd_fz_v3 c = scale3(s->shape.c, k);
    if (s->kind == STATIC_BALL) {
        dGeomSetPosition(dCreateSphere(space, s->shape.r * k), c.x, c.y, c.z);
        return;
    }
    dGeomID g = dCreateBox(space, 2.0 * s->shape.h[0] * k, 2.0 * s->shape.h[1] * k, 2.0 * s->shape.h[2] * k);
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0.0, 0.0, 1.0, atan2(s->shape.a[0].y, s->shape.a[0].x));
    dGeomSetRotation(g, r);
    dGeomSetPosition(g, c.x, c.y, c.z);
}

static void build_ball(fz_scene *sc, dSpaceID space, fz_ball *b)
{
    double k = sc->unit;
    b->body = dBodyCreate(sc->world);
    dMass m;
    dMassSetSphereTotal(&m, b->mass, b->r * k);
    dBodySetMass(b->body, &m);
    dGeomSetBody(dCreateSphere(space, b->r * k), b->body);
    dBodySetPosition(b->body, b->pos.x * k, b->pos.y * k, b->pos.z * k);
    dBodySetLinearVel(b->body, b->vel.x * k, b->vel.y * k, b->vel.z * k);
}

/* ODE's messages (e.g. LCP warnings of redundant contact systems) are the engine's business here. */
static void quiet(int num, const char *msg, va_list ap)
{
    (void)num;
    (void)msg;
    (void)ap;
}

static dSpaceID build_world(fz_scene *sc, bool ccd, sccd_ode_world **cw)
{
    static bool ready;
    if (!ready) {
        dInitODE2(0);
        dSetMessageHandler(quiet);
        ready = true;
    }
    dRandSetSeed(0); /* quickstep shuffles its constraints with ODE's global generator: every run alike */
    sc->world = dWorldCreate();
    dSpaceID space = dHashSpaceCreate(0);
    sc->contacts = dJointGroupCreate(0);
    dWorldSetGravity(sc->world, 0.0, sc->gravity * sc->unit, 0.0);
    dWorldSetQuickStepNumIterations(sc->world, sc->iterations);
    for (int i = 0; i < sc->ns; ++i)
        build_static(space, &sc->s[i], sc->unit);
    for (int i = 0; i < sc->nb; ++i)
        build_body(sc, space, &sc->b[i]);
    for (int i = 0; i < sc->nballs; ++i)
        build_ball(sc, space, &sc->balls[i]);
    *cw = ccd ? sccd_ode_attach(sc->world, space) : NULL;
    if (ccd && sc->unit != 1.0) { /* the default contact skin, a millimetre, in the scene's units: as a game would set it */
        sccd_ccd_options o = sccd_ode_get_options(*cw);
        o.overlap *= sc->unit;
        o.toi_tolerance *= sc->unit;
        sccd_ode_set_options(*cw, o);
    }
    for (int i = 0; ccd && i < sc->nb; ++i) {
        sccd_ode_body_enable(*cw, sc->b[i].body);
        sccd_ode_body_set_pivot(*cw, sc->b[i].body, (dReal[3]){0.0, 0.0, 0.0});
    }
    return space;
}

static void step_world(fz_scene *sc, dSpaceID space, sccd_ode_world *cw, double dt)
{
    if (cw != NULL)
        sccd_ode_before_step(cw);
    dSpaceCollide(space, sc, near_callback);
    if (sc->quick)
        dWorldQuickStep(sc->world, dt);
    else
        dWorldStep(sc->world, dt);
    dJointGroupEmpty(sc->contacts);
    if (cw != NULL)
        sccd_ode_after_step(cw);
}

/* ---- judges ---- */

static bool is_hinged(const fz_body *b) { return b->kind == SCCD_FZ_HINGED_FREE || b->kind == SCCD_FZ_HINGED_MOTOR; }

/* Inner shape i meets static target s's core. */
static bool meets_core(const sccd_fz_solid *inner, const fz_static *s)
{
    if (s->kind == STATIC_PLANE)
        return sccd_fz_solid_plane_depth(inner, s->n, s->d - s->depth) < 0.0;
    return sccd_fz_solid_overlap(inner, &s->core);
}

static void sample_arcs(const fz_body *b, const fz_static *s, sccd_fz_arcs *arcs)
{
    double rb = norm3(b->inner.c) + norm3(v3(b->inner.h[0], b->inner.h[1], b->inner.h[2])) + b->inner.r;
    memset(arcs, 0, sizeof *arcs);
    /* a ball or wall core farther than the body reaches from its hinge: never met */
    if (s->kind != STATIC_PLANE && dist3(s->core.c, b->pos) > rb + norm3(v3(s->core.h[0], s->core.h[1], s->core.h[2])))
        return;
    for (int k = 0; k < SCCD_FZ_ANGLES; ++k) {
        pose q = pose_z(b->pos, sccd_fz_arcs_angle(k));
        sccd_fz_solid p = place(&b->inner, &q);
        arcs->in[k] = meets_core(&p, s);
        arcs->any |= arcs->in[k] != 0;
    }
}

typedef struct poses {
    pose q[MAX_BODIES];
    sccd_fz_v3 v[MAX_BODIES];
    double a[MAX_BODIES], w[MAX_BODIES], e[MAX_BODIES]; /* unwrapped hinge angle, |ω|, kinetic energy */
    sccd_fz_v3 ball[MAX_BALLS];
    double balls_energy;
} poses;

/* Body b's kinetic energy as ODE has it now (its inertia about its centre
 * of mass, ω taken into the body's frame), in scene units (ODE's ÷ unit²). */
static double kinetic_energy(dBodyID b, double unit)
{
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b), *r = dBodyGetRotation(b);
    double wb[3], spin = 0.0;
    for (int k = 0; k < 3; ++k)
        wb[k] = r[k] * w[0] + r[4 + k] * w[1] + r[8 + k] * w[2];
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col)
            spin += wb[row] * m.I[4 * row + col] * wb[col];
    return (0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * spin) / (unit * unit);
}

/* Hinged body b's moment of inertia about its hinge (the z axis through its
 * pivot), as ODE has it now, in scene units (ODE's ÷ unit²). */
static double hinge_inertia(const fz_body *b, double unit)
{
    dMass m;
    dBodyGetMass(b->body, &m);
    const dReal *r = dBodyGetRotation(b->body), *p = dBodyGetPosition(b->body);
    double a[3] = {r[8], r[9], r[10]}, spin = 0.0; /* the world's z in the body's frame */
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col)
            spin += a[row] * m.I[4 * row + col] * a[col];
    double dx = p[0] / unit - b->pos.x, dy = p[1] / unit - b->pos.y;
    return spin / (unit * unit) + m.mass * (dx * dx + dy * dy);
}

/* Poses after a step; hinged angles unwrapped from the last ones (ODE turns less than π a step). */
static poses read_poses(const fz_scene *sc, const poses *last)
{
    poses out;
    for (int i = 0; i < sc->nb; ++i) {
        out.q[i] = pivot_frame(&sc->b[i], sc->unit);
        const dReal *v = dBodyGetLinearVel(sc->b[i].body), *w = dBodyGetAngularVel(sc->b[i].body);
        sccd_fz_v3 om = v3(w[0], w[1], w[2]), arm = rotate(&out.q[i], mass_centre(&sc->b[i]));
        sccd_fz_v3 at = cross3(om, arm); /* the pivot frame's origin moves at v − ω × arm */
        out.v[i] = v3(v[0] / sc->unit - at.x, v[1] / sc->unit - at.y, v[2] / sc->unit - at.z);
        out.w[i] = norm3(om);
        out.e[i] = sc->b[i].kind == SCCD_FZ_KINEMATIC ? 0.0 : kinetic_energy(sc->b[i].body, sc->unit);
        double a = angle_z(&out.q[i]);
        out.a[i] = last == NULL ? a : last->a[i] + sccd_fz_wrap(a - angle_z(&last->q[i]));
    }
    out.balls_energy = 0.0;
    for (int i = 0; i < sc->nballs; ++i) {
        const dReal *p = dBodyGetPosition(sc->balls[i].body);
        out.ball[i] = v3(p[0] / sc->unit, p[1] / sc->unit, p[2] / sc->unit);
        out.balls_energy += kinetic_energy(sc->balls[i].body, sc->unit);
    }
    return out;
}

/* The segment p0→p1 crosses wall w's mid-plane rectangle, and a path of at
 * most reach could not have gone around it (sccd_fz_around_rim). */
static bool crosses_wall(const fz_static *w, sccd_fz_v3 p0, sccd_fz_v3 p1, double reach)
{
    sccd_fz_v3 n = w->core.a[1];
    double s0 = dot3(n, v3(p0.x - w->core.c.x, p0.y - w->core.c.y, p0.z - w->core.c.z));
    double s1 = dot3(n, v3(p1.x - w->core.c.x, p1.y - w->core.c.y, p1.z - w->core.c.z));
    if (!(s0 * s1 < 0.0))
        return false;
    double t = s0 / (s0 - s1);
    sccd_fz_v3 x = v3(p0.x + t * (p1.x - p0.x) - w->core.c.x, p0.y + t * (p1.y - p0.y) - w->core.c.y, p0.z + t * (p1.z - p0.z) - w->core.c.z);
    return fabs(dot3(x, w->core.a[0])) < w->core.h[0] && fabs(dot3(x, w->core.a[2])) < w->core.h[2] &&
           !sccd_fz_around_rim(p0, p1, w->core.c, w->core.a[0], w->core.h[0], w->core.a[2], w->core.h[2], reach);
}

/* How far body i's centre may have gone in the step: as fast as it moved
 * at either end, or, within reach of another body at either end, as fast as
 * that body's farthest point: one ending there may have carried it round
 * (a bat's rider), one starting there may have batted it. Batted, a body
 * may be fastest between the ends: a flyer a blade struck four times in a
 * step, off a wall and round its end, left the step slower than it went
 * round and was judged to have crossed (Chipmunk, seed 31, scene 74993;
 * sampled along the solver's motions, it passes 1.8 units clear of the
 * wall). */
static double travel(const fz_scene *sc, int i, const poses *q0, const poses *q1)
{
    double speed = fmax(norm3(q0->v[i]), norm3(q1->v[i]));
    for (int j = 0; j < sc->nb; ++j) {
        double reach = sc->b[j].reach + sc->b[i].reach;
        if (j == i || (dist3(q1->q[i].p, q1->q[j].p) > reach && dist3(q0->q[i].p, q0->q[j].p) > reach))
            continue;
        double v = fmax(norm3(q0->v[j]), norm3(q1->v[j])), w = fmax(q0->w[j], q1->w[j]);
        speed = fmax(speed, v + w * reach);
    }
    return speed / sc->hz;
}

/* Record which judge fired. */
static bool fire(sccd_fz_result *out, sccd_fz_judge_kind kind)
{
    out->judge_kind = kind;
    return true;
}

/* Whether a body reaching `reach` from p0 at the start and p1 at the end
 * of the step is within reach of hinged body i at either end. */
static bool near_hinged(const fz_scene *sc, int i, const poses *q0, const poses *q1, sccd_fz_v3 p0, sccd_fz_v3 p1, double reach)
{
    reach += sc->b[i].reach;
    return dist3(q0->q[i].p, p0) <= reach || dist3(q1->q[i].p, p1) <= reach;
}

/* How fast hinged body i may have turned in the step: as fast as at either
 * end or as its motor drives it, or as fast as the energy of what is within
 * reach of it at either end, and its own (the larger of each body's at the
 * two ends, a motor's at its speed), would turn it alone; without bound
 * when a kinematic body, whose pushes add energy, is within reach. */
static double turn_rate_bound(const fz_scene *sc, int i, const poses *q0, const poses *q1)
{
    bool balls = false; /* all the balls' energy (a few, light) when one of them is near */
    for (int k = 0; k < sc->nballs; ++k)
        balls |= near_hinged(sc, i, q0, q1, q0->ball[k], q1->ball[k], sc->balls[k].r);
    double energy = balls ? fmax(q0->balls_energy, q1->balls_energy) : 0.0;
    for (int j = 0; j < sc->nb; ++j) {
        const fz_body *b = &sc->b[j];
        if (j != i && !near_hinged(sc, i, q0, q1, q0->q[j].p, q1->q[j].p, b->reach))
            continue;
        if (b->kind == SCCD_FZ_KINEMATIC)
            return INFINITY;
        double driven = b->kind == SCCD_FZ_HINGED_MOTOR ? 0.5 * hinge_inertia(b, sc->unit) * b->speed * b->speed : 0.0;
        energy += fmax(fmax(q0->e[j], q1->e[j]), driven);
    }
    double own = fmax(fmax(q0->w[i], q1->w[i]), sc->b[i].kind == SCCD_FZ_HINGED_MOTOR ? fabs(sc->b[i].speed) : 0.0);
    return fmax(own, sqrt(2.0 * energy / hinge_inertia(&sc->b[i], sc->unit)));
}

/* Whether hinged body i's turn in the step is too large to tell its way:
 * more than 0.95π, or the other way round within what it may have turned
 * (turn_rate_bound, 5 % spare). ODE keeps only the pose; a body the CCD's
 * impacts spun up may turn more than π in a step, the engine's own step
 * too in finite rotation mode (seed 81, scene 89741: a blade at 295 rad/s
 * spun a hinged box to 100 rad/s, which ODE turned 3.35 rad at 30 Hz, read
 * as 2.93 rad the other way, through a ball; seed 71, scene 27552: a
 * capsule spun to 278 rad/s turned 4.56 rad away from a wall at 60 Hz,
 * read as 1.73 rad into it). */
static bool ambiguous_turn(const fz_scene *sc, int i, const poses *q0, const poses *q1)
{
    double turn = fabs(q1->a[i] - q0->a[i]);
    return turn > 0.95 * SCCD_PI || 2.0 * SCCD_PI - turn <= 1.05 * turn_rate_bound(sc, i, q0, q1) / sc->hz;
}

/* Whether hinged body i's angle going from a0 to a1 passes a blocked range
 * (arcs); an ambiguous turn, only if it does both ways. */
static bool turned_through(const fz_scene *sc, int i, const sccd_fz_arcs *arcs, const poses *q0, const poses *q1)
{
    double a0 = q0->a[i], a1 = q1->a[i];
    return sccd_fz_arcs_crossed(arcs, a0, a1) &&
           (!ambiguous_turn(sc, i, q0, q1) || sccd_fz_arcs_crossed(arcs, a0, a1 - copysign(2.0 * SCCD_PI, a1 - a0)));
}

static bool judge_static(const fz_scene *sc, int i, const poses *q0, const poses *q1, sccd_fz_result *out)
{
    const fz_body *b = &sc->b[i];
    if (b->kind == SCCD_FZ_KINEMATIC)
        return false;
    sccd_fz_solid inner = place(&b->inner, &q1->q[i]);
    bool at_hinge = is_hinged(b) && dist3(q0->q[i].p, b->pos) < 0.25 * b->inset && dist3(q1->q[i].p, b->pos) < 0.25 * b->inset;
    for (int k = 0; k < sc->ns; ++k) {
        const fz_static *s = &sc->s[k];
        if (meets_core(&inner, s)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d deep in S%d (%s): inner shape (inset %.4f) meets its core at (%.4f,%.4f,%.4f) a=%.4f", i, k,
                     static_names[s->kind], b->inset, q1->q[i].p.x, q1->q[i].p.y, q1->q[i].p.z, q1->a[i]);
            return fire(out, SCCD_FZ_JUDGE_DEEP);
        }
        if (at_hinge && turned_through(sc, i, &sc->arcs[i][k], q0, q1)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d turned through S%d (%s): angle %.4f -> %.4f passes a blocked range", i, k,
                     static_names[s->kind], q0->a[i], q1->a[i]);
            return fire(out, SCCD_FZ_JUDGE_TURNED);
        }
        if (b->kind == SCCD_FZ_FLYER && s->kind == STATIC_WALL && crosses_wall(s, q0->q[i].p, q1->q[i].p, travel(sc, i, q0, q1))) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d centre crossed wall S%d: (%.4f,%.4f,%.4f) -> (%.4f,%.4f,%.4f)", i, k, q0->q[i].p.x,
                     q0->q[i].p.y, q0->q[i].p.z, q1->q[i].p.x, q1->q[i].p.y, q1->q[i].p.z);
            return fire(out, SCCD_FZ_JUDGE_CROSSED);
        }
    }
    return false;
}

static bool judge_moving(const fz_scene *sc, int i, const poses *q1, sccd_fz_result *out)
{
    const fz_body *b = &sc->b[i];
    sccd_fz_solid inner = place(&b->inner, &q1->q[i]);
    for (int k = 0; k < sc->nballs; ++k) {
        sccd_fz_solid c = solid(q1->ball[k], 0, 0, 0, 0.0);
        if (sccd_fz_solid_overlap(&inner, &c)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "ball%d centre (%.4f,%.4f,%.4f) inside B%d (inset %.4f) at (%.4f,%.4f,%.4f) a=%.4f", k,
                     q1->ball[k].x, q1->ball[k].y, q1->ball[k].z, i, b->inset, q1->q[i].p.x, q1->q[i].p.y, q1->q[i].p.z, q1->a[i]);
            return fire(out, SCCD_FZ_JUDGE_BALL);
        }
    }
    for (int j = i + 1; j < sc->nb; ++j) {
        if (b->kind == SCCD_FZ_KINEMATIC && sc->b[j].kind == SCCD_FZ_KINEMATIC)
            continue;
        sccd_fz_solid other = place(&sc->b[j].inner, &q1->q[j]);
        if (sccd_fz_solid_overlap(&inner, &other)) {
            snprintf(out->judge, SCCD_FZ_JUDGE, "B%d and B%d inner shapes meet: B%d (%.4f,%.4f) a=%.4f, B%d (%.4f,%.4f) a=%.4f", i, j, i,
                     q1->q[i].p.x, q1->q[i].p.y, q1->a[i], j, q1->q[j].p.x, q1->q[j].p.y, q1->a[j]);
            return fire(out, SCCD_FZ_JUDGE_BODIES);
        }
    }
    return false;
}

static bool judge(const fz_scene *sc, const poses *q0, const poses *q1, sccd_fz_result *out)
{
    bool ambiguous = false;
    for (int i = 0; i < sc->nb; ++i)
        ambiguous |= is_hinged(&sc->b[i]) && ambiguous_turn(sc, i, q0, q1);
    out->ambiguous += ambiguous;
    for (int i = 0; i < sc->nb; ++i)
        if (judge_static(sc, i, q0, q1, out) || judge_moving(sc, i, q1, out))
            return true;
    return false;
}

static void trace_step(const fz_scene *sc, int step, const poses *q, sccd_fz_trace *trace, void *user)
{
    char line[SCCD_FZ_TEXT] = "";
    sccd_fz_append(line, sizeof line, "step %d:", step);
    for (int i = 0; i < sc->nb; ++i)
        sccd_fz_append(line, sizeof line, " B%d (%.5f,%.5f,%.5f) a=%.5f;", i, q->q[i].p.x, q->q[i].p.y, q->q[i].p.z, q->a[i]);
    for (int i = 0; i < sc->nballs; ++i)
        sccd_fz_append(line, sizeof line, " ball%d (%.5f,%.5f,%.5f);", i, q->ball[i].x, q->ball[i].y, q->ball[i].z);
    trace(user, line);
}

/* The calibration's sub-steps: the fastest CCD body's travel per step against
 * the thinnest inset, wall or plane core. */
static int substeps(const fz_scene *sc)
{
    double travel = 0.0, feature = INFINITY;
    for (int i = 0; i < sc->nb; ++i) {
        travel = fmax(travel, (fabs(sc->b[i].speed) * sc->b[i].reach + norm3(sc->b[i].vel)) / sc->hz);
        feature = fmin(feature, sc->b[i].inset);
    }
    for (int i = 0; i < sc->ns; ++i)
        if (sc->s[i].kind != STATIC_BALL)
            feature = fmin(feature, sc->s[i].kind == STATIC_PLANE ? sc->s[i].depth : sc->s[i].shape.h[1]);
    return sccd_fz_substeps(travel, feature);
}

sccd_fz_result sccd_fz_run_ode(uint64_t seed, int index, sccd_fz_setup setup, sccd_fz_mode mode, sccd_fz_trace *trace,
                               void *user)
{
    static fz_scene sc; /* large (the angle sets); one scene at a time */
    sccd_rng g = sccd_fz_rng(SCCD_FZ_ODE, seed, index);
    generate(&g, &sc, setup);
    sc.unit = setup.unit;
    sccd_fz_result out = {.kind = sc.b[0].kind, .step = -1, .steps = sc.steps};
    describe(&sc, index, out.scene);
    for (int i = 0; i < sc.nb; ++i)
        for (int k = 0; k < sc.ns && is_hinged(&sc.b[i]); ++k)
            sample_arcs(&sc.b[i], &sc.s[k], &sc.arcs[i][k]);
    sccd_ode_world *cw;
    dSpaceID space = build_world(&sc, mode == SCCD_FZ_CCD, &cw);
    int sub = mode == SCCD_FZ_SUBSTEP ? substeps(&sc) : 1;
    poses q0 = read_poses(&sc, NULL);
    for (int s = 0; s < sc.steps && !out.passed; ++s) {
        poses q1 = q0;
        for (int k = 0; k < sub; ++k) { /* unwrapped sub-step by sub-step: less than π each */
            step_world(&sc, space, cw, 1.0 / (sc.hz * sub));
            q1 = read_poses(&sc, &q1);
        }
        if (trace != NULL)
            trace_step(&sc, s, &q1, trace, user);
        if (judge(&sc, &q0, &q1, &out)) {
            out.passed = true;
            out.step = s;
        }
        q0 = q1;
    }
    sccd_ode_detach(cw);
    dJointGroupDestroy(sc.contacts);
    dSpaceDestroy(space);
    dWorldDestroy(sc.world);
    return out;
}
