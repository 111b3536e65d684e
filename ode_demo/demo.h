/* ode_demo — five ODE scenes with and without sectorccd (the scenes and their
 * independent pass-through checks live in common/scenes/ode_scenes.c and
 * ode_mesh_scenes.c, shared with the tests): a blade on a hinge motor against
 * a thin plate, a kinematic bat against a pitched ball, a rotor under falling
 * spheres, two swords clashing, a modelled (triangle mesh) bat against a mesh
 * post. This header holds the scene table (scenes.c), the strobe
 * renderer (strobe.c) and the live window (window.c). */
#ifndef ODE_DEMO_H
#define ODE_DEMO_H

#include <stdbool.h>

#include "ode_mesh_scenes.h"

/// A strobe picture: the geoms of the world over time (older fainter), pass-through marks in red.
typedef struct demo_strobe demo_strobe;

/// A camera: the view turned by yaw about y, then pitch about x (radians); orthographic, centred on (cx, cy, cz), half-height span (world units).
typedef struct demo_view { double yaw, pitch, cx, cy, cz, span; } demo_view;

/// Project world point p into the view: out[0] right, out[1] up, out[2] depth (larger is nearer; painters draw in increasing depth).
void demo_view_project(const demo_view *v, const double p[3], double out[3]);
/// Flat shade in [0.3, 1] of a triangle given in view coordinates (Lambert, light from the upper front).
double demo_view_shade(const double q[3][3]);

/// What a geom is, for its colour.
typedef enum demo_geom_kind {
    DEMO_GEOM_STATIC, ///< no body (a plate)
    DEMO_GEOM_GROUND, ///< a plane
    DEMO_GEOM_BLADE,  ///< on a kinematic or hinged body: the scenes' CCD bodies
    DEMO_GEOM_LOOSE,  ///< on a free body (ball, sphere)
} demo_geom_kind;

/// One geom as it was at a step: its class, pose and size (so it can be drawn after the world is gone).
typedef struct demo_geom {
    int cls;             ///< dBoxClass, dSphereClass, dCapsuleClass, dCylinderClass, dPlaneClass or dTriMeshClass
    demo_geom_kind kind;
    double pos[3], rot[12]; ///< ODE's position and 3×4 rotation (not for planes and trimeshes)
    double size[4];      ///< box lengths; sphere radius; capsule/cylinder radius, length; plane a, b, c, d
    double *mesh;        ///< trimesh: its triangles in world coordinates, 9 numbers each (owned)
    int nmesh;
} demo_geom;

/// Triangle sink of demo_geom_triangles (world coordinates).
typedef void demo_tri_fn(void *user, const double a[3], const double b[3], const double c[3]);

/// Snapshot geom g into *out; false (out empty) for classes that are not drawn.
bool demo_geom_capture(dGeomID g, demo_geom *out);
/// Free a snapshot's mesh copy.
void demo_geom_release(demo_geom *g);
/// Tessellate a snapshot into world triangles (a plane: a 3 × 3 square about its point nearest the origin).
void demo_geom_triangles(const demo_geom *g, demo_tri_fn *fn, void *user);

/// A strobe keeping the last max_frames frames.
demo_strobe *demo_strobe_new(demo_view view, int max_frames, const char *title);
/// Free a strobe (NULL: nothing).
void demo_strobe_free(demo_strobe *s);
/// Record every geom of the world's space as one frame.
void demo_strobe_capture(demo_strobe *s, const ode_world *w);
/// Mark a pass-through at world point (x, y, z).
void demo_strobe_mark(demo_strobe *s, double x, double y, double z);
/// Write two strobes side by side as a PNG with a caption; false on failure.
bool demo_strobe_write(const demo_strobe *left, const demo_strobe *right, const char *caption, const char *path);

/// A mode of the demo: how fast motion is handled, and the sub-steps for ODE_CCD_SUBSTEP.
typedef struct mode_cfg { ode_ccd_mode mode; int substeps; } mode_cfg;

/// The scenes (ode_scenes.h's trials).
typedef enum scene_id { SCENE_BLADE, SCENE_BAT, SCENE_ROTOR, SCENE_SWORDS, SCENE_MESH_BAT } scene_id;

/// A scene of the demo.
typedef struct demo_scene {
    scene_id id;
    const char *name, *what;
    double speed; ///< default, rad/s
    double max_speed; ///< largest --speed the scene can animate, rad/s
    int trials;   ///< phases (rotor: runs of ROTOR_SPHERES spheres)
    demo_view view;
    int frames;   ///< steps drawn in the strobe
} demo_scene;

/// Spheres per rotor trial.
enum { ROTOR_SPHERES = 20 };

/// The table of scenes and its length.
extern const demo_scene demo_scenes[];
extern const int demo_scene_count;

/// Trial k of `trials` of a scene under mode m at speed (rad/s), obs called after every step; *passes gets the pass-throughs (rotor: spheres).
ode_trial demo_run_trial(const demo_scene *sc, mode_cfg m, double speed, int k, int trials, ode_observer *obs, void *user,
                         int *passes);

/// The live window (demo_window.h): scenes sc[0..n) replayed side by side, no CCD left and `mode` right, trials per scene (0: default), speed (0: default); returns dw_run's status as int (DW_NO_WINDOW: run headless).
int demo_window_run(const demo_scene *const *sc, int n, mode_cfg mode, double speed, int trials, int frames,
                    const char *screenshot);

#endif
