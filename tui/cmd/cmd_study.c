/* cmd_study.c - study run | merge | plot (SPEC §5). The cross product,
 * shards and file names are core/study/study_jobs.c; this file runs each job through
 * the ordinary commands (built as lists, never pasted strings) and turns
 * result files into Tcl dicts. */
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
#include "core/lib/path_guard.h"
#include "core/lib/sha256.h"
#include "core/study/study_jobs.h"
#include "core/study/braille_plot.h"
#include "solvers/solver_registry.h"

/* ---- the SPEC: a JSON file, JSON text or a Tcl dict ---- */

static int looks_like_json(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (*s++ != '{') return 0;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    return *s == '"' || *s == '}';
}

static int get_spec(Tcl_Interp *in, Tcl_Obj *spec, sm_study *st);

/* A Tcl dict SPEC: an even list that starts with one of its keys. */
static int looks_like_dict(Tcl_Obj *spec)
{
    static const char *const keys[] = {"scenarios", "solvers", "model", "seeds", NULL};
    int n, idx;
    Tcl_Obj **el;
    return Tcl_ListObjGetElements(NULL, spec, &n, &el) == TCL_OK && n >= 2 && n % 2 == 0 &&
           Tcl_GetIndexFromObj(NULL, el[0], keys, "key", TCL_EXACT, &idx) == TCL_OK;
}

static int spec_from_dict(Tcl_Interp *in, Tcl_Obj *spec, sm_study *st)
{
    static const char *const keys[] = {"scenarios", "solvers", "model", "seeds", NULL};
    Tcl_DictSearch search;
    Tcl_Obj *k, *v;
    int done, size;
    if (Tcl_DictObjSize(NULL, spec, &size) != TCL_OK)
        return sm_tcl_error(in, "STUDY", "study: SPEC is neither a file, JSON nor a Tcl dict");
    if (Tcl_DictObjFirst(NULL, spec, &search, &k, &v, &done) != TCL_OK)
        return sm_tcl_error(in, "STUDY", "study: SPEC is not a dict");
    int rc = TCL_OK;
    for (; !done && rc == TCL_OK; Tcl_DictObjNext(&search, &k, &v, &done)) {
        int which, n;
        Tcl_Obj **el;
        if (Tcl_GetIndexFromObj(NULL, k, keys, "key", 0, &which) != TCL_OK) {
            rc = sm_tcl_error(in, "STUDY", "study SPEC: unknown key \"%s\", expected "
                              "scenarios, solvers, model or seeds", Tcl_GetString(k));
            break;
        }
        if (which != 2 && Tcl_ListObjGetElements(NULL, v, &n, &el) != TCL_OK) {
            rc = sm_tcl_error(in, "STUDY", "study SPEC: %s: expected a list", keys[which]);
            break;
        }
        if (which == 0) {
            for (int i = 0; i < n; i++) sm_study_add_scenario(st, Tcl_GetString(el[i]));
        } else if (which == 1) {
            for (int i = 0; i < n; i++) sm_study_add_solver(st, Tcl_GetString(el[i]));
        } else if (which == 3) {
            for (int i = 0; i < n && rc == TCL_OK; i++) {
                Tcl_WideInt s;
                if (Tcl_GetWideIntFromObj(NULL, el[i], &s) != TCL_OK || s < 0)
                    rc = sm_tcl_error(in, "STUDY", "study SPEC: seeds: \"%s\" is not a "
                                      "whole number >= 0", Tcl_GetString(el[i]));
                else
                    sm_study_add_seed(st, (int64_t)s);
            }
        } else {
            Tcl_DictSearch ms;
            Tcl_Obj *mk, *mv;
            int mdone;
            if (Tcl_DictObjFirst(NULL, v, &ms, &mk, &mv, &mdone) != TCL_OK) {
                rc = sm_tcl_error(in, "STUDY", "study SPEC: model: expected a dict "
                                  "{option {values}}");
                break;
            }
            for (; !mdone && rc == TCL_OK; Tcl_DictObjNext(&ms, &mk, &mv, &mdone)) {
                int p = sm_study_add_param(st, Tcl_GetString(mk));
                if (p < 0 || Tcl_ListObjGetElements(NULL, mv, &n, &el) != TCL_OK) {
                    rc = sm_tcl_error(in, "STUDY", "study SPEC: model.%s: expected a "
                                      "list of values (at most %d keys)",
                                      Tcl_GetString(mk), SM_STUDY_MAX_PARAMS);
                    break;
                }
                for (int i = 0; i < n; i++) sm_study_add_value(st, p, Tcl_GetString(el[i]));
            }
            Tcl_DictObjDone(&ms);
        }
    }
    Tcl_DictObjDone(&search);
    if (rc != TCL_OK) return rc;
    sm_err e;
    if (sm_study_check(st, &e) < 0)
        return sm_tcl_error(in, "STUDY", "study SPEC: %s", e.msg);
    return TCL_OK;
}

