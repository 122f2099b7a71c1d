/* topology.h - processors, their types, intra-node links and the network
 * (SPEC 2.2). */
#ifndef SM_TOPOLOGY_H
#define SM_TOPOLOGY_H

#include <cjson/cJSON.h>
#include "core/net/net.h"
#include "core/model/processor_place.h"
#include "core/lib/util.h"

/* A type's parameters, direct or roofline; the derived per-cell figures
 * are always filled in. */
typedef struct sm_params {
    double time_per_cell, energy_per_cell; /* derived when roofline */
    double p0, p_idle;
    double memory, bytes_per_cell;         /* 0 = not given */
    int roofline;
    double flops, bandwidth, flops_per_cell, energy_per_flop,
        energy_per_byte;
} sm_params;

typedef struct sm_profile_pt {
    int blocks;
    double time, energy;
} sm_profile_pt;

/* A profile point's figures are at most these (a billion seconds, a
 * petajoule): finite, and every total made from them stays finite. */
#define SM_PROFILE_MAX_TIME 1e9
#define SM_PROFILE_MAX_ENERGY 1e15

typedef struct sm_type {
    char *name;
    sm_params base;      /* as given at the top level of the type */
    int nstates;
    char **state_names;
    sm_params *states;
    int state;           /* selected DVFS state, or -1 */
    int nprofile;
    sm_profile_pt *profile;
    char *estimated;     /* which parameters are guesses (hwloc), or NULL */
    cJSON *source;       /* {"KEY": "measured"|"fitted"|"estimated"|"published"}
                            per parameter (SPEC 8), or NULL */
} sm_type;

typedef struct sm_proc {
    char *name;
    int type;
    int node;
    int state;           /* DVFS state of this processor alone (index into its
                            type's states, SM_STATE_BASE), or -1: its type's */
    sm_place *place;     /* where it sits in its node (hwloc), or NULL */
} sm_proc;

typedef struct sm_link {
    double time_per_cell, energy_per_cell;
} sm_link;

typedef struct sm_intra {
    char *key;          /* "cpu-gpu" or "*" */
    sm_link link;
    cJSON *source;      /* {"time_per_cell"|"energy_per_cell": "measured"|...}
                           (topo measure links -apply), or NULL */
} sm_intra;

typedef struct sm_topo {
    int ntypes;
    sm_type *types;
    int nprocs;
    sm_proc *procs;
    int nnodes;         /* highest node index + 1 */
    sm_net *net;
    int nintra;
    sm_intra *intra;
    int ninter;
    sm_link *inter;
    /* Resolved: intra class for each type pair, ntypes x ntypes (-1 none). */
    int *intra_of;
} sm_topo;

#define SM_MAX_PROCS 65536
#define SM_MAX_TYPES 256

/* Where a type's parameter KEY (a parameter key or "profile") came from:
 * "measured", "fitted", "estimated", "published", or NULL when unsaid. */
const char *sm_type_source(const sm_type *t, const char *key);
/* Says it (src NULL removes it). */
void sm_type_set_source(sm_type *t, const char *key, const char *src);

/* The parameters in force for a type (its selected state, else base). */
const sm_params *sm_type_params(const sm_type *t);
/* The parameters in force for processor p: its own DVFS state when a
 * solver chose one (tabu -dvfs, ilp -dvfs), else its type's. */
const sm_params *sm_topo_proc_params(const sm_topo *t, int p);
/* A processor's own state that is the type's base parameters. */
#define SM_STATE_BASE (-2)
/* The state processor p runs in: an index into its type's states, or
 * SM_STATE_BASE. */
int sm_topo_proc_state(const sm_topo *t, int p);
/* Name of the state processor p runs in ("base" when none is selected). */
const char *sm_topo_proc_state_name(const sm_topo *t, int p);

/* Reading and writing it as JSON (and a copy): core/io/topology_file.h. */
void sm_topo_free(sm_topo *t);

int sm_topo_find_proc(const sm_topo *t, const char *name);
int sm_topo_find_type(const sm_topo *t, const char *name);
/* Select a DVFS state of a type (for all its processors: their own
 * states are cleared); -1 if the type has no such state. */
int sm_topo_set_state(sm_topo *t, int type, const char *state);
/* Select processor p's own state by index into its type's states,
 * SM_STATE_BASE, or -1: follow the type again. */
void sm_topo_set_proc_state(sm_topo *t, int p, int state);

/* Link between two processors: per-cell time and energy, hops folded in.
 * Same processor gives zeros. */
void sm_topo_link(const sm_topo *t, int p, int q, double *tpc, double *epc);

#endif
