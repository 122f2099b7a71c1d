/* test_tabu_task_movement.c - the tabu search: steps agree with full evaluation, seeds
 * reproduce, it never ends worse than it started, and it finds optima
 * known by enumeration. */
#include "tests/unit/testutil.h"
#include "solvers/stepper/solver_stepper.h"

static sm_solver *start(const sm_grid *g, const sm_topo *t, const sm_model *m, const int *map,
                        int argc, const char *const *argv)
{
    sm_err e;
    sm_solver *s = sm_solver_new(&sm_solver_tabu, g, t, m, map, argc, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    return s;
}

static void steps_match_full_evaluation(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 1, 1, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    for (int r = 0; r < 3; r++) {
        sm_model m;
        sm_model_default(&m);
        m.rounds = (sm_rounds_model)r;
        m.has_deadline = 1;
        m.deadline = 3.22e-3;
        int map[128] = {0};
        const char *argv[2] = {"-iters", "300"};
        sm_solver *s = start(g, t, &m, map, 2, argv);
        for (int i = 0; i < 300 && !s->done; i++) {
            sm_solver_step(s, 1);
            if (i % 25) continue;
            sm_eval ref;
            sm_eval_reference(g, t, &m, s->current_map, &ref);
            if (r == SM_ROUNDS_COLOURING) assert_int_equal(s->current.rounds, ref.rounds);
            tu_assert_close(s->current.energy, ref.energy, 1e-9, "step energy");
            tu_assert_close(s->current.time, ref.time, 1e-12, "step time");
        }
        sm_eval ref;
        sm_eval_reference(g, t, &m, s->best_map, &ref);
        tu_assert_close(s->best.energy, ref.energy, 1e-9, "best energy");
        sm_solver_free(s);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

static void same_seed_same_result(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(6, 6, 2, 0, 0, 0, SM_ST_27PT);
    sm_topo *t = tu_thesis("cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    int map[72] = {0}, a[72], b[72], c[72];
    const char *seed1[6] = {"-iters", "400", "-seed", "5", "-from", "heuristics"};
    const char *seed2[6] = {"-iters", "400", "-seed", "6", "-from", "heuristics"};
    int *out[3] = {a, b, c};
    const char *const *args[3] = {seed1, seed1, seed2};
    for (int i = 0; i < 3; i++) {
        sm_solver *s = start(g, t, &m, map, 6, args[i]);
        sm_solver_step(s, 1000);
        memcpy(out[i], s->best_map, sizeof a);
        sm_solver_free(s);
    }
    assert_memory_equal(a, b, sizeof a);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void never_worse_than_start(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu gpu");
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = 1;
    m.deadline = 3.3e-3;
    int map[128];
    unsigned long long rs = 3;
    for (int trial = 0; trial < 5; trial++) {
        for (int u = 0; u < 128; u++) map[u] = (int)(sm_rand_next(&rs) % 2);
        sm_eval before;
        sm_eval_reference(g, t, &m, map, &before);
        const char *argv[6] = {"-iters", "200", "-from", "current", "-seed", "9"};
        sm_solver *s = start(g, t, &m, map, 6, argv);
        sm_solver_step(s, 1000);
        assert_true(sm_eval_compare(&s->best, &before) <= 0);
        sm_solver_free(s);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

static void finds_enumerated_optimum(void **st)
{
    (void)st;
    /* 4 x 2 blocks on cpu + 2 gpus: 3^8 = 6561 mappings. */
    sm_grid *g = tu_grid(4, 2, 1, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu gpu gpu");
    for (int dl = 0; dl < 3; dl++) {
        sm_model m;
        sm_model_default(&m);
        m.has_deadline = dl > 0;
        m.deadline = dl == 1 ? 1.2e-4 : 2.3e-4;
        sm_eval want;
        tu_enumerate(g, t, &m, &want);
        int zero[8] = {0};
        const char *argv[4] = {"-iters", "600", "-from", "current"};
        sm_solver *s = start(g, t, &m, zero, 4, argv);
        sm_solver_step(s, 1000);
        assert_int_equal(s->best.feasible, want.feasible);
        tu_assert_close(s->best.energy, want.energy, 1e-9, "tabu vs enumeration");
        sm_solver_free(s);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

static void reaches_published_optima(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    struct { const char *kinds; double deadline, energy; } cases[] = {
        {"cpu gpu", 3.22e-3, 2.6586}, {"cpu cpu gpu gpu", 3.22e-3, 2.2703}, {"cpu cpu", 14.00e-3, 5.2745}};
    for (int i = 0; i < 3; i++) {
        sm_topo *t = tu_thesis(cases[i].kinds);
        sm_model m;
        sm_model_default(&m);
        m.has_deadline = 1;
        m.deadline = cases[i].deadline;
        int map[128] = {0};
        const char *argv[2] = {"-iters", "3000"};
        sm_solver *s = start(g, t, &m, map, 2, argv);
        sm_solver_step(s, 5000);
        assert_true(s->best.feasible);
        if (!(s->best.energy <= cases[i].energy + 5e-5))
            fail_msg("%s: %.6f J, published %.4f", cases[i].kinds, s->best.energy, cases[i].energy);
        sm_solver_free(s);
        sm_topo_free(t);
    }
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steps_match_full_evaluation),
        cmocka_unit_test(same_seed_same_result),
        cmocka_unit_test(never_worse_than_start),
        cmocka_unit_test(finds_enumerated_optimum),
        cmocka_unit_test(reaches_published_optima),
    };
    return cmocka_run_group_tests_name("tabu", tests, NULL, NULL);
}
