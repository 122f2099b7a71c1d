/* test_link_load_drawing_positions.c - the Network pane's layout of a machine (planes, rows,
 * columns, wrap links, HAEC boards) and the crossing pairs of a link:
 * each direction's pairs add up to the load sm_links_compute gives it. */
#include "tests/unit/testutil.h"
#include "core/traffic/link_load_drawing_positions.h"
#include "core/traffic/link_load_counts.h"
#include "core/net/net.h"

static void mesh_and_torus_layout(void **st)
{
    (void)st;
    sm_topo *t = tu_one_per_node("{\"kind\":\"mesh\",\"dims\":[3,4]}", 12);
    sm_link_map m;
    sm_err e;
    assert_int_equal(sm_link_map_init(t->net, &m, &e), 0);
    assert_int_equal(m.planes, 1);
    assert_int_equal(m.rows, 3);
    assert_int_equal(m.cols, 4);
    assert_int_equal(sm_link_map_next(&m, 3, SM_LINK_COL), -1);   /* a mesh's last column */
    assert_int_equal(sm_link_map_next(&m, 11, SM_LINK_ROW), -1);
    assert_int_equal(sm_link_map_next(&m, 5, SM_LINK_ROW), 9);
    assert_int_equal(sm_link_map_next(&m, 5, SM_LINK_THROUGH), -1);
    int at = -1;
    assert_int_equal(sm_link_map_axis(&m, 6, 5, &at), SM_LINK_COL);
    assert_int_equal(at, 5);
    assert_int_equal(sm_link_map_axis(&m, 0, 3, &at), -1);       /* no wrap on a mesh */
    assert_int_equal(sm_link_map_axis(&m, 0, 5, &at), -1);       /* diagonal */
    sm_topo_free(t);

    t = tu_one_per_node("{\"kind\":\"torus\",\"dims\":[2,3,4]}", 24);
    assert_int_equal(sm_link_map_init(t->net, &m, &e), 0);
    assert_int_equal(m.planes, 2);
    assert_int_equal(sm_link_map_axis(&m, 3, 0, &at), SM_LINK_COL);  /* the wrap link */
    assert_int_equal(at, 3);
    assert_int_equal(sm_link_map_next(&m, 11, SM_LINK_ROW), 3);
    assert_int_equal(sm_link_map_next(&m, 5, SM_LINK_THROUGH), 17);
    /* A ring of two has one link, drawn once. */
    assert_int_equal(sm_link_map_next(&m, 17, SM_LINK_THROUGH), -1);
    assert_int_equal(sm_link_map_axis(&m, 17, 5, &at), SM_LINK_THROUGH);
    assert_int_equal(at, 5);
    int pl, r, c;
    sm_link_map_pos(&m, 23, &pl, &r, &c);
    assert_true(pl == 1 && r == 2 && c == 3);
    sm_topo_free(t);

    t = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[4]}", 8);
    assert_int_equal(sm_link_map_init(t->net, &m, &e), -1);
    assert_non_null(strstr(e.msg, "tree"));
    sm_topo_free(t);
}

static void haec_boards(void **st)
{
    (void)st;
    sm_topo *t = tu_one_per_node("{\"kind\":\"haec\",\"boards\":4,\"board_dims\":[4,4]}", 64);
    sm_link_map m;
    sm_err e;
    assert_int_equal(sm_link_map_init(t->net, &m, &e), 0);
    assert_true(m.haec && m.planes == 4 && m.through == 16);
    int at;
    assert_int_equal(sm_link_map_axis(&m, 20, 3, &at), SM_LINK_THROUGH);  /* wireless, any landing node */
    assert_int_equal(at, 3);
    assert_int_equal(sm_link_map_axis(&m, 3, 35, &at), -1);               /* two boards apart */
    assert_int_equal(sm_link_map_next(&m, 50, SM_LINK_THROUGH), -1);      /* the last board */
    sm_link_sel up = {3, SM_LINK_MAP_BOARD, 16, 0}, down = {3, SM_LINK_MAP_BOARD, 16, 1};
    assert_true(sm_link_sel_match(3, 20, &up));
    assert_false(sm_link_sel_match(20, 3, &up));
    assert_true(sm_link_sel_match(20, 3, &down));
    assert_false(sm_link_sel_match(3, 40, &up));
    sm_topo_free(t);
}

