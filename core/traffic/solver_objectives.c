/* solver_objectives.c - incremental objectives. Hop-based ones re-add the
 * contribution of the edges touching the changed blocks; congestion keeps
 * per-link message counts (dimension-order routes) in a hash table and a
 * histogram of counts so the maximum follows every change; energy and time
 * ride on the incremental cost model. Deltas apply, read and undo.
 * Cardinality has two layouts of the same numbers (see card_records_max):
 * block records with a copy of the neighbour lists on grids whose copy
 * fits a budget, each block's node and count alone above it. */
#include "solver_objectives.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/countmap.h"
#include "core/model/grid_memory.h"
#include "core/net/net.h"
#include "core/lib/util.h"

static const char *const names[] = {"energy", "time", "hops", "hop_cells",
                                    "congestion", "cardinality"};

int sm_objective_parse(const char *name, sm_objective_kind *out)
{
    for (int i = 0; i < 6; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (sm_objective_kind)i;
            return 0;
        }
    return -1;
}

const char *sm_objective_name(sm_objective_kind k) { return names[k]; }

struct sm_objective {
    sm_objective_kind kind;
    const sm_grid *g;
    const sm_topo *t;
    int *map;
    sm_cost *cost;     /* energy, time */
    int64_t sum;       /* hops, hop_cells, cardinality */
    /* congestion: link id -> messages, and how many links carry c */
    sm_countmap links;
    int64_t *hist, maxc;
    /* cardinality, records layout: each block's record and its
     * neighbours' (block, node) pairs. A swap is scored from the two
     * blocks' new neighbourhoods alone: a partner's record and its
     * neighbours' nodes are two reads of consecutive memory, where the
     * grid's lists and a node array are one read a neighbour at a random
     * place. 16 B a block and 8 B a neighbour entry: kept only while that
     * fits card_records_max. */
    struct card_block *cb;
    struct card_nbr *cn;
    /* cardinality, compact layout (cb NULL): each block's node and how
     * many of its grid neighbours sit on a node next to it, 8 B a block;
     * the neighbours read from the grid's lists. */
    int *node, *near;
    /* the network's distance-1 table (NULL above SM_NODE_ADJ_MAX nodes) */
    sm_node_adjacency *adj;
};

/* A block's neighbours at cn[off .. end - 1], its node, and how many of
 * them sit on a node next to it (the sum counts each pair twice). */
typedef struct card_block {
    int off, end, node, near;
} card_block;

/* A neighbour and the node it sits on (kept as blocks move). */
typedef struct card_nbr {
    int block, node;
} card_nbr;

/* The records layout's bytes at most (sm_objective_set_card_records_max).
 * 256 MB holds it for 1 M blocks of any stencil (27-point: 16 MB of
 * records, 208 MB of entries); at summit-full's 16.7 M blocks it would
 * take 1.1 GB (7-point) to 3.8 GB (27-point), where the compact layout
 * takes 134 MB. Both give the same numbers: only speed and memory
 * differ. Read when a state is built; set before solvers run. */
static int64_t card_records_max = SM_CARD_RECORDS_MAX;

int64_t sm_objective_set_card_records_max(int64_t bytes)
{
    int64_t was = card_records_max;
    card_records_max = bytes;
    return was;
}

static int64_t card_records_bytes(const sm_grid *g)
{
    return (int64_t)sizeof(card_block) * g->ntasks + (int64_t)sizeof(card_nbr) * ((int64_t)g->nbr_off[g->ntasks] + 1);
}

static int card_records_fit(const sm_grid *g) { return card_records_bytes(g) <= card_records_max; }

/* ops->hops (hops, hop_cells) or ops->distance (cardinality) of a != b. */
static int net_dist(const sm_objective *o, int a, int b)
{
    const sm_net *net = o->t->net;
    return o->kind == SM_OBJ_CARDINALITY ? net->ops->distance(net, a, b) : net->ops->hops(net, a, b);
}

