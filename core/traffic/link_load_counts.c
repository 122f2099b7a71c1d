/* link_load_counts.c - link loads. Routes come from the network module as link ids;
 * this file knows their layout (torus_mesh_routing.c, haec_box_wireless_boards.c): a grid link is
 * (node << 5 | axis << 1 | backwards), the node it leaves and the axis and
 * direction it takes; a HAEC wireless link has bit 62 set and carries
 * (from << 21 | to). */
#include "link_load_counts.h"

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
static int edge_route(const sm_grid *g, const sm_topo *t, const int *map, int k, uint64_t *ids, int *p, int *q)
{
    const sm_edge *ed = &g->edges[k];
    *p = map[ed->src];
    *q = map[ed->dst];
    int x = t->procs[*p].node, y = t->procs[*q].node;
    if (x == y) return 0;
    return t->net->ops->route(t->net, x, y, ids, SM_MAX_ROUTE);
}

/* What is routed: the task edges of a mapping (one message each), or the
 * processor pairs' traffic (sm_traffic: messages and cells summed). */
typedef struct {
    const sm_grid *g;
    const int *map;
    const sm_traffic *tr;
    int n;
} source;

static int source_count(const source *src) { return src->tr ? src->n : src->g->nedges; }

/* Item k's route (0 links when both ends share a node), its processors
 * and what it carries. */
static int source_route(const source *src, const sm_topo *t, int k, uint64_t *ids, int *p, int *q,
                        int64_t *msgs, int64_t *cells)
{
    if (!src->tr) {
        *msgs = 1;
        *cells = src->g->edges[k].cells;
        return edge_route(src->g, t, src->map, k, ids, p, q);
    }
    const sm_traffic *x = &src->tr[k];
    *p = x->src;
    *q = x->dst;
    *msgs = x->messages;
    *cells = x->cells;
    int a = t->procs[*p].node, b = t->procs[*q].node;
    if (a == b) return 0;
    return t->net->ops->route(t->net, a, b, ids, SM_MAX_ROUTE);
}

/* A link id's running sums: open addressing on the id (distinct links
 * are few, routed messages many: no sort of every (message, link)). */
typedef struct {
    acc *slot;     /* id + 1 in slot.id; 0 empty */
    size_t cap, n;
} acc_table;

static void table_add(acc_table *h, uint64_t id, int64_t msgs, int64_t cells);

static void table_grow(acc_table *h)
{
    acc_table g = {sm_xcalloc(h->cap * 2, sizeof(acc)), h->cap * 2, 0};
    for (size_t i = 0; i < h->cap; i++)
        if (h->slot[i].id) table_add(&g, h->slot[i].id - 1, h->slot[i].messages, h->slot[i].cells);
    free(h->slot);
    *h = g;
}

static void table_add(acc_table *h, uint64_t id, int64_t msgs, int64_t cells)
{
    if (2 * (h->n + 1) > h->cap) table_grow(h);
    uint64_t x = (id + 1) * 0x9e3779b97f4a7c15ull;
    size_t i = (size_t)(x >> 20) & (h->cap - 1);
    while (h->slot[i].id && h->slot[i].id != id + 1) i = (i + 1) & (h->cap - 1);
    if (!h->slot[i].id) {
        h->slot[i].id = id + 1;
        h->n++;
    }
    h->slot[i].messages += msgs;
    h->slot[i].cells += cells;
}

/* Every link the cut edges between nodes cross, with the messages and
 * cells crossing it, sorted by link id. */
static acc *route_sum(const source *src, const sm_topo *t, size_t *count)
{
    acc_table h = {sm_xcalloc(1024, sizeof(acc)), 1024, 0};
    uint64_t ids[SM_MAX_ROUTE];
    int total = source_count(src);
    for (int k = 0; k < total; k++) {
        int p, q;
        int64_t msgs, cells;
        int nl = source_route(src, t, k, ids, &p, &q, &msgs, &cells);
        for (int i = 0; i < nl; i++) table_add(&h, ids[i], msgs, cells);
    }
    size_t n = 0;
    for (size_t i = 0; i < h.cap; i++)
        if (h.slot[i].id) {
            h.slot[n] = h.slot[i];
            h.slot[n++].id--;
        }
    qsort(h.slot, n, sizeof *h.slot, by_id);
    *count = n;
    return h.slot;
}

