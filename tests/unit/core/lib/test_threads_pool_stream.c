/* test_threads_pool_stream.c - a pool's loops: sm_pool_for runs every
 * item once for any count (the claims shrink towards the end), and a
 * stream (sm_pool_stream_begin/add/end) runs every item once, never
 * before the caller has made it and said so, on pools of 2 and 3 and on
 * a pool of 1 or NULL (then in order on the caller, at the end); streams
 * and plain loops follow one another on one pool. */
#include <stdatomic.h>
#include "tests/unit/testutil.h"
#include "core/lib/threads.h"

#define N_MAX 700

typedef struct {
    int value[N_MAX];      /* made by the caller before it adds the item */
    atomic_int made[N_MAX];
    atomic_int hits[N_MAX];
    unsigned long long out[N_MAX];  /* each item's own slot */
    atomic_int early;      /* items run before they were made */
    atomic_int order[N_MAX];
    atomic_int next;       /* run order (pools of 1) */
} stream_state;

static void item(int i, int worker, void *arg)
{
    (void)worker;
    stream_state *s = arg;
    if (!atomic_load(&s->made[i])) atomic_fetch_add(&s->early, 1);
    /* Some work, so workers overlap the caller's making. */
    unsigned long long v = (unsigned long long)s->value[i];
    for (int k = 0; k < 200; k++) v = (v * 6364136223846793005ULL + 1442695040888963407ULL) & 0xffffffffffffULL;
    s->out[i] = v;
    atomic_fetch_add(&s->hits[i], 1);
    atomic_store(&s->order[i], atomic_fetch_add(&s->next, 1));
}

static unsigned long long expected(int i)
{
    unsigned long long v = (unsigned long long)(3 * i + 7);
    for (int k = 0; k < 200; k++) v = (v * 6364136223846793005ULL + 1442695040888963407ULL) & 0xffffffffffffULL;
    return v;
}

static void reset(stream_state *s)
{
    for (int i = 0; i < N_MAX; i++) {
        s->value[i] = -1;
        atomic_init(&s->made[i], 0);
        atomic_init(&s->hits[i], 0);
        atomic_init(&s->order[i], -1);
        s->out[i] = 0;
    }
    atomic_init(&s->early, 0);
    atomic_init(&s->next, 0);
}

/* n items made one by one, added every `every` (and a last add of all),
 * checked: each run once, after it was made, with the value made. */
static void run_stream(sm_pool *p, stream_state *s, int n, int every)
{
    reset(s);
    sm_pool_stream_begin(p, item, s);
    for (int i = 0; i < n; i++) {
        s->value[i] = 3 * i + 7;
        atomic_store(&s->made[i], 1);
        if ((i + 1) % every == 0) sm_pool_stream_add(p, i + 1);
    }
    sm_pool_stream_end(p, n, item, s);
    assert_int_equal(atomic_load(&s->early), 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(atomic_load(&s->hits[i]), 1);
        assert_true(s->out[i] == expected(i));
    }
    for (int i = n; i < N_MAX; i++) assert_int_equal(atomic_load(&s->hits[i]), 0);
}

static void stream_runs_each_item_once_after_it_is_made(void **st)
{
    (void)st;
    static stream_state s;
    for (int threads = 2; threads <= 3; threads++) {
        sm_pool *p = sm_pool_new(threads);
        const int sizes[] = {0, 1, 2, 15, 16, 17, 144, 145, 700};
        const int everies[] = {1, 7, 16, 1000};
        for (int round = 0; round < 3; round++)
            for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
                for (size_t b = 0; b < sizeof everies / sizeof *everies; b++) {
                    run_stream(p, &s, sizes[a], everies[b]);
                    /* A plain loop on the same pool between streams. */
                    reset(&s);
                    for (int i = 0; i < 300; i++) s.value[i] = 3 * i + 7, atomic_store(&s.made[i], 1);
                    sm_pool_for(p, 300, item, &s);
                    for (int i = 0; i < 300; i++) assert_int_equal(atomic_load(&s.hits[i]), 1);
                }
        sm_pool_free(p);
    }
}

static void loops_run_each_item_once_for_any_count(void **st)
{
    (void)st;
    static stream_state s;
    for (int threads = 2; threads <= 3; threads++) {
        sm_pool *p = sm_pool_new(threads);
        for (int n = 0; n <= N_MAX; n += n < 40 ? 1 : 37) {
            reset(&s);
            for (int i = 0; i < n; i++) s.value[i] = 3 * i + 7, atomic_store(&s.made[i], 1);
            sm_pool_for(p, n, item, &s);
            for (int i = 0; i < N_MAX; i++) assert_int_equal(atomic_load(&s.hits[i]), i < n ? 1 : 0);
            for (int i = 0; i < n; i++) assert_true(s.out[i] == expected(i));
        }
        sm_pool_free(p);
    }
}

static void one_thread_streams_run_in_order_at_the_end(void **st)
{
    (void)st;
    static stream_state s;
    sm_pool *one = sm_pool_new(1);
    sm_pool *pools[2] = {one, NULL};
    for (int k = 0; k < 2; k++) {
        reset(&s);
        sm_pool_stream_begin(pools[k], item, &s);
        for (int i = 0; i < 50; i++) {
            s.value[i] = 3 * i + 7;
            sm_pool_stream_add(pools[k], i + 1);
            /* Nothing runs before the end on one thread. */
            assert_int_equal(atomic_load(&s.next), 0);
            atomic_store(&s.made[i], 1);
        }
        sm_pool_stream_end(pools[k], 50, item, &s);
        for (int i = 0; i < 50; i++) {
            assert_int_equal(atomic_load(&s.hits[i]), 1);
            assert_int_equal(atomic_load(&s.order[i]), i);
            assert_true(s.out[i] == expected(i));
        }
    }
    sm_pool_free(one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stream_runs_each_item_once_after_it_is_made),
        cmocka_unit_test(loops_run_each_item_once_for_any_count),
        cmocka_unit_test(one_thread_streams_run_in_order_at_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
