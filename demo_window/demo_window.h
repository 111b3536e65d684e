/* demo_window — the demos' optional live window (SDL2), shared by
 * chipmunk_demo and ode_demo: one window, two panels side by side (left: the
 * run without CCD, right: the compared mode), a text-free HUD strip on top,
 * the keys, 60 Hz pacing, --frames and --screenshot. The demos draw the
 * panels; this module owns the loop and runs each side's scene code in a
 * thread of its own that pauses after every step (the scenes keep their
 * loops), so both sides advance one step per frame.
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

/// One run's place in the window (opaque): its recorded frames and trials, and the thread it runs in.
typedef struct dw_side dw_side;

/// Frames the run has recorded so far: the index its next frame gets.
int dw_side_frames(const dw_side *s);
/// From the run's per-step hook, before recording a step: show the last recorded one (the run pauses there until the next frame).
void dw_side_show(dw_side *s);
/// After recording a step.
void dw_side_recorded(dw_side *s);
/// At the end of a trial: its last frame is shown and held (the run pauses) until the other side ends the trial too.
void dw_side_trial_end(dw_side *s);

/// What a panel's HUD shows besides the progress.
typedef struct dw_panel { int passes; bool stopped; } dw_panel;

/// A demo shown as two runs side by side: side 0 (left) without CCD, side 1 (right) the compared mode; `user` is passed back to each call.
typedef struct dw_demo {
    int scenes; ///< how many scenes N cycles through (≥ 1)
    /// Forget both sides' recordings and choose scene k (< scenes); returns its trial count (≥ 1, for the progress bar), 0 when it cannot.
    int (*load)(void *user, int k);
    /// Run one side of the chosen scene from start to end in the calling thread, recording every step between dw_side_show and dw_side_recorded and ending every trial with dw_side_trial_end.
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
