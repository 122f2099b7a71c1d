/* cmd_study_run.c - study run: each job of a shard run through the
 * ordinary commands (built as lists, never pasted strings), its result
 * written as a file; the SPEC DIR holds recorded as provenance; SIGINT
 * between jobs. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cmd_common.h"
#include "cmd_study.h"
#include "version.h"
#include "core/lib/jsonutil.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include "core/lib/sha256.h"
#include "core/study/study_jobs_enumeration.h"
#include "core/lib/braille_plot.h"
#include "solvers/solver_registry.h"
#include "core/lib/atomic_file_write.h"

/* ---- running jobs ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Evaluate a command given as words (a list: data never becomes code). */
static int eval_words(Tcl_Interp *in, int n, Tcl_Obj *const w[])
{
    Tcl_Obj *cmd = Tcl_NewListObj(n, w);
    Tcl_IncrRefCount(cmd);
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_DIRECT);
    Tcl_DecrRefCount(cmd);
    return rc;
}

static int eval2(Tcl_Interp *in, const char *a, const char *b, const char *c)
{
    Tcl_Obj *w[3] = {Tcl_NewStringObj(a, -1), Tcl_NewStringObj(b, -1),
                     Tcl_NewStringObj(c, -1)};
    return eval_words(in, 3, w);
}

/* A Tcl value as JSON: integers and finite reals as numbers, else text. */
static cJSON *json_of(Tcl_Obj *v)
{
    Tcl_WideInt w;
    double d;
    if (Tcl_GetWideIntFromObj(NULL, v, &w) == TCL_OK) return cJSON_CreateNumber((double)w);
    if (Tcl_GetDoubleFromObj(NULL, v, &d) == TCL_OK)
        return isfinite(d) ? cJSON_CreateNumber(d) : cJSON_CreateNull();
    return cJSON_CreateString(Tcl_GetString(v));
}

void sm_study_json_add_dict(cJSON *obj, Tcl_Obj *dict, const char *rename_seconds)
{
    Tcl_DictSearch s;
    Tcl_Obj *k, *v;
    int done;
    if (Tcl_DictObjFirst(NULL, dict, &s, &k, &v, &done) != TCL_OK) return;
    for (; !done; Tcl_DictObjNext(&s, &k, &v, &done)) {
        const char *key = Tcl_GetString(k);
        if (rename_seconds && strcmp(key, "seconds") == 0) key = rename_seconds;
        /* The job's own keys (its solver word, seed) win over the result's. */
        if (cJSON_GetObjectItemCaseSensitive(obj, key)) continue;
        cJSON_AddItemToObject(obj, key, json_of(v));
    }
    Tcl_DictObjDone(&s);
}

/* A job whose solver was interrupted is not written: its result would be
 * partial, and a written job is never run again. */
static int interrupted(sm_app *app, Tcl_Interp *in, long number)
{
    /* A fresh error: the job's own (a solver start the interrupt cut
     * short: "tabu: interrupted while starting") must not stay in
     * errorInfo, which is what a batch run prints. */
    Tcl_ResetResult(in);
    Tcl_SetObjResult(in, Tcl_ObjPrintf("study run: interrupted in job %ld; finished jobs "
                                       "are kept, run the same command to go on", number));
    Tcl_SetErrorCode(in, "STENCILMAP", "STUDY", "INTERRUPTED", NULL);
    app->interrupt = 0;
    return TCL_ERROR;
}

/* Provenance of one job (an object, so it is no column of the table): the
 * program, and the scenario file's hash as this job read it. */
static void add_inputs(cJSON *o, const sm_study *st, const sm_study_job *job)
{
    cJSON *in = cJSON_AddObjectToObject(o, "inputs");
    cJSON_AddStringToObject(in, "program", sm_version_program());
    cJSON_AddStringToObject(in, "scenario", st->scen[job->scen]);
    /* Hashed as it is read: a scenario of any size (a whole Summit's,
     * hundreds of MB) has its hash; "" only when it cannot be read. */
    sm_err e;
    char hash[65] = "";
    sm_sha256_file_hex(st->scen[job->scen], hash, &e);
    cJSON_AddStringToObject(in, "scenario_sha256", hash);
    cJSON_AddStringToObject(in, "solver", st->solv[job->solv]);
    if (job->seed >= 0) cJSON_AddNumberToObject(in, "seed", (double)st->seed[job->seed]);
    for (int p = 0; p < st->nparam; p++)
        cJSON_AddStringToObject(in, st->param[p].key, st->param[p].vals[job->val[p]]);
}

