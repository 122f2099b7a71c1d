/* ilp.h - the exact solver's shared state: the lp_solve model (ilp.c) and
 * the decomposition by block counts that proves it (ilp_counts.c). */
#ifndef SM_ILP_H
#define SM_ILP_H

#include <lpsolve/lp_lib.h>
#include "solvers/solver.h"

typedef struct ilp_counts ilp_counts;

typedef struct {
    lprec *lp;
    ilp_counts *counts;        /* the decomposition, when it applies */
    int n, P, npairs, uniform;
    int *pu, *pv;              /* pair endpoints, u < v */
    int64_t *cuv, *cvu;        /* cells each way */
    int *x;                    /* column of x[u][p], 0 = fixed at 0 */
    int Tcol, Ccol, Rcol;
    int pair_base, per_pair;   /* pair i's cut column is pair_base + 1 + i * per_pair */
    double TS;                 /* times are modelled in units of 1/TS seconds */
    int nosym;                 /* no first-appearance fixing (counts fix it) */
    double start, last_progress, timeout;
    int *map;
    sm_solver *s;
    double warm_energy;
    int aborted_by_user, timed_out, hopeless;
    int decomposing;           /* the bound below is the decomposition's */
    double dbound;
} ilp_state;

double ilp_now(void);
void ilp_read_map(ilp_state *st, const REAL *cols /* 1-based */);
/* Publish nodes, incumbent, bound, gap and elapsed; call progress. */
void ilp_report(ilp_state *st);

/* The decomposition by block counts (ilp_counts.c). Whether it applies:
 * uniform links, blocks of equal cells and neighbour pairs of equal
 * halos, few enough count vectors, and a profile of the grid. */
ilp_counts *ilp_counts_new(const sm_solver *s, const ilp_state *st);
/* Every count vector bounded below by its fixed energy and the
 * isoperimetric cut; those below the incumbent solved as subproblems.
 * Sets s->status. */
void ilp_counts_solve(ilp_counts *c, ilp_state *st);
void ilp_counts_free(ilp_counts *c);

#endif
