/* One step of moving bodies with their impacts resolved in time order
 * (impact.h), 3D: the twin of impact2.c, whose header comment gives the
 * design (segments restarted at impacts, events in time order, the
 * start-overlap and target policy, impulses, the fallback). What 3D adds:
 *
 * Motion. A free body's segment moves its centre of mass by v and turns by
 * |ω| about ω (quaternion poses); a body on a ball joint turns about the
 * joint's point by ω, one on a hinge about the hinge's axis by ω's part
 * along it.
 *
 * Response. The angular response of a body to an impulse is a world 3×3 K
 * with Δω = K·(r × J): R·I⁻¹·Rᵀ at the impact pose for a free body (r from
 * the centre of mass), the inverse inertia about the joint's point for a
 * ball joint (I + m(|d|²E − d·dᵀ), parallel axes), and a·aᵀ over the moment
 * about the axis for a hinge (r from the joint's point). Friction acts
 * against the sliding direction after the normal impulse.
 *
 * Targets. A shape is the intersection of up to three convex bounds: the
 * search runs conservative advancement against each bound in turn (contact
 * with the intersection needs contact with every bound). A pair where both
 * shapes are intersections searches the one with fewer bounds through its
 * bound[0], which holds it (early, never late). A half-space is searched as
 * the box of it that the other shape's motion can reach. */
#include <limits.h>
#include <string.h>

#include "impact_internal.h"
#include "impact_tree3.h"
#include "shapes_valid.h"
#include "trig.h"
#include "unchecked.h"
#include "sectorccd/support.h"

/* Most passes over a target's bounds before a search settles for a safe time. */
#define BOUND_PASSES_MAX 16

/* A 3×3 matrix, row-major. */
typedef struct m33 { sccd_real m[9]; } m33;

/* A body's state during the solve. */
typedef struct body_state {
    sccd_real t0;       /* start of the current segment */
    sccd_motion3 m;     /* the segment as a motion over [t0, 1] */
    sccd_v3 v;          /* velocity the segment moves by (centre of mass) */
    sccd_v3 w;          /* its angular velocity */
    sccd_v3 out_v;      /* the velocity to report (a held body keeps the one it had) */
    sccd_v3 out_w;
    sccd_v3 hinge;      /* world joint point */
    sccd_v3 axis;       /* world hinge axis (unit) */
    sccd_joint_kind joint; /* how it turns (none when carried) */
    bool frozen;        /* held still: takes no impulse any more */
    int carrier;        /* the body it rides along with, -1: none (set_carrier) */
    int riders;         /* how many ride along with it (the searches for them skip a body with none) */
    bool boxed;         /* box holds what the current segment covers */
    sccd_aabb3 box;
    sccd_aabb3 covered; /* what its segments boxed so far cover (the result `swept`) */
    unsigned segment;   /* counts the segment's changes (the shape caches' key) */
    unsigned at_segment; /* the last pose asked for (pose_at): of this segment ... */
    sccd_real at_t;      /* ... at this time (-1: none) ... */
    sccd_xf3 at_pose;    /* ... is this: a pair's searches and impacts ask for one instant again and again */
    unsigned resp_segment; /* the last response made (response): of this segment ... */
    sccd_real resp_t;      /* ... at this time (-1: none) ... */
    bool resp_frozen;      /* ... frozen or not, is this: an impact's impulses ask for it a few dozen times */
    m33 resp_k;
    sccd_v3 resp_origin;
    sccd_real resp_lin;
    sccd_aabb3 asked;      /* what the gather hook was asked for it (op_gather) ... */
    sccd_real asked_reach; /* ... and for points moving how far (-1: nothing) ... */
    bool asked_fixed;      /* ... for static and kinematic bodies only (sccd_impact_reach2.fixed_only) */
} body_state;

/* A shape's motion box over its body's current segment, made on first use
 * (keyed by the segment it is of; 0: none). */
typedef struct shape_cache {
    unsigned boxed;
    sccd_aabb3 box;
    unsigned reached;   /* the segment `farthest` is of (0: none) ... */
    sccd_real farthest; /* ... how far the shape reaches from its body's centre of turning (shape_farthest) */
} shape_cache;

typedef struct solver {
    sccd_impact_body3 *bodies;
    body_state *st;
    int n;
    const sccd_impact_shape3 *shapes;
    int ns;
    sccd_events events;
    shape_cache *cache; /* per shape */
    sccd_real dt;
    sccd_ccd_options opt;
    sccd_impact_callbacks3 cb;
    sccd_impact_stats *stats;
    sccd_shape_trees3 trees; /* per body: which shape pairs a search visits (impact_tree3.h) */
} solver;

static sccd_v3 m33_apply(const m33 *a, sccd_v3 v)
{
    const sccd_real *m = a->m;
    return (sccd_v3){m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
                     m[6] * v.x + m[7] * v.y + m[8] * v.z};
}

/* R·A·Rᵀ for the rotation q: A given in the frame q turns into the world. */
static m33 m33_rotate(const sccd_real a[9], sccd_quat q)
{
    m33 out;
    sccd_v3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int c = 0; c < 3; ++c) { /* column c: R·A·Rᵀ·e_c */
        sccd_v3 x = sccd_quat_inv_apply(q, e[c]);
        m33 body;
        memcpy(body.m, a, sizeof body.m);
        sccd_v3 y = sccd_quat_apply(q, m33_apply(&body, x));
        out.m[c] = y.x;
        out.m[3 + c] = y.y;
        out.m[6 + c] = y.z;
    }
    return out;
}

/* ---- segments ---- */

static sccd_real local_time(const body_state *s, sccd_real t)
{
    return s->t0 < 1.0 ? sccd_clamp((t - s->t0) / (1.0 - s->t0), 0.0, 1.0) : 0.0;
}

static sccd_xf3 pose_at(body_state *s, sccd_real t)
{
    if (s->at_t != t || s->at_segment != s->segment) {
        s->at_pose = sccd_motion3_at_unchecked(s->m, local_time(s, t));
        s->at_t = t;
        s->at_segment = s->segment;
    }
    return s->at_pose;
}

static sccd_v3 cog_at(const solver *sv, int i, sccd_real t) { return sccd_xf3_apply(pose_at(&sv->st[i], t), sv->bodies[i].cog); }

/* sccd_motion3_center_at inline (the same expression): every shape pair
 * searched asks for two, most of them in the searches' quickest exits. */
static sccd_v3 centre_at(const sccd_motion3 *m, sccd_real t)
{
    return sccd_v3_mad(sccd_xf3_apply(m->start, m->center), t, m->dp);
}

/* The motion m over [u, 1] of its own time, as a motion over [0, 1]; at is m's pose at u. */
static sccd_motion3 rest_from(sccd_motion3 m, sccd_real u, sccd_xf3 at)
{
    return (sccd_motion3){at, m.center, sccd_v3_scale(m.dp, 1.0 - u), m.axis, m.angle * (1.0 - u)};
}

static sccd_motion3 motion_rest(sccd_motion3 m, sccd_real u)
{
    return u == 0.0 ? m : rest_from(m, u, sccd_motion3_at_unchecked(m, u)); /* most searches take the whole part */
}

/* The part of a body's segment from time t on, as a motion over [0, 1]. */
static sccd_motion3 part_from(body_state *s, sccd_real t) { return rest_from(s->m, local_time(s, t), pose_at(s, t)); }

/* What that part moves by: its centre's move and its turn (rest_from's,
 * the same expressions), without the pose it starts from. */
typedef struct part_move { sccd_v3 dp; sccd_real angle; } part_move;

static part_move move_from(const body_state *s, sccd_real t)
{
    sccd_real u = local_time(s, t);
    return (part_move){sccd_v3_scale(s->m.dp, 1.0 - u), s->m.angle * (1.0 - u)};
}

static sccd_motion3 still(sccd_xf3 pose, sccd_v3 center) { return (sccd_motion3){pose, center, {0, 0, 0}, SCCD_FALLBACK_V3, 0.0}; }

/* Restart body b's segment s at time t with its current velocity: free
 * flight of the centre of mass, or a turn about the joint. */
static void restart_state(const sccd_impact_body3 *b, body_state *s, sccd_real t, sccd_real dt)
{
    sccd_xf3 p0 = pose_at(s, t);
    if (s->joint == SCCD_JOINT_HINGE)
        s->w = sccd_v3_scale(s->axis, sccd_v3_dot(s->w, s->axis));
    sccd_real turn = sccd_v3_len(s->w) * (1.0 - t) * dt;
    sccd_v3 axis = sccd_v3_normalize(s->w);
    sccd_quat r = sccd_quat_turn(axis, turn);
    sccd_xf3 p1 = {p0.p, sccd_quat_normalize(sccd_quat_mul(r, p0.q))};
    if (s->joint != SCCD_JOINT_NONE) {
        p1.p = sccd_v3_add(s->hinge, sccd_quat_apply(r, sccd_v3_sub(p0.p, s->hinge)));
    } else {
        sccd_v3 c1 = sccd_v3_mad(sccd_xf3_apply(p0, b->cog), (1.0 - t) * dt, s->v);
        p1.p = sccd_v3_sub(c1, sccd_quat_apply(p1.q, b->cog));
    }
    sccd_v3 centre = s->joint != SCCD_JOINT_NONE ? sccd_xf3_inv_apply(p0, s->hinge) : b->pivot;
    s->m = (sccd_motion3){p0, centre, sccd_v3_sub(sccd_xf3_apply(p1, centre), sccd_xf3_apply(p0, centre)), axis, turn};
    s->t0 = t;
    s->boxed = false;
    ++s->segment;
    s->out_v = s->v;
    s->out_w = s->w;
}

/* Body i rides along with k from now (-1: with none), counted in k's riders. */
static void set_carrier(solver *sv, int i, int k)
{
    if (sv->st[i].carrier >= 0)
        --sv->st[sv->st[i].carrier].riders;
    if (k >= 0)
        ++sv->st[k].riders;
    sv->st[i].carrier = k;
}

/* The velocity of body i riding along with its carrier, at t: the
 * carrier's point under its centre of mass then (its segment is the
 * carrier's rigid motion), no faster than it boarded with (s->v; impact2.c's). */
static sccd_v3 riding_velocity(const solver *sv, int i, sccd_real t)
{
    body_state *s = &sv->st[i];
    sccd_real span = (1.0 - s->t0) * sv->dt;
    if (!(span > 0.0))
        return s->v;
    sccd_v3 arm = sccd_v3_sub(cog_at(sv, i, t), sccd_motion3_center_at_inline(&s->m, local_time(s, t)));
    sccd_v3 v = sccd_v3_scale(sccd_v3_add(s->m.dp, sccd_v3_cross(sccd_v3_scale(s->m.axis, s->m.angle), arm)), 1.0 / span);
    sccd_real most = sccd_v3_len(s->v), now = sccd_v3_len(v);
    return now > most ? sccd_v3_scale(v, most / now) : v;
}

/* Restart body i's segment at t with its velocity (it leaves any carrier).
 * What rode along with it goes on alone with the velocity it has there
 * (riding_velocity): made to follow i's new motion it would gain energy
 * for nothing. */
static void restart(solver *sv, int i, sccd_real t)
{
    restart_state(&sv->bodies[i], &sv->st[i], t, sv->dt);
    set_carrier(sv, i, -1);
    sccd_events_changed(&sv->events, i);
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j)
        if (sv->st[j].carrier == i) {
            sv->st[j].v = riding_velocity(sv, j, t);
            restart_state(&sv->bodies[j], &sv->st[j], t, sv->dt);
            set_carrier(sv, j, -1);
            sccd_events_changed(&sv->events, j);
        }
}

/* Stop body i at time t for the rest of the step, and what rode along with it. */
static void hold(solver *sv, int i, sccd_real t)
{
    body_state *s = &sv->st[i];
    s->m = still(pose_at(s, t), s->m.center);
    s->t0 = t;
    s->boxed = false;
    sccd_events_changed(&sv->events, i);
    ++s->segment;
    s->v = (sccd_v3){0.0, 0.0, 0.0}; /* still from here; out_v keeps what it had */
    s->w = (sccd_v3){0.0, 0.0, 0.0};
    s->frozen = true;
    set_carrier(sv, i, -1);
    sv->bodies[i].held = true;
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j) /* what rode along with it stops too: left on i's old motion, it would go on through what stopped i */
        if (sv->st[j].carrier == i)
            hold(sv, j, t);
}

/* Velocity (per second) of the world point p carried by body i at time t. */
static sccd_v3 velocity_at(const solver *sv, int i, sccd_real t, sccd_v3 p)
{
    const body_state *s = &sv->st[i];
    if (s->joint != SCCD_JOINT_NONE)
        return sccd_v3_cross(s->w, sccd_v3_sub(p, s->hinge));
    return sccd_v3_add(s->v, sccd_v3_cross(s->w, sccd_v3_sub(p, cog_at(sv, i, t))));
}