static void route_add(sm_objective *o, int a, int b, int sign)
{
    uint64_t links[SM_MAX_ROUTE];
    const sm_net *net = o->t->net;
    int nl = net->ops->route(net, a, b, links, SM_MAX_ROUTE);
    for (int i = 0; i < nl; i++) {
        int64_t *c = sm_countmap_at(&o->links, links[i]);
        if (*c > 0) o->hist[*c]--;
        *c += sign;
        if (*c > 0) o->hist[*c]++;
        if (*c > o->maxc) o->maxc = *c;
    }
    while (o->maxc > 0 && o->hist[o->maxc] == 0) o->maxc--;
}

static int node_of(const sm_objective *o, int block)
{
    return o->t->procs[o->map[block]].node;
}

/* One directed edge's share of the objective (congestion: its route,
 * applied with sign). */
static int64_t edge_part(sm_objective *o, const sm_edge *ed, int sign)
{
    if (o->map[ed->src] == o->map[ed->dst]) return 0;
    int a = node_of(o, ed->src), b = node_of(o, ed->dst);
    if (a == b) return 0;
    switch (o->kind) {
    case SM_OBJ_HOPS: return net_dist(o, a, b);
    case SM_OBJ_HOP_CELLS: return (int64_t)net_dist(o, a, b) * ed->cells;
    case SM_OBJ_CONGESTION: route_add(o, a, b, sign); return 0;
    default: return 0;
    }
}

/* Whether nodes a and b are next to each other (cardinality): a load
 * from the table, inlined; the network's distance only without one. */
static int nodes_near_by_net(const sm_objective *o, int a, int b)
{
    return a != b && net_dist(o, a, b) == 1;
}

static inline int nodes_near(const sm_objective *o, int a, int b)
{
    if (o->adj) return sm_node_adjacent(o->adj, a, b);
    return nodes_near_by_net(o, a, b);
}

/* Cardinality: the pairs touching b1 (and b2 >= 0), each once, added to
 * (sign +1) or taken from (-1) both ends' counts and the sum. */
static void card_apply(sm_objective *o, int b1, int b2, int sign)
{
    card_block *cb = o->cb;
    const sm_grid *g = o->g;
    int bs[2] = {b1, b2};
    for (int i = 0; i < 2 && bs[i] >= 0; i++) {
        int u = bs[i];
        if (cb) {
            int nu = cb[u].node;
            for (int k = cb[u].off; k < cb[u].end; k++) {
                int w = o->cn[k].block;
                if (i == 1 && w == b1) continue;
                int x = sign * nodes_near(o, nu, o->cn[k].node);
                cb[u].near += x;
                cb[w].near += x;
                o->sum += x;
            }
            continue;
        }
        int nu = o->node[u];
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int w = g->nbr[k];
            if (i == 1 && w == b1) continue;
            int x = sign * nodes_near(o, nu, o->node[w]);
            o->near[u] += x;
            o->near[w] += x;
            o->sum += x;
        }
    }
}

/* Cardinality: the pairs u would make on node nu, leaving out its pairs
 * with `skip` (the partner of a swap: their pair keeps its distance);
 * *skipped counts those left out. by_rows reads the table in the rows of
 * u's neighbours' nodes (for a block whose places are scored one after
 * another: the same few rows each time), else in nu's row (for a block
 * scored at one place among many others: that row each time). */
static int card_at(const sm_objective *o, int u, int nu, int skip, int *skipped, int by_rows)
{
    int c = 0;
    if (!o->cb) {
        const sm_grid *g = o->g;
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int w = g->nbr[k], nw = o->node[w];
            if (w == skip) ++*skipped;
            else c += by_rows ? nodes_near(o, nw, nu) : nodes_near(o, nu, nw);
        }
        return c;
    }
    for (int k = o->cb[u].off; k < o->cb[u].end; k++) {
        int w = o->cn[k].block, nw = o->cn[k].node;
        if (w == skip) ++*skipped;
        else c += by_rows ? nodes_near(o, nw, nu) : nodes_near(o, nu, nw);
    }
    return c;
}

static int card_node(const sm_objective *o, int u) { return o->cb ? o->cb[u].node : o->node[u]; }
static int card_near(const sm_objective *o, int u) { return o->cb ? o->cb[u].near : o->near[u]; }

/* Block b now on node a: its record and its place in its neighbours'
 * lists (records: deg^2 steps, each neighbour's list searched; it holds
 * b once), or its node alone (compact). */
