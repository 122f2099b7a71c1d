/* pane_grid.c - the block grid, one k-plane at a time: each block is its
 * processor's glyph on its processor's colour (or its node's on machines
 * with more processors than colours, processor_marks.h); '|' and underline mark cut
 * edges to the right and below; cursor, selection, the highlighted pair
 * and the solver's last move stand out. The legend line names the
 * processor under the cursor and its node's glyphs; `view node` lights one
 * node and dims the rest. Compare mode (`view compare`) splits the pane
 * into two grids, the shown mapping and the other, blocks that differ lit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pane.h"
#include "tui/app/processor_marks.h"
#include "tui/app/list_pane_rows.h"

/* The legend line: the processor under the cursor (its chip, whole name,
 * node, type, blocks and load against T), then its node's processors by
 * glyph, with names when they fit. With `view node` on, the lit node. */
static void legend(sm_pane *p, const sm_app *app, const sm_frame *f, int q, int lit)
{
    const sm_topo *t = app->session->topo;
    WINDOW *w = p->win;
    int iw = p->w - 2, y = p->h - 2, x = 1;
    sm_proc_eval pe;
    sm_cost_proc(f->cost, &f->ev, q, &pe);
    char load[32], item[256];
    wattrset(w, sm_ui_proc_attr(q));
    mvwaddch(w, y, x, (chtype)(unsigned char)sm_ui_glyph(q));
    x += 2;
    int node = lit >= 0 ? lit : t->procs[q].node;
    int *in = sm_xmalloc(sizeof(int) * (size_t)t->nprocs);
    int n = sm_node_procs(t, node, in);
    char head[32];
    int hlen = snprintf(head, sizeof head, "%snode %d:", lit >= 0 ? "lit " : "", node);
    int len = snprintf(item, sizeof item, "%s %s %lld blk %s %.0f%%T", t->procs[q].name,
                       t->types[t->procs[q].type].name, (long long)pe.blocks,
                       sm_ui_seconds(pe.comp_time, load, sizeof load),
                       f->ev.time > 0 ? 100.0 * pe.comp_time / f->ev.time : 0.0);
    /* The node's glyphs follow when they fit (with names when those fit
     * too), else the node's number. */
    int list = x + len + 2 + hlen + 2 * n <= iw;
    /* Parts that do not fit whole are left out, not cut ("70%T  node"). */
    if (!list) {
        char nd[32];
        int nl = snprintf(nd, sizeof nd, "  node %d", t->procs[q].node);
        if (x + len + nl - 1 <= iw) snprintf(item + len, sizeof item - (size_t)len, "%s", nd);
        else if (x + len - 1 > iw)
            len = snprintf(item, sizeof item, "%s %lld blk %s %.0f%%T", t->procs[q].name, (long long)pe.blocks, load,
                           f->ev.time > 0 ? 100.0 * pe.comp_time / f->ev.time : 0.0);
    }
    sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_TEXT), "%s", item);
    x += len + 2;
    if (list) {
        int names = x + hlen;   /* room for every chip with its name? */
        for (int i = 0; i < n; i++) names += 3 + (int)strlen(t->procs[in[i]].name);
        sm_ui_text(w, y, x, hlen, sm_ui_attr(lit >= 0 ? SM_EL_HEADER : SM_EL_DIM), "%s", head);
        x += hlen + 1;
        for (int i = 0; i < n && x < iw; i++) {
            int r = in[i];
            wattrset(w, sm_ui_proc_attr(r) | (r == q ? A_BOLD | A_UNDERLINE : 0));
            mvwaddch(w, y, x, (chtype)(unsigned char)sm_ui_glyph(r));
            x += 1;
            if (names <= iw) {
                sm_ui_text(w, y, x + 1, iw - x, sm_ui_attr(SM_EL_DIM), "%s", t->procs[r].name);
                x += 1 + (int)strlen(t->procs[r].name);
            }
            x += 1;
        }
    }
    free(in);
    wattrset(w, A_NORMAL);
}

/* Where the blocks were drawn, for clicks: one grid, or two halves side
 * by side in compare mode (the right one from column x1). */
typedef struct grid_layout {
    int split, x1;
} grid_layout;

static grid_layout *layout_of(sm_pane *p)
{
    if (!p->priv) p->priv = sm_xcalloc(1, sizeof(grid_layout));
    return p->priv;
}

