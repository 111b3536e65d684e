/* Building bounding sphere trees of a mesh (meshtree.h): triangle pieces,
 * candidate centres with their depth, a greedy cover for a bound ε (bisected
 * under a leaf budget), the assignment that shrinks the leaves, then the
 * sphere tree and the leaves' triangle lists. */
#include "sectorccd/meshtree.h"
#include "sectorccd/catalogue.h"
#include "sectorccd/spherefill.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

/* Halvings of one triangle at most (2^MAX_DEPTH pieces), and pieces in all. */
#define MAX_DEPTH 16
#define MAX_PIECES ((size_t)1 << 22)
/* Candidate centres come from pieces this many times longer than the cover's. */
#define CANDIDATE_SPACING 1.0
/* Candidates are thinned to the deepest per cell of this many times the piece size. */
#define THIN_CELL 0.25

/* The piece grid's cells per box diagonal: coarse, as a deep candidate's
 * ball query visits every cell of its ball (thinning keeps one candidate
 * per cell, so this also sets how many candidates there are). */
#define GRID_CELLS 48.0

typedef struct piece { sccd_v3 v[3]; int tri; } piece;

/* A candidate centre and its distance to the surface (0 when it is not
 * known to be inside). */
typedef struct candidate { sccd_v3 c; sccd_real depth; } candidate;

/* Pieces bucketed by centroid in a uniform grid, for ball queries. */
typedef struct piece_grid {
    sccd_v3 lo;
    sccd_real cell, reach; /* cell edge; largest centroid-to-corner distance */
    int n[3];
    int *first, *items;    /* cell k holds items[first[k] .. first[k + 1] − 1] */
} piece_grid;

typedef struct cover {
    const sccd_mesh *m;
    piece *p;
    int np;
    candidate *c;
    int nc;
    piece_grid g;
} cover;

sccd_meshtree_options sccd_meshtree_default_options(void)
{
    return (sccd_meshtree_options){0, 0.02, 48, 1.0 / 64.0, SCCD_BOUND_TIGHT};
}

void sccd_meshtree_init(sccd_meshtree *t)
{
    SCCD_ASSERT(t != NULL);
    if (!t)
        return;
    *t = (sccd_meshtree){0};
    sccd_spheretree_init(&t->tree);
    sccd_mesh_init(&t->mesh);
}

void sccd_meshtree_destroy(sccd_meshtree *t)
{
    if (!t)
        return;
    sccd_spheretree_destroy(&t->tree);
    sccd_mesh_destroy(&t->mesh);
    sccd_free(t->tri_first);
    sccd_free(t->tris);
    sccd_free(t->leaf_error);
    sccd_free(t->tri_bound);
    sccd_meshtree_init(t);
}

/* ---- pieces ---- */

static size_t bisect(piece p, sccd_real len, int depth, piece *out, size_t at);

/* A sliver (shortest edge b–c at most len / 2) cut into n strips by lines
 * parallel to b–c: the tip at a, then trapezoids of two pieces each, their
 * corners on a lattice shared by the neighbours. Pieces grow with the
 * sliver's length over len, where halving would grow with its square. */
static size_t strips(piece p, int n, sccd_real len, int depth, piece *out, size_t at)
{
    sccd_v3 a = p.v[0], ab = sccd_v3_sub(p.v[1], a), ac = sccd_v3_sub(p.v[2], a);
    for (int i = 0; i < n; ++i) {
        sccd_real s0 = (sccd_real)i / n, s1 = (sccd_real)(i + 1) / n;
        sccd_v3 p0 = sccd_v3_mad(a, s0, ab), q0 = sccd_v3_mad(a, s0, ac);
        sccd_v3 p1 = i + 1 == n ? p.v[1] : sccd_v3_mad(a, s1, ab), q1 = i + 1 == n ? p.v[2] : sccd_v3_mad(a, s1, ac);
        if (i > 0)
            at = bisect((piece){{p0, p1, q0}, p.tri}, len, depth + 1, out, at);
        at = bisect((piece){{i > 0 ? q0 : a, p1, q1}, p.tri}, len, depth + 1, out, at);
    }
    return at;
}

/* Cut p until no edge is longer than len (at most MAX_DEPTH levels): a
 * sliver into strips, anything else halved across its longest edge. The
 * parts share their cut points, computed once, so they tile the triangle
 * exactly. With out NULL, only counts. */
