/* test_student_t_interval.c - Student's t quantiles against published tables, and the
 * interval of repeated measurements. */
#include "tests/unit/testutil.h"
#include "core/measure/student_t_interval.h"

static void quantiles_as_tabulated(void **st)
{
    (void)st;
    /* Two-sided 95 % and 99 % critical values (NIST/SEMATECH e-Handbook
     * 1.3.6.7.2), to the 6 digits printed there and more. */
    static const struct { double p, nu, t; } tab[] = {
        {0.975, 1, 12.706204736}, {0.975, 2, 4.302652730}, {0.975, 4, 2.776445105},
        {0.975, 9, 2.262157163},  {0.975, 10, 2.228138852}, {0.975, 30, 2.042272456},
        {0.975, 49, 2.009575237}, {0.995, 5, 4.032142984},  {0.995, 20, 2.845339710},
        {0.95, 3, 2.353363435},   {0.90, 7, 1.414923928},   {0.975, 1e7, 1.959964},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        double t = sm_student_quantile(tab[i].p, tab[i].nu);
        if (fabs(t - tab[i].t) > 2e-6 * tab[i].t)
            fail_msg("t(%g, %g) = %.10g, expected %.10g", tab[i].p, tab[i].nu, t, tab[i].t);
    }
    assert_float_equal(sm_student_quantile(0.025, 4), -2.776445105, 1e-8);
    assert_float_equal(sm_student_quantile(0.5, 3), 0, 0);
    assert_true(isnan(sm_student_quantile(1.0, 3)));
    assert_float_equal(sm_student_cdf(2.228138852, 10), 0.975, 1e-9);
    assert_float_equal(sm_incbeta(2, 3, 0.4), 0.5248, 1e-12);
}

static void interval_of_repetitions(void **st)
{
    (void)st;
    double x[] = {10.0, 10.2, 9.8, 10.1, 9.9};
    sm_interval iv;
    sm_interval_of(x, 5, 0.95, &iv);
    assert_int_equal(iv.n, 5);
    assert_float_equal(iv.mean, 10.0, 1e-12);
    assert_float_equal(iv.sd, sqrt(0.1 / 4), 1e-12);
    assert_float_equal(iv.half, 2.776445105 * sqrt(0.1 / 4) / sqrt(5), 1e-8);
    assert_true(sm_interval_tight(&iv, 0.05));
    assert_false(sm_interval_tight(&iv, 0.01));
    sm_interval_of(x, 1, 0.95, &iv);
    assert_true(isinf(iv.half));
    assert_false(sm_interval_tight(&iv, 0.5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quantiles_as_tabulated),
        cmocka_unit_test(interval_of_repetitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
