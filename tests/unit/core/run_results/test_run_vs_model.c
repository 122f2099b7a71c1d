/* test_run_vs_model.c - run compare's predictions (core/run_results/run_vs_model.c)
 * on a mapping whose two ranks compute unequal work: in the run's bulk-
 * synchronous exchange the lighter rank waits for the heavier one every
 * iteration, so its predicted time outside compute is T_run - comp_p (the
 * model's idle_p: its own transfers and that wait), not its transfers
 * alone; every rank's loop goes at T_run; a run with -exchange all is
 * paced by the busiest processor's transfers, not the colouring's rounds;
 * under -overlap 1 a rank still spends its own transfers. */
#include "tests/unit/testutil.h"
#include "core/run_results/run_vs_model.h"

#define US 1e-6

/* A 4 x 1 x 1 grid of 64^3 blocks, 7-point: blocks 0-2 on cpu0, 3 on
 * cpu1 (218 us a block on the thesis CPU); the cut is blocks 2 <-> 3, one
 * 4096-cell message each way of 4 us, 4 quanta of 1 us each. */
typedef struct fixture {
    sm_grid *g;
    sm_topo *t;
    sm_model m;
    int map[4];
    sm_run run;
} fixture;

static void setup(fixture *f, sm_rounds_model rounds, int overlap, const char *exchange)
{
    memset(f, 0, sizeof *f);
    f->g = tu_grid(4, 1, 1, 0, 0, 0, SM_ST_7PT);
    f->t = tu_thesis("cpu cpu");
    sm_model_default(&f->m);
    f->m.rounds = rounds;
    f->m.round_time = 1 * US;
    f->m.overlap = overlap;
    int map[4] = {0, 0, 0, 1};
    memcpy(f->map, map, sizeof map);
    sm_run *r = &f->run;
    r->iters = 10;
    snprintf(r->exchange, sizeof r->exchange, "%s", exchange);
    r->nranks = 2;
    r->ranks = calloc(2, sizeof *r->ranks);
    for (int k = 0; k < 2; k++) {
        sm_run_rank *x = &r->ranks[k];
        x->rank = k;
        x->processor = strdup(k ? "cpu1" : "cpu0");
        /* Measured: 10 iterations of 700 us, the light rank waiting. */
        x->compute_s = k ? 10 * 230 * US : 10 * 660 * US;
        x->comm_s = k ? 10 * 470 * US : 10 * 40 * US;
        x->wait_s = x->comm_s / 2;
        x->wall_s = 10 * 700 * US;
    }
}

static void teardown(fixture *f)
{
    sm_run_free(&f->run);
    sm_topo_free(f->t);
    sm_grid_free(f->g);
}

static void compare(fixture *f, sm_run_cmp *out)
{
    sm_cost *c = sm_cost_new(f->g, f->t, &f->m, f->map);
    sm_err e;
    assert_int_equal(sm_run_compare(c, &f->run, out, &e), 0);
    sm_cost_free(c);
}

