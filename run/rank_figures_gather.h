/* rank_figures_gather.h - what a rank measured, gathered on rank 0 into RUN.json
 * (core/run_results/run_json_file.h), written atomically. */
#ifndef SMR_RANK_FIGURES_GATHER_H
#define SMR_RANK_FIGURES_GATHER_H

#include <mpi.h>
#include "core/run_results/run_json_file.h"

/* This rank's figures; strings are copied. */
typedef struct smr_mine {
    const char *processor;
    double compute_s, comm_s, wait_s, wall_s;
    double compute_min_s, compute_median_s; /* of one iteration */
    double wall_median_s;                   /* one iteration's whole time */
    int64_t bytes, messages, blocks, cells;
    int threads;
    int has_energy;
    double energy_j;
    const char *energy_counter; /* "rapl:package-0", "nvml:3"; "" when none */
    double energy_share;        /* the rank's part of its package's joules */
    const char *energy_why;     /* why no energy ("" when measured) */
} smr_mine;

/* The CPUs this process is bound to into cpus (at most max): their
 * count when the binding is narrower than every online CPU, else 0 (not
 * bound). */
int smr_bound_cpus(int *cpus, int max);
/* Host, bound CPUs and device of this process into k (strings owned by k). */
void smr_where(sm_run_rank *k);
/* Gathers every rank's record on rank 0 into run->ranks, and the run's
 * energy_source and energy_why from the ranks' (other ranks get
 * nothing). Collective. */
void smr_gather(const smr_mine *me, MPI_Comm comm, sm_run *run);

#endif
