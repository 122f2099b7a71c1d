/* cmd_topo_measure.c - topo measure (SPEC 8): this machine's CPU
 * processors measured with the stencil kernel (core/measure), the result
 * per type, the profile CSV (-o) and the fitted parameters written into
 * the topology with where each came from (-apply). */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd_common.h"
#include "cmd_topo_measure.h"
#include "core/lib/strbuf.h"
#include "core/measure/processor_profile_sweep.h"
#include "core/model/grid_memory.h"
#include "core/model/processor_time_energy.h"
#include "core/session/session_edits_undo_redo.h"
#include "core/lib/atomic_file_write.h"
#include "core/io/topology_file.h"

/* The last measurement per type, for `topo profile plot TYPE` (its
 * intervals are not part of the topology). */
static Tcl_Obj *last_measured;

Tcl_Obj *sm_topo_measured(void) { return last_measured; }

static sm_app *sigint_app;
static void on_sigint(int sig)
{
    (void)sig;
    if (sigint_app) sigint_app->interrupt = 1;
}

typedef struct mopts {
    sm_kstencil stencil;
    Tcl_Obj *procs;      /* -processors, or NULL: every CPU processor */
    int *sizes, nsizes;
    sm_measure_stop_opts stop;  /* -cl -eps -reps -mintime -timeout */
    int simultaneous, apply;
    const char *out;
} mopts;

static int bad(Tcl_Interp *in, const char *fmt, const char *arg)
{
    return sm_tcl_error(in, "ARGS", fmt, arg);
}

static int parse(Tcl_Interp *in, int objc, Tcl_Obj *const objv[], mopts *o)
{
    static const char *const names[] = {"-processors", "-kernel", "-sizes", "-cl", "-eps", "-reps",
                                        "-simultaneous", "-apply", "-o", "-mintime", "-timeout", NULL};
    for (int i = 2; i < objc; i++) {
        int idx;
        if (sm_get_opt_index(in, objv[i], names, &idx) != TCL_OK) return TCL_ERROR;
        if (idx == 7) {
            o->apply = 1;
            continue;
        }
        int nstop = sm_measure_stop_opt_values(names[idx]);
        int need = nstop ? nstop : 1;
        if (i + need >= objc) return bad(in, "topo measure: %s needs a value", names[idx]);
        Tcl_Obj *v = objv[i + 1];
        const char *s = Tcl_GetString(v);
        if (nstop) {
            if (sm_measure_stop_opt(in, "topo measure", names[idx], objv + i + 1, &o->stop) != TCL_OK) return TCL_ERROR;
            i += need;
            continue;
        }
        switch (idx) {
        case 0: o->procs = v; break;
        case 1:
            if (sm_kernel_stencil_parse(s, &o->stencil))
                return bad(in, "topo measure: unknown kernel \"%s\": expected 5pt, 7pt, 9pt or 27pt", s);
            break;
        case 2: {
            int n;
            Tcl_Obj **el;
            if (Tcl_ListObjGetElements(NULL, v, &n, &el) != TCL_OK || n < 1 || n > 4096)
                return bad(in, "topo measure: -sizes expects a list of 1 to 4096 block counts, got \"%s\"", s);
            free(o->sizes);
            o->sizes = sm_xmalloc(sizeof(int) * (size_t)n);
            o->nsizes = n;
            for (int k = 0; k < n; k++)
                if (Tcl_GetIntFromObj(NULL, el[k], &o->sizes[k]) != TCL_OK || o->sizes[k] < 1 ||
                    o->sizes[k] > (1 << 24) || (k && o->sizes[k] <= o->sizes[k - 1]))
                    return bad(in, "topo measure: -sizes expects block counts from 1, increasing, got \"%s\"", s);
            break;
        }
        case 6: {
            static const char *const onoff[] = {"off", "on", NULL};
            if (Tcl_GetIndexFromObj(NULL, v, onoff, "", 0, &o->simultaneous) != TCL_OK)
                return bad(in, "topo measure: -simultaneous expects on or off, got \"%s\"", s);
            break;
        }
        case 8: o->out = s; break;
        }
        i += need;
    }
    return TCL_OK;
}

typedef sm_measure_target target;

/* The block shape measured: the grid's largest block (its first), in the
 * kernel's dimensions (a 2-D kernel on a 3-D grid takes X x Y; a 3-D one
 * on a 2-D grid a block min(X,Y) deep). */
