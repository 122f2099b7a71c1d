/* pane_pareto_front.c - the Solver pane's Pareto mode: when the solver returns a
 * front (popta -objective pareto or total), plot makespan against energy
 * with the model's deadline as a line, and list the points beside the
 * plot; a click on a row (or on a point) applies its distribution with
 * `map counts`. The point the session's mapping matches is marked. For
 * total two curves share the time axis, each scaled to its own range:
 * the dynamic-energy front (*) and the total-energy front derived from it
 * (+), whose points the table lists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/processor_time_energy.h"
#include "pane.h"

/* Where the last draw put the plot and the table: the Solver pane's
 * cache (p->priv), read back by clicks. */
typedef struct {
    int y, x, h, pw, tx, tw, top, n, nd, py, ph;
    double t0, t1, e0, e1, c0, c1;
} front_geo;

static front_geo *geo_of(sm_pane *p)
{
    if (!p->priv) p->priv = sm_xcalloc(1, sizeof(front_geo));
    return p->priv;
}

static int matches(const sm_app *app, const sm_part_point *pt, int P)
{
    const sm_cost *c = app->session->cost;
    for (int p = 0; p < P; p++)
        if (c->blocks[p] != pt->counts[p]) return 0;
    return 1;
}

/* Without a front: the processors' profiles, computation time against
 * blocks (measured, or from the cost model), each in its processor's
 * glyph, with the count the solver chose marked. */
static int profile_draw(WINDOW *w, int y, int x, int h, int width, const sm_app *app, const sm_partition *pt)
{
    const sm_topo *t = app->session->topo;
    const sm_grid *g = app->session->grid;
    int n = g->ntasks, P = t->nprocs, lw = 10, pw = width - lw, ph = h - 1;
    if (pw < 10 || n == 0) return 0;
    double cells = 0, tmax = 0;
    for (int u = 0; u < n; u++) cells += (double)g->task_cells[u];
    double avg = cells / n;
    int shown = P < 8 ? P : 8;
    for (int p = 0; p < shown; p++) {
        double tm, en;
        sm_proc_work(t, p, n, llround(n * avg), &tm, &en);
        if (tm > tmax) tmax = tm;
    }
    if (!(tmax > 0)) return 0;
    char b1[32];
    sm_ui_text(w, y, x, lw - 1, sm_ui_attr(SM_EL_DIM), "%s", sm_ui_seconds(tmax, b1, sizeof b1));
    sm_ui_text(w, y + ph - 1, x, lw - 1, sm_ui_attr(SM_EL_DIM), "0 s");
    sm_ui_text(w, y + ph, x + lw, pw, sm_ui_attr(SM_EL_DIM), "0 blocks");
    char right[32];
    snprintf(right, sizeof right, "%d blocks", n);
    sm_ui_text(w, y + ph, x + lw + pw - (int)strlen(right), (int)strlen(right), sm_ui_attr(SM_EL_DIM), "%s", right);
    for (int p = 0; p < shown; p++) {
        char gl[2] = {sm_ui_glyph(p), 0};
        for (int c = 0; c < pw; c++) {
            int b = (int)lround((double)c / (pw - 1) * n);
            double tm, en;
            int over = sm_proc_work(t, p, b, llround(b * avg), &tm, &en);
            if (over) break; /* beyond the measured sizes */
            int r = (int)lround((1 - tm / tmax) * (ph - 1));
            if (r >= 0 && r < ph) sm_ui_text(w, y + r, x + lw + c, 1, sm_ui_proc_attr(p), "%s", gl);
        }
        int b = pt->counts[p];
        double tm, en;
        sm_proc_work(t, p, b, llround(b * avg), &tm, &en);
        int c = (int)lround((double)b / n * (pw - 1)), r = (int)lround((1 - tm / tmax) * (ph - 1));
        if (r >= 0 && r < ph) sm_ui_text(w, y + r, x + lw + c, 1, sm_ui_attr(SM_EL_HIGHLIGHT), "@");
    }
    return h;
}

/* The row of a value v in [lo, hi] on a plot of ph rows (hi at the top). */
static int row_of(double v, double lo, double hi, int ph)
{
    return (int)lround((hi - v) / (hi - lo) * (ph - 1));
}

