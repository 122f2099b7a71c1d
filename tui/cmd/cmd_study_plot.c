/* cmd_study_plot.c - study plot DIR -x KEY -y KEY: gnuplot when installed
 * and -o FILE.svg|png is asked for, else a braille plot as text. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd.h"
#include "cmd_study.h"
#include "../../core/strbuf.h"
#include "../../core/study_plot.h"
#include "../../core/study_ref.h"

/* gnuplot on PATH, found at run time: it is an optional dependency. */
static int have_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *p = sm_xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(p, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char *f = sm_path_join(d, "gnuplot");
        found = access(f, X_OK) == 0;
        free(f);
    }
    free(p);
    return found;
}

static int numeric(Tcl_Obj *row, Tcl_Obj *key, double *v)
{
    Tcl_Obj *o = NULL;
    return Tcl_DictObjGet(NULL, row, key, &o) == TCL_OK && o &&
           Tcl_GetDoubleFromObj(NULL, o, v) == TCL_OK;
}

/* The published optima of the scenarios in the table (SPEC §7), once per
 * scenario sample; x and y get deadline and energy. Caller frees. */
static int ref_points(Tcl_Obj *rows, double **rx, double **ry)
{
    int nr, n = 0;
    Tcl_Obj **r;
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    const sm_ref_point *seen[8];
    int nseen = 0;
    *rx = *ry = NULL;
    for (int i = 0; i < nr; i++) {
        Tcl_Obj *sc = NULL;
        Tcl_DictObjGet(NULL, r[i], Tcl_NewStringObj("scenario", -1), &sc);
        const sm_ref_point *pts;
        int np = sc ? sm_study_ref_points(Tcl_GetString(sc), &pts) : 0;
        int dup = 0;
        for (int k = 0; k < nseen; k++) dup |= seen[k] == pts;
        if (!np || dup || nseen == 8) continue;
        seen[nseen++] = pts;
        *rx = sm_xrealloc(*rx, sizeof **rx * (size_t)(n + np));
        *ry = sm_xrealloc(*ry, sizeof **ry * (size_t)(n + np));
        for (int k = 0; k < np; k++, n++) {
            (*rx)[n] = pts[k].deadline;
            (*ry)[n] = pts[k].energy;
        }
    }
    return n;
}

static int safe_text(const char *s) { return !strpbrk(s, "'\"\n\r\\"); }

/* Runs a command given as words, as a list: data never becomes code. */
static int run_words(Tcl_Interp *in, int n, const char *const w[])
{
    Tcl_Obj *cmd = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(cmd);
    for (int i = 0; i < n; i++) Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj(w[i], -1));
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_DIRECT);
    Tcl_DecrRefCount(cmd);
    return rc;
}

/* A data file with one block per series (gnuplot "index"), headed by the
 * series label, and a script that plots each block; names are checked by
 * safe_text before they go in single quotes. */
