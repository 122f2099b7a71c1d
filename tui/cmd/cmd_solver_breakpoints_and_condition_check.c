/* cmd_solver_breakpoints_and_condition_check.c - breakpoints that last (gdb's break list: ids,
 * enabled, hits), kept by the interpreter across solver starts, and the
 * figures breakpoint expressions ask for: solver eval and solver metrics
 * of the solver's mapping at the step shown (SPEC 5). */
#include "cmd_solver_breakpoints_and_condition_check.h"

#include <stdlib.h>
#include <string.h>
#include "core/traffic/mapping_metrics.h"

typedef struct {
    int id;
    Tcl_Obj *expr;
    int enabled;
    long long hits;
} sm_break;

typedef struct {
    sm_break *b;
    int n, cap, next_id;
} sm_breaks;

#define BREAKS_KEY "stencilmap-breakpoints"

static void breaks_free(ClientData cd, Tcl_Interp *in)
{
    (void)in;
    sm_breaks *l = cd;
    for (int i = 0; i < l->n; i++) Tcl_DecrRefCount(l->b[i].expr);
    free(l->b);
    free(l);
}

/* The list, kept by the main interpreter (the safe one sees the same). */
static sm_breaks *breaks(sm_app *app)
{
    sm_breaks *l = Tcl_GetAssocData(app->interp, BREAKS_KEY, NULL);
    if (!l) {
        l = sm_xcalloc(1, sizeof *l);
        l->next_id = 1;
        Tcl_SetAssocData(app->interp, BREAKS_KEY, breaks_free, l);
    }
    return l;
}

static sm_break *find(sm_breaks *l, int id)
{
    for (int i = 0; i < l->n; i++)
        if (l->b[i].id == id) return &l->b[i];
    return NULL;
}

int sm_breaks_enabled(sm_app *app)
{
    sm_breaks *l = breaks(app);
    int n = 0;
    for (int i = 0; i < l->n; i++) n += l->b[i].enabled;
    return n;
}

const char *sm_break_text(sm_app *app, int id)
{
    sm_break *b = find(breaks(app), id);
    return b ? Tcl_GetString(b->expr) : NULL;
}

int sm_break_expr_holds(Tcl_Interp *in, Tcl_Obj *state, Tcl_Obj *expr, int *met)
{
    if (!Tcl_SetVar2Ex(in, "state", NULL, state, TCL_GLOBAL_ONLY | TCL_LEAVE_ERR_MSG)) return TCL_ERROR;
    /* As a list {expr EXPR}: the expression is data, evaluated once. */
    Tcl_Obj *cmd = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(cmd);
    Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj("expr", -1));
    Tcl_ListObjAppendElement(NULL, cmd, expr);
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(cmd);
    if (rc == TCL_OK) rc = Tcl_GetBooleanFromObj(in, Tcl_GetObjResult(in), met);
    return rc;
}

int sm_breaks_test(sm_app *app, Tcl_Interp *in, Tcl_Obj *state, int *hit)
{
    sm_breaks *l = breaks(app);
    *hit = 0;
    Tcl_IncrRefCount(state);
    for (int i = 0; i < l->n; i++) {
        if (!l->b[i].enabled) continue;
        int met = 0, id = l->b[i].id;
        Tcl_Obj *expr = l->b[i].expr;
        Tcl_IncrRefCount(expr);   /* the expression may delete its own breakpoint */
        int rc = sm_break_expr_holds(in, state, expr, &met);
        Tcl_DecrRefCount(expr);
        if (rc != TCL_OK) {
            Tcl_AddErrorInfo(in, "\n    (solver breakpoint)");
            Tcl_Obj *msg = Tcl_ObjPrintf("breakpoint %d: %s", id, Tcl_GetString(Tcl_GetObjResult(in)));
            Tcl_SetObjResult(in, msg);
            Tcl_SetErrorCode(in, "STENCILMAP", "SOLVER", "BREAK", NULL);
            Tcl_DecrRefCount(state);
            return TCL_ERROR;
        }
        sm_break *b = find(l, id);   /* the list may have changed */
        if (met && b) {
            b->hits++;
            *hit = id;
            break;
        }
        if (b) i = (int)(b - l->b);
    }
    Tcl_DecrRefCount(state);
    Tcl_ResetResult(in);
    return TCL_OK;
}

static Tcl_Obj *break_dict(const sm_break *b)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("id", -1), Tcl_NewIntObj(b->id));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("expr", -1), b->expr);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("enabled", -1), Tcl_NewIntObj(b->enabled));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("hits", -1), Tcl_NewWideIntObj(b->hits));
    return d;
}

