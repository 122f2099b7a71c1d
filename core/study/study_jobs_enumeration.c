/* study_jobs_enumeration.c - study specs, job enumeration, shards, result file names. */
#include "study_jobs_enumeration.h"
#include "core/lib/path_guard_enforces_allowed_dirs.h"
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/lib/jsonutil.h"
#include "core/lib/sha256.h"
#include "core/lib/atomic_file_write.h"

void sm_study_init(sm_study *st) { memset(st, 0, sizeof *st); }

static void free_strs(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

void sm_study_free(sm_study *st)
{
    free_strs(st->scen, st->nscen);
    free_strs(st->solv, st->nsolv);
    for (int p = 0; p < st->nparam; p++) {
        free(st->param[p].key);
        free_strs(st->param[p].vals, st->param[p].nvals);
    }
    free(st->seed);
    free(st->seeded);
    sm_study_init(st);
}

static void push_str(char ***v, int *n, const char *s)
{
    *v = sm_xrealloc(*v, sizeof **v * (size_t)(*n + 1));
    (*v)[(*n)++] = sm_xstrdup(s);
}

void sm_study_add_scenario(sm_study *st, const char *f) { push_str(&st->scen, &st->nscen, f); }
void sm_study_add_solver(sm_study *st, const char *w) { push_str(&st->solv, &st->nsolv, w); }

int sm_study_add_param(sm_study *st, const char *key)
{
    if (st->nparam >= SM_STUDY_MAX_PARAMS) return -1;
    sm_study_param *p = &st->param[st->nparam];
    p->key = sm_xstrdup(key);
    p->nvals = 0;
    p->vals = NULL;
    return st->nparam++;
}

void sm_study_add_value(sm_study *st, int param, const char *val)
{
    sm_study_param *p = &st->param[param];
    push_str(&p->vals, &p->nvals, val);
}

void sm_study_add_seed(sm_study *st, int64_t seed)
{
    st->seed = sm_xrealloc(st->seed, sizeof *st->seed * (size_t)(st->nseed + 1));
    st->seed[st->nseed++] = seed;
}

/* A JSON array of strings into the study via add(). */
static int json_strings(const cJSON *root, const char *key, const char *source,
                        sm_study *st, void (*add)(sm_study *, const char *),
                        sm_err *e)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!a) {
        sm_err_set(e, "%s: %s: required, expected a list of strings", source, key);
        return -1;
    }
    if (!cJSON_IsArray(a)) {
        sm_err_set(e, "%s: %s: expected a list of strings", source, key);
        return -1;
    }
    int i = 0;
    for (const cJSON *s = a->child; s; s = s->next, i++) {
        if (!cJSON_IsString(s) || !s->valuestring[0]) {
            sm_err_set(e, "%s: %s[%d]: expected a non-empty string", source, key, i);
            return -1;
        }
        add(st, s->valuestring);
    }
    return 0;
}

