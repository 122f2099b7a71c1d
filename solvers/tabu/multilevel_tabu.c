/* multilevel_tabu.c - multilevel tabu (see multilevel_tabu.h).
 *
 * Levels: level 0 is the session's grid; level l+1 aggregates level l
 * 2x2x2 (solvers/tabu/multilevel_block_grid_coarsening.c, exact in work and halo cells) until at most
 * max(2048, 16 P) blocks are left, or, past the first aggregation, the
 * next would leave fewer than NODE_BLOCKS_MIN a node (nodes of several
 * processors). The coarsest level is solved by the
 * flat tabu search (its starts, -iters iterations), held to the model's
 * deadline or, without one, to the fastest lb time on level 0 plus
 * SM_MULTILEVEL_SLACK (fine_deadline).
 * Each finer level starts from the projection of the coarser mapping,
 * which keeps every processor's cells, and is refined by passes over its
 * boundary blocks (multilevel_boundary_refinement.c), PASSES_MAX at most, each
 * chunk of blocks proposing its moves side by side on -threads workers.
 */
#include "multilevel_tabu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/huge_pages.h"
#include "core/lib/threads.h"
#include "solvers/tabu/multilevel_block_grid_coarsening.h"
#include "core/model/speed_proportional_quota.h"
#include "multilevel_boundary_refinement.h"
#include "tabu_consolidating_starts.h"

#define LEVELS_MAX 16
#define PASSES_MAX 8
#define CHUNK 4096       /* boundary blocks tried per step */
#define COARSE_STEPS 16  /* coarse tabu iterations per step: ~10 ms at 4096 processors */

struct sm_multilevel {
    int nlev;
    const sm_grid *grid[LEVELS_MAX]; /* [0] the session's; others owned */
    /* Each level's block counts: level l+1 aggregates level l 2x2x2 by
     * coordinates, so a block's coarse block and a coarse block's fine
     * blocks are arithmetic (no up or children arrays: at 16.7 M blocks
     * those were 136 MB through the level-1 refinement, the peak). They
     * outlive the coarser grids, given back once refinement is below
     * them. */
    int blocks[LEVELS_MAX][3];
    sm_solver *coarse;               /* tabu on the coarsest level */
    int level;                       /* level being refined; nlev-1: coarse phase */
    sm_refine ref;                   /* refining `level` (once coarse is done) */
    long long moves, tried;          /* over the finished levels */
    int *shown;                      /* level-0 projection of the search's current mapping */
    /* Its cost state, kept in step by the blocks each projection moved:
     * the current mapping's figures are its own (they were the last
     * offer's, stale through the coarse search: the status line and the
     * Solver pane disagreed at 16.7 M blocks). */
    sm_cost *shown_cost;
    /* The level-shown_level mapping shown projects (a copy), so the next
     * one is followed by the coarse blocks that changed: a coarse step
     * costs the fine blocks it moved, not a projection and a comparison
     * of the whole grid (16.7 M blocks at a whole Summit). */
    int *shown_src, shown_level;
    int *fine_moved, nfine_moved, fine_moved_cap;
    /* With threads, shown_cost follows a step's fine moves on a worker of
     * the search's pool while the search takes the next step (the same
     * batch in the same order as on the caller: the same figures, bit for
     * bit); the step's figures reach the stepper when the next show, a
     * level's end or the stepper's settle waits for it. The pool it runs
     * on (NULL: none running), the step and its figures. */
    sm_pool *follow_pool;
    long long follow_step;
    sm_eval follow_ev;
    /* Refining the session's grid: whether the best mapping is the
     * refined mapping as it was at the last offer it won, and the blocks
     * moved since (so an offer copies those, not the whole mapping). */
    int best_is_ref;
    int *pending, npending, pending_cap;
    unsigned long long rng;
};

int sm_multilevel_wanted(const sm_solver *s)
{
    const char *m = sm_opt_str(s, "multilevel");
    if (!m || strcmp(m, "off") == 0) return 0;
    /* Refinement scores energy: another objective keeps the flat path. */
    const char *obj = sm_opt_str(s, "objective");
    if (obj && strcmp(obj, "energy") != 0) return 0;
    if (strcmp(m, "on") == 0) return 1;
    return s->grid->ntasks >= SM_MULTILEVEL_AUTO;
}

