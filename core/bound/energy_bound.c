/* energy_bound.c - a proven lower bound on the energy of any mapping that meets
 * the deadline.
 *
 * The argument. For a mapping with makespan T (SPEC 3), idle_p = T - comp_p
 * for every processor C counts (all, or the used ones under -unused off),
 * so
 *     E = sum_p G_p(blocks_p, cells_p) + T * sum_{p in C} p_idle_p + comm
 * with G_p = dynamic + (p0 - p_idle) * comp, a_p * cells_p for a per-cell
 * type (a_p = energy_per_cell + (p0 - p_idle) * time_per_cell), the
 * profile's dyn(b) + (p0 - p_idle) * comp(b) for a profiled one. Meeting
 * the deadline D means T <= D and comp_p <= T for every p, so each
 * processor holds at most cap_p(T) cells (and memory caps it too).
 *
 * Communication. comm = sum over cut directed edges e of c_e * epc(link).
 * Let e_1 <= e_2 <= ... be the least energy per cell of a link between two
 * processors separated at level L (1: different processors, 2: different
 * nodes, 3..: different groups of a tree network): each is a minimum over
 * a subset of the previous level's pairs, so they do not decrease. Then
 *     comm >= e_1 W_1 + sum_{L>=2} (e_L - e_{L-1}) W_L,
 * W_L the cells of the cut edges between different level-L groups. Every
 * such edge leaves both of its end groups, so W_L = 1/2 sum_G dw(S_G), dw
 * the weighted edge boundary of the group's block set S_G. A lower bound
 * h(b) on dw(S) over sets of b blocks then gives W_L >= 1/2 sum_G h(|S_G|).
 *
 * Two sources of h:
 *  - the grid's exact edge-isoperimetric profile f(b) (edge_isoperimetric.c, small
 *    grids): dw(S) >= 2 w_min f(b), every neighbouring pair carrying an edge
 *    each way of at least w_min cells; and for a partition, the cut pairs
 *    are at least half the parts' f and at least f of any union of parts.
 *  - Loomis-Whitney, any size: let A_a be the number of grid lines along
 *    axis a that meet S. Then |S|^(d-1) <= prod_a A_a (d active axes), and
 *    a line meets S in at most n_a blocks, so A_a >= max(1, b/n_a). A line
 *    along a that meets S without lying in it is cut at least once (twice
 *    if the axis wraps); at most b/n_a lines lie in S. So
 *      (1) dw(S) >= sum_a 2 w_a k_a (A_a - b/n_a)    (k_a = 2 if a wraps
 *          over 3 or more blocks, else 1; w_a the least cells of an edge
 *          along a, merged edges of a 2-block wrap included)
 *    and, a line of a non-wrapping axis being cut twice unless S holds one
 *    of its two end blocks (cuts >= 2 - e_line(S) on every line meeting S),
 *      (2) dw(S) >= sum_{a open} 2 w_a (2 A_a - E_a(S)) + sum_{a wraps} (1)
 *    where E_a(S) counts S's blocks on the two end faces across a; summed
 *    over the groups of a partition, sum_G E_a(S_G) = 2 L_a (L_a lines), a
 *    constant. Minimising the linear form over A with the product and
 *    lower-bound constraints (a convex problem, solved in closed form by
 *    water-filling) gives h. Without upper limits on A_a, h(b)/b does not
 *    increase with b (scaling A by lambda >= 1 keeps it feasible for
 *    lambda b).
 *
 * Two ways to combine them:
 *  - counts (at most 8 processors and the exact profile): every vector of
 *    blocks per processor k within the caps at D is bounded by the least
 *    G_p of k_p blocks (the smallest cells when a_p >= 0), a makespan at
 *    least the largest comp_p and (rounds >= the busiest processor's
 *    degree >= 2 q_min f(k_p)) the rounds it forces, idle power at that
 *    makespan, and the cut bound at processor and node level. The least
 *    over all vectors bounds every mapping.
 *  - knapsack (any size): for T in a makespan interval [t1, t2], caps at
 *    t2 are upper limits and t1 prices idle time. Since h(b)/b does not
 *    increase, h(b_G) >= rho(cap_G) b_G with rho(c) = h(c)/c (or the least
 *    f(b)/b for b <= c), so each cell placed on p costs at least
 *      c_p = a_p + sum_L 1/2 (e_L - e_{L-1}) rho(cap of p's level-L group) / d_max
 *    (b_p >= cells_p / d_max), plus p_idle_p t1 / cap_p under -unused off
 *    (the chord of the fixed idle charge), minus the constant of (2). The
 *    least sum_p c_p x_p with sum x_p = all cells and x_p <= cap_p is a
 *    fractional knapsack, filled cheapest first. The minimum over a cover
 *    of [T_lo, min(D, T_all)] by intervals bounds every mapping; the
 *    interval of least bound is split again and again. Processors with
 *    the same figures whose groups hold the same figures at every level
 *    cost the same: the knapsack runs over such classes (a whole Summit,
 *    36 864 processors, is a few items).
 * The bound is the larger of the two, each valid on its own. */
#include "energy_bound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/model/profile.h"
#include "core/lib/util.h"
#include "core/model/edge_isoperimetric.h"