static int get_id(Tcl_Interp *in, sm_breaks *l, Tcl_Obj *o, const char *what, sm_break **b)
{
    int id;
    if (Tcl_GetIntFromObj(NULL, o, &id) != TCL_OK || !(*b = find(l, id))) {
        Tcl_Obj *ids = Tcl_NewObj();
        for (int i = 0; i < l->n; i++) Tcl_AppendPrintfToObj(ids, "%s%d", i ? ", " : "", l->b[i].id);
        Tcl_Obj *msg = Tcl_ObjPrintf("solver break %s: no breakpoint \"%s\" (%s%s)", what, Tcl_GetString(o),
                                     l->n ? "there are " : "there are none", Tcl_GetString(ids));
        Tcl_DecrRefCount(ids);
        Tcl_SetObjResult(in, msg);
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    return TCL_OK;
}

int sm_solver_break(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const subs[] = {"add", "list", "delete", "disable", "enable", NULL};
    enum { ADD, LIST, DELETE, DISABLE, ENABLE };
    int sub;
    if (objc < 3) return sm_tcl_error(in, "ARGS", "wrong # args: should be \"solver break add EXPR | list | "
                                                  "delete ID | disable ID | enable ID\"");
    if (sm_get_opt_index(in, objv[2], subs, &sub)) return TCL_ERROR;
    sm_breaks *l = breaks(app);
    int want = sub == LIST ? 3 : 4;
    if (objc != want)
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"solver break %s%s\"", subs[sub],
                            sub == ADD ? " EXPR" : sub == LIST ? "" : " ID");
    if (sub == ADD) {
        /* A bad expression is an error now, not at the next step. */
        Tcl_Obj *cmd = Tcl_NewListObj(0, NULL);
        Tcl_IncrRefCount(cmd);
        Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj("info", -1));
        Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj("complete", -1));
        Tcl_ListObjAppendElement(NULL, cmd, objv[3]);
        int complete = 0;
        if (Tcl_EvalObjEx(in, cmd, 0) == TCL_OK) Tcl_GetBooleanFromObj(NULL, Tcl_GetObjResult(in), &complete);
        Tcl_DecrRefCount(cmd);
        if (!complete || !Tcl_GetCharLength(objv[3]))
            return sm_tcl_error(in, "ARGS", "solver break add: \"%s\" is not a complete expression",
                                Tcl_GetString(objv[3]));
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 8;
            l->b = sm_xrealloc(l->b, sizeof *l->b * (size_t)l->cap);
        }
        sm_break *b = &l->b[l->n++];
        b->id = l->next_id++;
        b->expr = Tcl_DuplicateObj(objv[3]);
        Tcl_IncrRefCount(b->expr);
        b->enabled = 1;
        b->hits = 0;
        Tcl_SetObjResult(in, Tcl_NewIntObj(b->id));
        return TCL_OK;
    }
    if (sub == LIST) {
        Tcl_Obj *r = Tcl_NewListObj(0, NULL);
        for (int i = 0; i < l->n; i++) Tcl_ListObjAppendElement(NULL, r, break_dict(&l->b[i]));
        Tcl_SetObjResult(in, r);
        return TCL_OK;
    }
    sm_break *b;
    if (get_id(in, l, objv[3], subs[sub], &b)) return TCL_ERROR;
    if (sub == DELETE) {
        Tcl_DecrRefCount(b->expr);
        int i = (int)(b - l->b);
        memmove(&l->b[i], &l->b[i + 1], sizeof *l->b * (size_t)(l->n - i - 1));
        l->n--;
        Tcl_ResetResult(in);
        return TCL_OK;
    }
    b->enabled = sub == ENABLE;
    Tcl_SetObjResult(in, break_dict(b));
    return TCL_OK;
}

/* The solver's mapping at the step shown: its current one, or its best
 * for a solver without one. */
static int shown(sm_app *app, Tcl_Interp *in, const char *what, const int **map)
{
    sm_app_solver_settle(app);
    const sm_solver *s = app->solver;
    if (!s) return sm_tcl_error(in, "STATE", "no solver: use \"solver start NAME\" first");
    if (s->detached)
        return sm_tcl_error(in, "STATE", "%s was stopped: %s; start it again", s->ops->name, s->reason);
    *map = s->current_map ? s->current_map : s->has_best ? s->best_map : NULL;
    if (!*map) return sm_tcl_error(in, "STATE", "%s: %s has no mapping yet: step it first", what, s->ops->name);
    return TCL_OK;
}

int sm_solver_eval(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    const int *map;
    if (shown(app, in, "solver eval", &map)) return TCL_ERROR;
    const sm_solver *s = app->solver;
    sm_eval ev;
    /* The figures solver state gives for the step (current, or best for
     * a solver showing its best), when they are the mapping's own; else
     * evaluated here, under the solver's model. */
    if (map == s->current_map && s->has_current && (!s->current_auto || s->grid->ntasks <= 262144)) ev = s->current;
    else if (map == s->best_map && s->has_best) ev = s->best;
    else sm_solver_evaluate(s, map, &ev);
    Tcl_SetObjResult(in, sm_eval_dict(&ev));
    return TCL_OK;
}

int sm_solver_metrics(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    const int *map;
    if (shown(app, in, "solver metrics", &map)) return TCL_ERROR;
    const sm_solver *s = app->solver;
    sm_metrics m;
    sm_metrics_compute(s->grid, s->topo, map, &m);
    Tcl_SetObjResult(in, sm_metrics_dict(&m));
    return TCL_OK;
}
