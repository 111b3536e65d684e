/* Time of impact by conservative advancement (toi.h).
 *
 * The bound, derived here (the "proof" the TOI's safety rests on).
 * A body turning about its motion centre c(t) = c0 + t·dp with angular
 * velocity ω (2D: θ, 3D: angle·axis; both per unit of t) moves a point x at
 *     x'(t) = dp + ω × (x − c),   |ω × (x − c)| ≤ |ω|·ρ,
 * ρ = the farthest distance of the shape from its centre (rounding included).
 * Fix the unit normal n (A to B) of the closest points at time t0 and the gap
 *     g(t) = min_{y ∈ B(t)} n·y − max_{x ∈ A(t)} n·x  ≤  distance(t)
 * (any fixed direction's gap is a lower bound of the distance). For one point,
 * n·x'(t) = n·dp + (x − c)·(n × ω) (2D: n × ω = θ·(n.y, −n.x)), and
 * |d/dt of that| = |(n × ω)·(ω × (x − c))| ≤ |n × ω|·|ω|·ρ. So
 *   linear:    g(t0 + Δ) ≥ g(t0) − Δ·μ,      μ = n·(dpA − dpB) + Σ |n × ω|·ρ
 *   quadratic: g(t0 + Δ) ≥ g(t0) − Δ·β − ½Δ²·κ, κ = Σ |n × ω|·|ω|·ρ,
 *              β = n·(dpA − dpB) + σA + σB,
 *              σA = max_{x ∈ A(t0)} (x − cA)·(n × ωA) (a support value of A),
 *              σB = max_{y ∈ B(t0)} (y − cB)·(−n × ωB),
 * since a max of sums is at most the sum of the maxes (Taylor with the
 * remainder bound per point). Both are proofs, for every Δ ≥ 0. Each
 * right-hand side starts at g(t0) > target and is linear or concave in Δ, so
 * it stays above the target up to its first crossing; the advance is the
 * larger of the two crossings. The quadratic
 * bound is the tight one for spinning bodies: β is the true approach rate of
 * the supporting points at t0, not the rate of the farthest point; the linear
 * one wins for long advances of fast spins. */
#include "sectorccd/toi.h"

/* Largest Δ with b·Δ + ½κΔ² ≤ gap (gap > 0, κ ≥ 0): the positive root, in
 * the cancellation-free form; +INFINITY when the left side never gets there. */
static sccd_real quadratic_step(sccd_real gap, sccd_real b, sccd_real kappa)
{
    if (kappa <= 0.0)
        return b > 0.0 ? gap / b : INFINITY;
    sccd_real root = sqrt(b * b + 2.0 * kappa * gap);
    return b > 0.0 ? 2.0 * gap / (b + root) : (root - b) / kappa;
}

/* The safe advance from a gap above target under the two bounds above. */
static sccd_real safe_step(sccd_real gap, sccd_real mu, sccd_real beta, sccd_real kappa)
{
    sccd_real linear = mu > 0.0 ? gap / mu : INFINITY;
    return sccd_max(linear, quadratic_step(gap, beta, kappa));
}

static bool valid_tolerances(sccd_real target, sccd_real tolerance)
{
    return sccd_is_valid_real(target) && target >= 0.0 && sccd_is_valid_real(tolerance) && tolerance > 0.0;
}

/* ---- 2D ---- */

/* Pose at t in a frame centred on A's motion centre (small coordinates). */
static sccd_proxy2 proxy2_at(const sccd_shape2 *s, sccd_motion2 m, sccd_real t, sccd_v2 origin)
{
    sccd_xf2 xf = sccd_motion2_at(m, t);
    xf.p = sccd_v2_sub(xf.p, origin);
    return sccd_proxy2_make(s, xf);
}

/* The cross product n × ω for ω = θ·ẑ, a vector in the plane. */
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
    sccd_v2 dp = sccd_v2_sub(ma.dp, mb.dp);
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v2 o = sccd_motion2_center_at(ma, t);
        sccd_proxy2 pa = proxy2_at(a, ma, t, o), pb = proxy2_at(b, mb, t, o);
        sccd_distance2 d = sccd_proxy2_distance(&pa, &pb);
        out.t = t;
        out.point = sccd_v2_add(o, sccd_v2_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (d.overlap || d.distance <= target + tolerance) {
            out.state = d.overlap && t == 0.0 ? SCCD_TOI_OVERLAPPED : SCCD_TOI_HIT;
            return out;
        }
        sccd_v2 n = d.normal, ca = {0.0, 0.0}, cb = sccd_v2_sub(sccd_motion2_center_at(mb, t), o);
        sccd_v2 ua = n_cross_w2(n, ma.dtheta), ub = sccd_v2_neg(n_cross_w2(n, mb.dtheta));
        sccd_real gap = -sccd_proxy2_support_value(&pb, sccd_v2_neg(n)) - sccd_proxy2_support_value(&pa, n) - target;
        sccd_real sigma_a = sccd_proxy2_support_value(&pa, ua) - sccd_v2_dot(ua, ca);
        sccd_real sigma_b = sccd_proxy2_support_value(&pb, ub) - sccd_v2_dot(ub, cb);
        sccd_real wa = fabs(ma.dtheta), wb = fabs(mb.dtheta), tau = sccd_v2_dot(n, dp);
        sccd_real mu = tau + wa * rho_a + wb * rho_b;
        sccd_real kappa = wa * wa * rho_a + wb * wb * rho_b;
        sccd_real step = gap > 0.0 ? safe_step(gap, mu, tau + sigma_a + sigma_b, kappa) : 0.0;
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
    sccd_v3 wa = sccd_v3_scale(ma.axis, ma.angle), wb = sccd_v3_scale(mb.axis, mb.angle);
    sccd_v3 dp = sccd_v3_sub(ma.dp, mb.dp);
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v3 o = sccd_motion3_center_at(ma, t);
        sccd_proxy3 pa = proxy3_at(a, ma, t, o), pb = proxy3_at(b, mb, t, o);
        sccd_distance3 d = sccd_proxy3_distance(&pa, &pb);
        out.t = t;
        out.point = sccd_v3_add(o, sccd_v3_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (d.overlap || d.distance <= target + tolerance) {
            out.state = d.overlap && t == 0.0 ? SCCD_TOI_OVERLAPPED : SCCD_TOI_HIT;
            return out;
        }
        sccd_v3 n = d.normal, ca = {0.0, 0.0, 0.0}, cb = sccd_v3_sub(sccd_motion3_center_at(mb, t), o);
        sccd_v3 ua = sccd_v3_cross(n, wa), ub = sccd_v3_neg(sccd_v3_cross(n, wb));
        sccd_real gap = -sccd_proxy3_support_value(&pb, sccd_v3_neg(n)) - sccd_proxy3_support_value(&pa, n) - target;
        sccd_real sigma_a = sccd_proxy3_support_value(&pa, ua) - sccd_v3_dot(ua, ca);
        sccd_real sigma_b = sccd_proxy3_support_value(&pb, ub) - sccd_v3_dot(ub, cb);
        sccd_real la = sccd_v3_len(ua), lb = sccd_v3_len(ub), tau = sccd_v3_dot(n, dp);
        sccd_real mu = tau + la * rho_a + lb * rho_b;
        sccd_real kappa = la * fabs(ma.angle) * rho_a + lb * fabs(mb.angle) * rho_b;
        sccd_real step = gap > 0.0 ? safe_step(gap, mu, tau + sigma_a + sigma_b, kappa) : 0.0;
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