#define BOUND_COUNTS_MAX_PROCS 8
#define BOUND_COUNTS_MAX_VECTORS 20000000.0
#define BOUND_PIECES 32
#define BOUND_SPLITS 96
#define BOUND_MAX_LEVELS (SM_NET_MAXDIMS + 2)

/* Everything both methods share. */
typedef struct {
    const sm_grid *g;
    const sm_topo *t;
    const sm_model *m;
    int n, P;
    double X;                 /* all cells */
    double dmin, dmax;
    int64_t *pre;             /* sum of the k smallest block cells, k = 0..n */
    double *a, *tpc, *pidle, *memc; /* per processor; memc < 0: no memory limit */
    int *prof;                /* per processor: its type when profiled, else -1 */
    /* Per profiled type (indexed by type): over b = 0..plen, comp(b), the
     * least comp at b or more blocks, and the least G(b)/b at b or fewer. */
    int *plen;
    double **pcomp, **psufmin, **pgmin, **pG;
    /* Grid geometry: active axes, their lengths, lines, edge weights. */
    int nax, len[3], wraps[3];
    double lines[3], w[3], wmin;
    int has_edges;
    /* Link levels: e[0] between any two processors, e[1] between nodes,
     * e[2..] between tree groups; group[L][p] = p's group at level L. */
    int nlev;
    double e[BOUND_MAX_LEVELS];
    int *group[BOUND_MAX_LEVELS];
    int ngroups[BOUND_MAX_LEVELS];
    /* Processors that cost the same at every makespan, as classes: equal
     * figures (pc, a "figure class") and, at every level, groups holding
     * the same figure classes. The knapsack runs over classes with their
     * counts: a whole Summit is a handful of items, not 36 864. */
    int npc, *pc_of, *pc_rep;
    int *gm_off[BOUND_MAX_LEVELS], *gm[BOUND_MAX_LEVELS]; /* members by group */
    int ngc[BOUND_MAX_LEVELS], *gc_of[BOUND_MAX_LEVELS], *gc_rep[BOUND_MAX_LEVELS];
    int ncls, *cls_rep;
    double *cls_mult;
    int *cls_gc[BOUND_MAX_LEVELS];
    double tmin_link;         /* least link time per cell */
    int64_t qmin;             /* least quanta of a message */
    const int *iso;           /* exact profile f, or NULL */
    int dvfs;                 /* any DVFS state of each processor (SM_BOUND_DVFS) */
    double *iso_rho;          /* least 2 w_min f(b)/b over 1..c, c = 0..n */
} bctx;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* ---- Loomis-Whitney ------------------------------------------------- */

/* min sum_a c_a A_a subject to prod_a A_a >= B and A_a >= lo_a, by
 * water-filling: A_a = max(lo_a, mu / c_a) with mu making the product B. */
static double lw_min(int k, const double *c, const double *lo, double B)
{
    int fixed[3] = {0, 0, 0};
    double A[3];
    for (int it = 0; it <= k; it++) {
        double logrest = log(B), logc = 0;
        int nfree = 0;
        for (int a = 0; a < k; a++) {
            if (fixed[a]) logrest -= log(lo[a]);
            else { nfree++; logc += log(c[a]); }
        }
        if (nfree == 0) break;
        double mu = exp((logrest + logc) / nfree);
        int changed = 0;
        for (int a = 0; a < k; a++) {
            if (fixed[a]) continue;
            A[a] = mu / c[a];
            if (A[a] < lo[a]) { fixed[a] = 1; changed = 1; }
        }
        if (!changed) break;
    }
    double s = 0;
    for (int a = 0; a < k; a++) s += c[a] * (fixed[a] ? lo[a] : A[a]);
    return s;
}

/* h(b) by (1) (variant 0) or by (2) without its constant (variant 1). */
static double lw_h(const bctx *x, double b, int variant)
{
    if (b <= 0 || !x->has_edges || x->nax == 0) return 0;
    double c[3], lo[3], sub = 0;
    for (int a = 0; a < x->nax; a++) {
        int k = x->wraps[a] && x->len[a] >= 3 ? 2 : 1;
        lo[a] = fmax(1.0, b / x->len[a]);
        if (variant == 1 && !x->wraps[a]) c[a] = 4 * x->w[a];
        else {
            c[a] = 2 * x->w[a] * k;
            sub += c[a] * b / x->len[a];
        }
    }
    double B = pow(b, x->nax - 1);
    double v = lw_min(x->nax, c, lo, B) - sub;
    return v > 0 ? v : 0;
}

/* The constant of (2) for one level: sum over open axes of 2 w_a 2 L_a. */
static double lw_const(const bctx *x)
{
    double s = 0;
    for (int a = 0; a < x->nax; a++)
        if (!x->wraps[a]) s += 4 * x->w[a] * x->lines[a];
    return s;
}

/* rho(c): a lower bound on h(b)/b for every 1 <= b <= c. */
static double rho(const bctx *x, double cap, int variant)
{
    if (cap < 1) return 0;
    if (cap > x->n) cap = x->n;
    double r = lw_h(x, floor(cap), variant) / floor(cap);
    if (variant == 0 && x->iso_rho) r = fmax(r, x->iso_rho[(int)floor(cap)]);
    return r;
}

/* ---- setup ---------------------------------------------------------- */

