/* cost_incremental.c - incremental evaluation of SPEC 3.
 * Above ~800 lines on purpose: a move's path (edge contributions, pair
 * slots, per-processor sums, heaps, trials) is the solvers' hottest loop,
 * and its helpers are static here so the compiler inlines them into
 * sm_cost_move and sm_cost_swap (the build has no link-time
 * optimisation); its separable parts live beside it (cost_rounds_term.c,
 * cost_from_scratch.c, processor_time_energy.c). */
#include "cost_incremental.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cost_rounds_term.h"
#include "processor_time_energy.h"
#include "core/lib/huge_pages.h"
#include "core/lib/threads.h"
#include "core/lib/util.h"

struct sm_cost_link_memo {
    double tpc, epc;
    int64_t cells, k; /* quanta of `cells` cells; cells -1 = none yet */
};

void sm_cost_link(const sm_cost *c, int p, int q, double *tpc, double *epc)
{
    sm_topo_link(c->topo, p, q, tpc, epc);
}

static void pair_slot_grow(sm_cost *c)
{
    sm_heap_grow(&c->hmu, c->pairs.n);
    sm_heap_grow(&c->hmu1, c->pairs.n);
    if (c->pairs.n <= c->mu_cap) return;
    int cap = c->mu_cap ? c->mu_cap : 64;
    while (cap < c->pairs.n) cap *= 2;
    c->mu = sm_xrealloc(c->mu, sizeof(int64_t) * (size_t)cap);
    c->mu1 = sm_xrealloc(c->mu1, sizeof(int64_t) * (size_t)cap);
    c->memo = sm_xrealloc(c->memo, sizeof *c->memo * 2 * (size_t)cap);
    c->dir_msgs = sm_xrealloc(c->dir_msgs, sizeof(int64_t) * 2 * (size_t)cap);
    c->dir_cells = sm_xrealloc(c->dir_cells, sizeof(int64_t) * 2 * (size_t)cap);
    c->dirty_slot = sm_xrealloc(c->dirty_slot, sizeof(int) * (size_t)cap);
    c->slot_marked = sm_xrealloc(c->slot_marked, (size_t)cap);
    for (int i = c->mu_cap; i < cap; i++) {
        c->mu[i] = c->mu1[i] = 0;
        c->dir_msgs[2 * i] = c->dir_msgs[2 * i + 1] = c->dir_cells[2 * i] = c->dir_cells[2 * i + 1] = 0;
        c->slot_marked[i] = 0;
    }
    c->mu_cap = cap;
}

/* The memo of a new slot: its link both ways. */
static void slot_memo_init(sm_cost *c, int slot)
{
    int p = c->pairs.p[slot], q = c->pairs.q[slot];
    struct sm_cost_link_memo *m = &c->memo[2 * slot];
    sm_cost_link(c, p, q, &m[0].tpc, &m[0].epc);
    sm_cost_link(c, q, p, &m[1].tpc, &m[1].epc);
    m[0].cells = m[1].cells = -1;
}

static void mark_proc(sm_cost *c, int p)
{
    if (c->proc_marked[p]) return;
    c->proc_marked[p] = 1;
    c->dirty_proc[c->ndirty_proc++] = p;
}

/* Push the degrees and multiplicities changed since the last flush into
 * their heaps; only the maxima are read, so one update per key is
 * enough. */
static int proc_work(const sm_cost *c, int p, double *time, double *energy);

/* Inside a trial the heaps are left as they were (but under vizing,
 * whose multiplicity heaps are read through slots): a move tried and
 * undone puts every key back, so its heap updates, two per processor it
 * touches each way, were work for nothing. The processors it touches
 * stay marked (their keys in the heaps are stale) until the trial ends,
 * and the maxima are read past them (heap_max_now). */
static int heaps_wait(const sm_cost *c) { return c->trial && c->model.rounds != SM_ROUNDS_VIZING; }

static void flush_heaps_comp(sm_cost *c, int comp)
{
    if (heaps_wait(c)) return;
    for (int i = 0; i < c->ndirty_proc; i++) {
        int p = c->dirty_proc[i];
        c->proc_marked[p] = 0;
        sm_heap_set(&c->hdeg, p, (double)c->deg[p]);
        sm_heap_set(&c->hdeg1, p, (double)c->deg1[p]);
        if (comp) {
            double tm, en;
            proc_work(c, p, &tm, &en);
            sm_heap_set(&c->comp, p, tm);
        }
    }
    c->ndirty_proc = 0;
    /* The largest multiplicities are read only under vizing; under the
     * other models their heaps wait (sm_cost_set_model catches them up). */
    int mu_heaps = c->model.rounds == SM_ROUNDS_VIZING;
    for (int i = 0; i < c->ndirty_slot; i++) {
        int slot = c->dirty_slot[i];
        c->slot_marked[slot] = 0;
        if (!mu_heaps) continue;
        sm_heap_set(&c->hmu, slot, (double)c->mu[slot]);
        sm_heap_set(&c->hmu1, slot, (double)c->mu1[slot]);
    }
    c->ndirty_slot = 0;
}

/* The multiplicity heaps brought up to date with every slot (each key
 * set in turn keeps the heap valid: a waiting heap holds stale keys in
 * heap order). */
static void catch_up_mu_heaps(sm_cost *c)
{
    for (int slot = 0; slot < c->pairs.n; slot++) {
        sm_heap_set(&c->hmu, slot, (double)c->mu[slot]);
        sm_heap_set(&c->hmu1, slot, (double)c->mu1[slot]);
    }
}
static void flush_heaps(sm_cost *c) { flush_heaps_comp(c, 0); }

/* During a trial: p's communication energy as it was, noted before it
 * changes (twice noted is fine: the end restores in reverse order). */
