/* ODE scenes of modelled weapons (tests/test_ode_mesh.c, ode_demo): a mesh
 * bat or a mesh sword (the core's generated meshes as ODE trimeshes) on a
 * hinge motor, swung about the z axis into a thin plate, a ball or a mesh
 * post. Each trial judges pass-throughs on ODE's own poses, never on the
 * adapter's counters. */
#ifndef SCCD_ODE_MESH_SCENES_H
#define SCCD_ODE_MESH_SCENES_H

#include "ode_scenes.h"

/// The modelled weapon swung.
typedef enum ode_mesh_weapon {
    ODE_MESH_BAT,   ///< sccd_mesh_bat: 0.85 long, barrel radius 0.033
    ODE_MESH_SWORD, ///< sccd_mesh_sword: 1.0 long, a diamond-section blade 0.012 thick, swung edge first
} ode_mesh_weapon;

/// What it is swung into; each lies across the weapon's path at angle 0, symmetric about it.
typedef enum ode_mesh_target {
    ODE_MESH_PLATE, ///< a static box plate 0.02 thick along the path's radius (ode_mesh_plate)
    ODE_MESH_BALL,  ///< a free ball of radius 0.04 (0.145 kg) at radius 0.55
    ODE_MESH_POST,  ///< a static trimesh: a generated bat standing upright at radius 0.55
} ode_mesh_target;

/// Fastest swing of the scenes, rad/s (ODE's default step turns a body by less than π: π/dt ≈ 188 at 60 Hz).
#define ODE_MESH_MAX_SPEED 180.0

/// The plate as a core shape (world): 0.02 thick along y, from x = 0.2 (clear of the sword's guard) to 0.85.
sccd_shape3 ode_mesh_plate(void);
/// The weapon's mesh in its body's coordinates: along +x from -0.1 (the hinge, in the grip, is the origin), its
/// width along y, its thickness along z. False on failure (m then empty).
bool ode_mesh_weapon_mesh(sccd_mesh *m, ode_mesh_weapon weapon);
/// The post's mesh in world coordinates (a bat along z about (0.55, 0), from z = -0.425 to 0.425).
bool ode_mesh_post_mesh(sccd_mesh *m);

/// One swing at `speed` rad/s (≤ ODE_MESH_MAX_SPEED) from angle -(0.35 + phase × a step's turn), phase in [0, 1).
/// passed (plate, post): the weapon's centre line got past the target's mid-plane (angle 0), which it cannot reach
/// without its triangles going through the target; (ball) the weapon got past the ball's start, clear of it, while the
/// ball was still within its radius of where it was.
ode_trial ode_trial_mesh(ode_ccd_mode mode, int substeps, ode_mesh_weapon weapon, ode_mesh_target target, double speed,
                         double phase, ode_observer *obs, void *user);

#endif
