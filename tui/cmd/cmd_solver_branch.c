/* cmd_solver_branch.c - solver branch|runs|switch: a run started from step K
 * of another with options changed, replayed to K exactly
 * (solvers/stepper/solver_branch.c), kept beside the others; the one shown
 * is app->solver, so every other `solver` subcommand acts on it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_solve.h"
#include "cmd_solver_branch.h"
#include "tui/app/solver_branch_build_on_worker_thread.h"
#include "solvers/stepper/solver_branch.h"
#include "solvers/stepper/step_history_record_seek_back.h"

static void put(Tcl_Obj *d, const char *k, Tcl_Obj *v) { Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v); }

int sm_solver_branch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app_solver_settle(app);
    if (!app->solver) return sm_tcl_error(in, "STATE", "no solver: use \"solver start NAME\" first");
    if (sm_app_check_busy(app, in, "solver branch")) return TCL_ERROR;
    sm_solver *from = app->solver;
    if (from->detached)
        return sm_tcl_error(in, "STATE", "%s was stopped: %s; start it again", from->ops->name, from->reason);
    if (!from->hist) return sm_tcl_error(in, "STATE", "%s keeps no history", from->ops->name);
    Tcl_WideInt k;
    if (Tcl_GetWideIntFromObj(NULL, objv[2], &k) != TCL_OK || k < 0)
        return sm_tcl_error(in, "ARGS", "solver branch: expected a step number (0 or more), got \"%s\"",
                            Tcl_GetString(objv[2]));
    char run[32];   /* a copy: adding the run moves app->runs */
    snprintf(run, sizeof run, "%s", app->runs[app->run_shown].name);
    if (k < sm_history_first(from->hist) || k > sm_history_head(from->hist))
        return sm_tcl_error(in, "SOLVER", "solver branch: run %s has steps %lld to %lld recorded, not step %lld",
                            run, sm_history_first(from->hist), sm_history_head(from->hist), (long long)k);
    int argc = objc - 3;
    if (argc % 2) return sm_tcl_error(in, "ARGS", "solver branch: options come in pairs: -option value");
    double t0 = sm_solve_now(), last = t0;
    sm_err e;
    const char **argv = sm_xmalloc(sizeof(char *) * (size_t)(argc + 1));
    for (int i = 0; i < argc; i++) argv[i] = Tcl_GetString(objv[3 + i]);
    if (app->screen && !app->in_study) {
        /* In the workbench the start is made again and replayed on a
         * worker (seconds at 16.7 M blocks): the key returns at once, the
         * status line counts, and what acts on the solver next waits for
         * it. The options are checked here, as far as they can be. */
        if (sm_branch_check(from, argc, argv, &e)) {
            free(argv);
            return sm_tcl_error(in, "SOLVER", "solver branch: %s", e.msg);
        }
        char name[32];
        sm_app_run_new_name(app, name, sizeof name);
        sm_app_branch_begin(app, app->run_shown, k, argc, argv, name);
        free(argv);
        if (app->branching)
            sm_view_log(app->view, SM_LOG_NOTE, "%s: branching %s from %s at step %lld in the background; "
                        "solver commands wait for it, Esc while they wait gives it up", name, from->ops->name, run,
                        (long long)k);
        Tcl_SetObjResult(in, Tcl_NewStringObj(name, -1));
        return TCL_OK;
    }
    app->interrupt = 0;
    /* Replayed in the foreground: long at a million blocks, so the screen
     * keeps drawing and Esc or C-c gives up. */
    sm_solver *b = sm_branch_new(from, k, &app->interrupt, &e);
    if (!b) {
        free(argv);
        return sm_tcl_error(in, "SOLVER", "solver branch: %s", e.msg);
    }
    int rc;
    while ((rc = sm_branch_replay(b, k, &e)) == 1) {
        if (app->interrupt) {
            app->interrupt = 0;
            long long at = b->iteration;
            sm_solver_free(b);
            free(argv);
            return sm_tcl_error(in, "SOLVER", "solver branch: interrupted while replaying run %s (at step %lld of %lld)",
                                run, at, (long long)k);
        }
        if (app->screen && sm_solve_now() - last > 0.05) {
            sm_app_progress(app);
            last = sm_solve_now();
        }
    }
    char what[160];
    if (rc == 0) rc = sm_branch_change(b, from, k, argc, argv, what, sizeof what, &e);
    free(argv);
    if (rc) {
        sm_solver_free(b);
        return sm_tcl_error(in, "SOLVER", "solver branch: %s", e.msg);
    }
    b->interrupt = NULL;
    int i = sm_app_run_add(app, b, app->run_shown, k, what, NULL);
    sm_view_log(app->view, SM_LOG_NOTE, "%s: %s from %s at step %lld%s%s (replayed in %.2f s); solver switch %s "
                "goes back", app->runs[i].name, b->ops->name, run, (long long)k, what[0] ? " with " : "", what,
                sm_solve_now() - t0, run);
    sm_view_touch(app->view);
    Tcl_SetObjResult(in, Tcl_NewStringObj(app->runs[i].name, -1));
    return TCL_OK;
}

