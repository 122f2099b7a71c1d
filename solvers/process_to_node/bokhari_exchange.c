/* bokhari_exchange.c - Bokhari's pairwise exchange (SPEC 4) from the sweep curve:
 * one step takes one block and exchanges it with the partner of best gain
 * (zero-gain exchanges taken, so plateaus are crossed); gains are
 * incremental, O(degree) per candidate. A pass over all blocks without a
 * better best is a stall; after each stall -jumps random exchanges shake the
 * mapping; -stall stalls in a row end the search. The best is kept.
 *
 * -variant published is Bokhari's MAPPER as Besmer lists it: every
 * partner tried, only improving exchanges, passes while any exchange
 * happens; at a local optimum one jump of n random exchanges from the
 * best, and the search ends when a round after a jump finds no better
 * best. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sfc_mapping.h"
#include "core/lib/fast_remainder.h"
#include "core/model/speed_proportional_quota.h"
#include "core/traffic/solver_objectives.h"
#include "solvers/stepper/solver_stepper.h"

typedef struct {
    sm_objective *obj;
    sm_objective_kind kind;
    unsigned long long rng;
    int *best;
    double best_score;
    /* Blocks the current mapping changed since best was last brought up
     * to it (repeats allowed): a new best copies those, not the whole
     * mapping (that copy per improvement was O(n): 16 ms a step at
     * summit-full). Past changed_cap entries (the blocks, at most
     * CHANGED_MAX), a whole copy. */
    int *changed, nchanged, changed_cap;
    int next;           /* block examined by the next step */
    int stalls, improved_in_pass;
    long long exchanges, jumps_done;
    /* Large instances (more blocks than -window): partners are the blocks
     * on nodes next to u's neighbours' nodes, plus a few at random. */
    int windowed;
    /* node a -> the nodes at distance 1, ascending, as runs of
     * consecutive nodes (runs adj_off[a]..adj_off[a + 1] - 1, run r from
     * run_lo[r], run_len[r] nodes; adj_len[a] nodes in all): a board or a
     * switch's nodes are one run, so the lists stay small enough for the
     * cache (4096 HAEC nodes: 8 MB as plain lists, ~0.2 MB as runs). */
    int *adj_off, *adj_len, *run_lo, *run_len;
    int *run_pos;           /* run r's first node's place in its node's list */
    int *np_off, *np;       /* node -> its processors */
    int *occ;               /* processor -> a block on it, or -1 */
    int *node_one;          /* node of one processor -> occ of it; -2: another count */
    int C;                  /* -candidates */
    int *cand, *seen, epoch;
    double *cand_delta;     /* the step's partners' deltas, scored in one call */
    /* Random draws reduced without a division (fast_remainder.h, the
     * same numbers): modulo each node's adjacent count, the block count,
     * and "1 in k" for the k-th tied partner. */
    sm_fastmod *adj_mod, n_mod;
    sm_divides *tie;
    int ntie;
    int dirty;          /* best not yet handed to the stepper */
    int published, exchanged_in_pass;
    long long rounds;
    double best_before_jump;
    long long since_push; /* steps since the best was last handed over */
    long long push_every; /* steps between handovers mid-pass (push_steps) */
} bokhari_state;

