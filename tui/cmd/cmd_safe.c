/* cmd_safe.c - the safe interpreter for scripts from elsewhere (SPEC 5:
 * -safe, session replay -safe). Tcl's own safe interpreter hides exec,
 * open, file, socket, cd, load, source, glob and the rest; we add back
 * only the stencilmap commands (which read and write the files they name),
 * puts to stdout and stderr, and exit. Anything such a script leaves to
 * run later (an `on` hook) runs in the safe interpreter too. */
#include <stdlib.h>
#include "cmd.h"

extern const char sm_tcl_library[];

Tcl_Interp *sm_safe_interp(sm_app *app)
{
    if (app->safe) return app->safe;
    Tcl_Interp *in = app->interp;
    Tcl_Interp *child = Tcl_CreateChild(in, SM_SAFE_NAME, 1);
    if (!child) {
        sm_tcl_error(in, "STATE", "cannot create the safe interpreter");
        return NULL;
    }
    sm_create_all_in(app, child);
    /* Safe interpreters start without the standard channels. */
    for (int k = TCL_STDOUT; k <= TCL_STDERR; k <<= 1) {
        Tcl_Channel ch = Tcl_GetStdChannel(k);
        if (ch) Tcl_RegisterChannel(child, ch);
    }
    if (Tcl_CreateAlias(child, "exit", in, "exit", 0, NULL) != TCL_OK ||
        Tcl_Eval(child, sm_tcl_library) != TCL_OK) {
        sm_tcl_error(in, "STATE", "safe interpreter: %s", Tcl_GetStringResult(child));
        Tcl_DeleteInterp(child);
        return NULL;
    }
    app->safe = child;
    return child;
}

Tcl_Obj *sm_script_for_main(sm_app *app, Tcl_Interp *in, Tcl_Obj *script)
{
    if (in == app->interp) return script;
    Tcl_Obj *w[4] = {Tcl_NewStringObj("interp", -1), Tcl_NewStringObj("eval", -1),
                     Tcl_NewStringObj(SM_SAFE_NAME, -1), script};
    return Tcl_NewListObj(4, w);
}
