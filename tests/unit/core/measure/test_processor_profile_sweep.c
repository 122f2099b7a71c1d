/* test_processor_profile_sweep.c - the measuring engine on this machine, small and real:
 * pinned threads run the kernel over a sweep of sizes; every point has
 * its repetitions and interval; bad input is refused before anything
 * runs; an interrupt keeps the points done; energy is "none" with a
 * reason without counters, "rapl" on a fixture tree. */
#include "tests/unit/testutil.h"
#include "core/measure/processor_profile_sweep.h"

#include <sys/stat.h>
#include <unistd.h>

static const int cpu0[] = {0}, cpu1[] = {1};

static sm_measure_opts small_opts(const int *sizes, int n)
{
    sm_measure_opts o;
    memset(&o, 0, sizeof o);
    o.stencil = SM_K_7PT;
    o.halo = 1;
    o.block[0] = o.block[1] = o.block[2] = 12;
    o.sizes = sizes;
    o.nsizes = n;
    o.cl = 0.95;
    o.eps = 0.5;
    o.reps_min = 3;
    o.reps_max = 8;
    o.simultaneous = 1;
    o.min_rep_seconds = 0.002;
    o.powercap_root = "/nonexistent/powercap";
    return o;
}

static int ncpus(void) { return (int)sysconf(_SC_NPROCESSORS_ONLN); }

