// compare_box2d: a thin-wall swing in Box2D 2.4 (continuous physics on: its
// TOI for dynamic vs static, with the rotation cap b2_maxRotation = pi/2 per
// step), in plain Chipmunk and in Chipmunk with sectorccd. A rod hinged at its
// middle (a propeller: its centre of mass stays on the hinge, so both engines
// integrate the same turn) is driven by a motor into a wall 1/50 of an arm's
// length thick, 7 speeds from 5 to 400 rad/s at 60 Hz, 50 starting phases.
// Pass-through, judged on the geometry alone (the hinge may drift: Box2D's TOI
// ignores joints): the leading arm's tip moves across the wall's middle line
// within the wall's span between two steps, or the arm ends a step stuck
// through that line. Also reported: how far the hinge drifted.
// Also reported: the turn the rod really made per step before the wall,
// as rad/s (Box2D clamps it), and thread CPU time per step.
//
//   compare_box2d [--quick] [--out DIR]  -> DIR/compare_box2d.csv, DIR/compare_box2d.md
// (bench/compare_box2d.gp plots the CSV as docs/img/compare_box2d.png)
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include <chipmunk/chipmunk.h> // has its own C++ parts: outside extern "C"
extern "C" {
#include "sectorccd_chipmunk.h"
#include "cp_support.h"
#include "timing.h"
#include "bench_util.h"
}

