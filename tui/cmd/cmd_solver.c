/* cmd_solver.c - the solver stepper as commands (SPEC 5): solver start|
 * step|back|seek|run|history|explain|block|load|state|stop|apply|list|
 * options, the hooks command `on`, and the registration of solve, solver
 * and on. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "solvers/solver_registry.h"
#include "cmd_common.h"
#include "core/lib/units.h"
#include "core/model/result_keys.h"
#include "solvers/stepper/step_history_record_seek_back.h"
#include "tui/app/solver_start_on_worker_thread.h"
#include "cmd_solve.h"
#include "cmd_solver_breakpoints_and_condition_check.h"
#include "cmd_solver_branch.h"
#include "tui/app/solver_pause_and_stop_on_esc.h"

static int need_solver(sm_app *app, Tcl_Interp *in)
{
    sm_app_solver_settle(app);
    if (app->solver) return TCL_OK;
    return sm_tcl_error(in, "STATE", "no solver: use \"solver start NAME\" first");
}

/* A solver that can still step or apply: not stopped by a session change. */
static int need_live_solver(sm_app *app, Tcl_Interp *in)
{
    if (need_solver(app, in)) return TCL_ERROR;
    if (!app->solver->detached) return TCL_OK;
    return sm_tcl_error(in, "STATE", "%s was stopped: %s; start it again",
                        app->solver->ops->name, app->solver->reason);
}

