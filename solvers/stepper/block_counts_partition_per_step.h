/* block_counts_partition_per_step.h - the partition by counts (popta's counts and fronts,
 * sm_partition) after every step, so a step sought to shows its own
 * partition, not the head's.
 *
 * Kept as snapshots, one per change (most steps change nothing, and share
 * the last one). A front changes only at its end (points appended, the
 * last one replaced or dropped), so each front is a linked list from its
 * last point back to its first and consecutive snapshots share the points
 * they have in common: memory grows with the points ever found, not with
 * steps x front length. */
#ifndef SM_BLOCK_COUNTS_PARTITION_PER_STEP_H
#define SM_BLOCK_COUNTS_PARTITION_PER_STEP_H

#include "block_counts_partition_types.h"

typedef struct sm_part_history sm_part_history;

sm_part_history *sm_part_history_new(int nprocs);
void sm_part_history_free(sm_part_history *ph);
/* The snapshot of p (a new one when p differs from the last noted). */
int sm_part_history_note(sm_part_history *ph, const sm_partition *p);
/* Snapshot i as a partition, built in the history's own memory: valid
 * until the next call of either function. */
const sm_partition *sm_part_history_get(sm_part_history *ph, int i);

#endif
