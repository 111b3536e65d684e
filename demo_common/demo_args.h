/* The demos' shared command line (chipmunk_demo, ode_demo): the --ccd modes
 * both demos compare, the limits of their numeric options and the scenes a
 * run picks. */
#ifndef SCCD_DEMO_ARGS_H
#define SCCD_DEMO_ARGS_H

#include <stdbool.h>
#include <stddef.h>

/// The demos' `--ccd` modes, in the order both demos' mode enums follow.
typedef enum sccd_demo_ccd { SCCD_DEMO_OFF, SCCD_DEMO_SECTOR, SCCD_DEMO_SPECULATIVE, SCCD_DEMO_SUBSTEP } sccd_demo_ccd;
/// Largest --ccd=substep:N the demos accept.
#define SCCD_DEMO_MAX_SUBSTEPS 10000
/// Largest --speed (rad/s) the demos accept: far past any swing, short of what overflows an engine's angle.
#define SCCD_DEMO_MAX_SPEED 1e5
/// Largest --trials the demos accept.
#define SCCD_DEMO_MAX_TRIALS 1000000
/// Parse off|sector|speculative|substep:N into *mode and *substeps (1 unless substep); false on anything else.
bool sccd_demo_parse_ccd(const char *s, sccd_demo_ccd *mode, int *substeps);
/// The mode's file-name form ("off", "substep4", ...) written into buf; returns buf.
const char *sccd_demo_ccd_name(sccd_demo_ccd mode, int substeps, char *buf, size_t n);
/// The demos' shared command line (chipmunk_demo, ode_demo).
typedef struct sccd_demo_args {
    sccd_demo_ccd ccd;      ///< the mode compared with no CCD (sector unless --ccd=)
    int substeps;           ///< for SCCD_DEMO_SUBSTEP, ≥ 1
    bool ccd_given;         ///< --ccd= was given (the demos then skip their summary table)
    const char *scene;      ///< --scene NAME; NULL: all
    double speed;           ///< --speed RAD_S; 0: the scene's default
    int trials;             ///< --trials N; 0: the scene's default
    const char *out;        ///< --out DIR ("build/demo")
    bool window;            ///< --window: the live window (SDL2 builds), else headless
    int frames;             ///< --frames N: quit the window after N frames; 0: run until closed
    const char *screenshot; ///< --screenshot PATH: the window's last frame as PNG; NULL: none
} sccd_demo_args;
/// Parse `[--ccd=off|sector|speculative|substep:N] [--scene NAME] [--speed RAD_S] [--trials N] [--out DIR] [--window] [--frames N] [--screenshot PATH]` into *a (defaults first); numbers must be whole words in range (--speed in (0, SCCD_DEMO_MAX_SPEED]) and --frames/--screenshot need --window; prints the usage naming `name` and returns false on anything else.
bool sccd_demo_parse_args(int argc, char **argv, const char *name, sccd_demo_args *a);
/// The scenes a demo runs: the indices i < count whose name(i) is `want` (NULL: all) into out, in order; their number (0, with a message naming `prog` on stderr, when none is).
int sccd_demo_choose_scenes(const char *want, int count, const char *(*name)(int i), int *out, const char *prog);

#endif
