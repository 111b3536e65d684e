/* The replaceable assert handler (base.h; the tests install a counting one,
 * common/util/test_util.h). The one piece of process-wide state in the
 * library: an atomic pointer, so threads that report while another replaces
 * it do not race. */
#include "sectorccd/base.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static void default_handler(const char *condition, const char *file, int line)
{
    fprintf(stderr, "sectorccd: check failed: %s (%s:%d)\n", condition, file, line);
#ifdef SCCD_DEBUG
    abort();
#endif
}

static _Atomic(sccd_assert_fn *) current_handler = default_handler;

sccd_assert_fn *sccd_set_assert_handler(sccd_assert_fn *handler)
{
    return atomic_exchange(&current_handler, handler ? handler : default_handler);
}

void sccd_assert_failed(const char *condition, const char *file, int line)
{
    atomic_load(&current_handler)(condition, file, line);
}
