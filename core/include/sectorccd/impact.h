/* sectorccd — one engine step of a set of moving bodies with their impacts
 * resolved in time order: time-of-impact sub-steps, the rotation-aware TOI
 * (toi.h), and an impulse at each impact. Candidates are the shape pairs
 * whose motion boxes (of the rotation's arcs) meet; they go straight to the
 * TOI. The sweep pre-filter of ccd.h is not used here: in every scene
 * measured (cp_overhead, ode_overhead, scene_fuzz) a sweep test cost more
 * than the TOIs it saved, since the TOI of a pair the boxes let through
 * mostly ends in a few steps (ode_overhead quick: above x1.26 with it,
 * x1.08 without; in the pile x18 and x5.5).
 *
 * The engine has already found the velocities of the step; it would move
 * every body by them (2D: p += v·dt, θ += ω·dt; a hinged body turns about
 * its hinge). sccd_impact2_solve moves the bodies instead, stopping at the
 * first time two of them (one a CCD body, or a body an impact has set
 * moving) come into contact while approaching. There it applies
 * the impulse of restitution and Coulomb friction between the two (masses
 * and inertias; a hinged body turns about its hinge; kinematic and static
 * bodies have infinite mass), calls the caller back, and goes on with the
 * new velocities from that time, up to SCCD_IMPACT_MAX_EVENTS impacts a
 * step and SCCD_IMPACT_BODY_EVENTS more for each CCD body. What is hit
 * leaves with the velocity the collision gives it, from the pose it was
 * hit in, and the rest of the step is not lost.
 *
 * The caller passes the CCD bodies and what their motions may reach. A
 * body an impact sets moving may reach more: the solver asks the gather
 * hook for it (sccd_impact_reach2) and goes on with the bodies appended, as
 * if they had been passed at the start. It asks once the instant of the
 * impact is over (once for a body however many impacts at that instant
 * change it, about its motion after the last), before any later event:
 * what an appended body meets at that instant is still taken there. What
 * an impact sent flying (a batted ball) can cross a thin wall in a later
 * step of the engine: the solve marks what it struck that moves fast
 * enough (`flying`), the caller passes those as `struck` in the next
 * step, and the solver tests them
 * from the start as in the step they were struck (the gather hook asked
 * what they may reach) against what does not move on its own and the CCD
 * bodies (Box2D's rule for bodies that are not bullets: ordinary bodies
 * are the engine's, until an impact of the step meets it), for as long as
 * they keep flying.
 *
 * Contacts that exist at the step start are the engine's: a pair already
 * overlapping is searched on cores shrunk below its overlap, so it only
 * counts as an impact when it approaches a skin (3 × options.overlap)
 * deeper than it started, never past a share of what the pair can shrink; a
 * pair too deep for its cores to separate is left to the engine (counted).
 * A body a kinematic body presses on (a bat pushing a ball along, the
 * contact held) is pushed: at its overlap limit it takes the contact's
 * impulse (restitution 0, friction, and what lifts it back to its limit
 * within a step), and the pair rests, unsearched, while it provably cannot
 * sink past half its slack beyond that limit; then it meets and is pushed
 * again, so it slides along the pusher's face as the physics says. The
 * hooks hear every impulse, the pushes' too (begin before, post after).
 * When the caps are reached, or a pair gives no impulse (two infinite
 * masses), the fallback never lets the bodies pass: a dynamic body stops
 * where it is (held), rides along with the kinematic body it met, or, the
 * lighter of two, joins the heavier by an inelastic impulse. Two that stop
 * a second time (jammed) both stop where they are: at rest, or, with a body
 * on a joint among them, as the inelastic impulse at their contact leaves
 * them. Past a guard on the events a step takes, what is left stops or
 * rides along for good.
 *
 * 3D: the same in sccd_impact3_solve (impact3.c), the twin of impact2.c. */
#ifndef SECTORCCD_IMPACT_H
#define SECTORCCD_IMPACT_H

#include <stddef.h>

#include "sectorccd/ccd.h"
#include "sectorccd/ccd_options.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most impacts and pushes resolved in one step, with SCCD_IMPACT_BODY_EVENTS more for each CCD body; later events stop the bodies (held or carried) instead.
#define SCCD_IMPACT_MAX_EVENTS 64
/// More impacts and pushes a step for each CCD body passed (the cap grows with them: one body's impacts do not use up another's).
#define SCCD_IMPACT_BODY_EVENTS 8
/// Most impacts between two bodies in one step, one more per push between them; then the lighter rides along with the other. Two meeting again at the instant of their last impulse, after another pair moved one of them, are jammed: that meeting is a stop at once.
#define SCCD_IMPACT_PAIR_EVENTS 4