static int gnuplot_plot(Tcl_Interp *in, Tcl_Obj *rows, Tcl_Obj *kx, Tcl_Obj *ky,
                        Tcl_Obj *kby, const char *out, int nref, const double *rx,
                        const double *ry)
{
    size_t n = strlen(out);
    int png = n > 4 && strcmp(out + n - 4, ".png") == 0;
    if (!png && !(n > 4 && strcmp(out + n - 4, ".svg") == 0))
        return sm_tcl_error(in, "ARGS", "study plot: -o %s: expected a .svg or .png file", out);
    if (!safe_text(out) || !safe_text(Tcl_GetString(kx)) || !safe_text(Tcl_GetString(ky)))
        return sm_tcl_error(in, "ARGS", "study plot: file names and keys must not contain "
                            "quotes, backslashes or newlines");
    Tcl_Obj *labels = Tcl_NewListObj(0, NULL), *seen = Tcl_NewDictObj();
    Tcl_IncrRefCount(labels);
    Tcl_IncrRefCount(seen);
    int nr, nl;
    Tcl_Obj **r, **l;
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    for (int i = 0; i < nr; i++) {
        Tcl_Obj *lab = NULL, *x = NULL;
        Tcl_DictObjGet(NULL, r[i], kby, &lab);
        if (!lab) lab = Tcl_NewStringObj("-", 1);
        Tcl_DictObjGet(NULL, seen, lab, &x);
        if (!x) {
            Tcl_DictObjPut(NULL, seen, lab, Tcl_NewIntObj(1));
            Tcl_ListObjAppendElement(NULL, labels, lab);
        }
    }
    Tcl_ListObjGetElements(NULL, labels, &nl, &l);
    sm_strbuf data;
    sm_strbuf_init(&data);
    for (int k = 0; k < nl; k++) {
        sm_strbuf_put(&data, "\"");
        for (const char *c = Tcl_GetString(l[k]); *c; c++)
            sm_strbuf_put(&data, "%c", *c == '"' || *c == '\n' ? '\'' : *c);
        sm_strbuf_put(&data, "\"\n");
        for (int i = 0; i < nr; i++) {
            double x, y;
            Tcl_Obj *lab = NULL;
            Tcl_DictObjGet(NULL, r[i], kby, &lab);
            if (!lab || strcmp(Tcl_GetString(lab), Tcl_GetString(l[k])) != 0) continue;
            if (numeric(r[i], kx, &x) && numeric(r[i], ky, &y))
                sm_strbuf_put(&data, "%.17g %.17g\n", x, y);
        }
        sm_strbuf_put(&data, "\n\n");
    }
    if (nref) {
        sm_strbuf_put(&data, "\"published optimum\"\n");
        for (int k = 0; k < nref; k++) sm_strbuf_put(&data, "%.17g %.17g\n", rx[k], ry[k]);
        sm_strbuf_put(&data, "\n\n");
    }
    size_t pn = n + 16;
    char *dat = sm_xmalloc(pn), *gp = sm_xmalloc(pn);
    snprintf(dat, pn, "%s.dat", out);
    snprintf(gp, pn, "%s.gp", out);
    sm_strbuf sc;
    sm_strbuf_init(&sc);
    sm_strbuf_put(&sc, "set terminal %s size 900,600\nset output '%s'\n"
                  "set xlabel '%s'\nset ylabel '%s'\nset key outside\n"
                  "plot for [i=0:%d] '%s' index i using 1:2 with linespoints "
                  "title columnheader(1)",
                  png ? "png" : "svg", out, Tcl_GetString(kx), Tcl_GetString(ky),
                  nl > 0 ? nl - 1 : 0, dat);
    if (nref)
        sm_strbuf_put(&sc, ", '%s' index %d using 1:2 with points pt 7 ps 1.5 "
                      "title columnheader(1)", dat, nl);
    sm_strbuf_put(&sc, "\n");
    sm_err e;
    int rc = TCL_OK;
    if (sm_write_file_atomic(dat, data.s ? data.s : "", data.n, &e) < 0 ||
        sm_write_file_atomic(gp, sc.s, sc.n, &e) < 0) {
        rc = sm_tcl_error(in, "IO", "study plot: %s", e.msg);
    } else {
        const char *w[] = {"exec", "gnuplot", gp};
        if (run_words(in, 3, w) != TCL_OK)
            rc = sm_tcl_error(in, "PLOT", "study plot: gnuplot failed: %s",
                              Tcl_GetStringResult(in));
        else
            Tcl_SetObjResult(in, Tcl_NewStringObj(out, -1));
    }
    unlink(gp);
    unlink(dat);
    free(data.s);
    free(sc.s);
    free(dat);
    free(gp);
    Tcl_DecrRefCount(labels);
    Tcl_DecrRefCount(seen);
    return rc;
}

/* The series label of a row ("-" when it has no KEY); its index in
 * labels, appended when new. */
static int series_of(Tcl_Obj *row, Tcl_Obj *kby, Tcl_Obj *labels)
{
    Tcl_Obj *lab = NULL, **l;
    int nl;
    Tcl_DictObjGet(NULL, row, kby, &lab);
    const char *s = lab ? Tcl_GetString(lab) : "-";
    Tcl_ListObjGetElements(NULL, labels, &nl, &l);
    for (int k = 0; k < nl; k++)
        if (strcmp(Tcl_GetString(l[k]), s) == 0) return k;
    Tcl_ListObjAppendElement(NULL, labels, Tcl_NewStringObj(s, -1));
    return nl;
}

