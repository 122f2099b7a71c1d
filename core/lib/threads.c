/* threads.c - thread counts and the index-ordered parallel loop (see
 * threads.h). Plain pthreads (SPEC 1). Threads are made per loop: the
 * loops that use it run whole heuristics or whole-grid passes per item,
 * milliseconds to seconds, far above a thread's start. */
#define _GNU_SOURCE
#include "threads.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

int sm_threads_default(void)
{
    const char *v = getenv("STENCILMAP_THREADS");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end == 0 && n >= 1) return n > SM_THREADS_MAX ? SM_THREADS_MAX : (int)n;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n >= 1) return n > SM_THREADS_MAX ? SM_THREADS_MAX : n;
    }
    return 1;
}

int sm_threads_resolve(long long requested)
{
    if (requested <= 0) return sm_threads_default();
    return requested > SM_THREADS_MAX ? SM_THREADS_MAX : (int)requested;
}

typedef struct {
    void (*fn)(int, void *);
    void *arg;
    int n;
    atomic_int next;
} loop;

static void *worker(void *p)
{
    loop *l = p;
    for (;;) {
        int i = atomic_fetch_add(&l->next, 1);
        if (i >= l->n) return NULL;
        l->fn(i, l->arg);
    }
}

void sm_parallel_for(int nthreads, int n, void (*fn)(int i, void *arg), void *arg)
{
    if (nthreads > n) nthreads = n;
    if (nthreads <= 1) {
        for (int i = 0; i < n; i++) fn(i, arg);
        return;
    }
    loop l = {fn, arg, n, 0};
    pthread_t tid[SM_THREADS_MAX];
    int started = 0;
    for (int t = 1; t < nthreads && t < SM_THREADS_MAX; t++) {
        if (pthread_create(&tid[started], NULL, worker, &l) != 0) break;
        started++;
    }
    worker(&l);
    for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
}
