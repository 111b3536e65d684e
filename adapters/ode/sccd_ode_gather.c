/* The ODE adapter's gathering (sccd_ode_internal.h): which geoms, and
 * which triangles of a mesh, the CCD of a step (sccd_ode_ccd.c) hands to
 * the solver. Every geom's reach box holds where it may be this step: a
 * first box from its body's positions alone (prepare_geom), made exact for
 * the geoms a question meets (exact_reach: its box now and its box moved
 * back along its centre's move, grown by what its turn moved its points);
 * the CCD bodies' geoms come whole, with the box their free motion
 * covers, and what those boxes reach is gathered. A moving body comes
 * whole; a static mesh triangle by triangle. Later, the solver asks what a
 * body an impact set moving may reach (sccd_ode_gather_reach). A few
 * questions a step are answered by passes over the geoms' first boxes;
 * past that, the boxes are indexed, once a step (adapter_internal.h: the
 * sorted boxes). */
#include <limits.h>
#include <string.h>

#include "sccd_ode_internal.h"

static sccd_aabb3 aabb_grow(sccd_aabb3 b, sccd_real d)
{
    sccd_v3 g = {d, d, d};
    return (sccd_aabb3){sccd_v3_sub(b.lo, g), sccd_v3_add(b.hi, g)};
}

/* Whether the half-space n·x ≤ d reaches box b. */
static bool plane_reaches(sccd_plane p, sccd_aabb3 b)
{
    sccd_v3 c = sccd_v3_scale(sccd_v3_add(b.lo, b.hi), 0.5), h = sccd_v3_scale(sccd_v3_sub(b.hi, b.lo), 0.5);
    return sccd_v3_dot(p.n, c) - sccd_v3_dot(sccd_v3_abs(p.n), h) <= p.d;
}

/* How far a point of body b at distance rho from its centre of mass may be
 * from its end position relative to the centre, over the motion the core
 * gives it this step (from pose x0): 2ρ·sin(θ/2) for its turn θ (the angle
 * it has still to turn is at most θ). By default ODE turned it the short
 * way, and sin(θ/2) is the length of the vector part of q1·q0⁻¹; finite
 * rotation mode may turn it by π or more (sccd_ode_step_velocity): 2ρ
 * then. */
static sccd_real body_turn(const sccd_ode_world *w, dBodyID b, sccd_xf3 x0, sccd_xf3 x1, sccd_real rho)
{
    sccd_real half_turn_sin = 1.0;
    if (!dBodyGetFiniteRotationMode(b)) {
        sccd_quat d = sccd_quat_mul(x1.q, sccd_quat_conj(x0.q));
        half_turn_sin = sccd_min(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), 1.0);
    } else {
        sccd_v3 v, om;
        sccd_ode_step_velocity(w, b, x0, &v, &om);
        sccd_real turn = sccd_v3_len(om) * w->dt;
        half_turn_sin = turn < SCCD_PI ? sin(0.5 * turn) : 1.0;
    }
    return 2.0 * rho * half_turn_sin;
}

/* Where geom e may be this step, as a question that met its first box
 * tests it again (geom_usable makes it). A sphere about its body's centre
 * of mass (`centred`) keeps its first box (prepare_geom): its points lie
 * within its radius of its centre's segment all step long, whatever its
 * turn, which the box below would add (a pile's spheres, most of what the
 * questions meet, took ODE's box and a turn for a looser box); its points
 * move by the centre's move and the turn's chord. Any other: a point of
 * its body is at p1 − (1 − t)·d + (a turn of what it has still to turn)
 * at time t, for its end position p1 and the centre's move d: within
 * body_turn of the segment from p1 − d to p1, so the box now and the box
 * moved back by d, spanned and grown by that (ρ bounding a point's
 * distance from the centre of mass). A falling body's box
 * reaches along its fall, not sideways: a big pile's gathering and its
 * index both see fewer boxes. e->margin, how far a point moved, is |d|
 * plus the turn's. */