static void setup_grid(bctx *x)
{
    const sm_grid *g = x->g;
    const sm_grid_spec *sp = &g->spec;
    x->nax = 0;
    x->wmin = INFINITY;
    for (int e = 0; e < g->nedges; e++)
        if ((double)g->edges[e].cells < x->wmin) x->wmin = (double)g->edges[e].cells;
    x->has_edges = g->nedges > 0;
    if (!isfinite(x->wmin)) x->wmin = 0;
    /* The least cells of a face edge along each axis, from the block
     * sizes (blocks differ by at most one cell per axis, so the smallest
     * extent is cells / blocks rounded down): halo times the smallest face;
     * on an axis that wraps over two blocks, both faces of a pair make one
     * edge, twice that. No pass over the edges' coordinates. */
    for (int a = 0; a < 3; a++) {
        if (sp->blocks[a] < 2) continue;
        double face = sp->halo;
        for (int b = 0; b < 3; b++)
            if (b != a) face *= (double)(sp->cells[b] / sp->blocks[b]);
        if (sp->periodic[a] && sp->blocks[a] == 2) face *= 2;
        int k = x->nax++;
        x->len[k] = sp->blocks[a];
        x->wraps[k] = sp->periodic[a];
        x->lines[k] = (double)x->n / sp->blocks[a];
        x->w[k] = face;
    }
}

/* Least energy and time per cell over links between processors separated
 * at each level. */
static void setup_links(bctx *x)
{
    const sm_topo *t = x->t;
    int P = x->P, T = t->ntypes;
    double eintra = INFINITY, tintra = INFINITY, einter = INFINITY, tinter = INFINITY;
    /* Type pairs that share a node: processors sorted by node. */
    int *ord = sm_xmalloc(sizeof(int) * (size_t)P);
    int *cnt = sm_xcalloc((size_t)T, sizeof(int));
    int *seen = sm_xcalloc((size_t)T * (size_t)T, sizeof(int));
    for (int p = 0; p < P; p++) ord[p] = p;
    /* Counting sort by node. */
    int nn = t->nnodes > 0 ? t->nnodes : 1;
    int *start = sm_xcalloc((size_t)nn + 1, sizeof(int));
    for (int p = 0; p < P; p++) start[t->procs[p].node + 1]++;
    for (int i = 0; i < nn; i++) start[i + 1] += start[i];
    int *fill = sm_xmalloc(sizeof(int) * (size_t)nn);
    memcpy(fill, start, sizeof(int) * (size_t)nn);
    for (int p = 0; p < P; p++) ord[fill[t->procs[p].node]++] = p;
    int nodes_used = 0;
    for (int nd = 0; nd < nn; nd++) {
        if (start[nd] == start[nd + 1]) continue;
        nodes_used++;
        for (int i = start[nd]; i < start[nd + 1]; i++) cnt[t->procs[ord[i]].type]++;
        for (int i = start[nd]; i < start[nd + 1]; i++) {
            int ta = t->procs[ord[i]].type;
            for (int j = start[nd]; j < start[nd + 1]; j++) {
                int tb = t->procs[ord[j]].type;
                if (i == j || seen[ta * T + tb]) continue;
                seen[ta * T + tb] = 1;
                int cls = t->intra_of ? t->intra_of[ta * T + tb] : -1;
                if (cls < 0) continue;
                eintra = fmin(eintra, t->intra[cls].link.energy_per_cell);
                tintra = fmin(tintra, t->intra[cls].link.time_per_cell);
            }
        }
        for (int i = start[nd]; i < start[nd + 1]; i++) cnt[t->procs[ord[i]].type] = 0;
    }
    for (int i = 0; i < t->ninter; i++) {
        einter = fmin(einter, t->inter[i].energy_per_cell);
        tinter = fmin(tinter, t->inter[i].time_per_cell);
    }
    if (nodes_used < 2) einter = tinter = INFINITY;
    x->e[0] = fmin(eintra, einter);
    x->tmin_link = fmin(tintra, tinter);
    if (!isfinite(x->e[0])) x->e[0] = 0;
    if (!isfinite(x->tmin_link)) x->tmin_link = 0;
    x->nlev = 1;
    x->group[0] = sm_xmalloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) x->group[0][p] = p;
    x->ngroups[0] = P;
    if (nodes_used >= 2 && isfinite(einter)) {
        int L = x->nlev++;
        x->e[L] = einter;
        x->group[L] = sm_xmalloc(sizeof(int) * (size_t)P);
        for (int p = 0; p < P; p++) x->group[L][p] = t->procs[p].node;
        x->ngroups[L] = nn;
        /* Tree groups: pairs in different groups of g1..gL nodes are at
         * distance L+1 or more and use inter[L..]. */
        if (t->net && t->net->ops == &sm_net_tree) {
            long size = 1;
            for (int lv = 0; lv < t->net->ndims && x->nlev < BOUND_MAX_LEVELS; lv++) {
                size *= t->net->dims[lv];
                if (size >= nn) break;
                double el = INFINITY;
                for (int i = lv + 1; i < t->ninter; i++) el = fmin(el, t->inter[i].energy_per_cell);
                if (!isfinite(el) || el <= x->e[x->nlev - 1]) continue;
                int K = x->nlev++;
                x->e[K] = el;
                x->group[K] = sm_xmalloc(sizeof(int) * (size_t)P);
                for (int p = 0; p < P; p++) x->group[K][p] = (int)(t->procs[p].node / size);
                x->ngroups[K] = (int)((nn + size - 1) / size);
            }
        }
    }
    free(ord); free(cnt); free(seen); free(start); free(fill);
}

