/* The CCD hook of the ODE adapter (sectorccd_ode.h, "CCD"): it translates
 * between ODE and the core's impact solver (impact.h), which owns every
 * decision about impacts.
 *
 * How it rides on the user's loop. before_step records the pose of every
 * body with a geom in the space. The user's collide and step follow: ODE
 * solves velocities with the contacts of its collision pass, then moves
 * every enabled body from the recorded pose by the velocity it keeps
 * (dxStepBody): p += v·dt, and a turn θ about ω with tan(θ/2) = |ω|·dt/2
 * (its default) or θ = |ω|·dt (finite rotation mode, π or more too).
 *
 * after_step hands that step to sccd_impact3_solve. Every body starts at
 * its recorded pose with the velocity whose free motion in the core (the
 * centre of mass by v·dt, a turn of |ω|·dt about ω) lands where ODE put it;
 * a hinge or ball joint to the world is the core's joint. The solver moves
 * the bodies through the step and resolves, in time order, the impacts ODE's
 * step passed over. A body it changed (an impulse, or the fallback) gets its
 * end pose and velocity; a CCD body its end pose (a jointed one stays on its
 * joint, where ODE's p += v·dt leaves it along the tangent); the others keep
 * ODE's.
 *
 * What the solver sees: the CCD bodies and every geom their motions may
 * reach; then, as in the Chipmunk adapter, what a body an impact set moving
 * may reach, when the solver asks (gather_hook). */
#include <stdlib.h>
#include <string.h>

#include "sccd_ode_internal.h"

static void set_body_pose(dBodyID b, sccd_xf3 x)
{
    x.q = sccd_quat_normalize(x.q);
    dQuaternion q = {x.q.w, x.q.x, x.q.y, x.q.z};
    dBodySetPosition(b, x.p.x, x.p.y, x.p.z);
    dBodySetQuaternion(b, q);
}

static sccd_aabb3 aabb_grow(sccd_aabb3 b, sccd_real d)
{
    sccd_v3 g = {d, d, d};
    return (sccd_aabb3){sccd_v3_sub(b.lo, g), sccd_v3_add(b.hi, g)};
}

/* Whether the half-space n·x ≤ d reaches box b. */
static bool plane_reaches(sccd_plane p, sccd_aabb3 b)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(b.lo, b.hi), 0.5), h = sccd_v3_scale(sccd_v3_sub(b.hi, b.lo), 0.5);
    return sccd_v3_dot(p.n, c) - sccd_v3_dot(sccd_v3_abs(p.n), h) <= p.d;
}

/* ---- the step's motion, read from ODE's integration ---- */

/* The turn about ω's direction that takes orientation q0 to q1, in [0, 2π). */
static sccd_real turn_about(sccd_quat q0, sccd_quat q1, sccd_v3 axis)
{
    sccd_quat d = sccd_quat_mul(q1, sccd_quat_conj(q0));
    sccd_real a = 2.0 * atan2(d.x * axis.x + d.y * axis.y + d.z * axis.z, d.w);
    return a < 0.0 ? a + 2.0 * SCCD_PI : a;
}

/* The step length read from the body that turned farthest (none moved):
 * ODE's default step turns by 2·atan(|ω|·dt/2), finite rotation mode by
 * |ω|·dt up to whole turns (the count nearest the last step's length). The
 * last length when none turned. */
static sccd_real step_length_by_turn(const sccd_ode_world *w)
{
    sccd_real turned = 0.0, by_turn = w->dt;
    for (int k = 0; k < w->ngeoms; ++k) {
        dBodyID b = w->geoms[k].body;
        if (b == NULL || w->geoms[k].key != k || !dBodyIsEnabled(b))
            continue;
        sccd_v3 om = sccd_ode_v3(dBodyGetAngularVel(b));
        sccd_real spin = sccd_v3_len(om);
        sccd_real turn = spin > 0.0 ? turn_about(w->geoms[k].body0.q, sccd_ode_body_pose(b).q, sccd_v3_scale(om, 1.0 / spin)) : 0.0;
        if (!(turn > turned))
            continue;
        turned = turn;
        if (!dBodyGetFiniteRotationMode(b)) {
            by_turn = 2.0 * tan(0.5 * turn) / spin;
            continue;
        }
        sccd_real laps = w->dt > 0.0 ? sccd_max(round((spin * w->dt - turn) / (2.0 * SCCD_PI)), 0.0) : 0.0;
        by_turn = (turn + 2.0 * SCCD_PI * laps) / spin;
    }
    return by_turn;
}

