/* Sphere-tree benchmark: the seed 003 experiment (§4) on the generated
 * meshes. Per mesh and resolution (64 / 128 / 256 cells along the longest
 * side): spheres and build time of the seed's fill (§3.1) and of the greedy
 * fill, coverage, tree build time and node volume per level for the seed's
 * bounds (§3.2) and the tight ones; then random placements of two copies of
 * a mesh (the seed's 1,000), timing the tree-vs-tree test (§3.3) against the
 * triangle method of §2 (whole-mesh boxes, per-triangle boxes, then
 * triangle–triangle), as a ratio measured in the same run.
 *
 *   spheretree [--quick] [--out DIR]
 *
 * Times are CPU time of the process (the machines running this are shared,
 * and wall time varied several-fold), medians of 3 repetitions (1 at 256). --quick: resolutions 32 and
 * 64, 100 placements, and it checks its invariants (full coverage, no outside
 * centre in a greedy sphere, greedy ≤ seed spheres, tree answers equal to
 * brute force over the leaves); exit status 1 when one fails.
 * The full run adds the Stanford bunny from $BUILD/meshes/bunny.obj when it
 * is there (scripts/fetch_meshes.sh, run by make bench).
 * SCCD_BENCH_MESH=path adds a mesh file (e.g. a scanned model). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sectorccd/sectorccd.h"
#include "bench_util.h"
#include "fill_support.h"
#include "sphere_png.h"
#include "test_util.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); /* CPU time: the benchmark machine is shared */
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int failures;

static void check(bool ok, const char *what, const char *mesh, int res)
{
    if (!ok) {
        fprintf(stderr, "spheretree: CHECK FAILED: %s (%s, res %d)\n", what, mesh, res);
        failures++;
    }
}

/* ---- meshes ---- */

enum { MAX_MESHES = 9, MAX_RES = 3, GENERATED = 7 };

typedef struct bench_mesh { char name[64]; sccd_mesh m; } bench_mesh;

/* Load a mesh file into b under name (its file name when NULL); false, with a
 * note, when it cannot be read. */
static bool load_file(bench_mesh *b, const char *path, const char *name)
{
    sccd_mesh_init(&b->m);
    sccd_load_status s = sccd_mesh_load_file(&b->m, path, SCCD_MESH_AUTO);
    const char *base = strrchr(path, '/');
    snprintf(b->name, sizeof b->name, "%s", name ? name : base ? base + 1 : path);
    if (s.state != SCCD_LOAD_OK) {
        fprintf(stderr, "spheretree: %s: %s (skipped)\n", path, s.message);
        sccd_mesh_destroy(&b->m);
    }
    return s.state == SCCD_LOAD_OK;
}

/* The generated meshes; in the full run the Stanford bunny when
 * scripts/fetch_meshes.sh has put it in $BUILD/meshes (make bench does);
 * then SCCD_BENCH_MESH. *bunny: its index, or -1. */
static int load_meshes(bench_mesh *b, bool quick, int *bunny)
{
    const char *names[GENERATED] = {"bottle", "bat", "sword", "torus", "holed", "fork", "sword2mm"};
    int n = 0;
    for (int i = 0; i < GENERATED; ++i, ++n) {
        sccd_mesh_init(&b[n].m);
        snprintf(b[n].name, sizeof b[n].name, "%s", names[i]);
        bool ok = i == 0 ? sccd_mesh_bottle(&b[n].m, 64)
                  : i == 1 ? sccd_mesh_bat(&b[n].m, 64)
                  : i == 2 ? sccd_mesh_sword(&b[n].m)
                  : i == 3 ? sccd_mesh_torus(&b[n].m, 1.0, 0.3, 64, 32)
                  : i == 4 ? sccd_mesh_holed(&b[n].m)
                  : i == 5 ? sccd_mesh_fork(&b[n].m)
                           : sccd_test_thin_sword(&b[n].m);
        check(ok, "generate", names[i], 0);
    }
    *bunny = -1;
    const char *build = getenv("BUILD");
    char path[512];
    snprintf(path, sizeof path, "%s/meshes/bunny.obj", build && *build ? build : "build");
    FILE *probe = quick ? NULL : fopen(path, "r");
    if (probe) {
        fclose(probe);
        if (load_file(&b[n], path, "bunny"))
            *bunny = n++;
    }
    const char *extra = getenv("SCCD_BENCH_MESH");
    if (extra && *extra && load_file(&b[n], extra, NULL))
        ++n;
    return n;
}

