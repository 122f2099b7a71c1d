/* hwloc_description_to_topology.h - a topology from what a machine holds (packages or NUMA
 * nodes, GPUs), as hwloc reports it. The hardware description is neutral;
 * hwloc_description_to_topology.c turns it into a topology with parameters from a small table of
 * known processors (defaults otherwise), every estimate marked so users
 * know what to measure. hwloc_read_lstopo_xml_or_this_machine.h fills the description (libhwloc optional:
 * built with SM_HAVE_HWLOC). No Tcl here. */
#ifndef SM_HWLOC_DESCRIPTION_TO_TOPOLOGY_H
#define SM_HWLOC_DESCRIPTION_TO_TOPOLOGY_H

#include <cjson/cJSON.h>
#include "core/model/topology.h"
#include "core/lib/util.h"

typedef struct sm_hw_dev {
    int gpu;            /* 0: a CPU package or NUMA node, 1: a GPU */
    char *model;        /* CPUModel, GPUModel or the PCI device name */
    int cores;          /* CPU cores in it (0 for a GPU) */
    double memory;      /* bytes, 0 when unknown */
    sm_place *place;    /* where it sits (hwloc's logical indexes), or NULL */
} sm_hw_dev;

typedef struct sm_hw_machine {
    int ndev;
    sm_hw_dev *dev;
} sm_hw_machine;

/* Appends a device (no place yet) and returns it. */
sm_hw_dev *sm_hw_machine_add(sm_hw_machine *m, int gpu, const char *model, int cores,
                             double memory);
void sm_hw_machine_free(sm_hw_machine *m);

/* One node per machine, in order; nnodes > nmachines repeats them
 * cyclically (a cluster of identical nodes from one lstopo file). */
cJSON *sm_hw_topology_json(const sm_hw_machine *m, int nmachines, int nnodes,
                           sm_err *e);

/* The table entry a model name matches, or NULL (for tests and info). */
const char *sm_hw_known_type(const char *model, int gpu);

#endif
