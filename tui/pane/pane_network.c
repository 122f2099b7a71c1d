/* pane_network.c - the Network pane: link loads as a heat map laid out like
 * the machine. A torus or mesh shows one plane of its two fastest axes
 * at a time (the slower axes number the planes), a HAEC box one board at
 * a time; nodes are cells, the links between them digits 1..9 on the
 * theme's heat ramp ('.' idle), scaled to the busiest link of the whole
 * machine. A node's own mark is its link to the next plane (HAEC: its
 * wireless links to the next board). The selected link's two directions
 * and the processor pairs whose messages cross them are listed below.
 * A tree shows one row of uplinks per level instead: each node's link
 * to its leaf switch, each switch's link to the next level, the top
 * level first.
 * It draws the frame's mapping, so it follows a stepping solver (v). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/traffic/link_load_drawing_positions.h"
#include "core/traffic/link_load_counts.h"
#include "pane.h"

typedef struct net_cache {
    unsigned long long version;   /* f->map_version the loads are for */
    int built;                    /* for that version (trees have no loads array) */
    int ok;
    char why[200];                /* why there is nothing to draw */
    sm_link_map m;
    sm_link_load *loads;          /* by drawn link, sm_link_map_loads */
    long long max_msgs, max_cells;
    /* The selected link's pairs, both directions. */
    unsigned long long sel_version;
    int sel_from, sel_to, sel_level;
    sm_link_pair *pairs[2];
    int npairs[2];
    long long msgs[2], cells[2];
    /* Where the last draw put the plane, for clicks. */
    int y0, x0, nw, lw, top, left, plane;
    /* Trees: loads by level and group, the busier direction. */
    int tree, nlevels;
    int *groups;                  /* per level */
    long long **tmsgs, **tcells;  /* [level][group] max(up, down) */
    int *row0;                    /* per level: its first line in the last draw (-1 off) */
    int tw;                       /* digits per line in the last draw */
    /* The shown mapping's processor-pair traffic (the cost state keeps
     * it): loads and crossing pairs are routed per pair, not per task
     * edge (a million blocks: seconds -> milliseconds). */
    sm_traffic *traffic;
    int ntraffic;
} net_cache;

static void free_pairs(net_cache *c)
{
    for (int d = 0; d < 2; d++) {
        free(c->pairs[d]);
        c->pairs[d] = NULL;
        c->npairs[d] = 0;
        c->msgs[d] = c->cells[d] = 0;
    }
}

static void free_tree(net_cache *c)
{
    for (int L = 0; L < c->nlevels; L++) {
        free(c->tmsgs[L]);
        free(c->tcells[L]);
    }
    free(c->tmsgs);
    free(c->tcells);
    free(c->groups);
    free(c->row0);
    c->tmsgs = c->tcells = NULL;
    c->groups = c->row0 = NULL;
    c->nlevels = 0;
}

/* A tree's uplink loads by level; levels with one group carry nothing. */
static void tree_loads(net_cache *c, const sm_app *app)
{
    const sm_session *s = app->session;
    const sm_net *n = s->topo->net;
    int levels = 0;
    while (levels <= n->ndims && sm_links_tree_groups(n, s->topo->nnodes, levels) > 1) levels++;
    c->nlevels = levels;
    c->groups = sm_xcalloc((size_t)levels + 1, sizeof(int));
    c->row0 = sm_xcalloc((size_t)levels + 1, sizeof(int));
    c->tmsgs = sm_xcalloc((size_t)levels + 1, sizeof *c->tmsgs);
    c->tcells = sm_xcalloc((size_t)levels + 1, sizeof *c->tcells);
    for (int L = 0; L < levels; L++) {
        c->groups[L] = sm_links_tree_groups(n, s->topo->nnodes, L);
        c->tmsgs[L] = sm_xcalloc((size_t)c->groups[L], sizeof(long long));
        c->tcells[L] = sm_xcalloc((size_t)c->groups[L], sizeof(long long));
    }
    sm_tree_link *tl;
    sm_err e;
    int k = sm_links_tree_traffic(s->topo, c->traffic, c->ntraffic, &tl, &e);
    for (int i = 0; i < k; i++) {
        int L = tl[i].level, g = tl[i].index;
        if (L >= levels || g >= c->groups[L]) continue;
        long long m = tl[i].up_messages > tl[i].down_messages ? tl[i].up_messages : tl[i].down_messages;
        long long x = tl[i].up_cells > tl[i].down_cells ? tl[i].up_cells : tl[i].down_cells;
        c->tmsgs[L][g] = m;
        c->tcells[L][g] = x;
        if (m > c->max_msgs) c->max_msgs = m;
        if (x > c->max_cells) c->max_cells = x;
    }
    if (k >= 0) free(tl);
}

