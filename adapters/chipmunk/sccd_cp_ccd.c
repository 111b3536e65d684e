/* The CCD hook of the Chipmunk2D adapter (sectorccd_chipmunk.h, "CCD"): it
 * translates between Chipmunk and the core's impact solver (impact.h),
 * which owns every decision about impacts.
 *
 * How it rides on cpSpaceStep (Chipmunk 7.0: cpSpaceStep.c): the step calls
 * every awake non-static body's position_func in the order of
 * space->dynamicBodies, then updates the shapes' boxes and finds contacts
 * between overlapping shapes, then solves velocities. While positions are
 * integrated the shapes' boxes are still those of the previous step, i.e. of
 * the start poses.
 *
 * The first CCD body whose position_func runs in a step (or, first in the
 * array, a body the last step left flying: sccd_cp_world.c) runs the whole
 * CCD phase: it integrates every CCD body with the position function it had
 * before (so a custom one is respected: the core gets the velocities that
 * reproduce its result), gathers what their motions may reach
 * (sccd_cp_gather.c), hands the lot to sccd_impact2_solve and writes the poses
 * and velocities back. Bodies after it in the array have not moved yet
 * ("pending": the solver moves them from where they are by their velocity
 * and bias, and they get the pose from which their own integration lands on
 * the solver's); bodies before it have (their start is their end pose less
 * their velocity times dt: the bias they moved by is gone, unseen). A
 * post-step callback moves the CCD bodies to the start of the array so that
 * every other body is pending: kept at the end, a ball pinned between a
 * motorised blade and a wall was pushed out of the wall into the blade by
 * its bias before every solve, a quarter unit a step, and sank through the
 * blade in 44 steps (scene fuzzer, Chipmunk, 1 scene in 100,000).
 *
 * Every impact the solver resolves reaches the game as a Chipmunk contact
 * does: an arbiter made for it calls the pair's begin, pre-solve, post-solve
 * and separate handlers in that step (begin or pre-solve returning false:
 * the pair passes, as in Chipmunk). The pair leaves the impact separating,
 * so Chipmunk adds no bounce of its own. */
#include <string.h>

#include "sccd_cp_internal.h"

static bool is_pending(const sccd_cp_world *w, const cpBody *body) { return sccd_adapter_map_get(&w->moved, body) < 0; }

/* ---- the bodies taking part ---- */

/* Index of body in the dynamic body array, searched from the start (the CCD
 * bodies are kept there); -1 when absent. */
static int dynamic_index(cpSpace *space, const cpBody *body)
{
    cpArray *arr = space->dynamicBodies;
    for (int i = 0; i < arr->num; ++i)
        if (arr->arr[i] == body)
            return i;
    return -1;
}

/* Mark the CCD bodies taking part (those in the array from `first` on) and
 * list the non-CCD bodies before it, which have moved already. */
static bool collect(sccd_cp_world *w, const cpBody *first)
{
    cpArray *arr = w->space->dynamicBodies;
    int k = dynamic_index(w->space, first);
    sccd_adapter_map_clear(&w->moved);
    for (int i = 0; i < w->nrec; ++i)
        w->recs[i].active = false;
    for (int i = 0; i < (k < 0 ? arr->num : k); ++i)
        if (sccd_adapter_map_add(&w->moved, arr->arr[i], 0) < 0)
            return false;
    /* The position function tells most bodies at once; past the last
     * record's body (the CCD bodies are kept first) nothing is left to find. */
    for (int i = k < 0 ? arr->num : k, found = 0; i < arr->num && found < w->nrec; ++i) {
        cp_body_rec *r = sccd_cp_enabled_rec(w, arr->arr[i]);
        if (r != NULL) {
            r->active = true;
            ++found;
        }
    }
    return true;
}

/* ---- the solver's bodies ---- */

/* Put the body's origin at origin, turned by angle: its centre of gravity
 * (Chipmunk's p), angle and the transform its shapes are placed by
 * (Chipmunk's cpTransform, the rotation's columns then the translation),
 * written as its own integration writes them; velocities and bias are
 * kept, so a pending body still spends its bias when its integration runs.
 * Not cpBodySetPosition and cpBodySetAngle: they wake the body and reset
 * the idle time of all it touches, so a resting CCD body, and whatever
 * rested on it, never fell asleep. Not cpBodyUpdatePosition moved by a
 * velocity that lands there either: with its checks that cost 4 % of the
 * CCD of ccd_scale's 1,000 + 100 debris rain (callgrind). */
