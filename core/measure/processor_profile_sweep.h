/* processor_profile_sweep.h - measuring this machine's processors with the stencil
 * kernel (SPEC 8), the way the profile-partitioning thesis builds its
 * discrete profiles: every processor runs the kernel (core/kernel, the
 * halo copies between its blocks included) with one thread pinned to each
 * of its cores, all processors of the node at once (simultaneous, which
 * captures their contention for memory), over a sweep of block counts; a
 * point is repeated until the Student-t interval at cl is within eps of
 * the mean, or reps_max runs out. Energy comes from RAPL package counters
 * (core/energy_counters) when they can be read, else is not measured and the
 * result says why. No Tcl, no curses.
 *
 * A processor holding b blocks runs them as a periodic grid of b blocks
 * (b factored into a near-cubic BX x BY x BZ; BZ = 1 in 2-D) of the
 * block shape given, so every block exchanges every halo with neighbours
 * in the same processor, as an interior block of a large grid does. One
 * iteration: the halo copies, one sweep of every block, the swap. A
 * repetition is a batch of iterations lasting at least min_rep_seconds
 * (sized on the fastest of the warm-up runs, which are at least two
 * iterations and min_rep_seconds long) and reports seconds (and joules)
 * per iteration: batches well above the timer's resolution and a
 * scheduler's time slice. Repetitions stop when the interval meets eps
 * (after reps_min), at reps_max, or when the size's timeout has passed;
 * every repetition is kept (none dropped), and a point that did not meet
 * eps says why (the cap or the timeout, the spread, how often other work
 * took its threads' cores, the load average). */
#ifndef SM_PROCESSOR_PROFILE_SWEEP_H
#define SM_PROCESSOR_PROFILE_SWEEP_H

#include <stdint.h>
#include "core/kernel/jacobi_stencil_kernel.h"
#include "student_t_interval.h"

typedef struct sm_measure_proc {
    const char *name;
    int group;            /* results are per group (a processor type) */
    int ncpus;
    const int *cpus;      /* OS CPU numbers: one thread pinned to each */
    int package;          /* its RAPL package, or -1 */
} sm_measure_proc;

typedef struct sm_measure_progress {
    int point, npoints;   /* points done, of all */
    int blocks;           /* the size being measured */
    int rep, reps_max;
    double mean, half;    /* the interval so far (seconds per iteration) */
    const char *group;    /* its group's name */
    /* Set on the call made when a point has just finished, once per
     * group: its point (valid during the call only) and group index. */
    const struct sm_measure_point *finished;
    int finished_group;
} sm_measure_progress;

typedef struct sm_measure_opts {
    sm_kstencil stencil;
    int halo;
    int64_t block[3];     /* cells of one block per axis (Z 1 in 2-D) */
    const int *sizes;     /* block counts, ascending */
    int nsizes;
    double cl, eps;
    int reps_min, reps_max;
    int simultaneous;
    double min_rep_seconds; /* a repetition lasts at least this (>= 0) */
    double timeout;       /* seconds per size (its repetitions), 0: none */
    const char *powercap_root; /* NULL: sm_powercap_root() */
    volatile int *interrupt;   /* set (from a signal or the TUI): stop, keep the points done */
    void (*progress)(const sm_measure_progress *pr, void *ctx);
    void *progress_ctx;
} sm_measure_opts;

typedef struct sm_measure_point {
    int blocks;
    int iters;            /* iterations per repetition */
    int reps;
    double *time;         /* reps seconds per iteration (the group's mean over processors) */
    double *energy;       /* reps dynamic joules per iteration, or NULL */
    sm_interval t, e;     /* their intervals at cl (e when energy) */
    int tight;            /* the time interval met eps */
    double seconds;       /* wall time of its repetitions */
    double preempted;     /* involuntary context switches per repetition, all
                             its threads (other work took their cores) */
    double load;          /* the 1-minute load average when it ended */
    char why[320];        /* why it did not meet eps, in words */
} sm_measure_point;

typedef struct sm_measure_group {
    char *name;
    int nprocs, threads;  /* processors, threads per processor */
    int npoints;
    sm_measure_point *points;
    int energy;           /* energy measured */
    char source[8];       /* "rapl" or "none" */
    char why[512];        /* why none */
    double p_idle;        /* W, measured before the sweep (per processor), when energy */
    /* Fitted over the points: least squares through the origin. */
    double time_per_cell, energy_per_cell;
} sm_measure_group;

typedef struct sm_measure_result {
    int ngroups;
    sm_measure_group *groups;
    int interrupted;
    char stopped[512];    /* why it stopped early (memory, a counter), or empty */
    double seconds;       /* the measurement's own wall time */
} sm_measure_result;

/* Bytes one processor holding b blocks takes. */
double sm_measure_bytes(const sm_measure_opts *o, int b);
/* Runs the measurement. groups names the ngroups groups. NULL with why on
 * bad input (nothing measured) or when threads or memory cannot be had;
 * an interrupt returns what was measured with interrupted set. */
sm_measure_result *sm_measure_run(const sm_measure_proc *procs, int nprocs, const char *const *groups,
                                  int ngroups, const sm_measure_opts *o, char *why, size_t len);
void sm_measure_result_free(sm_measure_result *r);
/* The least-squares slope through the origin of y against x. */
double sm_measure_slope(const double *x, const double *y, int n);

#endif
