/* The CCD of the ODE adapter (sectorccd_ode.h, "CCD").
 *
 * How it rides on the user's loop. ODE 0.16's dWorldStep and dWorldQuickStep
 * first solve velocities (with the contact joints the user made from the
 * collision pass), then integrate every enabled body: p += v·dt, and the
 * orientation by q += ½·dt·ω·q, normalised (dxStepBody, default mode), which
 * is a turn about ω of 2·atan(|ω|·dt/2) < π. So the pose after the step is
 * reached from the pose before it by one rigid motion whose turn is the
 * short way: sccd_motion3_between about the body's pivot (the header's
 * "Limits" say what that means for finite rotation mode).
 *
 * before_step records the pose of every body with a geom in the space (a
 * scan that also forgets destroyed CCD bodies). after_step makes each CCD
 * geom's motion and step box, keeps the geoms whose own step box (from their
 * body's two poses) meets a CCD body's, runs the sweep's exact test (sectors,
 * built on first use) against the static ones, and a conservative TOI
 * (sccd_toi3_compute) on every pair left.
 *
 * Impact poses. Each pair's TOI runs on "cores": the CCD shape shrunk by a
 * skin (sphere and capsule radius, box half extents) and the target shrunk by
 * what is left of it; the TOI target distance is the skin less the wanted
 * overlap. A shape shrunk by s and grown back by a ball of radius s lies
 * inside the original (exactly the original for spheres and capsules), so at
 * a hit the real shapes overlap by at least `overlap` (a cylinder or triangle
 * target, met through its bounds, somewhat less), and ODE makes its contact.
 * Cores are subsets of the shapes: whenever the real shapes would pass
 * through each other their cores meet, so the TOI (never later than the
 * first time the cores reach the target distance) cannot miss it. A pair
 * that already overlaps at the step start is ODE's contact's, guarded by
 * deeper cores (pair_toi): a body is never put back at its start pose for a
 * contact it is in, except against the back of a mesh, where ODE has none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sectorccd_ode.h"
#include "../adapter_internal.h"

/* The skin is this many overlaps deep: the resting overlap of one step (one
 * overlap) plus room for the solver's residual approach. */
#define SKIN_OVERLAPS 3.0
/* Most clash rounds between dynamic CCD bodies before all involved stop together. */
#define CLASH_ROUNDS_MAX 16
/* Most passes over a target's bounds (toi_bounds) before it settles for a safe time. */
#define BOUND_PASSES_MAX 16

typedef enum geom_kind { KIND_IGNORED, KIND_SHAPE, KIND_PLANE, KIND_MESH } geom_kind;

/* Most convex bounds a target is the intersection of. */
#define MAX_BOUNDS 3

/* A target as the intersection of n convex shapes that each hold it: one
 * for spheres, boxes and capsules; a cylinder is exactly its box ∩ its
 * capsule; a triangle exactly the ∩ of its three edge-aligned rectangles. */
typedef struct target3 { int n; sccd_shape3 s[MAX_BOUNDS]; } target3;

/* One enabled geom of the space, as seen by before_step. */
typedef struct ode_geom {
    dGeomID geom;
    dBodyID body;        /* NULL: static */
    geom_kind kind;
    sccd_shape3 shape;   /* KIND_SHAPE, geom coordinates (a cylinder: its box) */
    bool cylinder;       /* then `side` (its capsule) bounds it too */
    sccd_shape3 side;
    sccd_plane plane;    /* KIND_PLANE: solid where n·x ≤ d */
    sccd_xf3 body0;      /* its body's pose before the step (the only thing before_step reads) */
    /* after_step */
    sccd_xf3 start;      /* world pose before the step (placeable geoms) */
    sccd_aabb3 box0;     /* AABB before the step (shapes), else its box now */
    sccd_aabb3 box1;     /* AABB now */
    unsigned long cat, col;
    int ccd;             /* index of its CCD body record, -1 */
    bool full;           /* shape, plane, start, box0 and motion made (complete_geom) */
    bool moving;         /* on an enabled dynamic or kinematic body */
    sccd_motion3 motion; /* geom-frame motion about the body's centre of mass */
    sccd_aabb3 reach;    /* holds all it covers this step */
} ode_geom;

typedef struct ode_body {
    dBodyID body;
    sccd_v3 pivot; /* body coordinates */
    sccd_xf3 start;
    bool seen;     /* has a geom in the space at before_step */
    /* this step */
    bool active, kinematic;
    sccd_motion3 motion; /* body motion about the pivot */
    sccd_real t;         /* clamp time, 1 = free */
    sccd_v3 push;        /* translation added at the impact pose */
    bool rides;          /* carried by a kinematic body from t on */
    sccd_motion3 carrier;
    int held;            /* index of the dynamic non-CCD geom it hit first, -1 */
    int first, count;    /* its pieces */
    sccd_aabb3 box;      /* union of its pieces' boxes */
} ode_body;

/* A CCD geom this step. */
typedef struct ode_piece {
    int geom;
    sccd_motion3 motion; /* geom-frame motion about the pivot */
    bool swept;          /* sweep built (on first use: only static targets need it) */
    sccd_sweep3 sweep;
    sccd_aabb3 box;      /* candidate box */
} ode_piece;

/* What happens to a dynamic non-CCD body: held at its pose at t, or carried
 * by a kinematic CCD body from t on. */
typedef struct ode_event {
    int geom;
    sccd_real t;
    sccd_v3 push;
    bool rides;
    sccd_motion3 carrier;
} ode_event;

struct sccd_ode_world {
    dWorldID world;
    dSpaceID space;
    sccd_ccd_options opt;
    sccd_ode_counters cnt;
    ode_body *bodies;
    int nbodies, capbodies;
    ode_geom *geoms;
    int ngeoms, capgeoms;
    ode_piece *pieces;
    int npieces, cappieces;
    ode_event *events;
    int nevents, capevents;
    int *near; /* geoms that may reach a CCD body this step */
    int nnear, capnear;
    bool scanned; /* before_step ran since the last after_step */
    const char *error;
    char message[96]; /* an error message made at run time (set_options) */
};

/* ---- small helpers ---- */

/* Report bad use: the assert handler gets the condition, the world keeps a message. */
#define ODE_CHECK(w, cond, msg) ((cond) ? true : (report((w), (msg)), SCCD_ASSERT(cond), false))

static void report(sccd_ode_world *w, const char *msg)
{
    if (w != NULL) {
        w->error = msg;
        ++w->cnt.errors;
    }
}

static sccd_v3 v3_of(const dReal *v) { return (sccd_v3){v[0], v[1], v[2]}; }

/* ODE quaternions are (w, x, y, z). */
static sccd_quat quat_of(const dReal *q) { return (sccd_quat){q[1], q[2], q[3], q[0]}; }

static sccd_xf3 xf3_inv(sccd_xf3 x)
{
    sccd_quat qi = sccd_quat_conj(x.q);
    return (sccd_xf3){sccd_quat_apply(qi, sccd_v3_neg(x.p)), qi};
}

static sccd_xf3 geom_pose(dGeomID g)
{
    dQuaternion q;
    dGeomGetQuaternion(g, q);
    return (sccd_xf3){v3_of(dGeomGetPosition(g)), quat_of(q)};
}

static sccd_xf3 body_pose(dBodyID b) { return (sccd_xf3){v3_of(dBodyGetPosition(b)), quat_of(dBodyGetQuaternion(b))}; }

static void set_body_pose(dBodyID b, sccd_xf3 x)
{
    x.q = sccd_quat_normalize(x.q);
    dQuaternion q = {x.q.w, x.q.x, x.q.y, x.q.z};
    dBodySetPosition(b, x.p.x, x.p.y, x.p.z);
    dBodySetQuaternion(b, q);
}

/* The pose of geom g in its body's frame (identity without an offset). */
static sccd_xf3 geom_offset(dGeomID g)
{
    dQuaternion q;
    dGeomGetOffsetQuaternion(g, q);
    return (sccd_xf3){v3_of(dGeomGetOffsetPosition(g)), quat_of(q)};
}

