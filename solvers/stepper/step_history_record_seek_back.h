/* step_history_record_seek_back.h - every step a solver takes, recorded compactly, so the
 * stepper can go back and forth and say why (SPEC 5 "Stepping").
 *
 * A step is kept as the blocks it moved in the current and in the best
 * mapping (block and from XOR to: the same record undoes and redoes it)
 * and the figures after it (evaluations, objective, statistics, last
 * move, why, candidates, tabu attributes). Seeking walks those records
 * from the step shown, so it costs the blocks moved in between, never a
 * rebuild: interactive at a million blocks. The figures are kept small
 * too, since a search may take hundreds of thousands of cheap steps
 * (bokhari at 4096 blocks: 209 k): the best's evaluation once while it
 * stays the same, exchange candidates as numbers with their text made
 * when read; ~680 bytes a step there (was ~1260).
 *
 * The solver's own state (tabu list, random state, cost model) is never
 * rewound: it stays at the last step taken (the head). Solvers are
 * deterministic, so the step after K is the recorded step K+1; stepping
 * from a step before the head replays the record, which is exactly what
 * the solver restored to K would do, and only steps past the head run
 * the solver (solver_stepper.c does that; this file only keeps the records and
 * knows nothing of the solver). */
#ifndef SM_STEP_HISTORY_RECORD_SEEK_BACK_H
#define SM_STEP_HISTORY_RECORD_SEEK_BACK_H

#include <stddef.h>
#include <stdint.h>
#include "core/model/model.h"
#include "core/model/topology.h"

/* Why a step did what it did (`solver explain`): one of the step's best
 * candidates, and one running tabu attribute. Solvers fill them during
 * step(); the stepper clears them before each step and the history keeps
 * them per step. */
#define SM_EXPLAIN_CANDS 5
typedef struct sm_explain_cand {
    char move[96];      /* empty for an exchange until sm_history_cand reads it */
    double objective;   /* the solver's objective after the candidate */
    double delta;       /* its change against the mapping before the step */
    int tabu;
    /* An exchange of blocks a (on processor pa) and b (on pb) when pa >=
     * 0 (sm_solver_candidate_exchange): kept as numbers, its text made
     * when read, "exchange blocks A (PA) and B (PB)" (bokhari scores a
     * hundred partners a step and names five: 200 k steps of texts were
     * most of its history). */
    int a, pa, b, pb;
} sm_explain_cand;

typedef struct sm_explain_tabu {
    int block, proc;
    int join;           /* 1: "block may not join proc", 0: "... leave proc" */
    long long remaining; /* steps it stays tabu */
} sm_explain_tabu;

/* A value pair over the time of one long step (the ILP: incumbent and
 * bound), named by the solver. */
typedef struct sm_explain_point {
    double seconds, a, b;
} sm_explain_point;

typedef struct sm_explain {
    char why[256];   /* whole sentences: GA's was cut at 95 characters */
    const char *trace_a, *trace_b; /* names of a and b */
    int ntrace, trace_cap;
    sm_explain_point *trace;
    int ncand;
    sm_explain_cand cand[SM_EXPLAIN_CANDS];
    int ntabu, tabu_cap;
    sm_explain_tabu *tabu;
} sm_explain;

typedef struct sm_hist_move {
    int32_t block;
    int32_t x;          /* from ^ to */
} sm_hist_move;

/* One step's figures as the stepper hands them to sm_history_add. */
typedef struct sm_hist_figures {
    long long iteration;
    int has_current, has_best, done;
    sm_eval current, best;
    double objective, best_objective;
    int part;           /* the stepper's partition snapshot (block_counts_partition_per_step.h), -1: none */
} sm_hist_figures;

/* One step as the history keeps it: the figures (the best's evaluation
 * through sm_history_best: kept once while it stays the same), offsets
 * and counts of its records. About 700 bytes a step for bokhari. */
typedef struct sm_hist_step {
    long long iteration;
    int has_current, has_best, done, current_shown;
    sm_eval current;
    double objective, best_objective;
    size_t best_ev;     /* the history's: which kept evaluation is the best's */
    /* Moves from move_off: ncur of the current mapping, nbest of the best,
     * then DVFS states (sm_history_states_on): nscur processors whose
     * state the step changed in the current assignment, nsbest in the
     * best's. */
    size_t move_off, cand_off, tabu_off, stat_off, text_off, trace_off;
    int ncur, nbest, nscur, nsbest, ncand, ntabu, nstats, ntrace;
    const char *trace_a, *trace_b; /* the solver's names (static text) */
    int part;           /* as in sm_hist_figures */
    /* text arena: last_move, why, status, then the texts of the
     * candidates that are not exchanges, each NUL-terminated */
} sm_hist_step;

typedef struct sm_history sm_history;

/* A history of mappings of n blocks; step first's mappings are start
 * (current and best alike, until the first record says otherwise). */
sm_history *sm_history_new(int n, const int *start);
void sm_history_free(sm_history *h);
/* The machine whose processors exchange candidates name (their texts are
 * made when read). */
