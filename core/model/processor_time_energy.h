/* processor_time_energy.h - a processor's time and dynamic energy for its
 * blocks (SPEC 2.2), from its type's measured profile or its parameters. */
#ifndef SM_PROCESSOR_TIME_ENERGY_H
#define SM_PROCESSOR_TIME_ENERGY_H

#include <stdint.h>
#include "topology.h"

/* Time and energy of b blocks on the profile pt[0..n-1] (sizes
 * ascending): 0 blocks cost nothing; below the first point, linear from
 * the origin; between points, linear; beyond the last, the last point
 * scaled by b/size so the figure stays meaningful. Returns 1 when b lies
 * beyond the largest size (the mapping is then infeasible), else 0. */
int sm_profile_at(const sm_profile_pt *pt, int n, int64_t b, double *time,
                  double *energy);

/* Computation time and dynamic energy of processor p holding `blocks`
 * blocks of `cells` cells in all: from its type's profile when it has
 * one, else from the per-cell figures. Returns 1 beyond the profile. */
int sm_proc_work(const sm_topo *t, int p, int64_t blocks, int64_t cells,
                 double *time, double *energy);

/* Time of one average block of avg_cells cells on processor p, the
 * speed the fill-based solvers divide by: for a profile, the time per
 * block at its largest size. */
double sm_proc_block_time(const sm_topo *t, int p, double avg_cells);

/* Figures are in range: SM_PROFILE_MAX_TIME, SM_PROFILE_MAX_ENERGY (topology.h). */

/* Replace type ty's profile (copied; n = 0 removes it). */
void sm_topo_set_profile(sm_topo *t, int ty, const sm_profile_pt *pts, int n);

#endif
