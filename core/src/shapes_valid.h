/* Private to the core: the shape checks behind shapes.c's sccd_is_valid_*,
 * inline, for public entries that check a shape on every call of a hot
 * path (the prepared sector tests): the call and the copy of the struct
 * cost about as much as the check. */
#ifndef SCCD_SHAPES_VALID_H
#define SCCD_SHAPES_VALID_H

#include "sectorccd/shapes.h"

static inline bool valid_radius(sccd_real r) { return sccd_is_valid_real(r) && r >= 0.0; }

static inline bool valid_circle(sccd_circle s) { return sccd_is_valid_v2(s.c) && valid_radius(s.r); }

static inline bool valid_capsule2(sccd_capsule2 s)
{
    return sccd_is_valid_v2(s.a) && sccd_is_valid_v2(s.b) && valid_radius(s.r);
}

static inline bool valid_box2(sccd_box2 s)
{
    return sccd_is_valid_v2(s.c) && sccd_is_valid_rot2(s.q) && valid_radius(s.h.x) && valid_radius(s.h.y);
}

static inline bool valid_sphere(sccd_sphere s) { return sccd_is_valid_v3(s.c) && valid_radius(s.r); }

static inline bool valid_capsule3(sccd_capsule3 s)
{
    return sccd_is_valid_v3(s.a) && sccd_is_valid_v3(s.b) && valid_radius(s.r);
}

static inline bool valid_box3(sccd_box3 s)
{
    return sccd_is_valid_v3(s.c) && sccd_is_valid_quat(s.q) && valid_radius(s.h.x) && valid_radius(s.h.y) &&
           valid_radius(s.h.z);
}

#endif
