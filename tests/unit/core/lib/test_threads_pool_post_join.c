/* test_threads_pool_post_join.c - sm_pool_post and sm_pool_join: every
 * item of a posted job runs exactly once, whether the workers ran it
 * while the caller was busy elsewhere or the caller at the join; the
 * workers run the items before the join (the caller's other work
 * overlaps them); a task posted meanwhile runs once; the pool
 * takes sm_pool_for jobs and posts again afterwards; a pool of 1, NULL
 * and jobs of 0 or 1 items run everything at the join, in order. */
#include <stdatomic.h>
#include <time.h>
#include "tests/unit/testutil.h"
#include "core/lib/threads.h"

typedef struct {
    atomic_int *hits;
    atomic_int before_join; /* items that ran while the caller was away */
    atomic_int joined;
    atomic_int order_ok;    /* items run in index order (one thread) */
    atomic_int last;
} job;

static void item(int i, int worker, void *arg)
{
    (void)worker;
    job *j = arg;
    atomic_fetch_add(&j->hits[i], 1);
    if (!atomic_load(&j->joined)) atomic_fetch_add(&j->before_join, 1);
    if (atomic_exchange(&j->last, i) != i - 1) atomic_store(&j->order_ok, 0);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run(sm_pool *p, int n, int away_ms, job *j)
{
    for (int i = 0; i < n; i++) atomic_init(&j->hits[i], 0);
    atomic_init(&j->before_join, 0);
    atomic_init(&j->joined, 0);
    atomic_init(&j->order_ok, 1);
    atomic_init(&j->last, -1);
    sm_pool_post(p, n, item, j);
    /* The caller's other work: items it must not run itself. */
    double until = now_s() + away_ms * 1e-3;
    while (now_s() < until) {
    }
    atomic_store(&j->joined, 1);
    sm_pool_join(p, n, item, j);
    for (int i = 0; i < n; i++) assert_int_equal(atomic_load(&j->hits[i]), 1);
}

static void every_item_once(void **st)
{
    (void)st;
    static atomic_int hits[5000];
    for (int size = 2; size <= 4; size++) {
        sm_pool *p = sm_pool_new(size);
        if (sm_pool_size(p) < 2) {
            sm_pool_free(p);
            skip();
        }
        const int ns[] = {2, 3, 7, 64, 1000, 5000};
        for (int round = 0; round < 30; round++) {
            job j = {.hits = hits};
            int n = ns[round % 6];
            run(p, n, round % 3 == 0 ? 2 : 0, &j);
            /* The pool goes on taking plain jobs between posts. */
            for (int i = 0; i < 300; i++) atomic_init(&hits[i], 0);
            j.hits = hits;
            atomic_store(&j.joined, 1);
            sm_pool_for(p, 300, item, &j);
            for (int i = 0; i < 300; i++) assert_int_equal(atomic_load(&hits[i]), 1);
        }
        sm_pool_free(p);
    }
}

/* While the caller is away, the workers run the items: all of them here,
 * where the caller waits (up to 5 s) before it joins. */
static void workers_run_while_caller_away(void **st)
{
    (void)st;
    sm_pool *p = sm_pool_new(2);
    if (sm_pool_size(p) < 2) {
        sm_pool_free(p);
        skip();
    }
    static atomic_int hits[64];
    for (int round = 0; round < 10; round++) {
        job j = {.hits = hits};
        for (int i = 0; i < 64; i++) atomic_init(&hits[i], 0);
        atomic_init(&j.before_join, 0);
        atomic_init(&j.joined, 0);
        atomic_init(&j.last, -1);
        sm_pool_post(p, 64, item, &j);
        double until = now_s() + 5;
        while (atomic_load(&j.before_join) < 64 && now_s() < until) {
        }
        assert_int_equal(atomic_load(&j.before_join), 64);
        atomic_store(&j.joined, 1);
        sm_pool_join(p, 64, item, &j);
        for (int i = 0; i < 64; i++) assert_int_equal(atomic_load(&hits[i]), 1);
    }
    sm_pool_free(p);
}

typedef struct {
    atomic_int runs;
} task_state;

static void task(void *arg)
{
    task_state *t = arg;
    atomic_fetch_add(&t->runs, 1);
}

/* A task posted while a job is out runs once: by the worker once the
 * items are gone, or by the caller at sm_pool_task_wait. */
static void task_beside_posted_job(void **st)
{
    (void)st;
    sm_pool *p = sm_pool_new(2);
    if (sm_pool_size(p) < 2) {
        sm_pool_free(p);
        skip();
    }
    static atomic_int hits[2000];
    for (int round = 0; round < 40; round++) {
        job j = {.hits = hits};
        task_state t = {0};
        for (int i = 0; i < 2000; i++) atomic_init(&hits[i], 0);
        atomic_init(&j.joined, 1);
        atomic_init(&j.order_ok, 1);
        atomic_init(&j.last, -1);
        sm_pool_post(p, 2000, item, &j);
        sm_pool_task(p, task, &t);
        if (round % 2) sm_pool_task_wait(p);
        sm_pool_join(p, 2000, item, &j);
        sm_pool_task_wait(p);
        for (int i = 0; i < 2000; i++) assert_int_equal(atomic_load(&hits[i]), 1);
        assert_int_equal(atomic_load(&t.runs), 1);
    }
    sm_pool_free(p);
}

/* No workers: nothing runs at the post, everything at the join, in order. */
static void one_thread_runs_at_join(void **st)
{
    (void)st;
    static atomic_int hits[100];
    sm_pool *one = sm_pool_new(1);
    sm_pool *two = sm_pool_new(2);
    struct { sm_pool *p; int n; } cases[] = {{NULL, 100}, {one, 100}, {two, 1}, {two, 0}, {one, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        job j = {.hits = hits};
        run(cases[c].p, cases[c].n, 1, &j);
        assert_int_equal(atomic_load(&j.before_join), 0);
        assert_int_equal(atomic_load(&j.order_ok), 1);
        assert_int_equal(atomic_load(&j.last), cases[c].n - 1);
    }
    sm_pool_free(one);
    sm_pool_free(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_item_once),
        cmocka_unit_test(workers_run_while_caller_away),
        cmocka_unit_test(task_beside_posted_job),
        cmocka_unit_test(one_thread_runs_at_join),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
