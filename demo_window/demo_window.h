/* demo_window — the demos' optional live window (SDL2), shared by
 * chipmunk_demo and ode_demo: one window, two panels side by side (left: the
 * run without CCD, right: the compared mode), a text-free HUD strip on top,
 * the keys, 60 Hz pacing, --frames and --screenshot. The demos draw the
 * panels; this module owns the loop.
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

/// Panel side and HUD strip height, pixels: the window (and a screenshot) is 2·DW_PANEL × (DW_PANEL + DW_HUD).
enum { DW_PANEL = 480, DW_HUD = 20, DW_WIDTH = 2 * DW_PANEL, DW_HEIGHT = DW_PANEL + DW_HUD };

/// The colour of the CCD body (sword, bat, blade, rotor) in both demos' windows, 0xRRGGBB.
#define DW_HIGHLIGHT 0x1E5ADCu

/// An RGBA colour.
typedef struct dw_rgba { uint8_t r, g, b, a; } dw_rgba;

/// Opaque drawing target handed to the demo's draw callback (an SDL_Renderer).
typedef struct dw_canvas dw_canvas;

/// What the loop asks of a demo; `user` is passed back to each call.
typedef struct dw_ops {
    /// Load scene k (the loop wraps k at `scenes`) and show its first step; false when it cannot (the loop then quits).
    bool (*load)(void *user, int k);
    /// Advance one 60 Hz frame (one step of each run); false when the scene is over (the loop then loads the next one).
    bool (*advance)(void *user);
    /// Run the scene again from its start.
    void (*restart)(void *user);
    /// Draw the current frame: panels at x = 0 and DW_PANEL, y from DW_HUD; paused is for the HUD.
    void (*draw)(void *user, dw_canvas *cv, bool paused);
    /// Arrow keys: orbit by (dx, dy) steps; NULL: the arrows do nothing.
    void (*orbit)(void *user, int dx, int dy);
    int scenes; ///< how many scenes N cycles through (≥ 1)
} dw_ops;

/// How dw_run ended.
typedef enum dw_status {
    DW_QUIT,      ///< the user quit, or --frames were shown (and the screenshot written)
    DW_NO_WINDOW, ///< no SDL2 in this build, or SDL could not open a window: the caller runs headless
    DW_FAILED,    ///< the scene would not load or the screenshot could not be written
} dw_status;

/// Open the window titled `title` and run the loop: frames > 0 quits after that many frames, screenshot (may be NULL) gets the last frame as PNG.
dw_status dw_run(const char *title, const dw_ops *ops, void *user, int frames, const char *screenshot);

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
/// Restrict drawing to the panel at x0 (0 or DW_PANEL) below the HUD; x0 < 0 lifts it.
void dw_clip_panel(dw_canvas *cv, int x0);
/// The HUD of one panel: its mode swatch, progress (0..1), a red square per pass-through (up to 20), a yellow flash when the CCD stopped a body this frame, and the pause sign.
void dw_hud(dw_canvas *cv, int x0, dw_rgba mode, double progress, int passes, bool stopped, bool paused);

/* ---- two runs in lockstep (no SDL needed) ---- */

/// Where each finished trial of a run begins: trial t holds frames [start[t], start[t+1]), t < n.
typedef struct dw_trials { int *start; int n, cap; } dw_trials;

/// End the current trial at `frames` frames recorded in all (start[0] = 0 is implied by the first call).
void dw_trials_end(dw_trials *tr, int frames);
/// The first frame of trial t (finished or under way).
int dw_trials_first(const dw_trials *tr, int t);
/// Free a trial index (it is then empty).
void dw_trials_free(dw_trials *tr);

/// A run stepped in a thread of its own that pauses after every step: the scene code keeps its loops, the window steps it frame by frame.
typedef struct dw_fiber dw_fiber;

/// Start body(user) in a new thread, paused before its first instruction; NULL when no thread can be made.
dw_fiber *dw_fiber_start(void (*body)(void *user), void *user);
/// From inside the run (its per-step hook): hand control back to the window and wait to be resumed.
void dw_fiber_yield(dw_fiber *f);
/// From the window: let the run go on to its next yield; false when it has finished.
bool dw_fiber_resume(dw_fiber *f);
/// From the window: let the run finish without pausing, join its thread and free it (NULL: nothing).
void dw_fiber_stop(dw_fiber *f);

/// Frames each trial's last pose is held before the next trial (half a second).
enum { DW_HOLD = 30 };

/// Two runs (side 0 left, 1 right) stepped together: trial t of both sides at once, a side that ends its trial first waiting on its last frame, each trial ending on a DW_HOLD hold. The runs' hooks record frames and call dw_trials_end.
typedef struct dw_lockstep {
    dw_fiber *fiber[2];
    const dw_trials *trials[2];
    const int *frames[2]; ///< each run's recorded frame count
    int t, hold, ntrials; ///< current trial, frames held so far, trials per run (for the progress bar)
    bool finished[2];
} dw_lockstep;

/// One frame on: resume each side still in trial t, hold, or go to the next trial; false when both runs are over.
bool dw_lockstep_advance(dw_lockstep *ls);
/// The frame the side shows now (its latest in trial t), or −1 when it has none yet.
int dw_lockstep_frame(const dw_lockstep *ls, int side);
/// The side's first frame of trial t.
int dw_lockstep_trial_first(const dw_lockstep *ls, int side);
/// How far the runs are, 0..1.
double dw_lockstep_progress(const dw_lockstep *ls);
/// Stop both runs (dw_fiber_stop) and clear the fibers.
void dw_lockstep_stop(dw_lockstep *ls);

/// Make room for `need` items of `size` bytes in *items (capacity *cap, doubled as needed); false when out of memory.
bool dw_grow(void **items, int *cap, int need, size_t size);

#endif
