/* neighbours_accumulation.c - na, Neighbours Accumulation (SPEC 4): while a processor is below
 * f * limit, take the block with most neighbours already on it (or, when
 * none has any, the block of largest degree); above, take the block that
 * adds least boundary, deg(u) - N(u). Lowest id breaks ties. */
#include "greedy_fill_engine.h"

static long by_accumulation(const sm_greedy *g, int u)
{
    return -(long)g->on_proc[u];
}
static long by_degree(const sm_greedy *g, int u) { return -(long)g->deg[u]; }
static long by_boundary(const sm_greedy *g, int u)
{
    return (long)g->deg[u] - g->on_proc[u];
}

static int pick(const sm_greedy *g)
{
    if (g->size <= g->f * g->limit[g->proc]) {
        int u = sm_greedy_argmin(g, by_accumulation);
        if (g->on_proc[u] > 0) return u;
        return sm_greedy_argmin(g, by_degree);
    }
    return sm_greedy_argmin(g, by_boundary);
}

static const sm_opt_spec opts[] = {
    SM_GREEDY_OPTS,
    {"f", SM_OPT_DOUBLE, "0.5", NULL, 0, 1, "load factor: accumulate neighbours up to f * limit"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int init(sm_solver *s, sm_err *e)
{
    (void)e;
    if (sm_greedy_init(s, pick, sm_opt_double(s, "f"))) return -1;
    static long (*const keys[])(const sm_greedy *, int) = {by_accumulation, by_degree, by_boundary};
    sm_greedy_keys(s->priv, 3, keys);
    return 0;
}

const sm_solver_ops sm_solver_na = {
    "na", "Neighbours Accumulation with load factor -f",
    opts, init, sm_greedy_step, sm_greedy_release, NULL,
};
