/* rank_binding_to_processor_places.c - binding the ranks of a launch to their processors' places
 * (sm_launch_bind, rank_binding_to_processor_places.h): Open MPI rankfile slots "P:C0-C1" and GPU
 * device indexes. */
#include "rank_binding_to_processor_places.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/strbuf.h"
#include "core/model/processor_place.h"

static const char how[] =
    "get places with `topo detect` (this machine) or `topo import -format hwloc FILE` (an lstopo XML of the "
    "nodes, e.g. lstopo --of xml FILE on one)";

static int has_core(const sm_place *pl, int c)
{
    for (int i = 0; i < pl->ncores; i++)
        if (pl->cores[i] == c) return 1;
    return 0;
}

/* The lowest core of package pkg among node's CPU processors, or -1. */
static int package_first(const sm_topo *t, int node, int pkg)
{
    int first = -1;
    for (int p = 0; p < t->nprocs; p++) {
        const sm_place *pl = t->procs[p].place;
        if (t->procs[p].node != node || !pl || pl->kind != SM_PLACE_CPU || pl->package != pkg) continue;
        for (int i = 0; i < pl->ncores; i++)
            if (first < 0 || pl->cores[i] < first) first = pl->cores[i];
    }
    return first;
}

/* "P:a-b,c" for the given cores (ascending) of package pkg. */
static char *slot_text(int pkg, int first, const int *cores, int n)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "%d:", pkg);
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && cores[j + 1] == cores[j] + 1) j++;
        sm_strbuf_put(&b, "%s%d", i ? "," : "", cores[i] - first);
        if (j > i) sm_strbuf_put(&b, "-%d", cores[j] - first);
        i = j + 1;
    }
    return b.s;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Cores given to GPU ranks, per node. */
typedef struct taken {
    int n, *node, *core;
} taken;

static int is_taken(const taken *tk, int node, int core)
{
    for (int k = 0; k < tk->n; k++)
        if (tk->node[k] == node && tk->core[k] == core) return 1;
    return 0;
}

/* Every rank's processor has a place, a CPU's a package and cores, a
 * GPU's a host core; no node holds more ranks than it has cores. */
static int check_places(const sm_topo *t, const sm_launch *l, sm_err *e)
{
    for (int r = 0; r < l->nranks; r++) {
        int p = l->proc_of_rank[r];
        const sm_place *pl = t->procs[p].place;
        if (!pl) {
            sm_err_set_code(e, "RUN PLACE", "processor %s (rank %d) has no place, so its rank cannot be bound: %s",
                            t->procs[p].name, r, how);
            return -1;
        }
        if (pl->kind == SM_PLACE_CPU && (pl->ncores == 0 || pl->package < 0)) {
            sm_err_set_code(e, "RUN PLACE", "processor %s (rank %d): %s, which a rankfile slot cannot name: %s",
                            t->procs[p].name, r,
                            pl->ncores ? "its cores are in no package" : "its place has no cores", how);
            return -1;
        }
        if (pl->kind == SM_PLACE_GPU && pl->host_core < 0) {
            sm_err_set_code(e, "RUN PLACE", "GPU %s (rank %d) has no host core in its place: %s", t->procs[p].name,
                            r, how);
            return -1;
        }
    }
    int N = t->nnodes ? t->nnodes : 1;
    int *ranks_on = sm_xcalloc((size_t)N, sizeof(int));
    for (int r = 0; r < l->nranks; r++) ranks_on[t->procs[l->proc_of_rank[r]].node]++;
    int rc = 0;
    for (int n = 0; n < N && rc == 0; n++) {
        if (!ranks_on[n]) continue;
        int cap = 0, ncores = 0;
        for (int p = 0; p < t->nprocs; p++)
            if (t->procs[p].node == n && t->procs[p].place) cap += t->procs[p].place->ncores + 1;
        int *cores = sm_xmalloc(sizeof(int) * (size_t)(cap ? cap : 1));
        for (int p = 0; p < t->nprocs; p++) {
            const sm_place *pl = t->procs[p].place;
            if (t->procs[p].node != n || !pl) continue;
            if (pl->kind == SM_PLACE_CPU)
                for (int i = 0; i < pl->ncores; i++) cores[ncores++] = pl->cores[i];
            else if (pl->host_core >= 0)
                cores[ncores++] = pl->host_core;
        }
        qsort(cores, (size_t)ncores, sizeof(int), cmp_int);
        int distinct = 0;
        for (int i = 0; i < ncores; i++)
            if (i == 0 || cores[i] != cores[i - 1]) distinct++;
        free(cores);
        if (ranks_on[n] > distinct) {
            int r0 = 0;
            while (t->procs[l->proc_of_rank[r0]].node != n) r0++;
            sm_err_set_code(e, "RUN PLACE",
                            "node %d (%s) would hold %d ranks on %d cores: a rank a core at least; map fewer "
                            "processors of the node, or launch unbound and oversubscribed (run launch -bind off)",
                            n, l->host[r0], ranks_on[n], distinct);
            rc = -1;
        }
    }
    free(ranks_on);
    return rc;
}

