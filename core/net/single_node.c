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

const sm_net_ops sm_net_single = {"single", 0, load, save, capacity,
                                  distance, distance, route, NULL};
