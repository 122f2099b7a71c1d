/* study_table.h - a merged study held as a table of text cells (one row a
 * job, one column a key), with the numbers parsed once, and its plot: one
 * column against another, one series a value of a third, the published
 * optima beside them. No Tcl and no curses: the command layer fills it,
 * the Study pane and `study plot` draw it. */
#ifndef SM_STUDY_TABLE_H
#define SM_STUDY_TABLE_H

#include "core/lib/braille_plot.h"

typedef struct sm_study_column {
    char *name;
    char **text;     /* per row; NULL where the row lacks the key */
    double *num;     /* per row; NAN where the cell is not a number */
} sm_study_column;

typedef struct sm_study_table {
    int nrows, ncols;
    int cap_rows, cap_cols;
    sm_study_column *col;
} sm_study_table;

sm_study_table *sm_study_table_new(void);
void sm_study_table_free(sm_study_table *t);
/* A new empty row; returns its index. */
int sm_study_table_add_row(sm_study_table *t);
/* The column named name, or -1. */
int sm_study_table_column(const sm_study_table *t, const char *name);
/* Sets (row, name) to text; the column is added (first-seen order) when
 * new. The number is parsed from text: a whole decimal or float, else NAN. */
void sm_study_table_set(sm_study_table *t, int row, const char *name, const char *text);
/* Cells of the column holding a finite number. */
int sm_study_table_numbers(const sm_study_table *t, int col);

/* What a plot drew: the series labels in first-seen order (by column's
 * text; "-" for rows without it) and counts. */
typedef struct sm_study_legend {
    int nseries;
    char **label;
    int npoints;     /* rows with numbers in both x and y */
    int nref;        /* published optima marked */
} sm_study_legend;

/* Plots column y against column x in a width x height cell plot: one glyph
 * series per value of column by (by < 0: plain braille dots; a column
 * past the table, or a row without it: the series "-"), and when
 * published is set and the axes are deadline and energy, the Table 6.4
 * optima (published_deadline_sweep_optima.h) of the scenarios the rows name, as marks. The
 * ranges hold both. Caller frees pl and lg. */
void sm_study_table_plot(const sm_study_table *t, int x, int y, int by, int published,
                         int width, int height, sm_plot *pl, sm_study_legend *lg);
void sm_study_legend_free(sm_study_legend *lg);

/* The published optima (deadline, energy) of the distinct scenario
 * samples the rows name; returns how many (caller frees *px, *py). */
int sm_study_table_refs(const sm_study_table *t, double **px, double **py);

#endif
