/* test_mapping_value_text.c - the mapping value's two forms (plain array,
 * compact zlib-u16): both round-trip; every damage is named with the file,
 * the JSON path and what was expected; a part file above the old 64 MB
 * limit (2^24 blocks) loads back. */
#include "tests/unit/testutil.h"
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include "core/io/mapping_file.h"
#include "core/lib/base64.h"
#include "core/lib/jsonutil.h"

static char *mapping_doc(const char *value)
{
    size_t n = strlen(value) + 100;
    char *s = malloc(n);
    snprintf(s, n, "{\"format\":\"stencilmap/mapping\",\"version\":1,\"mapping\":%s}", value);
    return s;
}

/* Parses a mapping document whose mapping is value; the message on error. */
static int parse(const sm_topo *t, const char *value, int n, int *map, sm_err *e)
{
    char *doc = mapping_doc(value);
    int rc = sm_mapping_parse_text(doc, strlen(doc), "m.json", t, n, map, e);
    free(doc);
    return rc;
}

static void expect_error(const sm_topo *t, const char *value, int n, const char *want)
{
    int *map = calloc((size_t)n + 1, sizeof(int));
    sm_err e;
    if (parse(t, value, n, map, &e) == 0) fail_msg("loaded: %.80s", value);
    if (!strstr(e.msg, want) || strncmp(e.msg, "m.json: ", 8) != 0)
        fail_msg("got \"%s\", want \"%s\"", e.msg, want);
    free(map);
}

/* Both forms, written and read again, give the mapping back; the plain
 * form of a file earlier versions wrote (cJSON's tabs, names) too. */
static void forms_round_trip(void **st)
{
    (void)st;
    int P = 300, n = 5000;
    sm_topo *t = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[8]}", P);
    int *want = malloc(sizeof(int) * (size_t)n), *map = malloc(sizeof(int) * (size_t)n);
    unsigned seed = 7;
    for (int i = 0; i < n; i++) want[i] = i % 5 && i ? want[i - 1] : rand_r(&seed) % P;
    sm_mapping_form forms[] = {SM_MAPPING_PLAIN, SM_MAPPING_COMPACT};
    for (int f = 0; f < 2; f++)
        for (int formatted = 0; formatted < 2; formatted++) {
            size_t len;
            char *v = sm_mapping_value_text(t, want, n, forms[f], formatted, &len);
            assert_int_equal(strlen(v), len);
            assert_true(f == 0 ? v[0] == '[' : strncmp(v, "{\"encoding\":", 12) == 0);
            sm_err e;
            memset(map, -1, sizeof(int) * (size_t)n);
            if (parse(t, v, n, map, &e)) fail_msg("form %d: %s", f, e.msg);
            assert_memory_equal(map, want, sizeof(int) * (size_t)n);
            free(v);
        }
    /* As cJSON printed it (earlier versions): names, tabs, ", ". */
    const char *old = "{\n\t\"format\":\t\"stencilmap/mapping\",\n\t\"version\":\t1,\n\t\"blocks\":\t3,\n"
                      "\t\"mapping\":\t[\"p2\", \"p10\", 7]\n}\n";
    sm_err e;
    assert_int_equal(sm_mapping_parse_text(old, strlen(old), "m.json", t, 3, map, &e), 0);
    assert_int_equal(map[0], 2);
    assert_int_equal(map[1], 10);
    assert_int_equal(map[2], 7);
    /* A key written with an escape is the same key: read through the tree. */
    const char *esc = "{\"format\":\"stencilmap/mapping\",\"version\":1,\"m\\u0061pping\":[\"p\\u0033\", 1.0, \"p4\"]}";
    assert_int_equal(sm_mapping_parse_text(esc, strlen(esc), "m.json", t, 3, map, &e), 0);
    assert_int_equal(map[0], 3);
    assert_int_equal(map[1], 1);
    assert_int_equal(map[2], 4);
    free(want);
    free(map);
    sm_topo_free(t);
}

