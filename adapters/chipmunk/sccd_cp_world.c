/* The Chipmunk adapter's world (sectorccd_chipmunk.h, "CCD"): attaching
 * it to a space, the CCD bodies' records and the public calls. */
#include <stdio.h>
#include <string.h>

#include "sccd_cp_internal.h"

void sccd_cp_report(sccd_cp_world *w, const char *msg, const char *file, int line)
{
    if (w != NULL) {
        w->error = msg;
        ++w->cnt.errors;
    }
    sccd_assert_failed(msg, file, line);
}

/* A space carries no field for us but its user data, which is the user's.
 * A collision handler for a pair of collision types no shape uses is ours:
 * cpSpaceAddCollisionHandler returns the same handler every time, and its
 * userData holds the world. */
static const char world_key_anchor = 0;
#define WORLD_KEY ((cpCollisionType)(uintptr_t)&world_key_anchor)

static cpCollisionHandler *world_slot(cpSpace *space) { return cpSpaceAddCollisionHandler(space, WORLD_KEY, WORLD_KEY); }

/* Looks the slot up without creating it (the hash set compares the types). */
sccd_cp_world *sccd_cp_world_of(cpSpace *space)
{
    if (space == NULL)
        return NULL;
    cpCollisionHandler key = {WORLD_KEY, WORLD_KEY, NULL, NULL, NULL, NULL, NULL};
    const cpCollisionHandler *h = cpHashSetFind(space->collisionHandlers, CP_HASH_PAIR(WORLD_KEY, WORLD_KEY), &key);
    return h ? (sccd_cp_world *)h->userData : NULL;
}

cp_body_rec *sccd_cp_find_rec(const sccd_cp_world *w, const cpBody *body)
{
    int i = sccd_adapter_map_get(&w->rec_of, body);
    return i >= 0 ? &w->recs[i] : NULL;
}

/* Drop record i (the last one takes its place). */
static void drop_rec(sccd_cp_world *w, int i)
{
    sccd_adapter_map_remove(&w->rec_of, w->recs[i].body);
    w->recs[i] = w->recs[--w->nrec];
    if (i < w->nrec)
        sccd_adapter_map_set(&w->rec_of, w->recs[i].body, i);
}

/* ---- the CCD bodies' position function ---- */

static void mark_seen(cpBody *body, void *data)
{
    cp_body_rec *r = sccd_cp_enabled_rec(data, body);
    if (r != NULL)
        r->seen = true;
}

/* Forget the records of bodies that left the space (removed, perhaps freed:
 * their pointers are only compared) or no longer have our position
 * function (replaced by the game, or a new body at a freed one's address):
 * reported, counted. Sleeping and static bodies are in the space. */
static void forget_gone(sccd_cp_world *w)
{
    for (int i = 0; i < w->nrec; ++i)
        w->recs[i].seen = false;
    cpSpaceEachBody(w->space, mark_seen, w);
    for (int i = 0; i < w->nrec;) {
        if (w->recs[i].seen) {
            ++i;
            continue;
        }
        drop_rec(w, i);
        ++w->cnt.forgotten;
        sccd_cp_report(w, "sccd_cp: a CCD body left the space (or lost its position function) without "
                          "sccd_cp_body_disable; its CCD is forgotten", __FILE__, __LINE__);
    }
}

static bool velocity_finite(const cpBody *b)
{
    return sccd_is_valid_v2(v2_of(b->v)) && sccd_is_valid_real(b->w) && sccd_is_valid_v2(v2_of(b->v_bias)) &&
           sccd_is_valid_real(b->w_bias);
}

/* Post-step of a step with a bad dt: a velocity Chipmunk made NaN (its own
 * integration with that dt) is zeroed, so no CCD body is left with one. */
static void zero_bad_velocities(cpSpace *space, void *key, void *data)
{
    (void)key;
    (void)data;
    sccd_cp_world *w = sccd_cp_world_of(space);
    for (int i = 0; w != NULL && i < w->nrec; ++i) {
        cpBody *b = w->recs[i].body;
        if (cpBodyGetSpace(b) == space && sccd_cp_has_hook(b) && !velocity_finite(b)) {
            b->v = b->v_bias = cpvzero;
            b->w = b->w_bias = 0.0;
        }
    }
}

