/* ode_demo's live window (demo_window.h runs the loop and the two runs).
 *
 * A scene's two runs (no CCD, and the compared mode) are the shared scene
 * code (common/scenes/ode_scenes.c): an observer snapshots every geom
 * (demo_geom), ODE's contact points and the CCD stops after each step, and
 * the window shows each step as it is made, both runs in lockstep, one step
 * per 60 Hz frame. The snapshots also give the fading trail and the held end
 * pose of a trial (ODE's world is gone by then). The
 * geoms are tessellated, projected and shaded by strobe.c's functions and
 * filled as painter-sorted triangles; the arrow keys orbit the camera. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "demo_window.h"

enum { TRAIL = 3, MAX_CONTACTS = 8 }; /* earlier steps drawn faintly; contact points per geom pair */
#define ORBIT_STEP 0.08               /* radians per arrow key press */

/* One recorded run: the track, and every frame's geoms, frame after frame
 * (dw_frame.item0 indexes them). */
typedef struct ode_track {
    dw_track rec;
    demo_geom *geoms;
    int ngeoms, gcap;
} ode_track;

typedef struct ode_window {
    const demo_scene *const *sc;
    int n;
    mode_cfg mode;
    double speed;
    int trials;
    const demo_scene *scene; /* loaded */
    demo_view view;          /* the scene's, orbited by the arrows */
    ode_track track[2];      /* no CCD, mode */
} ode_window;

/* Free what the track recorded. */
static void track_free(ode_track *t)
{
    dw_track_free(&t->rec);
    for (int i = 0; i < t->ngeoms; ++i)
        demo_geom_release(&t->geoms[i]);
    sccd_free(t->geoms);
    memset(t, 0, sizeof *t);
}

/* ---- recording (ode_observer) ---- */

static int scene_trials(const ode_window *w) { return w->trials > 0 ? w->trials : w->scene->trials; }

/* ODE's contact points between two geoms at the recorded pose (a query:
 * no joints, the world is not touched). */
static void record_contacts(void *data, dGeomID a, dGeomID b)
{
    dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    if (ba && bb && dAreConnected(ba, bb))
        return;
    dContactGeom c[MAX_CONTACTS];
    int n = dCollide(a, b, MAX_CONTACTS, c, sizeof c[0]);
    for (int i = 0; i < n; ++i)
        dw_track_contact(data, c[i].pos[0], c[i].pos[1], c[i].pos[2]);
}

static void on_step(void *user, const ode_world *w)
{
    ode_track *t = user;
    int n = dSpaceGetNumGeoms(w->space);
    if (!dw_track_begin(&t->rec, t->ngeoms) || /* shows the step before */
        !sccd_adapter_reserve((void **)&t->geoms, &t->gcap, t->ngeoms + n, sizeof *t->geoms))
        return;
    for (int i = 0; i < n; ++i)
        if (demo_geom_capture(dSpaceGetGeom(w->space, i), &t->geoms[t->ngeoms]))
            ++t->ngeoms;
    dSpaceCollide(w->space, &t->rec, record_contacts);
    dw_track_end(&t->rec, t->ngeoms, sccd_ode_get_counters(w->ccd).clamps);
}

/* One side: every trial of the scene under no CCD (side 0) or the mode,
 * observed. ODE wants its per-thread data in each thread that collides. */
static void run(void *user, int side, dw_side *handle)
{
    ode_window *w = user;
    ode_track *t = &w->track[side];
    mode_cfg m = side == 0 ? (mode_cfg){ODE_CCD_OFF, 1} : w->mode;
    double speed = w->speed > 0 ? w->speed : w->scene->speed;
    int trials = scene_trials(w);
    t->rec.side = handle;
    dAllocateODEDataForThread(dAllocateMaskAll);
    for (int k = 0; k < trials; ++k) {
        int passes = 0;
        ode_trial r = demo_run_trial(w->scene, m, speed, k, trials, on_step, t, &passes);
        dw_track_mark(&t->rec, r.px, r.py, r.pz, passes);
        dw_track_trial_end(&t->rec);
    }
    dCleanupODEAllDataForThread();
}

static int load(void *user, int k)
{
    ode_window *w = user;
    track_free(&w->track[0]);
    track_free(&w->track[1]);
    w->scene = w->sc[k];
    w->view = w->scene->view;
    return scene_trials(w);
}

static void orbit(void *user, int dx, int dy)
{
    ode_window *w = user;
    w->view.yaw += ORBIT_STEP * dx;
    w->view.pitch = sccd_clamp(w->view.pitch + ORBIT_STEP * dy, -1.5, 1.5);
}

/* ---- drawing ---- */

/* A projected triangle: window corners, depth, colour. */
typedef struct flat { float xy[6]; double depth; dw_rgba c; } flat;

/* The triangles of one panel, gathered from the geoms of several frames. */
typedef struct gather {
    const demo_view *view;
    float x0;
    flat *t;
    int n, cap;
    dw_rgba base; /* the current geom's colour, alpha included */
    double bias;  /* newer frames on top when level */
    bool ground;  /* the current geom is a plane: drawn under everything */
} gather;