/* Where the body sits when geom g (of that body) is at pose gx: gx·offset⁻¹. */
static sccd_xf3 body_from_geom(dGeomID g, sccd_xf3 gx) { return sccd_xf3_mul(gx, xf3_inv(geom_offset(g))); }

static sccd_aabb3 aabb_of_geom(dGeomID g)
{
    dReal a[6];
    dGeomGetAABB(g, a);
    return (sccd_aabb3){{a[0], a[2], a[4]}, {a[1], a[3], a[5]}};
}

static bool boxes_overlap(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

static sccd_aabb3 aabb_grow(sccd_aabb3 b, sccd_real d)
{
    sccd_v3 g = {d, d, d};
    return (sccd_aabb3){sccd_v3_sub(b.lo, g), sccd_v3_add(b.hi, g)};
}

/* The part [t0, t1] of motion m, as a motion over [0, 1]. */
static sccd_motion3 motion_part(sccd_motion3 m, sccd_real t0, sccd_real t1)
{
    return (sccd_motion3){sccd_motion3_at(m, t0), m.center, sccd_v3_scale(m.dp, t1 - t0), m.axis, m.angle * (t1 - t0)};
}

static sccd_motion3 motion_still(sccd_xf3 pose)
{
    return (sccd_motion3){pose, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, 0.0};
}

/* The same rigid motion seen by a frame attached to the body at `offset`
 * (body coordinates): start·offset, centre offset⁻¹·centre. */
static sccd_motion3 motion_of_frame(sccd_motion3 body, sccd_xf3 frame_start)
{
    sccd_v3 c = sccd_xf3_apply(body.start, body.center);
    return (sccd_motion3){frame_start, sccd_xf3_inv_apply(frame_start, c), body.dp, body.axis, body.angle};
}

/* Velocity (per unit t) of the world point x carried by motion m at time t. */
static sccd_v3 point_velocity(sccd_motion3 m, sccd_real t, sccd_v3 x)
{
    sccd_v3 r = sccd_v3_sub(x, sccd_motion3_center_at(m, t));
    return sccd_v3_add(m.dp, sccd_v3_cross(sccd_v3_scale(m.axis, m.angle), r));
}

/* Unit quaternion of the rotation whose columns are the orthonormal,
 * right-handed e1, e2, e3 (Shepperd's method: the largest of the four
 * squared components is taken first, so no division by a small number). */
static sccd_quat quat_from_basis(sccd_v3 e1, sccd_v3 e2, sccd_v3 e3)
{
    sccd_real tr = e1.x + e2.y + e3.z;
    sccd_quat q;
    if (tr > 0.0) {
        sccd_real s = 2.0 * sqrt(1.0 + tr);
        q = (sccd_quat){(e2.z - e3.y) / s, (e3.x - e1.z) / s, (e1.y - e2.x) / s, 0.25 * s};
    } else if (e1.x > e2.y && e1.x > e3.z) {
        sccd_real s = 2.0 * sqrt(1.0 + e1.x - e2.y - e3.z);
        q = (sccd_quat){0.25 * s, (e2.x + e1.y) / s, (e3.x + e1.z) / s, (e2.z - e3.y) / s};
    } else if (e2.y > e3.z) {
        sccd_real s = 2.0 * sqrt(1.0 + e2.y - e1.x - e3.z);
        q = (sccd_quat){(e2.x + e1.y) / s, 0.25 * s, (e3.y + e2.z) / s, (e3.x - e1.z) / s};
    } else {
        sccd_real s = 2.0 * sqrt(1.0 + e3.z - e1.x - e2.y);
        q = (sccd_quat){(e3.x + e1.z) / s, (e3.y + e2.z) / s, 0.25 * s, (e1.y - e2.x) / s};
    }
    return sccd_quat_normalize(q);
}

static sccd_shape3 box_shape(sccd_v3 c, sccd_quat q, sccd_v3 h)
{
    sccd_shape3 s = {.type = SCCD_SHAPE_BOX};
    s.box = (sccd_box3){c, q, h};
    return s;
}

/* ---- geoms as shapes ---- */

/* What the CCD does with a geom class. */
static geom_kind kind_of(int cls)
{
    switch (cls) {
    case dSphereClass:
    case dBoxClass:
    case dCapsuleClass:
    case dCylinderClass:
        return KIND_SHAPE;
    case dPlaneClass:
        return KIND_PLANE;
    case dTriMeshClass:
        return KIND_MESH;
    default:
        return KIND_IGNORED;
    }
}

/* The class of geom g as a shape in geom coordinates. Capsules and cylinders
 * lie along their local z; a cylinder is its box (flat caps exact) with its
 * capsule (round side exact) as a second bound. */
static void classify(dGeomID g, sccd_shape3 *s, sccd_plane *plane, sccd_shape3 *side)
{
    dReal r, len;
    dVector3 l;
    dVector4 p;
    memset(s, 0, sizeof *s);
    switch (dGeomGetClass(g)) {
    case dSphereClass:
        s->type = SCCD_SHAPE_CIRCLE;
        s->sphere = (sccd_sphere){{0.0, 0.0, 0.0}, dGeomSphereGetRadius(g)};
        return;
    case dBoxClass:
        dGeomBoxGetLengths(g, l);
        *s = box_shape((sccd_v3){0.0, 0.0, 0.0}, sccd_quat_identity(), sccd_v3_scale(v3_of(l), 0.5));
        return;
    case dCapsuleClass:
        dGeomCapsuleGetParams(g, &r, &len);
        s->type = SCCD_SHAPE_CAPSULE;
        s->capsule = (sccd_capsule3){{0.0, 0.0, -0.5 * len}, {0.0, 0.0, 0.5 * len}, r};
        return;
    case dCylinderClass:
        dGeomCylinderGetParams(g, &r, &len);
        *s = box_shape((sccd_v3){0.0, 0.0, 0.0}, sccd_quat_identity(), (sccd_v3){r, r, 0.5 * len});
        side->type = SCCD_SHAPE_CAPSULE;
        side->capsule = (sccd_capsule3){{0.0, 0.0, -0.5 * len}, {0.0, 0.0, 0.5 * len}, r};
        return;
    case dPlaneClass:
        dGeomPlaneGetParams(g, p);
        *plane = (sccd_plane){{p[0], p[1], p[2]}, p[3]};
        return;
    default: /* meshes are read triangle by triangle; other classes are ignored */
        return;
    }
}

/* Triangle tri as the three rectangles (zero-thickness boxes) that hold it
 * with one side along an edge, smallest first: their intersection is the
 * triangle (each has an edge's line as a side). A degenerate triangle: the
 * box of its points. */
static target3 triangle_bounds(sccd_triangle tri)
{
    target3 out = {0};
    sccd_v3 v[3] = {tri.a, tri.b, tri.c};
    sccd_v3 n = sccd_v3_cross(sccd_v3_sub(tri.b, tri.a), sccd_v3_sub(tri.c, tri.a));
    if (!(sccd_v3_len(n) > 0.0)) {
        sccd_v3 lo = sccd_v3_min(tri.a, sccd_v3_min(tri.b, tri.c)), hi = sccd_v3_max(tri.a, sccd_v3_max(tri.b, tri.c));
        out.s[out.n++] = box_shape(sccd_v3_scale(sccd_v3_add(lo, hi), 0.5), sccd_quat_identity(), sccd_v3_scale(sccd_v3_sub(hi, lo), 0.5));
        return out;
    }
    n = sccd_v3_normalize(n);
    sccd_real area[3];
    for (int i = 0; i < 3; ++i) {
        sccd_v3 o = v[i], e1 = sccd_v3_normalize(sccd_v3_sub(v[(i + 1) % 3], o)), e2 = sccd_v3_cross(n, e1);
        sccd_real lo1 = 0.0, hi1 = 0.0, lo2 = 0.0, hi2 = 0.0;
        for (int k = 0; k < 3; ++k) {
            sccd_v3 d = sccd_v3_sub(v[k], o);
            lo1 = sccd_min(lo1, sccd_v3_dot(d, e1));
            hi1 = sccd_max(hi1, sccd_v3_dot(d, e1));
            lo2 = sccd_min(lo2, sccd_v3_dot(d, e2));
            hi2 = sccd_max(hi2, sccd_v3_dot(d, e2));
        }
        sccd_v3 c = sccd_v3_add(o, sccd_v3_add(sccd_v3_scale(e1, 0.5 * (lo1 + hi1)), sccd_v3_scale(e2, 0.5 * (lo2 + hi2))));
        sccd_shape3 b = box_shape(c, quat_from_basis(e1, e2, n), (sccd_v3){0.5 * (hi1 - lo1), 0.5 * (hi2 - lo2), 0.0});
        int at = out.n++; /* insertion by area */
        area[at] = (hi1 - lo1) * (hi2 - lo2);
        for (; at > 0 && area[at - 1] > area[at]; --at) {
            sccd_real ta = area[at - 1];
            area[at - 1] = area[at];
            area[at] = ta;
            out.s[at] = out.s[at - 1];
        }
        out.s[at] = b;
    }
    return out;
}

/* The part of the half-space n·x ≤ d that the box `reach` can meet, as a box:
 * its top face lies in the plane, it spans the reach box's footprint and goes
 * below its lowest corner. Inside `reach` it equals the half-space, so a TOI
 * of a body that stays in `reach` is the TOI against the plane. */
static sccd_shape3 plane_box(sccd_plane p, sccd_aabb3 reach, sccd_real skin)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(reach.lo, reach.hi), 0.5);
    sccd_real half = sccd_v3_len(sccd_v3_sub(reach.hi, reach.lo)) * 0.5 + skin;
    sccd_real depth = 2.0 * skin;
    sccd_v3 h = sccd_v3_scale(sccd_v3_sub(reach.hi, reach.lo), 0.5);
    sccd_real lowest = sccd_v3_dot(p.n, c) - (fabs(p.n.x) * h.x + fabs(p.n.y) * h.y + fabs(p.n.z) * h.z);
    depth = sccd_max(depth, p.d - lowest + skin);
    sccd_v3 top = sccd_v3_sub(c, sccd_v3_scale(p.n, sccd_v3_dot(p.n, c) - p.d));
    sccd_v3 e1, e2;
    sccd_v3_basis(p.n, &e1, &e2);
    if (sccd_v3_dot(sccd_v3_cross(e1, e2), p.n) < 0.0)
        e2 = sccd_v3_neg(e2);
    return box_shape(sccd_v3_sub(top, sccd_v3_scale(p.n, 0.5 * depth)), quat_from_basis(e1, e2, p.n),
                     (sccd_v3){half, half, 0.5 * depth});
}

