/* Pictures of sphere fills with cairo (see sphere_png.h). */
#include "sphere_png.h"

#include <cairo.h>
#include <stdlib.h>

/* The camera: screen right, screen up, and toward the viewer, orthonormal. */
typedef struct camera { sccd_v3 right, screen_up, toward; } camera;

static sccd_v3 axis(int i)
{
    return (sccd_v3){i == 0, i == 1, i == 2};
}

/* Azimuth 35°, elevation 25° about world axis up (the two others, in cyclic
 * order, span the ground); right = up × toward, screen up = toward × right. */
static camera make_camera(int up)
{
    const double az = 35.0 * SCCD_PI / 180.0, el = 25.0 * SCCD_PI / 180.0;
    sccd_v3 u = axis(up), a = axis((up + 1) % 3), b = axis((up + 2) % 3);
    camera c;
    c.toward = sccd_v3_add(sccd_v3_scale(sccd_v3_add(sccd_v3_scale(a, cos(az)), sccd_v3_scale(b, sin(az))), cos(el)),
                           sccd_v3_scale(u, sin(el)));
    c.right = sccd_v3_normalize(sccd_v3_cross(u, c.toward));
    c.screen_up = sccd_v3_cross(c.toward, c.right);
    return c;
}

typedef struct disc { double x, y, depth, r; } disc;

static int farther_first(const void *pa, const void *pb)
{
    const disc *a = pa, *b = pb;
    return (a->depth > b->depth) - (a->depth < b->depth);
}

/* Scale and offset mapping the discs (and the box corners) into the image with a margin. */
typedef struct fit { double scale, x0, y0; } fit;

static fit fit_discs(const disc *d, int n, const sccd_v3 *corner, int corners, camera c, sccd_sphere_view v)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < n; ++i) {
        lo[0] = fmin(lo[0], d[i].x - d[i].r), hi[0] = fmax(hi[0], d[i].x + d[i].r);
        lo[1] = fmin(lo[1], d[i].y - d[i].r), hi[1] = fmax(hi[1], d[i].y + d[i].r);
    }
    for (int i = 0; i < corners; ++i) {
        double x = sccd_v3_dot(corner[i], c.right), y = sccd_v3_dot(corner[i], c.screen_up);
        lo[0] = fmin(lo[0], x), hi[0] = fmax(hi[0], x);
        lo[1] = fmin(lo[1], y), hi[1] = fmax(hi[1], y);
    }
    double margin = 0.06 * fmin(v.width, v.height), top = v.title ? 24.0 : 0.0;
    double sx = (v.width - 2.0 * margin) / fmax(hi[0] - lo[0], 1e-12);
    double sy = (v.height - 2.0 * margin - top) / fmax(hi[1] - lo[1], 1e-12);
    fit f = {fmin(sx, sy), 0.0, 0.0};
    /* centre the picture; image y grows downward */
    f.x0 = 0.5 * v.width - f.scale * 0.5 * (lo[0] + hi[0]);
    f.y0 = 0.5 * (v.height + top) + f.scale * 0.5 * (lo[1] + hi[1]);
    return f;
}

static void draw_disc(cairo_t *cr, double x, double y, double r)
{
    /* light from the upper left: the highlight sits a third of the way there */
    cairo_pattern_t *p = cairo_pattern_create_radial(x - 0.35 * r, y - 0.35 * r, 0.05 * r, x, y, r);
    cairo_pattern_add_color_stop_rgb(p, 0.0, 0.93, 0.96, 1.0);
    cairo_pattern_add_color_stop_rgb(p, 0.55, 0.35, 0.55, 0.85);
    cairo_pattern_add_color_stop_rgb(p, 1.0, 0.10, 0.18, 0.40);
    cairo_set_source(cr, p);
    cairo_arc(cr, x, y, r, 0.0, 2.0 * SCCD_PI);
    cairo_fill_preserve(cr);
    cairo_pattern_destroy(p);
    cairo_set_source_rgba(cr, 0.05, 0.08, 0.2, 0.35);
    cairo_set_line_width(cr, fmin(0.8, 0.15 * r));
    cairo_stroke(cr);
}

/* The box's 12 edges: corners i and j differ in exactly one bit. */
static void draw_box(cairo_t *cr, const sccd_v3 *corner, camera c, fit f)
{
    cairo_set_source_rgba(cr, 0.3, 0.3, 0.3, 0.8);
    cairo_set_line_width(cr, 0.8);
    for (int i = 0; i < 8; ++i)
        for (int bit = 1; bit < 8; bit <<= 1) {
            int j = i | bit;
            if (j == i)
                continue;
            cairo_move_to(cr, f.x0 + f.scale * sccd_v3_dot(corner[i], c.right),
                          f.y0 - f.scale * sccd_v3_dot(corner[i], c.screen_up));
            cairo_line_to(cr, f.x0 + f.scale * sccd_v3_dot(corner[j], c.right),
                          f.y0 - f.scale * sccd_v3_dot(corner[j], c.screen_up));
        }
    cairo_stroke(cr);
}

bool sccd_spheres_png(const char *path, const sccd_sphere *s, int n, sccd_sphere_view v)
{
    if (n < 1 || !s || v.width < 16 || v.height < 16 || v.up < 0 || v.up > 2)
        return false;
    camera c = make_camera(v.up);
    disc *d = malloc((size_t)n * sizeof *d);
    if (!d)
        return false;
    for (int i = 0; i < n; ++i)
        d[i] = (disc){sccd_v3_dot(s[i].c, c.right), sccd_v3_dot(s[i].c, c.screen_up), sccd_v3_dot(s[i].c, c.toward),
                      s[i].r};
    qsort(d, (size_t)n, sizeof *d, farther_first);
    sccd_v3 corner[8];
    for (int i = 0; v.box && i < 8; ++i)
        corner[i] = (sccd_v3){i & 1 ? v.box->hi.x : v.box->lo.x, i & 2 ? v.box->hi.y : v.box->lo.y,
                              i & 4 ? v.box->hi.z : v.box->lo.z};
    fit f = fit_discs(d, n, corner, v.box ? 8 : 0, c, v);

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, v.width, v.height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_paint(cr);
    if (v.box)
        draw_box(cr, corner, c, f);
    for (int i = 0; i < n; ++i)
        draw_disc(cr, f.x0 + f.scale * d[i].x, f.y0 - f.scale * d[i].y, f.scale * d[i].r);
    if (v.title) {
        cairo_set_source_rgb(cr, 0.0, 0.0, 0.0);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, 15.0);
        cairo_move_to(cr, 10.0, 20.0);
        cairo_show_text(cr, v.title);
    }
    bool ok = cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    free(d);
    return ok;
}
