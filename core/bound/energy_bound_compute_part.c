/* energy_bound_compute_part.c - each processor's figures for the energy bound (the
 * least energy per cell and time per cell over its DVFS states when the
 * solver picks states, idle power, memory cap, profile tables), its cap in
 * blocks at a makespan, and the classes of processors that cost the same
 * at every makespan, so the knapsack runs over a few items. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/processor_time_energy.h"
#include "core/lib/util.h"
#include "energy_bound_context.h"

void bound_setup_procs(bctx *x)
{
    const sm_topo *t = x->t;
    int P = x->P;
    x->a = sm_xmalloc(sizeof(double) * (size_t)P);
    x->tpc = sm_xmalloc(sizeof(double) * (size_t)P);
    x->pidle = sm_xmalloc(sizeof(double) * (size_t)P);
    x->memc = sm_xmalloc(sizeof(double) * (size_t)P);
    x->prof = sm_xmalloc(sizeof(int) * (size_t)P);
    x->plen = sm_xcalloc((size_t)t->ntypes, sizeof(int));
    x->pcomp = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    x->psufmin = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    x->pgmin = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    x->pG = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    for (int p = 0; p < P; p++) {
        const sm_type *ty = &t->types[t->procs[p].type];
        const sm_params *pa = sm_topo_proc_params(t, p);
        x->a[p] = pa->energy_per_cell + (pa->p0 - pa->p_idle) * pa->time_per_cell;
        x->tpc[p] = pa->time_per_cell;
        x->pidle[p] = pa->p_idle;
        x->memc[p] = pa->memory > 0 && pa->bytes_per_cell > 0 ? pa->memory / pa->bytes_per_cell : -1;
        /* A solver that picks each processor's DVFS state: every state's
         * energy per cell, speed, idle power and memory at their most
         * favourable, each on its own (a relaxation, so still a bound). */
        for (int k = -1; x->dvfs && ty->nstates && k < ty->nstates; k++) {
            const sm_params *q = k < 0 ? &ty->base : &ty->states[k];
            x->a[p] = fmin(x->a[p], q->energy_per_cell + (q->p0 - q->p_idle) * q->time_per_cell);
            x->tpc[p] = fmin(x->tpc[p], q->time_per_cell);
            x->pidle[p] = fmin(x->pidle[p], q->p_idle);
            double mc = q->memory > 0 && q->bytes_per_cell > 0 ? q->memory / q->bytes_per_cell : -1;
            if (x->memc[p] >= 0) x->memc[p] = mc < 0 ? -1 : fmax(x->memc[p], mc);
        }
        x->prof[p] = ty->nprofile ? t->procs[p].type : -1;
        int ti = t->procs[p].type;
        if (ty->nprofile && !x->pcomp[ti]) {
            int L = ty->profile[ty->nprofile - 1].blocks;
            if (L > x->n) L = x->n;
            if (L < 0) L = 0;
            x->plen[ti] = L;
            double *c = sm_xmalloc(sizeof(double) * (size_t)(L + 1));
            double *G = sm_xmalloc(sizeof(double) * (size_t)(L + 1));
            double *suf = sm_xmalloc(sizeof(double) * (size_t)(L + 2));
            double *gm = sm_xmalloc(sizeof(double) * (size_t)(L + 1));
            /* Shared by the type's processors, whose states may differ:
             * the least static-minus-idle power of any state. */
            double dp = ty->base.p0 - ty->base.p_idle;
            for (int k = 0; k < ty->nstates; k++) dp = fmin(dp, ty->states[k].p0 - ty->states[k].p_idle);
            for (int b = 0; b <= L; b++) {
                double tm, en;
                sm_profile_at(ty->profile, ty->nprofile, b, &tm, &en);
                c[b] = tm;
                G[b] = en + dp * tm;
            }
            suf[L + 1] = INFINITY;
            for (int b = L; b >= 0; b--) suf[b] = fmin(c[b], suf[b + 1]);
            gm[0] = INFINITY;
            for (int b = 1; b <= L; b++) gm[b] = fmin(gm[b - 1], G[b] / b);
            x->pcomp[ti] = c;
            x->pG[ti] = G;
            x->psufmin[ti] = suf;
            x->pgmin[ti] = gm;
        }
    }
}

