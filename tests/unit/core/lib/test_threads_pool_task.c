/* test_threads_pool_task.c - sm_pool_task: a task posted beside the
 * pool's loops runs exactly once, whoever runs it (a worker with nothing
 * to do, or the caller at sm_pool_task_wait when no worker took it);
 * while it runs, the caller's sm_pool_for jobs still finish every item
 * (a worker busy with the task takes none); a pool of 1 or NULL runs it
 * at once; tasks follow one another. */
#include <stdatomic.h>
#include <time.h>
#include "tests/unit/testutil.h"
#include "core/lib/threads.h"

typedef struct {
    atomic_int runs;
    atomic_int release;   /* the task waits for it (with a deadline) */
    atomic_int saw_release;
    int value;
} task_state;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void task(void *arg)
{
    task_state *t = arg;
    atomic_fetch_add(&t->runs, 1);
    double until = now_s() + 5;
    while (!atomic_load(&t->release) && now_s() < until) {
    }
    atomic_store(&t->saw_release, atomic_load(&t->release));
    t->value = 42;
}

static void count_item(int i, int worker, void *arg)
{
    (void)worker;
    atomic_int *hits = arg;
    atomic_fetch_add(&hits[i], 1);
}

static void task_beside_jobs(void **st)
{
    (void)st;
    sm_pool *p = sm_pool_new(2);
    if (sm_pool_size(p) < 2) {
        sm_pool_free(p);
        skip();
    }
    for (int round = 0; round < 20; round++) {
        task_state t = {0};
        sm_pool_task(p, task, &t);
        /* Jobs go on while the task holds a worker (or none took it yet). */
        for (int j = 0; j < 5; j++) {
            atomic_int hits[200];
            for (int i = 0; i < 200; i++) atomic_init(&hits[i], 0);
            sm_pool_for(p, 200, count_item, hits);
            for (int i = 0; i < 200; i++) assert_int_equal(atomic_load(&hits[i]), 1);
        }
        atomic_store(&t.release, 1);
        sm_pool_task_wait(p);
        assert_int_equal(atomic_load(&t.runs), 1);
        assert_int_equal(atomic_load(&t.saw_release), 1);
        assert_int_equal(t.value, 42);
        /* Waiting again, with no task, returns at once. */
        sm_pool_task_wait(p);
    }
    /* A task no one waits for is finished before the pool goes. */
    task_state last = {0};
    atomic_store(&last.release, 1);
    sm_pool_task(p, task, &last);
    sm_pool_free(p);
    assert_int_equal(atomic_load(&last.runs), 1);
    assert_int_equal(last.value, 42);
}

static void one_thread_runs_at_once(void **st)
{
    (void)st;
    sm_pool *one = sm_pool_new(1);
    sm_pool *none = NULL;
    sm_pool *pools[2] = {one, none};
    for (int k = 0; k < 2; k++) {
        task_state t = {0};
        atomic_store(&t.release, 1);
        sm_pool_task(pools[k], task, &t);
        assert_int_equal(atomic_load(&t.runs), 1);
        assert_int_equal(t.value, 42);
        sm_pool_task_wait(pools[k]);
        assert_int_equal(atomic_load(&t.runs), 1);
    }
    sm_pool_free(one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(task_beside_jobs),
        cmocka_unit_test(one_thread_runs_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
