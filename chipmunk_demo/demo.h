/* chipmunk_demo — four Chipmunk2D scenes with and without sectorccd:
 * a sword on a motorised hinge against a thin wall, a kinematic bat against a
 * pitched ball, a spinning blade under falling pellets, two swords clashing.
 *
 * Every pass-through is found by an independent check on the engine's own
 * state (angles, sides, Chipmunk's contacts), never by the adapter's counters. */
#ifndef CHIPMUNK_DEMO_H
#define CHIPMUNK_DEMO_H

#include <stdio.h>
#include "sectorccd_chipmunk.h"

/// How a scene handles fast motion.
typedef enum demo_mode {
    DEMO_OFF,         ///< plain Chipmunk
    DEMO_SECTOR,      ///< sectorccd (sweep candidates)
    DEMO_SPECULATIVE, ///< sectorccd's TOI on the start+end box candidates only (what speculative CCD sees)
    DEMO_SUBSTEP,     ///< N Chipmunk sub-steps per step
} demo_mode;

/// One run of a scene.
typedef struct demo_cfg {
    demo_mode mode;
    int substeps;  ///< for DEMO_SUBSTEP
    double speed;  ///< swing speed, rad/s
    int trials;    ///< swings (or pellets)
} demo_cfg;

/// What a run measured.
typedef struct demo_result {
    int trials;          ///< swings or pellets
    int passes;          ///< pass-throughs seen by the scene's independent check
    int hits;            ///< trials in which Chipmunk made the contact
    long steps;          ///< steps taken
    double step_seconds; ///< wall time in cpSpaceStep
    sccd_cp_counters ccd;
} demo_result;

/// A strobe picture: shapes over time (older fainter) and pass-through marks.
typedef struct demo_strobe demo_strobe;

typedef struct demo_ctx demo_ctx;

/// An observer of a run (the live window's recorder); any callback may be NULL.
typedef struct demo_hook {
    void (*step)(void *user, const demo_ctx *c); ///< after every step
    void (*mark)(void *user, cpVect p);          ///< a pass-through at world point p (after the step that made it)
    void (*trial_end)(void *user);               ///< a trial is over (before its space is freed)
    void *user;
} demo_hook;

/// Stepping context of a scene run.
struct demo_ctx {
    cpSpace *space;
    sccd_cp_world *ccd;
    demo_cfg cfg;
    double dt;
    FILE *csv;            ///< per-step counters, may be NULL
    demo_strobe *strobe;  ///< may be NULL (only the first trial is drawn)
    int frame;
    demo_result *result;
    sccd_cp_counters last; ///< the CCD counters after the last step (zeros without CCD)
    const demo_hook *hook; ///< may be NULL
};

/// A fresh space for one trial (gravity g, 60 Hz, CCD per cfg.mode).
void demo_space_begin(demo_ctx *c, cpVect gravity);
/// Free the trial's space (bodies, shapes, constraints) and fold its counters into the result.
void demo_space_end(demo_ctx *c);
/// Enable CCD on body (when the mode has CCD) with its rotation centre.
void demo_ccd_body(demo_ctx *c, cpBody *body, cpVect pivot);
/// One step (or cfg.substeps sub-steps), timed; appends a CSV row; captures a strobe frame.
void demo_step(demo_ctx *c);
/// Mark a pass-through at world point p in the picture.
void demo_mark(demo_ctx *c, cpVect p);
/// True when a contact (arbiter) between bodies a and b exists after the last step.
bool demo_touching(cpBody *a, cpBody *b);
/// The unwrapped difference b − a of two angles, in (−π, π].
double demo_wrap(double d);

/// One shape in world coordinates as drawn: a circle (kind 0, centre x[0], y[0]), a segment (kind 1, ends 0 and 1) or a convex polygon (kind 2, n ≤ 16 corners), rounded by r (world units).
typedef struct demo_shape {
    int frame; ///< −1: static
    int kind, n;
    double x[16], y[16], r;
    int tint; ///< 0 static, 1 a blade (kinematic or hinged: the CCD bodies of the scenes), 2 loose
} demo_shape;

/// A growable list of shapes.
typedef struct demo_shapes { demo_shape *items; int n, cap; } demo_shapes;

/// Append the space's static shapes (frame < 0, tagged −1) or its moving shapes (tagged frame ≥ 0) to the list.
void demo_shapes_capture(demo_shapes *list, cpSpace *space, int frame);
/// Free a list's storage (the list is then empty).
void demo_shapes_free(demo_shapes *list);

/// A strobe over the view box (world units) drawing at most max_frames steps.
demo_strobe *demo_strobe_new(cpBB view, int max_frames, const char *title);
/// Free a strobe (NULL: nothing).
void demo_strobe_free(demo_strobe *s);
/// Write two strobes side by side as a PNG with a caption; false on failure.
bool demo_strobe_write(const demo_strobe *left, const demo_strobe *right, const char *caption, const char *path);

/// A scene: builds its trials, runs them under cfg, fills the result.
typedef void demo_scene_fn(demo_ctx *c);

/// The scenes, in order.
typedef struct demo_scene {
    const char *name;
    const char *what;
    double speed;       ///< default swing speed, rad/s
    int trials;         ///< default number of trials
    cpBB view;          ///< picture box
    int frames;         ///< steps drawn in the strobe
    demo_scene_fn *run;
    bool one_space;     ///< all trials share one space (one demo_space_begin/end per run), e.g. pellets
} demo_scene;

/// The table of scenes and its length.
extern const demo_scene demo_scenes[];
extern const int demo_scene_count;

/// The live window (demo_window.h): the scenes sc[0..n) replayed side by side, no CCD left and `mode` right, trials per scene (0: the scene's default), speed (0: default); returns dw_run's status as int (DW_NO_WINDOW: run headless).
int demo_window_run(const demo_scene *const *sc, int n, demo_cfg mode, double speed, int trials, int frames,
                    const char *screenshot);

#endif
