/* Time of impact by conservative advancement (toi.h).
 *
 * The bounds, derived here (the proof the TOI's safety rests on).
 * A body turning about its motion centre c(t) = c0 + t·dp with angular
 * velocity ω (2D: θ·ẑ, 3D: angle·axis; per unit of t) moves a point x at
 *     x'(t) = dp + ω × (x − c),   |ω × (x − c)| ≤ |ω|·ρ,
 * ρ = the farthest distance of the shape's core from its centre. A shape is
 * its core grown by its rounding radius r (a disc, a ball, about every core
 * point), so its support value along d is the core's plus r·|d| and its
 * distance to a point is the core's less r: the rounding adds a constant
 * along a fixed direction, which no turn changes, and every rate and
 * curvature below is its core's. Only the envelope's disc holds the whole
 * shape, of radius ρ + r.
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
 *            A(t0)'s core in the tilted direction n + Δ·vA (x a core point;
 *            the rounding adds rA along n, at most rA·|n + Δ·vA| as the tilt
 *            is orthogonal to n, so the whole shape's hA stands for both);
 *            for B the minimum alike:
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
 *   envelope: A(t) lies in the disc (ball) of radius ρA + rA about cA(t), so
 *            distance(t) ≥ dist(cA(t), B(t)) − ρA − rA, and the distance of
 *            the point cA(t) to B(t) changes at most at |dpA − dpB| + |ωB|·ρB:
 *     distance(t0 + Δ) ≥ dist(cA, B) − ρA − rA − Δ·(|dpA − dpB| + |ωB|·ρB),
 *            free of A's spin: a blade turning many times near a wall just
 *            out of its reach is cleared in one step. Likewise with A and B
 *            swapped. dist(cA, B) is taken as the gap of the point cA along
 *            the main normal n: min_{y ∈ B} n·y − n·cA (the gap along any
 *            unit direction is a lower bound of the distance), whose support
 *            value g(t0) has already formed; for cB against A,
 *            n·cB − max_{x ∈ A} n·x. No extra distance query.
 *
 * Each right-hand side starts above the target and is linear, concave or
 * monotone, so it stays above the target up to its first crossing; the
 * advance is the largest of the crossings, each accepted only where the
 * bound was evaluated to be above the target.
 *
 * The search for the tilted bounds' crossing. The support value is a
 * maximum over core points, h(d) = max_i x_i·d + r·|d|, so G is the minimum
 * over the pairs (x_i of A, y_j of B) of
 *     q_ij(Δ) = p0 + p1·Δ − rA·√(1 + |tA|²Δ²) − rB·√(1 + |tB|²Δ²)
 *               − ½Δ²·K(Δ),   p0 = (y − x)·n − target,
 *               p1 = y·tB − x·tA − (vB·cB − vA·cA) − n·(dpA − dpB)
 * (|n + Δ·t| = √(1 + |t|²Δ²) as every tilt t is orthogonal to n). Each q_ij
 * is concave and q_ij ≥ G, with equality where (x_i, y_j) is the supporting
 * pair. From a proven advance lo with G(lo) ≥ 2m (the margin m is a
 * thousandth of g(t0) − target: the search aims just short of the crossing
 * so that its last evaluation stays ≥ 0 whatever the rounding) the search
 * takes the supporting pair at a point x right of G's crossing of m, moves x
 * down to q_ij's crossing of m by Newton's method from the right (for a
 * concave function falling through m, each Newton iterate stays right of the
 * crossing and approaches it monotonically) or by the chord from lo (below
 * the concave q_ij), and evaluates the true G at x: x is accepted when
 * G(x) ≥ 0 (the only test the safety rests on; concavity of G covers
 * [0, x]); otherwise the supporting pair at x has q = G(x) < 0 < q_ij(x), a
 * new pair with a crossing further left, and the search repeats. There are
 * finitely many pairs; the search stops after 8 rounds with lo.
 *
 * The chord bound is convex in Δ (a sine on [0, π/2] is concave, so each
 * chord term is concave and enters with a minus sign): Newton's iterates from
 * a point where it is ≥ 0 stay left of its crossing, each evaluated ≥ 0
 * before it is accepted. */
