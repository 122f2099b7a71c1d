/* net.h - the inter-node network: one module per kind behind sm_net_ops,
 * in the manner of Scotch's target architectures (distance, load, save). */
#ifndef SM_NET_H
#define SM_NET_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include "core/lib/util.h"

#define SM_NET_MAXDIMS 8

typedef struct sm_net sm_net;

typedef struct sm_net_ops {
    const char *kind;
    /* inter[0] is a per-hop class and costs scale by the distance. */
    int per_hop;
    int (*load)(sm_net *n, const cJSON *j, const char *path, sm_err *e);
    void (*save)(const sm_net *n, cJSON *j);
    /* Number of nodes the network has, or -1 when unbounded. */
    int (*capacity)(const sm_net *n);
    /* Level (tree, matrix) or hop count (torus, mesh, haec); 0 if a == b. */
    int (*distance)(const sm_net *n, int a, int b);
    /* Physical hop count, for metrics. */
    int (*hops)(const sm_net *n, int a, int b);
    /* The physical links a message a -> b crosses under dimension-order
     * routing, as opaque ids; returns the count (at most max). */
    int (*route)(const sm_net *n, int a, int b, uint64_t *links, int max);
    /* The network group a node sits in (leaf switch, board, torus line),
     * for grouping in the workbench; NULL: one group. */
    int (*group)(const sm_net *n, int node);
    /* The nodes at distance 1 from a, below nnodes, as runs of
     * consecutive nodes (run i: lo[i] .. lo[i] + len[i] - 1; a run may
     * repeat a node, never holds a); returns the runs written (at most
     * max, SM_NET_ADJ_RUNS is enough). From coordinates, so a distance-1
     * table costs O(its ones) and not nnodes^2 distance calls. NULL: ask
     * distance. */
    int (*adjacent)(const sm_net *n, int a, int nnodes, int *lo, int *len, int max);
} sm_net_ops;

#define SM_NET_ADJ_RUNS (2 * SM_NET_MAXDIMS + 4)

struct sm_net {
    const sm_net_ops *ops;
    int ndims;
    int dims[SM_NET_MAXDIMS]; /* group_sizes, dims, or boards + board_dims */
    int msize;                /* matrix: msize x msize levels */
    int *matrix;
};

extern const sm_net_ops sm_net_single, sm_net_tree, sm_net_torus,
    sm_net_mesh, sm_net_haec, sm_net_matrix;

/* Load "network" object: picks the module by "kind". */
sm_net *sm_net_load(const cJSON *j, const char *path, sm_err *e);
cJSON *sm_net_save(const sm_net *n);
sm_net *sm_net_clone(const sm_net *n);
int sm_net_group(const sm_net *n, int node);
void sm_net_free(sm_net *n);

/* Helpers shared by the grid-shaped kinds. */
void sm_net_unrank(const int *dims, int nd, int idx, int *c);
int sm_net_axis_dist(int a, int b, int size, int wrap);
int sm_net_load_dims(sm_net *n, const cJSON *j, const char *path,
                     const char *key, int mind, int maxd, sm_err *e);

#define SM_MAX_NODES (1 << 20)
#define SM_MAX_ROUTE 256

#endif
