/* test_ilp_count_decomposition.c - the ILP's decomposition by block counts: the grid's
 * isoperimetric profile against brute force, and the proven optimum
 * against exhaustive enumeration on random small instances (so the count
 * bounds never cut off an optimal mapping). */
#include "tests/unit/testutil.h"
#include "solvers/stepper/solver_stepper.h"
#include "core/bound/edge_isoperimetric.h"
#include <math.h>
#include <string.h>

/* Fewest neighbour pairs leaving a set of b blocks, over all 2^n sets;
 * pairs of axis skip_axis's wrap are left out when skip_wrap. */
static void brute_profile(const sm_grid *g, int *f)
{
    int n = g->ntasks;
    for (int b = 0; b <= n; b++) f[b] = 1 << 30;
    for (uint32_t S = 0; S < (1u << n); S++) {
        int cut = 0;
        for (int u = 0; u < n; u++)
            for (int k = g->nbr_off[u]; k < g->nbr_off[u + 1]; k++) {
                int v = g->nbr[k];
                if (v > u && ((S >> u) & 1) != ((S >> v) & 1)) cut++;
            }
        int b = __builtin_popcount(S);
        if (cut < f[b]) f[b] = cut;
    }
}

static void profile_matches_brute_force(void **st)
{
    (void)st;
    static const int shapes[][6] = {
        /* blocks x y z, periodic x y, stencil 7pt unless noted */
        {4, 3, 1, 0, 0, 0}, {3, 3, 2, 0, 0, 0}, {4, 2, 2, 0, 0, 0},
        {5, 3, 1, 0, 1, 0}, {4, 4, 1, 1, 1, 0}, {6, 3, 1, 1, 0, 0},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const int *sh = shapes[i];
        sm_grid *g = tu_grid(sh[0], sh[1], sh[2], sh[3], sh[4], 0, SM_ST_7PT);
        int exact, want[64];
        int *f = sm_iso_profile(g, &exact);
        assert_non_null(f);
        brute_profile(g, want);
        for (int b = 0; b <= g->ntasks; b++) {
            if (exact) assert_int_equal(f[b], want[b]);
            else assert_true(f[b] <= want[b]); /* a bound, never more */
        }
        /* Whatever can be swept along a non-periodic or short axis is exact. */
        if (!sh[3] || !sh[4]) assert_true(exact);
        free(f);
        sm_grid_free(g);
    }
    /* The Cuboid grid: known small values (a corner block has 3
     * neighbours; a 2x2x2 corner cube 12 faces; half the grid 16). */
    sm_grid *g = tu_grid(8, 4, 4, 0, 0, 0, SM_ST_7PT);
    int exact;
    int *f = sm_iso_profile(g, &exact);
    assert_true(exact);
    assert_int_equal(f[1], 3);
    assert_int_equal(f[8], 12);
    assert_int_equal(f[64], 16);
    assert_int_equal(f[13], 17); /* the published CPU-GPU optimum cuts 17 pairs */
    assert_int_equal(f[127], 3);
    free(f);
    sm_grid_free(g);
    /* Sphere (periodic I and J): a bound, tight where the answer is known
     * (a block has 5 neighbours on a K face; half the grid is a slab of
     * four I-slices with two 4x4 faces). */
    g = tu_grid(8, 4, 4, 1, 1, 0, SM_ST_7PT);
    f = sm_iso_profile(g, &exact);
    assert_false(exact);
    assert_int_equal(f[1], 5);
    assert_int_equal(f[64], 32);
    free(f);
    sm_grid_free(g);
}

static sm_topo *random_topo(unsigned *seed, int P)
{
    char buf[4096];
    double tc = 1e-9 * (1 + rand_r(seed) % 8), ec = 1e-8 * (1 + rand_r(seed) % 8);
    int len = snprintf(buf, sizeof buf,
                       "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{"
                       "\"a\":{\"time_per_cell\":%g,\"energy_per_cell\":%g,\"p0\":%d,\"p_idle\":%d},"
                       "\"b\":{\"time_per_cell\":%g,\"energy_per_cell\":%g,\"p0\":%d,\"p_idle\":%d}},"
                       "\"processors\":[",
                       tc, ec, 50 + rand_r(seed) % 50, 1 + rand_r(seed) % 20,
                       1e-9 * (1 + rand_r(seed) % 3), 1e-9 * (1 + rand_r(seed) % 8),
                       40 + rand_r(seed) % 50, 10 + rand_r(seed) % 30);
    for (int p = 0; p < P; p++)
        len += snprintf(buf + len, sizeof buf - (size_t)len, "%s{\"name\":\"p%d\",\"type\":\"%s\",\"node\":0}",
                        p ? "," : "", p, rand_r(seed) % 2 ? "a" : "b");
    snprintf(buf + len, sizeof buf - (size_t)len,
             "],\"network\":{\"kind\":\"single\"},\"links\":{\"intra\":{\"*\":"
             "{\"time_per_cell\":%g,\"energy_per_cell\":%g}}}}",
             1e-9 * (1 + rand_r(seed) % 4), 1e-7 * (1 + rand_r(seed) % 100));
    return tu_topo_text(buf);
}

/* The ILP stepped inside its solve (SPEC 5): every step after the warm
 * start is an incumbent, a better bound, or the end; best is always
 * feasible and only improves, at an incumbent step the mapping shown is
 * the incumbent, and the bound never passes the best. */
