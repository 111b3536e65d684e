/* The demos' live window (demo_window.h): SDL_Renderer, flat-filled
 * triangles through SDL_RenderGeometry (SDL ≥ 2.0.18), screenshots read back
 * with SDL_RenderReadPixels and written by cairo, each side's run in a
 * thread handed a baton frame by frame. Without SDL2 in the build, dw_run
 * reports that, and the other calls (never reached then) do nothing. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "demo_window.h"

#ifdef SCCD_HAVE_SDL2 /* the rest needs SDL2; without it, the stubs at the end */

#include <SDL.h>
#include <cairo.h>

#define DW_HZ 60
#define DW_MAX_POLY 64
#define DW_PI 3.14159265358979323846

/* ---- recorded trials ---- */

/* Where each finished trial of a run begins: trial t holds frames
 * [start[t], start[t+1]), t < n. */
typedef struct trials { int *start; int n, cap; } trials;

/* End the current trial at `frames` frames recorded in all. */
static void trials_end(trials *tr, int frames)
{
    if (!sccd_adapter_reserve((void **)&tr->start, &tr->cap, tr->n + 2, sizeof *tr->start))
        return;
    if (tr->n == 0)
        tr->start[0] = 0;
    tr->start[++tr->n] = frames;
}

/* The first frame of trial t (finished or under way). */
static int trials_first(const trials *tr, int t) { return tr->n == 0 ? 0 : tr->start[t < tr->n ? t : tr->n]; }

/* ---- a run in a thread that pauses after every step ---- */

/* A fiber hands one baton between the window's thread and the run's:
 * exactly one of them runs at a time, so the run's data (a Chipmunk space, an
 * ODE world, the recording) is only ever touched by one thread at once, and
 * the mutex orders every hand-over. */
typedef struct fiber {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool run_turn; /* the run holds the baton */
    bool free_run; /* yields return at once (the window stopped watching) */
    bool finished;
    void (*body)(void *user);
    void *user;
} fiber;

/* Wait (mutex held) until the baton is on the given side. */
static void wait_turn(fiber *f, bool run_turn)
{
    while (f->run_turn != run_turn)
        pthread_cond_wait(&f->cv, &f->mu);
}

static void pass_baton(fiber *f, bool to_run)
{
    f->run_turn = to_run;
    pthread_cond_broadcast(&f->cv);
}

