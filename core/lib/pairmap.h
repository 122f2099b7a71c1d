/* pairmap.h - open-addressing map from an unordered processor pair to a
 * dense slot index; slots are never removed (a pair's counts drop to 0). */
#ifndef SM_PAIRMAP_H
#define SM_PAIRMAP_H

#include <stdint.h>

typedef struct sm_pairmap {
    int cap;        /* table size, power of two */
    int n;          /* slots in use */
    uint64_t *keys; /* table: key+1, 0 = empty */
    int *vals;      /* table: slot */
    int *p, *q;     /* slot -> pair (p < q) */
    int slot_cap;
} sm_pairmap;

void sm_pairmap_init(sm_pairmap *m);
/* Slot of pair {a, b} (a != b); created when absent and create is set,
 * else -1. *created tells whether it was new. */
int sm_pairmap_get(sm_pairmap *m, int a, int b, int create, int *created);
void sm_pairmap_free(sm_pairmap *m);

#endif
