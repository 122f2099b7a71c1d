/* tabu_list.c - sparse tabu attributes: see tabu_list.h. */
#include "tabu_list.h"

#include <stdlib.h>
#include "core/lib/util.h"

static uint64_t key_of(int b, int p) { return (uint64_t)(uint32_t)b << 32 | (uint32_t)p; }

static int home(const sm_tabu_list *l, uint64_t key)
{
    return (int)((key * 0x9e3779b97f4a7c15ull) >> 32) & (l->cap - 1);
}

void sm_tabu_list_init(sm_tabu_list *l)
{
    l->cap = 64;
    l->live = 0;
    l->slots = sm_xcalloc((size_t)l->cap, sizeof *l->slots);
    l->fcap = 64;
    l->fifo = sm_xmalloc(sizeof *l->fifo * (size_t)l->fcap);
    l->head = l->tail = 0;
}

void sm_tabu_list_free(sm_tabu_list *l)
{
    free(l->slots);
    free(l->fifo);
    l->slots = l->fifo = NULL;
}

/* Slot holding key, or the empty slot where it would go. */
static int find(const sm_tabu_list *l, uint64_t key)
{
    int i = home(l, key);
    while (l->slots[i].until && l->slots[i].key != key) i = (i + 1) & (l->cap - 1);
    return i;
}

static void grow_table(sm_tabu_list *l)
{
    sm_tabu_stamp *old = l->slots;
    int ocap = l->cap;
    l->cap *= 2;
    l->slots = sm_xcalloc((size_t)l->cap, sizeof *l->slots);
    for (int i = 0; i < ocap; i++)
        if (old[i].until) l->slots[find(l, old[i].key)] = old[i];
    free(old);
}

static void grow_fifo(sm_tabu_list *l)
{
    sm_tabu_stamp *f = sm_xmalloc(sizeof *f * (size_t)l->fcap * 2);
    for (long long i = l->head; i < l->tail; i++) f[i - l->head] = l->fifo[i & (l->fcap - 1)];
    free(l->fifo);
    l->fifo = f;
    l->tail -= l->head;
    l->head = 0;
    l->fcap *= 2;
}

void sm_tabu_list_set(sm_tabu_list *l, int b, int p, long long until)
{
    uint64_t key = key_of(b, p);
    if (2 * (l->live + 1) > l->cap) grow_table(l);
    int i = find(l, key);
    if (!l->slots[i].until) l->live++;
    l->slots[i] = (sm_tabu_stamp){key, until};
    if (l->tail - l->head == l->fcap) grow_fifo(l);
    l->fifo[l->tail++ & (l->fcap - 1)] = (sm_tabu_stamp){key, until};
}

int sm_tabu_list_active(const sm_tabu_list *l, int b, int p, long long it)
{
    const sm_tabu_stamp *s = &l->slots[find(l, key_of(b, p))];
    return s->until > it;
}

/* Empty slot i, shifting later members of its probe run back so every
 * key stays reachable from its home (deletion without tombstones). */
static void erase(sm_tabu_list *l, int i)
{
    int mask = l->cap - 1;
    for (int j = (i + 1) & mask; l->slots[j].until; j = (j + 1) & mask) {
        int h = home(l, l->slots[j].key);
        /* j may move to i unless its home lies cyclically in (i, j]. */
        if (((j - h) & mask) >= ((j - i) & mask)) {
            l->slots[i] = l->slots[j];
            i = j;
        }
    }
    l->slots[i].until = 0;
    l->live--;
}

int sm_tabu_list_expire(sm_tabu_list *l, long long it)
{
    while (l->head < l->tail) {
        const sm_tabu_stamp *s = &l->fifo[l->head & (l->fcap - 1)];
        if (s->until > it) break;
        int i = find(l, s->key);
        /* A pair set again since holds a later stamp and stays. */
        if (l->slots[i].until == s->until) erase(l, i);
        l->head++;
    }
    return (int)(l->tail - l->head);
}

void sm_tabu_list_each(const sm_tabu_list *l, long long it,
                       void (*f)(void *ctx, int b, int p, long long until), void *ctx)
{
    for (long long i = l->head; i < l->tail; i++) {
        const sm_tabu_stamp *s = &l->fifo[i & (l->fcap - 1)];
        if (s->until <= it) continue;
        /* Superseded by a later stamp of the same pair: that one counts. */
        if (l->slots[find(l, s->key)].until != s->until) continue;
        f(ctx, (int)(s->key >> 32), (int)(uint32_t)s->key, s->until);
    }
}
