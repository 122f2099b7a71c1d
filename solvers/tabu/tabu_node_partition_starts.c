/* tabu_node_partition_starts.c - node-level partitions of the block grid
 * as tabu's starts where inter-node links are expensive (issue 38 item 2).
 *
 * Where communication dominates, the node count and the shapes of the
 * nodes' pieces decide the energy. rcb -nodes K is one domain
 * decomposition: halves at the node boundary nearest the middle, across
 * the longest axis, the counts cut inside a plane wherever the shares do
 * not fall on whole planes. These starts, for each K of the node starts'
 * ladder that sm_node_starts passes on (those whose rcb -nodes K start is
 * within SM_NODE_PARTITION_GATE of the best start):
 *   1. choose the guillotine cut tree of least cut area (the axis and
 *      the node split, uneven ones too, at every level: a search over
 *      boxes of continuous extent, memoised), e.g. 6 nodes in 16^3 as two
 *      halves each cut in three like a T;
 *   2. realise it on the blocks: at each cut the region's blocks sorted
 *      across the axis, the count its nodes' speed share, or rounded to
 *      whole planes or rows where the nodes' capacities at the deadline
 *      allow (each partial plane costs cut), its partial plane filled
 *      along either of the other axes;
 *   3. where the counts are the shares, refine the node parts by moving
 *      boundary blocks between NODES (Fiduccia-Mattheyses: the move of
 *      most link energy saved first, each node within a balance limit,
 *      the best prefix of each pass kept, as KaMinPar's and Mt-KaHyPar's
 *      FM refiners do at the partition's level); whole planes or rows
 *      leave it nothing to smooth;
 *   4. lay each node's blocks on its processors by bisection: its
 *      processors of least energy a cell first, each to what it computes
 *      by the deadline (node_counts), the next only for the rest; where
 *      the layout passes the deadline by its rounds alone, swap blocks
 *      among each node's processors until its busiest one's degree fits
 *      (node_layout_degree_balance.c).
 * The NP_EVALS variants of least node cut are evaluated whole; each K's
 * best (lowered first by tabu's compound step where its rounds alone pass
 * the deadline) is offered like every start, so nothing changes where
 * they lose. One K is one item of a parallel loop and the items are
 * offered in order: the same starts for any number of threads. On
 * bench_comm_nodes the winners are whole-plane variants: 8 nodes x150,
 * 688 node pairs on 6 nodes where rcb -nodes 6 cuts 730. 32 nodes x150:
 * the 12 nodes that hold the grid at the deadline needed 564 rounds
 * against 540 laid out by speed, 540 after the swaps (17.79 J against
 * 18.29 on 14 nodes). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/threads.h"
#include "core/model/processor_time_energy.h"
#include "node_layout_degree_balance.h"
#include "tabu_node_partition_starts.h"
#include "tabu_rounds_descent.h"

/* ---- 1. The cut tree: least cut area over boxes of continuous extent. */

typedef struct {
    int a, b;               /* node count, speed share (1e-6) */
    long long q[3];         /* extents, quantised */
    double cost;
    int axis, k1, used;
} plan_entry;

typedef struct {
    const sm_solver *s;
    int K, n;
    const int *xyz;         /* 3 coordinates a block */
    double *speed;          /* a node's speed (blocks per second), K */
    double total_speed;     /* of the K nodes */
    double *cap;            /* blocks a node computes by the deadline, K */
    double *pspeed, *pcap;  /* the same per processor, P */
    int *nproc_off, *nproc; /* node k's processors: nproc[nproc_off[k]..] */
    int64_t *W;             /* K x K link energy per halo cell, scaled */
    uint64_t *scratch;      /* 2 n, for sorting */
    plan_entry *memo;
    int memo_cap, memo_n;
} np_ctx;

/* Node splits tried for k nodes: the halves, the thirds and the small
 * pieces (a T is 1 | 2), each with its complement. */
static int splits(int k, int *k1)
{
    int cand[] = {k / 2, (k + 1) / 2, k / 3, (k + 2) / 3, 1, 2, 3}, m = 0;
    /* Small pieces only where they are a good share of the box. */
    int ncand = k <= NP_SMALL_PIECES_UPTO ? 7 : 4;
    for (int i = 0; i < ncand; i++) {
        int v[2] = {cand[i], k - cand[i]};
        for (int j = 0; j < 2; j++) {
            if (v[j] < 1 || v[j] >= k) continue;
            int seen = 0;
            for (int l = 0; l < m; l++) seen |= k1[l] == v[j];
            if (!seen) k1[m++] = v[j];
        }
    }
    /* Ascending, so ties go the same way whatever the list above. */
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && k1[j - 1] > k1[j]; j--) {
            int t = k1[j]; k1[j] = k1[j - 1]; k1[j - 1] = t;
        }
    return m;
}