static void card_set_node(sm_objective *o, int b, int a)
{
    card_block *cb = o->cb;
    if (!cb) {
        o->node[b] = a;
        return;
    }
    cb[b].node = a;
    for (int k = cb[b].off; k < cb[b].end; k++) {
        int w = o->cn[k].block;
        for (int j = cb[w].off; j < cb[w].end; j++)
            if (o->cn[j].block == b) {
                o->cn[j].node = a;
                break;
            }
    }
}

static int64_t local(sm_objective *o, int b1, int b2, int sign)
{
    const sm_grid *g = o->g;
    int64_t s = 0;
    int bs[2] = {b1, b2};
    for (int i = 0; i < 2 && bs[i] >= 0; i++) {
        int u = bs[i];
        for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) {
            const sm_edge *ed = &g->edges[g->inc[k]];
            if (i == 1 && (ed->src == b1 || ed->dst == b1)) continue;
            s += edge_part(o, ed, sign);
        }
    }
    return s;
}

sm_objective *sm_objective_new(const sm_grid *g, const sm_topo *t, const sm_model *m,
                               sm_objective_kind k, const int *map)
{
    sm_objective *o = sm_xcalloc(1, sizeof *o);
    o->kind = k;
    o->g = g;
    o->t = t;
    size_t n = (size_t)(g->ntasks ? g->ntasks : 1);
    o->map = sm_xmalloc(sizeof(int) * n);
    memcpy(o->map, map, sizeof(int) * (size_t)g->ntasks);
    switch (k) {
    case SM_OBJ_ENERGY:
    case SM_OBJ_TIME: o->cost = sm_cost_new(g, t, m, map); break;
    case SM_OBJ_CONGESTION:
        o->hist = sm_xcalloc((size_t)g->nedges + 2, sizeof(int64_t));
        for (int e = 0; e < g->nedges; e++) edge_part(o, &g->edges[e], 1);
        break;
    case SM_OBJ_CARDINALITY:
        o->adj = sm_node_adjacency_new(t->net, t->nnodes);
        if (card_records_fit(g)) {
            o->cb = sm_xmalloc(sizeof *o->cb * n);
            o->cn = sm_xmalloc(sizeof *o->cn * ((size_t)g->nbr_off[g->ntasks] + 1));
            for (int u = 0; u < g->ntasks; u++)
                o->cb[u] = (card_block){g->nbr_off[u], g->nbr_off[u + 1], t->procs[map[u]].node, 0};
            for (int k = 0; k < g->nbr_off[g->ntasks]; k++)
                o->cn[k] = (card_nbr){g->nbr[k], o->cb[g->nbr[k]].node};
        } else {
            o->node = sm_xmalloc(sizeof *o->node * n);
            o->near = sm_xmalloc(sizeof *o->near * n);
            for (int u = 0; u < g->ntasks; u++) o->node[u] = t->procs[map[u]].node;
        }
        for (int u = 0; u < g->ntasks; u++) {
            int none = 0, c = card_at(o, u, card_node(o, u), -1, &none, 0);
            if (o->cb) o->cb[u].near = c;
            else o->near[u] = c;
            o->sum += c;
        }
        o->sum /= 2; /* each pair from both ends */
        break;
    default:
        for (int e = 0; e < g->nedges; e++) o->sum += edge_part(o, &g->edges[e], 1);
    }
    return o;
}

void sm_objective_free(sm_objective *o)
{
    if (!o) return;
    if (o->cost) sm_cost_free(o->cost);
    free(o->map);
    sm_countmap_free(&o->links);
    free(o->hist);
    free(o->cb);
    free(o->cn);
    free(o->node);
    free(o->near);
    sm_node_adjacency_free(o->adj);
    free(o);
}

double sm_objective_value(const sm_objective *o)
{
    sm_eval ev;
    switch (o->kind) {
    case SM_OBJ_ENERGY:
    case SM_OBJ_TIME:
        sm_cost_eval_fast(o->cost, &ev);
        return o->kind == SM_OBJ_ENERGY ? ev.energy : ev.time;
    case SM_OBJ_CONGESTION: return (double)o->maxc;
    default: return (double)o->sum;
    }
}

