/* The Chipmunk adapter's gathering (sccd_cp_internal.h): which shapes the
 * CCD phase (sccd_cp_ccd.c) hands to the solver. What lies within a round's
 * query boxes, grown by how far the slow bodies may move, is found by the
 * space's own index (a few boxes) or by matching every shape against all
 * the boxes at once (many); the bodies that may move farther are listed
 * with the boxes of what they may reach and matched against all the boxes
 * at once too (adapter_internal.h: the query boxes), so the cost grows with
 * the CCD bodies plus the moving bodies, not with their product (issue 14). */
#include <stdlib.h>
#include <string.h>

#include "sccd_cp_internal.h"

/* The query margin as a fraction of the smallest CCD box (sccd_cp_split_targets). */
#define SLOW_FRACTION 0.1

/* Shapes matched against the query boxes for the cost of one query of the
 * space's index (sccd_cp_gather_queries; callgrind, the debris rain of
 * 10,000 bodies and 1,000 CCD boxes: a query about 13 k instructions, a
 * shape matched against 1,000 boxes about 800). */
#define QUERY_SHAPES 16

/* A query box (the plane's, in 3D) grown by margin. */
static sccd_aabb2 bb_box(sccd_aabb3 b, sccd_real margin)
{
    return (sccd_aabb2){{b.lo.x - margin, b.lo.y - margin}, {b.hi.x + margin, b.hi.y + margin}};
}

static cpBB bb_of(sccd_aabb2 b, sccd_real margin)
{
    return cpBBNew(b.lo.x - margin, b.lo.y - margin, b.hi.x + margin, b.hi.y + margin);
}

/* How far any point of body b may move this step: a point at distance ρ
 * from the centre of gravity moves at most |v|dt + |ω|dt·ρ, and ρ is at most
 * the farthest corner of its shapes' boxes (start poses) plus |v|dt. A body
 * at rest is not returned early: it gets 0 (NaN with a box not finite,
 * which exceeds no margin either), and the test for it cost more than it
 * saved, 0.3 % of the CCD of the 1,000 + 100 debris rain (the bodies of a
 * pile are seldom quite still). Its shapes are counted into *shapes on
 * the way, for sccd_cp_split_targets (a walk of their own over every
 * body's shapes cost the swords buried in a pile 0.6 % of the CCD). */
static sccd_real body_reach(const cpBody *b, cpFloat dt, int *shapes)
{
    sccd_real v = cpvlength(b->v) + cpvlength(b->v_bias), om = fabs(b->w) + fabs(b->w_bias);
    sccd_real rho = 0.0;
    CP_BODY_FOREACH_SHAPE(b, s)
    {
        sccd_real dx = sccd_max(fabs(s->bb.l - b->p.x), fabs(s->bb.r - b->p.x));
        sccd_real dy = sccd_max(fabs(s->bb.b - b->p.y), fabs(s->bb.t - b->p.y));
        rho = sccd_max(rho, sqrt(dx * dx + dy * dy) + v * dt);
        ++*shapes;
    }
    return (v + om * rho) * dt;
}

/* Whether to gather shape s, whose points may move `margin` this step:
 * not a sensor, nor a shape whose filter rejects everything (the space's
 * query drops those too); then always, but for the solver's question about
 * a body an impact set moving: only what it could pass through
 * (sccd_adapter_keeps). The engine catches a pair the more surely the
 * thicker either shape is (its rule's bound grows with both halves), so
 * what keeps a shape however thick (half INFINITY) keeps s whatever its
 * thickness (test_adapter_shared holds the rule to that), which then need
 * not be measured (s made into a core shape): around swords buried in a
 * pile, most shapes the questions meet (their margin, the slow bodies'
 * reach, is more than half the asking body's thickness); measuring them
 * cost 0.2 % of the CCD. */
