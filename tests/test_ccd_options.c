/* The adapters' shared options (ccd_options.h). The oracle is a table of
 * values per field, each labelled valid or invalid by hand (the limits in the
 * header's comments: NaN, infinities, 0, −0, negatives, enum values outside
 * the two named ones), so the merge's checks are tested
 * against labels written apart from them: every field alone, then 20,000
 * random mixes of all four, each merge checked field by field (copied when
 * valid, kept when not) and bit by bit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <float.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"

#define N_MIXES 20000

typedef struct int_case { int v; bool ok; } int_case;
typedef struct real_case { double v; bool ok; } real_case;

/* overlap and toi_tolerance: finite and > 0 */
static const real_case POSITIVE[] = {
    {DBL_MIN, true}, {1e-3, true}, {0.25, true}, {1e6, true}, {DBL_MAX, true},
    {0.0, false}, {-0.0, false}, {-1e-300, false}, {-2.0, false},
    {NAN, false}, {INFINITY, false}, {-INFINITY, false},
};
static const int_case ITERATIONS[] = {
    {1, true}, {8, true}, {INT_MAX, true}, {0, false}, {-1, false}, {INT_MIN, false},
};
static const int_case CANDIDATES[] = {
    {SCCD_CANDIDATES_SWEEP, true}, {SCCD_CANDIDATES_START_END, true}, {-1, false}, {2, false}, {7, false}, {INT_MAX, false},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Old options unlike every valid value in the tables, so a copy always shows. */
static sccd_ccd_options old_options(void) { return (sccd_ccd_options){0.125, 0.0625, 5, SCCD_CANDIDATES_START_END}; }

/* One labelled value per field: the source and the bits that must come back. */
typedef struct labelled { sccd_ccd_options src; unsigned invalid; } labelled;

static labelled pick(int o, int t, int i, int c)
{
    labelled l;
    l.src = (sccd_ccd_options){POSITIVE[o].v, POSITIVE[t].v, ITERATIONS[i].v, (sccd_candidates)CANDIDATES[c].v};
    l.invalid = (POSITIVE[o].ok ? 0u : SCCD_OPTION_OVERLAP) |
                (POSITIVE[t].ok ? 0u : SCCD_OPTION_TOI_TOLERANCE) |
                (ITERATIONS[i].ok ? 0u : SCCD_OPTION_TOI_MAX_ITERATIONS) |
                (CANDIDATES[c].ok ? 0u : SCCD_OPTION_CANDIDATES);
    return l;
}

/* Merge l into the old options and check every field and the returned bits. */
static void check_merge(labelled l)
{
    sccd_ccd_options old = old_options(), dst = old;
    unsigned got = sccd_ccd_options_merge(&dst, l.src);
    assert_int_equal(got, l.invalid);
    sccd_ccd_options want = {
        (l.invalid & SCCD_OPTION_OVERLAP) ? old.overlap : l.src.overlap,
        (l.invalid & SCCD_OPTION_TOI_TOLERANCE) ? old.toi_tolerance : l.src.toi_tolerance,
        (l.invalid & SCCD_OPTION_TOI_MAX_ITERATIONS) ? old.toi_max_iterations : l.src.toi_max_iterations,
        (l.invalid & SCCD_OPTION_CANDIDATES) ? old.candidates : l.src.candidates,
    };
    assert_true(dst.overlap == want.overlap && dst.toi_tolerance == want.toi_tolerance);
    assert_int_equal(dst.toi_max_iterations, want.toi_max_iterations);
    assert_int_equal(dst.candidates, want.candidates);
}

/* Each field alone over its table, the others valid (index 0 of each table). */
static void test_merge_each_field(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    for (int k = 0; k < COUNT(POSITIVE); ++k) {
        check_merge(pick(k, 0, 0, 0));
        check_merge(pick(0, k, 0, 0));
    }
    for (int k = 0; k < COUNT(ITERATIONS); ++k)
        check_merge(pick(0, 0, k, 0));
    for (int k = 0; k < COUNT(CANDIDATES); ++k)
        check_merge(pick(0, 0, 0, k));
    /* the merge reports nothing itself: the adapters do */
    assert_int_equal(sccd_test_assert_count(), 0);
    sccd_set_assert_handler(NULL);
}

static void test_merge_random_mixes(void **state)
{
    (void)state;
    sccd_rng g = sccd_rng_make(0x0c0ffee5u);
    int all_valid = 0, all_invalid = 0;
    for (int n = 0; n < N_MIXES; ++n) {
        labelled l = pick(sccd_rng_int(&g, COUNT(POSITIVE)), sccd_rng_int(&g, COUNT(POSITIVE)),
                          sccd_rng_int(&g, COUNT(ITERATIONS)), sccd_rng_int(&g, COUNT(CANDIDATES)));
        check_merge(l);
        all_valid += l.invalid == 0;
        all_invalid += l.invalid == SCCD_OPTION_ALL;
    }
    /* both extremes were drawn, so the mixes span them */
    assert_true(all_valid > 0 && all_invalid > 0);
}

/* The problem of the lowest bit; each message names its field. */
static void test_problem_messages(void **state)
{
    (void)state;
    static const char *const field[] = {"overlap", "toi_tolerance", "toi_max_iterations", "candidates"};
    assert_null(sccd_ccd_options_problem(0));
    assert_null(sccd_ccd_options_problem(1u << 4)); /* no field there */
    for (int i = 0; i < 4; ++i) {
        const char *alone = sccd_ccd_options_problem(1u << i);
        assert_non_null(alone);
        assert_true(strncmp(alone, field[i], strlen(field[i])) == 0);
        /* higher bits do not change the message of the lowest */
        assert_string_equal(sccd_ccd_options_problem(SCCD_OPTION_ALL & ~((1u << i) - 1)), alone);
        for (int j = 0; j < i; ++j)
            assert_string_not_equal(sccd_ccd_options_problem(1u << j), alone);
    }
}

static void test_defaults(void **state)
{
    (void)state;
    sccd_test_count_asserts();
    sccd_test_assert_reset();
    const double overlaps[] = {1e-3, 0.02, 1.0, 40.0};
    for (int k = 0; k < COUNT(overlaps); ++k) {
        sccd_ccd_options d = sccd_ccd_options_default(overlaps[k]);
        assert_true(d.overlap == overlaps[k] && d.toi_tolerance == overlaps[k] / 4.0);
        assert_int_equal(d.toi_max_iterations, 8);
        assert_int_equal(d.candidates, SCCD_CANDIDATES_SWEEP);
        /* the defaults pass their own merge */
        sccd_ccd_options dst = old_options();
        assert_int_equal(sccd_ccd_options_merge(&dst, d), 0);
    }
    assert_int_equal(sccd_test_assert_count(), 0);

    /* a bad overlap: reported, and valid defaults all the same */
    const double bad[] = {0.0, -0.0, -1.0, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < COUNT(bad); ++k) {
        sccd_ccd_options d = sccd_ccd_options_default(bad[k]);
        assert_int_equal(sccd_test_assert_count(), k + 1);
        assert_true(d.overlap == 0.001 && d.toi_tolerance == 0.00025);
    }

    /* NULL destination: reported, nothing taken */
    sccd_test_assert_reset();
    assert_int_equal(sccd_ccd_options_merge(NULL, sccd_ccd_options_default(1.0)), SCCD_OPTION_ALL);
    assert_int_equal(sccd_test_assert_count(), 1);
    sccd_set_assert_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_each_field),
        cmocka_unit_test(test_merge_random_mixes),
        cmocka_unit_test(test_problem_messages),
        cmocka_unit_test(test_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
