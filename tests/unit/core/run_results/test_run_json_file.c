/* test_run_json_file.c - RUN.json (core/run_results/run_json_file.c): what is written reads
 * back the same; a truncated file, a missing or unknown key, a bad hash, a
 * rank out of order, a negative time are refused naming the file and the
 * JSON path; the hashes are of canonical texts (same mapping, same hash;
 * one block moved, another). */
#include "tests/unit/testutil.h"
#include "core/lib/sha256.h"
#include "core/run_results/run_json_file.h"

static sm_run sample(void)
{
    sm_run r;
    memset(&r, 0, sizeof r);
    memset(r.scenario_sha256, 'a', 64);
    memset(r.mapping_sha256, 'b', 64);
    r.iters = 10;
    snprintf(r.exchange, sizeof r.exchange, "rounds");
    snprintf(r.checksum, sizeof r.checksum, "0123456789abcdef");
    r.rounds = 3;
    r.energy_source = strdup("none");
    r.energy_why = strdup("no counter");
    r.nranks = 2;
    r.ranks = calloc(2, sizeof *r.ranks);
    for (int k = 0; k < 2; k++) {
        sm_run_rank *x = &r.ranks[k];
        x->rank = k;
        x->processor = strdup(k ? "gpu0" : "cpu0");
        x->host = strdup("vm");
        x->ncores = 1;
        x->cores = malloc(sizeof(int));
        x->cores[0] = k;
        x->device = k ? strdup("0") : NULL;
        x->blocks = 4 + k;
        x->cells = 1000 * (k + 1);
        x->threads = 1;
        x->compute_s = 0.5 + k;
        x->comm_s = 0.25;
        x->wait_s = 0.125;
        x->wall_s = 1.0 + k;
        x->compute_median_s = 0.05;
        x->compute_min_s = 0.04;
        x->bytes = 8000;
        x->messages = 20;
        x->has_energy = k;
        x->energy_j = k ? 3.5 : 0;
        if (k) {
            x->energy_counter = strdup("rapl:package-1+nvml:0");
            x->energy_share = 0.25;
        }
    }
    return r;
}

static void round_trip(void **st)
{
    (void)st;
    sm_run r = sample(), b;
    char *text = sm_run_to_text(&r);
    sm_err e;
    assert_int_equal(sm_run_parse_text(text, strlen(text), "RUN.json", &b, &e), 0);
    assert_string_equal(b.scenario_sha256, r.scenario_sha256);
    assert_string_equal(b.checksum, "0123456789abcdef");
    assert_int_equal(b.nranks, 2);
    assert_string_equal(b.ranks[1].processor, "gpu0");
    assert_string_equal(b.ranks[1].device, "0");
    assert_null(b.ranks[0].device);
    assert_int_equal(b.ranks[1].has_energy, 1);
    assert_int_equal(b.ranks[0].has_energy, 0);
    assert_true(b.ranks[1].energy_j == 3.5 && b.ranks[1].compute_s == 1.5 && b.ranks[0].cores[0] == 0);
    assert_string_equal(b.ranks[1].energy_counter, "rapl:package-1+nvml:0");
    assert_true(b.ranks[1].energy_share == 0.25);
    assert_null(b.ranks[0].energy_counter);
    char *again = sm_run_to_text(&b);
    assert_string_equal(again, text);
    free(again);
    sm_run_free(&b);
    free(text);
    sm_run_free(&r);
}

static void expect_refused(const char *text, const char *want)
{
    sm_run b;
    sm_err e;
    if (sm_run_parse_text(text, strlen(text), "RUN.json", &b, &e) == 0) fail_msg("accepted (want \"%s\")", want);
    if (!strstr(e.msg, want) || strncmp(e.msg, "RUN.json: ", 10) != 0) fail_msg("got \"%s\", want \"%s\"", e.msg, want);
    assert_int_equal(b.nranks, 0);
    assert_null(b.ranks);
}

/* The sample's text with `from` replaced by `to` (once). */
static char *edit(const char *from, const char *to)
{
    sm_run r = sample();
    char *t = sm_run_to_text(&r);
    sm_run_free(&r);
    char *at = strstr(t, from);
    if (!at) fail_msg("no \"%s\" in the sample", from);
    size_t n = strlen(t) - strlen(from) + strlen(to) + 1;
    char *o = malloc(n);
    snprintf(o, n, "%.*s%s%s", (int)(at - t), t, to, at + strlen(from));
    free(t);
    return o;
}

static void bad_input(void **st)
{
    (void)st;
    sm_run r = sample();
    char *t = sm_run_to_text(&r);
    sm_run_free(&r);
    t[strlen(t) / 2] = '\0';
    expect_refused(t, "");
    free(t);
    struct { const char *from, *to, *want; } cases[] = {
        {"\"iters\":\t10", "\"iters\":\t0", "iters"},
        {"\"checksum\":\t\"0123456789abcdef\"", "\"checksum\":\t\"0123456789ABCDEF\"", "checksum: expected 16 lowercase hex digits"},
        {"\"exchange\":\t\"rounds\"", "\"exchange\":\t\"some\"", "exchange: \"some\", expected rounds or all"},
        {"\"rank\":\t1", "\"rank\":\t0", "ranks[1].rank: 0, expected 1"},
        {"\"compute_s\":\t0.5", "\"compute_s\":\t-0.5", "ranks[0].compute_s"},
        {"\"energy_j\":\tnull", "\"energy_joules\":\tnull", "ranks[0]"},
        {"\"format\":\t\"stencilmap/run\"", "\"format\":\t\"stencilmap/scenario\"", "format"},
        {"\"rounds\":\t3", "\"rounds\":\t3, \"extra\": 1", "extra"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *x = edit(cases[i].from, cases[i].to);
        expect_refused(x, cases[i].want);
        free(x);
    }
}

static void hashes(void **st)
{
    (void)st;
    int a[4] = {0, 1, 1, 0}, b[4] = {0, 1, 1, 0}, c[4] = {0, 1, 0, 0};
    char ha[65], hb[65], hc[65];
    sm_run_mapping_sha256(a, 4, ha);
    sm_run_mapping_sha256(b, 4, hb);
    sm_run_mapping_sha256(c, 4, hc);
    assert_string_equal(ha, hb);
    assert_string_not_equal(ha, hc);
    /* "0\n1\n1\n0\n" */
    char want[65];
    sm_sha256_hex("0\n1\n1\n0\n", 8, want);
    assert_string_equal(ha, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(bad_input),
        cmocka_unit_test(hashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
