/* ode_demo's scene table and one trial of a scene (demo.h); the scenes
 * themselves and their pass-through checks are common/scenes/ode_scenes.c. */
#include "demo_args.h" /* SCCD_DEMO_MAX_SPEED */
#include "demo.h"

const demo_scene demo_scenes[] = {
    {SCENE_BLADE, "blade", "blade on a hinge motor vs a plate 1/50 of its length thick", 200.0, SCCD_DEMO_MAX_SPEED, 50,
     {0.25, 0.3, 0.1, 0.0, 0.0, 0.7}, 12},
    {SCENE_BAT, "bat", "kinematic bat vs a pitched ball 1/20 of its length", 120.0, ODE_BAT_MAX_SPEED, 50, {0.15, 0.2, 0.3, 0.2, 0.0, 1.0}, 8},
    {SCENE_ROTOR, "rotor", "kinematic rotor under falling spheres", 200.0, SCCD_DEMO_MAX_SPEED, 5, {0.5, 0.55, 0.0, -0.3, 0.0, 1.0}, 8},
    {SCENE_SWORDS, "swords", "two swords on one hinge axis swung at each other", 200.0, SCCD_DEMO_MAX_SPEED, 50,
     {0.2, 0.25, 0.0, 0.0, 0.0, 0.7}, 12},
    {SCENE_MESH_BAT, "mesh_bat", "a modelled bat (trimesh) on a hinge motor vs a trimesh post", 100.0, ODE_MESH_MAX_SPEED, 12,
     {0.35, 0.45, 0.35, 0.0, 0.0, 0.5}, 8},
};
const int demo_scene_count = (int)(sizeof demo_scenes / sizeof demo_scenes[0]);

ode_trial demo_run_trial(const demo_scene *sc, mode_cfg m, double speed, int k, int trials, ode_observer *obs, void *user,
                         int *passes)
{
    double phase = (double)k / trials;
    ode_trial t = {0};
    switch (sc->id) {
    case SCENE_BLADE:
        t = ode_trial_blade(m.mode, m.substeps, speed, phase, obs, user);
        break;
    case SCENE_BAT:
        t = ode_trial_bat(m.mode, m.substeps, speed, phase, obs, user);
        break;
    case SCENE_ROTOR:
        return ode_trial_rotor(m.mode, m.substeps, speed, ROTOR_SPHERES, (unsigned)k + 1u, passes, obs, user);
    case SCENE_SWORDS:
        t = ode_trial_swords(m.mode, m.substeps, speed, phase, obs, user);
        break;
    case SCENE_MESH_BAT:
        t = ode_trial_mesh(m.mode, m.substeps, ODE_MESH_BAT, ODE_MESH_POST, speed, phase, obs, user);
        break;
    }
    *passes = t.passed;
    return t;
}