/* Body i rides along with body k from time t (impact2.c's carry): the same
 * rigid motion, about k's centre; its velocity is k's there. It rides with
 * what k rides with; what rode with i now rides with k too. A jointed body,
 * or one that k rides along with, cannot: it stops instead. */
static void carry(solver *sv, int i, int k, sccd_real t)
{
    while (sv->st[k].carrier >= 0)
        k = sv->st[k].carrier;
    body_state *s = &sv->st[i];
    if (k == i || s->joint != SCCD_JOINT_NONE) {
        hold(sv, i, t);
        return;
    }
    sccd_motion3 mk = part_from(&sv->st[k], t);
    sccd_xf3 p0 = pose_at(s, t);
    sccd_v3 centre = sccd_xf3_inv_apply(p0, sccd_xf3_apply(mk.start, mk.center));
    s->v = velocity_at(sv, k, t, sccd_xf3_apply(p0, sv->bodies[i].cog));
    s->w = sv->st[k].w;
    s->m = (sccd_motion3){p0, centre, mk.dp, mk.axis, mk.angle};
    s->t0 = t;
    s->boxed = false;
    sccd_events_changed(&sv->events, i);
    ++s->segment;
    s->out_v = s->v;
    s->out_w = s->w;
    s->frozen = false; /* it still takes impulses, as a part of k would (then it leaves k) */
    set_carrier(sv, i, k);
    sv->bodies[i].held = true;
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j)
        if (sv->st[j].carrier == i)
            carry(sv, j, k, t);
}

/* Whether body i's segment stands still. */
static bool standing(const solver *sv, int i)
{
    const sccd_motion3 *m = &sv->st[i].m;
    return m->angle == 0.0 && m->dp.x == 0.0 && m->dp.y == 0.0 && m->dp.z == 0.0;
}

/* Whether bodies a and b cannot move relative to each other: both still,
 * one riding along with the other, or both with a third. */
static bool move_together(const solver *sv, int a, int b)
{
    int ca = sv->st[a].carrier, cb = sv->st[b].carrier;
    return (standing(sv, a) && standing(sv, b)) || ca == b || cb == a || (ca >= 0 && ca == cb);
}

/* ---- velocities and impulses ---- */

static bool moves_freely(const solver *sv, int i) { return sv->bodies[i].kind == SCCD_BODY_DYNAMIC && !sv->st[i].frozen; }

static sccd_real approach(const solver *sv, int a, int b, sccd_real t, sccd_v3 p, sccd_v3 n)
{
    return sccd_v3_dot(sccd_v3_sub(velocity_at(sv, a, t, p), velocity_at(sv, b, t, p)), n);
}

/* The inverse inertia about a ball joint at d = cog − joint from the
 * centre-of-mass one A (world): (I + m·S)⁻¹ = (inv_m·E + A·S)⁻¹·A·inv_m with
 * S = |d|²E − d·dᵀ, defined when A is singular too; infinite mass: only a
 * joint at the centre of mass turns. */
static m33 ball_response(const m33 *a, sccd_real inv_m, sccd_v3 d)
{
    m33 out = {{0}};
    if (!(inv_m > 0.0))
        return sccd_v3_len2(d) > 0.0 ? out : *a;
    sccd_real dd[3] = {d.x, d.y, d.z}, s[9], lhs[9], d2 = sccd_v3_len2(d);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            s[3 * r + c] = (r == c ? d2 : 0.0) - dd[r] * dd[c];
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            lhs[3 * r + c] = r == c ? inv_m : 0.0;
            for (int k = 0; k < 3; ++k)
                lhs[3 * r + c] += a->m[3 * r + k] * s[3 * k + c];
        }
    for (int c = 0; c < 3; ++c) { /* column c of lhs⁻¹·A·inv_m */
        sccd_real u[3] = {a->m[c] * inv_m, a->m[3 + c] * inv_m, a->m[6 + c] * inv_m}, x[3];
        if (!sccd_solve_linear(3, lhs, u, x))
            return (m33){{0}};
        out.m[c] = x[0];
        out.m[3 + c] = x[1];
        out.m[6 + c] = x[2];
    }
    return out;
}

/* 1 / (moment of inertia about the world axis a through the joint): aᵀIa
 * from the inverse inertia (body frame, inverted; singular: infinite) plus
 * m·|a × d|². */
static sccd_real hinge_inv_moment(const sccd_impact_body3 *b, sccd_quat q, sccd_v3 a, sccd_v3 d)
{
    sccd_real inertia[9], e[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int c = 0; c < 3; ++c) {
        sccd_real col[3];
        if (!sccd_solve_linear(3, b->inv_inertia, &e[3 * c], col))
            return 0.0;
        inertia[c] = col[0];
        inertia[3 + c] = col[1];
        inertia[6 + c] = col[2];
    }
    m33 body;
    memcpy(body.m, inertia, sizeof body.m);
    sccd_v3 ab = sccd_quat_inv_apply(q, a);
    sccd_real moment = sccd_v3_dot(ab, m33_apply(&body, ab));
    sccd_real arm2 = sccd_v3_len2(sccd_v3_cross(a, d));
    if (!(b->inv_mass > 0.0))
        return arm2 > 0.0 ? 0.0 : 1.0 / moment;
    return 1.0 / (moment + arm2 / b->inv_mass);
}

/* Body i's response at time t: Δω = K·(r × J + L) for an impulse J at a
 * point p (r = p − *origin) and an angular impulse L; the centre of mass'
 * velocity changes by lin·J (free) or follows ω (jointed). */
static m33 make_response(const solver *sv, int i, sccd_real t, sccd_v3 *origin, sccd_real *lin)
{
    const sccd_impact_body3 *b = &sv->bodies[i];
    body_state *s = &sv->st[i];
    m33 zero = {{0}};
    *lin = 0.0;
    *origin = s->joint != SCCD_JOINT_NONE ? s->hinge : cog_at(sv, i, t);
    if (b->kind != SCCD_BODY_DYNAMIC || s->frozen)
        return zero;
    sccd_quat q = pose_at(s, t).q;
    m33 a = m33_rotate(b->inv_inertia, q);
    if (s->joint == SCCD_JOINT_NONE) {
        *lin = b->inv_mass;
        return a;
    }
    sccd_v3 d = sccd_v3_sub(cog_at(sv, i, t), s->hinge);
    if (s->joint == SCCD_JOINT_BALL)
        return ball_response(&a, b->inv_mass, d);
    sccd_real k = hinge_inv_moment(b, q, s->axis, d);
    sccd_real ax[3] = {s->axis.x, s->axis.y, s->axis.z};
    m33 out;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            out.m[3 * r + c] = k * ax[r] * ax[c];
    return out;
}

/* make_response, kept for the body's pose at t (it depends on nothing the
 * impulses change). */
static m33 response(const solver *sv, int i, sccd_real t, sccd_v3 *origin, sccd_real *lin)
{
    body_state *s = &sv->st[i];
    if (s->resp_t != t || s->resp_segment != s->segment || s->resp_frozen != s->frozen) {
        s->resp_k = make_response(sv, i, t, &s->resp_origin, &s->resp_lin);
        s->resp_t = t;
        s->resp_segment = s->segment;
        s->resp_frozen = s->frozen;
    }
    *origin = s->resp_origin;
    *lin = s->resp_lin;
    return s->resp_k;
}

/* Body i's inverse mass seen along direction n at the world point p. */
static sccd_real inv_mass_along(const solver *sv, int i, sccd_real t, sccd_v3 p, sccd_v3 n)
{
    sccd_v3 origin;
    sccd_real lin;
    m33 k = response(sv, i, t, &origin, &lin);
    sccd_v3 rn = sccd_v3_cross(sccd_v3_sub(p, origin), n);
    return lin + sccd_v3_dot(rn, m33_apply(&k, rn));
}

/* Apply impulse j at the world point p and angular impulse l to body i at time t. */
static void apply_impulse(solver *sv, int i, sccd_real t, sccd_v3 p, sccd_v3 j, sccd_v3 l)
{
    body_state *s = &sv->st[i];
    sccd_v3 origin;
    sccd_real lin;
    m33 k = response(sv, i, t, &origin, &lin);
    if (sv->bodies[i].kind != SCCD_BODY_DYNAMIC || s->frozen)
        return;
    s->w = sccd_v3_add(s->w, m33_apply(&k, sccd_v3_add(sccd_v3_cross(sccd_v3_sub(p, origin), j), l)));
    if (s->joint != SCCD_JOINT_NONE)
        s->v = sccd_v3_cross(s->w, sccd_v3_sub(cog_at(sv, i, t), s->hinge));
    else
        s->v = sccd_v3_mad(s->v, lin, j);
}

/* Relative velocity of a and b at p (a's less b's). */
static sccd_v3 relative_velocity(const solver *sv, int a, int b, sccd_real t, sccd_v3 p)
{
    return sccd_v3_sub(velocity_at(sv, a, t, p), velocity_at(sv, b, t, p));
}

/* Body i's kinetic energy in a frame moving at frame_v (0 for bodies that
 * take no impulse: only what the impulse can change counts). The angular
 * part from the response K (Δω = K·angular impulse): ½ ω·K⁻¹ω, or about a
 * hinge's axis a, ½ (ω·a)² / (a·K·a). */
static sccd_real energy(const solver *sv, int i, sccd_real t, sccd_v3 frame_v)
{
    if (!moves_freely(sv, i))
        return 0.0;
    const body_state *s = &sv->st[i];
    sccd_v3 origin;
    sccd_real lin, x[3];
    m33 k = response(sv, i, t, &origin, &lin);
    sccd_real e = lin > 0.0 ? 0.5 * sccd_v3_len2(sccd_v3_sub(s->v, frame_v)) / lin : 0.0;
    if (s->joint == SCCD_JOINT_HINGE) {
        sccd_real ka = sccd_v3_dot(s->axis, m33_apply(&k, s->axis)), wa = sccd_v3_dot(s->w, s->axis);
        return e + (ka > 0.0 ? 0.5 * wa * wa / ka : 0.0);
    }
    sccd_real w[3] = {s->w.x, s->w.y, s->w.z};
    return e + (sccd_solve_linear(3, k.m, w, x) ? 0.5 * (w[0] * x[0] + w[1] * x[1] + w[2] * x[2]) : 0.0);
}

/* The pair's energy, in the frame of a partner that takes no impulse (a
 * kinematic bat: what the impact can give is relative to its surface). */
static sccd_real pair_energy(const solver *sv, int a, int b, sccd_real t, sccd_v3 p)
{
    sccd_v3 frame = {0.0, 0.0, 0.0};
    if (!moves_freely(sv, a))
        frame = velocity_at(sv, a, t, p);
    else if (!moves_freely(sv, b))
        frame = velocity_at(sv, b, t, p);
    return energy(sv, a, t, frame) + energy(sv, b, t, frame);
}

/* The impulse j (on b; −j on a) at p. */
static void push(solver *sv, int a, int b, sccd_real t, sccd_v3 p, sccd_v3 j)
{
    sccd_v3 zero = {0.0, 0.0, 0.0};
    apply_impulse(sv, a, t, p, sccd_v3_neg(j), zero);
    apply_impulse(sv, b, t, p, j, zero);
}

/* The sliding velocity of a over b at p, off the normal n. */
static sccd_v3 slide_of(const solver *sv, int a, int b, sccd_real t, sccd_v3 p, sccd_v3 n)
{
    sccd_v3 rel = relative_velocity(sv, a, b, t, p);
    return sccd_v3_mad(rel, -sccd_v3_dot(rel, n), n);
}

/* Body i's velocity change at the world point p per unit impulse there
 * (lin·E − [r]·K·[r], r = p − the response's origin): a column per axis. */
