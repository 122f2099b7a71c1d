/* huge_pages.h - large arrays read in random order on transparent huge
 * pages. */
#ifndef SM_HUGE_PAGES_H
#define SM_HUGE_PAGES_H

#include <stddef.h>

/* Asks the kernel to back [p, p + bytes) with huge pages where it can
 * (Linux's MADV_HUGEPAGE on the 2 MB-aligned part; nothing elsewhere,
 * or below SM_HUGE_PAGES_MIN bytes). A hint: the contents, and every
 * result computed from them, are the same either way. Call it before
 * the array is first written, so its pages are made huge from the start.
 *
 * Why: a search reads a grid's edges, incidences and mappings block by
 * block in random order (a refinement pass, a tabu step's candidates),
 * and at a million blocks those arrays are ~100 MB: with 4 KB pages
 * nearly every block costs several TLB misses, each a page walk (two
 * nested ones in a virtual machine). */
#define SM_HUGE_PAGES_MIN ((size_t)4 << 20)
void sm_advise_huge(void *p, size_t bytes);

#endif
