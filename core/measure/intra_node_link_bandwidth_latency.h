/* intra_node_link_bandwidth_latency.h - measuring an intra-node link (SPEC 2.2 links.intra, 8): the
 * halo copy between two processors' cores. A sender thread pinned to one
 * core writes a message of n cells (doubles) into memory it first
 * touched; a receiver pinned to the other core sees its turn (a flag,
 * spinning) and copies the message into its own buffer, then says so.
 * The sender times each round trip; a repetition's value is the median
 * of its messages' round trips (a message that waited for a descheduled
 * partner on a shared core shows in the spread between repetitions, not
 * in the link's cost); a message's time is that less half the empty
 * round trip (the way back), the latency half the empty round trip. Each size is repeated like a profile point (Student-t
 * interval at cl within eps, reps_min..reps_max, a timeout). The link's
 * time per cell is the least-squares slope through the origin of the
 * message time over the sizes (halo faces are what the model sends).
 * No Tcl. */
#ifndef SM_INTRA_NODE_LINK_BANDWIDTH_LATENCY_H
#define SM_INTRA_NODE_LINK_BANDWIDTH_LATENCY_H

#include <stddef.h>
#include <stdint.h>
#include "student_t_interval.h"

typedef struct sm_link_opts {
    int cpu_a, cpu_b;      /* OS CPU numbers: sender, receiver */
    const int64_t *cells;  /* message sizes in cells (doubles), ascending, 1..2^24 */
    int nsizes;
    double cl, eps;
    int reps_min, reps_max;
    double min_rep_seconds; /* a repetition lasts at least this */
    double timeout;         /* seconds per size (0: none) */
    volatile int *interrupt;
} sm_link_opts;

typedef struct sm_link_point {
    int64_t cells;
    int iters, reps;
    double *time;          /* reps seconds per message */
    sm_interval t;
    int tight;
    char why[200];         /* why not tight */
} sm_link_point;

typedef struct sm_link_result {
    int npoints;
    sm_link_point *points;
    sm_interval latency;   /* seconds, one way (half the empty round trip) */
    double bandwidth;      /* bytes/s, the largest message's */
    double time_per_cell;  /* fitted, s */
    int interrupted;
    double seconds;
} sm_link_result;

/* NULL with why when the threads cannot be started or pinned, or on bad
 * options. */
sm_link_result *sm_measure_link(const sm_link_opts *o, char *why, size_t len);
void sm_link_result_free(sm_link_result *r);

#endif
