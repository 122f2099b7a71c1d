/* tabu_task_movement.c - Task Movement, the tabu search of SPEC 4 (tabu), on the
 * incremental cost model.
 *
 * Neighbourhoods: move (one block to another processor), swap (two blocks
 * on different processors) and edge move (both ends of a task edge to one
 * other processor). Each step samples -candidates moves from each, mostly
 * around cut edges (where moves can pay) and some at random (for load and
 * for emptying processors); every candidate is applied, scored and undone
 * incrementally, so a step costs its sample size times a block's degree.
 * A move is tabu only if all its attributes are: "block u leaves p" and
 * "block u joins q"; after u moves a -> b, joining a is tabu for
 * -tenure-add steps and leaving b for -tenure-remove. Aspiration admits a
 * tabu move that beats the best. Scores: deadline and memory violation
 * first, then the -objective (energy by default; time from the cost model;
 * the others from core/traffic/solver_objectives.h, kept beside the cost model and moved
 * with it, O(degree) a candidate), then energy, then time. Under the
 * colouring rounds model the search scores with the incremental lower bound
 * and the accepted mapping is evaluated with the exact schedule. Where the
 * rounds set the makespan and no sampled move improves, a step may instead
 * be one move off each processor at the busiest degree
 * (tabu_rounds_descent.c): single moves cannot lower a maximum several
 * processors share.
 *
 * Above ~800 lines on purpose: one search loop whose scoring and step
 * share the candidate state and the worker replicas (-threads); its
 * separable parts live beside it (tabu_move_sampling.c, tabu_list.c, multilevel_tabu.c,
 * multilevel_boundary_refinement.c, tabu_consolidating_starts.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/threads.h"
#include "core/model/speed_proportional_quota.h"
#include "core/traffic/solver_objectives.h"
#include "tabu_consolidating_starts.h"
#include "multilevel_tabu.h"
#include "solvers/stepper/solver_stepper.h"
#include "tabu_list.h"
#include "tabu_move_sampling.h"
#include "tabu_rounds_descent.h"
#include "tabu_score.h"

typedef tabu_score score;

typedef struct {
    sm_cost *c;
    sm_objective_kind kind;
    sm_objective *obj;             /* hop-based objectives; NULL for energy, time */
    int n, P;
    sm_tabu_list join, leave;      /* "u may not join / leave p" until */
    long long tenure_add, tenure_remove;
    unsigned long long rng;
    int ncand;
    int colouring;
    score best_score;
    long long it;
    sm_multilevel *ml; /* large grids: the multilevel driver instead */
    /* -dvfs on: each processor's state (index into its type's states),
     * the processors that have states, and until when a processor's
     * state may not change again. */
    int dvfs;
    int *state, *dvfs_procs, ndvfs;
    long long *state_until;
    /* A step's candidates, scored side by side (score_candidates): one
     * replica of the cost state per worker, each kept at the accepted
     * mapping and scoring a candidate inside a trial (sm_cost_trial_begin),
     * so a score depends on the mapping and the candidate only, never on
     * the worker or on what it scored before. */
    sm_pool *pool;
    sm_cost **rep;
    int nrep;
    /* The moves accepted since the replicas were last all in step; rep r
     * has made the first rep_at[r] of them (a worker brings its own
     * replica up to date before it scores: no pass over the replicas,
     * no wait for a worker with nothing to score). */
    cand *acc;
    int nacc, acc_cap, *rep_at;
    struct step_cand *cands;
    int ncands, cands_cap;
    tabu_moduli moduli;            /* the sampler's (tabu_move_sampling.h) */
    sm_rounds_descent rounds;      /* the compound step (tabu_rounds_descent.h) */
    long long rounds_tried_at;     /* the rounds at its last try, */
    long long rounds_next;         /* the step before which it does not try again */
    int rounds_wait;               /* and the steps it waited last */
} tabu_state;

/* A candidate of the step, in the order sampled, and its score. */
typedef struct step_cand {
    cand m;
    int tabu;
    score sc;
} step_cand;