static void set_pose(cpBody *body, sccd_v2 origin, cpFloat angle)
{
    sccd_rot2 rot = sccd_rot2_make(angle);
    body->p = cpv_of(sccd_v2_add(origin, sccd_rot2_apply(rot, v2_of(body->cog))));
    body->a = angle;
    body->transform = cpTransformNew(rot.c, rot.s, -rot.s, rot.c, origin.x, origin.y);
}

/* The body's pose from the transform Chipmunk places its shapes by (its
 * columns hold the angle's cosine and sine: no trig). */
static sccd_xf2 body_xf(const cpBody *body)
{
    cpTransform t = body->transform;
    return (sccd_xf2){{t.tx, t.ty}, {t.a, t.b}};
}

static cp_place place_of(const cpBody *body) { return (cp_place){body->p, body->a, body->transform}; }

/* Put the body back where it was (as set_pose, but exactly, and no trig). */
static void put_back(cpBody *body, cp_place at)
{
    body->p = at.p;
    body->a = at.a;
    body->transform = at.xf;
}

/* Body origin of the pose whose centre of gravity is at p and angle a. */
static sccd_v2 origin_for(const cpBody *body, sccd_v2 p, sccd_real a)
{
    return sccd_v2_sub(p, sccd_rot2_apply(sccd_rot2_make(a), v2_of(body->cog)));
}

/* A hinge: a pivot joint to a static body. A simple motor to a static body
 * with unbounded force holds the turn (the hinged body then takes no
 * impulse: infinite inertia). */
static void find_hinge(cpBody *b, sccd_impact_body2 *out)
{
    CP_BODY_FOREACH_CONSTRAINT(b, c)
    {
        cpBody *other = c->a == b ? c->b : c->a;
        if (cpBodyGetType(other) != CP_BODY_TYPE_STATIC)
            continue;
        if (cpConstraintIsPivotJoint(c)) {
            out->hinged = true;
            out->hinge = v2_of(c->a == b ? cpPivotJointGetAnchorA(c) : cpPivotJointGetAnchorB(c));
        } else if (cpConstraintIsSimpleMotor(c) && cpConstraintGetMaxForce(c) == INFINITY) {
            out->inv_inertia = 0.0;
        }
    }
}

/* Body b as the solver sees it, from its pose and velocity at the start,
 * made where it goes (returned, the solver's body of some 250 bytes was
 * copied twice on its way into the arrays: 0.5 % of the CCD of the 1,000 +
 * 100 debris rain). */
static void solver_body(sccd_impact_body2 *out, cpBody *b, sccd_xf2 start, sccd_real angle, sccd_v2 v, sccd_real om)
{
    cpBodyType type = cpBodyGetType(b);
    *out = (sccd_impact_body2){
        .kind = type == CP_BODY_TYPE_STATIC ? SCCD_BODY_STATIC : type == CP_BODY_TYPE_KINEMATIC ? SCCD_BODY_KINEMATIC : SCCD_BODY_DYNAMIC,
        .pose = start, .angle = angle, .cog = v2_of(b->cog), .v = v, .w = om, .pivot = v2_of(b->cog)};
    if (out->kind == SCCD_BODY_DYNAMIC) {
        out->inv_mass = sccd_is_valid_real(b->m_inv) ? b->m_inv : 0.0;
        out->inv_inertia = sccd_is_valid_real(b->i_inv) ? b->i_inv : 0.0;
        find_hinge(b, out);
    }
}

/* A target's start as Chipmunk integrates it (about its centre of gravity).
 * Pending bodies have not moved: they start here with v + bias. Moved
 * bodies are at their end pose; the bias they used is gone, so their start
 * is reconstructed from v alone (off by the bias, a few slop units at most).
 * Sleeping bodies stand still. */