/* ODE keeps no step length, but its integration moved each enabled body by
 * the velocity it still has: the step length is read from the body that
 * moved farthest (p += v·dt), or when none moved, from the one that turned
 * farthest (finite rotation mode knows its turn up to whole turns: the
 * count nearest the last step's length). The last length when neither. */
static sccd_real step_length(const sccd_ode_world *w)
{
    sccd_real moved = 0.0, by_move = 0.0;
    for (int k = 0; k < w->ngeoms; ++k) {
        dBodyID b = w->geoms[k].body;
        if (b == NULL || w->geoms[k].key != k || !dBodyIsEnabled(b)) /* each body once, at its first geom */
            continue;
        sccd_v3 v = sccd_ode_v3(dBodyGetLinearVel(b)), d = sccd_v3_sub(sccd_ode_v3(dBodyGetPosition(b)), w->geoms[k].body0.p);
        sccd_real along = sccd_v3_dot(d, v), len = sccd_v3_len(d);
        if (len > moved && along > 0.0) {
            moved = len;
            by_move = along / sccd_v3_len2(v);
        }
    }
    sccd_real dt = moved > 0.0 ? by_move : step_length_by_turn(w);
    return sccd_is_valid_real(dt) && dt > 0.0 ? dt : w->dt;
}

/* The velocity whose free motion in the core takes body b from pose x0 to
 * its pose now: the centre of mass' displacement over dt, and the turn ODE
 * made about ω: the short way by default (less than π), |ω|·dt about ω in
 * finite rotation mode while ω still makes that turn (no finite rotation
 * axis, not set since the step). */
void sccd_ode_step_velocity(const sccd_ode_world *w, dBodyID b, sccd_xf3 x0, sccd_v3 *v, sccd_v3 *om)
{
    sccd_xf3 x1 = sccd_ode_body_pose(b);
    sccd_motion3 m = sccd_motion3_between(x0, x1, (sccd_v3){0.0, 0.0, 0.0});
    *v = sccd_v3_scale(m.dp, 1.0 / w->dt);
    *om = sccd_v3_scale(m.axis, m.angle / w->dt);
    dVector3 fixed;
    dBodyGetFiniteRotationAxis(b, fixed);
    if (!dBodyGetFiniteRotationMode(b) || fixed[0] != 0.0 || fixed[1] != 0.0 || fixed[2] != 0.0)
        return;
    sccd_v3 wo = sccd_ode_v3(dBodyGetAngularVel(b));
    sccd_quat q = sccd_quat_mul(sccd_quat_axis_angle(sccd_v3_normalize(wo), sccd_v3_len(wo) * w->dt), x0.q);
    if (fabs(q.x * x1.q.x + q.y * x1.q.y + q.z * x1.q.z + q.w * x1.q.w) > 1.0 - 1e-12)
        *om = wo;
}

/* The core's free motion of body b over the step (a jointed one turns about its joint). */
static sccd_motion3 free_motion(const sccd_impact_body3 *b, sccd_real dt)
{
    if (b->joint == SCCD_JOINT_NONE)
        return sccd_motion3_from_velocity(b->pose, b->cog, b->v, b->w, dt);
    sccd_v3 om = b->w, axis = sccd_v3_normalize(sccd_quat_apply(b->pose.q, b->axis));
    if (b->joint == SCCD_JOINT_HINGE)
        om = sccd_v3_scale(axis, sccd_v3_dot(om, axis));
    return sccd_motion3_from_velocity(b->pose, b->hinge, (sccd_v3){0.0, 0.0, 0.0}, om, dt);
}

/* ---- after_step: gathering what the moving bodies may reach ---- */

