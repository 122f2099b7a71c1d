/* cmd_solver_breakpoints_and_condition_check.h - breakpoints that last, and the figures of the step
 * shown (SPEC 5 "Breakpoints and branches"): solver break add|list|delete|
 * disable|enable, solver eval, solver metrics; cmd_solve.c asks after
 * every step whether a breakpoint holds. */
#ifndef SM_CMD_SOLVER_BREAKPOINTS_AND_CONDITION_CHECK_H
#define SM_CMD_SOLVER_BREAKPOINTS_AND_CONDITION_CHECK_H

#include "cmd_common.h"

/* solver break add EXPR | list | delete ID | disable ID | enable ID */
int sm_solver_break(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* solver eval: `model eval` of the solver's mapping at the step shown. */
int sm_solver_eval(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* solver metrics: `model metrics` of the same mapping. */
int sm_solver_metrics(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

/* How many breakpoints are enabled. */
int sm_breaks_enabled(sm_app *app);
/* After a step: the first enabled breakpoint whose EXPR holds for the
 * step shown, evaluated at global level with the global `state` set to
 * state (its hits counted): *hit is its id, 0 when none holds. TCL_ERROR
 * (naming the breakpoint) when an expression fails. */
int sm_breaks_test(sm_app *app, Tcl_Interp *in, Tcl_Obj *state, int *hit);
/* Whether EXPR holds, evaluated the same way (solver run -until). */
int sm_break_expr_holds(Tcl_Interp *in, Tcl_Obj *state, Tcl_Obj *expr, int *met);
/* Breakpoint id's expression (NULL when there is none). */
const char *sm_break_text(sm_app *app, int id);

#endif
