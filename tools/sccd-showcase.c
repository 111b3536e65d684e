/* sccd-showcase: pictures of 2D sweeps.
 *
 *   build/bin/sccd-showcase --out DIR
 *
 * writes DIR/showcase_sweep2.png: left, a box (a sword) turning 120° about a
 * pivot on its axis outside it, as in the thesis (seed 000 §2.1): the strobe
 * of its poses, the thesis' sector (eq 2.1, orange: it misses the corners),
 * the 1-band sweep (blue outline) and the 4-band sweep (green); right, a bat
 * (a capsule) turning 200° about a hand inside it, with its 1- and 4-band
 * sweeps; third, a long box turning 30° about its own centre (an engine step
 * about the centre of mass), where the 4-band sweep spends two sectors on
 * each band, one per end. Needs only cairo. */
#include <cairo.h>
#include <stdio.h>
#include <string.h>

#include "sectorccd/sectorccd.h"

#define W 1800
#define H 600
#define SCALE 9.0 /* pixels per unit */

typedef struct panel { double cx, cy; } panel; /* image position of the world origin */

static void to_image(const panel *p, sccd_v2 v, double *x, double *y)
{
    *x = p->cx + SCALE * v.x;
    *y = p->cy - SCALE * v.y;
}

/* The sector's outline: outer arc, then the inner arc back (or the pivot). */
static void sector_path(cairo_t *cr, const panel *p, const sccd_sector2 *s)
{
    double ox, oy;
    to_image(p, s->o, &ox, &oy);
    /* Image y points down: angles change sign. */
    double mid = -atan2(s->a.y, s->a.x), h = s->half_angle;
    cairo_new_sub_path(cr);
    if (h >= SCCD_PI) {
        cairo_arc(cr, ox, oy, SCALE * s->R, 0.0, 2.0 * SCCD_PI);
        cairo_close_path(cr);
        if (s->r > 0.0) {
            cairo_new_sub_path(cr);
            cairo_arc_negative(cr, ox, oy, SCALE * s->r, 2.0 * SCCD_PI, 0.0);
            cairo_close_path(cr);
        }
        return;
    }
    cairo_arc(cr, ox, oy, SCALE * s->R, mid - h, mid + h);
    if (s->r > 0.0)
        cairo_arc_negative(cr, ox, oy, SCALE * s->r, mid + h, mid - h);
    else
        cairo_line_to(cr, ox, oy);
    cairo_close_path(cr);
}

static void draw_sweep(cairo_t *cr, const panel *p, const sccd_sweep2 *w, double r, double g, double b, bool fill)
{
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    for (int k = 0; k < w->count; ++k) {
        cairo_new_path(cr);
        sector_path(cr, p, &w->band[k]);
        if (fill) {
            cairo_set_source_rgba(cr, r, g, b, 0.35);
            cairo_fill_preserve(cr);
        }
        cairo_set_source_rgba(cr, r, g, b, 0.9);
        cairo_set_line_width(cr, fill ? 1.0 : 2.5);
        cairo_stroke(cr);
    }
}

static void draw_poly(cairo_t *cr, const panel *p, const sccd_v2 *v, int n)
{
    cairo_new_path(cr);
    for (int i = 0; i < n; ++i) {
        double x, y;
        to_image(p, v[i], &x, &y);
        if (i == 0)
            cairo_move_to(cr, x, y);
        else
            cairo_line_to(cr, x, y);
    }
    cairo_close_path(cr);
    cairo_stroke(cr);
}

/* Outline of a capsule a–b of radius r (as a polygon of its two half circles). */
static void draw_capsule(cairo_t *cr, const panel *p, sccd_capsule2 c)
{
    sccd_v2 pts[34];
    sccd_v2 d = sccd_v2_normalize(sccd_v2_sub(c.b, c.a));
    double base = atan2(d.y, d.x);
    for (int i = 0; i < 17; ++i) {
        double a1 = base - 0.5 * SCCD_PI + SCCD_PI * i / 16.0, a2 = a1 + SCCD_PI;
        pts[i] = sccd_v2_mad(c.b, c.r, (sccd_v2){cos(a1), sin(a1)});
        pts[17 + i] = sccd_v2_mad(c.a, c.r, (sccd_v2){cos(a2), sin(a2)});
    }
    draw_poly(cr, p, pts, 34);
}

static void draw_label(cairo_t *cr, double x, double y, const char *text, double r, double g, double b)
{
    cairo_set_source_rgb(cr, r, g, b);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
}

/* The 4-band sweep filled, the 1-band sweep outlined. */
static void draw_both(cairo_t *cr, const panel *p, const sccd_sweep2 *w1, const sccd_sweep2 *w4)
{
    draw_sweep(cr, p, w4, 0.1, 0.6, 0.2, true);
    draw_sweep(cr, p, w1, 0.1, 0.3, 0.9, false);
}

