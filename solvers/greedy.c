/* greedy.c - fill processors in list order, one block per step. */
#include "greedy.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "../core/fill.h"

int sm_greedy_init(sm_solver *s, int (*pick)(const sm_greedy *), double f)
{
    sm_greedy *g = sm_xcalloc(1, sizeof *g);
    const sm_grid *gr = s->grid;
    g->n = gr->ntasks;
    g->P = s->topo->nprocs;
    g->map = sm_xmalloc(sizeof(int) * (size_t)(g->n ? g->n : 1));
    g->deg = sm_xmalloc(sizeof(int) * (size_t)(g->n ? g->n : 1));
    g->unmapped_nbrs = sm_xmalloc(sizeof(int) * (size_t)(g->n ? g->n : 1));
    g->on_proc = sm_xcalloc((size_t)(g->n ? g->n : 1), sizeof(int));
    g->limit = sm_xmalloc(sizeof(double) * (size_t)g->P);
    for (int u = 0; u < g->n; u++) {
        g->map[u] = -1;
        g->deg[u] = g->unmapped_nbrs[u] = gr->nbr_off[u + 1] - gr->nbr_off[u];
    }
    sm_speeds sp;
    sm_speeds_parse(sm_opt_str(s, "speeds"), &sp);
    sm_fill_limits(gr, s->topo, sp, g->limit);
    g->pick = pick;
    g->f = f;
    s->priv = g;
    if (g->n == 0) s->done = 1;
    return 0;
}

void sm_greedy_step(sm_solver *s)
{
    sm_greedy *g = s->priv;
    const sm_grid *gr = s->grid;
    /* Next processor once this one is full; N(u) restarts at 0. */
    if (g->proc < g->P - 1 && !(g->size < g->limit[g->proc] - 1e-9)) {
        g->proc++;
        g->size = 0;
        for (int u = 0; u < g->n; u++) g->on_proc[u] = 0;
    }
    int u = g->pick(g);
    g->map[u] = g->proc;
    g->size++;
    g->placed++;
    for (int k = gr->nbr_off[u]; k < gr->nbr_off[u + 1]; k++) {
        int v = gr->nbr[k];
        if (g->map[v] >= 0) continue;
        g->on_proc[v]++;
        g->unmapped_nbrs[v]--;
    }
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s", u,
             s->topo->procs[g->proc].name);
    sm_solver_set_stat(s, "placed", g->placed);
    if (g->placed == g->n) {
        sm_solver_finish_with(s, g->map);
    }
}

void sm_greedy_release(sm_solver *s)
{
    sm_greedy *g = s->priv;
    if (!g) return;
    free(g->map);
    free(g->deg);
    free(g->unmapped_nbrs);
    free(g->on_proc);
    free(g->limit);
    free(g);
}

int sm_greedy_argmin(const sm_greedy *g, long (*key)(const sm_greedy *, int))
{
    int best = -1;
    long bk = LONG_MAX;
    for (int u = 0; u < g->n; u++) {
        if (g->map[u] >= 0) continue;
        long k = key(g, u);
        if (k < bk) { bk = k; best = u; }
    }
    return best;
}

const sm_opt_spec sm_greedy_speeds_only[] = {
    SM_GREEDY_OPTS,
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};
