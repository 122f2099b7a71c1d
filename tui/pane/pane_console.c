/* pane_console.c - the log: every command a key ran, console results,
 * inline errors and notes, newest at the bottom. The input line itself
 * belongs to the loop (tui_loop.c), which owns the keyboard. */
#include <stdio.h>
#include "pane.h"

/* The Console scrolls by whole wrapped lines; rows are log lines, the
 * cursor is how far back from the newest the bottom line is. */

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    (void)f;
    const sm_view *v = app->view;
    WINDOW *w = p->win;
    werase(w);
    char title[96] = "Console  (: command, ? keys)";
    if (v->log_scroll)
        snprintf(title, sizeof title, "Console  %d lines back (End: newest)", v->log_scroll);
    sm_ui_frame(p, app, title);
    int iw = p->w - 2, ih = p->h - 2;
    for (int i = 0; i < ih; i++) {
        const sm_log_line *l = sm_view_log_line(v, i + v->log_scroll);
        if (!l) break;
        sm_element el = l->kind == SM_LOG_CMD ? SM_EL_LOG_CMD
                        : l->kind == SM_LOG_ERROR ? SM_EL_BAD
                        : l->kind == SM_LOG_NOTE ? SM_EL_TITLE : SM_EL_LOG_RESULT;
        sm_ui_text(w, ih - i, 1, iw, sm_ui_attr(el), "%s%s", l->kind == SM_LOG_CMD ? "% " : "  ", l->text);
    }
}

static int rows(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor)
{
    (void)p; (void)f;
    *cursor = app->view->log_scroll;
    return app->view->log_n;
}

/* Up/PgUp go back in time: a negative delta scrolls up the log. */
static int move_row(sm_pane *p, sm_app *app, const sm_frame *f, int delta, sm_words *cmd)
{
    (void)p; (void)f;
    const sm_view *v = app->view;
    if (v->log_n == 0) return 0;
    int back = delta == SM_ROW_FIRST ? SM_ROW_LAST : delta == SM_ROW_LAST ? SM_ROW_FIRST : -delta;
    sm_words_lit(cmd, "view scroll");
    sm_words_addf(cmd, "%d", sm_pane_step(v->log_scroll, back, v->log_n));
    return 1;
}

const sm_pane_ops sm_pane_console = {
    .deps = SM_DEP_LOG | SM_DEP_VIEW, .draw = draw, .rows = rows, .move_cursor = move_row,
};
