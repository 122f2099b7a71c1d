/* speed_proportional_quota.c - block orders and the speed-proportional fill. */
#include "speed_proportional_quota.h"
#include "processor_time_energy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"

int sm_speeds_parse(const char *s, sm_speeds *out)
{
    if (strcmp(s, "exact") == 0) { *out = SM_SPEEDS_EXACT; return 0; }
    if (strcmp(s, "floor") == 0) { *out = SM_SPEEDS_FLOOR; return 0; }
    return -1;
}

static const char *order_names[] = {"ijk", "jik", "kij", "random"};

int sm_order_parse(const char *s, sm_order *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, order_names[i]) == 0) {
            *out = (sm_order)i;
            return 0;
        }
    return -1;
}

const char *sm_order_name(sm_order o) { return order_names[o]; }

double sm_rand_unit(unsigned long long *s)
{
    return (double)(sm_rand_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

void sm_fill_limits(const sm_grid *g, const sm_topo *t, sm_speeds sp,
                    double *limit)
{
    int P = t->nprocs;
    double cells = 0;
    for (int u = 0; u < g->ntasks; u++) cells += (double)g->task_cells[u];
    double avg = g->ntasks ? cells / g->ntasks : 1;
    double *tb = sm_xmalloc(sizeof(double) * (size_t)P), tmax = 0, sum = 0;
    for (int p = 0; p < P; p++) {
        tb[p] = sm_proc_block_time(t, p, avg);
        if (tb[p] > tmax) tmax = tb[p];
    }
    for (int p = 0; p < P; p++) {
        /* floor: the reference simulator's integer speed ratios. */
        double r = sp == SM_SPEEDS_FLOOR ? floor(tmax / tb[p] * (1 + 1e-12))
                                         : 1.0 / tb[p];
        limit[p] = r;
        sum += r;
    }
    for (int p = 0; p < P; p++) limit[p] = g->ntasks * limit[p] / sum;
    free(tb);
}

void sm_block_order(const sm_grid *g, sm_order o, unsigned long long seed,
                    int *order)
{
    const int *B = g->spec.blocks;
    int n = 0;
    /* The first letter varies fastest. */
    switch (o) {
    case SM_ORDER_IJK:
    case SM_ORDER_RANDOM:
        for (int u = 0; u < g->ntasks; u++) order[n++] = u;
        break;
    case SM_ORDER_JIK:
        for (int k = 0; k < B[2]; k++)
            for (int i = 0; i < B[0]; i++)
                for (int j = 0; j < B[1]; j++)
                    order[n++] = i + j * B[0] + k * B[0] * B[1];
        break;
    case SM_ORDER_KIJ:
        for (int j = 0; j < B[1]; j++)
            for (int i = 0; i < B[0]; i++)
                for (int k = 0; k < B[2]; k++)
                    order[n++] = i + j * B[0] + k * B[0] * B[1];
        break;
    }
    if (o == SM_ORDER_RANDOM) {
        unsigned long long st = seed;
        for (int i = g->ntasks - 1; i > 0; i--) {
            int j = (int)(sm_rand_next(&st) % (unsigned long long)(i + 1));
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
    }
}

int sm_fill_next(const double *limit, int nprocs, int *proc, int *count)
{
    while (*proc < nprocs - 1 && !(*count < limit[*proc] - 1e-9)) {
        (*proc)++;
        *count = 0;
    }
    (*count)++;
    return *proc;
}

static void fill_along(const sm_grid *g, int P, const double *limit, sm_order o,
                       unsigned long long seed, int *map)
{
    int n = g->ntasks;
    int *order = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    sm_block_order(g, o, seed, order);
    int p = 0, count = 0;
    for (int k = 0; k < n; k++) map[order[k]] = sm_fill_next(limit, P, &p, &count);
    free(order);
}

void sm_fill(const sm_grid *g, const sm_topo *t, sm_speeds sp, sm_order o,
             unsigned long long seed, int *map)
{
    double *limit = sm_xmalloc(sizeof(double) * (size_t)(t->nprocs ? t->nprocs : 1));
    sm_fill_limits(g, t, sp, limit);
    fill_along(g, t->nprocs, limit, o, seed, map);
    free(limit);
}

int sm_fill_limits_memory(const sm_grid *g, const sm_topo *t, sm_speeds sp,
                          double *limit)
{
    int P = t->nprocs, n = g->ntasks;
    sm_fill_limits(g, t, sp, limit);
    int64_t big = 1;
    for (int u = 0; u < n; u++)
        if (g->task_cells[u] > big) big = g->task_cells[u];
    /* Blocks each processor's memory holds (any blocks: the largest). */
    double *cap = sm_xmalloc(sizeof(double) * (size_t)(P ? P : 1));
    char *fixed = sm_xcalloc((size_t)(P ? P : 1), 1);
    int binds = 0;
    for (int p = 0; p < P; p++) {
        const sm_params *q = sm_topo_proc_params(t, p);
        cap[p] = q->memory > 0 && q->bytes_per_cell > 0 ? floor(floor(q->memory / q->bytes_per_cell) / (double)big)
                                                         : INFINITY;
        if (limit[p] > cap[p] + 1e-9) binds = 1;
    }
    int r = 0;
    if (binds) {
        /* The speed shares are limit[p] / n; fix every processor whose
         * share of what is left passes its memory, until none does. */
        double *share = sm_xmalloc(sizeof(double) * (size_t)P);
        for (int p = 0; p < P; p++) share[p] = n ? limit[p] / n : 0;
        double left = n, rest = 1;
        for (int changed = 1; changed;) {
            changed = 0;
            for (int p = 0; p < P; p++)
                if (!fixed[p] && rest > 0 && left * share[p] / rest > cap[p] + 1e-9) {
                    fixed[p] = 1;
                    left -= cap[p];
                    rest -= share[p];
                    changed = 1;
                }
        }
        if (left > 1e-9 && rest <= 1e-12) r = -1;
        else {
            for (int p = 0; p < P; p++) limit[p] = fixed[p] ? cap[p] : (rest > 0 ? left * share[p] / rest : 0);
            r = 1;
        }
        if (r < 0) sm_fill_limits(g, t, sp, limit);
        free(share);
    }
    free(cap);
    free(fixed);
    return r;
}

int sm_fill_memory(const sm_grid *g, const sm_topo *t, sm_speeds sp,
                   sm_order o, unsigned long long seed, int *map)
{
    double *limit = sm_xmalloc(sizeof(double) * (size_t)(t->nprocs ? t->nprocs : 1));
    int r = sm_fill_limits_memory(g, t, sp, limit);
    fill_along(g, t->nprocs, limit, o, seed, map);
    free(limit);
    return r;
}
