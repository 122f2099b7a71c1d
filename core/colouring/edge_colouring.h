/* edge_colouring.h - communication rounds: an actual edge colouring of the
 * processor multigraph as matchings with durations, a certified lower
 * bound on the number of colours (SPEC 3, rounds model "colouring"), and
 * the schedule repaired in place (edge_colouring.c). */
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

/* The schedule repaired in place as multiplicities change (second half
 * of edge_colouring.c). */
typedef struct sm_isched sm_isched;

sm_isched *sm_isched_new(int nprocs);
void sm_isched_free(sm_isched *s);
/* Make dst (for as many processors) a copy of src: a memory copy, no
 * rebuild of the per-processor and per-round lists. */
void sm_isched_copy(sm_isched *dst, const sm_isched *src);
/* Replace the contents by a full schedule. */
void sm_isched_load(sm_isched *s, const sm_schedule *full);
/* mu(p,q) changed by delta quanta: repair locally. The rounds stay
 * matchings covering the multigraph; the colours may exceed a rebuild's. */
void sm_isched_add(sm_isched *s, int p, int q, int64_t delta);
int64_t sm_isched_colours(const sm_isched *s);
/* Copy out as a schedule (lower left 0); free with sm_schedule_free. */
void sm_isched_export(const sm_isched *s, sm_schedule *out);
/* The same into a schedule an earlier export filled (or a zeroed one),
 * reusing its arrays when they are large enough. */
void sm_isched_refill(const sm_isched *s, sm_schedule *out);

#endif
