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
 * and |d/dt of that| = |v·(ω × (x − c))| ≤ |v|·|ω|·ρ =: κ. Three bounds
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
 *            swapped. The point distance is GJK's (an upper bound within its
 *            1e-13 relative termination), so it is shrunk by 1e-12 first.
 *
 * Each right-hand side starts above the target and is linear, concave or
 * monotone, so it stays above the target up to its first crossing; the
 * advance is the largest of the three crossings, each accepted only where
 * the bound was evaluated to be above the target. */
#include "sectorccd/toi.h"

/* A lower bound of the gap minus target after an advance dt (concave in dt). */
typedef sccd_real gap_bound_fn(const void *ctx, sccd_real dt);

/* The motion of both bodies seen along the normal n at t0 (see the top). */
typedef struct approach {
    sccd_real gap;            /* g(t0) − target, > 0 */
    sccd_real mu;             /* linear rate bound */
    sccd_real tau;            /* n·(dpA − dpB) */
    sccd_real wa, ra, wb, rb; /* |ω| and ρ of both bodies */
    gap_bound_fn *tilted;     /* G(dt) − target */
    const void *ctx;
} approach;

/* Distance a point at most rho from its axis moves when turned by phi ≥ 0. */
static sccd_real chord(sccd_real rho, sccd_real phi) { return phi >= SCCD_PI ? 2.0 * rho : 2.0 * rho * sin(0.5 * phi); }

/* The chord bound's gap minus target after an advance dt (falls with dt). */
static sccd_real chord_gap(const void *ctx, sccd_real dt)
{
    const approach *p = ctx;
    return p->gap - sccd_max(p->tau, 0.0) * dt - chord(p->ra, p->wa * dt) - chord(p->rb, p->wb * dt);
}

/* Largest advance ≤ rest found where f ≥ 0, for f ≥ 0 at 0 and concave or
 * falling. Alternates a chord root (for concave f the chord lies below f, so
 * the root is a safe advance) with bisection; each accepted point has been
 * evaluated ≥ 0, which with concavity or monotonicity covers [0, it]. */
static sccd_real largest_safe(gap_bound_fn *f, const void *ctx, sccd_real rest)
{
    sccd_real fhi = f(ctx, rest);
    if (fhi >= 0.0)
        return rest;
    sccd_real lo = 0.0, flo = f(ctx, 0.0), hi = rest;
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
    if (step < rest)
        step = sccd_max(step, largest_safe(p->tilted, p->ctx, rest));
    if (step < rest && (p->wa + p->wb) * step > 1.0)
        step = sccd_max(step, largest_safe(chord_gap, p, rest));
    return step;
}

static bool valid_tolerances(sccd_real target, sccd_real tolerance)
{
    return sccd_is_valid_real(target) && target >= 0.0 && sccd_is_valid_real(tolerance) && tolerance > 0.0;
}

/* The envelope bound's advance from a point distance (see the top). */
static sccd_real envelope_step(sccd_real point_distance, sccd_real rho, sccd_real rate, sccd_real target)
{
    sccd_real gap = point_distance * (1.0 - 1e-12) - rho - target;
    if (!(gap > 0.0))
        return 0.0;
    return rate > 0.0 ? gap / rate : INFINITY;
}

/* ---- 2D ---- */

/* The better envelope advance: A's disc against B, or B's disc against A. */
static sccd_real envelopes2(const sccd_proxy2 *a, sccd_v2 ca, sccd_real ra, sccd_real wa, const sccd_proxy2 *b,
                            sccd_v2 cb, sccd_real rb, sccd_real wb, sccd_real dp, sccd_real target)
{
    sccd_proxy2 pa = {{ca}, 1, 0.0}, pb = {{cb}, 1, 0.0};
    sccd_real sa = envelope_step(sccd_proxy2_distance(&pa, b).distance, ra, dp + wb * rb, target);
    sccd_real sb = envelope_step(sccd_proxy2_distance(&pb, a).distance, rb, dp + wa * ra, target);
    return sccd_max(sa, sb);
}

/* Both bodies at t0 in a frame centred on A's motion centre (so cA = 0). */
typedef struct tilt2 {
    sccd_proxy2 a, b;
    sccd_v2 n, va, vb, cb; /* normal, n × ω of each body, B's centre */
    sccd_real tau, kappa, target;
} tilt2;

static sccd_real tilted_gap2(const void *ctx, sccd_real dt)
{
    const tilt2 *k = ctx;
    sccd_real ha = sccd_proxy2_support_value(&k->a, sccd_v2_mad(k->n, dt, k->va));
    sccd_real hb = sccd_proxy2_support_value(&k->b, sccd_v2_neg(sccd_v2_mad(k->n, dt, k->vb)));
    return -hb - ha - dt * sccd_v2_dot(k->vb, k->cb) - dt * k->tau - 0.5 * dt * dt * k->kappa - k->target;
}

