/* cmd_study.h - the study command, shared with the plot subcommand. */
#ifndef SM_CMD_STUDY_H
#define SM_CMD_STUDY_H

#include <tcl.h>
#include "../app.h"
#include "../../core/study.h"

int sm_study_get_spec(Tcl_Interp *in, Tcl_Obj *spec, sm_study *st);
/* The merged table of DIR as a list of dicts ordered by job number. */
int sm_study_merge_table(Tcl_Interp *in, const char *dir, Tcl_Obj **table);
int sm_study_plot_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
void sm_register_study_cmds(sm_app *app);

#endif
