/* cmd_study_plot.c - study plot DIR -x KEY -y KEY: gnuplot when installed
 * and -o FILE.svg|png is asked for, else a braille plot as text. */
#define _GNU_SOURCE   /* execvpe */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>
#include "cmd_common.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "cmd_study.h"
#include "core/lib/strbuf.h"
#include "core/lib/braille_plot.h"
#include "core/lib/atomic_file_write.h"

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

/* gnuplot for a safe script (SPEC 5): in our private directory work,
 * which is its HOME too, with -d (no ~/.gnuplot, no system gnuplotrc) and
 * an environment of PATH and the locale only, so nothing a script could
 * have written anywhere is read at its start. 0 when it exited 0, else
 * -1 with why (its first output). */
int sm_gnuplot_private(const char *work, const char *gp, char *why, size_t nwhy)
{
    char log[700], home[720], tmp[720], path[4200];
    snprintf(log, sizeof log, "%s/gnuplot.out", work);
    snprintf(home, sizeof home, "HOME=%s", work);
    snprintf(tmp, sizeof tmp, "TMPDIR=%s", work);
    const char *p = getenv("PATH");
    snprintf(path, sizeof path, "PATH=%s", p && strlen(p) < 4000 ? p : "/usr/bin:/bin");
    char *env[] = {path, home, tmp, "LC_ALL=C", "GNUTERM=dumb", NULL};
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, nwhy, "cannot start it: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        int nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0 || nul < 0 || chdir(work) != 0 || dup2(nul, 0) < 0 || dup2(fd, 1) < 0 ||
            dup2(fd, 2) < 0)
            _exit(127);
        char *argv[] = {"gnuplot", "-d", (char *)gp, NULL};
        execvpe("gnuplot", argv, env);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok) {
        FILE *f = fopen(log, "r");
        size_t k = f ? fread(why, 1, nwhy - 1, f) : 0;
        why[k] = '\0';
        if (f) fclose(f);
        if (!k) snprintf(why, nwhy, "exit status %d", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    }
    unlink(log);
    return ok ? 0 : -1;
}

