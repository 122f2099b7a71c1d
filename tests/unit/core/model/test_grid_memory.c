/* test_grid_memory.c - the memory a grid takes, told before it is built. */
#include "tests/unit/testutil.h"
#include "core/model/grid_memory.h"

static sm_grid_spec spec(int bx, int by, int bz, int px, int py, int pz, sm_stencil st)
{
    return tu_grid_spec(bx, by, bz, px, py, pz, st);
}

/* Without wrapping the bound is the count the build makes; wrapping with
 * two blocks merges duplicates, so the bound may only be above. */
static void edges_bound_is_the_count(void **st)
{
    (void)st;
    static const struct { int b[3], p[3]; sm_stencil s; } cases[] = {
        {{8, 4, 4}, {0, 0, 0}, SM_ST_7PT},   {{8, 4, 4}, {1, 1, 0}, SM_ST_7PT},
        {{9, 7, 5}, {0, 0, 0}, SM_ST_27PT},  {{9, 7, 5}, {1, 0, 1}, SM_ST_27PT},
        {{12, 1, 1}, {0, 0, 0}, SM_ST_27PT}, {{16, 9, 1}, {0, 1, 0}, SM_ST_9PT},
        {{16, 9, 1}, {0, 0, 0}, SM_ST_5PT},  {{2, 2, 3}, {1, 1, 1}, SM_ST_27PT},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_grid_spec s = spec(cases[i].b[0], cases[i].b[1], cases[i].b[2], cases[i].p[0], cases[i].p[1],
                              cases[i].p[2], cases[i].s);
        sm_err e;
        sm_grid *g = sm_grid_build(&s, &e);
        assert_non_null(g);
        int two_wrap = 0;
        for (int a = 0; a < 3; a++) two_wrap |= s.periodic[a] && s.blocks[a] == 2;
        if (two_wrap) assert_true(sm_grid_edges_bound(&s) >= g->nedges);
        else assert_int_equal(sm_grid_edges_bound(&s), g->nedges);
        sm_grid_free(g);
    }
    sm_grid_spec s = spec(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    assert_int_equal(sm_grid_edges_bound(&s), 608); /* SPEC 2.1 */
}

/* The estimate covers what the task graph and the cost state's mapping
 * hold once built, and is not wildly above it. */
static void estimate_covers_the_built_grid(void **st)
{
    (void)st;
    sm_stencil sts[] = {SM_ST_7PT, SM_ST_27PT};
    for (int k = 0; k < 2; k++) {
        sm_grid_spec s = spec(40, 30, 20, 0, 0, 0, sts[k]);
        sm_err e;
        sm_grid *g = sm_grid_build(&s, &e);
        int64_t n = g->ntasks, ne = g->nedges;
        int64_t held = 8 * n + 16 * ne + 2 * 4 * (n + 1) + 4 * (2 * ne + 1) + 4 * (int64_t)g->nbr_off[n]
                       + 4 * n /* the cost state's mapping */;
        int64_t est = sm_grid_memory_estimate(&s);
        if (est < held || est > 2 * held)
            fail_msg("%s: estimate %lld for %lld bytes held", sm_stencil_name(sts[k]), (long long)est,
                     (long long)held);
        sm_grid_free(g);
    }
}

static void available_from_the_environment(void **st)
{
    (void)st;
    const char *from;
    sm_err e;
    setenv("STENCILMAP_MEMORY", "3G", 1);
    assert_true(sm_memory_available(&from, &e) == 3LL << 30);
    assert_string_equal(from, "STENCILMAP_MEMORY");
    setenv("STENCILMAP_MEMORY", "512kB", 1);
    assert_true(sm_memory_available(&from, &e) == 512 * 1024);
    setenv("STENCILMAP_MEMORY", "1.5M", 1);
    assert_true(sm_memory_available(&from, &e) == 3 * 512 * 1024);
    setenv("STENCILMAP_MEMORY", "12 apples", 1);
    assert_true(sm_memory_available(&from, &e) == -2);
    assert_string_equal(e.code, "MEMORY");
    setenv("STENCILMAP_MEMORY", "-1G", 1);
    assert_true(sm_memory_available(&from, &e) == -2);
    /* The check refuses with the figures, and lets a grid that fits by. */
    setenv("STENCILMAP_MEMORY", "1M", 1);
    sm_grid_spec big = spec(64, 64, 64, 0, 0, 0, SM_ST_27PT), small = spec(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    assert_int_equal(sm_grid_memory_check(&big, &e), -1);
    assert_non_null(strstr(e.msg, "64 x 64 x 64 = 262144 blocks (27pt, "));
    assert_non_null(strstr(e.msg, "1.0 MB available (STENCILMAP_MEMORY)"));
    assert_int_equal(sm_grid_memory_check(&small, &e), 0);
    unsetenv("STENCILMAP_MEMORY");
    /* Linux says what it has: MemAvailable. */
    assert_true(sm_memory_available(&from, &e) > 0);
    assert_string_equal(from, "MemAvailable in /proc/meminfo");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edges_bound_is_the_count),
        cmocka_unit_test(estimate_covers_the_built_grid),
        cmocka_unit_test(available_from_the_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
