/* The replaceable assert handler (base.h; the tests install a counting one,
 * tests/support/test_util.h). */
#include "sectorccd/base.h"

#include <stdio.h>
#include <stdlib.h>

static void default_handler(const char *condition, const char *file, int line)
{
    fprintf(stderr, "sectorccd: check failed: %s (%s:%d)\n", condition, file, line);
#ifdef SCCD_DEBUG
    abort();
#endif
}

static sccd_assert_fn *current_handler = default_handler;

sccd_assert_fn *sccd_set_assert_handler(sccd_assert_fn *handler)
{
    sccd_assert_fn *old = current_handler;
    current_handler = handler ? handler : default_handler;
    return old;
}

void sccd_assert_failed(const char *condition, const char *file, int line)
{
    current_handler(condition, file, line);
}