static float panel_x(const gather *g, double x) { return g->x0 + 0.5f * DW_PANEL + (float)(0.5 * DW_PANEL / g->view->span * x); }
static float panel_y(const gather *g, double y) { return DW_HUD + 0.5f * DW_PANEL - (float)(0.5 * DW_PANEL / g->view->span * y); }

static void add_triangle(void *user, const double a[3], const double b[3], const double c[3])
{
    gather *g = user;
    if (!sccd_adapter_reserve((void **)&g->t, &g->cap, g->n + 1, sizeof *g->t))
        return;
    double q[3][3];
    demo_view_project(g->view, a, q[0]);
    demo_view_project(g->view, b, q[1]);
    demo_view_project(g->view, c, q[2]);
    flat *f = &g->t[g->n++];
    for (int j = 0; j < 3; ++j) {
        f->xy[2 * j] = panel_x(g, q[j][0]);
        f->xy[2 * j + 1] = panel_y(g, q[j][1]);
    }
    /* a plane's two big triangles have no one depth: painting them first
     * keeps what rests on the ground visible */
    f->depth = g->ground ? -HUGE_VAL : (q[0][2] + q[1][2] + q[2][2]) / 3.0 + g->bias;
    double s = demo_view_shade(q);
    f->c = (dw_rgba){(uint8_t)(s * g->base.r), (uint8_t)(s * g->base.g), (uint8_t)(s * g->base.b), g->base.a};
}

static int by_depth(const void *a, const void *b)
{
    double da = ((const flat *)a)->depth, db = ((const flat *)b)->depth;
    return (da > db) - (da < db);
}

/* The sorted triangles as position and colour arrays, filled in one batch. */
static void fill_sorted(dw_canvas *cv, const gather *g)
{
    float *xy = malloc((size_t)(g->n > 0 ? g->n : 1) * 6 * sizeof *xy);
    dw_rgba *c = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *c);
    for (int i = 0; xy != NULL && c != NULL && i < g->n; ++i) {
        memcpy(&xy[6 * i], g->t[i].xy, sizeof g->t[i].xy);
        c[i] = g->t[i].c;
    }
    if (xy != NULL && c != NULL)
        dw_fill_triangles(cv, xy, c, g->n);
    free(xy);
    free(c);
}

static dw_rgba geom_colour(demo_geom_kind k, uint8_t alpha)
{
    const dw_rgba c[4] = {{120, 120, 120, 255},
                          {215, 215, 215, 255},
                          {(DW_HIGHLIGHT >> 16) & 255, (DW_HIGHLIGHT >> 8) & 255, DW_HIGHLIGHT & 255, 255},
                          {235, 130, 25, 255}};
    dw_rgba out = c[k];
    out.a = k == DEMO_GEOM_GROUND ? 255 : alpha; /* the ground is drawn once */
    return out;
}

static void gather_frame(gather *g, const ode_track *t, int f, bool current)
{
    const dw_frame *fr = &t->rec.frames[f];
    for (int i = 0; i < fr->nitems; ++i) {
        const demo_geom *geom = &t->geoms[fr->item0 + i];
        bool still = geom->kind == DEMO_GEOM_STATIC || geom->kind == DEMO_GEOM_GROUND;
        if (still && !current)
            continue;
        g->base = geom_colour(geom->kind, current ? 255 : 70);
        g->ground = geom->kind == DEMO_GEOM_GROUND;
        demo_geom_triangles(geom, add_triangle, g);
    }
}

static void to_window(const void *map, const double p[3], float xy[2])
{
    const gather *g = map;
    double q[3];
    demo_view_project(g->view, p, q);
    xy[0] = panel_x(g, q[0]);
    xy[1] = panel_y(g, q[1]);
}

static dw_panel draw(void *user, dw_canvas *cv, int side, int first, int f)
{
    const ode_window *w = user;
    const ode_track *t = &w->track[side];
    const dw_mark_style marks = {{0, 170, 60, 255}, 14.0f, 0.0f}; /* green dots, plain red rings */
    if (f < 0)
        return dw_track_panel(&t->rec, f);
    gather g = {&w->view, (float)(side * DW_PANEL), NULL, 0, 0, {0, 0, 0, 0}, 0.0, false};
    for (int j = f - TRAIL > first ? f - TRAIL : first; j <= f; ++j) {
        g.bias = 1e-6 * (j - f);
        gather_frame(&g, t, j, j == f);
    }
    qsort(g.t, (size_t)g.n, sizeof *g.t, by_depth);
    fill_sorted(cv, &g);
    sccd_free(g.t);
    dw_track_draw_marks(cv, &t->rec, first, f, &marks, to_window, &g);
    return dw_track_panel(&t->rec, f);
}

int demo_window_run(const demo_scene *const *sc, int n, mode_cfg mode, double speed, int trials, int frames,
                    const char *screenshot)
{
    ode_window w = {sc, n, mode, speed, trials, NULL, {0}, {{{0}}}};
    const dw_demo demo = {n, load, run, draw, orbit};
    dw_status st = dw_run("ode_demo", &demo, &w, frames, screenshot);
    track_free(&w.track[0]);
    track_free(&w.track[1]);
    return (int)st;
}
