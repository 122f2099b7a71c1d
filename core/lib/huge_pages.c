/* huge_pages.c - see huge_pages.h. */
#define _GNU_SOURCE
#include "huge_pages.h"

#include <stdint.h>
#include <sys/mman.h>

void sm_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (!p || bytes < SM_HUGE_PAGES_MIN) return;
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    /* Refused (no transparent huge pages here): the pages stay small. */
    if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
