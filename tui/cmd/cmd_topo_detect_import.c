/* cmd_topo_detect_import.c - topo detect | import -format hwloc: the machine's
 * topology from hwloc (core/io/hwloc_read_lstopo_xml_or_this_machine.c, core/io/hwloc_description_to_topology.c) becomes the session's
 * topology, the mapping kept where it still fits. */
#include <stdlib.h>
#include <string.h>
#include "core/io/hwloc_read_lstopo_xml_or_this_machine.h"
#include "core/session/session_edits_undo_redo.h"
#include "cmd_topo_detect_import.h"
#include "core/io/topology_file.h"

typedef struct hw_opts {
    int per;           /* SM_HW_PER_PACKAGE, _NUMA or _CORE */
    int nodes;         /* 0: one node per machine read */
} hw_opts;

/* -per and -nodes from objv[first..]; the first non-option word's index
 * goes to *rest (objc when none). */
static int parse_opts(Tcl_Interp *in, const char *cmd, int objc, Tcl_Obj *const objv[],
                      int first, hw_opts *o, int *rest)
{
    static const char *const opts[] = {"-per", "-nodes", NULL};
    static const char *const pers[] = {"package", "numa", "core", NULL};
    int i = first;
    /* "-" alone is a file: standard input. */
    for (; i < objc && Tcl_GetString(objv[i])[0] == '-' && Tcl_GetString(objv[i])[1]; i += 2) {
        int idx;
        if (sm_get_opt_index(in, objv[i], opts, &idx) != TCL_OK) return TCL_ERROR;
        if (i + 1 >= objc)
            return sm_tcl_error(in, "ARGS", "%s: %s needs a value", cmd, opts[idx]);
        if (idx == 0) {
            if (Tcl_GetIndexFromObj(in, objv[i + 1], pers, "-per", 0, &o->per) != TCL_OK) {
                Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
                return TCL_ERROR;
            }
        } else if (Tcl_GetIntFromObj(NULL, objv[i + 1], &o->nodes) != TCL_OK ||
                   o->nodes < 1 || o->nodes > SM_MAX_PROCS) {
            return sm_tcl_error(in, "ARGS", "%s: -nodes expects 1..%d, got \"%s\"", cmd,
                                SM_MAX_PROCS, Tcl_GetString(objv[i + 1]));
        }
    }
    *rest = i;
    return TCL_OK;
}

static Tcl_Obj *int_list(const int *v, int n)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < n; i++) Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj(v[i]));
    return l;
}

Tcl_Obj *sm_place_obj(const sm_place *p)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    if (!p) return d;
#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
    if (p->kind == SM_PLACE_GPU) {
        PUT("device", Tcl_NewIntObj(p->device));
        if (p->pci) PUT("pci", Tcl_NewStringObj(p->pci, -1));
        if (p->host_core >= 0) PUT("host_core", Tcl_NewIntObj(p->host_core));
    } else {
        if (p->package >= 0) PUT("package", Tcl_NewIntObj(p->package));
        PUT("cores", int_list(p->cores, p->ncores));
        PUT("pus", int_list(p->pus, p->npus));
    }
#undef PUT
    return d;
}

/* What was built: counts, and per type the model's estimate note. */
static Tcl_Obj *summary(const sm_topo *t, double memory)
{
    Tcl_Obj *d = Tcl_NewDictObj(), *est = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("processors", -1), Tcl_NewIntObj(t->nprocs));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("nodes", -1), Tcl_NewIntObj(t->nnodes));
    /* What hwloc-calc and lstopo count: cores, PUs, GPUs, CPU memory. */
    long cores = 0, pus = 0, gpus = 0;
    for (int p = 0; p < t->nprocs; p++) {
        const sm_place *pl = t->procs[p].place;
        if (pl && pl->kind == SM_PLACE_CPU) { cores += pl->ncores; pus += pl->npus; }
        if (pl && pl->kind == SM_PLACE_GPU) gpus++;
    }
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("cores", -1), Tcl_NewWideIntObj(cores));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("pus", -1), Tcl_NewWideIntObj(pus));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("gpus", -1), Tcl_NewWideIntObj(gpus));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("memory", -1), Tcl_NewDoubleObj(memory));
    for (int i = 0; i < t->ntypes; i++) {
        const sm_type *T = &t->types[i];
        int count = 0;
        for (int p = 0; p < t->nprocs; p++) count += t->procs[p].type == i;
        Tcl_Obj *o = Tcl_NewDictObj();
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("count", -1), Tcl_NewIntObj(count));
        Tcl_DictObjPut(NULL, o, Tcl_NewStringObj("estimated", -1),
                       Tcl_NewStringObj(T->estimated ? T->estimated : "", -1));
        Tcl_DictObjPut(NULL, est, Tcl_NewStringObj(T->name, -1), o);
    }
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("types", -1), est);
    return d;
}

