/* cmd_topo_measure.h - topo measure and topo profile plot (SPEC 8). */
#ifndef SM_CMD_TOPO_MEASURE_H
#define SM_CMD_TOPO_MEASURE_H

#include "cmd_common.h"

int sm_topo_measure_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* topo profile plot TYPE|FILE -o FILE.svg|png (objv[2] is "plot"). */
int sm_topo_profile_plot_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* The last measurement's dict per type (NULL before any). */
Tcl_Obj *sm_topo_measured(void);

#endif
