/* ilp_variables_constraints.c - the program lp_solve solves for an exact
 * mapping under the maxdeg rounds model and a deadline (SPEC 4, ilp).
 *
 * Compact model: assignment binaries x[u][p]; per neighbouring block pair
 * a cut variable z (uniform links) or ordered-pair variables y[p][q]
 * (machines whose links differ); per pair and processor w = |x_up - x_vp|
 * feeding the processor's quanta degree; R >= every degree (= rounds);
 * C >= every compute time; T >= C and T >= theta R (or C + theta R
 * without overlap). The objective is the model's energy exactly:
 * per-block dynamic + static - idle credit, T times the idle power, and
 * each cut pair's message energy. Identical processors are fixed by order
 * of first appearance; T is bounded below by perfect balance; the best
 * heuristic mapping is the warm start (its energy is the cutoff) and the
 * answer if nothing better exists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lpsolve/lp_lib.h>
#include "core/lib/strbuf.h"
#include "ilp_count_decomposition.h"
#include "ilp_dvfs_enumeration.h"
#include "ilp_shared_state.h"
#include "ilp_variables_constraints.h"

/* The most columns the program may have: lp_solve's memory grows with
 * them, and instances past it are far beyond what a branch and bound
 * finishes. */
#define ILP_MAX_VARIABLES 4000000


/* Columns are 1-based in lp_solve; the model counts them (no static
 * counter: two ILP solvers can build at once). */
static int new_col(lprec *lp, double lo, double hi, int integer, const char *name)
{
    (void)name;
    add_columnex(lp, 0, NULL, NULL);
    int c = get_Ncolumns(lp);
    set_bounds(lp, c, lo, hi);
    if (integer) set_int(lp, c, TRUE);
    return c;
}

static int same_processor_kind(const sm_solver *s, int p, int q)
{
    const sm_topo *t = s->topo;
    if (t->procs[p].type != t->procs[q].type || t->procs[p].node != t->procs[q].node ||
        t->procs[p].state != t->procs[q].state)
        return 0;
    /* Links to every third processor must match too. */
    return ilp_links_alike(t, p, q);
}

/* The best heuristic mapping under the solver's model: lb, na, dm, mm;
 * the best feasible one is the first incumbent, the least bad is shown
 * when none is feasible (step 0). */
void ilp_warm_start(sm_solver *s, ilp_state *st)
{
    static const struct { const sm_solver_ops *ops; const char *arg[3]; } runs[] = {
        {&sm_solver_lb, {"-order", "ijk", NULL}}, {&sm_solver_lb, {"-order", "jik", NULL}},
        {&sm_solver_lb, {"-order", "kij", NULL}}, {&sm_solver_dm, {NULL, NULL, NULL}},
        {&sm_solver_mm, {NULL, NULL, NULL}},      {&sm_solver_na, {"-f", "0.1", NULL}},
        {&sm_solver_na, {"-f", "0.5", NULL}},     {&sm_solver_na, {"-f", "0.9", NULL}},
        {&sm_solver_na, {"-f", "1", NULL}},
    };
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
        for (int sp = 0; sp < 2; sp++) {
            const char *argv[6];
            int argc = 0;
            for (int k = 0; k < 3 && runs[r].arg[k]; k++) argv[argc++] = runs[r].arg[k];
            argv[argc++] = "-speeds";
            argv[argc++] = sp ? "floor" : "exact";
            sm_solver *h = sm_solver_run_sub(s, runs[r].ops, NULL, argc, argv);
            if (h && h->has_best) ilp_offer(st, h->best_map, &h->best);
            sm_solver_free(h);
        }
    /* Geometric bisection over all processors and over each type alone. */
    for (int ty = -1; ty < s->topo->ntypes; ty++) {
        const char *argv[2] = {"-types", ty >= 0 ? s->topo->types[ty].name : NULL};
        sm_solver *h = sm_solver_run_sub(s, &sm_solver_rcb, NULL, ty >= 0 ? 2 : 0, argv);
        if (h && h->has_best) ilp_offer(st, h->best_map, &h->best);
        sm_solver_free(h);
    }
    /* The mapping the session had is a candidate too. */
    sm_eval ev;
    sm_solver_evaluate(s, s->start_map, &ev);
    ilp_offer(st, s->start_map, &ev);
}