static void exact_reach(const sccd_ode_world *w, ode_geom *e)
{
    e->exact = true;
    if (!e->usable) { /* a mesh without data: ODE itself would crash making its box; it meets nothing */
        e->reach = sccd_adapter_empty_box();
        return;
    }
    if (e->centred) {
        sccd_xf3 x1 = sccd_ode_body_pose(e->body);
        e->margin = sccd_v3_dist(x1.p, e->body0.p) + body_turn(w, e->body, e->body0, x1, e->radius);
        return;
    }
    dReal a[6];
    dGeomGetAABB(e->geom, a);
    sccd_aabb3 box = {{a[0], a[2], a[4]}, {a[1], a[3], a[5]}};
    e->reach = box;
    if (e->body != NULL) {
        sccd_xf3 x1 = sccd_ode_body_pose(e->body);
        sccd_real rho = sccd_v3_dist(sccd_v3_scale(sccd_v3_add(box.lo, box.hi), 0.5), x1.p) + 0.5 * sccd_v3_dist(box.lo, box.hi);
        sccd_v3 d = sccd_v3_sub(x1.p, e->body0.p);
        sccd_real turn = body_turn(w, e->body, e->body0, x1, rho);
        sccd_v3 zero = {0.0, 0.0, 0.0}, g = {turn, turn, turn};
        e->reach = (sccd_aabb3){sccd_v3_sub(sccd_v3_sub(box.lo, sccd_v3_max(d, zero)), g), sccd_v3_add(sccd_v3_sub(box.hi, sccd_v3_min(d, zero)), g)};
        e->margin = sccd_v3_len(d) + turn;
    }
    e->usable = sccd_is_valid_aabb3(e->reach);
}

/* How far from its body's origin (ODE's centre of mass) any point of a geom
 * of class cls may be, in any pose: its class's bounding radius past its
 * offset; -1 for the classes without one here (meshes and the rest). */
static sccd_real body_radius(dGeomID g, int cls, bool *offset)
{
    dReal r, len;
    dVector3 l;
    *offset = dGeomIsOffset(g) != 0;
    sccd_real off = *offset ? sccd_v3_len(sccd_ode_v3(dGeomGetOffsetPosition(g))) : 0.0;
    switch (cls) {
    case dSphereClass:
        return off + dGeomSphereGetRadius(g);
    case dBoxClass:
        dGeomBoxGetLengths(g, l);
        return off + 0.5 * sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    case dCapsuleClass:
        dGeomCapsuleGetParams(g, &r, &len);
        return off + r + 0.5 * len;
    case dCylinderClass:
        dGeomCylinderGetParams(g, &r, &len);
        return off + sqrt(r * r + 0.25 * len * len);
    default:
        return -1.0;
    }
}

/* Every geom, once a step, before anything asks for it. A moving sphere,
 * box, capsule or cylinder gets a first reach from its body's positions
 * alone: in any pose its points lie within its bounding radius R of the
 * centre of mass, which ODE's step moved along the segment from p0 to p1
 * (as exact_reach has it), so the segment's box grown by R holds them all
 * step long. Looser than the exact reach, it decides only what the
 * questions look at: a geom they meet is refined (exact_reach) before it
 * is tested again and gathered. ODE's box, the turn and the margin are
 * then made for the geoms near a question, not for the whole world (with
 * rotors above ODE's pile of 1,000 bodies, a tenth of the CCD's
 * instructions went). Static geoms and meshes take the exact reach at
 * once. Planes and meshes are usable as they are; whether the core takes
 * another geom's shape is checked when it is first gathered (geom_usable). */
