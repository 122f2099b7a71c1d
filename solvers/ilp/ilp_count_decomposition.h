/* ilp_count_decomposition.h - the decomposition by block counts that proves the ILP
 * (ilp_count_decomposition.c); ilp_solver_lp_solve_callbacks.c calls it, it reads the model through ilp_shared_state.h. */
#ifndef SM_ILP_COUNT_DECOMPOSITION_H
#define SM_ILP_COUNT_DECOMPOSITION_H

#include "ilp_shared_state.h"

/* The decomposition by block counts (ilp_count_decomposition.c). Whether it applies:
 * uniform links, blocks of equal cells and neighbour pairs of equal
 * halos, few enough count vectors, and a profile of the grid. */
ilp_counts *ilp_counts_new(const sm_solver *s, const ilp_state *st);
/* Every count vector bounded below by its fixed energy and the
 * isoperimetric cut; those below the incumbent solved as subproblems.
 * Sets s->status. */
void ilp_counts_solve(ilp_counts *c, ilp_state *st);
void ilp_counts_free(ilp_counts *c);

#endif