/* Triangle i of mesh g in world coordinates (its current pose). */
static sccd_triangle mesh_triangle(dGeomID g, int i)
{
    dVector3 a, b, c;
    dGeomTriMeshGetTriangle(g, i, &a, &b, &c);
    return (sccd_triangle){v3_of(a), v3_of(b), v3_of(c)};
}

/* ---- the time of impact of one shape pair ---- */

/* Shrink s by at most want (radius, or all half extents of a box); returns
 * how much. The core grown by a ball of that radius lies inside s. */
static sccd_real shrink(sccd_shape3 *s, sccd_real want)
{
    if (want <= 0.0)
        return 0.0;
    sccd_real *r = s->type == SCCD_SHAPE_CIRCLE ? &s->sphere.r : s->type == SCCD_SHAPE_CAPSULE ? &s->capsule.r : NULL;
    if (r != NULL) {
        sccd_real d = sccd_min(want, *r);
        *r -= d;
        return d;
    }
    sccd_v3 *h = &s->box.h;
    sccd_real d = sccd_min(want, sccd_min(h->x, sccd_min(h->y, h->z)));
    *h = sccd_v3_sub(*h, (sccd_v3){d, d, d});
    return d;
}

/* An impact: time t, normal (A to B), the translation of A that makes the
 * overlap; for a pair within the target distance at the start, the closing
 * speed there (per step, along the normal). */
typedef struct pair_hit { bool hit; sccd_real t; sccd_v3 normal, push; sccd_real closing; } pair_hit;

static sccd_real approach_bound(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb)
{
    return sccd_v3_len(sccd_v3_sub(ma.dp, mb.dp)) + fabs(ma.angle) * sccd_shape3_farthest(a, ma.center) +
           fabs(mb.angle) * sccd_shape3_farthest(b, mb.center);
}

/* The bound of toi.c on the gap along a fixed normal n (A to B) from time
 * t on: g(t + Δ) ≥ g(t) − βΔ − ½κΔ², with β the approach rate of the
 * supporting points (translation along n plus σA + σB, support values about
 * the centres along n × ω) and κ = Σ |n × ω|·|ω|·ρ. */
static void gap_rates(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb, sccd_real t,
                      sccd_v3 n, sccd_real *beta, sccd_real *kappa)
{
    sccd_v3 ua = sccd_v3_cross(n, sccd_v3_scale(ma.axis, ma.angle));
    sccd_v3 ub = sccd_v3_neg(sccd_v3_cross(n, sccd_v3_scale(mb.axis, mb.angle)));
    sccd_v3 ca = sccd_motion3_center_at(ma, t), cb = sccd_motion3_center_at(mb, t);
    sccd_real sa = sccd_v3_dot(sccd_v3_sub(sccd_shape3_support(a, sccd_motion3_at(ma, t), ua), ca), ua);
    sccd_real sb = sccd_v3_dot(sccd_v3_sub(sccd_shape3_support(b, sccd_motion3_at(mb, t), ub), cb), ub);
    *beta = sccd_v3_dot(n, sccd_v3_sub(ma.dp, mb.dp)) + sa + sb;
    *kappa = sccd_v3_len(ua) * fabs(ma.angle) * sccd_shape3_farthest(a, ma.center) +
             sccd_v3_len(ub) * fabs(mb.angle) * sccd_shape3_farthest(b, mb.center);
}

/* How long after t a pair that touches with normal n at t provably keeps its
 * gap along n: when β < 0 the gap stays ≥ g(t) for Δ ≤ 2|β|/κ (forever when
 * nothing turns); otherwise only one tolerance's crawl is safe. */
static sccd_real separating_span(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                                 sccd_real t, sccd_v3 n, sccd_real tol, sccd_real rate)
{
    sccd_real beta, kappa;
    gap_rates(a, ma, b, mb, t, n, &beta, &kappa);
    sccd_real crawl = sccd_max(tol / rate, 1e-9);
    if (beta >= 0.0)
        return crawl;
    return kappa > 0.0 ? sccd_max(2.0 * -beta / kappa, crawl) : 1.0;
}

/* First time from t0 on at which core a comes within goal of the
 * intersection of the cores b->s[0..n), by conservative advancement against
 * each bound in turn: contact with the intersection needs contact with every
 * bound, so no bound's TOI from a time before that contact passes it, and
 * the search advances while any bound is still apart (touching all bounds
 * at one time is close to touching their intersection: for a cylinder's box
 * and capsule the larger of the two distances is at least 1/√2 of the
 * distance to the cylinder). `last` gets the bound of the result. */
