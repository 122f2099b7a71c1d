/* test_optimal_partitioning.c - the solution tree of popta against an independent
 * dynamic programme (optimal_partitioning_ref.h) over many random profiles: missing
 * sizes, non-monotone times and energies, both objectives, every step. */
#include "tests/unit/testutil.h"
#include "optimal_partitioning_ref.h"
#include "solvers/profile_partitioning/pareto_front_sweep.h"
#include "solvers/profile_partitioning/solution_tree.h"

static void random_instance(unsigned long long *rs, int P, int n, ref_proc *pr)
{
    for (int i = 0; i < P; i++) {
        pr[i].pts = malloc(sizeof(ref_pt) * (size_t)(n + 1));
        pr[i].n = 0;
        for (int x = 1; x <= n; x++)
            if (sm_rand_next(rs) % 10 < 6)
                pr[i].pts[pr[i].n++] = (ref_pt){x, (double)(1 + sm_rand_next(rs) % 50),
                                                (double)(1 + sm_rand_next(rs) % 80)};
    }
}

static void tree_units(const ref_proc *pr, int P, int op, sm_pt_proc *u)
{
    for (int i = 0; i < P; i++) {
        sm_pt_point *v = malloc(sizeof(sm_pt_point) * (size_t)(pr[i].n + 1));
        v[0] = (sm_pt_point){0, 0};
        for (int k = 0; k < pr[i].n; k++)
            v[k + 1] = (sm_pt_point){pr[i].pts[k].size, op ? pr[i].pts[k].energy : pr[i].pts[k].time};
        sm_pt_proc_init(&u[i], v, pr[i].n + 1);
        free(v);
    }
}

static double value_of(const ref_proc *pr, int P, const int *counts, int op, int n)
{
    double v = 0;
    int sum = 0;
    for (int i = 0; i < P; i++) {
        sum += counts[i];
        if (!counts[i]) continue;
        int found = 0;
        for (int k = 0; k < pr[i].n; k++)
            if (pr[i].pts[k].size == counts[i]) {
                double c = op ? pr[i].pts[k].energy : pr[i].pts[k].time;
                v = op ? v + c : fmax(v, c);
                found = 1;
            }
        if (!found) return -1; /* an inadmissible size */
    }
    return sum == n ? v : -2;
}

static void tree_matches_dp(void **st)
{
    (void)st;
    unsigned long long rs = 777;
    int checks = 0, none = 0;
    for (int trial = 0; trial < 400; trial++) {
        int P = 1 + (int)(sm_rand_next(&rs) % 8), n = 1 + (int)(sm_rand_next(&rs) % 40);
        ref_proc pr[8];
        random_instance(&rs, P, n, pr);
        for (int op = 0; op < 2; op++) {
            sm_pt_proc u[8];
            tree_units(pr, P, op, u);
            sm_pt_tree t;
            sm_pt_start(&t, u, P, n, op ? SM_PT_SUM : SM_PT_MAX, INFINITY);
            long long steps = 0;
            while (!sm_pt_step(&t)) steps++;
            /* One step, one node: the steps never exceed the nodes. */
            assert_true(steps <= t.nodes);
            double want = ref_dp(pr, P, n, op, INFINITY, NULL);
            if (!isfinite(want)) {
                assert_false(isfinite(t.result));
                none++;
            } else {
                assert_true(isfinite(t.result));
                assert_true(t.result == want);
                int counts[8];
                sm_pt_counts(&t, counts);
                assert_true(value_of(pr, P, counts, op, n) == want);
            }
            /* A bound at the optimum finds nothing; just above finds it. */
            if (isfinite(want)) {
                sm_pt_tree b;
                sm_pt_start(&b, u, P, n, op ? SM_PT_SUM : SM_PT_MAX, want);
                sm_pt_run(&b);
                assert_false(isfinite(b.result));
                sm_pt_free(&b);
                sm_pt_start(&b, u, P, n, op ? SM_PT_SUM : SM_PT_MAX, want + 0.5);
                sm_pt_run(&b);
                assert_true(b.result == want);
                sm_pt_free(&b);
            }
            sm_pt_free(&t);
            for (int i = 0; i < P; i++) sm_pt_proc_free(&u[i]);
            checks++;
        }
        for (int i = 0; i < P; i++) free(pr[i].pts);
    }
    assert_int_equal(checks, 800);
    assert_true(none > 0 && none < 400); /* both kinds of instance occurred */
}

/* The memo and the thresholds prune: far fewer nodes than the DP's
 * states on a larger instance. */
