/* main.c - stencilmap: batch mode (-b FILE), one-shot evaluation (-e),
 * or the interactive workbench on a scenario. Its options are read by
 * command_line_options.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "core/lib/util.h"
#include "tui/app/app.h"
#include "tui/cmd/cmd_common.h"
#include "tui/workbench/workbench.h"
#include "command_line_options.h"
#include "core/lib/atomic_file_write.h"


extern const char sm_tcl_library[];

static void set_argv(Tcl_Interp *in, const char *argv0, int argc, char **argv)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < argc; i++) Tcl_ListObjAppendElement(NULL, l, Tcl_NewStringObj(argv[i], -1));
    Tcl_SetVar2Ex(in, "argv", NULL, l, TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in, "argc", NULL, Tcl_NewIntObj(argc), TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in, "argv0", NULL, Tcl_NewStringObj(argv0, -1), TCL_GLOBAL_ONLY);
    Tcl_SetVar2Ex(in, "tcl_interactive", NULL, Tcl_NewIntObj(0), TCL_GLOBAL_ONLY);
}

static sm_app *the_app;

/* `exit N` inside a script ends the process through Tcl_Exit: free the
 * session on the way out so batch runs are leak-free. */
static void exit_handler(ClientData cd)
{
    (void)cd;
    /* Not with a safe interpreter a Tcl panic abandoned mid-evaluation:
     * deleting it (with its parent) would be Tcl's next panic. */
    if (the_app && the_app->interp && !the_app->safe_dead) {
        Tcl_DeleteInterp(the_app->interp);
        the_app->interp = NULL;
    }
    sm_app_free(the_app);
    the_app = NULL;
    sm_filestate_forget_all();
}

/* "-" as a file to write: through Tcl's stdout channel, so it lands in
 * order with `puts`; the workbench's screen is no place for it. */
static int stdout_used;   /* a file went to standard output */

static int stdout_write(const char *data, size_t len, sm_err *e)
{
    stdout_used = 1;
    if (the_app && the_app->screen) {
        sm_err_set(e, "- (standard output): the workbench's terminal is the screen; name a file");
        return -1;
    }
    Tcl_Channel ch = Tcl_GetStdChannel(TCL_STDOUT);
    if (!ch) {
        sm_err_set(e, "- (standard output): closed");
        return -1;
    }
    if (Tcl_WriteRaw(ch, data, (int)len) < 0 || Tcl_Flush(ch) != TCL_OK) {
        sm_err_set(e, "- (standard output): write failed: %s", Tcl_ErrnoMsg(Tcl_GetErrno()));
        return -1;
    }
    return 0;
}

/* exit: Tcl's, except while the workbench runs (the console, a key
 * binding, screen keys): then it ends the workbench the way q does (SPEC
 * 5), never over unsaved work and never with the terminal left raw. */
static Tcl_ObjCmdProc *tcl_exit;
static ClientData tcl_exit_cd;

static int exit_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    if (app->screen) return sm_workbench_exit(app, in, objc, objv);
    return tcl_exit(tcl_exit_cd, in, objc, objv);
}

static void wrap_exit(sm_app *app, Tcl_Interp *in)
{
    Tcl_CmdInfo info;
    if (!Tcl_GetCommandInfo(in, "exit", &info) || !info.objProc) return;
    tcl_exit = info.objProc;
    tcl_exit_cd = info.objClientData;
    Tcl_CreateObjCommand(in, "exit", exit_cmd, app, NULL);
}

/* A save over a file changed on disk since this session read it (another
 * instance saved it): the workbench asks; batch refuses (FILE CHANGED). */
static int ask_file_changed(const char *path)
{
    if (!the_app || !the_app->screen || !the_app->screen->confirm) return 0;
    char q[600];
    snprintf(q, sizeof q, "%.400s changed on disk since this session read it (another instance?). "
             "Overwrite it? (y/n)", path);
    return the_app->screen->confirm(the_app, q);
}

/* A -safe batch script, evaluated under the net for Tcl panics. */
typedef struct batch_file {
    Tcl_Interp *in;
    const char *file;
} batch_file;

static int eval_file_in(Tcl_Interp *in, const char *file);

static int batch_file_eval(void *ctx)
{
    batch_file *f = ctx;
    return eval_file_in(f->in, f->file);
}

static int report_error(Tcl_Interp *in)
{
    const char *info = Tcl_GetVar2(in, "errorInfo", NULL, TCL_GLOBAL_ONLY);
    fprintf(stderr, "%s\n", info ? info : Tcl_GetStringResult(in));
    return 1;
}

/* Load a scenario named on the command line: the path is one word of a
 * list, never pasted into a script. */
static int load_scenario(Tcl_Interp *in, const char *path)
{
    Tcl_Obj *w[3] = {Tcl_NewStringObj("scenario", -1), Tcl_NewStringObj("load", -1),
                     Tcl_NewStringObj(path, -1)};
    Tcl_Obj *cmd = Tcl_NewListObj(3, w);
    Tcl_IncrRefCount(cmd);
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_GLOBAL);
    Tcl_DecrRefCount(cmd);
    if (rc != TCL_OK) fprintf(stderr, "stencilmap: %s\n", Tcl_GetStringResult(in));
    return rc;
}