static const sm_opt_spec bokhari_opts[] = {
    {"objective", SM_OPT_ENUM, "cardinality", SM_OBJ_NAMES, 0, 0,
     "what an exchange must improve (cardinality: higher is better)"},
    {"jumps", SM_OPT_INT, "2", NULL, 0, 1e9, "random exchanges after a stalled pass"},
    {"stall", SM_OPT_INT, "0", NULL, 0, 1e9,
     "stalled passes in a row that end the search (0: 50, or 10 above -window)"},
    {"window", SM_OPT_INT, "256", NULL, 0, 1e9,
     "up to this many blocks every partner is tried; above, the blocks next to the neighbours' nodes"},
    {"candidates", SM_OPT_INT, "16", NULL, 1, 1e6,
     "windowed: nodes sampled per neighbour and random partners per step"},
    {"seed", SM_OPT_INT, "1", NULL, 0, 9.2e18, "random seed for the jumps"},
    {"variant", SM_OPT_ENUM, "default", "default|published", 0, 0,
     "published: Bokhari's MAPPER (improving exchanges only, jumps of n exchanges, stop when a round finds no better best)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static void publish(sm_solver *s, bokhari_state *st)
{
    sm_solver_set_stat(s, "objective_value", sm_objective_value(st->obj));
    sm_solver_set_stat(s, "best_value", st->kind == SM_OBJ_CARDINALITY ? -st->best_score
                                                                        : st->best_score);
    sm_solver_set_stat(s, "exchanges", (double)st->exchanges);
    sm_solver_set_stat(s, "jumps", (double)st->jumps_done);
    sm_solver_set_stat(s, "stalls", st->stalls);
    s->current_map = sm_objective_map(st->obj);
}

#define CHANGED_MAX 65536

/* Steps between two handovers of the best inside a pass. A handover is a
 * whole evaluation, O(blocks + edges) at ~22 ns each, and a windowed step
 * costs ~9 us (bench_stepper, 1 M blocks): every (blocks + edges) / 32
 * steps keeps it near a tenth of the run (summit-full: ~2 M steps, ~19 s).
 * Counted in steps, not seconds, so the same steps give the same best on
 * every run and replay; at least 4096, so small grids hand over at their
 * pass ends only. */
static long long push_steps(const sm_grid *g)
{
    long long h = ((long long)g->ntasks + g->nedges) / 32;
    return h > 4096 ? h : 4096;
}

static void note_changed(bokhari_state *st, int b)
{
    /* Saturates past the cap: best_is_current then copies the whole map. */
    if (st->nchanged <= st->changed_cap) {
        if (st->nchanged < st->changed_cap) st->changed[st->nchanged] = b;
        st->nchanged++;
    }
}

/* The current mapping is the new best: best brought up to it. */
static void best_is_current(const sm_solver *s, bokhari_state *st)
{
    const int *map = sm_objective_map(st->obj);
    if (st->nchanged > st->changed_cap) memcpy(st->best, map, sizeof(int) * (size_t)s->grid->ntasks);
    else
        for (int i = 0; i < st->nchanged; i++) st->best[st->changed[i]] = map[st->changed[i]];
    st->nchanged = 0;
}

/* Exchanges and moves that tell the stepper which blocks they moved, so
 * the recorded step compares those and not the whole mapping. */
static void swap_blocks(sm_solver *s, bokhari_state *st, int a, int b)
{
    const int *map = sm_objective_map(st->obj);
    if (a == b || map[a] == map[b]) return;
    sm_objective_swap(st->obj, a, b);
    sm_solver_moved(s, a);
    sm_solver_moved(s, b);
    note_changed(st, a);
    note_changed(st, b);
}

/* The shaken mapping back to the best before a jump. */
static void back_to_best(sm_solver *s, bokhari_state *st)
{
    const int *map = sm_objective_map(st->obj);
    for (int u = 0; u < s->grid->ntasks; u++)
        if (map[u] != st->best[u]) {
            sm_objective_move(st->obj, u, st->best[u]);
            sm_solver_moved(s, u);
            note_changed(st, u);
        }
}

static void rebuild_occ(sm_solver *s, bokhari_state *st)
{
    const int *map = sm_objective_map(st->obj);
    for (int p = 0; p < s->topo->nprocs; p++) st->occ[p] = -1;
    for (int u = 0; u < s->grid->ntasks; u++) st->occ[map[u]] = u;
    for (int a = 0; a < s->topo->nnodes; a++)
        st->node_one[a] = st->np_off[a + 1] - st->np_off[a] == 1 ? st->occ[st->np[st->np_off[a]]] : -2;
}

/* Block v now on processor p (a partner's place: occ and its node's). */
static void set_occ(const sm_solver *s, bokhari_state *st, int p, int v)
{
    st->occ[p] = v;
    int a = s->topo->procs[p].node;
    if (st->node_one[a] != -2) st->node_one[a] = v;
}

/* Nodes b .. b + n - 1 next to a (after those added before). */
static void add_adjacent_run(bokhari_state *st, size_t *m, size_t *cap, int a, int b, int n)
{
    if (n <= 0) return;
    st->adj_len[a] += n;
    if (*m > (size_t)st->adj_off[a] && st->run_lo[*m - 1] + st->run_len[*m - 1] == b) {
        st->run_len[*m - 1] += n;
        return;
    }
    if (*m == *cap) {
        *cap *= 2;
        st->run_lo = sm_xrealloc(st->run_lo, sizeof(int) * *cap);
        st->run_len = sm_xrealloc(st->run_len, sizeof(int) * *cap);
    }
    st->run_lo[*m] = b;
    st->run_len[(*m)++] = n;
}

static void add_adjacent(bokhari_state *st, size_t *m, size_t *cap, int a, int b)
{
    add_adjacent_run(st, m, cap, a, b, 1);
}

/* Node a's distance-1 nodes from the network's runs, ascending, each
 * once (the order the table gives: partners are drawn by position). */
static void add_runs(bokhari_state *st, size_t *m, size_t *cap, const sm_net *net, int a, int N)
{
    int lo[SM_NET_ADJ_RUNS], len[SM_NET_ADJ_RUNS];
    int k = net->ops->adjacent(net, a, N, lo, len, SM_NET_ADJ_RUNS);
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && lo[j] < lo[j - 1]; j--) {
            int x = lo[j]; lo[j] = lo[j - 1]; lo[j - 1] = x;
            x = len[j]; len[j] = len[j - 1]; len[j - 1] = x;
        }
    int next = 0; /* nodes below it are in */
    for (int i = 0; i < k; i++) {
        int b = lo[i] > next ? lo[i] : next, end = lo[i] + len[i];
        if (a >= b && a < end) { /* never, by the op's contract */
            add_adjacent_run(st, m, cap, a, b, a - b);
            b = a + 1;
        }
        add_adjacent_run(st, m, cap, a, b, end - b);
        if (end > next) next = end;
    }
}

/* Node adjacency: from the network's runs (coordinates), else from the
 * objective's distance-1 table when it has one, else from the network's
 * distance (O(nodes^2) calls, once). */
static void build_windows(sm_solver *s, bokhari_state *st)
{
    const sm_topo *t = s->topo;
    const sm_net *net = t->net;
    const sm_node_adjacency *na = sm_objective_node_adjacency(st->obj);
    int N = t->nnodes, P = t->nprocs;
    st->np_off = sm_xcalloc((size_t)N + 1, sizeof(int));
    st->np = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    for (int p = 0; p < P; p++) st->np_off[t->procs[p].node + 1]++;
    for (int a = 0; a < N; a++) st->np_off[a + 1] += st->np_off[a];
    int *fill = sm_xcalloc((size_t)N + 1, sizeof(int));
    for (int p = 0; p < P; p++) {
        int a = t->procs[p].node;
        st->np[st->np_off[a] + fill[a]++] = p;
    }
    free(fill);
    size_t cap = (size_t)N * 4 + 16, m = 0;
    st->run_lo = sm_xmalloc(sizeof(int) * cap);
    st->run_len = sm_xmalloc(sizeof(int) * cap);
    st->adj_off = sm_xmalloc(sizeof(int) * ((size_t)N + 1));
    st->adj_len = sm_xcalloc((size_t)N + 1, sizeof(int));
    for (int a = 0; a < N; a++) {
        st->adj_off[a] = (int)m;
        if (net->ops->adjacent) {
            add_runs(st, &m, &cap, net, a, N);
            continue;
        }
        if (na) {
            /* The table's set bits in order: a word at a time. */
            for (size_t wi = 0; wi < na->words; wi++)
                for (uint64_t x = sm_node_adjacency_word(na, a, wi); x; x &= x - 1) {
                    int b = (int)(wi * 64 + (size_t)__builtin_ctzll(x));
                    if (b != a && b < N) add_adjacent(st, &m, &cap, a, b);
                }
            continue;
        }
        for (int b = 0; b < N; b++) {
            if (b == a || net->ops->distance(net, a, b) != 1) continue;
            add_adjacent(st, &m, &cap, a, b);
        }
    }
    st->adj_off[N] = (int)m;
    st->run_pos = sm_xmalloc(sizeof(int) * (m ? m : 1));
    for (int a = 0; a < N; a++)
        for (int r = st->adj_off[a], pos = 0; r < st->adj_off[a + 1]; pos += st->run_len[r++]) st->run_pos[r] = pos;
    st->adj_mod = sm_xmalloc(sizeof *st->adj_mod * (size_t)(N ? N : 1));
    for (int a = 0; a < N; a++) st->adj_mod[a] = sm_fastmod_of(st->adj_len[a] ? (uint64_t)st->adj_len[a] : 1);
    st->n_mod = sm_fastmod_of((uint64_t)s->grid->ntasks);
    st->occ = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    st->node_one = sm_xmalloc(sizeof(int) * (size_t)(N ? N : 1));
    st->C = (int)sm_opt_int(s, "candidates");
    st->cand = sm_xmalloc(sizeof(int) * ((size_t)s->grid->ntasks + 1)); /* add_cand writes one past the last */
    st->seen = sm_xcalloc((size_t)s->grid->ntasks, sizeof(int));
    st->cand_delta = sm_xmalloc(sizeof(double) * ((size_t)s->grid->ntasks + 1));
    rebuild_occ(s, st);
}

/* The i-th node next to node a: its run found by counting the runs
 * that start at or before i (no branch on i: the draws are random). */
static int adjacent_at(const bokhari_state *st, int a, int i)
{
    int r0 = st->adj_off[a], r1 = st->adj_off[a + 1], r = r0;
    for (int j = r0 + 1; j < r1; j++) r += i >= st->run_pos[j];
    return st->run_lo[r] + i - st->run_pos[r];
}

/* The texts of a step (its move, why, its best candidates), written
 * without printf: a step here takes ~2 us, and seven formatted prints a
 * step were a fifth of it. Each writes what snprintf with the same
 * format would, cut to the buffer. */
typedef struct {
    char *p;
    size_t cap, len;
} text;

static text text_at(char *p, size_t cap)
{
    p[0] = 0;
    return (text){p, cap, 0};
}

static void put_s(text *t, const char *s)
{
    size_t n = strlen(s), room = t->cap - 1 - t->len;
    if (n > room) n = room;
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
}

static void put_i(text *t, long long v)
{
    char d[24];
    int n = 0;
    unsigned long long x = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do d[n++] = (char)('0' + x % 10); while (x /= 10);
    if (v < 0) d[n++] = '-';
    char r[24];
    for (int i = 0; i < n; i++) r[i] = d[n - 1 - i];
    r[n] = 0;
    put_s(t, r);
}

/* %+g: integers below 1e6 as digits, others through snprintf. */
static void put_signed_g(text *t, double v)
{
    if (v == floor(v) && fabs(v) < 1e6) {
        put_s(t, signbit(v) ? "-" : "+");
        put_i(t, (long long)fabs(v));
        return;
    }
    char b[40];
    snprintf(b, sizeof b, "%+g", v);
    put_s(t, b);
}

static unsigned rnd(bokhari_state *st, const sm_fastmod *n)
{
    return (unsigned)sm_fastmod_rem(n, sm_rand_next(&st->rng));
}

/* v once (no branch on whether it was seen: partners repeat at random). */
static void add_cand(bokhari_state *st, int *nc, int v, int stamp)
{
    if (v < 0) return;
    int fresh = st->seen[v] != stamp;
    st->seen[v] = stamp;
    st->cand[*nc] = v;
    *nc += fresh;
}

/* Whether the k-th tied partner replaces the one kept (k >= 1): a draw
 * divisible by k, as sm_rand_next % k == 0. */
static int tie_wins(bokhari_state *st, int k)
{
    if (k > st->ntie) {
        int cap = st->ntie ? 2 * st->ntie : 256;
        while (cap < k) cap *= 2;
        st->tie = sm_xrealloc(st->tie, sizeof *st->tie * (size_t)cap);
        for (int i = st->ntie; i < cap; i++) st->tie[i] = sm_divides_of((uint64_t)i + 1);
        st->ntie = cap;
    }
    return sm_divides_test(&st->tie[k - 1], sm_rand_next(&st->rng));
}

/* Partners for u: blocks on processors of nodes next to u's neighbours'
 * nodes (a sample of -candidates when there are more), and -candidates
 * blocks at random. */
static int windowed_partners(sm_solver *s, bokhari_state *st, int u)
{
    const sm_grid *g = s->grid;
    const int *map = sm_objective_map(st->obj);
    int C = st->C, nc = 0, stamp = ++st->epoch;
    for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
        int a = s->topo->procs[map[g->nbr[k]]].node;
        int len = st->adj_len[a];
        for (int i = 0; i < (len < C ? len : C); i++) {
            int b = adjacent_at(st, a, len <= C ? i : (int)rnd(st, &st->adj_mod[a]));
            /* One processor a node (HAEC): its block without the lists. */
            if (st->node_one[b] != -2) add_cand(st, &nc, st->node_one[b], stamp);
            else
                for (int j = st->np_off[b]; j < st->np_off[b + 1]; j++)
                    add_cand(st, &nc, st->occ[st->np[j]], stamp);
        }
    }
    for (int i = 0; i < C; i++) add_cand(st, &nc, (int)rnd(st, &st->n_mod), stamp);
    return nc;
}

