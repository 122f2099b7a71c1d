/* exact_mapping_branch_and_bound.h - an exact optimum of the model's
 * energy over every mapping of a small instance, by branch and bound
 * (issue 38 item 2: is the gap between tabu and `model bound` the bound's
 * looseness or tabu's?). A bench and test oracle: it shares no code with
 * the solvers or the bound; it reads the grid, the processors' figures
 * and the links through the model's own accessors (sm_topo_link,
 * sm_topo_proc_params, sm_quanta) and checks its answer with the model's
 * reference evaluator.
 *
 * What it models (and refuses otherwise): rounds maxdeg, idle power on
 * every processor (unused idle), overlap on or off, a deadline D, memory
 * caps. Then, with A_p = energy_per_cell + (p0 - p_idle) time_per_cell,
 *   E = sum_p A_p cells_p + T sum_p p_idle + sum_cut c_e epc(link),
 *   T = max(max_p comp_p, theta Delta) (overlap) or their sum,
 * Delta the largest processor degree of the multigraph in quanta.
 *
 * Search: blocks in id order (each block's -x, -y, -z neighbours come
 * before it), each tried on every processor, cheapest first. Symmetry:
 * nodes whose swap (slot by slot) maps every link and figure onto itself
 * are used in order of first appearance, and so are processors of one
 * node whose swap does (checked pair by pair, not assumed). Lower bound
 * of a partial mapping: its exact cost so far, plus for the blocks left
 * the larger of (1) each block on its cheapest processor with room,
 * counting its compute and its edges to placed blocks, (2) the cheapest
 * fill of the processors' remaining caps plus each block's cheapest edges
 * to placed blocks, (3) the exact optimum of the blocks left on their
 * own (compute and their edges among themselves, full caps: a Russian
 * doll search solves those suffixes first, last block first) plus each
 * block's cheapest edges to placed blocks; plus sum p_idle times the
 * largest of the makespan so far, the rounds so far and the perfectly
 * balanced makespan. Every term is a cost the completed mapping pays, so
 * a pruned branch holds no cheaper mapping: when the search ends within
 * its time limit the best mapping found is optimal (proven = 1). */
#ifndef SM_EXACT_MAPPING_BRANCH_AND_BOUND_H
#define SM_EXACT_MAPPING_BRANCH_AND_BOUND_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"

typedef struct xo_result {
    int proven;        /* 1: the search ended, the energy is the optimum */
    int found;         /* a feasible mapping at or below the start's bound */
    double energy;     /* the model's reference energy of map */
    double internal;   /* the search's own figure for it (checks the model) */
    int *map;          /* the best mapping (n entries), malloc'ed */
    long long nodes;   /* search nodes, suffixes included */
    double seconds;
    char why[160];     /* why it refused, else "" */
} xo_result;

typedef struct xo_state {
    const sm_grid *g;
    const sm_topo *t;
    const sm_model *m;
    int n, P, overlap;
    double theta, D, Pid, Tbal;
    double *A;          /* per processor: cost of a cell */
    double *tpc;        /* per processor: time of a cell */
    int64_t *cap;       /* per processor: most cells (deadline, memory) */
    int64_t dmax_deg;   /* most quanta a processor may have (deadline) */
    /* Neighbour lists per block (both directions merged): for pair k of
     * block u, the other block and, per (p of u, q of other), energy and
     * quanta. */
    int *nb_off, *nb;
    double *pe;         /* [k][p][q] */
    int64_t *pq;        /* [k][p][q] */
    int *prev_proc;     /* processor that must be used before (or -1) */
    int *node_of, *prev_node, *node_first;
    /* search state */
    int *map, *best;
    int64_t *cells, *deg;
    int *node_used;     /* blocks on each node */
    double *adj;        /* [u][p]: edges of u to placed blocks if u on p */
    double *rds;        /* rds[k]: optimum of blocks k.. alone (no idle) */
    double comp_cost, comm_cost, best_e, *tmp;
    int start, with_idle;
    long long nodes;
    double t0, limit;
    int stopped;
    int *order;         /* processors by cell cost, for the fill bound */
} xo_state;

