/* minmd.c - greedy minimum-distance placement (SPEC 4): communicating
 * block pairs, heaviest first; a pair with neither block placed starts on
 * the emptiest node, an unplaced block goes to the nearest node (network
 * distance) with room from its partner's node. Every node takes up to a
 * per-node limit, starting at ceil(blocks / nodes) and growing by one only
 * when no node has room. One step places one block.
 *
 * Then, unless -passes is 0, the placement is polished under -objective:
 * one step takes the next block and makes the exchange of most gain with a
 * block at most two task-graph steps away (so it lands beside a
 * neighbour's neighbour), improving exchanges only, gains from the
 * incremental objective (O(degree) each); a pass without gain, or -passes
 * passes, ends it. Exchanges keep every node's count, so the limits hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/net/net.h"
#include "core/traffic/objective.h"
#include "solvers/stepper/solver.h"

typedef struct {
    int *pairs;      /* 2 per pair, heaviest first */
    int npairs, next_pair;
    int *map, *load, *node_load;
    int limit, placed, next_free;
    int *node_procs, *np_off;
    /* polishing */
    sm_objective *obj;
    sm_objective_kind kind;
    int next, improved, *seen, stamp;
    long long passes, exchanges;
} minmd_state;

static const sm_opt_spec minmd_opts[] = {
    {"objective", SM_OPT_ENUM, "hops", SM_OBJ_NAMES, 0, 0,
     "what the polishing exchanges improve (cardinality: higher is better)"},
    {"passes", SM_OPT_INT, "20", NULL, 0, 1e9,
     "polishing passes at most (0: the greedy placement alone, as published)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

typedef struct { int64_t cells; int id; } weighted;

static int heavier(const void *a, const void *b)
{
    const weighted *x = a, *y = b;
    if (x->cells != y->cells) return x->cells > y->cells ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int minmd_init(sm_solver *s, sm_err *e)
{
    (void)e;
    minmd_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    int n = g->ntasks, N = t->nnodes;
    weighted *ids = sm_xmalloc(sizeof *ids * (size_t)(g->nedges ? g->nedges : 1));
    for (int k = 0; k < g->nedges; k++) ids[k] = (weighted){g->edges[k].cells, k};
    qsort(ids, (size_t)g->nedges, sizeof *ids, heavier);
    st->pairs = sm_xmalloc(sizeof(int) * 2 * (size_t)(g->nedges ? g->nedges : 1));
    for (int k = 0; k < g->nedges; k++) {
        st->pairs[2 * k] = g->edges[ids[k].id].src;
        st->pairs[2 * k + 1] = g->edges[ids[k].id].dst;
    }
    st->npairs = g->nedges;
    free(ids);
    st->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int u = 0; u < n; u++) st->map[u] = -1;
    st->load = sm_xcalloc((size_t)t->nprocs, sizeof(int));
    st->node_load = sm_xcalloc((size_t)N, sizeof(int));
    st->np_off = sm_xcalloc((size_t)N + 1, sizeof(int));
    st->node_procs = sm_xmalloc(sizeof(int) * (size_t)t->nprocs);
    for (int p = 0; p < t->nprocs; p++) st->np_off[t->procs[p].node + 1]++;
    for (int a = 0; a < N; a++) st->np_off[a + 1] += st->np_off[a];
    int *fill = sm_xcalloc((size_t)N, sizeof(int));
    for (int p = 0; p < t->nprocs; p++) {
        int a = t->procs[p].node;
        st->node_procs[st->np_off[a] + fill[a]++] = p;
    }
    free(fill);
    int used = 0;
    for (int a = 0; a < N; a++) used += st->np_off[a + 1] > st->np_off[a];
    st->limit = used ? (n + used - 1) / used : n;
    if (n == 0) sm_solver_finish_with(s, st->map);
    return 0;
}

static int has_room(const minmd_state *st, int a)
{
    return st->np_off[a + 1] > st->np_off[a] && st->node_load[a] < st->limit;
}

/* The nearest node with room from node `from` (-1: the emptiest), growing
 * the limit when none has room. */
static int pick_node(sm_solver *s, minmd_state *st, int from)
{
    const sm_net *net = s->topo->net;
    int N = s->topo->nnodes;
    for (;;) {
        int best = -1, bd = 0;
        for (int a = 0; a < N; a++) {
            if (!has_room(st, a)) continue;
            int d = from < 0 ? st->node_load[a] : net->ops->distance(net, from, a);
            if (best < 0 || d < bd) best = a, bd = d;
        }
        if (best >= 0) return best;
        st->limit++;
    }
}

static void place(sm_solver *s, minmd_state *st, int u, int from)
{
    int a = pick_node(s, st, from), p = st->node_procs[st->np_off[a]];
    for (int j = st->np_off[a]; j < st->np_off[a + 1]; j++)
        if (st->load[st->node_procs[j]] < st->load[p]) p = st->node_procs[j];
    st->map[u] = p;
    st->load[p]++;
    st->node_load[a]++;
    st->placed++;
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s (node %d, limit %d)", u,
             s->topo->procs[p].name, a, st->limit);
}

static double user_value(const minmd_state *st)
{
    return sm_objective_value(st->obj);
}

static void publish(sm_solver *s, minmd_state *st)
{
    sm_solver_set_stat(s, "objective_value", user_value(st));
    sm_solver_set_stat(s, "best_value", user_value(st));
    sm_solver_set_stat(s, "exchanges", (double)st->exchanges);
    sm_solver_set_stat(s, "passes", (double)st->passes);
    s->current_map = sm_objective_map(st->obj);
}

static void start_polish(sm_solver *s, minmd_state *st)
{
    int n = s->grid->ntasks;
    sm_objective_parse(sm_opt_str(s, "objective"), &st->kind);
    st->obj = sm_objective_new(s->grid, s->topo, &s->model, st->kind, st->map);
    st->seen = sm_xcalloc((size_t)n, sizeof(int));
    sm_solver_set_best(s, st->map);
    sm_solver_set_stat(s, "start_value", user_value(st));
    publish(s, st);
}

static int candidate(minmd_state *st, int u, int w)
{
    if (w == u || st->seen[w] == st->stamp) return 0;
    st->seen[w] = st->stamp;
    return sm_objective_map(st->obj)[w] != sm_objective_map(st->obj)[u];
}

/* One polishing step: block next, its best improving exchange with a
 * block at most two task-graph steps away. */
static void polish_step(sm_solver *s, minmd_state *st)
{
    const sm_grid *g = s->grid;
    int n = g->ntasks, u = st->next, partner = -1;
    double best = 0, tol = 1e-12 * (1 + sm_objective_value(st->obj));
    st->stamp++;
    for (int i = g->nbr_off[u]; i < g->nbr_off[u + 1]; i++) {
        int v = g->nbr[i];
        for (int j = -1; j < g->nbr_off[v + 1] - g->nbr_off[v]; j++) {
            int w = j < 0 ? v : g->nbr[g->nbr_off[v] + j];
            if (!candidate(st, u, w)) continue;
            double d = sm_objective_swap_delta(st->obj, u, w);
            if (d < best - tol) best = d, partner = w;
        }
    }
    if (partner >= 0) {
        sm_objective_swap(st->obj, u, partner);
        st->exchanges++;
        st->improved = 1;
        snprintf(s->last_move, sizeof s->last_move, "polish: exchange blocks %d and %d (%+g %s)",
                 u, partner, st->kind == SM_OBJ_CARDINALITY ? -best : best,
                 sm_objective_name(st->kind));
    } else {
        snprintf(s->last_move, sizeof s->last_move, "polish: block %d kept", u);
    }
    if (++st->next == n) {
        st->next = 0;
        st->passes++;
        /* Only improving exchanges: the mapping now is the best. */
        const int *map = sm_objective_map(st->obj);
        if (!st->improved || st->passes >= sm_opt_int(s, "passes")) {
            memcpy(st->map, map, sizeof(int) * (size_t)n);
            sm_solver_set_best(s, st->map);
            publish(s, st);
            sm_solver_finish_with(s, st->map);
            return;
        }
        if (st->improved) sm_solver_set_best(s, map);
        st->improved = 0;
    }
    publish(s, st);
}

static void minmd_step(sm_solver *s)
{
    minmd_state *st = s->priv;
    int n = s->grid->ntasks;
    if (st->obj) {
        polish_step(s, st);
        return;
    }
    int done_one = 0;
    while (!done_one && st->next_pair < st->npairs) {
        int u = st->pairs[2 * st->next_pair], v = st->pairs[2 * st->next_pair + 1];
        if (st->map[u] >= 0 && st->map[v] >= 0) { st->next_pair++; continue; }
        if (st->map[u] < 0 && st->map[v] < 0) place(s, st, u, -1);
        else if (st->map[u] < 0) place(s, st, u, s->topo->procs[st->map[v]].node);
        else place(s, st, v, s->topo->procs[st->map[u]].node);
        done_one = 1;
    }
    if (!done_one) { /* blocks without edges */
        while (st->next_free < n && st->map[st->next_free] >= 0) st->next_free++;
        if (st->next_free < n) place(s, st, st->next_free, -1);
    }
    sm_solver_set_stat(s, "placed", st->placed);
    sm_solver_set_stat(s, "limit", st->limit);
    if (st->placed < n) return;
    if (sm_opt_int(s, "passes") == 0 || n < 2) sm_solver_finish_with(s, st->map);
    else start_polish(s, st);
}

static void minmd_release(sm_solver *s)
{
    minmd_state *st = s->priv;
    if (!st) return;
    free(st->pairs);
    free(st->map);
    free(st->load);
    free(st->node_load);
    free(st->node_procs);
    free(st->np_off);
    sm_objective_free(st->obj);
    free(st->seen);
    free(st);
}

const sm_solver_ops sm_solver_minmd = {
    "minmd", "greedy minimum distance: heaviest pairs first, nearest node with room",
    minmd_opts, minmd_init, minmd_step, minmd_release,
};