static int run_job(sm_app *app, Tcl_Interp *in, const sm_study *st, long number,
                   const char *dir)
{
    sm_study_job job;
    sm_study_job_at(st, number, &job);
    double t0 = now_seconds();
    if (eval2(in, "scenario", "load", st->scen[job.scen]) != TCL_OK) goto fail;
    for (int p = 0; p < st->nparam; p++) {
        size_t n = strlen(st->param[p].key) + 2;
        char *opt = sm_xmalloc(n);
        snprintf(opt, n, "-%s", st->param[p].key);
        Tcl_Obj *w[4] = {Tcl_NewStringObj("model", -1), Tcl_NewStringObj("configure", -1),
                         Tcl_NewStringObj(opt, -1),
                         Tcl_NewStringObj(st->param[p].vals[job.val[p]], -1)};
        free(opt);
        if (eval_words(in, 4, w) != TCL_OK) goto fail;
    }
    Tcl_Obj *words = Tcl_NewStringObj(st->solv[job.solv], -1);
    Tcl_IncrRefCount(words);
    int n;
    Tcl_Obj **el;
    if (Tcl_ListObjGetElements(in, words, &n, &el) != TCL_OK || n == 0) {
        Tcl_DecrRefCount(words);
        return sm_tcl_error(in, "STUDY", "study job %ld: solver word \"%s\" is not a "
                            "list {NAME ?-option value ...?}", number, st->solv[job.solv]);
    }
    Tcl_Obj *cmd = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(cmd);
    Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj("solve", -1));
    for (int i = 0; i < n; i++) Tcl_ListObjAppendElement(NULL, cmd, el[i]);
    if (job.seed >= 0) {
        Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewStringObj("-seed", -1));
        Tcl_ListObjAppendElement(NULL, cmd, Tcl_NewWideIntObj(st->seed[job.seed]));
    }
    Tcl_DecrRefCount(words);
    int rc = Tcl_EvalObjEx(in, cmd, TCL_EVAL_DIRECT);
    Tcl_DecrRefCount(cmd);
    if (app->interrupt) return interrupted(app, in, number);
    if (rc != TCL_OK) goto fail;
    Tcl_Obj *result = Tcl_GetObjResult(in);
    Tcl_IncrRefCount(result);
    double seconds = now_seconds() - t0;

    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "job", (double)number);
    cJSON_AddStringToObject(o, "scenario", st->scen[job.scen]);
    cJSON_AddStringToObject(o, "solver", st->solv[job.solv]);
    if (job.seed >= 0) cJSON_AddNumberToObject(o, "seed", (double)st->seed[job.seed]);
    else cJSON_AddNullToObject(o, "seed");
    for (int p = 0; p < st->nparam; p++) {
        Tcl_Obj *v = Tcl_NewStringObj(st->param[p].vals[job.val[p]], -1);
        Tcl_IncrRefCount(v);
        cJSON_AddItemToObject(o, st->param[p].key, json_of(v));
        Tcl_DecrRefCount(v);
    }
    sm_study_json_add_dict(o, result, "solver_seconds");
    Tcl_DecrRefCount(result);
    Tcl_Obj *mw[2] = {Tcl_NewStringObj("model", -1), Tcl_NewStringObj("metrics", -1)};
    if (eval_words(in, 2, mw) == TCL_OK) sm_study_json_add_dict(o, Tcl_GetObjResult(in), NULL);
    char *map = sm_study_job_path(dir, number, "map.json");
    rc = eval2(in, "map", "save", map);
    const char *base = strrchr(map, '/');
    cJSON_AddStringToObject(o, "mapping", base ? base + 1 : map);
    free(map);
    cJSON_AddNumberToObject(o, "seconds", seconds);
    add_inputs(o, st, &job);
    if (rc != TCL_OK) {
        cJSON_Delete(o);
        goto fail;
    }
    char *text = sm_json_print(o);
    cJSON_Delete(o);
    char *path = sm_study_job_path(dir, number, "json");
    sm_err e;
    int wrc = sm_write_file_atomic(path, text, strlen(text), &e);
    free(text);
    free(path);
    if (wrc < 0) return sm_tcl_error(in, "IO", "%s", e.msg);
    return TCL_OK;
