/* Private to the Chipmunk adapter (sccd_cp_*.c): the world, its records
 * and what the adapter's files share. Not installed, not API.
 *   sccd_cp_world.c    the world's lifecycle and the public calls
 *   sccd_cp_contact.c  Chipmunk's shapes, pair rules and handlers as the core sees them
 *   sccd_cp_gather.c   which shapes the phase hands to the solver
 *   sccd_cp_ccd.c      the CCD phase of a step */
#ifndef SCCD_CP_INTERNAL_H
#define SCCD_CP_INTERNAL_H

#define CP_ALLOW_PRIVATE_ACCESS 1
#include <chipmunk/chipmunk_private.h>

#include "sectorccd_chipmunk.h"
#include "../adapter_internal.h"

/* A gathered shape with the ids it is grouped by (sccd_cp_group_shapes):
 * its body's first shape's and its own. */
typedef struct cp_shape_key {
    cpHashValue body, id;
    cpShape *shape;
} cp_shape_key;

/* A non-CCD body that may move farther than the query margin this step:
 * the box of its shapes' start boxes grown by its reach, made once a step. */
typedef struct cp_fast_body {
    cpBody *body;
    sccd_real reach;
    sccd_aabb2 box;
} cp_fast_body;

/* Where a body is, as Chipmunk keeps it: its centre of gravity, angle and
 * the transform its shapes are placed by. */
typedef struct cp_place { cpVect p; cpFloat a; cpTransform xf; } cp_place;

typedef struct cp_body_rec {
    cpBody *body;
    cpBodyPositionFunc orig; /* the position function before enable */
    sccd_v2 pivot;           /* body coordinates */
    cpTimestamp stamp;       /* step in which the phase integrated it */
    bool seen;               /* found in the space, with our position function, by the step's check */
    /* this step */
    bool active;             /* taking part in this step's phase */
    bool usable;             /* has solid shapes and a finite motion */
    sccd_impact_body2 start; /* as the solver sees it at the step start */
    sccd_v2 bias_v;          /* the bias velocity it moved by */
    sccd_real bias_w;
    cp_place end;            /* its own integration's end */
    sccd_aabb2 box;          /* what its motion may reach (its query box) */
    bool met;                /* something else may be in its box this step */
    bool left_out;           /* in free flight with nothing met: left out of the solve at the start ... */
    bool idle;               /* ... and still out (cleared when a body set moving may reach it and it joins) */
    bool placed;             /* among the solver's bodies (its results written back from the solve) */
} cp_body_rec;

/* A solver body's Chipmunk body and the bias velocity it moved by (taken
 * out again after an impact). */
typedef struct cp_solver_ref { cpBody *body; sccd_v2 bias_v; sccd_real bias_w; } cp_solver_ref;


struct sccd_cp_world {
    cpSpace *space;
    sccd_ccd_options opt;
    sccd_cp_counters cnt;
    cp_body_rec *recs;
    int nrec, caprec;
    sccd_adapter_map rec_of; /* body -> index of its record */
    cpTimestamp stamp; /* step of the last phase */
    cpTimestamp checked; /* step of the last check (sccd_cp_world.c: forgotten bodies, dt) */
    sccd_adapter_map moved; /* the bodies integrated already when the phase runs (before the body that runs it in the array) */
    sccd_adapter_flying flying; /* bodies the CCD's impacts left flying: this step's struck bodies, and the next's */
    cpBody *trigger;            /* the flying body whose position function runs the next phase (sccd_cp_world.c; compared only) ... */
    cpBodyPositionFunc trigger_own; /* ... and its own position function */
    cpShape **cands; /* gathered shapes, grouped by body before the solve */
    int ncands, capcands;
    cp_shape_key *keys; /* their sort's keys and its other buffer (sccd_cp_group_shapes) */
    int capkeys;
    sccd_adapter_map gathered; /* the shapes in cands */
    sccd_adapter_keep keeping; /* what gather keeps now (keeps_shape) */
    bool gather_ok; /* no allocation failed in the current query */
    cp_fast_body *fast; /* non-CCD bodies that may move farther than the query margin */
    int nfast, capfast;
    sccd_adapter_sorted fastq;    /* the fast bodies' reach boxes, for the solver's questions (sccd_cp_gather_reach) ... */
    bool fast_listed;             /* ... listed this step */
    sccd_adapter_queries queries; /* the step's query boxes, the CCD bodies' (sccd_cp_gather_box) ... */
    int *query_rec;               /* ... and by query box, the record whose box it is */
    int capquery;
    int asking;                   /* the query box the space is asked about now, -1: none (a question of the solver's) */
    sccd_real slow;
    int seen;     /* shapes of the array's bodies, counted by the split's pass (sccd_cp_split_targets) ... */
    bool matched; /* ... which matched them against the query boxes */
    int fixed_moving; /* whether the dynamic index may hold a kinematic body's shape, -1: not known yet (this step) */
    cpFloat dt; /* the step's length (the solver's questions) */
    double asked_seconds; /* the adapter's time in the current solve's questions (sccd_adapter_lap_seconds) */
    /* the solver's input, index for index with the Chipmunk objects */
    sccd_impact_body2 *ib;
    cp_solver_ref *ref;
    int nib, capib, capref;
    sccd_impact_shape2 *is;
    int capis;
    sccd_impact_scratch scratch;
    /* the hooks of the current solve */
    cpArbiter arb;        /* the arbiter of the impact being told */
    struct cpContact contact;
    const char *error;
    char message[96]; /* an error message made at run time (set_options) */
};

