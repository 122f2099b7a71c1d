/* cmd_compare.c - `view compare`: the session's mapping beside another
 * mapping of the same scenario (the solver's best, a mapping file, an
 * undo point). tui/app/compare_mode.c keeps the other mapping evaluated; this file
 * turns the words into it and its state into a dict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_common.h"
#include "tui/app/compare_mode.h"
#include "core/model/result_keys.h"
#include "core/io/mapping_file.h"

static int from_solver(sm_app *app, Tcl_Interp *in)
{
    sm_app_solver_settle(app);
    const sm_solver *sv = app->solver;
    if (!sv)
        return sm_tcl_error(in, "STATE", "view compare solver: no solver (\"solver start NAME\" or "
                            "\"solve NAME\" first)");
    if (sv->detached)
        return sm_tcl_error(in, "STATE", "view compare solver: %s was stopped: %s", sv->ops->name, sv->reason);
    if (!sv->has_best || !sv->best_map)
        return sm_tcl_error(in, "STATE", "view compare solver: %s has no best mapping yet (step it)",
                            sv->ops->name);
    char label[96];
    snprintf(label, sizeof label, "%s best", sv->ops->name);
    sm_compare_set(app->compare, app->session, SM_CMP_SOLVER, sv->best_map, label);
    /* Follow it from now on, from the step it was taken at. */
    app->compare->solver = sv;
    app->compare->solver_iter = sv->iteration;
    return TCL_OK;
}

/* Another run of the solver (solver branch) at the step shown: NULL
 * name: the run the shown one branched from, or from main the newest
 * branch. */
static int from_run(sm_app *app, Tcl_Interp *in, const char *name)
{
    sm_app_solver_settle(app);
    if (!app->solver || app->nruns < 2)
        return sm_tcl_error(in, "STATE", "view compare run: no other run (\"solver branch K ?options?\" makes one)");
    int i;
    if (name) {
        i = sm_app_run_find(app, name);
        if (i < 0) return sm_tcl_error(in, "ARGS", "view compare run: no run \"%s\" (solver runs lists them)", name);
    } else {
        i = app->runs[app->run_shown].parent;
        if (i < 0) i = app->run_shown == app->nruns - 1 ? app->nruns - 2 : app->nruns - 1;
    }
    if (i == app->run_shown)
        return sm_tcl_error(in, "ARGS", "view compare run: %s is the run shown; name another", name);
    sm_solver *r = app->runs[i].s;
    if (r->detached) return sm_tcl_error(in, "STATE", "view compare run: %s was stopped: %s", app->runs[i].name, r->reason);
    sm_compare_set_run(app->compare, app->session, r, app->runs[i].name, app->solver);
    return TCL_OK;
}

static int from_undo(sm_app *app, Tcl_Interp *in, Tcl_Obj *n_obj)
{
    const sm_session *s = app->session;
    int n;
    if (s->pos == 0)
        return sm_tcl_error(in, "STATE", "view compare undo: no undo point (the mapping has not been edited)");
    if (Tcl_GetIntFromObj(NULL, n_obj, &n) != TCL_OK || n < 1 || n > s->pos)
        return sm_tcl_error(in, "ARGS", "view compare undo: expected edits back 1..%d, got \"%s\"", s->pos,
                            Tcl_GetString(n_obj));
    int *map = sm_xmalloc(sizeof(int) * (size_t)s->grid->ntasks);
    sm_session_undo_point(s, n, map);
    char label[96];
    snprintf(label, sizeof label, "undo %d", n);
    sm_compare_set(app->compare, s, SM_CMP_UNDO, map, label);
    app->compare->undo = n;
    free(map);
    return TCL_OK;
}

/* A stencilmap/mapping file of this grid's block count; anything else is
 * refused, naming the file, and compare mode stays as it was. */
