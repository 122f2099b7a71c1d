/* processor_profile_sweep.c - the measuring engine (processor_profile_sweep.h): pinned worker threads per
 * processor, driven size by size and repetition by repetition from the
 * calling thread through two barriers (start, end) that every worker and
 * the caller pass, so all processors run at once and energy counters are
 * read around exactly the work measured. */
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_SET */
#include "processor_profile_sweep.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "core/energy_counters/rapl_powercap.h"

enum { CMD_SETUP, CMD_RUN, CMD_FREE, CMD_QUIT };

typedef struct wproc {
    const sm_measure_proc *p;
    sm_kgrid g;
    sm_kblock *blocks;
    int nblocks;
    int64_t *row0;        /* first flattened row of each block; [nblocks] = all */
    pthread_barrier_t bar;
    int active, iters, failed;
    double seconds;       /* the last run's wall time */
    long *nivcsw;         /* per thread: involuntary switches in the last run */
    char pin_why[128];    /* a pinning failure, said once */
} wproc;

typedef struct engine {
    const sm_measure_opts *o;
    wproc *wp;
    int nprocs;
    pthread_barrier_t start, end;
    int cmd, size;
    /* The gate: workers pin themselves, say so, and wait for go (the
     * barriers made for the threads that did start) or quit. */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int ready, go, quit;
} engine;

typedef struct warg {
    engine *e;
    int proc, t, T;
} warg;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* b as a near-cubic product of dims factors (the least halo surface). */
static void factor(int b, int dims, int out[3])
{
    out[0] = b;
    out[1] = out[2] = 1;
    long best = -1;
    for (int x = 1; x <= b; x++) {
        if (b % x) continue;
        int rest = b / x;
        for (int y = 1; y <= rest; y++) {
            if (rest % y) continue;
            int z = rest / y;
            if (dims == 2 && z != 1) continue;
            long surface = (long)x * y + (long)y * z + (long)x * z;
            long spread = (long)(x > y ? x - y : y - x) + (y > z ? y - z : z - y);
            long score = surface * 1000 + spread;
            if (best < 0 || score < best) {
                best = score;
                out[0] = x;
                out[1] = y;
                out[2] = z;
            }
        }
    }
}

static void grid_for(const sm_measure_opts *o, int b, sm_kgrid *g)
{
    int f[3];
    factor(b, sm_kernel_dims(o->stencil), f);
    g->stencil = o->stencil;
    g->halo = o->halo;
    for (int a = 0; a < 3; a++) {
        g->blocks[a] = f[a];
        g->cells[a] = o->block[a] * f[a];
        g->periodic[a] = 1;
    }
}

double sm_measure_bytes(const sm_measure_opts *o, int b)
{
    sm_kgrid g;
    grid_for(o, 1, &g);
    return (double)b * (double)sm_kgrid_block_bytes(&g, 0);
}

static void proc_free(wproc *w)
{
    for (int i = 0; i < w->nblocks; i++) sm_kblock_free(&w->blocks[i]);
    free(w->blocks);
    free(w->row0);
    w->blocks = NULL;
    w->row0 = NULL;
    w->nblocks = 0;
}

static int proc_setup(wproc *w, const sm_measure_opts *o, int b)
{
    grid_for(o, b, &w->g);
    w->blocks = calloc((size_t)b, sizeof *w->blocks);
    w->row0 = calloc((size_t)b + 1, sizeof *w->row0);
    if (!w->blocks || !w->row0) return -1;
    w->nblocks = b;
    for (int i = 0; i < b; i++) {
        if (sm_kblock_init(&w->blocks[i], &w->g, i)) return -1;
        w->row0[i + 1] = w->row0[i] + sm_kblock_rows(&w->blocks[i]);
    }
    return 0;
}

