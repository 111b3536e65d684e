// fidelity: what is hit leaves as the physics says.
//
// Stopping a pass-through is half of CCD; the other half is that the body hit
// leaves with the velocity the impact gives it. Five scenes, gravity 0,
// restitution 0.5 (bat_inelastic: 0) and friction 0.3 on every contact:
//   bat_still    a kinematic bat (1 x 0.06) turning about its end hits a still ball (r 0.05, mass 1)
//   bat_inelastic  the same with restitution 0 (Chipmunk's default): the bat pushes the ball along
//   bat_pitched  the same bat meets a ball pitched at it at 10 m/s
//   rod_wall     a rod (2 x 0.04, mass 1) hinged at its end, spinning free, hits a thin static wall
//   blade_box    a blade (1 x 0.04, mass 4) hinged at its middle, spinning free, hits a free box (0.1, mass 1)
// each in Chipmunk 7 with sectorccd at 60 Hz, in plain Chipmunk at 60 Hz, in
// Box2D 2.4 (its TOI) at 60 Hz, and the same in 3D in ODE 0.16 with sectorccd
// and plain. The physics it should match: the same engine without CCD at
// 60·N Hz, N doubling until two successive N agree within 0.2 %.
//
// Every scene is built so the continuous motion does not depend on the phase:
// the start is shifted back along the motion (the mover's angle, the pitched
// ball's path), so the same impact happens at 16 fractions of a 60 Hz step.
// One reference per scene x engine x speed therefore serves all phases; its
// spread over the phases is reported.
//
//   fidelity [--quick] [--check] [--out DIR]  -> DIR/fidelity.csv, DIR/fidelity.md
// (bench/fidelity.gp plots the CSV as docs/img/fidelity.png). Exit 1 when a
// reference did not converge or a run went non-finite; with --check also when
// a row misses the targets.
#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <chipmunk/chipmunk.h> // both have their own C++ parts: outside extern "C"
#include <ode/ode.h>
extern "C" {
#include "sectorccd_chipmunk.h"
#include "ode_scenes.h"
#include "cp_support.h"
#include "timing.h"
#include "bench_util.h"
}

