/* Time of impact by conservative advancement (toi.h).
 *
 * The bounds, derived here (the proof the TOI's safety rests on).
 * A body turning about its motion centre c(t) = c0 + t·dp with angular
 * velocity ω (2D: θ·ẑ, 3D: angle·axis; per unit of t) moves a point x at
 *     x'(t) = dp + ω × (x − c),   |ω × (x − c)| ≤ |ω|·ρ,
 * ρ = the farthest distance of the shape from its centre (rounding included).
 * Fix the unit normal n (A to B) of the closest points at time t0 and the gap
 *     g(t) = min_{y ∈ B(t)} n·y − max_{x ∈ A(t)} n·x  ≤  distance(t)
 * (the gap along any fixed direction is a lower bound of the distance). For
 * one point, n·x'(t) = n·dp + (x − c)·v with v = n × ω (2D: θ·(n.y, −n.x)),
 * and |d/dt of that| = |v·(ω × (x − c))| ≤ |v|·|ω|·ρ =: κ. Five bounds
 * follow, each a proof for every advance Δ ≥ 0:
 *
 *   linear:  g(t0 + Δ) ≥ g(t0) − Δ·μ,   μ = n·(dpA − dpB) + |vA|·ρA + |vB|·ρB.
 *
 *   tilted:  Taylor with the remainder bound per point,
 *            n·x(t0 + Δ) ≤ n·x + Δ·(n·dpA + (x − cA)·vA) + ½Δ²κA, and the
 *            maximum over x of the first two terms is a support value of
 *            A(t0) in the tilted direction n + Δ·vA; for B the minimum alike:
 *     g(t0 + Δ) ≥ −hB(−n − Δ·vB) − hA(n + Δ·vA) + Δ·(vA·cA − vB·cB)
 *                 − Δ·n·(dpA − dpB) − ½Δ²·(κA + κB)   =: G(Δ),
 *            h the support function (convex), so G is concave with
 *            G(0) = g(t0). Its slope at 0 is the true approach rate of the
 *            supporting points (not of the farthest point), which makes the
 *            advance close to a Newton step near contact: the tight bound for
 *            spinning bodies.
 *
 *   attached: the same with n turning with body A (n_A(t0) = n; the gap
 *            along n_A(t) still bounds the distance at each t). A's
 *            support along n_A stays hA(n), so A's spin no longer acts
 *            through A's whole extent (a long face turning at its far end)
 *            but on B's points, about cA: for y ∈ B, f(t) = n_A·(y − cA) has
 *            f' = n_A·(dpB − dpA + ωB × (y − cB) − ωA × (y − cA)), hence
 *     g(t0 + Δ) ≥ −hB(−n − Δ·(vB − vA)) − hA(n) + Δ·(vA·cA − vB·cB)
 *                 − Δ·n·(dpA − dpB) − ½Δ²·K(Δ),
 *            |f''| ≤ |ωA|·(2(|dpA − dpB| + |ωB|ρB) + |ωA|·R) + |ωB|²ρB =: K,
 *            R = |cB − cA| + ρB + Δ·|dpA − dpB| ≥ |y − cA| over the advance:
 *            K grows linearly in Δ, so the bound is still concave. With n
 *            turning with B instead, the roles swap: hA(n + Δ·(vA − vB)),
 *            hB(−n). All three (world, A, B) share one form, G with tilts
 *            (tA, tB) = (vA, vB), (0, vB − vA) or (vA − vB, 0).
 *
 *   chord:   a point turned by φ about an axis at distance ≤ ρ moves by
 *            2ρ·sin(φ/2) ≤ 2ρ, whatever the number of turns:
 *     g(t0 + Δ) ≥ g(t0) − Δ·max(0, n·(dpA − dpB)) − Σ 2ρ·sin(min(|ω|Δ, π)/2),
 *            falling monotonically in Δ: the bound for long advances (a
 *            spinning body far away stays provably clear).
 *
 *   envelope: A(t) lies in the disc (ball) of radius ρA about cA(t), so
 *            distance(t) ≥ dist(cA(t), B(t)) − ρA, and the distance of the
 *            point cA(t) to B(t) changes at most at |dpA − dpB| + |ωB|·ρB:
 *     distance(t0 + Δ) ≥ dist(cA, B) − ρA − Δ·(|dpA − dpB| + |ωB|·ρB),
 *            free of A's spin: a blade turning many times near a wall just
 *            out of its reach is cleared in one step. Likewise with A and B
 *            swapped. dist(cA, B) is taken as the gap along GJK's normal
 *            (a lower bound whatever GJK's accuracy), like g(t0) above.
 *
 * Each right-hand side starts above the target and is linear, concave or
 * monotone, so it stays above the target up to its first crossing; the
 * advance is the largest of the crossings, each accepted only where the
 * bound was evaluated to be above the target. */
