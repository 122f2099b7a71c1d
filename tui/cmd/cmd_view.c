/* cmd_view.c - the workbench's own commands (SPEC 5, "TUI only"): view,
 * theme, key and screen. They change sm_view, so they also work in batch
 * mode, where a recorded session replays its cursor and selection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "solvers/solver_registry.h"
#include "cmd_common.h"
#include "cmd_study.h"
#include "cmd_topo_measure.h"
#include "tui/app/key_action_table.h"
#include "tui/app/list_pane_rows.h"
#include "tui/app/compare_mode.h"
#include "tui/workbench/workbench.h"
#include "cmd_view_network.h"
#include "core/lib/atomic_file_write.h"

static int toggle_arg(Tcl_Interp *in, Tcl_Obj *o, int *flag, const char *what)
{
    static const char *const vals[] = {"on", "off", "toggle", NULL};
    int i;
    if (Tcl_GetIndexFromObj(in, o, vals, what, 0, &i) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    *flag = i == 0 ? 1 : i == 1 ? 0 : !*flag;
    return TCL_OK;
}

static Tcl_Obj *int_list(const int *v, int n)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < n; i++) Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj(v[i]));
    return l;
}

static Tcl_Obj *cursor_obj(const sm_view *v)
{
    int c[4] = {v->cur[0], v->cur[1], v->cur[2], sm_view_cursor_block(v)};
    return int_list(c, 4);
}

static Tcl_Obj *selection_obj(const sm_view *v)
{
    int n, *b = sm_view_selection(v, &n);
    Tcl_Obj *l = int_list(b, n);
    free(b);
    return l;
}

/* Rows of the list panes move with up/down; the count is checked by the
 * pane, here only kept non-negative. */
static void move_row(sm_app *app, int d)
{
    sm_view *v = app->view;
    int nprocs = app->session->topo->nprocs;
    switch (v->focus) {
    case SM_PANE_PROCS:
        v->proc = v->proc < 0 ? 0 : v->proc + d;
        if (v->proc >= nprocs) v->proc = nprocs - 1;
        if (v->proc < 0) v->proc = 0;
        break;
    case SM_PANE_COMM:
        v->comm_row += d;
        if (v->comm_row < 0) v->comm_row = 0;
        break;
    case SM_PANE_SOLVER: {
        int n = 0;
        while (sm_solver_list()[n]) n++;
        v->solver_row += d;
        if (v->solver_row < 0) v->solver_row = 0;
        if (v->solver_row >= n) v->solver_row = n - 1;
        break;
    }
    default: break;
    }
    sm_view_touch(v);
}

