/* pane_study.c - the Study pane: a merged study (`view study DIR`) as a
 * scatter plot of one column against another, one glyph and colour a
 * series (a value of the -by column, solver by default), with the
 * published Table 6.4 optima marked when the axes are deadline and
 * energy. The plot is core/study/study_table.c's (the one `study plot` prints);
 * this file only places its lines, colours its series and writes the
 * legend. It stands in for the Solver pane while a study is loaded; c, y
 * and b cycle the columns (view study cycle x|y|by). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/study/study_table.h"
#include "pane.h"

/* Colours of the series, in order, then they repeat with the glyphs. */
static const sm_element series_el[SM_PLOT_NGLYPHS] = {
    SM_EL_GOOD, SM_EL_E_INTER, SM_EL_E_DYNAMIC, SM_EL_BAD,
    SM_EL_E_STATIC, SM_EL_E_INTRA, SM_EL_E_IDLE, SM_EL_HIGHLIGHT};

/* Without UTF-8 the plot's characters become ASCII: braille dots '.',
 * the published mark '@', the series glyphs letters. */
static const char ascii_glyph[SM_PLOT_NGLYPHS + 1] = "ox#+^%v=";

static unsigned decode(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    unsigned cp = p[0];
    int n = 1;
    if (cp >= 0xF0) cp &= 0x07, n = 4;
    else if (cp >= 0xE0) cp &= 0x0F, n = 3;
    else if (cp >= 0xC0) cp &= 0x1F, n = 2;
    for (int i = 1; i < n && (p[i] & 0xC0) == 0x80; i++) cp = (cp << 6) | (p[i] & 0x3F);
    *s += n;
    return cp;
}

static char ascii_of(unsigned cp, const char *utf8)
{
    if (cp < 0x80) return (char)cp;
    if (cp == 0x2800) return ' ';
    if (cp > 0x2800 && cp <= 0x28FF) return '.';
    if (cp == 0x25C6) return '@';
    if (cp == 0x25C8) return '&';
    for (int k = 0; k < SM_PLOT_NGLYPHS; k++)
        if (strncmp(utf8, sm_plot_glyph[k], strlen(sm_plot_glyph[k])) == 0) return ascii_glyph[k];
    return '?';
}

/* One line of the plot at (y, x), at most width columns, as the terminal
 * can show it. */
static void put_line(WINDOW *w, int y, int x, int width, const char *s, size_t len, int utf8, attr_t a)
{
    wattrset(w, a);
    wmove(w, y, x);
    const char *end = s + len;
    for (int col = 0; s < end && col < width; col++) {
        const char *start = s;
        unsigned cp = decode(&s);
        if (utf8) waddnstr(w, start, (int)(s - start));
        else waddch(w, (chtype)(unsigned char)ascii_of(cp, start));
    }
    wattrset(w, A_NORMAL);
}

static void glyph_text(char *buf, size_t n, int k, int utf8)
{
    if (utf8) snprintf(buf, n, "%s", sm_plot_glyph[k % SM_PLOT_NGLYPHS]);
    else snprintf(buf, n, "%c", ascii_glyph[k % SM_PLOT_NGLYPHS]);
}

/* The legend as items "G label" from (y, x): one a line when
 * one_per_line, else wrapped into width. Returns the lines used
 * (counting only, without drawing, when w is NULL). */
static int legend(WINDOW *w, int y, int x, int width, int maxlines, const sm_study_legend *lg, const char *by,
                  int several, int utf8, int one_per_line)
{
    int line = 0, col = 0, nitems = lg->nseries + (several ? 1 : 0) + (lg->nref ? 2 : 0);
    for (int i = 0; i < nitems && line < maxlines; i++) {
        char g[8], text[160];
        sm_element el;
        if (i < lg->nseries) {
            glyph_text(g, sizeof g, i, utf8);
            snprintf(text, sizeof text, "%s %s", by, lg->label[i]);
            el = series_el[i % SM_PLOT_NGLYPHS];
        } else if (i == lg->nseries && several) {
            snprintf(g, sizeof g, "*");
            snprintf(text, sizeof text, "several");
            el = SM_EL_TEXT;
        } else if (i == nitems - 2) {
            snprintf(g, sizeof g, "%s", utf8 ? SM_PLOT_MARK : "@");
            snprintf(text, sizeof text, "published optimum (Table 6.4)");
            el = SM_EL_DEADLINE;
        } else {
            snprintf(g, sizeof g, "%s", utf8 ? SM_PLOT_REACHED : "&");
            snprintf(text, sizeof text, "a result on it");
            el = SM_EL_GOOD;
        }
        int need = 2 + (int)strlen(text);
        if (!one_per_line && col > 0 && col + need > width) line++, col = 0;
        if (line >= maxlines) break;
        if (w) {
            put_line(w, y + line, x + col, 1, g, strlen(g), utf8, sm_ui_attr(el));
            /* Labels are often paths: keep their head and tail. */
            char shown[160];
            sm_ui_elide(text, width - col - 2, shown, sizeof shown);
            sm_ui_text(w, y + line, x + col + 2, width - col - 2, sm_ui_attr(SM_EL_TEXT), "%s", shown);
        }
        if (one_per_line) line++;
        else col += need + 2;
    }
    return line + (col > 0 ? 1 : 0);
}

