/* ilp_dvfs_enumeration.h - ilp -dvfs on (ilp_dvfs_enumeration.c): each processor's DVFS state
 * chosen exactly, one solve per assignment of states; ilp_solver_lp_solve_callbacks.c calls it. */
#ifndef SM_ILP_DVFS_ENUMERATION_H
#define SM_ILP_DVFS_ENUMERATION_H

#include "ilp_shared_state.h"

/* Every assignment of DVFS states to the processors, to be solved
 * exactly; NULL (with e set) when there are too many. */
ilp_dvfs *ilp_dvfs_new(const sm_solver *s, sm_err *e);
/* Solve them all within -timeout; sets the best, its states, status. */
void ilp_dvfs_solve(sm_solver *s, ilp_dvfs *d);
void ilp_dvfs_free(ilp_dvfs *d);

#endif
