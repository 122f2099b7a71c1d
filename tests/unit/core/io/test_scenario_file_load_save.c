/* test_scenario_file_load_save.c - every loader (scenario, grid, mapping) rejects bad input with the file, the JSON
 * path and what was expected; saves are atomic and round-trip. */
#include "tests/unit/testutil.h"
#include <unistd.h>
#include "core/io/mapping_file.h"
#include "core/io/scenario_file_load_save_and_its_errors.h"

static const char *grid_ok = "{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2]}";

static void expect_grid_error(const char *text, size_t len, const char *want)
{
    sm_err e;
    sm_grid *g = sm_grid_parse_text(text, len, "g.json", &e);
    if (g) fail_msg("loaded: %.60s", text);
    if (!strstr(e.msg, want) || strncmp(e.msg, "g.json: ", 8) != 0)
        fail_msg("got \"%s\", want \"%s\"", e.msg, want);
}

static void grid_bad_input(void **st)
{
    (void)st;
    sm_err e;
    sm_grid *g = sm_grid_parse_text(grid_ok, strlen(grid_ok), "g.json", &e);
    assert_non_null(g);
    assert_int_equal(g->task_cells[0], 64 * 64 * 64);
    sm_grid_free(g);
    expect_grid_error("", 0, "empty");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2"), "truncated");
    expect_grid_error("\x7f" "ELF\0\1\2", 7, "NUL byte");
    expect_grid_error("[1,2,3]", 7, "(root): expected an object");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":2,\"blocks\":[4,2,2]}", strlen("{\"format\":\"stencilmap/grid\",\"version\":2,\"blocks\":[4,2,2]}"), "version");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,\"2\",2]}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,\"2\",2]}"), "blocks[1]: expected a number");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,-2,2]}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,-2,2]}"), "blocks[1]: expected a whole number");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2.5,2]}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2.5,2]}"), "blocks[1]: expected a whole number");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2],\"stencil\":\"11pt\"}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2],\"stencil\":\"11pt\"}"), "stencil: unknown stencil \"11pt\"");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2],\"halo\":1e400}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2],\"halo\":1e400}"), "halo");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[100000,100000,100000]}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[100000,100000,100000]}"), "blocks: expected at most 33554432 blocks");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2],\"blocks\":[1,1,1]}", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2],\"blocks\":[1,1,1]}"), "blocks: duplicate key");
    expect_grid_error("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2]} x", strlen("{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":[4,2,2]} x"), "near line 1");
    /* Deep nesting: refused as too deep (naming the file), not a stack overflow. */
    size_t n = 200000;
    char *deep = malloc(2 * n + 64);
    strcpy(deep, "{\"format\":\"stencilmap/grid\",\"version\":1,\"blocks\":");
    size_t k = strlen(deep);
    for (size_t i = 0; i < n; i++) deep[k++] = '[';
    for (size_t i = 0; i < n; i++) deep[k++] = ']';
    deep[k++] = '}';
    expect_grid_error(deep, k, "nested deeper than 1000 levels");
    free(deep);
}

