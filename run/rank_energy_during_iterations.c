/* rank_energy_during_iterations.c - RAPL and NVML read around a run (rank_energy_during_iterations.h). */
#define _GNU_SOURCE
#include "rank_energy_during_iterations.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/lib/util.h"

/* Linux's package of logical CPU c, or -1. */
static int cpu_package(int c)
{
    char path[128], buf[32];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    int p = -1;
    if (fgets(buf, sizeof buf, f)) p = atoi(buf);
    fclose(f);
    return p;
}

/* The one package every CPU this process may run on sits in; its CPU
 * count in *n. -1 when they span several or Linux does not say. */
static int bound_package(int *n)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    *n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int pkg = -2;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set)) continue;
        int p = cpu_package(c);
        if (p < 0 || (pkg != -2 && p != pkg)) return -1;
        pkg = p;
        (*n)++;
    }
    return pkg >= 0 ? pkg : -1;
}

/* The package of core `core` on node `node`: the CPU place holding it. */
static int core_package(const sm_topo *t, int node, int core)
{
    for (int q = 0; q < t->nprocs; q++) {
        const sm_place *pl = t->procs[q].place;
        if (t->procs[q].node != node || !pl || pl->kind != SM_PLACE_CPU || pl->package < 0) continue;
        for (int i = 0; i < pl->ncores; i++)
            if (pl->cores[i] == core) return pl->package;
    }
    return -1;
}

static void where_am_i(smr_energy *en, const sm_topo *t, int proc)
{
    smr_energy_where *w = &en->where;
    if (gethostname(w->host, sizeof w->host - 1) != 0 || !w->host[0]) snprintf(w->host, sizeof w->host, "unknown");
    w->package = w->device = -1;
    w->weight = 1;
    const sm_proc *p = &t->procs[proc];
    const sm_place *pl = p->place;
    if (pl && pl->kind == SM_PLACE_GPU) {
        w->device = pl->device;
        if (pl->host_core >= 0) w->package = core_package(t, p->node, pl->host_core);
        if (w->device < 0)
            snprintf(en->why, sizeof en->why, "GPU processor %s: its place has no device index", p->name);
        return;
    }
    if (pl && pl->kind == SM_PLACE_CPU && pl->package >= 0) {
        w->package = pl->package;
        w->weight = pl->ncores > 0 ? pl->ncores : 1;
        return;
    }
    int n;
    w->package = bound_package(&n);
    w->weight = n > 0 ? n : 1;
    if (w->package < 0)
        snprintf(en->why, sizeof en->why,
                 "processor %s: no place naming its package (topo detect or topo import -format hwloc give "
                 "places) and its rank may run on CPUs of several packages",
                 p->name);
}

void smr_energy_begin(smr_energy *en, const sm_topo *t, int proc, const char *root, MPI_Comm comm)
{
    memset(en, 0, sizeof *en);
    en->reader = -1;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    where_am_i(en, t, proc);
    smr_energy_where *all = sm_xcalloc((size_t)size, sizeof *all);
    MPI_Allgather(&en->where, (int)sizeof en->where, MPI_BYTE, all, (int)sizeof en->where, MPI_BYTE, comm);
    int *reader = sm_xmalloc(sizeof(int) * (size_t)size);
    double *share = sm_xmalloc(sizeof(double) * (size_t)size);
    smr_energy_plan(size, all, reader, share);
    en->reader = reader[rank];
    en->share = share[rank];
    free(all);
    free(reader);
    free(share);

    /* My counters: the package when I read it, the device when I have one. */
    if (en->reader == rank) {
        en->pc = sm_powercap_open(root, en->why, sizeof en->why);
        if (en->pc && sm_powercap_package(en->pc, en->where.package) < 0) {
            snprintf(en->why, sizeof en->why, "%s has no RAPL zone for package %d",
                     root ? root : sm_powercap_root(), en->where.package);
            sm_powercap_close(en->pc);
            en->pc = NULL;
        }
        if (en->pc && !sm_powercap_readable(en->pc, en->where.package, en->why, sizeof en->why)) {
            sm_powercap_close(en->pc);
            en->pc = NULL;
        }
        en->ok = en->pc != NULL;
    }
    if (en->where.device >= 0) {
        en->nv = sm_nvml_open(en->dev_why, sizeof en->dev_why);
        if (en->nv && sm_nvml_energy_mj(en->nv, en->where.device, &en->mj0, en->dev_why, sizeof en->dev_why) != 0) {
            sm_nvml_close(en->nv);
            en->nv = NULL;
        }
    }
    /* The first reading, right before the loop starts. */
    MPI_Barrier(comm);
    if (en->pc) {
        char w[256];
        if (sm_powercap_sample(en->pc, w, sizeof w) != 0) snprintf(en->why, sizeof en->why, "%s", w), en->ok = 0;
        sm_powercap_reset(en->pc);
    }
    if (en->nv && sm_nvml_energy_mj(en->nv, en->where.device, &en->mj0, en->dev_why, sizeof en->dev_why) != 0) {
        sm_nvml_close(en->nv);
        en->nv = NULL;
    }
    en->last = MPI_Wtime();
}

