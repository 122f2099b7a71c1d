/* cmd_topo_measure_links.c - topo measure links (SPEC 8): the intra-node
 * link between two of this machine's processors measured as the halo
 * copy it carries (core/measure/intra_node_link_bandwidth_latency.h: a message written on one
 * processor's core, copied by the other's), its latency, bandwidth and
 * fitted time per cell; -apply writes the time per cell into the
 * topology's intra class for the two types, with its source. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_common.h"
#include "cmd_topo_measure.h"
#include "core/measure/intra_node_link_bandwidth_latency.h"
#include "core/session/session_edits_undo_redo.h"
#include "core/io/topology_file.h"

static int bad(Tcl_Interp *in, const char *fmt, const char *arg)
{
    return sm_tcl_error(in, "ARGS", fmt, arg);
}

static sm_app *sigint_app;
static void on_sigint(int sig)
{
    (void)sig;
    if (sigint_app) sigint_app->interrupt = 1;
}

typedef struct lopts {
    Tcl_Obj *procs;
    int64_t *cells;
    int nsizes, apply;
    sm_measure_stop_opts stop;  /* -cl -eps -reps -mintime -timeout */
    sm_link_opts lo;
} lopts;

static int parse(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], lopts *o)
{
    static const char *const names[] = {"-processors", "-sizes", "-cl", "-eps", "-reps", "-mintime", "-timeout",
                                        "-apply", NULL};
    for (int i = 3; i < objc; i++) {
        int idx;
        if (sm_get_opt_index(in, objv[i], names, &idx) != TCL_OK) return TCL_ERROR;
        if (idx == 7) {
            o->apply = 1;
            continue;
        }
        int nstop = sm_measure_stop_opt_values(names[idx]);
        int need = nstop ? nstop : 1;
        if (i + need >= objc) return bad(in, "topo measure links: %s needs a value", names[idx]);
        Tcl_Obj *v = objv[i + 1];
        const char *s = Tcl_GetString(v);
        if (nstop) {
            if (sm_measure_stop_opt(in, "topo measure links", names[idx], objv + i + 1, &o->stop) != TCL_OK)
                return TCL_ERROR;
        } else if (idx == 0) {
            o->procs = v;
        } else if (idx == 1) {
            int n;
            Tcl_Obj **el;
            if (Tcl_ListObjGetElements(NULL, v, &n, &el) != TCL_OK || n < 1 || n > 64)
                return bad(in, "topo measure links: -sizes expects 1 to 64 message sizes in cells, got \"%s\"", s);
            free(o->cells);
            o->cells = sm_xmalloc(sizeof(int64_t) * (size_t)n);
            o->nsizes = n;
            for (int k = 0; k < n; k++) {
                Tcl_WideInt w;
                if (Tcl_GetWideIntFromObj(NULL, el[k], &w) != TCL_OK || w < 1 || w > (1 << 24) ||
                    (k && w <= o->cells[k - 1]))
                    return bad(in, "topo measure links: -sizes expects cells from 1 to 16777216, increasing, got \"%s\"", s);
                o->cells[k] = w;
            }
        }
        i += need;
    }
    return TCL_OK;
}

/* Default sizes: the grid's largest halo face (cells of a block's face
 * times the halo) and a quarter, a sixteenth, a 64th of it. */
static void default_sizes(const sm_grid *g, lopts *o)
{
    int64_t b[3], face = 1;
    for (int a = 0; a < 3; a++) b[a] = sm_grid_extent(&g->spec, a, 0);
    for (int a = 0; a < 3; a++) {
        int64_t f = (int64_t)g->spec.halo;
        for (int c = 0; c < 3; c++)
            if (c != a) f *= b[c];
        if (f > face) face = f;
    }
    if (face > (1 << 24)) face = 1 << 24;
    o->cells = sm_xmalloc(sizeof(int64_t) * 4);
    o->nsizes = 0;
    for (int d = 64; d >= 1; d /= 4) {
        int64_t c = face / d;
        if (c >= 1 && (o->nsizes == 0 || c > o->cells[o->nsizes - 1])) o->cells[o->nsizes++] = c;
    }
}

