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
 *  - the groups share the grid's surface (surface_sharing_profile.c, grids
 *    up to about 16^3 blocks): for lambda >= 0, a profile H_lambda(b) <=
 *    dw(S) + 2 lambda sum_a w_a s_a(S) for every set of b blocks (s_a(S):
 *    its faces on the grid's two end planes across open axis a), found
 *    slice by slice (a line holding some of its blocks is cut twice, or
 *    once with one end face; slices differ by |r_j - r_j+1| pairs at
 *    least). The groups of a partition own every surface face once, so
 *        sum_G dw(S_G) >= sum_G H_lambda(|S_G|) - 2 lambda sum_a w_a Surf_a,
 *    a constant per level as in (2) (Surf_a = 2 L_a). Form (2) is the
 *    continuous lambda = 1 case; lambda < 1 and the box's limits see that
 *    the groups cannot all take a corner's or an edge's share of the
 *    surface at once. lambda in steps of 1/8, chosen per level (nodes
 *    and tree groups 0..1; processors 1/2..1).
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
 *    36 864 processors, is a few items). With communication, each
 *    interval also has the rounds' floor: T >= rounds theta >= the maximum
 *    degree of M times theta >= the mean degree over any fixed set of
 *    processors (all, or those of the largest caps), bounded from the cut
 *    directed edges each level forces at that set's processors
 *    (rounds_floor in energy_bound_parts_combined_by_knapsack_any_size.c);
 *    an interval below it is empty, and idle time is priced from it.
 *    Where nodes are alike, a mapping leaving only m nodes busy has every
 *    message on their processors (the others' degree is 0), so the same
 *    mean runs over m nodes' processors alone: a floor per m
 *    (rounds_floor_by_busy_nodes). An interval is empty if no m that can
 *    hold the grid meets it; its idle time is priced from the least such
 *    floor, and the whole groups' bounds (each over its count m of
 *    non-empty nodes) skip the m it excludes and price idle from its floor.
 *    Where all groups of a level have the same cap c, the knapsack's
 *    charge for that level (the same rate on every cell) is replaced by
 *    the larger of it and 1/2 (floor(n/c) h0(c) + h0(n mod c)): h0, the
 *    linear form's least without its lower limits, is concave with
 *    h0(0) = 0, so its sum over groups of 0..c blocks holding n is least
 *    at a vertex (groups_concave_gain, integer group counts). Where a
 *    level's groups are all alike, the cells' cost and that level's cut
 *    are also bounded together, group by group: with m groups holding
 *    cells (Jensen on the convex cheapest-first fill, the concave vertex
 *    over m groups; whole_groups) and by the Lagrangian dual over the
 *    blocks per group (the lower convex hull of one group's cost;
 *    groups_dual; on small grids the least of the sum itself over integer
 *    blocks per group, by min-plus convolutions: the exact split), and by
 *    the least vertex of the sum over groups of
 *    phi(b) = g(b d) + 1/2 de h0(b) (phi concave between the breakpoints
 *    of the cheapest-first fill g, so the least of the sum is where all
 *    groups but one sit at breakpoints; groups_vertices); the largest
 *    bound is kept. Each interval is bounded once per variant of h (form
 *    (1) with the exact profile; form (2); each pair of surface-sharing
 *    profiles, with the dual over their H) and the largest kept: each is
 *    a bound on its own.
 * The bound is the larger of the two, each valid on its own.
 *
 * Where each part lives: energy_bound_comm_part.c (h, and the least link energy at each
 * separation level), surface_sharing_profile.c (H_lambda), energy_bound_compute_part.c (each processor's figures and
 * caps, the classes that cost the same), energy_bound_parts_combined_by_knapsack_any_size.c and
 * energy_bound_parts_combined_exactly_small_machines.c (the two ways to combine); this file builds the
 * context they share (energy_bound_context.h) and takes the larger. */