/* ---- fills ---- */

typedef struct fill_row {
    int spheres, inside, covered, outside_hits, nodes, depth;
    double voxel_ms, fill_ms, tree_ms[2], root_volume[2];
} fill_row;

/* Fill once per repetition, keep the last spheres in l; median times. */
static fill_row measure_fill(const sccd_mesh *m, int res, sccd_fill_method method, int reps, sccd_sphere_list *l)
{
    fill_row r = {0};
    double tv[3], tf[3], tt[2][3] = {{0}};
    sccd_voxel_grid g;
    sccd_voxel_grid_init(&g);
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    for (int k = 0; k < reps; ++k) {
        double t0 = now_ms();
        sccd_voxelize(&g, m, res);
        double t1 = now_ms();
        sccd_spherefill(l, &g, method);
        double t2 = now_ms();
        tv[k] = t1 - t0;
        tf[k] = t2 - t1;
        for (int b = 0; b < 2 && l->n > 0; ++b) { /* a thin mesh at a low resolution may have no inside cell */
            double t3 = now_ms();
            sccd_spheretree_build(&t, l->s, l->n, (sccd_bound_method)b);
            tt[b][k] = now_ms() - t3;
            r.root_volume[b] = 4.0 / 3.0 * SCCD_PI * pow(t.nodes[0].bound.r, 3.0);
        }
    }
    sccd_fill_check c = sccd_spherefill_check(&g, l->s, l->n);
    r.spheres = l->n;
    r.inside = c.inside;
    r.covered = c.covered;
    r.outside_hits = c.outside_hits;
    r.nodes = t.node_count;
    r.depth = t.depth;
    r.voxel_ms = sccd_median(tv, reps);
    r.fill_ms = sccd_median(tf, reps);
    r.tree_ms[0] = sccd_median(tt[0], reps);
    r.tree_ms[1] = sccd_median(tt[1], reps);
    sccd_spheretree_destroy(&t);
    sccd_voxel_grid_destroy(&g);
    return r;
}

/* ---- the triangle method of seed 003 §2 ---- */

typedef struct posed { sccd_v3 *v; sccd_aabb3 *box; sccd_aabb3 all; } posed;

/* Step ① and ②: world vertices, per-triangle boxes and the whole box. */
static void pose_mesh(const sccd_mesh *m, sccd_xf3 xf, posed *p)
{
    for (int i = 0; i < m->nv; ++i)
        p->v[i] = sccd_xf3_apply(xf, m->v[i]);
    for (int t = 0; t < m->nt; ++t) {
        sccd_v3 a = p->v[m->t[t][0]], b = p->v[m->t[t][1]], c = p->v[m->t[t][2]];
        p->box[t] = (sccd_aabb3){sccd_v3_min(a, sccd_v3_min(b, c)), sccd_v3_max(a, sccd_v3_max(b, c))};
        p->all = t ? sccd_aabb3_union(p->all, p->box[t]) : p->box[t];
    }
}