static int bokhari_init(sm_solver *s, sm_err *e)
{
    bokhari_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    int n = s->grid->ntasks;
    sm_objective_parse(sm_opt_str(s, "objective"), &st->kind);
    if (sm_objective_memory_check(s->grid, s->topo, st->kind, 1, "bokhari", e)) return -1;
    st->rng = (unsigned long long)sm_opt_int(s, "seed") * 0x9e3779b97f4a7c15ull + 1;
    int *map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    if (sm_curve_map(s->grid, s->topo, SM_CURVE_SWEEP, 1, SM_CURVE_SWEEP, SM_SPEEDS_EXACT,
                     map, e)) {
        free(map);
        return -1;
    }
    st->obj = sm_objective_new(s->grid, s->topo, &s->model, st->kind, map);
    st->best = map;
    st->best_score = sm_objective_score(st->obj);
    st->push_every = push_steps(s->grid);
    st->changed_cap = n < CHANGED_MAX ? (n ? n : 1) : CHANGED_MAX;
    st->changed = sm_xmalloc(sizeof(int) * (size_t)st->changed_cap);
    sm_solver_set_best(s, map);
    s->moves_known = 1;
    st->published = strcmp(sm_opt_str(s, "variant"), "published") == 0;
    st->windowed = !st->published && n > sm_opt_int(s, "window");
    if (st->windowed) build_windows(s, st);
    publish(s, st);
    if (n < 2) sm_solver_finish_with(s, map);
    return 0;
}

