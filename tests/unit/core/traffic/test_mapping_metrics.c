/* test_mapping_metrics.c - hop metrics against Besmer's published LU figures
 * (sweep placement: block b on node b) and hand-checked congestion. */
#include "tests/unit/testutil.h"
#include "core/traffic/mapping_metrics.h"

static void besmer_sweep(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 8, 1, 0, 0, 0, SM_ST_5PT);
    int map[64];
    for (int u = 0; u < 64; u++) map[u] = u;
    sm_metrics m;
    sm_topo *t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[4,4,4]}", 64);
    sm_metrics_compute(g, t, map, &m);
    assert_int_equal(m.hops, 2 * 200); /* published: 200 per pair */
    assert_int_equal(m.hop_cells, 2 * 200 * 64);
    assert_int_equal(m.dilation_max, 3);
    sm_topo_free(t);
    t = tu_one_per_node("{\"kind\":\"haec\",\"boards\":4,\"board_dims\":[4,4]}", 64);
    sm_metrics_compute(g, t, map, &m);
    assert_int_equal(m.hops, 2 * 152);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void congestion_and_cardinality(void **st)
{
    (void)st;
    /* A line of 4 blocks on a 4-node mesh, reversed on the odd ones. */
    sm_grid *g = tu_grid(4, 1, 1, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"mesh\",\"dims\":[4]}", 4);
    int ident[4] = {0, 1, 2, 3}, far[4] = {0, 3, 1, 2};
    sm_metrics m;
    sm_metrics_compute(g, t, ident, &m);
    assert_int_equal(m.hops, 6);
    assert_int_equal(m.congestion, 1);
    assert_int_equal(m.cardinality, 3);
    sm_metrics_compute(g, t, far, &m);
    /* pairs (0,3):3 hops, (3,1):2, (1,2):1 -> 12 directed; link 1->2 is
     * crossed by 0->3 and 3->1's reverse direction 1->... */
    assert_int_equal(m.hops, 12);
    assert_int_equal(m.dilation_max, 3);
    assert_int_equal(m.cardinality, 1);
    assert_int_equal(m.congestion, 3); /* link 1->2 carries 0->3, 1->3, 1->2 */
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(besmer_sweep),
        cmocka_unit_test(congestion_and_cardinality),
    };
    return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