fail: {
        Tcl_Obj *msg = Tcl_GetObjResult(in);
        Tcl_IncrRefCount(msg);
        sm_tcl_error(in, "STUDY", "study job %ld (%s, %s): %s", number,
                     st->scen[job.scen], st->solv[job.solv], Tcl_GetString(msg));
        Tcl_DecrRefCount(msg);
        return TCL_ERROR;
    }
}

/* Keep the user's scenario and mapping: the jobs load their own. */
static char *stash_session(Tcl_Interp *in, const char *dir)
{
    char *scen = sm_study_job_path(dir, getpid(), "session.tmp");
    char *map = sm_study_job_path(dir, getpid(), "session-map.tmp");
    if (eval2(in, "scenario", "save", scen) != TCL_OK ||
        eval2(in, "map", "save", map) != TCL_OK) {
        sm_err ignored;   /* not there when the save failed */
        sm_path_remove(scen, &ignored);
        sm_path_remove(map, &ignored);
        free(scen);
        free(map);
        return NULL;
    }
    free(map);
    return scen;
}

static void restore_session(Tcl_Interp *in, const char *dir, char *scen)
{
    if (!scen) return;
    char *map = sm_study_job_path(dir, getpid(), "session-map.tmp");
    Tcl_Obj *saved = Tcl_GetObjResult(in);
    Tcl_IncrRefCount(saved);
    Tcl_Obj *opts = Tcl_GetReturnOptions(in, TCL_ERROR);
    Tcl_IncrRefCount(opts);
    eval2(in, "scenario", "load", scen);
    eval2(in, "map", "load", map);
    Tcl_SetReturnOptions(in, opts);
    Tcl_DecrRefCount(opts);
    Tcl_SetObjResult(in, saved);
    Tcl_DecrRefCount(saved);
    sm_err ignored;
    sm_path_remove(scen, &ignored);
    sm_path_remove(map, &ignored);
    free(scen);
    free(map);
}

/* SIGINT between jobs (a solve installs its own handler while it runs,
 * which sets the same flag). */
static sm_app *study_app;
static void study_sigint(int sig)
{
    (void)sig;
    if (study_app) study_app->interrupt = 1;
}

/* One status line on a terminal in batch; the workbench redraws. */
static void progress(sm_app *app, long done, long todo, long job, double t0)
{
    if (app->screen) {
        sm_app_progress(app);
        return;
    }
    if (!isatty(2)) return;
    fprintf(stderr, "\rstudy: job %ld, %ld of %ld run here, %.1f s\033[K", job, done, todo,
            now_seconds() - t0);
    fflush(stderr);
}

/* ---- provenance: DIR/study.json ---- */

/* DIR records the SPEC it holds the results of: a first run writes it, a
 * run of another SPEC is refused (its jobs would be numbered differently
 * and the table would mix two studies). *recorded gets the shard count. */
static int check_manifest(Tcl_Interp *in, const char *dir, const sm_study *st, long *recorded)
{
    sm_err e;
    sm_study_manifest m;
    char *spec = sm_study_to_json(st);
    char hash[65];
    sm_sha256_hex(spec, strlen(spec), hash);
    int r = sm_study_manifest_read(dir, &m, &e);
    if (r < 0) {
        free(spec);
        return sm_tcl_error(in, "STUDY", "study run: %s", e.msg);
    }
    if (r == 1) {
        int same = strcmp(m.hash, hash) == 0;
        *recorded = m.shards;
        if (!same) {
            Tcl_SetObjResult(in, Tcl_ObjPrintf(
                "study run: %s holds the results of another SPEC (its %s records SHA-256 %.12s..., "
                "this SPEC's is %.12s...); give this study its own -out directory",
                dir, SM_STUDY_MANIFEST, m.hash, hash));
            Tcl_SetErrorCode(in, "STENCILMAP", "STUDY", "SPEC", NULL);
        }
        sm_study_manifest_free(&m);
        free(spec);
        return same ? TCL_OK : TCL_ERROR;
    }
    m.spec = spec;
    memcpy(m.hash, hash, sizeof hash);
    m.program = sm_xstrdup(sm_version_program());
    m.jobs = sm_study_njobs(st);
    m.shards = 0;
    int rc = sm_study_manifest_write(dir, &m, &e);
    sm_study_manifest_free(&m);
    if (rc < 0) return sm_tcl_error(in, "IO", "study run: %s", e.msg);
    *recorded = 0;
    return TCL_OK;
}