static size_t bisect(piece p, sccd_real len, int depth, piece *out, size_t at)
{
    sccd_real e[3];
    for (int i = 0; i < 3; ++i)
        e[i] = sccd_v3_len2(sccd_v3_sub(p.v[(i + 1) % 3], p.v[i]));
    int l = e[0] >= e[1] && e[0] >= e[2] ? 0 : (e[1] >= e[2] ? 1 : 2);
    int s = e[0] <= e[1] && e[0] <= e[2] ? 0 : (e[1] <= e[2] ? 1 : 2);
    if (e[l] <= len * len || depth == MAX_DEPTH) {
        if (out)
            out[at] = p;
        return at + 1;
    }
    if (4.0 * e[s] <= len * len) {
        /* the apex opposite the short edge v[s]–v[s+1] first */
        int apex = (s + 2) % 3;
        piece q = {{p.v[apex], p.v[(apex + 1) % 3], p.v[(apex + 2) % 3]}, p.tri};
        return strips(q, (int)sccd_min(ceil(sqrt(e[l]) / len), 1 << 12), len, depth, out, at);
    }
    sccd_v3 a = p.v[l], b = p.v[(l + 1) % 3], c = p.v[(l + 2) % 3];
    sccd_v3 mid = sccd_v3_scale(sccd_v3_add(a, b), 0.5);
    at = bisect((piece){{a, mid, c}, p.tri}, len, depth + 1, out, at);
    return bisect((piece){{mid, b, c}, p.tri}, len, depth + 1, out, at);
}

static piece whole(const sccd_mesh *m, int t)
{
    sccd_triangle tri = sccd_mesh_triangle(m, t);
    return (piece){{tri.a, tri.b, tri.c}, t};
}

static bool make_pieces(cover *k, sccd_real len)
{
    size_t total = 0;
    for (int t = 0; t < k->m->nt && total <= MAX_PIECES; ++t)
        total = bisect(whole(k->m, t), len, 0, NULL, total);
    k->p = total <= MAX_PIECES ? sccd_alloc(total * sizeof *k->p) : NULL;
    if (!k->p)
        return false;
    for (int t = 0; t < k->m->nt; ++t)
        k->np = (int)bisect(whole(k->m, t), len, 0, k->p, (size_t)k->np);
    return true;
}

static sccd_v3 centroid(const piece *p)
{
    return sccd_v3_scale(sccd_v3_add(p->v[0], sccd_v3_add(p->v[1], p->v[2])), 1.0 / 3.0);
}

/* Squared distance from c to the farthest corner of p. */
static sccd_real reach2(sccd_v3 c, const piece *p)
{
    return sccd_max(sccd_v3_len2(sccd_v3_sub(c, p->v[0])), sccd_max(sccd_v3_len2(sccd_v3_sub(c, p->v[1])), sccd_v3_len2(sccd_v3_sub(c, p->v[2]))));
}

/* ---- the grid of pieces ---- */

static int grid_axis(const piece_grid *g, sccd_real x, sccd_real lo, int a)
{
    return (int)sccd_clamp(floor((x - lo) / g->cell), 0.0, g->n[a] - 1.0);
}

static int grid_cell(const piece_grid *g, sccd_v3 p)
{
    int i = grid_axis(g, p.x, g->lo.x, 0), j = grid_axis(g, p.y, g->lo.y, 1), k = grid_axis(g, p.z, g->lo.z, 2);
    return i + g->n[0] * (j + g->n[1] * k);
}

