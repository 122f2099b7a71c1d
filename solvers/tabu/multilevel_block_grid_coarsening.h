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
 * NULL when no axis can be halved. Free with sm_grid_free. */
sm_grid *sm_grid_coarsen(const sm_grid *g, int *up);

/* Fine mapping from a coarse one: fine[u] = coarse[up[u]]. */
void sm_grid_project(const sm_grid *fine, const int *up, const int *coarse_map, int *fine_map);

#endif
