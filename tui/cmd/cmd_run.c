/* cmd_run.c - `run launch|status|wait|stop|import|compare` (SPEC 9): the
 * session's mapping run for real with stencilmap-run, and the model beside
 * what the run measured. The job itself is tui/app/mpi_run_launch_job.c; RUN.json and
 * the comparison are core/run_results. */
#include "cmd_common.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/run_results/run_vs_model.h"
#include "core/run_results/run_json_file.h"
#include "tui/app/mpi_run_launch_job.h"

/* sm_tcl_error with a code of several words ("RUN MISMATCH"). */
static int rerr(Tcl_Interp *in, const char *code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rerr(Tcl_Interp *in, const char *code, const char *fmt, ...)
{
    sm_err e;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.msg, sizeof e.msg, fmt, ap);
    va_end(ap);
    snprintf(e.code, sizeof e.code, "%s", code);
    return sm_tcl_err(in, code, &e);
}

static Tcl_Obj *str(const char *s) { return Tcl_NewStringObj(s ? s : "", -1); }
static void put(Tcl_Obj *d, const char *k, Tcl_Obj *v) { Tcl_DictObjPut(NULL, d, str(k), v); }

static const char *state_name(sm_job_state s)
{
    return s == SM_JOB_RUNNING ? "running" : s == SM_JOB_DONE ? "done" : s == SM_JOB_WRITTEN ? "written" : "failed";
}

static Tcl_Obj *job_dict(const sm_run_job *j)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "state", str(state_name(j->state)));
    put(d, "dir", str(j->dir));
    put(d, "script", str(j->script));
    put(d, "rankfile", str(j->bound ? j->rankfile : ""));
    put(d, "blocks", str(j->blocks));
    put(d, "log", str(j->log));
    put(d, "result", str(j->result));
    put(d, "ranks", Tcl_NewIntObj(j->ranks));
    put(d, "bound", Tcl_NewBooleanObj(j->bound));
    put(d, "oversubscribed", Tcl_NewBooleanObj(j->oversubscribed));
    put(d, "note", str(j->note));
    put(d, "launcher", str(j->slurm ? "slurm" : "mpirun"));
    put(d, "starter", str(j->srun ? "srun" : "mpirun")); /* who starts the ranks */
    if (j->slurm) put(d, "jobid", str(j->jobid));
    put(d, "iteration", Tcl_NewIntObj(j->iteration));
    put(d, "iters", Tcl_NewIntObj(j->iters));
    if (j->state != SM_JOB_RUNNING) put(d, "exit", Tcl_NewIntObj(j->exit_code));
    if (j->state == SM_JOB_FAILED) put(d, "why", str(j->why));
    return d;
}

static Tcl_Obj *run_dict(const sm_run *r)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "scenario_sha256", str(r->scenario_sha256));
    put(d, "mapping_sha256", str(r->mapping_sha256));
    put(d, "iters", Tcl_NewIntObj(r->iters));
    put(d, "exchange", str(r->exchange));
    put(d, "checksum", str(r->checksum));
    put(d, "rounds", Tcl_NewWideIntObj(r->rounds));
    put(d, "energy_source", str(r->energy_source));
    if (r->energy_why) put(d, "energy_why", str(r->energy_why));
    Tcl_Obj *ranks = Tcl_NewListObj(0, NULL);
    for (int i = 0; i < r->nranks; i++) {
        const sm_run_rank *k = &r->ranks[i];
        Tcl_Obj *o = Tcl_NewDictObj(), *cores = Tcl_NewListObj(0, NULL);
        for (int c = 0; c < k->ncores; c++) Tcl_ListObjAppendElement(NULL, cores, Tcl_NewIntObj(k->cores[c]));
        put(o, "rank", Tcl_NewIntObj(k->rank));
        put(o, "processor", str(k->processor));
        put(o, "host", str(k->host));
        put(o, "cores", cores);
        if (k->device) put(o, "device", str(k->device));
        put(o, "blocks", Tcl_NewWideIntObj(k->blocks));
        put(o, "cells", Tcl_NewWideIntObj(k->cells));
        put(o, "threads", Tcl_NewIntObj(k->threads));
        put(o, "compute_s", Tcl_NewDoubleObj(k->compute_s));
        put(o, "comm_s", Tcl_NewDoubleObj(k->comm_s));
        put(o, "wait_s", Tcl_NewDoubleObj(k->wait_s));
        put(o, "wall_s", Tcl_NewDoubleObj(k->wall_s));
        put(o, "compute_min_s", Tcl_NewDoubleObj(k->compute_min_s));
        put(o, "compute_median_s", Tcl_NewDoubleObj(k->compute_median_s));
        put(o, "wall_median_s", Tcl_NewDoubleObj(k->wall_median_s));
        put(o, "bytes", Tcl_NewWideIntObj(k->bytes));
        put(o, "messages", Tcl_NewWideIntObj(k->messages));
        put(o, "energy_j", k->has_energy ? Tcl_NewDoubleObj(k->energy_j) : str(""));
        if (k->energy_counter) {
            put(o, "energy_counter", str(k->energy_counter));
            put(o, "energy_share", Tcl_NewDoubleObj(k->energy_share));
        }
        Tcl_ListObjAppendElement(NULL, ranks, o);
    }
    put(d, "ranks", ranks);
    return d;
}