int sm_front_draw(sm_pane *pane, int y, int x, int h, int width, const sm_app *app, const sm_solver *s)
{
    WINDOW *w = pane->win;
    const sm_partition *pt = s ? s->partition : NULL;
    front_geo *g = geo_of(pane);
    if (!g) return 0;
    g->n = 0;
    if (!pt || pt->time < 0 || h < 4 || width < 30) return 0;
    if (!pt->has_front) return profile_draw(w, y, x, h, width, app, pt);
    if (pt->nfront == 0) return 0;
    int n = pt->nfront, P = pt->nprocs, two = pt->has_total && pt->ndyn > 0;
    /* The dynamic front: the objective's own for pareto, the one the
     * total front comes from for total (it spans every point's time). */
    const sm_part_point *dyn = two ? pt->dyn : pt->front;
    int nd = two ? pt->ndyn : n;
    double t0 = dyn[0].time, t1 = dyn[nd - 1].time;
    double e1 = dyn[0].energy, e0 = dyn[nd - 1].energy;
    double c0 = INFINITY, c1 = -INFINITY;
    for (int i = 0; i < n; i++) {
        c0 = fmin(c0, pt->front[i].total);
        c1 = fmax(c1, pt->front[i].total);
    }
    const sm_model *m = &app->session->model;
    if (m->has_deadline) { t0 = fmin(t0, m->deadline); t1 = fmax(t1, m->deadline); }
    if (t1 <= t0) t1 = t0 + 1e-12;
    if (e1 <= e0) e1 = e0 + 1e-12;
    if (c1 <= c0) c1 = c0 + 1e-12;
    /* Energy labels in a left margin, time labels under the plot; with two
     * curves a legend on the first row gives both ranges. The table takes
     * what its widest counts need (they were cut to one character
     * unzoomed), the plot the rest, at least 10 columns. */
    int lw = 10, cmax = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        for (int p = 0; p < P; p++) len += snprintf(NULL, 0, "%s%d", p ? "," : "", pt->front[i].counts[p]);
        if (len > cmax) cmax = len;
    }
    int need = 3 + 12 + 11 + (two ? 11 : 0) + (cmax > 6 ? cmax : 6);
    int tw = need < width - lw - 11 ? need : width - lw - 11, pw = width - lw - tw - 1;
    if (pw > width * 11 / 20 - lw) { /* room to spare: the plot as before, the table wider */
        pw = width * 11 / 20 - lw;
        tw = width - lw - pw - 1;
    }
    if (pw < 10) return 0;
    int px = x + lw, py = y + two, ph = h - 1 - two;
    if (ph < 2) return 0;
    *g = (front_geo){y, px, h, pw, px + pw + 1, tw, 0, n, two ? nd : 0, py, ph, t0, t1, e0, e1, c0, c1};
    char b1[32], b2[32], b3[32], b4[32];
    if (two)
        sm_ui_text(w, y, x, lw + pw, sm_ui_attr(SM_EL_DIM), "* dynamic %s..%s  + total %s..%s",
                   sm_ui_joules(e0, b1, sizeof b1), sm_ui_joules(e1, b2, sizeof b2), sm_ui_joules(c0, b3, sizeof b3),
                   sm_ui_joules(c1, b4, sizeof b4));
    sm_ui_text(w, py, x, lw - 1, sm_ui_attr(SM_EL_DIM), "%s", sm_ui_joules(e1, b1, sizeof b1));
    sm_ui_text(w, py + ph - 1, x, lw - 1, sm_ui_attr(SM_EL_DIM), "%s", sm_ui_joules(e0, b1, sizeof b1));
    /* The axis labels never overwrite one another: the right one only
     * where it clears the left, "deadline" only in the gap between. */
    const char *left = sm_ui_seconds(t0, b1, sizeof b1), *right = sm_ui_seconds(t1, b2, sizeof b2);
    if ((int)(strlen(left) + strlen(right)) >= pw) { /* narrow: 3 digits */
        left = sm_ui_si(t0, "s", 3, b1, sizeof b1);
        right = sm_ui_si(t1, "s", 3, b2, sizeof b2);
    }
    int ll = (int)strlen(left);
    sm_ui_text(w, py + ph, px, pw, sm_ui_attr(SM_EL_DIM), "%s", left);
    int rl = (int)strlen(right), rx = px + pw - rl;
    if (rx > px + ll) sm_ui_text(w, py + ph, rx, rl, sm_ui_attr(SM_EL_DIM), "%s", right);
    else rx = px + pw;
    if (m->has_deadline) {
        int dx = px + (int)lround((m->deadline - t0) / (t1 - t0) * (pw - 1));
        for (int r = 0; r < ph; r++)
            sm_ui_text(w, py + r, dx, 1, sm_ui_attr(SM_EL_DEADLINE), "|");
        if (dx > px + ll && dx + 8 < rx) sm_ui_text(w, py + ph, dx, 8, sm_ui_attr(SM_EL_DEADLINE), "deadline");
    }
    /* The total curve first, the dynamic one over it; the applied point
     * marked @ on both. */
    if (two)
        for (int i = 0; i < n; i++) {
            int cx = px + (int)lround((pt->front[i].time - t0) / (t1 - t0) * (pw - 1));
            int on = matches(app, &pt->front[i], P);
            sm_ui_text(w, py + row_of(pt->front[i].total, c0, c1, ph), cx, 1,
                       sm_ui_attr(on ? SM_EL_HIGHLIGHT : SM_EL_E_STATIC), "%s", on ? "@" : "+");
        }
    for (int i = 0; i < nd; i++) {
        int cx = px + (int)lround((dyn[i].time - t0) / (t1 - t0) * (pw - 1));
        int on = matches(app, &dyn[i], P);
        sm_ui_text(w, py + row_of(dyn[i].energy, e0, e1, ph), cx, 1,
                   sm_ui_attr(on ? SM_EL_HIGHLIGHT : two ? SM_EL_E_DYNAMIC : SM_EL_GOOD), "%s", on ? "@" : "*");
    }
    /* Table: the applied point kept in view. */
    int rows = h - 1, sel = -1;
    for (int i = 0; i < n; i++)
        if (matches(app, &pt->front[i], P)) sel = i;
    int top = sel >= rows ? sel - rows + 1 : 0;
    g->top = top;
    sm_ui_text(w, y, g->tx, tw, sm_ui_attr(SM_EL_HEADER),
               two ? " #  time        dynamic    total      counts" : " #  time        energy     counts");
    for (int r = 0; r < rows && top + r < n; r++) {
        const sm_part_point *q = &pt->front[top + r];
        char counts[128];
        int len = 0;
        counts[0] = 0;
        for (int p = 0; p < P && len < (int)sizeof counts - 12; p++)
            len += snprintf(counts + len, sizeof counts - (size_t)len, "%s%d", p ? "," : "", q->counts[p]);
        /* Counts wider than the table give way in the middle. */
        char shown[128];
        sm_ui_elide(counts, tw - (two ? 37 : 26) > 3 ? tw - (two ? 37 : 26) : 3, shown, sizeof shown);
        int meets = sm_model_meets_deadline(m, q->time);
        int attr = sm_ui_attr(top + r == sel ? SM_EL_CURSOR : meets ? SM_EL_TEXT : SM_EL_DIM);
        if (two)
            sm_ui_text(w, y + 1 + r, g->tx, tw, attr, "%2d %-11s %-10s %-10s %s", top + r,
                       sm_ui_seconds(q->time, b1, sizeof b1), sm_ui_joules(q->energy, b2, sizeof b2),
                       sm_ui_joules(q->total, b3, sizeof b3), shown);
        else
            sm_ui_text(w, y + 1 + r, g->tx, tw, attr, "%2d %-11s %-10s %s", top + r,
                       sm_ui_seconds(q->time, b1, sizeof b1), sm_ui_joules(q->energy, b2, sizeof b2), shown);
    }
    return h;
}

