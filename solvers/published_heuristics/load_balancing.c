/* load_balancing.c - lb, Load Balancing: fill processors in list order, one block per
 * step, each up to its speed-proportional share (SPEC 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/speed_proportional_quota.h"
#include "solvers/stepper/solver_stepper.h"

typedef struct {
    int *order, *map;
    double *limit;
    int next, proc, count;
} lb_state;

static const sm_opt_spec lb_opts[] = {
    {"order", SM_OPT_ENUM, "ijk", "ijk|jik|kij|random", 0, 0,
     "block order; the first letter varies fastest"},
    {"speeds", SM_OPT_ENUM, "exact", "exact|floor", 0, 0,
     "relative speeds: 1/time_per_block, or floor(max_t/t_i)"},
    {"seed", SM_OPT_INT, "1", NULL, 0, 9.2e18, "seed for -order random"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int lb_init(sm_solver *s, sm_err *e)
{
    (void)e;
    lb_state *st = sm_xcalloc(1, sizeof *st);
    int n = s->grid->ntasks;
    st->order = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    st->limit = sm_xmalloc(sizeof(double) * (size_t)s->topo->nprocs);
    sm_order o;
    sm_speeds sp;
    sm_order_parse(sm_opt_str(s, "order"), &o);
    sm_speeds_parse(sm_opt_str(s, "speeds"), &sp);
    sm_block_order(s->grid, o, (unsigned long long)sm_opt_int(s, "seed"), st->order);
    sm_fill_limits(s->grid, s->topo, sp, st->limit);
    for (int u = 0; u < n; u++) st->map[u] = -1;
    s->priv = st;
    if (n == 0) s->done = 1;
    return 0;
}

static void lb_step(sm_solver *s)
{
    lb_state *st = s->priv;
    int u = st->order[st->next++];
    st->map[u] = sm_fill_next(st->limit, s->topo->nprocs, &st->proc, &st->count);
    sm_solver_why(s, "list order: the processor fills until it holds its share n r_i / sum r");
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s", u,
             s->topo->procs[st->proc].name);
    if (st->next == s->grid->ntasks) {
        sm_solver_finish_with(s, st->map);
    }
    sm_solver_set_stat(s, "placed", st->next);
}

static void lb_release(sm_solver *s)
{
    lb_state *st = s->priv;
    if (!st) return;
    free(st->order);
    free(st->map);
    free(st->limit);
    free(st);
}

const sm_solver_ops sm_solver_lb = {
    "lb", "Load Balancing: fill processors in list order by relative speed",
    lb_opts, lb_init, lb_step, lb_release, NULL,
};
