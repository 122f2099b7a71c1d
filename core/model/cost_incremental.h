/* cost_incremental.h - the cost model of SPEC 3, kept up to date incrementally:
 * moving or swapping a block costs time proportional to its degree
 * (times log P for the heaps that track maxima). */
#ifndef SM_COST_INCREMENTAL_H
#define SM_COST_INCREMENTAL_H

#include <stdint.h>
#include "grid.h"
#include "core/lib/heap.h"
#include "model.h"
#include "core/lib/pairmap.h"
#include "core/colouring/edge_colouring.h"
#include "topology.h"

#define SM_COST_PAIR_CACHE 64

typedef struct sm_cost {
    /* Unique to this cost state (never reused, unlike its address), so
     * a view kept in step with its moves knows it is still the same. */
    unsigned long long serial;
    const sm_grid *grid;
    const sm_topo *topo;
    sm_model model;
    int nprocs;
    int *map;              /* block -> processor (owned) */

    /* Per processor: coefficients and state. */
    double *tpc, *epc, *p0, *pidle;
    int64_t *mem_cells;    /* capacity in cells, or -1 */
    int64_t *cells, *blocks, *deg, *deg1;
    double *comm_energy;   /* cut-edge energy charged to the sender */
    sm_heap comp, hdeg, hdeg1;

    /* Per processor pair: multiplicities and their maxima. */
    sm_pairmap pairs;
    int64_t *mu, *mu1;
    int mu_cap;
    sm_heap hmu, hmu1;     /* kept only under vizing (cost_incremental.c) */
    /* Pairs edge_contrib met lately, by a hash of the pair (cost_incremental.c). */
    struct sm_cost_pair_cache { int p, q, slot; } pair_cache[SM_COST_PAIR_CACHE];
    /* sm_cost_pairs_off: no per-pair counts kept (pairs empty); the links
     * of directed processor pairs met lately, by a hash of the pair. */
    int pairs_off;
    int links_uncached;          /* sm_cost_follow_only: dir_links not used */
    struct sm_cost_dir_link *dir_links;
    double quanta_tpc;           /* the last quanta worked out there, and for what */
    int64_t quanta_cells, quanta_k;

    /* Per pair slot and direction (slot * 2 + (src > dst)): the link and
     * the quanta of the last cell count sent over it, so a cut edge does
     * not route through the network or divide by the round again. Only
     * pairs that ever carried a cut edge: no P x P table. */
    struct sm_cost_link_memo *memo;
    /* Per pair slot and direction (as memo): messages and halo cells, so
     * the link loads come from the pairs (sm_cost_traffic) and not from a
     * walk over every task edge. */
    int64_t *dir_msgs, *dir_cells;

    /* Heap keys a move changed, pushed once when it ends: a moved block's
     * edges touch the same processors and pairs as they leave and rejoin. */
    int *dirty_proc, ndirty_proc, *dirty_slot, ndirty_slot;
    char *proc_marked, *slot_marked;
    unsigned char *moving; /* per block, during sm_cost_move_set (lazily made) */

    /* Running sums. */
    double dyn, stat, idle_comp, pidle_used, pidle_all;
    double comm_intra, comm_inter;
    int64_t messages, edges, edges_intra, edges_inter;
    int procs_used, mem_over;

    /* The colouring kept up to date once evaluated (cost_rounds_term.c). */
    struct sm_cost_colouring *col;

    /* A trial (sm_cost_trial_begin): the running sums as they were, and
     * each comm_energy entry before its first change, to put back. */
    int trial;
    double trial_sums[7];
    struct sm_cost_trial_entry { int p; double was; } *trial_log;
    int ntrial_log, trial_log_cap;
} sm_cost;

/* Build for a mapping (copied). */
sm_cost *sm_cost_new(const sm_grid *g, const sm_topo *t, const sm_model *m,
                     const int *map);