/* The mapping at level l, projected down to level 0 into out. */
static void project_into(const sm_multilevel *ml, int l, const int *map, int *out)
{
    const int *src = map;
    int *tmp = NULL;
    for (int k = l; k > 0; k--) {
        int *dst = k == 1 ? out : sm_xmalloc(sizeof(int) * (size_t)ml->grid[k - 1]->ntasks);
        sm_grid_project_counts(ml->blocks[k - 1], src, dst);
        free(tmp);
        tmp = k == 1 ? NULL : dst;
        src = dst;
    }
    if (l == 0) memcpy(out, map, sizeof(int) * (size_t)ml->grid[0]->ntasks);
}

/* Level l's block c now on proc: its level-0 blocks in shown, and the
 * ones that moved listed in fine_moved. */
static void shown_move(sm_multilevel *ml, int l, int c, int proc)
{
    if (l == 0) {
        if (ml->shown[c] == proc) return;
        ml->shown[c] = proc;
        if (ml->nfine_moved == ml->fine_moved_cap) {
            ml->fine_moved_cap = ml->fine_moved_cap ? 2 * ml->fine_moved_cap : 1024;
            ml->fine_moved = sm_xrealloc(ml->fine_moved, sizeof(int) * (size_t)ml->fine_moved_cap);
        }
        ml->fine_moved[ml->nfine_moved++] = c;
        return;
    }
    int kids[8], nk = sm_grid_fine_blocks(ml->blocks[l - 1], c, kids);
    for (int i = 0; i < nk; i++) shown_move(ml, l - 1, kids[i], proc);
}

static void follow_task(void *arg)
{
    sm_multilevel *ml = arg;
    /* As one batch: a coarse block's fine blocks move together. */
    sm_cost_move_set(ml->shown_cost, ml->fine_moved, ml->nfine_moved, ml->shown);
    sm_cost_eval(ml->shown_cost, &ml->follow_ev);
}

/* The follow running on a worker done (shown, shown_cost and fine_moved
 * are the caller's again) and its step's figures handed to the stepper. */
static void follow_wait(sm_solver *s, sm_multilevel *ml)
{
    if (!ml->follow_pool) return;
    sm_pool_task_wait(ml->follow_pool);
    ml->follow_pool = NULL;
    s->current_pending = 0;
    sm_solver_current_ready(s, ml->follow_step, &ml->follow_ev);
}

void sm_multilevel_settle(sm_solver *s, sm_multilevel *ml) { follow_wait(s, ml); }

/* The pool of the search now running: the coarse tabu's or the level's
 * refinement's (NULL or one thread: no worker to follow on). */
static sm_pool *search_pool(const sm_multilevel *ml)
{
    sm_pool *p = ml->coarse ? ml->coarse->pool : ml->ref.pool;
    return sm_pool_size(p) > 1 ? p : NULL;
}

/* Off: every show evaluated on the caller, as with one thread (tests
 * compare the two). */
int sm_multilevel_follow_beside = 1;
_Atomic long long sm_multilevel_followed_beside;

/* After a step on a coarser level: the session's grid shows where the
 * search is now (its current mapping, projected), so the workbench's
 * panes follow every step, not only the end of each level. Display only:
 * the search and the offers do not read it. Once shown, the next mapping
 * of the same level is followed by the coarse blocks that changed (and
 * the stepper told the fine blocks moved, so the history need not
 * compare the grid either). now: the figures are needed before the step
 * ends (an offer); else, with a pool, they are evaluated beside the next
 * step (follow_task) and the step's left pending. */
