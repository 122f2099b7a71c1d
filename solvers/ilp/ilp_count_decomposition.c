/* ilp_count_decomposition.c - the ILP decomposed by block counts.
 *
 * With blocks of equal cells, neighbour pairs of equal halos and uniform
 * links, a mapping's energy is a function of its count vector (blocks
 * per processor: dynamic, static, idle) plus the price of its cut. The cut
 * of a count vector c is bounded below by the grid's exact
 * edge-isoperimetric profile f (core/bound/edge_isoperimetric.c): every part p has at least
 * f(c_p) boundary pairs and each cut pair bounds two parts, and the union
 * of any parts S has at least f(c_S) boundary pairs, all of them cut. So
 * every count vector has a lower bound L(c) on the energy of any mapping
 * with those counts (the rounds, too, are at least the quanta of the
 * busiest part's boundary). Count vectors are visited by increasing L;
 * once L reaches the incumbent the incumbent is proven optimal. A vector
 * below it is solved as a subproblem: the full model with the counts
 * fixed and the cut bound as a row, cut off at the incumbent. Identical
 * processors take their counts in non-increasing order (orbit fixing).
 * The bound reported while it runs is the least L of the vectors still
 * open. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ilp_count_decomposition.h"
#include "core/bound/edge_isoperimetric.h"

#define COUNTS_MAX_VECTORS 2000000
#define COUNTS_MAX_PROCS 8

typedef struct {
    double lb;         /* energy bound of the vector */
    int cut;           /* cut-pair bound */
    int first;         /* counts at vecs[first .. first+P) */
} cvec;

struct ilp_counts {
    int n, P;
    int *f;            /* isoperimetric profile */
    int exact_profile;
    double pair_energy, theta;
    int64_t pair_quanta;
    double *block_energy; /* per processor: dynamic + static - idle credit of one block */
    double *block_time;
    double *pidle;
    int *maxc;            /* most blocks a processor can hold (deadline, memory) */
    int *same_prev;       /* identical to the previous processor */
    cvec *v;
    int nv, cap;
    int *counts;
    int ncounts, capcounts;
};

static int same_kind(const sm_topo *t, int p, int q)
{
    if (t->procs[p].type != t->procs[q].type || t->procs[p].state != t->procs[q].state) return 0;
    return ilp_links_alike(t, p, q);
}

ilp_counts *ilp_counts_new(const sm_solver *s, const ilp_state *st)
{
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    int n = g->ntasks, P = t->nprocs;
    if (P < 2 || P > COUNTS_MAX_PROCS || n < 2) return NULL;
    /* Uniform links. */
    double tl = -1, el = -1;
    for (int p = 0; p < P; p++)
        for (int q = 0; q < P; q++) {
            if (p == q) continue;
            double a, b;
            sm_topo_link(t, p, q, &a, &b);
            if (tl < 0) { tl = a; el = b; }
            else if (a != tl || b != el) return NULL;
        }
    /* Equal blocks and equal halos both ways. */
    for (int u = 1; u < n; u++)
        if (g->task_cells[u] != g->task_cells[0]) return NULL;
    int64_t halo = -1;
    for (int i = 0; i < g->nedges; i++) {
        if (halo < 0) halo = g->edges[i].cells;
        else if (g->edges[i].cells != halo) return NULL;
    }
    if (halo < 0) return NULL;
    /* Every neighbour pair sends both ways (7pt, 5pt, 27pt: symmetric). */
    if (g->nedges != g->nbr_off[n]) return NULL;
    (void)st;
    /* The processors' limits and the size of the enumeration. */
    const sm_model *m = &s->model;
    double d = (double)g->task_cells[0];
    int *maxc = sm_xmalloc(sizeof(int) * (size_t)P);
    double size = 1;
    for (int p = 0; p < P; p++) {
        const sm_params *pa = sm_topo_proc_params(t, p);
        double lim = n;
        if (m->has_deadline) lim = fmin(lim, floor(m->deadline * (1 + 1e-9) / (pa->time_per_cell * d) + 1e-9));
        if (pa->memory > 0) lim = fmin(lim, floor(pa->memory / (d * pa->bytes_per_cell) + 1e-9));
        maxc[p] = lim < 0 ? 0 : (int)lim;
        size *= maxc[p] + 1;
    }
    if (size / (P > 2 ? (double)n : 1) > COUNTS_MAX_VECTORS * 8.0) {
        free(maxc);
        return NULL;
    }
    int exact;
    int *f = sm_iso_profile(g, &exact);
    if (!f) {
        free(maxc);
        return NULL;
    }
    ilp_counts *c = sm_xcalloc(1, sizeof *c);
    c->n = n;
    c->P = P;
    c->f = f;
    c->exact_profile = exact;
    c->maxc = maxc;
    c->pair_energy = 2.0 * (double)halo * el;
    c->pair_quanta = 2 * sm_quanta((double)halo * tl, m->round_time);
    c->theta = m->round_time;
    c->block_energy = sm_xmalloc(sizeof(double) * (size_t)P);
    c->block_time = sm_xmalloc(sizeof(double) * (size_t)P);
    c->pidle = sm_xmalloc(sizeof(double) * (size_t)P);
    c->same_prev = sm_xcalloc((size_t)P, sizeof(int));
    for (int p = 0; p < P; p++) {
        const sm_params *pa = sm_topo_proc_params(t, p);
        c->block_energy[p] = d * (pa->energy_per_cell + (pa->p0 - pa->p_idle) * pa->time_per_cell);
        c->block_time[p] = d * pa->time_per_cell;
        c->pidle[p] = pa->p_idle;
        c->same_prev[p] = p > 0 && same_kind(t, p - 1, p);
    }
    return c;
}

