/* torus_mesh_routing.c - torus and mesh: node index is row-major in dims; the
 * level is the hop count (with wrap-around on a torus). */
#include "net.h"
#include "core/lib/jsonutil.h"

static int load(sm_net *n, const cJSON *j, const char *path, sm_err *e)
{
    static const char *const keys[] = {"kind", "dims", NULL};
    if (sm_json_only_keys(j, path, keys, e)) return -1;
    return sm_net_load_dims(n, j, path, "dims", 1, SM_NET_MAXDIMS, e);
}

static void save(const sm_net *n, cJSON *j)
{
    cJSON_AddItemToObject(j, "dims", cJSON_CreateIntArray(n->dims, n->ndims));
}

static int capacity(const sm_net *n)
{
    int p = 1;
    for (int d = 0; d < n->ndims; d++) p *= n->dims[d];
    return p;
}

static int dist(const sm_net *n, int a, int b, int wrap)
{
    int ca[SM_NET_MAXDIMS], cb[SM_NET_MAXDIMS], h = 0;
    sm_net_unrank(n->dims, n->ndims, a, ca);
    sm_net_unrank(n->dims, n->ndims, b, cb);
    for (int d = 0; d < n->ndims; d++)
        h += sm_net_axis_dist(ca[d], cb[d], n->dims[d], wrap);
    return h;
}

static int dist_torus(const sm_net *n, int a, int b) { return dist(n, a, b, 1); }
static int dist_mesh(const sm_net *n, int a, int b) { return dist(n, a, b, 0); }

/* Dimension-order routing; a link id is (node, dimension, direction). */
static int route(const sm_net *n, int a, int b, uint64_t *l, int max, int wrap)
{
    int c[SM_NET_MAXDIMS], cb[SM_NET_MAXDIMS], k = 0;
    sm_net_unrank(n->dims, n->ndims, a, c);
    sm_net_unrank(n->dims, n->ndims, b, cb);
    for (int d = 0; d < n->ndims; d++) {
        int size = n->dims[d];
        while (c[d] != cb[d] && k < max) {
            int fwd = (cb[d] - c[d] + size) % size;
            int step = 1;
            if (wrap) step = fwd <= size - fwd ? 1 : -1;
            else step = cb[d] > c[d] ? 1 : -1;
            int node = 0;
            for (int t = 0; t < n->ndims; t++) node = node * n->dims[t] + c[t];
            l[k++] = ((uint64_t)node << 5) | ((uint64_t)d << 1) |
                     (uint64_t)(step < 0);
            c[d] = (c[d] + step + size) % size;
        }
    }
    return k;
}

static int route_torus(const sm_net *n, int a, int b, uint64_t *l, int m)
{
    return route(n, a, b, l, m, 1);
}
static int route_mesh(const sm_net *n, int a, int b, uint64_t *l, int m)
{
    return route(n, a, b, l, m, 0);
}

/* One step along each axis, either way (wrapping on a torus); a step
 * that comes back to a (an axis of size 1) is no neighbour. */
static int adjacent(const sm_net *n, int a, int nnodes, int *lo, int *len, int max, int wrap)
{
    int c[SM_NET_MAXDIMS], k = 0, stride = 1;
    sm_net_unrank(n->dims, n->ndims, a, c);
    for (int d = n->ndims - 1; d >= 0; stride *= n->dims[d--])
        for (int step = -1; step <= 1; step += 2) {
            int size = n->dims[d], to = c[d] + step;
            if (wrap) to = (to + size) % size;
            else if (to < 0 || to >= size) continue;
            int b = a + (to - c[d]) * stride;
            if (to == c[d] || b >= nnodes || k == max) continue;
            lo[k] = b;
            len[k++] = 1;
        }
    return k;
}

static int adjacent_torus(const sm_net *n, int a, int nn, int *lo, int *len, int max)
{
    return adjacent(n, a, nn, lo, len, max, 1);
}
static int adjacent_mesh(const sm_net *n, int a, int nn, int *lo, int *len, int max)
{
    return adjacent(n, a, nn, lo, len, max, 0);
}

/* A network group is a line of nodes along the first axis. */
static int group(const sm_net *n, int node) { return node / n->dims[0]; }

const sm_net_ops sm_net_torus = {"torus", 1, load, save, capacity,
                                 dist_torus, dist_torus, route_torus, group, adjacent_torus};
const sm_net_ops sm_net_mesh = {"mesh", 1, load, save, capacity,
                                dist_mesh, dist_mesh, route_mesh, group, adjacent_mesh};