/// How a body moves and takes impulses.
typedef enum sccd_body_kind {
    SCCD_BODY_STATIC,    ///< never moves, infinite mass
    SCCD_BODY_KINEMATIC, ///< moves by its velocity whatever it hits, infinite mass
    SCCD_BODY_DYNAMIC,   ///< moves by its velocity, changed by impulses
} sccd_body_kind;

/// A body of a 2D step: inputs (start state) and results.
typedef struct sccd_impact_body2 {
    sccd_body_kind kind;     ///< static, kinematic or dynamic
    bool ccd;                ///< swept against every body of the step (others are tested once an impact moves them)
    bool struck;             ///< tested from the start against static, kinematic and CCD bodies as a body an impact set moving (against ordinary bodies only once an impact of this step meets it; what the engine's contact catches left to it): pass it for a body the last solve left `flying`
    bool hinged;             ///< turns about `hinge`, a body point held still in the world (a joint to the ground)
    sccd_xf2 pose;           ///< origin pose at the step start
    sccd_real angle;         ///< its angle, unwrapped (keeps whole turns)
    sccd_v2 cog;             ///< centre of mass (body coordinates)
    sccd_v2 v;               ///< velocity of the centre of mass (world, per second)
    sccd_real w;             ///< angular velocity (rad/s, counter-clockwise)
    sccd_real inv_mass;      ///< 1 / mass (dynamic; 0: infinite)
    sccd_real inv_inertia;   ///< 1 / moment of inertia about the centre of mass (dynamic; 0: infinite)
    sccd_v2 hinge;           ///< the hinge (body coordinates; with `hinged`)
    sccd_v2 pivot;           ///< centre of the body's sweeps (body coordinates): a hand or the centre of mass (a hinged body uses its hinge)
    int first_shape;         ///< its shapes: shapes[first_shape .. first_shape + shape_count - 1]
    int shape_count;         ///< number of its shapes
    sccd_xf2 end_pose;       ///< result: origin pose at the step's end
    sccd_real end_angle;     ///< result: its unwrapped angle
    sccd_v2 end_v;           ///< result: velocity of the centre of mass
    sccd_real end_w;         ///< result: angular velocity
    sccd_aabb2 swept;        ///< result: a box holding every pose it took in the step (grown by options.overlap; empty after a failed solve), where it may have met what the caller did not pass
    int impacts;             ///< result: impacts it took part in (0: it moved freely, end = free motion)
    bool held;               ///< result: stopped short or carried by the fallback (see the top of the file)
    bool flying;             ///< result: a dynamic body, not a CCD body, that this solve struck (or that was passed `struck`) and that at its end velocity moves a point of a shape as far as that shape's half thickness in a step: a discrete step may carry it through a thin body (pass it `struck` next step)
} sccd_impact_body2;

/// A shape of a 2D step.
typedef struct sccd_impact_shape2 {
    sccd_shape2 geom;        ///< body coordinates
    int body;                ///< index of its body
    sccd_real elasticity;    ///< restitution, ≥ 0 (combined as the product of the pair's)
    sccd_real friction;      ///< Coulomb coefficient, ≥ 0 (combined as the product of the pair's)
} sccd_impact_shape2;

/// An impact as the callbacks see it (2D).
typedef struct sccd_impact_contact2 {
    int shape_a, shape_b;    ///< the shapes (indices); the normal points from a to b
    sccd_real t;             ///< time in the step, 0..1
    sccd_v2 point, normal;   ///< contact point (world) and unit normal
    sccd_real approach;      ///< approach speed along the normal before the impulse (> 0)
    sccd_real elasticity;    ///< restitution used (begin may change it, clamped to 0..1)
    sccd_real friction;      ///< friction used (begin may change it, ≥ 0)
    sccd_v2 impulse;         ///< impulse applied to b (−impulse to a); zero in begin
} sccd_impact_contact2;

/// What a body an event set moving (an impulse, a carry) may reach in the rest of the step (2D), as the gather hook is asked it.
typedef struct sccd_impact_reach2 {
    int body;                ///< the body (index)
    sccd_aabb2 box;          ///< a box holding every pose of its new motion, to the step's end
    sccd_real reach;         ///< how far its shapes' surfaces move in that motion: its translation plus the turn of their cores (a rounding turns in place), so how far it may close on anything
    sccd_real half;          ///< its thinnest shape's half thickness (sccd_shape2_half_thickness); INFINITY for a CCD body: it wants every shape in the box
    bool fixed_only;         ///< it flies (passed `struck`, no impact of this step yet): it wants only static and kinematic bodies' shapes, those it could cross (reach + their margin ≥ half + theirs)
} sccd_impact_reach2;