/* The solver word's name and options (words after the name), or an error. */
static int solver_word(Tcl_Interp *in, const sm_study *st, int v, Tcl_Obj **list, int *n, Tcl_Obj ***el,
                       const sm_solver_ops **ops)
{
    *list = Tcl_NewStringObj(st->solv[v], -1);
    Tcl_IncrRefCount(*list);
    if (Tcl_ListObjGetElements(NULL, *list, n, el) != TCL_OK || *n == 0)
        return sm_tcl_error(in, "STUDY", "study SPEC: solvers[%d]: \"%s\" is not a list "
                            "{NAME ?-option value ...?}", v, st->solv[v]);
    *ops = sm_solver_find(Tcl_GetString((*el)[0]));
    if (!*ops)
        return sm_tcl_error(in, "STUDY", "study SPEC: solvers[%d]: unknown solver \"%s\"", v,
                            Tcl_GetString((*el)[0]));
    return TCL_OK;
}

static int takes_seed(const sm_solver_ops *ops)
{
    for (int i = 0; ops->opts[i].name; i++)
        if (strcmp(ops->opts[i].name, "seed") == 0) return 1;
    return 0;
}

/* Seeds apply only to the solver words whose solver takes -seed. */
static void mark_seeded(sm_study *st)
{
    free(st->seeded);
    st->seeded = sm_xcalloc((size_t)(st->nsolv ? st->nsolv : 1), 1);
    for (int v = 0; v < st->nsolv; v++) {
        Tcl_Obj *list = Tcl_NewStringObj(st->solv[v], -1);
        Tcl_IncrRefCount(list);
        int n;
        Tcl_Obj **el;
        const sm_solver_ops *ops = NULL;
        if (Tcl_ListObjGetElements(NULL, list, &n, &el) == TCL_OK && n > 0)
            ops = sm_solver_find(Tcl_GetString(el[0]));
        st->seeded[v] = !ops || takes_seed(ops);
        Tcl_DecrRefCount(list);
    }
}