/* The step's check, by the first of the world's position functions that
 * runs in it: records of bodies gone are forgotten; a dt that is not > 0
 * and finite is reported, and the CCD bodies stay where they are (no sweep
 * can be made of it; Chipmunk itself skips a step of dt = 0 before calling
 * them). Whether dt is good. */
static bool check_step(sccd_cp_world *w, cpFloat dt)
{
    bool good = dt > 0.0 && sccd_is_valid_real(dt);
    if (w->checked != w->space->stamp) {
        w->checked = w->space->stamp;
        forget_gone(w);
        if (!good) {
            sccd_cp_report(w, "sccd_cp: cpSpaceStep with dt < 0 or not finite; the CCD bodies stay where they are this step",
                           __FILE__, __LINE__);
            cpSpaceAddPostStepCallback(w->space, zero_bad_velocities, &w->checked, NULL);
        }
    }
    return good;
}

/* Every CCD body's position function: the step's check, then the CCD
 * phase (sccd_cp_ccd.c). A body whose world is gone, or that the world
 * forgot, gets Chipmunk's position function back. */
void sccd_cp_ccd_position(cpBody *body, cpFloat dt)
{
    sccd_cp_world *w = sccd_cp_world_of(cpBodyGetSpace(body));
    bool good_dt = w != NULL && check_step(w, dt);
    if (w == NULL || sccd_cp_find_rec(w, body) == NULL) {
        cpBodySetPositionUpdateFunc(body, cpBodyUpdatePosition);
        cpBodyUpdatePosition(body, dt);
        return;
    }
    if (good_dt)
        sccd_cp_position_hook(body, dt);
}

/* ---- what flies, followed without a CCD body ---- */

/* The bodies a step's impacts left flying are tested in the next step's
 * phase, which the first CCD body's position function runs. With none awake
 * (its CCD disabled after the swing, removed, asleep) nothing ran it, and a
 * batted ball flew on unfollowed through a thin wall. So after such a step
 * one flying body carries this position function for the next step, first
 * in the array (every other body pending, as behind a CCD body): it runs
 * the phase unless a CCD body did, then gives the body its own function
 * back and integrates it with that (the phase left it the pose from which
 * its own integration lands on the solver's). A trigger the step never
 * reached (removed, put to sleep, its function replaced) is let go at the
 * next arming. */
static void flying_position(cpBody *body, cpFloat dt)
{
    sccd_cp_world *w = sccd_cp_world_of(cpBodyGetSpace(body));
    bool mine = w != NULL && w->trigger == body;
    cpBodyPositionFunc own = mine ? w->trigger_own : cpBodyUpdatePosition;
    cpBodySetPositionUpdateFunc(body, own);
    if (mine) {
        w->trigger = NULL;
        if (check_step(w, dt))
            sccd_cp_phase(w, body, dt);
    }
    own(body, dt);
}

/* Give the trigger, if it is a body found in the space that still has
 * the trigger's position function, its own back (the pointer is compared,
 * never read: the body may have been freed). */
static void untrigger(cpBody *body, void *data)
{
    sccd_cp_world *w = data;
    if (body == w->trigger && body->position_func == flying_position)
        cpBodySetPositionUpdateFunc(body, w->trigger_own);
}

static void let_trigger_go(sccd_cp_world *w)
{
    if (w->trigger != NULL)
        cpSpaceEachBody(w->space, untrigger, w);
    w->trigger = NULL;
}

void sccd_cp_arm_trigger(sccd_cp_world *w)
{
    let_trigger_go(w);
    cpArray *arr = w->space->dynamicBodies;
    for (int i = 0; w->flying.now.count > 0 && i < arr->num; ++i) {
        cpBody *body = arr->arr[i];
        if (!sccd_cp_flies(w, body) || sccd_cp_has_hook(body))
            continue;
        w->trigger = body;
        w->trigger_own = body->position_func;
        cpBodySetPositionUpdateFunc(body, flying_position);
        memmove(&arr->arr[1], &arr->arr[0], (size_t)i * sizeof(void *));
        arr->arr[0] = body;
        return;
    }
}

