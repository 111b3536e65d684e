/* chipmunk_demo's live window (demo_window.h runs the loop and the two runs).
 *
 * A scene's two runs (no CCD, and the compared mode) are the scene code
 * itself (scenes.c): a demo_hook copies Chipmunk's shapes, contacts, CCD
 * stops and pass-through marks out of the space after every step, and the
 * window shows each step as it is made, both runs in lockstep, one step per
 * 60 Hz frame. The scenes keep their loops and checks, so the window shows
 * what the headless demo counts; the copies also give the fading trail and
 * the held end pose of a trial. */
#define CP_ALLOW_PRIVATE_ACCESS 1
#include <chipmunk/chipmunk_private.h>

#include "demo.h"
#include "demo_window.h"

enum { TRAIL = 5 }; /* earlier steps drawn faintly behind the moving shapes */

/* One recorded run: the track, and every frame's statics and movers, frame
 * after frame (dw_frame.item0 indexes them). */
typedef struct cp_track { dw_track rec; demo_shapes shapes; } cp_track;

typedef struct cp_window {
    const demo_scene *const *sc;
    int n;
    demo_cfg mode;
    double speed;
    int trials;
    const demo_scene *scene; /* loaded */
    cp_track track[2];       /* no CCD, mode */
} cp_window;

/* Free what the track recorded. */
static void track_free(cp_track *t)
{
    dw_track_free(&t->rec);
    demo_shapes_free(&t->shapes);
}

/* ---- recording (demo_hook) ---- */

static void record_contact(cpBody *body, cpArbiter *arb, void *data)
{
    (void)body;
    cpContactPointSet set = cpArbiterGetContactPointSet(arb);
    for (int i = 0; i < set.count; ++i)
        dw_track_contact(data, set.points[i].pointA.x, set.points[i].pointA.y, 0.0);
}

static void record_body_contacts(cpBody *body, void *data) { cpBodyEachArbiter(body, record_contact, data); }

/* A step is recorded after it is made, but shown only when the next step has
 * been made or the trial ends: by then the scene's check has marked a
 * pass-through of the step, so the mark shows with the pose that made it. */
static void on_step(void *user, const demo_ctx *c)
{
    cp_track *t = user;
    if (!dw_track_begin(&t->rec, t->shapes.n))
        return;
    demo_shapes_capture(&t->shapes, c->space, -1);
    demo_shapes_capture(&t->shapes, c->space, t->rec.nframes);
    cpSpaceEachBody(c->space, record_body_contacts, &t->rec);
    dw_track_end(&t->rec, t->shapes.n, c->last.clamps);
}

static void on_mark(void *user, cpVect p)
{
    cp_track *t = user;
    dw_track_mark(&t->rec, p.x, p.y, 0.0, 1);
}

static void on_trial_end(void *user)
{
    cp_track *t = user;
    dw_track_trial_end(&t->rec);
}

static int scene_trials(const cp_window *w) { return w->trials > 0 ? w->trials : w->scene->trials; }

/* One side: the scene under no CCD (side 0) or the mode, hooked. */
static void run(void *user, int side, dw_side *handle)
{
    cp_window *w = user;
    cp_track *t = &w->track[side];
    demo_hook hook = {on_step, on_mark, on_trial_end, t};
    demo_result r = {0};
    demo_ctx c = {0};
    t->rec.side = handle;
    c.cfg = side == 0 ? (demo_cfg){DEMO_OFF, 1, 0, 0} : w->mode;
    c.cfg.speed = w->speed > 0 ? w->speed : w->scene->speed;
    c.cfg.trials = scene_trials(w);
    c.result = &r;
    c.hook = &hook;
    w->scene->run(&c);
}

static int load(void *user, int k)
{
    cp_window *w = user;
    track_free(&w->track[0]);
    track_free(&w->track[1]);
    w->scene = w->sc[k];
    return w->scene->one_space ? 1 : scene_trials(w); /* the trials the window sees end */
}

/* ---- drawing ---- */

/* World → window pixels for one panel (y up in the world, down on screen). */
typedef struct panel_map { float x0, k, cx, cy; } panel_map;

