/* processor_place.h - where a processor sits in its node (SPEC 8), as hwloc numbers
 * it (logical indexes): a CPU processor's package, cores and PUs; a GPU's
 * device number, PCI bus id and the core a rank driving it binds to.
 * topo detect / topo import -format hwloc fill it; rankfiles and
 * topo measure read it. No Tcl here. */
#ifndef SM_PROCESSOR_PLACE_H
#define SM_PROCESSOR_PLACE_H

#include <cjson/cJSON.h>
#include "core/lib/util.h"

typedef enum sm_place_kind { SM_PLACE_CPU = 1, SM_PLACE_GPU = 2 } sm_place_kind;

typedef struct sm_place {
    sm_place_kind kind;
    /* CPU */
    int package;          /* package logical index; -1: cores in no package */
    int ncores;
    int *cores;           /* core logical indexes, ascending; on a machine
                             without Core objects its PUs (they are its cores) */
    int npus;
    int *pus;             /* PU logical indexes, ascending */
    /* GPU */
    int device;           /* the runtime's device number (cudaN, rsmiN, ...):
                             what CUDA_/ROCR_VISIBLE_DEVICES take */
    char *pci;            /* PCI bus id "dddd:bb:dd.f", or NULL */
    int host_core;        /* core logical index a rank driving it binds to, or -1 */
} sm_place;

/* At most this many cores or PUs in one place. */
#define SM_PLACE_MAX_CPUS 65536

/* JSON: {"package": P, "cores": [...], "pus": [...]} ("package" absent
 * for cores in no package) or {"device": D, "pci": "...", "host_core": C}
 * ("pci", "host_core" optional). Strict: errors name path. */
sm_place *sm_place_from_json(const cJSON *o, const char *path, sm_err *e);
cJSON *sm_place_to_json(const sm_place *p);
sm_place *sm_place_clone(const sm_place *p);
void sm_place_free(sm_place *p);
/* A CPU place of n cores (and m PUs), arrays copied; the same for a GPU. */
sm_place *sm_place_new_cpu(int package, const int *cores, int ncores, const int *pus,
                           int npus);
sm_place *sm_place_new_gpu(int device, const char *pci, int host_core);
/* "0000:3b:00.0": 1 when s is a PCI bus id as hwloc writes it. */
int sm_place_pci_valid(const char *s);

#endif
