/* pareto_front_sweep.h - HEPOPTA's threshold sweep at scale: the exact Pareto
 * front of makespan and dynamic energy for n blocks over P processors with
 * discrete profiles, built by one pass over the profiles' points in time
 * order that reuses its work between thresholds.
 *
 * At a time threshold T every processor may take 0 blocks or any size
 * whose time is <= T; E(T) is the least energy then. E only falls when T
 * reaches a point's time, and a new least energy at T must use a point of
 * time exactly T. So the sweep admits the points one time at a time and
 * asks, for each point (j, x) just admitted: is there a distribution that
 * gives j x blocks and costs less than the last front point?
 *
 * Most points answer no at once: a Lagrangian bound, lambda (n - x) +
 * e_j(x) + sum over i != j of h_i(lambda), with h_i(lambda) the least
 * e_i(y) - lambda y over i's admissible points, is kept for a grid of
 * 192 lambdas and updated in O(grid) when a point is admitted (h only falls as
 * T grows). Only a point the bound cannot rule out runs an exact check: a
 * dynamic programme over the other processors restricted to the points
 * whose reduced cost e - lambda y - h stays below the slack the bound
 * leaves, with states pruned by the same bound. The sweep ends when the
 * bound over all points cannot beat the last front point, or when the
 * points run out. Exact: every point that could lower E is checked
 * exactly; float sums are compared with a relative margin.
 * On 64 processors with noisy profiles at every size (n = 4 000: 256 000
 * points, 708 front points) about 1 250 exact checks run; the other points
 * cost a bound each. */
#ifndef SM_PARETO_FRONT_SWEEP_H
#define SM_PARETO_FRONT_SWEEP_H

#include <stdint.h>

typedef struct sm_ps_pt {
    int size; /* > 0; size 0 (no blocks, no cost) is always admissible */
    double time, energy;
} sm_ps_pt;

typedef struct sm_ps_cand {
    int y;    /* size */
    double e; /* its energy */
} sm_ps_cand;

typedef struct sm_ps_event {
    double t;
    int p, i; /* processor, index in its points by time */
} sm_ps_event;

typedef struct sm_ps {
    int P, n, K;
    sm_ps_pt **by_time;  /* per processor, ascending time (admission order) */
    sm_ps_pt **by_size;  /* per processor, ascending size (look-ups) */
    int *npts, *nadm;    /* points, and how many are admitted */
    int *cls;            /* the first processor with the same points */
    sm_ps_event *ev;
    int nev, iev;
    double *lam;         /* K multipliers */
    double *h;           /* P x K: least e - lam y over admitted points and 0 */
    double *H;           /* K: sum of h over processors */
    double *hall;        /* K: the same sum over every point (the end of the sweep) */
    double last;         /* energy of the last front point, INFINITY before */
    double T;            /* threshold reached */
    int started, done;
    /* Front, fastest first: time, energy, counts (P per point). */
    int nfront, cap;
    double *ft, *fe;
    int *fc;
    /* Scratch of the exact check. */
    double *val, *val2, *hsel;
    sm_ps_cand *cand;
    int *act, *act2, *cand_n, *cand_off, *choice, *order, *cur, *rest;
    int *cache, *cache_off, *cache_n, *cache_adm; /* per processor: points below cache_S */
    int cache_kb;
    double cache_S;
    int64_t checks, states, bound_cuts;
} sm_ps;

/* Copy the profiles (sizes > 0; any order). */
void sm_ps_init(sm_ps *s, int P, int n, const sm_ps_pt *const *pts, const int *npts);
/* Start at the least makespan tstar with a distribution reaching it
 * (counts); the first step finds the least energy at tstar. */
void sm_ps_begin(sm_ps *s, double tstar, const int *counts);
/* One threshold (or a run of cheap ones); returns 1 when the front is
 * complete. */
int sm_ps_step(sm_ps *s);
void sm_ps_free(sm_ps *s);

/* Time and energy of a distribution (sizes must be admissible). */
void sm_ps_profile(const sm_ps *s, const int *counts, double *time, double *energy);

#endif
