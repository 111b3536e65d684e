/* Generated closed, outward-oriented meshes for tests, benchmarks and the
 * tool: surfaces of revolution (bottle, bat, and a sword as a 4-segment
 * revolution flattened into a diamond-section blade), a box, and tori (a
 * 4×4 torus is a square frame: the shape with a through-hole). */
#include "mesh_internal.h"

#include <string.h>

/* The quad of grid corners a, b (one ring), c, d (the next ring above),
 * counter-clockwise from outside; a pole collapses it to one triangle. */
static bool push_quad(sccd_mesh *m, int a, int b, int c, int d)
{
    bool ok = true;
    if (a != b)
        ok = sccd_mesh_push_triangle(m, a, b, c);
    if (c != d)
        ok = ok && sccd_mesh_push_triangle(m, a, c, d);
    return ok;
}

/* First vertex index of each profile point's ring (a pole is one vertex,
 * repeated for every segment). */
static int ring_vertex(const int *first, const sccd_v2 *profile, int i, int j, int segments)
{
    return profile[i].x == 0.0 ? first[i] : first[i] + j % segments;
}

/* Valid profile: finite, radii ≥ 0, only the end points on the axis, no
 * repeated consecutive points (they would make degenerate triangles). */
static bool valid_profile(const sccd_v2 *profile, int n)
{
    if (!profile || n < 2)
        return false;
    for (int i = 0; i < n; ++i) {
        bool end = i == 0 || i == n - 1;
        if (!sccd_is_valid_v2(profile[i]) || profile[i].x < 0.0 || (!end && profile[i].x == 0.0))
            return false;
        if (i > 0 && profile[i].x == profile[i - 1].x && profile[i].y == profile[i - 1].y)
            return false;
    }
    return !(n == 2 && profile[0].x == 0.0 && profile[1].x == 0.0);
}

/* A flat cap closing ring i (facing down at the bottom, up at the top). */
static bool push_cap(sccd_mesh *m, const int *first, const sccd_v2 *profile, int i, int segments, bool top)
{
    if (profile[i].x == 0.0)
        return true;
    int c = m->nv;
    bool ok = sccd_mesh_push_vertex(m, (sccd_v3){0.0, 0.0, profile[i].y});
    for (int j = 0; ok && j < segments; ++j) {
        int a = ring_vertex(first, profile, i, j, segments), b = ring_vertex(first, profile, i, j + 1, segments);
        ok = top ? sccd_mesh_push_triangle(m, c, a, b) : sccd_mesh_push_triangle(m, c, b, a);
    }
    return ok;
}

/* Revolve with the mesh known empty and the input valid. Side quads: going
 * +φ along a ring then up the profile, φ̂ × tangent points away from the
 * axis side, so the triangles face out when the profile runs bottom to top. */
static bool revolve(sccd_mesh *m, const sccd_v2 *profile, int n, int segments, int *first)
{
    bool ok = true;
    for (int i = 0; ok && i < n; ++i) {
        first[i] = m->nv;
        int count = profile[i].x == 0.0 ? 1 : segments;
        for (int j = 0; ok && j < count; ++j) {
            sccd_real phi = 2.0 * SCCD_PI * j / segments;
            ok = sccd_mesh_push_vertex(m, (sccd_v3){profile[i].x * cos(phi), profile[i].x * sin(phi), profile[i].y});
        }
    }
    for (int i = 0; ok && i + 1 < n; ++i)
        for (int j = 0; ok && j < segments; ++j)
            ok = push_quad(m, ring_vertex(first, profile, i, j, segments), ring_vertex(first, profile, i, j + 1, segments),
                           ring_vertex(first, profile, i + 1, j + 1, segments),
                           ring_vertex(first, profile, i + 1, j, segments));
    return ok && push_cap(m, first, profile, 0, segments, false) && push_cap(m, first, profile, n - 1, segments, true);
}

bool sccd_mesh_revolve(sccd_mesh *m, const sccd_v2 *profile, int n, int segments)
{
    bool ok = m != NULL && valid_profile(profile, n) && segments >= 3 && segments <= 1 << 20 && n <= 1 << 20;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    sccd_mesh_clear(m);
    int *first = sccd_alloc((size_t)n * sizeof *first);
    ok = first != NULL && revolve(m, profile, n, segments, first);
    sccd_free(first);
    if (!ok)
        sccd_mesh_clear(m);
    return ok;
}