static void stepped_solve(sm_solver *s, const sm_grid *g, const sm_topo *t, const sm_model *m)
{
    if (s->has_best) assert_true(s->best.feasible);
    double last_best = s->has_best ? s->best.energy : INFINITY;
    long long steps = 0;
    while (!s->done) {
        sm_solver_step(s, 1);
        steps++;
        assert_true(steps < 100000);
        const char *why = s->explain.why;
        if (!s->done) {
            assert_true(strcmp(why, "incumbent") == 0 || strcmp(why, "bound") == 0);
            assert_true(s->has_best || strcmp(why, "bound") == 0);
        }
        if (s->has_best && !s->done) {
            assert_true(s->best.feasible);
            assert_true(s->best.energy <= last_best);
            last_best = s->best.energy;
        }
        if (strcmp(why, "incumbent") == 0) {
            assert_non_null(s->current_map);
            sm_eval shown;
            sm_eval_reference(g, t, m, s->current_map, &shown);
            tu_assert_close(shown.energy, s->best.energy, 1e-9, "incumbent shown");
            assert_memory_equal(s->current_map, s->best_map, sizeof(int) * (size_t)g->ntasks);
        }
        for (int i = 0; i < s->nstats; i++)
            if (strcmp(s->stats[i].key, "bound") == 0 && s->has_best && s->best.feasible)
                assert_true(s->stats[i].value <= s->best.energy * (1 + 1e-9));
    }
}

/* The ILP's answer on random tiny instances equals enumeration, with the
 * decomposition by counts or with the monolithic model (-counts off), idle
 * power charged to unused processors or not (-unused off). */
static void ilp_matches_enumeration(const char *counts, unsigned seed)
{
    int proven = 0;
    for (int trial = 0; trial < 24; trial++) {
        int P = 2 + trial % 2;
        /* 8 blocks (3^8 mappings): 4x2x1 or 2x2x2, sometimes periodic. */
        int cube = trial % 4 >= 2;
        sm_grid *g = tu_grid(cube ? 2 : 4, 2, cube ? 2 : 1, trial % 3 == 0, 0, 0, SM_ST_7PT);
        sm_topo *t = random_topo(&seed, P);
        sm_model m;
        sm_model_default(&m);
        m.round_time = 1e-6 * (1 + rand_r(&seed) % 3);
        m.overlap = rand_r(&seed) % 2;
        m.unused_idle = counts[1] == 'n' ? rand_r(&seed) % 4 != 0 : rand_r(&seed) % 2;
        /* A deadline between the fastest balance and everything on one. */
        sm_eval any;
        int zero[8] = {0};
        sm_eval_reference(g, t, &m, zero, &any);
        m.has_deadline = trial % 5 != 0;
        m.deadline = any.time * (0.3 + 0.1 * (rand_r(&seed) % 8));
        sm_eval want;
        tu_enumerate(g, t, &m, &want);
        sm_err e;
        const char *argv[6] = {"-warm", trial % 2 ? "on" : "off", "-timeout", "60", "-counts", counts};
        sm_solver *s = sm_solver_new(&sm_solver_ilp, g, t, &m, zero, 6, argv, &e);
        if (!s) fail_msg("%s", e.msg);
        stepped_solve(s, g, t, &m);
        assert_true(s->done);
        assert_true(s->has_best);
        sm_eval got;
        sm_eval_reference(g, t, &m, s->best_map, &got);
        assert_int_equal(got.feasible, want.feasible);
        if (want.feasible) {
            tu_assert_close(got.energy, want.energy, 1e-9, "ilp vs enumeration");
            /* maxdeg (the default) is what the ILP models: always proven. */
            assert_string_equal(s->status, "optimal");
            proven++;
        }
        sm_solver_free(s);
        sm_topo_free(t);
        sm_grid_free(g);
    }
    assert_true(proven >= 12);
}

static void counts_never_cut_off_the_optimum(void **st)
{
    (void)st;
    ilp_matches_enumeration("on", 14);
}

/* Stepping the ILP one incumbent at a time is deterministic: two runs
 * take the same steps, with the same best after each, as running it to
 * the end in one call; more than one incumbent is seen on the way. */
static void ilp_steps_are_repeatable(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(4, 4, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    m.has_deadline = 1;
    m.deadline = 0.81e-3; /* tight: lp_solve improves its incumbent often */
    int *zero = calloc((size_t)g->ntasks, sizeof(int));
    const char *argv[6] = {"-warm", "off", "-counts", "off", "-timeout", "60"};
    double e1[64], e2[64];
    int n1 = 0, n2 = 0, incumbents = 0;
    for (int run = 0; run < 2; run++) {
        sm_err e;
        sm_solver *s = sm_solver_new(&sm_solver_ilp, g, t, &m, zero, 6, argv, &e);
        if (!s) fail_msg("%s", e.msg);
        /* Step 0 shows no infeasible mapping as best. */
        assert_true(!s->has_best || s->best.feasible);
        while (!s->done && (run ? n2 : n1) < 64) {
            sm_solver_step(s, 1);
            if (strcmp(s->explain.why, "incumbent")) continue;
            double *E = run ? e2 : e1;
            int *n = run ? &n2 : &n1;
            E[*n] = s->best.energy;
            (*n)++;
            incumbents += run == 0;
            if (*n == 3) break; /* the third incumbent is enough */
        }
        sm_solver_free(s);
    }
    assert_true(incumbents >= 2);
    assert_int_equal(n1, n2);
    for (int i = 0; i < n1; i++) {
        tu_assert_close(e1[i], e2[i], 1e-12, "same incumbents");
        if (i) assert_true(e1[i] < e1[i - 1]);
    }
    free(zero);
    sm_topo_free(t);
    sm_grid_free(g);
}

static void monolithic_model_is_exact(void **st)
{
    (void)st;
    ilp_matches_enumeration("off", 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(profile_matches_brute_force),
        cmocka_unit_test(counts_never_cut_off_the_optimum),
        cmocka_unit_test(monolithic_model_is_exact),
        cmocka_unit_test(ilp_steps_are_repeatable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
