/* Private to the core: the shape checks behind shapes.c's sccd_is_valid_*,
 * inline, for public entries that check a shape on every call of a hot
 * path (the prepared sector tests): the call and the copy of the struct
 * cost about as much as the check. */
#ifndef SCCD_SHAPES_VALID_H
#define SCCD_SHAPES_VALID_H

#include <float.h>

#include "sectorccd/shapes.h"

/* Finite and ≥ 0, in two comparisons (NaN fails both) and no branch. */
static inline bool valid_radius(sccd_real r) { return (r >= 0.0) & (r <= DBL_MAX); }

static inline bool valid_circle(sccd_circle s) { return sccd_is_valid_v2(s.c) & valid_radius(s.r); }

static inline bool valid_capsule2(sccd_capsule2 s)
{
    return sccd_is_valid_v2(s.a) && sccd_is_valid_v2(s.b) && valid_radius(s.r);
}

static inline bool valid_box2(sccd_box2 s)
{
    return sccd_is_valid_v2(s.c) && sccd_is_valid_rot2(s.q) && valid_radius(s.h.x) && valid_radius(s.h.y);
}

/* The polygon check by its definition, pair by pair (shapes.c): finite
 * vertices and, for n ≥ 3, every vertex on or left of every edge within
 * w·(1e-12·w + 1e-13·m), w the polygon's width (its bounding box's longer
 * side) and m its largest |coordinate|, in the edge's cross product with
 * the vertex's offset: past an edge as long as the polygon is wide (a
 * shorter one's line is known less well), a vertex may lie 1e-12 of the
 * width inside it, or 1e-13 of its distance from the origin where that is
 * more, about 450 times the doubles' spacing there (a polygon
 * placed there by a pose is rounded by a few spacings: refused, a valid
 * shape would meet nothing; accepted, a dent within that is tested as its
 * hull, which holds it), the same however large or small it is. */
bool sccd_poly2_valid_pairwise(const sccd_poly2 *s);

/* The polygon screen's pass so far (valid_poly2_disc): the vertex before
 * (prev) and the edge into it (e), reversed (prev − a: negated alike, two
 * edges cross to the same turn, and e.x < 0 where the edge points to
 * x > 0; the difference takes prev's register, not a copy of a's: 1.6
 * instructions a call fewer); the least turn, the largest squared distance
 * from the mean, whether that edge points to x > 0, and how often that
 * changed so far (at most 8: a byte, added to without widening, one
 * instruction a vertex fewer). */
typedef struct poly_scan {
    sccd_v2 prev, e;
    sccd_real turn, far2;
    bool right;
    unsigned char changes;
} poly_scan;

/* The next vertex a of the screen's pass, m the mean: the turn at prev.
 * far2 first in its max: a NaN or infinite last offset (all are, from a
 * non-finite mean) leaves far2 so. */
static inline void poly_scan_vertex(poly_scan *c, sccd_v2 a, sccd_v2 m)
{
    sccd_v2 f = sccd_v2_sub(c->prev, a);
    c->turn = sccd_min(c->turn, sccd_v2_cross(c->e, f));
    c->far2 = sccd_max(c->far2, sccd_v2_len2(sccd_v2_sub(a, m)));
    c->changes += (f.x < 0.0) != c->right;
    c->right = f.x < 0.0;
    c->prev = a;
    c->e = f;
}

/* The mean of the n ≥ 1 vertices (the polygon check's, and a placed
 * prepared polygon's: the same sum, so the same disc). */
static inline sccd_v2 poly2_mean(const sccd_poly2 *s)
{
    sccd_v2 sum = {0.0, 0.0};
    for (int i = 0; i < s->n; ++i)
        sum = sccd_v2_add(sum, s->v[i]);
    return sccd_v2_scale(sum, 1.0 / s->n);
}

/* Convex and counter-clockwise: every vertex lies on or left of every edge,
 * with a tolerance relative to the polygon's size so that collinear
 * vertices from rounding are accepted. The prepared sector tests check
 * their polygon on every call and want the disc about its vertices' mean
 * that holds it, so the check hands it over: *mean and *rad (set when it
 * returns true).
 *
 * The sum first, then one pass for the disc's radius and a screen; the
 * pairwise check only where the screen is not sure. A polygon (n ≥ 3) is
 * strictly convex, counter-clockwise and simple beyond doubt when every
 * turn is left by more than rounding can account for and the edges point
 * to x > 0 (a sign subtraction keeps exactly) in one run around it: one
 * turn, not several (each turn is under π, so the direction cannot skip
 * the half circle x > 0 or the rest). Every vertex is then strictly left of
 * the line of every edge but its own, so the pairwise check passes (its
 * rounding is as small, its tolerance above 1e-12·w²). A turn crosses two
 * edges, each a difference of two vertices (rounded to within 1.2e-16 of
 * itself, at most 2·rad long), so its rounding is below 3e-15·rad², and
 * the smallest must exceed 1e-13·rad²; where rad² falls below the doubles
 * (rad < 1e-154) the products round monotonically, so a turn above 0 is
 * one above −3e-15·rad², far inside the pairwise tolerance still. The
 * screen needs no finiteness test of its own: a NaN or infinite coordinate
 * makes the mean non-finite, then every vertex's offset from it, so rad;
 * rad below 1e150 keeps every turn finite. The size from the disc, not a
 * pass of its own, and no NaN test a turn: the prepared polygon test went
 * from 497 to 442 instructions a call (its radius pass had been a third
 * one). */
