/* The strobe renderer of ode_demo (demo.h): every geom tessellated into world
 * triangles per captured step; drawn with cairo in an orthographic view,
 * painter-sorted, flat-shaded by the normal, older steps fainter. The geom
 * snapshots, their triangles, the projection and the shading serve the live
 * window (window.c) too. */
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
#define PLANE_HALF 1.5 /* half the side of the square a plane is drawn as, world units */

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

static void add_tri(void *user, const double a[3], const double b[3], const double c[3])
{
    frame *f = user;
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

/* ---- geom snapshots and their triangles (shared with the live window) ---- */

/* The kind of body a geom is on: the scenes' CCD bodies are kinematic or
 * hinged (contact joints are gone between steps, so any joint is a hinge). */
static demo_geom_kind body_kind(dGeomID g)
{
    dBodyID b = dGeomGetBody(g);
    if (b == 0)
        return dGeomGetClass(g) == dPlaneClass ? DEMO_GEOM_GROUND : DEMO_GEOM_STATIC;
    return dBodyIsKinematic(b) || dBodyGetNumJoints(b) > 0 ? DEMO_GEOM_BLADE : DEMO_GEOM_LOOSE;
}

static bool copy_mesh(dGeomID g, demo_geom *out)
{
    int n = dGeomTriMeshGetTriangleCount(g);
    out->mesh = malloc((size_t)(n > 0 ? n : 1) * 9 * sizeof *out->mesh);
    if (out->mesh == NULL)
        return false;
    for (int i = 0; i < n; ++i) {
        dVector3 v[3];
        dGeomTriMeshGetTriangle(g, i, &v[0], &v[1], &v[2]);
        for (int j = 0; j < 9; ++j)
            out->mesh[9 * i + j] = v[j / 3][j % 3];
    }
    out->nmesh = n;
    return true;
}

bool demo_geom_capture(dGeomID g, demo_geom *out)
{
    memset(out, 0, sizeof *out);
    out->cls = dGeomGetClass(g);
    out->kind = body_kind(g);
    dReal r, len;
    switch (out->cls) {
    case dBoxClass: {
        dVector3 l;
        dGeomBoxGetLengths(g, l);
        out->size[0] = l[0], out->size[1] = l[1], out->size[2] = l[2];
        break;
    }
    case dSphereClass:
        out->size[0] = dGeomSphereGetRadius(g);
        break;
    case dCapsuleClass:
    case dCylinderClass:
        (out->cls == dCapsuleClass ? dGeomCapsuleGetParams : dGeomCylinderGetParams)(g, &r, &len);
        out->size[0] = r, out->size[1] = len;
        break;
    case dPlaneClass: {
        dVector4 p;
        dGeomPlaneGetParams(g, p);
        out->size[0] = p[0], out->size[1] = p[1], out->size[2] = p[2], out->size[3] = p[3];
        return true; /* placeless: no pose */
    }
    case dTriMeshClass:
        return copy_mesh(g, out); /* in world coordinates already */
    default:
        return false;
    }
    const dReal *p = dGeomGetPosition(g), *rot = dGeomGetRotation(g);
    for (int i = 0; i < 3; ++i)
        out->pos[i] = p[i];
    for (int i = 0; i < 12; ++i)
        out->rot[i] = rot[i];
    return true;
}

void demo_geom_release(demo_geom *g)
{
    free(g->mesh);
    g->mesh = NULL;
    g->nmesh = 0;
}

typedef struct emitter { const demo_geom *g; demo_tri_fn *fn; void *user; } emitter;

/* Geom-local point l to world. */
static void to_world(const demo_geom *g, const double l[3], double out[3])
{
    for (int i = 0; i < 3; ++i)
        out[i] = g->pos[i] + g->rot[4 * i] * l[0] + g->rot[4 * i + 1] * l[1] + g->rot[4 * i + 2] * l[2];
}

static void emit_local(const emitter *e, const double a[3], const double b[3], const double c[3])
{
    double w[3][3];
    to_world(e->g, a, w[0]);
    to_world(e->g, b, w[1]);
    to_world(e->g, c, w[2]);
    e->fn(e->user, w[0], w[1], w[2]);
}

static void add_quad(const emitter *e, const double q[4][3])
{
    emit_local(e, q[0], q[1], q[2]);
    emit_local(e, q[0], q[2], q[3]);
}

static void tess_box(const emitter *e)
{
    const double *l = e->g->size;
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
            add_quad(e, q);
        }
}

/* The band of radius r around z from z0 to z1. */
static void tess_band(const emitter *e, double r, double z0, double z1)
{
    for (int j = 0; j < SIDES; ++j) {
        double a0 = 2.0 * M_PI * j / SIDES, a1 = 2.0 * M_PI * (j + 1) / SIDES;
        double q[4][3] = {{r * cos(a0), r * sin(a0), z0}, {r * cos(a1), r * sin(a1), z0},
                          {r * cos(a1), r * sin(a1), z1}, {r * cos(a0), r * sin(a0), z1}};
        add_quad(e, q);
    }
}