static inline double xo_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int xo_same_params(const sm_params *a, const sm_params *b)
{
    return a->time_per_cell == b->time_per_cell && a->energy_per_cell == b->energy_per_cell && a->p0 == b->p0 &&
           a->p_idle == b->p_idle && a->memory == b->memory && a->bytes_per_cell == b->bytes_per_cell;
}

static inline int xo_same_link(const sm_topo *t, int a, int b, int c, int d)
{
    double t1, e1, t2, e2;
    sm_topo_link(t, a, b, &t1, &e1);
    sm_topo_link(t, c, d, &t2, &e2);
    return t1 == t2 && e1 == e2;
}

/* The permutation sigma (an array) maps every link onto itself. */
static inline int xo_automorphism(const sm_topo *t, const int *sigma)
{
    int P = t->nprocs;
    for (int p = 0; p < P; p++) {
        if (!xo_same_params(sm_topo_proc_params(t, p), sm_topo_proc_params(t, sigma[p]))) return 0;
        for (int q = 0; q < P; q++)
            if (p != q && !xo_same_link(t, p, q, sigma[p], sigma[q])) return 0;
    }
    return 1;
}

static inline void xo_symmetry(xo_state *s)
{
    const sm_topo *t = s->t;
    int P = s->P, N = t->nnodes;
    int *sigma = malloc(sizeof(int) * (size_t)P);
    s->node_of = malloc(sizeof(int) * (size_t)P);
    s->prev_proc = malloc(sizeof(int) * (size_t)P);
    s->prev_node = malloc(sizeof(int) * (size_t)(N + 1));
    for (int p = 0; p < P; p++) s->node_of[p] = t->procs[p].node;
    /* Processors of one node: q's predecessor is the last p < q whose
     * swap with q is an automorphism. */
    for (int q = 0; q < P; q++) {
        s->prev_proc[q] = -1;
        for (int p = q - 1; p >= 0; p--) {
            if (s->node_of[p] != s->node_of[q]) continue;
            for (int r = 0; r < P; r++) sigma[r] = r;
            sigma[p] = q;
            sigma[q] = p;
            if (xo_automorphism(t, sigma)) { s->prev_proc[q] = p; break; }
        }
    }
    /* Nodes: slot i of one onto slot i of the other. */
    for (int b = 0; b < N; b++) {
        s->prev_node[b] = -1;
        for (int a = b - 1; a >= 0 && s->prev_node[b] < 0; a--) {
            int na = 0, nb = 0, ok = 1;
            for (int r = 0; r < P; r++) sigma[r] = r;
            int *sa = malloc(sizeof(int) * (size_t)P), *sb = malloc(sizeof(int) * (size_t)P);
            for (int r = 0; r < P; r++) {
                if (s->node_of[r] == a) sa[na++] = r;
                if (s->node_of[r] == b) sb[nb++] = r;
            }
            if (na != nb || na == 0) ok = 0;
            for (int i = 0; ok && i < na; i++) { sigma[sa[i]] = sb[i]; sigma[sb[i]] = sa[i]; }
            if (ok && xo_automorphism(t, sigma)) s->prev_node[b] = a;
            free(sa);
            free(sb);
        }
    }
    free(sigma);
}

