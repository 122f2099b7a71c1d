/* run_vs_model.h - the model against a run (SPEC 9, `run compare`): per
 * processor and overall, seconds per iteration (and joules where the run
 * measured energy), predicted by the cost model for the session's mapping
 * beside what stencilmap-run measured, and the model's accuracy
 * 1 - |predicted - measured| / measured.
 *   compute  comp_p                     | the rank's kernel time
 *   comm     T_run - comp_p (below)     | the rank's time outside its
 *                                       | kernel: halo exchange + waits
 *   total    T_run                      | the rank's loop time
 *   energy   the processor's energy     | the rank's counter (if any)
 * stencilmap-run is bulk synchronous: each iteration a rank computes,
 * then exchanges its halos, waiting for its neighbours, who wait for
 * theirs; so every rank of the (connected) mapping goes at the pace of
 * the slowest: T_run is the model's T with the exchange the run made
 * (the colouring's rounds: comm_time; -exchange all, every message posted
 * at once: the busiest processor's own transfers, max deg(p) x theta),
 * and a rank's time outside its compute is T_run - comp_p, the model's
 * idle_p: busy_p = deg(p) x theta on its own messages and wait_p, the
 * rest (the slower neighbours' compute and the rounds it is not in).
 * Under -overlap 1 (which the run does not do) a rank still spends its
 * own transfers: comm_p >= busy_p. Overall: the largest compute and comm
 * over ranks against comp_time and the exchange's comm, T_run against the
 * longest rank, and the sum of energies (only when every rank measured
 * it). */
#ifndef SM_RUN_COMPARE_H
#define SM_RUN_COMPARE_H

#include "core/model/cost_incremental.h"
#include "core/run_results/run_json_file.h"

typedef struct sm_acc {
    int has;                 /* 0: not measured (energy) */
    double predicted, measured, accuracy;
} sm_acc;

typedef struct sm_run_row {
    int proc;                /* -1 for overall */
    sm_acc compute, comm, total, energy;
    double busy, wait;       /* predicted seconds an iteration (comm = busy + wait) */
    double measured_wait;    /* the rank's time in MPI_Waitall an iteration */
} sm_run_row;

typedef struct sm_run_cmp {
    sm_run_row overall;
    int nrows;
    sm_run_row *rows;        /* one a rank, in rank order */
} sm_run_cmp;

/* 0, or -1 with e: a one-process reference run of a mapping over several
 * processors, or a rank whose processor the machine does not have. */
int sm_run_compare(const sm_cost *c, const sm_run *r, sm_run_cmp *out, sm_err *e);
void sm_run_cmp_free(sm_run_cmp *c);

#endif
