/* Private to the ODE adapter (sccd_ode_*.c): the world, its records and
 * what the adapter's files share. Not installed, not API.
 *   sccd_ode_world.c    the world's lifecycle, the scan of before_step and the public calls
 *   sccd_ode_contact.c  ODE's bodies, geoms, pair rules and the game's hook as the core sees them
 *   sccd_ode_ccd.c      after_step: the step's motion, what it may reach, the solve
 *   sccd_ode_mesh.c     trimeshes: checked at enable, a CCD body's mesh triangle by triangle */
#ifndef SCCD_ODE_INTERNAL_H
#define SCCD_ODE_INTERNAL_H

#include "sectorccd_ode.h"
#include "../adapter_internal.h"

typedef struct ode_body {
    dBodyID body;
    sccd_xf3 start;    /* pose before the step */
    bool seen;         /* has a geom in the space at before_step */
    bool active;       /* after_step: enabled, with a finite pose */
    bool usable;       /* has a geom the core can sweep; then `region` */
    sccd_impact_body3 solver; /* after_step: the solver's record of it (sccd_ode_solver_body), made once */
    bool moved;        /* after_step: `motion` made (sccd_ode_gather.c's ccd_motion) ... */
    sccd_motion3 motion; /* ... its free motion in the core */
    sccd_aabb3 region; /* what its free motion covers */
    int first;         /* after_step: its first geom in the scan (ode_geom.key) */
    int query;         /* its region's index in the step's regions (sccd_ode_world.regions), once asked */
    bool met;          /* its region met a geom (sccd_ode_gather.c's answer) ... */
    bool idle;         /* ... or not, nor another CCD body's region: out of the solve until a question meets it */
    bool left_out;     /* idle at the step's start (counted as idle, or joined once a question met it) */
} ode_body;

/* One enabled geom of the space, as before_step saw it. */
typedef struct ode_geom {
    dGeomID geom;
    dBodyID body;     /* NULL: static */
    int key;          /* its body's first geom in the scan, -1 static: orders the solver's bodies by the
                       * space's order, not by address (the same world steps alike in any thread or run) */
    int ccd;          /* index of its CCD body's record, -1 */
    int next;         /* the next geom of its body in the scan, -1 (a moving body is gathered whole) */
    sccd_xf3 body0;   /* its body's pose before the step */
    /* after_step */
    bool usable;      /* finite, and of a class the core takes (once `checked`) */
    bool checked;     /* whether its shape was checked this step (geom_usable) */
    bool exact;       /* reach and margin are exact (else reach is a first, looser box and margin unset) */
    bool plane;       /* a half-space (dPlaneClass) */
    bool centred;     /* a sphere about its body's centre of mass (prepare_geom; exact_reach keeps its first box) */
    bool reached;     /* met by a region (counted once when unsupported) */
    sccd_real margin; /* how far its points may be from where they are now (exact) */
    sccd_real radius; /* how far its points are from its body's centre of mass (with the first box) */
    sccd_real half;   /* its half thickness (sccd_adapter_keeps; once `checked`) */
    sccd_aabb3 reach; /* its box now grown by the margin (exact), else a box that holds every pose it may take */
    bool in_solve;    /* in the solve whole (a mesh: every triangle) */
    int marks;        /* a static mesh's triangles in the solve: marks[marks + triangle] (-1: none yet) */
} ode_geom;

/* A geom's material (sorted by geom). */
typedef struct ode_material { dGeomID geom; sccd_real elasticity, friction; bool seen; } ode_material;

/* A solver shape's origin: a geom, and a mesh's triangle (else -1). */
typedef struct ode_piece { dBodyID body; int key, geom, triangle; } ode_piece; /* key: its geom's (static: one per geom) */

/* Geoms' reach boxes indexed for the solver's questions, once a step when
 * the questions pay for it (sccd_ode_gather.c's ask). */
