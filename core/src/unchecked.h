/* Private to the core: support, distance, motion and TOI functions without
 * the public entries' validation. Hot paths whose callers validated their
 * input once use them (the impact solver checks every shape and motion when
 * a step begins, then calls these thousands of times); on valid input they
 * give exactly the public functions' results, on invalid input anything. */
#ifndef SECTORCCD_UNCHECKED_H
#define SECTORCCD_UNCHECKED_H

#include "sectorccd/distance.h"
#include "sectorccd/motion.h"
#include "sectorccd/support.h"
#include "sectorccd/toi.h"

/* sccd_distance_point_segment2, squared. */
sccd_real sccd_point_segment2_dist2_unchecked(sccd_v2 p, sccd_v2 a, sccd_v2 b);

/* sccd_closest_point_segment2 / 3 without the parameter. */
sccd_v2 sccd_closest_point_segment2_unchecked(sccd_v2 p, sccd_v2 a, sccd_v2 b);
sccd_v3 sccd_closest_point_segment3_unchecked(sccd_v3 p, sccd_v3 a, sccd_v3 b);

/* sccd_closest_segment_segment2 / 3: the squared distance only. */
sccd_real sccd_segment_segment2_dist2_unchecked(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2);
sccd_real sccd_segment_segment3_dist2_unchecked(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2);

/* sccd_closest_segment_segment2 / 3: the closest points and their squared distance. */
sccd_real sccd_segment_segment2_closest_unchecked(sccd_v2 p1, sccd_v2 q1, sccd_v2 p2, sccd_v2 q2, sccd_v2 *x1, sccd_v2 *x2);
sccd_real sccd_segment_segment3_closest_unchecked(sccd_v3 p1, sccd_v3 q1, sccd_v3 p2, sccd_v3 q2, sccd_v3 *x1, sccd_v3 *x2);

/* Motion m with its places (start, centre, translation) scaled by f, a
 * power of 2 (exactly), its turn as it is: the same motion in units of
 * 1/f. */
static inline sccd_motion2 sccd_motion2_scaled(sccd_motion2 m, sccd_real f)
{
    m.start.p = sccd_v2_scale(m.start.p, f);
    m.center = sccd_v2_scale(m.center, f);
    m.dp = sccd_v2_scale(m.dp, f);
    return m;
}

static inline sccd_motion3 sccd_motion3_scaled(sccd_motion3 m, sccd_real f)
{
    m.start.p = sccd_v3_scale(m.start.p, f);
    m.center = sccd_v3_scale(m.center, f);
    m.dp = sccd_v3_scale(m.dp, f);
    return m;
}

/* The power of 2 a TOI query is solved in units of (1: as it is; toi.c):
 * the public TOI's and the CCD pipeline's. */
sccd_real sccd_toi2_query_factor(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                 sccd_real target, sccd_real tolerance);
sccd_real sccd_toi3_query_factor(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                                 sccd_real target, sccd_real tolerance);

/* A bound on the largest coordinate of shape s's points (body
 * coordinates, within a factor of 3 of it): a scene's size for the choice
 * of its units, in a few instructions (its box took 340 a TOI query). */
sccd_real sccd_shape2_magnitude(const sccd_shape2 *s);
sccd_real sccd_shape3_magnitude(const sccd_shape3 *s);

/* Shape s with every length scaled by f, a power of 2 (exactly). */
sccd_shape2 sccd_shape2_scaled(sccd_shape2 s, sccd_real f);
sccd_shape3 sccd_shape3_scaled(sccd_shape3 s, sccd_real f);

/* sccd_motion2_center_at / sccd_motion3_center_at, inline: the exported
 * functions take the motion by value and, built position independent, are
 * called (not inlined) even from motion.c, the motion copied at each call
 * (1.3 % of the CCD of swords buried in a pile). */
static inline sccd_v2 sccd_motion2_center_at_inline(const sccd_motion2 *m, sccd_real t)
{
    return sccd_v2_mad(sccd_xf2_apply(m->start, m->center), t, m->dp);
}

static inline sccd_v3 sccd_motion3_center_at_inline(const sccd_motion3 *m, sccd_real t)
{
    return sccd_v3_mad(sccd_xf3_apply(m->start, m->center), t, m->dp);
}

/* sccd_proxy2_make / sccd_proxy3_make. */
sccd_proxy2 sccd_proxy2_make_unchecked(const sccd_shape2 *s, sccd_xf2 xf);
sccd_proxy3 sccd_proxy3_make_unchecked(const sccd_shape3 *s, sccd_xf3 xf);