#include "sectorccd/toi.h"
#include "unchecked.h"

/* A lower bound of the gap minus target after an advance dt (concave in dt). */
typedef sccd_real gap_bound_fn(const void *ctx, sccd_real dt);

/* The motion of both bodies seen along the normal n at t0 (see the top). */
typedef struct approach {
    sccd_real gap;            /* g(t0) − target, > 0 */
    sccd_real mu;             /* linear rate bound */
    sccd_real tau;            /* n·(dpA − dpB) */
    sccd_real wa, ra, wb, rb; /* |ω| and ρ of both bodies */
    gap_bound_fn *tilted;     /* G(dt) − target for one frame of n */
    const void *frames[3];    /* its contexts: world, attached to A, to B */
    int nframes;
} approach;

/* K(Δ) = k0 + k1·Δ of the tilted bounds (see the top). */
typedef struct kappa { sccd_real k0, k1; } kappa;

/* K with n turning with the frame body f (spin wf) against the other body o
 * (spin wo, extent ro); dp = |dpA − dpB|, dist = |cA − cB| at t0. */
static kappa attached_kappa(sccd_real wf, sccd_real wo, sccd_real ro, sccd_real dp, sccd_real dist)
{
    return (kappa){wf * (2.0 * (dp + wo * ro) + wf * (dist + ro)) + wo * wo * ro, wf * wf * dp};
}

/* Distance a point at most rho from its axis moves when turned by phi ≥ 0. */
static sccd_real chord(sccd_real rho, sccd_real phi) { return phi >= SCCD_PI ? 2.0 * rho : 2.0 * rho * sin(0.5 * phi); }

/* The chord bound's gap minus target after an advance dt (falls with dt). */
static sccd_real chord_gap(const void *ctx, sccd_real dt)
{
    const approach *p = ctx;
    return p->gap - sccd_max(p->tau, 0.0) * dt - chord(p->ra, p->wa * dt) - chord(p->rb, p->wb * dt);
}

/* Largest advance in [from, rest] found where f ≥ 0, for f > 0 at 0 and
 * concave or falling; from when f(from) < 0 (no gain over an advance already
 * proven). Alternates a chord root (for concave f the chord lies below f, so
 * the root is a safe advance) with bisection; each accepted point has been
 * evaluated ≥ 0, which with concavity or monotonicity covers [0, it]. */
static sccd_real largest_safe(gap_bound_fn *f, const void *ctx, sccd_real from, sccd_real rest)
{
    sccd_real lo = from, flo = f(ctx, from);
    if (flo < 0.0)
        return from;
    sccd_real fhi = f(ctx, rest), hi = rest;
    if (fhi >= 0.0)
        return rest;
    for (int i = 0; i < 12 && hi - lo > 1e-3 * lo; ++i) {
        sccd_real m = lo + (hi - lo) * flo / (flo - fhi);
        sccd_real fm = f(ctx, m);
        if (fm >= 0.0)
            lo = m, flo = fm;
        else
            hi = m, fhi = fm;
        m = 0.5 * (lo + hi);
        fm = f(ctx, m);
        if (fm >= 0.0)
            lo = m, flo = fm;
        else
            hi = m, fhi = fm;
    }
    return lo;
}

/* The safe advance from a gap above target: the best of the three bounds.
 * The chord bound is tried only when the step so far turns a body by more
 * than a radian, where it can beat the others. */
static sccd_real safe_step(const approach *p, sccd_real rest)
{
    sccd_real step = p->mu > 0.0 ? p->gap / p->mu : INFINITY;
    for (int i = 0; i < p->nframes && step < rest; ++i)
        step = largest_safe(p->tilted, p->frames[i], step, rest);
    if (step < rest && (p->wa + p->wb) * step > 1.0)
        step = largest_safe(chord_gap, p, step, rest);
    return step;
}

/* Whether an evaluation at t ends the search: within target + tolerance (a
 * hit; an overlap at t = 0 is OVERLAPPED). */
static bool reached(bool overlap, sccd_real distance, sccd_real t, sccd_real target, sccd_real tolerance,
                    sccd_toi_state *state)
{
    if (!overlap && distance > target + tolerance)
        return false;
    *state = overlap && t == 0.0 ? SCCD_TOI_OVERLAPPED : SCCD_TOI_HIT;
    return true;
}

/* Advances *t by a proven step; false when the search ends: SEPARATED (the
 * step covers the rest of [0, 1]; *t = 1) or FAILED (no provable progress:
 * GJK at its precision; *t stays safe). */
