/* test_topology_file.c - topology files read: network kinds, roofline and
 * DVFS parameters, links, load errors. */
#include "tests/unit/testutil.h"
#include "core/lib/jsonutil.h"
#include "core/io/topology_file.h"

static sm_net *net(const char *json)
{
    sm_err e;
    cJSON *j = cJSON_Parse(json);
    sm_net *n = sm_net_load(j, "network", &e);
    cJSON_Delete(j);
    if (!n) fail_msg("%s", e.msg);
    return n;
}

static void tree_levels(void **st)
{
    (void)st;
    sm_net *n = net("{\"kind\":\"tree\",\"group_sizes\":[4,2]}");
    assert_int_equal(n->ops->distance(n, 0, 0), 0);
    assert_int_equal(n->ops->distance(n, 0, 3), 1);
    assert_int_equal(n->ops->distance(n, 3, 4), 2);
    assert_int_equal(n->ops->distance(n, 0, 8), 3); /* beyond the last group */
    assert_int_equal(n->ops->hops(n, 0, 8), 6);
    sm_net_free(n);
}

static void torus_mesh_haec(void **st)
{
    (void)st;
    sm_net *t = net("{\"kind\":\"torus\",\"dims\":[4,4,4]}");
    assert_int_equal(t->ops->capacity(t), 64);
    assert_int_equal(t->ops->distance(t, 0, 3), 1);   /* wraps */
    assert_int_equal(t->ops->distance(t, 0, 63), 3);
    assert_int_equal(t->ops->distance(t, 0, 42), 6);  /* (2,2,2) */
    sm_net *m = net("{\"kind\":\"mesh\",\"dims\":[4,4,4]}");
    assert_int_equal(m->ops->distance(m, 0, 3), 3);
    assert_int_equal(m->ops->distance(m, 0, 63), 9);
    sm_net *h = net("{\"kind\":\"haec\",\"boards\":4,\"board_dims\":[4,4]}");
    assert_int_equal(h->ops->distance(h, 0, 15), 2);  /* (3,3) on a 4x4 torus */
    assert_int_equal(h->ops->distance(h, 0, 16), 1);  /* next board */
    assert_int_equal(h->ops->distance(h, 5, 63), 3);  /* three boards away */
    /* Routes have as many links as hops. */
    uint64_t l[64];
    assert_int_equal(t->ops->route(t, 0, 42, l, 64), 6);
    assert_int_equal(m->ops->route(m, 0, 63, l, 64), 9);
    assert_int_equal(h->ops->route(h, 5, 63, l, 64), 3);
    sm_net_free(t);
    sm_net_free(m);
    sm_net_free(h);
}

static void matrix_checked(void **st)
{
    (void)st;
    sm_net *n = net("{\"kind\":\"matrix\",\"levels\":[[0,1,2],[1,0,1],[2,1,0]]}");
    assert_int_equal(n->ops->distance(n, 0, 2), 2);
    sm_net_free(n);
    sm_err e;
    cJSON *j = cJSON_Parse("{\"kind\":\"matrix\",\"levels\":[[0,1],[2,0]]}");
    assert_null(sm_net_load(j, "network", &e));
    assert_non_null(strstr(e.msg, "symmetric"));
    cJSON_Delete(j);
    j = cJSON_Parse("{\"kind\":\"ring\"}");
    assert_null(sm_net_load(j, "network", &e));
    assert_non_null(strstr(e.msg, "network.kind: unknown network kind \"ring\""));
    cJSON_Delete(j);
}

#define HEAD "{\"format\":\"stencilmap/topology\",\"version\":1,"
#define ONE_LINK "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":2e-9}}"

static void roofline_and_states(void **st)
{
    (void)st;
    sm_topo *t = tu_topo_text(
        HEAD "\"types\":{\"g\":{\"flops\":1e12,\"bandwidth\":1e11,\"flops_per_cell\":8,"
        "\"bytes_per_cell\":24,\"energy_per_flop\":1e-11,\"energy_per_byte\":1e-10,\"p0\":50,\"p_idle\":20,"
        "\"states\":{\"low\":{\"bandwidth\":5e10,\"p0\":30}},\"state\":\"low\"}},"
        "\"processors\":[{\"name\":\"g0\",\"type\":\"g\",\"node\":0}],"
        "\"network\":{\"kind\":\"single\"}}");
    const sm_type *T = &t->types[0];
    /* max(8/1e12, 24/1e11) = 2.4e-10; 8e-11 + 2.4e-9 J. */
    tu_assert_close(T->base.time_per_cell, 2.4e-10, 1e-12, "roofline time");
    tu_assert_close(T->base.energy_per_cell, 8e-11 + 2.4e-9, 1e-12, "roofline energy");
    const sm_params *p = sm_type_params(T);
    tu_assert_close(p->time_per_cell, 4.8e-10, 1e-12, "state time");
    tu_assert_close(p->p0, 30, 0, "state p0");
    tu_assert_close(p->p_idle, 20, 0, "state inherits p_idle");
    assert_int_equal(sm_topo_set_state(t, 0, NULL), 0);
    tu_assert_close(sm_type_params(T)->time_per_cell, 2.4e-10, 1e-12, "base again");
    assert_int_equal(sm_topo_set_state(t, 0, "turbo"), -1);
    /* Round trip through JSON keeps the state. */
    sm_topo_set_state(t, 0, "low");
    sm_topo *c = sm_topo_clone(t);
    assert_non_null(c);
    tu_assert_close(sm_type_params(&c->types[0])->time_per_cell, 4.8e-10, 1e-12, "clone");
    sm_topo_free(c);
    sm_topo_free(t);
}