/* Thread t of T sweeps flattened rows [t*R/T, (t+1)*R/T) of all blocks. */
static void sweep_share(wproc *w, int t, int T)
{
    int64_t R = w->row0[w->nblocks], r0 = R * t / T, r1 = R * (t + 1) / T;
    for (int i = 0; i < w->nblocks && r0 < r1; i++) {
        int64_t lo = w->row0[i], hi = w->row0[i + 1];
        if (hi <= r0) continue;
        if (lo >= r1) break;
        int64_t a = r0 > lo ? r0 : lo, z = r1 < hi ? r1 : hi;
        sm_kblock_sweep(&w->blocks[i], a - lo, z - lo);
    }
}

/* Involuntary context switches of the calling thread so far. */
static long preemptions(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

static void run_iters(wproc *w, int t, int T)
{
    long cs0 = preemptions();
    double t0 = t == 0 ? now() : 0;
    for (int it = 0; it < w->iters; it++) {
        for (int i = t; i < w->nblocks; i += T) sm_kgrid_exchange_block(&w->g, w->blocks, i);
        pthread_barrier_wait(&w->bar);
        sweep_share(w, t, T);
        pthread_barrier_wait(&w->bar);
        for (int i = t; i < w->nblocks; i += T) sm_kblock_swap(&w->blocks[i]);
        pthread_barrier_wait(&w->bar);
    }
    if (t == 0) w->seconds = now() - t0;
    w->nivcsw[t] = preemptions() - cs0;
}

static void *worker(void *arg)
{
    warg *a = arg;
    engine *e = a->e;
    wproc *w = &e->wp[a->proc];
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(w->p->cpus[a->t], &set);
    int rc = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    pthread_mutex_lock(&e->mu);
    if (rc)
        snprintf(w->pin_why, sizeof w->pin_why, "cannot pin a thread to CPU %d: %s", w->p->cpus[a->t],
                 strerror(rc));
    e->ready++;
    pthread_cond_broadcast(&e->cv);
    while (!e->go && !e->quit) pthread_cond_wait(&e->cv, &e->mu);
    int quit = e->quit;
    pthread_mutex_unlock(&e->mu);
    if (quit) return NULL;
    for (;;) {
        pthread_barrier_wait(&e->start);
        int cmd = e->cmd;
        if (cmd == CMD_QUIT) break;
        if (w->active) {
            if (cmd == CMD_SETUP && a->t == 0) w->failed = proc_setup(w, e->o, e->size) != 0;
            else if (cmd == CMD_RUN) run_iters(w, a->t, a->T);
            else if (cmd == CMD_FREE && a->t == 0) proc_free(w);
        }
        pthread_barrier_wait(&e->end);
    }
    return NULL;
}

/* One command to every active processor: returns when all are done. */
static void command(engine *e, int cmd)
{
    e->cmd = cmd;
    pthread_barrier_wait(&e->start);
    if (cmd != CMD_QUIT) pthread_barrier_wait(&e->end); /* workers leave at quit */
}

/* Samples of one processor at one size. */
typedef struct psamples {
    int n, iters;
    double *time, *energy;
    long nivcsw;          /* involuntary switches over its repetitions */
    double seconds;
    int timed_out;
} psamples;

static int check_opts(const sm_measure_proc *procs, int nprocs, int ngroups, const sm_measure_opts *o,
                      char *why, size_t len)
{
    if (!(o->eps > 0)) return snprintf(why, len, "-eps must be positive, got %g", o->eps), -1;
    if (!(o->cl > 0 && o->cl < 1)) return snprintf(why, len, "-cl must lie between 0 and 1, got %g", o->cl), -1;
    if (o->reps_min < 2 || o->reps_max < o->reps_min || o->reps_max > 100000)
        return snprintf(why, len, "-reps MIN MAX: expected 2 <= MIN <= MAX <= 100000, got %d %d", o->reps_min,
                        o->reps_max), -1;
    if (!(o->min_rep_seconds >= 0 && o->min_rep_seconds <= 3600))
        return snprintf(why, len, "a repetition's least time must lie in 0..3600 s"), -1;
    if (!(o->timeout >= 0 && o->timeout <= 1e6))
        return snprintf(why, len, "a size's timeout must lie in 0..1e6 s (0: none)"), -1;
    if (o->nsizes < 1) return snprintf(why, len, "no sizes to measure"), -1;
    for (int i = 0; i < o->nsizes; i++)
        if (o->sizes[i] < 1 || (i && o->sizes[i] <= o->sizes[i - 1]))
            return snprintf(why, len, "-sizes: expected positive block counts in increasing order"), -1;
    sm_kgrid g;
    grid_for(o, 1, &g);
    char w[256];
    if (sm_kgrid_check(&g, w, sizeof w)) return snprintf(why, len, "the block: %s", w), -1;
    if (nprocs < 1) return snprintf(why, len, "no processor to measure"), -1;
    for (int p = 0; p < nprocs; p++) {
        if (procs[p].ncpus < 1)
            return snprintf(why, len, "processor %s has no core to run on", procs[p].name), -1;
        if (procs[p].group < 0 || procs[p].group >= ngroups)
            return snprintf(why, len, "processor %s: no group %d", procs[p].name, procs[p].group), -1;
        for (int q = 0; q < p; q++)
            for (int i = 0; i < procs[p].ncpus; i++)
                for (int k = 0; k < procs[q].ncpus; k++)
                    if (procs[p].cpus[i] == procs[q].cpus[k])
                        return snprintf(why, len, "processors %s and %s share CPU %d", procs[q].name,
                                        procs[p].name, procs[p].cpus[i]), -1;
        for (int i = 0; i < procs[p].ncpus; i++)
            if (procs[p].cpus[i] < 0 || procs[p].cpus[i] >= CPU_SETSIZE)
                return snprintf(why, len, "processor %s: CPU %d out of range", procs[p].name, procs[p].cpus[i]), -1;
    }
    return 0;
}

void sm_measure_result_free(sm_measure_result *r)
{
    if (!r) return;
    for (int g = 0; g < r->ngroups; g++) {
        sm_measure_group *G = &r->groups[g];
        for (int k = 0; k < G->npoints; k++) {
            free(G->points[k].time);
            free(G->points[k].energy);
        }
        free(G->points);
        free(G->name);
    }
    free(r->groups);
    free(r);
}

double sm_measure_slope(const double *x, const double *y, int n)
{
    double sxy = 0, sxx = 0;
    for (int i = 0; i < n; i++) {
        sxy += x[i] * y[i];
        sxx += x[i] * x[i];
    }
    return sxx > 0 ? sxy / sxx : 0;
}

static void fit(sm_measure_group *G, const sm_measure_opts *o)
{
    double cells = (double)o->block[0] * (double)o->block[1] * (double)o->block[2];
    double *x = malloc(sizeof *x * (size_t)(G->npoints + 1)), *t = malloc(sizeof *t * (size_t)(G->npoints + 1)),
           *en = malloc(sizeof *en * (size_t)(G->npoints + 1));
    for (int k = 0; k < G->npoints; k++) {
        x[k] = cells * G->points[k].blocks;
        t[k] = G->points[k].t.mean;
        en[k] = G->energy ? G->points[k].e.mean : 0;
    }
    G->time_per_cell = sm_measure_slope(x, t, G->npoints);
    G->energy_per_cell = G->energy ? sm_measure_slope(x, en, G->npoints) : 0;
    free(x);
    free(t);
    free(en);
}

/* The 1-minute load average (/proc/loadavg), or -1. */
static double load_average(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    double v = -1;
    if (f) {
        if (fscanf(f, "%lf", &v) != 1) v = -1;
        fclose(f);
    }
    return v;
}

/* The group's samples of one point: in a simultaneous run the mean over
 * its processors rep by rep; one at a time, every processor's pooled. */
static void group_point(sm_measure_group *G, int g, const sm_measure_proc *procs, int nprocs, psamples *ps,
                        int simultaneous, int blocks, const sm_measure_opts *o)
{
    sm_measure_point *pt = &G->points[G->npoints];
    memset(pt, 0, sizeof *pt);
    pt->blocks = blocks;
    int n = 0, members = 0, reps = 0;
    for (int p = 0; p < nprocs; p++)
        if (procs[p].group == g) {
            members++;
            n += ps[p].n;
            reps = ps[p].n;
            pt->iters = ps[p].iters;
        }
    if (simultaneous) n = reps;
    pt->time = calloc((size_t)n + 1, sizeof *pt->time);
    if (G->energy) pt->energy = calloc((size_t)n + 1, sizeof *pt->energy);
    int k = 0;
    for (int p = 0; p < nprocs; p++) {
        if (procs[p].group != g) continue;
        for (int r = 0; r < ps[p].n; r++) {
            int at = simultaneous ? r : k++;
            double f = simultaneous ? 1.0 / members : 1.0;
            pt->time[at] += ps[p].time[r] * f;
            if (G->energy) pt->energy[at] += ps[p].energy[r] * f;
        }
    }
    pt->reps = n;
    sm_interval_of(pt->time, n, o->cl, &pt->t);
    if (G->energy) sm_interval_of(pt->energy, n, o->cl, &pt->e);
    pt->tight = sm_interval_tight(&pt->t, o->eps);
    long cs = 0;
    int timed_out = 0;
    for (int p = 0; p < nprocs; p++)
        if (procs[p].group == g) {
            cs += ps[p].nivcsw;
            if (ps[p].seconds > pt->seconds) pt->seconds = ps[p].seconds;
            timed_out |= ps[p].timed_out;
        }
    pt->preempted = n > 0 ? (double)cs / n : 0;
    pt->load = load_average();
    if (!pt->tight) {
        const char *cause = timed_out ? "the size's timeout" : n >= o->reps_max * (simultaneous ? 1 : members)
                                                                   ? "the repetitions' cap"
                                                                   : "an interrupt";
        snprintf(pt->why, sizeof pt->why,
                 "%s ended it after %d repetitions in %.3g s: the interval's half-width is %.3g%% of the mean "
                 "(eps %.3g%%), the repetitions' sd %.3g%% of it; other work took its threads' cores %.3g "
                 "times per repetition (load average %.3g)",
                 cause, n, pt->seconds, pt->t.mean > 0 ? 100 * pt->t.half / pt->t.mean : 100.0, 100 * o->eps,
                 pt->t.mean > 0 ? 100 * pt->t.sd / pt->t.mean : 100.0, pt->preempted, pt->load);
    }
    G->npoints++;
}

sm_measure_result *sm_measure_run(const sm_measure_proc *procs, int nprocs, const char *const *groups,
                                  int ngroups, const sm_measure_opts *o, char *why, size_t len)
{
    if (check_opts(procs, nprocs, ngroups, o, why, len)) return NULL;
    double began = now();
    engine e;
    memset(&e, 0, sizeof e);
    e.o = o;
    e.nprocs = nprocs;
    e.wp = calloc((size_t)nprocs, sizeof *e.wp);
    int nthreads = 0;
    for (int p = 0; p < nprocs; p++) {
        e.wp[p].p = &procs[p];
        e.wp[p].nivcsw = calloc((size_t)procs[p].ncpus, sizeof(long));
        nthreads += procs[p].ncpus;
        pthread_barrier_init(&e.wp[p].bar, NULL, (unsigned)procs[p].ncpus);
    }
    sm_measure_result *r = calloc(1, sizeof *r);
    r->ngroups = ngroups;
    r->groups = calloc((size_t)ngroups, sizeof *r->groups);
    /* Energy: RAPL packages every processor of a group can be read in. */
    char pwhy[512] = "";
    sm_powercap *pc = sm_powercap_open(o->powercap_root, pwhy, sizeof pwhy);
    for (int g = 0; g < ngroups; g++) {
        sm_measure_group *G = &r->groups[g];
        G->name = strdup(groups[g]);
        G->points = calloc((size_t)o->nsizes, sizeof *G->points);
        G->energy = pc != NULL;
        snprintf(G->why, sizeof G->why, "%s", pwhy);
        for (int p = 0; p < nprocs && G->energy; p++) {
            if (procs[p].group != g) continue;
            G->nprocs++;
            G->threads = procs[p].ncpus;
            if (procs[p].package < 0) {
                G->energy = 0;
                snprintf(G->why, sizeof G->why, "processor %s has no known package to read RAPL for",
                         procs[p].name);
            } else if (!sm_powercap_readable(pc, procs[p].package, G->why, sizeof G->why)) {
                G->energy = 0;
            }
        }
        if (!G->energy) {
            G->nprocs = 0;
            for (int p = 0; p < nprocs; p++)
                if (procs[p].group == g) {
                    G->nprocs++;
                    G->threads = procs[p].ncpus;
                }
        }
        snprintf(G->source, sizeof G->source, "%s", G->energy ? "rapl" : "none");
        if (G->energy) G->why[0] = 0;
        else if (!G->why[0]) snprintf(G->why, sizeof G->why, "no energy counter");
    }
    /* How many measured processors share each one's package: its share. */
    int *share = calloc((size_t)nprocs, sizeof *share);
    for (int p = 0; p < nprocs; p++)
        for (int q = 0; q < nprocs; q++)
            share[p] += procs[q].package >= 0 && procs[q].package == procs[p].package;
    pthread_mutex_init(&e.mu, NULL);
    pthread_cond_init(&e.cv, NULL);
    pthread_barrier_init(&e.start, NULL, (unsigned)nthreads + 1);
    pthread_barrier_init(&e.end, NULL, (unsigned)nthreads + 1);
    warg *args = calloc((size_t)nthreads, sizeof *args);
    pthread_t *th = calloc((size_t)nthreads, sizeof *th);
    char *made = calloc((size_t)nthreads, 1);
    int k = 0, created = 0;
    for (int p = 0; p < nprocs; p++)
        for (int t = 0; t < procs[p].ncpus; t++, k++) {
            args[k] = (warg){&e, p, t, procs[p].ncpus};
            made[k] = pthread_create(&th[k], NULL, worker, &args[k]) == 0;
            created += made[k];
        }
    char stop[512] = "";
    pthread_mutex_lock(&e.mu);
    while (e.ready < created) pthread_cond_wait(&e.cv, &e.mu);
    if (created < nthreads) snprintf(stop, sizeof stop, "cannot start %d threads", nthreads);
    for (int p = 0; p < nprocs && !stop[0]; p++)
        if (e.wp[p].pin_why[0]) snprintf(stop, sizeof stop, "processor %s: %s", procs[p].name, e.wp[p].pin_why);
    int started = !stop[0];
    if (started) e.go = 1;
    else e.quit = 1;
    pthread_cond_broadcast(&e.cv);
    pthread_mutex_unlock(&e.mu);
    psamples *ps = calloc((size_t)nprocs, sizeof *ps);
    for (int p = 0; p < nprocs; p++) {
        ps[p].time = calloc((size_t)o->reps_max, sizeof(double));
        ps[p].energy = calloc((size_t)o->reps_max, sizeof(double));
    }
    double *idle = calloc((size_t)nprocs, sizeof *idle); /* W per processor */
    double *fastest = calloc((size_t)nprocs, sizeof *fastest); /* s per iteration in the warm-up */
    /* Idle power: the counters over half a second with every worker
     * waiting, the package's share per processor. */
    int any_energy = 0;
    for (int g = 0; g < ngroups; g++) any_energy |= r->groups[g].energy;
    if (started && any_energy) {
        char w[512];
        double t0 = now();
        sm_powercap_sample(pc, w, sizeof w);
        sm_powercap_reset(pc);
        struct timespec ts = {0, 500000000};
        nanosleep(&ts, NULL);
        double dt = now() - t0;
        if (sm_powercap_sample(pc, w, sizeof w) == 0)
            for (int p = 0; p < nprocs; p++)
                if (r->groups[procs[p].group].energy)
                    idle[p] = sm_powercap_joules(pc, procs[p].package, 1) / dt / share[p];
        for (int g = 0; g < ngroups; g++)
            for (int p = 0; p < nprocs; p++)
                if (procs[p].group == g) r->groups[g].p_idle = idle[p];
    }
    int turns = o->simultaneous ? 1 : nprocs;
    int npoints = o->nsizes * turns, done = 0;
    for (int s = 0; started && !stop[0] && s < o->nsizes; s++) {
        int b = o->sizes[s];
        for (int p = 0; p < nprocs; p++) ps[p].n = 0, ps[p].nivcsw = 0;
        for (int turn = 0; turn < turns && !stop[0]; turn++) {
            for (int p = 0; p < nprocs; p++) e.wp[p].active = o->simultaneous || p == turn;
            e.size = b;
            command(&e, CMD_SETUP);
            for (int p = 0; p < nprocs; p++)
                if (e.wp[p].active && e.wp[p].failed)
                    snprintf(stop, sizeof stop, "%s: out of memory for %d blocks (%.4g MB)", procs[p].name, b,
                             sm_measure_bytes(o, b) / 1e6);
            if (stop[0]) {
                command(&e, CMD_FREE);
                break;
            }
            /* Warm-up, not kept: the first iteration pays the first touch
             * of the fields and cold caches; then runs of 1, 2, 4 ...
             * iterations until at least two more and min_rep_seconds of
             * work. The batch is sized on the fastest iteration seen (the
             * least disturbed by other work). */
            double warm = 0;
            for (int p = 0; p < nprocs; p++) e.wp[p].iters = 1, fastest[p] = INFINITY;
            command(&e, CMD_RUN);
            for (int n = 1, runs = 0; runs < 2 || warm < o->min_rep_seconds; n = n < (1 << 20) ? 2 * n : n, runs++) {
                if (o->interrupt && *o->interrupt) break;
                double slowest = 0;
                for (int p = 0; p < nprocs; p++) e.wp[p].iters = n;
                command(&e, CMD_RUN);
                for (int p = 0; p < nprocs; p++) {
                    if (!e.wp[p].active) continue;
                    double per = e.wp[p].seconds / n;
                    if (per < fastest[p]) fastest[p] = per;
                    if (e.wp[p].seconds > slowest) slowest = e.wp[p].seconds;
                }
                warm += slowest;
                if (runs > 40) break;
            }
            for (int p = 0; p < nprocs; p++) {
                if (!e.wp[p].active) continue;
                double t = fastest[p] > 1e-9 && isfinite(fastest[p]) ? fastest[p] : 1e-9;
                double it = ceil(o->min_rep_seconds / t);
                e.wp[p].iters = it < 1 ? 1 : it > 1e6 ? 1000000 : (int)it;
                ps[p].iters = e.wp[p].iters;
            }
            double point_t0 = now();
            int timed_out = 0;
            for (int rep = 0; rep < o->reps_max; rep++) {
                if (o->interrupt && *o->interrupt) break;
                char w[512];
                if (pc) sm_powercap_sample(pc, w, sizeof w), sm_powercap_reset(pc);
                double t0 = now();
                command(&e, CMD_RUN);
                double window = now() - t0;
                if (pc && sm_powercap_sample(pc, w, sizeof w)) snprintf(stop, sizeof stop, "RAPL: %.400s", w);
                int all_tight = 1;
                double worst_mean = 0, worst_half = 0, worst_rel = 0;
                const char *worst = NULL;
                for (int p = 0; p < nprocs; p++) {
                    if (!e.wp[p].active) continue;
                    ps[p].time[ps[p].n] = e.wp[p].seconds / e.wp[p].iters;
                    for (int t = 0; t < procs[p].ncpus; t++) ps[p].nivcsw += e.wp[p].nivcsw[t];
                    if (r->groups[procs[p].group].energy)
                        ps[p].energy[ps[p].n] =
                            (sm_powercap_joules(pc, procs[p].package, 1) / share[p] - idle[p] * window) /
                            e.wp[p].iters;
                    ps[p].n++;
                }
                /* Tight: every group (simultaneous) or this processor. */
                for (int g = 0; g < ngroups; g++) {
                    int members = 0, n = 0;
                    for (int p = 0; p < nprocs; p++)
                        if (procs[p].group == g && e.wp[p].active) members++, n = ps[p].n;
                    if (!members) continue;
                    double *v = calloc((size_t)n, sizeof *v);
                    for (int p = 0; p < nprocs; p++)
                        if (procs[p].group == g && e.wp[p].active)
                            for (int i = 0; i < n; i++) v[i] += ps[p].time[i] / members;
                    sm_interval iv;
                    sm_interval_of(v, n, o->cl, &iv);
                    free(v);
                    if (!sm_interval_tight(&iv, o->eps)) all_tight = 0;
                    double rel = iv.mean > 0 ? iv.half / iv.mean : INFINITY;
                    if (!worst || rel > worst_rel) {
                        worst_rel = rel;
                        worst_mean = iv.mean;
                        worst_half = iv.half;
                        worst = groups[g];
                    }
                }
                if (o->progress) {
                    sm_measure_progress pr = {done, npoints, b, rep + 1, o->reps_max, worst_mean, worst_half, worst, NULL, 0};
                    o->progress(&pr, o->progress_ctx);
                }
                if (stop[0] || (rep + 1 >= o->reps_min && all_tight)) break;
                if (o->timeout > 0 && now() - point_t0 >= o->timeout) {
                    timed_out = 1;
                    break;
                }
            }
            for (int p = 0; p < nprocs; p++)
                if (e.wp[p].active) ps[p].seconds = now() - point_t0, ps[p].timed_out = timed_out;
            command(&e, CMD_FREE);
            if (o->interrupt && *o->interrupt) break;
            done++;
        }
        if (stop[0] || (o->interrupt && *o->interrupt)) break;
        for (int g = 0; g < ngroups; g++) {
            group_point(&r->groups[g], g, procs, nprocs, ps, o->simultaneous, b, o);
            if (o->progress) {
                const sm_measure_point *pt = &r->groups[g].points[r->groups[g].npoints - 1];
                sm_measure_progress pr = {done, npoints, b, pt->reps, o->reps_max, pt->t.mean, pt->t.half, groups[g],
                                          pt, g};
                o->progress(&pr, o->progress_ctx);
            }
        }
    }
    if (started) command(&e, CMD_QUIT);
    for (int i = 0; i < nthreads; i++)
        if (made[i]) pthread_join(th[i], NULL);
    free(made);
    pthread_mutex_destroy(&e.mu);
    pthread_cond_destroy(&e.cv);
    for (int p = 0; p < nprocs; p++) {
        pthread_barrier_destroy(&e.wp[p].bar);
        proc_free(&e.wp[p]);
        free(e.wp[p].nivcsw);
        free(ps[p].time);
        free(ps[p].energy);
    }
    pthread_barrier_destroy(&e.start);
    pthread_barrier_destroy(&e.end);
    r->interrupted = o->interrupt && *o->interrupt;
    for (int g = 0; g < ngroups; g++) fit(&r->groups[g], o);
    r->seconds = now() - began;
    int measured = 0;
    for (int g = 0; g < ngroups; g++) measured += r->groups[g].npoints;
    if (stop[0] && !measured) {
        snprintf(why, len, "%s", stop);
        sm_measure_result_free(r);
        r = NULL;
    } else if (stop[0]) {
        snprintf(r->stopped, sizeof r->stopped, "%s", stop);
    }
    sm_powercap_close(pc);
    free(idle);
    free(fastest);
    free(ps);
    free(share);
    free(args);
    free(th);
    free(e.wp);
    return r;
}