void smr_energy_tick(smr_energy *en, double now)
{
    if (!en->pc || now - en->last < 0.25) return;
    char w[256];
    if (sm_powercap_sample(en->pc, w, sizeof w) != 0 && en->ok) {
        snprintf(en->why, sizeof en->why, "%s", w);
        en->ok = 0;
    }
    en->last = now;
}

/* What a reader tells the ranks on its package. */
typedef struct pkg_reading {
    int ok;
    double joules;
    char why[256];
} pkg_reading;

void smr_energy_end(smr_energy *en, MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Barrier(comm); /* every rank on a package has finished */
    pkg_reading mine;
    memset(&mine, 0, sizeof mine);
    if (en->pc) {
        char w[256];
        if (sm_powercap_sample(en->pc, w, sizeof w) != 0 && en->ok) snprintf(en->why, sizeof en->why, "%s", w), en->ok = 0;
        mine.ok = en->ok;
        mine.joules = sm_powercap_joules(en->pc, en->where.package, 1);
    }
    snprintf(mine.why, sizeof mine.why, "%s", en->why);
    pkg_reading *all = sm_xcalloc((size_t)size, sizeof *all);
    MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, comm);

    double j = 0;
    int has = 1;
    char cnt[96] = "";
    if (en->where.package >= 0 && en->reader >= 0) {
        const pkg_reading *r = &all[en->reader];
        if (r->ok) {
            j += r->joules * en->share;
            snprintf(cnt, sizeof cnt, "rapl:package-%d", en->where.package);
        } else {
            has = 0;
            if (en->reader != rank) snprintf(en->why, sizeof en->why, "%s", r->why);
        }
    } else if (en->where.device < 0) {
        has = 0;
    }
    if (has && en->where.device >= 0) {
        uint64_t mj1;
        if (en->nv && sm_nvml_energy_mj(en->nv, en->where.device, &mj1, en->dev_why, sizeof en->dev_why) == 0) {
            j += (double)(mj1 - en->mj0) * 1e-3;
            size_t n = strlen(cnt);
            snprintf(cnt + n, sizeof cnt - n, "%snvml:%d", n ? "+" : "", en->where.device);
        } else {
            has = 0;
            snprintf(en->why, sizeof en->why, "GPU %d: %.200s", en->where.device, en->dev_why);
        }
    }
    free(all);
    en->has = has;
    en->joules = has ? j : 0;
    snprintf(en->counter, sizeof en->counter, "%s", has ? cnt : "");
    if (has) en->why[0] = '\0';
    else if (!en->why[0]) snprintf(en->why, sizeof en->why, "no energy counter for this rank");
}

void smr_energy_free(smr_energy *en)
{
    if (en->pc) sm_powercap_close(en->pc);
    if (en->nv) sm_nvml_close(en->nv);
    en->pc = NULL;
    en->nv = NULL;
}
