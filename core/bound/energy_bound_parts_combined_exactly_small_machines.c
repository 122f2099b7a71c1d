/* energy_bound_parts_combined_exactly_small_machines.c - the energy bound on small machines (at most
 * BOUND_COUNTS_MAX_PROCS processors) with the exact profile: every vector
 * of blocks per processor within its deadline cap, each bounded by its
 * least compute energy, the rounds it forces and its cut pairs; under
 * SM_BOUND_DVFS, again for every assignment of states. See energy_bound.c,
 * "counts". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"
#include "energy_bound_context.h"
#include "energy_bound.h"

/* ---- count vectors --------------------------------------------------- */

typedef struct {
    const bctx *x;
    int *k, *best;
    int *capb;
    int *same_prev;
    int *node_of;             /* processor -> dense node index */
    int nnodes;
    double *lin_min;          /* per processor and count: least G_p */
    double *comp_min;         /* per processor and count: least comp_p */
    double e_any, e_node;     /* per cut pair */
    double bound, compute_only, tbest, comm_best;
    long vectors;
} cvec_ctx;

/* Least cut pairs of a partition into parts of the given sizes. */
static int cut_pairs(const int *f, const int *sz, int m)
{
    int half = 0;
    for (int i = 0; i < m; i++) half += f[sz[i]];
    int best = (half + 1) / 2;
    for (unsigned S = 1; S + 1 < (1u << m); S++) {
        int t = 0;
        for (int i = 0; i < m; i++)
            if (S >> i & 1) t += sz[i];
        if (f[t] > best) best = f[t];
    }
    return best;
}

static void visit(cvec_ctx *c)
{
    const bctx *x = c->x;
    const sm_model *m = x->m;
    int P = x->P, n = x->n;
    double en = 0, comp = 0, idle = 0;
    int busiest = 0;
    for (int p = 0; p < P; p++) {
        int k = c->k[p];
        en += c->lin_min[p * (n + 1) + k];
        comp = fmax(comp, c->comp_min[p * (n + 1) + k]);
        if (k > 0 || m->unused_idle) idle += x->pidle[p];
        if (x->iso[k] > busiest) busiest = x->iso[k];
    }
    c->vectors++;
    double dl = m->has_deadline ? m->deadline * (1 + 1e-9) : INFINITY;
    if (comp <= dl) c->compute_only = fmin(c->compute_only, en + idle * comp);
    double ctime = (double)(2 * c->x->qmin * busiest) * m->round_time;
    if (busiest == 0) ctime = 0;
    double T = m->overlap ? fmax(comp, ctime) : comp + ctime;
    if (T > dl) return;
    double base = en + idle * T;
    if (base >= c->bound) return;
    int cut = cut_pairs(x->iso, c->k, P);
    double comm = c->e_any * cut;
    if (c->nnodes > 1 && c->e_node > c->e_any) {
        int sz[BOUND_COUNTS_MAX_PROCS] = {0};
        for (int p = 0; p < P; p++) sz[c->node_of[p]] += c->k[p];
        comm += (c->e_node - c->e_any) * cut_pairs(x->iso, sz, c->nnodes);
    }
    if (base + comm < c->bound) {
        c->bound = base + comm;
        c->tbest = T;
        c->comm_best = comm;
        memcpy(c->best, c->k, sizeof(int) * (size_t)P);
    }
}

static void walk(cvec_ctx *c, int p, int left)
{
    int P = c->x->P;
    if (p == P - 1) {
        if (left > c->capb[p]) return;
        if (c->same_prev[p] && left > c->k[p - 1]) return;
        c->k[p] = left;
        visit(c);
        return;
    }
    int hi = left < c->capb[p] ? left : c->capb[p];
    if (p > 0 && c->same_prev[p] && hi > c->k[p - 1]) hi = c->k[p - 1];
    for (int v = 0; v <= hi; v++) {
        c->k[p] = v;
        walk(c, p + 1, left - v);
    }
}

/* Returns 0 when the method does not apply (too many processors or
 * vectors, no exact profile). */
