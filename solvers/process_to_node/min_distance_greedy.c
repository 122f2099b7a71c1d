/* min_distance_greedy.c - greedy minimum-distance placement (SPEC 4): communicating
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
 * passes, ends it. Exchanges keep every node's count, so the limits hold.
 *
 * -variant published is Besmer's Algorithm 2 as SPEC 4 gives it: pairs
 * (u < v) by decreasing weight, ties by lower ids; start is the node at
 * the middle of the network's coordinates (other networks: node N/2); a
 * pair with neither end placed puts u at the nearest free node to start
 * and v at the nearest free node to u's; one end placed, the other goes to
 * the nearest free node to it; "nearest free" is a breadth-first search
 * over the network's links (neighbours in node order); a node is free
 * while it holds fewer blocks than its processors plus a common increment,
 * raised by one when no node is free; blocks without communication go
 * last, nearest free to start; no polishing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/net/net.h"
#include "sfc_mapping.h"
#include "core/traffic/solver_objectives.h"
#include "solvers/stepper/solver_stepper.h"

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
    /* -variant published */
    int published, start, extra;
    int *adj_off, *adj, *queue, *mark, epoch;
} minmd_state;

static const sm_opt_spec minmd_opts[] = {
    {"objective", SM_OPT_ENUM, "hops", SM_OBJ_NAMES, 0, 0,
     "what the polishing exchanges improve (cardinality: higher is better)"},
    {"passes", SM_OPT_INT, "20", NULL, 0, 1e9,
     "polishing passes at most (0: the greedy placement alone)"},
    {"variant", SM_OPT_ENUM, "default", "default|published", 0, 0,
     "published: Besmer's Algorithm 2 (start at the network's centre, breadth-first nearest free node, no polishing)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

typedef struct { int64_t cells; int id; } weighted;

static int heavier(const void *a, const void *b)
{
    const weighted *x = a, *y = b;
    if (x->cells != y->cells) return x->cells > y->cells ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Pairs u < v, weight = cells both ways, heaviest first, ties by ids. */
typedef struct { int64_t cells; int u, v; } wpair;

static int pair_heavier(const void *a, const void *b)
{
    const wpair *x = a, *y = b;
    if (x->cells != y->cells) return x->cells > y->cells ? -1 : 1;
    if (x->u != y->u) return x->u - y->u;
    return x->v - y->v;
}

static int pair_ids(const void *a, const void *b)
{
    const wpair *x = a, *y = b;
    if (x->u != y->u) return x->u - y->u;
    return x->v - y->v;
}

static void published_init(sm_solver *s, minmd_state *st)
{
    const sm_grid *g = s->grid;
    const sm_net *net = s->topo->net;
    int N = s->topo->nnodes;
    st->published = 1;
    wpair *w = sm_xmalloc(sizeof *w * (size_t)(g->nedges ? g->nedges : 1));
    int m = 0;
    for (int k = 0; k < g->nedges; k++) {
        int u = g->edges[k].src, v = g->edges[k].dst;
        if (u > v) { int t = u; u = v; v = t; }
        w[m++] = (wpair){g->edges[k].cells, u, v};
    }
    /* The two directions of a pair: one entry, their cells added. */
    qsort(w, (size_t)m, sizeof *w, pair_ids);
    int q = 0;
    for (int a = 0; a < m; a++) {
        if (q && w[q - 1].u == w[a].u && w[q - 1].v == w[a].v) w[q - 1].cells += w[a].cells;
        else w[q++] = w[a];
    }
    m = q;
    qsort(w, (size_t)m, sizeof *w, pair_heavier);
    free(st->pairs);
    st->pairs = sm_xmalloc(sizeof(int) * 2 * (size_t)(m ? m : 1));
    st->npairs = m;
    for (int k = 0; k < m; k++) {
        st->pairs[2 * k] = w[k].u;
        st->pairs[2 * k + 1] = w[k].v;
    }
    free(w);
    /* Start: the middle of the coordinates. */
    int size[SM_CURVE_MAXDIMS], nd = sm_net_box(net, size);
    long long idx = 0, stride = 1, cells = 1;
    for (int a = 0; a < nd; a++) cells *= size[a];
    if (nd && cells == N) {
        for (int a = 0; a < nd; a++) { idx += stride * (size[a] / 2); stride *= size[a]; }
        st->start = (int)idx;
    } else {
        st->start = N / 2;
    }
    /* Links: nodes one hop apart, in node order. */
    st->adj_off = sm_xcalloc((size_t)N + 1, sizeof(int));
    int cap = 8 * N + 8, k = 0;
    st->adj = sm_xmalloc(sizeof(int) * (size_t)cap);
    for (int a = 0; a < N; a++) {
        for (int b = 0; b < N; b++) {
            if (b == a || net->ops->distance(net, a, b) != 1) continue;
            if (k == cap) { cap *= 2; st->adj = sm_xrealloc(st->adj, sizeof(int) * (size_t)cap); }
            st->adj[k++] = b;
        }
        st->adj_off[a + 1] = k;
    }
    st->queue = sm_xmalloc(sizeof(int) * (size_t)(N ? N : 1));
    st->mark = sm_xcalloc((size_t)(N ? N : 1), sizeof(int));
}

/* Published: free while below its processors plus the increment. */
static int is_free(const minmd_state *st, int a)
{
    int procs = st->np_off[a + 1] - st->np_off[a];
    return procs > 0 && st->node_load[a] < procs + st->extra;
}

/* Published: the nearest free node to `from` by breadth-first search over
 * the links; the increment rises when no node is free. */
static int bfs_free(sm_solver *s, minmd_state *st, int from)
{
    int N = s->topo->nnodes;
    for (;;) {
        st->epoch++;
        int head = 0, tail = 0;
        st->queue[tail++] = from;
        st->mark[from] = st->epoch;
        while (head < tail) {
            int a = st->queue[head++];
            if (is_free(st, a)) return a;
            for (int i = st->adj_off[a]; i < st->adj_off[a + 1]; i++) {
                int b = st->adj[i];
                if (st->mark[b] != st->epoch) { st->mark[b] = st->epoch; st->queue[tail++] = b; }
            }
        }
        /* Nodes the links do not reach: in node order. */
        for (int a = 0; a < N; a++)
            if (st->mark[a] != st->epoch && is_free(st, a)) return a;
        st->extra++;
    }
}

static int minmd_init(sm_solver *s, sm_err *e)
{
    minmd_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    /* The polish's objective, built after the placement: refused now. */
    sm_objective_kind kind;
    sm_objective_parse(sm_opt_str(s, "objective"), &kind);
    if (strcmp(sm_opt_str(s, "variant"), "published") != 0 && sm_opt_int(s, "passes") != 0 &&
        sm_objective_memory_check(g, t, kind, 1, "minmd", e))
        return -1;
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
    if (strcmp(sm_opt_str(s, "variant"), "published") == 0) published_init(s, st);
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
    int a = st->published ? bfs_free(s, st, from < 0 ? st->start : from) : pick_node(s, st, from);
    int p = st->node_procs[st->np_off[a]];
    for (int j = st->np_off[a]; j < st->np_off[a + 1]; j++)
        if (st->load[st->node_procs[j]] < st->load[p]) p = st->node_procs[j];
    st->map[u] = p;
    st->load[p]++;
    st->node_load[a]++;
    st->placed++;
    sm_solver_why(s, from < 0 ? "nearest free node to the start node" : "nearest free node to its partner's node");
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s (node %d, limit %d)", u,
             s->topo->procs[p].name, a, st->published ? st->np_off[a + 1] - st->np_off[a] + st->extra : st->limit);
}

static double user_value(const minmd_state *st)
{
    return sm_objective_value(st->obj);
}

static void publish(sm_solver *s, minmd_state *st)
{
    sm_solver_set_stat(s, "objective_value", user_value(st));
    sm_solver_set_stat(s, "best_value", user_value(st));
    if (st->obj) sm_solver_set_stat(s, "objective_value", sm_objective_value(st->obj));
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
        sm_solver_why(s, "polish: the most improving exchange with a block next to it");
        snprintf(s->last_move, sizeof s->last_move, "polish: exchange blocks %d and %d (%+g %s)",
                 u, partner, st->kind == SM_OBJ_CARDINALITY ? -best : best,
                 sm_objective_name(st->kind));
    } else {
        snprintf(s->last_move, sizeof s->last_move, "polish: block %d kept", u);
        sm_solver_why(s, "polish: no exchange with a block next to it improves");
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
        /* Neither placed: u near start (or, by default, on the emptiest
         * node); v follows in the next step, next to u. */
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
    if (st->published) sm_solver_set_stat(s, "limit_increment", st->extra);
    else sm_solver_set_stat(s, "limit", st->limit);
    if (st->placed < n) return;
    if (st->published || sm_opt_int(s, "passes") == 0 || n < 2) sm_solver_finish_with(s, st->map);
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
    free(st->adj_off);
    free(st->adj);
    free(st->queue);
    free(st->mark);
    free(st);
}

const sm_solver_ops sm_solver_minmd = {
    "minmd", "greedy minimum distance: heaviest pairs first, nearest node with room",
    minmd_opts, minmd_init, minmd_step, minmd_release, NULL,
};
