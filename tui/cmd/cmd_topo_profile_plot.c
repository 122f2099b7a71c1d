/* cmd_topo_profile_plot.c - topo profile plot TYPE|FILE -o FILE.svg|png:
 * a measured profile through gnuplot, as `study plot` draws: time per
 * iteration against blocks with each point's confidence interval as an
 * error bar and the fitted line time_per_cell x cells, and the speed
 * (blocks per second) below it. Measured profiles are not smooth; the
 * plot joins the points as measured, so their steps show. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd_common.h"
#include "cmd_topo_measure.h"
#include "core/lib/strbuf.h"
#include "core/model/processor_time_energy.h"
#include "core/session/session_edits_undo_redo.h"
#include "core/lib/braille_plot.h"
#include "core/lib/atomic_file_write.h"
#include "core/io/processor_profile_csv_file.h"

typedef struct ppt {
    double blocks, time, low, high;
    int reps, tight;      /* -1 unknown */
} ppt;

static int safe_text(const char *s) { return !strpbrk(s, "'\"\n\r\\"); }

static int on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path) return 0;
    char *p = sm_xstrdup(path), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(p, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        char *f = sm_path_join(d, prog);
        found = access(f, X_OK) == 0;
        free(f);
    }
    free(p);
    return found;
}

/* "# point: blocks B reps R iters I ci_low L ci_high H ..." and
 * "# time_per_cell: X" lines of a profile CSV (topo measure -o). */
static void csv_extras(const char *text, ppt *pts, int n, double *tpc, double *cells)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        int b;
        double lo, hi, v;
        long long x, y, z;
        int reps = -1, tight = -1;
        if (sscanf(l, "# point: blocks %d reps %d iters %*d ci_low %lg ci_high %lg tight %d", &b, &reps, &lo, &hi,
                   &tight) >= 4) {
            for (int k = 0; k < n; k++)
                if (pts[k].blocks == b) pts[k].low = lo, pts[k].high = hi, pts[k].reps = reps, pts[k].tight = tight;
        } else if (sscanf(l, "# time_per_cell: %lg", &v) == 1) {
            *tpc = v;
        } else if (sscanf(l, "# block: %lld %lld %lld", &x, &y, &z) == 3) {
            *cells = (double)x * (double)y * (double)z;
        }
    }
}

/* One panel of the text plot: y against blocks, the interval of each
 * point as a bar of dots, its mean as a mark, the fitted line as dots. */
static void text_panel(sm_strbuf *b, const ppt *pts, int n, int speed, double tpc, double cells, const char *ylabel)
{
    double *x = sm_xmalloc(sizeof(double) * (size_t)(3 * n + 1)), *y = sm_xmalloc(sizeof(double) * (size_t)(3 * n + 1));
    int m = 0;
    for (int k = 0; k < n; k++) {
        double lo = isfinite(pts[k].low) ? pts[k].low : pts[k].time;
        double hi = isfinite(pts[k].high) ? pts[k].high : pts[k].time;
        double v[3] = {pts[k].time, lo, hi};
        for (int q = 0; q < 3; q++) {
            x[m] = pts[k].blocks;
            y[m++] = speed ? (v[q] > 0 ? pts[k].blocks / v[q] : NAN) : v[q];
        }
    }
    sm_plot pl;
    sm_plot_init(&pl, 60, 10, x, y, m);
    if (pl.ymin > 0) pl.ymin = 0;
    for (int k = 0; k < n; k++) {
        double a = y[3 * k + 1], z = y[3 * k + 2];
        for (int s = 0; s <= 24; s++) sm_plot_point(&pl, pts[k].blocks, a + (z - a) * s / 24.0);
    }
    if (!speed && tpc > 0 && cells > 0)
        for (int s = 0; s <= 240; s++) {
            double bx = pl.xmin + (pl.xmax - pl.xmin) * s / 240.0;
            sm_plot_point(&pl, bx, tpc * cells * bx);
        }
    for (int k = 0; k < n; k++) sm_plot_mark(&pl, pts[k].blocks, y[3 * k]);
    char *t = sm_plot_text(&pl, "blocks", ylabel);
    sm_strbuf_put(b, "%s", t);
    free(t);
    sm_plot_free(&pl);
    free(x);
    free(y);
}