/// The solve's bodies and shapes, which the gather hook may extend: it appends bodies and their shapes (each new body's shapes after all the old ones) to its own arrays and sets the pointers and counts here (the arrays may move).
typedef struct sccd_impact_set2 {
    sccd_impact_body2 *bodies;           ///< the bodies (results are written here)
    int body_count;                      ///< how many
    const sccd_impact_shape2 *shapes;    ///< the shapes
    int shape_count;                     ///< how many
} sccd_impact_set2;

/// The caller's hooks; any may be NULL.
typedef struct sccd_impact_callbacks2 {
    bool (*collide)(void *user, int shape_a, int shape_b);            ///< whether the pair may collide at all, one answer for the whole solve (NULL: all pairs of different bodies with a dynamic one)
    bool (*begin)(void *user, sccd_impact_contact2 *contact);         ///< before the impulse; false: the pair passes freely for the rest of the step
    void (*post)(void *user, const sccd_impact_contact2 *contact);    ///< after the impulse
    bool (*gather)(void *user, const sccd_impact_reach2 *reach, sccd_impact_set2 *set); ///< a body set moving may reach what the solve lacks: append those bodies (whole; a static body's further shapes may come as a new static body); false: out of memory (the solve fails; set the pointers all the same if the arrays moved)
    void *user;                                                       ///< passed to each hook
} sccd_impact_callbacks2;

/// Counters of one solve (summed into the caller's).
typedef struct sccd_impact_stats {
    long pairs;      ///< body pairs searched (each time their motions changed)
    long candidates; ///< shape pairs searched (past the box test)
    long tois;       ///< TOI runs
    long impacts;    ///< impulses applied
    long held;       ///< fallback stops and carries
    long overlapped; ///< shape pairs too deep at the start to guard (left to the engine)
    long failed;     ///< TOI searches stopped at a safe time without contact (iteration caps)
    long gathers;    ///< gather hook calls
    long gathered;   ///< bodies the gather hook appended
} sccd_impact_stats;

/// Whether the solver leaves to the engine two shapes of half thicknesses ha and hb, neither a CCD body's, whose surfaces close by at most rate in the step (a discrete step cannot carry one through the other): rate < half the thinner; with one of them only flying (sccd_impact_reach2.fixed_only), rate < ha + hb. What a gather hook may leave out by.
bool sccd_impact_engine_catches(sccd_real rate, sccd_real ha, sccd_real hb, bool flying);

/// Reusable memory of the solver (zero-initialise; sccd_impact_scratch_free frees it).
typedef struct sccd_impact_scratch { void *bodies, *pairs, *shapes, *events, *trees, *queue; size_t body_bytes, pair_bytes, shape_bytes, event_bytes, tree_bytes, queue_bytes; } sccd_impact_scratch;

/// Move the bodies through one step of dt seconds with their impacts resolved (see the top of the file); writes every body's results (the bodies the gather hook appended too, in its arrays). options: the contact skin is options.overlap, the TOI tolerance, bands, round cap and candidates as in ccd_options.h. Bad input (NaN, negative masses, shapes not grouped by body, invalid options): SCCD_ASSERT, false, every body kept at its start pose at rest. No memory, or the gather hook failing: false, every body gets its free motion; a bad body among those it appends: SCCD_ASSERT, false, the bodies of that answer kept still, the others free.
bool sccd_impact2_solve(sccd_impact_body2 *bodies, int body_count, const sccd_impact_shape2 *shapes, int shape_count,
                        sccd_real dt, const sccd_ccd_options *options, const sccd_impact_callbacks2 *callbacks,
                        sccd_impact_scratch *scratch, sccd_impact_stats *stats);

/// The motion body b takes over a step of dt when nothing stops it, as sccd_impact2_solve moves it (a hinged body turns about its hinge, a free one about its pivot): the sweep a caller gathers what a CCD body may reach by. Bad input: SCCD_ASSERT, the identity pose standing still.
sccd_motion2 sccd_impact2_free_motion(const sccd_impact_body2 *b, sccd_real dt);

/// The box of every pose shape g (body coordinates) of body b takes in its free motion over dt, when b turns about its centre of mass (not hinged, its pivot that centre) and g is compact (its area at least ρ², ρ its farthest distance from that centre): the centre's path grown by ρ, about as tight as the motion box and a quarter of its cost. False otherwise (take the motion box of sccd_impact2_free_motion). Bad input: SCCD_ASSERT, false.
bool sccd_impact2_centre_box(const sccd_impact_body2 *b, const sccd_shape2 *g, sccd_real dt, sccd_aabb2 *box);

