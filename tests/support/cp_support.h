/* Helpers shared by the Chipmunk tests, benchmarks and demo. */
#ifndef SCCD_CP_SUPPORT_H
#define SCCD_CP_SUPPORT_H

#include <chipmunk/chipmunk.h>

/// Remove and free every shape, constraint and body of space, then the space (NULL: nothing).
void sccd_cp_space_free_all(cpSpace *space);
/// CPU time of the calling thread in seconds (steady under a shared machine).
double sccd_cpu_seconds(void);

#endif