namespace {

const double kDt = 1.0 / 60.0;
const double kPi = SCCD_PI;
const double kRestitution = 0.5, kFriction = 0.3;
const double kAgree = 0.002;  // successive references agree within 0.2 %
const int kMaxSubsteps = 16384; // reference cap: 983,040 Hz
// Phases are evenly spaced from this offset: not a dyadic fraction, so no
// impact falls on the sub-step grid of every reference.
const double kPhaseOffset = 0.381966;
const int kRefPhases = 8;
const int kFramesAfter = 30;   // frames after the impact frame allowed for getting clear
const double kFollow = 1.0;    // the bat stops once it has turned this far past the impact (rad)

// ODE's sub-stepped runs of a bat pushing a ball with restitution 0 did not
// agree within kAgree by kMaxSubsteps at any speed but 5 rad/s (measured):
// its contacts are soft (ERP and CFM act per step), so a push that lasts
// many sub-steps depends on their length. That scene runs in Chipmunk and
// Box2D only.
const char *const kOdeInelastic = " ODE does not run *bat_inelastic*: its sub-stepped runs of the sustained push "
                                  "did not converge (its contacts are soft, ERP and CFM acting per step). In "
                                  "*bat_inelastic* the bat pushes: it does work on the ball, so ΔKE (against an "
                                  "impact's bound) may grow with the physics, and *passed* counts a ball that ends "
                                  "behind the face's line at the impact, as one that slid off the bat's end may, not a "
                                  "ball the bat went through. The CCD follows the push in impulses (a push, then the "
                                  "pair rests while it provably cannot sink far past its overlap limit).";

// Targets of the issue.
const double kMedianTarget = 0.05, kWorstTarget = 0.15, kEnergyTarget = 0.01;

// Geometry, metres and kilograms, the same in every engine.
const double kBatLen = 1.0, kBatHalf = 0.03;
const double kBallR = 0.05, kBallX = 0.75, kBallY = kBatHalf + kBallR, kPitch = 10.0;
const double kRodLen = 2.0, kRodHalf = 0.02, kWallIn = 1.5, kWallOut = 2.5, kWallHalf = 0.01;
const double kBladeLen = 1.0, kBladeHalf = 0.02, kBladeMass = 4.0;
const double kBoxHalf = 0.05, kBoxTilt = kPi / 6, kBoxX = 0.4; // a corner of the box touches the blade at kBoxX
const double kDepth = 0.06; // 3D thickness of bat, rod and blade (ODE)

enum Scene { BAT_STILL, BAT_INELASTIC, BAT_PITCHED, ROD_WALL, BLADE_BOX, SCENES };
const char *const kSceneName[SCENES] = {"bat_still", "bat_inelastic", "bat_pitched", "rod_wall", "blade_box"};
const char *const kSceneTitle[SCENES] = {"kinematic bat vs still ball", "kinematic bat vs still ball, restitution 0",
                                         "kinematic bat vs pitched ball", "hinged rod into a thin wall",
                                         "hinged blade vs free box"};
const char *const kExitName[SCENES] = {"ball velocity", "ball velocity", "ball velocity", "rod spin",
                                       "box v, box spin, blade spin"};

// The scene's restitution: a bat pushing a ball it does not bounce off
// (restitution 0, Chipmunk's default) keeps it in contact and slides it.
double restitution(Scene s) { return s == BAT_INELASTIC ? 0.0 : kRestitution; }

// How a run treats fast motion.
enum Mode { CCD, PLAIN, SUBSTEP };

bool is_bat(Scene s) { return s == BAT_STILL || s == BAT_INELASTIC || s == BAT_PITCHED; }
double sq(double x) { return x * x; }
double wrap(double a) { return std::remainder(a, 2.0 * kPi); }

// ---- the scene, independent of the engine ----

// One run's plan: the impact falls `hit_frame` whole frames plus a fraction
// into the run, with the mover at `hit_angle`.
struct Spec {
    Scene scene;
    double speed;     // rad/s asked
    double hit_angle; // the mover's angle at the impact (depends on the wall's end: round or square)
    double t_hit;     // s from the start
    int hit_frame;
    bool target = true; // false: the mover alone (Box2D's real speed)
};

// Largest turn before the impact that keeps it the first contact: the bat
// must not sweep the ball's place (the pitched ball stays in the first
// quadrant), the rod not the wall's back, the blade's other arm not the box.
double max_turn_before(Scene s)
{
    switch (s) {
    case BAT_STILL:
    case BAT_INELASTIC: return 2.0 * kPi - 0.2;
    case BAT_PITCHED: return 1.5 * kPi;
    case ROD_WALL: return 2.0 * kPi - 0.2;
    default: return kPi - 0.5;
    }
}

// Fraction of a step the phases spread over: all of it unless one step's
// turn exceeds max_turn_before (a bat at 400 rad/s turns 6.7 rad a step).
double phase_span(Scene s, double speed) { return std::fmin(1.0, max_turn_before(s) / (speed * kDt)); }

// Angle at which the rod's leading face (offset kRodHalf) touches the wall's
// inner end: a round end (a segment's cap) or a square one (a box's corner).
double rod_hit_angle(bool square_end)
{
    double h = kRodHalf + (square_end ? 0.0 : kWallHalf), c = square_end ? kWallHalf : 0.0;
    return std::asin(-h / std::hypot(kWallIn, c)) - std::atan2(c, kWallIn);
}

Spec make_spec(Scene s, double speed, double fraction, bool square_wall_end)
{
    double span = phase_span(s, speed);
    int before = (int)std::floor(max_turn_before(s) / (speed * kDt) - span);
    Spec p;
    p.scene = s;
    p.speed = speed;
    p.hit_angle = s == ROD_WALL ? rod_hit_angle(square_wall_end) : 0.0;
    p.hit_frame = std::clamp(before, 0, 2);
    p.t_hit = (p.hit_frame + fraction) * kDt;
    return p;
}

// Planar state of a body: its origin (the bat's pivot, else the centre of
// mass), unwrapped angle and velocities.
struct State { double x = 0, y = 0, a = 0, vx = 0, vy = 0, w = 0; };

State mover_start(const Spec &p)
{
    State m;
    m.a = p.hit_angle - p.speed * p.t_hit;
    m.w = p.speed;
    if (p.scene == ROD_WALL) { // centre of mass half a rod out, moving with the spin
        double r = 0.5 * kRodLen;
        m.x = r * std::cos(m.a);
        m.y = r * std::sin(m.a);
        m.vx = -p.speed * m.y;
        m.vy = p.speed * m.x;
    }
    return m;
}

// Where the box's centre goes so its lowest corner touches the blade's face
// at kBoxX; `skin` is Box2D's polygon radius (a box shrunk by it, rounded by it).
State box_start(double skin)
{
    double s = kBoxHalf - skin, c = std::cos(kBoxTilt), n = std::sin(kBoxTilt);
    State b;
    b.x = kBoxX - (-s * c + s * n);
    b.y = kBladeHalf - (-s * n - s * c) + skin;
    b.a = kBoxTilt;
    return b;
}

// The ball sits at the impact point, or that far up its path before it.
State ball_start(const Spec &p)
{
    State b;
    b.x = kBallX;
    b.y = kBallY;
    if (p.scene == BAT_PITCHED) {
        b.y += kPitch * p.t_hit;
        b.vy = -kPitch;
    }
    return b;
}

double moment_box(double m, double w, double h) { return m * (w * w + h * h) / 12.0; }
const double kBallI = 0.4 * sq(kBallR); // a solid ball (ODE); Chipmunk and Box2D are given the same
const double kRodI = moment_box(1.0, kRodLen, 2 * kRodHalf);
const double kBladeI = moment_box(kBladeMass, kBladeLen, 2 * kBladeHalf);
const double kBoxI = moment_box(1.0, 2 * kBoxHalf, 2 * kBoxHalf);

// ---- the engines ----

// One world of one scene, stepped a 60 Hz frame at a time.
class Sim {
public:
    virtual ~Sim() = default;
    virtual void frame() = 0;
    virtual State mover() const = 0;
    virtual State target() const = 0;
    virtual void stop_mover() = 0; // the kinematic bat's swing ends
};

// Chipmunk mixes elasticity and friction by product: each shape gets the root.
void cp_material(cpShape *s, double e)
{
    cpShapeSetElasticity(s, std::sqrt(e));
    cpShapeSetFriction(s, std::sqrt(kFriction));
}

class CpSim : public Sim {
public:
    CpSim(const Spec &p, Mode mode, int substeps) : substeps_(substeps), e_(restitution(p.scene))
    {
        space_ = cpSpaceNew();
        cpSpaceSetIterations(space_, 20);
        cpSpaceSetCollisionSlop(space_, 0.001); // Chipmunk's 0.1 is for pixels; these are metres
        cpBody *ground = cpSpaceGetStaticBody(space_);
        State m = mover_start(p);
        switch (p.scene) {
        case BAT_STILL:
        case BAT_INELASTIC:
        case BAT_PITCHED:
            mover_ = cpSpaceAddBody(space_, cpBodyNewKinematic());
            add(cpBoxShapeNew2(mover_, cpBBNew(0, -kBatHalf, kBatLen, kBatHalf), 0));
            if (p.target)
                target_ = add_ball(ball_start(p));
            break;
        case ROD_WALL:
            mover_ = cpSpaceAddBody(space_, cpBodyNew(1.0, kRodI));
            add(cpBoxShapeNew(mover_, kRodLen, 2 * kRodHalf, 0));
            cpSpaceAddConstraint(space_, cpPivotJointNew2(ground, mover_, cpvzero, cpv(-0.5 * kRodLen, 0)));
            if (p.target)
                add(cpSegmentShapeNew(ground, cpv(kWallIn, 0), cpv(kWallOut, 0), kWallHalf));
            break;
        default:
            mover_ = cpSpaceAddBody(space_, cpBodyNew(kBladeMass, kBladeI));
            add(cpBoxShapeNew(mover_, kBladeLen, 2 * kBladeHalf, 0));
            cpSpaceAddConstraint(space_, cpPivotJointNew2(ground, mover_, cpvzero, cpvzero));
            if (p.target)
                target_ = add_box(box_start(0.0));
        }
        set(mover_, m);
        if (mode == CCD) {
            ccd_ = sccd_cp_attach(space_);
            sccd_cp_body_enable(ccd_, mover_);
            sccd_cp_body_set_pivot(ccd_, mover_, p.scene == ROD_WALL ? cpv(-0.5 * kRodLen, 0) : cpvzero);
        }
    }
    ~CpSim() override
    {
        sccd_cp_detach(ccd_);
        sccd_cp_space_free_all(space_);
    }
    void frame() override
    {
        for (int i = 0; i < substeps_; ++i)
            cpSpaceStep(space_, kDt / substeps_);
    }
    State mover() const override { return get(mover_); }
    State target() const override { return target_ ? get(target_) : State(); }
    void stop_mover() override { cpBodySetAngularVelocity(mover_, 0.0); }

private:
    void add(cpShape *s) { cp_material(cpSpaceAddShape(space_, s), e_); }
    cpBody *add_ball(const State &s)
    {
        cpBody *b = cpSpaceAddBody(space_, cpBodyNew(1.0, kBallI));
        add(cpCircleShapeNew(b, kBallR, cpvzero));
        set(b, s);
        return b;
    }
    cpBody *add_box(const State &s)
    {
        cpBody *b = cpSpaceAddBody(space_, cpBodyNew(1.0, kBoxI));
        add(cpBoxShapeNew(b, 2 * kBoxHalf, 2 * kBoxHalf, 0));
        set(b, s);
        return b;
    }
    static void set(cpBody *b, const State &s)
    {
        cpBodySetPosition(b, cpv(s.x, s.y));
        cpBodySetAngle(b, s.a);
        cpBodySetVelocity(b, cpv(s.vx, s.vy));
        cpBodySetAngularVelocity(b, s.w);
    }
    static State get(cpBody *b) // Chipmunk's angle is not wrapped
    {
        cpVect x = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
        return {x.x, x.y, cpBodyGetAngle(b), v.x, v.y, cpBodyGetAngularVelocity(b)};
    }

