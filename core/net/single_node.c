/* single_node.c - one node: no inter-node traffic at all. */
#include "net.h"
#include "core/lib/jsonutil.h"

static int load(sm_net *n, const cJSON *j, const char *path, sm_err *e)
{
    (void)n;
    static const char *const keys[] = {"kind", NULL};
    return sm_json_only_keys(j, path, keys, e);
}
static void save(const sm_net *n, cJSON *j) { (void)n; (void)j; }
static int capacity(const sm_net *n) { (void)n; return 1; }
static int distance(const sm_net *n, int a, int b)
{
    (void)n;
    return a != b;
}
static int route(const sm_net *n, int a, int b, uint64_t *l, int max)
{
    (void)n; (void)a; (void)b; (void)l; (void)max;
    return 0;
}

/* Every other node is at distance 1. */
static int adjacent(const sm_net *n, int a, int nnodes, int *lo, int *len, int max)
{
    (void)n;
    int k = 0;
    if (a > 0 && k < max) lo[k] = 0, len[k++] = a;
    if (a + 1 < nnodes && k < max) lo[k] = a + 1, len[k++] = nnodes - a - 1;
    return k;
}

const sm_net_ops sm_net_single = {"single", 0, load, save, capacity,
                                  distance, distance, route, NULL, adjacent};
