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
    /* A coarse edge past what an edge holds (fine halos summed over a
     * large face): no coarser level, as when no axis can be halved. */
    for (int i = 0; i < c->nedges; i++)
        if (cells[i] > SM_MAX_EDGE_CELLS) {
            free(cells);
            sm_grid_free(c);
            return NULL;
        }
    for (int i = 0; i < c->nedges; i++) c->edges[i].cells = (int32_t)cells[i];
    free(cells);
    return c;
}

void sm_grid_project(const sm_grid *fine, const int *up, const int *coarse_map, int *fine_map)
{
    for (int u = 0; u < fine->ntasks; u++) fine_map[u] = coarse_map[up[u]];
}

void sm_grid_coarse_counts(const int fine[3], int coarse[3])
{
    for (int a = 0; a < 3; a++) coarse[a] = fine[a] > 1 ? (fine[a] + 1) / 2 : fine[a];
}

void sm_grid_project_counts(const int fine[3], const int *coarse_map, int *fine_map)
{
    int C[3];
    sm_grid_coarse_counts(fine, C);
    const int sx = fine[0] > 1, sy = fine[1] > 1, sz = fine[2] > 1;
    int u = 0;
    for (int z = 0; z < fine[2]; z++)
        for (int y = 0; y < fine[1]; y++) {
            const int *row = coarse_map + (size_t)(y >> sy) * C[0] + (size_t)(z >> sz) * C[0] * C[1];
            for (int x = 0; x < fine[0]; x++) fine_map[u++] = row[x >> sx];
        }
}

int sm_grid_fine_blocks(const int fine[3], int c, int kids[8])
{
    int C[3], lo[3], hi[3];
    sm_grid_coarse_counts(fine, C);
    const int cc[3] = {c % C[0], (c / C[0]) % C[1], c / (C[0] * C[1])};
    for (int a = 0; a < 3; a++) {
        int s = fine[a] > 1;
        lo[a] = cc[a] << s;
        hi[a] = lo[a] + s < fine[a] ? lo[a] + s : fine[a] - 1;
    }
    int n = 0;
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++) kids[n++] = x + y * fine[0] + z * fine[0] * fine[1];
    return n;
}

void sm_grid_restrict_first(const int fine[3], const int *fine_map, int *coarse_map)
{
    int C[3];
    sm_grid_coarse_counts(fine, C);
    const int sx = fine[0] > 1, sy = fine[1] > 1, sz = fine[2] > 1;
    int c = 0;
    for (int z = 0; z < C[2]; z++)
        for (int y = 0; y < C[1]; y++) {
            const int *row = fine_map + (size_t)(y << sy) * fine[0] + (size_t)(z << sz) * fine[0] * fine[1];
            for (int x = 0; x < C[0]; x++) coarse_map[c++] = row[x << sx];
        }
}
