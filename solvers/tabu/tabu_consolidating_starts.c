/* tabu_consolidating_starts.c - starts that pack the blocks onto as few, as efficient
 * processors as the deadline allows (issue #14, loose deadlines).
 *
 * At a loose deadline the optimum empties processors: everything on one
 * GPU, or 123 blocks on one CPU and a compact corner of 5 on the other.
 * Local moves cannot get there from a balanced start, because emptying a
 * processor pays only once the last block has left it. These starts fill
 * processors in order of marginal energy per cell up to the cells the
 * deadline lets each compute (less a little slack for communication),
 * along orders whose tail (the spill onto the next processor) is a
 * compact corner: axis sweeps and growing cubes, from either end. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/threads.h"
#include "tabu_consolidating_starts.h"
#include "tabu_node_partition_starts.h"
#include "tabu_rounds_descent.h"

typedef struct {
    long long key;
    int u;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->u > y->u) - (x->u < y->u);
}

/* Block order number `which`: 0..5 axis permutations (first axis
 * fastest), 6 growing cubes from block (0,0,0); reversed when rev. */
static void make_order(const sm_grid *g, int which, int rev, int *order, keyed *tmp)
{
    static const int perm[6][3] = {{0, 1, 2}, {1, 0, 2}, {2, 0, 1}, {0, 2, 1}, {1, 2, 0}, {2, 1, 0}};
    const int *B = g->spec.blocks;
    int n = g->ntasks;
    for (int u = 0; u < n; u++) {
        int c[3] = {u % B[0], (u / B[0]) % B[1], u / (B[0] * B[1])};
        long long key;
        if (which < 6) {
            const int *a = perm[which];
            key = c[a[0]] + (long long)B[a[0]] * (c[a[1]] + (long long)B[a[1]] * c[a[2]]);
        } else {
            int shell = c[0] > c[1] ? c[0] : c[1];
            if (c[2] > shell) shell = c[2];
            key = (long long)shell * n + u;
        }
        tmp[u].key = rev ? -key : key;
        tmp[u].u = u;
    }
    qsort(tmp, (size_t)n, sizeof *tmp, by_key);
    for (int i = 0; i < n; i++) order[i] = tmp[i].u;
}

/* Energy a cell adds on p when the makespan stays put: its dynamic
 * energy plus static power instead of idle power while it computes. */
static double marginal(const sm_topo *t, int p)
{
    const sm_params *q = sm_topo_proc_params(t, p);
    return q->energy_per_cell + (q->p0 - q->p_idle) * q->time_per_cell;
}

static const sm_topo *sort_topo;

static int by_marginal(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    double mx = marginal(sort_topo, x), my = marginal(sort_topo, y);
    if (mx != my) return mx < my ? -1 : 1;
    return (x > y) - (x < y);
}

/* Fill along order: each processor of procs in turn takes blocks while
 * its cells stay within its capacity; what is left goes to the last. */
static void fill(const sm_grid *g, const int *order, const int *procs, int np, const double *cap, int *map)
{
    int k = 0;
    double cells = 0;
    for (int i = 0; i < g->ntasks; i++) {
        int u = order[i];
        while (k < np - 1 && cells + (double)g->task_cells[u] > cap[procs[k]]) {
            k++;
            cells = 0;
        }
        map[u] = procs[k];
        cells += (double)g->task_cells[u];
    }
}

/* The starts' parameters: block order b, processor order po, slack
 * (consolidation_starts enumerates them in that order). */
typedef struct {
    const sm_solver *s;
    const int *sorted;
    int nblock, nporders, nslack;
    double deadline, avg;
    sm_eval *ev;                /* [b][po][slack] */
} consol_job;

/* Start (b, po, slack)'s mapping into map, its block order b already in
 * order; procs and cap are scratch of P. */
