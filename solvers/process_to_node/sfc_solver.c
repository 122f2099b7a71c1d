/* sfc_solver.c - space-filling-curve placement (SPEC 4): processors along a
 * curve over the network, blocks in id order or along a curve over the
 * grid, contiguous runs sized as lb sizes them; one block per step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sfc_mapping.h"
#include "solvers/stepper/solver_stepper.h"

typedef struct {
    int *procs, *blocks, *map;
    double *lim;
    int next, pi, count;
} sfc_state;

static const sm_opt_spec sfc_opts[] = {
    {"curve", SM_OPT_ENUM, "sweep", SM_CURVE_NAMES, 0, 0,
     "curve ordering the nodes over the network's coordinates"},
    {"order", SM_OPT_ENUM, "id", "id|" SM_CURVE_NAMES, 0, 0,
     "block order: block id, or a curve over the block grid"},
    {"speeds", SM_OPT_ENUM, "exact", "exact|floor", 0, 0,
     "run lengths: as lb -speeds sizes them"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int sfc_init(sm_solver *s, sm_err *e)
{
    sfc_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    int n = s->grid->ntasks, P = s->topo->nprocs;
    sm_curve c, bc = SM_CURVE_SWEEP;
    sm_speeds sp;
    sm_curve_parse(sm_opt_str(s, "curve"), &c);
    const char *ord = sm_opt_str(s, "order");
    int by_id = strcmp(ord, "id") == 0;
    if (!by_id) sm_curve_parse(ord, &bc);
    sm_speeds_parse(sm_opt_str(s, "speeds"), &sp);
    st->procs = sm_xmalloc(sizeof(int) * (size_t)P);
    st->blocks = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->lim = sm_xmalloc(sizeof(double) * (size_t)P);
    if (sm_curve_procs(s->topo, c, st->procs, e) ||
        sm_curve_blocks(s->grid, by_id, bc, st->blocks, e))
        return -1;
    double *limit = sm_xmalloc(sizeof(double) * (size_t)P);
    sm_fill_limits(s->grid, s->topo, sp, limit);
    for (int i = 0; i < P; i++) st->lim[i] = limit[st->procs[i]];
    free(limit);
    for (int u = 0; u < n; u++) st->map[u] = -1;
    if (n == 0) s->done = 1;
    return 0;
}

static void sfc_step(sm_solver *s)
{
    sfc_state *st = s->priv;
    int u = st->blocks[st->next++];
    int p = st->procs[sm_fill_next(st->lim, s->topo->nprocs, &st->pi, &st->count)];
    st->map[u] = p;
    sm_solver_why(s, "next on the curve: the processor's run along it is not full yet");
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s (curve position %d)",
             u, s->topo->procs[p].name, st->pi);
    sm_solver_set_stat(s, "placed", st->next);
    if (st->next == s->grid->ntasks) sm_solver_finish_with(s, st->map);
}

static void sfc_release(sm_solver *s)
{
    sfc_state *st = s->priv;
    if (!st) return;
    free(st->procs);
    free(st->blocks);
    free(st->map);
    free(st->lim);
    free(st);
}

const sm_solver_ops sm_solver_sfc = {
    "sfc", "space-filling curve: nodes along a curve, blocks in contiguous runs",
    sfc_opts, sfc_init, sfc_step, sfc_release, NULL,
};
