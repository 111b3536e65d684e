/* sccd-spherefill — mesh → voxels → spheres → sphere tree, with statistics.
 *
 *   sccd-spherefill MESH [--res N] [--fill seed|greedy] [--bound inner|outer] [--nodes seed|tight]
 *                   [--leaves N] [--error E] [-o OUT] [--png FILE [--up x|y|z]]
 *   sccd-spherefill --generate bottle|bat|sword|torus|holed|fork [...] [--save-mesh FILE]
 *
 * --bound says what the leaves promise. inner (default): they fill the
 * inside (the seed's or the greedy fill of the voxel grid). outer: they cover
 * every point of the surface (meshtree.h), at most --leaves N of them
 * (default: as many as the error bound --error E needs, a share of the box
 * diagonal, default 0.02); --res is then the resolution of the inner fill
 * whose centres are candidate centres. --nodes says how node spheres are
 * made (seed 003's, or tight).
 *
 * Prints the mesh report, the grid, the fill (spheres, time, coverage) or the
 * cover (leaves, proved and sampled outward error) and the tree (nodes,
 * depth, volume per level); writes the leaf spheres to OUT as text, one
 * "x y z r" per line (world units of the mesh). --protrusion also
 * measures how far the spheres reach outside the surface (brute force over
 * the triangles: slow for big meshes). --png draws the leaf spheres (cairo,
 * an oblique orthographic view with axis --up pointing up, default z, and the
 * mesh's bounding box). Exit status 0 on success, 1 on a
 * usage error, 2 when the mesh cannot be loaded or filled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sectorccd/sectorccd.h"
#include "sphere_png.h"

typedef struct options {
    const char *mesh, *generate, *out, *save_mesh, *png;
    int res, up, leaves;
    double error;
    sccd_fill_method fill;
    sccd_bound_method nodes;
    bool outer, protrusion;
} options;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int usage(void)
{
    fprintf(stderr, "usage: sccd-spherefill MESH|--generate bottle|bat|sword|torus|holed|fork [--res N (1..%d)]\n"
                    "       [--fill seed|greedy] [--bound inner|outer] [--nodes seed|tight] [--leaves N] [--error E]\n"
                    "       [--protrusion] [-o OUT] [--save-mesh FILE] [--png FILE [--up x|y|z]]\n",
            SCCD_VOXEL_MAX_RES);
    return 1;
}

/* Parse argv; false on a usage error. */
static bool parse(int argc, char **argv, options *o)
{
    *o = (options){NULL, NULL, NULL, NULL, NULL, 64, 2, 0, 0.02, SCCD_FILL_GREEDY, SCCD_BOUND_TIGHT, false, false};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = strcmp(a, "--res") == 0 || strcmp(a, "--fill") == 0 || strcmp(a, "--bound") == 0 ||
                     strcmp(a, "--nodes") == 0 || strcmp(a, "--leaves") == 0 || strcmp(a, "--error") == 0 ||
                     strcmp(a, "-o") == 0 || strcmp(a, "--generate") == 0 || strcmp(a, "--save-mesh") == 0 ||
                     strcmp(a, "--png") == 0 || strcmp(a, "--up") == 0;
        if (takes && !v)
            return false;
        if (strcmp(a, "--res") == 0)
            o->res = atoi(v);
        else if (strcmp(a, "--fill") == 0 && (strcmp(v, "seed") == 0 || strcmp(v, "greedy") == 0))
            o->fill = strcmp(v, "seed") == 0 ? SCCD_FILL_SEED : SCCD_FILL_GREEDY;
        else if (strcmp(a, "--bound") == 0 && (strcmp(v, "inner") == 0 || strcmp(v, "outer") == 0))
            o->outer = strcmp(v, "outer") == 0;
        else if (strcmp(a, "--nodes") == 0 && (strcmp(v, "seed") == 0 || strcmp(v, "tight") == 0))
            o->nodes = strcmp(v, "seed") == 0 ? SCCD_BOUND_SEED : SCCD_BOUND_TIGHT;
        else if (strcmp(a, "--leaves") == 0)
            o->leaves = atoi(v);
        else if (strcmp(a, "--error") == 0)
            o->error = atof(v);
        else if (strcmp(a, "-o") == 0)
            o->out = v;
        else if (strcmp(a, "--generate") == 0)
            o->generate = v;
        else if (strcmp(a, "--save-mesh") == 0)
            o->save_mesh = v;
        else if (strcmp(a, "--png") == 0)
            o->png = v;
        else if (strcmp(a, "--up") == 0 && v[0] >= 'x' && v[0] <= 'z' && !v[1])
            o->up = v[0] - 'x';
        else if (strcmp(a, "--protrusion") == 0)
            o->protrusion = true;
        else if (a[0] != '-' && !o->mesh)
            o->mesh = a;
        else
            return false;
        i += takes;
    }
    return (o->mesh != NULL) != (o->generate != NULL) && o->res >= 1 && o->res <= SCCD_VOXEL_MAX_RES &&
           o->leaves >= 0 && o->error > 0.0 && o->error <= 1.0 && (!o->outer || o->res >= 4);
}

