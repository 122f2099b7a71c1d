/* pane_help.c - '?': every key and what it does, generated from the key
 * table (key_action_table.h), plus the user's own bindings. Drawn over the panes;
 * each entry's text wraps (nothing is cut) and the list scrolls
 * (view help scroll: Up/Down, PgUp/PgDn, Home/End while it is shown), one
 * column, or two when the screen is wide enough for both. */
#include <stdio.h>
#include <string.h>
#include "tui/app/key_action_table.h"
#include "pane.h"

#define KEYW 12 /* the keys column, its space included */

/* Entry i's keys and text. */
static void entry(const sm_app *app, int i, char *keys, size_t n, const char **help)
{
    if (i < SM_ACT_COUNT) {
        sm_action_keys((sm_action)i, keys, (int)n);
        *help = sm_action_help[i];
    } else {
        snprintf(keys, n, "%s", app->view->binds[i - SM_ACT_COUNT].key);
        *help = app->view->binds[i - SM_ACT_COUNT].script;
    }
}

/* The bytes of text's next line of at most width columns, broken at a
 * space when there is one; *skip gets the spaces to step over after it. */
static int wrap(const char *text, int width, int *skip)
{
    int len = (int)strlen(text);
    *skip = 0;
    if (len <= width) return len;
    int cut = width;
    while (cut > 0 && text[cut] != ' ') cut--;
    if (cut == 0) cut = width;
    while (text[cut + *skip] == ' ') (*skip)++;
    return cut;
}

typedef struct layout {
    int cols, cw, tw, rows, lines;
} layout;

/* Lines every entry takes at text width tw (the keys on the first; keys
 * longer than their column take a line of their own). */
static int count_lines(const sm_app *app, int tw)
{
    int n = SM_ACT_COUNT + app->view->nbinds, lines = 0;
    for (int i = 0; i < n; i++) {
        char keys[64];
        const char *help, *s;
        entry(app, i, keys, sizeof keys, &help);
        if ((int)strlen(keys) >= KEYW) lines++;
        s = help;
        do {
            int skip, l = wrap(s, tw, &skip);
            s += l + skip;
            lines++;
        } while (*s);
    }
    return lines;
}

static void plan(const sm_pane *p, const sm_app *app, layout *L)
{
    int iw = p->w - 2;
    L->rows = p->h - 2;
    L->cols = iw >= 150 ? 2 : 1;
    L->cw = iw / L->cols;
    L->tw = L->cw - KEYW - 1;
    if (L->tw < 10) L->tw = 10;
    L->lines = count_lines(app, L->tw);
}

/* The first line shown: the view's scroll, kept so the last page is full. */
static int top_of(const layout *L, const sm_app *app)
{
    int room = L->rows * L->cols, top = app->view->help_top;
    if (top > L->lines - room) top = L->lines - room;
    return top < 0 ? 0 : top;
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    (void)f;
    WINDOW *w = p->win;
    werase(w);
    wattrset(w, sm_ui_attr(SM_EL_FRAME_FOCUS));
    sm_ui_box(w);
    layout L;
    plan(p, app, &L);
    int top = top_of(&L, app), room = L.rows * L.cols;
    int more = L.lines > room;
    char title[160];
    if (more)
        snprintf(title, sizeof title, " Keys %d-%d of %d lines  (Up/Down PgUp/PgDn Home/End scroll, other keys close) ",
                 top + 1, top + room < L.lines ? top + room : L.lines, L.lines);
    else
        snprintf(title, sizeof title, " Keys  (any key closes; every key runs the Tcl command shown in the console) ");
    sm_ui_text(w, 0, 2, p->w - 4, sm_ui_attr(SM_EL_TITLE), "%s", title);
    int n = SM_ACT_COUNT + app->view->nbinds, line = 0;
    for (int i = 0; i < n && line < top + room; i++) {
        char keys[64];
        const char *help, *s;
        entry(app, i, keys, sizeof keys, &help);
        int first = 1;
        int own = (int)strlen(keys) >= KEYW; /* long key lists: a line of their own */
        if (own) {
            int k = line - top;
            if (k >= 0 && k < room)
                sm_ui_text(w, 1 + k % L.rows, 1 + (k / L.rows) * L.cw, L.cw, sm_ui_attr(SM_EL_PROMPT), "%s", keys);
            line++;
            first = 0;
        }
        s = help;
        do {
            int skip, l = wrap(s, L.tw, &skip);
            int k = line - top;
            if (k >= 0 && k < room) {
                int y = 1 + k % L.rows, x = 1 + (k / L.rows) * L.cw;
                if (first) sm_ui_text(w, y, x, KEYW, sm_ui_attr(SM_EL_PROMPT), "%-*s", KEYW - 1, keys);
                sm_ui_text(w, y, x + KEYW, l, sm_ui_attr(SM_EL_TEXT), "%.*s", l, s);
            }
            first = 0;
            s += l + skip;
            line++;
        } while (*s);
    }
}

/* For the loop's scroll keys: the lines there are, and the first shown. */
static int rows(sm_pane *p, sm_app *app, const sm_frame *f, int *cursor)
{
    (void)f;
    layout L;
    plan(p, app, &L);
    *cursor = top_of(&L, app);
    int room = L.rows * L.cols;
    return L.lines > room ? L.lines - room + 1 : 1; /* the tops there can be */
}

const sm_pane_ops sm_pane_help = {.deps = SM_DEP_VIEW, .draw = draw, .rows = rows};
