/* The ODE adapter's world (sccd_ode_internal.h): its lifecycle, the scan
 * of before_step, materials and the public calls. */
#include <stdio.h>
#include <string.h>

#include "sccd_ode_internal.h"

void sccd_ode_report(sccd_ode_world *w, const char *msg)
{
    if (w != NULL) {
        w->error = msg;
        ++w->cnt.errors;
    }
}

bool sccd_ode_fail(sccd_ode_world *w, const char *msg, const char *file, int line)
{
    sccd_ode_report(w, msg);
    sccd_assert_failed(msg, file, line);
    return false;
}

ode_material *sccd_ode_find_material(const sccd_ode_world *w, dGeomID g)
{
    int lo = 0, hi = w->nmats;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if ((uintptr_t)w->mats[mid].geom < (uintptr_t)g)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->nmats && w->mats[lo].geom == g ? &w->mats[lo] : NULL;
}

/* ---- before_step: the scan ---- */

ode_body *sccd_ode_find_body(const sccd_ode_world *w, dBodyID body)
{
    int i = body != NULL ? sccd_adapter_map_get(&w->body_of, body) : -1;
    return i >= 0 ? &w->bodies[i] : NULL;
}

/* Drop record i (the last one takes its place); the scan's geoms follow their records. */
static void remove_body(sccd_ode_world *w, int i)
{
    int last = --w->nbodies;
    sccd_adapter_map_remove(&w->body_of, w->bodies[i].body);
    w->bodies[i] = w->bodies[last];
    if (i < last)
        sccd_adapter_map_set(&w->body_of, w->bodies[i].body, i);
    for (int k = 0; k < w->ngeoms; ++k)
        w->geoms[k].ccd = w->geoms[k].ccd == i ? -1 : w->geoms[k].ccd == last ? i : w->geoms[k].ccd;
}

/* The key of body (NULL: -1) of geom g: the index of its first geom in
 * this scan, `index` when g is (a body's only geom is, without a look-up:
 * most bodies have one); -2 when out of memory. */
static int key_of(sccd_ode_world *w, dBodyID body, dGeomID g, int index)
{
    if (body == NULL)
        return -1;
    if (dBodyGetFirstGeom(body) == g && dBodyGetNextGeom(g) == NULL)
        return index;
    int slot = sccd_adapter_map_place(&w->keys, body, index);
    return slot < 0 ? -2 : w->keys.value[slot];
}

/* Geom k, the first of its body in the scan: listed when the body is one
 * the last step left flying (sccd_ode_gather.c: gather_struck), so the
 * flying bodies are found by the scan, never read through the last step's
 * handles. False when out of memory. */
static bool note_struck(sccd_ode_world *w, dBodyID body, int k)
{
    if (w->flying.now.count == 0 || sccd_adapter_map_get(&w->flying.now, body) < 0)
        return true;
    if (!sccd_adapter_reserve((void **)&w->struck, &w->capstruck, w->nstruck + 1, sizeof *w->struck))
        return false;
    w->struck[w->nstruck++] = k;
    return true;
}

static bool add_geom(sccd_ode_world *w, dGeomID g)
{
    dBodyID body = dGeomGetBody(g);
    ode_body *r = sccd_ode_find_body(w, body);
    ode_material *m = w->nmats > 0 ? sccd_ode_find_material(w, g) : NULL; /* most worlds set none */
    if (r != NULL)
        r->seen = true;
    if (m != NULL)
        m->seen = true;
    if (!dGeomIsEnabled(g))
        return true;
    int key = key_of(w, body, g, w->ngeoms);
    if (key == -2 || !sccd_adapter_reserve((void **)&w->geoms, &w->capgeoms, w->ngeoms + 1, sizeof *w->geoms) ||
        (key == w->ngeoms && !note_struck(w, body, key)))
        return false;
    int k = w->ngeoms++;
    ode_geom *e = &w->geoms[k]; /* the scan's fields; prepare_geom sets the rest after the step */
    e->geom = g;
    e->body = body;
    e->key = key;
    e->ccd = r != NULL ? (int)(r - w->bodies) : -1;
    e->next = -1;
    e->body0 = body != NULL ? sccd_ode_body_pose(body) : sccd_xf3_identity();
    if (key >= 0 && key != k) { /* into its body's list, after the first */
        w->geoms[k].next = w->geoms[key].next;
        w->geoms[key].next = k;
    }
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
    return sccd_is_valid_v3(sccd_ode_v3(dBodyGetLinearVel(b))) && sccd_is_valid_v3(sccd_ode_v3(dBodyGetAngularVel(b)));
}