static m33 point_response(const solver *sv, int i, sccd_real t, sccd_v3 p)
{
    sccd_v3 origin, e[3] = {{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    sccd_real lin;
    m33 k = response(sv, i, t, &origin, &lin), out;
    sccd_v3 r = sccd_v3_sub(p, origin);
    for (int c = 0; c < 3; ++c) {
        sccd_v3 col = sccd_v3_mad(sccd_v3_cross(m33_apply(&k, sccd_v3_cross(r, e[c])), r), lin, e[c]);
        out.m[c] = col.x;
        out.m[3 + c] = col.y;
        out.m[6 + c] = col.z;
    }
    return out;
}

/* Normal and friction impulses found together by projected Gauss-Seidel on
 * accumulated impulses (impact2.c's coupled_impulse) on the pair's relative
 * velocity v0 at the contact and its response m (the relative velocity is
 * v0 − m·j after an impulse j on b, −j on a): the friction impulse lies in
 * the contact plane, within the disc of radius μ·normal. */
static sccd_v3 coupled_impulse(const m33 *m, sccd_v3 v0, sccd_v3 n, sccd_real kn, sccd_real bounce, sccd_real mu)
{
    sccd_real jn = 0.0;
    sccd_v3 jt = {0.0, 0.0, 0.0};
    for (int iter = 0; iter < SCCD_CONTACT_ITERATIONS; ++iter) {
        sccd_v3 rel = sccd_v3_sub(v0, m33_apply(m, sccd_v3_mad(jt, jn, n)));
        jn = sccd_max(jn + (sccd_v3_dot(rel, n) + bounce) / kn, 0.0);
        sccd_v3 slide = sccd_v3_mad(rel, -sccd_v3_dot(rel, n), n), tg = sccd_v3_normalize(slide);
        sccd_real kt = sccd_v3_dot(tg, m33_apply(m, tg));
        if (kt > 0.0 && sccd_v3_len2(slide) > 0.0) {
            sccd_v3 want = sccd_v3_mad(jt, 1.0 / kt, slide);
            sccd_real len = sccd_v3_len(want), cap = mu * jn;
            jt = len > cap ? sccd_v3_scale(want, cap / len) : want;
        }
    }
    return sccd_v3_mad(jt, jn, n);
}

/* Normal impulse first, then friction against the sliding it leaves: each
 * only removes relative velocity along its own direction, so energy cannot
 * grow. */
static sccd_v3 sequential_impulse(solver *sv, int a, int b, sccd_real t, sccd_v3 p, sccd_v3 n, sccd_real kn, sccd_real bounce,
                                  sccd_real mu)
{
    sccd_real jn = sccd_max((sccd_v3_dot(relative_velocity(sv, a, b, t, p), n) + bounce) / kn, 0.0);
    push(sv, a, b, t, p, sccd_v3_scale(n, jn));
    sccd_v3 slide = slide_of(sv, a, b, t, p, n), tg = sccd_v3_normalize(slide);
    sccd_real speed = sccd_v3_len(slide), jt = 0.0;
    if (speed > 0.0) {
        sccd_real kt = inv_mass_along(sv, a, t, p, tg) + inv_mass_along(sv, b, t, p, tg);
        jt = kt > 0.0 ? sccd_min(sccd_impulse_along(speed, 0.0, kt), mu * jn) : 0.0;
        push(sv, a, b, t, p, sccd_v3_scale(tg, jt));
    }
    return sccd_v3_add(sccd_v3_scale(n, jn), sccd_v3_scale(tg, jt));
}

/* Resolve an impact (impact2.c's collide): the coupled impulses an engine's
 * solver would find; where they would add energy, the sequential ones; lift
 * a speed of separation added to restitution's. False when neither body
 * can take an impulse. */
static bool collide(solver *sv, const sccd_pair *pr, sccd_impact_contact3 *c, sccd_real lift)
{
    int a = pr->a, b = pr->b;
    sccd_real t = pr->t;
    sccd_v3 p = pr->point, n = pr->normal;
    sccd_real kn = inv_mass_along(sv, a, t, p, n) + inv_mass_along(sv, b, t, p, n);
    if (kn <= 0.0)
        return false;
    m33 ra = point_response(sv, a, t, p), rb = point_response(sv, b, t, p), m;
    for (int k = 0; k < 9; ++k)
        m.m[k] = ra.m[k] + rb.m[k];
    body_state sa = sv->st[a], sb = sv->st[b];
    sccd_real before = pair_energy(sv, a, b, t, p), bounce = c->elasticity * c->approach + lift;
    c->impulse = coupled_impulse(&m, relative_velocity(sv, a, b, t, p), n, kn, bounce, c->friction);
    push(sv, a, b, t, p, c->impulse);
    if (pair_energy(sv, a, b, t, p) > before) {
        sv->st[a] = sa;
        sv->st[b] = sb;
        c->impulse = sequential_impulse(sv, a, b, t, p, n, kn, bounce, c->friction);
    }
    return true;
}

/* ---- targets: intersections of bounds ---- */

/* A target as the intersection of n convex bounds; a half-space's box does
 * not shrink (its room would be the box's, not the half-space's). */
typedef struct target3 {
    int n;
    sccd_shape3 s[SCCD_IMPACT_BOUNDS];
    bool fixed;        /* a half-space's box (plane_box): it does not shrink */
    sccd_plane plane;  /* that half-space (world), when fixed */
} target3;

static sccd_shape3 box_shape(sccd_v3 c, sccd_quat q, sccd_v3 h)
{
    return (sccd_shape3){.type = SCCD_SHAPE_BOX, .box = {c, q, h}};
}

/* Unit quaternion of the rotation whose columns are the orthonormal,
 * right-handed e1, e2, e3 (Shepperd's method: the largest of the four
 * squared components first, so no division by a small number). */
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

sccd_impact_shape3 sccd_impact_shape3_triangle(sccd_triangle tri)
{
    sccd_impact_shape3 out = {0};
    sccd_v3 v[3] = {tri.a, tri.b, tri.c};
    sccd_v3 n = sccd_v3_cross(sccd_v3_sub(tri.b, tri.a), sccd_v3_sub(tri.c, tri.a));
    if (!(sccd_v3_len(n) > 0.0)) {
        sccd_v3 lo = sccd_v3_min(tri.a, sccd_v3_min(tri.b, tri.c)), hi = sccd_v3_max(tri.a, sccd_v3_max(tri.b, tri.c));
        out.bound[out.bounds++] =
            box_shape(sccd_v3_scale(sccd_v3_add(lo, hi), 0.5), sccd_quat_identity(), sccd_v3_scale(sccd_v3_sub(hi, lo), 0.5));
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
        int at = out.bounds++; /* insertion by area: the smallest rejects most */
        area[at] = (hi1 - lo1) * (hi2 - lo2);
        for (; at > 0 && area[at - 1] > area[at]; --at) {
            sccd_real ta = area[at - 1];
            area[at - 1] = area[at];
            area[at] = ta;
            out.bound[at] = out.bound[at - 1];
        }
        out.bound[at] = b;
    }
    return out;
}

sccd_impact_shape3 sccd_impact_shape3_cylinder(sccd_cylinder c)
{
    sccd_impact_shape3 out = {.bounds = 2};
    sccd_v3 axis = sccd_v3_sub(c.b, c.a), e1, e2, n = sccd_v3_normalize(axis);
    sccd_v3_basis(n, &e1, &e2);
    out.bound[0] = box_shape(sccd_v3_scale(sccd_v3_add(c.a, c.b), 0.5), quat_from_basis(e1, e2, n),
                             (sccd_v3){c.r, c.r, 0.5 * sccd_v3_len(axis)});
    out.bound[1] = (sccd_shape3){.type = SCCD_SHAPE_CAPSULE, .capsule = {c.a, c.b, c.r}};
    return out;
}

/* The part of the half-space n·x ≤ d (world) that a shape can meet, as a
 * box: its top face lies in the plane and spans the footprint of `reach`
 * (all the shape's motion covers); it goes two skins below the shape's
 * lowest point at the start (`start`, its box there). Within the reach its
 * top face is the half-space's boundary, so the search meets the plane
 * where the shape does. */
static sccd_shape3 plane_box(sccd_plane p, sccd_aabb3 reach, sccd_aabb3 start, sccd_real skin)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(reach.lo, reach.hi), 0.5), h = sccd_v3_scale(sccd_v3_sub(reach.hi, reach.lo), 0.5);
    sccd_v3 cs = sccd_v3_scale(sccd_v3_add(start.lo, start.hi), 0.5), hs = sccd_v3_scale(sccd_v3_sub(start.hi, start.lo), 0.5);
    sccd_real half = sccd_v3_len(h) + skin;
    sccd_real lowest = sccd_v3_dot(p.n, cs) - (fabs(p.n.x) * hs.x + fabs(p.n.y) * hs.y + fabs(p.n.z) * hs.z);
    sccd_real depth = sccd_max(p.d - lowest, 0.0) + 2.0 * skin;
    sccd_v3 top = sccd_v3_sub(c, sccd_v3_scale(p.n, sccd_v3_dot(p.n, c) - p.d));
    sccd_v3 e1, e2;
    sccd_v3_basis(p.n, &e1, &e2);
    return box_shape(sccd_v3_sub(top, sccd_v3_scale(p.n, 0.5 * depth)), quat_from_basis(e1, e2, p.n),
                     (sccd_v3){half, half, 0.5 * depth});
}

/* The half-space of shape s placed by x (world). */
static sccd_plane world_plane(const sccd_impact_shape3 *s, sccd_xf3 x)
{
    sccd_v3 n = sccd_quat_apply(x.q, s->plane.n);
    return (sccd_plane){n, s->plane.d + sccd_v3_dot(n, x.p)};
}

static bool plane_reaches(sccd_plane p, sccd_aabb3 box)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(box.lo, box.hi), 0.5), h = sccd_v3_scale(sccd_v3_sub(box.hi, box.lo), 0.5);
    return sccd_v3_dot(p.n, c) - (fabs(p.n.x) * h.x + fabs(p.n.y) * h.y + fabs(p.n.z) * h.z) <= p.d;
}

/* ---- the search for one shape pair ---- */

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
    sccd_real d = sccd_max(sccd_min(want, sccd_min(h->x, sccd_min(h->y, h->z))), 0.0);
    *h = sccd_v3_sub(*h, (sccd_v3){d, d, d});
    return d;
}

/* Shrink every bound of b by the same amount, at most want (erosion
 * distributes over intersection: the cores' intersection is the target
 * shrunk by it). */
static sccd_real shrink_target(target3 *b, sccd_real want)
{
    sccd_real d = b->fixed ? 0.0 : want;
    for (int i = 0; i < b->n; ++i) {
        sccd_shape3 probe = b->s[i];
        d = sccd_min(d, shrink(&probe, want));
    }
    for (int i = 0; i < b->n; ++i)
        shrink(&b->s[i], d);
    return d;
}

/* What shape s can give up: half its thickness. */
static sccd_real shrink_capacity(const sccd_shape3 *s) { return sccd_shape3_half_thickness_unchecked(s); }

/* What the intersection b can give up: what its every bound can (nothing
 * when fixed). */
static sccd_real target_capacity(const target3 *b)
{
    sccd_real c = b->fixed ? 0.0 : INFINITY;
    for (int i = 0; i < b->n; ++i)
        c = sccd_min(c, shrink_capacity(&b->s[i]));
    return b->n > 0 ? c : 0.0;
}

/* Cores of a and b shrunk by s in all, each its share (sccd_shrink_share;
 * what one cannot give, the other): how much they shrank. */
static sccd_real shrink_pair(sccd_shape3 *a, target3 *b, sccd_real s)
{
    sccd_real shrunk = shrink(a, sccd_shrink_share(s, shrink_capacity(a), target_capacity(b)));
    shrunk += shrink_target(b, s - shrunk);
    return shrunk + shrink(a, s - shrunk);
}

/* How far a placed by xa stands above the half-space p: minus how deep it
 * reaches into it (exact, from its lowest point). Against a half-space's
 * box a shape at its start stands over the box's top face (plane_box),
 * where the two distances are one: one support, where the distance of two
 * boxes took a GJK (a pile on a plane: a sixth of the CCD). */
static sccd_real plane_gap(const sccd_shape3 *a, sccd_xf3 xa, sccd_plane p, sccd_witness *at)
{
    sccd_v3 low = sccd_shape3_support_unchecked(a, xa, sccd_v3_neg(p.n));
    sccd_real g = sccd_v3_dot(p.n, low) - p.d;
    if (at != NULL) /* midway from the lowest point to the plane, as GJK against the box gave it */
        *at = (sccd_witness){sccd_v3_mad(low, -0.5 * g, p.n), sccd_v3_neg(p.n)};
    return g;
}

/* Least distance between a and the intersection b (the largest distance to
 * one bound: the intersection lies in each), 0 when they overlap; where the
 * largest was measured (at, when not NULL). GJK starts from each bound's
 * simplex in cache, which keeps it for the next query of the pair (a box
 * pair's doubling shrink: 8,000 cold GJKs, 4 % of the ODE rain's CCD). */
static sccd_real gap(const sccd_shape3 *a, sccd_xf3 xa, const target3 *b, sccd_xf3 xb, sccd_witness *at,
                     sccd_simplex_cache cache[SCCD_IMPACT_BOUNDS])
{
    if (b->fixed)
        return sccd_max(plane_gap(a, xa, b->plane, at), 0.0);
    sccd_real d = 0.0;
    for (int i = 0; i < b->n; ++i) {
        sccd_distance3 r = sccd_shape3_distance_cached(a, xa, &b->s[i], xb, &cache[i]);
        sccd_real di = r.overlap ? 0.0 : r.distance;
        if (at != NULL && (i == 0 || di > d))
            *at = (sccd_witness){sccd_v3_lerp(r.pa, r.pb, 0.5), r.normal};
        d = sccd_max(d, di);
    }
    return d;
}

/* A shape pair at the start of a search, and its GJK simplices (gap). */
typedef struct start_pair {
    const sccd_shape3 *a;
    const target3 *b;
    sccd_xf3 xa, xb;
    sccd_simplex_cache cache[SCCD_IMPACT_BOUNDS];
} start_pair;

/* Whether shrinking s takes its radius alone (impact2.c's twin: a sphere,
 * a capsule; a box's corner recedes farther than its shrink). */