static void prepare_geom(const sccd_ode_world *w, ode_geom *e)
{
    int cls = dGeomGetClass(e->geom);
    e->plane = cls == dPlaneClass;
    e->reached = false;
    e->in_solve = false;
    e->marks = -1;
    e->checked = cls == dPlaneClass || cls == dTriMeshClass;
    e->half = cls == dPlaneClass ? INFINITY : 0.0; /* a mesh's triangles: no thickness */
    e->margin = 0.0;
    e->usable = cls == dPlaneClass || cls != dTriMeshClass || dGeomTriMeshGetTriMeshDataID(e->geom) != NULL;
    e->exact = cls == dPlaneClass;
    e->centred = false;
    if (e->exact)
        return;
    bool offset = true;
    sccd_real r = e->body != NULL ? body_radius(e->geom, cls, &offset) : -1.0;
    if (!(r >= 0.0)) {
        exact_reach(w, e);
        return;
    }
    e->radius = r;
    e->centred = cls == dSphereClass && !offset;
    sccd_v3 p0 = e->body0.p, p1 = sccd_ode_v3(dBodyGetPosition(e->body)), g = {r, r, r};
    e->reach = (sccd_aabb3){sccd_v3_sub(sccd_v3_min(p0, p1), g), sccd_v3_add(sccd_v3_max(p0, p1), g)};
    /* finite, in one test (a NaN or infinity in any term makes the sum
     * one; so does a sum past the largest double, far beyond any world) */
    e->usable = sccd_is_valid_real(e->reach.lo.x + e->reach.lo.y + e->reach.lo.z + e->reach.hi.x + e->reach.hi.y + e->reach.hi.z);
}

/* Whether the core takes geom e (its exact reach finite; a shape of a class
 * it has, with finite sizes), checked once a step; its reach and margin
 * are exact from then on. */
static bool geom_usable(const sccd_ode_world *w, ode_geom *e)
{
    if (!e->exact)
        exact_reach(w, e);
    if (!e->checked) {
        sccd_impact_shape3 s;
        e->checked = true;
        e->usable = e->usable && sccd_ode_geom_shape(e->geom, sccd_xf3_identity(), &s);
        e->half = INFINITY;
        for (int i = 0; e->usable && i < s.bounds; ++i) {
            e->usable = sccd_is_valid_shape3(&s.bound[i]);
            e->half = e->usable ? sccd_min(e->half, sccd_shape3_half_thickness(&s.bound[i])) : 0.0;
        }
    }
    return e->usable;
}

bool sccd_ode_add_piece(sccd_ode_world *w, int geom, int triangle)
{
    if (!sccd_adapter_reserve((void **)&w->pieces, &w->cappieces, w->npieces + 1, sizeof *w->pieces))
        return false;
    /* A static geom is a solver body of its own (a mesh's triangles one
     * body): a floor and its walls as one body would be searched shape pair
     * by shape pair with every body near any of them. */
    const ode_geom *e = &w->geoms[geom];
    w->pieces[w->npieces++] = (ode_piece){e->body, e->body != NULL ? e->key : INT_MIN + geom, geom, triangle};
    return true;
}

/* Room for mesh geom k's triangle marks (cleared), once a step. */
static bool mark_room(sccd_ode_world *w, ode_geom *e)
{
    if (e->marks >= 0)
        return true;
    int n = dGeomTriMeshGetTriangleCount(e->geom);
    if (!sccd_adapter_reserve((void **)&w->marks, &w->capmarks, w->nmarks + n, 1))
        return false;
    memset(w->marks + w->nmarks, 0, (size_t)n);
    e->marks = w->nmarks;
    w->nmarks += n;
    return true;
}

/* The triangles of static mesh geom k that may be in box this step, each
 * once. */
static bool gather_mesh(sccd_ode_world *w, int k, sccd_aabb3 box)
{
    ode_geom *e = &w->geoms[k];
    if (!mark_room(w, e))
        return false;
    int n = dGeomTriMeshGetTriangleCount(e->geom);
    for (int i = 0; i < n; ++i) {
        if (w->marks[e->marks + i])
            continue;
        sccd_triangle t = sccd_ode_triangle(e->geom, i);
        sccd_aabb3 tb = {sccd_v3_min(t.a, sccd_v3_min(t.b, t.c)), sccd_v3_max(t.a, sccd_v3_max(t.b, t.c))};
        if (!sccd_adapter_boxes_meet(aabb_grow(tb, e->margin), box))
            continue;
        if (!sccd_ode_add_piece(w, k, i))
            return false;
        w->marks[e->marks + i] = 1;
    }
    return true;
}

