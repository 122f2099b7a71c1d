/* pairmap.c - pair -> slot hash with linear probing. */
#include "pairmap.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

void sm_pairmap_init(sm_pairmap *m) { memset(m, 0, sizeof *m); }

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

static void rehash(sm_pairmap *m, int cap)
{
    uint64_t *ok = m->keys;
    int *ov = m->vals, oc = m->cap;
    m->keys = sm_xcalloc((size_t)cap, sizeof(uint64_t));
    m->vals = sm_xmalloc(sizeof(int) * (size_t)cap);
    m->cap = cap;
    for (int i = 0; i < oc; i++) {
        if (!ok[i]) continue;
        uint64_t h = mix(ok[i]) & (uint64_t)(cap - 1);
        while (m->keys[h]) h = (h + 1) & (uint64_t)(cap - 1);
        m->keys[h] = ok[i];
        m->vals[h] = ov[i];
    }
    free(ok);
    free(ov);
}

int sm_pairmap_get(sm_pairmap *m, int a, int b, int create, int *created)
{
    if (created) *created = 0;
    if (a > b) { int t = a; a = b; b = t; }
    uint64_t key = (((uint64_t)(uint32_t)a << 32) | (uint32_t)b) + 1;
    if (m->cap == 0) {
        if (!create) return -1;
        rehash(m, 64);
    }
    uint64_t h = mix(key) & (uint64_t)(m->cap - 1);
    while (m->keys[h]) {
        if (m->keys[h] == key) return m->vals[h];
        h = (h + 1) & (uint64_t)(m->cap - 1);
    }
    if (!create) return -1;
    if (2 * (m->n + 1) > m->cap) {
        rehash(m, m->cap * 2);
        return sm_pairmap_get(m, a, b, create, created);
    }
    if (m->n == m->slot_cap) {
        m->slot_cap = m->slot_cap ? 2 * m->slot_cap : 64;
        m->p = sm_xrealloc(m->p, sizeof(int) * (size_t)m->slot_cap);
        m->q = sm_xrealloc(m->q, sizeof(int) * (size_t)m->slot_cap);
    }
    int s = m->n++;
    m->keys[h] = key;
    m->vals[h] = s;
    m->p[s] = a;
    m->q[s] = b;
    if (created) *created = 1;
    return s;
}

void sm_pairmap_free(sm_pairmap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->p);
    free(m->q);
    memset(m, 0, sizeof *m);
}
