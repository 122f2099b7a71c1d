/* multilevel_tabu.h - multilevel tabu: coarsen the block grid 2x2x2 until it is
 * small, run the tabu search there, then project level by level and refine
 * each with single-block moves restricted to boundary blocks. Driven from
 * tabu_task_movement.c (option -multilevel auto|on|off) through the same stepper. */
#ifndef SM_MULTILEVEL_TABU_H
#define SM_MULTILEVEL_TABU_H

#include "solvers/stepper/solver_stepper.h"

/* -multilevel auto switches on from this many blocks: below it (every
 * SPEC 7 reference instance) tabu keeps its flat, exact path. */
#define SM_MULTILEVEL_AUTO 32768
/* Without a deadline: the fastest lb mapping's time times 1 + this. */
#define SM_MULTILEVEL_SLACK 0.03

typedef struct sm_multilevel sm_multilevel;

/* Whether the tabu solver s runs multilevel (its -multilevel option). */
int sm_multilevel_wanted(const sm_solver *s);
/* Builds the levels and starts the coarsest search; NULL (and the flat
 * path) when the grid cannot be coarsened. */
sm_multilevel *sm_multilevel_new(sm_solver *s);
/* One unit: some coarse tabu iterations, or a chunk of boundary blocks
 * tried at the level being refined. Offers every finished level's mapping
 * (projected to the session's grid), so an interrupt keeps the best. */
void sm_multilevel_step(sm_solver *s, sm_multilevel *ml);
/* A branch changed options (solver_branch.h): the coarse search takes
 * -tenure-add, -tenure-remove, -candidates, -seed and -iters while it
 * runs; refinement uses none of them, nor a new deadline or objective:
 * an error says so. */
int sm_multilevel_rebranch(sm_solver *s, sm_multilevel *ml, unsigned long long changed, sm_err *e);
void sm_multilevel_free(sm_multilevel *ml);

#endif