static inline int xo_setup(xo_state *s, const sm_grid *g, const sm_topo *t, const sm_model *m, char *why, size_t whylen)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->t = t;
    s->m = m;
    s->n = g->ntasks;
    s->P = t->nprocs;
    if (m->rounds != SM_ROUNDS_MAXDEG || !m->unused_idle || !m->has_deadline) {
        snprintf(why, whylen, "models rounds maxdeg, unused idle and a deadline only");
        return -1;
    }
    if (s->P > 256) { /* xo_search's candidate list holds 256 processors */
        snprintf(why, whylen, "at most 256 processors");
        return -1;
    }
    for (int k = 0; k < t->ntypes; k++)
        if (t->types[k].nprofile) {
            snprintf(why, whylen, "per-cell types only (no measured profiles)");
            return -1;
        }
    int n = s->n, P = s->P;
    s->overlap = m->overlap;
    s->theta = m->round_time;
    s->D = m->deadline * (1 + 1e-9);
    s->A = calloc((size_t)P, sizeof(double));
    s->tpc = calloc((size_t)P, sizeof(double));
    s->cap = calloc((size_t)P, sizeof(int64_t));
    double speed = 0, total = 0;
    for (int u = 0; u < n; u++) total += (double)g->task_cells[u];
    for (int p = 0; p < P; p++) {
        const sm_params *pa = sm_topo_proc_params(t, p);
        s->A[p] = pa->energy_per_cell + (pa->p0 - pa->p_idle) * pa->time_per_cell;
        s->tpc[p] = pa->time_per_cell;
        s->Pid += pa->p_idle;
        speed += 1.0 / pa->time_per_cell;
        double c = floor(s->D / pa->time_per_cell);
        if (pa->memory > 0 && pa->bytes_per_cell > 0) c = fmin(c, floor(pa->memory / pa->bytes_per_cell));
        s->cap[p] = c > 9e15 ? (int64_t)9e15 : (int64_t)c;
    }
    s->Tbal = total / speed;
    double dq = floor(s->D / s->theta + 1e-9); /* the most quanta a processor may hold */
    s->dmax_deg = dq > 9e18 ? INT64_MAX : (int64_t)dq;
    /* Neighbour pairs, both directions of each, with their cost per
     * placement. */
    s->nb_off = calloc((size_t)n + 1, sizeof(int));
    int *cnt = calloc((size_t)n, sizeof(int));
    for (int u = 0; u < n; u++) s->nb_off[u + 1] = s->nb_off[u] + (g->nbr_off[u + 1] - g->nbr_off[u]);
    int K = s->nb_off[n];
    s->nb = malloc(sizeof(int) * (size_t)(K + 1));
    s->pe = calloc((size_t)(K + 1) * (size_t)P * (size_t)P, sizeof(double));
    s->pq = calloc((size_t)(K + 1) * (size_t)P * (size_t)P, sizeof(int64_t));
    for (int u = 0; u < n; u++)
        for (int j = g->nbr_off[u]; j < g->nbr_off[u + 1]; j++) {
            int v = g->nbr[j], k = s->nb_off[u] + cnt[u]++;
            s->nb[k] = v;
            for (int i = g->inc_off[u]; i < g->inc_off[u + 1]; i++) {
                const sm_edge *e = &g->edges[g->inc[i]];
                int out = e->src == u && e->dst == v, in = e->src == v && e->dst == u;
                if (!out && !in) continue;
                for (int p = 0; p < P; p++)
                    for (int q = 0; q < P; q++) {
                        if (p == q) continue;
                        double tl, el;
                        /* u on p, v on q: the message goes src -> dst. */
                        if (out) sm_topo_link(t, p, q, &tl, &el);
                        else sm_topo_link(t, q, p, &tl, &el);
                        s->pe[((size_t)k * P + p) * P + q] += (double)e->cells * el;
                        s->pq[((size_t)k * P + p) * P + q] += sm_quanta((double)e->cells * tl, s->theta);
                    }
            }
        }
    free(cnt);
    xo_symmetry(s);
    s->map = malloc(sizeof(int) * (size_t)n);
    s->best = malloc(sizeof(int) * (size_t)n);
    s->cells = calloc((size_t)P, sizeof(int64_t));
    s->deg = calloc((size_t)P, sizeof(int64_t));
    s->node_used = calloc((size_t)t->nnodes + 1, sizeof(int));
    s->adj = calloc((size_t)n * (size_t)P, sizeof(double));
    s->rds = calloc((size_t)n + 1, sizeof(double));
    s->tmp = calloc((size_t)P * 2 + 2, sizeof(double));
    s->order = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) s->order[p] = p;
    for (int i = 1; i < P; i++) /* by cell cost, insertion sort */
        for (int j = i; j > 0 && s->A[s->order[j]] < s->A[s->order[j - 1]]; j--) {
            int x = s->order[j]; s->order[j] = s->order[j - 1]; s->order[j - 1] = x;
        }
    return 0;
}