static long long stall_limit(const sm_solver *s, const bokhari_state *st)
{
    long long v = sm_opt_int(s, "stall");
    return v ? v : st->windowed ? 10 : 50;
}

/* Published: passes while exchanges happen; at a local optimum a jump of
 * n random exchanges from the best, unless the round since the last jump
 * found no better best. */
static void end_pass_published(sm_solver *s, bokhari_state *st)
{
    int n = s->grid->ntasks;
    if (st->exchanged_in_pass) { st->exchanged_in_pass = 0; return; }
    if (st->rounds > 0 && !(st->best_score < st->best_before_jump - 1e-12)) {
        snprintf(s->last_move, sizeof s->last_move, "round %lld found no better best: %g kept", st->rounds,
                 st->kind == SM_OBJ_CARDINALITY ? -st->best_score : st->best_score);
        publish(s, st);
        sm_solver_finish_with(s, st->best);
        return;
    }
    st->best_before_jump = st->best_score;
    st->rounds++;
    back_to_best(s, st);
    for (int j = 0; j < n; j++) {
        int a = (int)(sm_rand_next(&st->rng) % (unsigned)n);
        int b = (int)(sm_rand_next(&st->rng) % (unsigned)n);
        swap_blocks(s, st, a, b);
        st->jumps_done++;
    }
    sm_solver_set_stat(s, "rounds", (double)st->rounds);
}

