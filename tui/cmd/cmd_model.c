/* cmd_model.c - model configure | eval | procs | metrics | links | rounds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/bound/energy_bound.h"
#include "core/traffic/link_load_counts.h"
#include "core/traffic/mapping_metrics.h"
#include "cmd_common.h"

static Tcl_Obj *model_dict(const sm_model *m)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("-rounds", -1), Tcl_NewStringObj(sm_rounds_name(m->rounds), -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("-overlap", -1), Tcl_NewIntObj(m->overlap));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("-round_time", -1), Tcl_NewDoubleObj(m->round_time));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("-deadline", -1),
                   m->has_deadline ? Tcl_NewDoubleObj(m->deadline) : Tcl_NewStringObj("none", -1));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("-unused", -1),
                   Tcl_NewStringObj(m->unused_idle ? "idle" : "off", -1));
    return d;
}

/* Seconds in [lo, hi]: the loaders' range, so a saved model loads again. */
static int seconds(Tcl_Interp *in, Tcl_Obj *o, const char *opt, double lo, double hi,
                   double *out)
{
    double v;
    if (Tcl_GetDoubleFromObj(NULL, o, &v) != TCL_OK || !isfinite(v) || v < lo || v > hi)
        return sm_tcl_error(in, "ARGS", "%s: expected seconds in [%g, %g], got \"%s\"",
                            opt, lo, hi, Tcl_GetString(o));
    *out = v;
    return TCL_OK;
}

int sm_model_parse_opts(Tcl_Interp *in, sm_model *mp, int n, Tcl_Obj *const kv[])
{
    static const char *const opts[] = {"-rounds", "-overlap", "-round_time", "-deadline",
                                       "-unused", NULL};
    sm_model m = *mp;
    for (int i = 0; i + 1 < n; i += 2) {
        int idx;
        if (sm_get_opt_index(in, kv[i], opts, &idx)) return TCL_ERROR;
        Tcl_Obj *v = kv[i + 1];
        const char *s = Tcl_GetString(v);
        switch (idx) {
        case 0:
            if (sm_rounds_parse(s, &m.rounds))
                return sm_tcl_error(in, "ARGS", "-rounds: expected maxdeg, vizing or colouring, got \"%s\"", s);
            break;
        case 1: {
            int b;
            if (Tcl_GetBooleanFromObj(NULL, v, &b) != TCL_OK)
                return sm_tcl_error(in, "ARGS", "-overlap: expected 0 or 1, got \"%s\"", s);
            m.overlap = b;
            break;
        }
        case 2:
            if (seconds(in, v, "-round_time", SM_ROUND_TIME_MIN, SM_ROUND_TIME_MAX,
                        &m.round_time)) return TCL_ERROR;
            break;
        case 3:
            if (strcmp(s, "none") == 0 || s[0] == '\0') m.has_deadline = 0;
            else {
                if (seconds(in, v, "-deadline", SM_DEADLINE_MIN, SM_DEADLINE_MAX,
                            &m.deadline)) return TCL_ERROR;
                m.has_deadline = 1;
            }
            break;
        case 4:
            if (strcmp(s, "idle") == 0) m.unused_idle = 1;
            else if (strcmp(s, "off") == 0) m.unused_idle = 0;
            else return sm_tcl_error(in, "ARGS", "-unused: expected idle or off, got \"%s\"", s);
            break;
        }
    }
    *mp = m;
    return TCL_OK;
}

static int model_configure(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    sm_model m = app->session->model;
    if (objc == 2) {
        Tcl_SetObjResult(in, model_dict(&m));
        return TCL_OK;
    }
    if ((objc - 2) % 2)
        return sm_tcl_error(in, "ARGS", "model configure: options come in pairs: -option value");
    if (sm_app_check_change(app, in, "model configure")) return TCL_ERROR;
    if (sm_model_parse_opts(in, &m, objc - 2, objv + 2) != TCL_OK) return TCL_ERROR;
    sm_app_detach_solver(app, "model configure");
    sm_session_set_model(app->session, &m);
    if (sm_app_changed(app) != TCL_OK) return TCL_ERROR;
    Tcl_SetObjResult(in, model_dict(&m));
    return TCL_OK;
}

static int model_eval(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_eval ev;
    sm_cost_eval(app->session->cost, &ev);
    if (!sm_eval_finite(&ev))
        return sm_tcl_error(in, "RANGE", "model eval: time %g s, energy %g J: a total is not a finite "
                            "number (the machine's figures are too large)", ev.time, ev.energy);
    Tcl_SetObjResult(in, sm_eval_dict(&ev));
    return TCL_OK;
}

