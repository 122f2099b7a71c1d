/* solver_branch_divergence.c - where a branch of a solver's run (solver
 * branch) first took another step than the run it branched from: the
 * trial's "b1 (-tenure-add 30) made main's moves: did the option ever
 * matter?" answered from the two histories, step by step. */
#include <string.h>
#include "app.h"
#include "solvers/stepper/step_history_record_seek_back.h"

/* Step k of two histories is the same step: the same move recorded and
 * the same figures after it. */
static int same_step(const sm_history *a, const sm_history *b, long long k)
{
    const sm_hist_step *x = sm_history_step(a, k), *y = sm_history_step(b, k);
    if (!x || !y) return 0;
    if (strcmp(sm_history_move(a, x), sm_history_move(b, y)) != 0) return 0;
    if (x->has_current != y->has_current || x->has_best != y->has_best) return 0;
    if (x->has_current && (x->current.energy != y->current.energy || x->current.time != y->current.time)) return 0;
    return !x->has_best || sm_history_best(a, x)->energy == sm_history_best(b, y)->energy;
}

long long sm_app_run_diverged_at(const sm_app *app, int i, long long *compared_to)
{
    *compared_to = -1;
    if (i < 0 || i >= app->nruns || app->runs[i].parent < 0) return -1;
    const sm_solver_run *r = &app->runs[i];
    const sm_history *a = r->s->hist, *b = app->runs[r->parent].s->hist;
    if (!a || !b) return -1;
    long long from = r->at + 1, to = sm_history_head(a);
    if (sm_history_head(b) < to) to = sm_history_head(b);
    if (from < sm_history_first(a)) from = sm_history_first(a);
    if (from < sm_history_first(b)) from = sm_history_first(b);
    *compared_to = to >= from ? to : -1;
    for (long long k = from; k <= to; k++)
        if (!same_step(a, b, k)) return k;
    return -1;
}
