/* intra_node_link_bandwidth_latency.c - an intra-node link's copy time and latency (intra_node_link_bandwidth_latency.h). */
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET */
#include "intra_node_link_bandwidth_latency.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "processor_profile_sweep.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Messages per repetition at most (each one's time is kept for the median). */
#define MAX_ITERS 65536

typedef struct shared {
    const sm_link_opts *o;
    double *src, *dst;    /* src first touched by the sender, dst by the receiver */
    int64_t cap;          /* cells */
    _Atomic long seq, ack;
    _Atomic int quit;
    int64_t n;            /* the message's cells (set before seq moves) */
    int pin_rc;
    pthread_barrier_t ready;
} shared;

/* Waits spinning, as shared-memory transports do. The two threads are
 * pinned to different CPUs, so spinning never holds the CPU the partner
 * needs, while yielding would queue this thread behind every other
 * runnable task of its CPU (milliseconds on a loaded machine) and time
 * the scheduler instead of the link. */
static void wait_for(_Atomic long *v, long want, _Atomic int *quit)
{
    for (unsigned spins = 0; atomic_load_explicit(v, memory_order_acquire) != want; spins++)
        if ((spins & 1023) == 0 && atomic_load_explicit(quit, memory_order_relaxed)) return;
}

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *receiver(void *arg)
{
    shared *s = arg;
    int rc = pin(s->o->cpu_b);
    if (rc) s->pin_rc = rc;
    for (int64_t i = 0; i < s->cap; i++) s->dst[i] = 0; /* first touch: the receiver's memory */
    pthread_barrier_wait(&s->ready);
    for (long k = 1;; k++) {
        wait_for(&s->seq, k, &s->quit);
        if (atomic_load(&s->quit)) break;
        if (s->n > 0) memcpy(s->dst, s->src, sizeof(double) * (size_t)s->n);
        atomic_store_explicit(&s->ack, k, memory_order_release);
    }
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* iters messages of n cells, each timed (the sender's write of the
 * message left out); returns the median round trip. The median, not the
 * mean: on shared cores a message now and then waits a time slice for a
 * descheduled partner, which says how busy the machine is, not what the
 * link costs; those waits still show in the repetitions' spread. */
static double round_trips(shared *s, int64_t n, int iters, long *k, double *times, double deadline)
{
    for (int i = 0; i < iters; i++) {
        if (deadline > 0 && i >= 9 && (i & 63) == 0 && now() > deadline) { /* the size's time is up */
            iters = i;
            break;
        }
        for (int64_t c = 0; c < n; c++) s->src[c] = (double)(*k + c); /* the sender's halo, fresh in its cache */
        s->n = n;
        double t0 = now();
        ++*k;
        atomic_store_explicit(&s->seq, *k, memory_order_release);
        wait_for(&s->ack, *k, &s->quit);
        times[i] = now() - t0;
    }
    qsort(times, (size_t)iters, sizeof *times, cmp_double);
    return iters % 2 ? times[iters / 2] : 0.5 * (times[iters / 2 - 1] + times[iters / 2]);
}

void sm_link_result_free(sm_link_result *r)
{
    if (!r) return;
    for (int i = 0; i < r->npoints; i++) free(r->points[i].time);
    free(r->points);
    free(r);
}

sm_link_result *sm_measure_link(const sm_link_opts *o, char *why, size_t len)
{
    if (o->nsizes < 1 || !o->cells) return snprintf(why, len, "no message sizes"), NULL;
    for (int i = 0; i < o->nsizes; i++)
        if (o->cells[i] < 1 || o->cells[i] > ((int64_t)1 << 24) || (i && o->cells[i] <= o->cells[i - 1]))
            return snprintf(why, len, "message sizes: expected 1 to 2^24 cells, increasing"), NULL;
    if (o->cpu_a == o->cpu_b || o->cpu_a < 0 || o->cpu_b < 0 || o->cpu_a >= CPU_SETSIZE || o->cpu_b >= CPU_SETSIZE)
        return snprintf(why, len, "a link needs two different CPUs, got %d and %d", o->cpu_a, o->cpu_b), NULL;
    if (!(o->eps > 0) || !(o->cl > 0 && o->cl < 1) || o->reps_min < 2 || o->reps_max < o->reps_min)
        return snprintf(why, len, "bad -cl, -eps or -reps"), NULL;
    double began = now();
    shared s;
    memset(&s, 0, sizeof s);
    s.o = o;
    s.cap = o->cells[o->nsizes - 1];
    s.src = malloc(sizeof(double) * (size_t)s.cap);
    s.dst = malloc(sizeof(double) * (size_t)s.cap);
    if (!s.src || !s.dst) {
        free(s.src);
        free(s.dst);
        return snprintf(why, len, "out of memory for messages of %lld cells", (long long)s.cap), NULL;
    }
    /* The calling thread sends, pinned for the while. */
    cpu_set_t old;
    int had_old = pthread_getaffinity_np(pthread_self(), sizeof old, &old) == 0;
    int rc = pin(o->cpu_a);
    pthread_barrier_init(&s.ready, NULL, 2);
    double *times = malloc(sizeof(double) * MAX_ITERS);
    pthread_t th;
    sm_link_result *r = NULL;
    if (!times) {
        snprintf(why, len, "out of memory");
        goto out;
    }
    if (rc) {
        snprintf(why, len, "cannot pin the sender to CPU %d: %s", o->cpu_a, strerror(rc));
        goto out;
    }
    if (pthread_create(&th, NULL, receiver, &s)) {
        snprintf(why, len, "cannot start the receiver thread");
        goto out;
    }
    for (int64_t i = 0; i < s.cap; i++) s.src[i] = 1; /* first touch: the sender's memory */
    pthread_barrier_wait(&s.ready);
    r = calloc(1, sizeof *r);
    r->points = calloc((size_t)o->nsizes + 1, sizeof *r->points);
    long k = 0;
    if (s.pin_rc) {
        snprintf(why, len, "cannot pin the receiver to CPU %d: %s", o->cpu_b, strerror(s.pin_rc));
        sm_link_result_free(r);
        r = NULL;
    }
    /* Size 0 (the latency) first, then each message size. */
    for (int si = -1; r && si < o->nsizes; si++) {
        if (o->interrupt && *o->interrupt) break;
        int64_t n = si < 0 ? 0 : o->cells[si];
        /* Warm-up and sizing: the least of three short runs. */
        double per = 1e9;
        for (int w = 0; w < 3; w++) {
            double t = round_trips(&s, n, 9, &k, times, 0);
            if (t < per) per = t;
        }
        double it = ceil(o->min_rep_seconds / (per > 1e-9 ? per : 1e-9));
        int iters = it < 9 ? 9 : it > MAX_ITERS ? MAX_ITERS : (int)it;
        sm_link_point pt;
        memset(&pt, 0, sizeof pt);
        pt.cells = n;
        pt.iters = iters;
        pt.time = calloc((size_t)o->reps_max, sizeof *pt.time);
        double t0 = now();
        int timed_out = 0;
        for (int rep = 0; rep < o->reps_max; rep++) {
            if (o->interrupt && *o->interrupt) break;
            pt.time[pt.reps++] = round_trips(&s, n, iters, &k, times, o->timeout > 0 ? t0 + o->timeout : 0);
            sm_interval_of(pt.time, pt.reps, o->cl, &pt.t);
            if (pt.reps >= o->reps_min && sm_interval_tight(&pt.t, o->eps)) break;
            if (o->timeout > 0 && now() - t0 > o->timeout) {
                timed_out = 1;
                break;
            }
        }
        if (si < 0) {
            /* One way: half the empty round trip, each repetition. */
            for (int i = 0; i < pt.reps; i++) pt.time[i] /= 2;
            sm_interval_of(pt.time, pt.reps, o->cl, &r->latency);
            free(pt.time);
            continue;
        }
        /* A message: its round trip less the empty way back. */
        for (int i = 0; i < pt.reps; i++) pt.time[i] -= r->latency.mean;
        sm_interval_of(pt.time, pt.reps, o->cl, &pt.t);
        pt.tight = sm_interval_tight(&pt.t, o->eps);
        if (!pt.tight)
            snprintf(pt.why, sizeof pt.why, "%s after %d repetitions: half-width %.3g%% of the mean (eps %.3g%%), "
                     "the repetitions' sd %.3g%% of it",
                     timed_out ? "the size's timeout" : pt.reps < o->reps_max ? "an interrupt" : "the repetitions' cap",
                     pt.reps, pt.t.mean > 0 ? 100 * pt.t.half / pt.t.mean : 100.0, 100 * o->eps,
                     pt.t.mean > 0 ? 100 * pt.t.sd / pt.t.mean : 100.0);
        r->points[r->npoints++] = pt;
    }
    atomic_store(&s.quit, 1);
    atomic_store(&s.seq, -1);
    pthread_join(th, NULL);
    if (r) {
        r->interrupted = o->interrupt && *o->interrupt;
        double *x = malloc(sizeof(double) * (size_t)(r->npoints + 1)), *y = malloc(sizeof(double) * (size_t)(r->npoints + 1));
        for (int i = 0; i < r->npoints; i++) {
            x[i] = (double)r->points[i].cells;
            y[i] = r->points[i].t.mean;
        }
        r->time_per_cell = sm_measure_slope(x, y, r->npoints);
        free(x);
        free(y);
        if (r->npoints) {
            const sm_link_point *big = &r->points[r->npoints - 1];
            r->bandwidth = big->t.mean > 0 ? 8.0 * (double)big->cells / big->t.mean : 0;
        }
        r->seconds = now() - began;
    }
out:
    if (had_old) pthread_setaffinity_np(pthread_self(), sizeof old, &old);
    pthread_barrier_destroy(&s.ready);
    free(times);
    free(s.src);
    free(s.dst);
    return r;
}