static int solver_start(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (sm_solve_start(app, in, objc, objv, 2, 1)) return TCL_ERROR;
    sm_app_solver_pick(app, sm_solver_find(Tcl_GetString(objv[2])));
    Tcl_SetObjResult(in, app->starting ? sm_solve_starting_dict(app->starting) : sm_solve_state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_step(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (need_live_solver(app, in)) return TCL_ERROR;
    Tcl_WideInt n = 1;
    if (objc == 3 && (Tcl_GetWideIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 1))
        return sm_tcl_error(in, "ARGS", "solver step: expected a positive count, got \"%s\"",
                            Tcl_GetString(objv[2]));
    app->paused_by_interrupt = 0;
    /* A finished solver at its last step: n says so rather than nothing. */
    const sm_solver *sv = app->solver;
    int at_end = sv->done && (!sv->hist || sm_history_cursor(sv->hist) >= sm_history_head(sv->hist));
    if (at_end)
        sm_view_log(app->view, SM_LOG_NOTE, "%s has ended (%s) at step %lld: nothing to step; [ and ] go through "
                    "its steps, solver start runs it again", sv->ops->name, sv->status, sv->iteration);
    if (sm_solve_run(app, in, n)) return TCL_ERROR;
    Tcl_Obj *d = sm_solve_state_dict(app, app->solver);
    if (app->break_hit) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("breakpoint", -1), Tcl_NewIntObj(app->break_hit));
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static int run_back(sm_app *app, Tcl_Interp *in, Tcl_Obj *until);

static int solver_run(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Obj *until = NULL;
    int back = 0;
    for (int i = 2; i < objc; i++) {
        const char *o = Tcl_GetString(objv[i]);
        if (strcmp(o, "-back") == 0) back = 1;
        else if (strcmp(o, "-until") == 0 && i + 1 < objc) until = objv[++i];
        else
            return sm_tcl_error(in, "ARGS", "wrong # args: should be \"solver run ?-back? ?-until EXPR?\"");
    }
    if (need_live_solver(app, in)) return TCL_ERROR;
    if (until) {
        /* A bad expression is an error before the run, not after a step. */
        Tcl_Obj *probe = Tcl_DuplicateObj(until);
        Tcl_IncrRefCount(probe);
        int met, rc = sm_solve_until_met(app, in, probe, &met);
        Tcl_DecrRefCount(probe);
        if (rc != TCL_OK) return TCL_ERROR;
    }
    if (back) return run_back(app, in, until);
    int hit = 0;
    app->paused_by_interrupt = 0;
    if (sm_solve_run_until(app, in, (long long)9e18, until, &hit)) return TCL_ERROR;
    if (hit)
        sm_view_log(app->view, SM_LOG_NOTE, "breakpoint at step %lld: %s", app->solver->iteration,
                    Tcl_GetString(until));
    else if (until && !app->break_hit)
        /* A run that ends without its breakpoint says so: it stopped for
         * another reason (the end, an interrupt, a hook's break). */
        sm_view_log(app->view, SM_LOG_NOTE, "%s %s after %lld iterations; breakpoint not reached (%s)",
                    app->solver->ops->name, app->solver->done ? app->solver->status : "paused", app->solver->iteration,
                    Tcl_GetString(until));
    Tcl_Obj *d = sm_solve_state_dict(app, app->solver);
    if (until || app->break_hit)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("breakpoint", -1),
                       Tcl_NewIntObj(hit ? 1 : app->break_hit ? app->break_hit : 0));
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

/* A history to go back in: the solver's, refused for a stopped-by-change one. */
static int need_history(sm_app *app, Tcl_Interp *in)
{
    if (need_live_solver(app, in)) return TCL_ERROR;
    if (app->solver->hist) return TCL_OK;
    return sm_tcl_error(in, "STATE", "%s keeps no history", app->solver->ops->name);
}

/* solver run -back ?-until EXPR?: rr's reverse-continue over the recorded
 * steps: the last step before the one shown where EXPR (or an enabled
 * breakpoint) held, shown; when none did, the step shown stays. */
static int run_back(sm_app *app, Tcl_Interp *in, Tcl_Obj *until)
{
    if (need_history(app, in)) return TCL_ERROR;
    sm_solver *s = app->solver;
    sm_history *h = s->hist;
    if (!until && !sm_breaks_enabled(app))
        return sm_tcl_error(in, "SOLVER", "solver run -back: no breakpoint to run back to "
                                          "(solver break add EXPR, or -until EXPR)");
    long long from = sm_history_cursor(h), found = -1;
    int id = 0, rc = TCL_OK;
    app->solver_depth++;
    for (long long k = from - 1; k >= sm_history_first(h); k--) {
        sm_solver_seek(s, k);
        if (until) {
            int met = 0;
            if ((rc = sm_solve_until_met(app, in, until, &met)) != TCL_OK) break;
            if (met) { found = k; break; }
        }
        if (sm_breaks_enabled(app)) {
            if ((rc = sm_breaks_test(app, in, sm_solve_state_dict(app, s), &id)) != TCL_OK) break;
            if (id) { found = k; break; }
        }
    }
    app->solver_depth--;
    if (found < 0) sm_solver_seek(s, from);
    if (rc != TCL_OK) return rc;
    if (found >= 0)
        sm_view_log(app->view, SM_LOG_NOTE, "back to step %lld: %s", found,
                    id ? sm_break_text(app, id) : Tcl_GetString(until));
    else
        sm_view_log(app->view, SM_LOG_NOTE, "solver run -back: no step before %lld where %s held; at step %lld",
                    from, until ? Tcl_GetString(until) : "a breakpoint", from);
    Tcl_Obj *d = sm_solve_state_dict(app, s);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("breakpoint", -1), Tcl_NewIntObj(found < 0 ? 0 : id ? id : 1));
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static int get_step(Tcl_Interp *in, Tcl_Obj *o, const char *what, Tcl_WideInt *k)
{
    if (Tcl_GetWideIntFromObj(NULL, o, k) == TCL_OK && *k >= 0) return TCL_OK;
    return sm_tcl_error(in, "ARGS", "%s: expected a step number (0 or more), got \"%s\"", what,
                        Tcl_GetString(o));
}

/* Show step k (within the history) or step on to it (past the head). */
static int seek_to(sm_app *app, Tcl_Interp *in, long long k)
{
    sm_solver *s = app->solver;
    sm_history *h = s->hist;
    if (k < sm_history_first(h))
        return sm_tcl_error(in, "SOLVER", "step %lld is no longer kept (the history starts at step %lld)", k,
                            sm_history_first(h));
    const char *why = NULL;
    char buf[160];
    if (k <= sm_history_head(h)) sm_solver_seek(s, k);
    else {
        app->paused_by_interrupt = 0;
        if (sm_solve_run(app, in, k - sm_history_cursor(h))) return TCL_ERROR;
        if (sm_history_cursor(h) < k) {
            /* Short of K: say where, and why. */
            if (app->run_end == SM_RUN_BREAK)
                snprintf(buf, sizeof buf, "breakpoint %d (%s)", app->break_hit, sm_break_text(app, app->break_hit));
            else if (app->run_end == SM_RUN_PAUSE) snprintf(buf, sizeof buf, "paused");
            else snprintf(buf, sizeof buf, "%s %s", s->ops->name, s->stopped ? "was stopped" : s->status);
            why = buf;
            sm_view_log(app->view, SM_LOG_NOTE, "solver seek %lld: stopped at step %lld: %s", k,
                        sm_history_cursor(h), why);
        }
    }
    Tcl_Obj *d = sm_solve_state_dict(app, s);
    if (why) {
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("stopped_at", -1), Tcl_NewWideIntObj(sm_history_cursor(h)));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("stopped_why", -1), Tcl_NewStringObj(why, -1));
    }
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static int solver_back(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (need_history(app, in)) return TCL_ERROR;
    Tcl_WideInt n = 1;
    if (objc == 3 && (Tcl_GetWideIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 1))
        return sm_tcl_error(in, "ARGS", "solver back: expected a positive count, got \"%s\"",
                            Tcl_GetString(objv[2]));
    sm_history *h = app->solver->hist;
    long long k = sm_history_cursor(h) - n;
    if (k < sm_history_first(h))
        return sm_tcl_error(in, "SOLVER", "solver back %lld: at step %lld, the history starts at step %lld",
                            (long long)n, sm_history_cursor(h), sm_history_first(h));
    return seek_to(app, in, k);
}

static int solver_seek(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    Tcl_WideInt k;
    if (need_history(app, in) || get_step(in, objv[2], "solver seek", &k)) return TCL_ERROR;
    return seek_to(app, in, k);
}

static void put(Tcl_Obj *d, const char *k, Tcl_Obj *v) { Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v); }

