/* cmd_view_study.c - view study: what the Study pane plots.
 *
 *   view study                      -> the pane's state (a dict)
 *   view study DIR|FILE ?options?   -> load a merged study and show it
 *   view study ?options?            -> other columns for the loaded study
 *   view study cycle x|y|by ?next|prev?   (the pane's keys)
 *   view study off                  -> back to the Solver pane
 * options: -x KEY -y KEY -by KEY|none -published BOOL
 *
 * DIR is a study directory (merged as `study merge` merges it), FILE a
 * table saved by `study merge DIR -format json` or one job's result. Every
 * check runs before the view changes: an error leaves it as it was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd_common.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "cmd_study.h"

/* Series columns worth cycling to: a handful of distinct values. */
#define SERIES_MAX 12

static Tcl_Obj *str(const char *s) { return Tcl_NewStringObj(s, -1); }

static const char *col_name(const sm_study_table *t, int c)
{
    return c >= 0 && c < t->ncols ? t->col[c].name : "";
}

static int distinct_values(const sm_study_table *t, int c, int cap)
{
    int n = 0;
    for (int r = 0; r < t->nrows && n <= cap; r++) {
        const char *s = t->col[c].text[r];
        int seen = 0;
        for (int q = 0; q < r && !seen; q++) {
            const char *o = t->col[c].text[q];
            seen = (s && o && strcmp(s, o) == 0) || (!s && !o);
        }
        n += !seen;
    }
    return n;
}

/* A column to split series by: a study input (scenario, solver, seed,
 * model values: the columns a job file holds before its eval dict, which
 * starts at "time") or a text column (status), with 2..SERIES_MAX values. */
static int series_column(const sm_study_table *t, int c)
{
    int results = sm_study_table_column(t, "time");
    if (strcmp(t->col[c].name, "job") == 0 || strcmp(t->col[c].name, "mapping") == 0) return 0;
    if (results >= 0 && c >= results && sm_study_table_numbers(t, c)) return 0;
    int d = distinct_values(t, c, SERIES_MAX);
    return d >= 2 && d <= SERIES_MAX;
}

static Tcl_Obj *columns_obj(const sm_study_table *t)
{
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int c = 0; c < t->ncols; c++) Tcl_ListObjAppendElement(NULL, l, str(t->col[c].name));
    return l;
}

static Tcl_Obj *state_obj(const sm_view *v)
{
    Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k, o) Tcl_DictObjPut(NULL, d, str(k), o)
    const sm_study_table *t = v->study;
    PUT("source", str(t ? v->study_source : ""));
    PUT("rows", Tcl_NewIntObj(t ? t->nrows : 0));
    if (t) {
        PUT("x", str(col_name(t, v->study_x)));
        PUT("y", str(col_name(t, v->study_y)));
        PUT("by", str(v->study_by >= 0 ? col_name(t, v->study_by) : "none"));
        PUT("published", Tcl_NewIntObj(v->study_published));
        /* What the pane draws: the series and the points. */
        sm_plot pl;
        sm_study_legend lg;
        sm_study_table_plot(t, v->study_x, v->study_y, v->study_by, v->study_published, 8, 4, &pl, &lg);
        Tcl_Obj *ser = Tcl_NewListObj(0, NULL);
        for (int k = 0; k < lg.nseries; k++) Tcl_ListObjAppendElement(NULL, ser, str(lg.label[k]));
        PUT("series", ser);
        PUT("points", Tcl_NewIntObj(lg.npoints));
        PUT("published_points", Tcl_NewIntObj(lg.nref));
        sm_study_legend_free(&lg);
        sm_plot_free(&pl);
    }
#undef PUT
    return d;
}

/* A column for -x/-y: present and holding numbers. */
static int numeric_column(Tcl_Interp *in, const sm_study_table *t, const char *src, const char *opt,
                          Tcl_Obj *name, int *col)
{
    int c = sm_study_table_column(t, Tcl_GetString(name));
    if (c < 0)
        return sm_tcl_error(in, "COLUMN", "view study: %s: %s %s: no such column (columns: %s)", src, opt,
                            Tcl_GetString(name), Tcl_GetString(columns_obj(t)));
    if (!sm_study_table_numbers(t, c))
        return sm_tcl_error(in, "COLUMN", "view study: %s: %s %s: the column holds no numbers", src, opt,
                            Tcl_GetString(name));
    *col = c;
    return TCL_OK;
}

