/* net_shared_by_all_kinds.c - what every network kind shares: saving, copying and freeing a
 * network, and the coordinate helpers the grid-shaped kinds use. */
#include "net.h"

#include <stdlib.h>
#include <string.h>
#include "core/lib/jsonutil.h"

cJSON *sm_net_save(const sm_net *n)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", n->ops->kind);
    n->ops->save(n, j);
    return j;
}

sm_net *sm_net_clone(const sm_net *n)
{
    sm_net *c = sm_xmalloc(sizeof *c);
    *c = *n;
    if (n->matrix) {
        size_t sz = sizeof(int) * (size_t)n->msize * (size_t)n->msize;
        c->matrix = sm_xmalloc(sz);
        memcpy(c->matrix, n->matrix, sz);
    }
    return c;
}

void sm_net_free(sm_net *n)
{
    if (!n) return;
    free(n->matrix);
    free(n);
}

void sm_net_unrank(const int *dims, int nd, int idx, int *c)
{
    for (int d = nd - 1; d >= 0; d--) {
        c[d] = idx % dims[d];
        idx /= dims[d];
    }
}

int sm_net_axis_dist(int a, int b, int size, int wrap)
{
    int d = a > b ? a - b : b - a;
    if (wrap && size - d < d) d = size - d;
    return d;
}

int sm_net_load_dims(sm_net *n, const cJSON *j, const char *path,
                     const char *key, int mind, int maxd, sm_err *e)
{
    int64_t v[SM_NET_MAXDIMS];
    int len = 0;
    if (sm_json_int_array(j, path, key, 1, mind, maxd, 1, SM_MAX_NODES, v,
                          &len, e) < 0)
        return -1;
    int64_t prod = 1;
    for (int i = 0; i < len; i++) {
        prod *= v[i];
        if (prod > SM_MAX_NODES) {
            char p[512];
            sm_err_set(e, "%s: expected at most %d nodes in all",
                       sm_jpath_key(p, sizeof p, path, key), SM_MAX_NODES);
            return -1;
        }
        n->dims[n->ndims++] = (int)v[i];
    }
    return 0;
}

int sm_net_group(const sm_net *n, int node)
{
    return n->ops->group ? n->ops->group(n, node) : 0;
}
