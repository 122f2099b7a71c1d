/* cpu_cores_per_package_for_pinning.c - packages and cores from sysfs (cpu_cores_per_package_for_pinning.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include "cpu_cores_per_package_for_pinning.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_int(const char *root, int cpu, const char *what, int *v)
{
    char p[256];
    snprintf(p, sizeof p, "%s/devices/system/cpu/cpu%d/topology/%s", root, cpu, what);
    FILE *f = fopen(p, "r");
    if (!f) return -1;
    int ok = fscanf(f, "%d", v) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

int sm_cpu_allowed(int c)
{
    cpu_set_t set;
    if (c < 0 || c >= CPU_SETSIZE || sched_getaffinity(0, sizeof set, &set)) return 0;
    return CPU_ISSET(c, &set);
}

int sm_cpu_packages(const char *root, sm_cpu_package **out)
{
    if (!root) root = "/sys";
    *out = NULL;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set)) return 0;
    int n = 0;
    sm_cpu_package *pk = NULL;
    /* (package, core) pairs seen, to keep one CPU per core. */
    int *seen = NULL, nseen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set)) continue;
        int pid = 0, core = c;
        if (read_int(root, c, "physical_package_id", &pid)) pid = 0;
        if (read_int(root, c, "core_id", &core)) core = c;
        int dup = 0;
        for (int i = 0; i < nseen && !dup; i++) dup = seen[2 * i] == pid && seen[2 * i + 1] == core;
        if (dup) continue;
        int *s2 = realloc(seen, sizeof *seen * 2 * (size_t)(nseen + 1));
        if (!s2) break;
        seen = s2;
        seen[2 * nseen] = pid;
        seen[2 * nseen + 1] = core;
        nseen++;
        int k = 0;
        while (k < n && pk[k].id != pid) k++;
        if (k == n) {
            sm_cpu_package *p2 = realloc(pk, sizeof *pk * (size_t)(n + 1));
            if (!p2) break;
            pk = p2;
            pk[n++] = (sm_cpu_package){pid, 0, NULL};
        }
        int *c2 = realloc(pk[k].cpus, sizeof(int) * (size_t)(pk[k].ncores + 1));
        if (!c2) break;
        pk[k].cpus = c2;
        pk[k].cpus[pk[k].ncores++] = c;
    }
    free(seen);
    /* Ascending by id (few packages: insertion sort). */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && pk[j].id < pk[j - 1].id; j--) {
            sm_cpu_package t = pk[j];
            pk[j] = pk[j - 1];
            pk[j - 1] = t;
        }
    *out = pk;
    return n;
}

void sm_cpu_packages_free(sm_cpu_package *p, int n)
{
    for (int i = 0; i < n; i++) free(p[i].cpus);
    free(p);
}