int sm_study_from_json(sm_study *st, const char *text, size_t len,
                       const char *source, sm_err *e)
{
    cJSON *root = sm_json_parse(text, len, e);
    if (!root) {
        sm_err_prefix(e, "%s: ", source);
        return -1;
    }
    static const char *const keys[] = {"scenarios", "solvers", "model", "seeds", NULL};
    int rc = -1;
    if (sm_json_expect_object(root, "(root)", e) < 0 ||
        sm_json_only_keys(root, "(root)", keys, e) < 0) {
        sm_err_prefix(e, "%s: ", source);
        goto out;
    }
    if (json_strings(root, "scenarios", source, st, sm_study_add_scenario, e) < 0 ||
        json_strings(root, "solvers", source, st, sm_study_add_solver, e) < 0)
        goto out;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (m) {
        if (!cJSON_IsObject(m)) {
            sm_err_set(e, "%s: model: expected an object {option: [values]}", source);
            goto out;
        }
        for (const cJSON *k = m->child; k; k = k->next) {
            int p = sm_study_add_param(st, k->string);
            if (p < 0) {
                sm_err_set(e, "%s: model: at most %d keys", source, SM_STUDY_MAX_PARAMS);
                goto out;
            }
            if (!cJSON_IsArray(k)) {
                sm_err_set(e, "%s: model.%s: expected a list of values", source, k->string);
                goto out;
            }
            int i = 0;
            for (const cJSON *v = k->child; v; v = v->next, i++) {
                char buf[64];
                if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
                    snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
                    sm_study_add_value(st, p, buf);
                } else if (cJSON_IsString(v) && v->valuestring[0]) {
                    sm_study_add_value(st, p, v->valuestring);
                } else {
                    sm_err_set(e, "%s: model.%s[%d]: expected a number or a word",
                               source, k->string, i);
                    goto out;
                }
            }
        }
    }
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "seeds");
    if (s) {
        if (!cJSON_IsArray(s)) {
            sm_err_set(e, "%s: seeds: expected a list of whole numbers", source);
            goto out;
        }
        int i = 0;
        for (const cJSON *v = s->child; v; v = v->next, i++) {
            if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 9e15 ||
                v->valuedouble != (double)(int64_t)v->valuedouble) {
                sm_err_set(e, "%s: seeds[%d]: expected a whole number >= 0", source, i);
                goto out;
            }
            sm_study_add_seed(st, (int64_t)v->valuedouble);
        }
    }
    if (sm_study_check(st, e) < 0) {
        sm_err_prefix(e, "%s: ", source);
        goto out;
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

/* The jobs of solver word v per combination: one per seed when it
 * takes -seed (and seeds are given), else one. */
static long seeds_of(const sm_study *st, int v)
{
    return st->nseed && (!st->seeded || st->seeded[v]) ? st->nseed : 1;
}

static long per_values(const sm_study *st)
{
    long n = 1;
    for (int p = 0; p < st->nparam; p++) n *= st->param[p].nvals;
    return n;
}

int sm_study_check(const sm_study *st, sm_err *e)
{
    if (st->nscen == 0) {
        sm_err_set(e, "scenarios: expected at least one scenario file");
        return -1;
    }
    if (st->nsolv == 0) {
        sm_err_set(e, "solvers: expected at least one solver word, e.g. {lb}");
        return -1;
    }
    double n = 0;
    for (int v = 0; v < st->nsolv; v++) n += (double)seeds_of(st, v);
    n *= st->nscen;
    for (int p = 0; p < st->nparam; p++) {
        if (st->param[p].nvals == 0) {
            sm_err_set(e, "model.%s: expected at least one value", st->param[p].key);
            return -1;
        }
        n *= st->param[p].nvals;
    }
    if (n > SM_STUDY_MAX_JOBS) {
        sm_err_set(e, "the cross product has %.0f jobs, more than %ld", n,
                   SM_STUDY_MAX_JOBS);
        return -1;
    }
    return 0;
}

long sm_study_njobs(const sm_study *st)
{
    long per_scen = 0;
    for (int v = 0; v < st->nsolv; v++) per_scen += seeds_of(st, v);
    return (long)st->nscen * per_scen * per_values(st);
}

/* Scenario-major, then solver, then each model key, then seed (fastest);
 * a solver without -seed has one job where the others have one a seed. */
void sm_study_job_at(const sm_study *st, long number, sm_study_job *job)
{
    memset(job, 0, sizeof *job);
    job->number = number;
    long vals = per_values(st), per_scen = 0;
    for (int v = 0; v < st->nsolv; v++) per_scen += seeds_of(st, v) * vals;
    long r = per_scen ? number % per_scen : 0;
    job->scen = per_scen ? (int)(number / per_scen) : 0;
    int v = 0;
    while (v < st->nsolv - 1 && r >= seeds_of(st, v) * vals) r -= seeds_of(st, v++) * vals;
    job->solv = v;
    if (st->nseed && (!st->seeded || st->seeded[v])) {
        job->seed = (int)(r % st->nseed);
        r /= st->nseed;
    } else {
        job->seed = -1;
    }
    for (int p = st->nparam - 1; p >= 0; p--) {
        job->val[p] = (int)(r % st->param[p].nvals);
        r /= st->param[p].nvals;
    }
}

char *sm_study_job_path(const char *dir, long number, const char *suffix)
{
    size_t n = strlen(dir) + strlen(suffix) + 32;
    char *p = sm_xmalloc(n);
    snprintf(p, n, "%s/job-%06ld.%s", dir, number, suffix);
    return p;
}

static int parse_long(const char *s, const char *end, long *out)
{
    if (s == end || end - s > 18) return -1;
    long v = 0;
    for (const char *c = s; c < end; c++) {
        if (*c < '0' || *c > '9') return -1;
        v = v * 10 + (*c - '0');
    }
    *out = v;
    return 0;
}

int sm_study_parse_shard(const char *s, long *i, long *n, sm_err *e)
{
    const char *slash = strchr(s, '/');
    if (!slash || parse_long(s, slash, i) < 0 ||
        parse_long(slash + 1, slash + strlen(slash), n) < 0 || *n < 1 || *i >= *n) {
        sm_err_set(e, "-shard expects I/N with 0 <= I < N, got \"%s\"", s);
        return -1;
    }
    return 0;
}

static int env_long(const char *name, long *out, int *present)
{
    const char *v = getenv(name);
    *present = v && *v;
    if (!*present) return 0;
    return parse_long(v, v + strlen(v), out);
}

int sm_study_shard_from_env(long recorded, long *i, long *n, sm_err *e)
{
    long id, count = 0, max = 0, shards = 0;
    int has_id, has_count, has_max, has_shards;
    if (env_long("SLURM_ARRAY_TASK_ID", &id, &has_id) < 0) {
        sm_err_set(e, "SLURM_ARRAY_TASK_ID=%s: expected a task id >= 0",
                   getenv("SLURM_ARRAY_TASK_ID"));
        return -1;
    }
    if (!has_id) return 0;
    if (env_long("STENCILMAP_STUDY_SHARDS", &shards, &has_shards) < 0 || (has_shards && shards < 1)) {
        sm_err_set(e, "STENCILMAP_STUDY_SHARDS=%s: expected a shard count >= 1",
                   getenv("STENCILMAP_STUDY_SHARDS"));
        return -1;
    }
    if (env_long("SLURM_ARRAY_TASK_MAX", &max, &has_max) < 0 ||
        env_long("SLURM_ARRAY_TASK_COUNT", &count, &has_count) < 0) {
        sm_err_set(e, "SLURM_ARRAY_TASK_MAX=%s SLURM_ARRAY_TASK_COUNT=%s: expected whole numbers",
                   getenv("SLURM_ARRAY_TASK_MAX"), getenv("SLURM_ARRAY_TASK_COUNT"));
        return -1;
    }
    const char *from;
    if (has_shards) { *n = shards; from = "STENCILMAP_STUDY_SHARDS"; }
    else if (recorded > 0) { *n = recorded; from = "the study directory"; }
    else if (has_max) { *n = max + 1; from = "SLURM_ARRAY_TASK_MAX+1"; }
    else if (has_count) { *n = count; from = "SLURM_ARRAY_TASK_COUNT"; }
    else {
        sm_err_set(e, "SLURM_ARRAY_TASK_ID=%ld but neither STENCILMAP_STUDY_SHARDS nor "
                      "SLURM_ARRAY_TASK_MAX says how many shards", id);
        return -1;
    }
    if (*n < 1 || id >= *n) {
        sm_err_set(e, "Slurm array task %ld names no shard: the study has %ld shards "
                      "(from %s), numbered 0 to %ld", id, *n, from, *n - 1);
        return -1;
    }
    *i = id;
    return 1;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int sm_study_list(const char *dir, long **numbers, long *count, sm_err *e)
{
    return sm_study_list_suffix(dir, "json", numbers, count, e);
}

int sm_study_list_suffix(const char *dir, const char *suffix, long **numbers,
                         long *count, sm_err *e)
{
    size_t sl = strlen(suffix);
    *numbers = NULL;
    *count = 0;
    int fd = sm_path_open(dir, SM_PATH_READ, O_RDONLY | O_DIRECTORY, 0, e);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) {
            sm_err_set(e, "%s: cannot open study directory: %s", dir, strerror(errno));
            close(fd);
        }
        return -1;
    }
    long cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *nm = de->d_name;
        size_t len = strlen(nm);
        /* job-NNNNNN.SUFFIX exactly: temporaries and mappings are skipped. */
        if (len < 6 + sl || strncmp(nm, "job-", 4) != 0 || nm[len - sl - 1] != '.' ||
            strcmp(nm + len - sl, suffix) != 0)
            continue;
        long v;
        if (parse_long(nm + 4, nm + len - sl - 1, &v) < 0) continue;
        if (*count == cap) {
            cap = cap ? 2 * cap : 64;
            *numbers = sm_xrealloc(*numbers, sizeof **numbers * (size_t)cap);
        }
        (*numbers)[(*count)++] = v;
    }
    closedir(d);
    /* An empty directory has no array to sort (qsort wants one). */
    if (*count > 1) qsort(*numbers, (size_t)*count, sizeof **numbers, cmp_long);
    return 0;
}

