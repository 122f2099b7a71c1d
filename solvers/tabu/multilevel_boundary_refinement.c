/* multilevel_boundary_refinement.c - boundary refinement (see multilevel_boundary_refinement.h). Only improving moves
 * are taken, so it never cycles; a pass visits the blocks around the
 * previous pass's moves.
 *
 * A step is one synchronous round over a chunk of the queue (the
 * deterministic scheme of Mt-KaHyPar and KaMinPar): every block of the
 * chunk proposes its best move against the mapping as the chunk began,
 * side by side (sm_refine_set_threads; each worker on its own cost state,
 * scoring inside a trial so a score depends on the mapping only); then,
 * in queue order, each proposal is scored again against the mapping as
 * it now is and taken if it still improves. The proposals and the order
 * do not depend on the workers, so the result is the same for any
 * number of threads. */
#include "multilevel_boundary_refinement.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/huge_pages.h"
#include "core/lib/threads.h"
#include "core/model/speed_proportional_quota.h"
#include "core/model/processor_time_energy.h"

/* Violation: processors past memory, then how far every processor is
 * past its memory and the deadline (late(), summed: over), then the
 * makespan past the deadline.
 * Energy: as if the run lasted the whole deadline - idle power is then
 * paid up to the deadline whatever the makespan, so filling a fast,
 * efficient processor up to the deadline pays, which single moves cannot
 * see when many processors share the makespan (each would raise it
 * alone). The caller judges the mappings it keeps by the true energy
 * (multilevel_tabu.c offers each level's), so nothing is lost to this. */
static sm_refine_score score_of(const sm_model *m, const sm_cost *c, const sm_eval *ev, double over)
{
    sm_refine_score r;
    r.violation = (double)c->mem_over;
    r.energy = ev->energy;
    r.violation += over;
    if (m->has_deadline) {
        if (ev->time > m->deadline * (1 + 1e-9)) r.violation += (ev->time - m->deadline) / m->deadline;
        else
            r.energy += (m->deadline - ev->time) * (m->unused_idle ? c->pidle_all : c->pidle_used);
    }
    r.time = ev->time;
    return r;
}

/* How far processor p is past its limits, relative to them: compute time
 * past the deadline and cells past its memory. Summed over processors it
 * falls with every block moved off an overloaded processor, where counts
 * of overloaded processors and the makespan stay flat. */
static double late(const sm_cost *c, const sm_model *m, int p)
{
    double x = 0;
    if (m->has_deadline) {
        double t, e;
        sm_proc_work(c->topo, p, c->blocks[p], c->cells[p], &t, &e);
        if (t > m->deadline) x += (t - m->deadline) / m->deadline;
    }
    if (c->mem_cells[p] >= 0 && c->cells[p] > c->mem_cells[p])
        x += (double)(c->cells[p] - c->mem_cells[p]) / (double)(c->mem_cells[p] ? c->mem_cells[p] : 1);
    return x;
}

static int better(const sm_refine_score *a, const sm_refine_score *b)
{
    if (a->violation < b->violation - 1e-15) return 1;
    if (a->violation > b->violation + 1e-15) return 0;
    double tol = 1e-12 * (fabs(a->energy) + fabs(b->energy));
    if (a->energy < b->energy - tol) return 1;
    if (a->energy > b->energy + tol) return 0;
    return a->time < b->time * (1 - 1e-12);
}

static int is_boundary(const sm_grid *g, const int *map, int u)
{
    for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++)
        if (map[g->nbr[k]] != map[u]) return 1;
    return 0;
}

/* A pass's queue is found a range of blocks at a time, side by side:
 * range i's boundary blocks written from its own start in the queue
 * (never more than the range holds), its marks cleared, then the ranges
 * moved together in order: the queue of one pass over the grid. */
#define QUEUE_RANGE 16384

typedef struct {
    sm_refine *r;
    int first;
    int *count;
} queue_job;

static void queue_range(int i, int worker, void *arg)
{
    (void)worker;
    queue_job *j = arg;
    sm_refine *r = j->r;
    const sm_grid *g = r->grid;
    int lo = i * QUEUE_RANGE, hi = lo + QUEUE_RANGE < g->ntasks ? lo + QUEUE_RANGE : g->ntasks, k = lo;
    for (int u = lo; u < hi; u++) {
        if (!j->first && !r->next[u]) continue;
        if (is_boundary(g, r->c->map, u)) r->queue[k++] = u;
    }
    memset(r->next + lo, 0, (size_t)(hi - lo));
    j->count[i] = k - lo;
}