int bound_counts(bctx *x, sm_bound *out)
{
    int P = x->P, n = x->n;
    if (P > BOUND_COUNTS_MAX_PROCS || !x->iso) return 0;
    const sm_model *m = x->m;
    double dl = m->has_deadline ? m->deadline * (1 + 1e-9) : INFINITY;
    cvec_ctx c;
    memset(&c, 0, sizeof c);
    c.x = x;
    c.k = sm_xcalloc((size_t)P, sizeof(int));
    c.best = sm_xcalloc((size_t)P, sizeof(int));
    c.capb = sm_xcalloc((size_t)P, sizeof(int));
    c.same_prev = sm_xcalloc((size_t)P, sizeof(int));
    c.node_of = sm_xcalloc((size_t)P, sizeof(int));
    c.lin_min = sm_xmalloc(sizeof(double) * (size_t)P * (size_t)(n + 1));
    c.comp_min = sm_xmalloc(sizeof(double) * (size_t)P * (size_t)(n + 1));
    double size = 1;
    for (int p = 0; p < P; p++) {
        int cap = 0;
        for (int k = 0; k <= n; k++) {
            double lo = (double)x->pre[k], hi = (double)(x->pre[n] - x->pre[n - k]);
            double en, tm;
            int over = 0;
            if (x->prof[p] >= 0) {
                int ti = x->prof[p];
                over = k > x->plen[ti];
                tm = over ? INFINITY : x->pcomp[ti][k];
                en = over ? INFINITY : x->pG[ti][k];
            } else {
                tm = x->tpc[p] * lo;
                en = x->a[p] >= 0 ? x->a[p] * lo : x->a[p] * hi;
                if (x->memc[p] >= 0 && lo > x->memc[p] * (1 + 1e-12)) over = 1;
            }
            c.lin_min[p * (n + 1) + k] = en;
            c.comp_min[p * (n + 1) + k] = tm;
            if (!over && tm <= dl) cap = k;
        }
        c.capb[p] = cap;
        size *= cap + 1;
    }
    /* Dense node indices and identical neighbours in the list. */
    for (int p = 0; p < P; p++) {
        int q = 0;
        while (q < p && x->t->procs[q].node != x->t->procs[p].node) q++;
        c.node_of[p] = q < p ? c.node_of[q] : c.nnodes++;
        c.same_prev[p] = p > 0 && x->t->procs[p].type == x->t->procs[p - 1].type &&
                         x->t->procs[p].state == x->t->procs[p - 1].state &&
                         x->t->procs[p].node == x->t->procs[p - 1].node;
    }
    double sym = 1;
    for (int p = 1; p < P; p++) sym *= c.same_prev[p] ? 0.5 * (p + 1) / p : 1;
    int ok = size / sym / (P > 2 ? n : 1) <= BOUND_COUNTS_MAX_VECTORS;
    if (ok) {
        c.e_any = 2 * x->wmin * x->e[0];
        c.e_node = x->nlev > 1 ? 2 * x->wmin * x->e[1] : c.e_any;
        c.bound = c.compute_only = INFINITY;
        walk(&c, 0, n);
        out->exact_counts = 1;
        out->vectors = c.vectors;
        out->energy = c.bound;
        out->compute_only = c.compute_only;
        out->time = c.tbest;
        out->comm = isfinite(c.bound) ? c.comm_best : 0;
        if (isfinite(c.bound)) {
            out->counts = c.best;
            c.best = NULL;
        }
    }
    free(c.k); free(c.best); free(c.capb); free(c.same_prev); free(c.node_of);
    free(c.lin_min); free(c.comp_min);
    return ok;
}

/* Under SM_BOUND_DVFS on a small machine: the count vectors again for
 * every assignment of states (base or a named state per processor whose
 * type has states), each exact for its states; the least of them bounds
 * every mapping in every state. 0 when there are too many assignments. */
int bound_counts_dvfs(bctx *x, sm_bound *out)
{
    const sm_topo *t = x->t;
    int P = x->P;
    double combos = 1;
    for (int p = 0; p < P; p++) combos *= t->types[t->procs[p].type].nstates + 1;
    if (combos > 64 || P > BOUND_COUNTS_MAX_PROCS || !x->iso) return 0;
    int *cur = sm_xcalloc((size_t)P, sizeof(int));
    int ok = 1, any = 0;
    sm_bound best;
    memset(&best, 0, sizeof best);
    best.energy = best.compute_only = INFINITY;
    long vectors = 0;
    for (;;) {
        for (int p = 0; p < P; p++) {
            const sm_type *T = &t->types[t->procs[p].type];
            if (!T->nstates) continue;
            const sm_params *q = cur[p] < T->nstates ? &T->states[cur[p]] : &T->base;
            x->a[p] = q->energy_per_cell + (q->p0 - q->p_idle) * q->time_per_cell;
            x->tpc[p] = q->time_per_cell;
            x->pidle[p] = q->p_idle;
            x->memc[p] = q->memory > 0 && q->bytes_per_cell > 0 ? q->memory / q->bytes_per_cell : -1;
        }
        sm_bound b;
        memset(&b, 0, sizeof b);
        if (!bound_counts(x, &b)) { ok = 0; break; }
        any = 1;
        vectors += b.vectors;
        best.compute_only = fmin(best.compute_only, b.compute_only);
        if (b.energy < best.energy) {
            double co = best.compute_only;
            free(best.counts);
            best = b;
            best.compute_only = co;
        } else {
            free(b.counts);
        }
        int p = 0;
        while (p < P) {
            int ns = t->types[t->procs[p].type].nstates;
            if (ns && ++cur[p] <= ns) break;
            cur[p] = 0;
            p++;
        }
        if (p == P) break;
    }
    free(cur);
    if (!ok || !any) {
        free(best.counts);
        return 0;
    }
    best.vectors = vectors;
    *out = best;
    return 1;
}