int sm_solver_runs(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_app_solver_settle(app);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < app->nruns; i++) {
        const sm_solver_run *r = &app->runs[i];
        const sm_solver *s = r->s;
        Tcl_Obj *d = Tcl_NewDictObj();
        put(d, "name", Tcl_NewStringObj(r->name, -1));
        put(d, "parent", Tcl_NewStringObj(r->parent >= 0 ? app->runs[r->parent].name : "", -1));
        put(d, "at", Tcl_NewWideIntObj(r->parent >= 0 ? r->at : 0));
        put(d, "options", Tcl_NewStringObj(r->change, -1));
        put(d, "steps", Tcl_NewWideIntObj(s->hist ? sm_history_head(s->hist) : s->iteration));
        put(d, "step", Tcl_NewWideIntObj(s->iteration));
        put(d, "done", Tcl_NewIntObj(s->done));
        put(d, "status", Tcl_NewStringObj(s->status, -1));
        put(d, "best", s->has_best ? Tcl_NewDoubleObj(s->best.energy) : Tcl_NewObj());
        put(d, "shown", Tcl_NewIntObj(i == app->run_shown));
        /* Whether the branch's options changed anything yet: the first
         * step it took differently from its parent ({} while none did),
         * over the steps both have (compared_to). */
        long long upto, dv = sm_app_run_diverged_at(app, i, &upto);
        put(d, "diverged_at", dv >= 0 ? Tcl_NewWideIntObj(dv) : Tcl_NewObj());
        put(d, "compared_to", upto >= 0 ? Tcl_NewWideIntObj(upto) : Tcl_NewObj());
        Tcl_ListObjAppendElement(NULL, l, d);
    }
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

int sm_solver_switch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_app_solver_settle(app);
    if (!app->solver) return sm_tcl_error(in, "STATE", "no solver: use \"solver start NAME\" first");
    if (sm_app_check_busy(app, in, "solver switch")) return TCL_ERROR;
    const char *name = Tcl_GetString(objv[2]);
    int i = sm_app_run_find(app, name);
    if (i < 0) {
        Tcl_Obj *names = Tcl_NewListObj(0, NULL);
        for (int j = 0; j < app->nruns; j++)
            Tcl_ListObjAppendElement(NULL, names, Tcl_NewStringObj(app->runs[j].name, -1));
        Tcl_IncrRefCount(names);
        int rc = sm_tcl_error(in, "ARGS", "solver switch: no run \"%s\" (runs: %s)", name, Tcl_GetString(names));
        Tcl_DecrRefCount(names);
        return rc;
    }
    sm_app_run_show(app, i);
    sm_view_touch(app->view);
    Tcl_SetObjResult(in, sm_solve_state_dict(app, app->solver));
    return TCL_OK;
}