    cpSpace *space_;
    cpBody *mover_ = nullptr, *target_ = nullptr;
    sccd_cp_world *ccd_ = nullptr;
    int substeps_;
    double e_;
};

// ODE: ode_scenes' world (CCD attach, quiet messages, sub-steps), stepped
// here with this bench's contact surface instead of the scenes' own.
struct OdeContacts { ode_world *w; double bounce; };

void ode_contacts(void *data, dGeomID g1, dGeomID g2)
{
    const OdeContacts *oc = static_cast<const OdeContacts *>(data);
    ode_world *w = oc->w;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact))
        return;
    dContact c[4];
    std::memset(c, 0, sizeof c);
    int n = dCollide(g1, g2, 4, &c[0].geom, sizeof c[0]);
    for (int i = 0; i < n; ++i) {
        // Approx1: mu is a Coulomb coefficient (× the normal force), as in the
        // CCD and the other engines; without it ODE takes mu as a force limit
        // (0.3 N: next to no friction in an impact).
        c[i].surface.mode = dContactBounce | dContactApprox1;
        c[i].surface.mu = kFriction;
        c[i].surface.bounce = oc->bounce;
        c[i].surface.bounce_vel = 0.0; // bounce at any speed, as Chipmunk does
        dJointAttach(dJointCreateContact(w->world, w->contacts, &c[i]), b1, b2);
    }
}

double ode_angle_z(dBodyID b)
{
    const dReal *r = dBodyGetRotation(b);
    return std::atan2(r[4], r[0]);
}

void ode_set(dBodyID b, const State &s)
{
    dMatrix3 r;
    dRFromAxisAndAngle(r, 0, 0, 1, s.a);
    dBodySetRotation(b, r);
    dBodySetPosition(b, s.x, s.y, 0);
    dBodySetLinearVel(b, s.vx, s.vy, 0);
    dBodySetAngularVel(b, 0, 0, s.w);
}