static int cmp_x(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A data file with one block per series (gnuplot "index"), headed by the
 * series label, and a script that plots each block; names are checked by
 * safe_text before they go in single quotes. */
static int gnuplot_plot(sm_app *app, Tcl_Interp *in, Tcl_Obj *rows, Tcl_Obj *kx, Tcl_Obj *ky,
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
    sm_err e;
    if (sm_check_save_target(out, &e)) return sm_tcl_error(in, "IO", "study plot: %s", e.msg);
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
        /* A line runs left to right: the series' points sorted by x. */
        double *xy = sm_xmalloc(sizeof(double) * 2 * (size_t)(nr ? nr : 1));
        int np = 0;
        for (int i = 0; i < nr; i++) {
            double x, y;
            Tcl_Obj *lab = NULL;
            Tcl_DictObjGet(NULL, r[i], kby, &lab);
            if (!lab || strcmp(Tcl_GetString(lab), Tcl_GetString(l[k])) != 0) continue;
            if (numeric(r[i], kx, &x) && numeric(r[i], ky, &y)) {
                xy[2 * np] = x;
                xy[2 * np + 1] = y;
                np++;
            }
        }
        qsort(xy, (size_t)np, 2 * sizeof(double), cmp_x);
        for (int i = 0; i < np; i++) sm_strbuf_put(&data, "%.17g %.17g\n", xy[2 * i], xy[2 * i + 1]);
        free(xy);
        sm_strbuf_put(&data, "\n\n");
    }
    if (nref) {
        sm_strbuf_put(&data, "\"published optimum\"\n");
        for (int k = 0; k < nref; k++) sm_strbuf_put(&data, "%.17g %.17g\n", rx[k], ry[k]);
        sm_strbuf_put(&data, "\n\n");
    }
    /* gnuplot works in a private temporary directory of ours and the
     * image is then saved to -o like every file we write (atomically, and
     * beneath the directory the path guard allows): gnuplot opening -o
     * itself would write wherever the name leads by then. */
    const char *tdir = getenv("TMPDIR");
    if (!tdir || !*tdir || !safe_text(tdir) || strlen(tdir) > 512) tdir = "/tmp";
    char work[600];
    snprintf(work, sizeof work, "%s/stencilmap-plot-XXXXXX", tdir);
    if (!mkdtemp(work)) {
        int err = errno;
        free(data.s);
        Tcl_DecrRefCount(labels);
        Tcl_DecrRefCount(seen);
        return sm_tcl_error(in, "IO", "study plot: cannot make a temporary directory in %s: %s",
                            tdir, strerror(err));
    }
    char dat[700], gp[700], img[700];
    snprintf(dat, sizeof dat, "%s/plot.dat", work);
    snprintf(gp, sizeof gp, "%s/plot.gp", work);
    snprintf(img, sizeof img, "%s/plot.%s", work, png ? "png" : "svg");
    sm_strbuf sc;
    sm_strbuf_init(&sc);
    sm_strbuf_put(&sc, "set terminal %s size 900,600\nset output '%s'\n"
                  "set xlabel '%s'\nset ylabel '%s'\nset key outside\n"
                  "plot for [i=0:%d] '%s' index i using 1:2 with linespoints "
                  "title columnheader(1)",
                  png ? "png" : "svg", img, Tcl_GetString(kx), Tcl_GetString(ky),
                  nl > 0 ? nl - 1 : 0, dat);
    if (nref)
        sm_strbuf_put(&sc, ", '%s' index %d using 1:2 with points pt 7 ps 1.5 "
                      "title columnheader(1)", dat, nl);
    sm_strbuf_put(&sc, "\nunset output\n");
    int rc = TCL_OK;
    /* Our own files: not the script's to confine. */
    sm_path_guard_suspend();
    int wrote = sm_write_file_atomic(dat, data.s ? data.s : "", data.n, &e) == 0 &&
                sm_write_file_atomic(gp, sc.s, sc.n, &e) == 0;
    sm_path_guard_resume();
    if (!wrote) {
        rc = sm_tcl_error(in, "IO", "study plot: %s", e.msg);
    } else {
        /* Our own program on our own script: the main interpreter runs
         * it (a safe one has no exec). Only gnuplot's exit status says it
         * failed: it writes warnings ("empty y range") to stderr and
         * still draws the plot. */
        const char *w[] = {"exec", "gnuplot", gp, "2>@1"};
        char why[400];
        if (app->safe_depth > 0 ? sm_gnuplot_private(work, gp, why, sizeof why) != 0
                                : run_words(app->interp, 4, w) != TCL_OK) {
            rc = sm_tcl_error(in, "PLOT", "study plot: gnuplot failed: %s",
                              app->safe_depth > 0 ? why : Tcl_GetStringResult(app->interp));
            if (in != app->interp) Tcl_ResetResult(app->interp);
        } else {
            size_t ilen;
            sm_path_guard_suspend();
            char *image = sm_read_file(img, SM_READ_ANY_SIZE, &ilen, &e);
            sm_path_guard_resume();
            if (!image)
                rc = sm_tcl_error(in, "PLOT", "study plot: gnuplot wrote no image: %s", e.msg);
            else if (sm_write_file_atomic(out, image, ilen, &e) != 0)
                rc = sm_tcl_error(in, "IO", "study plot: %s", e.msg);
            else
                Tcl_SetObjResult(in, Tcl_NewStringObj(out, -1));
            free(image);
        }
    }
    unlink(img);
    unlink(gp);
    unlink(dat);
    rmdir(work);
    free(data.s);
    free(sc.s);
    Tcl_DecrRefCount(labels);
    Tcl_DecrRefCount(seen);
    return rc;
}

/* Braille dots, or with kby a glyph a series and a legend: the plot the
 * Study pane draws too (core/study/study_table.c). */
static Tcl_Obj *text_plot(const sm_study_table *t, Tcl_Obj *kx, Tcl_Obj *ky, Tcl_Obj *kby, int w, int h,
                          int published)
{
    int by = kby ? sm_study_table_column(t, Tcl_GetString(kby)) : -1;
    sm_plot pl;
    sm_study_legend lg;
    sm_study_table_plot(t, sm_study_table_column(t, Tcl_GetString(kx)), sm_study_table_column(t, Tcl_GetString(ky)),
                        kby ? (by >= 0 ? by : t->ncols) : -1, published, w, h, &pl, &lg);
    char *text = sm_plot_text(&pl, Tcl_GetString(kx), Tcl_GetString(ky));
    Tcl_Obj *o = Tcl_NewStringObj(text, -1);
    for (int k = 0; k < lg.nseries; k++)
        Tcl_AppendStringsToObj(o, sm_plot_glyph[k % SM_PLOT_NGLYPHS], " ", Tcl_GetString(kby), " ", lg.label[k],
                               "\n", (char *)NULL);
    if (lg.nseries > 1) Tcl_AppendToObj(o, "* several\n", -1);
    if (lg.nref)
        Tcl_AppendStringsToObj(o, SM_PLOT_MARK " published optimum (thesis Table 6.4, SPEC \xc2\xa7" "7), ",
                               SM_PLOT_REACHED " a result on it\n", (char *)NULL);
    free(text);
    sm_plot_free(&pl);
    sm_study_legend_free(&lg);
    return o;
}

