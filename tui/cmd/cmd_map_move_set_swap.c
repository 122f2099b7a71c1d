/* cmd_map_move_set_swap.c - the map command (SPEC 5): editing the mapping
 * by hand, map move|set|swap|counts|get|list|undo|redo, each change one
 * undoable session edit; its files (load, save, import, export) are
 * cmd_map_load_save_export.c; graph export is cmd_graph_export.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_common.h"
#include "cmd_map.h"

static int map_get(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    int b;
    if (sm_get_block(app, in, objv[2], &b)) return TCL_ERROR;
    Tcl_SetObjResult(in, Tcl_NewStringObj(app->session->topo->procs[sm_session_map(app->session)[b]].name, -1));
    return TCL_OK;
}

static int map_set(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    int b, p;
    if (sm_get_block(app, in, objv[2], &b) || sm_get_proc(app, in, objv[3], &p)) return TCL_ERROR;
    char label[96];
    snprintf(label, sizeof label, "map set %d %s", b, app->session->topo->procs[p].name);
    return sm_map_changed(app, in, sm_session_move(app->session, b, p, label));
}

static int map_swap(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    int a, b;
    if (sm_get_block(app, in, objv[2], &a) || sm_get_block(app, in, objv[3], &b)) return TCL_ERROR;
    char label[96];
    snprintf(label, sizeof label, "map swap %d %d", a, b);
    return sm_map_changed(app, in, sm_session_swap(app->session, a, b, label));
}

static int map_list(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    const sm_session *s = app->session;
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int u = 0; u < s->grid->ntasks; u++)
        Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(s->topo->procs[sm_session_map(s)[u]].name, -1));
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

/* map move PROC BLOCK ?BLOCK ...?: several blocks, one undoable edit, in
 * time proportional to the blocks named (not to the grid). */
static int map_move(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_session *s = app->session;
    int p;
    if (sm_get_proc(app, in, objv[2], &p)) return TCL_ERROR;
    int *blocks = sm_xmalloc(sizeof(int) * (size_t)(objc - 3));
    for (int i = 3; i < objc; i++)
        if (sm_get_block(app, in, objv[i], &blocks[i - 3])) {
            free(blocks);
            return TCL_ERROR;
        }
    char label[96];
    if (objc == 4) snprintf(label, sizeof label, "map move %s %s", s->topo->procs[p].name, Tcl_GetString(objv[3]));
    else snprintf(label, sizeof label, "map move %s (%d blocks)", s->topo->procs[p].name, objc - 3);
    int changed_n = sm_session_move_blocks(s, blocks, objc - 3, p, label);
    free(blocks);
    return sm_map_changed(app, in, changed_n);
}

/* An undo or redo that switches DVFS states changes the machine a solver
 * may be solving: it lets go first, as after topo state. */
static int before_states(sm_app *app, Tcl_Interp *in, int redo, const char *what)
{
    if (!sm_session_next_states(app->session, redo)) return TCL_OK;
    if (sm_app_check_change(app, in, what)) return TCL_ERROR;
    sm_app_detach_solver(app, what);
    return TCL_OK;
}

static int map_undo(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (before_states(app, in, 0, "map undo")) return TCL_ERROR;
    if (sm_session_undo(app->session)) return sm_tcl_error(in, "STATE", "map undo: nothing to undo");
    return sm_map_changed(app, in, 1);
}

static int map_redo(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (before_states(app, in, 1, "map redo")) return TCL_ERROR;
    if (sm_session_redo(app->session)) return sm_tcl_error(in, "STATE", "map redo: nothing to redo");
    return sm_map_changed(app, in, 1);
}

/* map counts {C1 C2 ...}: processor i gets C_i blocks as a contiguous run
 * in block-id order, processors in list order (popta's distributions, a
 * point of its Pareto front); one undoable edit. */
static int map_counts(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_session *s = app->session;
    int nc;
    Tcl_Obj **cv;
    if (Tcl_ListObjGetElements(in, objv[2], &nc, &cv) != TCL_OK) return TCL_ERROR;
    int P = s->topo->nprocs, n = s->grid->ntasks;
    if (nc != P)
        return sm_tcl_error(in, "ARGS", "map counts: expected %d counts (one per processor), got %d", P, (int)nc);
    int *map = sm_xmalloc(sizeof(int) * (size_t)(n ? n : 1));
    long long u = 0;
    for (int p = 0; p < P; p++) {
        Tcl_WideInt c;
        if (Tcl_GetWideIntFromObj(NULL, cv[p], &c) != TCL_OK || c < 0 || c > n - u) {
            free(map);
            return sm_tcl_error(in, "ARGS", "map counts: count %d: expected a whole number of blocks, at most "
                                "the %lld left, got \"%s\"", p, (long long)(n - u), Tcl_GetString(cv[p]));
        }
        for (Tcl_WideInt k = 0; k < c; k++) map[u++] = p;
    }
    if (u != n) {
        free(map);
        return sm_tcl_error(in, "ARGS", "map counts: the counts add up to %lld, expected %d blocks", u, n);
    }
    int changed_n = sm_session_apply(s, map, "map counts");
    free(map);
    return sm_map_changed(app, in, changed_n);
}

static const sm_subcmd map_subs[] = {
    {"get", map_get, 1, 1, "BLOCK"},
    {"set", map_set, 2, 2, "BLOCK PROC"},
    {"swap", map_swap, 2, 2, "BLOCK1 BLOCK2"},
    {"move", map_move, 2, -1, "PROC BLOCK ?BLOCK ...?"},
    {"counts", map_counts, 1, 1, "{COUNT ...}"},
    {"list", map_list, 0, 0, ""},
    {"load", sm_map_load, 1, 1, "FILE"},
    {"save", sm_map_save, 1, 3, "FILE ?-mapping plain|compact|auto?"},
    {"undo", map_undo, 0, 0, ""},
    {"redo", map_redo, 0, 0, ""},
    {"import", sm_map_import, 3, 3, "-format part FILE"},
    {"export", sm_map_export, 3, 7, "-format part|graphml|rankfile|hostfile FILE ?-hosts {HOST ...}? ?-blocks FILE?"},
    {NULL, NULL, 0, 0, NULL},
};


static int map_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, map_subs);
}
void sm_register_map_cmds(sm_app *app)
{
    sm_create_ensemble(app, "map", map_cmd, map_subs);
    sm_register_graph_cmds(app);
}
