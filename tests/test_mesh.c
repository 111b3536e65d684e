/* Meshes: loaders on generated and hand-made files (every error path, with
 * the line or byte it names), round trips through every format, the report
 * against hand-computed figures, closest point on a triangle against dense
 * sampling, and bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

static sccd_load_status load_str(sccd_mesh *m, const char *s, sccd_mesh_format f)
{
    return sccd_mesh_load_buffer(m, s, strlen(s), f);
}

/* Load s and expect the given state at the given line (text) or offset (binary). */
static void expect_error(const char *s, size_t size, sccd_mesh_format f, sccd_load_state state, int line, long offset)
{
    sccd_mesh m;
    sccd_mesh_init(&m);
    sccd_load_status st = sccd_mesh_load_buffer(&m, s, size, f);
    if (st.state != state || st.line != line || (offset >= 0 && st.offset != offset))
        fail_msg("expected state %d line %d offset %ld, got %d line %d offset %ld: %s", state, line, offset, st.state,
                 st.line, st.offset, st.message);
    assert_int_equal(m.nv, 0); /* a failed load leaves the mesh empty */
    assert_int_equal(m.nt, 0);
    char where[32];
    if (line > 0)
        snprintf(where, sizeof where, "line %d", line);
    else
        snprintf(where, sizeof where, "byte %ld", st.offset);
    assert_non_null(strstr(st.message, where));
    sccd_mesh_destroy(&m);
}

static void expect_text_error(const char *s, sccd_mesh_format f, sccd_load_state state, int line)
{
    expect_error(s, strlen(s), f, state, line, -1);
}

static void assert_report(const sccd_mesh *m, int nv, int nt, bool closed, bool oriented, double volume, double area)
{
    sccd_mesh_report r = sccd_mesh_report_make(m);
    assert_int_equal(r.vertices, nv);
    assert_int_equal(r.triangles, nt);
    assert_true(r.closed == closed);
    assert_true(r.oriented == oriented);
    assert_true(fabs(r.volume - volume) <= 1e-9 * (1.0 + fabs(volume)));
    assert_true(fabs(r.area - area) <= 1e-9 * (1.0 + area));
}

static void test_obj_forms(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_mesh_init(&m);
    /* v/vt/vn records, slash forms, negative indices, a pentagon (3 triangles
     * by fan), comments, CRLF, blank lines and ignored records. */
    const char *obj = "# a comment\r\n"
                      "o thing\r\n"
                      "v 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0 1.0\r\nv 0.5 1.5 0\r\n"
                      "vt 0 0\nvn 0 0 1\n\n"
                      "f 1/1/1 2/1/1 3//1 4/1 5\n"
                      "g group\n"
                      "f -5 -4 -3   # relative\n";
    sccd_load_status s = load_str(&m, obj, SCCD_MESH_AUTO);
    assert_int_equal(s.state, SCCD_LOAD_OK);
    assert_int_equal(m.nv, 5);
    assert_int_equal(m.nt, 4);
    const int want[4][3] = {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}, {0, 1, 2}};
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 3; ++k)
            assert_int_equal(m.t[i][k], want[i][k]);
    assert_true(m.v[4].x == 0.5 && m.v[4].y == 1.5);
    /* The unit square (two triangles) has area 1; the pentagon adds 0.25, the repeat 0.5. */
    sccd_mesh_report r = sccd_mesh_report_make(&m);
    assert_true(fabs(r.area - 1.75) < 1e-12);
    assert_false(r.closed);
    sccd_mesh_destroy(&m);
}