/* The step's figures: its current mapping's evaluation (its best for a
 * solver with no current mapping). */
static const sm_eval *step_eval(const sm_history *h, const sm_hist_step *st)
{
    return st->has_current ? &st->current : st->has_best ? sm_history_best(h, st) : NULL;
}

static Tcl_Obj *step_stats(sm_app *app, const sm_solver *s, const sm_history *h, long long k)
{
    /* Values as of step k: seek is the one way to read them, so read the
     * record directly. */
    Tcl_Obj *d = Tcl_NewDictObj();
    const sm_hist_step *st = sm_history_step(h, k);
    const double *v = sm_history_stats(h, st);
    double proved = NAN;
    int bounding = 0;
    for (int i = 0; i < st->nstats; i++) {
        const char *key = s->stats[i].key;
        if (!strcmp(key, "bound")) proved = v[i];
        /* Their places kept; their values below. */
        if (!strcmp(key, "bound") || !strcmp(key, "gap")) bounding = 1;
        put(d, key, sm_solve_stat_obj(key, v[i]));
    }
    /* bound and gap as solver state gives them once step k is sought to
     * (sm_solve_put_bound): the session's bound raised by the one proved,
     * +inf once nothing can meet the deadline, no gap without a feasible
     * best. The raw record said "bound 0.0" for a proven-infeasible ILP
     * while state said Inf. */
    if (bounding && app->session) {
        double g;
        double b = sm_app_solver_bound_with(app, s, proved, st->has_best ? sm_history_best(h, st) : NULL, &g, NULL);
        put(d, "bound", Tcl_NewDoubleObj(b));
        Tcl_Obj *gap = Tcl_NewStringObj("gap", -1);
        Tcl_IncrRefCount(gap);
        if (isfinite(g)) Tcl_DictObjPut(NULL, d, gap, Tcl_NewDoubleObj(g));
        else Tcl_DictObjRemove(NULL, d, gap);
        Tcl_DecrRefCount(gap);
    }
    return d;
}