static double range_speed(const np_ctx *c, int a, int b)
{
    double v = 0;
    for (int k = a; k < b; k++) v += c->speed[k];
    return v;
}

static double plan(np_ctx *c, int a, int b, const double d[3], int *axis_out, int *k1_out);

/* The cost of cutting box d of nodes [a, b) across axis at k1 nodes, the
 * two sides planned best. */
static double plan_cut(np_ctx *c, int a, int b, const double d[3], int axis, int k1)
{
    double f = range_speed(c, a, a + k1) / range_speed(c, a, b);
    double d1[3] = {d[0], d[1], d[2]}, d2[3] = {d[0], d[1], d[2]};
    d1[axis] = d[axis] * f;
    d2[axis] = d[axis] * (1 - f);
    int x, y;
    return d[(axis + 1) % 3] * d[(axis + 2) % 3] + plan(c, a, a + k1, d1, &x, &y) + plan(c, a + k1, b, d2, &x, &y);
}

static unsigned long long plan_hash(int k, long long share, const long long q[3])
{
    unsigned long long h = (unsigned long long)k * 0x9e3779b97f4a7c15ull ^ (unsigned long long)share * 0xc2b2ae3d27d4eb4full;
    for (int i = 0; i < 3; i++) h = (h ^ (unsigned long long)q[i]) * 0x100000001b3ull;
    return h;
}

/* Least cut area of box d holding nodes [a, b), and the first cut's axis
 * and node split. Memoised on the node count, the nodes' speed share (to
 * 1e-6) and the extents sorted (to 1/4 block): alike nodes and boxes
 * turned about share one entry. When the table is full, the rest is
 * planned as halves across the longest axis (bounded work). */
static double plan(np_ctx *c, int a, int b, const double d[3], int *axis_out, int *k1_out)
{
    *axis_out = 0;
    *k1_out = 1;
    int k = b - a;
    if (k <= 1) return 0;
    /* Axes sorted by extent (ties by index): perm[i] is the i-th. */
    int perm[3] = {0, 1, 2};
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && d[perm[j - 1]] > d[perm[j]]; j--) {
            int t = perm[j]; perm[j] = perm[j - 1]; perm[j - 1] = t;
        }
    long long q[3], share = llround(range_speed(c, a, b) / c->total_speed * 1e6);
    for (int i = 0; i < 3; i++) q[i] = llround(d[perm[i]] * 4);
    unsigned long long h = plan_hash(k, share, q);
    int slot = (int)(h % (unsigned long long)c->memo_cap);
    for (;;) {
        plan_entry *e = &c->memo[slot];
        if (!e->used) break;
        if (e->a == k && e->b == share && e->q[0] == q[0] && e->q[1] == q[1] && e->q[2] == q[2]) {
            *axis_out = perm[e->axis];
            *k1_out = e->k1;
            return e->cost;
        }
        slot = (slot + 1) % c->memo_cap;
    }
    double best = INFINITY;
    if (c->memo_n * 2 >= c->memo_cap) {
        *axis_out = perm[2];
        *k1_out = k / 2;
        return plan_cut(c, a, b, d, perm[2], k / 2);
    }
    int k1s[16], m = splits(k, k1s);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < m; j++) {
            double v = plan_cut(c, a, b, d, perm[i], k1s[j]);
            if (v < best - 1e-9) {
                best = v;
                *axis_out = perm[i];
                *k1_out = k1s[j];
            }
        }
    /* The slot found empty above may have been filled by the recursion. */
    if (c->memo_n * 2 < c->memo_cap) {
        slot = (int)(h % (unsigned long long)c->memo_cap);
        while (c->memo[slot].used) slot = (slot + 1) % c->memo_cap;
        plan_entry *e = &c->memo[slot];
        e->used = 1;
        e->a = k;
        e->b = (int)share;
        memcpy(e->q, q, sizeof q);
        e->cost = best;
        for (int i = 0; i < 3; i++)
            if (perm[i] == *axis_out) e->axis = i;
        e->k1 = *k1_out;
        c->memo_n++;
    }
    return best;
}

/* ---- 2. Realising a cut tree on the blocks. */

/* blocks[0..nb) sorted by coordinate ax[0], then ax[1], then ax[2]:
 * keys are the block's index in that axis order (distinct, below the
 * grid's blocks), sorted by one counting pass per 8 bits of the largest
 * key (LSD radix; scratch of 2 nb). */