/* run launch ?-iters N? ?-exchange rounds|all? ?-slurm? ?-np N? ?-bind
 * auto|on|off? ?-dir DIR? ?-hosts LIST? ?-wait? */
static int run_wait_job(sm_app *app, Tcl_Interp *in, double timeout);

static int run_launch(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const names[] = {"-iters", "-exchange", "-slurm", "-np", "-bind", "-dir", "-hosts", "-wait", "-dry",
                                        "-launcher", NULL};
    enum { O_ITERS, O_EXCHANGE, O_SLURM, O_NP, O_BIND, O_DIR, O_HOSTS, O_WAIT, O_DRY, O_LAUNCHER };
    if (app->confined || app->safe_depth > 0)
        return rerr(in, "SAFE EXEC", "run launch: a safe script cannot start programs (mpirun, sbatch)");
    if (app->run_job) sm_run_job_poll(app->run_job);
    if (app->run_job && app->run_job->state == SM_JOB_RUNNING)
        return rerr(in, "RUN BUSY", "run launch: a run is going on in %s: run wait, or run stop",
                            app->run_job->dir);
    sm_run_opts o;
    memset(&o, 0, sizeof o);
    o.iters = 100;
    int wait = 0, nh = 0;
    Tcl_Obj **hv = NULL;
    for (int i = 2; i < objc; i++) {
        int k;
        if (Tcl_GetIndexFromObj(in, objv[i], names, "option", 0, &k) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        if (k == O_SLURM) { o.slurm = 1; continue; }
        if (k == O_WAIT) { wait = 1; continue; }
        if (k == O_DRY) { o.dry = 1; continue; }
        if (i + 1 >= objc) return sm_tcl_error(in, "ARGS", "run launch: %s needs a value", names[k]);
        Tcl_Obj *v = objv[++i];
        int n;
        switch (k) {
        case O_ITERS:
        case O_NP:
            if (Tcl_GetIntFromObj(NULL, v, &n) != TCL_OK || n < 1 || n > 1000000000)
                return sm_tcl_error(in, "ARGS", "run launch: %s \"%s\": expected a whole number from 1", names[k],
                                    Tcl_GetString(v));
            if (k == O_ITERS) o.iters = n;
            else o.np = n;
            break;
        case O_EXCHANGE: {
            static const char *const ex[] = {"rounds", "all", NULL};
            if (Tcl_GetIndexFromObj(in, v, ex, "exchange", 0, &n) != TCL_OK) {
                Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
                return TCL_ERROR;
            }
            o.exchange_all = n == 1;
            break;
        }
        case O_BIND: {
            static const char *const bm[] = {"auto", "on", "off", NULL};
            if (Tcl_GetIndexFromObj(in, v, bm, "binding", 0, &n) != TCL_OK) {
                Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
                return TCL_ERROR;
            }
            o.bind = (sm_bind_mode)n;
            break;
        }
        case O_LAUNCHER: {
            static const char *const ln[] = {"srun", "mpirun", NULL};
            if (Tcl_GetIndexFromObj(in, v, ln, "launcher", 0, &n) != TCL_OK) {
                Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
                return TCL_ERROR;
            }
            o.launcher = n == 0 ? SM_LAUNCHER_SRUN : SM_LAUNCHER_MPIRUN;
            break;
        }
        case O_DIR:
            o.dir = Tcl_GetString(v);
            break;
        case O_HOSTS:
            if (Tcl_ListObjGetElements(NULL, v, &nh, &hv) != TCL_OK)
                return sm_tcl_error(in, "ARGS", "run launch: -hosts expects a list of host names, one a node");
            break;
        }
    }
    if (o.launcher == SM_LAUNCHER_SRUN && !o.slurm)
        return sm_tcl_error(in, "ARGS", "run launch: -launcher srun needs -slurm (srun starts ranks in a Slurm job)");
    char **hosts = NULL;
    if (hv) {
        hosts = sm_xmalloc(sizeof(char *) * (size_t)(nh ? nh : 1));
        for (int i = 0; i < nh; i++) hosts[i] = Tcl_GetString(hv[i]);
        o.hosts = hosts;
        o.nhosts = nh;
    }
    if (o.dir && sm_safe_check_path(app, in, o.dir, SM_PATH_WRITE) != TCL_OK) {
        free(hosts);
        return TCL_ERROR;
    }
    sm_run_job *job = sm_xcalloc(1, sizeof *job);
    sm_err e;
    e.code[0] = '\0';
    int rc = sm_run_job_start(app->session, &o, job, &e);
    free(hosts);
    if (rc != 0) {
        free(job);
        return sm_tcl_err(in, "RUN LAUNCH", &e);
    }
    if (app->run_job) {
        sm_run_job_free(app->run_job);
        free(app->run_job);
    }
    app->run_job = job;
    if (wait && !o.dry) return run_wait_job(app, in, 0);
    Tcl_SetObjResult(in, job_dict(job));
    return TCL_OK;
}

static int run_status(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    if (!app->run_job) {
        Tcl_Obj *d = Tcl_NewDictObj();
        put(d, "state", str("none"));
        Tcl_SetObjResult(in, d);
        return TCL_OK;
    }
    sm_app_run_poll(app); /* a finished job's RUN.json is imported */
    Tcl_SetObjResult(in, job_dict(app->run_job));
    return TCL_OK;
}

/* Reads, checks against the session and keeps a run; the dict as result. */
static int import_file(sm_app *app, Tcl_Interp *in, const char *file)
{
    if (sm_safe_check_path(app, in, file, SM_PATH_READ) != TCL_OK) return TCL_ERROR;
    struct stat st;
    /* A run directory stands for its RUN.json. */
    char *path = stat(file, &st) == 0 && S_ISDIR(st.st_mode) ? sm_path_join(file, "RUN.json") : sm_xstrdup(file);
    sm_err e;
    e.code[0] = '\0';
    sm_run *r = sm_app_run_read(app, path, &e);
    if (!r) {
        free(path);
        return sm_tcl_err(in, "LOAD", &e);
    }
    free(path);
    /* The result last: nothing after it may run a script (a hook) that
     * would replace it. */
    Tcl_Obj *d = run_dict(r);
    sm_app_run_set(app, r);
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static int run_wait_job(sm_app *app, Tcl_Interp *in, double timeout)
{
    sm_run_job *j = app->run_job;
    if (!j) return rerr(in, "RUN NONE", "run wait: no run launched (run launch)");
    double waited = 0;
    app->interrupt = 0;
    for (;;) {
        sm_app_run_poll(app);
        if (j->state != SM_JOB_RUNNING) break;
        if (app->interrupt) {
            app->interrupt = 0;
            return sm_tcl_error(in, "INTERRUPTED", "run wait: interrupted at iteration %d of %d; the run goes on "
                                                   "(run status, run stop)", j->iteration, j->iters);
        }
        if (timeout > 0 && waited >= timeout)
            return rerr(in, "RUN TIMEOUT", "run wait: still running after %g s (iteration %d of %d)", timeout,
                                j->iteration, j->iters);
        sm_app_progress(app);
        sm_run_sleep_ms(50);
        waited += 0.05;
    }
    if (j->state == SM_JOB_FAILED)
        return rerr(in, "RUN FAILED", "run: %s (run directory %s)", j->why, j->dir);
    return import_file(app, in, j->result);
}

static int run_wait(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    double timeout = 0;
    if (objc == 4) {
        if (strcmp(Tcl_GetString(objv[2]), "-timeout") != 0 ||
            Tcl_GetDoubleFromObj(NULL, objv[3], &timeout) != TCL_OK || !(timeout > 0) || timeout > 1e7)
            return sm_tcl_error(in, "ARGS", "run wait: expected ?-timeout SECONDS? (a number above 0)");
    } else if (objc != 2) {
        return sm_tcl_error(in, "ARGS", "run wait: expected ?-timeout SECONDS?");
    }
    return run_wait_job(app, in, timeout);
}

static int run_stop(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    if (!app->run_job) return rerr(in, "RUN NONE", "run stop: no run launched");
    sm_run_job_poll(app->run_job);
    sm_run_job_stop(app->run_job);
    Tcl_SetObjResult(in, job_dict(app->run_job));
    return TCL_OK;
}

static int run_import(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    return import_file(app, in, Tcl_GetString(objv[2]));
}

static Tcl_Obj *acc_dict(const sm_acc *a)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "predicted", Tcl_NewDoubleObj(a->predicted));
    put(d, "measured", Tcl_NewDoubleObj(a->measured));
    put(d, "accuracy", isfinite(a->accuracy) ? Tcl_NewDoubleObj(a->accuracy) : str(""));
    return d;
}

