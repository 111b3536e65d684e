/* The demo's stepping harness and strobe renderer (cairo, headless). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cairo.h>
#define CP_ALLOW_PRIVATE_ACCESS 1
#include <chipmunk/chipmunk_private.h>

#include "demo.h"
#include "cp_support.h"
#include "timing.h"

#define DEMO_HZ 60.0

/* ---- stepping ---- */

void demo_space_begin(demo_ctx *c, cpVect gravity)
{
    c->space = cpSpaceNew();
    cpSpaceSetGravity(c->space, gravity);
    cpSpaceSetIterations(c->space, 20);
    c->dt = 1.0 / DEMO_HZ;
    c->ccd = NULL;
    memset(&c->last, 0, sizeof c->last);
    if (c->cfg.mode == DEMO_SECTOR || c->cfg.mode == DEMO_SPECULATIVE) {
        c->ccd = sccd_cp_attach(c->space);
        sccd_ccd_options o = sccd_cp_get_options(c->ccd);
        o.candidates = c->cfg.mode == DEMO_SECTOR ? SCCD_CANDIDATES_SWEEP : SCCD_CANDIDATES_START_END;
        sccd_cp_set_options(c->ccd, o);
    }
}

static void add_counters(sccd_cp_counters *sum, sccd_cp_counters a)
{
    sum->steps += a.steps;
    sum->candidates += a.candidates;
    sum->tois += a.tois;
    sum->clamps += a.clamps;
    sum->overlapped += a.overlapped;
    sum->failed += a.failed;
    sum->errors += a.errors;
    sum->seconds += a.seconds;
}

void demo_space_end(demo_ctx *c)
{
    if (c->hook != NULL && c->hook->trial_end != NULL)
        c->hook->trial_end(c->hook->user);
    if (c->ccd != NULL) {
        add_counters(&c->result->ccd, sccd_cp_get_counters(c->ccd));
        sccd_cp_detach(c->ccd);
    }
    sccd_cp_space_free_all(c->space);
    c->space = NULL;
    c->strobe = NULL; /* only the first trial is drawn */
}

void demo_ccd_body(demo_ctx *c, cpBody *body, cpVect pivot)
{
    if (c->ccd == NULL)
        return;
    sccd_cp_body_enable(c->ccd, body);
    sccd_cp_body_set_pivot(c->ccd, body, pivot);
}

static void strobe_capture(demo_strobe *s, cpSpace *space, int frame);

void demo_step(demo_ctx *c)
{
    int n = c->cfg.mode == DEMO_SUBSTEP ? c->cfg.substeps : 1;
    if (c->strobe != NULL && c->frame == 0) /* the start pose too */
        strobe_capture(c->strobe, c->space, c->frame++);
    double t0 = sccd_cpu_seconds();
    for (int i = 0; i < n; ++i)
        cpSpaceStep(c->space, c->dt / n);
    double spent = sccd_cpu_seconds() - t0;
    c->result->step_seconds += spent;
    ++c->result->steps;
    sccd_cp_counters k = sccd_cp_get_counters(c->ccd);
    if (c->csv != NULL)
        fprintf(c->csv, "%ld,%.3f,%.3f,%llu,%llu,%llu\n", c->result->steps, 1e6 * spent,
                1e6 * (k.seconds - c->last.seconds), (unsigned long long)(k.candidates - c->last.candidates), (unsigned long long)(k.tois - c->last.tois),
                (unsigned long long)(k.clamps - c->last.clamps));
    c->last = k;
    if (c->strobe != NULL)
        strobe_capture(c->strobe, c->space, c->frame);
    ++c->frame;
    if (c->hook != NULL && c->hook->step != NULL)
        c->hook->step(c->hook->user, c);
}

typedef struct touch_query { cpBody *other; bool found; } touch_query;

static void touch_each(cpBody *body, cpArbiter *arb, void *data)
{
    touch_query *q = data;
    CP_ARBITER_GET_BODIES(arb, a, b);
    if ((a == body && b == q->other) || (b == body && a == q->other))
        q->found = true;
}

