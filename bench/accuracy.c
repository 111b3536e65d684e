/* Accuracy of rotational CCD bounds in 3D: the thesis' protocol (seed 000
 * §3.1–3.2, eqs 3.1–3.6, figs 3.8–3.9, table 3.1) measured against the exact
 * swept volume (closed-form arcs, tests/oracles/truth3.c) and against the thesis' own
 * reference, the box at 101 poses ("detailed DCCD").
 *
 * A trial: a box turns by α in [0, 2π] about a random axis through the origin
 * (the pivot); every point of the 100³ grid at spacing 1 (−49.5…49.5) is
 * classified by each method. Per trial and per method M against a reference T
 * (the exact sweep, or the 100-sub-step DCCD), with the thesis' groups folded
 * into three counts: both = |M ∩ T|, only_m = |M \ T|, only_ref = |T \ M|, and
 * union = both + only_m + only_ref (= Σ n_i − n_other in eqs 3.1–3.6):
 *     accuracy = both / union          (eq 3.1 for S-CCD, eq 3.2 for the sector)
 *     over     = only_m / union        (eqs 3.3, 3.5)
 *     under    = only_ref / union      (eqs 3.4, 3.6)
 * averaged over the trials; a trial with an empty union for some method is
 * left out, as the thesis leaves out a zero denominator.
 *
 * Cost: only grid points inside the union of the methods' AABBs and the exact
 * AABB of the true sweep can be inside any set, so only that sub-grid is
 * visited; the exact truth (closed-form arcs, truth3.c) is evaluated only
 * inside the true sweep's AABB and its cylinder shell; the 101-pose DCCD only
 * where the truth holds (DCCD ⊂ sweep; --quick checks this on every point),
 * starting from the pose nearest the truth's witness turn. Trials run on
 * worker threads (--threads, default 2), each trial seeded by its index, so
 * the figures do not depend on the thread count. */
#include "eval_util.h"
#include "truth3.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GRID 100
#define GRID_HALF 49.5
#define DCCD_STEPS 100
#define ANGLE_BINS 36
#define SHAPE_BINS 20
#define FULL_TRIALS 100000L /* the thesis' count, for each protocol (make bench); --trials N for fewer */
#define QUICK_TRIALS 200L
#define SEED 20260521ULL
#define CHECKED_TRIALS 4 /* --quick: trials whose every point is cross-checked */

enum { M_TRUTH, M_DCCD, M_SCCD, M_THESIS, M_OURS1, M_OURS2, M_OURS4, M_SCCD_HALF, M_COUNT };
enum { REF_TRUTH, REF_DCCD, REF_COUNT };
static const int ours_bands[3] = {1, 2, 4};
static const char *method_key[M_COUNT] = {"exact", "dccd100", "sccd", "thesis", "ours1", "ours2", "ours4", "sccd_half"};
static const char *method_name[M_COUNT] = {"exact sweep", "DCCD, 100 sub-steps", "S-CCD (AABB of start+end)",
                                           "thesis sector (eq 2.1)", "ours, 1 band", "ours, 2 bands",
                                           "ours, 4 bands", "S-CCD, sizes read as half-extents"};
static const int ref_method[REF_COUNT] = {M_TRUTH, M_DCCD};

typedef struct tally { int32_t both, only_m, only_ref; } tally;

/* What a trial contributes to the averages and bins. */
typedef struct trial_result {
    sccd_real alpha, shape; /* turn (radians), Wy − Wx */
    tally t[REF_COUNT][M_COUNT];
} trial_result;

static atomic_int disagreements;

/* A sector with its frame precomputed for the grid: a point clearly inside or
 * clearly outside (by FAST_MARGIN, far more than the library's 1e-9 relative
 * tolerance on these scenes) is decided here; a point near the boundary goes
 * to sccd_sector3_vs_point, so the answers are the library's. --quick checks
 * the agreement on every point. */
#define FAST_MARGIN 1e-6
typedef struct fast_sector {
    sccd_sector3 s;
    sccd_aabb3 box;
    sccd_v3 a, k;
    sccd_real c, sn;
} fast_sector;

/* Everything built once per trial for the point tests. */
typedef struct setup {
    sccd_eval_turn tr; /* eval_util.c: seed 000 §3.1's draw, or without the constraint */
    bool constrained;   /* the thesis' pose constraint holds */
    sccd_aabb3 sccd_aabb, sccd_half_aabb, truth_aabb, region;
    fast_sector thesis;
    sccd_sweep3 ours[3];
    fast_sector bands[3][SCCD_MAX_BANDS];
    sccd_real zlo, zhi, rho2max; /* cylinder shell about the axis holding the true sweep */
    sccd_real pose_m[DCCD_STEPS + 1][9];
    sccd_v3 pose_c[DCCD_STEPS + 1];
} setup;