/* Braille dots, or with kby a glyph a series and a legend. */
static Tcl_Obj *text_plot(Tcl_Obj *rows, Tcl_Obj *kx, Tcl_Obj *ky, Tcl_Obj *kby, int w, int h,
                          int nref, const double *rx, const double *ry)
{
    int nr;
    Tcl_Obj **r;
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    size_t cap = (size_t)nr + (size_t)nref + 1;
    double *x = sm_xcalloc(cap, sizeof *x), *y = sm_xcalloc(cap, sizeof *y);
    int *ser = sm_xcalloc(cap, sizeof *ser);
    Tcl_Obj *labels = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(labels);
    int n = 0;
    for (int i = 0; i < nr; i++)
        if (numeric(r[i], kx, &x[n]) && numeric(r[i], ky, &y[n])) {
            ser[n] = kby ? series_of(r[i], kby, labels) : 0;
            n++;
        }
    /* The ranges hold the reference points too. */
    for (int i = 0; i < nref; i++) {
        x[n + i] = rx[i];
        y[n + i] = ry[i];
    }
    sm_plot pl;
    sm_plot_init(&pl, w, h, x, y, n + nref);
    for (int i = 0; i < n; i++) {
        if (kby) sm_plot_series_point(&pl, x[i], y[i], ser[i]);
        else sm_plot_point(&pl, x[i], y[i]);
    }
    for (int i = 0; i < nref; i++) sm_plot_mark(&pl, rx[i], ry[i]);
    char *text = sm_plot_text(&pl, Tcl_GetString(kx), Tcl_GetString(ky));
    Tcl_Obj *o = Tcl_NewStringObj(text, -1);
    int nl;
    Tcl_Obj **l;
    Tcl_ListObjGetElements(NULL, labels, &nl, &l);
    for (int k = 0; k < nl; k++)
        Tcl_AppendStringsToObj(o, sm_plot_glyph[k % SM_PLOT_NGLYPHS], " ", Tcl_GetString(kby),
                               " ", Tcl_GetString(l[k]), "\n", (char *)NULL);
    if (nl > 1) Tcl_AppendToObj(o, "* several\n", -1);
    if (nref)
        Tcl_AppendToObj(o, "\xe2\x97\x86 published optimum (thesis Table 6.4, SPEC \xc2\xa7" "7)\n", -1);
    Tcl_DecrRefCount(labels);
    free(text);
    sm_plot_free(&pl);
    free(x);
    free(y);
    free(ser);
    return o;
}

int sm_study_plot_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app;
    static const char *const opts[] = {"-x", "-y", "-by", "-o", "-width", "-height",
                                       "-published", NULL};
    Tcl_Obj *val[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    for (int i = 3; i < objc; i += 2) {
        int idx;
        if (sm_get_opt_index(in, objv[i], opts, &idx) != TCL_OK) return TCL_ERROR;
        if (i + 1 >= objc)
            return sm_tcl_error(in, "ARGS", "study plot: %s needs a value", opts[idx]);
        val[idx] = objv[i + 1];
    }
    if (!val[0] || !val[1])
        return sm_tcl_error(in, "ARGS", "study plot: -x KEY and -y KEY are required");
    int w = 60, h = 15;
    if ((val[4] && (Tcl_GetIntFromObj(NULL, val[4], &w) != TCL_OK || w < 4 || w > 1000)) ||
        (val[5] && (Tcl_GetIntFromObj(NULL, val[5], &h) != TCL_OK || h < 2 || h > 1000)))
        return sm_tcl_error(in, "ARGS", "study plot: -width expects 4..1000 and -height "
                            "2..1000 character cells");
    /* Published optima: by default when plotting energy against deadline. */
    int published = strcmp(Tcl_GetString(val[0]), "deadline") == 0 &&
                    strcmp(Tcl_GetString(val[1]), "energy") == 0;
    if (val[6] && Tcl_GetBooleanFromObj(NULL, val[6], &published) != TCL_OK)
        return sm_tcl_error(in, "ARGS", "study plot: -published expects a boolean, got \"%s\"",
                            Tcl_GetString(val[6]));
    Tcl_Obj *rows;
    if (sm_study_merge_table(in, Tcl_GetString(objv[2]), &rows) != TCL_OK) return TCL_ERROR;
    Tcl_IncrRefCount(rows);
    /* Nothing to plot is an error that names the keys, not a blank plot. */
    int nr, npts = 0;
    Tcl_Obj **r;
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    for (int i = 0; i < nr; i++) {
        double a, b;
        npts += numeric(r[i], val[0], &a) && numeric(r[i], val[1], &b);
    }
    if (npts == 0) {
        Tcl_DecrRefCount(rows);
        return sm_tcl_error(in, "STUDY", "study plot: %s: none of its %d results has "
                            "numbers for both %s and %s", Tcl_GetString(objv[2]), nr,
                            Tcl_GetString(val[0]), Tcl_GetString(val[1]));
    }
    double *rx = NULL, *ry = NULL;
    int nref = published ? ref_points(rows, &rx, &ry) : 0;
    Tcl_Obj *by = val[2] ? val[2] : Tcl_NewStringObj("solver", -1);
    Tcl_IncrRefCount(by);
    int rc = TCL_OK;
    if (val[3] && have_gnuplot())
        rc = gnuplot_plot(in, rows, val[0], val[1], by, Tcl_GetString(val[3]), nref, rx, ry);
    else
        Tcl_SetObjResult(in, text_plot(rows, val[0], val[1], val[2], w, h, nref, rx, ry));
    free(rx);
    free(ry);
    Tcl_DecrRefCount(by);
    Tcl_DecrRefCount(rows);
    return rc;
}
