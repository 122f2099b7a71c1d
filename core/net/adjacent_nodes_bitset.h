/* adjacent_nodes_bitset.h - which nodes are next to which (network distance 1),
 * as one bit per node pair: the test the cardinality objective makes for
 * every grid edge of every exchange it scores (bokhari at 4096 nodes:
 * ~270 M tests) becomes two loads and a shift instead of a call through
 * the network's ops with its divisions. Built only up to SM_NODE_ADJ_MAX
 * nodes; above, callers ask the network.
 *
 * The table is cut into tiles of 64 x 64 node pairs and alike tiles are
 * kept once: a network's distance-1 relation repeats (the boards of a
 * HAEC box, the lines of a torus), so 4096 HAEC nodes take 8 KB of tile
 * numbers and a few KB of distinct tiles instead of 2 MB of rows, and a
 * test stays in the L1 cache where a row read at a random column missed
 * it (bokhari's partners: a third of its time went there). */
#ifndef SM_ADJACENT_NODES_BITSET_H
#define SM_ADJACENT_NODES_BITSET_H

#include <stdint.h>
#include <stddef.h>
#include "core/net/net.h"

#define SM_NODE_ADJ_MAX 8192

typedef struct sm_node_adjacency {
    int n;            /* nodes */
    size_t words;     /* 64-node tiles (64-bit words) a row */
    uint16_t *tile;   /* tile (x / 64, y / 64) at [x / 64 * words + y / 64]: its number */
    uint64_t *pool;   /* tile t's rows at pool[64 t ..]: row x % 64, bit y % 64 */
    int ntiles;       /* distinct tiles (tile 0: no pair adjacent) */
} sm_node_adjacency;

/* The table of the first n nodes of net (n <= SM_NODE_ADJ_MAX, else
 * NULL), from the network's adjacent op (or n (n - 1) / 2 distance calls
 * where it has none). */
sm_node_adjacency *sm_node_adjacency_new(const sm_net *net, int n);
void sm_node_adjacency_free(sm_node_adjacency *a);

/* Node x's bits for nodes 64 wi .. 64 wi + 63. */
static inline uint64_t sm_node_adjacency_word(const sm_node_adjacency *a, int x, size_t wi)
{
    return a->pool[(size_t)a->tile[((unsigned)x >> 6) * a->words + wi] * 64 + ((unsigned)x & 63)];
}

static inline int sm_node_adjacent(const sm_node_adjacency *a, int x, int y)
{
    return (int)((sm_node_adjacency_word(a, x, (unsigned)y >> 6) >> (y & 63)) & 1u);
}

#endif