static inline sccd_v2 v2_of(cpVect v) { return (sccd_v2){v.x, v.y}; }
static inline cpVect cpv_of(sccd_v2 v) { return cpv(v.x, v.y); }
/* A box of the plane as the query boxes (3D) take it. */
static inline sccd_aabb3 box3_of(sccd_aabb2 b) { return (sccd_aabb3){{b.lo.x, b.lo.y, 0.0}, {b.hi.x, b.hi.y, 0.0}}; }

/* Check a precondition: on failure the assert handler gets the message (as
 * SCCD_ASSERT's condition text) and the world keeps it for
 * sccd_cp_last_error; the caller then returns its defined result. */
#define CP_CHECK(w, cond, msg) ((cond) ? true : (sccd_cp_report((w), (msg), __FILE__, __LINE__), false))

/* Report a bad call or state (w may be NULL). */
void sccd_cp_report(sccd_cp_world *w, const char *msg, const char *file, int line);
/* The world attached to a space, NULL when none. */
sccd_cp_world *sccd_cp_world_of(cpSpace *space);
/* The record of a CCD body, NULL when it has none. */
cp_body_rec *sccd_cp_find_rec(const sccd_cp_world *w, const cpBody *body);
/* Every CCD body's position function (sccd_cp_world.c). */
void sccd_cp_ccd_position(cpBody *body, cpFloat dt);

/* True when body has the CCD's position function (read only from bodies
 * known to be alive: in the space, or handed to a public call). */
static inline bool sccd_cp_has_hook(const cpBody *body) { return body->position_func == sccd_cp_ccd_position; }

/* The record of a CCD body (sccd_cp_body_is_enabled), NULL for any other
 * body: inline for the phase's passes over the space's bodies, where most
 * have not the hook, and the record found once. */
static inline cp_body_rec *sccd_cp_enabled_rec(const sccd_cp_world *w, const cpBody *body)
{
    return sccd_cp_has_hook(body) ? sccd_cp_find_rec(w, body) : NULL;
}

/* A Chipmunk shape as a sectorccd shape in body coordinates, written to s
 * in place (built aside and returned, it was copied once more, or twice
 * into the solver's shapes: 0.25 % of the CCD of the 1,000 + 100 debris
 * rain): its type and that type's fields, a polygon's points up to its
 * count (what every reader reads; the whole struct zeroed first cost
 * that rain 0.35 % of its CCD). */
void sccd_cp_shape_of(sccd_shape2 *s, const cpShape *shape);
/* The impact solver's hooks over the world's gathered shapes: Chipmunk's pair rules, begin / pre-solve, post-solve / separate. */
bool sccd_cp_hook_collide(void *world, int shape_a, int shape_b);
bool sccd_cp_hook_begin(void *world, sccd_impact_contact2 *contact);
void sccd_cp_hook_post(void *world, const sccd_impact_contact2 *contact);

/* CCD body r's box for the step (r->box; a compact shape turning about its
 * centre of gravity by that centre's segment, others by their free motion's
 * box); false when it has no shape but sensors. */
bool sccd_cp_ccd_box(cp_body_rec *r, cpFloat dt);

/* sccd_cp_gather.c: gather shape s, whose points move up to margin this step, once a step, a moving body's shapes all at once (false: out of memory). */
bool sccd_cp_gather(sccd_cp_world *w, cpShape *s, sccd_real margin);
/* Split the non-CCD bodies into slow and fast by how far they may move this step, once the query boxes
 * are recorded (the slow bodies' shapes may be matched against them on the way). */
bool sccd_cp_split_targets(sccd_cp_world *w, sccd_real smallest, cpFloat dt);
/* Record r's box as a query box: the shapes within it now, and the fast bodies' that may reach it (gathered by sccd_cp_gather_queries). */
bool sccd_cp_gather_box(sccd_cp_world *w, int r);
/* Gather for all the query boxes at once (the boxes kept until the next phase: sccd_cp_gather_reach asks them), marking the records whose boxes meet anything but their own body (cp_body_rec.met). */
bool sccd_cp_gather_queries(sccd_cp_world *w);
/* Gather what may be in box this step and keep keeps, at once (the solver's questions mid-solve). */
bool sccd_cp_gather_reach(sccd_cp_world *w, sccd_aabb2 box, sccd_adapter_keep keep);
/* Group the gathered shapes from cands[from] on by body (the order the solver wants). */
void sccd_cp_group_shapes(sccd_cp_world *w, int from);

/* Whether body is one the last step left flying and not a CCD body (the
 * phase tests it as struck; one of them may run the next phase). */
static inline bool sccd_cp_flies(const sccd_cp_world *w, const cpBody *body)
{
    return sccd_adapter_map_get(&w->flying.now, body) >= 0 && sccd_cp_find_rec(w, body) == NULL;
}

/* The CCD phase's entry: the first CCD body of a step runs the phase
 * (sccd_cp_ccd.c). A CCD body's position function is sccd_cp_world.c's,
 * which checks the step (forgotten bodies, dt) first, then calls this. */
void sccd_cp_position_hook(cpBody *body, cpFloat dt);
/* Run the step's phase from body `first` on in the array, unless it ran. */
void sccd_cp_phase(sccd_cp_world *w, cpBody *first, cpFloat dt);
/* After a step that left bodies flying: one of them, first in the array,
 * runs the next phase (sccd_cp_world.c), whether a CCD body is awake or not. */
void sccd_cp_arm_trigger(sccd_cp_world *w);

#endif
