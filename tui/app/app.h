/* app.h - the program's state shared by the Tcl commands and the TUI:
 * one session, at most one running solver, hooks and the recorder. */
#ifndef SM_APP_H
#define SM_APP_H

#include <stdio.h>
#include "core/bound/energy_bound.h"
#include "core/session/session_edits_undo_redo.h"
#include "solvers/stepper/solver_stepper.h"
#include "view_state.h"

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

/* One run of the solver (SPEC 5 "Breakpoints and branches"): the one
 * `solver start` made (main) or a branch of a run at one of its steps
 * with options changed (solvers/stepper/solver_branch.h). */
typedef struct sm_solver_run {
    char name[32];
    sm_solver *s;
    int parent;            /* the run it branched from (index), -1 for main */
    long long at;          /* the step it branched at */
    char change[160];      /* the options it changed, as typed */
} sm_solver_run;

typedef struct sm_app {
    struct Tcl_Interp *interp;
    struct Tcl_Interp *safe; /* -safe scripts run here (a child of interp) */
    sm_session *session;
    /* The solver shown: runs[run_shown].s when there are runs. */
    sm_solver *solver;
    sm_solver_run *runs;
    int nruns, run_shown, run_serial;
    /* The workbench's `solver start` while its init runs on a worker
     * (solver_start_on_worker_thread.h), NULL otherwise; app->solver is NULL meanwhile. */
    struct sm_solver_start *starting;
    /* The workbench's `solver branch` being built on a worker
     * (solver_branch_build_on_worker_thread.h), NULL otherwise. */
    struct sm_branch_build *branching;
    /* Its poll, settle and cancel, set by sm_app_branch_begin: the solver
     * start (solver_install_and_start.c) calls them through these, so the
     * branch's file may use the runs' functions without a circle. */
    int (*branch_poll)(struct sm_app *app);
    void (*branch_settle)(struct sm_app *app);
    void (*branch_cancel)(struct sm_app *app);
    /* Starts replaced by a newer `solver start` before they finished:
     * their init cannot be cut short, so each runs out beside the new one
     * and is freed when found finished; what changes the grid or machine
     * waits for them first. */
    struct sm_solver_start *abandoned[4];
    int nabandoned;
    /* Long work of the command layer running beside the screen (topo
     * measure in the workbench): polled with the solver starts
     * (sm_app_solver_poll), stopped and waited for when the app goes.
     * NULL when none runs. */
    void *background;
    void (*background_poll)(struct sm_app *app);
    void (*background_stop)(struct sm_app *app);
    /* A started solver's current mapping as the worker evaluated it (cost
     * state and rounds schedule), for the panes to take over instead of
     * building their own; solver_view_of is the solver it belongs to. */
    struct sm_cost *solver_view;
    const sm_solver *solver_view_of;
    struct Tcl_Obj *hook_step, *hook_solved, *hook_changed;
    FILE *record;
    char *record_path;
    /* A recording cut short (a full disk): what happened, raised by the
     * next `session stop`, so a script learns of it. */
    char *record_error;
    int replaying;
    int in_replay;          /* session replay running: it asked once already */
    int depth;              /* nesting of our commands, for recording */
    int solver_depth;       /* >0 while solver steps run (hooks run inside) */
    volatile int interrupt; /* set by SIGINT or the TUI to stop a run */
    int kept_interrupt;     /* it came during this command's solver start */
    int in_study;           /* a study runs: its interrupt outlives each solve */
    /* Stepping like a debugger (cmd_solve.c, SPEC 5): how the last run
     * ended (RUN_*), the breakpoint it stopped at (0: none), a pause asked
     * for by `solver pause`, whether an interrupt ends the run (solve)
     * rather than pausing it, and whether the solver sits paused by an
     * interrupt (Esc again then ends it). */
    int run_end, break_hit, pause_request, stop_on_interrupt, paused_by_interrupt;
    /* The one door from the command layer to the screen: set while the
     * workbench runs (workbench_main_loop.c), NULL in batch mode. */
    const struct sm_screen_ops *screen;
    void *screen_ctx;
    sm_view *view;          /* cursor, selection, log: kept in batch too */
    char *scenario_path;    /* last scenario loaded or saved, or NULL */
    struct sm_journal *journal; /* the workbench's journal (core/session/crash_recovery_journal.h) */
    /* A stopped workbench's journal that `session recover` took in batch
     * mode (no journal of its own): locked while this session holds its
     * work, removed once that work is saved or `session discard`ed, kept
     * when the script ends without saving. */
    struct sm_journal *recovered;
    struct sm_compare *compare; /* compare mode's other mapping (compare_mode.h) */
    /* Scripts from elsewhere (SPEC 5, safe_interpreter_tcl_commands.c). confined: the whole run
     * is one (-safe), so keys, the console and bindings run in app->safe
     * too. safe_depth > 0 while a command called from the safe interpreter
     * runs: then every file named passes the path guard; safe_denied says
     * it refused one in this command (-errorcode STENCILMAP SAFE PATH). */
    int confined;
    int safe_depth;
    int safe_denied;
    char **allow;           /* -allow DIRs, resolved: read and write below */
    int *allow_fd;          /* each held open (O_PATH) from when it was named */
    int nallow;
    /* A safe script's limits (-limit-time, -limit-memory; safe_interpreter_tcl_commands.c):
     * seconds per evaluation from outside, and bytes the process may grow
     * by (resident) from when the safe interpreter was made. limit_hit:
     * which one stopped the evaluation under way (0, 't' or 'm'). */
    int exit_status;        /* `exit N` in the workbench: the program's status */
    double limit_time;
    long long limit_memory;
    long long rss_base;
    int limit_hit;
    /* Set by the time limit's watchdog thread (safe_interpreter_time_memory_limits.c) when
     * -limit-time passes while C code runs (a solver, a study): with
     * app->interrupt, so everything that polls for C-c stops, and the
     * command then raises {STENCILMAP SAFE LIMIT} instead of its result. */
    volatile int limit_tripped;
    /* The safe interpreters a Tcl panic left mid-evaluation (cmd_safe_
     * limits.c): abandoned, never used or deleted again. */
    int safe_dead;
    char **script_dirs;     /* the scripts' own directories, resolved: read */
    int *script_fd;         /* each held open (O_PATH) */
    int nscript_dirs;
    /* The energy bound of the session's grid, machine and model, computed
     * when first asked for after they change (sm_app_bound). */
    sm_bound bound;
    unsigned long long bound_structure;
    const sm_session *bound_session;
    int has_bound;
    /* The bound over every DVFS state (sm_app_bound_dvfs). */
    double bound_dvfs;
    unsigned long long bound_dvfs_structure;
    int has_bound_dvfs;
    /* The grid's isoperimetric profile the bound uses (NULL when the grid
     * is too large), kept while the grid stays the same: a new deadline
     * or machine costs milliseconds, not the profile's second again. */
    int *bound_iso;
    sm_grid_spec bound_iso_spec; /* the grid it belongs to (a study reloads the same) */
    /* The bound at a deadline a solver chose itself (sm_app_bound_at). */
    double bound_at, bound_at_deadline;
    unsigned long long bound_at_structure;
    const sm_session *bound_at_session;
    int has_bound_at, bound_at_dvfs;
    /* `run launch`'s job (mpi_run_launch_job.h), NULL before the first, and the run
     * last imported (core/run_results/run_json_file.h) with whether the session still
     * holds its scenario and mapping (app_mpi_run_state.c, cached per version). */
    struct sm_run_job *run_job;
    struct sm_run *run;
    unsigned long long run_checked;
    const sm_session *run_checked_session;
    int run_matches;
    struct sm_run_cmp *run_cmp;   /* cached comparison (sm_app_run_cmp) */
    int *run_row_of_proc;
    unsigned long long run_cmp_version;
    const sm_session *run_cmp_session;
    unsigned long long run_version; /* bumped when a job's progress or the run changes */
    int run_seen_iteration, run_seen_state;
} sm_app;