/* Range of cos(τ − ψ) over τ in [0, α]: 1 (−1) when the range passes ψ (ψ + π). */
static void cos_range(sccd_real psi, sccd_real alpha, sccd_real *lo, sccd_real *hi)
{
    sccd_real c0 = cos(-psi), c1 = cos(alpha - psi);
    sccd_real two_pi = 2.0 * SCCD_PI;
    sccd_real to_max = fmod(fmod(psi, two_pi) + two_pi, two_pi); /* first τ ≥ 0 with τ − ψ ≡ 0 */
    sccd_real to_min = fmod(to_max + SCCD_PI, two_pi);
    *hi = to_max <= alpha ? 1.0 : sccd_max(c0, c1);
    *lo = to_min <= alpha ? -1.0 : sccd_min(c0, c1);
}

/* Exact AABB of the true sweep: a linear function over a turned box peaks at a
 * corner, and a corner at height z, radius ρ and phase ψ_j along world axis j
 * moves as const + ρ·M_j·cos(τ − ψ_j); so the extremes are the cos ranges.
 * Also the cylinder shell (z range, largest radius) that holds the sweep. */
static void truth_bounds(setup *s)
{
    const sccd_eval_turn *t = &s->tr;
    sccd_v3 corners[8];
    sccd_box3_corners(t->box, corners);
    sccd_real lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    s->zlo = INFINITY;
    s->zhi = -INFINITY;
    s->rho2max = 0.0;
    for (int k = 0; k < 8; ++k) {
        sccd_v3 d = sccd_v3_sub(corners[k], t->pivot);
        sccd_real z = sccd_v3_dot(d, t->axis);
        sccd_v3 radial = sccd_v3_mad(d, -z, t->axis);
        sccd_real rho = sccd_v3_len(radial);
        sccd_v3 e1 = rho > 0.0 ? sccd_v3_scale(radial, 1.0 / rho) : (sccd_v3){0.0, 0.0, 0.0};
        sccd_v3 e2 = sccd_v3_cross(t->axis, e1);
        sccd_real base[3] = {t->pivot.x + z * t->axis.x, t->pivot.y + z * t->axis.y, t->pivot.z + z * t->axis.z};
        sccd_real a1[3] = {e1.x, e1.y, e1.z}, a2[3] = {e2.x, e2.y, e2.z};
        for (int j = 0; j < 3; ++j) {
            sccd_real cl, ch, m = rho * hypot(a1[j], a2[j]);
            cos_range(atan2(a2[j], a1[j]), t->alpha, &cl, &ch);
            lo[j] = sccd_min(lo[j], base[j] + m * cl);
            hi[j] = sccd_max(hi[j], base[j] + m * ch);
        }
        s->zlo = sccd_min(s->zlo, z);
        s->zhi = sccd_max(s->zhi, z);
        s->rho2max = sccd_max(s->rho2max, rho * rho);
    }
    /* widen by a rounding margin: these bounds only skip work, they must not cut */
    const sccd_real m = 1e-9 * 100.0;
    s->truth_aabb = (sccd_aabb3){{lo[0] - m, lo[1] - m, lo[2] - m}, {hi[0] + m, hi[1] + m, hi[2] + m}};
    s->zlo -= m;
    s->zhi += m;
    s->rho2max = (sqrt(s->rho2max) + m) * (sqrt(s->rho2max) + m);
}

/* The thesis' reference: world → box-local maps of the box at τ_k = α·k/100. */
static void dccd_poses(setup *s)
{
    for (int k = 0; k <= DCCD_STEPS; ++k) {
        sccd_box3 b = sccd_eval_turned_box(&s->tr, s->tr.alpha * (sccd_real)k / DCCD_STEPS);
        sccd_v3 ex = sccd_quat_apply(b.q, (sccd_v3){1, 0, 0}), ey = sccd_quat_apply(b.q, (sccd_v3){0, 1, 0}),
                ez = sccd_quat_apply(b.q, (sccd_v3){0, 0, 1});
        sccd_real *m = s->pose_m[k];
        m[0] = ex.x, m[1] = ex.y, m[2] = ex.z, m[3] = ey.x, m[4] = ey.y, m[5] = ey.z;
        m[6] = ez.x, m[7] = ez.y, m[8] = ez.z;
        s->pose_c[k] = b.c;
    }
}

