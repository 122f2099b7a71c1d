/* ilp_state.h - the exact solver's shared state: the lp_solve model that
 * ilp.c builds and solves, and the decomposition by block counts
 * (ilp_counts.c) reads and reports through (ilp_state.c). */
#ifndef SM_ILP_STATE_H
#define SM_ILP_STATE_H

#include <lpsolve/lp_lib.h>
#include "solvers/stepper/solver.h"

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

#endif