static void target_body(sccd_impact_body2 *out, const sccd_cp_world *w, cpBody *b, cpFloat dt, sccd_v2 *bias_v,
                        sccd_real *bias_w)
{
    *bias_v = (sccd_v2){0.0, 0.0};
    *bias_w = 0.0;
    if (cpBodyGetType(b) == CP_BODY_TYPE_STATIC || cpBodyIsSleeping(b)) {
        solver_body(out, b, body_xf(b), cpBodyGetAngle(b), (sccd_v2){0.0, 0.0}, 0.0);
    } else if (is_pending(w, b)) {
        *bias_v = v2_of(b->v_bias);
        *bias_w = b->w_bias;
        solver_body(out, b, body_xf(b), b->a, v2_of(cpvadd(b->v, b->v_bias)), b->w + b->w_bias);
    } else {
        sccd_real a0 = b->a - b->w * dt;
        sccd_v2 p0 = sccd_v2_sub(v2_of(b->p), sccd_v2_scale(v2_of(b->v), dt));
        solver_body(out, b, (sccd_xf2){origin_for(b, p0, a0), sccd_rot2_make(a0)}, a0, v2_of(b->v), b->w);
    }
}

/* Chipmunk's own position function (cpBodyUpdatePosition): the centre of
 * gravity moved by (v + bias)·dt, the angle turned by (ω + bias)·dt, the
 * shapes' transform made from them, the bias spent; written out, the same
 * operations in the same order (so the same poses, bit for bit). Debian's
 * Chipmunk is its debug build, whose call checks the whole body after the
 * move (its mass, inertia, position, velocities), about 470 instructions
 * a call, 2.8 % of the CCD of the 1,000 + 100 debris rain (callgrind); the
 * phase checked what the move reads already (velocity_ok, and a pose not
 * finite leaves the body out: integrate_ccd). */
static void update_position(cpBody *b, cpFloat dt)
{
    cpVect p = b->p = cpvadd(b->p, cpvmult(cpvadd(b->v, b->v_bias), dt));
    cpFloat a = b->a = b->a + (b->w + b->w_bias) * dt;
    cpFloat c = cos(a), s = sin(a);
    cpVect cog = b->cog;
    b->transform = cpTransformNew(c, s, -s, c, p.x - (cog.x * c - cog.y * s), p.y - (cog.x * s + cog.y * c));
    b->v_bias = cpvzero;
    b->w_bias = 0.0;
}

static bool velocity_ok(const cpBody *b)
{
    return sccd_is_valid_v2(v2_of(b->v)) && sccd_is_valid_real(b->w) && sccd_is_valid_v2(v2_of(b->v_bias)) &&
           sccd_is_valid_real(b->w_bias);
}

/* Integrate CCD body r with its own position function (once: it spends
 * the bias) and keep it at its start: the solver gets the velocity that
 * reproduces that integration (of its centre of gravity); the record keeps
 * the end and the box of what its motion may reach (sccd_cp_ccd_box). */
static void integrate_ccd(sccd_cp_world *w, cp_body_rec *r, cpFloat dt)
{
    cpBody *b = r->body;
    if (!CP_CHECK(w, velocity_ok(b), "sccd_cp: a CCD body has a NaN or infinite velocity; zeroed")) {
        b->v = b->v_bias = cpvzero;
        b->w = b->w_bias = 0.0;
    }
    r->bias_v = v2_of(b->v_bias);
    r->bias_w = b->w_bias;
    r->met = r->left_out = r->idle = r->placed = false;
    sccd_xf2 start = body_xf(b);
    cp_place at = place_of(b);
    if (r->orig == cpBodyUpdatePosition)
        update_position(b, dt);
    else
        r->orig(b, dt);
    r->stamp = w->space->stamp;
    r->end = place_of(b);
    sccd_v2 v = v2_of(dt > 0.0 ? cpvmult(cpvsub(b->p, at.p), 1.0 / dt) : cpvzero);
    solver_body(&r->start, b, start, at.a, v, dt > 0.0 ? (b->a - at.a) / dt : 0.0);
    r->start.ccd = true;
    r->start.pivot = r->pivot;
    put_back(b, at);
    r->usable = CP_CHECK(w, sccd_is_valid_v2(v) && sccd_is_valid_real(r->start.w) && sccd_is_valid_xf2(start),
                         "sccd_cp: a CCD body's pose is not finite; no CCD for it");
    if (!r->usable)
        return;
    r->usable = sccd_cp_ccd_box(r, dt);
}

