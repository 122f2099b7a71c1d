/* grid.h - a stencil grid cut into blocks, and its task graph (SPEC 2.1). */
#ifndef SM_GRID_H
#define SM_GRID_H

#include <stdint.h>
#include "core/lib/util.h"

typedef enum { SM_ST_5PT, SM_ST_9PT, SM_ST_7PT, SM_ST_27PT } sm_stencil;

/* What a user gives; sm_grid_build turns it into a task graph. */
typedef struct sm_grid_spec {
    int64_t cells[3];
    int blocks[3];
    int periodic[3];
    int halo;
    sm_stencil stencil;
} sm_grid_spec;

/* Directed task edge src -> dst: src sends its halo (cells) to dst.
 * 12 bytes: at the whole Summit's 100 M edges the edges are half of the
 * task graph, so a halo is held to SM_MAX_EDGE_CELLS (checked by
 * sm_grid_spec_check); sums and products of cells are taken in int64_t. */
typedef struct sm_edge {
    int src, dst;
    int32_t cells;
} sm_edge;

typedef struct sm_grid {
    sm_grid_spec spec;
    int ntasks;
    int64_t *task_cells;      /* d_u */
    int nedges;
    sm_edge *edges;
    /* For each task, the edges touching it (in and out): inc[inc_off[u]..] */
    int *inc_off, *inc;
    /* Distinct neighbouring tasks, for heuristics: nbr[nbr_off[u]..] */
    int *nbr_off, *nbr;
} sm_grid;

#define SM_MAX_TASKS (1 << 25)
#define SM_MAX_CELLS_AXIS ((int64_t)1 << 40)
/* Cells in all: 2^53, so every count of cells (a block, a processor's
 * load, a halo) is exact as a double and no product of sizes overflows. */
#define SM_MAX_CELLS ((int64_t)1 << 53)
/* Halo cells one block sends one neighbour (a face's area x halo, both
 * offsets' when two blocks meet twice on a periodic axis): 2^31 - 1. */
#define SM_MAX_EDGE_CELLS ((int64_t)INT32_MAX)

const char *sm_stencil_name(sm_stencil s);
int sm_stencil_parse(const char *name, sm_stencil *out);
/* Defaults: cells = blocks x 64 per axis (1 for unused Z), halo 1, 7pt. */
void sm_grid_spec_default(sm_grid_spec *s);
int sm_grid_spec_check(const sm_grid_spec *s, sm_err *e);
/* The most halo cells one task edge of the grid s describes carries (at
 * most SM_MAX_EDGE_CELLS + 1: the count stops past the limit, so no
 * product overflows). s must have passed the checks on blocks, cells
 * and halo. */
int64_t sm_grid_max_edge_cells(const sm_grid_spec *s);
sm_grid *sm_grid_build(const sm_grid_spec *s, sm_err *e);
void sm_grid_free(sm_grid *g);

/* Block coordinates from id and back (id = i + j*BX + k*BX*BY). */
void sm_grid_coords(const sm_grid *g, int id, int c[3]);
/* Cells of block index b along axis a (remainder to the first blocks). */
int64_t sm_grid_extent(const sm_grid_spec *s, int axis, int b);

#endif
