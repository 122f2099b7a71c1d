/* bench_incremental.c - how much cheaper an incremental move is than a
 * full evaluation, on the 16x8x8 Cuboid mapped onto 64 processors.
 * Both are timed in the same run; the table gives the ratio. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "core/model/cost_incremental.h"
#include "core/model/speed_proportional_quota.h"
#include "core/io/grid_file.h"
#include "core/io/topology_file.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

int main(int argc, char **argv)
{
    const char *topo = argc > 1 ? argv[1] : "samples/topologies/haec-topology.json";
    sm_err e;
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    s.blocks[0] = 16; s.blocks[1] = 8; s.blocks[2] = 8;
    s.cells[0] = 1024; s.cells[1] = 512; s.cells[2] = 512;
    sm_grid *g = sm_grid_build(&s, &e);
    sm_topo *t = sm_topo_load(topo, &e);
    if (!g || !t) { fprintf(stderr, "%s\n", e.msg); return 1; }
    int P = t->nprocs, n = g->ntasks;
    int *map = malloc(sizeof(int) * (size_t)n);
    sm_fill(g, t, SM_SPEEDS_EXACT, SM_ORDER_IJK, 0, map);
    printf("incremental vs full evaluation: %dx%dx%d blocks (%d edges), %d processors (%s)\n",
           s.blocks[0], s.blocks[1], s.blocks[2], g->nedges, P, topo);
    printf("%-10s %16s %16s %10s\n", "rounds", "move+eval (us)", "full eval (us)", "speed-up");
    for (int r = 0; r < 3; r++) {
        sm_model m;
        sm_model_default(&m);
        m.rounds = (sm_rounds_model)r;
        sm_cost *c = sm_cost_new(g, t, &m, map);
        unsigned long long rs = 1;
        int moves = r == 2 ? 2000 : 200000;
        double t0 = now();
        for (int i = 0; i < moves; i++) {
            int u = (int)(sm_rand_next(&rs) % (unsigned)n);
            sm_cost_move(c, u, (int)(sm_rand_next(&rs) % (unsigned)P));
            sm_eval ev;
            sm_cost_eval(c, &ev);
            sink += ev.energy;
        }
        double inc = (now() - t0) / moves;
        int fulls = r == 2 ? 200 : 2000;
        t0 = now();
        for (int i = 0; i < fulls; i++) {
            sm_eval ev;
            sm_eval_reference(g, t, &m, c->map, &ev);
            sink += ev.energy;
        }
        double full = (now() - t0) / fulls;
        printf("%-10s %16.3f %16.3f %9.0fx\n", sm_rounds_name(m.rounds), inc * 1e6, full * 1e6, full / inc);
        sm_cost_free(c);
    }
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
    return 0;
}