static void *fiber_main(void *p)
{
    fiber *f = p;
    pthread_mutex_lock(&f->mu);
    wait_turn(f, true);
    pthread_mutex_unlock(&f->mu);
    f->body(f->user);
    pthread_mutex_lock(&f->mu);
    f->finished = true;
    pass_baton(f, false);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* Start body(user) in a new thread, paused before its first instruction;
 * NULL when no thread can be made. */
static fiber *fiber_start(void (*body)(void *user), void *user)
{
    fiber *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->body = body;
    f->user = user;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    if (pthread_create(&f->thread, NULL, fiber_main, f) == 0)
        return f;
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    free(f);
    return NULL;
}

/* From the run: hand control back to the window and wait to be resumed. */
static void fiber_yield(fiber *f)
{
    pthread_mutex_lock(&f->mu);
    if (!f->free_run) {
        pass_baton(f, false);
        wait_turn(f, true);
    }
    pthread_mutex_unlock(&f->mu);
}

/* From the window: let the run go on to its next yield; false when it has
 * finished. */
static bool fiber_resume(fiber *f)
{
    pthread_mutex_lock(&f->mu);
    if (!f->finished) {
        pass_baton(f, true);
        wait_turn(f, false);
    }
    bool more = !f->finished;
    pthread_mutex_unlock(&f->mu);
    return more;
}

/* From the window: let the run finish without pausing, join its thread and
 * free it (NULL: nothing). */
static void fiber_stop(fiber *f)
{
    if (f == NULL)
        return;
    pthread_mutex_lock(&f->mu);
    f->free_run = true;
    pass_baton(f, true);
    pthread_mutex_unlock(&f->mu);
    pthread_join(f->thread, NULL);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    free(f);
}

/* ---- two runs in lockstep ---- */

typedef struct pair pair;

struct dw_side {
    trials trials;
    int frames;   /* recorded so far */
    bool shown;   /* the last recorded frame was handed to the window */
    bool finished;
    fiber *fiber;
    pair *pair;
    int index;    /* 0 left, 1 right */
};

/* The two sides of the loaded scene: trial t of both at once, a side that
 * ends its trial first waiting on its last frame, each trial ending on a
 * DW_HOLD hold. */
struct pair {
    const dw_demo *demo;
    void *user;
    dw_side side[2];
    int t, hold, ntrials; /* current trial, frames held so far, trials per run */
};

/* From the run, before recording a step: show the last recorded one (the run
 * pauses there until the next frame). */
static void side_show(dw_side *s)
{
    if (!s->shown)
        fiber_yield(s->fiber);
    s->shown = true;
}

/* After recording a step. */
static void side_recorded(dw_side *s)
{
    ++s->frames;
    s->shown = false;
}

/* At the end of a trial: its last frame is shown and held (the run pauses)
 * until the other side ends the trial too. */
static void side_trial_end(dw_side *s)
{
    trials_end(&s->trials, s->frames);
    fiber_yield(s->fiber);
    s->shown = true;
}

static void side_body(void *p)
{
    dw_side *s = p;
    s->pair->demo->run(s->pair->user, s->index, s);
}

/* Stop both runs (they finish without pausing) and forget their trials. */
static void pair_stop(pair *p)
{
    for (int i = 0; i < 2; ++i) {
        fiber_stop(p->side[i].fiber);
        sccd_free(p->side[i].trials.start);
        p->side[i] = (dw_side){.pair = p, .index = i, .shown = true};
    }
}

/* The side is done with trial t: it ended it, or its run is over. */
static bool side_ended(const pair *p, int i) { return p->side[i].finished || p->side[i].trials.n > p->t; }

/* The side's first frame of trial t, and the frame it shows now (its latest
 * in trial t), or −1 when it has none yet. */
static int side_first(const pair *p, int i) { return trials_first(&p->side[i].trials, p->t); }

static int side_frame(const pair *p, int i)
{
    const dw_side *s = &p->side[i];
    int first = side_first(p, i), n = p->t < s->trials.n ? s->trials.start[p->t + 1] : s->frames;
    return n > first ? n - 1 : -1;
}

/* One frame on: resume each side still in trial t, hold, or go to the next
 * trial; false when both runs are over. */
static bool pair_advance(pair *p)
{
    for (int i = 0; i < 2; ++i)
        if (!side_ended(p, i))
            p->side[i].finished = !fiber_resume(p->side[i].fiber);
    if (!side_ended(p, 0) || !side_ended(p, 1))
        return true;
    if (p->side[0].finished && p->side[1].finished && side_frame(p, 0) < 0 && side_frame(p, 1) < 0)
        return false; /* both runs over, their last trial held */
    if (++p->hold < DW_HOLD)
        return true;
    p->hold = 0;
    ++p->t;
    return pair_advance(p); /* the next trial's first step (or the end): no empty frame between */
}

/* Load scene k and start both runs, showing their first step. */
static bool pair_load(pair *p, int k)
{
    pair_stop(p);
    p->t = p->hold = 0;
    p->ntrials = p->demo->load(p->user, k);
    if (p->ntrials <= 0)
        return false;
    for (int i = 0; i < 2; ++i) /* the tracks are ready: the runs may start */
        if ((p->side[i].fiber = fiber_start(side_body, &p->side[i])) == NULL)
            return false;
    return pair_advance(p);
}

static double pair_progress(const pair *p)
{
    return fmin((p->t + (double)p->hold / DW_HOLD) / p->ntrials, 1.0);
}

/* ---- drawing ---- */

struct dw_canvas { SDL_Renderer *ren; };

static SDL_Color to_sdl(dw_rgba c) { return (SDL_Color){c.r, c.g, c.b, c.a}; }

void dw_fill_convex(dw_canvas *cv, const float *x, const float *y, int n, dw_rgba c)
{
    if (n < 3 || n > DW_MAX_POLY)
        return;
    SDL_Vertex v[DW_MAX_POLY];
    int idx[3 * (DW_MAX_POLY - 2)];
    for (int i = 0; i < n; ++i)
        v[i] = (SDL_Vertex){{x[i], y[i]}, to_sdl(c), {0.0f, 0.0f}};
    for (int i = 0; i + 2 < n; ++i) { /* a fan from vertex 0 */
        idx[3 * i] = 0;
        idx[3 * i + 1] = i + 1;
        idx[3 * i + 2] = i + 2;
    }
    SDL_RenderGeometry(cv->ren, NULL, v, n, idx, 3 * (n - 2));
}

void dw_fill_triangles(dw_canvas *cv, const float *xy, const dw_rgba *c, int n)
{
    enum { BATCH = 1024 }; /* triangles per SDL_RenderGeometry call */
    SDL_Vertex v[3 * BATCH];
    for (int first = 0; first < n; first += BATCH) {
        int m = n - first < BATCH ? n - first : BATCH;
        for (int i = 0; i < 3 * m; ++i)
            v[i] = (SDL_Vertex){{xy[6 * first + 2 * i], xy[6 * first + 2 * i + 1]}, to_sdl(c[first + i / 3]), {0.0f, 0.0f}};
        SDL_RenderGeometry(cv->ren, NULL, v, 3 * m, NULL, 0);
    }
}

/* Sides of a round shape of radius r pixels: enough that the polygon is
 * within a quarter pixel of the circle, at most DW_MAX_POLY. */
static int round_sides(float r)
{
    int n = (int)ceil(DW_PI / acos(1.0 - 0.25 / fmax(r, 0.5)));
    return n < 8 ? 8 : n > DW_MAX_POLY ? DW_MAX_POLY : n;
}

void dw_fill_disc(dw_canvas *cv, float x, float y, float r, dw_rgba c)
{
    float px[DW_MAX_POLY], py[DW_MAX_POLY];
    int n = round_sides(r);
    for (int i = 0; i < n; ++i) {
        px[i] = x + r * (float)cos(2.0 * DW_PI * i / n);
        py[i] = y + r * (float)sin(2.0 * DW_PI * i / n);
    }
    dw_fill_convex(cv, px, py, n, c);
}

void dw_fill_capsule(dw_canvas *cv, float ax, float ay, float bx, float by, float r, dw_rgba c)
{
    r = r < 0.5f ? 0.5f : r;
    float dx = bx - ax, dy = by - ay, len = sqrtf(dx * dx + dy * dy);
    if (len > 0.0f) {
        float nx = -dy / len * r, ny = dx / len * r;
        float x[4] = {ax + nx, bx + nx, bx - nx, ax - nx}, y[4] = {ay + ny, by + ny, by - ny, ay - ny};
        dw_fill_convex(cv, x, y, 4, c);
    }
    if (r >= 1.0f) { /* round caps; thinner lines need none */
        dw_fill_disc(cv, ax, ay, r, c);
        dw_fill_disc(cv, bx, by, r, c);
    }
}

void dw_fill_rect(dw_canvas *cv, float x, float y, float w, float h, dw_rgba c)
{
    float px[4] = {x, x + w, x + w, x}, py[4] = {y, y, y + h, y + h};
    dw_fill_convex(cv, px, py, 4, c);
}

void dw_ring(dw_canvas *cv, float x, float y, float r, float w, dw_rgba c)
{
    int n = round_sides(r);
    for (int i = 0; i < n; ++i) {
        double a0 = 2.0 * DW_PI * i / n, a1 = 2.0 * DW_PI * (i + 1) / n;
        float ro = r + 0.5f * w, ri = r - 0.5f * w;
        float px[4] = {x + ri * (float)cos(a0), x + ro * (float)cos(a0), x + ro * (float)cos(a1), x + ri * (float)cos(a1)};
        float py[4] = {y + ri * (float)sin(a0), y + ro * (float)sin(a0), y + ro * (float)sin(a1), y + ri * (float)sin(a1)};
        dw_fill_convex(cv, px, py, 4, c);
    }
}

/* Restrict drawing to the panel at x0 below the HUD; x0 < 0 lifts it. */
static void clip_panel(dw_canvas *cv, int x0)
{
    SDL_Rect r = {x0, DW_HUD, DW_PANEL, DW_PANEL};
    SDL_RenderSetClipRect(cv->ren, x0 < 0 ? NULL : &r);
}

/* One panel's HUD: its mode swatch, the progress (0..1), a red square per
 * pass-through (up to 20), a yellow flash when the CCD stopped a body this
 * frame, and the pause sign. */
static void hud(dw_canvas *cv, int x0, dw_rgba mode, double progress, int passes, bool stopped, bool paused)
{
    const dw_rgba strip = {225, 225, 225, 255}, track = {190, 190, 190, 255}, bar = {90, 90, 90, 255},
                  red = {215, 0, 0, 255}, yellow = {245, 200, 0, 255};
    float x = (float)x0;
    dw_fill_rect(cv, x, 0, DW_PANEL, DW_HUD, strip);
    dw_fill_rect(cv, x + 4, 3, 14, 14, mode);
    dw_fill_rect(cv, x + 26, 7, 160, 6, track);
    dw_fill_rect(cv, x + 26, 7, (float)(160.0 * fmin(fmax(progress, 0.0), 1.0)), 6, bar);
    for (int i = 0; i < passes && i < 20; ++i)
        dw_fill_rect(cv, x + 200 + 12.0f * i, 5, 10, 10, red);
    if (stopped)
        dw_fill_rect(cv, x + DW_PANEL - 48, 3, 14, 14, yellow);
    if (paused) {
        dw_fill_rect(cv, x + DW_PANEL - 22, 3, 5, 14, bar);
        dw_fill_rect(cv, x + DW_PANEL - 14, 3, 5, 14, bar);
    }
}

/* The back buffer as PNG (before SDL_RenderPresent, which may clear it):
 * SDL's ARGB8888 is cairo's RGB24 word for word (native-endian 0xXXRRGGBB). */
static bool screenshot(SDL_Renderer *ren, const char *path)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, DW_WIDTH, DW_HEIGHT);
    SDL_Rect all = {0, 0, DW_WIDTH, DW_HEIGHT};
    cairo_surface_flush(s);
    cairo_status_t status = cairo_surface_status(s);
    const char *why = NULL;
    if (status != CAIRO_STATUS_SUCCESS)
        why = cairo_status_to_string(status);
    else if (SDL_RenderReadPixels(ren, &all, SDL_PIXELFORMAT_ARGB8888, cairo_image_surface_get_data(s),
                                  cairo_image_surface_get_stride(s)) != 0)
        why = SDL_GetError();
    else {
        cairo_surface_mark_dirty(s);
        status = cairo_surface_write_to_png(s, path);
        if (status != CAIRO_STATUS_SUCCESS)
            why = cairo_status_to_string(status);
    }
    cairo_surface_destroy(s);
    if (why != NULL)
        fprintf(stderr, "demo window: cannot write the screenshot %s (%s)\n", path, why);
    return why == NULL;
}