/* The record of a CCD body handed to a public call (alive), NULL when it has
 * none. A record whose body lost our position function is a stale one (the
 * game replaced the function, or freed a CCD body without disabling it and
 * this is a new body at its address): forgotten, reported. */
static cp_body_rec *live_rec(sccd_cp_world *w, cpBody *body)
{
    cp_body_rec *r = sccd_cp_find_rec(w, body);
    if (r == NULL || sccd_cp_has_hook(body))
        return r;
    drop_rec(w, (int)(r - w->recs));
    ++w->cnt.forgotten;
    sccd_cp_report(w, "sccd_cp: a CCD body lost its position function (or was freed without sccd_cp_body_disable); "
                      "its CCD is forgotten", __FILE__, __LINE__);
    return NULL;
}

sccd_ccd_options sccd_cp_options_default(void) { return sccd_ccd_options_default(0.02); }

sccd_cp_world *sccd_cp_attach(cpSpace *space)
{
    if (!CP_CHECK(NULL, space != NULL, "sccd_cp_attach: NULL space") ||
        !CP_CHECK(NULL, !cpSpaceIsLocked(space), "sccd_cp_attach: the space is stepping") ||
        !CP_CHECK(NULL, sccd_cp_world_of(space) == NULL, "sccd_cp_attach: CCD is already attached to this space"))
        return NULL;
    sccd_cp_world *w = sccd_calloc(1, sizeof *w);
    if (!CP_CHECK(NULL, w != NULL, "sccd_cp_attach: out of memory"))
        return NULL;
    w->space = space;
    sccd_adapter_queries_init(&w->queries);
    w->asking = -1;
    /* Chipmunk lets shapes overlap by the collision slop; the impact overlap
     * is a fifth of it (a space with no finite slop > 0 gets the default). */
    cpFloat slop = cpSpaceGetCollisionSlop(space);
    w->opt = sccd_is_valid_real(slop) && slop > 0.0 ? sccd_ccd_options_default(0.2 * slop) : sccd_cp_options_default();
    w->stamp = w->checked = space->stamp;
    world_slot(space)->userData = w;
    return w;
}

static bool usable(sccd_cp_world *w, const cpBody *body, const char *msg)
{
    return CP_CHECK(w, w != NULL && body != NULL, msg);
}

void sccd_cp_body_enable(sccd_cp_world *w, cpBody *body)
{
    if (!usable(w, body, "sccd_cp_body_enable: NULL world or body") ||
        !CP_CHECK(w, cpBodyGetSpace(body) == w->space, "sccd_cp_body_enable: the body is not in the world's space") ||
        !CP_CHECK(w, cpBodyGetType(body) != CP_BODY_TYPE_STATIC, "sccd_cp_body_enable: static bodies do not move") ||
        !CP_CHECK(w, live_rec(w, body) == NULL, "sccd_cp_body_enable: CCD is already enabled on the body"))
        return;
    if (!CP_CHECK(w, sccd_adapter_reserve((void **)&w->recs, &w->caprec, w->nrec + 1, sizeof *w->recs) &&
                         sccd_adapter_map_add(&w->rec_of, body, w->nrec) >= 0,
                  "sccd_cp: out of memory"))
        return;
    cp_body_rec *r = &w->recs[w->nrec++];
    memset(r, 0, sizeof *r);
    r->body = body;
    if (body == w->trigger && body->position_func == flying_position) { /* its own function, not the trigger's */
        cpBodySetPositionUpdateFunc(body, w->trigger_own);
        w->trigger = NULL;
    }
    /* ours already: left over from a world that forgot the body or was
     * detached while the body was out of its space (what it had before is
     * lost: Chipmunk's) */
    r->orig = sccd_cp_has_hook(body) ? cpBodyUpdatePosition : body->position_func;
    r->pivot = v2_of(cpBodyGetCenterOfGravity(body));
    r->stamp = w->space->stamp;
    cpBodySetPositionUpdateFunc(body, sccd_cp_ccd_position);
}

