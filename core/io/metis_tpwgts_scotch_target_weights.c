/* metis_tpwgts_scotch_target_weights.c - the target parts a partitioner is given beside the
 * block graph (metis_scotch_graph_export.c): gpmetis -tpwgts and a Scotch
 * cmpltw target, each processor weighted by its speed (moved as they were
 * from rankfile.c). */
#include "metis_tpwgts_scotch_target_weights.h"

#include <math.h>
#include <stdlib.h>
#include "core/lib/strbuf.h"
#include "core/lib/util.h"

static double speed(const sm_topo *t, int p)
{
    double tpc = sm_topo_proc_params(t, p)->time_per_cell;
    return tpc > 0 && isfinite(tpc) ? 1.0 / tpc : 0.0;
}

/* Weights in units of 1e-9, shared out by largest remainder (Hamilton):
 * every processor gets the floor of its quota and the units left over (fewer
 * than the processors) go one each to the largest remainders. Each weight is
 * then within one unit of its exact share and the printed weights sum to
 * exactly 1, with no processor absorbing the others' rounding (summit-full's
 * 36,864 processors lost 4.7e-3 to 6-digit rounding, all of it on the last
 * V100). A processor with any speed keeps at least one unit: gpmetis refuses
 * a zero target weight. */
#define SM_TPW_UNITS 1000000000LL

typedef struct { double rem; int p; } tpw_rem;

static int rem_desc(const void *a, const void *b)
{
    const tpw_rem *x = a, *y = b;
    if (x->rem != y->rem) return x->rem > y->rem ? -1 : 1;
    return x->p - y->p;
}

long long *sm_tpwgts_units(const sm_topo *t)
{
    int P = t->nprocs;
    long long *u = sm_xcalloc((size_t)(P ? P : 1), sizeof *u);
    if (P == 0) return u;
    double total = 0;
    for (int p = 0; p < P; p++) total += speed(t, p);
    tpw_rem *r = sm_xmalloc(sizeof *r * (size_t)P);
    long long given = 0;
    for (int p = 0; p < P; p++) {
        double q = total > 0 ? (double)SM_TPW_UNITS * (speed(t, p) / total) : (double)SM_TPW_UNITS / P;
        double f = floor(q);
        u[p] = (long long)f;
        if (u[p] == 0 && q > 0) { u[p] = 1; f = 1; }
        r[p].rem = q - f;
        r[p].p = p;
        given += u[p];
    }
    long long left = SM_TPW_UNITS - given;
    qsort(r, (size_t)P, sizeof *r, rem_desc);
    /* left < P; it is negative only when the one-unit floors overshot, then
     * the smallest remainders give a unit back (never below one). */
    for (int k = 0; left > 0 && k < P; k++, left--) u[r[k].p]++;
    for (int k = P - 1; left < 0 && k >= 0; k--)
        if (u[r[k].p] > 1) { u[r[k].p]--; left++; }
    free(r);
    return u;
}

char *sm_tpwgts_text(const sm_topo *t, size_t *len)
{
    long long *u = sm_tpwgts_units(t);
    sm_strbuf b;
    sm_strbuf_init(&b);
    for (int p = 0; p < t->nprocs; p++)
        sm_strbuf_put(&b, "%d = %lld.%09lld\n", p, u[p] / SM_TPW_UNITS, u[p] % SM_TPW_UNITS);
    if (!b.s) sm_strbuf_put(&b, "%s", "");
    free(u);
    *len = b.n;
    return b.s;
}

char *sm_scotch_target_text(const sm_topo *t, size_t *len)
{
    double lo = 0;
    for (int p = 0; p < t->nprocs; p++) {
        double s = speed(t, p);
        if (s > 0 && (lo == 0 || s < lo)) lo = s;
    }
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "cmpltw %d", t->nprocs);
    /* The slowest processor weighs 100: ratios to within 1%. */
    for (int p = 0; p < t->nprocs; p++) {
        double s = speed(t, p);
        long w = lo > 0 ? lround(100.0 * s / lo) : 100;
        if (w < 1) w = 1;
        if (w > 1000000000L) w = 1000000000L;
        sm_strbuf_put(&b, "%s%ld", p % 16 == 0 ? "\n" : " ", w);
    }
    sm_strbuf_put(&b, "\n");
    *len = b.n;
    return b.s;
}
