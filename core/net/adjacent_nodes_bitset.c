/* adjacent_nodes_bitset.c - the distance-1 relation of a network as a bit table. */
#include "adjacent_nodes_bitset.h"

#include <stdlib.h>

sm_node_adjacency *sm_node_adjacency_new(const sm_net *net, int n)
{
    if (!net || n < 1 || n > SM_NODE_ADJ_MAX) return NULL;
    sm_node_adjacency *a = sm_xmalloc(sizeof *a);
    a->n = n;
    a->words = ((size_t)n + 63) / 64;
    a->bits = sm_xcalloc((size_t)n * a->words, sizeof(uint64_t));
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n; y++)
            if (net->ops->distance(net, x, y) == 1) {
                a->bits[(size_t)x * a->words + ((unsigned)y >> 6)] |= 1ull << (y & 63);
                a->bits[(size_t)y * a->words + ((unsigned)x >> 6)] |= 1ull << (x & 63);
            }
    return a;
}

void sm_node_adjacency_free(sm_node_adjacency *a)
{
    if (!a) return;
    free(a->bits);
    free(a);
}