static fast_sector make_fast(sccd_sector3 sec)
{
    fast_sector f = {sec, sccd_sector3_aabb(&sec), sec.a, sccd_v3_cross(sec.u, sec.a), cos(sec.half_angle),
                     sin(sec.half_angle)};
    return f;
}

static void build(setup *s, const sccd_eval_turn *t, bool constrained)
{
    memset(s, 0, sizeof *s);
    s->tr = *t;
    s->constrained = constrained;
    s->sccd_aabb = sccd_aabb3_union(sccd_box3_aabb(t->box), sccd_box3_aabb(sccd_eval_turned_box(t, t->alpha)));
    /* The thesis' S-CCD figures (table 3.1) do not reproduce with the AABB
     * of the start and end boxes; the same AABB with every size doubled, as
     * if the sizes were half-extents, comes closest of the variants tried. */
    sccd_box3 b0 = t->box, b1 = sccd_eval_turned_box(t, t->alpha);
    b0.h = sccd_v3_scale(b0.h, 2.0);
    b1.h = sccd_v3_scale(b1.h, 2.0);
    s->sccd_half_aabb = sccd_aabb3_union(sccd_box3_aabb(b0), sccd_box3_aabb(b1));
    s->region = constrained ? sccd_aabb3_union(s->sccd_aabb, s->sccd_half_aabb) : s->sccd_aabb;
    if (constrained) {
        s->thesis = make_fast(sccd_sector3_thesis(t->box, t->pivot, t->alpha));
        s->region = sccd_aabb3_union(s->region, s->thesis.box);
    }
    sccd_motion3 m = sccd_eval_turn_motion(t);
    for (int b = 0; b < 3; ++b) {
        sccd_sweep3_box(&s->ours[b], t->box.h, m, ours_bands[b]);
        for (int i = 0; i < s->ours[b].count; ++i)
            s->bands[b][i] = make_fast(s->ours[b].bands[i]);
        s->region = sccd_aabb3_union(s->region, s->ours[b].aabb);
    }
    truth_bounds(s);
    s->region = sccd_aabb3_union(s->region, s->truth_aabb);
    dccd_poses(s);
}

/* ---- point tests ---- */

static bool in_aabb(sccd_aabb3 b, sccd_v3 p)
{
    return p.x >= b.lo.x && p.x <= b.hi.x && p.y >= b.lo.y && p.y <= b.hi.y && p.z >= b.lo.z && p.z <= b.hi.z;
}

static bool in_pose(const setup *s, int k, sccd_v3 p)
{
    const sccd_real *m = s->pose_m[k];
    sccd_v3 d = sccd_v3_sub(p, s->pose_c[k]);
    sccd_v3 h = s->tr.box.h;
    return fabs(m[0] * d.x + m[1] * d.y + m[2] * d.z) <= h.x && fabs(m[3] * d.x + m[4] * d.y + m[5] * d.z) <= h.y &&
           fabs(m[6] * d.x + m[7] * d.y + m[8] * d.z) <= h.z;
}

/* Is p inside the box at one of the 101 poses? Poses are tried outwards from
 * k0 (the one nearest the truth's witness turn), which usually hits at once. */
static bool dccd_hits(const setup *s, sccd_v3 p, int k0)
{
    for (int d = 0; d <= DCCD_STEPS; ++d) {
        int up = k0 + d, down = k0 - d;
        if (up <= DCCD_STEPS && in_pose(s, up, p))
            return true;
        if (d > 0 && down >= 0 && in_pose(s, down, p))
            return true;
        if (up > DCCD_STEPS && down < 0)
            break;
    }
    return false;
}

static bool truth_hits(const setup *s, sccd_v3 p, sccd_real *witness)
{
    if (!in_aabb(s->truth_aabb, p))
        return false;
    sccd_v3 d = sccd_v3_sub(p, s->tr.pivot);
    sccd_real z = sccd_v3_dot(d, s->tr.axis);
    if (z < s->zlo || z > s->zhi || sccd_v3_len2(d) - z * z > s->rho2max)
        return false;
    return sccd_truth3_box_rot(s->tr.box, s->tr.pivot, s->tr.axis, s->tr.alpha, p, witness);
}

/* 1 inside, 0 outside, −1 near the boundary. Outside the wedge, the distance
 * to it is at least −g with g = ρ·sin(θ − |φ|) = sin θ·x − cos θ·|y|. */