static sccd_toi3 toi_bounds(sccd_ode_world *w, const sccd_shape3 *a, sccd_motion3 ma, const target3 *b,
                            sccd_motion3 mb, sccd_real goal, sccd_real t0, int *last)
{
    sccd_toi3 out = {SCCD_TOI_FAILED, t0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    sccd_real t = t0;
    *last = 0;
    for (int pass = 0; pass < BOUND_PASSES_MAX; ++pass) {
        bool moved = false;
        int overlapped = 0;
        for (int i = 0; i < b->n; ++i) {
            sccd_toi3 r = sccd_toi3_compute(a, motion_part(ma, t, 1.0), &b->s[i], motion_part(mb, t, 1.0), goal,
                                            w->opt.toi_tolerance);
            ++w->cnt.tois;
            if (r.state == SCCD_TOI_SEPARATED || (r.state == SCCD_TOI_OVERLAPPED && b->n == 1))
                return r; /* never reaches this bound, so never the target; or plainly overlapped */
            if (r.state == SCCD_TOI_OVERLAPPED) { /* this bound says nothing here: the others decide */
                ++overlapped;
                continue;
            }
            sccd_real ti = t + r.t * (1.0 - t);
            moved |= ti > t;
            t = ti;
            out = r;
            out.t = t;
            *last = i;
            if (r.state == SCCD_TOI_FAILED)
                return out; /* no contact before t */
        }
        if (overlapped == b->n) { /* deeper than the skin in every bound */
            out.state = t == 0.0 ? SCCD_TOI_OVERLAPPED : SCCD_TOI_HIT;
            out.t = t;
            return out;
        }
        if (!moved || b->n == 1)
            return out;
    }
    out.state = SCCD_TOI_FAILED; /* still advancing: t is safe */
    return out;
}

/* Shrink every bound of b by the same amount, at most want (erosion
 * distributes over intersection: the cores' intersection is the target
 * shrunk by it). */
static sccd_real shrink_target(target3 *b, sccd_real want)
{
    sccd_real d = want;
    for (int i = 0; i < b->n; ++i) {
        sccd_shape3 probe = b->s[i];
        d = sccd_min(d, shrink(&probe, want));
    }
    for (int i = 0; i < b->n; ++i)
        shrink(&b->s[i], d);
    return d;
}

/* Cores of a and b shrunk by s in all (a first, then b): how much they shrank. */
static sccd_real shrink_pair(sccd_shape3 *a, target3 *b, sccd_real s)
{
    sccd_real shrunk = shrink(a, s);
    return shrunk + shrink_target(b, s - shrunk);
}

/* Least distance between core a and the intersection of the cores b at the
 * start (the largest distance to one bound: the intersection lies in each). */
static sccd_real start_distance(const sccd_shape3 *a, sccd_motion3 ma, const target3 *b, sccd_motion3 mb)
{
    sccd_real d = 0.0;
    for (int i = 0; i < b->n; ++i) {
        sccd_distance3 r = sccd_shape3_distance(a, ma.start, &b->s[i], mb.start);
        d = sccd_max(d, r.overlap ? 0.0 : r.distance);
    }
    return d;
}

/* First impact of a and target b under ma, mb on [0, 1], on cores shrunk by
 * up to `skin` and aimed at an overlap of `depth` of the real shapes. A
 * pair already within the target distance at the start (the TOI's HIT at
 * t = 0, OVERLAPPED, or FAILED with no progress) gets no impact here:
 * *at_start says so and the caller decides. A touch where the two are
 * separating (a ball leaving the bat) is no impact: the search goes on from
 * where they may approach again, aiming at half the target distance from
 * then on. Two bodies that leave each other at nearly equal speed stay near
 * the target distance for a while; aiming lower gives conservative
 * advancement a gap to cross, and a hit there is still a shallow overlap,
 * far from a pass-through. */
static pair_hit cores_toi(sccd_ode_world *w, const sccd_shape3 *a, sccd_motion3 ma, const target3 *b,
                          sccd_motion3 mb, sccd_real skin, sccd_real depth, bool shapes_apart, bool *at_start)
{
    pair_hit out = {false, 1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    sccd_real tol = w->opt.toi_tolerance;
    sccd_shape3 ca = *a;
    target3 cb = *b;
    sccd_real shrunk = shrink_pair(&ca, &cb, skin);
    /* When the shapes must start apart: the grown cores lie inside the
     * shapes, so cores closer than the shrink mean shapes that overlap. */
    *at_start = shapes_apart && start_distance(&ca, ma, &cb, mb) < shrunk;
    if (*at_start)
        return out;
    /* At a hit the core distance is at most goal + tol, so the real distance
     * is at most goal + tol − shrunk: −depth or less when the skin allows,
     * else a push along the normal makes up the difference. */
    sccd_real goal = sccd_max(shrunk - depth - tol, 2.0 * tol);
    sccd_real rate = approach_bound(&ca, ma, &cb.s[0], mb);
    sccd_real t0 = 0.0;
    for (int round = 0; round < w->opt.toi_max_iterations && t0 < 1.0; ++round) {
        int k;
        sccd_toi3 r = toi_bounds(w, &ca, ma, &cb, mb, goal, t0, &k);
        if (r.state == SCCD_TOI_SEPARATED)
            return out;
        sccd_real t = r.t;
        sccd_real closing = r.state == SCCD_TOI_OVERLAPPED
                                ? 0.0
                                : sccd_v3_dot(sccd_v3_sub(point_velocity(ma, t, r.point), point_velocity(mb, t, r.point)),
                                              r.normal);
        if (r.state == SCCD_TOI_OVERLAPPED || t <= 0.0) {
            *at_start = t0 == 0.0; /* within the target distance at the start: no first contact to stop at */
            out.normal = r.normal;
            out.closing = closing;
            return out;
        }
        bool last = round + 1 == w->opt.toi_max_iterations;
        if (r.state == SCCD_TOI_FAILED && t > t0 && !last) {
            t0 = t; /* the TOI's own cap: no contact before t, go on from there */
            continue;
        }
        /* Approaching by more than the tolerance over the step: an impact.
         * Moving with each other (a body the bat carried last step, now
         * at the bat's speed) is not: the search goes on and finds where the
         * two really close in (the body then slides along, as it should). */
        if (r.state == SCCD_TOI_FAILED || closing > tol || rate <= 0.0) {
            w->cnt.failed += r.state == SCCD_TOI_FAILED;
            sccd_real extra = sccd_max(goal + tol - shrunk + depth, 0.0);
            return (pair_hit){true, t, r.normal, sccd_v3_scale(r.normal, extra)};
        }
        t0 = t + separating_span(&ca, ma, &cb.s[k], mb, t, r.normal, tol, rate);
        goal = sccd_max(0.5 * goal, tol);
    }
    if (t0 < 1.0) { /* out of rounds: stop where it is still known safe */
        ++w->cnt.failed;
        out = (pair_hit){true, t0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    }
    return out;
}

/* A pair as sccd_adapter_start_depth sees it. */
typedef struct start_pair {
    const sccd_shape3 *a;
    const target3 *b;
    sccd_motion3 ma, mb;
} start_pair;

/* sccd_adapter_shrink_fn over a start_pair: shrink copies, never the shapes. */
static sccd_real shrink_start_pair(const void *pair, sccd_real s, sccd_real *distance)
{
    const start_pair *p = pair;
    sccd_shape3 ca = *p->a;
    target3 cb = *p->b;
    sccd_real shrunk = shrink_pair(&ca, &cb, s);
    if (distance != NULL)
        *distance = start_distance(&ca, p->ma, &cb, p->mb);
    return shrunk;
}

/* First impact of a (CCD shape) and target b under ma, mb on [0, 1]. Only a
 * first contact that begins during the step stops a body: the shapes start
 * apart, and their cores, shrunk by the skin, reach the target distance at
 * t, where the real shapes overlap by `overlap`. A pair that overlaps at the
 * start by d (resting, grazing, pushed, or placed there last step) is ODE's:
 * its contact joint, made from these poses, keeps the two from closing in,
 * and holding the body at t = 0 would freeze it step after step. What is
 * left to guard is a contact that does not hold (a turn too fast for the
 * contact's linearisation): cores shrunk by d + skin + g start a skin or
 * more apart and stop the body where the overlap has grown to d + g, a time
 * after the start, so it still moves. g lets the overlap reach half of what
 * the pair can shrink in all (the room) at once, then a skin a step: a body
 * can get through only by its cores crossing, and a pair the engine keeps
 * pushing deeper is slowed before that. A pair too deep for the cores to
 * shrink further is ODE's alone (counted as overlapped).
 * `no_contact`: a is behind a mesh triangle, where ODE's one-sided
 * triangle colliders make no contact at all; a body pressing into it there
 * (closing in by more than the tolerance) is held at its start pose, the
 * one case of a body kept in place, since letting it go is a pass-through. */
static pair_hit pair_toi(sccd_ode_world *w, const sccd_shape3 *a, sccd_motion3 ma, const target3 *b,
                         sccd_motion3 mb, bool no_contact)
{
    sccd_real overlap = w->opt.overlap, skin = SKIN_OVERLAPS * overlap;
    bool at_start;
    pair_hit h = cores_toi(w, a, ma, b, mb, skin, overlap, !no_contact, &at_start);
    if (!at_start)
        return h;
    if (no_contact && h.closing > w->opt.toi_tolerance) {
        ++w->cnt.held;
        return (pair_hit){true, 0.0, h.normal, {0.0, 0.0, 0.0}, h.closing};
    }
    sccd_real d, room;
    sccd_adapter_start_depth(shrink_start_pair, &(start_pair){a, b, ma, mb}, skin, &d, &room);
    sccd_real grow = sccd_max(skin, 0.5 * room - d);
    h = cores_toi(w, a, ma, b, mb, d + skin + grow, d + grow, false, &at_start);
    h.push = (sccd_v3){0.0, 0.0, 0.0}; /* the shapes overlap already: ODE has the contact */
    w->cnt.overlapped += at_start;
    return h;
}

/* True when the shape of piece p starts behind mesh triangle tl (geom
 * coordinates of e): on the side its winding (ODE's front: (b − a) × (c − a))
 * turns away from. */
static bool behind_triangle(const ode_piece *p, const ode_geom *e, sccd_triangle tl)
{
    sccd_xf3 x = sccd_motion3_at(e->motion, 0.0);
    sccd_v3 a = sccd_xf3_apply(x, tl.a), b = sccd_xf3_apply(x, tl.b), c = sccd_xf3_apply(x, tl.c);
    sccd_v3 n = sccd_v3_cross(sccd_v3_sub(b, a), sccd_v3_sub(c, a));
    return sccd_v3_dot(n, sccd_v3_sub(sccd_motion3_at(p->motion, 0.0).p, a)) < 0.0;
}

/* ---- which pairs ODE would collide ---- */

static bool is_dynamic(dBodyID b) { return b != NULL && dBodyIsEnabled(b) && !dBodyIsKinematic(b); }

/* dSpaceCollide's rules (category and collide bits, one body) and the usual
 * near callback's: bodies joined by a non-contact joint do not collide; a
 * contact needs a dynamic body on one side. */
static bool pair_collides(const ode_geom *a, const ode_geom *b)
{
    if (a->body == b->body || !((a->cat & b->col) || (b->cat & a->col)))
        return false;
    if (!is_dynamic(a->body) && !is_dynamic(b->body))
        return false;
    return a->body == NULL || b->body == NULL || !dAreConnectedExcluding(a->body, b->body, dJointTypeContact);
}

/* ---- before_step: the scan ---- */

static ode_body *find_body(sccd_ode_world *w, dBodyID body)
{
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].body == body)
            return &w->bodies[i];
    return NULL;
}

/* Drop record i (the last one takes its place); geoms follow their records. */
static void remove_body(sccd_ode_world *w, int i)
{
    int last = --w->nbodies;
    w->bodies[i] = w->bodies[last];
    for (int k = 0; k < w->ngeoms; ++k)
        w->geoms[k].ccd = w->geoms[k].ccd == i ? -1 : w->geoms[k].ccd == last ? i : w->geoms[k].ccd;
}

static int body_index(const sccd_ode_world *w, dBodyID body)
{
    if (body == NULL)
        return -1;
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].body == body)
            return i;
    return -1;
}

