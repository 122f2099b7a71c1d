/* test_grid.c - task graph of SPEC 2.1. */
#include "tests/unit/testutil.h"
#include "core/io/metis_scotch_graph_and_target_weight_files.h"
#include "solvers/tabu/multilevel_block_grid_coarsening.h"
#include "core/traffic/mapping_metrics.h"

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

/* The task graph as SPEC 2.1 defines it, built the obvious way (the
 * program's own builder until #40 made it arithmetic): for each block
 * and each of the 26 offsets, is it in the stencil, where does it land,
 * has this block met that neighbour already. The builder must give the
 * same arrays in the same order: solvers and the cost model's sums
 * follow that order. */
typedef struct { int *src, *dst; int64_t *cells, *task_cells; int n, ne; int *inc_off, *inc, *nbr_off, *nbr; } ref_graph;

static int ref_in_stencil(sm_stencil st, const int o[3])
{
    int nz = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
    if (nz == 0) return 0;
    switch (st) {
    case SM_ST_5PT: return o[2] == 0 && nz == 1;
    case SM_ST_9PT: return o[2] == 0;
    case SM_ST_7PT: return nz == 1;
    case SM_ST_27PT: return 1;
    }
    return 0;
}

static ref_graph ref_build(const sm_grid_spec *s)
{
    ref_graph r;
    const int *B = s->blocks;
    int n = B[0] * B[1] * B[2];
    r.n = n;
    r.src = malloc(sizeof(int) * (size_t)n * 26 + 1);
    r.dst = malloc(sizeof(int) * (size_t)n * 26 + 1);
    r.cells = malloc(sizeof(int64_t) * (size_t)n * 26 + 1);
    r.task_cells = malloc(sizeof(int64_t) * (size_t)n);
    int ne = 0;
    for (int u = 0; u < n; u++) {
        int c[3] = {u % B[0], (u / B[0]) % B[1], u / (B[0] * B[1])};
        int64_t ext[3];
        for (int a = 0; a < 3; a++) ext[a] = sm_grid_extent(s, a, c[a]);
        r.task_cells[u] = ext[0] * ext[1] * ext[2];
        int first = ne;
        for (int dz = -1; dz <= 1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int o[3] = {dx, dy, dz}, v[3], ok = 1;
                    if (!ref_in_stencil(s->stencil, o)) continue;
                    int64_t cells = 1;
                    for (int a = 0; a < 3 && ok; a++) {
                        if (o[a] == 0) { v[a] = c[a]; cells *= ext[a]; continue; }
                        if (B[a] == 1) { ok = 0; break; }
                        v[a] = c[a] + o[a];
                        if (v[a] < 0 || v[a] >= B[a]) {
                            if (!s->periodic[a]) { ok = 0; break; }
                            v[a] = (v[a] + B[a]) % B[a];
                        }
                        cells *= s->halo;
                    }
                    if (!ok) continue;
                    int vid = v[0] + v[1] * B[0] + v[2] * B[0] * B[1], k;
                    if (vid == u) continue;
                    for (k = first; k < ne; k++)
                        if (r.src[k] == vid) break;
                    if (k < ne) { r.cells[k] += cells; continue; }
                    r.src[ne] = vid; r.dst[ne] = u; r.cells[ne] = cells; ne++;
                }
    }
    r.ne = ne;
    r.inc_off = calloc((size_t)n + 1, sizeof(int));
    r.inc = malloc(sizeof(int) * (2 * (size_t)ne + 1));
    r.nbr_off = calloc((size_t)n + 1, sizeof(int));
    r.nbr = malloc(sizeof(int) * (2 * (size_t)ne + 1));
    /* Each task's edges in edge order, by a scan per task. */
    int q = 0, nn = 0;
    for (int u = 0; u < n; u++) {
        r.inc_off[u] = q;
        r.nbr_off[u] = nn;
        for (int i = 0; i < ne; i++) {
            if (r.src[i] != u && r.dst[i] != u) continue;
            r.inc[q++] = i;
            int w = r.src[i] == u ? r.dst[i] : r.src[i], seen = 0;
            for (int t = r.nbr_off[u]; t < nn; t++) seen |= r.nbr[t] == w;
            if (!seen) r.nbr[nn++] = w;
        }
    }
    r.inc_off[n] = q;
    r.nbr_off[n] = nn;
    return r;
}

