/* test_grid.c - task graph of SPEC 2.1. */
#include "tests/unit/testutil.h"

static void edges_reference_counts(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    assert_int_equal(g->ntasks, 128);
    assert_int_equal(g->nedges, 608);
    sm_grid_free(g);
    g = tu_grid(8, 4, 4, 1, 1, 0, SM_ST_7PT);
    assert_int_equal(g->nedges, 704);
    sm_grid_free(g);
}

static void face_edge_corner_cells(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(3, 3, 3, 0, 0, 0, SM_ST_27PT);
    /* Centre block 13: 26 in-edges; faces 64*64, edges 64, corners 1. */
    int64_t face = 0, edge = 0, corner = 0, in = 0;
    for (int e = 0; e < g->nedges; e++) {
        if (g->edges[e].dst != 13) continue;
        in++;
        if (g->edges[e].cells == 4096) face++;
        else if (g->edges[e].cells == 64) edge++;
        else if (g->edges[e].cells == 1) corner++;
    }
    assert_int_equal(in, 26);
    assert_int_equal(face, 6);
    assert_int_equal(edge, 12);
    assert_int_equal(corner, 8);
    sm_grid_free(g);
}

static void halo_width_scales_cells(void **st)
{
    (void)st;
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    s.blocks[0] = 2; s.blocks[1] = 2; s.blocks[2] = 2;
    s.cells[0] = s.cells[1] = s.cells[2] = 32;
    s.halo = 2;
    s.stencil = SM_ST_27PT;
    sm_err e;
    sm_grid *g = sm_grid_build(&s, &e);
    assert_non_null(g);
    int seen_face = 0, seen_edge = 0, seen_corner = 0;
    for (int i = 0; i < g->nedges; i++) {
        int64_t c = g->edges[i].cells;
        seen_face |= c == 16 * 16 * 2;
        seen_edge |= c == 16 * 2 * 2;
        seen_corner |= c == 8;
    }
    assert_true(seen_face && seen_edge && seen_corner);
    sm_grid_free(g);
}

static void uneven_blocks_differ_by_one(void **st)
{
    (void)st;
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    s.blocks[0] = 3; s.blocks[1] = 1; s.blocks[2] = 1;
    s.cells[0] = 10; s.cells[1] = 4; s.cells[2] = 1;
    sm_err e;
    sm_grid *g = sm_grid_build(&s, &e);
    assert_non_null(g);
    /* 10 = 4 + 3 + 3: the remainder goes to the first blocks. */
    assert_int_equal(g->task_cells[0], 16);
    assert_int_equal(g->task_cells[1], 12);
    assert_int_equal(g->task_cells[2], 12);
    /* Face between block 0 and 1 is 4 x 1 cells either way. */
    for (int i = 0; i < g->nedges; i++) assert_int_equal(g->edges[i].cells, 4);
    sm_grid_free(g);
}

static void periodic_two_blocks_merge(void **st)
{
    (void)st;
    /* Two blocks on a periodic axis: the +1 and -1 neighbours coincide,
     * one edge each way carrying both faces. */
    sm_grid *g = tu_grid(2, 1, 1, 1, 0, 0, SM_ST_7PT);
    assert_int_equal(g->nedges, 2);
    assert_int_equal(g->edges[0].cells, 2 * 4096);
    sm_grid_free(g);
    /* One block on a periodic axis: no self edges. */
    g = tu_grid(1, 1, 1, 1, 1, 1, SM_ST_27PT);
    assert_int_equal(g->nedges, 0);
    sm_grid_free(g);
}

static void stencils_2d(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(8, 8, 1, 0, 0, 0, SM_ST_5PT);
    assert_int_equal(g->nedges, 224); /* Besmer's LU pattern: 112 pairs */
    sm_grid_free(g);
    g = tu_grid(8, 8, 1, 0, 0, 0, SM_ST_9PT);
    assert_int_equal(g->nedges, 224 + 2 * 2 * 49);
    sm_grid_free(g);
    g = tu_grid(4, 4, 1, 1, 1, 0, SM_ST_9PT);
    assert_int_equal(g->nedges, 16 * 8);
    sm_grid_free(g);
}

static void neighbours_distinct(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(4, 4, 4, 0, 0, 0, SM_ST_7PT);
    int interior = 1 + 4 + 16; /* (1,1,1) */
    assert_int_equal(g->nbr_off[interior + 1] - g->nbr_off[interior], 6);
    assert_int_equal(g->nbr_off[1] - g->nbr_off[0], 3); /* corner */
    /* Incidence lists hold each edge twice overall. */
    assert_int_equal(g->inc_off[g->ntasks], 2 * g->nedges);
    sm_grid_free(g);
}

static void rejects_bad_specs(void **st)
{
    (void)st;
    sm_grid_spec s;
    sm_err e;
    sm_grid_spec_default(&s);
    s.blocks[0] = 0;
    s.cells[0] = 64; s.cells[1] = 64; s.cells[2] = 64;
    assert_null(sm_grid_build(&s, &e));
    assert_non_null(strstr(e.msg, "blocks[0]"));
    sm_grid_spec_default(&s);
    s.blocks[0] = 4; s.cells[0] = 3; s.cells[1] = 1; s.cells[2] = 1;
    assert_null(sm_grid_build(&s, &e));
    assert_non_null(strstr(e.msg, "cells[0]"));
    sm_grid_spec_default(&s);
    s.blocks[0] = 4; s.blocks[2] = 2; s.cells[0] = 8; s.cells[1] = 1; s.cells[2] = 2;
    s.stencil = SM_ST_5PT;
    assert_null(sm_grid_build(&s, &e));
    assert_non_null(strstr(e.msg, "2-D"));
    sm_grid_spec_default(&s);
    s.blocks[0] = 4; s.cells[0] = 8; s.cells[1] = 1; s.cells[2] = 1; s.halo = 3;
    assert_null(sm_grid_build(&s, &e));
    assert_non_null(strstr(e.msg, "halo"));
    sm_grid_spec_default(&s);
    s.blocks[0] = 4096; s.blocks[1] = 4096; s.blocks[2] = 4096;
    s.cells[0] = s.cells[1] = s.cells[2] = 4096;
    assert_null(sm_grid_build(&s, &e));
    assert_non_null(strstr(e.msg, "at most"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edges_reference_counts),
        cmocka_unit_test(face_edge_corner_cells),
        cmocka_unit_test(halo_width_scales_cells),
        cmocka_unit_test(uneven_blocks_differ_by_one),
        cmocka_unit_test(periodic_two_blocks_merge),
        cmocka_unit_test(stencils_2d),
        cmocka_unit_test(neighbours_distinct),
        cmocka_unit_test(rejects_bad_specs),
    };
    return cmocka_run_group_tests_name("grid", tests, NULL, NULL);
}