static bool add_geom(sccd_ode_world *w, dGeomID g)
{
    dBodyID body = dGeomGetBody(g);
    int ccd = body_index(w, body);
    if (ccd >= 0)
        w->bodies[ccd].seen = true;
    if (!dGeomIsEnabled(g))
        return true;
    if (!sccd_adapter_reserve((void **)&w->geoms, &w->capgeoms, w->ngeoms + 1, sizeof *w->geoms))
        return false;
    ode_geom *e = &w->geoms[w->ngeoms++];
    memset(e, 0, sizeof *e);
    e->geom = g;
    e->body = body;
    e->ccd = ccd;
    if (body != NULL)
        e->body0 = body_pose(body);
    return true;
}

static bool scan_space(sccd_ode_world *w, dSpaceID space)
{
    int n = dSpaceGetNumGeoms(space);
    for (int i = 0; i < n; ++i) {
        dGeomID g = dSpaceGetGeom(space, i);
        if (!(dGeomIsSpace(g) ? scan_space(w, (dSpaceID)g) : add_geom(w, g)))
            return false;
    }
    return true;
}

static bool velocity_ok(dBodyID b)
{
    return sccd_is_valid_v3(v3_of(dBodyGetLinearVel(b))) && sccd_is_valid_v3(v3_of(dBodyGetAngularVel(b)));
}

void sccd_ode_before_step(sccd_ode_world *w)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_before_step: NULL world"))
        return;
    double t_start = sccd_adapter_cpu_seconds();
    for (int i = 0; i < w->nbodies; ++i)
        w->bodies[i].seen = false;
    w->ngeoms = 0;
    w->scanned = ODE_CHECK(w, scan_space(w, w->space), "sccd_ode: out of memory; CCD skipped this step");
    /* Forget bodies with no geom left in the space (destroyed or moved away). */
    for (int i = 0; i < w->nbodies;) {
        if (w->bodies[i].seen) {
            ++i;
            continue;
        }
        remove_body(w, i);
        ++w->cnt.forgotten;
    }
    for (int i = 0; i < w->nbodies; ++i) {
        ode_body *r = &w->bodies[i];
        if (!ODE_CHECK(w, velocity_ok(r->body), "sccd_ode: a CCD body has a NaN or infinite velocity; zeroed")) {
            dBodySetLinearVel(r->body, 0.0, 0.0, 0.0);
            dBodySetAngularVel(r->body, 0.0, 0.0, 0.0);
        }
        r->start = body_pose(r->body);
    }
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

/* ---- after_step ---- */

/* A box holding everything geom e covers under its motion: the start and end
 * boxes, whose hull holds each point's chord, grown by how far a point's path
 * strays from its chord. Along any axis a point's coordinate is linear in t
 * (translation) plus a sinusoid of amplitude ≤ ρ turning through the angle
 * φ; the sinusoid's second derivative is at most φ²ρ, so it strays at most
 * φ²ρ/8 from its chord (and never more than 2ρ). ρ: the farthest corner of
 * the end box from the centre of mass. */
static sccd_aabb3 motion_box(sccd_aabb3 box0, sccd_aabb3 box1, sccd_v3 center1, sccd_real angle)
{
    sccd_v3 far = sccd_v3_max(sccd_v3_abs(sccd_v3_sub(box1.lo, center1)), sccd_v3_abs(sccd_v3_sub(box1.hi, center1)));
    sccd_real rho = sccd_v3_len(far), phi = fabs(angle);
    sccd_aabb3 hull = sccd_aabb3_union(box0, box1);
    return aabb_grow(hull, rho * sccd_min(phi * phi / 8.0, 2.0));
}

/* A cheap box holding all geom e covers this step, from its box now and its
 * body's two poses (no geom update): every point moves at most
 * |Δc| + 2ρ·sin(φ/2), with Δc the centre of mass' displacement, φ the turn
 * (sin(φ/2) = √(1 − (q0·q1)²) for the unit quaternions) and ρ ≤ |box centre
 * − c| + half the box diagonal the point's distance from the centre c. */
static sccd_aabb3 quick_reach(const ode_geom *e)
{
    sccd_xf3 b1 = body_pose(e->body);
    sccd_quat a = e->body0.q, b = b1.q;
    sccd_real dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    sccd_real half_sin = sqrt(sccd_max(0.0, 1.0 - dot * dot));
    sccd_v3 mid = sccd_v3_scale(sccd_v3_add(e->box1.lo, e->box1.hi), 0.5);
    sccd_real rho = sccd_v3_dist(mid, b1.p) + 0.5 * sccd_v3_dist(e->box1.lo, e->box1.hi);
    return aabb_grow(e->box1, sccd_v3_dist(b1.p, e->body0.p) + 2.0 * rho * half_sin);
}

/* What after_step needs of every geom: its kind and its box now. */
static void prepare_geom(ode_geom *e)
{
    e->kind = kind_of(dGeomGetClass(e->geom));
    e->full = false;
    e->moving = false;
    if (e->kind != KIND_PLANE)
        e->box1 = aabb_of_geom(e->geom);
    e->reach = e->box1;
}

/* What a geom near a CCD body needs too: its filter bits, its shape (or plane), and for the
 * classes we use its pose before the step: on a body, the body's start pose
 * times the geom's offset; static, its pose now. The box before the step is
 * the shape's box at the start pose, for the others the box now. */
