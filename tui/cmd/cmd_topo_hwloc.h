/* cmd_topo_hwloc.h - topo detect | import -format hwloc (SPEC §5). */
#ifndef SM_CMD_TOPO_HWLOC_H
#define SM_CMD_TOPO_HWLOC_H

#include "cmd_common.h"

int sm_topo_detect_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_topo_import_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

#endif