/* How far a point of body b at distance rho from its centre of mass may be
 * from where it is now, over the motion the core gives it this step (from
 * pose x0): |Δc| + 2ρ·sin(θ/2) for its turn θ. By default ODE turned it the
 * short way, and sin(θ/2) is the length of the vector part of q1·q0⁻¹;
 * finite rotation mode may turn it by π or more (sccd_ode_step_velocity):
 * 2ρ then. */
static sccd_real body_margin(const sccd_ode_world *w, dBodyID b, sccd_xf3 x0, sccd_real rho)
{
    sccd_xf3 x1 = sccd_ode_body_pose(b);
    sccd_real half_turn_sin = 1.0;
    if (!dBodyGetFiniteRotationMode(b)) {
        sccd_quat d = sccd_quat_mul(x1.q, sccd_quat_conj(x0.q));
        half_turn_sin = sccd_min(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), 1.0);
    } else {
        sccd_v3 v, om;
        sccd_ode_step_velocity(w, b, x0, &v, &om);
        sccd_real turn = sccd_v3_len(om) * w->dt;
        half_turn_sin = turn < SCCD_PI ? sin(0.5 * turn) : 1.0;
    }
    return sccd_v3_dist(x1.p, x0.p) + 2.0 * rho * half_turn_sin;
}

/* Where geom e may be this step: its box now grown by how far its points
 * moved (body_margin, ρ bounding a point's distance from the centre of
 * mass). Planes and meshes are usable as they are; whether the core takes
 * another geom's shape is checked when it is first gathered (geom_usable):
 * most geoms of a big world are never near a CCD body. */
static void prepare_geom(const sccd_ode_world *w, ode_geom *e)
{
    int cls = dGeomGetClass(e->geom);
    e->plane = cls == dPlaneClass;
    e->reached = false;
    e->in_solve = false;
    e->marks = -1;
    e->checked = cls == dPlaneClass || cls == dTriMeshClass;
    e->half = cls == dPlaneClass ? INFINITY : 0.0; /* a mesh's triangles: no thickness */
    e->margin = 0.0;
    e->usable = cls == dPlaneClass || cls != dTriMeshClass || dGeomTriMeshGetTriMeshDataID(e->geom) != NULL;
    if (cls == dPlaneClass)
        return;
    if (!e->usable) { /* a mesh without data: ODE itself would crash making its box; it meets nothing */
        e->reach = sccd_adapter_empty_box();
        return;
    }
    dReal a[6];
    dGeomGetAABB(e->geom, a);
    sccd_aabb3 box = {{a[0], a[2], a[4]}, {a[1], a[3], a[5]}};
    e->margin = 0.0;
    if (e->body != NULL) {
        sccd_v3 c1 = sccd_ode_v3(dBodyGetPosition(e->body));
        sccd_real rho = sccd_v3_dist(sccd_v3_scale(sccd_v3_add(box.lo, box.hi), 0.5), c1) + 0.5 * sccd_v3_dist(box.lo, box.hi);
        e->margin = body_margin(w, e->body, e->body0, rho);
    }
    e->reach = aabb_grow(box, e->margin);
    e->usable = sccd_is_valid_aabb3(e->reach);
}

/* Whether the core takes geom e (prepare_geom; a shape of a class it has,
 * with finite sizes), checked once a step. */
static bool geom_usable(ode_geom *e)
{
    if (!e->checked) {
        sccd_impact_shape3 s;
        e->checked = true;
        e->usable = e->usable && sccd_ode_geom_shape(e->geom, sccd_xf3_identity(), &s);
        e->half = INFINITY;
        for (int i = 0; e->usable && i < s.bounds; ++i) {
            e->usable = sccd_is_valid_shape3(&s.bound[i]);
            e->half = e->usable ? sccd_min(e->half, sccd_shape3_half_thickness(&s.bound[i])) : 0.0;
        }
    }
    return e->usable;
}

bool sccd_ode_add_piece(sccd_ode_world *w, int geom, int triangle)
{
    if (!sccd_adapter_reserve((void **)&w->pieces, &w->cappieces, w->npieces + 1, sizeof *w->pieces))
        return false;
    w->pieces[w->npieces++] = (ode_piece){w->geoms[geom].body, w->geoms[geom].key, geom, triangle};
    return true;
}