bool demo_touching(cpBody *a, cpBody *b)
{
    touch_query q = {b, false};
    cpBodyEachArbiter(a, touch_each, &q);
    return q.found;
}

double demo_wrap(double d)
{
    d = fmod(d, 2.0 * SCCD_PI);
    if (d > SCCD_PI)
        d -= 2.0 * SCCD_PI;
    if (d <= -SCCD_PI)
        d += 2.0 * SCCD_PI;
    return d;
}

/* ---- strobe ---- */

struct demo_strobe {
    cpBB view;
    int max_frames;
    char title[96];
    demo_shapes shapes;
    int frames;
    cpVect marks[64];
    int nmarks;
};

demo_strobe *demo_strobe_new(cpBB view, int max_frames, const char *title)
{
    demo_strobe *s = calloc(1, sizeof *s);
    s->view = view;
    s->max_frames = max_frames;
    snprintf(s->title, sizeof s->title, "%s", title);
    return s;
}

void demo_strobe_free(demo_strobe *s)
{
    if (s == NULL)
        return;
    demo_shapes_free(&s->shapes);
    free(s);
}

void demo_mark(demo_ctx *c, cpVect p)
{
    demo_strobe *s = c->strobe;
    if (s != NULL && s->nmarks < 64)
        s->marks[s->nmarks++] = p;
    if (c->hook != NULL && c->hook->mark != NULL)
        c->hook->mark(c->hook->user, p);
}

typedef struct capture_ctx { demo_shapes *list; int frame; } capture_ctx;

static void capture_shape(cpShape *shape, void *data)
{
    capture_ctx *k = data;
    cpBody *body = cpShapeGetBody(shape);
    bool is_static = cpBodyGetType(body) == CP_BODY_TYPE_STATIC;
    if ((k->frame >= 0) == is_static)
        return;
    demo_shapes *s = k->list;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->items = realloc(s->items, (size_t)s->cap * sizeof *s->items);
    }
    demo_shape *it = &s->items[s->n++];
    memset(it, 0, sizeof *it);
    it->frame = k->frame;
    /* Swords, bats and blades (kinematic, or hinged by a constraint) in blue, loose bodies in orange. */
    it->tint = is_static ? 0 : (cpBodyGetType(body) == CP_BODY_TYPE_KINEMATIC || body->constraintList != NULL) ? 1 : 2;
    switch (shape->klass->type) { /* Chipmunk has no public shape-type query */
    case CP_CIRCLE_SHAPE: {
        cpVect c = cpBodyLocalToWorld(body, cpCircleShapeGetOffset(shape));
        it->kind = 0;
        it->n = 1;
        it->x[0] = c.x;
        it->y[0] = c.y;
        it->r = cpCircleShapeGetRadius(shape);
        break;
    }
    case CP_SEGMENT_SHAPE: {
        cpVect a = cpBodyLocalToWorld(body, cpSegmentShapeGetA(shape)), b = cpBodyLocalToWorld(body, cpSegmentShapeGetB(shape));
        it->kind = 1;
        it->n = 2;
        it->x[0] = a.x, it->y[0] = a.y, it->x[1] = b.x, it->y[1] = b.y;
        it->r = cpSegmentShapeGetRadius(shape);
        break;
    }
    default: {
        it->kind = 2;
        it->n = cpPolyShapeGetCount(shape) < 16 ? cpPolyShapeGetCount(shape) : 16;
        for (int i = 0; i < it->n; ++i) {
            cpVect v = cpBodyLocalToWorld(body, cpPolyShapeGetVert(shape, i));
            it->x[i] = v.x;
            it->y[i] = v.y;
        }
        it->r = cpPolyShapeGetRadius(shape);
        break;
    }
    }
}

void demo_shapes_capture(demo_shapes *list, cpSpace *space, int frame)
{
    capture_ctx k = {list, frame < 0 ? -1 : frame};
    cpSpaceEachShape(space, capture_shape, &k);
}

