/* cmd_topo_detect_import.h - topo detect | import -format hwloc (SPEC §5). */
#ifndef SM_CMD_TOPO_DETECT_IMPORT_H
#define SM_CMD_TOPO_DETECT_IMPORT_H

#include "cmd_common.h"

int sm_topo_detect_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_topo_import_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* A processor's place as a Tcl dict ({package P cores {..} pus {..}} or
 * {device D pci BUSID host_core C}); an empty object when p is NULL. */
Tcl_Obj *sm_place_obj(const sm_place *p);

#endif