static Tcl_Obj *history_dict(sm_app *app, const sm_solver *s, const sm_history *h, long long k)
{
    const sm_hist_step *st = sm_history_step(h, k);
    const sm_eval *ev = step_eval(h, st);
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "iteration", Tcl_NewWideIntObj(st->iteration));
    put(d, "move", Tcl_NewStringObj(sm_history_move(h, st), -1));
    put(d, "reason", Tcl_NewStringObj(sm_history_why(h, st), -1));
    put(d, "objective", sm_solve_num(st->objective));
    put(d, "energy", ev ? Tcl_NewDoubleObj(ev->energy) : Tcl_NewObj());
    put(d, "time", ev ? Tcl_NewDoubleObj(ev->time) : Tcl_NewObj());
    put(d, "feasible", ev ? Tcl_NewIntObj(ev->feasible) : Tcl_NewObj());
    put(d, "best", sm_solve_num(st->best_objective));
    put(d, "stats", step_stats(app, s, h, k));
    return d;
}

static int range_opt(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *name, Tcl_WideInt *v)
{
    for (int i = 2; i + 1 < objc; i += 2)
        if (strcmp(Tcl_GetString(objv[i]), name) == 0 && get_step(in, objv[i + 1], "solver history", v))
            return TCL_ERROR;
    return TCL_OK;
}

static int solver_history(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (need_history(app, in)) return TCL_ERROR;
    if (objc % 2)
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"solver history ?-from K? ?-to K?\"");
    for (int i = 2; i < objc; i += 2)
        if (strcmp(Tcl_GetString(objv[i]), "-from") && strcmp(Tcl_GetString(objv[i]), "-to"))
            return sm_tcl_error(in, "ARGS", "solver history: unknown option \"%s\" (expected -from, -to)",
                                Tcl_GetString(objv[i]));
    const sm_history *h = app->solver->hist;
    Tcl_WideInt from = sm_history_first(h), to = sm_history_head(h);
    if (range_opt(in, objc, objv, "-from", &from) || range_opt(in, objc, objv, "-to", &to)) return TCL_ERROR;
    if (from < sm_history_first(h)) from = sm_history_first(h);
    if (to > sm_history_head(h)) to = sm_history_head(h);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (long long k = from; k <= to; k++) Tcl_ListObjAppendElement(NULL, l, history_dict(app, app->solver, h, k));
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

static Tcl_Obj *explain_dict(sm_app *app, const sm_solver *s, long long k)
{
    const sm_history *h = s->hist;
    const sm_hist_step *st = sm_history_step(h, k);
    const sm_hist_step *prev = sm_history_step(h, k - 1);
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "iteration", Tcl_NewWideIntObj(st->iteration));
    put(d, "move", Tcl_NewStringObj(sm_history_move(h, st), -1));
    put(d, "reason", Tcl_NewStringObj(sm_history_why(h, st), -1));
    put(d, "objective", sm_solve_num(st->objective));
    put(d, "best", sm_solve_num(st->best_objective));
    /* The change this step made to every key of the eval dict. */
    const sm_eval *a = prev ? step_eval(h, prev) : NULL, *b = step_eval(h, st);
    Tcl_Obj *delta = Tcl_NewDictObj();
    if (a && b) {
#define D(x) Tcl_NewDoubleObj((double)(x))
#define I(x) Tcl_NewWideIntObj((Tcl_WideInt)(x))
#define X(key, kind, expr)                                                                   \
        {                                                                                    \
            const sm_eval *ev = b;                                                           \
            double x1 = (double)(expr);                                                      \
            ev = a;                                                                          \
            double x0 = (double)(expr);                                                      \
            put(delta, #key, kind(x1 - x0));                                                 \
        }
        SM_EVAL_FIELDS(X)
#undef X
#undef D
#undef I
        put(delta, "objective", sm_solve_num(st->objective - prev->objective));
    }
    put(d, "delta", delta);
    Tcl_Obj *cands = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < st->ncand; i++) {
        sm_explain_cand c;
        sm_history_cand(h, st, i, &c);
        Tcl_Obj *cd = Tcl_NewDictObj();
        put(cd, "move", Tcl_NewStringObj(c.move, -1));
        put(cd, "objective", sm_solve_num(c.objective));
        put(cd, "delta", sm_solve_num(c.delta));
        put(cd, "tabu", Tcl_NewIntObj(c.tabu));
        Tcl_ListObjAppendElement(NULL, cands, cd);
    }
    put(d, "candidates", cands);
    Tcl_Obj *tabu = Tcl_NewListObj(0, NULL);
    const sm_explain_tabu *t = sm_history_tabu(h, st);
    for (int i = 0; i < st->ntabu; i++) {
        Tcl_Obj *td = Tcl_NewDictObj();
        const char *pn = s->topo && t[i].proc < s->topo->nprocs ? s->topo->procs[t[i].proc].name : "?";
        put(td, "attribute", Tcl_ObjPrintf("block %d %s %s", t[i].block, t[i].join ? "joins" : "leaves", pn));
        put(td, "remaining", Tcl_NewWideIntObj(t[i].remaining));
        Tcl_ListObjAppendElement(NULL, tabu, td);
    }
    put(d, "tabu", tabu);
    put(d, "stats", step_stats(app, s, h, k));
    /* A long step's values over its time (the ILP: incumbent and bound). */
    if (st->ntrace) {
        Tcl_Obj *tr = Tcl_NewListObj(0, NULL);
        const sm_explain_point *p = sm_history_trace(h, st);
        for (int i = 0; i < st->ntrace; i++) {
            Tcl_Obj *pd = Tcl_NewDictObj();
            put(pd, "seconds", Tcl_NewDoubleObj(p[i].seconds));
            put(pd, st->trace_a, sm_solve_num(p[i].a));
            put(pd, st->trace_b, sm_solve_num(p[i].b));
            Tcl_ListObjAppendElement(NULL, tr, pd);
        }
        put(d, "trace", tr);
    }
    return d;
}