/* Link loads of the shown mapping, rebuilt only when it changed. */
static net_cache *cache(sm_pane *p, const sm_app *app, const sm_frame *f)
{
    net_cache *c = p->priv;
    if (!c) {
        c = p->priv = sm_xcalloc(1, sizeof *c);
        c->sel_from = -1;
    }
    if (c->built && c->version == f->map_version) return c;
    const sm_session *s = app->session;
    free(c->loads);
    c->loads = NULL;
    c->version = f->map_version;
    c->built = 1;
    c->sel_version = 0;
    c->max_msgs = c->max_cells = 0;
    free_tree(c);
    free(c->traffic);
    c->ntraffic = sm_cost_traffic(f->cost, 0, &c->traffic);
    c->tree = s->topo->net->ops == &sm_net_tree;
    if (c->tree) {
        c->ok = 1;
        tree_loads(c, app);
        return c;
    }
    sm_err e;
    c->ok = sm_link_map_init(s->topo->net, &c->m, &e) == 0;
    if (!c->ok) {
        snprintf(c->why, sizeof c->why, "%.190s", e.msg);
        return c;
    }
    sm_link_load *ll;
    int n = sm_links_compute_traffic(s->topo, c->traffic, c->ntraffic, &ll, &e);
    if (n < 0) {
        c->ok = 0;
        snprintf(c->why, sizeof c->why, "%.190s", e.msg);
        return c;
    }
    size_t len = (size_t)sm_link_map_nodes(&c->m) * SM_LINK_AXES * 2;
    c->loads = sm_xmalloc(sizeof *c->loads * len);
    sm_link_map_loads(&c->m, ll, n, c->loads);
    free(ll);
    for (size_t i = 0; i < len; i++) {
        if (c->loads[i].messages > c->max_msgs) c->max_msgs = c->loads[i].messages;
        if (c->loads[i].cells > c->max_cells) c->max_cells = c->loads[i].cells;
    }
    return c;
}

/* The selection, if it names a link of this machine: its node and axis. */
static int selected(const sm_view *v, const sm_link_map *m, int *at, int *axis)
{
    if (v->link_from < 0 || v->link_level >= 0) return 0;
    if (v->link_to == SM_LINK_BOARD) {
        if (!m->haec || sm_link_map_next(m, v->link_from, SM_LINK_THROUGH) < 0) return 0;
        *at = v->link_from;
        *axis = SM_LINK_THROUGH;
        return 1;
    }
    *axis = sm_link_map_axis(m, v->link_from, v->link_to, at);
    return *axis >= 0;
}

static void selection_pairs(net_cache *c, const sm_app *app)
{
    const sm_view *v = app->view;
    if (c->sel_version == c->version && c->sel_from == v->link_from && c->sel_to == v->link_to &&
        c->sel_level == v->link_level)
        return;
    free_pairs(c);
    c->sel_version = c->version;
    c->sel_from = v->link_from;
    c->sel_to = v->link_to;
    c->sel_level = v->link_level;
    const sm_session *s = app->session;
    if (c->tree) {
        if (v->link_level < 0 || v->link_level >= c->nlevels || v->link_from < 0 ||
            v->link_from >= c->groups[v->link_level])
            return;
        for (int d = 0; d < 2; d++) {
            sm_err e;
            int n = sm_links_tree_crossing_traffic(s->topo, c->traffic, c->ntraffic, v->link_level, v->link_from,
                                                   d, &c->pairs[d], &e);
            c->npairs[d] = n < 0 ? 0 : n;
            for (int i = 0; i < c->npairs[d]; i++) {
                c->msgs[d] += c->pairs[d][i].messages;
                c->cells[d] += c->pairs[d][i].cells;
            }
        }
        return;
    }
    int at, axis;
    if (!selected(v, &c->m, &at, &axis)) return;
    for (int d = 0; d < 2; d++) {
        sm_link_sel sel = {v->link_from, v->link_to, c->m.through, d};
        sm_err e;
        int n = sm_links_crossing_traffic(s->topo, c->traffic, c->ntraffic, sm_link_sel_match, &sel, &c->pairs[d],
                                          &e);
        c->npairs[d] = n < 0 ? 0 : n;
        for (int i = 0; i < c->npairs[d]; i++) {
            c->msgs[d] += c->pairs[d][i].messages;
            c->cells[d] += c->pairs[d][i].cells;
        }
    }
}

