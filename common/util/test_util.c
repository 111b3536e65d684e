#include "test_util.h"
#include "bench_util.h" /* sccd_median */

#include <stdio.h>

sccd_rng sccd_rng_make(uint64_t seed) { return (sccd_rng){seed ? seed : 0x9E3779B97F4A7C15ull}; }

uint64_t sccd_rng_next(sccd_rng *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * 0x2545F4914F6CDD1Dull;
}

double sccd_rng_uniform(sccd_rng *g, double lo, double hi)
{
    double u = (double)(sccd_rng_next(g) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

int sccd_rng_int(sccd_rng *g, int n) { return (int)(sccd_rng_next(g) % (uint64_t)n); }

sccd_v2 sccd_rng_unit2(sccd_rng *g)
{
    double a = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    return (sccd_v2){cos(a), sin(a)};
}

sccd_v3 sccd_rng_unit3(sccd_rng *g)
{
    double z = sccd_rng_uniform(g, -1.0, 1.0);
    double a = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    double s = sqrt(sccd_max(0.0, 1.0 - z * z));
    return (sccd_v3){s * cos(a), s * sin(a), z};
}

sccd_quat sccd_rng_quat(sccd_rng *g)
{
    /* Shoemake's uniform random rotation. */
    double u1 = sccd_rng_uniform(g, 0.0, 1.0);
    double u2 = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    double u3 = sccd_rng_uniform(g, 0.0, 2.0 * SCCD_PI);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    return sccd_quat_normalize((sccd_quat){a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)});
}

sccd_v2 sccd_rng_v2(sccd_rng *g, double s) { return (sccd_v2){sccd_rng_uniform(g, -s, s), sccd_rng_uniform(g, -s, s)}; }

sccd_v3 sccd_rng_v3(sccd_rng *g, double s)
{
    return (sccd_v3){sccd_rng_uniform(g, -s, s), sccd_rng_uniform(g, -s, s), sccd_rng_uniform(g, -s, s)};
}

static int assert_count;

static void counting_handler(const char *condition, const char *file, int line)
{
    (void)condition;
    (void)file;
    (void)line;
    ++assert_count;
}

void sccd_test_count_asserts(void) { sccd_set_assert_handler(counting_handler); }
int sccd_test_assert_count(void) { return assert_count; }
void sccd_test_assert_reset(void) { assert_count = 0; }

void sccd_test_batted_ball(sccd_test_batted_fn *run, double wall_y, int *crossed_with, int *crossed_without, int *phases)
{
    *crossed_with = *crossed_without = *phases = 0;
    for (double a0 = -0.6; a0 < -0.05; a0 += 0.05, ++*phases) {
        double with = run(a0, true), without = run(a0, false);
        if (with >= wall_y) {
            printf("batted ball at phase %.2f crossed the wall: y %.3f\n", a0, with);
            ++*crossed_with;
        }
        *crossed_without += without > wall_y;
    }
}

void sccd_test_pushed_ball(sccd_test_pushed_fn *run, double *median, double *worst, double *deepest)
{
    const double speeds[] = {10, 20, 50, 100, 200};
    double errors[30];
    int n = 0;
    *worst = *deepest = 0.0;
    for (int k = 0; k < 5; ++k)
        for (int p = 0; p < 6; ++p) {
            double deep;
            errors[n] = run(speeds[k], (p + 0.5) / 6.0, &deep);
            *worst = fmax(*worst, errors[n++]);
            *deepest = fmax(*deepest, deep);
        }
    *median = sccd_median(errors, n);
}

void sccd_test_flying_setup(const sccd_test_flying *c, double hb, double r, double e, double *bat_angle, sccd_v2 *ball, sccd_v2 *wall, sccd_v2 *n)
{
    const double rho = 1.5, phi = 0.6, lean = asin((hb + r) / rho), dt = 1.0 / 60.0;
    double meet = phi - lean, speed = (1.0 + e) * c->w * rho * cos(lean);
    *bat_angle = meet - c->f * c->w * dt;
    *ball = (sccd_v2){rho * cos(phi), rho * sin(phi)};
    *n = (sccd_v2){-sin(meet), cos(meet)};
    *wall = sccd_v2_add(*ball, sccd_v2_scale(*n, c->far * speed * dt));
}

void sccd_test_flying_ball(sccd_test_flying_fn *run, int *crossed, int *bounced, int *followed, int *cases)
{
    const double speeds[] = {20, 50, 100, 200}, fars[] = {2, 5};
    *crossed = *bounced = *followed = *cases = 0;
    for (int k = 0; k < 4; ++k)
        for (int j = 0; j < 2; ++j)
            for (int p = 0; p < 8; ++p, ++*cases) {
                sccd_test_flying c = {speeds[k], (p + 0.5) / 8.0, fars[j], false, false, false};
                run(&c);
                if (c.crossed)
                    printf("flying ball at %g rad/s, phase %.3f, wall %g steps away: crossed the wall\n", c.w, c.f, c.far);
                *crossed += c.crossed;
                *bounced += c.bounced;
                *followed += c.followed;
            }
}