/* The mapping the solver shows at the step shown: its current one, or
 * its best for a solver without one. */
static const int *shown_map(const sm_solver *s)
{
    return s->current_map ? s->current_map : s->has_best ? s->best_map : NULL;
}

static int need_shown_map(sm_app *app, Tcl_Interp *in, const int **map)
{
    if (need_live_solver(app, in)) return TCL_ERROR;
    if ((*map = shown_map(app->solver)) != NULL) return TCL_OK;
    return sm_tcl_error(in, "STATE", "%s has no mapping yet: step it first", app->solver->ops->name);
}

/* solver block B: the processor (index) block B is on in the solver's
 * mapping; for breakpoints (solver run -until {[solver block 7] != 2}). */
static int solver_block(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    const int *map;
    int b;
    if (need_shown_map(app, in, &map) || sm_get_block(app, in, objv[2], &b)) return TCL_ERROR;
    Tcl_SetObjResult(in, Tcl_NewIntObj(map[b]));
    return TCL_OK;
}

/* solver load P: how many blocks processor P (name or index) has in the
 * solver's mapping. */
static int solver_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    const int *map;
    if (need_shown_map(app, in, &map)) return TCL_ERROR;
    const sm_topo *t = app->solver->topo;
    int p;
    if (Tcl_GetIntFromObj(NULL, objv[2], &p) != TCL_OK) p = sm_topo_find_proc(t, Tcl_GetString(objv[2]));
    if (p < 0 || p >= t->nprocs)
        return sm_tcl_error(in, "ARGS", "solver load: no processor \"%s\"", Tcl_GetString(objv[2]));
    int count = 0;
    for (int b = 0; b < app->solver->grid->ntasks; b++) count += map[b] == p;
    Tcl_SetObjResult(in, Tcl_NewIntObj(count));
    return TCL_OK;
}

static int solver_explain(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (need_history(app, in)) return TCL_ERROR;
    const sm_history *h = app->solver->hist;
    Tcl_WideInt k = sm_history_cursor(h);
    if (objc == 3 && get_step(in, objv[2], "solver explain", &k)) return TCL_ERROR;
    if (k < sm_history_first(h) || k > sm_history_head(h))
        return sm_tcl_error(in, "SOLVER", "solver explain: no step %lld (steps %lld to %lld are kept)",
                            (long long)k, sm_history_first(h), sm_history_head(h));
    Tcl_SetObjResult(in, explain_dict(app, app->solver, k));
    return TCL_OK;
}

