/* test_genetic_algorithm.c - the genetic operators of `ga`: SPEC 4's ordered-crossover
 * check, the permutation and order properties of OX and swap mutation,
 * roulette selection, and the solver's elitism and interruption. */
#include "tests/unit/testutil.h"
#include "solvers/process_to_node/genetic_algorithm.h"
#include "solvers/stepper/solver_stepper.h"

static void digits(const char *s, int *out)
{
    for (int i = 0; s[i]; i++) out[i] = s[i] - '0';
}

static void assert_digits(const int *v, const char *want)
{
    char got[16];
    for (int i = 0; want[i]; i++) got[i] = (char)('0' + v[i]);
    got[strlen(want)] = 0;
    assert_string_equal(got, want);
}

/* SPEC 4: parents 9845671320 and 8712309546, section 3..5. */
static void ox_spec_check(void **st)
{
    (void)st;
    int p1[10], p2[10], child[10];
    unsigned char used[10];
    digits("9845671320", p1);
    digits("8712309546", p2);
    sm_ga_ox(p1, p2, 10, 3, 5, child, used);
    assert_digits(child, "2305679481");
    sm_ga_ox(p2, p1, 10, 3, 5, child, used);
    assert_digits(child, "5672301984");
}

static int is_perm(const int *v, int n)
{
    int *seen = calloc((size_t)n, sizeof(int)), ok = 1;
    for (int i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] >= n || seen[v[i]]) ok = 0;
        else seen[v[i]] = 1;
    }
    free(seen);
    return ok;
}

static void shuffle(int *v, int n, unsigned long long *rng)
{
    for (int i = 0; i < n; i++) v[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(sm_rand_next(rng) % (unsigned)(i + 1)), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* On random parents and sections: a permutation, p1's section in place,
 * the other genes in p2's cyclic order from hi+1 (checked by reading both
 * from hi+1, not by the operator's own loop). */
static void ox_properties(void **st)
{
    (void)st;
    enum { N = 37 };
    unsigned long long rng = 12345;
    int p1[N], p2[N], child[N];
    unsigned char used[N];
    for (int trial = 0; trial < 500; trial++) {
        shuffle(p1, N, &rng);
        shuffle(p2, N, &rng);
        int lo = (int)(sm_rand_next(&rng) % N), hi = (int)(sm_rand_next(&rng) % N);
        if (lo > hi) { int t = lo; lo = hi; hi = t; }
        sm_ga_ox(p1, p2, N, lo, hi, child, used);
        assert_true(is_perm(child, N));
        for (int i = lo; i <= hi; i++) assert_int_equal(child[i], p1[i]);
        int in_section[N] = {0};
        for (int i = lo; i <= hi; i++) in_section[p1[i]] = 1;
        int want[N], nw = 0;
        for (int k = 1; k <= N; k++)
            if (!in_section[p2[(hi + k) % N]]) want[nw++] = p2[(hi + k) % N];
        assert_int_equal(nw, N - (hi - lo + 1));
        for (int k = 0; k < nw; k++) assert_int_equal(child[(hi + 1 + k) % N], want[k]);
    }
}

static void swap_keeps_permutation(void **st)
{
    (void)st;
    unsigned long long rng = 99;
    for (int n = 2; n <= 20; n++) {
        int v[20], before[20];
        shuffle(v, n, &rng);
        for (int t = 0; t < 200; t++) {
            memcpy(before, v, sizeof(int) * (size_t)n);
            int i, j;
            sm_ga_swap(v, n, &rng, &i, &j);
            assert_true(i != j && i >= 0 && j >= 0 && i < n && j < n);
            assert_true(is_perm(v, n));
            int changed = 0;
            for (int k = 0; k < n; k++) changed += v[k] != before[k];
            assert_int_equal(changed, 2);
            assert_int_equal(v[i], before[j]);
            assert_int_equal(v[j], before[i]);
        }
    }
}

/* Weights 1, 0, 2: cumulative 1, 1, 3; the zero weight is never drawn. */
static void roulette_draws(void **st)
{
    (void)st;
    const double cum[3] = {1, 1, 3};
    assert_int_equal(sm_ga_roulette(cum, 3, 0), 0);
    assert_int_equal(sm_ga_roulette(cum, 3, 0.999), 0);
    assert_int_equal(sm_ga_roulette(cum, 3, 1), 2);
    assert_int_equal(sm_ga_roulette(cum, 3, 2.999), 2);
    const double one[1] = {5};
    assert_int_equal(sm_ga_roulette(one, 1, 4.9), 0);
}

static double stat(const sm_solver *s, const char *key)
{
    for (int i = 0; i < s->nstats; i++)
        if (strcmp(s->stats[i].key, key) == 0) return s->stats[i].value;
    fail_msg("no stat %s", key);
    return 0;
}

/* Elitism: the generation's best never worsens; the best mapping is a
 * valid one (every processor keeps its sweep-curve count); an interrupt
 * stops inside a generation and keeps the best. */
static void elitism_and_interrupt(void **st)
{
    (void)st;
    sm_grid *g = tu_grid(6, 4, 2, 0, 0, 0, SM_ST_7PT);
    sm_topo *t = tu_thesis("cpu cpu gpu gpu");
    sm_model m;
    sm_model_default(&m);
    int start[48] = {0};
    const char *argv[] = {"-population", "20", "-generations", "30", "-objective", "energy"};
    sm_err e;
    sm_solver *s = sm_solver_new(&sm_solver_ga, g, t, &m, start, 6, argv, &e);
    if (!s) fail_msg("%s", e.msg);
    int counts0[4] = {0}, counts[4] = {0};
    for (int b = 0; b < 48; b++) counts0[s->best_map[b]]++;
    double prev = stat(s, "generation_best");
    for (int k = 0; k < 30 && !s->done; k++) {
        assert_int_equal(sm_solver_step(s, 1), 1);
        assert_int_equal((int)stat(s, "generation"), k + 1);
        double now = stat(s, "generation_best");
        assert_true(now <= prev * (1 + 1e-9));
        prev = now;
    }
    assert_true(s->done);
    for (int b = 0; b < 48; b++) counts[s->best_map[b]]++;
    assert_memory_equal(counts, counts0, sizeof counts);
    sm_eval check;
    sm_eval_reference(g, t, &m, s->best_map, &check);
    tu_assert_close(check.energy, s->best.energy, 1e-12, "best is the reported mapping");
    tu_assert_close(check.energy, stat(s, "best_value"), 1e-9, "best_value is its energy");
    sm_solver_free(s);

    s = sm_solver_new(&sm_solver_ga, g, t, &m, start, 6, argv, &e);
    assert_non_null(s);
    sm_eval first = s->best;
    volatile int flag = 1;
    s->interrupt = &flag;
    sm_solver_step(s, 1);
    assert_true(s->done && s->stopped);
    assert_true(s->has_best);
    assert_true(s->best.energy <= first.energy);
    sm_solver_free(s);

    const char *bad[] = {"-population", "4", "-elite", "4"};
    assert_null(sm_solver_new(&sm_solver_ga, g, t, &m, start, 4, bad, &e));
    assert_non_null(strstr(e.msg, "-elite"));
    sm_topo_free(t);
    sm_grid_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ox_spec_check),
        cmocka_unit_test(ox_properties),
        cmocka_unit_test(swap_keeps_permutation),
        cmocka_unit_test(roulette_draws),
        cmocka_unit_test(elitism_and_interrupt),
    };
    return cmocka_run_group_tests_name("ga", tests, NULL, NULL);
}