static bool advance(sccd_real *t, sccd_real step, sccd_toi_state *state)
{
    if (!(step > 0.0)) {
        *state = SCCD_TOI_FAILED;
        return false;
    }
    if (step >= 1.0 - *t) {
        *state = SCCD_TOI_SEPARATED;
        *t = 1.0;
        return false;
    }
    *t += step;
    return true;
}

static bool valid_tolerances(sccd_real target, sccd_real tolerance)
{
    return sccd_is_valid_real(target) && target >= 0.0 && sccd_is_valid_real(tolerance) && tolerance > 0.0;
}

/* The envelope bound's advance from a lower bound of a point's distance. */
static sccd_real envelope_step(sccd_real point_distance, sccd_real rho, sccd_real rate, sccd_real target)
{
    sccd_real gap = point_distance - rho - target;
    if (!(gap > 0.0))
        return 0.0;
    return rate > 0.0 ? gap / rate : INFINITY;
}

/* ---- 2D ---- */

/* A lower bound of the distance from point p to a shape: the gap along
 * GJK's normal from p. */
static sccd_real point_gap2(sccd_v2 p, const sccd_proxy2 *s)
{
    sccd_proxy2 pp = {{p}, 1, 0.0};
    sccd_v2 n = sccd_proxy2_distance_unchecked(&pp, s).normal;
    return -sccd_proxy2_support_value(s, sccd_v2_neg(n)) - sccd_v2_dot(n, p);
}

/* The better envelope advance: A's disc against B, or B's disc against A. */
static sccd_real envelopes2(const sccd_proxy2 *a, sccd_v2 ca, sccd_real ra, sccd_real wa, const sccd_proxy2 *b,
                            sccd_v2 cb, sccd_real rb, sccd_real wb, sccd_real dp, sccd_real target)
{
    sccd_real sa = envelope_step(point_gap2(ca, b), ra, dp + wb * rb, target);
    sccd_real sb = envelope_step(point_gap2(cb, a), rb, dp + wa * ra, target);
    return sccd_max(sa, sb);
}

/* Both bodies at t0 in a frame centred on A's motion centre (so cA = 0). */
typedef struct tilt2 {
    sccd_proxy2 a, b;
    sccd_v2 n, vb, cb, ta, tb; /* normal, n × ωB, B's centre, the tilts */
    sccd_real tau, target;
    kappa k;
} tilt2;

static sccd_real tilted_gap2(const void *ctx, sccd_real dt)
{
    const tilt2 *k = ctx;
    sccd_real ha = sccd_proxy2_support_value(&k->a, sccd_v2_mad(k->n, dt, k->ta));
    sccd_real hb = sccd_proxy2_support_value(&k->b, sccd_v2_neg(sccd_v2_mad(k->n, dt, k->tb)));
    return -hb - ha - dt * sccd_v2_dot(k->vb, k->cb) - dt * k->tau - 0.5 * dt * dt * (k->k.k0 + k->k.k1 * dt) -
           k->target;
}

/* The frames of n worth trying: the world always, a body's own only when
 * it turns (else it is the world's). */
static int tilt2_frames(const tilt2 *k, sccd_v2 va, sccd_real wa, sccd_real ra, sccd_real wb, sccd_real rb,
                        sccd_real dp, tilt2 out[3])
{
    sccd_real dist = sccd_v2_len(k->cb);
    int n = 0;
    out[n] = *k;
    out[n].ta = va;
    out[n].tb = k->vb;
    out[n++].k = (kappa){wa * wa * ra + wb * wb * rb, 0.0};
    if (wa > 0.0) {
        out[n] = *k;
        out[n].ta = (sccd_v2){0.0, 0.0};
        out[n].tb = sccd_v2_sub(k->vb, va);
        out[n++].k = attached_kappa(wa, wb, rb, dp, dist);
    }
    if (wb > 0.0) {
        out[n] = *k;
        out[n].ta = sccd_v2_sub(va, k->vb);
        out[n].tb = (sccd_v2){0.0, 0.0};
        out[n++].k = attached_kappa(wb, wa, ra, dp, dist);
    }
    return n;
}

static sccd_proxy2 proxy2_at(const sccd_shape2 *s, sccd_motion2 m, sccd_real t, sccd_v2 origin)
{
    sccd_xf2 xf = sccd_motion2_at_unchecked(m, t);
    xf.p = sccd_v2_sub(xf.p, origin);
    return sccd_proxy2_make_unchecked(s, xf);
}