/* After the scan: forget CCD bodies with no geom left in the space
 * (destroyed or moved away) and the materials of geoms no longer in it. */
static void forget_gone(sccd_ode_world *w)
{
    for (int i = 0; i < w->nbodies;) {
        if (w->bodies[i].seen) {
            w->bodies[i++].seen = false;
            continue;
        }
        remove_body(w, i);
        ++w->cnt.forgotten;
        sccd_ode_fail(w,
                      "sccd_ode: a CCD body has no geom in the space any more (destroyed or moved away without "
                      "sccd_ode_body_disable); its CCD is forgotten",
                      __FILE__, __LINE__);
    }
    int kept = 0;
    for (int i = 0; i < w->nmats; ++i)
        if (w->mats[i].seen) {
            w->mats[kept] = w->mats[i];
            w->mats[kept++].seen = false;
        }
    w->nmats = kept;
}

void sccd_ode_before_step(sccd_ode_world *w)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_before_step: NULL world"))
        return;
    double t_start = sccd_adapter_cpu_seconds();
    w->ngeoms = w->nstruck = 0;
    sccd_adapter_map_clear(&w->keys);
    w->scanned = ODE_CHECK(w, scan_space(w, w->space), "sccd_ode: out of memory; CCD skipped this step");
    if (w->scanned) /* a partial scan has not seen everything */
        forget_gone(w);
    for (int i = 0; i < w->nbodies; ++i) {
        ode_body *r = &w->bodies[i];
        if (!ODE_CHECK(w, velocity_ok(r->body), "sccd_ode: a CCD body has a NaN or infinite velocity; zeroed")) {
            dBodySetLinearVel(r->body, 0.0, 0.0, 0.0);
            dBodySetAngularVel(r->body, 0.0, 0.0, 0.0);
        }
        r->start = sccd_ode_body_pose(r->body);
    }
    w->cnt.seconds += sccd_adapter_cpu_seconds() - t_start;
}

/* ---- public API ---- */

sccd_ccd_options sccd_ode_options_default(void) { return sccd_ccd_options_default(0.001); }

sccd_ode_world *sccd_ode_attach(dWorldID world, dSpaceID space)
{
    if (!ODE_CHECK(NULL, world != NULL, "sccd_ode_attach: NULL world") ||
        !ODE_CHECK(NULL, space != NULL, "sccd_ode_attach: NULL space (the world's geoms must be in a space)"))
        return NULL;
    sccd_ode_world *w = sccd_calloc(1, sizeof *w);
    if (!ODE_CHECK(NULL, w != NULL, "sccd_ode_attach: out of memory"))
        return NULL;
    w->world = world;
    w->space = space;
    w->opt = sccd_ode_options_default();
    sccd_adapter_queries_init(&w->regions);
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
        !ODE_CHECK(w, sccd_ode_find_body(w, body) == NULL, "sccd_ode_body_enable: CCD is already enabled on the body"))
        return;
    const char *mesh = sccd_ode_body_mesh_problem(body);
    if (!ODE_CHECK(w, mesh == NULL, mesh))
        return;
    if (!ODE_CHECK(w, sccd_adapter_reserve((void **)&w->bodies, &w->capbodies, w->nbodies + 1, sizeof *w->bodies) &&
                          sccd_adapter_map_add(&w->body_of, body, w->nbodies) >= 0,
                   "sccd_ode: out of memory"))
        return;
    /* its geoms join the CCD at the next before_step */
    w->bodies[w->nbodies++] = (ode_body){.body = body, .start = sccd_ode_body_pose(body), .seen = true};
}

void sccd_ode_body_disable(sccd_ode_world *w, dBodyID body)
{
    if (!ODE_CHECK(w, w != NULL && body != NULL, "sccd_ode_body_disable: NULL world or body"))
        return;
    ode_body *r = sccd_ode_find_body(w, body);
    if (!ODE_CHECK(w, r != NULL, "sccd_ode_body_disable: CCD is not enabled on the body"))
        return;
    remove_body(w, (int)(r - w->bodies));
}

