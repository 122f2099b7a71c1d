/* rank_figures_gather.c - per-rank figures to rank 0 (rank_figures_gather.h). */
#define _GNU_SOURCE
#include "rank_figures_gather.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/lib/util.h"

#define SMR_NAME 256
#define SMR_MAX_CPUS 1024

int smr_bound_cpus(int *cpus, int max)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set)) cpus[n++] = c;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 && n < online ? n : 0;
}

void smr_where(sm_run_rank *k)
{
    char host[SMR_NAME] = "";
    if (gethostname(host, sizeof host - 1) != 0 || !host[0]) snprintf(host, sizeof host, "unknown");
    k->host = sm_xstrdup(host);
    cpu_set_t set;
    CPU_ZERO(&set);
    k->cores = sm_xmalloc(sizeof(int) * SMR_MAX_CPUS);
    k->ncores = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && c < SMR_MAX_CPUS; c++)
            if (CPU_ISSET(c, &set)) k->cores[k->ncores++] = c;
    /* A GPU rank's device as the launcher gave it (the job script sets
     * one of these per rank). */
    const char *dev = getenv("CUDA_VISIBLE_DEVICES");
    if (!dev || !*dev) dev = getenv("ROCR_VISIBLE_DEVICES");
    k->device = dev && *dev ? sm_xstrdup(dev) : NULL;
}

/* One rank's fixed-size record for MPI_Gather. */
typedef struct wire {
    double f[10];       /* compute comm wait wall energy has_energy min median share wall_median */
    int64_t n[5];       /* bytes messages blocks cells threads */
    int ncores;
    int cores[SMR_MAX_CPUS];
    char processor[SMR_NAME], host[SMR_NAME], device[64];
    char counter[96], why[256];
} wire;

/* energy_source: the kinds of counter the ranks read ("rapl", "nvml",
 * "rapl+nvml") or "none"; energy_why: the first rank without energy and
 * why (NULL when every rank measured it). */
static void energy_summary(sm_run *run, const wire *all, int size)
{
    int rapl = 0, nvml = 0, missing = 0, first = -1;
    for (int r = 0; r < size; r++) {
        if (all[r].f[5] == 0) {
            if (first < 0) first = r;
            missing++;
            continue;
        }
        rapl |= strstr(all[r].counter, "rapl:") != NULL;
        nvml |= strstr(all[r].counter, "nvml:") != NULL;
    }
    run->energy_source = sm_xstrdup(rapl && nvml ? "rapl+nvml" : rapl ? "rapl" : nvml ? "nvml" : "none");
    if (!missing) return;
    char buf[SMR_NAME + 640];
    if (missing == size)
        snprintf(buf, sizeof buf, "%s", all[first].why[0] ? all[first].why : "no energy counter");
    else
        snprintf(buf, sizeof buf, "%d of %d ranks measured no energy; rank %d (%s): %s", missing, size, first,
                 all[first].processor, all[first].why[0] ? all[first].why : "no energy counter");
    run->energy_why = sm_xstrdup(buf);
}

void smr_gather(const smr_mine *me, MPI_Comm comm, sm_run *run)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    wire *w = sm_xcalloc(1, sizeof *w);
    sm_run_rank where;
    memset(&where, 0, sizeof where);
    smr_where(&where);
    w->f[0] = me->compute_s;
    w->f[1] = me->comm_s;
    w->f[2] = me->wait_s;
    w->f[3] = me->wall_s;
    w->f[4] = me->energy_j;
    w->f[5] = me->has_energy;
    w->f[6] = me->compute_min_s;
    w->f[7] = me->compute_median_s;
    w->f[8] = me->energy_share;
    w->f[9] = me->wall_median_s;
    snprintf(w->counter, sizeof w->counter, "%s", me->energy_counter ? me->energy_counter : "");
    snprintf(w->why, sizeof w->why, "%s", me->energy_why ? me->energy_why : "");
    w->n[0] = me->bytes;
    w->n[1] = me->messages;
    w->n[2] = me->blocks;
    w->n[3] = me->cells;
    w->n[4] = me->threads;
    w->ncores = where.ncores;
    memcpy(w->cores, where.cores, sizeof(int) * (size_t)where.ncores);
    snprintf(w->processor, sizeof w->processor, "%s", me->processor);
    snprintf(w->host, sizeof w->host, "%s", where.host);
    snprintf(w->device, sizeof w->device, "%s", where.device ? where.device : "");
    free(where.host);
    free(where.cores);
    free(where.device);
    wire *all = rank == 0 ? sm_xcalloc((size_t)size, sizeof *all) : NULL;
    MPI_Gather(w, (int)sizeof *w, MPI_BYTE, all, (int)sizeof *w, MPI_BYTE, 0, comm);
    free(w);
    if (rank != 0) return;
    run->nranks = size;
    run->ranks = sm_xcalloc((size_t)size, sizeof *run->ranks);
    for (int r = 0; r < size; r++) {
        sm_run_rank *k = &run->ranks[r];
        const wire *x = &all[r];
        k->rank = r;
        k->processor = sm_xstrdup(x->processor);
        k->host = sm_xstrdup(x->host);
        k->device = x->device[0] ? sm_xstrdup(x->device) : NULL;
        k->ncores = x->ncores;
        k->cores = sm_xmalloc(sizeof(int) * (size_t)(x->ncores ? x->ncores : 1));
        memcpy(k->cores, x->cores, sizeof(int) * (size_t)x->ncores);
        k->compute_s = x->f[0];
        k->comm_s = x->f[1];
        k->wait_s = x->f[2];
        k->wall_s = x->f[3];
        k->energy_j = x->f[4];
        k->has_energy = x->f[5] != 0;
        k->compute_min_s = x->f[6];
        k->compute_median_s = x->f[7];
        k->wall_median_s = x->f[9];
        k->bytes = x->n[0];
        k->messages = x->n[1];
        k->blocks = x->n[2];
        k->cells = x->n[3];
        k->threads = (int)x->n[4];
        if (k->has_energy) {
            k->energy_counter = sm_xstrdup(x->counter);
            k->energy_share = x->f[8];
        }
    }
    energy_summary(run, all, size);
    free(all);
}
