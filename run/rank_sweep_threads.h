/* rank_sweep_threads.h - one sweep of a rank's blocks on its threads: one thread
 * pinned to each CPU the rank is bound to (as `topo measure` runs a
 * processor: its measured time per cell is that of all its cores), each
 * taking its share of (block, rows) pieces; the calling thread is one of
 * them. The kernel allows disjoint row ranges of one block at once. */
#ifndef SMR_RANK_SWEEP_THREADS_H
#define SMR_RANK_SWEEP_THREADS_H

#include "core/kernel/kernel.h"

typedef struct smr_sweep smr_sweep;

/* nthreads >= 1; cpus (nthreads entries, or NULL: no pinning) the CPU each
 * thread is pinned to. Fewer threads when no more can be made. */
smr_sweep *smr_sweep_new(sm_kblock *blocks, const int *mine, int nmine, int nthreads, const int *cpus);
/* Every row of every block swept into next, then every block swapped. */
void smr_sweep_run(smr_sweep *s);
void smr_sweep_free(smr_sweep *s);

#endif
