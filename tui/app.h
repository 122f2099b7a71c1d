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

struct sm_app;

/* What the command layer may ask of the screen (the TUI implements it). */
typedef struct sm_screen_ops {
    /* Redraw while long work runs; reads Esc/C-c/q into app->interrupt. */
    void (*progress)(struct sm_app *app);
    /* The screen as text (caller frees). */
    char *(*dump)(struct sm_app *app);
    /* Ask the user a yes/no question on the prompt line; 1 for yes. */
    int (*confirm)(struct sm_app *app, const char *question);
} sm_screen_ops;

typedef struct sm_app {
    struct Tcl_Interp *interp;
    struct Tcl_Interp *safe; /* -safe scripts run here (a child of interp) */
    sm_session *session;
    sm_solver *solver;
    struct Tcl_Obj *hook_step, *hook_solved, *hook_changed;
    FILE *record;
    char *record_path;
    int replaying;
    int in_replay;          /* session replay running: it asked once already */
    int depth;              /* nesting of our commands, for recording */
    int solver_depth;       /* >0 while solver steps run (hooks run inside) */
    volatile int interrupt; /* set by SIGINT or the TUI to stop a run */
    int in_study;           /* a study runs: its interrupt outlives each solve */
    /* The one door from the command layer to the screen: set while the
     * workbench runs (tui_loop.c), NULL in batch mode. */
    const struct sm_screen_ops *screen;
    void *screen_ctx;
    sm_view *view;          /* cursor, selection, log: kept in batch too */
    char *scenario_path;    /* last scenario loaded or saved, or NULL */
    struct sm_journal *journal; /* the workbench's journal (core/journal.h) */
    struct sm_compare *compare; /* compare mode's other mapping (compare.h) */
} sm_app;

/* Fit the view to the session's grid and machine after they changed. */
void sm_app_sync_view(sm_app *app);

/* The default scenario compiled into the binary (samples/default.json). */
extern const char sm_default_scenario[];


/* The progress hook and the screen dump go through the screen's ops;
 * without a screen (batch mode) both are no-ops. */
void sm_app_progress(sm_app *app);
char *sm_app_screen_dump(sm_app *app);

#endif