static void block_shape(const sm_grid *g, sm_kstencil k, int64_t b[3])
{
    for (int a = 0; a < 3; a++) b[a] = sm_grid_extent(&g->spec, a, 0);
    if (sm_kernel_dims(k) == 2) b[2] = 1;
    else if (b[2] == 1 && g->spec.cells[2] == 1) b[2] = b[0] < b[1] ? b[0] : b[1];
}

static Tcl_Obj *num(double v) { return Tcl_NewDoubleObj(v); }
static void put(Tcl_Obj *d, const char *k, Tcl_Obj *v) { Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v); }
static Tcl_Obj *str(const char *s) { return Tcl_NewStringObj(s, -1); }

typedef struct progress_ctx {
    sm_app *app;
    int tty, last_point;
} progress_ctx;

/* A finished point goes into the Profile pane's view (its first type). */
static void view_point(sm_profile_view *pv, const sm_measure_point *p)
{
    if (pv->n >= SM_PROFILE_VIEW_MAX) return;
    pv->pt[pv->n++] = (sm_profile_view_pt){p->blocks, p->reps, p->tight, p->t.mean, p->t.low, p->t.high};
}

static void progress(const sm_measure_progress *pr, void *ctx)
{
    progress_ctx *c = ctx;
    sm_app *app = c->app;
    if (pr->finished) {
        if (pr->finished_group == 0) view_point(&app->view->profile, pr->finished);
        return;
    }
    char line[200];
    snprintf(line, sizeof line, "topo measure: point %d/%d, %d blocks, rep %d/%d, %s %.4g s +- %.1f%%",
             pr->point + 1, pr->npoints, pr->blocks, pr->rep, pr->reps_max, pr->group ? pr->group : "",
             pr->mean, pr->mean > 0 && isfinite(pr->half) ? 100 * pr->half / pr->mean : 100.0);
    if (app->screen) {
        if (pr->point != c->last_point) sm_view_log(app->view, SM_LOG_NOTE, "%s", line);
        c->last_point = pr->point;
        sm_app_progress(app);
        return;
    }
    if (c->tty) {
        fprintf(stderr, "\r%s\033[K", line);
    } else if (pr->point != c->last_point) {
        fprintf(stderr, "%s\n", line);
    }
    c->last_point = pr->point;
    fflush(stderr);
}

static Tcl_Obj *group_dict(const sm_measure_group *G, const sm_measure_result *r, const mopts *o,
                           const int64_t block[3], const char *host, const char *date, Tcl_Obj *pnames)
{
    Tcl_Obj *d = Tcl_NewDictObj(), *prof = Tcl_NewListObj(0, NULL), *pts = Tcl_NewListObj(0, NULL);
    for (int k = 0; k < G->npoints; k++) {
        const sm_measure_point *p = &G->points[k];
        Tcl_Obj *row[3] = {Tcl_NewIntObj(p->blocks), num(p->t.mean), G->energy ? num(p->e.mean) : str("")};
        Tcl_ListObjAppendElement(NULL, prof, Tcl_NewListObj(3, row));
        Tcl_Obj *pd = Tcl_NewDictObj(), *times = Tcl_NewListObj(0, NULL);
        put(pd, "blocks", Tcl_NewIntObj(p->blocks));
        put(pd, "reps", Tcl_NewIntObj(p->reps));
        put(pd, "mean", num(p->t.mean));
        put(pd, "ci_low", num(p->t.low));
        put(pd, "ci_high", num(p->t.high));
        put(pd, "tight", Tcl_NewBooleanObj(p->tight));
        put(pd, "iters", Tcl_NewIntObj(p->iters));
        put(pd, "seconds", num(p->seconds));
        put(pd, "preempted", num(p->preempted));
        put(pd, "load", num(p->load));
        if (!p->tight) put(pd, "why", str(p->why));
        for (int i = 0; i < p->reps; i++) Tcl_ListObjAppendElement(NULL, times, num(p->time[i]));
        put(pd, "times", times);
        if (G->energy) {
            put(pd, "energy", num(p->e.mean));
            put(pd, "energy_ci_low", num(p->e.low));
            put(pd, "energy_ci_high", num(p->e.high));
        }
        Tcl_ListObjAppendElement(NULL, pts, pd);
    }
    put(d, "profile", prof);
    put(d, "points", pts);
    Tcl_Obj *fit = Tcl_NewDictObj();
    put(fit, "time_per_cell", num(G->time_per_cell));
    put(fit, "energy_per_cell", G->energy ? num(G->energy_per_cell) : str(""));
    if (G->energy) {
        put(fit, "p0", num(G->p_idle));
        put(fit, "p_idle", num(G->p_idle));
    }
    put(d, "fit", fit);
    put(d, "energy_source", str(G->source));
    if (!G->energy) put(d, "why", str(G->why));
    put(d, "kernel", str(sm_kernel_stencil_name(o->stencil)));
    put(d, "threads", Tcl_NewIntObj(G->threads));
    Tcl_Obj *bl[3] = {Tcl_NewWideIntObj(block[0]), Tcl_NewWideIntObj(block[1]), Tcl_NewWideIntObj(block[2])};
    put(d, "block", Tcl_NewListObj(3, bl));
    put(d, "host", str(host));
    put(d, "date", str(date));
    put(d, "processors", pnames);
    put(d, "cl", num(o->stop.cl));
    put(d, "eps", num(o->stop.eps));
    put(d, "simultaneous", Tcl_NewBooleanObj(o->simultaneous));
    put(d, "interrupted", Tcl_NewBooleanObj(r->interrupted));
    if (r->stopped[0]) put(d, "stopped", str(r->stopped));
    put(d, "seconds", num(r->seconds));
    return d;
}

