/* cost_from_scratch.c - SPEC 3 evaluated from scratch with plain loops and a sorted
 * pair list, sharing nothing with the incremental state but the schedule
 * builder; the tests hold the incremental model against it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cost_incremental.h"
#include "core/lib/util.h"

typedef struct { int p, q; int64_t k; } msg;

static int cmp_msg(const void *a, const void *b)
{
    const msg *x = a, *y = b;
    if (x->p != y->p) return x->p - y->p;
    return x->q - y->q;
}

/* Collapse sorted messages into pairs; weight k or 1 per message. */
static sm_pairmu *collapse(const msg *m, int n, int unit, int *np)
{
    sm_pairmu *v = sm_xmalloc(sizeof(sm_pairmu) * (size_t)(n + 1));
    int k = 0;
    for (int i = 0; i < n; i++) {
        int64_t w = unit ? 1 : m[i].k;
        if (k > 0 && v[k - 1].p == m[i].p && v[k - 1].q == m[i].q) v[k - 1].mu += w;
        else v[k++] = (sm_pairmu){m[i].p, m[i].q, w};
    }
    *np = k;
    return v;
}

static int64_t rounds_of(const sm_pairmu *v, int n, int P, sm_rounds_model r,
                         int64_t *lower)
{
    int64_t D = sm_multigraph_maxdeg(v, n, P);
    switch (r) {
    case SM_ROUNDS_MAXDEG: *lower = D; return D;
    case SM_ROUNDS_VIZING: *lower = D; return D + sm_multigraph_maxmu(v, n);
    case SM_ROUNDS_COLOURING: return sm_schedule_build(v, n, P, NULL, lower);
    }
    return D;
}

/* A profile read point by point, on its own (not processor_time_energy.c): returns 1
 * beyond the largest size. */
static int profile_ref(const sm_type *ty, int64_t b, double *t, double *en)
{
    double pb = 0, pt = 0, pe = 0;
    *t = *en = 0;
    if (b == 0) return 0;
    for (int k = 0; k < ty->nprofile; k++) {
        const sm_profile_pt *q = &ty->profile[k];
        if (q->blocks >= b) {
            double f = (double)(b - pb) / (double)(q->blocks - pb);
            *t = pt + f * (q->time - pt);
            *en = pe + f * (q->energy - pe);
            return 0;
        }
        pb = q->blocks;
        pt = q->time;
        pe = q->energy;
    }
    if (pb > 0) {
        *t = pt * (double)b / pb;
        *en = pe * (double)b / pb;
    }
    return 1;
}

void sm_eval_reference(const sm_grid *g, const sm_topo *t, const sm_model *m,
                       const int *map, sm_eval *o)
{
    memset(o, 0, sizeof *o);
    int P = t->nprocs;
    double *comp = sm_xcalloc((size_t)P, sizeof(double));
    int64_t *cells = sm_xcalloc((size_t)P, sizeof(int64_t));
    int *used = sm_xcalloc((size_t)P, sizeof(int));
    int64_t *blocks = sm_xcalloc((size_t)P, sizeof(int64_t));
    for (int u = 0; u < g->ntasks; u++) {
        cells[map[u]] += g->task_cells[u];
        blocks[map[u]]++;
        used[map[u]] = 1;
    }
    double cmax = 0;
    int memory_ok = 1;
    for (int p = 0; p < P; p++) {
        const sm_params *pa = sm_topo_proc_params(t, p);
        const sm_type *ty = &t->types[t->procs[p].type];
        double dyn = pa->energy_per_cell * (double)cells[p];
        comp[p] = pa->time_per_cell * (double)cells[p];
        if (ty->nprofile && profile_ref(ty, blocks[p], &comp[p], &dyn))
            memory_ok = 0;
        if (comp[p] > cmax) cmax = comp[p];
        o->energy_dynamic += dyn;
        o->energy_static += pa->p0 * comp[p];
        o->procs_used += used[p];
        if (pa->memory > 0 && (double)cells[p] * pa->bytes_per_cell > pa->memory)
            memory_ok = 0;
    }
    msg *ms = sm_xmalloc(sizeof(msg) * (size_t)(g->nedges + 1));
    int nm = 0;
    for (int e = 0; e < g->nedges; e++) {
        int ps = map[g->edges[e].src], pd = map[g->edges[e].dst];
        if (ps == pd) continue;
        double tpc, epc;
        sm_topo_link(t, ps, pd, &tpc, &epc);
        double cellsd = (double)g->edges[e].cells;
        int64_t k = sm_quanta(cellsd * tpc, m->round_time);
        int intra = t->procs[ps].node == t->procs[pd].node;
        o->messages++;
        o->edges += k;
        if (intra) { o->edges_intra += k; o->energy_comm_intra += cellsd * epc; }
        else { o->edges_inter += k; o->energy_comm_inter += cellsd * epc; }
        ms[nm++] = (msg){ps < pd ? ps : pd, ps < pd ? pd : ps, k};
    }
    qsort(ms, (size_t)nm, sizeof(msg), cmp_msg);
    int n1, nk;
    sm_pairmu *vk = collapse(ms, nm, 0, &nk), *v1 = collapse(ms, nm, 1, &n1);
    o->rounds = rounds_of(vk, nk, P, m->rounds, &o->rounds_lower);
    o->message_rounds = rounds_of(v1, n1, P, m->rounds, &o->message_rounds_lower);
    free(vk);
    free(v1);
    free(ms);
    o->comp_time = cmax;
    o->comm_time = (double)o->rounds * m->round_time;
    o->time = m->overlap ? fmax(cmax, o->comm_time) : cmax + o->comm_time;
    for (int p = 0; p < P; p++) {
        if (!used[p] && !m->unused_idle) continue;
        const sm_params *pa = sm_topo_proc_params(t, p);
        o->energy_idle += pa->p_idle * (o->time - comp[p]);
    }
    o->energy_comm = o->energy_comm_intra + o->energy_comm_inter;
    o->energy = o->energy_dynamic + o->energy_static + o->energy_idle +
                o->energy_comm;
    o->memory_ok = memory_ok;
    o->feasible = memory_ok && sm_eval_finite(o) &&
                  (!m->has_deadline || o->time <= m->deadline * (1 + 1e-9));
    free(comp);
    free(cells);
    free(used);
    free(blocks);
}
