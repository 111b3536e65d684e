#include "eval_util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void usage_exit(const char *usage)
{
    fprintf(stderr, "usage: %s\n", usage);
    exit(2);
}

sccd_eval_args sccd_eval_parse(int argc, char **argv, const char *usage)
{
    sccd_eval_args a = {0, "build/bench", 0, 2, NULL};
    for (int i = 1; i < argc; ++i) {
        const char *s = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(s, "--quick") == 0)
            a.quick = 1;
        else if (strcmp(s, "--out") == 0 && has_value)
            a.out = argv[++i];
        else if (strcmp(s, "--trials") == 0 && has_value)
            a.trials = atol(argv[++i]);
        else if (strcmp(s, "--threads") == 0 && has_value)
            a.threads = atoi(argv[++i]);
        else if (strcmp(s, "--callgrind") == 0 && has_value)
            a.only = argv[++i];
        else
            usage_exit(usage);
    }
    if (a.threads < 1)
        a.threads = 1;
    return a;
}

FILE *sccd_eval_open(const sccd_eval_args *a, const char *name)
{
    if (mkdir(a->out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench: cannot create %s\n", a->out);
        exit(1);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", a->out, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench: cannot write %s\n", path);
        exit(1);
    }
    return f;
}

double sccd_eval_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

uint64_t sccd_eval_seed(uint64_t base, uint64_t i)
{
    uint64_t z = base + 0x9e3779b97f4a7c15ULL * (i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static sccd_quat quat_from_to(sccd_v3 from, sccd_v3 to)
{
    sccd_v3 axis = sccd_v3_cross(from, to);
    sccd_real s = sccd_v3_len(axis), c = sccd_v3_dot(from, to);
    if (s < 1e-12)
        return c > 0.0 ? sccd_quat_identity() : sccd_quat_axis_angle((sccd_v3){1.0, 0.0, 0.0}, SCCD_PI);
    return sccd_quat_axis_angle(sccd_v3_scale(axis, 1.0 / s), atan2(s, c));
}

static sccd_v3 draw_sizes(sccd_rng *g)
{
    return (sccd_v3){sccd_rng_uniform(g, 0.0, 25.0), sccd_rng_uniform(g, 0.0, 25.0), sccd_rng_uniform(g, 0.0, 25.0)};
}

sccd_eval_turn sccd_eval_thesis_turn(sccd_rng *g)
{
    sccd_eval_turn t = {0};
    t.axis = sccd_rng_unit3(g);
    /* local z onto the axis, then a random turn about it (local y ⟂ axis, uniform) */
    sccd_quat q = quat_from_to((sccd_v3){0.0, 0.0, 1.0}, t.axis);
    q = sccd_quat_normalize(sccd_quat_mul(sccd_quat_axis_angle(t.axis, sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI)), q));
    sccd_v3 w = draw_sizes(g);
    sccd_real d = sccd_rng_uniform(g, 12.5, 25.0);
    t.alpha = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    t.box = (sccd_box3){sccd_v3_scale(sccd_quat_apply(q, (sccd_v3){0.0, 1.0, 0.0}), d), q, sccd_v3_scale(w, 0.5)};
    return t;
}

sccd_eval_turn sccd_eval_free_turn(sccd_rng *g)
{
    sccd_eval_turn t = {0};
    t.axis = sccd_rng_unit3(g);
    sccd_v3 w = draw_sizes(g);
    sccd_v3 c = sccd_v3_scale(sccd_rng_unit3(g), sccd_rng_uniform(g, 0.0, 25.0));
    t.alpha = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    t.box = (sccd_box3){c, sccd_rng_quat(g), sccd_v3_scale(w, 0.5)};
    return t;
}

sccd_box3 sccd_eval_turned_box(const sccd_eval_turn *t, sccd_real tau)
{
    sccd_quat r = sccd_quat_axis_angle(t->axis, tau);
    sccd_box3 b = t->box;
    b.c = sccd_v3_add(t->pivot, sccd_quat_apply(r, sccd_v3_sub(b.c, t->pivot)));
    b.q = sccd_quat_normalize(sccd_quat_mul(r, b.q));
    return b;
}

sccd_motion3 sccd_eval_turn_motion(const sccd_eval_turn *t)
{
    sccd_v3 center = sccd_quat_inv_apply(t->box.q, sccd_v3_sub(t->pivot, t->box.c));
    return (sccd_motion3){{t->box.c, t->box.q}, center, {0.0, 0.0, 0.0}, t->axis, t->alpha};
}
