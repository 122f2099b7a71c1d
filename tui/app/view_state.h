/* view_state.h - what the workbench shows, apart from the model itself: cursor,
 * selection, focused pane, sorting, the log, the solver's history and key
 * bindings. No curses and no Tcl: the `view` commands change it, the panes
 * read it, and batch mode keeps it too, so recorded sessions replay. */
#ifndef SM_VIEW_STATE_H
#define SM_VIEW_STATE_H

#include "colour_theme.h"
#include "profile_pane_contents.h"

/* Where a pane sits in the unzoomed layout: the top band, the bottom
 * band (each split by the panes' widths in percent), the full-width
 * console strip, or ALT: in the place of the pane before it in the table,
 * shown instead of it only when chosen (`view focus NAME`, `view
 * alternate`), so the default layout stays as it is. */
typedef enum { SM_SLOT_TOP, SM_SLOT_BOTTOM, SM_SLOT_CONSOLE, SM_SLOT_ALT } sm_pane_slot;

/* THE table of panes, in Tab order: names for `view focus`, titles, and
 * the layout; the screen takes each pane's ops from sm_pane_<name>
 * (tui/pane/pane.h says how to add one).
 * X(id, name, title, slot, width in percent of its band) */
#define SM_PANES(X)                                      \
    X(GRID, grid, "Grid", SM_SLOT_TOP, 55)               \
    X(PROCS, procs, "Processors", SM_SLOT_TOP, 45)       \
    X(COMM, comm, "Communication", SM_SLOT_BOTTOM, 36)   \
    X(NETWORK, network, "Network", SM_SLOT_ALT, 36)      \
    X(ENERGY, energy, "Energy", SM_SLOT_BOTTOM, 32)      \
    X(PROFILE, profile, "Profile", SM_SLOT_ALT, 32)      \
    X(SOLVER, solver, "Solver", SM_SLOT_BOTTOM, 32)      \
    X(STUDY, study, "Study", SM_SLOT_ALT, 32)            \
    X(CONSOLE, console, "Console", SM_SLOT_CONSOLE, 100)

/* The Profile pane is the Energy pane's ALT: `view focus profile`,
 * `view profile TYPE|FILE` and a topo measure started in the workbench
 * show it there; `view focus energy` gives the place back. */
/* The Study pane is the Solver pane's ALT: `view study DIR` shows it
 * there, `view focus solver` and `view focus study` switch between them
 * while a study is loaded, `view study off` unloads it. */

typedef enum {
#define X(id, name, title, slot, width) SM_PANE_##id,
    SM_PANES(X)
#undef X
    SM_PANE_COUNT
} sm_pane_id;

extern const char *const sm_pane_names[SM_PANE_COUNT];
extern const char *const sm_pane_titles[SM_PANE_COUNT];
extern const sm_pane_slot sm_pane_slots[SM_PANE_COUNT];

/* Processor ordering in the Processors pane. */
#define SM_PROC_SORTS(X) X(index) X(name) X(load) X(energy) X(blocks) X(idle)
typedef enum {
#define X(n) SM_SORT_##n,
    SM_PROC_SORTS(X)
#undef X
    SM_SORT_COUNT
} sm_proc_sort;
extern const char *const sm_sort_names[SM_SORT_COUNT];

typedef enum { SM_LOG_CMD, SM_LOG_RESULT, SM_LOG_ERROR, SM_LOG_NOTE } sm_log_kind;

#define SM_LOG_MAX 500
#define SM_LOG_LINE 240
#define SM_SPARK_MAX 256
#define SM_HISTORY_LINES 200

typedef struct sm_log_line {
    sm_log_kind kind;
    int cont; /* this piece continues the line before it (a long line) */
    char text[SM_LOG_LINE];
} sm_log_line;

typedef struct sm_binding {
    char key[24];
    char *script;
    int safe;   /* made by a safe script: it runs in the safe interpreter */
} sm_binding;

