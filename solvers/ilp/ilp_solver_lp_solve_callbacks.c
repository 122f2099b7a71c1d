/* ilp_solver_lp_solve_callbacks.c - the ILP solver (SPEC 4, ilp) as the
 * stepper runs it: lp_solve solves the program of
 * ilp_variables_constraints.c on a worker thread (ilp_worker_thread.c); its
 * callbacks turn each improved solution (an incumbent) into a solver step
 * and each progress tick or better bound into a pause; -export writes the
 * program as LP text; the decomposition by counts and the DVFS
 * enumeration take over where they apply. */
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
#include "core/lib/atomic_file_write.h"


static const sm_opt_spec opts[] = {
    {"timeout", SM_OPT_DOUBLE, "600", NULL, 0.01, 1e7, "seconds before giving up with the best found"},
    {"gap", SM_OPT_DOUBLE, "1e-9", NULL, 0, 1, "relative gap at which to stop"},
    {"export", SM_OPT_STRING, NULL, NULL, 0, 0, "write the model in LP format to this file"},
    {"warm", SM_OPT_ENUM, "on", "on|off", 0, 0, "start from the best heuristic mapping"},
    {"counts", SM_OPT_ENUM, "on", "on|off", 0, 0,
     "decompose by block counts with isoperimetric cut bounds where the grid allows"},
    {"dvfs", SM_OPT_ENUM, "off", "off|on", 0, 0,
     "on: also choose each processor's DVFS state (one exact solve per assignment of states)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

/* lp_solve calls this often (every few simplex iterations and nodes):
 * the worker's chance to hand over a progress tick or a better bound, and
 * to end on a cancel or the -timeout (time spent solving, pauses between
 * steps not counted). */
static int __WINAPI on_abort(lprec *lp, void *handle)
{
    (void)lp;
    ilp_state *st = handle;
    if (ilp_tick(st)) return TRUE;
    if (!st->decomposing && ilp_step_bound(st, ilp_bound(st))) return TRUE;
    return FALSE;
}

/* A new improved solution: an incumbent step. */
static void __WINAPI on_msg(lprec *lp, void *handle, int msg)
{
    ilp_state *st = handle;
    if (msg != MSG_MILPBETTER && msg != MSG_MILPFEASIBLE) return;
    /* best_solution: [0] objective, then rows, then columns. */
    ilp_read_map(st, lp->best_solution + lp->rows);
    sm_eval ev;
    sm_solver_evaluate(st->s, st->map, &ev);
    if (ilp_offer(st, st->map, &ev)) ilp_step_incumbent(st, "branch and bound");
    /* A cancel shows at the next abort callback, which ends the solve. */
}

/* lp_solve hands the LP text over line by line. */
static int __WINAPI collect_lp(void *handle, char *buf)
{
    sm_strbuf_put(handle, "%s", buf);
    return TRUE;
}

/* -export FILE: the model as lp_solve's LP text, saved atomically where
 * the caller opened it (s->export_to: confined when a safe script asked),
 * else at FILE. lp_solve writing FILE itself would open the name later,
 * maybe in the background, wherever it leads by then. */
static int export_model(sm_solver *s, lprec *lp, const char *file, sm_err *e)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    if (!write_lpex(lp, &b, collect_lp)) {
        free(b.s);
        sm_err_set(e, "ilp: cannot write the model to %s", file);
        return -1;
    }
    int rc = s->export_to ? sm_save_write(s->export_to, b.s ? b.s : "", b.n, e)
                          : sm_write_file_atomic(file, b.s ? b.s : "", b.n, e);
    free(b.s);
    if (rc) sm_err_prefix(e, "ilp -export: ");
    return rc;
}

static int init(sm_solver *s, sm_err *e)
{
    /* The model is linear in cells; a measured profile is not. */
    for (int k = 0; k < s->topo->ntypes; k++)
        if (s->topo->types[k].nprofile) {
            sm_err_set(e, "ilp: type \"%s\" has a measured profile, which this "
                          "linear model does not represent; use popta",
                       s->topo->types[k].name);
            return -1;
        }
    ilp_state *st = sm_xcalloc(1, sizeof *st);
    s->priv = st;
    st->s = s;
    st->map = sm_xmalloc(sizeof(int) * (size_t)(s->grid->ntasks + 1));
    if (strcmp(sm_opt_str(s, "dvfs"), "on") == 0) {
        st->dvfs = ilp_dvfs_new(s, e);
        if (!st->dvfs) return -1;
        /* The session's states until the solve picks others: there from
         * the start, so the history records them with every step. */
        s->best_states = sm_xmalloc(sizeof(int) * (size_t)(s->topo->nprocs ? s->topo->nprocs : 1));
        for (int p = 0; p < s->topo->nprocs; p++) s->best_states[p] = sm_topo_proc_state(s->topo, p);
        return 0;
    }
    if (strcmp(sm_opt_str(s, "counts"), "on") == 0) st->counts = ilp_counts_new(s, st);
    /* Counts in non-increasing order fix identical processors instead. */
    st->nosym = st->counts != NULL;
    if (ilp_build_program(s, st, e)) return -1;
    const char *file = sm_opt_str(s, "export");
    if (file && export_model(s, st->lp, file, e)) return -1;
    st->cur = sm_xmalloc(sizeof(int) * (size_t)(s->grid->ntasks + 1));
    st->stepped_bound = -INFINITY;
    st->bound_now = NAN;
    if (strcmp(sm_opt_str(s, "warm"), "on") == 0) ilp_warm_start(s, st);
    /* Step 0 shows the warm start (or the session's mapping); each step
     * after it an incumbent or a better bound. */
    if (!s->has_current) {
        sm_eval ev;
        sm_solver_evaluate(s, s->start_map, &ev);
        ilp_offer(st, s->start_map, &ev);
    }
    s->current_map = st->cur;
    sm_solver_set_stat(s, "variables", get_Ncolumns(st->lp));
    sm_solver_set_stat(s, "constraints", get_Nrows(st->lp));
    /* From step 0 on, so that every recorded step has them and solver
     * history reads its bound as solver state does (unknown: NaN). */
    sm_solver_set_stat(s, "incumbent", s->has_best && s->best.feasible ? s->best.energy : NAN);
    sm_solver_set_stat(s, "bound", NAN);
    return 0;
}

static void finish(sm_solver *s)
{
    ilp_state *st = s->priv;
    if (!s->has_best && s->has_current) {
        /* Nothing meets the deadline: the least bad mapping seen is the
         * answer, and the status says it is infeasible. */
        s->best = s->current;
        s->has_best = 1;
        s->best_version++;
        memcpy(s->best_map, st->cur ? st->cur : s->start_map, sizeof(int) * (size_t)s->grid->ntasks);
    }
    if (!s->has_best) {
        sm_eval ev;
        sm_solver_evaluate(s, s->start_map, &ev);
        sm_solver_offer(s, s->start_map, &ev);
    }
    if (s->has_best) {
        s->current = s->best;
        s->has_current = 1;
        if (st->cur) memcpy(st->cur, s->best_map, sizeof(int) * (size_t)s->grid->ntasks);
    }
    s->done = 1;
}

/* The worker's whole solve: the decomposition, or one lp_solve run. */
static void body(void *arg)
{
    ilp_state *st = arg;
    if (st->counts && !st->hopeless) {
        ilp_counts_solve(st->counts, st);
        return;
    }
    st->rc = st->hopeless ? INFEASIBLE : solve(st->lp);
}

/* Set lp_solve up and make the worker that will run it. */
static void begin(sm_solver *s, ilp_state *st)
{
    lprec *lp = st->lp;
    st->timeout = sm_opt_double(s, "timeout");
    st->start = st->last_progress = ilp_now();
    set_mip_gap(lp, FALSE, sm_opt_double(s, "gap"));
    set_mip_gap(lp, TRUE, 1e-11);
    /* The -timeout counts solving time (ilp_tick), not the pauses. */
    set_timeout(lp, 0);
    put_abortfunc(lp, on_abort, st);
    put_msgfunc(lp, on_msg, st, MSG_MILPBETTER | MSG_MILPFEASIBLE);
    set_bb_floorfirst(lp, BRANCH_CEILING);
    /* Warm start: only strictly better mappings are worth exploring. The
     * cutoff is an explicit row (objective <= warm energy): lp_solve's own
     * bound setting ends in accuracy errors on these models. */
    if (!st->counts && s->has_best && s->best.feasible) {
        int nc = get_Ncolumns(lp);
        REAL *row = sm_xcalloc((size_t)nc + 1, sizeof(REAL));
        for (int c = 1; c <= nc; c++) row[c] = get_mat(lp, 0, c);
        add_constraint(lp, row, LE, s->best.energy * (1 - 1e-7));
        free(row);
        st->cut_row = get_Nrows(lp);
    }
    st->run = ilp_run_new(body, st);
}

/* The solve returned (the worker has ended): its answer and status. */
static void conclude(sm_solver *s, ilp_state *st)
{
    if (st->counts && !st->hopeless) {
        sm_solver_why(s, "%s", strcmp(s->status, "optimal") == 0 || strcmp(s->status, "infeasible") == 0
                                   ? "bound" : "timeout");
        snprintf(s->last_move, sizeof s->last_move, "%s: exact search over block counts", s->status);
        finish(s);
        return;
    }
    lprec *lp = st->lp;
    int rc = st->rc;
    if (st->cut_row) del_constraint(lp, st->cut_row);
    st->cut_row = 0;
    if (rc == OPTIMAL || rc == PRESOLVED || rc == SUBOPTIMAL) {
        ilp_read_map(st, lp->best_solution + lp->rows);
        sm_eval ev;
        sm_solver_evaluate(s, st->map, &ev);
        ilp_offer(st, st->map, &ev);
    }
    const char *status;
    int feasible = s->has_best && s->best.feasible;
    if (st->timed_out || rc == SUBOPTIMAL) status = feasible ? "timeout: feasible with gap" : "timeout";
    else if (rc == OPTIMAL || rc == PRESOLVED || rc == INFEASIBLE) status = feasible ? "optimal" : "infeasible";
    else {
        static char buf[48];
        snprintf(buf, sizeof buf, "error (lp_solve status %d)", rc);
        status = buf;
    }
    snprintf(s->status, sizeof s->status, "%s", status);
    if (strcmp(status, "optimal") == 0) {
        /* The proof: the bound has reached the incumbent. */
        st->decomposing = 1;
        st->dbound = s->best.energy;
    }
    ilp_report(st);
    if (strcmp(status, "optimal") == 0) sm_solver_set_stat(s, "gap", 0);
    sm_solver_why(s, "%s", strncmp(status, "timeout", 7) == 0 ? "timeout" : rc == OPTIMAL || rc == PRESOLVED ||
                                    rc == INFEASIBLE ? "bound" : "error");
    snprintf(s->last_move, sizeof s->last_move, "%s: branch and bound with lp_solve", status);
    finish(s);
}

/* One step: the solve runs on until its next incumbent or better bound
 * (or its end), then pauses there; the panes redraw and interrupts are
 * looked for at every tick in between. An interrupt pauses the solve: the
 * step ends there ("paused"), and the next step goes on from it. */
static void step(sm_solver *s)
{
    ilp_state *st = s->priv;
    if (st->dvfs) {
        ilp_dvfs_solve(s, st->dvfs);
        sm_solver_why(s, "exact search over every assignment of DVFS states: %s", s->status);
        finish(s);
        return;
    }
    if (!st->run) begin(s, st);
    for (;;) {
        ilp_event ev = ilp_run_resume(st->run);
        switch (ev) {
        case ILP_EV_PROGRESS:
            if (s->progress) s->progress(s, s->progress_ctx);
            if (s->interrupt && *s->interrupt) {
                sm_solver_why(s, "paused");
                snprintf(s->last_move, sizeof s->last_move, "paused inside the branch and bound");
                return;
            }
            continue;
        case ILP_EV_INCUMBENT:
        case ILP_EV_BOUND:
            return;
        case ILP_EV_DONE:
            conclude(s, st);
            return;
        }
    }
}

static void release(sm_solver *s)
{
    ilp_state *st = s->priv;
    if (!st) return;
    ilp_run_free(st->run);   /* a paused solve unwinds first */
    if (st->lp) delete_lp(st->lp);
    ilp_counts_free(st->counts);
    ilp_dvfs_free(st->dvfs);
    free(st->pu); free(st->pv); free(st->cuv); free(st->cvu);
    free(st->x);
    free(st->map);
    free(st->cur);
    if (s->current_map == st->cur) s->current_map = NULL;
    free(st);
}

const sm_solver_ops sm_solver_ilp = {
    "ilp", "Exact mapping with lp_solve under maxdeg and the deadline",
    opts, init, step, release, NULL,
};
