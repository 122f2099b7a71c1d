/* solver_branch.h - a branch of a solver's run (SPEC 5 "Breakpoints and
 * branches"): a new run that starts from step K's exact state of another
 * with some options changed, the other kept.
 *
 * Solvers keep their own state (tabu lists, random state, cost model)
 * only at their last step, so K's state is made again: a new solver with
 * the same grid, machine, start mapping, model and options is stepped to
 * K (solvers are deterministic: the same steps), passing through the
 * branch points of the run it branches from, and its step K is checked
 * against the recorded one before the options change (the solver's
 * rebranch hook takes them). No Tcl, no curses. */
#ifndef SM_SOLVER_BRANCH_H
#define SM_SOLVER_BRANCH_H

#include "solver_stepper.h"

/* Where a run changed its options: after step `at`, the options became
 * opt (changed: which; SM_BRANCH_DEADLINE: model.deadline too). */
typedef struct sm_branch_point {
    long long at;
    unsigned long long changed;
    sm_opt_value opt[SM_MAX_OPTS];
    int has_deadline;
    double deadline;
} sm_branch_point;

/* A new solver made as from was (grid, machine, start, model, options),
 * initialised, its history on, ready to replay to step k through from's
 * branch points up to k. NULL with e when its init fails. interrupt (or
 * NULL) is the new solver's from the start: its init (the multilevel
 * start: seconds at 16.7 M blocks) gives up when it is set. It reads
 * only from's grid, machine, start mapping, model0, opt0 and branch
 * points, none of which change while from lives: it may run on another
 * thread while from steps (tui/app/solver_branch_build_on_worker_thread.c). */
sm_solver *sm_branch_new(const sm_solver *from, long long k, volatile int *interrupt, sm_err *e);
/* One step of the replay toward k (the branch points passed applied on
 * the way). Returns 1 while steps remain, 0 at k, -1 with e when the
 * solver ended before k or a branch point failed. */
int sm_branch_replay(sm_solver *b, long long k, sm_err *e);
/* At step k: b's step k must equal from's recorded step k (else the
 * solver is not deterministic: an error saying what differs); then the
 * options argv (alternating -name value; -deadline S for the model's
 * deadline) change, through the solver's rebranch hook, and b's step k is
 * recorded as it now stands. *what: the change as text ("-tenure-add
 * 20"). */
int sm_branch_change(sm_solver *b, const sm_solver *from, long long k, int argc, const char *const *argv,
                     char *what, size_t what_len, sm_err *e);
/* The options argv as sm_branch_change would read them for a branch of
 * from (names, values, whether its solver takes a change at all), before
 * anything is built: -1 with the same error, else 0. What only the
 * solver's state at step k can tell (its rebranch hook) is not checked. */
int sm_branch_check(const sm_solver *from, int argc, const char *const *argv, sm_err *e);

#endif