void ilp_counts_free(ilp_counts *c)
{
    if (!c) return;
    free(c->f); free(c->maxc); free(c->block_energy); free(c->block_time);
    free(c->pidle); free(c->same_prev); free(c->v); free(c->counts);
    free(c);
}

/* The cut bound of a count vector: half the parts' boundaries, and the
 * boundary of every union of parts. */
static int cut_bound(const ilp_counts *c, const int *k)
{
    int P = c->P, half = 0;
    for (int p = 0; p < P; p++) half += c->f[k[p]];
    int best = (half + 1) / 2;
    for (unsigned S = 1; S + 1 < (1u << P); S++) {
        int sz = 0;
        for (int p = 0; p < P; p++)
            if (S >> p & 1) sz += k[p];
        if (c->f[sz] > best) best = c->f[sz];
    }
    return best;
}

/* Lower bound on the energy of any mapping with counts k, or INFINITY
 * when none meets the deadline. */
static double vector_bound(const ilp_counts *c, const sm_model *m, const int *k, int *cut)
{
    double fixed = 0, comp = 0, pid = 0;
    int busiest = 0;
    for (int p = 0; p < c->P; p++) {
        fixed += k[p] * c->block_energy[p];
        comp = fmax(comp, k[p] * c->block_time[p]);
        if (k[p] > 0 || m->unused_idle) pid += c->pidle[p];
        if (c->f[k[p]] > busiest) busiest = c->f[k[p]];
    }
    *cut = cut_bound(c, k);
    double comm = c->theta * (double)(c->pair_quanta * busiest);
    double T = m->overlap ? fmax(comp, comm) : comp + comm;
    if (m->has_deadline && T > m->deadline * (1 + 1e-9)) return INFINITY;
    return fixed + pid * T + c->pair_energy * *cut;
}

static void push(ilp_counts *c, const int *k, double lb, int cut)
{
    if (c->nv == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        c->v = sm_xrealloc(c->v, sizeof(cvec) * (size_t)c->cap);
    }
    if (c->ncounts + c->P > c->capcounts) {
        c->capcounts = c->capcounts ? 2 * c->capcounts : 1024 * c->P;
        c->counts = sm_xrealloc(c->counts, sizeof(int) * (size_t)c->capcounts);
    }
    memcpy(c->counts + c->ncounts, k, sizeof(int) * (size_t)c->P);
    c->v[c->nv++] = (cvec){lb, cut, c->ncounts};
    c->ncounts += c->P;
}

static void enumerate(ilp_counts *c, const sm_model *m, int *k, int p, int left)
{
    if (c->nv > COUNTS_MAX_VECTORS) return;
    if (p == c->P - 1) {
        if (left > c->maxc[p]) return;
        if (c->same_prev[p] && left > k[p - 1]) return;
        k[p] = left;
        int cut;
        double lb = vector_bound(c, m, k, &cut);
        if (isfinite(lb)) push(c, k, lb, cut);
        return;
    }
    int hi = left < c->maxc[p] ? left : c->maxc[p];
    if (c->same_prev[p] && hi > k[p - 1]) hi = k[p - 1];
    for (int x = 0; x <= hi; x++) {
        k[p] = x;
        enumerate(c, m, k, p + 1, left - x);
    }
}

