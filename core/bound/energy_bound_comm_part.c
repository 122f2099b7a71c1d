/* energy_bound_comm_part.c - the communication part of the energy bound: a lower bound
 * h(b) on the edge boundary of any set of b blocks (Loomis-Whitney, or the
 * exact edge-isoperimetric profile through iso_rho), the grid geometry it
 * needs, and the least energy per cell of a link at each separation level
 * (processors, nodes, tree groups). See energy_bound.c for the argument. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"
#include "energy_bound_context.h"

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

/* h(b) by (1) (variant 0) or by (2) without its constant (variant 1),
 * with edge weights w (x->w: cells; unit weights: directed edges). */
static double lw_h_w(const bctx *x, double b, int variant, const double *w)
{
    if (b <= 0 || !x->has_edges || x->nax == 0) return 0;
    double c[3], lo[3], sub = 0;
    for (int a = 0; a < x->nax; a++) {
        int k = x->wraps[a] && x->len[a] >= 3 ? 2 : 1;
        lo[a] = fmax(1.0, b / x->len[a]);
        if (variant == 1 && !x->wraps[a]) c[a] = 4 * w[a];
        else {
            c[a] = 2 * w[a] * k;
            sub += c[a] * b / x->len[a];
        }
    }
    double B = pow(b, x->nax - 1);
    double v = lw_min(x->nax, c, lo, B) - sub;
    return v > 0 ? v : 0;
}

static double lw_h(const bctx *x, double b, int variant)
{
    return lw_h_w(x, b, variant, x->w);
}

/* The least of the same linear form without the lower limits on A_a:
 *     h0(b) = d (prod_a c_a)^(1/d) b^((d-1)/d) - b sum_a sub_a
 * (AM-GM: the product constraint alone), so h0 <= h, and h0 is concave
 * in b >= 0 with h0(0) = 0 (a power of exponent (d-1)/d < 1 less a linear
 * term). Concavity is what the integer group counts need
 * (bound_groups_concave). May be negative. */
double bound_h_concave(const bctx *x, double b, int variant)
{
    if (b <= 0 || !x->has_edges || x->nax == 0) return 0;
    double logc = 0, sub = 0;
    for (int a = 0; a < x->nax; a++) {
        int k = x->wraps[a] && x->len[a] >= 3 ? 2 : 1;
        double c;
        if (variant == 1 && !x->wraps[a]) c = 4 * x->w[a];
        else {
            c = 2 * x->w[a] * k;
            sub += c / x->len[a];
        }
        logc += log(c);
    }
    int d = x->nax;
    return d * exp(logc / d) * pow(b, (double)(d - 1) / d) - b * sub;
}

/* A lower bound on dw(S) for one set of b blocks (form (1), or form (2)
 * without its constant), with the exact profile where there is one. */
double bound_h_set(const bctx *x, double b, int variant)
{
    if (variant >= 2) { /* a surface-sharing profile: its own constant */
        int i = variant - 2;
        return i < x->nsurf && b >= 0 && b <= x->n ? x->sprof[i][(int)b] : 0;
    }
    double v = lw_h(x, b, variant);
    if (variant == 0 && x->iso && b >= 1 && b <= x->n) v = fmax(v, 2 * x->wmin * x->iso[(int)b]);
    return v;
}

static const double unit_w[3] = {1, 1, 1};

/* The constant of (2) for one level: sum over open axes of 2 w_a 2 L_a. */
double bound_lw_const(const bctx *x)
{
    double s = 0;
    for (int a = 0; a < x->nax; a++)
        if (!x->wraps[a]) s += 4 * x->w[a] * x->lines[a];
    return s;
}

/* The constant a partition's sum of one variant's set bounds loses at one
 * level: 0 for form (1), the end faces for form (2), lambda x the
 * weighted surface for a surface-sharing profile. */
double bound_variant_const(const bctx *x, int variant)
{
    if (variant == 1) return bound_lw_const(x);
    if (variant >= 2) return variant - 2 < x->nsurf ? x->sconst[variant - 2] : 0;
    return 0;
}

