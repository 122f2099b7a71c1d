/* heap.h - an indexed max-heap: ids 0..n-1 with keys that can change,
 * so the largest load, degree or multiplicity is known in O(1) and kept
 * in O(log n) per change. */
#ifndef SM_HEAP_H
#define SM_HEAP_H

typedef struct sm_heap {
    int n, cap;
    double *key; /* by id */
    int *pos;    /* id -> heap slot */
    int *slot;   /* heap slot -> id */
} sm_heap;

void sm_heap_init(sm_heap *h, int n);  /* all keys 0 */
void sm_heap_grow(sm_heap *h, int n);  /* add ids up to n-1, keys 0 */
void sm_heap_set(sm_heap *h, int id, double key);
double sm_heap_max(const sm_heap *h);  /* 0 when empty */
int sm_heap_argmax(const sm_heap *h);  /* -1 when empty */
/* to becomes a copy of from: its own arrays, the same ids, keys and order. */
void sm_heap_copy(sm_heap *to, const sm_heap *from);
void sm_heap_free(sm_heap *h);

#endif
