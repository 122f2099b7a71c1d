/* hwloc_logical_to_os_cpu_numbers.c - hwloc logical indexes to OS CPU numbers (hwloc_logical_to_os_cpu_numbers.h). */
#include "hwloc_logical_to_os_cpu_numbers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/measure/cpu_cores_per_package_for_pinning.h"

#ifndef SM_HAVE_HWLOC

sm_this_machine *sm_this_machine_open(char *why, size_t len)
{
    snprintf(why, len, "built without libhwloc: a place's hwloc indexes cannot be mapped to OS CPUs");
    return NULL;
}

void sm_this_machine_close(sm_this_machine *m) { (void)m; }

int sm_place_os_cpus(const sm_this_machine *m, const sm_place *pl, int **cpus, int *ncpus, int *package,
                     char *why, size_t len)
{
    (void)m, (void)pl, (void)cpus, (void)ncpus, (void)package;
    snprintf(why, len, "built without libhwloc");
    return -1;
}

#else

#include <hwloc.h>

struct sm_this_machine {
    hwloc_topology_t t;
    int core_type;        /* HWLOC_OBJ_CORE, or HWLOC_OBJ_PU on a machine without Core objects */
    int ncores;
};

sm_this_machine *sm_this_machine_open(char *why, size_t len)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) < 0) {
        snprintf(why, len, "hwloc: cannot initialise");
        return NULL;
    }
    /* CPUs only: no PCI enumeration (libpciaccess leaks, and is slow). */
    hwloc_topology_set_components(t, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
    if (hwloc_topology_load(t) < 0) {
        snprintf(why, len, "hwloc: cannot discover this machine");
        hwloc_topology_destroy(t);
        return NULL;
    }
    sm_this_machine *m = calloc(1, sizeof *m);
    if (!m) {
        hwloc_topology_destroy(t);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    m->t = t;
    m->core_type = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    m->ncores = hwloc_get_nbobjs_by_type(t, (hwloc_obj_type_t)m->core_type);
    return m;
}

void sm_this_machine_close(sm_this_machine *m)
{
    if (!m) return;
    hwloc_topology_destroy(m->t);
    free(m);
}

static int in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return 1;
    return 0;
}

int sm_place_os_cpus(const sm_this_machine *m, const sm_place *pl, int **cpus, int *ncpus, int *package,
                     char *why, size_t len)
{
    *cpus = NULL;
    *ncpus = 0;
    *package = -1;
    if (!pl || pl->kind != SM_PLACE_CPU || pl->ncores < 1)
        return snprintf(why, len, "its place names no CPU cores"), -1;
    const char *what = m->core_type == HWLOC_OBJ_CORE ? "core" : "PU";
    int *out = malloc(sizeof(int) * (size_t)pl->ncores);
    if (!out) return snprintf(why, len, "out of memory"), -1;
    int pkg_os = -2;
    for (int i = 0; i < pl->ncores; i++) {
        int c = pl->cores[i];
        hwloc_obj_t core = hwloc_get_obj_by_type(m->t, (hwloc_obj_type_t)m->core_type, (unsigned)c);
        if (!core) {
            snprintf(why, len, "its place's %s L#%d is not on this machine (it has %d %s%s): the topology "
                     "was not detected here", what, c, m->ncores, what, m->ncores == 1 ? "" : "s");
            free(out);
            return -1;
        }
        hwloc_obj_t pk = hwloc_get_ancestor_obj_by_type(m->t, HWLOC_OBJ_PACKAGE, core);
        int pk_log = pk ? (int)pk->logical_index : -1;
        if (pl->package >= 0 && pk_log != pl->package) {
            snprintf(why, len, "its place puts %s L#%d in package L#%d; on this machine it is in %s L#%d: the "
                     "topology was not detected here", what, c, pl->package, pk ? "package" : "no package",
                     pk_log);
            free(out);
            return -1;
        }
        int os = pk ? (int)pk->os_index : -1;
        pkg_os = pkg_os == -2 ? os : pkg_os == os ? os : -1;
        /* The core's PUs (of the place, when it lists them), in hwloc's
         * order: the first this process may run on. */
        int chosen = -1, seen = 0;
        char tried[160] = "";
        size_t tl = 0;
        int npu = hwloc_get_nbobjs_inside_cpuset_by_type(m->t, core->cpuset, HWLOC_OBJ_PU);
        for (int k = 0; k < npu && chosen < 0; k++) {
            hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(m->t, core->cpuset, HWLOC_OBJ_PU, (unsigned)k);
            if (!pu || (pl->npus > 0 && !in_list(pl->pus, pl->npus, (int)pu->logical_index))) continue;
            seen++;
            if (sm_cpu_allowed((int)pu->os_index)) chosen = (int)pu->os_index;
            else if (tl < sizeof tried - 16)
                tl += (size_t)snprintf(tried + tl, sizeof tried - tl, "%s%u", tl ? "," : "", pu->os_index);
        }
        if (chosen < 0) {
            if (!seen)
                snprintf(why, len, "its place lists none of the PUs that %s L#%d holds on this machine: the "
                         "topology was not detected here", what, c);
            else
                snprintf(why, len, "%s L#%d runs on OS CPU %s, which this process may not run on (its CPU "
                         "affinity: taskset, cgroup or Slurm allocation)", what, c, tried);
            free(out);
            return -1;
        }
        out[i] = chosen;
    }
    *cpus = out;
    *ncpus = pl->ncores;
    *package = pkg_os < 0 ? -1 : pkg_os;
    return 0;
}

#endif