/* Most blocks a profiled processor can run within T. */
int bound_prof_cap(const bctx *x, int ti, double T)
{
    const double *suf = x->psufmin[ti];
    int lo = 0, hi = x->plen[ti];
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (suf[mid] <= T) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* ---- classes of processors ------------------------------------------- */

static const bctx *sort_ctx;
static const int *sort_key;     /* keys of sort_w ints per item */
static int sort_w;

static int by_figures(const void *pa, const void *pb)
{
    const bctx *x = sort_ctx;
    int p = *(const int *)pa, q = *(const int *)pb;
    if (x->prof[p] != x->prof[q]) return x->prof[p] < x->prof[q] ? -1 : 1;
    const double *v[4] = {x->a, x->tpc, x->pidle, x->memc};
    for (int i = 0; i < 4; i++)
        if (v[i][p] != v[i][q]) return v[i][p] < v[i][q] ? -1 : 1;
    return (p > q) - (p < q);
}

static int by_key(const void *pa, const void *pb)
{
    int p = *(const int *)pa, q = *(const int *)pb;
    for (int i = 0; i < sort_w; i++) {
        int a = sort_key[(size_t)p * sort_w + i], b = sort_key[(size_t)q * sort_w + i];
        if (a != b) return a < b ? -1 : 1;
    }
    return (p > q) - (p < q);
}

static int same_key(const int *key, int w, int p, int q)
{
    for (int i = 0; i < w; i++)
        if (key[(size_t)p * w + i] != key[(size_t)q * w + i]) return 0;
    return 1;
}

void bound_setup_classes(bctx *x)
{
    int P = x->P;
    int *ord = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    /* Figure classes. */
    for (int p = 0; p < P; p++) ord[p] = p;
    sort_ctx = x;
    qsort(ord, (size_t)P, sizeof(int), by_figures);
    x->pc_of = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    x->pc_rep = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    x->npc = 0;
    for (int i = 0; i < P; i++) {
        int p = ord[i], q = i ? ord[i - 1] : p;
        if (i == 0 || x->prof[p] != x->prof[q] || x->a[p] != x->a[q] || x->tpc[p] != x->tpc[q] ||
            x->pidle[p] != x->pidle[q] || x->memc[p] != x->memc[q])
            x->pc_rep[x->npc++] = p;
        x->pc_of[p] = x->npc - 1;
    }
    x->pc_count = sm_xcalloc((size_t)(x->npc ? x->npc : 1), sizeof(int));
    for (int p = 0; p < P; p++) x->pc_count[x->pc_of[p]]++;
    /* Group classes per level: members by group (counting sort), each
     * group's figure classes sorted, groups compared as sequences. */
    for (int L = 1; L < x->nlev; L++) {
        int G = x->ngroups[L];
        int *off = sm_xcalloc((size_t)G + 1, sizeof(int));
        for (int p = 0; p < P; p++) off[x->group[L][p] + 1]++;
        for (int g = 0; g < G; g++) off[g + 1] += off[g];
        int *mem = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
        int *fill = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        memcpy(fill, off, sizeof(int) * (size_t)G);
        for (int p = 0; p < P; p++) mem[fill[x->group[L][p]]++] = p;
        free(fill);
        /* Key: size, then the sorted figure classes (padded with -1). */
        int w = 1;
        for (int g = 0; g < G; g++)
            if (off[g + 1] - off[g] + 1 > w) w = off[g + 1] - off[g] + 1;
        int *key = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1) * (size_t)w);
        int *tmp = sm_xmalloc(sizeof(int) * (size_t)w);
        for (int g = 0; g < G; g++) {
            int k = off[g + 1] - off[g];
            key[(size_t)g * w] = k;
            for (int i = 0; i < k; i++) tmp[i] = x->pc_of[mem[off[g] + i]];
            /* Insertion sort: groups are small. */
            for (int i = 1; i < k; i++)
                for (int j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) { int t = tmp[j]; tmp[j] = tmp[j - 1]; tmp[j - 1] = t; }
            for (int i = 1; i < w; i++) key[(size_t)g * w + i] = i - 1 < k ? tmp[i - 1] : -1;
        }
        int *gord = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        for (int g = 0; g < G; g++) gord[g] = g;
        sort_key = key;
        sort_w = w;
        qsort(gord, (size_t)G, sizeof(int), by_key);
        x->gc_of[L] = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        x->gc_rep[L] = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        x->ngc[L] = 0;
        for (int i = 0; i < G; i++) {
            int g = gord[i];
            if (i == 0 || !same_key(key, w, g, gord[i - 1])) x->gc_rep[L][x->ngc[L]++] = g;
            x->gc_of[L][g] = x->ngc[L] - 1;
        }
        x->gm_off[L] = off;
        x->gm[L] = mem;
        free(key); free(tmp); free(gord);
    }
    /* Processor classes: figure class and group class at every level. */
    int w = x->nlev;
    int *key = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1) * (size_t)w);
    for (int p = 0; p < P; p++) {
        key[(size_t)p * w] = x->pc_of[p];
        for (int L = 1; L < x->nlev; L++) key[(size_t)p * w + L] = x->gc_of[L][x->group[L][p]];
    }
    for (int p = 0; p < P; p++) ord[p] = p;
    sort_key = key;
    sort_w = w;
    qsort(ord, (size_t)P, sizeof(int), by_key);
    x->cls_rep = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    x->cls_mult = sm_xcalloc((size_t)(P ? P : 1), sizeof(double));
    x->ncls = 0;
    for (int i = 0; i < P; i++) {
        int p = ord[i];
        if (i == 0 || !same_key(key, w, p, ord[i - 1])) x->cls_rep[x->ncls++] = p;
        x->cls_mult[x->ncls - 1] += 1;
    }
    for (int L = 1; L < x->nlev; L++) {
        x->cls_gc[L] = sm_xmalloc(sizeof(int) * (size_t)(x->ncls ? x->ncls : 1));
        for (int c = 0; c < x->ncls; c++) x->cls_gc[L][c] = x->gc_of[L][x->group[L][x->cls_rep[c]]];
    }
    free(key);
    free(ord);
}
