/* rankfile.h - from a mapping to an MPI launch: one rank per processor
 * that holds blocks (in processor order), its host from the node, and the
 * block -> rank list the stencil code reads to know its blocks. */
#ifndef SM_RANKFILE_H
#define SM_RANKFILE_H

#include <stddef.h>
#include "core/lib/util.h"
#include "core/model/topology.h"

typedef enum {
    SM_LAUNCH_RANKFILE,  /* Open MPI: "rank R=HOST slot=S" */
    SM_LAUNCH_HOSTFILE   /* Slurm (SLURM_HOSTFILE, -m arbitrary) / MPICH: a host a rank */
} sm_launch_format;

typedef struct sm_launch {
    int nranks;
    int *rank_of_proc;   /* nprocs entries, -1 for a processor with no block */
    int *proc_of_rank;   /* nranks entries */
    char **host;         /* nranks host names */
    char **slot;         /* nranks Open MPI slots "P:C0-C1" (sm_launch_bind), or NULL */
    int *device;         /* nranks: a GPU rank's device index, -1 for a CPU rank */
} sm_launch;

/* Host of node k: hosts[k] when given (nhosts must cover every node that
 * holds a block), else the part of its first processor's name before the
 * first '.' when every processor of the node shares it ("n00.p9_0" ->
 * "n00"), else "node<k>". -1 with e when hosts are too few or a name is
 * not a host name. */
int sm_launch_plan(const sm_topo *t, const int *map, int nblocks, char *const *hosts,
                   int nhosts, sm_launch *l, sm_err *e);
void sm_launch_free(sm_launch *l);
/* The launch file's text (a rankfile needs sm_launch_bind first); caller
 * frees. */
char *sm_launch_text(const sm_launch *l, sm_launch_format f, size_t *len);
/* The block -> rank list: one rank a line, in block order, after a '#'
 * comment line that says so (and, when bound, each GPU rank's device:
 * "devices: R=D ..."). Caller frees. */
char *sm_launch_blocks_text(const sm_launch *l, const int *map, int nblocks, size_t *len);

#endif
