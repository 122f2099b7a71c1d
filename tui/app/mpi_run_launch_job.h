/* mpi_run_launch_job.h - `run launch` (SPEC 9): a run directory for the session's
 * mapping (scenario, mapping, rankfile, blocks file, job script) and the
 * job started in the background, locally with mpirun or on Slurm with
 * sbatch; polled for progress without blocking the workbench. No Tcl,
 * no curses: tui/cmd/cmd_run.c is the command.
 *
 * The job script job.sh runs mpirun (or, in a Slurm job, srun) and leaves
 * EXIT (the launcher's status) when it ends; run.log holds everything mpirun and the ranks printed, with
 * stencilmap-run's "iteration I/N" progress lines. */
#ifndef SM_MPI_RUN_LAUNCH_JOB_H
#define SM_MPI_RUN_LAUNCH_JOB_H

#include <sys/types.h>
#include "core/lib/util.h"
#include "core/session/session_edits_undo_redo.h"

typedef enum { SM_BIND_AUTO, SM_BIND_ON, SM_BIND_OFF } sm_bind_mode;
/* Who starts the ranks in a Slurm job: srun (the default: Slurm's own
 * launcher, --mpi=pmix, ranks on nodes by --distribution=arbitrary and
 * SLURM_HOSTFILE, each bound to its place by hwloc-bind), or mpirun inside
 * the allocation with the rankfile. Locally it is always mpirun. */
typedef enum { SM_LAUNCHER_DEFAULT, SM_LAUNCHER_SRUN, SM_LAUNCHER_MPIRUN } sm_launcher;

typedef struct sm_run_opts {
    int iters;             /* default 100 */
    int exchange_all;
    int slurm;
    sm_launcher launcher;  /* with slurm; DEFAULT: srun */
    int dry;               /* write the run directory, start nothing */
    int np;                /* 0: one rank a processor holding blocks */
    sm_bind_mode bind;
    const char *dir;       /* NULL: run-YYYYmmdd-HHMMSS here */
    char *const *hosts;    /* one a node, or NULL: this host (local), the node names (Slurm) */
    int nhosts;
} sm_run_opts;

typedef enum { SM_JOB_RUNNING, SM_JOB_DONE, SM_JOB_FAILED, SM_JOB_WRITTEN } sm_job_state;

typedef struct sm_run_job {
    char *dir, *script, *rankfile, *blocks, *log, *result;
    int ranks;
    int bound;             /* ranks bound by the rankfile */
    int oversubscribed;
    char note[1280];        /* what the launcher decided and why (binding) */
    int slurm;
    int srun;              /* srun starts the ranks (a Slurm job) */
    pid_t pid;             /* local: the job script's process (a group) */
    char jobid[32];        /* Slurm */
    int iters;
    sm_job_state state;
    int iteration;         /* last progress line */
    int exit_code;
    char why[1024];         /* a failed job: what happened */
    double started;
} sm_run_job;

/* Writes the run directory and starts the job. 0, or -1 with e (codes RUN
 * PLACE, RUN LAUNCH, RUN SLURM, IO) and nothing left behind. */
int sm_run_job_start(const sm_session *s, const sm_run_opts *o, sm_run_job *job, sm_err *e);
/* Updates state, iteration and why; never blocks. */
void sm_run_job_poll(sm_run_job *job);
/* Ends a running job (SIGTERM to its process group, or scancel). */
void sm_run_job_stop(sm_run_job *job);
void sm_run_job_free(sm_run_job *job);

/* Sleeps ms milliseconds (interrupted sleeps resume). */
void sm_run_sleep_ms(int ms);
/* stencilmap-run's path: $STENCILMAP_RUN, beside this program (or up to
 * two folders above it), else on PATH; NULL when none. Newly allocated. */
char *sm_run_program(void);

#endif