static void show_current(sm_solver *s, sm_multilevel *ml, const int *map, int now)
{
    follow_wait(s, ml);
    const sm_grid *g = ml->grid[0];
    int l = ml->level, nl = ml->grid[l]->ntasks;
    if (!ml->shown_cost || !ml->shown_src || ml->shown_level != l) {
        project_into(ml, l, map, ml->shown);
        /* The first, at the start, on the caller alone: its blocks beside
         * its edges when there are threads (the same state). */
        if (!ml->shown_cost)
            ml->shown_cost = sm_cost_new_figures_threads(g, s->topo, &s->model, ml->shown, sm_solver_threads(s));
        else sm_cost_remap(ml->shown_cost, ml->shown);
        free(ml->shown_src);
        ml->shown_src = sm_xmalloc(sizeof(int) * (size_t)(nl ? nl : 1));
        memcpy(ml->shown_src, map, sizeof(int) * (size_t)nl);
        ml->shown_level = l;
    } else {
        ml->nfine_moved = 0;
        const int chunk = 256;
        for (int lo = 0; lo < nl; lo += chunk) {
            int hi = lo + chunk < nl ? lo + chunk : nl;
            if (memcmp(map + lo, ml->shown_src + lo, sizeof(int) * (size_t)(hi - lo)) == 0) continue;
            for (int c = lo; c < hi; c++)
                if (map[c] != ml->shown_src[c]) {
                    ml->shown_src[c] = map[c];
                    shown_move(ml, l, c, map[c]);
                }
        }
        if (s->current_map == ml->shown) {
            s->moves_known = 1;
            for (int i = 0; i < ml->nfine_moved; i++) sm_solver_moved(s, ml->fine_moved[i]);
        }
        sm_pool *p = now || !sm_multilevel_follow_beside ? NULL : search_pool(ml);
        if (p) {
            ml->follow_pool = p;
            ml->follow_step = s->iteration + 1; /* the step being taken */
            s->current_pending = 1;
            s->has_current = 1;
            s->current_map = ml->shown;
            sm_multilevel_followed_beside++;
            sm_pool_task(p, follow_task, ml);
            return;
        }
        /* As one batch: a coarse block's fine blocks move together. */
        sm_cost_move_set(ml->shown_cost, ml->fine_moved, ml->nfine_moved, ml->shown);
    }
    sm_cost_eval(ml->shown_cost, &s->current);
    s->has_current = 1;
    s->current_map = ml->shown;
}

/* The refined mapping of the session's grid offered: O(blocks moved
 * since the last offer it won), not O(blocks), while the best is it. */
static void offer_refined(sm_solver *s, sm_multilevel *ml, const sm_eval *ev)
{
    const int *map = ml->ref.c->map;
    if (ml->best_is_ref) {
        if (sm_solver_offer_patch(s, map, ev, ml->pending, ml->npending)) ml->npending = 0;
        return;
    }
    ml->npending = 0;
    if (sm_solver_offer(s, map, ev)) ml->best_is_ref = 1;
}

/* After a refinement step on the session's grid: its moves, for the
 * history (the current mapping's changes) and the next offer. Past a
 * quarter of the grid a whole copy is as cheap: the next offer won makes
 * one. */
static void note_moves(sm_solver *s, sm_multilevel *ml)
{
    const sm_refine *r = &ml->ref;
    s->moves_known = 1;
    for (int i = 0; i < r->nmoved; i++) sm_solver_moved(s, r->moved[i]);
    if (!ml->best_is_ref || r->nmoved == 0) return;
    if (4 * ((long long)ml->npending + r->nmoved) > (long long)ml->grid[0]->ntasks) {
        ml->best_is_ref = 0;
        ml->npending = 0;
        return;
    }
    if (ml->npending + r->nmoved > ml->pending_cap) {
        while (ml->npending + r->nmoved > ml->pending_cap) ml->pending_cap = ml->pending_cap ? 2 * ml->pending_cap : 1024;
        ml->pending = sm_xrealloc(ml->pending, sizeof(int) * (size_t)ml->pending_cap);
    }
    memcpy(ml->pending + ml->npending, r->moved, sizeof(int) * (size_t)r->nmoved);
    ml->npending += r->nmoved;
}

/* Refining the session's grid: its mapping is the current one, offered.
 * (Coarser levels are shown and offered through shown_cost.) */
static void offer_fine(sm_solver *s, sm_multilevel *ml)
{
    sm_eval ev;
    sm_cost_eval(ml->ref.c, &ev);
    s->current = ev;
    s->current_map = ml->ref.c->map;
    offer_refined(s, ml, &ev);
    s->has_current = 1;
}

/* Starts refining level l from map (a mapping of level l). */
static void start_level(sm_solver *s, sm_multilevel *ml, int l, const int *map)
{
    ml->moves += ml->ref.moves;
    ml->tried += ml->ref.tried;
    sm_refine_release(&ml->ref);
    ml->best_is_ref = 0;
    ml->npending = 0;
    ml->level = l;
    sm_refine_init_threads(&ml->ref, ml->grid[l], s->topo, &s->model, map, PASSES_MAX, &ml->rng,
                           sm_solver_threads(s));
}

/* Without a deadline, tabu holds itself to its fastest start heuristic's
 * time. On the coarsest grid that is loose (a CPU holds a few coarse
 * blocks), so the deadline comes from the session's grid: the fastest lb
 * order (O(n) each; they are also offered as mappings), plus the load
 * imbalance METIS allows by default (3 %): lb balances perfectly, which
 * leaves no room to shape the cut. */
