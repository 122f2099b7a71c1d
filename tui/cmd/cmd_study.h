/* cmd_study.h - the study command, shared with the plot subcommand. */
#ifndef SM_CMD_STUDY_H
#define SM_CMD_STUDY_H

#include <tcl.h>
#include "tui/app/app.h"
#include "core/study/study_jobs_enumeration.h"
#include "core/study/study_table.h"

/* A SPEC (file, JSON or dict) read; its seeds marked for the solver
 * words that take -seed. */
int sm_study_get_spec(Tcl_Interp *in, Tcl_Obj *spec, sm_study *st);
/* The SPEC checked whole before any job runs (SPEC 5): model values as
 * model configure takes them, solver words (known solver, options in
 * pairs, no -seed beside seeds), every scenario loads and every word's
 * options parse on it. */
int sm_study_check_whole(sm_app *app, Tcl_Interp *in, const sm_study *st);
/* The merged table of DIR as a list of dicts ordered by job number. */
int sm_study_merge_table(Tcl_Interp *in, const char *dir, Tcl_Obj **table);
/* A table saved by "study merge DIR -format json" (an array of result
 * objects), or one job's result file, as the same list of dicts. */
int sm_study_table_file(Tcl_Interp *in, const char *path, Tcl_Obj **table);
/* The list of dicts as a Tcl-free table (the Study pane's). */
sm_study_table *sm_study_table_of_rows(Tcl_Obj *rows);
int sm_study_plot_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
void sm_register_study_cmds(sm_app *app);
/* view study ...: the Study pane's table and columns (cmd_view_study.c). */
int sm_view_study_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);


/* Shared by the files of the study command (cmd_study_*.c). */
void sm_study_json_add_dict(cJSON *obj, Tcl_Obj *dict, const char *rename_seconds);

/* The subcommands (cmd_study_run.c, cmd_study_merge.c). */
int sm_study_run_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_study_merge_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
int sm_study_status_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

#endif
