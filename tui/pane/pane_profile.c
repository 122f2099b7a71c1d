/* pane_profile.c - the Profile pane: a processor type's measured profile
 * (seconds per iteration against blocks) as a braille plot, each point's
 * Student-t interval a bar of dots, its mean a mark, the fitted line
 * dotted; under it the points as rows (blocks, mean, half-width, reps,
 * whether it met eps); while `topo measure` runs in the background the
 * point, size, repetition and interval being measured, point by point as
 * they finish. It stands in for the Energy pane (view focus profile;
 * topo measure shows it when it starts). A measured profile that is not
 * smooth shows its steps: the points are plotted as measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/braille_plot.h"
#include "pane.h"

/* One braille cell (mask) as UTF-8, or an ASCII stand-in. */
static void put_cell(WINDOW *w, unsigned mask, int mark, int utf8, attr_t a)
{
    wattrset(w, a);
    if (mark) {
        if (utf8) waddstr(w, SM_PLOT_MARK);
        else waddch(w, 'o');
    } else if (utf8 && mask) {
        char b[4] = {(char)0xE2, (char)(0xA0 | (mask >> 6)), (char)(0x80 | (mask & 0x3F)), 0};
        waddstr(w, b);
    } else {
        waddch(w, mask && !utf8 ? '.' : ' ');
    }
    wattrset(w, A_NORMAL);
}

/* Draws the plot; *xmax, *ymax get its ranges' tops (from 0). */
static void plot(WINDOW *w, int y0, int x0, int width, int height, const sm_profile_view *pv, int utf8,
                 double *xmax, double *ymax)
{
    int n = pv->n;
    double *x = malloc(sizeof(double) * (size_t)(3 * n + 1)), *y = malloc(sizeof(double) * (size_t)(3 * n + 1));
    if (!x || !y) {
        free(x);
        free(y);
        return;
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
        const sm_profile_view_pt *p = &pv->pt[k];
        double v[3] = {p->mean, isfinite(p->low) ? p->low : p->mean, isfinite(p->high) ? p->high : p->mean};
        for (int q = 0; q < 3; q++) x[m] = p->blocks, y[m++] = v[q];
    }
    sm_plot pl;
    sm_plot_init(&pl, width, height, x, y, m);
    if (pl.ymin > 0) pl.ymin = 0;
    if (pl.xmin > 0) pl.xmin = 0;
    for (int k = 0; k < n; k++) {
        double a = y[3 * k + 1], z = y[3 * k + 2];
        for (int s = 0; s <= 4 * height; s++) sm_plot_point(&pl, pv->pt[k].blocks, a + (z - a) * s / (4.0 * height));
    }
    if (pv->time_per_cell > 0 && pv->cells > 0)
        for (int s = 0; s <= 8 * width; s++) {
            double bx = pl.xmin + (pl.xmax - pl.xmin) * s / (8.0 * width);
            sm_plot_point(&pl, bx, pv->time_per_cell * pv->cells * bx);
        }
    for (int k = 0; k < n; k++) sm_plot_mark(&pl, pv->pt[k].blocks, pv->pt[k].mean);
    for (int r = 0; r < height; r++) {
        wmove(w, y0 + r, x0);
        for (int c = 0; c < width; c++) {
            int cell = r * width + c;
            put_cell(w, pl.dots[cell], pl.marks[cell], utf8,
                     pl.marks[cell] ? sm_ui_attr(SM_EL_HIGHLIGHT) : sm_ui_attr(SM_EL_TEXT));
        }
    }
    *xmax = pl.xmax;
    *ymax = pl.ymax;
    sm_plot_free(&pl);
    free(x);
    free(y);
}

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_profile_view *pv = &app->view->profile;
    WINDOW *w = p->win;
    werase(w);
    sm_ui_frame(p, app, "Profile");
    int iw = p->w - 2, ih = p->h - 2;
    if (iw < 12 || ih < 2) return;
    int y = 1;
    if (!pv->type[0]) {
        sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_DIM), "no profile: topo measure, or view profile TYPE|FILE");
        return;
    }
    int met = 0, known = 0;
    for (int k = 0; k < pv->n; k++) {
        met += pv->pt[k].tight == 1;
        known += pv->pt[k].tight >= 0;
    }
    char head[200];
    if (known) snprintf(head, sizeof head, "%s  %d points, %d met eps", pv->type, pv->n, met);
    else snprintf(head, sizeof head, "%s  %d points", pv->type, pv->n);
    sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s", head);
    if (y > ih) return;
    if (pv->running) {
        sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_TEXT), "measuring %d/%d: %d blocks rep %d/%d %.3g s +-%.1f%%",
                   pv->point + 1, pv->npoints, pv->blocks, pv->rep, pv->reps_max, pv->mean,
                   pv->mean > 0 && isfinite(pv->half) ? 100 * pv->half / pv->mean : 100.0);
    } else {
        sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_DIM), "%s%s", pv->from, pv->interrupted ? " (interrupted)" : "");
    }
    if (y > ih || pv->n == 0) return;
    /* Rows under the plot: as many points as fit when the pane is short,
     * the plot gets the rest (at least 3 lines). */
    int left = ih - y + 1;
    int rows = pv->n + 1 <= left - 3 ? pv->n + 1 : left >= 7 ? left / 2 : 0;
    int ph = left - rows - (left - rows >= 4);
    if (ph >= 2 && iw >= 14) {
        double xmax = 0, ymax = 0;
        plot(w, y, 1, iw, ph, pv, f->utf8, &xmax, &ymax);
        y += ph;
        if (left - rows >= 4 && y <= ih) {
            char ys[32];
            sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_DIM), "x 0-%g blocks, y 0-%s/iter; %s mean, dots interval%s",
                       xmax, sm_ui_seconds(ymax, ys, sizeof ys), f->utf8 ? SM_PLOT_MARK : "o",
                       pv->time_per_cell > 0 && pv->cells > 0 ? ", fit" : "");
        }
    }
    if (rows < 2 || y > ih) return;
    sm_ui_text(w, y++, 1, iw, sm_ui_attr(SM_EL_HEADER), "%6s %10s %7s %5s %s", "blocks", "s/iter", "+-%", "reps", "eps");
    /* The newest points when not all fit. */
    int first = pv->n - (ih - y + 1);
    if (first < 0) first = 0;
    for (int k = first; k < pv->n && y <= ih; k++) {
        const sm_profile_view_pt *q = &pv->pt[k];
        char half[16];
        if (isfinite(q->high) && q->mean > 0) snprintf(half, sizeof half, "%.2f", 100 * (q->high - q->mean) / q->mean);
        else snprintf(half, sizeof half, "-");
        sm_ui_text(w, y++, 1, iw, sm_ui_attr(q->tight == 0 ? SM_EL_BAD : SM_EL_TEXT), "%6d %10.4g %7s %5d %s",
                   q->blocks, q->mean, half, q->reps, q->tight == 1 ? "met" : q->tight == 0 ? "NOT met" : "-");
    }
}

const sm_pane_ops sm_pane_profile = {
    .deps = SM_DEP_VIEW | SM_DEP_SESSION,
    .draw = draw,
};
