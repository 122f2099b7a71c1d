/* ilp_shared_state.c - what the model and the decomposition share: the clock,
 * reading a mapping out of the x columns, and publishing progress (nodes,
 * incumbent, bound, gap, elapsed) to the stepper. */
#include "ilp_shared_state.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double ilp_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void ilp_read_map(ilp_state *st, const REAL *cols /* 1-based */)
{
    for (int u = 0; u < st->n; u++) {
        int best = 0;
        double bv = -1;
        for (int p = 0; p < st->P; p++) {
            int c = st->x[u * st->P + p];
            if (c && cols[c] > bv) { bv = cols[c]; best = p; }
        }
        st->map[u] = best;
    }
}

double ilp_elapsed(const ilp_state *st)
{
    return st->run ? ilp_run_active(st->run) : ilp_now() - st->start;
}

double ilp_bound(const ilp_state *st)
{
    if (st->decomposing) return st->dbound;
    if (!st->lp) return NAN;
    /* lp_solve keeps the best proven bound in bb_limitOF once branching
     * starts; before that the root relaxation is the bound. */
    double bound = st->lp->bb_limitOF;
    if (!isfinite(bound) || fabs(bound) >= 1e29) {
        /* Not before the root relaxation is solved: until then the
         * relaxation's figure is no bound. */
        if (get_total_nodes(st->lp) < 1) return NAN;
        bound = st->lp->real_solution;
    }
    if (!isfinite(bound) || fabs(bound) >= 1e29) return NAN;
    /* Never above a feasible incumbent: that one is proven by itself. */
    const sm_solver *s = st->s;
    if (s->has_best && s->best.feasible && bound > s->best.energy) bound = s->best.energy;
    return bound;
}

void ilp_report(ilp_state *st)
{
    sm_solver *s = st->s;
    if (st->lp) {
        sm_solver_set_stat(s, "nodes", (double)get_total_nodes(st->lp));
        /* A node's LP can take minutes of simplex iterations (nodes 15
         * for 50 s at 8x4x4): this figure moves while nodes do not. */
        sm_solver_set_stat(s, "simplex_iterations", (double)get_total_iter(st->lp));
    }
    sm_solver_set_stat(s, "incumbent", s->has_best && s->best.feasible ? s->best.energy : NAN);
    double bound = ilp_bound(st);
    /* Proven that nothing meets the deadline: no finite bound holds (the
     * stat read lp_solve's unsolved 0 and said "bound 0.0"). */
    if (strcmp(s->status, "infeasible") == 0) bound = INFINITY;
    if (isfinite(bound) || bound > 0) {
        sm_solver_set_stat(s, "bound", bound);
        st->bound_now = bound;
    }
    if (s->has_best && s->best.feasible && isfinite(bound) && s->best.energy > 0)
        sm_solver_set_stat(s, "gap", fmax(0, (s->best.energy - bound) / s->best.energy));
    double el = ilp_elapsed(st);
    sm_solver_set_stat(s, "elapsed", el);
    /* Incumbent and bound over the step, for `solver explain`. */
    sm_solver_trace(s, "incumbent", "bound", el, s->has_best && s->best.feasible ? s->best.energy : NAN,
                    isfinite(bound) ? bound : NAN);
}

int ilp_offer(ilp_state *st, const int *map, const sm_eval *ev)
{
    sm_solver *s = st->s;
    int n = s->grid->ntasks;
    if (!s->has_current || sm_eval_compare(ev, &s->current) < 0) {
        if (map != st->cur) memcpy(st->cur, map, sizeof(int) * (size_t)n);
        s->current = *ev;
        s->has_current = 1;
    }
    if (!ev->feasible) return 0;
    return sm_solver_offer(s, map, ev);
}

int ilp_step_incumbent(ilp_state *st, const char *how)
{
    sm_solver *s = st->s;
    /* The incumbent is what the step shows. */
    memcpy(st->cur, s->best_map, sizeof(int) * (size_t)s->grid->ntasks);
    s->current = s->best;
    s->has_current = 1;
    ilp_report(st);
    char nodes[48] = "";
    if (st->lp) snprintf(nodes, sizeof nodes, ", %lld nodes", (long long)get_total_nodes(st->lp));
    /* No clock in it: the same steps read the same (elapsed is a stat). */
    snprintf(s->last_move, sizeof s->last_move, "incumbent %.6f J (%s)%s", s->best.energy, how, nodes);
    sm_solver_why(s, "incumbent");
    if (!st->run) return 0;
    return ilp_run_yield(st->run, ILP_EV_INCUMBENT);
}

int ilp_step_bound(ilp_state *st, double b)
{
    sm_solver *s = st->s;
    if (!isfinite(b)) return st->run && ilp_run_cancelled(st->run);
    double inc = s->has_best && s->best.feasible ? s->best.energy : INFINITY;
    /* Reaching the incumbent is the proof: the last step says it. */
    if (b >= inc * (1 - 1e-9)) return st->run && ilp_run_cancelled(st->run);
    /* A visible rise: a hundredth of the gap left, or the first bound. */
    if (isfinite(st->stepped_bound)) {
        double room = isfinite(inc) ? inc - st->stepped_bound : fabs(st->stepped_bound);
        if (!(b > st->stepped_bound + fmax(0.01 * room, 1e-9 * fabs(b)))) return st->run && ilp_run_cancelled(st->run);
    }
    st->stepped_bound = b;
    ilp_report(st);
    /* The branch and bound's own bound: solver state's (and the panes')
     * is the higher of it and the model's (the trial read "bound 0.2057 J"
     * here beside "bound 1.014 J" above and could not tell which). */
    if (isfinite(inc) && inc > 0)
        snprintf(s->last_move, sizeof s->last_move, "branch-and-bound bound %.6f J (gap %.3g %%)", b,
                 100 * fmax(0, (inc - b) / inc));
    else
        snprintf(s->last_move, sizeof s->last_move, "branch-and-bound bound %.6f J", b);
    sm_solver_why(s, "bound");
    if (!st->run) return 0;
    return ilp_run_yield(st->run, ILP_EV_BOUND);
}

int ilp_tick(ilp_state *st)
{
    if (st->run && ilp_run_cancelled(st->run)) return 1;
    if (ilp_elapsed(st) > st->timeout) {
        st->timed_out = 1;
        return 1;
    }
    double t = ilp_now();
    if (st->run && t - st->last_progress > 0.1) {
        st->last_progress = t;
        ilp_report(st);
        if (ilp_run_yield(st->run, ILP_EV_PROGRESS)) return 1;
        st->last_progress = ilp_now();
    }
    return 0;
}

int ilp_links_alike(const sm_topo *t, int p, int q)
{
    for (int r = 0; r < t->nprocs; r++) {
        if (r == p || r == q) continue;
        double a, b, c, d;
        sm_topo_link(t, p, r, &a, &b);
        sm_topo_link(t, q, r, &c, &d);
        if (a != c || b != d) return 0;
    }
    return 1;
}