static void pruning_pays(void **st)
{
    (void)st;
    unsigned long long rs = 99;
    int P = 16, n = 400;
    ref_proc pr[16];
    for (int i = 0; i < P; i++) {
        pr[i].pts = malloc(sizeof(ref_pt) * (size_t)n);
        pr[i].n = 0;
        double speed = 1 + (double)(sm_rand_next(&rs) % 8);
        for (int x = 1; x <= n; x++)
            pr[i].pts[pr[i].n++] = (ref_pt){x, x / speed * (1 + 0.2 * sm_rand_unit(&rs)), x * (1 + sm_rand_unit(&rs))};
    }
    sm_pt_proc u[16];
    tree_units(pr, P, 0, u);
    sm_pt_tree t;
    sm_pt_start(&t, u, P, n, SM_PT_MAX, INFINITY);
    sm_pt_run(&t);
    assert_true(t.result == ref_dp(pr, P, n, 0, INFINITY, NULL));
    assert_true(t.nodes < (int64_t)P * (n + 1));
    assert_true(t.pruned > 0);
    sm_pt_free(&t);
    for (int i = 0; i < P; i++) { sm_pt_proc_free(&u[i]); free(pr[i].pts); }
}

/* The sweep's front against a plain threshold sweep: for every distinct
 * time T in ascending order, the least energy at T by the reference DP;
 * a front point wherever it falls. Random profiles with missing sizes,
 * times and energies not monotone and unlike each other. */
static int sweep_instance(unsigned long long *rs, int P, int n, ref_proc *pr, int ties, int twins)
{
    random_instance(rs, P, n, pr);
    /* Identical processors: the sweep asks once per class. */
    for (int i = 1; twins && i < P; i += 2) {
        free(pr[i].pts);
        pr[i].pts = malloc(sizeof(ref_pt) * (size_t)(pr[0].n + 1));
        memcpy(pr[i].pts, pr[0].pts, sizeof(ref_pt) * (size_t)(pr[0].n + 1));
        pr[i].n = pr[0].n;
    }
    if (ties) /* few distinct times: many points admitted at once */
        for (int i = 0; i < P; i++)
            for (int k = 0; k < pr[i].n; k++) pr[i].pts[k].time = (double)(1 + (int)pr[i].pts[k].time % 5);
    double T0 = ref_dp(pr, P, n, 0, INFINITY, NULL);
    return isfinite(T0);
}

static void run_sweep(const ref_proc *pr, int P, int n, sm_ps *s)
{
    const sm_ps_pt *pts[8];
    int np[8];
    sm_ps_pt *buf[8];
    for (int i = 0; i < P; i++) {
        buf[i] = malloc(sizeof(sm_ps_pt) * (size_t)(pr[i].n + 1));
        for (int k = 0; k < pr[i].n; k++) buf[i][k] = (sm_ps_pt){pr[i].pts[k].size, pr[i].pts[k].time, pr[i].pts[k].energy};
        pts[i] = buf[i];
        np[i] = pr[i].n;
    }
    sm_ps_init(s, P, n, pts, np);
    for (int i = 0; i < P; i++) free(buf[i]);
    int counts[8];
    double T0 = ref_dp(pr, P, n, 0, INFINITY, counts);
    sm_ps_begin(s, T0, counts);
    long guard = 0;
    while (!sm_ps_step(s)) assert_true(++guard < 1000000);
}

static void sweep_matches_plain(void **st)
{
    (void)st;
    unsigned long long rs = 4242;
    int checked = 0, points = 0, multi = 0;
    for (int trial = 0; trial < 600; trial++) {
        int P = 1 + (int)(sm_rand_next(&rs) % 8), n = 1 + (int)(sm_rand_next(&rs) % 40);
        ref_proc pr[8];
        if (!sweep_instance(&rs, P, n, pr, trial % 3 == 0, trial % 4 == 1)) {
            for (int i = 0; i < P; i++) free(pr[i].pts);
            continue;
        }
        sm_ps s;
        run_sweep(pr, P, n, &s);
        /* The plain sweep. */
        double ts[8 * 41];
        int nts = 0;
        for (int i = 0; i < P; i++)
            for (int k = 0; k < pr[i].n; k++) ts[nts++] = pr[i].pts[k].time;
        for (int a = 1; a < nts; a++) {
            double v = ts[a];
            int b = a;
            while (b > 0 && ts[b - 1] > v) { ts[b] = ts[b - 1]; b--; }
            ts[b] = v;
        }
        double lastE = INFINITY;
        int f = 0;
        for (int a = 0; a < nts; a++) {
            if (a && ts[a] == ts[a - 1]) continue;
            double e = ref_dp(pr, P, n, 1, ts[a], NULL);
            if (e < lastE) {
                assert_true(f < s.nfront);
                assert_true(s.ft[f] == ts[a]);
                assert_true(s.fe[f] == e);
                /* The counts are admissible, add up to n, reach (T, E). */
                int sum = 0;
                for (int i = 0; i < P; i++) sum += s.fc[(size_t)f * (size_t)P + (size_t)i];
                assert_int_equal(sum, n);
                double t, en;
                sm_ps_profile(&s, &s.fc[(size_t)f * (size_t)P], &t, &en);
                assert_true(t == ts[a] && en == e);
                f++;
                lastE = e;
            }
        }
        assert_int_equal(s.nfront, f);
        points += f;
        multi += f > 2;
        checked++;
        sm_ps_free(&s);
        for (int i = 0; i < P; i++) free(pr[i].pts);
    }
    assert_true(checked > 300);
    assert_true(multi > 50 && points > 4 * checked / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_matches_dp),
        cmocka_unit_test(pruning_pays),
        cmocka_unit_test(sweep_matches_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
