/* threads.h - how many threads a solver may use, and a parallel loop
 * whose result cannot depend on that number.
 *
 * Determinism is the caller's part, kept simple by the loop's contract:
 * item i writes only its own slot (results[i]), reads only what no item
 * writes, and the caller combines the slots in index order afterwards.
 * Which thread ran which item, and when, then changes nothing: one
 * thread or many, the same slots hold the same values (the deterministic
 * mode of Mt-KaHyPar and KaMinPar rests on the same rule). */
#ifndef SM_THREADS_H
#define SM_THREADS_H

/* The threads a solver uses by default: STENCILMAP_THREADS when set to a
 * number from 1 to SM_THREADS_MAX, else the processors this process may
 * run on (sched_getaffinity), else 1. */
#define SM_THREADS_MAX 256
int sm_threads_default(void);

/* requested > 0: that many (capped at SM_THREADS_MAX); 0: the default. */
int sm_threads_resolve(long long requested);

/* fn(i, arg) for every i in [0, n), on up to nthreads threads, the
 * caller's among them; returns when every item is done. Items are
 * handed out in index order; with nthreads <= 1, or n <= 1, they run in
 * order on the caller's thread. When a thread cannot be created the
 * items run on the threads there are: the result is the same. */
void sm_parallel_for(int nthreads, int n, void (*fn)(int i, void *arg), void *arg);

#endif
