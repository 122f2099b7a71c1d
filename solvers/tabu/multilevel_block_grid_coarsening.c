/* multilevel_block_grid_coarsening.c - 2x2x2 aggregation of a block grid: the coarse grid's
 * structure comes from sm_grid_build on the halved block counts (same
 * stencil, periodicity and cells), then its block cells and edge cells are
 * replaced by the sums over the fine blocks and edges they stand for, so
 * that uneven extents and any stencil stay exact. */
#include "multilevel_block_grid_coarsening.h"

#include <stdlib.h>
#include <string.h>

sm_grid *sm_grid_coarsen(const sm_grid *g, int *up)
{
    const int *B = g->spec.blocks;
    sm_grid_spec cs = g->spec;
    int halved = 0;
    for (int a = 0; a < 3; a++)
        if (B[a] > 1) {
            cs.blocks[a] = (B[a] + 1) / 2;
            halved = 1;
        }
    if (!halved) return NULL;
    sm_err e;
    sm_grid *c = sm_grid_build(&cs, &e);
    if (!c) return NULL;
    const int *C = cs.blocks;
    for (int u = 0; u < g->ntasks; u++) {
        int x = u % B[0], y = (u / B[0]) % B[1], z = u / (B[0] * B[1]);
        int cx = B[0] > 1 ? x / 2 : x, cy = B[1] > 1 ? y / 2 : y, cz = B[2] > 1 ? z / 2 : z;
        up[u] = cx + cy * C[0] + cz * C[0] * C[1];
    }
    memset(c->task_cells, 0, sizeof(int64_t) * (size_t)c->ntasks);
    for (int u = 0; u < g->ntasks; u++) c->task_cells[up[u]] += g->task_cells[u];
    /* Edge cells: each fine edge between two coarse blocks adds to the
     * coarse edge joining them, found among the coarse destination's
     * incident edges (at most 26 x 2 of them). */
    int64_t *cells = sm_xcalloc((size_t)c->nedges + 1, sizeof(int64_t));
    for (int i = 0; i < g->nedges; i++) {
        int s = up[g->edges[i].src], d = up[g->edges[i].dst];
        if (s == d) continue;
        for (int k = c->inc_off[d]; k < c->inc_off[d + 1]; k++) {
            const sm_edge *ce = &c->edges[c->inc[k]];
            if (ce->src == s && ce->dst == d) {
                cells[c->inc[k]] += g->edges[i].cells;
                break;
            }
        }
    }
    for (int i = 0; i < c->nedges; i++) c->edges[i].cells = cells[i];
    free(cells);
    return c;
}

void sm_grid_project(const sm_grid *fine, const int *up, const int *coarse_map, int *fine_map)
{
    for (int u = 0; u < fine->ntasks; u++) fine_map[u] = coarse_map[up[u]];
}
