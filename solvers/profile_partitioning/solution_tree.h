/* solution_tree.h - the solution tree of Khaleghzadeh's exact partitioners
 * (HPOPTA, HEOPTA and the inner searches of HEPOPTA/HTPOPTA): distribute
 * n blocks over P processors, each with a discrete profile of costs,
 * minimising the max (time) or the sum (energy) of the costs. Level i of
 * the tree fixes processor i's size; children are tried in cost order
 * (the objective-sorted copy) and cut off by the threshold (the best so
 * far passed down), by the size-threshold vector (the most the remaining
 * processors can hold under the threshold), and by memoised results of
 * (level, blocks left). The search is an explicit stack so that a step
 * expands one node. No grid, no model: plain numbers. */
#ifndef SM_SOLUTION_TREE_H
#define SM_SOLUTION_TREE_H

#include <stdint.h>

typedef struct sm_pt_point {
    int size;
    double cost;
} sm_pt_point;

/* One processor's admissible sizes (0 included when allowed) and costs. */
typedef struct sm_pt_proc {
    int n;
    sm_pt_point *by_cost;  /* ascending cost, then size */
    sm_pt_point *by_size;  /* ascending size */
    double *max_size_upto; /* by_cost prefix maxima of size */
    double min_cost;
    double min_rate;       /* least cost per block over sizes > 0 */
} sm_pt_proc;

typedef enum { SM_PT_MAX, SM_PT_SUM } sm_pt_op;

typedef struct sm_pt_frame {
    int level, rem;
    double bound;          /* wanted: a value strictly below */
    int k;                 /* next child in by_cost */
    double best, cur_cost;
    int best_x, cur_x;
} sm_pt_frame;

typedef struct sm_pt_tree {
    int P, n;
    sm_pt_op op;
    const sm_pt_proc *procs;
    double *exact;   /* P x (n+1): optimum of the subtree, or NAN unknown */
    double *lower;   /* P x (n+1): no solution below this (so far) */
    int *choice;     /* size chosen at the optimum */
    int *reach;      /* P+1: most blocks levels i.. can hold at all */
    double *rest_min;/* P+1: least cost levels i.. can add (sum) */
    double *rate_min;/* P+1: least cost per block of levels i.. (sum,
                        costs >= 0): rem blocks cost at least rem x this */
    sm_pt_frame *stack;
    int depth;
    int done;
    double result;   /* INFINITY when no distribution exists */
    int64_t nodes, pruned, memo_hits;
    double threshold; /* the root's best so far */
    double sigma;     /* size threshold at the last node expanded */
} sm_pt_tree;

/* Sort and index a processor's points (copied). */
void sm_pt_proc_init(sm_pt_proc *p, const sm_pt_point *pts, int n);
void sm_pt_proc_free(sm_pt_proc *p);

/* Start a search for n blocks below `bound` (INFINITY: none). */
void sm_pt_start(sm_pt_tree *t, const sm_pt_proc *procs, int P, int n,
                 sm_pt_op op, double bound);
/* Expand one node; returns 1 when the search is finished. */
int sm_pt_step(sm_pt_tree *t);
/* Run to the end. */
void sm_pt_run(sm_pt_tree *t);
/* The sizes of the optimum (after done, result finite). */
void sm_pt_counts(const sm_pt_tree *t, int *counts);
void sm_pt_free(sm_pt_tree *t);

#endif