bool sccd_mesh_bottle(sccd_mesh *m, int segments)
{
    /* A punted base, the body, a shoulder, the neck and a lip (metres). */
    static const sccd_v2 profile[] = {{0.0, 0.015},   {0.02, 0.008},  {0.036, 0.0},   {0.04, 0.004},
                                      {0.04, 0.2},    {0.035, 0.22},  {0.02, 0.245},  {0.014, 0.26},
                                      {0.014, 0.288}, {0.016, 0.29},  {0.016, 0.3},   {0.0, 0.3}};
    return sccd_mesh_revolve(m, profile, (int)(sizeof profile / sizeof profile[0]), segments);
}

bool sccd_mesh_bat(sccd_mesh *m, int segments)
{
    /* Knob, handle, taper, barrel and a rounded end (metres). */
    static const sccd_v2 profile[] = {{0.0, 0.0},   {0.028, 0.0},  {0.03, 0.008},  {0.026, 0.016}, {0.013, 0.03},
                                      {0.012, 0.3}, {0.016, 0.45}, {0.028, 0.6},   {0.033, 0.7},   {0.033, 0.8},
                                      {0.03, 0.83}, {0.02, 0.845}, {0.0, 0.85}};
    return sccd_mesh_revolve(m, profile, (int)(sizeof profile / sizeof profile[0]), segments);
}

bool sccd_mesh_sword(sccd_mesh *m)
{
    /* Pommel, grip, cross guard, blade and point, revolved with 4 segments
     * (a square section with corners on the x and y axes), then flattened
     * in y: a diamond-section blade 1/5 as thick as it is wide. */
    static const sccd_v2 profile[] = {{0.0, 0.0},    {0.03, 0.005}, {0.03, 0.035}, {0.015, 0.045}, {0.015, 0.2},
                                      {0.12, 0.21},  {0.12, 0.23},  {0.03, 0.24},  {0.025, 0.9},   {0.0, 1.0}};
    bool ok = sccd_mesh_revolve(m, profile, (int)(sizeof profile / sizeof profile[0]), 4);
    for (int i = 0; ok && i < m->nv; ++i)
        m->v[i].y *= 0.2;
    return ok;
}

