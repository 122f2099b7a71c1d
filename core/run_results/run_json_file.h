/* run_json_file.h - RUN.json, the record of a real run of a mapping (SPEC 9):
 * the hashes that tie it to a scenario and a mapping, and per rank what
 * stencilmap-run measured. Written by run/ (MPI), read back by `run
 * import`. The hashes are of canonical texts, not of files, so the
 * workbench can tell whether its session still holds what ran:
 *   scenario_sha256  SHA-256 of {"grid":…,"topology":…} as cJSON prints
 *                    it unformatted (the model's options are left out:
 *                    they change the prediction, not what ran);
 *   mapping_sha256   SHA-256 of the processor index of every block, one
 *                    a line ("%d\n"), in block order.
 * No MPI and no Tcl here. */
#ifndef SM_RUN_JSON_FILE_H
#define SM_RUN_JSON_FILE_H

#include <stddef.h>
#include <stdint.h>
#include "core/lib/util.h"
#include "core/model/grid.h"
#include "core/model/topology.h"

#define SM_RUN_MAX_RANKS 65536

typedef struct sm_run_rank {
    int rank;
    char *processor;    /* the processor's name */
    char *host;
    int ncores;
    int *cores;         /* logical CPUs the rank could run on */
    char *device;       /* a GPU rank's device index as launched, or NULL */
    int64_t blocks, cells;
    int threads;        /* threads that swept the rank's blocks */
    double compute_s, comm_s, wait_s, wall_s;
    double compute_min_s, compute_median_s; /* one iteration's, over the run */
    double wall_median_s;  /* one iteration's whole time (halos and sweep), median */
    int64_t bytes, messages;
    int has_energy;
    double energy_j;
    char *energy_counter;  /* where it came from: "rapl:package-0", "nvml:3",
                              "rapl:package-0+nvml:3"; NULL when not measured */
    double energy_share;   /* the rank's part of its package's counter (ranks
                              sharing a package split it by cores) */
} sm_run_rank;

typedef struct sm_run {
    char scenario_sha256[65], mapping_sha256[65];
    int iters;
    char exchange[8];   /* "rounds" or "all" */
    char checksum[17];  /* 16 hex digits: the kernel's order-free sum */
    int64_t rounds;     /* communication rounds the run used */
    char *energy_source;  /* "rapl", "none" ... */
    char *energy_why;     /* why none, or NULL */
    int nranks;
    sm_run_rank *ranks;
} sm_run;

void sm_run_scenario_sha256(const sm_grid *g, const sm_topo *t, char out[65]);
void sm_run_mapping_sha256(const int *map, int nblocks, char out[65]);

/* RUN.json's text (with a trailing newline); caller frees. */
char *sm_run_to_text(const sm_run *r);
/* Reads RUN.json: every key checked (the file named, the JSON path and what
 * was expected); a truncated file or a rank missing is an error. 0 or -1
 * with e; on error r is left empty. */
int sm_run_parse_text(const char *text, size_t len, const char *name, sm_run *r, sm_err *e);
int sm_run_load(const char *file, sm_run *r, sm_err *e);
void sm_run_free(sm_run *r);

#endif
