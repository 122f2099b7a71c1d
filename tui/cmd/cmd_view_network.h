/* cmd_view_network.h - the Network pane's commands (view network, view link)
 * and its cursor, which `view cursor` and `view plane` hand over to while
 * the Network pane has the focus. */
#ifndef SM_CMD_VIEW_NETWORK_H
#define SM_CMD_VIEW_NETWORK_H

#include "cmd_common.h"

int sm_view_network_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_view_link_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* dir: 0 left, 1 right, 2 up, 3 down. */
int sm_view_net_cursor(sm_app *app, Tcl_Interp *in, int dir);
/* prev, next or a plane number. */
int sm_view_net_plane(sm_app *app, Tcl_Interp *in, Tcl_Obj *arg);

#endif
