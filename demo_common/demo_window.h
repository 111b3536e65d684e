/* demo_window — the demos' optional live window (SDL2), shared by
 * chipmunk_demo and ode_demo: one window, two panels side by side (left: the
 * run without CCD, right: the compared mode), a text-free HUD strip on top,
 * the keys, 60 Hz pacing, --frames and --screenshot. The demos draw the
 * panels; this module owns the loop and runs each side's scene code in a
 * thread of its own that pauses after every step (the scenes keep their
 * loops), so both sides advance one step per frame. Each run records its
 * steps in a dw_track (frames, contact points, pass-through marks, CCD stops)
 * beside its own shapes, and draws the contacts and marks through it.
 *
 * Keys: Space pause, R restart the scene, N next scene, Esc/Q or closing the
 * window quit, arrows orbit the camera (demos that have one).
 *
 * Built only with SCCD_HAVE_SDL2 (the Makefile sets it when pkg-config finds
 * sdl2); without it dw_run prints why and returns DW_NO_WINDOW. */
#ifndef SCCD_DEMO_WINDOW_H
#define SCCD_DEMO_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../adapters/adapter_internal.h" /* sccd_adapter_reserve */

/// Panel side and HUD strip height, pixels: the window (and a screenshot) is 2·DW_PANEL × (DW_PANEL + DW_HUD).
enum { DW_PANEL = 480, DW_HUD = 20, DW_WIDTH = 2 * DW_PANEL, DW_HEIGHT = DW_PANEL + DW_HUD };

/// The colour of the CCD body (sword, bat, blade, rotor) in both demos' windows, 0xRRGGBB.
#define DW_HIGHLIGHT 0x1E5ADCu

/// An RGBA colour.
typedef struct dw_rgba { uint8_t r, g, b, a; } dw_rgba;

/// Opaque drawing target handed to the demo's draw callback (an SDL_Renderer).
typedef struct dw_canvas dw_canvas;

/// What a panel's HUD shows besides the progress.
typedef struct dw_panel { int passes; bool stopped; } dw_panel;

/// One run's place in the window (opaque): its recorded frames and trials, and the thread it runs in.
typedef struct dw_side dw_side;

/// A recorded step: the demo's own items (shapes, geoms) [item0, item0 + nitems), the contacts [contact0, contact0 + ncontacts), and whether the CCD stopped a body in the step.
typedef struct dw_frame { int item0, nitems, contact0, ncontacts; bool stopped; } dw_frame;

/// A point in world coordinates (z = 0 in 2D).
typedef struct dw_point { double p[3]; } dw_point;

/// A pass-through mark: where, on which recorded frame, and how many pass-throughs it stands for (≥ 1).
typedef struct dw_mark { dw_point at; int frame, count; } dw_mark;

/// One side's recorded run, all but the demo's own items (which dw_frame indexes); zero-initialised is empty.
typedef struct dw_track {
    dw_frame *frames;          ///< the recorded steps (nframes of them, room for fcap)
    int nframes, fcap;
    dw_point *contacts;        ///< every frame's contact points, frame after frame
    int ncontacts, ccap;
    dw_mark *marks;            ///< the pass-through marks, in the order they were made
    int nmarks, mcap;
    unsigned long long clamps; ///< the run's CCD stops so far in the trial, as of the last frame
    dw_side *side;             ///< the window's handle of this run (dw_demo.run sets it)
} dw_track;

/// From the run's per-step hook: show the last recorded step (the run pauses there until the next window frame), then open frame nframes, its items starting at `items`; false when out of memory (the step goes unrecorded: no dw_track_end).
bool dw_track_begin(dw_track *t, int items);
/// Record a contact point of the open frame (world coordinates, z = 0 in 2D).
void dw_track_contact(dw_track *t, double x, double y, double z);
/// Close the open frame at `items` items in all; clamps: the run's CCD stops so far in the trial (a rise since the last frame marks this one stopped).
void dw_track_end(dw_track *t, int items, unsigned long long clamps);
/// Mark `count` pass-throughs at (x, y, z) on the last recorded frame (count ≤ 0: nothing).
void dw_track_mark(dw_track *t, double x, double y, double z, int count);
/// End the trial: its last frame is shown and held (the run pauses) until the other side ends the trial too; the stop count starts again.
void dw_track_trial_end(dw_track *t);
/// What the HUD shows at recorded frame f (−1: none yet, nothing shown): the pass-throughs marked up to f, and whether the CCD stopped a body in f.
dw_panel dw_track_panel(const dw_track *t, int f);
/// Free what the track recorded (it is then empty, its side forgotten).
void dw_track_free(dw_track *t);

