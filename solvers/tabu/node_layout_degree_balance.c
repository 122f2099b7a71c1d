/* node_layout_degree_balance.c - a node's blocks rearranged among its own
 * processors until the busiest one's degree fits the deadline's rounds
 * (issue 38 item 2).
 *
 * Where communication dominates, the cheapest node partitions are those
 * of the fewest nodes, whose processors then run near what they compute
 * by the deadline; laid out by bisection, the processors at the node's
 * surface carry most of its inter-node messages and their degree (the
 * rounds' floor, under the maxdeg model the rounds) passes the deadline:
 * 32 summit-like nodes, links x150, 12 nodes needed 564 rounds against
 * 540. Moving a block between processors of one node keeps the node
 * partition, so the inter-node energy, and (inter-node links depending on
 * the nodes only) every other node's degrees; what changes is how the
 * node's surface is shared. Where every processor is full single moves do
 * not fit, so swaps too. A pass, as Fiduccia-Mattheyses passes go: the
 * processor of the highest degree above target takes its best move or
 * swap (a block at its border to any of the node's processors with room,
 * or for a block of another beside it) even when that is worse, each
 * block once a pass, priced by the sum over the node's processors of the
 * squared degree above target (weighted far above) and the squared
 * degree (which spreads the rest and keeps the intra-node cut small); the
 * pass ends at the target or after DB_PATIENCE steps without a better
 * value and goes back to its best prefix; passes until one gains nothing.
 * Ties go to the first block in the node's order: the same mapping gives
 * the same steps. */
#include <stdlib.h>
#include <string.h>
#include "node_layout_degree_balance.h"

/* Steps without a better value before a pass ends (it goes back to its
 * best); the excess's weight against the squared degrees. */
#define DB_PATIENCE 16
#define DB_PASSES 4
#define DB_EXCESS_WEIGHT 1000.0

typedef struct {
    const sm_grid *g;
    const sm_topo *t;
    double round_time;
    int *map;
    const int *procs;
    int np;
    int *local;     /* P: a processor's index among procs, or -1 */
    int64_t *deg;   /* np */
    int64_t *delta; /* np, zero between trials */
    int *touched, nt;
    /* The quanta of a message from local processor l to processor b, for
     * the cells last asked: np x P each (two directions). */
    int64_t *kq[2];
    int32_t *kcells[2];
} db_ctx;

static int64_t edge_quanta(const db_ctx *c, const sm_edge *e, int ps, int pd)
{
    int d = c->local[ps] >= 0 ? 0 : 1, l = d ? c->local[pd] : c->local[ps], b = d ? ps : pd;
    size_t at = (size_t)l * (size_t)c->t->nprocs + (size_t)b;
    if (l >= 0 && c->kcells[d][at] == e->cells) return c->kq[d][at];
    double tpc, epc;
    sm_topo_link(c->t, ps, pd, &tpc, &epc);
    int64_t k = sm_quanta((double)e->cells * tpc, c->round_time);
    if (l >= 0) c->kcells[d][at] = e->cells, c->kq[d][at] = k;
    return k;
}

static void touch(db_ctx *c, int l, int64_t d)
{
    if (l < 0 || d == 0) return;
    if (c->delta[l] == 0) {
        int seen = 0;
        for (int i = 0; i < c->nt && !seen; i++) seen = c->touched[i] == l;
        if (!seen) c->touched[c->nt++] = l;
    }
    c->delta[l] += d;
}

/* Edge e's share of the node's degrees with u on pu and v on pv (the
 * other blocks where the map has them), times s. */
static void edge_share(db_ctx *c, const sm_edge *e, int u, int pu, int v, int pv, int s)
{
    int a = e->src == u ? pu : e->src == v ? pv : c->map[e->src];
    int b = e->dst == u ? pu : e->dst == v ? pv : c->map[e->dst];
    if (a == b) return;
    int64_t k = s * edge_quanta(c, e, a, b);
    touch(c, c->local[a], k);
    touch(c, c->local[b], k);
}

/* The degree changes of moving u to q and (v >= 0) v to u's processor,
 * into c->delta / c->touched. */
static void trial(db_ctx *c, int u, int q, int v)
{
    const sm_grid *g = c->g;
    int p = c->map[u], pv = v >= 0 ? c->map[v] : -1;
    c->nt = 0;
    for (int i = g->inc_off[u]; i < g->inc_off[u + 1]; i++) {
        const sm_edge *e = &g->edges[g->inc[i]];
        edge_share(c, e, u, p, v, pv, -1);
        edge_share(c, e, u, q, v, p, +1);
    }
    if (v < 0) return;
    for (int i = g->inc_off[v]; i < g->inc_off[v + 1]; i++) {
        const sm_edge *e = &g->edges[g->inc[i]];
        if (e->src == u || e->dst == u) continue; /* counted from u */
        edge_share(c, e, u, p, v, pv, -1);
        edge_share(c, e, u, q, v, p, +1);
    }
}

