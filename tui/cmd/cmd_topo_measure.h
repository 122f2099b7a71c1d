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
/* topo measure links ... (objv[2] is "links"): cmd_topo_measure_links.c. */
int sm_topo_measure_links_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[]);

#endif
