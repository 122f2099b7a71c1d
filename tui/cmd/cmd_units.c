/* cmd_units.c - the number rule (core/lib/units.c) as a Tcl command, so
 * scripts (the demos' narration, reports) write figures as the panes do:
 *   units format VALUE UNIT ?-digits N?   -> "409.6 mJ"; UNIT one of
 *                                            J s W B Hz or "" (a count)
 *   units figure NAME VALUE ?-digits N?   -> by the unit of a named
 *                                            figure (energy, time,
 *                                            best_energy...); plain
 *                                            numbers for the others
 *   units of NAME                         -> "J", "s" or ""            */
#include <stdio.h>
#include <string.h>
#include "cmd_common.h"
#include "core/lib/units.h"

/* -digits N at objv[at], when there; 4 (the panes' rule) otherwise. */
static int digits_opt(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], int at, int *digits)
{
    *digits = 4;
    if (objc == at) return TCL_OK;
    if (objc != at + 2 || strcmp(Tcl_GetString(objv[at]), "-digits") != 0)
        return sm_tcl_error(in, "ARGS", "units %s: expected -digits N after the value, got \"%s\"",
                            Tcl_GetString(objv[1]), Tcl_GetString(objv[at]));
    if (Tcl_GetIntFromObj(NULL, objv[at + 1], digits) != TCL_OK || *digits < 1 || *digits > 17)
        return sm_tcl_error(in, "ARGS", "units %s: -digits: expected an integer from 1 to 17, got \"%s\"",
                            Tcl_GetString(objv[1]), Tcl_GetString(objv[at + 1]));
    return TCL_OK;
}

static int get_value(Tcl_Interp *in, Tcl_Obj *o, const char *sub, double *v)
{
    if (Tcl_GetDoubleFromObj(NULL, o, v) == TCL_OK) return TCL_OK;
    return sm_tcl_error(in, "ARGS", "units %s: expected a number, got \"%s\"", sub, Tcl_GetString(o));
}

static int units_format(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app;
    double v;
    int digits;
    if (get_value(in, objv[2], "format", &v) || digits_opt(in, objc, objv, 4, &digits)) return TCL_ERROR;
    const char *unit = Tcl_GetString(objv[3]);
    if (!sm_unit_known(unit))
        return sm_tcl_error(in, "ARGS", "units format: unknown unit \"%.40s\" (known: %s)", unit, sm_units_known());
    char buf[64];
    Tcl_SetObjResult(in, Tcl_NewStringObj(sm_format_value(v, unit, digits, buf, sizeof buf), -1));
    return TCL_OK;
}

static int units_figure(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app;
    double v;
    int digits;
    if (get_value(in, objv[3], "figure", &v) || digits_opt(in, objc, objv, 4, &digits)) return TCL_ERROR;
    const char *unit = sm_unit_of(Tcl_GetString(objv[2]));
    char buf[64];
    if (unit) sm_format_value(v, unit, digits, buf, sizeof buf);
    else snprintf(buf, sizeof buf, "%.*g", digits < 6 ? 6 : digits, v);
    Tcl_SetObjResult(in, Tcl_NewStringObj(buf, -1));
    return TCL_OK;
}

static int units_of(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app;
    (void)objc;
    const char *unit = sm_unit_of(Tcl_GetString(objv[2]));
    Tcl_SetObjResult(in, Tcl_NewStringObj(unit ? unit : "", -1));
    return TCL_OK;
}

static const sm_subcmd units_subs[] = {
    {"format", units_format, 2, 4, "VALUE UNIT ?-digits N?"},
    {"figure", units_figure, 2, 4, "NAME VALUE ?-digits N?"},
    {"of", units_of, 1, 1, "NAME"},
    {NULL, NULL, 0, 0, NULL},
};

static int units_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, units_subs);
}

void sm_register_units_cmds(sm_app *app) { sm_create_ensemble(app, "units", units_cmd, units_subs); }