/* The fastest lb order's time on grid g (no deadline); each mapping is
 * offered to s when g is s's grid. The mappings are lb's (the same fill,
 * core/model/speed_proportional_quota.c) built in one pass each: lb's stepper formats every
 * block's move, three million lines of text at a million blocks.
 * lb fills by speed alone: with big blocks its share on a GPU can pass
 * the GPU's memory, and a deadline no mapping within memory reaches
 * leaves every result infeasible. So lb's fill is also made within
 * memory (the shares a memory cannot hold go to the other processors by
 * speed), and the time is the fastest mapping's that fits in memory;
 * only when none does, the fastest of all. */
/* One fill and its evaluation per item (k: order k % 3, within memory
 * from k = 3), side by side; fastest_lb_of reads them in k order. */
typedef struct {
    const sm_grid *g;
    const sm_topo *t;
    sm_model m;                 /* the solver's, without a deadline */
    int *maps;                  /* width x ntasks */
    int width, threads;
    int nested;                 /* threads each order's cost state is made on */
    int first;
    int ready;                  /* items of the batch at `first` already made */
    int filled[3];
    sm_eval ev[3];
} lb_orders;

static void lb_order(int i, void *arg)
{
    static const sm_order orders[] = {SM_ORDER_IJK, SM_ORDER_JIK, SM_ORDER_KIJ};
    lb_orders *o = arg;
    int k = o->first + i;
    int *map = o->maps + (size_t)i * (size_t)(o->g->ntasks ? o->g->ntasks : 1);
    o->filled[i] = 1;
    if (k < 3) sm_fill(o->g, o->t, SM_SPEEDS_EXACT, orders[k], 1, map);
    else if (sm_fill_memory(o->g, o->t, SM_SPEEDS_EXACT, orders[k - 3], 1, map) != 1) {
        o->filled[i] = 0;
        return;
    }
    sm_cost *c = sm_cost_new_figures_threads(o->g, o->t, &o->m, map, o->nested);
    sm_cost_eval(c, &o->ev[i]);
    sm_cost_free(c);
}

/* Above this many blocks the orders run one at a time: each holds a
 * cost state over the whole grid (GBs at the whole Summit's 16.7 M). */
#define LB_ORDERS_PARALLEL_MAX (1 << 21)

/* The orders of grid g for s, width of them side by side. */
static void lb_orders_init(lb_orders *o, sm_solver *s, const sm_grid *g, int width)
{
    memset(o, 0, sizeof *o);
    o->g = g;
    o->t = s->topo;
    o->m = s->model;
    o->m.has_deadline = 0;
    o->threads = g->ntasks <= LB_ORDERS_PARALLEL_MAX ? sm_solver_threads(s) : 1;
    o->nested = 1;
    o->width = width ? width : o->threads < 3 ? o->threads : 3;
    o->maps = sm_xmalloc(sizeof(int) * (size_t)(g->ntasks ? g->ntasks : 1) * (size_t)o->width);
}

/* The fastest lb order's time on o's grid, its mappings offered in order
 * k when the grid is s's (the first batch already made when o->ready). */
static double fastest_lb_of(sm_solver *s, lb_orders *o)
{
    const sm_grid *g = o->g;
    double fastest = INFINITY, fastest_fits = INFINITY;
    int width = o->width;
    /* lb within memory (k = 3..5) only when no plain lb order fits. */
    for (int k0 = 0; k0 < 6; k0 += 3) {
        if (k0 == 3 && isfinite(fastest_fits)) break;
        int stop = 0;
        for (int first = k0; first < k0 + 3 && !stop; first += width) {
            int cnt = k0 + 3 - first < width ? k0 + 3 - first : width;
            if (!(o->ready && o->first == first)) {
                o->first = first;
                sm_parallel_for(o->threads, cnt, lb_order, o);
            }
            o->ready = 0;
            for (int i = 0; i < cnt; i++) {
                /* A fill within memory that fails ends the orders. */
                if (!o->filled[i]) {
                    stop = 1;
                    break;
                }
                const sm_eval *ev = &o->ev[i];
                if (ev->time < fastest) fastest = ev->time;
                if (ev->memory_ok && ev->time < fastest_fits) fastest_fits = ev->time;
                if (g == s->grid) sm_solver_offer(s, o->maps + (size_t)i * (size_t)g->ntasks, ev);
            }
        }
        if (stop) break;
    }
    free(o->maps);
    o->maps = NULL;
    return isfinite(fastest_fits) ? fastest_fits : fastest;
}