void sm_history_set_topo(sm_history *h, const sm_topo *t);

/* Also record a state per processor (the DVFS states a solver chooses,
 * nprocs of them), current and best alike start. Before the first step. */
void sm_history_states_on(sm_history *h, int nprocs, const int *start);
/* Recording a step, in two calls. First the current mapping (NULL: the
 * solver shows none): compared with the last one recorded at moved[0..
 * nmoved) when moves_known, else whole; returns the blocks that differ.
 * The first step's mappings (current and best) are taken whole, not as
 * moves: no step before it is sought, so no one reads them. */
int sm_history_diff_current(sm_history *h, const int *current_map, int moves_known, const int *moved,
                            int nmoved);
/* The moves sm_history_diff_current just found (*n of them; valid until
 * the next call that records): a view kept in step with the recorded
 * current mapping follows them instead of comparing whole mappings
 * (none at the first step: a view starts from its mapping). */
const sm_hist_move *sm_history_pending(const sm_history *h, int *n);
/* Then the rest: best_map compared when best_written (at
 * best_blocks[0..nbest_blocks) when those are the only blocks written
 * since the last step, else whole), the figures in fig, the texts, the
 * statistics' values, the explanation. */
void sm_history_add(sm_history *h, const sm_hist_figures *fig, const int *best_map, int best_written,
                    const int *best_blocks, int nbest_blocks, const char *last_move, const char *status,
                    const double *stats, int nstats, const sm_explain *x);
/* With states on, before sm_history_add: the step's current states (NULL:
 * the solver shows none) and best states, compared whole (nprocs each). */
void sm_history_note_states(sm_history *h, const int *current_states, const int *best_states);

/* The head step's figures, statistics and status replaced (its moves,
 * move and why kept): a branch (solver_branch.h) that changed the model
 * or the objective at the step it starts from records that step as the
 * branch sees it. */
void sm_history_amend_head(sm_history *h, const sm_hist_figures *fig, const char *status, const double *stats,
                           int nstats);
/* Step k's current figures given later (a solver that evaluates its
 * current mapping on another thread, sm_solver_current_ready): its
 * current, objective and, when stat >= 0, its statistic stat's value. */
void sm_history_set_current(sm_history *h, long long k, const sm_eval *current, double objective, int stat,
                            double value);
/* Steps kept: first..head; the step shown: cursor. */
long long sm_history_first(const sm_history *h);
long long sm_history_head(const sm_history *h);
long long sm_history_cursor(const sm_history *h);
/* Make step k (clamped to first..head) the step shown: the current
 * mapping the history holds (sm_history_current) and best_map, in place,
 * become step k's. Returns step k's record. */
const sm_hist_step *sm_history_seek(sm_history *h, long long k, int *best_map);
/* The same with states on: best_states (the caller's) becomes step k's
 * too, and the current states the history holds. */
const sm_hist_step *sm_history_seek_states(sm_history *h, long long k, int *best_map, int *best_states);
/* The current states at the cursor (the history's copy; NULL: states off). */
const int *sm_history_current_states(const sm_history *h);
/* The current mapping at the cursor (the history's copy). */
const int *sm_history_current(const sm_history *h);

/* The blocks recorded as moved in the current mapping (best: in the
 * best mapping) between steps a and b (either order, both kept:
 * first..head): every block whose processor differs between the two
 * steps' mappings is among them (repeats and blocks moved back
 * included). Into *out (grown, *cap
 * its size). Returns their count; -1 when a or b is not kept or more than
 * limit were recorded (then comparing whole mappings is the cheaper). A
 * view of the current mapping follows seeks and steps with it in the
 * time of the blocks moved, not of the grid (the workbench's panes at
 * 16.7 M blocks). */
int sm_history_moved_between(const sm_history *h, long long a, long long b, int best, long long limit, int **out,
                             int *cap);
/* Step k's record (first <= k <= head, else NULL) and its parts. */
const sm_hist_step *sm_history_step(const sm_history *h, long long k);
const char *sm_history_move(const sm_history *h, const sm_hist_step *st);
const char *sm_history_why(const sm_history *h, const sm_hist_step *st);
const char *sm_history_status(const sm_history *h, const sm_hist_step *st);
/* Step st's best evaluation (meaningful when st->has_best; valid until
 * the next step is recorded). */
const sm_eval *sm_history_best(const sm_history *h, const sm_hist_step *st);
/* Step st's candidate i (0 <= i < st->ncand) into *out, its move text
 * made (exchanges) or copied. */
void sm_history_cand(const sm_history *h, const sm_hist_step *st, int i, sm_explain_cand *out);
const sm_explain_tabu *sm_history_tabu(const sm_history *h, const sm_hist_step *st);
const sm_explain_point *sm_history_trace(const sm_history *h, const sm_hist_step *st);
/* The statistics' values at the step (keys: the solver's, in order). */
const double *sm_history_stats(const sm_history *h, const sm_hist_step *st);
/* Bytes the history holds, and its limit (oldest steps are dropped past it). */
size_t sm_history_bytes(const sm_history *h);
extern size_t sm_history_limit;

#endif
