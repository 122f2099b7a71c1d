/* cmd_solve.c - solve NAME ?options?: a solver started (in the background
 * in the workbench), run until done or interrupted (SIGINT, or a key in
 * the TUI) keeping the best mapping found, the hooks (on step|solved|
 * changed) called as it goes, its best mapping and DVFS states applied.
 * The `solver` subcommands are in cmd_solver.c. */
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
#include "tui/app/solver_pause_and_stop_on_esc.h"
#include "cmd_solve.h"
#include "cmd_solver_breakpoints_and_condition_check.h"
#include "core/lib/atomic_file_write.h"

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
int sm_solve_until_met(sm_app *app, Tcl_Interp *in, Tcl_Obj *until, int *met)
{
    if (!Tcl_SetVar2Ex(in, "state", NULL, sm_solve_state_dict(app, app->solver), TCL_LEAVE_ERR_MSG)) return TCL_ERROR;
    if (Tcl_ExprBooleanObj(in, until, met) != TCL_OK) {
        Tcl_AddErrorInfo(in, "\n    (\"solver run -until\" expression)");
        return TCL_ERROR;
    }
    return TCL_OK;
}

/* Step until done (or max units, or the breakpoint until holds), running
 * hooks and showing progress. */
int sm_solve_run_until(sm_app *app, Tcl_Interp *in, long long max, Tcl_Obj *until, int *hit)
{
    sm_solver *s = app->solver;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigint_app = app;
    /* Inside a study an interrupt that came while the job was loading or
     * the solver starting is the study's: keep it so the job stops; so is
     * one that came while this command started the solver (kept_interrupt:
     * a C-c during a long start must stop the solve, not be forgotten). */
    if (!app->in_study && !app->kept_interrupt) app->interrupt = 0;
    app->kept_interrupt = 0;
    sigaction(SIGINT, &sa, &old);
    app->solver_depth++;
    double last = sm_solve_now();
    long long done = 0;
    int rc = TCL_OK;
    if (hit) *hit = 0;
    app->break_hit = 0;
    app->run_end = SM_RUN_COUNT;
    app->pause_request = 0;
    int nbreaks = sm_breaks_enabled(app);
    while (!s->done && done < max) {
        long long chunk = app->hook_step || until || nbreaks ? 1 : 64;
        if (chunk > max - done) chunk = max - done;
        done += sm_solver_step(s, chunk);
        if (s->has_best) { /* view state's history (the pane reads the solver's) */
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
            if ((rc = sm_solve_until_met(app, in, until, &met)) != TCL_OK) break;
            if (met) {
                if (hit) *hit = 1;
                app->run_end = SM_RUN_UNTIL;
                break;
            }
        }
        if (nbreaks) {
            /* Breakpoints that last: the first enabled one that holds. */
            int id = 0;
            if ((rc = sm_breaks_test(app, in, sm_solve_state_dict(app, s), &id)) != TCL_OK) break;
            if (id) {
                app->break_hit = id;
                app->run_end = SM_RUN_BREAK;
                app->view->running = 0;
                sm_view_log(app->view, SM_LOG_NOTE, "breakpoint %d at step %lld: %s", id, s->iteration,
                            sm_break_text(app, id));
                break;
            }
        }
        if (app->limit_tripped) {
            /* A safe script's -limit-time passed inside this run: the
             * solver pauses with all it found (solve applies nothing), the
             * command ends with {STENCILMAP SAFE LIMIT}. */
            app->run_end = SM_RUN_PAUSE;
            app->view->running = 0;
            sm_view_log(app->view, SM_LOG_NOTE, "%s paused at step %lld: the safe script's time limit",
                        s->ops->name, s->iteration);
            rc = sm_safe_limit_raise(app, in);
            break;
        }
        if (app->interrupt || app->pause_request) {
            /* Interrupt is pause (SPEC 5): tui/app/solver_pause_and_stop_on_esc.c. */
            if (sm_solver_pause_or_stop_on_interrupt(app, s)) app->run_end = SM_RUN_PAUSE;
            break;
        }
        if (app->screen && sm_solve_now() - last > 0.05) {
            sm_app_progress(app);
            last = sm_solve_now();
        }
    }
    if (s->done) app->run_end = SM_RUN_END;
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

int sm_solve_run(sm_app *app, Tcl_Interp *in, long long max) { return sm_solve_run_until(app, in, max, NULL, NULL); }

/* How long `solver start` in the workbench waits for the solver's own
 * start before it answers "starting" and lets it finish in the
 * background (the panes follow it from the frame it is ready). */
#define START_WAIT 0.03

int sm_solve_start(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[], int first, int background)
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
        /* The start can be long (an ILP's model, tabu's first solution on
         * a large grid): C-c during it reaches it (the solver polls
         * app->interrupt) and is kept for the run that follows. */
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        if (!app->in_study) app->interrupt = 0;
        sigint_app = app;
        sigaction(SIGINT, &sa, &old);
        s->interrupt = &app->interrupt;
        int bad = sm_solver_init(s, &e);
        s->interrupt = NULL;
        sigaction(SIGINT, &old, NULL);
        sigint_app = NULL;
        app->kept_interrupt = app->interrupt != 0;
        if (!bad && app->limit_tripped) {
            /* The time limit cut the start short: no solver from it. */
            sm_solver_free(s);
            return sm_safe_limit_raise(app, in);
        }
        if (bad) {
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
Tcl_Obj *sm_solve_starting_dict(const sm_solver_start *st)
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

/* bound_beside: the caller reads the solver's bound next (solve's
 * answer): it is computed on another thread while the mapping is
 * applied (a 262 K-block apply rebuilds the session's cost state, the
 * bound sets up the grid's boundary profile: each ~1.5 % of a 2-thread
 * solve), and waited for before the hooks run. The rebuild itself is
 * made on the solver's threads too (its blocks beside its edges): at
 * 1 M blocks it took longer than the bound beside it. */
static int apply_best(sm_app *app, Tcl_Interp *in, int bound_beside)
{
    sm_solver *s = app->solver;
    if (!s->has_best) return sm_tcl_error(in, "SOLVER", "%s: no mapping found yet", s->ops->name);
    char label[96];
    snprintf(label, sizeof label, "solve %s", s->ops->name);
    app->view->show_solver = 0;
    if (apply_states(app, label)) return sm_app_changed(app);
    /* Only for a solver told its threads (-threads): the others use one. */
    int threads = bound_beside && sm_solver_opt(s, "threads") ? sm_solver_threads(s) : 1;
    sm_app_bound_ahead *ahead = sm_app_solver_bound_begin(app, s, threads);
    int moved = sm_session_apply_threads(app->session, s->best_map, label, threads);
    sm_app_solver_bound_end(app, ahead);
    if (moved > 0 && sm_app_changed(app) != TCL_OK) return TCL_ERROR;
    return TCL_OK;
}

int sm_solve_apply_best(sm_app *app, Tcl_Interp *in) { return apply_best(app, in, 0); }

int sm_solve_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    if (objc < 2) {
        Tcl_WrongNumArgs(in, 1, objv, "NAME ?-option value ...?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    sm_app_record(app, objc, objv);
    app->depth++;
    int rc = sm_solve_start(app, in, objc, objv, 1, 0);
    int was = app->stop_on_interrupt;
    app->stop_on_interrupt = 1;   /* solve returns its best: an interrupt ends it */
    if (rc == TCL_OK) rc = sm_solve_run(app, in, (long long)9e18);
    app->stop_on_interrupt = was;
    if (rc == TCL_OK) rc = apply_best(app, in, 1);
    if (rc == TCL_OK) {
        sm_eval ev;
        sm_cost_eval(app->session->cost, &ev);
        Tcl_Obj *d = sm_eval_dict(&ev);
        sm_solve_put_stats(d, app->solver);
        sm_solve_put_bound(app, d, app->solver, &ev);
        Tcl_SetObjResult(in, d);
    }
    app->depth--;
    return rc;
}