static int model_procs(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_eval ev;
    sm_cost_eval(app->session->cost, &ev);
    Tcl_SetObjResult(in, sm_proc_dicts(app, &ev));
    return TCL_OK;
}

static int model_metrics(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_metrics m;
    sm_session *s = app->session;
    sm_metrics_compute(s->grid, s->topo, sm_session_map(s), &m);
    Tcl_SetObjResult(in, sm_metrics_dict(&m));
    return TCL_OK;
}

/* The dict of `model metrics`, also `solver metrics`'s (one key list). */
Tcl_Obj *sm_metrics_dict(const sm_metrics *m)
{
    Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(#k, -1), Tcl_NewWideIntObj(m->k))
    PUT(hops);
    PUT(hop_cells);
    PUT(dilation_max);
    PUT(congestion);
    PUT(cardinality);
#undef PUT
    return d;
}

/* Per physical link, the messages and cells it carries (SPEC 5). */
static int model_links(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_session *s = app->session;
    sm_link_load *ll;
    sm_err e;
    int n = sm_links_compute(s->grid, s->topo, sm_session_map(s), &ll, &e);
    if (n < 0) return sm_tcl_error(in, "MODEL", "%s", e.msg);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < n; i++) {
        Tcl_Obj *d = Tcl_NewDictObj();
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("from", -1), Tcl_NewIntObj(ll[i].from));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("to", -1), Tcl_NewIntObj(ll[i].to));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("messages", -1), Tcl_NewWideIntObj(ll[i].messages));
        Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("cells", -1), Tcl_NewWideIntObj(ll[i].cells));
        Tcl_ListObjAppendElement(NULL, l, d);
    }
    free(ll);
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

/* The schedule under the current rounds model: for maxdeg and vizing the
 * program's colouring is shown, since those models only count. */
static int model_rounds(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    sm_session *s = app->session;
    sm_schedule sch;
    sm_cost_schedule(s->cost, &sch);
    Tcl_Obj *l = Tcl_NewListObj(0, NULL);
    for (int r = 0; r < sch.nrounds; r++) {
        Tcl_Obj *round = Tcl_NewListObj(0, NULL);
        for (int k = 0; k < sch.rounds[r].count; k++) {
            const sm_round_entry *en = &sch.entries[sch.rounds[r].first + k];
            Tcl_Obj *e[3] = {Tcl_NewStringObj(s->topo->procs[en->p].name, -1),
                             Tcl_NewStringObj(s->topo->procs[en->q].name, -1),
                             Tcl_NewDoubleObj((double)en->quanta * s->model.round_time)};
            Tcl_ListObjAppendElement(NULL, round, Tcl_NewListObj(3, e));
        }
        Tcl_ListObjAppendElement(NULL, l, round);
    }
    sm_schedule_free(&sch);
    Tcl_SetObjResult(in, l);
    return TCL_OK;
}

/* model bound: a proven lower bound on the energy of any mapping that
 * meets the deadline, with the method (core/bound/energy_bound.c). */
Tcl_Obj *sm_bound_dict(const sm_bound *b, const sm_topo *t)
{
    Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
    PUT("energy", Tcl_NewDoubleObj(b->energy));
    PUT("method", Tcl_NewStringObj(b->method, -1));
    PUT("compute_only", Tcl_NewDoubleObj(b->compute_only));
    PUT("comm", Tcl_NewDoubleObj(b->comm));
    PUT("time", Tcl_NewDoubleObj(b->time));
    PUT("seconds", Tcl_NewDoubleObj(b->seconds));
    if (b->counts) {
        Tcl_Obj *l = Tcl_NewListObj(0, NULL);
        for (int p = 0; p < b->nprocs && p < t->nprocs; p++)
            Tcl_ListObjAppendElement(NULL, l, Tcl_NewIntObj(b->counts[p]));
        PUT("counts", l);
    }
#undef PUT
    return d;
}

static int model_bound(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc; (void)objv;
    const sm_bound *b = sm_app_bound(app);
    Tcl_SetObjResult(in, sm_bound_dict(b, app->session->topo));
    return TCL_OK;
}

static const sm_subcmd model_subs[] = {
    {"configure", model_configure, 0, -1,
     "?-rounds maxdeg|vizing|colouring? ?-overlap 0|1? ?-round_time S? ?-deadline S|none? ?-unused idle|off?"},
    {"eval", model_eval, 0, 0, ""},
    {"procs", model_procs, 0, 0, ""},
    {"metrics", model_metrics, 0, 0, ""},
    {"links", model_links, 0, 0, ""},
    {"rounds", model_rounds, 0, 0, ""},
    {"bound", model_bound, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

static int model_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, model_subs);
}

void sm_register_model_cmds(sm_app *app)
{
    sm_create_ensemble(app, "model", model_cmd, model_subs);
}
