/* energy_bound_parts_combined_by_knapsack_any_size.c - the energy bound for any size: over a cover of
 * makespan intervals, cells placed cheapest first within each processor's
 * cap (a fractional knapsack over classes of processors), the interval of
 * least bound split again and again. See energy_bound.c, "knapsack". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/util.h"
#include "core/model/model.h"
#include "energy_bound_context.h"

/* ---- knapsack over makespan intervals -------------------------------- */


static int by_cost(const void *p, const void *q)
{
    const kitem *a = p, *b = q;
    return (a->cost > b->cost) - (a->cost < b->cost);
}


/* Caps in cells and blocks of every figure class at makespan T (its
 * representative's), and of every group class at each level. */
static void caps_at(const bctx *x, double T, kscratch *s)
{
    for (int i = 0; i < x->npc; i++) {
        int p = x->pc_rep[i];
        double cc, cb;
        if (x->prof[p] >= 0) {
            cb = bound_prof_cap(x, x->prof[p], T);
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

double bound_total_cap(const bctx *x, double T, kscratch *s)
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

/* One threshold's figures: Q = the processors whose cap is at least thr;
 * per level the largest capQ_G and, counted per group of level 1 where
 * its groups are alike, Q's members and the others' caps in blocks. */
typedef struct {
    double nq, nout;          /* over every processor */
    double nq_g, nout_g;      /* in one level-1 group (alike groups) */
    double z0[BOUND_MAX_LEVELS], z1[BOUND_MAX_LEVELS]; /* rho' at capmax, forms (1) and (2) */
    double zs[BOUND_MAX_LEVELS][BOUND_SURFACE_LAMBDAS]; /* the surface-sharing profiles' least 2 H/b, in cells */
    int skip[BOUND_MAX_LEVELS];
} rthreshold;

/* ceil(sum_L dq_L Z_L / nq) with nq of Q's processors holding every block
 * but nout (0 when nothing is forced). */
static double floor_of(const bctx *x, const double *q, const rthreshold *r, double nq, double nout)
{
    double nin = x->n - nout;
    if (nq < 1 || nin <= 0) return 0;
    double sum = 0;
    for (int L = 0; L < x->nlev; L++) {
        double dq = q[L] - (L ? q[L - 1] : 0);
        if (dq <= 0 || r->skip[L]) continue;
        double z = fmax(nin * r->z0[L], nin * r->z1[L] - bound_lw_const_edges(x));
        for (int i = 0; i < x->nsurf; i++) z = fmax(z, (nin * r->zs[L][i] - x->sconst[i]) / x->wmax);
        z -= L ? x->maxinc * nout : 0;
        if (z > 0) sum += dq * z;
    }
    return ceil(sum / nq - 1e-9);
}

/* The thresholds (distinct caps of the figure classes, largest first) with
 * their figures into r (x->npc entries at most); returns their count. With
 * x->rounds_all_only, only the last (every processor). */
static int rounds_thresholds(const bctx *x, const kscratch *s, rthreshold *r)
{
    int nr = 0, alike = x->nlev > 1 && x->ngc[1] == 1, g1 = alike ? x->gc_rep[1][0] : 0;
    double thr = INFINITY;
    for (;;) {
        double next = -1;
        for (int i = 0; i < x->npc; i++)
            if (s->capb[i] < thr && s->capb[i] > next) next = s->capb[i];
        if (next < 0) break;
        thr = next;
        int last = 1;
        for (int i = 0; i < x->npc; i++)
            if (s->capb[i] < thr) last = 0;
        if (x->rounds_all_only && !last) continue;
        rthreshold *t = &r[nr++];
        memset(t, 0, sizeof *t);
        for (int i = 0; i < x->npc; i++) {
            if (s->capb[i] >= thr) t->nq += x->pc_count[i];
            else t->nout += x->pc_count[i] * s->capb[i];
        }
        if (alike)
            for (int k = x->gm_off[1][g1]; k < x->gm_off[1][g1 + 1]; k++) {
                double cb = s->capb[x->pc_of[x->gm[1][k]]];
                if (cb >= thr) t->nq_g += 1;
                else t->nout_g += cb;
            }
        for (int L = 0; L < x->nlev; L++) {
            double capmax = 0; /* the largest capQ_G */
            if (L == 0) {
                for (int i = 0; i < x->npc; i++)
                    if (s->capb[i] >= thr) capmax = fmax(capmax, s->capb[i]);
            } else {
                for (int j = 0; j < x->ngc[L]; j++) {
                    int g = x->gc_rep[L][j];
                    double c = 0;
                    for (int k = x->gm_off[L][g]; k < x->gm_off[L][g + 1]; k++) {
                        double cb = s->capb[x->pc_of[x->gm[L][k]]];
                        if (cb >= thr) c += cb;
                    }
                    capmax = fmax(capmax, c);
                }
            }
            if (capmax >= x->n) { t->skip[L] = 1; continue; } /* one group may hold the grid: no cut forced */
            t->z0[L] = bound_rho_edges(x, capmax, 0);
            t->z1[L] = bound_rho_edges(x, capmax, 1);
            for (int i = 0; i < x->nsurf; i++) t->zs[L][i] = bound_rho(x, capmax, 2 + i);
        }
        if (last) break;
    }
    return nr;
}

static void rounds_quanta(const bctx *x, double *q)
{
    double theta = x->m->round_time, qprev = 0;
    for (int L = 0; L < x->nlev; L++) {
        q[L] = (double)sm_quanta(x->wmin * x->tl[L], theta);
        if (q[L] < qprev) q[L] = qprev; /* never: tl does not decrease */
        qprev = q[L];
    }
}

static int rounds_apply(const bctx *x)
{
    return x->rounds_floor && x->m->round_time > 0 && x->has_edges && x->P >= 2 && x->wmin > 0;
}

/* The rounds' floor on the makespan of every mapping whose makespan is at
 * most t2 (caps at t2 in s). Every rounds model counts at least the
 * maximum degree of M (SPEC 3) and T >= rounds theta with overlap or
 * without, so T/theta >= deg(p) for every processor p, and for any fixed
 * set Q of processors
 *     rounds >= 1/|Q| sum_{p in Q} deg(p).
 * deg(p) sums k_e over the cut directed edges at p. A message between
 * processors separated at level L (different level-L groups) lasts at
 * least w_min tl[L] and takes q_L = quanta(w_min tl[L]) >= 1 quanta, tl
 * (so q) not decreasing with L, so k_e >= sum over the levels L it
 * crosses of dq_L = q_L - q_{L-1}, and
 *     sum_{p in Q} deg(p) >= sum_L dq_L Z_L,
 * Z_L the directed edges that cross a level-L boundary counted at their
 * ends in Q. Let S_G be the blocks Q's processors of group G hold (level
 * 0: G one processor), b_G their number, at most capQ_G (the caps at t2
 * of Q's members of G). Every edge leaving or entering S_G is counted in
 * Z_L unless its other end is a block of G held outside Q, and those are
 * at most maxinc x (blocks outside Q) <= maxinc sum_{p not in Q} cap_p =:
 * maxinc n_out (none at level 0). As for the cells (energy_bound.c),
 * dd(S_G) >= b_G rho'(capQ_G) (rho' the unit-weight rho, not increasing
 * in the cap; form (1)), or summed with the constant of form (2) (the
 * end blocks of disjoint sets add up to at most those of a partition),
 * and sum_G b_G >= n - n_out, so
 *     Z_L >= (n - n_out) rho'(max_G capQ_G) [- constant] - maxinc n_out (L >= 1).
 * The surface-sharing profiles give rho' too (surface_sharing_profile.c):
 * sum_a w_a (cut_a(S) + lambda s_a(S)) >= H_lambda(b) with w_a <= w_max,
 * every cut pair two directed edges and the disjoint S_G owning each
 * surface face at most once, so
 *     sum_G dd(S_G) >= (sum_G 2 H_lambda(b_G) - 2 lambda sum_a w_a Surf_a) / w_max
 * and 2 H_lambda(b)/b >= its least over 1..capQ_G (srho): the same form
 * with rho' = srho / w_max and that constant, for each lambda.
 * Q = every processor is the mean degree; Q = the processors of the
 * largest caps is more where slow processors can hold few blocks (their
 * degree is then not averaged in, only their blocks' edges taken out).
 * Q runs over the figure classes by decreasing cap (each prefix a fixed
 * set of processors), the largest floor kept. Returns the least rounds x
 * theta. */
static double rounds_floor(const bctx *x, kscratch *s)
{
    if (!rounds_apply(x)) return 0;
    double q[BOUND_MAX_LEVELS], best = 0;
    rounds_quanta(x, q);
    rthreshold *r = sm_xmalloc(sizeof(rthreshold) * (size_t)(x->npc ? x->npc : 1));
    int nr = rounds_thresholds(x, s, r);
    for (int i = 0; i < nr; i++) best = fmax(best, floor_of(x, q, &r[i], r[i].nq, r[i].nout));
    free(r);
    return best * x->m->round_time;
}

/* The same floor where exactly m nodes hold blocks (level 1, its groups
 * alike): a processor of an empty node has degree 0, so the mean may run
 * over Q's processors in the m busy nodes alone, m nq_g of them, and the
 * blocks outside Q are at most m nout_g (the others' caps in those nodes).
 * Every term of the argument above holds for that set (it is fixed once
 * the mapping is), so T >= theta ceil(sum_L dq_L Z_L / (m nq_g)) for every
 * mapping leaving exactly m nodes busy: with few nodes the same cut lands
 * on fewer processors. Into fl[m], m = 1..N (0 where it does not apply:
 * then fl[0] = 0 too). */
static void rounds_floor_by_busy_nodes(const bctx *x, kscratch *s, double *fl)
{
    int N = x->nlev > 1 ? x->ngroups[1] : 0;
    for (int m = 0; m <= N; m++) fl[m] = 0;
    if (!rounds_apply(x) || N < 2 || x->ngc[1] != 1) return;
    double q[BOUND_MAX_LEVELS];
    rounds_quanta(x, q);
    rthreshold *r = sm_xmalloc(sizeof(rthreshold) * (size_t)(x->npc ? x->npc : 1));
    int nr = rounds_thresholds(x, s, r);
    for (int m = 1; m <= N; m++) {
        double best = 0;
        for (int i = 0; i < nr; i++) best = fmax(best, floor_of(x, q, &r[i], m * r[i].nq_g, m * r[i].nout_g));
        fl[m] = best * x->m->round_time;
    }
    free(r);
}

/* The boundary variant level L reads under a piece's variant: 0 and 1
 * (Loomis-Whitney's forms, the exact profile) at every level; from 2 on,
 * a pair of surface-sharing profiles (surface_sharing_profile.c), one for
 * the processors (level 0) and one for nodes and tree groups: each
 * level's constant is its own, so each may take its own lambda. With
 * nodes, the processors take only the lambda >= 1/2 (their small groups
 * gain nothing from less: measured on bench_comm_nodes), which keeps the
 * pairs to 5 x 9. */
#define SURFACE_PROC_CHOICES 5

static int surface_proc_choices(const bctx *x)
{
    return x->nlev > 1 && x->nsurf > SURFACE_PROC_CHOICES ? SURFACE_PROC_CHOICES : x->nsurf;
}

static int surface_variants(const bctx *x)
{
    return x->nsurf ? surface_proc_choices(x) * (x->nlev > 1 ? x->nsurf : 1) : 0;
}

static int level_variant(const bctx *x, int variant, int L)
{
    if (variant < 2 || x->nsurf == 0) return variant;
    int k = variant - 2, n0 = surface_proc_choices(x);
    return 2 + (L == 0 ? x->nsurf - n0 + k % n0 : k / n0);
}

/* Integer group counts at a level whose groups all have the same cap c
 * blocks (at t2): the knapsack charges that level
 * 1/2 de rho(c) per block, as if the grid were tiled by n/c ideal groups
 * of c blocks. With h0 concave and h0(0) = 0 (bound_h_concave), the
 * least of sum_G h0(b_G) over 0 <= b_G <= c with sum_G b_G = n is at a
 * vertex of that polytope, where at most one b_G lies strictly between 0
 * and c: floor(n/c) h0(c) + h0(n mod c). So the level's cut is at least
 * 1/2 of that (less the constant of (2) for variant 1, which piece()
 * subtracts once), and as every processor pays the same rate at that
 * level, the knapsack's charge for it is the rate times all cells: the
 * difference is added. Returns it (>= 0). */
static double groups_concave_gain(const bctx *x, const kscratch *s, int variant, int skip)
{
    if (!x->integer_groups || !x->has_edges || x->nax == 0 || variant >= 2) return 0;
    double gain = 0;
    for (int L = 0; L < x->nlev; L++) {
        double de = x->e[L] - (L ? x->e[L - 1] : 0);
        if (de <= 0 || L == skip) continue;
        double c = -1;
        int same = 1;
        if (L == 0) {
            for (int i = 0; i < x->npc && same; i++) {
                if (c < 0) c = s->capb[i];
                else if (s->capb[i] != c) same = 0;
            }
        } else {
            for (int j = 0; j < x->ngc[L] && same; j++) {
                if (c < 0) c = s->gcap[L][j];
                else if (s->gcap[L][j] != c) same = 0;
            }
        }
        if (!same || c < 1 || c >= x->n) continue;
        c = floor(c);
        double k = floor(x->n / c), r = x->n - k * c;
        double vertex = k * bound_h_concave(x, c, variant) + bound_h_concave(x, r, variant);
        double charged = bound_rho(x, c, variant) * x->X / x->dmax;
        if (vertex > charged) gain += 0.5 * de * (vertex - charged);
    }
    return gain;
}

/* What one cell on processor p costs at least in an interval from t1
 * (caps at t2 in s): its figures, the chord of its idle charge under
 * -unused off, and with communication the rate of every link level but
 * skip (-1: none). The knapsack's item cost. */
static double cell_cost(const bctx *x, const kscratch *s, int p, double t1, int comm, int variant, int skip)
{
    int f = x->pc_of[p];
    double capc = s->capc[f], capb = s->capb[f], cost;
    if (x->prof[p] >= 0) {
        int cb = (int)capb;
        double gm = cb > 0 ? x->pgmin[x->prof[p]][cb] : 0;
        cost = gm / (gm >= 0 ? x->dmax : x->dmin); /* b_p within cells/d_max..cells/d_min */
    } else {
        cost = x->a[p];
    }
    if (!x->m->unused_idle && capc > 0) cost += x->pidle[p] * t1 / capc;
    if (comm && x->P > 1)
        for (int L = 0; L < x->nlev; L++) {
            double de = x->e[L] - (L ? x->e[L - 1] : 0);
            if (de <= 0 || L == skip) continue;
            double cap = L ? s->gcap[L][x->gc_of[L][x->group[L][p]]] : capb;
            cost += 0.5 * de * bound_rho(x, cap, level_variant(x, variant, L)) / x->dmax;
        }
    return cost;
}

typedef struct { double cost, cap; } member;

static int by_member_cost(const void *p, const void *q)
{
    const member *a = p, *b = q;
    return (a->cost > b->cost) - (a->cost < b->cost);
}

/* The members of level L's one group class (its representative group),
 * cheapest cell cost first; *nm their count, *cap_sum (if asked) their
 * caps summed in member order. The caller frees. */
static member *group_members_by_cost(const bctx *x, const kscratch *s, double t1, int variant, int L, int *nm_out,
                                     double *cap_sum)
{
    int g0 = x->gc_rep[L][0], k0 = x->gm_off[L][g0], nm = x->gm_off[L][g0 + 1] - k0;
    member *mem = sm_xmalloc(sizeof(member) * (size_t)(nm ? nm : 1));
    double sum = 0;
    for (int i = 0; i < nm; i++) {
        int p = x->gm[L][k0 + i];
        mem[i].cost = cell_cost(x, s, p, t1, 1, variant, L);
        mem[i].cap = s->capc[x->pc_of[p]];
        sum += mem[i].cap;
    }
    qsort(mem, (size_t)nm, sizeof(member), by_member_cost);
    *nm_out = nm;
    if (cap_sum) *cap_sum = sum;
    return mem;
}

/* The busy nodes' rounds floor (rounds_floor_by_busy_nodes, filled by
 * piece_best for the interval): m busy nodes at level 1 need a makespan of
 * s->busy_floor[m]; past the interval's end no such mapping lies in it,
 * and below it idle power is priced from that floor. */
static int busy_nodes_excluded(const kscratch *s, int L, int m)
{
    return L == 1 && s->busy_on && s->busy_floor[m] > s->busy_t2 * (1 + 1e-9);
}

static double busy_nodes_idle(const kscratch *s, int L, int m, double t1)
{
    return L == 1 && s->busy_on && s->busy_floor[m] > t1 ? s->idle_rate * (s->busy_floor[m] - t1) : 0;
}

/* Whole groups at level L (>= 1) whose groups are all alike (one group
 * class, so the same members and caps; blocks of equal cells). A mapping
 * with makespan in the interval leaves some m groups non-empty. Its cells
 * on the processors of a group G cost at least g(y_G), g the cheapest-first
 * fill of y cells over one group's members at their cell costs without
 * level L's rate: convex, g(0) = 0, so over the m non-empty groups they cost
 * at least m g(X/m) (Jensen). Its level-L cut is at least 1/2 sum_G h(b_G)
 * over those groups, 1 <= b_G <= c, sum b_G = n, and with h0 concave
 * (bound_h_concave) that sum is least at a vertex: j groups at c, m-1-j
 * at one block, one between (the least over j is at an end of its range,
 * the sum being concave in j); and at least the fractional charge
 * rho(c) X/d_max. So every such mapping costs at least the least over m of
 *     m g(X/m) + 1/2 de_L max(vertex, rho(c) X/d_max)
 * (other levels at their rates). Unlike the knapsack, where every
 * processor may take cells while the cut is priced as full groups, cells
 * spread over more groups pay the boundaries of more groups. Returns that
 * least, or -INFINITY where it does not apply. */
static double whole_groups(const bctx *x, const kscratch *s, double t1, int variant, int L)
{
    double de = x->e[L] - x->e[L - 1];
    if (!x->integer_groups || de <= 0 || x->ngc[L] != 1 || x->dmin != x->dmax || variant >= 2) return -INFINITY;
    double c = floor(s->gcap[L][0]);
    int N = x->ngroups[L];
    if (c < 2 || c >= x->n || N < 1) return -INFINITY;
    int nm;
    double gcells;
    member *mem = group_members_by_cost(x, s, t1, variant, L, &nm, &gcells);
    double n = x->n, h1 = bound_h_concave(x, 1, variant), hc = bound_h_concave(x, c, variant);
    double frac = bound_rho(x, c, variant) * x->X / x->dmax;
    double best = INFINITY;
    for (int m = (int)ceil(n / c - 1e-9); m <= N && m <= x->n; m++) {
        double y = x->X / m;
        if (y > gcells * (1 + 1e-12) || busy_nodes_excluded(s, L, m)) continue;
        double g = 0, left = y;
        for (int i = 0; i < nm && left > 0; i++) {
            double take = fmin(left, mem[i].cap);
            g += take * mem[i].cost;
            left -= take;
        }
        /* rem = n - m + 1 - j (c - 1) in [1, c]. */
        double jhi = floor((n - m) / (c - 1)), jlo = ceil((n - m + 1 - c) / (c - 1));
        if (jlo < 0) jlo = 0;
        if (jhi > m - 1) jhi = m - 1;
        double vert = INFINITY;
        for (int e = 0; e < 2; e++) {
            double j = e ? jhi : jlo;
            if (j < jlo || j > jhi) continue;
            double rem = n - m + 1 - j * (c - 1);
            vert = fmin(vert, j * hc + (m - 1 - j) * h1 + bound_h_concave(x, rem, variant));
        }
        if (!isfinite(vert)) continue;
        best = fmin(best, m * g + 0.5 * de * fmax(vert, frac) + busy_nodes_idle(s, L, m, t1));
    }
    free(mem);
    return isfinite(best) ? best : -INFINITY;
}

/* The lower convex hull of phi over b = lo..c (up to its first infinite
 * value) into hull; returns its number of points. */
static int hull_build(const double *phi, int *hull, int lo, int c)
{
    int nh = 0;
    for (int b = lo; b <= c; b++) {
        if (!isfinite(phi[b])) break;
        while (nh >= 2) {
            int a = hull[nh - 2], m = hull[nh - 1];
            /* drop m if it lies on or above the chord a..b */
            if ((phi[m] - phi[a]) * (b - a) >= (phi[b] - phi[a]) * (m - a)) nh--;
            else break;
        }
        hull[nh++] = b;
    }
    return nh;
}

/* k times that hull at t; -INFINITY where t is outside it. */
static double hull_at(const double *phi, const int *hull, int nh, double t, int k)
{
    if (nh == 0 || t < hull[0] || t > hull[nh - 1]) return -INFINITY;
    if (nh == 1) return k * phi[hull[0]];
    int lo = 0, hi = nh - 1; /* hull[lo] <= t <= hull[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (hull[mid] <= t) lo = mid;
        else hi = mid;
    }
    int a = hull[lo], b2 = hull[hi];
    return k * (phi[a] + (phi[b2] - phi[a]) * (t - a) / (b2 - a));
}

/* The same groups by Lagrangian duality: a mapping puts b_G blocks on each
 * of the N alike groups (0 <= b_G <= c, sum b_G = n) and costs at least
 * sum_G phi(b_G), phi(b) = g(b d) + 1/2 de_L h(b) (g as in whole_groups,
 * h any lower bound on one set's boundary: bound_h_set, no concavity
 * needed), phi(0) = 0. For every mu,
 *     sum_G phi(b_G) >= N min_b (phi(b) - mu b) + mu n,
 * and the largest of these over mu is N phi**(n/N), phi** the lower
 * convex hull of the points (b, phi(b)), b = 0..c (a hull walk over the
 * integers); and with the m groups that hold blocks (1..c each), m
 * phi1**(n/m), phi1** the hull over b = 1..c, least over m. It sees that
 * spreading cells over more groups than their caps need pays more
 * boundary, while the knapsack lets every processor take cells and prices
 * the cut as full groups. Groups of up to 8192 blocks (cost linear in c).
 * On small grids (N (n + 1) (c + 1) <= GROUPS_EXACT_WORK) also the least
 * of sum_G phi(b_G) itself over integer vectors, N min-plus convolutions
 * of phi (the exact split): above the hull where phi is not convex (a
 * group of one block against a full one). Returns -INFINITY where it does
 * not apply. */
#define GROUPS_EXACT_WORK 1e4 /* N (n + 1) (c + 1): the exact split of small grids */

static double groups_dual(const bctx *x, const kscratch *s, double t1, int variant, int L)
{
    double de = x->e[L] - x->e[L - 1];
    if (!x->integer_groups || de <= 0 || x->ngc[L] != 1 || x->dmin != x->dmax) return -INFINITY;
    double cb = floor(s->gcap[L][0]);
    int N = x->ngroups[L];
    int hv = level_variant(x, variant, L);
    if (cb < 2 || cb >= x->n || cb > x->hset_n || !x->hset[hv] || N < 2) return -INFINITY;
    int c = (int)cb, nm;
    member *mem = group_members_by_cost(x, s, t1, variant, L, &nm, NULL);
    /* phi at b = 0..c, then the lower hull (monotone chain). */
    double *phi = sm_xmalloc(sizeof(double) * (size_t)(c + 1));
    int *hull = sm_xmalloc(sizeof(int) * (size_t)(c + 1));
    phi[0] = 0;
    double g = 0, filled = 0;
    int i = 0;
    for (int b = 1; b <= c; b++) {
        double want = b * x->dmax;
        while (filled < want && i < nm) { /* cheapest member first, up to its cap */
            double take = fmin(want - filled, mem[i].cap);
            g += take * mem[i].cost;
            filled += take;
            mem[i].cap -= take;
            if (mem[i].cap <= 0) i++;
        }
        phi[b] = filled < want * (1 - 1e-12) ? INFINITY : g + 0.5 * de * x->hset[hv][b];
    }
    /* Over all N groups (empty ones at phi(0) = 0): N phi**(n/N). */
    double v = hull_at(phi, hull, hull_build(phi, hull, 0, c), (double)x->n / N, N);
    /* And with the number m of groups that hold blocks: those m hold
     * 1..c blocks each, n in all, so they cost at least m phi1**(n/m), phi1**
     * the hull over b = 1..c; least over m (the dual alone lets a fraction
     * of a group hold cells). */
    double bm = INFINITY;
    int nh1 = hull_build(phi, hull, 1, c);
    for (int m = (int)ceil((double)x->n / c - 1e-9); m <= N && m <= x->n; m++) {
        if (busy_nodes_excluded(s, L, m)) continue;
        double h = hull_at(phi, hull, nh1, (double)x->n / m, m);
        if (h > -INFINITY) bm = fmin(bm, h + busy_nodes_idle(s, L, m, t1)); /* else m groups cannot hold the grid */
    }
    if (bm < INFINITY) v = fmax(v, bm);
    /* Small grids: the least of sum_G phi(b_G) itself over integer blocks
     * per group (0 <= b_G <= c, sum n), by N min-plus convolutions of phi:
     * no hull, so a group of one block is not priced as a fraction of a
     * full one's cut (every mapping's blocks per group are such a vector). */
    if (x->group_split && (double)N * (x->n + 1) * (c + 1) <= GROUPS_EXACT_WORK) {
        double *cur = sm_xmalloc(sizeof(double) * (size_t)(x->n + 1));
        double *nxt = sm_xmalloc(sizeof(double) * (size_t)(x->n + 1));
        for (int t = 0; t <= x->n; t++) cur[t] = t ? INFINITY : 0;
        for (int k = 0; k < N; k++) {
            for (int t = 0; t <= x->n; t++) {
                double best = INFINITY;
                for (int b = 0; b <= c && b <= t; b++)
                    if (cur[t - b] + phi[b] < best) best = cur[t - b] + phi[b];
                nxt[t] = best;
            }
            double *tmp = cur; cur = nxt; nxt = tmp;
        }
        if (isfinite(cur[x->n])) v = fmax(v, cur[x->n]);
        free(cur); free(nxt);
    }
    free(phi); free(hull); free(mem);
    return v;
}

/* The same groups, sum_G phi(b_G) bounded exactly at its least instead of
 * through phi's convex hull. Take phi(b) = g(b d) + 1/2 de_L h0(b) over
 * real 0 <= b <= c (g as in whole_groups, h0 = bound_h_concave, so
 * phi(0) = 0). g is linear between its breakpoints beta_j, the blocks at
 * which the fill passes from one cell cost to the next (members of equal
 * cost merged; beta_0 = 0, the last = c), and h0 is concave, so phi is
 * concave on each [beta_j, beta_j+1] (also on [0, beta_1]: h0(0) = 0).
 * Take any blocks per group b_G, sum_G b_G = n, and fix for every G a
 * segment holding b_G. On the product of those segments cut by
 * sum b_G = n (a polytope holding b) the sum is concave, so at b it is at
 * least its value at some vertex of that polytope, and at a vertex every
 * b_G but at most one sits at an end of its segment. So sum_G phi(b_G) is
 * at least the least, over counts k_j of groups at beta_j (j >= 1; the
 * others empty) and one free group at r = n - sum_j k_j beta_j in [0, c],
 * with sum_j k_j + [r > 0] <= N, of sum_j k_j phi(beta_j) + phi(r). A
 * mapping's blocks per group are such a b, so its cells and level-L cut
 * cost at least that. Where the hull is below phi (h0 concave
 * between the breakpoints: a chord through a group of one block and a
 * full one) this is above the dual. Enumerated: the counts of all but
 * the last breakpoint (at most 2e4 vectors, else not applied); the last
 * count then takes the one or two values that leave r in [0, c].
 * Returns -INFINITY where it does not apply. */
typedef struct {
    const member *mem;
    int nm;
    double d, half_de;
    int variant;
} vphi;

static double vphi_at(const bctx *x, const vphi *f, double b)
{
    double left = b * f->d, g = 0;
    for (int i = 0; i < f->nm && left > 0; i++) {
        double take = fmin(left, f->mem[i].cap);
        g += take * f->mem[i].cost;
        left -= take;
    }
    if (left > 1e-9 * b * f->d) return INFINITY; /* more cells than the members can hold */
    return g + f->half_de * bound_h_concave(x, b, f->variant);
}

#define VERTEX_MAX_BREAKS 4
#define VERTEX_MAX_VECTORS 20000.0

static double groups_vertices(const bctx *x, const kscratch *s, double t1, int variant, int L)
{
    double de = x->e[L] - x->e[L - 1];
    if (!x->integer_groups || !x->group_vertices || de <= 0 || x->ngc[L] != 1 || x->dmin != x->dmax ||
        variant >= 2)
        return -INFINITY;
    double c = floor(s->gcap[L][0]);
    int N = x->ngroups[L];
    if (c < 2 || c >= x->n || N < 2) return -INFINITY;
    int nm;
    member *mem = group_members_by_cost(x, s, t1, variant, L, &nm, NULL);
    /* Breakpoints in blocks: where the cell cost changes, then c. */
    double beta[VERTEX_MAX_BREAKS + 1], phib[VERTEX_MAX_BREAKS + 1];
    int J = 0, ok = 1;
    double cum = 0;
    for (int i = 0; i < nm && ok; i++) {
        cum += mem[i].cap;
        if (i + 1 < nm && mem[i + 1].cost == mem[i].cost) continue;
        double b = cum / x->dmax;
        if (b <= 0) continue; /* members that can hold nothing */
        if (b >= c) break;
        if (J == VERTEX_MAX_BREAKS) ok = 0;
        else if (J == 0 || b > beta[J - 1]) beta[J++] = b;
    }
    if (ok) {
        if (J == VERTEX_MAX_BREAKS) ok = 0;
        else beta[J++] = c;
    }
    vphi f = {mem, nm, x->dmax, 0.5 * de, variant};
    double vectors = 1;
    for (int j = 0; j + 1 < J && ok; j++) vectors *= fmin(N + 1.0, floor(x->n / beta[j]) + 1);
    if (!ok || vectors > VERTEX_MAX_VECTORS) {
        free(mem);
        return -INFINITY;
    }
    for (int j = 0; j < J; j++) phib[j] = vphi_at(x, &f, beta[j]);
    /* Odometer over k_0..k_{J-2}; k_{J-1} from the blocks left. */
    int k[VERTEX_MAX_BREAKS] = {0};
    double best = INFINITY, n = x->n, last = beta[J - 1];
    for (;;) {
        double used = 0, cost = 0;
        int cnt = 0;
        for (int j = 0; j + 1 < J; j++) {
            used += k[j] * beta[j];
            cost += k[j] * phib[j];
            cnt += k[j];
        }
        if (used <= n * (1 + 1e-12) && cnt <= N) {
            double rest = fmax(0, n - used);
            double klo = fmax(0, ceil((rest - c) / last - 1e-9)), khi = floor(rest / last + 1e-9);
            for (double kl = klo; kl <= khi && kl <= klo + 1; kl++) {
                double r = rest - kl * last;
                if (r < 0) r = 0;
                if (r > c) continue;
                if (cnt + kl + (r > 1e-9 ? 1 : 0) > N) continue;
                double v = cost + kl * phib[J - 1] + (r > 1e-9 ? vphi_at(x, &f, r) : 0);
                if (v < best) best = v;
            }
        }
        int j = 0;
        while (j + 1 < J) {
            k[j]++;
            double u = 0;
            int cn = 0;
            for (int i = 0; i + 1 < J; i++) { u += k[i] * beta[i]; cn += k[i]; }
            if (u <= n * (1 + 1e-12) && cn <= N) break;
            k[j] = 0;
            j++;
        }
        if (j + 1 >= J) break;
    }
    free(mem);
    return isfinite(best) ? best : -INFINITY;
}

static double piece(const bctx *x, double t1, double t2, int comm, int variant, kscratch *s, double *teff)
{
    caps_at(x, t2, s);
    double sum = 0, idle = 0, konst = 0;
    for (int c = 0; c < x->ncls; c++) sum += s->capc[x->pc_of[x->cls_rep[c]]] * x->cls_mult[c];
    if (sum < x->X * (1 - 1e-12)) return INFINITY;
    if (comm && x->P > 1) {
        /* Every mapping here has T >= its rounds x theta. */
        double tr = rounds_floor(x, s);
        if (tr > t2 * (1 + 1e-9)) return INFINITY;
        t1 = fmax(t1, tr);
    }
    if (teff) *teff = t1;
    int unused_idle = x->m->unused_idle;
    /* One item per class: its representative's cost per cell, the caps of
     * all its processors. */
    for (int c = 0; c < x->ncls; c++) {
        int p = x->cls_rep[c], f = x->pc_of[p];
        if (unused_idle) idle += x->pidle[p] * x->cls_mult[c];
        s->items[c] = (kitem){cell_cost(x, s, p, t1, comm, variant, -1), s->capc[f] * x->cls_mult[c]};
    }
    if (comm && x->P > 1 && variant >= 1)
        for (int L = 0; L < x->nlev; L++) {
            double de = x->e[L] - (L ? x->e[L - 1] : 0);
            if (de > 0) konst += 0.5 * de * bound_variant_const(x, level_variant(x, variant, L));
        }
    s->idle_rate = unused_idle ? idle : 0;
    int nitems = merge_costs(s->items, x->ncls, s);
    qsort(s->items, (size_t)nitems, sizeof(kitem), by_cost);
    double left = x->X, v = 0;
    for (int i = 0; i < nitems && left > 0; i++) {
        double take = fmin(left, s->items[i].cap);
        v += take * s->items[i].cost;
        left -= take;
    }
    if (comm && x->P > 1) {
        v += groups_concave_gain(x, s, variant, -1);
        /* Each level of alike groups priced by whole groups instead: each
         * bound holds, the larger is kept. */
        for (int L = 1; L < x->nlev; L++) {
            if (!x->whole_groups) break;
            double w = fmax(whole_groups(x, s, t1, variant, L), groups_dual(x, s, t1, variant, L));
            w = fmax(w, groups_vertices(x, s, t1, variant, L));
            if (w > -INFINITY) v = fmax(v, w + groups_concave_gain(x, s, variant, L));
        }
    }
    return v + idle * t1 - konst;
}

static double piece_best(const bctx *x, double t1, double t2, int comm, kscratch *s, double *teff)
{
    s->busy_on = 0;
    if (comm && s->busy_floor && x->whole_groups && x->integer_groups) {
        /* Every mapping leaves some m busy nodes, m >= n / (a node's cap):
         * its makespan is at least the least of their floors. */
        caps_at(x, t2, s);
        rounds_floor_by_busy_nodes(x, s, s->busy_floor);
        double c = floor(s->gcap[1][0]), least = INFINITY;
        int N = x->ngroups[1];
        if (s->busy_floor[0] == 0 && s->busy_floor[N] > 0 && c >= 1) {
            s->busy_on = 1;
            s->busy_t2 = t2;
            for (int m = (int)ceil(x->n / c - 1e-9); m <= N; m++)
                if (!busy_nodes_excluded(s, 1, m)) least = fmin(least, s->busy_floor[m]);
            if (!isfinite(least)) return INFINITY;
            t1 = fmax(t1, least);
        }
    }
    *teff = t1;
    double v = piece(x, t1, t2, comm, 0, s, teff);
    if (comm && isfinite(v))
        for (int var = 1; var < 2 + surface_variants(x); var++)
            v = fmax(v, piece(x, t1, t2, comm, var, s, NULL));
    return v;
}

typedef struct { double t1, t2, v, te; } tpiece;

/* The least bound over a cover of [lo, hi], refined where it is least. */
double bound_knapsack(const bctx *x, double lo, double hi, int comm, int *npieces,
                             double *tbest, kscratch *s)
{
    int cap = BOUND_PIECES + 2 * BOUND_SPLITS + 2, np = 0;
    tpiece *pc = sm_xmalloc(sizeof(tpiece) * (size_t)cap);
    int k = hi > lo * (1 + 1e-12) ? BOUND_PIECES : 1;
    double r = pow(hi / lo, 1.0 / k);
    for (int i = 0; i < k; i++) {
        double a = lo * pow(r, i), b = i == k - 1 ? hi : lo * pow(r, i + 1);
        pc[np].t1 = a;
        pc[np].t2 = b;
        pc[np].v = piece_best(x, a, b, comm, s, &pc[np].te);
        np++;
    }
    for (int it = 0; it < BOUND_SPLITS && k > 1; it++) {
        int best = 0;
        for (int i = 1; i < np; i++)
            if (pc[i].v < pc[best].v) best = i;
        tpiece q = pc[best];
        if (!isfinite(q.v) || q.t2 <= q.t1 * (1 + 1e-9)) break;
        double mid = sqrt(q.t1 * q.t2);
        pc[best] = (tpiece){q.t1, mid, 0, q.t1};
        pc[best].v = piece_best(x, q.t1, mid, comm, s, &pc[best].te);
        pc[np] = (tpiece){mid, q.t2, 0, mid};
        pc[np].v = piece_best(x, mid, q.t2, comm, s, &pc[np].te);
        np++;
    }
    double v = INFINITY;
    for (int i = 0; i < np; i++)
        if (pc[i].v < v) { v = pc[i].v; *tbest = pc[i].te; }
    *npieces = np;
    free(pc);
    return v;
}