static double fastest_lb(sm_solver *s, const sm_grid *g)
{
    lb_orders o;
    lb_orders_init(&o, s, g, 0);
    return fastest_lb_of(s, &o);
}

/* lb (s's grid) holds s to its fastest order's time (o: the orders, the
 * first batch maybe made already). */
static void fine_deadline(sm_solver *s, lb_orders *o)
{
    double fastest = fastest_lb_of(s, o);
    if (!isfinite(fastest)) return;
    s->model.has_deadline = 1;
    s->model.deadline = fastest * (1 + SM_MULTILEVEL_SLACK);
    s->deadline_from = "fastest lb +3 %";
    sm_solver_set_stat(s, "deadline", s->model.deadline);
    /* The offers were judged without it: judge the best again (its
     * figures stay: only feasibility reads the deadline, and the best is
     * one of the lb orders evaluated afresh under this model without it;
     * a second evaluation cost a cost state over the whole grid). */
    if (s->has_best) sm_eval_judge(&s->best, &s->model);
}

/* Where nodes hold several processors, the coarsest grid keeps at least
 * this many blocks a node (after the first aggregation). Inter-node links
 * are what communication costs most, and a node's piece of the coarsest
 * grid is a staircase of coarse blocks that refinement's single moves
 * cannot smooth (a block at a step has more neighbours on its own side).
 * A whole Summit (4,608 nodes of 8), 16.7 M blocks: a coarsest grid of
 * 262 K blocks (57 a node) ends +1.27 % over model bound, of 2 M blocks
 * (455 a node) +0.63 % (communication 2074 -> 1904 J). */
#define NODE_BLOCKS_MIN 64

/* The block count of g aggregated 2x2x2 (sm_grid_coarsen's). */
static long long coarsened_blocks(const int blocks[3])
{
    long long n = 1;
    for (int a = 0; a < 3; a++) n *= (blocks[a] + 1) / 2;
    return n;
}

/* The levels: level 0 aggregated 2x2x2 while more than target blocks
 * are left and, past the first, the next leaves NODE_BLOCKS_MIN blocks a
 * node (stops early when the start is given up: the workbench's newer
 * `solver start`). */
static void coarsen_levels(sm_multilevel *ml, const sm_solver *s, int target)
{
    const sm_topo *t = s->topo;
    long long node_floor = t->nnodes > 1 && t->nnodes < t->nprocs ? (long long)NODE_BLOCKS_MIN * t->nnodes : 0;
    while (ml->nlev < LEVELS_MAX && ml->grid[ml->nlev - 1]->ntasks > target && !(s->interrupt && *s->interrupt)) {
        if (ml->nlev > 1 && coarsened_blocks(ml->blocks[ml->nlev - 1]) < node_floor) break;
        const sm_grid *f = ml->grid[ml->nlev - 1];
        int *up = sm_xmalloc(sizeof(int) * (size_t)f->ntasks);
        sm_grid *cg = sm_grid_coarsen(f, up);
        free(up);
        if (!cg) break;
        memcpy(ml->blocks[ml->nlev], cg->spec.blocks, sizeof ml->blocks[0]);
        ml->grid[ml->nlev++] = cg;
    }
}

/* The start's two independent whole-grid jobs side by side: the
 * coarsening (item 0) and the session grid's three lb orders (items
 * 1..3) that set the deadline. Each writes only its own part; the orders
 * are read in k order afterwards, so the result is the one-thread one. */
typedef struct {
    sm_multilevel *ml;
    const sm_solver *s;
    int target;
    lb_orders *o;
} start_job;

static void start_item(int i, void *arg)
{
    start_job *j = arg;
    if (i == 0) coarsen_levels(j->ml, j->s, j->target);
    else lb_order(i - 1, j->o);
}

