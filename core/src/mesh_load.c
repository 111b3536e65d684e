/* Mesh loaders: OBJ, ASCII and binary STL, OFF, from a memory buffer (not
 * NUL-terminated) or a file. The text formats are read word by word into a
 * small local buffer, so no parse ever runs past the data; every count a
 * header claims is checked against the bytes left before anything is
 * reserved, so a hostile header cannot cause a huge allocation. */
#include "mesh_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { WORD_MAX = 64 };

/* A cursor over text: p in [begin, end), line 1-based. */
typedef struct text {
    const char *p, *end;
    int line;
    char comment; /* character that starts a comment to the end of the line, or 0 */
} text;

static sccd_load_status status_ok(void) { return (sccd_load_status){SCCD_LOAD_OK, 0, -1, "ok"}; }

static sccd_load_status fail(sccd_load_state state, int line, long offset, const char *fmt, ...)
{
    sccd_load_status s = {state, line, offset, ""};
    char what[120];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(s.message, sizeof s.message, "line %d: %s", line, what);
    else
        snprintf(s.message, sizeof s.message, "byte %ld: %s", offset, what);
    return s;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Move past the end of the current line. */
static void skip_line(text *t)
{
    while (t->p < t->end && *t->p != '\n')
        t->p++;
    if (t->p < t->end) {
        t->p++;
        t->line++;
    }
}

/* The next word into w (NUL-terminated). Within the line only, unless
 * cross_lines. Returns its length, 0 when there is none, -1 when longer than
 * WORD_MAX - 1 (no number or keyword is that long). */
static int next_word(text *t, char w[WORD_MAX], bool cross_lines)
{
    for (;;) {
        while (t->p < t->end && is_blank(*t->p))
            t->p++;
        if (t->p < t->end && t->comment && *t->p == t->comment) {
            while (t->p < t->end && *t->p != '\n')
                t->p++;
        }
        if (t->p < t->end && *t->p == '\n' && cross_lines) {
            t->p++;
            t->line++;
            continue;
        }
        break;
    }
    int n = 0;
    while (t->p < t->end && !is_blank(*t->p) && *t->p != '\n') {
        if (n == WORD_MAX - 1) {
            w[n] = '\0'; /* the start of the word, for messages */
            return -1;
        }
        w[n++] = *t->p++;
    }
    w[n] = '\0';
    return n;
}

/* A finite real from word w of length n; the state says what went wrong. */
static sccd_load_state parse_real(const char *w, int n, sccd_real *x)
{
    if (n <= 0)
        return SCCD_LOAD_FORMAT;
    char *e;
    *x = strtod(w, &e);
    if (e != w + n)
        return SCCD_LOAD_FORMAT;
    return sccd_is_valid_real(*x) ? SCCD_LOAD_OK : SCCD_LOAD_NUMBER;
}

/* An integer at the start of w; *rest gets what follows it. */
static bool parse_long(const char *w, long *x, const char **rest)
{
    char *e;
    errno = 0;
    *x = strtol(w, &e, 10);
    *rest = e;
    return e != w && errno == 0;
}

/* Three coordinates on the current line of t. */
static sccd_load_status read_point(text *t, sccd_v3 *p)
{
    sccd_real c[3];
    for (int k = 0; k < 3; ++k) {
        char w[WORD_MAX];
        int n = next_word(t, w, false);
        sccd_load_state st = parse_real(w, n, &c[k]);
        if (st == SCCD_LOAD_NUMBER)
            return fail(st, t->line, -1, "coordinate '%s' is not finite", w);
        if (st != SCCD_LOAD_OK)
            return fail(st, t->line, -1, n > 0 ? "bad coordinate '%s'" : "missing coordinate%s", n > 0 ? w : "");
    }
    *p = (sccd_v3){c[0], c[1], c[2]};
    return status_ok();
}

static sccd_load_status no_memory(int line, long offset) { return fail(SCCD_LOAD_NO_MEMORY, line, offset, "out of memory"); }

/* ---- OBJ ---- */

/* One index of an "f" word ("i", "i/t", "i//n", "i/t/n"); negative = relative
 * to the vertices read so far (OBJ spec). */
static sccd_load_status obj_index(const text *t, const char *w, int nv, int *index)
{
    long i;
    const char *rest;
    if (!parse_long(w, &i, &rest) || (*rest != '\0' && *rest != '/'))
        return fail(SCCD_LOAD_FORMAT, t->line, -1, "bad face index '%s'", w);
    long resolved = i < 0 ? nv + i : i - 1;
    if (i == 0 || resolved < 0 || resolved >= nv)
        return fail(SCCD_LOAD_INDEX, t->line, -1, "vertex index %ld out of range (1..%d or -%d..-1)", i, nv, nv);
    *index = (int)resolved;
    return status_ok();
}

/* An "f" line, fan-triangulated from its first vertex. */
static sccd_load_status obj_face(text *t, sccd_mesh *m)
{
    int first = -1, prev = -1, count = 0;
    char w[WORD_MAX];
    int n;
    while ((n = next_word(t, w, false)) != 0) {
        if (n < 0)
            return fail(SCCD_LOAD_FORMAT, t->line, -1, "face index too long");
        int i = 0;
        sccd_load_status s = obj_index(t, w, m->nv, &i);
        if (s.state != SCCD_LOAD_OK)
            return s;
        if (count == 0)
            first = i;
        else if (count >= 2 && !sccd_mesh_push_triangle(m, first, prev, i))
            return no_memory(t->line, -1);
        prev = i;
        ++count;
    }
    if (count < 3)
        return fail(SCCD_LOAD_FORMAT, t->line, -1, "a face needs at least 3 vertices, got %d", count);
    return status_ok();
}

static sccd_load_status load_obj(sccd_mesh *m, text *t)
{
    bool any = false;
    while (t->p < t->end) {
        char w[WORD_MAX];
        int n = next_word(t, w, false);
        sccd_load_status s = status_ok();
        if (n == 1 && w[0] == 'v') {
            sccd_v3 p;
            s = read_point(t, &p);
            if (s.state == SCCD_LOAD_OK && !sccd_mesh_push_vertex(m, p))
                s = no_memory(t->line, -1);
            any = true;
        } else if (n == 1 && w[0] == 'f') {
            s = obj_face(t, m);
            any = true;
        }
        if (s.state != SCCD_LOAD_OK)
            return s;
        skip_line(t); /* other records (vn, vt, g, o, usemtl, ...) and extra fields are ignored */
    }
    if (!any)
        return fail(SCCD_LOAD_FORMAT, t->line, -1, "no 'v' or 'f' record: not an OBJ file");
    return status_ok();
}

/* ---- OFF ---- */

/* A non-negative count word, at most limit. */
static sccd_load_status off_count(text *t, const char *what, long limit, long *count)
{
    char w[WORD_MAX];
    const char *rest;
    int n = next_word(t, w, true);
    if (n <= 0 || !parse_long(w, count, &rest) || *rest != '\0' || *count < 0)
        return fail(n == 0 ? SCCD_LOAD_TRUNCATED : SCCD_LOAD_FORMAT, t->line, -1, "bad %s count '%s'", what, w);
    if (*count > limit)
        return fail(SCCD_LOAD_TOO_LARGE, t->line, -1, "%s count %ld cannot fit in the %ld bytes left", what, *count,
                    (long)(t->end - t->p));
    return status_ok();
}

/* Move to the next line that holds a word (OFF allows blank and comment lines). */
static bool next_record(text *t)
{
    char w[WORD_MAX];
    for (;;) {
        const char *save = t->p;
        if (next_word(t, w, false) != 0) {
            t->p = save;
            return true;
        }
        if (t->p >= t->end)
            return false;
        skip_line(t);
    }
}

static sccd_load_status off_face(text *t, sccd_mesh *m)
{
    char w[WORD_MAX];
    long k;
    const char *rest;
    int n = next_word(t, w, false);
    if (n <= 0 || !parse_long(w, &k, &rest) || *rest != '\0' || k < 3 || k > (t->end - t->p) / 2 + 1)
        return fail(SCCD_LOAD_FORMAT, t->line, -1, "bad face vertex count '%s'", w);
    int first = -1, prev = -1;
    for (long j = 0; j < k; ++j) {
        long i;
        n = next_word(t, w, false);
        if (n <= 0 || !parse_long(w, &i, &rest) || *rest != '\0')
            return fail(SCCD_LOAD_FORMAT, t->line, -1, "face has %ld of %ld indices", j, k);
        if (i < 0 || i >= m->nv)
            return fail(SCCD_LOAD_INDEX, t->line, -1, "vertex index %ld out of range (0..%d)", i, m->nv - 1);
        if (j == 0)
            first = (int)i;
        else if (j >= 2 && !sccd_mesh_push_triangle(m, first, prev, (int)i))
            return no_memory(t->line, -1);
        prev = (int)i;
    }
    return status_ok();
}

static sccd_load_status load_off(sccd_mesh *m, text *t)
{
    char w[WORD_MAX];
    if (next_word(t, w, true) <= 0 || strcmp(w, "OFF") != 0)
        return fail(SCCD_LOAD_FORMAT, t->line, -1, "missing 'OFF' header");
    long nv, nf, ne;
    /* A vertex line takes at least 6 bytes ("0 0 0\n"), a face line at least 8 ("3 0 1 2\n"). */
    sccd_load_status s = off_count(t, "vertex", (t->end - t->p) / 6, &nv);
    if (s.state == SCCD_LOAD_OK)
        s = off_count(t, "face", (t->end - t->p) / 8, &nf);
    if (s.state == SCCD_LOAD_OK)
        s = off_count(t, "edge", LONG_MAX, &ne);
    if (s.state != SCCD_LOAD_OK)
        return s;
    skip_line(t);
    for (long i = 0; i < nv + nf; ++i) {
        if (!next_record(t))
            return fail(SCCD_LOAD_TRUNCATED, t->line, -1, "file ends after %ld of %ld vertices and %ld of %ld faces",
                        i < nv ? i : nv, nv, i < nv ? 0 : i - nv, nf);
        if (i < nv) {
            sccd_v3 p;
            s = read_point(t, &p);
            if (s.state == SCCD_LOAD_OK && !sccd_mesh_push_vertex(m, p))
                s = no_memory(t->line, -1);
        } else {
            s = off_face(t, m);
        }
        if (s.state != SCCD_LOAD_OK)
            return s;
        skip_line(t); /* colours and other trailing fields are ignored */
    }
    return status_ok();
}

/* ---- STL ---- */

/* Weld the exactly equal corners of an STL triangle soup into shared vertices
 * (by sorting), so the report can see edges shared by two triangles. */
typedef struct keyed_vertex { sccd_v3 p; int i; } keyed_vertex;

static int vertex_cmp(const void *pa, const void *pb)
{
    const keyed_vertex *a = pa, *b = pb;
    const sccd_real x[3] = {a->p.x, a->p.y, a->p.z}, y[3] = {b->p.x, b->p.y, b->p.z};
    for (int k = 0; k < 3; ++k)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return a->i - b->i;
}

static bool weld(sccd_mesh *m)
{
    if (m->nv == 0)
        return true;
    keyed_vertex *k = sccd_alloc((size_t)m->nv * sizeof *k);
    int *remap = sccd_alloc((size_t)m->nv * sizeof *remap);
    if (!k || !remap) {
        sccd_free(k);
        sccd_free(remap);
        return false;
    }
    for (int i = 0; i < m->nv; ++i)
        k[i] = (keyed_vertex){m->v[i], i};
    qsort(k, (size_t)m->nv, sizeof *k, vertex_cmp);
    int n = 0;
    for (int i = 0; i < m->nv; ++i) {
        if (i == 0 || vertex_cmp(&(keyed_vertex){k[i].p, 0}, &(keyed_vertex){k[i - 1].p, 0}) != 0)
            m->v[n++] = k[i].p;
        remap[k[i].i] = n - 1;
    }
    for (int i = 0; i < m->nt; ++i)
        for (int c = 0; c < 3; ++c)
            m->t[i][c] = remap[m->t[i][c]];
    m->nv = n;
    sccd_free(k);
    sccd_free(remap);
    return true;
}

/* Push the triangle of the last three vertices pushed. */
static bool push_soup_triangle(sccd_mesh *m, const sccd_v3 p[3])
{
    for (int k = 0; k < 3; ++k)
        if (!sccd_mesh_push_vertex(m, p[k]))
            return false;
    return sccd_mesh_push_triangle(m, m->nv - 3, m->nv - 2, m->nv - 1);
}

/* Expect the keyword kw as the next word. */
static sccd_load_status expect(text *t, const char *kw)
{
    char w[WORD_MAX];
    int n = next_word(t, w, true);
    if (n == 0)
        return fail(SCCD_LOAD_TRUNCATED, t->line, -1, "file ends where '%s' was expected", kw);
    if (n < 0 || strcmp(w, kw) != 0)
        return fail(SCCD_LOAD_FORMAT, t->line, -1, "expected '%s', found '%s'", kw, n < 0 ? "(a long word)" : w);
    return status_ok();
}

/* Three words that must be numbers (the facet normal: parsed, not used). */
static sccd_load_status skip_numbers(text *t)
{
    for (int k = 0; k < 3; ++k) {
        char w[WORD_MAX];
        sccd_real x;
        int n = next_word(t, w, true);
        if (parse_real(w, n, &x) == SCCD_LOAD_FORMAT)
            return fail(n == 0 ? SCCD_LOAD_TRUNCATED : SCCD_LOAD_FORMAT, t->line, -1, "bad normal component");
    }
    return status_ok();
}

/* "facet normal nx ny nz outer loop vertex ×3 endloop endfacet" after "facet". */
static sccd_load_status stl_facet(text *t, sccd_mesh *m)
{
    sccd_load_status s = expect(t, "normal");
    if (s.state == SCCD_LOAD_OK)
        s = skip_numbers(t);
    if (s.state == SCCD_LOAD_OK)
        s = expect(t, "outer");
    if (s.state == SCCD_LOAD_OK)
        s = expect(t, "loop");
    sccd_v3 p[3];
    for (int k = 0; k < 3 && s.state == SCCD_LOAD_OK; ++k) {
        s = expect(t, "vertex");
        if (s.state == SCCD_LOAD_OK)
            s = read_point(t, &p[k]);
    }
    if (s.state == SCCD_LOAD_OK)
        s = expect(t, "endloop");
    if (s.state == SCCD_LOAD_OK)
        s = expect(t, "endfacet");
    if (s.state == SCCD_LOAD_OK && !push_soup_triangle(m, p))
        s = no_memory(t->line, -1);
    return s;
}

static sccd_load_status load_stl_ascii(sccd_mesh *m, text *t)
{
    sccd_load_status s = expect(t, "solid");
    while (s.state == SCCD_LOAD_OK) {
        skip_line(t); /* the solid's name */
        char w[WORD_MAX];
        int n;
        while ((n = next_word(t, w, true)) > 0 && strcmp(w, "facet") == 0) {
            s = stl_facet(t, m);
            if (s.state != SCCD_LOAD_OK)
                return s;
        }
        if (n == 0)
            return fail(SCCD_LOAD_TRUNCATED, t->line, -1, "file ends without 'endsolid'");
        if (n < 0 || strcmp(w, "endsolid") != 0)
            return fail(SCCD_LOAD_FORMAT, t->line, -1, "expected 'facet' or 'endsolid', found '%s'",
                        n < 0 ? "(a long word)" : w);
        skip_line(t);
        if (next_word(t, w, true) == 0)
            break;
        if (strcmp(w, "solid") != 0)
            return fail(SCCD_LOAD_FORMAT, t->line, -1, "expected 'solid' after 'endsolid', found '%s'", w);
    }
    return weld(m) ? status_ok() : no_memory(t->line, -1);
}

static uint32_t get_u32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static sccd_real get_f32(const unsigned char *b)
{
    uint32_t u = get_u32(b);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* 80-byte header, triangle count, then 50-byte records (normal, 3 corners, 2 attribute bytes). */
static sccd_load_status load_stl_binary(sccd_mesh *m, const unsigned char *d, size_t size)
{
    if (size < 84)
        return fail(SCCD_LOAD_TRUNCATED, 0, (long)size, "binary STL needs an 84-byte header, the data has %zu bytes",
                    size);
    uint64_t n = get_u32(d + 80), need = 84 + 50 * n;
    if (need > size)
        return fail(SCCD_LOAD_TRUNCATED, 0, (long)(84 + 50 * ((size - 84) / 50)),
                    "binary STL claims %llu triangles (%llu bytes) but the data has %zu bytes", (unsigned long long)n,
                    (unsigned long long)need, size);
    for (uint64_t i = 0; i < n; ++i) {
        const unsigned char *rec = d + 84 + 50 * i;
        sccd_v3 p[3];
        for (int k = 0; k < 9; ++k) {
            sccd_real x = get_f32(rec + 12 + 4 * k);
            if (!sccd_is_valid_real(x))
                return fail(SCCD_LOAD_NUMBER, 0, (long)(rec + 12 + 4 * k - d), "coordinate is not finite");
            (&p[k / 3].x)[k % 3] = x;
        }
        if (!push_soup_triangle(m, p))
            return no_memory(0, (long)(rec - d));
    }
    return weld(m) ? status_ok() : no_memory(0, (long)size);
}

/* ---- detection and entry points ---- */

/* The first word of the data (skipping blanks, lines and '#' comments). */
static void first_word(const char *d, size_t size, char w[WORD_MAX])
{
    text t = {d, d + size, 1, '#'};
    if (next_word(&t, w, true) < 0)
        w[0] = '\0';
}

/* Binary STL is recognised by its exact size (84 + 50·count), which an ASCII
 * file starting with "solid" practically never matches; otherwise "solid"
 * means ASCII, and anything else that is not text is binary. */
static bool stl_is_binary(const unsigned char *d, size_t size)
{
    if (size >= 84 && 84 + 50 * (uint64_t)get_u32(d + 80) == size)
        return true;
    char w[WORD_MAX];
    first_word((const char *)d, size, w);
    return strcmp(w, "solid") != 0;
}

static sccd_mesh_format detect(const unsigned char *d, size_t size)
{
    if (size >= 84 && 84 + 50 * (uint64_t)get_u32(d + 80) == size)
        return SCCD_MESH_STL;
    char w[WORD_MAX];
    first_word((const char *)d, size, w);
    if (strcmp(w, "solid") == 0)
        return SCCD_MESH_STL;
    if (strcmp(w, "OFF") == 0)
        return SCCD_MESH_OFF;
    return SCCD_MESH_OBJ;
}

sccd_load_status sccd_mesh_load_buffer(sccd_mesh *m, const void *data, size_t size, sccd_mesh_format format)
{
    bool ok = m != NULL && (data != NULL || size == 0);
    SCCD_ASSERT(ok);
    if (!ok)
        return fail(SCCD_LOAD_IO, 0, 0, "no mesh or no data");
    sccd_mesh_clear(m);
    const unsigned char *d = data ? data : (const unsigned char *)"";
    if (format == SCCD_MESH_AUTO)
        format = detect(d, size);
    text t = {(const char *)d, (const char *)d + size, 1, format == SCCD_MESH_STL ? 0 : '#'};
    sccd_load_status s;
    if (format == SCCD_MESH_OFF)
        s = load_off(m, &t);
    else if (format == SCCD_MESH_OBJ)
        s = load_obj(m, &t);
    else
        s = stl_is_binary(d, size) ? load_stl_binary(m, d, size) : load_stl_ascii(m, &t);
    if (s.state != SCCD_LOAD_OK)
        sccd_mesh_clear(m);
    return s;
}

sccd_load_status sccd_mesh_load_file(sccd_mesh *m, const char *path, sccd_mesh_format format)
{
    bool ok = m != NULL && path != NULL;
    SCCD_ASSERT(ok);
    if (!ok)
        return fail(SCCD_LOAD_IO, 0, 0, "no mesh or no path");
    sccd_mesh_clear(m);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(SCCD_LOAD_IO, 0, 0, "cannot open '%.80s'", path);
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    unsigned char *d = size >= 0 && fseek(f, 0, SEEK_SET) == 0 ? sccd_alloc((size_t)size + 1) : NULL;
    bool read = d != NULL && fread(d, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    sccd_load_status s = read ? sccd_mesh_load_buffer(m, d, (size_t)size, format == SCCD_MESH_AUTO ? sccd_mesh_format_of_path(path) : format)
                              : fail(d || size < 0 ? SCCD_LOAD_IO : SCCD_LOAD_NO_MEMORY, 0, 0, "cannot read '%.80s'", path);
    sccd_free(d);
    return s;
}