/* The points of TYPE (its last measurement with intervals, else the
 * topology's profile) or of a profile CSV FILE (intervals from its
 * "# point:" lines), with the fit and the cells of a block when known. */
static int load_points(sm_app *app, Tcl_Interp *in, const char *cmd, Tcl_Obj *whatobj, ppt **out, int *nout,
                       double *tpc, double *cells)
{
    const sm_topo *t = app->session->topo;
    const char *what = Tcl_GetString(whatobj);
    sm_err e;
    ppt *pts = NULL;
    int n = 0;
    *tpc = *cells = 0;
    int ty = sm_topo_find_type(t, what);
    Tcl_Obj *m = sm_topo_measured(), *d = NULL;
    if (m) Tcl_DictObjGet(NULL, m, whatobj, &d);
    if (d) {
        /* The last measurement of TYPE: intervals and the fit. */
        Tcl_Obj *pl = NULL, *fit = NULL, *v = NULL, *bl = NULL;
        Tcl_DictObjGet(NULL, d, Tcl_NewStringObj("points", -1), &pl);
        Tcl_DictObjGet(NULL, d, Tcl_NewStringObj("fit", -1), &fit);
        Tcl_DictObjGet(NULL, d, Tcl_NewStringObj("block", -1), &bl);
        if (fit && Tcl_DictObjGet(NULL, fit, Tcl_NewStringObj("time_per_cell", -1), &v) == TCL_OK && v)
            Tcl_GetDoubleFromObj(NULL, v, tpc);
        int nb;
        Tcl_Obj **be;
        if (bl && Tcl_ListObjGetElements(NULL, bl, &nb, &be) == TCL_OK && nb == 3) {
            *cells = 1;
            for (int a = 0; a < 3; a++) {
                double x = 0;
                Tcl_GetDoubleFromObj(NULL, be[a], &x);
                *cells *= x;
            }
        }
        Tcl_Obj **el;
        Tcl_ListObjGetElements(NULL, pl, &n, &el);
        pts = sm_xcalloc((size_t)(n ? n : 1), sizeof *pts);
        static const char *const keys[] = {"blocks", "mean", "ci_low", "ci_high"};
        for (int k = 0; k < n; k++) {
            double *f[4] = {&pts[k].blocks, &pts[k].time, &pts[k].low, &pts[k].high};
            for (int q = 0; q < 4; q++) {
                Tcl_Obj *x = NULL;
                Tcl_DictObjGet(NULL, el[k], Tcl_NewStringObj(keys[q], -1), &x);
                if (x) Tcl_GetDoubleFromObj(NULL, x, f[q]);
            }
            Tcl_Obj *x = NULL;
            pts[k].reps = pts[k].tight = -1;
            if (Tcl_DictObjGet(NULL, el[k], Tcl_NewStringObj("reps", -1), &x) == TCL_OK && x)
                Tcl_GetIntFromObj(NULL, x, &pts[k].reps);
            x = NULL;
            if (Tcl_DictObjGet(NULL, el[k], Tcl_NewStringObj("tight", -1), &x) == TCL_OK && x)
                Tcl_GetBooleanFromObj(NULL, x, &pts[k].tight);
        }
    } else if (ty >= 0) {
        const sm_type *T = &t->types[ty];
        if (!T->nprofile)
            return sm_tcl_error(in, "ARGS", "%s: type \"%s\" has no profile (topo measure or topo profile TYPE FILE)", cmd, what);
        n = T->nprofile;
        pts = sm_xcalloc((size_t)n, sizeof *pts);
        for (int k = 0; k < n; k++)
            pts[k] = (ppt){T->profile[k].blocks, T->profile[k].time, NAN, NAN, -1, -1};
        *tpc = sm_type_params(T)->time_per_cell;
        *cells = app->session->grid->task_cells[0];
    } else {
        size_t len;
        char *text = sm_read_file(what, SM_READ_ANY_SIZE, &len, &e);
        if (!text)
            return sm_tcl_error(in, "ARGS", "%s: \"%s\" is neither a type nor a profile file: %s", cmd, what, e.msg);
        sm_profile_pt *pp = NULL;
        int no_energy = 0;
        if (sm_profile_parse_csv_opt(text, len, what, &pp, &n, &no_energy, &e)) {
            free(text);
            return sm_tcl_err(in, "LOAD", &e);
        }
        pts = sm_xcalloc((size_t)n, sizeof *pts);
        for (int k = 0; k < n; k++) pts[k] = (ppt){pp[k].blocks, pp[k].time, NAN, NAN, -1, -1};
        csv_extras(text, pts, n, tpc, cells);
        free(pp);
        free(text);
    }
    *out = pts;
    *nout = n;
    return TCL_OK;
}