static bool reserve_solver(sccd_cp_world *w, int n)
{
    return sccd_adapter_reserve((void **)&w->ib, &w->capib, n, sizeof *w->ib) &&
           sccd_adapter_reserve((void **)&w->ref, &w->capref, n, sizeof *w->ref) &&
           sccd_adapter_reserve((void **)&w->is, &w->capis, n, sizeof *w->is);
}

/* The solver's bodies and shapes for the gathered shapes from cands[from]
 * on, grouped by body (the CCD bodies' own among them), each body once:
 * appended to those made before; a moving body is gathered whole
 * (sccd_cp_gather). A static shape is a solver body of its own: a floor and
 * its walls as one body would be searched shape pair by shape pair with
 * every body near any of them. */
static bool build_solver(sccd_cp_world *w, int from, cpFloat dt)
{
    if (!reserve_solver(w, w->ncands))
        return false;
    for (int i = from; i < w->ncands; ++i) {
        cpShape *s = w->cands[i];
        if (i == from || w->ref[w->nib - 1].body != s->body || cpBodyGetType(s->body) == CP_BODY_TYPE_STATIC) {
            int k = w->nib++;
            cp_solver_ref *ref = &w->ref[k];
            ref->body = s->body;
            cp_body_rec *r = sccd_cp_find_rec(w, s->body);
            if (r != NULL && r->active && r->usable) {
                r->placed = true; /* an idle body gathered joins the solve */
                r->idle = false;
                w->ib[k] = r->start;
                ref->bias_v = r->bias_v;
                ref->bias_w = r->bias_w;
            } else {
                target_body(&w->ib[k], w, s->body, dt, &ref->bias_v, &ref->bias_w);
            }
            w->ib[k].struck = sccd_adapter_map_get(&w->flying.now, s->body) >= 0;
            w->ib[k].first_shape = i;
            w->ib[k].shape_count = 0;
        }
        ++w->ib[w->nib - 1].shape_count;
        /* field by field: a compound literal zeroed the geometry, which
         * sccd_cp_shape_of clears again (every shape of every question) */
        sccd_impact_shape2 *is = &w->is[i];
        sccd_cp_shape_of(&is->geom, s);
        is->body = w->nib - 1;
        is->elasticity = s->e;
        is->friction = s->u;
    }
    return true;
}

/* The solver's question in the middle of a solve: what a body an impact
 * set moving (or the fallback carried) may reach in the rest of the step,
 * and could pass through (sccd_adapter_keeps), gathered and appended. */
static bool gather_hook(void *user, const sccd_impact_reach2 *reach, sccd_impact_set2 *set)
{
    sccd_cp_world *w = user;
    double t0 = sccd_adapter_lap_seconds();
    int from = w->ncands;
    bool ok = sccd_cp_gather_reach(w, reach->box, (sccd_adapter_keep){reach->reach, reach->half, reach->fixed_only});
    if (ok)
        sccd_cp_group_shapes(w, from);
    ok = ok && build_solver(w, from, w->dt);
    *set = (sccd_impact_set2){w->ib, w->nib, w->is, w->ncands};
    w->asked_seconds += sccd_adapter_lap_seconds() - t0; /* the adapter's time, within the solve's */
    return ok;
}

/* ---- writing the results back ---- */

/* Body k's results into Chipmunk. A pending body gets the pose from which
 * its own integration (cpBodyUpdatePosition, bias included) lands on the
 * solver's end pose. Velocities change only where an impact changed them
 * (less the bias the body moved by) or a hinge turned the body. A body left
 * flying is marked for the next step; false when that is out of memory
 * (the results are written all the same). */
static bool write_back(sccd_cp_world *w, int k, cpFloat dt)
{
    const sccd_impact_body2 *b = &w->ib[k];
    cpBody *body = w->ref[k].body;
    bool ccd = b->ccd, marked = !b->flying || sccd_adapter_map_add(&w->flying.next, body, 0) >= 0;
    if (b->kind == SCCD_BODY_STATIC || (!ccd && b->impacts == 0 && !b->held))
        return marked;
    if (b->kind == SCCD_BODY_DYNAMIC && (b->impacts > 0 || b->held || b->hinged)) {
        if (cpBodyIsSleeping(body))
            cpBodyActivate(body);
        body->v = cpv_of(sccd_v2_sub(b->end_v, w->ref[k].bias_v));
        body->w = b->end_w - w->ref[k].bias_w;
    }
    sccd_v2 origin = b->end_pose.p;
    cpFloat angle = b->end_angle;
    if (!ccd && is_pending(w, body)) {
        sccd_v2 cog = sccd_xf2_apply(b->end_pose, b->cog);
        angle -= (body->w + body->w_bias) * dt;
        origin = origin_for(body, sccd_v2_sub(cog, v2_of(cpvmult(cpvadd(body->v, body->v_bias), dt))), angle);
    }
    set_pose(body, origin, angle);
    w->cnt.clamps += b->impacts > 0 || b->held;
    return marked;
}

