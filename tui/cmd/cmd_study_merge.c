/* cmd_study_merge.c - study merge and study status: a study directory's
 * result files as one table (list, CSV or JSON), and what it still lacks. */
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
        sm_study_json_add_dict(o, r[i], NULL);
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
    char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, &e);
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

int sm_study_status_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
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

int sm_study_merge_cmd(sm_app *app, Tcl_Interp *in, int objc, Tcl_Obj *const objv[])
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