/* ---- the window ---- */

typedef struct loop_state { bool quit, paused, restart, next; int dx, dy; } loop_state;

static void poll_keys(loop_state *s)
{
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT)
            s->quit = true;
        if (e.type != SDL_KEYDOWN)
            continue;
        switch (e.key.keysym.sym) {
        case SDLK_ESCAPE: case SDLK_q: s->quit = true; break;
        case SDLK_SPACE: s->paused = !s->paused; break;
        case SDLK_r: s->restart = true; break;
        case SDLK_n: s->next = true; break;
        case SDLK_LEFT: --s->dx; break;
        case SDLK_RIGHT: ++s->dx; break;
        case SDLK_UP: --s->dy; break;
        case SDLK_DOWN: ++s->dy; break;
        default: break;
        }
    }
}

/* Both panels, their HUDs and the line between them. */
static void pair_draw(pair *p, dw_canvas *cv, bool paused)
{
    const dw_rgba swatch[2] = {{150, 150, 150, 255}, {0, 160, 80, 255}};
    for (int i = 0; i < 2; ++i) {
        clip_panel(cv, i * DW_PANEL);
        dw_panel st = p->demo->draw(p->user, cv, i, side_first(p, i), side_frame(p, i));
        clip_panel(cv, -1);
        hud(cv, i * DW_PANEL, swatch[i], pair_progress(p), st.passes, st.stopped, paused);
    }
    dw_fill_rect(cv, DW_PANEL - 1, 0, 2, DW_HEIGHT, (dw_rgba){120, 120, 120, 255});
}