/* ---- the phase ---- */

/* Post-step: keep the CCD bodies at the start of the dynamic body array
 * (see the top of the file), and a flying body before them that runs the
 * next phase (sccd_cp_arm_trigger). Looks the world up again: it may be
 * gone. */
static void keep_ccd_first(cpSpace *space, void *key, void *data)
{
    (void)key;
    (void)data;
    sccd_cp_world *w = sccd_cp_world_of(space);
    if (w == NULL)
        return;
    cpArray *arr = space->dynamicBodies;
    int front = 0; /* stable partition: CCD first, then the rest (a body a record: none past the last) */
    for (int i = 0; i < arr->num && front < w->nrec; ++i)
        if (sccd_cp_enabled_rec(w, arr->arr[i]) != NULL) {
            void *body = arr->arr[i];
            memmove(&arr->arr[front + 1], &arr->arr[front], (size_t)(i - front) * sizeof(void *));
            arr->arr[front++] = body;
        }
    sccd_cp_arm_trigger(w);
}

/* The shapes of the bodies the last step left flying that are still awake
 * in the space (found in its array, never read through the last step's
 * pointers): the solver tests them as struck (it asks what they may reach).
 * A body is in the array once, so the search ends when every flying body
 * is found (with a CCD body among them, which is tested as one, it runs
 * to the end): most steps leave one, which runs the next phase from the
 * array's start (sccd_cp_arm_trigger), where looking up every body of the
 * array cost 0.37 % of the CCD of the 1,000 + 100 debris rain. */
static bool gather_struck(sccd_cp_world *w)
{
    cpArray *arr = w->space->dynamicBodies;
    for (int i = 0, found = 0; found < w->flying.now.count && i < arr->num; ++i) {
        cpBody *body = arr->arr[i];
        if (!sccd_cp_flies(w, body))
            continue;
        ++found;
        ++w->cnt.struck;
        CP_BODY_FOREACH_SHAPE(body, s)
        if (!sccd_cp_gather(w, s, 0.0))
            return false;
    }
    return true;
}

/* Integrate the active CCD bodies (kept at their start poses), gather what
 * their motions may reach, and their own shapes. Where a body they strike
 * may fly to, the solver asks for when it happens (gather_hook): gathered
 * up front (within two reaches of the swept box), it made every solve
 * larger, and the CCD of swords buried in a pile cost 1.8 times as many
 * instructions (callgrind, cp_overhead's scene). A body in free flight
 * whose box meets nothing is left out of the solve (idle): its own
 * integration is its end, unless a body an impact sets moving may reach it
 * (sccd_cp_gather_reach joins it then). A hinged body always takes part:
 * the solver turns it about its hinge, not as Chipmunk integrates it. */
static bool gather_all(sccd_cp_world *w, cpFloat dt)
{
    sccd_real smallest = INFINITY;
    for (int i = 0; i < w->nrec; ++i) {
        cp_body_rec *r = &w->recs[i];
        if (!r->active)
            continue;
        integrate_ccd(w, r, dt);
        if (r->usable)
            smallest = sccd_min(smallest, sccd_min(r->box.hi.x - r->box.lo.x, r->box.hi.y - r->box.lo.y));
    }
    for (int i = 0; i < w->nrec; ++i)
        if (w->recs[i].active && w->recs[i].usable && !sccd_cp_gather_box(w, i))
            return false;
    if (!sccd_cp_split_targets(w, smallest, dt) || !sccd_cp_gather_queries(w))
        return false;
    for (int i = 0; i < w->nrec; ++i) {
        cp_body_rec *r = &w->recs[i];
        if (!r->active || !r->usable)
            continue;
        r->idle = r->left_out = !r->met && !r->start.hinged;
        CP_BODY_FOREACH_SHAPE(r->body, s)
        if (!r->idle && !sccd_cp_gather(w, s, 0.0))
            return false;
    }
    if (!gather_struck(w))
        return false;
    sccd_cp_group_shapes(w, 0);
    return true;
}

