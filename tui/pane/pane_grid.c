/* pane_grid.c - the block grid, one k-plane at a time: each block is its
 * processor's glyph on its processor's colour; '|' and underline mark cut
 * edges to the right and below; cursor, selection, the highlighted pair
 * and the solver's last move stand out. */
#include <stdio.h>
#include <stdlib.h>
#include "pane.h"
#include "../rows.h"

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_grid *g = app->session->grid;
    const sm_topo *t = app->session->topo;
    const int *map = f->map;
    WINDOW *w = p->win;
    werase(w);
    int bx = g->spec.blocks[0], by = g->spec.blocks[1], bz = g->spec.blocks[2];
    char title[160];
    if (bz > 1)
        snprintf(title, sizeof title, "Grid  k %d/%d%s", v->cur[2], bz - 1,
                 v->show_solver ? "  (solver's current)" : "");
    else
        snprintf(title, sizeof title, "Grid  %dx%d%s", bx, by, v->show_solver ? "  (solver's current)" : "");
    sm_ui_frame(p, app, title);

    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 4 || ih < 3) return;
    int cb = sm_view_cursor_block(v);
    int cut = 0;
    for (int e = 0; e < g->nedges; e++) cut += map[g->edges[e].src] != map[g->edges[e].dst];
    sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "(%d,%d,%d) #%d %s  sel %d  cut %d", v->cur[0],
               v->cur[1], v->cur[2], cb, t->procs[map[cb]].name, v->nsel, cut / 2);

    /* Blocks grow to fill the pane: up to 6 columns by 3 rows each. */
    int rows = ih - 2;   /* info line and legend */
    int uw = iw / bx, uh = rows / by;
    p->unit_w = uw < 2 ? 2 : uw > 6 ? 6 : uw;
    p->unit_h = uh < 1 ? 1 : uh > 3 ? 3 : uh;
    int cols = iw / p->unit_w, vis = rows / p->unit_h;
    p->left = sm_pane_scroll_to(v->cur[0], bx, cols, p->left);
    p->top = sm_pane_scroll_to(v->cur[1], by, vis, p->top);
    int k = v->cur[2];
    for (int r = 0; r < vis && p->top + r < by; r++) {
        int j = p->top + r;
        for (int c = 0; c < cols && p->left + c < bx; c++) {
            int i = p->left + c;
            int b = i + bx * (j + by * k);
            int q = map[b];
            attr_t a = sm_ui_proc_attr(q);
            if (v->sel[b]) a |= sm_ui_attr(SM_EL_SELECTION);
            if ((f->moved && f->moved[b]) || sm_block_in_pair(app, map, b)) a = sm_ui_attr(SM_EL_HIGHLIGHT);
            if (b == cb) a = sm_ui_attr(SM_EL_CURSOR);
            int right_cut = i + 1 < bx && map[b + 1] != q;
            int down_cut = j + 1 < by && map[b + bx] != q;
            for (int dy = 0; dy < p->unit_h; dy++) {
                int y = 2 + r * p->unit_h + dy, x0 = 1 + c * p->unit_w;
                /* A cut towards the row below underlines the block's last line. */
                attr_t line = a | (down_cut && dy == p->unit_h - 1 ? A_UNDERLINE : 0);
                wattrset(w, line);
                for (int dx = 0; dx < p->unit_w - 1; dx++)
                    mvwaddch(w, y, x0 + dx, dx == 0 && dy == 0 ? (chtype)(unsigned char)sm_ui_glyph(q) : (chtype)' ');
                wattrset(w, right_cut ? sm_ui_attr(SM_EL_CUT) : line);
                mvwaddch(w, y, x0 + p->unit_w - 1, right_cut ? (chtype)'|' : (chtype)' ');
            }
        }
    }
    wattrset(w, A_NORMAL);

    /* Legend: the processors that own blocks in this plane. */
    int x = 1, y = p->h - 2;
    unsigned char *seen = sm_xcalloc((size_t)t->nprocs, 1);
    int shown = 0, total = 0;
    for (int b = bx * by * k; b < bx * by * (k + 1); b++) {
        int q = map[b];
        if (seen[q]) continue;
        seen[q] = 1;
        total++;
        char item[80];
        int len = snprintf(item, sizeof item, "%s ", t->procs[q].name);
        if (x + 2 + len > iw - 6) continue;
        wattrset(w, sm_ui_proc_attr(q));
        mvwaddch(w, y, x, (chtype)(unsigned char)sm_ui_glyph(q));
        sm_ui_text(w, y, x + 1, len + 1, sm_ui_attr(SM_EL_TEXT), " %s", item);
        x += len + 2;
        shown++;
    }
    if (shown < total) sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_DIM), "+%d", total - shown);
    free(seen);
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)f;
    const sm_grid *g = app->session->grid;
    if (y < 2 || x < 1 || y >= p->h - 2 || !p->unit_w) return 0;
    int r = (y - 2) / p->unit_h, c = (x - 1) / p->unit_w;
    int i = p->left + c, j = p->top + r;
    if (i >= g->spec.blocks[0] || j >= g->spec.blocks[1]) return 0;
    sm_words_lit(&cmds[0], "view cursor");
    sm_words_addf(&cmds[0], "%d", i);
    sm_words_addf(&cmds[0], "%d", j);
    sm_words_addf(&cmds[0], "%d", app->view->cur[2]);
    sm_words_lit(&cmds[1], "view select toggle");
    return 2;
}

const sm_pane_ops sm_pane_grid = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW, .draw = draw, .click = click,
};
