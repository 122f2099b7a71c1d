/* speed_proportional_quota.h - the fill rule shared by lb and the fill-based heuristics:
 * processor i receives blocks while its count < n * r_i / sum(r), r_i its
 * relative speed (SPEC 4). Lives in core because a fresh scenario starts
 * from lb -order ijk. */
#ifndef SM_SPEED_PROPORTIONAL_QUOTA_H
#define SM_SPEED_PROPORTIONAL_QUOTA_H

#include "grid.h"
#include "topology.h"

typedef enum { SM_SPEEDS_EXACT, SM_SPEEDS_FLOOR } sm_speeds;
typedef enum { SM_ORDER_IJK, SM_ORDER_JIK, SM_ORDER_KIJ, SM_ORDER_RANDOM } sm_order;

int sm_speeds_parse(const char *s, sm_speeds *out);
int sm_order_parse(const char *s, sm_order *out);
const char *sm_order_name(sm_order o);

/* Per-processor block limits (as doubles; a processor takes blocks while
 * its count is below its limit). time per block uses the average block. */
void sm_fill_limits(const sm_grid *g, const sm_topo *t, sm_speeds sp,
                    double *limit);
/* Block visiting order; random uses seed. */
void sm_block_order(const sm_grid *g, sm_order o, unsigned long long seed,
                    int *order);
/* The processor that takes the next block: advance past full ones
 * (the last processor takes whatever remains). */
int sm_fill_next(const double *limit, int nprocs, int *proc, int *count);
/* Fill processors in list order along the block order. */
void sm_fill(const sm_grid *g, const sm_topo *t, sm_speeds sp, sm_order o,
             unsigned long long seed, int *map);

/* The fill's limits held to memory: a processor whose speed share of
 * blocks would not fit its memory (memory / bytes_per_cell cells, counted
 * with the grid's largest block) keeps what fits, and the rest is shared
 * by speed over the others, again until nothing is past its memory
 * (water-filling). Returns 1 if a memory bound a limit, 0 if the limits
 * are sm_fill_limits's, -1 if the processors' memory cannot hold the grid
 * (limit then holds sm_fill_limits's). */
int sm_fill_limits_memory(const sm_grid *g, const sm_topo *t, sm_speeds sp,
                          double *limit);
/* sm_fill along sm_fill_limits_memory's limits; returns what it does. */
int sm_fill_memory(const sm_grid *g, const sm_topo *t, sm_speeds sp,
                   sm_order o, unsigned long long seed, int *map);

/* Small deterministic PRNG (splitmix64) for every randomised piece;
 * inline: bokhari draws ~100 numbers a step. */
static inline unsigned long long sm_rand_next(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
double sm_rand_unit(unsigned long long *state);

#endif