typedef struct ode_listing {
    sccd_adapter_sorted q;     /* the boxes ... */
    int *geom;                 /* ... the geom of each box */
    int cap;
    int asked, asked_before;   /* questions answered by a pass over the geoms, this step and the one before */
    bool done;                 /* listed this step */
} ode_listing;

struct sccd_ode_world {
    dWorldID world;
    dSpaceID space;
    sccd_ccd_options opt;
    sccd_ode_counters cnt;
    ode_body *bodies;
    int nbodies, capbodies;
    sccd_adapter_map body_of; /* CCD body -> index of its record */
    sccd_adapter_flying flying; /* bodies the CCD's impacts left flying: this step's struck bodies, and the next's */
    ode_geom *geoms;
    int ngeoms, capgeoms;
    sccd_adapter_map keys; /* the scan's bodies of more than one geom -> their keys (ode_geom.key) */
    int *struck;           /* the scan's first geoms of the bodies the last step left flying */
    int nstruck, capstruck;
    ode_material *mats;
    int nmats, capmats;
    sccd_ode_impact_fn *impact_fn;
    void *impact_user;
    bool scanned; /* before_step ran since the last after_step */
    sccd_real dt; /* the step's length, read from ODE's integration or told ... */
    sccd_real told_dt; /* ... by sccd_ode_set_step_length (0: read) */
    double asked_seconds; /* the adapter's time in the current solve's questions (sccd_adapter_lap_seconds) */
    /* the solver's input: bodies, and shapes index for index with the pieces */
    ode_piece *pieces;
    int npieces, cappieces;
    int *rank_start;   /* sorting the pieces (sccd_ode_ccd.c's sort_pieces): where each rank starts ... */
    int caprank;
    ode_piece *spare;  /* ... and the pieces in order, before they are copied back */
    int capspare;
    sccd_impact_body3 *ib;
    int nib, capib;
    sccd_impact_shape3 *is;
    int capis;
    sccd_impact_scratch scratch;
    unsigned char *marks; /* a static mesh's triangles in the solve (ode_geom.marks) */
    int nmarks, capmarks;
    ode_listing listed;         /* the geoms' reach boxes, for what the CCD bodies and the solver's questions reach ... */
    int *planes;                /* ... and the planes, asked one by one */
    int nplanes, capplanes;
    ode_listing fixed;          /* the static and kinematic geoms' (not the planes), for a flying body's questions */
    sccd_adapter_queries regions; /* the CCD bodies' boxes gathered whole this step (gather_hook) ... */
    int *region_body;             /* ... the record of each */
    int capregion;
    int nidle;                    /* the CCD bodies idle now (ode_body.idle) */
    const char *error;
    char message[96]; /* an error message made at run time (set_options) */
};

/* Report bad use: the world keeps the message (sccd_ode_last_error) and the
 * assert handler gets it too, as the Chipmunk adapter's CP_CHECK does. */
#define ODE_CHECK(w, cond, msg) ((cond) ? true : sccd_ode_fail((w), (msg), __FILE__, __LINE__))

/* Keep msg as the world's last error and count it (w may be NULL). */
void sccd_ode_report(sccd_ode_world *w, const char *msg);
/* sccd_ode_report, then the assert handler with msg; false. */
bool sccd_ode_fail(sccd_ode_world *w, const char *msg, const char *file, int line);

static inline sccd_v3 sccd_ode_v3(const dReal *v) { return (sccd_v3){v[0], v[1], v[2]}; }

/* ODE quaternions are (w, x, y, z). */
static inline sccd_quat sccd_ode_quat(const dReal *q) { return (sccd_quat){q[1], q[2], q[3], q[0]}; }

static inline sccd_xf3 sccd_ode_body_pose(dBodyID b)
{
    return (sccd_xf3){sccd_ode_v3(dBodyGetPosition(b)), sccd_ode_quat(dBodyGetQuaternion(b))};
}