static void ref_free(ref_graph *r)
{
    free(r->src); free(r->dst); free(r->cells); free(r->task_cells);
    free(r->inc_off); free(r->inc); free(r->nbr_off); free(r->nbr);
}

/* Every stencil, every periodic combination, one to four blocks per axis
 * (two: the merged edges), uneven extents and a halo of two. */
static void same_graph_as_definition(void **st)
{
    (void)st;
    int tried = 0;
    for (int sti = 0; sti < 4; sti++)
        for (int per = 0; per < 8; per++)
            for (int bx = 1; bx <= 4; bx++)
                for (int by = 1; by <= 4; by++)
                    for (int bz = 1; bz <= 4; bz++) {
                        sm_stencil stc = (sm_stencil)sti;
                        int two_d = stc == SM_ST_5PT || stc == SM_ST_9PT;
                        if (two_d && (bz != 1 || (per & 4))) continue;
                        sm_grid_spec s = tu_grid_spec(bx, by, bz, per & 1, (per >> 1) & 1, (per >> 2) & 1, stc);
                        /* Uneven blocks: a remainder along X and Y. */
                        s.cells[0] = 8LL * bx + (bx > 1 ? bx - 1 : 0);
                        s.cells[1] = 8LL * by + 1;
                        if (!two_d) s.cells[2] = 8LL * bz;
                        s.halo = 1 + (bx + by + bz) % 2;
                        sm_err e;
                        sm_grid *g = sm_grid_build(&s, &e);
                        if (!g) fail_msg("%s", e.msg);
                        ref_graph r = ref_build(&s);
                        assert_int_equal(g->ntasks, r.n);
                        assert_int_equal(g->nedges, r.ne);
                        for (int u = 0; u < r.n; u++) assert_int_equal(g->task_cells[u], r.task_cells[u]);
                        for (int i = 0; i < r.ne; i++) {
                            assert_int_equal(g->edges[i].src, r.src[i]);
                            assert_int_equal(g->edges[i].dst, r.dst[i]);
                            assert_int_equal(g->edges[i].cells, r.cells[i]);
                        }
                        for (int u = 0; u <= r.n; u++) {
                            assert_int_equal(g->inc_off[u], r.inc_off[u]);
                            assert_int_equal(g->nbr_off[u], r.nbr_off[u]);
                        }
                        for (int k = 0; k < r.inc_off[r.n]; k++) assert_int_equal(g->inc[k], r.inc[k]);
                        for (int k = 0; k < r.nbr_off[r.n]; k++) assert_int_equal(g->nbr[k], r.nbr[k]);
                        ref_free(&r);
                        sm_grid_free(g);
                        tried++;
                    }
    assert_true(tried > 500);
}

/* Edge cells are int32_t: a halo past 2^31 - 1 cells is refused when the
 * grid is checked, with the block size and the limit, and one at the
 * limit is built exactly; the products and sums over it are int64_t. */
