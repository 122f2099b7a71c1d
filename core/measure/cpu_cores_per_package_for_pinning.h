/* cpu_cores_per_package_for_pinning.h - this machine's packages and cores as Linux shows them
 * (/sys/devices/system/cpu/cpuN/topology), restricted to the CPUs this
 * process may run on: which OS CPU numbers `topo measure` pins a
 * processor's threads to. One CPU per core (its first hardware thread). */
#ifndef SM_CPU_CORES_PER_PACKAGE_FOR_PINNING_H
#define SM_CPU_CORES_PER_PACKAGE_FOR_PINNING_H

typedef struct sm_cpu_package {
    int id;        /* physical_package_id */
    int ncores;
    int *cpus;     /* one OS CPU number per core, ascending */
} sm_cpu_package;

/* Packages ascending by id; returns their count (0: none readable, then
 * every allowed CPU counts as one package's cores). sysroot NULL: "/sys". */
int sm_cpu_packages(const char *sysroot, sm_cpu_package **out);
void sm_cpu_packages_free(sm_cpu_package *p, int n);
/* 1 when this process may run on OS CPU c. */
int sm_cpu_allowed(int c);

#endif