static void complete_geom(ode_geom *e)
{
    if (e->full)
        return;
    e->full = true;
    e->cat = dGeomGetCategoryBits(e->geom);
    e->col = dGeomGetCollideBits(e->geom);
    classify(e->geom, &e->shape, &e->plane, &e->side);
    e->cylinder = dGeomGetClass(e->geom) == dCylinderClass;
    if (e->kind != KIND_SHAPE && e->kind != KIND_MESH)
        e->start = sccd_xf3_identity(); /* planes and some user classes are not placeable */
    else
        e->start = e->body != NULL ? sccd_xf3_mul(e->body0, geom_offset(e->geom)) : geom_pose(e->geom);
    e->box0 = e->kind == KIND_SHAPE ? sccd_shape3_aabb(&e->shape, e->start) : e->box1;
    e->motion = motion_still(e->start);
}

/* A completed KIND_SHAPE geom as a target: its shape, and a cylinder's side. */
static target3 geom_target(const ode_geom *e)
{
    target3 t = {1, {e->shape}};
    if (e->cylinder)
        t.s[t.n++] = e->side;
    return t;
}

/* True when box b meets the box of some active CCD body. */
static bool near_ccd(const sccd_ode_world *w, sccd_aabb3 b)
{
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].active && w->bodies[i].count > 0 && boxes_overlap(b, w->bodies[i].box))
            return true;
    return false;
}

/* The motion of a non-CCD geom from its start pose to its pose now, about its
 * body's centre of mass; static geoms (and those of disabled bodies) stay.
 * Returns whether it may reach a CCD body this step; geoms that cannot keep
 * their quick reach and no motion. */
static bool target_motion(const sccd_ode_world *w, ode_geom *e)
{
    if (e->kind == KIND_PLANE)
        return true;
    if (e->body == NULL || e->kind == KIND_IGNORED)
        return near_ccd(w, e->reach);
    e->reach = quick_reach(e);
    if (!near_ccd(w, e->reach))
        return false;
    complete_geom(e);
    sccd_xf3 end = geom_pose(e->geom);
    sccd_v3 com = v3_of(dBodyGetPosition(e->body));
    sccd_motion3 m = sccd_motion3_between(e->start, end, sccd_xf3_inv_apply(end, com));
    if (!sccd_is_valid_motion3(m))
        return true;
    e->moving = true;
    e->motion = m;
    if (e->kind == KIND_SHAPE) /* a mesh keeps its quick reach */
        e->reach = motion_box(e->box0, e->box1, com, m.angle);
    return true;
}

/* The geoms that may reach a CCD body: those target_motion lets through, and
 * the CCD bodies' own (a kinematic one is a dynamic one's target). */
static bool collect_near(sccd_ode_world *w)
{
    w->nnear = 0;
    for (int k = 0; k < w->ngeoms; ++k) {
        if (w->geoms[k].ccd < 0 && !target_motion(w, &w->geoms[k]))
            continue;
        if (!sccd_adapter_reserve((void **)&w->near, &w->capnear, w->nnear + 1, sizeof *w->near))
            return false;
        w->near[w->nnear++] = k;
    }
    return true;
}

/* The motion of an active CCD body and its pieces with their sweeps. */
static bool build_pieces(sccd_ode_world *w, int bi)
{
    ode_body *r = &w->bodies[bi];
    r->first = w->npieces;
    r->count = 0;
    bool have = false;
    for (int k = 0; k < w->ngeoms; ++k) {
        ode_geom *e = &w->geoms[k];
        if (e->ccd != bi)
            continue;
        if (e->kind != KIND_SHAPE) {
            ++w->cnt.unsupported;
            continue;
        }
        complete_geom(e);
        if (!sccd_adapter_reserve((void **)&w->pieces, &w->cappieces, w->npieces + 1, sizeof *w->pieces))
            return false;
        ode_piece *p = &w->pieces[w->npieces++];
        p->geom = k;
        p->motion = motion_of_frame(r->motion, e->start);
        e->moving = true;
        e->motion = p->motion;
        p->swept = false;
        sccd_aabb3 box1 = sccd_shape3_aabb(&e->shape, sccd_motion3_at(p->motion, 1.0));
        if (w->opt.candidates == SCCD_CANDIDATES_SWEEP)
            p->box = motion_box(e->box0, box1, sccd_motion3_center_at(p->motion, 1.0), p->motion.angle);
        else
            p->box = sccd_aabb3_union(e->box0, box1);
        e->reach = p->box;
        r->box = have ? sccd_aabb3_union(r->box, p->box) : p->box;
        have = true;
        ++r->count;
    }
    return true;
}

/* Integrate nothing (ODE did): read the end pose and make the motion. */
static void begin_body(sccd_ode_world *w, ode_body *r)
{
    r->active = dBodyIsEnabled(r->body) != 0;
    r->kinematic = dBodyIsKinematic(r->body) != 0;
    r->t = 1.0;
    r->push = (sccd_v3){0.0, 0.0, 0.0};
    r->rides = false;
    r->held = -1;
    r->count = 0;
    if (!r->active)
        return;
    sccd_xf3 end = body_pose(r->body);
    if (!ODE_CHECK(w, sccd_is_valid_xf3(end), "sccd_ode: a CCD body's pose is not finite; put back at rest")) {
        set_body_pose(r->body, r->start);
        dBodySetLinearVel(r->body, 0.0, 0.0, 0.0);
        dBodySetAngularVel(r->body, 0.0, 0.0, 0.0);
        r->active = false;
        return;
    }
    r->motion = sccd_motion3_between(r->start, end, r->pivot);
}

/* The piece's sweep, built on first use. */
static const sccd_sweep3 *piece_sweep(sccd_ode_world *w, ode_piece *p)
{
    if (!p->swept) {
        const sccd_shape3 *s = &w->geoms[p->geom].shape;
        if (s->type == SCCD_SHAPE_CIRCLE)
            sccd_sweep3_sphere(&p->sweep, s->sphere, p->motion, w->opt.bands);
        else if (s->type == SCCD_SHAPE_CAPSULE)
            sccd_sweep3_capsule(&p->sweep, s->capsule, p->motion, w->opt.bands);
        else
            sccd_sweep3_box(&p->sweep, s->box.h, p->motion, w->opt.bands);
        p->swept = true;
        ++w->cnt.sweeps;
    }
    return &p->sweep;
}

/* The world-space shape of a static target for the sweep's exact test. */
static bool sweep_touches(const sccd_sweep3 *sw, const sccd_shape3 *s, sccd_xf3 x)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        return sccd_sweep3_vs_sphere(sw, (sccd_sphere){sccd_xf3_apply(x, s->sphere.c), s->sphere.r});
    case SCCD_SHAPE_CAPSULE:
        return sccd_sweep3_vs_capsule(
            sw, (sccd_capsule3){sccd_xf3_apply(x, s->capsule.a), sccd_xf3_apply(x, s->capsule.b), s->capsule.r});
    default:
        return sccd_sweep3_vs_box(sw, (sccd_box3){sccd_xf3_apply(x, s->box.c), sccd_quat_mul(x.q, s->box.q), s->box.h});
    }
}

/* Earliest impact of piece p with one target shape ts (in the frame moved by
 * mt); static targets first face the sweep's exact test. */