/* view cursor ?left|right|up|down | I J K | BLOCK? */
static int view_cursor(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    if (objc == 3) {
        static const char *const dirs[] = {"left", "right", "up", "down", NULL};
        int d;
        if (Tcl_GetIndexFromObj(NULL, objv[2], dirs, "direction", 0, &d) == TCL_OK) {
            /* The list panes move their row; elsewhere the grid cursor. */
            if (v->focus == SM_PANE_NETWORK) return sm_view_net_cursor(app, in, d);
            int list = v->focus == SM_PANE_PROCS || v->focus == SM_PANE_COMM || v->focus == SM_PANE_SOLVER;
            if (list) {
                if (d >= 2) move_row(app, d == 2 ? -1 : 1);
            } else {
                int c[3] = {v->cur[0], v->cur[1], v->cur[2]};
                c[d < 2 ? 0 : 1] += d % 2 ? 1 : -1;
                sm_view_set_cursor(v, c[0], c[1], c[2]);
            }
        } else {
            int b;
            if (sm_get_block(app, in, objv[2], &b)) return TCL_ERROR;
            int c[3];
            sm_grid_coords(app->session->grid, b, c);
            sm_view_set_cursor(v, c[0], c[1], c[2]);
        }
    } else if (objc == 5) {
        int c[3];
        for (int a = 0; a < 3; a++)
            if (Tcl_GetIntFromObj(NULL, objv[2 + a], &c[a]) != TCL_OK || c[a] < 0 || c[a] >= v->dims[a])
                return sm_tcl_error(in, "ARGS", "view cursor: coordinate %d: expected 0..%d, got \"%s\"",
                                    a, v->dims[a] - 1, Tcl_GetString(objv[2 + a]));
        sm_view_set_cursor(v, c[0], c[1], c[2]);
    } else if (objc != 2) {
        Tcl_WrongNumArgs(in, 2, objv, "?left|right|up|down | I J K | BLOCK?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    Tcl_SetObjResult(in, cursor_obj(v));
    return TCL_OK;
}

/* view plane ?prev|next|K? */
static int view_plane(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    /* The Network pane pages through the machine's planes instead. */
    if (v->focus == SM_PANE_NETWORK && objc == 3) return sm_view_net_plane(app, in, objv[2]);
    if (objc == 3) {
        const char *a = Tcl_GetString(objv[2]);
        int k;
        if (strcmp(a, "prev") == 0) k = v->cur[2] - 1;
        else if (strcmp(a, "next") == 0) k = v->cur[2] + 1;
        else if (Tcl_GetIntFromObj(NULL, objv[2], &k) != TCL_OK || k < 0 || k >= v->dims[2])
            return sm_tcl_error(in, "ARGS", "view plane: expected prev, next or 0..%d, got \"%s\"",
                                v->dims[2] - 1, a);
        sm_view_set_cursor(v, v->cur[0], v->cur[1], k);
    }
    Tcl_SetObjResult(in, Tcl_NewIntObj(v->cur[2]));
    return TCL_OK;
}

/* view select ?toggle|clear|all|proc PROC|pair|BLOCK ...? */
static int view_select(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    const int *map = sm_session_map(app->session);
    if (objc >= 3) {
        const char *a = Tcl_GetString(objv[2]);
        if (strcmp(a, "toggle") == 0 && objc == 3) {
            int b = sm_view_cursor_block(v);
            sm_view_select(v, b, !v->sel[b]);
        } else if (strcmp(a, "clear") == 0 && objc == 3) {
            sm_view_select_clear(v);
            v->pair_p = v->pair_q = -1;
        } else if (strcmp(a, "all") == 0 && objc == 3) {
            for (int b = 0; b < v->ntasks; b++) sm_view_select(v, b, 1);
        } else if (strcmp(a, "pair") == 0 && objc == 3) {
            sm_view_select_clear(v);
            for (int b = 0; b < v->ntasks; b++) sm_view_select(v, b, sm_block_in_pair(app, map, b));
        } else if (strcmp(a, "proc") == 0 && objc == 4) {
            int p;
            if (sm_get_proc(app, in, objv[3], &p)) return TCL_ERROR;
            sm_view_select_clear(v);
            for (int b = 0; b < v->ntasks; b++) sm_view_select(v, b, map[b] == p);
        } else {
            int *bl = sm_xmalloc(sizeof(int) * (size_t)(objc - 2));
            for (int i = 2; i < objc; i++)
                if (sm_get_block(app, in, objv[i], &bl[i - 2])) {
                    free(bl);
                    Tcl_AppendResult(in, " (view select ?toggle|clear|all|pair|proc PROC|BLOCK ...?)", NULL);
                    return TCL_ERROR;
                }
            sm_view_select_clear(v);
            for (int i = 0; i < objc - 2; i++) sm_view_select(v, bl[i], 1);
            free(bl);
        }
    }
    Tcl_SetObjResult(in, selection_obj(v));
    return TCL_OK;
}

static int view_focus(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    if (objc == 3) {
        const char *a = Tcl_GetString(objv[2]);
        int f = sm_view_pane_index(a);
        if (strcmp(a, "next") == 0) f = sm_view_pane_step(v, v->focus, 1);
        else if (strcmp(a, "prev") == 0) f = sm_view_pane_step(v, v->focus, -1);
        /* The Study pane has nothing to show without a study. */
        if (f == SM_PANE_STUDY && !v->study)
            return sm_tcl_error(in, "STATE", "view focus study: no study loaded (view study DIR)");
        if (f < 0) {
            Tcl_Obj *l = Tcl_NewListObj(0, NULL);
            for (int i = 0; i < SM_PANE_COUNT; i++)
                Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(sm_pane_names[i], -1));
            return sm_tcl_error(in, "ARGS", "view focus: expected next, prev or one of %s, got \"%s\"",
                                Tcl_GetString(l), a);
        }
        /* Focusing a pane that shares its place shows it there. */
        if (sm_pane_slots[f] == SM_SLOT_ALT) sm_view_show_alt(v, f, 1);
        else if (!sm_view_pane_shown(v, f)) sm_view_show_alt(v, f + 1, 0);
        v->focus = f;
        sm_view_touch(v);
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(sm_pane_names[v->focus], -1));
    return TCL_OK;
}

/* view node ?NODE|cursor|none?: the Grid lights one node's blocks and
 * dims the rest (cursor: the node of the processor under the cursor, in
 * the mapping the panes show). Returns the node, or -1 for all. */
static int view_node(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    const sm_topo *t = app->session->topo;
    if (objc == 3) {
        const char *a = Tcl_GetString(objv[2]);
        int n;
        if (strcmp(a, "none") == 0) n = -1;
        else if (strcmp(a, "cursor") == 0) {
            const sm_solver *s = app->solver;
            const int *map = v->show_solver && s && s->current_map ? s->current_map : sm_session_map(app->session);
            n = t->procs[map[sm_view_cursor_block(v)]].node;
        } else if (Tcl_GetIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 0 || n >= t->nnodes) {
            return sm_tcl_error(in, "ARGS", "view node: expected a node 0..%d, cursor or none, got \"%s\"",
                                t->nnodes - 1, a);
        }
        v->node = n;
        sm_view_touch(v);
    }
    Tcl_SetObjResult(in, Tcl_NewIntObj(v->node));
    return TCL_OK;
}

static int view_proc(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    if (objc == 3) {
        if (strcmp(Tcl_GetString(objv[2]), "none") == 0) v->proc = -1;
        else if (sm_get_proc(app, in, objv[2], &v->proc)) return TCL_ERROR;
        sm_view_touch(v);
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(v->proc >= 0 ? app->session->topo->procs[v->proc].name : "", -1));
    return TCL_OK;
}

/* view row comm|solver ?N?: the cursor row of a list pane (the
 * Processors pane's cursor is `view proc`). Keys in the workbench page
 * through these; the count is the pane's, so N is only kept >= 0 here
 * (solver rows are bounded by the solver list). */
static int view_row(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const panes[] = {"comm", "solver", NULL};
    sm_view *v = app->view;
    int which;
    if (Tcl_GetIndexFromObj(in, objv[2], panes, "pane", 0, &which) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    int *row = which == 0 ? &v->comm_row : &v->solver_row;
    if (objc == 4) {
        int n, max = 1 << 30;
        if (which == 1)
            for (max = 0; sm_solver_list()[max]; max++) {}
        if (Tcl_GetIntFromObj(NULL, objv[3], &n) != TCL_OK || n < 0 || n >= max)
            return sm_tcl_error(in, "ARGS", "view row: expected a row 0..%d, got \"%s\"", max - 1,
                                Tcl_GetString(objv[3]));
        *row = n;
        sm_view_touch(v);
    }
    Tcl_SetObjResult(in, Tcl_NewIntObj(*row));
    return TCL_OK;
}

/* view scroll ?N?: how many lines back from the newest the Console
 * shows (PgUp/PgDn/Home/End/wheel in the Console run this). */
static int view_scroll(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    if (objc == 3) {
        int n;
        if (Tcl_GetIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 0)
            return sm_tcl_error(in, "ARGS", "view scroll: expected lines back from the newest >= 0, got \"%s\"",
                                Tcl_GetString(objv[2]));
        v->log_scroll = n < v->log_n ? n : v->log_n > 0 ? v->log_n - 1 : 0;
        sm_view_touch(v);
    }
    Tcl_SetObjResult(in, Tcl_NewIntObj(v->log_scroll));
    return TCL_OK;
}

/* view procs ?-sort KEY? ?-order asc|desc? ?-filter TEXT? ?-group node|net? */
static int view_procs(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const opts[] = {"-sort", "-order", "-filter", "-group", NULL};
    static const char *const orders[] = {"asc", "desc", NULL};
    static const char *const groups[] = {"node", "net", NULL};
    sm_view *v = app->view;
    if (objc % 2)
        return sm_tcl_error(in, "ARGS", "view procs: options come in pairs: ?-sort KEY? ?-order asc|desc? "
                            "?-filter TEXT? ?-group node|net?");
    for (int i = 2; i < objc; i += 2) {
        int o, k;
        if (Tcl_GetIndexFromObj(in, objv[i], opts, "option", 0, &o) != TCL_OK) goto args;
        switch (o) {
        case 0:
            if (Tcl_GetIndexFromObj(in, objv[i + 1], sm_sort_names, "sort key", 0, &k) != TCL_OK) goto args;
            v->sort = k;
            break;
        case 1:
            if (Tcl_GetIndexFromObj(in, objv[i + 1], orders, "order", 0, &k) != TCL_OK) goto args;
            v->sort_desc = k;
            break;
        case 2: snprintf(v->filter, sizeof v->filter, "%s", Tcl_GetString(objv[i + 1])); break;
        case 3:
            if (Tcl_GetIndexFromObj(in, objv[i + 1], groups, "group", 0, &k) != TCL_OK) goto args;
            v->group_by_net = k;
            break;
        }
    }
    sm_view_touch(v);
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("sort", -1), Tcl_NewStringObj(sm_sort_names[v->sort], -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("order", -1), Tcl_NewStringObj(orders[v->sort_desc], -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("filter", -1), Tcl_NewStringObj(v->filter, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("group", -1), Tcl_NewStringObj(groups[v->group_by_net], -1));
    Tcl_SetObjResult(in, d);
    return TCL_OK;
args:
    Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
    return TCL_ERROR;
}

static int view_pair(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "none") == 0) {
        v->pair_p = v->pair_q = -1;
    } else if (objc == 4) {
        int p, q;
        if (sm_get_proc(app, in, objv[2], &p) || sm_get_proc(app, in, objv[3], &q)) return TCL_ERROR;
        if (p == q) return sm_tcl_error(in, "ARGS", "view pair: expected two different processors");
        v->pair_p = p;
        v->pair_q = q;
    } else if (objc != 2) {
        Tcl_WrongNumArgs(in, 2, objv, "?P Q | none?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    sm_view_touch(v);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    const int *map = sm_session_map(app->session);
    if (v->pair_p >= 0) {
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(app->session->topo->procs[v->pair_p].name, -1));
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(app->session->topo->procs[v->pair_q].name, -1));
        int n = 0;
        for (int b = 0; b < v->ntasks; b++) n += sm_block_in_pair(app, map, b);
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj(n));
    }
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

#define FLAG_CMD(fn, field, what)                                                     \
    static int fn(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])        \
    {                                                                                  \
        if (objc == 3 && toggle_arg(in, objv[2], &app->view->field, what)) return TCL_ERROR; \
        sm_view_touch(app->view);                                                      \
        Tcl_SetObjResult(in, Tcl_NewIntObj(app->view->field));                         \
        return TCL_OK;                                                                 \
    }
FLAG_CMD(view_zoom, zoom, "zoom")

/* view help ?on|off|toggle | scroll N | top?: the key list, and its
 * scroll (the keys that move it while it is shown run this). */
static int view_help(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    const char *a = objc >= 3 ? Tcl_GetString(objv[2]) : "";
    if (objc == 4 && strcmp(a, "scroll") == 0) {
        int n;
        if (Tcl_GetIntFromObj(in, objv[3], &n) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        long long top = (long long)v->help_top + n;
        v->help_top = top < 0 ? 0 : top > 100000 ? 100000 : (int)top;
    } else if (objc == 3 && strcmp(a, "top") == 0) {
        v->help_top = 0;
    } else if (objc == 4 || (objc == 3 && toggle_arg(in, objv[2], &v->help, "help"))) {
        if (objc == 4) {
            Tcl_WrongNumArgs(in, 2, objv, "?on|off|toggle | scroll N | top?");
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        }
        return TCL_ERROR;
    } else if (objc == 3) {
        v->help_top = 0; /* shown again: from the top */
    }
    sm_view_touch(v);
    Tcl_SetObjResult(in, Tcl_NewIntObj(v->help));
    return TCL_OK;
}

static int view_run(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    int want = v->running;
    if (objc == 3 && toggle_arg(in, objv[2], &want, "run")) return TCL_ERROR;
    /* A solver starting in the background runs from the frame it is ready. */
    const sm_solver *sv = app->solver;
    if (want && !app->starting) {
        if (!sv) return sm_tcl_error(in, "STATE", "no solver: use \"solver start NAME\" first");
        if (sv->detached)
            return sm_tcl_error(in, "STATE", "%s was stopped: %s; start it again", sv->ops->name, sv->reason);
        if (sv->done)
            return sm_tcl_error(in, "STATE", "%s has finished: \"solver apply\" takes its best", sv->ops->name);
    }
    v->running = want;
    sm_view_touch(v);
    Tcl_SetObjResult(in, Tcl_NewIntObj(v->running));
    return TCL_OK;
}

static int view_step(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (objc == 3) {
        Tcl_WideInt n;
        if (Tcl_GetWideIntFromObj(NULL, objv[2], &n) != TCL_OK || n < 1 || n > 1000000000)
            return sm_tcl_error(in, "ARGS", "view step: expected a count 1..1e9, got \"%s\"",
                                Tcl_GetString(objv[2]));
        app->view->stepn = n;
        sm_view_touch(app->view);
    }
    Tcl_SetObjResult(in, Tcl_NewWideIntObj(app->view->stepn));
    return TCL_OK;
}

static int view_source(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const srcs[] = {"session", "solver", NULL};
    sm_view *v = app->view;
    if (objc == 3) {
        int k;
        if (Tcl_GetIndexFromObj(in, objv[2], srcs, "source", 0, &k) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        if (k && !app->starting && !(app->solver && app->solver->current_map))
            return sm_tcl_error(in, "STATE", "view source solver: no solver with a current mapping "
                                "(tabu has one; constructive solvers only have a best)");
        v->show_solver = k;
        sm_view_touch(v);
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(srcs[v->show_solver], -1));
    return TCL_OK;
}

static int view_note(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    Tcl_Obj *text = Tcl_ConcatObj(objc - 2, objv + 2);
    sm_view_log(app->view, SM_LOG_NOTE, "%s", Tcl_GetString(text));
    Tcl_SetObjResult(in, text);
    return TCL_OK;
}

static int view_quit(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "-force") != 0)
        return sm_tcl_error(in, "ARGS", "view quit: expected ?-force?");
    /* Over unsaved work in the workbench, view quit (and a safe
     * script's -force) opens q's question, as q does: the user's answer
     * decides. */
    if (app->screen && app->session->dirty && (objc == 2 || app->safe_depth > 0)) {
        app->view->ask_quit = 1;
        app->view->ask_quit_status = 0;
        return TCL_OK;
    }
    /* A safe script (or a binding or hook it left) never quits over
     * unsaved work: only the user's own answer to q's question does. */
    if (objc == 3 && app->safe_depth > 0 && app->session->dirty)
        return sm_tcl_error(in, "SAFE", "view quit -force: a safe script may not quit over unsaved "
                            "changes (q asks the user)");
    if (objc == 2 && app->session->dirty)
        return sm_tcl_error(in, "STATE", "view quit: unsaved changes (save with \"map save FILE\" or "
                            "\"scenario save FILE\", or use \"view quit -force\")");
    app->view->quit = 1;
    return TCL_OK;
}

static int view_refresh(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)in; (void)objc; (void)objv;
    app->view->theme_version++;   /* everything repaints */
    sm_view_touch(app->view);
    return TCL_OK;
}