int sm_mkdir_p(const char *dir, sm_err *e)
{
    if (sm_path_check(dir, SM_PATH_WRITE, e)) return -1;
    char *p = sm_xstrdup(dir);
    for (char *c = p + 1; ; c++) {
        if (*c == '/' || *c == '\0') {
            char save = *c;
            *c = '\0';
            /* Each directory made is a write of its own: "../new/../here/d"
             * ends inside but would make ../new on the way. */
            /* Made in its parent held open (beneath the directory the
             * guard allows), not by a name that could lead elsewhere. */
            struct stat pb;
            if (lstat(p, &pb) != 0) {
                char *name;
                int dfd = sm_path_open_dir(p, SM_PATH_WRITE, &name, e);
                if (dfd < 0) {
                    free(p);
                    return -1;
                }
                int bad = mkdirat(dfd, name, 0755) != 0 && errno != EEXIST;
                if (bad) sm_err_set(e, "%s: cannot create directory: %s", p, strerror(errno));
                free(name);
                close(dfd);
                if (bad) {
                    free(p);
                    return -1;
                }
            }
            *c = save;
            if (!save) break;
        }
    }
    free(p);
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        sm_err_set(e, "%s: not a directory", dir);
        return -1;
    }
    return 0;
}

/* ---- provenance ---- */