/* The same with the pairs off from the start where the model allows
 * (sm_cost_pairs_off): the same figures, bit for bit, for a private state
 * whose pairs nobody reads: the stepper's evaluations, and tabu's and
 * refinement's states and replicas (solvers/tabu/), whose moves under
 * maxdeg then skip the pair hash and counts (262 K blocks, one thread:
 * about 0.85x the solve's time). */
sm_cost *sm_cost_new_figures(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map);
/* The same made on up to two threads (its blocks beside its edges: the
 * same state bit for bit), for a caller with a core to spare. */
sm_cost *sm_cost_new_figures_threads(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                                     int threads);
/* A second state equal to c, bit for bit (every sum, count and heap), at
 * a copy's cost rather than a build's: for the replicas a search scores
 * on beside c. Only for a state with its pairs off, outside a trial and
 * whose colouring was never used (NULL otherwise: build it). */
sm_cost *sm_cost_clone(const sm_cost *c);
void sm_cost_free(sm_cost *c);
void sm_cost_set_model(sm_cost *c, const sm_model *m);

void sm_cost_move(sm_cost *c, int block, int proc);
/* Every block to map[block]: moves when few blocks change, a rebuild
 * (O(blocks + edges)) when many do. c and c->map stay where they are. */
void sm_cost_remap(sm_cost *c, const int *map);
/* The same, a rebuild made on up to two threads (its blocks beside its
 * edges: the same state bit for bit). */
void sm_cost_remap_threads(sm_cost *c, const int *map, int threads);
/* Move each of blocks[0..nb) to to[block] (to: a whole mapping, such as
 * a solver's): the same result as moving them one by one, in less work,
 * since an edge between two of them is taken out and put back once (a
 * region moving together costs its boundary, not its inside) and the
 * heaps are updated once per processor and pair. Listed blocks already
 * in place, or listed twice, are fine. */
void sm_cost_move_set(sm_cost *c, const int *blocks, int nb, const int *to);
/* Run processor p with other parameters (a DVFS state a solver tries):
 * its sums and the makespan heap follow in O(log P). */
void sm_cost_set_params(sm_cost *c, int p, const sm_params *pa);
void sm_cost_swap(sm_cost *c, int b1, int b2);
/* A trial: moves (and sm_cost_set_params) made after sm_cost_trial_begin
 * and undone by the caller before sm_cost_trial_end leave the state
 * exactly as it was, bit for bit. Without it a move and its undo leave
 * rounding in the last bits of the running sums (x + a - a != x), so the
 * score of a move would depend on which moves were tried before it; with
 * it a move's score depends only on the mapping, and replicas of one
 * mapping score a move alike whatever else each tried (the parallel tabu
 * step, solvers/tabu/tabu_task_movement.c). The integer state comes back by the undo
 * itself; the end puts back the floating-point sums. */
void sm_cost_trial_begin(sm_cost *c);
void sm_cost_trial_end(sm_cost *c);
/* Ends a trial keeping its moves (not undone): the state, bit for bit,
 * that the same moves made outside a trial from the trial's start give
 * (each running sum is the moves' own from the same values; the heaps
 * are brought to the same keys). For a state with its pairs off
 * (sm_cost_pairs_off): with pairs a colouring follows every move made,
 * so a move kept is not a move undone and made again. A caller that
 * takes a move it tried saves the undo and the second move. */
void sm_cost_trial_keep(sm_cost *c);
/* Pair slots of pairs no cut edge joins any more given back, the others
 * renumbered in their order: the same figures, bit for bit, in less
 * memory to walk (a search exchanging blocks all over the machine leaves
 * most slots empty: bokhari at 4096 blocks, 650 k slots for 16 k live
 * edges). Not under a live colouring (its schedule keeps the slots) nor
 * in a trial: then it does nothing. Returns the slots given back. */
