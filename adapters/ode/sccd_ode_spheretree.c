/* Sphere trees as an ODE geom class (docs/DESIGN.md "The adapters": one user
 * class, dCreateGeomClass). ODE calls our collider with our geom first and
 * reverses the contacts itself for the other order. Conventions: ODE wants
 * the normal along which moving o1 by depth separates the pair; the core's
 * contact normal points from the tree (o1) to the other shape, so it is
 * negated here. */
#include "sectorccd_ode.h"

#include <stdatomic.h>
#include <stdlib.h>

typedef struct tree_data { const sccd_spheretree *tree; } tree_data;

/* ODE's class number of our geoms, -1 until registered: ODE's table of
 * classes is process-wide, so this is too. Threads may create sphere-tree
 * geoms at once: the number is atomic and registering takes `registering`
 * (a spin lock: held only around one ODE call, once per process and after
 * each dInitODE2). */
static atomic_int tree_class = -1;
static atomic_flag registering = ATOMIC_FLAG_INIT;

static sccd_xf3 geom_pose(dGeomID g)
{
    const dReal *p = dGeomGetPosition(g);
    dQuaternion q;
    dGeomGetQuaternion(g, q);
    return (sccd_xf3){{p[0], p[1], p[2]}, {q[1], q[2], q[3], q[0]}};
}

static const sccd_spheretree *tree_of(dGeomID g) { return ((const tree_data *)dGeomGetClassData(g))->tree; }

/* The other geom as a core shape; false for a class we do not handle. */
static bool shape_of(dGeomID g, sccd_shape3 *s)
{
    sccd_xf3 xf = geom_pose(g);
    switch (dGeomGetClass(g)) {
    case dSphereClass:
        *s = (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {xf.p, dGeomSphereGetRadius(g)}};
        return true;
    case dBoxClass: {
        dVector3 l;
        dGeomBoxGetLengths(g, l);
        *s = (sccd_shape3){.type = SCCD_SHAPE_BOX, .box = {xf.p, xf.q, {0.5 * l[0], 0.5 * l[1], 0.5 * l[2]}}};
        return true;
    }
    case dCapsuleClass: {
        dReal r, len;
        dGeomCapsuleGetParams(g, &r, &len);
        sccd_v3 half = sccd_quat_apply(xf.q, (sccd_v3){0.0, 0.0, 0.5 * len}); /* ODE capsules lie along local z */
        *s = (sccd_shape3){.type = SCCD_SHAPE_CAPSULE, .capsule = {sccd_v3_sub(xf.p, half), sccd_v3_add(xf.p, half), r}};
        return true;
    }
    default: return false;
    }
}

/* Leaf contacts of o1 (ours) with o2: how many there are; the first cap go to out. */
static int contacts_of(dGeomID o1, dGeomID o2, sccd_spheretree_contact *out, int cap)
{
    const sccd_spheretree *t = tree_of(o1);
    sccd_xf3 xf = geom_pose(o1);
    sccd_shape3 s;
    if (dGeomGetClass(o2) == tree_class)
        return sccd_spheretree_contacts(t, xf, tree_of(o2), geom_pose(o2), out, cap);
    if (dGeomGetClass(o2) == dPlaneClass) {
        dVector4 p;
        dGeomPlaneGetParams(o2, p);
        return sccd_spheretree_contacts_plane(t, xf, (sccd_plane){{p[0], p[1], p[2]}, p[3]}, out, cap);
    }
    return shape_of(o2, &s) ? sccd_spheretree_contacts_shape(t, xf, &s, out, cap) : 0;
}

static int deeper_first(const void *a, const void *b)
{
    sccd_real x = ((const sccd_spheretree_contact *)a)->depth, y = ((const sccd_spheretree_contact *)b)->depth;
    return (x < y) - (x > y);
}

/* Contacts a collide call gathers without allocating: most pairs touch in a
 * few leaves, so steady steps allocate nothing here, and the class probe
 * (class_alive) never depends on memory. */
#define LOCAL_CONTACTS 32