/* Apply the keys and step the runs; false when a scene would not load. */
static bool update(pair *p, loop_state *s, int *scene)
{
    if ((s->dx || s->dy) && p->demo->orbit != NULL)
        p->demo->orbit(p->user, s->dx, s->dy);
    s->dx = s->dy = 0;
    if (s->next) /* the next scene */
        *scene = (*scene + 1) % p->demo->scenes;
    if (s->next || s->restart) {
        s->next = s->restart = false;
        return pair_load(p, *scene);
    }
    if (s->paused || pair_advance(p))
        return true;
    *scene = (*scene + 1) % p->demo->scenes; /* this one is over */
    return pair_load(p, *scene);
}

/* The frame loop on an open renderer. */
static dw_status run_loop(SDL_Renderer *ren, pair *p, int frames, const char *shot)
{
    dw_canvas cv = {ren};
    loop_state s = {0};
    int scene = 0;
    if (!pair_load(p, scene))
        return DW_FAILED;
    Uint64 start = SDL_GetTicks64();
    for (int frame = 1;; ++frame) {
        poll_keys(&s);
        SDL_SetRenderDrawColor(ren, 255, 255, 255, 255);
        SDL_RenderSetClipRect(ren, NULL);
        SDL_RenderClear(ren);
        pair_draw(p, &cv, s.paused);
        if (s.quit || (frames > 0 && frame >= frames)) /* the last frame: saved when asked */
            return shot == NULL || screenshot(ren, shot) ? DW_QUIT : DW_FAILED;
        SDL_RenderPresent(ren);
        Uint64 due = start + (Uint64)frame * 1000u / DW_HZ, now = SDL_GetTicks64();
        if (now < due)
            SDL_Delay((Uint32)(due - now));
        if (!update(p, &s, &scene))
            return DW_FAILED;
    }
}

