/* main.c - stencilmap: batch mode (-b FILE), one-shot evaluation (-e),
 * or the interactive workbench on a scenario. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tcl.h>
#include "../core/scenario.h"
#include "app.h"
#include "cmd/cmd.h"
#include "tui.h"

#ifndef SM_VERSION
#define SM_VERSION "0.1"
#endif

extern const char sm_tcl_library[];

static void usage(FILE *f)
{
    fputs("usage: stencilmap [SCENARIO]          open the workbench\n"
          "       stencilmap -b FILE [ARG ...]   run a Tcl script, no terminal\n"
          "       stencilmap -e SCRIPT           evaluate and print the result\n"
          "       stencilmap --help | --version\n"
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
    int batch = argc > 1 && strcmp(argv[1], "-b") == 0;
    int oneshot = argc > 1 && strcmp(argv[1], "-e") == 0;
    if ((batch || oneshot) && argc < 3) {
        usage(stderr);
        return 2;
    }
    if (!batch && !oneshot && argc > 2) {
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
    if (batch) set_argv(in, argv[2], argc - 3, argv + 3);
    else set_argv(in, argv[0], 0, NULL);

    sm_err e;
    sm_app *app = sm_app_new(in, &e);
    if (!app) {
        fprintf(stderr, "stencilmap: %s\n", e.msg);
        Tcl_DeleteInterp(in);
        return 1;
    }
    the_app = app;
    Tcl_CreateExitHandler(exit_handler, NULL);
    sm_cmd_register_all(app);
    if (Tcl_Eval(in, sm_tcl_library) != TCL_OK) {
        report_error(in);
        Tcl_Exit(1);
    }

    int status = 0;
    if (batch) {
        if (Tcl_EvalFile(in, argv[2]) != TCL_OK) status = report_error(in);
    } else if (oneshot) {
        if (Tcl_Eval(in, argv[2]) != TCL_OK) status = report_error(in);
        else {
            const char *r = Tcl_GetStringResult(in);
            if (*r) printf("%s\n", r);
        }
    } else {
        if (argc == 2) {
            Tcl_Obj *cmd = Tcl_ObjPrintf("scenario load {%s}", argv[1]);
            Tcl_IncrRefCount(cmd);
            int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_GLOBAL);
            Tcl_DecrRefCount(cmd);
            if (rc != TCL_OK) {
                fprintf(stderr, "stencilmap: %s\n", Tcl_GetStringResult(in));
                Tcl_Exit(1);
            }
        }
        status = sm_tui_run(app);
    }
    fflush(stdout);
    Tcl_Exit(status);
    return status;
}