static float map_x(const panel_map *m, double x) { return m->x0 + 0.5f * DW_PANEL + m->k * (float)(x - m->cx); }
static float map_y(const panel_map *m, double y) { return DW_HUD + 0.5f * DW_PANEL - m->k * (float)(y - m->cy); }

static dw_rgba tint(int t, uint8_t alpha)
{
    const dw_rgba c[3] = {{40, 40, 40, 255},
                          {(DW_HIGHLIGHT >> 16) & 255, (DW_HIGHLIGHT >> 8) & 255, DW_HIGHLIGHT & 255, 255},
                          {230, 128, 26, 255}};
    dw_rgba out = c[t < 0 || t > 2 ? 0 : t];
    out.a = alpha;
    return out;
}

static void draw_shape(dw_canvas *cv, const panel_map *m, const demo_shape *s, uint8_t alpha)
{
    dw_rgba c = tint(s->tint, alpha);
    float r = m->k * (float)s->r;
    if (s->kind == 0) {
        dw_fill_disc(cv, map_x(m, s->x[0]), map_y(m, s->y[0]), r, c);
        return;
    }
    if (s->kind == 1) {
        dw_fill_capsule(cv, map_x(m, s->x[0]), map_y(m, s->y[0]), map_x(m, s->x[1]), map_y(m, s->y[1]), r, c);
        return;
    }
    float x[16], y[16];
    for (int i = 0; i < s->n; ++i) {
        x[i] = map_x(m, s->x[i]);
        y[i] = map_y(m, s->y[i]);
    }
    dw_fill_convex(cv, x, y, s->n, c);
    for (int i = 0; r >= 0.5f && i < s->n; ++i) /* the rounding radius as a rim */
        dw_fill_capsule(cv, x[i], y[i], x[(i + 1) % s->n], y[(i + 1) % s->n], r, c);
}

/* The moving shapes (statics too when `statics`) of recorded frame f. */
static void draw_frame(dw_canvas *cv, const panel_map *m, const cp_track *t, int f, bool statics, uint8_t alpha)
{
    const dw_frame *fr = &t->rec.frames[f];
    for (int i = 0; i < fr->nitems; ++i) {
        const demo_shape *s = &t->shapes.items[fr->item0 + i];
        if ((s->frame < 0) == statics)
            draw_shape(cv, m, s, alpha);
    }
}

static void to_window(const void *map, const double p[3], float xy[2])
{
    xy[0] = map_x(map, p[0]);
    xy[1] = map_y(map, p[1]);
}

static dw_panel draw(void *user, dw_canvas *cv, int side, int first, int f)
{
    const cp_window *w = user;
    const cp_track *t = &w->track[side];
    cpBB v = w->scene->view;
    panel_map m = {(float)(side * DW_PANEL), (float)(DW_PANEL / fmax(v.r - v.l, v.t - v.b)), (float)(0.5 * (v.l + v.r)),
                   (float)(0.5 * (v.b + v.t))};
    const dw_mark_style marks = {{0, 160, 60, 255}, 16.0f, 8.0f}; /* green dots, red rings crossed by an X */
    if (f < 0)
        return dw_track_panel(&t->rec, f);
    for (int j = f - TRAIL > first ? f - TRAIL : first; j < f; ++j)
        draw_frame(cv, &m, t, j, false, (uint8_t)(40 + 20 * (j - f + TRAIL)));
    draw_frame(cv, &m, t, f, true, 255);
    draw_frame(cv, &m, t, f, false, 255);
    dw_track_draw_marks(cv, &t->rec, first, f, &marks, to_window, &m);
    return dw_track_panel(&t->rec, f);
}

int demo_window_run(const demo_scene *const *sc, int n, demo_cfg mode, double speed, int trials, int frames,
                    const char *screenshot)
{
    cp_window w = {sc, n, mode, speed, trials, NULL, {{{0}}}};
    const dw_demo demo = {n, load, run, draw, NULL};
    dw_status st = dw_run("chipmunk_demo", &demo, &w, frames, screenshot);
    track_free(&w.track[0]);
    track_free(&w.track[1]);
    return (int)st;
}
