/* fast_remainder.h - x % d and "d divides x" for a divisor fixed ahead,
 * without a division instruction, exact for every 64-bit x and d.
 *
 * Why: bokhari draws ~100 random numbers a step, each reduced modulo a
 * node's count of adjacent nodes or a count of tied partners; a 64-bit
 * division costs tens of cycles and those reductions were a visible part
 * of its 200 k steps at 4096 blocks. The results (and so every random
 * choice) are the same numbers % gives.
 *
 * Remainder: Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation" (Software: Practice and Experience, 2019), with a 2N-bit
 * reciprocal: c = ceil(2^128 / d), x % d = ((c * x mod 2^128) * d) >> 128,
 * exact for all x, d < 2^64 (their theorem 1: 128 >= 64 + log2 d).
 * Divisibility: d = 2^s * o with o odd; d | x iff the low s bits of x are
 * zero and (x >> s) * o^-1 mod 2^64 <= (2^64 - 1) / o (Granlund and
 * Montgomery; Hacker's Delight 10-17). */
#ifndef SM_FAST_REMAINDER_H
#define SM_FAST_REMAINDER_H

#include <stdint.h>

typedef struct sm_fastmod {
    unsigned __int128 c;
    uint64_t d;
} sm_fastmod;

/* d > 0. (d = 1: c wraps to 0 and every remainder is 0, as it should.) */
static inline sm_fastmod sm_fastmod_of(uint64_t d)
{
    sm_fastmod f = {~(unsigned __int128)0 / d + 1, d};
    return f;
}

static inline uint64_t sm_fastmod_rem(const sm_fastmod *f, uint64_t x)
{
    unsigned __int128 low = f->c * x;
    uint64_t lo = (uint64_t)low, hi = (uint64_t)(low >> 64);
    unsigned __int128 t = ((unsigned __int128)lo * f->d) >> 64;
    t += (unsigned __int128)hi * f->d;
    return (uint64_t)(t >> 64);
}

typedef struct sm_divides {
    uint64_t inv, lim; /* o^-1 mod 2^64, (2^64 - 1) / o */
    unsigned shift;    /* s */
} sm_divides;

/* d > 0. */
static inline sm_divides sm_divides_of(uint64_t d)
{
    sm_divides t;
    t.shift = (unsigned)__builtin_ctzll(d);
    uint64_t o = d >> t.shift, inv = o; /* o * o == 1 mod 8: 3 bits right */
    for (int i = 0; i < 5; i++) inv *= 2 - o * inv; /* Newton: 6, 12, 24, 48, 96 bits */
    t.inv = inv;
    t.lim = UINT64_MAX / o;
    return t;
}

static inline int sm_divides_test(const sm_divides *t, uint64_t x)
{
    if (x & ((UINT64_C(1) << t->shift) - 1)) return 0;
    return (x >> t->shift) * t->inv <= t->lim;
}

#endif