/* Geom k whole: every triangle of a mesh (one that cannot be used, e.g.
 * not finite, is counted and left out). */
static bool gather_whole(sccd_ode_world *w, int k)
{
    ode_geom *e = &w->geoms[k];
    bool mesh = dGeomGetClass(e->geom) == dTriMeshClass;
    if (mesh && sccd_ode_mesh_problem(e->geom) != NULL) {
        e->usable = false;
        ++w->cnt.unsupported;
        return true;
    }
    int n = mesh ? dGeomTriMeshGetTriangleCount(e->geom) : 1;
    for (int i = 0; i < n; ++i)
        if (!sccd_ode_add_piece(w, k, mesh ? i : -1))
            return false;
    e->in_solve = true;
    return true;
}

/* Whether geom e belongs to a body that does not move on its own (static:
 * no body; kinematic), what a flying body's questions want. */
static bool geom_fixed(const ode_geom *e) { return e->body == NULL || dBodyIsKinematic(e->body); }

/* A question of the step: its box and what it keeps (fixed_only: a flying
 * body's); `ahead` (fixed_near): only whether a geom it would keep is
 * there, `found`, nothing gathered. l: the listing answering it, if any;
 * region: the CCD body whose region it is, told whether a geom met it. */
typedef struct ode_question {
    sccd_ode_world *w;
    const ode_listing *l;
    sccd_aabb3 box;
    sccd_adapter_keep keep;
    bool ahead, found;
    ode_body *region;
} ode_question;

/* Geom k (a static mesh: its triangles in box), if its exact reach meets
 * box and keep keeps it
 * (sccd_adapter_keeps); a moving body comes whole (every geom the core
 * takes): the solver's body is all of it, and a geom found later could not
 * join it in the middle of a solve. Classes the core lacks are counted. */
static bool gather_geom(const ode_question *q, int k)
{
    sccd_ode_world *w = q->w;
    ode_geom *e = &w->geoms[k];
    bool usable = geom_usable(w, e);
    if (usable && !e->plane && !sccd_adapter_boxes_meet(e->reach, q->box))
        return true; /* its first reach met the box, its exact one does not */
    w->cnt.unsupported += !usable && !e->reached;
    e->reached = true;
    if (q->region != NULL)
        q->region->met |= usable;
    if (!usable || e->in_solve || !sccd_adapter_keeps(q->keep, e->margin, e->half, geom_fixed(e)))
        return true;
    if (e->body == NULL)
        return dGeomGetClass(e->geom) == dTriMeshClass ? gather_mesh(w, k, q->box) : gather_whole(w, k);
    for (int g = e->key; g >= 0; g = w->geoms[g].next)
        if (!w->geoms[g].in_solve && geom_usable(w, &w->geoms[g]) && !gather_whole(w, g))
            return false;
    return true;
}

/* Whether every bound of s is a valid core shape. */
static bool bounds_valid(const sccd_impact_shape3 *s)
{
    bool valid = true;
    for (int i = 0; valid && i < s->bounds; ++i)
        valid = sccd_is_valid_shape3(&s->bound[i]);
    return valid;
}

/* CCD body r's free motion in the core, made when first needed (a mesh's
 * region, a jointed body's). */
static sccd_motion3 ccd_motion(const sccd_ode_world *w, ode_body *r)
{
    if (!r->moved) {
        r->motion = sccd_impact3_free_motion(&r->solver, w->dt);
        r->moved = true;
    }
    return r->motion;
}

/* CCD body r's geom k: its pieces and *box, what its motion covers: 1; 0
 * when the core cannot use it (counted); -1 out of memory. Its reach,
 * margin and half thickness (geom_usable) are not made: no question looks
 * at an active CCD body's geoms (geom_asked), its region stands for them.
 * What geom_usable checked besides is checked here: its first reach finite
 * (prepare_geom), its shape one the core takes, each bound valid (a box of
 * ODE's about a finite pose, begin_body's, and finite sizes is finite, and
 * so is its exact reach).
 * The box: a compact geom of a body free of joints, the path of the
 * centre of mass it turns about grown (sccd_impact3_centre_box: a debris
 * cube, a few hundred instructions where its free motion and motion box
 * took 2,500); any other (a rotor, a blade or a rod turning about one
 * axis sweeps a flat disc; a jointed body turns about its joint, its
 * centre on an arc), the motion box of its free motion; a mesh's region,
 * its mesh's. */
