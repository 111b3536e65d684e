/* ODE scenes shared by tests/test_ode_ccd.c, ode_demo and bench/ode_overhead:
 * a blade on a hinge motor against a thin plate, a kinematic bat against a
 * pitched ball, a kinematic rotor under falling spheres, two swords on hinge
 * motors clashing. Each trial runs one world and judges pass-throughs by an
 * independent check on ODE's own poses (which side of the plate, blade or
 * sword a thing is on), never by the adapter's counters. */
#ifndef SCCD_ODE_SCENES_H
#define SCCD_ODE_SCENES_H

#include "sectorccd_ode.h"

/// How a world handles fast motion.
typedef enum ode_ccd_mode {
    ODE_CCD_OFF,         ///< plain ODE
    ODE_CCD_SECTOR,      ///< sectorccd (sweep candidates)
    ODE_CCD_SPECULATIVE, ///< sectorccd's TOI on start+end box candidates only
    ODE_CCD_SUBSTEP,     ///< N collide+step sub-steps per step
} ode_ccd_mode;

/// A running world: the user's loop of collide, contacts, step, with the CCD calls around it.
typedef struct ode_world {
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    sccd_ode_world *ccd;  ///< NULL unless the mode has CCD
    ode_ccd_mode mode;
    int substeps;
    double dt;            ///< step, s (1/60)
    bool quick;           ///< dWorldQuickStep instead of dWorldStep
    double step_seconds;  ///< thread CPU time of all steps so far (collide + step + CCD)
    long steps;
} ode_world;

/// Per-step observer: called after every step (e.g. to draw a strobe frame).
typedef void ode_observer(void *user, const ode_world *w);

/// One trial's verdict.
typedef struct ode_trial {
    bool passed;        ///< a pass-through seen by the independent check
    bool touched;       ///< the game heard of a contact between the two parties (ODE's, or the CCD's impact callback)
    double px, py, pz;  ///< where the pass-through happened (when passed)
    long steps;
    double seconds;          ///< thread CPU time of the steps (collide + step + CCD)
    sccd_ode_counters ccd;   ///< the adapter's counters (zeros without CCD)
} ode_trial;

/// ODE messages (dMessage) swallowed since start: the scenes silence them.
extern long ode_messages;

/// Create a world with gravity (0, gravity_y, 0) at 60 Hz under the given mode.
void ode_world_init(ode_world *w, ode_ccd_mode mode, int substeps, double gravity_y);
/// One step of the user's loop (or substeps sub-steps), CCD calls around it; timed.
void ode_world_step(ode_world *w);
/// Destroy everything.
void ode_world_free(ode_world *w);
/// Enable CCD on body (when the mode has it) with the rotation centre pivot (body coordinates).
void ode_world_ccd_body(ode_world *w, dBodyID body, double px, double py, double pz);
/// True when a contact joint joined bodies a and b in the last step, or the CCD told of an impact between them (b may be 0: static).
bool ode_world_touched(const ode_world *w, dBodyID a, dBodyID b);

/* ---- tallies over speeds and phases (the tests' and the demos' runs) ---- */

/// Pass-throughs of a scene with sectorccd and without over speeds × phases, and the CCD trials where the game heard the hit.
typedef struct ode_tally { int n, with, without, touched; } ode_tally;
/// One trial of the scene `scene` (the caller's) under mode at speed (rad/s) and phase in [0, 1).
typedef ode_trial ode_trial_at(const void *scene, ode_ccd_mode mode, double speed, double phase);
/// Run every speed × phase under ODE_CCD_SECTOR and ODE_CCD_OFF; prints (stdout) each pass-through with CCD and the totals, labelled `what`.
ode_tally ode_tally_run(ode_trial_at *trial, const void *scene, const char *what, const double *speeds, int nspeeds, int phases);

/* ---- what the scene files share (ode_scenes.c) ---- */

/// d wrapped into (-π, π].
double ode_wrap_angle(double d);
/// Angle of body b's x axis about z (in the xy plane).
double ode_body_angle_z(dBodyID b);
/// The turn ODE's default integration makes in a step at `speed` rad/s: 2·atan(|speed|·dt/2).
double ode_step_turn(double speed, double dt);
/// Fill a trial's steps, seconds and counters, and free the world.
void ode_trial_finish(ode_world *w, ode_trial *out);
/// Hinge body b to the world about the z axis through (hx, hy, 0), a motor holding it at speed rad/s with at most
/// fmax N·m, and enable CCD on it (when the world's mode has it).
void ode_hinge_motor(ode_world *w, dBodyID b, double hx, double hy, double speed, double fmax);
/// Call obs (when not NULL) after a step.
void ode_trial_observe(ode_observer *obs, void *user, const ode_world *w);

/// A box blade of length 1 (0.02 thick) hinged at its middle, on a motor at `speed` rad/s, against a static plate 1/50 of its length thick; phase in [0, 1) shifts the start by that fraction of a step's turn; passed = the blade got past the plate's mid-plane.
ode_trial ode_trial_blade(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user);
/// Fastest swing the bat scene animates, rad/s: it tells ODE each step's turn as an angular velocity, and ODE turns a body by less than π per step (π/dt ≈ 188 at 60 Hz).
#define ODE_BAT_MAX_SPEED 180.0
/// A kinematic capsule bat of length 1 swung at `speed` rad/s (≤ ODE_BAT_MAX_SPEED) about its handle against a pitched ball of diameter 1/20 its length; passed = the ball did not leave at the bat's speed (the bat went through it).
ode_trial ode_trial_bat(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user);
/// A kinematic two-blade rotor spinning at `speed` rad/s under `spheres` spheres falling through its disc onto a ground plane; passed = a sphere crossed the blade plane inside a blade (*passes: how many did).
ode_trial ode_trial_rotor(ode_ccd_mode mode, int substeps, double speed, int spheres, unsigned seed, int *passes,
                          ode_observer *obs, void *user);
/// Two box swords on one hinge axis, motors turning them at each other at `speed` rad/s; passed = one got to the other side of the other.
ode_trial ode_trial_swords(ode_ccd_mode mode, int substeps, double speed, double phase, ode_observer *obs, void *user);

#endif