dw_status dw_run(const char *title, const dw_demo *demo, void *user, int frames, const char *shot)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "%s: cannot open a window (%s); running headless\n", title, SDL_GetError());
        return DW_NO_WINDOW;
    }
    dw_status st = DW_NO_WINDOW;
    SDL_Window *win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, DW_WIDTH, DW_HEIGHT, 0);
    SDL_Renderer *ren = win != NULL ? SDL_CreateRenderer(win, -1, 0) : NULL;
    if (ren != NULL) {
        pair p = {demo, user, {{.shown = true}, {.shown = true}}, 0, 0, 0};
        SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);
        st = run_loop(ren, &p, frames, shot);
        pair_stop(&p); /* the runs finish (unseen) before the demo frees what they record */
        SDL_DestroyRenderer(ren);
    } else
        fprintf(stderr, "%s: cannot open a window (%s); running headless\n", title, SDL_GetError());
    if (win != NULL)
        SDL_DestroyWindow(win);
    SDL_Quit();
    return st;
}

#else /* no SDL2: the demos run headless */

dw_status dw_run(const char *title, const dw_demo *demo, void *user, int frames, const char *shot)
{
    (void)demo, (void)user, (void)frames, (void)shot;
    fprintf(stderr, "%s: --window needs SDL2, which this build does not have (install libsdl2-dev and rebuild); "
                    "running headless\n", title);
    return DW_NO_WINDOW;
}