/* n × ω for ω = θ·ẑ: a vector in the plane. */
static sccd_v2 n_cross_w2(sccd_v2 n, sccd_real theta) { return (sccd_v2){theta * n.y, -theta * n.x}; }

sccd_toi2 sccd_toi2_compute(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                            sccd_real target, sccd_real tolerance)
{
    sccd_toi2 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0}, SCCD_FALLBACK_V2, 0};
    bool ok = sccd_is_valid_shape2(a) && sccd_is_valid_shape2(b) && sccd_is_valid_motion2(ma) &&
              sccd_is_valid_motion2(mb) && valid_tolerances(target, tolerance);
    if (!ok) {
        SCCD_ASSERT(ok);
        return out;
    }
    return sccd_toi2_compute_unchecked(a, ma, b, mb, target, tolerance);
}

sccd_toi2 sccd_toi2_compute_unchecked(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                      sccd_real target, sccd_real tolerance)
{
    sccd_toi2 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0}, SCCD_FALLBACK_V2, 0};
    sccd_real rho_a = sccd_shape2_farthest_unchecked(a, ma.center), rho_b = sccd_shape2_farthest_unchecked(b, mb.center);
    sccd_real wa = fabs(ma.dtheta), wb = fabs(mb.dtheta);
    sccd_v2 dp = sccd_v2_sub(ma.dp, mb.dp);
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v2 o = sccd_motion2_center_at(ma, t);
        tilt2 k = {proxy2_at(a, ma, t, o), proxy2_at(b, mb, t, o)};
        sccd_distance2 d = sccd_proxy2_distance_unchecked(&k.a, &k.b);
        out.t = t;
        out.point = sccd_v2_add(o, sccd_v2_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (reached(d.overlap, d.distance, t, target, tolerance, &out.state))
            return out;
        k.n = d.normal;
        sccd_v2 va = n_cross_w2(k.n, ma.dtheta);
        k.vb = n_cross_w2(k.n, mb.dtheta);
        k.cb = sccd_v2_sub(sccd_motion2_center_at(mb, t), o);
        k.tau = sccd_v2_dot(k.n, dp);
        k.target = target;
        tilt2 frames[3];
        int nframes = tilt2_frames(&k, va, wa, rho_a, wb, rho_b, sccd_v2_len(dp), frames);
        approach p = {tilted_gap2(&frames[0], 0.0), k.tau + wa * rho_a + wb * rho_b, k.tau, wa, rho_a, wb, rho_b,
                      tilted_gap2, {&frames[0], &frames[1], &frames[2]}, nframes};
        sccd_real step = p.gap > 0.0 ? safe_step(&p, 1.0 - t) : 0.0;
        if (step < 1.0 - t && wa + wb > 0.0)
            step = sccd_max(step, envelopes2(&k.a, (sccd_v2){0.0, 0.0}, rho_a, wa, &k.b, k.cb, rho_b, wb,
                                             sccd_v2_len(dp), target));
        if (!advance(&t, step, &out.state)) {
            out.t = t;
            return out;
        }
    }
    return out; /* the iteration cap: FAILED at the last safe t */
}

/* ---- 3D ---- */

static sccd_real point_gap3(sccd_v3 p, const sccd_proxy3 *s)
{
    sccd_proxy3 pp = {{p}, 1, 0.0};
    sccd_v3 n = sccd_proxy3_distance_unchecked(&pp, s).normal;
    return -sccd_proxy3_support_value(s, sccd_v3_neg(n)) - sccd_v3_dot(n, p);
}

static sccd_real envelopes3(const sccd_proxy3 *a, sccd_v3 ca, sccd_real ra, sccd_real wa, const sccd_proxy3 *b,
                            sccd_v3 cb, sccd_real rb, sccd_real wb, sccd_real dp, sccd_real target)
{
    sccd_real sa = envelope_step(point_gap3(ca, b), ra, dp + wb * rb, target);
    sccd_real sb = envelope_step(point_gap3(cb, a), rb, dp + wa * ra, target);
    return sccd_max(sa, sb);
}

typedef struct tilt3 {
    sccd_proxy3 a, b;
    sccd_v3 n, vb, cb, ta, tb;
    sccd_real tau, target;
    kappa k;
} tilt3;

static sccd_real tilted_gap3(const void *ctx, sccd_real dt)
{
    const tilt3 *k = ctx;
    sccd_real ha = sccd_proxy3_support_value(&k->a, sccd_v3_mad(k->n, dt, k->ta));
    sccd_real hb = sccd_proxy3_support_value(&k->b, sccd_v3_neg(sccd_v3_mad(k->n, dt, k->tb)));
    return -hb - ha - dt * sccd_v3_dot(k->vb, k->cb) - dt * k->tau - 0.5 * dt * dt * (k->k.k0 + k->k.k1 * dt) -
           k->target;
}