static void consol_fill(const consol_job *j, const int *order, int po, int slack, int *procs, double *cap, int *map)
{
    const sm_topo *t = j->s->topo;
    int P = t->nprocs, np = 0;
    if (po > 0) procs[np++] = po - 1;
    for (int i = 0; i < P; i++)
        if (po == 0 || j->sorted[i] != po - 1) procs[np++] = j->sorted[i];
    for (int p = 0; p < P; p++) {
        const sm_params *q = sm_topo_proc_params(t, p);
        double c = q->time_per_cell > 0 ? floor(j->deadline / q->time_per_cell) : INFINITY;
        if (q->memory > 0 && q->bytes_per_cell > 0 && q->memory / q->bytes_per_cell < c)
            c = floor(q->memory / q->bytes_per_cell);
        cap[p] = c - slack * j->avg;
    }
    fill(j->s->grid, order, procs, np, cap, map);
}

static void consol_order(const consol_job *j, int b, int *order, keyed *tmp)
{
    make_order(j->s->grid, j->nblock == 14 ? b / 2 : 6, b % 2, order, tmp);
}

/* Block order b's starts evaluated (item b of a parallel loop: it
 * writes only its own evaluations). */
static void consol_item(int b, void *arg)
{
    const consol_job *j = arg;
    const sm_grid *g = j->s->grid;
    int n = g->ntasks, P = j->s->topo->nprocs;
    int *order = sm_xmalloc(sizeof(int) * (size_t)n), *map = sm_xmalloc(sizeof(int) * (size_t)n);
    keyed *tmp = sm_xmalloc(sizeof(keyed) * (size_t)n);
    int *procs = sm_xmalloc(sizeof(int) * (size_t)P);
    double *cap = sm_xmalloc(sizeof(double) * (size_t)P);
    consol_order(j, b, order, tmp);
    for (int po = 0; po < j->nporders; po++)
        for (int slack = 0; slack < j->nslack; slack++) {
            consol_fill(j, order, po, slack, procs, cap, map);
            sm_solver_evaluate(j->s, map, &j->ev[((size_t)b * j->nporders + po) * j->nslack + slack]);
        }
    free(order);
    free(map);
    free(tmp);
    free(procs);
    free(cap);
}

/* Above this many blocks the block orders are evaluated one at a time
 * (each holds its order, a mapping and a cost state over the grid). */
#define CONSOL_PARALLEL_MAX (1 << 21)

int sm_consolidation_starts(sm_solver *s)
{
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    int n = g->ntasks, P = t->nprocs, offered = 0;
    if (n == 0 || P < 2 || !s->model.has_deadline) return 0;
    double deadline = s->model.deadline * (1 + 1e-9);
    double avg = 0;
    for (int u = 0; u < n; u++) avg += (double)g->task_cells[u];
    avg /= n;

    int *sorted = sm_xmalloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) sorted[p] = p;
    sort_topo = t;
    qsort(sorted, (size_t)P, sizeof(int), by_marginal);

    /* Processor orders: by marginal energy, and on small machines each
     * processor first with the rest by marginal energy. */
    int nporders = P <= 8 ? P + 1 : 1;
    /* Block orders: all seven both ways, four slacks; each start costs an
     * evaluation in O(n), so large grids keep the growing cubes and two
     * slacks within a budget of a few million block visits. */
    int nblock = 14, nslack = 4;
    const double budget = 4e6;
    if ((double)nblock * nporders * nslack * n > budget) nporders = 1;
    if ((double)nblock * nporders * nslack * n > budget) { nblock = 2; nslack = 2; }
    /* Evaluated side by side, one block order an item; then offered in
     * order, as one after another did: a start that would become the best
     * is made again (its fill, O(n)) and offered, the others not at all.
     * The same starts win for any number of threads. */
    consol_job j = {s, sorted, nblock, nporders, nslack, deadline, avg, NULL};
    j.ev = sm_xmalloc(sizeof(sm_eval) * (size_t)nblock * (size_t)nporders * (size_t)nslack);
    sm_parallel_for(n <= CONSOL_PARALLEL_MAX ? sm_solver_threads(s) : 1, nblock, consol_item, &j);
    int *order = sm_xmalloc(sizeof(int) * (size_t)n);
    int *map = sm_xmalloc(sizeof(int) * (size_t)n);
    keyed *tmp = sm_xmalloc(sizeof(keyed) * (size_t)n);
    int *procs = sm_xmalloc(sizeof(int) * (size_t)P);
    double *cap = sm_xmalloc(sizeof(double) * (size_t)P);
    int have_order = -1;
    for (int b = 0; b < nblock; b++)
        for (int po = 0; po < nporders; po++)
            for (int slack = 0; slack < nslack; slack++) {
                const sm_eval *ev = &j.ev[((size_t)b * nporders + po) * nslack + slack];
                offered++;
                /* sm_solver_offer's own test: it would not keep it. */
                if (s->has_best && sm_eval_compare(ev, &s->best) >= 0) continue;
                if (have_order != b) consol_order(&j, b, order, tmp);
                have_order = b;
                consol_fill(&j, order, po, slack, procs, cap, map);
                sm_solver_offer(s, map, ev);
            }
    free(j.ev);
    free(order);
    free(map);
    free(tmp);
    free(procs);
    free(cap);
    free(sorted);
    return offered;
}