static sccd_proxy2 proxy2_at(const sccd_shape2 *s, sccd_motion2 m, sccd_real t, sccd_v2 origin)
{
    sccd_xf2 xf = sccd_motion2_at(m, t);
    xf.p = sccd_v2_sub(xf.p, origin);
    return sccd_proxy2_make(s, xf);
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
    sccd_real rho_a = sccd_shape2_farthest(a, ma.center), rho_b = sccd_shape2_farthest(b, mb.center);
    sccd_real wa = fabs(ma.dtheta), wb = fabs(mb.dtheta);
    sccd_v2 dp = sccd_v2_sub(ma.dp, mb.dp);
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v2 o = sccd_motion2_center_at(ma, t);
        tilt2 k = {proxy2_at(a, ma, t, o), proxy2_at(b, mb, t, o)};
        sccd_distance2 d = sccd_proxy2_distance(&k.a, &k.b);
        out.t = t;
        out.point = sccd_v2_add(o, sccd_v2_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (d.overlap || d.distance <= target + tolerance) {
            out.state = d.overlap && t == 0.0 ? SCCD_TOI_OVERLAPPED : SCCD_TOI_HIT;
            return out;
        }
        k.n = d.normal;
        k.va = n_cross_w2(k.n, ma.dtheta);
        k.vb = n_cross_w2(k.n, mb.dtheta);
        k.cb = sccd_v2_sub(sccd_motion2_center_at(mb, t), o);
        k.tau = sccd_v2_dot(k.n, dp);
        k.kappa = wa * wa * rho_a + wb * wb * rho_b;
        k.target = target;
        approach p = {tilted_gap2(&k, 0.0), k.tau + wa * rho_a + wb * rho_b, k.tau, wa, rho_a, wb, rho_b,
                      tilted_gap2, &k};
        sccd_real step = p.gap > 0.0 ? safe_step(&p, 1.0 - t) : 0.0;
        if (step < 1.0 - t && wa + wb > 0.0)
            step = sccd_max(step, envelopes2(&k.a, (sccd_v2){0.0, 0.0}, rho_a, wa, &k.b, k.cb, rho_b, wb,
                                             sccd_v2_len(dp), target));
        if (!(step > 0.0))
            return out; /* no provable progress (GJK at its precision): FAILED at a safe t */
        if (step >= 1.0 - t) {
            out.state = SCCD_TOI_SEPARATED;
            out.t = 1.0;
            return out;
        }
        t += step;
    }
    return out;
}

/* ---- 3D ---- */

static sccd_real envelopes3(const sccd_proxy3 *a, sccd_v3 ca, sccd_real ra, sccd_real wa, const sccd_proxy3 *b,
                            sccd_v3 cb, sccd_real rb, sccd_real wb, sccd_real dp, sccd_real target)
{
    sccd_proxy3 pa = {{ca}, 1, 0.0}, pb = {{cb}, 1, 0.0};
    sccd_real sa = envelope_step(sccd_proxy3_distance(&pa, b).distance, ra, dp + wb * rb, target);
    sccd_real sb = envelope_step(sccd_proxy3_distance(&pb, a).distance, rb, dp + wa * ra, target);
    return sccd_max(sa, sb);
}

typedef struct tilt3 {
    sccd_proxy3 a, b;
    sccd_v3 n, va, vb, cb;
    sccd_real tau, kappa, target;
} tilt3;

static sccd_real tilted_gap3(const void *ctx, sccd_real dt)
{
    const tilt3 *k = ctx;
    sccd_real ha = sccd_proxy3_support_value(&k->a, sccd_v3_mad(k->n, dt, k->va));
    sccd_real hb = sccd_proxy3_support_value(&k->b, sccd_v3_neg(sccd_v3_mad(k->n, dt, k->vb)));
    return -hb - ha - dt * sccd_v3_dot(k->vb, k->cb) - dt * k->tau - 0.5 * dt * dt * k->kappa - k->target;
}

static sccd_proxy3 proxy3_at(const sccd_shape3 *s, sccd_motion3 m, sccd_real t, sccd_v3 origin)
{
    sccd_xf3 xf = sccd_motion3_at(m, t);
    xf.p = sccd_v3_sub(xf.p, origin);
    return sccd_proxy3_make(s, xf);
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
    sccd_real rho_a = sccd_shape3_farthest(a, ma.center), rho_b = sccd_shape3_farthest(b, mb.center);
    sccd_v3 omega_a = sccd_v3_scale(ma.axis, ma.angle), omega_b = sccd_v3_scale(mb.axis, mb.angle);
    sccd_real wa = fabs(ma.angle), wb = fabs(mb.angle);
    sccd_v3 dp = sccd_v3_sub(ma.dp, mb.dp);
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v3 o = sccd_motion3_center_at(ma, t);
        tilt3 k = {proxy3_at(a, ma, t, o), proxy3_at(b, mb, t, o)};
        sccd_distance3 d = sccd_proxy3_distance(&k.a, &k.b);
        out.t = t;
        out.point = sccd_v3_add(o, sccd_v3_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (d.overlap || d.distance <= target + tolerance) {
            out.state = d.overlap && t == 0.0 ? SCCD_TOI_OVERLAPPED : SCCD_TOI_HIT;
            return out;
        }
        k.n = d.normal;
        k.va = sccd_v3_cross(k.n, omega_a);
        k.vb = sccd_v3_cross(k.n, omega_b);
        k.cb = sccd_v3_sub(sccd_motion3_center_at(mb, t), o);
        k.tau = sccd_v3_dot(k.n, dp);
        sccd_real la = sccd_v3_len(k.va), lb = sccd_v3_len(k.vb);
        k.kappa = la * wa * rho_a + lb * wb * rho_b;
        k.target = target;
        approach p = {tilted_gap3(&k, 0.0), k.tau + la * rho_a + lb * rho_b, k.tau, wa, rho_a, wb, rho_b,
                      tilted_gap3, &k};
        sccd_real step = p.gap > 0.0 ? safe_step(&p, 1.0 - t) : 0.0;
        if (step < 1.0 - t && wa + wb > 0.0)
            step = sccd_max(step, envelopes3(&k.a, (sccd_v3){0.0, 0.0, 0.0}, rho_a, wa, &k.b, k.cb, rho_b, wb,
                                             sccd_v3_len(dp), target));
        if (!(step > 0.0))
            return out;
        if (step >= 1.0 - t) {
            out.state = SCCD_TOI_SEPARATED;
            out.t = 1.0;
            return out;
        }
        t += step;
    }
    return out;
}