static int collide(dGeomID o1, dGeomID o2, int flags, dContactGeom *contact, int skip)
{
    int max = flags & 0xffff;
    sccd_spheretree_contact local[LOCAL_CONTACTS], *c = local;
    int n = max > 0 ? contacts_of(o1, o2, local, LOCAL_CONTACTS) : 0;
    if (n > LOCAL_CONTACTS) { /* all of them, so that the deepest are kept */
        c = sccd_alloc((size_t)n * sizeof *c);
        if (c != NULL) {
            contacts_of(o1, o2, c, n);
        } else {
            sccd_assert_failed("sccd_ode_spheretree: out of memory; the deepest of the first 32 contacts only",
                               __FILE__, __LINE__);
            c = local;
            n = LOCAL_CONTACTS;
        }
    }
    if (n > max)
        qsort(c, (size_t)n, sizeof *c, deeper_first);
    n = n < max ? n : max;
    for (int i = 0; i < n; ++i) {
        dContactGeom *g = (dContactGeom *)((char *)contact + (size_t)i * (size_t)skip);
        g->pos[0] = c[i].point.x, g->pos[1] = c[i].point.y, g->pos[2] = c[i].point.z;
        g->normal[0] = -c[i].normal.x, g->normal[1] = -c[i].normal.y, g->normal[2] = -c[i].normal.z;
        g->depth = c[i].depth;
        g->g1 = o1;
        g->g2 = o2;
        g->side1 = g->side2 = -1;
    }
    if (c != local)
        sccd_free(c);
    return n;
}

static dColliderFn *collider_for(int num)
{
    bool handled = num == dSphereClass || num == dBoxClass || num == dCapsuleClass || num == dPlaneClass ||
                   num == atomic_load(&tree_class);
    return handled ? collide : NULL;
}

/* The root sphere's box in world coordinates, grown by 1e-12 relative so
 * that rounding never makes ODE's box test drop a touching pair. */
static void tree_aabb(dGeomID g, dReal aabb[6])
{
    sccd_sphere root = tree_of(g)->nodes[0].bound;
    sccd_v3 c = sccd_xf3_apply(geom_pose(g), root.c);
    root.r += 1e-12 * (root.r + fabs(c.x) + fabs(c.y) + fabs(c.z));
    aabb[0] = c.x - root.r, aabb[1] = c.x + root.r;
    aabb[2] = c.y - root.r, aabb[3] = c.y + root.r;
    aabb[4] = c.z - root.r, aabb[5] = c.z + root.r;
}

/* dCloseODE + dInitODE2 forget the colliders of user classes (the class
 * number stays valid): probe with a one-leaf tree touching a sphere. */
static bool class_alive(int cls)
{
    sccd_spheretree_node node = {{{0.0, 0.0, 0.0}, 1.0}, 0, 0, 0, 1, 0};
    sccd_sphere leaf = {{0.0, 0.0, 0.0}, 1.0};
    sccd_spheretree probe = {&node, &leaf, 1, 1, 0};
    dGeomID g = dCreateGeom(cls), s = dCreateSphere(0, 1.0);
    ((tree_data *)dGeomGetClassData(g))->tree = &probe;
    dContactGeom c;
    int n = dCollide(g, s, 1, &c, sizeof c);
    dGeomDestroy(g);
    dGeomDestroy(s);
    return n == 1;
}

int sccd_ode_spheretree_class(void)
{
    int cls = atomic_load(&tree_class);
    if (cls >= 0 && class_alive(cls))
        return cls;
    while (atomic_flag_test_and_set_explicit(&registering, memory_order_acquire))
        ; /* another thread is registering: a few microseconds */
    cls = atomic_load(&tree_class); /* it may have done it */
    if (cls < 0 || !class_alive(cls)) {
        dGeomClass k = {(int)sizeof(tree_data), collider_for, tree_aabb, NULL, NULL};
        cls = dCreateGeomClass(&k);
        atomic_store(&tree_class, cls);
    }
    atomic_flag_clear_explicit(&registering, memory_order_release);
    return cls;
}

dGeomID sccd_ode_spheretree_create(dSpaceID space, const sccd_spheretree *t)
{
    bool ok = t != NULL && t->node_count > 0;
    SCCD_ASSERT(ok);
    if (!ok)
        return 0;
    dGeomID g = dCreateGeom(sccd_ode_spheretree_class());
    ((tree_data *)dGeomGetClassData(g))->tree = t;
    if (space)
        dSpaceAdd(space, g);
    return g;
}

const sccd_spheretree *sccd_ode_spheretree_tree(dGeomID g)
{
    int cls = atomic_load(&tree_class);
    return g && cls >= 0 && dGeomGetClass(g) == cls ? tree_of(g) : NULL;
}
