/* cmd_map_load_save_export.c - the map command's files: map load|save
 * (stencilmap/mapping), map import|export -format part (METIS/Scotch),
 * map export -format graphml, and the launch files map export -format
 * rankfile|hostfile writes (core/io/rankfile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/io/metis_scotch_graph_and_target_weight_files.h"
#include "core/io/mapping_file.h"
#include "core/io/rankfile.h"
#include "core/io/rank_binding_to_processor_places.h"
#include "cmd_common.h"
#include "cmd_map.h"
#include "core/lib/atomic_file_write.h"

/* The result of every map edit (here and in cmd_map_move_set_swap.c). */
int sm_map_changed(sm_app *app, Tcl_Interp *in, int n)
{
    if (n > 0 && sm_app_changed(app) != TCL_OK) return TCL_ERROR;
    Tcl_SetObjResult(in, Tcl_NewIntObj(n));
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
    return sm_map_changed(app, in, n);
}

int sm_map_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    sm_session *s = app->session;
    int *map = sm_xmalloc(sizeof(int) * (size_t)s->grid->ntasks);
    sm_err e;
    int rc = sm_mapping_load(Tcl_GetString(objv[2]), s->topo, s->grid->ntasks, map, &e);
    return apply_loaded(app, in, map, rc, &e, "map load");
}

int sm_map_save(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
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

/* -format FMT FILE, with FMT checked against choices. */
int sm_map_format_args(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *what,
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

int sm_map_import(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const fmts[] = {"part", NULL};
    int fmt;
    const char *file;
    if (sm_map_format_args(in, objc, objv, "map import", fmts, &fmt, &file)) return TCL_ERROR;
    sm_session *s = app->session;
    int *map = sm_xmalloc(sizeof(int) * (size_t)s->grid->ntasks);
    sm_err e;
    int rc = sm_part_load(file, s->topo->nprocs, s->grid->ntasks, map, &e);
    return apply_loaded(app, in, map, rc, &e, "map import");
}

int sm_map_write_text(Tcl_Interp *in, const char *file, char *text, size_t len)
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
int sm_map_trailing_opts(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *what,
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
    if (sm_map_trailing_opts(in, objc, objv, "map export", names, val)) return TCL_ERROR;
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

int sm_map_export(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
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
    if (sm_map_format_args(in, objc, objv, "map export", fmts, &fmt, &file)) return TCL_ERROR;
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
    return sm_map_write_text(in, file, text, len);
}
