/* degree_minimisation.c - dm, Degree Minimisation: every block starts with its full degree,
 * which drops as its neighbours are placed; the next block is always the
 * one of least remaining degree (lowest id on ties), so processors grow
 * from the grid's boundary inward without leaving isolated holes. */
#include "greedy_fill_engine.h"

static long by_remaining_degree(const sm_greedy *g, int u)
{
    return (long)g->unmapped_nbrs[u];
}

static int pick(const sm_greedy *g) { return sm_greedy_argmin(g, by_remaining_degree); }

static int init(sm_solver *s, sm_err *e)
{
    (void)e;
    if (sm_greedy_init(s, pick, 0)) return -1;
    static long (*const keys[])(const sm_greedy *, int) = {by_remaining_degree};
    sm_greedy_keys(s->priv, 1, keys);
    return 0;
}

const sm_solver_ops sm_solver_dm = {
    "dm", "Degree Minimisation: least remaining degree first",
    sm_greedy_speeds_only, init, sm_greedy_step, sm_greedy_release, NULL,
};
