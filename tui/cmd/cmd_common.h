/* cmd_common.h - helpers for the Tcl command layer: errors with
 * -errorcode {STENCILMAP CODE}, subcommand tables, result builders. */
#ifndef SM_CMD_COMMON_H
#define SM_CMD_COMMON_H

#include <tcl.h>
#include "core/traffic/mapping_metrics.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/io/mapping_value_text.h"
#include "core/model/cost_incremental.h"
#include "tui/app/app.h"

/* Sets the result and -errorcode {STENCILMAP code}; returns TCL_ERROR. */
int sm_tcl_error(Tcl_Interp *in, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A core or solver error: its own code when it set one (sm_err_set_code),
 * else `code`. */
int sm_tcl_err(Tcl_Interp *in, const char *code, const sm_err *e);
/* `model metrics` as a dict (cmd_model.c); `solver metrics` gives the same keys. */
Tcl_Obj *sm_metrics_dict(const sm_metrics *m);

/* A subcommand: objv[0] is the command, objv[1] the subcommand. */
typedef struct sm_subcmd {
    const char *name;
    int (*fn)(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
    int min, max;        /* argument count after the subcommand (-1 any) */
    const char *usage;   /* for Tcl_WrongNumArgs */
} sm_subcmd;

/* Create the command NAME; subs (may be NULL) is remembered so that the
 * console can complete subcommand names. */
void sm_create_ensemble(sm_app *app, const char *name, Tcl_ObjCmdProc *proc,
                        const sm_subcmd *subs);
const sm_subcmd *sm_ensemble_subs(const char *name);
/* The i-th command created (its name and proc), NULL past the last: the
 * safe interpreter creates each again (safe_interpreter_tcl_commands.c). */
const char *sm_ensemble_at(int i, Tcl_ObjCmdProc **proc);

/* The safe interpreter (-safe, session replay -safe): created on first
 * use, a child of app->interp, with the stencilmap commands and none of
 * exec, open, file, socket, cd, load or source. NULL with the reason in
 * app->interp's result if it cannot be made. */
Tcl_Interp *sm_safe_interp(sm_app *app);
#define SM_SAFE_NAME "stencilmap-safe"
/* Script set from interp `in` (a hook): as the main interpreter must run
 * it. From the safe interpreter it becomes the list
 * {::stencilmap::confined SCRIPT}, so it runs there (under its limits),
 * never here. */
Tcl_Obj *sm_script_for_main(sm_app *app, Tcl_Interp *in, Tcl_Obj *script);
/* Confinement (SPEC 5, safe_interpreter_tcl_commands.c). init installs the path guard; allow
 * adds an -allow DIR (read and write); push/pop a script's directory
 * (read) while it runs (push returns 0 when nothing was pushed). */
void sm_safe_init(sm_app *app);
int sm_safe_allow(sm_app *app, const char *dir, sm_err *e);
int sm_safe_push_script(sm_app *app, const char *file);
void sm_safe_pop_script(sm_app *app);
void sm_safe_free(sm_app *app);
/* `exit` while the workbench runs (cmd_view.c): quits as `view quit`
 * does, refused over unsaved work; the terminal is restored on the way. */
int sm_workbench_exit(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* Limits (SPEC 5): defaults (600 s; half of what is available) unless
 * -limit-time / -limit-memory set them first. enter before evaluating in
 * the safe interpreter from outside it (arms the time limit when it is
 * idle; returns whether it did), leave after: rc, with an error from a
 * limit made {STENCILMAP SAFE LIMIT} in `in`. */
void sm_safe_limits_default(sm_app *app);
void sm_safe_limits_install(sm_app *app, Tcl_Interp *child);
int sm_safe_enter(sm_app *app);
int sm_safe_leave(sm_app *app, Tcl_Interp *in, int armed, int rc);
/* The time limit passed inside a command's C work (app->limit_tripped):
 * TCL_ERROR with {STENCILMAP SAFE LIMIT} in `in`, and Tcl's own time
 * limit reached so no catch in the script stops it; else TCL_OK. */
int sm_safe_limit_raise(sm_app *app, Tcl_Interp *in);
/* The net under a safe evaluation for Tcl panics (safe_interpreter_time_memory_limits.c):
 * eval(ctx) run; a Tcl panic inside it jumps back here: the safe
 * interpreter is abandoned (a new one is made when next needed), the
 * app's nesting counters put back as they were, *fell set, and TCL_ERROR
 * returned with {STENCILMAP SAFE LIMIT} in live (an interpreter still
 * usable). Else eval's code, *fell 0. */
int sm_safe_net_run(sm_app *app, Tcl_Interp *live, int (*eval)(void *ctx), void *ctx, int *fell);
/* The same for one script (text, or obj when not NULL) in interp in. */
int sm_safe_net_eval(sm_app *app, Tcl_Interp *in, const char *text, Tcl_Obj *obj, Tcl_Interp *live, int *fell);
/* gnuplot GP for a safe script (cmd_study_plot.c): in the private
 * directory work, its HOME too, with -d and an environment of PATH and the
 * locale only (no ~/.gnuplot, no gnuplotrc). 0 when it exited 0, else -1
 * with why. */
int sm_gnuplot_private(const char *work, const char *gp, char *why, size_t nwhy);
/* What is left of a safe script's -limit-memory, in bytes (0 or more). */
long long sm_safe_memory_left(sm_app *app);
/* The process's resident size in bytes (0 when unknown). */
long long sm_resident_bytes(void);
/* Command NAME in the safe interpreter: proc with the guard on. */
void sm_safe_create_command(sm_app *app, Tcl_Interp *child, const char *name, Tcl_ObjCmdProc *proc);
/* For a file a command opens itself (not through core/lib/atomic_file_write.c): TCL_OK, or
 * TCL_ERROR with {STENCILMAP SAFE PATH} when a safe script may not. */
int sm_safe_check_path(sm_app *app, Tcl_Interp *in, const char *path, int mode);
/* Where typed commands, key actions and bindings run: the safe
 * interpreter under -safe or inside a safe command (screen keys), else
 * the main one. */
Tcl_Interp *sm_app_script_interp(sm_app *app);

int sm_dispatch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[],
                const sm_subcmd *subs);

/* The save commands' "?-mapping plain|compact|auto?" from objv[first]
 * on (cmd: "scenario save" for messages); *form is SM_MAPPING_AUTO when
 * absent. */
int sm_mapping_form_opt(Tcl_Interp *in, const char *cmd, int objc, Tcl_Obj *const objv[], int first,
                        sm_mapping_form *form);

/* model configure's options (n words: -option value ...) onto *m, checked
 * as the command checks them; *m is untouched on an error. */
int sm_model_parse_opts(Tcl_Interp *in, sm_model *m, int n, Tcl_Obj *const kv[]);

/* Record the command when `session record` is on; nesting-aware. */
void sm_app_record(sm_app *app, int objc, Tcl_Obj *const objv[]);
/* Before a command replaces the grid, machine, type states or model:
 * waits for solver starts in the background (they read the grid and
 * machine), then refused (STENCILMAP BUSY) while solver steps are running, that is from
 * an `on step` hook or a progress callback; otherwise TCL_OK. Call it
 * before doing any work so a refusal leaves everything as it was. */
int sm_app_check_change(sm_app *app, Tcl_Interp *in, const char *what);
/* The BUSY half alone: for `solver start`, which does not wait for the
 * starts it replaces. */
int sm_app_check_busy(sm_app *app, Tcl_Interp *in, const char *what);
/* The change is going ahead: a started solver is stopped for good (its
 * state says why) before the objects it points into are freed. */
void sm_app_detach_solver(sm_app *app, const char *what);
/* Before `what` replaces unsaved work: in the workbench, ask (TCL_OK on
 * yes, a STENCILMAP CANCELLED error on no); in batch, and inside a replay
 * that already asked, go ahead as scripts expect. */
int sm_app_confirm_discard(sm_app *app, Tcl_Interp *in, const char *what);
/* Before a save over an existing file that is not the scenario loaded
 * here: in the workbench, ask; in batch, go ahead. */
int sm_app_confirm_overwrite(sm_app *app, Tcl_Interp *in, const char *path);
/* After the mapping or model changed: run `on changed` hooks. */
int sm_app_changed(sm_app *app);

Tcl_Obj *sm_eval_dict(const sm_eval *ev);
/* model bound's dict (cmd_model.c). */
Tcl_Obj *sm_bound_dict(const sm_bound *b, const sm_topo *t);
Tcl_Obj *sm_proc_dicts(const sm_app *app, const sm_eval *ev);
/* The same for any mapping's cost state (compare mode's other mapping). */
Tcl_Obj *sm_proc_dicts_of(const sm_topo *t, const sm_cost *c, const sm_eval *ev);
/* view compare ?solver|undo N|FILE|off|toggle? (cmd_compare.c) */
int sm_view_compare(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

/* BLOCK: an id or a list {i j k}. PROC: a name or an index. */
int sm_get_block(sm_app *app, Tcl_Interp *in, Tcl_Obj *o, int *block);
int sm_get_proc(sm_app *app, Tcl_Interp *in, Tcl_Obj *o, int *proc);
/* Parse "-opt value" pairs against a list of option names. */
int sm_get_opt_index(Tcl_Interp *in, Tcl_Obj *o, const char *const *names,
                     int *idx);

/* The app on the built-in scenario; freed with its hooks. */
sm_app *sm_app_new(Tcl_Interp *interp, sm_err *e);
void sm_app_free(sm_app *app);
/* While the workbench runs: puts to stdout/stderr lands in the Console
 * (script_output_to_console.c); release puts the standard channels back. */
void sm_console_capture(sm_app *app);
void sm_console_release(sm_app *app);
/* Register every command (SPEC 5). */
void sm_cmd_register_all(sm_app *app);
void sm_register_scenario_cmds(sm_app *app);
void sm_register_model_cmds(sm_app *app);
void sm_register_map_cmds(sm_app *app);
void sm_register_solve_cmds(sm_app *app);
void sm_register_report_cmd(sm_app *app);
void sm_register_session_cmds(sm_app *app);
void sm_register_view_cmds(sm_app *app);
void sm_register_study_cmds(sm_app *app);
void sm_register_units_cmds(sm_app *app);
void sm_register_run_cmds(sm_app *app);

#endif