/* The next pass's queue: every boundary block on the first pass, then
 * the marked ones (around last pass's moves), in random order. */
static void fill_queue(sm_refine *r, int first)
{
    const sm_grid *g = r->grid;
    int n = g->ntasks, nranges = (n + QUEUE_RANGE - 1) / QUEUE_RANGE;
    int *count = sm_xmalloc(sizeof(int) * (size_t)(nranges ? nranges : 1));
    queue_job j = {r, first, count};
    sm_pool_for(r->pool, nranges, queue_range, &j);
    r->nqueue = 0;
    for (int i = 0; i < nranges; i++) {
        memmove(r->queue + r->nqueue, r->queue + (size_t)i * QUEUE_RANGE, sizeof(int) * (size_t)count[i]);
        r->nqueue += count[i];
    }
    free(count);
    for (int i = r->nqueue - 1; i > 0; i--) {
        int j = (int)(sm_rand_next(r->rng) % (unsigned long long)(i + 1));
        int t = r->queue[i];
        r->queue[i] = r->queue[j];
        r->queue[j] = t;
    }
    r->qpos = 0;
    r->pass_moves = 0;
}

/* The best move of block u found so far, against the current score. */
typedef struct {
    int q;
    sm_refine_score sc;
    double over;
} refine_pick;

/* Moves u to q on cost state c inside a trial begun here, and scores the
 * result; *over: the lateness it would leave. The caller undoes or keeps
 * it (try_move, try_move_keep). */
static sm_refine_score trial_move(const sm_refine *r, sm_cost *c, int u, int q, double *over)
{
    const sm_model *m = r->model;
    int from = c->map[u];
    double before = late(c, m, from) + late(c, m, q);
    sm_cost_trial_begin(c);
    sm_cost_move(c, u, q);
    *over = r->over - before + late(c, m, from) + late(c, m, q);
    sm_eval ev;
    sm_cost_eval_fast(c, &ev);
    return score_of(m, c, &ev, *over);
}

/* Scores moving u to q on cost state c (at the mapping r refines; undone
 * inside the trial, so c comes back bit for bit) and keeps it in pick if
 * better. */
static void try_move(const sm_refine *r, sm_cost *c, int u, int q, refine_pick *pick)
{
    int from = c->map[u];
    double over;
    sm_refine_score sc = trial_move(r, c, u, q, &over);
    sm_cost_move(c, u, from);
    sm_cost_trial_end(c);
    if (better(&sc, &pick->sc)) {
        pick->sc = sc;
        pick->q = q;
        pick->over = over;
    }
}

/* The screen: most tried moves lose, and a move applied and undone
 * through the cost model pays twice for every edge of the block (pair
 * lookups, heaps). While the mapping meets the deadline and memory with
 * nothing late (the usual state once a level starts), a move's score
 * follows from the block's own edges and the two processors: energy
 * changes by the work's and the cut edges' energy (idle is paid up to the
 * deadline, score_of), and it stays feasible while the new processor's
 * time and memory and every changed degree stay within the deadline.
 * screen_block gathers block u's edges once; screen_says_no rejects a
 * move only when that estimate is infeasible or clearly worse than the
 * pick (beyond 1e-9 relative, far above the rounding of either sum), so
 * every move the full evaluation could take is still tried in full:
 * the refinement takes the same moves as without the screen. */
int sm_refine_screen = 1;

#define SCREEN_EDGES 64
typedef struct {
    int on, n, from;
    int pw[SCREEN_EDGES], out[SCREEN_EDGES];
    int64_t cells[SCREEN_EDGES];
    double leave;                 /* cut energy of u's edges on `from` */
    int nd, dp[2 * SCREEN_EDGES + 2];
    int64_t dd[2 * SCREEN_EDGES + 2]; /* degree changes of leaving `from` */
} screen;