static void setup_procs(bctx *x)
{
    const sm_topo *t = x->t;
    int P = x->P;
    x->a = sm_xmalloc(sizeof(double) * (size_t)P);
    x->tpc = sm_xmalloc(sizeof(double) * (size_t)P);
    x->pidle = sm_xmalloc(sizeof(double) * (size_t)P);
    x->memc = sm_xmalloc(sizeof(double) * (size_t)P);
    x->prof = sm_xmalloc(sizeof(int) * (size_t)P);
    x->plen = sm_xcalloc((size_t)t->ntypes, sizeof(int));
    x->pcomp = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    x->psufmin = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    x->pgmin = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    x->pG = sm_xcalloc((size_t)t->ntypes, sizeof(double *));
    for (int p = 0; p < P; p++) {
        const sm_type *ty = &t->types[t->procs[p].type];
        const sm_params *pa = sm_topo_proc_params(t, p);
        x->a[p] = pa->energy_per_cell + (pa->p0 - pa->p_idle) * pa->time_per_cell;
        x->tpc[p] = pa->time_per_cell;
        x->pidle[p] = pa->p_idle;
        x->memc[p] = pa->memory > 0 && pa->bytes_per_cell > 0 ? pa->memory / pa->bytes_per_cell : -1;
        /* A solver that picks each processor's DVFS state: every state's
         * energy per cell, speed, idle power and memory at their most
         * favourable, each on its own (a relaxation, so still a bound). */
        for (int k = -1; x->dvfs && ty->nstates && k < ty->nstates; k++) {
            const sm_params *q = k < 0 ? &ty->base : &ty->states[k];
            x->a[p] = fmin(x->a[p], q->energy_per_cell + (q->p0 - q->p_idle) * q->time_per_cell);
            x->tpc[p] = fmin(x->tpc[p], q->time_per_cell);
            x->pidle[p] = fmin(x->pidle[p], q->p_idle);
            double mc = q->memory > 0 && q->bytes_per_cell > 0 ? q->memory / q->bytes_per_cell : -1;
            if (x->memc[p] >= 0) x->memc[p] = mc < 0 ? -1 : fmax(x->memc[p], mc);
        }
        x->prof[p] = ty->nprofile ? t->procs[p].type : -1;
        int ti = t->procs[p].type;
        if (ty->nprofile && !x->pcomp[ti]) {
            int L = ty->profile[ty->nprofile - 1].blocks;
            if (L > x->n) L = x->n;
            if (L < 0) L = 0;
            x->plen[ti] = L;
            double *c = sm_xmalloc(sizeof(double) * (size_t)(L + 1));
            double *G = sm_xmalloc(sizeof(double) * (size_t)(L + 1));
            double *suf = sm_xmalloc(sizeof(double) * (size_t)(L + 2));
            double *gm = sm_xmalloc(sizeof(double) * (size_t)(L + 1));
            /* Shared by the type's processors, whose states may differ:
             * the least static-minus-idle power of any state. */
            double dp = ty->base.p0 - ty->base.p_idle;
            for (int k = 0; k < ty->nstates; k++) dp = fmin(dp, ty->states[k].p0 - ty->states[k].p_idle);
            for (int b = 0; b <= L; b++) {
                double tm, en;
                sm_profile_at(ty->profile, ty->nprofile, b, &tm, &en);
                c[b] = tm;
                G[b] = en + dp * tm;
            }
            suf[L + 1] = INFINITY;
            for (int b = L; b >= 0; b--) suf[b] = fmin(c[b], suf[b + 1]);
            gm[0] = INFINITY;
            for (int b = 1; b <= L; b++) gm[b] = fmin(gm[b - 1], G[b] / b);
            x->pcomp[ti] = c;
            x->pG[ti] = G;
            x->psufmin[ti] = suf;
            x->pgmin[ti] = gm;
        }
    }
}