static int gather_ccd_geom(sccd_ode_world *w, int k, ode_body *r, sccd_aabb3 *box)
{
    sccd_impact_shape3 s;
    ode_geom *e = &w->geoms[k];
    if (dGeomGetClass(e->geom) == dTriMeshClass)
        return sccd_ode_mesh_gather_ccd(w, k, ccd_motion(w, r), box);
    if (!e->usable || !sccd_ode_geom_shape(e->geom, sccd_ode_geom_offset(e->geom), &s) || !bounds_valid(&s)) {
        ++w->cnt.unsupported;
        return 0;
    }
    if (!sccd_impact3_centre_box(&r->solver, &s, w->dt, box))
        *box = sccd_shape3_motion_box(&s.bound[0], ccd_motion(w, r));
    return sccd_ode_add_piece(w, k, -1) ? 1 : -1;
}

/* The active CCD bodies' geoms (a mesh triangle by triangle; a class the
 * core lacks is counted) and the box each body's free motion covers, in one
 * pass over the geoms. */
static bool gather_ccd(sccd_ode_world *w)
{
    for (int i = 0; i < w->nbodies; ++i) {
        ode_body *r = &w->bodies[i];
        if (!r->active)
            continue;
        sccd_ode_solver_body(w, r->body, r->start, i, &r->solver);
        r->moved = false;
        r->usable = false;
        r->met = r->idle = r->left_out = false;
    }
    for (int k = 0; k < w->ngeoms; ++k) {
        const ode_geom *e = &w->geoms[k];
        if (e->ccd < 0 || !w->bodies[e->ccd].active)
            continue;
        ode_body *r = &w->bodies[e->ccd];
        sccd_aabb3 box;
        int got = gather_ccd_geom(w, k, r, &box);
        if (got < 0)
            return false;
        if (got == 0)
            continue;
        w->geoms[k].in_solve = true;
        r->first = e->key;
        r->region = r->usable ? sccd_aabb3_union(r->region, box) : box;
        r->usable = true;
    }
    return true;
}

static bool ask(ode_question *q);

/* Whether a static or kinematic geom near a flying body is one it could
 * cross (sccd_adapter_keeps): asked ahead, nothing gathered. */
static bool fixed_near(sccd_ode_world *w, sccd_aabb3 box, sccd_adapter_keep keep, bool *found)
{
    ode_question q = {w, NULL, box, keep, true, false, NULL};
    bool ok = ask(&q);
    *found = q.found;
    return ok;
}

/* A moving geom's margin and half thickness while its reach is the first
 * box (prepare_geom), from its class alone: its points move at most |d|
 * plus what its turn moves a point its bounding radius from the centre of
 * mass; the half thickness is a lower bound of the core's (sphere and
 * capsule: the radius; box: its least half length; cylinder: the radius or
 * half its length). Smaller, it only keeps a body flying and near longer.
 * Exact once refined (geom_usable). */
static bool flying_bounds(const sccd_ode_world *w, ode_geom *e, sccd_real *margin, sccd_real *half)
{
    if (e->exact) { /* its half thickness is known once checked */
        bool usable = geom_usable(w, e);
        *margin = e->margin;
        *half = e->half;
        return usable;
    }
    dReal r, len;
    dVector3 l;
    sccd_xf3 x1 = sccd_ode_body_pose(e->body);
    *margin = sccd_v3_dist(x1.p, e->body0.p) + body_turn(w, e->body, e->body0, x1, e->radius);
    switch (dGeomGetClass(e->geom)) {
    case dSphereClass:
        *half = dGeomSphereGetRadius(e->geom);
        break;
    case dBoxClass:
        dGeomBoxGetLengths(e->geom, l);
        *half = 0.5 * sccd_min(l[0], sccd_min(l[1], l[2]));
        break;
    case dCapsuleClass:
        dGeomCapsuleGetParams(e->geom, &r, &len);
        *half = r;
        break;
    default: /* a cylinder: prepare_geom gives the first box to these four classes only */
        dGeomCylinderGetParams(e->geom, &r, &len);
        *half = sccd_min(r, 0.5 * len);
        break;
    }
    return e->usable;
}