/* The profile CSV (stencilmap-formats(5)): metadata as "# key: value",
 * each point's interval as "# point: ...", then blocks,time,energy rows
 * (energy empty where not measured). */
static void csv_of(sm_strbuf *b, const char *type, Tcl_Obj *d, const sm_measure_group *G)
{
    sm_strbuf_put(b, "# stencilmap profile measured by topo measure\n# type: %s\n", type);
    static const char *const keys[] = {"kernel", "threads", "block", "processors", "pinned", "pinning", "host", "date", "cl", "eps",
                                       "simultaneous", "energy_source", "why", "interrupted", NULL};
    for (int i = 0; keys[i]; i++) {
        Tcl_Obj *v = NULL;
        Tcl_DictObjGet(NULL, d, Tcl_NewStringObj(keys[i], -1), &v);
        if (!v) continue;
        sm_strbuf_put(b, "# %s: ", keys[i]);
        for (const char *c = Tcl_GetString(v); *c; c++) sm_strbuf_put(b, "%c", *c == '\n' ? ' ' : *c);
        sm_strbuf_put(b, "\n");
    }
    sm_strbuf_put(b, "# time_per_cell: %.9g\n", G->time_per_cell);
    if (G->energy) sm_strbuf_put(b, "# energy_per_cell: %.9g\n# p_idle: %.9g\n", G->energy_per_cell, G->p_idle);
    for (int k = 0; k < G->npoints; k++) {
        const sm_measure_point *p = &G->points[k];
        sm_strbuf_put(b, "# point: blocks %d reps %d iters %d ci_low %.9g ci_high %.9g tight %d seconds %.4g preempted %.4g\n",
                      p->blocks, p->reps, p->iters, p->t.low, p->t.high, p->tight, p->seconds, p->preempted);
        if (!p->tight) sm_strbuf_put(b, "# why %d: %s\n", p->blocks, p->why);
    }
    sm_strbuf_put(b, "blocks,time,energy\n");
    for (int k = 0; k < G->npoints; k++) {
        const sm_measure_point *p = &G->points[k];
        if (G->energy) sm_strbuf_put(b, "%d,%.9g,%.9g\n", p->blocks, p->t.mean, p->e.mean > 0 ? p->e.mean : 0);
        else sm_strbuf_put(b, "%d,%.9g,\n", p->blocks, p->t.mean);
    }
}

/* FILE for one type; with several, FILE's stem gets -TYPE. */
static char *csv_name(const char *out, const char *type, int ntypes)
{
    if (ntypes == 1) return sm_xstrdup(out);
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - out) : strlen(out);
    size_t n = strlen(out) + strlen(type) + 2;
    char *s = sm_xmalloc(n);
    snprintf(s, n, "%.*s-%s%s", (int)stem, out, type, out + stem);
    return s;
}

