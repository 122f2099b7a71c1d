/* main.c - stencilmap: batch mode (-b FILE), one-shot evaluation (-e),
 * or the interactive workbench on a scenario. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>
#include "core/io/scenario.h"
#include "core/lib/util.h"
#include "tui/app/app.h"
#include "tui/cmd/cmd.h"
#include "tui/pane/tui.h"

#ifndef SM_VERSION
#define SM_VERSION "0.1"
#endif

extern const char sm_tcl_library[];

static void usage(FILE *f)
{
    fputs("usage: stencilmap [SCENARIO]                 open the workbench\n"
          "       stencilmap [-safe [-allow DIR]...] -b FILE [ARG ...]\n"
          "                                             run a Tcl script, no terminal\n"
          "       stencilmap [-safe [-allow DIR]...] -e SCRIPT [SCENARIO]\n"
          "                                             evaluate (on SCENARIO) and print the result\n"
          "       stencilmap --help | --version\n"
          "-safe runs the script in a safe interpreter: no exec, open, file, socket,\n"
          "cd, load or source; the stencilmap commands keep working, reading files\n"
          "only below the current directory, the script's directory, the program's\n"
          "data and each -allow DIR, and writing only below the current directory\n"
          "and each -allow DIR (-safe -allow DIR ... -b FILE).\n"
          "See stencilmap(1) and stencilmap-script(7).\n",
          f);
}

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
    if (the_app && the_app->interp) {
        Tcl_DeleteInterp(the_app->interp);
        the_app->interp = NULL;
    }
    sm_app_free(the_app);
    the_app = NULL;
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
    char *text = sm_read_file(path, SM_MAX_FILE_BYTES, &len, &e);
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
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("stencilmap %s\n", SM_VERSION);
        return 0;
    }
    int a = 1;
    int safe = a < argc && strcmp(argv[a], "-safe") == 0;
    if (safe) a++;
    /* -allow DIR...: where a safe script may also read and write. */
    int allow0 = a;
    while (safe && a + 1 < argc && strcmp(argv[a], "-allow") == 0) a += 2;
    int allow1 = a;
    if (a < argc && strcmp(argv[a], "-allow") == 0) {
        fputs(safe ? "stencilmap: -allow needs a directory\n" : "stencilmap: -allow goes after -safe\n", stderr);
        usage(stderr);
        return 2;
    }
    int batch = a < argc && strcmp(argv[a], "-b") == 0;
    int oneshot = a < argc && strcmp(argv[a], "-e") == 0;
    if ((batch || oneshot) && argc < a + 2) {
        usage(stderr);
        return 2;
    }
    if (safe && !batch && !oneshot) {
        fputs("stencilmap: -safe goes before -b or -e\n", stderr);
        usage(stderr);
        return 2;
    }
    if ((!batch && !oneshot && argc > 2) || (oneshot && argc > a + 3)) {
        usage(stderr);
        return 2;
    }
    if (!batch && !oneshot && argc == 2 && argv[1][0] == '-') {
        fprintf(stderr, "stencilmap: unknown option %s\n", argv[1]);
        usage(stderr);
        return 2;
    }

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
    Tcl_CreateExitHandler(exit_handler, NULL);
    sm_safe_init(app);
    for (int k = allow0; k < allow1; k += 2)
        if (sm_safe_allow(app, argv[k + 1], &e)) {
            fprintf(stderr, "stencilmap: %s\n", e.msg);
            Tcl_Exit(2);
        }
    app->confined = safe;
    sm_cmd_register_all(app);
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
    if (batch) set_argv(run, argv[a + 1], argc - a - 2, argv + a + 2);
    else set_argv(run, argv[0], 0, NULL);

    int status = 0;
    if (batch) {
        /* Its own directory is one a safe script may read. */
        if (safe) sm_safe_push_script(app, argv[a + 1]);
        int rc = safe ? eval_file_in(run, argv[a + 1]) : Tcl_EvalFile(run, argv[a + 1]);
        if (rc != TCL_OK) status = report_error(run);
    } else if (oneshot) {
        if (argc == a + 3 && load_scenario(in, argv[a + 2]) != TCL_OK) Tcl_Exit(1);
        if (Tcl_EvalEx(run, argv[a + 1], -1, TCL_EVAL_GLOBAL) != TCL_OK) status = report_error(run);
        else {
            const char *r = Tcl_GetStringResult(run);
            if (*r) printf("%s\n", r);
        }
    } else {
        if (argc == 2 && load_scenario(in, argv[1]) != TCL_OK) Tcl_Exit(1);
        sm_console_capture(app);
        status = sm_tui_run(app);
        sm_console_release(app);
    }
    fflush(stdout);
    Tcl_Exit(status);
    return status;
}
