/* solver_branch_build_on_worker_thread.h - the workbench's `solver branch` built on a
 * worker thread: the new run's start made again and replayed to step K
 * (solvers/stepper/solver_branch.h) while the keys keep working; at a
 * whole Summit (16.7 M blocks) that is the multilevel start, seconds.
 * When it is in, on the workbench's thread, step K is checked against
 * the run it branches from, the options change and the run is added and
 * shown, as a branch made at once would be. Like a background `solver
 * start`, every command that acts on the solver waits for it first
 * (sm_app_solver_settle), so `solver branch 10 -tenure-add 30; solver
 * step 5` steps the branch. No curses and no Tcl. */
#ifndef SM_SOLVER_BRANCH_BUILD_ON_WORKER_THREAD_H
#define SM_SOLVER_BRANCH_BUILD_ON_WORKER_THREAD_H

#include "app.h"

/* Starts building a branch of app->runs[parent] (its solver from) at
 * step k with the options argv (alternating -name value, checked by the
 * caller as far as they can be without the solver); the run will be
 * called name. One at a time: a build already going is waited for
 * first. */
void sm_app_branch_begin(sm_app *app, int parent, long long k, int argc, const char *const *argv, const char *name);
/* A build finished: its run added and shown, or its error in the
 * Console. Returns 1 when one was taken in. */
int sm_app_branch_poll(sm_app *app);
/* Until no build runs (the workbench draws meanwhile; Esc or C-c gives
 * it up), then taken in as by sm_app_branch_poll. */
void sm_app_branch_settle(sm_app *app);
/* Given up and waited for, nothing added (before the runs it reads go). */
void sm_app_branch_cancel(sm_app *app);
/* What the status line says while one builds ("b1 building: step 3 of
 * 10, 4.2 s"), or 0 when none does. */
int sm_app_branch_progress(const sm_app *app, char *out, size_t n);

#endif