/* Heat of a drawn link: the busier direction; 0 idle, else the load
 * itself when the busiest link of the machine carries at most 9, or
 * 1..9 in ninths of that busiest link. *frac is its place on the ramp. */
static int heat(long long v, long long max, double *frac)
{
    if (v <= 0 || max <= 0) return 0;
    *frac = max > 1 ? (double)(v - 1) / (double)(max - 1) : 1.0;
    if (max <= 9) return (int)v;
    int lv = (int)((9 * v + max - 1) / max);
    return lv < 1 ? 1 : lv > 9 ? 9 : lv;
}

static int level(const net_cache *c, int cells, int node, int axis, double *frac)
{
    const sm_link_load *l = &c->loads[((size_t)node * SM_LINK_AXES + (size_t)axis) * 2];
    long long a = cells ? l[0].cells : l[0].messages, b = cells ? l[1].cells : l[1].messages;
    return heat(a > b ? a : b, cells ? c->max_cells : c->max_msgs, frac);
}

/* One link (or a node's through mark) of width w at (y, x). */
static void draw_link(WINDOW *w, int y, int x, int width, int lv, double frac, int vertical, attr_t sel,
                      int node_mark)
{
    char s[8];
    /* An idle link is '.' wherever it is drawn, as the legend says; a
     * node with no link to the next plane is "[ ]" ('o' when narrow). */
    char mid = lv > 0 ? (char)('0' + lv) : lv == 0 ? '.' : ' ';
    if (width == 1) {
        s[0] = node_mark && lv < 0 ? 'o' : mid;
        s[1] = '\0';
    } else if (node_mark) {
        snprintf(s, sizeof s, "[%c]", mid);
    } else if (vertical) {
        snprintf(s, sizeof s, " %c ", mid);
    } else {
        snprintf(s, sizeof s, "-%c-", mid);
    }
    attr_t a = sel ? sel : lv > 0 ? sm_ui_heat_attr(frac) : sm_ui_attr(node_mark ? SM_EL_TEXT : SM_EL_DIM);
    if (node_mark && !sel) a |= A_BOLD;
    sm_ui_text(w, y, x, width, a, "%s", s);
}

/* A tree: one row of uplinks per level, the top level first, each group
 * a digit (wrapping over lines when there are many); lines from y0 to
 * ylast, scrolled to keep the selection in view. */
static void draw_tree(sm_pane *p, net_cache *c, const sm_app *app, int y0, int ylast, int iw)
{
    const sm_view *v = app->view;
    WINDOW *w = p->win;
    int cells = v->net_cells, lw = 9;
    int tw = iw - lw < 1 ? 1 : iw - lw;
    long long max = cells ? c->max_cells : c->max_msgs;
    c->tw = tw;
    /* Lines before each level, and the selection's line. */
    int total = 0, sel_line = 0;
    for (int L = c->nlevels - 1; L >= 0; L--) {
        if (L == v->link_level && v->link_from >= 0) sel_line = total + v->link_from / tw;
        total += (c->groups[L] + tw - 1) / tw;
    }
    p->top = sm_pane_scroll_to(sel_line, total, ylast - y0 + 1, p->top);
    attr_t sel_attr = sm_ui_attr(v->focus == SM_PANE_NETWORK ? SM_EL_CURSOR : SM_EL_HIGHLIGHT);
    int line = 0;
    for (int L = c->nlevels - 1; L >= 0; L--) {
        c->row0[L] = y0 + line - p->top;
        int nl = (c->groups[L] + tw - 1) / tw;
        for (int k = 0; k < nl; k++, line++) {
            int y = y0 + line - p->top;
            if (y < y0 || y > ylast) continue;
            if (k == 0) {
                char label[16];
                if (L == 0) snprintf(label, sizeof label, "nodes");
                else snprintf(label, sizeof label, "L%d sw", L);
                sm_ui_text(w, y, 1, lw, sm_ui_attr(SM_EL_HEADER), "%-*s", lw - 1, label);
            }
            for (int i = k * tw; i < c->groups[L] && i < (k + 1) * tw; i++) {
                double fr = 0;
                long long val = cells ? c->tcells[L][i] : c->tmsgs[L][i];
                int lv = heat(val, max, &fr);
                int is = L == v->link_level && i == v->link_from;
                attr_t a = is ? sel_attr : lv ? sm_ui_heat_attr(fr) : sm_ui_attr(SM_EL_DIM);
                sm_ui_text(w, y, 1 + lw + i - k * tw, 1, a, "%c", lv ? '0' + lv : '.');
            }
        }
    }
}

