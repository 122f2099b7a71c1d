/* proportional.c - the 2015 stencil framework's split: a processor's share
 * is its measured speed over the sum, f_cpu = t_gpu / (t_cpu + t_gpu) for
 * two, generalised to n; shares are rounded by largest remainder and laid
 * out contiguously in block order. One step places one block. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/model/speed_proportional_quota.h"
#include "solvers/stepper/solver_stepper.h"

typedef struct {
    int *order, *map, *count;
    int next, proc;
} prop_state;

static const sm_opt_spec opts[] = {
    {"order", SM_OPT_ENUM, "ijk", "ijk|jik|kij", 0, 0, "block order; the first letter varies fastest"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int init(sm_solver *s, sm_err *e)
{
    (void)e;
    int n = s->grid->ntasks, P = s->topo->nprocs;
    prop_state *st = sm_xcalloc(1, sizeof *st);
    st->order = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->count = sm_xcalloc((size_t)P, sizeof(int));
    double *share = sm_xmalloc(sizeof(double) * (size_t)P);
    sm_fill_limits(s->grid, s->topo, SM_SPEEDS_EXACT, share); /* n * r_i / sum r */
    int total = 0;
    for (int p = 0; p < P; p++) {
        st->count[p] = (int)floor(share[p]);
        total += st->count[p];
    }
    /* Largest remainders take the blocks left over (lowest index first). */
    while (total < n) {
        int best = 0;
        double br = -1;
        for (int p = 0; p < P; p++) {
            double r = share[p] - st->count[p];
            if (r > br + 1e-12) { br = r; best = p; }
        }
        st->count[best]++;
        total++;
    }
    free(share);
    sm_order o;
    sm_order_parse(sm_opt_str(s, "order"), &o);
    sm_block_order(s->grid, o, 0, st->order);
    s->priv = st;
    if (n == 0) s->done = 1;
    return 0;
}

static void step(sm_solver *s)
{
    prop_state *st = s->priv;
    int P = s->topo->nprocs;
    while (st->proc < P - 1 && st->count[st->proc] == 0) st->proc++;
    int u = st->order[st->next++];
    st->map[u] = st->proc;
    st->count[st->proc]--;
    sm_solver_why(s, "next in block order: a contiguous run per processor, sized by its measured speed");
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s", u, s->topo->procs[st->proc].name);
    if (st->next == s->grid->ntasks) {
        sm_solver_finish_with(s, st->map);
    }
}

static void release(sm_solver *s)
{
    prop_state *st = s->priv;
    if (!st) return;
    free(st->order);
    free(st->map);
    free(st->count);
    free(st);
}

const sm_solver_ops sm_solver_proportional = {
    "proportional", "Split by measured speed, contiguous in block order",
    opts, init, step, release, NULL,
};
