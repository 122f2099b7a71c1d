/* link_loads.c - link loads. Routes come from the network module as link ids;
 * this file knows their layout (torus.c, haec.c): a grid link is
 * (node << 5 | axis << 1 | backwards), the node it leaves and the axis and
 * direction it takes; a HAEC wireless link has bit 62 set and carries
 * (from << 21 | to). */
#include "link_loads.h"

#include <stdlib.h>
#include <string.h>
#include "core/net/net.h"
#include "core/lib/util.h"

typedef struct { uint64_t id; int64_t messages, cells; } acc;

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const acc *)a)->id, y = ((const acc *)b)->id;
    return x < y ? -1 : x > y;
}

static int by_ends(const void *a, const void *b)
{
    const sm_link_load *x = a, *y = b;
    if (x->from != y->from) return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

static void decode(const sm_net *n, uint64_t id, int *from, int *to)
{
    if (id >> 62 & 1) {
        *from = (int)((id >> 21) & ((1u << 21) - 1));
        *to = (int)(id & ((1u << 21) - 1));
        return;
    }
    int node = (int)(id >> 5), axis = (int)((id >> 1) & 15), back = (int)(id & 1);
    int nd = n->ops == &sm_net_haec ? 3 : n->ndims, c[SM_NET_MAXDIMS];
    sm_net_unrank(n->dims, nd, node, c);
    c[axis] = (c[axis] + (back ? -1 : 1) + n->dims[axis]) % n->dims[axis];
    int r = 0;
    for (int d = 0; d < nd; d++) r = r * n->dims[d] + c[d];
    *from = node;
    *to = r;
}

static int routable(const sm_net *net, sm_err *e)
{
    if (net->ops == &sm_net_torus || net->ops == &sm_net_mesh || net->ops == &sm_net_haec) return 1;
    sm_err_set(e, "model links: %s networks have no physical links to list "
                  "(expected torus, mesh or haec)", net->ops->kind);
    return 0;
}

/* The links task edge k's message crosses (0 when both ends share a
 * node); *p and *q get its processors. */
int sm_links_edge_route(const sm_grid *g, const sm_topo *t, const int *map, int k, uint64_t *ids, int *p, int *q)
{
    const sm_edge *ed = &g->edges[k];
    *p = map[ed->src];
    *q = map[ed->dst];
    int x = t->procs[*p].node, y = t->procs[*q].node;
    if (x == y) return 0;
    return t->net->ops->route(t->net, x, y, ids, SM_MAX_ROUTE);
}

/* The loads of every loaded link, summed as the routes are walked in an
 * open-addressing table keyed by link id (memory in links, not in
 * messages x hops: 16.7 M blocks cut all over a machine are 10^8 pairs),
 * then sorted by link id. */
static acc *route_sum(const sm_grid *g, const sm_topo *t, const int *map, size_t *count)
{
    size_t cap = 1024, used = 0;
    acc *h = sm_xmalloc(sizeof *h * cap);
    unsigned char *full = sm_xcalloc(cap, 1);
    uint64_t ids[SM_MAX_ROUTE];
    for (int k = 0; k < g->nedges; k++) {
        int p, q, nl = sm_links_edge_route(g, t, map, k, ids, &p, &q);
        for (int i = 0; i < nl; i++) {
            if (2 * (used + 1) > cap) {
                /* Grow to keep the table at most half full. */
                size_t ncap = cap * 2;
                acc *nh = sm_xmalloc(sizeof *nh * ncap);
                unsigned char *nf = sm_xcalloc(ncap, 1);
                for (size_t j = 0; j < cap; j++) {
                    if (!full[j]) continue;
                    size_t s = (size_t)((h[j].id * 0x9e3779b97f4a7c15ull) >> 17) & (ncap - 1);
                    while (nf[s]) s = (s + 1) & (ncap - 1);
                    nh[s] = h[j];
                    nf[s] = 1;
                }
                free(h);
                free(full);
                h = nh;
                full = nf;
                cap = ncap;
            }
            size_t s = (size_t)((ids[i] * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
            while (full[s] && h[s].id != ids[i]) s = (s + 1) & (cap - 1);
            if (!full[s]) {
                full[s] = 1;
                h[s] = (acc){ids[i], 0, 0};
                used++;
            }
            h[s].messages++;
            h[s].cells += g->edges[k].cells;
        }
    }
    size_t n = 0;
    for (size_t j = 0; j < cap; j++)
        if (full[j]) h[n++] = h[j];
    free(full);
    qsort(h, n, sizeof *h, by_id);
    *count = n;
    return h;
}

int sm_links_compute(const sm_grid *g, const sm_topo *t, const int *map,
                     sm_link_load **out, sm_err *e)
{
    if (!routable(t->net, e)) return -1;
    size_t m;
    acc *a = route_sum(g, t, map, &m);
    sm_link_load *o = sm_xmalloc(sizeof *o * (m ? m : 1));
    for (size_t i = 0; i < m; i++) {
        decode(t->net, a[i].id, &o[i].from, &o[i].to);
        o[i].messages = a[i].messages;
        o[i].cells = a[i].cells;
    }
    free(a);
    qsort(o, m, sizeof *o, by_ends);
    *out = o;
    return (int)m;
}

static int by_pair(const void *a, const void *b)
{
    const sm_link_pair *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* The pairs whose route crosses a link the raw-id predicate accepts. */
typedef int (*raw_match)(const sm_net *n, uint64_t id, const void *ctx);

static int crossing(const sm_grid *g, const sm_topo *t, const int *map, raw_match match,
                    const void *ctx, sm_link_pair **out)
{
    size_t cap = 16, m = 0;
    sm_link_pair *o = sm_xmalloc(sizeof *o * cap);
    uint64_t ids[SM_MAX_ROUTE];
    for (int k = 0; k < g->nedges; k++) {
        int p, q, nl = sm_links_edge_route(g, t, map, k, ids, &p, &q);
        for (int i = 0; i < nl; i++) {
            if (!match(t->net, ids[i], ctx)) continue;
            if (m == cap) o = sm_xrealloc(o, sizeof *o * (cap *= 2));
            o[m++] = (sm_link_pair){p, q, 1, g->edges[k].cells};
            break;
        }
    }
    qsort(o, m, sizeof *o, by_pair);
    size_t n = 0;
    for (size_t i = 0; i < m; i++) {
        if (n && o[n - 1].src == o[i].src && o[n - 1].dst == o[i].dst) {
            o[n - 1].messages += o[i].messages;
            o[n - 1].cells += o[i].cells;
        } else {
            o[n++] = o[i];
        }
    }
    *out = o;
    return (int)n;
}

struct ends_match { sm_link_match match; const void *ctx; };

static int match_ends(const sm_net *n, uint64_t id, const void *ctx)
{
    const struct ends_match *em = ctx;
    int from, to;
    decode(n, id, &from, &to);
    return em->match(from, to, em->ctx);
}

int sm_links_crossing(const sm_grid *g, const sm_topo *t, const int *map,
                      sm_link_match match, const void *ctx,
                      sm_link_pair **out, sm_err *e)
{
    if (!routable(t->net, e)) return -1;
    struct ends_match em = {match, ctx};
    return crossing(g, t, map, match_ends, &em, out);
}

/* Tree link ids (tree.c): level << 56 | group index << 1 | down. */
#define TREE_LEVEL(id) ((int)((id) >> 56))
#define TREE_INDEX(id) ((int)(((id) >> 1) & ((1ull << 55) - 1)))
#define TREE_DOWN(id) ((int)((id) & 1))

void sm_links_tree_id(uint64_t id, int *level, int *index, int *down)
{
    *level = TREE_LEVEL(id);
    *index = TREE_INDEX(id);
    *down = TREE_DOWN(id);
}

static int is_tree(const sm_net *n, sm_err *e)
{
    if (n->ops == &sm_net_tree) return 1;
    sm_err_set(e, "%s networks are not trees (expected tree)", n->ops->kind);
    return 0;
}

int sm_links_tree_groups(const sm_net *n, int nnodes, int level)
{
    long long g = 1;
    for (int l = 0; l < level && l < n->ndims; l++) g *= n->dims[l];
    return (int)((nnodes + g - 1) / g);
}

int sm_links_tree(const sm_grid *g, const sm_topo *t, const int *map,
                  sm_tree_link **out, sm_err *e)
{
    if (!is_tree(t->net, e)) return -1;
    size_t m, n = 0;
    acc *a = route_sum(g, t, map, &m);
    /* Sorted by id: a link's up (bit 0 clear) comes just before its down. */
    sm_tree_link *o = sm_xcalloc(m ? m : 1, sizeof *o);
    for (size_t i = 0; i < m; i++) {
        if (!n || (o[n - 1].level != TREE_LEVEL(a[i].id) || o[n - 1].index != TREE_INDEX(a[i].id))) {
            o[n].level = TREE_LEVEL(a[i].id);
            o[n].index = TREE_INDEX(a[i].id);
            n++;
        }
        if (TREE_DOWN(a[i].id)) {
            o[n - 1].down_messages = a[i].messages;
            o[n - 1].down_cells = a[i].cells;
        } else {
            o[n - 1].up_messages = a[i].messages;
            o[n - 1].up_cells = a[i].cells;
        }
    }
    free(a);
    *out = o;
    return (int)n;
}

/* Nodes per group at a level of the tree (level 0: one, the node). */
static long long tree_span(const sm_net *n, int level)
{
    long long span = 1;
    for (int l = 0; l < level && l < n->ndims; l++) span *= n->dims[l];
    return span;
}

int sm_links_tree_crosses(const sm_net *n, int a, int b, int level, int index, int down)
{
    long long span = tree_span(n, level);
    if (a / span == b / span) return 0;   /* the route turns below this level */
    return (down ? b : a) / span == index;
}

/* Only the blocks on the group's processors can send up or receive down
 * its uplink: one look at each block's processor, then their edges - not
 * a route for every edge of the grid (10^8 at a whole machine). */
int sm_links_tree_crossing(const sm_grid *g, const sm_topo *t, const int *map,
                           int level, int index, int down,
                           sm_link_pair **out, sm_err *e)
{
    if (!is_tree(t->net, e)) return -1;
    long long span = tree_span(t->net, level);
    size_t cap = 16, m = 0;
    sm_link_pair *o = sm_xmalloc(sizeof *o * cap);
    for (int u = 0; u < g->ntasks; u++) {
        int p = map[u];
        if (t->procs[p].node / span != index) continue;
        for (int j = g->inc_off[u]; j < g->inc_off[u + 1]; j++) {
            const sm_edge *ed = &g->edges[g->inc[j]];
            if ((down ? ed->dst : ed->src) != u) continue;
            int other = map[down ? ed->src : ed->dst];
            if (t->procs[other].node / span == index) continue;
            if (m == cap) o = sm_xrealloc(o, sizeof *o * (cap *= 2));
            o[m++] = down ? (sm_link_pair){other, p, 1, ed->cells} : (sm_link_pair){p, other, 1, ed->cells};
        }
    }
    qsort(o, m, sizeof *o, by_pair);
    size_t n = 0;
    for (size_t i = 0; i < m; i++) {
        if (n && o[n - 1].src == o[i].src && o[n - 1].dst == o[i].dst) {
            o[n - 1].messages += o[i].messages;
            o[n - 1].cells += o[i].cells;
        } else {
            o[n++] = o[i];
        }
    }
    *out = o;
    return (int)n;
}