/* The union of sccd_shape2_aabb at x0 and at x1 (equal to it), one pass
 * over the shape's points; *core_reach = how far its core (the shape less
 * its rounding radius) reaches from body point c. */
sccd_aabb2 sccd_shape2_ends_aabb_unchecked(const sccd_shape2 *s, sccd_xf2 x0, sccd_xf2 x1, sccd_v2 c, sccd_real *core_reach);
/* The same in 3D: the union of sccd_shape3_aabb at x0 and x1, and its core's reach from c. */
sccd_aabb3 sccd_shape3_ends_aabb_unchecked(const sccd_shape3 *s, sccd_xf3 x0, sccd_xf3 x1, sccd_v3 c, sccd_real *core_reach);

/* sccd_shape3_half_thickness: a ball's or capsule's radius, a box's smallest half size. */
static inline sccd_real sccd_shape3_half_thickness_unchecked(const sccd_shape3 *s)
{
    if (s->type == SCCD_SHAPE_CIRCLE)
        return s->sphere.r;
    if (s->type == SCCD_SHAPE_CAPSULE)
        return s->capsule.r;
    return sccd_min(s->box.h.x, sccd_min(s->box.h.y, s->box.h.z));
}

/* sccd_proxy2_support / sccd_proxy3_support, inline for the hot loops of
 * GJK and the TOI (the public functions call these). */
static inline int sccd_proxy2_support_inline(const sccd_proxy2 *p, sccd_v2 d)
{
    int best = 0;
    sccd_real h = sccd_v2_dot(p->v[0], d);
    for (int i = 1; i < p->n; ++i) {
        sccd_real x = sccd_v2_dot(p->v[i], d);
        if (x > h) {
            h = x;
            best = i;
        }
    }
    return best;
}

static inline int sccd_proxy3_support_inline(const sccd_proxy3 *p, sccd_v3 d)
{
    int best = 0;
    sccd_real h = sccd_v3_dot(p->v[0], d);
    for (int i = 1; i < p->n; ++i) {
        sccd_real x = sccd_v3_dot(p->v[i], d);
        if (x > h) {
            h = x;
            best = i;
        }
    }
    return best;
}

/* sccd_proxy3_support_inline; a box's (box: its corners in
 * sccd_box3_corners' order, c ± x (bit 0) ± y (bit 1) ± z (bit 2), placed
 * by a rigid motion) from the signs of d along its three edges from corner
 * 0, where the search compares all eight: corner i's height is corner 0's
 * plus the edges of its bits', so the corner with every edge of positive
 * height is highest (a tie at 0 is a tie of heights: either corner). The
 * corners are a parallelepiped to rounding, so the heights agree with the
 * search's to a few ulps of |v|·|d|, the order of each height's rounding. */
static inline int sccd_proxy3_support_as(const sccd_proxy3 *p, bool box, sccd_v3 d)
{
    if (!box)
        return sccd_proxy3_support_inline(p, d);
    sccd_real o = sccd_v3_dot(p->v[0], d);
    return (sccd_v3_dot(p->v[1], d) > o) | (sccd_v3_dot(p->v[2], d) > o) << 1 | (sccd_v3_dot(p->v[4], d) > o) << 2;
}

/* The largest distance of a proxy's core points from the origin. */
static inline sccd_real sccd_proxy2_reach(const sccd_proxy2 *p)
{
    sccd_real s2 = 0.0; /* squared, one root at the end: the root is monotone, so the same result */
    for (int i = 0; i < p->n; ++i)
        s2 = sccd_max(s2, sccd_v2_len2(p->v[i]));
    return sqrt(s2);
}

static inline sccd_real sccd_proxy3_reach(const sccd_proxy3 *p)
{
    sccd_real s2 = 0.0;
    for (int i = 0; i < p->n; ++i)
        s2 = sccd_max(s2, sccd_v3_len2(p->v[i]));
    return sqrt(s2);
}

/* sccd_shape2_support / sccd_shape3_support, d not zero. */
sccd_v2 sccd_shape2_support_unchecked(const sccd_shape2 *s, sccd_xf2 xf, sccd_v2 d);
sccd_v3 sccd_shape3_support_unchecked(const sccd_shape3 *s, sccd_xf3 xf, sccd_v3 d);

/* sccd_shape2_farthest / sccd_shape3_farthest. */
sccd_real sccd_shape2_farthest_unchecked(const sccd_shape2 *s, sccd_v2 p);
sccd_real sccd_shape3_farthest_unchecked(const sccd_shape3 *s, sccd_v3 p);