static void test_obj_errors(void **state)
{
    (void)state;
    const sccd_mesh_format f = SCCD_MESH_OBJ;
    expect_text_error("v 0 0 0\nv 1 x 2\n", f, SCCD_LOAD_FORMAT, 2);
    expect_text_error("v 0 0\n", f, SCCD_LOAD_FORMAT, 1);
    expect_text_error("v 0 0 0\n\nv nan 0 0\n", f, SCCD_LOAD_NUMBER, 3);
    expect_text_error("v 0 inf 0\n", f, SCCD_LOAD_NUMBER, 1);
    expect_text_error("v 0 0 1e999\n", f, SCCD_LOAD_NUMBER, 1);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", f, SCCD_LOAD_INDEX, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", f, SCCD_LOAD_INDEX, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", f, SCCD_LOAD_INDEX, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", f, SCCD_LOAD_FORMAT, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 a 2\n", f, SCCD_LOAD_FORMAT, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2x 3\n", f, SCCD_LOAD_FORMAT, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n", f, SCCD_LOAD_FORMAT, 4);
    expect_text_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3333333333333333333333333333333333333333333333333333333333333333333\n",
                      f, SCCD_LOAD_FORMAT, 4);
    expect_text_error("# nothing here\n\n", f, SCCD_LOAD_FORMAT, 3);
    expect_text_error("", f, SCCD_LOAD_FORMAT, 1);
    /* Forward references are out of range: OBJ indices refer to vertices read so far. */
    expect_text_error("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n", f, SCCD_LOAD_INDEX, 1);
    /* A NUL byte inside a number. */
    expect_error("v 0 0\0 0\n", 10, f, SCCD_LOAD_FORMAT, 1, -1);
}

static void test_off_forms_and_errors(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_mesh_init(&m);
    /* Comments, counts on the header line, blank lines, colours after a face, a quad. */
    const char *off = "OFF 4 2 0\n# square\n0 0 0\n1 0 0\n\n1 1 0\n0 1 0\n3 0 1 2 255 0 0\n3 0 2 3\n";
    assert_int_equal(load_str(&m, off, SCCD_MESH_AUTO).state, SCCD_LOAD_OK);
    assert_int_equal(m.nv, 4);
    assert_int_equal(m.nt, 2);
    assert_int_equal(load_str(&m, "OFF\n4 1 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n4 0 1 2 3\n", SCCD_MESH_OFF).state,
                     SCCD_LOAD_OK);
    assert_int_equal(m.nt, 2);
    sccd_mesh_destroy(&m);

    const sccd_mesh_format f = SCCD_MESH_OFF;
    expect_text_error("OF\n3 1 0\n", f, SCCD_LOAD_FORMAT, 1);
    expect_text_error("OFF\n3 x 0\n0 0 0\n1 0 0\n0 1 0\n", f, SCCD_LOAD_FORMAT, 2);
    expect_text_error("OFF\n-3 1 0\n", f, SCCD_LOAD_FORMAT, 2);
    expect_text_error("OFF\n3", f, SCCD_LOAD_TOO_LARGE, 2);
    expect_text_error("OFF\n0 0", f, SCCD_LOAD_TRUNCATED, 2);
    /* Absurd counts: rejected before anything is reserved. */
    expect_text_error("OFF\n2000000000 1 0\n0 0 0\n", f, SCCD_LOAD_TOO_LARGE, 2);
    expect_text_error("OFF\n3 2000000000 0\n0 0 0\n", f, SCCD_LOAD_TOO_LARGE, 2);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n", f, SCCD_LOAD_TRUNCATED, 5);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n", f, SCCD_LOAD_TRUNCATED, 6);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n", f, SCCD_LOAD_NUMBER, 4);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", f, SCCD_LOAD_INDEX, 6);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n", f, SCCD_LOAD_INDEX, 6);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n2 0 1\n", f, SCCD_LOAD_FORMAT, 6);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1\n", f, SCCD_LOAD_FORMAT, 6);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 z\n", f, SCCD_LOAD_FORMAT, 6);
    expect_text_error("OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n1000000 0 1 2\n", f, SCCD_LOAD_FORMAT, 6);
}

static const char *stl_one = "solid one\n"
                             " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n"
                             "  endloop\n endfacet\n"
                             " facet normal 0 0 1\n  outer loop\n   vertex 1 0 0\n   vertex 1 1 0\n   vertex 0 1 0\n"
                             "  endloop\n endfacet\n"
                             "endsolid one\n";

