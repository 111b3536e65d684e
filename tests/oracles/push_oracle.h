/* A ball pushed along a bat that turns about its end, followed by brute
 * force: the engine-free reference of the impact solvers' pushes (a
 * kinematic body pressing a dynamic one along, the contact held for a
 * while). In the plane; a sphere rolling in the plane (3D) is the same
 * ball with its own moment of inertia. */
#ifndef SCCD_PUSH_ORACLE_H
#define SCCD_PUSH_ORACLE_H

#include "test_util.h"

/// The scene: times in seconds from its start, the ball of mass 1.
typedef struct sccd_push_scene {
    double len, half;  ///< the bat: a capsule from its pivot (the origin) along its x axis, of radius half
    double angle, w;   ///< its angle at time 0 and its spin (rad/s) until `stop`, then still
    double stop;       ///< when it stops
    double r, inertia; ///< the ball's radius and moment of inertia about its centre
    double friction;   ///< the contact's Coulomb coefficient (no restitution)
    sccd_v2 p, v;      ///< the ball's centre and velocity at time 0 (at rest spinning: spin 0)
} sccd_push_scene;

/// The ball's centre and velocity at time t_end: the contact's impulses (inelastic along the normal, Coulomb friction against the slip of the contact point, the spin taking its share) and the overlap pushed out, at sub-steps of 1e-4 rad of the bat's turn (converged: 1e-3 rad changes the exit velocity by 0.03 %).
void sccd_push_oracle(const sccd_push_scene *s, double t_end, sccd_v2 *p, sccd_v2 *v);

#endif
