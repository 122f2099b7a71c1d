/* tabu_consolidating_starts.h - starts that empty processors at loose deadlines. */
#ifndef SM_TABU_CONSOLIDATING_STARTS_H
#define SM_TABU_CONSOLIDATING_STARTS_H

#include "solvers/stepper/solver_stepper.h"

/* Offer (sm_solver_offer) mappings that fill processors, most
 * energy-efficient first, up to what the model's deadline lets each
 * compute. Needs a deadline; returns the number offered. */
int sm_consolidation_starts(sm_solver *s);

/* Offer two-processor mappings where one holds a box of the grid against
 * its boundary (every size and corner) and another the rest; small grids
 * and machines only (returns 0 otherwise). Returns the number offered. */
int sm_box_starts(sm_solver *s);

/* Offer rcb -nodes K, the domain decomposition on the first K nodes, for
 * K on a ladder from the nodes used down to 2: where inter-node links are
 * expensive, whole nodes emptied (issue 38 item 2). Machines of 3 or more
 * nodes and grids up to SM_NODE_STARTS_MAX_BLOCKS (returns 0 otherwise),
 * side by side on the solver's threads. Returns the number offered. */
#define SM_NODE_STARTS_MAX_BLOCKS 65536
/* The ladder of K: each about 1/SM_NODE_STARTS_RATIO of the one before. */
#define SM_NODE_STARTS_RATIO 1.189207115002721 /* 2^(1/4) */
/* A start past the deadline by its rounds alone gets at most this many
 * compound steps (tabu_rounds_descent.h) before it is offered again. */
#define SM_NODE_STARTS_REPAIR_STEPS 256
/* Node-level partitions (tabu_node_partition_starts.h) are tried for the
 * K whose rcb -nodes K start costs at most this times the best start. */
#define SM_NODE_PARTITION_GATE 1.10
int sm_node_starts(sm_solver *s);

/* Offer the end of a short tabu search (SM_RCB_SEARCH_ITERS steps, no
 * starts of its own) from rcb over every processor: where the rounds set
 * the makespan, a basin of fewer rounds than the best start's (issue 38
 * item 2). Same machines and grids as sm_node_starts, energy objective
 * only, and only when the rounds set the best start's makespan (its
 * comm_time above its comp_time). Returns the number offered (0 or 1). */
#define SM_RCB_SEARCH_ITERS 200
/* ... and only when rcb's own start costs at most this times the best
 * start: 32 nodes x1, where it wins, 1.06x; x150, where the best start
 * is 12 nodes at the deadline's rounds, 1.7x, and the search (a fifth of
 * tabu's instructions there) ended far above it. */
#define SM_RCB_SEARCH_GATE 1.25
/* tabu: the search to run (the caller's own ops: this file then needs no
 * symbol of tabu_task_movement.c, which calls it). */
int sm_rcb_search_start(sm_solver *s, const sm_solver_ops *tabu);

#endif