static bool boxes_touch(sccd_aabb3 a, sccd_aabb3 b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

/* ②–④: every pair of triangle boxes, then triangle–triangle (the catalogue's separating-axis test, the one the
 * exact trees use); stops at the first hit. */
static bool triangle_method(const sccd_mesh *m, sccd_xf3 xa, sccd_xf3 xb, posed *pa, posed *pb)
{
    pose_mesh(m, xa, pa);
    pose_mesh(m, xb, pb);
    if (!boxes_touch(pa->all, pb->all))
        return false;
    for (int i = 0; i < m->nt; ++i)
        for (int j = 0; j < m->nt; ++j) {
            if (!boxes_touch(pa->box[i], pb->box[j]))
                continue;
            sccd_triangle ta = {pa->v[m->t[i][0]], pa->v[m->t[i][1]], pa->v[m->t[i][2]]};
            sccd_triangle tb = {pb->v[m->t[j][0]], pb->v[m->t[j][1]], pb->v[m->t[j][2]]};
            if (sccd_triangle_vs_triangle(ta, tb))
                return true;
        }
    return false;
}

typedef struct placement_row {
    int placements, tree_hits, triangle_hits, tree_only, triangles_only, brute_mismatch, spheres;
    double tree_ms, triangle_ms, tree_median_us, triangle_median_us;
} placement_row;

/* Brute force over the leaves: the oracle for the tree's answer. */
static bool leaves_touch(const sccd_spheretree *t, sccd_xf3 xa, sccd_xf3 xb)
{
    for (int i = 0; i < t->leaf_count; ++i) {
        sccd_v3 a = sccd_xf3_apply(xa, t->leaves[i].c);
        for (int j = 0; j < t->leaf_count; ++j)
            if (sccd_v3_dist(a, sccd_xf3_apply(xb, t->leaves[j].c)) <= t->leaves[i].r + t->leaves[j].r)
                return true;
    }
    return false;
}

/* Two copies of the mesh, each turned at random about its box centre, the
 * second moved by up to spread on each axis. */
static void random_placement(sccd_rng *g, sccd_v3 centre, double spread, sccd_xf3 *xa, sccd_xf3 *xb)
{
    sccd_quat qa = sccd_rng_quat(g), qb = sccd_rng_quat(g);
    sccd_v3 off = sccd_rng_v3(g, spread);
    *xa = (sccd_xf3){sccd_v3_neg(sccd_quat_apply(qa, centre)), qa};
    *xb = (sccd_xf3){sccd_v3_sub(off, sccd_quat_apply(qb, centre)), qb};
}

/* Placements (0.6 of the box diagonal apart at most) of two copies: the
 * filled tree's test against the triangle method. */
static placement_row placements(const sccd_mesh *m, const sccd_sphere_list *l, int count, int brute_checks)
{
    placement_row r = {0};
    r.placements = count;
    r.spheres = l->n;
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    sccd_spheretree_build(&t, l->s, l->n, SCCD_BOUND_TIGHT);
    sccd_mesh_report rep = sccd_mesh_report_make(m);
    sccd_v3 centre = sccd_v3_scale(sccd_v3_add(rep.bounds.lo, rep.bounds.hi), 0.5);
    double spread = 0.6 * sccd_v3_dist(rep.bounds.lo, rep.bounds.hi);
    posed pa = {malloc((size_t)m->nv * sizeof(sccd_v3)), malloc((size_t)m->nt * sizeof(sccd_aabb3)), {{0}}};
    posed pb = {malloc((size_t)m->nv * sizeof(sccd_v3)), malloc((size_t)m->nt * sizeof(sccd_aabb3)), {{0}}};
    double *tt = malloc((size_t)count * sizeof *tt), *tm = malloc((size_t)count * sizeof *tm);
    sccd_rng g = sccd_rng_make(2024);
    for (int p = 0; p < count; ++p) {
        sccd_xf3 xa, xb;
        random_placement(&g, centre, spread, &xa, &xb);
        double t0 = now_ms();
        bool tree = sccd_spheretree_vs_spheretree(&t, xa, &t, xb);
        double t1 = now_ms();
        bool tris = triangle_method(m, xa, xb, &pa, &pb);
        double t2 = now_ms();
        tt[p] = t1 - t0;
        tm[p] = t2 - t1;
        r.tree_ms += tt[p];
        r.triangle_ms += tm[p];
        r.tree_hits += tree;
        r.triangle_hits += tris;
        r.tree_only += tree && !tris;
        r.triangles_only += tris && !tree;
        if (p < brute_checks)
            r.brute_mismatch += tree != leaves_touch(&t, xa, xb);
    }
    r.tree_median_us = 1e3 * sccd_median(tt, count);
    r.triangle_median_us = 1e3 * sccd_median(tm, count);
    free(tt);
    free(tm);
    free(pa.v);
    free(pa.box);
    free(pb.v);
    free(pb.box);
    sccd_spheretree_destroy(&t);
    return r;
}

/* ---- output ---- */

static FILE *open_out(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "spheretree: cannot write %s\n", path);
        exit(1);
    }
    return f;
}

/* ---- bounding trees (meshtree.h) ---- */

enum { BUDGETS = 3 };

typedef struct outer_row {
    int budget, leaves, depth, pieces, uncovered, points;
    double bound, worst, mean, build_ms; /* errors as a share of the box diagonal */
} outer_row;

/* The bounding tree of m with at most budget leaves (8^depth: depth 1..3),
 * its proved and sampled outward error, and its coverage on surface points. */
