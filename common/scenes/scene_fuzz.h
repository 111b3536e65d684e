/* A randomized scene fuzzer on the real engines (bench/scene_fuzz): each
 * (engine, seed, index) builds one random Chipmunk2D or ODE scene of CCD
 * bodies (hinged free, hinged on a motor, kinematic, free-flying) among thin
 * walls, planes, balls and each other, runs it for one simulated second with
 * the CCD on or off, and says whether anything passed through anything.
 *
 * Pass-throughs are judged only on the engine's poses with the geometry of
 * this module, never on the adapters' counters. Every judge compares an
 * "inner" shape (a CCD body shrunk by a good part of its half-thickness)
 * with a "core" (a wall's mid-line or mid-plane, a ball's centre): touching
 * them takes a penetration of the inset plus the target's half-thickness,
 * many times the engines' slop and the adapters' overlap, so resting contact
 * and jitter never count, while a body that went through must have crossed
 * the core.
 *
 * A scene description is one line; `sccd_fz_run` with the same arguments
 * rebuilds the same scene (the fuzzer's --replay). The same scene can be
 * built far from the world's origin (a large world: the engines' and the
 * library's doubles then hold fewer digits of each body's place) and in
 * other units (every length the engine sees scaled: a game in metres or
 * in millimetres, with its slop and forces to match). */
#ifndef SCCD_SCENE_FUZZ_H
#define SCCD_SCENE_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "test_util.h"

/// The engines the fuzzer drives.
typedef enum sccd_fz_engine { SCCD_FZ_CP, SCCD_FZ_ODE, SCCD_FZ_ENGINES } sccd_fz_engine;

/// A scene's kind: the kind of its first CCD body (the one the scene is built around).
typedef enum sccd_fz_kind {
    SCCD_FZ_HINGED_FREE,  ///< on a pivot/hinge to the static world, no motor, an initial spin
    SCCD_FZ_HINGED_MOTOR, ///< on a pivot/hinge with a motor driving it at its speed
    SCCD_FZ_KINEMATIC,    ///< kinematic: angular velocity set, sometimes moving too
    SCCD_FZ_FLYER,        ///< dynamic, no joint, spinning and translating
    SCCD_FZ_KINDS
} sccd_fz_kind;

/// How a scene is stepped: plain, with sectorccd, or plain in sub-steps short enough that
/// no CCD body moves more than half its inset or a wall's half-thickness in one (at least
/// SCCD_FZ_MIN_SUBSTEPS, at most SCCD_FZ_MAX_SUBSTEPS): the judges' calibration, where
/// what still fires is the engine's own doing (squeezes, soft joints) or the judges'.
typedef enum sccd_fz_mode { SCCD_FZ_OFF, SCCD_FZ_CCD, SCCD_FZ_SUBSTEP } sccd_fz_mode;
#define SCCD_FZ_MIN_SUBSTEPS 16
#define SCCD_FZ_MAX_SUBSTEPS 2000

/// Sub-steps that keep a motion of `travel` per step under half of `feature` (clamped as above).
int sccd_fz_substeps(double travel, double feature);

/// Longest scene description and judge message, with their terminating zero.
#define SCCD_FZ_TEXT 768
#define SCCD_FZ_JUDGE 256

/// The judge that saw a pass-through (scene_fuzz_cp.c and scene_fuzz_ode.c say how each works).
typedef enum sccd_fz_judge_kind {
    SCCD_FZ_JUDGE_DEEP,    ///< a dynamic CCD body's inner shape reached a static target's core
    SCCD_FZ_JUDGE_TURNED,  ///< a hinged body's angle passed over a range where it would
    SCCD_FZ_JUDGE_CROSSED, ///< a flyer's centre crossed a wall's core between two steps
    SCCD_FZ_JUDGE_BALL,    ///< a ball's centre inside a CCD body's inner shape
    SCCD_FZ_JUDGE_BODIES,  ///< two CCD bodies' inner shapes met
    SCCD_FZ_JUDGE_KINDS
} sccd_fz_judge_kind;

