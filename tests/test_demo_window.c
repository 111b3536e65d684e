/* The demos' live window (demo_common/demo_window.c, chipmunk_demo/window.c,
 * ode_demo/window.c) and their shared command line (demo_common/demo_args.c:
 * sccd_demo_parse_args).
 *
 * The demo programs are run as a user would, beside this test in its bin
 * directory, with SDL's dummy video driver: `--window --frames 120
 * --screenshot PATH` must exit 0 and leave a PNG of the window's size in
 * which (a) the first scene's static obstacle is drawn where a projection
 * written here independently puts it, in both panels, and (b) the CCD
 * body's highlight colour (flat, or scaled by a shade) covers enough pixels
 * of the right panel (and of the left one: both runs show the blade). Early
 * in the first trial the HUD must count one pass-through on the left and
 * none on the right, as the scenes' own checks count them headless.
 * Without a usable video driver the demos must say so and run headless;
 * without SDL2 in the build (no SCCD_HAVE_SDL2) likewise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <cairo.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../demo_common/demo_args.h"
#include "../demo_common/demo_window.h"

#ifdef SCCD_HAVE_SDL2
static const bool have_sdl2 = true; /* the Makefile says whether the demos were built with SDL2 */
#else
static const bool have_sdl2 = false;
#endif

static char bin_dir[1024] = "build/bin";
static char tmp_dir[] = "/tmp/sccd_demo_window_XXXXXX";

/* Run bin_dir/prog with args (NULL-terminated) and SDL_VIDEODRIVER=driver;
 * stdout and stderr go to tmp_dir/log. Returns the exit status (−1: died). */