static void links_by_class(void **st)
{
    (void)st;
    sm_topo *t = tu_topo_text(
        HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1},"
        "\"gpu\":{\"time_per_cell\":1e-10,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
        "\"processors\":[{\"name\":\"c0\",\"type\":\"cpu\",\"node\":0},{\"name\":\"g0\",\"type\":\"gpu\",\"node\":0},"
        "{\"name\":\"g1\",\"type\":\"gpu\",\"node\":0},{\"name\":\"c1\",\"type\":\"cpu\",\"node\":3}],"
        "\"network\":{\"kind\":\"torus\",\"dims\":[4]},"
        "\"links\":{\"intra\":{\"cpu-gpu\":{\"time_per_cell\":1,\"energy_per_cell\":2},"
        "\"*\":{\"time_per_cell\":3,\"energy_per_cell\":4}},"
        "\"inter\":[{\"time_per_cell\":10,\"energy_per_cell\":20}]}}");
    double tp, ep;
    sm_topo_link(t, 0, 1, &tp, &ep);
    assert_true(tp == 1 && ep == 2);
    sm_topo_link(t, 1, 0, &tp, &ep);
    assert_true(tp == 1 && ep == 2);
    sm_topo_link(t, 1, 2, &tp, &ep); /* gpu-gpu falls back to "*" */
    assert_true(tp == 3 && ep == 4);
    sm_topo_link(t, 0, 3, &tp, &ep); /* node 0 to 3 on a ring of 4: 1 hop */
    assert_true(tp == 10 && ep == 20);
    sm_topo_free(t);
}

static void load_errors(void **st)
{
    (void)st;
    struct { const char *text, *want; } cases[] = {
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"gpux\",\"node\":0}],\"network\":{\"kind\":\"single\"}," ONE_LINK "}}",
         "processors[0].type: unknown type \"gpux\""},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":0},{\"name\":\"a\",\"type\":\"cpu\",\"node\":0}],"
              "\"network\":{\"kind\":\"single\"}," ONE_LINK "}}",
         "processors[1].name: duplicate name \"a\""},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":-1,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":0}],\"network\":{\"kind\":\"single\"}}",
         "types.cpu.time_per_cell: expected a number in"},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":0},{\"name\":\"b\",\"type\":\"cpu\",\"node\":0}],"
              "\"network\":{\"kind\":\"single\"}}",
         "links.intra: no class for \"cpu-cpu\""},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":0},{\"name\":\"b\",\"type\":\"cpu\",\"node\":5}],"
              "\"network\":{\"kind\":\"tree\",\"group_sizes\":[2,2]}," ONE_LINK ",\"inter\":[{\"time_per_cell\":1,\"energy_per_cell\":1}]}}",
         "links.inter: expected at least 3 classes"},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":9}],\"network\":{\"kind\":\"torus\",\"dims\":[2,2]}}",
         "processors[0].node: expected a whole number in [0, 3]"},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1,\"speed\":3}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":0}],\"network\":{\"kind\":\"single\"}}",
         "types.cpu.speed: unknown key"},
        {HEAD "\"types\":{\"cpu\":{\"time_per_cell\":1e-9,\"flops\":1e9,\"p0\":1,\"p_idle\":1}},"
              "\"processors\":[{\"name\":\"a\",\"type\":\"cpu\",\"node\":0}],\"network\":{\"kind\":\"single\"}}",
         "not both"},
        {"{\"format\":\"stencilmap/grid\",\"version\":1}", "format: expected \"stencilmap/topology\""},
        {HEAD "\"types\":{}}", "types: expected 1 to"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sm_err e;
        sm_topo *t = sm_topo_parse_text(cases[i].text, strlen(cases[i].text), "topology.json", &e);
        if (t) fail_msg("case %zu loaded", i);
        if (!strstr(e.msg, cases[i].want) || strncmp(e.msg, "topology.json: ", 15) != 0)
            fail_msg("case %zu: got \"%s\", want \"%s\"", i, e.msg, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_levels),
        cmocka_unit_test(torus_mesh_haec),
        cmocka_unit_test(matrix_checked),
        cmocka_unit_test(roofline_and_states),
        cmocka_unit_test(links_by_class),
        cmocka_unit_test(load_errors),
    };
    return cmocka_run_group_tests_name("topo", tests, NULL, NULL);
}
