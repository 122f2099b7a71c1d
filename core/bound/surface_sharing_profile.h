/* surface_sharing_profile.h - a lower bound on one set's cut plus lambda
 * times its faces on the grid's surface (surface_sharing_profile.c); the
 * energy bound reads it through its context, tests through this. */
#ifndef SM_SURFACE_SHARING_PROFILE_H
#define SM_SURFACE_SHARING_PROFILE_H

#include "core/model/grid.h"

/* For every b = 0..ntasks, h[b] <= dw(S) + 2 lambda sum_a w[a] s_a(S) for
 * every set S of b blocks: dw the cells of the directed edges leaving or
 * entering S, s_a(S) its blocks' faces on the two end planes of grid axis a
 * (axes of two blocks or more that do not wrap), w[a] the least cells of a
 * face edge along a (0 for an axis of one block). Returns 0 (h untouched)
 * where it does not apply: no edges, fewer than two active axes, or more
 * work than the bound spends on it (above about 16^3 blocks). */
int sm_surface_profile(const sm_grid *g, double lambda, double *h, double w[3]);

#endif
