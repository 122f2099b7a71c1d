/* test_node_layout_degree_balance.c - a node's blocks swapped among its
 * own processors (solvers/tabu/node_layout_degree_balance.c) lower the
 * busiest one's degree (as the cost model counts it) to the target, keep
 * each processor's block count and leave every other node alone. */
#include "tests/unit/testutil.h"
#include "core/model/cost_incremental.h"
#include "solvers/tabu/node_layout_degree_balance.h"

/* Two nodes of four GPUs; an intra-node message takes 2 quanta, an
 * inter-node one 4. */
static sm_topo *two_nodes(void)
{
    char procs[1024] = "", buf[96];
    for (int p = 0; p < 8; p++) {
        snprintf(buf, sizeof buf, "%s{\"name\":\"n%d.g%d\",\"type\":\"gpu\",\"node\":%d}", p ? "," : "", p / 4,
                 p % 4, p / 4);
        strcat(procs, buf);
    }
    char text[4096];
    snprintf(text, sizeof text,
             "{\"format\":\"stencilmap/topology\",\"version\":1,"
             "\"types\":{\"gpu\":{\"time_per_cell\":5e-11,\"energy_per_cell\":1e-9,\"p0\":74,\"p_idle\":30}},"
             "\"processors\":[%s],\"network\":{\"kind\":\"tree\",\"group_sizes\":[18]},"
             "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":4.8e-10,\"energy_per_cell\":1e-9}},"
             "\"inter\":[{\"time_per_cell\":9.6e-10,\"energy_per_cell\":2e-8},"
             "{\"time_per_cell\":9.6e-10,\"energy_per_cell\":2e-8}]}}",
             procs);
    return tu_topo_text(text);
}

static int64_t max_deg(const sm_cost *c, int from, int to)
{
    int64_t d = 0;
    for (int p = from; p < to; p++)
        if (c->deg[p] > d) d = c->deg[p];
    return d;
}

/* 8x4x4 blocks, node 0 holding x < 4 as four slabs across x, one a
 * processor: the slab at x = 3 carries all 16 of the node's inter-node
 * faces (16 x 2 x 4 quanta) besides its 16 intra-node ones. With every
 * processor full (capacity 16), only swaps rearrange it: the busiest
 * degree falls to at most 3/4 of what it was. */
static void swaps_share_a_nodes_surface(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = two_nodes();
    sm_model m;
    sm_model_default(&m);
    m.rounds = SM_ROUNDS_MAXDEG;
    m.round_time = 1e-6;
    m.has_deadline = 1;
    m.deadline = 1e-3;
    int n = g->ntasks, map[128], before[128], blocks[64], nb = 0;
    for (int u = 0; u < n; u++) {
        int c[3];
        sm_grid_coords(g, u, c);
        map[u] = c[0] < 4 ? c[0] : 4 + (c[1] + 4 * c[2]) % 4;
        if (c[0] < 4) blocks[nb++] = u;
    }
    memcpy(before, map, sizeof map);
    sm_cost *c0 = sm_cost_new(g, t, &m, map);
    int64_t from = max_deg(c0, 0, 4), other = max_deg(c0, 4, 8);
    assert_int_equal(from, c0->deg[3]);
    assert_int_equal(from, 16 * 2 * 4 + 16 * 2 * 2);
    int procs[4] = {0, 1, 2, 3}, cap[4] = {16, 16, 16, 16};
    int64_t target = from * 3 / 4, high = -1;
    int steps = sm_node_degree_balance(g, t, &m, map, blocks, nb, procs, 4, cap, target, nb, &high);
    assert_true(steps > 0);
    sm_cost *c1 = sm_cost_new(g, t, &m, map);
    if (!(max_deg(c1, 0, 4) <= target)) fail_msg("busiest %lld > %lld", (long long)max_deg(c1, 0, 4), (long long)target);
    assert_int_equal(high, max_deg(c1, 0, 4));
    /* The other node's degrees and blocks as they were. */
    assert_int_equal(max_deg(c1, 4, 8), other);
    for (int p = 4; p < 8; p++) assert_int_equal(c1->deg[p], c0->deg[p]);
    int count[8] = {0}, count0[8] = {0};
    for (int u = 0; u < n; u++) {
        count[map[u]]++;
        count0[before[u]]++;
        assert_int_equal(map[u] < 4, before[u] < 4);
        if (before[u] >= 4) assert_int_equal(map[u], before[u]);
    }
    assert_memory_equal(count, count0, sizeof count);
    /* The same steps from the same mapping. */
    int again[128];
    memcpy(again, before, sizeof again);
    sm_node_degree_balance(g, t, &m, again, blocks, nb, procs, 4, cap, target, nb, &high);
    assert_memory_equal(again, map, sizeof again);
    sm_cost_free(c0);
    sm_cost_free(c1);
    sm_topo_free(t);
    sm_grid_free(g);
}

/* Already within the target: nothing moves. */
static void within_target_nothing_moves(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = two_nodes();
    sm_model m;
    sm_model_default(&m);
    m.round_time = 1e-6;
    int n = g->ntasks, map[128], before[128], blocks[64], nb = 0;
    for (int u = 0; u < n; u++) {
        int c[3];
        sm_grid_coords(g, u, c);
        map[u] = c[0] < 4 ? c[0] : 4;
        if (c[0] < 4) blocks[nb++] = u;
    }
    memcpy(before, map, sizeof map);
    int procs[4] = {0, 1, 2, 3}, cap[4] = {16, 16, 16, 16};
    int64_t high = -1;
    assert_int_equal(sm_node_degree_balance(g, t, &m, map, blocks, nb, procs, 4, cap, 1000, nb, &high), 0);
    assert_memory_equal(map, before, sizeof map);
    assert_int_equal(high, 16 * 2 * 4 + 16 * 2 * 2);
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(swaps_share_a_nodes_surface),
        cmocka_unit_test(within_target_nothing_moves),
    };
    return cmocka_run_group_tests_name("node_layout_degree_balance", tests, NULL, NULL);
}