sm_multilevel *sm_multilevel_new(sm_solver *s)
{
    const sm_grid *g = s->grid;
    int target = 16 * s->topo->nprocs;
    if (target < 2048) target = 2048;
    sm_multilevel *ml = sm_xcalloc(1, sizeof *ml);
    ml->grid[0] = g;
    memcpy(ml->blocks[0], g->spec.blocks, sizeof ml->blocks[0]);
    ml->nlev = 1;
    /* The deadline's lb orders, when the model has none, are made beside
     * the coarsening when there are threads for both (and memory: the
     * three orders' mappings and cost states at once). */
    lb_orders o;
    memset(&o, 0, sizeof o);
    int fused = !s->model.has_deadline && g->ntasks <= LB_ORDERS_PARALLEL_MAX && sm_solver_threads(s) > 1;
    if (fused) {
        lb_orders_init(&o, s, g, 3);
        /* On two threads the four items cannot end together: the
         * coarsening (1.7 orders' work at 262 K and 1 M blocks) and an
         * order on one, two orders on the other, which then waits. Each
         * order's state is made on two threads (its blocks beside its
         * edges, the same state), so the system shares the two cores
         * among what is left to do instead. */
        if (o.threads == 2) o.nested = 2;
        start_job j = {ml, s, target, &o};
        o.first = 0;
        sm_parallel_for(o.threads, 4, start_item, &j);
        o.ready = 1;
    } else {
        coarsen_levels(ml, s, target);
    }
    /* A start given up (the workbench's newer `solver start`) stops
     * between phases, each at most a pass over the grid. */
#define GIVEN_UP (s->interrupt && *s->interrupt)
    if (ml->nlev < 2 || GIVEN_UP) {
        free(o.maps);
        sm_multilevel_free(ml);
        return NULL;
    }
    /* The coarse search: flat tabu with the caller's options. */
    static const char *const pass[] = {"iters", "tenure-add", "tenure-remove", "candidates", "seed", "from", "threads"};
    char names[7][24], vals[7][sizeof(sm_opt_value){0}.s];
    const char *argv[20];
    int argc = 0;
    for (int i = 0; i < 7; i++) {
        const sm_opt_value *v = sm_solver_opt(s, pass[i]);
        if (!v || !v->set) continue;
        snprintf(names[i], sizeof names[i], "-%s", pass[i]);
        snprintf(vals[i], sizeof vals[i], "%s", v->s);
        argv[argc++] = names[i];
        argv[argc++] = vals[i];
    }
    argv[argc++] = "-multilevel";
    argv[argc++] = "off";
    /* The decompositions on fewer nodes are offered on the session's grid
     * below, not searched from on the coarse one: there a coarse message
     * merges 4 fine ones, so a decomposition near the deadline there can
     * miss it once refined (its rounds grow), leaving refinement nothing
     * feasible to improve (issue 38 item 2: 32768 blocks, 123.8 J where
     * the session's grid has 20.6 J). */
    argv[argc++] = "-node-starts";
    argv[argc++] = "off";
    /* The deadline first: the coarse search is held to it too, or it
     * would settle on the energy-cheapest processors at a looser one
     * that refinement cannot recover from. */
    if (!s->model.has_deadline) {
        if (!fused) lb_orders_init(&o, s, g, 0);
        fine_deadline(s, &o);
    }
    free(o.maps);
    if (GIVEN_UP) {
        sm_multilevel_free(ml);
        return NULL;
    }
    const sm_grid *cg = ml->grid[ml->nlev - 1];
    /* The session's mapping on the coarsest grid (each coarse block where
     * its first fine block is), for -from current. */
    const int *fine = s->start_map;
    int *start = NULL;
    for (int l = 0; l + 1 < ml->nlev; l++) {
        int *coarse = sm_xmalloc(sizeof(int) * (size_t)ml->grid[l + 1]->ntasks);
        sm_grid_restrict_first(ml->blocks[l], fine, coarse);
        free(start);
        fine = start = coarse;
    }
    /* A coarse block is up to 8^levels blocks: the deadline may be out of
     * the coarsest grid's reach. Hold the coarse search to what lb reaches
     * there when that is looser (refinement, which counts every processor's
     * time past the deadline, closes the gap on the finer grids); an
     * unreachable deadline would leave it the least-energy infeasible
     * mapping, all work on the most efficient processors. */
    sm_model coarse_model = s->model;
    if (coarse_model.has_deadline) {
        double reach = fastest_lb(s, cg) * (1 + SM_MULTILEVEL_SLACK);
        if (isfinite(reach) && reach > coarse_model.deadline) coarse_model.deadline = reach;
    }
#undef GIVEN_UP
    sm_err e;
    /* The coarse search is s's own solver (tabu) on the coarse grid. */
    ml->coarse = sm_solver_new(s->ops, cg, s->topo, &coarse_model, start, argc, argv, &e);
    free(start);
    if (!ml->coarse) {
        sm_multilevel_free(ml);
        return NULL;
    }
    /* Its last_move and explanation are read after each COARSE_STEPS
     * batch only (sm_multilevel_step): the batch's other steps make none. */
    ml->coarse->explain_last_only = 1;
    ml->level = ml->nlev - 1;
    ml->shown = sm_xmalloc(sizeof(int) * (size_t)(g->ntasks ? g->ntasks : 1));
    sm_advise_huge(ml->shown, sizeof(int) * (size_t)g->ntasks);
    ml->rng = (unsigned long long)sm_opt_int(s, "seed") * 0x9e3779b97f4a7c15ull + 7;
    /* Before the first refined mapping is offered (best_is_ref is 0):
     * the best may then be one of these, and offers stay whole. Cut on
     * the session's grid: projected from the coarsest one, the cuts are
     * coarser (16 summit-like nodes x1000, 4096 blocks: 117.8 J where
     * these give 77.0 J). */
    if (strcmp(sm_opt_str(s, "from"), "best") == 0 && strcmp(sm_opt_str(s, "node-starts"), "on") == 0)
        sm_node_starts(s);
    /* Shown and offered: its cost state is made here, in the start, and
     * the coarse steps after it follow it by what they move. */
    show_current(s, ml, ml->coarse->best_map, 1);
    sm_solver_offer(s, ml->shown, &s->current);
    sm_solver_set_stat(s, "levels", ml->nlev);
    sm_solver_set_stat(s, "coarse_blocks", cg->ntasks);
    return ml;
}