/* The blocks of plane k of map from (y0, x0), cols x vis blocks from
 * (p->left, p->top). Lit: with other (compare mode) the blocks where the
 * two mappings differ, else the last move and the highlighted pair. */
static void draw_blocks(sm_pane *p, sm_app *app, const sm_frame *f, const int *map, const int *other, int y0,
                        int x0, int cols, int vis, int lit)
{
    const sm_topo *t = app->session->topo;
    const sm_view *v = app->view;
    const sm_grid *g = app->session->grid;
    WINDOW *w = p->win;
    int bx = g->spec.blocks[0], by = g->spec.blocks[1], k = v->cur[2];
    int cb = sm_view_cursor_block(v);
    for (int r = 0; r < vis && p->top + r < by; r++) {
        int j = p->top + r;
        for (int c = 0; c < cols && p->left + c < bx; c++) {
            int i = p->left + c;
            int b = i + bx * (j + by * k);
            int q = map[b];
            int dim = lit >= 0 && t->procs[q].node != lit;   /* `view node` lights one node */
            attr_t a = dim ? sm_ui_attr(SM_EL_DIM) : sm_ui_proc_attr(q);
            chtype glyph = dim ? (chtype)'.' : (chtype)(unsigned char)sm_ui_glyph(q);
            if (v->sel[b]) a |= sm_ui_attr(SM_EL_SELECTION);
            int lit = other ? other[b] != q : (f->moved && f->moved[b]) || sm_block_in_pair(app, map, b);
            if (lit) a = sm_ui_attr(SM_EL_HIGHLIGHT);
            if (b == cb) a = sm_ui_attr(SM_EL_CURSOR);
            int right_cut = i + 1 < bx && map[b + 1] != q;
            int down_cut = j + 1 < by && map[b + bx] != q;
            for (int dy = 0; dy < p->unit_h; dy++) {
                int y = y0 + r * p->unit_h + dy, xb = x0 + c * p->unit_w;
                /* A cut towards the row below underlines the block's last line. */
                attr_t line = a | (down_cut && dy == p->unit_h - 1 ? A_UNDERLINE : 0);
                wattrset(w, line);
                for (int dx = 0; dx < p->unit_w - 1; dx++)
                    mvwaddch(w, y, xb + dx, dx == 0 && dy == 0 ? glyph : (chtype)' ');
                wattrset(w, right_cut ? sm_ui_attr(SM_EL_CUT) : line);
                mvwaddch(w, y, xb + p->unit_w - 1, right_cut ? (chtype)'|' : (chtype)' ');
            }
        }
    }
    wattrset(w, A_NORMAL);
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_grid *g = app->session->grid;
    const sm_topo *t = app->session->topo;
    const int *map = f->map;
    const int *other = f->cmp ? f->cmp->map : NULL;
    grid_layout *gl = layout_of(p);
    WINDOW *w = p->win;
    werase(w);
    int bx = g->spec.blocks[0], by = g->spec.blocks[1], bz = g->spec.blocks[2];
    /* Comparing, each grid says which mapping it is; the title counts
     * the blocks the two map differently: while the other's cost state
     * builds in the background (16.7 M blocks), that count (a pass over
     * the grid) waits for it too, so V returns at once. */
    int pending = other && f->cmp->pending;
    int differ = other && !pending
                     ? sm_compare_differ_at(f->cmp, map, f->map_owner, f->map_stamp, f->source ? app->solver : NULL)
                     : 0;
    char which[64] = "";
    if (pending) snprintf(which, sizeof which, "  differ: pending");
    else if (other) snprintf(which, sizeof which, "  %d differ", differ);
    else if (f->source) snprintf(which, sizeof which, "  (solver's current)");
    char title[160], plane[48];
    if (bz > 1) snprintf(plane, sizeof plane, "k %d/%d", v->cur[2], bz - 1);
    else snprintf(plane, sizeof plane, "%dx%d", bx, by);
    snprintf(title, sizeof title, "Grid  %s%s", plane, which);
    char shorter[96];
    snprintf(shorter, sizeof shorter, "Grid %s%s", plane, other ? " differ" : f->source ? " solver" : "");
    const char *titles[] = {title, shorter};
    sm_ui_frame_forms(p, app, titles, 2);

    int iw = p->w - 2, ih = p->h - 2;
    gl->split = 0;
    if (iw < 4 || ih < 3) return;
    int cb = sm_view_cursor_block(v);
    int rows = ih - 2;   /* info line and legend */
    /* Compare mode: two grids side by side when each shows every block
     * column (two cells a block); when even one grid cannot, when each
     * half still shows eight. Otherwise one grid, and the screen says so. */
    int half = (iw - 1) / 2;
    int split = other && (bx <= half / 2 || (bx > iw / 2 && half / 2 >= 8));
    int gw = split ? half : iw;
    int uw = gw / bx, uh = rows / by;
    p->unit_w = uw < 2 ? 2 : uw > 6 ? 6 : uw;
    p->unit_h = uh < 1 ? 1 : uh > 3 ? 3 : uh;
    int cols = gw / p->unit_w, vis = rows / p->unit_h;
    p->left = sm_pane_scroll_to(v->cur[0], bx, cols, p->left);
    p->top = sm_pane_scroll_to(v->cur[1], by, vis, p->top);
    int lit = v->node >= 0 && v->node < t->nnodes ? v->node : -1;
    if (!other) {
        /* Cut edges come from the evaluation (kept incrementally), not from
         * a walk over every edge of the grid at each frame; the same count
         * (directed task edges between processors, SPEC's `messages`) as
         * Energy's. */
        /* Whole parts or none: the count keeps its words ("13909280"
         * alone at 80x24 on the whole Summit said nothing), the selection
         * gives way first, then the count. */
        char at[160], hd[256];
        snprintf(at, sizeof at, "(%d,%d,%d) #%d %s", v->cur[0], v->cur[1], v->cur[2], cb, t->procs[map[cb]].name);
        snprintf(hd, sizeof hd, "%s  sel %d  %lld cut edges", at, v->nsel, (long long)f->ev.messages);
        if ((int)strlen(hd) > iw) snprintf(hd, sizeof hd, "%s  %lld cut edges", at, (long long)f->ev.messages);
        if ((int)strlen(hd) > iw) snprintf(hd, sizeof hd, "%s  sel %d", at, v->nsel);
        if ((int)strlen(hd) > iw) snprintf(hd, sizeof hd, "%s", at);
        sm_ui_words(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s", hd);
        draw_blocks(p, app, f, map, NULL, 2, 1, cols, vis, lit);
        legend(p, app, f, map[cb], lit);
        return;
    }
    if (split) {
        /* Each half says which mapping it is and what the cursor block is. */
        gl->split = 1;
        gl->x1 = 1 + half + 1;
        /* Processor names give way in the middle (n0000~100_0), never
         * cut at the half's edge ("solver: #0 n0000.v10" at 80x24). */
        char nm[64], head[96], pn[128];
        int hl = snprintf(head, sizeof head, "%s: #%d ", f->source ? "solver" : "session", cb);
        sm_ui_elide(t->procs[map[cb]].name, half - hl, pn, sizeof pn);
        sm_ui_text(w, 1, 1, half, sm_ui_attr(SM_EL_HEADER) | A_BOLD, "%s%s", head, pn);
        sm_ui_elide(f->cmp->label, half - 8, nm, sizeof nm);
        sm_ui_elide(t->procs[other[cb]].name, iw - half - 1 - (int)strlen(nm) - 2, pn, sizeof pn);
        sm_ui_text(w, 1, gl->x1, iw - half - 1, sm_ui_attr(SM_EL_HEADER) | A_BOLD, "%s: %s", nm, pn);
        sm_ui_vline(w, 1, 1 + half, ih - 1, sm_ui_attr(SM_EL_DIM));
        draw_blocks(p, app, f, map, other, 2, 1, cols, vis, lit);
        draw_blocks(p, app, f, other, map, 2, gl->x1, cols, vis, lit);
    } else {
        /* No room for two: the shown mapping, the blocks the other maps
         * elsewhere lit, and the reason on screen. */
        sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_PROMPT), "no room for both grids: z zooms; diffs lit");
        draw_blocks(p, app, f, map, other, 2, 1, cols, vis, lit);
    }
    legend(p, app, f, map[cb], lit);
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)f;
    const sm_grid *g = app->session->grid;
    const grid_layout *gl = layout_of(p);
    if (gl->split && x >= gl->x1) x -= gl->x1 - 1;   /* the right grid: same blocks */
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

static void release(sm_pane *p)
{
    free(p->priv);
    p->priv = NULL;
}

const sm_pane_ops sm_pane_grid = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW, .draw = draw, .click = click, .release = release,
};
