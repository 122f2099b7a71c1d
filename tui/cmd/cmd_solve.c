/* cmd_solve.c - solve NAME ?options?, the solver stepper, and hooks
 * (on step|solved|changed). A run can be interrupted (SIGINT, or a key in
 * the TUI) and keeps the best mapping found. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "solvers/registry.h"
#include "cmd.h"
#include "tui/app/solver_start.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static Tcl_Obj *objective_dict(const sm_eval *ev)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("energy", -1), Tcl_NewDoubleObj(ev->energy));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("time", -1), Tcl_NewDoubleObj(ev->time));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("feasible", -1), Tcl_NewIntObj(ev->feasible));
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

static void put_stats(Tcl_Obj *d, const sm_solver *s)
{
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("solver", -1), Tcl_NewStringObj(s->ops->name, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("status", -1), Tcl_NewStringObj(s->status, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("iterations", -1), Tcl_NewWideIntObj(s->iteration));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("seconds", -1), Tcl_NewDoubleObj(s->seconds));
    for (int i = 0; i < s->nstats; i++)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(s->stats[i].key, -1),
                       Tcl_NewDoubleObj(s->stats[i].value));
    put_partition(d, s->partition);
}

static Tcl_Obj *state_dict(const sm_solver *s)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    put_stats(d, s);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("done", -1), Tcl_NewIntObj(s->done));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("last_move", -1), Tcl_NewStringObj(s->last_move, -1));
    if (s->has_current)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("current", -1), objective_dict(&s->current));
    if (s->has_best)
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("best", -1), objective_dict(&s->best));
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

/* Step until done (or max units), running hooks and showing progress. */
static int run(sm_app *app, Tcl_Interp *in, long long max)
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
    while (!s->done && done < max) {
        long long chunk = app->hook_step ? 1 : 64;
        if (chunk > max - done) chunk = max - done;
        done += sm_solver_step(s, chunk);
        if (s->has_best)
            sm_view_spark_add(app->view, s->has_current ? s->current.energy : s->best.energy,
                              s->best.energy);
        if (app->hook_step) {
            rc = hook(app, in, app->hook_step);
            if (rc == TCL_BREAK) { sm_solver_stop(s); rc = TCL_OK; }
            if (rc != TCL_OK) {
                Tcl_AddErrorInfo(in, "\n    (\"on step\" hook)");
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
    if (export && sm_safe_check_path(app, in, export, SM_PATH_WRITE)) {
        sm_solver_free(s);
        return TCL_ERROR;
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

static int apply_best(sm_app *app, Tcl_Interp *in)
{
    sm_solver *s = app->solver;
    if (!s->has_best) return sm_tcl_error(in, "SOLVER", "%s: no mapping found yet", s->ops->name);
    char label[96];
    snprintf(label, sizeof label, "solve %s", s->ops->name);
    app->view->show_solver = 0;
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
    Tcl_SetObjResult(in, app->starting ? starting_dict(app->starting) : state_dict(app->solver));
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
    Tcl_SetObjResult(in, state_dict(app->solver));
    return TCL_OK;
}

static int solver_run(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_live_solver(app, in) || run(app, in, (long long)9e18)) return TCL_ERROR;
    Tcl_SetObjResult(in, state_dict(app->solver));
    return TCL_OK;
}

static int solver_state(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    Tcl_SetObjResult(in, state_dict(app->solver));
    return TCL_OK;
}

static int solver_stop(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (need_solver(app, in)) return TCL_ERROR;
    sm_solver_stop(app->solver);
    Tcl_SetObjResult(in, state_dict(app->solver));
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
    {"run", solver_run, 0, 0, ""},
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
