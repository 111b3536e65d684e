/* The demos' shared command line (demo_args.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo_args.h"

/* A whole word holding a real in (0, max]; strtod alone would take "5abc",
 * "inf" and overflow, which the engines then abort on. */
static bool positive_real(const char *s, double max, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v > 0.0 && v <= max))
        return false;
    *out = v;
    return true;
}

/* A whole word holding an integer in [1, max]. */
static bool positive_int(const char *s, int max, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < 1 || v > max)
        return false;
    *out = (int)v;
    return true;
}

bool sccd_demo_parse_ccd(const char *s, sccd_demo_ccd *mode, int *substeps)
{
    *substeps = 1;
    if (strcmp(s, "off") == 0)
        *mode = SCCD_DEMO_OFF;
    else if (strcmp(s, "sector") == 0)
        *mode = SCCD_DEMO_SECTOR;
    else if (strcmp(s, "speculative") == 0)
        *mode = SCCD_DEMO_SPECULATIVE;
    else if (strncmp(s, "substep:", 8) == 0 && positive_int(s + 8, SCCD_DEMO_MAX_SUBSTEPS, substeps))
        *mode = SCCD_DEMO_SUBSTEP;
    else
        return false;
    return true;
}

const char *sccd_demo_ccd_name(sccd_demo_ccd mode, int substeps, char *buf, size_t n)
{
    static const char *names[] = {"off", "sector", "speculative", "substep"};
    if (mode == SCCD_DEMO_SUBSTEP)
        snprintf(buf, n, "substep%d", substeps);
    else
        snprintf(buf, n, "%s", names[mode]);
    return buf;
}

static void demo_usage(const char *name)
{
    fprintf(stderr,
            "usage: %s [--ccd=off|sector|speculative|substep:N] [--scene NAME] [--speed RAD_S] [--trials N]\n"
            "       %*s [--out DIR] [--window [--frames N] [--screenshot PATH]]\n",
            name, (int)strlen(name), "");
}

/* The value after option argv[*i], or NULL when it is the last word. */
static const char *demo_value(int argc, char **argv, int *i)
{
    return *i + 1 < argc ? argv[++*i] : NULL;
}

/* One option (argv[*i], its value consumed); false when unknown or malformed. */
static bool demo_option(int argc, char **argv, int *i, sccd_demo_args *a)
{
    const char *o = argv[*i], *v;
    if (strncmp(o, "--ccd=", 6) == 0)
        return a->ccd_given = sccd_demo_parse_ccd(o + 6, &a->ccd, &a->substeps);
    if (strcmp(o, "--window") == 0)
        return a->window = true;
    if (strcmp(o, "--scene") == 0 && (v = demo_value(argc, argv, i)) != NULL)
        return (a->scene = v) != NULL;
    if (strcmp(o, "--speed") == 0 && (v = demo_value(argc, argv, i)) != NULL)
        return positive_real(v, SCCD_DEMO_MAX_SPEED, &a->speed);
    if (strcmp(o, "--trials") == 0 && (v = demo_value(argc, argv, i)) != NULL)
        return positive_int(v, SCCD_DEMO_MAX_TRIALS, &a->trials);
    if (strcmp(o, "--out") == 0 && (v = demo_value(argc, argv, i)) != NULL)
        return (a->out = v) != NULL;
    if (strcmp(o, "--frames") == 0 && (v = demo_value(argc, argv, i)) != NULL)
        return positive_int(v, INT32_MAX, &a->frames);
    if (strcmp(o, "--screenshot") == 0 && (v = demo_value(argc, argv, i)) != NULL)
        return (a->screenshot = v) != NULL;
    return false;
}

bool sccd_demo_parse_args(int argc, char **argv, const char *name, sccd_demo_args *a)
{
    *a = (sccd_demo_args){.ccd = SCCD_DEMO_SECTOR, .substeps = 1, .out = "build/demo"};
    for (int i = 1; i < argc; ++i)
        if (!demo_option(argc, argv, &i, a)) {
            demo_usage(name);
            return false;
        }
    if (!a->window && (a->frames > 0 || a->screenshot != NULL)) {
        fprintf(stderr, "%s: --frames and --screenshot belong to --window\n", name);
        demo_usage(name);
        return false;
    }
    return true;
}

int sccd_demo_choose_scenes(const char *want, int count, const char *(*name)(int i), int *out, const char *prog)
{
    int n = 0;
    for (int i = 0; i < count; ++i)
        if (want == NULL || strcmp(want, name(i)) == 0)
            out[n++] = i;
    if (n == 0)
        fprintf(stderr, "%s: no scene named %s\n", prog, want);
    return n;
}