/* Most blocks a profiled processor can run within T. */
static int prof_cap(const bctx *x, int ti, double T)
{
    const double *suf = x->psufmin[ti];
    int lo = 0, hi = x->plen[ti];
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (suf[mid] <= T) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static void ctx_free(bctx *x)
{
    if (x->t)
        for (int i = 0; i < x->t->ntypes; i++) {
            if (x->pcomp) free(x->pcomp[i]);
            if (x->psufmin) free(x->psufmin[i]);
            if (x->pgmin) free(x->pgmin[i]);
            if (x->pG) free(x->pG[i]);
        }
    free(x->pcomp); free(x->psufmin); free(x->pgmin); free(x->pG); free(x->plen);
    free(x->pre); free(x->a); free(x->tpc); free(x->pidle); free(x->memc); free(x->prof);
    for (int L = 0; L < x->nlev; L++) {
        free(x->group[L]);
        free(x->gm_off[L]); free(x->gm[L]); free(x->gc_of[L]); free(x->gc_rep[L]); free(x->cls_gc[L]);
    }
    free(x->pc_of); free(x->pc_rep); free(x->cls_rep); free(x->cls_mult);
    free(x->iso_rho);
}

/* ---- classes of processors ------------------------------------------- */

static const bctx *sort_ctx;
static const int *sort_key;     /* keys of sort_w ints per item */
static int sort_w;

static int by_figures(const void *pa, const void *pb)
{
    const bctx *x = sort_ctx;
    int p = *(const int *)pa, q = *(const int *)pb;
    if (x->prof[p] != x->prof[q]) return x->prof[p] < x->prof[q] ? -1 : 1;
    const double *v[4] = {x->a, x->tpc, x->pidle, x->memc};
    for (int i = 0; i < 4; i++)
        if (v[i][p] != v[i][q]) return v[i][p] < v[i][q] ? -1 : 1;
    return (p > q) - (p < q);
}

static int by_key(const void *pa, const void *pb)
{
    int p = *(const int *)pa, q = *(const int *)pb;
    for (int i = 0; i < sort_w; i++) {
        int a = sort_key[(size_t)p * sort_w + i], b = sort_key[(size_t)q * sort_w + i];
        if (a != b) return a < b ? -1 : 1;
    }
    return (p > q) - (p < q);
}

static int same_key(const int *key, int w, int p, int q)
{
    for (int i = 0; i < w; i++)
        if (key[(size_t)p * w + i] != key[(size_t)q * w + i]) return 0;
    return 1;
}

static void setup_classes(bctx *x)
{
    int P = x->P;
    int *ord = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    /* Figure classes. */
    for (int p = 0; p < P; p++) ord[p] = p;
    sort_ctx = x;
    qsort(ord, (size_t)P, sizeof(int), by_figures);
    x->pc_of = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    x->pc_rep = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    x->npc = 0;
    for (int i = 0; i < P; i++) {
        int p = ord[i], q = i ? ord[i - 1] : p;
        if (i == 0 || x->prof[p] != x->prof[q] || x->a[p] != x->a[q] || x->tpc[p] != x->tpc[q] ||
            x->pidle[p] != x->pidle[q] || x->memc[p] != x->memc[q])
            x->pc_rep[x->npc++] = p;
        x->pc_of[p] = x->npc - 1;
    }
    /* Group classes per level: members by group (counting sort), each
     * group's figure classes sorted, groups compared as sequences. */
    for (int L = 1; L < x->nlev; L++) {
        int G = x->ngroups[L];
        int *off = sm_xcalloc((size_t)G + 1, sizeof(int));
        for (int p = 0; p < P; p++) off[x->group[L][p] + 1]++;
        for (int g = 0; g < G; g++) off[g + 1] += off[g];
        int *mem = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
        int *fill = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        memcpy(fill, off, sizeof(int) * (size_t)G);
        for (int p = 0; p < P; p++) mem[fill[x->group[L][p]]++] = p;
        free(fill);
        /* Key: size, then the sorted figure classes (padded with -1). */
        int w = 1;
        for (int g = 0; g < G; g++)
            if (off[g + 1] - off[g] + 1 > w) w = off[g + 1] - off[g] + 1;
        int *key = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1) * (size_t)w);
        int *tmp = sm_xmalloc(sizeof(int) * (size_t)w);
        for (int g = 0; g < G; g++) {
            int k = off[g + 1] - off[g];
            key[(size_t)g * w] = k;
            for (int i = 0; i < k; i++) tmp[i] = x->pc_of[mem[off[g] + i]];
            /* Insertion sort: groups are small. */
            for (int i = 1; i < k; i++)
                for (int j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) { int t = tmp[j]; tmp[j] = tmp[j - 1]; tmp[j - 1] = t; }
            for (int i = 1; i < w; i++) key[(size_t)g * w + i] = i - 1 < k ? tmp[i - 1] : -1;
        }
        int *gord = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        for (int g = 0; g < G; g++) gord[g] = g;
        sort_key = key;
        sort_w = w;
        qsort(gord, (size_t)G, sizeof(int), by_key);
        x->gc_of[L] = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        x->gc_rep[L] = sm_xmalloc(sizeof(int) * (size_t)(G ? G : 1));
        x->ngc[L] = 0;
        for (int i = 0; i < G; i++) {
            int g = gord[i];
            if (i == 0 || !same_key(key, w, g, gord[i - 1])) x->gc_rep[L][x->ngc[L]++] = g;
            x->gc_of[L][g] = x->ngc[L] - 1;
        }
        x->gm_off[L] = off;
        x->gm[L] = mem;
        free(key); free(tmp); free(gord);
    }
    /* Processor classes: figure class and group class at every level. */
    int w = x->nlev;
    int *key = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1) * (size_t)w);
    for (int p = 0; p < P; p++) {
        key[(size_t)p * w] = x->pc_of[p];
        for (int L = 1; L < x->nlev; L++) key[(size_t)p * w + L] = x->gc_of[L][x->group[L][p]];
    }
    for (int p = 0; p < P; p++) ord[p] = p;
    sort_key = key;
    sort_w = w;
    qsort(ord, (size_t)P, sizeof(int), by_key);
    x->cls_rep = sm_xmalloc(sizeof(int) * (size_t)(P ? P : 1));
    x->cls_mult = sm_xcalloc((size_t)(P ? P : 1), sizeof(double));
    x->ncls = 0;
    for (int i = 0; i < P; i++) {
        int p = ord[i];
        if (i == 0 || !same_key(key, w, p, ord[i - 1])) x->cls_rep[x->ncls++] = p;
        x->cls_mult[x->ncls - 1] += 1;
    }
    for (int L = 1; L < x->nlev; L++) {
        x->cls_gc[L] = sm_xmalloc(sizeof(int) * (size_t)(x->ncls ? x->ncls : 1));
        for (int c = 0; c < x->ncls; c++) x->cls_gc[L][c] = x->gc_of[L][x->group[L][x->cls_rep[c]]];
    }
    free(key);
    free(ord);
}

