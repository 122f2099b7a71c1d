/* solver_start_on_worker_thread.h - a solver's start on a worker thread, for the
 * workbench: `solver start` answers at once while the solver's own init
 * (seconds at a million blocks) and the cost state the panes will show it
 * through are built beside the screen, which keeps answering keys. No
 * curses and no Tcl: the command layer starts it and installs the result;
 * the screen only asks how long it has been running. */
#ifndef SM_SOLVER_START_ON_WORKER_THREAD_H
#define SM_SOLVER_START_ON_WORKER_THREAD_H

#include "solvers/stepper/solver_stepper.h"

typedef struct sm_solver_start sm_solver_start;

/* Runs sm_solver_init(s) on a thread of its own, then, when view_model is
 * not NULL and the solver has a current mapping, builds that mapping's
 * cost state (its rounds schedule included) under view_model, for the
 * panes. s comes from sm_solver_prepare and belongs to the start until
 * sm_solver_start_end. The grid and machine s points to must not change
 * before then. */
sm_solver_start *sm_solver_start_begin(sm_solver *s, const sm_model *view_model);
/* Waits up to `seconds` (0: only looks) for the start to finish; 1 when
 * it has. */
int sm_solver_start_wait(sm_solver_start *st, double seconds);
/* Asks the init to stop early: the solvers with a long start (tabu's
 * multilevel coarsening and start heuristics) poll the interrupt between
 * phases and fail with "interrupted". */
void sm_solver_start_cancel(sm_solver_start *st);
/* Seconds since it began. */
double sm_solver_start_elapsed(const sm_solver_start *st);
const char *sm_solver_start_name(const sm_solver_start *st);
/* Waits for it to finish and frees it. Returns the started solver, with
 * *view its current mapping's cost state (NULL when none was asked for or
 * it has no current mapping; the caller frees it), and *seconds the time
 * the start took; or NULL with the init's error in e (the solver is
 * freed). */
sm_solver *sm_solver_start_end(sm_solver_start *st, sm_cost **view, double *seconds, sm_err *e);

#endif