static void trial_note(sm_cost *c, int p)
{
    if (c->ntrial_log == c->trial_log_cap) {
        c->trial_log_cap = c->trial_log_cap ? 2 * c->trial_log_cap : 64;
        c->trial_log = sm_xrealloc(c->trial_log, sizeof *c->trial_log * (size_t)c->trial_log_cap);
    }
    c->trial_log[c->ntrial_log++] = (struct sm_cost_trial_entry){p, c->comm_energy[p]};
}

void sm_cost_trial_begin(sm_cost *c)
{
    double *v = c->trial_sums;
    v[0] = c->dyn, v[1] = c->stat, v[2] = c->idle_comp, v[3] = c->pidle_used;
    v[4] = c->pidle_all, v[5] = c->comm_intra, v[6] = c->comm_inter;
    c->ntrial_log = 0;
    flush_heaps_comp(c, 1); /* nothing marked when the heaps start to wait */
    c->trial = 1;
}

void sm_cost_trial_end(sm_cost *c)
{
    const double *v = c->trial_sums;
    c->dyn = v[0], c->stat = v[1], c->idle_comp = v[2], c->pidle_used = v[3];
    c->pidle_all = v[4], c->comm_intra = v[5], c->comm_inter = v[6];
    for (int i = c->ntrial_log - 1; i >= 0; i--) c->comm_energy[c->trial_log[i].p] = c->trial_log[i].was;
    c->ntrial_log = 0;
    c->trial = 0;
    /* The moves were undone: the keys the heaps kept are true again. */
    for (int i = 0; i < c->ndirty_proc; i++) c->proc_marked[c->dirty_proc[i]] = 0;
    c->ndirty_proc = 0;
    for (int i = 0; i < c->ndirty_slot; i++) c->slot_marked[c->dirty_slot[i]] = 0;
    c->ndirty_slot = 0;
}

void sm_cost_trial_keep(sm_cost *c)
{
    c->ntrial_log = 0;
    c->trial = 0;
    /* Outside a trial a move sets the degree heaps of the processors it
     * touched and the makespan heap of its two: the keys here. */
    flush_heaps_comp(c, 1);
}

/* The slot of pair {ps, pd}, made when new. A move meets a few pairs
 * twice each (out of the old processor's, into the new one's) and a
 * solver tries it and takes it back: a small direct-mapped cache in front
 * of the pair hash answers those. Slots are renumbered only by
 * sm_cost_compact_pairs and sm_cost_pairs_off, which empty the cache. */
static int pair_slot(sm_cost *c, int ps, int pd)
{
    int lo = ps < pd ? ps : pd, hi = ps < pd ? pd : ps;
    struct sm_cost_pair_cache *pc = &c->pair_cache[((unsigned)lo * 31u + (unsigned)hi) & (SM_COST_PAIR_CACHE - 1)];
    if (pc->p == lo && pc->q == hi) return pc->slot;
    int created = 0;
    int slot = sm_pairmap_get(&c->pairs, ps, pd, 1, &created);
    pair_slot_grow(c);
    if (created) slot_memo_init(c, slot);
    pc->p = lo;
    pc->q = hi;
    pc->slot = slot;
    return slot;
}

/* The quanta of a cut edge of `cells` cells from ps to pd, and its link's
 * energy per cell, from the pair's slot memo. */
static int64_t slot_link(sm_cost *c, int slot, int ps, int pd, int64_t cells, double *epc)
{
    struct sm_cost_link_memo *lm = &c->memo[2 * slot + (ps > pd)];
    if (lm->cells != cells) {
        lm->k = sm_quanta((double)cells * lm->tpc, c->model.round_time);
        lm->cells = cells;
    }
    *epc = lm->epc;
    return lm->k;
}

/* With the pairs off: the same from a direct-mapped cache of directed
 * pairs (a slot memo holds sm_cost_link(ps, pd) for that direction: the
 * same numbers). */
struct sm_cost_dir_link {
    int p, q;
    double tpc, epc;
    int64_t cells, k;
};
#define SM_COST_DIR_LINKS 4096

static int64_t dir_link(sm_cost *c, int ps, int pd, int64_t cells, double *epc)
{
    if (c->links_uncached) {
        double tpc;
        sm_cost_link(c, ps, pd, &tpc, epc);
        if (cells != c->quanta_cells || tpc != c->quanta_tpc) {
            c->quanta_k = sm_quanta((double)cells * tpc, c->model.round_time);
            c->quanta_cells = cells;
            c->quanta_tpc = tpc;
        }
        return c->quanta_k;
    }
    unsigned h = ((unsigned)ps * 0x9e3779b1u ^ (unsigned)pd * 0x85ebca77u) >> 20;
    struct sm_cost_dir_link *l = &c->dir_links[h & (SM_COST_DIR_LINKS - 1)];
    if (l->p != ps || l->q != pd) {
        sm_cost_link(c, ps, pd, &l->tpc, &l->epc);
        l->p = ps;
        l->q = pd;
        l->cells = -1;
    }
    if (l->cells != cells) {
        /* A machine has few link speeds and a grid few halo sizes. */
        if (cells != c->quanta_cells || l->tpc != c->quanta_tpc) {
            c->quanta_k = sm_quanta((double)cells * l->tpc, c->model.round_time);
            c->quanta_cells = cells;
            c->quanta_tpc = l->tpc;
        }
        l->k = c->quanta_k;
        l->cells = cells;
    }
    *epc = l->epc;
    return l->k;
}

