/* workbench_pane_placement.c - the panes laid out in bands for the terminal's size:
 * the pane table (ops, band and width of each), the main bands, the zoomed
 * pane, the alternate panes and the help overlay. */
#include "workbench_internal.h"

/* The pane table (SM_PANES, view_state.h): ops, band and width of each. */
const wb_pane_place wb_pane_table[SM_PANE_COUNT] = {
#define X(id, name, title, slot, width) {&sm_pane_##name, slot, width},
    SM_PANES(X)
#undef X
};

/* ---- layout ---- */

static void place(sm_pane *p, int y, int x, int h, int w)
{
    if (p->win) delwin(p->win);
    p->win = NULL;
    p->y = y; p->x = x; p->h = h; p->w = w;
    p->drawn = 0;
    if (h > 0 && w > 0) p->win = newwin(h, w, y, x);
}

void wb_layout(tui *t)
{
    const sm_view *v = t->app->view;
    t->lines = LINES;
    t->cols = COLS;
    t->zoom = v->zoom;
    t->focus = v->focus;
    t->compare = t->app->compare->source != SM_CMP_OFF;
    t->alt = v->alt_shown;
    t->small = LINES < MIN_LINES || COLS < MIN_COLS;
    clear();
    if (t->status) delwin(t->status);
    if (t->bottom) delwin(t->bottom);
    t->status = newwin(1, COLS, 0, 0);
    t->bottom = newwin(1, COLS, LINES - 1, 0);
    for (int i = 0; i < SM_PANE_COUNT; i++) place(&t->panes[i], 0, 0, 0, 0);
    place(&t->help, 0, 0, 0, 0);
    if (t->small) return;
    int H = LINES, W = COLS;
    int ch = H >= 40 ? 9 : H >= 30 ? 6 : 4;          /* console */
    int mh = H - 2 - ch;                              /* panes above it */
    if (v->zoom) {
        if (v->focus == SM_PANE_CONSOLE) place(&t->panes[SM_PANE_CONSOLE], 1, 0, H - 2, W);
        else {
            place(&t->panes[v->focus], 1, 0, mh, W);
            place(&t->panes[SM_PANE_CONSOLE], 1 + mh, 0, ch, W);
        }
    } else {
        /* Compare mode: the bottom band keeps a row more, so Energy holds
         * its two columns and their difference at 80x24. */
        int bottom_min = t->compare ? 10 : 9;
        int top = mh / 2;
        if (mh - top < bottom_min) top = mh - bottom_min;
        /* Each band split by the table's widths; the last pane takes the
         * rounding. A band with no panes gives its lines to the other. */
        int any[2] = {0, 0};
        for (int i = 0; i < SM_PANE_COUNT; i++)
            if (wb_pane_table[i].slot == SM_SLOT_TOP || wb_pane_table[i].slot == SM_SLOT_BOTTOM)
                any[wb_pane_table[i].slot] = 1;
        if (!any[SM_SLOT_BOTTOM]) top = mh;
        if (!any[SM_SLOT_TOP]) top = 0;
        /* Compare mode: Energy's share doubles, for its three columns. */
        int width[SM_PANE_COUNT];
        for (int i = 0; i < SM_PANE_COUNT; i++)
            width[i] = wb_pane_table[i].width * (t->compare && i == SM_PANE_ENERGY ? 2 : 1);
        for (int band = SM_SLOT_TOP; band <= SM_SLOT_BOTTOM; band++) {
            int total = 0, x = 0, last = -1;
            for (int i = 0; i < SM_PANE_COUNT; i++)
                if (wb_pane_table[i].slot == (sm_pane_slot)band) total += width[i], last = i;
            int y = band == SM_SLOT_TOP ? 1 : 1 + top, h = band == SM_SLOT_TOP ? top : mh - top;
            for (int i = 0; i < SM_PANE_COUNT; i++) {
                if (wb_pane_table[i].slot != (sm_pane_slot)band) continue;
                int w = i == last ? W - x : W * width[i] / total;
                place(&t->panes[i], y, x, h, w);
                x += w;
            }
        }
        for (int i = 0; i < SM_PANE_COUNT; i++)
            if (wb_pane_table[i].slot == SM_SLOT_CONSOLE) place(&t->panes[i], 1 + mh, 0, ch, W);
        /* An ALT pane chosen takes its host's place. */
        for (int i = 1; i < SM_PANE_COUNT; i++) {
            if (wb_pane_table[i].slot != SM_SLOT_ALT || !sm_view_pane_shown(v, i)) continue;
            sm_pane *h = &t->panes[i - 1];
            place(&t->panes[i], h->y, h->x, h->h, h->w);
            place(h, 0, 0, 0, 0);
        }
    }
    /* All rows but the status and prompt lines: two columns of 20 keys fit at 80x24. */
    int hh = H - 2 < 40 ? H - 2 : 40, hw = W - 4 < 110 ? W - 4 : 110;
    place(&t->help, (H - hh) / 2, (W - hw) / 2, hh, hw);
}
