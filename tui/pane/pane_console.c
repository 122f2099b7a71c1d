/* pane_console.c - the log: every command a key ran, console results,
 * inline errors and notes, newest at the bottom. The input line itself
 * belongs to the loop (tui_loop.c), which owns the keyboard. */
#include <stdio.h>
#include "pane.h"

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    (void)f;
    const sm_view *v = app->view;
    WINDOW *w = p->win;
    werase(w);
    sm_ui_frame(p, app, "Console  (: command, ? keys)");
    int iw = p->w - 2, ih = p->h - 2;
    for (int i = 0; i < ih; i++) {
        const sm_log_line *l = sm_view_log_line(v, i + p->top);
        if (!l) break;
        sm_element el = l->kind == SM_LOG_CMD ? SM_EL_LOG_CMD
                        : l->kind == SM_LOG_ERROR ? SM_EL_BAD
                        : l->kind == SM_LOG_NOTE ? SM_EL_TITLE : SM_EL_LOG_RESULT;
        sm_ui_text(w, ih - i, 1, iw, sm_ui_attr(el), "%s%s", l->kind == SM_LOG_CMD ? "% " : "  ", l->text);
    }
}

const sm_pane_ops sm_pane_console = {.deps = SM_DEP_LOG, .draw = draw};