static inline void xo_free(xo_state *s)
{
    free(s->A); free(s->tpc); free(s->cap); free(s->nb_off); free(s->nb); free(s->pe); free(s->pq);
    free(s->prev_proc); free(s->node_of); free(s->prev_node); free(s->map); free(s->best);
    free(s->cells); free(s->deg); free(s->node_used); free(s->adj); free(s->rds); free(s->tmp); free(s->order);
}

/* The makespan of the current (partial) mapping. */
static inline double xo_makespan(const xo_state *s)
{
    double c = 0;
    int64_t d = 0;
    for (int p = 0; p < s->P; p++) {
        c = fmax(c, s->tpc[p] * (double)s->cells[p]);
        if (s->deg[p] > d) d = s->deg[p];
    }
    return s->overlap ? fmax(c, s->theta * (double)d) : c + s->theta * (double)d;
}

/* Lower bound on what blocks k.. add (compute, their edges), not idle. */
static inline double xo_rest_bound(xo_state *s, int k)
{
    const sm_grid *g = s->g;
    int n = s->n, P = s->P;
    double own = 0, cross = 0;
    int64_t left = 0;
    for (int u = k; u < n; u++) {
        double d = (double)g->task_cells[u], bo = INFINITY, bc = INFINITY;
        left += g->task_cells[u];
        const double *a = s->adj + (size_t)u * P;
        for (int p = 0; p < P; p++) {
            if (s->cells[p] + g->task_cells[u] > s->cap[p]) continue; /* full: u goes elsewhere */
            if (a[p] < bc) bc = a[p];
            double c = s->A[p] * d + a[p];
            if (c < bo) bo = c;
        }
        own += bo;
        cross += bc;
    }
    /* The cheapest fill of the room left. */
    double fill = 0;
    for (int i = 0; i < P && left > 0; i++) {
        int p = s->order[i];
        int64_t room = s->cap[p] - s->cells[p];
        if (room <= 0) continue;
        int64_t take = room < left ? room : left;
        fill += s->A[p] * (double)take;
        left -= take;
    }
    if (left > 0) return INFINITY;
    double b = fmax(own, fill + cross);
    return fmax(b, s->rds[k] + cross);
}

static inline void xo_place(xo_state *s, int u, int p, int sign)
{
    const sm_grid *g = s->g;
    int P = s->P;
    double d = (double)g->task_cells[u];
    s->cells[p] += sign * g->task_cells[u];
    s->node_used[s->node_of[p]] += sign;
    s->comp_cost += sign * s->A[p] * d;
    for (int k = s->nb_off[u]; k < s->nb_off[u + 1]; k++) {
        int v = s->nb[k];
        if (v < u) {
            if (v < s->start) continue; /* outside the suffix searched */
            int q = s->map[v];
            if (q != p) {
                s->comm_cost += sign * s->pe[((size_t)k * P + p) * P + q];
                int64_t kq = s->pq[((size_t)k * P + p) * P + q];
                s->deg[p] += sign * kq;
                s->deg[q] += sign * kq;
            }
        } else {
            /* v later: its edges to u if v lands on r. */
            double *a = s->adj + (size_t)v * P;
            /* the pair from v's side: find k' at v with nb = u */
            for (int kk = s->nb_off[v]; kk < s->nb_off[v + 1]; kk++) {
                if (s->nb[kk] != u) continue;
                for (int r = 0; r < P; r++)
                    if (r != p) a[r] += sign * s->pe[((size_t)kk * P + r) * P + p];
                break;
            }
        }
    }
}

