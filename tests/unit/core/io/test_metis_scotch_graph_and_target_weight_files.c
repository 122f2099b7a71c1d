/* test_metis_scotch_graph_and_target_weight_files.c - METIS target weights: each within 1e-9 of the
 * processor's speed share, summing to exactly 1, at every size up to the
 * summit-full machine (36,864 processors), with no processor absorbing the
 * rounding of the others. */
#include "tests/unit/testutil.h"
#include "core/io/metis_scotch_graph_and_target_weight_files.h"
#include "core/lib/strbuf.h"

/* A machine of n processors cycling through the given time-per-cell values
 * (one type each), one node per 8 processors. */
static sm_topo *machine(int n, const double *tpc, int ntypes)
{
    sm_strbuf b;
    sm_strbuf_init(&b);
    sm_strbuf_put(&b, "{\"format\":\"stencilmap/topology\",\"version\":1,\"types\":{");
    for (int k = 0; k < ntypes; k++)
        sm_strbuf_put(&b, "%s\"t%d\":{\"time_per_cell\":%.17g,\"energy_per_cell\":1e-9,\"p0\":1,\"p_idle\":1}",
                      k ? "," : "", k, tpc[k]);
    sm_strbuf_put(&b, "},\"processors\":[");
    for (int p = 0; p < n; p++)
        sm_strbuf_put(&b, "%s{\"name\":\"p%d\",\"type\":\"t%d\",\"node\":%d}", p ? "," : "", p, p % ntypes, p / 8);
    sm_strbuf_put(&b, "],\"network\":{\"kind\":\"tree\",\"group_sizes\":[18]},"
                      "\"links\":{\"intra\":{\"*\":{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9}},"
                      "\"inter\":[{\"time_per_cell\":1e-9,\"energy_per_cell\":1e-9},"
                      "{\"time_per_cell\":2e-9,\"energy_per_cell\":2e-9}]}}");
    sm_topo *t = tu_topo_text(b.s);
    free(b.s);
    return t;
}

static void check_weights(int n, const double *tpc, int ntypes)
{
    sm_topo *t = machine(n, tpc, ntypes);
    long long *u = sm_tpwgts_units(t);
    double total = 0;
    for (int p = 0; p < n; p++) total += 1.0 / tpc[p % ntypes];
    long long sum = 0;
    double worst = 0;
    for (int p = 0; p < n; p++) {
        double share = (1.0 / tpc[p % ntypes]) / total;
        double d = fabs((double)u[p] * 1e-9 - share);
        if (d > worst) worst = d;
        if (u[p] <= 0) fail_msg("n=%d: processor %d has weight %lld", n, p, u[p]);
        sum += u[p];
    }
    if (sum != 1000000000LL) fail_msg("n=%d: weights sum to %lld units, expected 1e9", n, sum);
    if (worst > 1.0000001e-9) fail_msg("n=%d: a weight is %.3g off its share", n, worst);
    /* The text says the same, digit for digit. */
    size_t len;
    char *text = sm_tpwgts_text(t, &len);
    const char *s = text;
    for (int p = 0; p < n; p++) {
        int idx;
        long long whole, frac;
        int used;
        if (sscanf(s, "%d = %lld.%9lld\n%n", &idx, &whole, &frac, &used) != 3 || idx != p)
            fail_msg("n=%d: line %d: %.40s", n, p + 1, s);
        assert_int_equal(whole * 1000000000LL + frac, u[p]);
        s += used;
    }
    assert_int_equal((size_t)(s - text), len);
    free(text);
    free(u);
    sm_topo_free(t);
}

static void tpwgts_every_size(void **st)
{
    (void)st;
    /* summit-full's two kinds (POWER9, V100: 24 bytes a cell over 135 and
     * 790 GB/s), the thesis's CPU and GPU, and three unrelated speeds. */
    const double summit[2] = {24.0 / 135e9, 24.0 / 790e9};
    const double thesis[2] = {218e-6 / 262144, 28e-6 / 262144};
    const double odd[3] = {1.0 / 3.0, 1.0 / 7.0, 1e-3};
    const int sizes[] = {1, 2, 3, 7, 8, 100, 999, 4096, 36863, 36864};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        check_weights(sizes[i], summit, 2);
        check_weights(sizes[i], thesis, 2);
        check_weights(sizes[i], odd, 3);
    }
}

/* The last processor gets its share, not the rounding of the 36,863
 * before it (it was 138 times too large). */
static void tpwgts_last_is_fair(void **st)
{
    (void)st;
    const double summit[2] = {24.0 / 135e9, 24.0 / 790e9};
    sm_topo *t = machine(36864, summit, 2);
    long long *u = sm_tpwgts_units(t);
    assert_true(llabs(u[36863] - u[36861]) <= 1);
    assert_true(llabs(u[36862] - u[0]) <= 1);
    free(u);
    sm_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tpwgts_every_size),
        cmocka_unit_test(tpwgts_last_is_fair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