/* A cut edge's share of its pair's counts (slot direction ps > pd). */
static void pair_counts(sm_cost *c, int slot, int ps, int pd, int64_t k, int64_t cells, int s)
{
    c->mu[slot] += s * k;
    c->mu1[slot] += s;
    c->dir_msgs[2 * slot + (ps > pd)] += s;
    c->dir_cells[2 * slot + (ps > pd)] += (int64_t)s * cells;
    if (!c->slot_marked[slot]) {
        c->slot_marked[slot] = 1;
        c->dirty_slot[c->ndirty_slot++] = slot;
    }
    sm_cost_colouring_edge(c->col, slot, s * k, s);
}

/* Add (s=+1) or remove (s=-1) cut edge e between processors ps -> pd. */
static void edge_contrib(sm_cost *c, int e, int ps, int pd, int s)
{
    const sm_edge *ed = &c->grid->edges[e];
    int slot = -1;
    double epc;
    int64_t k;
    if (c->pairs_off) {
        k = dir_link(c, ps, pd, ed->cells, &epc);
    } else {
        slot = pair_slot(c, ps, pd);
        k = slot_link(c, slot, ps, pd, ed->cells, &epc);
    }
    double eta = (double)ed->cells * epc;
    c->messages += s;
    c->edges += s * k;
    if (c->topo->procs[ps].node == c->topo->procs[pd].node) {
        c->edges_intra += s * k;
        c->comm_intra += s * eta;
    } else {
        c->edges_inter += s * k;
        c->comm_inter += s * eta;
    }
    if (c->trial) trial_note(c, ps);
    c->comm_energy[ps] += s * eta;
    /* Running sums drift; where nothing is left they are exactly zero. */
    if (c->edges_intra == 0) c->comm_intra = 0;
    if (c->edges_inter == 0) c->comm_inter = 0;
    c->deg[ps] += s * k;
    c->deg[pd] += s * k;
    c->deg1[ps] += s;
    c->deg1[pd] += s;
    mark_proc(c, ps);
    mark_proc(c, pd);
    if (slot >= 0) pair_counts(c, slot, ps, pd, k, ed->cells, s);
}

/* The pair slots given up (sm_cost_pairs_off): arrays, heaps, cache. */
static void pairs_clear(sm_cost *c)
{
    sm_pairmap_free(&c->pairs);
    free(c->mu);
    free(c->mu1);
    free(c->memo);
    free(c->dir_msgs);
    free(c->dir_cells);
    free(c->dirty_slot);
    free(c->slot_marked);
    c->mu = c->mu1 = c->dir_msgs = c->dir_cells = NULL;
    c->memo = NULL;
    c->dirty_slot = NULL;
    c->slot_marked = NULL;
    c->mu_cap = c->ndirty_slot = 0;
    sm_heap_free(&c->hmu);
    sm_heap_free(&c->hmu1);
    sm_heap_init(&c->hmu, 0);
    sm_heap_init(&c->hmu1, 0);
    for (int i = 0; i < SM_COST_PAIR_CACHE; i++) c->pair_cache[i].p = -1;
}

int sm_cost_pairs_off(sm_cost *c)
{
    if (c->pairs_off) return 0;
    if (c->model.rounds != SM_ROUNDS_MAXDEG || c->trial || c->ndirty_slot || sm_cost_colouring_live(c->col))
        return -1;
    pairs_clear(c);
    if (!c->dir_links) c->dir_links = sm_xmalloc(sizeof *c->dir_links * SM_COST_DIR_LINKS);
    for (int i = 0; i < SM_COST_DIR_LINKS; i++) c->dir_links[i].p = -1;
    c->quanta_cells = -1;
    c->pairs_off = 1;
    return 0;
}

/* The pairs back (a reader of them, another rounds model): counted from
 * the mapping, whole numbers, so the same as if they had been kept. They
 * are a cache of the mapping, which is why a const reader may fill them. */
static void pairs_on(const sm_cost *cc)
{
    if (!cc->pairs_off) return;
    sm_cost *c = (sm_cost *)cc;
    c->pairs_off = 0;
    const sm_grid *g = c->grid;
    for (int e = 0; e < g->nedges; e++) {
        int ps = c->map[g->edges[e].src], pd = c->map[g->edges[e].dst];
        if (ps == pd) continue;
        double epc;
        int slot = pair_slot(c, ps, pd);
        int64_t k = slot_link(c, slot, ps, pd, g->edges[e].cells, &epc);
        pair_counts(c, slot, ps, pd, k, g->edges[e].cells, +1);
    }
    for (int i = 0; i < c->ndirty_slot; i++) c->slot_marked[c->dirty_slot[i]] = 0;
    c->ndirty_slot = 0;
}

/* Computation time and dynamic energy of processor p as it stands; a
 * processor beyond its profile counts as over capacity. */
static int proc_work(const sm_cost *c, int p, double *time, double *energy)
{
    if (c->topo->types[c->topo->procs[p].type].nprofile)
        return sm_proc_work(c->topo, p, c->blocks[p], c->cells[p], time, energy);
    /* The coefficients held here: a solver may have set another state. */
    *time = c->tpc[p] * (double)c->cells[p];
    *energy = c->epc[p] * (double)c->cells[p];
    return 0;
}

/* Add (s=+1) or remove (s=-1) block u's cells on processor p; defer:
 * leave the makespan heap to the next flush_heaps_comp (a batch), p
 * marked for it (2: not even marked: the caller marks; cost_new's
 * blocks beside its edges, which mark too). */
