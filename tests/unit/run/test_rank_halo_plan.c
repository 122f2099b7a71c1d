/* test_rank_halo_plan.c - stencilmap-run's plan without MPI (run/rank_halo_plan.c): the round
 * of every message is one where the schedule pairs its two processors, no
 * processor is in two pairs of one round, every message one rank sends is
 * one its peer receives (same blocks, same round, same directions), the
 * messages are the model's cut task edges, and the copies and messages of
 * all ranks cover every halo of every block exactly once. */
#include "tests/unit/testutil.h"
#include "run/rank_halo_plan.h"

static void check_plan(const sm_grid *g, const sm_topo *t, const int *map, int nranks_expected)
{
    sm_model m;
    sm_model_default(&m);
    m.round_time = 1e-6;
    int *round = NULL;
    int nr = smr_edge_rounds(g, t, &m, map, &round);
    /* Each round a matching of processor pairs. */
    int P = t->nprocs;
    int *partner = malloc(sizeof(int) * (size_t)P * (size_t)(nr ? nr : 1));
    for (int i = 0; i < P * (nr ? nr : 1); i++) partner[i] = -1;
    int cut = 0;
    for (int e = 0; e < g->nedges; e++) {
        int p = map[g->edges[e].src], q = map[g->edges[e].dst];
        if (p == q) {
            assert_int_equal(round[e], -1);
            continue;
        }
        cut++;
        int r = round[e];
        assert_true(r >= 0 && r < nr);
        if (partner[r * P + p] < 0) partner[r * P + p] = q;
        if (partner[r * P + q] < 0) partner[r * P + q] = p;
        if (partner[r * P + p] != q || partner[r * P + q] != p)
            fail_msg("round %d: processor %d talks to %d and %d", r, p, partner[r * P + p], q);
    }
    /* Every rank's plan; sends against receives. */
    sm_kgrid kg;
    smr_kgrid(g, &kg);
    smr_plan base;
    char why[256];
    assert_int_equal(smr_ranks(t, map, g->ntasks, nranks_expected, &base, why, sizeof why), 0);
    int R = base.nranks;
    smr_plan *pl = calloc((size_t)R, sizeof *pl);
    int sends = 0;
    int *halos = calloc((size_t)g->ntasks * SM_K_MAX_DIRS, sizeof(int));
    for (int r = 0; r < R; r++) {
        assert_int_equal(smr_ranks(t, map, g->ntasks, nranks_expected, &pl[r], why, sizeof why), 0);
        pl[r].rank = r;
        smr_plan_build(&pl[r], &kg, g, map, round);
        sends += pl[r].nsend;
        for (int i = 0; i < pl[r].ncopies; i++) halos[pl[r].copies[i].dst * SM_K_MAX_DIRS + pl[r].copies[i].dir]++;
        for (int i = 0; i < pl[r].nrecv; i++) {
            const smr_msg *mr = &pl[r].recv[i];
            for (int k = 0; k < mr->ndirs; k++) {
                /* The halo of dst toward -d. */
                int back[3];
                for (int a = 0; a < 3; a++) back[a] = -pl[r].dirs[mr->dirs[k]][a];
                int bi = -1;
                for (int d = 0; d < pl[r].ndir; d++)
                    if (!memcmp(pl[r].dirs[d], back, sizeof back)) bi = d;
                assert_true(bi >= 0);
                halos[mr->dst * SM_K_MAX_DIRS + bi]++;
            }
        }
    }
    assert_int_equal(sends, R > 1 ? cut : 0);
    for (int r = 0; r < R; r++)
        for (int i = 0; i < pl[r].nsend; i++) {
            const smr_msg *s = &pl[r].send[i];
            const smr_plan *q = &pl[s->peer];
            int found = 0;
            for (int j = 0; j < q->nrecv && !found; j++) {
                const smr_msg *x = &q->recv[j];
                found = x->src == s->src && x->dst == s->dst && x->peer == r && x->round == s->round &&
                        x->ndirs == s->ndirs && !memcmp(x->dirs, s->dirs, sizeof(int) * (size_t)s->ndirs);
            }
            if (!found) fail_msg("rank %d's message %d -> %d has no receive at rank %d", r, s->src, s->dst, s->peer);
        }
    /* Every halo a block has (a neighbour in that direction) filled once. */
    for (int b = 0; b < g->ntasks; b++)
        for (int d = 0; d < base.ndir || d < pl[0].ndir; d++) {
            int want = sm_kgrid_neighbour(&kg, b, pl[0].dirs[d]) >= 0;
            if (halos[b * SM_K_MAX_DIRS + d] != want)
                fail_msg("block %d direction %d: filled %d times", b, d, halos[b * SM_K_MAX_DIRS + d]);
        }
    for (int r = 0; r < R; r++) smr_plan_free(&pl[r]);
    smr_plan_free(&base);
    free(pl);
    free(halos);
    free(partner);
    free(round);
}

static void plan_every_stencil(void **st)
{
    (void)st;
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    const sm_stencil sts[] = {SM_ST_7PT, SM_ST_27PT, SM_ST_5PT, SM_ST_9PT};
    for (int s = 0; s < 4; s++)
        for (int per = 0; per < 2; per++) {
            int bz = (sts[s] == SM_ST_5PT || sts[s] == SM_ST_9PT) ? 1 : 2;
            sm_grid_spec spec = tu_grid_spec(4, 3, bz, per, per, per && bz > 1, sts[s]);
            for (int a = 0; a < 3; a++) spec.cells[a] = a == 2 && bz == 1 ? 1 : 8LL * spec.blocks[a];
            sm_err e;
            sm_grid *g = sm_grid_build(&spec, &e);
            assert_non_null(g);
            int *map = malloc(sizeof(int) * (size_t)g->ntasks);
            /* Stripes of four processors, and two of them. */
            for (int b = 0; b < g->ntasks; b++) map[b] = (b * 7 / 3) % 4;
            check_plan(g, t, map, 4);
            check_plan(g, t, map, 1);
            for (int b = 0; b < g->ntasks; b++) map[b] = b < g->ntasks / 3 ? 0 : 3;
            check_plan(g, t, map, 2);
            free(map);
            sm_grid_free(g);
        }
    sm_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plan_every_stencil),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