void sccd_ode_body_set_pivot(sccd_ode_world *w, dBodyID body, const dReal local_pivot[3])
{
    if (!ODE_CHECK(w, w != NULL && body != NULL && local_pivot != NULL, "sccd_ode_body_set_pivot: NULL argument"))
        return;
    ode_body *r = sccd_ode_find_body(w, body);
    if (!ODE_CHECK(w, r != NULL, "sccd_ode_body_set_pivot: CCD is not enabled on the body") ||
        !ODE_CHECK(w, sccd_is_valid_v3(sccd_ode_v3(local_pivot)), "sccd_ode_body_set_pivot: pivot not finite"))
        return;
}

bool sccd_ode_body_is_enabled(const sccd_ode_world *w, dBodyID body) { return w != NULL && sccd_ode_find_body(w, body) != NULL; }

void sccd_ode_geom_set_material(sccd_ode_world *w, dGeomID g, dReal elasticity, dReal friction)
{
    if (!ODE_CHECK(w, w != NULL && g != NULL, "sccd_ode_geom_set_material: NULL world or geom") ||
        !ODE_CHECK(w, sccd_is_valid_real(elasticity) && elasticity >= 0.0 && sccd_is_valid_real(friction) && friction >= 0.0,
                   "sccd_ode_geom_set_material: elasticity and friction must be finite and >= 0"))
        return;
    ode_material *m = sccd_ode_find_material(w, g);
    if (m == NULL) { /* insert in order */
        if (!ODE_CHECK(w, sccd_adapter_reserve((void **)&w->mats, &w->capmats, w->nmats + 1, sizeof *w->mats),
                       "sccd_ode: out of memory"))
            return;
        int at = w->nmats;
        while (at > 0 && (uintptr_t)w->mats[at - 1].geom > (uintptr_t)g)
            --at;
        memmove(&w->mats[at + 1], &w->mats[at], (size_t)(w->nmats++ - at) * sizeof *w->mats);
        m = &w->mats[at];
    }
    *m = (ode_material){g, elasticity, friction, true};
}

void sccd_ode_set_impact_callback(sccd_ode_world *w, sccd_ode_impact_fn *fn, void *user)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_set_impact_callback: NULL world"))
        return;
    w->impact_fn = fn;
    w->impact_user = user;
}

void sccd_ode_set_step_length(sccd_ode_world *w, dReal dt)
{
    if (ODE_CHECK(w, w != NULL, "sccd_ode_set_step_length: NULL world") &&
        ODE_CHECK(w, sccd_is_valid_real(dt) && dt >= 0.0, "sccd_ode_set_step_length: the length must be finite and >= 0"))
        w->told_dt = dt;
}

void sccd_ode_set_options(sccd_ode_world *w, sccd_ccd_options o)
{
    if (!ODE_CHECK(w, w != NULL, "sccd_ode_set_options: NULL world"))
        return;
    for (unsigned bad = sccd_ccd_options_merge(&w->opt, o); bad != 0; bad &= bad - 1) {
        snprintf(w->message, sizeof w->message, "sccd_ode_set_options: %s", sccd_ccd_options_problem(bad));
        sccd_ode_report(w, w->message);
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
    sccd_free(w->bodies);
    sccd_adapter_map_free(&w->body_of);
    sccd_adapter_flying_free(&w->flying);
    sccd_free(w->geoms);
    sccd_free(w->struck);
    sccd_adapter_map_free(&w->keys);
    sccd_free(w->mats);
    for (int i = 0; i < 2; ++i) {
        ode_listing *l = i == 0 ? &w->listed : &w->fixed;
        sccd_adapter_sorted_free(&l->q);
        sccd_free(l->geom);
    }
    sccd_adapter_queries_free(&w->regions);
    sccd_free(w->region_body);
    sccd_free(w->planes);
    sccd_free(w->marks);
    sccd_free(w->pieces);
    sccd_free(w->rank_start);
    sccd_free(w->spare);
    sccd_free(w->ib);
    sccd_free(w->is);
    sccd_impact_scratch_free(&w->scratch);
    sccd_free(w);
}