static int fast_decide(const fast_sector *f, sccd_v3 p)
{
    const sccd_real m = FAST_MARGIN;
    sccd_v3 d = sccd_v3_sub(p, f->s.o);
    sccd_real z = sccd_v3_dot(f->s.u, d);
    if (z < f->s.zlo - m || z > f->s.zhi + m)
        return 0;
    sccd_real x = sccd_v3_dot(f->a, d), y = sccd_v3_dot(f->k, d);
    sccd_real rho = sqrt(x * x + y * y), g = f->sn * x - f->c * fabs(y);
    if (rho < f->s.r - m || rho > f->s.R + m || g < -m)
        return 0;
    if (z > f->s.zlo + m && z < f->s.zhi - m && rho > f->s.r + m && rho < f->s.R - m && g > m)
        return 1;
    return -1;
}

static bool sector_hits(const fast_sector *f, sccd_v3 p, bool check)
{
    if (!in_aabb(f->box, p))
        return false;
    int fast = fast_decide(f, p);
    if (fast < 0 || check) {
        bool exact = sccd_sector3_vs_point(&f->s, p);
        if (fast >= 0 && (fast == 1) != exact) {
            fprintf(stderr, "accuracy: fast sector decision disagrees at (%g, %g, %g)\n", p.x, p.y, p.z);
            atomic_store(&disagreements, 1);
        }
        return exact;
    }
    return fast == 1;
}

/* Ours holds p. With no translation (dp = 0) the sweep's set is the union of
 * its sectors, so the fast exact sector point test decides it; --quick checks
 * that this agrees with sccd_sweep3_vs_point on every point. */
static bool ours_hits(const setup *s, int b, sccd_v3 p, bool check)
{
    bool hit = false;
    if (!check && !in_aabb(s->ours[b].aabb, p))
        return false;
    for (int i = 0; i < s->ours[b].count && !hit; ++i)
        hit = sector_hits(&s->bands[b][i], p, check);
    if (check && hit != sccd_sweep3_vs_point(&s->ours[b], p)) {
        fprintf(stderr, "accuracy: sector point test and sccd_sweep3_vs_point disagree at (%g, %g, %g)\n", p.x, p.y,
                p.z);
        atomic_store(&disagreements, 1);
    }
    return hit;
}

/* The set of methods holding p, one bit per method; check: the --quick
 * cross-checks (DCCD inside the exact sweep, ours' point test). */
static unsigned classify(const setup *s, sccd_v3 p, bool check)
{
    unsigned bits = 0;
    if (in_aabb(s->sccd_aabb, p))
        bits |= 1u << M_SCCD;
    if (in_aabb(s->sccd_half_aabb, p))
        bits |= 1u << M_SCCD_HALF;
    if (s->constrained && sector_hits(&s->thesis, p, check))
        bits |= 1u << M_THESIS;
    for (int b = 0; b < 3; ++b)
        if (ours_hits(s, b, p, check))
            bits |= 1u << (M_OURS1 + b);
    sccd_real w = 0.0;
    if (truth_hits(s, p, &w)) {
        bits |= 1u << M_TRUTH;
        int k0 = s->tr.alpha > 0.0 ? (int)lround(w / s->tr.alpha * DCCD_STEPS) : 0;
        if (dccd_hits(s, p, k0 < 0 ? 0 : (k0 > DCCD_STEPS ? DCCD_STEPS : k0)))
            bits |= 1u << M_DCCD;
    } else if (check && in_aabb(s->truth_aabb, p) && dccd_hits(s, p, 0)) {
        bits |= 1u << M_DCCD; /* DCCD outside the exact sweep: shows as DCCD over-detection, checked in --quick */
    }
    return bits;
}

/* Folds the trial's histogram of method sets into the per-method counts. */
static void fold_histogram(trial_result *r, const int32_t *hist)
{
    for (unsigned bits = 1; bits < 1u << M_COUNT; ++bits) {
        if (!hist[bits])
            continue;
        for (int ref = 0; ref < REF_COUNT; ++ref) {
            bool in_ref = bits >> ref_method[ref] & 1u;
            for (int m = 0; m < M_COUNT; ++m) {
                bool in_m = bits >> m & 1u;
                tally *t = &r->t[ref][m];
                t->both += (in_m && in_ref) * hist[bits];
                t->only_m += (in_m && !in_ref) * hist[bits];
                t->only_ref += (!in_m && in_ref) * hist[bits];
            }
        }
    }
}

