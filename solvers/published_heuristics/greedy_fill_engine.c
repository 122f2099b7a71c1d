/* greedy_fill_engine.c - fill processors in list order, one block per step. */
#include "greedy_fill_engine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/speed_proportional_quota.h"

typedef long (*greedy_key)(const sm_greedy *, int);

struct sm_greedy_heap {
    greedy_key key;
    long *k;   /* block -> key */
    int *pos;  /* block -> slot, -1 when out */
    int *slot; /* slot -> block */
    int size;
};

static int heap_less(const struct sm_greedy_heap *h, int a, int b)
{
    return h->k[a] < h->k[b] || (h->k[a] == h->k[b] && a < b);
}

static void heap_place(struct sm_greedy_heap *h, int i, int u)
{
    h->slot[i] = u;
    h->pos[u] = i;
}

static void heap_down(struct sm_greedy_heap *h, int i)
{
    int u = h->slot[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->size) break;
        if (c + 1 < h->size && heap_less(h, h->slot[c + 1], h->slot[c])) c++;
        if (!heap_less(h, h->slot[c], u)) break;
        heap_place(h, i, h->slot[c]);
        i = c;
    }
    heap_place(h, i, u);
}

/* Restore order after slot i's key changed: up if it can, else down. */
static void heap_sift(struct sm_greedy_heap *h, int i)
{
    int u = h->slot[i];
    if (i == 0 || !heap_less(h, u, h->slot[(i - 1) / 2])) {
        heap_down(h, i);
        return;
    }
    while (i > 0 && heap_less(h, u, h->slot[(i - 1) / 2])) {
        heap_place(h, i, h->slot[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    heap_place(h, i, u);
}

static void heap_remove(struct sm_greedy_heap *h, int u)
{
    int i = h->pos[u];
    if (i < 0) return;
    h->pos[u] = -1;
    int last = h->slot[--h->size];
    if (last == u) return;
    heap_place(h, i, last);
    heap_sift(h, i);
}

/* Re-key block u in every heap. */
static void rekey(sm_greedy *g, int u)
{
    for (int k = 0; k < g->nheaps; k++) {
        struct sm_greedy_heap *h = &g->heaps[k];
        if (h->pos[u] < 0) continue;
        long nk = h->key(g, u);
        if (nk == h->k[u]) continue;
        h->k[u] = nk;
        heap_sift(h, h->pos[u]);
    }
}

void sm_greedy_keys(sm_greedy *g, int nkeys, long (*const *keys)(const sm_greedy *, int))
{
    g->heaps = sm_xcalloc((size_t)nkeys, sizeof *g->heaps);
    g->nheaps = nkeys;
    for (int k = 0; k < nkeys; k++) {
        struct sm_greedy_heap *h = &g->heaps[k];
        size_t n = (size_t)(g->n ? g->n : 1);
        h->key = keys[k];
        h->k = sm_xmalloc(sizeof(long) * n);
        h->pos = sm_xmalloc(sizeof(int) * n);
        h->slot = sm_xmalloc(sizeof(int) * n);
        for (int u = 0; u < g->n; u++) {
            h->k[u] = h->key(g, u);
            heap_place(h, u, u);
        }
        h->size = g->n;
        for (int i = g->n / 2 - 1; i >= 0; i--) heap_down(h, i);
    }
}

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
    g->touched = sm_xmalloc(sizeof(int) * (size_t)(g->n ? g->n : 1));
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
        for (int k = 0; k < g->ntouched; k++) {
            int u = g->touched[k];
            g->on_proc[u] = 0;
            if (g->map[u] < 0) rekey(g, u);
        }
        g->ntouched = 0;
    }
    int u = g->pick(g);
    g->map[u] = g->proc;
    g->size++;
    g->placed++;
    for (int k = 0; k < g->nheaps; k++) heap_remove(&g->heaps[k], u);
    for (int k = gr->nbr_off[u]; k < gr->nbr_off[u + 1]; k++) {
        int v = gr->nbr[k];
        if (g->map[v] >= 0) continue;
        if (g->on_proc[v]++ == 0) g->touched[g->ntouched++] = v;
        g->unmapped_nbrs[v]--;
        rekey(g, v);
    }
    snprintf(s->last_move, sizeof s->last_move, "place block %d on %s", u,
             s->topo->procs[g->proc].name);
    sm_solver_why(s, "%s's pick for %s: %s", s->ops->name, s->topo->procs[g->proc].name,
                  strcmp(s->ops->name, "na") == 0 ? "most neighbours already there (or least boundary)"
                  : strcmp(s->ops->name, "dm") == 0 ? "least remaining degree"
                                                    : "least multicut growth");
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
    free(g->touched);
    for (int k = 0; k < g->nheaps; k++) {
        free(g->heaps[k].k);
        free(g->heaps[k].pos);
        free(g->heaps[k].slot);
    }
    free(g->heaps);
    free(g);
}

int sm_greedy_argmin(const sm_greedy *g, long (*key)(const sm_greedy *, int))
{
    for (int k = 0; k < g->nheaps; k++)
        if (g->heaps[k].key == key) return g->heaps[k].size ? g->heaps[k].slot[0] : -1;
    /* A key nobody declared: scan. */
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