namespace {

const double kDt = 1.0 / 60.0;
const double kWall = 0.5 * SCCD_PI;
const double kSpeeds[] = {5, 10, 20, 50, 100, 200, 400};

struct Swing {
    bool passed = false;
    double free_speed = 0.0; // rad/s over the last step
    double drift = 0.0;      // largest distance of the rod's middle from the hinge, in arm lengths
    int steps = 0;
};

struct P { double x, y; };

// Segments ab and cd cross (orientation signs differ on both).
bool cross(P a, P b, P c, P d)
{
    auto orient = [](P o, P u, P v) { return (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x); };
    return orient(a, b, c) * orient(a, b, d) < 0.0 && orient(c, d, a) * orient(c, d, b) < 0.0;
}

// The check, in arm lengths (the wall's middle line is x = 0, 0.4 <= y <= 1.05):
// the tip's move from tip0 to tip1 crosses it, or the arm (from r = 0.4 out) does.
bool through_wall(P hub, double angle, P tip0, P tip1)
{
    const P lo = {0.0, 0.4}, hi = {0.0, 1.05};
    P inner = {hub.x + 0.4 * std::cos(angle), hub.y + 0.4 * std::sin(angle)};
    return cross(tip0, tip1, lo, hi) || cross(inner, tip1, lo, hi);
}

P tip_of(P hub, double angle) { return {hub.x + std::cos(angle), hub.y + std::sin(angle)}; }

// Less than half a turn back, so the leading arm is the one that meets the wall.
double start_angle(double w, double phase) { return kWall - 0.1 - phase * std::fmin(w * kDt, SCCD_PI - 0.5); }
int swing_steps(double w) { return (int)std::ceil(0.1 / (w * kDt)) + 20; }

double wrap(double d) { return std::remainder(d, 2.0 * SCCD_PI); }

// Box2D, in metres: rod -1..1 m, 0.01 m thick; wall 0.02 m thick from r = 0.4 to 1.05 m.
// Without the wall (with_wall false) it measures the speed Box2D really turns the rod at.
Swing box2d_swing(double w, double phase, bool with_wall = true)
{
    b2World world(b2Vec2(0.0f, 0.0f));
    b2BodyDef gd;
    b2Body *ground = world.CreateBody(&gd);
    b2Body *wall_body = world.CreateBody(&gd); // not the hinge's body: jointed bodies do not collide
    b2PolygonShape wall;
    wall.SetAsBox(0.01f, 0.325f, b2Vec2(0.0f, 0.725f), 0.0f);
    if (with_wall)
        wall_body->CreateFixture(&wall, 0.0f);
    b2BodyDef rd;
    rd.type = b2_dynamicBody;
    double a0 = start_angle(w, phase);
    rd.angle = (float)a0;
    rd.angularVelocity = (float)w;
    b2Body *rod = world.CreateBody(&rd);
    b2PolygonShape bar;
    bar.SetAsBox(1.0f, 0.005f);
    rod->CreateFixture(&bar, 50.0f);
    b2RevoluteJointDef jd;
    jd.Initialize(ground, rod, b2Vec2(0.0f, 0.0f));
    jd.enableMotor = true;
    jd.motorSpeed = (float)w;
    jd.maxMotorTorque = 20.0f; // keeps the speed, cannot crush the wall (Box2D contacts are soft)
    world.CreateJoint(&jd);
    Swing s;
    for (int i = 0; i < swing_steps(w); ++i) {
        double before = rod->GetAngle();
        P tip0 = tip_of({rod->GetPosition().x, rod->GetPosition().y}, before);
        world.Step((float)kDt, 8, 3);
        P hub = {rod->GetPosition().x, rod->GetPosition().y};
        ++s.steps;
        s.free_speed = wrap(rod->GetAngle() - before) / kDt; // at most pi/2 a step: unambiguous
        s.drift = std::fmax(s.drift, std::hypot(hub.x, hub.y));
        if (through_wall(hub, rod->GetAngle(), tip0, tip_of(hub, rod->GetAngle()))) {
            s.passed = true;
            break;
        }
    }
    return s;
}

// Chipmunk, in the test's units: rod -100..100, radius 0.5; wall 2 thick from r = 40 to 105.
Swing chipmunk_swing(bool ccd, double w, double phase)
{
    cpSpace *space = cpSpaceNew();
    cpSpaceSetIterations(space, 20);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpSpaceAddShape(space, cpBoxShapeNew2(ground, cpBBNew(-1, 40, 1, 105), 0));
    cpBody *rod = cpSpaceAddBody(space, cpBodyNew(1.0, cpMomentForSegment(1.0, cpv(-100, 0), cpv(100, 0), 0.5)));
    double a0 = start_angle(w, phase);
    cpBodySetAngle(rod, a0);
    cpBodySetAngularVelocity(rod, w);
    cpSpaceAddShape(space, cpSegmentShapeNew(rod, cpv(-100, 0), cpv(100, 0), 0.5));
    cpSpaceAddConstraint(space, cpPivotJointNew(ground, rod, cpvzero));
    cpConstraint *motor = cpSpaceAddConstraint(space, cpSimpleMotorNew(ground, rod, -w));
    cpConstraintSetMaxForce(motor, 2e5);
    sccd_cp_world *cw = nullptr;
    if (ccd) {
        cw = sccd_cp_attach(space);
        sccd_cp_body_enable(cw, rod);
        sccd_cp_body_set_pivot(cw, rod, cpvzero);
    }
    Swing s;
    auto hub_of = [rod] { return P{0.01 * cpBodyGetPosition(rod).x, 0.01 * cpBodyGetPosition(rod).y}; };
    for (int i = 0; i < swing_steps(w); ++i) {
        double before = cpBodyGetAngle(rod);
        P tip0 = tip_of(hub_of(), before);
        cpSpaceStep(space, kDt);
        P hub = hub_of();
        ++s.steps;
        s.drift = std::fmax(s.drift, std::hypot(hub.x, hub.y));
        if (through_wall(hub, cpBodyGetAngle(rod), tip0, tip_of(hub, cpBodyGetAngle(rod)))) {
            s.passed = true;
            break;
        }
    }
    sccd_cp_detach(cw);
    sccd_cp_space_free_all(space);
    return s;
}

struct Tally {
    int passes = 0, steps = 0;
    double seconds = 0.0, drift = 0.0;
    void add(const Swing &s, double t)
    {
        passes += s.passed;
        steps += s.steps;
        seconds += t;
        drift = std::fmax(drift, s.drift);
    }
};

template <class F> void run(Tally &t, F swing)
{
    double t0 = sccd_cpu_seconds();
    Swing s = swing();
    t.add(s, sccd_cpu_seconds() - t0);
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "compare_box2d", &quick, &out))
        return 2;
    const int phases = quick ? 10 : 50;
    char path[512];
    std::snprintf(path, sizeof path, "%s/compare_box2d.csv", out);
    FILE *csv = std::fopen(path, "w");
    std::snprintf(path, sizeof path, "%s/compare_box2d.md", out);
    FILE *md = std::fopen(path, "w");
    if (csv)
        std::fprintf(csv, "speed,phases,box2d_passes,box2d_rad_s,box2d_drift,box2d_us_step,cp_passes,cp_us_step,sccd_passes,"
                          "sccd_drift,sccd_us_step\n");
    if (md)
        std::fprintf(md, "## Box2D 2.4 vs Chipmunk vs Chipmunk + sectorccd (compare_box2d)\n\n"
                         "A rod hinged at its middle is driven by a motor into a wall 1/50 of an arm's length thick, "
                         "60 Hz, %d starting phases per speed; pass-through = the arm's tip moves across the wall's "
                         "middle line within its span, or the arm ends a step stuck through it. Box2D clamps the turn "
                         "to π/2 per step (94 rad/s at 60 Hz; real speed = its turn per step with no wall), and its TOI "
                         "ignores the hinge (drift = largest distance of the rod's middle from the hinge, in arm "
                         "lengths). Thread CPU time per step.\n\n"
                         "| asked (rad/s) | Box2D passes | Box2D real speed (rad/s) | Box2D hinge drift | Box2D µs/step | "
                         "Chipmunk passes | Chipmunk µs/step | + sectorccd passes | + sectorccd hinge drift | "
                         "+ sectorccd µs/step |\n|---|---|---|---|---|---|---|---|---|---|\n",
                     phases);
    bool ok = true;
    std::printf("compare_box2d: %d phases per speed\n", phases);
    for (double w : kSpeeds) {
        Tally b2, cp, sc;
        for (int p = 0; p < phases; ++p) {
            double phase = (p + 0.5) / phases;
            run(b2, [&] { return box2d_swing(w, phase); });
            run(cp, [&] { return chipmunk_swing(false, w, phase); });
            run(sc, [&] { return chipmunk_swing(true, w, phase); });
        }
        ok &= sc.passes == 0;
        double b2_speed = box2d_swing(w, 0.5, false).free_speed; // its turn per step, free of the wall
        auto us = [](const Tally &t) { return t.steps ? 1e6 * t.seconds / t.steps : 0.0; };
        std::printf("  %5.0f rad/s: Box2D %2d/%d passes (really %.0f rad/s, hinge drift %.2f, %.1f us/step), Chipmunk "
                    "%2d/%d (%.1f us), + sectorccd %d/%d (drift %.2f, %.1f us)\n",
                    w, b2.passes, phases, b2_speed, b2.drift, us(b2), cp.passes, phases, us(cp), sc.passes,
                    phases, sc.drift, us(sc));
        if (csv)
            std::fprintf(csv, "%.0f,%d,%d,%.1f,%.3f,%.2f,%d,%.2f,%d,%.3f,%.2f\n", w, phases, b2.passes,
                         b2_speed, b2.drift, us(b2), cp.passes, us(cp), sc.passes, sc.drift, us(sc));
        if (md)
            std::fprintf(md, "| %.0f | %d/%d | %.0f | %.2f | %.1f | %d/%d | %.1f | %d/%d | %.2f | %.1f |\n", w, b2.passes,
                         phases, b2_speed, b2.drift, us(b2), cp.passes, phases, us(cp), sc.passes, phases,
                         sc.drift, us(sc));
    }
    if (csv)
        std::fclose(csv);
    if (md) {
        std::fprintf(md, "\n![pass-throughs, time per step, Box2D's real speed and hinge drift](img/compare_box2d.png)\n");
        std::fclose(md);
    }
    if (!ok)
        std::fprintf(stderr, "compare_box2d: FAILED (a pass-through with sectorccd)\n");
    return ok ? 0 : 1;
}