static void sweep_of_sizes(void **st)
{
    (void)st;
    static const int sizes[] = {1, 2, 4, 8};
    sm_measure_opts o = small_opts(sizes, 4);
    int two = ncpus() >= 2;
    sm_measure_proc procs[2] = {{"cpu0", 0, 1, cpu0, 0}, {"cpu1", 0, 1, cpu1, 0}};
    const char *groups[] = {"core"};
    char why[512];
    sm_measure_result *r = sm_measure_run(procs, two ? 2 : 1, groups, 1, &o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    assert_int_equal(r->ngroups, 1);
    sm_measure_group *G = &r->groups[0];
    assert_int_equal(G->npoints, 4);
    assert_int_equal(G->nprocs, two ? 2 : 1);
    assert_int_equal(G->threads, 1);
    assert_string_equal(G->source, "none");
    assert_non_null(strstr(G->why, "no powercap at /nonexistent/powercap"));
    for (int k = 0; k < 4; k++) {
        sm_measure_point *p = &G->points[k];
        assert_int_equal(p->blocks, sizes[k]);
        assert_true(p->reps >= 3 && p->reps <= 8);
        assert_true(p->iters >= 1);
        assert_true(p->t.mean > 0 && p->t.low <= p->t.mean && p->t.mean <= p->t.high);
        assert_true(p->tight == sm_interval_tight(&p->t, o.eps));
        assert_null(p->energy);
    }
    /* More blocks take longer: 8 blocks of 12^3 against one. */
    assert_true(G->points[3].t.mean > 2 * G->points[0].t.mean);
    assert_true(G->time_per_cell > 0 && G->time_per_cell < 1e-6);
    assert_true(r->seconds > 0);
    sm_measure_result_free(r);
}

static void refused_before_running(void **st)
{
    (void)st;
    static const int sizes[] = {1, 2}, bad[] = {2, 1};
    sm_measure_proc procs[2] = {{"cpu0", 0, 1, cpu0, 0}, {"cpu1", 0, 1, cpu0, 0}};
    const char *groups[] = {"core"};
    char why[512];
    sm_measure_opts o = small_opts(sizes, 2);
    o.eps = 0;
    assert_null(sm_measure_run(procs, 1, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "-eps must be positive"));
    o = small_opts(bad, 2);
    assert_null(sm_measure_run(procs, 1, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "increasing order"));
    o = small_opts(sizes, 2);
    o.reps_min = 1;
    assert_null(sm_measure_run(procs, 1, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "-reps"));
    o = small_opts(sizes, 2);
    assert_null(sm_measure_run(procs, 2, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "share CPU 0"));
    o.halo = 5;
    o.block[0] = 4; /* blocks of 4 cells along X */
    assert_null(sm_measure_run(procs, 1, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "thinner than the halo"));
    /* A CPU this process may not run on: pinning fails, nothing runs. */
    static const int far[] = {1000};
    sm_measure_proc away = {"cpu9", 0, 1, far, 0};
    o = small_opts(sizes, 2);
    assert_null(sm_measure_run(&away, 1, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "cannot pin a thread to CPU 1000"));
}

static volatile int stop_flag;
static void stop_after_two(const sm_measure_progress *pr, void *ctx)
{
    (void)ctx;
    if (pr->point >= 2) stop_flag = 1;
}

static void interrupt_keeps_points(void **st)
{
    (void)st;
    static const int sizes[] = {1, 2, 3, 4, 5, 6};
    sm_measure_opts o = small_opts(sizes, 6);
    stop_flag = 0;
    o.interrupt = &stop_flag;
    o.progress = stop_after_two;
    sm_measure_proc proc = {"cpu0", 0, 1, cpu0, 0};
    const char *groups[] = {"core"};
    char why[512];
    sm_measure_result *r = sm_measure_run(&proc, 1, groups, 1, &o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    assert_true(r->interrupted);
    assert_int_equal(r->groups[0].npoints, 2);
    assert_int_equal(r->groups[0].points[1].blocks, 2);
    sm_measure_result_free(r);
}

/* On a powercap tree the package is read: the fixture's counters do not
 * move, so the energy measured is exactly 0 J, and said to be RAPL's. */
static void energy_from_a_fixture(void **st)
{
    (void)st;
    char root[64] = "/tmp/sm-measure-XXXXXX", p[256];
    assert_non_null(mkdtemp(root));
    snprintf(p, sizeof p, "%s/intel-rapl:0", root);
    mkdir(p, 0755);
    const char *files[][2] = {{"name", "package-0\n"}, {"energy_uj", "123456\n"}, {"max_energy_range_uj", "262143328850\n"}};
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/intel-rapl:0/%s", root, files[i][0]);
        FILE *f = fopen(p, "w");
        fputs(files[i][1], f);
        fclose(f);
    }
    static const int sizes[] = {1, 2};
    sm_measure_opts o = small_opts(sizes, 2);
    o.powercap_root = root;
    sm_measure_proc procs[2] = {{"cpu0", 0, 1, cpu0, 0}, {"cpu1", 1, 1, cpu1, -1}};
    const char *groups[] = {"a", "b"};
    char why[512];
    sm_measure_result *r = sm_measure_run(procs, ncpus() >= 2 ? 2 : 1, groups, 2, &o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    assert_string_equal(r->groups[0].source, "rapl");
    assert_int_equal(r->groups[0].energy, 1);
    assert_non_null(r->groups[0].points[1].energy);
    assert_float_equal(r->groups[0].points[1].e.mean, 0, 0);
    assert_float_equal(r->groups[0].p_idle, 0, 0);
    if (ncpus() >= 2) {
        assert_string_equal(r->groups[1].source, "none");
        assert_non_null(strstr(r->groups[1].why, "no known package"));
    }
    sm_measure_result_free(r);
    snprintf(p, sizeof p, "rm -rf %s", root);
    assert_int_equal(system(p), 0);
}

/* A point that cannot meet eps stops at the size's timeout or the cap
 * and says which, with its repetitions kept; the warm-up sizes the batch
 * to at least min_rep_seconds of the fastest iteration. */
static void unmet_points_say_why(void **st)
{
    (void)st;
    static const int sizes[] = {1};
    sm_measure_opts o = small_opts(sizes, 1);
    o.eps = 1e-12; /* no real measurement is this tight */
    o.reps_min = 2;
    o.reps_max = 100000;
    o.timeout = 0.3;
    o.min_rep_seconds = 0.01;
    sm_measure_proc proc = {"cpu0", 0, 1, cpu0, 0};
    const char *groups[] = {"core"};
    char why[512];
    sm_measure_result *r = sm_measure_run(&proc, 1, groups, 1, &o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    sm_measure_point *p = &r->groups[0].points[0];
    assert_int_equal(p->tight, 0);
    assert_true(p->seconds >= 0.3 && p->reps >= 2 && p->reps < 100000);
    assert_non_null(strstr(p->why, "the size's timeout ended it after"));
    assert_non_null(strstr(p->why, "load average"));
    assert_true(p->preempted >= 0);
    /* Each batch was sized to min_rep_seconds on the fastest warm-up
     * iteration: it lasts about that (a later iteration may beat it). */
    for (int i = 0; i < p->reps; i++) assert_true(p->time[i] * p->iters >= 0.5 * 0.01);
    sm_measure_result_free(r);
    o.timeout = 0;
    o.reps_max = 3;
    o.min_rep_seconds = 0.002;
    r = sm_measure_run(&proc, 1, groups, 1, &o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    p = &r->groups[0].points[0];
    assert_int_equal(p->reps, 3);
    assert_non_null(strstr(p->why, "the repetitions' cap ended it after 3 repetitions"));
    sm_measure_result_free(r);
    /* A tight point says nothing. */
    o = small_opts(sizes, 1);
    o.eps = 5;
    r = sm_measure_run(&proc, 1, groups, 1, &o, why, sizeof why);
    if (!r) fail_msg("%s", why);
    assert_int_equal(r->groups[0].points[0].tight, 1);
    assert_string_equal(r->groups[0].points[0].why, "");
    sm_measure_result_free(r);
    o.timeout = -1;
    assert_null(sm_measure_run(&proc, 1, groups, 1, &o, why, sizeof why));
    assert_non_null(strstr(why, "timeout"));
}

static void slope_through_origin(void **st)
{
    (void)st;
    double x[] = {1, 2, 4}, y[] = {2, 4, 8.3};
    assert_float_equal(sm_measure_slope(x, y, 3), (2 + 8 + 33.2) / 21.0, 1e-12);
    assert_float_equal(sm_measure_slope(x, y, 0), 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_of_sizes),
        cmocka_unit_test(refused_before_running),
        cmocka_unit_test(interrupt_keeps_points),
        cmocka_unit_test(energy_from_a_fixture),
        cmocka_unit_test(unmet_points_say_why),
        cmocka_unit_test(slope_through_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