static pair_hit piece_vs_shape(sccd_ode_world *w, ode_piece *p, const target3 *ts, sccd_motion3 mt,
                               bool moving)
{
    pair_hit none = {false, 1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    if (!moving && w->opt.candidates == SCCD_CANDIDATES_SWEEP && !sweep_touches(piece_sweep(w, p), &ts->s[0], mt.start))
        return none;
    ++w->cnt.candidates;
    return pair_toi(w, &w->geoms[p->geom].shape, p->motion, ts, mt, false);
}

static pair_hit earlier(pair_hit a, pair_hit b) { return b.hit && (!a.hit || b.t < a.t) ? b : a; }

/* Earliest impact of piece p with target geom e (every triangle of a mesh). */
static pair_hit piece_vs_geom(sccd_ode_world *w, ode_piece *p, const ode_geom *e)
{
    pair_hit best = {false, 1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    if (e->kind == KIND_SHAPE) {
        target3 t = geom_target(e);
        return piece_vs_shape(w, p, &t, e->motion, e->moving);
    }
    if (e->kind == KIND_PLANE) {
        target3 b = {1, {plane_box(e->plane, p->box, SKIN_OVERLAPS * w->opt.overlap)}};
        return piece_vs_shape(w, p, &b, motion_still(sccd_xf3_identity()), false);
    }
    /* A mesh: its triangles at the current (end) pose, taken back into the
     * geom's frame so that they move with it. */
    sccd_xf3 end_inv = xf3_inv(e->moving ? sccd_motion3_at(e->motion, 1.0) : e->start);
    int n = dGeomTriMeshGetTriangleCount(e->geom);
    for (int i = 0; i < n; ++i) {
        sccd_triangle tw = mesh_triangle(e->geom, i);
        sccd_aabb3 tb = {sccd_v3_min(tw.a, sccd_v3_min(tw.b, tw.c)), sccd_v3_max(tw.a, sccd_v3_max(tw.b, tw.c))};
        if (!e->moving && !boxes_overlap(tb, p->box))
            continue;
        if (!e->moving && w->opt.candidates == SCCD_CANDIDATES_SWEEP && !sccd_sweep3_vs_triangle(piece_sweep(w, p), tw))
            continue;
        sccd_triangle tl = {sccd_xf3_apply(end_inv, tw.a), sccd_xf3_apply(end_inv, tw.b), sccd_xf3_apply(end_inv, tw.c)};
        target3 b = triangle_bounds(tl);
        ++w->cnt.candidates;
        best = earlier(best, pair_toi(w, &w->geoms[p->geom].shape, p->motion, &b, e->motion, behind_triangle(p, e, tl)));
    }
    return best;
}

static bool plane_reachable(const ode_geom *e, sccd_aabb3 box)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(box.lo, box.hi), 0.5), h = sccd_v3_scale(sccd_v3_sub(box.hi, box.lo), 0.5);
    sccd_v3 n = e->plane.n;
    return sccd_v3_dot(n, c) - (fabs(n.x) * h.x + fabs(n.y) * h.y + fabs(n.z) * h.z) <= e->plane.d;
}

static void add_event(sccd_ode_world *w, int geom, sccd_real t, sccd_v3 push, bool rides, sccd_motion3 carrier)
{
    for (int i = 0; i < w->nevents; ++i)
        if (w->geoms[w->events[i].geom].body == w->geoms[geom].body) {
            if (t < w->events[i].t)
                w->events[i] = (ode_event){geom, t, push, rides, carrier};
            return;
        }
    if (sccd_adapter_reserve((void **)&w->events, &w->capevents, w->nevents + 1, sizeof *w->events))
        w->events[w->nevents++] = (ode_event){geom, t, push, rides, carrier};
}

/* Record an impact of CCD body r (piece p) with target geom e at h. */
static void take_hit(sccd_ode_world *w, ode_body *r, const ode_piece *p, int target, pair_hit h)
{
    const ode_geom *e = &w->geoms[target];
    bool kin_target = e->body != NULL && dBodyIsKinematic(e->body);
    if (r->kinematic) { /* r keeps its motion; the dynamic target is carried */
        add_event(w, target, h.t, sccd_v3_neg(h.push), true, p->motion);
        return;
    }
    if (h.t >= r->t)
        return;
    r->t = h.t;
    r->push = h.push;
    r->rides = kin_target;
    r->carrier = e->motion;
    r->held = is_dynamic(e->body) && e->ccd < 0 ? target : -1;
}

/* Impacts of one CCD body with everything that is not a dynamic CCD body
 * (those clash in resolve_clashes). */
static void resolve_targets(sccd_ode_world *w, int bi)
{
    ode_body *r = &w->bodies[bi];
    for (int j = 0; j < w->nnear; ++j) {
        int k = w->near[j];
        ode_geom *e = &w->geoms[k];
        if (e->ccd == bi)
            continue;
        if (e->ccd >= 0 && w->bodies[e->ccd].active && (r->kinematic || !w->bodies[e->ccd].kinematic))
            continue; /* a clash, or the kinematic CCD body is this one's target from the other side */
        if (e->kind == KIND_IGNORED) {
            w->cnt.unsupported += boxes_overlap(e->box1, r->box);
            continue;
        }
        if (e->kind == KIND_PLANE)
            complete_geom(e);
        if (e->kind == KIND_PLANE ? !plane_reachable(e, r->box) : !boxes_overlap(e->reach, r->box))
            continue;
        complete_geom(e);
        for (int i = r->first; i < r->first + r->count; ++i) {
            ode_piece *p = &w->pieces[i];
            if (!pair_collides(&w->geoms[p->geom], e))
                continue;
            if (e->kind == KIND_PLANE ? !plane_reachable(e, p->box) : !boxes_overlap(e->reach, p->box))
                continue;
            pair_hit h = piece_vs_geom(w, p, e);
            if (h.hit)
                take_hit(w, r, p, k, h);
        }
    }
}

/* Earliest impact between the pieces of two dynamic CCD bodies over the parts
 * [ta0, ta1] and [tb0, tb1] of their motions (equal lengths: one clock). */
static pair_hit bodies_toi(sccd_ode_world *w, const ode_body *a, sccd_real ta0, sccd_real ta1, const ode_body *b,
                           sccd_real tb0, sccd_real tb1)
{
    pair_hit best = {false, 1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
    for (int i = a->first; i < a->first + a->count; ++i)
        for (int j = b->first; j < b->first + b->count; ++j) {
            const ode_piece *pa = &w->pieces[i], *pb = &w->pieces[j];
            if (!pair_collides(&w->geoms[pa->geom], &w->geoms[pb->geom]) || !boxes_overlap(pa->box, pb->box))
                continue;
            ++w->cnt.candidates;
            target3 tb = geom_target(&w->geoms[pb->geom]);
            best = earlier(best, pair_toi(w, &w->geoms[pa->geom].shape, motion_part(pa->motion, ta0, ta1), &tb,
                                          motion_part(pb->motion, tb0, tb1), false));
        }
    return best;
}

static void clamp_clash(ode_body *r, sccd_real t, sccd_v3 push)
{
    if (t < r->t) {
        r->t = t;
        r->push = push;
        r->rides = false;
        r->held = -1;
    }
}

/* One round over the dynamic CCD pairs. Both bodies of a pair run until the
 * earlier of their stop times; the later one then moves on alone against the
 * other held still, which may stop it sooner. Returns whether a stop time
 * changed. */
static bool clash_round(sccd_ode_world *w)
{
    bool changed = false;
    for (int i = 0; i < w->nbodies; ++i)
        for (int j = i + 1; j < w->nbodies; ++j) {
            ode_body *a = &w->bodies[i], *b = &w->bodies[j];
            if (!a->active || !b->active || a->kinematic || b->kinematic || !boxes_overlap(a->box, b->box))
                continue;
            sccd_real t = sccd_min(a->t, b->t);
            pair_hit h = bodies_toi(w, a, 0.0, t, b, 0.0, t);
            if (h.hit) {
                h.t *= t;
                changed |= h.t < a->t || h.t < b->t;
                clamp_clash(a, h.t, h.push);
                clamp_clash(b, h.t, (sccd_v3){0.0, 0.0, 0.0});
                continue;
            }
            if (a->t == b->t)
                continue;
            ode_body *late = a->t > b->t ? a : b, *held = late == a ? b : a;
            h = bodies_toi(w, late, held->t, late->t, held, held->t, held->t);
            if (h.hit) {
                h.t = held->t + h.t * (late->t - held->t);
                changed |= h.t < late->t;
                clamp_clash(late, h.t, h.push);
            }
        }
    return changed;
}

static void resolve_clashes(sccd_ode_world *w)
{
    for (int round = 0; round < CLASH_ROUNDS_MAX; ++round)
        if (!clash_round(w))
            return;
    /* Not settled: every dynamic CCD body that stopped stops at the earliest time. */
    sccd_real t = 1.0;
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].active && !w->bodies[i].kinematic)
            t = sccd_min(t, w->bodies[i].t);
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].active && !w->bodies[i].kinematic && w->bodies[i].t < 1.0)
            w->bodies[i].t = t;
}