static void test_stl_ascii(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_mesh_init(&m);
    assert_int_equal(load_str(&m, stl_one, SCCD_MESH_AUTO).state, SCCD_LOAD_OK);
    assert_int_equal(m.nt, 2);
    assert_int_equal(m.nv, 4); /* the shared corners are welded */
    /* Two solids in one file, and a NaN normal (normals are not used). */
    char two[2048];
    snprintf(two, sizeof two, "%s%s", stl_one, stl_one);
    assert_int_equal(load_str(&m, two, SCCD_MESH_STL).state, SCCD_LOAD_OK);
    assert_int_equal(m.nt, 4);
    assert_int_equal(load_str(&m,
                              "solid\nfacet normal nan 0 0\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
                              "endloop\nendfacet\nendsolid\n",
                              SCCD_MESH_STL)
                         .state,
                     SCCD_LOAD_OK);
    sccd_mesh_destroy(&m);

    const sccd_mesh_format f = SCCD_MESH_STL;
    const char *head = "solid x\nfacet normal 0 0 1\nouter loop\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\n", head);
    expect_text_error(buf, f, SCCD_LOAD_TRUNCATED, 6);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n", head);
    expect_text_error(buf, f, SCCD_LOAD_TRUNCATED, 9);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\nbogus\n", head);
    expect_text_error(buf, f, SCCD_LOAD_FORMAT, 10);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nfacets\n", head);
    expect_text_error(buf, f, SCCD_LOAD_FORMAT, 9);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n%0100d\n", head, 0);
    expect_text_error(buf, f, SCCD_LOAD_FORMAT, 9);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertex 0 inf 0\nendloop\nendfacet\nendsolid\n", head);
    expect_text_error(buf, f, SCCD_LOAD_NUMBER, 6);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertex 0 1\nendloop\nendfacet\nendsolid\n", head);
    expect_text_error(buf, f, SCCD_LOAD_FORMAT, 6);
    snprintf(buf, sizeof buf, "%svertex 0 0 0\nvertex 1 0 0\nvertice 0 1 0\n", head);
    expect_text_error(buf, f, SCCD_LOAD_FORMAT, 6);
    expect_text_error("solid x\nfacet normal 0 zero 1\n", f, SCCD_LOAD_FORMAT, 2);
    expect_text_error("solid x\nfacet normal 0 0", f, SCCD_LOAD_TRUNCATED, 2);
    expect_text_error("solid x\nfacet\n", f, SCCD_LOAD_TRUNCATED, 3);
}

/* A binary STL of n triangles (claimed count separately), header text given. */
static unsigned char *binary_stl(const char *header, uint32_t claimed, int n, size_t *size)
{
    *size = 84 + 50 * (size_t)n;
    unsigned char *b = calloc(*size, 1);
    memcpy(b, header, strlen(header));
    for (int k = 0; k < 4; ++k)
        b[80 + k] = (unsigned char)(claimed >> (8 * k));
    for (int i = 0; i < n; ++i) {
        float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, (float)i};
        memcpy(b + 84 + 50 * i + 12, v, sizeof v);
    }
    return b;
}