static cJSON *strings_json(char **v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
    return a;
}

char *sm_study_to_json(const sm_study *st)
{
    cJSON *o = cJSON_CreateObject();
    /* Scenario files by their real path, so one SPEC run from another
     * directory (a Slurm task in its submit directory) is the same SPEC. */
    cJSON *sc = cJSON_AddArrayToObject(o, "scenarios");
    for (int i = 0; i < st->nscen; i++) {
        char *real = realpath(st->scen[i], NULL);
        cJSON_AddItemToArray(sc, cJSON_CreateString(real ? real : st->scen[i]));
        free(real);
    }
    cJSON_AddItemToObject(o, "solvers", strings_json(st->solv, st->nsolv));
    if (st->nparam) {
        cJSON *m = cJSON_AddObjectToObject(o, "model");
        for (int p = 0; p < st->nparam; p++) {
            /* Numbers in one spelling ("3e-3", 0.003 in JSON, 3.0e-3 in a Tcl
             * dict are one value), shortest text that reads back the same. */
            cJSON *a = cJSON_AddArrayToObject(m, st->param[p].key);
            for (int k = 0; k < st->param[p].nvals; k++) {
                const char *v = st->param[p].vals[k];
                char *end, buf[40];
                double d = strtod(v, &end);
                if (end != v && !*end && isfinite(d)) {
                    snprintf(buf, sizeof buf, "%.15g", d);
                    if (strtod(buf, NULL) != d) snprintf(buf, sizeof buf, "%.17g", d);
                    v = buf;
                }
                cJSON_AddItemToArray(a, cJSON_CreateString(v));
            }
        }
    }
    if (st->nseed) {
        cJSON *a = cJSON_AddArrayToObject(o, "seeds");
        for (int i = 0; i < st->nseed; i++)
            cJSON_AddItemToArray(a, cJSON_CreateNumber((double)st->seed[i]));
    }
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    char *out = sm_xstrdup(text);
    cJSON_free(text);
    return out;
}

void sm_study_manifest_free(sm_study_manifest *m)
{
    free(m->spec);
    free(m->program);
    memset(m, 0, sizeof *m);
}

