/* jobs.h - a study: the cross product of scenarios, solver words, model
 * values and seeds (SPEC §5). Jobs are numbered scenario-major, then
 * solver, then each model key in order, then seed. No Tcl here: the
 * command layer runs the jobs, this module enumerates them, names their
 * files, shards them and lists what a directory already holds. */
#ifndef SM_STUDY_H
#define SM_STUDY_H

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
/* Shard from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT (minus
 * SLURM_ARRAY_TASK_MIN when set). 1 found, 0 absent, -1 malformed. */
int sm_study_shard_from_env(long *i, long *n, sm_err *e);

/* Job numbers with a result file in DIR, ascending; caller frees. */
int sm_study_list(const char *dir, long **numbers, long *count, sm_err *e);

/* mkdir -p. */
int sm_mkdir_p(const char *dir, sm_err *e);

#endif
