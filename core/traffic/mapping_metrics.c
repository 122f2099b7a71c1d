/* mapping_metrics.c - hop-based metrics; congestion routes every inter-node
 * message with the network's dimension-order routing and counts messages
 * per physical link in a hash table. */
#include "mapping_metrics.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/countmap.h"
#include "core/lib/util.h"

void sm_metrics_compute(const sm_grid *g, const sm_topo *t, const int *map,
                        sm_metrics *o)
{
    memset(o, 0, sizeof *o);
    const sm_net *net = t->net;
    sm_countmap lc = {0};
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
            int64_t c = ++*sm_countmap_at(&lc, links[i]);
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
    sm_countmap_free(&lc);
}