class OdeSim : public Sim {
public:
    OdeSim(const Spec &p, Mode mode, int substeps)
        : contacts_{&w_, restitution(p.scene)}, hit_frame_(p.hit_frame), hit_fraction_(p.t_hit / kDt - p.hit_frame)
    {
        ode_world_init(&w_, mode == CCD ? ODE_CCD_SECTOR : mode == SUBSTEP ? ODE_CCD_SUBSTEP : ODE_CCD_OFF, substeps,
                       0.0);
        State m = mover_start(p);
        mover_ = dBodyCreate(w_.world);
        dMass mass;
        switch (p.scene) {
        case BAT_STILL:
        case BAT_INELASTIC:
        case BAT_PITCHED: {
            dBodySetKinematic(mover_);
            dGeomID g = dCreateBox(w_.space, kBatLen, 2 * kBatHalf, kDepth);
            dGeomSetBody(g, mover_);
            dGeomSetOffsetPosition(g, 0.5 * kBatLen, 0, 0); // the body's origin is the pivot
            if (p.target) {
                target_ = body(dCreateSphere(w_.space, kBallR));
                dMassSetSphereTotal(&mass, 1.0, kBallR);
                dBodySetMass(target_, &mass);
                ode_set(target_, ball_start(p));
            }
            break;
        }
        case ROD_WALL:
            dGeomSetBody(dCreateBox(w_.space, kRodLen, 2 * kRodHalf, kDepth), mover_);
            dMassSetBoxTotal(&mass, 1.0, kRodLen, 2 * kRodHalf, kDepth);
            dBodySetMass(mover_, &mass);
            ode_set(mover_, m); // before the hinge: its anchor is taken in the body's pose
            hinge(0, 0);
            if (p.target) { // a thin box: its end is square (rod_hit_angle(true))
                dGeomID wall = dCreateBox(w_.space, kWallOut - kWallIn, 2 * kWallHalf, 0.5);
                dGeomSetPosition(wall, 0.5 * (kWallIn + kWallOut), 0, 0);
            }
            break;
        default:
            dGeomSetBody(dCreateBox(w_.space, kBladeLen, 2 * kBladeHalf, kDepth), mover_);
            dMassSetBoxTotal(&mass, kBladeMass, kBladeLen, 2 * kBladeHalf, kDepth);
            dBodySetMass(mover_, &mass);
            hinge(0, 0);
            if (p.target) {
                target_ = body(dCreateBox(w_.space, 2 * kBoxHalf, 2 * kBoxHalf, 2 * kBoxHalf));
                dMassSetBoxTotal(&mass, 1.0, 2 * kBoxHalf, 2 * kBoxHalf, 2 * kBoxHalf);
                dBodySetMass(target_, &mass);
                ode_set(target_, box_start(0.0));
            }
        }
        ode_set(mover_, m);
        dBodySetFiniteRotationMode(mover_, 1); // turns by exactly ω·dt, not 2·atan(ω·dt/2)
        angle_ = m.a;
        seen_ = ode_angle_z(mover_);
        ode_world_ccd_body(&w_, mover_, p.scene == ROD_WALL ? -0.5 * kRodLen : 0.0, 0, 0);
        if (w_.ccd != nullptr) // ODE keeps materials in the near callback: tell the CCD the same ones (product rule)
            for (int i = 0; i < dSpaceGetNumGeoms(w_.space); ++i)
                sccd_ode_geom_set_material(w_.ccd, dSpaceGetGeom(w_.space, i), std::sqrt(contacts_.bounce), std::sqrt(kFriction));
    }
    ~OdeSim() override { ode_world_free(&w_); }
    void frame() override
    {
        double w0 = dBodyGetAngularVel(mover_)[2];
        if (w_.ccd) {
            sccd_ode_set_step_length(w_.ccd, w_.dt);
            sccd_ode_before_step(w_.ccd);
        }
        int n = w_.mode == ODE_CCD_SUBSTEP ? w_.substeps : 1;
        for (int i = 0; i < n; ++i) {
            dSpaceCollide(w_.space, &contacts_, ode_contacts);
            dWorldStep(w_.world, w_.dt / n);
            dJointGroupEmpty(w_.contacts);
            if (!w_.ccd)
                unwrap(dBodyGetAngularVel(mover_)[2] * w_.dt / n);
        }
        if (w_.ccd) { // the impact frame turns at ω before the impact's phase, after it since
            sccd_ode_after_step(w_.ccd);
            double w1 = dBodyGetAngularVel(mover_)[2], f = frame_ < hit_frame_ ? 1.0 : frame_ == hit_frame_ ? hit_fraction_ : 0.0;
            unwrap((f * w0 + (1.0 - f) * w1) * w_.dt);
        }
        ++frame_;
    }
    State mover() const override { return get(mover_, angle_); }
    State target() const override { return target_ ? get(target_, ode_angle_z(target_)) : State(); }
    void stop_mover() override { dBodySetAngularVel(mover_, 0, 0, 0); }

private:
    dBodyID body(dGeomID g)
    {
        dBodyID b = dBodyCreate(w_.world);
        dGeomSetBody(g, b);
        return b;
    }
    void hinge(double x, double y)
    {
        dJointID j = dJointCreateHinge(w_.world, 0);
        dJointAttach(j, mover_, 0);
        dJointSetHingeAnchor(j, x, y, 0);
        dJointSetHingeAxis(j, 0, 0, 1);
    }
    // ODE keeps a rotation matrix: the angle is followed step by step. A step
    // in finite rotation mode turns by exactly ω·dt (`expected`), which may
    // exceed π; with CCD, by ω before the impact until its phase and by ω after
    // it since (the CCD places the body): the turn is `expected` plus the
    // pose's difference from it, which is small (within π).
    void unwrap(double expected)
    {
        double now = ode_angle_z(mover_);
        angle_ += expected + wrap(now - seen_ - expected);
        seen_ = now;
    }
    static State get(dBodyID b, double a)
    {
        const dReal *x = dBodyGetPosition(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
        return {x[0], x[1], a, v[0], v[1], w[2]};
    }

    ode_world w_;
    OdeContacts contacts_;
    dBodyID mover_, target_ = 0;
    double angle_, seen_;
    int frame_ = 0, hit_frame_; // the frame of the impact and its phase in it
    double hit_fraction_;
};

// Box2D mixes friction by geometric mean and restitution by maximum: every
// fixture gets the contact's values. No restitution threshold, as the others.
b2FixtureDef b2_material(const b2Shape *shape, double e)
{
    b2FixtureDef f;
    f.shape = shape;
    f.friction = (float)kFriction;
    f.restitution = (float)e;
    f.restitutionThreshold = 0.0f;
    return f;
}

// Box2D rounds polygons by b2_polygonRadius: boxes are shrunk by it so their
// faces lie where the other engines' do. Its edge has that radius too, which
// is the wall's kWallHalf.
const double kSkin = b2_polygonRadius;

class B2Sim : public Sim {
public:
    B2Sim(const Spec &p) : world_(b2Vec2(0, 0)), e_(restitution(p.scene))
    {
        b2BodyDef gd;
        b2Body *ground = world_.CreateBody(&gd);
        b2Body *wall = world_.CreateBody(&gd); // not the hinge's body: jointed bodies do not collide
        State m = mover_start(p);
        b2PolygonShape box;
        switch (p.scene) {
        case BAT_STILL:
        case BAT_INELASTIC:
        case BAT_PITCHED:
            mover_ = create(b2_kinematicBody, m);
            box.SetAsBox(0.5 * kBatLen - kSkin, kBatHalf - kSkin, b2Vec2(0.5 * kBatLen, 0), 0);
            fixture(mover_, box);
            if (p.target) {
                target_ = create(b2_dynamicBody, ball_start(p));
                b2CircleShape ball;
                ball.m_radius = (float)kBallR;
                fixture(target_, ball);
                mass(target_, 1.0, kBallI);
            }
            break;
        case ROD_WALL: {
            mover_ = create(b2_dynamicBody, m);
            box.SetAsBox(0.5 * kRodLen - kSkin, kRodHalf - kSkin);
            fixture(mover_, box);
            mass(mover_, 1.0, kRodI);
            pin(ground, 0, 0);
            b2EdgeShape edge;
            edge.SetTwoSided(b2Vec2(kWallIn, 0), b2Vec2(kWallOut, 0));
            if (p.target)
                fixture(wall, edge);
            break;
        }
        default:
            mover_ = create(b2_dynamicBody, m);
            mover_->SetBullet(true); // Box2D's TOI between two dynamic bodies needs a bullet
            box.SetAsBox(0.5 * kBladeLen - kSkin, kBladeHalf - kSkin);
            fixture(mover_, box);
            mass(mover_, kBladeMass, kBladeI);
            pin(ground, 0, 0);
            if (p.target) {
                target_ = create(b2_dynamicBody, box_start(kSkin));
                box.SetAsBox(kBoxHalf - kSkin, kBoxHalf - kSkin);
                fixture(target_, box);
                mass(target_, 1.0, kBoxI);
            }
        }
    }
    void frame() override { world_.Step((float)kDt, 8, 3); }
    State mover() const override { return get(mover_); }
    State target() const override { return target_ ? get(target_) : State(); }
    void stop_mover() override { mover_->SetAngularVelocity(0.0f); }

private:
    b2Body *create(b2BodyType type, const State &s)
    {
        b2BodyDef d;
        d.type = type;
        d.position.Set((float)s.x, (float)s.y);
        d.angle = (float)s.a;
        d.linearVelocity.Set((float)s.vx, (float)s.vy);
        d.angularVelocity = (float)s.w;
        return world_.CreateBody(&d);
    }
    void fixture(b2Body *b, const b2Shape &shape) const
    {
        b2FixtureDef f = b2_material(&shape, e_);
        f.density = 1.0f;
        b->CreateFixture(&f);
    }
    static void mass(b2Body *b, double m, double inertia)
    {
        b2MassData d;
        d.mass = (float)m;
        d.center.SetZero();
        d.I = (float)inertia;
        b->SetMassData(&d);
    }
    void pin(b2Body *ground, double x, double y)
    {
        b2RevoluteJointDef jd;
        jd.Initialize(ground, mover_, b2Vec2((float)x, (float)y));
        world_.CreateJoint(&jd);
    }
    static State get(const b2Body *b) // Box2D's angle is not wrapped
    {
        b2Vec2 x = b->GetPosition(), v = b->GetLinearVelocity();
        return {x.x, x.y, b->GetAngle(), v.x, v.y, b->GetAngularVelocity()};
    }