static void test_stl_binary(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_mesh_init(&m);
    size_t size;
    /* A binary file whose header begins with "solid": told apart by its size. */
    unsigned char *b = binary_stl("solid but binary", 3, 3, &size);
    assert_int_equal(sccd_mesh_load_buffer(&m, b, size, SCCD_MESH_AUTO).state, SCCD_LOAD_OK);
    assert_int_equal(m.nt, 3);
    assert_int_equal(m.nv, 5); /* (0,0,0) and (1,0,0) welded across the three triangles */
    assert_true(m.v[m.t[2][2]].z == 2.0);
    free(b);

    /* Claims 2^31 − 1 triangles (≈ 100 GB): rejected from the size alone. */
    b = binary_stl("binary", 0x7fffffffu, 2, &size);
    expect_error((const char *)b, size, SCCD_MESH_STL, SCCD_LOAD_TRUNCATED, 0, 84 + 100);
    free(b);
    /* Truncated in the middle of the third record: names where the records stop. */
    b = binary_stl("binary", 3, 3, &size);
    expect_error((const char *)b, size - 10, SCCD_MESH_STL, SCCD_LOAD_TRUNCATED, 0, 84 + 100);
    /* A NaN coordinate: the offset of that float. */
    float nan = NAN;
    memcpy(b + 84 + 50 + 12 + 4 * 4, &nan, 4);
    expect_error((const char *)b, size, SCCD_MESH_AUTO, SCCD_LOAD_NUMBER, 0, 84 + 50 + 12 + 16);
    free(b);
    /* Shorter than a header and not "solid". */
    expect_error("\x01\x02\x03", 3, SCCD_MESH_STL, SCCD_LOAD_TRUNCATED, 0, 3);
    /* Zero triangles is a valid, empty binary STL. */
    b = binary_stl("", 0, 0, &size);
    assert_int_equal(sccd_mesh_load_buffer(&m, b, size, SCCD_MESH_AUTO).state, SCCD_LOAD_OK);
    assert_int_equal(m.nt, 0);
    free(b);
    sccd_mesh_destroy(&m);
}

/* Generate each test mesh. */
static bool generate(sccd_mesh *m, int which)
{
    switch (which) {
    case 0: return sccd_mesh_bottle(m, 24);
    case 1: return sccd_mesh_bat(m, 20);
    case 2: return sccd_mesh_sword(m);
    case 3: return sccd_mesh_box(m, (sccd_v3){0.5, 1.0, 1.5});
    case 4: return sccd_mesh_torus(m, 1.0, 0.3, 24, 12);
    default: return sccd_mesh_holed(m);
    }
}

enum { GENERATED = 6 };

/* Write m to memory in format f and read it back. */
static sccd_load_status round_trip(const sccd_mesh *m, sccd_mesh_format f, sccd_mesh *back)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    assert_true(sccd_mesh_write(m, tmp, f));
    long size = ftell(tmp);
    rewind(tmp);
    char *buf = malloc((size_t)size);
    assert_int_equal(fread(buf, 1, (size_t)size, tmp), (size_t)size);
    fclose(tmp);
    sccd_load_status s = sccd_mesh_load_buffer(back, buf, (size_t)size, SCCD_MESH_AUTO);
    free(buf);
    return s;
}

static void test_round_trips(void **state)
{
    (void)state;
    sccd_mesh m, back;
    sccd_mesh_init(&m);
    sccd_mesh_init(&back);
    const sccd_mesh_format formats[4] = {SCCD_MESH_OBJ, SCCD_MESH_OFF, SCCD_MESH_STL, SCCD_MESH_STL_BINARY};
    for (int w = 0; w < GENERATED; ++w) {
        assert_true(generate(&m, w));
        sccd_mesh_report r = sccd_mesh_report_make(&m);
        for (int f = 0; f < 4; ++f) {
            sccd_load_status s = round_trip(&m, formats[f], &back);
            if (s.state != SCCD_LOAD_OK)
                fail_msg("mesh %d format %d: %s", w, f, s.message);
            assert_int_equal(back.nt, m.nt);
            assert_int_equal(back.nv, m.nv); /* STL welds back to the same vertices */
            /* Triangle order is kept by every format; binary STL stores floats. */
            double tol = formats[f] == SCCD_MESH_STL_BINARY ? 1e-6 : 0.0;
            for (int i = 0; i < m.nt; ++i) {
                sccd_triangle a = sccd_mesh_triangle(&m, i), b = sccd_mesh_triangle(&back, i);
                assert_true(sccd_v3_dist(a.a, b.a) <= tol && sccd_v3_dist(a.b, b.b) <= tol && sccd_v3_dist(a.c, b.c) <= tol);
            }
            sccd_mesh_report rb = sccd_mesh_report_make(&back);
            assert_true(rb.closed && rb.oriented);
            assert_true(fabs(rb.volume - r.volume) <= 1e-5 * r.volume);
        }
    }
    /* Through the file entry points, the format picked from the extension. */
    assert_true(generate(&m, 5));
    const char *paths[3] = {"build/test_mesh_rt.obj", "build/test_mesh_rt.off", "build/test_mesh_rt.stl"};
    for (int f = 0; f < 3; ++f) {
        assert_true(sccd_mesh_save_file(&m, paths[f], SCCD_MESH_AUTO));
        assert_int_equal(sccd_mesh_load_file(&back, paths[f], SCCD_MESH_AUTO).state, SCCD_LOAD_OK);
        assert_int_equal(back.nt, m.nt);
        remove(paths[f]);
    }
    assert_int_equal(sccd_mesh_load_file(&back, "build/no/such/file.obj", SCCD_MESH_AUTO).state, SCCD_LOAD_IO);
    assert_false(sccd_mesh_save_file(&m, "build/no/such/dir/file.obj", SCCD_MESH_OBJ));
    sccd_mesh_destroy(&m);
    sccd_mesh_destroy(&back);
}

