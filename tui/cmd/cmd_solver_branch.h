/* cmd_solver_branch.h - branches of a solver's run (SPEC 5 "Breakpoints and
 * branches"): solver branch K ?options?, solver runs, solver switch NAME. */
#ifndef SM_CMD_SOLVER_BRANCH_H
#define SM_CMD_SOLVER_BRANCH_H

#include "cmd_common.h"

/* solver branch K ?-option value ...?: a new run from step K of the run
 * shown with those options changed; it becomes the run shown. -> name */
int sm_solver_branch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* solver runs: a dict per run: name parent at options steps step done
 * status best shown. */
int sm_solver_runs(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* solver switch NAME: show that run (history, seek, explain act on it). */
int sm_solver_switch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

#endif