/* A pose at time t carried on by a kinematic body from t to the end of the
 * step: C(1)·C(t)⁻¹·pose. */
static sccd_xf3 carried(sccd_motion3 c, sccd_real t, sccd_xf3 pose)
{
    return sccd_xf3_mul(sccd_motion3_at(c, 1.0), sccd_xf3_mul(xf3_inv(sccd_motion3_at(c, t)), pose));
}

/* Place a stopped dynamic CCD body at its impact pose (with the push), carried
 * on when it hit a kinematic body; a dynamic target it hit is held at t. */
static void apply_body(sccd_ode_world *w, ode_body *r)
{
    if (!r->active || r->kinematic || r->t >= 1.0)
        return;
    sccd_xf3 pose = sccd_motion3_at(r->motion, r->t);
    pose.p = sccd_v3_add(pose.p, r->push);
    if (r->rides)
        pose = carried(r->carrier, r->t, pose);
    set_body_pose(r->body, pose);
    ++w->cnt.clamps;
    if (r->held >= 0)
        add_event(w, r->held, r->t, (sccd_v3){0.0, 0.0, 0.0}, false, r->motion);
}

static void apply_event(sccd_ode_world *w, const ode_event *ev)
{
    const ode_geom *e = &w->geoms[ev->geom];
    sccd_xf3 gx = sccd_motion3_at(e->motion, ev->t);
    gx.p = sccd_v3_add(gx.p, ev->push);
    if (ev->rides)
        gx = carried(ev->carrier, ev->t, gx);
    set_body_pose(e->body, body_from_geom(e->geom, gx));
    ++w->cnt.clamps;
}

void sccd_ode_after_step(sccd_ode_world *w)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_after_step: NULL world") ||
        !ODE_CHECK(w, w->scanned, "sccd_ode_after_step: call sccd_ode_before_step before the step"))
        return;
    double t_start = sccd_adapter_cpu_seconds();
    w->scanned = false;
    w->npieces = 0;
    w->nevents = 0;
    bool any = false;
    for (int i = 0; i < w->nbodies; ++i) {
        begin_body(w, &w->bodies[i]);
        any |= w->bodies[i].active;
    }
    for (int k = 0; any && k < w->ngeoms; ++k)
        prepare_geom(&w->geoms[k]);
    bool ok = true;
    for (int i = 0; ok && any && i < w->nbodies; ++i)
        if (w->bodies[i].active)
            ok = build_pieces(w, i);
    if (ok && any)
        ok = collect_near(w);
    ODE_CHECK(w, ok, "sccd_ode: out of memory; CCD skipped this step");
    for (int i = 0; ok && any && i < w->nbodies; ++i)
        if (w->bodies[i].active && w->bodies[i].count > 0)
            resolve_targets(w, i);
    if (ok && any) {
        resolve_clashes(w);
        for (int i = 0; i < w->nbodies; ++i)
            apply_body(w, &w->bodies[i]);
        for (int i = 0; i < w->nevents; ++i)
            apply_event(w, &w->events[i]);
    }
    ++w->cnt.steps;
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

/* ---- public API ---- */

sccd_ccd_options sccd_ode_options_default(void) { return sccd_ccd_options_default(0.001); }

sccd_ode_world *sccd_ode_attach(dWorldID world, dSpaceID space)
{
    if (!ODE_CHECK(NULL, world != NULL, "sccd_ode_attach: NULL world") ||
        !ODE_CHECK(NULL, space != NULL, "sccd_ode_attach: NULL space (the world's geoms must be in a space)"))
        return NULL;
    sccd_ode_world *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    w->world = world;
    w->space = space;
    w->opt = sccd_ode_options_default();
    return w;
}

/* True when some geom of body is in space or in a space nested in it. */
static bool body_in_space(dBodyID body, dSpaceID space)
{
    for (dGeomID g = dBodyGetFirstGeom(body); g != NULL; g = dBodyGetNextGeom(g))
        for (dSpaceID s = dGeomGetSpace(g); s != NULL; s = dGeomGetSpace((dGeomID)s))
            if (s == space)
                return true;
    return false;
}

void sccd_ode_body_enable(sccd_ode_world *w, dBodyID body)
{
    if (!ODE_CHECK(w, w != NULL && body != NULL, "sccd_ode_body_enable: NULL world or body") ||
        !ODE_CHECK(w, dBodyGetWorld(body) == w->world, "sccd_ode_body_enable: the body is not in the world") ||
        !ODE_CHECK(w, dBodyGetFirstGeom(body) != NULL, "sccd_ode_body_enable: the body has no geom") ||
        !ODE_CHECK(w, body_in_space(body, w->space), "sccd_ode_body_enable: the body has no geom in the world's space") ||
        !ODE_CHECK(w, find_body(w, body) == NULL, "sccd_ode_body_enable: CCD is already enabled on the body"))
        return;
    if (!ODE_CHECK(w, sccd_adapter_reserve((void **)&w->bodies, &w->capbodies, w->nbodies + 1, sizeof *w->bodies),
                   "sccd_ode: out of memory"))
        return;
    ode_body *r = &w->bodies[w->nbodies++];
    memset(r, 0, sizeof *r);
    r->body = body;
    r->start = body_pose(body);
    r->seen = true;
    r->t = 1.0;
    r->held = -1; /* its geoms join the CCD at the next before_step */
}

void sccd_ode_body_disable(sccd_ode_world *w, dBodyID body)
{
    if (!ODE_CHECK(w, w != NULL && body != NULL, "sccd_ode_body_disable: NULL world or body"))
        return;
    ode_body *r = find_body(w, body);
    if (!ODE_CHECK(w, r != NULL, "sccd_ode_body_disable: CCD is not enabled on the body"))
        return;
    remove_body(w, (int)(r - w->bodies));
}

void sccd_ode_body_set_pivot(sccd_ode_world *w, dBodyID body, const dReal local_pivot[3])
{
    if (!ODE_CHECK(w, w != NULL && body != NULL && local_pivot != NULL, "sccd_ode_body_set_pivot: NULL argument"))
        return;
    ode_body *r = find_body(w, body);
    if (!ODE_CHECK(w, r != NULL, "sccd_ode_body_set_pivot: CCD is not enabled on the body") ||
        !ODE_CHECK(w, sccd_is_valid_v3(v3_of(local_pivot)), "sccd_ode_body_set_pivot: pivot not finite"))
        return;
    r->pivot = v3_of(local_pivot);
}

bool sccd_ode_body_is_enabled(const sccd_ode_world *w, dBodyID body)
{
    if (w == NULL || body == NULL)
        return false;
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].body == body)
            return true;
    return false;
}

void sccd_ode_set_options(sccd_ode_world *w, sccd_ccd_options o)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_set_options: NULL world"))
        return;
    for (unsigned bad = sccd_ccd_options_merge(&w->opt, o); bad != 0; bad &= bad - 1) {
        snprintf(w->message, sizeof w->message, "sccd_ode_set_options: %s", sccd_ccd_options_problem(bad));
        report(w, w->message);
        sccd_assert_failed(w->message, __FILE__, __LINE__);
    }
}

sccd_ccd_options sccd_ode_get_options(const sccd_ode_world *w) { return w ? w->opt : sccd_ode_options_default(); }

sccd_ode_counters sccd_ode_get_counters(const sccd_ode_world *w)
{
    sccd_ode_counters zero = {0};
    return w ? w->cnt : zero;
}

void sccd_ode_reset_counters(sccd_ode_world *w)
{
    if (ODE_CHECK(w, w != NULL, "sccd_ode_reset_counters: NULL world"))
        memset(&w->cnt, 0, sizeof w->cnt);
}

const char *sccd_ode_last_error(const sccd_ode_world *w) { return w && w->error ? w->error : ""; }

void sccd_ode_detach(sccd_ode_world *w)
{
    if (w == NULL)
        return;
    free(w->bodies);
    free(w->geoms);
    free(w->pieces);
    free(w->events);
    free(w->near);
    free(w);
}
