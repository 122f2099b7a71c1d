/* heap.c - indexed binary max-heap. */
#include "heap.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

void sm_heap_init(sm_heap *h, int n)
{
    memset(h, 0, sizeof *h);
    sm_heap_grow(h, n);
}

void sm_heap_grow(sm_heap *h, int n)
{
    if (n <= h->n) return;
    if (n > h->cap) {
        int cap = h->cap ? h->cap : 16;
        while (cap < n) cap *= 2;
        h->key = sm_xrealloc(h->key, sizeof(double) * (size_t)cap);
        h->pos = sm_xrealloc(h->pos, sizeof(int) * (size_t)cap);
        h->slot = sm_xrealloc(h->slot, sizeof(int) * (size_t)cap);
        h->cap = cap;
    }
    /* New ids have key 0, the minimum of every key we store, so they can
     * sit at the end without breaking the heap order. */
    for (int id = h->n; id < n; id++) {
        h->key[id] = 0;
        h->pos[id] = id;
        h->slot[id] = id;
    }
    h->n = n;
}

static void swap_slots(sm_heap *h, int a, int b)
{
    int ia = h->slot[a], ib = h->slot[b];
    h->slot[a] = ib;
    h->slot[b] = ia;
    h->pos[ib] = a;
    h->pos[ia] = b;
}

void sm_heap_set(sm_heap *h, int id, double key)
{
    double old = h->key[id];
    h->key[id] = key;
    int s = h->pos[id];
    if (key > old) {
        while (s > 0) {
            int p = (s - 1) / 2;
            if (h->key[h->slot[p]] >= key) break;
            swap_slots(h, s, p);
            s = p;
        }
    } else if (key < old) {
        for (;;) {
            int l = 2 * s + 1, r = l + 1, m = s;
            if (l < h->n && h->key[h->slot[l]] > h->key[h->slot[m]]) m = l;
            if (r < h->n && h->key[h->slot[r]] > h->key[h->slot[m]]) m = r;
            if (m == s) break;
            swap_slots(h, s, m);
            s = m;
        }
    }
}

double sm_heap_max(const sm_heap *h) { return h->n ? h->key[h->slot[0]] : 0; }
int sm_heap_argmax(const sm_heap *h) { return h->n ? h->slot[0] : -1; }

void sm_heap_copy(sm_heap *to, const sm_heap *from)
{
    memset(to, 0, sizeof *to);
    if (!from->cap) return;
    to->n = from->n;
    to->cap = from->cap;
    to->key = sm_xmalloc(sizeof(double) * (size_t)from->cap);
    to->pos = sm_xmalloc(sizeof(int) * (size_t)from->cap);
    to->slot = sm_xmalloc(sizeof(int) * (size_t)from->cap);
    memcpy(to->key, from->key, sizeof(double) * (size_t)from->n);
    memcpy(to->pos, from->pos, sizeof(int) * (size_t)from->n);
    memcpy(to->slot, from->slot, sizeof(int) * (size_t)from->n);
}

void sm_heap_free(sm_heap *h)
{
    free(h->key);
    free(h->pos);
    free(h->slot);
    memset(h, 0, sizeof *h);
}
