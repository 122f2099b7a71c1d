/* pane.h - the pane contract. Curses lives in tui/pane/ only.
 *
 * A pane is one file, pane_<name>.c, defining one `const sm_pane_ops
 * sm_pane_<name>`, plus one row in SM_PANES (tui/app/view_state.h):
 *
 *     X(NET, net, "Network", SM_SLOT_BOTTOM, 30)
 *
 * That row is the only table: it gives the pane its id (SM_PANE_NET),
 * its `view focus net` name, its title, and its place in the layout; Tab
 * order, zoom, the help and the mouse all walk it. The loop (workbench_main_loop.c)
 * binds sm_pane_<name> from the row, so nothing else changes.
 *
 * What the loop does with the ops:
 *  - draw: repaint the whole window p->win (inner size p->h-2 x p->w-2,
 *    border from sm_ui_frame). Called only when something in `deps`
 *    changed, the focus moved onto or off the pane, the layout or the
 *    theme changed. Never compare stamps yourself: declare deps.
 *  - rows / move_cursor / activate: list panes (optional). rows gives the
 *    number of rows now shown and the cursor row; move_cursor writes the Tcl
 *    command that moves the cursor by delta rows (+-1, +-page, or
 *    SM_ROW_FIRST/SM_ROW_LAST); activate writes the command Enter runs on
 *    the object under the cursor. Keys never rebuild rows from core: they
 *    ask the focused pane, which answers from what it drew. Panes without
 *    move fall back to the action's own command (the Grid cursor).
 *  - click: the command a click at (y, x) inside the pane means.
 *  - release: free p->priv (caches) when the workbench ends.
 * Commands are what the pane hands back, never run by the pane itself: the
 * loop runs them through the shell, so the console echoes them and
 * recordings replay them. Commands are words (command_word_list.h: sm_words_lit for
 * the program's own literal words, sm_words_add for a name), evaluated as
 * a Tcl list: a name is always one word, never pasted into a script.
 *
 * Caches: a pane may keep derived data (sorted rows, a schedule) in
 * p->priv; rebuild it in draw when its inputs changed, and only while the
 * pane is shown (a hidden or zoomed-out pane is not drawn, so it costs
 * nothing). */
#ifndef SM_PANE_H
#define SM_PANE_H

#include <curses.h>
#include <stddef.h>
#include "tui/app/app.h"
#include "tui/app/compare_mode.h"
#include "tui/app/command_word_list.h"
#include "tui/pane/text_fit_to_width.h"

/* Computed once per frame and shared by every pane. */
typedef struct sm_frame {
    /* The mapping every pane shows: the session's, or the running
     * solver's current one (`view source`, key v). Draw from these, never
     * from app->session->cost, so all panes show the same mapping. */
    int source;                 /* 0 session, 1 solver */
    const int *map;
    const sm_cost *cost;        /* its cost state (per processor, pairs) */
    sm_eval ev;                 /* its evaluation */
    unsigned long long map_version; /* changes whenever map changes: key caches on it */
    /* Which mapping it is and how far it has come (the session and its
     * version, or the solver and its iteration): a pane that keeps one
     * cache per source keys it on these, so switching back and forth
     * with v rebuilds nothing. */
    const void *map_owner;
    unsigned long long map_stamp;
    sm_eval session_ev;         /* the session's, to compare against */
    const unsigned char *moved; /* blocks the last change moved (highlighted) */
    /* Compare mode (`view compare`, key c): the other mapping, evaluated,
     * shown beside this one; NULL when off. */
    sm_compare *cmp;   /* not const: it caches the count of blocks that differ */
    int utf8;                   /* the terminal takes UTF-8 */
    /* The DVFS state of each processor in the shown mapping: the solver's
     * (tabu -dvfs) while the panes follow it, else NULL: the machine's. */
    const int *states;
} sm_frame;


/* What a pane's picture depends on; the loop works out, once per frame,
 * which of these changed. */
enum {
    SM_DEP_MAPPING = 1u << 0, /* the shown mapping: session edits, or the
                                 solver's steps while the panes follow it */
    SM_DEP_SESSION = 1u << 1, /* another scenario: grid, machine, model */
    SM_DEP_SOLVER = 1u << 2,  /* solver started, stepped, stopped; its stats */
    SM_DEP_VIEW = 1u << 3,    /* cursor, selection, sort, filter, rows */
    SM_DEP_LOG = 1u << 4,     /* the console log */
    SM_DEP_ALL = 0xffu
};

#define SM_ROW_FIRST (-(1 << 30))
#define SM_ROW_LAST (1 << 30)

typedef struct sm_pane sm_pane;

#define SM_CLICK_MAX 2

typedef struct sm_pane_ops {
    unsigned deps; /* SM_DEP_* bits */
    void (*draw)(sm_pane *p, sm_app *app, const sm_frame *f);
    /* List panes: rows shown; *cursor gets the cursor row (-1 none). */
    int (*rows)(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor);
    /* Commands are words (command_word_list.h): a name is always one word, never
     * pasted into a script. */
    /* Command moving the cursor by delta rows; returns 1 if written. */
    int (*move_cursor)(sm_pane *p, sm_app *app, const sm_frame *f, int delta, sm_words *cmd);
    /* Command for Enter on the object under the cursor; 0: nothing there. */
    int (*activate)(sm_pane *p, sm_app *app, const sm_frame *f, sm_words *cmd);
    /* Click at (y, x) relative to the pane: fills up to SM_CLICK_MAX
     * commands and returns how many. */
    int (*click)(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds);
    void (*release)(sm_pane *p);
} sm_pane_ops;