/* The pen for the poses of the strobe. */
static void strobe_pen(cairo_t *cr)
{
    cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.8);
    cairo_set_line_width(cr, 1.0);
}

/* Poses of a box of half extents half at steps + 1 times of motion m. */
static void draw_box_strobe(cairo_t *cr, const panel *p, sccd_motion2 m, sccd_v2 half, int steps)
{
    strobe_pen(cr);
    for (int k = 0; k <= steps; ++k) {
        sccd_xf2 pose = sccd_motion2_at(m, (double)k / steps);
        sccd_v2 v[4];
        sccd_box2_corners((sccd_box2){pose.p, pose.q, half}, v);
        draw_poly(cr, p, v, 4);
    }
}

static void sword_panel(cairo_t *cr)
{
    panel p = {300.0, 330.0};
    sccd_v2 half = {2.0, 11.0};
    double d = 16.0, turn = 2.0 * SCCD_PI / 3.0;
    /* Body frame on the box; the pivot on its local −y axis at distance d. */
    sccd_xf2 start = {{0.0, d}, sccd_rot2_make(-0.9)};
    start.p = sccd_rot2_apply(start.q, start.p);
    sccd_motion2 m = {start, {0.0, -d}, {0.0, 0.0}, turn};
    sccd_sweep2 w1, w4;
    sccd_sweep2_box(&w1, half, m, 1);
    sccd_sweep2_box(&w4, half, m, 4);
    sccd_sector2 thesis = sccd_sector2_thesis((sccd_box2){start.p, start.q, half}, (sccd_v2){0.0, 0.0}, turn);
    sccd_sweep2 ts = {.count = 1, .band = {thesis}};
    draw_both(cr, &p, &w1, &w4);
    draw_sweep(cr, &p, &ts, 0.95, 0.55, 0.0, true);
    draw_box_strobe(cr, &p, m, half, 8);
    draw_label(cr, 20, 30, "sword turning 120 deg about a pivot outside it", 0, 0, 0);
    draw_label(cr, 20, 50, "orange: thesis sector (eq 2.1) - misses the corners", 0.9, 0.5, 0.0);
    draw_label(cr, 20, 70, "blue: 1-band sweep    green: 4-band sweep", 0.1, 0.4, 0.6);
}

static void bat_panel(cairo_t *cr)
{
    panel p = {900.0, 300.0};
    sccd_capsule2 bat = {{-3.0, 0.0}, {22.0, 0.0}, 2.5};
    double turn = 200.0 * SCCD_PI / 180.0;
    sccd_motion2 m = {{{-2.0, 0.0}, sccd_rot2_make(-0.3)}, {0.0, 0.0}, {0.0, 0.0}, turn};
    sccd_sweep2 w1, w4;
    sccd_sweep2_capsule(&w1, bat, m, 1);
    sccd_sweep2_capsule(&w4, bat, m, 4);
    draw_both(cr, &p, &w1, &w4);
    strobe_pen(cr);
    for (int k = 0; k <= 20; ++k) {
        sccd_xf2 pose = sccd_motion2_at(m, k / 20.0);
        sccd_capsule2 c = {sccd_xf2_apply(pose, bat.a), sccd_xf2_apply(pose, bat.b), bat.r};
        draw_capsule(cr, &p, c);
    }
    draw_label(cr, 620, 30, "bat turning 200 deg about a hand inside it", 0, 0, 0);
    draw_label(cr, 620, 50, "blue: 1-band sweep    green: 4-band sweep", 0.1, 0.4, 0.6);
}

static void spin_panel(cairo_t *cr)
{
    panel p = {1500.0, 300.0};
    sccd_v2 half = {22.0, 1.5};
    sccd_motion2 m = {{{0.0, 0.0}, sccd_rot2_make(0.2)}, {0.0, 0.0}, {0.0, 0.0}, SCCD_PI / 6.0};
    sccd_sweep2 w1, w4;
    sccd_sweep2_box(&w1, half, m, 1);
    sccd_sweep2_box(&w4, half, m, 4);
    draw_both(cr, &p, &w1, &w4);
    draw_box_strobe(cr, &p, m, half, 6);
    draw_label(cr, 1220, 30, "blade turning 30 deg about its centre (engine step)", 0, 0, 0);
    draw_label(cr, 1220, 50, "blue: 1-band sweep    green: 4-band sweep (two sectors a band)", 0.1, 0.4, 0.6);
}

int main(int argc, char **argv)
{
    const char *out = "build/demo";
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_paint(cr);
    cairo_set_font_size(cr, 15.0);
    sword_panel(cr);
    bat_panel(cr);
    spin_panel(cr);
    char path[1024];
    snprintf(path, sizeof path, "%s/showcase_sweep2.png", out);
    cairo_status_t st = cairo_surface_write_to_png(surface, path);
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    if (st != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "sccd-showcase: cannot write %s: %s\n", path, cairo_status_to_string(st));
        return 1;
    }
    printf("sccd-showcase: wrote %s\n", path);
    return 0;
}
