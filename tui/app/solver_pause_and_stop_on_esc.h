/* solver_pause_and_stop_on_esc.h - pausing a running solver and ending a
 * paused one (SPEC 5: interrupt is pause). Esc or C-c while a solver runs
 * gives `solver pause`; once more (or X, `solver stop`) ends it; stepping
 * on (n, Space: solver step|run|seek) resumes it. No curses and no Tcl:
 * the commands (tui/cmd/cmd_solver.c: solver pause|stop) and the run loop
 * (tui/cmd/cmd_solve.c) call these. */
#ifndef SM_SOLVER_PAUSE_AND_STOP_ON_ESC_H
#define SM_SOLVER_PAUSE_AND_STOP_ON_ESC_H

#include "app.h"

/* The solver command Esc or C-c gives: "solver pause" for a running
 * solver, "solver stop" for one an interrupt paused; NULL: neither. */
const char *sm_solver_esc_command(const sm_app *app);

/* solver pause: a running solver (Space, solver run from a hook) pauses
 * after the step it is in. app->solver is not NULL. */
void sm_solver_pause(sm_app *app);

/* In the run loop after a step, when app->interrupt or app->pause_request
 * is set: `solve` and a study's job stop the solver (0); otherwise the
 * solver pauses keeping its state (1: the run ends as a pause). */
int sm_solver_pause_or_stop_on_interrupt(sm_app *app, sm_solver *s);

#endif
