/* test_solver_stepper_evaluates_mapping.c - the stepper evaluates a solver's current mapping
 * (solvers that show one without evaluating it: bokhari, sfc, random, ga,
 * minmd) from a cost state it keeps in step with the recorded moves, not
 * from a new cost state per step. Counted in work, not time: the cost
 * states built while stepping (their serials) stay a handful whatever
 * the number of steps, and every current it reports is a fresh
 * evaluation's. A cost state per step cost 273 s of CPU on the 4096-block
 * HAEC instance where 8 s are the solver's own (issue 38). */
#include "tests/unit/testutil.h"
#include "solvers/solver_registry.h"

static unsigned long long builds_so_far(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map)
{
    sm_cost *c = sm_cost_new(g, t, m, map);
    unsigned long long s = c->serial;
    sm_cost_free(c);
    return s;
}

static void run(const char *name, int argc, const char *const *argv, int steps, int max_builds)
{
    sm_grid *g = tu_grid(16, 16, 1, 0, 0, 0, SM_ST_5PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[4,4]}", 16);
    int n = g->ntasks;
    int *startmap = calloc((size_t)n, sizeof(int));
    for (int b = 0; b < n; b++) startmap[b] = b % t->nprocs;
    sm_model m;
    sm_model_default(&m);
    sm_err e;
    sm_solver *s = sm_solver_new(sm_solver_find(name), g, t, &m, startmap, argc, argv, &e);
    if (!s) fail_msg("%s: %s", name, e.msg);
    sm_solver_history_on(s);
    unsigned long long before = builds_so_far(g, t, &m, startmap);
    int k = 0, checked = 0;
    while (!s->done && k < steps) {
        assert_int_equal(sm_solver_step(s, 1), 1);
        k++;
        if (k % 37 == 0 && s->current_map && s->has_current) {
            sm_eval fresh;
            sm_eval_reference(g, t, &s->model, s->current_map, &fresh);
            tu_assert_close(s->current.energy, fresh.energy, 1e-9, "current energy");
            tu_assert_close(s->current.time, fresh.time, 1e-9, "current time");
            assert_int_equal(s->current.edges_inter, fresh.edges_inter);
            checked++;
        }
    }
    unsigned long long after = builds_so_far(g, t, &m, startmap);
    /* Minus the probe itself. */
    unsigned long long built = after - before - 1;
    if (built > (unsigned long long)max_builds)
        fail_msg("%s: %llu cost states built in %d steps (at most %d expected)", name, built, k, max_builds);
    assert_true(k >= steps / 2);
    assert_true(checked > 0);
    sm_solver_free(s);
    free(startmap);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void bokhari_steps(void **st)
{
    (void)st;
    static const char *const argv[] = {"-seed", "1"};
    /* Best handed over at each pass end (256 steps) and every 4096
     * steps at least inside a pass: a cost state each, never one per step. */
    run("bokhari", 2, argv, 600, 12);
}

static void random_steps(void **st)
{
    (void)st;
    static const char *const argv[] = {"-samples", "400", "-seed", "2"};
    run("random", 4, argv, 400, 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bokhari_steps),
        cmocka_unit_test(random_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
