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
#include <time.h>
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

/* The pool. A job's items are claimed through one 64-bit ticket, the
 * job's generation in the high half and the next item in the low half,
 * by compare-and-swap: a worker that is late (still on an older job)
 * cannot claim an item of a newer one. Job descriptors alternate between
 * two slots by generation, so a job's descriptor stays put until the job
 * after next. The caller returns once every item of its job is done
 * (not when every worker has looked), so a worker the system has not
 * scheduled costs nothing; it finds no items when it wakes. Idle workers
 * spin a little, then sleep on a condition variable: a search's next job
 * follows within tens of microseconds (a coarse tabu iteration's serial
 * part: sampling 144 candidates, choosing, applying), and a worker asleep
 * costs the caller a wake-up and the job the worker's start, every
 * iteration. So the spin lasts a time, POOL_SPIN_NS, not a count (20000
 * loads took 11 us here, less than most of those gaps: 262K blocks on 2
 * threads, 1070 voluntary context switches a solve, 670-800 with this,
 * at load 12), and pauses between loads. */
#define POOL_SPIN_NS 200000L

static long pool_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000000000L + t.tv_nsec;
}

static void pool_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

typedef struct {
    _Atomic(void (*)(int, int, void *)) fn;
    _Atomic(void *) arg;
    atomic_int n;    /* items that may run (a stream's grows) */
    atomic_int open; /* a stream (sm_pool_stream_begin) not ended: more may come */
} pool_job;

struct sm_pool {
    int size;                 /* workers, the caller included */
    pthread_t tid[SM_THREADS_MAX];
    pthread_mutex_t mu;
    pthread_cond_t go;
    int nsleep;               /* under mu */
    atomic_int quit;
    _Atomic unsigned long long ticket;
    atomic_int done;          /* items of the current job finished */
    pool_job job[2];
    unsigned gen;             /* the caller's */
    /* sm_pool_task: 0 none, 1 posted, 2 running, 3 done. */
    atomic_int task;
    void (*task_fn)(void *);
    void *task_arg;
};

typedef struct {
    sm_pool *p;
    int worker;
} pool_worker;

static unsigned ticket_gen(unsigned long long t) { return (unsigned)(t >> 32); }

/* Items claimed at a time: one claim (and one count of done items) per
 * run of items rather than per item, since both are a cache line every
 * worker writes (a tabu step's candidate costs a few microseconds, the
 * same order as a contended claim). A run is an eighth of a worker's
 * share of the items still unclaimed, 8 at most (guided): long runs
 * while much is left, single items at the end, so the job does not end
 * with the caller waiting for a run another worker has only begun (at
 * 2 threads a fixed sixteenth of the job left the caller waiting for up
 * to 4 items: a coarse tabu step's 144 candidates, a refinement chunk's
 * 128 runs of 32 proposals). Which worker runs an item changes nothing. */
static int pool_grain(int left, int size)
{
    int g = left / (8 * size);
    return g < 1 ? 1 : g > 8 ? 8 : g;
}

/* Claims and runs items of generation gen until none are left. */
static void pool_items(sm_pool *p, unsigned gen, int worker)
{
    pool_job *j = &p->job[gen & 1];
    for (int waits = 0;;) {
        unsigned long long t = atomic_load(&p->ticket);
        if (ticket_gen(t) != gen) return;
        int i = (int)(t & 0xffffffffu), n = atomic_load(&j->n);
        if (i >= n) {
            /* A stream's next items are being made: wait for them (the
             * caller makes them in microseconds, then ends it; past that,
             * it may have lost its core: give it back). */
            if (!atomic_load(&j->open) && i >= atomic_load(&j->n)) return;
            if (++waits > 1000) sched_yield();
            else pool_pause();
            continue;
        }
        int k = pool_grain(n - i, p->size);
        if (k > n - i) k = n - i;
        if (!atomic_compare_exchange_weak(&p->ticket, &t, t + (unsigned long long)k)) continue;
        void (*fn)(int, int, void *) = atomic_load_explicit(&j->fn, memory_order_relaxed);
        void *arg = atomic_load_explicit(&j->arg, memory_order_relaxed);
        for (int e = i + k; i < e; i++) fn(i, worker, arg);
        atomic_fetch_add(&p->done, k);
    }
}

/* Runs the posted task if no one has taken it yet; 1 when it ran it. */
static int pool_take_task(sm_pool *p)
{
    int posted = 1;
    if (atomic_load(&p->task) != 1 || !atomic_compare_exchange_strong(&p->task, &posted, 2)) return 0;
    p->task_fn(p->task_arg);
    atomic_store(&p->task, 3);
    return 1;
}