    b2World world_;
    double e_;
    b2Body *mover_ = nullptr, *target_ = nullptr;
};

enum Engine { CHIPMUNK, ODE, BOX2D };

std::unique_ptr<Sim> make_sim(Engine e, const Spec &p, Mode mode, int substeps)
{
    if (e == CHIPMUNK)
        return std::make_unique<CpSim>(p, mode, substeps);
    if (e == ODE)
        return std::make_unique<OdeSim>(p, mode, substeps);
    return std::make_unique<B2Sim>(p);
}

// ---- one run and what it measured ----

struct Outcome {
    std::vector<double> exit; // the scene's exit quantity, velocity units
    double energy = 0.0;      // kinetic energy after / before - 1
    bool passed = false;      // judged on the poses
    bool finite = true;
    double drift = 0.0;       // largest distance of the hinged end from its pivot, m
};

// The scene's exit quantity. Spins count as the speed they give a point of
// the body (the box's half side, the blade's tip) so all entries are m/s.
std::vector<double> exit_of(Scene s, const State &m, const State &t)
{
    if (is_bat(s))
        return {t.vx, t.vy};
    if (s == ROD_WALL)
        return {m.w};
    return {t.vx, t.vy, t.w * kBoxHalf, m.w * 0.5 * kBladeLen};
}

// Kinetic energy. A kinematic bat has no energy of its own; it is the frame:
// the ball's energy is taken relative to the bat's surface where they meet
// (spin × the contact point), which an impact with restitution ≤ 1 can only lower.
double energy(Scene s, double bat_spin, const State &m, const State &t)
{
    if (is_bat(s)) {
        double ux = -bat_spin * kBatHalf, uy = bat_spin * kBallX;
        return 0.5 * (sq(t.vx - ux) + sq(t.vy - uy)) + 0.5 * kBallI * sq(t.w);
    }
    if (s == ROD_WALL)
        return 0.5 * (sq(m.vx) + sq(m.vy)) + 0.5 * kRodI * sq(m.w);
    return 0.5 * kBladeMass * (sq(m.vx) + sq(m.vy)) + 0.5 * kBladeI * sq(m.w) + 0.5 * (sq(t.vx) + sq(t.vy)) +
           0.5 * kBoxI * sq(t.w);
}

double hinge_drift(Scene s, const State &m)
{
    if (s == ROD_WALL)
        return std::hypot(m.x - 0.5 * kRodLen * std::cos(m.a), m.y - 0.5 * kRodLen * std::sin(m.a));
    return s == BLADE_BOX ? std::hypot(m.x, m.y) : 0.0;
}

// Out of reach of the mover and moving away, or (rod) turned well back from
// the wall: nothing touches again, the velocities are final.
bool clear(const Spec &p, const State &m, const State &t)
{
    double reach = is_bat(p.scene) ? kBatLen + kBallR : 0.5 * kBladeLen + std::sqrt(2.0) * kBoxHalf;
    if (p.scene == ROD_WALL)
        return m.a < p.hit_angle - 0.3 && m.w < 0.0;
    return std::hypot(t.x, t.y) > reach + 0.01 && t.x * t.vx + t.y * t.vy > 0.0;
}

// Pass-through, on the poses. The rod: its centre line crossed the wall's
// during a frame, the motion between two frames taken as its hinged end
// moving straight while it turns by the (unwrapped) difference of angles —
// the hinge may drift far at 60 Hz, so the angle alone does not tell.
cpVect rod_end(const State &m) { return cpv(m.x - 0.5 * kRodLen * std::cos(m.a), m.y - 0.5 * kRodLen * std::sin(m.a)); }

bool rod_crossed(const State &m0, const State &m1)
{
    const cpVect w0 = cpv(kWallIn, 0), w1 = cpv(kWallOut, 0);
    int samples = std::max(8, (int)std::ceil(std::fabs(m1.a - m0.a) / 0.02));
    cpVect e0 = rod_end(m0), e1 = rod_end(m1), tip_before = cpvzero;
    for (int k = 0; k <= samples; ++k) {
        double s = (double)k / samples, a = m0.a + s * (m1.a - m0.a);
        cpVect end = cpvlerp(e0, e1, s), tip = cpvadd(end, cpvmult(cpvforangle(a), kRodLen));
        if (sccd_cp_segments_cross(end, tip, w0, w1) || (k > 0 && sccd_cp_segments_cross(tip_before, tip, w0, w1)))
            return true;
        tip_before = tip;
    }
    return false;
}

// The ball or box: it did not end up in front of the mover's face at the
// impact (+y), at least a ball's diameter or half a box's side beyond its place.
bool stayed_behind(const Spec &p, const State &t0, const State &t)
{
    if (is_bat(p.scene))
        return t.y < kBallY + 2.0 * kBallR;
    return p.scene == BLADE_BOX && t.y < t0.y + kBoxHalf;
}

bool finite_state(const State &s)
{
    return std::isfinite(s.x + s.y + s.a + s.vx + s.vy + s.w);
}

Outcome run(Engine e, const Spec &p, Mode mode, int substeps, double bat_spin)
{
    std::unique_ptr<Sim> sim = make_sim(e, p, mode, substeps);
    State m = sim->mover(), t = sim->target(), t0 = t, prev = m;
    double before = energy(p.scene, bat_spin, m, t);
    bool stopped = !is_bat(p.scene);
    Outcome o;
    for (int f = 0; f <= p.hit_frame + kFramesAfter; ++f) {
        sim->frame();
        m = sim->mover();
        t = sim->target();
        if (!finite_state(m) || !finite_state(t)) {
            o.finite = false;
            break;
        }
        o.drift = std::fmax(o.drift, hinge_drift(p.scene, m));
        o.passed |= p.scene == ROD_WALL && rod_crossed(prev, m);
        prev = m;
        if (f < p.hit_frame)
            continue;
        if (clear(p, m, t))
            break;
        if (!stopped && m.a >= p.hit_angle + kFollow) {
            sim->stop_mover();
            stopped = true;
        }
    }
    o.passed |= stayed_behind(p, t0, t);
    o.exit = exit_of(p.scene, m, t);
    o.energy = energy(p.scene, bat_spin, m, t) / before - 1.0;
    return o;
}

double norm(const std::vector<double> &v)
{
    double s = 0.0;
    for (double x : v)
        s += x * x;
    return std::sqrt(s);
}

double rel_error(const std::vector<double> &v, const std::vector<double> &ref)
{
    double d = 0.0;
    for (size_t i = 0; i < v.size(); ++i)
        d += sq(v[i] - ref[i]);
    return std::sqrt(d) / norm(ref);
}

// ---- the reference ----

// The scenes' physics does not depend on the phase, so one reference serves
// every phase of a row: the mean over kRefPhases phases, each its own start.
// (kRefPhases = 8: reference_fractions cycles three binary digits.)
struct Reference {
    std::vector<double> exit;
    int substeps = 0;
    bool converged = false;
    double spread = 0.0; // largest difference of one phase's reference from the mean
};

// Runs that passed through (or left untouched, exit 0) agree trivially: they do not count.
bool agree(const Outcome &a, const Outcome &b)
{
    return !a.passed && !b.passed && a.finite && b.finite && norm(b.exit) > 0.0 && rel_error(a.exit, b.exit) <= kAgree;
}

// The reference's phases. A sub-stepped run finds the contact at the first
// sub-step boundary past the impact, and at 2N that boundary is N's own
// whenever the impact falls in the second half of N's sub-step: then N and
// 2N agree whatever the error. So the phases' binary digits (from the third
// on: all phases lie in the first quarter of the step, inside every span)
// cycle through the phase number: at every N, half of them fall in each half
// of a sub-step, and their agreement means convergence.
std::vector<double> reference_fractions()
{
    std::vector<double> f;
    for (int j = 0; j < kRefPhases; ++j) {
        double x = 0.0;
        for (int digit = 3; digit <= 40; ++digit)
            x += ((j >> (digit % 3)) & 1) * std::ldexp(1.0, -digit);
        f.push_back(x);
    }
    return f;
}

// Sub-steps below which the reference could tunnel too: the fastest point of
// the mover (and the pitched ball) must move less than half the thinnest part
// of the pair per sub-step, or N and 2N may agree on the same wrong outcome.
int first_substeps(Scene s, double speed)
{
    const double reach[SCENES] = {kBatLen, kBatLen, kBatLen, kRodLen, 0.5 * kBladeLen};
    const double thin[SCENES] = {2 * kBatHalf, 2 * kBatHalf, 2 * kBatHalf, 2 * kWallHalf, 2 * kBladeHalf};
    double move = (speed * reach[s] + (s == BAT_PITCHED ? kPitch : 0.0)) * kDt;
    int n = 1;
    while (move / n > 0.5 * thin[s] && n < kMaxSubsteps)
        n *= 2;
    return n;
}

// Converged when N, 2N and 4N agree at every reference phase, N from
// first_substeps: two agreements in a row, since one can be a coincidence (a
// box thrown out of the plane by ODE's own contact the same way at 8 and 16
// sub-steps, 2 % off the converged exit).
Reference reference(Engine e, Scene s, double speed, bool square)
{
    std::vector<double> fractions = reference_fractions();
    auto level = [&](int n) {
        std::vector<Outcome> v;
        for (double f : fractions)
            v.push_back(run(e, make_spec(s, speed, f, square), SUBSTEP, n, speed));
        return v;
    };
    Reference r;
    int first = first_substeps(s, speed);
    std::vector<Outcome> prev = level(first), cur;
    int agreed = 0;
    for (int n = 2 * first; n <= kMaxSubsteps && !r.converged; n *= 2) {
        cur = level(n);
        bool same = true;
        for (size_t i = 0; i < cur.size(); ++i)
            same &= agree(prev[i], cur[i]);
        agreed = same ? agreed + 1 : 0;
        r.converged = agreed >= 2;
        r.substeps = n;
        prev = cur;
    }
    r.exit.assign(cur[0].exit.size(), 0.0);
    for (const Outcome &o : cur)
        for (size_t k = 0; k < o.exit.size(); ++k)
            r.exit[k] += o.exit[k] / (double)cur.size();
    for (const Outcome &o : cur)
        r.spread = std::fmax(r.spread, rel_error(o.exit, r.exit));
    return r;
}

// ---- a row: one scene, engine and speed over all phases ----

struct Stats {
    bool ran = false;
    double median = NAN, worst = NAN, energy = NAN, passed = NAN, drift = NAN;
    bool finite = true;
};

Stats summarize(const std::vector<Outcome> &runs, const Reference &ref)
{
    Stats st;
    if (runs.empty())
        return st;
    std::vector<double> err;
    st.ran = true;
    st.energy = -INFINITY;
    st.passed = st.drift = 0.0;
    for (const Outcome &o : runs) {
        err.push_back(rel_error(o.exit, ref.exit));
        st.energy = std::fmax(st.energy, o.energy);
        st.passed += o.passed;
        st.drift = std::fmax(st.drift, o.drift);
        st.finite &= o.finite && std::isfinite(err.back());
    }
    st.passed /= (double)runs.size();
    st.worst = *std::max_element(err.begin(), err.end());
    st.median = sccd_median(err.data(), (int)err.size());
    return st;
}

struct Row {
    Scene scene;
    Engine engine;
    double speed, span;
    Reference ref;
    Stats ccd, plain, box2d;
    double box2d_speed = NAN;
    bool pass = false;
};

// Box2D's real speed: the mover's turn over its first step alone.
double box2d_real_speed(Scene s, double speed)
{
    Spec p = make_spec(s, speed, 0.5, false);
    p.target = false;
    B2Sim sim(p);
    double a0 = sim.mover().a;
    sim.frame();
    return (sim.mover().a - a0) / kDt;
}

std::vector<Outcome> runs_of(Engine e, Scene s, double speed, const std::vector<double> &fr, Mode mode, bool square,
                             double spin)
{
    std::vector<Outcome> out;
    for (double f : fr)
        out.push_back(run(e, make_spec(s, speed, f, square), mode, 1, spin));
    return out;
}

bool meets_targets(const Row &r)
{
    const Stats &c = r.ccd;
    bool ok = c.median <= kMedianTarget && c.worst <= kWorstTarget && c.energy <= kEnergyTarget && c.passed == 0.0;
    if (r.box2d.ran) // better than Box2D's TOI (ties within half a percent count)
        ok &= c.median <= r.box2d.median + 0.005;
    return ok;
}

Row measure(Engine e, Scene s, double speed, int phases)
{
    Row r;
    r.scene = s;
    r.engine = e;
    r.speed = speed;
    r.span = phase_span(s, speed);
    std::vector<double> fr;
    for (int i = 0; i < phases; ++i)
        fr.push_back(r.span * (i + kPhaseOffset) / phases);
    bool square = e == ODE; // ODE's wall is a box
    r.ref = reference(e, s, speed, square);
    r.ccd = summarize(runs_of(e, s, speed, fr, CCD, square, speed), r.ref);
    r.plain = summarize(runs_of(e, s, speed, fr, PLAIN, square, speed), r.ref);
    if (e == CHIPMUNK) {
        r.box2d_speed = box2d_real_speed(s, speed);
        // The bat's surface moves at the speed Box2D really turns it at.
        r.box2d = summarize(runs_of(BOX2D, s, speed, fr, PLAIN, false, r.box2d_speed), r.ref);
    }
    r.pass = meets_targets(r);
    return r;
}

// ---- output ----

std::string pct(double x)
{
    if (std::isnan(x))
        return "—";
    char b[32];
    std::snprintf(b, sizeof b, std::fabs(x) < 0.1 ? "%.2f %%" : "%.1f %%", 100.0 * x);
    return b;
}

std::string errors(const Stats &s) { return s.ran ? pct(s.median) + " / " + pct(s.worst) : "n/a"; }

const char *engine_name(Engine e) { return e == CHIPMUNK ? "Chipmunk" : "ODE"; }

void write_csv_row(FILE *f, const Row &r)
{
    std::fprintf(f, "%s,%s,%.0f,%.3f,%d,%d,%.6g,%.4g,", kSceneName[r.scene], engine_name(r.engine), r.speed, r.span,
                 r.ref.substeps, r.ref.converged, norm(r.ref.exit), r.ref.spread);
    for (const Stats *s : {&r.ccd, &r.plain, &r.box2d})
        std::fprintf(f, "%.6g,%.6g,%.6g,%.4g,%.6g,", s->median, s->worst, s->energy, s->passed, s->drift);
    std::fprintf(f, "%.2f,%s\n", r.box2d_speed, r.pass ? "PASS" : "FAIL");
}

void write_md_row(FILE *f, const Row &r)
{
    char ref[64], speed[32] = "—", drift[32] = "—";
    std::snprintf(ref, sizeof ref, "%s%d%s", r.ref.converged ? "" : "**", r.ref.substeps,
                  r.ref.converged ? "" : " (not converged)**");
    if (r.engine == CHIPMUNK)
        std::snprintf(speed, sizeof speed, "%.0f", r.box2d_speed);
    if (r.scene >= ROD_WALL)
        std::snprintf(drift, sizeof drift, "%.3f", r.ccd.drift);
    std::string passed = pct(r.ccd.passed) + " / " + pct(r.plain.passed);
    if (r.box2d.ran)
        passed += " / " + pct(r.box2d.passed);
    std::fprintf(f, "| %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", kSceneName[r.scene], r.speed,
                 ref, pct(r.ref.spread).c_str(), errors(r.ccd).c_str(), errors(r.plain).c_str(),
                 r.engine == CHIPMUNK ? errors(r.box2d).c_str() : "—", speed,
                 pct(r.ccd.energy).c_str(), passed.c_str(), drift, r.pass ? "PASS" : "**FAIL**");
}

void write_md_head(FILE *f, int phases, bool quick)
{
    std::fprintf(f,
                 "## Fidelity: what is hit leaves as the physics says (fidelity)\n\n"
                 "Five impacts, gravity 0, restitution %.1f and friction %.1f on every contact (set per engine so "
                 "its mixing rule gives these: Chipmunk multiplies, Box2D takes the maximum and the geometric mean, "
                 "ODE takes the contact's surface): a kinematic bat (1 × 0.06 m, turning about its end) hitting a "
                 "still ball (r 0.05 m, 1 kg) at 0.75 m; the same with restitution 0 (*bat_inelastic*: Chipmunk's "
                 "default; the bat does not bat the ball away but pushes it, and it slides out along the bat's "
                 "face until the bat stops); the same bat meeting a ball pitched at it at %.0f m/s; a "
                 "rod (2 × 0.04 m, 1 kg) hinged at its end, spinning free into a thin static wall (0.02 m, from "
                 "1.5 to 2.5 m); a blade (1 × 0.04 m, 4 kg) hinged at its middle, spinning free into a free box "
                 "(0.1 m, 1 kg) it meets with a corner at 0.4 m. In 2D in Chipmunk 7 and Box2D 2.4, in 3D "
                 "(0.06 m deep) in ODE 0.16 (dWorldStep, finite rotation mode on the mover, wall a thin box). "
                 "%d impact phases over a 60 Hz step%s.\n\n"
                 "*Exit quantity*: the ball's velocity; the rod's spin after the rebound; the box's velocity, the "
                 "box's spin × its half side and the blade's spin × its half length (all m/s). Read once the hit "
                 "body is out of reach and moving away (rod: turned 0.3 rad back), at most %d frames after the "
                 "impact frame; a kinematic bat stops 1 rad past the impact (at a frame's end). *Error*: |exit − "
                 "reference| / |reference|, median / worst over the phases. *Reference*: the same engine without "
                 "CCD at 60·N Hz, N doubling (from the first N at which no point moves half the thinnest part a "
                 "sub-step) until two successive N agree within %.1f %% at each of 8 phases whose sub-step "
                 "offsets differ at every N (cap %d); the reference is their mean, *spread* their largest "
                 "difference from it (the scenes are built so the continuous motion is the same at every "
                 "phase: the start is moved back along the motion; measured phases are evenly spaced from "
                 "0.38 of their spacing). Box2D is compared "
                 "with the Chipmunk reference, at the speed asked. *ΔKE*: largest kinetic-energy growth across the "
                 "impact (after / before − 1; with a kinematic bat the ball's energy relative to the bat's surface "
                 "at the contact, which no impact with restitution ≤ 1 can raise). *Passed*: on the poses — the "
                 "rod's centre line got past the wall's, the ball did not end a diameter in front of the bat's "
                 "face at the impact, the box not half a side; CCD / plain 60 Hz / Box2D. *Drift*: largest "
                 "distance of the hinged end from its pivot with CCD (m).\n\n"
                 "Why it is hard: between two 60 Hz steps a body turning at ω sweeps ω/60 rad — 6.7 rad, over a "
                 "turn, at 400 rad/s. Stopping the pass-through is not enough: the contact must form at the pose "
                 "and with the velocities of the impact, or the hit body leaves in the wrong direction, at the "
                 "wrong speed, or with energy the impact cannot give. At 400 rad/s a one-step turn leaves room "
                 "for an impact only in part of the step before the mover would have met the target earlier "
                 "(the bat sweeps the ball's place, the blade's other arm the box): *span* is the fraction of "
                 "the step the phases cover. Box2D caps the turn at π/2 a step (94 rad/s at 60 Hz) and the speed at "
                 "2 m a step; its real speed is its turn over the first step. Targets (the issue): CCD error "
                 "≤ %.0f %% at the median and ≤ %.0f %% at the worst phase, ΔKE ≤ %.0f %%, no pass-through, "
                 "median error not above Box2D's (+0.5 %%) where Box2D runs.%s%s\n\n",
                 kRestitution, kFriction, kPitch, phases, quick ? " (--quick: 3 speeds)" : "", kFramesAfter,
                 100 * kAgree, kMaxSubsteps, 100 * kMedianTarget, 100 * kWorstTarget, 100 * kEnergyTarget,
                 " ODE turns the mover by ω·dt (finite rotation mode), more than a whole turn a step at 400 "
                 "rad/s; the CCD is told the step (sccd_ode_set_step_length): read from ODE's integration, a "
                 "first step in which nothing moves but the spinning bat is a whole turn short.", kOdeInelastic);
}

void write_md_table(FILE *f, const std::vector<Row> &rows, Engine e)
{
    std::fprintf(f, "%s\n\n| scene | ω (rad/s) | ref N | spread | CCD error med / worst | plain 60 Hz | %s | "
                    "%s | CCD ΔKE | passed | drift | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
                 e == CHIPMUNK ? "**2D: Chipmunk + sectorccd, plain Chipmunk, Box2D 2.4**"
                               : "**3D: ODE + sectorccd, plain ODE**",
                 e == CHIPMUNK ? "Box2D TOI" : "—", e == CHIPMUNK ? "Box2D ω real" : "—");
    for (const Row &r : rows)
        if (r.engine == e)
            write_md_row(f, r);
    std::fprintf(f, "\n");
}

} // namespace