#include "sectorccd/toi.h"
#include "range.h"
#include "tolerance.h"
#include "trig.h"
#include "unchecked.h"

/* ---- the bounds' scalar parts, shared by 2D and 3D ---- */

/* K(Δ) = k0 + k1·Δ of the tilted bounds (see the top). */
typedef struct kappa { sccd_real k0, k1; } kappa;

/* K with n turning with the frame body f (spin wf) against the other body o
 * (spin wo, extent ro); dp = |dpA − dpB|, dist = |cA − cB| at t0. */
static kappa attached_kappa(sccd_real wf, sccd_real wo, sccd_real ro, sccd_real dp, sccd_real dist)
{
    return (kappa){wf * (2.0 * (dp + wo * ro) + wf * (dist + ro)) + wo * wo * ro, wf * wf * dp};
}

/* What one frame's q_ij shares whatever the pair: the rounding radii, the
 * squared tilts and K (see the top). */
typedef struct frame_rest { sccd_real ra, ta2, rb, tb2; kappa k; } frame_rest;

/* The pair's own terms of q_ij: q_ij(Δ) = p0 + p1·Δ − the rest. */
typedef struct pair_line { sccd_real p0, p1; } pair_line;

/* G(dt) − target of one frame, and the line of the pair supporting it at dt. */
typedef sccd_real frame_bound_fn(const void *frame, sccd_real dt, pair_line *line);

/* q_ij(dt) and its slope. */
static sccd_real pair_bound(pair_line l, const frame_rest *k, sccd_real dt, sccd_real *slope)
{
    sccd_real sa = sqrt(1.0 + k->ta2 * dt * dt), sb = sqrt(1.0 + k->tb2 * dt * dt);
    *slope = l.p1 - dt * (k->ra * k->ta2 / sa + k->rb * k->tb2 / sb + k->k.k0 + 1.5 * k->k.k1 * dt);
    return l.p0 + l.p1 * dt - k->ra * sa - k->rb * sb - 0.5 * dt * dt * (k->k.k0 + k->k.k1 * dt);
}

/* A point of [lo, hi] where q_ij ≥ m/2 near its crossing of m, for
 * q_ij(lo) ≥ 2m and q_ij(hi) < m: Newton from hi, else the chord from lo. */
static sccd_real pair_crossing(pair_line l, const frame_rest *k, sccd_real lo, sccd_real hi, sccd_real m)
{
    sccd_real slope, x = hi, qx = pair_bound(l, k, x, &slope);
    for (int i = 0; i < 8 && qx < 0.5 * m && slope < 0.0; ++i) {
        x = sccd_max(lo, x - (qx - m) / slope);
        qx = pair_bound(l, k, x, &slope);
    }
    if (qx >= 0.5 * m)
        return x;
    sccd_real ql = pair_bound(l, k, lo, &slope);
    return ql > 0.5 * m ? lo + (x - lo) * (ql - 0.5 * m) / (ql - qx) : lo;
}

/* Largest advance in [lo, rest] one frame's tilted bound proves, given that
 * [0, lo] is proven; margin m > 0 (see the top). */
static sccd_real tilted_step(frame_bound_fn *f, const void *frame, const frame_rest *k, sccd_real lo, sccd_real rest,
                             sccd_real m)
{
    pair_line l;
    if (!(f(frame, lo, &l) >= 2.0 * m))
        return lo;
    /* The tangent of the concave q_ij at lo lies above it: its crossing of
     * m is right of q_ij's and so of G's. */
    sccd_real slope, q = pair_bound(l, k, lo, &slope);
    sccd_real x = slope < 0.0 ? sccd_min(lo - (q - m) / slope, rest) : rest;
    for (int round = 0; round < 8; ++round) {
        if (f(frame, x, &l) >= 0.0)
            return x;
        x = pair_crossing(l, k, lo, x, m);
    }
    return lo;
}

/* The motion of both bodies seen along the normal n at t0 (see the top). */
typedef struct approach {
    sccd_real gap;            /* g(t0) − target, > 0 */
    sccd_real mu;             /* linear rate bound */
    sccd_real tau;            /* n·(dpA − dpB) */
    sccd_real wa, ra, wb, rb; /* |ω| and ρ of both bodies */
    frame_bound_fn *tilted;   /* G(dt) − target for one frame of n */
    const void *frames[3];    /* its contexts: world, attached to A, to B */
    const frame_rest *rests[3];
    int nframes;
} approach;

