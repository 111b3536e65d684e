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
    /// Load scene k of n (the loop wraps k); false when it cannot (the loop then quits).
    bool (*load)(void *user, int k);
    /// Advance one 60 Hz frame; false when the scene's replay is over (the loop then loads the next one).
    bool (*advance)(void *user);
    /// Back to the scene's first frame.
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

/* ---- lockstep replay (no SDL needed) ---- */

/// Where each trial of a recorded run begins: trial t holds frames [start[t], start[t+1]), t < n.
typedef struct dw_trials { int *start; int n, cap; } dw_trials;

/// End the current trial at `frames` frames recorded in all (start[0] = 0 is implied by the first call).
void dw_trials_end(dw_trials *tr, int frames);
/// Free a trial index (it is then empty).
void dw_trials_free(dw_trials *tr);

/// Frames each trial's last pose is held before the next trial (half a second).
enum { DW_HOLD = 30 };

/// A position in the lockstep replay of two runs: trial t of both sides shown together from frame i of the trial, the shorter side held on its last frame, each trial ending on a DW_HOLD hold.
typedef struct dw_replay { const dw_trials *side[2]; int t, i; } dw_replay;

/// Advance one frame; false after the last trial's hold (the position then stays).
bool dw_replay_advance(dw_replay *r);
/// The recorded frame the side shows now (a frame index of its run), or −1 when the side has no frame in this trial.
int dw_replay_frame(const dw_replay *r, int side);
/// The side's first frame of the current trial.
int dw_replay_trial_first(const dw_replay *r, int side);
/// How far the replay is, 0..1.
double dw_replay_progress(const dw_replay *r);

/// Make room for `need` items of `size` bytes in *items (capacity *cap, doubled as needed); false when out of memory.
bool dw_grow(void **items, int *cap, int need, size_t size);

#endif