static void edge_cells_at_the_int32_limit(void **st)
{
    (void)st;
    const int64_t lim = INT32_MAX, two31 = (int64_t)1 << 31, two30 = (int64_t)1 << 30;
    sm_err e;
    sm_grid_spec s;
    sm_grid_spec_default(&s);
    s.blocks[0] = 2;
    s.cells[0] = 2; s.cells[1] = lim; s.cells[2] = 1;
    assert_int_equal(sm_grid_max_edge_cells(&s), lim);
    sm_grid *g = sm_grid_build(&s, &e);
    assert_non_null(g);
    assert_int_equal(g->nedges, 2);
    for (int i = 0; i < 2; i++) assert_int_equal(g->edges[i].cells, lim);

    /* No product of those cells overflows: 3 hops each way. */
    sm_topo *t = tu_one_per_node("{\"kind\":\"mesh\",\"dims\":[4]}", 4);
    int map[2] = {0, 3};
    sm_metrics m;
    sm_metrics_compute(g, t, map, &m);
    assert_int_equal(m.hops, 6);
    assert_true(m.hop_cells == 6 * lim);
    sm_model mo;
    sm_model_default(&mo);
    sm_cost *c = sm_cost_new(g, t, &mo, map);
    sm_eval inc, ref;
    sm_cost_eval(c, &inc);
    sm_eval_reference(g, t, &mo, map, &ref);
    assert_true(inc.energy_comm > 0);
    tu_assert_close(inc.energy_comm, ref.energy_comm, 1e-12, "energy_comm at the limit");
    tu_assert_close(inc.energy, ref.energy, 1e-12, "energy at the limit");
    sm_cost_free(c);
    size_t len = 0;
    char *metis = sm_graph_export(g, SM_GFMT_METIS, NULL, NULL, &len);
    assert_non_null(metis);
    assert_null(strchr(metis, '-'));
    free(metis);
    sm_topo_free(t);
    sm_grid_free(g);

    /* One past: refused by the check and by the build, saying why. */
    s.cells[1] = two31;
    assert_true(sm_grid_max_edge_cells(&s) > lim);
    assert_int_equal(sm_grid_spec_check(&s, &e), -1);
    assert_non_null(strstr(e.msg, "blocks of 1 x 2147483648 x 1 cells (halo 1)"));
    assert_non_null(strstr(e.msg, "more than 2147483647 halo cells"));
    assert_null(sm_grid_build(&s, &e));

    /* The halo multiplies: 2 x (2^30 - 1) is in, 2 x 2^30 is not. */
    s.cells[0] = 4; s.halo = 2; s.cells[1] = two30 - 1;
    g = sm_grid_build(&s, &e);
    assert_non_null(g);
    assert_int_equal(g->edges[0].cells, two31 - 2);
    sm_grid_free(g);
    s.cells[1] = two30;
    assert_int_equal(sm_grid_spec_check(&s, &e), -1);

    /* Two blocks on a periodic axis meet by both faces, added. */
    s.halo = 1; s.cells[0] = 2; s.periodic[0] = 1; s.cells[1] = two30 - 1;
    g = sm_grid_build(&s, &e);
    assert_non_null(g);
    assert_int_equal(g->nedges, 2);
    assert_int_equal(g->edges[0].cells, two31 - 2);
    sm_grid_free(g);
    s.cells[1] = two30;
    assert_int_equal(sm_grid_spec_check(&s, &e), -1);
    assert_non_null(strstr(e.msg, "halo cells"));

    /* A fine grid within the limit whose coarse edges would pass it (9pt:
     * two faces and two diagonals add up to 2^31): no coarser level. */
    sm_grid_spec f;
    sm_grid_spec_default(&f);
    f.stencil = SM_ST_9PT;
    f.blocks[0] = 4; f.blocks[1] = 2;
    f.cells[0] = 4; f.cells[1] = two31 - 2; f.cells[2] = 1;
    g = sm_grid_build(&f, &e);
    assert_non_null(g);
    int up[8];
    assert_null(sm_grid_coarsen(g, up));
    sm_grid_free(g);
    f.cells[1] = two31 - 4;
    g = sm_grid_build(&f, &e);
    assert_non_null(g);
    sm_grid *cg = sm_grid_coarsen(g, up);
    assert_non_null(cg);
    assert_int_equal(cg->nedges, 2);
    for (int i = 0; i < 2; i++) assert_int_equal(cg->edges[i].cells, two31 - 2);
    sm_grid_free(cg);
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
        cmocka_unit_test(edge_cells_at_the_int32_limit),
        cmocka_unit_test(same_graph_as_definition),
    };
    return cmocka_run_group_tests_name("grid", tests, NULL, NULL);
}
