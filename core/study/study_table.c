/* study_table.c - a merged study as a table, and its plot. */
#include "study_table.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "published_deadline_sweep_optima.h"
#include "core/lib/util.h"

sm_study_table *sm_study_table_new(void)
{
    return sm_xcalloc(1, sizeof(sm_study_table));
}

void sm_study_table_free(sm_study_table *t)
{
    if (!t) return;
    for (int c = 0; c < t->ncols; c++) {
        for (int r = 0; r < t->nrows; r++) free(t->col[c].text[r]);
        free(t->col[c].text);
        free(t->col[c].num);
        free(t->col[c].name);
    }
    free(t->col);
    free(t);
}

static void column_grow(sm_study_column *c, int from, int cap)
{
    c->text = sm_xrealloc(c->text, sizeof *c->text * (size_t)cap);
    c->num = sm_xrealloc(c->num, sizeof *c->num * (size_t)cap);
    for (int r = from; r < cap; r++) {
        c->text[r] = NULL;
        c->num[r] = NAN;
    }
}

int sm_study_table_add_row(sm_study_table *t)
{
    if (t->nrows == t->cap_rows) {
        int cap = t->cap_rows ? 2 * t->cap_rows : 16;
        for (int c = 0; c < t->ncols; c++) column_grow(&t->col[c], t->cap_rows, cap);
        t->cap_rows = cap;
    }
    return t->nrows++;
}

int sm_study_table_column(const sm_study_table *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (strcmp(t->col[c].name, name) == 0) return c;
    return -1;
}

static double parse_number(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    while (end != s && (*end == ' ' || *end == '\t')) end++;
    return end != s && *end == '\0' ? v : NAN;
}

void sm_study_table_set(sm_study_table *t, int row, const char *name, const char *text)
{
    int c = sm_study_table_column(t, name);
    if (c < 0) {
        if (t->ncols == t->cap_cols) {
            t->cap_cols = t->cap_cols ? 2 * t->cap_cols : 16;
            t->col = sm_xrealloc(t->col, sizeof *t->col * (size_t)t->cap_cols);
        }
        c = t->ncols++;
        memset(&t->col[c], 0, sizeof t->col[c]);
        t->col[c].name = sm_xstrdup(name);
        if (t->cap_rows) column_grow(&t->col[c], 0, t->cap_rows);
    }
    free(t->col[c].text[row]);
    t->col[c].text[row] = sm_xstrdup(text);
    t->col[c].num[row] = parse_number(text);
}

int sm_study_table_numbers(const sm_study_table *t, int col)
{
    int n = 0;
    for (int r = 0; col >= 0 && col < t->ncols && r < t->nrows; r++) n += isfinite(t->col[col].num[r]);
    return n;
}

int sm_study_table_refs(const sm_study_table *t, double **px, double **py)
{
    int sc = sm_study_table_column(t, "scenario"), n = 0;
    const sm_ref_point **seen = NULL;
    int nseen = 0;
    *px = *py = NULL;
    for (int r = 0; sc >= 0 && r < t->nrows; r++) {
        const char *file = t->col[sc].text[r];
        const sm_ref_point *pts;
        int np = file ? sm_study_ref_points(file, &pts) : 0, dup = 0;
        for (int k = 0; k < nseen; k++) dup |= seen[k] == pts;
        if (!np || dup) continue;
        seen = sm_xrealloc(seen, sizeof *seen * (size_t)(nseen + 1));
        seen[nseen++] = pts;
        *px = sm_xrealloc(*px, sizeof **px * (size_t)(n + np));
        *py = sm_xrealloc(*py, sizeof **py * (size_t)(n + np));
        for (int k = 0; k < np; k++, n++) {
            (*px)[n] = pts[k].deadline;
            (*py)[n] = pts[k].energy;
        }
    }
    free(seen);
    return n;
}

/* The series of row r: the index of its by-label, appended when new. */
static int series_of(const sm_study_table *t, int by, int r, sm_study_legend *lg)
{
    const char *s = by < t->ncols && t->col[by].text[r] ? t->col[by].text[r] : "-";
    for (int k = 0; k < lg->nseries; k++)
        if (strcmp(lg->label[k], s) == 0) return k;
    lg->label = sm_xrealloc(lg->label, sizeof *lg->label * (size_t)(lg->nseries + 1));
    lg->label[lg->nseries] = sm_xstrdup(s);
    return lg->nseries++;
}

void sm_study_table_plot(const sm_study_table *t, int x, int y, int by, int published,
                         int width, int height, sm_plot *pl, sm_study_legend *lg)
{
    memset(lg, 0, sizeof *lg);
    double *rx = NULL, *ry = NULL;
    /* The optima are (deadline, energy) points: only on those axes. */
    published = published && x >= 0 && x < t->ncols && y >= 0 && y < t->ncols &&
                strcmp(t->col[x].name, "deadline") == 0 && strcmp(t->col[y].name, "energy") == 0;
    int nref = published ? sm_study_table_refs(t, &rx, &ry) : 0;
    size_t cap = (size_t)t->nrows + (size_t)nref + 1;
    double *px = sm_xcalloc(cap, sizeof *px), *py = sm_xcalloc(cap, sizeof *py);
    int *ser = sm_xcalloc(cap, sizeof *ser), n = 0;
    int ok = x >= 0 && x < t->ncols && y >= 0 && y < t->ncols;
    for (int r = 0; ok && r < t->nrows; r++) {
        double a = t->col[x].num[r], b = t->col[y].num[r];
        if (!isfinite(a) || !isfinite(b)) continue;
        px[n] = a;
        py[n] = b;
        ser[n] = by >= 0 ? series_of(t, by, r, lg) : 0;
        n++;
    }
    /* The ranges hold the published points too. */
    for (int i = 0; i < nref; i++) {
        px[n + i] = rx[i];
        py[n + i] = ry[i];
    }
    sm_plot_init(pl, width, height, px, py, n + nref);
    for (int i = 0; i < n; i++) {
        if (by >= 0) sm_plot_series_point(pl, px[i], py[i], ser[i]);
        else sm_plot_point(pl, px[i], py[i]);
    }
    for (int i = 0; i < nref; i++) sm_plot_mark(pl, rx[i], ry[i]);
    lg->npoints = n;
    lg->nref = nref;
    free(px);
    free(py);
    free(ser);
    free(rx);
    free(ry);
}

void sm_study_legend_free(sm_study_legend *lg)
{
    for (int k = 0; k < lg->nseries; k++) free(lg->label[k]);
    free(lg->label);
    memset(lg, 0, sizeof *lg);
}