int sm_study_check_whole(sm_app *app, Tcl_Interp *in, const sm_study *st)
{
    (void)app;
    sm_err e;
    int rc = TCL_OK;
    /* Model values first (cheap), each as model configure takes it. */
    for (int p = 0; p < st->nparam && rc == TCL_OK; p++)
        for (int i = 0; i < st->param[p].nvals && rc == TCL_OK; i++) {
            size_t n = strlen(st->param[p].key) + 2;
            char *opt = sm_xmalloc(n);
            snprintf(opt, n, "-%s", st->param[p].key);
            Tcl_Obj *kv[2] = {Tcl_NewStringObj(opt, -1), Tcl_NewStringObj(st->param[p].vals[i], -1)};
            free(opt);
            Tcl_IncrRefCount(kv[0]);
            Tcl_IncrRefCount(kv[1]);
            sm_model m;
            sm_model_default(&m);
            if (sm_model_parse_opts(in, &m, 2, kv) != TCL_OK)
                rc = sm_tcl_error(in, "STUDY", "study SPEC: model.%s[%d]: %s", st->param[p].key, i,
                                  Tcl_GetStringResult(in));
            Tcl_DecrRefCount(kv[0]);
            Tcl_DecrRefCount(kv[1]);
        }
    /* Every solver word against every scenario (an option may name the
     * scenario's types): each loads, each word parses. */
    for (int v = 0; v < st->nsolv && rc == TCL_OK; v++) {
        Tcl_Obj *list, **el;
        int n;
        const sm_solver_ops *ops;
        rc = solver_word(in, st, v, &list, &n, &el, &ops);
        if (rc == TCL_OK && (n - 1) % 2)
            rc = sm_tcl_error(in, "STUDY", "study SPEC: solvers[%d]: \"%s\": options come in pairs "
                              "-option value", v, st->solv[v]);
        for (int k = 1; rc == TCL_OK && k < n; k += 2)
            if (st->nseed && strcmp(Tcl_GetString(el[k]), "-seed") == 0)
                rc = sm_tcl_error(in, "STUDY", "study SPEC: solvers[%d]: \"%s\" has its own -seed and "
                                  "the SPEC has seeds: give one of them", v, st->solv[v]);
        Tcl_DecrRefCount(list);
    }
    for (int i = 0; i < st->nscen && rc == TCL_OK; i++) {
        sm_scenario sc;
        if (sm_scenario_load(st->scen[i], &sc, &e)) {
            rc = sm_tcl_error(in, "STUDY", "study SPEC: scenarios[%d]: %s", i, e.msg);
            break;
        }
        for (int v = 0; v < st->nsolv && rc == TCL_OK; v++) {
            Tcl_Obj *list, **el;
            int n;
            const sm_solver_ops *ops;
            rc = solver_word(in, st, v, &list, &n, &el, &ops);
            if (rc == TCL_OK) {
                const char **argv = sm_xmalloc(sizeof(char *) * (size_t)(n ? n : 1));
                for (int k = 1; k < n; k++) argv[k - 1] = Tcl_GetString(el[k]);
                sm_solver *s = sm_solver_prepare(ops, sc.grid, sc.topo, &sc.model, sc.map, n - 1, argv, &e);
                if (!s)
                    rc = sm_tcl_error(in, "STUDY", "study SPEC: solvers[%d] on %s: %s", v, st->scen[i], e.msg);
                sm_solver_free(s);
                free(argv);
            }
            Tcl_DecrRefCount(list);
        }
        sm_scenario_release(&sc);
    }
    return rc;
}

int sm_study_get_spec(Tcl_Interp *in, Tcl_Obj *spec, sm_study *st)
{
    int rc = get_spec(in, spec, st);
    if (rc == TCL_OK) mark_seeded(st);
    return rc;
}

static int get_spec(Tcl_Interp *in, Tcl_Obj *spec, sm_study *st)
{
    const char *s = Tcl_GetString(spec);
    sm_err e;
    /* A file, unless it reads as JSON or a dict of SPEC keys; a safe
     * script learns nothing of a file it may not read, not even that it
     * is there. */
    if (!looks_like_json(s) && !looks_like_dict(spec)) {
        if (sm_path_check(s, SM_PATH_READ, &e)) {
            Tcl_SetObjResult(in, Tcl_ObjPrintf("study: SPEC %s", e.msg));
            Tcl_SetErrorCode(in, "STENCILMAP", "SAFE", "PATH", NULL);
            return TCL_ERROR;
        }
    }
    /* "-": the SPEC file is standard input (scenarios relative to here). */
    if (!looks_like_json(s) && !looks_like_dict(spec) && (access(s, R_OK) == 0 || strcmp(s, "-") == 0)) {
        size_t len;
        char *text = sm_read_file(s, 1 << 24, &len, &e);
        int rc = text ? sm_study_from_json(st, text, len, s, &e) : -1;
        free(text);
        /* Scenario files are named relative to the SPEC file, like the
         * topology and grid files a scenario names. */
        char *dir = sm_dirname(s);
        for (int i = 0; rc == 0 && i < st->nscen; i++) {
            char *p = sm_path_join(dir, st->scen[i]);
            free(st->scen[i]);
            st->scen[i] = p;
        }
        free(dir);
        return rc < 0 ? sm_tcl_error(in, "STUDY", "%s", e.msg) : TCL_OK;
    }
    if (looks_like_json(s)) {
        if (sm_study_from_json(st, s, strlen(s), "SPEC", &e) < 0)
            return sm_tcl_error(in, "STUDY", "%s", e.msg);
        return TCL_OK;
    }
    return spec_from_dict(in, spec, st);
}

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