static void counts_cmd(const sm_part_point *q, int P, sm_words *cmd)
{
    char buf[4096];
    int len = 0;
    buf[0] = 0;
    for (int p = 0; p < P && len < (int)sizeof buf - 16; p++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%d", p ? " " : "", q->counts[p]);
    sm_words_lit(cmd, "map counts");
    sm_words_add(cmd, buf); /* numbers only: one list word */
}

int sm_front_click(sm_pane *pane, const sm_app *app, int y, int x, sm_words *cmd)
{
    const sm_partition *pt = app->solver ? app->solver->partition : NULL;
    const front_geo *g = pane->priv;
    if (!g || !g->n || !pt || !pt->has_front || pt->nfront != g->n || (g->nd && pt->ndyn != g->nd)) return 0;
    if (x >= g->tx && y > g->y && y < g->y + g->h) {
        int i = g->top + y - g->y - 1;
        if (i >= g->n) return 0;
        counts_cmd(&pt->front[i], pt->nprocs, cmd);
        return 1;
    }
    if (x >= g->x && x < g->x + g->pw && y >= g->py && y < g->py + g->ph) {
        /* The point nearest the click, in plot cells, on either curve. */
        const sm_part_point *best = NULL;
        double bd = 1e300;
        for (int c = 0; c < (g->nd ? 2 : 1); c++) {
            const sm_part_point *list = c ? pt->dyn : pt->front;
            int cnt = c ? g->nd : g->n, total = g->nd && !c;
            for (int i = 0; i < cnt; i++) {
                double cx = (list[i].time - g->t0) / (g->t1 - g->t0) * (g->pw - 1);
                double cy = total ? (g->c1 - list[i].total) / (g->c1 - g->c0) * (g->ph - 1)
                                  : (g->e1 - list[i].energy) / (g->e1 - g->e0) * (g->ph - 1);
                double d = hypot(cx - (x - g->x), 2 * (cy - (y - g->py)));
                if (d < bd) { bd = d; best = &list[i]; }
            }
        }
        if (!best || bd > 4) return 0;
        counts_cmd(best, pt->nprocs, cmd);
        return 1;
    }
    return 0;
}