static int view_state(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_view *v = app->view;
    Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k, o) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), o)
    PUT("focus", Tcl_NewStringObj(sm_pane_names[v->focus], -1));
    PUT("cursor", cursor_obj(v));
    PUT("selection", selection_obj(v));
    PUT("proc", Tcl_NewStringObj(v->proc >= 0 ? app->session->topo->procs[v->proc].name : "", -1));
    PUT("sort", Tcl_NewStringObj(sm_sort_names[v->sort], -1));
    PUT("filter", Tcl_NewStringObj(v->filter, -1));
    Tcl_Obj *pair = Tcl_NewListObj(0, NULL);
    if (v->pair_p >= 0) {
        Tcl_ListObjAppendElement(NULL, pair, Tcl_NewStringObj(app->session->topo->procs[v->pair_p].name, -1));
        Tcl_ListObjAppendElement(NULL, pair, Tcl_NewStringObj(app->session->topo->procs[v->pair_q].name, -1));
    }
    PUT("pair", pair);
    PUT("zoom", Tcl_NewIntObj(v->zoom));
    PUT("help", Tcl_NewIntObj(v->help));
    PUT("help_top", Tcl_NewIntObj(v->help_top));
    PUT("running", Tcl_NewIntObj(v->running));
    PUT("step", Tcl_NewWideIntObj(v->stepn));
    PUT("source", Tcl_NewStringObj(v->show_solver ? "solver" : "session", -1));
    PUT("compare", Tcl_NewStringObj(sm_compare_source_names[app->compare->source], -1));
    PUT("node", Tcl_NewIntObj(v->node));
    PUT("theme", Tcl_NewStringObj(v->theme.name, -1));
    Tcl_Obj *cur = Tcl_NewListObj(0, NULL), *best = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < v->spark_n; i++) {
        Tcl_ListObjAppendElement(NULL, cur, Tcl_NewDoubleObj(v->spark_cur[i]));
        Tcl_ListObjAppendElement(NULL, best, Tcl_NewDoubleObj(v->spark_best[i]));
    }
    PUT("history_current", cur);
    PUT("history_best", best);
    PUT("screen", Tcl_NewIntObj(app->screen != NULL));
