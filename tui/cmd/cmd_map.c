/* cmd_map.c - map get|set|swap|list|load|save|undo|redo|import|export and
 * graph export. Every change is one undoable session edit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/io/graph_export.h"
#include "core/io/mapping_file.h"
#include "core/io/rankfile.h"
#include "cmd_common.h"

static int changed(sm_app *app, Tcl_Interp *in, int n)
{
    if (n > 0 && sm_app_changed(app) != TCL_OK) return TCL_ERROR;
    Tcl_SetObjResult(in, Tcl_NewIntObj(n));
    return TCL_OK;
}

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
    return changed(app, in, sm_session_move(app->session, b, p, label));
}

static int map_swap(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    int a, b;
    if (sm_get_block(app, in, objv[2], &a) || sm_get_block(app, in, objv[3], &b)) return TCL_ERROR;
    char label[96];
    snprintf(label, sizeof label, "map swap %d %d", a, b);
    return changed(app, in, sm_session_swap(app->session, a, b, label));
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

static int apply_loaded(sm_app *app, Tcl_Interp *in, int *map, int rc, const sm_err *e,
                        const char *label)
{
    if (rc) {
        free(map);
        return sm_tcl_error(in, "LOAD", "%s", e->msg);
    }
    int n = sm_session_apply(app->session, map, label);
    free(map);
    return changed(app, in, n);
}

static int map_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_session *s = app->session;
    int *map = sm_xmalloc(sizeof(int) * (size_t)s->grid->ntasks);
    sm_err e;
    int rc = sm_mapping_load(Tcl_GetString(objv[2]), s->topo, s->grid->ntasks, map, &e);
    return apply_loaded(app, in, map, rc, &e, "map load");
}

static int map_save(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_session *s = app->session;
    sm_err e;
    sm_mapping_form form;
    if (sm_mapping_form_opt(in, "map save", objc, objv, 3, &form) != TCL_OK) return TCL_ERROR;
    if (sm_app_confirm_overwrite(app, in, Tcl_GetString(objv[2]))) return TCL_ERROR;
    if (sm_mapping_save(Tcl_GetString(objv[2]), s->topo, sm_session_map(s), s->grid->ntasks, form, &e))
        return sm_tcl_err(in, "IO", &e);
    if (strcmp(Tcl_GetString(objv[2]), "-") != 0) {
        sm_session_saved(s, SM_PART_MAP);
        sm_app_after_save(app);
    }
    Tcl_SetObjResult(in, objv[2]);
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
    return changed(app, in, changed_n);
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
    return changed(app, in, 1);
}

static int map_redo(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    if (before_states(app, in, 1, "map redo")) return TCL_ERROR;
    if (sm_session_redo(app->session)) return sm_tcl_error(in, "STATE", "map redo: nothing to redo");
    return changed(app, in, 1);
}

/* -format FMT FILE, with FMT checked against choices. */
static int format_args(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *what,
                       const char *const *choices, int *fmt, const char **file)
{
    if (objc != 5 || strcmp(Tcl_GetString(objv[2]), "-format") != 0)
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"%s -format FORMAT FILE\"", what);
    if (Tcl_GetIndexFromObj(in, objv[3], choices, "format", 0, fmt) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    *file = Tcl_GetString(objv[4]);
    return TCL_OK;
}

static int map_import(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const fmts[] = {"part", NULL};
    int fmt;
    const char *file;
    if (format_args(in, objc, objv, "map import", fmts, &fmt, &file)) return TCL_ERROR;
    sm_session *s = app->session;
    int *map = sm_xmalloc(sizeof(int) * (size_t)s->grid->ntasks);
    sm_err e;
    int rc = sm_part_load(file, s->topo->nprocs, s->grid->ntasks, map, &e);
    return apply_loaded(app, in, map, rc, &e, "map import");
}

static int write_text(Tcl_Interp *in, const char *file, char *text, size_t len)
{
    sm_err e;
    int rc = sm_write_file_atomic(file, text, len, &e);
    free(text);
    if (rc) return sm_tcl_err(in, "IO", &e);
    Tcl_SetObjResult(in, Tcl_NewStringObj(file, -1));
    return TCL_OK;
}

/* Trailing "-opt value" pairs after -format FMT FILE: each value into
 * vals[index of opt in names] (NULL when absent). */