/* The same counting directed edges instead of cells (unit weights). */
double bound_lw_const_edges(const bctx *x)
{
    double s = 0;
    for (int a = 0; a < x->nax; a++)
        if (!x->wraps[a]) s += 4 * x->lines[a];
    return s;
}

/* rho(c): a lower bound on h(b)/b for every 1 <= b <= c. */
double bound_rho(const bctx *x, double cap, int variant)
{
    if (cap < 1) return 0;
    if (cap > x->n) cap = x->n;
    if (variant >= 2) return variant - 2 < x->nsurf ? x->srho[variant - 2][(int)floor(cap)] : 0;
    double r = lw_h(x, floor(cap), variant) / floor(cap);
    if (variant == 0 && x->iso_rho) r = fmax(r, x->iso_rho[(int)floor(cap)]);
    return r;
}

/* The same in directed edges leaving or entering a set per block (each
 * neighbouring pair across the boundary carries an edge each way; a pair
 * of a 2-block wrap is one pair): a lower bound on the messages, which
 * the rounds count. */
double bound_rho_edges(const bctx *x, double cap, int variant)
{
    if (cap < 1) return 0;
    if (cap > x->n) cap = x->n;
    double r = lw_h_w(x, floor(cap), variant, unit_w) / floor(cap);
    if (variant == 0 && x->iso_rho && x->wmin > 0) r = fmax(r, x->iso_rho[(int)floor(cap)] / x->wmin);
    return r;
}

/* ---- setup ---------------------------------------------------------- */

void bound_setup_grid(bctx *x)
{
    const sm_grid *g = x->g;
    const sm_grid_spec *sp = &g->spec;
    x->nax = 0;
    x->wmin = INFINITY;
    for (int e = 0; e < g->nedges; e++)
        if ((double)g->edges[e].cells < x->wmin) x->wmin = (double)g->edges[e].cells;
    x->has_edges = g->nedges > 0;
    /* The most directed edges one block sends or receives: a bound on the
     * edges between the blocks of some processors and the rest (the
     * rounds' floor over a subset of the processors). */
    {
        int *inc = sm_xcalloc((size_t)(x->n ? x->n : 1), sizeof(int));
        int most = 0;
        for (int e = 0; e < g->nedges; e++) {
            if (++inc[g->edges[e].src] > most) most = inc[g->edges[e].src];
            if (++inc[g->edges[e].dst] > most) most = inc[g->edges[e].dst];
        }
        x->maxinc = most;
        free(inc);
    }
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
        x->wmax = fmax(x->wmax, face);
    }
}

/* Least energy and time per cell over links between processors separated
 * at each level. */
void bound_setup_links(bctx *x)
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
    x->tl[0] = x->tmin_link;
    x->group[0] = sm_xmalloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) x->group[0][p] = p;
    x->ngroups[0] = P;
    if (nodes_used >= 2 && isfinite(einter)) {
        int L = x->nlev++;
        x->e[L] = einter;
        x->tl[L] = isfinite(tinter) ? tinter : 0;
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
                double el = INFINITY, tlv = INFINITY;
                for (int i = lv + 1; i < t->ninter; i++) {
                    el = fmin(el, t->inter[i].energy_per_cell);
                    tlv = fmin(tlv, t->inter[i].time_per_cell);
                }
                if (!isfinite(el) || el <= x->e[x->nlev - 1]) continue;
                int K = x->nlev++;
                x->e[K] = el;
                x->tl[K] = isfinite(tlv) ? fmax(tlv, x->tl[K - 1]) : x->tl[K - 1];
                x->group[K] = sm_xmalloc(sizeof(int) * (size_t)P);
                for (int p = 0; p < P; p++) x->group[K][p] = (int)(t->procs[p].node / size);
                x->ngroups[K] = (int)((nn + size - 1) / size);
            }
        }
    }
    free(ord); free(cnt); free(seen); free(start); free(fill);
}