struct sm_pane {
    const sm_pane_ops *ops;
    int id;                     /* sm_pane_id, SM_PANE_COUNT for the help */
    WINDOW *win;
    int y, x, h, w;
    int drawn;                  /* drawn since the last layout */
    int drawn_focus;            /* had the focus when last drawn */
    int top, left;              /* scroll offsets */
    int unit_w, unit_h;         /* Grid: screen cells per block */
    void *priv;                 /* the pane's cache, freed by release */
    int busy;                   /* work of its own in the background: drawn every frame until in */
};

/* One ops per row of SM_PANES, named after the row. */
#define X(id, name, title, slot, width) extern const sm_pane_ops sm_pane_##name;
SM_PANES(X)
#undef X
extern const sm_pane_ops sm_pane_help;

/* Rows a list pane shows inside its border (heading line excluded). */
int sm_pane_page(const sm_pane *p);
/* Clamp cursor + delta into 0..n-1 (delta may be SM_ROW_FIRST/LAST). */
int sm_pane_step(int cursor, int delta, int n);
/* The first of n items to show in `visible` places, moved from old only
 * as far as it takes to keep cur in view. */
int sm_pane_scroll_to(int cur, int n, int visible, int old);

/* ---- pane_shared_drawing_helpers.c: theme colours and drawing helpers ---- */

/* NO_COLOR set (and not empty): styles only (bold, reverse, glyphs). */
int sm_ui_no_color(void);
void sm_ui_apply_theme(const sm_theme *t);
void sm_ui_set_utf8(int on);
void sm_ui_box(WINDOW *w);
/* A vertical rule of n cells down from (y, x), drawn like the borders. */
void sm_ui_vline(WINDOW *w, int y, int x, int n, attr_t a);
attr_t sm_ui_attr(sm_element e);
/* The marks of the machine shown (processor_marks.h: its colour, or its node's,
 * and its glyph); recomputed when t or key (the session's version)
 * changes. The loop calls it before drawing. */
void sm_ui_set_marks(const sm_topo *t, unsigned long long key);
void sm_ui_release_marks(void);
/* 1 when colours follow nodes (more processors than colours). */
int sm_ui_marks_by_node(void);
/* The style of processor p's blocks (its colour, readable text on it). */
attr_t sm_ui_proc_attr(int p);
char sm_ui_glyph(int p);
/* The theme's load ramp at frac (0 coolest .. 1 hottest). */
attr_t sm_ui_heat_attr(double frac);
/* Border and title; focus draws it in the focus colour. */
void sm_ui_frame(sm_pane *p, const sm_app *app, const char *title);
/* The border with the first of n titles, longest first, that fits whole
 * (a cut title loses what it ends with: a filter, a count); the last
 * when none does. NULL forms are skipped. */
void sm_ui_frame_forms(sm_pane *p, const sm_app *app, const char *const *forms, int n);
int sm_ui_title_fits(const sm_pane *p, const char *title);
/* Text clipped to width w at (y, x). */
void sm_ui_text(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The same, cut at a word boundary when it does not fit (never inside a
 * word: "comm-bou", "cut ed"); a single word wider than width is cut. */
void sm_ui_words(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* A bar of width w: filled for value/scale. */
void sm_ui_bar(WINDOW *w, int y, int x, int width, double value, double scale, sm_element el, char ch);
void sm_ui_sparkline(WINDOW *w, int y, int x, int width, const double *v, int n, double lo,
                     double hi, sm_element el, int utf8);
/* The one number rule for units (SI prefix, 4 significant digits):
 * "2.659 J", "3.22 ms"; sm_ui_si for other units or more digits. */
const char *sm_ui_si(double v, const char *unit, int digits, char *buf, size_t n);
/* A solver statistic by its name: energies ("best_energy", "incumbent")
 * in J and times ("deadline", "elapsed") in s by the rule above, counts
 * as they are. */
const char *sm_ui_stat(const char *key, double v, char *buf, size_t n);
const char *sm_ui_joules(double j, char *buf, size_t n);
const char *sm_ui_seconds(double s, char *buf, size_t n);

/* ---- pane_solver_history.c: the Solver pane's history of steps ---- */

/* The timeline (2 rows; with maxrows 1 a compact one of 1 row) and the
 * step shown explained, from row y in width columns, at most maxrows;
 * each returns the rows it used. */
int sm_steps_timeline(sm_pane *p, int y, int x, int width, int maxrows, const sm_app *app, int utf8);
int sm_steps_explain(sm_pane *p, int y, int x, int width, int maxrows, const sm_app *app, int utf8);
/* A click on the timeline: "solver seek K". Returns 1 when filled. */
int sm_steps_click(const sm_pane *p, const sm_app *app, int y, int x, sm_words *cmd);

/* ---- pane_solver_branch_timeline.c: the Solver pane's timeline of runs ---- */

/* A row per run once there are branches (at most maxrows, the run shown
 * among them) and what the shown one changed; returns the rows used. */
int sm_runs_timeline(sm_pane *p, int y, int x, int width, int maxrows, const sm_app *app, int utf8);

/* ---- pane_pareto_front.c: the Solver pane's Pareto mode ---- */

/* Plot and table of the solver's front in the rectangle, or without a
 * front (popta's other objectives) a plot of the processors' profiles with
 * the chosen counts; returns the rows used (0: nothing to show). */
int sm_front_draw(sm_pane *p, int y, int x, int h, int width, const sm_app *app, const sm_solver *s);
/* A click at (y, x) in the Solver pane on a row or a point: the command
 * that applies its distribution. Returns 1 when filled. */
int sm_front_click(sm_pane *p, const sm_app *app, int y, int x, sm_words *cmd);

#endif
