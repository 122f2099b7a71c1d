/* test_edge_colouring.c - the colouring rounds model against brute-force optimal
 * edge colourings of small multigraphs. */
#include "tests/unit/testutil.h"
#include "core/colouring/edge_colouring.h"

/* Smallest k such that the unit edges can be coloured properly. */
static int eu[64], ev[64], ecol[64], ne;

static int colour_from(int i, int k)
{
    if (i == ne) return 1;
    for (int c = 0; c < k; c++) {
        int ok = 1;
        for (int j = 0; j < i && ok; j++)
            if (ecol[j] == c && (eu[j] == eu[i] || eu[j] == ev[i] || ev[j] == eu[i] || ev[j] == ev[i]))
                ok = 0;
        /* Symmetry: parallel copies of one pair take increasing colours. */
        if (ok && i > 0 && eu[i - 1] == eu[i] && ev[i - 1] == ev[i] && c < ecol[i - 1]) ok = 0;
        if (!ok) continue;
        ecol[i] = c;
        if (colour_from(i + 1, k)) return 1;
    }
    return 0;
}

static int64_t brute(const sm_pairmu *p, int n)
{
    ne = 0;
    for (int i = 0; i < n; i++)
        for (int64_t k = 0; k < p[i].mu; k++) {
            eu[ne] = p[i].p;
            ev[ne] = p[i].q;
            ne++;
        }
    for (int k = 0;; k++)
        if (colour_from(0, k)) return k;
}

/* Rounds are matchings and cover every pair's multiplicity. */
static void check_valid(const sm_schedule *s, const sm_pairmu *p, int n, int nprocs)
{
    int64_t total = 0;
    int64_t *cover = calloc((size_t)n, sizeof(int64_t));
    for (int r = 0; r < s->nrounds; r++) {
        char *busy = calloc((size_t)nprocs, 1);
        int64_t longest = 0;
        for (int k = 0; k < s->rounds[r].count; k++) {
            const sm_round_entry *e = &s->entries[s->rounds[r].first + k];
            assert_false(busy[e->p]);
            assert_false(busy[e->q]);
            busy[e->p] = busy[e->q] = 1;
            assert_true(e->quanta <= s->rounds[r].duration);
            if (e->quanta > longest) longest = e->quanta;
            for (int i = 0; i < n; i++)
                if ((p[i].p == e->p && p[i].q == e->q) || (p[i].p == e->q && p[i].q == e->p))
                    cover[i] += e->quanta;
        }
        assert_int_equal(longest, s->rounds[r].duration);
        total += s->rounds[r].duration;
        free(busy);
    }
    for (int i = 0; i < n; i++) assert_true(cover[i] >= p[i].mu);
    assert_int_equal(total, s->colours);
    free(cover);
}

static int random_graph(unsigned long long *rs, int m, int maxmu, int maxedges, sm_pairmu *p)
{
    int n = 0, units = 0;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            if (sm_rand_next(rs) % 3 == 0) continue;
            int mu = 1 + (int)(sm_rand_next(rs) % (unsigned)maxmu);
            if (units + mu > maxedges) continue;
            p[n++] = (sm_pairmu){a, b, mu};
            units += mu;
        }
    return n;
}

static void exact_up_to_four(void **st)
{
    (void)st;
    unsigned long long rs = 7;
    int tried = 0;
    for (int trial = 0; trial < 300; trial++) {
        int m = 2 + trial % 3;
        sm_pairmu p[16];
        int n = random_graph(&rs, m, 4, 12, p);
        int64_t lb, opt = brute(p, n);
        sm_schedule s;
        int64_t col = sm_schedule_build(p, n, m, &s, &lb);
        assert_int_equal(col, opt);
        assert_int_equal(lb, opt);
        check_valid(&s, p, n, m);
        sm_schedule_free(&s);
        tried++;
    }
    assert_int_equal(tried, 300);
}

static void four_processors_formula(void **st)
{
    (void)st;
    /* m = 4: sum over the three perfect matchings of the larger one. */
    sm_pairmu p[6] = {{0, 1, 5}, {2, 3, 2}, {0, 2, 1}, {1, 3, 4}, {0, 3, 3}, {1, 2, 3}};
    int64_t lb;
    assert_int_equal(sm_schedule_build(p, 6, 4, NULL, &lb), 5 + 4 + 3);
    /* m = 3: the total multiplicity. */
    sm_pairmu t[3] = {{0, 1, 2}, {1, 2, 3}, {0, 2, 4}};
    assert_int_equal(sm_schedule_build(t, 3, 3, NULL, &lb), 9);
    /* m = 2: mu. */
    sm_pairmu d[1] = {{4, 7, 6}};
    assert_int_equal(sm_schedule_build(d, 1, 8, NULL, &lb), 6);
}

static void bounds_beyond_four(void **st)
{
    (void)st;
    unsigned long long rs = 99;
    int exact = 0;
    for (int trial = 0; trial < 200; trial++) {
        int m = 5 + trial % 2;
        sm_pairmu p[32];
        int n = random_graph(&rs, m, 3, 11, p);
        int64_t lb, opt = brute(p, n);
        sm_schedule s;
        int64_t col = sm_schedule_build(p, n, m, &s, &lb);
        assert_true(lb <= opt);
        assert_true(opt <= col);
        /* Vizing's bound holds for what we build. */
        assert_true(col <= sm_multigraph_maxdeg(p, n, m) + sm_multigraph_maxmu(p, n) ||
                    col <= 3 * sm_multigraph_maxdeg(p, n, m) / 2);
        exact += col == opt;
        check_valid(&s, p, n, m);
        sm_schedule_free(&s);
    }
    /* The greedy should be optimal on most small graphs. */
    assert_true(exact >= 150);
    printf("colouring optimal on %d of 200 graphs with 5-6 processors\n", exact);
}

static void odd_cycle_bound(void **st)
{
    (void)st;
    /* A 5-cycle with unit multiplicity needs 3 colours although Delta = 2. */
    sm_pairmu p[5] = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}, {0, 4, 1}};
    int64_t lb;
    int64_t col = sm_schedule_build(p, 5, 5, NULL, &lb);
    assert_int_equal(lb, 3);
    assert_int_equal(col, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_up_to_four),
        cmocka_unit_test(four_processors_formula),
        cmocka_unit_test(bounds_beyond_four),
        cmocka_unit_test(odd_cycle_bound),
    };
    return cmocka_run_group_tests_name("schedule", tests, NULL, NULL);
}