static bool keeps_shape(const sccd_cp_world *w, cpShape *s, sccd_real margin)
{
    if (s->sensor || cpShapeFilterReject(s->filter, CP_SHAPE_FILTER_ALL))
        return false;
    sccd_adapter_keep k = w->keeping;
    if (k.half == INFINITY)
        return true;
    bool fixed = cpBodyGetType(s->body) != CP_BODY_TYPE_DYNAMIC;
    if (sccd_adapter_keeps(k, margin, INFINITY, fixed))
        return true;
    sccd_shape2 g;
    sccd_cp_shape_of(&g, s);
    return sccd_adapter_keeps(k, margin, sccd_shape2_half_thickness(&g), fixed);
}

/* Shape s into the candidates, once a step; false when out of memory. */
static bool add_shape(sccd_cp_world *w, cpShape *s)
{
    int added = sccd_adapter_map_add(&w->gathered, s, 0);
    if (added <= 0)
        return added == 0;
    if (!sccd_adapter_reserve((void **)&w->cands, &w->capcands, w->ncands + 1, sizeof *w->cands))
        return false;
    w->cands[w->ncands++] = s;
    return true;
}

/* Gather shape s (its points moving up to margin this step); a body that
 * moves comes whole (every shape that collides): the solver's body is all
 * of it, and a shape found later could not join it in the middle of a
 * solve (sccd_cp_gather_reach). False when out of memory. */
bool sccd_cp_gather(sccd_cp_world *w, cpShape *s, sccd_real margin)
{
    /* the look-up first: most answers to the solver's questions are in already */
    if (sccd_adapter_map_get(&w->gathered, s) >= 0 || !keeps_shape(w, s, margin))
        return true;
    if (cpBodyGetType(s->body) == CP_BODY_TYPE_STATIC)
        return add_shape(w, s);
    CP_BODY_FOREACH_SHAPE(s->body, o)
    if (!o->sensor && !cpShapeFilterReject(o->filter, CP_SHAPE_FILTER_ALL) && !add_shape(w, o))
        return false;
    return true;
}

/* Shapes grouped by body (the solver wants them so): by the Chipmunk id
 * (hashid, counted by the space) of the body's first shape, then by the
 * shape's. Not by address: the solve depends on the order, and a world
 * must step alike whatever the allocator hands out (threads, runs). A
 * total order (the ids are distinct): the same result whatever the sort. */
static bool keys_before(cpHashValue body_p, cpHashValue p, cpHashValue body_q, cpHashValue q)
{
    return body_p < body_q || (body_p == body_q && p < q);
}

static bool shape_before(const cpShape *p, const cpShape *q)
{
    return keys_before(p->body->shapeList->hashid, p->hashid, q->body->shapeList->hashid, q->hashid);
}

static int shape_order(const void *x, const void *y)
{
    const cpShape *p = *(cpShape *const *)x, *q = *(cpShape *const *)y;
    return shape_before(p, q) ? -1 : shape_before(q, p) ? 1 : 0;
}

static bool key_before(const cp_shape_key *p, const cp_shape_key *q) { return keys_before(p->body, p->id, q->body, q->id); }

/* Up to this many shapes (every answer to the solver's questions, mostly a
 * body or two) an insertion sort: qsort's setup and calls cost more than
 * its comparisons save (callgrind: 16 saved most of it, 64 a little more
 * in the 1,000 + 100 debris rain). */
#define FEW_SHAPES 64

/* Keys k[lo..hi) by insertion. */
static void insert_keys(cp_shape_key *k, int lo, int hi)
{
    for (int i = lo + 1; i < hi; ++i) {
        cp_shape_key x = k[i];
        int j = i;
        for (; j > lo && key_before(&x, &k[j - 1]); --j)
            k[j] = k[j - 1];
        k[j] = x;
    }
}

/* Runs [lo, mid) and [mid, hi) of src merged into dst. */
static void merge_keys(const cp_shape_key *src, cp_shape_key *dst, int lo, int mid, int hi)
{
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        dst[k++] = key_before(&src[j], &src[i]) ? src[j++] : src[i++];
    while (i < mid)
        dst[k++] = src[i++];
    while (j < hi)
        dst[k++] = src[j++];
}

/* The n shapes c by their keys, each shape's two ids read once (qsort's
 * comparisons read them through three pointers each, and calls: 1.3 % of
 * the CCD of swords buried in a pile): runs of FEW_SHAPES / 4 by
 * insertion, then merges of doubling width between the two halves of
 * w->keys. False when out of memory (c unchanged). */