/* A compact value for map[n] with the given crc text (NULL: the right one). */
static char *compact_value(const int *map, int n, const char *crc, int blocks)
{
    unsigned char *raw = malloc((size_t)n * 2 + 1);
    for (int i = 0; i < n; i++) {
        raw[2 * i] = (unsigned char)(map[i] & 0xff);
        raw[2 * i + 1] = (unsigned char)(map[i] >> 8);
    }
    uLongf zn = compressBound((uLong)n * 2);
    unsigned char *z = malloc(zn);
    assert_int_equal(compress2(z, &zn, raw, (uLong)n * 2, 6), Z_OK);
    char *b64 = sm_base64_encode(z, zn, NULL);
    char crcbuf[16];
    snprintf(crcbuf, sizeof crcbuf, "%08lx", crc32(0, raw, (uInt)n * 2));
    char *v = malloc(strlen(b64) + 200);
    sprintf(v, "{\"encoding\":\"zlib-u16\",\"blocks\":%d,\"crc32\":\"%s\",\"data\":\"%s\"}", blocks,
            crc ? crc : crcbuf, b64);
    free(raw);
    free(z);
    free(b64);
    return v;
}

static void damage_is_named(void **st)
{
    (void)st;
    sm_topo *t = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[8]}", 16);
    int map[8] = {0, 0, 1, 1, 2, 15, 15, 3}, bad[8] = {0, 0, 1, 1, 2, 16, 15, 3};
    char *v = compact_value(map, 8, NULL, 8);
    int got[8];
    sm_err e;
    assert_int_equal(parse(t, v, 8, got, &e), 0);
    assert_memory_equal(got, map, sizeof map);
    /* One character of the data changed: the checksum or zlib says so. */
    char *d = strstr(v, "\"data\":\"") + 8;
    d[6] = d[6] == 'A' ? 'B' : 'A';
    expect_error(t, v, 8, "mapping.");
    d[6] = '!';
    expect_error(t, v, 8, "mapping.data: expected base64, got '!' at character 6");
    free(v);
    v = compact_value(map, 8, "00000000", 8);
    expect_error(t, v, 8, "mapping.crc32: checksum mismatch");
    free(v);
    v = compact_value(map, 8, "xyz", 8);
    expect_error(t, v, 8, "mapping.crc32: expected 8 hexadecimal digits");
    free(v);
    v = compact_value(map, 8, NULL, 9);
    expect_error(t, v, 8, "mapping.blocks: expected 8 (the grid's blocks), got 9");
    free(v);
    v = compact_value(map, 7, NULL, 8);
    expect_error(t, v, 8, "mapping.data: decodes to fewer bytes than the 16 of 8 blocks");
    free(v);
    v = compact_value(bad, 8, NULL, 8);
    expect_error(t, v, 8, "mapping.data: block 5: processor index 16, expected one in [0, 16)");
    free(v);
    /* Truncated stream. */
    v = compact_value(map, 8, NULL, 8);
    d = strstr(v, "\"data\":\"") + 8;
    memcpy(d + 4, "\"}", 3);
    expect_error(t, v, 8, "mapping.data: damaged or truncated zlib stream");
    free(v);
    expect_error(t, "{\"encoding\":\"runs\"}", 8, "mapping.encoding: expected \"zlib-u16\", got \"runs\"");
    expect_error(t, "{\"encoding\":\"zlib-u16\",\"extra\":1}", 8, "mapping.extra: unknown key");
    expect_error(t, "{\"encoding\":\"zlib-u16\",\"blocks\":8}", 8, "mapping.crc32: missing");
    /* The plain form, read without cJSON's tree. */
    expect_error(t, "[0,1,2]", 8, "mapping: expected 8 entries (one per block), got 3");
    expect_error(t, "[0,1,2,3,4,5,6,7,8]", 8, "mapping: expected 8 entries (one per block), got 9");
    expect_error(t, "[0,1,2,3,4,5,6,16]", 8, "mapping[7]: expected a processor index in [0, 16), got 16");
    expect_error(t, "[0,1,2,3,4,5,6,-1]", 8, "mapping[7]: expected a processor index in [0, 16), got -1");
    expect_error(t, "[0,1,2,3,4,5,6,1.5]", 8, "mapping[7]: expected a processor index");
    expect_error(t, "[0,1,\"p9\",\"zz\",4,5,6,7]", 8, "mapping[3]: unknown processor \"zz\"");
    expect_error(t, "[0,1,2,true,4,5,6,7]", 8, "mapping[3]: expected a processor name or index");
    expect_error(t, "[0,1,2,[3],4,5,6,7]", 8, "mapping[3]: expected a processor name or index");
    expect_error(t, "[0,1 2,3,4,5,6,7]", 8, "mapping[1]: malformed JSON: expected ',' or ']'");
    expect_error(t, "[0,1,2,3,4,5,6,7,]", 8, "mapping[8]: expected a processor name or index");
    expect_error(t, "\"p0\"", 8, "mapping: expected an array of processor names or indices");
    expect_error(t, "null", 8, "mapping: expected an array");
    /* Outside the lifted value: cJSON's line and column. */
    const char *trail = "{\"format\":\"stencilmap/mapping\",\"version\":1,\n\"mapping\":[0,\n1],\n\"x\" 1}";
    assert_int_equal(sm_mapping_parse_text(trail, strlen(trail), "m.json", t, 2, got, &e), -1);
    assert_non_null(strstr(e.msg, "m.json: (root): malformed or truncated JSON near line 4"));
    const char *dup = "{\"format\":\"stencilmap/mapping\",\"version\":1,\"mapping\":[0,1],\"mapping\":[1,0]}";
    assert_int_equal(sm_mapping_parse_text(dup, strlen(dup), "m.json", t, 2, got, &e), -1);
    assert_non_null(strstr(e.msg, "mapping: duplicate key"));
    sm_topo_free(t);
}