static const sm_opt_spec opts[] = {
    {"iters", SM_OPT_INT, "1000", NULL, 1, 1e9, "iterations (one per step)"},
    {"tenure-add", SM_OPT_INT, "12", NULL, 0, 1e6, "steps a block may not rejoin the processor it left"},
    {"tenure-remove", SM_OPT_INT, "5", NULL, 0, 1e6, "steps a block may not leave the processor it joined"},
    {"candidates", SM_OPT_INT, "48", NULL, 1, 1e6, "moves sampled per neighbourhood per step"},
    {"seed", SM_OPT_INT, "1", NULL, 0, 9.2e18, "random seed"},
    {"objective", SM_OPT_ENUM, "energy", SM_OBJ_NAMES, 0, 0,
     "what the search minimises once the deadline and memory are met (cardinality: maximises)"},
    {"from", SM_OPT_ENUM, "best", "best|heuristics|current", 0, 0,
     "start: best of lb/dm/mm/na, rcb and the consolidated (deadline-packed) mappings; heuristics: lb/dm/mm/na only; or the current mapping"},
    {"node-starts", SM_OPT_ENUM, "on", "on|off", 0, 0,
     "with -from best: also start from rcb -nodes K, the domain decomposition on fewer nodes (off: as before issue 38)"},
    {"multilevel", SM_OPT_ENUM, "auto", "auto|on|off", 0, 0,
     "coarsen 2x2x2, search the coarsest grid, refine level by level (auto: from 32768 blocks)"},
    {"dvfs", SM_OPT_ENUM, "off", "off|on", 0, 0,
     "on: also choose each processor's DVFS state (its type's states), a fourth neighbourhood"},
    {"threads", SM_OPT_INT, "0", NULL, 0, SM_THREADS_MAX,
     "threads for the start heuristics, each step's candidates and whole-grid passes (0: STENCILMAP_THREADS, else the cores this process may use); the result is the same for any number"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

/* The score of evaluation ev of cost state c (the search's or a replica's). */
static score score_in(const sm_solver *s, const tabu_state *t, const sm_cost *c, const sm_eval *ev)
{
    score r;
    r.violation = (double)c->mem_over;
    if (s->model.has_deadline && ev->time > s->model.deadline * (1 + 1e-9))
        r.violation += (ev->time - s->model.deadline) / s->model.deadline;
    r.energy = ev->energy;
    r.time = ev->time;
    r.objective = t->obj ? sm_objective_score(t->obj) : t->kind == SM_OBJ_TIME ? ev->time : ev->energy;
    return r;
}

static score score_of(const sm_solver *s, const tabu_state *t, const sm_eval *ev)
{
    return score_in(s, t, t->c, ev);
}

static int better(const score *a, const score *b) { return tabu_better(a, b); }

static unsigned rnd(tabu_state *t, unsigned n) { return (unsigned)(sm_rand_next(&t->rng) % n); }

static void apply(sm_cost *c, const cand *m)
{
    if (m->kind == 0) sm_cost_move(c, m->u, m->p);
    else if (m->kind == 1) sm_cost_swap(c, m->u, m->v);
    else { sm_cost_move(c, m->u, m->p); sm_cost_move(c, m->v, m->p); }
}

/* Undo, given where the blocks were. */
static void undo(sm_cost *c, const cand *m, int pu, int pv)
{
    if (m->kind == 0) sm_cost_move(c, m->u, pu);
    else if (m->kind == 1) sm_cost_swap(c, m->u, m->v);
    else { sm_cost_move(c, m->v, pv); sm_cost_move(c, m->u, pu); }
}

/* The same on the objective kept beside the cost model (none: nothing). */
static void apply_objective(sm_objective *o, const cand *m)
{
    if (!o) return;
    if (m->kind == 0) sm_objective_move(o, m->u, m->p);
    else if (m->kind == 1) sm_objective_swap(o, m->u, m->v);
    else { sm_objective_move(o, m->u, m->p); sm_objective_move(o, m->v, m->p); }
}

static void undo_objective(sm_objective *o, const cand *m, int pu, int pv)
{
    if (!o) return;
    if (m->kind == 0) sm_objective_move(o, m->u, pu);
    else if (m->kind == 1) sm_objective_swap(o, m->u, m->v);
    else { sm_objective_move(o, m->v, pv); sm_objective_move(o, m->u, pu); }
}

/* The best under an objective other than energy: kept whatever its energy
 * (sm_solver_offer compares energies). */
static void keep_best(sm_solver *s, tabu_state *t)
{
    int kept = 1;
    if (t->kind == SM_OBJ_ENERGY) kept = sm_solver_offer(s, t->c->map, &s->current);
    else {
        s->best = s->current;
        s->has_best = 1;
        s->best_version++;
        memcpy(s->best_map, t->c->map, sizeof(int) * (size_t)t->n);
    }
    if (kept && t->dvfs) memcpy(s->best_states, t->state, sizeof(int) * (size_t)t->P);
}

/* After a step changed c: the current figures evaluated again, and kept
 * as the best when they score better. */
static void judge_current(sm_solver *s, tabu_state *t, sm_cost *c)
{
    if (t->colouring) sm_cost_eval(c, &s->current);
    else sm_cost_eval_fast(c, &s->current);
    score sc = score_of(s, t, &s->current);
    if (better(&sc, &t->best_score)) {
        t->best_score = sc;
        keep_best(s, t);
    }
}

/* Processor p's parameters in state k (SM_STATE_BASE: the base ones). */
static const sm_params *state_params(const sm_topo *tp, int p, int k)
{
    const sm_type *T = &tp->types[tp->procs[p].type];
    return k >= 0 && k < T->nstates ? &T->states[k] : &T->base;
}

static double user_value(const tabu_state *t, double objective)
{
    return t->kind == SM_OBJ_CARDINALITY ? -objective : objective;
}

static int is_tabu(const tabu_state *t, const cand *m)
{
    const int *map = t->c->map;
    long long it = t->it;
#define LEAVE(b, p) sm_tabu_list_active(&t->leave, (b), (p), it)
#define JOIN(b, p) sm_tabu_list_active(&t->join, (b), (p), it)
    if (m->kind == 0) return LEAVE(m->u, map[m->u]) && JOIN(m->u, m->p);
    if (m->kind == 1)
        return LEAVE(m->u, map[m->u]) && JOIN(m->u, map[m->v]) && LEAVE(m->v, map[m->v]) &&
               JOIN(m->v, map[m->u]);
    /* Edge move: the attributes of the blocks that move. An end already
     * on p stays, and attributes of a block that does not move are never
     * tabu, so counting them made an edge move that moves one block never
     * tabu: undoing "move u a -> p" as "edge move u, v -> a" (v on a)
     * stayed admissible, and the search cycled with period 2. */
    int mu = map[m->u] != m->p, mv = map[m->v] != m->p;
    return (!mu || (LEAVE(m->u, map[m->u]) && JOIN(m->u, m->p))) &&
           (!mv || (LEAVE(m->v, map[m->v]) && JOIN(m->v, m->p)));
#undef LEAVE
#undef JOIN
}

/* After the step that moved b from -> to (t->it already counts it): b
 * may not rejoin from for the next -tenure-add steps, nor leave to for
 * the next -tenure-remove (explain's remaining: exactly those counts). A
 * block that did not move gets no attribute. */
static void make_tabu(tabu_state *t, int b, int from, int to)
{
    if (from == to) return;
    sm_tabu_list_set(&t->join, b, from, t->it + t->tenure_add);
    sm_tabu_list_set(&t->leave, b, to, t->it + t->tenure_remove);
}

/* Drops the ended stamps; the list's length. */
static int tabu_size(tabu_state *t)
{
    return sm_tabu_list_expire(&t->join, t->it) + sm_tabu_list_expire(&t->leave, t->it);
}

/* Room for n candidates: the list must not move while workers score
 * the ones already made (score_candidates' stream). */
static void reserve_cands(tabu_state *t, int n)
{
    if (n <= t->cands_cap) return;
    t->cands_cap = n > 256 ? n : 256;
    t->cands = sm_xrealloc(t->cands, sizeof *t->cands * (size_t)t->cands_cap);
}

/* The step's next candidate, at the end of the list. */
static step_cand *add_cand(tabu_state *t)
{
    if (t->ncands == t->cands_cap) reserve_cands(t, t->cands_cap ? 2 * t->cands_cap : 256);
    return &t->cands[t->ncands++];
}

/* Candidate x scored on cost state c (and the objective beside the
 * search's, when there is one): applied, evaluated, undone. */
static void score_on(const sm_solver *s, tabu_state *t, sm_cost *c, step_cand *x)
{
    const cand *m = &x->m;
    sm_eval ev;
    if (m->kind == 3) {
        sm_cost_set_params(c, m->p, state_params(s->topo, m->p, m->q));
        sm_cost_eval_fast(c, &ev);
        x->sc = score_in(s, t, c, &ev);
        sm_cost_set_params(c, m->p, state_params(s->topo, m->p, t->state[m->p]));
        return;
    }
    int pu = c->map[m->u], pv = m->kind ? c->map[m->v] : -1;
    apply(c, m);
    apply_objective(t->obj, m);
    sm_cost_eval_fast(c, &ev);
    x->sc = score_in(s, t, c, &ev);
    undo(c, m, pu, pv);
    undo_objective(t->obj, m, pu, pv);
}

/* Replica r brought up to the accepted mapping (and DVFS states). */
static void catch_up(const sm_solver *s, tabu_state *t, int r)
{
    sm_cost *c = t->rep[r];
    for (; t->rep_at[r] < t->nacc; t->rep_at[r]++) {
        const cand *m = &t->acc[t->rep_at[r]];
        if (m->kind == 3) sm_cost_set_params(c, m->p, state_params(s->topo, m->p, m->q));
        else apply(c, m);
    }
}

typedef struct {
    const sm_solver *s;
    tabu_state *t;
    const cand *m;
} step_job;

/* The score of replica c's mapping as it stands (the compound step's). */
static score score_replica(void *ctx, const sm_cost *c)
{
    step_job *j = ctx;
    sm_eval ev;
    sm_cost_eval_fast(c, &ev);
    return score_in(j->s, j->t, c, &ev);
}

/* Where the rounds set the makespan (they take longer than the busiest
 * processor's compute) and no single move sampled improves: the compound
 * step of tabu_rounds_descent.c, found on replica 0 brought up to the
 * accepted mapping; 1 when it scores better than the mapping now. Only
 * under energy and time (the hop objectives keep no replicas), and on
 * grids of at most SM_ROUNDS_DESCENT_MAX_BLOCKS blocks: a try passes over
 * the grid once (the blocks of the busiest processors), which a step of
 * a flat search on millions of blocks (-multilevel off) must not pay. */
static int rounds_step(const sm_solver *s, tabu_state *t, const sm_eval *ev0, const score *sc0)
{
    /* t->obj: a branch may have switched to a hop objective after the
     * replicas were made; the compound step does not move its mapping. */
    if (!t->rep || t->obj || t->n > SM_ROUNDS_DESCENT_MAX_BLOCKS ||
        !(ev0->comm_time > ev0->comp_time))
        return 0;
    /* After a try that found nothing, the next waits 1, 2, 4 ... 16 steps
     * while the rounds stay the same (32 nodes, links x1: ~450 tries in
     * 1000 steps, 7 found, otherwise). */
    if (ev0->rounds == t->rounds_tried_at && t->it < t->rounds_next) return 0;
    catch_up(s, t, 0);
    step_job j = {s, t, NULL};
    int found = sm_rounds_descent_find(&t->rounds, t->rep[0], sc0, score_replica, &j);
    if (found || ev0->rounds != t->rounds_tried_at) t->rounds_wait = 0;
    if (!found) {
        t->rounds_wait = t->rounds_wait ? (t->rounds_wait < 16 ? 2 * t->rounds_wait : 16) : 1;
        t->rounds_next = t->it + t->rounds_wait;
    }
    t->rounds_tried_at = ev0->rounds;
    return found;
}

static void score_item(int i, int worker, void *arg)
{
    step_job *j = arg;
    catch_up(j->s, j->t, worker);
    sm_cost *c = j->t->rep[worker];
    sm_cost_trial_begin(c);
    score_on(j->s, j->t, c, &j->t->cands[i]);
    sm_cost_trial_end(c);
}

/* The candidates are scored side by side on the replicas while the step
 * samples the next ones (a stream on the pool: STREAM_EVERY at a time),
 * so a worker does not wait for the sampling, which draws every
 * candidate from the one random stream in order on the caller. Under a
 * hop-based objective (kept in one sm_objective beside the search's
 * cost state) none: score_candidates scores them one after another on
 * the search's own state, as before threads. */
#define STREAM_EVERY 16

static void stream_begin(tabu_state *t, step_job *j)
{
    if (!t->rep) return;
    /* Every candidate a step can make: 3 neighbourhoods, and the DVFS
     * changes (4 -candidates at most). */
    reserve_cands(t, 3 * t->ncand + (t->dvfs ? 4 * t->ncand : 0));
    sm_pool_stream_begin(t->pool, score_item, j);
}

static void stream_made(tabu_state *t)
{
    if (t->rep && t->ncands % STREAM_EVERY == 0) sm_pool_stream_add(t->pool, t->ncands);
}

/* Every candidate of the step scored (the stream's rest). */
static void score_candidates(const sm_solver *s, tabu_state *t, step_job *j)
{
    if (!t->rep) {
        for (int i = 0; i < t->ncands; i++) score_on(s, t, t->c, &t->cands[i]);
        return;
    }
    sm_pool_stream_end(t->pool, t->ncands, score_item, j);
}

/* The accepted move noted for the replicas (before t->state changes). */
static void follow(const sm_solver *s, tabu_state *t, const cand *m)
{
    if (!t->rep) return;
    /* Now and then every replica is brought up to date here, so the
     * list stays short when a worker rarely gets to score. */
    if (t->nacc >= 256) {
        for (int r = 0; r < t->nrep; r++) catch_up(s, t, r);
        t->nacc = 0;
        memset(t->rep_at, 0, sizeof(int) * (size_t)t->nrep);
    }
    if (t->nacc == t->acc_cap) {
        t->acc_cap = t->acc_cap ? 2 * t->acc_cap : 64;
        t->acc = sm_xrealloc(t->acc, sizeof *t->acc * (size_t)t->acc_cap);
    }
    t->acc[t->nacc++] = *m;
}

/* The replicas and the workers that score on them: as many as the
 * threads, at most one per 16 candidates of a step. None under a
 * hop-based objective (score_candidates). */
static void make_replicas(sm_solver *s, tabu_state *t)
{
    if (t->obj) return;
    int per_step = 3 * t->ncand + (t->dvfs ? 4 * t->ncand : 0);
    int want = sm_solver_threads(s), most = per_step / 16 > 1 ? per_step / 16 : 1;
    if (want > most) want = most;
    if (want > 1) t->pool = sm_pool_new(want);
    s->pool = t->pool;
    t->nrep = sm_pool_size(t->pool);
    t->rep = sm_xmalloc(sizeof *t->rep * (size_t)t->nrep);
    t->rep_at = sm_xcalloc((size_t)t->nrep, sizeof(int));
    for (int r = 0; r < t->nrep; r++) t->rep[r] = sm_cost_new_figures(s->grid, s->topo, &s->model, t->c->map);
    sm_solver_set_stat(s, "step_threads", t->nrep);
}

/* The replicas and their pool freed (a branch to a hop objective, and
 * release); the search then scores on its own state. */
static void drop_replicas(sm_solver *s, tabu_state *t)
{
    sm_pool_free(t->pool);
    t->pool = NULL;
    s->pool = NULL;
    for (int r = 0; r < t->nrep; r++) sm_cost_free(t->rep[r]);
    free(t->rep);
    free(t->rep_at);
    t->rep = NULL;
    t->rep_at = NULL;
    t->nrep = 0;
    t->nacc = 0;
}

/* The best heuristic start and, unless given, the deadline of the
 * fastest heuristic that fits in memory. When none does (big blocks on
 * small GPUs: every fill by speed passes their memory), lb's fill held
 * to memory (sm_fill_memory) joins the starts and sets the deadline: a
 * deadline no mapping within memory reaches would leave the search only
 * infeasible mappings to choose from. Candidates go through
 * sm_solver_offer, so s->best_map ends as the start. */
static const struct { const sm_solver_ops *ops; const char *arg[2]; } start_runs[] = {
    {&sm_solver_lb, {"-order", "ijk"}}, {&sm_solver_lb, {"-order", "jik"}},
    {&sm_solver_lb, {"-order", "kij"}}, {&sm_solver_dm, {NULL, NULL}},
    {&sm_solver_mm, {NULL, NULL}},      {&sm_solver_na, {"-f", "0.5"}},
    {&sm_solver_na, {"-f", "0.9"}},
};
#define NSTART_RUNS 7
/* Up to this many blocks initial() hands out all its runs at once. */
#define START_RUNS_AT_ONCE_MAX (1 << 16)

/* The start heuristics run side by side (core/lib/threads.h): run r
 * writes sub[r] only, and initial() reads them in r order, so the
 * starts, the deadline and its name are the same for any -threads. */
typedef struct {
    const sm_solver *s;
    const sm_model *m;
    int first;                  /* sub[i] is run first + i */
    sm_solver *sub[NSTART_RUNS];
} start_batch;

static void run_start(int i, void *arg)
{
    start_batch *b = arg;
    int r = b->first + i;
    const char *argv[2] = {start_runs[r].arg[0], start_runs[r].arg[1]};
    b->sub[i] = sm_solver_run_sub(b->s, start_runs[r].ops, b->m, argv[0] ? 2 : 0, argv);
}

/* rcb over all processors (ty = -1) and over each type alone; runs
 * ntypes + 1 on, the same again with its cuts at node boundaries (rcb
 * -nodes <every node>). Cut by processor count, a machine of 9 x 2^k
 * processors in nodes of 8 splits nodes between distant pieces of the
 * grid: a whole Summit (4,608 nodes), 1 M blocks, GPUs alone: 288.5 J
 * of inter-node energy by count, 244.8 J at node boundaries. */
static void run_rcb(int i, void *arg)
{
    start_batch *b = arg;
    const sm_topo *t = b->s->topo;
    int j = b->first + i, by_node = j > t->ntypes, ty = j - (by_node ? t->ntypes + 1 : 0) - 1;
    char nodes[24];
    snprintf(nodes, sizeof nodes, "%d", t->nnodes);
    const char *argv[4], **a = argv;
    if (ty >= 0) *a++ = "-types", *a++ = t->types[ty].name;
    if (by_node) *a++ = "-nodes", *a++ = nodes;
    b->sub[i] = sm_solver_run_sub(b->s, &sm_solver_rcb, NULL, (int)(a - argv), argv);
}

/* The mappings judged again at the deadline, one evaluation each. */
typedef struct {
    const sm_solver *s;
    const int *maps;
    sm_eval *ev;
} judge_batch;

static void judge_one(int r, void *arg)
{
    judge_batch *j = arg;
    size_t n = (size_t)j->s->grid->ntasks;
    sm_solver_evaluate(j->s, j->maps + (size_t)r * n, &j->ev[r]);
}

static void initial(sm_solver *s, int with_rcb)
{
    int n = s->grid->ntasks, nr = 0;
    int threads = sm_solver_threads(s);
    /* Runs side by side at once: -threads of them, each holding its own
     * state and mapping until read, so the memory grows with the threads,
     * not the runs. A small grid (a multilevel search's coarsest) holds
     * every run at once for a few MB: then all are handed out together,
     * and a thread done with a quick run (lb) takes the next instead of
     * waiting for its batch's slowest (dm, mm, na). */
    int width = n <= START_RUNS_AT_ONCE_MAX ? NSTART_RUNS : threads;
    int *maps = sm_xmalloc(sizeof(int) * (size_t)n * 10);
    double fastest = INFINITY, fastest_fits = INFINITY;
    /* Where the deadline comes from, said by solve and solver state. */
    static const char *const names[] = {"fastest lb", "fastest lb", "fastest lb", "fastest dm",
                                        "fastest mm", "fastest na", "fastest na"};
    const char *fastest_name = "fastest heuristic", *fits_name = "fastest heuristic";
    sm_model free_time = s->model;
    free_time.has_deadline = 0;
    for (int first = 0, cnt; first < NSTART_RUNS; first += cnt) {
        start_batch b = {s, &free_time, first, {NULL}};
        cnt = NSTART_RUNS - first < width ? NSTART_RUNS - first : width;
        sm_parallel_for(threads, cnt, run_start, &b);
        for (int i = 0; i < cnt; i++) {
            int r = first + i;
            sm_solver *h = b.sub[i];
            if (h && h->has_best) {
                memcpy(maps + (size_t)nr++ * n, h->best_map, sizeof(int) * (size_t)n);
                if (h->best.time < fastest) fastest = h->best.time, fastest_name = names[r];
                if (h->best.memory_ok && h->best.time < fastest_fits) fastest_fits = h->best.time, fits_name = names[r];
            }
            sm_solver_free(h);
        }
    }
    static const sm_order orders[] = {SM_ORDER_IJK, SM_ORDER_JIK, SM_ORDER_KIJ};
    for (int i = 0; i < 3 && !isfinite(fastest_fits); i++) {
        int *map = maps + (size_t)nr * n;
        if (sm_fill_memory(s->grid, s->topo, SM_SPEEDS_EXACT, orders[i], 1, map) != 1) break;
        sm_eval ev;
        sm_cost *c = sm_cost_new_figures(s->grid, s->topo, &free_time, map);
        sm_cost_eval(c, &ev);
        sm_cost_free(c);
        nr++;
        if (ev.time < fastest) fastest = ev.time, fastest_name = "lb within memory";
        if (ev.memory_ok && ev.time < fastest_fits) fastest_fits = ev.time, fits_name = "lb within memory";
    }
    if (isfinite(fastest_fits)) fastest = fastest_fits, fastest_name = fits_name;
    if (!s->model.has_deadline) {
        s->model.has_deadline = 1;
        s->model.deadline = fastest;
        s->deadline_from = fastest_name;
        sm_solver_set_stat(s, "deadline", fastest);
    }
    /* Judged again now that the deadline is known. */
    sm_eval judged[10];
    judge_batch jb = {s, maps, judged};
    sm_parallel_for(threads, nr, judge_one, &jb);
    for (int r = 0; r < nr; r++) sm_solver_offer(s, maps + (size_t)r * n, &judged[r]);
    free(maps);
    /* At a loose deadline the optimum empties processors, which single
     * moves cannot reach: start from packed mappings too (not under
     * -from heuristics, which keeps the published starts). */
    if (with_rcb) sm_consolidation_starts(s);
    /* Two busy processors: a box against the boundary and the rest, of
     * every size (what the Sphere rows of the deadline sweep need). */
    if (with_rcb) sm_box_starts(s);
    /* Geometric bisection over all processors and over each type alone:
     * starts a local search cannot reach by single moves (sliding a whole
     * cut plane); where nodes hold several processors, also with its cuts
     * at node boundaries (run_rcb). */
    int nrcb = with_rcb ? (s->topo->ntypes + 1) * (s->topo->nnodes > 1 && s->topo->nnodes < s->topo->nprocs ? 2 : 1) : 0;
    for (int first = 0, cnt; first < nrcb; first += cnt) {
        start_batch b = {s, NULL, first, {NULL}};
        cnt = nrcb - first < width ? nrcb - first : width;
        if (cnt > NSTART_RUNS) cnt = NSTART_RUNS;
        sm_parallel_for(threads, cnt, run_rcb, &b);
        for (int i = 0; i < cnt; i++) {
            sm_solver *h = b.sub[i];
            if (h && h->has_best) sm_solver_offer(s, h->best_map, &h->best);
            sm_solver_free(h);
        }
    }
    if (with_rcb && strcmp(sm_opt_str(s, "node-starts"), "on") == 0) {
        sm_node_starts(s);
        sm_rcb_search_start(s, &sm_solver_tabu);
    }
}

/* Multilevel: the figures of the shown mapping still being evaluated. */
static void settle(sm_solver *s)
{
    tabu_state *t = s->priv;
    if (t && t->ml) sm_multilevel_settle(s, t->ml);
}

static int init(sm_solver *s, sm_err *e)
{
    tabu_state *t = sm_xcalloc(1, sizeof *t);
    s->priv = t;
    int n = s->grid->ntasks, P = s->topo->nprocs;
    t->n = n;
    t->P = P;
    /* A hop-based objective's state beside the search's, and a second
     * one while the best is scored: refused before the start's work
     * when they do not fit. */
    sm_objective_kind kind;
    sm_objective_parse(sm_opt_str(s, "objective"), &kind);
    if (kind != SM_OBJ_ENERGY && kind != SM_OBJ_TIME &&
        sm_objective_memory_check(s->grid, s->topo, kind, 2, "tabu", e))
        return -1;
    t->dvfs = strcmp(sm_opt_str(s, "dvfs"), "on") == 0;
    if (t->dvfs && strcmp(sm_opt_str(s, "multilevel"), "on") == 0) {
        sm_err_set(e, "tabu: -dvfs on searches the session's grid itself: use it with -multilevel off or auto");
        return -1;
    }
    if (t->dvfs) {
        /* The states the session runs in are where the search starts. */
        const sm_topo *tp = s->topo;
        t->state = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
        t->dvfs_procs = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
        t->state_until = sm_xcalloc((size_t)(P ? P : 1), sizeof(long long));
        s->best_states = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
        for (int p = 0; p < P; p++) {
            t->state[p] = sm_topo_proc_state(tp, p);
            if (tp->types[tp->procs[p].type].nstates) t->dvfs_procs[t->ndvfs++] = p;
        }
        memcpy(s->best_states, t->state, sizeof(int) * (size_t)P);
        s->current_states = t->state;
    }
    if (n > 0 && P > 1 && !t->dvfs && sm_multilevel_wanted(s) && (t->ml = sm_multilevel_new(s)) != NULL) {
        s->settle = settle;
        return 0;
    }
    const char *from = sm_opt_str(s, "from");
    if (!(s->interrupt && *s->interrupt) && strcmp(from, "current") != 0) initial(s, strcmp(from, "best") == 0);
    if (s->interrupt && *s->interrupt) {
        sm_err_set(e, "tabu: interrupted while starting");
        return -1;
    }
    t->c = sm_cost_new_figures(s->grid, s->topo, &s->model, s->has_best ? s->best_map : s->start_map);
    sm_tabu_list_init(&t->join);
    sm_tabu_list_init(&t->leave);
    sm_rounds_descent_init(&t->rounds);
    t->tenure_add = sm_opt_int(s, "tenure-add");
    t->tenure_remove = sm_opt_int(s, "tenure-remove");
    t->rng = (unsigned long long)sm_opt_int(s, "seed") * 0x9e3779b97f4a7c15ull + 1;
    t->ncand = (int)sm_opt_int(s, "candidates");
    sm_tabu_sampler_moduli(s->grid, P, &t->moduli);
    t->colouring = s->model.rounds == SM_ROUNDS_COLOURING;
    sm_objective_parse(sm_opt_str(s, "objective"), &t->kind);
    if (t->kind != SM_OBJ_ENERGY && t->kind != SM_OBJ_TIME)
        t->obj = sm_objective_new(s->grid, s->topo, &s->model, t->kind, t->c->map);
    if (n > 0 && P > 1) make_replicas(s, t);
    sm_cost_eval(t->c, &s->current);
    s->has_current = 1;
    s->current_map = t->c->map;
    s->moves_known = 1; /* the flat search lists the blocks each step moves */
    keep_best(s, t);
    t->best_score = score_of(s, t, &s->current);
    if (t->kind != SM_OBJ_ENERGY) {
        sm_solver_set_stat(s, "start_value", user_value(t, t->best_score.objective));
        sm_solver_set_stat(s, "best_value", user_value(t, t->best_score.objective));
    }
    if (n == 0 || P < 2) s->done = 1;
    return 0;
}

/* A candidate kept for `solver explain`. */
typedef struct {
    cand m;
    score sc;
    int tabu;
} explained;

/* The same move: a swap or an edge move either way round. */
static int same_cand(const cand *a, const cand *b)
{
    if (a->kind != b->kind) return 0;
    if (a->kind == 0) return a->u == b->u && a->p == b->p;
    int same_ends = (a->u == b->u && a->v == b->v) || (a->u == b->v && a->v == b->u);
    return same_ends && (a->kind == 1 || a->p == b->p);
}

/* Keeps the best SM_EXPLAIN_CANDS distinct candidates, best first. */
static void keep_top(explained *top, int *n, const cand *m, const score *sc, int tabu)
{
    for (int i = 0; i < *n; i++)
        if (same_cand(&top[i].m, m)) return;
    int at = *n;
    while (at > 0 && better(sc, &top[at - 1].sc)) at--;
    if (at >= SM_EXPLAIN_CANDS) return;
    int last = *n < SM_EXPLAIN_CANDS ? *n : SM_EXPLAIN_CANDS - 1;
    for (int i = last; i > at; i--) top[i] = top[i - 1];
    top[at] = (explained){*m, *sc, tabu};
    if (*n < SM_EXPLAIN_CANDS) (*n)++;
}

/* "move block 3 cpu0 -> gpu1", as the step's last move says it (map: before the move). */
static void describe(const sm_solver *s, const int *map, const cand *m, char *out, size_t len)
{
    const sm_proc *pr = s->topo->procs;
    if (m->kind == 0)
        snprintf(out, len, "move block %d %s -> %s", m->u, pr[map[m->u]].name, pr[m->p].name);
    else if (m->kind == 1)
        snprintf(out, len, "swap block %d (%s) with block %d (%s)", m->u, pr[map[m->u]].name, m->v,
                 pr[map[m->v]].name);
    else
        snprintf(out, len, "edge move blocks %d (%s), %d (%s) -> %s", m->u, pr[map[m->u]].name, m->v,
                 pr[map[m->v]].name, pr[m->p].name);
}

struct list_ctx {
    sm_solver *s;
    long long it;
    int join;
};

static void tabu_entry(void *ctx, int b, int p, long long until)
{
    struct list_ctx *lc = ctx;
    if (lc->s->explain.ntabu < 256) sm_solver_tabu_attr(lc->s, b, p, lc->join, until - lc->it);
}

static void step(sm_solver *s)
{
    tabu_state *t = s->priv;
    if (t->ml) {
        sm_multilevel_step(s, t->ml);
        return;
    }
    const sm_grid *g = s->grid;
    sm_cost *c = t->c;
    cand best_m = {-1, 0, 0, 0, 0};
    score best_sc = {INFINITY, INFINITY, INFINITY, INFINITY};
    int best_tabu = 0, tabu_better = 0;
    /* The step's best candidates, tabu or not, for `solver explain`. */
    explained top[SM_EXPLAIN_CANDS];
    int ntop = 0;
    /* Explained unless its caller reads only a batch's last step and this
     * is not it (the last iteration ends a batch early). */
    int explaining = !s->explain_skip || t->it + 1 >= sm_opt_int(s, "iters");
    sm_eval ev0;
    sm_cost_eval_fast(c, &ev0);
    score sc0 = score_of(s, t, &ev0);
    /* Sampled (the random stream and the mapping only; a candidate's
     * score depends on it and the mapping only), scored side by side as
     * they are sampled, then chosen in the order sampled: the same choice
     * for any number of threads. */
    t->ncands = 0;
    step_job sj = {s, t, NULL};
    stream_begin(t, &sj);
    for (int kind = 0; kind < 3; kind++)
        for (int k = 0; k < t->ncand; k++) {
            cand m;
            tabu_sampler ts = {&t->rng, t->c->map, t->n, t->P, &t->moduli};
            if (!sm_tabu_sample(&ts, g, kind, &m)) continue;
            step_cand *x = add_cand(t);
            x->m = m;
            x->tabu = is_tabu(t, &m);
            stream_made(t);
        }
    int nmoves = t->ncands;
    /* DVFS: every other state of every processor that has states when
     * that is few, else a sample; a processor whose state just changed
     * keeps it for -tenure-add steps unless a change beats the best. */
    if (t->dvfs && t->ndvfs) {
        const sm_topo *tp = s->topo;
        int all = 0;
        /* A type's choices: its states and its base parameters (index
         * nstates stands for SM_STATE_BASE). */
        for (int i = 0; i < t->ndvfs; i++) all += tp->types[tp->procs[t->dvfs_procs[i]].type].nstates + 1;
        int tries = all <= 4 * t->ncand ? all : t->ncand;
        for (int k = 0, i = 0, j = 0; k < tries; k++) {
            int p, q, ns;
            if (tries == all) {
                p = t->dvfs_procs[i];
                ns = tp->types[tp->procs[p].type].nstates;
                q = j;
                if (++j == ns + 1) { j = 0; i++; }
            } else {
                p = t->dvfs_procs[rnd(t, (unsigned)t->ndvfs)];
                ns = tp->types[tp->procs[p].type].nstates;
                q = (int)rnd(t, (unsigned)ns + 1);
            }
            if (q == ns) q = SM_STATE_BASE;
            if (q == t->state[p]) continue;
            step_cand *x = add_cand(t);
            x->m = (cand){3, 0, 0, p, q};
            x->tabu = t->state_until[p] > t->it;
            stream_made(t);
        }
    }
    score_candidates(s, t, &sj);
    int examined = t->ncands;
    for (int i = 0; i < nmoves; i++) {
        const step_cand *x = &t->cands[i];
        if (explaining) keep_top(top, &ntop, &x->m, &x->sc, x->tabu);
        /* Aspiration: a tabu move is admitted if it beats the best. */
        if (x->tabu && !better(&x->sc, &t->best_score)) {
            if (best_m.kind < 0 || better(&x->sc, &best_sc)) tabu_better = 1;
            continue;
        }
        if (best_m.kind < 0 || better(&x->sc, &best_sc)) {
            best_m = x->m;
            best_sc = x->sc;
            best_tabu = x->tabu;
            tabu_better = 0;
        }
    }
    for (int i = nmoves; i < t->ncands; i++) {
        const step_cand *x = &t->cands[i];
        if (x->tabu && !better(&x->sc, &t->best_score)) continue;
        if (best_m.kind < 0 || better(&x->sc, &best_sc)) {
            best_m = x->m;
            best_sc = x->sc;
        }
    }
    int by_rounds = (best_m.kind < 0 || !better(&best_sc, &sc0)) && rounds_step(s, t, &ev0, &sc0);
    for (int i = 0; i < ntop; i++) {
        char mv[96];
        describe(s, c->map, &top[i].m, mv, sizeof mv);
        sm_solver_candidate(s, mv, user_value(t, top[i].sc.objective),
                            user_value(t, top[i].sc.objective) - user_value(t, sc0.objective), top[i].tabu);
    }
    t->it++;
    if (by_rounds) {
        const sm_rounds_descent *d = &t->rounds;
        snprintf(s->last_move, sizeof s->last_move, "rounds: %d move%s off the %d processor%s of degree %lld",
                 d->nmoves, d->nmoves == 1 ? "" : "s", d->busiest, d->busiest == 1 ? "" : "s", (long long)d->from);
        sm_solver_why(s, "rounds set the makespan and no single move improves: one block off each processor "
                         "at the busiest degree lowers it %lld -> %lld", (long long)d->from, (long long)d->to);
        for (int i = 0; i < d->nmoves; i++) {
            const cand *m = &d->moves[i];
            int pu = c->map[m->u];
            apply(c, m);
            follow(s, t, m);
            sm_solver_moved(s, m->u);
            make_tabu(t, m->u, pu, m->p);
        }
        judge_current(s, t, c);
    } else if (best_m.kind == 3) {
        const sm_topo *tp = s->topo;
        int p = best_m.p, q = best_m.q, was = t->state[p];
        const sm_type *T = &tp->types[tp->procs[p].type];
        snprintf(s->last_move, sizeof s->last_move, "state %s %s -> %s", tp->procs[p].name,
                 was >= 0 ? T->state_names[was] : "base", q >= 0 ? T->state_names[q] : "base");
        if (explaining) sm_solver_why(s, "DVFS: the best admissible change is a processor's state");
        sm_cost_set_params(c, p, state_params(tp, p, q));
        follow(s, t, &best_m);
        t->state[p] = q;
        t->state_until[p] = t->it + t->tenure_add;
        judge_current(s, t, c);
    } else if (best_m.kind >= 0) {
        const cand *m = &best_m;
        if (explaining) {
            describe(s, c->map, m, s->last_move, sizeof s->last_move);
            if (best_tabu)
                sm_solver_why(s, "aspiration: tabu, but beats the best found");
            else if (better(&best_sc, &sc0))
                sm_solver_why(s, "best admissible move: improves the objective%s",
                              tabu_better ? " (a better one was tabu)" : "");
            else
                sm_solver_why(s, "best admissible move: no improving move%s, so the least worsening one",
                              tabu_better ? " that is not tabu" : "");
        }
        apply_objective(t->obj, m); /* the cost model follows below */
        int pu = c->map[m->u], pv = m->kind ? c->map[m->v] : -1;
        apply(c, m);
        follow(s, t, m);
        /* An edge move's end already on p does not move. */
        if (m->kind != 2 || pu != m->p) sm_solver_moved(s, m->u);
        if (m->kind && (m->kind != 2 || pv != m->p)) sm_solver_moved(s, m->v);
        if (m->kind == 0) make_tabu(t, m->u, pu, m->p);
        else if (m->kind == 1) { make_tabu(t, m->u, pu, pv); make_tabu(t, m->v, pv, pu); }
        else { make_tabu(t, m->u, pu, m->p); make_tabu(t, m->v, pv, m->p); }
        judge_current(s, t, c);
    } else {
        snprintf(s->last_move, sizeof s->last_move, "no admissible move");
        sm_solver_why(s, "every candidate sampled is tabu and none beats the best");
    }
    if (explaining) {
        struct list_ctx lc = {s, t->it, 1};
        sm_tabu_list_each(&t->join, t->it, tabu_entry, &lc);
        lc.join = 0;
        sm_tabu_list_each(&t->leave, t->it, tabu_entry, &lc);
    }
    sm_solver_set_stat(s, "examined", examined);
    sm_solver_set_stat(s, "tabu_size", tabu_size(t));
    sm_solver_set_stat(s, "current_energy", s->current.energy);
    sm_solver_set_stat(s, "current_time", s->current.time);
    sm_solver_set_stat(s, "best_energy", s->best.energy);
    sm_solver_set_stat(s, "best_time", s->best.time);
    if (t->kind != SM_OBJ_ENERGY) {
        sm_eval ev;
        sm_cost_eval_fast(c, &ev);
        sm_solver_set_stat(s, "objective_value", user_value(t, score_of(s, t, &ev).objective));
        sm_solver_set_stat(s, "best_value", user_value(t, t->best_score.objective));
    }
    if (t->it >= sm_opt_int(s, "iters")) s->done = 1;
}

/* The best mapping's score under the objective and model now (a branch
 * changed one of them): scored on a cost state of its own. */
static score best_score_now(sm_solver *s, const tabu_state *t)
{
    sm_cost *bc = sm_cost_new_figures(s->grid, s->topo, &s->model, s->best_map);
    if (t->dvfs)
        for (int p = 0; p < t->P; p++) sm_cost_set_params(bc, p, state_params(s->topo, p, s->best_states[p]));
    sm_cost_eval(bc, &s->best);
    score r;
    r.violation = (double)bc->mem_over;
    if (s->model.has_deadline && s->best.time > s->model.deadline * (1 + 1e-9))
        r.violation += (s->best.time - s->model.deadline) / s->model.deadline;
    r.energy = s->best.energy;
    r.time = s->best.time;
    r.objective = t->kind == SM_OBJ_TIME ? s->best.time : s->best.energy;
    if (t->kind != SM_OBJ_ENERGY && t->kind != SM_OBJ_TIME) {
        sm_objective *o = sm_objective_new(s->grid, s->topo, &s->model, t->kind, bc->map);
        r.objective = sm_objective_score(o);
        sm_objective_free(o);
    }
    sm_cost_free(bc);
    return r;
}

/* A branch (solver_branch.h) changed options after the steps replayed:
 * the tenures, candidates and seed act from the next step (the tabu
 * stamps already set keep their ends), -iters moves the end, and a new
 * -objective or deadline re-scores the current and the best mapping. */
static int rebranch(sm_solver *s, unsigned long long changed, sm_err *e)
{
    tabu_state *t = s->priv;
    static const char *const fixed[] = {"from", "multilevel", "dvfs", "node-starts", NULL};
    for (int i = 0; fixed[i]; i++)
        if (changed & SM_OPT_BIT(sm_solver_opt_index(s->ops, fixed[i]))) {
            sm_err_set(e, "tabu: -%s acts only at the start; a branch cannot change it", fixed[i]);
            return -1;
        }
    if (t->ml) return sm_multilevel_rebranch(s, t->ml, changed, e);
    t->tenure_add = sm_opt_int(s, "tenure-add");
    t->tenure_remove = sm_opt_int(s, "tenure-remove");
    t->ncand = (int)sm_opt_int(s, "candidates");
    if (changed & SM_OPT_BIT(sm_solver_opt_index(s->ops, "seed")))
        t->rng = (unsigned long long)sm_opt_int(s, "seed") * 0x9e3779b97f4a7c15ull + 1;
    int rescore = 0;
    if (changed & SM_OPT_BIT(sm_solver_opt_index(s->ops, "objective"))) {
        sm_objective_kind kind;
        sm_objective_parse(sm_opt_str(s, "objective"), &kind);
        if (kind != SM_OBJ_ENERGY && kind != SM_OBJ_TIME &&
            sm_objective_memory_check(s->grid, s->topo, kind, 2, "tabu", e))
            return -1;
        sm_objective_free(t->obj);
        t->obj = NULL;
        t->kind = kind;
        if (t->kind != SM_OBJ_ENERGY && t->kind != SM_OBJ_TIME)
            t->obj = sm_objective_new(s->grid, s->topo, &s->model, t->kind, t->c->map);
        /* A hop objective is one state beside the search's (score_on
         * moves it): it scores serially, as at init, so no replicas and
         * no workers; back under energy or time they are made again. */
        if (t->obj && t->rep) {
            drop_replicas(s, t);
            sm_solver_set_stat(s, "step_threads", 1);
        } else if (!t->obj && !t->rep && t->n > 0 && t->P > 1) make_replicas(s, t);
        rescore = 1;
    }
    if (changed & SM_BRANCH_DEADLINE) {
        sm_cost_set_model(t->c, &s->model);
        sm_solver_set_stat(s, "deadline", s->model.deadline);
        rescore = 1;
    }
    if (rescore) {
        if (t->colouring) sm_cost_eval(t->c, &s->current);
        else sm_cost_eval_fast(t->c, &s->current);
        if (s->has_best) t->best_score = best_score_now(s, t);
        sm_solver_set_stat(s, "current_energy", s->current.energy);
        sm_solver_set_stat(s, "current_time", s->current.time);
        sm_solver_set_stat(s, "best_energy", s->best.energy);
        sm_solver_set_stat(s, "best_time", s->best.time);
        if (t->kind != SM_OBJ_ENERGY) {
            sm_solver_set_stat(s, "objective_value", user_value(t, score_of(s, t, &s->current).objective));
            sm_solver_set_stat(s, "best_value", user_value(t, t->best_score.objective));
        }
    }
    s->done = t->it >= sm_opt_int(s, "iters") || t->n == 0 || t->P < 2;
    return 0;
}

static void release(sm_solver *s)
{
    tabu_state *t = s->priv;
    if (!t) return;
    sm_rounds_descent_free(&t->rounds);
    sm_multilevel_free(t->ml);
    sm_objective_free(t->obj);
    sm_cost_free(t->c);
    drop_replicas(s, t);
    free(t->acc);
    free(t->cands);
    sm_tabu_list_free(&t->join);
    sm_tabu_list_free(&t->leave);
    free(t->state);
    free(t->dvfs_procs);
    free(t->state_until);
    free(t);
}

const sm_solver_ops sm_solver_tabu = {
    "tabu", "Task Movement: tabu search over move, swap and edge-move neighbourhoods",
    opts, init, step, release, rebranch,
};