static Tcl_Obj *row_dict(const sm_run_row *r)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    put(d, "compute", acc_dict(&r->compute));
    Tcl_Obj *comm = acc_dict(&r->comm);
    if (r->proc >= 0) {
        /* The processor's part of the schedule: its own messages and the
         * rounds it waits through (compare.h). */
        put(comm, "busy", Tcl_NewDoubleObj(r->busy));
        put(comm, "wait", Tcl_NewDoubleObj(r->wait));
        put(comm, "measured_wait", Tcl_NewDoubleObj(r->measured_wait));
    }
    put(d, "comm", comm);
    put(d, "total", acc_dict(&r->total));
    if (r->energy.has) put(d, "energy", acc_dict(&r->energy));
    return d;
}

static int run_compare(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)objc;
    (void)objv;
    if (!app->run) return rerr(in, "RUN NONE", "run compare: no run imported (run import FILE, run wait)");
    if (!sm_app_run_matches(app))
        return rerr(in, "RUN MISMATCH", "run compare: the session's scenario or mapping is no longer the one "
                                                "the imported run ran: undo back to it, or import a run of this one");
    sm_run_cmp c;
    sm_err e;
    e.code[0] = '\0';
    if (sm_run_compare(app->session->cost, app->run, &c, &e) != 0) return sm_tcl_err(in, "RUN MISMATCH", &e);
    Tcl_Obj *d = Tcl_NewDictObj(), *procs = Tcl_NewDictObj();
    put(d, "overall", row_dict(&c.overall));
    for (int k = 0; k < c.nrows; k++)
        put(procs, app->session->topo->procs[c.rows[k].proc].name, row_dict(&c.rows[k]));
    put(d, "processors", procs);
    /* Where the measured energy came from, or plainly why there is none. */
    put(d, "energy_source", str(app->run->energy_source ? app->run->energy_source : "none"));
    if (app->run->energy_why) put(d, "energy_why", str(app->run->energy_why));
    sm_run_cmp_free(&c);
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

static const sm_subcmd run_subs[] = {
    {"launch", run_launch, 0, -1,
     "?-iters N? ?-exchange rounds|all? ?-slurm? ?-launcher srun|mpirun? ?-np N? ?-bind auto|on|off? ?-dir DIR? "
     "?-hosts LIST? ?-wait? ?-dry?"},
    {"status", run_status, 0, 0, ""},
    {"wait", run_wait, 0, 2, "?-timeout SECONDS?"},
    {"stop", run_stop, 0, 0, ""},
    {"import", run_import, 1, 1, "FILE"},
    {"compare", run_compare, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL},
};

static int run_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, run_subs);
}

void sm_register_run_cmds(sm_app *app) { sm_create_ensemble(app, "run", run_cmd, run_subs); }