static void *pool_main(void *a)
{
    pool_worker w = *(pool_worker *)a;
    free(a);
    sm_pool *p = w.p;
    unsigned seen = 0;
    for (;;) {
        unsigned gen = ticket_gen(atomic_load(&p->ticket));
        long until = gen == seen ? pool_now_ns() + POOL_SPIN_NS : 0;
        for (int spin = 1; gen == seen && !atomic_load(&p->quit) && atomic_load(&p->task) != 1; spin++) {
            if ((spin & 63) == 0 && pool_now_ns() > until) break;
            pool_pause();
            gen = ticket_gen(atomic_load(&p->ticket));
        }
        if (gen == seen && atomic_load(&p->task) != 1) {
            pthread_mutex_lock(&p->mu);
            p->nsleep++;
            while ((gen = ticket_gen(atomic_load(&p->ticket))) == seen && !atomic_load(&p->quit) &&
                   atomic_load(&p->task) != 1)
                pthread_cond_wait(&p->go, &p->mu);
            p->nsleep--;
            pthread_mutex_unlock(&p->mu);
        }
        if (atomic_load(&p->quit)) return NULL;
        /* A task first (the caller posts one only when it has no job
         * waiting on it), then look again for a job. */
        if (pool_take_task(p)) continue;
        seen = gen;
        pool_items(p, gen, w.worker);
    }
}

sm_pool *sm_pool_new(int nthreads)
{
    sm_pool *p = sm_xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
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

/* Posts a job of n items (open: a stream, more to come) and wakes the
 * sleeping workers. */
static void pool_post(sm_pool *p, int n, int open, void (*fn)(int, int, void *), void *arg)
{
    unsigned gen = ++p->gen;
    if (gen == 0) gen = ++p->gen; /* 0 is "no job yet" for the workers */
    pool_job *j = &p->job[gen & 1];
    atomic_store_explicit(&j->fn, fn, memory_order_relaxed);
    atomic_store_explicit(&j->arg, arg, memory_order_relaxed);
    atomic_store_explicit(&j->n, n, memory_order_relaxed);
    atomic_store_explicit(&j->open, open, memory_order_relaxed);
    atomic_store(&p->done, 0);
    atomic_store(&p->ticket, (unsigned long long)gen << 32);
    pthread_mutex_lock(&p->mu);
    if (p->nsleep) pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
}

/* The caller's part of the current job (n items in all), then the wait
 * for the items other workers hold: short (a fraction of the job). */
static void pool_finish(sm_pool *p, int n)
{
    pool_items(p, p->gen, 0);
    for (int spin = 0; atomic_load(&p->done) < n; spin++)
        if (spin > 1000) sched_yield();
}

void sm_pool_for(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg)
{
    if (!p || p->size <= 1 || n <= 1) {
        for (int i = 0; i < n; i++) fn(i, 0, arg);
        return;
    }
    pool_post(p, n, 0, fn, arg);
    pool_finish(p, n);
}

void sm_pool_post(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg)
{
    if (!p || p->size <= 1 || n <= 1) return;
    pool_post(p, n, 0, fn, arg);
}

void sm_pool_join(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg)
{
    if (!p || p->size <= 1 || n <= 1) {
        for (int i = 0; i < n; i++) fn(i, 0, arg);
        return;
    }
    pool_finish(p, n);
}

void sm_pool_stream_begin(sm_pool *p, void (*fn)(int i, int worker, void *arg), void *arg)
{
    if (!p || p->size <= 1) return;
    pool_post(p, 0, 1, fn, arg);
}

void sm_pool_stream_add(sm_pool *p, int n)
{
    if (!p || p->size <= 1) return;
    atomic_store(&p->job[p->gen & 1].n, n);
}

void sm_pool_stream_end(sm_pool *p, int n, void (*fn)(int i, int worker, void *arg), void *arg)
{
    if (!p || p->size <= 1) {
        for (int i = 0; i < n; i++) fn(i, 0, arg);
        return;
    }
    pool_job *j = &p->job[p->gen & 1];
    atomic_store(&j->n, n);
    atomic_store(&j->open, 0);
    pool_finish(p, n);
}

void sm_pool_task(sm_pool *p, void (*fn)(void *arg), void *arg)
{
    if (!p || p->size <= 1) {
        fn(arg);
        return;
    }
    sm_pool_task_wait(p);
    p->task_fn = fn;
    p->task_arg = arg;
    atomic_store(&p->task, 1);
    pthread_mutex_lock(&p->mu);
    if (p->nsleep) pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
}

void sm_pool_task_wait(sm_pool *p)
{
    if (!p || p->size <= 1 || atomic_load(&p->task) == 0) return;
    /* Not taken yet: the caller runs it. */
    pool_take_task(p);
    for (int spin = 0; atomic_load(&p->task) != 3; spin++) {
        if (spin > 1000) sched_yield();
        else pool_pause();
    }
    atomic_store(&p->task, 0);
}

void sm_pool_free(sm_pool *p)
{
    if (!p) return;
    sm_pool_task_wait(p);
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, 1);
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (int t = 0; t < p->size - 1; t++) pthread_join(p->tid[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    free(p);
}
