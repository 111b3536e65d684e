/* The strobe renderer of ode_demo (demo.h): every geom tessellated into world
 * triangles per captured step; drawn with cairo in an orthographic view,
 * painter-sorted, flat-shaded by the normal, older steps fainter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cairo.h>

#include "demo.h"

#define PANEL 560
#define CAPTION 56
#define MAX_MARKS 256
#define RINGS 6
#define SIDES 12

typedef struct tri3 { double p[3][3]; } tri3;

typedef struct frame { tri3 *t; int n, cap; } frame;

struct demo_strobe {
    demo_view view;
    int max, count, head; /* ring of the last max frames */
    frame *frames;
    double marks[MAX_MARKS][3];
    int nmarks;
    char title[96];
};

demo_strobe *demo_strobe_new(demo_view view, int max_frames, const char *title)
{
    demo_strobe *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->view = view;
    s->max = max_frames < 1 ? 1 : max_frames;
    s->frames = calloc((size_t)s->max, sizeof *s->frames);
    snprintf(s->title, sizeof s->title, "%s", title);
    return s;
}

void demo_strobe_free(demo_strobe *s)
{
    if (s == NULL)
        return;
    for (int i = 0; i < s->max; ++i)
        free(s->frames[i].t);
    free(s->frames);
    free(s);
}

static void add_tri(frame *f, const double a[3], const double b[3], const double c[3])
{
    if (f->n == f->cap) {
        int cap = f->cap ? 2 * f->cap : 256;
        tri3 *t = realloc(f->t, (size_t)cap * sizeof *t);
        if (t == NULL)
            return;
        f->t = t;
        f->cap = cap;
    }
    memcpy(f->t[f->n].p[0], a, sizeof(double[3]));
    memcpy(f->t[f->n].p[1], b, sizeof(double[3]));
    memcpy(f->t[f->n].p[2], c, sizeof(double[3]));
    ++f->n;
}

/* Geom-local point l to world. */
static void to_world(dGeomID g, const double l[3], double out[3])
{
    const dReal *p = dGeomGetPosition(g), *r = dGeomGetRotation(g);
    for (int i = 0; i < 3; ++i)
        out[i] = p[i] + r[4 * i] * l[0] + r[4 * i + 1] * l[1] + r[4 * i + 2] * l[2];
}

static void add_quad(frame *f, dGeomID g, const double q[4][3])
{
    double w[4][3];
    for (int i = 0; i < 4; ++i)
        to_world(g, q[i], w[i]);
    add_tri(f, w[0], w[1], w[2]);
    add_tri(f, w[0], w[2], w[3]);
}

static void tess_box(frame *f, dGeomID g)
{
    dVector3 l;
    dGeomBoxGetLengths(g, l);
    double h[3] = {0.5 * l[0], 0.5 * l[1], 0.5 * l[2]};
    for (int axis = 0; axis < 3; ++axis)
        for (int side = -1; side <= 1; side += 2) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            double q[4][3];
            const int su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
            for (int k = 0; k < 4; ++k) {
                q[k][axis] = side * h[axis];
                q[k][u] = su[k] * h[u];
                q[k][v] = sv[k] * h[v];
            }
            add_quad(f, g, q);
        }
}

/* The band of radius r around z from z0 to z1. */
static void tess_band(frame *f, dGeomID g, double r, double z0, double z1)
{
    for (int j = 0; j < SIDES; ++j) {
        double a0 = 2.0 * M_PI * j / SIDES, a1 = 2.0 * M_PI * (j + 1) / SIDES;
        double q[4][3] = {{r * cos(a0), r * sin(a0), z0}, {r * cos(a1), r * sin(a1), z0},
                          {r * cos(a1), r * sin(a1), z1}, {r * cos(a0), r * sin(a0), z1}};
        add_quad(f, g, q);
    }
}

/* A sphere of radius r whose two halves are pulled apart by ±half along z:
 * a sphere (half 0) or a capsule. */