/* Box starts: one processor holds a box of the grid against its boundary
 * (any size, any corner; along a wrapping axis the offset does not
 * matter), another the rest. The optimum of two busy processors is often
 * such a box: on the Sphere grid (wrapping in I and J) at 23.8 ms, 24
 * blocks as 3x4x2 against the K face cut 28 pairs where tabu's 5x4x1 of
 * 20 blocks cuts as many but keeps the CPU busier; single moves cannot
 * reshape one into the other without cutting more first. Processors of
 * the same type on the same node are tried once. */
int sm_box_starts(sm_solver *s)
{
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    int n = g->ntasks, P = t->nprocs, offered = 0;
    if (n < 2 || P < 2) return 0;
    const int *B = g->spec.blocks;
    /* Distinct processor kinds (type and node). */
    int *rep = sm_xmalloc(sizeof(int) * (size_t)P), nk = 0;
    int *second = sm_xmalloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        int k = 0;
        while (k < nk && !(t->procs[rep[k]].type == t->procs[p].type && t->procs[rep[k]].node == t->procs[p].node &&
                            t->procs[rep[k]].state == t->procs[p].state)) k++;
        if (k == nk) { rep[nk] = p; second[nk++] = -1; }
        else if (second[k] < 0) second[k] = p;
    }
    /* Shapes times anchors times kind pairs, each an O(n) evaluation:
     * small grids and machines only. */
    double anchors = 1;
    for (int a = 0; a < 3; a++) anchors *= g->spec.periodic[a] ? 1 : 2;
    double work = (double)n * anchors * nk * nk * n;
    if (work > 3e7) {
        free(rep); free(second);
        return 0;
    }
    int *map = sm_xmalloc(sizeof(int) * (size_t)n);
    int ext[3];
    for (ext[2] = 1; ext[2] <= B[2]; ext[2]++)
        for (ext[1] = 1; ext[1] <= B[1]; ext[1]++)
            for (ext[0] = 1; ext[0] <= B[0]; ext[0]++) {
                if (ext[0] == B[0] && ext[1] == B[1] && ext[2] == B[2]) continue;
                for (int corner = 0; corner < 8; corner++) {
                    int lo[3], skip = 0;
                    for (int a = 0; a < 3; a++) {
                        int high = corner >> a & 1;
                        /* One anchor where the side does not matter. */
                        if (high && (g->spec.periodic[a] || ext[a] == B[a])) skip = 1;
                        lo[a] = high ? B[a] - ext[a] : 0;
                    }
                    if (skip) continue;
                    for (int i = 0; i < nk; i++)
                        for (int j = 0; j < nk; j++) {
                            int rest = rep[i], box = i == j ? second[i] : rep[j];
                            if (box < 0) continue;
                            for (int u = 0; u < n; u++) {
                                int c[3];
                                sm_grid_coords(g, u, c);
                                int in = 1;
                                for (int a = 0; a < 3; a++) in &= c[a] >= lo[a] && c[a] < lo[a] + ext[a];
                                map[u] = in ? box : rest;
                            }
                            sm_eval ev;
                            sm_solver_evaluate(s, map, &ev);
                            sm_solver_offer(s, map, &ev);
                            offered++;
                        }
                }
            }
    free(map);
    free(rep);
    free(second);
    return offered;
}