/* Room for mesh geom k's triangle marks (cleared), once a step. */
static bool mark_room(sccd_ode_world *w, ode_geom *e)
{
    if (e->marks >= 0)
        return true;
    int n = dGeomTriMeshGetTriangleCount(e->geom);
    if (!sccd_adapter_reserve((void **)&w->marks, &w->capmarks, w->nmarks + n, 1))
        return false;
    memset(w->marks + w->nmarks, 0, (size_t)n);
    e->marks = w->nmarks;
    w->nmarks += n;
    return true;
}

/* The triangles of static mesh geom k that may be in box this step, each
 * once. */
static bool gather_mesh(sccd_ode_world *w, int k, sccd_aabb3 box)
{
    ode_geom *e = &w->geoms[k];
    if (!mark_room(w, e))
        return false;
    int n = dGeomTriMeshGetTriangleCount(e->geom);
    for (int i = 0; i < n; ++i) {
        if (w->marks[e->marks + i])
            continue;
        sccd_triangle t = sccd_ode_triangle(e->geom, i);
        sccd_aabb3 tb = {sccd_v3_min(t.a, sccd_v3_min(t.b, t.c)), sccd_v3_max(t.a, sccd_v3_max(t.b, t.c))};
        if (!sccd_adapter_boxes_meet(aabb_grow(tb, e->margin), box))
            continue;
        if (!sccd_ode_add_piece(w, k, i))
            return false;
        w->marks[e->marks + i] = 1;
    }
    return true;
}

/* Geom k whole: every triangle of a mesh (one that cannot be used, e.g.
 * not finite, is counted and left out). */
static bool gather_whole(sccd_ode_world *w, int k)
{
    ode_geom *e = &w->geoms[k];
    bool mesh = dGeomGetClass(e->geom) == dTriMeshClass;
    if (mesh && sccd_ode_mesh_problem(e->geom) != NULL) {
        e->usable = false;
        ++w->cnt.unsupported;
        return true;
    }
    int n = mesh ? dGeomTriMeshGetTriangleCount(e->geom) : 1;
    for (int i = 0; i < n; ++i)
        if (!sccd_ode_add_piece(w, k, mesh ? i : -1))
            return false;
    e->in_solve = true;
    return true;
}

/* Geom k (a static mesh: its triangles in box), if keep keeps it
 * (sccd_adapter_keeps); a moving body comes whole (every geom the core
 * takes): the solver's body is all of it, and a geom found later could not
 * join it in the middle of a solve. Classes the core lacks are counted. */
static bool gather_geom(sccd_ode_world *w, int k, sccd_aabb3 box, sccd_adapter_keep keep)
{
    ode_geom *e = &w->geoms[k];
    bool usable = geom_usable(e);
    w->cnt.unsupported += !usable && !e->reached;
    e->reached = true;
    if (!usable || e->in_solve || !sccd_adapter_keeps(keep, e->margin, e->half))
        return true;
    if (e->body == NULL)
        return dGeomGetClass(e->geom) == dTriMeshClass ? gather_mesh(w, k, box) : gather_whole(w, k);
    for (int g = e->key; g >= 0; g = w->geoms[g].next)
        if (!w->geoms[g].in_solve && geom_usable(&w->geoms[g]) && !gather_whole(w, g))
            return false;
    return true;
}

/* A query box of the step: the geoms that may be in it this step and that
 * `keep` keeps are gathered (gather_queries). */
static bool gather_box(sccd_ode_world *w, sccd_aabb3 box, sccd_adapter_keep keep)
{
    if (!sccd_adapter_reserve((void **)&w->keep, &w->capkeep, w->queries.count + 1, sizeof *w->keep))
        return false;
    int i = sccd_adapter_queries_add(&w->queries, box);
    if (i >= 0)
        w->keep[i] = keep;
    return i >= 0;
}

/* A geom being matched against the query boxes. */
typedef struct ode_match { sccd_ode_world *w; int geom; } ode_match;

static bool gather_met(int i, void *context)
{
    const ode_match *m = context;
    return gather_geom(m->w, m->geom, m->w->queries.box[i], m->w->keep[i]);
}