static void json_add_dict(cJSON *obj, Tcl_Obj *dict, const char *rename_seconds)
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
    size_t len;
    sm_err e;
    char *text = sm_read_file(st->scen[job->scen], SM_MAX_FILE_BYTES, &len, &e);
    char hash[65] = "";
    if (text) sm_sha256_hex(text, len, hash);
    free(text);
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
    json_add_dict(o, result, "solver_seconds");
    Tcl_DecrRefCount(result);
    Tcl_Obj *mw[2] = {Tcl_NewStringObj("model", -1), Tcl_NewStringObj("metrics", -1)};
    if (eval_words(in, 2, mw) == TCL_OK) json_add_dict(o, Tcl_GetObjResult(in), NULL);
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

static int study_run(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
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

/* ---- merge ---- */


/* Columns: union of keys in first-seen order. */
static Tcl_Obj *table_columns(Tcl_Obj *rows)
{
    Tcl_Obj *cols = Tcl_NewListObj(0, NULL), *seen = Tcl_NewDictObj();
    Tcl_IncrRefCount(seen);
    int n;
    Tcl_Obj **el;
    Tcl_ListObjGetElements(NULL, rows, &n, &el);
    for (int i = 0; i < n; i++) {
        Tcl_DictSearch s;
        Tcl_Obj *k, *v, *x;
        int done;
        Tcl_DictObjFirst(NULL, el[i], &s, &k, &v, &done);
        for (; !done; Tcl_DictObjNext(&s, &k, &v, &done)) {
            Tcl_DictObjGet(NULL, seen, k, &x);
            if (x) continue;
            Tcl_DictObjPut(NULL, seen, k, Tcl_NewIntObj(1));
            Tcl_ListObjAppendElement(NULL, cols, k);
        }
        Tcl_DictObjDone(&s);
    }
    Tcl_DecrRefCount(seen);
    return cols;
}

static void csv_field(Tcl_Obj *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        Tcl_AppendToObj(out, s, -1);
        return;
    }
    Tcl_AppendToObj(out, "\"", 1);
    for (; *s; s++) {
        Tcl_AppendToObj(out, s, 1);
        if (*s == '"') Tcl_AppendToObj(out, "\"", 1);  /* "" escapes a quote */
    }
    Tcl_AppendToObj(out, "\"", 1);
}

static Tcl_Obj *table_csv(Tcl_Obj *rows)
{
    Tcl_Obj *cols = table_columns(rows), *out = Tcl_NewObj();
    Tcl_IncrRefCount(cols);
    int nc, nr;
    Tcl_Obj **c, **r;
    Tcl_ListObjGetElements(NULL, cols, &nc, &c);
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    for (int j = 0; j < nc; j++) {
        if (j) Tcl_AppendToObj(out, ",", 1);
        csv_field(out, Tcl_GetString(c[j]));
    }
    Tcl_AppendToObj(out, "\n", 1);
    for (int i = 0; i < nr; i++) {
        for (int j = 0; j < nc; j++) {
            Tcl_Obj *v = NULL;
            if (j) Tcl_AppendToObj(out, ",", 1);
            Tcl_DictObjGet(NULL, r[i], c[j], &v);
            if (v) csv_field(out, Tcl_GetString(v));
        }
        Tcl_AppendToObj(out, "\n", 1);
    }
    Tcl_DecrRefCount(cols);
    return out;
}

static Tcl_Obj *table_json(Tcl_Obj *rows)
{
    cJSON *a = cJSON_CreateArray();
    int nr;
    Tcl_Obj **r;
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    for (int i = 0; i < nr; i++) {
        cJSON *o = cJSON_CreateObject();
        json_add_dict(o, r[i], NULL);
        cJSON_AddItemToArray(a, o);
    }
    char *text = sm_json_print(a);
    cJSON_Delete(a);
    Tcl_Obj *out = Tcl_NewStringObj(text, -1);
    free(text);
    return out;
}

/* What DIR holds against what its SPEC asks: done, failed (with their
 * errors), missing, and the shards to run again. */