/* The bodies the last step left flying that are enabled in the space this
 * step (found by the scan, never read through the last step's handles)
 * and still fly (a point moved its half thickness: sccd_impact_engine_catches):
 * whole, the solver tests them as struck (it asks what they may reach),
 * when a static or kinematic geom they could cross is near; else they are
 * followed on without a solve (marked flying for the next step). Solved,
 * the 200 bodies a step flying about ODE's pile of rotors, which meet
 * nothing but the plane and the rotors (the rotors' own searches take
 * those), doubled the CCD's instructions. Both questions are asked of
 * their first reach boxes (flying_bounds): refined, those 200 bodies cost
 * a sixth of the CCD, and none of them was near a rotor. */
static bool gather_struck(sccd_ode_world *w)
{
    for (int s = 0; s < w->nstruck; ++s) {
        int k = w->struck[s]; /* its first geom in the scan */
        const ode_geom *e = &w->geoms[k];
        if (e->ccd >= 0 || !dBodyIsEnabled(e->body))
            continue;
        sccd_aabb3 box = sccd_adapter_empty_box();
        sccd_real reach = 0.0, half = INFINITY, m, h;
        for (int g = k; g >= 0; g = w->geoms[g].next)
            if (flying_bounds(w, &w->geoms[g], &m, &h)) {
                box = sccd_aabb3_union(box, w->geoms[g].reach);
                reach = sccd_max(reach, m);
                half = sccd_min(half, h);
            }
        if (sccd_impact_engine_catches(reach, half, 0.0, true))
            continue; /* landed */
        bool near;
        if (!fixed_near(w, box, (sccd_adapter_keep){reach, half, true}, &near))
            return false;
        if (!near) {
            if (sccd_adapter_map_add(&w->flying.next, e->body, 0) < 0)
                return false;
            continue;
        }
        ++w->cnt.struck;
        for (int g = k; g >= 0; g = w->geoms[g].next)
            if (!w->geoms[g].in_solve && geom_usable(w, &w->geoms[g]) && !gather_whole(w, g))
                return false;
    }
    return true;
}

/* Whether geom e is among what the questions look at: not an active CCD
 * body's (those come whole), usable as prepared, and for a flying body's
 * questions (`fixed`) static or kinematic. */
static inline bool geom_asked(const sccd_ode_world *w, const ode_geom *e, bool fixed)
{
    return !(e->ccd >= 0 && w->bodies[e->ccd].active) && e->usable && (!fixed || geom_fixed(e));
}

/* The geoms' reach boxes listed and sorted for the solver's questions (the
 * planes apart), once a step when the questions pay for it (ask).
 * `fixed`: the static and kinematic ones only, for a flying body's
 * questions (a pile's are empty: not one geom of a big world sorted for
 * them). */
static bool list_geoms(sccd_ode_world *w, bool fixed)
{
    ode_listing *l = fixed ? &w->fixed : &w->listed;
    if (l->done)
        return true;
    sccd_adapter_sorted_clear(&l->q);
    if (!fixed)
        w->nplanes = 0;
    for (int k = 0; k < w->ngeoms; ++k) {
        const ode_geom *e = &w->geoms[k];
        if (!geom_asked(w, e, fixed))
            continue;
        if (e->plane) {
            if (!fixed && !sccd_adapter_reserve((void **)&w->planes, &w->capplanes, w->nplanes + 1, sizeof *w->planes))
                return false;
            if (!fixed)
                w->planes[w->nplanes++] = k;
            continue;
        }
        int q = sccd_adapter_sorted_add(&l->q, e->reach);
        if (q < 0 || !sccd_adapter_reserve((void **)&l->geom, &l->cap, q + 1, sizeof *l->geom))
            return false;
        l->geom[q] = k;
    }
    l->done = true;
    return true;
}