static void end_pass(sm_solver *s, bokhari_state *st)
{
    int n = s->grid->ntasks;
    if (st->published) { end_pass_published(s, st); return; }
    if (st->improved_in_pass) st->stalls = 0;
    else if (++st->stalls >= stall_limit(s, st)) {
        /* The best's value, not the shaken mapping's now. */
        snprintf(s->last_move, sizeof s->last_move, "stalled %d passes: best %g kept",
                 st->stalls, st->kind == SM_OBJ_CARDINALITY ? -st->best_score : st->best_score);
        sm_solver_why(s, "stall limit: %d passes without a better best, so the search ends", st->stalls);
        publish(s, st);
        sm_solver_finish_with(s, st->best);
        return;
    }
    st->improved_in_pass = 0;
    /* Jumps start from the best mapping, so a shake never loses it. */
    back_to_best(s, st);
    long long jumps = sm_opt_int(s, "jumps");
    sm_solver_why(s, "end of a pass: random jump of %lld random exchanges from the best", jumps);
    for (long long j = 0; j < jumps; j++) {
        int a = (int)(sm_rand_next(&st->rng) % (unsigned)n);
        int b = (int)(sm_rand_next(&st->rng) % (unsigned)n);
        swap_blocks(s, st, a, b);
        st->jumps_done++;
    }
    if (st->windowed) rebuild_occ(s, st);
}