static void add_degree(int *nd, int *dp, int64_t *dd, int p, int64_t k)
{
    for (int i = 0; i < *nd; i++)
        if (dp[i] == p) {
            dd[i] += k;
            return;
        }
    dp[*nd] = p;
    dd[(*nd)++] = k;
}

/* The cut energy of u's edges were u on processor p (p's degree changes,
 * signed by s, into dp/dd). */
static double cut_energy(const sm_cost *c, const screen *sc, int p, int s, int *nd, int *dp, int64_t *dd)
{
    double e = 0;
    for (int i = 0; i < sc->n; i++) {
        int w = sc->pw[i];
        if (w == p) continue;
        double tpc, epc;
        if (sc->out[i]) sm_topo_link(c->topo, p, w, &tpc, &epc);
        else sm_topo_link(c->topo, w, p, &tpc, &epc);
        e += (double)sc->cells[i] * epc;
        int64_t k = sm_quanta((double)sc->cells[i] * tpc, c->model.round_time);
        add_degree(nd, dp, dd, p, s * k);
        add_degree(nd, dp, dd, w, s * k);
    }
    return e;
}

static int profiled(const sm_cost *c, int p) { return c->topo->types[c->topo->procs[p].type].nprofile > 0; }

static void screen_block(const sm_refine *r, const sm_cost *c, int u, screen *sc)
{
    const sm_model *m = r->model;
    const sm_grid *g = r->grid;
    sc->on = 0;
    if (!sm_refine_screen || !m->has_deadline || !m->overlap || m->rounds == SM_ROUNDS_VIZING || r->sc.violation != 0 || r->over != 0)
        return;
    sc->from = c->map[u];
    if (profiled(c, sc->from)) return;
    sc->n = g->inc_off[u + 1] - g->inc_off[u];
    if (sc->n > SCREEN_EDGES) return;
    for (int i = 0; i < sc->n; i++) {
        const sm_edge *ed = &g->edges[g->inc[g->inc_off[u] + i]];
        sc->out[i] = ed->src == u;
        sc->pw[i] = c->map[sc->out[i] ? ed->dst : ed->src];
        sc->cells[i] = ed->cells;
    }
    sc->nd = 0;
    sc->leave = cut_energy(c, sc, sc->from, -1, &sc->nd, sc->dp, sc->dd);
    sc->on = 1;
}

static int screen_says_no(const sm_refine *r, const sm_cost *c, int u, const screen *sc, int q,
                          const refine_pick *pick)
{
    if (!sc->on || profiled(c, q)) return 0;
    const sm_model *m = r->model;
    int a = sc->from;
    int64_t d = r->grid->task_cells[u];
    /* q's time and memory: late() past rounding is a violation. */
    double t, e;
    sm_proc_work(c->topo, q, c->blocks[q] + 1, c->cells[q] + d, &t, &e);
    if (t > m->deadline * (1 + 1e-14)) return 1;
    if (c->mem_cells[q] >= 0 && c->cells[q] + d > c->mem_cells[q]) return 1;
    /* Every degree that grows: rounds past the deadline. */
    int nd = sc->nd, dp[2 * SCREEN_EDGES + 2];
    int64_t dd[2 * SCREEN_EDGES + 2];
    memcpy(dp, sc->dp, sizeof(int) * (size_t)nd);
    memcpy(dd, sc->dd, sizeof(int64_t) * (size_t)nd);
    double join = cut_energy(c, sc, q, +1, &nd, dp, dd);
    double limit = m->deadline * (1 + 1e-9);
    for (int i = 0; i < nd; i++)
        if (dd[i] > 0 && (double)(c->deg[dp[i]] + dd[i]) * m->round_time > limit) return 1;
    /* The score's energy (score_of: idle paid up to the deadline). */
    double dcomp_a = c->tpc[a] * (double)d, dcomp_q = c->tpc[q] * (double)d;
    double de = (c->epc[q] - c->epc[a]) * (double)d + c->p0[q] * dcomp_q - c->p0[a] * dcomp_a -
                (c->pidle[q] * dcomp_q - c->pidle[a] * dcomp_a) + join - sc->leave;
    if (!m->unused_idle)
        de += m->deadline * ((c->blocks[a] == 1 ? -c->pidle[a] : 0) + (c->blocks[q] == 0 ? c->pidle[q] : 0));
    double est = r->sc.energy + de;
    return est > pick->sc.energy + 1e-9 * (fabs(est) + fabs(pick->sc.energy));
}

