/* block_counts_partition_types.h - a partition by block counts (popta's result), shared by
 * the stepper (solver_stepper.h) and the record of it per step (block_counts_partition_per_step.h). */
#ifndef SM_BLOCK_COUNTS_PARTITION_TYPES_H
#define SM_BLOCK_COUNTS_PARTITION_TYPES_H

/* A partition by block counts (the data-partitioning solvers): counts per
 * processor, makespan and dynamic energy from the profiles, the total
 * energy (dynamic + base power x makespan), and for a bi-objective search
 * the Pareto front, fastest first: of time and dynamic energy (pareto),
 * or of time and total energy (total, with the dynamic front it is
 * derived from in dyn). */
typedef struct sm_part_point {
    int *counts;
    double time, energy, total;
} sm_part_point;

typedef struct sm_partition {
    int nprocs;
    int *counts;
    double time, energy, total;
    double base_power;     /* HTPOPTA's P_S: sum of the processors' p0 */
    int has_front, nfront;
    sm_part_point *front;
    int has_total, ndyn;
    sm_part_point *dyn;
} sm_partition;

#endif