int main(int argc, char **argv)
{
    // --check is ours; the rest is the benches' common command line.
    bool check = false;
    std::vector<char *> args;
    for (int i = 0; i < argc; ++i) {
        if (i > 0 && std::strcmp(argv[i], "--check") == 0)
            check = true;
        else
            args.push_back(argv[i]);
    }
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args((int)args.size(), args.data(), "fidelity", &quick, &out)) {
        std::fprintf(stderr, "  (and --check: exit 1 when a row misses the targets)\n");
        return 2;
    }
    dInitODE2(0);
    std::vector<double> speeds = quick ? std::vector<double>{5, 50, 400}
                                       : std::vector<double>{5, 10, 20, 50, 100, 200, 400};
    const int phases = quick ? 4 : 16;
    double t0 = sccd_cpu_seconds();
    std::vector<Row> rows;
    bool ran_ok = true;
    for (int s = 0; s < SCENES; ++s)
        for (Engine e : {CHIPMUNK, ODE})
            for (double w : speeds) {
                if (e == ODE && s == BAT_INELASTIC)
                    continue; /* no reference: see kOdeInelastic */
                Row r = measure(e, (Scene)s, w, phases);
                ran_ok &= r.ref.converged && r.ccd.finite && r.plain.finite && r.box2d.finite;
                std::printf("  %-11s %-8s %4.0f rad/s: ref N=%d%s, CCD %s, plain %s%s%s, %s\n", kSceneName[s],
                            engine_name(e), w, r.ref.substeps, r.ref.converged ? "" : " NOT CONVERGED",
                            errors(r.ccd).c_str(), errors(r.plain).c_str(), e == CHIPMUNK ? ", Box2D " : "",
                            e == CHIPMUNK ? errors(r.box2d).c_str() : "",
                            r.pass ? "PASS" : "FAIL");
                std::fflush(stdout);
                rows.push_back(r);
            }
    int run = (int)rows.size(), passed = 0;
    for (const Row &r : rows)
        passed += r.pass;
    char verdict[256];
    std::snprintf(verdict, sizeof verdict, "%s: %d of %d rows meet the targets%s",
                  passed == run ? "PASS" : "FAIL", passed, run,
                  ran_ok ? "" : "; a reference did not converge, a run went non-finite or an output failed");
    FILE *csv = sccd_bench_open(out, "fidelity", "csv"), *md = sccd_bench_open(out, "fidelity", "md");
    ran_ok &= csv && md;
    if (csv) {
        std::fprintf(csv, "scene,engine,speed,span,ref_n,ref_converged,ref_norm,ref_spread");
        for (const char *k : {"ccd", "plain", "box2d"})
            std::fprintf(csv, ",%s_med,%s_worst,%s_energy,%s_passed,%s_drift", k, k, k, k, k);
        std::fprintf(csv, ",box2d_speed,verdict\n");
        for (const Row &r : rows)
            write_csv_row(csv, r);
        std::fclose(csv);
    }
    if (md) {
        write_md_head(md, phases, quick);
        write_md_table(md, rows, CHIPMUNK);
        write_md_table(md, rows, ODE);
        std::fprintf(md, "**Verdict — %s.**\n\n![exit-velocity error against speed, per scene](img/fidelity.png)\n",
                     verdict);
        std::fclose(md);
    }
    std::printf("fidelity: %s (%.0f s CPU)\n", verdict, sccd_cpu_seconds() - t0);
    dCloseODE();
    if (!ran_ok)
        return 1;
    return check && passed < run ? 1 : 0;
}
