/* app.h - the program's state shared by the Tcl commands and the TUI:
 * one session, at most one running solver, hooks and the recorder. */
#ifndef SM_APP_H
#define SM_APP_H

#include <stdio.h>
#include "../core/session.h"
#include "../solvers/solver.h"
#include "view.h"

/* Tcl's handles, by tag only: the TUI reads the app without tcl.h. */
struct Tcl_Interp;
struct Tcl_Obj;

typedef struct sm_app {
    struct Tcl_Interp *interp;
    struct Tcl_Interp *safe; /* -safe scripts run here (a child of interp) */
    sm_session *session;
    sm_solver *solver;
    struct Tcl_Obj *hook_step, *hook_solved, *hook_changed;
    FILE *record;
    char *record_path;
    int replaying;
    int depth;              /* nesting of our commands, for recording */
    int solver_depth;       /* >0 while solver steps run (hooks run inside) */
    volatile int interrupt; /* set by SIGINT or the TUI to stop a run */
    /* The TUI installs this to redraw while long work runs. */
    void (*progress)(struct sm_app *app);
    void *tui;
    sm_view *view;          /* cursor, selection, log: kept in batch too */
    char *scenario_path;    /* last scenario loaded or saved, or NULL */
} sm_app;

/* Fit the view to the session's grid and machine after they changed. */
void sm_app_sync_view(sm_app *app);

/* The default scenario compiled into the binary (samples/default.json). */
extern const char sm_default_scenario[];

sm_app *sm_app_new(struct Tcl_Interp *interp, sm_err *e);
void sm_app_free(sm_app *app);

/* Register every command (SPEC 5). */
void sm_cmd_register_all(sm_app *app);

#endif
