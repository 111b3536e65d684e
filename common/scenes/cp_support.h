/* Helpers shared by the Chipmunk tests, benchmarks and demo. */
#ifndef SCCD_CP_SUPPORT_H
#define SCCD_CP_SUPPORT_H

#include <stdbool.h>
#include <chipmunk/chipmunk.h>

/// Remove and free every shape, constraint and body of space, then the space (NULL: nothing).
void sccd_cp_space_free_all(cpSpace *space);
/// The point at distance r along a blade hinged at pivot, turned by angle.
cpVect sccd_cp_blade_point(cpVect pivot, double angle, double r);
/// Proper crossing of segments ab and cd (the orientation signs differ on both).
bool sccd_cp_segments_cross(cpVect a, cpVect b, cpVect c, cpVect d);

#endif
