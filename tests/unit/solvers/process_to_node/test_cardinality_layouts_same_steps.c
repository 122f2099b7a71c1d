/* test_cardinality_layouts_same_steps.c - the solvers that score the
 * cardinality objective take the same steps with either layout of its
 * state: records (the copy of the neighbour lists, below
 * SM_CARD_RECORDS_MAX) and compact (each block's node and count, above
 * it; forced here by setting the budget to nothing). Every step's move,
 * objective, current and best energy, and the best mapping at the end,
 * compared bit for bit: a layout that scored one partner differently
 * would send the search elsewhere. */
#include "tests/unit/testutil.h"
#include "core/traffic/solver_objectives.h"
#include "solvers/solver_registry.h"

typedef struct {
    char move[160];
    double objective, current, best;
} step_seen;

/* The steps of one run (at most max), as `solve` runs it (recorded). */
static int run(const char *name, int argc, const char *const *argv, const sm_grid *g, const sm_topo *t,
               step_seen *out, int max, int *best_map)
{
    int n = g->ntasks;
    int *startmap = calloc((size_t)n, sizeof(int));
    for (int b = 0; b < n; b++) startmap[b] = b % t->nprocs;
    sm_model m;
    sm_model_default(&m);
    sm_err e;
    sm_solver *s = sm_solver_new(sm_solver_find(name), g, t, &m, startmap, argc, argv, &e);
    if (!s) fail_msg("%s: %s", name, e.msg);
    sm_solver_history_on(s);
    int k = 0;
    while (!s->done && k < max) {
        assert_int_equal(sm_solver_step(s, 1), 1);
        step_seen *x = &out[k++];
        memset(x, 0, sizeof *x);
        snprintf(x->move, sizeof x->move, "%s", s->last_move);
        x->objective = sm_solver_objective_now(s);
        x->current = s->has_current ? s->current.energy : -1;
        x->best = s->best.energy;
    }
    memcpy(best_map, s->best_map, sizeof(int) * (size_t)n);
    sm_solver_free(s);
    free(startmap);
    return k;
}

static void same_steps(const char *name, int argc, const char *const *argv, const sm_grid *g, const sm_topo *t,
                       int max)
{
    int n = g->ntasks;
    step_seen *a = malloc(sizeof *a * (size_t)max), *b = malloc(sizeof *b * (size_t)max);
    int *ma = malloc(sizeof(int) * (size_t)n), *mb = malloc(sizeof(int) * (size_t)n);
    int ka = run(name, argc, argv, g, t, a, max, ma);
    int64_t was = sm_objective_set_card_records_max(0);
    int kb = run(name, argc, argv, g, t, b, max, mb);
    sm_objective_set_card_records_max(was);
    if (ka != kb || ka < 5) fail_msg("%s %s: %d steps with records, %d compact", name, argv[0], ka, kb);
    printf("%s %s: %d steps\n", name, argc > 2 ? argv[2] : argv[0], ka);
    int moved = 0;
    for (int k = 0; k < ka; k++) {
        /* Bit for bit (minmd's objective is NaN while it places). */
        if (strcmp(a[k].move, b[k].move) || memcmp(&a[k].objective, &b[k].objective, sizeof(double)) ||
            memcmp(&a[k].current, &b[k].current, sizeof(double)) || memcmp(&a[k].best, &b[k].best, sizeof(double)))
            fail_msg("%s, step %d: records \"%s\" %.17g %.17g %.17g; compact \"%s\" %.17g %.17g %.17g", name, k + 1,
                     a[k].move, a[k].objective, a[k].current, a[k].best, b[k].move, b[k].objective, b[k].current,
                     b[k].best);
        moved += k > 0 && a[k].objective != a[k - 1].objective && a[k].objective == a[k].objective;
    }
    assert_true(moved > 0); /* the objective changed along the way */
    assert_memory_equal(ma, mb, sizeof(int) * (size_t)n);
    free(a);
    free(b);
    free(ma);
    free(mb);
}

static void bokhari_and_tabu(void **st)
{
    (void)st;
    /* 2-D 5-point on a HAEC box of one processor a node (bokhari's
     * published instance's shape), 3-D 27-point on a torus of two a node. */
    sm_grid *g5 = tu_grid(16, 16, 1, 0, 0, 0, SM_ST_5PT);
    sm_grid *g27 = tu_grid(6, 6, 4, 1, 0, 0, SM_ST_27PT);
    sm_topo *haec = tu_one_per_node("{\"kind\":\"haec\",\"boards\":4,\"board_dims\":[4,4]}", 64);
    sm_topo *torus = tu_topo_text(
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"n\":{\"time_per_cell\":1e-9,"
        "\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},\"processors\":["
        "{\"name\":\"a0\",\"type\":\"n\",\"node\":0},{\"name\":\"b0\",\"type\":\"n\",\"node\":0},"
        "{\"name\":\"a1\",\"type\":\"n\",\"node\":1},{\"name\":\"b1\",\"type\":\"n\",\"node\":1},"
        "{\"name\":\"a2\",\"type\":\"n\",\"node\":2},{\"name\":\"b2\",\"type\":\"n\",\"node\":2},"
        "{\"name\":\"a3\",\"type\":\"n\",\"node\":3},{\"name\":\"b3\",\"type\":\"n\",\"node\":3},"
        "{\"name\":\"a4\",\"type\":\"n\",\"node\":4},{\"name\":\"b4\",\"type\":\"n\",\"node\":4},"
        "{\"name\":\"a5\",\"type\":\"n\",\"node\":5},{\"name\":\"b5\",\"type\":\"n\",\"node\":5},"
        "{\"name\":\"a6\",\"type\":\"n\",\"node\":6},{\"name\":\"b6\",\"type\":\"n\",\"node\":6},"
        "{\"name\":\"a7\",\"type\":\"n\",\"node\":7},{\"name\":\"b7\",\"type\":\"n\",\"node\":7}],"
        "\"network\":{\"kind\":\"torus\",\"dims\":[2,2,2]},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-10,\"energy_per_cell\":1e-10}},"
        "\"inter\":[{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}]}}");
    static const char *const bok[] = {"-seed", "1"};
    static const char *const bok_pub[] = {"-seed", "3", "-variant", "published"};
    static const char *const bok_win[] = {"-seed", "2", "-window", "16"};
    static const char *const tabu[] = {"-objective", "cardinality", "-iters", "150", "-multilevel", "off",
                                       "-threads", "1"};
    static const char *const ga[] = {"-objective", "cardinality", "-population", "16", "-generations", "40",
                                     "-seed", "4"};
    static const char *const minmd[] = {"-objective", "cardinality"};
    same_steps("bokhari", 2, bok, g5, haec, 4000);
    same_steps("bokhari", 4, bok_pub, g5, haec, 4000);
    same_steps("bokhari", 4, bok_win, g27, torus, 4000);
    same_steps("tabu", 8, tabu, g27, torus, 200);
    same_steps("tabu", 8, tabu, g5, haec, 200);
    same_steps("ga", 8, ga, g5, haec, 200);
    same_steps("minmd", 2, minmd, g27, torus, 4000);
    sm_topo_free(torus);
    sm_topo_free(haec);
    sm_grid_free(g27);
    sm_grid_free(g5);
}

static int budget_back(void **st)
{
    (void)st;
    sm_objective_set_card_records_max(SM_CARD_RECORDS_MAX);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(bokhari_and_tabu, budget_back),
    };
    return cmocka_run_group_tests_name("cardinality_layouts_same_steps", tests, NULL, NULL);
}