/* The imported run's hashes against the session now: 1 when they match
 * (cached until the session changes), 0 when not or when none is imported. */
int sm_app_run_matches(sm_app *app);
/* app takes r (NULL: forget the run). */
void sm_app_run_set(sm_app *app, struct sm_run *r);
/* Reads RUN.json at path and checks it against the session: the run, or
 * NULL with e (code LOAD for a bad file, RUN MISMATCH for another
 * scenario, mapping or machine). Nothing in app changes. */
struct sm_run *sm_app_run_read(sm_app *app, const char *path, sm_err *e);
/* The workbench's poll of a launched job: progress noted, a finished
 * job's RUN.json imported (a failed one's reason logged). 1 when anything
 * shown changed. */
int sm_app_run_poll(sm_app *app);
/* The imported run beside the model for the session's mapping, or NULL
 * when none is imported or the session is no longer what ran (cached per
 * session version). row_of_proc: processor -> row, -1 for none. */
const struct sm_run_cmp *sm_app_run_cmp(sm_app *app, const int **row_of_proc);
/* At exit: a running job is stopped, everything freed. */
void sm_app_run_free(sm_app *app);

/* The lower bound for the session as it is now (cached until the grid,
 * machine or model change). */
const sm_bound *sm_app_bound(sm_app *app);
/* The same over every DVFS state of every processor (for a solver that
 * chooses the states), cached alike. */
double sm_app_bound_dvfs(sm_app *app);
/* The same with the model's deadline replaced by deadline: the bound a
 * solver that held itself to a deadline of its own (tabu without one)
 * is measured against; over every DVFS state when dvfs. Cached for the
 * last deadline asked. */
double sm_app_bound_at(sm_app *app, double deadline, int dvfs);
/* The bound a solver is measured against, as `solver state` and the
 * Solver pane both show it (one truth): the session's (over every DVFS
 * state for a solver that picks them; at the solver's own deadline when
 * it chose one, *own_deadline set), or the bound the solver proved when
 * higher. *gap: (e - bound) / e for a feasible ev, else NAN. */
