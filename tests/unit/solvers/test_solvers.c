/* test_solvers.c - heuristics checked by hand on small grids, the ILP
 * against exhaustive enumeration, stepping and interruption. */
#include "solvers/solver_registry.h"
#include "tests/unit/testutil.h"
#include "solvers/stepper/solver_stepper.h"

static sm_topo *identical(int n)
{
    char buf[4096];
    int len = snprintf(buf, sizeof buf,
                       "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{\"c\":{\"time_per_cell\":1e-9,"
                       "\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},\"processors\":[");
    for (int i = 0; i < n; i++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%s{\"name\":\"c%d\",\"type\":\"c\",\"node\":0}", i ? "," : "", i);
    snprintf(buf + len, sizeof buf - (size_t)len,
             "],\"network\":{\"kind\":\"single\"},\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}}}}");
    return tu_topo_text(buf);
}

static void run(const char *name, const sm_grid *g, const sm_topo *t, const sm_model *m, int argc,
                const char *const *argv, int *out)
{
    sm_err e;
    int *start = calloc((size_t)g->ntasks, sizeof(int));
    sm_solver *s = sm_solver_new(sm_solver_find(name), g, t, m, start, argc, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    sm_solver_step(s, 1000000);
    assert_true(s->done);
    assert_true(s->has_best);
    memcpy(out, s->best_map, sizeof(int) * (size_t)g->ntasks);
    sm_solver_free(s);
    free(start);
}

static void heuristics_by_hand(void **st)
{
    (void)st;
    /* 4 x 2 blocks, 7pt, two identical processors: each takes 4. */
    sm_grid *g = tu_grid(4, 2, 1, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = identical(2);
    sm_model m;
    sm_model_default(&m);
    int map[8];
    const int row[8] = {0, 0, 0, 0, 1, 1, 1, 1}, square[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    run("lb", g, t, &m, 0, NULL, map);
    assert_memory_equal(map, row, sizeof row);
    /* na f=1: block 1 (largest degree), then 0, 2, 3 by accumulated
     * neighbours: the first row. */
    const char *na[2] = {"-f", "1"};
    run("na", g, t, &m, 2, na, map);
    assert_memory_equal(map, row, sizeof row);
    /* dm: 0 (degree 2), 4 (1 left), 1, 5: a 2 x 2 square. */
    run("dm", g, t, &m, 0, NULL, map);
    assert_memory_equal(map, square, sizeof square);
    /* mm: 0, then 4 (2 - 2*1 = 0), 1 (1), 5 (3 - 2*2 = -1): a square. */
    run("mm", g, t, &m, 0, NULL, map);
    assert_memory_equal(map, square, sizeof square);
    /* na f=0: after the first block, least boundary deg - N first:
     * 1 (3), then 0 (2-1), then 4 (2-1)... */
    const char *na0[2] = {"-f", "0"};
    run("na", g, t, &m, 2, na0, map);
    const int na0_want[8] = {0, 0, 1, 1, 0, 0, 1, 1};
    assert_memory_equal(map, na0_want, sizeof na0_want);
    sm_topo_free(t);
    sm_grid_free(g);
    /* proportional: 10 blocks on 3 identical processors -> 4, 3, 3. */
    g = tu_grid(10, 1, 1, 0, 0, 0, SM_ST_7PT);
    t = identical(3);
    int pm[10];
    run("proportional", g, t, &m, 0, NULL, pm);
    int count[3] = {0, 0, 0};
    for (int u = 0; u < 10; u++) count[pm[u]]++;
    assert_int_equal(count[0], 4);
    assert_int_equal(count[1], 3);
    assert_int_equal(count[2], 3);
    assert_int_equal(pm[3], 0);
    assert_int_equal(pm[4], 1);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void na_reference_rows(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu gpu");
    sm_model m;
    sm_model_default(&m);
    struct { const char *f; int64_t edges, mrounds; double energy; } rows[] = {
        {"0.1", 224, 56, 3.9635}, {"0.9", 176, 44, 3.2943}, {"1.0", 160, 40, 3.0712}};
    for (int i = 0; i < 3; i++) {
        const char *argv[4] = {"-f", rows[i].f, "-speeds", "floor"};
        int map[128];
        run("na", g, t, &m, 4, argv, map);
        sm_eval ev;
        sm_eval_reference(g, t, &m, map, &ev);
        assert_int_equal(ev.edges, rows[i].edges);
        assert_int_equal(ev.message_rounds, rows[i].mrounds);
        tu_assert_close(ev.time, 3.488e-3, 1e-9, "na time");
        assert_true(fabs(ev.energy - rows[i].energy) < 5e-5);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

static void ilp_matches_enumeration(void **st)
{
    (void)st;
    const char *topos[2] = {
        /* one node, uniform links, a slow and two fast identical ones */
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
        "\"cpu\":{\"time_per_cell\":4e-9,\"energy_per_cell\":3e-8,\"p0\":90,\"p_idle\":10},"
        "\"gpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":5e-9,\"p0\":70,\"p_idle\":30}},"
        "\"processors\":[{\"name\":\"c\",\"type\":\"cpu\",\"node\":0},{\"name\":\"g0\",\"type\":\"gpu\",\"node\":0},"
        "{\"name\":\"g1\",\"type\":\"gpu\",\"node\":0}],\"network\":{\"kind\":\"single\"},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":2e-9,\"energy_per_cell\":4e-6}}}}",
        /* two nodes: links differ by pair */
        "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
        "\"cpu\":{\"time_per_cell\":3e-9,\"energy_per_cell\":3e-8,\"p0\":90,\"p_idle\":10},"
        "\"gpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":5e-9,\"p0\":70,\"p_idle\":30}},"
        "\"processors\":[{\"name\":\"c\",\"type\":\"cpu\",\"node\":0},{\"name\":\"g0\",\"type\":\"gpu\",\"node\":0},"
        "{\"name\":\"g1\",\"type\":\"gpu\",\"node\":1}],\"network\":{\"kind\":\"tree\",\"group_sizes\":[2]},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":2e-6}},"
        "\"inter\":[{\"time_per_cell\":5e-9,\"energy_per_cell\":1e-5}]}}"};
    int instances = 0;
    for (int ti = 0; ti < 2; ti++)
        for (int gi = 0; gi < 2; gi++) {
            sm_grid_spec s;
            sm_grid_spec_default(&s);
            s.blocks[0] = 3; s.blocks[1] = 2; s.blocks[2] = 1;
            s.cells[0] = 48; s.cells[1] = 32; s.cells[2] = 16;
            s.periodic[0] = gi;
            sm_err e;
            sm_grid *g = sm_grid_build(&s, &e);
            sm_topo *t = tu_topo_text(topos[ti]);
            for (int dl = 0; dl < 2; dl++) {
                sm_model m;
                sm_model_default(&m);
                m.round_time = 1e-6;
                m.overlap = dl;
                if (dl) { m.has_deadline = 1; m.deadline = 1.2e-4; }
                sm_eval want;
                tu_enumerate(g, t, &m, &want);
                const char *argv[2] = {"-warm", gi ? "on" : "off"};
                int map[6];
                run("ilp", g, t, &m, 2, argv, map);
                sm_eval got;
                sm_eval_reference(g, t, &m, map, &got);
                assert_int_equal(got.feasible, want.feasible);
                tu_assert_close(got.energy, want.energy, 1e-9, "ilp vs enumeration");
                instances++;
            }
            sm_topo_free(t);
            sm_grid_free(g);
        }
    assert_int_equal(instances, 8);
}

/* An interrupt pauses the ILP inside its solve (SPEC 5: interrupt is
 * pause): the step ends "paused" with the best kept, the next step goes
 * on from where it paused, and stop ends it for good. */
static void interrupt_pauses_then_stop_ends(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = 1;
    m.deadline = 3.22e-3;
    int start[128];
    sm_fill(g, t, SM_SPEEDS_FLOOR, SM_ORDER_JIK, 0, start);
    volatile int flag = 1;
    sm_err e;
    const char *argv[4] = {"-counts", "off", "-timeout", "600"};
    sm_solver *s = sm_solver_new(&sm_solver_ilp, g, t, &m, start, 4, argv, &e);
    assert_non_null(s);
    assert_true(s->has_best); /* the warm start */
    sm_eval warm = s->best;
    s->interrupt = &flag;
    /* A step still ends at an incumbent or a better bound that comes
     * before the first tick (how many depends on the machine's speed);
     * the interrupt pauses the solve at the first tick after them. */
    int k = 0;
    do {
        sm_solver_step(s, 1);
        k++;
    } while (!s->done && strcmp(s->explain.why, "paused") != 0 && k < 1000);
    assert_false(s->done);
    assert_string_equal(s->explain.why, "paused");
    assert_true(s->has_best);
    assert_true(sm_eval_compare(&s->best, &warm) <= 0);
    double el = NAN;
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, "elapsed") == 0) el = s->stats[i].value;
    /* Paused after the first tick, not after the -timeout. */
    assert_true(el >= 0 && el < 5);
    sm_solver_step(s, 1);  /* goes on, to its next event or the next tick */
    assert_false(s->done);
    assert_int_equal(s->iteration, k + 1);
    sm_solver_stop(s);
    assert_true(s->done);
    assert_non_null(strstr(s->status, "stopped"));
    sm_eval check;
    sm_eval_reference(g, t, &m, s->best_map, &check);
    tu_assert_close(check.energy, s->best.energy, 1e-12, "kept mapping is the reported one");
    sm_solver_free(s);  /* the paused solve unwinds */
    sm_topo_free(t);
    sm_grid_free(g);
}

static void stepping_equals_running(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(6, 5, 3, 1, 0, 0, SM_ST_27PT);
    sm_topo *t = tu_thesis("cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    const char *names[5] = {"lb", "na", "dm", "mm", "proportional"};
    int start[90] = {0};
    for (int i = 0; i < 5; i++) {
        sm_err e;
        sm_solver *a = sm_solver_new(sm_solver_find(names[i]), g, t, &m, start, 0, NULL, &e);
        sm_solver *b = sm_solver_new(sm_solver_find(names[i]), g, t, &m, start, 0, NULL, &e);
        long long k = 0;
        while (!a->done) k += sm_solver_step(a, 1);
        sm_solver_step(b, 1000000);
        assert_int_equal(k, 90);
        assert_memory_equal(a->best_map, b->best_map, sizeof start);
        sm_solver_free(a);
        sm_solver_free(b);
    }
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(heuristics_by_hand),
        cmocka_unit_test(na_reference_rows),
        cmocka_unit_test(ilp_matches_enumeration),
        cmocka_unit_test(interrupt_pauses_then_stop_ends),
        cmocka_unit_test(stepping_equals_running),
    };
    return cmocka_run_group_tests_name("solvers", tests, NULL, NULL);
}