static int compute(const source *src, const sm_topo *t, sm_link_load **out, sm_err *e)
{
    if (!routable(t->net, e)) return -1;
    size_t m;
    acc *a = route_sum(src, t, &m);
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

int sm_links_compute(const sm_grid *g, const sm_topo *t, const int *map,
                     sm_link_load **out, sm_err *e)
{
    source src = {g, map, NULL, 0};
    return compute(&src, t, out, e);
}

int sm_links_compute_traffic(const sm_topo *t, const sm_traffic *tr, int n, sm_link_load **out, sm_err *e)
{
    source src = {NULL, NULL, tr, n};
    return compute(&src, t, out, e);
}

static int by_pair(const void *a, const void *b)
{
    const sm_link_pair *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* The pairs whose route crosses a link the raw-id predicate accepts. */
typedef int (*raw_match)(const sm_net *n, uint64_t id, const void *ctx);

static int crossing(const source *src, const sm_topo *t, raw_match match, const void *ctx, sm_link_pair **out)
{
    size_t cap = 16, m = 0;
    sm_link_pair *o = sm_xmalloc(sizeof *o * cap);
    uint64_t ids[SM_MAX_ROUTE];
    int total = source_count(src);
    for (int k = 0; k < total; k++) {
        int p, q;
        int64_t msgs, cells;
        int nl = source_route(src, t, k, ids, &p, &q, &msgs, &cells);
        for (int i = 0; i < nl; i++) {
            if (!match(t->net, ids[i], ctx)) continue;
            if (m == cap) o = sm_xrealloc(o, sizeof *o * (cap *= 2));
            o[m++] = (sm_link_pair){p, q, msgs, cells};
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
    source src = {g, map, NULL, 0};
    return crossing(&src, t, match_ends, &em, out);
}

int sm_links_crossing_traffic(const sm_topo *t, const sm_traffic *tr, int n, sm_link_match match,
                              const void *ctx, sm_link_pair **out, sm_err *e)
{
    if (!routable(t->net, e)) return -1;
    struct ends_match em = {match, ctx};
    source src = {NULL, NULL, tr, n};
    return crossing(&src, t, match_ends, &em, out);
}

/* Tree link ids (fat_tree_dragonfly_levels.c): level << 56 | group index << 1 | down. */
#define TREE_LEVEL(id) ((int)((id) >> 56))
#define TREE_INDEX(id) ((int)(((id) >> 1) & ((1ull << 55) - 1)))
#define TREE_DOWN(id) ((int)((id) & 1))

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

static int tree(const source *src, const sm_topo *t, sm_tree_link **out, sm_err *e)
{
    if (!is_tree(t->net, e)) return -1;
    size_t m, n = 0;
    acc *a = route_sum(src, t, &m);
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

int sm_links_tree(const sm_grid *g, const sm_topo *t, const int *map,
                  sm_tree_link **out, sm_err *e)
{
    source src = {g, map, NULL, 0};
    return tree(&src, t, out, e);
}

int sm_links_tree_traffic(const sm_topo *t, const sm_traffic *tr, int n, sm_tree_link **out, sm_err *e)
{
    source src = {NULL, NULL, tr, n};
    return tree(&src, t, out, e);
}

struct tree_sel { int level, index, down; };

static int match_tree(const sm_net *n, uint64_t id, const void *ctx)
{
    (void)n;
    const struct tree_sel *s = ctx;
    return TREE_LEVEL(id) == s->level && TREE_INDEX(id) == s->index && TREE_DOWN(id) == s->down;
}

int sm_links_tree_crossing(const sm_grid *g, const sm_topo *t, const int *map,
                           int level, int index, int down,
                           sm_link_pair **out, sm_err *e)
{
    if (!is_tree(t->net, e)) return -1;
    struct tree_sel s = {level, index, down};
    source src = {g, map, NULL, 0};
    return crossing(&src, t, match_tree, &s, out);
}

int sm_links_tree_crossing_traffic(const sm_topo *t, const sm_traffic *tr, int n, int level, int index,
                                   int down, sm_link_pair **out, sm_err *e)
{
    if (!is_tree(t->net, e)) return -1;
    struct tree_sel s = {level, index, down};
    source src = {NULL, NULL, tr, n};
    return crossing(&src, t, match_tree, &s, out);
}