/* Block x moved to b alone: the change of its processor's degree (*da)
 * and of b's (*db). */
static void single(db_ctx *c, int x, int b, int64_t *da, int64_t *db)
{
    const sm_grid *g = c->g;
    int a = c->map[x];
    *da = *db = 0;
    for (int i = g->inc_off[x]; i < g->inc_off[x + 1]; i++) {
        const sm_edge *e = &g->edges[g->inc[i]];
        int out = e->src == x, pw = c->map[out ? e->dst : e->src];
        int64_t ka = pw == a ? 0 : out ? edge_quanta(c, e, a, pw) : edge_quanta(c, e, pw, a);
        int64_t kb = pw == b ? 0 : out ? edge_quanta(c, e, b, pw) : edge_quanta(c, e, pw, b);
        if (pw != a) *da -= ka;
        else *da += kb;
        if (pw != b) *db += kb;
        else *db -= ka;
    }
}

static void untrial(db_ctx *c)
{
    for (int i = 0; i < c->nt; i++) c->delta[c->touched[i]] = 0;
    c->nt = 0;
}

/* A processor's share of what the search lowers: its squared degree
 * above target, weighted far above its squared degree (which spreads
 * the rest evenly and keeps the intra-node cut small). */
static double value(int64_t deg, int64_t target)
{
    double x = deg > target ? (double)(deg - target) : 0;
    return x * x * DB_EXCESS_WEIGHT + (double)deg * (double)deg;
}

/* The trial's change of the value. */
static double change(const db_ctx *c, int64_t target)
{
    double dx = 0;
    for (int i = 0; i < c->nt; i++) {
        int l = c->touched[i];
        dx += value(c->deg[l] + c->delta[l], target) - value(c->deg[l], target);
    }
    return dx;
}

/* Block u to q and (v >= 0) v to u's processor, kept. */
static void apply(db_ctx *c, int *count, int u, int q, int v)
{
    int p = c->map[u];
    trial(c, u, q, v);
    for (int i = 0; i < c->nt; i++) c->deg[c->touched[i]] += c->delta[c->touched[i]];
    untrial(c);
    if (v < 0) count[c->local[p]]--, count[c->local[q]]++;
    else c->map[v] = p;
    c->map[u] = q;
}