/// Free the scratch memory (the struct may be reused after).
void sccd_impact_scratch_free(sccd_impact_scratch *scratch);

/* ---- 3D: sccd_impact3_solve (impact3.c), the twin of the 2D solver ----
 * A free body moves its centre of mass by v·dt and turns by |ω|·dt about ω
 * (an engine turning otherwise passes the ω that reproduces its turn); a
 * jointed body turns about its ball joint's point, or about its hinge's axis
 * through the point by the part of ω along the axis. A shape is a convex
 * shape or the intersection of up to SCCD_IMPACT_BOUNDS of them (a cylinder:
 * its box ∩ its capsule; a triangle: sccd_impact_shape3_triangle), or, on a
 * static body, a half-space. */

/// Most convex bounds an impact shape is the intersection of.
#define SCCD_IMPACT_BOUNDS 3

/// How a 3D body is held to the world.
typedef enum sccd_joint_kind {
    SCCD_JOINT_NONE,  ///< free
    SCCD_JOINT_BALL,  ///< turns about `hinge`, a body point held still in the world
    SCCD_JOINT_HINGE, ///< turns about the axis `axis` through `hinge`, both held still in the world
} sccd_joint_kind;

/// A body of a 3D step: inputs (start state) and results.
typedef struct sccd_impact_body3 {
    sccd_body_kind kind;      ///< static, kinematic or dynamic
    bool ccd;                 ///< swept against every body of the step (others are tested once an impact moves them)
    bool struck;              ///< tested from the start against static, kinematic and CCD bodies as a body an impact set moving (against ordinary bodies only once an impact of this step meets it; what the engine's contact catches left to it): pass it for a body the last solve left `flying`
    sccd_joint_kind joint;    ///< free, ball joint or hinge to the world (dynamic bodies)
    sccd_xf3 pose;            ///< origin pose at the step start
    sccd_v3 cog;              ///< centre of mass (body coordinates)
    sccd_v3 v;                ///< velocity of the centre of mass (world, per second; ignored when jointed)
    sccd_v3 w;                ///< angular velocity (world, rad/s; a hinge keeps its part along the axis)
    sccd_real inv_mass;       ///< 1 / mass (dynamic; 0: infinite)
    sccd_real inv_inertia[9]; ///< inverse inertia tensor about the centre of mass, body frame, row-major, symmetric (dynamic; zeros: infinite)
    sccd_v3 hinge;            ///< the joint's point (body coordinates; with a joint)
    sccd_v3 axis;             ///< the hinge's axis (body coordinates, nonzero; with SCCD_JOINT_HINGE)
    sccd_v3 pivot;            ///< centre of the body's sweeps (body coordinates): a hand or the centre of mass (a jointed body uses its joint's point)
    int first_shape;          ///< its shapes: shapes[first_shape .. first_shape + shape_count - 1]
    int shape_count;          ///< number of its shapes
    sccd_xf3 end_pose;        ///< result: origin pose at the step's end
    sccd_v3 end_v;            ///< result: velocity of the centre of mass
    sccd_v3 end_w;            ///< result: angular velocity
    sccd_aabb3 swept;         ///< result: a box holding every pose it took in the step (grown by options.overlap; empty after a failed solve), where it may have met what the caller did not pass
    int impacts;              ///< result: impacts it took part in (0: it moved freely, end = free motion)
    bool held;                ///< result: stopped short or carried by the fallback (see the top of the file)
    bool flying;              ///< result: a dynamic body, not a CCD body, that this solve struck (or that was passed `struck`) and that at its end velocity moves a point of a shape as far as that shape's half thickness in a step: a discrete step may carry it through a thin body (pass it `struck` next step)
} sccd_impact_body3;

/// A shape of a 3D step: the intersection of its bounds, or a half-space.
typedef struct sccd_impact_shape3 {
    int bounds;                            ///< how many bounds make it (1..SCCD_IMPACT_BOUNDS), or 0: the half-space `plane` (static bodies only)
    sccd_shape3 bound[SCCD_IMPACT_BOUNDS]; ///< body coordinates; each holds the shape, bound[0] stands for it where one convex shape is needed
    sccd_plane plane;                      ///< with bounds 0: the solid n·x ≤ d (body coordinates)
    int body;                              ///< index of its body
    sccd_real elasticity;                  ///< restitution, ≥ 0 (combined as the product of the pair's)
    sccd_real friction;                    ///< Coulomb coefficient, ≥ 0 (combined as the product of the pair's)
} sccd_impact_shape3;

