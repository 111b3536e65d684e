/* The process-wide state of the library (base.h): the replaceable assert
 * handler (the tests install a counting one, common/util/test_util.h) and
 * the allocator hooks. Each is read through an atomic pointer, so threads
 * that report or allocate while another replaces it do not race. */
#include "sectorccd/base.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- memory ---- */

static void *libc_alloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void *libc_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    return realloc(ptr, size);
}

static void libc_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

static const sccd_allocator libc_allocator = {libc_alloc, libc_realloc, libc_free, NULL};

/* The game's hooks, copied; `current` points here or at libc's. */
static sccd_allocator installed;
static _Atomic(const sccd_allocator *) current = &libc_allocator;

/* Live blocks: a block must go back to the allocator that made it, so the
 * allocator may change only when this is 0. */
static atomic_size_t live_blocks;

static const sccd_allocator *hooks(void) { return atomic_load_explicit(&current, memory_order_acquire); }

bool sccd_set_allocator(const sccd_allocator *allocator)
{
    bool complete = allocator == NULL || (allocator->allocate != NULL && allocator->release != NULL);
    SCCD_ASSERT(complete);
    size_t live = atomic_load(&live_blocks);
    SCCD_ASSERT(live == 0 && "sccd_set_allocator: blocks of the current allocator are still live");
    if (!complete || live != 0)
        return false;
    /* libc's while `installed` is written: a stray reader never sees it half made */
    atomic_store_explicit(&current, &libc_allocator, memory_order_release);
    if (allocator != NULL) {
        installed = *allocator;
        atomic_store_explicit(&current, &installed, memory_order_release);
    }
    return true;
}

sccd_allocator sccd_get_allocator(void) { return *hooks(); }

size_t sccd_allocated_blocks(void) { return atomic_load(&live_blocks); }

void *sccd_alloc(size_t size)
{
    const sccd_allocator *h = hooks();
    void *p = h->allocate(size > 0 ? size : 1, h->user);
    if (p != NULL)
        atomic_fetch_add_explicit(&live_blocks, 1, memory_order_relaxed);
    return p;
}

void *sccd_calloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    void *p = sccd_alloc(count * size);
    if (p != NULL)
        memset(p, 0, count * size);
    return p;
}

void *sccd_realloc(void *ptr, size_t keep, size_t size)
{
    if (ptr == NULL)
        return sccd_alloc(size);
    const sccd_allocator *h = hooks();
    size = size > 0 ? size : 1;
    if (h->reallocate != NULL)
        return h->reallocate(ptr, size, h->user);
    void *p = h->allocate(size, h->user);
    if (p == NULL)
        return NULL;
    memcpy(p, ptr, keep < size ? keep : size);
    h->release(ptr, h->user);
    return p;
}

void sccd_free(void *ptr)
{
    if (ptr == NULL)
        return;
    const sccd_allocator *h = hooks();
    h->release(ptr, h->user);
    atomic_fetch_sub_explicit(&live_blocks, 1, memory_order_relaxed);
}