/// One scene run's verdict.
typedef struct sccd_fz_result {
    sccd_fz_kind kind;
    bool passed;                ///< a judge saw a pass-through
    sccd_fz_judge_kind judge_kind; ///< which one (when passed)
    int step;                   ///< the first step a judge fired in (-1 when none)
    int steps;                  ///< steps run
    int ambiguous;              ///< steps in which a hinged body turned too far (ODE: > 0.95π) to tell its way from the poses, judged both ways
    char scene[SCCD_FZ_TEXT];   ///< the scene in one line
    char judge[SCCD_FZ_JUDGE];  ///< what the first judge that fired saw ("" when none)
} sccd_fz_result;

/// Per-step observer for --replay: one line of poses after each step.
typedef void sccd_fz_trace(void *user, const char *line);

/// The names of an engine ("cp", "ode"), a scene kind and a judge.
const char *sccd_fz_engine_name(sccd_fz_engine e);
const char *sccd_fz_kind_name(sccd_fz_kind k);
const char *sccd_fz_judge_name(sccd_fz_judge_kind k);

/// How a scene is set up beyond its seed: about the point (origin, origin[, origin]) of its own units, every length the
/// engine sees × unit (its poses read back ÷ unit; masses as generated: moments and torques × unit²), and with heavy,
/// its balls' masses drawn over 1e-3 to 1e3 times a CCD body's (log-uniform; else Chipmunk's 0.05–2, ODE's 0.01–1).
typedef struct sccd_fz_setup { double origin, unit; bool heavy; } sccd_fz_setup;
/// The scenes as generated: about the world's origin, in the fuzzer's units (Chipmunk's centimetres, ODE's metres).
#define SCCD_FZ_HOME ((sccd_fz_setup){0.0, 1.0, false})
/// Build scene `index` of `seed` for engine e as `setup` says (the same scene at any place and unit), run it in the
/// given mode (trace: NULL or a line per step).
sccd_fz_result sccd_fz_run(sccd_fz_engine e, uint64_t seed, int index, sccd_fz_setup setup, sccd_fz_mode mode,
                           sccd_fz_trace *trace, void *user);
/// The Chipmunk2D and ODE halves of sccd_fz_run (scene_fuzz_cp.c, scene_fuzz_ode.c).
sccd_fz_result sccd_fz_run_cp(uint64_t seed, int index, sccd_fz_setup setup, sccd_fz_mode mode, sccd_fz_trace *trace,
                              void *user);
sccd_fz_result sccd_fz_run_ode(uint64_t seed, int index, sccd_fz_setup setup, sccd_fz_mode mode, sccd_fz_trace *trace,
                               void *user);

/* ---- shared scene helpers (scene_fuzz.c) ---- */