/// How a demo draws a track's contacts and marks: the contact dots' colour, the mark rings' radius and the half-size of an X inside them (0: none), pixels.
typedef struct dw_mark_style { dw_rgba contact; float ring, cross; } dw_mark_style;

/// A demo's world → window pixels map for one panel: p (world) to xy (pixels); map is the demo's.
typedef void dw_to_window(const void *map, const double p[3], float xy[2]);

/// Draw recorded frame f's contacts (3-pixel dots) and, as red rings, the marks of frames first..f, placed by to_window(map, ·).
void dw_track_draw_marks(dw_canvas *cv, const dw_track *t, int first, int f, const dw_mark_style *style, dw_to_window *to_window,
                         const void *map);

/// A demo shown as two runs side by side: side 0 (left) without CCD, side 1 (right) the compared mode; `user` is passed back to each call.
typedef struct dw_demo {
    int scenes; ///< how many scenes N cycles through (≥ 1)
    /// Forget both sides' recordings and choose scene k (< scenes); returns its trial count (≥ 1, for the progress bar), 0 when it cannot.
    int (*load)(void *user, int k);
    /// Run one side of the chosen scene from start to end in the calling thread, recording every step in its dw_track (dw_track_begin … dw_track_end; side's handle in dw_track.side) and ending every trial with dw_track_trial_end.
    void (*run)(void *user, int side, dw_side *s);
    /// Draw the side's recorded frame f (−1: none yet) in its panel (x from side·DW_PANEL, y from DW_HUD, clipped to it); first is the first frame of f's trial. Returns what the HUD shows.
    dw_panel (*draw)(void *user, dw_canvas *cv, int side, int first, int f);
    /// Arrow keys: orbit by (dx, dy) steps; NULL: the arrows do nothing.
    void (*orbit)(void *user, int dx, int dy);
} dw_demo;

/// Frames each trial's last pose is held before the next trial (half a second).
enum { DW_HOLD = 30 };

/// How dw_run ended.
typedef enum dw_status {
    DW_QUIT,      ///< the user quit, or --frames were shown (and the screenshot written)
    DW_NO_WINDOW, ///< no SDL2 in this build, or SDL could not open a window: the caller runs headless
    DW_FAILED,    ///< the scene would not load or the screenshot could not be written
} dw_status;

/// Open the window titled `title` and run the demo's scenes, both sides stepped in lockstep, one step per 60 Hz frame; frames > 0 quits after that many frames, screenshot (may be NULL) gets the last frame (at --frames or when the user quits) as PNG.
dw_status dw_run(const char *title, const dw_demo *demo, void *user, int frames, const char *screenshot);

/// Fill the convex polygon (x[i], y[i]), i < n (window pixels, n ≤ 64).
void dw_fill_convex(dw_canvas *cv, const float *x, const float *y, int n, dw_rgba c);
/// Fill n triangles at once: triangle i has corners (xy[6i], xy[6i+1]), (xy[6i+2], xy[6i+3]), (xy[6i+4], xy[6i+5]) and colour c[i]; drawn in order.
void dw_fill_triangles(dw_canvas *cv, const float *xy, const dw_rgba *c, int n);
/// Fill a disc of radius r pixels.
void dw_fill_disc(dw_canvas *cv, float x, float y, float r, dw_rgba c);
/// Fill a capsule (segment a–b, radius r pixels; at least half a pixel).
void dw_fill_capsule(dw_canvas *cv, float ax, float ay, float bx, float by, float r, dw_rgba c);
/// Fill an axis-aligned rectangle.
void dw_fill_rect(dw_canvas *cv, float x, float y, float w, float h, dw_rgba c);
/// A ring (circle outline, width w) of radius r.
void dw_ring(dw_canvas *cv, float x, float y, float r, float w, dw_rgba c);

#endif
