/* ode_demo — four ODE scenes with and without sectorccd (the scenes and their
 * independent pass-through checks live in tests/support/ode_scenes.c, shared
 * with the tests): a blade on a hinge motor against a thin plate, a kinematic
 * bat against a pitched ball, a rotor under falling spheres, two swords
 * clashing. This header is the strobe renderer's. */
#ifndef ODE_DEMO_H
#define ODE_DEMO_H

#include <stdbool.h>

#include "ode_scenes.h"

/// A strobe picture: the geoms of the world over time (older fainter), pass-through marks in red.
typedef struct demo_strobe demo_strobe;

/// A camera: the view turned by yaw about y, then pitch about x (radians); orthographic, centred on (cx, cy, cz), half-height span (world units).
typedef struct demo_view { double yaw, pitch, cx, cy, cz, span; } demo_view;

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

#endif
