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
 * may reach, when the solver asks (gather_hook). The gathering is
 * sccd_ode_gather.c's. */
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

static int piece_order(const void *x, const void *y)
{
    const ode_piece *a = x, *b = y;
    if (a->key != b->key) /* by body, in the space's order (not by address: threads, runs) */
        return (a->key > b->key) - (a->key < b->key);
    return a->geom != b->geom ? (a->geom > b->geom) - (a->geom < b->geom) : (a->triangle > b->triangle) - (a->triangle < b->triangle);
}

/* Pieces sorted by insertion up to this many (a run of one rank, or a
 * question's few pieces); counted into ranks while the ranks are at most
 * PIECES_COUNTED times the pieces (sort_pieces). */
enum { PIECES_INSERTED = 16, PIECES_COUNTED = 64 };

/* Pieces p[0..n) by piece_order: by insertion when few, else qsort. */
static void sort_run(ode_piece *p, int n)
{
    if (n > PIECES_INSERTED) {
        qsort(p, (size_t)n, sizeof *p, piece_order);
        return;
    }
    for (int i = 1; i < n; ++i) {
        ode_piece x = p[i];
        int j = i;
        for (; j > 0 && piece_order(&p[j - 1], &x) > 0; --j)
            p[j] = p[j - 1];
        p[j] = x;
    }
}

/* Piece p's place in piece_order by its key alone, in [0, 2·ngeoms): a
 * static geom's (INT_MIN + geom) by its geom, before every moving body's
 * (its key, a geom's index). */
static int piece_rank(const sccd_ode_world *w, const ode_piece *p)
{
    return p->body == NULL ? p->geom : w->ngeoms + p->key;
}

/* The pieces from pieces[from] on in piece_order (each (geom, triangle)
 * once, so one order only). A step's pieces are counted into their ranks
 * (a stable counting sort, linear in the pieces and the geoms), then each
 * run of one rank (a body's several geoms, a static mesh's triangles) is
 * sorted on its own: qsort's calls took 1.4 % of the CCD of ccd_scale's
 * ODE 10,000 + 1,000. Few pieces (a question in the middle of the solve)
 * are sorted as one run, and so are they all when out of memory. */
static void sort_pieces(sccd_ode_world *w, int from)
{
    int n = w->npieces - from, ranks = 2 * w->ngeoms;
    if (n <= 1) /* none: maybe no array yet */
        return;
    ode_piece *p = w->pieces + from;
    if (n <= PIECES_INSERTED || ranks / PIECES_COUNTED > n ||
        !sccd_adapter_reserve((void **)&w->rank_start, &w->caprank, ranks + 1, sizeof *w->rank_start) ||
        !sccd_adapter_reserve((void **)&w->spare, &w->capspare, n, sizeof *w->spare)) {
        sort_run(p, n);
        return;
    }
    memset(w->rank_start, 0, (size_t)(ranks + 1) * sizeof *w->rank_start);
    for (int i = 0; i < n; ++i)
        ++w->rank_start[piece_rank(w, &p[i]) + 1];
    for (int r = 0; r < ranks; ++r) /* counts to first places */
        w->rank_start[r + 1] += w->rank_start[r];
    for (int i = 0; i < n; ++i)
        w->spare[w->rank_start[piece_rank(w, &p[i])]++] = p[i];
    memcpy(p, w->spare, (size_t)n * sizeof *p);
    for (int i = 0, end; i < n; i = end) {
        int r = piece_rank(w, &p[i]);
        for (end = i + 1; end < n && piece_rank(w, &p[end]) == r; ++end)
            ;
        sort_run(p + i, end - i);
    }
}

/* ---- the solve ---- */

/* The solver's bodies and shapes for the pieces from pieces[from] on,
 * sorted by body, each body once: appended to those made before (the
 * static pieces found later: a new static body). */
static bool build_solver(sccd_ode_world *w, int from)
{
    sort_pieces(w, from);
    if (!sccd_adapter_reserve((void **)&w->ib, &w->capib, w->npieces, sizeof *w->ib) ||
        !sccd_adapter_reserve((void **)&w->is, &w->capis, w->npieces, sizeof *w->is))
        return false;
    for (int i = from; i < w->npieces; ++i) {
        const ode_piece *p = &w->pieces[i];
        if (i == from || w->pieces[i - 1].key != p->key) {
            const ode_geom *e = &w->geoms[p->geom]; /* an active CCD body's record is made (gather_ccd) */
            bool made = e->ccd >= 0 && w->bodies[e->ccd].active;
            if (made)
                w->ib[w->nib] = w->bodies[e->ccd].solver;
            else
                sccd_ode_solver_body(w, p->body, e->body0, e->ccd, &w->ib[w->nib]);
            w->ib[w->nib].struck = p->body != NULL && sccd_adapter_map_get(&w->flying.now, p->body) >= 0;
            w->ib[w->nib++].first_shape = i;
        }
        ++w->ib[w->nib - 1].shape_count;
        sccd_ode_piece_shape(w, p, &w->is[i]);
        w->is[i].body = w->nib - 1;
    }
    return true;
}