/* The selected link's loads and the pairs crossing it, from line y on. */
static void draw_detail(WINDOW *w, int y, int ylast, int iw, const net_cache *c, const sm_app *app, int unit_cells)
{
    const sm_view *v = app->view;
    const sm_topo *t = app->session->topo;
    char head[160];
    const char *unit = unit_cells ? "cells" : "msg";
    long long f0 = unit_cells ? c->cells[0] : c->msgs[0], f1 = unit_cells ? c->cells[1] : c->msgs[1];
    if (c->tree)
        snprintf(head, sizeof head, "L%d group %d up %lld %s  down %lld", v->link_level, v->link_from, f0, unit, f1);
    else if (v->link_to == SM_LINK_BOARD)
        snprintf(head, sizeof head, "n%d>board %d %lld %s  back %lld", v->link_from,
                 v->link_from / c->m.through + 1, f0, unit, f1);
    else
        snprintf(head, sizeof head, "n%d>n%d %lld %s  n%d>n%d %lld", v->link_from, v->link_to, f0, unit,
                 v->link_to, v->link_from, f1);
    sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s", head);
    if (c->npairs[0] + c->npairs[1] == 0) {
        if (y <= ylast) sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "no messages cross this link");
        return;
    }
    /* Pairs as "src>dst N", heaviest direction's first, wrapped. */
    int x = 1, shown = 0, total = c->npairs[0] + c->npairs[1];
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < c->npairs[d]; i++) {
            const sm_link_pair *pp = &c->pairs[d][i];
            char item[160];
            int len = snprintf(item, sizeof item, "%s>%s %lld", t->procs[pp->src].name, t->procs[pp->dst].name,
                               (long long)(unit_cells ? pp->cells : pp->messages));
            char more[32];
            int ml = snprintf(more, sizeof more, "+%d more", total - shown);
            if (x > 1 && x + len - 1 > iw) {
                if (y == ylast) {
                    sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_DIM), "%s", more);
                    return;
                }
                x = 1;
                y++;
            }
            /* On the last line, keep room to say how many are left. */
            if (y == ylast && shown + 1 < total && x + len + 2 + ml - 1 > iw) {
                sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_DIM), "%s", more);
                return;
            }
            sm_ui_text(w, y, x, iw - x + 1, sm_ui_attr(SM_EL_TEXT), "%s", item);
            x += len + 2;
            shown++;
        }
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    WINDOW *w = p->win;
    net_cache *c = cache(p, app, f);
    werase(w);
    const sm_net *net = app->session->topo->net;
    char title[160];
    int plane = c->ok && v->net_plane < c->m.planes ? v->net_plane : 0;
    if (c->ok && c->m.planes > 1)
        snprintf(title, sizeof title, "Network  %s %s %d/%d%s", net->ops->kind, c->m.haec ? "board" : "plane",
                 plane, c->m.planes - 1, f->source ? "  (solver's current)" : "");
    else
        snprintf(title, sizeof title, "Network  %s%s", net->ops->kind, f->source ? "  (solver's current)" : "");
    char shorter[96];
    if (c->ok && c->m.planes > 1)
        snprintf(shorter, sizeof shorter, "Net %s %d/%d%s", net->ops->kind, plane, c->m.planes - 1,
                 f->source ? " solver" : "");
    else
        snprintf(shorter, sizeof shorter, "Net %s%s", net->ops->kind, f->source ? " solver" : "");
    const char *titles[] = {title, shorter};
    sm_ui_frame_forms(p, app, titles, 2);
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 12 || ih < 3) return;
    if (!c->ok) {
        sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_DIM), "%s", c->why);
        return;
    }
    int cells = v->net_cells;
    selection_pairs(c, app);
    int at = -1, axis = -1;
    int has_sel = selected(v, &c->m, &at, &axis);

    /* Legend: what a digit means, the ramp in its colours, and '.'; in
     * shorter words when the pane is narrow (80x24 cut it before ". idle
     * link", the glyph it explains). */
    long long max = cells ? c->max_cells : c->max_msgs;
    const char *unit = cells ? "cells" : "msg";
    int top = max < 1 ? 0 : max <= 9 ? (int)max : 9;
    char legend[96];
    const char *idle = " . idle link";
    if (max <= 9) snprintf(legend, sizeof legend, "%s per link, max %lld ", unit, max);
    else snprintf(legend, sizeof legend, "n/9 of max %lld %s ", max, unit);
    if ((int)strlen(legend) + top + (int)strlen(idle) > iw) idle = " .idle";
    if ((int)strlen(legend) + top + (int)strlen(idle) > iw) snprintf(legend, sizeof legend, "max %lld %s ", max, unit);
    if ((int)strlen(legend) + top + (int)strlen(idle) > iw) top = 0; /* the digits explain themselves */
    int x = 1 + (int)strlen(legend);
    sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s", legend);
    for (int lv = 1; lv <= top && x <= iw; lv++, x++)
        sm_ui_text(w, 1, x, 1, sm_ui_heat_attr(top > 1 ? (lv - 1) / (double)(top - 1) : 1.0), "%c", '0' + lv);
    sm_ui_text(w, 1, x, iw - x + 1, sm_ui_attr(SM_EL_DIM), "%s", idle);

    if (c->tree) {
        int sel = v->link_level >= 0 && v->link_level < c->nlevels && v->link_from >= 0 &&
                  v->link_from < c->groups[v->link_level];
        int detail = sel ? (ih >= 8 ? 3 : 2) : 1;
        if (detail > ih - 2) detail = ih - 2;
        draw_tree(p, c, app, 2, ih - detail, iw);
        int y = 1 + ih - detail;
        if (!sel) sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "uplinks per level; arrows pick one (Up: a level up)");
        else draw_detail(w, y, ih, iw, c, app, cells);
        return;
    }
    const sm_link_map *m = &c->m;
    int R = m->rows, C = m->cols;
    int wrap_c = m->wrap && C > 2, wrap_r = m->wrap && R > 2;
    int rowh = R > 1 ? 2 : 1;
    /* The plane first; the detail gets the lines left, at least one (two
     * with a selection), and the plane scrolls if that leaves too few. */
    int need = R * rowh - (rowh == 2 && !wrap_r ? 1 : 0);
    int detail = ih - 1 - need, least = has_sel ? (ih >= 8 ? 3 : 2) : 1;
    if (detail < least) detail = least;
    if (detail > ih - 2) detail = ih - 2;
    int map_top = 2, map_h = ih - 1 - detail;
    /* Wide cells ("[3]-5-") when the plane fits, else one column each. */
    int nw = 3, lw = 3;
    if (C * (nw + lw) - (wrap_c ? 0 : lw) > iw) nw = lw = 1;
    int colw = nw + lw;
    int vis_c = (iw + lw) / colw, vis_r = (map_h + (rowh - 1)) / rowh;
    if (vis_c < 1) vis_c = 1;
    if (vis_r < 1) vis_r = 1;
    int cur_r = 0, cur_c = 0;
    if (has_sel) {
        int pl;
        sm_link_map_pos(m, at, &pl, &cur_r, &cur_c);
    }
    p->left = sm_pane_scroll_to(cur_c, C, vis_c, p->left);
    p->top = sm_pane_scroll_to(cur_r, R, vis_r, p->top);
    attr_t sel_attr = sm_ui_attr(v->focus == SM_PANE_NETWORK ? SM_EL_CURSOR : SM_EL_HIGHLIGHT);
    for (int r = 0; r < vis_r && p->top + r < R; r++) {
        int row = p->top + r, y = map_top + r * rowh;
        for (int k = 0; k < vis_c && p->left + k < C; k++) {
            int col = p->left + k, xx = 1 + k * colw;
            int node = sm_link_map_node(m, plane, row, col);
            int is = has_sel && node == at;
            /* The node: its link to the next plane, if there is one. */
            double fr = 0;
            int lv = sm_link_map_next(m, node, SM_LINK_THROUGH) >= 0 ? level(c, cells, node, SM_LINK_THROUGH, &fr) : -1;
            if (xx + nw - 1 <= iw && y <= map_top + map_h - 1)
                draw_link(w, y, xx, nw, lv, fr, 0, is && axis == SM_LINK_THROUGH ? sel_attr : 0, 1);
            if (sm_link_map_next(m, node, SM_LINK_COL) >= 0 && (col + 1 < C || wrap_c) && xx + nw + lw - 1 <= iw) {
                lv = level(c, cells, node, SM_LINK_COL, &fr);
                draw_link(w, y, xx + nw, lw, lv, fr, 0, is && axis == SM_LINK_COL ? sel_attr : 0, 0);
            }
            if (rowh == 2 && sm_link_map_next(m, node, SM_LINK_ROW) >= 0 && (row + 1 < R || wrap_r) &&
                y + 1 <= map_top + map_h - 1 && xx + nw - 1 <= iw) {
                lv = level(c, cells, node, SM_LINK_ROW, &fr);
                draw_link(w, y + 1, xx, nw, lv, fr, 1, is && axis == SM_LINK_ROW ? sel_attr : 0, 0);
            }
        }
    }
    c->y0 = map_top;
    c->x0 = 1;
    c->nw = nw;
    c->lw = lw;
    c->top = p->top;
    c->left = p->left;
    c->plane = plane;

    if (!detail) return;
    int y = 1 + ih - detail;
    if (!has_sel) {
        sm_ui_text(w, y, 1, iw, sm_ui_attr(SM_EL_DIM), "arrows pick a link, Enter turns it, < > plane, :view link busiest%s",
                   m->wrap ? "; torus wrap links at the right and bottom" : "");
        return;
    }
    draw_detail(w, y, ih, iw, c, app, cells);
}

