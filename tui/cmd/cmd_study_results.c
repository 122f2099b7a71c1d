/* cmd_study_results.c - a study's results as Tcl rows, one dict a job:
 * merged from a results directory, read from a saved table or one job's
 * result file, and turned into the Tcl-free table the Study pane and
 * `study plot` draw. Shared by `study merge`, `study plot` and `view study`. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_common.h"
#include "cmd_study.h"
#include "core/lib/jsonutil.h"
#include "core/study/study_jobs_enumeration.h"

static Tcl_Obj *tcl_of(const cJSON *v)
{
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < 9.0e15) return Tcl_NewWideIntObj((Tcl_WideInt)d);
        return Tcl_NewDoubleObj(d);
    }
    if (cJSON_IsString(v)) return Tcl_NewStringObj(v->valuestring, -1);
    if (cJSON_IsBool(v)) return Tcl_NewIntObj(cJSON_IsTrue(v));
    return Tcl_NewObj();
}

/* One result object as a dict (the keys in file order). */
static Tcl_Obj *row_of_json(const cJSON *j)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    for (const cJSON *c = j->child; c; c = c->next)
        if (!cJSON_IsObject(c) && !cJSON_IsArray(c))   /* "inputs": provenance, not a column */
            Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(c->string, -1), tcl_of(c));
    return d;
}

int sm_study_merge_table(Tcl_Interp *in, const char *dir, Tcl_Obj **table)
{
    long *nums, count;
    sm_err e;
    if (sm_study_list(dir, &nums, &count, &e) < 0)
        return sm_tcl_error(in, "IO", "study merge: %s", e.msg);
    Tcl_Obj *rows = Tcl_NewListObj(0, NULL);
    for (long i = 0; i < count; i++) {
        char *path = sm_study_job_path(dir, nums[i], "json");
        size_t len;
        char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, &e);
        cJSON *j = text ? sm_json_parse(text, len, &e) : NULL;
        free(text);
        if (j && !cJSON_IsObject(j)) sm_err_set(&e, "(root): expected a JSON object");
        if (!j || !cJSON_IsObject(j)) {
            cJSON_Delete(j);
            Tcl_IncrRefCount(rows);
            Tcl_DecrRefCount(rows);
            free(nums);
            int rc = sm_tcl_error(in, "STUDY", "study merge: %s: %s", path, e.msg);
            free(path);
            return rc;
        }
        free(path);
        Tcl_ListObjAppendElement(NULL, rows, row_of_json(j));
        cJSON_Delete(j);
    }
    free(nums);
    *table = rows;
    return TCL_OK;
}

int sm_study_table_file(Tcl_Interp *in, const char *path, Tcl_Obj **table)
{
    sm_err e;
    size_t len;
    char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, &e);
    cJSON *j = text ? sm_json_parse(text, len, &e) : NULL;
    free(text);
    if (!j) return sm_tcl_error(in, "LOAD", "%s", e.msg);
    Tcl_Obj *rows = Tcl_NewListObj(0, NULL);
    if (cJSON_IsObject(j)) {
        Tcl_ListObjAppendElement(NULL, rows, row_of_json(j));   /* one job's result */
    } else if (cJSON_IsArray(j)) {
        int i = 0;
        for (const cJSON *c = j->child; c; c = c->next, i++) {
            if (!cJSON_IsObject(c)) {
                cJSON_Delete(j);
                Tcl_IncrRefCount(rows);
                Tcl_DecrRefCount(rows);
                return sm_tcl_error(in, "LOAD", "%s: [%d]: expected a JSON object (one row of "
                                    "\"study merge DIR -format json\")", path, i);
            }
            Tcl_ListObjAppendElement(NULL, rows, row_of_json(c));
        }
    } else {
        cJSON_Delete(j);
        Tcl_IncrRefCount(rows);
        Tcl_DecrRefCount(rows);
        return sm_tcl_error(in, "LOAD", "%s: (root): expected an array of result objects "
                            "(\"study merge DIR -format json\") or one job's result object", path);
    }
    cJSON_Delete(j);
    *table = rows;
    return TCL_OK;
}

sm_study_table *sm_study_table_of_rows(Tcl_Obj *rows)
{
    sm_study_table *t = sm_study_table_new();
    int nr;
    Tcl_Obj **r;
    Tcl_ListObjGetElements(NULL, rows, &nr, &r);
    for (int i = 0; i < nr; i++) {
        int row = sm_study_table_add_row(t);
        Tcl_DictSearch s;
        Tcl_Obj *k, *v;
        int done;
        if (Tcl_DictObjFirst(NULL, r[i], &s, &k, &v, &done) != TCL_OK) continue;
        for (; !done; Tcl_DictObjNext(&s, &k, &v, &done))
            sm_study_table_set(t, row, Tcl_GetString(k), Tcl_GetString(v));
        Tcl_DictObjDone(&s);
    }
    return t;
}