void dw_fill_convex(dw_canvas *cv, const float *x, const float *y, int n, dw_rgba c) { (void)cv, (void)x, (void)y, (void)n, (void)c; }
void dw_fill_triangles(dw_canvas *cv, const float *xy, const dw_rgba *c, int n) { (void)cv, (void)xy, (void)c, (void)n; }
void dw_fill_disc(dw_canvas *cv, float x, float y, float r, dw_rgba c) { (void)cv, (void)x, (void)y, (void)r, (void)c; }
void dw_fill_capsule(dw_canvas *cv, float ax, float ay, float bx, float by, float r, dw_rgba c)
{
    (void)cv, (void)ax, (void)ay, (void)bx, (void)by, (void)r, (void)c;
}
void dw_fill_rect(dw_canvas *cv, float x, float y, float w, float h, dw_rgba c) { (void)cv, (void)x, (void)y, (void)w, (void)h, (void)c; }
void dw_ring(dw_canvas *cv, float x, float y, float r, float w, dw_rgba c) { (void)cv, (void)x, (void)y, (void)r, (void)w, (void)c; }
static void side_show(dw_side *s) { (void)s; }
static void side_recorded(dw_side *s) { (void)s; }
static void side_trial_end(dw_side *s) { (void)s; }

#endif

/* ---- a run's recording (with or without SDL2: the runs call it) ---- */

bool dw_track_begin(dw_track *t, int items)
{
    side_show(t->side);
    if (!sccd_adapter_reserve((void **)&t->frames, &t->fcap, t->nframes + 1, sizeof *t->frames))
        return false;
    t->frames[t->nframes] = (dw_frame){items, 0, t->ncontacts, 0, false};
    return true;
}

void dw_track_contact(dw_track *t, double x, double y, double z)
{
    if (sccd_adapter_reserve((void **)&t->contacts, &t->ccap, t->ncontacts + 1, sizeof *t->contacts))
        t->contacts[t->ncontacts++] = (dw_point){{x, y, z}};
}

void dw_track_end(dw_track *t, int items, unsigned long long clamps)
{
    dw_frame *f = &t->frames[t->nframes++];
    f->nitems = items - f->item0;
    f->ncontacts = t->ncontacts - f->contact0;
    f->stopped = clamps > t->clamps; /* the stop counters only grow within a trial */
    t->clamps = clamps;
    side_recorded(t->side);
}

void dw_track_mark(dw_track *t, double x, double y, double z, int count)
{
    if (count > 0 && sccd_adapter_reserve((void **)&t->marks, &t->mcap, t->nmarks + 1, sizeof *t->marks))
        t->marks[t->nmarks++] = (dw_mark){{{x, y, z}}, t->nframes - 1, count};
}

void dw_track_trial_end(dw_track *t)
{
    t->clamps = 0; /* the next trial's counters start from zero */
    side_trial_end(t->side);
}

dw_panel dw_track_panel(const dw_track *t, int f)
{
    if (f < 0)
        return (dw_panel){0, false};
    int passes = 0;
    for (int i = 0; i < t->nmarks; ++i)
        passes += t->marks[i].frame <= f ? t->marks[i].count : 0;
    return (dw_panel){passes, t->frames[f].stopped};
}

void dw_track_free(dw_track *t)
{
    sccd_free(t->frames);
    sccd_free(t->contacts);
    sccd_free(t->marks);
    *t = (dw_track){0};
}

void dw_track_draw_marks(dw_canvas *cv, const dw_track *t, int first, int f, const dw_mark_style *style, dw_to_window *to_window,
                         const void *map)
{
    const dw_rgba red = {215, 0, 0, 255};
    const dw_frame *fr = &t->frames[f];
    float xy[2];
    for (int i = 0; i < fr->ncontacts; ++i) {
        to_window(map, t->contacts[fr->contact0 + i].p, xy);
        dw_fill_disc(cv, xy[0], xy[1], 3.0f, style->contact);
    }
    for (int i = 0; i < t->nmarks; ++i) {
        if (t->marks[i].frame < first || t->marks[i].frame > f)
            continue; /* another trial's, or still to come */
        to_window(map, t->marks[i].at.p, xy);
        dw_ring(cv, xy[0], xy[1], style->ring, 3.0f, red);
        float x = xy[0], y = xy[1], c = style->cross;
        if (c > 0.0f) { /* an X inside the ring */
            dw_fill_capsule(cv, x - c, y - c, x + c, y + c, 1.5f, red);
            dw_fill_capsule(cv, x - c, y + c, x + c, y - c, 1.5f, red);
        }
    }
}
