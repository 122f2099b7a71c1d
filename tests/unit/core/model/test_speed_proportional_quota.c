/* test_speed_proportional_quota.c - lb's fill held to memory: the shares a processor's memory
 * cannot hold go to the others by speed, and nothing is left past memory. */
#include "tests/unit/testutil.h"
#include "core/model/speed_proportional_quota.h"

/* Two CPUs and two GPUs (the thesis's speeds), the GPUs holding gpu
 * 64^3-cell blocks (8 bytes a cell); gpu <= 0: no memory given. */
static sm_topo *machine(double gpu)
{
    char mem[96] = "";
    if (gpu > 0) snprintf(mem, sizeof mem, ",\"memory\":%.17g,\"bytes_per_cell\":8", gpu * BLOCK_CELLS * 8);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"format\":\"stencilmap/topology\",\"version\":1,"
             "\"types\":{\"cpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":1e-9,\"p0\":90,\"p_idle\":10},"
             "\"gpu\":{\"time_per_cell\":%.17g,\"energy_per_cell\":1e-9,\"p0\":74,\"p_idle\":30%s}},"
             "\"processors\":[{\"name\":\"c0\",\"type\":\"cpu\",\"node\":0},{\"name\":\"g0\",\"type\":\"gpu\",\"node\":0},"
             "{\"name\":\"c1\",\"type\":\"cpu\",\"node\":0},{\"name\":\"g1\",\"type\":\"gpu\",\"node\":0}],"
             "\"network\":{\"kind\":\"single\"},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}}}}",
             218e-6 / BLOCK_CELLS, 28e-6 / BLOCK_CELLS, mem);
    return tu_topo_text(text);
}

static void count(const sm_grid *g, const int *map, int *per)
{
    for (int p = 0; p < 4; p++) per[p] = 0;
    for (int u = 0; u < g->ntasks; u++) per[map[u]]++;
}

static void memory_limits_water_fill(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(16, 8, 8, 0, 0, 0, SM_ST_7PT); /* 1024 blocks */
    double lb[4], lim[4];
    int *map = malloc(sizeof(int) * 1024), per[4];
    /* No memory, or memory past the shares (a GPU's is ~454 blocks):
     * lb's own limits. */
    for (int k = 0; k < 2; k++) {
        sm_topo *t = machine(k ? 500 : 0);
        sm_fill_limits(g, t, SM_SPEEDS_EXACT, lb);
        assert_int_equal(sm_fill_limits_memory(g, t, SM_SPEEDS_EXACT, lim), 0);
        for (int p = 0; p < 4; p++) assert_true(lim[p] == lb[p]);
        sm_topo_free(t);
    }
    /* GPUs hold 300: they get 300 each, the CPUs share 424. */
    sm_topo *t = machine(300);
    sm_fill_limits(g, t, SM_SPEEDS_EXACT, lb);
    assert_true(lb[1] > 300);
    assert_int_equal(sm_fill_limits_memory(g, t, SM_SPEEDS_EXACT, lim), 1);
    tu_assert_close(lim[1], 300, 1e-12, "gpu 0");
    tu_assert_close(lim[3], 300, 1e-12, "gpu 1");
    tu_assert_close(lim[0], 212, 1e-12, "cpu 0");
    tu_assert_close(lim[2], 212, 1e-12, "cpu 1");
    for (sm_order o = SM_ORDER_IJK; o <= SM_ORDER_KIJ; o++) {
        assert_int_equal(sm_fill_memory(g, t, SM_SPEEDS_EXACT, o, 1, map), 1);
        count(g, map, per);
        assert_int_equal(per[0], 212);
        assert_int_equal(per[1], 300);
        assert_int_equal(per[2], 212);
        assert_int_equal(per[3], 300);
        sm_eval ev;
        sm_model m;
        sm_model_default(&m);
        sm_eval_reference(g, t, &m, map, &ev);
        assert_true(ev.memory_ok);
    }
    sm_topo_free(t);
    /* GPUs hold 10, and a CPU's speed share of the rest (1004) fits: the
     * CPUs are not capped (no memory given), so all of it goes there. */
    t = machine(10);
    assert_int_equal(sm_fill_memory(g, t, SM_SPEEDS_EXACT, SM_ORDER_JIK, 1, map), 1);
    count(g, map, per);
    assert_int_equal(per[1] + per[3], 20);
    assert_int_equal(per[0] + per[2], 1004);
    sm_topo_free(t);
    free(map);
    sm_grid_free(g);
}

/* When every processor has memory and together they cannot hold the
 * grid, the limits stay lb's and the answer says so. */
static void memory_too_small_says_so(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 8, 8, 0, 0, 0, SM_ST_7PT);
    const char *text =
        "{\"format\":\"stencilmap/topology\",\"version\":1,"
        "\"types\":{\"n\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1,"
        "\"memory\":209715200,\"bytes_per_cell\":8}},"
        "\"processors\":[{\"name\":\"a\",\"type\":\"n\",\"node\":0},{\"name\":\"b\",\"type\":\"n\",\"node\":0}],"
        "\"network\":{\"kind\":\"single\"},"
        "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}}}}";
    sm_topo *t = tu_topo_text(text); /* 100 blocks each, 512 to place */
    double lb[2], lim[2];
    sm_fill_limits(g, t, SM_SPEEDS_EXACT, lb);
    assert_int_equal(sm_fill_limits_memory(g, t, SM_SPEEDS_EXACT, lim), -1);
    assert_true(lim[0] == lb[0] && lim[1] == lb[1]);
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memory_limits_water_fill),
        cmocka_unit_test(memory_too_small_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
