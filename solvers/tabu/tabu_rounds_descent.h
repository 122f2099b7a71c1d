/* tabu_rounds_descent.h - the tabu search's compound step where the
 * rounds set the makespan (tabu_rounds_descent.c); private to
 * solvers/tabu. */
#ifndef SM_TABU_ROUNDS_DESCENT_H
#define SM_TABU_ROUNDS_DESCENT_H

#include <stdint.h>
#include "core/model/cost_incremental.h"
#include "tabu_move_sampling.h"
#include "tabu_score.h"

/* Above this many blocks the search makes no compound step (a try reads
 * the whole mapping once); multilevel's coarsest grids stay below it
 * except on machines of thousands of nodes. */
#define SM_ROUNDS_DESCENT_MAX_BLOCKS 65536

/* The score of the mapping cost state c holds now, as the search ranks
 * it (ctx: the search's). */
typedef tabu_score (*sm_rounds_score_fn)(void *ctx, const sm_cost *c);

typedef struct {
    cand *moves;            /* the compound's moves, in the order made */
    int nmoves, cap;
    int64_t from, to;       /* the busiest degree before and after */
    int busiest;            /* processors that were at it */
    tabu_score sc;          /* the score after */
    int stuck;              /* where the last try found no move (-1: none) */
    /* Scratch, kept between calls. */
    int *at, *off, *blk, nblk_cap, P;
    unsigned char *in_set;
    int64_t *before;
    int *touched, touched_cap;
    const sm_grid *grid;    /* the grid touched was sized for */
} sm_rounds_descent;

/* One move off each processor at the busiest degree D of c's mapping,
 * so that every one of them ends below D and no other reaches it: a
 * boundary block to a neighbour's processor, the best scoring such move
 * each, taken in processor order. Returns 1, with the moves in d, when
 * every processor at D was lowered and the result scores better than
 * *now; 0 otherwise. c is left as it was, bit for bit (the moves are
 * tried inside a trial and undone). The processor where a try found no
 * move is tried first the next time (d->stuck): the answer depends on
 * the mapping and on d's past tries, which the same search makes alike
 * on any replica and for any number of threads. */
int sm_rounds_descent_find(sm_rounds_descent *d, sm_cost *c, const tabu_score *now, sm_rounds_score_fn score,
                           void *ctx);
/* A descent's start (no scratch yet) and end. */
void sm_rounds_descent_init(sm_rounds_descent *d);
void sm_rounds_descent_free(sm_rounds_descent *d);

#endif