/* A block's proposal: the processor it would best move to (-1: none
 * improves), and the moves scored and screened to find it. */
typedef struct sm_refine_prop {
    int q;
    int tried, screened;
} refine_prop;

/* Block u's best improving move to its neighbours' processors, scored
 * on c at the mapping as the chunk began. */
static void propose(const sm_refine *r, sm_cost *c, int u, refine_prop *out)
{
    const sm_model *m = r->model;
    const sm_grid *g = r->grid;
    int from = c->map[u];
    refine_pick pick = {-1, r->sc, r->over};
    int seen[64], nseen = 0;
    out->tried = out->screened = 0;
    screen sc;
    screen_block(r, c, u, &sc);
    for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
        int q = c->map[g->nbr[k]], dup = q == from;
        for (int i = 0; i < nseen && !dup; i++) dup = seen[i] == q;
        if (dup) continue;
        if (nseen < 64) seen[nseen++] = q;
        out->tried++;
        if (screen_says_no(r, c, u, &sc, q, &pick)) {
            out->screened++;
            continue;
        }
        try_move(r, c, u, q, &pick);
    }
    /* A block on a late or full processor may also go to the processor of
     * its node with the most time to spare (not a neighbour's when the
     * coarser level left it empty): the deadline and memory can then be
     * met at this level. */
    if (late(c, m, from) > 0 && m->has_deadline) {
        const sm_topo *t = c->topo;
        int q = -1;
        double slack = 0;
        for (int p = 0; p < t->nprocs; p++) {
            if (p == from || t->procs[p].node != t->procs[from].node) continue;
            double tp, ep;
            sm_proc_work(t, p, c->blocks[p], c->cells[p], &tp, &ep);
            if (m->deadline - tp > slack) { slack = m->deadline - tp; q = p; }
        }
        if (q >= 0) {
            out->tried++;
            try_move(r, c, u, q, &pick);
        }
    }
    out->q = pick.q;
}

/* try_move on r->c, the move kept when it is better (sm_cost_trial_keep:
 * the state taking it after the trial would give, without the undo and
 * the move again: the take is the serial part of a refinement step, and
 * most proposals still improve when their turn comes). For a state with
 * its pairs off; else tried and taken as before. */
static void try_move_keep(const sm_refine *r, sm_cost *c, int u, int q, refine_pick *pick)
{
    if (!c->pairs_off) {
        try_move(r, c, u, q, pick);
        if (pick->q >= 0) sm_cost_move(c, u, pick->q);
        return;
    }
    int from = c->map[u];
    double over;
    sm_refine_score sc = trial_move(r, c, u, q, &over);
    if (!better(&sc, &pick->sc)) {
        sm_cost_move(c, u, from);
        sm_cost_trial_end(c);
        return;
    }
    sm_cost_trial_keep(c);
    pick->sc = sc;
    pick->q = q;
    pick->over = over;
}

/* Block u's proposal q scored against the mapping as it now is; taken
 * if it still improves. */
static void take_if_better(sm_refine *r, int u, int q)
{
    const sm_grid *g = r->grid;
    refine_pick pick = {-1, r->sc, r->over};
    try_move_keep(r, r->c, u, q, &pick);
    r->tried++;
    if (pick.q < 0) return;
    r->sc = pick.sc;
    r->over = pick.over < 0 ? 0 : pick.over;
    r->moves++;
    r->pass_moves++;
    if (r->nmoved == r->moved_cap) {
        r->moved_cap = r->moved_cap ? 2 * r->moved_cap : 256;
        r->moved = sm_xrealloc(r->moved, sizeof(int) * (size_t)r->moved_cap);
    }
    r->moved[r->nmoved++] = u;
    r->next[u] = 1;
    for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) r->next[g->nbr[k]] = 1;
    if (r->nrep) {
        if (r->nacc + 2 > r->acc_cap) {
            r->acc_cap = r->acc_cap ? 2 * r->acc_cap : 1024;
            r->acc = sm_xrealloc(r->acc, sizeof(int) * (size_t)r->acc_cap);
        }
        r->acc[r->nacc++] = u;
        r->acc[r->nacc++] = pick.q;
    }
}