/* Distance a point at most rho from its axis moves when turned by phi ≥ 0,
 * and its rate per unit of phi. */
static sccd_real chord(sccd_real rho, sccd_real phi, sccd_real *rate)
{
    if (phi >= SCCD_PI) {
        *rate = 0.0;
        return 2.0 * rho;
    }
    *rate = rho * cos(0.5 * phi);
    return 2.0 * rho * sin(0.5 * phi);
}

/* The chord bound's gap minus target after an advance dt, and its slope. */
static sccd_real chord_gap(const approach *p, sccd_real dt, sccd_real *slope)
{
    sccd_real rate_a, rate_b, tau = sccd_max(p->tau, 0.0);
    sccd_real g = p->gap - tau * dt - chord(p->ra, p->wa * dt, &rate_a) - chord(p->rb, p->wb * dt, &rate_b);
    *slope = -tau - p->wa * rate_a - p->wb * rate_b;
    return g;
}

/* Largest advance in [lo, rest] the convex chord bound proves, by Newton's
 * method from lo (see the top), to 1e-3 relative. */
static sccd_real chord_step(const approach *p, sccd_real lo, sccd_real rest)
{
    sccd_real slope, f = chord_gap(p, lo, &slope);
    for (int i = 0; i < 16 && f >= 0.0; ++i) {
        sccd_real x = slope < 0.0 ? sccd_min(lo - f / slope, rest) : rest;
        sccd_real fx = chord_gap(p, x, &slope);
        if (!(fx >= 0.0)) /* rounding at the crossing */
            return lo;
        bool done = x >= rest || x - lo <= 1e-3 * lo;
        lo = x;
        f = fx;
        if (done)
            break;
    }
    return lo;
}

/* The safe advance from a gap above target, given [0, lo] proven by the
 * envelope bound: the best of the bounds. Each proves its own advance, so
 * the largest is proven; the searches start from the best so far. The chord
 * bound is tried only when the step so far turns a body by more than a
 * radian, where it can beat the others. */