static void cells_contrib_at(sm_cost *c, int u, int p, int s, int defer)
{
    int64_t d = c->grid->task_cells[u];
    int was_used = c->blocks[p] > 0;
    int was_over = c->mem_cells[p] >= 0 && c->cells[p] > c->mem_cells[p];
    int profiled = c->topo->types[c->topo->procs[p].type].nprofile > 0;
    double t0 = 0, e0 = 0, t1, e1;
    if (profiled) was_over |= proc_work(c, p, &t0, &e0);
    c->cells[p] += s * d;
    c->blocks[p] += s;
    double dcomp;
    int prof_over = 0;
    if (profiled) {
        prof_over = proc_work(c, p, &t1, &e1);
        dcomp = t1 - t0;
        c->dyn += e1 - e0;
        if (!defer) sm_heap_set(&c->comp, p, t1);
    } else {
        dcomp = c->tpc[p] * (double)d * s;
        c->dyn += c->epc[p] * (double)d * s;
        if (!defer) sm_heap_set(&c->comp, p, c->tpc[p] * (double)c->cells[p]);
    }
    if (defer == 1) mark_proc(c, p);
    c->stat += c->p0[p] * dcomp;
    c->idle_comp += c->pidle[p] * dcomp;
    int used = c->blocks[p] > 0;
    if (used != was_used) {
        c->procs_used += used ? 1 : -1;
        c->pidle_used += used ? c->pidle[p] : -c->pidle[p];
    }
    int over = c->mem_cells[p] >= 0 && c->cells[p] > c->mem_cells[p];
    over |= prof_over;
    c->mem_over += over - was_over;
}

/* Processor p's part of the running sums, added (s=+1) or taken out. */
static void proc_params_contrib(sm_cost *c, int p, int s)
{
    double tm, en;
    int prof_over = proc_work(c, p, &tm, &en);
    c->dyn += s * en;
    c->stat += s * c->p0[p] * tm;
    c->idle_comp += s * c->pidle[p] * tm;
    c->pidle_all += s * c->pidle[p];
    if (c->blocks[p] > 0) c->pidle_used += s * c->pidle[p];
    int over = (c->mem_cells[p] >= 0 && c->cells[p] > c->mem_cells[p]) || prof_over;
    c->mem_over += s * over;
}

void sm_cost_set_params(sm_cost *c, int p, const sm_params *pa)
{
    proc_params_contrib(c, p, -1);
    c->tpc[p] = pa->time_per_cell;
    c->epc[p] = pa->energy_per_cell;
    c->p0[p] = pa->p0;
    c->pidle[p] = pa->p_idle;
    c->mem_cells[p] = pa->memory > 0 ? (int64_t)floor(pa->memory / pa->bytes_per_cell) : -1;
    proc_params_contrib(c, p, +1);
    /* Inside a trial the makespan key waits with the moves' (a move
     * undone after this would otherwise leave it stale): p is read past
     * the heap until the trial ends, when every key is true again. */
    if (heaps_wait(c)) {
        mark_proc(c, p);
        return;
    }
    double tm, en;
    proc_work(c, p, &tm, &en);
    sm_heap_set(&c->comp, p, tm);
}

static sm_cost *cost_new(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map, int figures,
                         int threads);

sm_cost *sm_cost_new(const sm_grid *g, const sm_topo *t, const sm_model *m,
                     const int *map)
{
    return cost_new(g, t, m, map, 0, 1);
}

sm_cost *sm_cost_new_figures(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map)
{
    return cost_new(g, t, m, map, 1, 1);
}

sm_cost *sm_cost_new_figures_threads(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                                     int threads)
{
    return cost_new(g, t, m, map, 1, threads);
}

/* The blocks' cells (item 0) and the cut edges (item 1) of a new state:
 * they write apart (cells, blocks and the computation sums; the edge
 * counts, degrees, communication sums and the marks), each in its own
 * order as one after the other would. */
static void new_part(int i, void *arg)
{
    sm_cost *c = arg;
    const sm_grid *g = c->grid;
    if (i == 0) {
        for (int u = 0; u < g->ntasks; u++) cells_contrib_at(c, u, c->map[u], +1, 2);
        return;
    }
    for (int e = 0; e < g->nedges; e++) {
        int ps = c->map[g->edges[e].src], pd = c->map[g->edges[e].dst];
        if (ps != pd) edge_contrib(c, e, ps, pd, +1);
    }
}

static _Atomic unsigned long long serials;

static sm_cost *cost_new(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map, int figures,
                         int threads)
{
    sm_cost *c = sm_xcalloc(1, sizeof *c);
    c->serial = ++serials;
    c->grid = g;
    c->topo = t;
    c->model = *m;
    int P = t->nprocs, n = g->ntasks;
    c->nprocs = P;
    c->col = sm_cost_colouring_new(P);
    c->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    sm_advise_huge(c->map, sizeof(int) * (size_t)n);
    memcpy(c->map, map, sizeof(int) * (size_t)n);
    c->tpc = sm_xcalloc((size_t)P, sizeof(double));
    c->epc = sm_xcalloc((size_t)P, sizeof(double));
    c->p0 = sm_xcalloc((size_t)P, sizeof(double));
    c->pidle = sm_xcalloc((size_t)P, sizeof(double));
    c->mem_cells = sm_xcalloc((size_t)P, sizeof(int64_t));
    c->cells = sm_xcalloc((size_t)P, sizeof(int64_t));
    c->blocks = sm_xcalloc((size_t)P, sizeof(int64_t));
    c->deg = sm_xcalloc((size_t)P, sizeof(int64_t));
    c->deg1 = sm_xcalloc((size_t)P, sizeof(int64_t));
    c->comm_energy = sm_xcalloc((size_t)P, sizeof(double));
    c->dirty_proc = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    c->proc_marked = sm_xcalloc((size_t)(P ? P : 1), 1);
    for (int p = 0; p < P; p++) {
        const sm_params *pa = sm_topo_proc_params(t, p);
        c->tpc[p] = pa->time_per_cell;
        c->epc[p] = pa->energy_per_cell;
        c->p0[p] = pa->p0;
        c->pidle[p] = pa->p_idle;
        /* A capacity past the largest grid never binds; clamped so the
         * conversion stays defined (1e18 B / 1e-9 B per cell is 1e27). */
        double capc = pa->memory > 0 ? floor(pa->memory / pa->bytes_per_cell) : -1;
        c->mem_cells[p] = capc < 0 ? -1 : capc >= (double)SM_MAX_CELLS ? SM_MAX_CELLS : (int64_t)capc;
        c->pidle_all += pa->p_idle;
    }
    sm_heap_init(&c->comp, P);
    sm_heap_init(&c->hdeg, P);
    sm_heap_init(&c->hdeg1, P);
    sm_heap_init(&c->hmu, 0);
    sm_heap_init(&c->hmu1, 0);
    sm_pairmap_init(&c->pairs);
    for (int i = 0; i < SM_COST_PAIR_CACHE; i++) c->pair_cache[i].p = -1;
    /* The blocks' cells with their processors' makespan keys left to the
     * flush below, once a processor (a heap update a block was most of
     * this loop: 262 K updates for 256 keys); the same keys, and only the
     * heaps' maxima are read. */
    if (figures) sm_cost_pairs_off(c);
    sm_parallel_for(threads, 2, new_part, c);
    /* The processors holding blocks marked (as the blocks would have). */
    for (int p = 0; p < P; p++)
        if (c->blocks[p] > 0) mark_proc(c, p);
    flush_heaps_comp(c, 1);
    return c;
}