static bool make_grid(cover *k, sccd_aabb3 box)
{
    piece_grid *g = &k->g;
    sccd_v3 e = sccd_v3_sub(box.hi, box.lo);
    g->cell = sccd_max(sccd_v3_len(e) / GRID_CELLS, DBL_MIN);
    g->lo = box.lo;
    sccd_real ext[3] = {e.x, e.y, e.z};
    for (int a = 0; a < 3; ++a)
        g->n[a] = (int)sccd_clamp(ceil(ext[a] / g->cell), 1.0, GRID_CELLS);
    size_t cells = (size_t)g->n[0] * g->n[1] * g->n[2];
    g->first = sccd_calloc(cells + 1, sizeof *g->first);
    g->items = sccd_alloc(((size_t)k->np + 1) * sizeof *g->items);
    if (!g->first || !g->items)
        return false;
    for (int i = 0; i < k->np; ++i) {
        sccd_v3 c = centroid(&k->p[i]);
        g->reach = sccd_max(g->reach, sqrt(reach2(c, &k->p[i])));
        g->first[grid_cell(g, c) + 1]++;
    }
    for (size_t c = 0; c < cells; ++c)
        g->first[c + 1] += g->first[c];
    int *at = sccd_alloc((cells + 1) * sizeof *at);
    if (!at)
        return false;
    memcpy(at, g->first, (cells + 1) * sizeof *at);
    for (int i = 0; i < k->np; ++i)
        g->items[at[grid_cell(g, centroid(&k->p[i]))]++] = i;
    sccd_free(at);
    return true;
}

/* Call visit(piece, ctx) for every piece whose corners all lie within R of
 * c (pieces whose centroid is farther than R cannot qualify). */
typedef void visit_fn(int pc, sccd_real reach2, void *ctx);

static void for_pieces_in_ball(const cover *k, sccd_v3 c, sccd_real R, visit_fn *visit, void *ctx)
{
    const piece_grid *g = &k->g;
    sccd_real cc[3] = {c.x, c.y, c.z}, lo[3] = {g->lo.x, g->lo.y, g->lo.z};
    int a0[3], a1[3];
    for (int a = 0; a < 3; ++a) {
        a0[a] = grid_axis(g, cc[a] - R, lo[a], a);
        a1[a] = grid_axis(g, cc[a] + R, lo[a], a);
    }
    sccd_real R2 = R * R;
    for (int z = a0[2]; z <= a1[2]; ++z)
        for (int y = a0[1]; y <= a1[1]; ++y)
            for (int x = a0[0]; x <= a1[0]; ++x) {
                int cell = x + g->n[0] * (y + g->n[1] * z);
                for (int q = g->first[cell]; q < g->first[cell + 1]; ++q) {
                    int i = g->items[q];
                    sccd_real d2 = reach2(c, &k->p[i]);
                    if (d2 <= R2)
                        visit(i, d2, ctx);
                }
            }
}

/* ---- candidates ---- */

static bool inside(const sccd_mesh *m, sccd_v3 p) { return sccd_mesh_winding_number(m, p) > 0.5; }

static candidate make_candidate(const sccd_mesh *m, sccd_v3 c)
{
    return (candidate){c, inside(m, c) ? sccd_mesh_distance(m, c) : 0.0};
}

/* The midpoint of the piece's inward ray to the next wall: where the
 * maximal ball touching the surface there is centred when the walls are
 * parallel, and inside in any case for a closed oriented mesh (the first
 * wall along the inward normal ends the inside stretch; other meshes ask
 * the winding number). The centroid itself when the ray finds no wall or
 * the midpoint is not inside. */
static candidate piece_candidate(const sccd_mesh *m, const piece *p, sccd_real inward, bool closed)
{
    sccd_v3 o = centroid(p);
    sccd_v3 n = sccd_v3_cross(sccd_v3_sub(p->v[1], p->v[0]), sccd_v3_sub(p->v[2], p->v[0]));
    sccd_real len = sccd_v3_len(n);
    candidate fallback = {o, 0.0};
    if (!(len > 0.0))
        return fallback;
    sccd_ray3 ray = {o, sccd_v3_scale(n, inward / len)};
    sccd_real best = INFINITY;
    for (int t = 0; t < m->nt; ++t) {
        if (t == p->tri)
            continue;
        sccd_cast3 h = sccd_raycast_triangle(ray, sccd_mesh_triangle(m, t));
        if (h.hit && h.t > 0.0)
            best = sccd_min(best, h.t);
    }
    if (best == INFINITY)
        return fallback;
    sccd_v3 mid = sccd_v3_mad(o, 0.5 * best, ray.d);
    if (!closed && !inside(m, mid))
        return fallback;
    return (candidate){mid, sccd_mesh_distance(m, mid)};
}

/* Candidates by cell of edge h (the cell key as three integers), deepest first within a cell. */
typedef struct keyed { long long key[3]; candidate c; } keyed;