static void scenario_bad_input(void **st)
{
    (void)st;
    const char *base = "{\"format\":\"stencilmap/scenario\",\"version\":1,\"grid\":{\"blocks\":[2,1,1]},"
                       "\"topology\":{\"format\":\"stencilmap/topology\",\"version\":1,"
                       "\"types\":{\"c\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
                       "\"processors\":[{\"name\":\"c0\",\"type\":\"c\",\"node\":0},{\"name\":\"c1\",\"type\":\"c\",\"node\":0}],"
                       "\"network\":{\"kind\":\"single\"},"
                       "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}}}}";
    char buf[2048];
    sm_scenario sc;
    sm_err e;
    snprintf(buf, sizeof buf, "%s,\"mapping\":[\"c1\",0],\"model\":{\"rounds\":\"vizing\",\"deadline\":0.5}}", base);
    assert_int_equal(sm_scenario_parse_text(buf, strlen(buf), "s.json", ".", &sc, &e), 0);
    assert_int_equal(sc.map[0], 1);
    assert_int_equal(sc.map[1], 0);
    assert_int_equal(sc.model.rounds, SM_ROUNDS_VIZING);
    assert_true(sc.model.has_deadline && sc.model.deadline == 0.5);
    sm_scenario_release(&sc);
    struct { const char *tail, *want; } bad[] = {
        {",\"mapping\":[\"c1\"]}", "mapping: expected 2 entries"},
        {",\"mapping\":[\"c1\",\"c9\"]}", "mapping[1]: unknown processor \"c9\""},
        {",\"mapping\":[\"c1\",7]}", "mapping[1]: expected a processor index"},
        {",\"model\":{\"rounds\":\"fast\"}}", "model.rounds: expected maxdeg, vizing or colouring"},
        {",\"model\":{\"round_time\":-1}}", "model.round_time: expected a number in"},
        {",\"model\":{\"deadline\":\"soon\"}}", "model.deadline: expected a number"},
        {",\"extra\":1}", "extra: unknown key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(buf, sizeof buf, "%s%s", base, bad[i].tail);
        if (sm_scenario_parse_text(buf, strlen(buf), "s.json", ".", &sc, &e) == 0)
            fail_msg("case %zu loaded", i);
        if (!strstr(e.msg, bad[i].want) || strncmp(e.msg, "s.json: ", 8) != 0)
            fail_msg("case %zu: got \"%s\"", i, e.msg);
    }
    const char *missing = "{\"format\":\"stencilmap/scenario\",\"version\":1,\"grid\":{\"blocks\":[2,1,1]},\"topology\":\"nowhere/t.json\"}";
    assert_int_equal(sm_scenario_parse_text(missing, strlen(missing), "s.json", "/tmp", &sc, &e), -1);
    assert_non_null(strstr(e.msg, "s.json: topology: /tmp/nowhere/t.json: cannot open"));
}

static void mapping_and_part(void **st)
{
    (void)st;
    sm_topo *t = tu_thesis("cpu gpu");
    int map[4] = {9, 9, 9, 9};
    sm_err e;
    const char *ok = "{\"format\":\"stencilmap/mapping\",\"version\":1,\"blocks\":4,\"mapping\":[\"gpu0\",0,1,\"cpu0\"]}";
    assert_int_equal(sm_mapping_parse_text(ok, strlen(ok), "m.json", t, 4, map, &e), 0);
    assert_int_equal(map[0], 1);
    assert_int_equal(map[3], 0);
    const char *wrong = "{\"format\":\"stencilmap/mapping\",\"version\":1,\"blocks\":5,\"mapping\":[0,0,0,0,0]}";
    assert_int_equal(sm_mapping_parse_text(wrong, strlen(wrong), "m.json", t, 4, map, &e), -1);
    assert_non_null(strstr(e.msg, "m.json: blocks: expected 4"));
    assert_int_equal(map[0], 1); /* unchanged */
    assert_int_equal(sm_part_parse_text("0\n1\n% comment\n1\n0\n", 18, "p.part", 2, 4, map, &e), 0);
    assert_int_equal(map[1], 1);
    assert_int_equal(sm_part_parse_text("0\n1\n2\n0\n", 8, "p.part", 2, 4, map, &e), -1);
    assert_non_null(strstr(e.msg, "p.part: line 3: expected a processor index in [0, 2)"));
    assert_int_equal(sm_part_parse_text("0\n1\n", 4, "p.part", 2, 4, map, &e), -1);
    assert_non_null(strstr(e.msg, "expected 4 lines"));
    assert_int_equal(sm_part_parse_text("0\n-1\n0\n0\n", 9, "p.part", 2, 4, map, &e), -1);
    sm_topo_free(t);
}

/* Names are found by a sorted index, not a linear search: every name of
 * 120 processors (p0..p119, whose name order is not their index order)
 * resolves to the processor sm_topo_find_proc names, runs of one name
 * included, and an unknown name is reported with its JSON path. */
static void mapping_names_resolve(void **st)
{
    (void)st;
    int P = 120, n = 300;
    sm_topo *t = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[8]}", P);
    char *text = malloc(16 * (size_t)n + 256);
    int len = sprintf(text, "{\"format\":\"stencilmap/mapping\",\"version\":1,\"mapping\":[");
    int *want = malloc(sizeof(int) * (size_t)n), *map = malloc(sizeof(int) * (size_t)n);
    unsigned seed = 5;
    for (int i = 0; i < n; i++) {
        want[i] = i % 7 < 3 && i ? want[i - 1] : rand_r(&seed) % P;
        len += sprintf(text + len, "%s\"p%d\"", i ? "," : "", want[i]);
    }
    len += sprintf(text + len, "]}");
    sm_err e;
    assert_int_equal(sm_mapping_parse_text(text, (size_t)len, "m.json", t, n, map, &e), 0);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", want[i]);
        assert_int_equal(map[i], sm_topo_find_proc(t, name));
        assert_int_equal(map[i], want[i]);
    }
    char *bad = strstr(text, "\"p");
    bad = strstr(strstr(bad + 1, ",") + 1, "\"p");   /* the second entry */
    bad[1] = 'q';
    assert_int_equal(sm_mapping_parse_text(text, (size_t)len, "m.json", t, n, map, &e), -1);
    assert_non_null(strstr(e.msg, "mapping[1]: unknown processor \"q"));
    free(text);
    free(want);
    free(map);
    sm_topo_free(t);
}