static bool shrinks_by_radius(const sccd_shape3 *s) { return s->type == SCCD_SHAPE_CIRCLE || s->type == SCCD_SHAPE_CAPSULE; }

/* Distance of a and a target of one bound (impact2.c's signed_gap: minus
 * the overlap where the query measured it and the doubling shrink would
 * find the same). A half-space does not shrink, so a sphere or capsule's
 * overlap with it is exact too. An intersection of bounds overlaps a by no
 * more than each bound does, and maybe less: 0 then. */
static sccd_real signed_gap(start_pair *p)
{
    const sccd_shape3 *a = p->a;
    const target3 *b = p->b;
    sccd_xf3 xa = p->xa, xb = p->xb;
    if (!shrinks_by_radius(a) || b->n != 1 || !(b->fixed || shrinks_by_radius(&b->s[0])))
        return gap(a, xa, b, xb, NULL, p->cache);
    if (b->fixed)
        return plane_gap(a, xa, b->plane, NULL);
    sccd_distance3 d = sccd_shape3_distance_unchecked(a, xa, &b->s[0], xb);
    return d.overlap ? -sccd_max(sccd_v3_dot(sccd_v3_sub(d.pa, d.pb), d.normal), 0.0) : d.distance;
}

/* sccd_shrink_fn over a start_pair: shrinks copies, never the shapes. */
static sccd_real shrink_start(void *pair, sccd_real s, sccd_real *distance, sccd_witness *at)
{
    start_pair *p = pair;
    if (s == 0.0 && distance != NULL) {
        *distance = signed_gap(p);
        return 0.0;
    }
    sccd_shape3 ca = *p->a;
    target3 cb = *p->b;
    sccd_real shrunk = shrink_pair(&ca, &cb, s);
    if (distance != NULL)
        *distance = gap(&ca, p->xa, &cb, p->xb, at, p->cache);
    return shrunk;
}

/* A sphere's or capsule's radius, a box's none. */
static sccd_real rounding3(const sccd_shape3 *s)
{
    return s->type == SCCD_SHAPE_CIRCLE ? s->sphere.r : s->type == SCCD_SHAPE_CAPSULE ? s->capsule.r : 0.0;
}

/* How far what a turn moves of a shape reaches from a centre its first
 * bound reaches `farthest` from, for the rate bounds: of one sphere or
 * capsule its core (less its radius: the rounding is a ball about each core
 * point, the same at any angle, so a spinning ball closes no faster than
 * its centre); of a box, and of an intersection of bounds (no core grown by
 * a ball), the whole reach. */
static sccd_real turning_reach(const sccd_shape3 *first, int bounds, sccd_real farthest)
{
    return bounds == 1 ? sccd_max(farthest - rounding3(first), 0.0) : farthest;
}

/* How far shape k reaches from its body's centre of turning (0: a
 * half-space, on a static body), cached per segment: every search of its
 * pairs asks. */
static sccd_real shape_farthest(solver *sv, int k)
{
    shape_cache *c = &sv->cache[k];
    const sccd_impact_shape3 *s = &sv->shapes[k];
    const body_state *b = &sv->st[s->body];
    if (c->reached != b->segment) {
        c->farthest = s->bounds > 0 ? sccd_shape3_farthest_unchecked(&s->bound[0], b->m.center) : 0.0;
        c->reached = b->segment;
    }
    return c->farthest;
}

/* turning_reach of shape k about its body's centre of turning. */
static sccd_real shape_core_reach(solver *sv, int k)
{
    const sccd_impact_shape3 *s = &sv->shapes[k];
    return turning_reach(&s->bound[0], s->bounds, shape_farthest(sv, k));
}

/* sccd_paths_apart for shapes sa and sb of the bodies pr->a, pr->b over
 * the parts of their segments from tc on, which move by ma, mb (never for
 * a half-space: it reaches everywhere). A segment's centre moves on a line
 * (centre_at), so its place at tc and at the end are read from the
 * segment itself, before the parts' poses are made (search_motions): the
 * same line a part's centre follows, and the pairs that end here (half of
 * ccd_scale's ODE debris rain's) need no pose. */
static bool paths_apart(solver *sv, const sccd_pair *pr, sccd_real tc, int sa, part_move ma, int sb, part_move mb)
{
    if (sv->shapes[sa].bounds == 0 || sv->shapes[sb].bounds == 0)
        return false;
    const body_state *x = &sv->st[pr->a], *y = &sv->st[pr->b];
    sccd_v3 ca = centre_at(&x->m, local_time(x, tc)), cb = centre_at(&y->m, local_time(y, tc));
    /* the ends: c + dp, the part's dp being the rest of the segment's */
    sccd_v3 d0 = sccd_v3_sub(cb, ca), d1 = sccd_v3_sub(sccd_v3_add(cb, mb.dp), sccd_v3_add(ca, ma.dp));
    return sccd_paths_apart(d0, d1, shape_farthest(sv, sa) + shape_farthest(sv, sb), sv->opt.toi_tolerance);
}

/* Rate bound of the distance between shapes sa and sb moving by ma, mb
 * (per unit t): approach_bound of the pair a search sets up, known before
 * setting it up. */
static sccd_real pair_reach(solver *sv, int sa, part_move ma, int sb, part_move mb)
{
    return sccd_v3_len(sccd_v3_sub(ma.dp, mb.dp)) + fabs(ma.angle) * shape_core_reach(sv, sa) +
           fabs(mb.angle) * shape_core_reach(sv, sb);
}

/* Rate bound of the distance between a convex shape x and a target
 * (per unit t): x's core turns, and the target's if it is one convex shape
 * (turning_reach), else its first bound's whole reach. x's core whatever
 * x is: a search measures from x itself, bound[0] of a body's shape when
 * that is an intersection (make_search), which holds the shape. */
static sccd_real approach_bound(const sccd_shape3 *x, sccd_motion3 mx, const target3 *t, sccd_motion3 mt)
{
    sccd_real rx = turning_reach(x, 1, sccd_shape3_farthest_unchecked(x, mx.center));
    sccd_real rt = turning_reach(&t->s[0], t->n, sccd_shape3_farthest_unchecked(&t->s[0], mt.center));
    return sccd_v3_len(sccd_v3_sub(mx.dp, mt.dp)) + fabs(mx.angle) * rx + fabs(mt.angle) * rt;
}

/* How the gap of a pair touching with normal n (a to b) at u can change
 * (sccd_gap_rate): toi.c's bound along a fixed n, with β the approach rate
 * of the supporting points (translation along n plus the support values
 * about the centres along n × ω) and κ = Σ |n × ω|·|ω|·ρ. */
static sccd_gap_rate gap_rate(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb, sccd_real u,
                              sccd_v3 n)
{
    sccd_v3 ua = sccd_v3_cross(n, sccd_v3_scale(ma.axis, ma.angle));
    sccd_v3 ub = sccd_v3_neg(sccd_v3_cross(n, sccd_v3_scale(mb.axis, mb.angle)));
    sccd_v3 ca = centre_at(&ma, u), cb = centre_at(&mb, u);
    sccd_real sa = sccd_v3_dot(sccd_v3_sub(sccd_shape3_support_unchecked(a, sccd_motion3_at_unchecked(ma, u), ua), ca), ua);
    sccd_real sb = sccd_v3_dot(sccd_v3_sub(sccd_shape3_support_unchecked(b, sccd_motion3_at_unchecked(mb, u), ub), cb), ub);
    sccd_real beta = sccd_v3_dot(n, sccd_v3_sub(ma.dp, mb.dp)) + sa + sb;
    sccd_real kappa = sccd_v3_len(ua) * fabs(ma.angle) * sccd_shape3_farthest_unchecked(a, ma.center) +
                      sccd_v3_len(ub) * fabs(mb.angle) * sccd_shape3_farthest_unchecked(b, mb.center);
    return (sccd_gap_rate){beta, kappa};
}

/* First time in [0, 1] at which a comes within goal of the intersection b,
 * by conservative advancement against each bound in turn: contact with the
 * intersection needs contact with every bound, so no bound's TOI from a time
 * before it passes it; the search advances while any bound is still apart.
 * *last gets the bound of the result. */