static sccd_real safe_step(const approach *p, sccd_real lo, sccd_real rest)
{
    sccd_real step = sccd_max(lo, p->mu > 0.0 ? p->gap / p->mu : INFINITY);
    sccd_real margin = 1e-3 * p->gap;
    for (int i = 0; i < p->nframes && step < rest; ++i)
        step = tilted_step(p->tilted, p->frames[i], p->rests[i], step, rest, margin);
    if (step < rest && (p->wa + p->wb) * step > 1.0)
        step = chord_step(p, step, rest);
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

/* The better envelope advance (see the top): A's disc against B, whose
 * lowest point along n lies at low_b, or B's disc about cb against A, whose
 * highest lies at high_a (A centred at the origin). ρ is a core's reach and
 * r its rounding: a disc holds the whole shape (ρ + r), a rate turns the
 * core alone. */
static sccd_real envelopes(sccd_real low_b, sccd_real high_a, sccd_real n_cb, sccd_real rho_a, sccd_real ra, sccd_real wa,
                           sccd_real rho_b, sccd_real rb, sccd_real wb, sccd_real dp, sccd_real target)
{
    sccd_real sa = envelope_step(low_b, rho_a + ra, dp + wb * rho_b, target);
    sccd_real sb = envelope_step(n_cb - high_a, rho_b + rb, dp + wa * rho_a, target);
    return sccd_max(sa, sb);
}

/* ---- 2D ---- */

/* Both bodies at t0 in a frame centred on A's motion centre (so cA = 0), n
 * in one frame: tilts ta, tb; c1 = vB·cB + n·(dpA − dpB) (see the top). */
typedef struct frame2 {
    frame_rest k;
    const sccd_proxy2 *a, *b;
    sccd_v2 n, ta, tb;
    sccd_real c1, target;
} frame2;

static sccd_real frame2_bound(const void *ctx, sccd_real dt, pair_line *line)
{
    const frame2 *f = ctx;
    sccd_v2 da = sccd_v2_mad(f->n, dt, f->ta), db = sccd_v2_mad(f->n, dt, f->tb);
    sccd_v2 x = f->a->v[sccd_proxy2_support_inline(f->a, da)], y = f->b->v[sccd_proxy2_support_inline(f->b, sccd_v2_neg(db))];
    *line = (pair_line){sccd_v2_dot(sccd_v2_sub(y, x), f->n) - f->target,
                        sccd_v2_dot(y, f->tb) - sccd_v2_dot(x, f->ta) - f->c1};
    return sccd_v2_dot(y, db) - f->b->r * sccd_v2_len(db) - sccd_v2_dot(x, da) - f->a->r * sccd_v2_len(da) -
           dt * f->c1 - 0.5 * dt * dt * (f->k.k.k0 + f->k.k.k1 * dt) - f->target;
}

static frame2 frame2_make(const frame2 *base, sccd_v2 ta, sccd_v2 tb, kappa k)
{
    frame2 f = *base;
    f.ta = ta;
    f.tb = tb;
    f.k = (frame_rest){base->a->r, sccd_v2_len2(ta), base->b->r, sccd_v2_len2(tb), k};
    return f;
}

/* The frames of n worth trying: the world always, a body's own only when
 * it turns (else it is the world's). */
static int frame2_list(const frame2 *base, sccd_v2 va, sccd_v2 vb, sccd_real wa, sccd_real ra, sccd_real wb,
                       sccd_real rb, sccd_real dp, sccd_real dist, frame2 out[3])
{
    int n = 0;
    out[n++] = frame2_make(base, va, vb, (kappa){wa * wa * ra + wb * wb * rb, 0.0});
    if (wa > 0.0)
        out[n++] = frame2_make(base, (sccd_v2){0.0, 0.0}, sccd_v2_sub(vb, va), attached_kappa(wa, wb, rb, dp, dist));
    if (wb > 0.0)
        out[n++] = frame2_make(base, sccd_v2_sub(va, vb), (sccd_v2){0.0, 0.0}, attached_kappa(wb, wa, ra, dp, dist));
    return n;
}

/* A body's core about its motion centre in the start orientation: at time t
 * its points are c(t) + Rot(t·θ)·v[i] (motion.h). Rotated once per query. */
static sccd_proxy2 core2_about_centre(const sccd_shape2 *s, sccd_motion2 m)
{
    sccd_xf2 xf = {sccd_v2_neg(sccd_rot2_apply(m.start.q, m.center)), m.start.q};
    return sccd_proxy2_make_unchecked(s, xf);
}

/* The core turned by q and moved by c. */
static void place2(sccd_proxy2 *out, const sccd_proxy2 *core, sccd_rot2 q, sccd_v2 c)
{
    out->n = core->n;
    out->r = core->r;
    for (int i = 0; i < core->n; ++i)
        out->v[i] = sccd_v2_add(c, sccd_rot2_apply(q, core->v[i]));
}

/* The turn by t·θ (t ≥ 0): at t = 0, every search's first pose, the
 * identity, which sccd_cos_sin(±0) gives exactly (1, +0), without its
 * series (two of them a TOI, 4 % of its instructions). */
static sccd_rot2 turn2_at(sccd_real t, sccd_real theta)
{
    return t > 0.0 ? sccd_cos_sin(t * theta) : (sccd_rot2){1.0, 0.0};
}

/* n × ω for ω = θ·ẑ: a vector in the plane. */
static sccd_v2 n_cross_w2(sccd_v2 n, sccd_real theta) { return (sccd_v2){theta * n.y, -theta * n.x}; }

static sccd_real motion2_mag(sccd_motion2 m)
{
    return sccd_max(sccd_mag2(m.start.p), sccd_max(sccd_mag2(m.center), sccd_mag2(m.dp)));
}

static sccd_real motion3_mag(sccd_motion3 m)
{
    return sccd_max(sccd_mag3(m.start.p), sccd_max(sccd_mag3(m.center), sccd_mag3(m.dp)));
}

/* The query's largest number m (the shapes' extents, the motions' places,
 * the target and tolerance) decides: the power of 2 that brings it near 1
 * where it lies outside 2^±60, else 1 (ordinary queries as they are). The
 * TOI is the same in units of 1/f, and scaling by a power of 2 is exact.
 * Unscaled, squares and products of the scene's lengths over- and
 * underflowed: in scenes some 1e90 across 5 % of the 3D queries failed
 * and 2 in 4,000 hit later than at unit scale (a pass-through); below
 * 1e-160 nearly every query came out otherwise, and the pipeline's
 * pre-filter rejected about half of the pairs that touch. */
sccd_real sccd_toi2_query_factor(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                 sccd_real target, sccd_real tolerance)
{
    sccd_real shapes = sccd_max(sccd_shape2_magnitude(a), sccd_shape2_magnitude(b));
    sccd_real m = sccd_max(shapes, sccd_max(sccd_max(motion2_mag(ma), motion2_mag(mb)), sccd_max(target, tolerance)));
    return sccd_unit_factor(m, 0x1p-60, 0x1p60);
}

sccd_real sccd_toi3_query_factor(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                                 sccd_real target, sccd_real tolerance)
{
    sccd_real shapes = sccd_max(sccd_shape3_magnitude(a), sccd_shape3_magnitude(b));
    sccd_real m = sccd_max(shapes, sccd_max(sccd_max(motion3_mag(ma), motion3_mag(mb)), sccd_max(target, tolerance)));
    return sccd_unit_factor(m, 0x1p-60, 0x1p60);
}

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
    sccd_real k = sccd_toi2_query_factor(a, ma, b, mb, target, tolerance);
    if (k == 1.0)
        return sccd_toi2_compute_unchecked(a, ma, b, mb, target, tolerance);
    sccd_shape2 ak = sccd_shape2_scaled(*a, k), bk = sccd_shape2_scaled(*b, k);
    out = sccd_toi2_compute_unchecked(&ak, sccd_motion2_scaled(ma, k), &bk, sccd_motion2_scaled(mb, k), target * k,
                                      tolerance * k);
    out.point = sccd_v2_scale(out.point, 1.0 / k);
    return out;
}