/* The series a row belongs to under several keys: their values joined by
 * spaces, a scenario by its file name without .json. */
static Tcl_Obj *series_label(Tcl_Obj *row, int nk, Tcl_Obj **keys)
{
    Tcl_Obj *lab = Tcl_NewObj();
    for (int k = 0; k < nk; k++) {
        Tcl_Obj *v = NULL;
        Tcl_DictObjGet(NULL, row, keys[k], &v);
        const char *s = v ? Tcl_GetString(v) : "-";
        if (strcmp(Tcl_GetString(keys[k]), "scenario") == 0) {
            const char *slash = strrchr(s, '/');
            if (slash) s = slash + 1;
            size_t n = strlen(s);
            if (n > 5 && strcmp(s + n - 5, ".json") == 0) n -= 5;
            if (k) Tcl_AppendToObj(lab, " ", 1);
            Tcl_AppendToObj(lab, s, (int)n);
            continue;
        }
        if (k) Tcl_AppendToObj(lab, " ", 1);
        Tcl_AppendToObj(lab, s, -1);
    }
    return lab;
}

/* -by as given (one key: that column), or several keys (a list) joined
 * into a column "K1+K2"; without -by, lines are solver and, when the table
 * has more than one scenario, scenario too: two scenarios' results are
 * never joined into one line. *rows gets the column added when needed. */
static Tcl_Obj *series_key(Tcl_Obj *by, Tcl_Obj **rows)
{
    int nr;
    Tcl_Obj **r;
    Tcl_ListObjGetElements(NULL, *rows, &nr, &r);
    Tcl_Obj *keys;
    if (by) {
        int nk;
        if (Tcl_ListObjLength(NULL, by, &nk) != TCL_OK || nk <= 1) return by;
        keys = by;
    } else {
        Tcl_Obj *sk = Tcl_NewStringObj("scenario", -1), *first = NULL;
        Tcl_IncrRefCount(sk);
        int several = 0;
        for (int i = 0; i < nr && !several; i++) {
            Tcl_Obj *v = NULL;
            Tcl_DictObjGet(NULL, r[i], sk, &v);
            if (!v) continue;
            if (!first) first = v;
            else several = strcmp(Tcl_GetString(first), Tcl_GetString(v)) != 0;
        }
        Tcl_DecrRefCount(sk);
        if (!several) return Tcl_NewStringObj("solver", -1);
        keys = Tcl_NewStringObj("scenario solver", -1);
    }
    Tcl_IncrRefCount(keys);
    int nk;
    Tcl_Obj **kv;
    Tcl_ListObjGetElements(NULL, keys, &nk, &kv);
    Tcl_Obj *name = Tcl_NewObj();
    for (int k = 0; k < nk; k++) {
        if (k) Tcl_AppendToObj(name, "+", 1);
        Tcl_AppendObjToObj(name, kv[k]);
    }
    Tcl_Obj *out = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < nr; i++) {
        Tcl_Obj *row = Tcl_DuplicateObj(r[i]);
        Tcl_DictObjPut(NULL, row, name, series_label(r[i], nk, kv));
        Tcl_ListObjAppendElement(NULL, out, row);
    }
    Tcl_DecrRefCount(keys);
    Tcl_IncrRefCount(out);
    Tcl_DecrRefCount(*rows);
    *rows = out;
    return name;
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
    Tcl_Obj *by = series_key(val[2], &rows);
    Tcl_IncrRefCount(by);
    sm_study_table *t = sm_study_table_of_rows(rows);
    /* The optima are (deadline, energy) points: only on those axes. */
    published = published && strcmp(Tcl_GetString(val[0]), "deadline") == 0 &&
                strcmp(Tcl_GetString(val[1]), "energy") == 0;
    double *rx = NULL, *ry = NULL;
    int nref = published ? sm_study_table_refs(t, &rx, &ry) : 0;
    int rc = TCL_OK;
    if (val[3] && sm_safe_check_path(app, in, Tcl_GetString(val[3]), SM_PATH_WRITE))
        rc = TCL_ERROR;
    else if (val[3] && have_gnuplot())
        rc = gnuplot_plot(app, in, rows, val[0], val[1], by, Tcl_GetString(val[3]), nref, rx, ry);
    else
        Tcl_SetObjResult(in, text_plot(t, val[0], val[1], val[2] ? by : NULL, w, h, published));
    free(rx);
    free(ry);
    sm_study_table_free(t);
    Tcl_DecrRefCount(by);
    Tcl_DecrRefCount(rows);
    return rc;
}