static sccd_toi3 toi_bounds(solver *sv, const sccd_shape3 *a, sccd_motion3 ma, const target3 *b, sccd_motion3 mb,
                            sccd_real goal, int *last)
{
    sccd_real tol = sv->opt.toi_tolerance, t = 0.0;
    sccd_toi3 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    *last = 0;
    for (int pass = 0; pass < BOUND_PASSES_MAX; ++pass) {
        bool moved = false;
        int overlapped = 0;
        for (int i = 0; i < b->n; ++i) {
            sccd_motion3 ra = motion_rest(ma, t), rb = motion_rest(mb, t);
            sccd_toi3 r = b->fixed ? sccd_toi3_plane_unchecked(a, ra, &b->s[i], b->plane, goal, tol)
                                   : sccd_toi3_compute_unchecked(a, ra, &b->s[i], rb, goal, tol);
            ++sv->stats->tois;
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
        if (overlapped == b->n) { /* deeper than the goal in every bound */
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

/* An event found by a search: kind, time, contact. */
typedef struct shape_event { impact_event event; sccd_real t; sccd_v3 point, normal; sccd_real left, sunk; } shape_event;

/* Whether g is a ball about the centre of turning `centre` (a ball of a
 * pile, about its centre of mass): a turn moves none of its points. */
static bool ball_at_centre(const sccd_shape3 *g, sccd_v3 centre)
{
    return g->type == SCCD_SHAPE_CIRCLE && g->sphere.c.x == centre.x && g->sphere.c.y == centre.y &&
           g->sphere.c.z == centre.z;
}

/* The box of such a ball of radius r moving by m: at every time it is the
 * ball about the centre's place c0 + t·dp (sccd_motion3_center_at), and
 * the box of that segment's ends grown by r holds every such ball (either
 * candidate rule: the ends' boxes and the path's are one). The general
 * motion box turns the ball's centre with the body, to end where this one
 * does, for several times the instructions. */
static sccd_aabb3 ball_path_box(sccd_real r, sccd_motion3 m)
{
    sccd_v3 c0 = centre_at(&m, 0.0), c1 = centre_at(&m, 1.0), g = {r, r, r};
    return (sccd_aabb3){sccd_v3_sub(sccd_v3_min(c0, c1), g), sccd_v3_add(sccd_v3_max(c0, c1), g)};
}

/* The motion box of shape s's bound[0] (a half-space: everything), grown by the skin. */
static sccd_aabb3 motion_box_as(const solver *sv, const sccd_impact_shape3 *s, sccd_motion3 m, sccd_candidates candidates)
{
    sccd_real inf = INFINITY;
    if (s->bounds == 0)
        return (sccd_aabb3){{-inf, -inf, -inf}, {inf, inf, inf}};
    const sccd_shape3 *g = &s->bound[0];
    sccd_aabb3 box;
    if (ball_at_centre(g, m.center))
        box = ball_path_box(g->sphere.r, m);
    else if (candidates == SCCD_CANDIDATES_START_END)
        box = sccd_aabb3_union(sccd_shape3_aabb_unchecked(g, m.start),
                               sccd_shape3_aabb_unchecked(g, sccd_motion3_at_unchecked(m, 1.0)));
    else
        box = sccd_shape3_motion_box_unchecked(g, m);
    sccd_v3 skin = {sv->opt.overlap, sv->opt.overlap, sv->opt.overlap};
    return (sccd_aabb3){sccd_v3_sub(box.lo, skin), sccd_v3_add(box.hi, skin)};
}

static sccd_aabb3 motion_box(const solver *sv, const sccd_impact_shape3 *s, sccd_motion3 m)
{
    return motion_box_as(sv, s, m, sv->opt.candidates);
}

/* The motion box of shape k over its body's whole current segment, cached:
 * with SWEEP candidates it holds the segment's part from any time on. */
static sccd_aabb3 shape_box(solver *sv, int k)
{
    shape_cache *c = &sv->cache[k];
    const body_state *s = &sv->st[sv->shapes[k].body];
    if (c->boxed != s->segment) {
        c->box = motion_box_as(sv, &sv->shapes[k], s->m, SCCD_CANDIDATES_SWEEP);
        c->boxed = s->segment;
    }
    return c->box;
}

/* The candidate box of shape k moving by m, the part of its body's segment
 * from some time on: the cached whole segment's box with SWEEP candidates,
 * the box of m's ends with START_END. */
static sccd_aabb3 candidate_box(solver *sv, int k, sccd_motion3 m)
{
    return sv->opt.candidates == SCCD_CANDIDATES_SWEEP ? shape_box(sv, k) : motion_box(sv, &sv->shapes[k], m);
}

/* The pair as a search sees it: one convex shape x (moving by mx) against
 * the target (moving by mt), and whether x is b's (the normal flips). */
typedef struct search_setup {
    sccd_shape3 x;
    target3 target;
    sccd_motion3 mx, mt;
    bool flip;
} search_setup;

/* The setup of shapes sa and sb moving by *ma, *mb, made in *out field by
 * field: a target's bounds past its count are never read; zeroing them,
 * then copying the setup out, took 300 instructions a setup (ccd_scale's
 * ODE debris rain). */
static void make_search(const solver *sv, const sccd_impact_shape3 *sa, const sccd_motion3 *ma,
                        const sccd_impact_shape3 *sb, const sccd_motion3 *mb, search_setup *out)
{
    bool flip = sa->bounds == 0 || (sb->bounds != 0 && sa->bounds > sb->bounds);
    const sccd_impact_shape3 *x = flip ? sb : sa, *t = flip ? sa : sb;
    out->x = x->bound[0];
    out->mx = flip ? *mb : *ma;
    out->mt = flip ? *ma : *mb;
    out->flip = flip;
    if (t->bounds == 0) {
        sccd_aabb3 start = sccd_shape3_aabb_unchecked(&x->bound[0], out->mx.start);
        sccd_plane plane = world_plane(t, out->mt.start);
        sccd_shape3 box = plane_box(plane, motion_box(sv, x, out->mx), start, SCCD_SKIN_OVERLAPS * sv->opt.overlap);
        out->target = (target3){1, {box}, true, plane};
        out->mt = still(sccd_xf3_identity(), (sccd_v3){0.0, 0.0, 0.0});
        return;
    }
    out->target.n = t->bounds;
    out->target.fixed = false;
    memcpy(out->target.s, t->bound, (size_t)t->bounds * sizeof *out->target.s);
}

/* A search put off: no event before `until` (INFINITY: none at all). */
static shape_event no_event_before(sccd_real until)
{
    return (shape_event){until < INFINITY ? EVENT_PENDING : EVENT_NONE, until < INFINITY ? until : 1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, 0.0};
}

/* An event of a pair `overlap` deep under its policy (impact2.c's). */
static shape_event at_limit(impact_event kind, const sccd_target_policy *pol, sccd_real t, sccd_v3 point, sccd_v3 normal, sccd_real overlap)
{
    return (shape_event){kind, t, point, normal, sccd_policy_push_room(pol, overlap), sccd_max(overlap - pol->limit, 0.0)};
}

/* A search of bodies pr->a, pr->b from time tc, as the trees' visits see
 * it, and whether it may wait (shape_pair_event). The parts of the
 * bodies' segments from tc on, ma and mb, are made when a shape pair first
 * needs them (search_motions); what they move by (move_a, move_b) decides
 * before that: the engine's pair (engine_catches), a pair kept apart until
 * later (sccd_pair_apart_until). Those end three searches in ten of
 * ccd_scale's ODE debris rain. */
typedef struct pair_search {
    solver *sv;
    sccd_pair *pr;
    sccd_real tc;
    part_move move_a, move_b;
    sccd_motion3 *ma, *mb; /* the caller's room for them, not zeroed (a fifth of a single pair's search) */
    bool made; /* ma and mb made */
    bool wait;
    bool near; /* the shapes' candidate boxes are known to meet (single_pair) */
} pair_search;

/* *ps->ma and *ps->mb, made once a search. */
static void search_motions(pair_search *ps)
{
    if (!ps->made) {
        *ps->ma = part_from(&ps->sv->st[ps->pr->a], ps->tc);
        *ps->mb = part_from(&ps->sv->st[ps->pr->b], ps->tc);
        ps->made = true;
    }
}

/* First event of shapes sa (body a) and sb (body b), moving by ma, mb (their
 * bodies' segments from time tc on): the cores (shrunk by the start overlap
 * and the skin when the shapes overlap at tc) reaching the target distance
 * while the bodies approach (impact2.c's
 * shape_pair_event, against a target of bounds). Shapes that cannot come
 * near within the share `horizon` of the search (another pair of the two
 * bodies has an event then) have none that matters. When the search may
 * `wait`, shapes known to be out of reach until some time have
 * EVENT_PENDING then instead (no TOI). */
static shape_event shape_pair_event(pair_search *ps, int sa, int sb, sccd_real horizon)
{
    solver *sv = ps->sv;
    sccd_pair *pr = ps->pr;
    sccd_real tc = ps->tc;
    bool wait = ps->wait;
    int a = pr->a, b = pr->b;
    shape_event none = {EVENT_NONE, 1.0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, 0.0};
    sccd_real tol = sv->opt.toi_tolerance, skin = SCCD_SKIN_OVERLAPS * sv->opt.overlap;
    sccd_real reach = pair_reach(sv, sa, ps->move_a, sb, ps->move_b);
    sccd_real until = sccd_pair_apart_until(pr, sa, sb, tc, reach, tol, wait);
    if (until > tc)
        return no_event_before(until);
    if (paths_apart(sv, pr, tc, sa, ps->move_a, sb, ps->move_b))
        return none;
    search_motions(ps);
    search_setup p;
    make_search(sv, &sv->shapes[sa], ps->ma, &sv->shapes[sb], ps->mb, &p);
    sccd_real depth, apart, room = shrink_capacity(&p.x) + target_capacity(&p.target);
    start_pair start = {&p.x, &p.target, p.mx.start, p.mt.start, {{0}}};
    if (horizon < 1.0 && p.target.n > 1 &&
        sccd_out_of_reach(gap(&p.x, p.mx.start, &(target3){1, {p.target.s[0]}, false}, p.mt.start, NULL, start.cache),
                          reach * horizon, tol))
        return none; /* apart from one bound already: the others' distances not needed */
    sccd_pair_start_depth(pr, sa, sb, tc, shrink_start, &start, skin, &depth, &apart);
    sccd_pair_keep_reach(pr, tc, reach); /* the whole rest's rate: what the next search may rely on */
    if (sccd_out_of_reach(apart, reach * horizon, tol))
        return none;
    until = sccd_reach_time(apart, reach, tc, tol);
    if (wait && until > tc)
        return no_event_before(until);
    sccd_real now;
    bool settle = p.target.n == 1 && (sv->bodies[pr->a].kind == SCCD_BODY_STATIC || sv->bodies[pr->b].kind == SCCD_BODY_STATIC);
    bool guard = sv->bodies[a].ccd || sv->bodies[b].ccd;
    sccd_target_policy pol = sccd_policy_start(pr, sa, sb, guard, depth, room, skin, tol, shrink_start, &start, &now);
    sccd_real shrunk = shrink_pair(&p.x, &p.target, pol.shrink);
    if (!sccd_policy_targets(&pol, depth, shrunk, now, settle, sv->opt.overlap, tol)) {
        ++sv->stats->overlapped;
        return none;
    }
    sccd_real rate = approach_bound(&p.x, p.mx, &p.target, p.mt), u0 = 0.0;
    ++sv->stats->candidates;
    for (int round = 0; round < sv->opt.toi_max_iterations && u0 < 1.0; ++round) {
        int k = 0;
        sccd_toi3 r = {SCCD_TOI_HIT, 0.0, pr->gap_at.point, pr->gap_at.normal, 0};
        if (round > 0 || p.target.n != 1 || !sccd_touches_at_start(depth, now, pol.target, tol))
            r = toi_bounds(sv, &p.x, motion_rest(p.mx, u0), &p.target, motion_rest(p.mt, u0), pol.target, &k);
        if (r.state == SCCD_TOI_SEPARATED)
            return none;
        sccd_real u = u0 + r.t * (1.0 - u0), t = tc + u * (1.0 - tc);
        sccd_v3 n = p.flip ? sccd_v3_neg(r.normal) : r.normal;
        if (r.state == SCCD_TOI_OVERLAPPED) { /* the cores touch at u0 (a rounding case): the engine's */
            ++sv->stats->overlapped;
            return none;
        }
        if (r.state == SCCD_TOI_FAILED) {
            ++sv->stats->failed;
            if (round + 1 == sv->opt.toi_max_iterations || !(u > u0))
                return (shape_event){EVENT_STOP, t, r.point, n, 0.0, 0.0};
            u0 = u; /* no contact before u: go on from there */
            continue;
        }
        sccd_real closing = approach(sv, a, b, t, r.point, n);
        if (sccd_is_impact(closing, depth, &pol, sv->dt, sv->opt.overlap) && !(pr->pushes > 0 && closing * sv->dt <= sv->opt.overlap))
            return at_limit(EVENT_IMPACT, &pol, t, r.point, n, shrunk - sccd_policy_cores(&pol, depth, now));
        /* Touching but not approaching: skip while the gap provably holds.
         * A pair that is leaving (its supporting points separate) keeps its
         * target; one resting or sliding may sink, and at its limit, where
         * it may not, it stops (unless it cannot cross this step). */
        sccd_gap_rate g = gap_rate(&p.x, p.mx, &p.target.s[k], p.mt, u, r.normal);
        sccd_real span = sccd_separating_span(g, tol, rate);
        bool leaving = span > sccd_max(tol / rate, 1e-9);
        if (!leaving && !sccd_policy_sink(&pol))
            return sccd_policy_safe(&pol, g, rate, u, tol)
                       ? none
                       : at_limit(EVENT_STOP, &pol, t, r.point, n, shrunk - sccd_policy_cores(&pol, depth, now));
        u0 = u + span;
    }
    if (u0 >= 1.0)
        return none;
    ++sv->stats->failed; /* out of rounds: stop where it is still known safe */
    return (shape_event){EVENT_STOP, tc + u0 * (1.0 - tc), {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, 0.0, 0.0};
}

/* ---- body pairs ---- */

static bool boxes_overlap(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

/* Whether shapes i (moving by mi) and j (by mj) may meet: their motion
 * boxes overlap, or a half-space reaches the other's box. */
static bool shapes_near(solver *sv, int i, sccd_motion3 mi, int j, sccd_motion3 mj)
{
    const sccd_impact_shape3 *si = &sv->shapes[i], *sj = &sv->shapes[j];
    if (si->bounds == 0 && sj->bounds == 0)
        return false;
    if (si->bounds == 0)
        return plane_reaches(world_plane(si, mi.start), candidate_box(sv, j, mj));
    if (sj->bounds == 0)
        return plane_reaches(world_plane(sj, mj.start), candidate_box(sv, i, mi));
    return boxes_overlap(candidate_box(sv, i, mi), candidate_box(sv, j, mj));
}

/* The thinnest of shape s's bounds, as far as it can shrink (a half-space:
 * unbounded). */
static sccd_real shape_thickness(const sccd_impact_shape3 *s)
{
    sccd_real c = INFINITY;
    for (int i = 0; i < s->bounds; ++i)
        c = sccd_min(c, shrink_capacity(&s->bound[i]));
    return c;
}

/* Rate bound of shape k of a body moving by m against a still point: a
 * half-space's (a static body's) is its body's translation alone. */
static sccd_real shape_rate(solver *sv, int k, sccd_motion3 m)
{
    return sccd_v3_len(m.dp) + fabs(m.angle) * shape_core_reach(sv, k);
}

/* Whether the engine's own contact is enough for shapes i and j under mi,
 * mj (sccd_engine_catches; a pile a rotor nudged: searched, a body stopped
 * there would stop the next one pressing on it, and so on through the
 * pile). The rate is how fast their points close, relative to each other
 * (as impact2.c has it): two balls falling side by side close by their
 * spins' share alone, not by both falls (the sum of their own rates sent
 * every pair of a falling rain a debris struck to a search: a fifth of the
 * TOIs of ccd_scale's 10,000 + 1,000 scene, 4.5 % of its CCD's
 * instructions, callgrind). */
static bool engine_catches(solver *sv, int i, part_move mi, int j, part_move mj)
{
    const sccd_impact_shape3 *si = &sv->shapes[i], *sj = &sv->shapes[j];
    const sccd_impact_body3 *a = &sv->bodies[si->body], *b = &sv->bodies[sj->body];
    bool flying = sccd_only_flying(a->struck, a->ccd, a->impacts, a->held) || sccd_only_flying(b->struck, b->ccd, b->impacts, b->held);
    return !a->ccd && !b->ccd && sccd_engine_catches(pair_reach(sv, i, mi, j, mj), shape_thickness(si), shape_thickness(sj), flying);
}

/* shapes_near for shapes i (of a) and j (of b) in search ps. */
static bool search_near(pair_search *ps, int i, int j)
{
    search_motions(ps);
    return shapes_near(ps->sv, i, *ps->ma, j, *ps->mb);
}

static bool tree_reaches(void *context, int plane, sccd_aabb3 box)
{
    const pair_search *ps = context;
    const sccd_impact_shape3 *s = &ps->sv->shapes[plane];
    return plane_reaches(world_plane(s, ps->sv->st[s->body].m.start), box);
}

/* Shapes i (of a) and j (of b): the earliest event so far, the lowest shape
 * pair on a tie (the trees' visiting order does not change the answer). */
static sccd_real tree_visit(void *context, int i, int j)
{
    pair_search *ps = context;
    solver *sv = ps->sv;
    sccd_pair *pr = ps->pr;
    if (!sccd_pair_may_collide(pr, sv->cb.collide, sv->cb.user, i, j) ||
        (!ps->near && !search_near(ps, i, j)) || engine_catches(sv, i, ps->move_a, j, ps->move_b))
        return pr->t;
    sccd_real horizon = pr->t < 1.0 && ps->tc < 1.0 ? sccd_clamp((pr->t - ps->tc) / (1.0 - ps->tc), 0.0, 1.0) : 1.0;
    shape_event e = shape_pair_event(ps, i, j, horizon);
    bool first = e.t < pr->t || (e.t == pr->t && (i < pr->sa || (i == pr->sa && j < pr->sb)));
    if (e.event == EVENT_NONE || !first)
        return pr->t;
    pr->event = e.event;
    pr->t = e.t;
    pr->sa = i;
    pr->sb = j;
    pr->point = e.point;
    pr->normal = e.normal;
    pr->left = e.left;
    pr->sunk = e.sunk;
    return pr->t;
}

/* Whether bodies a and b are one convex shape each: their trees are single
 * leaves and neither has a half-space, so the trees' walk would visit that
 * one shape pair and nothing else (most pairs: a debris and a ball). */
static bool single_pair(const solver *sv, int a, int b)
{
    const sccd_impact_body3 *x = &sv->bodies[a], *y = &sv->bodies[b];
    return x->shape_count == 1 && y->shape_count == 1 && sv->shapes[x->first_shape].bounds > 0 &&
           sv->shapes[y->first_shape].bounds > 0;
}

/* The earliest event of bodies a and b from time tc over their shape pairs
 * (those the trees let through; a single pair visited at once). */
static void search_pair(solver *sv, sccd_pair *pr, sccd_real tc, bool wait)
{
    pr->event = EVENT_NONE;
    pr->t = INFINITY;
    pr->from = tc;
    if (pr->ignored || move_together(sv, pr->a, pr->b))
        return;
    if (tc < pr->calm_until && sv->st[pr->a].segment == pr->calm_a && sv->st[pr->b].segment == pr->calm_b) {
        pr->event = EVENT_PENDING; /* resting after a push (resolve) */
        pr->t = pr->from = pr->calm_until;
        return;
    }
    ++sv->stats->pairs;
    /* a later search from tc repeats one shape pair's only; and a pending
     * time is no event, to stop the trees' walk at */
    wait &= sv->bodies[pr->a].shape_count == 1 && sv->bodies[pr->b].shape_count == 1;
    sccd_motion3 parts[2];
    part_move move_a = move_from(&sv->st[pr->a], tc), move_b = move_from(&sv->st[pr->b], tc);
    pair_search ps = {sv, pr, tc, move_a, move_b, &parts[0], &parts[1], false, wait, false};
    if (single_pair(sv, pr->a, pr->b)) {
        /* each body's box is its shape's candidate box over its segment
         * (body_box, SWEEP candidates), and the events search only bodies
         * whose boxes meet: shapes_near would say so again */
        ps.near = sv->opt.candidates == SCCD_CANDIDATES_SWEEP;
        tree_visit(&ps, sv->bodies[pr->a].first_shape, sv->bodies[pr->b].first_shape);
        return;
    }
    search_motions(&ps); /* the trees' sides take them */
    sccd_tree_side3 a = {pr->a, sv->st[pr->a].m, sv->st[pr->a].segment, parts[0]};
    sccd_tree_side3 b = {pr->b, sv->st[pr->b].m, sv->st[pr->b].segment, parts[1]};
    sccd_tree_search3 q = {tc, sv->opt.overlap, sv->opt.toi_tolerance, tree_reaches, tree_visit, &ps, &sv->stats->tois};
    sccd_shape_trees3_pairs(&sv->trees, sv->bodies, sv->shapes, a, b, &q);
}

/* What body i covers over its current segment (cached until it changes). */
static sccd_aabb3 body_box(solver *sv, int i)
{
    body_state *s = &sv->st[i];
    if (!s->boxed) {
        const sccd_impact_body3 *b = &sv->bodies[i];
        sccd_aabb3 box = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}}, path = box;
        for (int k = b->first_shape; k < b->first_shape + b->shape_count; ++k) {
            sccd_aabb3 sb = candidate_box(sv, k, s->m); /* the path: a start-and-end box misses a turn's bulge */
            sccd_aabb3 pb = sv->opt.candidates == SCCD_CANDIDATES_START_END ? shape_box(sv, k) : sb;
            box = (sccd_aabb3){sccd_v3_min(box.lo, sb.lo), sccd_v3_max(box.hi, sb.hi)};
            path = (sccd_aabb3){sccd_v3_min(path.lo, pb.lo), sccd_v3_max(path.hi, pb.hi)};
        }
        s->box = box;
        s->boxed = true;
        s->covered = (sccd_aabb3){sccd_v3_min(s->covered.lo, path.lo), sccd_v3_max(s->covered.hi, path.hi)};
    }
    return s->box;
}

/* impact2.c's pair_possible. */
static bool pair_possible(const solver *sv, int a, int b)
{
    const sccd_impact_body3 *x = &sv->bodies[a], *y = &sv->bodies[b];
    return a != b && (x->kind == SCCD_BODY_DYNAMIC || y->kind == SCCD_BODY_DYNAMIC) && x->shape_count > 0 && y->shape_count > 0 &&
           !sccd_struck_passes(x->struck, x->ccd, x->impacts, x->held, y->kind, y->ccd) &&
           !sccd_struck_passes(y->struck, y->ccd, y->impacts, y->held, x->kind, x->ccd);
}

/* ---- events ---- */

/* Body i's response to a generalized impulse x = (J at the world point p,
 * angular L): the change of (velocity at p, ω) is M·x, M symmetric 6×6
 * (row-major): with G = [[r]ₓ E] (r × J + L), M = Gᵀ·K·G + lin on J. */
static void response_matrix(const solver *sv, int i, sccd_real t, sccd_v3 p, sccd_real m[36])
{
    sccd_v3 origin;
    sccd_real lin;
    m33 k = response(sv, i, t, &origin, &lin);
    sccd_v3 r = sccd_v3_sub(p, origin);
    sccd_real g[3][6] = {{0, -r.z, r.y, 1, 0, 0}, {r.z, 0, -r.x, 0, 1, 0}, {-r.y, r.x, 0, 0, 0, 1}};
    for (int row = 0; row < 6; ++row)
        for (int col = 0; col < 6; ++col) {
            sccd_real sum = row == col && row < 3 ? lin : 0.0;
            for (int x = 0; x < 3; ++x)
                for (int y = 0; y < 3; ++y)
                    sum += g[x][row] * k.m[3 * x + y] * g[y][col];
            m[6 * row + col] = sum;
        }
}

/* Restart body i at t after a join, keeping what rode along with it:
 * released, a rider would meet i again at once and be joined again, undoing
 * the last join, without end (a blade pushing into a pile). A rider that
 * i's new motion would speed up stops instead: no energy from nothing. */
static void restart_keeping_riders(solver *sv, int i, sccd_real t)
{
    restart_state(&sv->bodies[i], &sv->st[i], t, sv->dt);
    sccd_events_changed(&sv->events, i);
    for (int j = 0; sv->st[i].riders > 0 && j < sv->n; ++j)
        if (sv->st[j].carrier == i) {
            sccd_real before = energy(sv, j, t, (sccd_v3){0.0, 0.0, 0.0});
            sccd_v3 out_v = sv->st[j].out_v;
            sccd_v3 out_w = sv->st[j].out_w;
            carry(sv, j, i, t);
            if (energy(sv, j, t, (sccd_v3){0.0, 0.0, 0.0}) > before) { /* it stops, reporting the velocity it had */
                hold(sv, j, t);
                sv->st[j].out_v = out_v;
                sv->st[j].out_w = out_w;
            }
        }
}

/* Body `light` is to ride along with `heavy` from t: first the perfectly
 * inelastic generalized impulse at light's centre of mass that makes light
 * move as a part of heavy, taken from heavy's momentum (a projection in the
 * kinetic energy's metric: the energy does not grow); heavy goes on with
 * what is left. False when light cannot be matched (jointed, or infinite
 * mass or inertia). */
static bool join(solver *sv, int light, int heavy, sccd_real t)
{
    const sccd_impact_body3 *bl = &sv->bodies[light];
    sccd_real det = bl->inv_inertia[0] * (bl->inv_inertia[4] * bl->inv_inertia[8] - bl->inv_inertia[5] * bl->inv_inertia[7]) -
                    bl->inv_inertia[1] * (bl->inv_inertia[3] * bl->inv_inertia[8] - bl->inv_inertia[5] * bl->inv_inertia[6]) +
                    bl->inv_inertia[2] * (bl->inv_inertia[3] * bl->inv_inertia[7] - bl->inv_inertia[4] * bl->inv_inertia[6]);
    /* one carrying riders would take them along (impact2.c's join): both stop */
    if (sv->st[light].joint != SCCD_JOINT_NONE || sv->st[light].riders > 0 || !(bl->inv_mass > 0.0) || !(det > 0.0))
        return false;
    sccd_v3 p = cog_at(sv, light, t);
    sccd_real ml[36], mh[36], m[36], x[6];
    response_matrix(sv, light, t, p, ml);
    response_matrix(sv, heavy, t, p, mh);
    for (int k = 0; k < 36; ++k)
        m[k] = ml[k] + mh[k];
    sccd_v3 dv = sccd_v3_sub(velocity_at(sv, heavy, t, p), velocity_at(sv, light, t, p));
    sccd_v3 dw = sccd_v3_sub(sv->st[heavy].w, sv->st[light].w);
    sccd_real u[6] = {dv.x, dv.y, dv.z, dw.x, dw.y, dw.z};
    sccd_real ell = sccd_gyration_unit(bl->inv_mass, (bl->inv_inertia[0] + bl->inv_inertia[4] + bl->inv_inertia[8]) / 3.0);
    if (!sccd_solve_response(6, 3, ell, m, u, x))
        return false;
    sccd_v3 zero = {0.0, 0.0, 0.0};
    sccd_real before = energy(sv, heavy, t, zero) + energy(sv, light, t, zero);
    body_state kept_h = sv->st[heavy], kept_l = sv->st[light];
    apply_impulse(sv, heavy, t, p, (sccd_v3){-x[0], -x[1], -x[2]}, (sccd_v3){-x[3], -x[4], -x[5]});
    sv->st[light].v = velocity_at(sv, heavy, t, p); /* as a part of heavy, to weigh the energy */
    sv->st[light].w = sv->st[heavy].w;
    bool gains = !(energy(sv, heavy, t, zero) + energy(sv, light, t, zero) <= before * (1.0 + 1e-9));
    sv->st[light] = kept_l;
    if (gains) { /* a near-singular response: no join */
        sv->st[heavy] = kept_h;
        return false;
    }
    restart_keeping_riders(sv, heavy, t);
    carry(sv, light, heavy, t);
    return true;
}

/* Restart body i's segment at t after an impulse, if it changed the body's
 * velocity (v0, w0 before; a jointed body's v follows from w) or it is a
 * dynamic body carrying riders (a kinematic one keeps them: its motion does
 * not change, and let go at every push it gave, they were carried again
 * at the same instant until the solver's guard ran out: scene fuzzer,
 * ODE). Restarted, a body whose motion the impulse left as it was (a
 * static wall, a kinematic bat, a hinged body its motor holds, a held
 * body) had every pair of it searched again and its neighbourhood paired
 * anew, for nothing: its segment goes on as it was. It reports what a
 * restart would: the velocity it moves by (a held body struck again
 * reports rest; the velocity it kept from its stop let a motor press a
 * blade through a thin wall, one step after another: scene fuzzer,
 * Chipmunk). */
static void restart_if_moved(solver *sv, int i, sccd_real t, sccd_v3 v0, sccd_v3 w0)
{
    body_state *s = &sv->st[i];
    bool spun = s->w.x != w0.x || s->w.y != w0.y || s->w.z != w0.z;
    bool moved = s->v.x != v0.x || s->v.y != v0.y || s->v.z != v0.z;
    if (spun || (s->joint == SCCD_JOINT_NONE && moved) || (s->riders > 0 && sv->bodies[i].kind == SCCD_BODY_DYNAMIC)) {
        restart(sv, i, t);
        return;
    }
    s->out_v = s->v; /* what a restart reports */
    s->out_w = s->w;
}

/* The pair's calm after a push, as impact2.c's (for a pair of single-shape
 * bodies of one convex bound each: the calm is that bound's). */
static void calm(solver *sv, sccd_pair *pr)
{
    int a = pr->a, b = pr->b;
    sccd_real t = pr->t;
    sccd_motion3 ma = part_from(&sv->st[a], t), mb = part_from(&sv->st[b], t);
    search_setup p;
    make_search(sv, &sv->shapes[pr->sa], &ma, &sv->shapes[pr->sb], &mb, &p);
    sccd_v3 n = p.flip ? sccd_v3_neg(pr->normal) : pr->normal;
    sccd_gap_rate g = gap_rate(&p.x, p.mx, &p.target.s[0], p.mt, 0.0, n);
    pr->calm_until = t + sccd_calm_span(g, approach_bound(&p.x, p.mx, &p.target, p.mt), pr->left) * (1.0 - t);
    pr->calm_a = sv->st[a].segment;
    pr->calm_b = sv->st[b].segment;
}

/* The contact of pair pr's event, an impact (pushed < 0) or a push of body
 * `pushed`, as impact2.c's resolve; a push and its calm only for a pair of
 * single-shape bodies of one convex bound each (the calm is that bound's). */
static bool resolve(solver *sv, sccd_pair *pr, int pushed)
{
    int a = pr->a, b = pr->b;
    const sccd_impact_shape3 *sa = &sv->shapes[pr->sa], *sb = &sv->shapes[pr->sb];
    bool single = sv->bodies[a].shape_count == 1 && sv->bodies[b].shape_count == 1 && sa->bounds == 1 && sb->bounds == 1;
    bool kinematic = sv->bodies[a].kind == SCCD_BODY_KINEMATIC || sv->bodies[b].kind == SCCD_BODY_KINEMATIC;
    if (pushed >= 0 ? !single : sccd_pair_jammed(pr, sv->st[a].segment, sv->st[b].segment, kinematic))
        return false;
    sccd_impact_contact3 c = {pr->sa, pr->sb, pr->t, pr->point, pr->normal, approach(sv, a, b, pr->t, pr->point, pr->normal),
                              sccd_mix_elasticity(sa->elasticity, sb->elasticity), sccd_mix_friction(sa->friction, sb->friction),
                              {0.0, 0.0, 0.0}};
    if (sv->cb.begin != NULL && !sv->cb.begin(sv->cb.user, &c)) {
        pr->ignored = true;
        pr->event = EVENT_NONE;
        return true;
    }
    c.elasticity = pushed >= 0 ? 0.0 : sccd_clean_elasticity(c.elasticity);
    c.friction = sccd_clean_friction(c.friction);
    sccd_v3 va = sv->st[a].v, vb = sv->st[b].v;
    sccd_v3 wa = sv->st[a].w, wb = sv->st[b].w;
    bool pushing = pushed >= 0 || pr->pushes > 0;
    if (!collide(sv, pr, &c, pushing ? pr->sunk / sv->dt : 0.0))
        return false;
    ++sv->stats->impacts;
    ++sv->bodies[a].impacts;
    ++sv->bodies[b].impacts;
    restart_if_moved(sv, a, pr->t, va, wa);
    restart_if_moved(sv, b, pr->t, vb, wb);
    if (pushed >= 0)
        calm(sv, pr);
    else
        sccd_pair_note_impact(pr, sv->st[a].segment, sv->st[b].segment);
    if (sv->cb.post != NULL)
        sv->cb.post(sv->cb.user, &c);
    return true;
}

/* The event loop's view of the solver (impact_events.c). */
static void op_search(void *sv, sccd_pair *pr, sccd_real tc, bool wait) { search_pair(sv, pr, tc, wait); }
static bool op_resolve(void *sv, sccd_pair *pr, int pushed) { return resolve(sv, pr, pushed); }
static bool op_possible(const void *sv, int a, int b) { return pair_possible(sv, a, b); }
static sccd_aabb3 op_box(void *sv, int i) { return body_box(sv, i); }
static bool op_moves_freely(const void *sv, int i) { return moves_freely(sv, i); }
static int op_carrier(const void *sv, int i) { return ((const solver *)sv)->st[i].carrier; }
static sccd_body_kind op_kind(const void *sv, int i) { return ((const solver *)sv)->bodies[i].kind; }
static bool op_ccd(const void *sv, int i) { return ((const solver *)sv)->bodies[i].ccd; }
static sccd_real op_inv_mass(const void *sv, int i) { return ((const solver *)sv)->bodies[i].inv_mass; }
/* Drop what of body i's velocity runs into the contact of pair pr (an
 * inelastic, frictionless impulse against an immovable partner). */
static void rest_against(solver *sv, int i, const sccd_pair *pr)
{
    sccd_v3 n = i == pr->a ? pr->normal : sccd_v3_neg(pr->normal);
    sccd_real u = sccd_v3_dot(velocity_at(sv, i, pr->t, pr->point), n), k = inv_mass_along(sv, i, pr->t, pr->point, n);
    if (u <= 0.0 || k <= 0.0)
        return;
    body_state *s = &sv->st[i];
    apply_impulse(sv, i, pr->t, pr->point, sccd_v3_scale(n, -u / k), (sccd_v3){0.0, 0.0, 0.0});
    s->out_v = s->v;
    s->out_w = s->w;
}

static void op_hold(void *sv, int i, sccd_real t, const sccd_pair *against)
{
    if (against != NULL && moves_freely(sv, i))
        rest_against(sv, i, against);
    hold(sv, i, t);
}
static void op_halt(void *sv, int i, sccd_real t)
{
    solver *s = sv;
    hold(s, i, t);
    s->st[i].out_v = (sccd_v3){0.0, 0.0, 0.0};
    s->st[i].out_w = (sccd_v3){0.0, 0.0, 0.0};
}
/* A jam's impulse (sccd_event_ops.settle; impact_events.c's stop_pair). */
static bool op_settle(void *sv, const sccd_pair *pr)
{
    solver *s = sv;
    if (!(s->st[pr->a].joint != SCCD_JOINT_NONE || s->st[pr->b].joint != SCCD_JOINT_NONE))
        return false;
    sccd_v3 p = pr->point, n = pr->normal;
    sccd_real u = approach(s, pr->a, pr->b, pr->t, p, n);
    sccd_real k = inv_mass_along(s, pr->a, pr->t, p, n) + inv_mass_along(s, pr->b, pr->t, p, n);
    if (u > 0.0 && k > 0.0)
        push(s, pr->a, pr->b, pr->t, p, sccd_v3_scale(n, u / k));
    int ends[2] = {pr->a, pr->b};
    for (int m = 0; m < 2; ++m)
        if (moves_freely(s, ends[m])) {
            s->st[ends[m]].out_v = s->st[ends[m]].v;
            s->st[ends[m]].out_w = s->st[ends[m]].w;
        }
    return true;
}
static void op_carry(void *sv, int i, int k, sccd_real t) { carry(sv, i, k, t); }
static bool op_join(void *sv, int light, int heavy, sccd_real t) { return join(sv, light, heavy, t); }
static bool op_gather(void *sv, int i);
static const sccd_event_ops event_ops = {op_search, op_resolve, op_possible, op_box,    op_kind,   op_ccd, op_inv_mass, op_moves_freely,
                                         op_carrier, op_hold, op_halt, op_settle, op_carry, op_join, op_gather};

/* ---- set-up and results ---- */

static bool valid_inertia(const sccd_real a[9])
{
    for (int r = 0; r < 3; ++r) {
        if (!sccd_is_valid_real(a[4 * r]) || a[4 * r] < 0.0)
            return false;
        for (int c = 0; c < 3; ++c)
            if (!sccd_is_valid_real(a[3 * r + c]) || fabs(a[3 * r + c] - a[3 * c + r]) > 1e-9 * (fabs(a[3 * r + c]) + 1e-300))
                return false;
    }
    return true;
}

static bool valid_body(const sccd_impact_body3 *b, int shape_count)
{
    bool kind = b->kind == SCCD_BODY_STATIC || b->kind == SCCD_BODY_KINEMATIC || b->kind == SCCD_BODY_DYNAMIC;
    bool joint = b->joint == SCCD_JOINT_NONE || b->joint == SCCD_JOINT_BALL ||
                 (b->joint == SCCD_JOINT_HINGE && sccd_v3_len2(b->axis) > 0.0);
    return kind && joint && sccd_is_valid_xf3(b->pose) && sccd_is_valid_v3(b->cog) && sccd_is_valid_v3(b->v) &&
           sccd_is_valid_v3(b->w) && sccd_is_valid_real(b->inv_mass) && b->inv_mass >= 0.0 && valid_inertia(b->inv_inertia) &&
           sccd_is_valid_v3(b->hinge) && sccd_is_valid_v3(b->axis) && sccd_is_valid_v3(b->pivot) && b->first_shape >= 0 &&
           b->shape_count >= 0 && b->first_shape <= shape_count - b->shape_count;
}

static bool valid_shape(const sccd_impact_shape3 *s, int body, const sccd_impact_body3 *bodies, int body_count)
{
    if (s->body != body || body >= body_count || !sccd_is_valid_real(s->elasticity) || s->elasticity < 0.0 ||
        !sccd_is_valid_real(s->friction) || s->friction < 0.0 || s->bounds < 0 || s->bounds > SCCD_IMPACT_BOUNDS)
        return false;
    if (s->bounds == 0)
        return sccd_is_valid_plane(s->plane) && bodies[body].kind == SCCD_BODY_STATIC;
    for (int i = 0; i < s->bounds; ++i)
        if (!sccd_is_valid_shape3(&s->bound[i]))
            return false;
    return true;
}

static bool valid_input(const sccd_impact_body3 *bodies, int n, const sccd_impact_shape3 *shapes, int shape_count,
                        sccd_real dt, const sccd_ccd_options *o)
{
    if (bodies == NULL || n < 0 || (shapes == NULL && shape_count > 0) || shape_count < 0 || o == NULL ||
        !sccd_is_valid_real(dt) || dt < 0.0)
        return false;
    sccd_ccd_options check = *o;
    if (sccd_ccd_options_merge(&check, *o) != 0)
        return false;
    for (int i = 0; i < n; ++i) {
        if (!valid_body(&bodies[i], shape_count))
            return false;
        for (int k = bodies[i].first_shape; k < bodies[i].first_shape + bodies[i].shape_count; ++k)
            if (!valid_shape(&shapes[k], i, bodies, n))
                return false;
    }
    return true;
}

/* Body b's state at the step start and its free segment. */
static void begin_state(sccd_impact_body3 *b, body_state *s, sccd_real dt)
{
    bool moves = b->kind != SCCD_BODY_STATIC;
    sccd_v3 zero = {0.0, 0.0, 0.0};
    sccd_aabb3 empty = {{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    /* Field by field: the caches (the pose, the response, the box) are
     * read only once made (at_t, resp_t, boxed say when), so they are not
     * zeroed (the whole state zeroed took 140 instructions a body). */
    s->t0 = 0.0;
    s->m = still(b->pose, b->pivot);
    s->v = moves ? b->v : zero;
    s->w = moves ? b->w : zero;
    s->hinge = sccd_xf3_apply(b->pose, b->hinge);
    s->axis = sccd_v3_normalize(sccd_quat_apply(b->pose.q, b->axis));
    s->joint = b->kind == SCCD_BODY_DYNAMIC ? b->joint : SCCD_JOINT_NONE;
    s->frozen = false;
    s->carrier = -1;
    s->riders = 0;
    s->covered = empty;
    s->segment = 0;
    s->at_t = -1.0;
    s->resp_t = -1.0;
    s->asked = empty;
    s->asked_reach = -1.0;
    s->asked_fixed = false;
    b->impacts = 0;
    b->held = false;
    restart_state(b, s, 0.0, dt);
}

/* Write body b's results: its pose at the step's end and its velocity. */
static void end_state(sccd_impact_body3 *b, body_state *s)
{
    b->end_pose = pose_at(s, 1.0);
    b->end_v = s->out_v;
    b->end_w = s->out_w;
    b->swept = s->covered;
    if (s->joint != SCCD_JOINT_NONE && !s->frozen) /* the turn about the joint, at the end pose */
        b->end_v = sccd_v3_cross(s->out_w, sccd_v3_sub(sccd_xf3_apply(b->end_pose, b->cog), s->hinge));
}

/* Bad input: the body stays where it was (a valid pose, else the origin), at rest. */
static void keep_still(sccd_impact_body3 *b)
{
    b->end_pose = sccd_is_valid_xf3(b->pose) ? b->pose : sccd_xf3_identity();
    b->end_v = (sccd_v3){0.0, 0.0, 0.0};
    b->end_w = (sccd_v3){0.0, 0.0, 0.0};
    b->swept = (sccd_aabb3){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    b->impacts = 0;
    b->held = false;
    b->flying = false;
}

/* Whether body i, struck, may cross a thin body in the engine's next step
 * (impact2.c's flying; a shape's bound[0] reaches, its every bound's
 * thickness counts). */
static bool flying(const solver *sv, int i)
{
    const sccd_impact_body3 *b = &sv->bodies[i];
    if (b->kind != SCCD_BODY_DYNAMIC || b->ccd || !(b->impacts > 0 || b->held || b->struck))
        return false;
    sccd_real speed = sccd_v3_len(b->end_v) * sv->dt, turn = sccd_v3_len(b->end_w) * sv->dt;
    for (int k = b->first_shape; k < b->first_shape + b->shape_count; ++k) {
        const sccd_impact_shape3 *s = &sv->shapes[k];
        if (s->bounds == 0)
            continue;
        sccd_real reach = turning_reach(&s->bound[0], s->bounds, sccd_shape3_farthest_unchecked(&s->bound[0], b->cog));
        if (!sccd_engine_catches(speed + turn * reach, shape_thickness(s), 0.0, true))
            return true;
    }
    return false;
}
/* ---- bodies taken in mid-step (impact2.c's twin) ---- */

/* Take in what the gather hook appended: bodies [n, set->body_count) with
 * their shapes, each checked as the solve's input, and their trees. Bad
 * ones: SCCD_ASSERT, kept still, and the solve fails. */
static bool take_in(solver *sv, const sccd_impact_set3 *set)
{
    int n0 = sv->n, ns0 = sv->ns, n = set->body_count, ns = set->shape_count;
    bool valid = set->bodies != NULL && n >= n0 && ns >= ns0 && (set->shapes != NULL || ns == 0);
    for (int i = n0; valid && i < n; ++i) {
        const sccd_impact_body3 *b = &set->bodies[i];
        valid = valid_body(b, ns) && b->first_shape >= ns0;
        for (int k = b->first_shape; valid && k < b->first_shape + b->shape_count; ++k)
            valid = valid_shape(&set->shapes[k], i, set->bodies, n);
    }
    SCCD_ASSERT(valid);
    if (!valid) {
        for (int i = n0; set->bodies != NULL && i < n; ++i)
            keep_still(&set->bodies[i]);
        return false;
    }
    sv->n = n; /* from here a failure gives every body its free motion */
    sv->ns = ns;
    sccd_impact_scratch *scratch = sv->events.scratch;
    if (!sccd_scratch_reserve(&scratch->bodies, &scratch->body_bytes, (size_t)n * sizeof(body_state)) ||
        !sccd_scratch_reserve(&scratch->shapes, &scratch->shape_bytes, (size_t)ns * sizeof(shape_cache)) ||
        !sccd_shape_trees3_build(&sv->trees, &scratch->trees, &scratch->tree_bytes, sv->bodies, n0, n, sv->shapes, ns0, ns))
        return false;
    sv->st = scratch->bodies;
    sv->cache = scratch->shapes;
    for (int k = ns0; k < ns; ++k)
        sv->cache[k] = (shape_cache){.boxed = 0, .reached = 0};
    for (int i = n0; i < n; ++i)
        begin_state(&sv->bodies[i], &sv->st[i], sv->dt);
    sv->stats->gathered += n - n0;
    return sccd_events_grow(&sv->events, n);
}

/* What body i's current segment may reach (sccd_impact_reach3). */
static sccd_impact_reach3 reach_of(solver *sv, int i)
{
    const sccd_impact_body3 *b = &sv->bodies[i];
    sccd_impact_reach3 r = {i, body_box(sv, i), 0.0, INFINITY};
    for (int k = b->first_shape; k < b->first_shape + b->shape_count; ++k) {
        r.reach = sccd_max(r.reach, shape_rate(sv, k, sv->st[i].m));
        r.half = sccd_min(r.half, shape_thickness(&sv->shapes[k]));
    }
    r.half = b->ccd ? INFINITY : r.half;
    r.fixed_only = sccd_only_flying(b->struck, b->ccd, b->impacts, b->held);
    return r;
}

/* Body i's segment changed: ask the caller for what it may now reach
 * (callbacks.gather), unless an earlier question covered it, and take the
 * answer in (impact2.c's op_gather). */
static bool op_gather(void *solver_, int i)
{
    solver *sv = solver_;
    if (sv->cb.gather == NULL || !moves_freely(sv, i))
        return true;
    body_state *s = &sv->st[i];
    sccd_impact_reach3 r = reach_of(sv, i);
    if (r.reach <= s->asked_reach && sccd_box_holds(s->asked, r.box) && (r.fixed_only || !s->asked_fixed))
        return true;
    s->asked = r.box;
    s->asked_reach = r.reach;
    s->asked_fixed = r.fixed_only;
    sccd_impact_set3 set = {sv->bodies, sv->n, sv->shapes, sv->ns};
    ++sv->stats->gathers;
    bool answered = sv->cb.gather(sv->cb.user, &r, &set);
    if (set.bodies != NULL) /* the arrays may have moved, answered or not: the results go there */
        sv->bodies = set.bodies;
    if (set.shapes != NULL)
        sv->shapes = set.shapes;
    return answered && take_in(sv, &set);
}

sccd_motion3 sccd_impact3_free_motion(const sccd_impact_body3 *b, sccd_real dt)
{
    if (b == NULL || !valid_body(b, INT_MAX) || !sccd_is_valid_real(dt) || dt < 0.0) {
        SCCD_ASSERT(b != NULL && valid_body(b, INT_MAX) && sccd_is_valid_real(dt) && dt >= 0.0);
        return still(sccd_xf3_identity(), (sccd_v3){0.0, 0.0, 0.0});
    }
    sccd_impact_body3 copy = *b; /* begin_state resets its results */
    body_state s;
    begin_state(&copy, &s, dt);
    return s.m;
}

/* The volume of convex shape g. */
static sccd_real bound_volume(const sccd_shape3 *g)
{
    switch (g->type) {
    case SCCD_SHAPE_CIRCLE:
        return 4.0 / 3.0 * SCCD_PI * g->sphere.r * g->sphere.r * g->sphere.r;
    case SCCD_SHAPE_CAPSULE:
        return SCCD_PI * g->capsule.r * g->capsule.r *
               (sccd_v3_dist(g->capsule.a, g->capsule.b) + 4.0 / 3.0 * g->capsule.r);
    default:
        return 8.0 * g->box.h.x * g->box.h.y * g->box.h.z;
    }
}

/* Whether sccd_impact3_centre_box may read b, s and dt: s's bounds valid
 * (none: a half-space), the pose's rotation unit, and every number it
 * reads finite, in one sum as valid_box3's (x − x is 0 for a finite x,
 * NaN otherwise): a debris cube's check took 150 instructions with a test
 * a vector. */
static bool centre_box_input(const sccd_impact_body3 *b, const sccd_impact_shape3 *s, sccd_real dt)
{
    bool bounds = s->bounds >= 0 && s->bounds <= SCCD_IMPACT_BOUNDS;
    for (int i = 0; bounds && i < s->bounds; ++i)
        bounds = valid_shape3(&s->bound[i]);
    sccd_v3 p = b->pose.p, c = b->cog, v = b->v, o = b->pivot;
    sccd_real zero = (p.x - p.x) + (p.y - p.y) + (p.z - p.z) + (c.x - c.x) + (c.y - c.y) + (c.z - c.z) + (v.x - v.x) +
                     (v.y - v.y) + (v.z - v.z) + (o.x - o.x) + (o.y - o.y) + (o.z - o.z) + (dt - dt);
    return bounds & (zero == 0.0) & valid_quat(b->pose.q) & (dt >= 0.0);
}

/* sccd_impact2_centre_box's twin: a body free of joints turns about its
 * pivot, which, when it is the centre of mass, runs from c0 to c0 + v·dt
 * (restart_state), so every point of s stays within ρ of that segment.
 * The solver turns its poses by the start's rotation made unit, so the
 * centre is placed by that too (by the rotation as given, a centre of mass
 * 100 from the origin was placed 9e-5 off); the growth covers a box's own
 * rotation's stretch (valid within 1e-6) and the rounding; each bound
 * holds the shape, so ρ is the least of their farthest distances from the
 * centre, and its volume at most the least of theirs.
 * Compact: that volume at least (4/3)·ρ³, a third (1/π) of the ball its
 * turn may sweep (a cube's is 1.15 times it, a ball's π times); a rotor
 * or a rod turning about one axis sweeps a flat disc, which only its
 * motion box follows. */
bool sccd_impact3_centre_box(const sccd_impact_body3 *b, const sccd_impact_shape3 *s, sccd_real dt, sccd_aabb3 *box)
{
    if (b == NULL || s == NULL || box == NULL || !centre_box_input(b, s, dt)) {
        SCCD_ASSERT(b != NULL && s != NULL && box != NULL && centre_box_input(b, s, dt));
        return false;
    }
    bool jointed = b->kind == SCCD_BODY_DYNAMIC && b->joint != SCCD_JOINT_NONE;
    if (jointed || s->bounds == 0 || b->pivot.x != b->cog.x || b->pivot.y != b->cog.y || b->pivot.z != b->cog.z)
        return false;
    sccd_real rho = INFINITY, volume = INFINITY;
    for (int i = 0; i < s->bounds; ++i) {
        rho = sccd_min(rho, sccd_shape3_farthest_unchecked(&s->bound[i], b->cog));
        volume = sccd_min(volume, bound_volume(&s->bound[i]));
    }
    if (!(4.0 / 3.0 * rho * rho * rho <= volume))
        return false;
    /* the centre where the solver puts it: its poses turn by the start's rotation made unit (pose_at) */
    sccd_xf3 start = {b->pose.p, sccd_quat_normalize(b->pose.q)};
    sccd_v3 c0 = sccd_xf3_apply(start, b->cog), c1 = b->kind == SCCD_BODY_STATIC ? c0 : sccd_v3_mad(c0, dt, b->v);
    sccd_v3 lo = sccd_v3_min(c0, c1), hi = sccd_v3_max(c0, c1);
    sccd_v3 far = sccd_v3_max(sccd_v3_abs(lo), sccd_v3_abs(hi));
    sccd_real magnitude = sccd_max(far.x, sccd_max(far.y, far.z)) + rho + sccd_v3_len(b->cog);
    if (!sccd_is_valid_real(magnitude)) /* past the doubles: the box would be NaN (inf - inf) */
        return false;
    sccd_real grow = rho * (1.0 + 2.0 * BOX_ROTATION_SLACK) + SCCD_EPS * magnitude;
    sccd_v3 g = {grow, grow, grow};
    *box = (sccd_aabb3){sccd_v3_sub(lo, g), sccd_v3_add(hi, g)};
    return true;
}

bool sccd_impact3_solve(sccd_impact_body3 *bodies, int body_count, const sccd_impact_shape3 *shapes, int shape_count,
                        sccd_real dt, const sccd_ccd_options *options, const sccd_impact_callbacks3 *callbacks,
                        sccd_impact_scratch *scratch, sccd_impact_stats *stats)
{
    bool valid = valid_input(bodies, body_count, shapes, shape_count, dt, options) && scratch != NULL;
    SCCD_ASSERT(valid);
    if (!valid) {
        for (int i = 0; bodies != NULL && i < body_count; ++i)
            keep_still(&bodies[i]);
        return false;
    }
    sccd_impact_stats local = {0};
    sccd_impact_callbacks3 none = {0};
    solver sv = {bodies, NULL, body_count, shapes, shape_count, {0}, NULL, dt, *options, callbacks ? *callbacks : none, stats ? stats : &local};
    bool ok = sccd_scratch_reserve(&scratch->bodies, &scratch->body_bytes, (size_t)body_count * sizeof(body_state)) &&
              sccd_scratch_reserve(&scratch->shapes, &scratch->shape_bytes, (size_t)shape_count * sizeof(shape_cache));
    ok = ok && sccd_shape_trees3_build(&sv.trees, &scratch->trees, &scratch->tree_bytes, bodies, 0, body_count, shapes, 0, shape_count);
    sv.st = scratch->bodies;
    sv.cache = scratch->shapes;
    for (int k = 0; ok && k < shape_count; ++k)
        sv.cache[k] = (shape_cache){.boxed = 0, .reached = 0}; /* none made: segments count from 1 */
    for (int i = 0; ok && i < body_count; ++i)
        begin_state(&bodies[i], &sv.st[i], dt);
    ok = ok && sccd_events_begin(&sv.events, &event_ops, &sv, body_count, scratch, sv.stats);
    for (int i = 0; ok && i < body_count; ++i) /* sv.bodies: the gather hook may move the arrays */
        if (sv.bodies[i].ccd && sv.bodies[i].kind != SCCD_BODY_STATIC)
            ok = sccd_events_activate(&sv.events, i, 0.0);
        else if (sv.bodies[i].struck && sv.bodies[i].kind == SCCD_BODY_DYNAMIC)
            ok = op_gather(&sv, i) && sccd_events_activate(&sv.events, i, 0.0);
    ok = ok && sccd_events_run(&sv.events);
    for (int i = 0; i < sv.n; ++i) { /* the bodies taken in mid-step too (sv.bodies: where the hook put them) */
        body_state free_motion, *s = ok ? &sv.st[i] : &free_motion; /* no memory: the free motions */
        if (!ok)
            begin_state(&sv.bodies[i], s, dt);
        else
            body_box(&sv, i); /* its last segment counts in `swept` */
        if (s->carrier >= 0)
            s->out_v = riding_velocity(&sv, i, 1.0);
        end_state(&sv.bodies[i], s);
        sv.bodies[i].flying = flying(&sv, i);
    }
    return ok;
}