/* "view link A B" (or "view link A board") for the link at node along axis. */
static int link_cmd(const net_cache *c, int node, int axis, sm_words *cmd)
{
    int to = sm_link_map_next(&c->m, node, axis);
    if (to < 0) return 0;
    sm_words_lit(cmd, "view link");
    sm_words_addf(cmd, "%d", node);
    if (c->m.haec && axis == SM_LINK_THROUGH) sm_words_lit(cmd, "board");
    else sm_words_addf(cmd, "%d", to);
    return 1;
}

/* Enter turns the selection to the node's next link: column, row, through. */
static int activate(sm_pane *p, sm_app *app, const sm_frame *f, sm_words *cmd)
{
    (void)f;
    const net_cache *c = p->priv;
    if (!c || !c->ok || c->tree) return 0;
    int at, axis;
    if (!selected(app->view, &c->m, &at, &axis)) {
        at = sm_link_map_node(&c->m, c->plane, 0, 0);
        axis = SM_LINK_AXES - 1;
    }
    for (int i = 1; i <= SM_LINK_AXES; i++)
        if (link_cmd(c, at, (axis + i) % SM_LINK_AXES, cmd)) return 1;
    return 0;
}

static int click(sm_pane *p, sm_app *app, const sm_frame *f, int y, int x, sm_words *cmds)
{
    (void)app; (void)f;
    const net_cache *c = p->priv;
    if (c && c->ok && c->tree) {
        for (int L = 0; L < c->nlevels; L++) {
            int nl = (c->groups[L] + c->tw - 1) / c->tw, k = y - c->row0[L], i = k * c->tw + x - 10;
            if (k < 0 || k >= nl || x < 10 || x - 10 >= c->tw || i >= c->groups[L]) continue;
            sm_words_lit(&cmds[0], "view link level");
            sm_words_addf(&cmds[0], "%d", L);
            sm_words_addf(&cmds[0], "%d", i);
            return 1;
        }
        return 0;
    }
    if (!c || !c->ok || y < c->y0 || x < c->x0) return 0;
    int rowh = c->m.rows > 1 ? 2 : 1, colw = c->nw + c->lw;
    int r = c->top + (y - c->y0) / rowh, k = c->left + (x - c->x0) / colw;
    if (r >= c->m.rows || k >= c->m.cols) return 0;
    int node = sm_link_map_node(&c->m, c->plane, r, k);
    int in_node = (x - c->x0) % colw < c->nw, on_row = (y - c->y0) % rowh == 0;
    int axis = !on_row ? SM_LINK_ROW : in_node ? SM_LINK_THROUGH : SM_LINK_COL;
    if (!on_row && !in_node) return 0;
    return link_cmd(c, node, axis, &cmds[0]);
}

static void release(sm_pane *p)
{
    net_cache *c = p->priv;
    if (!c) return;
    free_pairs(c);
    free_tree(c);
    free(c->loads);
    free(c->traffic);
    free(c);
    p->priv = NULL;
}

const sm_pane_ops sm_pane_network = {
    .deps = SM_DEP_MAPPING | SM_DEP_SESSION | SM_DEP_VIEW,
    .draw = draw, .activate = activate, .click = click, .release = release,
};
