/* cmd_solve.c - solve NAME ?options?, the solver stepper, and hooks
 * (on step|solved|changed). A run can be interrupted (SIGINT, or a key in
 * the TUI) and keeps the best mapping found. */
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
#include "solvers/stepper/step_history.h"
#include "tui/app/solver_worker_thread.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A number, or {} when unknown (NaN has no Tcl form). */
static Tcl_Obj *num(double v) { return v == v ? Tcl_NewDoubleObj(v) : Tcl_NewObj(); }

/* A solver statistic: a count as a Tcl integer (examined 144, not 144.0),
 * any other figure as a double. */
static Tcl_Obj *stat_obj(const char *key, double v)
{
    if (sm_is_count(key) && isfinite(v) && v == floor(v) && fabs(v) < 9e15) return Tcl_NewWideIntObj((Tcl_WideInt)v);
    return num(v);
}

/* `current` and `best` of solver state: the same keys for every solver,
 * empty values while there is no such mapping yet. */
static Tcl_Obj *objective_dict(const sm_eval *ev, double objective)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("energy", -1), ev ? Tcl_NewDoubleObj(ev->energy) : Tcl_NewObj());
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("time", -1), ev ? Tcl_NewDoubleObj(ev->time) : Tcl_NewObj());
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("feasible", -1), ev ? Tcl_NewIntObj(ev->feasible) : Tcl_NewObj());
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("objective", -1), num(objective));
    return d;
}

/* counts, profile_time, profile_energy (and for total profile_total) of
 * a partition by counts. */
static Tcl_Obj *partition_point(int P, const int *counts, double time, double energy, const double *total,
                                Tcl_Obj *d)
{
    Tcl_Obj *c = Tcl_NewListObj(0, NULL);
    for (int p = 0; p < P; p++) Tcl_ListObjAppendElement(NULL, c, Tcl_NewIntObj(counts[p]));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("counts", -1), c);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("profile_time", -1), Tcl_NewDoubleObj(time));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("profile_energy", -1), Tcl_NewDoubleObj(energy));
    if (total) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("profile_total", -1), Tcl_NewDoubleObj(*total));
    return d;
}

static void put_partition(Tcl_Obj *d, const sm_partition *pt)
{
    if (!pt || pt->time < 0) return;
    partition_point(pt->nprocs, pt->counts, pt->time, pt->energy, pt->has_total ? &pt->total : NULL, d);
    if (!pt->has_front) return;
    Tcl_Obj *f = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < pt->nfront; i++)
        Tcl_ListObjAppendElement(NULL, f, partition_point(pt->nprocs, pt->front[i].counts, pt->front[i].time,
                                                          pt->front[i].energy,
                                                          pt->has_total ? &pt->front[i].total : NULL,
                                                          Tcl_NewDictObj()));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("front", -1), f);
}

/* The DVFS states of a solver that chooses them, a state name per
 * processor ("base": its type's own parameters). */
static Tcl_Obj *state_names(const sm_topo *t, const int *states)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int p = 0; p < t->nprocs; p++) {
        const sm_type *T = &t->types[t->procs[p].type];
        int k = states[p];
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(k >= 0 && k < T->nstates ? T->state_names[k] : "base", -1));
    }
    return l;
}

static void put_states(Tcl_Obj *d, const sm_solver *s)
{
    if (!s->topo || !s->best_states) return;
    if (s->current_states)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("states", -1), state_names(s->topo, s->current_states));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("best_states", -1), state_names(s->topo, s->best_states));
}

static void put_stats(Tcl_Obj *d, const sm_solver *s)
{
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("solver", -1), Tcl_NewStringObj(s->ops->name, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("status", -1), Tcl_NewStringObj(s->status, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("iterations", -1), Tcl_NewWideIntObj(s->iteration));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("seconds", -1), Tcl_NewDoubleObj(s->seconds));
    for (int i = 0; i < s->nstats; i++)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(s->stats[i].key, -1),
                       s->stats[i].value == s->stats[i].value ? stat_obj(s->stats[i].key, s->stats[i].value)
                                                              : Tcl_NewDoubleObj(s->stats[i].value));
    put_partition(d, s->partition);
    put_states(d, s);
}