static void tess_round(frame *f, dGeomID g, double r, double half)
{
    for (int i = 0; i < 2 * RINGS; ++i) {
        double p0 = -0.5 * M_PI + M_PI * i / (2 * RINGS), p1 = -0.5 * M_PI + M_PI * (i + 1) / (2 * RINGS);
        double off = i < RINGS ? -half : half;
        for (int j = 0; j < SIDES; ++j) {
            double a0 = 2.0 * M_PI * j / SIDES, a1 = 2.0 * M_PI * (j + 1) / SIDES;
            double q[4][3] = {{r * cos(p0) * cos(a0), r * cos(p0) * sin(a0), r * sin(p0) + off},
                              {r * cos(p0) * cos(a1), r * cos(p0) * sin(a1), r * sin(p0) + off},
                              {r * cos(p1) * cos(a1), r * cos(p1) * sin(a1), r * sin(p1) + off},
                              {r * cos(p1) * cos(a0), r * cos(p1) * sin(a0), r * sin(p1) + off}};
            add_quad(f, g, q);
        }
    }
    if (half > 0.0)
        tess_band(f, g, r, -half, half);
}

/* A flat-capped cylinder along z. */
static void tess_cylinder(frame *f, dGeomID g, double r, double half)
{
    tess_band(f, g, r, -half, half);
    for (int side = -1; side <= 1; side += 2)
        for (int j = 0; j < SIDES; ++j) {
            double a0 = 2.0 * M_PI * j / SIDES, a1 = 2.0 * M_PI * (j + 1) / SIDES;
            double c[3] = {0.0, 0.0, side * half}, x0[3] = {r * cos(a0), r * sin(a0), side * half},
                   x1[3] = {r * cos(a1), r * sin(a1), side * half}, w[3][3];
            to_world(g, c, w[0]);
            to_world(g, x0, w[1]);
            to_world(g, x1, w[2]);
            add_tri(f, w[0], w[1], w[2]);
        }
}

static void tess_mesh(frame *f, dGeomID g)
{
    int n = dGeomTriMeshGetTriangleCount(g);
    for (int i = 0; i < n; ++i) {
        dVector3 a, b, c;
        dGeomTriMeshGetTriangle(g, i, &a, &b, &c);
        double wa[3] = {a[0], a[1], a[2]}, wb[3] = {b[0], b[1], b[2]}, wc[3] = {c[0], c[1], c[2]};
        add_tri(f, wa, wb, wc);
    }
}

void demo_strobe_capture(demo_strobe *s, const ode_world *w)
{
    if (s == NULL)
        return;
    frame *f = &s->frames[s->head];
    f->n = 0;
    s->head = (s->head + 1) % s->max;
    s->count = s->count < s->max ? s->count + 1 : s->max;
    int n = dSpaceGetNumGeoms(w->space);
    for (int i = 0; i < n; ++i) {
        dGeomID g = dSpaceGetGeom(w->space, i);
        dReal r, len;
        switch (dGeomGetClass(g)) {
        case dBoxClass:
            tess_box(f, g);
            break;
        case dSphereClass:
            tess_round(f, g, dGeomSphereGetRadius(g), 0.0);
            break;
        case dCapsuleClass:
            dGeomCapsuleGetParams(g, &r, &len);
            tess_round(f, g, r, 0.5 * len);
            break;
        case dCylinderClass:
            dGeomCylinderGetParams(g, &r, &len);
            tess_cylinder(f, g, r, 0.5 * len);
            break;
        case dTriMeshClass:
            tess_mesh(f, g);
            break;
        default: /* planes and other classes are not drawn */
            break;
        }
    }
}

void demo_strobe_mark(demo_strobe *s, double x, double y, double z)
{
    if (s != NULL && s->nmarks < MAX_MARKS) {
        s->marks[s->nmarks][0] = x;
        s->marks[s->nmarks][1] = y;
        s->marks[s->nmarks++][2] = z;
    }
}

/* ---- drawing ---- */

static void view_point(const demo_view *v, const double p[3], double out[3])
{
    double x = p[0] - v->cx, y = p[1] - v->cy, z = p[2] - v->cz;
    double x1 = cos(v->yaw) * x + sin(v->yaw) * z, z1 = -sin(v->yaw) * x + cos(v->yaw) * z;
    out[0] = x1;
    out[1] = cos(v->pitch) * y - sin(v->pitch) * z1;
    out[2] = sin(v->pitch) * y + cos(v->pitch) * z1;
}

typedef struct drawn { double x[3], y[3], depth, shade, alpha; } drawn;