static void test_generated_reports(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_mesh_init(&m);
    for (int w = 0; w < GENERATED; ++w) {
        assert_true(generate(&m, w));
        sccd_mesh_report r = sccd_mesh_report_make(&m);
        assert_true(r.closed && r.oriented);
        assert_int_equal(r.degenerate_triangles, 0);
        assert_true(r.volume > 0.0);
    }
    /* Box 1 × 2 × 3: 8 vertices, 12 triangles, volume 6, area 22. */
    assert_true(sccd_mesh_box(&m, (sccd_v3){0.5, 1.0, 1.5}));
    assert_report(&m, 8, 12, true, true, 6.0, 22.0);
    sccd_mesh_report r = sccd_mesh_report_make(&m);
    assert_true(r.bounds.lo.x == -0.5 && r.bounds.hi.z == 1.5);
    /* A revolved rectangle is a regular n-gon prism: area of the n-gon n/2·sin(2π/n) times the height. */
    const sccd_v2 rect[4] = {{0.0, 0.0}, {1.0, 0.0}, {1.0, 2.0}, {0.0, 2.0}};
    assert_true(sccd_mesh_revolve(&m, rect, 4, 16));
    double ngon = 8.0 * sin(2.0 * SCCD_PI / 16.0), side = 2.0 * sin(SCCD_PI / 16.0);
    assert_report(&m, 2 + 32, 64, true, true, 2.0 * ngon, 2.0 * ngon + 16.0 * side * 2.0);
    /* Without poles: flat caps with centre vertices. */
    const sccd_v2 tube[2] = {{1.0, 0.0}, {1.0, 2.0}};
    assert_true(sccd_mesh_revolve(&m, tube, 2, 16));
    assert_report(&m, 34, 64, true, true, 2.0 * ngon, 2.0 * ngon + 16.0 * side * 2.0);
    /* The frame: (1² − 0.5²) × thickness r√2 with r = 0.25. */
    assert_true(sccd_mesh_holed(&m));
    double t = 0.25 * sqrt(2.0);
    assert_report(&m, 16, 32, true, true, 0.75 * t, 1.5 + 4.0 * t + 2.0 * t);
    /* Sword: 4-segment revolution, diamond sections. */
    assert_true(sccd_mesh_sword(&m));
    r = sccd_mesh_report_make(&m);
    assert_true(fabs(r.bounds.hi.z - 1.0) < 1e-12 && fabs(r.bounds.hi.x - 0.12) < 1e-12 &&
                fabs(r.bounds.hi.y - 0.024) < 1e-12);
    sccd_mesh_destroy(&m);
}

