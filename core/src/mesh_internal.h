/* Private to the mesh sources: unchecked appends for the loaders and
 * generators, which validate their input first. */
#ifndef SCCD_MESH_INTERNAL_H
#define SCCD_MESH_INTERNAL_H

#include "sectorccd/mesh.h"

/* Append p; false only when out of memory. */
bool sccd_mesh_push_vertex(sccd_mesh *m, sccd_v3 p);
/* Append the triangle (a, b, c) without checking the indices; false only when out of memory. */
bool sccd_mesh_push_triangle(sccd_mesh *m, int a, int b, int c);

/* The format named by a path's extension (.obj .stl .off, either case), else AUTO. */
sccd_mesh_format sccd_mesh_format_of_path(const char *path);

#endif
