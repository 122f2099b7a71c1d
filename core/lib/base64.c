/* base64.c - RFC 4648 base64 (see base64.h). */
#include "base64.h"

#include <stdlib.h>
#include "util.h"

static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *sm_base64_encode(const unsigned char *data, size_t n, size_t *len)
{
    size_t m = (n + 2) / 3 * 4, k = 0;
    char *s = sm_xmalloc(m + 1);
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)data[i] << 16 | (unsigned)data[i + 1] << 8 | data[i + 2];
        s[k++] = abc[v >> 18];
        s[k++] = abc[v >> 12 & 63];
        s[k++] = abc[v >> 6 & 63];
        s[k++] = abc[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)data[i] << 16 | (i + 1 < n ? (unsigned)data[i + 1] << 8 : 0);
        s[k++] = abc[v >> 18];
        s[k++] = abc[v >> 12 & 63];
        s[k++] = i + 1 < n ? abc[v >> 6 & 63] : '=';
        s[k++] = '=';
    }
    s[k] = '\0';
    if (len) *len = k;
    return s;
}

int sm_base64_decode(const char *text, size_t n, unsigned char **out, size_t *out_len, size_t *bad)
{
    signed char val[256];
    for (int c = 0; c < 256; c++) val[c] = -1;
    for (int c = 0; c < 64; c++) val[(unsigned char)abc[c]] = (signed char)c;
    *out = NULL;
    *out_len = 0;
    if (n % 4) {
        *bad = n;
        return -1;
    }
    size_t pad = n >= 1 && text[n - 1] == '=' ? (n >= 2 && text[n - 2] == '=' ? 2 : 1) : 0;
    unsigned char *b = sm_xmalloc(n / 4 * 3 + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i += 4) {
        unsigned v = 0;
        for (size_t j = 0; j < 4; j++) {
            unsigned char c = (unsigned char)text[i + j];
            int d = val[c];
            if (c == '=' && i + j >= n - pad) d = 0;
            if (d < 0) {
                *bad = i + j;
                free(b);
                return -1;
            }
            v = v << 6 | (unsigned)d;
        }
        b[k++] = (unsigned char)(v >> 16);
        b[k++] = (unsigned char)(v >> 8);
        b[k++] = (unsigned char)v;
    }
    *out = b;
    *out_len = k - pad;
    return 0;
}