/* ---- knapsack over makespan intervals -------------------------------- */

typedef struct { double cost, cap; } kitem;

static int by_cost(const void *p, const void *q)
{
    const kitem *a = p, *b = q;
    return (a->cost > b->cost) - (a->cost < b->cost);
}

/* Scratch for one evaluation. */
typedef struct {
    double *capc, *capb, *gcap[BOUND_MAX_LEVELS];
    kitem *items;
    int *hslot, hsize;        /* merge_costs' table: a power of two >= 2P */
} kscratch;

/* Caps in cells and blocks of every figure class at makespan T (its
 * representative's), and of every group class at each level. */
static void caps_at(const bctx *x, double T, kscratch *s)
{
    for (int i = 0; i < x->npc; i++) {
        int p = x->pc_rep[i];
        double cc, cb;
        if (x->prof[p] >= 0) {
            cb = prof_cap(x, x->prof[p], T);
            cc = cb * x->dmax;
        } else {
            cc = x->tpc[p] > 0 ? T / x->tpc[p] : INFINITY;
            if (x->memc[p] >= 0) cc = fmin(cc, x->memc[p]);
            cc = fmin(cc, x->X);
            cb = fmin((double)x->n, floor(cc / x->dmin + 1e-9));
        }
        s->capc[i] = cc;
        s->capb[i] = cb;
    }
    for (int L = 1; L < x->nlev; L++)
        for (int j = 0; j < x->ngc[L]; j++) {
            int g = x->gc_rep[L][j];
            double c = 0;
            for (int k = x->gm_off[L][g]; k < x->gm_off[L][g + 1]; k++) c += s->capb[x->pc_of[x->gm[L][k]]];
            s->gcap[L][j] = c;
        }
}

static double total_cap(const bctx *x, double T, kscratch *s)
{
    caps_at(x, T, s);
    double sum = 0;
    for (int c = 0; c < x->ncls; c++) sum += s->capc[x->pc_of[x->cls_rep[c]]] * x->cls_mult[c];
    return sum;
}

/* The bound for every mapping whose makespan lies in [t1, t2]; comm 0:
 * without communication; variant as lw_h. INFINITY when none fits. */
/* Items of equal cost merged (their caps added), in place: thousands of
 * processors of a few kinds sort as a few items. Returns the count. */
static int merge_costs(kitem *it, int n, kscratch *s)
{
    int size = s->hsize, m = 0;
    for (int i = 0; i < size; i++) s->hslot[i] = -1;
    for (int i = 0; i < n; i++) {
        uint64_t h;
        memcpy(&h, &it[i].cost, sizeof h);
        h *= 0x9e3779b97f4a7c15ull;
        int k = (int)(h >> 40) & (size - 1);
        while (s->hslot[k] >= 0 && it[s->hslot[k]].cost != it[i].cost) k = (k + 1) & (size - 1);
        if (s->hslot[k] >= 0) it[s->hslot[k]].cap += it[i].cap;
        else {
            it[m] = it[i];
            s->hslot[k] = m++;
        }
    }
    return m;
}

static double piece(const bctx *x, double t1, double t2, int comm, int variant, kscratch *s)
{
    caps_at(x, t2, s);
    double sum = 0, idle = 0, konst = 0;
    for (int c = 0; c < x->ncls; c++) sum += s->capc[x->pc_of[x->cls_rep[c]]] * x->cls_mult[c];
    if (sum < x->X * (1 - 1e-12)) return INFINITY;
    int unused_idle = x->m->unused_idle;
    /* One item per class: its representative's cost per cell, the caps of
     * all its processors. */
    for (int c = 0; c < x->ncls; c++) {
        int p = x->cls_rep[c], f = x->pc_of[p];
        double capc = s->capc[f], capb = s->capb[f], cost;
        if (x->prof[p] >= 0) {
            int cb = (int)capb;
            double gm = cb > 0 ? x->pgmin[x->prof[p]][cb] : 0;
            cost = gm / (gm >= 0 ? x->dmax : x->dmin); /* b_p within cells/d_max..cells/d_min */
        } else {
            cost = x->a[p];
        }
        if (unused_idle) idle += x->pidle[p] * x->cls_mult[c];
        else if (capc > 0) cost += x->pidle[p] * t1 / capc;
        if (comm && x->P > 1) {
            for (int L = 0; L < x->nlev; L++) {
                double de = x->e[L] - (L ? x->e[L - 1] : 0);
                if (de <= 0) continue;
                double cap = L ? s->gcap[L][x->cls_gc[L][c]] : capb;
                cost += 0.5 * de * rho(x, cap, variant) / x->dmax;
            }
        }
        s->items[c] = (kitem){cost, capc * x->cls_mult[c]};
    }
    if (comm && x->P > 1 && variant == 1)
        for (int L = 0; L < x->nlev; L++) {
            double de = x->e[L] - (L ? x->e[L - 1] : 0);
            if (de > 0) konst += 0.5 * de * lw_const(x);
        }
    int nitems = merge_costs(s->items, x->ncls, s);
    qsort(s->items, (size_t)nitems, sizeof(kitem), by_cost);
    double left = x->X, v = 0;
    for (int i = 0; i < nitems && left > 0; i++) {
        double take = fmin(left, s->items[i].cap);
        v += take * s->items[i].cost;
        left -= take;
    }
    return v + idle * t1 - konst;
}