/* Where inter-node links are expensive the energy falls with the nodes
 * used, while the deadline lets fewer nodes hold the grid: the domain
 * decomposition on K < all nodes (rcb -nodes K: one box of the grid a
 * node) is then far below every start on all nodes, and no sequence of
 * single moves reaches it (a node pays its idle power and keeps its cut
 * until its last block leaves). K runs over a geometric ladder from the
 * nodes down to 2 (each about 2^(-1/4) of the one before), the powers of
 * two (where rcb's boxes tile a cube exactly) among them. Offered like
 * every start: the best feasible one at the deadline is kept, so they
 * change nothing where they lose. A start that computes within the
 * deadline but whose rounds pass it is lowered first by tabu's compound
 * step (sm_rounds_repair) and offered again: 32 nodes, inter-node links
 * x150, 4096 blocks: rcb -nodes 14 has 592 rounds against the deadline's
 * 540, 528 after 12 steps, and tabu ends on 14 nodes at 19.60 J instead
 * of 16 at 20.33 J. */
typedef struct {
    const sm_solver *s;
    const int *ks;
    sm_solver **sub;
} node_batch;

static void run_node_start(int i, void *arg)
{
    node_batch *b = arg;
    char kk[24];
    snprintf(kk, sizeof kk, "%d", b->ks[i]);
    const char *argv[2] = {"-nodes", kk};
    b->sub[i] = sm_solver_run_sub(b->s, &sm_solver_rcb, NULL, 2, argv);
}

int sm_node_starts(sm_solver *s)
{
    int nodes = s->topo->nnodes, offered = 0, nk = 0;
    if (nodes < 3 || s->grid->ntasks > SM_NODE_STARTS_MAX_BLOCKS) return 0;
    /* nodes + 1: at 3 nodes ceil(3 / sqrt 2) is 3 itself (never taken:
     * K < nodes below), which wrote past a table of nodes entries. */
    unsigned char *want = sm_xcalloc((size_t)nodes + 1, 1);
    for (double k = nodes / SM_NODE_STARTS_RATIO; k >= 2; k /= SM_NODE_STARTS_RATIO) want[(int)ceil(k - 1e-9)] = 1;
    for (int k = 2; k < nodes; k *= 2) want[k] = 1;
    int *ks = sm_xmalloc(sizeof(int) * (size_t)nodes);
    for (int k = nodes - 1; k >= 2; k--)
        if (want[k]) ks[nk++] = k;
    /* Side by side (core/lib/threads.h), offered in K order: the same
     * starts for any -threads. */
    sm_solver **sub = sm_xcalloc((size_t)(nk ? nk : 1), sizeof *sub);
    node_batch b = {s, ks, sub};
    if (!(s->interrupt && *s->interrupt)) sm_parallel_for(sm_solver_threads(s), nk, run_node_start, &b);
    double *dd_energy = sm_xmalloc(sizeof(double) * (size_t)(nk ? nk : 1));
    for (int i = 0; i < nk; i++) {
        dd_energy[i] = INFINITY;
        if (sub[i] && sub[i]->has_best) {
            sm_solver_offer(s, sub[i]->best_map, &sub[i]->best);
            offered++;
            dd_energy[i] = sub[i]->best.energy;
            /* Past the deadline by its rounds alone: lowered as tabu's
             * compound step lowers them, then offered too. */
            const sm_eval *b = &sub[i]->best;
            if (!b->feasible && b->memory_ok && b->comm_time > b->comp_time && b->comp_time <= s->model.deadline) {
                sm_cost *c = sm_cost_new_figures(s->grid, s->topo, &s->model, sub[i]->best_map);
                if (sm_rounds_repair(c, &s->model, SM_NODE_STARTS_REPAIR_STEPS) > 0) {
                    sm_eval ev;
                    sm_solver_evaluate(s, c->map, &ev);
                    sm_solver_offer(s, c->map, &ev);
                    if (ev.energy < dd_energy[i]) dd_energy[i] = ev.energy;
                }
                sm_cost_free(c);
            }
        }
        sm_solver_free(sub[i]);
    }
    free(sub);
    /* The node-level partitions, on the same ladder, for the K whose
     * decomposition costs at most SM_NODE_PARTITION_GATE times the best
     * start's energy (feasible or not): they improve on it by a few
     * per cent, so the others cannot win and are not worth their search. */
    int np = 0;
    double gate = s->has_best ? s->best.energy * SM_NODE_PARTITION_GATE : INFINITY;
    for (int i = 0; i < nk; i++)
        if (dd_energy[i] <= gate) ks[np++] = ks[i];
    free(dd_energy);
    if (!(s->interrupt && *s->interrupt)) offered += sm_node_partition_starts(s, ks, np, SM_NODE_STARTS_REPAIR_STEPS);
    free(ks);
    free(want);
    return offered;
}

