/* run_vs_model.h - the model against a run (SPEC 9, `run compare`): per
 * processor and overall, seconds per iteration (and joules where the run
 * measured energy), predicted by the cost model for the session's mapping
 * beside what stencilmap-run measured, and the model's accuracy
 * 1 - |predicted - measured| / measured.
 *   compute  comp_p                     | the rank's kernel time
 *   comm     the processor's part of    | the rank's halo exchange time
 *            the schedule (below)       |
 *   total    T                          | the rank's loop time
 *   energy   the processor's energy     | the rank's counter (if any)
 * A processor's communication: the schedule of the communication
 * multigraph (the colouring's rounds, which stencilmap-run follows) runs
 * its rounds one after another; processor p is busy deg(p) quanta (its
 * messages on its links) and done at the end of the last round it takes
 * part in, so it waits the rest: comm_p = end of p's last round x theta,
 * busy_p = deg(p) x theta, wait_p = comm_p - busy_p. A run whose messages
 * were all posted at once (-exchange all) follows no rounds: comm_p =
 * busy_p. Overall: the largest compute and comm over processors against
 * the model's comp_time and comm_time, T, and the sum of energies (only
 * when every rank measured it). */
#ifndef SM_RUN_COMPARE_H
#define SM_RUN_COMPARE_H

#include "core/model/cost.h"
#include "core/run_results/run_json.h"

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
