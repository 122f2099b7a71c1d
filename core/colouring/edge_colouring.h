/* edge_colouring.h - communication rounds: an actual edge colouring of the
 * processor multigraph as matchings with durations, and a certified lower
 * bound on the number of colours (SPEC 3, rounds model "colouring"). */
#ifndef SM_EDGE_COLOURING_H
#define SM_EDGE_COLOURING_H

#include <stddef.h>
#include <stdint.h>

typedef struct sm_pairmu {
    int p, q;
    int64_t mu;
} sm_pairmu;

typedef struct sm_round_entry {
    int p, q;
    int64_t quanta;
} sm_round_entry;

typedef struct sm_round {
    int64_t duration; /* quanta: the longest entry */
    int first, count; /* entries[first .. first+count) */
} sm_round;

typedef struct sm_schedule {
    int nrounds, cap_rounds;
    sm_round *rounds;
    int nentries, cap_entries;
    sm_round_entry *entries;
    int64_t colours; /* sum of durations */
    int64_t lower;   /* certified lower bound on the chromatic index */
} sm_schedule;

/* Max over vertices of the sum of incident multiplicities. */
int64_t sm_multigraph_maxdeg(const sm_pairmu *pairs, int n, int nprocs);
int64_t sm_multigraph_maxmu(const sm_pairmu *pairs, int n);
/* Build a schedule (exact when at most 4 processors communicate);
 * out may be NULL. Returns the number of colours. */
int64_t sm_schedule_build(const sm_pairmu *pairs, int n, int nprocs,
                          sm_schedule *out, int64_t *lower);
void sm_schedule_free(sm_schedule *s);
/* The certified lower bound alone: max(Delta, heaviest triangle, the
 * odd-order bound); exact when at most four processors communicate is
 * the build's business, not this one's. */
int64_t sm_schedule_lower(const sm_pairmu *pairs, int n, int nprocs);
/* Whether s is a proper colouring of the multigraph pairs: every round a
 * matching, no entry longer than its round, every pair covered exactly,
 * colours the sum of the durations. On failure why says what (if given). */
int sm_schedule_check(const sm_schedule *s, const sm_pairmu *pairs, int n, int nprocs,
                      char *why, size_t whylen);

#endif