/* A copy of n items of `size` bytes (NULL stays NULL). */
static void *dup_items(const void *p, size_t n, size_t size)
{
    if (!p) return NULL;
    void *q = sm_xmalloc(size * (n ? n : 1));
    memcpy(q, p, size * n);
    return q;
}

sm_cost *sm_cost_clone(const sm_cost *c)
{
    if (!c->pairs_off || c->trial || sm_cost_colouring_live(c->col)) return NULL;
    int P = c->nprocs, n = c->grid->ntasks;
    sm_cost *d = sm_xmalloc(sizeof *d);
    *d = *c;
    d->serial = ++serials;
    d->map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    sm_advise_huge(d->map, sizeof(int) * (size_t)n);
    memcpy(d->map, c->map, sizeof(int) * (size_t)n);
    d->tpc = dup_items(c->tpc, (size_t)P, sizeof(double));
    d->epc = dup_items(c->epc, (size_t)P, sizeof(double));
    d->p0 = dup_items(c->p0, (size_t)P, sizeof(double));
    d->pidle = dup_items(c->pidle, (size_t)P, sizeof(double));
    d->mem_cells = dup_items(c->mem_cells, (size_t)P, sizeof(int64_t));
    d->cells = dup_items(c->cells, (size_t)P, sizeof(int64_t));
    d->blocks = dup_items(c->blocks, (size_t)P, sizeof(int64_t));
    d->deg = dup_items(c->deg, (size_t)P, sizeof(int64_t));
    d->deg1 = dup_items(c->deg1, (size_t)P, sizeof(int64_t));
    d->comm_energy = dup_items(c->comm_energy, (size_t)P, sizeof(double));
    d->dirty_proc = dup_items(c->dirty_proc, (size_t)P, sizeof(int));
    d->proc_marked = dup_items(c->proc_marked, (size_t)P, 1);
    sm_heap_copy(&d->comp, &c->comp);
    sm_heap_copy(&d->hdeg, &c->hdeg);
    sm_heap_copy(&d->hdeg1, &c->hdeg1);
    /* With the pairs off these are all empty, as pairs_clear left them. */
    sm_pairmap_init(&d->pairs);
    d->mu = d->mu1 = d->dir_msgs = d->dir_cells = NULL;
    d->memo = NULL;
    d->dirty_slot = NULL;
    d->slot_marked = NULL;
    d->mu_cap = d->ndirty_slot = 0;
    sm_heap_init(&d->hmu, 0);
    sm_heap_init(&d->hmu1, 0);
    d->dir_links = dup_items(c->dir_links, SM_COST_DIR_LINKS, sizeof *c->dir_links);
    d->moving = NULL;
    d->col = sm_cost_colouring_new(P);
    d->trial_log = NULL;
    d->ntrial_log = d->trial_log_cap = 0;
    return d;
}

void sm_cost_free(sm_cost *c)
{
    if (!c) return;
    free(c->map);
    free(c->tpc);
    free(c->epc);
    free(c->p0);
    free(c->pidle);
    free(c->mem_cells);
    free(c->cells);
    free(c->blocks);
    free(c->deg);
    free(c->deg1);
    free(c->comm_energy);
    free(c->mu);
    free(c->mu1);
    free(c->memo);
    free(c->dir_msgs);
    free(c->dir_cells);
    free(c->dirty_proc);
    free(c->proc_marked);
    free(c->dirty_slot);
    free(c->slot_marked);
    free(c->moving);
    free(c->trial_log);
    free(c->dir_links);
    sm_heap_free(&c->comp);
    sm_heap_free(&c->hdeg);
    sm_heap_free(&c->hdeg1);
    sm_heap_free(&c->hmu);
    sm_heap_free(&c->hmu1);
    sm_pairmap_free(&c->pairs);
    sm_cost_colouring_free(c->col);
    free(c);
}

void sm_cost_move(sm_cost *c, int u, int b)
{
    int a = c->map[u];
    if (a == b) return;
    const sm_grid *g = c->grid;
    for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) {
        int e = g->inc[k];
        const sm_edge *ed = &g->edges[e];
        int out = ed->src == u;
        int pw = c->map[out ? ed->dst : ed->src];
        if (pw != a) {
            if (out) edge_contrib(c, e, a, pw, -1);
            else edge_contrib(c, e, pw, a, -1);
        }
        if (pw != b) {
            if (out) edge_contrib(c, e, b, pw, +1);
            else edge_contrib(c, e, pw, b, +1);
        }
    }
    flush_heaps(c);
    int wait = heaps_wait(c);
    cells_contrib_at(c, u, a, -1, wait);
    c->map[u] = b;
    cells_contrib_at(c, u, b, +1, wait);
}