static int from_file(sm_app *app, Tcl_Interp *in, const char *file)
{
    const sm_session *s = app->session;
    int *map = sm_xmalloc(sizeof(int) * (size_t)(s->grid->ntasks ? s->grid->ntasks : 1));
    sm_err e;
    if (sm_mapping_load(file, s->topo, s->grid->ntasks, map, &e)) {
        free(map);
        return sm_tcl_error(in, "LOAD", "view compare: %s", e.msg);
    }
    const char *base = strrchr(file, '/');   /* the panes are narrow: the name, not the path */
    sm_compare_set(app->compare, s, SM_CMP_FILE, map, base && base[1] ? base + 1 : file);
    snprintf(app->compare->file, sizeof app->compare->file, "%s", file);
    free(map);
    return TCL_OK;
}

/* Key c: off when on; else the last source again (a file is read again,
 * an undo point counted from now), the solver's best the first time. */
static int toggle(sm_app *app, Tcl_Interp *in)
{
    sm_compare *c = app->compare;
    if (c->source != SM_CMP_OFF) {
        sm_compare_off(c);
        return TCL_OK;
    }
    /* Branches of the solver: V compares two runs at equal steps. */
    sm_app_solver_settle(app);
    if (app->nruns > 1 && app->solver && !app->solver->detached) return from_run(app, in, NULL);
    /* A source from before the last grid or machine means nothing now. */
    int stale = !sm_compare_fits(c, app->session);
    switch (stale ? SM_CMP_SOLVER : c->last) {
    case SM_CMP_FILE: return from_file(app, in, c->file);
    case SM_CMP_UNDO: {
        Tcl_Obj *n = Tcl_NewIntObj(c->undo);
        Tcl_IncrRefCount(n);
        int rc = from_undo(app, in, n);
        Tcl_DecrRefCount(n);
        return rc;
    }
    case SM_CMP_RUN: /* its runs are gone: the solver's best */
    default: return from_solver(app, in);
    }
}

/* other - session for every key of the eval dict. */
static Tcl_Obj *diff_dict(const sm_eval *session, const sm_eval *other)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    const sm_eval *ev;
    double dv;
    Tcl_WideInt iv;
#define D(k, expr) ev = other, dv = (double)(expr), ev = session, dv -= (double)(expr), \
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(#k, -1), Tcl_NewDoubleObj(dv));
#define I(k, expr) ev = other, iv = (Tcl_WideInt)(expr), ev = session, iv -= (Tcl_WideInt)(expr), \
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(#k, -1), Tcl_NewWideIntObj(iv));
#define X(k, kind, expr) kind(k, expr)
    SM_EVAL_FIELDS(X)
#undef X
#undef I
#undef D
    return d;
}

static Tcl_Obj *state_dict(sm_app *app)
{
    sm_compare *c = app->compare;
    Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k, o) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), o)
    PUT("source", Tcl_NewStringObj(sm_compare_source_names[c->source], -1));
    if (c->source == SM_CMP_OFF) return d;
    PUT("label", Tcl_NewStringObj(c->label, -1));
    if (c->source == SM_CMP_FILE) PUT("file", Tcl_NewStringObj(c->file, -1));
    if (c->source == SM_CMP_UNDO) PUT("undo", Tcl_NewIntObj(c->undo));
    if (c->source == SM_CMP_RUN) {
        PUT("run", Tcl_NewStringObj(c->run_name, -1));
        /* The other run's step compared, and why it is not the step shown
         * when it is not (note empty at equal steps). */
        PUT("at", Tcl_NewWideIntObj(c->run_step));
        PUT("note", Tcl_NewStringObj(c->run_note, -1));
    }
    sm_eval se;
    sm_cost_eval(app->session->cost, &se);
    /* The left side is what the panes show: the solver's mapping at the
     * step shown while they follow it (v), else the session's. */
    const sm_solver *sv = app->solver;
    const int *shown_map = sv && !sv->detached && app->view->show_solver ? sv->current_map : NULL;
    sm_eval shown_ev = se;
    if (shown_map && sv->has_current) shown_ev = sv->current;
    else shown_map = NULL;
    char shown_label[96] = "session";
    if (shown_map) {
        const char *rn = app->nruns > 1 ? app->runs[app->run_shown].name : NULL;
        snprintf(shown_label, sizeof shown_label, "%s%s%s step %lld", sv->ops->name, rn ? " " : "", rn ? rn : "",
                 sv->iteration);
    }
    PUT("shown", Tcl_NewStringObj(shown_label, -1));
    /* Kept by the blocks either mapping moved (a whole count is a pass
     * over 16.7 M blocks). */
    const void *owner = shown_map ? (const void *)sv : (const void *)app->session;
    unsigned long long stamp = shown_map ? (unsigned long long)sv->iteration : app->session->version;
    PUT("blocks_differ", Tcl_NewIntObj(sm_compare_differ_at(c, shown_map ? shown_map : sm_session_map(app->session),
                                                            owner, stamp, shown_map ? sv : NULL)));
    PUT("session", sm_eval_dict(&se));
    PUT("left", sm_eval_dict(&shown_ev));
    /* In the workbench at 16.7 M blocks the other side's cost state is
     * built on another thread: pending 1 until it is in, and no figures
     * of it before. */
    PUT("pending", Tcl_NewIntObj(c->pending));
    if (c->pending) return d;
    PUT("other", sm_eval_dict(&c->ev));
    PUT("diff", diff_dict(&shown_ev, &c->ev));
