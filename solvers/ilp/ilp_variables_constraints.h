/* ilp_variables_constraints.h - the exact mapping as an lp_solve program
 * (ilp_variables_constraints.c): its columns, rows and objective, and the
 * warm start from the best heuristic mapping. The solve itself, with
 * lp_solve's callbacks, is ilp_solver_lp_solve_callbacks.c. */
#ifndef SM_ILP_VARIABLES_CONSTRAINTS_H
#define SM_ILP_VARIABLES_CONSTRAINTS_H

#include "ilp_shared_state.h"

/* Builds st->lp for s's session (columns, rows, objective); -1 with e. */
int ilp_build_program(sm_solver *s, ilp_state *st, sm_err *e);
/* The best of the heuristics as the starting incumbent and cutoff. */
void ilp_warm_start(sm_solver *s, ilp_state *st);

#endif
