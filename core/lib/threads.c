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
#include "util.h"

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

/* The pool: a job is published under the mutex with a new generation;
 * each worker runs items of it until none are left, then counts itself
 * done. The caller runs items too and returns once every worker has
 * counted itself done for this generation, so no worker still holds the
 * job (or a worker's scratch state) when the next one starts. */
struct sm_pool {
    int size;                 /* workers, the caller included */
    pthread_t tid[SM_THREADS_MAX];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long gen;
    int ndone, quit;
    void (*fn)(int, int, void *);
    void *arg;
    int n;
    atomic_int next;
};

typedef struct {
    sm_pool *p;
    int worker;
} pool_worker;

static void pool_items(sm_pool *p, int worker)
{
    for (;;) {
        int i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n) return;
        p->fn(i, worker, p->arg);
    }
}

static void *pool_main(void *a)
{
    pool_worker w = *(pool_worker *)a;
    free(a);
    sm_pool *p = w.p;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->gen == seen && !p->quit) pthread_cond_wait(&p->go, &p->mu);
        if (p->quit) break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        pool_items(p, w.worker);
        pthread_mutex_lock(&p->mu);
        if (++p->ndone == p->size - 1) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

sm_pool *sm_pool_new(int nthreads)
{
    sm_pool *p = sm_xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    p->size = 1;
    if (nthreads > SM_THREADS_MAX) nthreads = SM_THREADS_MAX;
    for (int t = 1; t < nthreads; t++) {
        pool_worker *w = sm_xmalloc(sizeof *w);
        *w = (pool_worker){p, t};
        if (pthread_create(&p->tid[t - 1], NULL, pool_main, w) != 0) {
            free(w);
            break;
        }
        p->size++;
    }
    return p;
}

int sm_pool_size(const sm_pool *p) { return p ? p->size : 1; }

void sm_pool_for(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg)
{
    if (!p || p->size <= 1 || n <= 1) {
        for (int i = 0; i < n; i++) fn(i, 0, arg);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->n = n;
    atomic_store(&p->next, 0);
    p->ndone = 0;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    pool_items(p, 0);
    pthread_mutex_lock(&p->mu);
    while (p->ndone < p->size - 1) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void sm_pool_free(sm_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int t = 0; t < p->size - 1; t++) pthread_join(p->tid[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    free(p);
}