/* bound and gap: the model's lower bound (the larger of it and a bound
 * the solver proved itself, the ILP's) and how far the energy e of a
 * feasible mapping is above it, (e - bound) / e; no gap without a
 * feasible mapping. */
static void put_bound(sm_app *app, Tcl_Obj *d, const sm_solver *s, const sm_eval *ev)
{
    /* A solver that picks DVFS states is measured against the bound over
     * every state: the session's states alone do not bound it. */
    double b = s->best_states ? sm_app_bound_dvfs(app) : sm_app_bound(app)->energy;
    /* A solver that held itself to a deadline of its own (the scenario
     * has none: tabu takes its fastest start's time) is measured at that
     * deadline, as it searched; `model bound`, with no deadline, bounds
     * mappings of any makespan and is lower. */
    if (s->deadline_from && s->model.has_deadline && !app->session->model.has_deadline) {
        b = sm_app_bound_at(app, s->model.deadline, s->best_states != NULL);
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("deadline_from", -1), Tcl_NewStringObj(s->deadline_from, -1));
    }
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, "bound") == 0 && s->stats[i].value > b && isfinite(b))
            b = s->stats[i].value;
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("bound", -1), Tcl_NewDoubleObj(b));
    Tcl_Obj *gap = Tcl_NewStringObj("gap", -1);
    Tcl_IncrRefCount(gap);
    if (ev && ev->feasible && isfinite(b) && ev->energy > 0) {
        /* Rounding of a proven optimum's sums is no gap. */
        double g = (ev->energy - b) / ev->energy;
        Tcl_DictObjPut(NULL, d, gap, Tcl_NewDoubleObj(g < 1e-12 ? 0 : g));
    }
    else
        Tcl_DictObjRemove(NULL, d, gap);
    Tcl_DecrRefCount(gap);
}

static Tcl_Obj *state_dict(sm_app *app, const sm_solver *s)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    put_stats(d, s);
    put_bound(app, d, s, s->has_best ? &s->best : NULL);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("done", -1), Tcl_NewIntObj(s->done));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("last_move", -1), Tcl_NewStringObj(s->last_move, -1));
    /* A solver with no current mapping of its own (the constructive
     * ones) is at its best. */
    int cur = s->has_current || s->has_best;
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("current", -1),
                   objective_dict(cur ? (s->has_current ? &s->current : &s->best) : NULL,
                                  cur ? sm_solver_objective_now(s) : NAN));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("best", -1),
                   objective_dict(s->has_best ? &s->best : NULL, sm_solver_objective_best(s)));
    if (s->hist) {
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("steps", -1), Tcl_NewWideIntObj(sm_history_head(s->hist)));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("first_step", -1), Tcl_NewWideIntObj(sm_history_first(s->hist)));
    }
    if (s->reason[0])
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("reason", -1), Tcl_NewStringObj(s->reason, -1));
    return d;
}

static sm_app *sigint_app;
static void on_sigint(int sig)
{
    (void)sig;
    if (sigint_app) sigint_app->interrupt = 1;
}

/* Hooks run in the main interpreter (one set from the safe interpreter is
 * wrapped to run there, see sm_script_for_main); the outcome is handed to
 * the interpreter whose command is running. */