/* Block u's edges moved from the map as it stands to to[] (for the
 * blocks of the batch, moving[]; the others stay): each edge's cut is
 * taken out and put back only when one of its ends changes processor,
 * and an edge between two blocks of the batch is handled from its lower
 * end only. */
static void block_edges(sm_cost *c, int u, const int *to)
{
    const sm_grid *g = c->grid;
    const unsigned char *moving = c->moving;
    const int *map = c->map;
    int au = map[u], bu = to[u];
    for (int k = g->inc_off[u]; k < g->inc_off[u + 1]; k++) {
        int e = g->inc[k];
        const sm_edge *ed = &g->edges[e];
        int out = ed->src == u;
        int w = out ? ed->dst : ed->src;
        int aw = map[w], bw = aw;
        if (moving[w]) {
            if (w < u) continue;
            bw = to[w];
        }
        if (au == bu && aw == bw) continue;
        if (au != aw) {
            if (out) edge_contrib(c, e, au, aw, -1);
            else edge_contrib(c, e, aw, au, -1);
        }
        if (bu != bw) {
            if (out) edge_contrib(c, e, bu, bw, +1);
            else edge_contrib(c, e, bw, bu, +1);
        }
    }
}

void sm_cost_move_set(sm_cost *c, const int *blocks, int nb, const int *to)
{
    if (nb <= 0) return;
    if (nb == 1) {
        sm_cost_move(c, blocks[0], to[blocks[0]]);
        return;
    }
    if (!c->moving) c->moving = sm_xcalloc((size_t)(c->grid->ntasks ? c->grid->ntasks : 1), 1);
    unsigned char *moving = c->moving;
    /* 1: moves; 2: done (a block listed twice moves once). */
    for (int i = 0; i < nb; i++) {
        int u = blocks[i];
        if (c->map[u] != to[u]) moving[u] = 1;
    }
    /* The edges of a batch are scattered through the grid's arrays (a
     * million blocks: ~100 MB of edges): fetch them ahead, the incidence
     * list of the block 16 on and the edges of the block 8 on, so the
     * misses overlap instead of following one another. */
    const sm_grid *g = c->grid;
    for (int i = 0; i < nb; i++) {
        if (i + 16 < nb) __builtin_prefetch(&g->inc[g->inc_off[blocks[i + 16]]]);
        if (i + 8 < nb) {
            int v = blocks[i + 8];
            for (int k = g->inc_off[v]; k < g->inc_off[v + 1]; k++) __builtin_prefetch(&g->edges[g->inc[k]]);
        }
        int u = blocks[i];
        if (moving[u] != 1) continue;
        moving[u] = 2;
        block_edges(c, u, to);
        cells_contrib_at(c, u, c->map[u], -1, 1);
        cells_contrib_at(c, u, to[u], +1, 1);
    }
    for (int i = 0; i < nb; i++) {
        int u = blocks[i];
        if (moving[u]) c->map[u] = to[u];
    }
    for (int i = 0; i < nb; i++) moving[blocks[i]] = 0;
    flush_heaps_comp(c, 1);
}

int sm_cost_compact_pairs(sm_cost *c)
{
    if (c->pairs_off || c->trial || c->ndirty_slot || sm_cost_colouring_live(c->col)) return 0;
    int n = c->pairs.n, k = 0;
    sm_pairmap fresh;
    sm_pairmap_init(&fresh);
    for (int s = 0; s < n; s++) {
        if (c->mu1[s] == 0) continue;
        int created;
        int slot = sm_pairmap_get(&fresh, c->pairs.p[s], c->pairs.q[s], 1, &created);
        (void)slot; /* == k: slots are made in order */
        c->mu[k] = c->mu[s];
        c->mu1[k] = c->mu1[s];
        for (int d = 0; d < 2; d++) {
            c->memo[2 * k + d] = c->memo[2 * s + d];
            c->dir_msgs[2 * k + d] = c->dir_msgs[2 * s + d];
            c->dir_cells[2 * k + d] = c->dir_cells[2 * s + d];
        }
        k++;
    }
    /* The slots past the live ones come back as new: zero, as made. */
    for (int s = k; s < n; s++) {
        c->mu[s] = c->mu1[s] = 0;
        c->dir_msgs[2 * s] = c->dir_msgs[2 * s + 1] = c->dir_cells[2 * s] = c->dir_cells[2 * s + 1] = 0;
    }
    sm_pairmap_free(&c->pairs);
    c->pairs = fresh;
    for (int i = 0; i < SM_COST_PAIR_CACHE; i++) c->pair_cache[i].p = -1;
    sm_heap_free(&c->hmu);
    sm_heap_free(&c->hmu1);
    sm_heap_init(&c->hmu, k);
    sm_heap_init(&c->hmu1, k);
    if (c->model.rounds == SM_ROUNDS_VIZING) catch_up_mu_heaps(c);
    return n - k;
}

void sm_cost_swap(sm_cost *c, int b1, int b2)
{
    int p1 = c->map[b1], p2 = c->map[b2];
    if (p1 == p2) return;
    sm_cost_move(c, b1, p2);
    sm_cost_move(c, b2, p1);
}

/* Whether every processor runs in its machine's parameters (no
 * sm_cost_set_params since): then a rebuild reads the same figures. */
static int params_of_topo(const sm_cost *c)
{
    for (int p = 0; p < c->nprocs; p++) {
        const sm_params *pa = sm_topo_proc_params(c->topo, p);
        if (c->tpc[p] != pa->time_per_cell || c->epc[p] != pa->energy_per_cell || c->p0[p] != pa->p0 ||
            c->pidle[p] != pa->p_idle)
            return 0;
    }
    return 1;
}

