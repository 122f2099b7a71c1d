/* test_package_energy_shares.c - who reads which RAPL package in a run
 * (run/package_energy_shares.c): one reader per (host, package), the first rank on
 * it; shares by cores that sum to 1 on every package, so no joule is
 * counted twice; ranks without a package read nothing. */
#include "tests/unit/testutil.h"
#include "run/package_energy_shares.h"

static smr_energy_where at(const char *host, int package, int device, int weight)
{
    smr_energy_where w;
    memset(&w, 0, sizeof w);
    snprintf(w.host, sizeof w.host, "%s", host);
    w.package = package;
    w.device = device;
    w.weight = weight;
    return w;
}

static void one_reader_a_package(void **st)
{
    (void)st;
    /* node a: two ranks per core on package 0 (1 and 3 cores), one on
     * package 1; node b: package 0 again (another host: its own reader);
     * a GPU rank on a's package 1 (its host core); a rank with no package. */
    smr_energy_where w[] = {
        at("a", 0, -1, 1), at("a", 0, -1, 3), at("a", 1, -1, 6), at("b", 0, -1, 2),
        at("a", 1, 4, 1), at("b", -1, -1, 4),
    };
    int n = (int)(sizeof w / sizeof w[0]);
    int reader[6];
    double share[6];
    smr_energy_plan(n, w, reader, share);
    const int want_reader[] = {0, 0, 2, 3, 2, -1};
    const double want_share[] = {0.25, 0.75, 6.0 / 7, 1, 1.0 / 7, 0};
    for (int r = 0; r < n; r++) {
        assert_int_equal(reader[r], want_reader[r]);
        assert_true(fabs(share[r] - want_share[r]) < 1e-12);
    }
    /* The shares of every counter sum to one: nothing counted twice. */
    for (int r = 0; r < n; r++) {
        if (reader[r] != r) continue;
        double sum = 0;
        for (int k = 0; k < n; k++)
            if (reader[k] == r) sum += share[k];
        assert_true(fabs(sum - 1) < 1e-12);
    }
}

static void zero_weight_counts_as_one(void **st)
{
    (void)st;
    smr_energy_where w[] = {at("h", 2, -1, 0), at("h", 2, -1, 0)};
    int reader[2];
    double share[2];
    smr_energy_plan(2, w, reader, share);
    assert_int_equal(reader[0], 0);
    assert_int_equal(reader[1], 0);
    assert_true(fabs(share[0] - 0.5) < 1e-12 && fabs(share[1] - 0.5) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_reader_a_package),
        cmocka_unit_test(zero_weight_counts_as_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
