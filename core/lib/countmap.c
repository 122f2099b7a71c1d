/* countmap.c - open-addressing counters keyed by a 64-bit id, linear
 * probing, grown at half full. */
#include "countmap.h"

#include <stdlib.h>
#include "util.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

int64_t *sm_countmap_at(sm_countmap *m, uint64_t k)
{
    k += 1; /* 0 marks empty */
    if (2 * (m->used + 1) > m->cap) {
        size_t oc = m->cap, nc = oc ? oc * 2 : 1024;
        uint64_t *ok = m->key;
        int64_t *ov = m->count;
        m->key = sm_xcalloc(nc, sizeof(uint64_t));
        m->count = sm_xcalloc(nc, sizeof(int64_t));
        m->cap = nc;
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t h = mix(ok[i]) & (nc - 1);
                while (m->key[h]) h = (h + 1) & (nc - 1);
                m->key[h] = ok[i];
                m->count[h] = ov[i];
            }
        free(ok);
        free(ov);
    }
    size_t h = mix(k) & (m->cap - 1);
    while (m->key[h] && m->key[h] != k) h = (h + 1) & (m->cap - 1);
    if (!m->key[h]) {
        m->key[h] = k;
        m->used++;
    }
    return &m->count[h];
}

void sm_countmap_free(sm_countmap *m)
{
    free(m->key);
    free(m->count);
    m->key = NULL;
    m->count = NULL;
    m->cap = m->used = 0;
}