static int hook(sm_app *app, Tcl_Interp *in, Tcl_Obj *script)
{
    Tcl_IncrRefCount(script);
    int rc = Tcl_EvalObjEx(app->interp, script, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(script);
    if (in != app->interp) Tcl_TransferResult(app->interp, rc, in);
    return rc;
}

/* Whether the breakpoint expression holds, with `state` set to solver
 * state in the caller's frame (SPEC 5: solver run -until EXPR). */
static int until_met(sm_app *app, Tcl_Interp *in, Tcl_Obj *until, int *met)
{
    if (!Tcl_SetVar2Ex(in, "state", NULL, state_dict(app, app->solver), TCL_LEAVE_ERR_MSG)) return TCL_ERROR;
    if (Tcl_ExprBooleanObj(in, until, met) != TCL_OK) {
        Tcl_AddErrorInfo(in, "\n    (\"solver run -until\" expression)");
        return TCL_ERROR;
    }
    return TCL_OK;
}

/* Step until done (or max units, or the breakpoint until holds), running
 * hooks and showing progress. */
static int run_until(sm_app *app, Tcl_Interp *in, long long max, Tcl_Obj *until, int *hit)
{
    sm_solver *s = app->solver;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigint_app = app;
    /* Inside a study an interrupt that came while the job was loading or
     * the solver starting is the study's: keep it so the job stops. */
    if (!app->in_study) app->interrupt = 0;
    sigaction(SIGINT, &sa, &old);
    app->solver_depth++;
    double last = now();
    long long done = 0;
    int rc = TCL_OK;
    if (hit) *hit = 0;
    while (!s->done && done < max) {
        long long chunk = app->hook_step || until ? 1 : 64;
        if (chunk > max - done) chunk = max - done;
        done += sm_solver_step(s, chunk);
        if (s->has_best) { /* the objective it optimises, not always energy */
            double cur, best;
            sm_solver_objective(s, &cur, &best);
            if (!isnan(best)) sm_view_spark_add(app->view, isnan(cur) ? best : cur, best);
        }
        if (app->hook_step) {
            rc = hook(app, in, app->hook_step);
            if (rc == TCL_BREAK) { sm_solver_stop(s); rc = TCL_OK; }
            if (rc != TCL_OK) {
                Tcl_AddErrorInfo(in, "\n    (\"on step\" hook)");
                break;
            }
        }
        if (until) {
            int met = 0;
            if ((rc = until_met(app, in, until, &met)) != TCL_OK) break;
            if (met) {
                if (hit) *hit = 1;
                break;
            }
        }
        if (app->interrupt) sm_solver_stop(s);
        if (app->screen && now() - last > 0.05) {
            sm_app_progress(app);
            last = now();
        }
    }
    app->solver_depth--;
    sigaction(SIGINT, &old, NULL);
    sigint_app = NULL;
    if (!app->screen && isatty(2) && s->nstats && s->seconds > 0.5) fputs("\n", stderr);
    if (rc == TCL_OK && s->done && app->hook_solved) {
        rc = hook(app, in, app->hook_solved);
        if (rc == TCL_ERROR) Tcl_AddErrorInfo(in, "\n    (\"on solved\" hook)");
    }
    return rc;
}

static int run(sm_app *app, Tcl_Interp *in, long long max) { return run_until(app, in, max, NULL, NULL); }

/* How long `solver start` in the workbench waits for the solver's own
 * start before it answers "starting" and lets it finish in the
 * background (the panes follow it from the frame it is ready). */
#define START_WAIT 0.03

static int start(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[], int first, int background)
{
    /* Replacing the solver under its own running steps would free it. */
    if (sm_app_check_busy(app, in, "solver start")) return TCL_ERROR;
    sm_app_solver_abandon(app);
    const char *name = Tcl_GetString(objv[first]);
    const sm_solver_ops *ops = sm_solver_find(name);
    if (!ops) {
        char list[512] = "";
        const sm_solver_ops *const *all = sm_solver_list();
        for (int i = 0; all[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, all[i]->name, sizeof list - strlen(list) - 1);
        }
        return sm_tcl_error(in, "ARGS", "unknown solver \"%s\" (expected %s)", name, list);
    }
    int argc = objc - first - 1;
    if (argc % 2)
        return sm_tcl_error(in, "ARGS", "%s: options come in pairs: -option value", name);
    const char **argv = sm_xmalloc(sizeof(char *) * (size_t)(argc + 1));
    for (int i = 0; i < argc; i++) argv[i] = Tcl_GetString(objv[first + 1 + i]);
    sm_err e;
    sm_session *ss = app->session;
    sm_solver *s = sm_solver_prepare(ops, ss->grid, ss->topo, &ss->model, sm_session_map(ss),
                                     argc, argv, &e);
    free(argv);
    if (!s) return sm_tcl_error(in, "ARGS", "%s", e.msg);
    /* A file an option names (ilp -export) is confined like any other,
     * here, before a start that may go on in the background. */
    const char *export = sm_opt_str(s, "export");
    if (export) {
        /* Opened now, beneath what the guard allows: the write happens
         * later, maybe in the background, in the directory held here. */
        s->export_to = sm_xmalloc(sizeof *s->export_to);
        if (sm_save_open(export, s->export_to, &e)) {
            free(s->export_to);
            s->export_to = NULL;
            sm_solver_free(s);
            return sm_tcl_error(in, "ARGS", "%s", e.msg);   /* SAFE PATH when refused */
        }
    }
    app->view->running = 0;
    if (!background || !app->screen) {
        if (sm_solver_init(s, &e)) {
            sm_solver_free(s);
            return sm_tcl_err(in, "ARGS", &e);
        }
        sm_app_solver_install(app, s, NULL, 1);
        return TCL_OK;
    }
    /* The workbench: a start done within START_WAIT is installed now (a
     * failed one leaves the old solver, as in batch); a longer one goes on
     * in the background, the old solver goes, and the panes show the
     * session's mapping until the new one is ready. */
    sm_solver_start *st = sm_solver_start_begin(s, &ss->model);
    if (!sm_solver_start_wait(st, START_WAIT)) {
        sm_app_drop_solver(app);
        app->starting = st;
        app->view->show_solver = 1;
        return TCL_OK;
    }
    sm_cost *view;
    s = sm_solver_start_end(st, &view, NULL, &e);
    if (!s) return sm_tcl_err(in, "ARGS", &e);
    sm_app_solver_install(app, s, view, 1);
    return TCL_OK;
}

/* What `solver start` answers while the start runs in the background. */
static Tcl_Obj *starting_dict(const sm_solver_start *st)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("solver", -1), Tcl_NewStringObj(sm_solver_start_name(st), -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("status", -1), Tcl_NewStringObj("starting", -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("iterations", -1), Tcl_NewIntObj(0));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("done", -1), Tcl_NewIntObj(0));
    return d;
}

