/* tabu_list.h - one kind of tabu attribute ("block u may not join p", or
 * "... leave p") for a tabu search: the (block, processor) pairs made tabu
 * and the iteration each stays tabu until. Sparse: an open-addressing hash
 * of the live pairs plus the FIFO of the stamps in the order they were
 * set, which expires them; memory is O(tenure x moves per step), not
 * O(blocks x processors). */
#ifndef SM_TABU_LIST_H
#define SM_TABU_LIST_H

#include <stdint.h>

typedef struct sm_tabu_stamp {
    uint64_t key;     /* block << 32 | processor */
    long long until;  /* tabu while the iteration is below this */
} sm_tabu_stamp;

typedef struct sm_tabu_list {
    sm_tabu_stamp *slots; /* hash, linear probing; until 0 = empty */
    int cap, live;        /* power of two; pairs held */
    sm_tabu_stamp *fifo;  /* ring of every set, oldest first */
    long long head, tail; /* fifo[head % fcap] .. fifo[(tail - 1) % fcap] */
    int fcap;             /* power of two */
} sm_tabu_list;

void sm_tabu_list_init(sm_tabu_list *l);
void sm_tabu_list_free(sm_tabu_list *l);
/* Pair (b, p) is tabu until iteration `until` (later than any stamp set
 * before: stamps come in non-decreasing order); replaces its old stamp. */
void sm_tabu_list_set(sm_tabu_list *l, int b, int p, long long until);
/* Whether (b, p) is tabu at iteration it. */
int sm_tabu_list_active(const sm_tabu_list *l, int b, int p, long long it);
/* Forget the stamps that ended by iteration it; returns how many stamps
 * are still running, counting a pair set twice twice (the tabu list's
 * length as the search reports it). */
int sm_tabu_list_expire(sm_tabu_list *l, long long it);
/* Calls f for every pair tabu at iteration it (oldest first), with the
 * iteration it stays tabu until. */
void sm_tabu_list_each(const sm_tabu_list *l, long long it,
                       void (*f)(void *ctx, int b, int p, long long until), void *ctx);

#endif