static inline bool valid_poly2_disc(const sccd_poly2 *s, sccd_v2 *mean, sccd_real *rad)
{
    if (!s || s->n < 1 || s->n > SCCD_POLY_MAX || !valid_radius(s->r))
        return false;
    int n = s->n;
    sccd_v2 m = poly2_mean(s);
    /* From vertex 0, the edge into it first, round to vertex 0 again: the
     * turns at vertices 0 to n − 1, every vertex's distance once, and no
     * index wrapped (from vertex n − 1, the edge into it came from a
     * vertex chosen by n: 4.8 instructions a call more). */
    sccd_v2 first = s->v[0], last = s->v[n - 1];
    poly_scan c = {first, sccd_v2_sub(last, first), INFINITY, 0.0, last.x < first.x, 0};
    for (int i = 1; i < n; ++i)
        poly_scan_vertex(&c, s->v[i], m);
    poly_scan_vertex(&c, first, m);
    *mean = m;
    *rad = sqrt(c.far2);
    if ((*rad < 1e150) & (c.turn > 1e-13 * *rad * *rad) & (c.changes == 2))
        return true;
    return sccd_poly2_valid_pairwise(s);
}

static inline bool valid_poly2(const sccd_poly2 *s)
{
    sccd_v2 mean;
    sccd_real rad;
    return valid_poly2_disc(s, &mean, &rad);
}

/* Shape s's numbers finite and its sizes ≥ 0, a polygon's convexity
 * unchecked: for entries whose result needs no more (a bound from its
 * vertices holds whatever their order), where the convexity check of a
 * square would cost 180 instructions a call. */
static inline bool valid_shape2_numbers(const sccd_shape2 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        return valid_circle(s->circle);
    case SCCD_SHAPE_CAPSULE:
        return valid_capsule2(s->capsule);
    case SCCD_SHAPE_BOX:
        return valid_box2(s->box);
    case SCCD_SHAPE_POLY: {
        sccd_real zero = 0.0; /* x − x: 0 for a finite x, NaN otherwise (a sum of the values could overflow) */
        for (int i = 0; i < s->poly.n; ++i)
            zero += (s->poly.v[i].x - s->poly.v[i].x) + (s->poly.v[i].y - s->poly.v[i].y);
        return s->poly.n >= 1 && s->poly.n <= SCCD_POLY_MAX && valid_radius(s->poly.r) && zero == 0.0;
    }
    }
    return false;
}

static inline bool valid_sphere(sccd_sphere s) { return sccd_is_valid_v3(s.c) & valid_radius(s.r); }

static inline bool valid_capsule3(sccd_capsule3 s)
{
    return sccd_is_valid_v3(s.a) && sccd_is_valid_v3(s.b) && valid_radius(s.r);
}

/* sccd_is_valid_quat without its finiteness checks: the unit check alone
 * fails for a NaN or infinite component (a NaN makes |q|² NaN, an infinite
 * one makes it infinite; squares cannot cancel), so it gives the same
 * answers in one comparison. */
static inline bool valid_quat(sccd_quat q) { return fabs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0) < 1e-6; }

/* One branch, not one a check (valid input passes them all; the prepared
 * box test checks its box on every call): x − x is 0 for every finite x
 * and NaN otherwise, so the finiteness of the centre and the half extents
 * is one sum (as sccd_is_valid_v3's), and finite half extents are ≥ 0 when
 * their least is. With && and sccd_is_valid_quat the prepared box test
 * took 508 instructions a call (speed), with this 493. */
static inline bool valid_box3(sccd_box3 s)
{
    sccd_real zero = (s.c.x - s.c.x) + (s.c.y - s.c.y) + (s.c.z - s.c.z) + (s.h.x - s.h.x) + (s.h.y - s.h.y) +
                     (s.h.z - s.h.z);
    return (zero == 0.0) & (sccd_min(s.h.x, sccd_min(s.h.y, s.h.z)) >= 0.0) & valid_quat(s.q);
}

/* sccd_is_valid_shape3 inline (a shape's bounds checked on every call of a public entry). */
static inline bool valid_shape3(const sccd_shape3 *s)
{
    switch (s->type) {
    case SCCD_SHAPE_CIRCLE:
        return valid_sphere(s->sphere);
    case SCCD_SHAPE_CAPSULE:
        return valid_capsule3(s->capsule);
    case SCCD_SHAPE_BOX:
        return valid_box3(s->box);
    default:
        return false;
    }
}

/* A valid rotation is unit only within 1e-6 (|q|² or c² + s² = 1 + δ), and
 * the map that places a box by it stretches the box: sccd_quat_apply's is
 * (1 + δ)R − δI (R the unit quaternion's rotation), its stretch within
 * 1 ± 2|δ|; sccd_rot2_apply's is √(1 + δ)R. So the balls (discs) about a
 * box's centre that hold it and that it holds are those of radii |h| and
 * min(h) grown and shrunk by 2e-6, and a little more for rounding: with
 * |h| itself a box whose corner reaches into a sector by 1e-8 was missed. */
#define BOX_ROTATION_SLACK 3e-6

/* The radius of a ball about a box's centre that holds the box, |h| = len. */
static inline sccd_real box_outer_radius(sccd_real len) { return len * (1.0 + BOX_ROTATION_SLACK); }

/* The radius of a ball about a box's centre that the box holds, min(h) = least. */
static inline sccd_real box_inner_radius(sccd_real least) { return least * (1.0 - BOX_ROTATION_SLACK); }

#endif
