/* Private: the one tolerance rule of the "touching counts" tests. A gap up
 * to SCCD_EPS times the scene size counts as contact, where the scene size
 * is the largest coordinate magnitude of the points involved plus the sizes
 * of the shapes: that is the scale of the rounding in the differences and
 * products the tests form. */
#ifndef SCCD_TOLERANCE_H
#define SCCD_TOLERANCE_H

#include "sectorccd/math_functions.h"

/* The largest coordinate magnitude of v. */
static inline sccd_real sccd_mag2(sccd_v2 v) { return sccd_max(fabs(v.x), fabs(v.y)); }

static inline sccd_real sccd_mag3(sccd_v3 v) { return sccd_max(fabs(v.x), sccd_max(fabs(v.y), fabs(v.z))); }

/* The gap accepted as touching in a scene of the given size. */
static inline sccd_real sccd_touch_slack(sccd_real scene) { return SCCD_EPS * scene; }

#endif