static void stats(sm_solver *s, const sm_multilevel *ml)
{
    sm_solver_set_stat(s, "level", ml->level);
    sm_solver_set_stat(s, "pass", ml->ref.pass);
    sm_solver_set_stat(s, "moves", (double)(ml->moves + ml->ref.moves));
    sm_solver_set_stat(s, "tried", (double)(ml->tried + ml->ref.tried));
    sm_solver_set_stat(s, "current_energy", s->current.energy);
    sm_solver_set_stat(s, "best_energy", s->best.energy);
    sm_solver_set_stat(s, "best_time", s->best.time);
}

/* Refining the session's grid, the search no longer reads the coarser
 * grids, their maps up, nor the projections it showed the coarse steps
 * with and their cost state: at the whole Summit's 16.7 M blocks ~0.8 GB
 * of the peak (the grids of 2 M and 262 k blocks, three mappings and a
 * cost state of 16.7 M blocks), given back before level 0's state is
 * built. */
/* The grids coarser than level l: nothing reads them once level l is
 * refined and the coarse search is given back. */
static void drop_above(sm_multilevel *ml, int l)
{
    for (int k = l + 1; k < ml->nlev; k++) {
        sm_grid_free((sm_grid *)ml->grid[k]);
        ml->grid[k] = NULL;
    }
}

static void drop_coarse(sm_multilevel *ml)
{
    /* The coarse search, when it hands over to level 0 directly, is on a
     * grid given back here. */
    sm_solver_free(ml->coarse);
    ml->coarse = NULL;
    drop_above(ml, 0);
    free(ml->shown);
    free(ml->shown_src);
    free(ml->fine_moved);
    sm_cost_free(ml->shown_cost);
    ml->shown = ml->shown_src = ml->fine_moved = NULL;
    ml->nfine_moved = ml->fine_moved_cap = 0;
    ml->shown_cost = NULL;
}

/* The level being refined is done with map (a mapping of it): offer it
 * projected to the session's grid and start refining the next finer
 * level from it. Going to the session's grid itself, that level's own
 * cost state evaluates the offer (the same mapping): a million blocks are
 * not evaluated twice in one step. */
static void next_level(sm_solver *s, sm_multilevel *ml, const int *map)
{
    follow_wait(s, ml);
    int l = ml->level - 1;
    int *finer = sm_xmalloc(sizeof(int) * (size_t)ml->grid[l]->ntasks);
    sm_grid_project_counts(ml->blocks[l], map, finer);
    if (l > 0) {
        /* The shown mapping moved to it (what differs from the current),
         * and offered: no new cost state over the session's grid. */
        show_current(s, ml, map, 1);
        sm_solver_offer(s, ml->shown, &s->current);
    }
    if (l == 0) {
        /* Before level 0's state is built, not after: the peak. */
        ml->moves += ml->ref.moves;
        ml->tried += ml->ref.tried;
        sm_refine_release(&ml->ref);
        drop_coarse(ml);
    }
    start_level(s, ml, l, finer);
    if (l == 0) {
        free(finer);
        offer_fine(s, ml);
        return;
    }
    /* Level l's mapping projects to what is shown: the next step is
     * followed from it. */
    free(ml->shown_src);
    ml->shown_src = finer;
    ml->shown_level = l;
    /* From a finer level than the coarse search's, the coarser grids are
     * no longer read (the coarse search's own is given back by the
     * caller, then this). */
    if (!ml->coarse) drop_above(ml, l);
}

