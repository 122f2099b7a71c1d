/* multilevel_block_grid_coarsening.h - the block grid aggregated 2x2x2 (geometric coarsening for
 * multilevel search). The grid is regular, so neighbouring blocks merge
 * exactly: a coarse block's work is the sum of its blocks' cells and a
 * coarse edge carries the sum of the halo cells of the fine edges it
 * replaces, so computation and communicated cells are preserved. */
#ifndef SM_MULTILEVEL_BLOCK_GRID_COARSENING_H
#define SM_MULTILEVEL_BLOCK_GRID_COARSENING_H

#include "core/model/grid.h"

/* The grid with every axis of more than one block halved (rounded up);
 * up[u] receives the coarse block of fine block u (ntasks entries).
 * NULL when no axis can be halved, or when a coarse edge would carry
 * more than SM_MAX_EDGE_CELLS halo cells. Free with sm_grid_free. */
sm_grid *sm_grid_coarsen(const sm_grid *g, int *up);

/* Fine mapping from a coarse one: fine[u] = coarse[up[u]]. */
void sm_grid_project(const sm_grid *fine, const int *up, const int *coarse_map, int *fine_map);

/* The same aggregation from the block counts alone, for a search that
 * keeps no up array (one int per fine block: 64 MB at 16.7 M blocks).
 * fine[3] are the fine grid's block counts. */
/* The coarse grid's block counts. */
void sm_grid_coarse_counts(const int fine[3], int coarse[3]);
/* As sm_grid_project with sm_grid_coarsen's up. */
void sm_grid_project_counts(const int fine[3], const int *coarse_map, int *fine_map);
/* The fine blocks coarse block c stands for, in ascending order (as
 * ids up[u] == c in order of u); returns how many (1 to 8). */
int sm_grid_fine_blocks(const int fine[3], int c, int kids[8]);
/* Coarse mapping from a fine one: each coarse block where its first fine
 * block (kids[0] of sm_grid_fine_blocks) is. */
void sm_grid_restrict_first(const int fine[3], const int *fine_map, int *coarse_map);

#endif