/* The generated meshes, at the sizes the tests and benchmarks use. */
static bool generate(sccd_mesh *m, const char *name)
{
    if (strcmp(name, "bottle") == 0)
        return sccd_mesh_bottle(m, 64);
    if (strcmp(name, "bat") == 0)
        return sccd_mesh_bat(m, 64);
    if (strcmp(name, "sword") == 0)
        return sccd_mesh_sword(m);
    if (strcmp(name, "torus") == 0)
        return sccd_mesh_torus(m, 1.0, 0.3, 64, 32);
    if (strcmp(name, "holed") == 0)
        return sccd_mesh_holed(m);
    if (strcmp(name, "fork") == 0)
        return sccd_mesh_fork(m);
    return false;
}

static void print_report(const sccd_mesh_report *r)
{
    printf("mesh: %d vertices, %d triangles, box (%g %g %g)-(%g %g %g)\n", r->vertices, r->triangles, r->bounds.lo.x,
           r->bounds.lo.y, r->bounds.lo.z, r->bounds.hi.x, r->bounds.hi.y, r->bounds.hi.z);
    printf("      %s, %s; %d boundary, %d non-manifold, %d misoriented edges; %d degenerate triangles\n",
           r->closed ? "closed" : "OPEN", r->oriented ? "consistently oriented" : "not consistently oriented",
           r->boundary_edges, r->nonmanifold_edges, r->misoriented_edges, r->degenerate_triangles);
    printf("      area %g, volume %g\n", r->area, r->volume);
}

/* Largest reach of a sphere beyond the surface, in cells. */
static double protrusion(const sccd_mesh *m, const sccd_sphere_list *l, double h)
{
    double worst = 0.0;
    for (int i = 0; i < l->n; ++i)
        worst = fmax(worst, (l->s[i].r - sccd_mesh_distance(m, l->s[i].c)) / h);
    return worst;
}

static bool write_spheres(const char *path, const sccd_sphere_list *l)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (int i = 0; i < l->n; ++i)
        fprintf(f, "%.17g %.17g %.17g %.17g\n", l->s[i].c.x, l->s[i].c.y, l->s[i].c.z, l->s[i].r);
    return fclose(f) == 0;
}

static void print_tree(const sccd_spheretree *t, double seconds)
{
    sccd_real vol[64];
    int levels = sccd_spheretree_level_volume(t, vol, 64);
    printf("tree: %d nodes, depth %d, built in %.3f s; sphere volume per level:", t->node_count, t->depth, seconds);
    for (int l = 0; l < levels && l < 64; ++l)
        printf(" %.4g", vol[l]);
    printf("\n");
}

/* The leaf spheres as a picture, captioned with the mesh, what the leaves are and the resolution. */
static bool draw(const options *o, const sccd_sphere *s, int n, const sccd_aabb3 *bounds)
{
    char title[160];
    snprintf(title, sizeof title, "%s, %s, resolution %d: %d spheres", o->mesh ? o->mesh : o->generate,
             o->outer ? "outer tree (covers the surface)" : o->fill == SCCD_FILL_SEED ? "seed fill" : "greedy fill",
             o->res, n);
    return sccd_spheres_png(o->png, s, n, (sccd_sphere_view){800, 800, o->up, bounds, title});
}