#undef PUT
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static const sm_subcmd view_subs[] = {
    {"cursor", view_cursor, 0, 3, "?left|right|up|down | I J K | BLOCK?"},
    {"plane", view_plane, 0, 1, "?prev|next|K?"},
    {"select", view_select, 0, -1, "?toggle|clear|all|pair|proc PROC|BLOCK ...?"},
    {"focus", view_focus, 0, 1, "?next|prev|PANE?"},
    {"proc", view_proc, 0, 1, "?PROC|none?"},
    {"node", view_node, 0, 1, "?NODE|cursor|none?"},
    {"row", view_row, 1, 2, "comm|solver ?N?"},
    {"scroll", view_scroll, 0, 1, "?N?"},
    {"procs", view_procs, 0, 8, "?-sort KEY? ?-order asc|desc? ?-filter TEXT? ?-group node|net?"},
    {"pair", view_pair, 0, 2, "?P Q | none?"},
    {"network", sm_view_network_cmd, 0, 5, "?on|off|toggle? ?-plane K|prev|next? ?-scale messages|cells?"},
    {"link", sm_view_link_cmd, 0, 3, "?FROM TO | FROM board | level L INDEX | busiest | none?"},
    {"zoom", view_zoom, 0, 1, "?on|off|toggle?"},
    {"help", view_help, 0, 2, "?on|off|toggle | scroll N | top?"},
    {"run", view_run, 0, 1, "?on|off|toggle?"},
    {"step", view_step, 0, 1, "?N?"},
    {"source", view_source, 0, 1, "?session|solver?"},
    {"compare", sm_view_compare, 0, 2, "?solver | undo N | run ?NAME? | FILE | off | toggle | procs?"},
    {"study", sm_view_study_cmd, 0, -1,
     "?DIR|FILE? ?-x KEY? ?-y KEY? ?-by KEY|none? ?-published BOOL? | cycle x|y|by ?next|prev? | off"},
    {"profile", sm_view_profile_cmd, 0, 1, "?TYPE|FILE|off?"},
    {"note", view_note, 0, -1, "TEXT ..."},
    {"quit", view_quit, 0, 1, "?-force?"},
    {"refresh", view_refresh, 0, 0, ""},
    {"state", view_state, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

/* ---- theme ---- */

static int theme_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_theme t;
    sm_err e;
    if (sm_theme_load(Tcl_GetString(objv[2]), &t, &e)) return sm_tcl_error(in, "LOAD", "%s", e.msg);
    app->view->theme = t;
    app->view->theme_version++;
    sm_view_touch(app->view);
    Tcl_SetObjResult(in, Tcl_NewStringObj(t.name, -1));
    return TCL_OK;
}

static int theme_list(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app; (void)objc; (void)objv;
    int n;
    char **names = sm_theme_list(&n);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < n; i++) {
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(names[i], -1));
        free(names[i]);
    }
    free(names);
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