static bool sort_keyed(sccd_cp_world *w, cpShape **c, int n)
{
    if (!sccd_adapter_reserve((void **)&w->keys, &w->capkeys, 2 * n, sizeof *w->keys))
        return false;
    cp_shape_key *src = w->keys, *dst = w->keys + n;
    for (int i = 0; i < n; ++i)
        src[i] = (cp_shape_key){c[i]->body->shapeList->hashid, c[i]->hashid, c[i]};
    const int run = FEW_SHAPES / 4;
    for (int lo = 0; lo < n; lo += run)
        insert_keys(src, lo, lo + run < n ? lo + run : n);
    for (int width = run; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width)
            merge_keys(src, dst, lo, lo + width < n ? lo + width : n, lo + 2 * width < n ? lo + 2 * width : n);
        cp_shape_key *t = src;
        src = dst;
        dst = t;
    }
    for (int i = 0; i < n; ++i)
        c[i] = src[i].shape;
    return true;
}

void sccd_cp_group_shapes(sccd_cp_world *w, int from)
{
    int n = w->ncands - from;
    if (n <= 1) /* none: maybe no array yet */
        return;
    cpShape **c = w->cands + from;
    if (n > FEW_SHAPES) {
        if (!sort_keyed(w, c, n)) /* out of memory: the same order, slower */
            qsort(c, (size_t)n, sizeof *c, shape_order);
        return;
    }
    for (int k = 1; k < n; ++k) {
        cpShape *s = c[k];
        int j = k;
        for (; j > 0 && shape_before(s, c[j - 1]); --j)
            c[j] = c[j - 1];
        c[j] = s;
    }
}

/* Record r's box as a query box of the step: the shapes within it now
 * (grown by the slow bodies' reach) and the fast bodies that may reach it,
 * gathered at once for all the boxes (sccd_cp_gather_queries). */
bool sccd_cp_gather_box(sccd_cp_world *w, int r)
{
    if (!sccd_adapter_reserve((void **)&w->query_rec, &w->capquery, w->queries.count + 1, sizeof *w->query_rec))
        return false;
    int i = sccd_adapter_queries_add(&w->queries, box3_of(w->recs[r].box));
    if (i >= 0)
        w->query_rec[i] = r;
    return i >= 0;
}

/* Shape s, moving up to margin, met query box i: gathered, and the box's
 * CCD body marked as meeting something, unless s is its own (it gathers
 * its own shapes when it takes part in the solve: sccd_cp_ccd.c). */
static bool met_box(sccd_cp_world *w, int i, cpShape *s, sccd_real margin)
{
    cp_body_rec *r = &w->recs[w->query_rec[i]];
    if (s->body == r->body || s->sensor)
        return true;
    r->met = true;
    return sccd_cp_gather(w, s, margin);
}

static void gather_query(cpShape *shape, void *data)
{
    sccd_cp_world *w = data;
    w->gather_ok &= w->asking >= 0 ? met_box(w, w->asking, shape, w->slow) : sccd_cp_gather(w, shape, w->slow);
}

/* The shapes within query box i now, by the space's index. */
static bool query_space(sccd_cp_world *w, int i)
{
    sccd_aabb3 b = sccd_adapter_queries_box(&w->queries, i);
    w->asking = i;
    w->gather_ok = true;
    cpSpaceBBQuery(w->space, bb_of((sccd_aabb2){{b.lo.x, b.lo.y}, {b.hi.x, b.hi.y}}, w->slow), CP_SHAPE_FILTER_ALL,
                   gather_query, w);
    w->asking = -1;
    return w->gather_ok;
}

/* A shape of the space being matched against the query boxes. */
typedef struct cp_shape_match { sccd_cp_world *w; cpShape *shape; } cp_shape_match;

static bool shape_met(int i, void *context)
{
    const cp_shape_match *m = context;
    return met_box(m->w, i, m->shape, m->w->slow);
}