#include "energy_bound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/model/processor_time_energy.h"
#include "core/lib/util.h"
#include "core/bound/edge_isoperimetric.h"
#include "energy_bound_context.h"

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
    free(x->pc_of); free(x->pc_rep); free(x->pc_count); free(x->cls_rep); free(x->cls_mult);
    free(x->iso_rho);
    for (int v = 0; v < BOUND_VARIANTS; v++) free(x->hset[v]);
    bound_free_surface(x);
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
    x.rounds_floor = !(flags & SM_BOUND_NO_ROUNDS);
    x.rounds_all_only = (flags & SM_BOUND_ROUNDS_MEAN_ONLY) != 0;
    x.integer_groups = !(flags & SM_BOUND_NO_INTEGER_GROUPS);
    x.whole_groups = !(flags & SM_BOUND_NO_WHOLE_GROUPS);
    x.group_vertices = !(flags & SM_BOUND_NO_GROUP_VERTICES);
    x.group_split = !(flags & SM_BOUND_NO_GROUP_SPLIT);
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
    bound_setup_grid(&x);
    bound_setup_procs(&x);
    bound_setup_links(&x);
    x.qmin = x.has_edges ? sm_quanta(x.wmin * x.tmin_link, m->round_time) : 1;
    bound_setup_classes(&x);
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

    bound_setup_surface(&x, !(flags & SM_BOUND_NO_SURFACE));

    /* One set's boundary bound at each size the whole groups' dual reads
     * (groups of up to 8192 blocks of equal cells): computed once. */
    if (x.has_edges && x.dmin == x.dmax && !(flags & (SM_BOUND_NO_WHOLE_GROUPS | SM_BOUND_NO_INTEGER_GROUPS))) {
        x.hset_n = x.n < 8192 ? x.n : 8192;
        for (int v = 0; v < 2 + x.nsurf; v++) {
            x.hset[v] = sm_xmalloc(sizeof(double) * (size_t)(x.hset_n + 1));
            for (int b = 0; b <= x.hset_n; b++) x.hset[v][b] = bound_h_set(&x, b, v);
        }
    }

    /* The knapsack bound over makespan intervals. */
    kscratch s = {0}; /* every field a later change forgets reads 0, not stack garbage */
    s.capc = sm_xmalloc(sizeof(double) * (size_t)x.P);
    s.capb = sm_xmalloc(sizeof(double) * (size_t)x.P);
    s.items = sm_xmalloc(sizeof(kitem) * (size_t)x.P);
    s.hsize = 1;
    while (s.hsize < 2 * x.P) s.hsize *= 2;
    s.hslot = sm_xmalloc(sizeof(int) * (size_t)s.hsize);
    s.busy_floor = x.nlev > 1 && !(flags & SM_BOUND_NO_BUSY_NODES) ? sm_xmalloc(sizeof(double) * ((size_t)x.ngroups[1] + 1)) : NULL;
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
    } else if (bound_total_cap(&x, hi, &s) >= x.X * (1 - 1e-12)) {
        /* T_lo: the least makespan whose caps hold every cell. */
        double lo = 0, up = hi;
        for (int it = 0; it < 100; it++) {
            double mid = 0.5 * (lo + up);
            if (bound_total_cap(&x, mid, &s) >= x.X * (1 - 1e-12)) up = mid;
            else lo = mid;
        }
        if (lo <= 0) lo = fmin(up, hi) * 1e-12;
        if (lo > hi) lo = hi;
        double tc;
        int np;
        kc = bound_knapsack(&x, lo, hi, 0, &np, &tc, &s);
        kb = bound_knapsack(&x, lo, hi, 1, &out->pieces, &kt, &s);
    }
    free(s.capc); free(s.capb); free(s.items); free(s.hslot); free(s.busy_floor);
    for (int L = 0; L < BOUND_MAX_LEVELS; L++) free(s.gcap[L]);

    sm_bound cb;
    memset(&cb, 0, sizeof cb);
    int have_counts = !(flags & SM_BOUND_NO_COUNTS) &&
                      (x.dvfs ? bound_counts_dvfs(&x, &cb) : bound_counts(&x, &cb));
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
                 "%d makespan intervals x %s%s%s, %d link level%s",
                 out->pieces, x.iso ? "exact isoperimetric profile and " : "",
                 "Loomis-Whitney boundary", x.nsurf ? ", groups sharing the grid's surface" : "", x.nlev,
                 x.nlev == 1 ? "" : "s");
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
