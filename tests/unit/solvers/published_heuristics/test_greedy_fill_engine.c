/* test_greedy_fill_engine.c - dm, mm and na pick their next block from heaps
 * (O(n log n)); each must place every block exactly where the published
 * algorithm's full scan (lowest-id minimum over all unmapped blocks)
 * places it. The scan is the reference: with no heap declared the engine
 * falls back to it. */
#include "tests/unit/testutil.h"
#include "solvers/published_heuristics/greedy_fill_engine.h"

static void run(const sm_solver_ops *ops, const sm_grid *g, const sm_topo *t, int argc,
                const char *const *argv, int scan, int *out)
{
    sm_model m;
    sm_model_default(&m);
    int *start = calloc((size_t)g->ntasks, sizeof(int));
    sm_err e;
    sm_solver *s = sm_solver_new(ops, g, t, &m, start, argc, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    sm_greedy *gr = s->priv;
    int nheaps = gr->nheaps;
    assert_true(nheaps > 0);
    if (scan) gr->nheaps = 0; /* hidden: every pick scans */
    sm_solver_step(s, (long long)g->ntasks + 1);
    gr->nheaps = nheaps;
    assert_true(s->done && s->has_best);
    memcpy(out, s->best_map, sizeof(int) * (size_t)g->ntasks);
    sm_solver_free(s);
    free(start);
}

static void heaps_equal_full_scan(void **st)
{
    (void)st;
    struct { int b[3], per[3]; sm_stencil sten; const char *procs; } cases[] = {
        {{8, 4, 4}, {0, 0, 0}, SM_ST_7PT, "cpu gpu"},
        {{8, 4, 4}, {1, 1, 0}, SM_ST_7PT, "cpu cpu gpu gpu"},
        {{16, 8, 8}, {0, 0, 0}, SM_ST_7PT, "cpu gpu gpu cpu gpu cpu cpu gpu gpu"},
        {{6, 6, 2}, {0, 0, 0}, SM_ST_27PT, "cpu gpu gpu"},
        {{9, 7, 5}, {1, 0, 1}, SM_ST_27PT, "gpu cpu cpu gpu gpu"},
    };
    struct { const sm_solver_ops *ops; const char *f; } heur[] = {
        {&sm_solver_dm, NULL}, {&sm_solver_mm, NULL}, {&sm_solver_na, "0"},
        {&sm_solver_na, "0.1"}, {&sm_solver_na, "0.5"}, {&sm_solver_na, "0.9"}, {&sm_solver_na, "1"},
    };
    int compared = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        sm_grid *g = tu_grid(cases[c].b[0], cases[c].b[1], cases[c].b[2], cases[c].per[0],
                             cases[c].per[1], cases[c].per[2], cases[c].sten);
        sm_topo *t = tu_thesis(cases[c].procs);
        int *a = malloc(sizeof(int) * (size_t)g->ntasks), *b = malloc(sizeof(int) * (size_t)g->ntasks);
        for (size_t h = 0; h < sizeof heur / sizeof *heur; h++)
            for (int floor = 0; floor < 2; floor++) {
                const char *argv[4] = {"-speeds", floor ? "floor" : "exact", "-f", heur[h].f};
                int argc = heur[h].f ? 4 : 2;
                run(heur[h].ops, g, t, argc, argv, 0, a);
                run(heur[h].ops, g, t, argc, argv, 1, b);
                for (int u = 0; u < g->ntasks; u++)
                    if (a[u] != b[u])
                        fail_msg("case %zu %s -f %s: block %d on %d, scan says %d", c,
                                 heur[h].ops->name, heur[h].f ? heur[h].f : "-", u, a[u], b[u]);
                compared++;
            }
        free(a);
        free(b);
        sm_topo_free(t);
        sm_grid_free(g);
    }
    assert_int_equal(compared, 70);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heaps_equal_full_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