/* The intra class key of two types: sorted names joined by '-'. */
static void class_key(const char *a, const char *b, char *out, size_t len)
{
    if (strcmp(a, b) > 0) {
        const char *t = a;
        a = b;
        b = t;
    }
    snprintf(out, len, "%s-%s", a, b);
}

/* -apply: the class for the two types gets the measured time per cell
 * (fitted); its energy per cell stays what the pair had (estimated when
 * the class is new or was not measured). Through JSON, as save writes. */
static int apply(sm_app *app, Tcl_Interp *in, const char *key, int p, int q, double tpc)
{
    const sm_topo *t = app->session->topo;
    double old_t = 0, old_e = 0;
    sm_topo_link(t, p, q, &old_t, &old_e);
    cJSON *j = sm_topo_to_json(t);
    cJSON *links = cJSON_GetObjectItemCaseSensitive(j, "links");
    cJSON *intra = links ? cJSON_GetObjectItemCaseSensitive(links, "intra") : NULL;
    if (!intra) {
        cJSON_Delete(j);
        return sm_tcl_error(in, "MEASURE", "topo measure links -apply: the topology has no links.intra");
    }
    const char *esrc = "estimated";
    cJSON *old = cJSON_GetObjectItemCaseSensitive(intra, key);
    if (old) {
        cJSON *s = cJSON_GetObjectItemCaseSensitive(old, "source");
        cJSON *es = s ? cJSON_GetObjectItemCaseSensitive(s, "energy_per_cell") : NULL;
        if (cJSON_IsString(es)) esrc = es->valuestring;
    }
    cJSON *c = cJSON_CreateObject();
    cJSON_AddNumberToObject(c, "time_per_cell", tpc);
    cJSON_AddNumberToObject(c, "energy_per_cell", old_e);
    cJSON *src = cJSON_AddObjectToObject(c, "source");
    cJSON_AddStringToObject(src, "time_per_cell", "fitted");
    cJSON_AddStringToObject(src, "energy_per_cell", esrc);
    if (old) cJSON_ReplaceItemInObjectCaseSensitive(intra, key, c);
    else cJSON_AddItemToObject(intra, key, c);
    sm_err e;
    sm_topo *nt = sm_topo_from_json(j, "", &e);
    cJSON_Delete(j);
    if (!nt) return sm_tcl_error(in, "MEASURE", "topo measure links -apply: %s", e.msg);
    sm_app_detach_solver(app, "topo measure links -apply");
    sm_session_set_topo_keep_map(app->session, nt);
    return sm_app_changed(app);
}

