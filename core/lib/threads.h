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

/* Threads kept for many short loops (a tabu step is a fraction of a
 * millisecond: a thread made per loop would cost as much as the loop).
 * sm_pool_for runs fn(i, worker, arg) for every i in [0, n), worker in
 * [0, sm_pool_size) naming the thread (the caller is worker 0), so an
 * item may use that worker's own scratch state; items are handed out in
 * index order. Same contract as sm_parallel_for: the result must not
 * depend on which worker ran an item. A waiting worker spins at most
 * 0.2 ms for the next job, then sleeps (the machine may be shared). A
 * pool is used by one thread at a time. NULL or a pool of 1 runs the
 * items in order on the caller. */
typedef struct sm_pool sm_pool;
/* nthreads - 1 workers are started; fewer when threads cannot be made
 * (sm_pool_size says how many there are, the caller included). */
sm_pool *sm_pool_new(int nthreads);
int sm_pool_size(const sm_pool *p);
void sm_pool_for(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg);
void sm_pool_free(sm_pool *p);
/* sm_pool_for in two halves, for a caller with other work meanwhile:
 * sm_pool_post starts the workers on the n items and returns at once;
 * sm_pool_join(p, n, fn, arg), with the same n, fn and arg, runs the
 * items left beside the workers and returns once all are done. In
 * between the caller reads nothing the items write and makes no use of
 * the pool but sm_pool_task and sm_pool_task_wait (a task waits for the
 * workers to run out of items). Same contract as sm_pool_for. NULL, a
 * pool of 1 or n <= 1: post does nothing and join runs the items in
 * order on the caller. */
void sm_pool_post(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg);
void sm_pool_join(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg);
/* A loop whose items are made while it runs: the caller makes item i
 * (writes what fn(i) reads) while the workers run the items made
 * before it. sm_pool_stream_begin posts it with no items; after
 * sm_pool_stream_add(p, n) items [0, n) may run (n only grows); the
 * caller makes no other use of the pool until sm_pool_stream_end(p, n,
 * fn, arg), which says there are n in all, runs the ones left beside the
 * workers and returns once all are done. Same contract as sm_pool_for
 * (a worker waiting for the next items spins: make them without pause).
 * NULL or a pool of 1: begin and add do nothing and end runs the n items
 * in order on the caller. */
void sm_pool_stream_begin(sm_pool *p, void (*fn)(int i, int worker, void *arg), void *arg);
void sm_pool_stream_add(sm_pool *p, int n);
void sm_pool_stream_end(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg);
/* One task beside the pool's loops: fn(arg) run by a worker that has no
 * items to do (spinning or asleep), not by the caller, which goes on
 * (its sm_pool_for items are then done by the caller and the other
 * workers: which worker runs an item changes nothing). For work the
 * caller needs only later, such as a view that follows the search.
 * sm_pool_task_wait returns once it is done; a task no worker took by
 * then is run there by the caller. One task at a time, posted and waited
 * for by the pool's one user; NULL or a pool of 1 runs it at once. */
void sm_pool_task(sm_pool *p, void (*fn)(void *arg), void *arg);
void sm_pool_task_wait(sm_pool *p);

#endif