static int by_cell_depth(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    for (int i = 0; i < 3; ++i)
        if (a->key[i] != b->key[i])
            return a->key[i] < b->key[i] ? -1 : 1;
    return (a->c.depth < b->c.depth) - (a->c.depth > b->c.depth);
}

/* Neighbouring pieces give nearly the same candidate: keep the deepest per
 * cell of edge h (the cover's cost grows with the candidates, its quality
 * hardly, while h stays near the piece size). */
static bool thin_candidates(cover *k, sccd_real h)
{
    keyed *e = sccd_alloc(((size_t)k->nc + 1) * sizeof *e);
    if (!e)
        return false;
    for (int i = 0; i < k->nc; ++i) {
        sccd_v3 p = sccd_v3_scale(sccd_v3_sub(k->c[i].c, k->g.lo), 1.0 / h);
        e[i] = (keyed){{(long long)floor(p.x), (long long)floor(p.y), (long long)floor(p.z)}, k->c[i]};
    }
    qsort(e, (size_t)k->nc, sizeof *e, by_cell_depth);
    int n = 0;
    for (int i = 0; i < k->nc; ++i)
        if (i == 0 || memcmp(e[i].key, e[i - 1].key, sizeof e[i].key) != 0)
            k->c[n++] = e[i].c;
    k->nc = n;
    sccd_free(e);
    return true;
}

/* Inner fill centres, then one candidate per coarse piece (CANDIDATE_SPACING
 * times the cover's: the inward rays cost a pass over the triangles each),
 * thinned. */
static bool make_candidates(cover *k, int res, sccd_real len)
{
    sccd_mesh_report r = sccd_mesh_report_make(k->m);
    sccd_real inward = r.volume >= 0.0 ? -1.0 : 1.0; /* normals point out when the volume is positive */
    sccd_sphere_list l;
    sccd_voxel_grid g;
    cover coarse = {k->m, NULL, 0, NULL, 0, {{0, 0, 0}, 0, 0, {0, 0, 0}, NULL, NULL}};
    sccd_sphere_list_init(&l);
    sccd_voxel_grid_init(&g);
    bool ok = make_pieces(&coarse, CANDIDATE_SPACING * len) &&
              (res == 0 || (sccd_voxelize(&g, k->m, res) && (sccd_spherefill(&l, &g, SCCD_FILL_GREEDY), true)));
    k->c = ok ? sccd_alloc(((size_t)l.n + coarse.np) * sizeof *k->c) : NULL;
    ok = k->c != NULL;
    for (int i = 0; ok && i < l.n; ++i) {
        candidate c = make_candidate(k->m, l.s[i].c);
        if (c.depth > 0.0)
            k->c[k->nc++] = c;
    }
    for (int i = 0; ok && i < coarse.np; ++i)
        k->c[k->nc++] = piece_candidate(k->m, &coarse.p[i], inward, r.oriented);
    ok = ok && thin_candidates(k, THIN_CELL * len);
    sccd_free(coarse.p);
    sccd_sphere_list_destroy(&l);
    sccd_voxel_grid_destroy(&g);
    return ok;
}

/* ---- the greedy cover for one bound ---- */

typedef struct greedy {
    const cover *k;
    sccd_real eps;
    unsigned char *covered; /* per piece */
    int *gain;              /* per candidate: uncovered pieces it may take (stale until re-counted) */
    int *heap, heap_n;      /* candidates by gain, largest on top */
    int count;              /* scratch of the visits */
} greedy;

static void count_uncovered(int pc, sccd_real d2, void *ctx)
{
    (void)d2;
    greedy *w = ctx;
    w->count += !w->covered[pc];
}

static void mark_covered(int pc, sccd_real d2, void *ctx)
{
    (void)d2;
    ((greedy *)ctx)->covered[pc] = 1;
}

static int recount(greedy *w, int c)
{
    w->count = 0;
    for_pieces_in_ball(w->k, w->k->c[c].c, w->k->c[c].depth + w->eps, count_uncovered, w);
    return w->count;
}

static void sift_down(greedy *w, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, top = i;
        if (l < w->heap_n && w->gain[w->heap[l]] > w->gain[w->heap[top]])
            top = l;
        if (r < w->heap_n && w->gain[w->heap[r]] > w->gain[w->heap[top]])
            top = r;
        if (top == i)
            return;
        int s = w->heap[i];
        w->heap[i] = w->heap[top];
        w->heap[top] = s;
        i = top;
    }
}