typedef struct study_state {
    sm_study_manifest m;
    long ndone;
    Tcl_Obj *failed;    /* dict job -> error */
    Tcl_Obj *missing;   /* job numbers */
    Tcl_Obj *rerun;     /* shard numbers */
} study_state;

static void state_free(study_state *s)
{
    sm_study_manifest_free(&s->m);
    if (s->failed) Tcl_DecrRefCount(s->failed);
    if (s->missing) Tcl_DecrRefCount(s->missing);
    if (s->rerun) Tcl_DecrRefCount(s->rerun);
}

static const char *failed_error(const char *dir, long j, char *buf, size_t n)
{
    char *path = sm_study_job_path(dir, j, "failed");
    size_t len;
    sm_err e;
    char *text = sm_read_file(path, 1 << 20, &len, &e);
    cJSON *o = text ? sm_json_parse(text, len, &e) : NULL;
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(o, "error");
    if (cJSON_IsString(msg)) snprintf(buf, n, "%s", msg->valuestring);
    else snprintf(buf, n, "%s: unreadable failure record: %s", path, text ? "no \"error\" string" : e.msg);
    cJSON_Delete(o);
    free(text);
    free(path);
    return buf;
}

/* 1 with *s filled, 0 when DIR has no manifest (an older directory). */
static int study_state_of(Tcl_Interp *in, const char *dir, const char *cmd, study_state *s)
{
    memset(s, 0, sizeof *s);
    sm_err e;
    int r = sm_study_manifest_read(dir, &s->m, &e);
    if (r < 0) {
        sm_tcl_error(in, "STUDY", "%s: %s", cmd, e.msg);
        return -1;
    }
    if (r == 0) return 0;
    long *done = NULL, nd = 0, *fail = NULL, nf = 0;
    if (sm_study_list(dir, &done, &nd, &e) < 0 ||
        sm_study_list_suffix(dir, "failed", &fail, &nf, &e) < 0) {
        free(done);
        sm_study_manifest_free(&s->m);
        sm_tcl_error(in, "IO", "%s: %s", cmd, e.msg);
        return -1;
    }
    s->failed = Tcl_NewDictObj();
    s->missing = Tcl_NewListObj(0, NULL);
    s->rerun = Tcl_NewListObj(0, NULL);
    Tcl_IncrRefCount(s->failed);
    Tcl_IncrRefCount(s->missing);
    Tcl_IncrRefCount(s->rerun);
    long shards = s->m.shards;
    char *rerun = shards ? sm_xcalloc((size_t)shards, 1) : NULL;
    long di = 0, fi = 0;
    for (long j = 0; j < s->m.jobs; j++) {
        while (di < nd && done[di] < j) di++;
        while (fi < nf && fail[fi] < j) fi++;
        if (di < nd && done[di] == j) {
            s->ndone++;
            continue;
        }
        if (fi < nf && fail[fi] == j) {
            char buf[1200];
            Tcl_DictObjPut(NULL, s->failed, Tcl_NewWideIntObj(j),
                           Tcl_NewStringObj(failed_error(dir, j, buf, sizeof buf), -1));
        } else {
            Tcl_ListObjAppendElement(NULL, s->missing, Tcl_NewWideIntObj(j));
        }
        if (rerun) rerun[j % shards] = 1;
    }
    for (long k = 0; k < shards; k++)
        if (rerun[k]) Tcl_ListObjAppendElement(NULL, s->rerun, Tcl_NewWideIntObj(k));
    free(rerun);
    free(done);
    free(fail);
    return 1;
}

static int study_status(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app;
    (void)objc;
    const char *dir = Tcl_GetString(objv[2]);
    study_state s;
    int r = study_state_of(in, dir, "study status", &s);
    if (r < 0) return TCL_ERROR;
    if (r == 0)
        return sm_tcl_error(in, "STUDY", "study status: %s has no %s: not a study directory, "
                            "or one written before studies recorded their SPEC", dir, SM_STUDY_MANIFEST);
    Tcl_Obj *d = Tcl_NewDictObj();
#define PUT(k, v) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
    PUT("jobs", Tcl_NewWideIntObj(s.m.jobs));
    PUT("done", Tcl_NewWideIntObj(s.ndone));
    PUT("failed", s.failed);
    PUT("missing", s.missing);
    PUT("shards", Tcl_NewWideIntObj(s.m.shards));
    PUT("rerun", s.rerun);
    PUT("spec_sha256", Tcl_NewStringObj(s.m.hash, -1));
    PUT("program", Tcl_NewStringObj(s.m.program, -1));
#undef PUT
    state_free(&s);
    Tcl_SetObjResult(in, d);
    return TCL_OK;
}

