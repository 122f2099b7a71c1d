/* tabu_node_partition_starts.h - node-level partitions of the block grid
 * as tabu's starts (tabu_node_partition_starts.c); private to
 * solvers/tabu. */
#ifndef SM_TABU_NODE_PARTITION_STARTS_H
#define SM_TABU_NODE_PARTITION_STARTS_H

#include "solvers/stepper/solver_stepper.h"

/* For each K of ks[0..nk) (the first K nodes): the cut tree of least cut
 * area realised on the blocks, refined between nodes, laid out on each
 * node's processors; each K's best variant offered (sm_solver_offer),
 * lowered first by at most repair_steps compound steps where its rounds
 * alone pass the deadline. K up to NP_MAX_NODES (others skipped), grids
 * up to NP_MAX_BLOCKS (returns 0 otherwise; sm_node_starts' own limit,
 * SM_NODE_STARTS_MAX_BLOCKS, is the same).
 * Side by side on the solver's threads, offered in ks order. Returns the
 * number offered. */
#define NP_MAX_NODES 128
/* The integer gains stay below 2^63 up to this many blocks. */
#define NP_MAX_BLOCKS 65536
/* Root cuts tried (those within 2 % of the least cut area); grids above
 * NP_FULL_VARIANTS_BLOCKS try the least alone, one partial-plane order. */
#define NP_ROOTS 3
#define NP_FULL_VARIANTS_BLOCKS 16384
/* A node may take this share above its speed share in the refinement. */
#define NP_BALANCE 0.02
/* Node splits of 1, 2 and 3 nodes are tried in boxes of this many
 * nodes at most (more: halves and thirds only). */
#define NP_SMALL_PIECES_UPTO 32
/* Variants evaluated: at most NP_EVALS, those of least node cut (link
 * energy), within NP_SCREEN of the least. */
#define NP_EVALS 4
#define NP_SCREEN 0.05
/* Refinement passes at most. */
#define NP_FM_PASSES 8
int sm_node_partition_starts(sm_solver *s, const int *ks, int nk, int repair_steps);

#endif
