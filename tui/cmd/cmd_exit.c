/* cmd_exit.c - `exit` while the workbench runs (SPEC 5: every exit path
 * restores the terminal and asks about unsaved work). Its own file: the
 * safe interpreter's exit and the main one both come here. */
#include "cmd_common.h"

/* exit ?N? while the workbench runs (the console, a binding, a hook): a
 * quit like q, so the terminal is restored on the way out and unsaved
 * work is never dropped without q's question, which it opens; N becomes
 * the program's exit status when the quit happens. */
int sm_workbench_exit(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    int status = 0;
    if (objc > 2 || (objc == 2 && Tcl_GetIntFromObj(NULL, objv[1], &status) != TCL_OK))
        return sm_tcl_error(in, "ARGS", "wrong # args: should be \"exit ?returnCode?\"");
    if (app->session->dirty) {
        /* q's own question (save / quit without saving / stay), opened
         * by the workbench once this command returns. */
        app->view->ask_quit = 1;
        app->view->ask_quit_status = status;
        return TCL_OK;
    }
    app->exit_status = status;
    app->view->quit = 1;
    return TCL_OK;
}
