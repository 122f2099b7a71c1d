/* adjacent_nodes_bitset.h - which nodes are next to which (network distance 1),
 * as one bit per node pair: the test the cardinality objective makes for
 * every grid edge of every exchange it scores (bokhari at 4096 nodes:
 * ~270 M tests) becomes a load and a shift instead of a call through the
 * network's ops with its divisions. Built only up to SM_NODE_ADJ_MAX
 * nodes (8 MB); above, callers ask the network. */
#ifndef SM_ADJACENT_NODES_BITSET_H
#define SM_ADJACENT_NODES_BITSET_H

#include <stdint.h>
#include <stddef.h>
#include "core/net/net.h"

#define SM_NODE_ADJ_MAX 8192

typedef struct sm_node_adjacency {
    int n;           /* nodes */
    size_t words;    /* 64-bit words a row */
    uint64_t *bits;  /* row a, bit b: distance(a, b) == 1 */
} sm_node_adjacency;

/* The table of the first n nodes of net (n <= SM_NODE_ADJ_MAX, else
 * NULL): n (n - 1) / 2 distance calls, the relation being symmetric. */
sm_node_adjacency *sm_node_adjacency_new(const sm_net *net, int n);
void sm_node_adjacency_free(sm_node_adjacency *a);

static inline int sm_node_adjacent(const sm_node_adjacency *a, int x, int y)
{
    return (int)((a->bits[(size_t)x * a->words + ((unsigned)y >> 6)] >> (y & 63)) & 1u);
}

#endif
