/* edge_isoperimetric.h - edge-isoperimetric profile of a block grid (edge_isoperimetric.c). */
#ifndef SM_EDGE_ISOPERIMETRIC_H
#define SM_EDGE_ISOPERIMETRIC_H

#include "core/model/grid.h"

/* f[b], b = 0..ntasks: the fewest distinct neighbouring block pairs with
 * one block in a set of b blocks and the other outside it. *exact is 1
 * when f is the exact minimum, 0 when it is only a lower bound (pairs of
 * a periodic axis dropped). NULL when the grid is too wide for the
 * dynamic programme (a slice of more than 18 blocks) or memory is short.
 * Caller frees. */
int *sm_iso_profile(const sm_grid *g, int *exact);

#endif