/* What a question's box meets among the CCD bodies' regions: whether
 * one holds it, and the idle bodies that join the solve (ok: false out
 * of memory). */
typedef struct ode_regions_met { sccd_ode_world *w; sccd_aabb3 box; bool held, ok; } ode_regions_met;

static bool region_met(int id, void *context)
{
    ode_regions_met *m = context;
    ode_body *r = &m->w->bodies[m->w->region_body[id]];
    m->held |= sccd_adapter_box_holds(sccd_adapter_queries_box(&m->w->regions, id), m->box);
    m->ok = !r->idle || sccd_ode_join_idle(m->w, r);
    return m->ok;
}

/* The idle CCD bodies whose regions box meets join the solve (every one
 * for a box not finite, which meets everything); *held: whether a region
 * holds box (sccd_adapter_queries_hold). False out of memory. */
static bool ask_regions(sccd_ode_world *w, sccd_aabb3 box, bool *held)
{
    ode_regions_met m = {w, box, false, true};
    if (w->nidle == 0) {
        *held = sccd_adapter_queries_hold(&w->regions, box);
        return true;
    }
    if (sccd_is_valid_aabb3(box))
        sccd_adapter_queries_match(&w->regions, box, region_met, &m);
    for (int i = 0; m.ok && !sccd_is_valid_aabb3(box) && i < w->nbodies; ++i)
        m.ok = !w->bodies[i].idle || sccd_ode_join_idle(w, &w->bodies[i]);
    *held = m.held;
    return m.ok;
}

/* The solver's question in the middle of a solve: what a body an impact
 * set moving (or the fallback carried) may reach in the rest of the step,
 * and could pass through (sccd_adapter_keeps), gathered and appended: the
 * idle CCD bodies it meets first. A box within a CCD body's region holds
 * nothing its gathering (which kept everything) left out. */
static bool gather_hook(void *user, const sccd_impact_reach3 *reach, sccd_impact_set3 *set)
{
    sccd_ode_world *w = user;
    double t0 = sccd_adapter_lap_seconds();
    int from = w->npieces;
    bool held = false;
    bool ok = ask_regions(w, reach->box, &held) && (held ||
               sccd_ode_gather_reach(w, reach->box, (sccd_adapter_keep){reach->reach, reach->half, reach->fixed_only})) &&
              build_solver(w, from);
    *set = (sccd_impact_set3){w->ib, w->nib, w->is, w->npieces};
    w->asked_seconds += sccd_adapter_lap_seconds() - t0; /* the adapter's time, within the solve's */
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
    if (w->nib == 0) /* every CCD body idle, nothing struck */
        return true;
    sccd_impact_stats st = {0};
    w->asked_seconds = 0.0;
    double t0 = sccd_adapter_cpu_seconds();
    bool solved = sccd_impact3_solve(w->ib, w->nib, w->is, w->npieces, w->dt, &w->opt, &cb, &w->scratch, &st);
    w->cnt.solve_seconds += sccd_adapter_solve_seconds(t0, w->asked_seconds);
    SCCD_ADAPTER_ADD_SOLVE(w->cnt, st);
    return ODE_CHECK(w, solved, "sccd_ode: the impact solver refused this step's bodies or ran out of memory; CCD skipped");
}

/* Body k's results into ODE (see the top of the file). A jointed CCD body
 * the solver did not change keeps ODE's spin, its centre moving about the
 * joint. A body left flying is marked for the next step; false when that
 * is out of memory (the results are written all the same). */
static bool write_back(sccd_ode_world *w, int k)
{
    const sccd_impact_body3 *b = &w->ib[k];
    dBodyID body = w->pieces[b->first_shape].body;
    bool changed = b->kind == SCCD_BODY_DYNAMIC && (b->impacts > 0 || b->held);
    bool marked = !b->flying || sccd_adapter_map_add(&w->flying.next, body, 0) >= 0;
    if (b->kind == SCCD_BODY_STATIC || (!b->ccd && !changed))
        return marked;
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
    return marked;
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
    bool any = w->flying.now.count > 0; /* what the last step left flying is followed without a CCD body too */
    for (int i = 0; i < w->nbodies; ++i)
        any |= begin_body(w, &w->bodies[i]);
    if (any)
        w->dt = w->told_dt > 0.0 ? w->told_dt : step_length(w);
    bool marked = false;
    if (any && w->dt > 0.0) {
        bool ok = sccd_ode_gather_all(w) && solve(w);
        ODE_CHECK(w, ok, "sccd_ode: out of memory; CCD skipped this step");
        marked = ok;
        for (int k = 0; ok && k < w->nib; ++k)
            marked &= write_back(w, k);
        for (int i = 0; ok && i < w->nbodies; ++i) {
            w->cnt.idle += w->bodies[i].left_out && w->bodies[i].idle;
            w->cnt.joined += w->bodies[i].left_out && !w->bodies[i].idle;
        }
        ODE_CHECK(w, marked || !ok, "sccd_ode: out of memory; what this step's impacts left flying is not followed");
    }
    if (marked)
        sccd_adapter_flying_step(&w->flying);
    else
        sccd_adapter_flying_clear(&w->flying);
    ++w->cnt.steps;
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

