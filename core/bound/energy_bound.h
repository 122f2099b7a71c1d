/* energy_bound.h - a proven lower bound on the energy of every mapping that
 * meets the deadline (SPEC 5, `model bound`), with the method that gave
 * it. The argument is written out at the top of energy_bound.c and in
 * stencilmap-model(7). */
#ifndef SM_ENERGY_BOUND_H
#define SM_ENERGY_BOUND_H

#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"

typedef struct sm_bound {
    double energy;       /* J; INFINITY when no mapping meets the deadline */
    double compute_only; /* the same argument without communication */
    double comm;         /* communication the bound charges (energy - rest) */
    double time;         /* the least makespan the bound allows (s) */
    int exact_counts;    /* 1: every count vector was enumerated */
    int *counts;         /* then the vector of the least bound, else NULL */
    int nprocs;
    long vectors;        /* count vectors enumerated */
    int pieces;          /* makespan intervals of the knapsack bound */
    double seconds;
    char method[320];
} sm_bound;

/* Fill *out; free with sm_bound_free. Never fails: without a deadline
 * or with any machine it returns a (possibly weak) valid bound. */
void sm_bound_compute(const sm_grid *g, const sm_topo *t, const sm_model *m, sm_bound *out);

/* The grid's exact edge-isoperimetric profile when it is cheap enough to
 * be worth it (up to 2048 blocks; about a second at 128), else NULL: a
 * caller that bounds one grid under many models computes it once. */
int *sm_bound_profile(const sm_grid *g);

enum {
    SM_BOUND_NO_COUNTS = 1, /* leave out the count-vector method */
    SM_BOUND_NO_KNAPSACK = 2, /* leave out the knapsack method */
    SM_BOUND_DVFS = 4,        /* any DVFS state for each processor (tabu -dvfs) */
    SM_BOUND_NO_ROUNDS = 8,   /* knapsack without the rounds' floor on the makespan (tests) */
    SM_BOUND_ROUNDS_MEAN_ONLY = 16, /* the rounds' floor as the mean over every processor only (tests) */
    SM_BOUND_NO_INTEGER_GROUPS = 32, /* knapsack: fractional group counts only (tests) */
    SM_BOUND_NO_WHOLE_GROUPS = 64, /* knapsack: alike groups not priced whole (tests) */
    SM_BOUND_NO_GROUP_VERTICES = 128, /* whole groups: without the least vertex of their sum (tests) */
    SM_BOUND_NO_SURFACE = 256, /* knapsack: without the surface-sharing profiles (tests) */
    SM_BOUND_NO_GROUP_SPLIT = 512, /* whole groups: without the exact split of small grids (tests) */
    SM_BOUND_NO_BUSY_NODES = 1024 /* knapsack: without the rounds' floor by busy nodes (tests) */
};
/* The same with a profile from sm_bound_profile (NULL: none) and flags,
 * each method checked on its own in the tests. */
void sm_bound_compute_with(const sm_grid *g, const sm_topo *t, const sm_model *m,
                           const int *iso, unsigned flags, sm_bound *out);
void sm_bound_free(sm_bound *b);

/* The relative gap of an energy e to the bound: (e - bound) / e, 0 when
 * e is at the bound, NAN when there is no finite bound. */
double sm_bound_gap(const sm_bound *b, double e);

#endif