/* Up to 10 job numbers of a list, then "...". */
static void append_some(Tcl_Obj *out, Tcl_Obj *list, int keys)
{
    int n;
    Tcl_Obj **el;
    Tcl_ListObjGetElements(NULL, list, &n, &el);
    int shown = 0;
    for (int i = 0; i < n && shown < 10; i += keys ? 2 : 1, shown++)
        Tcl_AppendStringsToObj(out, shown ? " " : "", Tcl_GetString(el[i]), NULL);
    if ((keys ? n / 2 : n) > shown) Tcl_AppendToObj(out, " ...", -1);
}

static int study_merge(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    (void)app;
    static const char *const opts[] = {"-format", "-partial", NULL};
    static const char *const fmts[] = {"list", "csv", "json", NULL};
    int fmt = 0, partial = 0;
    for (int i = 3; i < objc; i++) {
        int idx;
        if (Tcl_GetIndexFromObj(in, objv[i], opts, "option", 0, &idx) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
        if (idx == 1) {
            partial = 1;
            continue;
        }
        if (++i >= objc) return sm_tcl_error(in, "ARGS", "study merge: -format needs a value");
        if (Tcl_GetIndexFromObj(in, objv[i], fmts, "format", 0, &fmt) != TCL_OK) {
            Tcl_SetErrorCode(in, "STENCILMAP", "ARGS", NULL);
            return TCL_ERROR;
        }
    }
    const char *dir = Tcl_GetString(objv[2]);
    if (!partial) {
        study_state s;
        int r = study_state_of(in, dir, "study merge", &s);
        if (r < 0) return TCL_ERROR;
        if (r == 1 && s.ndone < s.m.jobs) {
            Tcl_Obj *msg = Tcl_ObjPrintf("study merge: %s: %ld of %ld jobs have no result (missing: ",
                                         dir, s.m.jobs - s.ndone, s.m.jobs);
            append_some(msg, s.missing, 0);
            int nf;
            Tcl_DictObjSize(NULL, s.failed, &nf);
            if (nf) {
                Tcl_AppendToObj(msg, "; failed: ", -1);
                append_some(msg, s.failed, 1);
            }
            Tcl_AppendToObj(msg, "); run them again (`study status` lists them) or merge what there "
                                 "is with -partial", -1);
            state_free(&s);
            Tcl_SetObjResult(in, msg);
            Tcl_SetErrorCode(in, "STENCILMAP", "STUDY", "MISSING", NULL);
            return TCL_ERROR;
        }
        if (r == 1) state_free(&s);
    }
    Tcl_Obj *rows;
    if (sm_study_merge_table(in, dir, &rows) != TCL_OK) return TCL_ERROR;
    Tcl_IncrRefCount(rows);
    Tcl_SetObjResult(in, fmt == 0 ? rows : fmt == 1 ? table_csv(rows) : table_json(rows));
    Tcl_DecrRefCount(rows);
    return TCL_OK;
}

static const sm_subcmd study_subs[] = {
    {"run", study_run, 1, 5, "SPEC ?-shard I/N? -out DIR"},
    {"merge", study_merge, 1, 4, "DIR ?-format list|csv|json? ?-partial?"},
    {"status", study_status, 1, 1, "DIR"},
    {"plot", sm_study_plot_cmd, 1, -1, "DIR -x KEY -y KEY ?-by KEY? ?-o FILE? ?-width W? ?-height H? ?-published BOOL?"},
    {NULL, NULL, 0, 0, NULL},
};

static int study_cmd(ClientData cd, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
{
    return sm_dispatch(cd, in, objc, objv, study_subs);
}

void sm_register_study_cmds(sm_app *app)
{
    sm_create_ensemble(app, "study", study_cmd, study_subs);
}
