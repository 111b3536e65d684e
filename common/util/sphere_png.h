/* Pictures of sphere fills: leaf spheres drawn with cairo as shaded discs,
 * for sccd-spherefill --png and the sphere-tree benchmark. */
#ifndef SCCD_SPHERE_PNG_H
#define SCCD_SPHERE_PNG_H

#include "sectorccd/sectorccd.h"

/// How to draw: image size in pixels, the world axis pointing up on the picture (0 = x, 1 = y, 2 = z),
/// an optional box drawn as thin lines (NULL: none) and an optional caption (NULL: none).
typedef struct sccd_sphere_view {
    int width, height, up;
    const sccd_aabb3 *box;
    const char *title;
} sccd_sphere_view;

/// Write n spheres to the PNG file path: orthographic, seen from azimuth 35° and elevation 25° about the up axis,
/// back to front, each a disc shaded by a radial gradient; false when n < 1, view is bad or the file cannot be written.
bool sccd_spheres_png(const char *path, const sccd_sphere *s, int n, sccd_sphere_view view);

#endif