double sm_objective_score(const sm_objective *o)
{
    double v = sm_objective_value(o);
    return o->kind == SM_OBJ_CARDINALITY ? -v : v;
}

const int *sm_objective_map(const sm_objective *o) { return o->map; }

const sm_node_adjacency *sm_objective_node_adjacency(const sm_objective *o) { return o->adj; }

int sm_objective_card_records(const sm_objective *o) { return o->cb != NULL; }

/* The distance-1 table at most: its tile numbers and every tile distinct. */
static int64_t adjacency_bytes(int nnodes)
{
    if (nnodes > SM_NODE_ADJ_MAX) return 0;
    int64_t w = (nnodes + 63) / 64;
    return (int64_t)sizeof(sm_node_adjacency) + w * w * 2 + (w * w + 1) * 64 * 8;
}

int64_t sm_objective_state_bytes(const sm_grid *g, const sm_topo *t, sm_objective_kind k)
{
    int64_t n = g->ntasks ? g->ntasks : 1, bytes = (int64_t)sizeof(sm_objective) + 4 * n; /* the mapping */
    switch (k) {
    case SM_OBJ_CARDINALITY:
        return bytes + adjacency_bytes(t->nnodes) + (card_records_fit(g) ? card_records_bytes(g) : 8 * n);
    case SM_OBJ_CONGESTION: return bytes + 8 * ((int64_t)g->nedges + 2);
    case SM_OBJ_ENERGY:
    case SM_OBJ_TIME: return bytes + 5 * n; /* the cost state's mapping and marks */
    default: return bytes;
    }
}

int sm_objective_memory_check(const sm_grid *g, const sm_topo *t, sm_objective_kind k, int copies,
                              const char *who, sm_err *e)
{
    const char *from = "";
    int capped = 0;
    int64_t avail = sm_memory_room(&from, &capped, e);
    if (avail == -2) return -1;
    int64_t need = copies * sm_objective_state_bytes(g, t, k);
    if (avail < 0 || need <= avail) return 0;
    char a[32], b[32], what[32] = "its state";
    if (copies > 1) snprintf(what, sizeof what, "%d copies of its state", copies);
    sm_err_set_code(e, capped ? "SAFE LIMIT" : "MEMORY",
                    "%s -objective %s: %s for %d blocks (%lld neighbour entries) needs an estimated %s; "
                    "%s available (%s)",
                    who, names[k], what, g->ntasks, (long long)g->nbr_off[g->ntasks],
                    sm_memory_human(need, a, sizeof a), sm_memory_human(avail, b, sizeof b), from);
    return -1;
}

/* Re-place blocks b1 (to p1) and b2 (to p2, if b2 >= 0). */
static void replace(sm_objective *o, int b1, int p1, int b2, int p2)
{
    if (o->cost) {
        if (b2 >= 0) sm_cost_swap(o->cost, b1, b2);
        else sm_cost_move(o->cost, b1, p1);
        o->map[b1] = p1;
        if (b2 >= 0) o->map[b2] = p2;
        return;
    }
    if (o->kind == SM_OBJ_CARDINALITY) {
        card_apply(o, b1, b2, -1);
        o->map[b1] = p1;
        card_set_node(o, b1, o->t->procs[p1].node);
        if (b2 >= 0) {
            o->map[b2] = p2;
            card_set_node(o, b2, o->t->procs[p2].node);
        }
        card_apply(o, b1, b2, 1);
        return;
    }
    o->sum -= local(o, b1, b2, -1);
    o->map[b1] = p1;
    if (b2 >= 0) o->map[b2] = p2;
    o->sum += local(o, b1, b2, 1);
}

void sm_objective_move(sm_objective *o, int block, int proc)
{
    if (o->map[block] != proc) replace(o, block, proc, -1, 0);
}

void sm_objective_swap(sm_objective *o, int b1, int b2)
{
    if (b1 == b2 || o->map[b1] == o->map[b2]) return;
    replace(o, b1, o->map[b2], b2, o->map[b1]);
}

/* hops, hop_cells, cardinality: the change of the sum when b1 goes to p1
 * and b2 (>= 0) to p2, from the terms touching them before and after,
 * the state left as it was: half the work of applying and undoing. */
