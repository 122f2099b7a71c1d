/* rankfile.c - Open MPI rankfiles, Slurm/MPICH hostfiles and the block ->
 * rank list of a mapping; METIS and Scotch target weights. */
#include "rankfile.h"
#include <ctype.h>
#include <math.h>
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
    l->slot = sm_xmalloc(sizeof(int) * (size_t)P);
    int *seen = sm_xcalloc((size_t)(t->nnodes ? t->nnodes : 1), sizeof(int));
    int rc = 0;
    for (int p = 0; p < P; p++) {
        int node = t->procs[p].node;
        int slot = seen[node]++;
        l->rank_of_proc[p] = -1;
        if (!used[p]) continue;
        int r = l->nranks++;
        l->rank_of_proc[p] = r;
        l->proc_of_rank[r] = p;
        l->slot[r] = slot;
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
    free(seen);
    free(used);
    if (rc) sm_launch_free(l);
    return rc;
}

void sm_launch_free(sm_launch *l)
{
    if (l->host)
        for (int r = 0; r < l->nranks; r++) free(l->host[r]);
    free(l->host);
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
        if (f == SM_LAUNCH_RANKFILE) sm_strbuf_put(&b, "rank %d=%s slot=%d\n", r, l->host[r], l->slot[r]);
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
    sm_strbuf_put(&b, "# stencilmap block -> rank: line k+2 is block k's MPI rank (%d blocks, %d ranks)\n",
                  nblocks, l->nranks);
    for (int k = 0; k < nblocks; k++) sm_strbuf_put(&b, "%d\n", l->rank_of_proc[map[k]]);
    *len = b.n;
    return b.s;
}

static double speed(const sm_topo *t, int p)
{
    double tpc = sm_type_params(&t->types[t->procs[p].type])->time_per_cell;
    return tpc > 0 && isfinite(tpc) ? 1.0 / tpc : 0.0;
}

char *sm_tpwgts_text(const sm_topo *t, size_t *len)
{
    double total = 0;
    for (int p = 0; p < t->nprocs; p++) total += speed(t, p);
    sm_strbuf b;
    sm_strbuf_init(&b);
    /* Printed to 6 digits, the last takes the remainder so the fractions
     * sum to 1 as METIS checks them. */
    double sum = 0;
    for (int p = 0; p < t->nprocs; p++) {
        double w = total > 0 ? speed(t, p) / total : 1.0 / t->nprocs;
        if (p == t->nprocs - 1) w = 1.0 - sum;
        else w = floor(w * 1e6 + 0.5) / 1e6;
        if (w < 0) w = 0;
        sum += w;
        sm_strbuf_put(&b, "%d = %.6f\n", p, w);
    }
    *len = b.n;
    return b.s;
}

char *sm_scotch_target_text(const sm_topo *t, size_t *len)
{
    double lo = 0;
    for (int p = 0; p < t->nprocs; p++) {
        double s = speed(t, p);
        if (s > 0 && (lo == 0 || s < lo)) lo = s;
    }
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "cmpltw %d", t->nprocs);
    /* The slowest processor weighs 100: ratios to within 1%. */
    for (int p = 0; p < t->nprocs; p++) {
        double s = speed(t, p);
        long w = lo > 0 ? lround(100.0 * s / lo) : 100;
        if (w < 1) w = 1;
        if (w > 1000000000L) w = 1000000000L;
        sm_strbuf_put(&b, "%s%ld", p % 16 == 0 ? "\n" : " ", w);
    }
    sm_strbuf_put(&b, "\n");
    *len = b.n;
    return b.s;
}