int sm_node_degree_balance(const sm_grid *g, const sm_topo *t, const sm_model *m, int *map, const int *blocks,
                           int nb, const int *procs, int np, const int *cap, int64_t target, int max_steps, int64_t *high)
{
    *high = 0;
    if (np < 2 || nb < 2) return 0;
    int P = t->nprocs;
    db_ctx c = {g, t, m->round_time, map, procs, np, NULL, NULL, NULL, NULL, 0, {NULL, NULL}, {NULL, NULL}};
    c.local = sm_xmalloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) c.local[p] = -1;
    for (int i = 0; i < np; i++) c.local[procs[i]] = i;
    c.deg = sm_xcalloc((size_t)np, sizeof(int64_t));
    c.delta = sm_xcalloc((size_t)np, sizeof(int64_t));
    c.touched = sm_xmalloc(sizeof(int) * (size_t)np);
    int *count = sm_xcalloc((size_t)np, sizeof(int));
    int *cand = sm_xmalloc(sizeof(int) * (size_t)nb), *bd = sm_xmalloc(sizeof(int) * (size_t)nb);
    int *log_u = sm_xmalloc(sizeof(int) * (size_t)max_steps), *log_q = sm_xmalloc(sizeof(int) * (size_t)max_steps);
    int *log_v = sm_xmalloc(sizeof(int) * (size_t)max_steps), *pos = sm_xmalloc(sizeof(int) * (size_t)g->ntasks);
    unsigned char *locked = sm_xcalloc((size_t)nb, 1);
    for (int u = 0; u < g->ntasks; u++) pos[u] = -1;
    for (int i = 0; i < nb; i++) pos[blocks[i]] = i;
    unsigned char *mark = sm_xcalloc((size_t)g->ntasks, 1);
    int64_t *sv = sm_xmalloc(sizeof(int64_t) * 2 * (size_t)nb), *sq = sm_xmalloc(sizeof(int64_t) * 2 * (size_t)np * (size_t)nb);
    for (int d = 0; d < 2; d++) {
        c.kq[d] = sm_xmalloc(sizeof(int64_t) * (size_t)np * (size_t)P);
        c.kcells[d] = sm_xmalloc(sizeof(int32_t) * (size_t)np * (size_t)P);
        for (size_t i = 0; i < (size_t)np * (size_t)P; i++) c.kcells[d][i] = -1;
    }
    for (int i = 0; i < nb; i++) {
        int u = blocks[i], lu = c.local[map[u]];
        count[lu]++;
        for (int j = g->inc_off[u]; j < g->inc_off[u + 1]; j++) {
            const sm_edge *e = &g->edges[g->inc[j]];
            if (map[e->src] != map[e->dst]) c.deg[lu] += edge_quanta(&c, e, map[e->src], map[e->dst]);
        }
    }
    int steps = 0;
    double now = 0;
    for (int l = 0; l < np; l++) now += value(c.deg[l], target);
    for (int pass = 0; pass < DB_PASSES; pass++) {
        int len = 0, best_len = 0, since = 0;
        double best_now = now;
        memset(locked, 0, (size_t)nb);
        while (len < max_steps && since < DB_PATIENCE) {
            /* The busiest processor (the first of them), if above target. */
            int lp = 0;
            for (int l = 1; l < np; l++)
                if (c.deg[l] > c.deg[lp]) lp = l;
            if (c.deg[lp] <= target) break;
            int best_u = -1, best_q = -1, best_v = -1, p = procs[lp];
            double best_dx = 0;
            /* p's blocks at its border, and the node's blocks beside p. */
            int nbd = 0, ncand = 0;
            for (int i = 0; i < nb; i++) {
                int u = blocks[i], at_p = map[u] == p, border = 0, beside = 0;
                if (locked[i]) continue;
                for (int j = g->nbr_off[u]; j < g->nbr_off[u + 1]; j++) {
                    int w = map[g->nbr[j]];
                    border |= w != map[u];
                    beside |= w == p;
                }
                if (at_p && border) bd[nbd++] = u;
                if (!at_p && beside) cand[ncand++] = u;
            }
            /* Each border block's move to each processor, each block beside
             * p's move to p, priced on the two processors alone; a swap of
             * two that do not touch is the sum (exact where the links
             * between alike processors cost alike; the step taken is priced
             * exactly), of two that touch tried in full. */
            for (int j = 0; j < ncand; j++) single(&c, cand[j], p, &sv[2 * j], &sv[2 * j + 1]);
            for (int i = 0; i < nbd; i++) {
                int u = bd[i];
                int64_t *su = sq + 2 * (size_t)np * i;
                for (int lq = 0; lq < np; lq++)
                    if (lq != lp) single(&c, u, procs[lq], &su[2 * lq], &su[2 * lq + 1]);
                for (int h = g->nbr_off[u]; h < g->nbr_off[u + 1]; h++) mark[g->nbr[h]] = 1;
                for (int j = -np; j < ncand; j++) {
                    int v = j < 0 ? -1 : cand[j], q = j < 0 ? procs[j + np] : map[v], lq = c.local[q];
                    if (j < 0 && (q == p || count[lq] + 1 > cap[lq])) continue;
                    double dx;
                    if (v >= 0 && mark[v]) {
                        trial(&c, u, q, v);
                        dx = change(&c, target);
                        untrial(&c);
                    } else {
                        int64_t dp = su[2 * lq], dq = su[2 * lq + 1];
                        if (v >= 0) dp += sv[2 * j + 1], dq += sv[2 * j];
                        dx = value(c.deg[lp] + dp, target) - value(c.deg[lp], target) + value(c.deg[lq] + dq, target) -
                             value(c.deg[lq], target);
                    }
                    if (best_u < 0 || dx < best_dx) best_u = u, best_q = q, best_v = v, best_dx = dx;
                }
                for (int h = g->nbr_off[u]; h < g->nbr_off[u + 1]; h++) mark[g->nbr[h]] = 0;
            }
            if (best_u < 0) break;
            trial(&c, best_u, best_q, best_v);
            best_dx = change(&c, target);
            untrial(&c);
            apply(&c, count, best_u, best_q, best_v);
            log_u[len] = best_u, log_q[len] = p, log_v[len] = best_v;
            locked[pos[best_u]] = 1;
            if (best_v >= 0) locked[pos[best_v]] = 1;
            len++;
            now += best_dx;
            if (now < best_now - 1e-6) best_now = now, best_len = len, since = 0;
            else since++;
        }
        /* Back to the best prefix. */
        while (len > best_len) {
            len--;
            apply(&c, count, log_u[len], log_q[len], log_v[len]);
        }
        now = best_now;
        steps += best_len;
        if (best_len == 0) break;
    }
    for (int l = 0; l < np; l++)
        if (c.deg[l] > *high) *high = c.deg[l];
    free(c.local);
    free(c.deg);
    free(c.delta);
    free(c.touched);
    free(count);
    free(cand);
    free(bd);
    free(log_u);
    free(log_q);
    free(log_v);
    free(pos);
    free(locked);
    free(mark);
    free(sv);
    free(sq);
    for (int d = 0; d < 2; d++) free(c.kq[d]), free(c.kcells[d]);
    return steps;
}
