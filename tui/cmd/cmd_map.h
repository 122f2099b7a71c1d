/* cmd_map.h - what the map command's files share (cmd_map_move_set_swap.c,
 * cmd_map_load_save_export.c) and the graph command (cmd_graph_export.c)
 * borrows. */
#ifndef SM_CMD_MAP_H
#define SM_CMD_MAP_H

#include "cmd_common.h"

/* The result n (blocks changed) and, when any changed, the hooks
 * (cmd_map_load_save_export.c; the symbol order is editing -> files). */
int sm_map_changed(sm_app *app, Tcl_Interp *in, int n);
int sm_map_load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_map_save(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_map_import(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_map_export(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* -format FMT FILE, with FMT checked against choices. */
int sm_map_format_args(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *what,
                       const char *const *choices, int *fmt, const char **file);
/* text (freed) written atomically to file; the result is file. */
int sm_map_write_text(Tcl_Interp *in, const char *file, char *text, size_t len);
/* Trailing "-opt value" pairs after -format FMT FILE. */
int sm_map_trailing_opts(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], const char *what,
                         const char *const *names, Tcl_Obj **vals);
/* The graph command (cmd_graph_export.c), registered right after map. */
void sm_register_graph_cmds(sm_app *app);

#endif