double sm_app_solver_bound(sm_app *app, const sm_solver *s, const sm_eval *ev, double *gap, int *own_deadline);
/* The same for a recorded step: proved is the bound the solver had proved
 * by then (its "bound" statistic as recorded, NAN when none), ev that
 * step's best. `solver history` reads its steps' bound and gap through
 * this, so they are state's once the step is sought to. */
double sm_app_solver_bound_with(sm_app *app, const sm_solver *s, double proved, const sm_eval *ev, double *gap,
                                int *own_deadline);

/* solve's bound on another thread while the caller applies the solver's
 * mapping (the bound reads the grid, machine and model only, which an
 * apply of a mapping leaves alone): _begin starts computing the bound
 * sm_app_solver_bound would for s (NULL when there is one thread or it is
 * cached already: nothing to do), _end waits for it and keeps it in the
 * cache, where the next sm_app_solver_bound finds it. The same bound as
 * computed on the caller, bit for bit; end before anything may change
 * the session (hooks, a script). */
typedef struct sm_app_bound_ahead sm_app_bound_ahead;
sm_app_bound_ahead *sm_app_solver_bound_begin(sm_app *app, const sm_solver *s, int threads);
void sm_app_solver_bound_end(sm_app *app, sm_app_bound_ahead *a);

/* The session is now scenario file path (loaded, saved as; NULL: the
 * built-in one): app->scenario_path and the journal's record of it. */
void sm_app_set_scenario_path(sm_app *app, const char *path);
/* After a save: once a recovered journal's work is all on disk, the
 * journal goes. After a load that replaced the session: the recovered
 * journal is let go, kept on disk (its work was not saved). */
void sm_app_after_save(sm_app *app);
void sm_app_release_recovered(sm_app *app);

/* Fit the view to the session's grid and machine after they changed. */
void sm_app_sync_view(sm_app *app);

/* The default scenario compiled into the binary (samples/default.json). */
extern const char sm_default_scenario[];


/* The workbench's solver (solver_install_and_start.c). */
/* Replace app->solver_view (freeing the old) with view, the cost state of
 * solver of's current mapping for the panes to take over, or NULL. */
void sm_app_set_solver_view(sm_app *app, struct sm_cost *view, const sm_solver *of);
/* A whole new scenario: the old solver is discarded (no solver). */
void sm_app_drop_solver(sm_app *app);
/* Run i (a branch) against the run it branched from, over the steps
 * after the branch point both have: the first step whose move or figures
 * differ, or -1 when none does (yet). *compared_to: the last step both
 * have (-1: none after the branch point yet). */
long long sm_app_run_diverged_at(const sm_app *app, int i, long long *compared_to);
/* Where a solver is, in the one vocabulary the Solver pane, the status
 * line, the Console and `solver state` (its phase key) share: "ended"
 * once it has ended (its status then says how: done, optimal, stopped...),
 * "stepping" while a step or a run of steps goes on (n, N, Space, solver
 * run, an ILP step's branch and bound), "ready" at step 0, else "paused"
 * (between steps, however it got there: n, N, [ ] { }, seek, a
 * breakpoint, Esc). */
const char *sm_app_solver_phase(const sm_app *app, const sm_solver *s);
/* A branch b of run parent, at step at (change: its options), becomes
 * a run of its own named name (NULL: the next b1, b2...) and the one
 * shown; returns its index. */
int sm_app_run_add(sm_app *app, sm_solver *b, int parent, long long at, const char *change, const char *name);
/* The next branch's name (b1, b2...: never one used before in this
 * start) into out, taken. */
void sm_app_run_new_name(sm_app *app, char *out, size_t n);
/* Show run i: the panes follow its solver from its step shown. */
void sm_app_run_show(sm_app *app, int i);
/* The run named name, or -1. */
int sm_app_run_find(const sm_app *app, const char *name);
/* A started solver becomes the app's (show: the panes follow it). */
void sm_app_solver_install(sm_app *app, sm_solver *s, struct sm_cost *view, int show);
/* The Solver pane's picker names ops. */
void sm_app_solver_pick(sm_app *app, const sm_solver_ops *ops);
/* A background `solver start` (app->starting): install the solver if
 * its start has finished (poll), or wait for it (settle: what needs the
 * solver or changes what its init reads). A failed start is logged. */
void sm_app_solver_poll(sm_app *app);
void sm_app_solver_settle(sm_app *app);
/* The start in the background is no longer wanted (a newer start, or
 * the solver dropped): it runs out beside and is freed when found done. */
void sm_app_solver_abandon(sm_app *app);
/* Settle, and wait for the abandoned starts too: nothing reads the grid
 * or machine in the background after it. */
void sm_app_solver_quiesce(sm_app *app);

/* The progress hook and the screen dump go through the screen's ops;
 * without a screen (batch mode) both are no-ops. */
void sm_app_progress(sm_app *app);
char *sm_app_screen_dump(sm_app *app);

#endif