/* Lazy greedy set cover (gains only fall as pieces get covered, so a
 * re-counted top that still beats the next stale gain is the best). Picks
 * into chosen (room for limit); returns how many, or −1 when more than
 * limit are needed or some piece cannot be covered at this bound. */
static int greedy_cover(const cover *k, sccd_real eps, int limit, int *chosen, greedy *w)
{
    w->k = k;
    w->eps = eps;
    memset(w->covered, 0, (size_t)k->np);
    w->heap_n = 0;
    for (int c = 0; c < k->nc; ++c) {
        w->gain[c] = recount(w, c);
        if (w->gain[c] > 0)
            w->heap[w->heap_n++] = c;
    }
    for (int i = w->heap_n / 2 - 1; i >= 0; --i)
        sift_down(w, i);
    int picked = 0, left = k->np;
    while (left > 0 && w->heap_n > 0) {
        int c = w->heap[0];
        w->gain[c] = recount(w, c);
        if (w->gain[c] == 0) {
            w->heap[0] = w->heap[--w->heap_n];
            sift_down(w, 0);
            continue;
        }
        int next = w->heap_n > 1 ? w->gain[w->heap[1]] : 0;
        next = w->heap_n > 2 && w->gain[w->heap[2]] > next ? w->gain[w->heap[2]] : next;
        if (w->gain[c] < next) {
            sift_down(w, 0);
            continue;
        }
        if (picked == limit)
            return -1;
        chosen[picked++] = c;
        left -= w->gain[c];
        for_pieces_in_ball(k, k->c[c].c, k->c[c].depth + eps, mark_covered, w);
        w->heap[0] = w->heap[--w->heap_n];
        sift_down(w, 0);
    }
    return left == 0 ? picked : -1;
}

/* ---- leaves ---- */

typedef struct assign {
    const cover *k;
    int cand, slot;
    sccd_real *best; /* per piece: smallest excess over the picked centres */
    int *owner;      /* per piece: the leaf slot */
} assign;

static void take_piece(int pc, sccd_real d2, void *ctx)
{
    assign *a = ctx;
    sccd_real excess = sqrt(d2) - a->k->c[a->cand].depth;
    if (excess < a->best[pc]) {
        a->best[pc] = excess;
        a->owner[pc] = a->slot;
    }
}

/* Each piece to the picked centre that covers it with the least excess,
 * then each leaf shrunk to its pieces' corners (pieces covered at eps by
 * some picked centre, so every piece finds one). Returns how many leaves
 * keep pieces (0 out of memory). */
static int make_leaves(const cover *k, sccd_real eps, const int *chosen, int n, int *owner, sccd_sphere *leaf,
                       sccd_real *err)
{
    assign a = {k, 0, 0, sccd_alloc(((size_t)k->np + 1) * sizeof(sccd_real)), owner};
    int *slot = sccd_alloc(((size_t)n + 1) * sizeof *slot), used = 0;
    if (!a.best || !slot) {
        sccd_free(a.best);
        sccd_free(slot);
        return 0;
    }
    for (int i = 0; i < k->np; ++i)
        a.best[i] = INFINITY, owner[i] = -1;
    for (int s = 0; s < n; ++s) {
        a.cand = chosen[s];
        a.slot = s;
        for_pieces_in_ball(k, k->c[chosen[s]].c, k->c[chosen[s]].depth + eps, take_piece, &a);
        leaf[s] = (sccd_sphere){k->c[chosen[s]].c, 0.0};
    }
    /* A picked centre may lose all its pieces to better ones: slots are
     * renumbered over the leaves that keep some. */
    for (int s = 0; s < n; ++s)
        slot[s] = -1;
    for (int i = 0; i < k->np; ++i)
        slot[owner[i]] = 0;
    for (int s = 0; s < n; ++s)
        if (slot[s] == 0) {
            slot[s] = used;
            leaf[used] = leaf[s];
            err[used++] = k->c[chosen[s]].depth; /* for now */
        }
    for (int i = 0; i < k->np; ++i) {
        owner[i] = slot[owner[i]];
        leaf[owner[i]].r = sccd_max(leaf[owner[i]].r, sqrt(reach2(leaf[owner[i]].c, &k->p[i])));
    }
    for (int s = 0; s < used; ++s) {
        /* rounding of the distances: a few ulps of the coordinates' size */
        sccd_v3 c = leaf[s].c;
        leaf[s].r += 8.0 * DBL_EPSILON * (leaf[s].r + fabs(c.x) + fabs(c.y) + fabs(c.z));
        err[s] = leaf[s].r - err[s];
    }
    sccd_free(a.best);
    sccd_free(slot);
    return used;
}

