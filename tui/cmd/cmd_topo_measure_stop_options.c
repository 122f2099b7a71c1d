/* cmd_topo_measure_stop_options.c - the options that say when a measured
 * point stops, shared by `topo measure` and `topo measure links` (SPEC 8):
 * -cl C -eps E -reps MIN MAX -mintime S -timeout S, one parser so both
 * commands accept and refuse the same values with the same words. */
#include <string.h>
#include "cmd_common.h"
#include "cmd_topo_measure.h"

int sm_measure_stop_opt_values(const char *name)
{
    static const char *const names[] = {"-cl", "-eps", "-reps", "-mintime", "-timeout", NULL};
    for (int k = 0; names[k]; k++)
        if (strcmp(name, names[k]) == 0) return strcmp(name, "-reps") == 0 ? 2 : 1;
    return 0;
}

static int bad(Tcl_Interp *in, const char *cmd, const char *what, Tcl_Obj *v)
{
    return sm_tcl_error(in, "ARGS", "%s: %s, got \"%s\"", cmd, what, Tcl_GetString(v));
}

int sm_measure_stop_opt(Tcl_Interp *in, const char *cmd, const char *name, Tcl_Obj *const val[],
                        sm_measure_stop_opts *o)
{
    Tcl_Obj *v = val[0];
    if (strcmp(name, "-cl") == 0) {
        if (Tcl_GetDoubleFromObj(NULL, v, &o->cl) != TCL_OK || !(o->cl > 0 && o->cl < 1))
            return bad(in, cmd, "-cl expects a confidence level between 0 and 1", v);
    } else if (strcmp(name, "-eps") == 0) {
        if (Tcl_GetDoubleFromObj(NULL, v, &o->eps) != TCL_OK || !(o->eps > 0 && o->eps < 10))
            return bad(in, cmd, "-eps expects a positive relative half-width (e.g. 0.05)", v);
    } else if (strcmp(name, "-reps") == 0) {
        if (Tcl_GetIntFromObj(NULL, v, &o->reps_min) != TCL_OK || Tcl_GetIntFromObj(NULL, val[1], &o->reps_max) != TCL_OK ||
            o->reps_min < 2 || o->reps_max < o->reps_min || o->reps_max > 100000)
            return sm_tcl_error(in, "ARGS", "%s: -reps MIN MAX expects 2 <= MIN <= MAX <= 100000, got \"%s ...\"", cmd,
                                Tcl_GetString(v));
    } else if (strcmp(name, "-mintime") == 0) {
        if (Tcl_GetDoubleFromObj(NULL, v, &o->mintime) != TCL_OK || !(o->mintime >= 0 && o->mintime <= 60))
            return bad(in, cmd, "-mintime expects seconds in 0..60", v);
    } else if (strcmp(name, "-timeout") == 0) {
        if (Tcl_GetDoubleFromObj(NULL, v, &o->timeout) != TCL_OK || !(o->timeout >= 0 && o->timeout <= 1e6))
            return bad(in, cmd, "-timeout expects seconds per size in 0..1e6 (0: none)", v);
    } else {
        return sm_tcl_error(in, "ARGS", "%s: \"%s\" is not a stopping option", cmd, name);
    }
    return TCL_OK;
}
