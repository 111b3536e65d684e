/* sectorccd — triangle meshes: a caller-owned container, loaders for OBJ, STL
 * (ASCII and binary) and OFF from a file or a memory buffer, writers, a
 * report of the mesh's topology, and generated closed meshes for tests and
 * benchmarks (the first stage of the seed 003 sphere-tree pipeline).
 *
 * Broken files are not misuse: a loader returns a status naming the line
 * (text) or byte offset (binary) and leaves the mesh empty; it never crashes
 * and never allocates more than a small multiple of the input size (claimed
 * counts are checked against the bytes that remain). Misuse (NULL pointers,
 * invalid numbers given to the generators) fires SCCD_ASSERT and returns the
 * documented defined result. */
#ifndef SECTORCCD_MESH_H
#define SECTORCCD_MESH_H

#include <stdio.h>
#include "sectorccd/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A triangle mesh: nv vertices, nt triangles of three vertex indices each
/// (counter-clockwise seen from outside for the generated meshes).
/// Caller-owned: sccd_mesh_init before use, sccd_mesh_destroy after.
typedef struct sccd_mesh {
    sccd_v3 *v;   ///< vertices [nv]
    int (*t)[3];  ///< triangles [nt], indices into v
    int nv, nt;   ///< counts
    int cap_v, cap_t; ///< allocated capacities (private)
} sccd_mesh;

/// File formats; STL means either flavour when loading (told apart by size and content).
typedef enum sccd_mesh_format {
    SCCD_MESH_AUTO,       ///< loading: by file extension, then by content
    SCCD_MESH_OBJ,        ///< Wavefront OBJ (v / f lines)
    SCCD_MESH_STL,        ///< STL; ASCII when writing
    SCCD_MESH_STL_BINARY, ///< binary STL (writing; loads like SCCD_MESH_STL)
    SCCD_MESH_OFF         ///< Object File Format
} sccd_mesh_format;

/// Outcome of a load.
typedef enum sccd_load_state {
    SCCD_LOAD_OK,          ///< the mesh holds the file's triangles
    SCCD_LOAD_IO,          ///< the file could not be opened or read
    SCCD_LOAD_FORMAT,      ///< unknown format or a malformed line / record
    SCCD_LOAD_NUMBER,      ///< a coordinate is not a finite number
    SCCD_LOAD_INDEX,       ///< a vertex index out of range
    SCCD_LOAD_TRUNCATED,   ///< the data ends before what the header claims
    SCCD_LOAD_TOO_LARGE,   ///< a claimed count cannot fit in the input
    SCCD_LOAD_NO_MEMORY    ///< allocation failed
} sccd_load_state;

/// A loader's status: state, the 1-based line (text formats, else 0), the
/// byte offset (binary STL, else -1) and a one-line message naming them.
typedef struct sccd_load_status {
    sccd_load_state state;
    int line;
    long offset;
    char message[160];
} sccd_load_status;

/// Topology and size of a mesh.
typedef struct sccd_mesh_report {
    int vertices, triangles;   ///< counts
    sccd_aabb3 bounds;         ///< box around the vertices (zero box when empty)
    int boundary_edges;        ///< undirected edges used by exactly one triangle; -1 out of memory (edges not counted, not closed)
    int nonmanifold_edges;     ///< undirected edges used by three or more triangles
    int misoriented_edges;     ///< edges shared by two triangles that traverse it the same way
    int degenerate_triangles;  ///< triangles of (near) zero area or with a repeated index
    bool closed;               ///< every edge shared by exactly two triangles (and nt > 0)
    bool oriented;             ///< closed and every edge traversed once each way
    sccd_real area;            ///< total surface area
    sccd_real volume;          ///< signed enclosed volume (positive when normals point out)
} sccd_mesh_report;

/// Empty mesh, no allocation.
void sccd_mesh_init(sccd_mesh *m);
/// Free the arrays; the mesh is empty again (and may be reused). NULL is accepted.
void sccd_mesh_destroy(sccd_mesh *m);
/// Remove all vertices and triangles, keeping the allocations.
void sccd_mesh_clear(sccd_mesh *m);
/// Append a finite vertex; returns its index, or -1 (assert) when invalid or out of memory.
int sccd_mesh_add_vertex(sccd_mesh *m, sccd_v3 p);
/// Append a triangle of existing vertex indices; false (assert) when an index is out of range or out of memory.
bool sccd_mesh_add_triangle(sccd_mesh *m, int a, int b, int c);
/// Triangle i as coordinates (0 ≤ i < nt).
sccd_triangle sccd_mesh_triangle(const sccd_mesh *m, int i);