#define YLABEL_W 13   /* sm_plot_text's label column: "%11.4g |" */

static void draw(sm_pane *p, sm_app *app, const sm_frame *f)
{
    const sm_view *v = app->view;
    const sm_study_table *t = v->study;
    WINDOW *w = p->win;
    werase(w);
    sm_ui_frame(p, app, "Study");
    int iw = p->w - 2, ih = p->h - 2;
    if (!t || iw < 24 || ih < 3) return;
    const char *xn = t->col[v->study_x].name, *yn = t->col[v->study_y].name;
    const char *bn = v->study_by >= 0 ? t->col[v->study_by].name : NULL;
    const char *base = strrchr(v->study_source, '/');
    base = base && base[1] ? base + 1 : v->study_source;
    sm_ui_text(w, 1, 1, iw, sm_ui_attr(SM_EL_HEADER), "%s against %s%s%s  %d jobs  %s", yn, xn, bn ? " by " : "",
               bn ? bn : "", t->nrows, base);

    /* Legend to the right when there is room for a readable plot beside
     * it, else wrapped below. A first pass sizes it. */
    sm_plot pl;
    sm_study_legend lg;
    sm_study_table_plot(t, v->study_x, v->study_y, v->study_by, v->study_published, 4, 2, &pl, &lg);
    int several = lg.nseries > 1;
    int lw = 0;
    for (int k = 0; k < lg.nseries; k++) {
        int n = 4 + (int)strlen(bn ? bn : "") + (int)strlen(lg.label[k]);
        if (n > lw) lw = n;
    }
    if (lg.nref && lw < 33) lw = 33;
    int lmax = iw * 2 / 5 > 40 ? iw * 2 / 5 : 40;
    if (lw > lmax) lw = lmax;
    int right = iw - lw - 1 >= YLABEL_W + 24 && lg.nseries + 4 <= ih - 1;
    int below = right ? 0 : legend(NULL, 0, 0, iw, ih, &lg, bn ? bn : "", several, f->utf8, 0);
    sm_plot_free(&pl);
    sm_study_legend_free(&lg);

    /* Lines: the header, the plot rows, the axis and the x range; the y
     * and x label lines (the header names both) and legend lines below
     * give way, in that order, so a small pane still plots. */
    int pw = (right ? iw - lw - 1 : iw) - YLABEL_W;
    int avail = ih - 3, labels = 1;
    if (avail - 2 - below < 4) labels = 0;
    if (!labels && avail - below < 3) below = avail - 3 > 0 ? avail - 3 : 0;
    int ph = avail - below - (labels ? 2 : 0);
    if (ph < 2 || pw < 8) {
        sm_ui_text(w, 2, 1, iw, sm_ui_attr(SM_EL_DIM), "too small for the plot: z zooms");
        return;
    }
    sm_study_table_plot(t, v->study_x, v->study_y, v->study_by, v->study_published, pw, ph, &pl, &lg);
    char *text = sm_plot_text(&pl, xn, yn);
    int y = 2, line = 0, top = labels ? 3 : 2;   /* top: the first plot row */
    for (const char *s = text; *s && y <= ih; line++) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        int label = line == 0 || line == ph + 3;
        if (labels || !label)
            put_line(w, y++, 1, iw, s, len, f->utf8, sm_ui_attr(line == 0 ? SM_EL_HEADER : SM_EL_TEXT));
        s += len + (nl ? 1 : 0);
    }
    /* Colour each series' cells, and the published marks. */
    for (int r = 0; r < pl.height; r++)
        for (int c = 0; c < pl.width; c++) {
            int cell = r * pl.width + c;
            attr_t a;
            /* A result on a published optimum (the plot drew it U+25C8):
             * in the series' colour. */
            if (pl.marks[cell] && (pl.series[cell] != -1 || pl.dots[cell]))
                a = (pl.series[cell] >= 0 ? sm_ui_attr(series_el[(int)pl.series[cell]]) : sm_ui_attr(SM_EL_GOOD)) | A_BOLD;
            else if (pl.marks[cell]) a = sm_ui_attr(SM_EL_DEADLINE) | A_BOLD;
            else if (pl.series[cell] >= 0) a = sm_ui_attr(series_el[(int)pl.series[cell]]);
            else continue;
            mvwchgat(w, top + r, 1 + YLABEL_W + c, 1, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL);
        }
    if (lg.npoints == 0)
        sm_ui_text(w, top + ph / 2, 1 + YLABEL_W + 1, pw - 2, sm_ui_attr(SM_EL_BAD), "no row has numbers for both %s and %s",
                   xn, yn);
    if (right) legend(w, top, iw - lw + 1, lw, ih - 2, &lg, bn ? bn : "", several, f->utf8, 1);
    else if (below > 0) legend(w, ih - below + 1, 1, iw, below, &lg, bn ? bn : "", several, f->utf8, 0);
    free(text);
    sm_plot_free(&pl);
    sm_study_legend_free(&lg);
}

const sm_pane_ops sm_pane_study = {.deps = SM_DEP_VIEW, .draw = draw};
