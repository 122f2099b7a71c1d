/* refine.c - boundary refinement (see refine.h). Only improving moves
 * are taken, so it never cycles; a pass visits the blocks around the
 * previous pass's moves. */
#include "refine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/fill.h"
#include "core/model/profile.h"

/* Violation: processors past memory, then how far every processor is
 * past its memory and the deadline (late(), summed: over), then the
 * makespan past the deadline.
 * Energy: as if the run lasted the whole deadline - idle power is then
 * paid up to the deadline whatever the makespan, so filling a fast,
 * efficient processor up to the deadline pays, which single moves cannot
 * see when many processors share the makespan (each would raise it
 * alone). The caller judges the mappings it keeps by the true energy
 * (multilevel.c offers each level's), so nothing is lost to this. */
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

/* The next pass's queue: every boundary block on the first pass, then
 * the marked ones (around last pass's moves), in random order. */
static void fill_queue(sm_refine *r, int first)
{
    const sm_grid *g = r->grid;
    int n = g->ntasks;
    r->nqueue = 0;
    for (int u = 0; u < n; u++) {
        if (!first && !r->next[u]) continue;
        if (is_boundary(g, r->c->map, u)) r->queue[r->nqueue++] = u;
    }
    memset(r->next, 0, (size_t)n);
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

/* Scores moving u to q (applied and undone) and keeps it if better. */
static void try_move(sm_refine *r, int u, int q, refine_pick *pick)
{
    const sm_model *m = r->model;
    sm_cost *c = r->c;
    int from = c->map[u];
    double before = late(c, m, from) + late(c, m, q);
    sm_cost_move(c, u, q);
    double over = r->over - before + late(c, m, from) + late(c, m, q);
    sm_eval ev;
    sm_cost_eval_fast(c, &ev);
    sm_refine_score sc = score_of(m, c, &ev, over);
    sm_cost_move(c, u, from);
    r->tried++;
    if (better(&sc, &pick->sc)) {
        pick->sc = sc;
        pick->q = q;
        pick->over = over;
    }
}

/* Tries block u's moves to its neighbours' processors; takes the best if
 * it improves. */
static void refine_block(sm_refine *r, int u)
{
    const sm_model *m = r->model;
    const sm_grid *g = r->grid;
    sm_cost *c = r->c;
    int from = c->map[u];
    refine_pick pick = {-1, r->sc, r->over};
    int seen[64], nseen = 0;
    for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
        int q = c->map[g->nbr[k]], dup = q == from;
        for (int i = 0; i < nseen && !dup; i++) dup = seen[i] == q;
        if (dup) continue;
        if (nseen < 64) seen[nseen++] = q;
        try_move(r, u, q, &pick);
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
        if (q >= 0) try_move(r, u, q, &pick);
    }
    if (pick.q < 0) return;
    sm_cost_move(c, u, pick.q);
    r->sc = pick.sc;
    r->over = pick.over < 0 ? 0 : pick.over;
    r->moves++;
    r->pass_moves++;
    r->next[u] = 1;
    for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) r->next[g->nbr[k]] = 1;
}

void sm_refine_init(sm_refine *r, const sm_grid *g, const sm_topo *t, const sm_model *m,
                    const int *map, int passes_max, unsigned long long *rng)
{
    memset(r, 0, sizeof *r);
    r->grid = g;
    r->model = m;
    r->rng = rng;
    r->passes_max = passes_max;
    int n = g->ntasks;
    r->c = sm_cost_new(g, t, m, map);
    for (int p = 0; p < t->nprocs; p++) r->over += late(r->c, m, p);
    sm_eval ev;
    sm_cost_eval_fast(r->c, &ev);
    r->sc = score_of(m, r->c, &ev, r->over);
    r->queue = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    r->next = sm_xcalloc((size_t)(n ? n : 1), 1);
    fill_queue(r, 1);
}

int sm_refine_step(sm_refine *r, int chunk)
{
    int end = r->qpos + chunk < r->nqueue ? r->qpos + chunk : r->nqueue;
    for (; r->qpos < end; r->qpos++) refine_block(r, r->queue[r->qpos]);
    if (r->qpos < r->nqueue) return 1;
    r->pass++;
    if (r->pass_moves == 0 || r->pass >= r->passes_max) return 0;
    fill_queue(r, 0);
    return r->nqueue > 0;
}

void sm_refine_release(sm_refine *r)
{
    sm_cost_free(r->c);
    free(r->queue);
    free(r->next);
    memset(r, 0, sizeof *r);
}