/* The DVFS states a solver chose (tabu -dvfs, ilp -dvfs), where they
 * differ from the session's, and its mapping, as one undoable edit: the
 * machine stays (its processors switch state in place), so undo restores
 * both the mapping and the states, and redo reapplies them. A processor
 * in its type's state follows the type again. The solver lets go of the
 * session's machine (it solved another) but keeps its status and results.
 * Returns 1 when states changed. */
static int apply_states(sm_app *app, const char *label)
{
    sm_solver *s = app->solver;
    const sm_topo *cur = app->session->topo;
    if (!s->best_states) return 0;
    int differ = 0;
    for (int p = 0; p < cur->nprocs; p++) differ |= s->best_states[p] != sm_topo_proc_state(cur, p);
    if (!differ) return 0;
    sm_state_change *st = sm_xmalloc(sizeof *st * (size_t)cur->nprocs);
    for (int p = 0; p < cur->nprocs; p++) {
        const sm_type *T = &cur->types[cur->procs[p].type];
        int of_type = T->state >= 0 ? T->state : SM_STATE_BASE;
        st[p] = (sm_state_change){SM_STATE_OF_PROC, p, 0, s->best_states[p] == of_type ? -1 : s->best_states[p]};
    }
    char status[64];
    snprintf(status, sizeof status, "%s", s->status);
    sm_app_detach_solver(app, label);
    snprintf(s->status, sizeof s->status, "%s", status);
    snprintf(s->reason, sizeof s->reason, "its DVFS states were applied");
    sm_session_apply_states(app->session, st, cur->nprocs, s->best_map, label);
    free(st);
    sm_app_sync_view(app);
    return 1;
}

