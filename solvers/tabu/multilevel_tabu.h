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
/* 1 (default): with threads, the shown mapping's figures of a coarse
 * step are evaluated on a worker beside the next step; 0: on the caller,
 * in the step (tests compare the two: the same figures, bit for bit). */
extern int sm_multilevel_follow_beside;
/* Coarse steps followed beside so far (tests: the path was taken). */
extern _Atomic long long sm_multilevel_followed_beside;
/* The stepper's settle (solver_stepper.h): the last coarse step's
 * figures, evaluated beside the search, handed over. */
void sm_multilevel_settle(sm_solver *s, sm_multilevel *ml);
void sm_multilevel_free(sm_multilevel *ml);

#endif
