/* sfc_curve_keys.c - curve keys and the curve order of a box: each point gets its
 * key, then the points are sorted by key (ties cannot occur). */
#include "sfc_curve_keys.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"sweep", "scan", "morton", "hilbert", "gray"};

int sm_curve_parse(const char *name, sm_curve *out)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (sm_curve)i;
            return 0;
        }
    return -1;
}

const char *sm_curve_name(sm_curve c) { return names[c]; }

/* Bit b of axis a goes to key bit nd*b + a (morton: x lowest). */
static uint64_t interleave(int nd, int bits, const unsigned *x)
{
    uint64_t k = 0;
    for (int b = bits - 1; b >= 0; b--)
        for (int a = nd - 1; a >= 0; a--) k = (k << 1) | ((x[a] >> b) & 1u);
    return k;
}

/* Skilling, "Programming the Hilbert curve" (AIP Conf. Proc. 707, 2004):
 * axes to the transposed Hilbert index, in place. X[0] is the most
 * significant axis of each bit level; we pass the slowest axis there so
 * that the curve, like sweep, runs through x first. */
static void skilling_axes_to_transpose(unsigned *X, int bits, int n)
{
    unsigned M = 1u << (bits - 1), P, Q, t;
    for (Q = M; Q > 1; Q >>= 1) {  /* undo excess work */
        P = Q - 1;
        for (int i = 0; i < n; i++) {
            if (X[i] & Q) {
                X[0] ^= P;
            } else {
                t = (X[0] ^ X[i]) & P;
                X[0] ^= t;
                X[i] ^= t;
            }
        }
    }
    for (int i = 1; i < n; i++) X[i] ^= X[i - 1];  /* Gray encode */
    t = 0;
    for (Q = M; Q > 1; Q >>= 1)
        if (X[n - 1] & Q) t ^= Q - 1;
    for (int i = 0; i < n; i++) X[i] ^= t;
}

uint64_t sm_curve_key(sm_curve c, int nd, const int *size, int bits, const int *coord)
{
    unsigned x[SM_CURVE_MAXDIMS];
    for (int a = 0; a < nd; a++) x[a] = (unsigned)coord[a];
    switch (c) {
    case SM_CURVE_SWEEP: {
        uint64_t k = 0;
        for (int a = nd - 1; a >= 0; a--) k = k * (uint64_t)size[a] + x[a];
        return k;
    }
    case SM_CURVE_SCAN: {
        /* Boustrophedon: each axis runs backwards when the position along
         * the slower axes so far is odd, so consecutive points are
         * neighbours on any box size. */
        uint64_t k = 0;
        for (int a = nd - 1; a >= 0; a--) {
            unsigned v = (k & 1) ? (unsigned)size[a] - 1 - x[a] : x[a];
            k = k * (uint64_t)size[a] + v;
        }
        return k;
    }
    case SM_CURVE_MORTON:
        return interleave(nd, bits, x);
    case SM_CURVE_GRAY: {
        /* Rank of a point = inverse Gray code of its morton key: the i-th
         * point visited is the one whose key is i ^ (i >> 1). */
        uint64_t g = interleave(nd, bits, x), r = g;
        for (int s = 1; s < 64; s <<= 1) r ^= r >> s;
        return r;
    }
    case SM_CURVE_HILBERT: {
        if (bits == 0) return 0;
        unsigned X[SM_CURVE_MAXDIMS];
        for (int a = 0; a < nd; a++) X[a] = x[nd - 1 - a];
        skilling_axes_to_transpose(X, bits, nd);
        uint64_t k = 0;
        for (int b = bits - 1; b >= 0; b--)
            for (int i = 0; i < nd; i++) k = (k << 1) | ((X[i] >> b) & 1u);
        return k;
    }
    }
    return 0;
}

typedef struct { uint64_t key; int idx; } keyed;

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const keyed *)a)->key, y = ((const keyed *)b)->key;
    return x < y ? -1 : x > y;
}

int sm_curve_order(sm_curve c, int nd, const int *size, int *order, sm_err *e)
{
    /* Axes of size 1 carry no bits: drop them so they cost no key space. */
    int sz[SM_CURVE_MAXDIMS], axis[SM_CURVE_MAXDIMS], m = 0, bits = 0;
    long long n = 1;
    for (int a = 0; a < nd; a++) {
        n *= size[a];
        if (size[a] > 1) {
            axis[m] = a;
            sz[m++] = size[a];
            int b = 0;
            while ((1 << b) < size[a]) b++;
            if (b > bits) bits = b;
        }
    }
    if (c != SM_CURVE_SWEEP && c != SM_CURVE_SCAN && (long long)m * bits > 63) {
        sm_err_set(e, "%s curve: %d axes of %d bits do not fit a 63-bit key",
                   names[c], m, bits);
        return -1;
    }
    keyed *k = sm_xmalloc(sizeof *k * (size_t)(n ? n : 1));
    int full[SM_CURVE_MAXDIMS], sub[SM_CURVE_MAXDIMS];
    for (long long i = 0; i < n; i++) {
        long long r = i;
        for (int a = 0; a < nd; a++) {
            full[a] = (int)(r % size[a]);
            r /= size[a];
        }
        for (int j = 0; j < m; j++) sub[j] = full[axis[j]];
        k[i].key = sm_curve_key(c, m, sz, bits, sub);
        k[i].idx = (int)i;
    }
    qsort(k, (size_t)n, sizeof *k, by_key);
    for (long long i = 0; i < n; i++) order[i] = k[i].idx;
    free(k);
    return 0;
}
