/* solver_registry.h - the solvers by name, for the command layer (solve, solver
 * start) and the Solver pane's picker. Solvers that start from another
 * use its ops directly (solver_stepper.h), never this list. */
#ifndef SM_SOLVER_REGISTRY_H
#define SM_SOLVER_REGISTRY_H

#include "solvers/stepper/solver_stepper.h"

const sm_solver_ops *sm_solver_find(const char *name);
/* All registered solvers, NULL-terminated. */
const sm_solver_ops *const *sm_solver_list(void);

#endif
