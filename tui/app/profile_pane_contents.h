/* profile_pane_contents.h - what the Profile pane shows: one processor type's
 * measured profile (time per iteration against blocks) with each point's
 * Student-t interval, the fitted line, and, while `topo measure` runs in
 * the background, how far it has come. tui/cmd fills it (topo measure
 * point by point, view profile from a measurement, a profile CSV or the
 * topology); the pane only draws it. No curses, no Tcl. */
#ifndef SM_PROFILE_PANE_CONTENTS_H
#define SM_PROFILE_PANE_CONTENTS_H

#define SM_PROFILE_VIEW_MAX 128

typedef struct sm_profile_view_pt {
    int blocks, reps, tight;  /* tight: the interval met eps (-1 unknown) */
    double mean, low, high;   /* seconds per iteration; low/high NAN when unknown */
} sm_profile_view_pt;

typedef struct sm_profile_view {
    char type[64];            /* empty: nothing to show */
    char from[160];           /* "topo measure", a file, "the topology" */
    int n;
    sm_profile_view_pt pt[SM_PROFILE_VIEW_MAX];
    double time_per_cell, cells; /* the fitted line time = tpc * cells * blocks (0: none) */
    double eps;               /* 0 unknown */
    /* topo measure in the background: where it is. */
    int running, interrupted;
    int point, npoints, blocks, rep, reps_max;
    double mean, half;
} sm_profile_view;

#endif