/* Question q met geom k: gathered, or asked ahead, whether it is one to keep. */
static bool answer(ode_question *q, int k)
{
    if (!q->ahead)
        return gather_geom(q, k);
    ode_geom *e = &q->w->geoms[k];
    q->found |= geom_usable(q->w, e) && sccd_adapter_boxes_meet(e->reach, q->box) && sccd_adapter_keeps(q->keep, e->margin, e->half, true);
    return true;
}

static bool listed_met(int id, void *context)
{
    ode_question *q = context;
    return answer(q, q->l->geom[id]);
}

/* The n questions q (all of a flying body's or none) answered in one pass
 * over the geoms, each geom away from all of them passed at once. A box
 * not finite (a motion that overflowed) meets every geom; a flying body's
 * questions skip the planes (a half-space cannot be crossed:
 * sccd_impact_engine_catches). */
static bool pass_geoms(sccd_ode_world *w, ode_question *q, int n)
{
    bool fixed = n > 0 && q[0].keep.fixed_only;
    sccd_aabb3 all = sccd_adapter_empty_box();
    for (int i = 0; i < n; ++i) {
        if (!sccd_is_valid_aabb3(q[i].box))
            q[i].box = sccd_adapter_all_box();
        all = sccd_aabb3_union(all, q[i].box);
    }
    for (int k = 0; k < w->ngeoms; ++k) {
        const ode_geom *e = &w->geoms[k]; /* most are away from them all: that test first */
        if ((e->plane ? fixed : !sccd_adapter_boxes_meet(e->reach, all)) || !geom_asked(w, e, fixed))
            continue;
        for (int i = 0; i < n; ++i) {
            bool meets = e->plane ? plane_reaches(sccd_ode_plane(e->geom), q[i].box) : sccd_adapter_boxes_meet(e->reach, q[i].box);
            if (meets && !answer(&q[i], k))
                return false;
        }
    }
    return true;
}

/* Answer question q: by a pass over the geoms while this step's questions
 * do not pay for listing and sorting them (the rule of sccd_adapter_sorted_ask:
 * a pile on a plane asks about 10 a step, and listing its thousand geoms
 * for them cost 6 % of its CCD), then from the sorted listing, the planes
 * one by one. False when out of memory. */
static bool ask(ode_question *q)
{
    sccd_ode_world *w = q->w;
    bool fixed = q->keep.fixed_only;
    ode_listing *l = fixed ? &w->fixed : &w->listed;
    if (++l->asked <= SCCD_ADAPTER_SCANS && l->asked_before < SCCD_ADAPTER_SCANS && !l->done)
        return pass_geoms(w, q, 1);
    q->l = l;
    bool ok = list_geoms(w, fixed);
    for (int i = 0; ok && !fixed && i < w->nplanes; ++i)
        ok = !plane_reaches(sccd_ode_plane(w->geoms[w->planes[i]].geom), q->box) || answer(q, w->planes[i]);
    ok = ok && sccd_adapter_sorted_find(&l->q, q->box, listed_met, q);
    l->done &= ok; /* out of memory (maybe sorting them): listed anew at the next question */
    return ok;
}

bool sccd_ode_gather_reach(sccd_ode_world *w, sccd_aabb3 box, sccd_adapter_keep keep)
{
    ode_question q = {w, NULL, box, keep, false, false, NULL};
    return ask(&q);
}

static bool other_region_met(int id, void *context)
{
    int *own = context;
    if (id == *own)
        return true;
    *own = -1; /* found: the match stops */
    return false;
}

/* Whether CCD body r may be idle: its region met no geom (its question's
 * answer), nor another CCD body's region, and the solver moves it as ODE
 * did (not jointed: the solver turns a jointed body about its joint). */
