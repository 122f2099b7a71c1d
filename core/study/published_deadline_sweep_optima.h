/* published_deadline_sweep_optima.h - published optima a study can be compared with: the
 * deadline sweeps of thesis Table 6.4 (SPEC §7), by scenario sample. */
#ifndef SM_PUBLISHED_DEADLINE_SWEEP_OPTIMA_H
#define SM_PUBLISHED_DEADLINE_SWEEP_OPTIMA_H

typedef struct sm_ref_point {
    double deadline, energy;   /* s, J */
    int upper;                 /* 1: the thesis gives an upper bound only */
} sm_ref_point;

/* The points for a scenario file (matched by its base name, e.g.
 * cuboid-cpu-gpu.json); returns how many, 0 when none are published. */
int sm_study_ref_points(const char *scenario, const sm_ref_point **points);

#endif
