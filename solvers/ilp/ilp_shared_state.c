/* ilp_shared_state.c - what the model and the decomposition share: the clock,
 * reading a mapping out of the x columns, and publishing progress (nodes,
 * incumbent, bound, gap, elapsed) to the stepper. */
#include "ilp_shared_state.h"

#include <math.h>
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

void ilp_report(ilp_state *st)
{
    lprec *lp = st->lp;
    sm_solver *s = st->s;
    sm_solver_set_stat(s, "nodes", (double)get_total_nodes(lp));
    sm_solver_set_stat(s, "incumbent", s->has_best ? s->best.energy : NAN);
    /* lp_solve keeps the best proven bound in bb_limitOF once branching
     * starts; before that the root relaxation is the bound. */
    double bound = lp->bb_limitOF;
    if (!isfinite(bound) || fabs(bound) >= 1e29) bound = lp->real_solution;
    if (st->decomposing) bound = st->dbound;
    if (isfinite(bound) && fabs(bound) < 1e29) sm_solver_set_stat(s, "bound", bound);
    if (s->has_best && isfinite(bound) && fabs(bound) < 1e29 && s->best.energy > 0)
        sm_solver_set_stat(s, "gap", fmax(0, (s->best.energy - bound) / s->best.energy));
    sm_solver_set_stat(s, "elapsed", ilp_now() - st->start);
    /* Incumbent and bound over the solve, for `solver explain`. */
    sm_solver_trace(s, "incumbent", "bound", ilp_now() - st->start, s->has_best ? s->best.energy : NAN,
                    isfinite(bound) && fabs(bound) < 1e29 ? bound : NAN);
    if (s->progress) s->progress(s, s->progress_ctx);
}