static int tilt3_frames(const tilt3 *k, sccd_v3 va, sccd_real wa, sccd_real ra, sccd_real wb, sccd_real rb,
                        sccd_real dp, tilt3 out[3])
{
    sccd_real dist = sccd_v3_len(k->cb);
    int n = 0;
    out[n] = *k;
    out[n].ta = va;
    out[n].tb = k->vb;
    out[n++].k = (kappa){sccd_v3_len(va) * wa * ra + sccd_v3_len(k->vb) * wb * rb, 0.0};
    if (wa > 0.0) {
        out[n] = *k;
        out[n].ta = (sccd_v3){0.0, 0.0, 0.0};
        out[n].tb = sccd_v3_sub(k->vb, va);
        out[n++].k = attached_kappa(wa, wb, rb, dp, dist);
    }
    if (wb > 0.0) {
        out[n] = *k;
        out[n].ta = sccd_v3_sub(va, k->vb);
        out[n].tb = (sccd_v3){0.0, 0.0, 0.0};
        out[n++].k = attached_kappa(wb, wa, ra, dp, dist);
    }
    return n;
}

static sccd_proxy3 proxy3_at(const sccd_shape3 *s, sccd_motion3 m, sccd_real t, sccd_v3 origin)
{
    sccd_xf3 xf = sccd_motion3_at_unchecked(m, t);
    xf.p = sccd_v3_sub(xf.p, origin);
    return sccd_proxy3_make_unchecked(s, xf);
}

sccd_toi3 sccd_toi3_compute(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                            sccd_real target, sccd_real tolerance)
{
    sccd_toi3 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    bool ok = sccd_is_valid_shape3(a) && sccd_is_valid_shape3(b) && sccd_is_valid_motion3(ma) &&
              sccd_is_valid_motion3(mb) && valid_tolerances(target, tolerance);
    if (!ok) {
        SCCD_ASSERT(ok);
        return out;
    }
    return sccd_toi3_compute_unchecked(a, ma, b, mb, target, tolerance);
}

sccd_toi3 sccd_toi3_compute_unchecked(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                                      sccd_real target, sccd_real tolerance)
{
    sccd_toi3 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    sccd_real rho_a = sccd_shape3_farthest_unchecked(a, ma.center), rho_b = sccd_shape3_farthest_unchecked(b, mb.center);
    sccd_v3 omega_a = sccd_v3_scale(ma.axis, ma.angle), omega_b = sccd_v3_scale(mb.axis, mb.angle);
    sccd_real wa = fabs(ma.angle), wb = fabs(mb.angle);
    sccd_v3 dp = sccd_v3_sub(ma.dp, mb.dp);
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v3 o = sccd_motion3_center_at(ma, t);
        tilt3 k = {proxy3_at(a, ma, t, o), proxy3_at(b, mb, t, o)};
        sccd_distance3 d = sccd_proxy3_distance_unchecked(&k.a, &k.b);
        out.t = t;
        out.point = sccd_v3_add(o, sccd_v3_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (reached(d.overlap, d.distance, t, target, tolerance, &out.state))
            return out;
        k.n = d.normal;
        sccd_v3 va = sccd_v3_cross(k.n, omega_a);
        k.vb = sccd_v3_cross(k.n, omega_b);
        k.cb = sccd_v3_sub(sccd_motion3_center_at(mb, t), o);
        k.tau = sccd_v3_dot(k.n, dp);
        k.target = target;
        tilt3 frames[3];
        int nframes = tilt3_frames(&k, va, wa, rho_a, wb, rho_b, sccd_v3_len(dp), frames);
        sccd_real mu = k.tau + sccd_v3_len(va) * rho_a + sccd_v3_len(k.vb) * rho_b;
        approach p = {tilted_gap3(&frames[0], 0.0), mu, k.tau, wa, rho_a, wb, rho_b, tilted_gap3,
                      {&frames[0], &frames[1], &frames[2]}, nframes};
        sccd_real step = p.gap > 0.0 ? safe_step(&p, 1.0 - t) : 0.0;
        if (step < 1.0 - t && wa + wb > 0.0)
            step = sccd_max(step, envelopes3(&k.a, (sccd_v3){0.0, 0.0, 0.0}, rho_a, wa, &k.b, k.cb, rho_b, wb,
                                             sccd_v3_len(dp), target));
        if (!advance(&t, step, &out.state)) {
            out.t = t;
            return out;
        }
    }
    return out; /* the iteration cap: FAILED at the last safe t */
}
