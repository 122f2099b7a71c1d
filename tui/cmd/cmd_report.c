/* cmd_report.c - report ?-format text|json|csv? ?FILE?: the session's
 * report (core/session/session_report_text_json_csv.c), returned or saved. */
#include <stdlib.h>
#include <string.h>
#include "core/session/session_report_text_json_csv.h"
#include "cmd_common.h"
#include "core/lib/atomic_file_write.h"

static int report_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_app *app = cd;
    static const char *const fmts[] = {"text", "json", "csv", NULL};
    int fmt = 0, i = 1;
    const char *file = NULL;
    if (i < objc && strcmp(Tcl_GetString(objv[i]), "-format") == 0) {
        if (i + 1 >= objc) return sm_tcl_error(in, "ARGS", "report: -format needs a value");
        if (Tcl_GetIndexFromObj(in, objv[i + 1], fmts, "format", 0, &fmt) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        i += 2;
    }
    if (i < objc) file = Tcl_GetString(objv[i++]);
    if (i < objc) {
        Tcl_WrongNumArgs(in, 1, objv, "?-format text|json|csv? ?FILE?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    sm_app_record(app, objc, objv);
    char *text = sm_report(app->session, (sm_report_format)fmt);
    if (!file) {
        Tcl_SetObjResult(in, Tcl_NewStringObj(text, -1));
        free(text);
        return TCL_OK;
    }
    sm_err e;
    int rc = sm_write_file_atomic(file, text, strlen(text), &e);
    free(text);
    if (rc) return sm_tcl_err(in, "IO", &e);
    Tcl_SetObjResult(in, Tcl_NewStringObj(file, -1));
    return TCL_OK;
}

void sm_register_report_cmd(sm_app *app)
{
    sm_create_ensemble(app, "report", report_cmd, NULL);
}