/* ---- the tree ---- */

static int by_owner_tri(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The triangle lists in the tree's leaf order. */
static bool make_lists(sccd_meshtree *t, const cover *k, const int *owner, int n)
{
    int (*pairs)[2] = sccd_alloc(((size_t)k->np + 1) * sizeof *pairs);
    int *slot_first = sccd_calloc((size_t)n + 1, sizeof *slot_first);
    t->tri_first = sccd_calloc((size_t)n + 1, sizeof *t->tri_first);
    t->tris = sccd_alloc(((size_t)k->np + 1) * sizeof *t->tris);
    bool ok = pairs && slot_first && t->tri_first && t->tris;
    int u = 0;
    if (ok) {
        for (int i = 0; i < k->np; ++i)
            pairs[i][0] = owner[i], pairs[i][1] = k->p[i].tri;
        qsort(pairs, (size_t)k->np, sizeof *pairs, by_owner_tri);
        for (int i = 0; i < k->np; ++i)
            if (i == 0 || by_owner_tri(pairs[i], pairs[i - 1]) != 0)
                pairs[u++][0] = pairs[i][0], pairs[u - 1][1] = pairs[i][1];
        for (int i = 0; i < u; ++i)
            slot_first[pairs[i][0] + 1]++;
        for (int s = 0; s < n; ++s)
            slot_first[s + 1] += slot_first[s];
        int at = 0;
        for (int leaf = 0; leaf < n; ++leaf) {
            int s = t->tree.leaf_source[leaf];
            t->tri_first[leaf] = at;
            for (int q = slot_first[s]; q < slot_first[s + 1]; ++q)
                t->tris[at++] = pairs[q][1];
        }
        t->tri_first[n] = at;
    }
    sccd_free(pairs);
    sccd_free(slot_first);
    return ok;
}

/* A sphere around each triangle: centroid, radius to the farthest corner. */
static bool make_tri_bounds(sccd_meshtree *t)
{
    const sccd_mesh *m = &t->mesh;
    t->tri_bound = sccd_alloc((size_t)m->nt * sizeof *t->tri_bound);
    if (!t->tri_bound)
        return false;
    for (int i = 0; i < m->nt; ++i) {
        piece p = whole(m, i);
        sccd_v3 c = centroid(&p);
        t->tri_bound[i] = (sccd_sphere){c, sqrt(reach2(c, &p))};
    }
    return true;
}

static bool copy_mesh(sccd_mesh *dst, const sccd_mesh *src)
{
    for (int i = 0; i < src->nv; ++i)
        if (sccd_mesh_add_vertex(dst, src->v[i]) < 0)
            return false;
    for (int i = 0; i < src->nt; ++i)
        if (!sccd_mesh_add_triangle(dst, src->t[i][0], src->t[i][1], src->t[i][2]))
            return false;
    return true;
}

/* The cover at the bound eps (or the smallest that fits max_leaves). */
static int solve(const cover *k, const sccd_meshtree_options *o, sccd_real diag, sccd_real *eps, int *chosen,
                 greedy *w)
{
    if (o->max_leaves == 0) {
        /* A bound of one diagonal is always met (by any candidate inside the
         * box); below it the bound is raised until every piece finds a centre. */
        *eps = sccd_min(o->error * diag, diag);
        int n = greedy_cover(k, *eps, k->nc, chosen, w);
        while (n < 0) {
            *eps = sccd_min(1.25 * *eps, diag);
            n = greedy_cover(k, *eps, k->nc, chosen, w);
        }
        return n;
    }
    /* A bound of one diagonal needs one sphere (any candidate takes every
     * piece), so it fits any budget; bisect on a log scale below it. */
    sccd_real lo = 1e-5 * diag, hi = diag;
    while (hi > 1.005 * lo) {
        sccd_real mid = sqrt(lo * hi);
        if (greedy_cover(k, mid, o->max_leaves, chosen, w) >= 0)
            hi = mid;
        else
            lo = mid;
    }
    *eps = hi;
    return greedy_cover(k, hi, o->max_leaves, chosen, w);
}

static bool valid_options(const sccd_meshtree_options *o)
{
    return o->max_leaves >= 0 && (o->max_leaves > 0 || (o->error > 0.0 && sccd_is_valid_real(o->error))) &&
           (o->res == 0 || (o->res >= 4 && o->res <= SCCD_VOXEL_MAX_RES)) && o->piece > 0.0 &&
           sccd_is_valid_real(o->piece) && (o->nodes == SCCD_BOUND_SEED || o->nodes == SCCD_BOUND_TIGHT);
}

static bool build(sccd_meshtree *t, const sccd_mesh *m, const sccd_meshtree_options *o, sccd_aabb3 box)
{
    cover k = {m, NULL, 0, NULL, 0, {{0, 0, 0}, 0, 0, {0, 0, 0}, NULL, NULL}};
    t->diagonal = sccd_v3_dist(box.lo, box.hi);
    bool ok = make_pieces(&k, o->piece * t->diagonal) && make_grid(&k, box) &&
              make_candidates(&k, o->res, o->piece * t->diagonal);
    greedy w = {0};
    int *chosen = NULL, *owner = NULL, n = -1;
    sccd_sphere *leaf = NULL;
    sccd_real eps = 0.0, *err = NULL;
    if (ok) {
        w.covered = sccd_alloc((size_t)k.np);
        w.gain = sccd_alloc((size_t)k.nc * sizeof *w.gain);
        w.heap = sccd_alloc((size_t)k.nc * sizeof *w.heap);
        chosen = sccd_alloc((size_t)k.nc * sizeof *chosen);
        owner = sccd_alloc((size_t)k.np * sizeof *owner);
        ok = w.covered && w.gain && w.heap && chosen && owner;
    }
    if (ok)
        n = solve(&k, o, t->diagonal, &eps, chosen, &w);
    ok = ok && n > 0;
    if (ok) {
        leaf = sccd_alloc((size_t)n * sizeof *leaf);
        err = sccd_alloc((size_t)n * sizeof *err);
        t->leaf_error = sccd_alloc((size_t)n * sizeof *t->leaf_error);
        ok = leaf && err && t->leaf_error && (n = make_leaves(&k, eps, chosen, n, owner, leaf, err)) > 0 &&
             sccd_spheretree_build(&t->tree, leaf, n, o->nodes) && make_lists(t, &k, owner, n) &&
             copy_mesh(&t->mesh, m) && make_tri_bounds(t);
    }
    for (int i = 0; ok && i < n; ++i) {
        t->leaf_error[i] = err[t->tree.leaf_source[i]];
        t->error_bound = sccd_max(t->error_bound, t->leaf_error[i]);
    }
    t->pieces = k.np;
    t->candidates = k.nc;
    sccd_free(k.p);
    sccd_free(k.c);
    sccd_free(k.g.first);
    sccd_free(k.g.items);
    sccd_free(w.covered);
    sccd_free(w.gain);
    sccd_free(w.heap);
    sccd_free(chosen);
    sccd_free(owner);
    sccd_free(leaf);
    sccd_free(err);
    return ok;
}

bool sccd_meshtree_build(sccd_meshtree *t, const sccd_mesh *m, const sccd_meshtree_options *o)
{
    sccd_meshtree_options def = sccd_meshtree_default_options();
    o = o ? o : &def;
    sccd_mesh_report r = m && m->nt > 0 ? sccd_mesh_report_make(m) : (sccd_mesh_report){0};
    bool ok = t != NULL && m != NULL && m->nt > 0 && valid_options(o) && sccd_v3_dist(r.bounds.lo, r.bounds.hi) > 0.0 &&
              sccd_is_valid_real(sccd_v3_dist(r.bounds.lo, r.bounds.hi));
    SCCD_ASSERT(ok);
    if (t)
        sccd_meshtree_destroy(t);
    if (!ok)
        return false;
    ok = build(t, m, o, r.bounds);
    if (!ok)
        sccd_meshtree_destroy(t);
    return ok;
}
