/* cmd_common.c - shared pieces of the command layer. */
#include "cmd_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/model/result_keys.h"
#include "core/session/crash_recovery_journal.h"

int sm_tcl_error(Tcl_Interp *in, const char *code, const char *fmt, ...)
{
    char buf[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    Tcl_SetObjResult(in, Tcl_NewStringObj(buf, -1));
    Tcl_SetErrorCode(in, "STENCILMAP", code, NULL);
    return TCL_ERROR;
}

int sm_tcl_err(Tcl_Interp *in, const char *code, const sm_err *e)
{
    if (!e->code[0]) return sm_tcl_error(in, code, "%s", e->msg);
    Tcl_SetObjResult(in, Tcl_NewStringObj(e->msg, -1));
    Tcl_Obj *ec = Tcl_NewStringObj("STENCILMAP ", -1);
    Tcl_AppendToObj(ec, e->code, -1); /* words of a list: letters and spaces */
    Tcl_SetObjErrorCode(in, ec);
    return TCL_ERROR;
}

int sm_dispatch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[],
                const sm_subcmd *subs)
{
    if (objc < 2) {
        Tcl_WrongNumArgs(in, 1, objv, "subcommand ?arg ...?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    int idx;
    if (Tcl_GetIndexFromObjStruct(in, objv[1], subs, sizeof(sm_subcmd),
                                  "subcommand", 0, &idx) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    const sm_subcmd *s = &subs[idx];
    int nargs = objc - 2;
    if (nargs < s->min || (s->max >= 0 && nargs > s->max)) {
        Tcl_WrongNumArgs(in, 2, objv, s->usage);
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    sm_app_record(app, objc, objv);
    app->depth++;
    int rc = s->fn(app, in, objc, objv);
    app->depth--;
    return rc;
}

static struct {
    const char *name;
    Tcl_ObjCmdProc *proc;
    const sm_subcmd *subs;
} ensembles[32];
static int nensembles;

void sm_create_ensemble(sm_app *app, const char *name, Tcl_ObjCmdProc *proc,
                        const sm_subcmd *subs)
{
    Tcl_CreateObjCommand(app->interp, name, proc, app, NULL);
    for (int i = 0; i < nensembles; i++)
        if (strcmp(ensembles[i].name, name) == 0) return;
    if (nensembles < (int)(sizeof ensembles / sizeof ensembles[0])) {
        ensembles[nensembles].name = name;
        ensembles[nensembles].proc = proc;
        ensembles[nensembles].subs = subs;
        nensembles++;
    }
}

const char *sm_ensemble_at(int i, Tcl_ObjCmdProc **proc)
{
    if (i < 0 || i >= nensembles) return NULL;
    *proc = ensembles[i].proc;
    return ensembles[i].name;
}

const sm_subcmd *sm_ensemble_subs(const char *name)
{
    for (int i = 0; i < nensembles; i++)
        if (strcmp(ensembles[i].name, name) == 0) return ensembles[i].subs;
    return NULL;
}

void sm_app_record(sm_app *app, int objc, Tcl_Obj *const objv[])
{
    if (!app->record || app->depth > 0 || app->replaying) return;
    Tcl_Obj *l = Tcl_NewListObj(objc, objv);
    /* A command a safe script gave replays confined, whoever replays the
     * recording: never a refused save or a hook laundered into a trusted
     * session. */
    if (app->safe_depth > 0) {
        Tcl_Obj *w[2] = {Tcl_NewStringObj("::stencilmap::confined", -1), l};
        l = Tcl_NewListObj(2, w);
    }
    Tcl_IncrRefCount(l);
    fprintf(app->record, "%s\n", Tcl_GetString(l));
    if (fflush(app->record) != 0 || ferror(app->record)) {
        /* Never a silently truncated recording: stop, and say so. */
        char msg[1200];
        snprintf(msg, sizeof msg, "recording to %.900s failed (%s) at \"%.80s\": recording stopped; "
                 "the file ends before that command", app->record_path, strerror(errno),
                 Tcl_GetString(objv[0]));
        sm_view_log(app->view, SM_LOG_ERROR, "%s", msg);
        if (!app->screen) fprintf(stderr, "stencilmap: %s\n", msg);
        /* The session says so too: the next session stop (or record)
         * raises it, so a script cannot take the recording as whole. */
        free(app->record_error);
        app->record_error = sm_xstrdup(msg);
        fclose(app->record);
        app->record = NULL;
    }
    Tcl_DecrRefCount(l);
}

int sm_app_check_change(sm_app *app, Tcl_Interp *in, const char *what)
{
    /* A start in the background reads the grid and machine: it ends first. */
    sm_app_solver_quiesce(app);
    return sm_app_check_busy(app, in, what);
}

int sm_app_check_busy(sm_app *app, Tcl_Interp *in, const char *what)
{
    if (app->solver_depth == 0 || !app->solver) return TCL_OK;
    return sm_tcl_error(in, "BUSY",
                        "%s: not while %s is stepping (called from a hook); "
                        "stop it first (solver stop, or break from the step hook)",
                        what, app->solver->ops->name);
}

void sm_app_detach_solver(sm_app *app, const char *what)
{
    if (!app->solver || app->solver->detached) return;
    char why[128];
    snprintf(why, sizeof why, "%s changed the session it was solving", what);
    sm_solver_detach(app->solver, why);
    /* Every branch ran on the same grid and machine. */
    for (int i = 0; i < app->nruns; i++) sm_solver_detach(app->runs[i].s, why);
    sm_app_set_solver_view(app, NULL, NULL);
    app->view->show_solver = 0;
    app->view->running = 0;
}

int sm_app_confirm_discard(sm_app *app, Tcl_Interp *in, const char *what)
{
    const sm_session *s = app->session;
    if (!s->dirty || !app->screen || !app->screen->confirm || app->in_replay) return TCL_OK;
    static const char *const parts[] = {"grid", "topology", "model", "mapping"};
    char list[96] = "";
    for (int i = 0; i < 4; i++)
        if (s->dirty_parts & (1u << i)) {
            strncat(list, list[0] ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, parts[i], sizeof list - strlen(list) - 1);
        }
    char q[256];
    snprintf(q, sizeof q, "Unsaved changes (%s) would be lost. %s anyway? y/n", list, what);
    if (app->screen->confirm(app, q)) return TCL_OK;
    return sm_tcl_error(in, "CANCELLED", "%s: cancelled, the unsaved changes are kept", what);
}

int sm_app_confirm_overwrite(sm_app *app, Tcl_Interp *in, const char *path)
{
    struct stat a, b;
    if (!app->screen || !app->screen->confirm || app->in_replay || stat(path, &a) != 0) return TCL_OK;
    if (app->scenario_path && stat(app->scenario_path, &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        return TCL_OK;
    char q[512];
    snprintf(q, sizeof q, "%.400s exists and was not loaded here. Overwrite it? y/n", path);
    if (app->screen->confirm(app, q)) return TCL_OK;
    return sm_tcl_error(in, "CANCELLED", "%s: not overwritten", path);
}

int sm_app_changed(sm_app *app)
{
    sm_app_sync_view(app);
    if (app->journal) {
        sm_err e;
        if (sm_journal_sync(app->journal, app->session, &e))
            sm_view_log(app->view, SM_LOG_ERROR, "journal: %s (edits are not protected)", e.msg);
    }
    if (!app->hook_changed) return TCL_OK;
    int rc = Tcl_EvalObjEx(app->interp, app->hook_changed, TCL_EVAL_GLOBAL);
    if (rc == TCL_ERROR)
        Tcl_AddErrorInfo(app->interp, "\n    (\"on changed\" hook)");
    return rc;
}

Tcl_Obj *sm_eval_dict(const sm_eval *ev)
{
    Tcl_Obj *d = Tcl_NewDictObj();
#define D(x) Tcl_NewDoubleObj((double)(x))
#define I(x) Tcl_NewWideIntObj((Tcl_WideInt)(x))
#define X(k, kind, expr) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(#k, -1), kind(expr));
    SM_EVAL_FIELDS(X)
#undef X
    return d;
}

Tcl_Obj *sm_proc_dicts(const sm_app *app, const sm_eval *ev)
{
    return sm_proc_dicts_of(app->session->topo, app->session->cost, ev);
}

Tcl_Obj *sm_proc_dicts_of(const sm_topo *t, const sm_cost *c, const sm_eval *ev)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int p = 0; p < c->nprocs; p++) {
        sm_proc_eval pev, *pe = &pev;
        sm_cost_proc(c, ev, p, pe);
        Tcl_Obj *d = Tcl_NewDictObj();
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("name", -1),
                       Tcl_NewStringObj(t->procs[p].name, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("type", -1),
                       Tcl_NewStringObj(t->types[t->procs[p].type].name, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("node", -1),
                       Tcl_NewIntObj(t->procs[p].node));
#define X(k, kind, expr) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(#k, -1), kind(expr));
        SM_PROC_FIELDS(X)
#undef X
        Tcl_ListObjAppendElement(NULL, l, d);
    }
#undef D
#undef I
    return l;
}

int sm_get_block(sm_app *app, Tcl_Interp *in, Tcl_Obj *o, int *block)
{
    const sm_grid *g = app->session->grid;
    int len;
    if (Tcl_ListObjLength(NULL, o, &len) == TCL_OK && len == 3) {
        int c[3];
        for (int a = 0; a < 3; a++) {
            Tcl_Obj *el;
            Tcl_ListObjIndex(NULL, o, a, &el);
            if (Tcl_GetIntFromObj(NULL, el, &c[a]) != TCL_OK || c[a] < 0 ||
                c[a] >= g->spec.blocks[a])
                return sm_tcl_error(in, "ARGS",
                                    "block {%s}: expected coordinates within "
                                    "%d %d %d",
                                    Tcl_GetString(o), g->spec.blocks[0],
                                    g->spec.blocks[1], g->spec.blocks[2]);
        }
        *block = c[0] + c[1] * g->spec.blocks[0] +
                 c[2] * g->spec.blocks[0] * g->spec.blocks[1];
        return TCL_OK;
    }
    int b;
    if (Tcl_GetIntFromObj(NULL, o, &b) != TCL_OK || b < 0 || b >= g->ntasks)
        return sm_tcl_error(in, "ARGS",
                            "block \"%s\": expected a block id in [0, %d) or "
                            "{i j k}",
                            Tcl_GetString(o), g->ntasks);
    *block = b;
    return TCL_OK;
}

int sm_get_proc(sm_app *app, Tcl_Interp *in, Tcl_Obj *o, int *proc)
{
    const sm_topo *t = app->session->topo;
    int p = sm_topo_find_proc(t, Tcl_GetString(o));
    if (p < 0) {
        int v;
        if (Tcl_GetIntFromObj(NULL, o, &v) == TCL_OK && v >= 0 && v < t->nprocs)
            p = v;
    }
    if (p < 0)
        return sm_tcl_error(in, "ARGS",
                            "processor \"%s\": expected a processor name or an "
                            "index in [0, %d)",
                            Tcl_GetString(o), t->nprocs);
    *proc = p;
    return TCL_OK;
}

int sm_get_opt_index(Tcl_Interp *in, Tcl_Obj *o, const char *const *names,
                     int *idx)
{
    if (Tcl_GetIndexFromObj(in, o, names, "option", 0, idx) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    return TCL_OK;
}

int sm_mapping_form_opt(Tcl_Interp *in, const char *cmd, int objc, Tcl_Obj *const objv[], int first,
                        sm_mapping_form *form)
{
    *form = SM_MAPPING_AUTO;
    if (objc == first) return TCL_OK;
    if (objc != first + 2 || strcmp(Tcl_GetString(objv[first]), "-mapping") != 0)
        return sm_tcl_error(in, "ARGS", "%s: expected FILE ?-mapping plain|compact|auto?", cmd);
    if (sm_mapping_form_parse(Tcl_GetString(objv[first + 1]), form))
        return sm_tcl_error(in, "ARGS", "%s: -mapping: expected plain, compact or auto, got \"%s\"", cmd,
                            Tcl_GetString(objv[first + 1]));
    return TCL_OK;
}