/* Cardinality, a swap, with the distance-1 table: local_delta's terms
 * (the same integers) with the table read in place. b1 goes to b2's
 * node: its neighbours' rows at that column; b2 to b1's node: that row
 * at its neighbours' columns. This is what bokhari spends its time on
 * (every partner of every step). */
/* The same terms, compact layout: the neighbours' nodes read through the
 * grid's lists. */
static double card_swap_delta_compact(const sm_objective *o, int b1, int b2)
{
    const sm_grid *g = o->g;
    const sm_node_adjacency *adj = o->adj;
    const int *node = o->node, *nbr = g->nbr;
    int n1 = node[b1], n2 = node[b2], after = 0, m = 0;
    size_t col2 = (unsigned)n2 >> 6;
    unsigned sh2 = (unsigned)n2 & 63;
    for (int k = g->nbr_off[b1]; k < g->nbr_off[b1 + 1]; k++) {
        int w = nbr[k];
        m += w == b2;
        after += (int)((sm_node_adjacency_word(adj, node[w], col2) >> sh2) & 1u);
    }
    const uint16_t *tiles1 = adj->tile + ((unsigned)n1 >> 6) * adj->words;
    const uint64_t *pool1 = adj->pool + ((unsigned)n1 & 63);
    for (int k = g->nbr_off[b2]; k < g->nbr_off[b2 + 1]; k++) {
        int w = nbr[k];
        unsigned y = (unsigned)node[w];
        m += w == b1;
        after += (int)((pool1[(size_t)tiles1[y >> 6] * 64] >> (y & 63)) & 1u);
    }
    int before = o->near[b1] + o->near[b2] - m * sm_node_adjacent(adj, n1, n2);
    return (double)before - (double)after;
}

static double card_swap_delta(const sm_objective *o, int b1, int b2)
{
    if (!o->cb) return card_swap_delta_compact(o, b1, b2);
    const sm_node_adjacency *adj = o->adj;
    const card_nbr *cn = o->cn;
    card_block x1 = o->cb[b1], x2 = o->cb[b2];
    int after = 0, m = 0;
    /* Each side's term with the other block is the node with itself: 0
     * (the table has no diagonal), so only counted in m. */
    size_t col2 = (unsigned)x2.node >> 6;
    unsigned sh2 = (unsigned)x2.node & 63;
    for (int k = x1.off; k < x1.end; k++) {
        m += cn[k].block == b2;
        after += (int)((sm_node_adjacency_word(adj, cn[k].node, col2) >> sh2) & 1u);
    }
    /* n1's row: its tiles' numbers, and its row in each tile. */
    const uint16_t *tiles1 = adj->tile + ((unsigned)x1.node >> 6) * adj->words;
    const uint64_t *pool1 = adj->pool + ((unsigned)x1.node & 63);
    for (int k = x2.off; k < x2.end; k++) {
        unsigned y = (unsigned)cn[k].node;
        m += cn[k].block == b1;
        after += (int)((pool1[(size_t)tiles1[y >> 6] * 64] >> (y & 63)) & 1u);
    }
    int before = x1.near + x2.near - m * sm_node_adjacent(adj, x1.node, x2.node);
    return (double)before - (double)after;
}

/* A batch of partners for one block whose neighbours are at most this
 * many: its side of the sum read once for all of them. */
#define CARD_BATCH_DEG 8