#undef PUT
    return d;
}

/* view compare ?solver | undo N | FILE | off | toggle | procs?
 * The keywords match exactly (no abbreviations): any other word is a
 * file, so ./solver names a file called solver. */
int sm_view_compare(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const words[] = {"solver", "undo", "off", "toggle", "procs", "run", NULL};
    enum { W_SOLVER, W_UNDO, W_OFF, W_TOGGLE, W_PROCS, W_RUN, W_FILE };
    sm_compare *c = app->compare;
    if (sm_compare_refresh(c, app->session, app->solver) < 0)
        sm_view_log(app->view, SM_LOG_NOTE, "%s", SM_COMPARE_GONE);
    int w = -1;
    if (objc >= 3 && Tcl_GetIndexFromObj(NULL, objv[2], words, "", TCL_EXACT, &w) != TCL_OK) w = W_FILE;
    if (objc == 4 && w != W_UNDO && w != W_RUN) {
        Tcl_WrongNumArgs(in, 2, objv, "?solver | undo N | run ?NAME? | FILE | off | toggle | procs?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    int rc = TCL_OK;
    switch (w) {
    case W_SOLVER: rc = from_solver(app, in); break;
    case W_UNDO:
        if (objc == 3)
            return sm_tcl_error(in, "ARGS", "view compare undo: expected edits back, as in \"view compare undo 1\"");
        rc = from_undo(app, in, objv[3]);
        break;
    case W_RUN: rc = from_run(app, in, objc == 4 ? Tcl_GetString(objv[3]) : NULL); break;
    case W_OFF: sm_compare_off(c); break;
    case W_TOGGLE: rc = toggle(app, in); break;
    case W_PROCS:   /* the other mapping's `model procs` */
        if (c->source == SM_CMP_OFF) return sm_tcl_error(in, "STATE", "view compare procs: compare mode is off");
        sm_compare_wait(c);   /* asked for: its figures, when its cost state is in */
        Tcl_SetObjResult(in, sm_proc_dicts_of(app->session->topo, c->cost, &c->ev));
        return TCL_OK;
    case W_FILE: rc = from_file(app, in, Tcl_GetString(objv[2])); break;
    default: break;   /* no argument: the state */
    }
    if (rc != TCL_OK) return rc;
    /* Turned on, the left side stays what the panes showed: the solver's
     * mapping at the step shown while they follow it (turning it on used
     * to drop the solver's view and compare the session). v switches. */
    sm_view_touch(app->view);
    Tcl_SetObjResult(in, state_dict(app));
    return TCL_OK;
}