void demo_shapes_free(demo_shapes *list)
{
    free(list->items);
    *list = (demo_shapes){0};
}

static void strobe_capture(demo_strobe *s, cpSpace *space, int frame)
{
    if (frame >= s->max_frames)
        return;
    if (frame == 0)
        demo_shapes_capture(&s->shapes, space, -1);
    demo_shapes_capture(&s->shapes, space, frame);
    s->frames = frame + 1;
}

static void draw_item(cairo_t *cr, const demo_shape *it, double alpha, double px)
{
    static const double tint[3][3] = {{0.15, 0.15, 0.15}, {0.10, 0.35, 0.85}, {0.90, 0.50, 0.10}};
    const double *c = tint[it->tint];
    cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
    if (it->kind == 0) {
        cairo_arc(cr, it->x[0], it->y[0], it->r, 0, 2 * SCCD_PI);
        cairo_fill(cr);
        return;
    }
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_move_to(cr, it->x[0], it->y[0]);
    for (int i = 1; i < it->n; ++i)
        cairo_line_to(cr, it->x[i], it->y[i]);
    if (it->kind == 2) {
        cairo_close_path(cr);
        cairo_fill_preserve(cr);
    }
    cairo_set_line_width(cr, sccd_max(2.0 * it->r, 1.2 * px));
    cairo_stroke(cr);
}

/* One panel: world box s->view mapped into the square at (x0, y0), size. */
static void draw_panel(cairo_t *cr, const demo_strobe *s, double x0, double y0, double size)
{
    cairo_save(cr);
    cairo_rectangle(cr, x0, y0, size, size);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill_preserve(cr);
    cairo_clip(cr);
    double w = s->view.r - s->view.l, h = s->view.t - s->view.b, k = size / sccd_max(w, h);
    cairo_translate(cr, x0 + 0.5 * size, y0 + 0.5 * size);
    cairo_scale(cr, k, -k); /* y up */
    cairo_translate(cr, -0.5 * (s->view.l + s->view.r), -0.5 * (s->view.b + s->view.t));
    double px = 1.0 / k;
    for (int i = 0; i < s->shapes.n; ++i) {
        const demo_shape *it = &s->shapes.items[i];
        double age = it->frame < 0 ? 1.0 : (double)(it->frame + 1) / sccd_max(1, s->frames);
        draw_item(cr, it, it->frame < 0 ? 1.0 : 0.15 + 0.6 * age * age, px);
    }
    cairo_set_line_width(cr, 3.0 * px);
    for (int i = 0; i < s->nmarks; ++i) {
        double x = s->marks[i].x, y = s->marks[i].y, r = 9.0 * px;
        cairo_set_source_rgba(cr, 0.85, 0.0, 0.0, 0.9);
        cairo_arc(cr, x, y, 2.0 * r, 0, 2 * SCCD_PI);
        cairo_stroke(cr);
        cairo_move_to(cr, x - r, y - r);
        cairo_line_to(cr, x + r, y + r);
        cairo_move_to(cr, x - r, y + r);
        cairo_line_to(cr, x + r, y - r);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    cairo_move_to(cr, x0 + 8, y0 + 20);
    cairo_show_text(cr, s->title);
}

bool demo_strobe_write(const demo_strobe *left, const demo_strobe *right, const char *caption, const char *path)
{
    const double size = 480, pad = 10, top = 34;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)(2 * size + 3 * pad), (int)(size + top + pad));
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 0.92, 0.92, 0.92);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 14);
    cairo_move_to(cr, pad, 22);
    cairo_show_text(cr, caption);
    draw_panel(cr, left, pad, top, size);
    draw_panel(cr, right, 2 * pad + size, top, size);
    cairo_destroy(cr);
    bool ok = cairo_surface_write_to_png(surf, path) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(surf);
    cairo_debug_reset_static_data(); /* font caches: no leak reports under ASan */
    return ok;
}