bool sccd_mesh_box(sccd_mesh *m, sccd_v3 h)
{
    bool ok = m != NULL && sccd_is_valid_v3(h) && h.x > 0.0 && h.y > 0.0 && h.z > 0.0;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    sccd_mesh_clear(m);
    for (int i = 0; ok && i < 8; ++i)
        ok = sccd_mesh_push_vertex(m, (sccd_v3){i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z});
    /* Each face as a quad counter-clockwise from outside (corner bits: x, y, z). */
    static const int face[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    for (int f = 0; ok && f < 6; ++f)
        ok = sccd_mesh_push_triangle(m, face[f][0], face[f][1], face[f][2]) &&
             sccd_mesh_push_triangle(m, face[f][0], face[f][2], face[f][3]);
    return ok;
}

bool sccd_mesh_torus(sccd_mesh *m, sccd_real R, sccd_real r, int nu, int nv)
{
    bool ok = m != NULL && sccd_is_valid_real(R) && sccd_is_valid_real(r) && r > 0.0 && R > r && nu >= 3 && nv >= 3 &&
              nu <= 1 << 15 && nv <= 1 << 15;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    sccd_mesh_clear(m);
    /* Half-step phases, so that a 4×4 torus has axis-aligned faces. */
    for (int i = 0; ok && i < nu; ++i)
        for (int j = 0; ok && j < nv; ++j) {
            sccd_real u = 2.0 * SCCD_PI * (i + 0.5) / nu, v = 2.0 * SCCD_PI * (j + 0.5) / nv;
            sccd_real rho = R + r * cos(v);
            ok = sccd_mesh_push_vertex(m, (sccd_v3){rho * cos(u), rho * sin(u), r * sin(v)});
        }
    /* ∂p/∂u × ∂p/∂v points out of the tube, so (u, then v) is counter-clockwise from outside. */
    for (int i = 0; ok && i < nu; ++i)
        for (int j = 0; ok && j < nv; ++j) {
            int i1 = (i + 1) % nu, j1 = (j + 1) % nv;
            ok = push_quad(m, i * nv + j, i1 * nv + j, i1 * nv + j1, i * nv + j1);
        }
    if (!ok)
        sccd_mesh_clear(m);
    return ok;
}

bool sccd_mesh_holed(sccd_mesh *m)
{
    /* Corners at u = 45°: radial R ± r/√2 along the diagonal gives the
     * half-sizes (R ± r/√2)/√2 = 0.375 ± 0.125, and z = ±r/√2. */
    return sccd_mesh_torus(m, 0.375 * sqrt(2.0), 0.25, 4, 4);
}

/* ---- extruded outlines ---- */

static sccd_real cross2(sccd_v2 a, sccd_v2 b, sccd_v2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

/* p in the closed triangle a, b, c (counter-clockwise). */
static bool in_triangle2(sccd_v2 p, sccd_v2 a, sccd_v2 b, sccd_v2 c)
{
    return cross2(a, b, p) >= 0.0 && cross2(b, c, p) >= 0.0 && cross2(c, a, p) >= 0.0;
}

/* Ear clipping of the simple counter-clockwise polygon (n ≤ 256): each ear
 * (a convex corner whose triangle holds no other corner) becomes a cap
 * triangle on both faces. False when no ear is found (not simple). */
static bool push_caps(sccd_mesh *m, const sccd_v2 *poly, int n)
{
    int idx[256], left = n;
    for (int i = 0; i < n; ++i)
        idx[i] = i;
    while (left > 3) {
        int ear = -1;
        for (int i = 0; i < left && ear < 0; ++i) {
            int a = idx[(i + left - 1) % left], b = idx[i], c = idx[(i + 1) % left];
            bool ok = cross2(poly[a], poly[b], poly[c]) > 0.0;
            for (int j = 0; ok && j < left; ++j)
                ok = idx[j] == a || idx[j] == b || idx[j] == c || !in_triangle2(poly[idx[j]], poly[a], poly[b], poly[c]);
            ear = ok ? i : -1;
        }
        if (ear < 0)
            return false;
        int a = idx[(ear + left - 1) % left], b = idx[ear], c = idx[(ear + 1) % left];
        if (!sccd_mesh_push_triangle(m, a, c, b) || !sccd_mesh_push_triangle(m, n + a, n + b, n + c))
            return false;
        memmove(idx + ear, idx + ear + 1, (size_t)(left - ear - 1) * sizeof *idx);
        --left;
    }
    return sccd_mesh_push_triangle(m, idx[0], idx[2], idx[1]) && sccd_mesh_push_triangle(m, n + idx[0], n + idx[1], n + idx[2]);
}

bool sccd_mesh_extrude(sccd_mesh *m, const sccd_v2 *outline, int n, sccd_real thickness)
{
    bool ok = m != NULL && outline != NULL && n >= 3 && n <= 256 && sccd_is_valid_real(thickness) && thickness > 0.0;
    sccd_real area = 0.0;
    for (int i = 0; ok && i < n; ++i) {
        ok = sccd_is_valid_v2(outline[i]);
        area += outline[i].x * outline[(i + 1) % n].y - outline[(i + 1) % n].x * outline[i].y;
    }
    ok = ok && area > 0.0;
    SCCD_ASSERT(ok);
    if (!ok)
        return false;
    sccd_mesh_clear(m);
    for (int k = 0; ok && k < 2; ++k)
        for (int i = 0; ok && i < n; ++i)
            ok = sccd_mesh_push_vertex(m, (sccd_v3){outline[i].x, outline[i].y, k * thickness});
    for (int i = 0; ok && i < n; ++i) {
        int i1 = (i + 1) % n;
        ok = sccd_mesh_push_triangle(m, i, i1, n + i1) && sccd_mesh_push_triangle(m, i, n + i1, n + i);
    }
    ok = ok && push_caps(m, outline, n);
    SCCD_ASSERT(ok); /* an outline that is not simple */
    if (!ok)
        sccd_mesh_clear(m);
    return ok;
}

bool sccd_mesh_fork(sccd_mesh *m)
{
    /* Handle, neck, and four tines 3 mm wide with 4 mm gaps (metres),
     * counter-clockwise from the handle's end. */
    static const sccd_v2 outline[] = {
        {-0.006, 0.0},    {0.006, 0.0},    {0.006, 0.12},   {0.012, 0.14},   {0.012, 0.19},   {0.009, 0.19},
        {0.009, 0.15},    {0.005, 0.15},   {0.005, 0.19},   {0.002, 0.19},   {0.002, 0.15},   {-0.002, 0.15},
        {-0.002, 0.19},   {-0.005, 0.19},  {-0.005, 0.15},  {-0.009, 0.15},  {-0.009, 0.19},  {-0.012, 0.19},
        {-0.012, 0.14},   {-0.006, 0.12}};
    return sccd_mesh_extrude(m, outline, (int)(sizeof outline / sizeof outline[0]), 0.002);
}