/* -apply: the types measured get the profile and fitted figures, each
 * with its source; what was not measured keeps its figure, said to be
 * estimated when it was. */
static int apply(sm_app *app, Tcl_Interp *in, const sm_measure_result *r, const int *type_of_group, double cells)
{
    sm_topo *t = sm_topo_clone(app->session->topo);
    for (int g = 0; g < r->ngroups; g++) {
        const sm_measure_group *G = &r->groups[g];
        if (G->npoints == 0) continue;
        sm_type *T = &t->types[type_of_group[g]];
        const sm_params *pa = sm_type_params(T);
        double epc = pa->energy_per_cell, bpc = pa->bytes_per_cell;
        sm_profile_pt *pts = sm_xmalloc(sizeof *pts * (size_t)G->npoints);
        for (int k = 0; k < G->npoints; k++) {
            const sm_measure_point *p = &G->points[k];
            pts[k].blocks = p->blocks;
            pts[k].time = p->t.mean;
            /* No counter: the profile's energy is the type's per-cell
             * figure, and its source says so (profile_energy). */
            pts[k].energy = G->energy ? (p->e.mean > 0 ? p->e.mean : 0) : epc * cells * p->blocks;
        }
        T->base.roofline = 0;
        T->base.time_per_cell = G->time_per_cell;
        if (G->energy) {
            T->base.energy_per_cell = G->energy_per_cell > 0 ? G->energy_per_cell : 0;
            T->base.p0 = G->p_idle;
            T->base.p_idle = G->p_idle;
        } else {
            T->base.energy_per_cell = epc;
        }
        T->base.bytes_per_cell = bpc;
        T->base.flops = T->base.bandwidth = T->base.flops_per_cell = 0;
        T->base.energy_per_flop = T->base.energy_per_byte = 0;
        sm_topo_set_profile(t, type_of_group[g], pts, G->npoints);
        free(pts);
        T = &t->types[type_of_group[g]];
        const char *was = T->estimated ? "estimated" : NULL;
        sm_type_set_source(T, "profile", "measured");
        sm_type_set_source(T, "time_per_cell", "fitted");
        sm_type_set_source(T, "energy_per_cell", G->energy ? "fitted" : (was ? was : sm_type_source(T, "energy_per_cell")));
        if (!G->energy) sm_type_set_source(T, "profile_energy", "estimated");
        sm_type_set_source(T, "p0", G->energy ? "fitted" : (was ? was : sm_type_source(T, "p0")));
        sm_type_set_source(T, "p_idle", G->energy ? "measured" : (was ? was : sm_type_source(T, "p_idle")));
        if (T->base.memory > 0 && was) sm_type_set_source(T, "memory", "measured");
        free(T->estimated);
        T->estimated = NULL;
    }
    /* Through JSON once more: what is installed is what save writes. */
    sm_topo *c = sm_topo_clone(t);
    sm_topo_free(t);
    if (!c) return sm_tcl_error(in, "MEASURE", "topo measure -apply: the measured figures do not make a valid topology");
    sm_app_detach_solver(app, "topo measure -apply");
    sm_session_set_topo_keep_map(app->session, c);
    return sm_app_changed(app);
}

/* One measurement: its inputs (owned), and in the workbench the thread
 * it runs on and what it has said so far. */
typedef struct job {
    mopts o;
    char *out;
    sm_measure_opts mo;
    target *tg;
    int ntg, ng;
    sm_measure_proc *mp;
    const char **gnames;
    int *type_of_group;
    /* Background only. */
    pthread_t thread;
    pthread_mutex_t mu;
    volatile int stop, done;
    sm_measure_progress last;
    int seen, logged;
    sm_profile_view_pt vpt[SM_PROFILE_VIEW_MAX]; /* points finished (first type) */
    int nvpt;
    sm_measure_result *r;
    char why[512];
} job;

static void job_free(job *j)
{
    for (int i = 0; i < j->ntg; i++) free(j->tg[i].cpus);
    for (int i = 0; j->mp && i < j->ntg; i++) free((char *)j->mp[i].name);
    free(j->tg);
    free(j->mp);
    for (int g = 0; g < j->ng; g++) free((char *)j->gnames[g]);
    free(j->gnames);
    free(j->type_of_group);
    free(j->o.sizes);
    free(j->out);
    free(j);
}

