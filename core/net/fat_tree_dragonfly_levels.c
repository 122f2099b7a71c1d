/* fat_tree_dragonfly_levels.c - fat-tree levels and dragonfly ranks: nodes n and m are at
 * level L, the smallest L with floor(n/(g1..gL)) == floor(m/(g1..gL));
 * beyond the last group the level is count+1. */
#include "net.h"
#include "core/lib/jsonutil.h"

static int load(sm_net *n, const cJSON *j, const char *path, sm_err *e)
{
    static const char *const keys[] = {"kind", "group_sizes", NULL};
    if (sm_json_only_keys(j, path, keys, e)) return -1;
    return sm_net_load_dims(n, j, path, "group_sizes", 1, SM_NET_MAXDIMS, e);
}

static void save(const sm_net *n, cJSON *j)
{
    cJSON_AddItemToObject(j, "group_sizes",
                          cJSON_CreateIntArray(n->dims, n->ndims));
}

static int capacity(const sm_net *n) { (void)n; return -1; }

static int distance(const sm_net *n, int a, int b)
{
    if (a == b) return 0;
    long long g = 1;
    for (int L = 0; L < n->ndims; L++) {
        g *= n->dims[L];
        if (a / g == b / g) return L + 1;
    }
    return n->ndims + 1;
}

/* Up to the common switch and down again. */
static int hops(const sm_net *n, int a, int b) { return 2 * distance(n, a, b); }

/* Links: node-or-switch uplinks, id = (level, group index, direction). */
static int route(const sm_net *n, int a, int b, uint64_t *l, int max)
{
    int L = distance(n, a, b), k = 0;
    long long g = 1;
    for (int lev = 0; lev < L && k + 2 <= max; lev++) {
        uint64_t up = ((uint64_t)lev << 56) | ((uint64_t)(a / g) << 1) | 0;
        uint64_t dn = ((uint64_t)lev << 56) | ((uint64_t)(b / g) << 1) | 1;
        l[k++] = up;
        l[k++] = dn;
        if (lev < n->ndims) g *= n->dims[lev];
    }
    return k;
}

/* A network group is the first-level switch (or dragonfly router). */
static int group(const sm_net *n, int node) { return node / n->dims[0]; }

/* Level 1: the other nodes under a's first-level switch. */
static int adjacent(const sm_net *n, int a, int nnodes, int *lo, int *len, int max)
{
    long long first = (long long)(a / n->dims[0]) * n->dims[0], last = first + n->dims[0];
    if (last > nnodes) last = nnodes;
    int k = 0;
    if (first < a && k < max) lo[k] = (int)first, len[k++] = (int)(a - first);
    if (a + 1 < last && k < max) lo[k] = a + 1, len[k++] = (int)(last - a - 1);
    return k;
}

const sm_net_ops sm_net_tree = {"tree", 0, load, save, capacity,
                                distance, hops, route, group, adjacent};
