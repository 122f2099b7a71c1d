/* pane.h - one pane of the workbench behind a tiny vtable: draw itself
 * from the app and this frame's shared data, and turn a mouse click into
 * the Tcl command it means. Curses lives here and in tui_loop.c only. */
#ifndef SM_PANE_H
#define SM_PANE_H

#include <curses.h>
#include <stddef.h>
#include "../app.h"
#include "../words.h"

/* Computed once per frame and shared by every pane. */
typedef struct sm_frame {
    sm_eval ev;                 /* the session's evaluation */
    const int *map;             /* what the Grid shows */
    const unsigned char *moved; /* blocks the solver's last step moved, or NULL */
    int utf8;                   /* the terminal takes UTF-8 */
} sm_frame;

typedef struct sm_pane sm_pane;

#define SM_CLICK_MAX 2

typedef struct sm_pane_ops {
    int id; /* sm_pane_id */
    /* A stamp of everything the pane shows: it is redrawn when it changes. */
    unsigned long long (*stamp)(const sm_pane *p, const sm_app *app);
    void (*draw)(sm_pane *p, sm_app *app, const sm_frame *f);
    /* Click at (y, x) relative to the pane: fills up to SM_CLICK_MAX
     * commands (as words, so names stay words) and returns how many. */
    int (*click)(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds);
    void (*release)(sm_pane *p);
} sm_pane_ops;

struct sm_pane {
    const sm_pane_ops *ops;
    WINDOW *win;
    int y, x, h, w;
    unsigned long long stamp;   /* of the last draw; 0 forces one */
    int top, left;              /* scroll offsets */
    int unit_w, unit_h;         /* Grid: screen cells per block */
    void *priv;
};

extern const sm_pane_ops sm_pane_grid, sm_pane_procs, sm_pane_comm, sm_pane_energy,
    sm_pane_solver, sm_pane_console, sm_pane_help;

/* ---- pane_util.c: theme colours and drawing helpers ---- */

void sm_ui_apply_theme(const sm_theme *t);
void sm_ui_set_utf8(int on);
void sm_ui_box(WINDOW *w);
attr_t sm_ui_attr(sm_element e);
/* The style of processor p's blocks (its colour, readable text on it). */
attr_t sm_ui_proc_attr(int p);
char sm_ui_glyph(int p);
/* Border and title; focus draws it in the focus colour. */
void sm_ui_frame(sm_pane *p, const sm_app *app, const char *title);
/* Text clipped to width w at (y, x). */
void sm_ui_text(WINDOW *w, int y, int x, int width, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* A bar of width w: filled for value/scale. */
void sm_ui_bar(WINDOW *w, int y, int x, int width, double value, double scale, sm_element el, char ch);
void sm_ui_sparkline(WINDOW *w, int y, int x, int width, const double *v, int n, double lo,
                     double hi, sm_element el, int utf8);
/* Engineering formats: "2.659 J", "3.22 ms". */
const char *sm_ui_joules(double j, char *buf, size_t n);
const char *sm_ui_seconds(double s, char *buf, size_t n);

/* ---- pane_front.c: the Solver pane's Pareto mode ---- */

/* Plot and table of the solver's front in the rectangle, or without a
 * front (popta's other objectives) a plot of the processors' profiles with
 * the chosen counts; returns the rows used (0: nothing to show). */
int sm_front_draw(WINDOW *w, int y, int x, int h, int width, const sm_app *app, const sm_solver *s);
/* A click at (y, x) in the Solver pane on a row or a point: the command
 * that applies its distribution. Returns 1 when filled. */
int sm_front_click(const sm_app *app, int y, int x, sm_words *cmd);

#endif