int sm_cost_compact_pairs(sm_cost *c);
/* Keep no per-pair counts from now on: under maxdeg the figures of
 * sm_cost_eval and sm_cost_proc read none, and a search exchanging blocks
 * all over the machine makes new pairs at every move (bokhari at 4096
 * blocks: most of the stepper's cost of following it). Every figure stays
 * the same, bit for bit. What reads the pairs (sm_cost_traffic,
 * sm_cost_pairs, schedules, another rounds model through
 * sm_cost_set_model) brings them back first, counted from the mapping
 * (whole numbers: exact); c->pairs is empty until then, so code that
 * reads c->pairs or c->mu directly (tui/app/compared_pair_rows.c) must
 * never be given such a state: only private ones (the stepper's) turn
 * their pairs off. Those readers also write the state back, so one such
 * state is never shared between threads. Returns -1, doing nothing,
 * under another rounds model, a live colouring or in a trial. */
int sm_cost_pairs_off(sm_cost *c);
/* For a state that follows a mapping's moves, each once (the stepper's
 * view of a solver's current mapping), with its pairs off: a cut edge's
 * link is worked out from the topology each time instead of through the
 * cache of directed pairs, whose entries such a state meets once (a
 * search tries a move and takes it back: there the cache answers the
 * second time). Bokhari recorded at 4096 blocks: 160 KB of cache misses
 * for nothing, ~10 % of its time. The same numbers either way. */
void sm_cost_follow_only(sm_cost *c);
/* Evaluate the current state. The colouring model builds a schedule. */
void sm_cost_eval(const sm_cost *c, sm_eval *out);
/* Cheap evaluation: under colouring uses the lower bound, not a schedule. */
void sm_cost_eval_fast(const sm_cost *c, sm_eval *out);
/* One direction of a processor pair's traffic: its cut edges (messages)
 * and their halo cells. */
typedef struct sm_traffic { int src, dst; int64_t messages, cells; } sm_traffic;
/* Every directed pair that exchanges messages now (sorted by (src, dst)
 * when asked); caller frees. O(pairs), kept up to date by moves. */
int sm_cost_traffic(const sm_cost *c, int sorted, sm_traffic **out);
/* The multigraph M (or M1) as a pair list; caller frees. */
sm_pairmu *sm_cost_pairs(const sm_cost *c, int messages, int *n);
/* The schedule of M: repaired incrementally after the first call (a full
 * rebuild only when the repair drifted further above the maximum degree
 * than the last rebuild was, or when at most four processors
 * communicate, where it is exact). Free with sm_schedule_free. */
void sm_cost_schedule(const sm_cost *c, sm_schedule *s);
/* The same into a schedule an earlier call filled (or a zeroed one),
 * reusing its arrays: a view that follows a mapping move by move. */
void sm_cost_schedule_refill(const sm_cost *c, sm_schedule *s);
/* Rounds and their certified lower bound under "colouring" for M
 * (messages 0) or M1 (messages 1), from the incremental schedule. */
void sm_cost_colouring_rounds(const sm_cost *c, int messages, int64_t *rounds, int64_t *lower);
/* Full rebuilds so far (both multigraphs), for benchmarks and tests. */
long sm_cost_colouring_rebuilds(const sm_cost *c);
/* Start c's colouring from src's when both hold the same mapping of the
 * same grid and machine: a copy of src's schedules (built first if src
 * has none yet) instead of a full build of c's own. A second view of one
 * mapping (the workbench mirroring a solver that starts from the
 * session's mapping) then costs a copy. Returns -1, doing nothing, when
 * the mappings differ. */
int sm_cost_adopt_colouring(sm_cost *c, const sm_cost *src);

typedef struct sm_proc_eval {
    int64_t blocks, cells;
    double comp_time, idle_time;
    double energy, energy_dynamic, energy_static, energy_idle, energy_comm;
} sm_proc_eval;
/* Per processor figures for the evaluation ev. */
void sm_cost_proc(const sm_cost *c, const sm_eval *ev, int p, sm_proc_eval *o);

/* Link per-cell time and energy between two processors. */
void sm_cost_link(const sm_cost *c, int p, int q, double *tpc, double *epc);

/* Reference evaluation from scratch, independent of the incremental state,
 * used to check it. */
void sm_eval_reference(const sm_grid *g, const sm_topo *t, const sm_model *m,
                       const int *map, sm_eval *out);

#endif