/* Match every geom but the active CCD bodies' (gathered whole) against the
 * step's query boxes, then drop the boxes: one pass over the geoms, not one
 * per box. A plane meets the boxes its half-space reaches, any other geom
 * those its reach box meets. */
static bool gather_queries(sccd_ode_world *w)
{
    bool ok = true;
    for (int k = 0; ok && k < w->ngeoms && w->queries.count > 0; ++k) {
        const ode_geom *e = &w->geoms[k];
        if ((e->ccd >= 0 && w->bodies[e->ccd].active) || !e->usable) /* not usable: a reach box that is not finite meets nothing */
            continue;
        if (e->plane) {
            sccd_plane p = sccd_ode_plane(e->geom);
            for (int i = 0; ok && i < w->queries.count; ++i)
                ok = !plane_reaches(p, w->queries.box[i]) || gather_geom(w, k, w->queries.box[i], w->keep[i]);
        } else {
            ode_match m = {w, k};
            ok = sccd_adapter_queries_match(&w->queries, e->reach, gather_met, &m);
        }
    }
    sccd_adapter_queries_clear(&w->queries);
    return ok;
}

/* CCD body geom k's pieces and *box, what its motion m covers: 1; 0 when
 * the core cannot use it (counted); -1 out of memory. */
static int gather_ccd_geom(sccd_ode_world *w, int k, sccd_motion3 m, sccd_aabb3 *box)
{
    sccd_impact_shape3 s;
    ode_geom *e = &w->geoms[k];
    if (dGeomGetClass(e->geom) == dTriMeshClass)
        return sccd_ode_mesh_gather_ccd(w, k, m, box);
    if (!geom_usable(e) || !sccd_ode_geom_shape(e->geom, sccd_ode_geom_offset(e->geom), &s)) {
        ++w->cnt.unsupported;
        return 0;
    }
    *box = sccd_shape3_motion_box(&s.bound[0], m);
    return sccd_ode_add_piece(w, k, -1) ? 1 : -1;
}

/* The active CCD bodies' geoms (a mesh triangle by triangle; a class the
 * core lacks is counted) and the box each body's free motion covers, in one
 * pass over the geoms. */
static bool gather_ccd(sccd_ode_world *w)
{
    for (int i = 0; i < w->nbodies; ++i) {
        ode_body *r = &w->bodies[i];
        if (!r->active)
            continue;
        sccd_impact_body3 b = sccd_ode_solver_body(w, r->body, r->start, i);
        r->motion = free_motion(&b, w->dt);
        r->usable = false;
    }
    for (int k = 0; k < w->ngeoms; ++k) {
        const ode_geom *e = &w->geoms[k];
        if (e->ccd < 0 || !w->bodies[e->ccd].active)
            continue;
        ode_body *r = &w->bodies[e->ccd];
        sccd_aabb3 box;
        int got = gather_ccd_geom(w, k, r->motion, &box);
        if (got < 0)
            return false;
        if (got == 0)
            continue;
        w->geoms[k].in_solve = true;
        r->region = r->usable ? sccd_aabb3_union(r->region, box) : box;
        r->usable = true;
    }
    return true;
}

static bool gather_all(sccd_ode_world *w)
{
    w->npieces = 0;
    w->nmarks = 0;
    w->geoms_indexed = false;
    sccd_adapter_queries_clear(&w->queries); /* left by a step that failed */
    for (int k = 0; k < w->ngeoms; ++k)
        prepare_geom(w, &w->geoms[k]);
    if (!gather_ccd(w))
        return false;
    for (int i = 0; i < w->nbodies; ++i)
        if (w->bodies[i].active && w->bodies[i].usable &&
            !gather_box(w, aabb_grow(w->bodies[i].region, 2.0 * w->opt.overlap), (sccd_adapter_keep){0.0, INFINITY}))
            return false;
    return gather_queries(w);
}

static int piece_order(const void *x, const void *y)
{
    const ode_piece *a = x, *b = y;
    if (a->key != b->key) /* by body, in the space's order (not by address: threads, runs) */
        return (a->key > b->key) - (a->key < b->key);
    return a->geom != b->geom ? (a->geom > b->geom) - (a->geom < b->geom) : (a->triangle > b->triangle) - (a->triangle < b->triangle);
}

