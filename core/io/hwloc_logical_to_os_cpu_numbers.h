/* hwloc_logical_to_os_cpu_numbers.h - the OS CPU numbers a CPU processor's place runs on, on
 * this machine. A place (core/model/processor_place.h) names cores and PUs by
 * hwloc's logical indexes; sched_setaffinity wants OS numbers. libhwloc
 * maps each core of the place to its PUs' OS indexes, and `topo measure`
 * pins one thread per core to the first of those PUs (among the place's)
 * that this process may run on. libhwloc's own HWLOC_XMLFILE makes an
 * lstopo XML "this machine" (tests use it for fixture places). Without
 * libhwloc sm_this_machine_open fails and callers fall back to sysfs
 * packages (cpu_cores_per_package_for_pinning.h). No Tcl. */
#ifndef SM_HWLOC_LOGICAL_TO_OS_CPU_NUMBERS_H
#define SM_HWLOC_LOGICAL_TO_OS_CPU_NUMBERS_H

#include <stddef.h>
#include "core/model/processor_place.h"

typedef struct sm_this_machine sm_this_machine;

/* This machine as libhwloc sees it; NULL with why (no libhwloc, or the
 * discovery failed). */
sm_this_machine *sm_this_machine_open(char *why, size_t len);
void sm_this_machine_close(sm_this_machine *m);

/* The place's cores as OS CPU numbers (one per core, in the place's
 * order, *cpus malloc'd) and its package's OS index (-1 when its cores
 * span packages or lie in none). 0, or -1 with why in words: a core or
 * PU that is not on this machine, a core in another package than the
 * place says, a core none of whose PUs this process may run on. */
int sm_place_os_cpus(const sm_this_machine *m, const sm_place *pl, int **cpus, int *ncpus, int *package,
                     char *why, size_t len);

#endif