/* --bound outer: the bounding tree, its errors, its leaves. */
static int run_outer(const options *o, const sccd_mesh *m, const sccd_mesh_report *r)
{
    sccd_meshtree_options mo = sccd_meshtree_default_options();
    mo.max_leaves = o->leaves;
    mo.error = o->error;
    mo.res = o->res;
    mo.nodes = o->nodes;
    sccd_meshtree t;
    sccd_meshtree_init(&t);
    double t0 = now();
    if (!sccd_meshtree_build(&t, m, &mo)) {
        fprintf(stderr, "sccd-spherefill: cannot build the bounding tree of this mesh\n");
        return 2;
    }
    double t1 = now();
    sccd_real worst = 0.0, mean = 0.0;
    sccd_meshtree_measure(&t, 256, &worst, &mean);
    printf("cover: %d leaves over %d triangle pieces (%d candidate centres), %.3f s; outward error (share of the "
           "box diagonal %g): proved %.3f %%, sampled worst %.3f %%, mean %.3f %% (256 points per leaf); %d leaf "
           "triangle entries\n",
           t.tree.leaf_count, t.pieces, t.candidates, t1 - t0, t.diagonal, 100.0 * t.error_bound / t.diagonal,
           100.0 * worst / t.diagonal, 100.0 * mean / t.diagonal, t.tri_first[t.tree.leaf_count]);
    print_tree(&t.tree, t1 - t0);
    sccd_sphere_list l = {t.tree.leaves, t.tree.leaf_count, t.tree.leaf_count};
    int status = 0;
    if (o->png && !draw(o, l.s, l.n, &r->bounds)) {
        fprintf(stderr, "sccd-spherefill: cannot draw %s\n", o->png);
        status = 2;
    }
    if (o->out && !write_spheres(o->out, &l)) {
        fprintf(stderr, "sccd-spherefill: cannot write %s\n", o->out);
        status = 2;
    }
    sccd_meshtree_destroy(&t);
    return status;
}

static int run(const options *o, sccd_mesh *m, sccd_voxel_grid *g, sccd_sphere_list *l, sccd_spheretree *t)
{
    sccd_load_status st = {SCCD_LOAD_OK, 0, -1, "ok"};
    if (o->generate && !generate(m, o->generate)) {
        fprintf(stderr, "sccd-spherefill: unknown mesh '%s'\n", o->generate);
        return 1;
    }
    if (o->mesh)
        st = sccd_mesh_load_file(m, o->mesh, SCCD_MESH_AUTO);
    if (st.state != SCCD_LOAD_OK) {
        fprintf(stderr, "sccd-spherefill: %s: %s\n", o->mesh, st.message);
        return 2;
    }
    if (o->save_mesh && !sccd_mesh_save_file(m, o->save_mesh, SCCD_MESH_AUTO))
        fprintf(stderr, "sccd-spherefill: cannot write %s\n", o->save_mesh);
    sccd_mesh_report r = sccd_mesh_report_make(m);
    print_report(&r);
    if (o->outer)
        return run_outer(o, m, &r);
    double t0 = now();
    if (!sccd_voxelize(g, m, o->res)) {
        fprintf(stderr, "sccd-spherefill: cannot voxelise this mesh\n");
        return 2;
    }
    double t1 = now();
    printf("grid: %d x %d x %d cells of %g (res %d), %d inside, %s, %.3f s\n", g->nx, g->ny, g->nz, g->h, o->res,
           g->inside, g->closed ? "ray parity" : "open mesh: 3-ray vote + winding number", t1 - t0);
    sccd_fill_stats fs = sccd_spherefill(l, g, o->fill);
    double t2 = now();
    sccd_fill_check c = sccd_spherefill_check(g, l->s, l->n);
    printf("fill: %s, %d spheres, %d rounds, max radius %g, %.3f s; covered %d of %d inside cells (%.2f %%), "
           "%d outside cells strictly inside a sphere\n",
           o->fill == SCCD_FILL_SEED ? "seed" : "greedy", fs.spheres, fs.rounds, fs.max_radius, t2 - t1, c.covered,
           c.inside, c.inside ? 100.0 * c.covered / c.inside : 100.0, c.outside_hits);
    if (o->protrusion)
        printf("      largest reach outside the surface: %.3f cells\n", protrusion(m, l, g->h));
    if (l->n > 0) {
        double t3 = now();
        if (!sccd_spheretree_build(t, l->s, l->n, o->nodes))
            return 2;
        print_tree(t, now() - t3);
    }
    if (o->png && !draw(o, l->s, l->n, &r.bounds)) {
        fprintf(stderr, "sccd-spherefill: cannot draw %s\n", o->png);
        return 2;
    }
    if (o->out && !write_spheres(o->out, l)) {
        fprintf(stderr, "sccd-spherefill: cannot write %s\n", o->out);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o))
        return usage();
    sccd_mesh m;
    sccd_voxel_grid g;
    sccd_sphere_list l;
    sccd_spheretree t;
    sccd_mesh_init(&m);
    sccd_voxel_grid_init(&g);
    sccd_sphere_list_init(&l);
    sccd_spheretree_init(&t);
    int status = run(&o, &m, &g, &l, &t);
    sccd_spheretree_destroy(&t);
    sccd_sphere_list_destroy(&l);
    sccd_voxel_grid_destroy(&g);
    sccd_mesh_destroy(&m);
    return status;
}