static void sort_by_axes(const int *xyz, const int *dims, const int ax[3], int *blocks, int nb, uint64_t *scratch)
{
    uint64_t *a = scratch, *b = scratch + nb;
    uint64_t kmax = 0;
    for (int i = 0; i < nb; i++) {
        const int *p = xyz + 3 * (size_t)blocks[i];
        uint64_t key = ((uint64_t)p[ax[0]] * (uint64_t)dims[ax[1]] + (uint64_t)p[ax[1]]) * (uint64_t)dims[ax[2]] + (uint64_t)p[ax[2]];
        if (key > kmax) kmax = key;
        a[i] = key << 32 | (uint32_t)blocks[i];
    }
    for (int shift = 32; shift < 64 && (kmax >> (shift - 32)) > 0; shift += 8) {
        size_t cnt[257] = {0};
        for (int i = 0; i < nb; i++) cnt[(a[i] >> shift & 255) + 1]++;
        for (int d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
        for (int i = 0; i < nb; i++) b[cnt[a[i] >> shift & 255]++] = a[i];
        uint64_t *t = a; a = b; b = t;
    }
    for (int i = 0; i < nb; i++) blocks[i] = (int)(uint32_t)a[i];
}

static void bbox(const int *xyz, const int *blocks, int nb, int lo[3], int hi[3])
{
    for (int a = 0; a < 3; a++) lo[a] = 1 << 30, hi[a] = -1;
    for (int i = 0; i < nb; i++) {
        const int *p = xyz + 3 * (size_t)blocks[i];
        for (int a = 0; a < 3; a++) {
            if (p[a] < lo[a]) lo[a] = p[a];
            if (p[a] > hi[a]) hi[a] = p[a];
        }
    }
}

/* A realisation: round 0 takes the speed share, 1 whole planes else whole
 * rows where the capacities allow; sec picks which other axis fills a
 * partial plane first; the root's cut may be given (root_axis >= 0). */
typedef struct {
    int round, sec, root_axis, root_k1;
} variant;

static void realize(np_ctx *c, int *blocks, int nb, int a, int b, const variant *v, int top, int *part)
{
    if (b - a <= 1 || nb == 0) {
        for (int i = 0; i < nb; i++) part[blocks[i]] = a;
        return;
    }
    int lo[3], hi[3];
    bbox(c->xyz, blocks, nb, lo, hi);
    double d[3];
    for (int i = 0; i < 3; i++) d[i] = hi[i] - lo[i] + 1;
    int axis, k1;
    plan(c, a, b, d, &axis, &k1);
    if (top && v->root_axis >= 0) axis = v->root_axis, k1 = v->root_k1;
    int s1 = (axis + 1) % 3, s2 = (axis + 2) % 3;
    if (v->sec) { int t = s1; s1 = s2; s2 = t; }
    int ax[3] = {axis, s1, s2};
    sort_by_axes(c->xyz, c->s->grid->spec.blocks, ax, blocks, nb, c->scratch);
    double share = range_speed(c, a, a + k1) / range_speed(c, a, b);
    double target = nb * share;
    double cap1 = 0, cap2 = 0;
    for (int k = a; k < b; k++) {
        if (k < a + k1) cap1 += c->cap[k];
        else cap2 += c->cap[k];
    }
    double lo1 = nb - cap2, hi1 = cap1;
    int n1 = (int)lround(target);
    if (v->round) {
        double plane = d[s1] * d[s2], row = d[s1];
        double p = llround(target / plane) * plane, r = llround(target / row) * row;
        if (p > 0 && p < nb && p >= lo1 && p <= hi1) n1 = (int)p;
        else if (r > 0 && r < nb && r >= lo1 && r <= hi1) n1 = (int)r;
    }
    if (n1 < 0) n1 = 0;
    if (n1 > nb) n1 = nb;
    realize(c, blocks, n1, a, a + k1, v, 0, part);
    realize(c, blocks + n1, nb - n1, a + k1, b, v, 0, part);
}

/* ---- 3. Boundary refinement between nodes (FM). */

typedef struct {
    int64_t g;
    int u, to, stamp;
} hent;

typedef struct {
    hent *h;
    int n, cap;
} heap;

static int hless(const hent *x, const hent *y) /* x below y: y pops first */
{
    if (x->g != y->g) return x->g < y->g;
    if (x->u != y->u) return x->u > y->u;
    return x->to > y->to;
}

static void hpush(heap *H, hent e)
{
    if (H->n == H->cap) {
        H->cap = H->cap ? 2 * H->cap : 1024;
        H->h = sm_xrealloc(H->h, sizeof(hent) * (size_t)H->cap);
    }
    int i = H->n++;
    while (i > 0 && hless(&H->h[(i - 1) / 2], &e)) {
        H->h[i] = H->h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    H->h[i] = e;
}

static hent hpop(heap *H)
{
    hent top = H->h[0], last = H->h[--H->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        const hent *mv = &last;
        if (l < H->n && hless(mv, &H->h[l])) m = l, mv = &H->h[l];
        if (r < H->n && hless(mv, &H->h[r])) m = r;
        if (m == i) break;
        H->h[i] = H->h[m];
        i = m;
    }
    if (H->n) H->h[i] = last;
    return top;
}

typedef struct {
    int *part, *count, *hi, *stamp, *from;
    unsigned char *locked;
    int *moved;
    heap H;
} fm_state;

/* The best move of block u to another node holding a neighbour, within
 * that node's limit: the link energy it saves (scaled) in *g. */
static int best_move(const np_ctx *c, const fm_state *f, int u, int64_t *g)
{
    const sm_grid *gr = c->s->grid;
    int own = f->part[u], K = c->K, best = -1;
    int nb[64], nn = 0;
    int64_t w[64];
    for (int i = gr->inc_off[u]; i < gr->inc_off[u + 1]; i++) {
        const sm_edge *e = &gr->edges[gr->inc[i]];
        int v = e->src == u ? e->dst : e->src, pv = f->part[v], j = 0;
        while (j < nn && nb[j] != pv) j++;
        if (j == nn) {
            if (nn == 64) continue;
            nb[nn] = pv;
            w[nn++] = 0;
        }
        w[j] += e->cells;
    }
    int64_t cost_own = 0;
    for (int j = 0; j < nn; j++) cost_own += w[j] * c->W[(size_t)own * K + nb[j]];
    for (int j = 0; j < nn; j++) {
        int to = nb[j];
        if (to == own || f->count[to] + 1 > f->hi[to]) continue;
        int64_t cost = 0;
        for (int l = 0; l < nn; l++) cost += w[l] * c->W[(size_t)to * K + nb[l]];
        int64_t gain = cost_own - cost;
        if (best < 0 || gain > *g || (gain == *g && to < best)) best = to, *g = gain;
    }
    return best;
}

static void push_move(const np_ctx *c, fm_state *f, int u)
{
    int64_t g;
    int to = best_move(c, f, u, &g);
    f->stamp[u]++;
    if (to >= 0) hpush(&f->H, (hent){g, u, to, f->stamp[u]});
}

/* Passes of single-block moves, the best gain first, each block once a
 * pass; the pass's best prefix kept; until a pass saves nothing. */
static void refine(const np_ctx *c, fm_state *f)
{
    const sm_grid *gr = c->s->grid;
    int n = c->n, limit = 64 + n / 64;
    for (int pass = 0; pass < NP_FM_PASSES; pass++) {
        f->H.n = 0;
        memset(f->locked, 0, (size_t)n);
        for (int u = 0; u < n; u++) push_move(c, f, u);
        int64_t sum = 0, best = 0;
        int len = 0, bestlen = 0, since = 0;
        while (f->H.n > 0 && since < limit) {
            hent e = hpop(&f->H);
            int u = e.u;
            if (e.stamp != f->stamp[u] || f->locked[u]) continue;
            int64_t g;
            int to = best_move(c, f, u, &g);
            if (to < 0) continue;
            if (to != e.to || g != e.g) {
                f->stamp[u]++;
                hpush(&f->H, (hent){g, u, to, f->stamp[u]});
                continue;
            }
            f->from[len] = f->part[u];
            f->moved[len++] = u;
            f->count[f->part[u]]--;
            f->count[to]++;
            f->part[u] = to;
            f->locked[u] = 1;
            sum += g;
            if (sum > best) best = sum, bestlen = len, since = 0;
            else since++;
            for (int i = gr->inc_off[u]; i < gr->inc_off[u + 1]; i++) {
                const sm_edge *ed = &gr->edges[gr->inc[i]];
                int v = ed->src == u ? ed->dst : ed->src;
                if (!f->locked[v]) push_move(c, f, v);
            }
        }
        while (len > bestlen) {
            int u = f->moved[--len];
            f->count[f->part[u]]--;
            f->count[f->from[len]]++;
            f->part[u] = f->from[len];
        }
        if (best <= 0) break;
    }
}

/* ---- 4. A node's blocks on its processors. */

/* Energy a cell adds on p while the makespan stays put (as the
 * consolidating starts price it): dynamic, and static instead of idle. */
static double cell_marginal(const sm_topo *t, int p)
{
    const sm_params *q = sm_topo_proc_params(t, p);
    return q->energy_per_cell + (q->p0 - q->p_idle) * q->time_per_cell;
}

/* nb blocks shared among procs[0..np) by speed, each within its
 * capacity where they fit (cnt: whole blocks, the remainders to the
 * largest fractions, ties to the first); only the processors with
 * use[i] set take any. Returns the blocks left over (none fit). */
static int share_by_speed(const np_ctx *c, const int *procs, int np, const unsigned char *use, int nb, int *cnt)
{
    unsigned char *full = sm_xcalloc((size_t)np, 1);
    double *frac = sm_xmalloc(sizeof(double) * (size_t)np);
    int left = nb;
    for (int round = 0; round < np && left > 0; round++) {
        double sp = 0;
        for (int i = 0; i < np; i++)
            if (use[i] && !full[i]) sp += c->pspeed[procs[i]];
        if (!(sp > 0)) break;
        int given = 0, clamped = 0;
        for (int i = 0; i < np; i++) {
            frac[i] = -1;
            if (!use[i] || full[i]) continue;
            double want = left * c->pspeed[procs[i]] / sp;
            int add = (int)floor(want);
            frac[i] = want - add;
            cnt[i] += add;
            given += add;
        }
        for (int r = left - given; r > 0; r--) {
            int at = -1;
            for (int i = 0; i < np; i++)
                if (frac[i] >= 0 && (at < 0 || frac[i] > frac[at])) at = i;
            if (at < 0) break;
            cnt[at]++;
            given++;
            frac[at] = -1;
        }
        left -= given;
        /* Past a capacity: clamp, and share what came off again. */
        for (int i = 0; i < np; i++) {
            int cap = (int)fmin(c->pcap[procs[i]], (double)INT32_MAX);
            if (use[i] && !full[i] && cnt[i] >= cap) {
                left += cnt[i] - cap;
                cnt[i] = cap;
                full[i] = 1;
                clamped = 1;
            }
        }
        if (!clamped) break;
    }
    free(full);
    free(frac);
    return left;
}

/* A node's blocks per processor: its processors of least energy a cell
 * first (alike ones by speed), each to its capacity at the deadline,
 * the next only for what is left: the search empties the dearer ones
 * (summit-like's POWER9s, 3.8x a V100's energy a cell) where the others
 * hold the node's share, so a start that has them busy loses to one of
 * more nodes. Past every capacity, by speed over all. */
static void node_counts(const np_ctx *c, const int *procs, int np, int nb, int *cnt)
{
    unsigned char *use = sm_xmalloc((size_t)np), *done = sm_xcalloc((size_t)np, 1);
    memset(cnt, 0, sizeof(int) * (size_t)np);
    int left = nb;
    while (left > 0) {
        int first = -1;
        for (int i = 0; i < np; i++)
            if (!done[i] && (first < 0 || cell_marginal(c->s->topo, procs[i]) < cell_marginal(c->s->topo, procs[first])))
                first = i;
        if (first < 0) break;
        double m = cell_marginal(c->s->topo, procs[first]);
        for (int i = 0; i < np; i++) {
            use[i] = !done[i] && cell_marginal(c->s->topo, procs[i]) == m;
            done[i] |= use[i];
        }
        left = share_by_speed(c, procs, np, use, left, cnt);
    }
    if (left > 0) {
        /* Speed shares of the rest, capacities aside. */
        double sp = 0;
        for (int i = 0; i < np; i++) sp += c->pspeed[procs[i]];
        int given = 0;
        for (int i = 0; i < np && sp > 0; i++) {
            int add = (int)floor(left * c->pspeed[procs[i]] / sp);
            cnt[i] += add;
            given += add;
        }
        for (int i = 0; given < left; i = (i + 1) % np, given++) cnt[i]++;
    }
    free(use);
    free(done);
}

/* Bisection of a node's blocks across the longest axis: each half of
 * the processors takes its processors' counts (cnt). */
static void lay_out(np_ctx *c, int *blocks, int nb, const int *procs, int np, const int *cnt, int *map)
{
    if (np == 1 || nb == 0) {
        for (int i = 0; i < nb; i++) map[blocks[i]] = procs[0];
        return;
    }
    int h = np / 2, k1 = 0;
    for (int i = 0; i < h; i++) k1 += cnt[i];
    if (k1 > nb) k1 = nb;
    int lo[3], hi[3];
    bbox(c->xyz, blocks, nb, lo, hi);
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    int ax[3] = {axis, (axis + 1) % 3, (axis + 2) % 3};
    sort_by_axes(c->xyz, c->s->grid->spec.blocks, ax, blocks, nb, c->scratch);
    lay_out(c, blocks, k1, procs, h, cnt, map);
    lay_out(c, blocks + k1, nb - k1, procs + h, np - h, cnt + h, map);
}

/* ---- The starts of one K. */

typedef struct {
    const sm_solver *s;
    const int *ks;
    int nk;
    int *maps;              /* nk x n: each K's best, or map[0] = -1 */
    const int *xyz;
    const double *pspeed, *pcap;
    const int *nproc_off, *nproc;
    int repair_steps;
} np_batch;

/* Evaluation of map, lowered by the compound step first where its rounds
 * alone pass the deadline (into map): which is better is kept. */
static void judge(const sm_solver *s, int *map, sm_eval *ev, int repair_steps)
{
    sm_solver_evaluate(s, map, ev);
    if (ev->feasible || !ev->memory_ok || !(ev->comm_time > ev->comp_time) || !(ev->comp_time <= s->model.deadline))
        return;
    sm_cost *c = sm_cost_new_figures(s->grid, s->topo, &s->model, map);
    if (sm_rounds_repair(c, &s->model, repair_steps) > 0) {
        sm_eval r;
        sm_solver_evaluate(s, c->map, &r);
        if (sm_eval_compare(&r, ev) < 0) {
            memcpy(map, c->map, sizeof(int) * (size_t)s->grid->ntasks);
            *ev = r;
        }
    }
    sm_cost_free(c);
}

static void run_k(int i, void *arg)
{
    np_batch *bt = arg;
    const sm_solver *s = bt->s;
    const sm_topo *t = s->topo;
    int n = s->grid->ntasks, K = bt->ks[i];
    int *out = bt->maps + (size_t)i * n;
    out[0] = -1;
    np_ctx c = {s, K, n, bt->xyz, NULL, 0, NULL, (double *)bt->pspeed, (double *)bt->pcap,
                (int *)bt->nproc_off, (int *)bt->nproc, NULL, NULL, NULL, 0, 0};
    c.speed = sm_xcalloc((size_t)K, sizeof(double));
    c.cap = sm_xcalloc((size_t)K, sizeof(double));
    for (int k = 0; k < K; k++)
        for (int j = c.nproc_off[k]; j < c.nproc_off[k + 1]; j++) {
            c.speed[k] += c.pspeed[c.nproc[j]];
            c.cap[k] += c.pcap[c.nproc[j]];
        }
    c.total_speed = range_speed(&c, 0, K);
    for (int k = 0; k < K; k++)
        if (c.nproc_off[k + 1] == c.nproc_off[k] || !(c.speed[k] > 0)) {
            free(c.speed);
            free(c.cap);
            return; /* a node without processors: rcb's starts only */
        }
    /* Link energy per cell between nodes, in 1/1024 of the dearest
     * (integer gains: every sum exact, whatever the order). W <= 1024,
     * a halo < 2^31 cells, 26 neighbours and NP_MAX_BLOCKS blocks keep
     * every gain, pass and cut below 2^63 (review 48 F2: scaled by the cheapest, a level
     * near free made W ~1e9 and the sums overflow). Levels below 1/2048
     * of the dearest count as free here (the evaluation sees them). */
    double *wd = sm_xmalloc(sizeof(double) * (size_t)K * K), wmax = 0;
    for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++) {
            double tpc, epc = 0;
            if (a != b) sm_topo_link(t, c.nproc[c.nproc_off[a]], c.nproc[c.nproc_off[b]], &tpc, &epc);
            wd[(size_t)a * K + b] = epc;
            if (epc > wmax) wmax = epc;
        }
    c.W = sm_xmalloc(sizeof(int64_t) * (size_t)K * K);
    for (size_t j = 0; j < (size_t)K * K; j++) c.W[j] = wmax > 0 && isfinite(wmax) ? llround(wd[j] / wmax * 1024) : 0;
    free(wd);
    c.scratch = sm_xmalloc(sizeof(uint64_t) * 2 * (size_t)n);
    c.memo_cap = 1 << 16;
    c.memo = sm_xcalloc((size_t)c.memo_cap, sizeof(plan_entry));

    /* The root's cuts within 2 % of the least (at most NP_ROOTS). */
    const int *B = s->grid->spec.blocks;
    double d[3] = {B[0], B[1], B[2]};
    int k1s[16], m = splits(K, k1s), nroot = 0, ra[NP_ROOTS], rk[NP_ROOTS];
    double rv[NP_ROOTS], least = INFINITY, vals[48];
    for (int axis = 0; axis < 3; axis++)
        for (int j = 0; j < m; j++) {
            vals[axis * m + j] = plan_cut(&c, 0, K, d, axis, k1s[j]);
            if (vals[axis * m + j] < least) least = vals[axis * m + j];
        }
    for (int axis = 0; axis < 3; axis++)
        for (int j = 0; j < m; j++) {
            double v = vals[axis * m + j];
            if (v > least * 1.02 + 1e-9) continue;
            int at = nroot < NP_ROOTS ? nroot++ : NP_ROOTS;
            if (at == NP_ROOTS) {
                if (!(v < rv[NP_ROOTS - 1])) continue;
                at = NP_ROOTS - 1;
            }
            while (at > 0 && rv[at - 1] > v) {
                rv[at] = rv[at - 1], ra[at] = ra[at - 1], rk[at] = rk[at - 1];
                at--;
            }
            rv[at] = v, ra[at] = axis, rk[at] = k1s[j];
        }

    int *blocks = sm_xmalloc(sizeof(int) * (size_t)n), *map = sm_xmalloc(sizeof(int) * (size_t)n);
    fm_state f = {0};
    f.part = sm_xmalloc(sizeof(int) * (size_t)n);
    f.stamp = sm_xcalloc((size_t)n, sizeof(int));
    f.from = sm_xmalloc(sizeof(int) * (size_t)n);
    f.moved = sm_xmalloc(sizeof(int) * (size_t)n);
    f.locked = sm_xmalloc((size_t)n);
    f.count = sm_xmalloc(sizeof(int) * (size_t)K);
    f.hi = sm_xmalloc(sizeof(int) * (size_t)K);
    int *off = sm_xmalloc(sizeof(int) * (size_t)(K + 1)), *fill = sm_xmalloc(sizeof(int) * (size_t)K);
    sm_eval best;
    int have = 0;
    double total_speed = c.total_speed;
    /* The rounds the deadline allows where they overlap the compute (the
     * busiest processor's degree is their floor), else none (-1). */
    int64_t rounds_target = -1;
    if (s->model.has_deadline && s->model.overlap && s->model.round_time > 0)
        rounds_target = (int64_t)floor(s->model.deadline * (1 + 1e-9) / s->model.round_time + 1e-9);
    int *pcap_int = sm_xmalloc(sizeof(int) * (size_t)t->nprocs), *cnt = sm_xmalloc(sizeof(int) * (size_t)t->nprocs);
    /* Every variant's node parts and cut first; then the NP_EVALS of
     * least cut (within NP_SCREEN of the least, duplicates once) laid
     * out and evaluated: an evaluation is most of a variant's cost. */
    /* Past NP_FULL_VARIANTS_BLOCKS the least root cut alone, its partial
     * planes along one axis: a realisation costs a sort a tree level. */
    int nsec = 2;
    if (n > NP_FULL_VARIANTS_BLOCKS) nroot = nroot < 1 ? nroot : 1, nsec = 1;
    int nvar = nroot * 2 * nsec;
    unsigned char *parts = sm_xmalloc((size_t)nvar * (size_t)n);
    int64_t *cuts = sm_xmalloc(sizeof(int64_t) * (size_t)nvar);
    int *order = sm_xmalloc(sizeof(int) * (size_t)nvar);
    for (int i = 0; i < nvar; i++) {
        variant v = {i / nsec % 2, i % nsec, ra[i / (2 * nsec)], rk[i / (2 * nsec)]};
        for (int u = 0; u < n; u++) blocks[u] = u;
        realize(&c, blocks, n, 0, K, &v, 1, f.part);
        memset(f.count, 0, sizeof(int) * (size_t)K);
        for (int u = 0; u < n; u++) f.count[f.part[u]]++;
        /* Each node within its speed share plus NP_BALANCE (or what it
         * holds already), never past its capacity. */
        for (int k = 0; k < K; k++) {
            double lim = ceil(n * c.speed[k] / total_speed * (1 + NP_BALANCE));
            if (lim > c.cap[k]) lim = floor(c.cap[k]);
            f.hi[k] = f.count[k] > lim ? f.count[k] : (int)lim;
        }
        /* Whole planes or rows leave no partial plane to smooth. */
        if (!v.round) refine(&c, &f);
        int64_t cut = 0;
        for (int e = 0; e < s->grid->nedges; e++) {
            const sm_edge *ed = &s->grid->edges[e];
            cut += ed->cells * c.W[(size_t)f.part[ed->src] * K + f.part[ed->dst]];
        }
        cuts[i] = cut;
        for (int u = 0; u < n; u++) parts[(size_t)i * n + u] = (unsigned char)f.part[u];
        int at = i;
        while (at > 0 && cuts[order[at - 1]] > cut) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    for (int j = 0, evals = 0; j < nvar && evals < NP_EVALS; j++) {
        int i = order[j];
        const unsigned char *pt = parts + (size_t)i * n;
        if ((double)cuts[i] > (double)cuts[order[0]] * (1 + NP_SCREEN)) break;
        int dup = 0;
        for (int l = 0; l < j && !dup; l++)
            dup = cuts[order[l]] == cuts[i] && memcmp(parts + (size_t)order[l] * n, pt, (size_t)n) == 0;
        if (dup) continue;
        evals++;
        /* Each node's blocks, in block order, laid out. */
        memset(off, 0, sizeof(int) * (size_t)(K + 1));
        for (int u = 0; u < n; u++) off[pt[u] + 1]++;
        for (int k = 0; k < K; k++) off[k + 1] += off[k];
        memcpy(fill, off, sizeof(int) * (size_t)K);
        for (int u = 0; u < n; u++) blocks[fill[pt[u]]++] = u;
        for (int k = 0; k < K; k++) {
            int npk = c.nproc_off[k + 1] - c.nproc_off[k], *pr = c.nproc + c.nproc_off[k];
            node_counts(&c, pr, npk, off[k + 1] - off[k], cnt);
            lay_out(&c, blocks + off[k], off[k + 1] - off[k], pr, npk, cnt, map);
        }
        sm_eval ev;
        sm_solver_evaluate(s, map, &ev);
        /* Past the deadline by its rounds alone: each node's surface
         * shared among its processors so that they fit, if they can. */
        if (rounds_target >= 0 && !ev.feasible && ev.memory_ok && ev.comm_time > ev.comp_time &&
            ev.comp_time <= s->model.deadline) {
            int steps = 0;
            for (int k = 0; k < K; k++) {
                int *kb = blocks + off[k], nn = off[k + 1] - off[k], *pr = c.nproc + c.nproc_off[k];
                int npk = c.nproc_off[k + 1] - c.nproc_off[k];
                for (int j = 0; j < npk; j++) pcap_int[j] = (int)(c.pcap[pr[j]] < n ? c.pcap[pr[j]] : n);
                int64_t high = 0;
                steps += sm_node_degree_balance(s->grid, t, &s->model, map, kb, nn, pr, npk, pcap_int, rounds_target, nn, &high);
                if (high > rounds_target) break; /* the rounds stay past the deadline */
            }
            if (steps > 0) sm_solver_evaluate(s, map, &ev);
        }
        if (!have || sm_eval_compare(&ev, &best) < 0) {
            best = ev;
            have = 1;
            memcpy(out, map, sizeof(int) * (size_t)n);
        }
    }
    free(parts);
    free(cuts);
    free(order);
    free(pcap_int);
    free(cnt);
    if (have) judge(s, out, &best, bt->repair_steps);
    free(off);
    free(fill);
    free(blocks);
    free(map);
    free(f.part);
    free(f.stamp);
    free(f.from);
    free(f.moved);
    free(f.locked);
    free(f.count);
    free(f.hi);
    free(f.H.h);
    free(c.memo);
    free(c.scratch);
    free(c.W);
    free(c.speed);
    free(c.cap);
}

int sm_node_partition_starts(sm_solver *s, const int *ks, int nk, int repair_steps)
{
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    int n = g->ntasks, P = t->nprocs, offered = 0;
    if (n == 0 || nk == 0 || n > NP_MAX_BLOCKS) return 0;
    if (s->interrupt && *s->interrupt) return 0;
    /* K up to NP_MAX_NODES (a K x K table of link energies each). */
    int kmax = 0, *kk = sm_xmalloc(sizeof(int) * (size_t)nk), nkk = 0;
    for (int i = 0; i < nk; i++)
        if (ks[i] >= 2 && ks[i] <= NP_MAX_NODES && ks[i] <= t->nnodes) {
            kk[nkk++] = ks[i];
            if (ks[i] > kmax) kmax = ks[i];
        }
    if (nkk == 0) {
        free(kk);
        return 0;
    }
    ks = kk;
    nk = nkk;
    double cells = 0;
    for (int u = 0; u < n; u++) cells += (double)g->task_cells[u];
    double avg = cells / n;
    double *pspeed = sm_xmalloc(sizeof(double) * (size_t)P), *pcap = sm_xmalloc(sizeof(double) * (size_t)P);
    for (int p = 0; p < P; p++) {
        double bt = sm_proc_block_time(t, p, avg);
        pspeed[p] = bt > 0 ? 1.0 / bt : 0;
        /* Blocks p computes by the deadline (no deadline: no limit). */
        pcap[p] = s->model.has_deadline && bt > 0 ? floor(s->model.deadline * (1 + 1e-9) / bt) : (double)n;
        const sm_params *q = sm_topo_proc_params(t, p);
        if (q->memory > 0 && q->bytes_per_cell > 0 && avg > 0 && floor(q->memory / q->bytes_per_cell / avg) < pcap[p])
            pcap[p] = floor(q->memory / q->bytes_per_cell / avg);
    }
    int *nproc_off = sm_xcalloc((size_t)kmax + 1, sizeof(int)), *nproc = sm_xmalloc(sizeof(int) * (size_t)P), np = 0;
    for (int k = 0; k < kmax; k++) {
        nproc_off[k] = np;
        for (int p = 0; p < P; p++)
            if (t->procs[p].node == k) nproc[np++] = p;
    }
    nproc_off[kmax] = np;
    int *xyz = sm_xmalloc(sizeof(int) * 3 * (size_t)n);
    for (int u = 0; u < n; u++) sm_grid_coords(g, u, xyz + 3 * (size_t)u);
    int *maps = sm_xmalloc(sizeof(int) * (size_t)nk * (size_t)n);
    np_batch b = {s, ks, nk, maps, xyz, pspeed, pcap, nproc_off, nproc, repair_steps};
    sm_parallel_for(sm_solver_threads(s), nk, run_k, &b);
    for (int i = 0; i < nk; i++) {
        int *map = maps + (size_t)i * n;
        if (map[0] < 0) continue;
        sm_eval ev;
        sm_solver_evaluate(s, map, &ev);
        sm_solver_offer(s, map, &ev);
        offered++;
    }
    free(maps);
    free(kk);
    free(xyz);
    free(nproc);
    free(nproc_off);
    free(pspeed);
    free(pcap);
    return offered;
}
