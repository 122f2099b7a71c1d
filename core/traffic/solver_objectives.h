/* solver_objectives.h - the mapping objectives of SPEC 4 (energy, time, hops,
 * hop_cells, congestion, cardinality) kept incrementally: a move or swap
 * updates the value in time proportional to the blocks' degree (times the
 * route length for congestion, log P for energy and time), so every
 * improving solver scores candidates the same way. */
#ifndef SM_SOLVER_OBJECTIVES_H
#define SM_SOLVER_OBJECTIVES_H

#include "core/model/cost_incremental.h"
#include "core/model/grid.h"
#include "core/model/model.h"
#include "core/model/topology.h"
#include "core/net/adjacent_nodes_bitset.h"

typedef enum { SM_OBJ_ENERGY, SM_OBJ_TIME, SM_OBJ_HOPS, SM_OBJ_HOP_CELLS,
               SM_OBJ_CONGESTION, SM_OBJ_CARDINALITY } sm_objective_kind;

#define SM_OBJ_NAMES "energy|time|hops|hop_cells|congestion|cardinality"

int sm_objective_parse(const char *name, sm_objective_kind *out);
const char *sm_objective_name(sm_objective_kind k);

typedef struct sm_objective sm_objective;

/* Built for a mapping (copied). */
sm_objective *sm_objective_new(const sm_grid *g, const sm_topo *t, const sm_model *m,
                               sm_objective_kind k, const int *map);
void sm_objective_free(sm_objective *o);

/* Lower is better (cardinality is negated here). */
double sm_objective_score(const sm_objective *o);
/* The metric as users read it (cardinality positive). */
double sm_objective_value(const sm_objective *o);
const int *sm_objective_map(const sm_objective *o);

void sm_objective_move(sm_objective *o, int block, int proc);
void sm_objective_swap(sm_objective *o, int b1, int b2);
/* Score change of a move or swap, the state left unchanged. Cardinality
 * is fastest when b1 stays the same over many calls (the block whose
 * partners are scored). */
double sm_objective_move_delta(sm_objective *o, int block, int proc);
double sm_objective_swap_delta(sm_objective *o, int b1, int b2);
/* out[i] = sm_objective_swap_delta(o, b1, b2s[i]) for i < n, in one call
 * (bokhari's partners of a step: no call and no objective test per
 * partner). */
void sm_objective_swap_deltas(sm_objective *o, int b1, const int *b2s, int n, double *out);

/* The distance-1 table the cardinality objective reads (NULL: another
 * objective, or a network too large for one). */
const sm_node_adjacency *sm_objective_node_adjacency(const sm_objective *o);

/* Cardinality keeps a copy of the grid's neighbour lists beside each
 * block's record (16 B a block + 8 B a neighbour entry: faster partner
 * scoring) while that copy takes at most this many bytes, else each
 * block's node and count alone (8 B a block). The same numbers either
 * way. The setter returns the old value; for tests and benchmarks, set
 * before any solver builds a state. */
#define SM_CARD_RECORDS_MAX ((int64_t)256 << 20)
int64_t sm_objective_set_card_records_max(int64_t bytes);
/* 1 when o (cardinality) keeps the records layout. */
int sm_objective_card_records(const sm_objective *o);

/* Bytes sm_objective_new will take for kind k on g and t, at most (the
 * layout it would choose; energy and time: the cost state's per-block
 * arrays, its per-processor ones being small beside them). */
int64_t sm_objective_state_bytes(const sm_grid *g, const sm_topo *t, sm_objective_kind k);
/* 0 when `copies` such states fit in what is left for new memory
 * (sm_memory_room: STENCILMAP_MEMORY or MemAvailable, ulimit -v/-d, a
 * safe script's -limit-memory), else -1 with a message naming `who`
 * (the solver), the objective, the blocks, the estimate and what is
 * available: code MEMORY (SAFE LIMIT under a safe script's cap). */
int sm_objective_memory_check(const sm_grid *g, const sm_topo *t, sm_objective_kind k, int copies,
                              const char *who, sm_err *e);

#endif