static int apply_best(sm_app *app, Tcl_Interp *in)
{
    sm_solver *s = app->solver;
    if (!s->has_best) return sm_tcl_error(in, "SOLVER", "%s: no mapping found yet", s->ops->name);
    char label[96];
    snprintf(label, sizeof label, "solve %s", s->ops->name);
    app->view->show_solver = 0;
    if (apply_states(app, label)) return sm_app_changed(app);
    if (sm_session_apply(app->session, s->best_map, label) > 0 && sm_app_changed(app) != TCL_OK)
        return TCL_ERROR;
    return TCL_OK;
}

static int solve_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    if (objc < 2) {
        Tcl_WrongNumArgs(in, 1, objv, "NAME ?-option value ...?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    sm_app_record(app, objc, objv);
    app->depth++;
    int rc = start(app, in, objc, objv, 1, 0);
    if (rc == TCL_OK) rc = run(app, in, (long long)9e18);
    if (rc == TCL_OK) rc = apply_best(app, in);
    if (rc == TCL_OK) {
        sm_eval ev;
        sm_cost_eval(app->session->cost, &ev);
        Tcl_Obj *d = sm_eval_dict(&ev);
        put_stats(d, app->solver);
        put_bound(app, d, app->solver, &ev);
        Tcl_SetObjResult(in, d);
    }
    app->depth--;
    return rc;
}

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
    if (start(app, in, objc, objv, 2, 1)) return TCL_ERROR;
    sm_app_solver_pick(app, sm_solver_find(Tcl_GetString(objv[2])));
    Tcl_SetObjResult(in, app->starting ? starting_dict(app->starting) : state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_step(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (need_live_solver(app, in)) return TCL_ERROR;
    Tcl_WideInt n = 1;
    if (objc == 3 && (Tcl_GetWideIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 1))
        return sm_tcl_error(in, "ARGS", "solver step: expected a positive count, got \"%s\"",
                            Tcl_GetString(objv[2]));
    if (run(app, in, n)) return TCL_ERROR;
    Tcl_SetObjResult(in, state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_run(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Obj *until = NULL;
    if (objc == 4 && strcmp(Tcl_GetString(objv[2]), "-until") == 0) until = objv[3];
    else if (objc != 2)
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"solver run ?-until EXPR?\"");
    if (need_live_solver(app, in)) return TCL_ERROR;
    int hit = 0;
    if (until) {
        /* A bad expression is an error before the run, not after a step. */
        Tcl_Obj *probe = Tcl_DuplicateObj(until);
        Tcl_IncrRefCount(probe);
        int met, rc = until_met(app, in, probe, &met);
        Tcl_DecrRefCount(probe);
        if (rc != TCL_OK) return TCL_ERROR;
    }
    if (run_until(app, in, (long long)9e18, until, &hit)) return TCL_ERROR;
    if (hit)
        sm_view_log(app->view, SM_LOG_NOTE, "breakpoint at step %lld: %s", app->solver->iteration,
                    Tcl_GetString(until));
    else if (until)
        /* A run that ends without its breakpoint says so: it stopped for
         * another reason (the end, an interrupt, a hook's break). */
        sm_view_log(app->view, SM_LOG_NOTE, "%s %s after %lld iterations; breakpoint not reached (%s)",
                    app->solver->ops->name, app->solver->done ? app->solver->status : "paused", app->solver->iteration,
                    Tcl_GetString(until));
    Tcl_Obj *d = state_dict(app, app->solver);
    if (until) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("breakpoint", -1), Tcl_NewIntObj(hit));
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
    if (k <= sm_history_head(h)) sm_solver_seek(s, k);
    else if (run(app, in, k - sm_history_cursor(h))) return TCL_ERROR;
    Tcl_SetObjResult(in, state_dict(app, s));
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
static const sm_eval *step_eval(const sm_hist_step *st)
{
    return st->has_current ? &st->current : st->has_best ? &st->best : NULL;
}

static Tcl_Obj *step_stats(const sm_solver *s, const sm_history *h, long long k)
{
    /* Values as of step k: seek is the one way to read them, so read the
     * record directly. */
    Tcl_Obj *d = Tcl_NewDictObj();
    const sm_hist_step *st = sm_history_step(h, k);
    const double *v = sm_history_stats(h, st);
    for (int i = 0; i < st->nstats; i++) put(d, s->stats[i].key, stat_obj(s->stats[i].key, v[i]));
    return d;
}

static Tcl_Obj *history_dict(const sm_solver *s, const sm_history *h, long long k)
{
    const sm_hist_step *st = sm_history_step(h, k);
    const sm_eval *ev = step_eval(st);
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "iteration", Tcl_NewWideIntObj(st->iteration));
    put(d, "move", Tcl_NewStringObj(sm_history_move(h, st), -1));
    put(d, "reason", Tcl_NewStringObj(sm_history_why(h, st), -1));
    put(d, "objective", num(st->objective));
    put(d, "energy", ev ? Tcl_NewDoubleObj(ev->energy) : Tcl_NewObj());
    put(d, "time", ev ? Tcl_NewDoubleObj(ev->time) : Tcl_NewObj());
    put(d, "feasible", ev ? Tcl_NewIntObj(ev->feasible) : Tcl_NewObj());
    put(d, "best", num(st->best_objective));
    put(d, "stats", step_stats(s, h, k));
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
    for (long long k = from; k <= to; k++) Tcl_ListObjAppendElement(NULL, l, history_dict(app->solver, h, k));
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

static Tcl_Obj *explain_dict(const sm_solver *s, long long k)
{
    const sm_history *h = s->hist;
    const sm_hist_step *st = sm_history_step(h, k);
    const sm_hist_step *prev = sm_history_step(h, k - 1);
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "iteration", Tcl_NewWideIntObj(st->iteration));
    put(d, "move", Tcl_NewStringObj(sm_history_move(h, st), -1));
    put(d, "reason", Tcl_NewStringObj(sm_history_why(h, st), -1));
    put(d, "objective", num(st->objective));
    put(d, "best", num(st->best_objective));
    /* The change this step made to every key of the eval dict. */
    const sm_eval *a = prev ? step_eval(prev) : NULL, *b = step_eval(st);
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
        put(delta, "objective", num(st->objective - prev->objective));
    }
    put(d, "delta", delta);
    Tcl_Obj *cands = Tcl_NewListObj(0, NULL);
    const sm_explain_cand *c = sm_history_cands(h, st);
    for (int i = 0; i < st->ncand; i++) {
        Tcl_Obj *cd = Tcl_NewDictObj();
        put(cd, "move", Tcl_NewStringObj(c[i].move, -1));
        put(cd, "objective", num(c[i].objective));
        put(cd, "delta", num(c[i].delta));
        put(cd, "tabu", Tcl_NewIntObj(c[i].tabu));
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
    put(d, "stats", step_stats(s, h, k));
    /* A long step's values over its time (the ILP: incumbent and bound). */
    if (st->ntrace) {
        Tcl_Obj *tr = Tcl_NewListObj(0, NULL);
        const sm_explain_point *p = sm_history_trace(h, st);
        for (int i = 0; i < st->ntrace; i++) {
            Tcl_Obj *pd = Tcl_NewDictObj();
            put(pd, "seconds", Tcl_NewDoubleObj(p[i].seconds));
            put(pd, st->trace_a, num(p[i].a));
            put(pd, st->trace_b, num(p[i].b));
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
    Tcl_SetObjResult(in, explain_dict(app->solver, k));
    return TCL_OK;
}

static int solver_state(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    Tcl_SetObjResult(in, state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_stop(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    sm_solver_stop(app->solver);
    Tcl_SetObjResult(in, state_dict(app, app->solver));
    return TCL_OK;
}

static int solver_apply(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_live_solver(app, in) || apply_best(app, in)) return TCL_ERROR;
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
    {"run", solver_run, 0, 2, "?-until EXPR?"},
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
    sm_create_ensemble(app, "solve", solve_cmd, NULL);
    sm_create_ensemble(app, "solver", solver_cmd, solver_subs);
    sm_create_ensemble(app, "on", on_cmd, NULL);
}
