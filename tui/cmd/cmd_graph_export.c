/* cmd_graph_export.c - the graph command: graph export -format
 * metis|scotch|graphml FILE, the block graph for a partitioner, with the
 * speed-weighted target parts beside it (-tpwgts for gpmetis, -target for
 * gmap; core/io/metis_scotch_graph_and_target_weight_files.c computes them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/io/metis_scotch_graph_and_target_weight_files.h"
#include "cmd_common.h"
#include "cmd_map.h"

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
        if (objc % 2 == 0 || sm_map_format_args(in, 5, objv, "graph export", fmts, &fmt, &file))
            return objc % 2 == 0 ? sm_tcl_error(in, "ARGS", "graph export: options come in pairs") : TCL_ERROR;
        if (sm_map_trailing_opts(in, objc, objv, "graph export", names, val)) return TCL_ERROR;
        if ((val[0] && fmt != SM_GFMT_METIS) || (val[1] && fmt != SM_GFMT_SCOTCH))
            return sm_tcl_error(in, "ARGS", "graph export: -tpwgts goes with -format metis, -target "
                                "with -format scotch");
    } else {
        if (sm_map_format_args(in, objc, objv, "graph export", fmts, &fmt, &file)) return TCL_ERROR;
        val[0] = val[1] = NULL;
    }
    size_t len;
    char *text = sm_graph_export(app->session->grid, (sm_graph_format)fmt, NULL, NULL, &len);
    if (sm_map_write_text(in, file, text, len) != TCL_OK) return TCL_ERROR;
    for (int k = 0; k < 2; k++) {
        if (!val[k]) continue;
        text = k == 0 ? sm_tpwgts_text(app->session->topo, &len)
                      : sm_scotch_target_text(app->session->topo, &len);
        if (sm_map_write_text(in, Tcl_GetString(val[k]), text, len) != TCL_OK) return TCL_ERROR;
    }
    Tcl_SetObjResult(in, Tcl_NewStringObj(file, -1));
    return TCL_OK;
}

static const sm_subcmd graph_subs[] = {
    {"export", graph_export, 3, 5, "-format metis|scotch|graphml FILE ?-tpwgts FILE? ?-target FILE?"},
    {NULL, NULL, 0, 0, NULL},
};

static int graph_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, graph_subs);
}

void sm_register_graph_cmds(sm_app *app)
{
    sm_create_ensemble(app, "graph", graph_cmd, graph_subs);
}
