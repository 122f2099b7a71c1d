/* rank_energy_during_iterations.h - a run's energy from the machine's own counters (SPEC 8, 9):
 * RAPL powercap packages (core/energy_counters/rapl_powercap.h) and NVIDIA GPUs through
 * NVML (core/energy_counters/nvml.h), read around the iteration loop, one reader
 * per package (package_energy_shares.h). Nothing is estimated: a rank whose counter
 * cannot be read has no energy and says why.
 *
 * A rank's package: its processor's place (the package hwloc gave it),
 * else the one package every CPU it is bound to sits in (Linux's
 * physical_package_id, which RAPL's package-N counts). A GPU processor's
 * rank reads its device (the place's device index) and shares the package
 * of its host core (the CPU place on its node holding that core). */
#ifndef SMR_RANK_ENERGY_COUNTERS_H
#define SMR_RANK_ENERGY_COUNTERS_H

#include <mpi.h>
#include <stdint.h>
#include "core/energy_counters/nvml.h"
#include "core/energy_counters/rapl_powercap.h"
#include "core/model/topology.h"
#include "package_energy_shares.h"

typedef struct smr_energy {
    smr_energy_where where;
    int reader;            /* the rank that reads my package, or -1 */
    double share;          /* my part of my package's joules */
    sm_powercap *pc;       /* open on the package's reader */
    sm_nvml *nv;           /* open on a GPU rank */
    uint64_t mj0;          /* the GPU's counter at the start */
    double last;           /* when the reader last sampled (MPI_Wtime) */
    int ok;                /* the reader: its package's counter reads */
    char why[256];         /* why not: my package's counter, or where I run */
    char dev_why[256];     /* why not: my GPU's counter */
    /* After smr_energy_end: */
    int has;
    double joules;
    char counter[96];      /* "rapl:package-0", "nvml:3" (and the share) */
} smr_energy;

/* Collective, before the loop: where every rank runs, who reads what,
 * counters opened and read once. root: the powercap root (NULL: the
 * default or $STENCILMAP_POWERCAP). */
void smr_energy_begin(smr_energy *en, const sm_topo *t, int proc, const char *root, MPI_Comm comm);
/* In the loop: the reader samples every quarter second (at the end of
 * an iteration), so a counter never wraps twice between two readings
 * (RAPL's wrap in minutes at full power). */
void smr_energy_tick(smr_energy *en, double now);
/* Collective, after the loop: the last readings; has, joules, counter
 * and why filled. */
void smr_energy_end(smr_energy *en, MPI_Comm comm);
void smr_energy_free(smr_energy *en);

#endif