static void test_report_defects(void **state)
{
    (void)state;
    sccd_mesh m;
    sccd_mesh_init(&m);
    /* Box without one triangle: the three edges of the hole are boundary edges. */
    assert_true(sccd_mesh_box(&m, (sccd_v3){1, 1, 1}));
    m.nt--;
    sccd_mesh_report r = sccd_mesh_report_make(&m);
    assert_int_equal(r.boundary_edges, 3);
    assert_false(r.closed);
    assert_false(r.oriented);
    /* One triangle flipped: its three edges are traversed the same way twice. */
    m.nt++;
    int tmp = m.t[5][1];
    m.t[5][1] = m.t[5][2];
    m.t[5][2] = tmp;
    r = sccd_mesh_report_make(&m);
    assert_int_equal(r.misoriented_edges, 3);
    assert_true(r.closed);
    assert_false(r.oriented);
    /* Three triangles on one edge: non-manifold; degenerate: repeated index and collinear. */
    sccd_mesh_clear(&m);
    for (int i = 0; i < 6; ++i)
        sccd_mesh_add_vertex(&m, (sccd_v3){i == 2 ? 2.0 : (i == 3 ? 0.0 : i % 2), i == 4 ? 1.0 : 0.0, i == 3 || i == 5 ? 1.0 : 0.0});
    assert_true(sccd_mesh_add_triangle(&m, 0, 1, 3));
    assert_true(sccd_mesh_add_triangle(&m, 1, 0, 4));
    assert_true(sccd_mesh_add_triangle(&m, 0, 1, 5));
    assert_true(sccd_mesh_add_triangle(&m, 0, 0, 3));
    assert_true(sccd_mesh_add_triangle(&m, 0, 1, 2)); /* (0,0,0), (1,0,0), (2,0,0): collinear */
    r = sccd_mesh_report_make(&m);
    assert_int_equal(r.degenerate_triangles, 2);
    assert_true(r.nonmanifold_edges >= 1);
    assert_false(r.closed);
    /* Empty mesh. */
    sccd_mesh_clear(&m);
    r = sccd_mesh_report_make(&m);
    assert_int_equal(r.triangles, 0);
    assert_int_equal(r.boundary_edges, 0);
    assert_false(r.closed);
    assert_true(r.volume == 0.0);
    sccd_mesh_destroy(&m);
}

/* Distance to a one-triangle mesh against the best of a dense barycentric grid. */
static void test_mesh_distance(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(31);
    sccd_mesh one;
    sccd_mesh_init(&one);
    enum { S = 60 };
    for (int n = 0; n < 10000; ++n) {
        sccd_triangle t = {sccd_rng_v3(&g, 1.0), sccd_rng_v3(&g, 1.0), sccd_rng_v3(&g, 1.0)};
        if (n % 50 == 0)
            t.c = sccd_v3_lerp(t.a, t.b, 0.3); /* degenerate: a segment */
        sccd_mesh_clear(&one);
        sccd_mesh_add_vertex(&one, t.a);
        sccd_mesh_add_vertex(&one, t.b);
        sccd_mesh_add_vertex(&one, t.c);
        assert_true(sccd_mesh_add_triangle(&one, 0, 1, 2));
        sccd_v3 p = sccd_rng_v3(&g, 2.0);
        double best = INFINITY;
        for (int i = 0; i <= S; ++i)
            for (int j = 0; i + j <= S; ++j) {
                sccd_v3 x = sccd_v3_add(t.a, sccd_v3_add(sccd_v3_scale(sccd_v3_sub(t.b, t.a), (double)i / S),
                                                         sccd_v3_scale(sccd_v3_sub(t.c, t.a), (double)j / S)));
                best = fmin(best, sccd_v3_dist(p, x));
            }
        double d = sccd_mesh_distance(&one, p),
               edge = fmax(sccd_v3_dist(t.a, t.b), fmax(sccd_v3_dist(t.a, t.c), sccd_v3_dist(t.b, t.c)));
        assert_true(d <= best + 1e-12);           /* never farther than a sample */
        assert_true(d >= best - 2.0 * edge / S); /* and the samples come within a grid step */
    }
    sccd_mesh_destroy(&one);
    /* Mesh distance: the box's surface from inside and outside points. */
    sccd_mesh m;
    sccd_mesh_init(&m);
    sccd_mesh_box(&m, (sccd_v3){1, 2, 3});
    for (int n = 0; n < 1000; ++n) {
        sccd_v3 p = sccd_rng_v3(&g, 4.0), a = sccd_v3_abs(p), e = sccd_v3_sub(a, (sccd_v3){1, 2, 3});
        double want = fmax(e.x, fmax(e.y, e.z)) <= 0.0 ? -fmax(e.x, fmax(e.y, e.z))
                                                       : sccd_v3_len(sccd_v3_max(e, (sccd_v3){0, 0, 0}));
        assert_true(fabs(sccd_mesh_distance(&m, p) - want) < 1e-12);
    }
    sccd_mesh_destroy(&m);
}

