/* topology_dvfs_states.c - the DVFS states of processor types (SPEC 2.2):
 * the state a type or a single processor runs in, and the parameters
 * (time and energy per cell, power) that state gives it. The states
 * themselves are read and written with the topology
 * (core/io/topology_file.c). */
#include "topology.h"

#include <string.h>

const sm_params *sm_type_params(const sm_type *t)
{
    return t->state >= 0 ? &t->states[t->state] : &t->base;
}

int sm_topo_proc_state(const sm_topo *t, int p)
{
    const sm_type *T = &t->types[t->procs[p].type];
    int s = t->procs[p].state != -1 ? t->procs[p].state : T->state;
    return s >= 0 && s < T->nstates ? s : SM_STATE_BASE;
}

const sm_params *sm_topo_proc_params(const sm_topo *t, int p)
{
    const sm_type *T = &t->types[t->procs[p].type];
    int s = sm_topo_proc_state(t, p);
    return s >= 0 ? &T->states[s] : &T->base;
}

const char *sm_topo_proc_state_name(const sm_topo *t, int p)
{
    const sm_type *T = &t->types[t->procs[p].type];
    int s = sm_topo_proc_state(t, p);
    return s >= 0 ? T->state_names[s] : "base";
}

void sm_topo_set_proc_state(sm_topo *t, int p, int state)
{
    t->procs[p].state = state;
}

int sm_topo_set_state(sm_topo *t, int type, const char *state)
{
    sm_type *T = &t->types[type];
    if (state) {
        int k = 0;
        while (k < T->nstates && strcmp(T->state_names[k], state) != 0) k++;
        if (k == T->nstates) return -1;
    }
    for (int p = 0; p < t->nprocs; p++)
        if (t->procs[p].type == type) t->procs[p].state = -1;
    if (!state) {
        T->state = -1;
        return 0;
    }
    for (int k = 0; k < T->nstates; k++)
        if (strcmp(T->state_names[k], state) == 0) {
            T->state = k;
            return 0;
        }
    return -1;
}
