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

/// Stepping context of a scene run.
typedef struct demo_ctx {
    cpSpace *space;
    sccd_cp_world *ccd;
    demo_cfg cfg;
    double dt;
    FILE *csv;            ///< per-step counters, may be NULL
    demo_strobe *strobe;  ///< may be NULL (only the first trial is drawn)
    int frame;
    demo_result *result;
    sccd_cp_counters last;
} demo_ctx;

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
} demo_scene;

/// The table of scenes and its length.
extern const demo_scene demo_scenes[];
extern const int demo_scene_count;

#endif
