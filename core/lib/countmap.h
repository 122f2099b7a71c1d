/* countmap.h - open-addressing counters keyed by a 64-bit id (messages per
 * physical link in the metrics and the congestion objective). */
#ifndef SM_COUNTMAP_H
#define SM_COUNTMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm_countmap {
    uint64_t *key;  /* key + 1; 0 marks empty */
    int64_t *count;
    size_t cap, used;
} sm_countmap; /* zero-initialised is empty */

/* The counter of key, created at 0 when absent. The pointer holds until
 * the next call. */
int64_t *sm_countmap_at(sm_countmap *m, uint64_t key);
void sm_countmap_free(sm_countmap *m);

#endif