/* The result dict, the CSV, -apply and the last measurement kept: on the
 * main thread, after the engine returned r. */
static int finish(sm_app *app, Tcl_Interp *in, job *j, sm_measure_result *r)
{
    int rc = TCL_OK;
    sm_err e;
    char host[256] = "", date[64];
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    struct tm tmv;
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
    Tcl_Obj *res = Tcl_NewDictObj();
    Tcl_IncrRefCount(res);
    for (int g = 0; g < j->ng; g++) {
        Tcl_Obj *pn = Tcl_NewListObj(0, NULL), *pin = Tcl_NewDictObj();
        int by_place = 0, members = 0;
        for (int i = 0; i < j->ntg; i++) {
            if (j->mp[i].group != g) continue;
            Tcl_ListObjAppendElement(NULL, pn, str(j->mp[i].name));
            Tcl_Obj *cl = Tcl_NewListObj(0, NULL);
            for (int c = 0; c < j->tg[i].ncpus; c++) Tcl_ListObjAppendElement(NULL, cl, Tcl_NewIntObj(j->tg[i].cpus[c]));
            put(pin, j->mp[i].name, cl);
            members++;
            by_place += j->tg[i].by_place;
        }
        Tcl_Obj *d = group_dict(&r->groups[g], r, &j->o, j->mo.block, host, date, pn);
        /* The OS CPUs each processor's threads were pinned to, and how
         * they were found: its hwloc place, or this machine's packages in
         * order (processors without a place). */
        put(d, "pinned", pin);
        put(d, "pinning", str(by_place == members ? "place" : by_place ? "place package" : "package"));
        put(res, j->gnames[g], d);
    }
    if (j->out) {
        for (int g = 0; g < j->ng && rc == TCL_OK; g++) {
            Tcl_Obj *d = NULL;
            Tcl_DictObjGet(NULL, res, str(j->gnames[g]), &d);
            sm_strbuf b;
            sm_strbuf_init(&b);
            csv_of(&b, j->gnames[g], d, &r->groups[g]);
            char *f = csv_name(j->out, j->gnames[g], j->ng);
            if (sm_write_file_atomic(f, b.s, b.n, &e) != 0) rc = sm_tcl_error(in, "IO", "topo measure: -o %s", e.msg);
            free(f);
            free(b.s);
        }
    }
    if (rc == TCL_OK && j->o.apply && sm_app_check_change(app, in, "topo measure -apply")) rc = TCL_ERROR;
    if (rc == TCL_OK && j->o.apply) {
        /* In the workbench the machine may have changed meanwhile: the
         * types measured are found again by name. */
        const sm_topo *t = app->session->topo;
        for (int g = 0; g < j->ng && rc == TCL_OK; g++) {
            j->type_of_group[g] = sm_topo_find_type(t, j->gnames[g]);
            if (j->type_of_group[g] < 0)
                rc = sm_tcl_error(in, "MEASURE", "topo measure -apply: the topology has no type \"%s\" any more",
                                  j->gnames[g]);
        }
        if (rc == TCL_OK)
            rc = apply(app, in, r, j->type_of_group,
                       (double)j->mo.block[0] * (double)j->mo.block[1] * (double)j->mo.block[2]);
    }
    if (r->ngroups > 0) {
        /* The Profile pane: the first type's profile as measured, with
         * its fitted line. */
        const sm_measure_group *G = &r->groups[0];
        sm_profile_view *pv = &app->view->profile;
        pv->n = 0;
        for (int k = 0; k < G->npoints; k++) view_point(pv, &G->points[k]);
        snprintf(pv->type, sizeof pv->type, "%s", G->name);
        snprintf(pv->from, sizeof pv->from, "measured; fit %.4g s/cell", G->time_per_cell);
        pv->time_per_cell = G->time_per_cell;
        pv->cells = (double)j->mo.block[0] * (double)j->mo.block[1] * (double)j->mo.block[2];
        pv->eps = j->o.stop.eps;
        pv->running = 0;
        pv->interrupted = r->interrupted;
        sm_view_touch(app->view);
    }
    if (rc == TCL_OK) {
        if (!last_measured) {
            last_measured = Tcl_NewDictObj();
            Tcl_IncrRefCount(last_measured);
        }
        if (Tcl_IsShared(last_measured)) {
            Tcl_Obj *c = Tcl_DuplicateObj(last_measured);
            Tcl_IncrRefCount(c);
            Tcl_DecrRefCount(last_measured);
            last_measured = c;
        }
        for (int g = 0; g < j->ng; g++) {
            Tcl_Obj *d = NULL;
            Tcl_DictObjGet(NULL, res, str(j->gnames[g]), &d);
            Tcl_DictObjPut(NULL, last_measured, str(j->gnames[g]), d);
        }
        Tcl_SetObjResult(in, res);
    }
    Tcl_DecrRefCount(res);
    return rc;
}