/* A sphere of radius r whose two halves are pulled apart by ±half along z:
 * a sphere (half 0) or a capsule. */
static void tess_round(const emitter *e, double r, double half)
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
            add_quad(e, q);
        }
    }
    if (half > 0.0)
        tess_band(e, r, -half, half);
}

/* A flat-capped cylinder along z. */
static void tess_cylinder(const emitter *e, double r, double half)
{
    tess_band(e, r, -half, half);
    for (int side = -1; side <= 1; side += 2)
        for (int j = 0; j < SIDES; ++j) {
            double a0 = 2.0 * M_PI * j / SIDES, a1 = 2.0 * M_PI * (j + 1) / SIDES;
            double c[3] = {0.0, 0.0, side * half}, x0[3] = {r * cos(a0), r * sin(a0), side * half},
                   x1[3] = {r * cos(a1), r * sin(a1), side * half};
            emit_local(e, c, x0, x1);
        }
}

/* A plane (n·x = d) as a square of side 2·PLANE_HALF about its point nearest the origin. */
static void tess_plane(const emitter *e)
{
    double n[3] = {e->g->size[0], e->g->size[1], e->g->size[2]}, u[3], v[3];
    /* two unit vectors across n: n × (the axis least along n), then n × u */
    int k = fabs(n[0]) < fabs(n[1]) ? (fabs(n[0]) < fabs(n[2]) ? 0 : 2) : (fabs(n[1]) < fabs(n[2]) ? 1 : 2);
    double a[3] = {k == 0, k == 1, k == 2};
    u[0] = n[1] * a[2] - n[2] * a[1], u[1] = n[2] * a[0] - n[0] * a[2], u[2] = n[0] * a[1] - n[1] * a[0];
    double lu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; ++i)
        u[i] /= lu;
    v[0] = n[1] * u[2] - n[2] * u[1], v[1] = n[2] * u[0] - n[0] * u[2], v[2] = n[0] * u[1] - n[1] * u[0];
    double q[4][3];
    const int su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
    for (int c = 0; c < 4; ++c)
        for (int i = 0; i < 3; ++i)
            q[c][i] = e->g->size[3] * n[i] + PLANE_HALF * (su[c] * u[i] + sv[c] * v[i]);
    e->fn(e->user, q[0], q[1], q[2]);
    e->fn(e->user, q[0], q[2], q[3]);
}

void demo_geom_triangles(const demo_geom *g, demo_tri_fn *fn, void *user)
{
    emitter e = {g, fn, user};
    switch (g->cls) {
    case dBoxClass:
        tess_box(&e);
        break;
    case dSphereClass:
        tess_round(&e, g->size[0], 0.0);
        break;
    case dCapsuleClass:
        tess_round(&e, g->size[0], 0.5 * g->size[1]);
        break;
    case dCylinderClass:
        tess_cylinder(&e, g->size[0], 0.5 * g->size[1]);
        break;
    case dPlaneClass:
        tess_plane(&e);
        break;
    case dTriMeshClass:
        for (int i = 0; i < g->nmesh; ++i)
            fn(user, &g->mesh[9 * i], &g->mesh[9 * i + 3], &g->mesh[9 * i + 6]);
        break;
    default:
        break;
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
        demo_geom g;
        dGeomID id = dSpaceGetGeom(w->space, i);
        if (demo_geom_capture(id, &g) && g.cls != dPlaneClass) /* the strobe leaves planes out */
            demo_geom_triangles(&g, add_tri, f);
        demo_geom_release(&g);
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

double demo_view_shade(const double q[3][3])
{
    const double light[3] = {0.35, 0.5, 0.8};
    double e1[3] = {q[1][0] - q[0][0], q[1][1] - q[0][1], q[1][2] - q[0][2]};
    double e2[3] = {q[2][0] - q[0][0], q[2][1] - q[0][1], q[2][2] - q[0][2]};
    double nn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    double len = sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
    double lambert = len > 0.0 ? fabs(nn[0] * light[0] + nn[1] * light[1] + nn[2] * light[2]) / len : 0.0;
    return 0.3 + 0.7 * sccd_min(lambert, 1.0);
}

void demo_view_project(const demo_view *v, const double p[3], double out[3])
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
    for (int k = 0; d != NULL && k < s->count; ++k) {
        const frame *f = &s->frames[(s->head - s->count + k + s->max) % s->max];
        double age = s->count > 1 ? (double)k / (s->count - 1) : 1.0;
        for (int i = 0; i < f->n; ++i) {
            double q[3][3];
            for (int j = 0; j < 3; ++j)
                demo_view_project(v, f->t[i].p[j], q[j]);
            drawn *t = &d[n++];
            for (int j = 0; j < 3; ++j) {
                t->x[j] = ox + 0.5 * PANEL + scale * q[j][0];
                t->y[j] = 0.5 * PANEL + 24 - scale * q[j][1];
            }
            t->depth = (q[0][2] + q[1][2] + q[2][2]) / 3.0 + 1e-6 * k; /* newer on top when level */
            t->shade = demo_view_shade(q);
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
        demo_view_project(v, s->marks[i], q);
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