static char *manifest_path(const char *dir)
{
    return sm_path_join(dir, SM_STUDY_MANIFEST);
}

int sm_study_manifest_read(const char *dir, sm_study_manifest *m, sm_err *e)
{
    memset(m, 0, sizeof *m);
    char *path = manifest_path(dir);
    struct stat sb;
    /* Asked before anything looks: "no manifest" must not tell a safe
     * script that a directory it may not read exists. */
    if (sm_path_check(path, SM_PATH_READ, e)) {
        free(path);
        return -1;
    }
    if (stat(path, &sb) != 0 && errno == ENOENT) {
        free(path);
        return 0;
    }
    size_t len;
    char *text = sm_read_file(path, SM_READ_ANY_SIZE, &len, e);
    cJSON *root = text ? sm_json_parse(text, len, e) : NULL;
    free(text);
    int rc = -1;
    const char *hash, *program;
    int64_t jobs, shards = 0;
    const cJSON *spec;
    if (!root) goto out;
    if (sm_json_check_format(root, "stencilmap/study", e) < 0) goto out;
    spec = cJSON_GetObjectItemCaseSensitive(root, "spec");
    if (!cJSON_IsObject(spec)) {
        sm_err_set(e, "spec: required, expected the study SPEC as an object");
        goto out;
    }
    if (sm_json_string(root, "(root)", "spec_sha256", 1, &hash, e) < 0 ||
        sm_json_string(root, "(root)", "program", 1, &program, e) < 0 ||
        sm_json_integer(root, "(root)", "jobs", 1, 1, SM_STUDY_MAX_JOBS, &jobs, e) < 0 ||
        sm_json_integer(root, "(root)", "shards", 0, 0, SM_STUDY_MAX_JOBS, &shards, e) < 0)
        goto out;
    if (strlen(hash) != 64) {
        sm_err_set(e, "spec_sha256: expected 64 hex digits");
        goto out;
    }
    char *t = cJSON_PrintUnformatted(spec);
    m->spec = sm_xstrdup(t);
    cJSON_free(t);
    memcpy(m->hash, hash, 65);
    m->program = sm_xstrdup(program);
    m->jobs = (long)jobs;
    m->shards = (long)shards;
    rc = 1;
out:
    if (rc < 0) {
        sm_err_prefix(e, "%s: ", path);
        sm_study_manifest_free(m);
    }
    cJSON_Delete(root);
    free(path);
    return rc;
}

int sm_study_manifest_write(const char *dir, const sm_study_manifest *m, sm_err *e)
{
    sm_err pe;
    cJSON *spec = sm_json_parse(m->spec, strlen(m->spec), &pe);
    if (!spec) {
        sm_err_set(e, "study manifest: the SPEC is not JSON: %s", pe.msg);
        return -1;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", "stencilmap/study");
    cJSON_AddNumberToObject(o, "version", 1);
    cJSON_AddStringToObject(o, "program", m->program);
    cJSON_AddStringToObject(o, "spec_sha256", m->hash);
    cJSON_AddNumberToObject(o, "jobs", (double)m->jobs);
    if (m->shards) cJSON_AddNumberToObject(o, "shards", (double)m->shards);
    cJSON_AddItemToObject(o, "spec", spec);
    char *text = sm_json_print(o);
    cJSON_Delete(o);
    char *path = manifest_path(dir);
    /* Shards of one study write this file side by side, each after
     * reading it: not a lost edit (SPEC 5's two instances). */
    sm_filestate_forget(path);
    int rc = sm_write_file_atomic(path, text, strlen(text), e);
    free(text);
    free(path);
    return rc;
}

int sm_study_manifest_study(const sm_study_manifest *m, const char *dir, sm_study *st,
                            sm_err *e)
{
    char *path = manifest_path(dir);
    int rc = sm_study_from_json(st, m->spec, strlen(m->spec), path, e);
    free(path);
    if (rc == 0 && sm_study_njobs(st) != m->jobs) {
        sm_err_set(e, "%s/%s: jobs: %ld, but its spec has %ld", dir, SM_STUDY_MANIFEST,
                   m->jobs, sm_study_njobs(st));
        return -1;
    }
    return rc;
}