int ilp_build_program(sm_solver *s, ilp_state *st, sm_err *e)
{
    const sm_grid *g = s->grid;
    const sm_topo *t = s->topo;
    const sm_model *m = &s->model;
    int n = g->ntasks, P = t->nprocs;
    st->n = n;
    st->P = P;
    /* Neighbour pairs with the cells of each direction. */
    st->pu = sm_xmalloc(sizeof(int) * (size_t)(g->nedges + 1));
    st->pv = sm_xmalloc(sizeof(int) * (size_t)(g->nedges + 1));
    st->cuv = sm_xcalloc((size_t)(g->nedges + 1), sizeof(int64_t));
    st->cvu = sm_xcalloc((size_t)(g->nedges + 1), sizeof(int64_t));
    for (int u = 0; u < n; u++)
        for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
            int v = g->nbr[k];
            if (v < u) continue;
            int i = st->npairs++;
            st->pu[i] = u;
            st->pv[i] = v;
            for (int j = g->inc_off[u]; j < g->inc_off[u + 1]; j++) {
                const sm_edge *ed = &g->edges[g->inc[j]];
                if (ed->src == u && ed->dst == v) st->cuv[i] += ed->cells;
                if (ed->src == v && ed->dst == u) st->cvu[i] += ed->cells;
            }
        }
    /* Uniform links: every distinct pair prices a cell the same way. */
    double t0 = -1, e0 = -1;
    st->uniform = 1;
    for (int p = 0; p < P && st->uniform; p++)
        for (int q = 0; q < P; q++) {
            if (p == q) continue;
            double a, b;
            sm_topo_link(t, p, q, &a, &b);
            if (t0 < 0) { t0 = a; e0 = b; }
            else if (a != t0 || b != e0) { st->uniform = 0; break; }
        }
    long long size = st->uniform ? (long long)st->npairs * (P + 1) : (long long)st->npairs * P * P;
    if ((long long)n * P + size > ILP_MAX_VARIABLES) {
        /* Name the limit, where the count comes from and what fits: the
         * trial met "use a heuristic" with nothing on how far off it was. */
        double per_block = P + (n > 0 ? (double)size / n : 0);
        long long fits = (long long)(ILP_MAX_VARIABLES / per_block);
        sm_err_set(e, "ilp: the model would have %lld variables (%d blocks x %d processors + %d neighbour pairs x "
                      "%lld), above its limit of %d (about %lld blocks on these %d processors; a branch and bound "
                      "that ends in minutes is tens of blocks on a few processors): coarsen the grid (grid create "
                      "-blocks {BX BY BZ}) or use a smaller machine, or at this size step a heuristic (solver start "
                      "tabu)",
                   (long long)n * P + size, n, P, st->npairs, st->uniform ? (long long)P + 1 : (long long)P * P,
                   ILP_MAX_VARIABLES, fits, P);
        return -1;
    }
    lprec *lp = make_lp(0, 0);
    if (!lp) {
        sm_err_set(e, "ilp: lp_solve could not create a model");
        return -1;
    }
    st->lp = lp;
    set_verbose(lp, NEUTRAL);
    double big = 1e30;
    /* x columns, with identical processors fixed by first appearance. */
    st->x = sm_xcalloc((size_t)n * (size_t)P, sizeof(int));
    int *rank = sm_xcalloc((size_t)P, sizeof(int)); /* index within its class */
    for (int p = 0; p < P; p++)
        for (int q = 0; q < p; q++)
            if (same_processor_kind(s, p, q)) { rank[p]++; }
    for (int u = 0; u < n; u++)
        for (int p = 0; p < P; p++)
            if (st->nosym || rank[p] <= u) st->x[u * P + p] = new_col(lp, 0, 1, 1, "x");
    free(rank);
    double total = 0, speed = 0;
    for (int u = 0; u < n; u++) total += (double)g->task_cells[u];
    for (int p = 0; p < P; p++) speed += 1.0 / sm_topo_proc_params(t, p)->time_per_cell;
    /* Times are modelled in units of tlo (the perfectly balanced
     * makespan), so T and C are of order one and lp_solve stays accurate. */
    double tlo = total / speed;
    double TS = 1.0 / tlo;
    double thi = m->has_deadline ? m->deadline * (1 + 1e-9) * TS : big;
    tlo = 1.0;
    /* Not even a perfect balance meets the deadline. */
    if (thi < tlo) {
        thi = tlo;
        st->hopeless = 1;
    }
    st->Tcol = new_col(lp, tlo, thi, 0, "T");
    st->Ccol = new_col(lp, tlo, thi, 0, "C");
    st->Rcol = new_col(lp, 0, big, 0, "R");
    int pair_base = get_Ncolumns(lp); /* pair columns follow */
    int per_pair = st->uniform ? (P == 2 ? 1 : 1 + P) : P * (P - 1);
    st->pair_base = pair_base;
    st->per_pair = per_pair;
    st->TS = TS;
    for (int i = 0; i < st->npairs * per_pair; i++) new_col(lp, 0, 1, 0, "pair");
    /* Under `-unused off` only processors with a block draw idle power, so
     * the idle term is sum_p p_idle_p * I_p with I_p = T when p is used
     * and 0 otherwise: I_p >= T - Tub (1 - used_p), used_p >= x_up. Tub
     * bounds T for every mapping (all on the slowest processor, plus every
     * halo in its own round over the slowest link), so the big-M never
     * cuts a mapping off. */
    int used_base = 0, idle_base = 0;
    double Tub = thi;
    if (!m->unused_idle) {
        double tpc_max = 0, tp_max = 0;
        for (int p = 0; p < P; p++) {
            tpc_max = fmax(tpc_max, sm_topo_proc_params(t, p)->time_per_cell);
            for (int q = 0; q < P; q++) {
                if (p == q) continue;
                double a, b;
                sm_topo_link(t, p, q, &a, &b);
                tp_max = fmax(tp_max, a);
            }
        }
        double rounds = 0;
        for (int i = 0; i < st->npairs; i++) {
            if (st->cuv[i]) rounds += (double)sm_quanta((double)st->cuv[i] * tp_max, m->round_time);
            if (st->cvu[i]) rounds += (double)sm_quanta((double)st->cvu[i] * tp_max, m->round_time);
        }
        Tub = fmin(thi, (total * tpc_max * TS + m->round_time * TS * rounds) * (1 + 1e-6) + 1e-9);
        if (Tub < tlo) Tub = tlo;
        set_upbo(lp, st->Tcol, Tub);
        set_upbo(lp, st->Ccol, Tub);
        used_base = get_Ncolumns(lp);
        for (int p = 0; p < P; p++) new_col(lp, 0, 1, 1, "used");
        idle_base = get_Ncolumns(lp);
        for (int p = 0; p < P; p++) new_col(lp, 0, Tub, 0, "I");
    }
    /* Objective. */
    double *obj = sm_xcalloc((size_t)get_Ncolumns(lp) + 1, sizeof(double));
    double pid = 0;
    for (int p = 0; p < P; p++) {
        double pi = sm_topo_proc_params(t, p)->p_idle;
        if (idle_base) obj[idle_base + 1 + p] = pi / TS;
        else pid += pi;
    }
    for (int u = 0; u < n; u++)
        for (int p = 0; p < P; p++) {
            int c = st->x[u * P + p];
            if (!c) continue;
            const sm_params *pa = sm_topo_proc_params(t, p);
            obj[c] = (double)g->task_cells[u] *
                     (pa->energy_per_cell + (pa->p0 - pa->p_idle) * pa->time_per_cell);
        }
    obj[st->Tcol] = pid / TS;
    set_add_rowmode(lp, TRUE);
    int cols[64];
    double val[64];
    /* Each block on one processor. */
    for (int u = 0; u < n; u++) {
        int k = 0;
        for (int p = 0; p < P; p++)
            if (st->x[u * P + p]) { cols[k] = st->x[u * P + p]; val[k++] = 1; }
        add_constraintex(lp, k, val, cols, EQ, 1);
    }
    /* Compute time and memory per processor. */
    int *rc = sm_xmalloc(sizeof(int) * (size_t)(n + 2));
    double *rv = sm_xmalloc(sizeof(double) * (size_t)(n + 2));
    for (int p = 0; p < P; p++) {
        const sm_params *pa = sm_topo_proc_params(t, p);
        int k = 0;
        for (int u = 0; u < n; u++)
            if (st->x[u * P + p]) { rc[k] = st->x[u * P + p]; rv[k++] = pa->time_per_cell * (double)g->task_cells[u] * TS; }
        rc[k] = st->Ccol;
        rv[k++] = -1;
        add_constraintex(lp, k, rv, rc, LE, 0);
        if (pa->memory > 0) {
            k = 0;
            for (int u = 0; u < n; u++)
                if (st->x[u * P + p]) { rc[k] = st->x[u * P + p]; rv[k++] = (double)g->task_cells[u] * pa->bytes_per_cell; }
            add_constraintex(lp, k, rv, rc, LE, pa->memory);
        }
    }
    if (used_base) {
        int *uc = sm_xmalloc(sizeof(int) * (size_t)(n + 1));
        double *uv = sm_xmalloc(sizeof(double) * (size_t)(n + 1));
        for (int p = 0; p < P; p++) {
            int k = 0;
            for (int u = 0; u < n; u++)
                if (st->x[u * P + p]) { uc[k] = st->x[u * P + p]; uv[k++] = 1; }
            uc[k] = used_base + 1 + p; /* sum_u x_up <= k used_p */
            uv[k] = -(double)k;
            add_constraintex(lp, k + 1, uv, uc, LE, 0);
            uc[0] = idle_base + 1 + p; uv[0] = 1; /* I_p - T - Tub used_p >= -Tub */
            uc[1] = st->Tcol; uv[1] = -1;
            uc[2] = used_base + 1 + p; uv[2] = -Tub;
            add_constraintex(lp, 3, uv, uc, GE, -Tub);
        }
        free(uc);
        free(uv);
    }
    /* T against compute and communication. */
    double theta = m->round_time * TS;
    if (m->overlap) {
        cols[0] = st->Ccol; val[0] = 1; cols[1] = st->Tcol; val[1] = -1;
        add_constraintex(lp, 2, val, cols, LE, 0);
        /* lp_solve sorts the arrays it is given: set every entry again. */
        cols[0] = st->Rcol; val[0] = theta; cols[1] = st->Tcol; val[1] = -1;
        add_constraintex(lp, 2, val, cols, LE, 0);
    } else {
        cols[0] = st->Ccol; val[0] = 1; cols[1] = st->Rcol; val[1] = theta; cols[2] = st->Tcol; val[2] = -1;
        add_constraintex(lp, 3, val, cols, LE, 0);
    }
    /* Degree rows, filled pair by pair: deg[p] collects (col, quanta). */
    int **dcol = sm_xmalloc(sizeof(int *) * (size_t)P);
    double **dval = sm_xmalloc(sizeof(double *) * (size_t)P);
    int *dn = sm_xcalloc((size_t)P, sizeof(int)), *dcap = sm_xcalloc((size_t)P, sizeof(int));
    for (int p = 0; p < P; p++) { dcol[p] = NULL; dval[p] = NULL; }