static int theme_get(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    Tcl_SetObjResult(in, Tcl_NewStringObj(app->view->theme.name, -1));
    return TCL_OK;
}

static const sm_subcmd theme_subs[] = {
    {"load", theme_load, 1, 1, "NAME"},
    {"list", theme_list, 0, 0, ""},
    {"get", theme_get, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

/* ---- key ---- */

static int key_bind(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    const char *key = Tcl_GetString(objv[2]);
    if (!sm_key_name_valid(key))
        return sm_tcl_error(in, "ARGS", "key bind: \"%s\" is not a key name (a character, C-a..C-z, "
                            "Left Right Up Down PgUp PgDn Home End Enter Esc Tab BTab Space "
                            "Backspace Delete Insert or F1-F12)", key);
    /* A binding a safe script makes runs in the safe interpreter. */
    if (objc == 4) sm_view_bind(app->view, key, Tcl_GetString(objv[3]), in != app->interp);
    const char *s = sm_view_binding(app->view, key, NULL);
    if (!s) {
        int a = sm_key_action(key);
        s = a >= 0 ? sm_action_names[a] : "";
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(s, -1));
    return TCL_OK;
}

/* key list: {key action help} for the table, then user bindings as
 * {key script ""}. */
static int key_list(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < sm_nkeymap; i++) {
        Tcl_Obj *e[3] = {Tcl_NewStringObj(sm_keymap[i].key, -1),
                         Tcl_NewStringObj(sm_action_names[sm_keymap[i].action], -1),
                         Tcl_NewStringObj(sm_action_help[sm_keymap[i].action], -1)};
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewListObj(3, e));
    }
    for (int i = 0; i < app->view->nbinds; i++) {
        Tcl_Obj *e[3] = {Tcl_NewStringObj(app->view->binds[i].key, -1),
                         Tcl_NewStringObj(app->view->binds[i].script, -1), Tcl_NewStringObj("", 0)};
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewListObj(3, e));
    }
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