/* Shape s (its box now, grown by the slow bodies' reach) against every query box. */
static void match_shape(void *obj, void *data)
{
    sccd_cp_world *w = data;
    cpShape *s = obj;
    cp_shape_match m = {w, s};
    sccd_aabb2 box = {{s->bb.l - w->slow, s->bb.b - w->slow}, {s->bb.r + w->slow, s->bb.t + w->slow}};
    w->gather_ok = w->gather_ok && sccd_adapter_queries_match(&w->queries, box3_of(box), shape_met, &m);
}

/* A fast body being matched against the query boxes. */
typedef struct cp_match { sccd_cp_world *w; const cp_fast_body *fb; } cp_match;

/* The shapes of the fast body (its reach box meets query box i) that its reach may take into the box. */
static bool gather_met(int i, void *context)
{
    const cp_match *m = context;
    sccd_real reach = m->fb->reach;
    CP_BODY_FOREACH_SHAPE(m->fb->body, s)
    {
        sccd_aabb2 sb = {{s->bb.l - reach, s->bb.b - reach}, {s->bb.r + reach, s->bb.t + reach}};
        if (sccd_adapter_boxes_meet(sccd_adapter_queries_box(&m->w->queries, i), box3_of(sb)) && !met_box(m->w, i, s, reach))
            return false;
    }
    return true;
}

/* A query box being matched against the others. */
typedef struct cp_box_match { sccd_cp_world *w; int i; } cp_box_match;

/* Query boxes i and j meet: their CCD bodies may meet each other (within
 * the slow bodies' reach: a CCD body's start shapes are gathered into the
 * other's box by that margin). */
static bool ccd_met(int j, void *context)
{
    const cp_box_match *m = context;
    if (j != m->i)
        m->w->recs[m->w->query_rec[m->i]].met = m->w->recs[m->w->query_rec[j]].met = true;
    return true;
}

/* Gather for all the query boxes (kept for the solver's questions until
 * the next phase clears them: sccd_cp_gather_reach). The shapes within them
 * now: with few boxes by the space's index, a query each; with many (a
 * rain of debris, each a box) by one pass over the space's shapes, each
 * matched against all the boxes at once (matched_by_pass), but for the
 * fast bodies': the awake bodies' were matched by sccd_cp_split_targets,
 * the static ones' are matched here. Then the fast bodies: one pass over
 * them, each matched likewise. (Matching a fast body's shapes in the first
 * pass as well, which their reach boxes hold, cost a fifth of the
 * gathering in the 1,000 + 100 debris rain.) */
bool sccd_cp_gather_queries(sccd_cp_world *w)
{
    bool ok = true;
    if (!w->matched) {
        for (int i = 0; ok && i < w->queries.count; ++i)
            ok = query_space(w, i);
    } else {
        w->gather_ok = true;
        if (w->seen != cpSpatialIndexCount(w->space->dynamicShapes))
            cpSpatialIndexEach(w->space->dynamicShapes, match_shape, w); /* some not in the array: all of them */
        cpSpatialIndexEach(w->space->staticShapes, match_shape, w);
        ok = w->gather_ok;
    }
    for (int f = 0; ok && f < w->nfast && w->queries.count > 0; ++f) {
        cp_match m = {w, &w->fast[f]};
        ok = sccd_adapter_queries_match(&w->queries, box3_of(w->fast[f].box), gather_met, &m);
    }
    for (int i = 0; ok && i < w->queries.count; ++i) {
        cp_box_match m = {w, i};
        if (!w->recs[w->query_rec[i]].met) /* a met one's partners find it (the margin is the same both ways) */
            ok = sccd_adapter_queries_match(&w->queries, box3_of(bb_box(sccd_adapter_queries_box(&w->queries, i), w->slow)), ccd_met, &m);
    }
    return ok;
}

/* The fast bodies' reach boxes, listed once a step at the first question
 * of the solver (sccd_cp_gather_reach; sorted when the questions pay for
 * it, sccd_adapter_sorted_ask): fast body f is object f of w->fastq. */