static outer_row measure_outer(const sccd_mesh *m, int budget, bool quick, sccd_meshtree *t)
{
    outer_row r = {budget, 0, 0, 0, 0, quick ? 20000 : 100000, 0, 0, 0, 0};
    sccd_meshtree_options o = sccd_meshtree_default_options();
    o.max_leaves = budget;
    o.res = quick ? 24 : 48;
    o.piece = quick ? 1.0 / 32.0 : 1.0 / 64.0;
    double t0 = now_ms();
    bool ok = sccd_meshtree_build(t, m, &o);
    r.build_ms = now_ms() - t0;
    if (!ok)
        return r;
    sccd_real worst = 0.0, mean = 0.0;
    sccd_meshtree_measure(t, quick ? 64 : 256, &worst, &mean);
    sccd_rng g = sccd_rng_make(15);
    r.leaves = t->tree.leaf_count;
    r.depth = t->tree.depth;
    r.pieces = t->pieces;
    r.uncovered = sccd_test_uncovered(t, m, r.points, &g);
    r.bound = t->error_bound / t->diagonal;
    r.worst = worst / t->diagonal;
    r.mean = mean / t->diagonal;
    return r;
}

typedef struct exact_row { int placements, hits, tree_only, triangles_only; double tree_ms, triangle_ms; } exact_row;

/* The placements of the filled trees, answered by the bounding tree (exact:
 * spheres cull, triangles decide) and by the triangle method. */
static exact_row exact_placements(const sccd_mesh *m, const sccd_meshtree *t, int count)
{
    exact_row r = {count, 0, 0, 0, 0, 0};
    sccd_mesh_report rep = sccd_mesh_report_make(m);
    sccd_v3 centre = sccd_v3_scale(sccd_v3_add(rep.bounds.lo, rep.bounds.hi), 0.5);
    double spread = 0.6 * sccd_v3_dist(rep.bounds.lo, rep.bounds.hi);
    posed pa = {malloc((size_t)m->nv * sizeof(sccd_v3)), malloc((size_t)m->nt * sizeof(sccd_aabb3)), {{0}}};
    posed pb = {malloc((size_t)m->nv * sizeof(sccd_v3)), malloc((size_t)m->nt * sizeof(sccd_aabb3)), {{0}}};
    sccd_rng g = sccd_rng_make(2024);
    for (int p = 0; p < count; ++p) {
        sccd_xf3 xa, xb;
        random_placement(&g, centre, spread, &xa, &xb);
        double t0 = now_ms();
        bool tree = sccd_meshtree_vs_meshtree(t, xa, t, xb);
        double t1 = now_ms();
        bool tris = triangle_method(m, xa, xb, &pa, &pb);
        r.tree_ms += t1 - t0;
        r.triangle_ms += now_ms() - t1;
        r.hits += tris;
        r.tree_only += tree && !tris;
        r.triangles_only += tris && !tree;
    }
    free(pa.v);
    free(pa.box);
    free(pb.v);
    free(pb.box);
    return r;
}

