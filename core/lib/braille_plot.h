/* braille_plot.h - a scatter plot as text: braille cells (2x4 dots each),
 * for terminals, batch output and the Study pane. No curses here. */
#ifndef SM_BRAILLE_PLOT_H
#define SM_BRAILLE_PLOT_H

typedef struct sm_plot {
    int width, height;         /* in character cells */
    double xmin, xmax, ymin, ymax;
    unsigned char *dots;       /* width*height braille bit masks */
    unsigned char *marks;      /* width*height: 1 where a reference point is */
    signed char *series;       /* width*height: series of the cell's points,
                                  -1 none, -2 several (glyph plots) */
    int glyphs;                /* draw a glyph a series instead of braille */
} sm_plot;

/* Series glyphs, in order; SM_PLOT_NGLYPHS of them, then they repeat. */
#define SM_PLOT_NGLYPHS 8
extern const char *const sm_plot_glyph[SM_PLOT_NGLYPHS];

/* Fit the ranges to the points (non-finite points are ignored). */
void sm_plot_init(sm_plot *pl, int width, int height, const double *x,
                  const double *y, int n);
void sm_plot_free(sm_plot *pl);
/* The dot for (x, y): column 0..2*width-1, row 0..4*height-1 from the top.
 * Returns 0 when the point is outside the ranges or not finite. */
int sm_plot_dot(const sm_plot *pl, double x, double y, int *col, int *row);
void sm_plot_point(sm_plot *pl, double x, double y);
/* A point of series k (0-based): its cell shows the series' glyph, or '*'
 * when points of several series share it; sets glyphs. */
void sm_plot_series_point(sm_plot *pl, double x, double y, int k);
/* A reference point (a published optimum): its whole cell shows a mark
 * (U+25C6) instead of dots, or U+25C8 when a point of the plot is in the
 * cell too (a result that reached it). */
#define SM_PLOT_MARK "\xe2\x97\x86"
#define SM_PLOT_REACHED "\xe2\x97\x88"
void sm_plot_mark(sm_plot *pl, double x, double y);
/* The cells as UTF-8 lines (U+2800 + mask; blank cells are U+2800),
 * with a y label column and an x axis line; caller frees. */
char *sm_plot_text(const sm_plot *pl, const char *xlabel, const char *ylabel);

#endif
