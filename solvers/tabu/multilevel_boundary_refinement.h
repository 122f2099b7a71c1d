/* multilevel_boundary_refinement.h - boundary refinement of a block mapping, one level of the
 * multilevel search (multilevel_tabu.c): passes over the blocks with a
 * neighbour on another processor, each taking its best improving move to
 * a neighbour's processor (or, when its processor is past the deadline or
 * its memory, to its node's processor with the most time to spare). */
#ifndef SM_MULTILEVEL_BOUNDARY_REFINEMENT_H
#define SM_MULTILEVEL_BOUNDARY_REFINEMENT_H

#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"

/* Violation first (see multilevel_boundary_refinement.c), then energy, then time. */
typedef struct sm_refine_score {
    double violation, energy, time;
} sm_refine_score;

typedef struct sm_refine {
    const sm_grid *grid;
    const sm_model *model;          /* held to its deadline */
    sm_cost *c;                     /* the mapping being refined */
    sm_refine_score sc;
    double over;                    /* late() summed over processors */
    int *queue, nqueue, qpos;       /* blocks to try this pass */
    unsigned char *next;            /* marked for the next pass */
    int pass, pass_moves, passes_max;
    long long moves, tried;
    long long screened;             /* of tried: rejected without applying */
    int *moved, nmoved;             /* the blocks the last sm_refine_step moved */
    int moved_cap;
    unsigned long long *rng;
    /* Side by side (sm_refine_set_threads): the workers, their cost
     * states (worker 0's is c itself unless the colouring model keeps a
     * schedule in c: then replicas only), each chunk's proposals. */
    int threads, workers_made;
    struct sm_pool *pool;
    sm_cost **rep;
    int nrep, rep_from;             /* worker w scores on rep[w - rep_from], or c when w < rep_from */
    int *acc, nacc, acc_cap;        /* blocks moved since the replicas were in step */
    int *rep_at;                    /* rep[i] has made acc[0..rep_at[i]) */
    struct sm_refine_prop *prop;
    int prop_cap, nchunk;           /* proposals of the step being taken */
    int *visit, *visit_at;          /* its blocks in block order, and their places in the chunk */
    /* The next chunk's visit order, made beside this chunk's proposals
     * (its queue range, pass, size; ahead_n < 0: none made). */
    int *ahead, ahead_qpos, ahead_pass, ahead_n;
    /* The chunk after the last step's, its proposals already running
     * (sm_pool_post; the next step joins them): how many items, for what
     * chunk size. */
    int posted, posted_items, posted_chunk;
} sm_refine;

/* Whether moves are screened before they are tried in full (multilevel_boundary_refinement.c);
 * the same moves are taken either way. Tests turn it off to compare. */
extern int sm_refine_screen;

/* Starts refining map (copied) on g under m (kept by pointer). */
void sm_refine_init(sm_refine *r, const sm_grid *g, const sm_topo *t, const sm_model *m,
                    const int *map, int passes_max, unsigned long long *rng);
/* The same with threads for the steps: the workers and their cost
 * states are made here, side by side with the search's own. */
void sm_refine_init_threads(sm_refine *r, const sm_grid *g, const sm_topo *t, const sm_model *m,
                            const int *map, int passes_max, unsigned long long *rng, int threads);
/* Threads for the steps (before the first): the result is the same for
 * any number (see multilevel_boundary_refinement.c). */
void sm_refine_set_threads(sm_refine *r, int threads);
/* Tries up to chunk queued blocks, starting the next pass when one ends;
 * returns 0 once a pass gained nothing or passes_max passes are done.
 * The blocks it moved are in moved[0..nmoved) until the next call. With
 * threads, the next chunk's proposals run on the other workers when it
 * returns 1: until the next call (or sm_refine_release) the caller only
 * reads c, moved and the counts. */
int sm_refine_step(sm_refine *r, int chunk);
void sm_refine_release(sm_refine *r);

#endif