void sccd_cp_body_disable(sccd_cp_world *w, cpBody *body)
{
    if (!usable(w, body, "sccd_cp_body_disable: NULL world or body"))
        return;
    cp_body_rec *r = live_rec(w, body);
    if (!CP_CHECK(w, r != NULL, "sccd_cp_body_disable: CCD is not enabled on the body"))
        return;
    cpBodySetPositionUpdateFunc(body, r->orig);
    drop_rec(w, (int)(r - w->recs));
}

void sccd_cp_body_set_pivot(sccd_cp_world *w, cpBody *body, cpVect local_pivot)
{
    if (!usable(w, body, "sccd_cp_body_set_pivot: NULL world or body"))
        return;
    cp_body_rec *r = live_rec(w, body);
    if (!CP_CHECK(w, r != NULL, "sccd_cp_body_set_pivot: CCD is not enabled on the body") ||
        !CP_CHECK(w, sccd_is_valid_v2(v2_of(local_pivot)), "sccd_cp_body_set_pivot: pivot not finite"))
        return;
    r->pivot = v2_of(local_pivot);
}

bool sccd_cp_body_is_enabled(const sccd_cp_world *w, const cpBody *body)
{
    return w != NULL && body != NULL && sccd_cp_enabled_rec(w, body) != NULL;
}

void sccd_cp_set_options(sccd_cp_world *w, sccd_ccd_options o)
{
    if (!CP_CHECK(w, w != NULL, "sccd_cp_set_options: NULL world"))
        return;
    for (unsigned bad = sccd_ccd_options_merge(&w->opt, o); bad != 0; bad &= bad - 1) {
        snprintf(w->message, sizeof w->message, "sccd_cp_set_options: %s", sccd_ccd_options_problem(bad));
        sccd_cp_report(w, w->message, __FILE__, __LINE__);
    }
}

sccd_ccd_options sccd_cp_get_options(const sccd_cp_world *w) { return w ? w->opt : sccd_cp_options_default(); }

sccd_cp_counters sccd_cp_get_counters(const sccd_cp_world *w)
{
    sccd_cp_counters zero = {0};
    return w ? w->cnt : zero;
}

void sccd_cp_reset_counters(sccd_cp_world *w)
{
    if (CP_CHECK(w, w != NULL, "sccd_cp_reset_counters: NULL world"))
        memset(&w->cnt, 0, sizeof w->cnt);
}

const char *sccd_cp_last_error(const sccd_cp_world *w) { return w && w->error ? w->error : ""; }

/* Give a body found in the space its position function back. */
static void restore_body(cpBody *body, void *data)
{
    sccd_cp_world *w = data;
    cp_body_rec *r = sccd_cp_enabled_rec(w, body);
    if (r != NULL)
        cpBodySetPositionUpdateFunc(body, r->orig);
}

void sccd_cp_detach(sccd_cp_world *w)
{
    if (w == NULL)
        return;
    if (!CP_CHECK(w, !cpSpaceIsLocked(w->space), "sccd_cp_detach: the space is stepping; detach after cpSpaceStep"))
        return;
    /* Only bodies still in the space are touched: a record's body may have
     * been removed and freed since. */
    cpSpaceEachBody(w->space, restore_body, w);
    let_trigger_go(w);
    world_slot(w->space)->userData = NULL;
    sccd_free(w->recs);
    sccd_adapter_map_free(&w->rec_of);
    sccd_adapter_map_free(&w->moved);
    sccd_adapter_flying_free(&w->flying);
    sccd_free(w->cands);
    sccd_free(w->keys);
    sccd_adapter_map_free(&w->gathered);
    sccd_free(w->fast);
    sccd_adapter_queries_free(&w->queries);
    sccd_adapter_sorted_free(&w->fastq);
    sccd_free(w->query_rec);
    sccd_free(w->ib);
    sccd_free(w->ref);
    sccd_free(w->is);
    sccd_impact_scratch_free(&w->scratch);
    sccd_free(w);
}