sccd_toi2 sccd_toi2_compute_unchecked(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                      sccd_real target, sccd_real tolerance)
{
    sccd_simplex_cache cold = {0};
    return sccd_toi2_compute_cached(a, ma, b, mb, target, tolerance, &cold);
}

sccd_toi2 sccd_toi2_compute_cached(const sccd_shape2 *a, sccd_motion2 ma, const sccd_shape2 *b, sccd_motion2 mb,
                                   sccd_real target, sccd_real tolerance, sccd_simplex_cache *cache)
{
    sccd_toi2 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0}, SCCD_FALLBACK_V2, 0};
    sccd_real wa = fabs(ma.dtheta), wb = fabs(mb.dtheta);
    sccd_v2 dp = sccd_v2_sub(ma.dp, mb.dp);
    sccd_real dp_len = sccd_v2_len(dp);
    sccd_proxy2 core_a = core2_about_centre(a, ma), core_b = core2_about_centre(b, mb);
    sccd_real rho_a = sccd_proxy2_reach(&core_a), rho_b = sccd_proxy2_reach(&core_b); /* the cores' (see the top) */
    sccd_v2 ca0 = sccd_xf2_apply(ma.start, ma.center), cb0 = sccd_v2_sub(sccd_xf2_apply(mb.start, mb.center), ca0);
    sccd_proxy2 pa, pb;
    sccd_real t = 0.0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v2 o = sccd_v2_mad(ca0, t, ma.dp), cb = sccd_v2_mad(cb0, -t, dp);
        place2(&pa, &core_a, turn2_at(t, ma.dtheta), (sccd_v2){0.0, 0.0});
        place2(&pb, &core_b, turn2_at(t, mb.dtheta), cb);
        sccd_distance2 d = sccd_proxy2_distance_cached(&pa, &pb, cache);
        out.t = t;
        out.point = sccd_v2_add(o, sccd_v2_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (reached(d.overlap, d.distance, t, target, tolerance, &out.state))
            return out;
        sccd_v2 n = d.normal, va = n_cross_w2(n, ma.dtheta), vb = n_cross_w2(n, mb.dtheta);
        sccd_real high_a = sccd_proxy2_support_value(&pa, n), low_b = -sccd_proxy2_support_value(&pb, sccd_v2_neg(n));
        sccd_real tau = sccd_v2_dot(n, dp);
        frame2 base = {.a = &pa, .b = &pb, .n = n, .c1 = sccd_v2_dot(vb, cb) + tau, .target = target}, frames[3];
        int nframes = frame2_list(&base, va, vb, wa, rho_a, wb, rho_b, dp_len, sccd_v2_len(cb), frames);
        approach p = {low_b - high_a - target, tau + wa * rho_a + wb * rho_b, tau, wa, rho_a, wb, rho_b, frame2_bound,
                      {&frames[0], &frames[1], &frames[2]}, {&frames[0].k, &frames[1].k, &frames[2].k}, nframes};
        sccd_real step =
            wa + wb > 0.0 ? envelopes(low_b, high_a, sccd_v2_dot(n, cb), rho_a, core_a.r, wa, rho_b, core_b.r, wb, dp_len, target) : 0.0;
        if (p.gap > 0.0 && step < 1.0 - t)
            step = safe_step(&p, step, 1.0 - t);
        if (!advance(&t, step, &out.state)) {
            out.t = t;
            return out;
        }
    }
    return out; /* the iteration cap: FAILED at the last safe t */
}

