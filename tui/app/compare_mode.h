/* compare_mode.h - compare mode (`view compare`): a second mapping of the same
 * scenario beside the session's, from the solver's best, a mapping file
 * or an undo point. It is read-only (edits keep going to the session) and
 * evaluated with a cost state of its own, so both evaluations stand side
 * by side. No curses and no Tcl. */
#ifndef SM_COMPARE_MODE_H
#define SM_COMPARE_MODE_H

#include "core/session/session_edits_undo_redo.h"
#include "solvers/stepper/solver_stepper.h"

typedef enum { SM_CMP_OFF, SM_CMP_SOLVER, SM_CMP_FILE, SM_CMP_UNDO, SM_CMP_RUN, SM_CMP_COUNT } sm_compare_source;
/* "off" "solver" "file" "undo" "run": the `source` of `view compare`. */
extern const char *const sm_compare_source_names[SM_CMP_COUNT];

typedef struct sm_compare {
    sm_compare_source source;  /* SM_CMP_OFF: compare mode is off */
    sm_compare_source last;    /* what `view compare toggle` (key V) turns back on */
    char label[160];           /* what the other mapping is: "tabu best", "undo 2", the file */
    char file[4096];           /* the last FILE, reloaded by toggle */
    int undo;                  /* the last N of undo N */
    int *map;                  /* the other mapping (owned), n entries */
    int n;
    sm_cost *cost;             /* its own cost state: evaluated beside the session's */
    sm_eval ev;
    unsigned long long version; /* bumped whenever map, ev or source changed */

    /* What it was built for: a new model re-evaluates it, a new grid or
     * machine turns it off; the solver's steps move its best. */
    const void *session;
    unsigned long long structure, rebuilt;
    unsigned long long layout;  /* block grid shape and processor names */
    int ntasks;
    const void *solver;
    long long solver_iter;
    /* SM_CMP_RUN: another run of the solver (solver branch), shown at the
     * step the panes' run shows (seeked there), and its name. */
    sm_solver *run;
    char run_name[32];
    long long run_step;
    int run_current;           /* map was the run's current mapping (else its best) */
    /* After V off from a run: that run, its step and kind map holds. */
    const sm_solver *kept_run;
    long long kept_step;
    int kept_current;

    /* Set by the workbench while it draws: a cost state over at least
     * sm_compare_background_blocks blocks is then built on another
     * thread, so V returns at once at 16.7 M blocks. Until it is in
     * (sm_compare_poll), cost is NULL and pending is 1: the figures (ev,
     * the other side in the panes) wait and say so; map is there and
     * follows. Batch scripts build at once (background 0). */
    int background;
    int pending;
    struct sm_compare_build *build;
    /* Off keeps the cost state (and a build in flight): the next compare
     * of this session takes it and moves it to its mapping, so V off, V
     * on costs the blocks that differ, not a new cost state. */
    /* The blocks that differ from the mapping shown (sm_compare_differ_at):
     * counted whole once, then kept by the blocks either side moved: the
     * shown solver's history lists its own, and every block written to
     * map since the count is in touched (touched_all: too many, or map
     * was written whole). differs marks the blocks counted as differing. */
    const void *differ_owner;
    unsigned long long differ_stamp;
    int differ_n, differ_valid;
    unsigned char *differs;
    int *touched, ntouched, touched_cap, touched_all;
    int *shown_moved, shown_moved_cap;
    int *scratch, scratch_cap;
    /* Buffers for the next compare's mapping and differing marks, their
     * pages already touched (a fresh 64 MB array costs its page faults,
     * tens of ms at 16.7 M blocks, on the key): what the last compare
     * left, or what a branch built in the background prepared
     * (sm_compare_give_buffers). spare_n: the blocks they hold. */
    int *spare_map;
    unsigned char *spare_differs;
    int spare_n;
    /* SM_CMP_RUN at unequal steps (the other run has fewer steps than
     * the step shown, or no longer keeps it): why, as the status line,
     * the Solver pane and `view compare` say it ("main has 12 steps;
     * compared at @12"); empty at equal steps. */
    char run_note[96];
} sm_compare;

/* The size from which the workbench builds a compare's cost state on
 * another thread (blocks; environment STENCILMAP_COMPARE_BACKGROUND
 * overrides it when the workbench starts, 0: always). */
extern int sm_compare_background_blocks;
#define SM_COMPARE_BACKGROUND_DEFAULT (1 << 20)

sm_compare *sm_compare_new(void);
void sm_compare_free(sm_compare *c);
/* Compare against map (copied; s->grid->ntasks entries, valid processors),
 * evaluated on the session's grid, machine and model. */
void sm_compare_set(sm_compare *c, const sm_session *s, sm_compare_source src, const int *map,
                    const char *label);
void sm_compare_off(sm_compare *c);
/* Compare against run (named name), at the step shown solver shows: the
 * other run is seeked to that step (its last when it has fewer), and
 * follows as shown steps. */
void sm_compare_set_run(sm_compare *c, const sm_session *s, sm_solver *run, const char *name, const sm_solver *shown);
/* Bring it up to date with the session and the solver: re-evaluated under
 * a new model or machine figures, following the solver's best while it
 * moves (by the blocks that moved), off when it no longer fits (see
 * sm_compare_fits). Returns 1 when something changed, -1 when it had to
 * turn off, else 0. */
int sm_compare_refresh(sm_compare *c, const sm_session *s, const sm_solver *sv);
/* What the Console says when refresh had to turn it off. */
#define SM_COMPARE_GONE "compare off: the block grid or the processors changed"
/* Does the other mapping still mean something in s: the same session,
 * and the same block grid shape and processor names (as a mapping file
 * would need), even if the grid or machine objects were replaced (a DVFS
 * state, a reloaded topology)? */
int sm_compare_fits(const sm_compare *c, const sm_session *s);
/* Blocks whose processor differs between map and the other mapping. */
int sm_compare_differ(const sm_compare *c, const int *map);
/* The same, kept up to date by the blocks that moved: map is the
 * mapping shown, owner and stamp say which (the frame's map_owner and
 * map_stamp: a solver and its step shown, or the session and its
 * version); sv, when owner is that solver, lists its moves in its
 * history, so a step costs the blocks it moved on either side, not a
 * pass over the grid (16.7 M blocks at a whole Summit). */
int sm_compare_differ_at(sm_compare *c, const int *map, const void *owner, unsigned long long stamp,
                         const sm_solver *sv);
/* A build on another thread that has finished: its cost state taken in,
 * brought to the mapping as it is now, evaluated. Returns 1 then. */
int sm_compare_poll(sm_compare *c);
/* Until no build runs (before the grid or machine it reads changes, or a
 * command needs the figures): it is taken in. */
void sm_compare_wait(sm_compare *c);
/* sm_compare_wait, and compare mode off: the cost state kept goes. */
void sm_compare_drop_kept(sm_compare *c);
/* Buffers for a compare of n blocks (map: n ints, differs: n bytes, both
 * touched), taken over (freed when not wanted). */
void sm_compare_give_buffers(sm_compare *c, int *map, unsigned char *differs, int n);
/* Seconds the pending build has run. */
double sm_compare_pending_seconds(const sm_compare *c);

#endif