void sm_cost_remap(sm_cost *c, const int *map) { sm_cost_remap_threads(c, map, 1); }

void sm_cost_remap_threads(sm_cost *c, const int *map, int threads)
{
    const sm_grid *g = c->grid;
    int n = g->ntasks, k = 0;
    for (int u = 0; u < n; u++) k += map[u] != c->map[u];
    /* A move touches each of the block's edges twice (out of the old
     * processor's pairs, into the new one's) and their heaps; a rebuild
     * touches each edge once and each block once. Past a quarter of the
     * blocks moved, the rebuild is the cheaper. */
    if (4 * (int64_t)k <= (int64_t)n || !params_of_topo(c)) {
        for (int u = 0; u < n && k > 0; u++)
            if (map[u] != c->map[u]) {
                sm_cost_move(c, u, map[u]);
                k--;
            }
        return;
    }
    sm_cost *fresh = cost_new(g, c->topo, &c->model, map, 0, threads);
    /* Keep c and its map array where they are (the session hands the
     * array out); take everything else from the fresh state. */
    int *keep = c->map;
    memcpy(keep, map, sizeof(int) * (size_t)n);
    sm_cost tmp = *c;
    *c = *fresh;
    *fresh = tmp;
    fresh->map = c->map;
    c->map = keep;
    sm_cost_free(fresh);
}

void sm_cost_set_model(sm_cost *c, const sm_model *m)
{
    /* Quanta depend on the round time: rebuild the communication sums. */
    if (m->round_time != c->model.round_time) {
        int *map = c->map;
        c->map = NULL;
        sm_cost *fresh = sm_cost_new(c->grid, c->topo, m, map);
        free(map);
        /* Swap contents so the caller's pointer stays valid. */
        sm_cost tmp = *c;
        *c = *fresh;
        *fresh = tmp;
        sm_cost_free(fresh);
        return;
    }
    if (m->rounds != SM_ROUNDS_MAXDEG) pairs_on(c);
    int catch_up = m->rounds == SM_ROUNDS_VIZING && c->model.rounds != SM_ROUNDS_VIZING;
    c->model = *m;
    if (catch_up) catch_up_mu_heaps(c);
}