static int grid_lo(sccd_real x) { int i = (int)ceil(x + GRID_HALF); return i < 0 ? 0 : i; }
static int grid_hi(sccd_real x) { int i = (int)floor(x + GRID_HALF); return i > GRID - 1 ? GRID - 1 : i; }

static void run_trial(const sccd_eval_turn *t, bool constrained, trial_result *r, bool check)
{
    setup s;
    build(&s, t, constrained);
    memset(r, 0, sizeof *r);
    r->alpha = t->alpha;
    r->shape = 2.0 * (t->box.h.y - t->box.h.x);
    int i0 = grid_lo(s.region.lo.x), i1 = grid_hi(s.region.hi.x);
    int j0 = grid_lo(s.region.lo.y), j1 = grid_hi(s.region.hi.y);
    int k0 = grid_lo(s.region.lo.z), k1 = grid_hi(s.region.hi.z);
    int32_t hist[1u << M_COUNT] = {0}; /* grid points per set of methods holding them */
    for (int i = i0; i <= i1; ++i)
        for (int j = j0; j <= j1; ++j)
            for (int k = k0; k <= k1; ++k)
                hist[classify(&s, (sccd_v3){i - GRID_HALF, j - GRID_HALF, k - GRID_HALF}, check)]++;
    fold_histogram(r, hist);
}

/* ---- running trials on threads ---- */

typedef struct job {
    bool constrained, check;
    long n;
    trial_result *res;
    atomic_long next;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (long i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) {
        sccd_rng g = sccd_rng_make(sccd_eval_seed(SEED + (j->constrained ? 0 : 1), (uint64_t)i));
        sccd_eval_turn t = j->constrained ? sccd_eval_thesis_turn(&g) : sccd_eval_free_turn(&g);
        run_trial(&t, j->constrained, &j->res[i], j->check && i < CHECKED_TRIALS);
    }
    return NULL;
}

static double run_all(job *j, int threads)
{
    double t0 = sccd_eval_now_ns();
    pthread_t th[64];
    int n = threads > 64 ? 64 : threads;
    atomic_store(&j->next, 0);
    for (int i = 1; i < n; ++i)
        pthread_create(&th[i], NULL, worker, j);
    worker(j);
    for (int i = 1; i < n; ++i)
        pthread_join(th[i], NULL);
    return (sccd_eval_now_ns() - t0) * 1e-9;
}

/* ---- statistics ---- */

typedef struct stats { long n; double acc, over, under, max_under; long missed; } stats;

/* Eq 2.1 is defined for the constrained pose only; the guess at the thesis'
 * S-CCD is left out of the other protocol by choice (it has no thesis
 * figure to match there). */
static bool applies(int m, bool constrained)
{
    return constrained || (m != M_THESIS && m != M_SCCD_HALF);
}

/* A trial counts against ref when every method's union with it is non-empty
 * (the thesis drops zero denominators). */
static bool counted(const trial_result *r, int ref, bool constrained)
{
    for (int m = 0; m < M_COUNT; ++m) {
        if (m == ref_method[ref] || !applies(m, constrained))
            continue;
        const tally *t = &r->t[ref][m];
        if (t->both + t->only_m + t->only_ref == 0)
            return false;
    }
    return true;
}

static void add(stats *s, const tally *t)
{
    double u = (double)(t->both + t->only_m + t->only_ref);
    double under = t->only_ref / u;
    s->n++;
    s->acc += t->both / u;
    s->over += t->only_m / u;
    s->under += under;
    s->max_under = sccd_max(s->max_under, under);
    s->missed += t->only_ref > 0;
}

static stats finish(stats s)
{
    if (s.n > 0) {
        s.acc /= (double)s.n;
        s.over /= (double)s.n;
        s.under /= (double)s.n;
    }
    return s;
}

/* Mean of each method's statistics against ref over trials [from, to) of idx. */
static void summarise(const job *j, int ref, const long *idx, long from, long to, stats out[M_COUNT])
{
    memset(out, 0, sizeof(stats) * M_COUNT);
    for (long k = from; k < to; ++k) {
        const trial_result *r = &j->res[idx ? idx[k] : k];
        if (!counted(r, ref, j->constrained))
            continue;
        for (int m = 0; m < M_COUNT; ++m)
            add(&out[m], &r->t[ref][m]);
    }
    for (int m = 0; m < M_COUNT; ++m)
        out[m] = finish(out[m]);
}

/* ---- output ---- */

static bool shown(const job *j, int ref, int m)
{
    return m != ref_method[ref] && applies(m, j->constrained);
}