void sm_refine_set_threads(sm_refine *r, int threads) { r->threads = threads < 1 ? 1 : threads; }

/* A level's replicas: copies of the search's state (sm_cost_clone: the
 * same state bit for bit). Built side by side, the search's state and a
 * replica were each a pass over the grid, and two at once ran slower
 * than one alone (they share the memory bus: at 1 M blocks two threads
 * took 1.5x one thread's time for the level's start); the search's state
 * is now made on two threads (its blocks beside its edges) and copied.
 * A state that cannot be copied (pairs kept: the colouring model) has its
 * replicas built from the same mapping, side by side. */
static void build_item(int i, int worker, void *arg)
{
    (void)worker;
    sm_refine *r = arg;
    r->rep[i] = sm_cost_new_figures(r->grid, r->c->topo, r->model, r->c->map);
}

static void make_replicas(sm_refine *r)
{
    int copied = 0;
    while (copied < r->nrep && (r->rep[copied] = sm_cost_clone(r->c)) != NULL) copied++;
    if (copied == r->nrep) return;
    for (int i = 0; i < copied; i++) sm_cost_free(r->rep[i]);
    sm_pool_for(r->pool, r->nrep, build_item, r);
}

/* The workers and their cost states, made at the first step. Under the
 * colouring model c keeps a schedule whose repairs and rebuilds follow
 * the order in which its processor pairs were first met, and a move
 * tried on c meets pairs: so only replicas score then (one for one
 * thread), the same proposals for any number of workers. Otherwise
 * worker 0 scores on c itself. */
static void make_workers(sm_refine *r)
{
    if (r->workers_made) return;
    r->workers_made = 1;
    int workers = 1;
    if (r->threads > 1 && r->grid->ntasks > 1) {
        r->pool = sm_pool_new(r->threads);
        workers = sm_pool_size(r->pool);
    }
    r->rep_from = r->model->rounds == SM_ROUNDS_COLOURING ? 0 : 1;
    r->nrep = workers - r->rep_from;
    r->rep = sm_xmalloc(sizeof *r->rep * (size_t)(r->nrep ? r->nrep : 1));
    r->rep_at = sm_xcalloc((size_t)(r->nrep ? r->nrep : 1), sizeof(int));
    make_replicas(r);
}

/* Replica i brought to the mapping as the chunk began: the moves taken
 * since it was last, in the order taken. By the worker that scores on it,
 * before its first proposal of the chunk (not by the caller for every
 * replica before the chunk: with two threads that was the caller alone,
 * the other waiting); the same moves in the same order, so the same
 * state bit for bit. */
static void catch_up(sm_refine *r, int i)
{
    for (int k = r->rep_at[i]; k < r->nacc; k += 2) sm_cost_move(r->rep[i], r->acc[k], r->acc[k + 1]);
    r->rep_at[i] = r->nacc;
}

/* A chunk's blocks are scattered through the grid's arrays (the queue is
 * in random order): each proposal waits on a dozen cache misses, one
 * after another (its offsets, then its incidence and neighbour lists,
 * then their edges and processors), most of a proposal's time at 262 K
 * blocks. So the chunk proposes in block order (visit_in_block_order:
 * the same proposals, each scored against the mapping as the chunk
 * began, whatever the order; they are taken in queue order), where
 * blocks near one another share the lines of their neighbours' edges and
 * processors, and a worker fetches ahead, in the three stages those
 * loads depend on: the blocks PREFETCH_FAR on, their lists PREFETCH_MID
 * on and the edges and neighbours' processors PREFETCH_NEAR on. Hints
 * only: the proposals are the same. */
#define PREFETCH_FAR 12
#define PREFETCH_MID 6
#define PREFETCH_NEAR 3

static void fetch_ahead(const sm_refine *r, const sm_cost *c, const int *q, int j, int n)
{
    const sm_grid *g = r->grid;
    if (j + PREFETCH_FAR < n) {
        int u = q[j + PREFETCH_FAR];
        __builtin_prefetch(&g->inc_off[u]);
        __builtin_prefetch(&g->nbr_off[u]);
        __builtin_prefetch(&c->map[u]);
    }
    if (j + PREFETCH_MID < n) {
        int u = q[j + PREFETCH_MID];
        __builtin_prefetch(&g->inc[g->inc_off[u]]);
        __builtin_prefetch(&g->nbr[g->nbr_off[u]]);
    }
    if (j + PREFETCH_NEAR < n) {
        int u = q[j + PREFETCH_NEAR];
        for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) __builtin_prefetch(&g->edges[g->inc[k]]);
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) __builtin_prefetch(&c->map[g->nbr[k]]);
    }
}