static void test_bad_input(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    sccd_mesh m;
    sccd_mesh_init(&m);
    sccd_mesh_init(NULL);
    assert_int_equal(sccd_mesh_add_vertex(&m, (sccd_v3){NAN, 0, 0}), -1);
    assert_int_equal(sccd_mesh_add_vertex(NULL, (sccd_v3){0, 0, 0}), -1);
    assert_false(sccd_mesh_add_triangle(&m, 0, 1, 2));
    sccd_triangle t = sccd_mesh_triangle(&m, 0);
    assert_true(t.a.x == 0.0 && t.c.z == 0.0);
    assert_int_equal(sccd_mesh_load_buffer(NULL, "v 0 0 0", 7, SCCD_MESH_AUTO).state, SCCD_LOAD_IO);
    assert_int_equal(sccd_mesh_load_buffer(&m, NULL, 5, SCCD_MESH_AUTO).state, SCCD_LOAD_IO);
    assert_int_equal(sccd_mesh_load_file(&m, NULL, SCCD_MESH_AUTO).state, SCCD_LOAD_IO);
    assert_false(sccd_mesh_write(NULL, stdout, SCCD_MESH_OBJ));
    assert_false(sccd_mesh_save_file(&m, NULL, SCCD_MESH_OBJ));
    sccd_mesh_report r = sccd_mesh_report_make(NULL);
    assert_int_equal(r.triangles, 0);
    assert_true(isinf(sccd_mesh_distance(&m, (sccd_v3){0, 0, 0})));
    assert_true(isinf(sccd_mesh_distance(NULL, (sccd_v3){0, 0, 0})));
    sccd_mesh_clear(NULL);
    int before = sccd_test_assert_count();
    assert_int_equal(before, 13);
    /* Generators: interior pole, repeated point, too few segments, NaN, torus with R ≤ r, flat box. */
    const sccd_v2 pinch[3] = {{1, 0}, {0, 1}, {1, 2}}, repeat[3] = {{1, 0}, {1, 0}, {1, 2}}, poles[2] = {{0, 0}, {0, 1}},
                 nanp[2] = {{NAN, 0}, {1, 1}};
    assert_false(sccd_mesh_revolve(&m, pinch, 3, 8));
    assert_false(sccd_mesh_revolve(&m, repeat, 3, 8));
    assert_false(sccd_mesh_revolve(&m, poles, 2, 8));
    assert_false(sccd_mesh_revolve(&m, nanp, 2, 8));
    assert_false(sccd_mesh_revolve(&m, pinch, 1, 8));
    assert_false(sccd_mesh_revolve(&m, NULL, 3, 8));
    assert_false(sccd_mesh_bottle(&m, 2));
    assert_false(sccd_mesh_torus(&m, 0.3, 0.3, 8, 8));
    assert_false(sccd_mesh_torus(&m, 1.0, 0.3, 2, 8));
    assert_false(sccd_mesh_box(&m, (sccd_v3){1, 0, 1}));
    assert_false(sccd_mesh_box(&m, (sccd_v3){1, INFINITY, 1}));
    assert_int_equal(sccd_test_assert_count() - before, 11);
    assert_int_equal(m.nt, 0);
    sccd_mesh_destroy(NULL);
    sccd_mesh_destroy(&m);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj_forms),          cmocka_unit_test(test_obj_errors),
        cmocka_unit_test(test_off_forms_and_errors), cmocka_unit_test(test_stl_ascii),
        cmocka_unit_test(test_stl_binary),         cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_generated_reports),  cmocka_unit_test(test_report_defects),
        cmocka_unit_test(test_mesh_distance), cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