static bool list_fast(sccd_cp_world *w)
{
    if (w->fast_listed)
        return true;
    sccd_adapter_sorted_clear(&w->fastq);
    for (int f = 0; f < w->nfast; ++f)
        if (sccd_adapter_sorted_add(&w->fastq, box3_of(w->fast[f].box)) < 0)
            return false;
    w->fast_listed = true;
    return true;
}

/* A question of the solver's (sccd_cp_gather_reach): its box, and whether
 * a query box it meets holds it. */
typedef struct cp_question { sccd_cp_world *w; sccd_aabb3 box; bool held; } cp_question;

/* Query box i meets the question's box, grown by the slow bodies' reach:
 * an idle CCD body's (met by nothing else at the step's start) joins the
 * solve, its shapes gathered; false when out of memory. */
static bool question_met(int i, void *context)
{
    cp_question *q = context;
    q->held |= sccd_adapter_box_holds(sccd_adapter_queries_box(&q->w->queries, i), q->box);
    cp_body_rec *r = &q->w->recs[q->w->query_rec[i]];
    if (!r->idle)
        return true;
    r->idle = false;
    CP_BODY_FOREACH_SHAPE(r->body, s)
    if (!sccd_cp_gather(q->w, s, 0.0))
        return false;
    return true;
}

/* A fast body and the box it is matched against (sccd_cp_gather_reach). */
typedef struct cp_reach_match { sccd_cp_world *w; sccd_aabb3 box; } cp_reach_match;

/* The shapes of fast body f that its reach may take into the box. */
static bool gather_fast(int f, void *context)
{
    const cp_reach_match *m = context;
    sccd_real reach = m->w->fast[f].reach;
    CP_BODY_FOREACH_SHAPE(m->w->fast[f].body, s)
    {
        sccd_aabb2 sb = {{s->bb.l - reach, s->bb.b - reach}, {s->bb.r + reach, s->bb.t + reach}};
        if (sccd_adapter_boxes_meet(m->box, box3_of(sb)) && !sccd_cp_gather(m->w, s, reach))
            return false;
    }
    return true;
}

/* The box of what shape g (Chipmunk's s) of CCD body r reaches this step:
 * a compact shape turning about its centre of gravity, the centre's path
 * grown (sccd_impact2_centre_box, a few hundred instructions); any other,
 * a blade turning a little, the motion box of *m, the body's free motion
 * (a hinged body's arc, a pivot's line), made at the first such shape
 * (*moved): about 1,200 instructions with the motion. */
static sccd_aabb2 ccd_shape_box(const cp_body_rec *r, const sccd_shape2 *g, cpFloat dt, sccd_motion2 *m, bool *moved)
{
    sccd_aabb2 box;
    if (sccd_impact2_centre_box(&r->start, g, dt, &box))
        return box;
    if (!*moved) {
        *m = sccd_impact2_free_motion(&r->start, dt);
        *moved = true;
    }
    return sccd_shape2_motion_box(g, *m);
}

/* CCD body r's box (r->box): what its shapes (not sensors) reach this
 * step, each by ccd_shape_box. False when it has none. */
bool sccd_cp_ccd_box(cp_body_rec *r, cpFloat dt)
{
    sccd_motion2 m;
    bool moved = false, any = false;
    CP_BODY_FOREACH_SHAPE(r->body, s)
    {
        if (s->sensor)
            continue;
        sccd_shape2 g;
        sccd_cp_shape_of(&g, s);
        sccd_aabb2 sb = ccd_shape_box(r, &g, dt, &m, &moved);
        r->box = any ? sccd_aabb2_union(r->box, sb) : sb;
        any = true;
    }
    return any;
}

/* Whether body b has an infinite mass, as Chipmunk's kinematic bodies have
 * (cpBodyGetType), compared bit for bit (a float compare tests for NaN too). */
static bool infinite_mass(const cpBody *b)
{
    uint64_t m, inf;
    cpFloat infinite = INFINITY;
    memcpy(&m, &b->m, sizeof m);
    memcpy(&inf, &infinite, sizeof inf);
    return m == inf;
}