void sm_objective_swap_deltas(sm_objective *o, int b1, const int *b2s, int n, double *out)
{
    if (o->kind != SM_OBJ_CARDINALITY || !o->adj || !o->cb || o->cb[b1].end - o->cb[b1].off > CARD_BATCH_DEG) {
        for (int i = 0; i < n; i++) out[i] = sm_objective_swap_delta(o, b1, b2s[i]);
        return;
    }
    /* card_swap_delta's terms, b1's side taken out of the loop: its
     * neighbours' rows of tile numbers, their rows in the tiles, and
     * n1's row for the partners' neighbours. */
    const sm_node_adjacency *adj = o->adj;
    const card_nbr *cn = o->cn;
    const card_block *cb = o->cb;
    const uint64_t *pool = adj->pool;
    card_block x1 = cb[b1];
    int deg1 = x1.end - x1.off, nb[CARD_BATCH_DEG], p1 = o->map[b1];
    const uint16_t *trow[CARD_BATCH_DEG];
    unsigned r[CARD_BATCH_DEG];
    for (int k = 0; k < deg1; k++) {
        unsigned x = (unsigned)cn[x1.off + k].node;
        nb[k] = cn[x1.off + k].block;
        trow[k] = adj->tile + (x >> 6) * adj->words;
        r[k] = x & 63;
    }
    const uint16_t *tiles1 = adj->tile + ((unsigned)x1.node >> 6) * adj->words;
    const uint64_t *pool1 = pool + ((unsigned)x1.node & 63);
    for (int i = 0; i < n; i++) {
        int b2 = b2s[i];
        if (b2 == b1 || o->map[b2] == p1) {
            out[i] = 0;
            continue;
        }
        card_block x2 = cb[b2];
        unsigned n2 = (unsigned)x2.node, col2 = n2 >> 6, sh2 = n2 & 63;
        int after = 0, m = 0;
        for (int k = 0; k < deg1; k++) {
            m += nb[k] == b2;
            after += (int)((pool[(size_t)trow[k][col2] * 64 + r[k]] >> sh2) & 1u);
        }
        for (int k = x2.off; k < x2.end; k++) {
            unsigned y = (unsigned)cn[k].node;
            m += cn[k].block == b1;
            after += (int)((pool1[(size_t)tiles1[y >> 6] * 64] >> (y & 63)) & 1u);
        }
        int near12 = (int)((pool1[(size_t)tiles1[col2] * 64] >> sh2) & 1u);
        out[i] = (double)(x1.near + x2.near - m * near12) - (double)after;
    }
}

static double local_delta(sm_objective *o, int b1, int p1, int b2, int p2)
{
    if (o->kind == SM_OBJ_CARDINALITY) {
        /* The terms touching b1 and b2 after, from their new nodes; before,
         * their counts. The pair b1-b2, if they are neighbours, keeps its
         * distance in a swap: both sides leave it out. */
        int m = 0, after = card_at(o, b1, o->t->procs[p1].node, b2, &m, 1), before = card_near(o, b1);
        if (b2 >= 0) {
            int m2 = 0;
            after += card_at(o, b2, o->t->procs[p2].node, b1, &m2, 0);
            before += card_near(o, b2) - (m + m2) * nodes_near(o, card_node(o, b1), card_node(o, b2));
        }
        return (double)before - (double)after;
    }
    int64_t before = local(o, b1, b2, 0);
    int was1 = o->map[b1], was2 = b2 >= 0 ? o->map[b2] : 0;
    o->map[b1] = p1;
    if (b2 >= 0) o->map[b2] = p2;
    int64_t after = local(o, b1, b2, 0);
    o->map[b1] = was1;
    if (b2 >= 0) o->map[b2] = was2;
    return o->kind == SM_OBJ_CARDINALITY ? (double)before - (double)after : (double)after - (double)before;
}

static int sum_kind(const sm_objective *o)
{
    return o->kind == SM_OBJ_HOPS || o->kind == SM_OBJ_HOP_CELLS || o->kind == SM_OBJ_CARDINALITY;
}

double sm_objective_move_delta(sm_objective *o, int block, int proc)
{
    int was = o->map[block];
    if (was == proc) return 0;
    if (sum_kind(o)) return local_delta(o, block, proc, -1, 0);
    double before = sm_objective_score(o);
    sm_objective_move(o, block, proc);
    double after = sm_objective_score(o);
    sm_objective_move(o, block, was);
    return after - before;
}

double sm_objective_swap_delta(sm_objective *o, int b1, int b2)
{
    if (b1 == b2 || o->map[b1] == o->map[b2]) return 0;
    if (o->kind == SM_OBJ_CARDINALITY && o->adj) return card_swap_delta(o, b1, b2);
    if (sum_kind(o)) return local_delta(o, b1, o->map[b2], b2, o->map[b1]);
    double before = sm_objective_score(o);
    sm_objective_swap(o, b1, b2);
    double after = sm_objective_score(o);
    sm_objective_swap(o, b1, b2);
    return after - before;
}
