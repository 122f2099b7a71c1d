/* processor_marks.c - colour and glyph of each processor (processor_marks.h says the rule). */
#include "processor_marks.h"

#include <stdlib.h>
#include "core/lib/util.h"

char sm_mark_glyph(int i)
{
    static const char g[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    int n = (int)sizeof g - 1;
    return g[((i % n) + n) % n];
}

int sm_proc_marks(const sm_topo *t, int nstyles, int *style, char *glyph)
{
    int np = t->nprocs;
    if (nstyles < 1) nstyles = 1;
    if (np <= nstyles) {
        for (int p = 0; p < np; p++) {
            style[p] = p;
            glyph[p] = sm_mark_glyph(p);
        }
        return 0;
    }
    /* Place of each processor within its node, and the largest node. */
    int nn = t->nnodes > 0 ? t->nnodes : 1;
    int *count = sm_xcalloc((size_t)nn, sizeof *count);
    int *place = sm_xmalloc(sizeof *place * (size_t)np);
    int m = 1;
    for (int p = 0; p < np; p++) {
        int n = t->procs[p].node;
        place[p] = n >= 0 && n < nn ? count[n]++ : 0;
        if (place[p] + 1 > m) m = place[p] + 1;
    }
    for (int p = 0; p < np; p++) {
        int n = t->procs[p].node < 0 ? 0 : t->procs[p].node;
        style[p] = n % nstyles;
        glyph[p] = sm_mark_glyph(place[p] + m * (n / nstyles));
    }
    free(place);
    free(count);
    return 1;
}

int sm_node_procs(const sm_topo *t, int node, int *out)
{
    int n = 0;
    for (int p = 0; p < t->nprocs; p++)
        if (t->procs[p].node == node) out[n++] = p;
    return n;
}