void sm_multilevel_step(sm_solver *s, sm_multilevel *ml)
{
    /* Only a refinement step on the session's grid lists its moves. */
    s->moves_known = 0;
    if (ml->coarse) {
        sm_solver_step(ml->coarse, COARSE_STEPS);
        snprintf(s->last_move, sizeof s->last_move, "level %d (%d blocks): %.100s", ml->level,
                 ml->grid[ml->level]->ntasks, ml->coarse->last_move);
        /* The last coarse iteration's explanation (coarse block numbers). */
        sm_solver_why(s, "coarse search, %d tabu iterations on level %d: %.50s", COARSE_STEPS, ml->level,
                      ml->coarse->explain.why);
        for (int i = 0; i < ml->coarse->explain.ncand; i++) {
            const sm_explain_cand *c = &ml->coarse->explain.cand[i];
            char mv[96];
            snprintf(mv, sizeof mv, "level %d: %.80s", ml->level, c->move);
            sm_solver_candidate(s, mv, c->objective, c->delta, c->tabu);
        }
        if (!ml->coarse->done) {
            if (ml->coarse->current_map) show_current(s, ml, ml->coarse->current_map, 0);
            stats(s, ml);
            return;
        }
        next_level(s, ml, ml->coarse->best_map);
        sm_solver_free(ml->coarse);
        ml->coarse = NULL;
        drop_above(ml, ml->level);
        stats(s, ml);
        return;
    }
    int more = sm_refine_step(&ml->ref, CHUNK);
    if (ml->level == 0) note_moves(s, ml);
    sm_solver_why(s, "refinement on level %d: boundary blocks moved where the energy drops", ml->level);
    snprintf(s->last_move, sizeof s->last_move, "level %d (%d blocks) pass %d: %lld moves", ml->level,
             ml->grid[ml->level]->ntasks, ml->ref.pass + (more ? 1 : 0), ml->moves + ml->ref.moves);
    if (more) {
        if (ml->level == 0) offer_fine(s, ml);
        else show_current(s, ml, ml->ref.c->map, 0);
        stats(s, ml);
        return;
    }
    /* Level done: offer it, then go finer. */
    if (ml->level == 0) {
        offer_fine(s, ml);
        stats(s, ml);
        s->done = 1;
        return;
    }
    next_level(s, ml, ml->ref.c->map);
    stats(s, ml);
}

int sm_multilevel_rebranch(sm_solver *s, sm_multilevel *ml, unsigned long long changed, sm_err *e)
{
    static const char *const pass[] = {"iters", "tenure-add", "tenure-remove", "candidates", "seed", NULL};
    unsigned long long passed = 0;
    for (int i = 0; pass[i]; i++) passed |= SM_OPT_BIT(sm_solver_opt_index(s->ops, pass[i]));
    if (changed & ~passed) {
        sm_err_set(e, "tabu -multilevel: a branch can change only -iters, -tenure-add, -tenure-remove, "
                   "-candidates and -seed (the coarse search's options), not a deadline or the objective");
        return -1;
    }
    if (!ml->coarse) {
        sm_err_set(e, "tabu -multilevel: at step %lld the coarse search has ended (refining level %d), and "
                   "refinement takes none of the options a branch can change", s->iteration, ml->level);
        return -1;
    }
    /* The coarse search is tabu itself: its own rebranch takes them. */
    sm_solver *c = ml->coarse;
    unsigned long long cchanged = 0;
    for (int i = 0; pass[i]; i++) {
        int from = sm_solver_opt_index(s->ops, pass[i]), to = sm_solver_opt_index(c->ops, pass[i]);
        if (!(changed & SM_OPT_BIT(from))) continue;
        c->opt[to] = s->opt[from];
        cchanged |= SM_OPT_BIT(to);
    }
    return c->ops->rebranch(c, cchanged, e);
}

void sm_multilevel_free(sm_multilevel *ml)
{
    if (!ml) return;
    /* A follow still running reads the arrays given back below. */
    if (ml->follow_pool) sm_pool_task_wait(ml->follow_pool);
    sm_solver_free(ml->coarse);
    sm_refine_release(&ml->ref);
    drop_above(ml, 0);
    free(ml->shown);
    free(ml->shown_src);
    free(ml->fine_moved);
    sm_cost_free(ml->shown_cost);
    free(ml->pending);
    free(ml);
}
