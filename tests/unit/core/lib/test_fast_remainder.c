/* test_fast_remainder.c - core/lib/fast_remainder.h gives what % gives:
 * every divisor up to 5000 and divisors at the edges of 64 bits (powers
 * of two, their neighbours, odd and even, 2^64 - 1), against numerators
 * at the edges (0, 1, d - 1, d, d + 1, 2^64 - 1...) and random ones. */
#include "tests/unit/testutil.h"
#include "core/lib/fast_remainder.h"
#include "core/model/speed_proportional_quota.h"

static void check(uint64_t d, uint64_t x)
{
    sm_fastmod f = sm_fastmod_of(d);
    sm_divides t = sm_divides_of(d);
    uint64_t want = x % d, got = sm_fastmod_rem(&f, x);
    if (got != want)
        fail_msg("%llu %% %llu: %llu, want %llu", (unsigned long long)x, (unsigned long long)d,
                 (unsigned long long)got, (unsigned long long)want);
    if (sm_divides_test(&t, x) != (want == 0))
        fail_msg("%llu | %llu: %d, want %d", (unsigned long long)d, (unsigned long long)x, sm_divides_test(&t, x),
                 want == 0);
}

static void edges(uint64_t d, unsigned long long *rs)
{
    const uint64_t xs[] = {0, 1, 2, d - 1, d, d + 1, 2 * d, 3 * d - 1, UINT64_MAX, UINT64_MAX - 1,
                           UINT64_MAX - d, (UINT64_MAX / d) * d, (UINT64_MAX / d) * d - 1, UINT64_C(1) << 63};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) check(d, xs[i]);
    for (int i = 0; i < 40; i++) {
        uint64_t x = sm_rand_next(rs);
        check(d, x);
        check(d, x - x % d); /* a multiple: divides */
    }
}

static void same_as_division(void **st)
{
    (void)st;
    unsigned long long rs = 1;
    int checked = 0;
    for (uint64_t d = 1; d <= 5000; d++, checked++) edges(d, &rs);
    for (int k = 1; k < 64; k++) {
        uint64_t p = UINT64_C(1) << k;
        const uint64_t ds[] = {p, p - 1, p + 1, p | 1, (p - 1) ^ 2};
        for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++, checked++)
            if (ds[i]) edges(ds[i], &rs);
    }
    edges(UINT64_MAX, &rs);
    for (int i = 0; i < 2000; i++, checked++) {
        uint64_t d = sm_rand_next(&rs) >> (sm_rand_next(&rs) % 64);
        if (d) edges(d, &rs);
    }
    assert_true(checked > 7000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_division),
    };
    return cmocka_run_group_tests_name("fast_remainder", tests, NULL, NULL);
}