/* Whether the dynamic index may hold a kinematic body's shape: a body of
 * the array has an infinite mass, or a shape is there whose body is not in
 * the array (left in the space without it; its body may be kinematic): the
 * index holds more shapes than the array's bodies (counted by the split's
 * pass). Found once a step, at a flying body's first question: the mass
 * tested in the split's pass over every body cost the 1,000 + 100 debris
 * rain more than its few flying bodies' questions save. (The shapes counted
 * here as well, walking every body's list, cost the swords buried in a
 * pile 0.14 % of the CCD: the split's pass walks them anyway.) */
static bool dynamic_index_fixed(sccd_cp_world *w)
{
    if (w->fixed_moving >= 0)
        return w->fixed_moving;
    cpBody **bodies = (cpBody **)w->space->dynamicBodies->arr;
    bool infinite = false;
    for (int i = 0, n = w->space->dynamicBodies->num; i < n; ++i)
        infinite |= infinite_mass(bodies[i]);
    w->fixed_moving = infinite || w->seen != cpSpatialIndexCount(w->space->dynamicShapes);
    return w->fixed_moving;
}

/* A question of a flying body's asked of the static index alone (sccd_cp_gather_reach). */
typedef struct cp_static_question { sccd_cp_world *w; cpBB bb; } cp_static_question;

/* A static shape the index reports: gathered when its box meets the question's. */
static cpCollisionID static_met(void *question, void *shape, cpCollisionID id, void *data)
{
    (void)data;
    const cp_static_question *q = question;
    if (cpBBIntersects(q->bb, ((cpShape *)shape)->bb))
        gather_query(shape, q->w);
    return id;
}

/* The shapes within bb now that `keep` may keep, by the space's indexes.
 * A flying body's question keeps only static and kinematic bodies' shapes
 * (sccd_adapter_keeps, fixed_only). A static body's shapes are in the
 * static index (a sleeping body's too, which such a question does not
 * keep); when the dynamic index holds no kinematic body's shape
 * (dynamic_index_fixed) it has nothing for the question, and the static
 * index alone is asked, with cpSpaceBBQuery's box test (the shape filter
 * is sccd_cp_gather's, which every shape gathered passes). (Around swords
 * buried in a pile, whose struck bodies ask a quarter of the questions,
 * the dynamic index's queries for them and the shapes they returned, each
 * made into a core shape to be thrown away, cost 1.8 % of the CCD.) */
static void query_fixed(sccd_cp_world *w, cpBB bb, sccd_adapter_keep keep)
{
    if (keep.fixed_only && !dynamic_index_fixed(w)) {
        cp_static_question q = {w, bb};
        cpSpatialIndexQuery(w->space->staticShapes, &q, bb, static_met, NULL);
    } else {
        cpSpaceBBQuery(w->space, bb, CP_SHAPE_FILTER_ALL, gather_query, w);
    }
}

/* Gather at once what may be in box this step and `keep` keeps: the idle
 * CCD bodies whose boxes it meets (their starts may lie outside it, where
 * the space's index has them), the shapes within it now (the space's
 * index, the box grown by the slow bodies' reach) and the fast bodies'
 * shapes that may reach it. For the solver's questions in the middle of a
 * solve, one box at a time. A box within one of the step's query boxes
 * (the CCD bodies' own: they keep everything) holds nothing they did not
 * gather: around swords buried in a pile, two questions in five. */
bool sccd_cp_gather_reach(sccd_cp_world *w, sccd_aabb2 box, sccd_adapter_keep keep)
{
    cp_question q = {w, box3_of(box), false};
    if (!sccd_adapter_queries_match(&w->queries, box3_of(bb_box(q.box, w->slow)), question_met, &q))
        return false;
    if (q.held)
        return true;
    w->keeping = keep;
    w->gather_ok = true;
    query_fixed(w, bb_of(box, w->slow), keep);
    /* the fast bodies are the array's: with none kinematic, a flying body's question keeps none */
    cp_reach_match m = {w, box3_of(box)};
    bool ok = w->gather_ok && ((keep.fixed_only && !dynamic_index_fixed(w)) ||
                               (list_fast(w) && sccd_adapter_sorted_ask(&w->fastq, m.box, gather_fast, &m)));
    w->fast_listed &= ok; /* out of memory (maybe sorting them): listed anew at the next question */
    w->keeping = (sccd_adapter_keep){0.0, INFINITY};
    return ok;
}