static int by_src_dst(const void *a, const void *b)
{
    const sm_traffic *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

int sm_cost_traffic(const sm_cost *c, int sorted, sm_traffic **out)
{
    pairs_on(c);
    sm_traffic *o = sm_xmalloc(sizeof *o * (2 * (size_t)c->pairs.n + 1));
    int n = 0;
    for (int s = 0; s < c->pairs.n; s++)
        for (int d = 0; d < 2; d++)
            if (c->dir_msgs[2 * s + d] > 0) {
                int p = c->pairs.p[s], q = c->pairs.q[s];
                o[n++] = (sm_traffic){d ? q : p, d ? p : q, c->dir_msgs[2 * s + d], c->dir_cells[2 * s + d]};
            }
    if (sorted) qsort(o, (size_t)n, sizeof *o, by_src_dst);
    *out = o;
    return n;
}

/* The largest key among the heap's unmarked ids below heap slot i (keys
 * are never negative): a marked id's key is stale, so look past it. */
static double max_unmarked(const sm_heap *h, const char *marked, int i)
{
    if (i >= h->n) return 0;
    int id = h->slot[i];
    if (!marked[id]) return h->key[id];
    double l = max_unmarked(h, marked, 2 * i + 1), r = max_unmarked(h, marked, 2 * i + 2);
    return l > r ? l : r;
}

/* The maximum of the makespan heap (which 0), the degrees (1) or the
 * message degrees (2) as the state stands: the heap's, or, while its
 * keys wait inside a trial (heaps_wait), the largest of the unmarked
 * ids' keys and the marked processors' keys made now as a flush would
 * make them. The same value either way. */
static double heap_max_now(const sm_cost *c, int which)
{
    const sm_heap *h = which == 0 ? &c->comp : which == 1 ? &c->hdeg : &c->hdeg1;
    if (!c->ndirty_proc) return sm_heap_max(h);
    double m = max_unmarked(h, c->proc_marked, 0);
    for (int i = 0; i < c->ndirty_proc; i++) {
        int p = c->dirty_proc[i];
        double v, en;
        if (which == 0) proc_work(c, p, &v, &en);
        else v = (double)(which == 1 ? c->deg[p] : c->deg1[p]);
        if (v > m) m = v;
    }
    return m;
}

static sm_pairmu *view_pairs(const void *ctx, int msg, int *n) { return sm_cost_pairs(ctx, msg, n); }

/* What cost_rounds_term.c needs of this state, now. */
static sm_colouring_view colouring_view(const sm_cost *c)
{
    pairs_on(c);
    sm_colouring_view v = {.pair_p = c->pairs.p, .pair_q = c->pairs.q, .nprocs = c->nprocs,
                           .pairs = view_pairs, .ctx = c};
    v.delta[0] = (int64_t)heap_max_now(c, 1);
    v.delta[1] = (int64_t)heap_max_now(c, 2);
    for (int k = 0; k < 2; k++) {
        const int64_t *deg = k ? c->deg1 : c->deg;
        for (int p = 0; p < c->nprocs && v.active[k] <= 4; p++) v.active[k] += deg[p] > 0;
    }
    return v;
}

void sm_cost_colouring_rounds(const sm_cost *c, int messages, int64_t *rounds, int64_t *lower)
{
    sm_colouring_view v = colouring_view(c);
    sm_colouring_rounds(c->col, &v, messages, rounds, lower);
}

void sm_cost_schedule(const sm_cost *c, sm_schedule *s)
{
    memset(s, 0, sizeof *s);
    sm_cost_schedule_refill(c, s);
}

void sm_cost_schedule_refill(const sm_cost *c, sm_schedule *s)
{
    sm_colouring_view v = colouring_view(c);
    sm_colouring_refill(c->col, &v, s);
}

long sm_cost_colouring_rebuilds(const sm_cost *c) { return sm_colouring_rebuilds(c->col); }

int sm_cost_adopt_colouring(sm_cost *c, const sm_cost *src)
{
    if (c == src || c->grid != src->grid || c->topo != src->topo || c->nprocs != src->nprocs ||
        c->model.round_time != src->model.round_time ||
        memcmp(c->map, src->map, sizeof(int) * (size_t)c->grid->ntasks) != 0)
        return -1;
    pairs_on(c);
    sm_colouring_view v = colouring_view(src);
    sm_colouring_adopt(c->col, src->col, &v);
    return 0;
}

sm_pairmu *sm_cost_pairs(const sm_cost *c, int messages, int *n)
{
    pairs_on(c);
    sm_pairmu *v = sm_xmalloc(sizeof(sm_pairmu) * (size_t)(c->pairs.n + 1));
    int k = 0;
    for (int s = 0; s < c->pairs.n; s++) {
        int64_t mu = messages ? c->mu1[s] : c->mu[s];
        if (mu > 0) v[k++] = (sm_pairmu){c->pairs.p[s], c->pairs.q[s], mu};
    }
    *n = k;
    return v;
}

/* Fill time and energy from comp max, rounds and the running sums. */
static void finish(const sm_cost *c, sm_eval *o)
{
    const sm_model *m = &c->model;
    o->comp_time = heap_max_now(c, 0);
    o->comm_time = (double)o->rounds * m->round_time;
    o->time = m->overlap ? (o->comp_time > o->comm_time ? o->comp_time : o->comm_time)
                         : o->comp_time + o->comm_time;
    o->energy_dynamic = c->dyn;
    o->energy_static = c->stat;
    double pid = m->unused_idle ? c->pidle_all : c->pidle_used;
    o->energy_idle = o->time * pid - c->idle_comp;
    /* Cancellation leaves dust where every counted processor is busy. */
    if (fabs(o->energy_idle) <= 1e-12 * o->time * pid) o->energy_idle = 0;
    /* Energies are never negative: the running sums of communication
     * energy come back to rounding dust (-4e-20) when the last message
     * goes; none is left without an edge, and what rounding leaves below
     * zero is zero. Likewise idle energy a hair below zero. */
    o->energy_comm_intra = c->edges_intra > 0 && c->comm_intra > 0 ? c->comm_intra : 0;
    o->energy_comm_inter = c->edges_inter > 0 && c->comm_inter > 0 ? c->comm_inter : 0;
    o->energy_comm = o->energy_comm_intra + o->energy_comm_inter;
    if (o->energy_idle < 0) o->energy_idle = 0;
    o->energy = o->energy_dynamic + o->energy_static + o->energy_idle +
                o->energy_comm;
    o->messages = c->messages;
    o->edges = c->edges;
    o->edges_intra = c->edges_intra;
    o->edges_inter = c->edges_inter;
    o->procs_used = c->procs_used;
    o->memory_ok = c->mem_over == 0;
    sm_eval_judge(o, m);
}

static void eval_common(const sm_cost *c, sm_eval *o, int exact)
{
    memset(o, 0, sizeof *o);
    int64_t D = (int64_t)heap_max_now(c, 1), D1 = (int64_t)heap_max_now(c, 2);
    switch (c->model.rounds) {
    case SM_ROUNDS_MAXDEG:
        o->rounds = o->rounds_lower = D;
        o->message_rounds = o->message_rounds_lower = D1;
        break;
    case SM_ROUNDS_VIZING:
        o->rounds = D + (int64_t)sm_heap_max(&c->hmu);
        o->message_rounds = D1 + (int64_t)sm_heap_max(&c->hmu1);
        o->rounds_lower = D;
        o->message_rounds_lower = D1;
        break;
    case SM_ROUNDS_COLOURING:
        if (!exact) {
            o->rounds = o->rounds_lower = D;
            o->message_rounds = o->message_rounds_lower = D1;
            break;
        }
        sm_cost_colouring_rounds(c, 0, &o->rounds, &o->rounds_lower);
        sm_cost_colouring_rounds(c, 1, &o->message_rounds, &o->message_rounds_lower);
        break;
    }
    finish(c, o);
}

void sm_cost_eval(const sm_cost *c, sm_eval *o) { eval_common(c, o, 1); }
void sm_cost_eval_fast(const sm_cost *c, sm_eval *o) { eval_common(c, o, 0); }

void sm_cost_proc(const sm_cost *c, const sm_eval *ev, int p, sm_proc_eval *o)
{
    memset(o, 0, sizeof *o);
    o->blocks = c->blocks[p];
    o->cells = c->cells[p];
    double dyn;
    proc_work(c, p, &o->comp_time, &dyn);
    int counts = c->blocks[p] > 0 || c->model.unused_idle;
    o->idle_time = counts ? ev->time - o->comp_time : 0;
    if (o->idle_time < 0) o->idle_time = 0;
    o->energy_dynamic = dyn;
    o->energy_static = c->p0[p] * o->comp_time;
    o->energy_idle = c->pidle[p] * o->idle_time;
    o->energy_comm = c->comm_energy[p] > 0 ? c->comm_energy[p] : 0;   /* no rounding dust below 0 */
    o->energy = o->energy_dynamic + o->energy_static + o->energy_idle +
                o->energy_comm;
}

void sm_cost_follow_only(sm_cost *c) { c->links_uncached = 1; }