/* The first numeric column named in prefs, else the first numeric
 * column other than skip and the job number. */
static int default_numeric(const sm_study_table *t, const char *pref, int skip)
{
    int c = sm_study_table_column(t, pref);
    if (c >= 0 && c != skip && sm_study_table_numbers(t, c)) return c;
    for (c = 0; c < t->ncols; c++)
        if (c != skip && strcmp(t->col[c].name, "job") != 0 && sm_study_table_numbers(t, c)) return c;
    return -1;
}

/* Options at objv[from..]: columns into x, y, by (left as given when
 * absent) and published. */
static int parse_opts(Tcl_Interp *in, const sm_study_table *t, const char *src, int objc,
                      Tcl_Obj *const objv[], int from, int *x, int *y, int *by, int *published)
{
    static const char *const opts[] = {"-x", "-y", "-by", "-published", NULL};
    if ((objc - from) % 2)
        return sm_tcl_error(in, "ARGS", "view study: options come in pairs: ?-x KEY? ?-y KEY? "
                            "?-by KEY|none? ?-published BOOL?");
    for (int i = from; i < objc; i += 2) {
        int o;
        if (sm_get_opt_index(in, objv[i], opts, &o) != TCL_OK) return TCL_ERROR;
        const char *val = Tcl_GetString(objv[i + 1]);
        if (o == 0 && numeric_column(in, t, src, "-x", objv[i + 1], x) != TCL_OK) return TCL_ERROR;
        if (o == 1 && numeric_column(in, t, src, "-y", objv[i + 1], y) != TCL_OK) return TCL_ERROR;
        if (o == 2) {
            *by = strcmp(val, "none") == 0 ? -1 : sm_study_table_column(t, val);
            if (*by < 0 && strcmp(val, "none") != 0)
                return sm_tcl_error(in, "COLUMN", "view study: %s: -by %s: no such column (columns: %s)",
                                    src, val, Tcl_GetString(columns_obj(t)));
        }
        if (o == 3 && Tcl_GetBooleanFromObj(NULL, objv[i + 1], published) != TCL_OK)
            return sm_tcl_error(in, "ARGS", "view study: -published expects a boolean, got \"%s\"", val);
    }
    return TCL_OK;
}

/* The merged table of a directory or a saved table file; errors name it. */
static int load_table(Tcl_Interp *in, const char *path, sm_study_table **out)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return sm_tcl_error(in, "IO", "view study: %s: no such study directory or table file", path);
    Tcl_Obj *rows;
    int rc = S_ISDIR(st.st_mode) ? sm_study_merge_table(in, path, &rows) : sm_study_table_file(in, path, &rows);
    if (rc != TCL_OK) {
        /* The reader's message, as this command's. */
        const char *m = Tcl_GetStringResult(in);
        if (strncmp(m, "study merge: ", 13) == 0) m += 13;
        Tcl_Obj *msg = Tcl_ObjPrintf("view study: %s", m);
        Tcl_SetObjResult(in, msg);
        return TCL_ERROR;
    }
    Tcl_IncrRefCount(rows);
    int n;
    Tcl_ListObjLength(NULL, rows, &n);
    if (n == 0) {
        Tcl_DecrRefCount(rows);
        return sm_tcl_error(in, "STUDY", "view study: %s: no job results in it (job-NNNNNN.json; "
                            "\"study run SPEC -out DIR\" makes them)", path);
    }
    *out = sm_study_table_of_rows(rows);
    Tcl_DecrRefCount(rows);
    return TCL_OK;
}