static void lighter_rank_waits_for_the_heavier(void **st)
{
    (void)st;
    fixture f;
    setup(&f, SM_ROUNDS_MAXDEG, 0, "rounds");
    sm_run_cmp cmp;
    compare(&f, &cmp);
    double comp0 = 3 * 218 * US, comp1 = 218 * US, comm = 8 * US; /* maxdeg: 4 + 4 quanta */
    double T = comp0 + comm;
    sm_run_row *heavy = &cmp.rows[0], *light = &cmp.rows[1];
    tu_assert_close(heavy->compute.predicted, comp0, 1e-9, "comp cpu0");
    tu_assert_close(light->compute.predicted, comp1, 1e-9, "comp cpu1");
    tu_assert_close(heavy->busy, comm, 1e-9, "busy cpu0");
    tu_assert_close(light->busy, comm, 1e-9, "busy cpu1");
    /* The heavy rank only transfers; the light one also waits comp0 - comp1. */
    tu_assert_close(heavy->comm.predicted, comm, 1e-9, "comm cpu0");
    assert_true(fabs(heavy->wait) < 1e-15);
    tu_assert_close(light->comm.predicted, T - comp1, 1e-9, "comm cpu1 = T - comp_p");
    tu_assert_close(light->wait, comp0 - comp1, 1e-9, "wait cpu1 = the heavier rank's extra compute");
    for (int k = 0; k < 2; k++) {
        sm_run_row *r = &cmp.rows[k];
        tu_assert_close(r->total.predicted, T, 1e-9, "every rank's loop goes at T");
        tu_assert_close(r->compute.predicted + r->comm.predicted, r->total.predicted, 1e-9, "comp + comm = T");
        tu_assert_close(r->comm.accuracy, 1 - fabs(r->comm.predicted - r->comm.measured) / r->comm.measured, 1e-12,
                        "accuracy");
        tu_assert_close(r->measured_wait, f.run.ranks[k].wait_s / 10, 1e-12, "measured wait");
    }
    /* Measured 470 us outside compute on the light rank: the model says 444. */
    tu_assert_close(light->comm.measured, 470 * US, 1e-9, "measured comm cpu1");
    assert_true(light->comm.accuracy > 0.9);
    tu_assert_close(cmp.overall.total.predicted, T, 1e-9, "overall T");
    sm_run_cmp_free(&cmp);
    teardown(&f);
}

static void all_at_once_is_paced_by_the_busiest_transfers(void **st)
{
    (void)st;
    /* Vizing's bound: Delta + mu_max = 16 rounds in the model; a run that
     * posted everything at once is busy 8 quanta. */
    double comp0 = 3 * 218 * US, comp1 = 218 * US;
    fixture f;
    setup(&f, SM_ROUNDS_VIZING, 0, "rounds");
    sm_run_cmp cmp;
    compare(&f, &cmp);
    tu_assert_close(cmp.rows[1].comm.predicted, comp0 + 16 * US - comp1, 1e-9, "rounds: the colouring's 16 quanta");
    tu_assert_close(cmp.rows[0].total.predicted, comp0 + 16 * US, 1e-9, "rounds T");
    sm_run_cmp_free(&cmp);
    teardown(&f);
    setup(&f, SM_ROUNDS_VIZING, 0, "all");
    compare(&f, &cmp);
    tu_assert_close(cmp.rows[1].comm.predicted, comp0 + 8 * US - comp1, 1e-9, "all: the busiest processor's 8");
    tu_assert_close(cmp.rows[0].comm.predicted, 8 * US, 1e-9, "all: cpu0 busy");
    tu_assert_close(cmp.rows[0].total.predicted, comp0 + 8 * US, 1e-9, "all T");
    tu_assert_close(cmp.overall.comm.predicted, 8 * US, 1e-9, "all: overall comm");
    sm_run_cmp_free(&cmp);
    teardown(&f);
}

static void overlap_still_spends_own_transfers(void **st)
{
    (void)st;
    double comp0 = 3 * 218 * US, comp1 = 218 * US;
    fixture f;
    setup(&f, SM_ROUNDS_MAXDEG, 1, "rounds");
    sm_run_cmp cmp;
    compare(&f, &cmp);
    /* T = max(comp, comm) = comp0: the heavy rank is still busy 8 us, the
     * light one idle comp0 - comp1 (more than its transfers). */
    tu_assert_close(cmp.rows[0].comm.predicted, 8 * US, 1e-9, "overlap: cpu0 busy");
    tu_assert_close(cmp.rows[1].comm.predicted, comp0 - comp1, 1e-9, "overlap: cpu1 idle_p");
    tu_assert_close(cmp.rows[1].total.predicted, comp0, 1e-9, "overlap: T");
    sm_run_cmp_free(&cmp);
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lighter_rank_waits_for_the_heavier),
        cmocka_unit_test(all_at_once_is_paced_by_the_busiest_transfers),
        cmocka_unit_test(overlap_still_spends_own_transfers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
