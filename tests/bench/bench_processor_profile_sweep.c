/* bench_processor_profile_sweep.c - what topo measure reports against the same stencil
 * timed by a separate minimal C loop, in the same run: the 7-point
 * Jacobi sweep of one 64^3 block, one thread. The ratio says how much the
 * measurement (halo copies, barriers, pinned threads, the repetition
 * loop) adds to the kernel's own time; the measurement's cost is its wall
 * time against the time it spent in timed iterations.
 *   time_per_cell  measured by topo measure's engine (core/measure)
 *   loop           the same update in a plain triple loop here
 *   ratio          measured / loop (1.00: the measurement adds nothing) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/measure/processor_profile_sweep.h"

#define N 64

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The peer: one block with a one-cell halo, periodic by copying faces,
 * (c + 6 neighbours) / 7 into the other array. Seconds per cell, the
 * best of `rounds` timings of `iters` sweeps. */
static double minimal_loop(int iters, int rounds)
{
    const int S = N + 2;
    double *a = malloc(sizeof(double) * S * S * S), *b = malloc(sizeof(double) * S * S * S);
    for (int i = 0; i < S * S * S; i++) a[i] = b[i] = (double)(i % 97) / 97.0;
#define AT(p, x, y, z) p[(x) + S * ((y) + S * (z))]
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        for (int it = 0; it < iters; it++) {
            /* periodic halo: faces only, as a 7-point stencil needs */
            for (int z = 1; z <= N; z++)
                for (int y = 1; y <= N; y++) {
                    AT(a, 0, y, z) = AT(a, N, y, z);
                    AT(a, N + 1, y, z) = AT(a, 1, y, z);
                }
            for (int z = 1; z <= N; z++)
                for (int x = 1; x <= N; x++) {
                    AT(a, x, 0, z) = AT(a, x, N, z);
                    AT(a, x, N + 1, z) = AT(a, x, 1, z);
                }
            for (int y = 1; y <= N; y++)
                for (int x = 1; x <= N; x++) {
                    AT(a, x, y, 0) = AT(a, x, y, N);
                    AT(a, x, y, N + 1) = AT(a, x, y, 1);
                }
            for (int z = 1; z <= N; z++)
                for (int y = 1; y <= N; y++)
                    for (int x = 1; x <= N; x++)
                        AT(b, x, y, z) = (AT(a, x, y, z) + AT(a, x - 1, y, z) + AT(a, x + 1, y, z) +
                                          AT(a, x, y - 1, z) + AT(a, x, y + 1, z) + AT(a, x, y, z - 1) +
                                          AT(a, x, y, z + 1)) * (1.0 / 7);
            double *t = a;
            a = b;
            b = t;
        }
        double s = (now() - t0) / iters / ((double)N * N * N);
        if (s < best) best = s;
    }
#undef AT
    volatile double sink = a[S * S + S + 1];
    (void)sink;
    free(a);
    free(b);
    return best;
}

static int measured(int threads, const int *sizes, int nsizes, double *tpc, double *wall, double *timed,
                    int *reps, int *tight)
{
    static const int cpus[2] = {0, 1};
    sm_measure_proc p = {"cpu", 0, threads, cpus, -1};
    const char *groups[] = {"cpu"};
    sm_measure_opts o;
    memset(&o, 0, sizeof o);
    o.stencil = SM_K_7PT;
    o.halo = 1;
    o.block[0] = o.block[1] = o.block[2] = N;
    o.sizes = sizes;
    o.nsizes = nsizes;
    o.cl = 0.95;
    o.eps = 0.05;
    o.reps_min = 5;
    o.reps_max = 30;
    o.simultaneous = 1;
    o.min_rep_seconds = 0.05;
    o.powercap_root = "/nonexistent";
    char why[512];
    sm_measure_result *r = sm_measure_run(&p, 1, groups, 1, &o, why, sizeof why);
    if (!r) {
        fprintf(stderr, "bench_processor_profile_sweep: %s\n", why);
        return -1;
    }
    const sm_measure_group *G = &r->groups[0];
    *tpc = G->time_per_cell;
    *wall = r->seconds;
    *timed = 0;
    *reps = *tight = 0;
    for (int k = 0; k < G->npoints; k++) {
        const sm_measure_point *pt = &G->points[k];
        for (int i = 0; i < pt->reps; i++) *timed += pt->time[i] * pt->iters;
        *reps += pt->reps;
        *tight += pt->tight;
    }
    sm_measure_result_free(r);
    return 0;
}

int main(void)
{
    static const int one[] = {1}, sweep[] = {1, 2, 4, 8};
    int two = sysconf(_SC_NPROCESSORS_ONLN) >= 2;
    printf("bench_processor_profile_sweep: 7pt Jacobi, blocks of %d^3 cells, one run (ratios against the minimal loop)\n", N);
    printf("%-34s %14s %14s %8s %9s %9s %6s\n", "measurement", "time_per_cell", "loop", "ratio", "wall s",
           "own cost", "tight");
    double loop = minimal_loop(20, 5);
    struct {
        const char *name;
        int threads;
        const int *sizes;
        int n;
    } rows[] = {
        {"topo measure, 1 thread, 1 block", 1, one, 1},
        {"topo measure, 1 thread, 1-8 blocks", 1, sweep, 4},
        {"topo measure, 2 threads, 1-8 blocks", 2, sweep, 4},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].threads == 2 && !two) continue;
        double tpc, wall, timed;
        int reps, tight;
        if (measured(rows[i].threads, rows[i].sizes, rows[i].n, &tpc, &wall, &timed, &reps, &tight)) return 1;
        /* Two threads do the work of one in half the time: per core. */
        double per_core = tpc * rows[i].threads;
        char t[32];
        snprintf(t, sizeof t, "%d/%d", tight, rows[i].n);
        printf("%-34s %14.4g %14.4g %8.2f %9.2f %8.0f%% %6s\n", rows[i].name, tpc, loop, per_core / loop, wall,
               timed > 0 ? 100 * (wall - timed) / timed : 0, t);
    }
    printf("(own cost: wall time beyond the timed iterations, in %% of them: warm-ups, set-up, first touch;\n"
           " ratio for 2 threads is per core: time_per_cell x 2 / loop)\n");
    return 0;
}