static inline void xo_search(xo_state *s, int k)
{
    if (s->stopped) return;
    if ((++s->nodes & 4095) == 0 && xo_now() - s->t0 > s->limit) { s->stopped = 1; return; }
    int n = s->n, P = s->P;
    double T = xo_makespan(s);
    if (T > s->D) return;
    if (k == n) {
        double e = s->comp_cost + s->comm_cost + (s->with_idle ? s->Pid * T : 0);
        if (e < s->best_e) {
            s->best_e = e;
            memcpy(s->best, s->map, sizeof(int) * (size_t)n);
        }
        return;
    }
    double idle = s->with_idle ? s->Pid * fmax(T, s->Tbal) : 0;
    if (s->comp_cost + s->comm_cost + idle + xo_rest_bound(s, k) >= s->best_e * (1 - 1e-12)) return;
    int u = k;
    /* Processors by what u costs there, cheapest first. */
    int cand[256], nc = 0;
    double *cost = s->tmp;
    const double *a = s->adj + (size_t)u * P;
    for (int p = 0; p < P && nc < 256; p++) {
        if (s->cells[p] + s->g->task_cells[u] > s->cap[p]) continue;
        if (s->cells[p] == 0) {
            if (s->prev_proc[p] >= 0 && s->cells[s->prev_proc[p]] == 0) continue;
            int nd = s->node_of[p];
            if (s->node_used[nd] == 0 && s->prev_node[nd] >= 0 && s->node_used[s->prev_node[nd]] == 0) continue;
        }
        cand[nc++] = p;
    }
    for (int i = 0; i < nc; i++) cost[cand[i]] = s->A[cand[i]] * (double)s->g->task_cells[u] + a[cand[i]];
    for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && cost[cand[j]] < cost[cand[j - 1]]; j--) {
            int x = cand[j]; cand[j] = cand[j - 1]; cand[j - 1] = x;
        }
    for (int i = 0; i < nc; i++) {
        int p = cand[i];
        s->map[u] = p;
        xo_place(s, u, p, +1);
        if (s->deg[p] <= s->dmax_deg) {
            int ok = 1;
            for (int kk = s->nb_off[u]; kk < s->nb_off[u + 1] && ok; kk++)
                if (s->nb[kk] < u && s->nb[kk] >= s->start && s->deg[s->map[s->nb[kk]]] > s->dmax_deg) ok = 0;
            if (ok) xo_search(s, k + 1);
        }
        xo_place(s, u, p, -1);
        if (s->stopped) return;
    }
}

/* The optimum over every mapping of g meeting m's deadline, searched for
 * at most limit seconds, starting below upper (INFINITY: none). */
static inline void xo_solve(const sm_grid *g, const sm_topo *t, const sm_model *m, double upper, double limit,
                     xo_result *out)
{
    memset(out, 0, sizeof *out);
    xo_state s;
    double t0 = xo_now();
    if (xo_setup(&s, g, t, m, out->why, sizeof out->why)) return;
    int n = s.n;
    s.t0 = t0;
    s.limit = limit;
    /* Russian dolls: blocks k.. alone, last first, without idle power. */
    for (int k = n - 1; k >= 1 && !s.stopped; k--) {
        s.start = k;
        s.with_idle = 0;
        s.best_e = INFINITY;
        memset(s.adj, 0, sizeof(double) * (size_t)n * (size_t)s.P);
        xo_search(&s, k);
        s.rds[k] = s.best_e; /* INFINITY: no room at all (then none fits) */
    }
    s.start = 0;
    s.with_idle = 1;
    s.best_e = upper;
    memset(s.adj, 0, sizeof(double) * (size_t)n * (size_t)s.P);
    int have = 0;
    if (!s.stopped) {
        double before = s.best_e;
        xo_search(&s, 0);
        have = s.best_e < before;
    }
    out->proven = !s.stopped;
    out->found = have;
    out->nodes = s.nodes;
    out->internal = have ? s.best_e : NAN;
    if (have) {
        out->map = malloc(sizeof(int) * (size_t)n);
        memcpy(out->map, s.best, sizeof(int) * (size_t)n);
        sm_eval ev;
        sm_eval_reference(g, t, m, out->map, &ev);
        out->energy = ev.feasible ? ev.energy : NAN;
    } else {
        out->energy = NAN;
    }
    out->seconds = xo_now() - t0;
    xo_free(&s);
}

#endif
