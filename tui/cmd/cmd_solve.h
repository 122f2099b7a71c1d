/* cmd_solve.h - what the files of the solve, solver and on commands share
 * (cmd_solve.c runs a solver, cmd_solver.c holds the `solver` subcommands,
 * cmd_solver_state.c turns a solver's state into Tcl dicts). */
#ifndef SM_CMD_SOLVE_H
#define SM_CMD_SOLVE_H

#include "cmd_common.h"
#include "solvers/stepper/step_history_record_seek_back.h"
#include "tui/app/solver_start_on_worker_thread.h"

int sm_solve_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_solve_until_met(sm_app *app, Tcl_Interp *in, Tcl_Obj *until, int *met);
int sm_solve_run_until(sm_app *app, Tcl_Interp *in, long long max, Tcl_Obj *until, int *hit);
int sm_solve_start(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[], int first, int background);
Tcl_Obj *sm_solve_starting_dict(const sm_solver_start *st);
int sm_solve_apply_best(sm_app *app, Tcl_Interp *in);
double sm_solve_now(void);
Tcl_Obj *sm_solve_stat_obj(const char *key, double v);
void sm_solve_put_stats(Tcl_Obj *d, const sm_solver *s);
void sm_solve_put_bound(sm_app *app, Tcl_Obj *d, const sm_solver *s, const sm_eval *ev);
Tcl_Obj *sm_solve_state_dict(sm_app *app, const sm_solver *s);

int sm_solve_run(sm_app *app, Tcl_Interp *in, long long max);
/* How the last sm_solve_run_until ended (app->run_end). */
enum { SM_RUN_END, SM_RUN_COUNT, SM_RUN_UNTIL, SM_RUN_BREAK, SM_RUN_PAUSE };
Tcl_Obj *sm_solve_num(double v);

#endif
