/* metrics.c - hop-based metrics; congestion routes every inter-node
 * message with the network's dimension-order routing and counts messages
 * per physical link in a hash table. */
#include "metrics.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

typedef struct { uint64_t *key; int64_t *count; size_t cap, n; } linkcount;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

static int64_t bump(linkcount *lc, uint64_t k)
{
    k += 1; /* 0 marks empty */
    if (2 * (lc->n + 1) > lc->cap) {
        size_t oc = lc->cap, nc = oc ? oc * 2 : 1024;
        uint64_t *ok = lc->key;
        int64_t *ov = lc->count;
        lc->key = sm_xcalloc(nc, sizeof(uint64_t));
        lc->count = sm_xcalloc(nc, sizeof(int64_t));
        lc->cap = nc;
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t h = mix(ok[i]) & (nc - 1);
                while (lc->key[h]) h = (h + 1) & (nc - 1);
                lc->key[h] = ok[i];
                lc->count[h] = ov[i];
            }
        free(ok);
        free(ov);
    }
    size_t h = mix(k) & (lc->cap - 1);
    while (lc->key[h] && lc->key[h] != k) h = (h + 1) & (lc->cap - 1);
    if (!lc->key[h]) {
        lc->key[h] = k;
        lc->n++;
    }
    return ++lc->count[h];
}

void sm_metrics_compute(const sm_grid *g, const sm_topo *t, const int *map,
                        sm_metrics *o)
{
    memset(o, 0, sizeof *o);
    const sm_net *net = t->net;
    linkcount lc = {0};
    uint64_t links[SM_MAX_ROUTE];
    for (int e = 0; e < g->nedges; e++) {
        const sm_edge *ed = &g->edges[e];
        int ps = map[ed->src], pd = map[ed->dst];
        if (ps == pd) continue;
        int a = t->procs[ps].node, b = t->procs[pd].node;
        if (a == b) continue;
        int64_t h = net->ops->hops(net, a, b);
        o->hops += h;
        o->hop_cells += h * ed->cells;
        if (h > o->dilation_max) o->dilation_max = h;
        int nl = net->ops->route(net, a, b, links, SM_MAX_ROUTE);
        for (int i = 0; i < nl; i++) {
            int64_t c = bump(&lc, links[i]);
            if (c > o->congestion) o->congestion = c;
        }
    }
    /* Cardinality counts each communicating (unordered) block pair once. */
    for (int u = 0; u < g->ntasks; u++)
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int v = g->nbr[k];
            if (v <= u) continue;
            int a = t->procs[map[u]].node, b = t->procs[map[v]].node;
            if (a != b && net->ops->distance(net, a, b) == 1) o->cardinality++;
        }
    free(lc.key);
    free(lc.count);
}