static void write_summary_csv(FILE *f, const job *j, const char *protocol)
{
    for (int ref = 0; ref < REF_COUNT; ++ref) {
        stats st[M_COUNT];
        summarise(j, ref, NULL, 0, j->n, st);
        for (int m = 0; m < M_COUNT; ++m)
            if (shown(j, ref, m))
                fprintf(f, "%s,%s,%s,%ld,%.6f,%.6f,%.6f,%.6f,%ld\n", protocol, method_key[ref_method[ref]],
                        method_key[m], st[m].n, st[m].acc, st[m].over, st[m].under, st[m].max_under, st[m].missed);
    }
}

/* Angle bins (fig 3.8): 36 ranges of 10°, accuracy against the exact sweep
 * for every method, and the thesis' two methods against DCCD as well. */
static void write_angle_csv(FILE *f, const job *j)
{
    fprintf(f, "deg_lo,deg_hi,trials");
    for (int m = M_DCCD; m < M_COUNT; ++m)
        if (shown(j, REF_TRUTH, m))
            fprintf(f, ",%s", method_key[m]);
    fprintf(f, ",sccd_vs_dccd%s\n", j->constrained ? ",thesis_vs_dccd" : "");
    long *idx = malloc(sizeof(long) * (size_t)(j->n > 0 ? j->n : 1));
    for (int b = 0; b < ANGLE_BINS; ++b) {
        long n = 0;
        for (long i = 0; i < j->n; ++i)
            if ((int)(j->res[i].alpha / (2.0 * SCCD_PI) * ANGLE_BINS) == b ||
                (b == ANGLE_BINS - 1 && j->res[i].alpha >= 2.0 * SCCD_PI))
                idx[n++] = i;
        stats st[M_COUNT], sd[M_COUNT];
        summarise(j, REF_TRUTH, idx, 0, n, st);
        summarise(j, REF_DCCD, idx, 0, n, sd);
        fprintf(f, "%d,%d,%ld", b * 10, b * 10 + 10, st[M_SCCD].n);
        for (int m = M_DCCD; m < M_COUNT; ++m)
            if (shown(j, REF_TRUTH, m))
                fprintf(f, ",%.6f", st[m].acc);
        fprintf(f, ",%.6f", sd[M_SCCD].acc);
        if (j->constrained)
            fprintf(f, ",%.6f", sd[M_THESIS].acc);
        fprintf(f, "\n");
    }
    free(idx);
}

static const job *sort_job;
static int by_shape(const void *a, const void *b)
{
    double x = sort_job->res[*(const long *)a].shape, y = sort_job->res[*(const long *)b].shape;
    return (x > y) - (x < y);
}

/* Shape bins (fig 3.9): trials sorted by Wy − Wx, SHAPE_BINS bins of equal
 * count (5,000 trials each in the full run, as the thesis). */
static void write_shape_csv(FILE *f, const job *j)
{
    long *idx = malloc(sizeof(long) * (size_t)(j->n > 0 ? j->n : 1));
    for (long i = 0; i < j->n; ++i)
        idx[i] = i;
    sort_job = j;
    qsort(idx, (size_t)j->n, sizeof *idx, by_shape);
    fprintf(f, "bin,shape_lo,shape_hi,trials");
    for (int m = M_DCCD; m < M_COUNT; ++m)
        fprintf(f, ",%s", method_key[m]);
    fprintf(f, ",sccd_vs_dccd,thesis_vs_dccd\n");
    for (int b = 0; b < SHAPE_BINS && j->n > 0; ++b) {
        long from = j->n * b / SHAPE_BINS, to = j->n * (b + 1) / SHAPE_BINS;
        stats st[M_COUNT], sd[M_COUNT];
        summarise(j, REF_TRUTH, idx, from, to, st);
        summarise(j, REF_DCCD, idx, from, to, sd);
        fprintf(f, "%d,%.3f,%.3f,%ld", b, j->res[idx[from]].shape, j->res[idx[to - 1]].shape, st[M_SCCD].n);
        for (int m = M_DCCD; m < M_COUNT; ++m)
            fprintf(f, ",%.6f", st[m].acc);
        fprintf(f, ",%.6f,%.6f\n", sd[M_SCCD].acc, sd[M_THESIS].acc);
    }
    free(idx);
}

/* The thesis' table 3.1 (accuracy, over, under; fractions). */
static const double thesis_sccd[3] = {0.0427, 0.9390, 0.0183}, thesis_sector[3] = {0.6768, 0.0125, 0.3107};