/// Load from a memory buffer of size bytes (need not be NUL-terminated); AUTO detects by content (binary STL by its size, "solid" → ASCII STL, "OFF" header, else OBJ).
sccd_load_status sccd_mesh_load_buffer(sccd_mesh *m, const void *data, size_t size, sccd_mesh_format format);
/// Load from a file; AUTO picks the format from the extension (.obj .stl .off), else by content.
sccd_load_status sccd_mesh_load_file(sccd_mesh *m, const char *path, sccd_mesh_format format);
/// Write in format (AUTO = OBJ) with 17 significant digits (text) so a round trip is exact; false on an I/O error.
bool sccd_mesh_write(const sccd_mesh *m, FILE *out, sccd_mesh_format format);
/// Write to a file path (see sccd_mesh_write); AUTO picks the format from the extension (.stl: ASCII), else OBJ.
bool sccd_mesh_save_file(const sccd_mesh *m, const char *path, sccd_mesh_format format);

/// Distance from p to the nearest triangle of m (brute force over all triangles, catalogue.h); +INFINITY when m has none.
sccd_real sccd_mesh_distance(const sccd_mesh *m, sccd_v3 p);

/// Generalised winding number of m at p: the triangles' solid angles over 4π (Van Oosterom & Strackee); 1 inside and 0 outside a closed outward-oriented mesh, about 1/2 on its surface.
sccd_real sccd_mesh_winding_number(const sccd_mesh *m, sccd_v3 p);

/// Counts, box, closedness, orientation, degenerate triangles, area and volume.
sccd_mesh_report sccd_mesh_report_make(const sccd_mesh *m);

/// Surface of revolution about +z from a profile of n ≥ 2 points (x = radius ≥ 0, y = height), bottom to top,
/// with segments ≥ 3 around; end points of radius 0 become poles, others are closed by flat caps.
/// Closed and oriented outwards. Replaces the mesh's content; false (assert) on bad input.
bool sccd_mesh_revolve(sccd_mesh *m, const sccd_v2 *profile, int n, int segments);
/// A wine bottle about 0.30 tall, radius 0.04, on the z axis from z = 0 (a revolved profile).
bool sccd_mesh_bottle(sccd_mesh *m, int segments);
/// A baseball bat about 0.85 long along +z from z = 0 (knob, handle, barrel; a revolved profile).
bool sccd_mesh_bat(sccd_mesh *m, int segments);
/// Axis-aligned box with half extents h > 0 centred at the origin (12 triangles).
bool sccd_mesh_box(sccd_mesh *m, sccd_v3 h);
/// A sword about 1.0 long along +z: diamond-section blade with a point, a cross guard, grip and pommel.
bool sccd_mesh_sword(sccd_mesh *m);
/// Torus about +z: major radius R > r > 0, nu ≥ 3 segments around the axis, nv ≥ 3 around the tube.
bool sccd_mesh_torus(sccd_mesh *m, sccd_real R, sccd_real r, int nu, int nv);
/// The simple counter-clockwise outline of n (3..256) points in the xy plane extruded from z = 0 to z = thickness > 0
/// (caps by ear clipping). Closed and oriented outwards; false (assert) on bad input or an outline that is not simple.
bool sccd_mesh_extrude(sccd_mesh *m, const sccd_v2 *outline, int n, sccd_real thickness);
/// A fork 0.19 long along +y, 2 mm thick: handle, neck and four tines 3 mm wide (an extruded outline).
bool sccd_mesh_fork(sccd_mesh *m);
/// A shape with a square through-hole (genus one): a square frame in the xy plane, outer half-size 0.5, hole half-size 0.25, 0.354 thick (a 4×4-segment torus).
bool sccd_mesh_holed(sccd_mesh *m);

#ifdef __cplusplus
}
#endif

#endif