/* The chunk's blocks q[0..n) in block order into visit[], with each one's
 * place in the chunk in at[] (an LSD radix sort, 11 bits a pass: blocks
 * are below 2^25, SM_MAX_TASKS; tmp holds 2n ints). */
static void visit_in_block_order(const int *q, int n, int *visit, int *at, int *tmp)
{
    int *v2 = tmp, *a2 = tmp + n;
    for (int i = 0; i < n; i++) visit[i] = q[i], at[i] = i;
    for (int shift = 0; shift < 33; shift += 11) {
        int count[2049] = {0};
        for (int i = 0; i < n; i++) count[((unsigned)visit[i] >> shift & 2047u) + 1]++;
        if (count[1] == n) continue; /* one bucket: already in order on these bits */
        for (int b = 0; b < 2048; b++) count[b + 1] += count[b];
        for (int i = 0; i < n; i++) {
            int k = count[(unsigned)visit[i] >> shift & 2047u]++;
            v2[k] = visit[i];
            a2[k] = at[i];
        }
        memcpy(visit, v2, sizeof(int) * (size_t)n);
        memcpy(at, a2, sizeof(int) * (size_t)n);
    }
}

/* Proposals are handed out PROPOSE_GRAIN at a time: one claim on the
 * pool per grain, and a run of blocks to fetch ahead through (past the
 * grain's end too: the next grain is usually the same worker's). */
#define PROPOSE_GRAIN 32

static void propose_item(int i, int worker, void *arg)
{
    sm_refine *r = arg;
    if (worker >= r->rep_from) catch_up(r, worker - r->rep_from);
    sm_cost *c = worker < r->rep_from ? r->c : r->rep[worker - r->rep_from];
    const int *q = r->visit;
    int lo = i * PROPOSE_GRAIN, hi = lo + PROPOSE_GRAIN < r->nchunk ? lo + PROPOSE_GRAIN : r->nchunk;
    for (int j = lo; j < hi; j++) {
        fetch_ahead(r, c, q, j, r->nchunk);
        propose(r, c, q[j], &r->prop[r->visit_at[j]]);
    }
}

/* A chunk's job on the pool: with ahead_n set, item 0 puts the next
 * chunk of the pass in block order (into r->ahead, which no proposal
 * reads), so that sort is not the caller's alone between chunks; the
 * rest propose. Item 0 is handed out first, beside the first proposals. */
static void chunk_item(int i, int worker, void *arg)
{
    sm_refine *r = arg;
    if (r->ahead_n >= 0) {
        if (i == 0) {
            int n = r->ahead_n, cap = r->prop_cap;
            visit_in_block_order(r->queue + r->ahead_qpos, n, r->ahead, r->ahead + cap, r->ahead + 2 * (size_t)cap);
            return;
        }
        i--;
    }
    propose_item(i, worker, r);
}

void sm_refine_init_threads(sm_refine *r, const sm_grid *g, const sm_topo *t, const sm_model *m,
                            const int *map, int passes_max, unsigned long long *rng, int threads)
{
    memset(r, 0, sizeof *r);
    r->ahead_n = -1;
    r->grid = g;
    r->model = m;
    r->rng = rng;
    r->passes_max = passes_max;
    r->threads = threads < 1 ? 1 : threads;
    int n = g->ntasks;
    if (r->threads > 1 && n > 1) {
        /* make_workers' workers, made now with their states. */
        r->workers_made = 1;
        r->pool = sm_pool_new(r->threads);
        r->rep_from = m->rounds == SM_ROUNDS_COLOURING ? 0 : 1;
        r->nrep = sm_pool_size(r->pool) - r->rep_from;
        r->rep = sm_xmalloc(sizeof *r->rep * (size_t)(r->nrep ? r->nrep : 1));
        r->rep_at = sm_xcalloc((size_t)(r->nrep ? r->nrep : 1), sizeof(int));
        r->c = sm_cost_new_figures_threads(g, t, m, map, 2);
        make_replicas(r);
    } else {
        r->c = sm_cost_new_figures(g, t, m, map);
    }
    for (int p = 0; p < t->nprocs; p++) r->over += late(r->c, m, p);
    sm_eval ev;
    sm_cost_eval_fast(r->c, &ev);
    r->sc = score_of(m, r->c, &ev, r->over);
    r->queue = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    r->next = sm_xcalloc((size_t)(n ? n : 1), 1);
    sm_advise_huge(r->next, (size_t)n);
    fill_queue(r, 1);
}

