/* Pictures of sphere fills (common/util/sphere_png.c): the PNG is written
 * and read back with cairo; a lone sphere is drawn where it is projected
 * (the centre of the picture) and nowhere near the corners; two spheres side
 * by side along screen right leave the gap between them white; bad views,
 * empty lists and unwritable paths are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <cairo.h>
#include <stdio.h>

#include "sphere_png.h"

static const char *path = "build/test_sphere_png.png";

/* True when pixel (x, y) of the PNG at path is white (the background). */
static bool white_at(int x, int y)
{
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(s);
    const unsigned char *row = cairo_image_surface_get_data(s) + y * cairo_image_surface_get_stride(s);
    unsigned int px = ((const unsigned int *)row)[x];
    cairo_surface_destroy(s);
    return (px & 0xffffffu) == 0xffffffu;
}

static void test_one_sphere_in_the_middle(void **state)
{
    (void)state;
    for (int up = 0; up < 3; ++up) {
        sccd_sphere s = {{1.0, -2.0, 3.0}, 0.5};
        assert_true(sccd_spheres_png(path, &s, 1, (sccd_sphere_view){64, 48, up, NULL, NULL}));
        assert_false(white_at(32, 24));
        assert_true(white_at(0, 0));
        assert_true(white_at(63, 47));
        assert_true(white_at(0, 47));
        assert_true(white_at(63, 0));
    }
}

/* Two spheres of radius 0.5, 4 apart along screen right (z up, azimuth 35°:
 * right = (−sin 35°, cos 35°, 0)): the picture's middle lies between them, so
 * it stays white, and both discs cross the middle row. */
static void test_gap_between_two_spheres(void **state)
{
    (void)state;
    double az = 35.0 * SCCD_PI / 180.0;
    sccd_v3 right = {-sin(az), cos(az), 0.0};
    sccd_sphere s[2] = {{sccd_v3_scale(right, -2.0), 0.5}, {sccd_v3_scale(right, 2.0), 0.5}};
    assert_true(sccd_spheres_png(path, s, 2, (sccd_sphere_view){200, 200, 2, NULL, NULL}));
    assert_true(white_at(100, 100));
    int left = 0, right_hits = 0;
    for (int x = 0; x < 200; ++x) {
        left += x < 100 && !white_at(x, 100);
        right_hits += x > 100 && !white_at(x, 100);
    }
    assert_true(left > 10);
    assert_true(right_hits > 10);
}

static void test_bad_input_refused(void **state)
{
    (void)state;
    sccd_sphere s = {{0.0, 0.0, 0.0}, 1.0};
    sccd_aabb3 box = {{-1, -1, -1}, {1, 1, 1}};
    assert_false(sccd_spheres_png(path, &s, 0, (sccd_sphere_view){64, 64, 2, NULL, NULL}));
    assert_false(sccd_spheres_png(path, NULL, 1, (sccd_sphere_view){64, 64, 2, NULL, NULL}));
    assert_false(sccd_spheres_png(path, &s, 1, (sccd_sphere_view){64, 64, 3, NULL, NULL}));
    assert_false(sccd_spheres_png(path, &s, 1, (sccd_sphere_view){8, 64, 2, NULL, NULL}));
    assert_false(sccd_spheres_png("/nonexistent-dir/x.png", &s, 1, (sccd_sphere_view){64, 64, 2, &box, NULL}));
    /* no caption here: cairo's fonts keep fontconfig caches LeakSanitizer reports */
    assert_true(sccd_spheres_png(path, &s, 1, (sccd_sphere_view){64, 64, 2, &box, NULL}));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_sphere_in_the_middle),
        cmocka_unit_test(test_gap_between_two_spheres),
        cmocka_unit_test(test_bad_input_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