/* The pose of geom g in its body's frame (identity without an offset). */
static inline sccd_xf3 sccd_ode_geom_offset(dGeomID g)
{
    dQuaternion q;
    dGeomGetOffsetQuaternion(g, q);
    return (sccd_xf3){sccd_ode_v3(dGeomGetOffsetPosition(g)), sccd_ode_quat(q)};
}

static inline sccd_plane sccd_ode_plane(dGeomID g)
{
    dVector4 p;
    dGeomPlaneGetParams(g, p);
    return (sccd_plane){{p[0], p[1], p[2]}, p[3]};
}

/* Triangle i of mesh g (world coordinates, its pose now). */
static inline sccd_triangle sccd_ode_triangle(dGeomID g, int i)
{
    dVector3 a, b, c;
    dGeomTriMeshGetTriangle(g, i, &a, &b, &c);
    return (sccd_triangle){sccd_ode_v3(a), sccd_ode_v3(b), sccd_ode_v3(c)};
}

/* sccd_ode_world.c */
ode_body *sccd_ode_find_body(const sccd_ode_world *w, dBodyID body);
ode_material *sccd_ode_find_material(const sccd_ode_world *w, dGeomID g);

/* sccd_ode_contact.c */
/// Body b (NULL: the world, where static geoms lie) as the solver sees it, from pose x0 on, into *out; ccd: its
/// record, -1.
void sccd_ode_solver_body(const sccd_ode_world *w, dBodyID b, sccd_xf3 x0, int ccd, sccd_impact_body3 *out);
/// Geom g as the core's shape placed by x; false for classes the core does not take (meshes go triangle by triangle).
bool sccd_ode_geom_shape(dGeomID g, sccd_xf3 x, sccd_impact_shape3 *out);
/// Piece p as a solver shape, into *s: in its body's coordinates, with its material.
void sccd_ode_piece_shape(const sccd_ode_world *w, const ode_piece *p, sccd_impact_shape3 *s);
/// The hooks of a solve: ODE's pair rules, the game's impact function.
sccd_impact_callbacks3 sccd_ode_callbacks(sccd_ode_world *w);

/* sccd_ode_ccd.c */
/// The velocity whose free motion in the core takes body b from pose x0 to its pose now.
void sccd_ode_step_velocity(const sccd_ode_world *w, dBodyID b, sccd_xf3 x0, sccd_v3 *v, sccd_v3 *om);
/// sccd_ode_gather.c: the step's pieces (the CCD bodies' geoms and every geom their motions may reach) before the solve; false out of memory.
bool sccd_ode_gather_all(sccd_ode_world *w);
/// The pieces a body the solver set moving may reach in box and that keep keeps (the solver's question mid-solve), appended; false out of memory.
bool sccd_ode_gather_reach(sccd_ode_world *w, sccd_aabb3 box, sccd_adapter_keep keep);
/// Add geom's triangle (-1: the whole geom) to the step's pieces; false out of memory.
bool sccd_ode_add_piece(sccd_ode_world *w, int geom, int triangle);
/// Idle CCD body r joins the solve: its geoms' pieces appended; false out of memory.
bool sccd_ode_join_idle(sccd_ode_world *w, ode_body *r);

/* sccd_ode_mesh.c */
/// Why trimesh g cannot be in the CCD (no data, no triangle, a vertex not finite), NULL when it can.
const char *sccd_ode_mesh_problem(dGeomID g);
/// The first problem of body's trimeshes (sccd_ode_mesh_problem), NULL when none.
const char *sccd_ode_body_mesh_problem(dBodyID body);
/// CCD body geom k, a trimesh: its triangles as pieces and *region, what its motion m covers. 1: done; 0: the mesh cannot be used (reported, counted in unsupported); -1: out of memory.
int sccd_ode_mesh_gather_ccd(sccd_ode_world *w, int k, sccd_motion3 m, sccd_aabb3 *region);

#endif
