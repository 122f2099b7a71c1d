/* sfc_mapping.c - processor and block orders along curves, and the sfc
 * mapping built from them. */
#include "sfc_mapping.h"

#include <stdlib.h>
#include <string.h>

int sm_net_box(const sm_net *n, int *size)
{
    if (n->ops == &sm_net_torus || n->ops == &sm_net_mesh || n->ops == &sm_net_haec) {
        int nd = n->ops == &sm_net_haec ? 3 : n->ndims;
        if (nd > SM_CURVE_MAXDIMS) return 0;
        for (int a = 0; a < nd; a++) size[a] = n->dims[nd - 1 - a];
        return nd;
    }
    return 0;
}

int sm_curve_procs(const sm_topo *t, sm_curve c, int *procs, sm_err *e)
{
    int size[SM_CURVE_MAXDIMS], nd = sm_net_box(t->net, size);
    long long nn = 1;
    for (int a = 0; a < nd; a++) nn *= size[a];
    if (nd == 0 || nn < t->nnodes) nn = t->nnodes, nd = 0;
    int *nodes = sm_xmalloc(sizeof(int) * (size_t)(nn ? nn : 1));
    if (nd) {
        if (sm_curve_order(c, nd, size, nodes, e)) {
            free(nodes);
            return -1;
        }
    } else {
        for (int i = 0; i < nn; i++) nodes[i] = i;
    }
    /* Bucket processors by node, keeping list order inside a node. */
    int *first = sm_xcalloc((size_t)nn + 1, sizeof(int));
    for (int p = 0; p < t->nprocs; p++) first[t->procs[p].node + 1]++;
    for (long long i = 0; i < nn; i++) first[i + 1] += first[i];
    int *byn = sm_xmalloc(sizeof(int) * (size_t)(t->nprocs ? t->nprocs : 1));
    int *fill = sm_xcalloc((size_t)nn, sizeof(int));
    for (int p = 0; p < t->nprocs; p++) {
        int nd_ = t->procs[p].node;
        byn[first[nd_] + fill[nd_]++] = p;
    }
    int k = 0;
    for (long long i = 0; i < nn; i++)
        for (int j = first[nodes[i]]; j < first[nodes[i] + 1]; j++) procs[k++] = byn[j];
    free(nodes);
    free(first);
    free(byn);
    free(fill);
    return 0;
}

int sm_curve_blocks(const sm_grid *g, int order_by_id, sm_curve c, int *blocks, sm_err *e)
{
    if (order_by_id) {
        for (int u = 0; u < g->ntasks; u++) blocks[u] = u;
        return 0;
    }
    /* Block id = i + j*BX + k*BX*BY: already x-fastest. */
    return sm_curve_order(c, 3, g->spec.blocks, blocks, e);
}

int sm_curve_map(const sm_grid *g, const sm_topo *t, sm_curve c, int order_by_id,
                 sm_curve block_curve, sm_speeds sp, int *map, sm_err *e)
{
    int P = t->nprocs, n = g->ntasks;
    int *procs = sm_xmalloc(sizeof(int) * (size_t)P);
    int *blocks = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    double *limit = sm_xmalloc(sizeof(double) * (size_t)P);
    double *lim = sm_xmalloc(sizeof(double) * (size_t)P);
    int rc = -1;
    if (sm_curve_procs(t, c, procs, e) ||
        sm_curve_blocks(g, order_by_id, block_curve, blocks, e))
        goto out;
    sm_fill_limits(g, t, sp, limit);
    for (int i = 0; i < P; i++) lim[i] = limit[procs[i]];
    int pi = 0, count = 0;
    for (int k = 0; k < n; k++) map[blocks[k]] = procs[sm_fill_next(lim, P, &pi, &count)];
    rc = 0;
out:
    free(procs);
    free(blocks);
    free(limit);
    free(lim);
    return rc;
}