/* The outer-tree tables, CSV and plot data; the checks of --quick and the full run alike. */
static void run_outer(FILE *md, const char *out, bench_mesh *meshes, int nm, bool quick, int count)
{
    const int budgets[BUDGETS] = {8, 64, 512};
    int nb = quick ? 2 : BUDGETS;
    static outer_row rows[MAX_MESHES][BUDGETS];
    static exact_row ex[MAX_MESHES];
    sccd_meshtree t;
    sccd_meshtree_init(&t);
    FILE *csv = open_out(out, "spheretree_outer.csv");
    fprintf(csv, "mesh,triangles,max_leaves,leaves,tree_depth,pieces,bound_pct,worst_pct,mean_pct,build_ms,"
                 "surface_points,uncovered\n");
    for (int i = 0; i < nm; ++i) {
        for (int b = 0; b < nb; ++b) {
            outer_row *r = &rows[i][b];
            *r = measure_outer(&meshes[i].m, budgets[b], quick, &t);
            fprintf(csv, "%s,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.1f,%d,%d\n", meshes[i].name, meshes[i].m.nt, r->budget,
                    r->leaves, r->depth, r->pieces, 100 * r->bound, 100 * r->worst, 100 * r->mean, r->build_ms,
                    r->points, r->uncovered);
            check(r->leaves >= 1 && r->leaves <= r->budget, "outer tree within its leaf budget", meshes[i].name, r->budget);
            check(r->uncovered == 0, "outer tree covers every surface point", meshes[i].name, r->budget);
            check(r->worst <= r->bound, "sampled outward error within the proved bound", meshes[i].name, r->budget);
        }
        if (i < 2 || !quick) { /* placements with the largest budget's tree, still in t */
            ex[i] = exact_placements(&meshes[i].m, &t, count);
            check(ex[i].tree_only == 0 && ex[i].triangles_only == 0, "exact tree equals the triangle method",
                  meshes[i].name, 0);
        }
    }
    fclose(csv);
    FILE *dat = open_out(out, "spheretree_outer.dat");
    fprintf(dat, "# one block per mesh: leaves, worst sampled error %%, proved bound %%\n");
    for (int i = 0; i < nm; ++i) {
        fprintf(dat, "\"%s\"\n", meshes[i].name);
        for (int b = 0; b < nb; ++b)
            fprintf(dat, "%d %.4f %.4f\n", rows[i][b].leaves, 100 * rows[i][b].worst, 100 * rows[i][b].bound);
        fprintf(dat, "\n\n");
    }
    fclose(dat);
    sccd_meshtree_destroy(&t);

    fprintf(md, "### Bounding trees: leaves that cover the surface (meshtree.h)\n\n"
                "Every triangle is cut into pieces (longest edge %s of the box diagonal) and every piece lies in a "
                "leaf that holds its corners, so the leaves cover the surface by proof; candidate centres are the "
                "greedy fill's (resolution %d) and the midpoints of inward rays, each at a known depth D, so a leaf "
                "of radius r reaches at most r − D beyond the surface (*proved*). A greedy set cover picks the "
                "leaves, bisecting the bound to fit the budget of a depth-d octree (8^d leaves). *Sampled*: per leaf, "
                "the farthest of %d points spread over its sphere that lies outside the mesh (winding number), "
                "measured to the surface; worst and mean over the leaves. Errors as %% of the box diagonal. "
                "Coverage: %d area-weighted random surface points and every triangle corner, each in a leaf listing "
                "its triangle (brute force). Tree depth: of the octree over the leaves.\n\n"
                "| mesh | triangles | budget | leaves | tree depth | proved %% | sampled worst %% | mean %% | build ms | "
                "uncovered |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            quick ? "1/32" : "1/64", quick ? 24 : 48, quick ? 64 : 256, quick ? 20000 : 100000);
    for (int i = 0; i < nm; ++i)
        for (int b = 0; b < nb; ++b) {
            outer_row *r = &rows[i][b];
            fprintf(md, "| %s | %d | %d | %d | %d | %.2f | %.2f | %.2f | %.0f | %d of %d |\n", meshes[i].name,
                    meshes[i].m.nt, r->budget, r->leaves, r->depth, 100 * r->bound, 100 * r->worst, 100 * r->mean,
                    r->build_ms, r->uncovered, r->points + 3 * meshes[i].m.nt);
        }
    fprintf(md, "\nFor comparison (not measured here): Bradshaw's sphere-tree toolkit on a 3,674-triangle bunny at depth 3 "
                "(at most 512 leaves): octree 188 spheres, worst error 20.6 %%; medial axis 493 spheres, 1.4 %% "
                "(his errors are shares of the bounding-box size).\n\n"
                "![spheres against outward error](img/spheretree_outer.png)\n\n"
                "Exact queries: %d random placements per mesh (as above), the bounding tree with the largest budget "
                "culls and the leaves' triangles decide (the catalogue's triangle–triangle test), against the "
                "triangle method.\n\n| mesh | hits | tree only | triangles only | tree ms (total) | triangles ms "
                "(total) | speed-up |\n|---|---:|---:|---:|---:|---:|---:|\n",
            count);
    for (int i = 0; i < nm; ++i)
        if (ex[i].placements)
            fprintf(md, "| %s | %d | %d | %d | %.1f | %.1f | %.0f× |\n", meshes[i].name, ex[i].hits, ex[i].tree_only,
                    ex[i].triangles_only, ex[i].tree_ms, ex[i].triangle_ms, ex[i].triangle_ms / fmax(ex[i].tree_ms, 1e-9));
    fprintf(md, "\n");
}

/* Where the bunny comes from and what it is. */
static void write_bunny_note(FILE *md, const sccd_mesh *m)
{
    sccd_mesh_report r = sccd_mesh_report_make(m);
    fprintf(md, "Scanned mesh: the Stanford bunny from the npm package `bunny` 1.0.1 (scripts/fetch_meshes.sh), %d "
                "vertices, %d triangles, %s (%d boundary edges).\n\n",
            r.vertices, r.triangles, r.closed ? "closed: this version has its holes filled" : "open", r.boundary_edges);
}

/* Bradshaw's figures (docs/REFERENCES.md) beside our bunny rows. Different measures: his
 * are spheres of a depth-3 tree approximating the surface, with their worst
 * error; ours are the spheres of a full-coverage fill of the voxel inside. */
static void write_bunny_reference(FILE *md, const fill_row rows[][2], const int *res, int nres)
{
    fprintf(md, "\nFor reference (not measured here): Bradshaw's sphere-tree toolkit on a 3,674-triangle bunny (the same "
                "triangle count as ours) needs 188 spheres (octree) to 493 (medial axis) at depth 3, with worst errors "
                "of 20.6 %% and 1.4 %% of the bounding-box size. Those are the spheres of a depth-3 tree that "
                "approximates the surface; ours cover every inside voxel (the seed's fill / the greedy fill):");
    for (int r = 0; r < nres; ++r)
        fprintf(md, " %d / %d spheres at %d%s", rows[r][0].spheres, rows[r][1].spheres, res[r], r + 1 < nres ? "," : ".");
    fprintf(md, "\n");
}

/* Pictures of the seed's fill and the greedy fill of mesh m (up: its up
 * axis) at resolution res, as OUT/spheretree_fill_{seed,greedy}.png (the .gp
 * copies them to docs/img); Markdown lines referencing them. */
static void draw_fills(FILE *md, const char *out, const bench_mesh *b, int up, int res)
{
    sccd_mesh_report r = sccd_mesh_report_make(&b->m);
    sccd_sphere_list l;
    sccd_sphere_list_init(&l);
    fprintf(md, "### The leaf spheres of the %s at resolution %d\n\n", b->name, res);
    for (int f = 0; f < 2; ++f) {
        const char *fill = f ? "greedy" : "seed";
        char path[512], title[128];
        snprintf(path, sizeof path, "%s/spheretree_fill_%s.png", out, fill);
        bool ok = sccd_test_fill(&b->m, res, (sccd_fill_method)f, &l);
        snprintf(title, sizeof title, "%s, %s fill, resolution %d: %d spheres", b->name, fill, res, l.n);
        ok = ok && sccd_spheres_png(path, l.s, l.n, (sccd_sphere_view){600, 600, up, &r.bounds, title});
        check(ok, "draw the fill", b->name, res);
        fprintf(md, "![%s fill of the %s](img/spheretree_fill_%s.png)%s", fill, b->name, fill, f ? "\n\n" : " ");
    }
    sccd_sphere_list_destroy(&l);
}

int main(int argc, char **argv)
{
    bool quick = false;
    const char *out = "build/bench";
    if (!sccd_bench_args(argc, argv, "spheretree", &quick, &out))
        return 1;
    bench_mesh meshes[MAX_MESHES];
    int bunny;
    int nm = load_meshes(meshes, quick, &bunny);
    const int full_res[MAX_RES] = {64, 128, 256}, quick_res[MAX_RES] = {32, 64, 0};
    const int *res = quick ? quick_res : full_res;
    int nres = quick ? 2 : 3, count = quick ? 100 : 1000;
    static fill_row rows[MAX_MESHES][MAX_RES][2];
    static placement_row prow[MAX_MESHES][2];
    sccd_sphere_list l;
    sccd_sphere_list_init(&l);

    FILE *csv = open_out(out, "spheretree_fill.csv");
    fprintf(csv, "mesh,triangles,res,fill,spheres,inside,covered,outside_hits,voxel_ms,fill_ms,tree_nodes,tree_depth,"
                 "tree_ms_seed_bound,tree_ms_tight_bound,root_volume_seed_bound,root_volume_tight_bound\n");
    for (int i = 0; i < nm; ++i)
        for (int r = 0; r < nres; ++r)
            for (int f = 0; f < 2; ++f) {
                fill_row *w = &rows[i][r][f];
                *w = measure_fill(&meshes[i].m, res[r], (sccd_fill_method)f, res[r] >= 256 ? 1 : 3, &l);
                fprintf(csv, "%s,%d,%d,%s,%d,%d,%d,%d,%.3f,%.3f,%d,%d,%.3f,%.3f,%.6g,%.6g\n", meshes[i].name,
                        meshes[i].m.nt, res[r], f ? "greedy" : "seed", w->spheres, w->inside, w->covered,
                        w->outside_hits, w->voxel_ms, w->fill_ms, w->nodes, w->depth, w->tree_ms[0], w->tree_ms[1],
                        w->root_volume[0], w->root_volume[1]);
                check(w->covered == w->inside, "every inside cell covered", meshes[i].name, res[r]);
                if (f == 1) {
                    check(w->outside_hits == 0, "no outside centre inside a greedy sphere", meshes[i].name, res[r]);
                    check(w->spheres <= rows[i][r][0].spheres, "greedy needs no more spheres than the seed",
                          meshes[i].name, res[r]);
                }
                if (r == 0 && (i < 2 || !quick) && l.n > 0) /* placements at the first resolution */
                    prow[i][f] = placements(&meshes[i].m, &l, count, quick ? count : 50);
            }
    fclose(csv);

    csv = open_out(out, "spheretree_placements.csv");
    fprintf(csv, "mesh,triangles,fill,spheres,placements,tree_hits,triangle_hits,tree_only,triangles_only,"
                 "tree_ms_total,triangle_ms_total,tree_us_median,triangle_us_median,ratio_total\n");
    for (int i = 0; i < nm; ++i)
        for (int f = 0; f < 2; ++f) {
            placement_row *p = &prow[i][f];
            if (!p->placements)
                continue;
            fprintf(csv, "%s,%d,%s,%d,%d,%d,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.1f\n", meshes[i].name, meshes[i].m.nt,
                    f ? "greedy" : "seed", p->spheres, p->placements, p->tree_hits, p->triangle_hits, p->tree_only,
                    p->triangles_only, p->tree_ms, p->triangle_ms, p->tree_median_us, p->triangle_median_us,
                    p->triangle_ms / fmax(p->tree_ms, 1e-9));
            check(p->brute_mismatch == 0, "tree-vs-tree equals brute force over the leaves", meshes[i].name, res[0]);
        }
    fclose(csv);

    /* Node volume per level, seed bounds against tight bounds (the bottle, greedy and seed fills). */
    FILE *lv = open_out(out, "spheretree_levels.dat");
    fprintf(lv, "level seed_fill_seed_bound seed_fill_tight_bound greedy_fill_seed_bound greedy_fill_tight_bound\n");
    double vol[2][2][64] = {{{0}}};
    int levels = 0;
    sccd_voxel_grid g;
    sccd_voxel_grid_init(&g);
    sccd_voxelize(&g, &meshes[0].m, res[1]);
    sccd_spheretree t;
    sccd_spheretree_init(&t);
    for (int f = 0; f < 2; ++f) {
        sccd_spherefill(&l, &g, (sccd_fill_method)f);
        for (int b = 0; b < 2 && l.n > 0; ++b) {
            sccd_spheretree_build(&t, l.s, l.n, (sccd_bound_method)b);
            int n = sccd_spheretree_level_volume(&t, vol[f][b], 64);
            levels = n > levels ? n : levels;
        }
    }
    for (int k = 0; k < levels && k < 64; ++k)
        fprintf(lv, "%d %.6g %.6g %.6g %.6g\n", k, vol[0][0][k], vol[0][1][k], vol[1][0][k], vol[1][1][k]);
    fclose(lv);
    sccd_spheretree_destroy(&t);
    sccd_voxel_grid_destroy(&g);

    /* Spheres against resolution for the plot. */
    FILE *dat = open_out(out, "spheretree_counts.dat");
    fprintf(dat, "res");
    for (int i = 0; i < nm; ++i)
        fprintf(dat, " %s_seed %s_greedy", meshes[i].name, meshes[i].name);
    fprintf(dat, "\n");
    for (int r = 0; r < nres; ++r) {
        fprintf(dat, "%d", res[r]);
        for (int i = 0; i < nm; ++i)
            fprintf(dat, " %d %d", rows[i][r][0].spheres, rows[i][r][1].spheres);
        fprintf(dat, "\n");
    }
    fclose(dat);

    FILE *md = open_out(out, "spheretree.md");
    fprintf(md, "## Sphere trees: the seed's fill and a greedy fill (seed 003)\n\n");
    fprintf(md, "`build/bin/spheretree%s` (bench/spheretree.c). Generated closed meshes (bottle %d triangles, bat %d, "
                "sword %d, torus %d, square frame %d); resolution = cells along the longest side. Times: CPU time, median of 3 "
                "runs (1 at 256). Coverage: inside cell centres lying in some sphere. Outside hits: outside cell "
                "centres strictly inside a sphere.\n\n",
            quick ? " --quick" : "", meshes[0].m.nt, meshes[1].m.nt, meshes[2].m.nt, meshes[3].m.nt, meshes[4].m.nt);
    if (bunny >= 0)
        write_bunny_note(md, &meshes[bunny].m);
    fprintf(md, "| mesh | res | seed fill: spheres | ms | outside hits | greedy: spheres | ms | seed / greedy | "
                "tree ms (tight) | coverage |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < nm; ++i)
        for (int r = 0; r < nres; ++r) {
            fill_row *a = &rows[i][r][0], *b = &rows[i][r][1];
            fprintf(md, "| %s | %d | %d | %.1f | %d | %d | %.1f | %.1f | %.2f | %s |\n", meshes[i].name, res[r],
                    a->spheres, a->fill_ms, a->outside_hits, b->spheres, b->fill_ms,
                    (double)a->spheres / (b->spheres ? b->spheres : 1), b->tree_ms[1],
                    a->covered == a->inside && b->covered == b->inside ? "100 % both" : "INCOMPLETE");
        }
    if (bunny >= 0)
        write_bunny_reference(md, rows[bunny], res, nres);
    fprintf(md, "\nGrowth of the sphere count per doubling of resolution (the seed's bottle: 2,760 → 13,845 → "
                "71,374, ×5.0 and ×5.2):\n\n| mesh | seed fill | greedy fill |\n|---|---|---|\n");
    for (int i = 0; i < nm; ++i) {
        fprintf(md, "| %s |", meshes[i].name);
        for (int f = 0; f < 2; ++f) {
            for (int r = 1; r < nres; ++r)
                fprintf(md, " ×%.2f", (double)rows[i][r][f].spheres / (rows[i][r - 1][f].spheres ? rows[i][r - 1][f].spheres : 1));
            fprintf(md, " |");
        }
        fprintf(md, "\n");
    }
    fprintf(md, "\n![spheres against resolution](img/spheretree_counts.png)\n\n");
    if (!quick) /* the bunny is y-up, the generated meshes z-up */
        draw_fills(md, out, &meshes[bunny >= 0 ? bunny : 0], bunny >= 0 ? 1 : 2, res[0]);
    fprintf(md, "### %d random placements of two copies (resolution %d, tight bounds)\n\n"
                "Tree-vs-tree test (seed 003 §3.3) against the triangle method of §2 (whole boxes, per-triangle boxes, "
                "triangle–triangle SAT), both stopping at the first hit. The answers differ where the surfaces graze "
                "within about a cell (the spheres lie inside, reaching at most ~1 cell out) or one copy lies inside "
                "the other without surfaces crossing (the triangle method says no).\n\n"
                "| mesh | fill | spheres | tree µs (median) | triangles µs (median) | total ratio | hits tree / triangles "
                "| tree only | triangles only |\n|---|---|---:|---:|---:|---:|---|---:|---:|\n",
            count, res[0]);
    for (int i = 0; i < nm; ++i)
        for (int f = 0; f < 2; ++f) {
            placement_row *p = &prow[i][f];
            if (p->placements)
                fprintf(md, "| %s | %s | %d | %.2f | %.1f | %.0f | %d / %d | %d | %d |\n", meshes[i].name,
                        f ? "greedy" : "seed", p->spheres, p->tree_median_us, p->triangle_median_us,
                        p->triangle_ms / fmax(p->tree_ms, 1e-9), p->tree_hits, p->triangle_hits, p->tree_only,
                        p->triangles_only);
        }
    fprintf(md, "\n");
    run_outer(md, out, meshes, nm, quick, count);
    fprintf(md, "### Node sphere volume per level (bottle, resolution %d)\n\n![volume per level](img/spheretree_levels.png)\n\n| level | seed fill, seed bounds | "
                "seed fill, tight | greedy fill, seed bounds | greedy fill, tight |\n|---:|---:|---:|---:|---:|\n",
            res[1]);
    for (int k = 0; k < levels && k < 64; ++k)
        fprintf(md, "| %d | %.4g | %.4g | %.4g | %.4g |\n", k, vol[0][0][k], vol[0][1][k], vol[1][0][k], vol[1][1][k]);
    fclose(md);

    for (int i = 0; i < nm; ++i)
        sccd_mesh_destroy(&meshes[i].m);
    sccd_sphere_list_destroy(&l);
    printf("spheretree: %s, %d check(s) failed\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