int sm_topo_profile_plot_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (objc != 4 && (objc != 6 || strcmp(Tcl_GetString(objv[4]), "-o") != 0))
        return sm_tcl_error(in, "ARGS", "topo profile plot: expected TYPE|FILE ?-o FILE.svg|png?");
    const char *what = Tcl_GetString(objv[3]), *out = objc == 6 ? Tcl_GetString(objv[5]) : NULL;
    size_t on = out ? strlen(out) : 0;
    int png = on > 4 && strcmp(out + on - 4, ".png") == 0;
    if (out && !png && !(on > 4 && strcmp(out + on - 4, ".svg") == 0))
        return sm_tcl_error(in, "ARGS", "topo profile plot: -o %s: expected a .svg or .png file", out);
    if ((out && !safe_text(out)) || !safe_text(what))
        return sm_tcl_error(in, "ARGS", "topo profile plot: names must not contain quotes, backslashes or newlines");
    if (out && !on_path("gnuplot"))
        return sm_tcl_error(in, "PLOT", "topo profile plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
    sm_err e;
    if (out && sm_check_save_target(out, &e)) return sm_tcl_error(in, "IO", "topo profile plot: %s", e.msg);
    ppt *pts = NULL;
    int n = 0;
    double tpc = 0, cells = 0;
    if (load_points(app, in, "topo profile plot", objv[3], &pts, &n, &tpc, &cells) != TCL_OK) return TCL_ERROR;
    sm_strbuf data, sc;
    sm_strbuf_init(&data);
    sm_strbuf_init(&sc);
    int rc = TCL_OK;
    if (!out) {
        /* As text (the Console, a terminal): time, then speed. */
        sm_strbuf_put(&data, "profile of %s: %s measured mean, dots the interval%s\n", what, SM_PLOT_MARK,
                      tpc > 0 && cells > 0 ? " and the fitted line time_per_cell x cells" : "");
        text_panel(&data, pts, n, 0, tpc, cells, "s/iter");
        text_panel(&data, pts, n, 1, 0, 0, "blocks/s");
        Tcl_SetObjResult(in, Tcl_NewStringObj(data.s ? data.s : "", -1));
        goto out;
    }
    /* blocks time low high speed speed_low speed_high fitted */
    for (int k = 0; k < n; k++) {
        const ppt *p = &pts[k];
        double lo = isfinite(p->low) ? p->low : p->time, hi = isfinite(p->high) ? p->high : p->time;
        double fitted = tpc > 0 && cells > 0 ? tpc * cells * p->blocks : NAN;
        sm_strbuf_put(&data, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", p->blocks, p->time, lo, hi,
                      p->time > 0 ? p->blocks / p->time : 0, hi > 0 ? p->blocks / hi : 0,
                      lo > 0 ? p->blocks / lo : 0, fitted);
    }
    const char *tdir = getenv("TMPDIR");
    if (!tdir || !*tdir || !safe_text(tdir) || strlen(tdir) > 512) tdir = "/tmp";
    char work[600], dat[700], gp[700], img[700];
    snprintf(work, sizeof work, "%s/stencilmap-profile-XXXXXX", tdir);
    if (!mkdtemp(work)) {
        rc = sm_tcl_error(in, "IO", "topo profile plot: cannot make a temporary directory in %s: %s", tdir,
                          strerror(errno));
        goto out;
    }
    snprintf(dat, sizeof dat, "%s/profile.dat", work);
    snprintf(gp, sizeof gp, "%s/profile.gp", work);
    snprintf(img, sizeof img, "%s/profile.%s", work, png ? "png" : "svg");
    sm_strbuf_put(&sc,
                  "set terminal %s size 900,800\nset output '%s'\nset multiplot layout 2,1 title 'profile of %s'\n"
                  "set xlabel 'blocks'\nset ylabel 'time per iteration (s)'\nset key top left\nset grid\n"
                  "plot '%s' using 1:2:3:4 with yerrorlines title 'measured (interval)'",
                  png ? "png" : "svg", img, what, dat);
    if (tpc > 0 && cells > 0)
        sm_strbuf_put(&sc, ", '%s' using 1:8 with lines dt 2 title 'fitted: time_per_cell x cells'", dat);
    sm_strbuf_put(&sc,
                  "\nset ylabel 'speed (blocks per second)'\n"
                  "plot '%s' using 1:5:6:7 with yerrorlines title 'measured speed'\nunset multiplot\nunset output\n",
                  dat);
    sm_path_guard_suspend();
    int wrote = sm_write_file_atomic(dat, data.s ? data.s : "", data.n, &e) == 0 &&
                sm_write_file_atomic(gp, sc.s, sc.n, &e) == 0;
    sm_path_guard_resume();
    if (!wrote) {
        rc = sm_tcl_error(in, "IO", "topo profile plot: %s", e.msg);
    } else {
        /* For a safe script gnuplot runs as study plot runs it: private
         * HOME, no start-up files (a ~/.gnuplot would run its commands). */
        char why[400];
        int g;
        if (app->safe_depth > 0) {
            g = sm_gnuplot_private(work, gp, why, sizeof why) == 0 ? TCL_OK : TCL_ERROR;
        } else {
            Tcl_Obj *cmd = Tcl_NewListObj(0, NULL);
            const char *w[] = {"exec", "gnuplot", gp, "2>@1"};
            for (int i = 0; i < 4; i++) Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj(w[i], -1));
            Tcl_IncrRefCount(cmd);
            g = Tcl_EvalObjEx(app->interp, cmd, TCL_EVAL_DIRECT);
            Tcl_DecrRefCount(cmd);
        }
        if (g != TCL_OK) {
            rc = sm_tcl_error(in, "PLOT", "topo profile plot: gnuplot failed: %s",
                              app->safe_depth > 0 ? why : Tcl_GetStringResult(app->interp));
            if (in != app->interp) Tcl_ResetResult(app->interp);
        } else {
            size_t ilen;
            sm_path_guard_suspend();
            char *image = sm_read_file(img, SM_READ_ANY_SIZE, &ilen, &e);
            sm_path_guard_resume();
            if (!image) rc = sm_tcl_error(in, "PLOT", "topo profile plot: gnuplot wrote no image: %s", e.msg);
            else if (sm_write_file_atomic(out, image, ilen, &e) != 0)
                rc = sm_tcl_error(in, "IO", "topo profile plot: %s", e.msg);
            else Tcl_SetObjResult(in, Tcl_NewStringObj(out, -1));
            free(image);
        }
    }
    unlink(img);
    unlink(gp);
    unlink(dat);
    rmdir(work);
