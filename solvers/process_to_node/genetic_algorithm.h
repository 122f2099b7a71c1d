/* genetic_algorithm.h - the genetic operators of the `ga` solver (SPEC 4), exposed for
 * the unit tests. A chromosome is a permutation: gene b is the slot of
 * block b among the slots of the sweep-curve mapping. */
#ifndef SM_GENETIC_ALGORITHM_H
#define SM_GENETIC_ALGORITHM_H

/* Ordered crossover (Davis): the child keeps p1's genes at positions
 * lo..hi (0-based, inclusive) and takes the other genes in p2's order,
 * reading p2 and writing the child from position hi+1 on, wrapping round.
 * used: n bytes of scratch. */
void sm_ga_ox(const int *p1, const int *p2, int n, int lo, int hi, int *child,
              unsigned char *used);

/* Swap mutation: exchanges the genes at two distinct random positions
 * (n >= 2) and returns the first in *i, the second in *j. */
void sm_ga_swap(int *perm, int n, unsigned long long *rng, int *i, int *j);

/* Roulette selection over cumulative weights cum[0..m-1] (non-decreasing,
 * cum[m-1] > 0): the first index whose cumulative weight exceeds r, r in
 * [0, cum[m-1]). */
int sm_ga_roulette(const double *cum, int m, double r);

#endif