/* Each loaded link's crossing pairs add up to its load, and every load
 * lands on a drawn link; on a scrambled mapping of the LU pattern. */
static void crossings_add_up(void **st)
{
    (void)st;
    static const char *const nets[] = {"{\"kind\":\"torus\",\"dims\":[4,4,4]}",
                                       "{\"kind\":\"mesh\",\"dims\":[4,4,4]}",
                                       "{\"kind\":\"haec\",\"boards\":4,\"board_dims\":[4,4]}"};
    sm_grid *g = tu_grid(8, 8, 1, 0, 0, 0, SM_ST_5PT);
    int map[64];
    for (int u = 0; u < 64; u++) map[u] = (u * 37) % 64;
    for (int k = 0; k < 3; k++) {
        sm_topo *t = tu_one_per_node(nets[k], 64);
        sm_link_map m;
        sm_err e;
        assert_int_equal(sm_link_map_init(t->net, &m, &e), 0);
        sm_link_load *ll;
        int n = sm_links_compute(g, t, map, &ll, &e);
        assert_true(n > 0);
        long long total = 0;
        for (int i = 0; i < n; i++) {
            sm_link_sel s = {ll[i].from, ll[i].to, m.through, 0};
            sm_link_pair *pp;
            int np = sm_links_crossing(g, t, map, sm_link_sel_match, &s, &pp, &e);
            long long msgs = 0, cells = 0;
            for (int j = 0; j < np; j++) msgs += pp[j].messages, cells += pp[j].cells;
            assert_int_equal(msgs, ll[i].messages);
            assert_int_equal(cells, ll[i].cells);
            free(pp);
            total += ll[i].messages;
        }
        size_t len = (size_t)sm_link_map_nodes(&m) * SM_LINK_AXES * 2;
        sm_link_load *drawn = malloc(sizeof *drawn * len);
        sm_link_map_loads(&m, ll, n, drawn);
        /* Each drawn link carries the busiest physical link drawn there:
         * the one link itself on a torus or mesh (so the drawn loads add
         * up to the total), the busiest of a HAEC node's wireless links to
         * the next board (so the heat map's maximum is a link's, as
         * congestion is). */
        long long drawn_total = 0, drawn_max = 0, link_max = 0;
        long long *want = calloc(len, sizeof *want);
        for (int i = 0; i < n; i++) {
            int at, axis = sm_link_map_axis(&m, ll[i].from, ll[i].to, &at);
            assert_true(axis >= 0);
            size_t k = ((size_t)at * SM_LINK_AXES + (size_t)axis) * 2 + (ll[i].from != at);
            if (ll[i].messages > want[k]) want[k] = ll[i].messages;
            if (ll[i].messages > link_max) link_max = ll[i].messages;
        }
        for (size_t i = 0; i < len; i++) {
            assert_int_equal(drawn[i].messages, want[i]);
            drawn_total += drawn[i].messages;
            if (drawn[i].messages > drawn_max) drawn_max = drawn[i].messages;
        }
        assert_int_equal(drawn_max, link_max);
        if (!m.haec) assert_int_equal(drawn_total, total);
        free(want);
        free(drawn);
        free(ll);
        sm_topo_free(t);
    }
    sm_grid_free(g);
}

/* The loads and crossing pairs routed per processor pair (the traffic
 * the cost state keeps, the Network pane's input) equal the per task
 * edge ones, on every routable network and on a tree, from a fresh cost
 * state and after moves and swaps (kept incrementally). */
