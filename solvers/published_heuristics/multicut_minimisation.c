/* multicut_minimisation.c - mm, Multicut Minimisation: every block starts with its full degree
 * as its cost; placing u on the current processor turns its N(u) edges to
 * that processor internal and leaves the other deg(u) - N(u) cut, so the
 * cut grows by deg(u) - 2 N(u); the next block minimises that growth
 * (lowest id on ties). */
#include "greedy_fill_engine.h"

static long by_cut_growth(const sm_greedy *g, int u)
{
    return (long)g->deg[u] - 2L * g->on_proc[u];
}

static int pick(const sm_greedy *g) { return sm_greedy_argmin(g, by_cut_growth); }

static int init(sm_solver *s, sm_err *e)
{
    (void)e;
    if (sm_greedy_init(s, pick, 0)) return -1;
    static long (*const keys[])(const sm_greedy *, int) = {by_cut_growth};
    sm_greedy_keys(s->priv, 1, keys);
    return 0;
}

const sm_solver_ops sm_solver_mm = {
    "mm", "Multicut Minimisation: least cut growth first",
    sm_greedy_speeds_only, init, sm_greedy_step, sm_greedy_release, NULL,
};
