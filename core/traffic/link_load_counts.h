/* link_load_counts.h - per-physical-link loads (SPEC 5, model links): every cut
 * message routed with the network's dimension-order routing, counted per
 * directed link as messages and halo cells. */
#ifndef SM_LINK_LOAD_COUNTS_H
#define SM_LINK_LOAD_COUNTS_H

#include <stdint.h>
#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/topology.h"

typedef struct { int from, to; int64_t messages, cells; } sm_link_load;

/* The loaded links, sorted by (from, to) node index; caller frees.
 * Torus, mesh and HAEC (board links and the wireless board-to-board
 * links); -1 with e set on other networks. */
int sm_links_compute(const sm_grid *g, const sm_topo *t, const int *map,
                     sm_link_load **out, sm_err *e);

/* One processor pair's traffic over the links a query matched. */
typedef sm_traffic sm_link_pair;

/* Which directed links (node from -> node to, as sm_links_compute names
 * them) a query is about. */
typedef int (*sm_link_match)(int from, int to, const void *ctx);

/* The processor pairs whose messages cross a matched link (a message is
 * counted once however many matched links it crosses), sorted by
 * (src, dst); caller frees. Same networks and routing as
 * sm_links_compute, so the pairs' messages add up to its loads. */
int sm_links_crossing(const sm_grid *g, const sm_topo *t, const int *map,
                      sm_link_match match, const void *ctx,
                      sm_link_pair **out, sm_err *e);

/* Tree networks (fat-tree levels, dragonfly ranks): the uplink of every
 * node (level 0) and of every group of g1..gL nodes (level L, its switch)
 * towards the next level, loaded both ways as the tree's routes (up to
 * the common switch and down again) cross them. Sorted by (level,
 * index), loaded links only; -1 with e set on other networks. */
typedef struct {
    int level, index;
    int64_t up_messages, up_cells, down_messages, down_cells;
} sm_tree_link;
int sm_links_tree(const sm_grid *g, const sm_topo *t, const int *map,
                  sm_tree_link **out, sm_err *e);
/* Groups at a level of the tree (level 0: the nodes), for nnodes nodes. */
int sm_links_tree_groups(const sm_net *n, int nnodes, int level);
/* The pairs whose messages go up (down = 0) or down the uplink of group
 * index at level, as sm_links_crossing. */
int sm_links_tree_crossing(const sm_grid *g, const sm_topo *t, const int *map,
                           int level, int index, int down,
                           sm_link_pair **out, sm_err *e);

/* The same four from the processor pairs' traffic (sm_cost_traffic: the
 * cost state keeps it as blocks move) instead of every task edge: all
 * messages of a pair take one route, so a pair is routed once. O(pairs x
 * route length): the Network pane at a million blocks. Same results. */
int sm_links_compute_traffic(const sm_topo *t, const sm_traffic *tr, int n, sm_link_load **out, sm_err *e);
int sm_links_crossing_traffic(const sm_topo *t, const sm_traffic *tr, int n, sm_link_match match,
                              const void *ctx, sm_link_pair **out, sm_err *e);
int sm_links_tree_traffic(const sm_topo *t, const sm_traffic *tr, int n, sm_tree_link **out, sm_err *e);
int sm_links_tree_crossing_traffic(const sm_topo *t, const sm_traffic *tr, int n, int level, int index,
                                   int down, sm_link_pair **out, sm_err *e);

#endif