static int run_demo(const char *prog, const char *driver, const char *const *args)
{
    char path[1200], log[1200];
    snprintf(path, sizeof path, "%s/%s", bin_dir, prog);
    snprintf(log, sizeof log, "%s/log", tmp_dir);
    const char *argv[16] = {path};
    int n = 1;
    for (; args[n - 1] != NULL && n < 15; ++n)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (f == NULL || dup2(fileno(stdout), 2) < 0)
            _exit(126);
        char lsan[1200];
        snprintf(lsan, sizeof lsan, "suppressions=%s/lsan.supp:print_suppressions=0", tmp_dir);
        setenv("SDL_VIDEODRIVER", driver, 1);
        setenv("SDL_AUDIODRIVER", "dummy", 1);
        setenv("LSAN_OPTIONS", lsan, 1); /* read only by SANITIZE=1 builds */
        execv(path, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Under SANITIZE=1 the demos' headless runs end with fontconfig's own
 * configuration still allocated (cairo loads it to draw the captions;
 * cairo_debug_reset_static_data does not free it, and only FcFini would):
 * LeakSanitizer is told to ignore allocations made inside libfontconfig,
 * nothing else. SDL needs no suppression. */
static bool write_suppressions(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/lsan.supp", tmp_dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return false;
    fputs("leak:libfontconfig.so\n", f);
    return fclose(f) == 0;
}

/* True when the last run's output contains s. */
static bool log_has(const char *s)
{
    char path[1200], buf[65536];
    snprintf(path, sizeof path, "%s/log", tmp_dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, s) != NULL;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A screenshot read back: 0xRRGGBB per pixel. */
typedef struct shot { cairo_surface_t *s; int w, h; } shot;

static shot load_png(const char *path)
{
    shot p = {cairo_image_surface_create_from_png(path), 0, 0};
    assert_int_equal(cairo_surface_status(p.s), CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(p.s);
    p.w = cairo_image_surface_get_width(p.s);
    p.h = cairo_image_surface_get_height(p.s);
    return p;
}

static unsigned pixel(const shot *p, int x, int y)
{
    const unsigned char *row = cairo_image_surface_get_data(p->s) + (size_t)y * (size_t)cairo_image_surface_get_stride(p->s);
    return ((const unsigned *)row)[x] & 0xffffffu;
}

/* c is s·base for some shade s in [0.25, 1] (each channel within rounding
 * plus 2 %): the flat colour, or a face of it shaded by its normal. */
static bool is_shade_of(unsigned c, unsigned base)
{
    double r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
    double R = (base >> 16) & 255, G = (base >> 8) & 255, B = base & 255;
    double s = b / B; /* the brightest channel of both colours here */
    if (s < 0.25 || s > 1.0 + 1e-9)
        return false;
    return fabs(r - s * R) <= 2.0 + 0.02 * R && fabs(g - s * G) <= 2.0 + 0.02 * G;
}

static bool is_grey(unsigned c, int lo, int hi)
{
    int r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
    return r == g && g == b && r >= lo && r <= hi;
}

/* Pixels of the box [x0, x1) × [y0, y1) that pass test(c). */
static int count_in(const shot *p, int x0, int y0, int x1, int y1, bool (*test)(unsigned c))
{
    int n = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
            n += test(pixel(p, x, y));
    return n;
}

static bool highlight(unsigned c) { return is_shade_of(c, DW_HIGHLIGHT); }
static bool cp_static(unsigned c) { return c == 0x282828u; }           /* chipmunk_demo/window.c: statics (40, 40, 40) */
static bool ode_static(unsigned c) { return is_grey(c, 36, 120); }     /* ode_demo/window.c: plates 120 grey × shade ≥ 0.3 */

/* Run a demo's window for 120 frames and read the screenshot back. */
static shot window_shot(const char *prog, const char *name)
{
    char png[1200];
    snprintf(png, sizeof png, "%s/%s", tmp_dir, name);
    remove(png);
    const char *args[] = {"--window", "--frames", "120", "--screenshot", png, NULL};
    assert_int_equal(run_demo(prog, "dummy", args), 0);
    assert_true(exists(png));
    shot p = load_png(png);
    assert_int_equal(p.w, DW_WIDTH);
    assert_int_equal(p.h, DW_HEIGHT);
    return p;
}

/* chipmunk_demo's first scene, sword_wall: the wall is the box x in [−1, 1],
 * y in [60, 105] (scenes.c), in the view box (−110, −30)–(110, 130): 480 px
 * for 220 units, the view's centre (0, 50) at the panel's centre. */
static void test_chipmunk_window(void **state)
{
    (void)state;
    if (!have_sdl2)
        skip();
    shot p = window_shot("chipmunk_demo", "cp.png");
    double k = DW_PANEL / 220.0;
    int y0 = (int)ceil(DW_HUD + 0.5 * DW_PANEL - k * (105 - 50)), y1 = (int)floor(DW_HUD + 0.5 * DW_PANEL - k * (60 - 50));
    for (int side = 0; side < 2; ++side) {
        int cx = side * DW_PANEL + DW_PANEL / 2;
        /* the wall's column (1 px in from each face), most of it unhidden by the sword */
        int wall = count_in(&p, cx - 1, y0 + 1, cx + 1, y1 - 1, cp_static);
        assert_true(wall > (y1 - y0 - 2));
        /* and no wall colour far from it */
        assert_int_equal(count_in(&p, side * DW_PANEL, DW_HUD, cx - 10, DW_HEIGHT, cp_static), 0);
        assert_true(count_in(&p, side * DW_PANEL, DW_HUD, (side + 1) * DW_PANEL, DW_HEIGHT, highlight) > 150);
    }
    cairo_surface_destroy(p.s);
}

/* ode_demo's first scene, blade: the plate is a box centred at (0.4, 0, 0)
 * (ode_scenes.c) seen by the view yaw 0.25, pitch 0.3 about (0.1, 0, 0),
 * half-height 0.7 (scenes.c); projected here: turn by yaw about y, then by
 * pitch about x, orthographic. */
static void test_ode_window(void **state)
{
    (void)state;
    if (!have_sdl2)
        skip();
    shot p = window_shot("ode_demo", "ode.png");
    const double yaw = 0.25, pitch = 0.3, span = 0.7;
    double x = 0.4 - 0.1, z = 0.0;
    double vx = x * cos(yaw) + z * sin(yaw), vz = z * cos(yaw) - x * sin(yaw);
    double vy = -sin(pitch) * vz; /* y = 0 */
    double scale = 0.5 * DW_PANEL / span;
    for (int side = 0; side < 2; ++side) {
        int px = (int)lround(side * DW_PANEL + 0.5 * DW_PANEL + scale * vx), py = (int)lround(DW_HUD + 0.5 * DW_PANEL - scale * vy);
        assert_true(count_in(&p, px - 12, py - 12, px + 12, py + 12, ode_static) > 200);
        assert_true(count_in(&p, side * DW_PANEL, DW_HUD, (side + 1) * DW_PANEL, DW_HEIGHT, highlight) > 150);
    }
    /* the top left corner of a panel is empty */
    assert_int_equal(pixel(&p, DW_PANEL + 20, DW_HUD + 20), 0xffffffu);
    cairo_surface_destroy(p.s);
}

/* The red squares in a panel's HUD (demo_window.c's hud: 10 px squares
 * every 12 px from x0 + 200, rows 5..14): one per pass-through so far. */
static int hud_passes(const shot *p, int side)
{
    int n = 0;
    while (n < 20 && pixel(p, side * DW_PANEL + 205 + 12 * n, 10) == 0xD70000u)
        ++n;
    return n;
}

/* The promise of the demos, seen in the window: in the first trial of the
 * first scene the blade passes through the obstacle without CCD and not
 * with sectorccd. The scenes' own checks say so for every trial headless
 * (sword_wall: 50/50 without, 0/50 with; blade: 50/50, 0/50); the window
 * must show one pass-through on the left and none on the right once the
 * first trial is over (chipmunk_demo: the left run ends its trial at the
 * pass, within 3 steps, and the right one's trial lasts 32 steps and a
 * 30-frame hold; ode_demo: marks show when a trial ends, after about 11
 * steps, then a 30-frame hold). */
static void test_first_trial_passes_left_only(void **state)
{
    (void)state;
    if (!have_sdl2)
        skip();
    const char *progs[2] = {"chipmunk_demo", "ode_demo"}, *frames[2] = {"40", "20"};
    for (int i = 0; i < 2; ++i) {
        char png[1200];
        snprintf(png, sizeof png, "%s/first_trial.png", tmp_dir);
        const char *args[] = {"--window", "--frames", frames[i], "--screenshot", png, NULL};
        assert_int_equal(run_demo(progs[i], "dummy", args), 0);
        shot p = load_png(png);
        assert_int_equal(hud_passes(&p, 0), 1);
        assert_int_equal(hud_passes(&p, 1), 0);
        cairo_surface_destroy(p.s);
    }
}

/* A demo that gets no window still does its headless run: verdict line, CSV. */
static void check_headless(const char *prog, const char *driver, const char *message, const char *csv)
{
    char png[1200], out[1200], path[1300];
    snprintf(png, sizeof png, "%s/none.png", tmp_dir);
    snprintf(out, sizeof out, "%s/out_%s", tmp_dir, prog);
    remove(png);
    const char *scene = strcmp(prog, "ode_demo") == 0 ? "blade" : "sword_wall";
    const char *args[] = {"--window", "--frames", "5", "--screenshot", png, "--scene", scene, "--trials", "2", "--out", out, NULL};
    assert_int_equal(run_demo(prog, driver, args), 0);
    assert_true(log_has(message));
    assert_true(log_has("HOLDS") || log_has("LEAKS"));
    snprintf(path, sizeof path, "%s/%s", out, csv);
    assert_true(exists(path));
    assert_false(exists(png));
}

/* SDL2 built in, but no video driver that works: headless, said so. */
static void test_no_driver_runs_headless(void **state)
{
    (void)state;
    if (!have_sdl2)
        skip();
    check_headless("chipmunk_demo", "no_such_driver", "cannot open a window", "cp_sword_wall_sector.csv");
    check_headless("ode_demo", "no_such_driver", "cannot open a window", "ode_blade_sector.csv");
}

/* No SDL2 in the build: --window says so and the demos run headless. */
static void test_without_sdl2_runs_headless(void **state)
{
    (void)state;
    if (have_sdl2)
        skip();
    check_headless("chipmunk_demo", "dummy", "needs SDL2", "cp_sword_wall_sector.csv");
    check_headless("ode_demo", "dummy", "needs SDL2", "ode_blade_sector.csv");
}

/* An unwritable screenshot path fails the run (status 1) after the frames. */
static void test_unwritable_screenshot_fails(void **state)
{
    (void)state;
    if (!have_sdl2)
        skip();
    const char *args[] = {"--window", "--frames", "3", "--screenshot", "/nonexistent_dir/x.png", NULL};
    assert_int_equal(run_demo("chipmunk_demo", "dummy", args), 1);
    assert_true(log_has("cannot write the screenshot"));
}

static bool parse(sccd_demo_args *a, const char *const *words)
{
    char *argv[16] = {"demo"};
    int argc = 1;
    while (words[argc - 1] != NULL)
        argv[argc] = (char *)words[argc - 1], ++argc;
    return sccd_demo_parse_args(argc, argv, "demo", a);
}

/* The shared command line: defaults, every option, and what it refuses. */
static void test_parse_args(void **state)
{
    (void)state;
    sccd_demo_args a;
    const char *none[] = {NULL};
    assert_true(parse(&a, none));
    assert_int_equal(a.ccd, SCCD_DEMO_SECTOR);
    assert_int_equal(a.substeps, 1);
    assert_false(a.ccd_given || a.window);
    assert_null(a.scene);
    assert_null(a.screenshot);
    assert_string_equal(a.out, "build/demo");
    assert_int_equal(a.frames, 0);
    assert_int_equal(a.trials, 0);
    assert_true(a.speed == 0.0);

    const char *all[] = {"--ccd=substep:4", "--scene", "bat", "--speed", "12.5", "--trials", "7", "--out", "d",
                         "--window", "--frames", "9", "--screenshot", "s.png", NULL};
    assert_true(parse(&a, all));
    assert_int_equal(a.ccd, SCCD_DEMO_SUBSTEP);
    assert_int_equal(a.substeps, 4);
    assert_true(a.ccd_given && a.window);
    assert_string_equal(a.scene, "bat");
    assert_true(a.speed == 12.5);
    assert_int_equal(a.trials, 7);
    assert_string_equal(a.out, "d");
    assert_int_equal(a.frames, 9);
    assert_string_equal(a.screenshot, "s.png");
    const char *edge[] = {"--speed", "1e5", "--trials", "1000000", "--ccd=substep:10000", NULL};
    assert_true(parse(&a, edge));
    assert_true(a.speed == SCCD_DEMO_MAX_SPEED && a.trials == SCCD_DEMO_MAX_TRIALS);
    assert_int_equal(a.substeps, SCCD_DEMO_MAX_SUBSTEPS);

    const char *bad[][3] = {{"--ccd=fast", NULL}, {"--frames", "0", NULL}, {"--frames", NULL}, {"--speed", "-1", NULL},
                            {"--trials", "0", NULL}, {"--screenshot", NULL}, {"--window=yes", NULL}, {"extra", NULL},
                            {"--speed", "inf", NULL}, {"--speed", "nan", NULL}, {"--speed", "1e400", NULL},
                            {"--speed", "5abc", NULL}, {"--trials", "7x", NULL}, {"--trials", "99999999999", NULL},
                            {"--ccd=substep:2x", NULL}, {"--frames", "10", NULL}, {"--screenshot", "x.png", NULL},
                            {"--speed", "100001", NULL}, {"--trials", "1000001", NULL}};
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY); /* the usage lines go nowhere */
    dup2(null, 2);
    size_t refused = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        refused += !parse(&a, bad[i]);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(null);
    assert_int_equal(refused, sizeof bad / sizeof bad[0]);
}

/* A bad command line exits 2 before any window opens. */
static void test_bad_command_line_exits_2(void **state)
{
    (void)state;
    const char *args[] = {"--window", "--frames", "-3", NULL};
    assert_int_equal(run_demo("chipmunk_demo", "dummy", args), 2);
    assert_int_equal(run_demo("ode_demo", "dummy", args), 2);
    assert_true(log_has("usage: ode_demo"));
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *slash = strrchr(argv[0], '/');
    if (slash != NULL)
        snprintf(bin_dir, sizeof bin_dir, "%.*s", (int)(slash - argv[0]), argv[0]);
    if (mkdtemp(tmp_dir) == NULL || !write_suppressions())
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_args),
        cmocka_unit_test(test_bad_command_line_exits_2),
        cmocka_unit_test(test_chipmunk_window),
        cmocka_unit_test(test_ode_window),
        cmocka_unit_test(test_first_trial_passes_left_only),
        cmocka_unit_test(test_unwritable_screenshot_fails),
        cmocka_unit_test(test_no_driver_runs_headless),
        cmocka_unit_test(test_without_sdl2_runs_headless),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_demo_window: could not remove %s\n", tmp_dir);
    return failed;
}