/// An impact as the callbacks see it (3D).
typedef struct sccd_impact_contact3 {
    int shape_a, shape_b;    ///< the shapes (indices); the normal points from a to b
    sccd_real t;             ///< time in the step, 0..1
    sccd_v3 point, normal;   ///< contact point (world) and unit normal
    sccd_real approach;      ///< approach speed along the normal before the impulse (> 0)
    sccd_real elasticity;    ///< restitution used (begin may change it, clamped to 0..1)
    sccd_real friction;      ///< friction used (begin may change it, ≥ 0)
    sccd_v3 impulse;         ///< impulse applied to b (−impulse to a); zero in begin
} sccd_impact_contact3;

/// What a body an event set moving may reach in the rest of the step (3D), as sccd_impact_reach2.
typedef struct sccd_impact_reach3 {
    int body;                ///< the body (index)
    sccd_aabb3 box;          ///< a box holding every pose of its new motion, to the step's end
    sccd_real reach;         ///< how far its shapes' surfaces move in that motion (as sccd_impact_reach2's)
    sccd_real half;          ///< its thinnest bound's half thickness (sccd_shape3_half_thickness); INFINITY for a CCD body
    bool fixed_only;         ///< it flies (as sccd_impact_reach2's): only static and kinematic bodies' shapes are wanted
} sccd_impact_reach3;

/// The solve's bodies and shapes, which the gather hook may extend, as sccd_impact_set2.
typedef struct sccd_impact_set3 {
    sccd_impact_body3 *bodies;           ///< the bodies (results are written here)
    int body_count;                      ///< how many
    const sccd_impact_shape3 *shapes;    ///< the shapes
    int shape_count;                     ///< how many
} sccd_impact_set3;

/// The caller's hooks (3D); any may be NULL.
typedef struct sccd_impact_callbacks3 {
    bool (*collide)(void *user, int shape_a, int shape_b);            ///< whether the pair may collide at all, one answer for the whole solve (NULL: all pairs of different bodies with a dynamic one)
    bool (*begin)(void *user, sccd_impact_contact3 *contact);         ///< before the impulse; false: the pair passes freely for the rest of the step
    void (*post)(void *user, const sccd_impact_contact3 *contact);    ///< after the impulse
    bool (*gather)(void *user, const sccd_impact_reach3 *reach, sccd_impact_set3 *set); ///< as in 2D: append the bodies the reach may meet that the solve lacks; false: out of memory
    void *user;                                                       ///< passed to each hook
} sccd_impact_callbacks3;

/// The shape of triangle tri (body coordinates): the intersection of its three edge-aligned rectangles (zero-thickness boxes), the smallest first; a degenerate triangle is the box of its points. Body and materials are zero: the caller sets them.
sccd_impact_shape3 sccd_impact_shape3_triangle(sccd_triangle tri);
/// The shape of solid cylinder c (body coordinates): its box ∩ its capsule. Body and materials are zero.
sccd_impact_shape3 sccd_impact_shape3_cylinder(sccd_cylinder c);

/// Move the bodies through one step of dt seconds with their impacts resolved, as sccd_impact2_solve (the same contract, options, fallback and results). Bad input (NaN, negative masses, an inertia not symmetric with a non-negative diagonal, a zero hinge axis, a half-space on a body that is not static, shapes not grouped by body, invalid options): SCCD_ASSERT, false, every body kept at its start pose at rest.
bool sccd_impact3_solve(sccd_impact_body3 *bodies, int body_count, const sccd_impact_shape3 *shapes, int shape_count,
                        sccd_real dt, const sccd_ccd_options *options, const sccd_impact_callbacks3 *callbacks,
                        sccd_impact_scratch *scratch, sccd_impact_stats *stats);

/// The motion body b takes over a step of dt when nothing stops it, as sccd_impact3_solve moves it (a jointed body about its joint): as sccd_impact2_free_motion. Bad input: SCCD_ASSERT, the identity pose standing still.
sccd_motion3 sccd_impact3_free_motion(const sccd_impact_body3 *b, sccd_real dt);

/// sccd_impact2_centre_box in 3D: the box of every pose shape s (its bounds, body coordinates) of body b takes in its free motion over dt, when b turns about its centre of mass (no joint, its pivot that centre) and s is compact (its volume at least (4/3)·ρ³); false otherwise and for a half-space. Bad input: SCCD_ASSERT, false.
bool sccd_impact3_centre_box(const sccd_impact_body3 *b, const sccd_impact_shape3 *s, sccd_real dt, sccd_aabb3 *box);

#ifdef __cplusplus
}
#endif

#endif