static const sm_subcmd key_subs[] = {
    {"bind", key_bind, 1, 2, "KEY ?SCRIPT?"},
    {"list", key_list, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

/* ---- screen ---- */

static int screen_dump(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (!app->screen)
        return sm_tcl_error(in, "STATE", "screen dump: no screen (the workbench is not running)");
    char *text = sm_app_screen_dump(app);
    if (objc == 3) {
        sm_err e;
        int rc = sm_write_file_atomic(Tcl_GetString(objv[2]), text, strlen(text), &e);
        free(text);
        if (rc) return sm_tcl_err(in, "IO", &e);
        Tcl_SetObjResult(in, objv[2]);
        return TCL_OK;
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(text, -1));
    free(text);
    return TCL_OK;
}

/* screen keys ?-size {COLS LINES}? ?-term TERM? KEYS: replays KEYS on a
 * headless workbench (batch mode) and returns the seconds each took to
 * handle and draw: the benchmark of what a user waits for. */
static int screen_keys(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const opts[] = {"-size", "-term", NULL};
    int cols = 200, lines = 60;
    const char *term = "xterm-256color";
    int i = 2;
    for (; i + 1 < objc; i += 2) {
        int o;
        if (Tcl_GetIndexFromObj(in, objv[i], opts, "option", 0, &o) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        if (o == 0) {
            Tcl_Obj **e;
            int ne;
            if (Tcl_ListObjGetElements(NULL, objv[i + 1], &ne, &e) != TCL_OK || ne != 2 ||
                Tcl_GetIntFromObj(NULL, e[0], &cols) != TCL_OK || Tcl_GetIntFromObj(NULL, e[1], &lines) != TCL_OK ||
                cols < 80 || lines < 24 || cols > 1000 || lines > 500)
                return sm_tcl_error(in, "ARGS", "screen keys: -size: expected {COLS LINES} from {80 24} to {1000 500}, got \"%s\"",
                                    Tcl_GetString(objv[i + 1]));
        } else {
            term = Tcl_GetString(objv[i + 1]);
        }
    }
    if (i != objc - 1) {
        Tcl_WrongNumArgs(in, 2, objv, "?-size {COLS LINES}? ?-term TERM? KEYS");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    Tcl_Obj **kv;
    int nk;
    if (Tcl_ListObjGetElements(in, objv[i], &nk, &kv) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    const char **keys = sm_xmalloc(sizeof(char *) * (size_t)(nk + 1));
    double *sec = sm_xmalloc(sizeof(double) * (size_t)(nk + 1));
    for (int k = 0; k < nk; k++) keys[k] = Tcl_GetString(kv[k]);
    sm_err e;
    int rc = sm_tui_keys(app, term, cols, lines, keys, nk, sec, &e);
    if (rc == 0) {
        Tcl_Obj *l = Tcl_NewListObj(0, NULL);
        for (int k = 0; k < nk; k++) Tcl_ListObjAppendElement(NULL, l, Tcl_NewDoubleObj(sec[k]));
        Tcl_SetObjResult(in, l);
    }
    free(keys);
    free(sec);
    return rc ? sm_tcl_error(in, rc == -1 && strstr(e.msg, "running") ? "STATE" : "ARGS", "%s", e.msg) : TCL_OK;
}

static const sm_subcmd screen_subs[] = {
    {"dump", screen_dump, 0, 1, "?FILE?"},
    {"keys", screen_keys, 1, 5, "?-size {COLS LINES}? ?-term TERM? KEYS"},
    {NULL, NULL, 0, 0, NULL},
};

static int view_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app_sync_view(cd);
    return sm_dispatch(cd, in, objc, objv, view_subs);
}
static int theme_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, theme_subs);
}
static int key_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, key_subs);
}
static int screen_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, screen_subs);
}

void sm_register_view_cmds(sm_app *app)
{
    sm_create_ensemble(app, "view", view_cmd, view_subs);
    sm_create_ensemble(app, "theme", theme_cmd, theme_subs);
    sm_create_ensemble(app, "key", key_cmd, key_subs);
    sm_create_ensemble(app, "screen", screen_cmd, screen_subs);
}