static int by_bound(const void *a, const void *b)
{
    const cvec *x = a, *y = b;
    return (x->lb > y->lb) - (x->lb < y->lb);
}

/* Mappings with counts k that are often optimal on a box: the blocks in
 * a lexicographic order (any axis slowest, any corner first) cut into
 * contiguous runs, the processors in every order. Offers the best; it
 * closes the vector at once when it meets the vector's bound. A better
 * one is a step; returns 1 when the solve is being cancelled. */
static int offer_runs(ilp_counts *c, ilp_state *st, const int *k)
{
    sm_solver *s = st->s;
    const sm_grid *g = s->grid;
    int n = c->n, P = c->P;
    int *order = sm_xmalloc(sizeof(int) * (size_t)n), *key = sm_xmalloc(sizeof(int) * (size_t)n);
    int perm[COUNTS_MAX_PROCS], best_seen = 0;
    static const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int ax = 0; ax < 6; ax++)
        for (int refl = 0; refl < 8; refl++) {
            /* key: axes[ax][0] slowest. */
            for (int u = 0; u < n; u++) {
                int xyz[3];
                sm_grid_coords(g, u, xyz);
                for (int a = 0; a < 3; a++)
                    if (refl >> a & 1) xyz[a] = g->spec.blocks[a] - 1 - xyz[a];
                const int *A = axes[ax];
                key[u] = (xyz[A[0]] * g->spec.blocks[A[1]] + xyz[A[1]]) * g->spec.blocks[A[2]] + xyz[A[2]];
                order[key[u]] = u;
            }
            /* Processor orders: Heap's permutations would do; P is small,
             * so walk all P^P tuples and keep the permutations. */
            long tuples = 1;
            for (int p = 0; p < P; p++) tuples *= P;
            if (tuples > 50000) tuples = 1; /* identity only */
            for (long t = 0; t < tuples; t++) {
                long r = t;
                unsigned used = 0;
                int ok = 1;
                for (int p = 0; p < P; p++) {
                    perm[p] = tuples == 1 ? p : (int)(r % P);
                    r /= P;
                    if (used >> perm[p] & 1) ok = 0;
                    used |= 1u << perm[p];
                }
                if (!ok) continue;
                int at = 0;
                for (int j = 0; j < P; j++)
                    for (int b = 0; b < k[perm[j]]; b++) st->map[order[at++]] = perm[j];
                sm_eval ev;
                sm_solver_evaluate(s, st->map, &ev);
                if (ilp_offer(st, st->map, &ev)) best_seen = 1;
            }
        }
    free(order);
    free(key);
    return best_seen && ilp_step_incumbent(st, "contiguous runs");
}

/* The energy to beat: a feasible best, else nothing yet. */
static double incumbent(const sm_solver *s)
{
    return s->has_best && s->best.feasible ? s->best.energy : INFINITY;
}

/* Solve the full model with counts k fixed. Returns the subproblem's
 * bound: its optimum, the cutoff when nothing beats the incumbent, or lb
 * when it was interrupted. */
