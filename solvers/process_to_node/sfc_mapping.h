/* sfc_mapping.h - the sfc placement (SPEC 4): processors ordered along a
 * curve over the network's coordinates, blocks in id order or along a
 * curve over the block grid, cut into runs sized as lb sizes them. */
#ifndef SM_SFC_MAPPING_H
#define SM_SFC_MAPPING_H

#include "sfc_curve_keys.h"
#include "core/model/speed_proportional_quota.h"
#include "core/model/grid.h"
#include "core/model/topology.h"

/* The network's coordinate box, x (fastest) first: torus/mesh dims
 * reversed (node index is row-major), HAEC [board_x, board_y, boards].
 * Returns the axis count, 0 for networks without coordinates. */
int sm_net_box(const sm_net *n, int *size);

/* Processors in curve order: nodes along the curve (node index order on
 * networks without coordinates), a node's processors in list order. */
int sm_curve_procs(const sm_topo *t, sm_curve c, int *procs, sm_err *e);

/* Blocks along a curve over the block grid (order_by_id: block-id order). */
int sm_curve_blocks(const sm_grid *g, int order_by_id, sm_curve c, int *blocks, sm_err *e);

/* The whole sfc mapping at once (tests, warm starts). */
int sm_curve_map(const sm_grid *g, const sm_topo *t, sm_curve c, int order_by_id,
                 sm_curve block_curve, sm_speeds sp, int *map, sm_err *e);

#endif
