/* Private helpers shared by sector3.c and sweep3.c: convex polytopes given by
 * vertices and edges, and the sector tests on them. */
#ifndef SECTORCCD_SECTOR3_INTERNAL_H
#define SECTORCCD_SECTOR3_INTERNAL_H

#include "sectorccd/sector3.h"
#include "convex2.h"

/* Vertices of a swept box: 8 corners and their 8 shifted copies. */
#define SCCD_POLYTOPE_MAX_V 16
/* 12 box edges, 12 shifted, 8 joining each corner to its copy. */
#define SCCD_POLYTOPE_MAX_E 32

/* A convex polytope: its hull's vertices and a list of segments between them
 * that holds every edge of the hull (extra chords are harmless: the tests
 * only use points of the hull that edges give). */
typedef struct sccd_polytope {
    int nv, ne;
    sccd_v3 v[SCCD_POLYTOPE_MAX_V];
    unsigned char e[SCCD_POLYTOPE_MAX_E][2];
} sccd_polytope;

/* Most points sccd_slab_points gives. */
#define SCCD_SLAB_POINTS (SCCD_POLYTOPE_MAX_V + 2 * SCCD_POLYTOPE_MAX_E)

/* The vertices of p ∩ {lo ≤ dir·x ≤ hi} (p's vertices v, given separately so
 * they may be in another frame): p's vertices inside (within tol) and its
 * edges' crossings of the two planes; their hull is the clipped polytope.
 * Returns the count (0: empty). */
int sccd_slab_points(const sccd_v3 *v, const sccd_polytope *p, sccd_v3 dir, sccd_real lo, sccd_real hi, sccd_real tol,
                     sccd_v3 *out);

/* The least and largest z of sccd_slab_points' points, z[0] > z[1] when
 * there are none, without making the points. */
void sccd_slab_heights(const sccd_v3 *v, const sccd_polytope *p, sccd_v3 dir, sccd_real lo, sccd_real hi,
                       sccd_real tol, sccd_real z[2]);

/* The 8 corners and 12 edges of box b. */
void sccd_polytope_box(sccd_polytope *p, sccd_box3 b);
/* The 3 corners and edges of triangle t. */
void sccd_polytope_triangle(sccd_polytope *p, sccd_triangle t);
/* p becomes p ⊕ segment[0, d] (a prism): copies shifted by d, joined. */
void sccd_polytope_sweep(sccd_polytope *p, sccd_v3 d);
/* sccd_sector3_aabb of a prepared (ready) sector. */
sccd_aabb3 sccd_sector3_prepared_aabb(const sccd_sector3_prepared *S);
/* Exact prepared sector–polytope test (false when S is not ready). */
bool sccd_sector3_prepared_meets_polytope(const sccd_sector3_prepared *S, const sccd_polytope *p);
/* Exact prepared sector–capsule test without the capsule's checks (false when S is not ready). */
bool sccd_sector3_prepared_meets_capsule(const sccd_sector3_prepared *S, sccd_capsule3 c);

/* One Cyrus–Beck step: restrict [*lo, *hi] to the t with f0 + t·fd ≥ 0.
 * False when no t is left in it. */
static inline bool sccd_clip_param(sccd_real f0, sccd_real fd, sccd_real *lo, sccd_real *hi)
{
    if (fd == 0.0)
        return f0 >= 0.0 && *lo <= *hi;
    if (fd > 0.0)
        *lo = sccd_max(*lo, -f0 / fd);
    else
        *hi = sccd_min(*hi, -f0 / fd);
    return *lo <= *hi;
}

/* Depth-first bisection of parameter intervals: pushes [m, hi] then [lo, m]
 * (so [lo, m] is taken next) with m the middle. */
static inline void sccd_push_halves(sccd_real (*stack)[2], int *n, sccd_real lo, sccd_real hi)
{
    sccd_real m = 0.5 * (lo + hi);
    stack[*n][0] = m;
    stack[(*n)++][1] = hi;
    stack[*n][0] = lo;
    stack[(*n)++][1] = m;
}

/* Sorts the few numbers of v ascending (insertion sort: n is small here). */
static inline void sccd_sort_small(sccd_real *v, int n)
{
    for (int i = 1; i < n; ++i) {
        sccd_real x = v[i];
        int j = i;
        for (; j > 0 && x < v[j - 1]; --j)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

#endif