/* sccd_shape2_aabb / sccd_shape3_aabb. */
sccd_aabb2 sccd_shape2_aabb_unchecked(const sccd_shape2 *s, sccd_xf2 xf);
sccd_aabb3 sccd_shape3_aabb_unchecked(const sccd_shape3 *s, sccd_xf3 xf);

/* sccd_proxy2_distance / sccd_proxy3_distance. */
sccd_distance2 sccd_proxy2_distance_unchecked(const sccd_proxy2 *a, const sccd_proxy2 *b);
sccd_distance3 sccd_proxy3_distance_unchecked(const sccd_proxy3 *a, const sccd_proxy3 *b);

/* GJK's final simplex as vertex index pairs (ia into a, ib into b), kept to
 * start the next query of the same two proxies, moved a little, from it
 * (Box2D's simplex cache): n = 0 starts afresh. */
typedef struct sccd_simplex_cache { int n; unsigned char ia[4], ib[4]; } sccd_simplex_cache;

/* sccd_proxy2_distance / sccd_proxy3_distance started from *cache (vertex
 * indices below each proxy's n), which then holds this query's simplex.
 * The result is as accurate as a cold start's (the same stopping rules). */
sccd_distance2 sccd_proxy2_distance_cached(const sccd_proxy2 *a, const sccd_proxy2 *b, sccd_simplex_cache *cache);
sccd_distance3 sccd_proxy3_distance_cached(const sccd_proxy3 *a, const sccd_proxy3 *b, sccd_simplex_cache *cache);
/* sccd_proxy3_distance of a box's proxy (sccd_proxy3_make's, its corners in
 * sccd_box3_corners' order, placed by any rigid motion) and a one-point
 * proxy (a sphere's), a_box: which is the box; in closed form, where GJK
 * iterates over the corners (most TOIs of debris in a pile of spheres). */
sccd_distance3 sccd_proxy3_distance_box_point(const sccd_proxy3 *a, const sccd_proxy3 *b, bool a_box);

/* sccd_shape2_distance / sccd_shape3_distance. */
sccd_distance2 sccd_shape2_distance_unchecked(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb);
sccd_distance3 sccd_shape3_distance_unchecked(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb);
/* sccd_shape2_distance_unchecked started from *cache (sccd_proxy2_distance_cached; a circle's closed form
 * leaves it be): the same two shapes, their sizes changed (a shrink keeps the proxies' vertex order), or moved. */
sccd_distance2 sccd_shape2_distance_cached(const sccd_shape2 *a, sccd_xf2 xa, const sccd_shape2 *b, sccd_xf2 xb,
                                           sccd_simplex_cache *cache);
/* sccd_shape3_distance_unchecked started from *cache (sccd_proxy3_distance_cached; a sphere's closed form
 * leaves it be): the same two shapes, their sizes changed (a shrink keeps the proxies' vertex order), or moved. */
sccd_distance3 sccd_shape3_distance_cached(const sccd_shape3 *a, sccd_xf3 xa, const sccd_shape3 *b, sccd_xf3 xb,
                                           sccd_simplex_cache *cache);

/* sccd_motion2_at / sccd_motion3_at. */
sccd_xf2 sccd_motion2_at_unchecked(sccd_motion2 m, sccd_real t);
sccd_xf3 sccd_motion3_at_unchecked(sccd_motion3 m, sccd_real t);

/* sccd_shape2_motion_box / sccd_shape3_motion_box. */
sccd_aabb2 sccd_shape2_motion_box_unchecked(const sccd_shape2 *s, sccd_motion2 m);
sccd_aabb3 sccd_shape3_motion_box_unchecked(const sccd_shape3 *s, sccd_motion3 m);

/* sccd_toi2_compute / sccd_toi3_compute. */
sccd_toi2 sccd_toi2_compute_unchecked(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                      sccd_real target, sccd_real tolerance);
/* sccd_toi2_compute_unchecked whose distances start from *cache (the same two shapes' simplex at some
 * nearby pose, their sizes maybe changed; n = 0: none), which then holds its last distance's. */
sccd_toi2 sccd_toi2_compute_cached(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                   sccd_real target, sccd_real tolerance, sccd_simplex_cache *cache);
sccd_toi3 sccd_toi3_compute_unchecked(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                                      sccd_real target, sccd_real tolerance);
/* sccd_toi3_compute_unchecked against b still, the box of the half-space
 * `half` (world) with its top face in the plane under all a's motion may
 * cover (impact3.c's plane_box): a's distances from its lowest point, one
 * support where GJK of two boxes took a few thousand instructions. */
sccd_toi3 sccd_toi3_plane_unchecked(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_plane half,
                                    sccd_real target, sccd_real tolerance);

#endif
