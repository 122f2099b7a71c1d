/* braille_plot.c - braille scatter plots as text. */
#include "core/lib/units.h"
#include "braille_plot.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/lib/strbuf.h"
#include "core/lib/util.h"

void sm_plot_init(sm_plot *pl, int width, int height, const double *x,
                  const double *y, int n)
{
    memset(pl, 0, sizeof *pl);
    pl->width = width < 4 ? 4 : width;
    pl->height = height < 2 ? 2 : height;
    pl->dots = sm_xcalloc((size_t)pl->width * (size_t)pl->height, 1);
    pl->marks = sm_xcalloc((size_t)pl->width * (size_t)pl->height, 1);
    pl->series = sm_xmalloc((size_t)pl->width * (size_t)pl->height);
    memset(pl->series, -1, (size_t)pl->width * (size_t)pl->height);
    pl->xmin = pl->ymin = INFINITY;
    pl->xmax = pl->ymax = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i])) continue;
        pl->xmin = fmin(pl->xmin, x[i]);
        pl->xmax = fmax(pl->xmax, x[i]);
        pl->ymin = fmin(pl->ymin, y[i]);
        pl->ymax = fmax(pl->ymax, y[i]);
    }
    if (pl->xmin > pl->xmax) pl->xmin = 0, pl->xmax = 1;
    if (pl->ymin > pl->ymax) pl->ymin = 0, pl->ymax = 1;
    /* A single value still needs a span to place it in the middle. */
    if (pl->xmin == pl->xmax) pl->xmin -= 0.5, pl->xmax += 0.5;
    if (pl->ymin == pl->ymax) pl->ymin -= 0.5, pl->ymax += 0.5;
}

void sm_plot_free(sm_plot *pl)
{
    free(pl->dots);
    free(pl->marks);
    free(pl->series);
    pl->dots = pl->marks = NULL;
    pl->series = NULL;
}

int sm_plot_dot(const sm_plot *pl, double x, double y, int *col, int *row)
{
    if (!isfinite(x) || !isfinite(y) || x < pl->xmin || x > pl->xmax ||
        y < pl->ymin || y > pl->ymax)
        return 0;
    int nc = 2 * pl->width, nr = 4 * pl->height;
    int c = (int)lround((x - pl->xmin) / (pl->xmax - pl->xmin) * (nc - 1));
    int r = (int)lround((pl->ymax - y) / (pl->ymax - pl->ymin) * (nr - 1));
    *col = c;
    *row = r;
    return 1;
}

/* Braille dot bits by (column in cell, row in cell). */
static const unsigned char braille_bit[2][4] = {{0x01, 0x02, 0x04, 0x40},
                                                {0x08, 0x10, 0x20, 0x80}};

void sm_plot_point(sm_plot *pl, double x, double y)
{
    int c, r;
    if (!sm_plot_dot(pl, x, y, &c, &r)) return;
    pl->dots[(r / 4) * pl->width + c / 2] |= braille_bit[c % 2][r % 4];
}

const char *const sm_plot_glyph[SM_PLOT_NGLYPHS] = {
    "\xe2\x97\x8f", "\xe2\x97\x8b", "\xe2\x96\xa0", "\xe2\x96\xa1",   /* filled/open circle, square */
    "\xe2\x96\xb2", "\xe2\x96\xb3", "\xe2\x96\xbc", "\xe2\x96\xbd"};  /* triangles up, down */

void sm_plot_series_point(sm_plot *pl, double x, double y, int k)
{
    int c, r;
    pl->glyphs = 1;
    if (!sm_plot_dot(pl, x, y, &c, &r)) return;
    int cell = (r / 4) * pl->width + c / 2;
    pl->dots[cell] |= braille_bit[c % 2][r % 4];
    int s = k % SM_PLOT_NGLYPHS;
    pl->series[cell] = pl->series[cell] == -1 || pl->series[cell] == s ? (signed char)s : -2;
}

void sm_plot_mark(sm_plot *pl, double x, double y)
{
    int c, r;
    if (!sm_plot_dot(pl, x, y, &c, &r)) return;
    pl->marks[(r / 4) * pl->width + c / 2] = 1;
}

static void put_braille(sm_strbuf *b, unsigned char mask)
{
    unsigned cp = 0x2800u + mask;
    char u[4] = {(char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)),
                 (char)(0x80 | (cp & 0x3F)), 0};
    sm_strbuf_put(b, "%s", u);
}

char *sm_plot_text(const sm_plot *pl, const char *xlabel, const char *ylabel)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    /* Energies and times by the number rule, with their unit (units.h);
     * other columns as numbers. */
    const char *yu = sm_unit_of(ylabel), *xu = sm_unit_of(xlabel);
    char ylo[32], yhi[32];
    if (yu) {
        sm_format_si(pl->ymin, yu, 4, ylo, sizeof ylo);
        sm_format_si(pl->ymax, yu, 4, yhi, sizeof yhi);
    } else {
        snprintf(ylo, sizeof ylo, "%.4g", pl->ymin);
        snprintf(yhi, sizeof yhi, "%.4g", pl->ymax);
    }
    sm_strbuf_put(&b, "%s\n", ylabel);
    for (int r = 0; r < pl->height; r++) {
        if (r == 0) sm_strbuf_put(&b, "%11s |", yhi);
        else if (r == pl->height - 1) sm_strbuf_put(&b, "%11s |", ylo);
        else sm_strbuf_put(&b, "%11s |", "");
        for (int c = 0; c < pl->width; c++) {
            int cell = r * pl->width + c;
            /* A result on a published point shows both: U+25C8. */
            if (pl->marks[cell])
                sm_strbuf_put(&b, "%s", pl->dots[cell] || pl->series[cell] != -1 ? SM_PLOT_REACHED : SM_PLOT_MARK);
            else if (!pl->glyphs) put_braille(&b, pl->dots[cell]);
            else if (pl->series[cell] == -1) sm_strbuf_put(&b, "%s", " ");
            else if (pl->series[cell] == -2) sm_strbuf_put(&b, "%s", "*");
            else sm_strbuf_put(&b, "%s", sm_plot_glyph[(int)pl->series[cell]]);
        }
        sm_strbuf_put(&b, "%s", "\n");
    }
    sm_strbuf_put(&b, "%11s +", "");
    for (int c = 0; c < pl->width; c++) sm_strbuf_put(&b, "%s", "-");
    /* The x range under the axis, the maximum ending at its right end;
     * a narrow plot gets fewer digits rather than a line past its edge. */
    char lo[32], hi[32];
    int pad = 0;
    for (int digits = 4; digits >= 1; digits--) {
        if (xu) {
            sm_format_si(pl->xmin, xu, digits, lo, sizeof lo);
            sm_format_si(pl->xmax, xu, digits, hi, sizeof hi);
        } else {
            snprintf(lo, sizeof lo, "%.*g", digits, pl->xmin);
            snprintf(hi, sizeof hi, "%.*g", digits, pl->xmax);
        }
        pad = pl->width - (int)strlen(lo) - (int)strlen(hi);
        if (pad >= 1) break;
    }
    sm_strbuf_put(&b, "\n%11s  %s%*s%s\n%11s  %s\n", "", lo, pad > 0 ? pad : 1, "", hi, "", xlabel);
    return b.s ? b.s : sm_xstrdup("");
}
