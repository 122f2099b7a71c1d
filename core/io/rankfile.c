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

static double speed(const sm_topo *t, int p)
{
    double tpc = sm_topo_proc_params(t, p)->time_per_cell;
    return tpc > 0 && isfinite(tpc) ? 1.0 / tpc : 0.0;
}

/* Weights in units of 1e-9, shared out by largest remainder (Hamilton):
 * every processor gets the floor of its quota and the units left over (fewer
 * than the processors) go one each to the largest remainders. Each weight is
 * then within one unit of its exact share and the printed weights sum to
 * exactly 1, with no processor absorbing the others' rounding (summit-full's
 * 36,864 processors lost 4.7e-3 to 6-digit rounding, all of it on the last
 * V100). A processor with any speed keeps at least one unit: gpmetis refuses
 * a zero target weight. */
#define SM_TPW_UNITS 1000000000LL

typedef struct { double rem; int p; } tpw_rem;

static int rem_desc(const void *a, const void *b)
{
    const tpw_rem *x = a, *y = b;
    if (x->rem != y->rem) return x->rem > y->rem ? -1 : 1;
    return x->p - y->p;
}

long long *sm_tpwgts_units(const sm_topo *t)
{
    int P = t->nprocs;
    long long *u = sm_xcalloc((size_t)(P ? P : 1), sizeof *u);
    if (P == 0) return u;
    double total = 0;
    for (int p = 0; p < P; p++) total += speed(t, p);
    tpw_rem *r = sm_xmalloc(sizeof *r * (size_t)P);
    long long given = 0;
    for (int p = 0; p < P; p++) {
        double q = total > 0 ? (double)SM_TPW_UNITS * (speed(t, p) / total) : (double)SM_TPW_UNITS / P;
        double f = floor(q);
        u[p] = (long long)f;
        if (u[p] == 0 && q > 0) { u[p] = 1; f = 1; }
        r[p].rem = q - f;
        r[p].p = p;
        given += u[p];
    }
    long long left = SM_TPW_UNITS - given;
    qsort(r, (size_t)P, sizeof *r, rem_desc);
    /* left < P; it is negative only when the one-unit floors overshot, then
     * the smallest remainders give a unit back (never below one). */
    for (int k = 0; left > 0 && k < P; k++, left--) u[r[k].p]++;
    for (int k = P - 1; left < 0 && k >= 0; k--)
        if (u[r[k].p] > 1) { u[r[k].p]--; left++; }
    free(r);
    return u;
}

char *sm_tpwgts_text(const sm_topo *t, size_t *len)
{
    long long *u = sm_tpwgts_units(t);
    sm_strbuf b;
    sm_strbuf_init(&b);
    for (int p = 0; p < t->nprocs; p++)
        sm_strbuf_put(&b, "%d = %lld.%09lld\n", p, u[p] / SM_TPW_UNITS, u[p] % SM_TPW_UNITS);
    if (!b.s) sm_strbuf_put(&b, "%s", "");
    free(u);
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
