/* test_sha256.c - SHA-256 of a buffer, of pieces and of a file: FIPS
 * 180-4's test vectors, any split of the input gives the same hash, and a
 * file above the 64 MB the small formats are read with is hashed as it is
 * read (a study's scenario of a whole Summit, #40). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include <unistd.h>
#include "tests/unit/testutil.h"
#include "core/lib/sha256.h"

static void fips_vectors(void **st)
{
    (void)st;
    char h[65];
    sm_sha256_hex("", 0, h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sm_sha256_hex("abc", 3, h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sm_sha256_hex(m, strlen(m), h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* One million 'a', given in pieces of 1, 7, 63, 64, 65, ... bytes. */
    static char a[1000000];
    memset(a, 'a', sizeof a);
    sm_sha256 c;
    sm_sha256_init(&c);
    size_t done = 0, step[] = {1, 7, 63, 64, 65, 1000, 4096, 100003};
    for (int i = 0; done < sizeof a; i++) {
        size_t k = step[i % 8] < sizeof a - done ? step[i % 8] : sizeof a - done;
        sm_sha256_update(&c, a + done, k);
        done += k;
    }
    sm_sha256_final_hex(&c, h);
    assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Every split point of a message around the 55/56/64-byte padding edges
 * gives the one-shot hash. */
static void any_split_same_hash(void **st)
{
    (void)st;
    unsigned char msg[200];
    for (int i = 0; i < 200; i++) msg[i] = (unsigned char)(i * 37 + 11);
    for (size_t len = 0; len <= 200; len += (len < 130 ? 1 : 7)) {
        char whole[65], parts[65];
        sm_sha256_hex(msg, len, whole);
        for (size_t cut = 0; cut <= len; cut += 3) {
            sm_sha256 c;
            sm_sha256_init(&c);
            sm_sha256_update(&c, msg, cut);
            sm_sha256_update(&c, msg + cut, 0);
            sm_sha256_update(&c, msg + cut, len - cut);
            sm_sha256_final_hex(&c, parts);
            assert_string_equal(whole, parts);
        }
    }
}

/* A file of 64 MB + 12345 bytes: its hash as read in pieces equals the
 * hash of its bytes in memory; a missing file gives "" and a message. */
static void file_above_64_mb(void **st)
{
    (void)st;
    char dir[] = "/tmp/sm-sha256-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/big", dir);
    size_t n = ((size_t)64 << 20) + 12345;
    unsigned char *buf = malloc(n);
    assert_non_null(buf);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        buf[i] = (unsigned char)x;
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    char want[65], got[65];
    sm_sha256_hex(buf, n, want);
    free(buf);
    sm_err e;
    assert_int_equal(sm_sha256_file_hex(path, got, &e), 0);
    assert_string_equal(got, want);
    unlink(path);
    assert_int_equal(sm_sha256_file_hex(path, got, &e), -1);
    assert_string_equal(got, "");
    assert_non_null(strstr(e.msg, "big"));
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fips_vectors),
        cmocka_unit_test(any_split_same_hash),
        cmocka_unit_test(file_above_64_mb),
    };
    return cmocka_run_group_tests_name("sha256", tests, NULL, NULL);
}