static void atomic_save_round_trip(void **st)
{
    (void)st;
    char dir[] = "/tmp/smtestXXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/s.json", dir);
    sm_grid *g = tu_grid(8, 4, 4, 1, 1, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    m.rounds = SM_ROUNDS_COLOURING;
    m.has_deadline = 1;
    m.deadline = 3.22e-3;
    int map[128];
    sm_fill(g, t, SM_SPEEDS_EXACT, SM_ORDER_JIK, 0, map);
    sm_err e;
    assert_int_equal(sm_scenario_save(path, g, t, &m, map, SM_MAPPING_AUTO, &e), 0);
    sm_scenario sc;
    assert_int_equal(sm_scenario_load(path, &sc, &e), 0);
    assert_int_equal(sc.grid->nedges, 704);
    assert_int_equal(sc.topo->nprocs, 4);
    assert_int_equal(sc.model.rounds, SM_ROUNDS_COLOURING);
    assert_memory_equal(sc.map, map, sizeof map);
    sm_eval a, b;
    sm_eval_reference(g, t, &m, map, &a);
    sm_eval_reference(sc.grid, sc.topo, &sc.model, sc.map, &b);
    assert_true(a.energy == b.energy && a.time == b.time);
    sm_scenario_release(&sc);
    /* A failed write leaves the old file and no temporary behind. */
    char bad[300];
    snprintf(bad, sizeof bad, "%s/missing-dir/x.json", dir);
    assert_int_equal(sm_scenario_save(bad, g, t, &m, map, SM_MAPPING_AUTO, &e), -1);
    assert_non_null(strstr(e.msg, "missing-dir/x.json"));
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test $(ls %s | wc -l) -eq 1 && rm -rf %s", dir, dir);
    assert_int_equal(system(cmd), 0);
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grid_bad_input),
        cmocka_unit_test(scenario_bad_input),
        cmocka_unit_test(mapping_and_part),
        cmocka_unit_test(mapping_names_resolve),
        cmocka_unit_test(atomic_save_round_trip),
    };
    return cmocka_run_group_tests_name("files", tests, NULL, NULL);
}