static void bokhari_step(sm_solver *s)
{
    bokhari_state *st = s->priv;
    int n = s->grid->ntasks;
    int u = st->next;
    double best = 0;
    int partner = -1, zpartner = -1, zeros = 0;
    const int *map = sm_objective_map(st->obj);
    int nc = st->windowed ? windowed_partners(s, st, u) : n;
    if (st->windowed) sm_objective_swap_deltas(st->obj, u, st->cand, nc, st->cand_delta);
    /* The step's best exchanges, for `solver explain`. */
    double topd[SM_EXPLAIN_CANDS];
    int topv[SM_EXPLAIN_CANDS], ntop = 0;
    for (int i = 0; i < nc; i++) {
        int v = st->windowed ? st->cand[i] : i;
        if (v == u || map[v] == map[u]) continue;
        double d = st->windowed ? st->cand_delta[i] : sm_objective_swap_delta(st->obj, u, v);
        int at = ntop;
        while (at > 0 && d < topd[at - 1]) at--;
        if (at < SM_EXPLAIN_CANDS) {
            for (int j = ntop < SM_EXPLAIN_CANDS ? ntop : SM_EXPLAIN_CANDS - 1; j > at; j--)
                topd[j] = topd[j - 1], topv[j] = topv[j - 1];
            topd[at] = d, topv[at] = v;
            if (ntop < SM_EXPLAIN_CANDS) ntop++;
        }
        if (d < best - 1e-12) {
            best = d;
            partner = v;
        } else if (!st->published && partner < 0 && d > -1e-12 && d < 1e-12 &&
                   tie_wins(st, ++zeros)) {
            zpartner = v; /* uniform among the zero-gain partners */
        }
    }
    double sgn = st->kind == SM_OBJ_CARDINALITY ? -1 : 1, now = sm_objective_value(st->obj);
    for (int i = 0; i < ntop; i++)
        sm_solver_candidate_exchange(s, u, map[u], topv[i], map[topv[i]], now + sgn * topd[i], sgn * topd[i], 0);
    text why = text_at(s->explain.why, sizeof s->explain.why);
    if (partner >= 0) {
        put_s(&why, "improving exchange: the partner of block ");
        put_i(&why, u);
        put_s(&why, " that improves the objective most");
    } else {
        put_s(&why, "no exchange of block ");
        put_i(&why, u);
        put_s(&why, zpartner >= 0 ? " improves: a random one that keeps the objective"
                                  : " improves or keeps the objective");
    }
    if (partner < 0) partner = zpartner, best = 0;
    text mvt = text_at(s->last_move, sizeof s->last_move);
    if (partner >= 0) {
        if (st->windowed) {
            set_occ(s, st, map[u], partner);
            set_occ(s, st, map[partner], u);
        }
        swap_blocks(s, st, u, partner);
        st->exchanges++;
        st->exchanged_in_pass = 1;
        put_s(&mvt, "exchange blocks ");
        put_i(&mvt, u);
        put_s(&mvt, " and ");
        put_i(&mvt, partner);
        put_s(&mvt, " (");
        put_signed_g(&mvt, st->kind == SM_OBJ_CARDINALITY ? -best : best);
        put_s(&mvt, ")");
    } else {
        put_s(&mvt, "block ");
        put_i(&mvt, u);
        put_s(&mvt, ": no exchange");
    }
    double sc = sm_objective_score(st->obj);
    if (sc < st->best_score - 1e-12) {
        st->best_score = sc;
        best_is_current(s, st);
        st->improved_in_pass = 1;
        st->dirty = 1;
    }
    /* Evaluating a mapping under the energy model costs O(E): hand the best
     * over at every pass end and every push_every steps, not per exchange. */
    st->since_push++;
    if (st->dirty && (st->next + 1 == n || st->since_push >= st->push_every)) {
        sm_solver_set_best(s, st->best);
        st->dirty = 0;
        st->since_push = 0;
    }
    publish(s, st);
    if (++st->next == n) {
        st->next = 0;
        end_pass(s, st);
    }
}

static void bokhari_release(sm_solver *s)
{
    bokhari_state *st = s->priv;
    if (!st) return;
    sm_objective_free(st->obj);
    free(st->best);
    free(st->changed);
    free(st->adj_off);
    free(st->adj_len);
    free(st->run_lo);
    free(st->run_len);
    free(st->run_pos);
    free(st->np_off);
    free(st->np);
    free(st->occ);
    free(st->node_one);
    free(st->cand);
    free(st->seen);
    free(st->cand_delta);
    free(st->adj_mod);
    free(st->tie);
    free(st);
}

const sm_solver_ops sm_solver_bokhari = {
    "bokhari", "Bokhari's pairwise exchange from the sweep curve, with random jumps",
    bokhari_opts, bokhari_init, bokhari_step, bokhari_release, NULL,
};