static double piece_best(const bctx *x, double t1, double t2, int comm, kscratch *s)
{
    double v = piece(x, t1, t2, comm, 0, s);
    if (comm && isfinite(v)) v = fmax(v, piece(x, t1, t2, comm, 1, s));
    return v;
}

typedef struct { double t1, t2, v; } tpiece;

/* The least bound over a cover of [lo, hi], refined where it is least. */
static double knapsack_bound(const bctx *x, double lo, double hi, int comm, int *npieces,
                             double *tbest, kscratch *s)
{
    int cap = BOUND_PIECES + 2 * BOUND_SPLITS + 2, np = 0;
    tpiece *pc = sm_xmalloc(sizeof(tpiece) * (size_t)cap);
    int k = hi > lo * (1 + 1e-12) ? BOUND_PIECES : 1;
    double r = pow(hi / lo, 1.0 / k);
    for (int i = 0; i < k; i++) {
        double a = lo * pow(r, i), b = i == k - 1 ? hi : lo * pow(r, i + 1);
        pc[np++] = (tpiece){a, b, piece_best(x, a, b, comm, s)};
    }
    for (int it = 0; it < BOUND_SPLITS && k > 1; it++) {
        int best = 0;
        for (int i = 1; i < np; i++)
            if (pc[i].v < pc[best].v) best = i;
        tpiece q = pc[best];
        if (!isfinite(q.v) || q.t2 <= q.t1 * (1 + 1e-9)) break;
        double mid = sqrt(q.t1 * q.t2);
        pc[best] = (tpiece){q.t1, mid, piece_best(x, q.t1, mid, comm, s)};
        pc[np++] = (tpiece){mid, q.t2, piece_best(x, mid, q.t2, comm, s)};
    }
    double v = INFINITY;
    for (int i = 0; i < np; i++)
        if (pc[i].v < v) { v = pc[i].v; *tbest = pc[i].t1; }
    *npieces = np;
    free(pc);
    return v;
}

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
static int counts_bound(bctx *x, sm_bound *out)
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
static int counts_bound_dvfs(bctx *x, sm_bound *out)
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
        if (!counts_bound(x, &b)) { ok = 0; break; }
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

/* ---- the bound ------------------------------------------------------- */

int *sm_bound_profile(const sm_grid *g)
{
    if (g->ntasks > 2048) return NULL; /* the dynamic programme stays cheap */
    int exact;
    return sm_iso_profile(g, &exact);
}

void sm_bound_compute(const sm_grid *g, const sm_topo *t, const sm_model *m, sm_bound *out)
{
    int *iso = sm_bound_profile(g);
    sm_bound_compute_with(g, t, m, iso, 0, out);
    free(iso);
}