/* The first sharded run records N, so a Slurm rerun of a few shards
 * (--array=3,7) and `study status` know how the jobs were split. */
static int record_shards(Tcl_Interp *in, const char *dir, long nshards)
{
    sm_err e;
    sm_study_manifest m;
    if (sm_study_manifest_read(dir, &m, &e) != 1)
        return sm_tcl_error(in, "STUDY", "study run: %s", e.msg);
    int rc = 0;
    if (m.shards == 0) {
        m.shards = nshards;
        rc = sm_study_manifest_write(dir, &m, &e);
    }
    sm_study_manifest_free(&m);
    return rc < 0 ? sm_tcl_error(in, "IO", "study run: %s", e.msg) : TCL_OK;
}

static int is_interrupt(Tcl_Interp *in)
{
    Tcl_Obj *opts = Tcl_GetReturnOptions(in, TCL_ERROR), *code = NULL;
    Tcl_IncrRefCount(opts);
    Tcl_Obj *key = Tcl_NewStringObj("-errorcode", -1);
    Tcl_IncrRefCount(key);
    Tcl_DictObjGet(NULL, opts, key, &code);
    int yes = code && strstr(Tcl_GetString(code), "INTERRUPTED") != NULL;
    Tcl_DecrRefCount(key);
    Tcl_DecrRefCount(opts);
    return yes;
}

static void record_failed(Tcl_Interp *in, const char *dir, long j)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "job", (double)j);
    cJSON_AddStringToObject(o, "error", Tcl_GetStringResult(in));
    const char *code = Tcl_GetVar2(in, "errorCode", NULL, TCL_GLOBAL_ONLY);
    cJSON_AddStringToObject(o, "errorcode", code ? code : "");
    cJSON_AddStringToObject(o, "program", sm_version_program());
    char *text = sm_json_print(o);
    cJSON_Delete(o);
    char *path = sm_study_job_path(dir, j, "failed");
    sm_err e;
    sm_write_file_atomic(path, text, strlen(text), &e);   /* best effort: the error is raised anyway */
    free(text);
    free(path);
}

static void clear_failed(const char *dir, long j)
{
    char *path = sm_study_job_path(dir, j, "failed");
    sm_err ignored;   /* usually not there */
    sm_path_remove(path, &ignored);
    free(path);
}

