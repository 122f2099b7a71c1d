/* ilp_dvfs_enumeration.c - ilp -dvfs on: each processor's DVFS state chosen with its
 * blocks, exactly. The energy of a mapping is linear in its cells once
 * the states are fixed, so the optimum over states and mappings is the
 * least of the optima over every assignment of states: one exact solve
 * per assignment (identical processors side by side take their states in
 * non-increasing order, which loses no optimum), the time limit shared,
 * the best kept with its states. Proven when every solve is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ilp_dvfs_enumeration.h"
#include "core/io/topology_file.h"

#define DVFS_MAX_ASSIGNMENTS 256

struct ilp_dvfs {
    int P;
    int *nchoice;      /* states of each processor's type (0: none) */
    int *same_prev;    /* identical to the previous processor */
    int *cur;          /* the assignment being solved */
    long total;        /* assignments to solve */
};

static int identical(const sm_topo *t, int p, int q)
{
    return t->procs[p].type == t->procs[q].type && t->procs[p].node == t->procs[q].node;
}

/* Next assignment in order (odometer), skipping those that break the
 * non-increasing order of identical neighbours; 0 after the last. */
static int next_assignment(ilp_dvfs *d)
{
    for (;;) {
        int p = d->P - 1;
        while (p >= 0) {
            if (d->nchoice[p] > 0 && ++d->cur[p] < d->nchoice[p]) break;
            if (d->nchoice[p] > 0) d->cur[p] = 0;
            p--;
        }
        if (p < 0) return 0;
        int ok = 1;
        for (int q = 1; q < d->P && ok; q++)
            if (d->same_prev[q] && d->cur[q] > d->cur[q - 1]) ok = 0;
        if (ok) return 1;
    }
}

ilp_dvfs *ilp_dvfs_new(const sm_solver *s, sm_err *e)
{
    const sm_topo *t = s->topo;
    int P = t->nprocs;
    ilp_dvfs *d = sm_xcalloc(1, sizeof *d);
    d->P = P;
    d->nchoice = sm_xcalloc((size_t)P, sizeof(int));
    d->same_prev = sm_xcalloc((size_t)P, sizeof(int));
    d->cur = sm_xcalloc((size_t)P, sizeof(int));
    double all = 1;
    for (int p = 0; p < P; p++) {
        /* Its type's states and its base parameters (the last choice). */
        int ns = t->types[t->procs[p].type].nstates;
        d->nchoice[p] = ns ? ns + 1 : 0;
        d->same_prev[p] = p > 0 && identical(t, p - 1, p);
        d->cur[p] = d->nchoice[p] > 0 ? 0 : -1;
        if (d->nchoice[p] > 0) all *= d->nchoice[p];
    }
    /* Count what the symmetry leaves. */
    if (all <= 1e6) {
        d->total = 1;
        int *save = sm_xmalloc(sizeof(int) * (size_t)P);
        memcpy(save, d->cur, sizeof(int) * (size_t)P);
        while (next_assignment(d)) d->total++;
        memcpy(d->cur, save, sizeof(int) * (size_t)P);
        free(save);
    } else {
        d->total = (long)1e9;
    }
    if (d->total > DVFS_MAX_ASSIGNMENTS) {
        sm_err_set(e, "ilp: -dvfs on would solve %ld assignments of DVFS states (at most %d): "
                      "use tabu -dvfs on",
                   d->total, DVFS_MAX_ASSIGNMENTS);
        ilp_dvfs_free(d);
        return NULL;
    }
    return d;
}

void ilp_dvfs_free(ilp_dvfs *d)
{
    if (!d) return;
    free(d->nchoice);
    free(d->same_prev);
    free(d->cur);
    free(d);
}

void ilp_dvfs_solve(sm_solver *s, ilp_dvfs *d)
{
    const sm_topo *t = s->topo;
    int P = d->P;
    double start = ilp_now(), timeout = sm_opt_double(s, "timeout"), bound = INFINITY;
    int proven = 1, solved = 0, interrupted = 0;
    if (!s->best_states) s->best_states = sm_xmalloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) s->best_states[p] = sm_topo_proc_state(t, p);
    char tmo[32], gap[32];
    snprintf(gap, sizeof gap, "%.17g", sm_opt_double(s, "gap"));
    do {
        double left = timeout - (ilp_now() - start);
        if (left < 0.01 || (s->interrupt && *s->interrupt)) {
            interrupted = 1;
            break;
        }
        snprintf(tmo, sizeof tmo, "%.17g", left);
        sm_topo *tc = sm_topo_clone(t);
        int *st = sm_xmalloc(sizeof(int) * (size_t)P);
        for (int p = 0; p < P; p++) {
            int ns = t->types[t->procs[p].type].nstates;
            st[p] = d->cur[p] < 0 || d->cur[p] == ns ? SM_STATE_BASE : d->cur[p];
            if (ns) sm_topo_set_proc_state(tc, p, st[p]);
        }
        const char *argv[] = {"-timeout", tmo, "-gap", gap, "-counts", sm_opt_str(s, "counts"),
                              "-warm", sm_opt_str(s, "warm"), "-dvfs", "off"};
        sm_err e;
        sm_solver *sub = sm_solver_new(s->ops, s->grid, tc, &s->model, s->start_map, 10, argv, &e);
        if (!sub) {
            sm_topo_free(tc);
            free(st);
            proven = 0;
            continue;
        }
        sub->interrupt = s->interrupt;
        /* An interrupt pauses a sub-solve (ilp.c): here it ends it. */
        while (!sub->done) {
            sm_solver_step(sub, 1);
            if (s->interrupt && *s->interrupt) sm_solver_stop(sub);
        }
        solved++;
        int optimal = strcmp(sub->status, "optimal") == 0, none = strcmp(sub->status, "infeasible") == 0;
        if (!optimal && !none) {
            proven = 0;
            double b = -INFINITY;
            for (int i = 0; i < sub->nstats; i++)
                if (strcmp(sub->stats[i].key, "bound") == 0) b = sub->stats[i].value;
            bound = fmin(bound, b);
        } else if (optimal && sub->has_best) {
            bound = fmin(bound, sub->best.energy);
        }
        if (sub->has_best && sm_solver_offer(s, sub->best_map, &sub->best)) {
            memcpy(s->best_states, st, sizeof(int) * (size_t)P);
            snprintf(s->last_move, sizeof s->last_move, "incumbent %.6f J with states of assignment %d",
                     sub->best.energy, solved);
        }
        sm_solver_free(sub);
        sm_topo_free(tc);
        free(st);
    } while (next_assignment(d));
    sm_solver_set_stat(s, "state_assignments", (double)solved);
    if (interrupted) proven = 0;
    const char *status;
    if (proven) status = s->has_best && s->best.feasible ? "optimal" : "infeasible";
    else if (s->interrupt && *s->interrupt) status = s->has_best ? "stopped: feasible" : "stopped";
    else status = s->has_best ? "timeout: feasible with gap" : "timeout";
    snprintf(s->status, sizeof s->status, "%s", status);
    if (proven && s->has_best && s->best.feasible) {
        sm_solver_set_stat(s, "bound", s->best.energy);
        sm_solver_set_stat(s, "gap", 0);
    } else if (!interrupted && isfinite(bound) && s->has_best && s->best.feasible) {
        sm_solver_set_stat(s, "bound", bound);
        sm_solver_set_stat(s, "gap", fmax(0, (s->best.energy - bound) / s->best.energy));
    }
}
