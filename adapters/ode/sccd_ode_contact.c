/* ODE as the core's impact solver sees it (sccd_ode_internal.h): bodies
 * with their masses and joints to the world, geoms as shapes with their
 * materials, ODE's pair rules, and the game's impact function as the
 * solver's hooks. */
#include <string.h>

#include "sccd_ode_internal.h"

static sccd_xf3 geom_pose(dGeomID g)
{
    dQuaternion q;
    dGeomGetQuaternion(g, q);
    return (sccd_xf3){sccd_ode_v3(dGeomGetPosition(g)), sccd_ode_quat(q)};
}

/* ---- bodies and shapes ---- */

/* Masses: 1/m and the inverse inertia tensor (body frame; not positive
 * definite: infinite), in closed form: the adjugate over the determinant,
 * positive definite when the leading minors are (ODE's general inverse was
 * a third of the bodies' reading in a big world). */
static void set_mass(dBodyID b, sccd_impact_body3 *out)
{
    dMass m;
    dBodyGetMass(b, &m);
    out->inv_mass = m.mass > 0.0 ? 1.0 / m.mass : 0.0;
    const dReal *I = m.I; /* dMatrix3 rows are 4 wide */
    sccd_real a = I[0], d = I[5], f = I[10], bb = 0.5 * (I[1] + I[4]), c = 0.5 * (I[2] + I[8]), e = 0.5 * (I[6] + I[9]);
    sccd_real A = d * f - e * e, B = c * e - bb * f, C = bb * e - c * d, D = a * f - c * c, E = bb * c - a * e,
              F = a * d - bb * bb, det = a * A + bb * B + c * C;
    if (!(a > 0.0 && F > 0.0 && det > 0.0) || !sccd_is_valid_real(1.0 / det))
        return;
    sccd_real k = 1.0 / det, inv[9] = {A, B, C, B, D, E, C, E, F};
    for (int i = 0; i < 9; ++i)
        out->inv_inertia[i] = k * inv[i];
}

/* A hinge or ball joint to the world is the core's joint (its anchor and
 * axis in body coordinates, read at the pose now, where ODE's joint holds
 * them). A hinge motor or angular motor to the world with unbounded force
 * holds the turn: infinite inertia. */
static void find_joint(dBodyID b, sccd_impact_body3 *out)
{
    sccd_xf3 x1 = sccd_ode_body_pose(b);
    dVector3 p, a;
    for (int i = 0; i < dBodyGetNumJoints(b); ++i) {
        dJointID j = dBodyGetJoint(b, i);
        if (dJointGetBody(j, 0) != NULL && dJointGetBody(j, 1) != NULL)
            continue;
        int type = dJointGetType(j);
        bool held = (type == dJointTypeHinge && dJointGetHingeParam(j, dParamFMax) == dInfinity) ||
                    (type == dJointTypeAMotor && dJointGetAMotorParam(j, dParamFMax) == dInfinity);
        if (held)
            memset(out->inv_inertia, 0, sizeof out->inv_inertia);
        if (type == dJointTypeHinge) {
            dJointGetHingeAnchor(j, p);
            dJointGetHingeAxis(j, a);
            out->joint = SCCD_JOINT_HINGE;
            out->axis = sccd_quat_inv_apply(x1.q, sccd_ode_v3(a));
        } else if (type == dJointTypeBall && out->joint == SCCD_JOINT_NONE) {
            dJointGetBallAnchor(j, p);
            out->joint = SCCD_JOINT_BALL;
        } else {
            continue;
        }
        out->hinge = sccd_xf3_inv_apply(x1, sccd_ode_v3(p));
    }
}

/* Body b (NULL: the world, where static geoms lie) from pose x0 on; ccd: its
 * record, -1. Swept about its centre of mass (the pivot): the core moves
 * its sweep centre along a line, which only the centre of mass does in
 * ODE's integration, and its impulses take v as the centre of mass'. Made
 * in *out: a record returned, then copied into the solver's array, was
 * 0.4 % of the CCD of ccd_scale's ODE debris rain. */
void sccd_ode_solver_body(const sccd_ode_world *w, dBodyID b, sccd_xf3 x0, int ccd, sccd_impact_body3 *out)
{
    memset(out, 0, sizeof *out);
    out->kind = SCCD_BODY_STATIC;
    out->pose = sccd_xf3_identity();
    if (b == NULL)
        return;
    out->kind = dBodyIsKinematic(b) ? SCCD_BODY_KINEMATIC : SCCD_BODY_DYNAMIC;
    out->ccd = ccd >= 0 && w->bodies[ccd].active;
    out->pose = x0;
    sccd_ode_step_velocity(w, b, x0, &out->v, &out->w);
    if (out->kind == SCCD_BODY_DYNAMIC) {
        set_mass(b, out);
        find_joint(b, out);
    }
}

static sccd_v3 along_z(sccd_xf3 x, sccd_real z) { return sccd_xf3_apply(x, (sccd_v3){0.0, 0.0, z}); }

/* Geom g as the core's shape placed by x (its offset on a body, its pose
 * when static); capsules and cylinders lie along their local z. False for
 * classes the core does not take (meshes go triangle by triangle). */
