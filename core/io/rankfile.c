/* rankfile.c - Open MPI rankfiles, Slurm/MPICH hostfiles and the block ->
 * rank list of a mapping (METIS and Scotch target weights: core/io/
 * metis_scotch_graph_and_target_weight_files.c). */
#include "rankfile.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/strbuf.h"

/* Letters, digits, '-', '_' and '.': what a host name may hold (and so
 * nothing that would break a rankfile line). */
static int host_ok(const char *h)
{
    if (!*h || strlen(h) > 253) return 0;
    for (const char *c = h; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.') return 0;
    return 1;
}

static char *node_host(const sm_topo *t, int node)
{
    const char *first = NULL;
    size_t plen = 0;
    for (int p = 0; p < t->nprocs; p++) {
        if (t->procs[p].node != node) continue;
        const char *nm = t->procs[p].name, *dot = strchr(nm, '.');
        if (!first) {
            if (!dot || dot == nm) goto numbered;
            first = nm;
            plen = (size_t)(dot - nm);
        } else if (!dot || (size_t)(dot - nm) != plen || strncmp(nm, first, plen) != 0) {
            goto numbered;
        }
    }
    if (first) {
        char *h = sm_xmalloc(plen + 1);
        memcpy(h, first, plen);
        h[plen] = '\0';
        if (host_ok(h)) return h;
        free(h);
    }
numbered: {
        char buf[32];
        snprintf(buf, sizeof buf, "node%d", node);
        return sm_xstrdup(buf);
    }
}

int sm_launch_plan(const sm_topo *t, const int *map, int nblocks, char *const *hosts,
                   int nhosts, sm_launch *l, sm_err *e)
{
    memset(l, 0, sizeof *l);
    int P = t->nprocs;
    char *used = sm_xcalloc((size_t)P, 1);
    for (int b = 0; b < nblocks; b++) used[map[b]] = 1;
    l->rank_of_proc = sm_xmalloc(sizeof(int) * (size_t)P);
    l->proc_of_rank = sm_xmalloc(sizeof(int) * (size_t)P);
    l->host = sm_xcalloc((size_t)P, sizeof(char *));
    l->slot = sm_xcalloc((size_t)P, sizeof(char *));
    l->device = sm_xmalloc(sizeof(int) * (size_t)P);
    int rc = 0;
    for (int p = 0; p < P; p++) {
        int node = t->procs[p].node;
        l->rank_of_proc[p] = -1;
        if (!used[p]) continue;
        int r = l->nranks++;
        l->rank_of_proc[p] = r;
        l->proc_of_rank[r] = p;
        l->device[r] = -1;
        if (hosts) {
            if (node >= nhosts) {
                sm_err_set(e, "-hosts: %d host names, expected one a node (%d nodes): node %d "
                              "(processor %s) has none", nhosts, t->nnodes, node, t->procs[p].name);
                rc = -1;
                break;
            }
            if (!host_ok(hosts[node])) {
                sm_err_set(e, "-hosts: \"%s\" (node %d) is not a host name", hosts[node], node);
                rc = -1;
                break;
            }
            l->host[r] = sm_xstrdup(hosts[node]);
        } else {
            l->host[r] = node_host(t, node);
        }
    }
    free(used);
    if (rc) sm_launch_free(l);
    return rc;
}

void sm_launch_free(sm_launch *l)
{
    for (int r = 0; r < l->nranks; r++) {
        if (l->host) free(l->host[r]);
        if (l->slot) free(l->slot[r]);
    }
    free(l->host);
    free(l->device);
    free(l->rank_of_proc);
    free(l->proc_of_rank);
    free(l->slot);
    memset(l, 0, sizeof *l);
}

char *sm_launch_text(const sm_launch *l, sm_launch_format f, size_t *len)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    for (int r = 0; r < l->nranks; r++) {
        if (f == SM_LAUNCH_RANKFILE) sm_strbuf_put(&b, "rank %d=%s slot=%s\n", r, l->host[r], l->slot[r] ? l->slot[r] : "?");
        else sm_strbuf_put(&b, "%s\n", l->host[r]);
    }
    if (!b.s) sm_strbuf_put(&b, "%s", "");
    *len = b.n;
    return b.s;
}

char *sm_launch_blocks_text(const sm_launch *l, const int *map, int nblocks, size_t *len)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "# stencilmap block -> rank: line k+2 is block k's MPI rank (%d blocks, %d ranks)",
                  nblocks, l->nranks);
    int gpus = 0;
    for (int r = 0; r < l->nranks; r++)
        if (l->device[r] >= 0) sm_strbuf_put(&b, "%s%d=%d", gpus++ ? " " : "; devices: ", r, l->device[r]);
    sm_strbuf_put(&b, "\n");
    for (int k = 0; k < nblocks; k++) sm_strbuf_put(&b, "%d\n", l->rank_of_proc[map[k]]);
    *len = b.n;
    return b.s;
}
