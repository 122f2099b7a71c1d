/* test_tree_loads.c - a tree's uplink loads updated move by move equal
 * the loads counted again from every edge, and sm_links_tree's. */
#include "tests/unit/testutil.h"
#include "core/traffic/link_loads.h"
#include "core/traffic/tree_loads.h"

static unsigned long long rng = 12345;
static int rnd(int n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (int)((rng >> 33) % (unsigned long long)n);
}

/* tl's loads are exactly sm_links_tree's for map. */
static void same_as_links_tree(const sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map)
{
    sm_tree_link *ref;
    sm_err e;
    int k = sm_links_tree(g, t, map, &ref, &e);
    assert_true(k >= 0);
    int64_t sum_ref = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        int L = ref[i].level, x = ref[i].index;
        assert_true(L < tl->nlevels && x < tl->groups[L]);
        assert_int_equal(tl->up_m[L][x], ref[i].up_messages);
        assert_int_equal(tl->up_c[L][x], ref[i].up_cells);
        assert_int_equal(tl->dn_m[L][x], ref[i].down_messages);
        assert_int_equal(tl->dn_c[L][x], ref[i].down_cells);
        sum_ref += ref[i].up_cells + ref[i].down_cells + ref[i].up_messages + ref[i].down_messages;
    }
    /* And nothing where sm_links_tree has no load. */
    for (int L = 0; L < tl->nlevels; L++)
        for (int x = 0; x < tl->groups[L]; x++) sum += tl->up_m[L][x] + tl->up_c[L][x] + tl->dn_m[L][x] + tl->dn_c[L][x];
    assert_int_equal(sum, sum_ref);
    free(ref);
}

/* Each uplink's crossing pairs add up to its loads (routes walked), both
 * ways, and sm_links_tree_crosses agrees with every pair listed. */
static void crossings_match_loads(const sm_tree_loads *tl, const sm_grid *g, const sm_topo *t, const int *map)
{
    for (int L = 0; L < tl->nlevels; L++)
        for (int x = 0; x < tl->groups[L]; x++)
            for (int d = 0; d < 2; d++) {
                sm_link_pair *pairs;
                sm_err e;
                int n = sm_links_tree_crossing(g, t, map, L, x, d, &pairs, &e);
                assert_true(n >= 0);
                int64_t m = 0, c = 0;
                for (int i = 0; i < n; i++) {
                    m += pairs[i].messages;
                    c += pairs[i].cells;
                    assert_true(sm_links_tree_crosses(t->net, t->procs[pairs[i].src].node,
                                                      t->procs[pairs[i].dst].node, L, x, d));
                    if (i) assert_true(pairs[i - 1].src < pairs[i].src ||
                                       (pairs[i - 1].src == pairs[i].src && pairs[i - 1].dst < pairs[i].dst));
                }
                assert_int_equal(m, d ? tl->dn_m[L][x] : tl->up_m[L][x]);
                assert_int_equal(c, d ? tl->dn_c[L][x] : tl->up_c[L][x]);
                free(pairs);
            }
}

static void updates_match_recount(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 8, 4, 1, 0, 0, SM_ST_27PT);
    sm_topo *t = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[4]}", 16);
    int n = g->ntasks;
    int *map = malloc(sizeof(int) * (size_t)n);
    for (int u = 0; u < n; u++) map[u] = u * 16 / n;
    sm_tree_loads tl = {0};
    sm_tree_loads_init(&tl, g, t, map);
    assert_int_equal(tl.nlevels, 2);
    assert_int_equal(tl.groups[0], 16);
    assert_int_equal(tl.groups[1], 4);
    same_as_links_tree(&tl, g, t, map);
    for (int round = 0; round < 300; round++) {
        /* One to four blocks, often neighbours (both ends of an edge moved). */
        int moves = 1 + rnd(4), u = rnd(n);
        for (int m = 0; m < moves; m++) {
            map[u] = rnd(16);
            u = g->nbr[g->nbr_off[u] + rnd(g->nbr_off[u + 1] - g->nbr_off[u])];
        }
        assert_int_equal(sm_tree_loads_update(&tl, g, t, map, 4), 1);
        same_as_links_tree(&tl, g, t, map);
        if (round % 50 == 0) crossings_match_loads(&tl, g, t, map);
    }
    /* Nothing moved: still an update. */
    assert_int_equal(sm_tree_loads_update(&tl, g, t, map, 4), 1);
    /* More blocks than allowed moved: counted again by the caller. */
    for (int u = 0; u < 5; u++) map[u] = (map[u] + 1) % 16;
    assert_int_equal(sm_tree_loads_update(&tl, g, t, map, 4), 0);
    sm_tree_loads_init(&tl, g, t, map);
    same_as_links_tree(&tl, g, t, map);
    /* Another machine: not an update. */
    sm_topo *t2 = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[8]}", 16);
    assert_int_equal(sm_tree_loads_update(&tl, g, t2, map, 4), 0);
    sm_tree_loads_init(&tl, g, t2, map);
    same_as_links_tree(&tl, g, t2, map);
    crossings_match_loads(&tl, g, t2, map);
    sm_tree_loads_free(&tl);
    sm_topo_free(t2);
    free(map);
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(updates_match_recount),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
