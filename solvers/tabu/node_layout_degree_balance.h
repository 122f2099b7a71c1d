/* node_layout_degree_balance.h - a node's blocks rearranged among its
 * processors to lower the busiest one's degree
 * (node_layout_degree_balance.c); private to solvers/tabu. */
#ifndef SM_NODE_LAYOUT_DEGREE_BALANCE_H
#define SM_NODE_LAYOUT_DEGREE_BALANCE_H

#include <stdint.h>
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"

/* blocks[0..nb) are the blocks map puts on procs[0..np) (one node's
 * processors; each holds at most cap[i] blocks, counted as now where it
 * holds more). Moves and swaps among them, at most max_steps, each
 * lowering the highest degree (quanta, as the model counts them) or the
 * number of processors at it, until it is at most target or no step
 * does. Changes map; returns the steps taken. */
int sm_node_degree_balance(const sm_grid *g, const sm_topo *t, const sm_model *m, int *map, const int *blocks,
                           int nb, const int *procs, int np, const int *cap, int64_t target, int max_steps, int64_t *high);

#endif