/* ---- the solve ---- */

/* The solver's bodies and shapes for the pieces from pieces[from] on,
 * sorted by body, each body once: appended to those made before (the
 * static pieces found later: a new static body). */
static bool build_solver(sccd_ode_world *w, int from)
{
    qsort(w->pieces + from, (size_t)(w->npieces - from), sizeof *w->pieces, piece_order);
    if (!sccd_adapter_reserve((void **)&w->ib, &w->capib, w->npieces, sizeof *w->ib) ||
        !sccd_adapter_reserve((void **)&w->is, &w->capis, w->npieces, sizeof *w->is))
        return false;
    for (int i = from; i < w->npieces; ++i) {
        const ode_piece *p = &w->pieces[i];
        if (i == from || w->pieces[i - 1].key != p->key) {
            const ode_geom *e = &w->geoms[p->geom];
            w->ib[w->nib] = sccd_ode_solver_body(w, p->body, e->body0, e->ccd);
            w->ib[w->nib++].first_shape = i;
        }
        ++w->ib[w->nib - 1].shape_count;
        w->is[i] = sccd_ode_piece_shape(w, p);
        w->is[i].body = w->nib - 1;
    }
    return true;
}

/* The geoms' reach boxes indexed (the planes listed), once a step at the
 * solver's first question. */
static bool index_geoms(sccd_ode_world *w)
{
    if (w->geoms_indexed)
        return true;
    sccd_adapter_sorted_clear(&w->geomq);
    w->nplanes = 0;
    for (int k = 0; k < w->ngeoms; ++k) {
        const ode_geom *e = &w->geoms[k];
        if ((e->ccd >= 0 && w->bodies[e->ccd].active) || !e->usable)
            continue;
        if (e->plane) {
            if (!sccd_adapter_reserve((void **)&w->planes, &w->capplanes, w->nplanes + 1, sizeof *w->planes))
                return false;
            w->planes[w->nplanes++] = k;
            continue;
        }
        int q = sccd_adapter_sorted_add(&w->geomq, e->reach);
        if (q < 0 || !sccd_adapter_reserve((void **)&w->geomq_geom, &w->capgeomq, q + 1, sizeof *w->geomq_geom))
            return false;
        w->geomq_geom[q] = k;
    }
    w->geoms_indexed = sccd_adapter_sorted_build(&w->geomq);
    return w->geoms_indexed;
}

/* A solver's question being answered (gather_hook). */
typedef struct ode_reach { sccd_ode_world *w; sccd_aabb3 box; sccd_adapter_keep keep; } ode_reach;

static bool reach_met(int q, void *context)
{
    const ode_reach *r = context;
    return gather_geom(r->w, r->w->geomq_geom[q], r->box, r->keep);
}

/* The solver's question in the middle of a solve: what a body an impact
 * set moving (or the fallback carried) may reach in the rest of the step,
 * and could pass through (sccd_adapter_keeps), gathered and appended. */
static bool gather_hook(void *user, const sccd_impact_reach3 *reach, sccd_impact_set3 *set)
{
    sccd_ode_world *w = user;
    double t0 = sccd_adapter_cpu_seconds();
    int from = w->npieces;
    ode_reach r = {w, reach->box, {reach->reach, reach->half}};
    bool ok = index_geoms(w);
    for (int i = 0; ok && i < w->nplanes; ++i)
        ok = !plane_reaches(sccd_ode_plane(w->geoms[w->planes[i]].geom), r.box) || gather_geom(w, w->planes[i], r.box, r.keep);
    ok = ok && sccd_adapter_sorted_match(&w->geomq, r.box, reach_met, &r) && build_solver(w, from);
    *set = (sccd_impact_set3){w->ib, w->nib, w->is, w->npieces};
    w->cnt.solve_seconds -= sccd_adapter_cpu_seconds() - t0; /* the adapter's time, within the solve's */
    return ok;
}

/* Solve the step: the solver asks (gather_hook) for what the bodies its
 * impacts set moving may reach. */