void sm_bound_compute_with(const sm_grid *g, const sm_topo *t, const sm_model *m,
                           const int *iso, unsigned flags, sm_bound *out)
{
    double t0 = now();
    memset(out, 0, sizeof *out);
    out->nprocs = t->nprocs;
    bctx x;
    memset(&x, 0, sizeof x);
    x.g = g;
    x.t = t;
    x.m = m;
    x.n = g->ntasks;
    x.P = t->nprocs;
    x.dvfs = (flags & SM_BOUND_DVFS) != 0;
    /* Cells: the total and the extremes; the sorted prefix sums only for
     * the count vectors, which need the profile (small grids). */
    x.X = 0;
    x.dmin = x.n ? INFINITY : 1;
    x.dmax = x.n ? 0 : 1;
    for (int i = 0; i < x.n; i++) {
        double d = (double)g->task_cells[i];
        x.X += d;
        x.dmin = fmin(x.dmin, d);
        x.dmax = fmax(x.dmax, d);
    }
    if (iso) {
        int64_t *sc = sm_xmalloc(sizeof(int64_t) * (size_t)(x.n + 1));
        memcpy(sc, g->task_cells, sizeof(int64_t) * (size_t)x.n);
        qsort(sc, (size_t)x.n, sizeof(int64_t), cmp_i64);
        x.pre = sm_xmalloc(sizeof(int64_t) * (size_t)(x.n + 1));
        x.pre[0] = 0;
        for (int i = 0; i < x.n; i++) x.pre[i + 1] = x.pre[i] + sc[i];
        free(sc);
    }
    setup_grid(&x);
    setup_procs(&x);
    setup_links(&x);
    x.qmin = x.has_edges ? sm_quanta(x.wmin * x.tmin_link, m->round_time) : 1;
    setup_classes(&x);
    x.iso = iso;
    {
        if (x.iso) {
            x.iso_rho = sm_xmalloc(sizeof(double) * (size_t)(x.n + 1));
            x.iso_rho[0] = 0;
            double r = INFINITY;
            for (int b = 1; b <= x.n; b++) {
                r = fmin(r, 2 * x.wmin * x.iso[b] / b);
                x.iso_rho[b] = r;
            }
        }
    }

    /* The knapsack bound over makespan intervals. */
    kscratch s;
    s.capc = sm_xmalloc(sizeof(double) * (size_t)x.P);
    s.capb = sm_xmalloc(sizeof(double) * (size_t)x.P);
    s.items = sm_xmalloc(sizeof(kitem) * (size_t)x.P);
    s.hsize = 1;
    while (s.hsize < 2 * x.P) s.hsize *= 2;
    s.hslot = sm_xmalloc(sizeof(int) * (size_t)s.hsize);
    for (int L = 0; L < BOUND_MAX_LEVELS; L++)
        s.gcap[L] = L && L < x.nlev ? sm_xmalloc(sizeof(double) * (size_t)(x.ngc[L] ? x.ngc[L] : 1)) : NULL;
    double dl = m->has_deadline ? m->deadline * (1 + 1e-9) : INFINITY;
    /* T_all: beyond it no cap grows. */
    double tall = 0;
    for (int p = 0; p < x.P; p++) {
        double tp = x.prof[p] >= 0 ? x.pcomp[x.prof[p]][x.plen[x.prof[p]]]
                                   : x.tpc[p] * fmin(x.X, x.memc[p] >= 0 ? x.memc[p] : x.X);
        if (x.prof[p] >= 0)
            for (int b = 0; b <= x.plen[x.prof[p]]; b++) tp = fmax(tp, x.pcomp[x.prof[p]][b]);
        tall = fmax(tall, tp);
    }
    double hi = fmin(dl, tall);
    double kb = INFINITY, kc = INFINITY, kt = 0;
    if (flags & SM_BOUND_NO_KNAPSACK) {
        kb = kc = -INFINITY;
    } else if (total_cap(&x, hi, &s) >= x.X * (1 - 1e-12)) {
        /* T_lo: the least makespan whose caps hold every cell. */
        double lo = 0, up = hi;
        for (int it = 0; it < 100; it++) {
            double mid = 0.5 * (lo + up);
            if (total_cap(&x, mid, &s) >= x.X * (1 - 1e-12)) up = mid;
            else lo = mid;
        }
        if (lo <= 0) lo = fmin(up, hi) * 1e-12;
        if (lo > hi) lo = hi;
        double tc;
        int np;
            kc = knapsack_bound(&x, lo, hi, 0, &np, &tc, &s);
            kb = knapsack_bound(&x, lo, hi, 1, &out->pieces, &kt, &s);
    }
    free(s.capc); free(s.capb); free(s.items); free(s.hslot);
    for (int L = 0; L < BOUND_MAX_LEVELS; L++) free(s.gcap[L]);

    sm_bound cb;
    memset(&cb, 0, sizeof cb);
    int have_counts = !(flags & SM_BOUND_NO_COUNTS) &&
                      (x.dvfs ? counts_bound_dvfs(&x, &cb) : counts_bound(&x, &cb));
    const char *geom = x.iso ? "exact isoperimetric profile" : "Loomis-Whitney boundary";
    if (have_counts && cb.energy >= kb) {
        *out = cb;
        out->nprocs = t->nprocs;
        out->compute_only = fmax(cb.compute_only, kc);
        snprintf(out->method, sizeof out->method,
                 "counts: %ld block-count vectors x %s (cut pairs >= half the parts' "
                 "boundaries and the boundary of any union), %d link level%s",
                 cb.vectors, geom, x.nlev, x.nlev == 1 ? "" : "s");
    } else {
        free(cb.counts);
        out->energy = kb;
        out->compute_only = have_counts ? fmax(cb.compute_only, kc) : kc;
        out->time = kt;
        out->comm = isfinite(kb) && isfinite(kc) ? fmax(0, kb - kc) : 0;
        out->vectors = have_counts ? cb.vectors : 0;
        snprintf(out->method, sizeof out->method,
                 "knapsack: cells cheapest first within each processor's deadline cap, "
                 "%d makespan intervals x %s%s, %d link level%s",
                 out->pieces, x.iso ? "exact isoperimetric profile and " : "",
                 "Loomis-Whitney boundary", x.nlev, x.nlev == 1 ? "" : "s");
    }
    if (out->energy == -INFINITY) { /* both methods left out (tests) */
        out->energy = 0;
        snprintf(out->method, sizeof out->method, "none: energy is never negative");
    } else if (!isfinite(out->energy))
        snprintf(out->method, sizeof out->method, "%s",
                 "no mapping meets the deadline: the processors' caps at the deadline hold "
                 "fewer cells than the grid");
    ctx_free(&x);
    out->seconds = now() - t0;
}

void sm_bound_free(sm_bound *b)
{
    free(b->counts);
    b->counts = NULL;
}

double sm_bound_gap(const sm_bound *b, double e)
{
    if (!isfinite(b->energy) || !isfinite(e) || e <= 0) return NAN;
    return fmax(0, (e - b->energy) / e);
}