/* Where the rounds set the makespan, the start of least energy can lie in
 * a basin of more rounds than a costlier one: 32 summit-like nodes,
 * inter-node links x1, 4096 blocks: rcb -types v100 (1.552 J, 376 rounds)
 * is the best start and the search from it ends at 1.540 J, while from rcb
 * over every processor (1.642 J, 328 rounds: the CPUs take boundary
 * blocks) it ends at 1.490 J. No single move lowers the rounds while
 * several processors share the busiest degree. So a short search from
 * rcb over every processor (SM_RCB_SEARCH_ITERS steps, the solver's
 * seed, tenures, candidates and threads, no starts of its own) is offered
 * like every start when the rounds set the best start's makespan: it
 * changes nothing where it loses. */
int sm_rcb_search_start(sm_solver *s, const sm_solver_ops *tabu)
{
    if (s->topo->nnodes < 3 || s->grid->ntasks > SM_NODE_STARTS_MAX_BLOCKS) return 0;
    if (strcmp(sm_opt_str(s, "objective"), "energy") != 0) return 0;
    /* Only where the rounds set the best start's makespan. */
    if (!s->has_best || !(s->best.comm_time > s->best.comp_time)) return 0;
    if (s->interrupt && *s->interrupt) return 0;
    sm_solver *r = sm_solver_run_sub(s, &sm_solver_rcb, NULL, 0, NULL);
    int offered = 0;
    if (r && r->has_best && r->best.energy <= s->best.energy * SM_RCB_SEARCH_GATE) {
        char iters[24], seed[24], ta[24], tr[24], cand[24], thr[24];
        snprintf(iters, sizeof iters, "%d", SM_RCB_SEARCH_ITERS);
        snprintf(seed, sizeof seed, "%lld", (long long)sm_opt_int(s, "seed"));
        snprintf(ta, sizeof ta, "%lld", (long long)sm_opt_int(s, "tenure-add"));
        snprintf(tr, sizeof tr, "%lld", (long long)sm_opt_int(s, "tenure-remove"));
        snprintf(cand, sizeof cand, "%lld", (long long)sm_opt_int(s, "candidates"));
        snprintf(thr, sizeof thr, "%lld", (long long)sm_opt_int(s, "threads"));
        const char *argv[] = {"-from", "current", "-node-starts", "off", "-multilevel", "off",
                              "-iters", iters, "-seed", seed, "-tenure-add", ta, "-tenure-remove", tr,
                              "-candidates", cand, "-threads", thr};
        sm_err e;
        sm_solver *h = sm_solver_new(tabu, s->grid, s->topo, &s->model, r->best_map,
                                     (int)(sizeof argv / sizeof argv[0]), argv, &e);
        if (h) {
            h->interrupt = s->interrupt;
            sm_solver_step(h, SM_RCB_SEARCH_ITERS);
            if (h->has_best) {
                sm_solver_offer(s, h->best_map, &h->best);
                offered = 1;
            }
            sm_solver_free(h);
        }
    }
    sm_solver_free(r);
    return offered;
}
