/* pane_console.c - the log: every command a key ran, console results,
 * inline errors and notes, newest at the bottom. The input line itself
 * belongs to the loop (workbench_main_loop.c), which owns the keyboard. */
#include <stdio.h>
#include <string.h>
#include "pane.h"

/* The Console scrolls by whole wrapped lines; rows are log lines, the
 * cursor is how far back from the newest the bottom line is. */

/* Bytes of the next screen row of s: up to width characters (UTF-8
 * sequences kept whole), ending early at a newline. */
static size_t row_bytes(const char *s, int width)
{
    size_t b = 0;
    for (int c = 0; s[b] && s[b] != '\n' && c < width; c++) {
        b++;
        while ((s[b] & 0xC0) == 0x80) b++;
    }
    return b;
}

/* Screen rows a log line takes when wrapped to width. */
static int wrapped_rows(const char *s, int width)
{
    int n = 0;
    for (;;) {
        size_t b = row_bytes(s, width);
        n++;
        s += b;
        if (*s == '\n') s++;
        else if (!*s) break;
    }
    return n;
}

/* Long results wrap instead of being cut; the newest line is at the
 * bottom, and log_scroll counts whole log lines back. */
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
    int iw = p->w - 2, ih = p->h - 2, width = iw - 2;
    if (width < 4) return;
    int y = ih; /* the next free row, counting up from the bottom */
    char text[SM_LOG_LINE * 20];
    for (int i = 0; y >= 1;) {
        const sm_log_line *l = sm_view_log_line(v, i + v->log_scroll);
        if (!l) break;
        /* A line longer than a log piece was stored in pieces: join them
         * back (oldest piece first) so it wraps as one line. */
        int j = i;
        const sm_log_line *head = l;
        while (head->cont) {
            const sm_log_line *prev = sm_view_log_line(v, j + 1 + v->log_scroll);
            if (!prev) break;
            head = prev;
            j++;
        }
        size_t len = 0;
        for (int q = j; q >= i; q--) {
            const char *piece = sm_view_log_line(v, q + v->log_scroll)->text;
            size_t pl = strlen(piece);
            if (len + pl >= sizeof text) break;
            memcpy(text + len, piece, pl);
            len += pl;
        }
        text[len] = '\0';
        i = j + 1;
        sm_element el = head->kind == SM_LOG_CMD ? SM_EL_LOG_CMD
                        : head->kind == SM_LOG_ERROR ? SM_EL_BAD
                        : head->kind == SM_LOG_NOTE ? SM_EL_TITLE : SM_EL_LOG_RESULT;
        int n = wrapped_rows(text, width);
        int top = y - n + 1;
        const char *s = text;
        for (int r = 0; r < n; r++) {
            size_t b = row_bytes(s, width);
            if (top + r >= 1)
                sm_ui_text(w, top + r, 1, iw, sm_ui_attr(el), "%s%.*s",
                           r > 0 ? "  " : head->kind == SM_LOG_CMD ? "% " : "  ", (int)b, s);
            s += b;
            if (*s == '\n') s++;
        }
        y = top - 1;
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