typedef struct sm_view {
    unsigned long long version;    /* bumped on every change but the two below */
    unsigned long long log_version;   /* a line was logged */
    unsigned long long spark_version; /* the solver history grew */
    int focus;                     /* sm_pane_id */
    int zoom;                      /* the focused pane fills the screen */
    int help;                      /* the key list is shown */
    int help_top;                  /* its first line shown (view help scroll) */

    int dims[3];                   /* block grid the view was sized for */
    int cur[3];                    /* cursor block coordinates */
    int ntasks;
    unsigned char *sel;            /* selected blocks */
    int nsel;
    int *sel_list, sel_cap;        /* the same nsel blocks, in no order:
                                      a small selection costs its size */

    int proc;                      /* chosen processor, -1 none */
    int node;                      /* Grid: only this node's blocks lit, -1 all */
    int sort, sort_desc;
    int group_by_net;              /* group rows by network group, not node */
    char filter[64];               /* processor name/type/node substring */

    int pair_p, pair_q;            /* highlighted pair, -1 none */
    unsigned alt_shown;            /* bit per ALT pane shown in its host's place */
    /* Network pane: the plane (torus/mesh k-plane, HAEC board) shown, the
     * selected link (from -> to nodes; to = SM_LINK_BOARD: every
     * wireless link between from and the next HAEC board) and the load
     * the heat map scales by. */
    int net_plane;
    int link_from, link_to;
    int link_level;                /* tree: the level of the uplink of group link_from; else -1 */
    int net_cells;                 /* scale by halo cells, not messages */
    int comm_row;
    int solver_row;                /* solver picked in the Solver pane */
    int show_solver;               /* Grid shows the solver's current map */
    int running;                   /* the TUI steps the solver each frame */
    long long stepn;               /* what N steps */

    sm_log_line log[SM_LOG_MAX];
    int log_head, log_n;           /* ring buffer */
    int log_scroll;                /* Console: lines back from the newest */

    /* Solver objective history, for the sparkline. */
    double spark_cur[SM_SPARK_MAX], spark_best[SM_SPARK_MAX];
    int spark_n;

    /* Console input history (oldest first). */
    char *history[SM_HISTORY_LINES];
    int nhistory;

    sm_binding *binds;
    int nbinds;

    sm_theme theme;
    unsigned long long theme_version;

    /* The Study pane: a merged study table and the columns it plots
     * (indices into the table), NULL when no study is loaded. */
    struct sm_study_table *study;
    char study_source[1024];       /* the directory or file it came from */
    int study_x, study_y, study_by;
    int study_published;           /* mark the Table 6.4 optima */

    /* The Profile pane: a measured profile with its intervals, filled by
     * topo measure point by point and by view profile. */
    sm_profile_view profile;

    int quit;
    /* A quit asked for over unsaved work (exit, view quit from the
     * console, a binding or a hook): the workbench opens q's question;
     * ask_quit_status is the status a quit it leads to exits with. */
    int ask_quit, ask_quit_status;
} sm_view;

sm_view *sm_view_new(void);
void sm_view_free(sm_view *v);
/* The grid changed shape: clamp the cursor, clear the selection. */
void sm_view_resize(sm_view *v, const int dims[3], int nprocs);
void sm_view_touch(sm_view *v);

int sm_view_cursor_block(const sm_view *v);
void sm_view_set_cursor(sm_view *v, int i, int j, int k);
void sm_view_select(sm_view *v, int block, int on);
void sm_view_select_clear(sm_view *v);
/* The selected blocks in id order (*n of them, newly allocated), in time
 * proportional to the selection while it is small. */
int *sm_view_selection(const sm_view *v, int *n);
/* The same, or the cursor block when nothing is selected. */
int *sm_view_targets(const sm_view *v, int *n);

void sm_view_log(sm_view *v, sm_log_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* i-th line from the newest (0 = newest); NULL past the end. */
const sm_log_line *sm_view_log_line(const sm_view *v, int i);

void sm_view_spark_reset(sm_view *v);
void sm_view_spark_add(sm_view *v, double cur, double best);

void sm_view_history_add(sm_view *v, const char *line);

/* Bindings override the key table; script NULL or "" removes. safe: the
 * binding came from a safe script (and runs there). */
void sm_view_bind(sm_view *v, const char *key, const char *script, int safe);
/* The script bound to key or NULL; *safe (may be NULL) as bound. */
const char *sm_view_binding(const sm_view *v, const char *key, int *safe);

int sm_view_pane_index(const char *name);
/* Is the pane on screen in the unzoomed layout (ALT panes only when
 * chosen, their hosts only when not)? */
int sm_view_pane_shown(const sm_view *v, int pane);
/* Show an ALT pane in its host's place (on) or the host again (off); the
 * focus follows to whichever is shown. */
void sm_view_show_alt(sm_view *v, int pane, int on);
/* The next or previous shown pane from `from` (dir +1 or -1): Tab order. */
int sm_view_pane_step(const sm_view *v, int from, int dir);

#define SM_LINK_BOARD (-2)
/* Replace the study table (NULL: none; the view owns it): the Study pane
 * is shown in the Solver pane's place while there is one. */
void sm_view_set_study(sm_view *v, struct sm_study_table *t);

#endif