static bool may_idle(sccd_ode_world *w, const ode_body *r)
{
    int own = r->query;
    if (r->met || r->solver.joint != SCCD_JOINT_NONE)
        return false;
    sccd_adapter_queries_match(&w->regions, sccd_adapter_queries_box(&w->regions, own), other_region_met, &own);
    return own >= 0;
}

/* The CCD bodies whose regions meet nothing at the step's start are left
 * out of the solve (idle), their pieces dropped: ODE's integration is their
 * end, as the solver's free motion would be (to rounding). Never a miss:
 * a region holds its body's every pose this step, grown by twice the
 * overlap, and every other geom's reach holds that geom's poses (another
 * CCD body's, its region) while no impact moves it, so no shape of the
 * body comes near another's until an impact sets one moving; the solver
 * then asks what that body may reach (gather_hook), and an idle body whose
 * region the question's box meets joins the solve (sccd_ode_join_idle)
 * before the solver searches that body's pairs. In ccd_scale's ODE
 * 1,000 + 100 rain, 45 % of the debris' regions meet nothing. */
static bool leave_idle(sccd_ode_world *w)
{
    for (int i = 0; i < w->nbodies; ++i) {
        ode_body *r = &w->bodies[i];
        r->idle = r->left_out = r->active && r->usable && may_idle(w, r);
        w->nidle += r->idle;
    }
    if (w->nidle == 0)
        return true;
    int kept = 0;
    for (int i = 0; i < w->npieces; ++i) {
        const ode_geom *e = &w->geoms[w->pieces[i].geom];
        if (e->ccd < 0 || !w->bodies[e->ccd].idle)
            w->pieces[kept++] = w->pieces[i];
    }
    w->npieces = kept;
    return true;
}

/* Its geoms the core takes (in_solve since gather_ccd) come whole, as they
 * came before it was left out. */
bool sccd_ode_join_idle(sccd_ode_world *w, ode_body *r)
{
    r->idle = false;
    --w->nidle;
    for (int g = r->first; g >= 0; g = w->geoms[g].next)
        if (w->geoms[g].in_solve && !gather_whole(w, g))
            return false;
    return true;
}

/* Every geom prepared, then the CCD bodies' geoms and what the boxes of
 * their free motions reach: a few boxes in one pass over the geoms, more
 * as the solver's questions are answered. */
bool sccd_ode_gather_all(sccd_ode_world *w)
{
    w->npieces = 0;
    w->nmarks = 0;
    for (int i = 0; i < 2; ++i) {
        ode_listing *l = i == 0 ? &w->listed : &w->fixed;
        l->done = false;
        l->asked_before = l->asked;
        l->asked = 0;
    }
    sccd_adapter_queries_clear(&w->regions);
    w->nidle = 0;
    for (int k = 0; k < w->ngeoms; ++k)
        prepare_geom(w, &w->geoms[k]);
    if (!gather_ccd(w) || !gather_struck(w))
        return false;
    ode_question few[SCCD_ADAPTER_SCAN_BOXES];
    int n = 0;
    for (int i = 0; i < w->nbodies; ++i) {
        ode_body *r = &w->bodies[i];
        if (!r->active || !r->usable)
            continue;
        ode_question q = {w, NULL, aabb_grow(r->region, 2.0 * w->opt.overlap), {0.0, INFINITY}, false, false, r};
        r->query = sccd_adapter_queries_add(&w->regions, q.box);
        if (r->query < 0 ||
            !sccd_adapter_reserve((void **)&w->region_body, &w->capregion, r->query + 1, sizeof *w->region_body))
            return false;
        w->region_body[r->query] = i;
        if (n < SCCD_ADAPTER_SCAN_BOXES)
            few[n++] = q;
        else if (!ask(&q))
            return false;
    }
    bool ok = w->listed.done || pass_geoms(w, few, n);
    for (int i = 0; ok && w->listed.done && i < n; ++i)
        ok = ask(&few[i]);
    return ok && leave_idle(w);
}