out:
    free(pts);
    free(data.s);
    free(sc.s);
    return rc;
}

/* view profile ?TYPE|FILE|off?: the Profile pane (in the Energy pane's
 * place) shows TYPE's profile (its last measurement's intervals, else the
 * topology's points) or a profile CSV's, with the fitted line; off gives
 * the place back. Without an argument: what it shows, as a dict. */
int sm_view_profile_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_profile_view *pv = &app->view->profile;
    if (objc == 2) {
        Tcl_Obj *d = Tcl_NewDictObj(), *pl = Tcl_NewListObj(0, NULL);
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("type", -1), Tcl_NewStringObj(pv->type, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("from", -1), Tcl_NewStringObj(pv->from, -1));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("running", -1), Tcl_NewBooleanObj(pv->running));
        for (int k = 0; k < pv->n; k++) {
            Tcl_Obj *row[4] = {Tcl_NewIntObj(pv->pt[k].blocks), Tcl_NewDoubleObj(pv->pt[k].mean),
                               Tcl_NewDoubleObj(pv->pt[k].low), Tcl_NewDoubleObj(pv->pt[k].high)};
            Tcl_ListObjAppendElement(NULL, pl, Tcl_NewListObj(4, row));
        }
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("points", -1), pl);
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("shown", -1),
                       Tcl_NewBooleanObj(sm_view_pane_shown(app->view, SM_PANE_PROFILE)));
        Tcl_SetObjResult(in, d);
        return TCL_OK;
    }
    if (objc != 3) return sm_tcl_error(in, "ARGS", "view profile: expected ?TYPE|FILE|off?");
    const char *what = Tcl_GetString(objv[2]);
    if (strcmp(what, "off") == 0) {
        sm_view_show_alt(app->view, SM_PANE_PROFILE, 0);
        return TCL_OK;
    }
    if (pv->running)
        return sm_tcl_error(in, "BUSY", "view profile: topo measure is running and the pane follows it");
    ppt *pts = NULL;
    int n = 0;
    double tpc = 0, cells = 0;
    if (load_points(app, in, "view profile", objv[2], &pts, &n, &tpc, &cells) != TCL_OK) return TCL_ERROR;
    int is_type = sm_topo_find_type(app->session->topo, what) >= 0;
    Tcl_Obj *m = sm_topo_measured(), *d = NULL;
    if (m) Tcl_DictObjGet(NULL, m, objv[2], &d);
    memset(pv, 0, sizeof *pv);
    /* A file's type is its "# type:" line, else its name. */
    const char *slash = strrchr(what, '/');
    snprintf(pv->type, sizeof pv->type, "%s", is_type || d ? what : slash ? slash + 1 : what);
    if (!is_type && !d) {
        size_t len;
        sm_err e;
        char *text = sm_read_file(what, SM_READ_ANY_SIZE, &len, &e);
        const char *ty = text ? strstr(text, "# type: ") : NULL;
        if (ty) {
            ty += 8;
            size_t k = strcspn(ty, "\r\n");
            snprintf(pv->type, sizeof pv->type, "%.*s", (int)(k < sizeof pv->type ? k : sizeof pv->type - 1), ty);
        }
        free(text);
    }
    snprintf(pv->from, sizeof pv->from, "%s", d ? "the last topo measure" : is_type ? "the topology" : what);
    for (int k = 0; k < n && k < SM_PROFILE_VIEW_MAX; k++)
        pv->pt[pv->n++] = (sm_profile_view_pt){(int)pts[k].blocks, pts[k].reps, pts[k].tight, pts[k].time,
                                               pts[k].low, pts[k].high};
    pv->time_per_cell = tpc;
    pv->cells = cells;
    free(pts);
    sm_view_show_alt(app->view, SM_PANE_PROFILE, 1);
    sm_view_touch(app->view);
    return TCL_OK;
}
