/* greedy_fill_engine.h - the engine shared by the fill-based heuristics (na, dm, mm):
 * processors are filled in list order up to their speed-proportional
 * limit, one block per step; each heuristic only says which unmapped
 * block comes next. */
#ifndef SM_GREEDY_FILL_ENGINE_H
#define SM_GREEDY_FILL_ENGINE_H

#include "solvers/stepper/solver_stepper.h"

typedef struct sm_greedy {
    int n, P;
    int *map;          /* -1 = unmapped */
    double *limit;
    int proc, size;    /* processor being filled and its block count */
    int placed;
    int *deg;          /* distinct neighbours (static) */
    int *unmapped_nbrs;/* neighbours still unmapped */
    int *on_proc;      /* N(u): neighbours on the current processor */
    double f;          /* na's load factor */
    /* Chooses the next block for g->proc. */
    int (*pick)(const struct sm_greedy *g);
    /* One min-heap of unmapped blocks ordered by (key, id) per key a
     * heuristic asks for: keys change only around a placed block and
     * at a processor change, so a fill costs O(n deg log n). */
    struct sm_greedy_heap *heaps;
    int nheaps;
    int *touched, ntouched; /* blocks with N(u) > 0 on this processor */
} sm_greedy;

/* The fill options every fill-based heuristic accepts. */
#define SM_GREEDY_OPTS                                                        \
    {"speeds", SM_OPT_ENUM, "exact", "exact|floor", 0, 0,                     \
     "relative speeds: 1/time_per_block, or floor(max_t/t_i)"}

int sm_greedy_init(sm_solver *s, int (*pick)(const sm_greedy *), double f);
/* Options of a fill heuristic with nothing but -speeds. */
extern const sm_opt_spec sm_greedy_speeds_only[];
void sm_greedy_step(sm_solver *s);
void sm_greedy_release(sm_solver *s);

/* Lowest-id unmapped block minimising key(u) (NULL key: largest deg). */
int sm_greedy_argmin(const sm_greedy *g, long (*key)(const sm_greedy *, int));
/* Declares the keys pick uses (at most 4), before the first step. */
void sm_greedy_keys(sm_greedy *g, int nkeys, long (*const *keys)(const sm_greedy *, int));

#endif
