/* Brute force of a ball pushed along a turning bat (push_oracle.h): the
 * way a sub-stepped engine follows a held contact, at steps far finer than
 * any engine's, written apart from the impact solvers. */
#include <math.h>

#include "push_oracle.h"

/* One sub-step's contact, if the ball overlaps the bat (angle a, spin w):
 * the inelastic impulse along the normal, then friction up to μ times it
 * against the contact point's slip (the spin taking its share), then the
 * overlap pushed out along the normal. */
static void contact(const sccd_push_scene *s, double a, double w, sccd_v2 *p, sccd_v2 *v, double *spin)
{
    double c = cos(a), sn = sin(a);
    sccd_v2 local = {c * p->x + sn * p->y, -sn * p->x + c * p->y}; /* the centre in the bat's frame */
    sccd_v2 near = {fmin(fmax(local.x, 0.0), s->len), 0.0};
    sccd_v2 d = {local.x - near.x, local.y - near.y};
    double dist = hypot(d.x, d.y);
    if (dist >= s->r + s->half || dist == 0.0)
        return;
    sccd_v2 n = {(c * d.x - sn * d.y) / dist, (sn * d.x + c * d.y) / dist}; /* world, bat to ball */
    sccd_v2 q = {p->x - s->r * n.x, p->y - s->r * n.y};                   /* the contact point */
    sccd_v2 bat = {-w * q.y, w * q.x}, arm = {q.x - p->x, q.y - p->y}, t = {-n.y, n.x};
    double vn = (v->x - *spin * arm.y - bat.x) * n.x + (v->y + *spin * arm.x - bat.y) * n.y;
    if (vn < 0.0) {
        double jn = -vn; /* mass 1; the arm is along n: no spin from it */
        v->x += jn * n.x;
        v->y += jn * n.y;
        double vt = (v->x - *spin * arm.y - bat.x) * t.x + (v->y + *spin * arm.x - bat.y) * t.y;
        double cross = arm.x * t.y - arm.y * t.x, k = 1.0 + cross * cross / s->inertia;
        double jt = fmin(fmax(-vt / k, -s->friction * jn), s->friction * jn);
        v->x += jt * t.x;
        v->y += jt * t.y;
        *spin += cross * jt / s->inertia;
    }
    double out = s->r + s->half - dist;
    p->x += out * n.x;
    p->y += out * n.y;
}

void sccd_push_oracle(const sccd_push_scene *s, double t_end, sccd_v2 *p, sccd_v2 *v)
{
    double h = s->w != 0.0 ? 1e-4 / fabs(s->w) : 1e-5, spin = 0.0;
    *p = s->p;
    *v = s->v;
    for (double t = 0.0; t < t_end;) {
        double step = fmin(h, t_end - t), moving = fmin(t, s->stop);
        contact(s, s->angle + s->w * moving, t < s->stop ? s->w : 0.0, p, v, &spin);
        p->x += v->x * step;
        p->y += v->y * step;
        t += step;
    }
}
