/* history.h - every step a solver takes, recorded compactly, so the
 * stepper can go back and forth and say why (SPEC 5 "Stepping").
 *
 * A step is kept as the blocks it moved in the current and in the best
 * mapping (block and from XOR to: the same record undoes and redoes it)
 * and the figures after it (evaluations, objective, statistics, last
 * move, why, candidates, tabu attributes). Seeking walks those records
 * from the step shown, so it costs the blocks moved in between, never a
 * rebuild: interactive at a million blocks.
 *
 * The solver's own state (tabu list, random state, cost model) is never
 * rewound: it stays at the last step taken (the head). Solvers are
 * deterministic, so the step after K is the recorded step K+1; stepping
 * from a step before the head replays the record, which is exactly what
 * the solver restored to K would do, and only steps past the head run
 * the solver. */
#ifndef SM_HISTORY_H
#define SM_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include "solver.h"

typedef struct sm_hist_move {
    int32_t block;
    int32_t x;          /* from ^ to */
} sm_hist_move;

typedef struct sm_hist_step {
    long long iteration;
    size_t cur_off, best_off, cand_off, tabu_off, stat_off, text_off, trace_off;
    int ncur, nbest, ncand, ntabu, nstats, ntrace;
    const char *trace_a, *trace_b; /* the solver's names (static text) */
    int has_current, has_best, done, current_shown;
    sm_eval current, best;
    double objective, best_objective;
    /* text arena: last_move, why, status, each NUL-terminated */
} sm_hist_step;

typedef struct sm_history sm_history;

/* Starts recording s: step 0 is its state now (after init). */
sm_history *sm_history_new(sm_solver *s);
void sm_history_free(sm_history *h);
/* After a step the solver took (only at the head). */
void sm_history_record(sm_history *h, sm_solver *s);
/* Steps kept: first..head; the step shown: cursor. */
long long sm_history_first(const sm_history *h);
long long sm_history_head(const sm_history *h);
long long sm_history_cursor(const sm_history *h);
/* Show step k (first <= k <= head) in s: iteration, current and best
 * mappings and figures, statistics, last move, done and status. */
void sm_history_seek(sm_history *h, sm_solver *s, long long k);
/* The solver's own current mapping pointer, to hand back before it steps. */
const int *sm_history_solver_map(const sm_history *h);

/* Step k's record (first <= k <= head) and its parts. */
const sm_hist_step *sm_history_step(const sm_history *h, long long k);
const char *sm_history_move(const sm_history *h, const sm_hist_step *st);
const char *sm_history_why(const sm_history *h, const sm_hist_step *st);
const sm_explain_cand *sm_history_cands(const sm_history *h, const sm_hist_step *st);
const sm_explain_tabu *sm_history_tabu(const sm_history *h, const sm_hist_step *st);
const sm_explain_point *sm_history_trace(const sm_history *h, const sm_hist_step *st);
/* The statistics' values at the step (keys: the solver's, in order). */
const double *sm_history_stats(const sm_history *h, const sm_hist_step *st);
/* The blocks step k moved in the current mapping, and how many (the
 * from and to come from the mapping shown: see sm_history_moves_at). */
int sm_history_moved(const sm_history *h, long long k, const sm_hist_move **moves);
/* Bytes the history holds, and its limit (oldest steps are dropped past it). */
size_t sm_history_bytes(const sm_history *h);
extern size_t sm_history_limit;

#endif
