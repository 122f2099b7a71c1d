/* test_tabu_list.c - the sparse tabu attributes answer exactly as the
 * dense n x P stamp table they replace (#14 item 3), report the same list
 * length as a FIFO of every stamp set, and hold only the live pairs. */
#include "tests/unit/testutil.h"
#include "core/lib/util.h"
#include "solvers/tabu/tabu_list.h"

/* A random search's worth of sets, expiries and queries on a small n x P
 * grid, checked against the dense table at every step. */
static void run_against_dense(int n, int P, int tenure, int moves_per_step, int steps,
                              unsigned long long seed)
{
    long long *dense = calloc((size_t)n * (size_t)P, sizeof *dense);
    long long *stamps = malloc(sizeof *stamps * (size_t)steps * (size_t)moves_per_step);
    long long nstamps = 0, first_live = 0;
    sm_tabu_list l;
    sm_tabu_list_init(&l);
    unsigned long long rs = seed;
    int max_live = 0;
    for (long long it = 0; it < steps; it++) {
        /* Queries at this iteration, hits and misses alike. */
        for (int k = 0; k < 64; k++) {
            int b = (int)(sm_rand_next(&rs) % (unsigned)n), p = (int)(sm_rand_next(&rs) % (unsigned)P);
            int want = dense[(size_t)b * P + p] > it;
            if (sm_tabu_list_active(&l, b, p, it) != want)
                fail_msg("it %lld (%d, %d): sparse %d, dense %d", it, b, p, !want, want);
        }
        int nm = (int)(sm_rand_next(&rs) % (unsigned)(moves_per_step + 1));
        for (int k = 0; k < nm; k++) {
            /* Small blocks ranges make the same pair come back while tabu. */
            int b = (int)(sm_rand_next(&rs) % (unsigned)(k % 2 ? n : 3));
            int p = (int)(sm_rand_next(&rs) % (unsigned)P);
            long long until = it + 1 + tenure;
            dense[(size_t)b * P + p] = until;
            sm_tabu_list_set(&l, b, p, until);
            stamps[nstamps++] = until;
        }
        while (first_live < nstamps && stamps[first_live] <= it + 1) first_live++;
        int size = sm_tabu_list_expire(&l, it + 1);
        assert_int_equal(size, (int)(nstamps - first_live));
        if (l.live > max_live) max_live = l.live;
    }
    /* Everything ends once the last tenure has run. */
    assert_int_equal(sm_tabu_list_expire(&l, steps + tenure + 1), 0);
    assert_int_equal(l.live, 0);
    for (int b = 0; b < n; b++)
        for (int p = 0; p < P; p++) assert_false(sm_tabu_list_active(&l, b, p, steps + tenure + 1));
    /* Memory follows the live pairs, at most one stamp per set within a
     * tenure, never the n x P table. */
    assert_true(max_live <= moves_per_step * (tenure + 1));
    assert_true(l.cap <= 4 * moves_per_step * (tenure + 1) + 64);
    sm_tabu_list_free(&l);
    free(stamps);
    free(dense);
}

static void matches_dense_table(void **st)
{
    (void)st;
    run_against_dense(40, 7, 12, 2, 3000, 1);
    run_against_dense(40, 7, 5, 2, 3000, 2);
    run_against_dense(9, 3, 0, 4, 500, 3);      /* tenure 0: tabu for the next step only */
    run_against_dense(300, 64, 150, 2, 4000, 4); /* long tenure: table grows, pairs come back */
    run_against_dense(2000, 1000, 40, 6, 2000, 5);
}

/* Deleting from a full probe run keeps every other key reachable: pairs
 * hashed to the same home, expired in an order unrelated to the table's. */
static void expiry_keeps_probe_runs(void **st)
{
    (void)st;
    sm_tabu_list l;
    sm_tabu_list_init(&l);
    for (int i = 0; i < 30; i++) sm_tabu_list_set(&l, i, i % 5, 10 + i);
    for (long long it = 9; it < 41; it++) {
        sm_tabu_list_expire(&l, it);
        for (int i = 0; i < 30; i++) assert_int_equal(sm_tabu_list_active(&l, i, i % 5, it), 10 + i > it);
        assert_int_equal(l.live, (int)(it < 10 ? 30 : (it >= 39 ? 0 : 39 - it)));
    }
    sm_tabu_list_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(matches_dense_table),
        cmocka_unit_test(expiry_keeps_probe_runs),
    };
    return cmocka_run_group_tests_name("tabu_list", tests, NULL, NULL);
}