static void traffic_matches_edges(void **st)
{
    (void)st;
    static const char *const nets[] = {"{\"kind\":\"torus\",\"dims\":[4,4,4]}",
                                       "{\"kind\":\"mesh\",\"dims\":[4,4,4]}",
                                       "{\"kind\":\"haec\",\"boards\":4,\"board_dims\":[4,4]}",
                                       "{\"kind\":\"tree\",\"group_sizes\":[8]}"};
    sm_grid *g = tu_grid(8, 8, 2, 1, 0, 0, SM_ST_27PT);
    int n = g->ntasks, *map = malloc(sizeof(int) * (size_t)n);
    sm_model mo;
    sm_model_default(&mo);
    for (int k = 0; k < 4; k++) {
        sm_topo *t = tu_one_per_node(nets[k], 64);
        for (int u = 0; u < n; u++) map[u] = (u * 37 + u / 5) % 64;
        sm_cost *c = sm_cost_new(g, t, &mo, map);
        for (int round = 0; round < 2; round++) {
            if (round) { /* moves and swaps: the traffic follows incrementally */
                for (int i = 0; i < 40; i++) sm_cost_move(c, (i * 13) % n, (i * 7) % 64);
                for (int i = 0; i < 20; i++) sm_cost_swap(c, (i * 11) % n, (i * 29 + 3) % n);
            }
            sm_traffic *tr;
            int ntr = sm_cost_traffic(c, 0, &tr);
            sm_err e;
            if (k < 3) {
                sm_link_load *a, *b;
                int na = sm_links_compute(g, t, c->map, &a, &e);
                int nb = sm_links_compute_traffic(t, tr, ntr, &b, &e);
                assert_true(na > 0);
                assert_int_equal(na, nb);
                for (int i = 0; i < na; i++) {
                    assert_true(a[i].from == b[i].from && a[i].to == b[i].to);
                    assert_int_equal(a[i].messages, b[i].messages);
                    assert_int_equal(a[i].cells, b[i].cells);
                }
                sm_link_map m;
                assert_int_equal(sm_link_map_init(t->net, &m, &e), 0);
                for (int i = 0; i < na; i += 7) {
                    sm_link_sel s = {a[i].from, a[i].to, m.through, 0};
                    sm_link_pair *pa, *pb;
                    int xa = sm_links_crossing(g, t, c->map, sm_link_sel_match, &s, &pa, &e);
                    int xb = sm_links_crossing_traffic(t, tr, ntr, sm_link_sel_match, &s, &pb, &e);
                    assert_int_equal(xa, xb);
                    assert_memory_equal(pa, pb, sizeof *pa * (size_t)xa);
                    free(pa);
                    free(pb);
                }
                free(a);
                free(b);
            } else {
                sm_tree_link *a, *b;
                int na = sm_links_tree(g, t, c->map, &a, &e);
                int nb = sm_links_tree_traffic(t, tr, ntr, &b, &e);
                assert_true(na > 0);
                assert_int_equal(na, nb);
                assert_memory_equal(a, b, sizeof *a * (size_t)na);
                for (int i = 0; i < na; i++)
                    for (int d = 0; d < 2; d++) {
                        sm_link_pair *pa, *pb;
                        int xa = sm_links_tree_crossing(g, t, c->map, a[i].level, a[i].index, d, &pa, &e);
                        int xb = sm_links_tree_crossing_traffic(t, tr, ntr, a[i].level, a[i].index, d, &pb, &e);
                        assert_int_equal(xa, xb);
                        if (xa) assert_memory_equal(pa, pb, sizeof *pa * (size_t)xa);
                        free(pa);
                        free(pb);
                    }
                free(a);
                free(b);
            }
            free(tr);
        }
        sm_cost_free(c);
        sm_topo_free(t);
    }
    free(map);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mesh_and_torus_layout),
        cmocka_unit_test(haec_boards),
        cmocka_unit_test(crossings_add_up),
        cmocka_unit_test(traffic_matches_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