/* ---- 3D ---- */

typedef struct frame3 {
    frame_rest k;
    const sccd_proxy3 *a, *b;
    bool a_box, b_box; /* sccd_proxy3_support_as' */
    sccd_v3 n, ta, tb;
    sccd_real c1, target;
} frame3;

static sccd_real frame3_bound(const void *ctx, sccd_real dt, pair_line *line)
{
    const frame3 *f = ctx;
    sccd_v3 da = sccd_v3_mad(f->n, dt, f->ta), db = sccd_v3_mad(f->n, dt, f->tb);
    sccd_v3 x = f->a->v[sccd_proxy3_support_as(f->a, f->a_box, da)],
           y = f->b->v[sccd_proxy3_support_as(f->b, f->b_box, sccd_v3_neg(db))];
    *line = (pair_line){sccd_v3_dot(sccd_v3_sub(y, x), f->n) - f->target,
                        sccd_v3_dot(y, f->tb) - sccd_v3_dot(x, f->ta) - f->c1};
    return sccd_v3_dot(y, db) - f->b->r * sccd_v3_len(db) - sccd_v3_dot(x, da) - f->a->r * sccd_v3_len(da) -
           dt * f->c1 - 0.5 * dt * dt * (f->k.k.k0 + f->k.k.k1 * dt) - f->target;
}

static frame3 frame3_make(const frame3 *base, sccd_v3 ta, sccd_v3 tb, kappa k)
{
    frame3 f = *base;
    f.ta = ta;
    f.tb = tb;
    f.k = (frame_rest){base->a->r, sccd_v3_len2(ta), base->b->r, sccd_v3_len2(tb), k};
    return f;
}

static int frame3_list(const frame3 *base, sccd_v3 va, sccd_v3 vb, sccd_real wa, sccd_real ra, sccd_real wb,
                       sccd_real rb, sccd_real dp, sccd_real dist, frame3 out[3])
{
    sccd_v3 zero = {0.0, 0.0, 0.0};
    int n = 0;
    out[n++] = frame3_make(base, va, vb, (kappa){sccd_v3_len(va) * wa * ra + sccd_v3_len(vb) * wb * rb, 0.0});
    if (wa > 0.0)
        out[n++] = frame3_make(base, zero, sccd_v3_sub(vb, va), attached_kappa(wa, wb, rb, dp, dist));
    if (wb > 0.0)
        out[n++] = frame3_make(base, sccd_v3_sub(va, vb), zero, attached_kappa(wb, wa, ra, dp, dist));
    return n;
}

static sccd_proxy3 core3_about_centre(const sccd_shape3 *s, sccd_motion3 m)
{
    sccd_xf3 xf = {sccd_v3_neg(sccd_quat_apply(m.start.q, m.center)), m.start.q};
    return sccd_proxy3_make_unchecked(s, xf);
}

