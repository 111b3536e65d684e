/* Trimesh geoms in the CCD (sccd_ode_internal.h). A mesh is the solver's as
 * its triangles, one shape each (sccd_impact_shape3_triangle): a static or
 * non-CCD mesh by the triangles near a moving body (sccd_ode_ccd.c), a mesh
 * on a CCD body whole, in its body's coordinates. The solver's shape trees
 * (core/src/impact_tree3.c) keep each search to the triangles near the other
 * body's shapes, so a mesh bat against a mesh post costs about the triangles
 * that come close, not every pair; the TOI runs on the triangles, so the bat
 * stops at its surface. What ODE can hold but the CCD cannot use is refused
 * at enable and skipped (reported) in a step: a trimesh without data (ODE
 * itself crashes asking it for its triangles), with no triangle, or with a
 * vertex that is not finite. */
#include "sccd_ode_internal.h"

/* Reported for a trimesh with a vertex not finite, at enable and in a step. */
#define NOT_FINITE "sccd_ode: a trimesh has a vertex that is not finite"

/* The problem of trimesh g short of its vertices (no data: ODE itself
 * crashes asking for its triangles; no triangle), NULL when none. */
static const char *data_problem(dGeomID g)
{
    if (dGeomTriMeshGetTriMeshDataID(g) == NULL)
        return "sccd_ode: a trimesh has no data (dCreateTriMesh with 0, or its data cleared)";
    return dGeomTriMeshGetTriangleCount(g) <= 0 ? "sccd_ode: a trimesh has no triangle" : NULL;
}

static bool triangle_is_finite(sccd_triangle t) { return sccd_is_valid_v3(t.a) && sccd_is_valid_v3(t.b) && sccd_is_valid_v3(t.c); }

const char *sccd_ode_mesh_problem(dGeomID g)
{
    const char *why = data_problem(g);
    for (int i = 0; why == NULL && i < dGeomTriMeshGetTriangleCount(g); ++i)
        why = triangle_is_finite(sccd_ode_triangle(g, i)) ? NULL : NOT_FINITE;
    return why;
}

const char *sccd_ode_body_mesh_problem(dBodyID body)
{
    for (dGeomID g = dBodyGetFirstGeom(body); g != NULL; g = dBodyGetNextGeom(g)) {
        const char *why = dGeomGetClass(g) == dTriMeshClass ? sccd_ode_mesh_problem(g) : NULL;
        if (why != NULL)
            return why;
    }
    return NULL;
}

/* Its data turned bad since enable: reported, and the body is swept without it. */
static int skip_mesh(sccd_ode_world *w, const char *why)
{
    sccd_ode_report(w, why);
    ++w->cnt.unsupported;
    return 0;
}

int sccd_ode_mesh_gather_ccd(sccd_ode_world *w, int k, sccd_motion3 m, sccd_aabb3 *region)
{
    const ode_geom *e = &w->geoms[k];
    const char *why = data_problem(e->geom);
    if (why != NULL)
        return skip_mesh(w, why);
    sccd_xf3 x1 = sccd_ode_body_pose(e->body);
    sccd_aabb3 box = sccd_adapter_empty_box();
    int n = dGeomTriMeshGetTriangleCount(e->geom), first = w->npieces;
    for (int i = 0; i < n; ++i) {
        sccd_triangle t = sccd_ode_triangle(e->geom, i);
        if (!triangle_is_finite(t)) {
            w->npieces = first; /* none of its triangles */
            return skip_mesh(w, NOT_FINITE);
        }
        sccd_v3 p[3] = {sccd_xf3_inv_apply(x1, t.a), sccd_xf3_inv_apply(x1, t.b), sccd_xf3_inv_apply(x1, t.c)};
        for (int c = 0; c < 3; ++c)
            box = (sccd_aabb3){sccd_v3_min(box.lo, p[c]), sccd_v3_max(box.hi, p[c])};
        if (!sccd_ode_add_piece(w, k, i))
            return -1;
    }
    /* the region: the motion box of the mesh's box in its body's coordinates */
    sccd_shape3 hull = {.type = SCCD_SHAPE_BOX,
                        .box = {sccd_v3_scale(sccd_v3_add(box.lo, box.hi), 0.5), sccd_quat_identity(),
                                sccd_v3_scale(sccd_v3_sub(box.hi, box.lo), 0.5)}};
    *region = sccd_shape3_motion_box(&hull, m);
    return 1;
}

/* ---- ODE trimesh data from a core mesh ---- */

static bool mesh_is_usable(const sccd_mesh *m)
{
    if (m == NULL || m->nt <= 0 || m->nv <= 0)
        return false;
    for (int i = 0; i < m->nv; ++i)
        if (!sccd_is_valid_v3(m->v[i]))
            return false;
    for (int i = 0; i < m->nt; ++i)
        for (int c = 0; c < 3; ++c)
            if (m->t[i][c] < 0 || m->t[i][c] >= m->nv)
                return false;
    return true;
}

bool sccd_ode_trimesh_init(sccd_ode_trimesh *t, const sccd_mesh *m)
{
    bool ok = t != NULL && mesh_is_usable(m);
    SCCD_ASSERT(ok);
    if (!ok) {
        if (t != NULL)
            *t = (sccd_ode_trimesh){0};
        return false;
    }
    *t = (sccd_ode_trimesh){NULL, sccd_alloc((size_t)m->nv * 3 * sizeof(double)), sccd_alloc((size_t)m->nt * 3 * sizeof(dTriIndex))};
    if (t->vertices == NULL || t->indices == NULL) {
        sccd_ode_trimesh_destroy(t);
        sccd_assert_failed("sccd_ode_trimesh_init: out of memory", __FILE__, __LINE__);
        return false;
    }
    for (int i = 0; i < m->nv; ++i) {
        t->vertices[3 * i] = m->v[i].x;
        t->vertices[3 * i + 1] = m->v[i].y;
        t->vertices[3 * i + 2] = m->v[i].z;
    }
    for (int i = 0; i < m->nt; ++i)
        for (int c = 0; c < 3; ++c)
            t->indices[3 * i + c] = (dTriIndex)m->t[i][c];
    t->data = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(t->data, t->vertices, 3 * sizeof(double), m->nv, t->indices, 3 * m->nt, 3 * sizeof(dTriIndex));
    return true;
}

void sccd_ode_trimesh_destroy(sccd_ode_trimesh *t)
{
    if (t == NULL)
        return;
    if (t->data != NULL)
        dGeomTriMeshDataDestroy(t->data);
    sccd_free(t->vertices);
    sccd_free(t->indices);
    *t = (sccd_ode_trimesh){0};
}