int sm_topo_measure_links_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    lopts o;
    memset(&o, 0, sizeof o);
    o.stop = (sm_measure_stop_opts){.cl = 0.95, .eps = 0.05, .reps_min = 5, .reps_max = 50, .mintime = 0.02, .timeout = 10};
    sm_measure_target *tg = NULL;
    int ntg = 0, rc = parse(in, objc, objv, &o);
    if (rc == TCL_OK) {
        int n = 0;
        if (o.procs && (Tcl_ListObjLength(NULL, o.procs, &n) != TCL_OK || n != 2))
            rc = bad(in, "topo measure links: -processors expects two processor names, got \"%s\"",
                     Tcl_GetString(o.procs));
    }
    if (rc == TCL_OK) rc = sm_measure_resolve(app, in, o.procs, &tg, &ntg);
    if (rc == TCL_OK && ntg < 2)
        rc = sm_tcl_error(in, "PLACE", "topo measure links: a link joins two processors of this machine; %s",
                          o.procs ? "the two names are one processor"
                                  : "the topology has one CPU processor here (topo detect -per core gives one "
                                    "per core)");
    if (rc == TCL_OK && o.apply && sm_app_check_change(app, in, "topo measure links -apply")) rc = TCL_ERROR;
    if (rc != TCL_OK) {
        sm_measure_targets_free(tg, ntg);
        free(o.cells);
        return rc;
    }
    if (!o.cells) default_sizes(app->session->grid, &o);
    const sm_topo *t = app->session->topo;
    int p = tg[0].proc, q = tg[1].proc;
    o.lo.cpu_a = tg[0].cpus[0];
    o.lo.cpu_b = tg[1].cpus[0];
    o.lo.cl = o.stop.cl;
    o.lo.eps = o.stop.eps;
    o.lo.reps_min = o.stop.reps_min;
    o.lo.reps_max = o.stop.reps_max;
    o.lo.min_rep_seconds = o.stop.mintime;
    o.lo.timeout = o.stop.timeout;
    o.lo.cells = o.cells;
    o.lo.nsizes = o.nsizes;
    o.lo.interrupt = &app->interrupt;
    app->interrupt = 0;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigint_app = app;
    sigaction(SIGINT, &sa, &old);
    char why[512];
    sm_link_result *r = sm_measure_link(&o.lo, why, sizeof why);
    sigaction(SIGINT, &old, NULL);
    sigint_app = NULL;
    char key[600];
    class_key(t->types[t->procs[p].type].name, t->types[t->procs[q].type].name, key, sizeof key);
    if (!r) {
        rc = sm_tcl_error(in, "MEASURE", "topo measure links: %s", why);
    } else {
        Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
        PUT("class", Tcl_NewStringObj(key, -1));
        Tcl_Obj *pn[2] = {Tcl_NewStringObj(t->procs[p].name, -1), Tcl_NewStringObj(t->procs[q].name, -1)};
        PUT("processors", Tcl_NewListObj(2, pn));
        Tcl_Obj *cp[2] = {Tcl_NewIntObj(o.lo.cpu_a), Tcl_NewIntObj(o.lo.cpu_b)};
        PUT("cpus", Tcl_NewListObj(2, cp));
        PUT("latency", Tcl_NewDoubleObj(r->latency.mean));
        PUT("latency_ci_low", Tcl_NewDoubleObj(r->latency.low));
        PUT("latency_ci_high", Tcl_NewDoubleObj(r->latency.high));
        PUT("bandwidth", Tcl_NewDoubleObj(r->bandwidth));
        PUT("time_per_cell", Tcl_NewDoubleObj(r->time_per_cell));
        Tcl_Obj *pts = Tcl_NewListObj(0, NULL);
        for (int i = 0; i < r->npoints; i++) {
            const sm_link_point *pt = &r->points[i];
            Tcl_Obj *pd = Tcl_NewDictObj();
#define PP(k, v) Tcl_DictObjPut(NULL, pd, Tcl_NewStringObj(k, -1), v)
            PP("cells", Tcl_NewWideIntObj(pt->cells));
            PP("reps", Tcl_NewIntObj(pt->reps));
            PP("iters", Tcl_NewIntObj(pt->iters));
            PP("mean", Tcl_NewDoubleObj(pt->t.mean));
            PP("ci_low", Tcl_NewDoubleObj(pt->t.low));
            PP("ci_high", Tcl_NewDoubleObj(pt->t.high));
            PP("tight", Tcl_NewBooleanObj(pt->tight));
            if (!pt->tight) PP("why", Tcl_NewStringObj(pt->why, -1));
#undef PP
            Tcl_ListObjAppendElement(NULL, pts, pd);
        }
        PUT("points", pts);
        PUT("energy_source", Tcl_NewStringObj("none", -1));
        PUT("why", Tcl_NewStringObj("a link's energy is not measured: RAPL counts a package's energy, not a "
                                    "transfer's; energy_per_cell stays the class's", -1));
        PUT("cl", Tcl_NewDoubleObj(o.lo.cl));
        PUT("eps", Tcl_NewDoubleObj(o.lo.eps));
        PUT("interrupted", Tcl_NewBooleanObj(r->interrupted));
        PUT("seconds", Tcl_NewDoubleObj(r->seconds));
#undef PUT
        Tcl_IncrRefCount(d);
        if (o.apply && r->npoints > 0 && r->time_per_cell > 0) rc = apply(app, in, key, p, q, r->time_per_cell);
        else if (o.apply) rc = sm_tcl_error(in, "MEASURE", "topo measure links -apply: no message size was measured");
        if (rc == TCL_OK) Tcl_SetObjResult(in, d);
        Tcl_DecrRefCount(d);
    }
    sm_link_result_free(r);
    sm_measure_targets_free(tg, ntg);
    free(o.cells);
    return rc;
}
