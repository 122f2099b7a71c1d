/* study_jobs_enumeration.h - a study: the cross product of scenarios, solver words, model
 * values and seeds (SPEC §5). Jobs are numbered scenario-major, then
 * solver, then each model key in order, then seed. No Tcl here: the
 * command layer runs the jobs, this module enumerates them, names their
 * files, shards them and lists what a directory already holds. */
#ifndef SM_STUDY_JOBS_ENUMERATION_H
#define SM_STUDY_JOBS_ENUMERATION_H

#include <stdint.h>
#include "core/lib/util.h"

#define SM_STUDY_MAX_PARAMS 16
#define SM_STUDY_MAX_JOBS 10000000L

typedef struct sm_study_param {
    char *key;           /* model option without the dash, e.g. "deadline" */
    int nvals;
    char **vals;         /* values as text ("3.2e-3", "none") */
} sm_study_param;

typedef struct sm_study {
    int nscen;  char **scen;
    int nsolv;  char **solv;     /* solver words, e.g. "na -f 0.9" */
    int nparam; sm_study_param param[SM_STUDY_MAX_PARAMS];
    int nseed;  int64_t *seed;   /* 0 seeds: one job per rest, no -seed */
    /* Per solver word: does it take -seed? Seeds apply only to those; a
     * deterministic solver runs once per combination (seed null). NULL:
     * every solver takes it. Set by the caller, which knows the solvers. */
    unsigned char *seeded;
} sm_study;

/* Indices of one job's choices. seed is -1 when the study has no seeds. */
typedef struct sm_study_job {
    long number;
    int scen, solv, seed;
    int val[SM_STUDY_MAX_PARAMS];
} sm_study_job;

void sm_study_init(sm_study *st);
void sm_study_free(sm_study *st);
void sm_study_add_scenario(sm_study *st, const char *file);
void sm_study_add_solver(sm_study *st, const char *word);
/* Returns the parameter's index, or -1 when there are too many keys. */
int sm_study_add_param(sm_study *st, const char *key);
void sm_study_add_value(sm_study *st, int param, const char *val);
void sm_study_add_seed(sm_study *st, int64_t seed);

/* From JSON text {"scenarios":[..],"solvers":[..],"model":{k:[..]},
 * "seeds":[..]}; errors name SOURCE and the JSON path. */
int sm_study_from_json(sm_study *st, const char *text, size_t len,
                       const char *source, sm_err *e);
/* Non-empty lists, job count within SM_STUDY_MAX_JOBS. */
int sm_study_check(const sm_study *st, sm_err *e);

long sm_study_njobs(const sm_study *st);
void sm_study_job_at(const sm_study *st, long number, sm_study_job *job);

/* "DIR/job-000042.SUFFIX", newly allocated. */
char *sm_study_job_path(const char *dir, long number, const char *suffix);

/* "I/N" with 0 <= I < N. */
int sm_study_parse_shard(const char *s, long *i, long *n, sm_err *e);
/* The shard of a Slurm array task: I is SLURM_ARRAY_TASK_ID itself, so any
 * array (0-14:2, or a rerun of 3,7) runs exactly the shards it names. N is
 * STENCILMAP_STUDY_SHARDS when set, else `recorded` (the directory's shard
 * count, 0 when none), else SLURM_ARRAY_TASK_MAX + 1 (a first array names
 * its last shard), else SLURM_ARRAY_TASK_COUNT. 1 found, 0 not in an array,
 * -1 malformed or I >= N. */
int sm_study_shard_from_env(long recorded, long *i, long *n, sm_err *e);

/* Job numbers with a result file in DIR, ascending; caller frees. */
int sm_study_list(const char *dir, long **numbers, long *count, sm_err *e);
/* The same for job-NNNNNN.SUFFIX files ("failed": jobs that raised). */
int sm_study_list_suffix(const char *dir, const char *suffix, long **numbers,
                         long *count, sm_err *e);

/* The SPEC in one canonical JSON text (keys in a fixed order, values as
 * given): what DIR records and what its hash is taken of. Caller frees. */
char *sm_study_to_json(const sm_study *st);

/* DIR/study.json: the provenance of a results directory. */
#define SM_STUDY_MANIFEST "study.json"
typedef struct sm_study_manifest {
    char *spec;          /* canonical SPEC JSON (sm_study_to_json) */
    char hash[65];       /* its SHA-256 */
    char *program;       /* "stencilmap 0.3.0" of the first run */
    long jobs;
    long shards;         /* 0 until a sharded run records it */
} sm_study_manifest;
void sm_study_manifest_free(sm_study_manifest *m);
/* 1 read, 0 no manifest in DIR, -1 error (names the file and JSON path). */
int sm_study_manifest_read(const char *dir, sm_study_manifest *m, sm_err *e);
int sm_study_manifest_write(const char *dir, const sm_study_manifest *m, sm_err *e);
/* The study a manifest records (its SPEC parsed again). */
int sm_study_manifest_study(const sm_study_manifest *m, const char *dir,
                            sm_study *st, sm_err *e);

/* mkdir -p. */
int sm_mkdir_p(const char *dir, sm_err *e);

#endif