/* The box of body b's shapes at the start, grown by reach. */
static sccd_aabb2 reach_box(const cpBody *b, sccd_real reach)
{
    sccd_aabb2 box = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    CP_BODY_FOREACH_SHAPE(b, s)
    {
        box.lo = (sccd_v2){sccd_min(box.lo.x, s->bb.l - reach), sccd_min(box.lo.y, s->bb.b - reach)};
        box.hi = (sccd_v2){sccd_max(box.hi.x, s->bb.r + reach), sccd_max(box.hi.y, s->bb.t + reach)};
    }
    return box;
}

/* Whether the query boxes are matched by a pass over the space's shapes
 * (many boxes), not each asked of the space's index (a few: a query of the
 * index costs about as much as matching QUERY_SHAPES shapes). */
static bool matched_by_pass(const sccd_cp_world *w)
{
    int shapes = cpSpatialIndexCount(w->space->dynamicShapes) + cpSpatialIndexCount(w->space->staticShapes);
    return w->queries.count > 0 && w->queries.count * QUERY_SHAPES >= shapes;
}

/* Split the non-CCD bodies by how far they may move this step. The shapes'
 * boxes are at the start poses, so a query of the space is grown by the
 * slow bodies' largest reach (`slow`, a fraction of the smallest CCD box);
 * the faster ones (in a falling pile, most) are listed with their reach
 * boxes and matched against all query boxes at once (sccd_cp_gather_queries). Every
 * body is in one of the two, so no candidate is lost. Called once the
 * step's query boxes are recorded: when they are matched by a pass over
 * the shapes, the shapes of the awake bodies not listed (the slow ones and
 * the CCD bodies) are matched in the same pass over the bodies (a second
 * pass, finding each body in the fast list, cost 1.1 % of the CCD of the
 * 1,000 + 100 debris rain). w->seen counts the shapes of the bodies seen:
 * a body removed from the space with its shapes left in it (Chipmunk
 * allows that; they still collide) is not in the array, and
 * sccd_cp_gather_queries then matches every shape. False when out of
 * memory. */
bool sccd_cp_split_targets(sccd_cp_world *w, sccd_real smallest, cpFloat dt)
{
    w->slow = SLOW_FRACTION * (sccd_is_valid_real(smallest) ? smallest : 0.0);
    w->seen = -1; /* counted anew by this pass (an out-of-memory return leaves it unknown) */
    w->matched = false;
    w->nfast = 0;
    w->fast_listed = false;
    w->gather_ok = true;
    w->fixed_moving = -1; /* found anew this step, out of memory too */
    sccd_adapter_sorted_next_step(&w->fastq);
    bool pass = matched_by_pass(w);
    int seen = 0;
    /* the array and the margin in locals (gathering changes neither): read
     * through w, the calls in the loop had them loaded again at every body */
    cpBody **bodies = (cpBody **)w->space->dynamicBodies->arr;
    sccd_real slow = w->slow;
    for (int i = 0, n = w->space->dynamicBodies->num; i < n && w->gather_ok; ++i) {
        cpBody *b = bodies[i];
        int shapes = 0;
        sccd_real reach = 0.0; /* a CCD body is never listed */
        if (sccd_cp_enabled_rec(w, b) == NULL)
            reach = body_reach(b, dt, &shapes);
        else
            CP_BODY_FOREACH_SHAPE(b, s)
            ++shapes;
        seen += shapes;
        bool fast = reach > slow;
        if (fast) {
            if (!sccd_adapter_reserve((void **)&w->fast, &w->capfast, w->nfast + 1, sizeof *w->fast))
                return false;
            w->fast[w->nfast++] = (cp_fast_body){b, reach, reach_box(b, reach)};
        }
        if (pass && !fast)
            CP_BODY_FOREACH_SHAPE(b, s)
            match_shape(s, w);
    }
    w->seen = seen;
    w->matched = pass;
    return w->gather_ok;
}