/* A GPU rank: its host core, in the package of the CPU processor that
 * holds it; when another GPU rank of the node has that core already (GPUs
 * that share a host core), the next free core of the same package, so no
 * two GPU ranks share a core. */
static int bind_gpu(const sm_topo *t, sm_launch *l, int r, taken *tk, sm_err *e)
{
    int p = l->proc_of_rank[r], n = t->procs[p].node;
    const sm_place *pl = t->procs[p].place;
    int pkg = -1;
    for (int q = 0; q < t->nprocs && pkg < 0; q++) {
        const sm_place *c = t->procs[q].place;
        if (t->procs[q].node == n && c && c->kind == SM_PLACE_CPU && c->package >= 0 && has_core(c, pl->host_core))
            pkg = c->package;
    }
    if (pkg < 0) {
        sm_err_set_code(e, "RUN PLACE",
                        "GPU %s (rank %d): its host core %d is in no CPU processor's place on node %d, so its "
                        "package is unknown: import the node whole (%s)",
                        t->procs[p].name, r, pl->host_core, n, how);
        return -1;
    }
    int core = is_taken(tk, n, pl->host_core) ? -1 : pl->host_core;
    for (int q = 0; q < t->nprocs && core < 0; q++) {
        const sm_place *c = t->procs[q].place;
        if (t->procs[q].node != n || !c || c->kind != SM_PLACE_CPU || c->package != pkg) continue;
        for (int i = 0; i < c->ncores && core < 0; i++)
            if (!is_taken(tk, n, c->cores[i])) core = c->cores[i];
    }
    if (core < 0) {
        sm_err_set_code(e, "RUN PLACE",
                        "GPU %s (rank %d): every core of package %d on node %d drives another GPU rank already: "
                        "map fewer of its GPUs",
                        t->procs[p].name, r, pkg, n);
        return -1;
    }
    tk->node[tk->n] = n;
    tk->core[tk->n++] = core;
    free(l->slot[r]);
    l->slot[r] = slot_text(pkg, package_first(t, n, pkg), &core, 1);
    l->device[r] = pl->device;
    return 0;
}

/* A CPU rank: its cores, less those of the node's GPU ranks (they drive
 * their GPUs) while one is left. */
static void bind_cpu(const sm_topo *t, sm_launch *l, int r, const taken *tk)
{
    int p = l->proc_of_rank[r], n = t->procs[p].node;
    const sm_place *pl = t->procs[p].place;
    int *keep = sm_xmalloc(sizeof(int) * (size_t)pl->ncores);
    int nk = 0;
    for (int i = 0; i < pl->ncores; i++)
        if (!is_taken(tk, n, pl->cores[i])) keep[nk++] = pl->cores[i];
    int first = package_first(t, n, pl->package);
    free(l->slot[r]);
    l->slot[r] = nk ? slot_text(pl->package, first, keep, nk) : slot_text(pl->package, first, pl->cores, pl->ncores);
    free(keep);
}

int sm_launch_bind(const sm_topo *t, sm_launch *l, sm_err *e)
{
    if (check_places(t, l, e) != 0) return -1;
    taken tk = {0, sm_xmalloc(sizeof(int) * (size_t)(l->nranks + 1)), sm_xmalloc(sizeof(int) * (size_t)(l->nranks + 1))};
    int rc = 0;
    for (int r = 0; r < l->nranks && rc == 0; r++)
        if (t->procs[l->proc_of_rank[r]].place->kind == SM_PLACE_GPU) rc = bind_gpu(t, l, r, &tk, e);
    for (int r = 0; r < l->nranks && rc == 0; r++)
        if (t->procs[l->proc_of_rank[r]].place->kind == SM_PLACE_CPU) bind_cpu(t, l, r, &tk);
    free(tk.node);
    free(tk.core);
    return rc;
}
