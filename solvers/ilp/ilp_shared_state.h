/* ilp_shared_state.h - the exact solver's shared state: the lp_solve model that
 * ilp_model.c builds and solves, and the decomposition by block counts
 * (ilp_count_decomposition.c) reads and reports through (ilp_shared_state.c). */
#ifndef SM_ILP_SHARED_STATE_H
#define SM_ILP_SHARED_STATE_H

#include <lpsolve/lp_lib.h>
#include "solvers/stepper/solver_stepper.h"

typedef struct ilp_counts ilp_counts;
typedef struct ilp_dvfs ilp_dvfs;
typedef struct ilp_dvfs ilp_dvfs;

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
    ilp_dvfs *dvfs;            /* -dvfs on: one solve per assignment of states instead */
} ilp_state;

double ilp_now(void);
void ilp_read_map(ilp_state *st, const REAL *cols /* 1-based */);
/* Publish nodes, incumbent, bound, gap and elapsed; call progress. */
void ilp_report(ilp_state *st);

#endif