static void md_table(FILE *f, const job *j, int ref, bool thesis_column)
{
    stats st[M_COUNT];
    summarise(j, ref, NULL, 0, j->n, st);
    fprintf(f, "| method | accuracy | over-detection | under-detection | trials with a miss |%s\n",
            thesis_column ? " thesis table 3.1 (acc / over / under) |" : "");
    fprintf(f, "|---|---:|---:|---:|---:|%s\n", thesis_column ? "---|" : "");
    for (int m = 0; m < M_COUNT; ++m) {
        if (!shown(j, ref, m))
            continue;
        fprintf(f, "| %s | %.2f %% | %.2f %% | %.2f %% | %ld of %ld |", method_name[m], 100.0 * st[m].acc,
                100.0 * st[m].over, 100.0 * st[m].under, st[m].missed, st[m].n);
        const double *thesis = m == M_SCCD || m == M_SCCD_HALF ? thesis_sccd : (m == M_THESIS ? thesis_sector : NULL);
        if (thesis_column && thesis != NULL)
            fprintf(f, " %.2f %% / %.2f %% / %.2f %% |", 100.0 * thesis[0], 100.0 * thesis[1], 100.0 * thesis[2]);
        else if (thesis_column)
            fprintf(f, " |");
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

/* The three rates lie within a percentage point of the thesis' figures. */
static bool within_a_point(const stats *st, const double thesis[3])
{
    return fabs(st->acc - thesis[0]) <= 0.01 && fabs(st->over - thesis[1]) <= 0.01 &&
           fabs(st->under - thesis[2]) <= 0.01;
}

static void write_md(const sccd_eval_args *a, const job *jc, const job *jf, double tc, double tf, int threads)
{
    FILE *f = sccd_eval_open(a, "accuracy.md");
    fprintf(f, "## Accuracy in 3D: the thesis' protocol against the exact sweep\n\n");
    fprintf(f, "Seed 000 §3.1–3.2. %ld trials with the thesis' pose constraint (rotation about the box's local z, "
               "centre-to-pivot along local y, pivot outside the box), %ld without it; a random axis through the "
               "pivot at the origin, turn α in [0, 2π], pivot–centre distance in [12.5, 25] (unconstrained: [0, 25], "
               "any box orientation), box sizes in [0, 25]; the 100³ grid at spacing 1 (−49.5…49.5). Rates are "
               "eqs 3.1–3.6 per trial (accuracy = |M ∩ T| / |M ∪ T|, over = |M \\ T| / |M ∪ T|, under = "
               "|T \\ M| / |M ∪ T|), averaged over trials; a trial with an empty union is dropped (as the thesis "
               "drops zero denominators). Run time: %.1f s + %.1f s on %d threads, %.0f s of CPU "
               "(`build/bin/accuracy%s`).\n\n",
            jc->n, jf->n, tc, tf, threads, (double)clock() / CLOCKS_PER_SEC, a->quick ? " --quick" : "");
    fprintf(f, "Against the **exact** swept volume (truth3: closed-form arcs of each point's circle):\n\n");
    md_table(f, jc, REF_TRUTH, false);
    fprintf(f, "Against the thesis' own reference, the box at 101 poses (\"detailed DCCD\", 100 sub-steps), "
               "with the thesis' figures beside ours:\n\n");
    md_table(f, jc, REF_DCCD, true);
    fprintf(f, "The 100-sub-step reference itself is not exact: the DCCD row of the first table is what it misses "
               "of the true sweep. \"Ours\" is `sccd_sweep3_box` (conservative; 1, 2 or 4 radial bands); a miss by "
               "ours against the exact sweep fails the run.\n\n");
    stats sd[M_COUNT];
    summarise(jc, REF_DCCD, NULL, 0, jc->n, sd);
    bool sector_ok = within_a_point(&sd[M_THESIS], thesis_sector);
    bool sccd_ok = within_a_point(&sd[M_SCCD], thesis_sccd);
    fprintf(f, "The thesis' sector %s table 3.1; its S-CCD %s",
            sector_ok ? "reproduces within a point of" : "differs by more than a point from",
            sccd_ok ? "reproduces too.\n\n" : "does not. ");
    if (!sccd_ok)
        fprintf(f, "With the AABB of the start and end boxes, as §1 defines S-CCD, the AABB is %s than the "
                   "thesis' 93.90 %% over-detection implies. Of the variants tried on 100 trials while writing "
                   "this bench (the two AABBs without their hull, the AABBs of the bounding spheres, the hull with "
                   "the pivot, the start AABB inflated by the arc), the one closest to the thesis' figures reads "
                   "the drawn sizes as half-extents, i.e. doubles the box: the row \"S-CCD, sizes read as "
                   "half-extents\". This is a guess at what the thesis measured, not a method anyone should "
                   "use.\n\n",
                sd[M_SCCD].over < thesis_sccd[1] ? "far tighter" : "looser");
    fprintf(f, "![accuracy per 10° of turn](img/accuracy_angle.png)\n\n");
    fprintf(f, "![accuracy per box shape Wy − Wx](img/accuracy_shape.png)\n\n");
    fprintf(f, "Without the pose constraint (any box orientation, any pivot, the pivot inside the box allowed), "
               "where eq 2.1 does not apply; against the exact sweep:\n\n");
    md_table(f, jf, REF_TRUTH, false);
    fprintf(f, "![accuracy per 10° of turn, unconstrained poses](img/accuracy_free_angle.png)\n\n");
    fclose(f);
}

/* Ours must never miss a point of the exact sweep; DCCD must lie inside it. */
static int self_check(const job *j, const char *protocol)
{
    int bad = 0;
    for (long i = 0; i < j->n; ++i) {
        const trial_result *r = &j->res[i];
        for (int m = M_OURS1; m <= M_OURS4; ++m)
            if (r->t[REF_TRUTH][m].only_ref > 0) {
                fprintf(stderr, "accuracy: %s trial %ld: %s misses %d points of the exact sweep\n", protocol, i,
                        method_name[m], r->t[REF_TRUTH][m].only_ref);
                bad = 1;
            }
        if (r->t[REF_TRUTH][M_DCCD].only_m > 0) {
            fprintf(stderr, "accuracy: %s trial %ld: %d DCCD points outside the exact sweep\n", protocol, i,
                    r->t[REF_TRUTH][M_DCCD].only_m);
            bad = 1;
        }
    }
    return bad;
}

static void print_summary(const job *j, const char *protocol, double secs)
{
    stats st[M_COUNT];
    summarise(j, REF_TRUTH, NULL, 0, j->n, st);
    printf("%s: %ld trials in %.1f s (vs exact: accuracy / over / under)\n", protocol, j->n, secs);
    for (int m = M_DCCD; m < M_COUNT; ++m)
        if (shown(j, REF_TRUTH, m))
            printf("  %-36s %6.2f %% %6.2f %% %6.2f %%\n", method_name[m], 100 * st[m].acc, 100 * st[m].over,
                   100 * st[m].under);
}

int main(int argc, char **argv)
{
    sccd_eval_args a = sccd_eval_parse(argc, argv, "accuracy [--quick] [--out DIR] [--trials N] [--threads N]");
    long n = a.trials > 0 ? a.trials : (a.quick ? QUICK_TRIALS : FULL_TRIALS);
    job jc = {.constrained = true, .check = a.quick, .n = n};
    job jf = {.constrained = false, .check = a.quick, .n = n};
    jc.res = calloc((size_t)n, sizeof *jc.res);
    jf.res = calloc((size_t)n, sizeof *jf.res);
    if (!jc.res || !jf.res)
        return 1;
    double tc = run_all(&jc, a.threads);
    print_summary(&jc, "constrained", tc);
    double tf = run_all(&jf, a.threads);
    print_summary(&jf, "unconstrained", tf);

    FILE *f = sccd_eval_open(&a, "accuracy.csv");
    fprintf(f, "protocol,reference,method,trials,accuracy,over,under,max_under,trials_with_miss\n");
    write_summary_csv(f, &jc, "constrained");
    write_summary_csv(f, &jf, "unconstrained");
    fclose(f);
    f = sccd_eval_open(&a, "accuracy_angle.csv");
    write_angle_csv(f, &jc);
    fclose(f);
    f = sccd_eval_open(&a, "accuracy_free_angle.csv");
    write_angle_csv(f, &jf);
    fclose(f);
    f = sccd_eval_open(&a, "accuracy_shape.csv");
    write_shape_csv(f, &jc);
    fclose(f);
    write_md(&a, &jc, &jf, tc, tf, a.threads);

    int bad = self_check(&jc, "constrained") | self_check(&jf, "unconstrained") | atomic_load(&disagreements);
    free(jc.res);
    free(jf.res);
    if (bad)
        fprintf(stderr, "accuracy: FAILED (a conservative bound missed, or DCCD left the exact sweep)\n");
    return bad;
}