#define DEG_ADD(p, c, v)                                                                      \
    do {                                                                                      \
        if (dn[p] == dcap[p]) {                                                               \
            dcap[p] = dcap[p] ? 2 * dcap[p] : 256;                                            \
            dcol[p] = sm_xrealloc(dcol[p], sizeof(int) * (size_t)(dcap[p] + 1));              \
            dval[p] = sm_xrealloc(dval[p], sizeof(double) * (size_t)(dcap[p] + 1));           \
        }                                                                                     \
        dcol[p][dn[p]] = (c);                                                                 \
        dval[p][dn[p]++] = (v);                                                               \
    } while (0)
    for (int i = 0; i < st->npairs; i++) {
        int u = st->pu[i], v = st->pv[i];
        int base = pair_base + 1 + i * per_pair;
        if (st->uniform) {
            double tp, ep;
            sm_topo_link(t, 0, 1, &tp, &ep);
            double K = 0;
            if (st->cuv[i]) K += (double)sm_quanta((double)st->cuv[i] * tp, m->round_time);
            if (st->cvu[i]) K += (double)sm_quanta((double)st->cvu[i] * tp, m->round_time);
            int z = base;
            obj[z] = (double)(st->cuv[i] + st->cvu[i]) * ep;
            for (int p = 0; p < P; p++) {
                int xu = st->x[u * P + p], xv = st->x[v * P + p];
                /* z >= x_up - x_vp */
                int k = 0;
                cols[k] = z; val[k++] = 1;
                if (xu) { cols[k] = xu; val[k++] = -1; }
                if (xv) { cols[k] = xv; val[k++] = 1; }
                add_constraintex(lp, k, val, cols, GE, 0);
                if (P == 2) { DEG_ADD(p, z, K); continue; }
                int w = base + 1 + p;
                for (int sgn = -1; sgn <= 1; sgn += 2) { /* w >= +-(x_up - x_vp) */
                    k = 0;
                    cols[k] = w; val[k++] = 1;
                    if (xu) { cols[k] = xu; val[k++] = sgn; }
                    if (xv) { cols[k] = xv; val[k++] = -sgn; }
                    add_constraintex(lp, k, val, cols, GE, 0);
                }
                DEG_ADD(p, w, K);
            }
        } else {
            int c = base;
            for (int p = 0; p < P; p++)
                for (int q = 0; q < P; q++) {
                    if (p == q) continue;
                    /* y >= x_up + x_vq - 1: u on p, v on q. */
                    int xu = st->x[u * P + p], xv = st->x[v * P + q];
                    double tpq, epq, tqp, eqp;
                    sm_topo_link(t, p, q, &tpq, &epq);
                    sm_topo_link(t, q, p, &tqp, &eqp);
                    if (xu && xv) {
                        cols[0] = c; val[0] = 1; cols[1] = xu; val[1] = -1; cols[2] = xv; val[2] = -1;
                        add_constraintex(lp, 3, val, cols, GE, -1);
                    } else {
                        set_upbo(lp, c, 0);
                    }
                    obj[c] = (double)st->cuv[i] * epq + (double)st->cvu[i] * eqp;
                    double K = 0;
                    if (st->cuv[i]) K += (double)sm_quanta((double)st->cuv[i] * tpq, m->round_time);
                    if (st->cvu[i]) K += (double)sm_quanta((double)st->cvu[i] * tqp, m->round_time);
                    DEG_ADD(p, c, K);
                    DEG_ADD(q, c, K);
                    c++;
                }
        }
    }
#undef DEG_ADD
    for (int p = 0; p < P; p++) {
        if (dn[p] == dcap[p]) {
            dcol[p] = sm_xrealloc(dcol[p], sizeof(int) * (size_t)(dcap[p] + 1));
            dval[p] = sm_xrealloc(dval[p], sizeof(double) * (size_t)(dcap[p] + 1));
        }
        dcol[p][dn[p]] = st->Rcol;
        dval[p][dn[p]++] = -1;
        add_constraintex(lp, dn[p], dval[p], dcol[p], LE, 0);
        free(dcol[p]);
        free(dval[p]);
    }
    free(dcol); free(dval); free(dn); free(dcap);
    free(rc); free(rv);
    set_add_rowmode(lp, FALSE);
    set_obj_fn(lp, obj);
    set_minim(lp);
    free(obj);
    return 0;
}
