/* adjacent_nodes_bitset.c - the distance-1 relation of a network as a bit table
 * of shared 64 x 64 tiles. */
#include "adjacent_nodes_bitset.h"

#include <stdlib.h>
#include <string.h>

/* Bits lo .. lo + len - 1 of a row. */
static void set_run(uint64_t *row, int lo, int len)
{
    for (int b = lo, end = lo + len; b < end;) {
        int sh = b & 63, k = end - b < 64 - sh ? end - b : 64 - sh;
        row[b >> 6] |= (k == 64 ? ~0ull : ((1ull << k) - 1)) << sh;
        b += k;
    }
}

/* The whole table, a row a node: from the network's runs, or from
 * n (n - 1) / 2 distance calls (the relation is symmetric). */
static uint64_t *full_rows(const sm_net *net, int n, size_t words)
{
    uint64_t *bits = sm_xcalloc((size_t)n * words, sizeof(uint64_t));
    if (net->ops->adjacent) {
        int lo[SM_NET_ADJ_RUNS], len[SM_NET_ADJ_RUNS];
        for (int x = 0; x < n; x++) {
            int k = net->ops->adjacent(net, x, n, lo, len, SM_NET_ADJ_RUNS);
            for (int i = 0; i < k; i++) set_run(bits + (size_t)x * words, lo[i], len[i]);
        }
        return bits;
    }
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n; y++)
            if (net->ops->distance(net, x, y) == 1) {
                bits[(size_t)x * words + ((unsigned)y >> 6)] |= 1ull << (y & 63);
                bits[(size_t)y * words + ((unsigned)x >> 6)] |= 1ull << (x & 63);
            }
    return bits;
}

static uint64_t tile_hash(const uint64_t *t)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int r = 0; r < 64; r++) h = (h ^ t[r]) * 0xff51afd7ed558ccdull, h ^= h >> 29;
    return h;
}

sm_node_adjacency *sm_node_adjacency_new(const sm_net *net, int n)
{
    if (!net || n < 1 || n > SM_NODE_ADJ_MAX) return NULL;
    size_t words = ((size_t)n + 63) / 64, ntile = words * words;
    uint64_t *bits = full_rows(net, n, words);
    sm_node_adjacency *a = sm_xmalloc(sizeof *a);
    a->n = n;
    a->words = words;
    a->tile = sm_xcalloc(ntile, sizeof *a->tile);
    /* At most ntile + 1 distinct tiles (the empty one first): a table of
     * twice that many slots, open addressing. */
    a->pool = sm_xcalloc((ntile + 1) * 64, sizeof(uint64_t));
    a->ntiles = 1;
    size_t cap = 16;
    while (cap < 2 * (ntile + 1)) cap *= 2;
    int *slot = sm_xmalloc(sizeof(int) * cap);
    memset(slot, -1, sizeof(int) * cap);
    slot[tile_hash(a->pool) & (cap - 1)] = 0;
    uint64_t t[64];
    for (size_t i = 0; i < words; i++)
        for (size_t j = 0; j < words; j++) {
            for (size_t r = 0; r < 64; r++) {
                size_t x = i * 64 + r;
                t[r] = x < (size_t)n ? bits[x * words + j] : 0;
            }
            size_t s = tile_hash(t) & (cap - 1);
            while (slot[s] >= 0 && memcmp(a->pool + (size_t)slot[s] * 64, t, sizeof t)) s = (s + 1) & (cap - 1);
            if (slot[s] < 0) {
                slot[s] = a->ntiles++;
                memcpy(a->pool + (size_t)slot[s] * 64, t, sizeof t);
            }
            a->tile[i * words + j] = (uint16_t)slot[s];
        }
    free(slot);
    free(bits);
    a->pool = sm_xrealloc(a->pool, sizeof(uint64_t) * 64 * (size_t)a->ntiles);
    return a;
}

void sm_node_adjacency_free(sm_node_adjacency *a)
{
    if (!a) return;
    free(a->tile);
    free(a->pool);
    free(a);
}