void sm_refine_init(sm_refine *r, const sm_grid *g, const sm_topo *t, const sm_model *m,
                    const int *map, int passes_max, unsigned long long *rng)
{
    sm_refine_init_threads(r, g, t, m, map, passes_max, rng, 1);
}

int sm_refine_step(sm_refine *r, int chunk)
{
    r->nmoved = 0;
    int end = r->qpos + chunk < r->nqueue ? r->qpos + chunk : r->nqueue, n = end - r->qpos;
    make_workers(r);
    /* The replicas catch up as they propose (catch_up); once all have
     * (a worker may have had no proposal to make), the list starts again. */
    int behind = 0;
    for (int i = 0; i < r->nrep; i++) behind |= r->rep_at[i] < r->nacc;
    if (!behind) {
        r->nacc = 0;
        for (int i = 0; i < r->nrep; i++) r->rep_at[i] = 0;
    }
    if (n > r->prop_cap) {
        r->prop_cap = n;
        r->prop = sm_xrealloc(r->prop, sizeof *r->prop * (size_t)n);
        r->visit = sm_xrealloc(r->visit, sizeof(int) * 4 * (size_t)n);
        r->visit_at = r->visit + n;
        free(r->ahead);
        r->ahead = NULL;
        r->ahead_n = -1;
    }
    /* This chunk in block order: made beside the last chunk's proposals
     * when there were threads and it is the chunk that was expected. */
    if (r->ahead_n == n && r->ahead_qpos == r->qpos && r->ahead_pass == r->pass) {
        int *v = r->visit;
        r->visit = r->ahead;
        r->ahead = v;
        r->visit_at = r->visit + r->prop_cap;
    } else {
        visit_in_block_order(r->queue + r->qpos, n, r->visit, r->visit_at, r->visit + 2 * (size_t)r->prop_cap);
    }
    r->nchunk = n;
    r->ahead_n = -1;
    int items = (n + PROPOSE_GRAIN - 1) / PROPOSE_GRAIN;
    if (sm_pool_size(r->pool) > 1 && end < r->nqueue) {
        if (!r->ahead) r->ahead = sm_xmalloc(sizeof(int) * 4 * (size_t)r->prop_cap);
        r->ahead_qpos = end;
        r->ahead_pass = r->pass;
        r->ahead_n = end + chunk < r->nqueue ? chunk : r->nqueue - end;
        if (r->ahead_n > r->prop_cap) r->ahead_n = -1; /* larger than this chunk's room: sorted then */
        else items++;
    }
    sm_pool_for(r->pool, items, chunk_item, r);
    for (int i = 0; i < n; i++) {
        r->tried += r->prop[i].tried;
        r->screened += r->prop[i].screened;
        if (r->prop[i].q >= 0) take_if_better(r, r->queue[r->qpos + i], r->prop[i].q);
    }
    r->qpos = end;
    if (r->qpos < r->nqueue) return 1;
    r->pass++;
    if (r->pass_moves == 0 || r->pass >= r->passes_max) return 0;
    fill_queue(r, 0);
    return r->nqueue > 0;
}

void sm_refine_release(sm_refine *r)
{
    sm_pool_free(r->pool);
    for (int i = 0; i < r->nrep; i++) sm_cost_free(r->rep[i]);
    free(r->rep);
    free(r->acc);
    free(r->rep_at);
    free(r->prop);
    free(r->visit);
    free(r->ahead);
    sm_cost_free(r->c);
    free(r->queue);
    free(r->next);
    free(r->moved);
    memset(r, 0, sizeof *r);
}