/* A METIS part file of 2^24 blocks on a whole Summit's 36,864
 * processors (100 MB, above the old 64 MB limit of every loader) and a
 * compact mapping file of 2^24 blocks: saved, loaded back, the same
 * mapping. */
static void part_file_above_64mb(void **st)
{
    (void)st;
    int n = 1 << 24, P = 36864, tp = 1000;
    sm_topo *t = tu_one_per_node("{\"kind\":\"tree\",\"group_sizes\":[8]}", tp);
    int *want = malloc(sizeof(int) * (size_t)n), *map = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) want[i] = (int)((long long)(i % 65536) * 41 % 1000 + (long long)i * P / n) % P;
    char dir[] = "/tmp/sm-codec-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char part[64], mfile[64];
    snprintf(part, sizeof part, "%s/big.part", dir);
    snprintf(mfile, sizeof mfile, "%s/big.json", dir);
    sm_err e;
    assert_int_equal(sm_part_save(part, want, n, &e), 0);
    struct stat sb;
    assert_int_equal(stat(part, &sb), 0);
    assert_true(sb.st_size > 64ll << 20);
    memset(map, 0, sizeof(int) * (size_t)n);
    if (sm_part_load(part, P, n, map, &e)) fail_msg("%s", e.msg);
    assert_memory_equal(map, want, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) want[i] %= tp;
    assert_int_equal(sm_mapping_save(mfile, t, want, n, SM_MAPPING_AUTO, &e), 0);
    memset(map, 0, sizeof(int) * (size_t)n);
    if (sm_mapping_load(mfile, t, n, map, &e)) fail_msg("%s", e.msg);
    assert_memory_equal(map, want, sizeof(int) * (size_t)n);
    unlink(part);
    unlink(mfile);
    rmdir(dir);
    free(want);
    free(map);
    sm_topo_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forms_round_trip),
        cmocka_unit_test(damage_is_named),
        cmocka_unit_test(part_file_above_64mb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
