/* rank_bind.c - binding the ranks of a launch to their processors' places
 * (sm_launch_bind, rankfile.h). A processor's place (its package and
 * cores, or a GPU's device and host core) comes from `topo detect` and
 * `topo import -format hwloc` (issue 35); until a topology holds places,
 * no rank can be bound, and a rankfile is refused saying how to get them. */
#include "rankfile.h"

static const char how[] =
    "get places with `topo detect` (this machine) or `topo import -format hwloc FILE` (an lstopo XML of the "
    "nodes, e.g. lstopo --of xml FILE on one)";

int sm_launch_bind(const sm_topo *t, sm_launch *l, sm_err *e)
{
    int p = l->nranks ? l->proc_of_rank[0] : -1;
    sm_err_set_code(e, "RUN PLACE", "processor %s (rank 0) has no place, so its rank cannot be bound: %s",
                    p >= 0 ? t->procs[p].name : "(none)", how);
    return -1;
}
