/* topology_links_and_lookups.c - the in-memory topology (topology.h):
 * the link between two processors (per-cell time and energy, hops
 * folded in), processors and types looked up by name, where a type's
 * parameters came from, and freeing it. Reading and writing it as JSON:
 * core/io/topology_file.c. */
#include "topology.h"

#include <stdlib.h>
#include <string.h>

const char *sm_type_source(const sm_type *t, const char *key)
{
    const cJSON *v = t->source ? cJSON_GetObjectItemCaseSensitive(t->source, key) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

void sm_type_set_source(sm_type *t, const char *key, const char *src)
{
    if (!t->source) t->source = cJSON_CreateObject();
    cJSON_DeleteItemFromObjectCaseSensitive(t->source, key);
    if (src) cJSON_AddStringToObject(t->source, key, src);
}

void sm_topo_free(sm_topo *t)
{
    if (!t) return;
    for (int i = 0; i < t->ntypes; i++) {
        sm_type *T = &t->types[i];
        free(T->name);
        for (int k = 0; k < T->nstates; k++) free(T->state_names ? T->state_names[k] : NULL);
        free(T->state_names);
        free(T->states);
        free(T->profile);
        free(T->estimated);
        cJSON_Delete(T->source);
    }
    free(t->types);
    for (int i = 0; i < t->nprocs; i++) {
        free(t->procs[i].name);
        sm_place_free(t->procs[i].place);
    }
    free(t->procs);
    sm_net_free(t->net);
    for (int i = 0; i < t->nintra; i++) {
        free(t->intra[i].key);
        cJSON_Delete(t->intra[i].source);
    }
    free(t->intra);
    free(t->inter);
    free(t->intra_of);
    free(t);
}

int sm_topo_find_proc(const sm_topo *t, const char *name)
{
    for (int i = 0; i < t->nprocs; i++)
        if (strcmp(t->procs[i].name, name) == 0) return i;
    return -1;
}

int sm_topo_find_type(const sm_topo *t, const char *name)
{
    for (int i = 0; i < t->ntypes; i++)
        if (t->types[i].name && strcmp(t->types[i].name, name) == 0) return i;
    return -1;
}

void sm_topo_link(const sm_topo *t, int p, int q, double *tpc, double *epc)
{
    if (p == q) {
        *tpc = *epc = 0;
        return;
    }
    const sm_proc *a = &t->procs[p], *b = &t->procs[q];
    if (a->node == b->node) {
        const sm_link *l = &t->intra[t->intra_of[a->type * t->ntypes + b->type]].link;
        *tpc = l->time_per_cell;
        *epc = l->energy_per_cell;
        return;
    }
    int d = t->net->ops->distance(t->net, a->node, b->node);
    const sm_link *l;
    if (t->net->ops->per_hop) {
        l = &t->inter[0];
        /* HAEC: a second class, when given, prices the wireless hops. */
        if (t->net->ops == &sm_net_haec && t->ninter > 1) {
            int per = t->net->dims[1] * t->net->dims[2];
            if (a->node / per != b->node / per) l = &t->inter[1];
        }
        *tpc = l->time_per_cell * d;
        *epc = l->energy_per_cell * d;
    } else {
        l = &t->inter[d - 1];
        *tpc = l->time_per_cell;
        *epc = l->energy_per_cell;
    }
}
