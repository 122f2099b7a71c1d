/* test_intra_node_link_bandwidth_latency.c - an intra-node link measured for real between two pinned
 * threads: the latency and each message size have their repetitions and
 * interval, bigger messages take longer, the fitted time per cell and the
 * bandwidth follow from them; one CPU, a CPU this process may not run on
 * and bad sizes are refused before anything runs. */
#include "tests/unit/testutil.h"
#include "core/measure/intra_node_link_bandwidth_latency.h"

#include <unistd.h>

static sm_link_opts opts(const int64_t *cells, int n)
{
    sm_link_opts o;
    memset(&o, 0, sizeof o);
    o.cpu_a = 0;
    o.cpu_b = 1;
    o.cells = cells;
    o.nsizes = n;
    o.cl = 0.95;
    o.eps = 0.5;
    o.reps_min = 3;
    o.reps_max = 10;
    o.min_rep_seconds = 0.002;
    o.timeout = 5;
    return o;
}

static void two_cores(void **st)
{
    (void)st;
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) skip();
    static const int64_t cells[] = {64, 4096, 262144};
    sm_link_opts o = opts(cells, 3);
    char why[512];
    sm_link_result *r = sm_measure_link(&o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    assert_int_equal(r->npoints, 3);
    assert_true(r->latency.n >= 1 && r->latency.mean > 0 && r->latency.mean < 0.01);
    for (int i = 0; i < 3; i++) {
        const sm_link_point *p = &r->points[i];
        assert_int_equal(p->cells, cells[i]);
        /* At least reps_min unless the size's timeout came first (a
         * loaded machine): then it says why. */
        assert_true(p->reps >= 1 && p->reps <= 10 && p->iters >= 9);
        assert_true(p->reps >= 3 || strstr(p->why, "timeout"));
        assert_true(p->t.low <= p->t.mean && p->t.mean <= p->t.high);
        assert_true(p->tight == sm_interval_tight(&p->t, o.eps));
        assert_true(p->tight || p->why[0]);
    }
    /* 2 MB take longer than 512 bytes; the fit and bandwidth are positive. */
    assert_true(r->points[2].t.mean > r->points[0].t.mean);
    assert_true(r->time_per_cell > 0 && r->time_per_cell < 1e-6);
    assert_true(r->bandwidth > 1e6);
    assert_true(r->seconds > 0);
    sm_link_result_free(r);
}

static void refused(void **st)
{
    (void)st;
    static const int64_t cells[] = {64, 128}, bad[] = {128, 64};
    char why[512];
    sm_link_opts o = opts(cells, 2);
    o.cpu_b = 0;
    assert_null(sm_measure_link(&o, why, sizeof why));
    assert_non_null(strstr(why, "two different CPUs"));
    o = opts(bad, 2);
    assert_null(sm_measure_link(&o, why, sizeof why));
    assert_non_null(strstr(why, "increasing"));
    o = opts(cells, 2);
    o.cpu_b = 1000;
    assert_null(sm_measure_link(&o, why, sizeof why));
    assert_non_null(strstr(why, "cannot pin the receiver to CPU 1000"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_cores),
        cmocka_unit_test(refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