int sm_study_run_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    static const char *const opts[] = {"-shard", "-out", NULL};
    const char *dir = NULL;
    long shard = 0, nshards = 1;
    int have_shard = 0;
    sm_err e;
    for (int i = 3; i < objc; i += 2) {
        int idx;
        if (sm_get_opt_index(in, objv[i], opts, &idx) != TCL_OK) return TCL_ERROR;
        if (i + 1 >= objc)
            return sm_tcl_error(in, "ARGS", "study run: %s needs a value", opts[idx]);
        if (idx == 0) {
            if (sm_study_parse_shard(Tcl_GetString(objv[i + 1]), &shard, &nshards, &e) < 0)
                return sm_tcl_error(in, "ARGS", "study run: %s", e.msg);
            have_shard = 1;
        } else {
            dir = Tcl_GetString(objv[i + 1]);
        }
    }
    if (!dir) return sm_tcl_error(in, "ARGS", "study run: -out DIR is required");
    sm_study st;
    sm_study_init(&st);
    if (sm_study_get_spec(in, objv[2], &st) != TCL_OK || sm_study_check_whole(app, in, &st) != TCL_OK) {
        sm_study_free(&st);
        return TCL_ERROR;
    }
    if (sm_mkdir_p(dir, &e) < 0) {
        sm_study_free(&st);
        return sm_tcl_error(in, "IO", "study run: %s", e.msg);
    }
    long recorded = 0;
    if (check_manifest(in, dir, &st, &recorded) != TCL_OK) {
        sm_study_free(&st);
        return TCL_ERROR;
    }
    if (!have_shard) {
        int r = sm_study_shard_from_env(recorded, &shard, &nshards, &e);
        if (r < 0) {
            sm_study_free(&st);
            return sm_tcl_error(in, "ARGS", "study run: %s", e.msg);
        }
        have_shard = r;
    }
    if (have_shard && !recorded && record_shards(in, dir, nshards) != TCL_OK) {
        sm_study_free(&st);
        return TCL_ERROR;
    }
    /* The jobs replace the session and the end restores it from the stash:
     * nothing of the user's is discarded, so the workbench must not ask
     * (its question would take the keys typed after the command). */
    app->in_replay++;
    /* The stash is a save and the restore a load: keep what the user's
     * session was (its file, its unsaved parts), not the stash's. */
    char *path_before = app->scenario_path ? sm_xstrdup(app->scenario_path) : NULL;
    unsigned parts_before = app->session->dirty_parts;
    char *stash = stash_session(in, dir);
    long ran = 0, total = sm_study_njobs(&st), todo = 0;
    for (long j = shard; j < total; j += nshards) {
        char *path = sm_study_job_path(dir, j, "json");
        todo += access(path, F_OK) != 0;
        free(path);
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = study_sigint;
    sigemptyset(&sa.sa_mask);
    study_app = app;
    app->interrupt = 0;
    app->in_study = 1;
    sigaction(SIGINT, &sa, &old);
    double t0 = now_seconds();
    int rc = TCL_OK;
    long nfailed = 0, first_failed = -1;
    Tcl_Obj *first_error = NULL;
    for (long j = shard; j < total && rc == TCL_OK; j += nshards) {
        char *path = sm_study_job_path(dir, j, "json");
        int exists = access(path, F_OK) == 0;
        free(path);
        if (exists) continue;
        /* Every job is on disk: an interrupt loses at most the current one. */
        if (app->interrupt) {
            rc = interrupted(app, in, j);
            break;
        }
        progress(app, ran, todo, j, t0);
        rc = run_job(app, in, &st, j, dir);
        if (rc == TCL_OK) ran++;
        if (rc == TCL_OK && Tcl_LimitExceeded(in)) rc = TCL_ERROR;
        if (rc == TCL_OK) {
            clear_failed(dir, j);
        } else if (!Tcl_LimitExceeded(in) && !is_interrupt(in)) {
            /* A job that raised is recorded and the shard goes on: one bad
             * job must not cost the rest of a cluster allocation. */
            record_failed(in, dir, j);
            if (!first_error) {
                first_error = Tcl_GetObjResult(in);
                Tcl_IncrRefCount(first_error);
                first_failed = j;
            }
            nfailed++;
            rc = TCL_OK;
        }
    }
    if (rc == TCL_OK && nfailed) {
        Tcl_SetObjResult(in, Tcl_ObjPrintf("study run: %ld job%s failed (the first, job %ld: %s); "
                                           "each error is in its job-NNNNNN.failed file in %s, "
                                           "`study status` lists them, the same command reruns them",
                                           nfailed, nfailed == 1 ? "" : "s", first_failed,
                                           Tcl_GetString(first_error), dir));
        Tcl_SetErrorCode(in, "STENCILMAP", "STUDY", "FAILED", NULL);
        rc = TCL_ERROR;
    }
    if (first_error) Tcl_DecrRefCount(first_error);
    sigaction(SIGINT, &old, NULL);
    study_app = NULL;
    app->in_study = 0;
    if (!app->screen && isatty(2) && todo) fputs("\n", stderr);
    restore_session(in, dir, stash);
    sm_app_set_scenario_path(app, path_before);
    free(path_before);
    sm_session_mark(app->session, parts_before);
    app->in_replay--;
    sm_study_free(&st);
    if (rc != TCL_OK) return rc;
    Tcl_SetObjResult(in, Tcl_NewWideIntObj(ran));
    return TCL_OK;
}