bool sccd_ode_geom_shape(dGeomID g, sccd_xf3 x, sccd_impact_shape3 *out)
{
    dReal r, len;
    dVector3 l;
    memset(out, 0, sizeof *out);
    out->bounds = 1;
    switch (dGeomGetClass(g)) {
    case dSphereClass:
        out->bound[0] = (sccd_shape3){.type = SCCD_SHAPE_CIRCLE, .sphere = {x.p, dGeomSphereGetRadius(g)}};
        return true;
    case dBoxClass:
        dGeomBoxGetLengths(g, l);
        out->bound[0] = (sccd_shape3){.type = SCCD_SHAPE_BOX, .box = {x.p, x.q, sccd_v3_scale(sccd_ode_v3(l), 0.5)}};
        return true;
    case dCapsuleClass:
        dGeomCapsuleGetParams(g, &r, &len);
        out->bound[0] = (sccd_shape3){.type = SCCD_SHAPE_CAPSULE, .capsule = {along_z(x, -0.5 * len), along_z(x, 0.5 * len), r}};
        return true;
    case dCylinderClass:
        dGeomCylinderGetParams(g, &r, &len);
        *out = sccd_impact_shape3_cylinder((sccd_cylinder){along_z(x, -0.5 * len), along_z(x, 0.5 * len), r});
        return true;
    case dPlaneClass:
        out->bounds = 0;
        out->plane = sccd_ode_plane(g);
        return true;
    default:
        return false;
    }
}

/* Piece p as a solver shape, into *s: in its body's coordinates, with its material. */
void sccd_ode_piece_shape(const sccd_ode_world *w, const ode_piece *p, sccd_impact_shape3 *s)
{
    dGeomID g = w->geoms[p->geom].geom;
    if (p->triangle >= 0) {
        sccd_triangle t = sccd_ode_triangle(g, p->triangle);
        if (p->body != NULL) { /* back into the body's frame, from its pose now */
            sccd_xf3 x1 = sccd_ode_body_pose(p->body);
            t = (sccd_triangle){sccd_xf3_inv_apply(x1, t.a), sccd_xf3_inv_apply(x1, t.b), sccd_xf3_inv_apply(x1, t.c)};
        }
        *s = sccd_impact_shape3_triangle(t);
    } else {
        bool plane = dGeomGetClass(g) == dPlaneClass; /* not placeable */
        sccd_xf3 x = p->body != NULL ? sccd_ode_geom_offset(g) : plane ? sccd_xf3_identity() : geom_pose(g);
        sccd_ode_geom_shape(g, x, s);
    }
    const ode_material *m = sccd_ode_find_material(w, g);
    s->elasticity = m != NULL ? m->elasticity : SCCD_ODE_ELASTICITY_DEFAULT;
    s->friction = m != NULL ? m->friction : SCCD_ODE_FRICTION_DEFAULT;
}

/* ---- which pairs ODE would collide ---- */

static bool is_dynamic(dBodyID b) { return b != NULL && dBodyIsEnabled(b) && !dBodyIsKinematic(b); }

/* dSpaceCollide's rules (category and collide bits, one body) and the usual
 * near callback's: bodies joined by a non-contact joint do not collide; a
 * contact needs an enabled dynamic body on one side. */
static bool pair_collides(dGeomID a, dGeomID b)
{
    dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    if (ba == bb || !((dGeomGetCategoryBits(a) & dGeomGetCollideBits(b)) || (dGeomGetCategoryBits(b) & dGeomGetCollideBits(a))))
        return false;
    if (!is_dynamic(ba) && !is_dynamic(bb))
        return false;
    return ba == NULL || bb == NULL || !dAreConnectedExcluding(ba, bb, dJointTypeContact);
}

/* ---- the game hears the impacts ---- */

static dGeomID piece_geom(const sccd_ode_world *w, int shape) { return w->geoms[w->pieces[shape].geom].geom; }

static bool hook_collide(void *user, int sa, int sb)
{
    const sccd_ode_world *w = user;
    return pair_collides(piece_geom(w, sa), piece_geom(w, sb));
}

/* Call the game's impact function: ODE's contact convention (the normal
 * from o2 into o1, depth 0: they touch; side: a mesh's triangle, else -1)
 * and j, the impulse on o1's body. */
static int tell(const sccd_ode_world *w, const sccd_impact_contact3 *c, sccd_v3 j)
{
    dContactGeom g = {{c->point.x, c->point.y, c->point.z}, {-c->normal.x, -c->normal.y, -c->normal.z}, 0.0,
                      piece_geom(w, c->shape_a), piece_geom(w, c->shape_b), w->pieces[c->shape_a].triangle,
                      w->pieces[c->shape_b].triangle};
    dReal impulse[3] = {j.x, j.y, j.z};
    return w->impact_fn(w->impact_user, g.g1, g.g2, &g, impulse);
}

/* Before the impulse: the game's answer (0: the pair passes for this step). */
static bool hook_begin(void *user, sccd_impact_contact3 *c)
{
    const sccd_ode_world *w = user;
    return w->impact_fn == NULL || tell(w, c, (sccd_v3){0.0, 0.0, 0.0}) != 0;
}

/* After the impulse: the game hears it. */
static void hook_post(void *user, const sccd_impact_contact3 *c)
{
    const sccd_ode_world *w = user;
    if (w->impact_fn != NULL)
        tell(w, c, sccd_v3_neg(c->impulse));
}

sccd_impact_callbacks3 sccd_ode_callbacks(sccd_ode_world *w) { return (sccd_impact_callbacks3){hook_collide, hook_begin, hook_post, NULL, w}; }