static int by_depth(const void *a, const void *b)
{
    double da = ((const drawn *)a)->depth, db = ((const drawn *)b)->depth;
    return (da > db) - (da < db);
}

static void draw_panel(cairo_t *cr, const demo_strobe *s, double ox)
{
    const demo_view *v = &s->view;
    double scale = 0.5 * PANEL / v->span;
    int total = 0;
    for (int k = 0; k < s->count; ++k)
        total += s->frames[(s->head - s->count + k + s->max) % s->max].n;
    drawn *d = malloc((size_t)(total > 0 ? total : 1) * sizeof *d);
    int n = 0;
    const double light[3] = {0.35, 0.5, 0.8};
    for (int k = 0; d != NULL && k < s->count; ++k) {
        const frame *f = &s->frames[(s->head - s->count + k + s->max) % s->max];
        double age = s->count > 1 ? (double)k / (s->count - 1) : 1.0;
        for (int i = 0; i < f->n; ++i) {
            double q[3][3];
            for (int j = 0; j < 3; ++j)
                view_point(v, f->t[i].p[j], q[j]);
            double e1[3] = {q[1][0] - q[0][0], q[1][1] - q[0][1], q[1][2] - q[0][2]};
            double e2[3] = {q[2][0] - q[0][0], q[2][1] - q[0][1], q[2][2] - q[0][2]};
            double nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
            double len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
            double lambert = len > 0.0 ? fabs(nn[0] * light[0] + nn[1] * light[1] + nn[2] * light[2]) / (len * 1.0) : 0.0;
            drawn *t = &d[n++];
            for (int j = 0; j < 3; ++j) {
                t->x[j] = ox + 0.5 * PANEL + scale * q[j][0];
                t->y[j] = 0.5 * PANEL + 24 - scale * q[j][1];
            }
            t->depth = (q[0][2] + q[1][2] + q[2][2]) / 3.0 + 1e-6 * k; /* newer on top when level */
            t->shade = 0.3 + 0.7 * sccd_min(lambert, 1.0);
            t->alpha = 0.12 + 0.88 * pow(age, 1.5);
        }
    }
    qsort(d, (size_t)n, sizeof *d, by_depth);
    for (int i = 0; i < n; ++i) {
        cairo_move_to(cr, d[i].x[0], d[i].y[0]);
        cairo_line_to(cr, d[i].x[1], d[i].y[1]);
        cairo_line_to(cr, d[i].x[2], d[i].y[2]);
        cairo_close_path(cr);
        cairo_set_source_rgba(cr, 0.25 * d[i].shade, 0.45 * d[i].shade, 0.85 * d[i].shade, d[i].alpha);
        cairo_fill_preserve(cr);
        cairo_set_line_width(cr, 0.4);
        cairo_stroke(cr);
    }
    free(d);
    cairo_set_source_rgb(cr, 0.85, 0.05, 0.05);
    cairo_set_line_width(cr, 2.5);
    for (int i = 0; i < s->nmarks; ++i) {
        double q[3];
        view_point(v, s->marks[i], q);
        cairo_new_sub_path(cr);
        cairo_arc(cr, ox + 0.5 * PANEL + scale * q[0], 0.5 * PANEL + 24 - scale * q[1], 9.0, 0.0, 2.0 * M_PI);
        cairo_stroke(cr);
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 16);
    cairo_move_to(cr, ox + 12, 22);
    cairo_show_text(cr, s->title);
}

bool demo_strobe_write(const demo_strobe *left, const demo_strobe *right, const char *caption, const char *path)
{
    if (left == NULL || right == NULL)
        return false;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 2 * PANEL, PANEL + 24 + CAPTION);
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_paint(cr);
    draw_panel(cr, left, 0.0);
    draw_panel(cr, right, PANEL);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 1.0);
    cairo_move_to(cr, PANEL, 0);
    cairo_line_to(cr, PANEL, PANEL + 24);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 14);
    cairo_move_to(cr, 12, PANEL + 24 + 0.6 * CAPTION);
    cairo_show_text(cr, caption);
    bool ok = cairo_surface_write_to_png(surf, path) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    cairo_debug_reset_static_data(); /* drop cairo's font caches (LeakSanitizer) */
    return ok;
}