static double subproblem(ilp_counts *c, ilp_state *st, const cvec *v, int *interrupted)
{
    sm_solver *s = st->s;
    lprec *lp = st->lp;
    const int *k = c->counts + v->first;
    int rows0 = get_Nrows(lp);
    int n = st->n, P = st->P;
    int *cols = sm_xmalloc(sizeof(int) * (size_t)(n > st->npairs ? n : st->npairs) + sizeof(int));
    double *vals = sm_xmalloc(sizeof(double) * (size_t)(n > st->npairs ? n : st->npairs) + sizeof(double));
    for (int p = 0; p < P; p++) {
        int nn = 0;
        for (int u = 0; u < n; u++)
            if (st->x[u * P + p]) { cols[nn] = st->x[u * P + p]; vals[nn++] = 1; }
        add_constraintex(lp, nn, vals, cols, EQ, k[p]);
    }
    for (int i = 0; i < st->npairs; i++) { cols[i] = st->pair_base + 1 + i * st->per_pair; vals[i] = 1; }
    add_constraintex(lp, st->npairs, vals, cols, GE, v->cut);
    /* The idle price of this vector's processors. */
    double pid = 0;
    for (int p = 0; p < P; p++)
        if (k[p] > 0 || s->model.unused_idle) pid += c->pidle[p];
    double old_t = get_mat(lp, 0, st->Tcol);
    set_mat(lp, 0, st->Tcol, pid / st->TS);
    /* Only mappings that beat a feasible incumbent are of interest. */
    double cutoff = incumbent(s) * (1 - 1e-7);
    if (isfinite(cutoff)) {
        int nc = get_Ncolumns(lp);
        REAL *row = sm_xcalloc((size_t)nc + 1, sizeof(REAL));
        for (int j = 1; j <= nc; j++) row[j] = get_mat(lp, 0, j);
        add_constraint(lp, row, LE, cutoff);
        free(row);
    }
    int rc = solve(lp);
    double bound = v->lb;
    if (rc == OPTIMAL || rc == PRESOLVED || rc == SUBOPTIMAL) {
        ilp_read_map(st, lp->best_solution + lp->rows);
        sm_eval ev;
        sm_solver_evaluate(s, st->map, &ev);
        int cancelled = st->run && ilp_run_cancelled(st->run);
        if (ilp_offer(st, st->map, &ev) && !cancelled) ilp_step_incumbent(st, "subproblem");
        if (rc != SUBOPTIMAL && !st->timed_out && !cancelled)
            bound = fmax(bound, get_working_objective(lp));
    } else if (rc == INFEASIBLE && !st->timed_out && !(st->run && ilp_run_cancelled(st->run))) {
        bound = INFINITY; /* nothing with these counts beats the incumbent */
    }
    *interrupted = st->timed_out || (st->run && ilp_run_cancelled(st->run)) || rc == SUBOPTIMAL;
    while (get_Nrows(lp) > rows0) del_constraint(lp, get_Nrows(lp));
    set_mat(lp, 0, st->Tcol, old_t);
    free(cols);
    free(vals);
    return bound;
}

void ilp_counts_solve(ilp_counts *c, ilp_state *st)
{
    sm_solver *s = st->s;
    int *k = sm_xmalloc(sizeof(int) * (size_t)c->P);
    k[0] = 0;
    enumerate(c, &s->model, k, 0, c->n);
    free(k);
    qsort(c->v, (size_t)c->nv, sizeof(cvec), by_bound);
    sm_solver_set_stat(s, "count_vectors", c->nv);
    st->decomposing = 1;
    int subs = 0, interrupted = 0;
    double open_min = INFINITY; /* bounds of vectors solved but not closed */
    int i = 0;
    for (; i < c->nv; i++) {
        /* Between subproblems lp_solve's callback is silent: tick here. */
        if (ilp_tick(st)) {
            interrupted = 1;
            break;
        }
        double inc = incumbent(s);
        st->dbound = fmin(open_min, c->v[i].lb);
        if (ilp_step_bound(st, st->dbound)) {
            interrupted = 1;
            break;
        }
        if (c->v[i].lb >= inc * (1 - 1e-9)) break;
        if (offer_runs(c, st, c->counts + c->v[i].first)) {
            interrupted = 1;
            break;
        }
        if (c->v[i].lb >= incumbent(s) * (1 - 1e-9)) break;
        ilp_report(st);
        subs++;
        sm_solver_set_stat(s, "subproblems", subs);
        double b = subproblem(c, st, &c->v[i], &interrupted);
        if (interrupted) {
            open_min = fmin(open_min, b);
            break;
        }
        /* A subproblem proves its vector costs at least b. */
        if (b < incumbent(s) * (1 - 1e-9)) open_min = fmin(open_min, b);
    }
    double inc = incumbent(s);
    double bound = i < c->nv ? fmin(open_min, c->v[i].lb) : open_min;
    bound = fmin(bound, inc); /* infinite: no vector left open */
    st->dbound = bound;
    int proven = !interrupted && (isinf(bound) || bound >= inc * (1 - 1e-9));
    const char *status;
    if (proven) status = isfinite(inc) ? "optimal" : "infeasible";
    else if (st->run && ilp_run_cancelled(st->run)) status = s->has_best ? "stopped: feasible" : "stopped";
    else status = s->has_best ? "timeout: feasible with gap" : "timeout";
    snprintf(s->status, sizeof s->status, "%s", status);
    if (isinf(st->dbound)) st->decomposing = 0; /* no finite bound to show */
    ilp_report(st);
    if (proven && isfinite(inc)) sm_solver_set_stat(s, "gap", 0);
}