/// The generator of one scene: a different stream for every engine, seed and index.
sccd_rng sccd_fz_rng(sccd_fz_engine e, uint64_t seed, int index);
/// Log-uniform in [lo, hi] (slow speeds as likely per decade as fast ones).
double sccd_fz_log_uniform(sccd_rng *g, double lo, double hi);
/// One of n choices, the first `bias` times as likely as each other one.
int sccd_fz_pick(sccd_rng *g, int n, int bias);
/// Append printf output to the text buf of size n (silently cut when full).
void sccd_fz_append(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/// a wrapped into (-π, π].
double sccd_fz_wrap(double a);

/* ---- 2D judge geometry: rounded convex polygons ---- */

typedef struct sccd_fz_v2 { double x, y; } sccd_fz_v2;

/// Most vertices of a judge polygon (Chipmunk bodies here have at most 8).
#define SCCD_FZ_POLY_MAX 8

/// The points within r of the convex hull of v[0..n): n = 1 a disc, n = 2 a capsule, n ≥ 3 a rounded polygon (vertices in order).
typedef struct sccd_fz_poly { int n; sccd_fz_v2 v[SCCD_FZ_POLY_MAX]; double r; } sccd_fz_poly;

/// p turned by angle about the origin, then moved by t.
sccd_fz_v2 sccd_fz_v2_place(sccd_fz_v2 p, double angle, sccd_fz_v2 t);
/// Shape s (in its body's frame) posed at position t and angle.
sccd_fz_poly sccd_fz_poly_place(const sccd_fz_poly *s, sccd_fz_v2 t, double angle);
/// s shrunk by inset: the radius first, the rest by scaling the hull about its vertex mean (never more than inset from s's surface, inside it).
sccd_fz_poly sccd_fz_poly_inner(const sccd_fz_poly *s, double inset);
/// The two shapes share an interior point (distance below ra + rb).
bool sccd_fz_poly_overlap(const sccd_fz_poly *a, const sccd_fz_poly *b);
/// The gap between the two shapes (0 when they overlap).
double sccd_fz_poly_gap(const sccd_fz_poly *a, const sccd_fz_poly *b);
/// Centre and radius of a disc holding s.
double sccd_fz_poly_bound(const sccd_fz_poly *s, sccd_fz_v2 *centre);
/// Proper crossing of segments ab and cd.
bool sccd_fz_segments_cross(sccd_fz_v2 a, sccd_fz_v2 b, sccd_fz_v2 c, sccd_fz_v2 d);
/// Whether a centre whose chord from p0 to p1 crosses a wall went around it instead: a path of at most reach from p0 past end a or b to p1 (an impact mid-step, e.g. a bat carrying a ball round the wall's end, bends the path; a straight pass-through's path is its chord, shorter than any detour).
bool sccd_fz_around_ends(sccd_fz_v2 p0, sccd_fz_v2 p1, sccd_fz_v2 a, sccd_fz_v2 b, double reach);

/* ---- 3D judge geometry: boxes, rectangles, segments and points with a radius ---- */

typedef struct sccd_fz_v3 { double x, y, z; } sccd_fz_v3;

/// The points within r of the box centred at c with unit axes a[0..2] and half extents h (each ≥ 0): a sphere (h = 0), a capsule (h along a[0] only), a box or a flat rectangle (r = 0).
typedef struct sccd_fz_solid { sccd_fz_v3 c, a[3]; double h[3], r; } sccd_fz_solid;

/// The two solids share an interior point.
bool sccd_fz_solid_overlap(const sccd_fz_solid *a, const sccd_fz_solid *b);
/// Signed distance from the plane n·p = d (n unit) of s's deepest point on the solid side (negative: under the plane).
double sccd_fz_solid_plane_depth(const sccd_fz_solid *s, sccd_fz_v3 n, double d);
/// s shrunk by inset (radius first, then the half extents, none below 0).
sccd_fz_solid sccd_fz_solid_inner(const sccd_fz_solid *s, double inset);

/* ---- angle sets: where a body turning about a fixed pivot meets a static core ---- */

/// Samples over a full turn.
#define SCCD_FZ_ANGLES 4096

/// The sampled angles at which a hinged body's inner shape meets a target's core.
typedef struct sccd_fz_arcs { uint8_t in[SCCD_FZ_ANGLES]; bool any; } sccd_fz_arcs;

/// Angle of sample k.
double sccd_fz_arcs_angle(int k);
/// The turn from a0 to a1 (unwrapped, either direction) passed over a whole run of sampled angles in the set: from outside it, through it, out again.
bool sccd_fz_arcs_crossed(const sccd_fz_arcs *s, double a0, double a1);

/// Whether a centre whose chord from p0 to p1 crosses the rectangle (centre c, unit in-plane axes u and w, half extents hu and hw) went around it: a path of at most reach from p0 past a point of its rim to p1 (as sccd_fz_around_ends).
bool sccd_fz_around_rim(sccd_fz_v3 p0, sccd_fz_v3 p1, sccd_fz_v3 c, sccd_fz_v3 u, double hu, sccd_fz_v3 w, double hw, double reach);

#endif