static int solver_state(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    Tcl_SetObjResult(in, sm_solve_state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_stop(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    sm_solver_stop(app->solver);
    Tcl_SetObjResult(in, sm_solve_state_dict(app, app->solver));
    return TCL_OK;
}

/* solver pause: a running solver (Space, solver run from a hook) pauses
 * after the step it is in; stepping on continues it (SPEC 5;
 * tui/app/solver_pause_and_stop_on_esc.c). */
static int solver_pause(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    sm_solver_pause(app);
    Tcl_SetObjResult(in, sm_solve_state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_apply(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_live_solver(app, in) || sm_solve_apply_best(app, in)) return TCL_ERROR;
    sm_eval ev;
    sm_cost_eval(app->session->cost, &ev);
    Tcl_SetObjResult(in, sm_eval_dict(&ev));
    return TCL_OK;
}

static int solver_list(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app; (void)objc; (void)objv;
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    const sm_solver_ops *const *all = sm_solver_list();
    for (int i = 0; all[i]; i++) Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(all[i]->name, -1));
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

/* solver options NAME: the declared options with defaults and help. */
static int solver_options(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app; (void)objc;
    const sm_solver_ops *ops = sm_solver_find(Tcl_GetString(objv[2]));
    if (!ops) return sm_tcl_error(in, "ARGS", "unknown solver \"%s\"", Tcl_GetString(objv[2]));
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; ops->opts[i].name; i++) {
        const sm_opt_spec *o = &ops->opts[i];
        Tcl_Obj *d = Tcl_NewDictObj();
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("name", -1), Tcl_ObjPrintf("-%s", o->name));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("default", -1), Tcl_NewStringObj(o->def ? o->def : "", -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("choices", -1), Tcl_NewStringObj(o->choices ? o->choices : "", -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("help", -1), Tcl_NewStringObj(o->help ? o->help : "", -1));
        Tcl_ListObjAppendElement(NULL, l, d);
    }
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

static const sm_subcmd solver_subs[] = {
    {"start", solver_start, 1, -1, "NAME ?-option value ...?"},
    {"step", solver_step, 0, 1, "?N?"},
    {"back", solver_back, 0, 1, "?N?"},
    {"seek", solver_seek, 1, 1, "K"},
    {"run", solver_run, 0, 3, "?-back? ?-until EXPR?"},
    {"break", sm_solver_break, 1, 2, "add EXPR | list | delete ID | disable ID | enable ID"},
    {"eval", sm_solver_eval, 0, 0, ""},
    {"metrics", sm_solver_metrics, 0, 0, ""},
    {"pause", solver_pause, 0, 0, ""},
    {"branch", sm_solver_branch, 1, -1, "K ?-option value ...?"},
    {"runs", sm_solver_runs, 0, 0, ""},
    {"switch", sm_solver_switch, 1, 1, "NAME"},
    {"history", solver_history, 0, 4, "?-from K? ?-to K?"},
    {"explain", solver_explain, 0, 1, "?K?"},
    {"block", solver_block, 1, 1, "BLOCK"},
    {"load", solver_load, 1, 1, "PROC"},
    {"state", solver_state, 0, 0, ""},
    {"stop", solver_stop, 0, 0, ""},
    {"apply", solver_apply, 0, 0, ""},
    {"list", solver_list, 0, 0, ""},
    {"options", solver_options, 1, 1, "NAME"},
    {NULL, NULL, 0, 0, NULL},
};

static int solver_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, solver_subs);
}

static int on_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    static const char *const events[] = {"step", "solved", "changed", NULL};
    if (objc < 2 || objc > 3) {
        Tcl_WrongNumArgs(in, 1, objv, "step|solved|changed ?SCRIPT?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    int idx;
    if (sm_get_opt_index(in, objv[1], events, &idx)) return TCL_ERROR;
    Tcl_Obj **slot = idx == 0 ? &app->hook_step : idx == 1 ? &app->hook_solved : &app->hook_changed;
    if (objc == 3) {
        sm_app_record(app, objc, objv);
        if (*slot) Tcl_DecrRefCount(*slot);
        *slot = NULL;
        if (Tcl_GetCharLength(objv[2]) > 0) {
            *slot = sm_script_for_main(app, in, objv[2]);
            Tcl_IncrRefCount(*slot);
        }
    }
    Tcl_SetObjResult(in, *slot ? *slot : Tcl_NewObj());
    return TCL_OK;
}

void sm_register_solve_cmds(sm_app *app)
{
    sm_create_ensemble(app, "solve", sm_solve_cmd, NULL);
    sm_create_ensemble(app, "solver", solver_cmd, solver_subs);
    sm_create_ensemble(app, "on", on_cmd, NULL);
}