/* ---- in the workbench: on a thread of its own ---- */

static void bg_progress(const sm_measure_progress *pr, void *ctx)
{
    job *j = ctx;
    pthread_mutex_lock(&j->mu);
    if (pr->finished) {
        const sm_measure_point *p = pr->finished;
        if (pr->finished_group == 0 && j->nvpt < SM_PROFILE_VIEW_MAX)
            j->vpt[j->nvpt++] = (sm_profile_view_pt){p->blocks, p->reps, p->tight, p->t.mean, p->t.low, p->t.high};
    } else {
        j->last = *pr;
        j->last.group = NULL; /* the engine's string: not kept past the call */
        j->seen++;
    }
    pthread_mutex_unlock(&j->mu);
}

static void *bg_run(void *arg)
{
    job *j = arg;
    sm_measure_result *r = sm_measure_run(j->mp, j->ntg, j->gnames, j->ng, &j->mo, j->why, sizeof j->why);
    pthread_mutex_lock(&j->mu);
    j->r = r;
    j->done = 1;
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

static void bg_end(sm_app *app)
{
    job *j = app->background;
    pthread_join(j->thread, NULL);
    pthread_mutex_destroy(&j->mu);
    sm_measure_result_free(j->r);
    job_free(j);
    app->background = NULL;
    app->background_poll = NULL;
    app->background_stop = NULL;
}

/* Polled by the workbench: a Console line per point, and when done the
 * result (logged, -o written, -apply made) as a command would give it. */
static void bg_poll(sm_app *app)
{
    job *j = app->background;
    pthread_mutex_lock(&j->mu);
    sm_measure_progress pr = j->last;
    int seen = j->seen, done = j->done;
    /* The Profile pane follows: points finished, the one being measured. */
    sm_profile_view *pv = &app->view->profile;
    int changed = pv->n != j->nvpt || (seen && (pv->point != pr.point || pv->rep != pr.rep));
    for (int k = pv->n; k < j->nvpt; k++) pv->pt[k] = j->vpt[k];
    pv->n = j->nvpt;
    pthread_mutex_unlock(&j->mu);
    if (seen) {
        pv->point = pr.point;
        pv->npoints = pr.npoints;
        pv->blocks = pr.blocks;
        pv->rep = pr.rep;
        pv->reps_max = pr.reps_max;
        pv->mean = pr.mean;
        pv->half = pr.half;
    }
    if (changed) sm_view_touch(app->view);
    if (seen && pr.point != j->logged) {
        j->logged = pr.point;
        sm_view_log(app->view, SM_LOG_NOTE, "topo measure: point %d/%d, %d blocks, rep %d, %.4g s +- %.1f%%",
                    pr.point + 1, pr.npoints, pr.blocks, pr.rep, pr.mean,
                    pr.mean > 0 && isfinite(pr.half) ? 100 * pr.half / pr.mean : 100.0);
    }
    if (!done) return;
    Tcl_Interp *in = app->interp;
    if (!j->r) {
        app->view->profile.running = 0;
        sm_view_touch(app->view);
        sm_view_log(app->view, SM_LOG_ERROR, "topo measure: %s", j->why);
    } else if (finish(app, in, j, j->r) != TCL_OK) {
        sm_view_log(app->view, SM_LOG_ERROR, "%s", Tcl_GetStringResult(in));
    } else {
        for (int g = 0; g < j->r->ngroups; g++) {
            const sm_measure_group *G = &j->r->groups[g];
            int tight = 0;
            for (int k = 0; k < G->npoints; k++) tight += G->points[k].tight;
            sm_view_log(app->view, SM_LOG_NOTE,
                        "topo measure done%s: %s %d points (%d met eps), time_per_cell %.4g s, energy %s%s%s",
                        j->r->interrupted ? " (interrupted)" : "", G->name, G->npoints, tight, G->time_per_cell,
                        G->source, G->energy ? "" : ": ", G->energy ? "" : G->why);
        }
        if (j->o.apply) sm_view_log(app->view, SM_LOG_NOTE, "topo measure: applied to the topology (undo: u)");
    }
    Tcl_ResetResult(in);
    bg_end(app);
}

static void bg_stop(sm_app *app)
{
    job *j = app->background;
    j->stop = 1;
    bg_end(app);
}

int sm_topo_measure_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    if (objc >= 3 && strcmp(Tcl_GetString(objv[2]), "links") == 0) {
        if (app->background)
            return sm_tcl_error(in, "BUSY", "topo measure links: a measurement is running (topo measure stop ends it)");
        return sm_topo_measure_links_cmd(app, in, objc, objv);
    }
    if (objc == 3 && strcmp(Tcl_GetString(objv[2]), "stop") == 0) {
        /* topo measure stop: the one running in the workbench ends after
         * its current repetition, keeping the points measured. */
        if (!app->background || app->background_poll != bg_poll)
            return sm_tcl_error(in, "ARGS", "topo measure stop: no measurement is running");
        ((job *)app->background)->stop = 1;
        Tcl_SetObjResult(in, str("stopping"));
        return TCL_OK;
    }
    if (app->background)
        return sm_tcl_error(in, "BUSY", "topo measure: a measurement is running (topo measure stop ends it)");
    job *j = sm_xcalloc(1, sizeof *j);
    mopts *o = &j->o;
    const sm_grid *grid = app->session->grid;
    o->stencil = (sm_kstencil)grid->spec.stencil;
    o->stop.cl = 0.95;
    o->stop.eps = 0.05;
    o->stop.reps_min = 5;
    o->stop.reps_max = 50;
    o->simultaneous = 1;
    o->stop.mintime = 0.1;
    o->stop.timeout = 60;
    int rc = parse(in, objc, objv, o);
    if (rc == TCL_OK) rc = sm_measure_resolve(app, in, o->procs, &j->tg, &j->ntg);
    if (rc == TCL_OK && o->apply && sm_app_check_change(app, in, "topo measure -apply")) rc = TCL_ERROR;
    if (rc != TCL_OK) {
        job_free(j);
        return rc;
    }
    o->procs = NULL; /* not kept: the names are resolved */
    if (o->out) {
        sm_err e0;
        if (sm_check_save_target(o->out, &e0)) {
            job_free(j);
            return sm_tcl_error(in, "IO", "topo measure: -o %s", e0.msg);
        }
        j->out = sm_xstrdup(o->out);
        o->out = NULL;
    }
    const sm_topo *t = app->session->topo;
    sm_measure_opts *mo = &j->mo;
    mo->stencil = o->stencil;
    mo->halo = grid->spec.halo;
    block_shape(grid, o->stencil, mo->block);
    mo->cl = o->stop.cl;
    mo->eps = o->stop.eps;
    mo->reps_min = o->stop.reps_min;
    mo->reps_max = o->stop.reps_max;
    mo->simultaneous = o->simultaneous;
    mo->min_rep_seconds = o->stop.mintime;
    mo->timeout = o->stop.timeout;
    /* Memory: all processors at once share half of what Linux says is
     * available (the machine stays usable); a processor's own memory
     * size, where its type gives one, bounds it too. */
    const char *from = NULL;
    sm_err e;
    int64_t avail = sm_memory_available(&from, &e);
    double budget = avail > 0 ? 0.5 * (double)avail / (o->simultaneous ? j->ntg : 1) : 1e18;
    for (int i = 0; i < j->ntg; i++) {
        double m = sm_topo_proc_params(t, j->tg[i].proc)->memory;
        if (m > 0 && m < budget) budget = m;
    }
    if (!o->sizes) {
        o->sizes = sm_xmalloc(sizeof(int) * 32);
        for (int b = 1; o->nsizes < 25 && sm_measure_bytes(mo, b) <= budget; b *= 2) o->sizes[o->nsizes++] = b;
        if (!o->nsizes)
            rc = sm_tcl_error(in, "MEMORY", "topo measure: one block of %lld x %lld x %lld cells (%.4g MB) does "
                              "not fit the %.4g MB a processor may use",
                              (long long)mo->block[0], (long long)mo->block[1], (long long)mo->block[2],
                              sm_measure_bytes(mo, 1) / 1e6, budget / 1e6);
    } else if (sm_measure_bytes(mo, o->sizes[o->nsizes - 1]) > budget) {
        rc = sm_tcl_error(in, "MEMORY", "topo measure: %d blocks of %lld x %lld x %lld cells take %.4g MB; a "
                          "processor may use %.4g MB here (%s)",
                          o->sizes[o->nsizes - 1], (long long)mo->block[0], (long long)mo->block[1],
                          (long long)mo->block[2], sm_measure_bytes(mo, o->sizes[o->nsizes - 1]) / 1e6,
                          budget / 1e6, from ? from : "the type's memory");
    }
    if (rc != TCL_OK) {
        job_free(j);
        return rc;
    }
    mo->sizes = o->sizes;
    mo->nsizes = o->nsizes;
    /* Groups: the types of the processors measured. */
    j->type_of_group = sm_xmalloc(sizeof(int) * (size_t)j->ntg);
    j->gnames = sm_xmalloc(sizeof(char *) * (size_t)j->ntg);
    j->mp = sm_xcalloc((size_t)j->ntg, sizeof *j->mp);
    for (int i = 0; i < j->ntg; i++) {
        int ty = t->procs[j->tg[i].proc].type, g = 0;
        while (g < j->ng && j->type_of_group[g] != ty) g++;
        if (g == j->ng) {
            j->type_of_group[j->ng] = ty;
            j->gnames[j->ng++] = sm_xstrdup(t->types[ty].name); /* -apply replaces t */
        }
        /* The processor's name, kept by the job (the topology may go). */
        j->mp[i] = (sm_measure_proc){sm_xstrdup(t->procs[j->tg[i].proc].name), g, j->tg[i].ncpus, j->tg[i].cpus,
                                     j->tg[i].package};
    }
    {
        /* The Profile pane shows it from the start (the first type). */
        sm_profile_view *pv = &app->view->profile;
        memset(pv, 0, sizeof *pv);
        snprintf(pv->type, sizeof pv->type, "%s", j->gnames[0]);
        snprintf(pv->from, sizeof pv->from, "topo measure");
        pv->eps = o->stop.eps;
        pv->running = app->screen != NULL;
        pv->npoints = o->nsizes;
        pv->reps_max = o->stop.reps_max;
        if (app->screen) sm_view_show_alt(app->view, SM_PANE_PROFILE, 1);
        sm_view_touch(app->view);
    }
    if (app->screen) {
        /* The workbench keeps answering keys while it runs. */
        pthread_mutex_init(&j->mu, NULL);
        j->logged = -1;
        mo->progress = bg_progress;
        mo->progress_ctx = j;
        mo->interrupt = &j->stop;
        if (pthread_create(&j->thread, NULL, bg_run, j) != 0) {
            pthread_mutex_destroy(&j->mu);
            job_free(j);
            return sm_tcl_error(in, "MEASURE", "topo measure: cannot start a thread");
        }
        app->background = j;
        app->background_poll = bg_poll;
        app->background_stop = bg_stop;
        sm_view_log(app->view, SM_LOG_NOTE, "topo measure: %d sizes on %d processor%s in the background "
                    "(topo measure stop ends it)", o->nsizes, j->ntg, j->ntg == 1 ? "" : "s");
        Tcl_SetObjResult(in, str("measuring"));
        return TCL_OK;
    }
    progress_ctx pc = {app, isatty(2), -1};
    mo->progress = progress;
    mo->progress_ctx = &pc;
    mo->interrupt = &app->interrupt;
    app->interrupt = 0;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigint_app = app;
    sigaction(SIGINT, &sa, &old);
    char why[512];
    sm_measure_result *r = sm_measure_run(j->mp, j->ntg, j->gnames, j->ng, mo, why, sizeof why);
    sigaction(SIGINT, &old, NULL);
    sigint_app = NULL;
    if (pc.tty) fputs("\n", stderr);
    if (!r) rc = sm_tcl_error(in, "MEASURE", "topo measure: %s", why);
    else rc = finish(app, in, j, r);
    sm_measure_result_free(r);
    job_free(j);
    return rc;
}
