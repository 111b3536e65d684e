/* sccd_ode_space_collide: dSpaceCollide's contract (ODE's collideAABBs:
 * same body, category/collide bits, AABB overlap with touching included)
 * over our stateless sweep (sccd_bp3_sweep). Geoms with an unbounded box
 * (planes) would spoil the sort's spread, so they are tested against every
 * other geom directly; there are few of them. */
#include "sectorccd_ode.h"

typedef struct collide_context {
    dGeomID *geoms;     /* bounded geoms, in space order */
    void *data;
    dNearCallback *callback;
} collide_context;

/* ODE's rules after the box test, geoms in space order. */
static void report(dGeomID a, dGeomID b, void *data, dNearCallback *callback)
{
    dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    if (ba != NULL && ba == bb) {
        return;
    }
    if ((dGeomGetCategoryBits(a) & dGeomGetCollideBits(b)) == 0 &&
        (dGeomGetCategoryBits(b) & dGeomGetCollideBits(a)) == 0) {
        return;
    }
    callback(data, a, b);
}

static void sweep_pair(int a, int b, void *context)
{
    collide_context *c = context;
    report(c->geoms[a], c->geoms[b], c->data, c->callback); /* a < b: space order */
}

static bool boxes_touch(const dReal p[6], const dReal q[6])
{
    return !(p[0] > q[1] || p[1] < q[0] || p[2] > q[3] || p[3] < q[2] || p[4] > q[5] || p[5] < q[4]);
}

static bool bounded(const dReal b[6])
{
    for (int k = 0; k < 6; ++k) {
        if (!isfinite(b[k])) {
            return false;
        }
    }
    return true;
}

static bool has_nan(const dReal b[6])
{
    for (int k = 0; k < 6; ++k) {
        if (isnan(b[k])) {
            return true;
        }
    }
    return false;
}

void sccd_ode_space_collide(dSpaceID space, void *data, dNearCallback *callback)
{
    bool ok = space != NULL && callback != NULL;
    SCCD_ASSERT(ok);
    if (!ok) {
        return;
    }
    dSpaceClean(space); /* recompute dirty boxes, as dSpaceCollide does first */
    int n = dSpaceGetNumGeoms(space);
    dGeomID *all = sccd_alloc((size_t)(n > 0 ? n : 1) * sizeof *all);
    int *order = sccd_alloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    dGeomID *geoms = sccd_alloc((size_t)(n > 0 ? n : 1) * sizeof *geoms);
    dReal (*raw)[6] = sccd_alloc((size_t)(n > 0 ? n : 1) * sizeof *raw);
    sccd_aabb3 *boxes = sccd_alloc((size_t)(n > 0 ? n : 1) * sizeof *boxes);
    ok = all != NULL && order != NULL && geoms != NULL && raw != NULL && boxes != NULL;
    SCCD_ASSERT(ok);
    int m = 0, total = 0;
    for (int i = 0; ok && i < n; ++i) {
        dGeomID g = dSpaceGetGeom(space, i);
        if (!dGeomIsEnabled(g)) {
            continue;
        }
        dGeomGetAABB(g, raw[total]);
        bool nan = has_nan(raw[total]);
        SCCD_ASSERT(!nan);
        if (nan) {
            continue;
        }
        all[total] = g;
        if (bounded(raw[total])) {
            const dReal *r = raw[total];
            boxes[m] = (sccd_aabb3){{r[0], r[2], r[4]}, {r[1], r[3], r[5]}};
            geoms[m] = g;
            order[total] = m++;
        } else {
            order[total] = -1;
        }
        ++total;
    }
    if (ok) {
        collide_context c = {geoms, data, callback};
        sccd_bp3_sweep(boxes, m, sweep_pair, &c);
        /* unbounded geoms against every other enabled geom, once per pair */
        for (int i = 0; i < total; ++i) {
            for (int j = 0; order[i] < 0 && j < total; ++j) {
                bool counted = order[j] < 0 && j <= i; /* two unbounded: once, from the lower */
                if (!counted && boxes_touch(raw[i], raw[j])) {
                    report(all[i < j ? i : j], all[i < j ? j : i], data, callback);
                }
            }
        }
    }
    sccd_free(all);
    sccd_free(order);
    sccd_free(geoms);
    sccd_free(raw);
    sccd_free(boxes);
}
