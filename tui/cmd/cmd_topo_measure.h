/* cmd_topo_measure.h - topo measure and topo profile plot (SPEC 8). */
#ifndef SM_CMD_TOPO_MEASURE_H
#define SM_CMD_TOPO_MEASURE_H

#include "cmd_common.h"

int sm_topo_measure_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* topo profile plot TYPE|FILE -o FILE.svg|png (objv[2] is "plot"). */
int sm_topo_profile_plot_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* view profile ?TYPE|FILE|off? (cmd_topo_profile_plot.c): the Profile pane. */
int sm_view_profile_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);
/* The last measurement's dict per type (NULL before any). */
Tcl_Obj *sm_topo_measured(void);

/* Where a processor measured runs: its OS CPUs, one thread on each. */
typedef struct sm_measure_target {
    int proc;           /* topology index */
    int package;        /* OS package id (its RAPL zone), -1 unknown */
    int ncpus;
    int *cpus;          /* OS CPU numbers, one thread pinned to each */
    int by_place;       /* pinned by its hwloc place (else by sysfs package order) */
} sm_measure_target;
/* The processors named (NULL: every CPU processor of node 0) resolved to
 * this machine's CPUs: by their place through libhwloc, else sysfs
 * packages in order; STENCILMAP PLACE naming what cannot run here. */
int sm_measure_resolve(sm_app *app, Tcl_Interp *in, Tcl_Obj *names, sm_measure_target **out, int *n);
void sm_measure_targets_free(sm_measure_target *tg, int n);
/* When a measured point stops, for both topo measure and topo measure
 * links (cmd_topo_measure_stop_options.c): -cl -eps -reps MIN MAX
 * -mintime -timeout. Each command keeps its own defaults. */
typedef struct sm_measure_stop_opts {
    double cl, eps, mintime, timeout;
    int reps_min, reps_max;
} sm_measure_stop_opts;
/* How many values option NAME takes (2 for -reps), 0 when it is not one
 * of the stopping options. */
int sm_measure_stop_opt_values(const char *name);
/* Parses option NAME's values val[0] (and val[1] for -reps) into o;
 * TCL_ERROR (STENCILMAP ARGS, the message starting with CMD) for a value
 * out of range. */
int sm_measure_stop_opt(Tcl_Interp *in, const char *cmd, const char *name, Tcl_Obj *const val[],
                        sm_measure_stop_opts *o);
/* topo measure links ... (objv[2] is "links"): cmd_topo_measure_links.c. */
int sm_topo_measure_links_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

#endif
