/* session_edits_undo_redo.h - the loaded scenario and its mapping, with undo and redo.
 * Every edit of the mapping goes through here. */
#ifndef SM_SESSION_EDITS_UNDO_REDO_H
#define SM_SESSION_EDITS_UNDO_REDO_H

#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"
#include "core/model/topology.h"

typedef struct sm_change {
    int block, from, to;
} sm_change;

/* A DVFS state change, part of an edit (a solver's chosen states, topo
 * state): of processor idx's own state (sm_proc.state) or of type idx's
 * selected state (sm_type.state). */
enum { SM_STATE_OF_PROC, SM_STATE_OF_TYPE };
typedef struct sm_state_change {
    int kind, idx, from, to;
} sm_state_change;

typedef struct sm_edit {
    char label[96];
    int n;
    sm_change *ch;
    int nst;                /* state changes, applied before the blocks */
    sm_state_change *st;
} sm_edit;

typedef struct sm_session {
    sm_grid *grid;
    sm_topo *topo;
    sm_model model;
    sm_cost *cost;          /* owns the mapping: cost->map */
    sm_edit *hist;
    int nhist, cap, pos;    /* hist[0..pos) applied, [pos..nhist) redoable */
    int nstate_edits;       /* edits in hist holding DVFS state changes */
    int dirty;              /* something differs from disk (dirty_parts != 0) */
    unsigned dirty_parts;   /* SM_PART_*: which parts differ from disk,
                               sticky_parts and what the edits between
                               saved_at and pos touch (kept up to date) */
    unsigned sticky_parts;  /* changed outside the history (a new grid or
                               machine, model configure): until saved */
    int saved_at[4];        /* per SM_PART_* bit: the history position that
                               matches the disk, so undoing back to it is
                               unmodified again */
    unsigned long long structure; /* bumped when grid, machine or model change */
    unsigned long long version; /* bumped on every change, for redraws */
    unsigned long long rebuilt; /* bumped when the grid or machine is replaced:
                                   what points into them must let go */
    sm_eval last_eval;      /* evaluation before the latest change */
    /* What the latest change was ("map move gpu0 10", "undo map move gpu0
     * 10", "model configure"), so its delta is never shown under another
     * edit's name; "" after a load or a new grid or machine (nothing to
     * compare with). */
    char last_change[112];
    /* Every block whose processor changed, in order, since touched_base:
     * who follows the mapping (the journal, the panes' last-move
     * highlight) reads what changed instead of comparing whole mappings.
     * Dropped (the base moves past every reader) on a rebuild or when it
     * outgrows an eighth of the blocks, and a reader then compares all. */
    int *touched;
    int ntouched, touched_cap;
    unsigned long long touched_base;
} sm_session;

#define SM_HISTORY_MAX 10000

/* The parts of a session that are saved separately: `map save` saves only
 * the mapping, `scenario save` all of them. */
enum { SM_PART_GRID = 1, SM_PART_TOPO = 2, SM_PART_MODEL = 4, SM_PART_MAP = 8,
       SM_PART_ALL = 15 };
void sm_session_mark(sm_session *s, unsigned parts);
void sm_session_saved(sm_session *s, unsigned parts);

/* Takes ownership of grid and topo; map NULL starts from lb -order ijk. */
sm_session *sm_session_new(sm_grid *g, sm_topo *t, const sm_model *m,
                           const int *map);
void sm_session_free(sm_session *s);
/* Replace everything (scenario load); takes ownership of sc's parts. */
void sm_session_replace(sm_session *s, sm_scenario *sc);
/* New grid or topology: the mapping restarts from lb -order ijk. */
void sm_session_set_grid(sm_session *s, sm_grid *g);
void sm_session_set_topo(sm_session *s, sm_topo *t);
/* Another machine of the same processors (a new profile): the mapping is
 * kept, the history is not (its edits were made on the old machine). */
void sm_session_set_topo_keep_map(sm_session *s, sm_topo *t);
void sm_session_set_model(sm_session *s, const sm_model *m);

/* Apply a whole mapping as one undoable edit; returns blocks changed. */
int sm_session_apply(sm_session *s, const int *map, const char *label);
/* The same, its cost state rebuilt (when most blocks move) on up to
 * `threads` threads: the same state. */
int sm_session_apply_threads(sm_session *s, const int *map, const char *label, int threads);
int sm_session_move(sm_session *s, int block, int proc, const char *label);
/* Move n blocks (repeats allowed) to proc as one undoable edit, in time
 * proportional to n; returns blocks changed (0: no edit). */
int sm_session_move_blocks(sm_session *s, const int *blocks, int n, int proc, const char *label);
int sm_session_swap(sm_session *s, int b1, int b2, const char *label);
/* Apply DVFS state changes (kind, idx, to; from is filled in) and then a
 * whole mapping (NULL: keep it) as one undoable edit: the machine stays,
 * its processors' parameters follow in the cost model, and undo restores
 * both. Returns the number of blocks and states changed. */
int sm_session_apply_states(sm_session *s, const sm_state_change *st, int nst, const int *map,
                            const char *label);
/* The number of state changes the next undo (redo: 1) would revert
 * (reapply): who solves on the machine must let go first. */
int sm_session_next_states(const sm_session *s, int redo);
int sm_session_undo(sm_session *s);   /* 0, or -1 when nothing to undo */
int sm_session_redo(sm_session *s);
const int *sm_session_map(const sm_session *s);
/* Where the touched-block log stands now; give it back later to
 * sm_session_touched_since for the blocks changed in between (in order,
 * possibly repeated), or NULL when the log no longer reaches back that
 * far: then compare the whole mapping. */
unsigned long long sm_session_touch_mark(const sm_session *s);
const int *sm_session_touched_since(const sm_session *s, unsigned long long mark, int *n);
/* The mapping as it was `back` edits ago (1..pos: what `back` undos would
 * give), into map (ntasks entries); -1 when there are not that many. */
int sm_session_undo_point(const sm_session *s, int back, int *map);

#endif