/* A turn by phi about the unit axis k as a matrix (rows), Rodrigues' form:
 * one sine and cosine for all the points it turns. */
typedef struct turn3 { sccd_v3 r0, r1, r2; } turn3;

static turn3 turn3_make(sccd_v3 k, sccd_real phi)
{
    sccd_rot2 cs = sccd_cos_sin(phi);
    sccd_real c = cs.c, s = cs.s, u = 1.0 - c;
    return (turn3){{c + u * k.x * k.x, u * k.x * k.y - s * k.z, u * k.x * k.z + s * k.y},
                   {u * k.x * k.y + s * k.z, c + u * k.y * k.y, u * k.y * k.z - s * k.x},
                   {u * k.x * k.z - s * k.y, u * k.y * k.z + s * k.x, c + u * k.z * k.z}};
}

static void place3(sccd_proxy3 *out, const sccd_proxy3 *core, turn3 q, sccd_v3 c)
{
    out->n = core->n;
    out->r = core->r;
    for (int i = 0; i < core->n; ++i) {
        sccd_v3 v = core->v[i];
        out->v[i] = (sccd_v3){c.x + sccd_v3_dot(q.r0, v), c.y + sccd_v3_dot(q.r1, v), c.z + sccd_v3_dot(q.r2, v)};
    }
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
    sccd_real k = sccd_toi3_query_factor(a, ma, b, mb, target, tolerance);
    if (k == 1.0)
        return sccd_toi3_compute_unchecked(a, ma, b, mb, target, tolerance);
    sccd_shape3 ak = sccd_shape3_scaled(*a, k), bk = sccd_shape3_scaled(*b, k);
    out = sccd_toi3_compute_unchecked(&ak, sccd_motion3_scaled(ma, k), &bk, sccd_motion3_scaled(mb, k), target * k,
                                      tolerance * k);
    out.point = sccd_v3_scale(out.point, 1.0 / k);
    return out;
}

/* The distance of proxy a from the half-space n·x ≤ d as GJK gives it for
 * b, that half-space's box with a over its top face (impact3.c's
 * plane_box): from a's lowest point along n, with GJK's overlap margin. */
static sccd_distance3 half_space_distance(const sccd_proxy3 *a, const sccd_proxy3 *b, sccd_v3 n, sccd_real d)
{
    sccd_v3 low = sccd_v3_mad(a->v[sccd_proxy3_support_inline(a, sccd_v3_neg(n))], -a->r, n);
    sccd_real gap = sccd_v3_dot(n, low) - d;
    sccd_real size = 2.5 * sccd_max(sccd_proxy3_reach(a), sccd_proxy3_reach(b)) + a->r;
    bool overlap = gap <= SCCD_EPS * size;
    return (sccd_distance3){overlap ? 0.0 : gap, low, sccd_v3_mad(low, -gap, n), sccd_v3_neg(n), overlap, 0};
}

/* sccd_proxy3_support_value inline: a TOI's every iteration takes two. */
static sccd_real support_value3(const sccd_proxy3 *p, bool box, sccd_v3 d)
{
    return sccd_v3_dot(p->v[sccd_proxy3_support_as(p, box, d)], d) + p->r * sccd_v3_len(d);
}

/* sccd_toi3_compute_unchecked; with `half` not NULL, b is that still
 * half-space's box (sccd_toi3_plane_unchecked). */
