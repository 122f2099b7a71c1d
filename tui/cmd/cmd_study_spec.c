/* cmd_study_spec.c - a study's SPEC (a JSON file, JSON text or a Tcl dict)
 * read, its seeds marked, and checked whole before any job runs. */
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
        char *text = sm_read_file(s, SM_READ_ANY_SIZE, &len, &e);
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
