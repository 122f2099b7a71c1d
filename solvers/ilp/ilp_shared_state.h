/* ilp_shared_state.h - the exact solver's shared state: the lp_solve model that
 * ilp_variables_constraints.c builds and ilp_solver_lp_solve_callbacks.c solves, and the decomposition by block counts
 * (ilp_count_decomposition.c) reads and reports through (ilp_shared_state.c). */
#ifndef SM_ILP_SHARED_STATE_H
#define SM_ILP_SHARED_STATE_H

#include <lpsolve/lp_lib.h>
#include "solvers/stepper/solver_stepper.h"
#include "ilp_worker_thread.h"

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
    /* The solve runs on a worker, paused between steps (ilp_worker_thread.h). */
    ilp_run *run;
    int rc;                    /* lp_solve's answer, once the solve returned */
    int cut_row;               /* the warm start's cutoff row, 0 when none */
    int *cur;                  /* the mapping shown: the incumbent (or, before
                                  any, the least bad warm start) */
    double stepped_bound;      /* the bound at the last bound step, -inf before */
    double bound_now;          /* the bound as last published */
} ilp_state;

double ilp_now(void);
/* Seconds the solve has run, its pauses between steps not counted. */
double ilp_elapsed(const ilp_state *st);
void ilp_read_map(ilp_state *st, const REAL *cols /* 1-based */);
/* Publish nodes, incumbent, bound, gap and elapsed (no drawing: that is
 * the stepper's, between the worker's turns). */
void ilp_report(ilp_state *st);
/* A mapping found (st->map or another), evaluated as ev: shown when it is
 * the best seen (feasible first), the best when it is feasible and better
 * (SPEC 5: best is always the best feasible). Returns 1 when it became
 * the best. Either side. */
int ilp_offer(ilp_state *st, const int *map, const sm_eval *ev);
/* Worker side, after ilp_offer returned 1: the incumbent is a step (the
 * worker pauses here). how says where it came from. Returns 1 when the
 * solve is being cancelled. */
int ilp_step_incumbent(ilp_state *st, const char *how);
/* Worker side: the proven bound is now b; a step when it rose by a
 * visible amount since the last bound step. Returns 1 when cancelled. */
int ilp_step_bound(ilp_state *st, double b);
/* Worker side, called often: a progress tick now and then (the stepper
 * redraws and looks for an interrupt); returns 1 when the solve must end
 * (cancelled, or its -timeout reached: timed_out set). */
int ilp_tick(ilp_state *st);
/* The bound lp_solve has proven so far (the decomposition's while it
 * runs), NAN when none yet. */
double ilp_bound(const ilp_state *st);
/* Processors p and q link to every other processor alike (the same link
 * energy and time): with the same kind they are interchangeable in the
 * program (ilp_variables_constraints.c) and in the count decomposition. */
int ilp_links_alike(const sm_topo *t, int p, int q);

#endif