static sccd_toi3 toi3(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb, const sccd_plane *half,
                      sccd_real target, sccd_real tolerance)
{
    sccd_toi3 out = {SCCD_TOI_FAILED, 0.0, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0};
    sccd_v3 omega_a = sccd_v3_scale(ma.axis, ma.angle), omega_b = sccd_v3_scale(mb.axis, mb.angle);
    sccd_real wa = fabs(ma.angle), wb = fabs(mb.angle);
    sccd_v3 dp = sccd_v3_sub(ma.dp, mb.dp);
    sccd_real dp_len = sccd_v3_len(dp);
    sccd_proxy3 core_a = core3_about_centre(a, ma), core_b = core3_about_centre(b, mb);
    sccd_real rho_a = sccd_proxy3_reach(&core_a), rho_b = sccd_proxy3_reach(&core_b); /* the cores' (see the top) */
    sccd_v3 ca0 = sccd_xf3_apply(ma.start, ma.center), cb0 = sccd_v3_sub(sccd_xf3_apply(mb.start, mb.center), ca0);
    sccd_proxy3 pa, pb;
    bool a_box = a->type == SCCD_SHAPE_BOX, b_box = b->type == SCCD_SHAPE_BOX; /* place3 keeps the corners' order */
    sccd_simplex_cache cache = {0};
    sccd_real t = 0.0;
    /* A box against a sphere: their distance in closed form. */
    int box_point = a->type == SCCD_SHAPE_BOX && b->type == SCCD_SHAPE_CIRCLE ? 1 : a->type == SCCD_SHAPE_CIRCLE && b->type == SCCD_SHAPE_BOX ? 2 : 0;
    while (out.iterations < SCCD_TOI_MAX_ITERATIONS) {
        ++out.iterations;
        sccd_v3 o = sccd_v3_mad(ca0, t, ma.dp), cb = sccd_v3_mad(cb0, -t, dp);
        place3(&pa, &core_a, turn3_make(ma.axis, t * ma.angle), (sccd_v3){0.0, 0.0, 0.0});
        place3(&pb, &core_b, turn3_make(mb.axis, t * mb.angle), cb);
        sccd_distance3 d = half != NULL  ? half_space_distance(&pa, &pb, half->n, half->d - sccd_v3_dot(half->n, o))
                           : box_point ? sccd_proxy3_distance_box_point(&pa, &pb, box_point == 1)
                                       : sccd_proxy3_distance_cached(&pa, &pb, &cache);
        out.t = t;
        out.point = sccd_v3_add(o, sccd_v3_lerp(d.pa, d.pb, 0.5));
        out.normal = d.normal;
        if (reached(d.overlap, d.distance, t, target, tolerance, &out.state))
            return out;
        sccd_v3 n = d.normal, va = sccd_v3_cross(n, omega_a), vb = sccd_v3_cross(n, omega_b);
        sccd_real high_a = support_value3(&pa, a_box, n), low_b = -support_value3(&pb, b_box, sccd_v3_neg(n));
        sccd_real tau = sccd_v3_dot(n, dp);
        frame3 base = {.a = &pa, .b = &pb, .a_box = a_box, .b_box = b_box, .n = n, .c1 = sccd_v3_dot(vb, cb) + tau,
                       .target = target},
               frames[3];
        int nframes = frame3_list(&base, va, vb, wa, rho_a, wb, rho_b, dp_len, sccd_v3_len(cb), frames);
        sccd_real mu = tau + sccd_v3_len(va) * rho_a + sccd_v3_len(vb) * rho_b;
        approach p = {low_b - high_a - target, mu, tau, wa, rho_a, wb, rho_b, frame3_bound,
                      {&frames[0], &frames[1], &frames[2]}, {&frames[0].k, &frames[1].k, &frames[2].k}, nframes};
        sccd_real step =
            wa + wb > 0.0 ? envelopes(low_b, high_a, sccd_v3_dot(n, cb), rho_a, core_a.r, wa, rho_b, core_b.r, wb, dp_len, target) : 0.0;
        if (p.gap > 0.0 && step < 1.0 - t)
            step = safe_step(&p, step, 1.0 - t);
        if (!advance(&t, step, &out.state)) {
            out.t = t;
            return out;
        }
    }
    return out; /* the iteration cap: FAILED at the last safe t */
}

sccd_toi3 sccd_toi3_compute_unchecked(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_motion3 mb,
                                      sccd_real target, sccd_real tolerance)
{
    return toi3(a, ma, b, mb, NULL, target, tolerance);
}

sccd_toi3 sccd_toi3_plane_unchecked(const sccd_shape3 *a, sccd_motion3 ma, const sccd_shape3 *b, sccd_plane half,
                                    sccd_real target, sccd_real tolerance)
{
    sccd_motion3 still = {sccd_xf3_identity(), {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, SCCD_FALLBACK_V3, 0.0};
    return toi3(a, ma, b, still, &half, target, tolerance);
}