static bool solve(sccd_ode_world *w)
{
    sccd_impact_callbacks3 cb = sccd_ode_callbacks(w);
    cb.gather = gather_hook;
    w->nib = 0;
    if (!build_solver(w, 0))
        return false;
    sccd_impact_stats st = {0};
    double t0 = sccd_adapter_cpu_seconds();
    bool solved = sccd_impact3_solve(w->ib, w->nib, w->is, w->npieces, w->dt, &w->opt, &cb, &w->scratch, &st);
    w->cnt.solve_seconds += sccd_adapter_cpu_seconds() - t0;
    w->cnt.candidates += (uint64_t)st.candidates;
    w->cnt.tois += (uint64_t)st.tois;
    w->cnt.impacts += (uint64_t)st.impacts;
    w->cnt.held += (uint64_t)st.held;
    w->cnt.overlapped += (uint64_t)st.overlapped;
    w->cnt.failed += (uint64_t)st.failed;
    return ODE_CHECK(w, solved, "sccd_ode: the impact solver refused this step's bodies or ran out of memory; CCD skipped");
}

/* Body k's results into ODE (see the top of the file). A jointed CCD body
 * the solver did not change keeps ODE's spin, its centre moving about the
 * joint. */
static void write_back(sccd_ode_world *w, int k)
{
    const sccd_impact_body3 *b = &w->ib[k];
    dBodyID body = w->pieces[b->first_shape].body;
    bool changed = b->kind == SCCD_BODY_DYNAMIC && (b->impacts > 0 || b->held);
    if (b->kind == SCCD_BODY_STATIC || (!b->ccd && !changed))
        return;
    set_body_pose(body, b->end_pose);
    w->cnt.clamps += changed;
    if (changed) {
        sccd_v3 om = b->end_w; /* the spin the impact gave, as any body keeps it (ODE's default step then turns it by 2·atan(|ω|·dt/2), as it would without the CCD) */
        if (!dBodyIsEnabled(body)) /* on an enabled body it would restart the auto-disable count */
            dBodyEnable(body);
        dBodySetLinearVel(body, b->end_v.x, b->end_v.y, b->end_v.z);
        dBodySetAngularVel(body, om.x, om.y, om.z);
    } else if (b->joint != SCCD_JOINT_NONE) {
        sccd_v3 hinge = sccd_xf3_apply(b->pose, b->hinge), r = sccd_v3_sub(sccd_xf3_apply(b->end_pose, b->cog), hinge);
        sccd_v3 v = sccd_v3_cross(sccd_ode_v3(dBodyGetAngularVel(body)), r);
        dBodySetLinearVel(body, v.x, v.y, v.z);
    }
}

/* Whether CCD body r takes part this step; a NaN pose puts it back at its start, at rest. */
static bool begin_body(sccd_ode_world *w, ode_body *r)
{
    r->active = dBodyIsEnabled(r->body) != 0;
    if (r->active && !ODE_CHECK(w, sccd_is_valid_xf3(sccd_ode_body_pose(r->body)), "sccd_ode: a CCD body's pose is not finite; put back at rest")) {
        set_body_pose(r->body, r->start);
        dBodySetLinearVel(r->body, 0.0, 0.0, 0.0);
        dBodySetAngularVel(r->body, 0.0, 0.0, 0.0);
        r->active = false;
    }
    return r->active;
}

void sccd_ode_after_step(sccd_ode_world *w)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_after_step: NULL world") ||
        !ODE_CHECK(w, w->scanned, "sccd_ode_after_step: call sccd_ode_before_step before the step"))
        return;
    double t_start = sccd_adapter_cpu_seconds();
    w->scanned = false;
    bool any = false;
    for (int i = 0; i < w->nbodies; ++i)
        any |= begin_body(w, &w->bodies[i]);
    if (any)
        w->dt = step_length(w);
    if (any && w->dt > 0.0) {
        bool ok = gather_all(w) && solve(w);
        ODE_CHECK(w, ok, "sccd_ode: out of memory; CCD skipped this step");
        for (int k = 0; ok && k < w->nib; ++k)
            write_back(w, k);
    }
    ++w->cnt.steps;
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

