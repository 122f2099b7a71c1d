/* tabu_move_sampling.h - a candidate move of the tabu search and how one
 * is sampled (tabu_move_sampling.c); private to solvers/tabu. */
#ifndef SM_TABU_MOVE_SAMPLING_H
#define SM_TABU_MOVE_SAMPLING_H

#include "core/lib/fast_remainder.h"
#include "core/model/grid.h"

typedef struct {
    int kind;        /* 0 move, 1 swap, 2 edge move, 3 DVFS state of processor p to q */
    int u, v, p, q;  /* blocks and destination processors */
} cand;

/* What sampling reads: the search's random stream (advanced), the
 * accepted mapping, the number of blocks and of processors. */
typedef struct {
    unsigned long long *rng;
    const int *map;
    int n, P;
    /* Draws reduced modulo the grid's edges, its blocks and the
     * processors without a division (sm_tabu_sampler_moduli: the same
     * numbers % gives); NULL: by %. */
    const struct tabu_moduli *mod;
} tabu_sampler;

/* The moduli of grid g and P processors, made once for a search. */
typedef struct tabu_moduli {
    sm_fastmod edges, blocks, procs;
} tabu_moduli;
void sm_tabu_sampler_moduli(const sm_grid *g, int P, tabu_moduli *out);

/* A candidate of the kind (0 move, 1 swap, 2 edge move) into *m; 0 when
 * the one drawn changes nothing (the caller skips it). */
int sm_tabu_sample(tabu_sampler *t, const sm_grid *g, int kind, cand *m);

#endif