static int load(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    const char *path = Tcl_GetString(objv[2]);
    sm_study_table *t = NULL;
    if (sm_safe_check_path(app, in, path, SM_PATH_READ) || load_table(in, path, &t) != TCL_OK)
        return TCL_ERROR;
    /* Energy against deadline per solver unless told, as the thesis plots;
     * loading the shown study again (shards still writing) keeps the
     * columns chosen. */
    const sm_view *v0 = app->view;
    const sm_study_table *old = v0->study && strcmp(v0->study_source, path) == 0 ? v0->study : NULL;
    int x = default_numeric(t, old ? col_name(old, v0->study_x) : "deadline", -1);
    int y = default_numeric(t, old ? col_name(old, v0->study_y) : "energy", x);
    int by = sm_study_table_column(t, old ? (v0->study_by >= 0 ? col_name(old, v0->study_by) : "") : "solver");
    int published = old ? v0->study_published : -1;
    if (parse_opts(in, t, path, objc, objv, 3, &x, &y, &by, &published) != TCL_OK) {
        sm_study_table_free(t);
        return TCL_ERROR;
    }
    if (x < 0 || y < 0) {
        sm_study_table_free(t);
        return sm_tcl_error(in, "COLUMN", "view study: %s: fewer than two columns hold numbers; "
                            "nothing to plot", path);
    }
    sm_view *v = app->view;
    sm_view_set_study(v, t);
    snprintf(v->study_source, sizeof v->study_source, "%s", path);
    v->study_x = x;
    v->study_y = y;
    v->study_by = by;
    v->study_published = published != 0;
    return TCL_OK;
}

/* The next (dir +1) or previous column of its kind after cur: numeric
 * for x and y, a few distinct values (or none) for by. */
static int cycle_column(const sm_study_table *t, int axis, int cur, int dir)
{
    int n = t->ncols + (axis == 2);    /* by: slot n-1 means none */
    int at = axis == 2 && cur < 0 ? n - 1 : cur;
    for (int i = 0; i < n; i++) {
        at = (at + dir + n) % n;
        if (axis == 2 && at == n - 1) return -1;
        if (axis == 2 ? series_column(t, at)
                      : sm_study_table_numbers(t, at) && strcmp(t->col[at].name, "job") != 0)
            return at;
    }
    return cur;
}

static int cycle(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const axes[] = {"x", "y", "by", NULL};
    static const char *const dirs[] = {"next", "prev", NULL};
    int axis, dir = 0;
    if (objc < 4 || objc > 5) {
        Tcl_WrongNumArgs(in, 2, objv, "cycle x|y|by ?next|prev?");
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObj(in, objv[3], axes, "axis", 0, &axis) != TCL_OK ||
        (objc == 5 && Tcl_GetIndexFromObj(in, objv[4], dirs, "direction", 0, &dir) != TCL_OK)) {
        Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
        return TCL_ERROR;
    }
    sm_view *v = app->view;
    if (!v->study)
        return sm_tcl_error(in, "STATE", "view study cycle: no study loaded (view study DIR)");
    int *field = axis == 0 ? &v->study_x : axis == 1 ? &v->study_y : &v->study_by;
    *field = cycle_column(v->study, axis, *field, dir ? -1 : 1);
    sm_view_touch(v);
    return TCL_OK;
}

int sm_view_study_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_view *v = app->view;
    const char *a = objc > 2 ? Tcl_GetString(objv[2]) : "";
    int rc = TCL_OK;
    if (objc == 3 && strcmp(a, "off") == 0) {
        sm_view_set_study(v, NULL);
    } else if (objc > 2 && strcmp(a, "cycle") == 0) {
        rc = cycle(app, in, objc, objv);
    } else if (objc > 2 && a[0] == '-') {
        if (!v->study)
            return sm_tcl_error(in, "STATE", "view study: no study loaded; give its directory or "
                                "file first (view study DIR ?-x KEY? ...)");
        int x = v->study_x, y = v->study_y, by = v->study_by, published = v->study_published;
        rc = parse_opts(in, v->study, v->study_source, objc, objv, 2, &x, &y, &by, &published);
        if (rc == TCL_OK) {
            v->study_x = x;
            v->study_y = y;
            v->study_by = by;
            v->study_published = published;
            sm_view_touch(v);
        }
    } else if (objc > 2) {
        rc = load(app, in, objc, objv);
    }
    if (rc == TCL_OK) Tcl_SetObjResult(in, state_obj(v));
    return rc;
}