/* A script file for -safe -b: read by us, evaluated there (the safe
 * interpreter cannot open files itself). */
static int eval_file_in(Tcl_Interp *in, const char *path)
{
    sm_err e;
    size_t len;
    char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, &e);
    if (!text) {
        Tcl_SetObjResult(in, Tcl_NewStringObj(e.msg, -1));
        Tcl_SetVar2(in, "errorInfo", NULL, e.msg, TCL_GLOBAL_ONLY);
        return TCL_ERROR;
    }
    /* [info script] as source would set it. */
    Tcl_Obj *w[3] = {Tcl_NewStringObj("info", -1), Tcl_NewStringObj("script", -1),
                     Tcl_NewStringObj(path, -1)};
    Tcl_EvalObjEx(in, Tcl_NewListObj(3, w), TCL_EVAL_GLOBAL);
    Tcl_ResetResult(in);
    int rc = Tcl_EvalEx(in, text, (int)len, TCL_EVAL_GLOBAL);
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    sm_command_line o;
    int parsed = sm_command_line_parse(argc, argv, &o);
    if (parsed >= 0) return parsed;
    int safe = o.safe, batch = o.batch, oneshot = o.oneshot;
    const char *arg = o.arg;
    int nrest = o.nrest;
    char **rest = o.rest;

    Tcl_FindExecutable(argv[0]);
    Tcl_Interp *in = Tcl_CreateInterp();
    if (Tcl_Init(in) != TCL_OK) {
        /* Without init.tcl, packages such as tcltest are unavailable, but
         * every stencilmap command still works. */
        Tcl_ResetResult(in);
    }

    sm_err e;
    sm_app *app = sm_app_new(in, &e);
    if (!app) {
        fprintf(stderr, "stencilmap: %s\n", e.msg);
        Tcl_DeleteInterp(in);
        return 1;
    }
    the_app = app;
    sm_stdout_hook = stdout_write;
    sm_file_changed_hook = ask_file_changed;
    Tcl_CreateExitHandler(exit_handler, NULL);
    sm_safe_init(app);
    for (int k = 0; k < o.nallow; k++)
        if (sm_safe_allow(app, o.allow[k], &e)) {
            fprintf(stderr, "stencilmap: %s\n", e.msg);
            Tcl_Exit(2);
        }
    app->confined = safe;
    app->limit_time = o.limit_time;
    app->limit_memory = o.limit_memory;
    sm_safe_limits_default(app);
    sm_cmd_register_all(app);
    wrap_exit(app, in);
    if (Tcl_Eval(in, sm_tcl_library) != TCL_OK) {
        report_error(in);
        Tcl_Exit(1);
    }
    /* The script's interpreter: this one, or the safe child. */
    Tcl_Interp *run = in;
    if (safe && !(run = sm_safe_interp(app))) {
        report_error(in);
        Tcl_Exit(1);
    }
    if (batch) set_argv(run, arg, nrest, rest);
    else set_argv(run, argv[0], 0, NULL);

    int status = 0;
    if (batch) {
        /* "-" is standard input; a safe script is read by us too, and its
         * own directory is one it may read. */
        if (safe && strcmp(arg, "-") != 0) sm_safe_push_script(app, arg);
        int armed = safe ? sm_safe_enter(app) : 0;
        int rc, fell = 0;
        if (safe) {
            batch_file f = {run, arg};
            rc = sm_safe_net_run(app, in, batch_file_eval, &f, &fell);
            if (fell) run = in;
        } else {
            rc = strcmp(arg, "-") == 0 ? eval_file_in(run, arg) : Tcl_EvalFile(run, arg);
        }
        rc = sm_safe_leave(app, run, armed, rc);
        if (rc != TCL_OK) status = report_error(run);
    } else if (oneshot) {
        if (nrest == 1 && load_scenario(in, rest[0]) != TCL_OK) Tcl_Exit(1);
        int armed = safe ? sm_safe_enter(app) : 0;
        int rc, fell = 0;
        if (safe) {
            rc = sm_safe_net_eval(app, run, arg, NULL, in, &fell);
            if (fell) run = in;
        } else {
            rc = Tcl_EvalEx(run, arg, -1, TCL_EVAL_GLOBAL);
        }
        if (sm_safe_leave(app, run, armed, rc) != TCL_OK)
            status = report_error(run);
        else {
            /* A script that wrote a file to standard output made that its
             * output: the result would only be appended to it. */
            const char *r = Tcl_GetStringResult(run);
            if (*r && !stdout_used) printf("%s\n", r);
        }
    } else {
        if (nrest == 1 && load_scenario(in, rest[0]) != TCL_OK) Tcl_Exit(1);
        sm_console_capture(app);
        status = sm_tui_run(app);
        if (!status) status = app->exit_status;
        sm_console_release(app);
    }
    fflush(stdout);
    Tcl_Exit(status);
    return status;
}
