/* bench_colouring.c - the "colouring" rounds model: one block move plus
 * an evaluation with the incremental schedule, against the full schedule
 * rebuild every evaluation cost before (issue 14), at 64, 1024 and 4096
 * processors (identical, one switch, tabu-like moves of a boundary block
 * to a neighbour's processor). Both timed in the same run, CPU time. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/model/cost_incremental.h"
#include "core/model/speed_proportional_quota.h"
#include "core/io/topology_file.h"

static double now(void)
{
    struct timespec t;
    /* CPU time: the machine is shared, and both columns use the same clock. */
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

static sm_topo *identical(int n)
{
    size_t cap = 512 + 64 * (size_t)n;
    char *buf = malloc(cap);
    int len = snprintf(buf, cap,
                       "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"c\":{\"time_per_cell\":1e-9,"
                       "\"energy_per_cell\":1e-9,\"p0\":100,\"p_idle\":20}},\"processors\":[");
    for (int i = 0; i < n; i++)
        len += snprintf(buf + len, cap - (size_t)len, "%s{\"name\":\"c%d\",\"type\":\"c\",\"node\":0}",
                        i ? "," : "", i);
    snprintf(buf + len, cap - (size_t)len,
             "],\"network\":{\"kind\":\"single\"},\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,"
             "\"energy_per_cell\":1e-9}}}}");
    sm_err e;
    sm_topo *t = sm_topo_parse_text(buf, strlen(buf), "bench", &e);
    if (!t) fprintf(stderr, "%s\n", e.msg);
    free(buf);
    return t;
}

/* The full schedules one evaluation built before: M and M1. */
static double full_rebuild(const sm_cost *c)
{
    double t0 = now();
    for (int msg = 0; msg < 2; msg++) {
        int n;
        sm_pairmu *v = sm_cost_pairs(c, msg, &n);
        int64_t lb;
        sink += (double)sm_schedule_build(v, n, c->nprocs, NULL, &lb);
        free(v);
    }
    return now() - t0;
}

int main(void)
{
    static const int procs[] = {64, 1024, 4096, 4096};
    printf("colouring rounds: move + evaluation, incremental schedule vs full rebuild\n");
    printf("%6s %9s %10s %14s %16s %9s %9s %9s\n", "procs", "blocks", "rounds", "full (ms)",
           "move+eval (ms)", "speed-up", "rebuilds", "vs full");
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        int P = procs[i];
        sm_grid_spec s;
        sm_grid_spec_default(&s);
        /* About 32 blocks per processor. */
        int big = i == 3; /* and 1 M blocks, 256 per processor */
        s.blocks[0] = big ? 128 : P >= 4096 ? 64 : P >= 1024 ? 32 : 16;
        s.blocks[1] = big ? 128 : P >= 4096 ? 64 : P >= 1024 ? 32 : 16;
        s.blocks[2] = big ? 64 : P >= 4096 ? 32 : P >= 1024 ? 32 : 8;
        for (int a = 0; a < 3; a++) s.cells[a] = 64 * s.blocks[a];
        sm_err e;
        sm_grid *g = sm_grid_build(&s, &e);
        sm_topo *t = identical(P);
        if (!g || !t) return 1;
        int n = g->ntasks;
        int *map = malloc(sizeof(int) * (size_t)n);
        /* Runs of 8 blocks dealt round-robin: every processor holds
         * pieces in four places, as a search leaves it mid-way, so M is
         * dense and a full rebuild costs what users saw. */
        for (int u = 0; u < n; u++) map[u] = (u / 8) % P;
        sm_model m;
        sm_model_default(&m);
        m.rounds = SM_ROUNDS_COLOURING;
        sm_cost *c = sm_cost_new(g, t, &m, map);
        sm_eval ev;
        sm_cost_eval(c, &ev); /* the first evaluation builds in full */
        int fulls = P >= 4096 ? 3 : 10;
        double full = 0;
        for (int k = 0; k < fulls; k++) full += full_rebuild(c);
        full /= fulls;
        long r0 = sm_cost_colouring_rebuilds(c);
        unsigned long long rs = 42;
        int moves = P >= 4096 ? 200 : 1000, done = 0;
        double t0 = now();
        while (done < moves) {
            int u = (int)(sm_rand_next(&rs) % (unsigned)n);
            int deg = g->nbr_off[u + 1] - g->nbr_off[u];
            int v = g->nbr[g->nbr_off[u] + (int)(sm_rand_next(&rs) % (unsigned)deg)];
            if (c->map[v] == c->map[u]) continue; /* not on a boundary */
            sm_cost_move(c, u, c->map[v]);
            sm_cost_eval(c, &ev);
            sink += ev.energy;
            done++;
        }
        double inc = (now() - t0) / moves;
        long rb = sm_cost_colouring_rebuilds(c) - r0;
        /* What a full rebuild gives now, against what is kept. */
        int nm;
        sm_pairmu *v = sm_cost_pairs(c, 0, &nm);
        int64_t lb, fullc = sm_schedule_build(v, nm, P, NULL, &lb);
        free(v);
        printf("%6d %9d %10lld %14.2f %16.3f %8.0fx %4ld/%-4d %+8lld\n", P, n, (long long)ev.rounds,
               1e3 * full, 1e3 * inc, full / inc, rb, 2 * moves, (long long)(ev.rounds - fullc));
        sm_cost_free(c);
        free(map);
        sm_topo_free(t);
        sm_grid_free(g);
    }
    return 0;
}