static int trailing_opts(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *what,
                         const char *const *names, Tcl_Obj **vals)
{
    for (int i = 0; names[i]; i++) vals[i] = NULL;
    for (int i = 5; i < objc; i += 2) {
        int idx;
        if (Tcl_GetIndexFromObj(in, objv[i], names, "option", 0, &idx) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        if (i + 1 >= objc) return sm_tcl_error(in, "ARGS", "%s: %s needs a value", what, names[idx]);
        vals[idx] = objv[i + 1];
    }
    return TCL_OK;
}

/* map export -format rankfile|hostfile FILE ?-hosts {H ...}? ?-blocks FILE?:
 * a rank a processor holding blocks; the block -> rank list goes to
 * -blocks (default FILE.blocks; none when FILE is "-" and -blocks absent). */
static int export_launch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[],
                         sm_launch_format f, const char *file)
{
    static const char *const names[] = {"-hosts", "-blocks", NULL};
    Tcl_Obj *val[2];
    if (trailing_opts(in, objc, objv, "map export", names, val)) return TCL_ERROR;
    sm_session *s = app->session;
    int nh = 0;
    Tcl_Obj **hv = NULL;
    char **hosts = NULL;
    if (val[0]) {
        if (Tcl_ListObjGetElements(NULL, val[0], &nh, &hv) != TCL_OK)
            return sm_tcl_error(in, "ARGS", "map export: -hosts expects a list of host names, one a node");
        hosts = sm_xmalloc(sizeof(char *) * (size_t)(nh ? nh : 1));
        for (int i = 0; i < nh; i++) hosts[i] = Tcl_GetString(hv[i]);
    }
    sm_launch l;
    sm_err e;
    int rc = sm_launch_plan(s->topo, sm_session_map(s), s->grid->ntasks, hosts, hosts ? nh : 0, &l, &e);
    free(hosts);
    if (rc) return sm_tcl_error(in, "ARGS", "map export: %s", e.msg);
    /* A rankfile binds: every rank to its processor's place. */
    if (f == SM_LAUNCH_RANKFILE && sm_launch_bind(s->topo, &l, &e) != 0) {
        sm_launch_free(&l);
        sm_err_prefix(&e, "map export: ");
        return sm_tcl_err(in, "RUN PLACE", &e);
    }
    char *blocks = NULL;
    if (val[1]) blocks = sm_xstrdup(Tcl_GetString(val[1]));
    else if (strcmp(file, "-") != 0) {
        blocks = sm_xmalloc(strlen(file) + 8);
        sprintf(blocks, "%s.blocks", file);
    }
    size_t len;
    char *text = sm_launch_text(&l, f, &len);
    rc = sm_write_file_atomic(file, text, len, &e);
    free(text);
    if (rc == 0 && blocks) {
        text = sm_launch_blocks_text(&l, sm_session_map(s), s->grid->ntasks, &len);
        rc = sm_write_file_atomic(blocks, text, len, &e);
        free(text);
    }
    if (rc) {
        free(blocks);
        sm_launch_free(&l);
        return sm_tcl_err(in, "IO", &e);
    }
    Tcl_Obj *d = Tcl_NewDictObj(), *hl = Tcl_NewListObj(0, NULL);
    for (int r = 0; r < l.nranks; r++) Tcl_ListObjAppendElement(NULL, hl, Tcl_NewStringObj(l.host[r], -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("file", -1), Tcl_NewStringObj(file, -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("ranks", -1), Tcl_NewIntObj(l.nranks));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("hosts", -1), hl);
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("blocks", -1), Tcl_NewStringObj(blocks ? blocks : "", -1));
    free(blocks);
    sm_launch_free(&l);
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static int map_export(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const fmts[] = {"part", "graphml", "rankfile", "hostfile", NULL};
    int fmt;
    const char *file;
    if (objc > 5 && strcmp(Tcl_GetString(objv[2]), "-format") == 0) {
        if (Tcl_GetIndexFromObj(in, objv[3], fmts, "format", 0, &fmt) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        if (fmt < 2)
            return sm_tcl_error(in, "ARGS", "map export: -format %s takes no options", fmts[fmt]);
        return export_launch(app, in, objc, objv, fmt == 2 ? SM_LAUNCH_RANKFILE : SM_LAUNCH_HOSTFILE,
                             Tcl_GetString(objv[4]));
    }
    if (format_args(in, objc, objv, "map export", fmts, &fmt, &file)) return TCL_ERROR;
    if (fmt >= 2)
        return export_launch(app, in, objc, objv, fmt == 2 ? SM_LAUNCH_RANKFILE : SM_LAUNCH_HOSTFILE, file);
    sm_session *s = app->session;
    if (fmt == 0) {
        sm_err e;
        if (sm_part_save(file, sm_session_map(s), s->grid->ntasks, &e))
            return sm_tcl_err(in, "IO", &e);
        Tcl_SetObjResult(in, Tcl_NewStringObj(file, -1));
        return TCL_OK;
    }
    size_t len;
    char *text = sm_graph_export(s->grid, SM_GFMT_GRAPHML, sm_session_map(s), s->topo, &len);
    return write_text(in, file, text, len);
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
    return changed(app, in, changed_n);
}

static const sm_subcmd map_subs[] = {
    {"get", map_get, 1, 1, "BLOCK"},
    {"set", map_set, 2, 2, "BLOCK PROC"},
    {"swap", map_swap, 2, 2, "BLOCK1 BLOCK2"},
    {"move", map_move, 2, -1, "PROC BLOCK ?BLOCK ...?"},
    {"counts", map_counts, 1, 1, "{COUNT ...}"},
    {"list", map_list, 0, 0, ""},
    {"load", map_load, 1, 1, "FILE"},
    {"save", map_save, 1, 3, "FILE ?-mapping plain|compact|auto?"},
    {"undo", map_undo, 0, 0, ""},
    {"redo", map_redo, 0, 0, ""},
    {"import", map_import, 3, 3, "-format part FILE"},
    {"export", map_export, 3, 7, "-format part|graphml|rankfile|hostfile FILE ?-hosts {HOST ...}? ?-blocks FILE?"},
    {NULL, NULL, 0, 0, NULL},
};

/* graph export -format metis FILE ?-tpwgts FILE? | -format scotch FILE
 * ?-target FILE?: the target weights of a speed-weighted partition go
 * beside the graph (gpmetis -tpwgts=FILE, gmap GRAPH FILE). */
static int graph_export(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const fmts[] = {"metis", "scotch", "graphml", NULL};
    static const char *const names[] = {"-tpwgts", "-target", NULL};
    int fmt;
    const char *file;
    Tcl_Obj *val[2];
    if (objc > 5) {
        if (objc % 2 == 0 || format_args(in, 5, objv, "graph export", fmts, &fmt, &file))
            return objc % 2 == 0 ? sm_tcl_error(in, "ARGS", "graph export: options come in pairs") : TCL_ERROR;
        if (trailing_opts(in, objc, objv, "graph export", names, val)) return TCL_ERROR;
        if ((val[0] && fmt != SM_GFMT_METIS) || (val[1] && fmt != SM_GFMT_SCOTCH))
            return sm_tcl_error(in, "ARGS", "graph export: -tpwgts goes with -format metis, -target "
                                "with -format scotch");
    } else {
        if (format_args(in, objc, objv, "graph export", fmts, &fmt, &file)) return TCL_ERROR;
        val[0] = val[1] = NULL;
    }
    size_t len;
    char *text = sm_graph_export(app->session->grid, (sm_graph_format)fmt, NULL, NULL, &len);
    if (write_text(in, file, text, len) != TCL_OK) return TCL_ERROR;
    for (int k = 0; k < 2; k++) {
        if (!val[k]) continue;
        text = k == 0 ? sm_tpwgts_text(app->session->topo, &len)
                      : sm_scotch_target_text(app->session->topo, &len);
        if (write_text(in, Tcl_GetString(val[k]), text, len) != TCL_OK) return TCL_ERROR;
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(file, -1));
    return TCL_OK;
}

static const sm_subcmd graph_subs[] = {
    {"export", graph_export, 3, 5, "-format metis|scotch|graphml FILE ?-tpwgts FILE? ?-target FILE?"},
    {NULL, NULL, 0, 0, NULL},
};

static int map_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, map_subs);
}
static int graph_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, graph_subs);
}

void sm_register_map_cmds(sm_app *app)
{
    sm_create_ensemble(app, "map", map_cmd, map_subs);
    sm_create_ensemble(app, "graph", graph_cmd, graph_subs);
}