/* Build from the machines read and install it; the session is unchanged
 * on any error. */
static int install(sm_app *app, Tcl_Interp *in, const char *what, sm_hw_machine *m,
                   int nm, const hw_opts *o)
{
    sm_err e;
    cJSON *j = sm_hw_topology_json(m, nm, o->nodes > nm ? o->nodes : nm, &e);
    sm_topo *t = j ? sm_topo_from_json(j, "", &e) : NULL;
    cJSON_Delete(j);
    if (!t) return sm_tcl_error(in, "LOAD", "%s: %s", what, e.msg);
    sm_app_detach_solver(app, what);
    sm_session_set_topo(app->session, t);
    int rc = sm_app_changed(app);
    double memory = 0;
    for (int n = 0; n < app->session->topo->nnodes; n++)
        for (int i = 0; i < m[n % nm].ndev; i++)
            if (!m[n % nm].dev[i].gpu) memory += m[n % nm].dev[i].memory;
    if (rc == TCL_OK) Tcl_SetObjResult(in, summary(app->session->topo, memory));
    return rc;
}

static int need_hwloc(Tcl_Interp *in, const char *what)
{
    if (sm_hwloc_available()) return TCL_OK;
    Tcl_SetObjResult(in, Tcl_ObjPrintf("%s: this stencilmap was built without hwloc "
                                       "(install libhwloc-dev and rebuild)", what));
    Tcl_SetErrorCode(in, "STENCILMAP", "HWLOC", NULL);
    return TCL_ERROR;
}

int sm_topo_detect_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    hw_opts o = {0, 0};
    int rest;
    if (parse_opts(in, "topo detect", objc, objv, 2, &o, &rest) != TCL_OK) return TCL_ERROR;
    if (rest != objc) {
        Tcl_WrongNumArgs(in, 2, objv, "?-per package|numa|core? ?-nodes N?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    if (need_hwloc(in, "topo detect") != TCL_OK) return TCL_ERROR;
    if (sm_app_check_change(app, in, "topo detect")) return TCL_ERROR;
    sm_hw_machine m = {0, NULL};
    sm_err e;
    if (sm_hwloc_read(NULL, o.per, &m, &e) < 0) {
        sm_hw_machine_free(&m);
        return sm_tcl_error(in, "HWLOC", "topo detect: %s", e.msg);
    }
    int rc = install(app, in, "topo detect", &m, 1, &o);
    sm_hw_machine_free(&m);
    return rc;
}

int sm_topo_import_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const formats[] = {"hwloc", NULL};
    int fmt;
    if (strcmp(Tcl_GetString(objv[2]), "-format") != 0)
        return sm_tcl_error(in, "ARGS", "topo import: expected -format hwloc, got \"%s\"",
                            Tcl_GetString(objv[2]));
    if (Tcl_GetIndexFromObj(in, objv[3], formats, "format", 0, &fmt) != TCL_OK) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    hw_opts o = {0, 0};
    int rest;
    if (parse_opts(in, "topo import", objc, objv, 4, &o, &rest) != TCL_OK) return TCL_ERROR;
    if (rest >= objc) {
        Tcl_WrongNumArgs(in, 2, objv, "-format hwloc ?-per package|numa|core? ?-nodes N? FILE|- ?FILE ...?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    if (need_hwloc(in, "topo import")) return TCL_ERROR;
    if (sm_app_check_change(app, in, "topo import")) return TCL_ERROR;
    int nm = objc - rest;
    sm_hw_machine *m = sm_xcalloc((size_t)nm, sizeof *m);
    sm_err e;
    int rc = TCL_OK;
    for (int i = 0; i < nm && rc == TCL_OK; i++)
        if (sm_hwloc_read(Tcl_GetString(objv[rest + i]), o.per, &m[i], &e) < 0)
            rc = sm_tcl_error(in, "LOAD", "topo import: %s", e.msg);
    if (rc == TCL_OK) rc = install(app, in, "topo import", m, nm, &o);
    for (int i = 0; i < nm; i++) sm_hw_machine_free(&m[i]);
    free(m);
    return rc;
}
