/* tree_loads.c - a tree's uplink loads, updated move by move (see tree_loads.h). */
#include "tree_loads.h"

#include <stdlib.h>
#include <string.h>
#include "core/net/net.h"
#include "core/lib/util.h"
#include "link_loads.h"

/* What identifies a machine's processors beyond its address. */
static unsigned long long procs_sum(const sm_topo *t)
{
    unsigned long long h = (unsigned long long)t->nprocs * 0x9e3779b97f4a7c15ull ^ (unsigned long long)t->nnodes;
    for (int d = 0; d < t->net->ndims && d < SM_NET_MAXDIMS; d++)
        h = (h ^ (unsigned long long)t->net->dims[d]) * 0x100000001b3ull;
    for (int i = 0; i < t->nprocs; i++)
        h = (h ^ ((unsigned long long)t->procs[i].node * 31 + (unsigned long long)t->procs[i].type)) *
            0x100000001b3ull;
    return h;
}

/* Adds (sign 1) or takes away (-1) task edge k's message under map. */
static void edge(sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map, int k, int sign)
{
    uint64_t ids[SM_MAX_ROUTE];
    int p, q, nl = sm_links_edge_route(g, t, map, k, ids, &p, &q);
    int64_t cells = g->edges[k].cells * sign;
    for (int i = 0; i < nl; i++) {
        int L, x, down;
        sm_links_tree_id(ids[i], &L, &x, &down);
        if (L >= tl->nlevels || x >= tl->groups[L]) continue;
        (down ? tl->dn_m : tl->up_m)[L][x] += sign;
        (down ? tl->dn_c : tl->up_c)[L][x] += cells;
    }
}

void sm_tree_loads_init(sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map)
{
    unsigned long long gen = tl->gen;
    sm_tree_loads_free(tl);
    const sm_net *n = t->net;
    int levels = 0;
    while (levels <= n->ndims && sm_links_tree_groups(n, t->nnodes, levels) > 1) levels++;
    tl->nlevels = levels;
    size_t nl = (size_t)levels + 1;
    tl->groups = sm_xcalloc(nl, sizeof(int));
    tl->up_m = sm_xcalloc(nl, sizeof *tl->up_m);
    tl->up_c = sm_xcalloc(nl, sizeof *tl->up_c);
    tl->dn_m = sm_xcalloc(nl, sizeof *tl->dn_m);
    tl->dn_c = sm_xcalloc(nl, sizeof *tl->dn_c);
    for (int L = 0; L < levels; L++) {
        tl->groups[L] = sm_links_tree_groups(n, t->nnodes, L);
        size_t ng = (size_t)tl->groups[L];
        tl->up_m[L] = sm_xcalloc(ng, sizeof(int64_t));
        tl->up_c[L] = sm_xcalloc(ng, sizeof(int64_t));
        tl->dn_m[L] = sm_xcalloc(ng, sizeof(int64_t));
        tl->dn_c[L] = sm_xcalloc(ng, sizeof(int64_t));
    }
    for (int k = 0; k < g->nedges; k++) edge(tl, g, t, map, k, 1);
    tl->n = g->ntasks;
    tl->map = sm_xmalloc(sizeof(int) * (size_t)(tl->n ? tl->n : 1));
    memcpy(tl->map, map, sizeof(int) * (size_t)tl->n);
    tl->grid = g;
    tl->spec = g->spec;
    tl->topo = t;
    tl->procs_sum = procs_sum(t);
    tl->gen = gen + 1;
    tl->incremental = 0;
}

int sm_tree_loads_update(sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map,
                         int max_changed)
{
    if (!tl->map || tl->grid != g || tl->n != g->ntasks || tl->topo != t ||
        memcmp(&tl->spec, &g->spec, sizeof tl->spec) != 0 || tl->procs_sum != procs_sum(t))
        return 0;
    int *changed = sm_xmalloc(sizeof(int) * (size_t)(max_changed > 0 ? max_changed : 1)), nc = 0;
    for (int u = 0; u < g->ntasks; u++) {
        if (tl->map[u] == map[u]) continue;
        if (nc == max_changed) {
            free(changed);
            return 0;
        }
        changed[nc++] = u;
    }
    /* Each edge once: at its changed end, the lower one when both moved. */
    tl->nmoved = 0;
    for (int i = 0; i < nc; i++) {
        int u = changed[i];
        for (int j = g->inc_off[u]; j < g->inc_off[u + 1]; j++) {
            int k = g->inc[j];
            int w = g->edges[k].src == u ? g->edges[k].dst : g->edges[k].src;
            if (w < u && tl->map[w] != map[w]) continue;
            edge(tl, g, t, tl->map, k, -1);
            edge(tl, g, t, map, k, 1);
            if (tl->nmoved == tl->moved_cap) {
                tl->moved_cap = tl->moved_cap ? 2 * tl->moved_cap : 64;
                tl->moved = sm_xrealloc(tl->moved, sizeof(int) * (size_t)tl->moved_cap);
                tl->moved_from = sm_xrealloc(tl->moved_from, sizeof(int) * (size_t)tl->moved_cap);
                tl->moved_to = sm_xrealloc(tl->moved_to, sizeof(int) * (size_t)tl->moved_cap);
            }
            tl->moved[tl->nmoved] = k;
            tl->moved_from[tl->nmoved] = tl->map[g->edges[k].src];
            tl->moved_to[tl->nmoved++] = tl->map[g->edges[k].dst];
        }
    }
    for (int i = 0; i < nc; i++) tl->map[changed[i]] = map[changed[i]];
    free(changed);
    tl->gen++;
    tl->incremental = 1;
    return 1;
}

void sm_tree_loads_free(sm_tree_loads *tl)
{
    for (int L = 0; L < tl->nlevels; L++) {
        free(tl->up_m[L]);
        free(tl->up_c[L]);
        free(tl->dn_m[L]);
        free(tl->dn_c[L]);
    }
    free(tl->up_m);
    free(tl->up_c);
    free(tl->dn_m);
    free(tl->dn_c);
    free(tl->groups);
    free(tl->map);
    free(tl->moved);
    free(tl->moved_from);
    free(tl->moved_to);
    memset(tl, 0, sizeof *tl);
}
