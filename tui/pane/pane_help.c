/* pane_help.c - '?': every key and what it does, generated from the key
 * table (key_table.h), plus the user's own bindings. Drawn over the panes. */
#include <stdio.h>
#include "tui/key_table.h"
#include "pane.h"

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    (void)f;
    WINDOW *w = p->win;
    werase(w);
    wattrset(w, sm_ui_attr(SM_EL_FRAME_FOCUS));
    sm_ui_box(w);
    sm_ui_text(w, 0, 2, p->w - 4, sm_ui_attr(SM_EL_TITLE), " Keys  (any key closes; every key runs the Tcl command shown in the console) ");
    int iw = p->w - 2, ih = p->h - 2;
    int n = SM_ACT_COUNT + app->view->nbinds;
    int cols = n > ih ? 2 : 1;
    int cw = iw / cols;
    for (int i = 0; i < n; i++) {
        int col = i / ih, row = i % ih;
        if (col >= cols) break;
        char keys[64];
        const char *help;
        if (i < SM_ACT_COUNT) {
            sm_action_keys((sm_action)i, keys, sizeof keys);
            help = sm_action_help[i];
        } else {
            snprintf(keys, sizeof keys, "%s", app->view->binds[i - SM_ACT_COUNT].key);
            help = app->view->binds[i - SM_ACT_COUNT].script;
        }
        sm_ui_text(w, 1 + row, 1 + col * cw, 12, sm_ui_attr(SM_EL_PROMPT), "%-11.11s", keys);
        sm_ui_text(w, 1 + row, 13 + col * cw, cw - 13, sm_ui_attr(SM_EL_TEXT), "%s", help);
    }
}

const sm_pane_ops sm_pane_help = {.deps = SM_DEP_VIEW, .draw = draw};