/* Solve the step: the solver asks (gather_hook) for what the bodies its
 * impacts set moving may reach. */
static bool solve(sccd_cp_world *w, cpFloat dt)
{
    sccd_impact_callbacks2 cb = {sccd_cp_hook_collide, sccd_cp_hook_begin, sccd_cp_hook_post, gather_hook, w};
    w->nib = 0;
    w->dt = dt;
    if (!build_solver(w, 0, dt))
        return false;
    if (w->nib == 0) /* every CCD body idle, nothing struck */
        return true;
    sccd_impact_stats st = {0};
    w->asked_seconds = 0.0;
    double t0 = sccd_adapter_cpu_seconds();
    bool solved = sccd_impact2_solve(w->ib, w->nib, w->is, w->ncands, dt, &w->opt, &cb, &w->scratch, &st);
    w->cnt.solve_seconds += sccd_adapter_solve_seconds(t0, w->asked_seconds);
    SCCD_ADAPTER_ADD_SOLVE(w->cnt, st);
    return CP_CHECK(w, solved, "sccd_cp: the impact solver refused this step's bodies or ran out of memory; CCD skipped");
}

static void run_phase(sccd_cp_world *w, cpBody *first, cpFloat dt)
{
    double t_start = sccd_adapter_cpu_seconds();
    w->stamp = w->space->stamp;
    w->ncands = 0;
    sccd_adapter_map_clear(&w->gathered);
    sccd_adapter_queries_clear(&w->queries); /* the last phase's */
    w->keeping = (sccd_adapter_keep){0.0, INFINITY};
    w->nib = 0;
    bool ok = collect(w, first) && gather_all(w, dt) && solve(w, dt), marked = ok;
    CP_CHECK(w, ok, "sccd_cp: out of memory; CCD skipped this step");
    for (int k = 0; ok && k < w->nib; ++k)
        marked &= write_back(w, k, dt);
    CP_CHECK(w, marked || !ok, "sccd_cp: out of memory; what this step's impacts left flying is not followed");
    if (marked)
        sccd_adapter_flying_step(&w->flying);
    else
        sccd_adapter_flying_clear(&w->flying);
    /* A CCD body integrated this step that the solve did not place (idle,
     * every shape filtered out, or the phase failed) goes to its own
     * integration's end; one the phase failed before integrating integrates
     * itself when its hook runs (sccd_cp_position_hook). */
    for (int i = 0; i < w->nrec; ++i) {
        cp_body_rec *r = &w->recs[i];
        if (r->active && r->stamp == w->space->stamp && (!ok || !r->placed))
            put_back(r->body, r->end);
        w->cnt.idle += ok && r->active && r->idle;
        w->cnt.joined += ok && r->active && r->left_out && !r->idle;
    }
    cpSpaceAddPostStepCallback(w->space, keep_ccd_first, w, NULL);
    ++w->cnt.steps;
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

/* Out of line whatever the compiler's estimate (built with
 * -fno-semantic-interposition, the position hook would take it in): a
 * step's CCD is this one call, which the benchmarks count (callgrind
 * --toggle-collect=sccd_cp_phase) and a game's profile shows. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void sccd_cp_phase(sccd_cp_world *w, cpBody *first, cpFloat dt)
{
    if (w->stamp != w->space->stamp)
        run_phase(w, first, dt);
}

void sccd_cp_position_hook(cpBody *body, cpFloat dt)
{
    sccd_cp_world *w = sccd_cp_world_of(cpBodyGetSpace(body));
    cp_body_rec *r = w ? sccd_cp_find_rec(w, body) : NULL;
    if (r == NULL) { /* a stray hook (the world is gone): behave like Chipmunk */
        cpBodyUpdatePosition(body, dt);
        return;
    }
    sccd_cp_phase(w, body, dt);
    r = sccd_cp_find_rec(w, body);
    if (r->stamp != w->space->stamp) { /* not seen by the phase (cannot happen while the array is consistent) */
        r->orig(body, dt);
        r->stamp = w->space->stamp;
    }
}

